//! The search's state (`Search`), the hasher of its state-matching set, what was sent for a
//! request in flight (`Meta`), and the sequence of a combination: built whole, in the short
//! form that starts from a prototype copy, or materialized for a kept structure.

use super::found::{Applied, Counterexample, Failure, Kept, RoundStats};
use super::inputs::{Choice, ParamDom, SearchConfig, Usable};
use crate::generate::ops::OpSet;
use crate::model::{JType, Model};
use crate::sequence::{OpId, SeqRef, Sequence, Stmt, Value};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

pub struct Search<'a> {
    pub model: &'a Model,
    pub ops: &'a OpSet,
    pub usable: Vec<Usable>,
    pub cfg: SearchConfig,
    pub kept: Vec<Kept>,
    pub classes: Vec<Arc<str>>,
    class_ids: HashMap<Arc<str>, u32>,
    assignable: HashMap<(u32, JType), bool>,
    pub(super) seen: HashSet<u128, KeyHash>,
    /// Distinct structures per runtime class.
    pub structures: BTreeMap<Arc<str>, u64>,
    pub forms: BTreeSet<String>,
    pub failures: Vec<Failure>,
    pub(super) failure_index: HashMap<(OpId, String), usize>,
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
    pub(super) memory_warned: bool,
    /// `Some`: every combination applied is recorded here (`jforge builders` derives the
    /// structures any subset of the operations builds from these records; it takes them).
    pub log: Option<Vec<Applied>>,
    pub(super) bytes: u64,
    pub(super) round: u32,
    pub(super) batch: Vec<(usize, Vec<Choice>)>,
    /// Batches submitted and not applied yet, oldest first (at most
    /// [`PIPELINE`](super::send::PIPELINE)).
    pub(super) inflight: std::collections::VecDeque<Vec<Meta>>,
    pub(super) started: Instant,
    /// Combinations to run again (their prototype was gone), in the current round.
    pub(super) requeue: Vec<(usize, Vec<Choice>)>,
    /// Kept structures whose contracts were checked: `kept[..contracts_done]`.
    pub(super) contracts_done: usize,
    /// Promotions waiting for the next request to each worker: (retain, statement, kept).
    pub(super) promotions: Vec<Vec<(u32, u32, u32)>>,
    /// Highest retain id whose results were applied (candidates up to it can be forgotten).
    pub(super) applied_retain: u32,
    pub(super) next_retain: u32,
    pub(super) round_robin: usize,
    pub(super) restarts_seen: Vec<u64>,
    pub(super) cache: RefCell<HashMap<u32, (SeqRef, u32)>>,
    /// Sequences that ran from a prototype copy / from scratch / rebuilt a prototype.
    pub from_prototype: u64,
    pub from_scratch: u64,
    pub rebuilt: u64,
    /// Why prototype reuse was switched off during the run, if it was.
    pub reuse_disabled: Option<String>,
    /// Every literal of every domain, and where each (usable, parameter) domain starts in it
    /// (bulk requests refer to literals by index).
    pub(super) lit_table: Vec<Stmt>,
    pub(super) lit_base: Vec<Vec<u32>>,
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

/// What was sent for one request, to interpret its result.
pub(super) struct Meta {
    pub(super) ui: usize,
    pub(super) choice: Box<[Choice]>,
    /// Statement of each canonicalized value, in `Kept::which` order.
    pub(super) canon: Vec<u32>,
    pub(super) requested: usize,
    pub(super) len: usize,
    /// Statements that were prototype copies.
    pub(super) protos: Vec<u32>,
    pub(super) worker: usize,
    pub(super) retain: u32,
    /// A rebuild of this kept entry's prototype (not a combination of the search).
    pub(super) rebuild: Option<u32>,
    pub(super) seq: SeqRef,
    /// Index of its request in the batch, and its task there for a bulk request.
    pub(super) req: usize,
    pub(super) task: Option<u32>,
    /// Position of the combination in its batch (results are applied in this order).
    pub(super) order: u32,
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

    /// Builds the sequence for a combination; returns it with the statements to canonicalize.
    pub(super) fn build(&self, ui: usize, choice: &[Choice]) -> (Sequence, Vec<u32>) {
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
    pub(super) fn build_short(
        &self,
        ui: usize,
        choice: &[Choice],
    ) -> (Sequence, Vec<u32>, Vec<(u32, u32)>) {
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

    pub(super) fn class_id(&mut self, c: &Arc<str>) -> u32 {
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
}
