//! What a search is given: the usable operations with the domain of each input, the choice
//! of one input of a combination, and the settings.

use crate::model::JType;
use crate::sequence::{OpId, Stmt};
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// Where an input of an operation comes from.
#[derive(Clone, Debug)]
pub enum ParamDom {
    /// Literal statements (primitive, boxed, String values of the domain).
    Lits(Vec<Stmt>),
    /// Values of kept sequences whose runtime class is assignable to this type.
    Refs(JType),
}

/// A usable operation with its input domains (receiver first).
#[derive(Clone, Debug)]
pub struct Usable {
    pub op: OpId,
    pub params: Vec<ParamDom>,
    /// Canonicalize the result (a non-literal reference type).
    pub canon_result: bool,
}

/// One input of a combination: a literal of the domain or a kept structure.
#[derive(Clone, Copy, Debug)]
pub enum Choice {
    Lit(u32),
    Ref(u32),
}

pub struct SearchConfig {
    pub state_matching: bool,
    /// Prototype reuse (see the module documentation).
    pub reuse: bool,
    /// `--error-exceptions` (see `crate::contracts`: every other exception that breaks no
    /// contract is expected behaviour, and the sequence is dropped).
    pub error_exceptions: HashSet<String>,
    pub batch: usize,
    pub max_rounds: Option<u32>,
    pub memory_budget: u64,
    pub dump: bool,
    /// Check op by the erased class name of the static type it applies to.
    pub check_ops: HashMap<String, OpId>,
    /// Check the single-object contracts of `gen` on every structure kept.
    pub contracts: bool,
    /// `--time-limit`: when the search gives up, and the limit as given (for the message).
    pub deadline: Option<(Instant, Duration)>,
}
