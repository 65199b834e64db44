//! Readable regression tests: statements that do not bear on the final call are dropped and
//! runs of a repeated call that nothing uses are collapsed before the tests are built.
//!
//! Generation repeats a call up to 100 times (`random/assemble.rs`, repetition) to reach deep states;
//! a written test with fifty identical `list.add(i0, str0);` lines is unreadable. Before
//! `finish::regression_tests` observes its candidates, each run of identical consecutive
//! calls whose results no statement uses is collapsed to its last call; the two-JVM
//! observation then decides the assertions on the collapsed sequence, so what a test asserts
//! is always what its written statements do. A collapsed sequence must still end the same way
//! (normally, or with the same exception): one extra run checks that, and when the
//! repetition was needed to reach the ending (`stack.pop()` until it throws) the candidate
//! keeps its original sequence. A collapsed sequence equal to an earlier candidate's is
//! dropped (the same test twice).

use super::random::{CandEnding, Candidate, Component};
use crate::runner::{ExecMode, ExecRequest, Pool, SeqResult, StmtOutcome};
use crate::sequence::{OpId, Sequence, Stmt};
use std::collections::HashSet;
use std::sync::Arc;

/// A shorter sequence and the indices (in the original) of the statements it kept.
type Shortened = (Sequence, Vec<usize>);

/// `seq` with every run of identical consecutive calls whose results no statement uses
/// collapsed to its last call, and the indices of the statements kept; `None` when there
/// is no such run.
pub fn collapse_repeats(seq: &Sequence) -> Option<(Sequence, Vec<usize>)> {
    collapse_runs(seq, 1)
}

/// Which statements' values some statement of `seq` takes as an input.
fn used_values(seq: &Sequence) -> Vec<bool> {
    let mut used = vec![false; seq.stmts.len()];
    for s in &seq.stmts {
        for &i in s.inputs() {
            if let Some(u) = used.get_mut(i as usize) {
                *u = true;
            }
        }
    }
    used
}

/// Like [`collapse_repeats`], keeping the last `keep_last` calls of each run.
pub fn collapse_runs(seq: &Sequence, keep_last: usize) -> Option<(Sequence, Vec<usize>)> {
    let n = seq.stmts.len();
    let used = used_values(seq);
    let keep: Vec<usize> = (0..n)
        .filter(|&i| {
            // how many identical calls follow statement i in its run
            let after = seq.stmts[i + 1..]
                .iter()
                .take_while(|s| **s == seq.stmts[i])
                .count();
            let repeated = matches!(seq.stmts[i], Stmt::Call { .. }) && after >= keep_last;
            !repeated || used[i]
        })
        .collect();
    if keep.len() == n {
        return None;
    }
    Some((keep_only(seq, &keep), keep))
}

/// `seq` with only the statements that bear on its final call, and their indices; `None` when
/// every statement does. A statement bears on it when its value is an input of a statement
/// that does, or when it takes as input an object that a later such statement uses (a call
/// that changes that object's state: `list.add(s)` before `booking.guests(list)`). What is
/// dropped is what a random combination of component sequences brought along: a second
/// `LocalDate` nobody uses, a `Booking` built and forgotten.
pub fn slice_to_final(seq: &Sequence) -> Option<(Sequence, Vec<usize>)> {
    let n = seq.stmts.len();
    if n < 2 {
        return None;
    }
    let mut needed = vec![false; n];
    // values read by the statements kept so far (all after the one being decided)
    let mut used = vec![false; n];
    needed[n - 1] = true;
    for &a in seq.stmts[n - 1].inputs() {
        used[a as usize] = true;
    }
    for i in (0..n - 1).rev() {
        let s = &seq.stmts[i];
        let bears = used[i]
            || (matches!(s, Stmt::Call { .. }) && s.inputs().iter().any(|&a| used[a as usize]));
        if bears {
            needed[i] = true;
            for &a in s.inputs() {
                used[a as usize] = true;
            }
        }
    }
    let keep: Vec<usize> = (0..n).filter(|&i| needed[i]).collect();
    if keep.len() == n {
        return None;
    }
    Some((keep_only(seq, &keep), keep))
}

/// `seq` without its `x.equals(x)` calls (the receiver its own argument) whose value no
/// statement uses, the final call excepted (the test's subject: selection decides about
/// it) unless its `equals` is Object's (`is_identity`: true by identity, no branch of the
/// code under test; the test then ends on the call before), and the indices kept; `None`
/// when there is none. Such a call is true by the reflexivity contract (the worker checks it apart) and is never asserted, so its line
/// says nothing; [`collapse_pass`] keeps it where the run without it ends otherwise or
/// covers less (an `equals` whose `this == o` branch only it reaches).
pub fn drop_self_equals(
    seq: &Sequence,
    is_equals: &dyn Fn(OpId) -> bool,
    is_identity: &dyn Fn(OpId) -> bool,
) -> Option<(Sequence, Vec<usize>)> {
    let n = seq.stmts.len();
    let used = used_values(seq);
    let keep_with = |drop_final: bool| -> Vec<usize> {
        (0..n)
            .filter(|&i| {
                (i + 1 == n && !drop_final) || used[i] || !seq.stmts[i].is_self_equals(is_equals)
            })
            .collect()
    };
    let identity_last =
        matches!(&seq.stmts[n.checked_sub(1)?], Stmt::Call { op, .. } if is_identity(*op));
    let mut keep = keep_with(identity_last);
    // What is kept last becomes the final call: a literal or an array cannot end a test
    // (`Object o = "a"; o.equals(o); o.equals(o)` would keep the literal alone), and
    // neither can nothing.
    if identity_last
        && !keep
            .last()
            .is_some_and(|&i| matches!(seq.stmts[i], Stmt::Call { .. }))
    {
        keep = keep_with(false);
    }
    if keep.len() == n {
        return None;
    }
    Some((keep_only(seq, &keep), keep))
}

/// The statements of `seq` at the (increasing) indices `keep`, inputs renumbered; a dropped
/// statement is never an input of a kept one.
fn keep_only(seq: &Sequence, keep: &[usize]) -> Sequence {
    let mut new_index = vec![0u32; seq.stmts.len()];
    for (k, &i) in keep.iter().enumerate() {
        new_index[i] = k as u32;
    }
    let map = |a: &u32| new_index[*a as usize];
    let stmts = keep
        .iter()
        .map(|&i| match &seq.stmts[i] {
            Stmt::Call { op, args } => Stmt::Call {
                op: *op,
                args: args.iter().map(map).collect(),
            },
            Stmt::Array { elem, elems } => Stmt::Array {
                elem: elem.clone(),
                elems: elems.iter().map(map).collect(),
            },
            s @ Stmt::Lit { .. } => s.clone(),
        })
        .collect();
    Sequence { stmts }
}

fn ends_as(r: &SeqResult, ending: &CandEnding) -> bool {
    let n = r.outcomes.len();
    match ending {
        CandEnding::Normal => r.first_abnormal().is_none(),
        CandEnding::Exception(cls) => {
            r.first_abnormal() == Some(n.saturating_sub(1))
                && matches!(&r.outcomes[n - 1], StmtOutcome::Exception { public_class, .. } if public_class.as_ref() == cls)
        }
    }
}

/// The candidates with their repeated calls collapsed where that keeps their ending (see the
/// module documentation), duplicates dropped, order kept.
/// Whether the collapsed run `r` covered every probe the original sequence covered (a
/// repetition can reach code a single call does not, e.g. a collection growing its array):
/// the written suite must keep the run's coverage.
/// Probes for which `noisy` is true are not compared: those of JDK classes under test, which
/// the JVM and the worker also run (class loading, reflection), so whether a run hits them
/// varies with the JVM's state and would make the choice depend on the number of workers.
fn covers(r: &SeqResult, original: Option<&[u32]>, noisy: &dyn Fn(u32) -> bool) -> bool {
    let Some(orig) = original else { return true };
    let Some(now) = r.coverage.as_deref() else {
        return false;
    };
    // Both lists are increasing.
    let mut k = 0;
    for &id in orig.iter().filter(|&&id| !noisy(id)) {
        while k < now.len() && now[k] < id {
            k += 1;
        }
        if k == now.len() || now[k] != id {
            return false;
        }
    }
    true
}

pub fn collapse_candidates(
    cands: Vec<Candidate>,
    pool: &mut Pool,
    noisy: &dyn Fn(u32) -> bool,
    is_equals: &dyn Fn(OpId) -> bool,
    is_identity: &dyn Fn(OpId) -> bool,
) -> anyhow::Result<Vec<Candidate>> {
    // Each run to its last call; where that loses the ending or coverage (a repeated call
    // that reaches another branch the second time, e.g. `trimToSize()`), to its last two.
    // First the statements that do not bear on the final call go (kept where the final
    // call needs them after all: a static side effect, coverage only they reach), then the
    // unused `x.equals(x)` calls (kept where they cover something of their own).
    let mut cands = collapse_pass(cands, pool, &slice_to_final, noisy)?;
    cands = collapse_pass(
        cands,
        pool,
        &|seq| drop_self_equals(seq, is_equals, is_identity),
        noisy,
    )?;
    for keep_last in [1, 2] {
        cands = collapse_pass(cands, pool, &|seq| collapse_runs(seq, keep_last), noisy)?;
    }
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(cands.len());
    for c in cands {
        let thrown = match &c.ending {
            CandEnding::Normal => None,
            CandEnding::Exception(cls) => Some(cls.clone()),
        };
        if seen.insert((c.comp.seq.fingerprint(), thrown)) {
            out.push(c);
        }
    }
    Ok(out)
}

/// One shortening of every candidate (`shorten`: a slice, or runs collapsed), kept where it
/// ends the same way and covers what the original covered (one batch for all candidates
/// that have something to shorten).
fn collapse_pass(
    cands: Vec<Candidate>,
    pool: &mut Pool,
    shorten: &dyn Fn(&Sequence) -> Option<Shortened>,
    noisy: &dyn Fn(u32) -> bool,
) -> anyhow::Result<Vec<Candidate>> {
    let collapsed: Vec<Option<Shortened>> = cands.iter().map(|c| shorten(&c.comp.seq)).collect();
    let reqs: Vec<ExecRequest> = collapsed
        .iter()
        .flatten()
        .map(|(seq, _)| ExecRequest {
            seq: Arc::new(seq.clone()),
            mode: ExecMode::Generate,
            contract_values: Vec::new(),
            observers: Vec::new(),
            reuse: None,
        })
        .collect();
    let mut results = if reqs.is_empty() {
        Vec::new()
    } else {
        pool.execute(reqs)?
    }
    .into_iter();
    let mut out = Vec::with_capacity(cands.len());
    for (c, short) in cands.into_iter().zip(collapsed) {
        let c = match short {
            Some((seq, keep))
                if results.next().is_some_and(|r| {
                    ends_as(&r, &c.ending) && covers(&r, c.cov.as_deref(), noisy)
                }) =>
            {
                let comp = Component {
                    seq: Arc::new(seq),
                    tids: keep.iter().map(|&i| c.comp.tids[i]).collect(),
                    has_null: c.comp.has_null,
                    cand: c.comp.cand,
                };
                Candidate {
                    comp: Arc::new(comp),
                    ..c
                }
            }
            _ => c,
        };
        out.push(c);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::JType;
    use crate::sequence::Value;

    fn call(op: u32, args: &[u32]) -> Stmt {
        Stmt::Call {
            op,
            args: args.to_vec(),
        }
    }

    fn lit() -> Stmt {
        Stmt::Lit {
            ty: JType::string(),
            value: Value::Str("a".into()),
        }
    }

    #[test]
    fn unused_repeats_collapse_to_the_last_call() {
        let lit = Stmt::Lit {
            ty: JType::string(),
            value: Value::Str("a".into()),
        };
        // list = new L(); s = "a"; list.add(s) x3; list.size() uses nothing repeated
        let seq = Sequence {
            stmts: vec![
                call(0, &[]),
                lit,
                call(1, &[0, 1]),
                call(1, &[0, 1]),
                call(1, &[0, 1]),
                call(2, &[0]),
            ],
        };
        let (short, keep) = collapse_repeats(&seq).unwrap();
        assert_eq!(keep, vec![0, 1, 4, 5]);
        assert_eq!(short.stmts[2], call(1, &[0, 1]));
        assert_eq!(short.stmts[3], call(2, &[0]));
        // nothing to collapse
        assert!(collapse_repeats(&short).is_none());
    }

    #[test]
    fn repeats_whose_results_are_used_stay() {
        // it = c.iterator() twice, the first one's value used later: kept; different
        // arguments are no repetition
        let seq = Sequence {
            stmts: vec![
                call(0, &[]),
                call(1, &[0]),
                call(1, &[0]),
                call(2, &[1]),
                call(3, &[0, 1]),
                call(3, &[0, 2]),
            ],
        };
        assert!(collapse_repeats(&seq).is_none());
    }

    #[test]
    fn unused_self_equals_calls_go_but_the_final_call_stays() {
        // op 1 is equals: 0 x = new X(); 1 x.equals(x); 2 b = x.equals(x) used by 3;
        // 3 f(x, b); 4 x.equals(y) (not its own argument); 5 x.equals(x) (final)
        let is_equals = |op: OpId| op == 1;
        let seq = Sequence {
            stmts: vec![
                call(0, &[]),
                call(1, &[0, 0]),
                call(1, &[0, 0]),
                call(2, &[0, 2]),
                call(1, &[0, 3]),
                call(1, &[0, 0]),
            ],
        };
        let own = |_: OpId| false;
        let (short, keep) = drop_self_equals(&seq, &is_equals, &own).unwrap();
        assert_eq!(keep, vec![0, 2, 3, 4, 5]);
        assert_eq!(short.stmts[2], call(2, &[0, 1]));
        assert_eq!(short.stmts[3], call(1, &[0, 2]));
        assert!(drop_self_equals(&short, &is_equals, &own).is_none());
        // Object's equals (identity): the final `x.equals(x)` goes too, unless it is alone
        let identity = |op: OpId| op == 1;
        let (short, keep) = drop_self_equals(&seq, &is_equals, &identity).unwrap();
        assert_eq!(keep, vec![0, 2, 3, 4]);
        assert_eq!(short.stmts.last(), Some(&call(1, &[0, 2])));
        let alone = Sequence {
            stmts: vec![call(1, &[0, 0])],
        };
        assert!(drop_self_equals(&alone, &is_equals, &identity).is_none());
        // nor when the statement before is no call (`int[] a = {}; a.equals(a)`)
        let after_literal = Sequence {
            stmts: vec![call(0, &[]), lit(), call(1, &[0, 0])],
        };
        assert!(drop_self_equals(&after_literal, &is_equals, &identity).is_none());
        // nor when every call is a self-equals (`Object o = "a"; o.equals(o); o.equals(o)`,
        // commons-lang3): the earlier one goes, the final one stays
        let all_self = Sequence {
            stmts: vec![lit(), call(1, &[0, 0]), call(1, &[0, 0])],
        };
        let (short, keep) = drop_self_equals(&all_self, &is_equals, &identity).unwrap();
        assert_eq!(keep, vec![0, 2]);
        assert_eq!(short.stmts.last(), Some(&call(1, &[0, 0])));
    }

    #[test]
    fn statements_that_do_not_bear_on_the_final_call_go() {
        let lit = Stmt::Lit {
            ty: JType::string(),
            value: Value::Str("a".into()),
        };
        // 0 d0 = date(); 1 d1 = date(); 2 s = "a"; 3 list = new L(); 4 list.add(s);
        // 5 other = new B(d1, d1); 6 b = new B(d0, d0); 7 b.guests(list)
        let seq = Sequence {
            stmts: vec![
                call(0, &[]),
                call(0, &[]),
                lit,
                call(1, &[]),
                call(2, &[3, 2]),
                call(3, &[1, 1]),
                call(3, &[0, 0]),
                call(4, &[6, 3]),
            ],
        };
        let (short, keep) = slice_to_final(&seq).unwrap();
        // d1 and the B built from it go; the add that changes the list stays
        assert_eq!(keep, vec![0, 2, 3, 4, 6, 7]);
        assert_eq!(short.stmts[3], call(2, &[2, 1]));
        assert_eq!(short.stmts[5], call(4, &[4, 2]));
        assert!(slice_to_final(&short).is_none());
    }

    #[test]
    fn indices_shift_past_removed_statements() {
        let seq = Sequence {
            stmts: vec![
                call(0, &[]),
                call(1, &[0]),
                call(1, &[0]),
                call(2, &[]),
                call(3, &[0, 3]),
            ],
        };
        let (short, keep) = collapse_repeats(&seq).unwrap();
        assert_eq!(keep, vec![0, 2, 3, 4]);
        assert_eq!(short.stmts[3], call(3, &[0, 2]));
    }
}
