//! One check, step by step: the runner, javac rounds, run 1 and the later runs on what is
//! still a candidate, the verdicts; with each phase's wall time (`JFORGE_TIMING=1` prints
//! them).

use super::javac::{
    BrokenMethods, TestSources, join_cp, level_flags, level_refused, no_junit_api, run_javac,
};
use super::jvm::{Env, Key, Outcome, Run, run_tests};
use super::options::CheckOptions;
use super::result::{FailureCause, Validation};
use super::runner::{RunnerClasses, prepare_runner};
use super::verdicts::Verdicts;
use crate::emit::WrittenFile;
use anyhow::{Context, Result, bail};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    if files.is_empty() {
        // Nothing to check: a round after the last file's every test was removed (javac
        // would refuse to run with "no source files", and the whole run failed with it).
        return Ok(Validation::default());
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
        && super::options::timing_on()
    {
        eprintln!(
            "jforge timing: the suite hit {} of {} coverage probes",
            h.iter().filter(|x| **x).count(),
            h.len()
        );
    }
}

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
        let mut levels = level_flags(self.opts.release).into_iter();
        let mut level = levels.next().unwrap_or_default();
        let mut round = 0;
        while round < 20 {
            let t0 = Instant::now();
            sources.write()?;
            let (ok, out) = run_javac(
                self.javac,
                self.opts.javac_server.as_deref(),
                &compile_cp,
                &self.classes,
                &sources.copies,
                &level,
            )?;
            timed(
                &mut validation.timings,
                format!("javac round {} ({} files)", round + 1, sources.copies.len()),
                t0.elapsed(),
            );
            if ok {
                compiled = true;
                break;
            }
            if !level.is_empty() && level_refused(&out) {
                // This javac cannot compile for the release so: the next flags, else none.
                level = levels.next().unwrap_or_default();
                if level.is_empty() {
                    validation.warnings.push(format!(
                        "the tests were compiled for the JDK's own Java release: its javac refuses release {} (javac said: {})",
                        self.opts.release.unwrap_or_default(),
                        out.lines().next().unwrap_or("").trim()
                    ));
                }
                continue;
            }
            round += 1;
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
        let (run_cp, plain_cp, console_cp) = self.run_class_paths(runner)?;
        let slow_clock = match &self.opts.clock {
            Some(c) => {
                let mut cp = std::ffi::OsString::from(c.class_dir.as_os_str());
                cp.push(":");
                cp.push(&plain_cp);
                Some((cp, c.jvm_args.clone()))
            }
            None => None,
        };
        // `-Djava.security.manager=allow` lets the runner block System.exit on JDK 18+; JDKs
        // before 12 would read it as a class name and fail to start, and JDK 24+ (JEP 486)
        // refuse to start with it, so it is passed only on 12..=23. Without it a test that
        // exits is still caught: its missing result is reported as <jvm-exit>.
        let allow_sm = jdk_feature_version(self.java).is_some_and(|v| (12..24).contains(&v));
        let mut reverse_cp = self.shadow_folder()?.into_os_string();
        reverse_cp.push(":");
        reverse_cp.push(&plain_cp);
        let opts = self.opts;
        Ok(Env {
            java: self.java,
            tmp: self.tmp,
            junit: self.junit,
            run_timeout: self.run_timeout,
            allow_sm,
            run_cp,
            plain_cp,
            reverse_cp,
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
            files_tag: String::new(),
        })
    }

    /// The folder run 3 puts first on its class path: for each package of the written
    /// tests (the packages of the classes under test), a folder holding one marker file. A
    /// build puts its test-classes folder, which holds the same packages, before its classes,
    /// so a class-path lookup of a package folder (`getResource("")`, a loader reading a
    /// folder as a resource) finds another folder there than in run 1: Commons DbUtils'
    /// `QueryLoader.instance().load("")` read the package folder's listing as properties and a
    /// test asserted its size, 27 in jforge's check and 47 in `mvn verify`. Such a test
    /// differs in run 3 and is removed; a lookup of a file falls through to the real folders.
    fn shadow_folder(&self) -> Result<PathBuf> {
        let root = self.tmp.join("shadow");
        for f in self.files {
            let dir = match f.class_name.rsplit_once('.') {
                Some((pkg, _)) => root.join(pkg.replace('.', "/")),
                None => root.clone(),
            };
            std::fs::create_dir_all(&dir).context("cannot create a temporary folder")?;
            std::fs::write(dir.join("jforge-class-path-layout.txt"), "")
                .context("cannot write to the temporary folder")?;
        }
        std::fs::create_dir_all(&root).context("cannot create a temporary folder")?;
        Ok(std::path::absolute(&root).unwrap_or(root))
    }

    /// Class paths of run 1 (instrumented classes, runner, tests, user, JUnit), of the other
    /// runner runs (the same without the instrumented classes), and of the console launcher
    /// run when there is one (the latter plus the listener's services folder and the
    /// launcher).
    fn run_class_paths(
        &self,
        runner: &RunnerClasses,
    ) -> Result<(
        std::ffi::OsString,
        std::ffi::OsString,
        Option<std::ffi::OsString>,
    )> {
        let mut cp_entries: Vec<PathBuf> = vec![runner.classes.clone(), self.classes.clone()];
        cp_entries.extend(self.user_cp.iter().cloned());
        cp_entries.extend(self.junit_cp.iter().cloned());
        let plain_cp = join_cp(&[&cp_entries])?;
        let instrumented: Vec<PathBuf> = self
            .opts
            .coverage
            .iter()
            .map(|c| c.class_dir.clone())
            .chain(cp_entries.iter().cloned())
            .collect();
        let run_cp = join_cp(&[&instrumented])?;
        let console_cp = match (&runner.services, self.console()) {
            (Some(svc), Some(extra)) => {
                let mut v = cp_entries.clone();
                v.push(svc.clone());
                v.extend(extra.iter().cloned());
                Some(join_cp(&[&v])?)
            }
            _ => None,
        };
        Ok((run_cp, plain_cp, console_cp))
    }

    /// Runs 2 to 5 (run 4 when the console launcher is there, run 5 with the slowed clock)
    /// on the candidates left by run 1, side by side in as many JVMs at a time as the machine
    /// has cores (more were no faster on 2 cores), until the time budget has run out; their
    /// verdicts are then applied in their order, so a test failing two of them fails with the
    /// first's cause, as when they ran one after another (TreeMap's 665 tests: 1.7 s -> 1.3 s
    /// on 2 cores). A run that reports nothing at all is a setup problem, not a thousand
    /// failures: it is skipped with a warning.
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
        if verdicts.candidates.is_empty() {
            return Ok(());
        }
        let runs = self.run_side_by_side(env, &later, &verdicts.candidates, class_sizes)?;
        let mut skipped = false;
        for ((run, cause), LaterRun { env: forked, made }) in later.into_iter().zip(runs) {
            if let Some((_, n, elapsed)) = &made {
                let what = format!("{}: {n} tests, {} JVMs", run.name(), forked.jvms);
                timed(timings, what, *elapsed);
            }
            env.join(forked);
            let Some((r, _, _)) = made else {
                if !skipped {
                    env.warnings.push(format!(
                        "the time budget ran out before {}; it and the later runs were skipped",
                        run.name()
                    ));
                }
                skipped = true;
                continue;
            };
            let (r, reported_any) = r?;
            if !reported_any {
                // A launcher that reports nothing at all is a setup problem, not 1000 failures.
                let why = verdicts
                    .candidates
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

    /// Runs `later` on `candidates`, each in a fork of `env`, as many at a time as there are
    /// cores; a run whose turn comes after the deadline is skipped. In `later`'s order.
    fn run_side_by_side(
        &self,
        env: &Env<'a>,
        later: &[(Run, FailureCause)],
        candidates: &[Key],
        class_sizes: &HashMap<&str, usize>,
    ) -> Result<Vec<LaterRun<'a>>> {
        let side_by_side = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .clamp(1, later.len());
        let next = std::sync::atomic::AtomicUsize::new(0);
        let deadline = self.opts.deadline;
        let slots: Vec<std::sync::Mutex<Option<LaterRun<'a>>>> =
            later.iter().map(|_| std::sync::Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            for _ in 0..side_by_side {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        let (Some(slot), Some(&(run, _))) = (slots.get(i), later.get(i)) else {
                            break;
                        };
                        let mut forked = env.fork(&format!("{run:?}"));
                        let made = deadline.is_none_or(|d| Instant::now() < d).then(|| {
                            let order: Vec<Key> = if run == Run::Reverse {
                                candidates.iter().rev().cloned().collect()
                            } else {
                                candidates.to_vec()
                            };
                            let t0 = Instant::now();
                            let r = run_tests(&mut forked, run, &order, class_sizes);
                            (r, order.len(), t0.elapsed())
                        });
                        if let Ok(mut s) = slot.lock() {
                            *s = Some(LaterRun { env: forked, made });
                        }
                    }
                });
            }
        });
        slots
            .into_iter()
            .map(|s| {
                s.into_inner()
                    .ok()
                    .flatten()
                    .context("internal error: a test run's thread ended without a result")
            })
            .collect()
    }
}

/// A later run: its env (forked from the check's), and what it reported, how many tests it
/// was given and how long it took; `None` when the time budget ran out before its turn.
struct LaterRun<'a> {
    env: Env<'a>,
    made: Option<(Result<Reported>, usize, Duration)>,
}

/// What a run reported per test, and whether it reported any test at all (`run_tests`).
type Reported = (HashMap<Key, Outcome>, bool);

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

/// Records a phase's wall time (and prints it with `JFORGE_TIMING=1`).
fn timed(v: &mut Vec<(String, Duration)>, what: String, d: Duration) {
    if super::options::timing_on() {
        eprintln!("jforge timing: {what}: {:.3} s", d.as_secs_f64());
    }
    v.push((what, d));
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

#[cfg(test)]
mod tests {
    use super::*;

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
