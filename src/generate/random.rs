//! Feedback-directed random generation (Randoop, seed 003 ch. 5 and 7).
//!
//! Each step picks an operation, assembles its inputs from values of earlier sequences (the
//! component set), drops duplicates before execution, and learns from the outcome: illegal
//! sequences are discarded, new values become reusable, contract violations become error
//! candidates and new behaviour becomes regression candidates.
//!
//! Determinism: sequences are built in batches of fixed size and executed by the pool while
//! the next batch is built (a fixed lag of one batch); results are applied in order. With a
//! count-based stop, the outcome therefore depends only on the seed, never on the number of
//! workers or on timing. Novelty of values is decided here from the fingerprints the
//! workers report (equal values give equal fingerprints in every JVM), not from a value set
//! inside one worker, for the same reason.

use super::assist::{Assist, AssistStats, Stalled, StalledOp};
use super::bloom::Bloom;
use super::hangs::HangingValues;
use super::literals::LiteralPool;
use super::ops::{OpSet, is_literal_type};
use crate::instrument::ProbeKind;
use crate::model::{JType, Model};
use crate::runner::{
    CrashKind, ExecMode, ExecRequest, InputCause, Observed, Pool, SeqResult, StmtOutcome,
};
use crate::sequence::{OpId, OpKind, SeqRef, Sequence, Stmt, Value};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub type TypeId = u32;

/// Pseudo-exception the worker reports for a call that printed more than 1 MiB.
pub const EXCESSIVE_OUTPUT: &str = "jforge.ExcessiveOutput";
/// Pseudo-exception the worker reports, when [`CONSOLE_PROPERTY`] is `quiet`, for a call that
/// printed anything to System.out/err: its sequence is never written as a test.
pub const PRINTS_TO_CONSOLE: &str = "jforge.PrintsToConsole";
/// The worker's system property that turns on [`PRINTS_TO_CONSOLE`].
pub const CONSOLE_PROPERTY: &str = "jforge.console";

/// Why generation ended: the stop reasons every command shares.
pub use crate::report::StopReason;

/// Why a statement is blamed.
enum Blame {
    Timeout,
    Crash(CrashKind),
    Output,
}

/// The exception a statement threw (borrowed from its result).
struct Thrown<'r> {
    /// The statement that threw.
    at: usize,
    class: &'r str,
    public_class: &'r str,
}

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
        }
    }
}

/// A sequence being assembled.
struct Draft {
    seq: Sequence,
    tids: Vec<Option<TypeId>>,
    has_null: bool,
    /// Runtime classes of the object values taken from the reusable values.
    classes: Vec<Arc<str>>,
}

/// A sequence with the static type of each statement's value.
#[derive(Debug)]
pub struct Component {
    pub seq: SeqRef,
    pub tids: Vec<Option<TypeId>>,
    /// Some statement takes a `null` literal (an NPE is then expected behaviour).
    pub has_null: bool,
    /// Regression candidate id of this sequence, if it is one.
    pub cand: Option<u64>,
}

pub type CompRef = Arc<Component>;

/// A reusable value: (component, statement, runtime class when the value is an object).
type Reusable = (CompRef, u32, Option<Arc<str>>);

/// How a regression candidate ends.
#[derive(Clone, Debug, PartialEq)]
pub enum CandEnding {
    Normal,
    Exception(String),
}

#[derive(Clone, Debug)]
pub struct Candidate {
    pub id: u64,
    pub comp: CompRef,
    pub ending: CandEnding,
    /// With coverage: the probes this sequence hit when it was generated (sorted ids), so
    /// that the written suite can be chosen to keep the run's coverage (`finish::select`).
    pub cov: Option<Arc<[u32]>>,
}

/// What an error-revealing sequence breaks.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Violation {
    /// The last statement throws `class`; `contract` names why that is an error.
    Exception {
        contract: &'static str,
        class: String,
    },
    /// Object contract on the values of statements a (and b).
    Contract {
        contract: crate::runner::Contract,
        a: u32,
        b: Option<u32>,
    },
}

impl Violation {
    pub fn contract_name(&self) -> &'static str {
        match self {
            Violation::Exception { contract, .. } => contract,
            Violation::Contract { contract, .. } => contract.name(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct ErrorCandidate {
    pub comp: CompRef,
    pub violation: Violation,
    /// Operation of the statement where it shows (the thrower, or the producer of value a),
    /// in the shortest sequence.
    pub op: OpId,
    /// How many sequences showed this defect.
    pub count: u64,
    /// The operations through which it showed (the "routes": one for an exception
    /// contract; for an object contract, each operation that produced a breaking value).
    pub routes: BTreeSet<OpId>,
    /// For an object contract: the class whose contract breaks (see [`DefectKey`]).
    pub class: Option<Arc<str>>,
}

/// The input that caused the exception statement `at` threw, if the worker blamed one.
pub fn thrown_cause(r: &SeqResult, at: usize) -> Option<InputCause> {
    match &r.thrown {
        Some((s, blame)) if *s as usize == at => blame.cause,
        _ => None,
    }
}

/// One defect, however many sequences show it: an exception contract
/// (`npe-without-null-input`, ...) is a defect of the operation that throws; a broken object
/// contract (equals, hashCode, compareTo, toString) is a defect of the class of the value
/// that breaks it (its runtime class, or the declaring class of the operation that produced
/// it when the value is a String, boxed value or enum), whichever operation built it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DefectKey {
    Exception {
        op: OpId,
        contract: &'static str,
    },
    Contract {
        class: Arc<str>,
        contract: crate::runner::Contract,
    },
    /// An exception contract whose throw site is known (`Class.method (line N)` in a class
    /// under test): one defect however many operations (`TransformIterator.hasNext()`,
    /// `Iterator.hasNext()` on it) reach that line.
    ThrowSite {
        site: Arc<str>,
        contract: &'static str,
    },
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct OpStat {
    pub calls: u64,
    pub successes: u64,
    pub exceptions: u64,
    pub errors: u64,
    pub timeouts: u64,
    pub crashes: u64,
    /// Calls that printed to System.out/err (with gen's quiet console).
    pub prints: u64,
    pub excluded: bool,
}

/// Progress figures shown while generating.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub generated: u64,
    pub executed: u64,
    pub statements: u64,
    pub regression: usize,
    pub errors: usize,
    pub elapsed: Duration,
    /// With coverage: (covered, total) branch and line probes.
    pub branches: Option<(u32, u32)>,
    pub lines: Option<(u32, u32)>,
}

impl CovGuide {
    /// Line / branch / method coverage per class so far.
    pub fn summaries(&self) -> Vec<crate::coverage::ClassSummary> {
        crate::coverage::summarize(&self.maps, &self.tracker.hit)
    }
}

/// Coverage feedback for generation (see [`Generator::enable_coverage`]).
pub struct CovGuide {
    pub tracker: crate::coverage::Tracker,
    /// Probe maps of the instrumented classes (for the per-class summary).
    pub maps: Vec<crate::instrument::ProbeMap>,
    /// Op id -> index of the tracker method whose code the op runs.
    op_method: Vec<Option<u32>>,
    /// (seconds since start, covered branches, covered lines), one point per change.
    pub series: Vec<(f64, u32, u32)>,
    /// Sequences whose coverage was new.
    pub new_coverage_seqs: u64,
    last_new_branch: Option<Instant>,
    start: Option<Instant>,
    /// Probe ids of switch cases and defaults (increasing) -> index into `switch_keys`.
    switch_probes: Vec<(u32, u32)>,
    /// The case keys of each instrumented switch.
    switch_keys: Vec<Vec<i32>>,
    /// Probe ids of static initialisers: they run in the first sequence that uses a class in
    /// each worker JVM, so which sequence carries them depends on the number of workers; a
    /// candidate's coverage leaves them out (the written suite runs them anyway).
    clinit: Vec<bool>,
    /// Probe ids of JDK classes (patched into java.base): the JVM runs them too.
    jdk: Vec<bool>,
}

/// A warning for the summary (e.g. an operation excluded after repeated crashes).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Incident {
    pub operation: String,
    pub what: String,
}

struct Pending {
    reqs: Vec<Built>,
    /// Per request: still wanted when its batch was collected (see [`Generator::wanted`]);
    /// the results of the others are dropped, whether the pool had run them or not.
    keep: Vec<bool>,
}

struct Built {
    comp: Component,
    op: OpId,
    parents: Vec<u64>,
    /// Runtime classes of the reused object values (see `super::hangs`).
    classes: Vec<Arc<str>>,
}

pub struct Generator<'a> {
    pub ops: &'a OpSet,
    model: &'a Model,
    pub cfg: GenConfig,
    rng: ChaCha8Rng,
    pub literals: LiteralPool,
    types: Vec<JType>,
    type_ids: HashMap<JType, TypeId>,
    subtype: HashMap<(TypeId, TypeId), bool>,
    /// Needed type -> (component types assignable to it, how many types were checked).
    assignable: HashMap<TypeId, (Vec<TypeId>, usize)>,
    /// Reusable values by exact static type: (component, statement, runtime class of an
    /// object value).
    by_type: Vec<Vec<Reusable>>,
    seen_seqs: Bloom,
    seen_values: Bloom,
    /// (operation, 64-bit hash of a returned value): hashes, not values, because returned
    /// Strings (toString of large collections) would otherwise fill memory.
    seen_results: Bloom,
    seen_exceptions: HashSet<(OpId, String)>,
    cands_per_op: Vec<u32>,
    pub stats: Vec<OpStat>,
    blame: Vec<u32>,
    pub candidates: Vec<Candidate>,
    /// Candidates that covered a probe no earlier sequence had covered. They are never
    /// evicted (at most one per probe), so the written suite can keep every probe a legal
    /// sequence of the run reached; `candidates` is a random sample of the others.
    pub coverage_candidates: Vec<Candidate>,
    next_cand: u64,
    cand_seen: u64,
    subsumed: HashSet<u64>,
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
    op_ret: Vec<Option<TypeId>>,
    op_inputs: Vec<Vec<TypeId>>,
    /// Coverage feedback, when the workers run instrumented classes.
    pub cov: Option<Box<CovGuide>>,
    /// Comparison logging: per operation, values the code compared against in sequences
    /// ending in that operation (and switch case keys it reached); used with priority for
    /// that operation's literal arguments.
    op_literals: Vec<Option<Box<LiteralPool>>>,
    /// (operation, switch) pairs whose keys are already in `op_literals`.
    op_switches: HashSet<(OpId, u32)>,
    /// The operation whose arguments are being picked.
    building: Option<OpId>,
    /// A helper at coverage plateaus (`gen --concolic`, see `super::assist`).
    pub assist: Option<Box<dyn Assist + 'a>>,
    pub assist_stats: AssistStats,
    /// Operations a call of which ran out of memory (an allocation sized by an argument,
    /// such as `ArrayList(int)` with 2^30): their integral arguments are small from then on
    /// (see `small_size`).
    allocates: HashSet<OpId>,
    /// Runtime classes of values that made calls hang (see `super::hangs`).
    pub hanging: HangingValues,
    /// The operations of generation's pool (`OpSet::primary`) by class under test, and each
    /// class's weight in the choice of the next operation (see `refresh_class_weights`).
    class_ops: Vec<Vec<OpId>>,
    class_weight: Vec<f64>,
}

/// The largest integral argument an operation that ran out of memory gets from the run's
/// literal pool: capacities and counts up to 1024 exercise the code, 2^30 only the heap
/// (guava collect: 227 OutOfMemoryErrors in 120 s, each a sequence lost plus full
/// collections). Values its own comparisons logged are still used (`op_literals`), so a
/// branch on a larger size stays reachable.
const SMALL_SIZE: i64 = 1024;

/// Batches in a row that built no new sequence before a run calls itself exhausted.
const IDLE_BATCHES_TO_EXHAUST: u32 = 20;

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

/// The most uncovered branches that raise a class's weight: past it, a big class does not
/// starve the others.
const CLASS_UNCOVERED_CAP: u32 = 200;

/// Whether a parameter of this type can size an allocation: `int`, `long` and their boxes
/// (a `short` or `byte` cannot ask for more than 32767 elements).
fn sizes(t: &JType) -> bool {
    match t {
        JType::Prim(p) => matches!(p, crate::model::Prim::Int | crate::model::Prim::Long),
        JType::Class { name, .. } => name == "java.lang.Integer" || name == "java.lang.Long",
        _ => false,
    }
}

/// Whether an integral literal is small enough for an operation that allocates by its
/// arguments (other values are: they size nothing).
fn small_size(v: &Value) -> bool {
    match v {
        Value::Int(i) => i64::from(*i).abs() <= SMALL_SIZE,
        Value::Long(l) => l.unsigned_abs() <= SMALL_SIZE as u64,
        _ => true,
    }
}

/// Whether a call of `op` takes an integral literal too large for an allocating operation.
fn oversized_args(seq: &Sequence, args: &[u32]) -> bool {
    args.iter().any(|&a| {
        matches!(seq.stmts.get(a as usize), Some(Stmt::Lit { value, .. }) if !small_size(value))
    })
}

/// Whether `seq` calls an operation of `allocates` with a large integral literal.
fn oversized_call(seq: &Sequence, allocates: &HashSet<OpId>) -> bool {
    seq.stmts.iter().any(|s| {
        matches!(s, Stmt::Call { op, args } if allocates.contains(op) && oversized_args(seq, args))
    })
}

/// The operations of the calls that made the inputs of statement `i` (transitively), taking
/// a large integral literal: where a size stored for later came from.
fn sized_makers(seq: &Sequence, i: usize) -> Vec<OpId> {
    let mut out = Vec::new();
    let mut seen = vec![false; seq.len()];
    let mut stack: Vec<u32> = seq.stmts.get(i).map_or(&[][..], |s| s.inputs()).to_vec();
    while let Some(j) = stack.pop() {
        let j = j as usize;
        if j >= seq.len() || std::mem::replace(&mut seen[j], true) {
            continue;
        }
        if let Stmt::Call { op, args } = &seq.stmts[j]
            && oversized_args(seq, args)
        {
            out.push(*op);
        }
        stack.extend_from_slice(seq.stmts[j].inputs());
    }
    out
}

/// Values kept per operation in its comparison pool; more are ignored.
const MAX_OP_LITERALS: usize = 256;
/// Chance that a literal argument of an operation with a comparison pool comes from it.
const OP_LITERAL_P: f64 = 0.5;

impl<'a> Generator<'a> {
    pub fn new(model: &'a Model, ops: &'a OpSet, literals: LiteralPool, cfg: GenConfig) -> Self {
        let n = ops.table.len();
        let mut g = Generator {
            ops,
            model,
            rng: ChaCha8Rng::seed_from_u64(cfg.seed),
            cfg,
            literals,
            types: Vec::new(),
            type_ids: HashMap::new(),
            subtype: HashMap::new(),
            assignable: HashMap::new(),
            by_type: Vec::new(),
            // 64 MiB for sequences (~1e-4 false positives at 20 million), 16 MiB each for
            // values and results.
            seen_seqs: Bloom::new(29),
            seen_values: Bloom::new(27),
            seen_results: Bloom::new(27),
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
            op_ret: Vec::with_capacity(n),
            op_inputs: Vec::with_capacity(n),
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
        };
        g.class_ops = ops_by_class(g.ops);
        for (_, op) in ops.table.iter() {
            let r = op.ret.clone().map(|t| g.tid(&t));
            let ins = op.input_types().iter().map(|t| g.tid(t)).collect();
            g.op_ret.push(r);
            g.op_inputs.push(ins);
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
        let mut by_key: HashMap<(&str, &str, &str), u32> = HashMap::new();
        let mut by_sig: HashMap<(&str, &str), u32> = HashMap::new();
        for (i, m) in tracker.methods.iter().enumerate() {
            by_key.insert((&m.class, &m.name, &m.descriptor), i as u32);
            by_sig.entry((&m.name, &m.descriptor)).or_insert(i as u32);
        }
        let op_method = self
            .ops
            .table
            .iter()
            .map(|(_, op)| {
                by_key
                    .get(&(op.class.as_str(), op.name.as_str(), op.descriptor.as_str()))
                    .or_else(|| by_sig.get(&(op.name.as_str(), op.descriptor.as_str())))
                    .copied()
            })
            .collect();
        self.progress.branches = Some((0, tracker.branches));
        self.progress.lines = Some((0, tracker.lines));
        // Switches: their probes (cases and default share the switch's method and offset).
        let mut switch_at: BTreeMap<(usize, u32, u32), u32> = BTreeMap::new();
        let mut switch_keys: Vec<Vec<i32>> = Vec::new();
        let mut switch_probes = Vec::new();
        for (mi, m) in maps.iter().enumerate() {
            for p in &m.probes {
                let key = match p.kind {
                    ProbeKind::SwitchCase { key } => Some(key),
                    ProbeKind::SwitchDefault => None,
                    _ => continue,
                };
                let k = *switch_at
                    .entry((mi, p.method, p.offset))
                    .or_insert_with(|| {
                        switch_keys.push(Vec::new());
                        switch_keys.len() as u32 - 1
                    });
                if let Some(key) = key {
                    switch_keys[k as usize].push(key);
                }
                switch_probes.push((p.id, k));
            }
        }
        switch_probes.sort_unstable();
        let mut clinit = vec![false; tracker.hit.len()];
        let mut jdk = vec![false; tracker.hit.len()];
        for m in &maps {
            if ["java/", "javax/", "jdk/", "sun/", "com/sun/"]
                .iter()
                .any(|p| m.class_name.starts_with(p))
            {
                for p in &m.probes {
                    if let Some(j) = jdk.get_mut(p.id as usize) {
                        *j = true;
                    }
                }
            }
            for p in &m.probes {
                if m.methods
                    .get(p.method as usize)
                    .is_some_and(|mp| mp.name == "<clinit>")
                    && let Some(c) = clinit.get_mut(p.id as usize)
                {
                    *c = true;
                }
            }
        }
        self.cov = Some(Box::new(CovGuide {
            clinit,
            jdk,
            tracker,
            maps,
            op_method,
            series: vec![(0.0, 0, 0)],
            new_coverage_seqs: 0,
            last_new_branch: None,
            start: None,
            switch_probes,
            switch_keys,
        }));
    }

    /// A sequence's coverage as a candidate keeps it: without static initialisers (see
    /// `CovGuide::clinit`).
    fn candidate_cov(&self, r: &SeqResult) -> Option<Arc<[u32]>> {
        let ids = r.coverage.as_ref()?;
        let Some(g) = self.cov.as_ref() else {
            return Some(ids.clone());
        };
        let is_clinit = |id: &u32| g.clinit.get(*id as usize).copied().unwrap_or(false);
        if !ids.iter().any(is_clinit) {
            return Some(ids.clone());
        }
        Some(ids.iter().filter(|id| !is_clinit(id)).copied().collect())
    }

    /// Adds a sequence's coverage. Returns whether it covered a probe no earlier sequence
    /// did (such a sequence is always kept as a candidate, guided or not: the written suite
    /// must keep the run's coverage), and whether that should steer generation (guidance on).
    fn take_coverage(&mut self, r: &SeqResult) -> (bool, bool) {
        let (Some(g), Some(ids)) = (self.cov.as_mut(), r.coverage.as_ref()) else {
            return (false, false);
        };
        let (nb, nl) = g.tracker.add(ids);
        if nb > 0 {
            g.last_new_branch = Some(Instant::now());
        }
        if nb + nl > 0 {
            g.new_coverage_seqs += 1;
        }
        (nb + nl > 0, nb + nl > 0 && self.cfg.guidance)
    }

    /// Comparison logging: values the classes under test compared against in this sequence
    /// become literals, globally and (with value ± 1 for numbers, to flip `<` versus `<=`)
    /// for the sequence's final operation, which reached the comparison; so do the case keys
    /// of the switches it reached (known statically from their probes). An operand equal to
    /// a literal of the sequence is most likely that literal, the input, not the value it was
    /// compared against: it is skipped, so the pool is not flooded with inputs ± 1.
    fn learn_compared(&mut self, op: OpId, seq: &Sequence, r: &SeqResult) {
        if r.compared.is_empty() && r.compared_nums.is_empty() && r.coverage.is_none() {
            return;
        }
        let mut switches: Vec<u32> = Vec::new();
        if let (Some(g), Some(ids)) = (self.cov.as_ref(), r.coverage.as_ref())
            && !g.switch_probes.is_empty()
        {
            // Both lists are increasing: a merge walk.
            let sp = &g.switch_probes;
            let mut k = 0;
            for &id in ids.iter() {
                while k < sp.len() && sp[k].0 < id {
                    k += 1;
                }
                if k == sp.len() {
                    break;
                }
                if sp[k].0 == id && self.op_switches.insert((op, sp[k].1)) {
                    switches.push(sp[k].1);
                }
            }
        }
        if r.compared.is_empty() && r.compared_nums.is_empty() && switches.is_empty() {
            return;
        }
        let mut input_nums: Vec<i64> = Vec::new();
        let mut input_strs: Vec<&str> = Vec::new();
        for st in &seq.stmts {
            if let Stmt::Lit { value, .. } = st {
                match value {
                    Value::Byte(v) => input_nums.push(*v as i64),
                    Value::Short(v) => input_nums.push(*v as i64),
                    Value::Char(v) => input_nums.push(*v as i64),
                    Value::Int(v) => input_nums.push(*v as i64),
                    Value::Long(v) => input_nums.push(*v),
                    Value::Str(s) => input_strs.push(s),
                    _ => {}
                }
            }
        }
        let strs: Vec<&String> = r
            .compared
            .iter()
            .filter(|s| !input_strs.contains(&s.as_str()))
            .collect();
        let nums: Vec<i64> = r
            .compared_nums
            .iter()
            .copied()
            .filter(|v| !input_nums.contains(v))
            .collect();
        for s in &strs {
            self.literals.add_string(s);
        }
        for &v in &nums {
            self.literals.add_compared(v, false);
        }
        let i = op as usize;
        if self.op_literals.len() <= i {
            self.op_literals.resize_with(i + 1, || None);
        }
        let pool = self.op_literals[i].get_or_insert_with(Default::default);
        if let Some(g) = self.cov.as_ref() {
            for k in switches {
                for &key in &g.switch_keys[k as usize] {
                    if pool.len() < MAX_OP_LITERALS {
                        pool.add_compared(key as i64, true);
                    }
                }
            }
        }
        for s in strs {
            if pool.len() < MAX_OP_LITERALS {
                pool.add_string(s);
            }
        }
        for v in nums {
            for w in [Some(v), v.checked_sub(1), v.checked_add(1)]
                .into_iter()
                .flatten()
            {
                if pool.len() < MAX_OP_LITERALS {
                    pool.add_compared(w, true);
                }
            }
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

    fn tid(&mut self, t: &JType) -> TypeId {
        if let Some(&id) = self.type_ids.get(t) {
            return id;
        }
        let id = self.types.len() as TypeId;
        self.types.push(t.clone());
        self.type_ids.insert(t.clone(), id);
        self.by_type.push(Vec::new());
        id
    }

    fn is_sub(&mut self, s: TypeId, t: TypeId) -> bool {
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
    fn assignable_types(&mut self, need: TypeId) -> Vec<TypeId> {
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

    // ---------------------------------------------------------------- assembling

    /// Each class's weight in the choice of the next operation, from the coverage so far
    /// (once per batch): 1 + a tenth of the uncovered branches of the methods its operations
    /// run (at most [`CLASS_UNCOVERED_CAP`]), counting only operations that have run at
    /// least once (reachable: a class nothing can build a receiver for keeps weight 1
    /// instead of drawing picks that fail to assemble), 0 when all its operations are
    /// excluded. Why: picking operations uniformly gave a class with 100 methods 100 times
    /// the sequences of one with a method, covered or not; now every class gets a share
    /// and the time goes where branches are left (issue 22, req. 6). Without coverage or
    /// guidance every class weighs 1.
    ///
    /// Deterministic whatever the number of workers: the tracker is fed with results in
    /// generation order (`Pool::collect` returns them in request order), a batch is built
    /// from the results of the batches before the one in flight, and the worker leaves out
    /// of a sequence's probes what ran before its first statement (its own bookkeeping on
    /// instrumented JDK classes, which depends on that worker's history; see
    /// ARCHITECTURE.md, "Budget by class").
    fn refresh_class_weights(&mut self) {
        let mut seen: HashSet<u32> = HashSet::new();
        let guided = self.cfg.guidance;
        self.class_weight = self
            .class_ops
            .iter()
            .map(|ops| {
                if ops.iter().all(|&o| self.stats[o as usize].excluded) {
                    return 0.0;
                }
                let Some(g) = self.cov.as_ref().filter(|_| guided) else {
                    return 1.0;
                };
                seen.clear();
                let uncovered: u32 = ops
                    .iter()
                    .filter(|&&o| self.stats[o as usize].calls > 0)
                    .filter_map(|&o| g.op_method[o as usize])
                    .filter(|&m| seen.insert(m))
                    .map(|m| {
                        let m = &g.tracker.methods[m as usize];
                        m.branches - m.covered_branches
                    })
                    .sum();
                1.0 + f64::from(uncovered.min(CLASS_UNCOVERED_CAP)) / 10.0
            })
            .collect();
    }

    /// The class whose operation comes next, by weight (`None` with one class, or none
    /// weighs anything).
    fn pick_class(&mut self) -> Option<usize> {
        if self.class_ops.len() < 2 || self.class_weight.len() != self.class_ops.len() {
            return None;
        }
        let total: f64 = self.class_weight.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let mut x = self.rng.random::<f64>() * total;
        for (i, w) in self.class_weight.iter().enumerate() {
            x -= w;
            if *w > 0.0 && x <= 0.0 {
                return Some(i);
            }
        }
        self.class_weight.iter().rposition(|&w| w > 0.0)
    }

    /// The operations not excluded of the pool the next pick draws from: a class's
    /// (`pick_class`), helpers' (`use_secondary`) or views'.
    fn live_pool(&mut self, use_secondary: bool, use_views: bool) -> Vec<OpId> {
        let class = if use_views || use_secondary || self.ops.primary.is_empty() {
            None
        } else {
            self.pick_class()
        };
        let pool = if use_views {
            &self.ops.views
        } else if use_secondary || self.ops.primary.is_empty() {
            &self.ops.secondary
        } else if let Some(c) = class {
            &self.class_ops[c]
        } else {
            &self.ops.primary
        };
        let live: Vec<OpId> = pool
            .iter()
            .copied()
            .filter(|&o| !self.stats[o as usize].excluded)
            .collect();
        if live.is_empty() && class.is_some() {
            // excluded since the weights were set: any class's
            return self
                .ops
                .primary
                .iter()
                .copied()
                .filter(|&o| !self.stats[o as usize].excluded)
                .collect();
        }
        live
    }

    fn pick_op(&mut self) -> Option<OpId> {
        let use_secondary = !self.ops.secondary.is_empty() && self.rng.random_bool(0.1);
        // Coverage guidance reaches nested classes under test through the objects
        // operations return (OpSet::views): a quarter of the choices.
        let use_views = !use_secondary
            && self.cov.is_some()
            && self.cfg.guidance
            && !self.ops.views.is_empty()
            && self.rng.random_bool(0.25);
        let live = self.live_pool(use_secondary, use_views);
        if live.is_empty() {
            return None;
        }
        if let Some(g) = &self.cov
            && self.cfg.guidance
            && !use_secondary
            && self.rng.random_bool(0.5)
        {
            // Coverage guidance: weight 1 + uncovered branches of the op's own method (capped),
            // so methods whose code still has unexplored branches are called more.
            let w: Vec<f64> = live
                .iter()
                .map(|&o| {
                    let unc = g.op_method[o as usize].map_or(0, |m| {
                        let m = &g.tracker.methods[m as usize];
                        m.branches - m.covered_branches
                    });
                    1.0 + unc.min(64) as f64
                })
                .collect();
            let total: f64 = w.iter().sum();
            let mut x = self.rng.random::<f64>() * total;
            for (i, wi) in w.iter().enumerate() {
                x -= wi;
                if x <= 0.0 {
                    return Some(live[i]);
                }
            }
            return live.last().copied();
        }
        if self.cfg.adaptive && !use_secondary {
            // Weight 1 / (1 + successes): methods with few successful sequences are favoured.
            let w: Vec<f64> = live
                .iter()
                .map(|&o| 1.0 / (1.0 + self.stats[o as usize].successes as f64))
                .collect();
            let total: f64 = w.iter().sum();
            let mut x = self.rng.random::<f64>() * total;
            for (i, wi) in w.iter().enumerate() {
                x -= wi;
                if x <= 0.0 {
                    return Some(live[i]);
                }
            }
            return live.last().copied();
        }
        Some(live[self.rng.random_range(0..live.len())])
    }

    /// Build one new sequence ending in a call of `op`, or `None` when inputs are missing.
    fn assemble(&mut self, op_id: OpId) -> Option<Built> {
        let op = self.ops.table.get(op_id);
        let inputs = self.op_inputs[op_id as usize].clone();
        let mut b = Draft {
            seq: Sequence {
                stmts: Vec::with_capacity(self.cfg.max_len + 1),
            },
            tids: Vec::with_capacity(self.cfg.max_len + 1),
            has_null: false,
            classes: Vec::new(),
        };
        let mut parents = Vec::new();
        let mut args = Vec::with_capacity(inputs.len());
        let receiver_slots = usize::from(op.has_receiver() || op.outer_instance);
        // What a stub's methods return: a value of the pool (never a random null, as for a
        // receiver), `null` only when the pool has none (ops::build_ops_with_stubs).
        let stub_values = op.stub.as_ref().map_or(usize::MAX, |s| s.super_params);
        self.building = Some(op_id);
        for (i, &need) in inputs.iter().enumerate() {
            let returned = i >= stub_values;
            let idx = self
                .pick_value(
                    &mut b,
                    &mut parents,
                    need,
                    i < receiver_slots || returned,
                    0,
                )
                .or_else(|| returned.then(|| self.push_null(&mut b, need)));
            let Some(idx) = idx else {
                self.building = None;
                return None;
            };
            args.push(idx);
        }
        self.building = None;
        let call = Stmt::Call { op: op_id, args };
        let ret = self.op_ret[op_id as usize];
        b.seq.stmts.push(call.clone());
        b.tids.push(ret);
        // Repetition (p 0.1, 0..=100 more copies): what makes deep states reachable. Also
        // of a call given its own receiver (`list.addAll(list)`, `sb.append(sb)`), though
        // each copy doubles it: not repeating those cost java.util.LinkedList 4 branches of
        // the coverage corpus and StrBuilder none.
        if op.kind == OpKind::Method && self.rng.random_bool(0.1) {
            let m = self.rng.random_range(0..=100usize);
            for _ in 0..m.min(self.cfg.max_len.saturating_sub(b.seq.len())) {
                b.seq.stmts.push(call.clone());
                b.tids.push(ret);
            }
        }
        if b.seq.len() > self.cfg.max_len {
            return None;
        }
        Some(Built {
            comp: Component {
                seq: Arc::new(b.seq),
                tids: b.tids,
                has_null: b.has_null,
                cand: None,
            },
            op: op_id,
            parents,
            classes: b.classes,
        })
    }

    /// Index of a statement in `b` whose value can be passed where `need` is expected.
    fn pick_value(
        &mut self,
        b: &mut Draft,
        parents: &mut Vec<u64>,
        need: TypeId,
        receiver: bool,
        depth: u32,
    ) -> Option<u32> {
        let need_ty = self.types[need as usize].clone();
        // Reuse a value already in the sequence (not a number for an operation that
        // allocates by its arguments: it may be a large one).
        if self.rng.random_bool(0.4)
            && !(sizes(&need_ty) && self.building_allocates())
            && let Some(i) = self.reuse_in_draft(b, need, receiver)
        {
            return Some(i);
        }
        if !receiver && !need_ty.is_prim() && self.rng.random_bool(0.05) {
            return Some(self.push_null(b, need));
        }
        if is_literal_type(&need_ty) {
            return self.pick_literal(b, need, need_ty);
        }
        if let JType::Array(elem) = &need_ty {
            return self.pick_array(b, parents, need, elem, depth);
        }
        // A component sequence with a reusable value of a subtype.
        let types = self.assignable_types(need);
        let total: usize = types.iter().map(|&t| self.by_type[t as usize].len()).sum();
        if total == 0 {
            // A literal where one fits: a String for Object, CharSequence, Comparable<String>,
            // Serializable; an Integer for Number.
            for lit in [JType::string(), JType::class("java.lang.Integer")] {
                let lt = self.tid(&lit);
                if self.is_sub(lt, need) {
                    return self.pick_value(b, parents, lt, receiver, depth + 1);
                }
            }
            // A lambda for a functional interface nothing made (`forEach(Consumer)`), a
            // class literal for a `Class<X>`.
            let value = super::ops::lambda_literal(self.model, &need_ty)
                .or_else(|| super::ops::class_literal(self.model, &need_ty))?;
            b.seq.stmts.push(Stmt::Lit { ty: need_ty, value });
            b.tids.push(Some(need));
            return Some(b.seq.len() as u32 - 1);
        }
        self.append_component(b, parents, &types, total)
    }

    /// Appends a `null` of type `need` to `b`; returns its index.
    fn push_null(&self, b: &mut Draft, need: TypeId) -> u32 {
        b.seq.stmts.push(Stmt::Lit {
            ty: self.types[need as usize].clone(),
            value: Value::Null,
        });
        b.tids.push(Some(need));
        b.has_null = true;
        b.seq.len() as u32 - 1
    }

    /// A statement already in `b` whose value fits `need` (never a `null` for a receiver),
    /// chosen at random.
    fn reuse_in_draft(&mut self, b: &Draft, need: TypeId, receiver: bool) -> Option<u32> {
        let fits: Vec<u32> = (0..b.seq.len())
            .filter(|&i| {
                b.tids[i].is_some_and(|t| self.is_sub(t, need))
                    && !(receiver
                        && matches!(
                            b.seq.stmts[i],
                            Stmt::Lit {
                                value: Value::Null,
                                ..
                            }
                        ))
            })
            .map(|i| i as u32)
            .collect();
        if fits.is_empty() {
            return None;
        }
        Some(fits[self.rng.random_range(0..fits.len())])
    }

    /// Whether the operation whose arguments are being picked ran out of memory before.
    fn building_allocates(&self) -> bool {
        self.building.is_some_and(|op| self.allocates.contains(&op))
    }

    /// A literal of `need_ty` appended to `b`: from the values the operation being built
    /// compared against (half the time, when it has some), else from the run's pool (only
    /// small numbers for an operation that ran out of memory).
    fn pick_literal(&mut self, b: &mut Draft, need: TypeId, need_ty: JType) -> Option<u32> {
        let own = self
            .building
            .and_then(|op| self.op_literals.get(op as usize))
            .and_then(|p| p.as_deref())
            .and_then(|p| p.choices(&need_ty))
            .filter(|c| !c.is_empty());
        let v = if let Some(ch) = own
            && self.rng.random_bool(OP_LITERAL_P)
        {
            ch.get(self.rng.random_range(0..ch.len()))
        } else if sizes(&need_ty) && self.building_allocates() {
            let ch = self.literals.choices(&need_ty)?;
            let small: Vec<Value> = (0..ch.len())
                .map(|i| ch.get(i))
                .filter(small_size)
                .collect();
            if small.is_empty() {
                return None;
            }
            small[self.rng.random_range(0..small.len())].clone()
        } else {
            let ch = self.literals.choices(&need_ty)?;
            if ch.is_empty() {
                return None;
            }
            ch.get(self.rng.random_range(0..ch.len()))
        };
        b.seq.stmts.push(Stmt::Lit {
            ty: need_ty,
            value: v,
        });
        b.tids.push(Some(need));
        Some(b.seq.len() as u32 - 1)
    }

    /// An array of 0 to 3 elements of type `elem` appended to `b` (no arrays nested deeper
    /// than one level).
    fn pick_array(
        &mut self,
        b: &mut Draft,
        parents: &mut Vec<u64>,
        need: TypeId,
        elem: &JType,
        depth: u32,
    ) -> Option<u32> {
        if depth > 1 {
            return None;
        }
        let et = self.tid(elem);
        let n = self.rng.random_range(0..=3usize);
        let mut elems = Vec::with_capacity(n);
        for _ in 0..n {
            elems.push(self.pick_value(b, parents, et, false, depth + 1)?);
        }
        b.seq.stmts.push(Stmt::Array {
            elem: elem.clone(),
            elems,
        });
        b.tids.push(Some(need));
        Some(b.seq.len() as u32 - 1)
    }

    /// Appends to `b` a component sequence holding a reusable value of one of `types`
    /// (`total` values in all), and returns that value's statement.
    fn append_component(
        &mut self,
        b: &mut Draft,
        parents: &mut Vec<u64>,
        types: &[TypeId],
        total: usize,
    ) -> Option<u32> {
        // Tournament of two: of two random candidates the shorter sequence wins. This keeps
        // sequences (and tests) short without losing depth, which repetition provides, and
        // halves the copying that dominates the generator's time (bloat control).
        let (k1, k2) = (
            self.rng.random_range(0..total),
            self.rng.random_range(0..total),
        );
        let first = self.nth_value(types, k1);
        let second = self.nth_value(types, k2);
        let chosen = match (first, second) {
            (Some(a), Some(b2)) => Some(if b2.0.seq.len() < a.0.seq.len() {
                b2
            } else {
                a
            }),
            (a, b2) => a.or(b2),
        };
        let (comp, stmt, class) = chosen?;
        if b.seq.len() + comp.seq.len() > self.cfg.max_len {
            return None;
        }
        b.classes.extend(class);
        let off = b.seq.append(&comp.seq);
        b.tids.extend(comp.tids.iter().copied());
        b.has_null |= comp.has_null;
        if let Some(c) = comp.cand {
            parents.push(c);
        }
        Some(off + stmt)
    }

    /// The `k`-th reusable value over the lists of `types`.
    fn nth_value(&self, types: &[TypeId], mut k: usize) -> Option<Reusable> {
        for &t in types {
            let l = self.by_type[t as usize].len();
            if k < l {
                return Some(self.by_type[t as usize][k].clone());
            }
            k -= l;
        }
        None
    }

    fn build_batch(&mut self, n: usize) -> Vec<Built> {
        self.refresh_class_weights();
        let mut out = Vec::with_capacity(n);
        let mut attempts = 0;
        // An operation that crashed or timed out may end at most one sequence per batch, so
        // that a hostile method costs a few worker restarts, not a batch full of them.
        let mut suspects_used: HashSet<OpId> = HashSet::new();
        while out.len() < n && attempts < n * 20 {
            attempts += 1;
            let Some(op) = self.pick_op() else { break };
            if self.blame[op as usize] > 0 && !suspects_used.insert(op) {
                continue;
            }
            let Some(built) = self.assemble(op) else {
                continue;
            };
            let f = built.comp.seq.fingerprint();
            if !self.seen_seqs.insert(f as u64, (f >> 64) as u64) {
                continue;
            }
            out.push(built);
        }
        out
    }

    fn request(&self, b: &Built) -> ExecRequest {
        let last = b.comp.seq.len() as u32 - 1;
        let mut cv = Vec::new();
        if self.op_ret[b.op as usize].is_some_and(|t| !self.types[t as usize].is_prim()) {
            cv.push(last);
        }
        if let Stmt::Call { args, .. } = &b.comp.seq.stmts[last as usize]
            && self.ops.table.get(b.op).has_receiver()
            && let Some(&r) = args.first()
            && !cv.contains(&r)
        {
            cv.push(r);
        }
        ExecRequest {
            seq: b.comp.seq.clone(),
            mode: ExecMode::Generate,
            contract_values: cv,
            observers: Vec::new(),
            reuse: None,
        }
    }

    // ---------------------------------------------------------------- main loop

    /// Generate until the time or count limit. `tick` is called after every batch.
    ///
    /// Batch N+1 is built while batch N runs, from the results up to N-1, and submitted at
    /// once, before N is collected, so that the workers never wait for the generator. What
    /// is learnt from N about N+1 (an operation excluded, a value class found hang-prone) is
    /// applied by dropping those requests of N+1: withdrawn from the pool (not run if no
    /// worker started them) and their results ignored either way, so the generator sees what
    /// it would have seen had they never been submitted (ARCHITECTURE.md, "Determinism").
    /// When the helper of `gen --concolic` may take its turn, which needs an idle pool, N+1
    /// waits for N as before.
    pub fn run(&mut self, pool: &mut Pool, tick: &mut dyn FnMut(&Progress)) -> anyhow::Result<()> {
        let start = Instant::now();
        let mut pending: Option<Pending> = None;
        let mut batches = 0usize;
        let mut idle_batches = 0u32;
        loop {
            let plateau = match (&mut self.cov, self.cfg.stop_on_plateau) {
                (Some(g), Some(p)) => {
                    let since = *g.last_new_branch.get_or_insert(start);
                    since.elapsed() >= p
                }
                _ => false,
            };
            let time_up = self.cfg.time_limit.is_some_and(|t| start.elapsed() >= t) || plateau;
            let remaining = self
                .cfg
                .generated_limit
                .map(|l| l.saturating_sub(self.progress.generated));
            let next = if time_up || remaining == Some(0) {
                Vec::new()
            } else {
                // Batches grow from 16 to batch_size, so that early feedback (crashes, the
                // first values of each type) arrives before many sequences are built blind.
                let size = (16usize << batches.min(16)).min(self.cfg.batch_size);
                batches += 1;
                let n = remaining.map_or(size, |r| r.min(size as u64) as usize);
                let b = self.build_batch(n);
                self.progress.generated += b.len() as u64;
                b
            };
            let early = !next.is_empty() && self.assist_due(start).is_none();
            if early {
                pool.submit(next.iter().map(|b| self.request(b)).collect())?;
            }
            let had_pending = pending.is_some();
            if let Some(p) = pending.take() {
                let results = pool.collect()?;
                self.apply_kept(p, results);
            }
            if !early && let Some(deadline) = self.assist_due(start) {
                self.assist_round(pool, deadline)?;
            }
            self.note_progress(start, tick);
            let keep: Vec<bool> = next.iter().map(|b| self.wanted(b)).collect();
            if !keep.contains(&true) {
                if early {
                    // nothing of it is used: not run where not started yet
                    pool.withdraw(&(0..next.len()).collect::<Vec<_>>());
                    pool.collect()?;
                }
                let limit = time_up || remaining == Some(0);
                if !had_pending {
                    idle_batches += 1;
                }
                // The batch just applied may make new sequences possible, and random choices
                // may still find new ones: stop only at a limit or after repeated failure
                // (20 batches in a row with nothing new: up to 100,000 attempts, ~0.1 s;
                // 5 let a class whose arguments were all still null or constants stop after
                // 0.6 s of a 20 s budget).
                if !limit && (had_pending || idle_batches < IDLE_BATCHES_TO_EXHAUST) {
                    continue;
                }
                self.stop_reason = if plateau {
                    StopReason::Plateau
                } else if time_up {
                    StopReason::TimeLimit
                } else if remaining == Some(0) {
                    StopReason::GeneratedLimit
                } else {
                    StopReason::Exhausted
                };
                break;
            }
            idle_batches = 0;
            pending = Some(self.submit_wanted(pool, next, keep, early)?);
        }
        Ok(())
    }

    /// Sequences built before their operation was excluded, or a value they reuse was found
    /// to make calls hang, are not run.
    fn wanted(&self, b: &Built) -> bool {
        !self.stats[b.op as usize].excluded && !b.classes.iter().any(|c| self.hanging.is_prone(c))
    }

    /// The batch `next` in the pool with only its wanted requests (`keep`): an early batch
    /// (submitted whole) gives back the others, a held one is submitted without them.
    fn submit_wanted(
        &mut self,
        pool: &mut Pool,
        next: Vec<Built>,
        keep: Vec<bool>,
        early: bool,
    ) -> anyhow::Result<Pending> {
        if early {
            let unwanted: Vec<usize> = (0..keep.len()).filter(|&i| !keep[i]).collect();
            if !unwanted.is_empty() {
                pool.withdraw(&unwanted);
            }
            return Ok(Pending { reqs: next, keep });
        }
        let next: Vec<Built> = next
            .into_iter()
            .zip(keep)
            .filter(|x| x.1)
            .map(|x| x.0)
            .collect();
        pool.submit(next.iter().map(|b| self.request(b)).collect())?;
        Ok(Pending {
            keep: vec![true; next.len()],
            reqs: next,
        })
    }

    /// Applies the results of a collected batch's wanted requests, in input order.
    fn apply_kept(&mut self, p: Pending, results: Vec<SeqResult>) {
        let (built, results): (Vec<Built>, Vec<SeqResult>) = p
            .reqs
            .into_iter()
            .zip(results)
            .zip(p.keep)
            .filter(|x| x.1)
            .map(|x| x.0)
            .unzip();
        self.apply(built, results);
    }

    /// The progress after a batch (elapsed time, coverage and its series), given to `tick`.
    fn note_progress(&mut self, start: Instant, tick: &mut dyn FnMut(&Progress)) {
        self.progress.elapsed = start.elapsed();
        if let Some(g) = self.cov.as_mut() {
            g.start.get_or_insert(start);
            let t = &g.tracker;
            self.progress.branches = Some((t.covered_branches, t.branches));
            self.progress.lines = Some((t.covered_lines, t.lines));
            let last = g.series.last().copied().unwrap_or_default();
            if (last.1, last.2) != (t.covered_branches, t.covered_lines) {
                g.series.push((
                    self.progress.elapsed.as_secs_f64(),
                    t.covered_branches,
                    t.covered_lines,
                ));
            }
        }
        tick(&self.progress);
    }

    // ---------------------------------------------------------------- a helper at plateaus

    /// When a helper is set, coverage has not grown for [`super::assist::plateau_after`] and
    /// generation has time left: the deadline of the helper's turn.
    fn assist_due(&mut self, start: Instant) -> Option<Instant> {
        self.assist.as_ref()?;
        let g = self.cov.as_mut()?;
        let since = *g.last_new_branch.get_or_insert(start);
        if since.elapsed() < super::assist::plateau_after(self.cfg.time_limit) {
            return None;
        }
        let left = match self.cfg.time_limit {
            Some(t) => t.checked_sub(start.elapsed())?,
            None => Duration::from_secs(30),
        };
        let budget = super::assist::helper_budget(left);
        (budget >= Duration::from_millis(500)).then(|| Instant::now() + budget)
    }

    /// One turn of the helper: it gets the stalled operations, its sequences run on gen's
    /// workers and are applied like generated ones (their values join the pool, new
    /// coverage makes a regression candidate). A helper that fails is dropped with an
    /// incident; generation goes on without it.
    fn assist_round(&mut self, pool: &mut Pool, deadline: Instant) -> anyhow::Result<()> {
        let Some(mut helper) = self.assist.take() else {
            return Ok(());
        };
        let stalled = Stalled {
            ops: self.stalled_ops(),
            deadline,
        };
        let t0 = Instant::now();
        let answer = helper.plateau(&stalled);
        helper.figures(&mut self.assist_stats);
        self.assist_stats.handoffs += 1;
        self.assist_stats.seconds += t0.elapsed().as_secs_f64();
        let seqs = match answer {
            Ok(s) => {
                self.assist = Some(helper);
                s
            }
            Err(e) => {
                self.incidents.push(Incident {
                    operation: "gen --concolic".into(),
                    what: format!("the helper stopped: {e:#}"),
                });
                Vec::new()
            }
        };
        let built: Vec<Built> = seqs.into_iter().filter_map(|s| self.adopt(s)).collect();
        let before = self.cov.as_ref().map_or(0, |g| g.tracker.covered_branches);
        if !built.is_empty() {
            self.assist_stats.sequences += built.len() as u64;
            let reqs: Vec<ExecRequest> = built.iter().map(|b| self.request(b)).collect();
            let results = pool.execute(reqs)?;
            self.apply(built, results);
        }
        if let Some(g) = self.cov.as_mut() {
            self.assist_stats.new_branches += u64::from(g.tracker.covered_branches - before);
            // The plateau clock restarts: the helper had its turn.
            g.last_new_branch = Some(Instant::now());
        }
        Ok(())
    }

    /// The operations of the classes under test whose own method has uncovered branches,
    /// most uncovered first, each with its receiver and object arguments from the pool.
    fn stalled_ops(&mut self) -> Vec<StalledOp> {
        let Some(g) = self.cov.as_ref() else {
            return Vec::new();
        };
        let mut todo: Vec<(OpId, u32)> = self
            .ops
            .primary
            .iter()
            .filter(|&&op| !self.stats[op as usize].excluded)
            .filter_map(|&op| {
                let m = &g.tracker.methods[g.op_method[op as usize]? as usize];
                let uncovered = m.branches - m.covered_branches;
                (uncovered > 0).then_some((op, uncovered))
            })
            .collect();
        todo.sort_by_key(|&(op, u)| (std::cmp::Reverse(u), op));
        todo.into_iter()
            .filter_map(|(op, uncovered)| self.stalled_op(op, uncovered))
            .collect()
    }

    /// A receiver and the non-literal arguments of `op` from the pool (primitives and
    /// Strings are the helper's); `None` when the pool has no receiver yet.
    fn stalled_op(&mut self, op: OpId, uncovered: u32) -> Option<StalledOp> {
        let o = self.ops.table.get(op);
        if o.outer_instance {
            return None;
        }
        let receiver = usize::from(o.has_receiver());
        let inputs = self.op_inputs[op as usize].clone();
        let mut b = Draft {
            seq: Sequence::default(),
            tids: Vec::new(),
            has_null: false,
            classes: Vec::new(),
        };
        let mut fixed = Vec::new();
        self.building = Some(op);
        for (i, &need) in inputs.iter().enumerate() {
            let t = &self.types[need as usize];
            if i >= receiver && (t.is_prim() || *t == JType::string()) {
                continue;
            }
            let at = self.pick_value(&mut b, &mut Vec::new(), need, i < receiver, 0);
            match at {
                Some(at) => fixed.push((i, at)),
                None if i < receiver => {
                    self.building = None;
                    return None;
                }
                None => {}
            }
        }
        self.building = None;
        Some(StalledOp {
            op,
            uncovered,
            prefix: b.seq,
            fixed,
        })
    }

    /// A helper's sequence as a generated one (static types of its statements), unless it
    /// ran before or does not end in a call.
    fn adopt(&mut self, seq: Sequence) -> Option<Built> {
        let Some(Stmt::Call { op, .. }) = seq.stmts.last() else {
            return None;
        };
        let op = *op;
        let f = seq.fingerprint();
        if !self.seen_seqs.insert(f as u64, (f >> 64) as u64) {
            return None;
        }
        let tids = (0..seq.len())
            .map(|i| seq.out_type(&self.ops.table, i).map(|t| self.tid(&t)))
            .collect();
        let has_null = seq.stmts.iter().any(|s| {
            matches!(
                s,
                Stmt::Lit {
                    value: Value::Null,
                    ..
                }
            )
        });
        Some(Built {
            comp: Component {
                seq: Arc::new(seq),
                tids,
                has_null,
                cand: None,
            },
            op,
            parents: Vec::new(),
            classes: Vec::new(),
        })
    }

    fn apply(&mut self, built: Vec<Built>, results: Vec<SeqResult>) {
        for (b, r) in built.into_iter().zip(results) {
            self.apply_one(b, r);
        }
        self.progress.regression = self.candidates.len() + self.coverage_candidates.len();
        self.progress.errors = self.errors.len();
    }

    fn apply_one(&mut self, b: Built, r: SeqResult) {
        self.progress.executed += 1;
        self.progress.statements += r
            .outcomes
            .iter()
            .filter(|o| !matches!(o, StmtOutcome::NotRun))
            .count() as u64;
        let op = b.op;
        self.stats[op as usize].calls += 1;
        let (new_probe, new_cov) = self.take_coverage(&r);
        let cov = self.candidate_cov(&r);
        if self.cfg.guidance {
            self.learn_compared(op, &b.comp.seq, &r);
        }
        let ending = r.first_abnormal();
        self.note_argument_classes(&b, &r, ending.unwrap_or(b.comp.seq.len().saturating_sub(1)));
        match ending {
            Some(i) => match &r.outcomes[i] {
                StmtOutcome::Timeout => {
                    if self.note_hanging_arguments(&b, &r, i) {
                        self.stats[stmt_op(&b, i) as usize].timeouts += 1;
                    } else {
                        self.blame_stmt(&b, i, Blame::Timeout)
                    }
                }
                StmtOutcome::Crash(kind) if r.survived => {
                    self.note_allocating(&b, i, kind);
                    self.note_survived(&b, i)
                }
                StmtOutcome::Crash(kind) => {
                    self.note_allocating(&b, i, kind);
                    self.blame_stmt(&b, i, Blame::Crash(kind.clone()))
                }
                StmtOutcome::Exception { class, .. } if class.as_ref() == EXCESSIVE_OUTPUT => {
                    self.blame_stmt(&b, i, Blame::Output)
                }
                StmtOutcome::Exception { class, .. } if class.as_ref() == PRINTS_TO_CONSOLE => {
                    self.note_printing(&b, i)
                }
                StmtOutcome::Exception {
                    class,
                    public_class,
                    ..
                } => {
                    let thrown = Thrown {
                        at: i,
                        class,
                        public_class,
                    };
                    self.apply_exception(b, &r, &thrown, new_probe, cov);
                }
                _ => {}
            },
            None => self.apply_normal(b, &r, new_cov, new_probe),
        }
    }

    /// A sequence in which statement `thrown.at` threw: an error candidate when the
    /// exception breaks a contract, else a regression candidate when it is new (for its
    /// thrower) or reached new coverage.
    fn apply_exception(
        &mut self,
        b: Built,
        r: &SeqResult,
        thrown: &Thrown,
        new_probe: bool,
        cov: Option<Arc<[u32]>>,
    ) {
        let (i, class, public_class) = (thrown.at, thrown.class, thrown.public_class);
        let n = b.comp.seq.len();
        let thrower = match &b.comp.seq.stmts[i] {
            Stmt::Call { op, .. } => *op,
            _ => b.op,
        };
        // Only the final call (or its repetitions) may throw: earlier statements
        // come from sequences that ran normally before. When one does throw (its
        // inputs now share state) and that reached new coverage, the prefix up to
        // it is kept as a regression candidate ending in that exception.
        let final_call = b.comp.seq.stmts[i] == b.comp.seq.stmts[n - 1];
        if !final_call {
            if new_probe && !class.starts_with("jforge.") {
                let mut comp = b.comp;
                let mut short = (*comp.seq).clone();
                short.stmts.truncate(i + 1);
                comp.seq = Arc::new(short);
                comp.tids.truncate(i + 1);
                self.add_candidate(
                    comp,
                    &[],
                    CandEnding::Exception(public_class.to_string()),
                    cov,
                    true,
                );
            }
            return;
        }
        self.stats[thrower as usize].exceptions += 1;
        let null_input = b.comp.has_null || crate::contracts::null_input(&b.comp.seq, r);
        let mut contract =
            crate::contracts::exception_contract(class, null_input, &self.cfg.error_exceptions);
        // An exception thrown inside or out of an argument object's code (a callback) is
        // the input's: the sequence is an invalid input, like an illegal argument.
        if contract.is_some()
            && let Some(cause) = thrown_cause(r, i)
        {
            *self.set_aside.entry(cause).or_default() += 1;
            contract = None;
        }
        let mut comp = b.comp;
        let mut short = (*comp.seq).clone();
        short.stmts.truncate(i + 1);
        comp.seq = Arc::new(short);
        comp.tids.truncate(i + 1);
        if let Some(contract) = contract {
            self.stats[thrower as usize].errors += 1;
            let site = self.throw_site(r, i);
            self.add_error(
                comp,
                thrower,
                Violation::Exception {
                    contract,
                    class: class.to_string(),
                },
                site,
            );
        } else if !class.starts_with("jforge.")
            && (self.seen_exceptions.insert((thrower, class.to_string())) || new_probe)
        {
            self.add_candidate(
                comp,
                &b.parents,
                CandEnding::Exception(public_class.to_string()),
                cov,
                new_probe,
            );
        }
    }

    /// Where the exception statement `at` threw, as the defect's key: the class under test,
    /// method and line of the top frame in a class under test (see `Blame::thrown_culprit`).
    fn throw_site(&self, r: &SeqResult, at: usize) -> Option<Arc<str>> {
        let (s, blame) = r.thrown.as_ref()?;
        if *s as usize != at {
            return None;
        }
        let under_test = |c: &str| self.ops.instantiations.contains_key(c);
        let f = blame.thrown_culprit(&under_test)?;
        (f.line >= 0).then(|| Arc::from(f.describe().as_str()))
    }

    /// A sequence that ran normally: an error candidate when a value broke an object
    /// contract, else its values and behaviour are learned from.
    fn apply_normal(&mut self, b: Built, r: &SeqResult, new_cov: bool, new_probe: bool) {
        let op = b.op;
        self.stats[op as usize].successes += 1;
        let culprit = |v: &crate::runner::ContractViolation| {
            let vop = match &b.comp.seq.stmts[v.a as usize] {
                Stmt::Call { op, .. } => *op,
                _ => op,
            };
            let class = match r.outcomes.get(v.a as usize) {
                Some(StmtOutcome::Normal(Observed::Object { class, .. })) => class.clone(),
                _ => Arc::from(self.ops.table.get(vop).class.as_str()),
            };
            (vop, class)
        };
        let jdk_value = |class: &str| {
            crate::contracts::jdk_class(class) && !self.ops.instantiations.contains_key(class)
        };
        let own = r
            .violations
            .iter()
            .filter(|v| v.blame.cause.is_none())
            .map(|v| (v, culprit(v)))
            .find(|(_, (_, class))| !jdk_value(class));
        if let Some((v, (vop, class))) = own {
            self.stats[op as usize].errors += 1;
            self.add_error(
                b.comp,
                vop,
                Violation::Contract {
                    contract: v.contract,
                    a: v.a,
                    b: v.b,
                },
                Some(class),
            );
            return;
        }
        if let Some(cause) = r
            .violations
            .iter()
            .find_map(|v| v.blame.cause.or(Some(crate::runner::InputCause::JdkValue)))
        {
            // Every violation is the input's doing: an invalid input, neither an error nor
            // a source of values.
            *self.set_aside.entry(cause).or_default() += 1;
            return;
        }
        self.learn(b, r, new_cov, new_probe);
    }

    fn blame_stmt(&mut self, b: &Built, i: usize, blame: Blame) {
        let op = stmt_op(b, i);
        let st = &mut self.stats[op as usize];
        match blame {
            Blame::Timeout => st.timeouts += 1,
            _ => st.crashes += 1,
        }
        self.blame[op as usize] += 1;
        // A hang costs a call limit and the batch waiting for it: an operation is retried
        // with other arguments only while its timeouts stay rare (at most 1 in 100 calls).
        let hangs_often =
            matches!(blame, Blame::Timeout) && st.timeouts >= 2 && st.timeouts * 100 > st.calls;
        if self.blame[op as usize] == self.cfg.blame_limit || hangs_often {
            let n = self.cfg.blame_limit;
            let why = match blame {
                Blame::Crash(k) => format!("excluded after {n} crashes (last: {})", crash_name(&k)),
                Blame::Timeout => format!(
                    "excluded after {} timeouts",
                    self.stats[op as usize].timeouts
                ),
                Blame::Output => format!("excluded after printing more than 1 MiB in {n} calls"),
            };
            self.exclude(op, &why);
        }
    }

    /// Counts the runtime classes of the object arguments of statement `i` (the one that
    /// ended the sequence) as used (see `super::hangs`).
    fn note_argument_classes(&mut self, b: &Built, r: &SeqResult, i: usize) {
        for c in blamable_arguments(self.ops, b, r, i) {
            self.hanging.note_use(&c);
        }
    }

    /// Statement `i`'s call timed out: the runtime classes of its object arguments (not its
    /// receiver) are blamed, and the values of a class that became hang-prone are dropped from the
    /// reusable values (see `super::hangs`). True when an argument is of a hang-prone class
    /// (now or already): the hang is the argument's doing, and the operation, which will
    /// not get such a value again, is not blamed for it (it keeps running on other
    /// arguments; ARCHITECTURE "Hangs are blamed on their arguments' classes").
    fn note_hanging_arguments(&mut self, b: &Built, r: &SeqResult, i: usize) -> bool {
        let mut argument = false;
        for c in blamable_arguments(self.ops, b, r, i) {
            if self.hanging.note_hang(&c) {
                // Said in the summary: a class dropped this way changes what a run tests.
                self.incidents.push(Incident {
                    operation: format!("values of {c}"),
                    what: "not reused: calls given one hung".to_string(),
                });
                for list in &mut self.by_type {
                    list.retain(|(_, _, k)| k.as_deref() != Some(&*c));
                }
            }
            argument |= self.hanging.is_prone(&c);
        }
        argument
    }

    /// An OutOfMemoryError of statement `i`'s call: its operation, and every operation that
    /// made one of its inputs from a large integral literal, get small integral arguments
    /// from now on (see [`SMALL_SIZE`]); the reusable values built with such a call go.
    /// Why the makers: a capacity is often stored and allocated later (`LinkedHashMap(2^30)`
    /// allocates its table at the first `put`, `LinkedHashMultiset.create(n)` likewise), so
    /// the call that runs out of memory is not the one that took the size, and the value
    /// made stays in the pool and fails every call on it (guava collect, 30 s: 70 of 95
    /// OutOfMemoryErrors were calls on such a receiver).
    fn note_allocating(&mut self, b: &Built, i: usize, kind: &CrashKind) {
        if !matches!(kind, CrashKind::OutOfMemory) {
            return;
        }
        let seq = &b.comp.seq;
        let mut fresh = false;
        if let Some(Stmt::Call { op, .. }) = seq.stmts.get(i) {
            fresh |= self.allocates.insert(*op);
        }
        for op in sized_makers(seq, i) {
            fresh |= self.allocates.insert(op);
        }
        if fresh {
            self.drop_oversized_values();
        }
    }

    /// Operations whose numbers size an allocation, read from their bytecode
    /// (`super::sizing`): small integral arguments from the start, as after an
    /// OutOfMemoryError.
    pub fn note_sizing(&mut self, ops: impl IntoIterator<Item = OpId>) {
        self.allocates.extend(ops);
    }

    /// Drops the reusable values whose sequence passes a large integral literal to an
    /// operation that allocates by its arguments (a map whose table of 2^30 entries is
    /// still to come).
    fn drop_oversized_values(&mut self) {
        let allocates = &self.allocates;
        for list in &mut self.by_type {
            list.retain(|(comp, _, _)| !oversized_call(&comp.seq, allocates));
        }
    }

    /// A crash the worker survived (an OutOfMemoryError or StackOverflowError of this call):
    /// counted for the operation, but it costs no restart, so it neither excludes the
    /// operation nor slows its use; the sequence is no test and gives no values.
    fn note_survived(&mut self, b: &Built, i: usize) {
        let op = match &b.comp.seq.stmts[i] {
            Stmt::Call { op, .. } => *op,
            _ => b.op,
        };
        self.stats[op as usize].crashes += 1;
    }

    /// A call that printed to the console: its sequence is dropped (a test calling it would
    /// print in every build); an operation that printed on each of its first
    /// `blame_limit` calls is excluded, one that prints only sometimes stays.
    fn note_printing(&mut self, b: &Built, i: usize) {
        let op = match &b.comp.seq.stmts[i] {
            Stmt::Call { op, .. } => *op,
            _ => b.op,
        };
        let st = &mut self.stats[op as usize];
        st.prints += 1;
        if st.successes == 0 && st.prints == u64::from(self.cfg.blame_limit) {
            self.exclude(
                op,
                "left out: prints to System.out/System.err whenever called (a test would print in every build)",
            );
        }
    }

    /// Index pruning and component/candidate bookkeeping for a sequence that ran normally.
    fn learn(&mut self, b: Built, r: &SeqResult, new_cov: bool, new_probe: bool) {
        let n = b.comp.seq.len();
        let last = n - 1;
        let op = b.op;
        let mut reusable: Vec<u32> = Vec::new();
        // A sequence that reached new coverage is kept as a candidate even when its values
        // are not new, and, with guidance (`new_cov`), below as a source of reusable values.
        let mut novel = self.stats[op as usize].successes == 1 || new_probe;
        match &r.outcomes[last] {
            StmtOutcome::Normal(Observed::Object { fingerprint, .. }) => {
                let new = match fingerprint {
                    Some(f) => self.seen_values.insert64(*f),
                    None => true,
                } || new_cov;
                if new {
                    reusable.push(last as u32);
                    novel |= fingerprint.is_some() || self.cands_per_op[op as usize] < 20;
                }
            }
            StmtOutcome::Normal(Observed::Value(v)) => {
                self.literals.add_observed(v);
                let new = self
                    .seen_results
                    .insert64(value_hash(v) ^ (op as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
                    || new_cov;
                novel |= new;
                // Boxed and String results are values too: reusable when new.
                if new
                    && self.op_ret[op as usize].is_some_and(|t| !self.types[t as usize].is_prim())
                {
                    reusable.push(last as u32);
                }
            }
            StmtOutcome::Normal(Observed::Void) => {
                novel |= self.cands_per_op[op as usize] < 20;
            }
            _ => {}
        }
        // The receiver of a call may have changed: keep it reusable.
        if let Stmt::Call { args, .. } = &b.comp.seq.stmts[last]
            && self.ops.table.get(op).kind == OpKind::Method
            && let Some(&rcv) = args.first()
        {
            reusable.push(rcv);
        }
        // Values built on a lambda are no components: a lambda's answers are defaults, not
        // behaviour (`new Scanner(lambda)`'s `nextInt()` waits forever: 4 restarts in 10 s).
        if b.comp.seq.has_lambda() {
            reusable.clear();
        }
        // Nor values built from a value that makes calls hang (a filter or transform of an
        // endless iterable is endless too): see `super::hangs`.
        if self.hanging.any()
            && r.outcomes.iter().any(|o| {
                matches!(o, StmtOutcome::Normal(Observed::Object { class, .. }) if self.hanging.is_prone(class))
            })
        {
            reusable.clear();
        }
        let mut comp = b.comp;
        // Values that were null at run time are never reused (index pruning).
        for (i, o) in r.outcomes.iter().enumerate() {
            if matches!(o, StmtOutcome::Normal(Observed::Null)) {
                comp.tids[i] = None;
            }
        }
        if novel {
            let id = self.next_cand;
            self.next_cand += 1;
            comp.cand = Some(id);
        }
        let comp = Arc::new(comp);
        self.keep_reusable(&comp, &reusable, r);
        if novel {
            self.cands_per_op[op as usize] += 1;
            let cov = self.candidate_cov(r);
            self.push_candidate(comp, &b.parents, CandEnding::Normal, cov, new_probe);
        }
    }

    /// Stores the values at `reusable` of a sequence that ran normally as reusable values of
    /// their static types (not those of a hang-prone class: see `super::hangs`; none of a
    /// sequence that passes a large size to an operation that allocates by it, such as the
    /// 2^30 its own bounds check logged: see `note_allocating`).
    fn keep_reusable(&mut self, comp: &CompRef, reusable: &[u32], r: &SeqResult) {
        if !self.allocates.is_empty() && oversized_call(&comp.seq, &self.allocates) {
            return;
        }
        for &i in reusable {
            let class = object_class(r, i as usize);
            if class.as_ref().is_some_and(|c| self.hanging.is_prone(c)) {
                continue;
            }
            if let Some(t) = comp.tids[i as usize] {
                let list_len = self.by_type[t as usize].len();
                if list_len < self.cfg.max_per_type {
                    self.by_type[t as usize].push((comp.clone(), i, class));
                } else {
                    // Evict the longer of two random values, so that short sequences stay
                    // available and new sequences still fit under max_len late in a run.
                    let (k1, k2) = (
                        self.rng.random_range(0..list_len),
                        self.rng.random_range(0..list_len),
                    );
                    let list = &mut self.by_type[t as usize];
                    let k = if list[k2].0.seq.len() > list[k1].0.seq.len() {
                        k2
                    } else {
                        k1
                    };
                    list[k] = (comp.clone(), i, class);
                }
            }
        }
    }

    fn add_candidate(
        &mut self,
        comp: Component,
        parents: &[u64],
        ending: CandEnding,
        cov: Option<Arc<[u32]>>,
        new_probe: bool,
    ) {
        let mut comp = comp;
        let id = self.next_cand;
        self.next_cand += 1;
        comp.cand = Some(id);
        self.push_candidate(Arc::new(comp), parents, ending, cov, new_probe);
    }

    /// Candidates that reached new coverage are all kept; the others are a reservoir sample
    /// (deterministic: driven by the seeded RNG). Sequences that grew out of a candidate
    /// subsume it.
    fn push_candidate(
        &mut self,
        comp: CompRef,
        parents: &[u64],
        ending: CandEnding,
        cov: Option<Arc<[u32]>>,
        new_probe: bool,
    ) {
        for p in parents {
            self.subsumed.insert(*p);
        }
        let id = comp.cand.unwrap_or(u64::MAX);
        let c = Candidate {
            id,
            comp,
            ending,
            cov,
        };
        if new_probe {
            self.coverage_candidates.push(c);
            return;
        }
        self.cand_seen += 1;
        if self.candidates.len() < self.cfg.max_candidates {
            self.candidates.push(c);
        } else {
            let k = self.rng.random_range(0..self.cand_seen);
            if (k as usize) < self.cfg.max_candidates {
                self.candidates[k as usize] = c;
            }
        }
    }

    /// Records an error-revealing sequence under its defect ([`DefectKey`]; `class`: the
    /// class of the value breaking an object contract, or the throw site of an exception);
    /// the shortest sequence is kept.
    fn add_error(
        &mut self,
        comp: Component,
        op: OpId,
        violation: Violation,
        class: Option<Arc<str>>,
    ) {
        let object = matches!(violation, Violation::Contract { .. });
        let key = match (&violation, &class) {
            (Violation::Contract { contract, .. }, Some(class)) => DefectKey::Contract {
                class: class.clone(),
                contract: *contract,
            },
            (Violation::Exception { contract, .. }, Some(site)) => DefectKey::ThrowSite {
                site: site.clone(),
                contract,
            },
            _ => DefectKey::Exception {
                op,
                contract: violation.contract_name(),
            },
        };
        let comp = Arc::new(comp);
        match self.errors.get_mut(&key) {
            Some(e) => {
                e.count += 1;
                e.routes.insert(op);
                if comp.seq.len() < e.comp.seq.len() {
                    e.comp = comp;
                    e.violation = violation;
                    e.op = op;
                }
            }
            None => {
                self.errors.insert(
                    key,
                    ErrorCandidate {
                        comp,
                        violation,
                        op,
                        count: 1,
                        routes: BTreeSet::from([op]),
                        // the class of an object contract (a throw site is only a key)
                        class: class.filter(|_| object),
                    },
                );
            }
        }
    }

    /// Regression candidates, in generation order: every one that reached new coverage
    /// (even when a longer one grew out of it: the longer one may not be written), and the
    /// sampled others not subsumed by a longer one.
    pub fn final_candidates(&self) -> Vec<Candidate> {
        let mut v: Vec<Candidate> = self
            .candidates
            .iter()
            .filter(|c| !self.subsumed.contains(&c.id))
            .chain(&self.coverage_candidates)
            .cloned()
            .collect();
        v.sort_by_key(|c| c.id);
        v
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

/// The operation statement `i` of a built sequence calls (the sequence's own for a
/// statement that is no call).
/// The runtime classes of the object arguments of statement `i` that a hang of its call
/// may be blamed on (see `super::hangs`): not its receiver or outer instance (a method that
/// hangs on its own object is the operation's fault, excluded at its timeouts), nor the
/// receiver passed again as an argument (`sb.appendln(sb)` repeated doubles the builder: the
/// call's doing), nor a class under test. Why not a class under test: its values are what
/// the run is about; blamed, they were all dropped. StrBuilder's one timeout of
/// `appendln(Object)` given itself made StrBuilder hang-prone 0.3 s into a run, which then
/// ended 97% of its sequences on values of other types (`writer0.write(..)` of `asWriter()`):
/// the written suite fell from 494 to 329 of 554 branches (`--generated-limit 20000 --seed
/// 1`). Such a hang is the operation's: it counts toward excluding it. An iterator, not a
/// list: it runs for every sequence applied.
fn blamable_arguments<'x>(
    ops: &'x OpSet,
    b: &'x Built,
    r: &'x SeqResult,
    i: usize,
) -> impl Iterator<Item = Arc<str>> + 'x {
    let (receivers, args): (usize, &[u32]) = match b.comp.seq.stmts.get(i) {
        Some(Stmt::Call { op, args }) => {
            let o = ops.table.get(*op);
            let n = usize::from(o.has_receiver() || o.outer_instance);
            (n.min(args.len()), args)
        }
        _ => (0, &[]),
    };
    args[receivers..]
        .iter()
        .filter(move |a| !args[..receivers].contains(a))
        .filter_map(move |&a| object_class(r, a as usize))
        .filter(move |c| !ops.instantiations.contains_key(&**c))
}

fn stmt_op(b: &Built, i: usize) -> OpId {
    match &b.comp.seq.stmts[i] {
        Stmt::Call { op, .. } => *op,
        _ => b.op,
    }
}

/// The runtime class of statement `i`'s value when it is an object (not a boxed value or
/// String, not null).
fn object_class(r: &SeqResult, i: usize) -> Option<Arc<str>> {
    match r.outcomes.get(i)? {
        StmtOutcome::Normal(Observed::Object { class, .. }) => Some(class.clone()),
        _ => None,
    }
}

fn value_hash(v: &Value) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = twox_hash::XxHash64::with_seed(0);
    v.hash(&mut h);
    h.finish()
}

pub fn crash_name(k: &CrashKind) -> String {
    k.to_string()
}
