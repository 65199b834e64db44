//! What generation yields: components (sequences with the static type of each value),
//! regression and error candidates and the defect each error shows, the figures kept per
//! operation, the progress shown while generating and the incidents of the summary; and the
//! pseudo-exceptions a worker reports for a call that printed.

use crate::runner::{InputCause, SeqResult};
use crate::sequence::{OpId, SeqRef};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

pub type TypeId = u32;

/// Pseudo-exception the worker reports for a call that printed more than 1 MiB.
pub const EXCESSIVE_OUTPUT: &str = "jforge.ExcessiveOutput";

/// Pseudo-exception the worker reports, when [`CONSOLE_PROPERTY`] is `quiet`, for a call that
/// printed anything to System.out/err: its sequence is never written as a test.
pub const PRINTS_TO_CONSOLE: &str = "jforge.PrintsToConsole";

/// Pseudo-exception the worker reports, when [`CONSOLE_PROPERTY`] is `quiet`, for a call that
/// changed state the whole JVM shares: closed System.in/out/err, set or cleared a system
/// property, changed the default locale or time zone (the worker puts it back). A test making
/// that call would change the JVM of every test its build runs after it: never written.
pub const CHANGES_GLOBAL_STATE: &str = "jforge.ChangesGlobalState";

/// The worker's system property that turns on [`PRINTS_TO_CONSOLE`] and
/// [`CHANGES_GLOBAL_STATE`].
pub const CONSOLE_PROPERTY: &str = "jforge.console";

/// A sequence with the static type of each statement's value.
#[derive(Debug)]
pub struct Component {
    pub seq: SeqRef,
    pub tids: Vec<Option<TypeId>>,
    /// Some statement takes a `null` literal (an NPE is then expected behaviour).
    pub has_null: bool,
    /// Regression candidate id of this sequence, if it is one.
    pub cand: Option<u64>,
}

pub type CompRef = Arc<Component>;

/// How a regression candidate ends.
#[derive(Clone, Debug, PartialEq)]
pub enum CandEnding {
    Normal,
    Exception(String),
}

#[derive(Clone, Debug)]
pub struct Candidate {
    pub id: u64,
    pub comp: CompRef,
    pub ending: CandEnding,
    /// With coverage: the probes this sequence hit when it was generated (sorted ids), so
    /// that the written suite can be chosen to keep the run's coverage (`finish::select`).
    pub cov: Option<Arc<[u32]>>,
}

/// What an error-revealing sequence breaks.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Violation {
    /// The last statement throws `class`; `contract` names why that is an error.
    Exception {
        contract: &'static str,
        class: String,
    },
    /// Object contract on the values of statements a (and b).
    Contract {
        contract: crate::runner::Contract,
        a: u32,
        b: Option<u32>,
    },
}

impl Violation {
    pub fn contract_name(&self) -> &'static str {
        match self {
            Violation::Exception { contract, .. } => contract,
            Violation::Contract { contract, .. } => contract.name(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct ErrorCandidate {
    pub comp: CompRef,
    pub violation: Violation,
    /// Operation of the statement where it shows (the thrower, or the producer of value a),
    /// in the shortest sequence.
    pub op: OpId,
    /// How many sequences showed this defect.
    pub count: u64,
    /// The operations through which it showed (the "routes": one for an exception
    /// contract; for an object contract, each operation that produced a breaking value).
    pub routes: BTreeSet<OpId>,
    /// For an object contract: the class whose contract breaks (see [`DefectKey`]).
    pub class: Option<Arc<str>>,
    /// `comp` is an error-revealing test an earlier run wrote (read back and run again): it
    /// stays the defect's test, not replaced by a shorter one, and is not minimized again.
    pub earlier: bool,
}

/// The input that caused the exception statement `at` threw, if the worker blamed one.
pub fn thrown_cause(r: &SeqResult, at: usize) -> Option<InputCause> {
    match &r.thrown {
        Some((s, blame)) if *s as usize == at => blame.cause,
        _ => None,
    }
}

/// One defect, however many sequences show it: an exception contract
/// (`npe-without-null-input`, ...) is a defect of the operation that throws; a broken object
/// contract (equals, hashCode, compareTo, toString) is a defect of the class of the value
/// that breaks it (its runtime class, or the declaring class of the operation that produced
/// it when the value is a String, boxed value or enum), whichever operation built it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum DefectKey {
    Exception {
        op: OpId,
        contract: &'static str,
    },
    Contract {
        class: Arc<str>,
        contract: crate::runner::Contract,
    },
    /// An exception contract whose throw site is known (`Class.method (line N)` in a class
    /// under test): one defect however many operations (`TransformIterator.hasNext()`,
    /// `Iterator.hasNext()` on it) reach that line.
    ThrowSite {
        site: Arc<str>,
        contract: &'static str,
    },
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct OpStat {
    pub calls: u64,
    pub successes: u64,
    pub exceptions: u64,
    pub errors: u64,
    pub timeouts: u64,
    pub crashes: u64,
    /// Calls that printed to System.out/err (with gen's quiet console).
    pub prints: u64,
    /// Calls that changed state the whole JVM shares ([`CHANGES_GLOBAL_STATE`]).
    pub global_state: u64,
    pub excluded: bool,
}

/// Progress figures shown while generating.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    pub generated: u64,
    pub executed: u64,
    pub statements: u64,
    pub regression: usize,
    pub errors: usize,
    pub elapsed: Duration,
    /// With coverage: (covered, total) branch and line probes.
    pub branches: Option<(u32, u32)>,
    pub lines: Option<(u32, u32)>,
}

/// A warning for the summary (e.g. an operation excluded after repeated crashes).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Incident {
    pub operation: String,
    pub what: String,
}
