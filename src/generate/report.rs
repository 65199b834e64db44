//! The end of a `jforge gen` run: its figures (the strategy stats of the `--stats-json`
//! envelope, see `crate::report`) and the summary table on the terminal.

use crate::emit::output::OutputSummary;
use crate::emit::{Ending, TestCase, WrittenFile};
use crate::generate::finish::{ErrorTest, FinishStats};
use crate::generate::ops::{OpSet, SkipReason};
use crate::generate::random::{Generator, Incident, Progress, crash_name};
use crate::report::{StopReason, ValidationSummary, name_list, own_peak_rss_kb, skipped_lines};
use crate::runner::PoolStats;
use comfy_table::{Table, presets::UTF8_BORDERS_ONLY};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Duration;

#[derive(Debug, Default, Clone, Serialize)]
pub struct ClassRow {
    pub class: String,
    pub operations: usize,
    pub covered: usize,
    /// Sequences generation ran that end with an operation of the class (its share of the
    /// run).
    pub sequences: u64,
    pub regression_tests: usize,
    pub error_tests: usize,
    pub errors_by_contract: BTreeMap<String, usize>,
    pub timeouts: u64,
    pub crashes: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct ErrorRow {
    pub class: String,
    /// The operation where the shortest test shows it.
    pub operation: String,
    pub contract: String,
    /// What breaks: an object contract is a defect of its class, an exception contract of
    /// its operation.
    pub kind: DefectKind,
    pub occurrences: u64,
    /// Operations through which it showed (constructors and methods producing a breaking
    /// value, or the throwing operation).
    pub routes: usize,
    pub statements: usize,
    /// Why the test is believed: the class and method whose code broke the contract (the
    /// top frame in the violating value's class for an object contract, in a class under
    /// test for an exception) and its line, when known; no argument object was involved
    /// (those are set aside, see [`Report::set_aside`]).
    pub broken_in: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DefectKind {
    ObjectContract,
    Exception,
}

#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub classes: Vec<ClassRow>,
    /// Classes found through --package/--jar and not tested, with the reason.
    pub skipped_classes: Vec<(String, SkipReason)>,
    /// Members left out (of the classes under test and of helper classes), with the reason.
    pub skipped_members: Vec<(String, SkipReason)>,
    pub errors: Vec<ErrorRow>,
    /// Sequences whose contract violation an input caused, set aside (not error tests), by
    /// cause (`callback-threw`, `comparator-inconsistent`, `null-input`,
    /// `state-not-initialized`, `argument-breaks-contract`, `held-collection-breaks-contract`,
    /// `jdk-value`).
    pub set_aside: BTreeMap<String, u64>,
    /// Calls whose sequence ended without a test because a test making them would print to
    /// the console or change state the whole JVM shares.
    pub left_out_calls: LeftOutCalls,
    pub incidents: Vec<Incident>,
    pub generated: u64,
    pub executed: u64,
    pub statements: u64,
    pub generation_seconds: f64,
    /// Sequences executed per second of generation.
    pub sequences_per_second: f64,
    pub statements_per_second: f64,
    /// Why generation ended (in the report's envelope: time-limit, generated-limit, plateau
    /// or exhausted).
    #[serde(skip)]
    pub stop_reason: StopReason,
    pub total_seconds: f64,
    pub regression_tests: usize,
    pub error_tests: usize,
    pub finish: FinishStats,
    pub validation: ValidationSummary,
    pub files: Vec<String>,
    pub output_dir: String,
    #[serde(flatten)]
    pub output: OutputSummary,
    pub seed: u64,
    pub workers: usize,
    pub worker_restarts: u64,
    pub worker_timeouts: u64,
    pub worker_crashes: BTreeMap<String, u64>,
    pub worker_peak_rss_kb: Vec<u64>,
    pub rust_peak_rss_kb: Option<u64>,
    /// Where the workers' time went over the run (summed over workers).
    pub worker_seconds: WorkerSeconds,
    /// With `--coverage`: branch and line totals of the classes under test, the
    /// coverage-over-time series and per-class figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub coverage: Option<CoverageRow>,
    /// Wall time of each phase of the run.
    pub phase_seconds: Phases,
    /// The regression tests an earlier run left in the output folder, and what became of
    /// them (`None`: there were none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub earlier_suite: Option<EarlierSuite>,
    /// With `--concolic`: the helper's turns at plateaus and what they gave.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concolic: Option<super::assist::AssistStats>,
    /// `gen --per-class`: how many classes' generations stopped for each reason (as `jforge
    /// merge` counts them); `stop_reason` is the most frequent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_reasons: Option<BTreeMap<String, u64>>,
}

/// Calls never written into a test, by why (gen's workers report them; see
/// `generate::random::PRINTS_TO_CONSOLE` and `CHANGES_GLOBAL_STATE`).
#[derive(Debug, Default, Clone, Serialize)]
pub struct LeftOutCalls {
    /// Printed to System.out/System.err.
    pub prints_to_console: u64,
    /// Closed System.in/out/err, set a system property, the default locale or time zone.
    pub changes_global_state: u64,
}

/// Worker time by what it went to, in seconds summed over the workers, over the whole run
/// (generation, finishing and the second-opinion JVMs): what sequences per second depend on.
#[derive(Debug, Default, Clone, Serialize)]
pub struct WorkerSeconds {
    /// Running sequences that came back with a result.
    pub executing: f64,
    /// Starting worker JVMs (spawn to handshake), `starts` times.
    pub starting: f64,
    pub starts: u64,
    /// Loading the classes under test and resolving the operations in each started worker.
    pub loading_classes: f64,
    /// Sequences that ended in a timeout, from the worker's last result to its death.
    pub timeouts: f64,
    /// Sequences that ended in a timeout the worker survived (a call interrupted or stopped
    /// at the call limit), from the worker's previous result to theirs: part of
    /// `executing`, the time hangs took without a restart.
    pub timeouts_survived: f64,
    /// Sequences that ended in a crash, per cause, from the last result to the death.
    pub crashes: BTreeMap<String, f64>,
    /// Instrumenting the classes under test (in jforge, once per run; wall seconds).
    pub instrumenting: f64,
    /// OutOfMemoryErrors, StackOverflowErrors and timeouts (calls interrupted or stopped at
    /// the call limit) the workers survived (the sequence's outcome, no restart), per kind.
    pub survived: BTreeMap<String, u64>,
}

impl WorkerSeconds {
    fn of(pool: &PoolStats) -> WorkerSeconds {
        let t = &pool.time;
        WorkerSeconds {
            executing: t.executing.as_secs_f64(),
            starting: t.start.as_secs_f64(),
            starts: t.starts,
            loading_classes: t.register.as_secs_f64(),
            timeouts: t.timeouts.as_secs_f64(),
            timeouts_survived: t.timeouts_survived_time.as_secs_f64(),
            crashes: t
                .crashes
                .iter()
                .map(|(k, d)| (crash_name(k), d.as_secs_f64()))
                .collect(),
            instrumenting: 0.0,
            survived: t
                .survived
                .iter()
                .map(|(k, n)| (crash_name(k), *n))
                .chain(
                    (t.timeouts_survived > 0).then(|| ("timeout".to_string(), t.timeouts_survived)),
                )
                .collect(),
        }
    }

    /// The summary line: `worker time: 30.1 s executing, 4.2 s in 6 JVM starts, ...`.
    fn line(&self) -> String {
        let cut = if self.timeouts_survived > 0.0 {
            format!(
                " ({:.1}s of it in calls cut at the call limit)",
                self.timeouts_survived
            )
        } else {
            String::new()
        };
        let mut parts = vec![
            format!("{:.1}s executing{cut}", self.executing),
            format!("{:.1}s in {} JVM starts", self.starting, self.starts),
            format!("{:.1}s loading classes", self.loading_classes),
        ];
        if self.timeouts > 0.0 {
            parts.push(format!("{:.1}s lost to timeouts", self.timeouts));
        }

        for (k, v) in &self.crashes {
            parts.push(format!("{v:.1}s lost to {k}"));
        }
        let survived: Vec<String> = self
            .survived
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect();
        let survived = if survived.is_empty() {
            String::new()
        } else {
            format!("; survived without a restart: {}", survived.join(", "))
        };
        format!(
            "worker time: {}; instrumenting {:.1}s{survived}",
            parts.join(", "),
            self.instrumenting
        )
    }
}

/// The diff between the earlier suite and this run's (set by the command).
#[derive(Debug, Default, Clone, Serialize)]
pub struct EarlierSuite {
    /// Regression tests with a stored sequence in the earlier files.
    pub tests: usize,
    /// Kept under their names (re-observed: a changed value updates the assertion).
    pub kept: usize,
    /// New tests, appended with new names.
    pub added: usize,
    /// Earlier tests not written again, the sum of the four causes below.
    pub removed: usize,
    /// No longer end as they did (normally, or with their exception).
    pub removed_changed: usize,
    /// Call a member this run does not test (removed, renamed, filtered out), or were
    /// written without a stored sequence.
    pub removed_unreadable: usize,
    /// Chosen again but failed the final check.
    pub removed_failing: usize,
    /// Add nothing this run's other tests do not (coverage, an exception, a value), or
    /// their values differed between two JVMs.
    pub removed_add_nothing: usize,
    /// Error-revealing tests with a stored sequence in the earlier files (not counted above).
    pub error_tests: usize,
    /// Of those, written again as they were: they still show their defect.
    pub error_tests_kept: usize,
    /// Generation stopped at this many sequences, the earlier run's budget, as the earlier
    /// files record it for the same options (a time-limited run; see `emit::suite::Replay`).
    pub replayed_sequences: Option<u64>,
}

impl EarlierSuite {
    /// The summary's lines on the earlier suite.
    fn write(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        // a folder of earlier error-revealing tests alone has no regression line to give
        if self.tests > 0 || self.added > 0 || self.error_tests == 0 {
            writeln!(
                out,
                "earlier suite: {} tests; kept {}, added {}, removed {} ({} end differently now, {} call members no longer tested, {} failed the check, {} add nothing new)",
                self.tests,
                self.kept,
                self.added,
                self.removed,
                self.removed_changed,
                self.removed_unreadable,
                self.removed_failing,
                self.removed_add_nothing
            )?;
        }
        if let Some(n) = self.replayed_sequences {
            writeln!(
                out,
                "re-run: generation stopped at the earlier run's {n} sequences (same options), so unchanged code keeps its tests; another --seed or --time-limit explores further"
            )?;
        }
        if self.error_tests > 0 {
            writeln!(
                out,
                "earlier error-revealing tests: {}; {} still show their defect and are kept as they were",
                self.error_tests, self.error_tests_kept
            )?;
        }
        Ok(())
    }
}

/// Wall time of each phase, in seconds (set by the command after [`Report::build`]).
#[derive(Debug, Default, Clone, Serialize)]
pub struct Phases {
    /// Class path, model, operations, instrumentation, worker start.
    pub setup: f64,
    pub generation: f64,
    /// Choosing, observing and minimizing tests (worker runs).
    pub finish: f64,
    /// Writing the files and the javac/JUnit check.
    pub check: f64,
    /// The finishing budget (finish + check) when a time limit applies.
    pub finish_budget: Option<f64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct CoverageRow {
    pub branches_covered: u32,
    pub branches_total: u32,
    pub lines_covered: u32,
    pub lines_total: u32,
    pub branch_percent: f64,
    pub line_percent: f64,
    /// Sequences that reached a probe no earlier sequence had.
    pub sequences_with_new_coverage: u64,
    /// (seconds since generation started, covered branches, covered lines) at each change.
    pub series: Vec<(f64, u32, u32)>,
    pub classes: Vec<crate::coverage::ClassSummary>,
    /// What the written regression suite covers, measured by running it in the final check
    /// against the same instrumented classes (absent when the check did not run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suite: Option<SuiteCoverage>,
    /// With `--project`: what the project's own tests cover, and with the written ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own_suite: Option<OwnSuiteCoverage>,
}

/// The project's own suite, measured on the run's instrumented classes before choosing the
/// tests to write (`gen --project`).
#[derive(Debug, Clone, Serialize)]
pub struct OwnSuiteCoverage {
    /// Tests its JUnit launcher found.
    pub tests: u64,
    pub branches_covered: u32,
    pub lines_covered: u32,
    /// The own suite and the written one together.
    pub with_written_branches: u32,
    pub with_written_lines: u32,
    /// The count of sequences at which its coverage began to steer generation (see
    /// `generate::random::Steer`); `None` when it never did (it arrived after generation).
    pub steered_at: Option<u64>,
}

/// The written suite's coverage next to the run's, and where the difference went.
#[derive(Debug, Clone, Serialize)]
pub struct SuiteCoverage {
    pub branches_covered: u32,
    pub lines_covered: u32,
    pub branch_percent: f64,
    pub line_percent: f64,
    /// Branches the run reached only with sequences that crashed, timed out, or broke a
    /// contract (no regression test can keep those).
    pub branches_only_in_illegal_sequences: u32,
    /// Branches of the chosen tests lost before writing: a cut at `--output-limit`, or tests
    /// dropped as unstable in two JVMs without a replacement.
    pub branches_lost_in_selection: u32,
    /// Branches the chosen tests covered when generated but the written suite does not
    /// (tests removed by the final check, or behaviour that differs in a fresh JVM).
    /// Negative when the written tests reach more in a fresh JVM than their sequences did in
    /// the run's workers.
    pub branches_lost_in_check: i64,
    pub per_class: Vec<crate::coverage::ClassSummary>,
}

/// What a finished `gen` run hands to [`Report::build`].
pub struct RunFacts<'a, 'g> {
    /// Where the suite was written (`--output-dir`).
    pub output_dir: &'a std::path::Path,
    pub seed: u64,
    /// `--concolic`: the helper's figures are reported.
    pub concolic: bool,
    pub classes: &'a [String],
    pub skipped_classes: &'a [(String, SkipReason)],
    pub ops: &'a OpSet,
    pub generator: &'a Generator<'g>,
    pub progress: &'a Progress,
    pub gen_time: Duration,
    pub regression: &'a [TestCase],
    pub errors: &'a [ErrorTest],
    pub finish: &'a FinishStats,
    pub validation: &'a ValidationSummary,
    pub pool: &'a PoolStats,
    pub files: &'a [WrittenFile],
    pub total: Duration,
}

impl Report {
    /// The figures of a finished run (phase times and output summary are set afterwards).
    pub fn build(f: &RunFacts) -> Report {
        let mut rows = class_rows(f);
        let error_rows = error_rows(f, &mut rows);
        let (generator, progress, pool) = (f.generator, f.progress, f.pool);
        let gen_secs = f.gen_time.as_secs_f64();
        Report {
            classes: rows.into_values().collect(),
            skipped_classes: f.skipped_classes.to_vec(),
            skipped_members: f.ops.skipped.clone(),
            errors: error_rows,
            set_aside: generator
                .set_aside
                .iter()
                .map(|(c, n)| (c.name().to_string(), *n))
                .collect(),
            left_out_calls: LeftOutCalls {
                prints_to_console: generator.stats.iter().map(|s| s.prints).sum(),
                changes_global_state: generator.stats.iter().map(|s| s.global_state).sum(),
            },
            incidents: generator.incidents.clone(),
            generated: progress.generated,
            executed: progress.executed,
            statements: progress.statements,
            generation_seconds: gen_secs,
            sequences_per_second: progress.executed as f64 / gen_secs.max(1e-9),
            statements_per_second: progress.statements as f64 / gen_secs.max(1e-9),
            stop_reason: generator.stop_reason,
            total_seconds: f.total.as_secs_f64(),
            regression_tests: f.regression.len(),
            error_tests: f.errors.len(),
            finish: f.finish.clone(),
            validation: f.validation.clone(),
            files: f
                .files
                .iter()
                .map(|w| w.path.display().to_string())
                .collect(),
            output_dir: f.output_dir.display().to_string(),
            output: OutputSummary::default(),
            seed: f.seed,
            workers: pool.worker_peak_rss_kb.len(),
            worker_restarts: pool.restarts,
            worker_timeouts: pool.timeouts,
            worker_crashes: pool
                .crashes
                .iter()
                .map(|(k, v)| (crash_name(k), *v))
                .collect(),
            worker_peak_rss_kb: pool.worker_peak_rss_kb.clone(),
            rust_peak_rss_kb: own_peak_rss_kb(),
            worker_seconds: WorkerSeconds::of(pool),
            coverage: coverage_row(generator),
            phase_seconds: Phases::default(),
            earlier_suite: None,
            concolic: f.concolic.then(|| generator.assist_stats.clone()),
            stop_reasons: None,
        }
    }

    /// The summary on the terminal at the end of the run.
    pub fn print_summary(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        writeln!(out, "{}", self.class_table())?;
        self.write_throughput(out)?;
        if let Some(c) = &self.coverage {
            write_coverage(c, out)?;
        }
        if let Some(c) = &self.concolic {
            c.write_summary(out)?;
        }
        self.write_destination(out)?;
        self.write_errors(out)?;
        self.write_set_aside(out)?;
        self.write_left_out(out)?;
        self.write_check(out)?;
        self.write_instability(out)
    }

    /// The per-class table: methods covered, tests written, errors, timeouts, crashes.
    fn class_table(&self) -> Table {
        let mut t = Table::new();
        t.load_style(UTF8_BORDERS_ONLY);
        t.set_header(vec![
            "class",
            "methods covered",
            "sequences",
            "regression tests",
            "error tests",
            "errors by contract",
            "timeouts",
            "crashes",
        ]);
        for r in &self.classes {
            let errs: Vec<String> = r
                .errors_by_contract
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect();
            t.add_row(vec![
                r.class.clone(),
                format!("{}/{}", r.covered, r.operations),
                r.sequences.to_string(),
                r.regression_tests.to_string(),
                r.error_tests.to_string(),
                if errs.is_empty() {
                    "-".into()
                } else {
                    errs.join(", ")
                },
                r.timeouts.to_string(),
                r.crashes.to_string(),
            ]);
        }
        t
    }

    /// Sequences executed and their rate, workers, total time and why generation stopped.
    fn write_throughput(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let secs = self.generation_seconds.max(1e-9);
        writeln!(
            out,
            "{} sequences executed in {:.1}s ({:.0}/s, {:.0} statements/s) on {} workers; total {:.1}s; stopped: {}",
            self.executed,
            self.generation_seconds,
            self.executed as f64 / secs,
            self.statements as f64 / secs,
            self.workers,
            self.total_seconds,
            self.stop_reason.describe()
        )?;
        writeln!(out, "{}", self.worker_seconds.line())
    }

    /// How many tests were written where (and how to run the error-revealing ones when they
    /// are kept out of the build), and the files of an earlier run replaced.
    fn write_destination(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        match (
            &self.output.error_output_dir,
            &self.output.error_tests_command,
        ) {
            (Some(dir), Some(cmd)) if self.error_tests > 0 => writeln!(
                out,
                "{} regression tests written to {}; {} error-revealing tests (each fails: a bug report) written to {dir}, where a build does not run them. Run them with:\n  {cmd}",
                self.regression_tests, self.output_dir, self.error_tests
            )?,
            _ => writeln!(
                out,
                "{} regression tests and {} error-revealing tests written to {}",
                self.regression_tests, self.error_tests, self.output_dir
            )?,
        }
        if !self.output.replaced_files.is_empty() {
            writeln!(
                out,
                "replaced {} files an earlier jforge gen run wrote for the same classes",
                self.output.replaced_files.len()
            )?;
        }
        if let Some(e) = &self.earlier_suite {
            e.write(out)?;
        }
        Ok(())
    }

    /// One line per defect found: who breaks which contract, how often, by how many routes.
    fn write_errors(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        for e in &self.errors {
            let who = match e.kind {
                DefectKind::ObjectContract => &e.class,
                DefectKind::Exception => &e.operation,
            };
            writeln!(
                out,
                "  error: {who} breaks {} ({} sequences, {} route{}, shortest test {} statements)",
                e.contract,
                e.occurrences,
                e.routes,
                if e.routes == 1 { "" } else { "s" },
                e.statements
            )?;
            if let Some(at) = &e.broken_in {
                writeln!(out, "    broken in {at}; no argument object was involved")?;
            }
        }
        Ok(())
    }

    /// How many violations were set aside as the input's doing, by cause: nothing is
    /// hidden silently.
    fn write_set_aside(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        if self.set_aside.is_empty() {
            return Ok(());
        }
        let total: u64 = self.set_aside.values().sum();
        let causes: Vec<String> = self
            .set_aside
            .iter()
            .map(|(c, n)| format!("{c} {n}"))
            .collect();
        writeln!(
            out,
            "set aside as invalid inputs (not error tests): {total} sequences whose violation the inputs caused, not the classes under test ({})",
            causes.join(", ")
        )
    }

    /// Calls no test makes because a test would print or change the JVM for later tests.
    fn write_left_out(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let l = &self.left_out_calls;
        if l.prints_to_console == 0 && l.changes_global_state == 0 {
            return Ok(());
        }
        writeln!(
            out,
            "left out of the tests: {} calls that printed to System.out/System.err, {} that changed state the whole JVM shares (closed a console stream, set a system property, the default locale or time zone)",
            l.prints_to_console, l.changes_global_state
        )
    }

    /// The javac/JUnit check's outcome, or why the tests were not checked.
    fn write_check(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let v = &self.validation;
        match &v.skipped {
            Some(why) => writeln!(out, "written tests not checked: {why}"),
            None => {
                writeln!(
                    out,
                    "checked with javac and JUnit: {} passing regression tests; removed {} that did not compile, {} that failed, {} error tests that did not fail as expected",
                    v.passed, v.compile_removed, v.failing_removed, v.error_tests_removed
                )?;
                if v.slow_clock_assertions > 0 {
                    writeln!(
                        out,
                        "slowed clock: {} assertions removed that failed when the clock ran slow (their tests kept)",
                        v.slow_clock_assertions
                    )?;
                }
                Ok(())
            }
        }
    }

    /// Non-determinism dropped while building tests, and worker restarts (only when any).
    fn write_instability(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let f = &self.finish;
        if f.unstable_tests + f.unstable_assertions + f.unreproducible_errors > 0 {
            writeln!(
                out,
                "non-determinism: {} tests and {} assertions dropped (values differed in a second JVM, one with another time zone, locale, charset and identity hash codes), {} errors did not reproduce",
                f.unstable_tests, f.unstable_assertions, f.unreproducible_errors
            )?;
        }
        if f.stopped_observers > 0 {
            writeln!(
                out,
                "observers: {} tests written without the assertions of a getter stopped at its limit (it ran on without end) and of the getters after it",
                f.stopped_observers
            )?;
        }
        if f.clock_assertions > 0 {
            writeln!(
                out,
                "clock: {} assertions dropped on values derived from the clock (they differed when jforge shifted the clock)",
                f.clock_assertions
            )?;
        }
        if self.worker_restarts > 0 {
            let causes: Vec<String> =
                std::iter::once(format!("timeouts: {}", self.worker_timeouts))
                    .chain(self.worker_crashes.iter().map(|(k, v)| format!("{k}: {v}")))
                    .collect();
            writeln!(
                out,
                "worker restarts: {} ({})",
                self.worker_restarts,
                causes.join("; ")
            )?;
        }
        Ok(())
    }

    /// The warnings of the run, one line per cause with a count (for stderr, after the
    /// summary): members and classes skipped per reason, operations excluded per reason.
    pub fn warnings(&self) -> Vec<String> {
        let under_test = |sig: &str| {
            self.classes.iter().any(|c| {
                sig.strip_prefix(c.class.as_str())
                    .is_some_and(|rest| rest.starts_with(['.', '(']))
            })
        };
        let members = self
            .skipped_members
            .iter()
            .filter(|(sig, r)| under_test(sig) && *r != SkipReason::NoProducer)
            .map(|(_, r)| *r);
        let mut out = skipped_lines("member", "members", members);
        // One line per distinct member: the same signature comes back for each instantiation
        // of a generic class and each class that inherits it.
        let mut seen = std::collections::HashSet::new();
        out.extend(
            self.skipped_members
                .iter()
                .filter(|(entry, r)| *r == SkipReason::NoProducer && seen.insert(entry.as_str()))
                .map(|(entry, _)| {
                    format!(
                        "warning: {entry}: only null is passed (put a public implementation or factory of it on the class path, or name one with --class)"
                    )
                }),
        );
        out.extend(skipped_lines(
            "class",
            "classes",
            self.skipped_classes.iter().map(|(_, r)| *r),
        ));
        out.extend(incident_lines(&self.incidents));
        out
    }
}

/// The excluded operations, one line per cause, each operation named once (the same
/// signature excluded for several instantiations, `ArrayList<String>(int)` and
/// `ArrayList<Integer>(int)`, or for several causes is one operation to the user: its
/// first cause).
fn incident_lines(incidents: &[Incident]) -> Vec<String> {
    let mut out = Vec::new();
    let mut named = std::collections::HashSet::new();
    let mut by_cause: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for i in incidents {
        if named.insert(i.operation.as_str()) {
            by_cause.entry(&i.what).or_default().push(&i.operation);
        }
    }
    for (what, ops) in by_cause {
        out.push(match ops.as_slice() {
            [one] => format!("warning: {one} {what}"),
            _ => format!(
                "warning: {} operations {what}: {}",
                ops.len(),
                name_list(&ops)
            ),
        });
    }
    out
}

/// The run's coverage and, when the final check measured it, the written suite's, with
/// where the branches the suite misses went.
fn write_coverage(c: &CoverageRow, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    writeln!(
        out,
        "coverage of the classes under test, the run: branches {}/{} ({:.1}%), lines {}/{} ({:.1}%)",
        c.branches_covered,
        c.branches_total,
        c.branch_percent,
        c.lines_covered,
        c.lines_total,
        c.line_percent
    )?;
    let Some(s) = &c.suite else {
        return Ok(());
    };
    writeln!(
        out,
        "  the written regression suite, run: branches {}/{} ({:.1}%), lines {}/{} ({:.1}%)",
        s.branches_covered,
        c.branches_total,
        s.branch_percent,
        s.lines_covered,
        c.lines_total,
        s.line_percent
    )?;
    if let Some(o) = &c.own_suite {
        // The written suite leaves out on purpose what the own tests cover: the figure that
        // matters is the two together.
        writeln!(
            out,
            "  the project's own tests ({}): branches {}/{}, lines {}/{}; with the written ones: branches {}/{} (+{}), lines {}/{} (+{})",
            o.tests,
            o.branches_covered,
            c.branches_total,
            o.lines_covered,
            c.lines_total,
            o.with_written_branches,
            c.branches_total,
            o.with_written_branches.saturating_sub(o.branches_covered),
            o.with_written_lines,
            c.lines_total,
            o.with_written_lines.saturating_sub(o.lines_covered),
        )?;
        match o.steered_at {
            Some(n) => writeln!(
                out,
                "  generation aimed past what they cover from sequence {n} on"
            )?,
            None => writeln!(
                out,
                "  their coverage arrived after generation: it did not steer it"
            )?,
        }
        return Ok(());
    }
    let mut why = Vec::new();
    if s.branches_only_in_illegal_sequences > 0 {
        why.push(format!(
            "{} only by sequences that crashed, hung or broke a contract",
            s.branches_only_in_illegal_sequences
        ));
    }
    if s.branches_lost_in_selection > 0 {
        why.push(format!(
            "{} by tests not written (--output-limit, or unstable in two JVMs)",
            s.branches_lost_in_selection
        ));
    }
    if s.branches_lost_in_check > 0 {
        why.push(format!(
            "{} by tests removed in the final check or behaving differently in a fresh JVM",
            s.branches_lost_in_check
        ));
    }
    if !why.is_empty() {
        writeln!(
            out,
            "  branches the run reached and the suite does not: {}",
            why.join("; ")
        )?;
    }
    if s.branches_lost_in_check < 0 {
        // A fresh JVM can take paths the workers had already taken before the test's
        // sequence ran (first uses, caches filled): a gain, not a loss.
        writeln!(
            out,
            "  the written tests reach {} branches more in a fresh JVM than their sequences \
             did in the run",
            -s.branches_lost_in_check
        )?;
    }
    Ok(())
}

/// The owner class of an operation (`None` for helpers).
fn class_of(ops: &OpSet, op: u32) -> Option<&str> {
    ops.owner_class.get(op as usize).and_then(|c| c.as_deref())
}

/// One row per class under test: operations called successfully, timeouts and crashes, and
/// regression tests (the error tests are counted by [`error_rows`]).
fn class_rows<'a>(f: &RunFacts<'a, '_>) -> BTreeMap<&'a str, ClassRow> {
    let ops = f.ops;
    let mut rows: BTreeMap<&str, ClassRow> = f
        .classes
        .iter()
        .map(|c| {
            (
                c.as_str(),
                ClassRow {
                    class: c.clone(),
                    ..Default::default()
                },
            )
        })
        .collect();
    for &op in &ops.primary {
        if let Some(row) = class_of(ops, op).and_then(|c| rows.get_mut(c)) {
            let st = &f.generator.stats[op as usize];
            row.operations += 1;
            row.covered += usize::from(st.successes > 0);
            row.sequences += st.calls;
            row.timeouts += st.timeouts;
            row.crashes += st.crashes;
        }
    }
    // The same rule as the files' (`emit::suite::owner`), fallback included: a test with no
    // call of a class under test goes to the first class's family and row.
    for t in f.regression {
        let owner = crate::emit::suite::owner(t, &ops.owner_class, f.classes);
        if let Some(row) = rows.get_mut(owner) {
            row.regression_tests += 1;
        }
    }
    rows
}

/// One row per error-revealing test, counted into its class's row too.
fn error_rows(f: &RunFacts, rows: &mut BTreeMap<&str, ClassRow>) -> Vec<ErrorRow> {
    let ops = f.ops;
    let mut error_rows = Vec::new();
    for e in f.errors {
        let class = e
            .case
            .defect
            .as_ref()
            .and_then(|d| d.owner.as_deref())
            .or_else(|| class_of(ops, e.op))
            .unwrap_or("(helper)")
            .to_string();
        if let Some(row) = rows.get_mut(class.as_str()) {
            row.error_tests += 1;
            *row.errors_by_contract
                .entry(e.contract.to_string())
                .or_default() += 1;
        }
        error_rows.push(ErrorRow {
            class: e.class.as_deref().map_or(class, str::to_string),
            operation: ops.table.get(e.op).signature(),
            contract: e.contract.to_string(),
            kind: match e.case.ending {
                Ending::ErrorContract { .. } => DefectKind::ObjectContract,
                _ => DefectKind::Exception,
            },
            occurrences: e.occurrences,
            routes: e.routes,
            statements: e.case.seq.len(),
            broken_in: e.culprit.as_ref().map(|f| f.describe()),
        });
    }
    error_rows
}

/// The run's coverage figures, when it measured coverage (the suite's are added later).
fn coverage_row(generator: &Generator) -> Option<CoverageRow> {
    generator.cov.as_ref().map(|g| {
        let t = &g.tracker;
        CoverageRow {
            branches_covered: t.covered_branches,
            branches_total: t.branches,
            lines_covered: t.covered_lines,
            lines_total: t.lines,
            branch_percent: 100.0 * t.branch_ratio(),
            line_percent: 100.0 * t.line_ratio(),
            sequences_with_new_coverage: g.new_coverage_seqs,
            series: g.series.clone(),
            classes: g.summaries(),
            suite: None,
            own_suite: None,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn incident(op: &str, what: &str) -> Incident {
        Incident {
            operation: op.into(),
            what: what.into(),
        }
    }

    #[test]
    fn earlier_error_tests_alone_get_their_line_and_no_empty_suite_line() {
        let text = |e: &EarlierSuite| {
            let mut out = Vec::new();
            e.write(&mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        let errors_only = EarlierSuite {
            error_tests: 2,
            error_tests_kept: 1,
            ..EarlierSuite::default()
        };
        assert_eq!(
            text(&errors_only),
            "earlier error-revealing tests: 2; 1 still show their defect and are kept as they were\n"
        );
        // tests added beside earlier error tests: the suite line says so
        let added = EarlierSuite {
            added: 3,
            ..errors_only.clone()
        };
        assert!(text(&added).starts_with("earlier suite: 0 tests; kept 0, added 3,"));
        let both = EarlierSuite {
            tests: 5,
            kept: 5,
            ..errors_only
        };
        let t = text(&both);
        assert!(t.starts_with("earlier suite: 5 tests; kept 5,"), "{t}");
        assert!(t.contains("earlier error-revealing tests: 2;"), "{t}");
    }

    #[test]
    fn an_operation_excluded_several_times_is_one_warning_entry() {
        let oom = "excluded after 3 crashes (last: OutOfMemoryError)";
        let soe = "excluded after 3 crashes (last: StackOverflowError)";
        let lines = incident_lines(&[
            incident("java.util.ArrayList(int)", oom),
            incident("java.util.ArrayList(int)", oom),
            incident("java.util.HashMap.put(String,Boolean)", oom),
            incident("java.util.ArrayList(int)", soe),
            incident("java.util.Properties()", soe),
        ]);
        assert_eq!(
            lines,
            [
                format!(
                    "warning: 2 operations {oom}: java.util.ArrayList(int), java.util.HashMap.put(String,Boolean)"
                ),
                format!("warning: java.util.Properties() {soe}"),
            ]
        );
    }
}
