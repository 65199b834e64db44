//! What a search keeps and reports: the kept structures (how each was built), failures and
//! counterexamples, the combinations applied (when logged), and the figures of each round and
//! of its progress.

use super::inputs::Choice;
use crate::runner::Contract;
use crate::sequence::SeqRef;
use std::time::Duration;

/// A kept structure: usable operation `ui` applied to the inputs `choice` builds it as the
/// `which`-th canonicalized value of that sequence (inputs in order, then the result); the
/// full sequence is [`Search::materialize`](super::Search::materialize)d on demand.
#[derive(Clone, Debug)]
pub struct Kept {
    pub ui: u32,
    pub choice: Box<[Choice]>,
    pub which: u8,
    pub class: u32,
    pub round: u32,
    /// The worker holding it as a prototype (prototype id = its index in `kept`).
    pub home: Option<u16>,
}

#[derive(Clone, Debug)]
pub struct Failure {
    pub seq: SeqRef,
    /// Exception class (binary name) or a crash/timeout description.
    pub what: String,
    pub public_class: Option<String>,
    pub message: Option<String>,
    pub occurrences: u64,
    /// A broken contract: which, and the statement of the structure that breaks it.
    pub contract: Option<(Contract, u32)>,
    /// The exception contract a thrown exception breaks (`crate::contracts`, as in `gen`:
    /// `npe-without-null-input`, `assertion-error`, `declared-exception`).
    pub exception_contract: Option<&'static str>,
}

#[derive(Clone, Debug)]
pub struct Counterexample {
    pub kept: usize,
    /// `false`, or the exception the check threw.
    pub result: String,
}

/// One combination that ran normally within scope, recorded when
/// [`Search::log`](super::Search::log) is on: the usable operation, its inputs, and the key of
/// every value canonicalized after the call (inputs in order, then the result) with the kept index
/// it got if it was new.
#[derive(Clone, Debug)]
pub struct Applied {
    pub ui: u32,
    pub choice: Box<[Choice]>,
    pub built: Vec<(u128, Option<u32>)>,
}

#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct RoundStats {
    pub round: u32,
    pub explored: u64,
    pub new_structures: u64,
    pub seconds: f64,
}

pub struct Progress {
    pub round: u32,
    pub frontier: usize,
    pub structures: u64,
    pub explored: u64,
    pub elapsed: Duration,
}
