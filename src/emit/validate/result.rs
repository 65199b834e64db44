//! What a check reports: per test method, whether it compiled, passed, or failed and why
//! ([`FailureCause`]), with the exception classes that stand for a test that never finished;
//! the suite's coverage, warnings and phase timings.

use crate::emit::WrittenFile;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

/// Exception class reported for a test during which the test JVM exited.
pub const JVM_EXIT: &str = "<jvm-exit>";

/// Exception class reported for a test during which the run timed out.
pub const TIMEOUT: &str = "<timeout>";

/// Exception class reported for a test the runner never reported on.
pub const NO_RESULT: &str = "<no-result>";

/// Exception class reported for a test that failed in one run and passed in a later one.
pub const INCONSISTENT: &str = "<passed-in-another-run>";

/// Exception class reported for a test slower than
/// [`CheckOptions::slow_test`](super::CheckOptions::slow_test).
pub const TOO_SLOW: &str = "<too-slow>";

/// Exception class reported for a test that allocated more than
/// [`CheckOptions::max_test_bytes`](super::CheckOptions::max_test_bytes).
pub const TOO_MUCH_MEMORY: &str = "<too-much-memory>";

/// Why a test is reported as failing. A test fails in one configuration only: the first run
/// that disagrees with run 1 (see the module documentation) gives the cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureCause {
    /// Failed in run 1 (declaration order, `-Xmx256m`), including a test that ended the JVM
    /// or that JUnit never ran. For an error-revealing test this is the expected outcome.
    Failed,
    /// Hung in run 1: the JVM was killed after `run_timeout` without progress.
    TimedOut,
    /// Behaved differently in run 2, where every object has the same identity hash code: the
    /// test observes identity hashes (`Object.toString()` of a class without its own, the
    /// iteration order of a `HashSet` of such objects...), which differ from JVM to JVM.
    IdentityHash,
    /// Behaved differently in run 3: classes and methods in reverse order, fresh JVM, default
    /// JVM options, another folder first on the class path holding the tests' packages:
    /// depends on what the tests before it left behind (static state) or on the class path's
    /// layout (a package folder's listing).
    ReverseOrder,
    /// Behaved differently under the JUnit Platform console launcher (JUnit 4 via Vintage).
    ConsoleLauncher,
    /// Failed under a slowed clock (run 5, the rewritten classes reading `jforge.rt.JClock`
    /// in its slow mode): depends on how fast the machine runs or on the date.
    SlowClock,
    /// Took longer than [`CheckOptions::slow_test`](super::CheckOptions::slow_test) in every run.
    TooSlow,
    /// Its thread allocated more than
    /// [`CheckOptions::max_test_bytes`](super::CheckOptions::max_test_bytes) in run 1, or it ran
    /// out of memory.
    TooMuchMemory,
}

impl FailureCause {
    /// A few words for summaries: "failed in reverse order".
    pub fn describe(self) -> &'static str {
        match self {
            FailureCause::Failed => "failed",
            FailureCause::TimedOut => "hung",
            FailureCause::ReverseOrder => "failed in reverse order",
            FailureCause::IdentityHash => "depended on identity hash codes",
            FailureCause::ConsoleLauncher => "failed under the JUnit console launcher",
            FailureCause::SlowClock => "failed under a slowed clock",
            FailureCause::TooSlow => "took over the time limit",
            FailureCause::TooMuchMemory => "needed too much memory",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestFailure {
    /// Fully qualified test class name.
    pub class_name: String,
    pub method: String,
    /// Class of the exception the test failed with (`java.lang.AssertionError`, ...), or
    /// [`JVM_EXIT`], [`TIMEOUT`], [`NO_RESULT`] when the test never finished, [`INCONSISTENT`]
    /// when it failed in run 1 and passed in a later run, [`TOO_SLOW`] or [`TOO_MUCH_MEMORY`].
    pub exception_class: String,
    pub message: String,
    pub cause: FailureCause,
    /// The line of the test method where it failed (its frame in the stack trace), when
    /// the runner could tell.
    pub line: Option<usize>,
}

#[derive(Clone, Debug, Default)]
pub struct Validation {
    /// (class, method, javac message) for each test method that does not compile.
    pub compile_failures: Vec<(String, String, String)>,
    pub test_failures: Vec<TestFailure>,
    /// (class, method) of every test that passed in every run, in time and memory.
    pub passed: Vec<(String, String)>,
    /// With [`CheckOptions::coverage`](super::CheckOptions::coverage): per probe id, whether any
    /// JVM of the check hit it. Includes what failing tests reached, so it is the suite's coverage
    /// when nothing is removed after this check (see the module documentation).
    pub suite_hits: Option<Vec<bool>>,
    /// Problems that did not stop the check (a run that could not be used, a runner note).
    pub warnings: Vec<String>,
    /// (phase, wall time): the runner compile, each javac round, each run.
    pub timings: Vec<(String, Duration)>,
}

impl Validation {
    /// How many reported failures have each cause (error-revealing tests that failed as
    /// written included: the caller decides what it removes, see [`removed_by_cause`]).
    pub fn failures_by_cause(&self) -> BTreeMap<FailureCause, usize> {
        let mut m = BTreeMap::new();
        for f in &self.test_failures {
            *m.entry(f.cause).or_insert(0) += 1;
        }
        m
    }
}

/// The causes of the failures the caller removes: `removed(error_suite, case)` says whether the
/// test written for `case` of `files` (see [`WrittenTest::case`](crate::emit::WrittenTest)) goes.
pub fn removed_by_cause(
    files: &[WrittenFile],
    v: &Validation,
    removed: impl Fn(bool, usize) -> bool,
) -> BTreeMap<FailureCause, usize> {
    let mut at: HashMap<(&str, &str), (bool, usize)> = HashMap::new();
    for f in files {
        for t in &f.tests {
            at.insert(
                (f.class_name.as_str(), t.method.as_str()),
                (f.error_suite, t.case),
            );
        }
    }
    let mut m = BTreeMap::new();
    for f in &v.test_failures {
        if let Some(&(err, case)) = at.get(&(f.class_name.as_str(), f.method.as_str()))
            && removed(err, case)
        {
            *m.entry(f.cause).or_insert(0) += 1;
        }
    }
    m
}
