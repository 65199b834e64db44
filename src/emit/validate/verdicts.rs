//! Deciding each test from its runs: run 1's outcomes sort the tests into failures and
//! candidates, each later run keeps the candidates that behaved as in run 1, and what is left
//! is judged on its fastest time.

use super::jvm::{Key, Outcome, Run};
use super::result::{
    FailureCause, INCONSISTENT, JVM_EXIT, NO_RESULT, TIMEOUT, TOO_MUCH_MEMORY, TOO_SLOW,
    TestFailure, Validation,
};
use std::collections::{HashMap, HashSet};
use std::time::Duration;

fn is_oom(exception_class: &str) -> bool {
    exception_class == "java.lang.OutOfMemoryError"
}

/// A failure of test `k`.
fn test_failure(
    k: &Key,
    exception_class: String,
    message: String,
    cause: FailureCause,
) -> TestFailure {
    TestFailure {
        class_name: k.0.clone(),
        method: k.1.clone(),
        exception_class,
        message,
        cause,
        line: None,
    }
}

/// What the runs of a check have decided so far.
#[derive(Default)]
pub(super) struct Verdicts {
    /// The tests found failing, and why.
    verdict: HashMap<Key, TestFailure>,
    /// Each test's time in its fastest run, in ns.
    fastest: HashMap<Key, u64>,
    /// Candidates and their run-1 failure (None: passed).
    first: HashMap<Key, Option<(String, String)>>,
    /// The tests that passed (or, in error suites, failed in an ordinary way) in every run so
    /// far, in run 1's order.
    pub(super) candidates: Vec<Key>,
}

impl Verdicts {
    /// Sorts run 1's outcomes: out of memory, hung, too much allocated and failed are
    /// verdicts; passed, and error-suite tests failing in an ordinary way, are candidates.
    pub(super) fn judge_first_run(
        &mut self,
        mut r1: HashMap<Key, Outcome>,
        all: &[Key],
        error_suite: &HashSet<Key>,
        max_test_bytes: u64,
    ) {
        for k in all {
            let o = r1.remove(k).unwrap_or_else(|| {
                Outcome::fail(NO_RESULT, "the runner never reported on this test".into())
            });
            if let Some(n) = o.nanos {
                self.fastest.insert(k.clone(), n);
            }
            let too_big = o.bytes.is_some_and(|b| b > max_test_bytes);
            match o.failure {
                Some((exc, msg)) if is_oom(&exc) => {
                    self.verdict.insert(
                        k.clone(),
                        test_failure(k, exc, msg, FailureCause::TooMuchMemory),
                    );
                }
                Some((exc, msg)) if exc == TIMEOUT => {
                    self.verdict
                        .insert(k.clone(), test_failure(k, exc, msg, FailureCause::TimedOut));
                }
                _ if too_big => {
                    let mb = o.bytes.unwrap_or(0) >> 20;
                    self.verdict.insert(
                        k.clone(),
                        test_failure(
                            k,
                            TOO_MUCH_MEMORY.into(),
                            format!(
                                "the test's thread allocated {mb} MB; the limit is {} MB",
                                max_test_bytes >> 20
                            ),
                            FailureCause::TooMuchMemory,
                        ),
                    );
                }
                Some((exc, msg))
                    if error_suite.contains(k) && exc != JVM_EXIT && exc != NO_RESULT =>
                {
                    // An error-revealing test fails by design; later runs check it fails alike.
                    self.first.insert(k.clone(), Some((exc, msg)));
                    self.candidates.push(k.clone());
                }
                Some((exc, msg)) => {
                    self.verdict
                        .insert(k.clone(), test_failure(k, exc, msg, FailureCause::Failed));
                }
                None => {
                    self.first.insert(k.clone(), None);
                    self.candidates.push(k.clone());
                }
            }
        }
    }

    /// Keeps the candidates that ended in `run` as in run 1 (passed, or failed with the same
    /// exception class); the others fail with `cause` (or as out of memory).
    pub(super) fn judge_later_run(
        &mut self,
        run: Run,
        cause: FailureCause,
        mut r: HashMap<Key, Outcome>,
    ) {
        self.candidates.retain(|k| {
            let o = r.remove(k).unwrap_or_else(|| {
                Outcome::fail(NO_RESULT, "the runner never reported on this test".into())
            });
            if let Some(n) = o.nanos {
                let f = self.fastest.entry(k.clone()).or_insert(n);
                *f = (*f).min(n);
            }
            let was = self.first.get(k).cloned().flatten();
            let line = o.line;
            let (exc, msg) = match (o.failure, was) {
                (None, None) => return true,
                (Some(now), Some((then, _))) if now.0 == then => return true,
                // An error test that passes only when every identity hash is 1 reveals a
                // defect that needs distinct identity hashes (`equals` without `hashCode`):
                // it fails in every ordinary JVM, which the other runs check.
                (None, Some(_)) if cause == FailureCause::IdentityHash => return true,
                (Some(now), _) => now,
                (None, Some((then, _))) => (
                    INCONSISTENT.to_string(),
                    format!("failed with {then} in run 1 but passed in {}", run.name()),
                ),
            };
            let cause = if is_oom(&exc) {
                FailureCause::TooMuchMemory
            } else {
                cause
            };
            let mut f = test_failure(k, exc, msg, cause);
            f.line = line;
            self.verdict.insert(k.clone(), f);
            false
        });
    }

    /// The candidates left after every run: too slow in their fastest run, or error-suite
    /// tests reported with their run-1 failure.
    pub(super) fn judge_remaining_candidates(&mut self, slow_test: Duration) {
        for k in std::mem::take(&mut self.candidates) {
            if let Some(&n) = self.fastest.get(&k)
                && n > slow_test.as_nanos() as u64
            {
                self.verdict.insert(
                    k.clone(),
                    test_failure(
                        &k,
                        TOO_SLOW.into(),
                        format!(
                            "the test took {} ms in its fastest run; the limit is {} ms",
                            n / 1_000_000,
                            slow_test.as_millis()
                        ),
                        FailureCause::TooSlow,
                    ),
                );
            } else if let Some(Some((exc, msg))) = self.first.remove(&k) {
                self.verdict
                    .insert(k.clone(), test_failure(&k, exc, msg, FailureCause::Failed));
            }
        }
    }

    /// Puts each of `all` into `test_failures` or `passed`, in declaration order.
    pub(super) fn sort_out(mut self, all: Vec<Key>, validation: &mut Validation) {
        for k in all {
            match self.verdict.remove(&k) {
                Some(f) => validation.test_failures.push(f),
                None => validation.passed.push(k),
            }
        }
    }
}
