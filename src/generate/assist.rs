//! The one hook through which another engine helps `gen` past a coverage plateau (`gen
//! --concolic`): when no new branch came for a while, the generator describes what is still
//! uncovered ([`Stalled`]: the operations whose own method has uncovered branches, each with
//! receiver and object arguments taken from gen's component pool) and runs the sequences the
//! helper returns as if it had generated them, so that their values join the pool and a
//! sequence that covers something new becomes a regression candidate like any other. Why a
//! trait here and not a call of `concolic`: generators do not reach into each other
//! (ARCHITECTURE.md, "Invariants"); the command that wires both (`gen/run.rs`) names it.

use crate::sequence::{OpId, Sequence};
use std::time::{Duration, Instant};

/// An operation whose own method still has uncovered branches, with what a helper needs to
/// call it: `prefix` builds the receiver and the parameters that are neither primitives nor
/// Strings (`fixed`: input index, the receiver being input 0 of an instance method, and the
/// statement of `prefix` that gives it), all from gen's component pool; primitives and
/// Strings are the helper's to choose.
#[derive(Clone, Debug)]
pub struct StalledOp {
    pub op: OpId,
    /// Uncovered branch probes of the operation's method.
    pub uncovered: u32,
    pub prefix: Sequence,
    pub fixed: Vec<(usize, u32)>,
}

/// What the generator tells a helper at a plateau.
#[derive(Clone, Debug)]
pub struct Stalled {
    /// Most uncovered branches first.
    pub ops: Vec<StalledOp>,
    /// When the helper must hand back (generation goes on after).
    pub deadline: Instant,
}

/// A helper of the generator at coverage plateaus.
pub trait Assist {
    /// Sequences worth running for the stalled operations (each ends in a call of one of
    /// them); the generator runs them, keeps what covers something new.
    fn plateau(&mut self, stalled: &Stalled) -> anyhow::Result<Vec<Sequence>>;
    /// Puts the helper's own figures (paths, solver calls) into `stats`.
    fn figures(&self, stats: &mut AssistStats);
    /// The first error the helper got over and went on from (a query its solver refused),
    /// for the run's incidents.
    fn first_error(&self) -> Option<String> {
        None
    }
}

/// How long without a new branch makes a plateau: a twentieth of the generation time,
/// between 1 and 5 seconds (random generation finds most easy branches in its first
/// seconds; waiting longer only leaves the helper less time).
pub fn plateau_after(generation: Option<Duration>) -> Duration {
    generation
        .map(|t| t / 20)
        .unwrap_or(Duration::from_secs(5))
        .clamp(Duration::from_secs(1), Duration::from_secs(5))
}

/// The time a helper gets at one plateau: half of what generation has left, at most 15 s,
/// so that gen runs again with what the helper found (a receiver state it reaches can open
/// branches of other methods).
pub fn helper_budget(left: Duration) -> Duration {
    (left / 2).min(Duration::from_secs(15))
}

/// Figures of the handoffs (`--stats-json` "concolic", summary line).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct AssistStats {
    /// Plateaus handed to the helper.
    pub handoffs: u64,
    /// Sequences it returned and gen ran.
    pub sequences: u64,
    /// Branches those sequences covered first.
    pub new_branches: u64,
    /// Seconds spent in the helper.
    pub seconds: f64,
    /// The helper's own figures: methods it explored, paths, solver calls and time.
    pub methods_explored: u64,
    pub paths: u64,
    pub infeasible: u64,
    pub solver_timeouts: u64,
    pub solver_calls: u64,
    pub solver_seconds: f64,
    /// Queries the solver refused with an error (taken as "unknown"; the first one is an
    /// incident).
    pub solver_errors: u64,
}

impl AssistStats {
    /// The summary line of `gen --concolic`.
    pub fn write_summary(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        writeln!(
            out,
            "concolic: {} plateaus handed over, {} methods explored, {} paths ({} infeasible, \
             {} solver time-outs), {} solver calls in {:.2} s; {} sequences given to gen, {} \
             new branches, {:.1} s in all",
            self.handoffs,
            self.methods_explored,
            self.paths,
            self.infeasible,
            self.solver_timeouts,
            self.solver_calls,
            self.solver_seconds,
            self.sequences,
            self.new_branches,
            self.seconds
        )
    }
}
