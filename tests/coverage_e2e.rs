//! End-to-end coverage: coverage-guided `gen` beats unguided `gen` on a command parser whose
//! branches need specific values; guided runs stay deterministic; `jforge coverage` measures
//! a JUnit suite and writes JSON, JaCoCo XML and HTML.

mod common;
use common::*;
use std::path::{Path, PathBuf};

fn subject() -> PathBuf {
    static ONCE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ONCE.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("jforge-cov-subject-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        javac(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/subjects/cov/cmd"),
            &dir,
            "",
        );
        dir
    })
    .clone()
}

/// (covered branches, total branches, regression tests) of one `gen` run.
fn gen_branches(seed: u64, extra: &[&str]) -> (u64, u64, u64) {
    gen_class_branches("cmd.CommandParser", seed, extra)
}

fn gen_class_branches(class: &str, seed: u64, extra: &[&str]) -> (u64, u64, u64) {
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("s.json");
    let cp = subject();
    let seed = seed.to_string();
    let mut args = vec![
        "gen",
        "--quiet",
        "--no-validate",
        "--class",
        class,
        "--classpath",
        cp.to_str().unwrap(),
        "--generated-limit",
        "400",
        "--workers",
        "1",
        "--seed",
        &seed,
    ];
    args.extend_from_slice(extra);
    let out = d.path().join("out");
    let json_s = json.display().to_string();
    let out_s = out.display().to_string();
    args.extend_from_slice(&["--output-dir", &out_s, "--stats-json", &json_s]);
    run_ok(jforge().args(&args));
    let s = read_json(&json);
    let c = &s["coverage"];
    assert!(c.is_object(), "coverage is measured by default: {s:#}");
    assert!(c["series"].as_array().unwrap().len() >= 2, "{c:#}");
    (
        c["branches_covered"].as_u64().unwrap(),
        c["branches_total"].as_u64().unwrap(),
        s["regression_tests"].as_u64().unwrap(),
    )
}

#[test]
fn guided_gen_beats_unguided_on_command_parser() {
    let (mut guided, mut unguided) = (0, 0);
    for seed in [1, 2, 3] {
        let (g, total, _) = gen_branches(seed, &[]);
        let (u, total2, _) = gen_branches(seed, &["--no-guidance"]);
        assert_eq!(total, total2);
        assert!(total >= 20, "branch probes of CommandParser: {total}");
        eprintln!("seed {seed}: guided {g}/{total}, unguided {u}/{total}");
        guided += g;
        unguided += u;
    }
    assert!(
        guided > unguided,
        "guided {guided} branches should beat unguided {unguided}"
    );
}

#[test]
fn comparison_logging_finds_a_word_that_is_no_class_constant() {
    // Lock.open(w) is true only for "sesame", built at run time: no constant of the class
    // file holds it, so only the logged String.equals operand can supply it.
    let (g, total, _) = gen_class_branches("cmd.Lock", 1, &[]);
    let (u, _, _) = gen_class_branches("cmd.Lock", 1, &["--no-guidance"]);
    assert_eq!(
        g, total,
        "guided run with comparison logging covers both edges"
    );
    assert!(u < total, "unguided run cannot know the word ({u}/{total})");
}

#[test]
fn comparison_logging_finds_numbers_that_are_no_class_constants() {
    // Codes needs 31337, 'q', 90001..90009, switch keys 777/4096 and a long computed at run
    // time: the logged int/long operands (and the switch keys of the reached switch) become
    // literals of the method that compared them. Without guidance none of them is known.
    let (g, total, _) = gen_class_branches("cmd.Codes", 1, &[]);
    let (u, total2, _) = gen_class_branches("cmd.Codes", 1, &["--no-guidance"]);
    assert_eq!(total, total2);
    assert_eq!(total, 13, "branch probes of Codes");
    assert_eq!(g, total, "guided run covers every edge ({g}/{total})");
    assert!(
        u <= total - 5,
        "unguided run cannot know the numbers ({u}/{total})"
    );
}

#[test]
fn guided_gen_is_deterministic() {
    let a = gen_branches(7, &[]);
    let b = gen_branches(7, &[]);
    assert_eq!(a, b);
}

#[test]
fn coverage_command_measures_a_junit4_suite() {
    let d = tempfile::tempdir().unwrap();
    let (json, xml, html) = (
        d.path().join("c.json"),
        d.path().join("c.xml"),
        d.path().join("html"),
    );
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/subjects/cov/cmdtest");
    let sources = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/subjects/cov");
    let o = run_ok(
        jforge()
            .args(["coverage", "--quiet", "--classpath"])
            .arg(subject())
            .arg("--tests")
            .arg(&tests)
            .args(["--class", "cmd.CommandParser", "--json"])
            .arg(&json)
            .arg("--xml")
            .arg(&xml)
            .arg("--html")
            .arg(&html)
            .arg("--sources")
            .arg(sources.join("cmd").parent().unwrap()),
    );
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains("cmd.CommandParser"), "{table}");
    let j = read_json(&json);
    let c = &j["classes"][0];
    assert_eq!(c["name"], "cmd.CommandParser");
    // constructor and exec ran; the 28 other methods did not
    assert_eq!(c["methods"]["covered"], 2, "{c:#}");
    assert_eq!(c["methods"]["total"], 30, "{c:#}");
    let exec = c["methods_detail"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == "exec")
        .unwrap();
    let (bc, bt) = (
        exec["branches"]["covered"].as_u64().unwrap(),
        exec["branches"]["total"].as_u64().unwrap(),
    );
    assert!(bc >= 4 && bc < bt, "exec branches {bc}/{bt}");
    let x = std::fs::read_to_string(&xml).unwrap();
    assert!(x.contains("<class name=\"cmd/CommandParser\" sourcefilename=\"CommandParser.java\">"));
    assert!(x.contains("<counter type=\"BRANCH\""));
    assert!(x.contains("<line nr="));
    assert!(html.join("index.html").exists());
    let page = std::fs::read_to_string(html.join("cmd.CommandParser.html")).unwrap();
    assert!(
        page.contains("case &quot;GET&quot;:"),
        "source lines are shown"
    );
    assert!(page.contains("class=\"fc\"") && page.contains("class=\"nc\""));
}
