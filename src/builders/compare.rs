//! Seed 004's experiment (FASE'19, Table 3): random generation for the same time with only the
//! builders and with the whole API, compared by the number of distinct objects of the classes
//! under test it builds (canonical forms, no scope bound) and by the largest one (objects
//! reachable from it). The generator is `jforge gen`'s, without coverage guidance (Randoop's
//! algorithm, as in the paper), with the ints 0..99 added to its literals; the objects are the
//! values it keeps for reuse, at most 50,000 per type (the generator then evicts the longer of
//! two random values): every value of a 60-second run would take tens of GiB (each holds its
//! whole sequence), so the figures compare two equally bounded samples, not whole runs.

use super::{Env, fieldext, pool_config};
use crate::generate::literals::LiteralPool;
use crate::generate::ops::build_ops;
use crate::generate::random::{GenConfig, Generator};
use crate::runner::{CANON_OP, ExecMode, ExecRequest, Pool};
use crate::sequence::{SeqRef, Value};
use anyhow::Context;
use std::collections::HashSet;
use std::time::Duration;

#[derive(Clone, Debug, serde::Serialize)]
pub struct GenFigures {
    /// Sequences generated.
    pub sequences: u64,
    /// Values of the classes under test kept by the generator.
    pub objects: usize,
    /// Distinct canonical forms among them.
    pub distinct: usize,
    /// Objects in the largest structure.
    pub largest: u32,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct GenComparison {
    pub seconds: f64,
    pub builders: GenFigures,
    pub whole_api: GenFigures,
}

/// Generates for `limit` with the methods whose signature is in `builders` (then with every
/// method) and measures what was built.
pub fn compare(
    env: &Env,
    builders: &[String],
    limit: Duration,
    seed: u64,
) -> anyhow::Result<GenComparison> {
    Ok(GenComparison {
        seconds: limit.as_secs_f64(),
        builders: generate(env, Some(builders), limit, seed)?,
        whole_api: generate(env, None, limit, seed)?,
    })
}

fn generate(
    env: &Env,
    only: Option<&[String]>,
    limit: Duration,
    seed: u64,
) -> anyhow::Result<GenFigures> {
    let mut ops = build_ops(env.model, env.classes, None, None);
    if let Some(only) = only {
        let table = &ops.table;
        ops.primary
            .retain(|&o| only.iter().any(|s| *s == table.get(o).signature()));
    }
    // Randoop's defaults hold five ints: a set of ints could never have more than five
    // elements; 0..99 let sets and trees grow as lists do
    let mut literals = LiteralPool::with_defaults();
    for v in 0..100 {
        literals.add_compared(v, false);
    }
    for c in env.classes {
        if let Some(ci) = env.model.get(c) {
            for l in &ci.literals {
                literals.add_literal(l);
            }
        }
    }
    let mut pool =
        Pool::start(pool_config(env, None, false)).context("starting the worker JVMs")?;
    let unregistered = pool.register(&ops.table)?;
    let cfg = GenConfig {
        seed,
        time_limit: Some(limit),
        max_per_type: MAX_VALUES_PER_TYPE,
        ..GenConfig::default()
    };
    let mut g = Generator::new(env.model, &ops, literals, cfg);
    for (op, why) in unregistered {
        g.exclude(op, &format!("cannot be loaded: {why}"));
    }
    g.run(&mut pool, &mut |_| {})?;
    pool.shutdown();
    let values: Vec<(SeqRef, u32)> = g
        .reusable_values()
        .filter(|(t, _, _)| {
            t.erasure()
                .class_name()
                .is_some_and(|n| env.classes.iter().any(|c| c == n))
        })
        .map(|(_, s, at)| (s.clone(), at))
        .collect();
    // distinct objects: hashed forms of every value; the largest: text forms (object counts)
    // of the values built by the longest sequences (texts of all would cost gigabytes)
    let forms = canonical_forms(env, &ops.table, &values, false)?;
    let distinct: HashSet<&String> = forms.iter().flatten().collect();
    let mut longest: Vec<usize> = (0..values.len()).collect();
    longest.sort_by_key(|&i| std::cmp::Reverse(values[i].0.len()));
    longest.truncate(LARGEST_SAMPLE);
    let sample: Vec<(SeqRef, u32)> = longest.iter().map(|&i| values[i].clone()).collect();
    let largest = canonical_forms(env, &ops.table, &sample, true)?
        .iter()
        .flatten()
        .filter_map(|t| fieldext::object_count(t).ok())
        .max()
        .unwrap_or(0);
    let distinct = distinct.len();
    Ok(GenFigures {
        sequences: g.progress.generated,
        objects: values.len(),
        distinct,
        largest,
    })
}

/// Values kept per type (memory: about 10 KiB each for sequences of 100 calls).
const MAX_VALUES_PER_TYPE: usize = 50_000;

/// Values whose text form is read for the largest structure: those of the longest sequences.
const LARGEST_SAMPLE: usize = 3000;

/// The canonical form (hash or text) of every value, on fresh workers with no scope bound.
fn canonical_forms(
    env: &Env,
    table: &crate::sequence::OpTable,
    values: &[(SeqRef, u32)],
    text: bool,
) -> anyhow::Result<Vec<Option<String>>> {
    let mut pool = Pool::start(pool_config(env, None, text)).context("starting the worker JVMs")?;
    pool.register(table)?;
    let mut out = Vec::with_capacity(values.len());
    for chunk in values.chunks(2000) {
        let reqs = chunk
            .iter()
            .map(|(seq, at)| ExecRequest {
                seq: seq.clone(),
                mode: ExecMode::Canon,
                contract_values: Vec::new(),
                observers: vec![(*at, CANON_OP)],
                reuse: None,
            })
            .collect();
        for r in pool.execute(reqs)? {
            out.push(r.observers.iter().find_map(|o| match &o.result {
                Ok(Value::Str(t)) if o.op == CANON_OP && r.first_abnormal().is_none() => {
                    Some(t.clone())
                }
                _ => None,
            }));
        }
    }
    pool.shutdown();
    Ok(out)
}
