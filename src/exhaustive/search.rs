//! The BEAPI search: breadth-first rounds to a fixpoint with state matching.
//!
//! Round 1 runs every operation whose inputs are all literals. Each later round combines the
//! sequences kept so far, semi-naively: only combinations in which at least one input comes
//! from the sequences kept in the previous round (every other combination was already run,
//! and execution is deterministic, so it could only rebuild structures already seen). A
//! sequence is kept, once per new structure, when one of its inputs or its result has a
//! canonical form never seen before; kept sequences become usable in the next round only.
//! Batches are built and results applied in a fixed order, so counts do not depend on the
//! number of workers.
//!
//! Prototype reuse (default; `--no-reuse` turns it off): every structure the search keeps
//! stays live, as a prototype, in the worker JVM that built it (worker/jforge/worker/
//! Protos.java). A combination with one structure input is sent to that worker as
//! "deep copy of prototype k, the literal arguments, the call" instead of the whole sequence
//! that built k, so a sequence costs one call whatever its length. Combinations with several
//! structure inputs, and structures a worker lost (restart, full heap), run their full
//! sequence as before. Kept entries record how they were built (operation + inputs), and full
//! sequences are materialized only when needed (tests, failures, re-execution). At the start
//! of each round the frontier is rebalanced across workers by rebuilding a few prototypes in
//! the less loaded ones.

use super::canon::{Form, OUT_OF_SCOPE, kept_bytes, key};
use crate::generate::ops::OpSet;
use crate::model::{JType, Model};
use crate::runner::{
    Bulk, BulkForm, BulkTask, CANON_OP, Contract, ExecMode, ExecRequest, FormValue, Observed, Pool,
    Reuse, SeqResult, StmtOutcome,
};
use crate::sequence::{OpId, SeqRef, Sequence, Stmt, Value};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Where an input of an operation comes from.
#[derive(Clone, Debug)]
pub enum ParamDom {
    /// Literal statements (primitive, boxed, String values of the domain).
    Lits(Vec<Stmt>),
    /// Values of kept sequences whose runtime class is assignable to this type.
    Refs(JType),
}

/// A usable operation with its input domains (receiver first).
#[derive(Clone, Debug)]
pub struct Usable {
    pub op: OpId,
    pub params: Vec<ParamDom>,
    /// Canonicalize the result (a non-literal reference type).
    pub canon_result: bool,
}

/// A kept structure: usable operation `ui` applied to the inputs `choice` builds it as the
/// `which`-th canonicalized value of that sequence (inputs in order, then the result); the
/// full sequence is [`Search::materialize`]d on demand.
#[derive(Clone, Debug)]
pub struct Kept {
    pub ui: u32,
    pub choice: Box<[Choice]>,
    pub which: u8,
    pub class: u32,
    pub round: u32,
    /// The worker holding it as a prototype (prototype id = its index in `kept`).
    pub home: Option<u16>,
}

#[derive(Clone, Debug)]
pub struct Failure {
    pub seq: SeqRef,
    /// Exception class (binary name) or a crash/timeout description.
    pub what: String,
    pub public_class: Option<String>,
    pub message: Option<String>,
    pub occurrences: u64,
    /// A broken contract: which, and the statement of the structure that breaks it.
    pub contract: Option<(Contract, u32)>,
    /// The exception contract a thrown exception breaks (`crate::contracts`, as in `gen`:
    /// `npe-without-null-input`, `assertion-error`, `declared-exception`).
    pub exception_contract: Option<&'static str>,
}

#[derive(Clone, Debug)]
pub struct Counterexample {
    pub kept: usize,
    /// `false`, or the exception the check threw.
    pub result: String,
}

/// One combination that ran normally within scope, recorded when [`Search::log`] is on: the
/// usable operation, its inputs, and the key of every value canonicalized after the call
/// (inputs in order, then the result) with the kept index it got if it was new.
#[derive(Clone, Debug)]
pub struct Applied {
    pub ui: u32,
    pub choice: Box<[Choice]>,
    pub built: Vec<(u128, Option<u32>)>,
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RoundStats {
    pub round: u32,
    pub explored: u64,
    pub new_structures: u64,
    pub seconds: f64,
}

pub struct SearchConfig {
    pub state_matching: bool,
    /// Prototype reuse (see the module documentation).
    pub reuse: bool,
    /// `--error-exceptions` (see `crate::contracts`: every other exception that breaks no
    /// contract is expected behaviour, and the sequence is dropped).
    pub error_exceptions: HashSet<String>,
    pub batch: usize,
    pub max_rounds: Option<u32>,
    pub memory_budget: u64,
    pub dump: bool,
    /// Check op by the erased class name of the static type it applies to.
    pub check_ops: HashMap<String, OpId>,
    /// Check the single-object contracts of `gen` on every structure kept.
    pub contracts: bool,
    /// `--time-limit`: when the search gives up, and the limit as given (for the message).
    pub deadline: Option<(Instant, Duration)>,
}

pub struct Progress {
    pub round: u32,
    pub frontier: usize,
    pub structures: u64,
    pub explored: u64,
    pub elapsed: Duration,
}

/// One input of a combination: a literal of the domain or a kept structure.
#[derive(Clone, Copy, Debug)]
pub enum Choice {
    Lit(u32),
    Ref(u32),
}

pub struct Search<'a> {
    pub model: &'a Model,
    pub ops: &'a OpSet,
    pub usable: Vec<Usable>,
    pub cfg: SearchConfig,
    pub kept: Vec<Kept>,
    pub classes: Vec<Arc<str>>,
    class_ids: HashMap<Arc<str>, u32>,
    assignable: HashMap<(u32, JType), bool>,
    seen: HashSet<u128, KeyHash>,
    /// Distinct structures per runtime class.
    pub structures: BTreeMap<Arc<str>, u64>,
    pub forms: BTreeSet<String>,
    pub failures: Vec<Failure>,
    failure_index: HashMap<(OpId, String), usize>,
    pub counterexamples: Vec<Counterexample>,
    pub explored: u64,
    /// Sequences dropped because they ended in an expected exception.
    pub misuse_dropped: u64,
    /// Expected exceptions by operation and class: how often, and the first message (why a
    /// search that built nothing built nothing).
    pub expected: BTreeMap<(OpId, String), (u64, Option<String>)>,
    pub out_of_scope: u64,
    pub canon_errors: BTreeMap<String, u64>,
    pub rounds: Vec<RoundStats>,
    pub fixpoint: bool,
    /// Warnings given during the search (also printed), for --stats-json.
    pub warnings: Vec<String>,
    /// The memory-growth warning was printed (once per run).
    memory_warned: bool,
    /// `Some`: every combination applied is recorded here (`jforge builders` derives the
    /// structures any subset of the operations builds from these records; it takes them).
    pub log: Option<Vec<Applied>>,
    bytes: u64,
    round: u32,
    batch: Vec<(usize, Vec<Choice>)>,
    /// Batches submitted and not applied yet, oldest first (at most [`PIPELINE`]).
    inflight: std::collections::VecDeque<Vec<Meta>>,
    started: Instant,
    /// Combinations to run again (their prototype was gone), in the current round.
    requeue: Vec<(usize, Vec<Choice>)>,
    /// Kept structures whose contracts were checked: `kept[..contracts_done]`.
    contracts_done: usize,
    /// Promotions waiting for the next request to each worker: (retain, statement, kept).
    promotions: Vec<Vec<(u32, u32, u32)>>,
    /// Highest retain id whose results were applied (candidates up to it can be forgotten).
    applied_retain: u32,
    next_retain: u32,
    round_robin: usize,
    restarts_seen: Vec<u64>,
    cache: RefCell<HashMap<u32, (SeqRef, u32)>>,
    /// Sequences that ran from a prototype copy / from scratch / rebuilt a prototype.
    pub from_prototype: u64,
    pub from_scratch: u64,
    pub rebuilt: u64,
    /// Why prototype reuse was switched off during the run, if it was.
    pub reuse_disabled: Option<String>,
    /// Every literal of every domain, and where each (usable, parameter) domain starts in it
    /// (bulk requests refer to literals by index).
    lit_table: Vec<Stmt>,
    lit_base: Vec<Vec<u32>>,
}

/// Hasher of the state-matching set: its keys are already 128-bit hashes of the canonical
/// forms (uniformly distributed), so their low 64 bits are used as they are instead of being
/// hashed again with SipHash (which cost ~6% of the search's own time).
#[derive(Clone, Copy, Default)]
pub struct KeyHash;

impl std::hash::BuildHasher for KeyHash {
    type Hasher = KeyHasher;
    fn build_hasher(&self) -> KeyHasher {
        KeyHasher(0)
    }
}

#[derive(Clone, Copy, Default)]
pub struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // not used by u128 keys; a plain FNV-1a so any other key still hashes correctly
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u128(&mut self, k: u128) {
        self.0 = k as u64 ^ (k >> 64) as u64;
    }
}

/// Batches in flight at once: while the search applies one and builds the next, each worker
/// already runs its share of the following one (a worker that finishes a batch early does not
/// wait for the other). Results are still applied in submission order.
const PIPELINE: usize = 2;

/// What was sent for one request, to interpret its result.
struct Meta {
    ui: usize,
    choice: Box<[Choice]>,
    /// Statement of each canonicalized value, in `Kept::which` order.
    canon: Vec<u32>,
    requested: usize,
    len: usize,
    /// Statements that were prototype copies.
    protos: Vec<u32>,
    worker: usize,
    retain: u32,
    /// A rebuild of this kept entry's prototype (not a combination of the search).
    rebuild: Option<u32>,
    seq: SeqRef,
    /// Index of its request in the batch, and its task there for a bulk request.
    req: usize,
    task: Option<u32>,
    /// Position of the combination in its batch (results are applied in this order).
    order: u32,
}

/// What the observers of a combination that ran normally returned, by statement.
struct Observations {
    forms: Vec<(u32, Form)>,
    /// The --check results other than `true`.
    checks: HashMap<u32, String>,
}

/// The requests of the batch [`Search::flush`] sends, and what was sent for each.
struct Outgoing {
    workers: usize,
    /// Requests, with the worker each goes to.
    reqs: Vec<(ExecRequest, usize)>,
    /// Metas of the combinations sent as requests of their own, in batch order.
    metas: Vec<Meta>,
    /// Index in `reqs` of the first request to each worker (`usize::MAX`: none yet).
    first_for: Vec<usize>,
    /// Bulk requests, one per worker: (tasks, metas of its tasks).
    bulks: Vec<(Vec<BulkTask>, Vec<Meta>)>,
    /// Bulk tasks carry no sequence of their own: one shared empty one.
    empty: SeqRef,
}

impl<'a> Search<'a> {
    pub fn new(model: &'a Model, ops: &'a OpSet, usable: Vec<Usable>, cfg: SearchConfig) -> Self {
        let mut lit_table = Vec::new();
        let lit_base = usable
            .iter()
            .map(|u| {
                u.params
                    .iter()
                    .map(|p| {
                        let base = lit_table.len() as u32;
                        if let ParamDom::Lits(l) = p {
                            lit_table.extend(l.iter().cloned());
                        }
                        base
                    })
                    .collect()
            })
            .collect();
        Search {
            lit_table,
            lit_base,
            model,
            ops,
            usable,
            cfg,
            kept: Vec::new(),
            classes: Vec::new(),
            class_ids: HashMap::new(),
            assignable: HashMap::new(),
            seen: HashSet::default(),
            structures: BTreeMap::new(),
            forms: BTreeSet::new(),
            failures: Vec::new(),
            failure_index: HashMap::new(),
            counterexamples: Vec::new(),
            explored: 0,
            misuse_dropped: 0,
            expected: BTreeMap::new(),
            out_of_scope: 0,
            canon_errors: BTreeMap::new(),
            rounds: Vec::new(),
            fixpoint: false,
            warnings: Vec::new(),
            memory_warned: false,
            log: None,
            bytes: 0,
            round: 0,
            batch: Vec::new(),
            inflight: Default::default(),
            started: Instant::now(),
            requeue: Vec::new(),
            contracts_done: 0,
            promotions: Vec::new(),
            applied_retain: 0,
            next_retain: 0,
            round_robin: 0,
            restarts_seen: Vec::new(),
            cache: RefCell::new(HashMap::new()),
            from_prototype: 0,
            from_scratch: 0,
            rebuilt: 0,
            reuse_disabled: None,
        }
    }

    /// The full sequence that builds kept entry `k`, and the statement of the structure.
    pub fn materialize(&self, k: usize) -> (SeqRef, u32) {
        if let Some(x) = self.cache.borrow().get(&(k as u32)) {
            return x.clone();
        }
        let kp = &self.kept[k];
        let (seq, canon) = self.build(kp.ui as usize, &kp.choice);
        let v = canon[kp.which as usize];
        let out = (SeqRef::new(seq), v);
        let mut c = self.cache.borrow_mut();
        if c.len() > 200_000 {
            c.clear();
        }
        c.insert(k as u32, out.clone());
        out
    }

    /// The canonical-form keys of every distinct structure seen (any class), for comparing
    /// the structures of two searches.
    pub fn keys(&self) -> impl Iterator<Item = u128> + '_ {
        self.seen.iter().copied()
    }

    /// Distinct structures of the given classes (runtime class names).
    pub fn structures_of(&self, classes: &[String]) -> u64 {
        self.structures
            .iter()
            .filter(|(c, _)| classes.iter().any(|x| x.as_str() == c.as_ref()))
            .map(|(_, n)| n)
            .sum()
    }

    fn class_id(&mut self, c: &Arc<str>) -> u32 {
        if let Some(&id) = self.class_ids.get(c) {
            return id;
        }
        let id = self.classes.len() as u32;
        self.classes.push(c.clone());
        self.class_ids.insert(c.clone(), id);
        id
    }

    /// Whether structures of class `class` (an index into [`Search::classes`]) can be passed
    /// where `ty` is expected.
    pub fn fits(&mut self, class: u32, ty: &JType) -> bool {
        if let Some(&b) = self.assignable.get(&(class, ty.clone())) {
            return b;
        }
        let name = self.classes[class as usize].clone();
        let erased = ty.erasure();
        let b = erased.class_name() == Some(&*name)
            || erased.class_name() == Some("java.lang.Object")
            || self.model.is_subtype(&JType::class(&name), &erased);
        self.assignable.insert((class, ty.clone()), b);
        b
    }

    /// Runs rounds until a fixpoint (or --max-rounds).
    pub fn run(&mut self, pool: &mut Pool, tick: &mut dyn FnMut(&Progress)) -> anyhow::Result<()> {
        self.started = Instant::now();
        self.promotions = vec![Vec::new(); pool.workers()];
        self.restarts_seen = pool.slot_restarts().to_vec();
        let mut old_end = 0usize;
        let mut new_end = 0usize;
        loop {
            self.round += 1;
            let round_start = Instant::now();
            let explored_before = self.explored;
            let structures_before = self.seen.len() as u64;
            self.check_memory(old_end, new_end)?;
            self.cache.borrow_mut().clear();
            let frontier: Vec<usize> = (old_end..new_end).collect();
            self.rebalance(pool, &frontier)?;
            self.check_contracts(pool, new_end)?;
            for ui in 0..self.usable.len() {
                self.run_operation(pool, ui, old_end, new_end, tick)?;
            }
            self.drain(pool)?;
            let new_structures = self.seen.len() as u64 - structures_before;
            self.rounds.push(RoundStats {
                round: self.round,
                explored: self.explored - explored_before,
                new_structures,
                seconds: round_start.elapsed().as_secs_f64(),
            });
            old_end = new_end;
            new_end = self.kept.len();
            tick(&Progress {
                round: self.round,
                frontier: new_end - old_end,
                structures: self.seen.len() as u64,
                explored: self.explored,
                elapsed: self.started.elapsed(),
            });
            if new_end == old_end {
                self.fixpoint = true;
                return Ok(());
            }
            self.warn_if_endless();
            if self.cfg.max_rounds.is_some_and(|m| self.round >= m) {
                // the last round's structures were not checked yet
                self.check_contracts(pool, new_end)?;
                return Ok(());
            }
        }
    }

    /// This round's combinations of usable operation `ui`, batched: in round 1 every one of
    /// an operation whose inputs are all literals; later, semi-naively, those with at least
    /// one input among the last round's kept structures (`old_end..new_end`).
    fn run_operation(
        &mut self,
        pool: &mut Pool,
        ui: usize,
        old_end: usize,
        new_end: usize,
        tick: &mut dyn FnMut(&Progress),
    ) -> anyhow::Result<()> {
        let params = self.usable[ui].params.clone();
        let doms = self.input_domains(&params, old_end, new_end);
        let all_lits = params.iter().all(|p| matches!(p, ParamDom::Lits(_)));
        if self.round == 1 {
            if all_lits {
                let full: Vec<Vec<Choice>> = doms.iter().map(|d| d.0.clone()).collect();
                self.product(pool, ui, &full, &mut Vec::new(), tick)?;
            }
            return Ok(());
        }
        for j in 0..doms.len() {
            if doms[j].1.is_empty() {
                continue;
            }
            let lists: Vec<Vec<Choice>> = doms
                .iter()
                .enumerate()
                .map(|(i, d)| {
                    if i < j {
                        d.0.clone()
                    } else if i == j {
                        d.1.clone()
                    } else {
                        d.0.iter().chain(&d.1).copied().collect()
                    }
                })
                .collect();
            self.product(pool, ui, &lists, &mut Vec::new(), tick)?;
        }
        Ok(())
    }

    /// Per input of an operation with these parameters: (old choices, new choices). Literals
    /// are all old; structures are the kept ones that fit, new if kept in the last round
    /// (`old_end..new_end`).
    fn input_domains(
        &mut self,
        params: &[ParamDom],
        old_end: usize,
        new_end: usize,
    ) -> Vec<(Vec<Choice>, Vec<Choice>)> {
        let mut doms: Vec<(Vec<Choice>, Vec<Choice>)> = Vec::with_capacity(params.len());
        for p in params {
            match p {
                ParamDom::Lits(l) => {
                    doms.push(((0..l.len() as u32).map(Choice::Lit).collect(), vec![]))
                }
                ParamDom::Refs(ty) => {
                    let mut old = Vec::new();
                    let mut new = Vec::new();
                    for k in 0..new_end {
                        if self.fits(self.kept[k].class, ty) {
                            if k < old_end {
                                old.push(Choice::Ref(k as u32));
                            } else {
                                new.push(Choice::Ref(k as u32));
                            }
                        }
                    }
                    // A fixed pseudo-random order (not the kept order): consecutive
                    // kept structures come from the same parent and live in the same
                    // worker, so batches in kept order would keep one worker busy at a
                    // time. The order does not depend on the number of workers.
                    old.sort_by_key(scatter);
                    new.sort_by_key(scatter);
                    doms.push((old, new))
                }
            }
        }
        doms
    }

    /// Before a round: refuses it when even a round that only repeats the frontier's size
    /// would exceed the memory budget (an estimate, up front); warns when the growth of the
    /// last rounds extrapolates past it. Growth is not a bound: rounds whose structures are
    /// at the scope mostly go out of scope (a list at scope 8 keeps growing x8 per round
    /// until the last one adds nothing), so a growth-based refusal would turn down runs that
    /// fit. During the round, [`Search::check_budget`] stops the search as soon as the kept
    /// structures really pass the budget: it never ends in an out-of-memory crash.
    fn check_memory(&mut self, old_end: usize, new_end: usize) -> anyhow::Result<()> {
        let frontier = (new_end - old_end) as u64;
        let prev = self
            .rounds
            .len()
            .checked_sub(2)
            .map(|i| self.rounds[i].new_structures.max(1))
            .unwrap_or(1);
        let growth = (frontier as f64 / prev as f64).max(1.0);
        let avg = if self.kept.is_empty() {
            kept_bytes(4)
        } else {
            self.bytes / self.kept.len() as u64
        };
        let at_least = self.bytes + frontier * avg;
        if at_least > self.cfg.memory_budget {
            return Err(crate::exit::budget(anyhow::anyhow!(
                "scope too large for memory: round {} would hold at least {} kept structures \
                 (~{} MiB, budget {} MiB); lower --scope or the domains, or raise --max-memory",
                self.round,
                self.kept.len() as u64 + frontier,
                at_least >> 20,
                self.cfg.memory_budget >> 20
            )));
        }
        let predicted = self.bytes + (frontier as f64 * growth * avg as f64 * 1.2) as u64;
        if predicted > self.cfg.memory_budget {
            let w = format!(
                "round {} may hold up to {} kept structures (~{} MiB, budget {} MiB) \
                 if it grows like the last one; the search stops if the budget is reached",
                self.round,
                self.kept.len() as u64 + (frontier as f64 * growth) as u64,
                predicted >> 20,
                self.cfg.memory_budget >> 20
            );
            // once per run: the later rounds' warnings have the same cause
            if !self.memory_warned {
                eprintln!("warning: {w}");
                self.memory_warned = true;
            }
        }
        Ok(())
    }

    /// Warns (once) when the search looks endless: after six rounds or more, the last three
    /// found the same number of new structures. That is the mark of a field that changes on
    /// every call, a counter such as modCount: every sequence then builds a structure never
    /// seen, and no fixpoint comes. A healthy search slows down instead, as its structures
    /// reach the scope and their extensions go out of it.
    fn warn_if_endless(&mut self) {
        let n = self.rounds.len();
        if !self.warnings.is_empty() || n < 6 {
            return;
        }
        let last = &self.rounds[n - 3..];
        let k = last[0].new_structures;
        if k > 0 && last.iter().all(|r| r.new_structures == k) {
            let w = format!(
                "rounds {}-{} each found {} new structures: the search may never reach a \
                 fixpoint. A field that changes on every call (a counter such as modCount) \
                 makes every sequence new; leave it out with --omit-fields NAME, or bound \
                 the search with --max-rounds",
                last[0].round, last[2].round, k
            );
            eprintln!("warning: {w}");
            self.warnings.push(w);
        }
    }

    /// Stops the search when the kept structures pass the memory budget, or the time limit.
    fn check_budget(&self) -> anyhow::Result<()> {
        if let Some((at, limit)) = self.cfg.deadline
            && Instant::now() >= at
        {
            return Err(crate::exit::budget(anyhow::anyhow!(
                "time limit of {limit:?} reached in round {} with {} structures and no fixpoint: \
                 the result would not be exhaustive, so nothing was written; lower --scope or \
                 the domains, or raise --time-limit",
                self.round,
                self.seen.len()
            )));
        }
        if self.bytes > self.cfg.memory_budget {
            return Err(crate::exit::budget(anyhow::anyhow!(
                "scope too large for memory: round {} reached the budget of {} MiB with {} \
                 structures kept; lower --scope or the domains, or raise --max-memory",
                self.round,
                self.cfg.memory_budget >> 20,
                self.kept.len()
            )));
        }
        Ok(())
    }

    fn product(
        &mut self,
        pool: &mut Pool,
        ui: usize,
        lists: &[Vec<Choice>],
        cur: &mut Vec<Choice>,
        tick: &mut dyn FnMut(&Progress),
    ) -> anyhow::Result<()> {
        if cur.len() == lists.len() {
            self.batch.push((ui, cur.clone()));
            if self.batch.len() >= self.cfg.batch {
                self.flush(pool)?;
                self.check_budget()?;
                tick(&Progress {
                    round: self.round,
                    frontier: 0,
                    structures: self.seen.len() as u64,
                    explored: self.explored,
                    elapsed: self.started.elapsed(),
                });
            }
            return Ok(());
        }
        let i = cur.len();
        for c in lists[i].iter() {
            cur.push(*c);
            self.product(pool, ui, lists, cur, tick)?;
            cur.pop();
        }
        Ok(())
    }

    /// Builds the sequence for a combination; returns it with the statements to canonicalize.
    fn build(&self, ui: usize, choice: &[Choice]) -> (Sequence, Vec<u32>) {
        let u = &self.usable[ui];
        let mut seq = Sequence::default();
        let mut args = Vec::with_capacity(choice.len());
        let mut canon = Vec::new();
        for (p, c) in u.params.iter().zip(choice) {
            match (p, c) {
                (ParamDom::Lits(l), Choice::Lit(i)) => {
                    seq.stmts.push(l[*i as usize].clone());
                    args.push(seq.stmts.len() as u32 - 1);
                }
                (_, Choice::Ref(k)) => {
                    let (ks, kv) = self.materialize(*k as usize);
                    let off = seq.append(&ks);
                    args.push(off + kv);
                    canon.push(off + kv);
                }
                _ => unreachable!("choice does not match its domain"),
            }
        }
        seq.stmts.push(Stmt::Call { op: u.op, args });
        if u.canon_result {
            canon.push(seq.stmts.len() as u32 - 1);
        }
        (seq, canon)
    }

    /// The short form of a combination whose one structure input is prototype `k`: a
    /// placeholder statement (sent as "copy of prototype k"), the literals, the call.
    /// Returns the sequence, the canonicalized statements and the placeholder statements.
    fn build_short(&self, ui: usize, choice: &[Choice]) -> (Sequence, Vec<u32>, Vec<(u32, u32)>) {
        let u = &self.usable[ui];
        let mut seq = Sequence::default();
        let mut args = Vec::with_capacity(choice.len());
        let mut canon = Vec::new();
        let mut protos = Vec::new();
        for (p, c) in u.params.iter().zip(choice) {
            match (p, c) {
                (ParamDom::Lits(l), Choice::Lit(i)) => seq.stmts.push(l[*i as usize].clone()),
                (ParamDom::Refs(ty), Choice::Ref(k)) => {
                    let at = seq.stmts.len() as u32;
                    seq.stmts.push(Stmt::Lit {
                        ty: ty.clone(),
                        value: Value::Null,
                    });
                    canon.push(at);
                    protos.push((at, *k));
                }
                _ => unreachable!("choice does not match its domain"),
            }
            args.push(seq.stmts.len() as u32 - 1);
        }
        seq.stmts.push(Stmt::Call { op: u.op, args });
        if u.canon_result {
            canon.push(seq.stmts.len() as u32 - 1);
        }
        (seq, canon, protos)
    }

    /// At the start of a round: gives prototypes back to the frontier entries whose worker
    /// lost them, and moves some from the most loaded workers to the least loaded ones so
    /// that each worker extends about the same number of structures. A move re-executes the
    /// structure's sequence in the new worker and keeps the value there. `frontier`: the kept
    /// entries about to be extended, increasing.
    fn rebalance(&mut self, pool: &mut Pool, frontier: &[usize]) -> anyhow::Result<()> {
        let w = pool.workers();
        if !self.cfg.reuse || frontier.is_empty() {
            return Ok(());
        }
        let mut load = vec![0usize; w];
        let mut lost = Vec::new();
        for &k in frontier {
            match self.kept[k].home {
                Some(h) => load[h as usize % w] += 1,
                None => lost.push(k),
            }
        }
        let target = frontier.len().div_ceil(w);
        let slack = target / 10 + 1;
        let mut moves: Vec<(usize, usize)> = Vec::new();
        let least = |load: &mut Vec<usize>| {
            let v = (0..w).min_by_key(|&i| load[i]).unwrap_or(0);
            load[v] += 1;
            v
        };
        for k in lost {
            let v = least(&mut load);
            moves.push((k, v));
        }
        if w > 1 {
            for &k in frontier.iter().rev() {
                let Some(h) = self.kept[k].home.map(|h| h as usize % w) else {
                    continue;
                };
                if load[h] > target + slack {
                    load[h] -= 1;
                    let v = least(&mut load);
                    moves.push((k, v));
                }
            }
        }
        if moves.is_empty() {
            return Ok(());
        }
        moves.sort_unstable();
        let mut reqs = Vec::with_capacity(moves.len());
        let mut metas = Vec::with_capacity(moves.len());
        for (k, v) in moves {
            let (seq, value) = self.materialize(k);
            self.next_retain += 1;
            let retain = self.next_retain;
            let meta = Meta {
                ui: self.kept[k].ui as usize,
                choice: self.kept[k].choice.clone(),
                canon: vec![value],
                requested: 1,
                len: seq.len(),
                protos: Vec::new(),
                worker: v,
                retain,
                rebuild: Some(k as u32),
                seq: seq.clone(),
                req: reqs.len(),
                task: None,
                order: 0,
            };
            let mut req = ExecRequest {
                seq,
                mode: ExecMode::Canon,
                contract_values: Vec::new(),
                observers: vec![(value, CANON_OP)],
                reuse: Some(Box::new(Reuse {
                    retain,
                    ..Reuse::default()
                })),
            };
            self.attach_promotions(&mut req, v);
            reqs.push((req, v));
            metas.push(meta);
        }
        pool.submit_routed(reqs)?;
        let results = pool.collect()?;
        self.note_restarts(pool);
        self.apply_all(metas, results);
        Ok(())
    }

    /// The single-object contracts of `gen` (equals reflexive and false for null, hashCode
    /// and toString do not throw, compareTo reflexive) on every kept structure not checked
    /// yet, up to `to`: on a copy of its prototype in the worker that holds it, else by
    /// re-running its sequence. A contract depends on the structure only, so checking each
    /// distinct structure once checks every sequence explored. Violations become failures,
    /// the first structure (in kept order) per contract and detail.
    fn check_contracts(&mut self, pool: &mut Pool, to: usize) -> anyhow::Result<()> {
        let from = self.contracts_done;
        if !self.cfg.contracts || from >= to {
            self.contracts_done = self.contracts_done.max(to);
            return Ok(());
        }
        let step = self.cfg.batch.max(1) * 4;
        let mut start = from;
        while start < to {
            let end = (start + step).min(to);
            self.check_contracts_of(pool, start, end)?;
            start = end;
        }
        self.contracts_done = to;
        Ok(())
    }

    /// The contracts of one chunk of kept structures, `start..end`: on prototype copies where
    /// the workers hold them, the rest re-run; violations recorded in kept order.
    fn check_contracts_of(
        &mut self,
        pool: &mut Pool,
        start: usize,
        end: usize,
    ) -> anyhow::Result<()> {
        let workers = pool.workers();
        // (kept, violation) found in this chunk; sequences to run for the rest
        let mut found: Vec<(usize, Option<Contract>, String)> = Vec::new();
        let mut rerun: Vec<usize> = Vec::new();
        let mut bulks: Vec<Vec<usize>> = vec![Vec::new(); workers];
        for k in start..end {
            match self.kept[k].home {
                Some(h) if self.cfg.reuse => bulks[h as usize % workers].push(k),
                _ => rerun.push(k),
            }
        }
        self.check_contracts_on_prototypes(pool, bulks, &mut rerun, &mut found)?;
        self.check_contracts_by_rerun(pool, &mut rerun, &mut found)?;
        found.sort_by_key(|f| f.0);
        for (k, c, detail) in found {
            self.record_violation(k, c, detail);
        }
        Ok(())
    }

    /// Contracts on prototype copies: one bulk request per worker for the kept structures it
    /// holds (`bulks[w]`). Violations go to `found`; structures whose check did not run
    /// normally (prototype gone with a restart, or the check crashed) go to `rerun`.
    fn check_contracts_on_prototypes(
        &mut self,
        pool: &mut Pool,
        bulks: Vec<Vec<usize>>,
        rerun: &mut Vec<usize>,
        found: &mut Vec<(usize, Option<Contract>, String)>,
    ) -> anyhow::Result<()> {
        let mut reqs = Vec::new();
        let mut owners = Vec::new();
        for (w, ks) in bulks.into_iter().enumerate() {
            if ks.is_empty() {
                continue;
            }
            let tasks = ks
                .iter()
                .map(|&k| BulkTask {
                    proto: k as u32,
                    op: CANON_OP,
                    pos: 0,
                    lits: Vec::new(),
                    canon_result: false,
                })
                .collect::<Vec<_>>();
            let mut req = bulk_request(tasks, Vec::new(), 0);
            self.attach_promotions(&mut req, w);
            reqs.push((req, w));
            owners.push(ks);
        }
        if reqs.is_empty() {
            return Ok(());
        }
        pool.submit_routed(reqs)?;
        let results = pool.collect()?;
        self.note_restarts(pool);
        for (ks, r) in owners.iter().zip(&results) {
            for (t, &k) in ks.iter().enumerate() {
                match r.outcomes.get(t) {
                    Some(StmtOutcome::Normal(_)) => {}
                    // prototype gone (restart), or the check itself crashed: re-run
                    _ => rerun.push(k),
                }
            }
            for f in &r.forms {
                if let (FormValue::Violation(c, d), Some(&k)) = (&f.form, ks.get(f.task as usize)) {
                    found.push((k, Some(*c), d.clone()));
                }
            }
        }
        Ok(())
    }

    /// Contracts by re-running the sequences of the kept structures `rerun` (sorted first);
    /// violations, and crashes of the worker, go to `found`.
    fn check_contracts_by_rerun(
        &mut self,
        pool: &mut Pool,
        rerun: &mut [usize],
        found: &mut Vec<(usize, Option<Contract>, String)>,
    ) -> anyhow::Result<()> {
        if rerun.is_empty() {
            return Ok(());
        }
        rerun.sort_unstable();
        let reqs: Vec<ExecRequest> = rerun
            .iter()
            .map(|&k| {
                let (seq, v) = self.materialize(k);
                ExecRequest {
                    seq,
                    mode: ExecMode::Generate,
                    contract_values: vec![v],
                    observers: Vec::new(),
                    reuse: None,
                }
            })
            .collect();
        let results = pool.execute(reqs)?;
        self.note_restarts(pool);
        for (&k, r) in rerun.iter().zip(&results) {
            let v = self.materialize(k).1;
            if let Some(i) = r.first_abnormal() {
                if let StmtOutcome::Crash(c) = &r.outcomes[i] {
                    found.push((k, None, format!("crash: {c}")));
                }
                continue;
            }
            for x in r.violations.iter().filter(|x| x.a == v && x.b.is_none()) {
                found.push((k, Some(x.contract), x.detail.clone()));
            }
        }
        Ok(())
    }

    /// A broken contract (`None`: the check itself crashed the worker) of kept structure `k`.
    fn record_violation(&mut self, k: usize, c: Option<Contract>, detail: String) {
        let what = match c {
            Some(c) => format!("contract {}: {detail}", c.name()),
            None => format!("contract check: {detail}"),
        };
        let key = (CANON_OP, what.clone());
        if let Some(&i) = self.failure_index.get(&key) {
            self.failures[i].occurrences += 1;
            return;
        }
        self.failure_index.insert(key, self.failures.len());
        let (seq, v) = self.materialize(k);
        self.failures.push(Failure {
            seq,
            what,
            public_class: None,
            message: None,
            occurrences: 1,
            contract: c.map(|c| (c, v)),
            exception_contract: None,
        });
    }

    /// Promotions waiting for worker `w` go with its next request.
    fn attach_promotions(&mut self, req: &mut ExecRequest, w: usize) {
        let Some(x) = req.reuse.as_mut() else { return };
        if let Some(p) = self.promotions.get_mut(w)
            && (!p.is_empty() || self.applied_retain > 0)
        {
            x.promote = std::mem::take(p);
            x.forget_upto = self.applied_retain;
        }
    }

    /// A restarted worker lost its prototypes and candidates.
    fn note_restarts(&mut self, pool: &Pool) {
        let now = pool.slot_restarts();
        for (w, (&a, b)) in now.iter().zip(self.restarts_seen.iter_mut()).enumerate() {
            if a != *b {
                *b = a;
                if let Some(p) = self.promotions.get_mut(w) {
                    p.clear();
                }
                for k in self.kept.iter_mut() {
                    if k.home == Some(w as u16) {
                        k.home = None;
                    }
                }
            }
        }
    }

    /// Static type of the value at `stmt` (for the check op).
    fn check_op_for(&self, seq: &Sequence, stmt: u32) -> Option<OpId> {
        if self.cfg.check_ops.is_empty() {
            return None;
        }
        let ty = seq.out_type(&self.ops.table, stmt as usize)?;
        let name = ty.erasure().class_name()?.to_string();
        self.cfg.check_ops.get(&name).copied()
    }

    /// Sends the pending batch to the workers. Pipelined: the batch before it (if any) is
    /// collected first, the new one submitted, and only then are the earlier results applied,
    /// so that Rust-side work overlaps the workers'. Results are applied in batch order.
    pub fn flush(&mut self, pool: &mut Pool) -> anyhow::Result<()> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.batch);
        let workers = pool.workers();
        let mut out = Outgoing {
            workers,
            reqs: Vec::with_capacity(batch.len()),
            metas: Vec::with_capacity(batch.len()),
            first_for: vec![usize::MAX; workers],
            bulks: (0..workers).map(|_| (Vec::new(), Vec::new())).collect(),
            empty: Arc::new(Sequence::default()),
        };
        let bulk_ok = self.cfg.reuse && self.cfg.check_ops.is_empty();
        for (order, (ui, choice)) in batch.into_iter().enumerate() {
            let order = order as u32;
            let mut refs = choice.iter().filter_map(|c| match c {
                Choice::Ref(k) => Some(*k),
                Choice::Lit(_) => None,
            });
            let first = refs.next();
            let single = first.is_some() && refs.next().is_none();
            let home = first.and_then(|k| self.kept[k as usize].home);
            if let (true, true, Some(h), Some(k)) = (bulk_ok, single, home, first) {
                self.add_bulk_task(&mut out, order, ui, choice, k, h as usize % workers);
                continue;
            }
            self.add_request(&mut out, order, ui, choice, home, single);
        }
        let Outgoing {
            mut reqs,
            mut metas,
            mut first_for,
            bulks,
            ..
        } = out;
        let bulk_metas = self.add_bulk_requests(bulks, &mut reqs, &mut first_for);
        in_batch_order(&mut metas, bulk_metas);
        self.promote_with_first_requests(&mut reqs, &first_for);
        pool.submit_routed(reqs)?;
        self.inflight.push_back(metas);
        while self.inflight.len() > PIPELINE {
            self.apply_oldest(pool)?;
        }
        Ok(())
    }

    /// A combination whose one structure input is prototype `proto`, held by worker `w`:
    /// a task of that worker's bulk request (the copy's position, the literals by index).
    fn add_bulk_task(
        &mut self,
        out: &mut Outgoing,
        order: u32,
        ui: usize,
        choice: Vec<Choice>,
        proto: u32,
        w: usize,
    ) {
        let u = &self.usable[ui];
        let mut pos = 0u8;
        let mut lits = Vec::with_capacity(choice.len());
        for (j, c) in choice.iter().enumerate() {
            match c {
                Choice::Ref(_) => pos = j as u8,
                Choice::Lit(i) => lits.push(self.lit_base[ui][j] + i),
            }
        }
        let n = choice.len();
        let (tasks, metas) = &mut out.bulks[w];
        tasks.push(BulkTask {
            proto,
            op: u.op,
            pos,
            lits,
            canon_result: u.canon_result,
        });
        let mut canon = vec![pos as u32];
        if u.canon_result {
            canon.push(n as u32);
        }
        let task = Some(tasks.len() as u32 - 1);
        metas.push(Meta {
            ui,
            choice: choice.into_boxed_slice(),
            canon,
            requested: 0,
            len: n + 1,
            protos: vec![pos as u32],
            worker: w,
            retain: 0,
            rebuild: None,
            seq: out.empty.clone(),
            req: 0,
            task,
            order,
        });
        self.from_prototype += 1;
    }

    /// A combination sent as a request of its own: its short form when its one structure
    /// input has a home (prototype reuse), else its whole sequence, to the worker holding its
    /// structure input if any (round-robin otherwise).
    fn add_request(
        &mut self,
        out: &mut Outgoing,
        order: u32,
        ui: usize,
        choice: Vec<Choice>,
        home: Option<u16>,
        single: bool,
    ) {
        let workers = out.workers;
        let (seq, canon, protos, worker) = match home {
            Some(h) if self.cfg.reuse && single => {
                let (seq, canon, protos) = self.build_short(ui, &choice);
                self.from_prototype += 1;
                (seq, canon, protos, h as usize % workers)
            }
            _ => {
                let (seq, canon) = self.build(ui, &choice);
                self.from_scratch += 1;
                let w = match home {
                    Some(h) => h as usize % workers,
                    None => {
                        self.round_robin += 1;
                        self.round_robin % workers
                    }
                };
                (seq, canon, Vec::new(), w)
            }
        };
        let mut observers = Vec::with_capacity(canon.len() * 2);
        for &s in &canon {
            observers.push((s, CANON_OP));
            if let Some(c) = self.check_op_for(&seq, s) {
                observers.push((s, c));
            }
        }
        let retain = if self.cfg.reuse {
            self.next_retain += 1;
            self.next_retain
        } else {
            0
        };
        let seq = Arc::new(seq);
        out.metas.push(Meta {
            ui,
            choice: choice.into_boxed_slice(),
            canon,
            requested: observers.len(),
            len: seq.len(),
            protos: protos.iter().map(|p| p.0).collect(),
            worker,
            retain,
            rebuild: None,
            seq: seq.clone(),
            req: out.reqs.len(),
            task: None,
            order,
        });
        if out.first_for[worker] == usize::MAX {
            out.first_for[worker] = out.reqs.len();
        }
        out.reqs.push((
            ExecRequest {
                seq,
                mode: ExecMode::Canon,
                contract_values: Vec::new(),
                observers,
                reuse: self.cfg.reuse.then(|| {
                    Box::new(Reuse {
                        protos,
                        retain,
                        ..Reuse::default()
                    })
                }),
            },
            worker,
        ));
    }

    /// Appends the bulk requests (one per worker with tasks) after the others: the first
    /// request to each worker carries its promotions. Gives their tasks consecutive retain
    /// ids; returns the tasks' metas.
    fn add_bulk_requests(
        &mut self,
        bulks: Vec<(Vec<BulkTask>, Vec<Meta>)>,
        reqs: &mut Vec<(ExecRequest, usize)>,
        first_for: &mut [usize],
    ) -> Vec<Meta> {
        let mut bulk_metas = Vec::new();
        for (w, (tasks, mut ms)) in bulks.into_iter().enumerate() {
            if tasks.is_empty() {
                continue;
            }
            let base = self.next_retain + 1;
            self.next_retain += tasks.len() as u32;
            let req = reqs.len();
            for (t, m) in ms.iter_mut().enumerate() {
                m.retain = base + t as u32;
                m.req = req;
            }
            bulk_metas.extend(ms);
            if first_for[w] == usize::MAX {
                first_for[w] = req;
            }
            reqs.push((bulk_request(tasks, self.lit_table.clone(), base), w));
        }
        bulk_metas
    }

    /// Promotions decided by the batches applied so far go with the first request to each
    /// worker; batches still in flight are applied after this one is submitted, so their
    /// promotions wait for a later batch (no request of this one can need them: structures
    /// kept in a round are used from the next round on).
    fn promote_with_first_requests(
        &mut self,
        reqs: &mut [(ExecRequest, usize)],
        first_for: &[usize],
    ) {
        for (w, &i) in first_for.iter().enumerate() {
            if i != usize::MAX {
                let mut r = reqs[i].0.reuse.take();
                if let Some(x) = r.as_mut() {
                    if let Some(p) = self.promotions.get_mut(w) {
                        x.promote = std::mem::take(p);
                    }
                    x.forget_upto = self.applied_retain;
                }
                reqs[i].0.reuse = r;
            }
        }
    }

    /// Waits for the oldest batch in flight and applies its results.
    fn apply_oldest(&mut self, pool: &mut Pool) -> anyhow::Result<()> {
        if let Some(m) = self.inflight.pop_front() {
            let results = pool.collect()?;
            self.note_restarts(pool);
            self.apply_all(m, results);
        }
        Ok(())
    }

    /// Runs the given combinations (usable index, inputs) and applies their results as a round
    /// does (new structures are kept and stay live as prototypes, failures are recorded), for
    /// drivers that choose the combinations themselves instead of [`Search::run`]'s
    /// breadth-first rounds: `jforge builders` explores what its candidate sets need.
    /// `inputs`: the kept structures the combinations extend (increasing), rebalanced across
    /// the workers first. Each call counts as a round (`Kept::round`: the structures of the
    /// last call are where `growth` follows chains back from), and the time and memory
    /// limits are checked after every batch and at the end.
    pub fn explore(
        &mut self,
        pool: &mut Pool,
        inputs: &[usize],
        combos: impl IntoIterator<Item = (usize, Vec<Choice>)>,
    ) -> anyhow::Result<()> {
        self.round += 1;
        if self.promotions.len() != pool.workers() {
            self.promotions = vec![Vec::new(); pool.workers()];
            self.restarts_seen = pool.slot_restarts().to_vec();
        }
        self.rebalance(pool, inputs)?;
        for c in combos {
            self.batch.push(c);
            if self.batch.len() >= self.cfg.batch {
                self.flush(pool)?;
                self.check_budget()?;
            }
        }
        self.drain(pool)?;
        self.check_budget()
    }

    /// Waits for the batch in flight and applies its results; runs again what had to be
    /// re-queued, until nothing is left.
    pub fn drain(&mut self, pool: &mut Pool) -> anyhow::Result<()> {
        loop {
            self.flush(pool)?;
            while !self.inflight.is_empty() {
                self.apply_oldest(pool)?;
            }
            if self.requeue.is_empty() {
                return Ok(());
            }
            self.batch = std::mem::take(&mut self.requeue);
        }
    }

    fn apply_all(&mut self, metas: Vec<Meta>, results: Vec<SeqResult>) {
        // Forms of bulk results, by task: forms[starts[t]..starts[t + 1]].
        let starts: Vec<Vec<u32>> = results
            .iter()
            .map(|r| {
                if r.forms.is_empty() {
                    return Vec::new();
                }
                let mut st = vec![0u32; r.outcomes.len() + 1];
                for f in &r.forms {
                    if let Some(x) = st.get_mut(f.task as usize + 1) {
                        *x += 1;
                    }
                }
                for t in 1..st.len() {
                    st[t] += st[t - 1];
                }
                st
            })
            .collect();
        for m in &metas {
            self.applied_retain = self.applied_retain.max(m.retain);
            let Some(r) = results.get(m.req) else {
                continue;
            };
            match m.task {
                None => self.apply(m, r),
                Some(t) => {
                    let st = &starts[m.req];
                    let forms = match (st.get(t as usize), st.get(t as usize + 1)) {
                        (Some(&a), Some(&b)) => &r.forms[a as usize..b as usize],
                        _ => &[],
                    };
                    let Some(out) = r.outcomes.get(t as usize) else {
                        continue;
                    };
                    self.apply_task(m, out, forms);
                }
            }
        }
    }

    /// A task of a bulk request: its call's outcome and its forms.
    fn apply_task(&mut self, m: &Meta, out: &StmtOutcome, forms: &[BulkForm]) {
        match out {
            StmtOutcome::Normal(_) if !forms.is_empty() => {}
            StmtOutcome::Normal(_) | StmtOutcome::NotRun => {
                // lost with a worker that died later in the same request
                self.requeue_task(m, None);
                return;
            }
            _ => {
                if let StmtOutcome::Exception { class, message, .. } = out
                    && (class.as_ref() == "jforge.ProtoMissing"
                        || class.as_ref() == "jforge.CopyFailed")
                {
                    self.requeue_task(m, Some((class.as_ref(), message.as_deref())));
                    return;
                }
                // An exception, timeout or crash of the call: as for a whole sequence.
                let mut outcomes = vec![StmtOutcome::Normal(Observed::Void); m.len];
                outcomes[m.len - 1] = out.clone();
                let r = SeqResult {
                    outcomes,
                    violations: Vec::new(),
                    observers: Vec::new(),
                    worker: m.worker,
                    coverage: None,
                    compared: Vec::new(),
                    compared_nums: Vec::new(),
                    forms: Vec::new(),
                    clock_reads: 0,
                    thrown: None,
                    survived: false,
                    trace: None,
                };
                self.apply(m, &r);
                return;
            }
        }
        self.explored += 1;
        // As for a whole sequence: one value out of scope drops the task, none is recorded.
        if forms
            .iter()
            .any(|f| matches!(f.form, FormValue::OutOfScope))
        {
            self.out_of_scope += 1;
            return;
        }
        let mut built = Vec::new();
        for f in forms {
            let Some(&stmt) = m.canon.get(f.which as usize) else {
                continue;
            };
            let key = match &f.form {
                FormValue::Hash(h) => *h,
                FormValue::Text(t) => {
                    let k = key(t);
                    if self.cfg.dump && !self.seen.contains(&k) {
                        self.forms.insert(t.clone());
                    }
                    k
                }
                // (out of scope: the task was dropped above)
                FormValue::OutOfScope | FormValue::Null => continue,
                FormValue::Error(e) => {
                    *self.canon_errors.entry(e.clone()).or_default() += 1;
                    continue;
                }
                // only contracts tasks (check_contracts) report violations
                FormValue::Violation(..) => continue,
            };
            let Some(class) = &f.class else { continue };
            let before = self.kept.len();
            self.record_form(m, stmt, key, class);
            if self.log.is_some() {
                built.push((key, (self.kept.len() > before).then_some(before as u32)));
            }
        }
        self.log_applied(m, built);
    }

    /// Records an applied combination when [`Search::log`] is on.
    fn log_applied(&mut self, m: &Meta, built: Vec<(u128, Option<u32>)>) {
        if let Some(log) = self.log.as_mut() {
            log.push(Applied {
                ui: m.ui as u32,
                choice: m.choice.clone(),
                built,
            });
        }
    }

    /// The prototype was gone or could not be copied: run the whole sequence later.
    fn requeue_task(&mut self, m: &Meta, why: Option<(&str, Option<&str>)>) {
        if let Some(Choice::Ref(k)) = m.choice.iter().find(|c| matches!(c, Choice::Ref(_))) {
            self.kept[*k as usize].home = None;
        }
        if let Some(("jforge.CopyFailed", msg)) = why
            && self.reuse_disabled.is_none()
        {
            self.cfg.reuse = false;
            self.reuse_disabled = Some(format!(
                "a structure could not be copied ({}); every sequence is re-executed",
                msg.unwrap_or("no detail")
            ));
        }
        self.requeue.push((m.ui, m.choice.to_vec()));
    }

    /// Applies the result of one request: a rebuilt prototype, a combination to re-queue
    /// (its prototype was gone), a failure, or the values it built for state matching.
    fn apply(&mut self, m: &Meta, r: &SeqResult) {
        if let Some(k) = m.rebuild {
            self.apply_rebuild(m, r, k);
            return;
        }
        if let Some(i) = r.first_abnormal()
            && m.task.is_none()
            && let StmtOutcome::Exception { class, message, .. } = &r.outcomes[i]
            && m.protos.contains(&(i as u32))
        {
            // The worker no longer holds the prototype (restart, full heap) or could not
            // copy it: run the whole sequence instead.
            self.requeue_task(m, Some((class.as_ref(), message.as_deref())));
            return;
        }
        self.explored += 1;
        if let Some(i) = r.first_abnormal() {
            self.record_failure(m, r, i);
            return;
        }
        let Some(observed) = self.forms_and_checks(m, r) else {
            return;
        };
        self.match_states(m, r, observed);
    }

    /// A prototype moved to (or rebuilt in) another worker: it lives there now if the rebuild
    /// ran normally and its structure is within scope, else it has no home.
    fn apply_rebuild(&mut self, m: &Meta, r: &SeqResult, k: u32) {
        let ok = r.first_abnormal().is_none()
            && r.observers.iter().any(|o| {
                o.op == CANON_OP && matches!(&o.result, Ok(Value::Str(s)) if s != OUT_OF_SCOPE)
            });
        self.rebuilt += 1;
        if ok {
            self.kept[k as usize].home = Some(m.worker as u16);
            self.promotions[m.worker].push((m.retain, m.canon[0], k));
        } else {
            self.kept[k as usize].home = None;
        }
    }

    /// Statement `i` of the combination of `m` did not run normally: dropped when it threw an
    /// exception that breaks no contract (expected behaviour, as in `gen`:
    /// `crate::contracts`), else a failure (one per operation and exception, counting its
    /// occurrences; the first full sequence that shows it). Inputs of the search are never
    /// null (literals of the domains, kept structures), so a NullPointerException is always
    /// one without a null input.
    fn record_failure(&mut self, m: &Meta, r: &SeqResult, i: usize) {
        let op = self.usable[m.ui].op;
        let mut exception_contract = None;
        let (what, public, message) = match &r.outcomes[i] {
            StmtOutcome::Exception {
                class,
                public_class,
                message,
            } => {
                let null_input = crate::contracts::null_input(&m.seq, r);
                exception_contract = crate::contracts::exception_contract(
                    class,
                    null_input,
                    &self.cfg.error_exceptions,
                );
                if !class.starts_with("jforge.") && exception_contract.is_none() {
                    self.misuse_dropped += 1;
                    let e = self
                        .expected
                        .entry((op, class.to_string()))
                        .or_insert_with(|| (0, message.clone()));
                    e.0 += 1;
                    return;
                }
                (
                    class.to_string(),
                    Some(public_class.to_string()),
                    message.clone(),
                )
            }
            StmtOutcome::Timeout => ("timeout".to_string(), None, None),
            StmtOutcome::Crash(k) => (format!("crash: {k}"), None, None),
            _ => ("not run".to_string(), None, None),
        };
        let k = (op, what.clone());
        if let Some(&i) = self.failure_index.get(&k) {
            self.failures[i].occurrences += 1;
        } else {
            self.failure_index.insert(k, self.failures.len());
            let seq = if m.protos.is_empty() {
                m.seq.clone()
            } else {
                Arc::new(self.build(m.ui, &m.choice).0)
            };
            self.failures.push(Failure {
                seq,
                what,
                public_class: public,
                message,
                occurrences: 1,
                contract: None,
                exception_contract,
            });
        }
    }

    /// The canonical forms and the --check results of a combination that ran normally, by
    /// statement; `None` when one of its values is out of scope (the combination is dropped).
    fn forms_and_checks(&mut self, m: &Meta, r: &SeqResult) -> Option<Observations> {
        if r.observers.len() != m.requested {
            // e.g. a worker that does not know ExecMode::Canon answers with no observer entries
            *self
                .canon_errors
                .entry("the worker returned no canonical forms".into())
                .or_default() += 1;
        }
        let mut forms: Vec<(u32, Form)> = Vec::new();
        let mut checks: HashMap<u32, String> = HashMap::new();
        for o in &r.observers {
            if o.op == CANON_OP {
                match &o.result {
                    Ok(Value::Str(s)) => {
                        if s == OUT_OF_SCOPE {
                            self.out_of_scope += 1;
                            return None;
                        }
                        forms.push((o.stmt, Form::parse(s)));
                    }
                    Ok(v) => *self.canon_errors.entry(format!("{v:?}")).or_default() += 1,
                    Err(e) => *self.canon_errors.entry(e.clone()).or_default() += 1,
                }
            } else {
                let res = match &o.result {
                    Ok(Value::Bool(true)) => continue,
                    Ok(v) => format!("{v:?}"),
                    Err(e) => format!("threw {e}"),
                };
                checks.insert(o.stmt, res);
            }
        }
        Some(Observations { forms, checks })
    }

    /// State matching for the values a combination built: each structure never seen is kept
    /// (every one without state matching), with its --check result if it failed.
    fn match_states(&mut self, m: &Meta, r: &SeqResult, observed: Observations) {
        let Observations { forms, checks } = observed;
        let mut built = Vec::new();
        for (stmt, form) in forms {
            let Form::Form(text) = form else { continue };
            let StmtOutcome::Normal(Observed::Object { class, .. }) = &r.outcomes[stmt as usize]
            else {
                continue;
            };
            // The same key as a bulk request's raw hash (worker hex -> u128); texts (--dump)
            // are hashed here on both paths.
            let k = if self.cfg.dump {
                key(&text)
            } else {
                u128::from_str_radix(&text, 16).unwrap_or_else(|_| key(&text))
            };
            let new = self.seen.insert(k);
            if new {
                *self.structures.entry(class.clone()).or_default() += 1;
                if self.cfg.dump {
                    self.forms.insert(text);
                }
            }
            let before = self.kept.len();
            if new || !self.cfg.state_matching {
                self.keep(m, stmt, class, new.then(|| checks.get(&stmt)).flatten());
            }
            if self.log.is_some() {
                built.push((k, (self.kept.len() > before).then_some(before as u32)));
            }
        }
        self.log_applied(m, built);
    }

    /// State matching for one value of a bulk task (its key, class).
    fn record_form(&mut self, m: &Meta, stmt: u32, key: u128, class: &Arc<str>) {
        let new = self.seen.insert(key);
        if new {
            *self.structures.entry(class.clone()).or_default() += 1;
        }
        if new || !self.cfg.state_matching {
            self.keep(m, stmt, class, None);
        }
    }

    /// Keeps the combination of `m` as the builder of its value at `stmt`; the worker that
    /// ran it will hold that value as a prototype.
    fn keep(&mut self, m: &Meta, stmt: u32, class: &Arc<str>, check: Option<&String>) {
        // A statement that was not canonicalized is not kept, so it costs no memory either.
        let Some(which) = m.canon.iter().position(|&c| c == stmt) else {
            return;
        };
        let cid = self.class_id(class);
        self.bytes += kept_bytes(m.choice.len());
        let kid = self.kept.len() as u32;
        let home = if m.retain != 0 {
            // bulk candidates are held under the value index, others under the statement
            let at = if m.task.is_some() { which as u32 } else { stmt };
            self.promotions[m.worker].push((m.retain, at, kid));
            Some(m.worker as u16)
        } else {
            None
        };
        self.kept.push(Kept {
            ui: m.ui as u32,
            choice: m.choice.clone(),
            which: which as u8,
            class: cid,
            round: self.round,
            home,
        });
        if let Some(res) = check {
            self.counterexamples.push(Counterexample {
                kept: self.kept.len() - 1,
                result: res.clone(),
            });
        }
    }
}

/// A bulk request of `tasks` on prototype copies; its sequence is only a placeholder with one
/// statement per task.
fn bulk_request(tasks: Vec<BulkTask>, lits: Vec<Stmt>, retain_base: u32) -> ExecRequest {
    let placeholder = Stmt::Lit {
        ty: JType::Prim(crate::model::Prim::Int),
        value: Value::Null,
    };
    ExecRequest {
        seq: Arc::new(Sequence {
            stmts: vec![placeholder; tasks.len()],
        }),
        mode: ExecMode::Canon,
        contract_values: Vec::new(),
        observers: Vec::new(),
        reuse: Some(Box::new(Reuse {
            bulk: Some(Bulk {
                lits,
                retain_base,
                tasks,
            }),
            ..Reuse::default()
        })),
    }
}

/// Puts a batch's metas back in the order its combinations were made (the bulk tasks' were
/// set aside). The orders are a permutation of 0..n: each meta goes straight to its place (a
/// sort of these large records showed up in profiles).
fn in_batch_order(metas: &mut Vec<Meta>, bulk_metas: Vec<Meta>) {
    if bulk_metas.is_empty() {
        return;
    }
    let n = metas.len() + bulk_metas.len();
    let mut placed: Vec<Option<Meta>> = Vec::with_capacity(n);
    placed.resize_with(n, || None);
    for m in metas.drain(..).chain(bulk_metas) {
        let at = m.order as usize;
        placed[at] = Some(m);
    }
    metas.extend(placed.into_iter().flatten());
}

/// Sort key scattering kept indices (a bijective 32-bit mix, so the order is a permutation).
fn scatter(c: &Choice) -> u32 {
    let Choice::Ref(k) = *c else { return 0 };
    let mut x = k.wrapping_mul(0x9E37_79B1);
    x ^= x >> 16;
    x = x.wrapping_mul(0x85EB_CA6B);
    x ^ (x >> 13)
}
