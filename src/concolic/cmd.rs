//! `jforge concolic`: its flags and its [`Strategy`]: the classes under test instrumented in
//! trace mode, a solver started, each method's constraint tree explored (`super::Engine`),
//! the paths kept written as JUnit tests through the shared suite stage, and a per-method
//! report (paths, infeasible, solver time-outs, unexplored, branch coverage of the written
//! suite). It lives in the generator's folder, not in `src/concolic_cmd.rs`: the command and
//! its algorithm change together (ARCHITECTURE.md, "Adding a generator").

use super::reasons::{self, Branches, Reason, Uncovered};
use super::receivers::{self, Effects, Limits};
use super::solver::{SmtProcess, SolverSpec};
use super::states;
use super::{Engine, Found, MethodResult, Target};
use crate::coverage::{Setup, Tracker};
use crate::emit::output::RunOutput;
use crate::emit::suite::Tool;
use crate::flags::{RunArgs, SolverArgs, SuiteArgs, check_common};
use crate::generate::ops::{OpSet, build_ops};
use crate::instrument::ProbeKind;
use crate::report::{StopReason, ValidationSummary};
use crate::runner::Pool;
use crate::sequence::{OpId, OpKind};
use crate::session::{Session, WorkerSettings};
use crate::settings::{RunSettings, SuiteSettings, parse_duration};
use crate::strategy::{Finished, Strategy};
use crate::suite::check::{CheckSettings, write_and_check};
use crate::suite::{Expect, ObserveItem, ObserveStats};
use anyhow::{Context, bail};
use clap::Args;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `jforge concolic`.
#[derive(Args, Debug, Clone)]
pub struct ConcolicArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Only this method (repeatable): a name (`check`), or a name with parameter types
    /// (`check(int,int)`, `parse(java.lang.String)`).
    #[arg(long = "method", value_name = "SIG")]
    pub methods: Vec<String>,
    /// Stop exploring this long after the start (`30s`, `2m`); writing and checking the tests
    /// come after.
    #[arg(long, value_name = "D", default_value = "60s")]
    pub time_limit: String,
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Decisions of a path beyond this depth get no alternatives (loops over inputs).
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub max_depth: usize,
    /// Calls that set up a receiver before the method under test: the depth of the state
    /// search (`--receivers states`, default 8) or of Candidate Sequence Search (only calls
    /// that write a field the later ones read; `--receivers sequences`, default 5).
    #[arg(long, value_name = "N")]
    pub max_calls: Option<usize>,
    /// Receiver sequences explored per method at most (shortest first); with `--receivers
    /// states`, distinct receiver states per class at most.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_sequences: usize,
    /// How receivers are set up: `states` (breadth first over the distinct states that calls
    /// with solver-chosen arguments reach, each extended once) or `sequences` (one
    /// constraint tree per call sequence of Candidate Sequence Search).
    #[arg(long, value_enum, default_value_t = Receivers::States)]
    pub receivers: Receivers,
    /// Keep exploring after the runs covered every branch of the classes under test (by
    /// default exploration stops there: more paths would only add tests that cover nothing
    /// new), until every tree and state is exhausted or the time limit.
    #[arg(long)]
    pub keep_exploring: bool,
    #[command(flatten)]
    pub suite: SuiteArgs,
}

/// How `jforge concolic` sets up the receivers of instance methods.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Receivers {
    /// Breadth first over distinct receiver states (`states.rs`).
    States,
    /// One constraint tree per Candidate Sequence Search sequence.
    Sequences,
}

impl ConcolicArgs {
    /// The flags read once into the plain settings of a run (the solver found), or why they
    /// cannot work, before anything starts.
    pub fn settings(self) -> anyhow::Result<Plan> {
        check_common(self.run.workers, &self.run.classes, &[])?;
        if self.run.classes.is_empty() {
            bail!("name the class to explore with --class NAME");
        }
        Ok(Plan {
            time_limit: parse_duration(&self.time_limit).context("--time-limit")?,
            solver: SolverSpec::find(&self.solver.choice()?)?,
            run: self.run.settings(),
            suite: self.suite.settings(),
            methods: self.methods,
            max_depth: self.max_depth,
            max_calls: self.max_calls,
            max_sequences: self.max_sequences,
            receivers: self.receivers,
            keep_exploring: self.keep_exploring,
        })
    }
}

/// A run of `jforge concolic`, read from its flags.
#[derive(Debug)]
pub struct Plan {
    run: RunSettings,
    suite: SuiteSettings,
    methods: Vec<String>,
    time_limit: Duration,
    solver: SolverSpec,
    max_depth: usize,
    max_calls: Option<usize>,
    max_sequences: usize,
    receivers: Receivers,
    keep_exploring: bool,
}

/// Runs `jforge concolic` through the shared pipeline.
pub fn run(args: ConcolicArgs) -> anyhow::Result<crate::exit::Outcome> {
    crate::strategy::drive(Concolic {
        args: args.settings()?,
        prepared: None,
    })
}

/// `jforge concolic`: concolic exploration of each method with an SMT solver.
pub struct Concolic {
    args: Plan,
    prepared: Option<Prepared>,
}

struct Prepared {
    time_limit: Duration,
    solver: SolverSpec,
    output: Option<RunOutput>,
}

const NOT_PREPARED: &str = "internal error: jforge concolic ran before its flags were checked";

/// One method's row of the report.
#[derive(Debug, Clone, serde::Serialize)]
pub struct MethodRow {
    #[serde(flatten)]
    pub result: MethodResult,
    /// Branches of the method and those the written suite covers.
    pub branches: u32,
    pub covered_branches: u32,
}

/// The figures of a run (`--stats-json`).
#[derive(Debug, Default, serde::Serialize)]
pub struct ConcolicStats {
    pub classes: Vec<String>,
    pub solver: String,
    pub methods: Vec<MethodRow>,
    pub paths: u64,
    pub infeasible: u64,
    pub solver_timeouts: u64,
    pub unexplored: u64,
    pub diverged: u64,
    pub solver_calls: u64,
    pub solver_seconds: f64,
    /// Queries the solver refused with an error (each taken as "unknown"), and the first
    /// error's text.
    pub solver_errors: u64,
    pub solver_error: Option<String>,
    pub explore_seconds: f64,
    /// Seconds into the exploration when the runs covered their last new branch (what the
    /// rest of the exploration time added nothing to).
    pub coverage_seconds: f64,
    /// Distinct receiver states explored (`--receivers states`).
    pub receiver_states: u64,
    /// The runs covered every branch of the classes under test, and exploration stopped.
    pub full_coverage: bool,
    pub paths_per_second: f64,
    /// Branches of the classes under test, and those the written suite covers.
    pub branches: u32,
    pub covered_branches: u32,
    /// Each branch the written suite (or, without --output-dir, the paths kept) does not
    /// cover: where, and why (infeasible, solver unknown, an unsupported operation, ...).
    pub uncovered: Vec<Uncovered>,
    /// How many uncovered branches each reason explains.
    pub uncovered_reasons: BTreeMap<Reason, u32>,
    /// Runs from random inputs (trees exhausted while branches were open).
    pub random_runs: u64,
    pub tests_written: usize,
    pub observe: ObserveStats,
    pub validation: Option<ValidationSummary>,
    pub output_dir: Option<PathBuf>,
    pub seconds: f64,
}

impl Strategy for Concolic {
    const COMMAND: &'static str = "concolic";
    type Stats = ConcolicStats;

    fn run_settings(&self) -> &RunSettings {
        &self.args.run
    }

    fn prepare(&mut self) -> anyhow::Result<()> {
        let args = &self.args;
        let time_limit = args.time_limit;
        let solver = args.solver.clone();
        let output = RunOutput::for_suite(Tool::Concolic, &args.suite, None, None)?;
        self.prepared = Some(Prepared {
            time_limit,
            solver,
            output,
        });
        Ok(())
    }

    fn worker_settings(&self) -> anyhow::Result<WorkerSettings> {
        Ok(WorkerSettings {
            call_timeout: Duration::from_secs(5),
            heap_mb: self.args.run.worker_heap.unwrap_or(512),
            classpath_prefix: Vec::new(),
            extra_jvm_args: Vec::new(),
        })
    }

    fn run(self, mut session: Session, started: Instant) -> anyhow::Result<Finished<Self::Stats>> {
        let Concolic { args, prepared } = self;
        let mut p = prepared.context(NOT_PREPARED)?;
        let classes = session.load_classes_under_test(
            &args.run.classes,
            "its methods are explored through its public API",
        )?;
        let ops = build_ops(&session.model, &classes, None, None);
        let setup = traced_setup(&mut session, &classes)?;
        let mut pool = session.take_pool()?;
        let failed = pool.register(&ops.table)?;
        let failed: Vec<OpId> = failed.into_iter().map(|(id, _)| id).collect();
        let effects = session.with_classes(|_, cp, _| {
            let names: Vec<String> = setup.maps.iter().map(|m| m.class_name.clone()).collect();
            Effects::load(cp, &names)
        })?;
        let limits = Limits {
            max_calls: args.max_calls.unwrap_or(5),
            max_candidates: args.max_sequences.max(1),
        };
        let usable: Vec<OpId> = ops
            .primary
            .iter()
            .copied()
            .filter(|c| !failed.contains(c))
            .collect();
        let targets = targets(&ops, &classes, &args.methods, &usable, &effects, limits)?;
        let jobs = jobs(&ops, &usable, &effects, targets, args.receivers);
        let mut solver = p.solver.start()?;
        let branches = Branches::new(&setup.maps);
        let engine = Engine {
            table: &ops.table,
            switch_cases: switch_cases(&setup),
            max_depth: args.max_depth,
            batch: session.workers.max(1) * 2,
            branches: &branches,
        };
        let bounds = states::Bounds {
            max_calls: args.max_calls.unwrap_or(8),
            max_states: args.max_sequences.max(1),
            stop_at_full: !args.keep_exploring,
        };
        let deadline = started + p.time_limit;
        let mut tracker = Tracker::new(&setup.maps, setup.total_probes);
        let explored = explore_jobs(
            &engine,
            &mut pool,
            &mut solver,
            &jobs,
            bounds,
            deadline,
            &mut tracker,
        )?;
        let Explored {
            rows,
            tests: all_tests,
            exhausted,
        } = explored.done;
        let mut stats = ConcolicStats {
            classes: classes.clone(),
            solver: p.solver.path.display().to_string(),
            explore_seconds: explored.seconds,
            coverage_seconds: explored.coverage_seconds,
            receiver_states: explored.states,
            full_coverage: explored.full_coverage,
            output_dir: args.suite.output_dir.clone(),
            solver_errors: solver.errors().0,
            solver_error: solver.errors().1.map(str::to_string),
            ..ConcolicStats::default()
        };
        let kept = match &mut p.output {
            Some(out) => write_tests(
                out, &session, &mut pool, &ops, &classes, &args, &all_tests, &mut stats,
            )?,
            None => all_tests.iter().map(|f| f.coverage.clone()).collect(),
        };
        pool.shutdown();
        let unexplored = unexplored_methods(&ops, &classes, &rows);
        fill_figures(&mut stats, &setup, &ops, rows, &kept, started);
        explain_uncovered(&mut stats, &branches, &kept, &unexplored);
        Ok(Finished {
            stats,
            stop_reason: if exhausted || explored.full_coverage {
                StopReason::Exhausted
            } else {
                StopReason::TimeLimit
            },
            outcome: crate::exit::Outcome::Clean,
        })
    }

    fn print_summary(stats: &ConcolicStats, out: &mut dyn Write) -> std::io::Result<()> {
        print_summary(stats, out)
    }

    fn warnings(stats: &ConcolicStats) -> Vec<String> {
        let mut w = Vec::new();
        let untraced: u64 = stats.methods.iter().map(|m| m.result.untraced_runs).sum();
        if untraced > 0 {
            w.push(format!(
                "warning: {untraced} runs had no usable trace (the call did not run, or its trace \
                 was too long): their paths are not in the trees"
            ));
        }
        let skipped: Vec<&str> = stats
            .methods
            .iter()
            .filter(|m| m.result.skipped.is_some())
            .map(|m| m.result.method.as_str())
            .collect();
        if let Some(first) = skipped.first() {
            w.push(format!(
                "warning: {} methods not explored (e.g. {first}: {}); see --stats-json",
                skipped.len(),
                stats
                    .methods
                    .iter()
                    .find_map(|m| m.result.skipped.clone())
                    .unwrap_or_default()
            ));
        }
        w
    }
}

/// The classes under test instrumented in trace mode, and the session's workers set to run
/// them (first on the class path, tracing on, the clock fixed as in gen).
fn traced_setup(session: &mut Session, classes: &[String]) -> anyhow::Result<Setup> {
    if session.java.javac.is_none() {
        bail!(
            "jforge concolic instruments the classes under test and needs a JDK with javac; {} \
             has none: point --java at a JDK",
            session.java.home.display()
        );
    }
    let setup = session.with_classes(|_, cp, jdk| Setup::prepare_traced(cp, jdk, classes))?;
    let mut settings = session.worker_settings().clone();
    settings.classpath_prefix = vec![setup.class_dir.clone()];
    settings
        .extra_jvm_args
        .extend(setup.jvm_args.iter().cloned());
    settings
        .extra_jvm_args
        .push(crate::runner::CLOCK_FIXED.to_string());
    // receiver states are matched by their canonical form as text, with field names
    // (`states::abstract_form` ranks the values of each field)
    settings
        .extra_jvm_args
        .extend(["-Djforge.canon.text=true", "-Djforge.canon.names=true"].map(String::from));
    session.set_worker_settings(settings);
    Ok(setup)
}

/// What a method, or the instance methods of a class, is explored as.
enum Job {
    /// One method over its receiver sequences (one empty receiver for static methods and
    /// constructors; none when nothing makes its receiver).
    Method(OpId, Vec<Target>),
    /// The instance methods of one class over its receiver states (`--receivers states`).
    States(states::Plan),
}

impl Job {
    /// Methods in the job: its share of the time.
    fn weight(&self) -> usize {
        match self {
            Job::Method(..) => 1,
            Job::States(p) => p.methods.len().max(1),
        }
    }
}

/// The jobs: with `--receivers states`, the instance methods of each class that can make
/// their receiver and take no object argument set up like it go to one state search per
/// class; the rest (and everything with `--receivers sequences`) are explored per method.
fn jobs(
    ops: &OpSet,
    usable: &[OpId],
    effects: &Effects,
    targets: Vec<(OpId, Vec<Target>)>,
    receivers: Receivers,
) -> Vec<Job> {
    let table = &ops.table;
    let mut out: Vec<Job> = Vec::new();
    for (op, candidates) in targets {
        let o = table.get(op);
        let by_state = receivers == Receivers::States
            && o.kind == OpKind::Method
            && !candidates.is_empty()
            && !receivers::needs_objects(table, usable, effects, op);
        if !by_state {
            out.push(Job::Method(op, candidates));
            continue;
        }
        let class = o.class.clone();
        let plan = out.iter_mut().find_map(|j| match j {
            Job::States(p) if table.get(p.methods[0]).class == class => Some(p),
            _ => None,
        });
        match plan {
            Some(p) => p.methods.push(op),
            None => out.push(Job::States(states::Plan {
                makers: receivers::makers(table, usable, &class),
                methods: vec![op],
                mutators: Vec::new(),
            })),
        }
    }
    for j in &mut out {
        if let Job::States(p) = j {
            let class = table.get(p.methods[0]).class.clone();
            let reads = usable
                .iter()
                .map(|&id| table.get(id))
                .filter(|o| o.class == class && o.kind == OpKind::Method)
                .flat_map(|o| effects.reads(o))
                .collect();
            p.mutators = receivers::mutators(table, usable, effects, &class, &reads);
        }
    }
    out
}

/// Rows, tests and whether every tree was exhausted.
struct Explored {
    rows: Vec<(OpId, MethodResult)>,
    tests: Vec<Found>,
    exhausted: bool,
}

/// [`Explored`] and the run-wide figures.
struct ExploredAll {
    done: Explored,
    seconds: f64,
    coverage_seconds: f64,
    states: u64,
    full_coverage: bool,
}

/// Explores the jobs, each with its share (by methods) of the time left; stops early when
/// the runs covered every branch of the classes under test.
fn explore_jobs(
    engine: &Engine,
    pool: &mut Pool,
    solver: &mut SmtProcess,
    jobs: &[Job],
    bounds: states::Bounds,
    deadline: Instant,
    tracker: &mut Tracker,
) -> anyhow::Result<ExploredAll> {
    let start = Instant::now();
    let mut all = ExploredAll {
        done: Explored {
            rows: Vec::new(),
            tests: Vec::new(),
            exhausted: true,
        },
        seconds: 0.0,
        coverage_seconds: 0.0,
        states: 0,
        full_coverage: false,
    };
    let mut weight_left: usize = jobs.iter().map(Job::weight).sum();
    for job in jobs {
        // every branch covered: a method left gets one receiver (its run and its test)
        let full = bounds.stop_at_full && states::full(tracker);
        all.full_coverage |= full;
        let left = deadline.saturating_duration_since(Instant::now());
        let share = left * job.weight() as u32 / weight_left.max(1) as u32;
        weight_left -= job.weight();
        let before = tracker.covered_branches;
        let mut rows = match job {
            Job::Method(op, candidates) => {
                let r = explore_method(
                    engine,
                    pool,
                    solver,
                    engine.table.get(*op).signature(),
                    &candidates[..if full {
                        candidates.len().min(1)
                    } else {
                        candidates.len()
                    }],
                    Instant::now() + share,
                )?;
                all.done.exhausted &= r.tree.unexplored == 0
                    && r.sequences == candidates.len() as u64
                    && !r.cut_short;
                for t in &r.tests {
                    tracker.add(t.coverage.as_deref().unwrap_or(&[]));
                }
                vec![(*op, r)]
            }
            Job::States(plan) => {
                let o = states::explore(
                    engine,
                    pool,
                    solver,
                    plan,
                    bounds,
                    Instant::now() + share,
                    tracker,
                )?;
                all.done.exhausted &= o.exhausted;
                all.states += o.states as u64;
                all.full_coverage |= o.full_coverage;
                if let Some(t) = o.last_gain {
                    all.coverage_seconds = t.duration_since(start).as_secs_f64();
                }
                o.rows
            }
        };
        if tracker.covered_branches > before && matches!(job, Job::Method(..)) {
            all.coverage_seconds = start.elapsed().as_secs_f64();
        }
        for (_, r) in &mut rows {
            all.done.tests.append(&mut r.tests);
        }
        all.done.rows.append(&mut rows);
    }
    all.done.rows.sort_by_key(|r| r.0);
    all.seconds = start.elapsed().as_secs_f64();
    Ok(all)
}

/// Whether `op` is what `--method sig` names.
fn matches_method(ops: &OpSet, op: OpId, sig: &str) -> bool {
    let o = ops.table.get(op);
    let sig: String = sig.chars().filter(|c| !c.is_whitespace()).collect();
    let name = if o.kind == OpKind::Constructor {
        o.class.rsplit(['.', '$']).next().unwrap_or(&o.class)
    } else {
        o.name.as_str()
    };
    let full: Vec<String> = o.params.iter().map(|t| t.erasure().to_string()).collect();
    let short: Vec<String> = full
        .iter()
        .map(|t| t.rsplit('.').next().unwrap_or(t).to_string())
        .collect();
    sig == name
        || sig == format!("{name}({})", full.join(","))
        || sig == format!("{name}({})", short.join(","))
}

/// Explores a method's receiver sequences one after the other, each with an equal share of
/// the time left, the probes covered shared (a later sequence's path is a test only when it
/// covers something new); no sequence: not explored, and why.
fn explore_method(
    engine: &Engine,
    pool: &mut Pool,
    solver: &mut SmtProcess,
    method: String,
    candidates: &[Target],
    deadline: Instant,
) -> anyhow::Result<MethodResult> {
    let mut r = MethodResult {
        method,
        ..MethodResult::default()
    };
    if candidates.is_empty() {
        r.skipped = Some(
            "nothing makes its receiver (no public constructor or static factory of its class)"
                .to_string(),
        );
        return Ok(r);
    }
    let mut covered = HashSet::new();
    for (k, target) in candidates.iter().enumerate() {
        let now = Instant::now();
        if now >= deadline {
            // the sequences not started count as unexplored alternatives
            r.tree.unexplored += 1;
            continue;
        }
        let share = deadline.saturating_duration_since(now) / (candidates.len() - k) as u32;
        let how = super::How::sequence(k == 0);
        let one = engine.explore_with(pool, solver, target, now + share, &mut covered, how)?;
        let method = std::mem::take(&mut r.method);
        r.absorb(one);
        r.method = method;
    }
    Ok(r)
}

/// The methods to explore (constructors, instance and static methods of the classes under
/// test, `--method` if given), each with its receiver sequences (Candidate Sequence Search;
/// one empty receiver for static methods and constructors; none when nothing makes it).
fn targets(
    ops: &OpSet,
    classes: &[String],
    methods: &[String],
    usable: &[OpId],
    effects: &Effects,
    limits: Limits,
) -> anyhow::Result<Vec<(OpId, Vec<Target>)>> {
    let mut out = Vec::new();
    for &id in &ops.primary {
        let o = ops.table.get(id);
        if !classes.contains(&o.class)
            || !usable.contains(&id)
            || !matches!(
                o.kind,
                OpKind::Method | OpKind::StaticMethod | OpKind::Constructor
            )
            || (!methods.is_empty() && !methods.iter().any(|m| matches_method(ops, id, m)))
        {
            continue;
        }
        let candidates = if o.kind == OpKind::Method {
            receivers::candidates(&ops.table, usable, effects, id, limits)
        } else {
            vec![Target {
                op: id,
                receiver: Vec::new(),
                fixed: Vec::new(),
                pinned: Vec::new(),
            }]
        };
        out.push((id, candidates));
    }
    if out.is_empty() {
        if methods.is_empty() {
            bail!(
                "{} has no public method or constructor to explore",
                classes.join(", ")
            );
        }
        bail!(
            "--method {}: no public method or constructor of {} has that name or signature \
             (e.g. `check` or `check(int,int)`)",
            methods.join(", "),
            classes.join(", ")
        );
    }
    Ok(out)
}

/// Switch keys by site: the probe id of a switch's first case (what the trace names).
pub(super) fn switch_cases(setup: &Setup) -> HashMap<String, Vec<i64>> {
    let mut out: HashMap<String, Vec<i64>> = HashMap::new();
    for m in &setup.maps {
        let mut by_insn: HashMap<(u32, u32), (u32, Vec<i64>)> = HashMap::new();
        for p in &m.probes {
            let key = match p.kind {
                ProbeKind::SwitchCase { key } => Some(key as i64),
                ProbeKind::SwitchDefault => None,
                _ => continue,
            };
            let e = by_insn
                .entry((p.method, p.offset))
                .or_insert((p.id, Vec::new()));
            e.0 = e.0.min(p.id);
            e.1.extend(key);
        }
        for (_, (first, keys)) in by_insn {
            out.insert(first.to_string(), keys);
        }
    }
    out
}

/// Writes the kept paths as tests (observed in two JVMs, javac + JUnit); returns the
/// coverage of the tests kept.
#[allow(clippy::too_many_arguments)]
fn write_tests(
    out: &mut RunOutput,
    session: &Session,
    pool: &mut Pool,
    ops: &OpSet,
    classes: &[String],
    args: &Plan,
    found: &[Found],
    stats: &mut ConcolicStats,
) -> anyhow::Result<Vec<Option<std::sync::Arc<[u32]>>>> {
    let items: Vec<ObserveItem> = found
        .iter()
        .map(|f| {
            let last = f.seq.len() as u32 - 1;
            let ret = ops.table.get(match &f.seq.stmts[last as usize] {
                crate::sequence::Stmt::Call { op, .. } => *op,
                _ => 0,
            });
            let observers = ret
                .ret
                .as_ref()
                .and_then(|t| ops.observers.get(t))
                .map(|v| v.iter().map(|&o| (last, o)).collect())
                .unwrap_or_default();
            ObserveItem {
                seq: f.seq.clone(),
                expect: match &f.exception {
                    Some(c) => Expect::Exception(c.clone()),
                    None => Expect::Normal,
                },
                observers: if f.exception.is_some() {
                    Vec::new()
                } else {
                    observers
                },
                contract_values: Vec::new(),
            }
        })
        .collect();
    let observed = crate::suite::observe(&session.model, pool, &items, &mut stats.observe)?;
    let mut tests = Vec::new();
    let mut cov = Vec::new();
    for (t, f) in observed.into_iter().zip(found) {
        if let Some(t) = t {
            tests.push(t);
            cov.push(f.coverage.clone());
        }
    }
    let checked = write_and_check(
        out,
        &ops.table,
        &ops.owner_class,
        classes,
        &tests,
        &[],
        &CheckSettings::of(session, &args.suite, args.run.quiet),
    )?;
    out.install(&checked.files)?;
    stats.tests_written = checked.regression.len();
    stats.validation = Some(checked.validation);
    Ok(checked.regression.iter().map(|&i| cov[i].clone()).collect())
}

/// Totals, per-method branch coverage of the written (or kept) tests, rates.
fn fill_figures(
    stats: &mut ConcolicStats,
    setup: &Setup,
    ops: &OpSet,
    rows: Vec<(OpId, MethodResult)>,
    kept: &[Option<std::sync::Arc<[u32]>>],
    started: Instant,
) {
    let mut tracker = Tracker::new(&setup.maps, setup.total_probes);
    for c in kept.iter().flatten() {
        tracker.add(c);
    }
    for (op, r) in rows {
        let o = ops.table.get(op);
        let class = o.class.replace('.', "/");
        let m = tracker.methods.iter().find(|m| {
            m.class.replace('.', "/") == class && m.name == o.name && m.descriptor == o.descriptor
        });
        stats.paths += r.tree.paths;
        stats.infeasible += r.tree.infeasible;
        stats.solver_timeouts += r.tree.timeouts;
        stats.unexplored += r.tree.unexplored;
        stats.diverged += r.tree.diverged;
        stats.solver_calls += r.solver_calls;
        stats.solver_seconds += r.solver_seconds;
        stats.methods.push(MethodRow {
            branches: m.map_or(0, |m| m.branches),
            covered_branches: m.map_or(0, |m| m.covered_branches),
            result: r,
        });
    }
    stats.branches = tracker.branches;
    stats.covered_branches = tracker.covered_branches;
    stats.paths_per_second = if stats.explore_seconds > 0.0 {
        stats.paths as f64 / stats.explore_seconds
    } else {
        0.0
    };
    stats.seconds = started.elapsed().as_secs_f64();
}

/// The methods and constructors of the classes under test that were not explored (left out
/// by `--method`, or skipped: nothing makes their receiver).
fn unexplored_methods(
    ops: &OpSet,
    classes: &[String],
    rows: &[(OpId, super::MethodResult)],
) -> HashSet<reasons::MethodKey> {
    let key = |op: OpId| {
        let o = ops.table.get(op);
        (o.class.clone(), o.name.clone(), o.descriptor.clone())
    };
    let explored: HashSet<reasons::MethodKey> = rows
        .iter()
        .filter(|(_, r)| r.skipped.is_none())
        .map(|(op, _)| key(*op))
        .collect();
    ops.primary
        .iter()
        .filter(|&&op| classes.contains(&ops.table.get(op).class))
        .map(|&op| key(op))
        .filter(|k| !explored.contains(k))
        .collect()
}

/// The reason of every branch the kept tests do not cover, from the evidence of all rows.
fn explain_uncovered(
    stats: &mut ConcolicStats,
    branches: &Branches,
    kept: &[Option<std::sync::Arc<[u32]>>],
    unexplored: &HashSet<reasons::MethodKey>,
) {
    let covered: HashSet<u32> = kept
        .iter()
        .flatten()
        .flat_map(|c| c.iter().copied())
        .collect();
    let mut evidence = reasons::Evidence::default();
    for m in &stats.methods {
        evidence.absorb(&m.result.evidence);
    }
    stats.uncovered = reasons::explain(branches, &evidence, &covered, unexplored);
    for u in &stats.uncovered {
        *stats.uncovered_reasons.entry(u.reason).or_default() += 1;
    }
    stats.random_runs = stats.methods.iter().map(|m| m.result.random_runs).sum();
}

/// The uncovered branches, grouped by reason (unsupported ones by operation too).
fn print_uncovered(s: &ConcolicStats, out: &mut dyn Write) -> std::io::Result<()> {
    if s.uncovered.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "uncovered branches ({}), by reason:",
        s.uncovered.len()
    )?;
    let mut groups: BTreeMap<(Reason, String), Vec<&Uncovered>> = BTreeMap::new();
    for u in &s.uncovered {
        let head = match u.reason {
            Reason::Unsupported => format!("{}: {}", u.reason.title(), u.operations.join(", ")),
            r => r.title().to_string(),
        };
        groups.entry((u.reason, head)).or_default().push(u);
    }
    for ((_, head), us) in groups {
        writeln!(out, "  {head} ({})", us.len())?;
        for u in us.iter().take(SHOWN_PER_REASON) {
            let at = match u.line {
                Some(l) => format!("line {l}"),
                None => format!("offset {}", u.offset),
            };
            writeln!(out, "    {}.{} {at}: {}", u.class, u.method, u.edge)?;
        }
        if us.len() > SHOWN_PER_REASON {
            writeln!(
                out,
                "    ... and {} more (all in --stats-json: uncovered)",
                us.len() - SHOWN_PER_REASON
            )?;
        }
    }
    Ok(())
}

/// Uncovered branches listed per reason in the summary (the rest are counted).
const SHOWN_PER_REASON: usize = 12;

fn print_summary(s: &ConcolicStats, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{:<44} {:>6} {:>6} {:>6} {:>6} {:>6} {:>9}",
        "method", "paths", "infeas", "t/o", "unexpl", "calls", "branches"
    )?;
    for m in &s.methods {
        let r = &m.result;
        if let Some(why) = &r.skipped {
            writeln!(out, "{:<44} not explored: {why}", r.method)?;
            continue;
        }
        writeln!(
            out,
            "{:<44} {:>6} {:>6} {:>6} {:>6} {:>6} {:>4}/{:<4}",
            r.method,
            r.tree.paths,
            r.tree.infeasible,
            r.tree.timeouts,
            r.tree.unexplored,
            r.solver_calls,
            m.covered_branches,
            m.branches
        )?;
    }
    writeln!(
        out,
        "concolic: {} paths ({:.1}/s), {} infeasible, {} solver time-outs, {} unexplored, {} \
         diverged; {} solver calls in {:.2} s",
        s.paths,
        s.paths_per_second,
        s.infeasible,
        s.solver_timeouts,
        s.unexplored,
        s.diverged,
        s.solver_calls,
        s.solver_seconds
    )?;
    if let Some(e) = &s.solver_error {
        writeln!(
            out,
            "concolic: the solver refused {} queries, taken as unknown; the first: {e}",
            s.solver_errors
        )?;
    }
    if s.random_runs > 0 {
        writeln!(
            out,
            "concolic: {} runs from random inputs (trees exhausted while branches were open)",
            s.random_runs
        )?;
    }
    print_uncovered(s, out)?;
    let pct = if s.branches == 0 {
        100.0
    } else {
        100.0 * s.covered_branches as f64 / s.branches as f64
    };
    match &s.output_dir {
        Some(d) => writeln!(
            out,
            "wrote {} tests to {}: they cover {}/{} branches ({pct:.1}%) of {}",
            s.tests_written,
            d.display(),
            s.covered_branches,
            s.branches,
            s.classes.join(", ")
        )?,
        None => writeln!(
            out,
            "paths kept cover {}/{} branches ({pct:.1}%); give --output-dir to write them as tests",
            s.covered_branches, s.branches
        )?,
    }
    Ok(())
}
