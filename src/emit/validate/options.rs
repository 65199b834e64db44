//! What a check does besides compiling and passing: measure coverage, run under a slowed
//! clock, run under the console launcher, the time and memory limits of a test, the heap of
//! run 1 and the time budget.

use crate::emit::junit_jars::find_console_launcher;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How the check measures the suite's coverage: instrumented copies of the classes under test
/// (`crate::coverage::Setup::coverage_run`).
#[derive(Clone, Debug)]
pub struct CoverageRun {
    /// Instrumented class folder, put first on the run class path.
    pub class_dir: PathBuf,
    /// Extra JVM options (`--patch-module java.base=...` for JDK classes, ...).
    pub jvm_args: Vec<String>,
    /// Number of probes: [`Validation::suite_hits`](super::Validation::suite_hits) has this length.
    pub total_probes: u32,
}

/// The slow-clock run: classes whose clock reads are rewritten (see
/// `crate::instrument::clock`), put first on the class path, with `-Djforge.clock=slow`.
#[derive(Clone, Debug)]
pub struct ClockRun {
    /// The rewritten class folder (the coverage one when coverage is measured: one folder).
    pub class_dir: PathBuf,
    /// Its JVM options (`--patch-module` when JDK classes are instrumented).
    pub jvm_args: Vec<String>,
}

/// What [`compile_and_run_with`](super::compile_and_run_with) checks besides compiling and passing.
#[derive(Clone, Debug)]
pub struct CheckOptions {
    /// Measure the suite's coverage.
    pub coverage: Option<CoverageRun>,
    /// Run the suite once more under a slowed clock (run 5).
    pub clock: Option<ClockRun>,
    /// JUnit 4: class path entries that add the JUnit Platform console launcher with the
    /// Vintage engine (empty when the JUnit class path has them already); `None` skips run 4.
    pub console_launcher: Option<Vec<PathBuf>>,
    /// A test slower than this in every run is reported as
    /// [`FailureCause::TooSlow`](super::FailureCause::TooSlow).
    pub slow_test: Duration,
    /// A test whose thread allocates more bytes than this is reported as
    /// [`FailureCause::TooMuchMemory`](super::FailureCause::TooMuchMemory).
    pub max_test_bytes: u64,
    /// Heap limit of run 1, in MiB.
    pub first_run_heap_mb: u32,
    /// The run's time budget: later runs (identity hashes, reverse order, console launcher)
    /// are skipped, with a warning, once it has passed.
    pub deadline: Option<Instant>,
    /// Compile the tests for this Java release: `--release N`, else `-source N -target N`
    /// when javac refuses that, else the JDK's own with a warning (see
    /// `javac::level_flags`). A test that calls API newer than the release does not compile
    /// and is removed like any other.
    pub release: Option<u32>,
    /// A javac kept warm for the run: the javac rounds go there, and to the javac program
    /// when it cannot take them (see `javac_server`).
    pub javac_server: Option<std::sync::Arc<super::javac_server::JavacServer>>,
}

/// `JFORGE_TIMING=1`: the check prints how long each phase took.
pub(super) fn timing_on() -> bool {
    std::env::var_os("JFORGE_TIMING").is_some_and(|v| !v.is_empty() && v != "0")
}

impl CheckOptions {
    /// The defaults: 1 s, 200 MB, `-Xmx256m`, the console launcher when found, no coverage.
    pub fn new(junit: u8, junit_cp: &[PathBuf]) -> CheckOptions {
        CheckOptions {
            coverage: None,
            clock: None,
            console_launcher: if junit == 4 {
                find_console_launcher(junit_cp)
            } else {
                None
            },
            slow_test: Duration::from_secs(1),
            deadline: None,
            max_test_bytes: 200 << 20,
            first_run_heap_mb: 256,
            release: None,
            javac_server: None,
        }
    }
}
