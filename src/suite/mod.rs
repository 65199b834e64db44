//! The suite stage every generator shares, behind its search: from sequences a generator
//! chose to tests a user can keep.
//!
//! - [`observe`]: run each sequence in `Observe` mode in one worker JVM and again in another;
//!   keep only sequences that end the same way in both, and assert only values that were
//!   equal in both runs and can be written (no identity-hash Strings, no huge Strings, no
//!   constants of enums a test cannot name). Rewritten clock reads make the two runs see
//!   different clocks (fixed, then years away with large steps: `crate::instrument::clock`),
//!   so a value derived from the clock differs and is not asserted either; those are counted
//!   apart ([`ObserveStats::clock_assertions`]). Optional contract values: a sequence whose
//!   values break an object contract is not a regression test (the generator reports it as
//!   an error instead).
//!
//! Why shared: `exhaustive` once wrote its structure tests from a single run (values that
//! differ between JVMs were asserted) and asserted enum constants tests cannot name, after
//! `gen` had fixed both.

pub mod check;

use crate::emit::{Ending, TestCase};
use crate::model::Model;
use crate::runner::{ExecMode, ExecRequest, Observed, Pool, SeqResult, StmtOutcome};
use crate::sequence::{OpId, SeqRef, Stmt, Value};
use regex::Regex;
use std::sync::LazyLock;

/// Longest String asserted.
const MAX_ASSERTED_STRING: usize = 2000;
/// Longest array asserted (the worker reports at most 64 elements).
const MAX_ASSERTED_ARRAY: usize = 64;

static IDENTITY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"@[0-9a-f]{5,}").expect("valid regex"));

/// How a sequence to observe is expected to end.
#[derive(Clone, Debug, PartialEq)]
pub enum Expect {
    Normal,
    /// The last statement throws this public exception class (binary name).
    Exception(String),
}

/// One sequence to turn into a regression test.
#[derive(Clone, Debug)]
pub struct ObserveItem {
    pub seq: SeqRef,
    pub expect: Expect,
    /// Observer calls to make after the last statement: (statement, observer op).
    pub observers: Vec<(u32, OpId)>,
    /// Statements whose values get the object contracts checked (violators are dropped).
    pub contract_values: Vec<u32>,
}

/// What [`observe`] dropped.
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct ObserveStats {
    /// Sequences whose ending differed between two JVMs (dropped).
    pub unstable_tests: usize,
    /// Assertions dropped because the value differed between two JVMs or cannot be written
    /// (those of [`Self::clock_assertions`] not included).
    pub unstable_assertions: usize,
    /// Assertions dropped because the value differed between two JVMs and the sequence read
    /// the clock (see [`dropped`]).
    pub clock_assertions: usize,
    /// Sequences dropped because a value broke an object contract.
    pub contract_violations: usize,
}

/// Whether `v` may appear in an assertion: Strings that look like identity hashes, huge
/// Strings and constants of enums the test cannot name (e.g. a private enum implementing a
/// public interface) are left out, and arrays holding any of them.
pub fn assertable(model: &Model, v: &Value) -> bool {
    match v {
        Value::Str(s) => s.len() <= MAX_ASSERTED_STRING && !IDENTITY.is_match(s),
        Value::Enum(class, _) => model.is_accessible(class),
        Value::Array(_, items) => {
            items.len() <= MAX_ASSERTED_ARRAY
                && items
                    .iter()
                    .all(|v| !matches!(v, Value::Array(..)) && assertable(model, v))
                && !IDENTITY.is_match(&array_text(items))
        }
        _ => true,
    }
}

/// The text a `char[]` or `byte[]` spells (`toCharArray()`, `getBytes()` of a String that
/// holds an identity hash must not be asserted either); empty for other arrays.
fn array_text(items: &[Value]) -> String {
    items
        .iter()
        .filter_map(|v| match v {
            Value::Char(c) => char::from_u32(u32::from(*c)),
            Value::Byte(b) => Some(*b as u8 as char),
            _ => None,
        })
        .collect()
}

fn stmt_value(o: &StmtOutcome) -> Option<Value> {
    match o {
        StmtOutcome::Normal(Observed::Value(v)) => Some(v.clone()),
        StmtOutcome::Normal(Observed::Null) => Some(Value::Null),
        _ => None,
    }
}

fn same_ending(r: &SeqResult, expect: &Expect) -> bool {
    let n = r.outcomes.len();
    match expect {
        Expect::Normal => r.first_abnormal().is_none(),
        Expect::Exception(cls) => {
            r.first_abnormal() == Some(n - 1)
                && matches!(&r.outcomes[n - 1], StmtOutcome::Exception { public_class, .. } if public_class.as_ref() == cls)
        }
    }
}

/// Counts an assertion left out: one whose value differed between the two runs of a sequence
/// that read the clock is the clock's (the second opinion also changes the zone, locale and
/// charset, but a sequence that never read the clock cannot derive a value from it, and one
/// that did gets a clock years away with other steps, so its clock-derived values always
/// differ), every other one is unstable.
fn dropped(stats: &mut ObserveStats, equal: bool, r1: &SeqResult, r2: &SeqResult) {
    if !equal && (r1.clock_reads > 0 || r2.clock_reads > 0) {
        stats.clock_assertions += 1;
    } else {
        stats.unstable_assertions += 1;
    }
}

/// Runs `items` in `Observe` mode in two JVMs; one entry per item: the test, or `None` when
/// the item was dropped (unstable ending, or a contract violation).
pub fn observe(
    model: &Model,
    pool: &mut Pool,
    items: &[ObserveItem],
    stats: &mut ObserveStats,
) -> anyhow::Result<Vec<Option<TestCase>>> {
    if items.is_empty() {
        return Ok(Vec::new());
    }
    let reqs: Vec<ExecRequest> = items
        .iter()
        .map(|it| ExecRequest {
            seq: it.seq.clone(),
            mode: ExecMode::Observe,
            contract_values: it.contract_values.clone(),
            observers: it.observers.clone(),
            reuse: None,
        })
        .collect();
    let first = pool.execute(reqs.clone())?;
    let again: Vec<(ExecRequest, usize)> = reqs
        .into_iter()
        .zip(first.iter().map(|r| r.worker))
        .collect();
    let second = pool.execute_elsewhere(again)?;
    let mut out = Vec::with_capacity(items.len());
    for ((it, r1), r2) in items.iter().zip(&first).zip(&second) {
        if !same_ending(r1, &it.expect) || !same_ending(r2, &it.expect) {
            stats.unstable_tests += 1;
            out.push(None);
            continue;
        }
        if !r1.violations.is_empty() || !r2.violations.is_empty() {
            stats.contract_violations += 1;
            out.push(None);
            continue;
        }
        let seq = &it.seq;
        let mut asserts = vec![None; seq.len()];
        for (i, st) in seq.stmts.iter().enumerate() {
            if !matches!(st, Stmt::Call { .. }) {
                continue;
            }
            if let (Some(a), Some(b)) = (stmt_value(&r1.outcomes[i]), stmt_value(&r2.outcomes[i])) {
                if a == b && assertable(model, &a) {
                    asserts[i] = Some(a);
                } else {
                    dropped(stats, a == b, r1, r2);
                }
            }
        }
        let mut observers = Vec::new();
        for (o1, o2) in r1.observers.iter().zip(&r2.observers) {
            if let (Ok(a), Ok(b)) = (&o1.result, &o2.result) {
                if a == b && assertable(model, a) && o1.stmt == o2.stmt && o1.op == o2.op {
                    observers.push((o1.stmt, o1.op, a.clone()));
                } else {
                    dropped(stats, a == b, r1, r2);
                }
            }
        }
        let ending = match &it.expect {
            Expect::Normal => Ending::Normal,
            Expect::Exception(cls) => Ending::ExpectedException { class: cls.clone() },
        };
        out.push(Some(TestCase {
            defect: None,
            seq: seq.clone(),
            asserts,
            observers,
            ending,
        }));
    }
    Ok(out)
}
