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
                "crate::r#gen",
                "::cmd::",
                "crate::flags",
            ],
        );
        assert!(bad.is_empty(), "src/{area} must not depend on: {bad:#?}");
    }
}

#[test]
fn every_generator_runs_through_the_strategy_driver() {
    // One pipeline: each generator implements `Strategy` and only the driver opens a session
    // (so Ctrl-C handling, the report envelope and exit codes are the same for all).
    for file in [
        "gen/run.rs",
        "exhaustive/cmd.rs",
        "builders/cmd.rs",
        "params/cmd.rs",
        "concolic/cmd.rs",
    ] {
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

/// Each command's flags (`Args`) and the file that defines them: its folder's `cmd.rs`
/// (`merge`, one file, defines its own).
const COMMANDS: [(&str, &str); 7] = [
    ("GenArgs", "gen/cmd.rs"),
    ("ExhaustiveArgs", "exhaustive/cmd.rs"),
    ("BuildersArgs", "builders/cmd.rs"),
    ("CoverageArgs", "coverage/cmd.rs"),
    ("ParamsArgs", "params/cmd.rs"),
    ("ConcolicArgs", "concolic/cmd.rs"),
    ("MergeArgs", "merge.rs"),
];

/// `src/<rel>` of every Rust file under src/, with its text.
fn sources() -> Vec<(String, String)> {
    let root = src("");
    let mut out: Vec<(String, String)> = rust_files(&root)
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap().display().to_string();
            (rel, std::fs::read_to_string(&f).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// The code of a line: what precedes a `//` comment.
fn code_of(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

#[test]
fn the_top_names_the_commands_and_nothing_below_names_the_top() {
    let main = std::fs::read_to_string(src("main.rs")).unwrap();
    assert!(
        main.contains("enum Command") && main.contains("Command::Gen(args) =>"),
        "src/main.rs holds the Command enum and its dispatch"
    );
    let mut bad = Vec::new();
    for (rel, text) in sources() {
        for (args, home) in COMMANDS {
            if rel == "main.rs" || rel == home {
                continue;
            }
            for (n, line) in text.lines().enumerate() {
                if code_of(line).contains(args) {
                    bad.push(format!(
                        "src/{rel}:{}: {args} (defined in src/{home})",
                        n + 1
                    ));
                }
            }
        }
        if rel == "flags.rs" || rel == "settings.rs" {
            for (n, line) in text.lines().enumerate() {
                let code = code_of(line);
                if code.contains("::cmd") || code.contains("crate::r#gen") {
                    bad.push(format!("src/{rel}:{}: names a command", n + 1));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "only src/main.rs names a command's flags; the shared flag groups name no command: {bad:#?}"
    );
}

#[test]
fn flags_are_read_once_at_each_command_entry() {
    // A command's `cmd.rs` (and `merge.rs`, a one-file command) turns its clap struct into
    // plain settings (`crate::settings` and the generators' own); no layer below takes a
    // clap struct or names the flag groups.
    let entry = |rel: &str| rel.ends_with("cmd.rs") || rel == "merge.rs" || rel == "main.rs";
    let mut bad = Vec::new();
    for (rel, text) in sources() {
        if entry(&rel) || rel == "flags.rs" {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            let code = code_of(line);
            for word in [
                "crate::flags",
                "clap::Args",
                "derive(Args",
                "#[arg(",
                "#[command(",
            ] {
                if code.contains(word) {
                    bad.push(format!("src/{rel}:{}: {word}", n + 1));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn each_command_lives_in_its_own_folder() {
    let top: Vec<String> = std::fs::read_dir(src(""))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .filter(|n| n.ends_with("_cmd.rs") || n == "per_class.rs" || n == "cli.rs")
        .collect();
    assert!(top.is_empty(), "commands belong in their folders: {top:?}");
    for (_, home) in COMMANDS {
        assert!(src(home).is_file(), "src/{home} is missing");
    }
}

/// Longest file allowed in src/ (ARCHITECTURE.md, "Invariants"): a longer one holds more
/// than one concern.
const MAX_FILE_LINES: usize = 1500;

#[test]
fn no_file_is_longer_than_one_concern() {
    let long: Vec<String> = sources()
        .into_iter()
        .filter(|(_, t)| t.lines().count() > MAX_FILE_LINES)
        .map(|(rel, t)| format!("src/{rel}: {} lines", t.lines().count()))
        .collect();
    assert!(
        long.is_empty(),
        "files over {MAX_FILE_LINES} lines: split them where their concerns part: {long:#?}"
    );
}

/// The module path of `src/<rel>`: `concolic/trace.rs` -> [concolic, trace],
/// `concolic/mod.rs` -> [concolic], `lib.rs` -> [].
fn module_of(rel: &str) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The file (`src/<rel>`) that defines the longest module prefix of `path`.
fn file_of(path: &[String], files: &std::collections::BTreeSet<String>) -> Option<String> {
    for n in (1..=path.len()).rev() {
        let base = path[..n].join("/");
        for cand in [format!("{base}.rs"), format!("{base}/mod.rs")] {
            if files.contains(&cand) {
                return Some(cand);
            }
        }
    }
    None
}

/// Every module path a file's code names through `crate::`, `super::` and `self::`, use
/// groups (`crate::a::{b, c::d}`) unfolded one level: what the file imports from.
fn named_paths(rel: &str, text: &str) -> Vec<Vec<String>> {
    let here = module_of(rel);
    let code: String = text
        .lines()
        .take_while(|l| !l.starts_with("#[cfg(test)]"))
        .map(code_of)
        .collect::<Vec<_>>()
        .join("\n");
    let mut out = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let rest: String = bytes[i..bytes.len().min(i + 8)].iter().collect();
        let starts = ["crate::", "super::", "self::"]
            .into_iter()
            .find(|p| rest.starts_with(p));
        let boundary = i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_');
        let (Some(_), true) = (starts, boundary) else {
            i += 1;
            continue;
        };
        // read `seg::seg::...` and a following `{...}` group
        let mut j = i;
        let mut segs: Vec<String> = Vec::new();
        loop {
            let s = j;
            while j < bytes.len()
                && (bytes[j].is_alphanumeric() || bytes[j] == '_' || bytes[j] == '#')
            {
                j += 1;
            }
            segs.push(bytes[s..j].iter().collect::<String>().replace("r#", ""));
            if bytes[j..].starts_with(&[':', ':']) {
                j += 2;
                if j < bytes.len() && bytes[j] == '{' {
                    break;
                }
            } else {
                break;
            }
        }
        let mut base: Vec<String> = Vec::new();
        for seg in &segs {
            match seg.as_str() {
                "crate" => base.clear(),
                "super" => {
                    if base.is_empty() {
                        base = here.clone();
                    }
                    base.pop();
                }
                "self" => base = here.clone(),
                "" => {}
                s => base.push(s.to_string()),
            }
        }
        if j < bytes.len() && bytes[j] == '{' {
            let mut depth = 0;
            let mut k = j;
            let mut item = String::new();
            let mut items = Vec::new();
            while k < bytes.len() {
                let c = bytes[k];
                match c {
                    '{' => depth += 1,
                    '}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => items.push(std::mem::take(&mut item)),
                    _ if depth == 1 => item.push(c),
                    _ => {}
                }
                k += 1;
            }
            items.push(item);
            for it in items {
                let first: String = it
                    .trim()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let mut p = base.clone();
                if !first.is_empty() && first != "self" {
                    p.push(first);
                }
                out.push(p);
            }
            i = k;
        } else {
            out.push(base);
            i = j;
        }
    }
    out
}

#[test]
fn the_import_reader_resolves_crate_super_and_groups() {
    let got = named_paths(
        "concolic/trace.rs",
        "use super::solver::{STRING, Term};\nuse crate::emit::{output, suite::Tool};\nfn f() { crate::r#gen::cmd::run(); }\n",
    );
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    assert_eq!(
        got,
        vec![
            s(&["concolic", "solver", "STRING"]),
            s(&["concolic", "solver", "Term"]),
            s(&["emit", "output"]),
            s(&["emit", "suite"]),
            s(&["gen", "cmd", "run"]),
        ]
    );
}

#[test]
fn no_circle_between_files() {
    // ARCHITECTURE.md, "Invariants": files import each other one way, so a file can be read
    // knowing only what is below it.
    let all = sources();
    let files: std::collections::BTreeSet<String> = all.iter().map(|(r, _)| r.clone()).collect();
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        Default::default();
    for (rel, text) in &all {
        for path in named_paths(rel, text) {
            if let Some(to) = file_of(&path, &files)
                && to != *rel
                && !matches!(to.as_str(), "lib.rs" | "main.rs")
            {
                edges.entry(rel.clone()).or_default().insert(to);
            }
        }
    }
    // a depth-first search for a path back to where it started
    fn reach(
        from: &str,
        target: &str,
        edges: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        seen: &mut std::collections::BTreeSet<String>,
        trail: &mut Vec<String>,
    ) -> bool {
        for next in edges.get(from).into_iter().flatten() {
            if next == target {
                return true;
            }
            if seen.insert(next.clone()) {
                trail.push(next.clone());
                if reach(next, target, edges, seen, trail) {
                    return true;
                }
                trail.pop();
            }
        }
        false
    }
    let mut circles = Vec::new();
    for f in &files {
        let mut trail = vec![f.clone()];
        if reach(f, f, &edges, &mut Default::default(), &mut trail) {
            trail.push(f.clone());
            circles.push(trail.join(" -> "));
        }
    }
    assert!(
        circles.is_empty(),
        "files that import each other in a circle (move the shared names below both): {circles:#?}"
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
