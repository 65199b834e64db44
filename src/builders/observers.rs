//! Observer detection (seed 004, section 4.4): a short random run over the whole API (the
//! generator of `jforge gen`) builds objects; each method is then called on objects drawn from
//! them, and the canonical forms of the call's receiver and arguments are compared before and
//! after the call (the worker computes them, as for `jforge exhaustive`). A method that never
//! changed any of them and never returned a structure cannot build anything: it is an
//! observer, left out of the builder search.
//!
//! Why calls of our own rather than the run's sequences: the generator keeps only the first
//! sequences of a void method, mostly on fresh objects (`clear()` on empty lists looked like
//! an observer). Half the literal arguments are values the object was built with
//! (`remove(v)` changes a list only when `v` is in it).
//!
//! Deviation from the paper, whose observers never return any non-primitive value: a method
//! returning only other objects (TreeMap's subMap views, its entries) is an observer here
//! too, because the exhaustive search never keeps those results as structures of the classes
//! under test, so such a method can never raise a set's fitness (it stays part of the whole
//! API the verdict checks against).
//!
//! The run is not bounded by the scope (forms are computed at any size) so that larger objects
//! count as evidence too. The classification is a heuristic; the verification of the final
//! set (against the whole API, observers included) is what makes the answer safe.

use crate::exhaustive::search::{ParamDom, Usable};
use crate::generate::literals::LiteralPool;
use crate::generate::ops::OpSet;
use crate::generate::random::{CandEnding, GenConfig, Generator};
use crate::model::{JType, Model};
use crate::runner::{CANON_OP, ExecMode, ExecRequest, Observed, Pool, SeqResult, StmtOutcome};
use crate::sequence::{OpId, OpKind, Sequence, Stmt, Value};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Instant;

/// Calls sampled per method.
const SAMPLES_PER_METHOD: usize = 32;

/// Targeted calls ([`targeted_calls`]): on this many of the largest fitting objects, with at
/// most [`TARGETED_VALUES`] of the values each was built with.
const TARGETED_OBJECTS: usize = 4;
const TARGETED_VALUES: usize = 4;

/// What the sampled calls of one method showed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Evidence {
    /// Calls observed (each: forms before and after).
    pub calls: u32,
    /// Calls after which the receiver or an argument had another canonical form.
    pub changed: u32,
    /// Calls that returned an object the search keeps as a structure (of a class under test).
    pub returned_structure: u32,
    /// Calls that returned another object (a view, an entry, an iterator).
    pub returned_other: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// Never changed its inputs, never returned an object: left out of the search.
    Observer,
    /// Changed an input, returned a structure, or is a constructor.
    Builder,
    /// Never ran normally in the random run: kept as a candidate (nothing shows it is an
    /// observer).
    Unseen,
}

pub struct Detection {
    pub generated: u64,
    pub sampled_calls: usize,
    pub seconds: f64,
    pub evidence: HashMap<OpId, Evidence>,
}

impl Detection {
    pub fn role(&self, ops: &OpSet, op: OpId) -> Role {
        if ops.table.get(op).kind == OpKind::Constructor {
            return Role::Builder;
        }
        match self.evidence.get(&op) {
            None => Role::Unseen,
            Some(e) if e.calls == 0 => Role::Unseen,
            Some(e) if e.changed > 0 || e.returned_structure > 0 => Role::Builder,
            Some(_) => Role::Observer,
        }
    }
}

/// An object the random run built: (sequence, statement, static type).
type BuiltObject = (Arc<Sequence>, u32, JType);

/// A sampled call: (op, the sequence with the call last, inputs of the call that are
/// structures, whether the search keeps its result as a structure).
type Sample = (OpId, Sequence, Vec<u32>, bool);

/// Runs the random generator for `sequences` sequences (deterministic for a seed), on a pool
/// whose workers canonicalize without a scope bound, then calls each method of `usable` on up
/// to 32 objects the run built (drawn with a seeded generator; literal arguments from the
/// method's domain) and compares the forms of its inputs before and after the call.
#[allow(clippy::too_many_arguments)]
pub fn detect(
    model: &Model,
    ops: &OpSet,
    classes: &[String],
    pool: &mut Pool,
    unregistered: &[(OpId, String)],
    usable: &[Usable],
    seed: u64,
    sequences: u64,
) -> anyhow::Result<Detection> {
    let started = Instant::now();
    let literals = literal_pool(model, classes, usable);
    let cfg = GenConfig {
        seed,
        time_limit: None,
        generated_limit: Some(sequences),
        max_candidates: (sequences as usize).max(100),
        ..GenConfig::default()
    };
    let mut g = Generator::new(model, ops, literals, cfg);
    for (op, why) in unregistered {
        g.exclude(*op, &format!("cannot be loaded: {why}"));
    }
    g.run(pool, &mut |_| {})?;
    let objects = built_objects(&g, ops, classes);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0b5e_7ae5);
    let mut samples: Vec<Sample> = Vec::new();
    for u in usable {
        let Some(fitting) = fitting_objects(model, u, &objects) else {
            continue;
        };
        for _ in 0..SAMPLES_PER_METHOD {
            let (seq, inputs) = sample_call(u, &fitting, &objects, &mut rng);
            samples.push((u.op, seq, inputs, u.canon_result));
        }
        for (seq, inputs) in targeted_calls(u, &fitting, &objects) {
            samples.push((u.op, seq, inputs, u.canon_result));
        }
    }
    let results = run_samples(pool, &samples)?;
    let (evidence, sampled) = weigh_evidence(&samples, &results);
    Ok(Detection {
        generated: g.progress.generated,
        sampled_calls: sampled,
        seconds: started.elapsed().as_secs_f64(),
        evidence,
    })
}

/// Randoop's default literals, the class's constants and the bounded domains (so that
/// calls such as remove(v) meet values the structures hold).
fn literal_pool(model: &Model, classes: &[String], usable: &[Usable]) -> LiteralPool {
    let mut literals = LiteralPool::with_defaults();
    for c in classes {
        if let Some(ci) = model.get(c) {
            for l in &ci.literals {
                literals.add_literal(l);
            }
        }
    }
    for u in usable {
        for p in &u.params {
            if let ParamDom::Lits(l) = p {
                for st in l {
                    if let Stmt::Lit { value, .. } = st {
                        literals.add_observed(value);
                    }
                }
            }
        }
    }
    literals
}

/// Objects the run built: the receiver of each normally ending candidate's last call and
/// its result when that is an object of a class under test.
fn built_objects(g: &Generator, ops: &OpSet, classes: &[String]) -> Vec<BuiltObject> {
    let mut cands: Vec<_> = g
        .candidates
        .iter()
        .chain(&g.coverage_candidates)
        .filter(|c| c.ending == CandEnding::Normal)
        .collect();
    cands.sort_by_key(|c| c.id);
    let mut objects: Vec<BuiltObject> = Vec::new();
    for c in cands {
        let seq = &c.comp.seq;
        let last = seq.stmts.len() - 1;
        let Some(Stmt::Call { op, args }) = seq.stmts.last() else {
            continue;
        };
        let o = ops.table.get(*op);
        if o.has_receiver()
            && let Some(&r) = args.first()
            && let Some(t) = seq.out_type(&ops.table, r as usize)
        {
            objects.push((seq.clone(), r, t));
        }
        if let Some(t) = &o.ret
            && t.erasure()
                .class_name()
                .is_some_and(|n| classes.iter().any(|c| c == n))
        {
            objects.push((seq.clone(), last as u32, t.clone()));
        }
    }
    objects
}

/// For each parameter of `u`, the objects that fit it (empty for a literal parameter);
/// `None` when some object parameter has none.
fn fitting_objects(model: &Model, u: &Usable, objects: &[BuiltObject]) -> Option<Vec<Vec<usize>>> {
    let fitting: Vec<Vec<usize>> = u
        .params
        .iter()
        .map(|p| match p {
            ParamDom::Refs(ty) => (0..objects.len())
                .filter(|&i| {
                    let t = &objects[i].2;
                    t.erasure() == ty.erasure() || model.is_subtype(t, ty)
                })
                .collect(),
            ParamDom::Lits(_) => Vec::new(),
        })
        .collect();
    if u.params
        .iter()
        .zip(&fitting)
        .any(|(p, f)| matches!(p, ParamDom::Refs(_)) && f.is_empty())
    {
        return None;
    }
    Some(fitting)
}

/// One call of `u` on random fitting objects: the sequence with the call last and the
/// call's inputs that are structures.
fn sample_call(
    u: &Usable,
    fitting: &[Vec<usize>],
    objects: &[BuiltObject],
    rng: &mut ChaCha8Rng,
) -> (Sequence, Vec<u32>) {
    let mut seq = Sequence::default();
    let mut args = Vec::with_capacity(u.params.len());
    let mut inputs = Vec::new();
    for (p, f) in u.params.iter().zip(fitting) {
        match p {
            ParamDom::Lits(l) => {
                // half the time a literal the objects were built with (remove(v)
                // changes a list only when v is in it), else one of the domain
                let ty = match &l[0] {
                    Stmt::Lit { ty, .. } => Some(ty),
                    _ => None,
                };
                let used: Vec<u32> = (0..seq.stmts.len() as u32)
                    .filter(|&i| {
                        matches!(&seq.stmts[i as usize],
                            Stmt::Lit { ty: t, value } if Some(t) == ty && *value != Value::Null)
                    })
                    .collect();
                if !used.is_empty() && rng.random_bool(0.5) {
                    args.push(used[rng.random_range(0..used.len())]);
                } else {
                    seq.stmts.push(l[rng.random_range(0..l.len())].clone());
                    args.push(seq.stmts.len() as u32 - 1);
                }
            }
            ParamDom::Refs(_) => {
                // the richest of three random objects: most objects the run kept are
                // small (fresh or emptied), and an observer is told apart on large ones
                let pick = (0..3)
                    .map(|_| f[rng.random_range(0..f.len())])
                    .max_by_key(|&i| (richness(&objects[i].0), std::cmp::Reverse(i)))
                    .unwrap_or(f[0]);
                let (s, at, _) = &objects[pick];
                let off = seq.append(s);
                args.push(off + at);
                inputs.push(off + at);
            }
        }
    }
    seq.stmts.push(Stmt::Call { op: u.op, args });
    (seq, inputs)
}

/// Calls of a method whose one structure input is its receiver, on the largest objects that
/// fit it (by [`richness`]), with each value the object was built with in turn (the first literals of its
/// sequence of each parameter's type, distinct): a method that changes its receiver only for
/// some arguments and some states is called in them. Why, besides the random calls: an
/// access-ordered `LinkedHashMap`'s `get(k)` (an LRU cache) changes the order of the entries
/// only when `k` is present and not the most recent one, in a map of two entries or more;
/// random calls met that state once in 32 calls or never, and the method was taken for an
/// observer.
fn targeted_calls(
    u: &Usable,
    fitting: &[Vec<usize>],
    objects: &[BuiltObject],
) -> Vec<(Sequence, Vec<u32>)> {
    let refs = u
        .params
        .iter()
        .filter(|p| matches!(p, ParamDom::Refs(_)))
        .count();
    if refs != 1 || !matches!(u.params.first(), Some(ParamDom::Refs(_))) {
        return Vec::new();
    }
    let mut largest = fitting[0].clone();
    largest.sort_by_key(|&i| (std::cmp::Reverse(richness(&objects[i].0)), i));
    largest.dedup_by_key(|i| Arc::as_ptr(&objects[*i].0));
    let mut out = Vec::new();
    for &o in largest.iter().take(TARGETED_OBJECTS) {
        let (s, at, _) = &objects[o];
        let values: Vec<Vec<u32>> = u.params[1..]
            .iter()
            .map(|p| match p {
                ParamDom::Lits(l) => values_used(s, &l[0]),
                ParamDom::Refs(_) => Vec::new(),
            })
            .collect();
        if values.iter().any(|v| v.is_empty()) {
            continue;
        }
        for k in 0..TARGETED_VALUES.min(values.iter().map(|v| v.len()).max().unwrap_or(0)) {
            let mut seq = (**s).clone();
            let mut args = vec![*at];
            args.extend(values.iter().map(|v| v[k % v.len()]));
            seq.stmts.push(Stmt::Call { op: u.op, args });
            out.push((seq, vec![*at]));
        }
    }
    out
}

/// How much went into building an object: the statements of its sequence that do not repeat
/// the one before. Why not the length: the random run repeats a call up to 100 times
/// (Randoop's repetition), so the longest sequences were `put("b", 10)` 57 times, a cache of
/// one entry, on which no `get` can change the order of the entries.
fn richness(seq: &Sequence) -> usize {
    seq.stmts
        .iter()
        .enumerate()
        .filter(|(i, st)| *i == 0 || seq.stmts[i - 1] != **st)
        .count()
}

/// Statements of `seq` holding the first occurrence of each non-null literal of the type of
/// domain literal `lit`.
fn values_used(seq: &Sequence, lit: &Stmt) -> Vec<u32> {
    let Stmt::Lit { ty, .. } = lit else {
        return Vec::new();
    };
    let mut seen: Vec<&Value> = Vec::new();
    let mut out = Vec::new();
    for (i, st) in seq.stmts.iter().enumerate() {
        if let Stmt::Lit { ty: t, value } = st
            && t == ty
            && *value != Value::Null
            && !seen.contains(&value)
        {
            seen.push(value);
            out.push(i as u32);
        }
    }
    out
}

/// Runs two requests per sample, forms computed: without the call (forms before) and with
/// it; the results in that order.
fn run_samples(pool: &mut Pool, samples: &[Sample]) -> anyhow::Result<Vec<SeqResult>> {
    let mut reqs = Vec::with_capacity(samples.len() * 2);
    for (_, seq, inputs, _) in samples {
        let n = seq.stmts.len();
        let observers: Vec<(u32, OpId)> = inputs.iter().map(|&a| (a, CANON_OP)).collect();
        reqs.push(ExecRequest {
            seq: Arc::new(Sequence {
                stmts: seq.stmts[..n - 1].to_vec(),
            }),
            mode: ExecMode::Canon,
            contract_values: Vec::new(),
            observers: observers.clone(),
            reuse: None,
        });
        reqs.push(ExecRequest {
            seq: Arc::new(seq.clone()),
            mode: ExecMode::Canon,
            contract_values: Vec::new(),
            observers,
            reuse: None,
        });
    }
    let mut results = Vec::with_capacity(reqs.len());
    for chunk in reqs.chunks(2000) {
        results.extend(pool.execute(chunk.to_vec())?);
    }
    Ok(results)
}

/// The canonical forms of a run's observed inputs by statement; `None` when it did not run
/// normally or a form is missing.
fn forms(r: &SeqResult) -> Option<BTreeMap<u32, String>> {
    if r.first_abnormal().is_some() {
        return None;
    }
    let mut m = BTreeMap::new();
    for o in &r.observers {
        match &o.result {
            Ok(Value::Str(f)) if o.op == CANON_OP => {
                m.insert(o.stmt, f.clone());
            }
            _ => return None,
        }
    }
    Some(m)
}

/// The evidence per method from the forms before and after each sampled call, and how
/// many calls gave it.
fn weigh_evidence(samples: &[Sample], results: &[SeqResult]) -> (HashMap<OpId, Evidence>, usize) {
    let mut evidence: HashMap<OpId, Evidence> = HashMap::new();
    let mut sampled = 0usize;
    for (i, (op, seq, inputs, structure)) in samples.iter().enumerate() {
        let (Some(before), Some(after)) = (forms(&results[2 * i]), forms(&results[2 * i + 1]))
        else {
            continue;
        };
        let distinct: std::collections::BTreeSet<&u32> = inputs.iter().collect();
        if before.len() != distinct.len() || after.len() != distinct.len() {
            continue;
        }
        sampled += 1;
        let e = evidence.entry(*op).or_default();
        e.calls += 1;
        if before != after {
            e.changed += 1;
        }
        let last = seq.stmts.len() - 1;
        if matches!(
            results[2 * i + 1].outcomes.get(last),
            Some(StmtOutcome::Normal(Observed::Object { .. }))
        ) {
            if *structure {
                e.returned_structure += 1;
            } else {
                e.returned_other += 1;
            }
        }
    }
    (evidence, sampled)
}
