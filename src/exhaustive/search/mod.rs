//! The BEAPI search: breadth-first rounds to a fixpoint with state matching.
//!
//! Round 1 runs every operation whose inputs are all literals. Each later round combines the
//! sequences kept so far, semi-naively: only combinations in which at least one input comes
//! from the sequences kept in the previous round (every other combination was already run,
//! and execution is deterministic, so it could only rebuild structures already seen). A
//! sequence is kept, once per new structure, when one of its inputs or its result has a
//! canonical form never seen before; kept sequences become usable in the next round only.
//! Batches are built and results applied in a fixed order, so counts do not depend on the
//! number of workers.
//!
//! Prototype reuse (default; `--no-reuse` turns it off): every structure the search keeps
//! stays live, as a prototype, in the worker JVM that built it (worker/jforge/worker/
//! Protos.java). A combination with one structure input is sent to that worker as
//! "deep copy of prototype k, the literal arguments, the call" instead of the whole sequence
//! that built k, so a sequence costs one call whatever its length. Combinations with several
//! structure inputs, and structures a worker lost (restart, full heap), run their full
//! sequence as before. Kept entries record how they were built (operation + inputs), and full
//! sequences are materialized only when needed (tests, failures, re-execution). At the start
//! of each round the frontier is rebalanced across workers by rebuilding a few prototypes in
//! the less loaded ones.
//!
//! The parts, each a file: `inputs` (the operations, their input domains and the settings),
//! `found` (what the search keeps and reports), `state` (the search's state and the sequence
//! of a combination), `rounds` (the rounds to a fixpoint, and exploring given combinations),
//! `prototypes` (where each kept structure lives, rebalanced between rounds), `contracts`
//! (the single-object contracts on every structure kept), `send` (a batch to the workers,
//! pipelined) and `apply` (its results: state matching, new structures, failures).

mod apply;
mod contracts;
mod found;
mod inputs;
mod prototypes;
mod rounds;
mod send;
mod state;

pub use found::{Applied, Counterexample, Failure, Kept, Progress, RoundStats};
pub use inputs::{Choice, ParamDom, SearchConfig, Usable};
pub use state::{KeyHash, KeyHasher, Search};
