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
//!
//! A stable, writable value is still not asserted when the assertion cannot fail
//! ([`worth_asserting`]): a static field read (`TimeUnit.DAYS` asserted equal to
//! `TimeUnit.DAYS`), `x.equals(x)`, `equals`/`hashCode` of an object whose class keeps
//! `Object`'s identity (`hashCode` of an enum too) and an enum's `ordinal()`.
//!
//! Why shared: `exhaustive` once wrote its structure tests from a single run (values that
//! differ between JVMs were asserted) and asserted enum constants tests cannot name, after
//! `gen` had fixed both.

pub mod check;

use crate::emit::{Ending, TestCase};
use crate::model::Model;
use crate::runner::{
    ExecMode, ExecRequest, OBSERVER_STOPPED, Observed, Pool, SeqResult, StmtOutcome,
};
use crate::sequence::{OpId, OpKind, Operation, SeqRef, Stmt, Value};
use anyhow::Context;
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

impl Expect {
    /// The test's ending, with the exception's `message` to assert (the catch's class is set
    /// later, by the check: `catch_in_release`).
    fn ending(&self, message: Option<String>) -> Ending {
        match self {
            Expect::Normal => Ending::Normal,
            Expect::Exception(cls) => Ending::ExpectedException {
                class: cls.clone(),
                catch_as: None,
                message,
            },
        }
    }
}

/// The worker sends at most this many UTF-16 units of a message (`Outcomes.MAX_MESSAGE`):
/// one that long may have been cut, and is not asserted.
const WORKER_MESSAGE_LIMIT: usize = 500;

/// Exceptions the JVM itself throws from any code (a null dereference, an index, a cast):
/// their messages are the JVM's, which change between releases and flags (helpful
/// NullPointerException messages), even when the top frame is the user's code.
const JVM_THROWN: &[&str] = &[
    "java.lang.NullPointerException",
    "java.lang.ArrayIndexOutOfBoundsException",
    "java.lang.ArrayStoreException",
    "java.lang.ArithmeticException",
    "java.lang.ClassCastException",
    "java.lang.NegativeArraySizeException",
    "java.lang.IllegalMonitorStateException",
];

/// The message of the exception both runs' last statement threw, when a test can assert
/// it: code outside the JDK threw it (its top frame), it is not one the JVM raises itself
/// ([`JVM_THROWN`]), both runs (another zone, locale and charset in the second) gave the
/// same message, short enough not to have been cut (the worker sends 500 characters) and
/// without an identity hash. Why: the same exception class for another reason is another
/// behaviour (Defects4J's Lang-7 and Lang-11: an `IllegalArgumentException` of the class's
/// own check, and one of `java.util.Random` when the check is missing).
fn thrown_message(r1: &SeqResult, r2: &SeqResult) -> Option<String> {
    let last = |r: &SeqResult| match r.outcomes.last() {
        Some(StmtOutcome::Exception {
            class,
            message: Some(m),
            outside_jdk: true,
            ..
        }) if !JVM_THROWN.contains(&class.as_ref()) => Some(m.clone()),
        _ => None,
    };
    let (a, b) = (last(r1)?, last(r2)?);
    let whole = a.encode_utf16().count() < WORKER_MESSAGE_LIMIT;
    (a == b && whole && !IDENTITY.is_match(&a)).then_some(a)
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
    /// Tests kept with an observer stopped at its limit (a getter that loops) in either JVM;
    /// it and the later observers of the test are not asserted (see
    /// [`crate::runner::OBSERVER_STOPPED`]).
    pub stopped_observers: usize,
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

/// Whether the value of a call of `op` on `args` (receiver first, for an observer the
/// observed statement alone) is worth asserting, `outcomes` being the statements' outcomes
/// in a run: not when the assertion could only fail if the JDK changed, i.e. when it
/// restates the test's own code:
/// - a static field read (`TimeUnit timeUnit0 = TimeUnit.DAYS; assertEquals(TimeUnit.DAYS,
///   timeUnit0)`, a `static final String`): the assertion repeats the expression;
/// - `x.equals(x)`: reflexivity, which the worker checks as a contract apart;
/// - `equals` on a receiver whose runtime class keeps `Object.equals` (identity: true only
///   for the same object, which the test's text already says) and `hashCode` on one whose
///   class keeps identity hashing (`Object.hashCode`, `Enum.hashCode`): a number of the JVM,
///   asserted only when two runs happened to agree;
/// - `ordinal()` of an enum: the declaration order (the JDK's `Enum.ordinal`, reached
///   through an interface the enum implements or an observer).
///
/// Where "does the class override equals" is decided: by the worker, on the receiver's
/// runtime class, not by the model on its static type. A `Ranked` (an interface) or a
/// factory's declared `Object` says nothing of the object behind it: an enum, an anonymous
/// stub jforge made, a JDK-internal or hidden class the model cannot load. The worker
/// already answers it for every object it reports (`Outcomes.overrides`: the runtime class's
/// public `equals(Object)` is declared below `Object`; only then is the object's
/// fingerprint, its class and `hashCode()`, sent), so no new protocol field is needed: an
/// object without a fingerprint compares by identity (arrays too). That the same answer
/// stands for `hashCode` is the equals/hashCode contract (a class that overrides one
/// overrides both); a class that overrides only `hashCode` loses an assertion, never gets a
/// useless one.
pub fn worth_asserting(op: &Operation, args: &[u32], outcomes: &[StmtOutcome]) -> bool {
    if op.kind == OpKind::StaticFieldGet {
        return false;
    }
    let receiver = || {
        args.first()
            .and_then(|&r| outcomes.get(r as usize))
            .filter(|_| op.has_receiver())
    };
    if op.is_equals() {
        return args.get(1) != args.first() && !receiver().is_some_and(identity_equality);
    }
    if op.is_hash_code() {
        return !receiver().is_some_and(|o| {
            identity_equality(o)
                || matches!(o, StmtOutcome::Normal(Observed::Value(Value::Enum(..))))
        });
    }
    if op.is_ordinal() {
        return !(op.class == "java.lang.Enum"
            || receiver().is_some_and(|o| {
                matches!(o, StmtOutcome::Normal(Observed::Value(Value::Enum(..))))
            }));
    }
    true
}

/// Whether the object a statement produced compares by identity (`Object.equals`): an
/// object the worker sent no fingerprint for, or an array.
fn identity_equality(o: &StmtOutcome) -> bool {
    matches!(
        o,
        StmtOutcome::Normal(Observed::Object {
            fingerprint: None,
            ..
        }) | StmtOutcome::Normal(Observed::Value(Value::Array(..)))
    )
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

/// The second JVM's runs of `reqs`, but for the items their first run (`first`) already
/// drops (another ending, a contract violation; `true` in the first vector): not run again.
/// commons-collections4's list package had two whose call hung at the 5 s limit, in each JVM.
/// How many of `r`'s observers ran before one was stopped at its limit (all when none was).
fn observed_until_stopped(r: &SeqResult) -> usize {
    r.observers
        .iter()
        .position(|o| matches!(&o.result, Err(c) if c == OBSERVER_STOPPED))
        .unwrap_or(r.observers.len())
}

fn run_elsewhere(
    pool: &mut Pool,
    items: &[ObserveItem],
    reqs: Vec<ExecRequest>,
    first: &[SeqResult],
) -> anyhow::Result<(Vec<bool>, std::vec::IntoIter<SeqResult>)> {
    let settled: Vec<bool> = items
        .iter()
        .zip(first)
        .map(|(it, r1)| !same_ending(r1, &it.expect) || !r1.violations.is_empty())
        .collect();
    let again: Vec<(ExecRequest, usize)> = reqs
        .into_iter()
        .zip(first)
        .zip(&settled)
        .filter(|(_, settled)| !**settled)
        .map(|((mut req, r1), _)| {
            // An observer stopped in the first JVM, and those after it, cannot be asserted
            // (both runs must return a value): the second JVM does not wait for them.
            req.observers.truncate(observed_until_stopped(r1));
            (req, r1.worker)
        })
        .collect();
    Ok((settled, pool.execute_elsewhere(again)?.into_iter()))
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
    let (settled, mut second) = run_elsewhere(pool, items, reqs, &first)?;
    let mut out = Vec::with_capacity(items.len());
    for ((it, r1), settled) in items.iter().zip(&first).zip(settled) {
        if settled {
            if same_ending(r1, &it.expect) {
                stats.contract_violations += 1;
            } else {
                stats.unstable_tests += 1;
            }
            out.push(None);
            continue;
        }
        let r2 = &second
            .next()
            .context("internal error: the second JVM returned fewer results than asked")?;
        if observed_until_stopped(r1) < r1.observers.len()
            || observed_until_stopped(r2) < r2.observers.len()
        {
            stats.stopped_observers += 1;
        }
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
            let Stmt::Call { op, args } = st else {
                continue;
            };
            if pool.op(*op).is_some_and(|op| {
                !worth_asserting(op, args, &r1.outcomes) || !worth_asserting(op, args, &r2.outcomes)
            }) {
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
            if pool.op(o1.op).is_some_and(|op| {
                !worth_asserting(op, &[o1.stmt], &r1.outcomes)
                    || !worth_asserting(op, &[o2.stmt], &r2.outcomes)
            }) {
                continue;
            }
            if let (Ok(a), Ok(b)) = (&o1.result, &o2.result) {
                if a == b && assertable(model, a) && o1.stmt == o2.stmt && o1.op == o2.op {
                    observers.push((o1.stmt, o1.op, a.clone()));
                } else {
                    dropped(stats, a == b, r1, r2);
                }
            }
        }
        let message = match it.expect {
            Expect::Exception(_) => thrown_message(r1, r2),
            Expect::Normal => None,
        };
        out.push(Some(TestCase {
            defect: None,
            seq: seq.clone(),
            asserts,
            observers,
            ending: it.expect.ending(message),
        }));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::JType;
    use std::sync::Arc;

    fn object(fingerprint: Option<u64>) -> StmtOutcome {
        StmtOutcome::Normal(Observed::Object {
            class: Arc::from("com.x.Meter"),
            fingerprint,
        })
    }
    fn value(v: Value) -> StmtOutcome {
        StmtOutcome::Normal(Observed::Value(v))
    }
    fn method(class: &str, name: &str, descriptor: &str) -> Operation {
        let owner = JType::class(class);
        Operation::instance_call(class, name, descriptor, &owner, None)
    }

    #[test]
    fn assertions_that_cannot_fail_are_not_worth_writing() {
        let equals = method("java.lang.Object", "equals", "(Ljava/lang/Object;)Z");
        let hash = method("java.lang.Object", "hashCode", "()I");
        let ordinal = method("com.x.Ranked", "ordinal", "()I");
        let size = method("com.x.Meter", "size", "()I");
        let unit = value(Value::Enum("com.x.Unit".into(), "KILO".into()));
        let identity = object(None);
        let valued = object(Some(7));
        // a static field read (`TimeUnit.DAYS`, a static final String)
        let mut days = method("java.util.concurrent.TimeUnit", "DAYS", "");
        days.kind = OpKind::StaticFieldGet;
        assert!(!worth_asserting(&days, &[], &[]));
        // x.equals(x), whatever x's class
        let outs = [valued.clone(), valued.clone()];
        assert!(!worth_asserting(&equals, &[0, 0], &outs));
        assert!(worth_asserting(&equals, &[0, 1], &outs));
        // equals and hashCode of an object that compares by identity (no fingerprint), or
        // of an array; hashCode of an enum constant
        let outs = [identity.clone(), valued.clone()];
        assert!(!worth_asserting(&equals, &[0, 1], &outs));
        assert!(worth_asserting(&equals, &[1, 0], &outs));
        assert!(!worth_asserting(&hash, &[0], &outs));
        assert!(worth_asserting(&hash, &[1], &outs));
        let array = value(Value::Array("int".into(), vec![Value::Int(1)]));
        assert!(!worth_asserting(&hash, &[0], &[array]));
        assert!(!worth_asserting(&hash, &[0], std::slice::from_ref(&unit)));
        // an enum's equals is meaningful (KILO is not TON)
        assert!(worth_asserting(
            &equals,
            &[0, 1],
            &[unit.clone(), identity.clone()]
        ));
        // ordinal() of an enum, through an interface or Enum itself; of a stub it is its own
        assert!(!worth_asserting(
            &ordinal,
            &[0],
            std::slice::from_ref(&unit)
        ));
        assert!(worth_asserting(
            &ordinal,
            &[0],
            std::slice::from_ref(&identity)
        ));
        let enum_ordinal = method("java.lang.Enum", "ordinal", "()I");
        assert!(!worth_asserting(&enum_ordinal, &[0], &[]));
        // anything else is asserted as before
        assert!(worth_asserting(
            &size,
            &[0],
            std::slice::from_ref(&identity)
        ));
    }
}
