//! Running tests in test JVMs: the configurations (`Run`) and their JVM options, the
//! selection of tests for the runner or the console launcher, waiting for progress, and
//! reading what a JVM reported, with the blame for one that died or hung.

use super::options::CoverageRun;
use super::result::{JVM_EXIT, NO_RESULT, TIMEOUT};
use anyhow::{Context, Result, anyhow};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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

/// One configuration the suite runs in (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Run {
    Forward,
    IdentityHash,
    Reverse,
    Console,
    SlowClock,
}

impl Run {
    pub(super) fn name(self) -> &'static str {
        match self {
            Run::Forward => "run 1 (declaration order, small heap)",
            Run::IdentityHash => "run 2 (one identity hash code for all objects)",
            Run::Reverse => "run 3 (reverse order, another class path layout)",
            Run::Console => "run 4 (JUnit console launcher)",
            Run::SlowClock => "run 5 (slowed clock)",
        }
    }
}

pub(super) type Key = (String, String);

/// What one run reported for one test.
#[derive(Clone, Debug)]
pub(super) struct Outcome {
    /// (exception class, message) when it failed.
    pub(super) failure: Option<(String, String)>,
    pub(super) nanos: Option<u64>,
    pub(super) bytes: Option<u64>,
    /// The line of the test method where it failed, when the runner could tell.
    pub(super) line: Option<usize>,
}

impl Outcome {
    pub(super) fn fail(exception_class: &str, message: String) -> Outcome {
        Outcome {
            failure: Some((exception_class.to_string(), message)),
            nanos: None,
            bytes: None,
            line: None,
        }
    }
}

/// What the runs of one check share.
pub(super) struct Env<'a> {
    pub(super) java: &'a Path,
    pub(super) tmp: &'a Path,
    pub(super) junit: u8,
    pub(super) run_timeout: Duration,
    pub(super) allow_sm: bool,
    /// Class path of run 1 (instrumented classes when coverage is measured, runner, tests,
    /// user, JUnit).
    pub(super) run_cp: std::ffi::OsString,
    /// `run_cp` without the instrumented classes: runs 2-4 run the classes under test as the
    /// user's build does. Their coverage is not needed (run 1 ran every candidate, run 5
    /// too), and without `--patch-module` a JDK class's test JVM keeps the JDK's class data
    /// sharing (0.45 s -> 0.6 s per run for TreeMap with the patch).
    pub(super) plain_cp: std::ffi::OsString,
    /// Class path of run 3 (reverse order): `plain_cp` behind a folder that holds, for each
    /// package of the tests, an empty-but-for-a-marker folder (see
    /// `WrittenSuite::shadow_folder`), as a build's test-classes folder stands before its
    /// classes: a test that lists a package folder found on the class path differs there.
    pub(super) reverse_cp: std::ffi::OsString,
    /// Class path of the console launcher run, when there is one.
    pub(super) console_cp: Option<std::ffi::OsString>,
    /// Class path and JVM options of the slow-clock run, when there is one.
    pub(super) slow_clock: Option<(std::ffi::OsString, Vec<String>)>,
    pub(super) runner_main: &'static str,
    pub(super) first_run_heap_mb: u32,
    pub(super) coverage: Option<&'a CoverageRun>,
    pub(super) hits: Option<Vec<bool>>,
    /// Test classes whose hits are not the suite's (error-revealing tests: they are written
    /// apart from the regression suite, and their coverage includes the failing paths).
    pub(super) hits_skipped: std::collections::HashSet<String>,
    pub(super) warnings: Vec<String>,
    pub(super) jvms: usize,
    /// Names this env's files apart from those of envs forked beside it (`fork`).
    pub(super) files_tag: String,
}

impl<'a> Env<'a> {
    /// A copy for a run made beside this env's: the same class paths and options, no hits,
    /// warnings or JVMs of its own yet, and files of its own (tagged `tag`). [`Env::join`]
    /// brings back what it collected.
    pub(super) fn fork(&self, tag: &str) -> Env<'a> {
        Env {
            java: self.java,
            tmp: self.tmp,
            junit: self.junit,
            run_timeout: self.run_timeout,
            allow_sm: self.allow_sm,
            run_cp: self.run_cp.clone(),
            plain_cp: self.plain_cp.clone(),
            reverse_cp: self.reverse_cp.clone(),
            console_cp: self.console_cp.clone(),
            slow_clock: self.slow_clock.clone(),
            runner_main: self.runner_main,
            first_run_heap_mb: self.first_run_heap_mb,
            coverage: self.coverage,
            hits: self.hits.as_ref().map(|h| vec![false; h.len()]),
            hits_skipped: self.hits_skipped.clone(),
            warnings: Vec::new(),
            jvms: 0,
            files_tag: format!("{}{tag}-", self.files_tag),
        }
    }

    /// Adds what a forked env collected: its coverage hits, warnings and JVMs.
    pub(super) fn join(&mut self, other: Env) {
        if let (Some(h), Some(o)) = (self.hits.as_mut(), other.hits) {
            for (a, b) in h.iter_mut().zip(o) {
                *a |= b;
            }
        }
        for w in other.warnings {
            if !self.warnings.contains(&w) {
                self.warnings.push(w);
            }
        }
        self.jvms += other.jvms;
    }
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
    /// The JVM's name in the check: its env's tag and number (`env.jvms` when it started).
    n: String,
    results: PathBuf,
    log: PathBuf,
}

impl JvmFiles {
    /// The files of the check's next test JVM (counted in `env.jvms`).
    fn next(env: &mut Env) -> JvmFiles {
        let n = env.jvms;
        env.jvms += 1;
        let tag = &env.files_tag;
        JvmFiles {
            n: format!("{tag}{n}"),
            results: env.tmp.join(format!("results{tag}{n}.txt")),
            log: env.tmp.join(format!("run{tag}{n}.log")),
        }
    }
}

/// Runs `tests` in this order under `run`, in as many fresh JVMs as deaths require. Returns
/// what was reported per test, and whether the runner reported anything at all.
pub(super) fn run_tests(
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
    // Runs 2-4 run the classes as they are (`Env::plain_cp`).
    if let Some(c) = env
        .coverage
        .filter(|_| matches!(run, Run::Forward | Run::SlowClock))
    {
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
        (_, Run::Reverse) => &env.reverse_cp,
        (_, Run::Forward) => &env.run_cp,
        _ => &env.plain_cp,
    };
    cmd.arg("-cp")
        .arg(cp)
        .arg(env.runner_main)
        .arg(&jvm.results)
        .arg(&order);
    Ok(())
}

/// How long a test JVM may take to report its first line, whatever the run's timeout.
const JVM_START_ALLOWANCE: Duration = Duration::from_secs(60);

/// Waits for the test JVM to end; kills it when its results file has not grown for
/// `run_timeout` (for [`JVM_START_ALLOWANCE`] at least before its first line). Returns its
/// exit status (`None` when killed) and whether it timed out.
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
        // Until the first line, the JVM is starting: loading the runner, the agent, the
        // classes. Under load that alone took longer than the 5 s a spent budget leaves, and
        // every test of the suite was blamed as hung (Commons CSV at load 30: 667 of 668).
        let limit = if reported == 0 {
            env.run_timeout.max(JVM_START_ALLOWANCE)
        } else {
            env.run_timeout
        };
        if last_progress.elapsed() >= limit {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescapes_runner_fields() {
        assert_eq!(unescape("a\\tb\\nc\\\\d"), "a\tb\nc\\d");
    }
}
