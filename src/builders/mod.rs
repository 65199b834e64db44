//! `jforge builders`: a sufficient and minimal set of builder methods of a class, the methods
//! an analysis needs to build every structure the whole API builds (seed 004, Ponzio et al.,
//! FASE'19; hill climbing from seed 001, BEAPI section 3.3).
//!
//! Pipeline: observer detection by a short random run (`observers.rs`); the candidates are the
//! other usable methods; one lazily explored exhaustive search at a small scope holds every
//! combination any candidate set needs, as a transition graph (`space.rs`); hill climbing on
//! structure counts (`hill.rs`, default) or the genetic algorithm on field extensions
//! (`ga.rs`) searches the sets; the answer is verified against the whole API (`verify.rs`)
//! and, by default, by an independent exhaustive search restricted to it on fresh workers.
//! The result is a builders file that `jforge exhaustive --builders` and `jforge gen
//! --builders` read (and `jforge exhaustive --builders auto` runs all this first).
//!
//! The command line is in src/builders/cmd.rs; `exhaustive` and `gen` call [`auto`] and
//! [`restrict_ops`].

pub mod bits;
pub mod cmd;
pub mod compare;
pub mod fieldext;
pub mod ga;
pub mod hill;
pub mod observers;
pub mod space;
pub mod verify;

use crate::exhaustive::search::{Search, SearchConfig, Usable};
use crate::exhaustive::{DomainInput, Settings};
use crate::generate::ops::OpSet;
use crate::model::Model;
use crate::runner::{Pool, PoolConfig};
use crate::sequence::OpId;
use crate::session::PoolMaker;
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use observers::{Evidence, Role};
use space::{Space, Wave};
use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// Scope of identification when none is given (seed 001: "a scope of 5 was enough for
/// builders computation in all our case studies").
pub const DEFAULT_SCOPE: u32 = 5;
/// Sequences of the observer-detection random run.
pub const DEFAULT_OBSERVER_SEQUENCES: u64 = 3000;
/// Most combinations one operation with several structure inputs (`putAll(Map)`) may need in
/// one closure; beyond it the operation is left out and reported (they grow as the square of
/// the structures: TreeMap's 33,026 at scope 5 would need 1.1e9).
pub const DEFAULT_MAX_COMBINATIONS: u64 = 2_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, serde::Serialize)]
pub enum Algorithm {
    /// Hill climbing on the number of structures (BEAPI's).
    #[value(name = "hc")]
    #[serde(rename = "hc")]
    HillClimbing,
    /// The genetic algorithm of Ponzio et al. (FASE'19) on field extensions.
    #[value(name = "ga")]
    #[serde(rename = "ga")]
    Genetic,
}

impl Algorithm {
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::HillClimbing => "hill climbing",
            Algorithm::Genetic => "genetic algorithm",
        }
    }
}

/// What identification needs from its caller (`jforge builders` or `jforge exhaustive`).
pub struct Env<'a> {
    /// Starts the pools identification needs (the session's JDK, class path, workers, heap).
    pub pools: &'a PoolMaker,
    pub model: &'a Model,
    pub ops: &'a OpSet,
    pub classes: &'a [String],
    /// Scope, domains, omitted fields and error exceptions of the identification.
    pub settings: &'a Settings,
    pub batch: usize,
    pub memory_budget: u64,
    /// `--time-limit`: when the run gives up, and the limit as given (for the message).
    pub deadline: Option<(Instant, Duration)>,
}

pub struct Options {
    pub algorithm: Algorithm,
    pub seed: u64,
    pub observer_sequences: u64,
    pub max_combinations: u64,
    /// The genetic algorithm's parameters; `w3` also breaks hill climbing's ties.
    pub ga: ga::Params,
    /// Check the answer with an independent exhaustive search restricted to it.
    pub search_check: bool,
    /// `Some`: verify this set (signatures given by the user) instead of searching one.
    pub given: Option<Vec<regex::Regex>>,
    pub quiet: bool,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct MethodRole {
    pub signature: String,
    pub role: Role,
    pub evidence: Evidence,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct SearchCheck {
    pub structures: u64,
    pub forms: usize,
    /// The same canonical forms as the closure of the set.
    pub agrees: bool,
    pub seconds: f64,
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Timings {
    pub observers: f64,
    pub identification: f64,
    pub verification: f64,
    pub search_check: f64,
    pub total: f64,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Report {
    pub classes: Vec<String>,
    pub scope: u32,
    /// `None` when a given set was verified (`--verify`).
    pub algorithm: Option<Algorithm>,
    pub seed: u64,
    pub methods: Vec<MethodRole>,
    pub observers: Vec<String>,
    pub candidates: Vec<String>,
    /// Methods left out of the search and of the check (over the combination budget).
    pub excluded: Vec<(String, String)>,
    pub steps: Vec<hill::Step>,
    pub generations: Vec<ga::Generation>,
    pub builders: Vec<String>,
    #[serde(skip)]
    pub builder_ops: Vec<OpId>,
    /// Hill climbing: structures; GA: field extensions plus the tie-break term.
    pub fitness: f64,
    pub evaluations: usize,
    pub verdict: verify::Verdict,
    pub search_check: Option<SearchCheck>,
    pub generated: u64,
    pub sampled_calls: usize,
    /// Sequences the exploration ran.
    pub sequences: u64,
    pub waves: u64,
    /// Errors (by gen's contracts), crashes and timeouts met while exploring (kind and count).
    pub failures: Vec<(String, u64)>,
    /// Calls that threw an expected exception (an invalid argument or state, by gen's
    /// contracts: not errors; the combination built nothing).
    pub expected_exceptions: u64,
    pub timings: Timings,
    /// `--compare-gen`: random generation with the builders against the whole API.
    pub gen_comparison: Option<compare::GenComparison>,
}

/// A pool whose workers canonicalize with the identification's settings, bounded by
/// `scope` when given, writing forms as text when `text`.
fn pool_config(env: &Env, scope: Option<u32>, text: bool) -> PoolConfig {
    env.pools
        .config(crate::exhaustive::canon_jvm_args(env.settings, scope, text))
}

fn search_config(env: &Env) -> SearchConfig {
    SearchConfig {
        state_matching: true,
        reuse: true,
        error_exceptions: env.settings.error_exceptions.clone(),
        batch: env.batch.max(1),
        max_rounds: None,
        memory_budget: env.memory_budget,
        dump: false,
        check_ops: HashMap::new(),
        contracts: false,
        deadline: env.deadline,
    }
}

/// An error of the exploration: when a limit stopped it (`--time-limit`, `--max-memory`, a
/// closure that never stops growing: budget errors), the fields whose values kept growing in
/// the structures explored and the `--omit-fields` line that leaves them out, found as
/// `jforge exhaustive` finds them (`exhaustive::growth::explain_limit`, on one worker of its
/// own that writes forms with field names).
fn explain_limit(env: &Env, space: &Space, e: anyhow::Error) -> anyhow::Error {
    let canon = crate::exhaustive::canon_jvm_args(env.settings, None, true);
    let cfg = env
        .pools
        .config(crate::exhaustive::growth::names_jvm_args(canon));
    crate::exhaustive::growth::explain_limit(e, space.search(), cfg, env.settings)
}

fn spinner(quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new_spinner();
    b.set_style(
        ProgressStyle::with_template("{elapsed_precise} {spinner} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    b.enable_steady_tick(Duration::from_millis(250));
    b
}

/// `ds.AvlTree.add(int)` -> `add(int)`, `ds.AvlTree()` -> `AvlTree()`: for progress lines.
fn short_signature(sig: &str) -> &str {
    let head = sig.split('(').next().unwrap_or(sig);
    match head.rfind('.') {
        Some(i) => &sig[i + 1..],
        None => sig,
    }
}

fn short_set(set: &[String]) -> String {
    set.iter()
        .map(|s| short_signature(s))
        .collect::<Vec<_>>()
        .join(", ")
}

fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Observer detection, the search for a builder set (or the set given), its verification.
pub fn identify(env: &Env, opt: &Options) -> anyhow::Result<Report> {
    let started = Instant::now();
    let scope = env.settings.scope;
    let mut skipped = Vec::new();
    let usable = crate::exhaustive::usable_ops(env.ops, env.classes, env.settings, &mut skipped);
    if usable.is_empty() {
        bail!(
            "{} has no public constructor or method whose inputs jforge can supply",
            env.classes.join(", ")
        );
    }
    let progress = Spinner::new(opt.quiet);
    let Detected {
        pool,
        usable,
        roles,
        detection,
    } = detect_observers(env, opt, usable, &progress)?;
    let observers_seconds = started.elapsed().as_secs_f64();
    progress.say(observers_line(&roles, detection.sampled_calls));

    let mut space = new_space(env, opt, &usable, pool);
    let candidates: Vec<u32> = (0..roles.len() as u32)
        .filter(|&u| roles[u as usize].role != Role::Observer)
        .collect();
    let ident_start = Instant::now();
    progress.step_started.set(Instant::now());
    let found = search_builders(env, opt, &mut space, &candidates, &progress)
        .map_err(|e| explain_limit(env, &space, e))?;
    let identification = ident_start.elapsed().as_secs_f64();
    let verified = verify_builders(env, space, &found.builders, &candidates, &progress)?;
    let check_start = Instant::now();
    let search_check = if opt.search_check {
        Some(check_with_search(env, &usable, &verified, &progress)?)
    } else {
        None
    };
    let search_seconds = check_start.elapsed().as_secs_f64();
    progress.bar.finish_and_clear();
    Ok(Report {
        classes: env.classes.to_vec(),
        scope,
        algorithm: opt.given.is_none().then_some(opt.algorithm),
        seed: opt.seed,
        observers: roles
            .iter()
            .filter(|r| r.role == Role::Observer)
            .map(|r| r.signature.clone())
            .collect(),
        methods: roles,
        candidates: verified.candidate_names,
        excluded: verified.excluded,
        steps: found.steps,
        generations: found.generations,
        builders: verified.builder_names,
        builder_ops: verified.builder_ops,
        fitness: found.fitness,
        evaluations: found.evaluations,
        verdict: verified.verdict,
        search_check,
        generated: detection.generated,
        sampled_calls: detection.sampled_calls,
        sequences: verified.sequences,
        waves: verified.waves,
        failures: verified.failures,
        expected_exceptions: verified.expected_exceptions,
        timings: Timings {
            observers: observers_seconds,
            identification,
            verification: verified.seconds,
            search_check: search_seconds,
            total: started.elapsed().as_secs_f64(),
        },
        gen_comparison: None,
    })
}

/// The spinner of identification and its progress lines: above the spinner on a terminal,
/// plain lines on stderr otherwise, none when quiet.
struct Spinner {
    bar: ProgressBar,
    quiet: bool,
    /// When the current step (or generation) started, for the rate shown on each wave.
    step_started: Cell<Instant>,
}

impl Spinner {
    /// A spinner (hidden when quiet), the step clock started now.
    fn new(quiet: bool) -> Spinner {
        Spinner {
            bar: spinner(quiet),
            quiet,
            step_started: Cell::new(Instant::now()),
        }
    }

    /// Prints a progress line.
    fn say(&self, m: String) {
        if self.quiet {
        } else if self.bar.is_hidden() {
            eprintln!("{m}");
        } else {
            self.bar.println(m);
        }
    }

    /// Shows a wave of the exploration on the spinner: structures known, sequences and the
    /// rate of this step.
    fn wave(&self, w: &Wave) {
        let secs = self.step_started.get().elapsed().as_secs_f64().max(1e-3);
        self.bar.set_message(format!(
            "{} structures known | {} sequences ({}/s this step)",
            thousands(w.structures as u64),
            thousands(w.explored_total),
            thousands((w.sequences as f64 / secs) as u64)
        ));
    }
}

/// What observer detection leaves: the space's workers (started meanwhile), the usable
/// operations they could load, and the role of each.
struct Detected {
    pool: Pool,
    usable: Vec<Usable>,
    roles: Vec<MethodRole>,
    detection: observers::Detection,
}

/// Detects the observers by a random run on workers of their own, while the space's
/// workers (bounded by the scope) start in the background (the detection's have no bound:
/// larger objects count as evidence too).
fn detect_observers(
    env: &Env,
    opt: &Options,
    usable: Vec<Usable>,
    progress: &Spinner,
) -> anyhow::Result<Detected> {
    let space_cfg = pool_config(env, Some(env.settings.scope), false);
    let space_pool = std::thread::spawn(move || Pool::start(space_cfg));
    // forms as text: observer detection reads the values a structure holds from its form
    let mut det_pool =
        Pool::start(pool_config(env, None, true)).context("starting the worker JVMs")?;
    let unregistered = det_pool.register(&env.ops.table)?;
    progress.bar.set_message(format!(
        "observer detection: {} random sequences",
        opt.observer_sequences
    ));
    let detection = observers::detect(
        env.model,
        env.ops,
        env.classes,
        &mut det_pool,
        &unregistered,
        &usable,
        opt.seed,
        opt.observer_sequences,
    )?;
    det_pool.shutdown();
    let mut pool = space_pool
        .join()
        .map_err(|_| anyhow::anyhow!("the thread starting the workers panicked"))?
        .context("starting the worker JVMs")?;
    let unregistered = pool.register(&env.ops.table)?;
    let usable: Vec<Usable> = usable
        .into_iter()
        .filter(|u| !unregistered.iter().any(|(id, _)| *id == u.op))
        .collect();
    let roles: Vec<MethodRole> = usable
        .iter()
        .map(|u| MethodRole {
            signature: env.ops.table.get(u.op).signature(),
            role: detection.role(env.ops, u.op),
            evidence: detection.evidence.get(&u.op).copied().unwrap_or_default(),
        })
        .collect();
    Ok(Detected {
        pool,
        usable,
        roles,
        detection,
    })
}

/// The progress line naming the observers found.
fn observers_line(roles: &[MethodRole], sampled_calls: usize) -> String {
    let obs: Vec<&str> = roles
        .iter()
        .filter(|r| r.role == Role::Observer)
        .map(|r| r.signature.as_str())
        .collect();
    format!(
        "observers ({} of {} methods, {} sampled calls): {}",
        obs.len(),
        roles.len(),
        sampled_calls,
        if obs.is_empty() {
            "none".to_string()
        } else {
            obs.join(", ")
        }
    )
}

/// The transition-graph space over every usable operation, explored on `pool`.
fn new_space<'a>(env: &Env<'a>, opt: &Options, usable: &[Usable], pool: Pool) -> Space<'a> {
    let search = Search::new(env.model, env.ops, usable.to_vec(), search_config(env));
    let text_cfg = PoolConfig {
        workers: 1,
        ..pool_config(env, Some(env.settings.scope), true)
    };
    Space::new(
        search,
        pool,
        env.classes.to_vec(),
        opt.max_combinations,
        env.settings.scope,
        text_cfg,
    )
}

/// The builder set and how it was found.
struct Found {
    builders: Vec<u32>,
    fitness: f64,
    evaluations: usize,
    steps: Vec<hill::Step>,
    generations: Vec<ga::Generation>,
}

/// The builder set: the one given (its usable methods), or the one hill climbing or the
/// genetic algorithm finds among `candidates`.
fn search_builders(
    env: &Env,
    opt: &Options,
    space: &mut Space,
    candidates: &[u32],
    progress: &Spinner,
) -> anyhow::Result<Found> {
    match (&opt.given, opt.algorithm) {
        (Some(given), _) => {
            let builders = given_builders(env, space, given)?;
            Ok(Found {
                builders,
                fitness: 0.0,
                evaluations: 0,
                steps: Vec::new(),
                generations: Vec::new(),
            })
        }
        (None, Algorithm::HillClimbing) => climb_hills(opt, space, candidates, progress),
        (None, Algorithm::Genetic) => run_genetic(opt, space, candidates, progress),
    }
}

/// The usable methods the builders file names (an error when it names none).
fn given_builders(env: &Env, space: &Space, given: &[regex::Regex]) -> anyhow::Result<Vec<u32>> {
    let picked: Vec<u32> = (0..space.ops.len() as u32)
        .filter(|&u| {
            let sig = &space.ops[u as usize].signature;
            given.iter().any(|r| r.is_match(sig))
        })
        .collect();
    if picked.is_empty() {
        bail!(
            "the builders file matches no usable method of {}: write one signature \
             regex per line, as jforge builders does (e.g. {})",
            env.classes.join(", "),
            regex::escape(&space.ops[0].signature)
        );
    }
    Ok(picked)
}

/// Hill climbing on structure counts, a progress line per step.
fn climb_hills(
    opt: &Options,
    space: &mut Space,
    candidates: &[u32],
    progress: &Spinner,
) -> anyhow::Result<Found> {
    let mut step_line = |s: &hill::Step| {
        let rate = s.evaluated as f64 / s.seconds.max(1e-3);
        progress.say(format!(
            "step {}: + {} -> {{{}}}: {} structures ({} sets, {:.0} sets/s, {} \
             sequences, {:.2}s)",
            s.step,
            s.added
                .split(" + ")
                .map(short_signature)
                .collect::<Vec<_>>()
                .join(" + "),
            short_set(&s.set),
            thousands(s.structures),
            s.evaluated,
            rate,
            thousands(s.sequences),
            s.seconds
        ));
        progress.step_started.set(Instant::now());
    };
    let mut wave = |w: &Wave| progress.wave(w);
    let out = hill::climb(space, candidates, opt.ga.w3, &mut step_line, &mut wave)?;
    progress.say(format!(
        "no other method raises the count: {} builders, {} sets evaluated",
        out.builders.len(),
        out.evaluations
    ));
    Ok(Found {
        builders: out.builders,
        fitness: out.structures as f64,
        evaluations: out.evaluations,
        steps: out.steps,
        generations: Vec::new(),
    })
}

/// The genetic algorithm on field extensions, a progress line per generation.
fn run_genetic(
    opt: &Options,
    space: &mut Space,
    candidates: &[u32],
    progress: &Spinner,
) -> anyhow::Result<Found> {
    let mut gen_line = |g: &ga::Generation| {
        let rate = g.evaluated as f64 / g.seconds.max(1e-3);
        progress.say(format!(
            "generation {}: best {{{}}} fitness {:.3} ({} field values, {} structures) \
             | population {} | {} new sets, {:.0} sets/s, {} sequences",
            g.generation,
            short_set(&g.best),
            g.fitness,
            g.field_extensions,
            thousands(g.structures),
            g.population,
            g.evaluated,
            rate,
            thousands(g.sequences)
        ));
        progress.step_started.set(Instant::now());
    };
    let mut wave = |w: &Wave| progress.wave(w);
    let params = ga::Params {
        seed: opt.seed,
        ..opt.ga.clone()
    };
    let out = ga::evolve(space, candidates, &params, &mut gen_line, &mut wave)?;
    Ok(Found {
        builders: out.builders,
        fitness: out.fitness,
        evaluations: out.evaluations,
        steps: Vec::new(),
        generations: out.generations,
    })
}

/// The verdict on the builder set and what the report takes from the space, which is shut
/// down.
struct Verified {
    verdict: verify::Verdict,
    /// Sorted canonical-form keys of the structures the builders reach.
    own_keys: Vec<u128>,
    builder_ops: Vec<OpId>,
    builder_names: Vec<String>,
    candidate_names: Vec<String>,
    failures: Vec<(String, u64)>,
    expected_exceptions: u64,
    excluded: Vec<(String, String)>,
    sequences: u64,
    waves: u64,
    /// Seconds the verification took.
    seconds: f64,
}

/// Verifies the builder set against the whole API at the scope, then collects the space's
/// figures (failures, excluded methods, names) and stops its workers.
fn verify_builders(
    env: &Env,
    mut space: Space,
    builders: &[u32],
    candidates: &[u32],
    progress: &Spinner,
) -> anyhow::Result<Verified> {
    progress.bar.set_message(format!(
        "verifying against the whole API ({} methods) at scope {}",
        space.ops.len(),
        env.settings.scope
    ));
    let verify_start = Instant::now();
    let mut wave = |w: &Wave| progress.wave(w);
    let (verdict, own) = verify::verify(&mut space, builders, env.settings.scope, &mut wave)
        .map_err(|e| explain_limit(env, &space, e))?;
    let seconds = verify_start.elapsed().as_secs_f64();
    let builder_ops: Vec<OpId> = builders.iter().map(|&u| space.ops[u as usize].op).collect();
    let own_keys = space.keys(&own);
    let mut failures: Vec<(String, u64)> = space
        .search()
        .failures
        .iter()
        .map(|f| {
            let op = match f.seq.stmts.last() {
                Some(crate::sequence::Stmt::Call { op, .. }) => env.ops.table.get(*op).signature(),
                _ => "?".into(),
            };
            (format!("{} in {op}", f.what), f.occurrences)
        })
        .collect();
    failures.sort();
    let excluded: Vec<(String, String)> = space
        .excluded
        .iter()
        .map(|(&u, why)| (space.ops[u as usize].signature.clone(), why.clone()))
        .collect();
    let names = |v: &[u32]| -> Vec<String> {
        v.iter()
            .map(|&u| space.ops[u as usize].signature.clone())
            .collect()
    };
    let builder_names = names(builders);
    let candidate_names = names(candidates);
    let sequences = space.explored();
    let waves = space.waves;
    let expected_exceptions = space.search().misuse_dropped;
    space.shutdown();
    Ok(Verified {
        verdict,
        own_keys,
        builder_ops,
        builder_names,
        candidate_names,
        failures,
        expected_exceptions,
        excluded,
        sequences,
        waves,
        seconds,
    })
}

/// `--search-check`: an independent exhaustive search restricted to the builders, compared
/// with what they reached in the space.
fn check_with_search(
    env: &Env,
    usable: &[Usable],
    verified: &Verified,
    progress: &Spinner,
) -> anyhow::Result<SearchCheck> {
    progress.bar.set_message(format!(
        "checking with an exhaustive search restricted to the {} builders",
        verified.builder_ops.len()
    ));
    let subset: Vec<Usable> = usable
        .iter()
        .filter(|u| verified.builder_ops.contains(&u.op))
        .cloned()
        .collect();
    check_by_search(env, subset, &verified.own_keys)
}

/// The structures of an exhaustive search restricted to `subset`, run as `jforge exhaustive`
/// runs it (fresh workers, breadth-first rounds), compared with the closure's forms.
fn check_by_search(
    env: &Env,
    subset: Vec<Usable>,
    expected: &[u128],
) -> anyhow::Result<SearchCheck> {
    let started = Instant::now();
    let mut pool = Pool::start(pool_config(env, Some(env.settings.scope), false))
        .context("starting the worker JVMs")?;
    pool.register(&env.ops.table)?;
    let mut search = Search::new(env.model, env.ops, subset, search_config(env));
    search.run(&mut pool, &mut |_| {})?;
    pool.shutdown();
    let mut keys: Vec<u128> = search.keys().collect();
    keys.sort_unstable();
    Ok(SearchCheck {
        structures: search.structures_of(env.classes),
        forms: keys.len(),
        agrees: keys == expected,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The builders file: one escaped signature per line (the format `--builders FILE` reads),
/// with the verdict and the observers as comments.
pub fn file_text(r: &Report) -> String {
    let mut s = format!(
        "# jforge builders: {} at scope {} ({})\n",
        r.classes.join(", "),
        r.scope,
        r.algorithm.map_or("verified set", |a| a.name())
    );
    s.push_str(&format!("# {}\n", verdict_line(r)));
    for b in &r.builders {
        s.push_str(&regex::escape(b));
        s.push('\n');
    }
    if !r.observers.is_empty() {
        s.push_str(&format!("# observers: {}\n", r.observers.join(", ")));
    }
    s
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "NO" }
}

/// One line: both verdicts and the scope they were checked at.
pub fn verdict_line(r: &Report) -> String {
    let v = &r.verdict;
    format!(
        "sufficient at scope {}: {} ({} structures, the whole API's {} methods build {}); \
         minimal: {}",
        v.scope,
        yes(v.sufficient),
        thousands(v.structures),
        v.api_methods,
        thousands(v.api_structures),
        yes(v.minimal)
    )
}

/// The summary `jforge builders` prints.
pub fn print_summary(r: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    write_header(r, out)?;
    write_search(r, out)?;
    write_verdict(r, out)?;
    write_checks(r, out)
}

/// The first line: classes, scope, how the set was found, and the time of each phase.
fn write_header(r: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    let how = match r.algorithm {
        Some(a) => format!("{}, {} sets evaluated", a.name(), r.evaluations),
        None => "the set given".to_string(),
    };
    writeln!(
        out,
        "jforge builders: {} at scope {} ({how}; {:.2}s: observers {:.2}s, search {:.2}s, \
         verification {:.2}s{})",
        r.classes.join(", "),
        r.scope,
        r.timings.total,
        r.timings.observers,
        r.timings.identification,
        r.timings.verification,
        if r.search_check.is_some() {
            format!(", check {:.2}s", r.timings.search_check)
        } else {
            String::new()
        }
    )
}

/// The observers, the methods left out, and the search's steps or improving generations.
fn write_search(r: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "  observers ({} of {}): {}",
        r.observers.len(),
        r.methods.len(),
        if r.observers.is_empty() {
            "none".into()
        } else {
            r.observers.join(", ")
        }
    )?;
    for (m, why) in &r.excluded {
        writeln!(out, "  left out: {m}: {why}")?;
    }
    if !r.steps.is_empty() {
        let steps: Vec<String> = r
            .steps
            .iter()
            .map(|s| format!("{}. + {} -> {}", s.step, s.added, thousands(s.structures)))
            .collect();
        writeln!(out, "  steps (structures): {}", steps.join(", "))?;
    }
    let mut last: Option<&Vec<String>> = None;
    for g in &r.generations {
        if last != Some(&g.best) {
            writeln!(
                out,
                "  generation {}: fitness {:.3} ({} field values, {} structures): {{{}}}",
                g.generation,
                g.fitness,
                g.field_extensions,
                thousands(g.structures),
                g.best.join(", ")
            )?;
            last = Some(&g.best);
        }
    }
    Ok(())
}

/// The builders, the verdict, examples the set misses, and the set without each builder.
fn write_verdict(r: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out, "  builders ({}):", r.builders.len())?;
    for b in &r.builders {
        writeln!(out, "    {b}")?;
    }
    writeln!(out, "  {}", verdict_line(r))?;
    let v = &r.verdict;
    if !v.sufficient {
        writeln!(
            out,
            "  the whole API builds {} more canonical forms; for example:",
            v.api_forms - v.forms
        )?;
        for e in &v.missing_examples {
            writeln!(out, "    {}", e.join("; "))?;
        }
    }
    for w in &v.without {
        writeln!(
            out,
            "    without {}: {} structures{}",
            w.method,
            thousands(w.structures),
            if w.structures >= v.structures {
                " (superfluous)"
            } else {
                ""
            }
        )?;
    }
    Ok(())
}

/// The exhaustive-search check, the comparison with random generation, and the exceptions
/// that are errors, each when there is one.
fn write_checks(r: &Report, out: &mut dyn Write) -> std::io::Result<()> {
    if let Some(c) = &r.search_check {
        writeln!(
            out,
            "  exhaustive search restricted to the builders: {} structures, {} ({:.2}s)",
            thousands(c.structures),
            if c.agrees {
                "the same canonical forms"
            } else {
                "DIFFERENT canonical forms: the code under test is not deterministic, or \
                 depends on state outside the structure"
            },
            c.seconds
        )?;
    }
    if let Some(c) = &r.gen_comparison {
        writeln!(
            out,
            "  random generation, {:.0}s each (distinct objects / largest, in objects): \
             builders {} / {} ({} sequences), whole API {} / {} ({} sequences)",
            c.seconds,
            thousands(c.builders.distinct as u64),
            c.builders.largest,
            thousands(c.builders.sequences),
            thousands(c.whole_api.distinct as u64),
            c.whole_api.largest,
            thousands(c.whole_api.sequences)
        )?;
    }
    if r.expected_exceptions > 0 {
        writeln!(
            out,
            "  {} calls threw an expected exception (an invalid argument or state, as jforge \
             gen and jforge exhaustive classify them): not errors",
            thousands(r.expected_exceptions)
        )?;
    }
    if !r.failures.is_empty() {
        let list: Vec<String> = r
            .failures
            .iter()
            .map(|(what, n)| format!("{what} ({n}x)"))
            .collect();
        writeln!(
            out,
            "  errors met while exploring (contracts of jforge gen: a NullPointerException \
             without a null input, an AssertionError, --error-exceptions; jforge exhaustive \
             writes failure tests for them): {}",
            list.join(", ")
        )?;
    }
    Ok(())
}

/// What `jforge exhaustive --builders auto` gives identification: its input space, batch,
/// memory budget, `--time-limit` (measured from when identification starts) and quiet.
pub struct AutoRun<'a> {
    pub input: &'a DomainInput,
    pub batch: usize,
    pub memory_budget: u64,
    pub time_limit: Option<Duration>,
    pub quiet: bool,
}

/// `jforge exhaustive --builders auto`: identifies the builders (hill climbing at scope
/// min(5, --scope), checked against the whole API there) and returns the operations to
/// enumerate with; `None`: a set that is not sufficient is not used, the whole API is (with a
/// warning).
pub fn auto(
    run: &AutoRun,
    pools: &PoolMaker,
    model: &Model,
    ops: &OpSet,
    classes: &[String],
) -> anyhow::Result<Option<HashSet<OpId>>> {
    let full = Settings::read(run.input)?;
    let scope = full.scope.min(DEFAULT_SCOPE);
    let settings = Settings::read(&DomainInput {
        scope: Some(scope),
        ..run.input.clone()
    })?;
    let env = Env {
        pools,
        model,
        ops,
        classes,
        settings: &settings,
        batch: run.batch,
        memory_budget: run.memory_budget,
        deadline: run.time_limit.map(|t| (Instant::now() + t, t)),
    };
    let report = identify(
        &env,
        &Options {
            algorithm: Algorithm::HillClimbing,
            seed: 0,
            observer_sequences: DEFAULT_OBSERVER_SEQUENCES,
            max_combinations: DEFAULT_MAX_COMBINATIONS,
            ga: ga::Params::default(),
            search_check: false,
            given: None,
            quiet: run.quiet,
        },
    )?;
    eprintln!(
        "builders (identified at scope {scope} in {:.2}s): {}",
        report.timings.total,
        report.builders.join(", ")
    );
    eprintln!("  {}", verdict_line(&report));
    if !report.verdict.sufficient {
        eprintln!(
            "warning: the identified builders are not sufficient at scope {scope}: \
             enumerating with the whole API instead"
        );
        return Ok(None);
    }
    Ok(Some(report.builder_ops.iter().copied().collect()))
}

/// `jforge gen --builders FILE`: generation calls only the methods of the classes under test
/// the file lists (helper-class operations still supply arguments, and observers still give
/// the assertions: they come from the whole class).
pub fn restrict_ops(ops: &mut OpSet, file: &Path) -> anyhow::Result<()> {
    let builders = crate::exhaustive::read_builders_file(file)?;
    let table = &ops.table;
    ops.primary.retain(|&o| {
        let sig = table.get(o).signature();
        builders.iter().any(|b| b.is_match(&sig))
    });
    if ops.primary.is_empty() {
        bail!(
            "--builders {}: no method of the classes under test matches its lines; write one \
             signature regex per line as jforge builders does (e.g. ds\\.Stack\\.push\\(int\\))",
            file.display()
        );
    }
    Ok(())
}
