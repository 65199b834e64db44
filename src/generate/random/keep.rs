//! Storing what an executed sequence taught: its new values become reusable (index
//! pruning, eviction), a new behaviour a regression candidate (all that reached new coverage,
//! a reservoir sample of the others), a broken contract an error candidate under its defect.

use super::blame::object_class;
use super::candidates::{
    CandEnding, Candidate, CompRef, Component, DefectKey, ErrorCandidate, Violation,
};
use super::generator::{Built, Generator};
use super::oversized::oversized_call;
use crate::runner::{Observed, SeqResult, StmtOutcome};
use crate::sequence::{OpId, OpKind, Stmt, Value};
use rand::Rng;
use std::collections::BTreeSet;
use std::sync::Arc;

impl<'a> Generator<'a> {
    /// Index pruning and component/candidate bookkeeping for a sequence that ran normally.
    pub(super) fn learn(&mut self, b: Built, r: &SeqResult, new_cov: bool, new_probe: bool) {
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
                let new = self.seen_results.insert64(result_key(op, v)) || new_cov;
                let on_path = self.new_on_path(op, v, r);
                novel |= new || on_path;
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
        // endless iterable is endless too): see `generate::hangs`.
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

    /// Whether `op` returned `v` for the first time on this path (its final call's probes
    /// in the methods of its lean-suite path, `select::Path`), though it returned `v`
    /// before on another. Such a call is a candidate (and nothing more: what becomes
    /// reusable is unchanged). Why: the lean suite looks for values path by path, but a
    /// call became a candidate only with a value new to its operation, so a path reached
    /// later with a value seen earlier had no candidate to look at. Commons Codec's
    /// `read(byte[])` returned -1 on a decoding stream first, and the encoding stream's
    /// `read(byte[])`, -1 too but 0 with Codec-6's fault, was never a candidate (Randoop's
    /// suite caught the fault).
    fn new_on_path(&mut self, op: OpId, v: &Value, r: &SeqResult) -> bool {
        let Some(ids) = r.coverage.as_deref() else {
            return false;
        };
        let ranges = match self.path_ranges.get(&op) {
            Some(r) => r.clone(),
            None => {
                let r: Arc<[(u32, u32)]> = self.path_ranges_of(op).into();
                self.path_ranges.insert(op, r.clone());
                r
            }
        };
        if ranges.is_empty() {
            return false;
        }
        let path = crate::generate::select::path_hash(ids, &ranges);
        self.seen_path_results
            .insert64(result_key(op, v) ^ path.rotate_left(29))
    }

    /// Stores the values at `reusable` of a sequence that ran normally as reusable values of
    /// their static types (not those of a hang-prone class: see `generate::hangs`; none of a
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

    pub(super) fn add_candidate(
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
    pub(super) fn add_error(
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
        let earlier = self.replaying;
        match self.errors.get_mut(&key) {
            Some(e) => {
                e.count += 1;
                e.routes.insert(op);
                // an earlier run's test of the defect stays its test (a re-run does not
                // rewrite it with other inputs); else the shortest sequence
                if !e.earlier && (earlier || comp.seq.len() < e.comp.seq.len()) {
                    e.comp = comp;
                    e.violation = violation;
                    e.op = op;
                    e.earlier = earlier;
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
                        earlier,
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
}

fn value_hash(v: &Value) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = twox_hash::XxHash64::with_seed(0);
    v.hash(&mut h);
    h.finish()
}

/// The key of "operation `op` returned `v`" in the generator's Bloom filters.
fn result_key(op: OpId, v: &Value) -> u64 {
    value_hash(v) ^ (op as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}
