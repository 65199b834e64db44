//! End-to-end coverage: coverage-guided `gen` beats unguided `gen` on a command parser whose
//! branches need specific values; guided runs stay deterministic; `jforge coverage` measures
//! a JUnit suite and writes JSON, JaCoCo XML and HTML.

use crate::support as common;
use common::*;
use std::path::{Path, PathBuf};

fn subject() -> PathBuf {
    compiled("cov/cmd")
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
    run_done(jforge().args(&args));
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

#[test]
fn coverage_command_refuses_a_run_in_which_no_test_ran() {
    // A suite of no test (or a launcher that fails to find any) measures nothing: exit 2 with
    // a clear error, never a 0% table with exit 0.
    let d = tempfile::tempdir().unwrap();
    let tests = d.path().join("t");
    std::fs::create_dir_all(tests.join("cmd")).unwrap();
    std::fs::write(
        tests.join("cmd/NoTests.java"),
        "package cmd;\npublic class NoTests {\n    public void notATest() {}\n}\n",
    )
    .unwrap();
    let o = jforge()
        .args(["coverage", "--quiet", "--classpath"])
        .arg(subject())
        .arg("--tests")
        .arg(&tests)
        .args(["--class", "cmd.CommandParser"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no test ran: the JUnit launcher found no test in"),
        "{err}"
    );
    assert!(
        !String::from_utf8_lossy(&o.stdout).contains("cmd.CommandParser"),
        "no table is printed"
    );
}

#[test]
fn stop_on_plateau_ends_a_run_that_stops_finding_branches() {
    // the parser's reachable branches are found within seconds; with a 2 s plateau the run
    // ends long before its 300 s time limit, and the report says why
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("s.json");
    let out = d.path().join("out");
    let cp = subject();
    run_done(
        jforge()
            .args([
                "gen",
                "--quiet",
                "--no-validate",
                "--class",
                "cmd.CommandParser",
            ])
            .arg("--classpath")
            .arg(&cp)
            .args([
                "--time-limit",
                "300s",
                "--stop-on-plateau",
                "2s",
                "--workers",
                "1",
            ])
            .arg("--output-dir")
            .arg(&out)
            .arg("--stats-json")
            .arg(&json),
    );
    let s = read_json(&json);
    assert_eq!(s["stop_reason"], "plateau", "{s:#}");
    assert!(s["generation_seconds"].as_f64().unwrap() < 300.0);
    // without it, the same run ends on the time limit
    let j2 = d.path().join("t.json");
    run_done(
        jforge()
            .args([
                "gen",
                "--quiet",
                "--no-validate",
                "--class",
                "cmd.CommandParser",
            ])
            .arg("--classpath")
            .arg(&cp)
            .args(["--time-limit", "3s", "--workers", "1"])
            .arg("--output-dir")
            .arg(d.path().join("out2"))
            .arg("--stats-json")
            .arg(&j2),
    );
    assert_eq!(read_json(&j2)["stop_reason"], "time-limit");
}

#[test]
fn jdk_classes_are_measured() {
    // java.util.TreeMap lives in java.base: gen measures it through --patch-module
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("s.json");
    run_done(
        jforge()
            .args([
                "gen",
                "--quiet",
                "--no-validate",
                "--class",
                "java.util.TreeMap",
            ])
            .args(["--generated-limit", "2000", "--workers", "1", "--seed", "3"])
            .arg("--output-dir")
            .arg(d.path().join("out"))
            .arg("--stats-json")
            .arg(&json),
    );
    let s = read_json(&json);
    let c = &s["coverage"];
    let (bc, bt) = (
        c["branches_covered"].as_u64().unwrap(),
        c["branches_total"].as_u64().unwrap(),
    );
    let (lc, lt) = (
        c["lines_covered"].as_u64().unwrap(),
        c["lines_total"].as_u64().unwrap(),
    );
    // TreeMap and its nested classes have hundreds of branches; 2000 sequences of put/get/
    // remove... reach a good share of them, but not all
    assert!(bt > 500 && bc > 100 && bc < bt, "branches {bc}/{bt}");
    assert!(lt > 800 && lc > 200 && lc < lt, "lines {lc}/{lt}");
}

#[test]
fn coverage_command_measures_jdk_classes() {
    // a JUnit suite on java.util.ArrayDeque: the JDK class is instrumented and patched into
    // java.base; what the test calls is covered, what nothing calls is not
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("c.json");
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/subjects/cov/jdktest");
    run_ok(
        jforge()
            .args(["coverage", "--quiet", "--tests"])
            .arg(&tests)
            .args(["--class", "java.util.ArrayDeque", "--json"])
            .arg(&json),
    );
    let j = read_json(&json);
    let classes = j["classes"].as_array().unwrap();
    let find = |name: &str| classes.iter().find(|c| c["name"] == name).unwrap();
    let deque = find("java.util.ArrayDeque");
    let method = |name: &str| {
        deque["methods_detail"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name)
            .unwrap()["lines"]["covered"]
            .as_u64()
            .unwrap()
    };
    assert!(
        method("addFirst") > 0 && method("pollFirst") > 0,
        "{deque:#}"
    );
    assert_eq!(method("descendingIterator"), 0, "{deque:#}");
    let desc = find("java.util.ArrayDeque$DescendingIterator");
    assert_eq!(desc["lines"]["covered"], 0, "{desc:#}");
    assert!(desc["lines"]["total"].as_u64().unwrap() > 0);
}

#[test]
fn guidance_reaches_private_classes_through_returned_interfaces() {
    // Shelf's cursor is a private Iterator class: its 6 branches run only when Iterator
    // methods are called on what cursor() returns. Guided gen adds those methods (views);
    // unguided gen calls only Shelf's own methods.
    for seed in [1, 2, 3] {
        let (guided, total, _) = gen_class_branches("cmd.Shelf", seed, &[]);
        let (unguided, total2, _) = gen_class_branches("cmd.Shelf", seed, &["--no-guidance"]);
        assert_eq!(total, total2);
        assert_eq!(total, 6, "Shelf has no branch of its own; the cursor has 6");
        assert_eq!(unguided, 0, "seed {seed}");
        // 400 sequences reach at least one side of each of the three methods
        assert!(guided >= 3, "seed {seed}: {guided}/6");
    }
}
