//! `jforge exhaustive`: its flags and its [`Strategy`], the steps of a run from the flags to
//! the structures, the written tests and the report (`crate::exhaustive::report`).

use crate::emit::output::{Installed, RunOutput};
use crate::emit::suite::Tool;
use crate::exhaustive::DomainInput;
use crate::exhaustive::report::{CounterexampleRow, ExhaustiveStats, FailureRow, PrototypeReuse};
use crate::exhaustive::search::{self, Search, SearchConfig, Usable};
use crate::exhaustive::{
    Settings, build_tests, canon_jvm_args, check_can_start, default_worker_heap, memory_budget,
    render_seq,
};
use crate::exhaustive::{growth, reach};
use crate::flags::{
    DomainArgs, ProjectArgs, RunArgs, SuiteArgs, check_common, check_project_suite,
};
use crate::generate::ops::{OpSet, SkipReason};
use crate::model::{JType, Model, Prim};
use crate::report::{StopReason, ValidationSummary};
use crate::runner::{Pool, PoolStats};
use crate::select;
use crate::sequence::{OpId, Operation};
use crate::session::{PoolMaker, Session, WorkerSettings};
use crate::settings::{ProjectSettings, RunSettings, SuiteSettings, parse_duration};
use crate::strategy::{Finished, Strategy};
use crate::suite::ObserveStats;
use crate::suite::check::{CheckSettings, write_and_check};
use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `jforge exhaustive`. Every setting but the class path, classes and outputs can also come
/// from a properties file (`--config FILE`, keys as the flag names without `--`, e.g.
/// `scope=4`, `ints=0:3`, `omit-fields=modCount`; BEAPI's `max.objects`, `int.range` and
/// `omit.fields` are accepted too). Flags override the file.
#[derive(Args, Debug, Clone, Default)]
pub struct ExhaustiveArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Most objects of one class reachable from a structure's root (root excluded).
    #[arg(long, value_name = "N")]
    pub scope: Option<u32>,
    #[command(flatten)]
    pub domain: DomainArgs,
    /// Properties file with the settings above.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    #[command(flatten)]
    pub suite: SuiteArgs,
    #[command(flatten)]
    pub project: ProjectArgs,
    /// File of builder signatures (one regex per line, # comments): only those members;
    /// list a constructor too (e.g. `ds\.AvlTree\(\)`). `auto`: identify them first (jforge
    /// builders, hill climbing at scope min(5, --scope)).
    #[arg(long, value_name = "FILE|auto")]
    pub builders: Option<PathBuf>,
    /// Most structure tests written to --output-dir.
    #[arg(long, default_value_t = 10_000)]
    pub max_tests: usize,
    /// Write the canonical forms here, one per line, sorted.
    #[arg(long, value_name = "FILE")]
    pub dump: Option<PathBuf>,
    /// Append `class,scope,seconds,structures,explored` to this CSV file.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Keep every sequence that runs normally within scope (ablation; bound it with --max-rounds).
    #[arg(long)]
    pub no_state_matching: bool,
    /// Stop after this many rounds even without a fixpoint.
    #[arg(long, value_name = "N")]
    pub max_rounds: Option<u32>,
    /// Give up (exit 4, like a memory budget) when the search has not reached its fixpoint
    /// this long after the start: `30s`, `10m`, `2h` (default: no limit). A search cut short
    /// is not exhaustive, so nothing is written.
    #[arg(long, value_name = "D")]
    pub time_limit: Option<String>,
    /// A boolean no-argument method (e.g. repOK) called on every structure; false = counterexample.
    #[arg(long, value_name = "METHOD")]
    pub check: Option<String>,
    /// Re-execute every sequence from scratch instead of extending live copies of the kept
    /// structures (same results, slower; for comparison).
    #[arg(long)]
    pub no_reuse: bool,
    /// Do not check the equals/hashCode/toString/compareTo contracts on every structure.
    #[arg(long)]
    pub no_contracts: bool,
}

impl ExhaustiveArgs {
    /// The flags read once into the plain settings of a run, or why they cannot work, before
    /// anything starts.
    pub fn settings(self) -> anyhow::Result<Plan> {
        check_common(self.run.workers, &self.run.classes, &[])?;
        let time_limit = self
            .time_limit
            .as_deref()
            .map(|t| parse_duration(t).context("--time-limit"))
            .transpose()?;
        let auto_builders = self.builders.as_deref() == Some(std::path::Path::new("auto"));
        let builders = self.builders.clone().filter(|_| !auto_builders);
        check_project_suite(&self.project, &self.suite)?;
        Ok(Plan {
            run: self.run.settings(),
            suite: self.suite.settings(),
            project: self.project.settings()?,
            input: self.domain.input(
                self.scope,
                self.config.clone(),
                builders,
                self.check.clone(),
            ),
            auto_builders,
            batch: self.domain.batch,
            max_memory: self.domain.max_memory,
            max_tests: self.max_tests,
            dump: self.dump,
            csv: self.csv,
            no_state_matching: self.no_state_matching,
            max_rounds: self.max_rounds,
            time_limit,
            no_reuse: self.no_reuse,
            no_contracts: self.no_contracts,
        })
    }
}

/// A run of `jforge exhaustive`, read from its flags.
#[derive(Debug, Clone)]
pub struct Plan {
    run: RunSettings,
    suite: SuiteSettings,
    project: Option<ProjectSettings>,
    /// The input space as given (read against `--config` by `Settings::read`).
    input: DomainInput,
    /// `--builders auto`: identify a builder set first (jforge builders), then enumerate
    /// with it.
    auto_builders: bool,
    batch: usize,
    max_memory: Option<u64>,
    max_tests: usize,
    dump: Option<PathBuf>,
    csv: Option<PathBuf>,
    no_state_matching: bool,
    max_rounds: Option<u32>,
    time_limit: Option<Duration>,
    no_reuse: bool,
    no_contracts: bool,
}

/// Runs `jforge exhaustive` through the shared pipeline (`crate::strategy::drive`); failures
/// and --check counterexamples make the outcome `ErrorsFound` (exit 3); an interrupted run
/// exits with status 130 (see `crate::interrupt`).
pub fn run(args: ExhaustiveArgs) -> anyhow::Result<crate::exit::Outcome> {
    run_plan(args.settings()?)
}

fn run_plan(args: Plan) -> anyhow::Result<crate::exit::Outcome> {
    if let Some(project) = args.project.clone() {
        return run_project(args, &project);
    }
    crate::strategy::drive(Exhaustive {
        args,
        prepared: None,
    })
}

/// `exhaustive --project`: one run per module holding some of the `--class` classes, on the
/// class path its build uses, its suite written into the module's `src/test/java` with its
/// JUnit (`project::suite_into`), error tests as `...ErrorCases`: asking for the project is
/// asking for tests in it (without `--project`, a suite is written only with --output-dir).
fn run_project(args: Plan, project: &ProjectSettings) -> anyhow::Result<crate::exit::Outcome> {
    if args.run.classes.is_empty() {
        bail!("exhaustive --project needs the classes to search: --class NAME (repeatable)");
    }
    crate::project::run_modules(project, &args.run, true, |m, shared| {
        let mut a = args.clone();
        a.project = None;
        a.run = shared;
        crate::project::suite_into(&m.module, &mut a.suite)?;
        run_plan(a)
    })
}

/// `jforge exhaustive`: bounded-exhaustive enumeration of structures (BEAPI).
pub struct Exhaustive {
    args: Plan,
    /// Set by [`Strategy::prepare`].
    prepared: Option<Prepared>,
}

/// The flags checked and the output folders locked, before anything starts.
struct Prepared {
    settings: Settings,
    /// `--builders auto`: identify a builder set first (jforge builders), then enumerate with
    /// it.
    auto_builders: bool,
    /// With --output-dir: locked for the whole run, written through staging (emit::output).
    output: Option<RunOutput>,
}

/// The tests written, when --output-dir was given.
#[derive(Default)]
struct Written {
    regression: usize,
    failures: usize,
    observe: ObserveStats,
    installed: Installed,
    validation: Option<ValidationSummary>,
}

const NOT_PREPARED: &str = "internal error: jforge exhaustive ran before its flags were checked";

impl Strategy for Exhaustive {
    const COMMAND: &'static str = "exhaustive";
    type Stats = ExhaustiveStats;

    fn run_settings(&self) -> &RunSettings {
        &self.args.run
    }

    fn prepare(&mut self) -> anyhow::Result<()> {
        let args = &self.args;
        let auto_builders = args.auto_builders;
        let settings = Settings::read(&args.input)?;
        if args.run.classes.is_empty() {
            bail!("name the class to enumerate with --class NAME");
        }
        let output = RunOutput::for_suite(Tool::Exhaustive, &args.suite, None, None)?;
        self.prepared = Some(Prepared {
            settings,
            auto_builders,
            output,
        });
        Ok(())
    }

    fn worker_settings(&self) -> anyhow::Result<WorkerSettings> {
        let p = self.prepared.as_ref().context(NOT_PREPARED)?;
        let workers = self.args.run.workers_or_cores();
        Ok(WorkerSettings {
            call_timeout: Duration::from_secs(5),
            heap_mb: self
                .args
                .run
                .worker_heap
                .unwrap_or_else(|| default_worker_heap(workers)),
            classpath_prefix: Vec::new(),
            extra_jvm_args: canon_jvm_args(
                &p.settings,
                Some(p.settings.scope),
                self.args.dump.is_some(),
            ),
        })
    }

    fn run(self, mut session: Session, started: Instant) -> anyhow::Result<Finished<Self::Stats>> {
        let Exhaustive { args, prepared } = self;
        let Prepared {
            settings,
            auto_builders,
            mut output,
        } = prepared.context(NOT_PREPARED)?;
        let classes = classes_under_test(&args, &mut session)?;
        let mut pool = session.take_pool()?;
        let model = &session.model;

        // ---- operations: the usable ones (after --methods, --builders or --builders auto)
        let Operations {
            ops,
            check_ops,
            usable,
            skipped,
        } = operations(
            &args,
            &settings,
            auto_builders,
            &session,
            &mut pool,
            &classes,
        )?;

        // ---- the search
        let cfg = search_config(&args, &settings, check_ops, started)?;
        let n_usable = usable.len();
        let mut search = Search::new(model, &ops, usable, cfg);
        let search_start = Instant::now();
        if let Err(e) = run_search(&mut search, &mut pool, args.run.quiet) {
            pool.shutdown();
            return Err(explain_limit(e, &search, &session.pool_maker(), &settings));
        }
        let seconds = search_start.elapsed().as_secs_f64();
        let structures = search.structures_of(&classes);
        write_dump_and_csv(
            &args,
            &search,
            &classes,
            settings.scope,
            seconds,
            structures,
        )?;

        // ---- tests, through the shared suite stage
        let written = match &mut output {
            Some(out) => write_tests(out, &session, &mut pool, &search, &args, &classes)?,
            None => Written::default(),
        };
        let pool_stats = pool.stats();
        pool.shutdown();

        let stats = exhaustive_stats(RunFigures {
            args: &args,
            settings: &settings,
            classes: &classes,
            search: &search,
            usable_operations: n_usable,
            skipped,
            workers: session.workers,
            seconds,
            started,
            structures,
            output: output.as_ref(),
            written,
            pool: pool_stats,
        });
        Ok(finished(&search, stats))
    }

    fn print_summary(stats: &ExhaustiveStats, out: &mut dyn Write) -> std::io::Result<()> {
        stats.print_summary(out)
    }

    fn warnings(stats: &ExhaustiveStats) -> Vec<String> {
        stats.warnings()
    }
}

/// `--check m`: interns `m()` (no parameters, returns boolean) of each class under test into
/// a copy of the operation table; returns the table and the check operation per class.
fn check_operations(
    model: &Model,
    ops: &OpSet,
    classes: &[String],
    settings: &Settings,
) -> anyhow::Result<(crate::sequence::OpTable, HashMap<String, OpId>)> {
    let mut table = ops.table.clone();
    let mut check_ops = HashMap::new();
    let Some(m) = &settings.check else {
        return Ok((table, check_ops));
    };
    for c in classes {
        let Some(ty) = ops.instantiations.get(c) else {
            continue;
        };
        let found = model
            .methods_of(c)
            .into_iter()
            .find(|mi| mi.name == *m && mi.params.is_empty() && !mi.is_static());
        let Some(mi) = found else {
            bail!("--check {m}: class {c} has no method {m}() without parameters");
        };
        if mi.descriptor != "()Z" {
            bail!("--check {m}: {c}.{m}() must return boolean");
        }
        let id = table.intern(Operation::instance_call(
            c,
            m,
            "()Z",
            ty,
            Some(JType::Prim(Prim::Boolean)),
        ));
        check_ops.insert(c.clone(), id);
    }
    Ok((table, check_ops))
}

/// The classes under test (--class), their class-file versions checked, loaded.
fn classes_under_test(args: &Plan, session: &mut Session) -> anyhow::Result<Vec<String>> {
    select::check_class_versions(
        &args.run.classes,
        None,
        &[],
        &[],
        &session.cp,
        session.java.version,
    )?;
    session.load_classes_under_test(
        &args.run.classes,
        "its structures are built through its public API",
    )
}

/// The operations of a run, and the ones the search calls.
struct Operations {
    /// With the --check methods interned in its table.
    ops: OpSet,
    /// The --check operation per class under test.
    check_ops: HashMap<String, OpId>,
    usable: Vec<Usable>,
    skipped: Vec<(String, SkipReason)>,
}

/// The operations of the classes under test and the usable ones (after --methods,
/// --builders or --builders auto), refused when none is left or the search cannot start;
/// loaded into the workers.
/// What `--builders auto` gives identification.
fn auto_run(args: &Plan) -> crate::builders::AutoRun<'_> {
    crate::builders::AutoRun {
        input: &args.input,
        batch: args.batch,
        memory_budget: memory_budget(args.max_memory),
        time_limit: args.time_limit,
        quiet: args.run.quiet,
    }
}

fn operations(
    args: &Plan,
    settings: &Settings,
    auto_builders: bool,
    session: &Session,
    pool: &mut Pool,
    classes: &[String],
) -> anyhow::Result<Operations> {
    let model = &session.model;
    let (ops, skipped, mut usable) = reach::ops_with_builder_classes(model, classes, settings);
    let (table, check_ops) = check_operations(model, &ops, classes, settings)?;
    if auto_builders
        && let Some(keep) =
            crate::builders::auto(&auto_run(args), &session.pool_maker(), model, &ops, classes)?
    {
        usable.retain(|u| keep.contains(&u.op));
    }
    if usable.is_empty() {
        bail!(
            "no usable constructor or method in {}{}",
            classes.join(", "),
            if settings.methods.is_some() || !settings.builders.is_empty() {
                " after --methods/--builders"
            } else {
                ""
            }
        );
    }
    check_can_start(model, &ops, classes, &usable, settings)?;
    let ops = OpSet { table, ..ops };
    register(pool, &ops, &check_ops, &mut usable)?;
    Ok(Operations {
        ops,
        check_ops,
        usable,
        skipped,
    })
}

/// The search's settings from the flags.
fn search_config(
    args: &Plan,
    settings: &Settings,
    check_ops: HashMap<String, OpId>,
    started: Instant,
) -> anyhow::Result<SearchConfig> {
    Ok(SearchConfig {
        state_matching: !args.no_state_matching,
        reuse: !args.no_reuse,
        error_exceptions: settings.error_exceptions.clone(),
        batch: args.batch.max(1),
        max_rounds: args.max_rounds,
        memory_budget: memory_budget(args.max_memory),
        dump: args.dump.is_some(),
        check_ops,
        contracts: !args.no_contracts,
        deadline: args.time_limit.map(|t| (started + t, t)),
    })
}

/// A search its time or memory limit stopped: the error, plus the fields whose values kept
/// growing and the `--omit-fields` line ([`growth::explain_limit`], one worker started for
/// it from the session's maker, canonicalizing as text with field names).
fn explain_limit(
    e: anyhow::Error,
    search: &Search,
    maker: &PoolMaker,
    settings: &Settings,
) -> anyhow::Error {
    let cfg = maker.config(growth::names_jvm_args(canon_jvm_args(settings, None, true)));
    growth::explain_limit(e, search, cfg, settings)
}

/// What the figures of a finished run are taken from.
struct RunFigures<'a> {
    args: &'a Plan,
    settings: &'a Settings,
    classes: &'a [String],
    search: &'a Search<'a>,
    usable_operations: usize,
    skipped: Vec<(String, SkipReason)>,
    workers: usize,
    /// Seconds of the search.
    seconds: f64,
    /// When the run started.
    started: Instant,
    structures: u64,
    output: Option<&'a RunOutput>,
    written: Written,
    pool: PoolStats,
}

/// The figures of a finished run (the --stats-json stats and the summary's).
fn exhaustive_stats(f: RunFigures) -> ExhaustiveStats {
    let RunFigures {
        args,
        settings,
        classes,
        search,
        written,
        ..
    } = f;
    ExhaustiveStats {
        classes: classes.to_vec(),
        scope: settings.scope,
        ints: settings.ints.clone(),
        strings: settings.strings.clone(),
        omit_fields: settings.omit_fields.clone(),
        state_matching: !args.no_state_matching,
        usable_operations: f.usable_operations,
        skipped_members: f.skipped,
        workers: f.workers,
        seconds: f.seconds,
        total_seconds: f.started.elapsed().as_secs_f64(),
        structures: f.structures,
        structures_by_class: search
            .structures
            .iter()
            .map(|(c, n)| (c.to_string(), *n))
            .collect(),
        kept_sequences: search.kept.len(),
        prototype_reuse: PrototypeReuse {
            enabled: !args.no_reuse,
            from_prototype: search.from_prototype,
            from_scratch: search.from_scratch,
            rebuilt: search.rebuilt,
            disabled: search.reuse_disabled.clone(),
        },
        explored: search.explored,
        misuse_dropped: search.misuse_dropped,
        out_of_scope: search.out_of_scope,
        canon_errors: search.canon_errors.clone(),
        fixpoint: search.fixpoint,
        warnings: search.warnings.clone(),
        setting_warnings: settings.notes.clone(),
        no_structures_because: if f.structures == 0 {
            reach::why_nothing(search)
        } else {
            Vec::new()
        },
        rounds: search.rounds.clone(),
        failures: failure_rows(search, search.ops),
        check: settings.check.clone(),
        counterexamples: counterexample_rows(search, search.ops, settings),
        output_dir: args
            .suite
            .output_dir
            .as_ref()
            .map(|d| d.display().to_string()),
        error_output_dir: f
            .output
            .and_then(|o| o.error_dir())
            .map(|d| d.display().to_string()),
        tests_written: written.regression,
        tests_dropped: written.observe,
        validation: written.validation,
        failure_tests_written: written.failures,
        files_replaced: written.installed.replaced.len(),
        restarts: f.pool.restarts,
        timeouts: f.pool.timeouts,
    }
}

/// How the run ended: at the fixpoint or the round limit; `ErrorsFound` when there are
/// failures or --check counterexamples, else `NothingBuilt` (exit 2, the summary says why)
/// when no structure of the classes under test was built.
fn finished(search: &Search, stats: ExhaustiveStats) -> Finished<ExhaustiveStats> {
    Finished {
        stop_reason: if search.fixpoint {
            StopReason::Fixpoint
        } else {
            StopReason::RoundLimit
        },
        outcome: if !search.failures.is_empty() || !search.counterexamples.is_empty() {
            crate::exit::Outcome::ErrorsFound
        } else if stats.structures == 0 {
            crate::exit::Outcome::NothingBuilt
        } else {
            crate::exit::Outcome::Clean
        },
        stats,
    }
}

/// Loads the operations into the workers; drops the usable ones that cannot be loaded (an
/// error for the --check method).
fn register(
    pool: &mut Pool,
    ops: &OpSet,
    check_ops: &HashMap<String, OpId>,
    usable: &mut Vec<Usable>,
) -> anyhow::Result<()> {
    let failed = pool.register(&ops.table)?;
    if let Some((_, why)) = failed
        .iter()
        .find(|(id, _)| check_ops.values().any(|c| c == id))
    {
        bail!("--check method cannot be called: {why}");
    }
    let failed_ids: Vec<u32> = failed.iter().map(|(i, _)| *i).collect();
    usable.retain(|u| !failed_ids.contains(&u.op));
    Ok(())
}

/// Runs the search to its fixpoint (or --max-rounds) with a spinner and one line per round.
fn run_search(search: &mut Search, pool: &mut Pool, quiet: bool) -> anyhow::Result<()> {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::new_spinner();
        b.set_style(
            ProgressStyle::with_template("{elapsed_precise} {spinner} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        b.enable_steady_tick(Duration::from_millis(250));
        b
    };
    let mut log = crate::progress::LogLines::new(quiet);
    let mut tick = |p: &search::Progress| {
        let rate = p.explored as f64 / p.elapsed.as_secs_f64().max(1e-6);
        let msg = format!(
            "round {} | frontier {} | {} structures | {} explored | {:.0} seq/s",
            p.round, p.frontier, p.structures, p.explored, rate
        );
        if p.frontier > 0 && !quiet {
            bar.println(&msg);
            log.line(p.elapsed, &msg);
        } else {
            log.tick(p.elapsed, || msg.clone());
        }
        bar.set_message(msg);
    };
    search.run(pool, &mut tick)?;
    bar.finish_and_clear();
    Ok(())
}

/// `--dump` (every canonical form, one per line) and `--csv` (one appended line of figures).
fn write_dump_and_csv(
    args: &Plan,
    search: &Search,
    classes: &[String],
    scope: u32,
    seconds: f64,
    structures: u64,
) -> anyhow::Result<()> {
    if let Some(path) = &args.dump {
        let mut text = String::new();
        for f in &search.forms {
            text.push_str(f);
            text.push('\n');
        }
        std::fs::write(path, text)
            .with_context(|| format!("cannot write --dump file {}", path.display()))?;
    }
    if let Some(path) = &args.csv {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open --csv file {}", path.display()))?;
        writeln!(
            f,
            "{},{},{:.3},{},{}",
            classes.join("+"),
            scope,
            seconds,
            structures,
            search.explored
        )?;
    }
    Ok(())
}

/// One test per structure and the failure tests, observed in two JVMs, written, checked as a
/// build would (what does not compile or pass removed) and put in place.
fn write_tests(
    out: &mut RunOutput,
    session: &Session,
    pool: &mut Pool,
    search: &Search,
    args: &Plan,
    classes: &[String],
) -> anyhow::Result<Written> {
    let mut observe = ObserveStats::default();
    let (reg, err) = build_tests(
        search,
        &session.model,
        pool,
        classes,
        args.max_tests,
        &mut observe,
    )?;
    let ops = search.ops;
    let checked = write_and_check(
        out,
        &ops.table,
        &ops.owner_class,
        classes,
        &reg,
        &err,
        &CheckSettings::of(session, &args.suite, args.run.quiet),
    )?;
    Ok(Written {
        regression: checked.regression.len(),
        failures: checked.errors.len(),
        observe,
        installed: out.install(&checked.files)?,
        validation: Some(checked.validation),
    })
}

fn failure_rows(search: &Search, ops: &OpSet) -> Vec<FailureRow> {
    search
        .failures
        .iter()
        .map(|f| FailureRow {
            exception: f.what.clone(),
            message: f.message.clone(),
            occurrences: f.occurrences,
            sequence: render_seq(ops, &f.seq),
        })
        .collect()
}

fn counterexample_rows(
    search: &Search,
    ops: &OpSet,
    settings: &Settings,
) -> Vec<CounterexampleRow> {
    search
        .counterexamples
        .iter()
        .map(|c| {
            let k = &search.kept[c.kept];
            let (seq, _) = search.materialize(c.kept);
            CounterexampleRow {
                check: settings.check.clone(),
                result: c.result.clone(),
                class: search.classes[k.class as usize].to_string(),
                sequence: render_seq(ops, &seq),
            }
        })
        .collect()
}
