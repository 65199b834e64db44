//! Checking written tests with the real tools: javac compiles them and JUnit runs them, in the
//! configurations the user's build may use.
//!
//! Why: the generator reasons about Java from class files, and javac's rules (overload
//! resolution, accessibility, checked exceptions, generics) are subtle; anything the writer got
//! wrong shows up here and is mapped back to the test method, so the caller can drop or fix
//! just that test. Likewise a regression test that does not pass when re-run (flaky,
//! environment-dependent, dependent on the tests run before it) is found and reported by
//! method, with the reason ([`FailureCause`]).
//!
//! How:
//! - Sources are copied into a temporary folder and compiled in one javac run (`-encoding
//!   UTF-8 -proc:none -nowarn`, javac's own JVM limited to the C1 compiler and the serial
//!   collector, which halves its time on a thousand tests: see [`JAVAC_JVM`]). javac errors
//!   (`File.java:LINE: error: ...`) are mapped to the method whose line range holds LINE; those
//!   methods are blanked out (lines kept, so numbers stay valid) and the rest is compiled
//!   again, so that one bad test does not hide the results of the others. An error outside
//!   every test method (an import, the class header) is an `Err`.
//! - The runner (Java source kept next to this file: `JforgeJUnit4Runner.java` via `JUnitCore`,
//!   `JforgeJUnit5Runner.java` via the Platform Launcher, `JforgePlatformListener.java`, all
//!   writing the results file through `JforgeRunnerOutput.java`) is compiled once per JUnit
//!   class path and kept in jforge's cache folder (`validate-runner-<hash>`), so a check
//!   compiles nothing but the tests. The runner writes START before and PASS/FAIL after each
//!   test (with its wall time and the bytes its thread allocated), flushed line by line, and
//!   runs the tests in exactly the order it is given.
//! - The suite runs in up to five configurations, each in fresh JVMs:
//!   1. the runner (JUnitCore for JUnit 4, the Platform Launcher for 5), test classes and
//!      methods in declaration order, `-Xmx256m`;
//!   2. the runner, declaration order, every identity hash code 1 (HotSpot `-XX:hashCode=2`,
//!      see [`FailureCause::IdentityHash`]);
//!   3. the runner, classes and methods in **reverse** order, default JVM options;
//!   4. JUnit 4 only, when the Platform console launcher is found ([`find_console_launcher`]):
//!      `org.junit.platform.console.ConsoleLauncher` itself (JUnit 4 tests run through the
//!      Vintage engine), declaration order; the runner's listener is registered through
//!      `META-INF/services`. For JUnit 5, runs 1-3 already go through the Platform Launcher
//!      that the console launcher drives.
//!   5. with [`CheckOptions::clock`]: the runner, declaration order, the classes whose clock
//!      reads jforge rewrote first on the class path and `-Djforge.clock=slow` (today, 1 s to
//!      3 h per read): a test that fails only here depends on how fast the machine runs
//!      ([`FailureCause::SlowClock`]; the caller drops just the failing assertion, by the
//!      line the runner reports).
//!
//!   Runs 1, 2 and 4 limit the JIT to C1 (startup-bound, see `QUICK_JVM`); run 3 passes no
//!   option at all, like a user's build. Later runs only run what is still a candidate: tests
//!   that passed (or, in error suites, failed in an ordinary way) in every earlier run. A test
//!   whose outcome changes is reported with the cause of the run where it changed; each later
//!   run differs from run 1 in one respect that can break a test (order, identity hashes,
//!   launcher; a larger heap or another JIT only hide failures), so the cause says why. Run 1
//!   removes tests that need more than 256 MB of heap; run 3 those that depend on static
//!   state left by the tests before them (a test that needs an earlier test runs before it in
//!   one of the two orders, one broken by a later test runs after it). The identity hash run
//!   comes second because a test that depends on identity hashes fails by chance in any run
//!   (when its hash has one hex digit less...), and in run 2 for sure: placed there, it leaves
//!   runs 3 and 4 the failures of their own cause (run 1 may still catch one by chance).
//!   Cost on 1000 TreeMap tests (CPU seconds): javac 1.7, runs 0.3 + 0.3 + 0.45 + 0.7; before
//!   this design javac took 3.9, the runner's own javac 1.0 and its one run 0.45.
//! - A test that runs longer than [`CheckOptions::slow_test`] (1 s) in every run it ran in is
//!   reported as [`FailureCause::TooSlow`] (the fastest run counts, so a machine busy for a
//!   moment removes nothing); one whose thread allocated more than
//!   [`CheckOptions::max_test_bytes`] (200 MB) in run 1 as [`FailureCause::TooMuchMemory`],
//!   like one that ran out of memory.
//! - A test whose START has no result killed the JVM (`System.exit`, `Runtime.halt`, a crash)
//!   or hung it (the JVM is killed when it reports nothing for `run_timeout`, so a large suite
//!   is not mistaken for a hanging test): it is reported as failing and the remaining tests of
//!   that run are run again in a fresh JVM. Where the JDK still allows it, the runner also
//!   installs a SecurityManager that turns `System.exit` into a `SecurityException`. A test
//!   never reported as passed is never counted as passing.
//! - Coverage ([`CheckOptions::coverage`]): the run JVMs get the instrumented classes first on
//!   the class path and the instrumentation's JVM options; after every test the runner drains
//!   the hit probes and writes the ones new to that JVM. [`Validation::suite_hits`] is the
//!   union over every JVM of the check; a JVM killed during a test loses that test's hits only
//!   (that test fails anyway). The union includes what failing tests reached: it is the
//!   written suite's coverage when the check removes nothing, which is why a caller that
//!   removes tests checks again and keeps the hits of the last, clean check.
//! - `JFORGE_TIMING=1` prints how long each phase took to stderr.

use super::WrittenFile;
pub use super::junit_jars::{find_console_launcher, find_junit};
use anyhow::{Context, Result, anyhow, bail};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::Hasher;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNNER4: &str = include_str!("JforgeJUnit4Runner.java");
const RUNNER5: &str = include_str!("JforgeJUnit5Runner.java");
/// Reports JUnit Platform events (JUnit 5 runner, and the console launcher run).
const PLATFORM_LISTENER: &str = include_str!("JforgePlatformListener.java");
/// The results file all runners write (line format, escaping, measures, System.exit blocking).
const RUNNER_OUTPUT: &str = include_str!("JforgeRunnerOutput.java");

/// Options of javac's own JVM: a check compiles once and exits, so C2 compilation and a
/// parallel collector only cost time (measured on 1000 TreeMap tests: 3.5 s of CPU with the
/// defaults, 1.55 s with these).
pub const JAVAC_JVM: [&str; 2] = ["-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"];

/// Options of the test JVMs of runs 1, 2 and 4 (run 3 uses none, as a user's build would):
/// a thousand short tests are JIT warm-up, not steady state (CPU time of 1000 TreeMap tests:
/// 0.42 s -> 0.26 s under JUnitCore, 1.0 s -> 0.63 s under the console launcher). A test
/// that is slow only without C2 is not removed: its fastest run counts.
const QUICK_JVM: [&str; 2] = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];

/// Run 2's HotSpot options: every identity hash code is 1 (mode 2, "for sensitivity
/// testing"). Assertions on values derived from identity hashes hold by chance only (the
/// generator saw the same value in two worker JVMs; a StrBuilder suite asserted the length of
/// a string holding `Object.toString()`, which is one shorter when the hash has 7 hex
/// digits): here they fail, every time. A JVM that refuses the options reports nothing, and
/// a run that reports nothing is skipped with a warning.
const SAME_IDENTITY_HASH: [&str; 2] = ["-XX:+UnlockExperimentalVMOptions", "-XX:hashCode=2"];

/// Exception class reported for a test during which the test JVM exited.
pub const JVM_EXIT: &str = "<jvm-exit>";
/// Exception class reported for a test during which the run timed out.
pub const TIMEOUT: &str = "<timeout>";
/// Exception class reported for a test the runner never reported on.
pub const NO_RESULT: &str = "<no-result>";
/// Exception class reported for a test that failed in one run and passed in a later one.
pub const INCONSISTENT: &str = "<passed-in-another-run>";
/// Exception class reported for a test slower than [`CheckOptions::slow_test`].
pub const TOO_SLOW: &str = "<too-slow>";
/// Exception class reported for a test that allocated more than
/// [`CheckOptions::max_test_bytes`].
pub const TOO_MUCH_MEMORY: &str = "<too-much-memory>";

/// Why a test is reported as failing. A test fails in one configuration only: the first run
/// that disagrees with run 1 (see the module documentation) gives the cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureCause {
    /// Failed in run 1 (declaration order, `-Xmx256m`), including a test that ended the JVM
    /// or that JUnit never ran. For an error-revealing test this is the expected outcome.
    Failed,
    /// Hung in run 1: the JVM was killed after `run_timeout` without progress.
    TimedOut,
    /// Behaved differently in run 2, where every object has the same identity hash code: the
    /// test observes identity hashes (`Object.toString()` of a class without its own, the
    /// iteration order of a `HashSet` of such objects...), which differ from JVM to JVM.
    IdentityHash,
    /// Behaved differently in run 3: classes and methods in reverse order, fresh JVM, default
    /// JVM options: depends on what the tests before it left behind (static state).
    ReverseOrder,
    /// Behaved differently under the JUnit Platform console launcher (JUnit 4 via Vintage).
    ConsoleLauncher,
    /// Failed under a slowed clock (run 5, the rewritten classes reading `jforge.rt.JClock`
    /// in its slow mode): depends on how fast the machine runs or on the date.
    SlowClock,
    /// Took longer than [`CheckOptions::slow_test`] in every run.
    TooSlow,
    /// Its thread allocated more than [`CheckOptions::max_test_bytes`] in run 1, or it ran out
    /// of memory.
    TooMuchMemory,
}

impl FailureCause {
    /// A few words for summaries: "failed in reverse order".
    pub fn describe(self) -> &'static str {
        match self {
            FailureCause::Failed => "failed",
            FailureCause::TimedOut => "hung",
            FailureCause::ReverseOrder => "failed in reverse order",
            FailureCause::IdentityHash => "depended on identity hash codes",
            FailureCause::ConsoleLauncher => "failed under the JUnit console launcher",
            FailureCause::SlowClock => "failed under a slowed clock",
            FailureCause::TooSlow => "took over the time limit",
            FailureCause::TooMuchMemory => "needed too much memory",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestFailure {
    /// Fully qualified test class name.
    pub class_name: String,
    pub method: String,
    /// Class of the exception the test failed with (`java.lang.AssertionError`, ...), or
    /// [`JVM_EXIT`], [`TIMEOUT`], [`NO_RESULT`] when the test never finished, [`INCONSISTENT`]
    /// when it failed in run 1 and passed in a later run, [`TOO_SLOW`] or [`TOO_MUCH_MEMORY`].
    pub exception_class: String,
    pub message: String,
    pub cause: FailureCause,
    /// The line of the test method where it failed (its frame in the stack trace), when
    /// the runner could tell.
    pub line: Option<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct Validation {
    /// (class, method, javac message) for each test method that does not compile.
    pub compile_failures: Vec<(String, String, String)>,
    pub test_failures: Vec<TestFailure>,
    /// (class, method) of every test that passed in every run, in time and memory.
    pub passed: Vec<(String, String)>,
    /// With [`CheckOptions::coverage`]: per probe id, whether any JVM of the check hit it.
    /// Includes what failing tests reached, so it is the suite's coverage when nothing is
    /// removed after this check (see the module documentation).
    pub suite_hits: Option<Vec<bool>>,
    /// Problems that did not stop the check (a run that could not be used, a runner note).
    pub warnings: Vec<String>,
    /// (phase, wall time): the runner compile, each javac round, each run.
    pub timings: Vec<(String, Duration)>,
}

impl Validation {
    /// How many reported failures have each cause (error-revealing tests that failed as
    /// written included: the caller decides what it removes, see [`removed_by_cause`]).
    pub fn failures_by_cause(&self) -> BTreeMap<FailureCause, usize> {
        let mut m = BTreeMap::new();
        for f in &self.test_failures {
            *m.entry(f.cause).or_insert(0) += 1;
        }
        m
    }
}

/// The causes of the failures the caller removes: `removed(error_suite, case)` says whether
/// the test written for `case` of `files` (see [`WrittenTest::case`](super::WrittenTest)) goes.
pub fn removed_by_cause(
    files: &[WrittenFile],
    v: &Validation,
    removed: impl Fn(bool, usize) -> bool,
) -> BTreeMap<FailureCause, usize> {
    let mut at: HashMap<(&str, &str), (bool, usize)> = HashMap::new();
    for f in files {
        for t in &f.tests {
            at.insert(
                (f.class_name.as_str(), t.method.as_str()),
                (f.error_suite, t.case),
            );
        }
    }
    let mut m = BTreeMap::new();
    for f in &v.test_failures {
        if let Some(&(err, case)) = at.get(&(f.class_name.as_str(), f.method.as_str()))
            && removed(err, case)
        {
            *m.entry(f.cause).or_insert(0) += 1;
        }
    }
    m
}

/// How the check measures the suite's coverage: instrumented copies of the classes under test
/// (see `crate::coverage::Setup`).
#[derive(Clone, Debug)]
pub struct CoverageRun {
    /// Instrumented class folder, put first on the run class path.
    pub class_dir: PathBuf,
    /// Extra JVM options (`--patch-module java.base=...` for JDK classes, ...).
    pub jvm_args: Vec<String>,
    /// Number of probes: [`Validation::suite_hits`] has this length.
    pub total_probes: u32,
}

impl CoverageRun {
    pub fn from_setup(s: &crate::coverage::Setup) -> CoverageRun {
        CoverageRun {
            class_dir: s.class_dir.clone(),
            jvm_args: s.jvm_args.clone(),
            total_probes: s.total_probes,
        }
    }
}

/// The slow-clock run: classes whose clock reads are rewritten (see
/// `crate::instrument::clock`), put first on the class path, with `-Djforge.clock=slow`.
#[derive(Clone, Debug)]
pub struct ClockRun {
    /// The rewritten class folder (the coverage one when coverage is measured: one folder).
    pub class_dir: PathBuf,
    /// Its JVM options (`--patch-module` when JDK classes are instrumented).
    pub jvm_args: Vec<String>,
}

impl ClockRun {
    pub fn from_setup(s: &crate::coverage::Setup) -> ClockRun {
        ClockRun {
            class_dir: s.class_dir.clone(),
            jvm_args: s
                .jvm_args
                .iter()
                .filter(|a| !a.starts_with("-Djforge.cov.probes="))
                .cloned()
                .collect(),
        }
    }
}

/// What [`compile_and_run_with`] checks besides compiling and passing.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Measure the suite's coverage.
    pub coverage: Option<CoverageRun>,
    /// Run the suite once more under a slowed clock (run 5).
    pub clock: Option<ClockRun>,
    /// JUnit 4: class path entries that add the JUnit Platform console launcher with the
    /// Vintage engine (empty when the JUnit class path has them already); `None` skips run 4.
    pub console_launcher: Option<Vec<PathBuf>>,
    /// A test slower than this in every run is reported as [`FailureCause::TooSlow`].
    pub slow_test: Duration,
    /// A test whose thread allocates more bytes than this is reported as
    /// [`FailureCause::TooMuchMemory`].
    pub max_test_bytes: u64,
    /// Heap limit of run 1, in MiB.
    pub first_run_heap_mb: u32,
    /// The run's time budget: later runs (identity hashes, reverse order, console launcher)
    /// are skipped, with a warning, once it has passed.
    pub deadline: Option<Instant>,
}

impl CheckOptions {
    /// The defaults: 1 s, 200 MB, `-Xmx256m`, the console launcher when found, no coverage.
    pub fn new(junit: u8, junit_cp: &[PathBuf]) -> CheckOptions {
        CheckOptions {
            coverage: None,
            clock: None,
            console_launcher: if junit == 4 {
                find_console_launcher(junit_cp)
            } else {
                None
            },
            slow_test: Duration::from_secs(1),
            deadline: None,
            max_test_bytes: 200 << 20,
            first_run_heap_mb: 256,
        }
    }
}

/// The entries as one class path, each made absolute (test JVMs run in a scratch folder).
fn join_cp(parts: &[&[PathBuf]]) -> Result<std::ffi::OsString> {
    std::env::join_paths(
        parts
            .iter()
            .flat_map(|p| p.iter())
            .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone())),
    )
    .context("a class path entry contains ':'; rename it")
}

fn run_javac(
    javac: &Path,
    cp: &std::ffi::OsStr,
    out: &Path,
    sources: &[PathBuf],
) -> Result<(bool, String)> {
    let o = Command::new(javac)
        .args(JAVAC_JVM)
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
                "cannot run javac at {}; pass a JDK with --java",
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

/// The one message for a JUnit class path without the JUnit API (javac's first errors only).
fn no_junit_api(junit: u8, junit_cp: &[PathBuf], javac_out: &str) -> anyhow::Error {
    anyhow!(
        "the JUnit {junit} class path ({}) does not provide the JUnit API needed to run tests; \
         install Debian package junit{junit} or pass --junit-classpath. javac said: {}",
        junit_cp
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(":"),
        first_javac_errors(javac_out, 2)
    )
}

/// The first `n` javac error messages of `out`, one line each without the file's folder, and
/// how many more there were (a missing JUnit makes javac print dozens of the same error).
fn first_javac_errors(out: &str, n: usize) -> String {
    let errs = parse_javac_errors(out);
    if errs.is_empty() {
        return out.lines().take(n).collect::<Vec<_>>().join("; ");
    }
    let mut text: Vec<String> = errs
        .iter()
        .take(n)
        .map(|(file, line, msg)| {
            let name = Path::new(file)
                .file_name()
                .map_or(file.clone(), |f| f.to_string_lossy().into_owned());
            format!("{name}:{line}: {}", msg.lines().next().unwrap_or(""))
        })
        .collect();
    if errs.len() > n {
        text.push(format!("... {} more errors", errs.len() - n));
    }
    text.join("; ")
}

/// Undoes the runner's escaping of a results-file field (`\\t`, `\\n`, `\\r`, `\\\\`).
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

fn timing_on() -> bool {
    std::env::var_os("JFORGE_TIMING").is_some_and(|v| !v.is_empty() && v != "0")
}

/// Records a phase's wall time (and prints it with `JFORGE_TIMING=1`).
fn timed(v: &mut Vec<(String, Duration)>, what: String, d: Duration) {
    if timing_on() {
        eprintln!("jforge timing: {what}: {:.3} s", d.as_secs_f64());
    }
    v.push((what, d));
}

/// Folders where a compiled runner may be kept, best first (the worker jar's cache folders).
fn cache_roots() -> Vec<PathBuf> {
    crate::runner::jar::cache_dirs()
}

/// The compiled runner: classes, and the folder whose `META-INF/services` registers the
/// listener for the console launcher run (when that run is possible).
struct RunnerClasses {
    classes: PathBuf,
    services: Option<PathBuf>,
    cached: bool,
}

const SERVICES: &str = "META-INF/services/org.junit.platform.launcher.TestExecutionListener";

/// Writes the runner sources under `dir/src`, compiles them into `dir/classes` and writes the
/// services folder. `Ok(Err(javac output))` when javac rejects them.
fn compile_runner(
    javac: &Path,
    cp: &std::ffi::OsStr,
    dir: &Path,
    sources: &[(&str, &str)],
    console: bool,
) -> Result<std::result::Result<(), String>> {
    let src = dir.join("src");
    let classes = dir.join("classes");
    std::fs::create_dir_all(&src)
        .and_then(|_| std::fs::create_dir_all(&classes))
        .with_context(|| format!("cannot create folders in {}", dir.display()))?;
    let mut files = Vec::new();
    for (name, text) in sources {
        let p = src.join(name);
        std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))?;
        files.push(p);
    }
    let (ok, out) = run_javac(javac, cp, &classes, &files)?;
    if !ok {
        return Ok(Err(out));
    }
    if console {
        let svc = dir.join("services").join(SERVICES);
        if let Some(parent) = svc.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&svc, "JforgePlatformListener\n")
            .with_context(|| format!("cannot write {}", svc.display()))?;
    }
    Ok(Ok(()))
}

/// The runner for `junit` (with the console launcher listener when `console` is given),
/// compiled once per (sources, javac, class path) and kept in the cache folder; compiled into
/// `scratch` when no cache folder is writable.
fn prepare_runner(
    javac: &Path,
    junit: u8,
    junit_cp: &[PathBuf],
    console: Option<&[PathBuf]>,
    scratch: &Path,
) -> Result<std::result::Result<RunnerClasses, String>> {
    let mut sources = vec![("JforgeRunnerOutput.java", RUNNER_OUTPUT)];
    if junit == 4 {
        sources.push(("JforgeJUnit4Runner.java", RUNNER4));
    } else {
        sources.push(("JforgeJUnit5Runner.java", RUNNER5));
    }
    if junit == 5 || console.is_some() {
        sources.push(("JforgePlatformListener.java", PLATFORM_LISTENER));
    }
    let cp_entries: Vec<PathBuf> = junit_cp
        .iter()
        .chain(console.unwrap_or(&[]))
        .cloned()
        .collect();
    let cp = join_cp(&[&cp_entries])?;
    let mut h = twox_hash::XxHash64::with_seed(0x7275_6e6e);
    for (n, t) in &sources {
        h.write(n.as_bytes());
        h.write(t.as_bytes());
    }
    h.write(javac.as_os_str().as_encoded_bytes());
    for e in &cp_entries {
        h.write(e.as_os_str().as_encoded_bytes());
        if let Ok(m) = std::fs::metadata(e) {
            h.write_u64(m.len());
            if let Ok(t) = m.modified().and_then(|t| {
                t.duration_since(std::time::UNIX_EPOCH)
                    .map_err(std::io::Error::other)
            }) {
                h.write_u128(t.as_nanos());
            }
        }
    }
    h.write_u8(console.is_some() as u8);
    let name = format!("validate-runner-{:016x}", h.finish());
    let found = |dir: &Path| RunnerClasses {
        classes: dir.join("classes"),
        services: console.is_some().then(|| dir.join("services")),
        cached: true,
    };
    for root in cache_roots() {
        let dir = root.join(&name);
        if dir.join("ok").is_file() {
            return Ok(Ok(found(&dir)));
        }
        if std::fs::create_dir_all(&root).is_err() {
            continue;
        }
        let Ok(tmp) = tempfile::Builder::new()
            .prefix(".validate-runner-")
            .tempdir_in(&root)
        else {
            continue;
        };
        if let Err(out) = compile_runner(javac, &cp, tmp.path(), &sources, console.is_some())? {
            return Ok(Err(out));
        }
        if std::fs::write(tmp.path().join("ok"), b"").is_err() {
            continue;
        }
        let kept = tmp.keep();
        if std::fs::rename(&kept, &dir).is_err() {
            // Another jforge run got there first (or the folder cannot be renamed): use theirs
            // when complete.
            let _ = std::fs::remove_dir_all(&kept);
            if !dir.join("ok").is_file() {
                continue;
            }
        }
        let mut r = found(&dir);
        r.cached = false;
        return Ok(Ok(r));
    }
    let dir = scratch.join("runner");
    if let Err(out) = compile_runner(javac, &cp, &dir, &sources, console.is_some())? {
        return Ok(Err(out));
    }
    let mut r = found(&dir);
    r.cached = false;
    Ok(Ok(r))
}

/// One configuration the suite runs in (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    Forward,
    IdentityHash,
    Reverse,
    Console,
    SlowClock,
}

impl Run {
    fn name(self) -> &'static str {
        match self {
            Run::Forward => "run 1 (declaration order, small heap)",
            Run::IdentityHash => "run 2 (one identity hash code for all objects)",
            Run::Reverse => "run 3 (reverse order)",
            Run::Console => "run 4 (JUnit console launcher)",
            Run::SlowClock => "run 5 (slowed clock)",
        }
    }
}

type Key = (String, String);

/// What one run reported for one test.
#[derive(Clone, Debug)]
struct Outcome {
    /// (exception class, message) when it failed.
    failure: Option<(String, String)>,
    nanos: Option<u64>,
    bytes: Option<u64>,
    /// The line of the test method where it failed, when the runner could tell.
    line: Option<usize>,
}

impl Outcome {
    fn fail(exception_class: &str, message: String) -> Outcome {
        Outcome {
            failure: Some((exception_class.to_string(), message)),
            nanos: None,
            bytes: None,
            line: None,
        }
    }
}

/// What the runs of one check share.
struct Env<'a> {
    java: &'a Path,
    tmp: &'a Path,
    junit: u8,
    run_timeout: Duration,
    allow_sm: bool,
    /// Class path of the runner runs (instrumented classes, runner, tests, user, JUnit).
    run_cp: std::ffi::OsString,
    /// Class path of the console launcher run, when there is one.
    console_cp: Option<std::ffi::OsString>,
    /// Class path and JVM options of the slow-clock run, when there is one.
    slow_clock: Option<(std::ffi::OsString, Vec<String>)>,
    runner_main: &'static str,
    first_run_heap_mb: u32,
    coverage: Option<&'a CoverageRun>,
    hits: Option<Vec<bool>>,
    /// Test classes whose hits are not the suite's (error-revealing tests: they are written
    /// apart from the regression suite, and their coverage includes the failing paths).
    hits_skipped: std::collections::HashSet<String>,
    warnings: Vec<String>,
    jvms: usize,
}

fn parse_u64(s: Option<&String>) -> Option<u64> {
    s.and_then(|s| s.parse().ok())
}

/// What one run collected so far, over its JVMs.
struct RunResults<'t> {
    /// The tests the run was asked for.
    wanted: HashSet<&'t Key>,
    results: HashMap<Key, Outcome>,
    /// Whether the runner reported any test at all.
    reported_any: bool,
}

/// The files of one test JVM: where the runner writes its results, and the JVM's output.
struct JvmFiles {
    /// The JVM's number in the check (`env.jvms` when it started).
    n: usize,
    results: PathBuf,
    log: PathBuf,
}

impl JvmFiles {
    /// The files of the check's next test JVM (counted in `env.jvms`).
    fn next(env: &mut Env) -> JvmFiles {
        let n = env.jvms;
        env.jvms += 1;
        JvmFiles {
            n,
            results: env.tmp.join(format!("results{n}.txt")),
            log: env.tmp.join(format!("run{n}.log")),
        }
    }
}

/// Runs `tests` in this order under `run`, in as many fresh JVMs as deaths require. Returns
/// what was reported per test, and whether the runner reported anything at all.
fn run_tests(
    env: &mut Env,
    run: Run,
    tests: &[Key],
    class_sizes: &HashMap<&str, usize>,
) -> Result<(HashMap<Key, Outcome>, bool)> {
    let mut state = RunResults {
        wanted: tests.iter().collect(),
        results: HashMap::new(),
        reported_any: false,
    };
    loop {
        let todo: Vec<&Key> = tests
            .iter()
            .filter(|k| !state.results.contains_key(*k))
            .collect();
        if todo.is_empty() {
            break;
        }
        let jvm = JvmFiles::next(env);
        let child = start_test_jvm(env, run, &jvm, &todo, class_sizes)?;
        let (status, timed_out) = wait_for_progress(env, child, &jvm.results)?;
        let text = std::fs::read(&jvm.results)
            .map(|b| String::from_utf8_lossy(&b).into_owned())
            .unwrap_or_default();
        let before = state.results.len();
        let (started, done) = state.read_report(env, &text, &todo);
        if done {
            state.not_run_by_junit(env, &todo, &jvm.log);
            continue;
        }
        let why = why_jvm_ended(env, status, timed_out);
        state.blame_jvm_end(&todo, started, before, why, &jvm.log);
    }
    Ok((state.results, state.reported_any))
}

/// Starts a test JVM that runs `todo` in this order under `run`, its output going to the log.
fn start_test_jvm(
    env: &Env,
    run: Run,
    jvm: &JvmFiles,
    todo: &[&Key],
    class_sizes: &HashMap<&str, usize>,
) -> Result<std::process::Child> {
    let log_file =
        std::fs::File::create(&jvm.log).context("cannot write to the temporary folder")?;
    let log_err = log_file
        .try_clone()
        .context("cannot write to the temporary folder")?;
    // In a scratch folder of its own: a test that writes to a relative path writes there,
    // not into the user's folder.
    let scratch = jvm.log.with_extension("cwd");
    std::fs::create_dir_all(&scratch).context("cannot write to the temporary folder")?;
    let mut cmd = Command::new(std::path::absolute(env.java).unwrap_or_else(|_| env.java.into()));
    cmd.current_dir(&scratch);
    add_jvm_options(&mut cmd, env, run);
    if run == Run::Console {
        select_for_console_launcher(&mut cmd, env, jvm, todo, class_sizes)?;
    } else {
        select_for_runner(&mut cmd, env, run, jvm, todo)?;
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::from(log_file))
        .stderr(Stdio::from(log_err))
        .spawn()
        .with_context(|| {
            format!(
                "cannot run java at {}; pass a JDK with --java",
                env.java.display()
            )
        })
}

/// The JVM options of `run` (see the module documentation), and coverage's.
fn add_jvm_options(cmd: &mut Command, env: &Env, run: Run) {
    if env.allow_sm {
        cmd.arg("-Djava.security.manager=allow");
    }
    if run != Run::Reverse {
        cmd.args(QUICK_JVM);
    }
    if run == Run::Forward {
        cmd.arg(format!("-Xmx{}m", env.first_run_heap_mb));
    }
    if run == Run::IdentityHash {
        cmd.args(SAME_IDENTITY_HASH);
    }
    if let Some(c) = env.coverage {
        cmd.args(&c.jvm_args)
            .arg(format!("-Djforge.validate.probes={}", c.total_probes));
    }
    if run == Run::SlowClock
        && let Some((_, args)) = &env.slow_clock
    {
        if env.coverage.is_none() {
            cmd.args(args);
        }
        cmd.arg("-Djforge.clock=slow");
    }
}

/// The console launcher's class path, main class and options, and its selection of `todo`.
fn select_for_console_launcher(
    cmd: &mut Command,
    env: &Env,
    jvm: &JvmFiles,
    todo: &[&Key],
    class_sizes: &HashMap<&str, usize>,
) -> Result<()> {
    let cp = env
        .console_cp
        .as_ref()
        .ok_or_else(|| anyhow!("internal: console launcher run without its class path"))?;
    cmd.arg(format!("-Djforge.results={}", jvm.results.display()))
        .arg("-cp")
        .arg(cp)
        .arg("org.junit.platform.console.ConsoleLauncher")
        .args([
            "--disable-banner",
            "--details=none",
            "--disable-ansi-colors",
        ]);
    // Whole classes where every compiled test of the class is to run (the console
    // launcher's usual selection), single methods otherwise; classes in list order.
    let mut per_class: Vec<(&str, Vec<&str>)> = Vec::new();
    for (c, m) in todo {
        match per_class.last_mut() {
            Some((last, ms)) if *last == c.as_str() => ms.push(m),
            _ => per_class.push((c, vec![m])),
        }
    }
    for (c, ms) in per_class {
        if class_sizes.get(c) == Some(&ms.len()) {
            cmd.arg("--select-class").arg(c);
        } else {
            for m in ms {
                cmd.arg("--select-method").arg(format!("{c}#{m}"));
            }
        }
    }
    Ok(())
}

/// The runner's class path and main class, its results file, and the order file listing
/// `todo` (the runner runs exactly these, in this order).
fn select_for_runner(
    cmd: &mut Command,
    env: &Env,
    run: Run,
    jvm: &JvmFiles,
    todo: &[&Key],
) -> Result<()> {
    let order = env.tmp.join(format!("order{}.txt", jvm.n));
    let mut text = String::new();
    for (c, m) in todo {
        text.push_str(c);
        text.push('\t');
        text.push_str(m);
        text.push('\n');
    }
    std::fs::write(&order, text).context("cannot write to the temporary folder")?;
    let cp = match (&env.slow_clock, run) {
        (Some((cp, _)), Run::SlowClock) => cp,
        _ => &env.run_cp,
    };
    cmd.arg("-cp")
        .arg(cp)
        .arg(env.runner_main)
        .arg(&jvm.results)
        .arg(&order);
    Ok(())
}

/// Waits for the test JVM to end; kills it when its results file has not grown for
/// `run_timeout`. Returns its exit status (`None` when killed) and whether it timed out.
fn wait_for_progress(
    env: &Env,
    mut child: std::process::Child,
    results_file: &Path,
) -> Result<(Option<std::process::ExitStatus>, bool)> {
    let mut last_progress = Instant::now();
    let mut reported = 0u64;
    let mut timed_out = false;
    let status = loop {
        if let Some(s) = child.try_wait().context("waiting for the test JVM")? {
            break Some(s);
        }
        let len = std::fs::metadata(results_file)
            .map(|m| m.len())
            .unwrap_or(0);
        if len != reported {
            reported = len;
            last_progress = Instant::now();
        }
        if last_progress.elapsed() >= env.run_timeout {
            timed_out = true;
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ok((status, timed_out))
}

/// The exception class and message for the test a JVM was running when it ended without
/// DONE: it hung (killed after `run_timeout`) or exited.
fn why_jvm_ended(
    env: &Env,
    status: Option<std::process::ExitStatus>,
    timed_out: bool,
) -> (&'static str, String) {
    if timed_out {
        (
            TIMEOUT,
            format!(
                "the test run exceeded {} ms without progress and was killed",
                env.run_timeout.as_millis()
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
    }
}

impl RunResults<'_> {
    /// Reads one JVM's results file: results of wanted tests, coverage hits, runner notes.
    /// Returns the test started and not finished, if any, and whether the runner got to DONE.
    fn read_report(&mut self, env: &mut Env, text: &str, todo: &[&Key]) -> (Option<Key>, bool) {
        let mut started: Option<Key> = None;
        // The class of the test reported last: the HITS line after a result is that test's.
        let mut last_class: Option<String> = None;
        let mut done = false;
        for line in text.lines() {
            let f: Vec<String> = line.split('\t').map(unescape).collect();
            match f.first().map(String::as_str) {
                Some("START") if f.len() >= 3 => started = Some((f[1].clone(), f[2].clone())),
                Some("PASS") if f.len() >= 3 => {
                    last_class = Some(f[1].clone());
                    let k = (f[1].clone(), f[2].clone());
                    if started.as_ref() == Some(&k) {
                        started = None;
                    }
                    self.reported_any = true;
                    if self.wanted.contains(&k) {
                        self.results.entry(k).or_insert(Outcome {
                            failure: None,
                            nanos: parse_u64(f.get(3)),
                            bytes: parse_u64(f.get(4)),
                            line: None,
                        });
                    }
                }
                Some("FAIL") if f.len() >= 5 => {
                    last_class = Some(f[1].clone());
                    self.reported_any = true;
                    let fail = || Outcome {
                        failure: Some((f[3].clone(), f[4].clone())),
                        nanos: parse_u64(f.get(5)),
                        bytes: parse_u64(f.get(6)),
                        line: parse_u64(f.get(7)).map(|l| l as usize),
                    };
                    let k = (f[1].clone(), f[2].clone());
                    if self.wanted.contains(&k) {
                        if started.as_ref() == Some(&k) {
                            started = None;
                        }
                        self.results.entry(k).or_insert_with(fail);
                    } else {
                        // Class-level failure (or an unknown method): every unreported test of
                        // the class fails with it.
                        for t in todo.iter().filter(|t| t.0 == f[1]) {
                            self.results.entry((*t).clone()).or_insert_with(fail);
                        }
                    }
                }
                Some("HITS") if f.len() >= 2 => {
                    let skip = last_class
                        .as_ref()
                        .is_some_and(|c| env.hits_skipped.contains(c));
                    if let Some(hits) = env.hits.as_mut().filter(|_| !skip) {
                        for id in f[1].split(',').filter_map(|s| s.parse::<usize>().ok()) {
                            if let Some(h) = hits.get_mut(id) {
                                *h = true;
                            }
                        }
                    }
                }
                Some("NOTE") if f.len() >= 2 => {
                    let w = format!("test runner: {}", f[1]);
                    if !env.warnings.contains(&w) {
                        env.warnings.push(w);
                    }
                }
                Some("DONE") => done = true,
                _ => {}
            }
        }
        (started, done)
    }

    /// After DONE: everything the runner was asked for and did not report was not found by
    /// JUnit.
    fn not_run_by_junit(&mut self, env: &Env, todo: &[&Key], log: &Path) {
        for k in todo {
            self.results.entry((*k).clone()).or_insert_with(|| {
                Outcome::fail(
                    NO_RESULT,
                    format!(
                        "JUnit did not run this test (is the JUnit {} engine on the class path?); log: {}",
                        env.junit,
                        tail(log, 2000)
                    ),
                )
            });
        }
    }

    /// A JVM that ended without DONE fails the test it was running, or, when it died before
    /// any test started (or made no progress), every remaining test.
    fn blame_jvm_end(
        &mut self,
        todo: &[&Key],
        started: Option<Key>,
        before: usize,
        why: (&str, String),
        log: &Path,
    ) {
        if let Some(k) = started.filter(|k| self.wanted.contains(k)) {
            self.results.entry(k).or_insert_with(|| {
                Outcome::fail(why.0, format!("{}; log: {}", why.1, tail(log, 2000)))
            });
        } else if self.results.len() == before {
            // Died before any test started (or made no progress): blame every remaining test.
            for k in todo {
                self.results.entry((*k).clone()).or_insert_with(|| {
                    Outcome::fail(
                        why.0,
                        format!(
                            "{} before reporting any result; log: {}",
                            why.1,
                            tail(log, 2000)
                        ),
                    )
                });
            }
        }
    }
}

fn is_oom(exception_class: &str) -> bool {
    exception_class == "java.lang.OutOfMemoryError"
}

/// Compile `files` with javac (class path = user class path + JUnit) and run every test class
/// under JUnit in separate JVMs, with the default [`CheckOptions`]. See
/// [`compile_and_run_with`].
pub fn compile_and_run(
    javac: &Path,
    java: &Path,
    user_cp: &[PathBuf],
    junit_cp: &[PathBuf],
    files: &[WrittenFile],
    junit: u8,
    run_timeout: Duration,
) -> Result<Validation> {
    let opts = CheckOptions::new(junit, junit_cp);
    compile_and_run_with(
        javac,
        java,
        user_cp,
        junit_cp,
        files,
        junit,
        run_timeout,
        &opts,
    )
}

/// Compile `files` with javac (class path = user class path + JUnit) and run the suite in the
/// configurations of the module documentation. `run_timeout` is the longest a test JVM may go
/// without reporting progress (a test start or result); the test then running is reported as
/// timed out. Every compiled test ends up in exactly one of `passed` and `test_failures`.
#[allow(clippy::too_many_arguments)]
pub fn compile_and_run_with(
    javac: &Path,
    java: &Path,
    user_cp: &[PathBuf],
    junit_cp: &[PathBuf],
    files: &[WrittenFile],
    junit: u8,
    run_timeout: Duration,
    opts: &CheckOptions,
) -> Result<Validation> {
    if junit != 4 && junit != 5 {
        bail!("unsupported JUnit version {junit}: choose 4 or 5");
    }
    let tmp = crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-validate"))
        .context("cannot create a temporary folder for compiling the tests (check TMPDIR)")?;
    let classes = tmp.path().join("classes");
    std::fs::create_dir_all(&classes).context("cannot create a temporary folder")?;
    let check = Check {
        javac,
        java,
        user_cp,
        junit_cp,
        files,
        junit,
        run_timeout,
        opts,
        tmp: tmp.path(),
        classes,
    };
    let mut validation = Validation::default();
    let runner = check.test_runner(&mut validation)?;
    let broken = check.compile_tests(&runner, &mut validation)?;
    let (all, error_suite) = check.compiled_tests(&broken);
    let class_sizes = class_sizes(&all);
    let mut env = check.run_env(&runner, std::mem::take(&mut validation.warnings))?;

    // Run 1, then the later runs on what is still a candidate.
    let mut verdicts = Verdicts::default();
    let (r1, _) = timed_run(
        &mut env,
        Run::Forward,
        &all,
        &class_sizes,
        &mut validation.timings,
    )?;
    verdicts.judge_first_run(r1, &all, &error_suite, opts.max_test_bytes);
    check.later_runs(
        &mut env,
        &mut verdicts,
        &class_sizes,
        &mut validation.timings,
    )?;
    verdicts.judge_remaining_candidates(opts.slow_test);
    verdicts.sort_out(all, &mut validation);
    validation.suite_hits = env.hits.take();
    print_hit_count(validation.suite_hits.as_deref());
    validation.warnings = env.warnings;
    Ok(validation)
}

/// With `JFORGE_TIMING=1`, prints how many coverage probes the suite hit.
fn print_hit_count(suite_hits: Option<&[bool]>) {
    if let Some(h) = suite_hits
        && timing_on()
    {
        eprintln!(
            "jforge timing: the suite hit {} of {} coverage probes",
            h.iter().filter(|x| **x).count(),
            h.len()
        );
    }
}

/// (file index, test index) -> javac messages, for each test method that does not compile.
type BrokenMethods = BTreeMap<(usize, usize), Vec<String>>;

/// The inputs of one check, shared by its steps.
struct Check<'a> {
    javac: &'a Path,
    java: &'a Path,
    user_cp: &'a [PathBuf],
    junit_cp: &'a [PathBuf],
    files: &'a [WrittenFile],
    junit: u8,
    run_timeout: Duration,
    opts: &'a CheckOptions,
    /// The check's temporary folder.
    tmp: &'a Path,
    /// Where javac writes the compiled tests (`<tmp>/classes`).
    classes: PathBuf,
}

impl<'a> Check<'a> {
    /// The console launcher's extra class path entries when run 4 is wanted (JUnit 4 only).
    fn console(&self) -> Option<&'a [PathBuf]> {
        if self.junit == 4 {
            self.opts.console_launcher.as_deref()
        } else {
            None
        }
    }

    /// The runner, compiled against JUnit alone: a failure here is a JUnit class path
    /// problem. With the console launcher too when run 4 is wanted; when it does not compile
    /// so, run 4 is skipped with a warning.
    fn test_runner(&self, validation: &mut Validation) -> Result<RunnerClasses> {
        let t0 = Instant::now();
        let (javac, junit, junit_cp) = (self.javac, self.junit, self.junit_cp);
        let console = self.console();
        // The JUnit class path alone must provide the JUnit API (the tests compile against it);
        // the console launcher's jar could otherwise hide its absence. Cached like the runner.
        if console.is_some()
            && let Err(out) = prepare_runner(javac, junit, junit_cp, None, self.tmp)?
        {
            return Err(no_junit_api(junit, junit_cp, &out));
        }
        let mut runner = prepare_runner(javac, junit, junit_cp, console, self.tmp)?;
        if let (Err(out), Some(c)) = (&runner, console) {
            validation.warnings.push(format!(
                "the JUnit console launcher run is skipped: the runner does not compile against \
                 the JUnit class path plus {}; javac said:\n{out}",
                c.iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(":")
            ));
            runner = prepare_runner(javac, junit, junit_cp, None, self.tmp)?;
        }
        let runner = match runner {
            Ok(r) => r,
            Err(out) => return Err(no_junit_api(junit, junit_cp, &out)),
        };
        timed(
            &mut validation.timings,
            format!(
                "test runner{}",
                if runner.cached {
                    " (cached)"
                } else {
                    " compiled"
                }
            ),
            t0.elapsed(),
        );
        Ok(runner)
    }

    /// Compiles the tests in javac rounds, blanking out the methods javac reports until the
    /// rest compiles (at most 20 rounds), so that one bad test does not hide the others.
    /// Records those methods in `compile_failures` and returns them.
    fn compile_tests(
        &self,
        runner: &RunnerClasses,
        validation: &mut Validation,
    ) -> Result<BrokenMethods> {
        let mut sources = TestSources::copy(self.files, self.tmp)?;
        let compile_cp = join_cp(&[
            std::slice::from_ref(&runner.classes),
            self.user_cp,
            self.junit_cp,
        ])?;
        let mut broken: BrokenMethods = BTreeMap::new();
        let mut compiled = false;
        for round in 0..20 {
            let t0 = Instant::now();
            sources.write()?;
            let (ok, out) = run_javac(self.javac, &compile_cp, &self.classes, &sources.copies)?;
            timed(
                &mut validation.timings,
                format!("javac round {} ({} files)", round + 1, sources.copies.len()),
                t0.elapsed(),
            );
            if ok {
                compiled = true;
                break;
            }
            let new_broken = sources.blame(&out, &mut broken)?;
            sources.blank(&new_broken);
        }
        if !compiled {
            bail!(
                "the generated tests still do not compile after removing failing methods 20 times"
            );
        }
        for ((fi, ti), msgs) in &broken {
            validation.compile_failures.push((
                self.files[*fi].class_name.clone(),
                self.files[*fi].tests[*ti].method.clone(),
                msgs.join("\n"),
            ));
        }
        Ok(broken)
    }

    /// The compiled tests in declaration order, and those of them in error suites.
    fn compiled_tests(&self, broken: &BrokenMethods) -> (Vec<Key>, HashSet<Key>) {
        let mut all: Vec<Key> = Vec::new();
        let mut error_suite: HashSet<Key> = HashSet::new();
        for (fi, f) in self.files.iter().enumerate() {
            for (ti, t) in f.tests.iter().enumerate() {
                if !broken.contains_key(&(fi, ti)) {
                    let k = (f.class_name.clone(), t.method.clone());
                    if f.error_suite {
                        error_suite.insert(k.clone());
                    }
                    all.push(k);
                }
            }
        }
        (all, error_suite)
    }

    /// What the runs share: class paths, JVM options, the coverage hits so far; `warnings`
    /// are the check's so far (the runs add theirs).
    fn run_env(&self, runner: &RunnerClasses, warnings: Vec<String>) -> Result<Env<'a>> {
        let (run_cp, console_cp) = self.run_class_paths(runner)?;
        let slow_clock = match &self.opts.clock {
            Some(c) => {
                let mut cp = std::ffi::OsString::from(c.class_dir.as_os_str());
                cp.push(":");
                cp.push(&run_cp);
                Some((cp, c.jvm_args.clone()))
            }
            None => None,
        };
        // `-Djava.security.manager=allow` lets the runner block System.exit on JDK 18+; JDKs
        // before 12 would read it as a class name and fail to start, and JDK 24+ (JEP 486)
        // refuse to start with it, so it is passed only on 12..=23. Without it a test that
        // exits is still caught: its missing result is reported as <jvm-exit>.
        let allow_sm = jdk_feature_version(self.java).is_some_and(|v| (12..24).contains(&v));
        let opts = self.opts;
        Ok(Env {
            java: self.java,
            tmp: self.tmp,
            junit: self.junit,
            run_timeout: self.run_timeout,
            allow_sm,
            run_cp,
            console_cp,
            slow_clock,
            runner_main: if self.junit == 4 {
                "JforgeJUnit4Runner"
            } else {
                "JforgeJUnit5Runner"
            },
            first_run_heap_mb: opts.first_run_heap_mb,
            coverage: opts.coverage.as_ref(),
            hits: opts
                .coverage
                .as_ref()
                .map(|c| vec![false; c.total_probes as usize]),
            hits_skipped: self
                .files
                .iter()
                .filter(|f| f.error_suite)
                .map(|f| f.class_name.clone())
                .collect(),
            warnings,
            jvms: 0,
        })
    }

    /// Class path of the runner runs (instrumented classes, runner, tests, user, JUnit), and
    /// of the console launcher run when there is one (the same plus the listener's services
    /// folder and the launcher).
    fn run_class_paths(
        &self,
        runner: &RunnerClasses,
    ) -> Result<(std::ffi::OsString, Option<std::ffi::OsString>)> {
        let mut cp_entries: Vec<PathBuf> = Vec::new();
        if let Some(c) = &self.opts.coverage {
            cp_entries.push(c.class_dir.clone());
        }
        cp_entries.push(runner.classes.clone());
        cp_entries.push(self.classes.clone());
        cp_entries.extend(self.user_cp.iter().cloned());
        cp_entries.extend(self.junit_cp.iter().cloned());
        let run_cp = join_cp(&[&cp_entries])?;
        let console_cp = match (&runner.services, self.console()) {
            (Some(svc), Some(extra)) => {
                let mut v = cp_entries.clone();
                v.push(svc.clone());
                v.extend(extra.iter().cloned());
                Some(join_cp(&[&v])?)
            }
            _ => None,
        };
        Ok((run_cp, console_cp))
    }

    /// Runs 2 to 4 (run 4 when the console launcher is there) on the candidates left by the
    /// runs before, until none is left or the time budget has run out. A run that reports
    /// nothing at all is a setup problem, not a thousand failures: it is skipped with a
    /// warning.
    fn later_runs(
        &self,
        env: &mut Env,
        verdicts: &mut Verdicts,
        class_sizes: &HashMap<&str, usize>,
        timings: &mut Vec<(String, Duration)>,
    ) -> Result<()> {
        let mut later = vec![
            (Run::IdentityHash, FailureCause::IdentityHash),
            (Run::Reverse, FailureCause::ReverseOrder),
        ];
        if env.console_cp.is_some() {
            later.push((Run::Console, FailureCause::ConsoleLauncher));
        }
        if env.slow_clock.is_some() {
            later.push((Run::SlowClock, FailureCause::SlowClock));
        }
        for (run, cause) in later {
            if verdicts.candidates.is_empty() {
                break;
            }
            if self.opts.deadline.is_some_and(|d| Instant::now() >= d) {
                env.warnings.push(format!(
                    "the time budget ran out before {}; it and the later runs were skipped",
                    run.name()
                ));
                break;
            }
            let order: Vec<Key> = if run == Run::Reverse {
                verdicts.candidates.iter().rev().cloned().collect()
            } else {
                verdicts.candidates.clone()
            };
            let (r, reported_any) = timed_run(env, run, &order, class_sizes, timings)?;
            if !reported_any {
                // A launcher that reports nothing at all is a setup problem, not 1000 failures.
                let why = order
                    .iter()
                    .find_map(|k| r.get(k).and_then(|o| o.failure.as_ref()))
                    .map(|(_, m)| m.as_str())
                    .unwrap_or("");
                env.warnings.push(format!(
                    "{} reported no test at all and was skipped: {why}",
                    run.name()
                ));
                continue;
            }
            verdicts.judge_later_run(run, cause, r);
        }
        Ok(())
    }
}

/// Copies of the written test files, compiled by javac: failing methods get blanked out
/// between javac rounds (lines kept, so javac's line numbers stay valid).
struct TestSources<'a> {
    files: &'a [WrittenFile],
    /// Per file, its lines as they are compiled next.
    lines: Vec<Vec<String>>,
    /// Per file, the path of its copy (`<tmp>/src/<file index>/<file name>`).
    copies: Vec<PathBuf>,
}

impl<'a> TestSources<'a> {
    /// Reads the written files and makes the folders of their copies.
    fn copy(files: &'a [WrittenFile], tmp: &Path) -> Result<TestSources<'a>> {
        let mut lines: Vec<Vec<String>> = Vec::with_capacity(files.len());
        let mut copies: Vec<PathBuf> = Vec::with_capacity(files.len());
        for (i, f) in files.iter().enumerate() {
            let text = std::fs::read_to_string(&f.path).with_context(|| {
                format!("cannot read the written test file {}", f.path.display())
            })?;
            lines.push(text.lines().map(str::to_string).collect());
            let name = f
                .path
                .file_name()
                .ok_or_else(|| anyhow!("{} is not a file name", f.path.display()))?;
            let dir = tmp.join("src").join(i.to_string());
            std::fs::create_dir_all(&dir).context("cannot create a temporary folder")?;
            copies.push(dir.join(name));
        }
        Ok(TestSources {
            files,
            lines,
            copies,
        })
    }

    /// Writes the copies as they are now.
    fn write(&self) -> Result<()> {
        for (src, copy) in self.lines.iter().zip(&self.copies) {
            let mut text = src.join("\n");
            text.push('\n');
            std::fs::write(copy, text).context("cannot write to the temporary folder")?;
        }
        Ok(())
    }

    /// Maps the errors of a failed javac round to test methods, adding their messages to
    /// `broken`; returns the methods that failed for the first time. An error outside every
    /// test method, or again in a blanked-out one, is an `Err`.
    fn blame(&self, out: &str, broken: &mut BrokenMethods) -> Result<Vec<(usize, usize)>> {
        let files = self.files;
        let errs = parse_javac_errors(out);
        if errs.is_empty() {
            bail!("javac failed on the generated tests without a usable error message:\n{out}");
        }
        let mut new_broken = Vec::new();
        for (file, line, msg) in errs {
            let Some(fi) = self.file_index(&file) else {
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
        Ok(new_broken)
    }

    /// The index of the copy javac names `file` (as given, or the same file by another path).
    fn file_index(&self, file: &str) -> Option<usize> {
        let copies = &self.copies;
        copies
            .iter()
            .position(|c| Path::new(file) == c.as_path())
            .or_else(|| {
                let canon = std::fs::canonicalize(file).ok()?;
                copies
                    .iter()
                    .position(|c| std::fs::canonicalize(c).ok().as_deref() == Some(canon.as_path()))
            })
    }

    /// Blanks out the lines of these test methods.
    fn blank(&mut self, methods: &[(usize, usize)]) {
        for &(fi, ti) in methods {
            let (a, b) = self.files[fi].tests[ti].lines;
            for l in a..=b {
                if let Some(s) = self.lines[fi].get_mut(l - 1) {
                    s.clear();
                }
            }
        }
    }
}

/// How many compiled tests each test class has.
fn class_sizes(all: &[Key]) -> HashMap<&str, usize> {
    let mut class_sizes: HashMap<&str, usize> = HashMap::new();
    for (c, _) in all {
        *class_sizes.entry(c.as_str()).or_insert(0) += 1;
    }
    class_sizes
}

/// [`run_tests`], recording the run's wall time and number of JVMs as a phase.
fn timed_run(
    env: &mut Env,
    run: Run,
    tests: &[Key],
    class_sizes: &HashMap<&str, usize>,
    timings: &mut Vec<(String, Duration)>,
) -> Result<(HashMap<Key, Outcome>, bool)> {
    let t0 = Instant::now();
    let jvms = env.jvms;
    let results = run_tests(env, run, tests, class_sizes)?;
    timed(
        timings,
        format!(
            "{}: {} tests, {} JVMs",
            run.name(),
            tests.len(),
            env.jvms - jvms
        ),
        t0.elapsed(),
    );
    Ok(results)
}

/// A failure of test `k`.
fn test_failure(
    k: &Key,
    exception_class: String,
    message: String,
    cause: FailureCause,
) -> TestFailure {
    TestFailure {
        class_name: k.0.clone(),
        method: k.1.clone(),
        exception_class,
        message,
        cause,
        line: None,
    }
}

/// What the runs of a check have decided so far.
#[derive(Default)]
struct Verdicts {
    /// The tests found failing, and why.
    verdict: HashMap<Key, TestFailure>,
    /// Each test's time in its fastest run, in ns.
    fastest: HashMap<Key, u64>,
    /// Candidates and their run-1 failure (None: passed).
    first: HashMap<Key, Option<(String, String)>>,
    /// The tests that passed (or, in error suites, failed in an ordinary way) in every run so
    /// far, in run 1's order.
    candidates: Vec<Key>,
}

impl Verdicts {
    /// Sorts run 1's outcomes: out of memory, hung, too much allocated and failed are
    /// verdicts; passed, and error-suite tests failing in an ordinary way, are candidates.
    fn judge_first_run(
        &mut self,
        mut r1: HashMap<Key, Outcome>,
        all: &[Key],
        error_suite: &HashSet<Key>,
        max_test_bytes: u64,
    ) {
        for k in all {
            let o = r1.remove(k).unwrap_or_else(|| {
                Outcome::fail(NO_RESULT, "the runner never reported on this test".into())
            });
            if let Some(n) = o.nanos {
                self.fastest.insert(k.clone(), n);
            }
            let too_big = o.bytes.is_some_and(|b| b > max_test_bytes);
            match o.failure {
                Some((exc, msg)) if is_oom(&exc) => {
                    self.verdict.insert(
                        k.clone(),
                        test_failure(k, exc, msg, FailureCause::TooMuchMemory),
                    );
                }
                Some((exc, msg)) if exc == TIMEOUT => {
                    self.verdict
                        .insert(k.clone(), test_failure(k, exc, msg, FailureCause::TimedOut));
                }
                _ if too_big => {
                    let mb = o.bytes.unwrap_or(0) >> 20;
                    self.verdict.insert(
                        k.clone(),
                        test_failure(
                            k,
                            TOO_MUCH_MEMORY.into(),
                            format!(
                                "the test's thread allocated {mb} MB; the limit is {} MB",
                                max_test_bytes >> 20
                            ),
                            FailureCause::TooMuchMemory,
                        ),
                    );
                }
                Some((exc, msg))
                    if error_suite.contains(k) && exc != JVM_EXIT && exc != NO_RESULT =>
                {
                    // An error-revealing test fails by design; later runs check it fails alike.
                    self.first.insert(k.clone(), Some((exc, msg)));
                    self.candidates.push(k.clone());
                }
                Some((exc, msg)) => {
                    self.verdict
                        .insert(k.clone(), test_failure(k, exc, msg, FailureCause::Failed));
                }
                None => {
                    self.first.insert(k.clone(), None);
                    self.candidates.push(k.clone());
                }
            }
        }
    }

    /// Keeps the candidates that ended in `run` as in run 1 (passed, or failed with the same
    /// exception class); the others fail with `cause` (or as out of memory).
    fn judge_later_run(&mut self, run: Run, cause: FailureCause, mut r: HashMap<Key, Outcome>) {
        self.candidates.retain(|k| {
            let o = r.remove(k).unwrap_or_else(|| {
                Outcome::fail(NO_RESULT, "the runner never reported on this test".into())
            });
            if let Some(n) = o.nanos {
                let f = self.fastest.entry(k.clone()).or_insert(n);
                *f = (*f).min(n);
            }
            let was = self.first.get(k).cloned().flatten();
            let line = o.line;
            let (exc, msg) = match (o.failure, was) {
                (None, None) => return true,
                (Some(now), Some((then, _))) if now.0 == then => return true,
                // An error test that passes only when every identity hash is 1 reveals a
                // defect that needs distinct identity hashes (`equals` without `hashCode`):
                // it fails in every ordinary JVM, which the other runs check.
                (None, Some(_)) if cause == FailureCause::IdentityHash => return true,
                (Some(now), _) => now,
                (None, Some((then, _))) => (
                    INCONSISTENT.to_string(),
                    format!("failed with {then} in run 1 but passed in {}", run.name()),
                ),
            };
            let cause = if is_oom(&exc) {
                FailureCause::TooMuchMemory
            } else {
                cause
            };
            let mut f = test_failure(k, exc, msg, cause);
            f.line = line;
            self.verdict.insert(k.clone(), f);
            false
        });
    }

    /// The candidates left after every run: too slow in their fastest run, or error-suite
    /// tests reported with their run-1 failure.
    fn judge_remaining_candidates(&mut self, slow_test: Duration) {
        for k in std::mem::take(&mut self.candidates) {
            if let Some(&n) = self.fastest.get(&k)
                && n > slow_test.as_nanos() as u64
            {
                self.verdict.insert(
                    k.clone(),
                    test_failure(
                        &k,
                        TOO_SLOW.into(),
                        format!(
                            "the test took {} ms in its fastest run; the limit is {} ms",
                            n / 1_000_000,
                            slow_test.as_millis()
                        ),
                        FailureCause::TooSlow,
                    ),
                );
            } else if let Some(Some((exc, msg))) = self.first.remove(&k) {
                self.verdict
                    .insert(k.clone(), test_failure(&k, exc, msg, FailureCause::Failed));
            }
        }
    }

    /// Puts each of `all` into `test_failures` or `passed`, in declaration order.
    fn sort_out(mut self, all: Vec<Key>, validation: &mut Validation) {
        for k in all {
            match self.verdict.remove(&k) {
                Some(f) => validation.test_failures.push(f),
                None => validation.passed.push(k),
            }
        }
    }
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
}
