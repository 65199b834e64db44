//! jforge: automatic unit-test generation for Java. See ARCHITECTURE.md for the map.

pub mod emit;
pub mod model;
pub mod runner;
pub mod sequence;
