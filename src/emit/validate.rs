//! Checking written tests with the real tools: javac compiles them and JUnit runs them.
//!
//! Why: the generator reasons about Java from class files, and javac's rules (overload
//! resolution, accessibility, checked exceptions, generics) are subtle; anything the writer got
//! wrong shows up here and is mapped back to the test method, so the caller can drop or fix
//! just that test. Likewise a regression test that does not pass when re-run (flaky,
//! environment-dependent) is found and reported by method.
//!
//! How:
//! - Sources are copied into a temporary folder and compiled (`-encoding UTF-8 -proc:none
//!   -nowarn`). javac errors (`File.java:LINE: error: ...`) are mapped to the method whose line
//!   range holds LINE; those methods are blanked out (lines kept, so numbers stay valid) and the
//!   rest is compiled again, so that one bad test does not hide the results of the others.
//!   An error outside every test method (an import, the class header) is an `Err`.
//! - Tests run in a separate JVM under a small runner kept as Java source next to this file
//!   (`JforgeJUnit4Runner.java` via `JUnitCore`, `JforgeJUnit5Runner.java` via the Platform
//!   Launcher), compiled into the temporary folder. It writes START before and PASS/FAIL after
//!   each test, flushed line by line. A test whose START has no result killed the JVM
//!   (`System.exit`, `Runtime.halt`, a crash) or hung it (the run is killed when it reports
//!   nothing for `run_timeout`, so a large suite is not mistaken for a hanging test):
//!   it is reported as failing and the remaining tests are run again in a fresh JVM. Where the
//!   JDK still allows it, the runner also installs a SecurityManager that turns `System.exit`
//!   into a `SecurityException`. A test never reported as passed is never counted as passing.

use super::WrittenFile;
use anyhow::{Context, Result, anyhow, bail};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNNER4: &str = include_str!("JforgeJUnit4Runner.java");
const RUNNER5: &str = include_str!("JforgeJUnit5Runner.java");
/// The results file both runners write (line format, escaping, System.exit blocking).
const RUNNER_OUTPUT: &str = include_str!("JforgeRunnerOutput.java");

/// Exception class reported for a test during which the test JVM exited.
pub const JVM_EXIT: &str = "<jvm-exit>";
/// Exception class reported for a test during which the run timed out.
pub const TIMEOUT: &str = "<timeout>";
/// Exception class reported for a test the runner never reported on.
pub const NO_RESULT: &str = "<no-result>";

fn split_cp(cp: &str) -> Vec<PathBuf> {
    cp.split(':')
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .collect()
}

fn check_entries(entries: Vec<PathBuf>, origin: &str) -> Result<Vec<PathBuf>> {
    if entries.is_empty() {
        bail!(
            "the JUnit class path from {origin} is empty; pass e.g. --junit-classpath /usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar"
        );
    }
    for e in &entries {
        if !e.exists() {
            bail!(
                "JUnit class path entry {} (from {origin}) does not exist; fix --junit-classpath / JFORGE_JUNIT_CLASSPATH",
                e.display()
            );
        }
    }
    Ok(entries)
}

/// Compare dotted version strings numerically (`4.13.2` > `4.9`).
fn version_key(v: &str) -> Vec<u64> {
    v.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap_or(0))
        .collect()
}

/// Highest version of `<repo>/<group path>/<artifact>/<ver>/<artifact>-<ver>.jar`.
fn newest_in_m2(repo: &Path, group: &str, artifact: &str) -> Option<PathBuf> {
    let dir = repo.join(group.replace('.', "/")).join(artifact);
    let mut best: Option<(Vec<u64>, PathBuf)> = None;
    for e in std::fs::read_dir(&dir).ok()?.flatten() {
        let ver = e.file_name().to_string_lossy().to_string();
        let jar = e.path().join(format!("{artifact}-{ver}.jar"));
        if jar.is_file() {
            let key = version_key(&ver);
            if best.as_ref().is_none_or(|(k, _)| key > *k) {
                best = Some((key, jar));
            }
        }
    }
    best.map(|(_, p)| p)
}

/// JUnit jars for compiling and running: `explicit` (a ':'-separated class path) > env
/// JFORGE_JUNIT_CLASSPATH > Debian's /usr/share/java (junit4.jar + hamcrest-core.jar for 4;
/// junit-platform-console-standalone.jar, or the separate Jupiter/Platform jars, for 5) > the
/// Maven repository ~/.m2.
pub fn find_junit(junit: u8, explicit: Option<&str>) -> Result<Vec<PathBuf>> {
    if junit != 4 && junit != 5 {
        bail!("unsupported JUnit version {junit}: choose 4 or 5");
    }
    if let Some(cp) = explicit {
        return check_entries(split_cp(cp), "--junit-classpath");
    }
    if let Ok(cp) = std::env::var("JFORGE_JUNIT_CLASSPATH")
        && !cp.trim().is_empty()
    {
        return check_entries(split_cp(&cp), "JFORGE_JUNIT_CLASSPATH");
    }
    find_junit_in(
        junit,
        Path::new("/usr/share/java"),
        std::env::var_os("HOME").map(PathBuf::from).as_deref(),
    )
}

fn find_junit_in(junit: u8, share: &Path, home: Option<&Path>) -> Result<Vec<PathBuf>> {
    let all_exist = |names: &[&str]| -> Option<Vec<PathBuf>> {
        let v: Vec<PathBuf> = names.iter().map(|n| share.join(n)).collect();
        v.iter().all(|p| p.is_file()).then_some(v)
    };
    let debian = if junit == 4 {
        all_exist(&["junit4.jar", "hamcrest-core.jar"])
    } else {
        all_exist(&["junit-platform-console-standalone.jar"]).or_else(|| {
            all_exist(&[
                "junit-jupiter-api.jar",
                "junit-jupiter-engine.jar",
                "junit-platform-commons.jar",
                "junit-platform-engine.jar",
                "junit-platform-launcher.jar",
                "opentest4j.jar",
                "apiguardian-api.jar",
            ])
        })
    };
    if let Some(v) = debian {
        return Ok(v);
    }
    if let Some(home) = home {
        let repo = home.join(".m2/repository");
        let found = if junit == 4 {
            match (
                newest_in_m2(&repo, "junit", "junit"),
                newest_in_m2(&repo, "org.hamcrest", "hamcrest-core"),
            ) {
                (Some(a), Some(b)) => Some(vec![a, b]),
                _ => None,
            }
        } else {
            newest_in_m2(
                &repo,
                "org.junit.platform",
                "junit-platform-console-standalone",
            )
            .map(|p| vec![p])
        };
        if let Some(v) = found {
            return Ok(v);
        }
    }
    let pkg = if junit == 4 { "junit4" } else { "junit5" };
    bail!(
        "JUnit {junit} jars not found (looked in {} and ~/.m2/repository): install Debian package {pkg} \
         (apt-get install {pkg}) or pass --junit-classpath (or set JFORGE_JUNIT_CLASSPATH)",
        share.display()
    )
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestFailure {
    /// Fully qualified test class name.
    pub class_name: String,
    pub method: String,
    /// Class of the exception the test failed with (`java.lang.AssertionError`, ...), or
    /// [`JVM_EXIT`], [`TIMEOUT`], [`NO_RESULT`] when the test never finished.
    pub exception_class: String,
    pub message: String,
}

#[derive(Clone, Debug, Default)]
pub struct Validation {
    /// (class, method, javac message) for each test method that does not compile.
    pub compile_failures: Vec<(String, String, String)>,
    pub test_failures: Vec<TestFailure>,
    /// (class, method) of every test that ran and passed.
    pub passed: Vec<(String, String)>,
}

fn join_cp(parts: &[&[PathBuf]]) -> Result<std::ffi::OsString> {
    std::env::join_paths(parts.iter().flat_map(|p| p.iter()))
        .context("a class path entry contains ':'; rename it")
}

fn run_javac(
    javac: &Path,
    cp: &std::ffi::OsStr,
    out: &Path,
    sources: &[PathBuf],
) -> Result<(bool, String)> {
    let o = Command::new(javac)
        .args([
            "-encoding",
            "UTF-8",
            "-proc:none",
            "-nowarn",
            "-Xmaxerrs",
            "100000",
            "-d",
        ])
        .arg(out)
        .arg("-cp")
        .arg(cp)
        .args(sources)
        .stdin(Stdio::null())
        .output()
        .with_context(|| {
            format!(
                "cannot run javac at {}; pass a JDK with --java-home",
                javac.display()
            )
        })?;
    let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&o.stderr));
    Ok((o.status.success(), text))
}

/// `(file, line, message)` for each javac error; the message includes the lines javac prints
/// after the header (source line, caret, symbol/location).
fn parse_javac_errors(out: &str) -> Vec<(String, usize, String)> {
    let header = regex::Regex::new(r"^(.+\.java):(\d+): error: (.*)$").expect("valid regex");
    let other_header =
        regex::Regex::new(r"^(.+\.java):(\d+): (warning|note): ").expect("valid regex");
    let summary = regex::Regex::new(r"^\d+ (error|errors|warning|warnings)$").expect("valid regex");
    let mut errs: Vec<(String, usize, String)> = Vec::new();
    let mut in_error = false;
    for line in out.lines() {
        if let Some(c) = header.captures(line) {
            let ln = c[2].parse().unwrap_or(0);
            errs.push((c[1].to_string(), ln, c[3].to_string()));
            in_error = true;
        } else if other_header.is_match(line)
            || summary.is_match(line)
            || line.starts_with("Note: ")
        {
            in_error = false;
        } else if in_error && let Some(e) = errs.last_mut() {
            e.2.push('\n');
            e.2.push_str(line);
        }
    }
    errs
}

/// What one test run produced, per (class, method).
enum Outcome {
    Pass,
    Fail {
        exception_class: String,
        message: String,
    },
}

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('t') => out.push('\t'),
                Some('n') => out.push('\n'),
                Some('r') => out.push('\r'),
                Some(o) => out.push(o),
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn tail(path: &Path, max: usize) -> String {
    let s = std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    if s.len() <= max {
        return s;
    }
    let mut start = s.len() - max;
    while !s.is_char_boundary(start) {
        start += 1;
    }
    format!("...{}", &s[start..])
}

/// Feature version of the JDK that `java` belongs to (`17`), from its `release` file.
fn jdk_feature_version(java: &Path) -> Option<u32> {
    let java = std::fs::canonicalize(java).ok()?;
    let home = java.parent()?.parent()?;
    let text = std::fs::read_to_string(home.join("release")).ok()?;
    let line = text.lines().find(|l| l.starts_with("JAVA_VERSION="))?;
    let v = line.trim_start_matches("JAVA_VERSION=").trim_matches('"');
    let mut parts = v.split(['.', '_', '-', '+']);
    match parts.next()?.parse::<u32>().ok()? {
        1 => parts.next()?.parse().ok(),
        n => Some(n),
    }
}

/// Compile `files` with javac (classpath = user class path + JUnit) and run every test class
/// under JUnit in a separate JVM. `run_timeout` is the longest the test JVM may go without
/// reporting progress (a test start or result); the test then running is reported as timed
/// out. See the module documentation for how failures are mapped.
pub fn compile_and_run(
    javac: &Path,
    java: &Path,
    user_cp: &[PathBuf],
    junit_cp: &[PathBuf],
    files: &[WrittenFile],
    junit: u8,
    run_timeout: Duration,
) -> Result<Validation> {
    if junit != 4 && junit != 5 {
        bail!("unsupported JUnit version {junit}: choose 4 or 5");
    }
    let tmp = crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-validate"))
        .context("cannot create a temporary folder for compiling the tests (check TMPDIR)")?;
    let classes = tmp.path().join("classes");
    std::fs::create_dir_all(&classes).context("cannot create a temporary folder")?;

    // The runner, compiled against JUnit alone: a failure here is a JUnit class path problem.
    let (runner_name, runner_src) = if junit == 4 {
        ("JforgeJUnit4Runner", RUNNER4)
    } else {
        ("JforgeJUnit5Runner", RUNNER5)
    };
    let runner_dir = tmp.path().join("runner");
    std::fs::create_dir_all(&runner_dir).context("cannot create a temporary folder")?;
    let runner_file = runner_dir.join(format!("{runner_name}.java"));
    std::fs::write(&runner_file, runner_src).context("cannot write to the temporary folder")?;
    let output_file = runner_dir.join("JforgeRunnerOutput.java");
    std::fs::write(&output_file, RUNNER_OUTPUT).context("cannot write to the temporary folder")?;
    let (ok, out) = run_javac(
        javac,
        &join_cp(&[junit_cp])?,
        &classes,
        &[runner_file, output_file],
    )?;
    if !ok {
        bail!(
            "the JUnit {junit} class path ({}) does not provide the JUnit API needed to run tests; \
             install Debian package junit{junit} or pass --junit-classpath. javac said:\n{out}",
            junit_cp
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(":")
        );
    }

    // Copies of the sources: failing methods get blanked out between javac rounds.
    let mut sources: Vec<Vec<String>> = Vec::with_capacity(files.len());
    let mut copies: Vec<PathBuf> = Vec::with_capacity(files.len());
    for (i, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(&f.path)
            .with_context(|| format!("cannot read the written test file {}", f.path.display()))?;
        sources.push(text.lines().map(str::to_string).collect());
        let name = f
            .path
            .file_name()
            .ok_or_else(|| anyhow!("{} is not a file name", f.path.display()))?;
        let dir = tmp.path().join("src").join(i.to_string());
        std::fs::create_dir_all(&dir).context("cannot create a temporary folder")?;
        copies.push(dir.join(name));
    }
    let compile_cp = join_cp(&[std::slice::from_ref(&classes), user_cp, junit_cp])?;
    let mut validation = Validation::default();
    // (file index, method) -> javac messages
    let mut broken: BTreeMap<(usize, usize), Vec<String>> = BTreeMap::new();
    let mut compiled = false;
    for _round in 0..20 {
        for (src, copy) in sources.iter().zip(&copies) {
            let mut text = src.join("\n");
            text.push('\n');
            std::fs::write(copy, text).context("cannot write to the temporary folder")?;
        }
        let (ok, out) = run_javac(javac, &compile_cp, &classes, &copies)?;
        if ok {
            compiled = true;
            break;
        }
        let errs = parse_javac_errors(&out);
        if errs.is_empty() {
            bail!("javac failed on the generated tests without a usable error message:\n{out}");
        }
        let mut new_broken = Vec::new();
        for (file, line, msg) in errs {
            let fi = copies
                .iter()
                .position(|c| Path::new(&file) == c.as_path())
                .or_else(|| {
                    let canon = std::fs::canonicalize(&file).ok()?;
                    copies.iter().position(|c| {
                        std::fs::canonicalize(c).ok().as_deref() == Some(canon.as_path())
                    })
                });
            let Some(fi) = fi else {
                bail!("javac reported an error in {file}, which is not a generated test:\n{out}");
            };
            let Some(ti) = files[fi]
                .tests
                .iter()
                .position(|t| t.lines.0 <= line && line <= t.lines.1)
            else {
                bail!(
                    "the generated file {} does not compile outside any test method (line {line}), \
                     usually a class that is missing from or not public on the class path \
                     given for the code under test; javac said:\n{out}",
                    files[fi].path.display()
                );
            };
            if broken.contains_key(&(fi, ti)) && !new_broken.contains(&(fi, ti)) {
                bail!("javac still reports errors in a removed test method:\n{out}");
            }
            let entry = broken.entry((fi, ti)).or_default();
            entry.push(format!("{}:{line}: {msg}", files[fi].path.display()));
            if !new_broken.contains(&(fi, ti)) {
                new_broken.push((fi, ti));
            }
        }
        for (fi, ti) in new_broken {
            let (a, b) = files[fi].tests[ti].lines;
            for l in a..=b {
                if let Some(s) = sources[fi].get_mut(l - 1) {
                    s.clear();
                }
            }
        }
    }
    if !compiled {
        bail!("the generated tests still do not compile after removing failing methods 20 times");
    }
    for ((fi, ti), msgs) in &broken {
        validation.compile_failures.push((
            files[*fi].class_name.clone(),
            files[*fi].tests[*ti].method.clone(),
            msgs.join("\n"),
        ));
    }

    // Run. `pending` keeps file order; results are filled in as runs report them.
    let mut pending: Vec<(String, String)> = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        for (ti, t) in f.tests.iter().enumerate() {
            if !broken.contains_key(&(fi, ti)) {
                pending.push((f.class_name.clone(), t.method.clone()));
            }
        }
    }
    let all = pending.clone();
    let mut results: HashMap<(String, String), Outcome> = HashMap::new();
    let run_cp = join_cp(&[std::slice::from_ref(&classes), user_cp, junit_cp])?;
    // `-Djava.security.manager=allow` lets the runner block System.exit on JDK 18+; JDKs
    // before 12 would read it as a class name and fail to start, and JDK 24+ (JEP 486) refuse
    // to start with it, so it is passed only on 12..=23. Without it a test that exits is still
    // caught: its missing result is reported as <jvm-exit>.
    let allow_sm = jdk_feature_version(java).is_some_and(|v| (12..24).contains(&v));
    let mut first = true;
    for round in 0.. {
        let todo: Vec<&(String, String)> =
            all.iter().filter(|k| !results.contains_key(*k)).collect();
        if todo.is_empty() {
            break;
        }
        let args: Vec<String> = if first {
            let mut classes_in_order: Vec<String> = Vec::new();
            for (c, _) in &todo {
                if !classes_in_order.contains(c) {
                    classes_in_order.push(c.clone());
                }
            }
            classes_in_order
        } else {
            todo.iter().map(|(c, m)| format!("{c}#{m}")).collect()
        };
        first = false;
        let results_file = tmp.path().join(format!("results{round}.txt"));
        let log = tmp.path().join(format!("run{round}.log"));
        let log_file =
            std::fs::File::create(&log).context("cannot write to the temporary folder")?;
        let log_err = log_file
            .try_clone()
            .context("cannot write to the temporary folder")?;
        let mut cmd = Command::new(java);
        if allow_sm {
            cmd.arg("-Djava.security.manager=allow");
        }
        let mut child = cmd
            .arg("-cp")
            .arg(&run_cp)
            .arg(runner_name)
            .arg(&results_file)
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::from(log_file))
            .stderr(Stdio::from(log_err))
            .spawn()
            .with_context(|| {
                format!(
                    "cannot run java at {}; pass a JDK with --java-home",
                    java.display()
                )
            })?;
        let mut last_progress = Instant::now();
        let mut reported = 0u64;
        let mut timed_out = false;
        let status = loop {
            if let Some(s) = child.try_wait().context("waiting for the test JVM")? {
                break Some(s);
            }
            let len = std::fs::metadata(&results_file)
                .map(|m| m.len())
                .unwrap_or(0);
            if len != reported {
                reported = len;
                last_progress = Instant::now();
            }
            if last_progress.elapsed() >= run_timeout {
                timed_out = true;
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let text = std::fs::read(&results_file)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let before = results.len();
        let mut started: Option<(String, String)> = None;
        let mut done = false;
        for line in text.lines() {
            let f: Vec<String> = line.split('\t').map(unescape).collect();
            match f.first().map(String::as_str) {
                Some("START") if f.len() >= 3 => started = Some((f[1].clone(), f[2].clone())),
                Some("PASS") if f.len() >= 3 => {
                    let k = (f[1].clone(), f[2].clone());
                    if started.as_ref() == Some(&k) {
                        started = None;
                    }
                    results.entry(k).or_insert(Outcome::Pass);
                }
                Some("FAIL") if f.len() >= 5 => {
                    let fail = || Outcome::Fail {
                        exception_class: f[3].clone(),
                        message: f[4].clone(),
                    };
                    let k = (f[1].clone(), f[2].clone());
                    if all.contains(&k) {
                        if started.as_ref() == Some(&k) {
                            started = None;
                        }
                        results.entry(k).or_insert_with(fail);
                    } else {
                        // Class-level failure (or an unknown method): every unreported test of
                        // the class fails with it.
                        for t in all.iter().filter(|t| t.0 == f[1]) {
                            results.entry(t.clone()).or_insert_with(fail);
                        }
                    }
                }
                Some("DONE") => done = true,
                _ => {}
            }
        }
        if done {
            // Everything the runner was asked for and did not report was not found by JUnit.
            for k in &todo {
                results.entry((*k).clone()).or_insert_with(|| Outcome::Fail {
                    exception_class: NO_RESULT.to_string(),
                    message: format!(
                        "JUnit did not run this test (is the JUnit {junit} engine on the class path?); log: {}",
                        tail(&log, 2000)
                    ),
                });
            }
            continue;
        }
        let why = if timed_out {
            (
                TIMEOUT,
                format!(
                    "the test run exceeded {} ms and was killed",
                    run_timeout.as_millis()
                ),
            )
        } else {
            let code = status
                .and_then(|s| s.code())
                .map(|c| c.to_string())
                .unwrap_or_else(|| "a signal".into());
            (
                JVM_EXIT,
                format!("the test JVM exited (status {code}) during this test, e.g. System.exit"),
            )
        };
        if let Some(k) = started.filter(|k| all.contains(k)) {
            results.entry(k).or_insert_with(|| Outcome::Fail {
                exception_class: why.0.to_string(),
                message: format!("{}; log: {}", why.1, tail(&log, 2000)),
            });
        } else if results.len() == before {
            // Died before any test started (or made no progress): blame every remaining test.
            for k in &todo {
                results
                    .entry((*k).clone())
                    .or_insert_with(|| Outcome::Fail {
                        exception_class: why.0.to_string(),
                        message: format!(
                            "{} before reporting any result; log: {}",
                            why.1,
                            tail(&log, 2000)
                        ),
                    });
            }
        }
    }
    for k in all {
        match results.remove(&k) {
            Some(Outcome::Pass) => validation.passed.push(k),
            Some(Outcome::Fail {
                exception_class,
                message,
            }) => validation.test_failures.push(TestFailure {
                class_name: k.0,
                method: k.1,
                exception_class,
                message,
            }),
            None => validation.test_failures.push(TestFailure {
                class_name: k.0,
                method: k.1,
                exception_class: NO_RESULT.to_string(),
                message: "the runner never reported on this test".into(),
            }),
        }
    }
    Ok(validation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_javac_errors() {
        let out = "/t/A.java:12: error: cannot find symbol\n        x.foo();\n         ^\n  symbol:   method foo()\n/t/A.java:20: error: ';' expected\n2 errors\n";
        let e = parse_javac_errors(out);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].0, "/t/A.java");
        assert_eq!(e[0].1, 12);
        assert!(e[0].2.starts_with("cannot find symbol\n"));
        assert!(e[0].2.contains("symbol:   method foo()"));
        assert_eq!(e[1].1, 20);
        assert_eq!(e[1].2, "';' expected");
    }

    #[test]
    fn unescapes_runner_fields() {
        assert_eq!(unescape("a\\tb\\nc\\\\d"), "a\tb\nc\\d");
    }

    #[test]
    fn reads_jdk_version_from_release_file() {
        let home = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(home.path().join("bin")).unwrap();
        std::fs::write(home.path().join("bin/java"), b"").unwrap();
        std::fs::write(
            home.path().join("release"),
            "IMPLEMENTOR=\"x\"\nJAVA_VERSION=\"17.0.9\"\n",
        )
        .unwrap();
        assert_eq!(jdk_feature_version(&home.path().join("bin/java")), Some(17));
        std::fs::write(home.path().join("release"), "JAVA_VERSION=\"1.8.0_392\"\n").unwrap();
        assert_eq!(jdk_feature_version(&home.path().join("bin/java")), Some(8));
        assert_eq!(jdk_feature_version(&home.path().join("bin/nope")), None);
    }

    #[test]
    fn versions_compare_numerically() {
        assert!(version_key("4.13.2") > version_key("4.9"));
    }

    #[test]
    fn junit_lookup_reports_how_to_fix() {
        let empty = tempfile::tempdir().unwrap();
        let e = find_junit_in(4, empty.path(), Some(empty.path()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("install Debian package junit4"), "{e}");
        assert!(e.contains("--junit-classpath"), "{e}");
        let e = find_junit_in(5, empty.path(), None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("junit5"), "{e}");
        // A Maven repository is used when /usr/share/java has nothing.
        let m2 = empty.path().join(".m2/repository");
        for (g, a, v) in [
            ("junit", "junit", "4.12"),
            ("junit", "junit", "4.13.2"),
            ("org/hamcrest", "hamcrest-core", "1.3"),
        ] {
            let d = m2.join(g).join(a).join(v);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join(format!("{a}-{v}.jar")), b"").unwrap();
        }
        let found = find_junit_in(4, empty.path(), Some(empty.path())).unwrap();
        assert!(found[0].ends_with("junit-4.13.2.jar"), "{found:?}");
        assert!(found[1].ends_with("hamcrest-core-1.3.jar"), "{found:?}");
        assert!(check_entries(vec![empty.path().join("nope.jar")], "x").is_err());
    }
}
