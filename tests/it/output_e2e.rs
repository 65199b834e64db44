//! End-to-end: output that is safe to drop into a project. A Maven build runs every generated
//! test class and no error-revealing one; runs into one folder keep each other's files and
//! hand-written ones; a second concurrent run is refused; an interrupted run leaves the
//! earlier suite byte-identical and no temporary folder or process behind.

use crate::support as common;
use common::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Every file under `dir` (hidden ones included) with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.insert(
                    p.strip_prefix(root).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    let mut m = BTreeMap::new();
    if dir.exists() {
        walk(dir, dir, &mut m);
    }
    m
}

/// Names under `dir` (recursively) that start with `.jforge`: lock files, staging folders.
fn jforge_leftovers(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if e.file_name().to_string_lossy().starts_with(".jforge") {
            out.push(p.clone());
        }
        if p.is_dir() {
            out.extend(jforge_leftovers(&p));
        }
    }
    out
}

fn gen_cmd(out: &Path, extra: &[&str]) -> Command {
    let mut c = jforge();
    c.args(["gen", "--quiet", "--classpath"])
        .arg(subjects())
        .arg("--output-dir")
        .arg(out)
        .args(extra);
    c
}

fn wait_timeout(child: &mut Child, limit: Duration) -> ExitStatus {
    let t0 = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            return st;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            panic!("jforge did not stop within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn wait_for(what: &str, limit: Duration, mut cond: impl FnMut() -> bool) {
    let t0 = Instant::now();
    while !cond() {
        assert!(t0.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn sigint(child: &Child) {
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
}

/// Processes whose command line mentions `needle` (a private TMPDIR: worker JVMs, javac and
/// the JUnit JVM of the final check all name files under it).
fn processes_mentioning(needle: &str) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        if !e
            .file_name()
            .to_string_lossy()
            .bytes()
            .all(|b| b.is_ascii_digit())
        {
            continue;
        }
        if let Ok(c) = std::fs::read(e.path().join("cmdline")) {
            let c = String::from_utf8_lossy(&c).replace('\0', " ");
            if c.contains(needle) {
                out.push(c);
            }
        }
    }
    out
}

/// `(suite name, tests, failures + errors)` from Surefire's XML reports.
fn surefire_reports(dir: &Path) -> Vec<(String, usize, usize)> {
    let attr = |tag: &str, name: &str| -> String {
        let re = regex::Regex::new(&format!(r#"\s{name}="([^"]*)""#)).unwrap();
        re.captures(tag).unwrap()[1].to_string()
    };
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        if !(name.starts_with("TEST-") && name.ends_with(".xml")) {
            continue;
        }
        let text = std::fs::read_to_string(e.path()).unwrap();
        let start = text.find("<testsuite").unwrap();
        let tag = &text[start..start + text[start..].find('>').unwrap()];
        let n = |a: &str| attr(tag, a).parse::<usize>().unwrap();
        out.push((attr(tag, "name"), n("tests"), n("failures") + n("errors")));
    }
    out.sort();
    out
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let t = to.join(e.file_name());
        if e.path().is_dir() {
            copy_dir(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}

fn mvn(project: &Path, goal: &str) {
    let o = Command::new("mvn")
        .args(["-q", "-B", goal])
        .current_dir(project)
        .output()
        .expect("mvn runs (install Debian package maven)");
    assert!(
        o.status.success(),
        "mvn {goal} failed:\n{}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn maven_runs_every_generated_test_and_no_error_test() {
    let d = tempfile::tempdir().unwrap();
    let proj = d.path().join("proj");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/subjects/maven"),
        &proj,
    );
    mvn(&proj, "compile");
    let json = d.path().join("s.json");
    let mut c = jforge();
    c.current_dir(&proj).args([
        "gen",
        "--quiet",
        "--classpath",
        "target/classes",
        "--package",
        "com.acme",
        "--output-dir",
        "src/test/java",
        "--generated-limit",
        "1500",
        "--tests-per-file",
        "20",
        "--stats-json",
    ]);
    c.arg(&json);
    let o = run_done(&mut c);
    let stats = read_json(&json);
    let text = String::from_utf8_lossy(&o.stdout);
    let tests = proj.join("src/test/java");
    let written = stats["regression_tests"].as_u64().unwrap() as usize;
    assert!(written >= 20, "{text}");
    let methods: usize = java_files(&tests)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap().matches("@Test").count())
        .sum();
    assert_eq!(methods, written);

    // Each class's tests in its own package (two packages, one --package run), nested classes
    // as Outer_Inner, split files named so that Surefire includes them.
    let rel: BTreeSet<String> = java_files(&tests)
        .iter()
        .map(|f| f.strip_prefix(&tests).unwrap().display().to_string())
        .collect();
    for f in [
        "com/acme/shapes/CircleRegressionTest.java",
        "com/acme/shapes/CircleRegression2Test.java",
        "com/acme/shapes/Square_LayerRegressionTest.java",
        "com/acme/util/CounterRegressionTest.java",
    ] {
        assert!(rel.contains(f), "{f} not written: {rel:?}");
    }
    assert!(rel.iter().all(|f| {
        f.ends_with("RegressionTest.java")
            || f.trim_end_matches("Test.java")
                .trim_end_matches(|c: char| c.is_ascii_digit())
                .ends_with("Regression")
    }));

    // The error-revealing test (Key.equals is not reflexive) is next to src/test/java, where
    // Maven does not compile it, and the summary says how to run it.
    let errors = proj.join("src/test/jforge-error-tests");
    assert_eq!(
        java_files(&errors),
        vec![errors.join("com/acme/util/KeyErrorTest.java")]
    );
    assert!(
        text.contains("org.junit.runner.JUnitCore com.acme.util.KeyErrorTest"),
        "{text}"
    );

    mvn(&proj, "test");
    let reports = surefire_reports(&proj.join("target/surefire-reports"));
    let run: usize = reports.iter().map(|r| r.1).sum();
    let failed: usize = reports.iter().map(|r| r.2).sum();
    assert_eq!(run, written, "Surefire ran {run} of {written}: {reports:?}");
    assert_eq!(failed, 0, "{reports:?}");
    let ran: BTreeSet<&str> = reports.iter().map(|r| r.0.as_str()).collect();
    let classes: BTreeSet<String> = rel
        .iter()
        .map(|f| f.trim_end_matches(".java").replace('/', "."))
        .collect();
    assert_eq!(
        ran,
        classes.iter().map(|c| c.as_str()).collect::<BTreeSet<_>>()
    );
    assert!(!ran.iter().any(|c| c.contains("Error")), "{ran:?}");
}

#[test]
fn runs_into_one_folder_keep_each_others_files_and_hand_written_ones() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let ds = out.join("ds");
    std::fs::create_dir_all(&ds).unwrap();
    // Hand-written: jforge's old file name, and the name jforge would now give LruCache's tests.
    let hand = |name: &str| {
        format!(
            "package ds;\n\npublic class {name} {{\n    @org.junit.Test\n    public void mine() {{ }}\n}}\n"
        )
    };
    std::fs::write(ds.join("RegressionTest0.java"), hand("RegressionTest0")).unwrap();
    std::fs::write(
        ds.join("LruCacheRegressionTest.java"),
        hand("LruCacheRegressionTest"),
    )
    .unwrap();
    let hand_written = snapshot(&out);

    let json = d.path().join("s.json");
    let gen_json = |class: &str, seed: &str| {
        run_done(&mut gen_cmd(
            &out,
            &[
                "--class",
                class,
                "--generated-limit",
                "400",
                "--seed",
                seed,
                "--stats-json",
                json.to_str().unwrap(),
            ],
        ));
        read_json(&json)
    };
    let first = gen_json("ds.IntStack", "1");
    assert_eq!(first["replaced_files"].as_array().unwrap().len(), 0);
    let int_stack = ds.join("IntStackRegressionTest.java");
    let int_stack_1 = std::fs::read(&int_stack).unwrap();
    assert!(int_stack_1.starts_with(b"// jforge: gen, classes: ds.IntStack, run: "));

    // Another class: the first class's tests stay, the hand-written file keeps its name.
    let second = gen_json("ds.LruCache", "1");
    assert_eq!(second["replaced_files"].as_array().unwrap().len(), 0);
    assert_eq!(std::fs::read(&int_stack).unwrap(), int_stack_1);
    let lru = ds.join("LruCache_2RegressionTest.java");
    let lru_1 = std::fs::read(&lru).unwrap();
    assert!(lru_1.starts_with(b"// jforge: gen, classes: ds.LruCache, run: "));

    // exhaustive into the same folder deletes nothing of gen's.
    let mut c = jforge();
    c.args(["exhaustive", "-q", "--classpath"])
        .arg(subjects())
        .args([
            "--class",
            "ds.IntStack",
            "--scope",
            "2",
            "--max-rounds",
            "2",
        ])
        .arg("--output-dir")
        .arg(&out);
    run_done(&mut c);
    let exhaustive = ds.join("IntStackExhaustiveTest.java");
    let exhaustive_1 = std::fs::read(&exhaustive).unwrap();
    assert!(exhaustive_1.starts_with(b"// jforge: exhaustive, classes: ds.IntStack, run: "));
    assert_eq!(std::fs::read(&int_stack).unwrap(), int_stack_1);

    // The same class again: its own earlier file is replaced, and only that one.
    let third = gen_json("ds.IntStack", "2");
    assert_eq!(
        third["replaced_files"],
        serde_json::json!([int_stack.display().to_string()])
    );
    // (written again from the earlier suite read back: with another seed the re-run keeps
    // the earlier tests and adds only new coverage, exceptions and values on new paths, so
    // the text may well be the same)
    let int_stack_3 = std::fs::read(&int_stack).unwrap();
    assert!(int_stack_3.starts_with(b"// jforge: gen, classes: ds.IntStack, run: "));
    assert_eq!(
        third["earlier_suite"]["removed"].as_u64(),
        Some(0),
        "{third}"
    );
    assert_eq!(std::fs::read(&lru).unwrap(), lru_1);
    assert_eq!(std::fs::read(&exhaustive).unwrap(), exhaustive_1);
    let now = snapshot(&out);
    for (p, bytes) in &hand_written {
        assert_eq!(now.get(p), Some(bytes), "{} changed", p.display());
    }
    assert!(jforge_leftovers(d.path()).is_empty());
    // Everything together still compiles and passes.
    let run = compile_and_run_junit4(&out, subjects().to_str().unwrap());
    assert!(run.failures.is_empty(), "{}", run.output);
}

#[test]
fn a_second_run_into_a_locked_folder_is_refused_at_once() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let mut first = gen_cmd(&out, &["--class", "ds.IntStack", "--time-limit", "60s"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for("the lock file", Duration::from_secs(60), || {
        out.join(".jforge.lock").exists()
    });
    let t0 = Instant::now();
    let o = gen_cmd(&out, &["--class", "ds.LruCache", "--time-limit", "60s"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        t0.elapsed() < Duration::from_secs(10),
        "not refused at once"
    );
    assert!(
        err.contains(&format!(
            "another jforge run is writing to {} (pid {}); wait for it or choose another --output-dir",
            out.display(),
            first.id()
        )),
        "{err}"
    );
    sigint(&first);
    assert_eq!(
        wait_timeout(&mut first, Duration::from_secs(30)).code(),
        Some(130)
    );
    assert!(jforge_leftovers(d.path()).is_empty());
    assert!(
        java_files(&out).is_empty(),
        "the interrupted run wrote nothing"
    );
}

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn interrupted_runs_leave_the_earlier_suite_and_nothing_else() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    run_done(&mut gen_cmd(
        &out,
        &[
            "--class",
            "ds.IntStack",
            "--class",
            "quirks.BrokenEquals",
            "--generated-limit",
            "500",
        ],
    ));
    let earlier = snapshot(d.path());
    assert!(
        earlier
            .keys()
            .any(|p| p.ends_with("IntStackRegressionTest.java"))
    );
    assert!(
        earlier
            .keys()
            .any(|p| p.ends_with("BrokenEqualsErrorTest.java"))
    );

    let interrupted = |name: &str, args: &[&str], when: &dyn Fn(&Path) -> bool| {
        let tmp = tempfile::tempdir().unwrap();
        let mut child = gen_cmd(&out, args)
            .env("TMPDIR", tmp.path())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_for(name, Duration::from_secs(180), || {
            assert!(
                child.try_wait().unwrap().is_none(),
                "the run ended before it could be interrupted {name}"
            );
            when(tmp.path())
        });
        sigint(&child);
        let status = wait_timeout(&mut child, Duration::from_secs(30));
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert_eq!(status.code(), Some(130), "{name}: {err}");
        assert!(err.contains("jforge: interrupted"), "{name}: {err}");
        assert_eq!(
            snapshot(d.path()),
            earlier,
            "{name}: the earlier suite changed"
        );
        assert_eq!(jforge_leftovers(d.path()), Vec::<PathBuf>::new(), "{name}");
        let left: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().flatten().collect();
        assert!(left.is_empty(), "{name}: left in TMPDIR: {left:?}");
        std::thread::sleep(Duration::from_millis(500));
        let procs = processes_mentioning(&tmp.path().display().to_string());
        assert!(procs.is_empty(), "{name}: still running: {procs:?}");
    };

    // During generation: the workers run (their socket folders are in TMPDIR) for a while.
    let started = std::cell::Cell::new(None::<Instant>);
    interrupted(
        "during generation",
        &[
            "--class",
            "ds.IntStack",
            "--class",
            "ds.LruCache",
            "--time-limit",
            "120s",
        ],
        &|tmp: &Path| {
            let workers = std::fs::read_dir(tmp)
                .unwrap()
                .flatten()
                .any(|e| e.file_name().to_string_lossy().starts_with("jforge-w"));
            if workers && started.get().is_none() {
                started.set(Some(Instant::now()));
            }
            started
                .get()
                .is_some_and(|t| t.elapsed() > Duration::from_secs(2))
        },
    );

    // During the final check: the staged files exist and javac/JUnit work in TMPDIR.
    interrupted(
        "during the final check",
        &[
            "--class",
            "ds.IntStack",
            "--class",
            "java.util.ArrayDeque",
            "--generated-limit",
            "3000",
            "--workers",
            "1",
        ],
        &|tmp: &Path| {
            let checking = std::fs::read_dir(tmp).unwrap().flatten().any(|e| {
                e.file_name()
                    .to_string_lossy()
                    .starts_with("jforge-validate")
            });
            let staged = jforge_leftovers(&out).iter().any(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(".jforge-staging"))
                    && !java_files(p).is_empty()
            });
            checking && staged
        },
    );
}

/// A machine without Debian's JUnit packages and with nothing in `~/.m2`: the final check
/// fetches JUnit through Maven into jforge's cache folder once, and runs; without Maven, the
/// error says what to install.
#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn junit_is_fetched_through_maven_on_a_machine_without_it() {
    let d = tempfile::tempdir().unwrap();
    let (home, cache, share) = (
        d.path().join("home"),
        d.path().join("cache"),
        d.path().join("share"),
    );
    for p in [&home, &share] {
        std::fs::create_dir_all(p).unwrap();
    }
    let out = d.path().join("tests");
    let json = d.path().join("s.json");
    let with_env = |c: &mut Command| {
        c.env("HOME", &home)
            .env("XDG_CACHE_HOME", &cache)
            .env("JFORGE_JUNIT_SHARE", &share)
            .env_remove("JFORGE_JUNIT_CLASSPATH");
    };
    let mut c = gen_cmd(
        &out,
        &[
            "--class",
            "ds.IntStack",
            "--generated-limit",
            "300",
            "--stats-json",
        ],
    );
    c.arg(&json);
    with_env(&mut c);
    let o = run_done(&mut c);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("fetching JUnit 4.13.2"), "{err}");
    let stats = read_json(&json);
    assert_eq!(stats["validation"]["clean"], true, "{stats:#}");
    assert!(
        stats["validation"]["passed"].as_u64().unwrap() > 0,
        "{stats:#}"
    );
    let jars = cache.join("jforge/junit");
    for j in [
        "junit-4.13.2.jar",
        "hamcrest-core-1.3.jar",
        "junit-platform-console-standalone-1.14.4.jar",
    ] {
        assert!(jars.join(j).is_file(), "{j} not in {}", jars.display());
    }
    // The second run finds them in the cache: no Maven.
    let mut c = gen_cmd(
        &out,
        &["--class", "ds.IntStack", "--generated-limit", "100"],
    );
    with_env(&mut c);
    let o = run_done(&mut c);
    assert!(!String::from_utf8_lossy(&o.stderr).contains("fetching JUnit"));

    // No cache, no Maven on the PATH (only java): the tests are written unchecked, as
    // before, and the warning says what to install.
    let bin = d.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let java = jdk_tool("java");
    std::os::unix::fs::symlink(&java, bin.join("java")).unwrap();
    std::os::unix::fs::symlink(jdk_tool("javac"), bin.join("javac")).unwrap();
    let mut c = gen_cmd(
        &d.path().join("t2"),
        &["--class", "ds.IntStack", "--generated-limit", "100"],
    );
    with_env(&mut c);
    c.env("XDG_CACHE_HOME", d.path().join("cache2"))
        .env("PATH", &bin);
    let o = c.output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!err.contains("fetching JUnit"), "{err}");
    assert!(err.contains("the written tests were not checked"), "{err}");
    assert!(err.contains("mvn is not on the PATH"), "{err}");
    assert!(err.contains("apt-get install junit4"), "{err}");
    assert!(err.contains("apt-get install maven"), "{err}");
}

/// Every file of `dir` outside build output (`target/`) and the test folders, with its bytes.
fn project_sources(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    snapshot(dir)
        .into_iter()
        .filter(|(p, _)| {
            let s = p.display().to_string();
            !s.split('/').any(|c| c == "target") && !s.contains("src/test/")
        })
        .collect()
}

fn mvn_status(project: &Path, args: &[&str]) -> (bool, String) {
    let o = Command::new("mvn")
        .args(["-q", "-B"])
        .args(args)
        .current_dir(project)
        .output()
        .expect("mvn runs (install Debian package maven)");
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr),
    )
}

/// `gen --project` on a two-module build (core: JUnit 4 and commons-lang3 from Maven Central
/// in a parameter type; app: JUnit 5, depends on core): Maven compiles it and gives each
/// module's class path; the tests land in each module's src/test/java with that module's
/// JUnit; `mvn test` runs exactly the regression tests written and passes; the error test
/// (Money: equals without hashCode) is named so that `mvn test` skips it and the printed
/// command runs it; nothing but test files changes.
#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn a_maven_project_gets_tests_in_each_module_with_its_own_junit() {
    let d = tempfile::tempdir().unwrap();
    let proj = d.path().join("proj");
    copy_dir(&subjects_src("multimodule"), &proj);
    let before = project_sources(&proj);
    let json = d.path().join("s.json");
    let mut c = jforge();
    c.args(["gen", "-q", "--project"])
        .arg(&proj)
        .args(["--generated-limit", "1000", "--stats-json"])
        .arg(&json);
    let o = c.output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "error tests written: {text}");
    assert!(text.contains("-Dtest='*ErrorCases'"), "{text}");

    let mut written = 0;
    for (module, junit_import) in [
        ("core", "import org.junit.Test;"),
        ("app", "import org.junit.jupiter.api.Test;"),
    ] {
        let stats = read_json(&d.path().join(format!("s-{module}.json")));
        assert_eq!(stats["validation"]["clean"], true, "{module}: {stats:#}");
        written += stats["regression_tests"].as_u64().unwrap() as usize;
        let files = java_files(&proj.join(module).join("src/test/java"));
        assert!(!files.is_empty(), "{module}: nothing written");
        for f in &files {
            let src = std::fs::read_to_string(f).unwrap();
            assert!(
                src.contains(junit_import),
                "{}: not its module's JUnit",
                f.display()
            );
        }
    }
    let range = std::fs::read_to_string(
        proj.join("core/src/test/java/org/acme/core/RangeRegressionTest.java"),
    )
    .unwrap();
    assert!(
        range.contains("Pair"),
        "Range.of(Pair) reached through commons-lang3: {range}"
    );
    let errors = proj.join("core/src/test/java/org/acme/core/MoneyErrorCases.java");
    assert!(errors.is_file(), "{text}");
    assert_eq!(project_sources(&proj), before, "only test files may change");

    let (ok, out) = mvn_status(&proj, &["test"]);
    assert!(ok, "{out}");
    let mut reports = surefire_reports(&proj.join("core/target/surefire-reports"));
    reports.extend(surefire_reports(&proj.join("app/target/surefire-reports")));
    let run: usize = reports.iter().map(|r| r.1).sum();
    assert_eq!(run, written, "Surefire ran {run} of {written}: {reports:?}");
    assert!(
        !reports.iter().any(|r| r.0.contains("ErrorCases")),
        "{reports:?}"
    );

    let (ok, out) = mvn_status(
        &proj,
        &[
            "test",
            "-Dtest=*ErrorCases",
            "-Dsurefire.failIfNoSpecifiedTests=false",
        ],
    );
    assert!(!ok, "the error test must fail: {out}");
    assert!(out.contains("equals-hashcode"), "{out}");
}

/// A project that declares no JUnit: refused, with the dependency to add, and nothing written.
#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn a_maven_project_without_junit_is_refused_with_the_dependency_to_add() {
    let d = tempfile::tempdir().unwrap();
    let proj = d.path().join("proj");
    copy_dir(&subjects_src("nojunit"), &proj);
    let o = jforge()
        .args(["gen", "-q", "--project"])
        .arg(&proj)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("declares JUnit"), "{err}");
    assert!(
        err.contains("<artifactId>junit-jupiter</artifactId>"),
        "{err}"
    );
    assert!(!proj.join("src/test").exists());
    // Not a Maven project at all.
    let o = jforge()
        .args(["gen", "--project"])
        .arg(d.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("has no pom.xml"), "{err}");
}

/// `jforge <command> -q --class org.acme.core.Range --scope 2 --project <proj> --stats-json
/// <json>`.
fn range_on_project(command: &str, proj: &Path, json: &Path) -> std::process::Command {
    let mut c = jforge();
    c.args([
        command,
        "-q",
        "--class",
        "org.acme.core.Range",
        "--scope",
        "2",
    ])
    .arg("--project")
    .arg(proj)
    .arg("--stats-json")
    .arg(json);
    c
}

/// `coverage`, `exhaustive` and `builders` take `--project` like `gen`: Maven's class path per
/// module, classes found in the module that holds them. coverage measures every module with
/// its own src/test/java (one report over both modules: the three classes, Bookings with
/// the JUnit 5 tests of app); exhaustive writes its suite into core's src/test/java, which
/// `mvn test` then runs; builders finds Range's constructor in core.
#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn coverage_exhaustive_and_builders_take_a_maven_project() {
    let d = tempfile::tempdir().unwrap();
    let proj = d.path().join("proj");
    copy_dir(&subjects_src("multimodule"), &proj);
    let before = project_sources(&proj);
    run_done(
        jforge()
            .args(["gen", "-q", "--generated-limit", "300", "--project"])
            .arg(&proj),
    );
    let cov = d.path().join("cov.json");
    run_ok(
        jforge()
            .args(["coverage", "-q", "--project"])
            .arg(&proj)
            .arg("--json")
            .arg(&cov),
    );
    let cov = read_json(&cov);
    let names: Vec<&str> = cov["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "org.acme.app.Bookings",
            "org.acme.core.Money",
            "org.acme.core.Range"
        ]
    );
    assert!(cov["lines"]["covered"].as_u64().unwrap() > 10, "{cov:#}");

    let ex = d.path().join("ex.json");
    run_done(&mut range_on_project("exhaustive", &proj, &ex));
    assert_eq!(read_json(&ex)["structures"], 3);
    let written = proj.join("core/src/test/java/org/acme/core/RangeExhaustiveTest.java");
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(
        text.contains("import org.junit.Test;"),
        "core's JUnit 4: {text}"
    );

    let b = d.path().join("b.json");
    run_ok(&mut range_on_project("builders", &proj, &b));
    let b = std::fs::read_to_string(&b).unwrap();
    assert!(b.contains("org.acme.core.Range(int,int)"), "{b}");

    // Outside the project's modules, and suite flags --project decides: refused.
    let o = jforge()
        .args(["exhaustive", "--class", "java.util.TreeMap", "--project"])
        .arg(&proj)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no module of"),
        "{o:?}"
    );
    let o = jforge()
        .args([
            "exhaustive",
            "--class",
            "org.acme.core.Range",
            "--output-dir",
            "x",
            "--project",
        ])
        .arg(&proj)
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--output-dir cannot be used with --project"),
        "{o:?}"
    );

    assert_eq!(project_sources(&proj), before, "only test files may change");
    let (ok, out) = mvn_status(&proj, &["test"]);
    assert!(ok, "{out}");
    assert!(
        surefire_reports(&proj.join("core/target/surefire-reports"))
            .iter()
            .any(|r| r.0.contains("RangeExhaustiveTest")),
        "mvn test runs the exhaustive suite"
    );
}

/// `gen -q --project <copy of mavenargs> --generated-limit 50`, without MAVEN_ARGS from the
/// environment running the tests.
fn gen_on_mavenargs(proj: &Path) -> Command {
    let mut c = jforge();
    c.args(["gen", "-q", "--generated-limit", "50", "--project"])
        .arg(proj)
        .env_remove("MAVEN_ARGS");
    c
}

/// What `gen` on the mavenargs subject must do when the profile `jforge` reached every Maven
/// call: compiled into out/ (compile), JUnit 4 found (the class path), out/classes read (the
/// effective POM), tests written.
fn assert_built_with_the_profile(proj: &Path, o: &std::process::Output) {
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        proj.join("out/classes/com/acme/tally/Tally.class")
            .is_file()
    );
    assert!(!proj.join("target/classes").exists(), "{text}");
    let test = proj.join("src/test/java/com/acme/tally/TallyRegressionTest.java");
    let src = std::fs::read_to_string(&test).unwrap_or_default();
    assert!(src.contains("import org.junit.Test;"), "{text}");
}

/// `--maven-arg` reaches every Maven call: the subject builds only with its profile, which
/// sets the Java release its sources need, declares JUnit and moves the build folder.
#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn maven_arg_reaches_every_maven_call() {
    let d = tempfile::tempdir().unwrap();
    let proj = d.path().join("proj");
    copy_dir(&subjects_src("mavenargs"), &proj);
    let o = gen_on_mavenargs(&proj)
        .args(["--maven-arg=-Pjforge", "--maven-arg", "-Dunused=a b"])
        .output()
        .unwrap();
    assert_built_with_the_profile(&proj, &o);
}

/// `MAVEN_ARGS` is split as a shell would and reaches every Maven call, as `--maven-arg` does.
#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn maven_args_from_the_environment_reach_every_maven_call() {
    let d = tempfile::tempdir().unwrap();
    let proj = d.path().join("proj");
    copy_dir(&subjects_src("mavenargs"), &proj);
    let o = gen_on_mavenargs(&proj)
        .env("MAVEN_ARGS", "-Dunused='a b'  -Pjforge")
        .output()
        .unwrap();
    assert_built_with_the_profile(&proj, &o);
}

/// A build Maven cannot compile: exit 2, the command as it can be pasted, Maven's first
/// `[ERROR]` line, and how to pass Maven flags; nothing written.
#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn a_maven_failure_names_the_command_and_the_first_error() {
    let d = tempfile::tempdir().unwrap();
    let proj = d.path().join("proj");
    copy_dir(&subjects_src("mavenargs"), &proj);
    let o = gen_on_mavenargs(&proj)
        .arg("--maven-arg=-Dunused=a b")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    let command = format!(
        "command: cd {} && mvn -B -q -Dstyle.color=never '-Dunused=a b' compile ",
        std::fs::canonicalize(&proj).unwrap().display()
    );
    assert!(err.contains(&command), "{err}");
    let first = err
        .lines()
        .find(|l| l.starts_with("[ERROR]"))
        .unwrap_or_default();
    assert!(first.contains("COMPILATION ERROR"), "{err}");
    assert!(
        err.contains("switch expressions are not supported in -source 8"),
        "{err}"
    );
    assert!(err.contains("--maven-arg=FLAG"), "{err}");
    assert!(err.contains("MAVEN_ARGS"), "{err}");
    assert!(!proj.join("src/test").exists());
}

/// `gen --project` on a project like Apache Commons CSV (tests/subjects/licensed, module
/// `level`): its tests are compiled for Java 8 (`maven.compiler.release` of its parent, by a
/// `${...}` reference) and its sources share the Apache license header. The JDK members
/// Java 8 lacks (`Label.isEmpty()`, a default method of `CharSequence` since Java 15) are
/// left out before generation, read from the JDK's ct.sym, so no written test fails to
/// compile with `--release 8` (before, such tests were written, then removed by the
/// check), and `mvn test` compiles and passes; `Label.storage()` throws
/// `InaccessibleObjectException` (Java 9), which its test catches as `RuntimeException`
/// (before, that test was removed for not compiling); `Label.reader()`'s inner Reader,
/// reached through the views of guidance, has `transferTo(Writer)` (Java 10) left out too
/// (Commons Lang 3.17.0 had one test removed for it); every written file starts with the header,
/// then jforge's marker; a re-run reads the files back and keeps their tests.
#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn a_maven_project_gets_tests_at_its_release_under_its_license_header() {
    let d = tempfile::tempdir().unwrap();
    let proj = d.path().join("proj");
    copy_dir(&subjects_src("licensed"), &proj);
    let tests = proj.join("level/src/test/java");
    let hand = tests.join("org/acme/level/LevelHandTest.java");
    let hand_text = std::fs::read_to_string(&hand).unwrap();
    let header = &hand_text[..hand_text.find("*/").unwrap() + 2];
    let run = |json: &Path| {
        let o = jforge()
            .args(["gen", "-q", "--project"])
            .arg(&proj)
            .args(["--generated-limit", "1500", "--seed", "7", "--stats-json"])
            .arg(json)
            .output()
            .unwrap();
        let text =
            String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
        assert!(matches!(o.status.code(), Some(0 | 3)), "{text}");
        read_json(json)
    };
    let first = run(&d.path().join("1.json"));
    assert_eq!(first["validation"]["clean"], true, "{first:#}");
    assert_eq!(
        first["validation"]["compile_removed"].as_u64(),
        Some(0),
        "a test called API newer than Java 8: {first:#}"
    );
    let newer: Vec<String> = first["skipped_members"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s[1] == "not in the Java release the project compiles its tests for")
        .map(|s| s[0].as_str().unwrap().to_string())
        .collect();
    assert!(
        newer.iter().any(|m| m.contains("isEmpty()")),
        "CharSequence.isEmpty() (Java 15) not left out: {newer:?}\n{first:#}"
    );
    // also where generation reaches the project's inner Reader only as a Reader (a view)
    assert!(
        newer.iter().any(|m| m.contains("transferTo(")),
        "Reader.transferTo(Writer) (Java 10) not left out: {newer:?}\n{first:#}"
    );
    let written: Vec<PathBuf> = java_files(&tests)
        .into_iter()
        .filter(|p| *p != hand)
        .collect();
    assert!(!written.is_empty(), "nothing written: {first:#}");
    let all: String = written
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    assert!(
        all.contains(
            "fail(\"Expected exception of type java.lang.reflect.InaccessibleObjectException\");\n        } catch (RuntimeException e) {"
        ),
        "no test of storage() catching RuntimeException:\n{all}"
    );
    for f in &written {
        let src = std::fs::read_to_string(f).unwrap();
        assert!(
            src.starts_with(&format!("{header}\n// jforge: gen, classes: ")),
            "{}: not under the project's header:\n{src}",
            f.display()
        );
        for newer in ["describeConstable", ".isEmpty()", "transferTo"] {
            assert!(
                !src.contains(newer),
                "{}: calls {newer}:\n{src}",
                f.display()
            );
        }
    }
    // The project's own build compiles them for Java 8 and runs them.
    let (ok, out) = mvn_status(&proj, &["test"]);
    assert!(ok, "{out}");

    // A re-run finds the files under the header and keeps their tests (those that carry
    // their sequence).
    let stored: usize = written
        .iter()
        .map(|f| {
            let src = std::fs::read_to_string(f).unwrap();
            src.matches("// jforge-seq: ").count()
        })
        .sum();
    assert!(stored > 0, "{first:#}");
    let second = run(&d.path().join("2.json"));
    let e = &second["earlier_suite"];
    assert_eq!(e["tests"].as_u64(), Some(stored as u64), "{second:#}");
    // Every test read back is kept, or dropped as adding nothing to the project's own tests
    // (once in CI the first run wrote one test more than the re-run kept, counted there:
    // its own suite seen by one run and not the other; the purpose here is that the tests
    // under the header are read back and none is lost uncounted).
    assert_eq!(
        e["kept"].as_u64().unwrap() + e["removed_add_nothing"].as_u64().unwrap(),
        stored as u64,
        "first run: {:#}\nre-run: {second:#}",
        first["coverage"]["own_suite"]
    );
    for k in ["removed_changed", "removed_unreadable", "removed_failing"] {
        assert_eq!(e[k], 0, "{k}: {second:#}");
    }
    for f in java_files(&tests).into_iter().filter(|p| *p != hand) {
        let src = std::fs::read_to_string(&f).unwrap();
        assert!(src.starts_with(header), "{}", f.display());
        assert_eq!(src.matches("// jforge: gen").count(), 1, "{}", f.display());
    }
}

/// `gen --project` on `ownsuite` (one class, 14 branches; its own JUnit 5 tests cover 4;
/// `GradeSlowTest` would cover the rest but the build's Surefire excludes it; `ConsoleTest`
/// closes System.out): the own suite runs first as the build runs it (3 tests, 4 branches,
/// also in `coverage --project`), only tests that add to it are written (fewer than with
/// `--ignore-own-tests`, together with the own ones past what either covers alone), a
/// re-run leaves out the tests jforge wrote, and `mvn test` passes with them in place.
#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn a_project_s_own_tests_run_first_as_its_build_runs_them_and_the_written_ones_add_to_them() {
    let d = tempfile::tempdir().unwrap();
    let proj = d.path().join("proj");
    copy_dir(&subjects_src("ownsuite"), &proj);
    // the build's view: the excluded test does not count, and a test closing System.out
    // does not hide the launcher's count
    let cov = d.path().join("cov.json");
    run_ok(
        jforge()
            .args(["coverage", "-q", "--project"])
            .arg(&proj)
            .arg("--json")
            .arg(&cov),
    );
    let cov = read_json(&cov);
    assert_eq!(cov["branches"]["covered"], 4, "{cov:#}");
    assert_eq!(cov["branches"]["total"], 14, "{cov:#}");

    let gen_on = |proj: &Path, json: &Path, extra: &[&str]| {
        let o = run_done(
            jforge()
                .args([
                    "gen",
                    "--generated-limit",
                    "2000",
                    "--seed",
                    "1",
                    "--project",
                ])
                .arg(proj)
                .arg("--stats-json")
                .arg(json)
                .args(extra),
        );
        (
            read_json(json),
            String::from_utf8_lossy(&o.stderr).to_string(),
        )
    };
    let (r, err) = gen_on(&proj, &d.path().join("g.json"), &[]);
    let own = &r["coverage"]["own_suite"];
    assert_eq!(own["tests"], 3, "{own:#}\n{err}");
    assert_eq!(own["branches_covered"], 4, "{own:#}");
    assert!(
        own["with_written_branches"].as_u64().unwrap() >= 12,
        "{own:#}"
    );
    assert!(err.contains("writing only tests that add to them"), "{err}");
    // a run bounded by a count waits for the own tests' coverage before its first sequence
    // (its sequences must not depend on the suite's speed) and records it in its files
    assert_eq!(own["steered_at"], 0, "{own:#}");
    let written = r["regression_tests"].as_u64().unwrap();
    assert!(written > 0, "{r:#}");

    let all = d.path().join("all");
    copy_dir(&subjects_src("ownsuite"), &all);
    let (r_all, _) = gen_on(&all, &d.path().join("a.json"), &["--ignore-own-tests"]);
    assert!(r_all["coverage"]["own_suite"].is_null(), "{r_all:#}");
    assert!(
        r_all["regression_tests"].as_u64().unwrap() > written,
        "adding to the own tests writes fewer: {} vs {written}",
        r_all["regression_tests"]
    );

    // a re-run: the tests jforge wrote are not the project's own
    let (again, err) = gen_on(&proj, &d.path().join("g2.json"), &[]);
    assert_eq!(again["coverage"]["own_suite"]["tests"], 3, "{err}");
    assert_eq!(again["coverage"]["own_suite"]["branches_covered"], 4);

    let (ok, out) = mvn_status(&proj, &["test"]);
    assert!(ok, "{out}");
}
