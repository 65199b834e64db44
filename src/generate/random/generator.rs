//! The generator's configuration and state (`GenConfig`, `Generator`), the sequences it
//! builds (`Draft`, `Built`), and its queries on the static types of values: type ids,
//! subtyping, which types with reusable values fit a parameter; and its public accessors.

use super::candidates::{
    Candidate, CompRef, Component, DefectKey, ErrorCandidate, Incident, OpStat, Progress, TypeId,
};
use super::guide::{CovGuide, Steer};
use crate::generate::assist::{Assist, AssistStats};
use crate::generate::bloom::Bloom;
use crate::generate::hangs::HangingValues;
use crate::generate::literals::LiteralPool;
use crate::generate::ops::OpSet;
use crate::model::{JType, Model};
use crate::report::StopReason;
use crate::runner::InputCause;
use crate::sequence::{OpId, SeqRef, Sequence};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone, Debug)]
pub struct GenConfig {
    pub seed: u64,
    pub time_limit: Option<Duration>,
    pub generated_limit: Option<u64>,
    pub error_exceptions: HashSet<String>,
    pub adaptive: bool,
    pub batch_size: usize,
    /// Longest sequence generated (Randoop's maxsize).
    pub max_len: usize,
    /// Reusable values kept per type (older ones are replaced at random beyond this).
    pub max_per_type: usize,
    /// Regression candidates kept (a random sample when more are found).
    pub max_candidates: usize,
    /// An operation blamed this many times for a timeout or crash is excluded.
    pub blame_limit: u32,
    /// With coverage: stop when no new branch was covered for this long.
    pub stop_on_plateau: Option<Duration>,
    /// With coverage: use it to guide generation (false: only measure it).
    pub guidance: bool,
    /// At most how many sequences the run makes, when known to be few: sizes the sets of
    /// sequences, values and results seen (`None`: room for 20 million, 100 MiB). A
    /// generator of a class among hundreds (`gen --per-class`) had spent more time zeroing
    /// those than generating.
    pub expected_sequences: Option<u64>,
    /// `generated_limit` is the earlier run's budget replayed (`emit::suite::Replay`), not
    /// the user's: the stop reason says so.
    pub replayed: bool,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            seed: 0,
            time_limit: Some(Duration::from_secs(60)),
            generated_limit: None,
            error_exceptions: HashSet::new(),
            adaptive: false,
            batch_size: 256,
            max_len: 100,
            max_per_type: 1000,
            max_candidates: 4000,
            blame_limit: 3,
            stop_on_plateau: None,
            guidance: true,
            expected_sequences: None,
            replayed: false,
        }
    }
}

/// log2 of the bits of the set of sequences seen: 29 (64 MiB, ~1e-4 false positives at 20
/// million sequences), or for `expected` sequences about 32 bits each (the same rate), at
/// least 2^20.
fn seen_bits(expected: Option<u64>) -> u32 {
    match expected {
        Some(n) => (n.saturating_mul(32).max(1).ilog2() + 1).clamp(20, 29),
        None => 29,
    }
}

/// A sequence being assembled.
pub(super) struct Draft {
    pub(super) seq: Sequence,
    pub(super) tids: Vec<Option<TypeId>>,
    pub(super) has_null: bool,
    /// Runtime classes of the object values taken from the reusable values.
    pub(super) classes: Vec<Arc<str>>,
}

/// A reusable value: (component, statement, runtime class when the value is an object).
pub(super) type Reusable = (CompRef, u32, Option<Arc<str>>);

pub(super) struct Built {
    pub(super) comp: Component,
    pub(super) op: OpId,
    pub(super) parents: Vec<u64>,
    /// Runtime classes of the reused object values (see `generate::hangs`).
    pub(super) classes: Vec<Arc<str>>,
}

pub struct Generator<'a> {
    pub ops: &'a OpSet,
    pub(super) model: &'a Model,
    pub cfg: GenConfig,
    pub(super) rng: ChaCha8Rng,
    /// The stream of String mutants (`assemble::string_mutant`): apart from `rng`, so that
    /// mutating a String literal changes that literal and not every later choice of the
    /// run (a run's other values and operations stay the ones `--seed` gave before).
    pub(super) shape_rng: ChaCha8Rng,
    pub literals: LiteralPool,
    pub(super) types: Vec<JType>,
    pub(super) type_ids: HashMap<JType, TypeId>,
    pub(super) subtype: HashMap<(TypeId, TypeId), bool>,
    /// Needed type -> (component types assignable to it, how many types were checked).
    pub(super) assignable: HashMap<TypeId, (Vec<TypeId>, usize)>,
    /// Reusable values by exact static type: (component, statement, runtime class of an
    /// object value).
    pub(super) by_type: Vec<Vec<Reusable>>,
    pub(super) seen_seqs: Bloom,
    /// Applying the results of an earlier run's error-revealing tests (`replay_errors`).
    pub(super) replaying: bool,
    pub(super) seen_values: Bloom,
    /// (operation, 64-bit hash of a returned value): hashes, not values, because returned
    /// Strings (toString of large collections) would otherwise fill memory.
    pub(super) seen_results: Bloom,
    /// (operation, path, hash of a returned value): a value the operation returned before
    /// is still a candidate on a path where it did not (see `learn`).
    pub(super) seen_path_results: Bloom,
    /// [`Generator::path_ranges_of`] per operation, at its first use.
    pub(super) path_ranges: HashMap<OpId, Arc<[(u32, u32)]>>,
    pub(super) seen_exceptions: HashSet<(OpId, String)>,
    pub(super) cands_per_op: Vec<u32>,
    pub stats: Vec<OpStat>,
    pub(super) blame: Vec<u32>,
    pub candidates: Vec<Candidate>,
    /// Candidates that covered a probe no earlier sequence had covered. They are never
    /// evicted (at most one per probe), so the written suite can keep every probe a legal
    /// sequence of the run reached; `candidates` is a random sample of the others.
    pub coverage_candidates: Vec<Candidate>,
    pub(super) next_cand: u64,
    pub(super) cand_seen: u64,
    pub(super) subsumed: HashSet<u64>,
    pub errors: BTreeMap<DefectKey, ErrorCandidate>,
    pub incidents: Vec<Incident>,
    /// Sequences whose contract violation (or contract-breaking exception) an input caused
    /// (a callback argument threw, a comparator argument breaks its contract), by cause: set
    /// aside as invalid inputs, not error tests, and counted so that nothing is hidden.
    pub set_aside: BTreeMap<InputCause, u64>,
    pub progress: Progress,
    /// Why generation ended: "time-limit", "generated-limit", "plateau" (--stop-on-plateau)
    /// or "exhausted" (repeated batches made no new sequence).
    pub stop_reason: StopReason,
    pub(super) op_ret: Vec<Option<TypeId>>,
    pub(super) op_inputs: Vec<Vec<TypeId>>,
    /// Coverage feedback, when the workers run instrumented classes.
    pub cov: Option<Box<CovGuide>>,
    /// Comparison logging: per operation, values the code compared against in sequences
    /// ending in that operation (and switch case keys it reached); used with priority for
    /// that operation's literal arguments.
    pub(super) op_literals: Vec<Option<Box<LiteralPool>>>,
    /// (operation, switch) pairs whose keys are already in `op_literals`.
    pub(super) op_switches: HashSet<(OpId, u32)>,
    /// The operation whose arguments are being picked.
    pub(super) building: Option<OpId>,
    /// A helper at coverage plateaus (`gen --concolic`, see `generate::assist`).
    pub assist: Option<Box<dyn Assist + 'a>>,
    pub assist_stats: AssistStats,
    /// Operations a call of which ran out of memory (an allocation sized by an argument,
    /// such as `ArrayList(int)` with 2^30): their integral arguments are small from then on
    /// (see `small_size`).
    pub(super) allocates: HashSet<OpId>,
    /// Runtime classes of values that made calls hang (see `generate::hangs`).
    pub hanging: HangingValues,
    /// The operations of generation's pool (`OpSet::primary`) by class under test, and each
    /// class's weight in the choice of the next operation (see `refresh_class_weights`).
    pub(super) class_ops: Vec<Vec<OpId>>,
    pub(super) class_weight: Vec<f64>,
    /// The project's own tests' coverage, to be applied to guidance (`gen --project`).
    pub steer: Option<Steer>,
}

/// The primary operations grouped by their class under test (in the order the classes first
/// appear; operations of no class form a group of their own).
fn ops_by_class(ops: &OpSet) -> Vec<Vec<OpId>> {
    let mut groups: Vec<Vec<OpId>> = Vec::new();
    let mut index: HashMap<Option<&str>, usize> = HashMap::new();
    for &op in &ops.primary {
        let class = ops.owner_class.get(op as usize).and_then(|c| c.as_deref());
        let g = *index.entry(class).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(op);
    }
    groups
}

impl<'a> Generator<'a> {
    pub fn new(model: &'a Model, ops: &'a OpSet, literals: LiteralPool, cfg: GenConfig) -> Self {
        let n = ops.table.len();
        let bits = seen_bits(cfg.expected_sequences);
        let mut g = Generator {
            ops,
            model,
            rng: ChaCha8Rng::seed_from_u64(cfg.seed),
            shape_rng: ChaCha8Rng::seed_from_u64(cfg.seed ^ 0x5348_4150_4553),
            cfg,
            literals,
            types: Vec::new(),
            type_ids: HashMap::new(),
            subtype: HashMap::new(),
            assignable: HashMap::new(),
            by_type: Vec::new(),
            // 64 MiB for sequences (~1e-4 false positives at 20 million), 16 MiB each for
            // values and results; as much smaller as fewer sequences are expected.
            seen_seqs: Bloom::new(bits),
            replaying: false,
            seen_values: Bloom::new(bits - 2),
            seen_results: Bloom::new(bits - 2),
            seen_path_results: Bloom::new(bits - 4),
            path_ranges: HashMap::new(),
            seen_exceptions: HashSet::new(),
            cands_per_op: vec![0; n],
            stats: vec![OpStat::default(); n],
            blame: vec![0; n],
            candidates: Vec::new(),
            coverage_candidates: Vec::new(),
            next_cand: 0,
            cand_seen: 0,
            subsumed: HashSet::new(),
            errors: BTreeMap::new(),
            incidents: Vec::new(),
            set_aside: BTreeMap::new(),
            progress: Progress::default(),
            stop_reason: StopReason::Exhausted,
            op_ret: vec![None; n],
            op_inputs: vec![Vec::new(); n],
            cov: None,
            op_literals: Vec::new(),
            op_switches: HashSet::new(),
            building: None,
            assist: None,
            assist_stats: AssistStats::default(),
            allocates: HashSet::new(),
            hanging: HangingValues::default(),
            class_ops: Vec::new(),
            class_weight: Vec::new(),
            steer: None,
        };
        g.class_ops = ops_by_class(g.ops);
        // (types in the order of the operations, as a run of their classes alone numbers them)
        for id in ops.own_ids() {
            let op = ops.table.get(id);
            g.op_ret[id as usize] = op.ret.clone().map(|t| g.tid(&t));
            g.op_inputs[id as usize] = op.input_types().iter().map(|t| g.tid(t)).collect();
        }
        g
    }

    /// Turns on coverage guidance: the workers must run the classes instrumented with the
    /// probes of `tracker` (results then carry coverage). Operations are mapped to the
    /// instrumented method they run (their own class, else a method of the same name and
    /// descriptor in another instrumented class, e.g. an inherited one).
    pub fn enable_coverage(
        &mut self,
        tracker: crate::coverage::Tracker,
        maps: Vec<crate::instrument::ProbeMap>,
    ) {
        self.progress.branches = Some((0, tracker.branches));
        self.progress.lines = Some((0, tracker.lines));
        self.cov = Some(Box::new(CovGuide::new(self.ops, tracker, maps)));
    }

    /// Adds what `other` did to this generator's figures, for one report over several
    /// generators whose operation sets share one table (`gen --per-class` in one session:
    /// one generator per class, this one their sum). Counts per operation and progress add
    /// up, incidents and set-aside inputs are appended, and the coverage of `other`'s own
    /// classes (the probes its tracker counts) is added to this one's. Nothing of the search
    /// (values, candidates, seen sets) is taken.
    pub fn absorb(&mut self, other: &Generator) {
        for (mine, theirs) in self.stats.iter_mut().zip(&other.stats) {
            mine.calls += theirs.calls;
            mine.successes += theirs.successes;
            mine.exceptions += theirs.exceptions;
            mine.errors += theirs.errors;
            mine.timeouts += theirs.timeouts;
            mine.crashes += theirs.crashes;
            mine.prints += theirs.prints;
            mine.global_state += theirs.global_state;
            mine.excluded |= theirs.excluded;
        }
        self.incidents.extend(other.incidents.iter().cloned());
        for (cause, n) in &other.set_aside {
            *self.set_aside.entry(*cause).or_default() += n;
        }
        let (p, q) = (&mut self.progress, &other.progress);
        p.generated += q.generated;
        p.executed += q.executed;
        p.statements += q.statements;
        p.regression += q.regression;
        p.errors += q.errors;
        p.elapsed += q.elapsed;
        if let (Some(mine), Some(theirs)) = (self.cov.as_mut(), other.cov.as_ref()) {
            let t = &theirs.tracker;
            let own: Vec<u32> = (0..t.hit.len())
                .filter(|&i| t.hit[i] && t.info[i].method != u32::MAX)
                .map(|i| i as u32)
                .collect();
            mine.tracker.add(&own);
            mine.new_coverage_seqs += theirs.new_coverage_seqs;
            let c = &mine.tracker;
            self.progress.branches = Some((c.covered_branches, c.branches));
            self.progress.lines = Some((c.covered_lines, c.lines));
        }
    }

    /// Exclude operations the workers could not resolve.
    pub fn exclude(&mut self, op: OpId, why: &str) {
        if let Some(s) = self.stats.get_mut(op as usize)
            && !s.excluded
        {
            s.excluded = true;
            self.incidents.push(Incident {
                operation: self.ops.table.get(op).signature(),
                what: why.to_string(),
            });
        }
    }

    pub(super) fn tid(&mut self, t: &JType) -> TypeId {
        if let Some(&id) = self.type_ids.get(t) {
            return id;
        }
        let id = self.types.len() as TypeId;
        self.types.push(t.clone());
        self.type_ids.insert(t.clone(), id);
        self.by_type.push(Vec::new());
        id
    }

    pub(super) fn is_sub(&mut self, s: TypeId, t: TypeId) -> bool {
        if s == t {
            return true;
        }
        if let Some(&b) = self.subtype.get(&(s, t)) {
            return b;
        }
        let b = self
            .model
            .is_subtype(&self.types[s as usize], &self.types[t as usize]);
        self.subtype.insert((s, t), b);
        b
    }

    /// Types with reusable values that can be passed where `need` is expected.
    pub(super) fn assignable_types(&mut self, need: TypeId) -> Vec<TypeId> {
        let (mut list, checked) = self.assignable.remove(&need).unwrap_or_default();
        let n = self.types.len();
        for s in checked..n {
            if self.is_sub(s as TypeId, need) {
                list.push(s as TypeId);
            }
        }
        let out = list
            .iter()
            .copied()
            .filter(|&t| !self.by_type[t as usize].is_empty())
            .collect();
        self.assignable.insert(need, (list, n));
        out
    }

    /// The probe id ranges that make operation `op`'s path: its own method's, when it is
    /// measured; else, for an inherited method (declared outside the classes under test, such
    /// as `FilterInputStream.read(byte[])` on a `Base64InputStream`), those of the receiver
    /// class's own methods of the same name, which the inherited one calls (`read(byte[], int,
    /// int)`). Why: an inherited method's calls were all one path, so its 32 looks went to
    /// whichever receivers came first; a decoding stream's reads took them all and the
    /// encoding stream's `read(byte[])`, which Codec-6's fault changes, was never asserted
    /// (Randoop's suite caught it). Nothing for `select::last_op`'s "no call", which no
    /// candidate should be, but a panic here would lose the whole run.
    pub fn path_ranges_of(&self, op: OpId) -> Vec<(u32, u32)> {
        let Some(g) = self.cov.as_ref() else {
            return Vec::new();
        };
        if op as usize >= self.ops.table.len() {
            return Vec::new();
        }
        let o = self.ops.table.get(op);
        let range =
            |m: &crate::instrument::MethodProbes| (m.first_probe, m.first_probe + m.probe_count);
        let internal = o.class.replace('.', "/");
        let own = g.maps.iter().find(|m| m.class_name == internal);
        if let Some(m) = own.and_then(|map| {
            map.methods
                .iter()
                .find(|m| m.name == o.name && m.descriptor == o.descriptor)
        }) {
            return vec![range(m)];
        }
        let receiver = match (&o.kind, &o.owner) {
            (crate::sequence::OpKind::Method, JType::Class { name, .. }) => name.replace('.', "/"),
            _ => return Vec::new(),
        };
        g.maps
            .iter()
            .filter(|m| m.class_name == receiver)
            .flat_map(|map| map.methods.iter().filter(|m| m.name == o.name).map(range))
            .collect()
    }

    /// Can generated tests name this class?
    pub fn is_accessible(&self, class: &str) -> bool {
        self.model.is_accessible(class)
    }

    /// Whether probe `id` belongs to a JDK class (see `CovGuide::jdk`).
    pub fn is_jdk_probe(&self, id: u32) -> bool {
        self.cov
            .as_ref()
            .is_some_and(|g| g.jdk.get(id as usize).copied().unwrap_or(false))
    }

    /// The model of the classes under test.
    pub fn model(&self) -> &'a Model {
        self.model
    }

    pub fn static_type(&self, t: TypeId) -> &JType {
        &self.types[t as usize]
    }

    /// The values kept for reuse (at most `max_per_type` per static type), as the sequence
    /// building each and its statement: the objects later calls could take as inputs.
    /// `jforge builders --compare-gen` measures their diversity (seed 004's experiment).
    pub fn reusable_values(&self) -> impl Iterator<Item = (&JType, &SeqRef, u32)> + '_ {
        self.by_type.iter().enumerate().flat_map(move |(t, vals)| {
            vals.iter()
                .map(move |(c, stmt, _)| (&self.types[t], &c.seq, *stmt))
        })
    }
}
