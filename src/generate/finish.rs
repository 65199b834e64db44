//! From candidates to test cases.
//!
//! Regression candidates are executed again in `Observe` mode (return values and observer
//! methods recorded), then a second time in a different worker JVM; only values equal in both
//! runs become assertions, so identity hash codes, addresses, times and random numbers never
//! reach a test. Error candidates are reduced by removing every statement not needed to
//! reproduce the same violation (seed 003, §6.1 phase 1), confirmed in another JVM, and kept
//! one per defect (`random::DefectKey`).

use super::ops::OpSet;
use super::random::{CandEnding, Candidate, ErrorCandidate, Generator, Violation, null_input};
use crate::emit::{Ending, TestCase};
use crate::runner::{ExecMode, ExecRequest, Observed, Pool, SeqResult, StmtOutcome};
use crate::sequence::{OpId, Sequence, Stmt, Value};
use regex::Regex;
use std::sync::{Arc, LazyLock};

/// Observer calls per value.
const MAX_OBSERVERS: usize = 12;
/// Longest String asserted.
const MAX_ASSERTED_STRING: usize = 2000;

static IDENTITY: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"@[0-9a-f]{5,}").expect("valid regex"));

#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct FinishStats {
    /// Regression candidates whose outcome differed between two JVMs (dropped).
    pub unstable_tests: usize,
    /// Assertions dropped because the value differed between two JVMs or looked like an
    /// identity hash.
    pub unstable_assertions: usize,
    /// Error candidates that did not reproduce in a second JVM (dropped).
    pub unreproducible_errors: usize,
    /// Statements removed by minimizing error tests.
    pub minimized_statements: usize,
}

/// An error-revealing test and what it shows.
#[derive(Clone, Debug)]
pub struct ErrorTest {
    pub case: TestCase,
    pub op: OpId,
    pub contract: &'static str,
    /// How many generated sequences showed this kind of violation.
    pub occurrences: u64,
    /// Through how many operations it showed (`ErrorCandidate::routes`).
    pub routes: usize,
    /// For an object contract: the class whose contract breaks.
    pub class: Option<Arc<str>>,
}

fn observer_calls(ops: &OpSet, seq: &Sequence, stmt: u32) -> Vec<(u32, OpId)> {
    let ty = match &seq.stmts[stmt as usize] {
        Stmt::Call { op, .. } => ops.table.get(*op).ret.clone(),
        _ => None,
    };
    let Some(ty) = ty else { return Vec::new() };
    ops.observers.get(&ty).map_or(Vec::new(), |v| {
        v.iter().take(MAX_OBSERVERS).map(|&o| (stmt, o)).collect()
    })
}

fn receiver_of_last(seq: &Sequence, ops: &OpSet) -> Option<u32> {
    match seq.stmts.last()? {
        Stmt::Call { op, args } if ops.table.get(*op).has_receiver() => args.first().copied(),
        _ => None,
    }
}

/// Pick at most `limit` candidates spread evenly over the run (deterministic).
fn spread(mut cands: Vec<Candidate>, limit: usize) -> Vec<Candidate> {
    if cands.len() <= limit {
        return cands;
    }
    let n = cands.len();
    let keep: Vec<usize> = (0..limit).map(|k| k * n / limit).collect();
    let mut out = Vec::with_capacity(limit);
    for (i, c) in cands.drain(..).enumerate() {
        if keep.binary_search(&i).is_ok() {
            out.push(c);
        }
    }
    out
}

/// Whether `v` may appear in an assertion: Strings that look like identity hashes, huge
/// Strings and constants of enums the test cannot name (e.g. a private enum implementing a
/// public interface) are left out.
fn assertable(generator: &Generator, v: &Value) -> bool {
    match v {
        Value::Str(s) => s.len() <= MAX_ASSERTED_STRING && !IDENTITY.is_match(s),
        Value::Enum(class, _) => generator.is_accessible(class),
        _ => true,
    }
}

fn stmt_value(o: &StmtOutcome) -> Option<Value> {
    match o {
        StmtOutcome::Normal(Observed::Value(v)) => Some(v.clone()),
        StmtOutcome::Normal(Observed::Null) => Some(Value::Null),
        _ => None,
    }
}

fn same_ending(r: &SeqResult, ending: &CandEnding) -> bool {
    let n = r.outcomes.len();
    match ending {
        CandEnding::Normal => r.first_abnormal().is_none(),
        CandEnding::Exception(cls) => {
            r.first_abnormal() == Some(n - 1)
                && matches!(&r.outcomes[n - 1], StmtOutcome::Exception { public_class, .. } if public_class.as_ref() == cls)
        }
    }
}

/// Build the regression tests.
pub fn regression_tests(
    generator: &Generator,
    pool: &mut Pool,
    limit: usize,
    stats: &mut FinishStats,
) -> anyhow::Result<Vec<TestCase>> {
    let ops = generator.ops;
    let cands = spread(generator.final_candidates(), limit);
    let cands = super::simplify::collapse_candidates(cands, pool)?; // readable tests: simplify.rs
    if cands.is_empty() {
        return Ok(Vec::new());
    }
    let reqs: Vec<ExecRequest> = cands
        .iter()
        .map(|c| {
            let seq = &c.comp.seq;
            let mut observers = Vec::new();
            if c.ending == CandEnding::Normal {
                let last = seq.len() as u32 - 1;
                observers.extend(observer_calls(ops, seq, last));
                if let Some(r) = receiver_of_last(seq, ops) {
                    observers.extend(observer_calls(ops, seq, r));
                }
            }
            ExecRequest {
                seq: seq.clone(),
                mode: ExecMode::Observe,
                contract_values: Vec::new(),
                observers,
                reuse: None,
            }
        })
        .collect();
    let first = pool.execute(reqs.clone())?;
    let again: Vec<(ExecRequest, usize)> = reqs
        .into_iter()
        .zip(first.iter().map(|r| r.worker))
        .collect();
    let second = pool.execute_elsewhere(again)?;
    let mut out = Vec::new();
    for ((c, r1), r2) in cands.iter().zip(&first).zip(&second) {
        if !same_ending(r1, &c.ending) || !same_ending(r2, &c.ending) {
            stats.unstable_tests += 1;
            continue;
        }
        let seq = &c.comp.seq;
        let mut asserts = vec![None; seq.len()];
        for (i, st) in seq.stmts.iter().enumerate() {
            if !matches!(st, Stmt::Call { .. }) {
                continue;
            }
            if let (Some(a), Some(b)) = (stmt_value(&r1.outcomes[i]), stmt_value(&r2.outcomes[i])) {
                if a == b && assertable(generator, &a) {
                    asserts[i] = Some(a);
                } else {
                    stats.unstable_assertions += 1;
                }
            }
        }
        let mut observers = Vec::new();
        for (o1, o2) in r1.observers.iter().zip(&r2.observers) {
            if let (Ok(a), Ok(b)) = (&o1.result, &o2.result) {
                if a == b && assertable(generator, a) && o1.stmt == o2.stmt && o1.op == o2.op {
                    observers.push((o1.stmt, o1.op, a.clone()));
                } else {
                    stats.unstable_assertions += 1;
                }
            }
        }
        let ending = match &c.ending {
            CandEnding::Normal => Ending::Normal,
            CandEnding::Exception(cls) => Ending::ExpectedException { class: cls.clone() },
        };
        out.push(TestCase {
            seq: seq.clone(),
            asserts,
            observers,
            ending,
        });
    }
    Ok(out)
}

fn contract_values(v: &Violation) -> Vec<u32> {
    match v {
        Violation::Exception { .. } => Vec::new(),
        Violation::Contract { a, b, .. } => {
            let mut cv = vec![*a];
            if let Some(b) = b {
                cv.push(*b);
            }
            cv
        }
    }
}

/// Does `r` show violation `v` again? Returns the violation as reported this time.
fn reproduced(seq: &Sequence, v: &Violation, r: &SeqResult) -> Option<Violation> {
    match v {
        Violation::Exception { contract, class } => {
            let n = r.outcomes.len();
            let ok = r.first_abnormal() == Some(n - 1)
                && matches!(&r.outcomes[n - 1], StmtOutcome::Exception { class: c, .. } if c.as_ref() == class)
                && (*contract != "npe-without-null-input" || !null_input(seq, r));
            ok.then(|| v.clone())
        }
        Violation::Contract { contract, a, b } => r
            .violations
            .iter()
            .find(|x| x.contract == *contract && (x.a == *a || Some(x.a) == *b))
            .map(|x| Violation::Contract {
                contract: x.contract,
                a: x.a,
                b: x.b,
            }),
    }
}

fn request(seq: &Sequence, v: &Violation) -> ExecRequest {
    ExecRequest {
        seq: Arc::new(seq.clone()),
        mode: ExecMode::Generate,
        contract_values: contract_values(v),
        observers: Vec::new(),
        reuse: None,
    }
}

fn shift(v: &Violation, removed: u32) -> Violation {
    let f = |x: u32| if x > removed { x - 1 } else { x };
    match v {
        Violation::Exception { .. } => v.clone(),
        Violation::Contract { contract, a, b } => Violation::Contract {
            contract: *contract,
            a: f(*a),
            b: b.map(f),
        },
    }
}

/// Remove every statement not needed for the violation (backwards, one at a time).
fn minimize(
    pool: &mut Pool,
    seq: &Sequence,
    v: &Violation,
) -> anyhow::Result<(Sequence, Violation)> {
    let mut seq = seq.clone();
    let mut v = v.clone();
    let mut i = seq.len();
    while i > 0 {
        i -= 1;
        let protected = match &v {
            Violation::Exception { .. } => i == seq.len() - 1,
            Violation::Contract { a, b, .. } => i as u32 == *a || Some(i as u32) == *b,
        };
        if protected {
            continue;
        }
        let Some(smaller) = seq.remove(i) else {
            continue;
        };
        let v2 = shift(&v, i as u32);
        let r = pool.execute(vec![request(&smaller, &v2)])?;
        if let Some(v3) = r.first().and_then(|r| reproduced(&smaller, &v2, r)) {
            seq = smaller;
            v = v3;
        }
    }
    Ok((seq, v))
}

/// Build the error-revealing tests: one per defect, minimized and confirmed.
pub fn error_tests(
    generator: &Generator,
    pool: &mut Pool,
    stats: &mut FinishStats,
) -> anyhow::Result<Vec<ErrorTest>> {
    let mut out = Vec::new();
    let errors: Vec<ErrorCandidate> = generator.errors.values().cloned().collect();
    for e in errors {
        let before = e.comp.seq.len();
        let (seq, v) = minimize(pool, &e.comp.seq, &e.violation)?;
        let first = pool.execute(vec![request(&seq, &v)])?;
        let Some(r1) = first.first() else { continue };
        let again = pool.execute_elsewhere(vec![(request(&seq, &v), r1.worker)])?;
        let confirmed = reproduced(&seq, &v, r1).is_some()
            && again
                .first()
                .is_some_and(|r| reproduced(&seq, &v, r).is_some());
        if !confirmed {
            stats.unreproducible_errors += 1;
            continue;
        }
        stats.minimized_statements += before - seq.len();
        let ending = match &v {
            Violation::Exception { contract, class } => Ending::ErrorException {
                class: class.clone(),
                contract: contract.to_string(),
            },
            Violation::Contract { contract, a, b } => Ending::ErrorContract {
                contract: *contract,
                a: *a,
                b: *b,
            },
        };
        let n = seq.len();
        out.push(ErrorTest {
            case: TestCase {
                seq: Arc::new(seq),
                asserts: vec![None; n],
                observers: Vec::new(),
                ending,
            },
            op: e.op,
            contract: v.contract_name(),
            occurrences: e.count,
            routes: e.routes.len(),
            class: e.class.clone(),
        });
    }
    Ok(out)
}
