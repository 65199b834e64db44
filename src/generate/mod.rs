//! Generators: strategies over the shared model, sequence, runner and emitter.
//!
//! - `ops`: which members may be called, with generic types instantiated.
//! - `literals`: the pool of primitive and String values.
//! - `random`: feedback-directed random generation (Randoop).
//! - `assist`: the hook of a helper at coverage plateaus (`gen --concolic`).
//! - `bloom`: fixed-size "seen before?" sets.
//! - `sizing`: the operations whose numbers size an allocation (read from the bytecode).
//! - `hangs`: the runtime classes of values that make calls hang (never reused).
//! - `finish`: from candidates to test cases (observers, flakiness filter, minimization).
//! - `simplify`: repeated calls nothing uses collapsed before regression tests are built.

pub mod assist;
pub mod bloom;
pub mod finish;
pub mod hangs;
pub mod literals;
pub mod ops;
pub mod random;
pub mod report;
pub mod select;
pub mod simplify;
pub mod sizing;
