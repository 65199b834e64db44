//! End-to-end: lean suites and re-runs. By default `jforge gen` writes the covering tests
//! plus distinct exceptions and values, not a fill to a count; a second run into a folder
//! that holds the first run's suite reads it back and keeps it (names, bodies, order), adds
//! only what is new and removes only what no longer passes or adds nothing; a method changed
//! between the runs gets its tests updated and nothing else moves. Subjects: two versions of
//! `rerun.Tally` (tests/subjects/rerun/v1 and v2: `scaled` adds one in v2), `rerun.Widths`
//! (tests/subjects/rerun/errors: two defects that many inputs show), `generic.Registry`
//! (tests/subjects/gen/generic: generic methods that take a class literal) and
//! `java.util.TreeMap` (timed re-runs that replay the earlier budget).

use crate::support::*;
use std::collections::BTreeMap;
use std::path::Path;

/// `jforge gen` on `rerun.Tally` from `classes` into `out`, seed 1, `n` sequences (a fixed
/// count stands for "as far as the time limit let the run get": a re-run with the same
/// seed and time limit gets a little further or less far); returns the report.
fn run_gen(classes: &Path, out: &Path, json: &Path, n: u32) -> serde_json::Value {
    run_gen_with(classes, out, json, n, &[])
}

/// [`run_gen`] with more flags.
fn run_gen_with(
    classes: &Path,
    out: &Path,
    json: &Path,
    n: u32,
    extra: &[&str],
) -> serde_json::Value {
    let n = n.to_string();
    let classes = classes.to_str().unwrap();
    let args = [
        "--class",
        "rerun.Tally",
        "--seed",
        "1",
        "--generated-limit",
        &n,
    ];
    gen_into(
        &[&args[..], &["--classpath", classes], extra].concat(),
        out,
        json,
    )
}

/// `jforge gen --quiet ARGS` into `out`, with its report in `json`; returns the report.
fn gen_into(args: &[&str], out: &Path, json: &Path) -> serde_json::Value {
    run_done(
        jforge()
            .args(["gen", "--quiet"])
            .args(args)
            .arg("--output-dir")
            .arg(out)
            .arg("--stats-json")
            .arg(json),
    );
    read_json(json)
}

/// Every test method under `dir`: (file name, method) -> the method's lines.
fn methods(dir: &Path) -> BTreeMap<(String, String), String> {
    let mut out = BTreeMap::new();
    for f in java_files(dir) {
        let file = f.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&f).unwrap();
        let mut current: Option<(String, String)> = None;
        for l in text.lines() {
            if let Some(rest) = l.trim().strip_prefix("public void ") {
                current = Some((rest.split('(').next().unwrap().to_string(), String::new()));
            } else if let Some((name, body)) = current.as_mut() {
                if l == "    }" {
                    out.insert((file.clone(), name.clone()), std::mem::take(body));
                    current = None;
                } else {
                    body.push_str(l);
                    body.push('\n');
                }
            }
        }
    }
    out
}

/// All lines of the `.java` files under `dir`, and how many differ (added or removed, as
/// `diff` counts them) from those under `before`.
fn changed_lines(before: &Path, after: &Path) -> (usize, usize) {
    diff_lines(before, after, |_| true)
}

/// [`changed_lines`] without the marker lines, which record the run's budget and options:
/// a re-run with other options that leaves every test as it was changes only those.
fn changed_test_lines(before: &Path, after: &Path) -> (usize, usize) {
    diff_lines(before, after, |l| {
        !l[1..].trim_start().starts_with("// jforge: ")
    })
}

fn diff_lines(before: &Path, after: &Path, counted: impl Fn(&str) -> bool) -> (usize, usize) {
    let total: usize = java_files(after)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap().lines().count())
        .sum();
    let o = std::process::Command::new("diff")
        .arg("-r")
        .arg(before)
        .arg(after)
        .output()
        .expect("diff runs");
    let changed = String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| (l.starts_with('<') || l.starts_with('>')) && counted(l))
        .count();
    (changed, total)
}

fn copy_dir(from: &Path, to: &Path) {
    for f in java_files(from) {
        let dest = to.join(f.strip_prefix(from).unwrap());
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&f, &dest).unwrap();
    }
}

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn a_rerun_on_unchanged_code_keeps_the_suite() {
    let v1 = compiled("rerun/v1");
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let first = run_gen(&v1, &out, &d.path().join("1.json"), 250);
    assert!(first.get("earlier_suite").is_none(), "{first}");
    let written = first["regression_tests"].as_u64().unwrap() as usize;
    assert!(written > 5, "{first}");
    let snapshot = d.path().join("first");
    copy_dir(&out, &snapshot);
    // the re-run gets further: without reading back, another selection and numbering (13%
    // of the lines changed before suites were read back)
    let second = run_gen(&v1, &out, &d.path().join("2.json"), 330);
    let e = &second["earlier_suite"];
    assert_eq!(e["tests"].as_u64(), Some(written as u64), "{second}");
    assert_eq!(e["removed_changed"].as_u64(), Some(0), "{second}");
    assert_eq!(e["removed_unreadable"].as_u64(), Some(0), "{second}");
    assert!(
        e["kept"].as_u64().unwrap() as usize * 100 >= written * 95,
        "{second}"
    );
    let (changed, total) = changed_lines(&snapshot, &out);
    assert!(
        changed * 100 < total * 5,
        "{changed} of {total} lines changed on a re-run"
    );
    // kept tests keep their names and bodies
    let before = methods(&snapshot);
    let after = methods(&out);
    let same = before
        .iter()
        .filter(|(k, v)| after.get(*k) == Some(v))
        .count();
    assert_eq!(same as u64, e["kept"].as_u64().unwrap(), "{second}");
    // a re-run that gets less far keeps what the earlier runs found: nothing changes
    let snapshot2 = d.path().join("second");
    copy_dir(&out, &snapshot2);
    let third = run_gen(&v1, &out, &d.path().join("3.json"), 250);
    let e = &third["earlier_suite"];
    assert_eq!(e["kept"], e["tests"], "{third}");
    assert_eq!(e["added"].as_u64(), Some(0), "{third}");
    assert_eq!(changed_test_lines(&snapshot2, &out).0, 0);
}

/// `jforge gen` on `java.util.TreeMap` with a 3 s time limit (no `--generated-limit`) and
/// `extra`.
fn run_timed(out: &Path, json: &Path, extra: &[&str]) -> serde_json::Value {
    let args = ["--class", "java.util.TreeMap", "--time-limit", "3s"];
    gen_into(&[&args[..], extra].concat(), out, json)
}

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn a_timed_rerun_with_the_same_options_replays_the_earlier_budget_and_changes_nothing() {
    // A time limit makes each run reach another count of sequences: two 5 s TreeMap runs
    // into one folder differed in 1,116 to 3,486 of 12,500 lines. The files record the
    // run's count and a hash of its options; a re-run with the same options stops there,
    // or earlier when its time is up (a loaded machine), and chooses as the earlier run
    // did: the same files, byte for byte. (A small class such as rerun.Tally would not
    // tell: every run writes its whole suite whatever the count.)
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let first = run_timed(&out, &d.path().join("1.json"), &[]);
    let n = first["generated"].as_u64().unwrap();
    let files = java_files(&out);
    assert!(!files.is_empty(), "{first}");
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let marker = text.lines().next().unwrap();
        assert!(
            marker.contains(&format!(", sequences: {n}, options: ")),
            "{marker}"
        );
    }
    let snapshot = d.path().join("first");
    copy_dir(&out, &snapshot);
    let second = run_timed(&out, &d.path().join("2.json"), &[]);
    let e = &second["earlier_suite"];
    assert_eq!(e["replayed_sequences"].as_u64(), Some(n), "{second}");
    assert!(second["generated"].as_u64().unwrap() <= n, "{second}");
    assert_eq!(e["added"].as_u64(), Some(0), "{second}");
    assert_eq!(e["kept"], e["tests"], "{second}");
    assert_eq!(changed_lines(&snapshot, &out).0, 0);
    // other options (another seed): the earlier budget is not theirs, the run explores
    let third = run_timed(&out, &d.path().join("3.json"), &["--seed", "2"]);
    assert!(
        third["earlier_suite"]["replayed_sequences"].is_null(),
        "{third}"
    );
    assert_ne!(
        third["stop_reason"].as_str(),
        Some("earlier-run"),
        "{third}"
    );
}

/// A re-run keeps the error-revealing tests an earlier run wrote while they still show their
/// defects: it runs them again after generation and writes them as they were, whatever
/// inputs its own sequences showed the defects with. Before, a re-run with another seed
/// rewrote both of `rerun.Widths`' error tests with other values (9 lines changed).
#[test]
fn a_rerun_keeps_the_error_tests_that_still_show_their_defect() {
    let classes = compiled("rerun/errors");
    let d = tempfile::tempdir().unwrap();
    let (out, errors) = (d.path().join("tests"), d.path().join("errors"));
    let run = |seed: &str| {
        let json = d.path().join(format!("{seed}.json"));
        run_done(
            jforge()
                .args(["gen", "--quiet", "--class", "rerun.Widths"])
                .args(["--generated-limit", "300", "--seed", seed])
                .arg("--classpath")
                .arg(&classes)
                .arg("--output-dir")
                .arg(&out)
                .arg("--error-output-dir")
                .arg(&errors)
                .arg("--stats-json")
                .arg(&json),
        );
        read_json(&json)
    };
    let first = run("1");
    assert_eq!(first["error_tests"].as_u64(), Some(2), "{first}");
    let snapshot = d.path().join("first");
    copy_dir(&errors, &snapshot);
    for seed in ["2", "3"] {
        let again = run(seed);
        let e = &again["earlier_suite"];
        assert_eq!(e["error_tests"].as_u64(), Some(2), "{again}");
        assert_eq!(e["error_tests_kept"].as_u64(), Some(2), "{again}");
        let (changed, total) = changed_test_lines(&snapshot, &errors);
        assert!(
            total > 0 && changed == 0,
            "{changed} of {total} lines of the error tests changed"
        );
    }
}

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn a_rerun_that_gets_much_further_adds_no_values_on_paths_the_suite_has() {
    // A run of 600 sequences alone writes more value tests than one of 250; a re-run of 600
    // over the 250-run's suite keeps that suite and adds only what is new beyond values on
    // the paths its tests are on (commons-lang3: a re-run added 56 tests, 7% of the lines,
    // mostly such values; 11 here before the rule, 1 after it).
    let v1 = compiled("rerun/v1");
    let d = tempfile::tempdir().unwrap();
    let fresh = run_gen(&v1, &d.path().join("fresh"), &d.path().join("f.json"), 600);
    let out = d.path().join("tests");
    let first = run_gen(&v1, &out, &d.path().join("1.json"), 250);
    let written = first["regression_tests"].as_u64().unwrap();
    let more = fresh["regression_tests"].as_u64().unwrap();
    assert!(
        more >= written + 5,
        "600 sequences alone: {fresh}\n250: {first}"
    );
    let second = run_gen(&v1, &out, &d.path().join("2.json"), 600);
    let e = &second["earlier_suite"];
    assert_eq!(e["kept"].as_u64(), Some(written), "{second}");
    assert!(e["added"].as_u64().unwrap() <= 3, "{second}");
}

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn a_changed_method_gets_its_tests_updated_and_nothing_else_moves() {
    let (v1, v2) = (compiled("rerun/v1"), compiled("rerun/v2"));
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    run_gen(&v1, &out, &d.path().join("1.json"), 300);
    let before = methods(&out);
    let second = run_gen(&v2, &out, &d.path().join("2.json"), 300);
    let after = methods(&out);
    let calls_scaled = |body: &str| body.contains(".scaled(");
    let scaled_before: Vec<_> = before.iter().filter(|(_, b)| calls_scaled(b)).collect();
    assert!(!scaled_before.is_empty(), "no test of scaled: {before:?}");
    // every other test is still there, same file, same name, same body
    for (k, body) in before.iter().filter(|(_, b)| !calls_scaled(b)) {
        assert_eq!(after.get(k), Some(body), "{k:?} moved or changed: {second}");
    }
    // the tests of scaled are updated in place (same name, new value) or replaced
    let updated = scaled_before
        .iter()
        .filter(|(k, b)| after.get(*k).is_some_and(|a| a != *b))
        .count();
    assert!(updated > 0, "no test of scaled updated: {after:?}");
    for (k, _) in &scaled_before {
        assert!(
            after.get(*k) != before.get(*k),
            "{k:?} still asserts the old value"
        );
    }
    // and the suite passes on the new version, run independently
    let run = compile_and_run_junit4(&out, &v2.display().to_string());
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    assert_eq!(run.tests_run, after.len());
    assert!(
        second["earlier_suite"]["kept"].as_u64().unwrap() as usize >= before.len() / 2,
        "{second}"
    );
}

/// (exception class, call) of every test that expects an exception: the line before `fail(`
/// holds the call, the `catch` after it the class.
fn expected_exceptions(dir: &Path) -> std::collections::BTreeSet<(String, String)> {
    let call = regex::Regex::new(r"(new \w+|\.\w+)\(").unwrap();
    let mut out = std::collections::BTreeSet::new();
    for f in java_files(dir) {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            if l.trim().starts_with("fail(\"Expected exception") {
                let c = call.captures_iter(lines[i - 1]).last().unwrap()[1].to_string();
                let class = lines[i + 1].trim().trim_start_matches("} catch (");
                out.insert((class.split(' ').next().unwrap().to_string(), c));
            }
        }
    }
    out
}

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn the_default_suite_is_lean_and_keeps_coverage_and_exceptions() {
    let v1 = compiled("rerun/v1");
    let d = tempfile::tempdir().unwrap();
    let (lean_dir, full_dir) = (d.path().join("lean"), d.path().join("full"));
    let lean = run_gen(&v1, &lean_dir, &d.path().join("lean.json"), 1000);
    let full = run_gen_with(
        &v1,
        &full_dir,
        &d.path().join("full.json"),
        1000,
        &["--fill"],
    );
    let (n_lean, n_full) = (
        lean["regression_tests"].as_u64().unwrap(),
        full["regression_tests"].as_u64().unwrap(),
    );
    // at most two thirds of the fill (16 values per path: see select::VALUES_PER_PATH)
    assert!(n_lean * 3 < n_full * 2, "lean {n_lean}, fill {n_full}");
    // what it writes: the cover, the exceptions and the values it adds, nothing else
    let sel = &lean["finish"]["selection"];
    let parts = ["cover", "exception_tests", "value_tests", "replacements"]
        .iter()
        .map(|k| sel[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(n_lean, parts, "{sel}");
    // the same coverage, the same exceptions (class and throwing call) as the full suite
    let branches = |r: &serde_json::Value| r["coverage"]["suite"]["branches_covered"].clone();
    assert_eq!(branches(&lean), branches(&full));
    let (ex_lean, ex_full) = (
        expected_exceptions(&lean_dir),
        expected_exceptions(&full_dir),
    );
    assert!(ex_lean.len() >= 2, "{ex_lean:?}");
    assert_eq!(ex_lean, ex_full);
    let run = compile_and_run_junit4(&lean_dir, &v1.display().to_string());
    assert!(run.failures.is_empty(), "{:?}", run.failures);
    assert_eq!(run.tests_run as u64, n_lean);
}

/// `public void` test methods of the regression files under `dir` without a `jforge-seq` line
/// right above their `@Test`.
fn tests_without_stored_line(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for f in java_files(dir) {
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            if l.trim().starts_with("public void ")
                && !(i >= 2
                    && lines[i - 1].trim() == "@Test"
                    && lines[i - 2].trim().starts_with("// jforge-seq: "))
            {
                out.push(format!("{}: {}", f.display(), l.trim()));
            }
        }
    }
    out
}

#[test]
fn tests_of_generic_methods_taking_class_literals_are_stored_and_kept() {
    let classes = compiled("gen/generic");
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let run = |json: &str| {
        let json = d.path().join(json);
        run_done(
            jforge()
                .args([
                    "gen",
                    "--quiet",
                    "--class",
                    "generic.Registry",
                    "--seed",
                    "1",
                ])
                .args(["--generated-limit", "2000", "--workers", "1"])
                .arg("--classpath")
                .arg(&classes)
                .arg("--output-dir")
                .arg(&out)
                .arg("--stats-json")
                .arg(&json),
        );
        read_json(&json)
    };
    let first = run("1.json");
    let written = first["regression_tests"].as_u64().unwrap();
    // the suite calls the generic methods with explicit type arguments and class literals
    let before = methods(&out);
    let generic = before
        .values()
        .filter(|b| b.contains(">get(") && b.contains(".class"))
        .count();
    assert!(generic > 0, "no test of get(Class<T>): {before:?}");
    // every test carries its sequence
    let missing = tests_without_stored_line(&out);
    assert!(
        missing.is_empty(),
        "written without a stored sequence: {missing:#?}"
    );
    // and a re-run reads every one back and keeps it, unchanged
    let second = run("2.json");
    let e = &second["earlier_suite"];
    assert_eq!(e["tests"].as_u64(), Some(written), "{second}");
    assert_eq!(e["removed_unreadable"].as_u64(), Some(0), "{second}");
    assert_eq!(e["kept"].as_u64(), Some(written), "{second}");
    assert_eq!(methods(&out), before);
}
