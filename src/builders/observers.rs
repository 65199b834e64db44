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
//! (`remove(v)` changes a list only when `v` is in it), and a method on its receiver is also
//! called, on the structures whose forms hold most values of its parameter's type, with each
//! of them (an access-ordered map's `get(k)` reorders it only for a present `k`).
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
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;
use std::time::Instant;

/// Calls sampled per method.
const SAMPLES_PER_METHOD: usize = 32;

/// Targeted calls ([`targeted_calls`]): the forms of this many of the richest objects fitting
/// a method's receiver are read; the calls go to the [`TARGETED_OBJECTS`] whose forms hold
/// most values of the parameter's type, with at most [`TARGETED_VALUES`] of them each.
const FORM_OBJECTS: usize = 512;
const TARGETED_OBJECTS: usize = 8;
const TARGETED_VALUES: usize = 8;

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
    let fittings: Vec<Option<Vec<Vec<usize>>>> = usable
        .iter()
        .map(|u| fitting_objects(model, u, &objects))
        .collect();
    // targeted calls choose among every object the run kept for reuse too (a thousand per
    // type, where the candidates' objects are a few dozen, mostly small)
    let kept = kept_objects(&g, &objects);
    let kept_fittings: Vec<Option<Vec<Vec<usize>>>> = usable
        .iter()
        .map(|u| fitting_objects(model, u, &kept))
        .collect();
    let read: BTreeSet<usize> = usable
        .iter()
        .zip(&kept_fittings)
        .filter_map(|(u, f)| Some(form_candidates(u, f.as_ref()?, &kept)))
        .flatten()
        .collect();
    let held = held_values(pool, &kept, &read)?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x0b5e_7ae5);
    let mut samples: Vec<Sample> = Vec::new();
    for (u, fitting) in usable.iter().zip(&fittings) {
        let Some(fitting) = fitting else {
            continue;
        };
        for _ in 0..SAMPLES_PER_METHOD {
            let (seq, inputs) = sample_call(u, fitting, &objects, &mut rng);
            samples.push((u.op, seq, inputs, u.canon_result));
        }
    }
    for (u, fitting) in usable.iter().zip(&kept_fittings) {
        let Some(fitting) = fitting else {
            continue;
        };
        for (seq, inputs) in targeted_calls(u, fitting, &kept, &held) {
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

/// The objects of [`built_objects`], then every value the run kept for reuse (the objects
/// later calls could take as inputs: [`Generator::reusable_values`]) of a type one of them
/// has, in the run's order.
fn kept_objects(g: &Generator, objects: &[BuiltObject]) -> Vec<BuiltObject> {
    let mut out = objects.to_vec();
    for (t, seq, at) in g.reusable_values() {
        if objects.iter().any(|o| o.2.erasure() == t.erasure()) {
            out.push((seq.clone(), at, t.clone()));
        }
    }
    out
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

/// The objects whose forms [`targeted_calls`] reads for a method whose one structure input
/// is its receiver and that takes literals: the [`FORM_OBJECTS`] richest fitting the
/// receiver (by [`richness`], one per sequence); none for other methods.
fn form_candidates(u: &Usable, fitting: &[Vec<usize>], objects: &[BuiltObject]) -> Vec<usize> {
    let refs = u
        .params
        .iter()
        .filter(|p| matches!(p, ParamDom::Refs(_)))
        .count();
    if refs != 1 || u.params.len() < 2 || !matches!(u.params.first(), Some(ParamDom::Refs(_))) {
        return Vec::new();
    }
    let mut richest = fitting[0].clone();
    richest.sort_by_key(|&i| (std::cmp::Reverse(richness(&objects[i].0)), i));
    richest.dedup_by_key(|i| Arc::as_ptr(&objects[*i].0));
    richest.truncate(FORM_OBJECTS);
    richest
}

/// Calls of a method whose one structure input is its receiver, decided from what the
/// receivers' canonical forms show: among the richest objects that fit it
/// ([`form_candidates`]), the [`TARGETED_OBJECTS`] whose forms hold most distinct values of
/// the first parameter's type, each called with every such value in turn (at most
/// [`TARGETED_VALUES`]; a parameter of a type the form does not hold takes its domain). Why,
/// besides the random calls: a method may change its receiver only for arguments the
/// structure holds and in states of some size. An access-ordered `LinkedHashMap`'s `get(k)`
/// (an LRU cache) moves `k` to the end of the entries' linked list, a field the form follows,
/// only when `k` is present and not the most recent of two entries or more; random calls
/// met that state in 2 of 37 calls, and the values of the object's sequence (one `put`
/// repeated, capacities of 1) not much more often. The keys a form shows are the values for
/// which a change can be seen, whatever the class and its method names.
fn targeted_calls(
    u: &Usable,
    fitting: &[Vec<usize>],
    objects: &[BuiltObject],
    held: &HashMap<usize, Vec<Value>>,
) -> Vec<(Sequence, Vec<u32>)> {
    let doms: Vec<&[Stmt]> = u
        .params
        .iter()
        .skip(1)
        .filter_map(|p| match p {
            ParamDom::Lits(l) => Some(l.as_slice()),
            ParamDom::Refs(_) => None,
        })
        .collect();
    let of_type = |o: usize, dom: &[Stmt]| -> Vec<Value> {
        let Some(kind) = dom.iter().find_map(|st| match st {
            Stmt::Lit { value, .. } if *value != Value::Null => Some(std::mem::discriminant(value)),
            _ => None,
        }) else {
            return Vec::new();
        };
        held.get(&o)
            .map(|vs| {
                vs.iter()
                    .filter(|v| std::mem::discriminant(*v) == kind)
                    .take(TARGETED_VALUES)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut ranked = form_candidates(u, fitting, objects);
    ranked.sort_by_key(|&o| std::cmp::Reverse(doms.first().map_or(0, |d| of_type(o, d).len())));
    let mut out = Vec::new();
    for &o in ranked.iter().take(TARGETED_OBJECTS) {
        let (s, at, _) = &objects[o];
        let values: Vec<Vec<Stmt>> = doms
            .iter()
            .map(|dom| {
                let ty = match &dom[0] {
                    Stmt::Lit { ty, .. } => ty.clone(),
                    _ => return dom.to_vec(),
                };
                let vs = of_type(o, dom);
                if vs.is_empty() {
                    return dom.to_vec();
                }
                vs.into_iter()
                    .map(|value| Stmt::Lit {
                        ty: ty.clone(),
                        value,
                    })
                    .collect()
            })
            .collect();
        let n = values.iter().map(Vec::len).max().unwrap_or(0);
        for k in 0..n.min(TARGETED_VALUES) {
            let mut seq = (**s).clone();
            let mut args = vec![*at];
            for v in &values {
                seq.stmts.push(v[k % v.len()].clone());
                args.push(seq.stmts.len() as u32 - 1);
            }
            seq.stmts.push(Stmt::Call { op: u.op, args });
            out.push((seq, vec![*at]));
        }
    }
    out
}

/// The literal values each object of `read` holds: the primitives and strings its canonical
/// form shows (computed by the detection workers, which write forms as text), distinct, in
/// the form's order. An object whose form could not be computed holds none.
fn held_values(
    pool: &mut Pool,
    objects: &[BuiltObject],
    read: &BTreeSet<usize>,
) -> anyhow::Result<HashMap<usize, Vec<Value>>> {
    let ids: Vec<usize> = read.iter().copied().collect();
    let mut out = HashMap::new();
    for chunk in ids.chunks(2000) {
        let reqs: Vec<ExecRequest> = chunk
            .iter()
            .map(|&o| {
                let (s, at, _) = &objects[o];
                ExecRequest {
                    seq: s.clone(),
                    mode: ExecMode::Canon,
                    contract_values: Vec::new(),
                    observers: vec![(*at, CANON_OP)],
                    reuse: None,
                }
            })
            .collect();
        for (&o, r) in chunk.iter().zip(pool.execute(reqs)?) {
            let Some(form) = forms(&r).and_then(|f| f.into_values().next()) else {
                continue;
            };
            let Ok((fields, _)) = crate::exhaustive::canon::text_fields(&form) else {
                continue;
            };
            let mut values: Vec<Value> = Vec::new();
            for v in fields.iter().filter_map(|f| literal_value(&f.value)) {
                if !values.contains(&v) {
                    values.push(v);
                }
            }
            out.insert(o, values);
        }
    }
    Ok(out)
}

/// A literal of a canonical text form as a value (worker/jforge/worker/Canon.java: `"text"`
/// with `\"`, `\\` and `\uXXXX` escapes, `I5`, `L5`, `S5`, `B5`, `Btrue`, `C97`); `None`
/// for null, objects, enums and floating-point values.
fn literal_value(token: &str) -> Option<Value> {
    if let Some(body) = token.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        return unescape(body).map(Value::Str);
    }
    let (tag, n) = (token.get(..1)?, token.get(1..)?);
    match tag {
        "I" => n.parse().ok().map(Value::Int),
        "L" => n.parse().ok().map(Value::Long),
        "S" => n.parse().ok().map(Value::Short),
        "C" => n.parse().ok().map(Value::Char),
        "B" => match n {
            "true" => Some(Value::Bool(true)),
            "false" => Some(Value::Bool(false)),
            _ => n.parse().ok().map(Value::Byte),
        },
        _ => None,
    }
}

/// The text of a string literal of a canonical form, escapes undone.
fn unescape(body: &str) -> Option<String> {
    let mut out = String::new();
    let mut units: Vec<u16> = Vec::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            units.extend(c.encode_utf16(&mut [0; 2]).iter());
            continue;
        }
        match chars.next()? {
            'u' => {
                let hex: String = chars.by_ref().take(4).collect();
                units.push(u16::from_str_radix(&hex, 16).ok()?);
            }
            other => units.extend(other.encode_utf16(&mut [0; 2]).iter()),
        }
    }
    out.push_str(&String::from_utf16(&units).ok()?);
    Some(out)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_of_a_text_form_become_values() {
        assert_eq!(
            literal_value(r#""a\"b\\c\u00e9""#),
            Some(Value::Str("a\"b\\cé".into()))
        );
        assert_eq!(literal_value("I-7"), Some(Value::Int(-7)));
        assert_eq!(literal_value("L12"), Some(Value::Long(12)));
        assert_eq!(literal_value("Btrue"), Some(Value::Bool(true)));
        assert_eq!(literal_value("B3"), Some(Value::Byte(3)));
        assert_eq!(literal_value("C97"), Some(Value::Char(97)));
        for not_a_literal in ["N", "#2", "F3f400000", "ds.Color.RED", "Ix"] {
            assert_eq!(literal_value(not_a_literal), None, "{not_a_literal}");
        }
    }

    #[test]
    fn the_values_a_form_holds_are_read_in_its_order() {
        let form = r#"ds.C{I2,java.util.LinkedHashMap$Entry{N,N,I98,"b",N,I10,},"a",}"#;
        let (fields, _) = crate::exhaustive::canon::text_fields(form).unwrap();
        let values: Vec<Value> = fields
            .iter()
            .filter_map(|f| literal_value(&f.value))
            .collect();
        assert_eq!(
            values,
            [
                Value::Int(2),
                Value::Int(98),
                Value::Str("b".into()),
                Value::Int(10),
                Value::Str("a".into()),
            ]
        );
    }
}
