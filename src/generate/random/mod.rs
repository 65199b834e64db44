//! Feedback-directed random generation (Randoop, seed 003 ch. 5 and 7).
//!
//! Each step picks an operation, assembles its inputs from values of earlier sequences (the
//! component set), drops duplicates before execution, and learns from the outcome: illegal
//! sequences are discarded, new values become reusable, contract violations become error
//! candidates and new behaviour becomes regression candidates.
//!
//! Determinism: sequences are built in batches of fixed size and executed by the pool while
//! the next batch is built (a fixed lag of one batch); results are applied in order. With a
//! count-based stop, the outcome therefore depends only on the seed, never on the number of
//! workers or on timing. Novelty of values is decided here from the fingerprints the
//! workers report (equal values give equal fingerprints in every JVM), not from a value set
//! inside one worker, for the same reason.
//!
//! The parts, each a file, from the bottom up:
//! - `candidates`: what generation yields (components, regression and error candidates, the
//!   defects they show, per-operation figures, progress, incidents).
//! - `guide`: coverage feedback (`CovGuide`): the tracker, switch keys and probe kinds; the
//!   project's own tests' coverage on its way to guidance (`Steer`).
//! - `oversized`: integral arguments too large for an operation that allocates by them.
//! - `generator`: the generator's configuration and state, and its queries on types.
//! - `assemble`: choosing an operation and assembling a new sequence for it.
//! - `blame`: calls that misbehave (timeouts, crashes, hangs, running out of memory,
//!   printing) and what they cost their operation or argument classes.
//! - `keep`: storing what a sequence taught (reusable values, candidates, defects).
//! - `apply`: reading one executed sequence's result (coverage, compared values, its ending).
//! - `run`: the main loop over batches, and a helper's turn at coverage plateaus.

mod apply;
mod assemble;
mod blame;
mod candidates;
mod generator;
mod guide;
mod keep;
mod oversized;
mod run;

pub use blame::crash_name;
pub use candidates::{
    CHANGES_GLOBAL_STATE, CONSOLE_PROPERTY, CandEnding, Candidate, CompRef, Component, DefectKey,
    EXCESSIVE_OUTPUT, ErrorCandidate, Incident, OpStat, PRINTS_TO_CONSOLE, Progress, TypeId,
    Violation, thrown_cause,
};
pub use generator::{GenConfig, Generator};
pub use guide::{CovGuide, Steer, SteerWhen};

/// Why generation ended: the stop reasons every command shares.
pub use crate::report::StopReason;
