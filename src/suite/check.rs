//! The end of the suite stage every generator shares: write the tests (to the run's staging
//! folder), compile and run them with javac and JUnit the way a build would, remove what does
//! not compile or pass (and error tests that do not fail for their stated reason), and
//! repeat until clean, within the time budget.
//!
//! Why shared: `exhaustive --output-dir` once wrote suites that were never compiled or run.

use crate::emit::junit::CONTRACT_MESSAGE;
use crate::emit::output::RunOutput;
use crate::emit::validate::{
    CheckOptions, ClockRun, CoverageRun, FailureCause, Validation, compile_and_run_with,
    find_junit, removed_by_cause,
};
use crate::emit::{Asserted, Ending, TestCase, WrittenFile};
use crate::report::ValidationSummary;
use crate::sequence::OpTable;
use anyhow::Result;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How the written suite is checked.
pub struct CheckSettings<'a> {
    pub javac: Option<&'a Path>,
    pub java: &'a Path,
    pub user_cp: &'a [PathBuf],
    pub junit: u8,
    pub junit_classpath: Option<&'a str>,
    /// `--no-validate`: write without checking.
    pub skip: bool,
    pub quiet: bool,
    /// With coverage: measure the written suite on these instrumented classes.
    pub coverage: Option<CoverageRun>,
    /// With rewritten clock reads: run the suite once more under a slowed clock and drop the
    /// assertions that fail there.
    pub clock: Option<ClockRun>,
    /// The check may not run past this (the finishing budget).
    pub deadline: Option<Instant>,
    /// Compile the tests for this Java release (`SuiteSettings::test_release`).
    pub release: Option<u32>,
    /// The JDK's home and feature release: with `release`, where the older release's API is
    /// read (`model::release`).
    pub jdk: (&'a Path, u32),
    /// The session's warm javac, when the command started one (`Session::start_javac`, `Session::use_javac`).
    pub javac_server: Option<std::sync::Arc<crate::emit::validate::JavacServer>>,
}

impl<'a> CheckSettings<'a> {
    /// The check of a command's suite: the session's JDK and class path, the suite settings
    /// (`--junit`, `--junit-classpath`, `--no-validate`, the release of `--project`); no coverage, clock or deadline
    /// (a command that has them sets those fields on top).
    pub fn of(
        session: &'a crate::session::Session,
        suite: &'a crate::settings::SuiteSettings,
        quiet: bool,
    ) -> CheckSettings<'a> {
        if !suite.no_validate {
            // Warm from the second javac round on (a command may have started it earlier).
            session.start_javac(false);
        }
        CheckSettings {
            javac: session.java.javac.as_deref(),
            java: &session.java.java,
            user_cp: &session.entries,
            junit: suite.junit,
            junit_classpath: suite.junit_classpath.as_deref(),
            skip: suite.no_validate,
            quiet,
            coverage: None,
            clock: None,
            deadline: None,
            release: suite.test_release,
            jdk: (&session.java.home, session.java.version),
            javac_server: session.javac_server(),
        }
    }
}

/// What was written and kept.
pub struct Checked {
    pub files: Vec<WrittenFile>,
    pub validation: ValidationSummary,
    /// Indices (into the slices given) of the regression and error tests kept.
    pub regression: Vec<usize>,
    pub errors: Vec<usize>,
    /// The regression tests kept, as written: those of `regression`, less the assertions the
    /// slow-clock run dropped.
    pub regression_tests: Vec<TestCase>,
}

/// Sets the class each expected exception is caught as, when the Java release the tests
/// compile for lacks the class thrown: its nearest superclass there (Commons Lang, release 8:
/// `InaccessibleObjectException`, Java 9, is caught as `RuntimeException`). Before this, the
/// check removed those tests for not compiling, and what they covered went with them. A
/// class whose chain ct.sym does not know stays as it is (the check then removes its test).
fn catch_in_release(cases: &mut [TestCase], (home, jdk): (&Path, u32), release: u32) -> Result<()> {
    use crate::model::release::{ReleaseApi, is_jdk_class};
    if !cases.iter().any(
        |c| matches!(&c.ending, Ending::ExpectedException { class, .. } if is_jdk_class(class)),
    ) {
        return Ok(());
    }
    let Some(mut api) = ReleaseApi::open(home, jdk, release)? else {
        return Ok(());
    };
    for c in cases {
        if let Ending::ExpectedException {
            class, catch_as, ..
        } = &mut c.ending
            && is_jdk_class(class)
            && let Some(k) = api.nearest_class(class)
            && k != *class
            // a catch of Throwable or Error would also catch the `fail(..)` before it
            && !matches!(k.as_str(), "java.lang.Throwable" | "java.lang.Error")
        {
            *catch_as = Some(k);
        }
    }
    Ok(())
}

/// Writes `regression` and `errors` through `out` and checks them (see the module doc).
pub fn write_and_check(
    out: &mut RunOutput,
    table: &OpTable,
    owner_class: &[Option<String>],
    classes: &[String],
    regression: &[TestCase],
    errors: &[TestCase],
    settings: &CheckSettings,
) -> Result<Checked> {
    let mut in_release;
    let regression = match settings.release {
        Some(r) => {
            in_release = regression.to_vec();
            catch_in_release(&mut in_release, settings.jdk, r)?;
            &in_release[..]
        }
        None => regression,
    };
    let files = out.write(table, owner_class, classes, regression, errors)?;
    let mut suite = WrittenSuite {
        out,
        table,
        owner_class,
        classes,
        regression: regression.to_vec(),
        errors,
        keep_reg: (0..regression.len()).collect(),
        keep_err: (0..errors.len()).collect(),
        files,
    };
    let mut validation = ValidationSummary::default();
    if suite.files.is_empty() {
        validation.skipped = Some("no tests were generated".into());
        validation.clean = true;
    } else if settings.skip {
        validation.skipped = Some("--no-validate".into());
    } else {
        match (
            settings.javac,
            find_junit(settings.junit, settings.junit_classpath),
        ) {
            (None, _) => {
                validation.skipped =
                    Some("no javac in the JDK: point --java at a JDK, not a JRE".into())
            }
            (_, Err(e)) => {
                eprintln!("warning: the written tests were not checked: {e:#}");
                validation.skipped = Some(format!("{e:#}"));
            }
            (Some(javac), Ok(junit_cp)) => {
                suite.check(javac, &junit_cp, settings, &mut validation)?;
            }
        }
    }
    Ok(Checked {
        regression_tests: pick(&suite.regression, &suite.keep_reg),
        files: suite.files,
        validation,
        regression: suite.keep_reg,
        errors: suite.keep_err,
    })
}

/// The tests given to [`write_and_check`], which of them are kept so far, and the files
/// written from those.
struct WrittenSuite<'a> {
    out: &'a mut RunOutput,
    table: &'a OpTable,
    owner_class: &'a [Option<String>],
    classes: &'a [String],
    /// The regression tests given, less the assertions dropped so far.
    regression: Vec<TestCase>,
    errors: &'a [TestCase],
    /// Indices into `regression` and `errors` of the tests kept so far.
    keep_reg: Vec<usize>,
    keep_err: Vec<usize>,
    files: Vec<WrittenFile>,
}

/// The tests of `all` at the indices `keep`.
fn pick(all: &[TestCase], keep: &[usize]) -> Vec<TestCase> {
    keep.iter().map(|&i| all[i].clone()).collect()
}

/// The longest the test JVM may go without progress: 600 s, and with a time limit no longer
/// than the finishing budget has left (at least 5 s).
fn run_timeout(deadline: Option<Instant>) -> Duration {
    deadline.map_or(Duration::from_secs(600), |d| {
        d.saturating_duration_since(Instant::now())
            .clamp(Duration::from_secs(5), Duration::from_secs(600))
    })
}

impl WrittenSuite<'_> {
    /// Checks the written files and removes what does not pass, in up to 3 rounds, until a
    /// round removes nothing or the time budget has run out.
    fn check(
        &mut self,
        javac: &Path,
        junit_cp: &[PathBuf],
        settings: &CheckSettings,
        validation: &mut ValidationSummary,
    ) -> Result<()> {
        if !settings.quiet {
            eprintln!("Checking the written tests with javac and JUnit...");
        }
        let mut check = CheckOptions::new(settings.junit, junit_cp);
        check.coverage = settings.coverage.clone();
        check.clock = settings.clock.clone();
        check.deadline = settings.deadline;
        check.release = settings.release;
        check.javac_server = settings.javac_server.clone();
        // One more round than removals need: a round that drops slow-clock assertions
        // writes the tests again, and they are checked again.
        for round in 0..4 {
            let run_timeout = run_timeout(settings.deadline);
            if round > 0 && settings.deadline.is_some_and(|d| Instant::now() >= d) {
                // The failing tests are already removed; the rest passed last round.
                validation.budget_cut = true;
                break;
            }
            let mut v = compile_and_run_with(
                javac,
                settings.java,
                settings.user_cp,
                junit_cp,
                &self.files,
                settings.junit,
                run_timeout,
                &check,
            )?;
            for w in &v.warnings {
                eprintln!("warning: {w}");
            }
            let current_errors = pick(self.errors, &self.keep_err);
            let (mut bad_reg, bad_err) = judge(&self.files, &v, &current_errors);
            let edits = clock_edits(&self.files, &v, &mut bad_reg);
            validation.slow_clock_assertions += edits.len();
            tally_round(validation, &self.files, &mut v, &bad_reg, &bad_err);
            validation.rounds = round + 1;
            if bad_reg.is_empty() && bad_err.is_empty() && edits.is_empty() {
                validation.clean = true;
                break;
            }
            for (k, a) in edits {
                let i = self.keep_reg[k];
                self.regression[i] = self.regression[i].without(a);
            }
            self.remove(&bad_reg, &bad_err)?;
        }
        Ok(())
    }

    /// Drops the tests at these positions (in the kept tests' order, as written) and writes
    /// the rest again.
    fn remove(&mut self, bad_reg: &HashSet<usize>, bad_err: &HashSet<usize>) -> Result<()> {
        self.keep_reg = std::mem::take(&mut self.keep_reg)
            .into_iter()
            .enumerate()
            .filter(|(k, _)| !bad_reg.contains(k))
            .map(|(_, i)| i)
            .collect();
        self.keep_err = std::mem::take(&mut self.keep_err)
            .into_iter()
            .enumerate()
            .filter(|(k, _)| !bad_err.contains(k))
            .map(|(_, i)| i)
            .collect();
        self.files = self.out.write(
            self.table,
            self.owner_class,
            self.classes,
            &pick(&self.regression, &self.keep_reg),
            &pick(self.errors, &self.keep_err),
        )?;
        Ok(())
    }
}

/// The regression tests that failed only under the slowed clock at a line holding one of
/// their assertions: (written test's case, that assertion). They leave `bad_reg` (the
/// assertion goes, the test stays); one that failed elsewhere is removed whole.
fn clock_edits(
    files: &[WrittenFile],
    v: &Validation,
    bad_reg: &mut HashSet<usize>,
) -> Vec<(usize, Asserted)> {
    let mut edits = Vec::new();
    for f in v
        .test_failures
        .iter()
        .filter(|f| f.cause == FailureCause::SlowClock)
    {
        let Some(line) = f.line else { continue };
        let found = files
            .iter()
            .filter(|w| !w.error_suite && w.class_name == f.class_name)
            .flat_map(|w| &w.tests)
            .find(|t| t.method == f.method)
            .and_then(|t| {
                let a = t.assertions.iter().find(|(l, _)| *l == line)?;
                Some((t.case, a.1))
            });
        if let Some((case, a)) = found
            && bad_reg.remove(&case)
        {
            edits.push((case, a));
        }
    }
    edits
}

/// Adds one round's check to the summary: what it removes by cause and in all, the suite's
/// coverage and the tests that passed.
fn tally_round(
    validation: &mut ValidationSummary,
    files: &[WrittenFile],
    v: &mut Validation,
    bad_reg: &HashSet<usize>,
    bad_err: &HashSet<usize>,
) {
    let removed = removed_by_cause(files, v, |err, case| {
        if err { bad_err } else { bad_reg }.contains(&case)
    });
    for (cause, n) in removed {
        *validation.removed_by_cause.entry(cause).or_default() += n;
    }
    validation.suite_hits = v.suite_hits.take();
    validation.compile_removed += v.compile_failures.len();
    for (class, method, msgs) in &v.compile_failures {
        if validation.compile_errors.len() < crate::report::COMPILE_ERRORS_LISTED {
            validation
                .compile_errors
                .push(format!("{class}.{method}: {}", first_compile_error(msgs)));
        }
    }
    validation.failing_removed += bad_reg.len();
    validation.error_tests_removed += bad_err.len();
    validation.passed = v.passed.len();
}

/// Which written tests must go: regression tests that did not compile or did not pass, error
/// tests that did not compile or did not fail for their stated reason. Indices are the
/// writer's (`WrittenTest::case`).
fn judge(
    files: &[WrittenFile],
    v: &Validation,
    errors: &[TestCase],
) -> (HashSet<usize>, HashSet<usize>) {
    let mut loc: BTreeMap<(String, String), (bool, usize)> = BTreeMap::new();
    for f in files {
        for t in &f.tests {
            loc.insert(
                (f.class_name.clone(), t.method.clone()),
                (f.error_suite, t.case),
            );
        }
    }
    let mut bad_reg = HashSet::new();
    let mut bad_err = HashSet::new();
    let mut mark = |key: (String, String), ok_if_error: Option<&dyn Fn(usize) -> bool>| {
        if let Some(&(is_err, case)) = loc.get(&key) {
            match (is_err, ok_if_error) {
                (false, _) => {
                    bad_reg.insert(case);
                }
                (true, Some(ok)) if ok(case) => {}
                (true, _) => {
                    bad_err.insert(case);
                }
            }
        }
    };
    for (c, m, _) in &v.compile_failures {
        mark((c.clone(), m.clone()), None);
    }
    for f in &v.test_failures {
        let expected = |case: usize| match errors.get(case).map(|e| &e.ending) {
            Some(Ending::ErrorContract { contract, .. }) => f
                .message
                .starts_with(&format!("{CONTRACT_MESSAGE}{}", contract.name())),
            Some(Ending::ErrorException { contract, .. }) => f
                .message
                .starts_with(&format!("{CONTRACT_MESSAGE}{contract}")),
            // A --check counterexample: an observer assertion that fails.
            Some(Ending::Normal) => f.exception_class.contains("Assertion"),
            _ => false,
        };
        mark((f.class_name.clone(), f.method.clone()), Some(&expected));
    }
    // Error tests that passed reveal nothing.
    for (c, m) in &v.passed {
        if let Some(&(true, case)) = loc.get(&(c.clone(), m.clone())) {
            bad_err.insert(case);
        }
    }
    (bad_reg, bad_err)
}

/// javac's first message in `msgs` without the file's path (`Foo.java:42: cannot find
/// symbol`), with the `symbol:` line that names what is missing, when there is one.
fn first_compile_error(msgs: &str) -> String {
    let mut lines = msgs.lines().map(str::trim);
    let first = lines.next().unwrap_or("");
    let first = first
        .rfind('/')
        .map_or(first, |i| &first[i + 1..])
        .to_string();
    match lines.find(|l| l.starts_with("symbol:")) {
        Some(sym) => format!("{first} ({sym})"),
        None => first,
    }
}
