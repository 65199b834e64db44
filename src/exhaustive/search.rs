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

use super::canon::{Form, OUT_OF_SCOPE, kept_bytes, key};
use crate::generate::ops::OpSet;
use crate::model::{JType, Model};
use crate::runner::{CANON_OP, ExecMode, ExecRequest, Observed, Pool, SeqResult, StmtOutcome};
use crate::sequence::{OpId, SeqRef, Sequence, Stmt, Value};
use anyhow::bail;
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

/// A kept sequence: `seq` builds, at statement `value`, a structure of class `class`.
#[derive(Clone, Debug)]
pub struct Kept {
    pub seq: SeqRef,
    pub value: u32,
    pub class: u32,
    pub round: u32,
}

#[derive(Clone, Debug)]
pub struct Failure {
    pub seq: SeqRef,
    /// Exception class (binary name) or a crash/timeout description.
    pub what: String,
    pub public_class: Option<String>,
    pub message: Option<String>,
    pub occurrences: u64,
}

#[derive(Clone, Debug)]
pub struct Counterexample {
    pub kept: usize,
    /// `false`, or the exception the check threw.
    pub result: String,
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
    pub misuse: Vec<String>,
    pub batch: usize,
    pub max_rounds: Option<u32>,
    pub memory_budget: u64,
    pub dump: bool,
    /// Check op by the erased class name of the static type it applies to.
    pub check_ops: HashMap<String, OpId>,
}

pub struct Progress {
    pub round: u32,
    pub frontier: usize,
    pub structures: u64,
    pub explored: u64,
    pub elapsed: Duration,
}

#[derive(Clone, Copy, Debug)]
enum Choice {
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
    seen: HashSet<u128>,
    /// Distinct structures per runtime class.
    pub structures: BTreeMap<Arc<str>, u64>,
    pub forms: BTreeSet<String>,
    pub failures: Vec<Failure>,
    failure_index: HashMap<(OpId, String), usize>,
    pub counterexamples: Vec<Counterexample>,
    pub explored: u64,
    pub misuse_dropped: u64,
    pub out_of_scope: u64,
    pub canon_errors: BTreeMap<String, u64>,
    pub rounds: Vec<RoundStats>,
    pub fixpoint: bool,
    bytes: u64,
    round: u32,
    batch: Vec<(usize, Vec<Choice>)>,
    inflight: Option<Vec<(SeqRef, OpId, usize)>>,
    started: Instant,
}

impl<'a> Search<'a> {
    pub fn new(model: &'a Model, ops: &'a OpSet, usable: Vec<Usable>, cfg: SearchConfig) -> Self {
        Search {
            model,
            ops,
            usable,
            cfg,
            kept: Vec::new(),
            classes: Vec::new(),
            class_ids: HashMap::new(),
            assignable: HashMap::new(),
            seen: HashSet::new(),
            structures: BTreeMap::new(),
            forms: BTreeSet::new(),
            failures: Vec::new(),
            failure_index: HashMap::new(),
            counterexamples: Vec::new(),
            explored: 0,
            misuse_dropped: 0,
            out_of_scope: 0,
            canon_errors: BTreeMap::new(),
            rounds: Vec::new(),
            fixpoint: false,
            bytes: 0,
            round: 0,
            batch: Vec::new(),
            inflight: None,
            started: Instant::now(),
        }
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

    fn fits(&mut self, class: u32, ty: &JType) -> bool {
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
        let mut old_end = 0usize;
        let mut new_end = 0usize;
        loop {
            self.round += 1;
            let round_start = Instant::now();
            let explored_before = self.explored;
            let structures_before = self.seen.len() as u64;
            self.check_memory(old_end, new_end)?;
            for ui in 0..self.usable.len() {
                let params = self.usable[ui].params.clone();
                // per input: (old choices, new choices)
                let mut doms: Vec<(Vec<Choice>, Vec<Choice>)> = Vec::with_capacity(params.len());
                for p in &params {
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
                            doms.push((old, new))
                        }
                    }
                }
                let all_lits = params.iter().all(|p| matches!(p, ParamDom::Lits(_)));
                if self.round == 1 {
                    if all_lits {
                        let full: Vec<Vec<Choice>> = doms.iter().map(|d| d.0.clone()).collect();
                        self.product(pool, ui, &full, &mut Vec::new(), tick)?;
                    }
                    continue;
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
            if self.cfg.max_rounds.is_some_and(|m| self.round >= m) {
                return Ok(());
            }
        }
    }

    /// Refuses a round whose kept sequences would not fit in the memory budget, predicted from
    /// the growth of the previous rounds.
    fn check_memory(&self, old_end: usize, new_end: usize) -> anyhow::Result<()> {
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
        let predicted = self.bytes + (frontier as f64 * growth * avg as f64 * 1.2) as u64;
        if predicted > self.cfg.memory_budget {
            bail!(
                "scope too large for memory: round {} would hold about {} kept sequences \
                 (~{} MiB, budget {} MiB); lower --scope or the domains, or raise --max-memory",
                self.round,
                self.kept.len() as u64 + (frontier as f64 * growth) as u64,
                predicted >> 20,
                self.cfg.memory_budget >> 20
            );
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
                    let kp = &self.kept[*k as usize];
                    let off = seq.append(&kp.seq);
                    args.push(off + kp.value);
                    canon.push(off + kp.value);
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
        let mut reqs = Vec::with_capacity(batch.len());
        let mut metas = Vec::with_capacity(batch.len());
        for (ui, choice) in &batch {
            let (seq, canon) = self.build(*ui, choice);
            let mut observers = Vec::with_capacity(canon.len() * 2);
            for &s in &canon {
                observers.push((s, CANON_OP));
                if let Some(c) = self.check_op_for(&seq, s) {
                    observers.push((s, c));
                }
            }
            let seq = Arc::new(seq);
            metas.push((seq.clone(), self.usable[*ui].op, observers.len()));
            reqs.push(ExecRequest {
                seq,
                mode: ExecMode::Canon,
                contract_values: Vec::new(),
                observers,
            });
        }
        let earlier = match self.inflight.take() {
            Some(m) => Some((m, pool.collect()?)),
            None => None,
        };
        pool.submit(reqs)?;
        self.inflight = Some(metas);
        if let Some((m, results)) = earlier {
            self.apply_all(m, results);
        }
        Ok(())
    }

    /// Waits for the batch in flight and applies its results.
    pub fn drain(&mut self, pool: &mut Pool) -> anyhow::Result<()> {
        self.flush(pool)?;
        if let Some(m) = self.inflight.take() {
            let results = pool.collect()?;
            self.apply_all(m, results);
        }
        Ok(())
    }

    fn apply_all(&mut self, metas: Vec<(SeqRef, OpId, usize)>, results: Vec<SeqResult>) {
        self.explored += results.len() as u64;
        for ((seq, op, requested), r) in metas.iter().zip(&results) {
            self.apply(seq, *op, *requested, r);
        }
    }

    fn apply(&mut self, seq: &SeqRef, op: OpId, requested: usize, r: &SeqResult) {
        let n = seq.len();
        if let Some(i) = r.first_abnormal() {
            let (what, public, message) = match &r.outcomes[i] {
                StmtOutcome::Exception {
                    class,
                    public_class,
                    message,
                } => {
                    if i == n - 1
                        && self
                            .cfg
                            .misuse
                            .iter()
                            .any(|m| m == class.as_ref() || m == public_class.as_ref())
                    {
                        self.misuse_dropped += 1;
                        return;
                    }
                    (
                        class.to_string(),
                        Some(public_class.to_string()),
                        message.clone(),
                    )
                }
                StmtOutcome::Timeout => ("timeout".to_string(), None, None),
                StmtOutcome::Crash(k) => (format!("crash: {k:?}"), None, None),
                _ => ("not run".to_string(), None, None),
            };
            let k = (op, what.clone());
            if let Some(&i) = self.failure_index.get(&k) {
                self.failures[i].occurrences += 1;
            } else {
                self.failure_index.insert(k, self.failures.len());
                self.failures.push(Failure {
                    seq: seq.clone(),
                    what,
                    public_class: public,
                    message,
                    occurrences: 1,
                });
            }
            return;
        }
        // canonical forms and check results, by statement
        if r.observers.len() != requested {
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
                            return;
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
        for (stmt, form) in forms {
            let Form::Form(text) = form else { continue };
            let StmtOutcome::Normal(Observed::Object { class, .. }) = &r.outcomes[stmt as usize]
            else {
                continue;
            };
            let new = self.seen.insert(key(&text));
            if new {
                *self.structures.entry(class.clone()).or_default() += 1;
                if self.cfg.dump {
                    self.forms.insert(text);
                }
            }
            if new || !self.cfg.state_matching {
                let cid = self.class_id(class);
                self.bytes += kept_bytes(n);
                self.kept.push(Kept {
                    seq: seq.clone(),
                    value: stmt,
                    class: cid,
                    round: self.round,
                });
                if new && let Some(res) = checks.get(&stmt) {
                    self.counterexamples.push(Counterexample {
                        kept: self.kept.len() - 1,
                        result: res.clone(),
                    });
                }
            }
        }
    }
}
