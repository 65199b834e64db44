//! The integration tests: one test binary (`cargo test --release`; the slow tests marked
//! `#[ignore]` run with `-- --include-ignored`, as CI does). One module per area; what they
//! share (running jforge, javac and JDK tools, compiling subjects into one per-run folder that
//! is removed at exit) is in `support`. Java subjects stay in tests/subjects.
#![allow(dead_code)]

mod support;

mod architecture;
mod builders_e2e;
mod cli_errors;
mod concolic_e2e;
mod coverage_e2e;
mod coverage_jacoco;
mod docs;
mod emit_e2e;
mod emit_literal;
mod emit_render;
mod exhaustive_e2e;
mod gen_e2e;
mod instrument_jars;
mod instrument_jdk;
mod instrument_probes;
mod instrument_sizes;
mod instrument_verify;
mod lean_e2e;
mod model_classfile;
mod model_classpath;
mod model_hierarchy;
mod modern_java;
mod output_e2e;
mod params_e2e;
mod reach_e2e;
mod real_projects;
mod runner_exec;
mod runner_hostile;
mod runner_throughput;
mod shard_e2e;
mod suite_e2e;
mod validate_e2e;
