//! The layering rules of ARCHITECTURE.md ("Invariants") that can be checked mechanically:
//! which modules may not name which, and that nothing below the suite stage prints.

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
    let bad = offenders("generate", &["crate::exhaustive"]);
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
