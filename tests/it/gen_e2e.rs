//! End-to-end: `jforge gen` on JDK classes, commons-lang3 and our own subjects; the written
//! suites are compiled and run with javac and JUnit here, independently of jforge's checker.

use crate::support as common;
use common::*;
use std::path::{Path, PathBuf};

/// `gen` (seed 1, `limit` sequences) on `class` of the subjects compiled from `set`: the
/// temporary folder, the tests folder, the stats file and jforge's output.
fn gen_compiled(
    set: &str,
    class: &str,
    limit: &str,
) -> (tempfile::TempDir, PathBuf, PathBuf, std::process::Output) {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("stats.json");
    let classes = compiled(set);
    let mut args = gen_args(&out, &json);
    args.extend(
        [
            "--class",
            class,
            "--generated-limit",
            limit,
            "--seed",
            "1",
            "--classpath",
        ]
        .map(String::from),
    );
    args.push(classes.display().to_string());
    let o = run_done(jforge().args(&args));
    (d, out, json, o)
}

fn gen_args(out: &Path, json: &Path) -> Vec<String> {
    vec![
        "gen".into(),
        "--quiet".into(),
        "--output-dir".into(),
        out.display().to_string(),
        "--stats-json".into(),
        json.display().to_string(),
    ]
}

/// `jforge gen --quiet` on the gen subjects with `extra`, run from `dir` (as a user runs it
/// from a project), writing to `dir/tests` and `dir/stats.json`; must finish (exit 0 or 3).
/// Returns the output folder, what the run printed (stdout then stderr) and the report.
fn gen_from(dir: &Path, extra: &[&str]) -> (std::path::PathBuf, String, serde_json::Value) {
    let out = dir.join("tests");
    let json = dir.join("stats.json");
    let o = run_done(
        jforge()
            .current_dir(dir)
            .args(gen_args(&out, &json))
            .arg("--classpath")
            .arg(subjects())
            .args(extra),
    );
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (out, text, read_json(&json))
}

/// `@Test` methods in the files under `dir` whose name ends in `suffix`.
/// Tests in the files of one family kind: `kind` "Regression" matches `CircleRegressionTest`,
/// `CircleRegression2Test`, ...; "Error" the error families.
fn count_tests(dir: &Path, kind: &str) -> usize {
    let family = regex::Regex::new(&format!(r"{kind}\d*Test\.java$")).unwrap();
    java_files(dir)
        .iter()
        .filter(|f| family.is_match(&f.file_name().unwrap().to_string_lossy()))
        .map(|f| std::fs::read_to_string(f).unwrap().matches("@Test").count())
        .sum()
}

/// Where error-revealing tests go by default: `jforge-error-tests` next to the output folder.
fn error_dir(out: &Path) -> std::path::PathBuf {
    out.with_file_name("jforge-error-tests")
}

#[test]
fn treemap_suite_compiles_and_passes() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("stats.json");
    let mut args = gen_args(&out, &json);
    args.extend(
        [
            "--class",
            "java.util.TreeMap",
            "--generated-limit",
            "4000",
            "--seed",
            "3",
        ]
        .map(String::from),
    );
    run_done(jforge().args(&args));
    let stats = read_json(&json);
    assert_eq!(stats["validation"]["clean"], true, "{stats:#}");
    let reg = stats["regression_tests"].as_u64().unwrap() as usize;
    assert!(reg >= 20, "too few regression tests: {reg}");
    assert_eq!(count_tests(&out, "Regression"), reg);
    // The one class under test's row counts every regression test, those ending in a call on
    // a view (`keySet().pollFirst()`) included.
    assert_eq!(
        stats["classes"][0]["regression_tests"].as_u64(),
        Some(reg as u64),
        "{:#}",
        stats["classes"]
    );
    // Tests of java.* classes go to a package javac accepts, named after the class.
    let file = out.join("jforge/tests/TreeMapRegressionTest.java");
    let src = std::fs::read_to_string(&file).unwrap();
    assert!(
        src.starts_with("// jforge: gen, classes: java.util.TreeMap, run: "),
        "{src}"
    );
    assert!(
        src.contains("TreeMap<String, Integer>")
            || src.contains("TreeMap<java.lang.String, java.lang.Integer>"),
        "generic type arguments are written"
    );
    assert!(
        src.contains("assertEquals"),
        "regression assertions are written"
    );
    // Error-revealing tests are kept out of the suite a build runs.
    assert_eq!(count_tests(&out, "Error"), 0);
    let run = compile_and_run_junit4(&out, "");
    assert_eq!(run.tests_run, reg);
    let reg_failures: Vec<_> = run
        .failures
        .iter()
        .filter(|(h, _)| h.contains("RegressionTest"))
        .collect();
    assert!(
        reg_failures.is_empty(),
        "regression tests failed: {reg_failures:?}\n{}",
        run.output
    );
    // Most TreeMap methods are reached.
    let row = &stats["classes"][0];
    assert!(
        row["covered"].as_u64().unwrap() * 10 >= row["operations"].as_u64().unwrap() * 6,
        "{row}"
    );
}

#[test]
fn finds_broken_equals_and_npe_in_subjects() {
    let classes = subjects();
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("stats.json");
    let mut args = gen_args(&out, &json);
    args.extend(
        [
            "--classpath",
            classes.to_str().unwrap(),
            "--generated-limit",
            "6000",
        ]
        .map(String::from),
    );
    for c in [
        "quirks.BrokenEquals",
        "quirks.Npe",
        "quirks.Shapes",
        "quirks.Shapes$Box",
        "quirks.Shapes$Counter",
        "ds.IntStack",
        "ds.BinarySearchTree",
        "ds.LruCache",
    ] {
        args.extend(["--class".to_string(), c.to_string()]);
    }
    run_done(jforge().args(&args));
    let stats = read_json(&json);
    let errors = stats["errors"].as_array().unwrap();
    let has = |class: &str, contract: &str| {
        errors
            .iter()
            .any(|e| e["class"] == class && e["contract"] == contract)
    };
    assert!(
        has("quirks.BrokenEquals", "equals-reflexive"),
        "{errors:#?}"
    );
    assert!(has("quirks.Npe", "npe-without-null-input"), "{errors:#?}");
    assert!(
        !errors.iter().any(|e| e["class"] == "ds.IntStack"),
        "no false alarms on a correct class: {errors:#?}"
    );
    // Every class got tests and the written suite is clean.
    for row in stats["classes"].as_array().unwrap() {
        assert!(row["covered"].as_u64().unwrap() > 0, "{row}");
    }
    assert_eq!(stats["validation"]["clean"], true);
    // Every regression test passes; the error-revealing tests are apart, and each of them
    // fails, for its stated reason.
    let run = compile_and_run_junit4(&out, classes.to_str().unwrap());
    assert!(run.failures.is_empty(), "{}", run.output);
    assert_eq!(count_tests(&out, "Error"), 0);
    let errs = error_dir(&out);
    let error_tests = count_tests(&errs, "Error");
    assert_eq!(error_tests, errors.len());
    let run = compile_and_run_junit4(&errs, classes.to_str().unwrap());
    assert!(
        run.failures.iter().all(|(h, _)| h.contains("ErrorTest")),
        "{}",
        run.output
    );
    assert_eq!(run.failures.len(), error_tests, "{}", run.output);
    assert!(
        run.failures
            .iter()
            .any(|(_, w)| w.contains("jforge contract violated: equals-reflexive")),
        "{}",
        run.output
    );
    assert!(
        run.failures
            .iter()
            .any(|(_, w)| w.contains("java.lang.NullPointerException")),
        "{}",
        run.output
    );
    // Each class's tests are in its own package, nested classes named Outer_Inner.
    for f in [
        "quirks/BrokenEqualsRegressionTest.java",
        "quirks/Shapes_BoxRegressionTest.java",
        "ds/IntStackRegressionTest.java",
        "ds/LruCacheRegressionTest.java",
    ] {
        assert!(out.join(f).is_file(), "{f} missing: {:?}", java_files(&out));
    }
    assert!(errs.join("quirks/BrokenEqualsErrorTest.java").is_file());
    // Nested, inner, generic, overloaded and varargs members were written.
    let all: String = java_files(&out)
        .iter()
        .chain(&java_files(&errs))
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    assert!(all.contains("Shapes.Kind."), "enum constants are used");
    assert!(
        all.contains(".new Counter("),
        "inner class constructor with outer instance"
    );
    assert!(
        all.contains("new int[]"),
        "varargs written as an explicit array"
    );
    assert!(
        all.contains("Shapes.Box<"),
        "generic nested class instantiated"
    );
}

#[test]
fn deterministic_whatever_the_number_of_workers() {
    let classes = subjects();
    let run = |workers: &str, dir: &Path| {
        let json = dir.join("s.json");
        let out = dir.join("t");
        let mut args = gen_args(&out, &json);
        args.extend(
            [
                "--classpath",
                classes.to_str().unwrap(),
                "--class",
                "ds.BinarySearchTree",
                "--class",
                "java.util.ArrayList",
                "--generated-limit",
                "3000",
                "--seed",
                "42",
                "--workers",
                workers,
            ]
            .map(String::from),
        );
        run_done(jforge().args(&args));
        java_files(&out)
            .into_iter()
            .map(|f| {
                (
                    f.strip_prefix(&out).unwrap().to_path_buf(),
                    std::fs::read(&f).unwrap(),
                )
            })
            .collect::<Vec<_>>()
    };
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let one = run("1", a.path());
    let two = run("2", b.path());
    assert!(!one.is_empty());
    assert_eq!(one.len(), two.len());
    for ((pa, ca), (pb, cb)) in one.iter().zip(&two) {
        assert_eq!(pa, pb);
        assert!(ca == cb, "{} differs between 1 and 2 workers", pa.display());
    }
}

/// A subject that reads the clock (elapsed times, today's date, `new Date()`, nanoTime) is
/// generated identically with 1 and 2 workers, with and without coverage: the workers' clock
/// is fixed and starts again for every sequence, whatever ran before in that JVM.
#[test]
#[ignore = "slow: four jforge runs"]
fn deterministic_with_the_clock_whatever_the_number_of_workers() {
    let classes = subjects();
    let run = |workers: &str, extra: Option<&str>, dir: &Path| {
        let json = dir.join("s.json");
        let out = dir.join("t");
        let mut args = gen_args(&out, &json);
        args.extend(
            [
                "--classpath",
                classes.to_str().unwrap(),
                "--class",
                "suite.Stopwatch",
                "--generated-limit",
                "2000",
                "--seed",
                "5",
                "--workers",
                workers,
            ]
            .map(String::from),
        );
        args.extend(extra.map(String::from));
        run_done(jforge().args(&args));
        let stats = read_json(&json);
        assert!(
            stats["finish"]["clock_assertions"].as_u64().unwrap() > 0,
            "{stats:#}"
        );
        java_files(&out)
            .into_iter()
            .map(|f| std::fs::read_to_string(&f).unwrap())
            .collect::<Vec<_>>()
    };
    for extra in [None, Some("--no-coverage")] {
        let a = tempfile::tempdir().unwrap();
        let b = tempfile::tempdir().unwrap();
        let one = run("1", extra, a.path());
        let two = run("2", extra, b.path());
        assert!(!one.is_empty());
        assert!(
            one == two,
            "{extra:?}: the suites differ between 1 and 2 workers"
        );
    }
}

#[test]
fn survives_hostile_code() {
    let classes = subjects();
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("stats.json");
    let mut args = gen_args(&out, &json);
    args.extend(
        [
            "--classpath",
            classes.to_str().unwrap(),
            "--class",
            "hostile.Hostile",
            "--generated-limit",
            "400",
            "--call-timeout",
            "1s",
            "--worker-heap",
            "128",
        ]
        .map(String::from),
    );
    let started = std::time::Instant::now();
    let o = run_done(jforge().args(&args));
    let stats = read_json(&json);
    let text = String::from_utf8_lossy(&o.stdout);
    // Each kind of misbehaviour was met and survived; repeat offenders were excluded.
    let incidents = stats["incidents"].to_string();
    for m in ["exit()", "halt()", "spin()", "linger()", "shout()"] {
        assert!(
            incidents.contains(m),
            "{m} not excluded: {incidents}\n{text}"
        );
    }
    // Out of memory and out of stack cost no worker: outcomes of their calls, not exclusions.
    for m in ["allocate()", "recurse(int)"] {
        assert!(!incidents.contains(m), "{m} excluded: {incidents}\n{text}");
    }
    let survived = &stats["worker_seconds"]["survived"];
    assert!(
        survived["OutOfMemoryError"].as_u64().unwrap() >= 1,
        "{stats:#}"
    );
    assert!(
        survived["StackOverflowError"].as_u64().unwrap() >= 1,
        "{stats:#}"
    );
    assert!(
        stats["worker_crashes"].get("OutOfMemoryError").is_none(),
        "{stats:#}"
    );
    assert!(stats["worker_restarts"].as_u64().unwrap() >= 6);
    assert!(text.contains("worker restarts"), "{text}");
    // The good method still got tests, and they pass.
    assert!(stats["regression_tests"].as_u64().unwrap() > 0);
    assert_eq!(stats["validation"]["clean"], true);
    let run = compile_and_run_junit4(&out, classes.to_str().unwrap());
    assert!(run.failures.is_empty(), "{}", run.output);
    assert!(started.elapsed().as_secs() < 300);
}

/// Processes running `sleep 347` (exact command line), whoever their parent is now.
fn sleep_347() -> Vec<u32> {
    let mut v = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| c == b"sleep\x00347\x00") {
            v.push(pid);
        }
    }
    v
}

#[test]
fn processes_started_by_the_code_under_test_do_not_outlive_jforge() {
    // hostile.Spawner.start() runs `new ProcessBuilder("sleep", "347").start()`: users saw
    // thousands of them left after a 5-second run.
    let classes = subjects();
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("stats.json");
    let mut args = gen_args(&out, &json);
    args.extend(
        [
            "--classpath",
            classes.to_str().unwrap(),
            "--class",
            "hostile.Spawner",
            "--time-limit",
            "5s",
        ]
        .map(String::from),
    );
    let o = run_ok(jforge().args(&args));
    // the summary (stdout) and the grouped warnings (stderr)
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(sleep_347().is_empty(), "left running: {:?}", sleep_347());
    // the method is blamed and excluded, and the summary says why
    let stats = read_json(&json);
    let incidents = stats["incidents"].to_string();
    assert!(
        incidents.contains("hostile.Spawner.start()") && incidents.contains("running"),
        "{incidents}\n{text}"
    );
    assert!(text.contains("hostile.Spawner.start()"), "{text}");
    assert!(text.contains("process"), "{text}");
}

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn commons_lang_strbuilder_and_junit5() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("stats.json");
    let mut args = gen_args(&out, &json);
    args.extend(
        [
            "--classpath",
            "/usr/share/java/commons-lang3.jar",
            "--class",
            "org.apache.commons.lang3.text.StrBuilder",
            "--generated-limit",
            "3000",
            "--junit",
            "5",
        ]
        .map(String::from),
    );
    run_done(jforge().args(&args));
    let stats = read_json(&json);
    assert_eq!(stats["validation"]["clean"], true, "{stats:#}");
    assert!(stats["regression_tests"].as_u64().unwrap() >= 20);
    let src = std::fs::read_to_string(
        out.join("org/apache/commons/lang3/text/StrBuilderRegressionTest.java"),
    )
    .unwrap();
    assert!(src.contains("org.junit.jupiter.api"));
    // Every written regression test was run and passed by jforge's own check.
    assert_eq!(
        stats["validation"]["passed"].as_u64().unwrap(),
        stats["regression_tests"].as_u64().unwrap()
    );
}

#[test]
fn jar_selection_tests_every_public_class() {
    let classes = subjects();
    let d = tempfile::tempdir().unwrap();
    let jar = d.path().join("ds.jar");
    let o = std::process::Command::new("jar")
        .arg("cf")
        .arg(&jar)
        .args(["-C", classes.to_str().unwrap(), "ds"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let out = d.path().join("tests");
    let json = d.path().join("stats.json");
    let mut args = gen_args(&out, &json);
    args.extend(["--jar", jar.to_str().unwrap(), "--generated-limit", "1500"].map(String::from));
    run_done(jforge().args(&args));
    let stats = read_json(&json);
    let names: Vec<&str> = stats["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["class"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ds.BinarySearchTree", "ds.IntStack", "ds.LruCache"]);
    assert!(
        stats["skipped_classes"]
            .to_string()
            .contains("ds.BinarySearchTree$Node")
    );
    assert_eq!(stats["validation"]["clean"], true);

    // With --class (or --package, --classlist) the jar is only on the class path: users who
    // asked for one package of a jar got all of it.
    let second = d.path().join("second");
    std::fs::create_dir(&second).unwrap();
    let jar = jar.to_str().unwrap();
    let (_, _, stats) = gen_from(
        &second,
        &[
            "--jar",
            jar,
            "--class",
            "ds.IntStack",
            "--generated-limit",
            "300",
        ],
    );
    let names: Vec<&str> = stats["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["class"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["ds.IntStack"]);
}

#[test]
fn functional_interface_parameters_get_a_lambda() {
    // pm.Callbacks's methods throw NullPointerException on null; nothing under test makes a
    // Consumer or an IntBinaryOperator: only a lambda literal calls them successfully
    let (_d, out, json, _) = gen_compiled("params", "pm.Callbacks", "600");
    let classes = compiled("params");
    let stats = read_json(&json);
    assert_eq!(stats["validation"]["clean"], true, "{stats:#}");
    let src = java_sources(&out);
    for call in [
        ".each((Consumer<? super String>) (p$0) -> {})",
        ".fold((IntBinaryOperator) (p$0, p$1) -> 0)",
        ".transform((Callbacks.Mapper) (p$0) -> p$0)",
    ] {
        assert!(src.contains(call), "no {call} in\n{src}");
    }
    // Codec has two abstract methods: no lambda, and gen makes no anonymous class of a
    // parameter type (ops::build_ops_with_stubs), so wire(Codec) is reported as unproduced
    let skipped = stats["skipped_members"].to_string();
    assert!(skipped.contains("wire(Codec)"), "{skipped}");
    assert!(!skipped.contains("each(Consumer)"), "{skipped}");
    let run = compile_and_run_junit4(&out, classes.to_str().unwrap());
    assert!(
        run.tests_run > 0 && run.failures.is_empty(),
        "{}",
        run.output
    );
}

#[test]
fn repeated_calls_nothing_uses_are_written_once() {
    // generation repeats calls up to 100 times; the written tests do not
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("stats.json");
    let mut args = gen_args(&out, &json);
    args.extend(
        [
            "--class",
            "java.util.ArrayList",
            "--generated-limit",
            "3000",
            "--no-validate",
        ]
        .map(String::from),
    );
    run_done(jforge().args(&args));
    for f in java_files(&out) {
        let src = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = src.lines().map(str::trim).collect();
        for w in lines.windows(3) {
            let call = w[0].ends_with(");") && !w[0].starts_with("assert");
            assert!(
                !(call && w[0] == w[1] && w[1] == w[2]),
                "{} repeats {}",
                f.display(),
                w[0]
            );
        }
    }
}

#[test]
fn one_error_test_per_defect_whatever_the_route() {
    // a broken equals reachable through three constructors is one defect of the class
    let classes = subjects();
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("stats.json");
    let mut args = gen_args(&out, &json);
    args.extend(
        [
            "--classpath",
            classes.to_str().unwrap(),
            "--class",
            "quirks.ThreeWays",
            "--generated-limit",
            "600",
        ]
        .map(String::from),
    );
    let o = run_done(jforge().args(&args));
    assert_eq!(o.status.code(), Some(3), "error tests written: exit 3");
    let stats = read_json(&json);
    let errors = stats["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = &errors[0];
    assert_eq!(e["class"], "quirks.ThreeWays");
    assert_eq!(e["contract"], "equals-reflexive");
    assert_eq!(e["kind"], "object-contract");
    assert_eq!(e["routes"], 3, "{e:#}");
    assert_eq!(count_tests(&error_dir(&out), "Error"), 1);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("error: quirks.ThreeWays breaks equals-reflexive")
            && text.contains("3 routes"),
        "{text}"
    );
}

#[test]
fn files_written_by_the_code_under_test_stay_out_of_the_users_folder() {
    // hostile.Scribbler.save(String) writes `jforge-scribble-N.txt` into the folder it runs in,
    // and hostile.Reporter takes a Writer and a PrintStream (which a helper could make as
    // `new PrintStream("name")`): users found dozens of such files (and a 7 MB one) in the
    // folder they ran jforge from.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_from(
        d.path(),
        &[
            "--class",
            "hostile.Scribbler",
            "--class",
            "hostile.Reporter",
            "--generated-limit",
            "300",
        ],
    );
    let mut left: Vec<String> = std::fs::read_dir(d.path())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["stats.json", "tests"], "{text}");
    // The method is blamed and excluded, the summary says why, and no written test calls it.
    let incidents = stats["incidents"].to_string();
    assert!(
        incidents.contains("hostile.Scribbler.save(String)") && incidents.contains("wrote"),
        "{incidents}\n{text}"
    );
    assert!(text.contains("wrote"), "{text}");
    let mut all = String::new();
    for f in java_files(&out) {
        let src = std::fs::read_to_string(&f).unwrap();
        assert!(!src.contains(".save("), "{}:\n{src}", f.display());
        all.push_str(&src);
    }
    assert!(stats["regression_tests"].as_u64().unwrap() > 0, "{text}");
    // Streams the API takes are made in memory, never as files (`new PrintStream("x")`).
    assert!(all.contains("new StringWriter()"), "{all}");
    assert!(!all.contains("new PrintStream(\""), "{all}");
}

#[test]
fn progress_goes_to_the_log_when_stderr_is_no_terminal() {
    // Scripts and CI jobs read stderr from a pipe, where the progress bar draws nothing:
    // plain lines say the run is alive. `--quiet` keeps them out.
    let d = tempfile::tempdir().unwrap();
    let run = |quiet: bool| {
        let mut cmd = jforge();
        cmd.args([
            "gen",
            "--class",
            "java.util.ArrayDeque",
            "--time-limit",
            "3s",
        ])
        .args(["--no-validate", "--no-coverage", "--output-dir"])
        .arg(d.path().join(if quiet { "q" } else { "v" }));
        if quiet {
            cmd.arg("--quiet");
        }
        String::from_utf8_lossy(&run_ok(&mut cmd).stderr).into_owned()
    };
    let err = run(false);
    assert!(
        err.lines()
            .any(|l| l.starts_with('[') && l.contains("generating") && l.contains("seq/s")),
        "{err}"
    );
    let err = run(true);
    assert!(!err.contains("generating"), "{err}");
}

#[test]
#[ignore = "slow: a 12 s run"]
fn out_of_memory_and_stack_overflow_cost_no_restart() {
    // hostile.Greedy.table(n) allocates 32 MB times n (any n >= 5 is too much for a 128 MiB
    // heap), depth(n) recurses without end; add and size are ordinary.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_from(
        d.path(),
        &[
            "--class",
            "hostile.Greedy",
            "--time-limit",
            "12s",
            "--worker-heap",
            "128",
        ],
    );
    let survived = &stats["worker_seconds"]["survived"];
    assert!(
        survived["OutOfMemoryError"].as_u64().unwrap() >= 1,
        "{stats:#}\n{text}"
    );
    assert!(
        survived["StackOverflowError"].as_u64().unwrap() >= 1,
        "{stats:#}"
    );
    // No restart for them: none for a crash or a timeout (a worker still running a batch
    // 1 s past the stop time is replaced for the finishing phase; that is no crash).
    assert_eq!(stats["worker_crashes"], serde_json::json!({}), "{stats:#}");
    assert_eq!(stats["worker_timeouts"].as_u64(), Some(0), "{stats:#}");
    // Blamed on their own calls: table and depth stay in use, nothing is excluded, and the
    // class's crashes are the calls' outcomes.
    assert_eq!(stats["incidents"], serde_json::json!([]), "{stats:#}");
    let row = stats["classes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["class"] == "hostile.Greedy")
        .unwrap();
    assert!(row["crashes"].as_u64().unwrap() >= 2, "{row}");
    assert!(text.contains("survived without a restart"), "{text}");
    // Many sequences ran on the one JVM per worker (with a restart per error they were few).
    assert!(stats["executed"].as_u64().unwrap() > 150, "{stats:#}");
    // The tests written call table with sizes that fit, and pass.
    let suite = java_sources(&out);
    assert!(suite.contains(".table("), "{suite}");
    assert!(!suite.contains(".depth("), "{suite}");
    assert!(
        stats["validation"]["passed"].as_u64().unwrap() > 0,
        "{stats:#}"
    );
}

#[test]
#[ignore = "slow: a 4,000-sequence run"]
fn the_budget_goes_to_the_class_with_uncovered_branches() {
    // budget.Flat has 14 operations and no branch, budget.Branchy 3 and 20 branches random
    // numbers never take. Operations picked uniformly gave Flat 60-80% of the
    // sequences; by class (weight 1 + a tenth of the uncovered branches) Branchy gets
    // most, and Flat still its share. The summary and --stats-json show them per class.
    let d = tempfile::tempdir().unwrap();
    let (_, text, stats) = gen_from(
        d.path(),
        &[
            "--class",
            "budget.Flat",
            "--class",
            "budget.Branchy",
            "--generated-limit",
            "4000",
            "--seed",
            "1",
            "--no-validate",
        ],
    );
    let seqs = |class: &str| {
        entry(&stats["classes"], "class", class)
            .and_then(|c| c["sequences"].as_u64())
            .unwrap()
    };
    let (flat, branchy) = (seqs("budget.Flat"), seqs("budget.Branchy"));
    assert!(
        flat + branchy <= 4000 && flat + branchy > 3000,
        "Flat {flat} + Branchy {branchy}: {stats:#}"
    );
    // Branchy weighs 3 (20 uncovered branches), Flat 1 once its methods are covered: about
    // three quarters of the sequences (2,868 of 4,000), where picking by operation gave it
    // 1,582
    assert!(
        branchy > 2 * flat,
        "Branchy {branchy}, Flat {flat}: {stats:#}"
    );
    assert!(
        flat * 20 > flat + branchy,
        "Flat's share: {flat} of {}",
        flat + branchy
    );
    // the per-class table has the column, with the figures of --stats-json
    assert!(text.contains("sequences"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.contains("budget.Branchy") && l.contains(&format!(" {branchy} "))),
        "{text}"
    );
}

#[test]
#[ignore = "slow: a 1,000-sequence run and its check"]
fn a_type_parameter_bounded_by_enum_gets_an_enum() {
    // enums.Tally<E extends Enum<E>> (as guava's EnumMultiset): neither String nor Integer
    // meets the bound, and jforge said "class enums.Tally has no public constructor, method
    // or field jforge can call". TimeUnit stands in; the written tests compile and pass.
    // enums.Keys<K> is instantiated with String and its static enumKeys declares its own
    // <K extends Enum<K>> (as guava's MultimapBuilder.enumKeys): the method's K is
    // TimeUnit, not the class's String (`Keys.<TimeUnit>enumKeys(String.class)` did not
    // compile).
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_from(
        d.path(),
        &[
            "--class",
            "enums.Tally",
            "--class",
            "enums.Keys",
            "--generated-limit",
            "1000",
            "--seed",
            "1",
        ],
    );
    let row = |class: &str| {
        entry(&stats["classes"], "class", class)
            .map(|c| (c["covered"].clone(), c["operations"].clone()))
    };
    assert_eq!(row("enums.Tally"), Some((4.into(), 4.into())), "{text}");
    assert_eq!(row("enums.Keys"), Some((5.into(), 5.into())), "{text}");
    // Tally.add's two branches (Keys has none)
    assert_eq!(stats["coverage"]["branches_covered"], 2, "{text}");
    let files = java_sources(&out);
    assert!(
        files.contains("Tally.<TimeUnit>of(TimeUnit.class)"),
        "{files}"
    );
    assert!(
        files.contains("Keys.<TimeUnit>enumKeys(TimeUnit.class)"),
        "{files}"
    );
    assert!(
        text.contains("removed 0 that did not compile, 0 that failed"),
        "{text}"
    );
}

#[test]
#[ignore = "slow: a 2,000-sequence run and its check"]
fn a_package_s_classes_tests_cannot_name_are_measured_and_reached() {
    // pkgview.Evens.upTo returns a package-private EvenList (12 branches in get and
    // contains), as guava's public API returns its package-private implementations. With
    // --package it is measured (the run's and the suite's figures are the package's, as in
    // a JaCoCo report of the build), List's methods are called on it (views), and the
    // sequences reaching its branches are written: before, it was in no figure and its
    // branches were kept only by chance.
    let d = tempfile::tempdir().unwrap();
    let (_, text, stats) = gen_from(
        d.path(),
        &[
            "--package",
            "pkgview",
            "--generated-limit",
            "2000",
            "--seed",
            "1",
        ],
    );
    let branches = |list: &serde_json::Value| {
        entry(list, "name", "pkgview.EvenList").map(|c| {
            (
                c["branches"]["covered"].as_u64().unwrap(),
                c["branches"]["total"].as_u64().unwrap(),
            )
        })
    };
    let run = branches(&stats["coverage"]["classes"]);
    assert_eq!(run.map(|b| b.1), Some(12), "{text}\n{stats:#}");
    let suite = branches(&stats["coverage"]["suite"]["per_class"]).unwrap();
    // the run reached 10 of 12 with seed 1 (two edges of contains left); the checked
    // suite keeps what the run reached
    assert!(
        suite.0 >= 8,
        "the suite covers {suite:?} of EvenList: {text}"
    );
    assert!(run.unwrap().0 >= 8, "{text}");
    assert_eq!(stats["coverage"]["branches_total"], 14, "{text}");
}

#[test]
#[ignore = "slow: a 10 s run"]
fn an_argument_that_sizes_an_array_stays_small_from_the_start() {
    // hostile.Sized.copies(n) allocates n longs and the class's constant pool holds 2^28
    // (a 2 GiB array for a 128 MiB heap), so every receiver the run builds could run out
    // of memory once with it: 55 OutOfMemoryErrors in 6,338 sequences at first, 8 once
    // the first taught the generator, none now that `new long[n]` is read from the
    // bytecode before the run (copies gets integral arguments of at most 1024).
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_from(
        d.path(),
        &[
            "--class",
            "hostile.Sized",
            "--time-limit",
            "10s",
            "--worker-heap",
            "128",
        ],
    );
    let oom = stats["worker_seconds"]["survived"]["OutOfMemoryError"]
        .as_u64()
        .unwrap_or(0);
    assert_eq!(oom, 0, "{stats:#}\n{text}");
    assert!(stats["executed"].as_u64().unwrap() > 2000, "{stats:#}");
    assert_eq!(stats["worker_restarts"].as_u64(), Some(0), "{stats:#}");
    // The class's share of the run, in --stats-json and the table: the sequences that end
    // with one of its operations (all but those ending with a helper's).
    let row = &stats["classes"][0];
    let seqs = row["sequences"].as_u64().unwrap();
    assert!(
        seqs > 0 && seqs <= stats["executed"].as_u64().unwrap(),
        "{row}"
    );
    assert!(
        text.lines()
            .any(|l| l.contains("hostile.Sized") && l.contains(&format!(" {seqs} "))),
        "{text}"
    );
    // copies is still tested, with counts that fit, and the tests pass.
    let suite = java_sources(&out);
    assert!(suite.contains(".copies("), "{suite}");
    assert!(!suite.contains(".copies(268435456"), "{suite}");
    assert!(
        stats["validation"]["passed"].as_u64().unwrap() > 0,
        "{stats:#}"
    );
}

#[test]
#[ignore = "slow: 30,000 sequences"]
fn a_capacity_stored_for_later_is_kept_small_and_a_compared_size_still_covered() {
    // hostile.Capacity(int) stores its capacity and the first add allocates it (as
    // java.util.HashMap does), withCapacity and tier pass theirs to new ArrayList<>(n), and
    // the class's constant pool holds 2^30. Before, the call that ran out of memory (add)
    // was marked, not the constructor that took the size, and the receiver built with 2^30
    // stayed in the pool: 354 OutOfMemoryErrors in 10 s. Now the maker is marked too and its
    // values dropped: 16 in 10 s or 30,000 sequences (the batches already built);
    // withCapacity and tier pass theirs to ArrayList(int), whose `new Object[n]` is read
    // from the JDK's bytecode, so they are kept small from the start.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_from(
        d.path(),
        &[
            "--class",
            "hostile.Capacity",
            "--generated-limit",
            "30000",
            "--worker-heap",
            "128",
        ],
    );
    let oom = stats["worker_seconds"]["survived"]["OutOfMemoryError"]
        .as_u64()
        .unwrap_or(0);
    assert!(
        (1..=30).contains(&oom),
        "{oom} OutOfMemoryErrors: {stats:#}\n{text}"
    );
    assert_eq!(stats["worker_restarts"].as_u64(), Some(0), "{stats:#}");
    // tier's second branch needs n >= 5000, more than the small sizes: its comparison asks
    // for it, so the written suite still covers every branch of the class.
    let suite = &stats["coverage"]["suite"]["per_class"];
    let row = entry(suite, "name", "hostile.Capacity").expect("Capacity in the suite");
    assert_eq!(
        row["branches"]["covered"], row["branches"]["total"],
        "{stats:#}"
    );
    assert_eq!(row["branches"]["total"], 10, "{stats:#}");
    let sources = java_sources(&out);
    let tiers: Vec<i64> = regex::Regex::new(r"\.tier\((-?\d+)\)")
        .unwrap()
        .captures_iter(&sources)
        .map(|c| c[1].parse().unwrap())
        .collect();
    assert!(
        tiers.iter().any(|&n| (5000..1 << 20).contains(&n)),
        "tier arguments {tiers:?}: {sources}"
    );
    assert!(
        stats["validation"]["passed"].as_u64().unwrap() > 0,
        "{stats:#}"
    );
}

#[test]
#[ignore = "slow: a 20 s run"]
fn a_hanging_method_costs_a_few_call_limits() {
    // hostile.Hangs.hang() never returns. With the default call limit (5 s) each hang used
    // to cost 5 s of a worker and the batch waiting for it; now it is excluded after 3
    // timeouts and the limit follows what the calls take (20 times the slowest 0.1%, at
    // least 1 s), so the three cost well under three full limits.
    let d = tempfile::tempdir().unwrap();
    let (_, text, stats) = gen_from(
        d.path(),
        &["--class", "hostile.Hangs", "--time-limit", "20s"],
    );
    assert!(
        stats["incidents"]
            .to_string()
            .contains("hostile.Hangs.hang()"),
        "{stats:#}\n{text}"
    );
    // On JDK 17-19 the watchdog stops the busy loop (Thread.stop) and the worker goes on:
    // the timeouts cost no restart, and they are the calls' outcomes. From JDK 20 the
    // worker halts as before (at most 3 restarts).
    let timeouts = stats["worker_timeouts"].as_u64().unwrap();
    let survived = stats["worker_seconds"]["survived"]["timeout"]
        .as_u64()
        .unwrap_or(0);
    let jdk = jforge::runner::java::find_java(None).unwrap().version;
    if jdk < 20 {
        assert_eq!(timeouts, 0, "{stats:#}");
        assert_eq!(stats["worker_restarts"].as_u64(), Some(0), "{stats:#}");
        assert!((1..=3).contains(&survived), "{stats:#}");
        assert!(text.contains("timeout: "), "{text}");
    } else {
        assert!((1..=3).contains(&timeouts), "{stats:#}");
    }
    let lost = stats["worker_seconds"]["timeouts"].as_f64().unwrap();
    assert!(
        lost < 3.0 * 5.0,
        "{lost} s lost to {timeouts} timeouts: {stats:#}"
    );
    // A few call limits (1 s each once adapted) in all: many sequences ran.
    assert!(stats["executed"].as_u64().unwrap() > 1000, "{stats:#}");
    assert!(stats["regression_tests"].as_u64().unwrap() > 0, "{stats:#}");
}

#[test]
#[ignore = "slow: a 15 s run"]
fn a_call_that_computes_or_waits_forever_costs_a_short_limit_and_no_restart() {
    // hostile.Stalls.spin() computes forever in compiled JDK code (where Thread.stop's
    // exception could stay pending, and the worker halted 0.5 s later: on guava collect 4-6
    // times per 60 s; here about one JVM in two outside jforge), await() waits forever; nap() sleeps and work() computes about 20 ms each, slow
    // but legitimate calls. A hang among a worker's first 32 calls costs the whole 5 s.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_from(
        d.path(),
        &["--class", "hostile.Stalls", "--time-limit", "15s"],
    );
    let ws = &stats["worker_seconds"];
    let survived = ws["survived"]["timeout"].as_u64().unwrap_or(0);
    let jdk = jforge::runner::java::find_java(None).unwrap().version;
    if jdk >= 20 {
        eprintln!("skipped: Thread.stop is gone in JDK {jdk}");
        return;
    }
    // Both hangs are cut and survived: none restarts a worker (no timeout or crash that
    // halts one; a batch still running 1 s past the stop time is given up and its worker
    // started again for the finishing phase, which is neither).
    assert_eq!(
        stats["worker_timeouts"].as_u64(),
        Some(0),
        "{stats:#}\n{text}"
    );
    assert_eq!(stats["worker_crashes"].to_string(), "{}", "{stats:#}");
    assert!((2..=8).contains(&survived), "{survived}: {stats:#}\n{text}");
    // Their time shows: a hang among a worker's first 32 calls costs the whole 5 s limit,
    // later ones the adapted limit (at least 100 ms, 20 times the slowest calls: here the
    // 20 ms ones) plus the grace.
    let cut = ws["timeouts_survived"].as_f64().unwrap();
    assert!(
        cut > 0.1 && cut < 2.0 * 5.5 + 6.0 * 1.0,
        "{cut} s: {stats:#}"
    );
    assert!(text.contains("in calls cut at the call limit"), "{text}");
    // The slow ones are not cut (no timeout, so never excluded): they run and are tested.
    // (A hanging method is excluded at its second timeout; whether it meets one in a run
    // depends on the batches, hence no assertion on it.)
    let incidents = stats["incidents"].to_string();
    for slow in ["nap()", "work()"] {
        assert!(!incidents.contains(slow), "{slow}: {stats:#}");
    }
    let suite = java_sources(&out);
    for slow in ["Stalls.nap()", "Stalls.work()"] {
        assert!(suite.contains(slow), "{slow}: {suite}\n{stats:#}\n{text}");
    }
    assert!(stats["executed"].as_u64().unwrap() > 1000, "{stats:#}");
    assert!(
        stats["validation"]["passed"].as_u64().unwrap() > 0,
        "{stats:#}"
    );
}

#[test]
#[ignore = "slow: a 12 s run"]
fn values_that_make_calls_hang_are_not_reused() {
    // hostile.Cycles has four consumers of an Iterable<Integer> that hang only when given
    // the endless one `forever(int)` makes (as guava's Iterators.contains or Ordering.min
    // given a cycle()). Each consumer used to be excluded after two timeouts: eight call
    // limits, and four operations lost for finite arguments. Now the endless value's class
    // is blamed at its first hang and its values are no longer reused: a few timeouts in
    // all, and every consumer keeps running on finite lists.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_from(
        d.path(),
        &["--class", "hostile.Cycles", "--time-limit", "12s"],
    );
    let timeouts = stats["worker_timeouts"].as_u64().unwrap()
        + stats["worker_seconds"]["survived"]["timeout"]
            .as_u64()
            .unwrap_or(0);
    // Two when both workers meet the endless value in the same batch; a worker halted by a
    // stop that did not take (a loaded machine) forgets the frame's hung classes, hence 6.
    assert!(
        (1..=6).contains(&timeouts),
        "{timeouts} timeouts: {stats:#}\n{text}"
    );
    // The hangs no longer hold the run: 436 sequences in 12 s before, 140,000-180,000 now.
    assert!(stats["executed"].as_u64().unwrap() > 10_000, "{stats:#}");
    assert!(!text.contains("excluded after"), "{text}");
    // and the summary says which values were dropped
    assert!(
        text.contains("warning: values of hostile.Cycles$")
            && text.contains("not reused: calls given one hung"),
        "{text}"
    );
    let suite: String = java_files(&out)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    for consumer in ["sum(", "max(", "count(", "containsNegative("] {
        assert!(
            suite.contains(&format!("Cycles.{consumer}")),
            "{consumer}: {suite}"
        );
    }
    assert!(
        stats["validation"]["passed"].as_u64().unwrap() > 0,
        "{stats:#}"
    );
}

#[test]
#[ignore = "slow: a 10 s run"]
fn a_hanging_method_halts_the_worker_where_thread_stop_is_gone() {
    // From JDK 20 Thread.stop throws UnsupportedOperationException: the worker falls back to
    // halting at a call that does not end (a restart per timeout), and the run goes on. (A
    // 1 s call limit: the first hang costs the whole limit, and this run is short.)
    let Some((home, version)) = crate::support::newer_jdk() else {
        eprintln!("skipped: no JDK 21+ besides the default one");
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let java = home.join("bin/java");
    let (_, text, stats) = gen_from(
        d.path(),
        &[
            "--class",
            "hostile.Hangs",
            "--time-limit",
            "10s",
            "--call-timeout",
            "1s",
            "--java",
            java.to_str().unwrap(),
        ],
    );
    let timeouts = stats["worker_timeouts"].as_u64().unwrap();
    assert!(
        (1..=3).contains(&timeouts),
        "JDK {version}: {stats:#}\n{text}"
    );
    assert!(
        stats["incidents"]
            .to_string()
            .contains("hostile.Hangs.hang()"),
        "{stats:#}"
    );
    assert!(stats["regression_tests"].as_u64().unwrap() > 0, "{stats:#}");
}

#[test]
fn a_call_running_at_the_stop_time_does_not_hold_the_run() {
    // hostile.Sleeper.nap() sleeps a minute; with --call-timeout 30s a run used to wait for
    // it past its --time-limit (42 s for a 2 s limit, whose budget is 2 + 20 s).
    let d = tempfile::tempdir().unwrap();
    let (_, _, stats) = gen_from(
        d.path(),
        &[
            "--class",
            "hostile.Sleeper",
            "--time-limit",
            "2s",
            "--call-timeout",
            "30s",
        ],
    );
    let total = stats["total_seconds"].as_f64().unwrap();
    assert!(total <= 22.0, "the budget is 22 s: {stats:#}");
    assert!(stats["regression_tests"].as_u64().unwrap() > 0, "{stats:#}");
}

#[test]
fn member_filters_match_signatures_as_the_jvm_erases_them() {
    // Box<T extends Comparable<T>>.offer(T) is offer(java.lang.Comparable) for javap and the
    // JVM; jforge used to call it offer(java.lang.Object).
    let offers = |pattern: &str| {
        let d = tempfile::tempdir().unwrap();
        let (out, _, _) = gen_from(
            d.path(),
            &[
                "--class",
                "quirks.Shapes$Box",
                "--generated-limit",
                "300",
                "--no-validate",
            ]
            .into_iter()
            .chain(["--exclude-methods", pattern])
            .collect::<Vec<_>>(),
        );
        java_files(&out)
            .iter()
            .any(|f| std::fs::read_to_string(f).unwrap().contains(".offer("))
    };
    assert!(!offers(r"Box\.offer\(java\.lang\.Comparable\)"));
    assert!(offers(r"Box\.offer\(java\.lang\.Object\)"));
}

/// Java's `String.hashCode` (UTF-16 code units, wrapping).
fn java_hash(s: &str) -> i32 {
    s.encode_utf16()
        .fold(0i32, |h, c| h.wrapping_mul(31).wrapping_add(c as i32))
}

/// Line (1-based) of the first line of the blame subject `file` containing `text`.
fn subject_line(file: &str, text: &str) -> usize {
    let src = std::fs::read_to_string(subjects_src("gen/blame").join(file)).unwrap();
    1 + src.lines().position(|l| l.contains(text)).unwrap()
}

#[test]
fn error_tests_blame_the_input_and_point_at_the_bug() {
    // blame.FnView's hashCode applies a function argument that throws for all keys but one,
    // SortedBag is built with a comparator that calls every pair equal, and Lookup.get's
    // NullPointerException is thrown inside its function argument: their violations are the
    // inputs' doing (set aside, counted). OwnView's hashCode throws on its
    // own, Money's hashCode disagrees with its equals, Config's toString throws (reached
    // through Config.Builder): those are the class's bugs, each one error test that names
    // where, keeps the exception as its cause and shows the values and numbers compared.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_from(
        d.path(),
        &[
            "--class",
            "blame.FnView",
            "--class",
            "blame.OwnView",
            "--class",
            "blame.SortedBag",
            "--class",
            "blame.Lookup",
            "--class",
            "blame.Money",
            "--class",
            "blame.Config",
            "--class",
            "blame.Config$Builder",
            "--generated-limit",
            "6000",
            "--seed",
            "1",
        ],
    );
    let errors = stats["errors"].as_array().unwrap();
    let found = classes_and_contracts(&stats);
    assert_eq!(
        found,
        vec![
            ("blame.Config", "tostring-throws"),
            ("blame.Money", "equals-hashcode"),
            ("blame.OwnView", "hashcode-throws"),
        ],
        "{errors:#?}"
    );
    let set_aside = &stats["set_aside"];
    assert!(
        set_aside["callback-threw"].as_u64().unwrap() > 0,
        "{stats:#}"
    );
    assert!(
        set_aside["comparator-inconsistent"].as_u64().unwrap() > 0,
        "{stats:#}"
    );
    // Each error says where the class's code broke the contract.
    let own_line = subject_line("OwnView.java", "key.charAt(i)");
    let config_line = subject_line("Config.java", "name.trim()");
    let broken: Vec<&str> = errors
        .iter()
        .map(|e| e["broken_in"].as_str().unwrap())
        .collect();
    assert_eq!(
        broken,
        vec![
            format!("blame.Config.toString (line {config_line})"),
            "blame.Money.hashCode".to_string(),
            format!("blame.OwnView.hashCode (line {own_line})"),
        ]
    );
    assert!(
        text.contains(&format!(
            "broken in blame.OwnView.hashCode (line {own_line}); no argument object was involved"
        )) && text.contains("set aside as invalid inputs"),
        "{text}"
    );
    // The table, the summary and the file agree: Config's defect, reached through its
    // Builder, is Config's.
    let row = |c: &str| {
        stats["classes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["class"] == c)
            .unwrap()["error_tests"]
            .as_u64()
    };
    assert_eq!(row("blame.Config"), Some(1));
    assert_eq!(row("blame.Config$Builder"), Some(0));
    let errs = error_dir(&out);
    let mut files: Vec<String> = java_files(&errs)
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().to_string())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "ConfigErrorTest.java",
            "MoneyErrorTest.java",
            "OwnViewErrorTest.java"
        ]
    );
    let src = std::fs::read_to_string(errs.join("blame/OwnViewErrorTest.java")).unwrap();
    assert!(
        src.contains(&format!(
            "// Believed: broken in blame.OwnView.hashCode (line {own_line}); no argument object was involved"
        )),
        "{src}"
    );
    // Run with JUnit: each fails for its reason; the trace shows the subject's throwing line
    // (the exception is the failure's cause); the equals-hashcode failure shows both values
    // and their true hash codes.
    let run = compile_and_run_junit4(&errs, subjects().to_str().unwrap());
    assert_eq!(run.failures.len(), 3, "{}", run.output);
    for at in [
        format!("at blame.OwnView.hashCode(OwnView.java:{own_line})"),
        format!("at blame.Config.toString(Config.java:{config_line})"),
    ] {
        assert!(run.output.contains(&at), "{at} missing:\n{}", run.output);
    }
    let re = regex::Regex::new(
        r"jforge contract violated: equals-hashcode: x\.equals\(y\) but x\.hashCode\(\) is (-?\d+) and y\.hashCode\(\) is (-?\d+); x = Money\((-?\d+) (.*)\), y = Money\((-?\d+) (.*)\)",
    )
    .unwrap();
    let m = re
        .captures(&run.output)
        .unwrap_or_else(|| panic!("{}", run.output));
    let num = |i: usize| m[i].parse::<i32>().unwrap();
    let hash = |cents: i32, cur: &str| {
        let h = if cur == "null" { 0 } else { java_hash(cur) };
        cents.wrapping_mul(31).wrapping_add(h)
    };
    assert_eq!(num(3), num(5), "equal values: {}", &m[0]);
    assert_eq!(num(1), hash(num(3), &m[4]), "{}", &m[0]);
    assert_eq!(num(2), hash(num(5), &m[6]), "{}", &m[0]);
    assert_ne!(num(1), num(2));
}

#[test]
fn an_object_used_before_its_setter_is_no_error_but_a_field_no_setter_sets_is() {
    // blame.Feed() is documented to need setText before hasNext/next: the
    // NullPointerException on its own field `parts`, which the public setText writes (through
    // a private helper) and the sequence never called, is a state precondition, set aside as
    // state-not-initialized. BrokenFeed has the same shape, but no public method writes
    // `parts`: its NullPointerException is its own defect, one error test.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_from(
        d.path(),
        &[
            "--class",
            "blame.Feed",
            "--class",
            "blame.BrokenFeed",
            "--generated-limit",
            "3000",
            "--seed",
            "1",
        ],
    );
    let errors = stats["errors"].as_array().unwrap();
    let found: Vec<(&str, &str, &str)> = errors
        .iter()
        .map(|e| {
            (
                e["class"].as_str().unwrap(),
                e["contract"].as_str().unwrap(),
                e["broken_in"].as_str().unwrap(),
            )
        })
        .collect();
    let line = subject_line("BrokenFeed.java", "return pos < parts.length;");
    let broken_in = format!("blame.BrokenFeed.hasNext (line {line})");
    assert_eq!(
        found,
        vec![(
            "blame.BrokenFeed",
            "npe-without-null-input",
            broken_in.as_str()
        )],
        "{errors:#?}"
    );
    let aside = stats["set_aside"]["state-not-initialized"]
        .as_u64()
        .unwrap_or(0);
    assert!(aside > 0, "{stats:#}");
    assert!(
        text.contains(&format!("state-not-initialized {aside}")),
        "{text}"
    );
    // Feed's own precondition broke nothing else: its regression tests call setText or
    // the one-argument constructor before reading, and the written suite passes.
    let run = compile_and_run_junit4(&error_dir(&out), subjects().to_str().unwrap());
    assert_eq!(run.failures.len(), 1, "{}", run.output);
    assert!(
        run.output.contains(&format!(
            "at blame.BrokenFeed.hasNext(BrokenFeed.java:{line})"
        )),
        "{}",
        run.output
    );
}

#[test]
fn an_argument_collection_breaking_its_own_contract_is_no_error() {
    // blame.Union.identitySet is a Set of identity-hashed strings (as SetUtils
    // .newIdentityHashSet): union(identity, identity) equals it with another hashCode. The
    // union keeps Set's contract against a HashSet copy of itself, the identity set does not:
    // the argument's doing (argument-breaks-contract). No error test.
    no_error_test_but_set_aside("blame.Union", "3000", "argument-breaks-contract");
}

#[test]
fn a_decorator_passing_on_the_defect_of_a_collection_it_holds_is_no_error() {
    // blame.Shelf.labels() is a Set without Set's equals (copy().equals(labels()) is true,
    // the reverse false): Shelf$Labels' defect, one error test. readOnlyLabels() wraps a
    // fresh view in the library's ReadOnlySet (built inside Shelf, not from an argument),
    // which answers equals as the view it holds: the same asymmetry with the same copy, set
    // aside as the held collection's (held-collection-breaks-contract), not a second error
    // test for the decorator; the JDK's unmodifiableSet (values()) is a JDK value.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_one_class(d.path(), "blame.Shelf", "3000");
    let errors = stats["errors"].as_array().unwrap();
    let found = classes_and_contracts(&stats);
    assert_eq!(
        found,
        vec![("blame.Shelf$Labels", "equals-symmetric")],
        "{errors:#?}"
    );
    set_aside_and_said(&stats, &text, "held-collection-breaks-contract");
    // The one error test compiles and fails for its reason.
    let run = compile_and_run_junit4(&error_dir(&out), subjects().to_str().unwrap());
    assert_eq!(run.failures.len(), 1, "{}", run.output);
    assert!(
        run.output
            .contains("jforge contract violated: equals-symmetric"),
        "{}",
        run.output
    );
}

#[test]
fn a_callback_argument_returning_null_is_no_error() {
    // blame.Ranker(Ranker.nothing()).compare(a, b) throws a NullPointerException in its
    // natural order after the key function returned null: no frame of the function is on
    // the stack, but the function returns null for the strings compare was given, so the
    // null is the argument's (null-input). No error test.
    no_error_test_but_set_aside("blame.Ranker", "2000", "null-input");
}

#[test]
fn a_lambda_jforge_made_returning_null_is_no_error() {
    // `ArrayDeque.toArray(IntFunction)` given jforge's own lambda `(p$0) -> null` (no array
    // of the erased result type at hand) throws a NullPointerException on the null array:
    // the input jforge made, not a defect of ArrayDeque (null-input). No error test.
    no_error_test_but_set_aside("java.util.ArrayDeque", "20000", "null-input");
}

#[test]
fn an_array_holding_null_is_a_null_input() {
    // blame.Tally.addAll(String[]) throws a NullPointerException on a null element, as it
    // documents; Tally.slots(n) returns the names in n slots, null after the last (as
    // toArray(T[]) fills a longer array). An array argument holding null is a null input,
    // as a collection holding null is (guava collect's false alarm of 2026-11-27). No error
    // test.
    no_error_test_but_set_aside("blame.Tally", "3000", "null-input");
}

#[test]
fn an_argument_that_fails_when_iterated_alone_is_the_cause() {
    // new blame.Drain(Drain.draining(Drain.fixed(a, b))).toString() throws
    // UnsupportedOperationException: draining's iterator removes each name, which the
    // read-only list refuses, as documented (guava's Iterables.consumingIterable of an
    // immutable set). The argument iterated alone throws the same: its doing
    // (callback-threw), not Drain's. No error test (one before).
    no_error_test_but_set_aside("blame.Drain", "3000", "callback-threw");
}

/// `gen` on `class` (seed 1, `limit` sequences) writes no error test, sets violations aside
/// with `cause`, and says how many in the summary.
fn no_error_test_but_set_aside(class: &str, limit: &str, cause: &str) {
    let d = tempfile::tempdir().unwrap();
    let (_out, text, stats) = gen_one_class(d.path(), class, limit);
    let errors = stats["errors"].as_array().unwrap();
    assert!(errors.is_empty(), "{errors:#?}");
    set_aside_and_said(&stats, &text, cause);
}

/// `gen` on `class` in `dir` (seed 1, `limit` sequences, one worker), as [`gen_from`].
fn gen_alone(
    dir: &Path,
    class: &str,
    limit: &str,
) -> (std::path::PathBuf, String, serde_json::Value) {
    gen_class(dir, class, limit, &["--workers", "1"])
}

/// `gen` on `class` in `dir` (seed 1, `limit` sequences) with `extra`, as [`gen_from`].
fn gen_class(
    dir: &Path,
    class: &str,
    limit: &str,
    extra: &[&str],
) -> (std::path::PathBuf, String, serde_json::Value) {
    let mut args = vec!["--class", class, "--generated-limit", limit, "--seed", "1"];
    args.extend_from_slice(extra);
    gen_from(dir, &args)
}

/// `gen` on `class` in `dir` (seed 1, `limit` sequences), as [`gen_from`].
fn gen_one_class(
    dir: &Path,
    class: &str,
    limit: &str,
) -> (std::path::PathBuf, String, serde_json::Value) {
    gen_class(dir, class, limit, &[])
}

/// Some violations were set aside with `cause` (`--stats-json`), and the summary `text`
/// says how many.
fn set_aside_and_said(stats: &serde_json::Value, text: &str, cause: &str) {
    let aside = stats["set_aside"][cause].as_u64().unwrap_or(0);
    assert!(aside > 0, "{stats:#}");
    assert!(text.contains(&format!("{cause} {aside}")), "{text}");
}

/// (class, contract) of each error test in `--stats-json`, in its order.
fn classes_and_contracts(stats: &serde_json::Value) -> Vec<(&str, &str)> {
    stats["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["class"].as_str().unwrap(),
                e["contract"].as_str().unwrap(),
            )
        })
        .collect()
}

#[test]
#[ignore = "slow: runs jforge gen and coverage end to end"]
fn an_abstract_class_gets_receivers_from_anonymous_subclasses() {
    // fw.ForwardingBag is abstract and nothing implements it: without an anonymous subclass
    // whose delegate() returns a list built earlier, none of its methods has a receiver
    // (gen refused the class: nothing to call)
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let errors = d.path().join("errors");
    let json = d.path().join("stats.json");
    let classes = compiled("stubs");
    let mut args = gen_args(&out, &json);
    args.extend(
        [
            "--class",
            "fw.ForwardingBag",
            "--generated-limit",
            "3000",
            "--seed",
            "1",
            "--error-output-dir",
            errors.to_str().unwrap(),
            "--classpath",
            classes.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let o = run_done(jforge().args(&args));
    // a delegate() returning null makes every method throw NullPointerException: the
    // input's fault (Blame), never an error test
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(java_files(&errors).is_empty(), "{:?}", java_files(&errors));
    let stats = read_json(&json);
    assert_eq!(stats["validation"]["clean"], true, "{stats:#}");
    let src: String = java_files(&out)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    // the anonymous class captures the list built before it (declared once, never assigned
    // again: effectively final)
    assert!(
        src.contains(
            "ForwardingBag forwardingBag0 = new ForwardingBag() { @Override protected List<String> delegate() { return arrayList0; } };"
        ),
        "{src}"
    );
    let run = compile_and_run_junit4(&out, classes.to_str().unwrap());
    assert!(
        run.tests_run > 0 && run.failures.is_empty(),
        "{}",
        run.output
    );
    // the written suite covers every method of the bag and both outcomes of first()
    let cov = d.path().join("cov.json");
    run_ok(
        jforge()
            .args(["coverage", "--quiet", "--classpath"])
            .arg(&classes)
            .arg("--tests")
            .arg(&out)
            .args(["--class", "fw.ForwardingBag", "--json"])
            .arg(&cov),
    );
    let c = &read_json(&cov)["classes"][0];
    assert_eq!(c["name"], "fw.ForwardingBag", "{c:#}");
    assert_eq!(c["methods"]["covered"], 6, "{c:#}");
    assert_eq!(c["methods"]["total"], 6, "{c:#}");
    assert_eq!(c["branches"]["covered"], c["branches"]["total"], "{c:#}");
}

#[test]
fn a_named_abstract_class_with_a_constructor_of_package_access_gets_a_subclass() {
    // fw.Scanner (as Commons CSV's Lexer) is abstract and its one constructor has package
    // access: named with --class, it gets an anonymous subclass in its own package, and its
    // methods are tested (before: "has no constructor, method or field jforge can call")
    let (_d, out, _json, o) = gen_compiled("stubs", "fw.Scanner", "1500");
    let classes = compiled("stubs");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let src: String = java_files(&out)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    assert!(src.contains("new Scanner('"), "{src}");
    assert!(src.contains("@Override String next()"), "{src}");
    assert!(src.contains(".count(\""), "{src}");
    let run = compile_and_run_junit4(&out, classes.to_str().unwrap());
    assert!(
        run.tests_run > 0 && run.failures.is_empty(),
        "{}",
        run.output
    );
}

#[test]
fn a_jdk_class_outside_java_base_is_measured_in_its_own_module() {
    // java.util.logging lives in module java.logging: its rewritten classes go into a patch
    // folder of that module. Put into java.base's (as before), the package would be in two
    // modules and no worker JVM would boot ("Package java.util.logging in both module
    // java.base and module java.logging"; `gen --package java.util` failed that way).
    let d = tempfile::tempdir().unwrap();
    let stats = d.path().join("s.json");
    let mut cmd = jforge();
    cmd.args([
        "gen",
        "--class",
        "java.util.logging.Level",
        "--class",
        "java.util.ArrayDeque",
        "--generated-limit",
        "400",
        "--no-validate",
        "--output-dir",
    ])
    .arg(d.path().join("out"))
    .arg("--stats-json")
    .arg(&stats);
    run_ok(&mut cmd);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    let classes = s["coverage"]["classes"].as_array().unwrap();
    let level = classes
        .iter()
        .find(|c| c["name"] == "java.util.logging.Level")
        .unwrap_or_else(|| panic!("{s:#}"));
    assert!(
        level["lines"]["covered"].as_u64().unwrap_or(0) > 0,
        "{level:#}"
    );
}

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn a_constructor_needing_two_different_dates_an_amount_and_a_list_gets_tests() {
    // bk.Booking(LocalDate from, LocalDate to, BigDecimal nightly, List<String> guests)
    // throws unless `to` is after `from`, the amount positive and the list not empty; its
    // methods return BigDecimal and Period. Because `Booking.total()` returns a BigDecimal,
    // the producer graph counted BigDecimal (and Period) as made, though making one needs a
    // Booking first: every amount was null, every constructor call threw, and the run
    // covered 0 of 15 operations (5 of 56 branches) in 20 s.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_from(
        d.path(),
        &[
            "--class",
            "bk.Booking",
            "--time-limit",
            "20s",
            "--seed",
            "1",
        ],
    );
    let class = &stats["classes"][0];
    let covered = class["covered"].as_u64().unwrap();
    assert!(covered >= 13, "{covered} of 15 operations covered:\n{text}");
    let suite = &stats["coverage"]["suite"];
    let (b, t) = (
        suite["branches_covered"].as_u64().unwrap(),
        stats["coverage"]["branches_total"].as_u64().unwrap(),
    );
    assert!(
        b * 10 >= t * 8,
        "the written suite covers {b}/{t} branches:\n{text}"
    );
    assert_eq!(stats["stop_reason"], "time-limit", "{text}");
    // The suite builds bookings that the constructor accepts: a test that calls a method
    // on one and asserts what it returns, compiled and run here.
    let all = java_sources(&out);
    assert!(all.contains(".total();"), "no test calls total():\n{all}");
    let run = compile_and_run_junit4(&out, &subjects().display().to_string());
    assert!(run.failures.is_empty(), "{}", run.output);
    assert!(run.tests_run >= 10, "{}", run.output);
}

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn strbuilder_keeps_its_own_values_when_a_call_given_itself_times_out() {
    // `sb.appendln(sb)` repeated doubles the builder until a call times out. The hang was
    // blamed on the argument's class, StrBuilder itself, whose values were then all
    // dropped: 97% of the sequences ended on values of other types and the written suite
    // covered 329 of 554 branches (494 before the blame existed). The class under test is
    // never blamed now, and such a call is not repeated.
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("stats.json");
    let lang3 = "/usr/share/java/commons-lang3.jar";
    let mut args = gen_args(&out, &json);
    args.extend(
        [
            "--class",
            "org.apache.commons.lang3.text.StrBuilder",
            "--classpath",
            lang3,
            "--generated-limit",
            "20000",
            "--seed",
            "1",
        ]
        .map(String::from),
    );
    run_done(jforge().args(&args));
    let stats = read_json(&json);
    let total = stats["coverage"]["branches_total"].as_u64().unwrap();
    let suite = stats["coverage"]["suite"]["branches_covered"]
        .as_u64()
        .unwrap();
    assert_eq!(total, 554, "commons-lang3 3.12.0 expected: {stats:#}");
    assert!(
        suite * 100 >= total * 90,
        "the written suite covers {suite}/{total} branches"
    );
    let class = &stats["classes"][0];
    let ending_here = class["sequences"].as_u64().unwrap();
    let executed = stats["executed"].as_u64().unwrap();
    assert!(
        ending_here * 2 >= executed,
        "only {ending_here} of {executed} sequences end with an operation of StrBuilder"
    );
    let run = compile_and_run_junit4(&out, lang3);
    assert!(run.failures.is_empty(), "{}", run.output);
}

#[test]
fn calls_that_change_what_the_whole_jvm_shares_are_never_written() {
    // gs.JvmWide closes System.out and System.err, sets and clears system properties, and
    // changes the default locale and time zone. A test making such a call changes every test
    // its build runs after it (a closed System.out silences the build's report). The worker
    // reports such calls (and puts the state back); none is written, and they are counted.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_alone(d.path(), "gs.JvmWide", "1500");
    let all = java_sources(&out);
    for call in [
        ".closeConsole()",
        ".closeErrorsAndFail()",
        ".remember(",
        ".forget()",
        ".speakFrench()",
        ".moveToTokyo()",
    ] {
        assert!(!all.contains(call), "a test calls {call}:\n{all}");
    }
    assert!(all.contains(".increment("), "the counter is tested:\n{all}");
    let left = &stats["left_out_calls"]["changes_global_state"];
    assert!(
        left.as_u64().unwrap() >= 6,
        "{left} calls left out:\n{text}"
    );
    // The state was put back: `describe()` reads the default locale and a property, and its
    // assertions hold in the check's fresh JVMs (a leak would have made them differ).
    let run = compile_and_run_junit4(&out, &subjects().display().to_string());
    assert!(run.failures.is_empty(), "{}", run.output);
    assert!(run.tests_run >= 3, "{}", run.output);
}

#[test]
fn calls_that_leave_a_value_in_a_static_thread_local_are_never_written() {
    // gs.Styles keeps a registry per thread as commons-lang3's ToStringStyle does (a map of
    // `ThreadLocal.withInitial`, filled in place): `register(x)` (package access, callable
    // from the tests' package) and `describe(-1)` (throws while registered) leave an entry
    // behind, and a project whose tests check the registry after each test fails in every
    // later one (commons-lang3: 7,759 of 12,292); `enter(x)` sets a plain ThreadLocal.
    // The worker reports such calls (and empties the ThreadLocal); `pad(..)`'s buffer,
    // filled on first use, is a cache and stays tested, and so does `describe` itself.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_alone(d.path(), "gs.Styles", "1500");
    let all = java_sources(&out);
    // (register(null) registers nothing, enter(null) sets nothing: tests of their own)
    assert!(
        !all.replace("Styles.register((Object) null)", "")
            .contains("Styles.register("),
        "a test registers a value:\n{all}"
    );
    assert!(
        !all.replace("Styles.enter((Object) null)", "")
            .contains("Styles.enter("),
        "a test sets the current object:\n{all}"
    );
    for call in ["Styles.pad(", "Styles.describe("] {
        assert!(all.contains(call), "no test calls {call}:\n{all}\n{text}");
    }
    // No test expects describe's exception: its call leaves the entry behind. (A test that
    // expects an exception catches it by class: `catch (IllegalArgumentException e)`.)
    for test in all.split("@Test") {
        assert!(
            !(test.contains("Styles.describe(") && test.contains("IllegalArgumentException")),
            "a test expects describe's exception, which leaves the registry filled:\n{test}"
        );
    }
    // The shared style's setter is never called (commons-lang3's SimpleToStringStyleTest
    // failed after a written test set SIMPLE_STYLE's null text); a new style's is.
    let shared = regex::Regex::new(r"Styles (\w+) = Styles\.SIMPLE;").unwrap();
    for test in all.split("@Test") {
        for c in shared.captures_iter(test) {
            let set = format!("{}.setNullText(", &c[1]);
            assert!(
                !test.contains(&set),
                "a test sets the shared style:\n{test}"
            );
        }
    }
    assert!(
        all.contains(".setNullText("),
        "no test sets a style:\n{all}"
    );
    let left = &stats["left_out_calls"]["changes_global_state"];
    assert!(
        left.as_u64().unwrap() >= 1,
        "{left} calls left out:\n{text}"
    );
    let run = compile_and_run_junit4(&out, &subjects().display().to_string());
    assert!(run.failures.is_empty(), "{}", run.output);
}

#[test]
fn what_the_jdk_decides_for_an_enum_under_test_is_not_its_test() {
    // jb.Mode inherits java.lang.Enum's final methods: a test of `mode0.ordinal()` or
    // `mode0.name()` pins the JDK and the declaration order, not the enum (on Apache Commons
    // CSV, the ordinal of every QuoteMode). So do the `values()` and `valueOf(String)` javac
    // writes into every enum (`QuoteMode.valueOf("ALLOW_ALL")` throwing, issue 33). The
    // enum's own methods are tested, its own `valueOf(int)` among them.
    let d = tempfile::tempdir().unwrap();
    let (out, text, _) = gen_from(
        d.path(),
        &[
            "--class",
            "jb.Counter",
            "--class",
            "jb.Mode",
            "--generated-limit",
            "2000",
            "--seed",
            "1",
            "--workers",
            "1",
        ],
    );
    let all = java_sources(&out);
    for call in [
        "mode0.equals(",
        ".ordinal()",
        ".name()",
        ".compareTo(",
        ".getDeclaringClass()",
        ".describeConstable()",
        "Mode.valueOf(\"",
        "Mode.values()",
        "Enum.valueOf(",
        "Enum.<",
    ] {
        assert!(!all.contains(call), "a test calls {call}:\n{all}");
    }
    assert!(
        all.contains(".retries()") && all.contains(".add(") && all.contains("Mode.valueOf("),
        "the classes' own methods are tested:\n{all}\n{text}"
    );
}

/// The regression suite `gen` writes for tests/subjects/quality (an enum implementing an
/// interface, a class with static final constants that keeps Object's equals), once per
/// test-binary run; its lines trimmed.
fn quality_suite() -> &'static [String] {
    static SUITE: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    SUITE.get_or_init(|| {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("tests");
        let json = d.path().join("stats.json");
        let mut args = gen_args(&out, &json);
        args.extend(
            [
                "--class",
                "quality.Meter",
                "--class",
                "quality.Unit",
                "--class",
                "quality.Ranked",
                "--generated-limit",
                "2000",
                "--seed",
                "1",
            ]
            .map(String::from),
        );
        run_done(
            jforge()
                .args(&args)
                .arg("--classpath")
                .arg(compiled("quality")),
        );
        let stats = read_json(&json);
        assert_eq!(stats["validation"]["clean"], true, "{stats:#}");
        java_sources(&out)
            .lines()
            .map(|l| l.trim().to_string())
            .collect()
    })
}

/// Each line of the quality suite followed by the next one.
fn quality_line_pairs() -> impl Iterator<Item = (&'static str, &'static str)> {
    let lines = quality_suite();
    lines
        .iter()
        .zip(lines.iter().skip(1))
        .map(|(a, b)| (a.as_str(), b.as_str()))
}

/// Whether `line` is an assertion whose last argument is the variable `var`.
fn asserts_var(line: &str, var: &str) -> bool {
    line.starts_with("assert") && line.ends_with(&format!("({var});"))
        || line.starts_with("assert") && line.ends_with(&format!(", {var});"))
}

#[test]
#[ignore = "slow: a gen run on tests/subjects/quality"]
fn static_field_reads_are_not_asserted_and_are_inlined() {
    // issue 33: `Unit unit0 = Unit.KILO; assertEquals(Unit.KILO, unit0);`, `String str0 =
    // Meter.NAME; assertEquals("meter", str0);` assert the test's own expression.
    let read = regex::Regex::new(r"^\S+ (\w+) = [A-Z]\w*\.[A-Z][A-Z0-9_]*;$").unwrap();
    let asserted: Vec<_> = quality_line_pairs()
        .filter(|(a, b)| {
            read.captures(a)
                .is_some_and(|c| asserts_var(b, c.get(1).unwrap().as_str()))
        })
        .collect();
    assert!(asserted.is_empty(), "{asserted:#?}");
    // a read used once is written at its use, as literals are: `meter0.in(Unit.KILO)`
    let inlined = regex::Regex::new(r"\w\((?:[^;]*, )?Unit\.(GRAM|KILO|TON)[,)]").unwrap();
    assert!(
        quality_suite().iter().any(|l| inlined.is_match(l)),
        "{}",
        quality_suite().join("\n")
    );
}

#[test]
#[ignore = "slow: a gen run on tests/subjects/quality"]
fn no_test_calls_equals_with_its_own_receiver() {
    // `boolean b0 = unit1.equals(unit1); assertTrue(b0);`: reflexivity, a contract the
    // worker checks apart; never asserted, not written when unused or alone.
    let call = regex::Regex::new(r"(\w+)\.equals\((\w+)\)").unwrap();
    let own: Vec<&String> = quality_suite()
        .iter()
        .filter(|l| call.captures_iter(l).any(|c| c[1] == c[2]))
        .collect();
    assert!(own.is_empty(), "{own:#?}");
}

/// The pairs of lines of the quality suite where the first declares a variable matching
/// `decl` (group 1: its name) and the second asserts it.
fn asserted_right_after(decl: &str) -> Vec<(&'static str, &'static str)> {
    let call = regex::Regex::new(decl).unwrap();
    quality_line_pairs()
        .filter(|(a, b)| {
            call.captures(a)
                .is_some_and(|c| asserts_var(b, c.get(1).unwrap().as_str()))
        })
        .collect()
}

#[test]
#[ignore = "slow: a gen run on tests/subjects/quality"]
fn identity_equals_is_not_asserted() {
    // `boolean b0 = ranked0.equals(str0); assertFalse(b0);`: the stub (like Meter) keeps
    // Object.equals, so the result says only that these are two objects.
    let asserted = asserted_right_after(r"^boolean (\w+) = (?:ranked|meter)\d+\.equals\(");
    assert!(asserted.is_empty(), "{asserted:#?}");
}

#[test]
#[ignore = "slow: a gen run on tests/subjects/quality"]
fn enum_ordinals_are_not_asserted() {
    // `int i0 = unit0.ordinal(); assertEquals(0, i0);` (Ranked.ordinal() is Enum.ordinal()
    // on a Unit): the declaration order.
    let asserted = asserted_right_after(r"^int (\w+) = unit\d+\.ordinal\(\);$");
    assert!(asserted.is_empty(), "{asserted:#?}");
    let observed: Vec<&String> = quality_suite()
        .iter()
        .filter(|l| l.starts_with("assert") && l.contains(".ordinal())"))
        .filter(|l| l.contains("unit"))
        .collect();
    assert!(observed.is_empty(), "{observed:#?}");
}

#[test]
fn strings_of_the_shapes_parsers_branch_on_are_generated() {
    // shapes.Tokens.kind(String) branches on a supplementary character, a number past int's
    // range, a hex number and a real one, none of them a constant of the class: the pool's
    // strings ("", "?", "hi!", "10", ...) reach 10 of its 16 branches; their mutants (issue
    // 34, item 3) reach the others. The written suite is compiled and run here, and pins each
    // kind by its returned value.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_one_class(d.path(), "shapes.Tokens", "3000");
    let covered = stats["coverage"]["suite"]["branches_covered"]
        .as_u64()
        .unwrap();
    assert!(covered >= 14, "{covered}/16 branches\n{text}");
    let run = compile_and_run_junit4(&out, subjects().to_str().unwrap());
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    let src = java_sources(&out);
    for kind in ["astral", "wide", "hex", "real", "word", "int"] {
        assert!(
            src.contains(&format!("\"{kind}\"")),
            "no test pins {kind}:\n{src}"
        );
    }
}

#[test]
fn an_object_parameter_gets_values_of_the_types_its_method_tests_with_instanceof() {
    // shapes.Cells.print(Object) copies an InputStream and a Reader by paths of their own, as
    // Commons CSV's CSVFormat.print(Object, Appendable, boolean) does (issue 33, item 5): no
    // signature of the class mentions either type, so before, nothing made one and no test
    // reached the two paths (0 of each at 300, 500 and 1,000 sequences). The types a method
    // tests with instanceof are made like parameter types now, and some of its arguments
    // are picked among them. The returned counts ("bytes:12") are only reached that way:
    // "bytes:" alone is a constant of the class, used as a String.
    let d = tempfile::tempdir().unwrap();
    let (out, text, _) = gen_alone(d.path(), "shapes.Cells", "500");
    let src = java_sources(&out);
    for kind in ["bytes", "chars"] {
        let pinned = regex::Regex::new(&format!(r#""{kind}:\d+""#)).unwrap();
        assert!(
            pinned.is_match(&src),
            "no test pins print's {kind} path:\n{text}\n{src}"
        );
    }
    let run = compile_and_run_junit4(&out, subjects().to_str().unwrap());
    assert!(run.failures.is_empty(), "{:?}", run.failures);
}

#[test]
fn a_reader_gets_text_of_the_characters_its_class_compares_and_a_printing_parser_stays() {
    // shapes.Lines extends BufferedReader and counts '\r' in read(), as Commons CSV's
    // ExtendedBufferedReader counts lines (Defects4J Csv-1); its static parse(String) prints
    // its NumberFormatException and returns null, as Commons CLI's TypeHandler.createNumber
    // does (Cli-3). Before: `Reader.nullReader()`, inherited, was an operation of the class and
    // made Reader count as made, so no StringReader was ever built (no carriage return ever
    // read); and parse was excluded as "prints whenever called" after the first 3 Strings,
    // none numeric. Now the class's readers are StringReaders whose text is mutated like the
    // arguments of a method that compares, and parse stays for the numbers that come later.
    let d = tempfile::tempdir().unwrap();
    let (out, text, _) = gen_alone(d.path(), "shapes.Lines", "20000");
    let src = java_sources(&out);
    assert!(
        !src.contains("Lines.nullReader()"),
        "an inherited JDK static called as the class's:\n{src}"
    );
    let counted = regex::Regex::new(r#"assertEquals\([1-9]\d*, lines\d+\.returns\(\)\)"#).unwrap();
    assert!(
        src.contains("new StringReader(") && counted.is_match(&src),
        "no test reads a carriage return:\n{text}\n{src}"
    );
    assert!(
        !text.contains("Lines.parse(String) left out"),
        "parse excluded as printing whenever called:\n{text}"
    );
    let parsed =
        regex::Regex::new(r#"assertEquals\(Long\.valueOf\(-?\d+L\), longValue\d+\)"#).unwrap();
    assert!(
        parsed.is_match(&src),
        "no test of parse(String) returning a number:\n{text}\n{src}"
    );
    let run = compile_and_run_junit4(&out, subjects().to_str().unwrap());
    assert!(run.failures.is_empty(), "{:?}", run.failures);
}

#[test]
fn a_method_that_reads_fields_and_writes_none_is_an_observer_whatever_its_name() {
    // observe.Buffer shows what put(n) did only through avail(), not named like a getter
    // (as Commons Codec's Base64 shows a real fault's effect only through avail(); issue 34
    // item 4). take() reads and writes: asserting it would change what it asserts. Before,
    // no test of put(n) asserted anything.
    let d = tempfile::tempdir().unwrap();
    let (out, text, _) = gen_one_class(d.path(), "observe.Buffer", "500");
    let src = java_sources(&out);
    let puts: Vec<&str> = src.split("@Test").filter(|t| t.contains(".put(")).collect();
    assert!(!puts.is_empty(), "no test of put:\n{text}\n{src}");
    for t in &puts {
        let after = &t[t.rfind(".put(").unwrap()..];
        assert!(after.contains(".avail()"), "avail() not asserted:\n{t}");
    }
    assert!(
        !src.contains(".take());"),
        "take() asserted as an observer:\n{src}"
    );
    let run = compile_and_run_junit4(&out, subjects().to_str().unwrap());
    assert!(run.failures.is_empty(), "{:?}", run.failures);
}

#[test]
fn after_a_call_the_getters_that_read_what_it_wrote_are_asserted() {
    // observe.Settings has thirteen getters before getZone() by name; setZone(z) writes the
    // field only getZone() reads (through a private helper). A test of setZone asserts
    // getZone() first (before: getA() .. getL(), the first twelve by name, never getZone()).
    let d = tempfile::tempdir().unwrap();
    let (out, text, _) = gen_one_class(d.path(), "observe.Settings", "500");
    let src = java_sources(&out);
    let tests: Vec<&str> = src
        .split("@Test")
        .filter(|t| t.contains(".setZone("))
        .collect();
    assert!(!tests.is_empty(), "no test of setZone:\n{text}\n{src}");
    for t in &tests {
        let after = &t[t.rfind(".setZone(").unwrap()..];
        assert!(after.contains(".getZone()"), "getZone() not asserted:\n{t}");
        // the getters it cannot change come after it (they pin that it did not)
        if let Some(a) = after.find(".getA()") {
            assert!(
                after.find(".getZone()").unwrap() < a,
                "getZone() after getA():\n{t}"
            );
        }
    }
    let run = compile_and_run_junit4(&out, subjects().to_str().unwrap());
    assert!(run.failures.is_empty(), "{:?}", run.failures);
}

#[test]
fn members_that_set_static_state_are_left_out_unless_named() {
    // gs.Flags keeps settings in static fields until make() consumes them (commons-cli's
    // OptionBuilder: under Surefire, where all test classes share a JVM, a written test
    // failed after another left OptionBuilder's settings behind). A member that sets a static
    // field without reading it (read from the bytecode, whatever its name) is left out and
    // listed; make() reads what it resets and cached(..) fills a cache it reads: both are
    // tested. --include-methods naming a setter keeps it.
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_alone(d.path(), "gs.Flags", "1500");
    let all = java_sources(&out);
    for setter in [
        "Flags.verbose()",
        "Flags.named(",
        "Flags.level(",
        "Flags.reset()",
    ] {
        assert!(!all.contains(setter), "{setter} is called:\n{all}");
    }
    assert!(all.contains("Flags.make()"), "make() is tested:\n{all}");
    assert!(all.contains("Flags.cached("), "the cache is tested:\n{all}");
    let skipped = stats["skipped_members"].to_string();
    for m in [
        "gs.Flags.verbose()",
        "gs.Flags.named(java.lang.String)",
        "gs.Flags.level(int)",
    ] {
        assert!(
            skipped.contains(m) && skipped.contains("changes state shared by the whole JVM"),
            "{m} not listed: {skipped}\n{text}"
        );
    }
    assert!(!skipped.contains("gs.Flags.make()"), "{skipped}");
    let run = compile_and_run_junit4(&out, &subjects().display().to_string());
    assert!(run.failures.is_empty(), "{}", run.output);
    let d = tempfile::tempdir().unwrap();
    let (out, _, _) = gen_class(
        d.path(),
        "gs.Flags",
        "1500",
        &[
            "--workers",
            "1",
            "--include-methods",
            r"gs\.Flags\.(named|make).*",
        ],
    );
    assert!(java_sources(&out).contains("Flags.named("));
}

#[test]
fn a_value_that_holds_an_identity_hash_is_not_asserted_and_the_check_needs_one_round() {
    // observe.Ticket.isShort() is false in two ordinary JVMs (its label holds an identity
    // hash of seven or eight hex digits) and true where every identity hash is 1. Before,
    // finishing asserted it, the check's identity-hash run failed those tests, and the check
    // compiled and ran the suite a second time (commons-lang3 StrBuilder: 7 of 9 removals).
    let d = tempfile::tempdir().unwrap();
    let (out, text, stats) = gen_one_class(d.path(), "observe.Ticket", "300");
    let src = java_sources(&out);
    assert!(
        src.contains(".isShort()"),
        "isShort() never called:\n{text}\n{src}"
    );
    for t in src.split("@Test").filter(|t| t.contains(".isShort()")) {
        for line in t.lines().filter(|l| l.contains(".isShort()")) {
            assert!(!line.contains("assert"), "isShort() asserted:\n{t}");
            if let Some(var) = line.trim().strip_prefix("boolean ") {
                let var = var.split(' ').next().unwrap();
                assert!(
                    !t.contains(&format!("({var})")),
                    "isShort()'s value asserted:\n{t}"
                );
            }
        }
    }
    let v = &stats["validation"];
    assert_eq!(v["rounds"], 1, "{v:#}");
    assert!(
        v["removed_by_cause"].get("identity_hash").is_none(),
        "{v:#}"
    );
    assert!(stats["regression_tests"].as_u64().unwrap() > 0, "{stats:#}");
}

#[test]
fn an_exception_the_class_throws_itself_has_its_message_asserted_and_the_jdk_s_do_not() {
    // shapes.Checked throws its own IllegalArgumentException ("not positive: -1"), a JDK
    // method's NumberFormatException (Integer.parseInt: its message changes between JDK
    // releases) and the JVM's ArithmeticException from its own code. Only the first
    // message is asserted. Defects4J's Lang-7 and Lang-11 are of this kind: the same
    // exception class, from the class's own check in the fixed version and from a JDK
    // method in the faulty one; before, every catch only said `// expected`.
    let d = tempfile::tempdir().unwrap();
    let (out, text, _) = gen_alone(d.path(), "shapes.Checked", "2000");
    let src = java_sources(&out);
    let own =
        regex::Regex::new(r#"assertEquals\("not positive: -?\d+", e\.getMessage\(\)\);"#).unwrap();
    assert!(own.is_match(&src), "no message asserted:\n{text}\n{src}");
    let tests: Vec<&str> = src.split("@Test").skip(1).collect();
    for jdk in [
        "catch (NumberFormatException e)",
        "catch (ArithmeticException e)",
    ] {
        let caught: Vec<&&str> = tests.iter().filter(|t| t.contains(jdk)).collect();
        assert!(!caught.is_empty(), "no test with {jdk}:\n{src}");
        for t in caught {
            assert!(!t.contains("getMessage"), "a JDK message asserted:\n{t}");
        }
    }
    let run = compile_and_run_junit4(&out, subjects().to_str().unwrap());
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    // the assertion can fail: the same exception with another message
    let variant = d.path().join("variant");
    std::fs::create_dir_all(variant.join("shapes")).unwrap();
    let checked = std::fs::read_to_string(subjects_src("gen").join("shapes/Checked.java"))
        .unwrap()
        .replace("\"not positive: \" + n", "\"must be positive\"");
    std::fs::write(variant.join("shapes/Checked.java"), checked).unwrap();
    let variant_classes = d.path().join("variant-classes");
    javac(&variant, &variant_classes, "");
    let run = compile_and_run_junit4(&out, variant_classes.to_str().unwrap());
    assert!(
        run.failures
            .iter()
            .any(|(_, why)| why.contains("not positive") && why.contains("must be positive")),
        "{:?}",
        run.failures
    );
}

#[test]
fn arguments_are_configured_after_they_are_made_and_faults_that_need_it_are_caught() {
    // configure.Checker's two checks are reached only with configured arguments: options
    // holding a required option (`opt.setRequired(true)`, a void setter; `opts.add(opt)`, a
    // fluent adder taking an object) and a format with a header (`Format.PLAIN.withHeader(..)`).
    // Before, arguments were only ever their producer's plain value (`new Opts()`,
    // `Format.PLAIN`), as with Defects4J's Cli-4, Cli-9..12, Csv-7, Csv-10 and Csv-11.
    let d = tempfile::tempdir().unwrap();
    let (out, text, _) = gen_alone(d.path(), "configure.Checker", "3000");
    let src = java_sources(&out);
    for call in [".setRequired(true);", ".add(opt", ".withHeader("] {
        assert!(src.contains(call), "no {call}:\n{text}\n{src}");
    }
    for message in ["\"missing required: ", "\"duplicate header: "] {
        assert!(
            src.contains(&format!("assertEquals({message}")),
            "no {message} asserted:\n{src}"
        );
    }
    let run = compile_and_run_junit4(&out, subjects().to_str().unwrap());
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    // each check's fault is caught: the suite fails on a variant without it
    for (check, without) in [
        ("o.isRequired() && ", "false && "),
        ("if (!seen.add(h))", "if (seen.add(h) && false)"),
    ] {
        let variant = d.path().join("variant");
        let _ = std::fs::remove_dir_all(&variant);
        std::fs::create_dir_all(variant.join("configure")).unwrap();
        for f in ["Opt", "Opts", "Format", "Checker"] {
            let text =
                std::fs::read_to_string(subjects_src("gen").join(format!("configure/{f}.java")))
                    .unwrap();
            let text = if f == "Checker" {
                assert!(text.contains(check), "{check}");
                text.replace(check, without)
            } else {
                text
            };
            std::fs::write(variant.join(format!("configure/{f}.java")), text).unwrap();
        }
        let variant_classes = d.path().join(format!("variant-classes-{}", without.len()));
        javac(&variant, &variant_classes, "");
        let run = compile_and_run_junit4(&out, variant_classes.to_str().unwrap());
        assert!(!run.failures.is_empty(), "nothing failed without {check}");
    }
}

#[test]
fn an_interface_result_is_asserted_through_the_to_string_of_the_object_behind_it() {
    // textof.Groups.of(..) returns a Group (an interface without toString); the object's
    // own toString is the one place its order shows (Defects4J Cli-7). Before, a returned
    // interface was asserted only through the getters the interface declares.
    let d = tempfile::tempdir().unwrap();
    let (out, text, _) = gen_alone(d.path(), "textof.Groups", "500");
    let src = java_sources(&out);
    let asserted =
        regex::Regex::new(r#"assertEquals\("\[[^"]*\|[^"]*\]", group\d+\.toString\(\)\);"#)
            .unwrap();
    assert!(
        asserted.is_match(&src),
        "no toString asserted:\n{text}\n{src}"
    );
    let run = compile_and_run_junit4(&out, subjects().to_str().unwrap());
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    // the order's fault is caught: members spelled last to first
    let variant = d.path().join("variant");
    std::fs::create_dir_all(variant.join("textof")).unwrap();
    for f in ["Group", "Groups"] {
        let text = std::fs::read_to_string(subjects_src("gen").join(format!("textof/{f}.java")))
            .unwrap()
            .replace(
                "letters.charAt(i)",
                "letters.charAt(letters.length() - 1 - i)",
            );
        std::fs::write(variant.join(format!("textof/{f}.java")), text).unwrap();
    }
    let variant_classes = d.path().join("variant-classes");
    javac(&variant, &variant_classes, "");
    let run = compile_and_run_junit4(&out, variant_classes.to_str().unwrap());
    assert!(
        !run.failures.is_empty(),
        "nothing failed with the order reversed"
    );
}
