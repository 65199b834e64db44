//! A released project rebuilt from Maven Central (issue 33, item 9): `jforge gen --project`
//! on Apache Commons CSV 1.14.1, laid out by bench/real_projects.py (`--layout-only`) from
//! its released pom, `-sources.jar` and `-test-sources.jar`. The written tests must compile
//! and pass in the project's own `mvn verify` with no extra flags, start with the project's
//! license header, print nothing, and a re-run must change under 5% of the lines and count
//! every test. Needs Maven Central (the layout and Maven's plugins); without it the test fails
//! and says so.
//!
//! Why Commons CSV and not the smaller DbUtils or CLI (2026-11-27): on DbUtils a written
//! `DatePropertyHandlerRegressionTest` asserts the size of a class-path folder's listing
//! (`QueryLoader.instance().load("")`), 27 in jforge's check and 47 in `mvn verify`; on CLI
//! the written files lack its license header (its tests spell it two ways). Both are open
//! faults of jforge, in BENCHMARKS.md, "Real projects (issue 33)".

use crate::support::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const PROJECT: &str = "commons-csv";
const MARKER: &str = "// jforge: ";

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("bench/real_projects.py")
}

/// The files jforge wrote (a `// jforge:` marker line near the top), sorted.
fn written(project: &Path) -> Vec<PathBuf> {
    java_files(&project.join("src/test/java"))
        .into_iter()
        .filter(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .take(60)
                .any(|l| l.starts_with(MARKER))
        })
        .collect()
}

fn is_error_cases(f: &Path) -> bool {
    f.to_string_lossy().ends_with("ErrorCases.java")
}

/// `@Test` methods and lines of the regression files (not `*ErrorCases`).
fn tests_and_lines(files: &[PathBuf]) -> (usize, usize) {
    let mut t = (0, 0);
    for f in files.iter().filter(|f| !is_error_cases(f)) {
        let text = std::fs::read_to_string(f).unwrap();
        t.0 += text
            .lines()
            .filter(|l| {
                l.trim_start()
                    .strip_prefix("@Test")
                    .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric()))
            })
            .count();
        t.1 += text.lines().count();
    }
    t
}

/// The block comment most of the project's own test sources start with (read before jforge
/// writes any: the header apache-rat accepts in the folder jforge writes to).
fn license_header(project: &Path) -> String {
    let mut heads: Vec<(String, usize)> = Vec::new();
    for f in java_files(&project.join("src/test/java")) {
        let text = std::fs::read_to_string(&f).unwrap();
        let text = text.trim_start();
        if let (true, Some(end)) = (text.starts_with("/*"), text.find("*/")) {
            let h = text[..end + 2].to_string();
            match heads.iter_mut().find(|(x, _)| *x == h) {
                Some(e) => e.1 += 1,
                None => heads.push((h, 1)),
            }
        }
    }
    heads
        .into_iter()
        .max_by_key(|e| e.1)
        .expect("the test sources start with a license header")
        .0
}

fn git(project: &Path, args: &[&str]) -> String {
    let o = Command::new("git")
        .current_dir(project)
        .args([
            "-c",
            "user.name=it",
            "-c",
            "user.email=it@localhost",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        o.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).to_string()
}

/// `gen --project` with a fixed seed and sequence count on one worker, so that the re-run of
/// an unchanged project is the same run: what differs is what jforge's re-run does, not
/// what a timed random run happened to reach (at `--time-limit 20s` two runs differed by
/// 6.4% of the lines in CI, 78 of 1,209, mostly other error tests; bench/real_projects.py
/// measures the timed re-run).
fn run_gen(project: &Path, json: &Path, flags: &[String]) {
    let mut c = jforge();
    c.env_remove("MAVEN_ARGS")
        .args([
            "gen",
            "--quiet",
            "--generated-limit",
            "20000",
            "--seed",
            "1",
        ])
        .args(["--workers", "1", "--project"])
        .arg(project)
        .arg("--stats-json")
        .arg(json)
        .args(flags.iter().map(|f| format!("--maven-arg={f}")));
    run_done(&mut c);
}

/// What the written classes printed in the build: Surefire runs one test class at a time
/// and copies its console output between `Running C` and C's `Tests run: ...` line (the
/// XML reports keep no output of passing tests).
fn console_output(mvn_out: &str, classes: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<&str> = None;
    for line in mvn_out.lines() {
        if let Some(c) = line.strip_prefix("[INFO] Running ") {
            current = classes.iter().find(|x| *x == c.trim()).map(|x| x.as_str());
        } else if line.starts_with('[') && line.contains("Tests run:") {
            current = None;
        } else if let Some(c) = current {
            out.push(format!("{c}: {line}"));
        }
    }
    out
}

#[test]
#[ignore = "slow: lays Commons CSV out from Maven Central, runs jforge gen --project twice and mvn verify"]
fn commons_csv_from_maven_central_gets_a_green_quiet_stable_suite() {
    let d = tempfile::tempdir().unwrap();
    let proj = d.path().join(PROJECT);
    let o = Command::new("python3")
        .arg(script())
        .args(["--layout-only", PROJECT])
        .arg(&proj)
        .output()
        .expect("python3 runs");
    assert!(
        o.status.success(),
        "laying {PROJECT} out from Maven Central failed (is https://repo1.maven.org reachable?):\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // The flags the project's build needs as laid out, with their reasons, are the script's.
    let flags = Command::new("python3")
        .arg(script())
        .args(["--flags", PROJECT])
        .output()
        .unwrap();
    let flags: Vec<String> = String::from_utf8_lossy(&flags.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    git(&proj, &["init", "-q"]);
    git(&proj, &["add", "-A"]);
    git(&proj, &["commit", "-q", "-m", "laid out"]);

    let header = license_header(&proj);
    let json1 = d.path().join("first.json");
    run_gen(&proj, &json1, &flags);
    let files = written(&proj);
    let (tests1, lines1) = tests_and_lines(&files);
    assert!(tests1 > 0, "jforge wrote no regression test into {PROJECT}");

    // Every written file starts with the project's license header (apache-rat checks it).
    let bare: Vec<_> = files
        .iter()
        .filter(|f| {
            !std::fs::read_to_string(f)
                .unwrap()
                .trim_start()
                .starts_with(&header)
        })
        .collect();
    assert!(
        bare.is_empty(),
        "written without the license header: {bare:?}"
    );

    // No written test calls the console itself.
    let mut calls = Vec::new();
    for f in &files {
        for (i, l) in std::fs::read_to_string(f).unwrap().lines().enumerate() {
            let code = l.trim_start();
            if !code.starts_with("//")
                && (code.contains("System.out") || code.contains("System.err"))
            {
                calls.push(format!("{}:{}: {code}", f.display(), i + 1));
            }
        }
    }
    assert!(
        calls.is_empty(),
        "written tests use the console:\n{}",
        calls.join("\n")
    );

    // The project's own build, no extra flags: the written tests compile and pass.
    let o = Command::new("mvn")
        .args(["-B", "-f"])
        .arg(proj.join("pom.xml"))
        .arg("verify")
        .env_remove("MAVEN_ARGS")
        .output()
        .expect("mvn runs (install Debian package maven)");
    let out = String::from_utf8_lossy(&o.stdout);
    let errors: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("[ERROR]"))
        .take(40)
        .collect();
    assert!(
        o.status.success(),
        "mvn verify with the written tests failed:\n{}",
        errors.join("\n")
    );
    // ... and what they run prints nothing.
    let root = proj.join("src/test/java");
    let classes: Vec<String> = files
        .iter()
        .filter(|f| !is_error_cases(f))
        .map(|f| {
            let rel = f.strip_prefix(&root).unwrap().with_extension("");
            rel.to_string_lossy().replace('/', ".")
        })
        .collect();
    let printed = console_output(&out, &classes);
    assert!(
        printed.is_empty(),
        "the written tests print:\n{}",
        printed.join("\n")
    );

    // A re-run into the same project: few changed lines, every earlier test counted.
    git(&proj, &["add", "-A", "src/test/java"]);
    git(&proj, &["commit", "-q", "--allow-empty", "-m", "first run"]);
    let json2 = d.path().join("second.json");
    run_gen(&proj, &json2, &flags);
    let files2 = written(&proj);
    let (tests2, _) = tests_and_lines(&files2);
    git(&proj, &["add", "-A", "src/test/java"]);
    let numstat = git(&proj, &["diff", "--cached", "--numstat", "HEAD"]);
    let (mut added, mut removed) = (0usize, 0usize);
    for l in numstat.lines() {
        let mut c = l.split('\t');
        added += c.next().unwrap().parse::<usize>().unwrap_or(0);
        removed += c.next().unwrap().parse::<usize>().unwrap_or(0);
    }
    let changed = added.max(removed);
    assert!(
        changed * 20 < lines1,
        "the re-run changed {changed} of {lines1} lines (+{added} -{removed}), not under 5%:\n{numstat}"
    );
    let stats = read_json(&json2);
    let e = &stats["earlier_suite"];
    let n = |k: &str| {
        e[k].as_u64()
            .unwrap_or_else(|| panic!("earlier_suite.{k}: {e}")) as usize
    };
    assert_eq!(
        n("tests"),
        tests1,
        "the re-run read back {} earlier tests, the first run wrote {tests1}: {e}",
        n("tests")
    );
    assert_eq!(
        n("kept") + n("added"),
        tests2,
        "kept + added is not the re-run's test count: {e}"
    );
    assert_eq!(
        n("removed"),
        n("removed_changed")
            + n("removed_unreadable")
            + n("removed_failing")
            + n("removed_add_nothing"),
        "removed tests without a cause: {e}"
    );
    assert_eq!(n("tests"), n("kept") + n("removed"), "{e}");
}
