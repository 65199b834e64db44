//! `jforge builders`: its flags and its [`Strategy`]: class loading as `exhaustive` does
//! it, then [`crate::builders::identify`], the builders file; the pipeline writes the report).
//! Flag names follow `jforge exhaustive` for the same concepts (scope, domains, omitted fields).

use crate::builders::{self, Algorithm, Env, Options, ga};
use crate::exhaustive::{DomainInput, Settings};
use crate::flags::{DomainArgs, ProjectArgs, RunArgs};
use crate::report::StopReason;
use crate::select;
use crate::session::{Session, WorkerSettings};
use crate::settings::{ProjectSettings, RunSettings, parse_duration};
use crate::strategy::{Finished, Strategy};
use anyhow::{Context, bail};
use clap::Args;
use std::path::PathBuf;

/// `jforge builders`. Identifies a sufficient and minimal set of builder methods: the methods
/// that build every structure (at the scope) the whole API builds, none of them superfluous.
#[derive(Args, Debug, Clone)]
pub struct BuildersArgs {
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub project: ProjectArgs,
    /// Search: hc (hill climbing on structure counts, BEAPI) or ga (genetic algorithm on
    /// field extensions, FASE'19).
    #[arg(long, value_enum, default_value = "hc")]
    pub algorithm: Algorithm,
    /// Scope of the fitness and of the verdict: most objects of one class reachable from a
    /// structure's root (root excluded).
    #[arg(long, value_name = "N", default_value_t = builders::DEFAULT_SCOPE)]
    pub scope: u32,
    #[command(flatten)]
    pub domain: DomainArgs,
    /// Write the builder set here (one signature regex per line, the format --builders reads).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Verify this builders file (sufficient, minimal) instead of searching a set.
    #[arg(long, value_name = "FILE", conflicts_with = "algorithm")]
    pub verify: Option<PathBuf>,
    /// Random seed (observer detection; the genetic algorithm).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Sequences of the random run that detects observers.
    #[arg(long, value_name = "N", default_value_t = builders::DEFAULT_OBSERVER_SEQUENCES)]
    pub observer_sequences: u64,
    /// Most combinations a method with several structure inputs (putAll(Map)) may need at
    /// the scope; beyond, it is left out of the search and of the verdict, and reported.
    #[arg(long, value_name = "N", default_value_t = builders::DEFAULT_MAX_COMBINATIONS)]
    pub max_combinations: u64,
    /// GA: evolutions (numEvo).
    #[arg(long, value_name = "N", default_value_t = 20)]
    pub generations: u32,
    /// GA: population kept at each evolution (popSize).
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub population: usize,
    /// GA: crossovers per evolution as a fraction of the population (cRate).
    #[arg(long, value_name = "R", default_value_t = 0.35)]
    pub crossover_rate: f64,
    /// GA: probability that a gene flips (mRate).
    #[arg(long, value_name = "R", default_value_t = 0.08)]
    pub mutation_rate: f64,
    /// GA fitness: weight of fewer methods in the tie-break term.
    #[arg(long, value_name = "W", default_value_t = 2.0)]
    pub w1: f64,
    /// GA fitness: weight of simpler parameters in the tie-break term.
    #[arg(long, value_name = "W", default_value_t = 1.0)]
    pub w2: f64,
    /// Weight of a reference parameter against a primitive one (GA fitness; hill-climbing
    /// ties).
    #[arg(long, value_name = "W", default_value_t = 2.0)]
    pub w3: f64,
    /// GA: rank by the paper's fitness alone (field extensions + tie-break term), without the
    /// structure count that tells apart sets with equal field extensions.
    #[arg(long)]
    pub paper_fitness: bool,
    /// Then run random generation (gen's, unguided) for this long with only the builders and
    /// with the whole API, and compare distinct objects and the largest (the FASE'19 paper's
    /// experiment), e.g. 60s.
    #[arg(long, value_name = "DURATION")]
    pub compare_gen: Option<String>,
    /// Skip the independent exhaustive search that re-checks the answer on fresh workers.
    #[arg(long)]
    pub no_search_check: bool,
    /// Give up when the search for a set (or its verification) has not ended this long after
    /// the start: `30s`, `10m`, `2h` (default: no limit); exit status 4, as for
    /// --max-memory, with the fields whose values kept growing.
    #[arg(long, value_name = "D")]
    pub time_limit: Option<String>,
}

impl BuildersArgs {
    /// The flags read once into the plain settings of a run, or why they cannot work, before
    /// anything starts.
    pub fn settings(self) -> anyhow::Result<Plan> {
        self.check()?;
        let parse = |t: &Option<String>, flag: &'static str| {
            t.as_deref()
                .map(|t| parse_duration(t).context(flag))
                .transpose()
        };
        let time_limit = parse(&self.time_limit, "--time-limit")?;
        let compare_gen = parse(&self.compare_gen, "--compare-gen")?;
        // `modCount` omitted unless --omit-fields says otherwise ('' keeps all).
        let mut domain = self.domain.clone();
        domain.omit_fields = Some(domain.omit_fields.unwrap_or_else(|| "modCount".into()))
            .filter(|o| !o.trim().is_empty());
        Ok(Plan {
            run: self.run.settings(),
            project: self.project.settings()?,
            input: domain.input(Some(self.scope), None, None, None),
            batch: self.domain.batch,
            max_memory: self.domain.max_memory,
            algorithm: self.algorithm,
            output: self.output,
            verify: self.verify,
            seed: self.seed,
            observer_sequences: self.observer_sequences,
            max_combinations: self.max_combinations,
            ga: ga::Params {
                generations: self.generations,
                population: self.population,
                crossover: self.crossover_rate,
                mutation: self.mutation_rate,
                w1: self.w1,
                w2: self.w2,
                w3: self.w3,
                seed: self.seed,
                paper_fitness: self.paper_fitness,
            },
            compare_gen,
            no_search_check: self.no_search_check,
            time_limit,
        })
    }

    fn check(&self) -> anyhow::Result<()> {
        if self.run.classes.is_empty() {
            bail!("name the class whose builders to identify with --class NAME");
        }
        if self.scope == 0 {
            bail!(
                "--scope must be at least 1 (default {})",
                builders::DEFAULT_SCOPE
            );
        }
        if self.run.workers == Some(0) {
            bail!("--workers must be at least 1 (default: the number of cores)");
        }
        for (flag, r) in [
            ("--crossover-rate", self.crossover_rate),
            ("--mutation-rate", self.mutation_rate),
        ] {
            if !(0.0..=1.0).contains(&r) {
                bail!("{flag} {r} is not a probability: give a value between 0 and 1");
            }
        }
        for (flag, w) in [("--w1", self.w1), ("--w2", self.w2), ("--w3", self.w3)] {
            if !(w.is_finite() && w >= 1.0) {
                bail!("{flag} {w}: the weights of the tie-break term must be at least 1");
            }
        }
        if self.population == 0 {
            bail!("--population must be at least 1 (default 30)");
        }
        Ok(())
    }
}

/// A run of `jforge builders`, read from its flags: the input space in `jforge exhaustive`'s
/// terms (the scope, the domains), and the search's own settings.
#[derive(Debug, Clone)]
pub struct Plan {
    run: RunSettings,
    project: Option<ProjectSettings>,
    input: DomainInput,
    batch: usize,
    max_memory: Option<u64>,
    algorithm: Algorithm,
    output: Option<PathBuf>,
    verify: Option<PathBuf>,
    seed: u64,
    observer_sequences: u64,
    max_combinations: u64,
    ga: ga::Params,
    compare_gen: Option<std::time::Duration>,
    no_search_check: bool,
    time_limit: Option<std::time::Duration>,
}

/// Runs `jforge builders` through the shared pipeline (`crate::strategy::drive`).
pub fn run(args: BuildersArgs) -> anyhow::Result<crate::exit::Outcome> {
    run_plan(args.settings()?)
}

fn run_plan(args: Plan) -> anyhow::Result<crate::exit::Outcome> {
    if let Some(project) = args.project.clone() {
        return run_project(args, &project);
    }
    crate::strategy::drive(Builders {
        args,
        prepared: None,
    })
}

/// `builders --project`: one run per module holding some of the `--class` classes, on the
/// class path its build uses; `--output` and `--stats-json` get the module's name when
/// several modules run.
fn run_project(args: Plan, project: &ProjectSettings) -> anyhow::Result<crate::exit::Outcome> {
    if args.run.classes.is_empty() {
        bail!("builders --project needs the classes to study: --class NAME (repeatable)");
    }
    crate::project::run_modules(project, &args.run, false, |m, shared| {
        let mut a = args.clone();
        a.project = None;
        a.run = shared;
        if m.many {
            a.output =
                (args.output.as_ref()).map(|p| crate::project::per_module(p, &m.module.name));
        }
        run_plan(a)
    })
}

/// `jforge builders`: builder identification (BEAPI's hill climbing, or the genetic
/// algorithm of FASE'19).
pub struct Builders {
    args: Plan,
    /// Set by [`Strategy::prepare`].
    prepared: Option<Prepared>,
}

/// The flags checked and parsed before anything starts.
struct Prepared {
    settings: Settings,
    /// `--verify`: the set to check.
    given: Option<Vec<regex::Regex>>,
    compare_gen: Option<std::time::Duration>,
}

/// The report of `jforge builders`: identification's figures plus the file written.
#[derive(serde::Serialize)]
pub struct BuildersStats {
    #[serde(flatten)]
    pub report: builders::Report,
    /// `--output`: where the builder set was written.
    pub output_file: Option<String>,
    /// Warnings about the settings (a replaced flag), printed after the summary.
    pub setting_warnings: Vec<String>,
}

const NOT_PREPARED: &str = "internal error: jforge builders ran before its flags were checked";

impl Strategy for Builders {
    const COMMAND: &'static str = "builders";
    type Stats = BuildersStats;

    fn run_settings(&self) -> &RunSettings {
        &self.args.run
    }

    fn prepare(&mut self) -> anyhow::Result<()> {
        let args = &self.args;
        let settings = Settings::read(&args.input)?;
        let given = args
            .verify
            .as_deref()
            .map(crate::exhaustive::read_builders_file)
            .transpose()?;
        let compare_gen = args.compare_gen;
        if let Some(o) = &args.output {
            // fail now rather than after the search
            std::fs::write(o, "").with_context(|| {
                format!(
                    "cannot write --output file {}: choose another path",
                    o.display()
                )
            })?;
        }
        self.prepared = Some(Prepared {
            settings,
            given,
            compare_gen,
        });
        Ok(())
    }

    fn worker_settings(&self) -> anyhow::Result<WorkerSettings> {
        Ok(WorkerSettings {
            heap_mb: self.args.run.worker_heap.unwrap_or(1024),
            ..WorkerSettings::default()
        })
    }

    fn run(
        self,
        mut session: Session,
        started: std::time::Instant,
    ) -> anyhow::Result<Finished<BuildersStats>> {
        let Builders { args, prepared } = self;
        let Prepared {
            settings,
            given,
            compare_gen,
        } = prepared.context(NOT_PREPARED)?;
        select::check_class_versions(
            &args.run.classes,
            None,
            &[],
            &[],
            &session.cp,
            session.java.version,
        )?;
        let classes = session.load_classes_under_test(
            &args.run.classes,
            "its builders are methods of its public API",
        )?;
        // Identification starts the pools it needs (several at once) from the session's maker.
        session.shutdown();
        let pools = session.pool_maker();
        let model = &session.model;
        // the API `jforge exhaustive` searches: a class behind a builder brings the builder
        // class's operations that can build something
        let (ops, _, _) =
            crate::exhaustive::reach::ops_with_builder_classes(model, &classes, &settings);
        let env = Env {
            pools: &pools,
            model,
            ops: &ops,
            classes: &classes,
            settings: &settings,
            batch: args.batch,
            memory_budget: crate::exhaustive::memory_budget(args.max_memory),
            deadline: args.time_limit.map(|t| (started + t, t)),
        };
        let stop_reason = match (&given, args.algorithm) {
            (Some(_), _) => StopReason::Verified,
            (None, Algorithm::HillClimbing) => StopReason::Converged,
            (None, Algorithm::Genetic) => StopReason::GenerationLimit,
        };
        let opt = options(&args, given);
        let mut report = builders::identify(&env, &opt)?;
        if let Some(limit) = compare_gen {
            report.gen_comparison = Some(builders::compare::compare(
                &env,
                &report.builders,
                limit,
                args.seed,
            )?);
        }
        if let Some(o) = &args.output {
            std::fs::write(o, builders::file_text(&report))
                .with_context(|| format!("cannot write --output file {}", o.display()))?;
        }
        Ok(Finished {
            stats: BuildersStats {
                report,
                output_file: args.output.as_ref().map(|o| o.display().to_string()),
                setting_warnings: settings.notes.clone(),
            },
            stop_reason,
            outcome: crate::exit::Outcome::Clean,
        })
    }

    fn print_summary(stats: &BuildersStats, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        builders::print_summary(&stats.report, out)?;
        if let Some(o) = &stats.output_file {
            writeln!(out, "  wrote {o}")?;
        }
        Ok(())
    }

    fn warnings(stats: &BuildersStats) -> Vec<String> {
        stats.setting_warnings.clone()
    }
}

fn options(args: &Plan, given: Option<Vec<regex::Regex>>) -> Options {
    Options {
        algorithm: args.algorithm,
        seed: args.seed,
        observer_sequences: args.observer_sequences,
        max_combinations: args.max_combinations,
        ga: args.ga.clone(),
        search_check: !args.no_search_check,
        given,
        quiet: args.run.quiet,
    }
}
