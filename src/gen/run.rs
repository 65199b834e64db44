//! One `gen` run through the shared pipeline ([`Gen`], a [`Strategy`]): from its settings
//! to checked JUnit files, the report and a summary. Set-up (classes, operations, literals,
//! coverage, the concolic helper), generation, the tests built and minimized, then checked
//! and installed by the shared suite stage.

use super::GenSettings;
use super::classes::{Selected, select_classes};
use crate::emit::TestCase;
use crate::emit::output::{Installed, RunOutput};
use crate::emit::stored::Resolver;
use crate::emit::suite::{Placement, Replay, Tool};

use crate::generate::finish::{
    EarlierTest, ErrorTest, FinishStats, Selecting, error_tests, regression_tests,
};
use crate::generate::literals::LiteralPool;
use crate::generate::ops::{OpSet, add_view_ops, build_ops_with_stubs};
use crate::generate::random::{CONSOLE_PROPERTY, GenConfig, Generator, Progress, Steer, SteerWhen};
use crate::generate::report::{EarlierSuite, Phases, Report, RunFacts, SuiteCoverage};
use crate::report::ValidationSummary;
use crate::session::{Session, WorkerSettings};
use crate::settings::RunSettings;
use crate::strategy::{Finished, Strategy};
use crate::suite::check::{CheckSettings, write_and_check};
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// Whether `gen` measures coverage without `--coverage` (see ARCHITECTURE.md, "Coverage
/// guidance": decided by measured throughput cost).
const COVERAGE_BY_DEFAULT: bool = true;

/// Regression tests written when `--output-limit` is not given (the tests that keep the
/// run's coverage are written even when they are more).
const DEFAULT_OUTPUT_LIMIT: usize = 1000;

/// Time allowed after generation for building, minimizing and checking the tests:
/// max(20 s, a quarter of the time limit). The whole run takes at most the time limit plus
/// this, whatever the code under test does.
pub(super) fn finish_budget(limit: Duration) -> Duration {
    (limit / 4).max(Duration::from_secs(20))
}

/// One `gen` run on a class path, all its classes in one generator.
pub(super) fn drive(args: GenSettings) -> anyhow::Result<crate::exit::Outcome> {
    crate::strategy::drive(Gen {
        args,
        prepared: None,
    })
}

/// `jforge gen`: feedback-directed random generation (Randoop) guided by coverage.
pub struct Gen {
    args: GenSettings,
    /// Set by [`Strategy::prepare`].
    prepared: Option<Prepared>,
}

/// The flags parsed and the output folders locked, before anything starts.
pub(super) struct Prepared {
    /// `--concolic`: the solver, found before anything starts.
    pub(super) solver: Option<crate::concolic::solver::SolverSpec>,
    pub(super) limits: Limits,
    /// Locked for the whole run, written through a staging folder (see emit::output).
    pub(super) out: RunOutput,
}

impl Prepared {
    /// The limits parsed and the output folders locked (`Strategy::prepare` of a run and of
    /// a `--per-class` session).
    pub(super) fn of(args: &GenSettings) -> anyhow::Result<Prepared> {
        let out = RunOutput::for_suite(
            Tool::Gen,
            &args.suite,
            Some(&args.output_dir()),
            args.test_package.clone(),
        )?
        .context("internal error: gen writes a suite")?;
        Ok(Prepared {
            solver: args.solver.clone(),
            limits: Limits::of(args),
            out,
        })
    }
}

/// The check's javac (`emit::validate::JavacServer`). Before set-up (`generated` false): the
/// one `--per-class` shares, or one given a warm-up compile when generation runs for a fixed
/// time, which the warm-up then does not lengthen (on 2 cores, under --generated-limit, it
/// cost TreeMap's generation as much as it saved the check). When generation ends: one
/// without a warm-up, booting while the tests are finished, warm from the second javac round.
pub(super) fn start_check_javac(
    session: &Session,
    args: &GenSettings,
    limits: &Limits,
    generated: bool,
) {
    if args.suite.no_validate {
        return;
    }
    if let Some(shared) = &args.shared_javac {
        session.use_javac(shared.clone());
    }
    let fixed_time = limits.time_limit.is_some() && args.generated_limit.is_none();
    if generated || fixed_time {
        session.start_javac(!generated);
    }
}

/// `--concolic`'s helper: its own pool of traced workers and the solver.
fn concolic_helper<'o>(
    session: &Session,
    ops: &'o OpSet,
    setup: crate::coverage::Setup,
    spec: crate::concolic::solver::SolverSpec,
) -> Box<crate::concolic::hybrid::Hybrid<'o>> {
    let config = session
        .pool_maker()
        .config(vec![format!("-D{CONSOLE_PROPERTY}=quiet")]);
    Box::new(crate::concolic::hybrid::Hybrid::new(
        &ops.table, setup, config, spec,
    ))
}

/// The limits and filters of a run, parsed from the flags.
pub(super) struct Limits {
    pub(super) time_limit: Option<Duration>,
    pub(super) call_timeout: Duration,
    pub(super) output_limit: usize,
    pub(super) include: Option<Regex>,
    pub(super) exclude: Option<Regex>,
    pub(super) stop_on_plateau: Option<Duration>,
}

impl Limits {
    pub(super) fn of(args: &GenSettings) -> Limits {
        Limits {
            time_limit: args.time_limit,
            call_timeout: args.call_timeout,
            output_limit: args.output_limit.unwrap_or(DEFAULT_OUTPUT_LIMIT),
            include: args.include_methods.clone(),
            exclude: args.exclude_methods.clone(),
            stop_on_plateau: args.stop_on_plateau,
        }
    }
}

/// When each phase started and ended, for the phase times of the report.
struct Timing {
    setup: Duration,
    generation: Duration,
    finish: Duration,
    check: Duration,
    finish_budget: Option<Duration>,
    /// Instrumenting the classes under test (part of set-up).
    instrument: Duration,
}

impl Strategy for Gen {
    const COMMAND: &'static str = "gen";
    type Stats = Report;

    fn run_settings(&self) -> &RunSettings {
        &self.args.run
    }

    fn prepare(&mut self) -> anyhow::Result<()> {
        self.prepared = Some(Prepared::of(&self.args)?);
        Ok(())
    }

    fn jars(&self) -> &[std::path::PathBuf] {
        &self.args.jars
    }

    fn worker_settings(&self) -> anyhow::Result<WorkerSettings> {
        let p = self.prepared.as_ref().context(NOT_PREPARED)?;
        Ok(gen_workers(&self.args, &p.limits))
    }

    fn run(self, mut session: Session, started: Instant) -> anyhow::Result<Finished<Report>> {
        let Gen { args, prepared } = self;
        let Prepared {
            solver,
            limits,
            mut out,
        } = prepared.context(NOT_PREPARED)?;
        // ---- set-up: classes, operations, literals, coverage, workers
        start_check_javac(&session, &args, &limits, false);
        let sel = select_classes(&mut session, &args)?;
        let mut ops = operations(&session, &args, &limits, &sel)?;
        let literals = literal_pool(&session.model, &sel.classes);
        let instrument_start = Instant::now();
        let cov_setup = coverage_setup(&mut session, &args, &limits, &sel, &mut ops)?;
        let traced = traced_setup(&mut session, &sel.classes, solver.as_ref())?;
        let instrument = instrument_start.elapsed();
        let earlier = read_earlier(&mut out, &ops, &sel.classes);
        let code = code_hash(&mut session, &sel.classes)?;
        let replay = replay_budget(&out, (&args, &limits, code), &sel.classes);
        let facts = bytecode_facts(&mut session, &ops)?;
        ops.field_use = facts.field_use;
        ops.casts = facts.casts;
        ops.add_reading_observers();
        leave_out_settings(&mut ops, &facts.settings, limits.include.as_ref())?;
        let sizing = facts.sizing;
        let mut pool = session.take_pool()?;
        let run = GenRun {
            args: &args,
            limits: &limits,
            session: &session,
            sel: &sel,
            ops: &ops,
            coverage: cov_setup.as_ref().filter(|s| s.measured),
            instrumented: cov_setup.as_ref(),
            started,
        };

        // ---- generation: the time limit covers the whole run up to its end
        let mut generator = run.new_generator(literals, &mut pool)?;
        generator.note_sizing(sizing);
        replay.apply(&mut generator);
        if let (Some(setup), Some(spec)) = (traced, solver) {
            generator.assist = Some(concolic_helper(&session, &ops, setup, spec));
        }
        let setup_time = started.elapsed();
        let (generation, own) = run.generate_beside_own_suite(
            &mut generator,
            &mut pool,
            (&replay, &earlier.errors),
            setup_time,
        );
        let generation = generation?;
        // The helper's JVMs and solver are not needed to finish the tests.
        generator.assist = None;
        start_check_javac(&session, &args, &limits, true);

        // ---- tests: chosen, observed in two JVMs, minimized
        let built = run.finish_tests(
            &generator,
            &mut pool,
            (&earlier.tests, replay.same_generation(&generator)),
            own.as_ref().map(|o| &o.probes),
        )?;

        // ---- the shared suite stage's check, then into place: only now are earlier files
        // replaced
        out.set_replay(Some(replay.recorded(&generator)));
        let suite = run.check_and_install(&mut out, &built)?;

        // ---- report
        let timing = Timing {
            setup: setup_time,
            generation,
            finish: built.finish_time,
            check: suite.check_time,
            finish_budget: built.finish_budget,
            instrument,
        };
        let mut report = run.report(&generator, pool, &out, &built, &suite, &timing);
        if let (Some(o), Some(setup)) = (&own, cov_setup.as_ref()) {
            add_own_suite(
                &mut report,
                setup,
                o,
                suite.validation.suite_hits.as_deref(),
            );
            if let Some(c) = report.coverage.as_mut().and_then(|c| c.own_suite.as_mut()) {
                c.steered_at = generator.steer.as_ref().and_then(|s| s.applied_at);
            }
        }
        report.earlier_suite = earlier.diff(&suite.regression, &suite.errors, &built.fstats);
        if let Some(e) = report.earlier_suite.as_mut() {
            e.replayed_sequences = replay.cap();
        }
        Ok(finished(report, suite.errors.is_empty()))
    }

    fn print_summary(report: &Report, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        report.print_summary(out)
    }

    fn warnings(report: &Report) -> Vec<String> {
        report.warnings()
    }
}

/// What a run records in its markers and what it replays (see [`Replay`]).
pub(super) struct ReplayBudget {
    /// The hash of this run's options.
    options: String,
    /// The earlier run's count of sequences, when its files record these same options.
    earlier: Option<u64>,
    /// Where the earlier run's own-tests coverage began to steer (with `earlier`).
    earlier_steered: Option<u64>,
    /// A time limit and no `--generated-limit`: the earlier count is this run's generated
    /// limit (a run bounded by `--generated-limit` has the same count already).
    timed: bool,
}

impl ReplayBudget {
    /// The generated limit replayed: the earlier run's count, for a timed run.
    pub(super) fn cap(&self) -> Option<u64> {
        self.earlier.filter(|_| self.timed)
    }

    /// Makes `generator` stop at the [`Self::cap`], when there is one.
    pub(super) fn apply(&self, generator: &mut Generator) {
        if let Some(n) = self.cap() {
            generator.cfg.generated_limit = Some(n);
            generator.cfg.replayed = true;
        }
    }

    /// Whether `generator` made what the earlier run made: the same options and as many
    /// sequences, so the same candidates (generation is deterministic for a count).
    pub(super) fn same_generation(&self, generator: &Generator) -> bool {
        self.earlier == Some(generator.progress.generated)
    }

    /// When the project's own tests' coverage is to steer generation: a replay where the
    /// earlier run did (or never, when it did not); a count-bounded run before its first
    /// sequence (its sequences must not depend on the suite's speed); else on arrival.
    pub(super) fn steer_when(&self) -> SteerWhen {
        match (self.cap(), self.timed) {
            (Some(_), _) => self.earlier_steered.map_or(SteerWhen::Never, SteerWhen::At),
            (None, false) => SteerWhen::At(0),
            (None, true) => SteerWhen::Arrival,
        }
    }

    /// What the written files record: the budget replayed, or this run's own count.
    pub(super) fn recorded(&self, generator: &Generator) -> Replay {
        let steered = generator.steer.as_ref().and_then(|s| s.applied_at);
        Replay {
            sequences: self.cap().unwrap_or(generator.progress.generated),
            steered: if self.cap().is_some() {
                self.earlier_steered
            } else {
                steered
            },
            options: self.options.clone(),
        }
    }
}

/// A hash of the class files of `classes` (from the class path or the JDK): part of what a
/// replay must match, so that a re-run on changed code explores again.
fn code_hash(session: &mut Session, classes: &[String]) -> anyhow::Result<u64> {
    session.with_classes(|_, cp, jdk| {
        let mut h = twox_hash::XxHash64::with_seed(0x6a66);
        for c in classes {
            std::hash::Hasher::write(&mut h, c.as_bytes());
            let bytes = cp.find(c).ok().flatten();
            if let Some(b) = bytes.or_else(|| jdk.class_bytes(c).ok().flatten()) {
                std::hash::Hasher::write(&mut h, &b);
            }
        }
        Ok(std::hash::Hasher::finish(&h))
    })
}

/// This run's options hash (its options and `code`, the classes' bytes), and the earlier
/// run's count of sequences when every earlier file of `classes` records it for the same
/// options.
pub(super) fn replay_budget(
    out: &RunOutput,
    (args, limits, code): (&GenSettings, &Limits, u64),
    classes: &[String],
) -> ReplayBudget {
    let mut h = twox_hash::XxHash64::with_seed(0x6a66);
    std::hash::Hasher::write(&mut h, args.options_key.as_bytes());
    std::hash::Hasher::write_u64(&mut h, code);
    let options = format!("{:016x}", std::hash::Hasher::finish(&h));
    let earlier = out.earlier_replay(classes).filter(|r| r.options == options);
    ReplayBudget {
        options,
        earlier_steered: earlier.as_ref().and_then(|r| r.steered),
        earlier: earlier.map(|r| r.sequences),
        timed: limits.time_limit.is_some() && args.generated_limit.is_none(),
    }
}

/// How `gen`'s workers start (one run, or the classes of a `--per-class` session).
pub(super) fn gen_workers(args: &GenSettings, limits: &Limits) -> WorkerSettings {
    WorkerSettings {
        call_timeout: limits.call_timeout,
        heap_mb: args.run.worker_heap.unwrap_or(1024),
        // A call that prints to System.out/err ends its sequence (jforge.PrintsToConsole):
        // its test would print whenever the user's build runs it (`printStackTrace()`).
        // C1 only: TreeMap, 15 s on 2 shared cores, 10,200 sequences/s instead of
        // 2,400-4,500 with C2 (BENCHMARKS.md).
        extra_jvm_args: vec![
            format!("-D{CONSOLE_PROPERTY}=quiet"),
            crate::runner::QUICK_JIT.to_string(),
        ],
        ..WorkerSettings::default()
    }
}

/// A `gen` report as the driver takes it: exit 3 when error-revealing tests were written.
pub(super) fn finished(report: Report, clean: bool) -> Finished<Report> {
    Finished {
        stop_reason: report.stop_reason,
        outcome: if clean {
            crate::exit::Outcome::Clean
        } else {
            crate::exit::Outcome::ErrorsFound
        },
        stats: report,
    }
}

pub(super) const NOT_PREPARED: &str =
    "internal error: jforge gen ran before its flags were checked";

/// What every step after set-up reads: the flags, the session, the selected classes, their
/// operations and the coverage set-up (all fixed once the workers start).
struct GenRun<'r> {
    args: &'r GenSettings,
    limits: &'r Limits,
    session: &'r Session,
    sel: &'r Selected,
    ops: &'r OpSet,
    coverage: Option<&'r crate::coverage::Setup>,
    /// The rewritten classes the workers run: coverage's (when measured) and the clock's.
    instrumented: Option<&'r crate::coverage::Setup>,
    started: Instant,
}

/// The tests built after generation, with what the later steps need of that phase.
struct BuiltTests {
    regression: Vec<TestCase>,
    errors: Vec<ErrorTest>,
    fstats: FinishStats,
    finish_time: Duration,
    finish_budget: Option<Duration>,
    /// End of the finishing budget (finish + check), when a time limit applies.
    deadline: Option<Instant>,
}

/// The tests that passed the final check and were installed.
struct InstalledSuite {
    regression: Vec<TestCase>,
    errors: Vec<ErrorTest>,
    validation: ValidationSummary,
    installed: Installed,
    check_time: Duration,
}

impl GenRun<'_> {
    /// Registers the operations with the workers and makes the generator, with coverage
    /// when set up; operations the workers cannot load are excluded.
    fn new_generator(
        &self,
        literals: LiteralPool,
        pool: &mut crate::runner::Pool,
    ) -> anyhow::Result<Generator<'_>> {
        let failed = pool.register(&self.ops.table)?;
        let mut generator = Generator::new(
            &self.session.model,
            self.ops,
            literals,
            gen_config(self.args, self.limits),
        );
        if let Some(setup) = self.coverage {
            let tracker = crate::coverage::Tracker::new(&setup.maps, setup.total_probes);
            generator.enable_coverage(tracker, setup.maps.clone());
        }
        for (op, why) in failed {
            generator.exclude(op, &format!("cannot be loaded: {why}"));
        }
        Ok(generator)
    }

    /// Generation, with the project's own suite measured beside it (its probes choose the
    /// tests and, once they arrive, steer generation: `generate::random::Steer`): a suite
    /// that takes a minute does not eat the time limit.
    fn generate_beside_own_suite(
        &self,
        generator: &mut Generator,
        pool: &mut crate::runner::Pool,
        (replay, errors): (&ReplayBudget, &[crate::sequence::Sequence]),
        setup_time: Duration,
    ) -> (anyhow::Result<Duration>, Option<OwnBaseline>) {
        let (java, cp) = (&self.session.java, &self.session.cp);
        let (to_steer, steering) = std::sync::mpsc::channel();
        if self.args.own_suite.is_some() {
            generator.steer = Some(Steer::new(steering, replay.steer_when()));
        }
        let (own_args, own_setup) = (self.args, self.instrumented);
        std::thread::scope(|scope| {
            let own = scope.spawn(move || {
                let own = own_suite_baseline(java, cp, own_args, own_setup);
                if let Some(o) = &own {
                    // the generator may be gone (a failed run): nothing to steer then
                    let _ = to_steer.send(o.hit.clone());
                }
                own
            });
            let how = (self.args, self.limits, setup_time);
            let generation = generate_then_replay(generator, pool, how, errors);
            let own = own.join().unwrap_or_else(|_| {
                eprintln!("warning: measuring the project's own tests failed; writing tests for all the run covers");
                None
            });
            (generation, own)
        })
    }

    /// Builds the regression and error-revealing tests within the finishing budget.
    fn finish_tests(
        &self,
        generator: &Generator,
        pool: &mut crate::runner::Pool,
        (earlier, same_generation): (&[EarlierTest], bool),
        baseline: Option<&crate::generate::select::ProbeSet>,
    ) -> anyhow::Result<BuiltTests> {
        let finish_start = Instant::now();
        let finish_budget = self.limits.time_limit.map(finish_budget);
        let deadline = finish_budget.map(|b| finish_start + b);
        // Optional work (replacing dropped tests, minimizing) gets half the finishing budget;
        // the javac/JUnit check the rest.
        let work_deadline = finish_budget.map(|b| finish_start + b / 2);
        pool.set_stop_at(work_deadline);
        let mut fstats = FinishStats::default();
        let how = Selecting {
            limit: self.limits.output_limit,
            hard_limit: self.args.output_limit.is_some(),
            fill: self.args.fill,
            earlier,
            deadline: work_deadline,
            baseline,
            same_generation,
        };
        let (regression, errors) = build_tests(generator, pool, self.args, &how, &mut fstats)?;
        Ok(BuiltTests {
            regression,
            errors,
            fstats,
            finish_time: finish_start.elapsed(),
            finish_budget,
            deadline,
        })
    }

    /// Writes the tests, checks them with javac and JUnit (the shared suite stage), and
    /// installs the files that passed.
    fn check_and_install(
        &self,
        out: &mut RunOutput,
        built: &BuiltTests,
    ) -> anyhow::Result<InstalledSuite> {
        let (args, session) = (self.args, self.session);
        let check_start = Instant::now();
        let error_cases: Vec<TestCase> = built.errors.iter().map(|e| e.case.clone()).collect();
        let checked = write_and_check(
            out,
            &self.ops.table,
            &self.ops.owner_class,
            &self.sel.classes,
            &built.regression,
            &error_cases,
            &CheckSettings {
                coverage: self.coverage.map(crate::coverage::Setup::coverage_run),
                clock: self
                    .instrumented
                    .and_then(crate::coverage::Setup::clock_run),
                deadline: built.deadline,
                ..CheckSettings::of(session, &args.suite, args.run.quiet)
            },
        )?;
        let regression: Vec<TestCase> = checked.regression_tests.clone();
        let errors: Vec<ErrorTest> = checked
            .errors
            .iter()
            .map(|&i| built.errors[i].clone())
            .collect();
        let validation = checked.validation;
        let installed = out.install(&checked.files)?;
        Ok(InstalledSuite {
            regression,
            errors,
            validation,
            installed,
            check_time: check_start.elapsed(),
        })
    }

    /// Stops the workers and builds the report: figures, suite coverage, phase times and
    /// where the files went.
    fn report(
        &self,
        generator: &Generator,
        mut pool: crate::runner::Pool,
        out: &RunOutput,
        built: &BuiltTests,
        suite: &InstalledSuite,
        timing: &Timing,
    ) -> Report {
        let stats = pool.stats();
        pool.shutdown();
        let output_dir = self.args.output_dir();
        let mut report = Report::build(&RunFacts {
            output_dir: &output_dir,
            seed: self.args.seed,
            concolic: self.args.solver.is_some(),
            classes: &self.sel.classes,
            skipped_classes: &self.sel.skipped,
            ops: self.ops,
            generator,
            progress: &generator.progress,
            gen_time: timing.generation,
            regression: &suite.regression,
            errors: &suite.errors,
            finish: &built.fstats,
            validation: &suite.validation,
            pool: &stats,
            files: &suite.installed.files,
            total: self.started.elapsed(),
        });
        if let (Some(setup), Some(hits)) = (self.coverage, suite.validation.suite_hits.as_ref()) {
            add_suite_coverage(&mut report, setup, hits, &built.fstats);
        }
        report.phase_seconds = phases(timing);
        report.worker_seconds.instrumenting = timing.instrument.as_secs_f64();
        report.output = out.summary(
            self.args.suite.junit_classpath.as_deref(),
            &self.session.entries,
            &suite.installed.files,
            &suite.installed.replaced,
        );
        report
    }
}

/// The operations of the selected classes (after --include/--exclude-methods and
/// --builders); an explicitly named class with nothing to call is an error.
pub(super) fn operations(
    session: &Session,
    args: &GenSettings,
    limits: &Limits,
    sel: &Selected,
) -> anyhow::Result<OpSet> {
    let (include, exclude) = (limits.include.as_ref(), limits.exclude.as_ref());
    let named = Some(&sel.explicit);
    let tested: Vec<crate::model::JType> = sel
        .tested
        .iter()
        .map(|t| crate::model::JType::class(t))
        .collect();
    let mut ops = build_ops_with_stubs(
        &session.model,
        &sel.classes,
        include,
        exclude,
        false,
        named,
        &tested,
    );
    ops.test_package = args.test_package.clone();
    if let Some(release) = args.suite.test_release {
        leave_out_newer_than(session, &mut ops, release)?;
    }
    if let Some(f) = &args.builders {
        crate::builders::restrict_ops(&mut ops, f)?;
    }
    for c in &sel.classes {
        // Callable means: something can be called without first having an instance, or
        // another operation produces one.
        let ty = ops.instantiations.get(c);
        let has = ops.primary.iter().any(|&o| {
            let op = ops.table.get(o);
            ops.owner_class[o as usize].as_deref() == Some(c) && !op.has_receiver()
                || ty.is_some_and(|t| {
                    op.ret
                        .as_ref()
                        .is_some_and(|r| session.model.is_subtype(r, t))
                })
        });
        if !has && sel.explicit.contains(c) {
            bail!(
                "class {c} has no constructor, method or field jforge can call{}",
                if include.is_some() || exclude.is_some() {
                    " (after --include-methods/--exclude-methods)"
                } else {
                    ""
                }
            );
        }
    }
    if ops.primary.is_empty() {
        bail!("the selected classes have no public members jforge can call");
    }
    Ok(ops)
}

/// Leaves out the JDK members that Java release `release` (the one the project compiles
/// its tests for) lacks, as generated calls and as observers: a test of one would not
/// compile in the project's build, and the check would remove it with what it covered
/// (`model::release`). Nothing is left out when the JDK has no API for that release.
fn leave_out_newer_than(session: &Session, ops: &mut OpSet, release: u32) -> anyhow::Result<()> {
    use crate::model::release::{ReleaseApi, is_jdk_class};
    use crate::sequence::OpKind;
    let Some(mut api) = ReleaseApi::open(&session.java.home, session.java.version, release)? else {
        return Ok(());
    };
    let mut newer = HashSet::new();
    for (id, op) in ops.table.iter() {
        // a JDK method inherited by a class of the project (`label.isEmpty()` of a
        // `CharSequence`, Java 15) is the JDK's
        let class = if is_jdk_class(&op.class) {
            op.class.clone()
        } else if op.kind == OpKind::Method {
            match session
                .model
                .methods_of(&op.class)
                .into_iter()
                .find(|m| m.name == op.name && m.descriptor == op.descriptor)
            {
                Some(m) if is_jdk_class(&m.owner) => m.owner.clone(),
                _ => continue,
            }
        } else {
            continue;
        };
        let has = match op.kind {
            OpKind::Method | OpKind::StaticMethod => {
                api.has_member(&class, &op.name, Some(&op.descriptor))
            }
            OpKind::Constructor => api.has_member(&class, "<init>", Some(&op.descriptor)),
            OpKind::StaticFieldGet | OpKind::FieldGet | OpKind::FieldSet => {
                api.has_member(&class, &op.name, None)
            }
            _ => true,
        };
        if !has {
            newer.insert(id);
        }
    }
    for &id in &newer {
        let sig = ops.table.get(id).signature();
        if ops.primary.contains(&id) || ops.secondary.contains(&id) || ops.views.contains(&id) {
            ops.leave_out(id, sig, crate::sequence::SkipReason::NewerThanRelease);
        }
    }
    ops.views.retain(|o| !newer.contains(o));
    for list in ops.observers.values_mut() {
        list.retain(|o| !newer.contains(o));
    }
    Ok(())
}

/// What the bytecode of the class path and the JDK says of the run's operations, in one
/// reading (see [`bytecode_facts`]).
pub(super) struct BytecodeFacts {
    /// The operations whose numbers size an allocation (`generate::sizing`).
    pub(super) sizing: Vec<crate::sequence::OpId>,
    /// The fields each instance method reads and writes (`instrument::fields`): the
    /// observers asserted after a call are those that read what it wrote (`generate::finish`).
    pub(super) field_use: HashMap<crate::sequence::OpId, crate::instrument::fields::FieldUse>,
    /// The operations of the run that set a static field without reading it, with their
    /// signature as --include-methods matches it.
    pub(super) settings: Vec<(crate::sequence::OpId, String)>,
    /// Per operation of the classes under test, the types its code tests a parameter's
    /// value against ([`cast_hints`]).
    pub(super) casts: HashMap<crate::sequence::OpId, Vec<crate::model::JType>>,
}

pub(super) fn bytecode_facts(session: &mut Session, ops: &OpSet) -> anyhow::Result<BytecodeFacts> {
    use crate::sequence::OpKind;
    session.with_classes(|model, cp, jdk| {
        let mut bytes = |n: &str| {
            cp.find(n)
                .ok()
                .flatten()
                .or_else(|| jdk.class_bytes(n).ok().flatten())
        };
        let sizing = crate::generate::sizing::sizing_ops(&ops.table, &mut bytes);
        let mut fields = crate::instrument::fields::Fields::default();
        let mut field_use = HashMap::new();
        let mut settings = Vec::new();
        let mut casts = HashMap::new();
        let primary: HashSet<_> = ops.primary.iter().collect();
        let generated: HashSet<_> = ops.primary.iter().chain(&ops.secondary).collect();
        for (id, op) in ops.table.iter() {
            let kind = op.kind;
            let called = matches!(
                kind,
                OpKind::Method | OpKind::StaticMethod | OpKind::Constructor
            );
            if !called || (kind != OpKind::Method && !generated.contains(&id)) {
                continue;
            }
            let u = fields.of(&op.class, &op.name, &op.descriptor, &mut bytes);
            if generated.contains(&id) && u.settings_written().next().is_some() {
                let members = if kind == OpKind::Constructor {
                    model.constructors_of(&op.class)
                } else {
                    model.methods_of(&op.class)
                };
                if let Some(m) = members
                    .iter()
                    .find(|m| m.name == op.name && m.descriptor == op.descriptor)
                {
                    let sig = crate::generate::ops::qualified_signature(&op.class, &op.name, m);
                    settings.push((id, sig));
                }
            }
            if primary.contains(&id) {
                let hints = cast_hints(model, op, &u.casts);
                if !hints.is_empty() {
                    casts.insert(id, hints);
                }
            }
            if kind == OpKind::Method && (!u.reads.is_empty() || !u.writes.is_empty()) {
                field_use.insert(id, u);
            }
        }
        Ok(BytecodeFacts {
            sizing,
            field_use,
            settings,
            casts,
        })
    })
}

/// The classes among `casts` (internal names: what `op`'s code and its class's methods it
/// calls test with `instanceof`) that are proper subtypes of one of `op`'s
/// reference parameters and callable from the tests: the kinds of value the method treats
/// apart. Why: a value for an `Object` parameter comes from every type of the pool at once,
/// mostly the classes under test's own; `CSVFormat.print(Object, Appendable, boolean)` copies
/// an `InputStream` and a `Reader` by a path of its own that no test reached (Commons CSV's
/// head, issue 33 item 5). EvoSuite seeds such parameters with the cast classes the same way.
fn cast_hints(
    model: &crate::model::Model,
    op: &crate::sequence::Operation,
    casts: &std::collections::BTreeSet<String>,
) -> Vec<crate::model::JType> {
    use crate::model::JType;
    let params: Vec<&JType> = op
        .params
        .iter()
        .filter(|p| matches!(p, JType::Class { .. }))
        .collect();
    if params.is_empty() {
        return Vec::new();
    }
    casts
        .iter()
        .map(|c| c.replace('/', "."))
        .filter(|c| model.get(c).is_some() && model.is_accessible(c))
        .map(|c| JType::class(&c))
        .filter(|h| params.iter().any(|p| *p != h && model.is_subtype(h, p)))
        .collect()
}

/// Operations that set a static field without reading it (`OptionBuilder.withDescription(d)`
/// keeps `d` for whichever `create()` comes next, in any later test of the JVM) are left
/// out, as static `set*` methods are by name (`SkipReason::GlobalState`): a test calling one
/// changes what every test after it sees, in the user's build too (Commons CLI under
/// Surefire). Read from the bytecode, so the rule holds whatever the method is called, and
/// it is deterministic, unlike watching the fields at run time. --include-methods naming
/// one keeps it.
pub(super) fn leave_out_settings(
    ops: &mut OpSet,
    settings: &[(crate::sequence::OpId, String)],
    include: Option<&Regex>,
) -> anyhow::Result<()> {
    for (op, sig) in settings {
        if !include.is_some_and(|r| r.is_match(sig)) {
            ops.leave_out(*op, sig.clone(), crate::sequence::SkipReason::GlobalState);
        }
    }
    if ops.primary.is_empty() {
        bail!(
            "every member of the selected classes jforge could call sets static state that \
             later tests would see; name the ones to test with --include-methods"
        );
    }
    Ok(())
}

/// The default literals plus the constants found in the classes under test.
pub(super) fn literal_pool(model: &crate::model::Model, classes: &[String]) -> LiteralPool {
    let mut literals = LiteralPool::with_defaults();
    for c in classes {
        if let Some(ci) = model.get(c) {
            for l in &ci.literals {
                literals.add_literal(l);
            }
        }
    }
    literals
}

/// Coverage (on by default): instrumented copies of the classes under test for the workers,
/// and the view operations guidance reaches the measured nested classes through. Coverage is
/// off on a JRE (with a warning) unless the user asked for `--coverage`. The clock is
/// controlled whenever javac can compile its runtime, coverage or not: the same set-up holds
/// both, one class folder, and `measured` says whether it has probes.
fn coverage_setup(
    session: &mut Session,
    args: &GenSettings,
    limits: &Limits,
    sel: &Selected,
    ops: &mut OpSet,
) -> anyhow::Result<Option<crate::coverage::Setup>> {
    let setup = instrument(session, args, limits, &sel.measured())?;
    if let Some(setup) = setup.as_ref().filter(|s| s.measured) {
        add_guidance_views(session, args, limits, &sel.classes, &setup.maps, ops)?;
    }
    Ok(setup)
}

/// The instrumenting half of [`coverage_setup`]: the `measured` classes rewritten (probes
/// when coverage is on, the clock always), and the workers set to run them.
pub(super) fn instrument(
    session: &mut Session,
    args: &GenSettings,
    limits: &Limits,
    measured: &[String],
) -> anyhow::Result<Option<crate::coverage::Setup>> {
    let mut use_coverage = !args.no_coverage && (args.coverage || COVERAGE_BY_DEFAULT);
    if use_coverage && session.java.javac.is_none() {
        if args.coverage {
            bail!(
                "--coverage needs a JDK with javac, and {} has none: point --java at a JDK",
                session.java.home.display()
            );
        }
        // Coverage is on by default; on a JRE the run goes on without it.
        eprintln!(
            "warning: {} is a JRE (no javac): running without coverage or control of the \
             clock, and the written tests cannot be checked; point --java at a JDK for all three",
            session.java.home.display()
        );
        use_coverage = false;
    }
    if limits.stop_on_plateau.is_some() && !use_coverage {
        bail!("--stop-on-plateau needs coverage (drop --no-coverage)");
    }
    if session.java.javac.is_none() {
        return Ok(None);
    }
    let what = crate::coverage::Instrument {
        coverage: use_coverage,
        clock: true,
    };
    let setup = session
        .with_classes(|_, cp, jdk| crate::coverage::Setup::prepare_with(cp, jdk, measured, what))?;
    if let Some(first) = setup.clock_skipped.first() {
        eprintln!(
            "warning: {} classes read the clock but could not be rewritten (e.g. {first}): \
             values they derive from it may be asserted; check the written tests that use them",
            setup.clock_skipped.len()
        );
    }
    // The workers run the rewritten copies, on the fixed clock (the second opinion shifts it).
    let mut settings = session.worker_settings().clone();
    settings.classpath_prefix = vec![setup.class_dir.clone()];
    settings
        .extra_jvm_args
        .extend(setup.jvm_args.iter().cloned());
    settings
        .extra_jvm_args
        .push(crate::runner::CLOCK_FIXED.to_string());
    session.set_worker_settings(settings);
    Ok(Some(setup))
}

/// The guidance half of [`coverage_setup`]: with coverage measured and guided, the view
/// operations through which generation reaches the measured classes no operation calls
/// directly (views, iterators, the package's non-public implementations such as the map
/// behind MapMaker.makeMap()), through the interfaces they implement (see
/// ops::add_view_ops). `maps` are the instrumented classes' probe maps (none: no probes).
pub(super) fn add_guidance_views(
    session: &mut Session,
    args: &GenSettings,
    limits: &Limits,
    classes: &[String],
    maps: &[crate::instrument::ProbeMap],
    ops: &mut OpSet,
) -> anyhow::Result<()> {
    if args.no_guidance || maps.is_empty() {
        return Ok(());
    }
    session.with_classes(|model, cp, jdk| {
        let nested: Vec<String> = maps
            .iter()
            .map(|m| m.class_name.replace('/', "."))
            // (a class under test of package access too: its instances mostly come from
            // public factories typed as its interfaces, `Evens.upTo(n)`'s `List`)
            .filter(|n| !classes.contains(n) || !model.is_public_api(n))
            .collect();
        for n in &nested {
            // a nested class that cannot be read simply gives no views
            let _ = model.load(cp, jdk, n);
        }
        add_view_ops(
            ops,
            model,
            &nested,
            limits.include.as_ref(),
            limits.exclude.as_ref(),
            2,
        );
        Ok(())
    })?;
    // the views bring JDK members of their own (`transferTo(Writer)`, Java 10, of a
    // project's nested `Reader`): the release's filter again
    if let Some(release) = args.suite.test_release {
        leave_out_newer_than(session, ops, release)?;
    }
    Ok(())
}

/// `--concolic`: the classes under test instrumented in trace mode, for the helper's own
/// pool (made before gen's pool is taken: instrumenting may read JDK classes through it).
fn traced_setup(
    session: &mut Session,
    classes: &[String],
    solver: Option<&crate::concolic::solver::SolverSpec>,
) -> anyhow::Result<Option<crate::coverage::Setup>> {
    if solver.is_none() {
        return Ok(None);
    }
    if session.java.javac.is_none() {
        bail!(
            "--concolic instruments the classes under test and needs a JDK with javac; {} has \
             none: point --java at a JDK",
            session.java.home.display()
        );
    }
    let setup = session
        .with_classes(|_, cp, jdk| crate::coverage::Setup::prepare_traced(cp, jdk, classes))?;
    Ok(Some(setup))
}

pub(super) fn gen_config(args: &GenSettings, limits: &Limits) -> GenConfig {
    GenConfig {
        seed: args.seed,
        time_limit: limits.time_limit,
        generated_limit: args.generated_limit,
        error_exceptions: crate::contracts::error_exceptions(&args.error_exceptions),
        adaptive: args.adaptive_weights,
        max_candidates: (limits.output_limit * 4).max(100),
        stop_on_plateau: limits.stop_on_plateau,
        guidance: !args.no_guidance,
        ..GenConfig::default()
    }
}

/// Generation with a progress bar; returns how long it took. The time limit covers the whole
/// run up to its end: generation gets what set-up left (at least a second).
fn generate(
    generator: &mut Generator,
    pool: &mut crate::runner::Pool,
    args: &GenSettings,
    limits: &Limits,
    setup_time: Duration,
) -> anyhow::Result<Duration> {
    let bar = progress_bar(args, limits.time_limit);
    let gen_start = Instant::now();
    if let Some(t) = limits.time_limit {
        generator.cfg.time_limit = Some(t.saturating_sub(setup_time).max(Duration::from_secs(1)));
    }
    pool.set_stop_at(generator.cfg.time_limit.map(|t| gen_start + t));
    let mut log = crate::progress::LogLines::new(args.run.quiet);
    let mut tick = |p: &Progress| {
        update_bar(&bar, p, args.generated_limit);
        log.tick(p.elapsed, || format!("generating {}", bar.message()));
    };
    generator.run(pool, &mut tick)?;
    let gen_time = gen_start.elapsed();
    bar.finish_and_clear();
    Ok(gen_time)
}

/// Generation ([`generate`]), then the earlier run's error-revealing tests run again: those
/// that still show their defect stay its tests (past the time limit's stop, as the finish is).
fn generate_then_replay(
    generator: &mut Generator,
    pool: &mut crate::runner::Pool,
    (args, limits, setup_time): (&GenSettings, &Limits, Duration),
    errors: &[crate::sequence::Sequence],
) -> anyhow::Result<Duration> {
    let t = generate(generator, pool, args, limits, setup_time)?;
    pool.set_stop_at(None);
    generator.replay_errors(pool, errors.to_vec())?;
    Ok(t)
}

/// The regression tests (coverage-keeping first, up to --output-limit) and the minimized
/// error-revealing tests, each observed in two JVMs.
pub(super) fn build_tests(
    generator: &Generator,
    pool: &mut crate::runner::Pool,
    args: &GenSettings,
    how: &Selecting,
    fstats: &mut FinishStats,
) -> anyhow::Result<(Vec<TestCase>, Vec<ErrorTest>)> {
    let output_limit = how.limit;
    if !args.run.quiet {
        eprintln!(
            "Building tests: re-running {} candidates in two JVMs, minimizing {} errors...",
            (generator.final_candidates().len() + how.earlier.len()).min(output_limit),
            generator.errors.len()
        );
    }
    let regression = regression_tests(generator, pool, how, fstats)?;
    if fstats.selection.left_out > 0 {
        eprintln!(
            "warning: --output-limit {output_limit} cut the tests that keep the run's coverage \
             ({} needed): {} of {} line and branch probes the run covered are left out; \
             raise --output-limit to keep them",
            fstats.selection.cover, fstats.selection.left_out, fstats.selection.probes
        );
    }
    let errors = error_tests(generator, pool, fstats, how.deadline)?;
    Ok((regression, errors))
}

/// The regression tests an earlier run left in the output folder, read back.
pub(super) struct Earlier {
    /// Those whose sequence this run's operations express, in file order.
    pub(super) tests: Vec<EarlierTest>,
    /// Those that call a member this run does not test, or were written without a stored
    /// sequence.
    unreadable: usize,
    /// Fingerprints of `tests`' sequences.
    fingerprints: HashSet<u128>,
    /// The error-revealing tests' sequences: run again after generation, each keeps its
    /// place as the test of the defect it still shows (`Generator::replay_errors`).
    pub(super) errors: Vec<crate::sequence::Sequence>,
}

/// Reads the earlier run's tests back (see `emit::stored`; the error-revealing ones apart)
/// and tells the output where each stays when it is written again.
fn read_earlier(out: &mut RunOutput, ops: &OpSet, classes: &[String]) -> Earlier {
    let resolver = std::cell::OnceCell::new();
    let (earlier, placements) = read_earlier_placed(out, &resolver, &ops.table, classes);
    out.set_placements(placements);
    earlier
}

/// [`read_earlier`] without telling the output: the earlier tests, and where each stays.
/// The sequences are read with `resolver`, made from `table` when first needed (it reads
/// the whole table: the classes of a `--per-class` run share one).
pub(super) fn read_earlier_placed(
    out: &RunOutput,
    resolver: &std::cell::OnceCell<Resolver>,
    table: &crate::sequence::OpTable,
    classes: &[String],
) -> (Earlier, HashMap<u128, Placement>) {
    let stored = out.earlier_tests(classes);
    let mut earlier = Earlier::none();
    let mut placements = HashMap::new();
    if stored.is_empty() {
        return (earlier, placements);
    }
    let resolver = resolver.get_or_init(|| Resolver::new(table));
    for t in stored {
        let decoded = t.json.as_deref().and_then(|j| resolver.decode(j));
        if t.error_file {
            // an error-revealing test that cannot be read back is simply replaced
            if let Some((seq, _, true)) = decoded {
                placements.insert(
                    seq.fingerprint(),
                    Placement {
                        class: t.class,
                        method: t.method,
                    },
                );
                earlier.errors.push(seq);
            }
            continue;
        }
        let Some((seq, exception, _)) = decoded else {
            earlier.unreadable += 1;
            continue;
        };
        let fp = seq.fingerprint();
        if !earlier.fingerprints.insert(fp) {
            continue;
        }
        placements.insert(
            fp,
            Placement {
                class: t.class,
                method: t.method,
            },
        );
        earlier.tests.push(EarlierTest { seq, exception });
    }
    (earlier, placements)
}

impl Earlier {
    /// Another class's earlier tests added to these (`gen --per-class`, one report).
    pub(super) fn absorb(&mut self, other: Earlier) {
        self.tests.extend(other.tests);
        self.unreadable += other.unreadable;
        self.fingerprints.extend(other.fingerprints);
        self.errors.extend(other.errors);
    }

    pub(super) fn none() -> Earlier {
        Earlier {
            tests: Vec::new(),
            unreadable: 0,
            fingerprints: HashSet::new(),
            errors: Vec::new(),
        }
    }

    /// Kept, added and removed against the tests written (`None` without earlier tests).
    pub(super) fn diff(
        &self,
        written: &[TestCase],
        errors: &[ErrorTest],
        fstats: &FinishStats,
    ) -> Option<EarlierSuite> {
        let tests = self.tests.len() + self.unreadable;
        if tests == 0 && self.errors.is_empty() {
            return None;
        }
        let earlier_errors: HashSet<u128> = self.errors.iter().map(|s| s.fingerprint()).collect();
        let error_tests_kept = errors
            .iter()
            .filter(|e| earlier_errors.contains(&e.case.seq.fingerprint()))
            .count();
        let kept = written
            .iter()
            .filter(|t| self.fingerprints.contains(&t.seq.fingerprint()))
            .count();
        let e = &fstats.earlier;
        let removed_failing = e.chosen.saturating_sub(kept);
        Some(EarlierSuite {
            tests,
            kept,
            added: written.len() - kept,
            removed: tests - kept,
            removed_changed: e.changed,
            removed_unreadable: self.unreadable,
            removed_failing,
            removed_add_nothing: (tests - kept)
                .saturating_sub(e.changed + self.unreadable + removed_failing),
            error_tests: earlier_errors.len(),
            error_tests_kept,
            replayed_sequences: None,
        })
    }
}

/// What the project's own suite covered of the classes under test (`--project`).
pub(super) struct OwnBaseline {
    pub(super) probes: crate::generate::select::ProbeSet,
    hit: Vec<bool>,
    tests: u64,
}

/// Runs the module's own suite (`GenSettings::own_suite`) against the run's instrumented
/// classes, so that its probes are those of the run. Without coverage, or when the suite
/// cannot run, `None` with a warning: the run then writes tests for all it covers.
pub(super) fn own_suite_baseline(
    java: &crate::runner::java::JavaHome,
    cp: &crate::model::classpath::ClassPath,
    args: &GenSettings,
    setup: Option<&crate::coverage::Setup>,
) -> Option<OwnBaseline> {
    let own = args.own_suite.as_ref()?;
    let (Some(setup), Some(javac)) = (setup.filter(|s| s.measured), &java.javac) else {
        eprintln!(
            "warning: without coverage the project's own tests cannot be measured; writing tests for all the run covers"
        );
        return None;
    };
    let started = Instant::now();
    match crate::coverage::cmd::run_own_suite(&java.java, javac, cp, setup, own) {
        Ok(r) => {
            let mut probes = crate::generate::select::ProbeSet::default();
            for (i, h) in r.hit.iter().enumerate() {
                if *h {
                    probes.insert(i as u32);
                }
            }
            let per_class = crate::coverage::summarize(&setup.maps, &r.hit);
            let (lines, branches, _) = crate::coverage::totals(&per_class);
            eprintln!(
                "the project's own tests: {} tests, {}/{} branches, {}/{} lines of the classes under test ({:.1} s); writing only tests that add to them",
                r.tests,
                branches.covered,
                branches.total,
                lines.covered,
                lines.total,
                started.elapsed().as_secs_f64()
            );
            Some(OwnBaseline {
                probes,
                hit: r.hit,
                tests: r.tests,
            })
        }
        Err(e) => {
            eprintln!(
                "warning: the project's own tests could not be measured ({e:#}); writing tests for all the run covers"
            );
            None
        }
    }
}

/// The own suite's coverage, and the own and written suites' together, in the report.
pub(super) fn add_own_suite(
    report: &mut Report,
    setup: &crate::coverage::Setup,
    own: &OwnBaseline,
    written: Option<&[bool]>,
) {
    let Some(cov) = report.coverage.as_mut() else {
        return;
    };
    let count = |hit: &[bool]| {
        let (lines, branches, _) =
            crate::coverage::totals(&crate::coverage::summarize(&setup.maps, hit));
        (branches.covered, lines.covered)
    };
    let (own_branches, own_lines) = count(&own.hit);
    let both: Option<Vec<bool>> = written.map(|w| {
        own.hit
            .iter()
            .enumerate()
            .map(|(i, h)| *h || w.get(i).copied().unwrap_or(false))
            .collect()
    });
    let (with_branches, with_lines) = both.as_deref().map_or((own_branches, own_lines), count);
    cov.own_suite = Some(crate::generate::report::OwnSuiteCoverage {
        tests: own.tests,
        branches_covered: own_branches,
        lines_covered: own_lines,
        with_written_branches: with_branches,
        with_written_lines: with_lines,
        steered_at: None,
    });
}

/// The written suite's coverage (from the final check) next to the run's, and where the
/// difference went.
fn add_suite_coverage(
    report: &mut Report,
    setup: &crate::coverage::Setup,
    hits: &[bool],
    fstats: &FinishStats,
) {
    add_suite_coverage_of(report, &setup.maps, hits, fstats);
}

/// [`add_suite_coverage`] over the classes of `maps` only.
pub(super) fn add_suite_coverage_of(
    report: &mut Report,
    maps: &[crate::instrument::ProbeMap],
    hits: &[bool],
    fstats: &FinishStats,
) {
    let Some(cov) = report.coverage.as_mut() else {
        return;
    };
    let per_class = crate::coverage::summarize(maps, hits);
    let (lines, branches, _) = crate::coverage::totals(&per_class);
    let sel = &fstats.selection;
    cov.suite = Some(SuiteCoverage {
        branches_covered: branches.covered,
        lines_covered: lines.covered,
        branch_percent: 100.0 * crate::coverage::ratio(branches.covered, cov.branches_total),
        line_percent: 100.0 * crate::coverage::ratio(lines.covered, cov.lines_total),
        branches_only_in_illegal_sequences: cov.branches_covered.saturating_sub(sel.legal_branches),
        branches_lost_in_selection: sel.legal_branches.saturating_sub(sel.chosen_branches),
        branches_lost_in_check: sel.chosen_branches as i64 - branches.covered as i64,
        per_class,
    });
}

fn phases(t: &Timing) -> Phases {
    Phases {
        setup: t.setup.as_secs_f64(),
        generation: t.generation.as_secs_f64(),
        finish: t.finish.as_secs_f64(),
        check: t.check.as_secs_f64(),
        finish_budget: t.finish_budget.map(|b| b.as_secs_f64()),
    }
}

pub(super) fn progress_bar(args: &GenSettings, time_limit: Option<Duration>) -> ProgressBar {
    if args.run.quiet {
        return ProgressBar::hidden();
    }
    let len = match (args.generated_limit, time_limit) {
        (Some(n), _) => n,
        (None, Some(t)) => t.as_secs().max(1),
        _ => 0,
    };
    let bar = ProgressBar::new(len);
    let unit = if args.generated_limit.is_some() {
        "{pos}/{len} seq"
    } else {
        "{pos}/{len}s"
    };
    let style =
        ProgressStyle::with_template(&format!("{{elapsed_precise}} [{{bar:30}}] {unit} {{msg}}"))
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

pub(super) fn update_bar(bar: &ProgressBar, p: &Progress, count_limit: Option<u64>) {
    let secs = p.elapsed.as_secs_f64().max(1e-6);
    bar.set_position(if count_limit.is_some() {
        p.generated
    } else {
        p.elapsed.as_secs()
    });
    let cov = match p.branches {
        Some((c, t)) => format!(
            " | branches {c}/{t} ({:.1}%)",
            100.0 * crate::coverage::ratio(c, t)
        ),
        None => String::new(),
    };
    bar.set_message(format!(
        "| {:.0} seq/s | {} executed | {} regression | {} error kinds{cov}",
        p.executed as f64 / secs,
        p.executed,
        p.regression,
        p.errors
    ));
}
