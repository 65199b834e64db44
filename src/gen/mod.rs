//! `jforge gen`: feedback-directed random generation (Randoop) guided by coverage, as a
//! command. It composes the random generator (`crate::generate`), the concolic helper
//! (`crate::concolic::hybrid`, `--concolic`), the shared pipeline (`crate::strategy`) and the
//! suite stage (`crate::suite`):
//!
//! ```text
//! classes.rs    the classes a run tests, resolved, checked and loaded
//! cmd.rs        the flags (GenArgs), read once into GenSettings
//! dispatch.rs   what a command line asks for: one run, one per class, one per module (--project)
//! per_class/    --per-class / --shard: one session, a generator per class, one check
//! run.rs        one run (Gen, a Strategy): set-up, generation, tests, check, report
//! ```

mod classes;
pub mod cmd;
mod dispatch;
mod per_class;
mod run;

use crate::concolic::solver::SolverSpec;
use crate::settings::{ProjectSettings, RunSettings, SuiteSettings};
use regex::Regex;
use std::path::PathBuf;
use std::time::Duration;

/// A `gen` run, read from its flags: plain values, every duration and pattern parsed.
#[derive(Debug, Clone)]
pub struct GenSettings {
    pub run: RunSettings,
    pub suite: SuiteSettings,
    pub project: Option<ProjectSettings>,
    /// `--classlist`: a file of class names.
    pub classlist: Option<PathBuf>,
    /// `--package` prefixes.
    pub packages: Vec<String>,
    /// `--jar`: every class of these jars a test in its package can name (added to the class
    /// path).
    pub jars: Vec<PathBuf>,
    pub include_methods: Option<Regex>,
    pub exclude_methods: Option<Regex>,
    /// `--builders FILE`: call only these methods of the classes under test.
    pub builders: Option<PathBuf>,
    /// `--time-limit` (60 s unless only `--generated-limit` is given; `None`: no limit).
    pub time_limit: Option<Duration>,
    pub generated_limit: Option<u64>,
    pub seed: u64,
    /// `--output-limit` as given (the default applies when `None`, and the cut is then soft).
    pub output_limit: Option<usize>,
    /// `--error-exceptions`.
    pub error_exceptions: Vec<String>,
    pub fill: bool,
    pub call_timeout: Duration,
    pub test_package: Option<String>,
    pub adaptive_weights: bool,
    /// `--coverage`, `--no-coverage`, `--no-guidance` as given.
    pub coverage: bool,
    pub no_coverage: bool,
    pub no_guidance: bool,
    pub stop_on_plateau: Option<Duration>,
    /// `--concolic`: the solver, found before anything starts.
    pub solver: Option<SolverSpec>,
    pub per_class: bool,
    /// `--ignore-own-tests`: with `--project`, write tests for all the run covers.
    pub ignore_own_tests: bool,
    /// With `--project`: the module's own suite, run first so that only tests that add to
    /// it are written (set per module by `cmd::run_project`).
    pub own_suite: Option<crate::coverage::cmd::OwnSuite>,
    /// The options that decide what a class's run does, as given (`--per-class`, `--shard`:
    /// the report's `sharding.options`, which `jforge merge` compares between shards).
    pub options_key: String,
    /// `--per-class`: the javac the classes' checks share, started once for the whole run
    /// (a class's tests are compiled alone either way; only the JVM is shared, warm after
    /// the first class).
    pub shared_javac: Option<std::sync::Arc<crate::emit::validate::JavacServer>>,
}

impl GenSettings {
    /// `--output-dir`, else `jforge-tests`.
    pub fn output_dir(&self) -> PathBuf {
        self.suite
            .output_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from("jforge-tests"))
    }
}
