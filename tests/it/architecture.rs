//! The layering rules of ARCHITECTURE.md ("Invariants") that can be checked mechanically:
//! which modules may not name which, that nothing below the suite stage prints, and that no
//! function in src/ is longer than a list of named steps should be.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(rust_files(&p));
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    out
}

fn src(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(rel)
}

/// Files of `area` (a folder or a file under src/) that mention any of `forbidden`.
fn offenders(area: &str, forbidden: &[&str]) -> Vec<String> {
    let p = src(area);
    let files = if p.is_dir() { rust_files(&p) } else { vec![p] };
    assert!(!files.is_empty(), "no Rust files under src/{area}");
    let mut bad = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in forbidden {
                if code.contains(word) {
                    bad.push(format!("{}:{}: {word}", f.display(), n + 1));
                }
            }
        }
    }
    bad
}

#[test]
fn the_model_and_the_instrumenter_know_no_runner_and_no_generator() {
    for area in ["model", "instrument", "classbytes.rs", "sequence.rs"] {
        let bad = offenders(
            area,
            &[
                "crate::runner",
                "crate::generate",
                "crate::exhaustive",
                "crate::suite",
                "crate::session",
                "crate::emit",
                "crate::concolic",
            ],
        );
        assert!(bad.is_empty(), "src/{area} must not depend on: {bad:#?}");
    }
}

#[test]
fn the_runner_knows_no_generator_and_no_output() {
    let bad = offenders(
        "runner",
        &[
            "crate::generate",
            "crate::exhaustive",
            "crate::suite",
            "crate::emit",
            "crate::report",
        ],
    );
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn generators_do_not_reach_into_each_other() {
    // The random generator and the exhaustive search share operations (generate::ops), the
    // session and the suite stage, never each other's search.
    let bad = offenders(
        "exhaustive",
        &["generate::random", "generate::finish", "generate::select"],
    );
    assert!(bad.is_empty(), "{bad:#?}");
    let bad = offenders("generate", &["crate::exhaustive", "crate::concolic"]);
    assert!(bad.is_empty(), "{bad:#?}");
    // Concolic shares the operations, the instrumenter (its trace mode) and the suite stage.
    let bad = offenders(
        "concolic",
        &[
            "generate::random",
            "generate::finish",
            "generate::select",
            "crate::exhaustive",
        ],
    );
    assert!(bad.is_empty(), "{bad:#?}");
    let bad = offenders("exhaustive", &["crate::concolic"]);
    assert!(bad.is_empty(), "{bad:#?}");
    // The suite stage serves every generator and depends on none.
    let bad = offenders(
        "suite",
        &["generate::random", "crate::exhaustive", "generate::finish"],
    );
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn nothing_below_the_suite_stage_prints() {
    for area in [
        "model",
        "instrument",
        "runner",
        "sequence.rs",
        "classbytes.rs",
    ] {
        let bad = offenders(area, &["println!", "print!(", "eprint!("]);
        assert!(
            bad.is_empty(),
            "src/{area} must report through its return values, not print: {bad:#?}"
        );
    }
}

#[test]
fn the_shared_pipeline_knows_no_generator() {
    // The strategy driver, the session and the report envelope serve every generator; a new
    // generator must not need to change them.
    for area in [
        "strategy.rs",
        "session.rs",
        "report.rs",
        "exit.rs",
        "contracts.rs",
    ] {
        let bad = offenders(
            area,
            &[
                "crate::exhaustive",
                "crate::builders",
                "generate::random",
                "generate::finish",
                "generate::report",
                "crate::gen_cmd",
                "crate::builders_cmd",
            ],
        );
        assert!(bad.is_empty(), "src/{area} must not depend on: {bad:#?}");
    }
}

#[test]
fn every_generator_runs_through_the_strategy_driver() {
    // One pipeline: each generator implements `Strategy` and only the driver opens a session
    // (so Ctrl-C handling, the report envelope and exit codes are the same for all).
    for file in ["gen_cmd.rs", "exhaustive_cmd.rs", "builders_cmd.rs"] {
        let text = std::fs::read_to_string(src(file)).unwrap();
        assert!(
            text.contains("impl Strategy for") && text.contains("crate::strategy::drive("),
            "src/{file} must implement Strategy and run through strategy::drive"
        );
    }
    let opens: Vec<String> = rust_files(&src(""))
        .into_iter()
        .filter(|f| !f.ends_with("session.rs") && !f.ends_with("strategy.rs"))
        .filter(|f| {
            std::fs::read_to_string(f).unwrap().lines().any(|l| {
                l.split("//")
                    .next()
                    .unwrap_or("")
                    .contains("Session::open(")
            })
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        opens.is_empty(),
        "only strategy::drive opens a session: {opens:#?}"
    );
    // Every report is written through the typed envelope.
    let untyped: Vec<String> = rust_files(&src(""))
        .into_iter()
        .filter(|f| {
            let t = std::fs::read_to_string(f).unwrap();
            t.contains("cannot write --stats-json") && !f.ends_with("report.rs")
        })
        .map(|f| f.display().to_string())
        .collect();
    assert!(
        untyped.is_empty(),
        "--stats-json is written by report::Envelope only: {untyped:#?}"
    );
}

/// Longest function body allowed in src/ outside test modules (ARCHITECTURE.md,
/// "Invariants": a function reads as a list of named steps).
const MAX_FUNCTION_LINES: usize = 100;

/// `(lines, file:line name)` of every function in `text` (outside a trailing `#[cfg(test)]`
/// module), from its `fn` line to the closing brace at the same indentation (rustfmt's layout).
fn function_lengths(file: &str, text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("#[cfg(test)]"))
        .collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let after_vis = body
            .strip_prefix("pub ")
            .or_else(|| body.strip_prefix("pub(crate) "))
            .or_else(|| body.strip_prefix("pub(super) "))
            .unwrap_or(body);
        let after_const = after_vis.strip_prefix("const ").unwrap_or(after_vis);
        let Some(rest) = after_const.strip_prefix("fn ") else {
            continue;
        };
        if line.trim_end().ends_with(';') {
            continue; // a declaration in a trait
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        if let Some(end) = lines[i + 1..].iter().position(|l| *l == close) {
            out.push((end + 2, format!("{file}:{} {name}", i + 1)));
        }
    }
    out
}

#[test]
fn the_function_length_scanner_measures_from_fn_to_its_brace() {
    let text = "fn a() {\n    x();\n}\n\nimpl S {\n    pub fn b(&self) -> u8 {\n        1\n    }\n}\n#[cfg(test)]\nmod tests {\n    fn long() {\n    }\n}\n";
    let got = function_lengths("f.rs", text);
    assert_eq!(
        got,
        vec![(3, "f.rs:1 a".to_string()), (3, "f.rs:6 b".to_string())]
    );
}

#[test]
fn functions_read_as_named_steps() {
    let mut long = Vec::new();
    for f in rust_files(&src("")) {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.strip_prefix(src("")).unwrap().display().to_string();
        long.extend(
            function_lengths(&name, &text)
                .into_iter()
                .filter(|(n, _)| *n > MAX_FUNCTION_LINES),
        );
    }
    long.sort();
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines: split them into named steps \
         (ARCHITECTURE.md, Invariants): {long:#?}"
    );
}
