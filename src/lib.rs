//! jforge: automatic unit-test generation for Java. See ARCHITECTURE.md for the map.

pub mod builders;
pub mod builders_cmd;
mod classbytes;
pub mod cli;
pub mod concolic;
pub mod contracts;
pub mod coverage;
pub mod coverage_cmd;
pub mod emit;
pub mod exhaustive;
pub mod exhaustive_cmd;
pub mod exit;
pub mod gen_cmd;
pub mod generate;
pub mod instrument;
pub mod interrupt;
pub mod model;
pub mod params;
pub mod progress;
pub mod project;
pub mod report;
pub mod runner;
pub mod select;
pub mod sequence;
pub mod session;
pub mod strategy;
pub mod suite;
