//! `jforge builders`: its flags and the wiring of one run (class loading as `exhaustive` does
//! it, then [`crate::builders::identify`], the summary, the builders file, --stats-json).
//! Flag names follow `jforge exhaustive` for the same concepts (scope, domains, omitted fields).

use crate::builders::{self, Algorithm, Env, Options, ga};
use crate::cli::ExhaustiveArgs;
use crate::exhaustive::Settings;
use crate::generate::ops::{build_ops, helper_classes};
use crate::model::Model;
use crate::model::classpath::{ClassPath, JdkClasses, JmodClasses};
use crate::runner::java::find_java;
use crate::runner::{Pool, PoolConfig};
use crate::select;
use anyhow::{Context, bail};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// `jforge builders`. Identifies a sufficient and minimal set of builder methods: the methods
/// that build every structure (at the scope) the whole API builds, none of them superfluous.
#[derive(Args, Debug, Clone)]
pub struct BuildersArgs {
    /// Class whose builders are identified, binary name (repeatable).
    #[arg(long = "class", value_name = "NAME")]
    pub classes: Vec<String>,
    /// Class path of the code under test (':'-separated folders and jars).
    #[arg(long, value_name = "PATH", default_value = "")]
    pub classpath: String,
    /// Search: hc (hill climbing on structure counts, BEAPI) or ga (genetic algorithm on
    /// field extensions, FASE'19).
    #[arg(long, value_enum, default_value = "hc")]
    pub algorithm: Algorithm,
    /// Scope of the fitness and of the verdict: most objects of one class reachable from a
    /// structure's root (root excluded).
    #[arg(long, value_name = "N", default_value_t = builders::DEFAULT_SCOPE)]
    pub scope: u32,
    /// Write the builder set here (one signature regex per line, the format --builders reads).
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Verify this builders file (sufficient, minimal) instead of searching a set.
    #[arg(long, value_name = "FILE", conflicts_with = "algorithm")]
    pub verify: Option<PathBuf>,
    /// Write a JSON report here.
    #[arg(long, value_name = "FILE")]
    pub stats_json: Option<PathBuf>,
    /// Random seed (observer detection; the genetic algorithm).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Fields left out of canonical forms (regex on the name or Class.name). A counter of
    /// calls such as modCount makes every call build a new structure and no set ever reaches
    /// a fixpoint; '' keeps every field.
    #[arg(long, value_name = "REGEX", default_value = "modCount")]
    pub omit_fields: String,
    /// Only these methods form the API considered (signature regex).
    #[arg(long, value_name = "REGEX")]
    pub methods: Option<String>,
    /// int/Integer domain A:B inclusive (default 0:scope-1).
    #[arg(long, value_name = "A:B")]
    pub ints: Option<String>,
    /// String domain (default a,b,...: scope letters).
    #[arg(long, value_name = "a,b,c")]
    pub strings: Option<String>,
    /// long/Long domain A:B (default: the int domain).
    #[arg(long, value_name = "A:B")]
    pub longs: Option<String>,
    /// short/Short and byte/Byte domain A:B (default: the int domain).
    #[arg(long, value_name = "A:B")]
    pub shorts: Option<String>,
    /// double/Double and float/Float values, comma-separated (default: the int domain).
    #[arg(long, value_name = "x,y")]
    pub doubles: Option<String>,
    /// char/Character values as a string (default: a, b, ... scope letters).
    #[arg(long, value_name = "CHARS")]
    pub chars: Option<String>,
    /// boolean/Boolean values, comma-separated (default false,true).
    #[arg(long, value_name = "false,true")]
    pub booleans: Option<String>,
    /// Longest array in a structure (longer ones are out of scope).
    #[arg(long, value_name = "N")]
    pub max_array: Option<u32>,
    /// Exceptions meaning API misuse (default IllegalArgumentException, IllegalStateException).
    #[arg(long, value_name = "CLASSES", value_delimiter = ',')]
    pub misuse_exceptions: Vec<String>,
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
    /// Worker JVMs (default: number of cores).
    #[arg(long, value_name = "N")]
    pub workers: Option<usize>,
    /// JDK to use (a JDK home or a java binary); default $JAVA_HOME, then java on PATH.
    #[arg(long, value_name = "PATH")]
    pub java: Option<PathBuf>,
    /// Heap of each worker JVM in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub worker_heap: u32,
    /// Memory the exploration may use for kept structures, in MiB (default: half the RAM).
    #[arg(long, value_name = "MIB")]
    pub max_memory: Option<u64>,
    /// Sequences per batch sent to the workers.
    #[arg(long, default_value_t = 2000)]
    pub batch: usize,
    /// Hide the progress lines.
    #[arg(long, short)]
    pub quiet: bool,
}

impl BuildersArgs {
    /// The same settings in `jforge exhaustive`'s terms (domains, omitted fields...).
    fn exhaustive(&self) -> ExhaustiveArgs {
        ExhaustiveArgs {
            classes: self.classes.clone(),
            classpath: self.classpath.clone(),
            scope: Some(self.scope),
            ints: self.ints.clone(),
            strings: self.strings.clone(),
            longs: self.longs.clone(),
            shorts: self.shorts.clone(),
            doubles: self.doubles.clone(),
            chars: self.chars.clone(),
            booleans: self.booleans.clone(),
            max_array: self.max_array,
            omit_fields: Some(self.omit_fields.clone()).filter(|o| !o.trim().is_empty()),
            methods: self.methods.clone(),
            misuse_exceptions: self.misuse_exceptions.clone(),
            workers: self.workers,
            max_memory: self.max_memory,
            batch: self.batch,
            ..ExhaustiveArgs::default()
        }
    }

    fn check(&self) -> anyhow::Result<()> {
        if self.classes.is_empty() {
            bail!("name the class whose builders to identify with --class NAME");
        }
        if self.scope == 0 {
            bail!(
                "--scope must be at least 1 (default {})",
                builders::DEFAULT_SCOPE
            );
        }
        if self.workers == Some(0) {
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

/// JDK classes from a worker when the JDK has no jmods.
struct WorkerJdk(Pool);

impl JdkClasses for WorkerJdk {
    fn class_bytes(&mut self, n: &str) -> anyhow::Result<Option<Vec<u8>>> {
        self.0.class_bytes(n)
    }
    fn list_classes(&mut self, p: &str) -> anyhow::Result<Vec<String>> {
        self.0.list_classes(p)
    }
}

pub fn run(args: BuildersArgs) -> anyhow::Result<()> {
    args.check()?;
    let ex = args.exhaustive();
    let settings = Settings::from_args(&ex)?;
    let given = args
        .verify
        .as_deref()
        .map(crate::exhaustive::read_builders_file)
        .transpose()?;
    if let Some(o) = &args.output {
        // fail now rather than after the search
        std::fs::write(o, "").with_context(|| {
            format!(
                "cannot write --output file {}: choose another path",
                o.display()
            )
        })?;
    }
    let java = find_java(args.java.as_deref())?;
    let entries: Vec<PathBuf> = ClassPath::parse(&args.classpath)?.entries().to_vec();
    let cp = ClassPath::new(&entries)?;
    let workers = args
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);

    // ---- model and operations (as in `jforge exhaustive`)
    let mut model = Model::new();
    let classes = {
        let mut jdk: Box<dyn JdkClasses> = match JmodClasses::open(&java.home)? {
            Some(j) => Box::new(j),
            None => Box::new(WorkerJdk(Pool::start(PoolConfig {
                java: java.java.clone(),
                classpath: entries.clone(),
                workers: 1,
                call_timeout: Duration::from_secs(5),
                heap_mb: 256,
                extra_jvm_args: Vec::new(),
            })?)),
        };
        let mut classes = Vec::new();
        for c in &args.classes {
            let Some(ci) = model.load(&cp, &mut *jdk, c)? else {
                return Err(select::unknown_class_error(c, &cp, &mut *jdk));
            };
            if !ci.is_public() || !model.is_accessible(c) {
                bail!("class {c} is not public: its builders are methods of its public API");
            }
            classes.push(c.clone());
        }
        for h in helper_classes(&model, &classes) {
            let _ = model.load(&cp, &mut *jdk, &h);
        }
        classes
    };
    let ops = build_ops(&model, &classes, None, None);
    let env = Env {
        java: &java,
        entries: &entries,
        model: &model,
        ops: &ops,
        classes: &classes,
        settings: &settings,
        workers,
        heap_mb: args.worker_heap,
        batch: args.batch,
        memory_budget: crate::exhaustive::memory_budget(&ex),
    };
    let opt = Options {
        algorithm: args.algorithm,
        seed: args.seed,
        observer_sequences: args.observer_sequences,
        max_combinations: args.max_combinations,
        ga: ga::Params {
            generations: args.generations,
            population: args.population,
            crossover: args.crossover_rate,
            mutation: args.mutation_rate,
            w1: args.w1,
            w2: args.w2,
            w3: args.w3,
            seed: args.seed,
            paper_fitness: args.paper_fitness,
        },
        search_check: !args.no_search_check,
        given,
        quiet: args.quiet,
    };
    let compare_gen = args
        .compare_gen
        .as_deref()
        .map(crate::cli::parse_duration)
        .transpose()
        .context("--compare-gen")?;
    let mut report = builders::identify(&env, &opt)?;
    if let Some(limit) = compare_gen {
        report.gen_comparison = Some(builders::compare::compare(
            &env,
            &report.builders,
            limit,
            args.seed,
        )?);
    }
    let mut out = std::io::stdout().lock();
    builders::print_summary(&report, &mut out)?;
    if let Some(o) = &args.output {
        std::fs::write(o, builders::file_text(&report))
            .with_context(|| format!("cannot write --output file {}", o.display()))?;
        use std::io::Write;
        writeln!(out, "  wrote {}", o.display())?;
    }
    if let Some(p) = &args.stats_json {
        std::fs::write(p, serde_json::to_string_pretty(&report)?)
            .with_context(|| format!("cannot write --stats-json file {}", p.display()))?;
    }
    Ok(())
}
