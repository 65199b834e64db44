//! Concolic generation with an SMT solver (JTestCraft, seed 002): run a method under test
//! concretely with its int-like parameters traced as symbols (`crate::instrument::trace`,
//! `jforge.rt.Sym`), insert the path into the method's constraint tree (`tree.rs`), ask the
//! solver (`solver.rs`) for inputs that take an alternative not yet explored, run them, and
//! so on until every tree is exhausted or the budget ends. Each distinct path that covers a
//! decision or probe no earlier path covered becomes a test, written by the shared suite
//! stage (`cmd.rs`). When a tree is exhausted while a branch of its method is still open,
//! random inputs re-seed it until the deadline; every branch left uncovered gets a reason
//! (`reasons.rs`).
//!
//! What is symbolic: int, long, short, byte, char and boolean literals of the sequence (the
//! arguments of the method under test and of the calls that build its receiver), with
//! Java's bit-vector semantics (`trace.rs`), also after they were stored in a field or an
//! array element by an earlier call; the length and the elements of an array of primitives
//! passed to the method under test (`inputs.rs`); its String literals through `length`,
//! `charAt`, `isEmpty`, `equals`, `startsWith`, `endsWith`, `contains` and `indexOf` (the
//! solver's string theory). References, floats, other String methods and the results of
//! calls outside the classes under test are concrete (a branch on the last ones names
//! them: `Sym`'s lost values). Receivers come from Candidate Sequence Search
//! (`receivers.rs`), or under `gen --concolic` from gen's pool (`hybrid.rs`); other arguments
//! are fixed literals (`""`, `null`, 0.0).

pub mod cmd;
pub mod hybrid;
mod inputs;
pub mod reasons;
pub mod receivers;
pub mod solver;
pub mod states;
pub mod trace;
pub mod tree;

use crate::runner::{ExecMode, ExecRequest, Pool, SeqResult, StmtOutcome};
use crate::sequence::{OpId, OpTable, Sequence, Stmt, Value};
use anyhow::Result;
use inputs::{Rng, start_value};
use solver::{Answer, Query, Solver, Term};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;
use trace::Choice;
use tree::{Leaf, Pending, Tree, TreeStats};

/// A method to explore: the operation, and how its receiver is built (instance methods).
#[derive(Clone, Debug)]
pub struct Target {
    pub op: OpId,
    /// Statements that build the receiver, empty for static methods and constructors; their
    /// primitive literals are symbolic inputs too.
    pub receiver: Vec<Stmt>,
    /// Inputs that statements of `receiver` give (input index, the receiver being input 0
    /// of an instance method; statement): Candidate Sequence Search makes the receiver and
    /// then calls methods on it, and builds object arguments; `gen --concolic` takes the
    /// receiver and the object arguments from gen's pool (`hybrid.rs`). An input not listed is
    /// a literal (symbolic when int-like or a String) or, for the receiver, the last statement.
    pub fixed: Vec<(usize, u32)>,
    /// Literal statements of a fixed prefix (a receiver state of `states.rs`): concrete, and
    /// decisions that depend on nothing else are dropped.
    pub pinned: Vec<usize>,
}

impl Target {
    /// The statement that gives input `i` (0: the receiver of an instance method), if fixed.
    fn fixed(&self, i: usize) -> Option<u32> {
        self.fixed.iter().find(|f| f.0 == i).map(|f| f.1)
    }

    /// The statement of `receiver` whose value is the receiver, if any.
    pub fn receiver_stmt(&self) -> Option<u32> {
        self.fixed(0)
            .or_else(|| (!self.receiver.is_empty()).then(|| self.receiver.len() as u32 - 1))
    }
}

/// A path worth a test: the sequence, how it ended, and the probes it covered.
#[derive(Clone, Debug)]
pub struct Found {
    pub seq: Arc<Sequence>,
    /// The (public) class of the exception the last call threw, if it threw.
    pub exception: Option<String>,
    /// The probes the run covered.
    pub coverage: Option<Arc<[u32]>>,
}

/// What exploring one method gave.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct MethodResult {
    pub method: String,
    #[serde(flatten)]
    pub tree: TreeStats,
    pub runs: u64,
    pub solver_calls: u64,
    pub solver_seconds: f64,
    pub seconds: f64,
    /// Runs whose trace was missing or cut short (the path is unknown).
    pub untraced_runs: u64,
    /// Shadow values found out of step with the run (dropped).
    pub desyncs: u64,
    /// Why the method was not explored, if it was not.
    pub skipped: Option<String>,
    /// Receiver sequences explored, and those dropped because a call of theirs had each of
    /// its definitions overwritten before use (seed 002's check on the real trace).
    pub sequences: u64,
    pub dropped_sequences: u64,
    /// Runs from random inputs, made when the tree was exhausted while a branch of the
    /// method was still open (not proven infeasible) and time remained.
    pub random_runs: u64,
    /// Why the branches not taken were not: the trees' verdicts, unsupported operations.
    #[serde(skip)]
    pub evidence: reasons::Evidence,
    /// The deadline ended random re-seeding while a branch was still open.
    #[serde(skip)]
    pub cut_short: bool,
    #[serde(skip)]
    pub tests: Vec<Found>,
    /// Every distinct path whose call returned normally, with the statements whose literals
    /// its decisions depended on (only when asked for: the receiver states of `states.rs`
    /// are what they leave behind).
    #[serde(skip)]
    pub paths: Vec<(Arc<Sequence>, Vec<usize>)>,
}

/// The engine's settings and the facts of the instrumented classes.
pub struct Engine<'a> {
    pub table: &'a OpTable,
    /// Switch keys by site (probe id of the switch's first case, as text).
    pub switch_cases: HashMap<String, Vec<i64>>,
    pub max_depth: usize,
    /// Alternatives solved per batch of runs (the pool runs them in parallel).
    pub batch: usize,
    /// The branch edges of the classes under test (whether a method still has open ones).
    pub branches: &'a reasons::Branches,
}

impl Engine<'_> {
    /// The keys of a switch (from the probe map) or the indices of an array access (the
    /// seed's heap simulation: one path per index, for arrays of at most 64 elements; longer
    /// ones get only their bounds decided).
    fn cases(&self) -> impl Fn(&trace::Event) -> Vec<i64> + '_ {
        |e: &trace::Event| match e.len {
            Some(n) if n <= 64 => (0..n).collect(),
            Some(_) => Vec::new(),
            None => self.switch_cases.get(&e.site).cloned().unwrap_or_default(),
        }
    }

    /// The query for an alternative: the path of its trace up to it, then the alternative.
    fn query(&self, p: &Pending) -> Result<Query> {
        let t = &p.trace;
        let cases = self.cases();
        let mut asserts = Vec::new();
        let mut roots = Vec::new();
        for (d, e) in t.events.iter().take(p.depth + 1).enumerate() {
            let keys = cases(e);
            let choice = if d == p.depth {
                p.alt.clone()
            } else {
                Tree::normalize(&e.choice, &keys)
            };
            asserts.push(trace::constraint(e, &choice, &keys));
            roots.push(e.a);
            roots.push(e.b);
        }
        let defs = trace::definitions(&t.nodes, &roots)?;
        let mut vars = trace::declared_vars(&t.nodes, &defs);
        // an array argument's length: at most MAX_ARRAY, preferably short (readable tests)
        let mut prefer = Vec::new();
        for n in &t.nodes {
            if let trace::Node::Var { kind: 'L', index } = n
                && vars.iter().any(|v| v.0 == trace::var_name(*index))
            {
                let len = || Term::atom(trace::var_name(*index));
                let at_most = |n: u64| Term::app("bvule", vec![len(), Term::bv(n, 32)]);
                asserts.push(at_most(trace::MAX_ARRAY));
                prefer.push(at_most(trace::SHORT_ARRAY));
            }
        }
        let (links, tied) = trace::string_links(&t.nodes, &defs)?;
        vars.extend(links);
        asserts.splice(0..0, tied);
        Ok(Query {
            vars,
            defs,
            asserts,
            prefer,
        })
    }

    /// Explores one method until its tree is exhausted or `deadline` (`gen --concolic`: the
    /// receiver comes from gen's pool, not from Candidate Sequence Search, so the sequence is
    /// never dropped for a prefix call whose definitions were overwritten before use).
    pub fn explore(
        &self,
        pool: &mut Pool,
        solver: &mut dyn Solver,
        target: &Target,
        deadline: Instant,
    ) -> Result<MethodResult> {
        let mut covered = HashSet::new();
        let how = How {
            decisions: true,
            prune: false,
            keep_paths: false,
            reseed: false,
        };
        self.explore_with(pool, solver, target, deadline, &mut covered, how)
    }

    /// [`Engine::explore`] of one of several receiver sequences of a method, or of a
    /// receiver state (`states.rs`), as `how` says: `covered` holds the probes earlier
    /// sequences or states covered, and a path is kept as a test only when it covers a probe
    /// none covered (or, with `how.decisions`, takes a decision new to this tree).
    pub fn explore_with(
        &self,
        pool: &mut Pool,
        solver: &mut dyn Solver,
        target: &Target,
        deadline: Instant,
        covered: &mut HashSet<u32>,
        how: How,
    ) -> Result<MethodResult> {
        let t0 = Instant::now();
        let (calls0, time0) = solver.calls();
        let op = self.table.get(target.op);
        let mut ex = Exploration {
            tree: Tree::new(self.max_depth),
            result: MethodResult {
                method: op.signature(),
                ..MethodResult::default()
            },
            covered: std::mem::take(covered),
            decisions: how.decisions,
            prefix_calls: if how.prune {
                prefix_calls(target)
            } else {
                Vec::new()
            },
            dropped: false,
            pinned: target.pinned.clone(),
            lengths: target
                .receiver
                .iter()
                .enumerate()
                .filter_map(|(k, s)| match s {
                    Stmt::Array { elems, .. } => Some((k, elems.len())),
                    _ => None,
                })
                .collect(),
            keep_paths: how.keep_paths,
        };
        ex.result.sequences = 1;
        let mut rng = Rng::new(target.op as u64);
        let mut batch = self.first_batch(target);
        loop {
            if batch.is_empty() {
                // the tree is exhausted: while a branch of the method is still open and time
                // remains, random inputs may reach what the solver could not
                if !how.reseed || !self.open(target, &ex) {
                    break;
                }
                if Instant::now() >= deadline {
                    ex.result.cut_short = true;
                    break;
                }
                batch = self.random_batch(target, &mut rng);
                if batch.is_empty() {
                    break;
                }
                ex.result.random_runs += batch.len() as u64;
            }
            self.run_batch(pool, target, &mut ex, std::mem::take(&mut batch))?;
            if ex.dropped {
                ex.result.dropped_sequences = 1;
                break;
            }
            batch = self.solve_next(solver, target, &mut ex, deadline)?;
        }
        ex.tree.finish();
        ex.result.evidence.note_tree(&ex.tree);
        ex.result.evidence.ran = ex.covered.clone();
        *covered = std::mem::take(&mut ex.covered);
        let (calls, time) = solver.calls();
        let mut r = ex.result;
        r.tree = ex.tree.stats.clone();
        r.solver_calls = calls - calls0;
        r.solver_seconds = (time - time0).as_secs_f64();
        r.seconds = t0.elapsed().as_secs_f64();
        Ok(r)
    }

    /// Whether a branch edge of the method under test is uncovered and still open: not
    /// proven infeasible, but decided concretely, through an unsupported operation, diverged
    /// or timed out (see `reasons::Reason::open`).
    fn open(&self, target: &Target, ex: &Exploration) -> bool {
        let op = self.table.get(target.op);
        let mut ev = reasons::Evidence {
            decided: ex.result.evidence.decided.clone(),
            lost: ex.result.evidence.lost.clone(),
            ..reasons::Evidence::default()
        };
        ev.note_tree(&ex.tree);
        self.branches
            .of(&op.class, &op.name, &op.descriptor)
            .filter(|e| !ex.covered.contains(&e.probe))
            .any(|e| {
                let reached = e.siblings.iter().any(|s| ex.covered.contains(s));
                reasons::reason_of(e, &ev, reached).0.open()
            })
    }

    /// Asks the solver about alternatives until a batch of inputs is ready (or nothing is
    /// left, or the deadline).
    fn solve_next(
        &self,
        solver: &mut dyn Solver,
        target: &Target,
        ex: &mut Exploration,
        deadline: Instant,
    ) -> Result<Vec<(Vec<Value>, Option<Pending>)>> {
        let mut batch = Vec::new();
        while batch.len() < self.batch.max(1) && Instant::now() < deadline {
            let Some(p) = ex.tree.pick() else { break };
            let q = self.query(&p)?;
            match solver.check(&q)? {
                Answer::Sat(vals) => {
                    let inputs = self.inputs_from(target, &p, &q, &vals);
                    batch.push((inputs, Some(p)));
                }
                Answer::Unsat => ex.tree.close(&p, Leaf::Infeasible),
                Answer::Unknown => ex.tree.close(&p, Leaf::Timeout),
            }
        }
        Ok(batch)
    }

    /// Runs a batch of inputs and inserts their paths; an alternative its run did not reach
    /// is closed as diverged.
    fn run_batch(
        &self,
        pool: &mut Pool,
        target: &Target,
        ex: &mut Exploration,
        batch: Vec<(Vec<Value>, Option<Pending>)>,
    ) -> Result<()> {
        let seqs: Vec<Arc<Sequence>> = batch
            .iter()
            .map(|(inputs, _)| Arc::new(self.sequence(target, inputs)))
            .collect();
        let reqs = seqs
            .iter()
            .map(|s| ExecRequest {
                seq: s.clone(),
                mode: ExecMode::Generate,
                contract_values: Vec::new(),
                observers: Vec::new(),
                reuse: None,
            })
            .collect();
        let results = pool.execute(reqs)?;
        for (((inputs, pending), seq), r) in batch.into_iter().zip(seqs).zip(results) {
            ex.result.runs += 1;
            self.record(ex, seq, inputs, &r)?;
            if let Some(p) = pending
                && !ex.tree.reached(&p)
            {
                ex.tree.close(&p, Leaf::Diverged);
            }
        }
        Ok(())
    }

    /// Inserts one run's path; keeps it as a test when it covered something new.
    fn record(
        &self,
        ex: &mut Exploration,
        seq: Arc<Sequence>,
        inputs: Vec<Value>,
        r: &SeqResult,
    ) -> Result<()> {
        let last = seq.len() - 1;
        // A run that ended before the call (receiver set-up threw) or died has no trace.
        let parsed = match &r.trace {
            Some(text) => trace::parse(text)?,
            None => {
                ex.result.untraced_runs += 1;
                return Ok(());
            }
        };
        ex.result.desyncs += parsed.desyncs as u64;
        if ex.result.runs == 1 && overwritten_before_use(&parsed, &ex.prefix_calls) {
            ex.dropped = true;
            return Ok(());
        }
        if parsed.truncated {
            ex.result.untraced_runs += 1;
        }
        let mut parsed = parsed;
        ex.result.evidence.note_trace(&parsed);
        if !ex.pinned.is_empty() || !ex.lengths.is_empty() {
            trace::pin(&mut parsed, &inputs, &ex.pinned, &ex.lengths);
        }
        let decided = ex.keep_paths.then(|| trace::decided_vars(&parsed));
        let cases = self.cases();
        let (new_path, new_decisions) = ex.tree.insert(Arc::new(parsed), Arc::new(inputs), &cases);
        if new_path && ex.keep_paths && matches!(r.outcomes.get(last), Some(StmtOutcome::Normal(_)))
        {
            let decided = decided.unwrap_or_default().into_iter().collect();
            ex.result.paths.push((seq.clone(), decided));
        }
        let new_probes = r
            .coverage
            .as_deref()
            .unwrap_or(&[])
            .iter()
            .filter(|&&p| ex.covered.insert(p))
            .count();
        if new_path && ((ex.decisions && new_decisions > 0) || new_probes > 0) {
            let exception = match r.outcomes.get(last) {
                Some(StmtOutcome::Exception { public_class, .. }) => Some(public_class.to_string()),
                Some(StmtOutcome::Normal(_)) => None,
                // timed out, crashed, not run: no test
                _ => return Ok(()),
            };
            ex.result.tests.push(Found {
                seq,
                exception,
                coverage: r.coverage.clone(),
            });
        }
        Ok(())
    }
}

impl MethodResult {
    /// Adds the figures of another receiver sequence of the same method.
    pub fn absorb(&mut self, r: MethodResult) {
        let (a, b) = (&mut self.tree, &r.tree);
        a.paths += b.paths;
        a.repeated += b.repeated;
        a.infeasible += b.infeasible;
        a.timeouts += b.timeouts;
        a.diverged += b.diverged;
        a.unexplored += b.unexplored;
        self.runs += r.runs;
        self.solver_calls += r.solver_calls;
        self.solver_seconds += r.solver_seconds;
        self.seconds += r.seconds;
        self.untraced_runs += r.untraced_runs;
        self.desyncs += r.desyncs;
        self.sequences += r.sequences;
        self.dropped_sequences += r.dropped_sequences;
        self.random_runs += r.random_runs;
        self.cut_short |= r.cut_short;
        self.evidence.absorb(&r.evidence);
        self.tests.extend(r.tests);
        self.paths.extend(r.paths);
    }
}

/// How an exploration treats its paths.
#[derive(Clone, Copy)]
pub struct How {
    /// A path taking a decision new to the tree is a test even without new probes.
    pub decisions: bool,
    /// The sequence is dropped after its first run when a prefix call's definitions were
    /// all overwritten before use (seed 002's dynamic check).
    pub prune: bool,
    /// Every new path's sequence is kept in `MethodResult::paths`.
    pub keep_paths: bool,
    /// When the tree is exhausted and a branch of the method is still open, runs from
    /// random inputs until the deadline.
    pub reseed: bool,
}

impl How {
    /// A receiver sequence of Candidate Sequence Search (the first one also keeps paths
    /// with new decisions).
    pub fn sequence(decisions: bool) -> How {
        How {
            decisions,
            prune: true,
            keep_paths: false,
            reseed: true,
        }
    }

    /// A receiver state (`states.rs`): no dynamic check (the prefix is a state already
    /// matched), and every path's sequence kept.
    pub const STATE: How = How {
        decisions: false,
        prune: false,
        keep_paths: true,
        reseed: false,
    };
}

/// The state of one method's exploration.
struct Exploration {
    tree: Tree,
    result: MethodResult,
    /// Probes covered by the runs so far.
    covered: HashSet<u32>,
    /// A path that takes a decision new to the tree is a test even without new probes.
    decisions: bool,
    /// The calls that set the receiver up (statement indices), checked on the first trace.
    prefix_calls: Vec<usize>,
    /// The first run showed a prefix call whose definitions were all overwritten before use.
    dropped: bool,
    /// Statements of the fixed prefix ([`Target::pinned`]).
    pinned: Vec<usize>,
    /// Array statements of the receiver and their lengths (fixed too).
    lengths: Vec<(usize, usize)>,
    /// Every new path's sequence goes to `result.paths` ([`How::STATE`]).
    keep_paths: bool,
}

/// The calls among the receiver statements other than the one making the receiver.
fn prefix_calls(target: &Target) -> Vec<usize> {
    let made = target.receiver_stmt().map(|r| r as usize);
    target
        .receiver
        .iter()
        .enumerate()
        .filter(|&(k, s)| matches!(s, Stmt::Call { .. }) && Some(k) > made)
        .map(|(k, _)| k)
        .collect()
}

/// Seed 002's dynamic check (its Table 4.4): a prefix call each of whose definitions (fields
/// and array elements written) a later call overwrote before any read it does not bear on
/// the method under test; the sequence is dropped (a shorter one without that call is a
/// candidate of its own).
pub fn overwritten_before_use(t: &trace::Trace, prefix_calls: &[usize]) -> bool {
    t.defs
        .iter()
        .any(|&(s, made, killed)| prefix_calls.contains(&s) && made > 0 && killed == made)
}

/// Whether a choice took the jump (for reports).
pub fn describe(c: &Choice) -> String {
    match c {
        Choice::Branch(b) => if *b { "taken" } else { "not taken" }.into(),
        Choice::Case(k) if *k == trace::DEFAULT_CASE => "default".into(),
        Choice::Case(k) => format!("case {k}"),
    }
}
