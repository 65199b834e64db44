//! jforge: automatic unit-test generation for Java. See ARCHITECTURE.md for the map.

pub mod builders;
mod classbytes;
pub mod concolic;
pub mod contracts;
pub mod coverage;
pub mod emit;
pub mod exhaustive;
pub mod exit;
pub mod flags;
pub mod r#gen; // `gen` is reserved in Rust 2024: the folder keeps the command's name
pub mod generate;
pub mod instrument;
pub mod interrupt;
pub mod maven;
pub mod merge;
pub mod model;
pub mod params;
pub mod progress;
pub mod project;
pub mod report;
pub mod runner;
pub mod select;
pub mod sequence;
pub mod session;
pub mod settings;
pub mod shard;
pub mod strategy;
pub mod stubclass;
pub mod suite;
