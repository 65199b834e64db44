//! The bounded-exhaustive space every candidate set is measured in: one exhaustive search
//! ([`Search`]) over the whole usable API, driven lazily, whose applied combinations are kept
//! as a transition graph between structures. The structures a set of operations builds at the
//! scope (BEAPI's fitness, seed 001) are the closure of the graph's edges labelled with those
//! operations, starting from the results of its literal-only operations (constructors,
//! factories).
//!
//! Why a graph and not one exhaustive search per candidate set: execution is deterministic and
//! a canonical form captures everything reachable from the root, so the outcome of "operation
//! m with these literals on structure s" does not depend on which set is being measured. A
//! search restricted to a set S explores exactly the combinations of S's operations with the
//! structures S builds; all of them are edges here. So the closure is the search's result
//! (same structures, same canonical forms), and each combination runs once for every set
//! that needs it instead of once per set: hill climbing's step k re-runs nothing of step
//! k-1, and a set's closure costs a graph traversal once its edges are known. The final
//! verification runs a real restricted search and compares its forms with the closure's.
//!
//! Laziness: a closure asks for the combinations it misses (its operations on the structures
//! it reached) and the search runs them in waves; the missing work of every closure being
//! computed is merged into one wave, so the candidate sets of a hill-climbing step (or a GA
//! generation) share batches and keep all workers busy.

use super::bits::Bits;
use super::fieldext;
use crate::exhaustive::search::{Choice, ParamDom, Search};
use crate::model::JType;
use crate::runner::{CANON_OP, ExecMode, ExecRequest, Pool, PoolConfig, StmtOutcome};
use crate::sequence::{OpId, Value};
use anyhow::{Context, bail};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::time::Instant;

/// A usable operation as the builder search sees it.
#[derive(Clone, Debug)]
pub struct OpInfo {
    pub op: OpId,
    pub signature: String,
    /// Inputs that take a structure: (input position, type), receiver included.
    pub refs: Vec<(usize, JType)>,
    /// Literal-domain size of every input (`None` for structure inputs).
    pub lits: Vec<Option<u32>>,
    /// Parameters (receiver excluded) a test writes as a literal (primitives, boxed values,
    /// Strings) and parameters that need an object built first: the PP and RP of seed 004's
    /// "simpler parameters". Clarification: the paper counts Java reference types; a String or
    /// boxed parameter is a reference type but costs an analysis no more than an int, while a
    /// structure parameter (`TreeMap(Map)`) needs another structure built first.
    pub prim_params: u32,
    pub ref_params: u32,
    pub is_constructor: bool,
}

impl OpInfo {
    /// Builds structures from literals alone (a constructor or a static factory).
    pub fn is_creator(&self) -> bool {
        self.refs.is_empty()
    }

    /// Parameter complexity with reference parameters weighted `w3` (seed 004).
    pub fn weight(&self, w3: f64) -> f64 {
        self.prim_params as f64 + w3 * self.ref_params as f64
    }

    /// Literal combinations per structure input choice.
    fn lit_combos(&self) -> u64 {
        self.lits.iter().flatten().map(|&n| n as u64).product()
    }
}

/// The closure of one operation set, computed incrementally.
#[derive(Clone, Debug)]
pub struct Closure {
    pub ops: Bits,
    pub reached: Bits,
    queue: Vec<u32>,
    /// Reached since the last scan for missing work.
    fresh: Vec<u32>,
    /// Operations whose edges from every reached structure are not applied yet.
    unseeded: Vec<u32>,
    /// Operations whose work on every reached structure is not scanned yet.
    unscanned: Vec<u32>,
    /// New structures per wave (endless-growth detection), and the count at the last wave.
    growth: Vec<u64>,
    last_len: usize,
    /// An operation whose combinations passed the budget: the closure is not computed.
    pub over_budget: Option<u32>,
}

impl Closure {
    /// The closure of `ops` from nothing.
    pub fn of(ops: &Bits) -> Closure {
        let all: Vec<u32> = ops.iter().collect();
        Closure {
            ops: ops.clone(),
            reached: Bits::new(),
            queue: Vec::new(),
            fresh: Vec::new(),
            unseeded: all.clone(),
            unscanned: all,
            growth: Vec::new(),
            last_len: 0,
            over_budget: None,
        }
    }

    /// The closure of this (complete) closure's operations plus `ui`, starting from what
    /// this one reached (a subset of the answer).
    pub fn with(&self, ui: u32) -> Closure {
        let mut c = self.clone();
        c.growth.clear();
        if c.ops.insert(ui) {
            c.unseeded.push(ui);
            c.unscanned.push(ui);
        }
        c
    }

    /// As [`Closure::with`] for several operations at once.
    pub fn with_all(&self, uis: &[u32]) -> Closure {
        let mut c = self.clone();
        c.growth.clear();
        for &ui in uis {
            if c.ops.insert(ui) {
                c.unseeded.push(ui);
                c.unscanned.push(ui);
            }
        }
        c
    }

    fn reach(&mut self, s: u32) {
        if self.reached.insert(s) {
            self.queue.push(s);
        }
    }
}

struct MultiEdge {
    ui: u32,
    inputs: Box<[u32]>,
    outs: Box<[u32]>,
}

/// Figures of one wave, for progress lines.
#[derive(Clone, Debug, Default)]
pub struct Wave {
    pub sequences: u64,
    pub structures: usize,
    pub explored_total: u64,
}

/// Missing work of a wave.
#[derive(Default)]
struct Todo {
    roots: BTreeSet<u32>,
    singles: BTreeSet<(u32, u32)>,
    multis: BTreeSet<(u32, Box<[u32]>)>,
}

impl Todo {
    fn is_empty(&self) -> bool {
        self.roots.is_empty() && self.singles.is_empty() && self.multis.is_empty()
    }
}

/// Canonical texts (and their field extensions) of structures, from a second pool whose
/// workers write forms as text (the main pool only hashes them).
struct Texts {
    cfg: PoolConfig,
    pool: Option<Pool>,
    /// Field-extension triple ids of each structure (by structure id), once known.
    ext: Vec<Option<Box<[u32]>>>,
    interner: fieldext::Interner,
}

pub struct Space<'a> {
    search: Search<'a>,
    pool: Pool,
    pub ops: Vec<OpInfo>,
    targets: Vec<String>,
    ids: HashMap<u128, u32>,
    keys: Vec<u128>,
    known: Bits,
    target: Bits,
    edges: Vec<Vec<(u32, u32)>>,
    roots: Vec<Vec<u32>>,
    multi: Vec<MultiEdge>,
    multi_by_input: HashMap<u32, Vec<u32>>,
    done_roots: Bits,
    done_single: Vec<Bits>,
    done_multi: HashSet<(u32, Box<[u32]>)>,
    fit_cache: HashMap<(u32, u32, u32), bool>,
    /// Operations left out because their combinations passed the budget, with why.
    pub excluded: BTreeMap<u32, String>,
    budget: u64,
    scope: u32,
    texts: Texts,
    pub waves: u64,
    started: Instant,
}

/// Waves after which a closure still growing by a periodic amount is taken for endless.
const ENDLESS_WAVES: usize = 12;
/// Waves after which a closure still growing is taken for endless whatever its growth (a
/// breadth-first level per wave: sequences of 100 calls are far beyond what a small scope
/// needs).
const MAX_WAVES: usize = 100;

impl<'a> Space<'a> {
    /// `search` must have been created with every usable operation and `log` on; `pool` runs
    /// it (its workers canonicalize at the scope); `text_pool` is the configuration of the
    /// pool that writes forms as text (started on first use, for field extensions).
    pub fn new(
        mut search: Search<'a>,
        pool: Pool,
        targets: Vec<String>,
        budget: u64,
        scope: u32,
        text_pool: PoolConfig,
    ) -> Space<'a> {
        search.log.get_or_insert_with(Vec::new);
        let table = &search.ops.table;
        let ops: Vec<OpInfo> = search
            .usable
            .iter()
            .map(|u| {
                let op = table.get(u.op);
                let mut refs = Vec::new();
                let mut lits = Vec::new();
                for (i, p) in u.params.iter().enumerate() {
                    match p {
                        ParamDom::Lits(l) => lits.push(Some(l.len() as u32)),
                        ParamDom::Refs(t) => {
                            refs.push((i, t.clone()));
                            lits.push(None);
                        }
                    }
                }
                let skip = usize::from(op.has_receiver());
                let declared = &u.params[skip.min(u.params.len())..];
                let prim_params = declared
                    .iter()
                    .filter(|p| matches!(p, ParamDom::Lits(_)))
                    .count() as u32;
                OpInfo {
                    op: u.op,
                    signature: op.signature(),
                    refs,
                    lits,
                    prim_params,
                    ref_params: declared.len() as u32 - prim_params,
                    is_constructor: op.kind == crate::sequence::OpKind::Constructor,
                }
            })
            .collect();
        let n = ops.len();
        Space {
            search,
            pool,
            ops,
            targets,
            ids: HashMap::new(),
            keys: Vec::new(),
            known: Bits::new(),
            target: Bits::new(),
            edges: Vec::new(),
            roots: vec![Vec::new(); n],
            multi: Vec::new(),
            multi_by_input: HashMap::new(),
            done_roots: Bits::new(),
            done_single: vec![Bits::new(); n],
            done_multi: HashSet::new(),
            fit_cache: HashMap::new(),
            excluded: BTreeMap::new(),
            budget,
            scope,
            texts: Texts {
                cfg: text_pool,
                pool: None,
                ext: Vec::new(),
                interner: fieldext::Interner::default(),
            },
            waves: 0,
            started: Instant::now(),
        }
    }

    /// Sequences run so far.
    pub fn explored(&self) -> u64 {
        self.search.explored
    }

    /// Seconds since the space was created.
    pub fn seconds(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }

    pub fn search(&self) -> &Search<'a> {
        &self.search
    }

    /// Distinct structures of the classes under test a closure reached (the fitness of hill
    /// climbing: BEAPI's structure count).
    pub fn structures(&self, c: &Closure) -> u64 {
        c.reached
            .iter()
            .filter(|&s| self.target.contains(s))
            .count() as u64
    }

    /// Canonical-form keys of every structure a closure reached (any class), sorted.
    pub fn keys(&self, c: &Closure) -> Vec<u128> {
        let mut k: Vec<u128> = c.reached.iter().map(|s| self.keys[s as usize]).collect();
        k.sort_unstable();
        k
    }

    /// A replayable sequence that builds structure `s` (shortest found by the exploration).
    pub fn sequence_of(&self, s: u32) -> Vec<String> {
        let (seq, _) = self.search.materialize(s as usize);
        crate::exhaustive::render_seq(self.search.ops, &seq)
    }

    /// The creator chain of creator `ui` among `allowed` (`exhaustive::reach::creator_chain`):
    /// the fewest operations, `ui` first, that produce a class under test (`[ui]` for a
    /// constructor; factory + `build()` for a class behind a builder), by type.
    pub fn creator_chain(&self, ui: u32, allowed: &[u32]) -> Option<Vec<u32>> {
        let allowed: Vec<usize> = allowed.iter().map(|&u| u as usize).collect();
        let s = &self.search;
        crate::exhaustive::reach::creator_chain(
            s.model,
            s.ops,
            &s.usable,
            ui as usize,
            &allowed,
            &self.targets,
        )
        .map(|c| c.into_iter().map(|u| u as u32).collect())
    }

    /// Stops the workers.
    pub fn shutdown(self) {
        self.pool.shutdown();
        if let Some(p) = self.texts.pool {
            p.shutdown();
        }
    }

    /// Computes the given closures to completion, running the combinations they miss in shared
    /// waves. A closure that would need more combinations of a multi-structure operation than
    /// the budget is left with `over_budget` set and that operation joins `excluded`.
    pub fn close(
        &mut self,
        closures: &mut [Closure],
        progress: &mut dyn FnMut(&Wave),
    ) -> anyhow::Result<()> {
        loop {
            let mut todo = Todo::default();
            for c in closures.iter_mut() {
                if c.over_budget.is_some() {
                    continue;
                }
                self.seed(c);
                self.propagate(c);
                self.scan(c, &mut todo);
                let now = c.reached.len();
                c.growth.push(now.saturating_sub(c.last_len) as u64);
                c.last_len = now;
                self.check_endless(c)?;
            }
            if todo.is_empty() {
                return Ok(());
            }
            let sequences = self.run(&todo)?;
            self.waves += 1;
            let (singles, roots, multis) = self.ingest();
            for c in closures.iter_mut() {
                if c.over_budget.is_some() {
                    continue;
                }
                for &(s, ui, out) in &singles {
                    if c.ops.contains(ui) && c.reached.contains(s) {
                        c.reach(out);
                    }
                }
                for &(ui, out) in &roots {
                    if c.ops.contains(ui) {
                        c.reach(out);
                    }
                }
                for &mi in &multis {
                    self.fire(c, mi as usize);
                }
            }
            progress(&Wave {
                sequences,
                structures: self.keys.len(),
                explored_total: self.search.explored,
            });
        }
    }

    /// Applies the existing edges of operations new to `c` from everything it reached.
    fn seed(&self, c: &mut Closure) {
        let new_ops = std::mem::take(&mut c.unseeded);
        if new_ops.is_empty() {
            return;
        }
        let new_set = Bits::from_indices(new_ops.iter().copied());
        for &ui in &new_ops {
            let outs = self.roots[ui as usize].clone();
            for out in outs {
                c.reach(out);
            }
        }
        let reached: Vec<u32> = c.reached.iter().collect();
        for s in reached {
            if let Some(es) = self.edges.get(s as usize) {
                for &(ui, out) in es {
                    if new_set.contains(ui) {
                        c.reach(out);
                    }
                }
            }
        }
        for mi in 0..self.multi.len() {
            if new_set.contains(self.multi[mi].ui) {
                self.fire(c, mi);
            }
        }
    }

    fn fire(&self, c: &mut Closure, mi: usize) {
        let e = &self.multi[mi];
        if c.ops.contains(e.ui) && e.inputs.iter().all(|&s| c.reached.contains(s)) {
            for &out in e.outs.iter() {
                c.reach(out);
            }
        }
    }

    /// Follows the known edges of `c`'s operations from the structures queued.
    fn propagate(&self, c: &mut Closure) {
        while let Some(s) = c.queue.pop() {
            c.fresh.push(s);
            if let Some(es) = self.edges.get(s as usize) {
                for &(ui, out) in es {
                    if c.ops.contains(ui) {
                        c.reach(out);
                    }
                }
            }
            if let Some(ms) = self.multi_by_input.get(&s) {
                for &mi in ms {
                    self.fire(c, mi as usize);
                }
            }
        }
    }

    fn fits(&mut self, s: u32, ui: u32, at: usize) -> bool {
        let class = self.search.kept[s as usize].class;
        let k = (class, ui, at as u32);
        if let Some(&b) = self.fit_cache.get(&k) {
            return b;
        }
        let ty = self.ops[ui as usize].refs[at].1.clone();
        let b = self.search.fits(class, &ty);
        self.fit_cache.insert(k, b);
        b
    }

    /// The combinations `c` misses: its operations on the structures it reached that were
    /// never run. Structures of a wave are sorted, so batches do not depend on set order.
    fn scan(&mut self, c: &mut Closure, todo: &mut Todo) {
        let fresh = std::mem::take(&mut c.fresh);
        let new_ops = std::mem::take(&mut c.unscanned);
        let multi = c.ops.iter().any(|u| self.ops[u as usize].refs.len() > 1);
        let reached: Vec<u32> = if new_ops.is_empty() && !multi {
            Vec::new()
        } else {
            c.reached.iter().collect()
        };
        let ops: Vec<u32> = c.ops.iter().collect();
        for &ui in &ops {
            let info = &self.ops[ui as usize];
            let n_refs = info.refs.len();
            let is_new = new_ops.contains(&ui);
            match n_refs {
                0 => {
                    if !self.done_roots.contains(ui) {
                        todo.roots.insert(ui);
                    }
                }
                1 => {
                    let over: &[u32] = if is_new { &reached } else { &fresh };
                    for &s in over {
                        if !self.done_single[ui as usize].contains(s) && self.fits(s, ui, 0) {
                            todo.singles.insert((ui, s));
                        }
                    }
                }
                _ => {
                    if !is_new && fresh.is_empty() {
                        continue;
                    }
                    // every tuple over the reached structures fitting each input
                    let mut lists: Vec<Vec<u32>> = Vec::with_capacity(n_refs);
                    for at in 0..n_refs {
                        lists.push(
                            reached
                                .iter()
                                .copied()
                                .filter(|&s| self.fits(s, ui, at))
                                .collect(),
                        );
                    }
                    let info = &self.ops[ui as usize];
                    let tuples = lists
                        .iter()
                        .map(|l| l.len() as u64)
                        .fold(1u64, |a, b| a.saturating_mul(b));
                    let combos = tuples.saturating_mul(info.lit_combos());
                    if combos > self.budget {
                        let why = format!(
                            "its {} structure inputs would need {} combinations at scope {} \
                             (budget {}; raise --max-combinations or lower --scope)",
                            n_refs, combos, self.scope, self.budget
                        );
                        self.excluded.entry(ui).or_insert(why);
                        c.over_budget = Some(ui);
                        return;
                    }
                    let mut cur = Vec::with_capacity(n_refs);
                    tuples_of(&lists, &mut cur, &mut |t| {
                        let t: Box<[u32]> = t.into();
                        if !self.done_multi.contains(&(ui, t.clone())) {
                            todo.multis.insert((ui, t));
                        }
                    });
                }
            }
        }
    }

    /// Structures that keep coming at a constant or alternating rate wave after wave mean a
    /// field that changes on every call (a modification counter): no fixpoint.
    fn check_endless(&self, c: &Closure) -> anyhow::Result<()> {
        let g = &c.growth;
        if g.len() < ENDLESS_WAVES {
            return Ok(());
        }
        let last = &g[g.len() - 6..];
        let periodic = last.iter().all(|&x| x > 0) && (2..6).all(|i| last[i] == last[i - 2]);
        if periodic || g.len() > MAX_WAVES && last[5] > 0 {
            let names: Vec<&str> = c
                .ops
                .iter()
                .map(|u| self.ops[u as usize].signature.as_str())
                .collect();
            // a budget error (exit 4), like a time limit: the same cause, a counter, and
            // the same diagnosis (builders::explain_limit names the fields)
            return Err(crate::exit::budget(anyhow::anyhow!(
                "the structures built by {{{}}} at scope {} never stop growing (the last \
                 waves found {} new ones each): some field changes on every call, such as a \
                 modification counter, to be left out of the canonical form with \
                 --omit-fields",
                names.join(", "),
                self.scope,
                last.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        Ok(())
    }

    /// Runs the missing work; returns the number of sequences.
    fn run(&mut self, todo: &Todo) -> anyhow::Result<u64> {
        let mut inputs: BTreeSet<u32> = todo.singles.iter().map(|&(_, s)| s).collect();
        for (_, t) in &todo.multis {
            inputs.extend(t.iter().copied());
        }
        let inputs: Vec<usize> = inputs.into_iter().map(|s| s as usize).collect();
        // (operation, structure inputs): expanded over the literals as the batches fill
        let mut units: Vec<(u32, Vec<u32>)> = Vec::new();
        units.extend(todo.roots.iter().map(|&ui| (ui, Vec::new())));
        units.extend(todo.singles.iter().map(|&(ui, s)| (ui, vec![s])));
        units.extend(todo.multis.iter().map(|(ui, t)| (*ui, t.to_vec())));
        let count: u64 = units
            .iter()
            .map(|(ui, _)| self.ops[*ui as usize].lit_combos())
            .sum();
        let lits: Vec<Vec<Option<u32>>> = self.ops.iter().map(|o| o.lits.clone()).collect();
        let combos = units.into_iter().flat_map(move |(ui, refs)| {
            let mut out = Vec::new();
            products(ui, &lits[ui as usize], &refs, &mut out);
            out
        });
        self.search
            .explore(&mut self.pool, &inputs, combos)
            .context("exploring the combinations of the candidate sets")?;
        for &ui in &todo.roots {
            self.done_roots.insert(ui);
        }
        for &(ui, s) in &todo.singles {
            self.done_single[ui as usize].insert(s);
        }
        for (ui, t) in &todo.multis {
            self.done_multi.insert((*ui, t.clone()));
        }
        Ok(count)
    }

    /// Takes the search's record of applied combinations into the graph; returns the new
    /// edges (single-input, root, multi-input).
    #[allow(clippy::type_complexity)]
    fn ingest(&mut self) -> (Vec<(u32, u32, u32)>, Vec<(u32, u32)>, Vec<u32>) {
        let log = self.search.log.replace(Vec::new()).unwrap_or_default();
        let mut singles = Vec::new();
        let mut roots = Vec::new();
        let mut multis = Vec::new();
        for a in log {
            let mut outs: Vec<u32> = Vec::with_capacity(a.built.len());
            for (key, new) in &a.built {
                let id = match new {
                    Some(k) => {
                        self.register(*k, *key);
                        *k
                    }
                    None => match self.ids.get(key) {
                        Some(&k) => k,
                        None => continue,
                    },
                };
                if !outs.contains(&id) {
                    outs.push(id);
                }
            }
            let inputs: Vec<u32> = a
                .choice
                .iter()
                .filter_map(|c| match c {
                    Choice::Ref(k) => Some(*k),
                    Choice::Lit(_) => None,
                })
                .collect();
            match inputs.len() {
                0 => {
                    for out in outs {
                        if !self.roots[a.ui as usize].contains(&out) {
                            self.roots[a.ui as usize].push(out);
                            roots.push((a.ui, out));
                        }
                    }
                }
                1 => {
                    let s = inputs[0];
                    for out in outs {
                        if out != s {
                            self.edge_list(s).push((a.ui, out));
                            singles.push((s, a.ui, out));
                        }
                    }
                }
                _ => {
                    let mi = self.multi.len() as u32;
                    let mut distinct = inputs.clone();
                    distinct.sort_unstable();
                    distinct.dedup();
                    outs.retain(|o| !distinct.contains(o));
                    if outs.is_empty() {
                        continue;
                    }
                    for &s in &distinct {
                        self.multi_by_input.entry(s).or_default().push(mi);
                    }
                    self.multi.push(MultiEdge {
                        ui: a.ui,
                        inputs: inputs.into(),
                        outs: outs.into(),
                    });
                    multis.push(mi);
                }
            }
        }
        (singles, roots, multis)
    }

    fn edge_list(&mut self, s: u32) -> &mut Vec<(u32, u32)> {
        let at = s as usize;
        if self.edges.len() <= at {
            self.edges.resize_with(at + 1, Vec::new);
        }
        &mut self.edges[at]
    }

    fn register(&mut self, k: u32, key: u128) {
        if !self.known.insert(k) {
            return;
        }
        let at = k as usize;
        if self.keys.len() <= at {
            self.keys.resize(at + 1, 0);
        }
        self.keys[at] = key;
        self.ids.insert(key, k);
        let class = &self.search.classes[self.search.kept[at].class as usize];
        if self.targets.iter().any(|t| t.as_str() == class.as_ref()) {
            self.target.insert(k);
        }
    }

    /// Field extensions (seed 004) of each closure: the number of distinct (field, object,
    /// value) triples over the canonical forms of the structures it reached. The forms are
    /// written as text by a second pool, once per structure.
    pub fn field_extensions(&mut self, closures: &[&Closure]) -> anyhow::Result<Vec<usize>> {
        let mut need: BTreeSet<u32> = BTreeSet::new();
        for c in closures {
            for s in c.reached.iter() {
                if self
                    .texts
                    .ext
                    .get(s as usize)
                    .is_none_or(|e: &Option<Box<[u32]>>| e.is_none())
                {
                    need.insert(s);
                }
            }
        }
        if !need.is_empty() {
            self.fetch_texts(&need.into_iter().collect::<Vec<_>>())?;
        }
        let mut seen = Bits::new();
        let mut out = Vec::with_capacity(closures.len());
        for c in closures {
            seen.clear();
            let mut n = 0usize;
            for s in c.reached.iter() {
                if let Some(Some(ext)) = self.texts.ext.get(s as usize) {
                    for &t in ext.iter() {
                        if seen.insert(t) {
                            n += 1;
                        }
                    }
                }
            }
            out.push(n);
        }
        Ok(out)
    }

    fn fetch_texts(&mut self, ids: &[u32]) -> anyhow::Result<()> {
        if self.texts.pool.is_none() {
            let mut p = Pool::start(self.texts.cfg.clone())
                .context("starting the worker that writes canonical forms as text")?;
            let failed = p.register(&self.search.ops.table)?;
            let _ = failed;
            self.texts.pool = Some(p);
        }
        let Some(pool) = self.texts.pool.as_mut() else {
            bail!("internal error: no text pool");
        };
        for chunk in ids.chunks(2000) {
            let reqs: Vec<ExecRequest> = chunk
                .iter()
                .map(|&s| {
                    let (seq, v) = self.search.materialize(s as usize);
                    ExecRequest {
                        seq,
                        mode: ExecMode::Canon,
                        contract_values: Vec::new(),
                        observers: vec![(v, CANON_OP)],
                        reuse: None,
                    }
                })
                .collect();
            let results = pool.execute(reqs)?;
            for (&s, r) in chunk.iter().zip(results) {
                let text = r.observers.iter().find_map(|o| match &o.result {
                    Ok(Value::Str(t)) if o.op == CANON_OP => Some(t.clone()),
                    _ => None,
                });
                let ext: Box<[u32]> = match (r.first_abnormal(), text) {
                    (None, Some(t)) => self
                        .texts
                        .interner
                        .triples(&t)
                        .with_context(|| format!("reading the canonical form {t}"))?
                        .into(),
                    _ => {
                        let why = match r.first_abnormal().map(|i| &r.outcomes[i]) {
                            Some(StmtOutcome::Exception { class, .. }) => class.to_string(),
                            Some(o) => format!("{o:?}"),
                            None => "no form".into(),
                        };
                        bail!(
                            "re-running the sequence of structure {s} for its canonical text \
                             failed ({why}): the code under test is not deterministic"
                        );
                    }
                };
                let at = s as usize;
                if self.texts.ext.len() <= at {
                    self.texts.ext.resize(at + 1, None);
                }
                self.texts.ext[at] = Some(ext);
            }
        }
        Ok(())
    }
}

/// Every combination of operation `ui` (literal-domain sizes `lits`, `None` for structure
/// inputs) with `refs` as its structure inputs, in order, and every literal of the others.
fn products(ui: u32, lits: &[Option<u32>], refs: &[u32], out: &mut Vec<(usize, Vec<Choice>)>) {
    fn go(
        lits: &[Option<u32>],
        refs: &[u32],
        ui: usize,
        cur: &mut Vec<Choice>,
        out: &mut Vec<(usize, Vec<Choice>)>,
    ) {
        let i = cur.len();
        if i == lits.len() {
            out.push((ui, cur.clone()));
            return;
        }
        match lits[i] {
            Some(n) => {
                for l in 0..n {
                    cur.push(Choice::Lit(l));
                    go(lits, refs, ui, cur, out);
                    cur.pop();
                }
            }
            None => {
                let used = lits[..i].iter().filter(|l| l.is_none()).count();
                cur.push(Choice::Ref(refs[used]));
                go(lits, refs, ui, cur, out);
                cur.pop();
            }
        }
    }
    go(
        lits,
        refs,
        ui as usize,
        &mut Vec::with_capacity(lits.len()),
        out,
    );
}

/// Calls `f` with every tuple of the cartesian product of `lists`.
fn tuples_of(lists: &[Vec<u32>], cur: &mut Vec<u32>, f: &mut dyn FnMut(&[u32])) {
    if cur.len() == lists.len() {
        f(cur);
        return;
    }
    for &x in &lists[cur.len()] {
        cur.push(x);
        tuples_of(lists, cur, f);
        cur.pop();
    }
}
