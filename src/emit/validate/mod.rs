//! Checking written tests with the real tools: javac compiles them and JUnit runs them, in the
//! configurations the user's build may use.
//!
//! Why: the generator reasons about Java from class files, and javac's rules (overload
//! resolution, accessibility, checked exceptions, generics) are subtle; anything the writer got
//! wrong shows up here and is mapped back to the test method, so the caller can drop or fix
//! just that test. Likewise a regression test that does not pass when re-run (flaky,
//! environment-dependent, dependent on the tests run before it) is found and reported by
//! method, with the reason ([`FailureCause`]).
//!
//! How:
//! - Sources are copied into a temporary folder and compiled in one javac run (`-encoding
//!   UTF-8 -proc:none -nowarn`, javac's own JVM limited to the C1 compiler and the serial
//!   collector, which halves its time on a thousand tests: see [`JAVAC_JVM`]). javac errors
//!   (`File.java:LINE: error: ...`) are mapped to the method whose line range holds LINE; those
//!   methods are blanked out (lines kept, so numbers stay valid) and the rest is compiled
//!   again, so that one bad test does not hide the results of the others. An import javac
//!   cannot resolve (a type newer than the release) is blanked out too, and the methods that
//!   name the type fail with it; any other error outside every test method (the class
//!   header) is an `Err`.
//! - The runner (Java source kept next to this file: `JforgeJUnit4Runner.java` via `JUnitCore`,
//!   `JforgeJUnit5Runner.java` via the Platform Launcher, `JforgePlatformListener.java`, all
//!   writing the results file through `JforgeRunnerOutput.java`) is compiled once per JUnit
//!   class path and kept in jforge's cache folder (`validate-runner-<hash>`), so a check
//!   compiles nothing but the tests. The runner writes START before and PASS/FAIL after each
//!   test (with its wall time and the bytes its thread allocated), flushed line by line, and
//!   runs the tests in exactly the order it is given.
//! - The suite runs in up to five configurations, each in fresh JVMs:
//!   1. the runner (JUnitCore for JUnit 4, the Platform Launcher for 5), test classes and
//!      methods in declaration order, `-Xmx256m`;
//!   2. the runner, declaration order, every identity hash code 1 (HotSpot `-XX:hashCode=2`,
//!      see [`FailureCause::IdentityHash`]);
//!   3. the runner, classes and methods in **reverse** order, default JVM options, and a
//!      folder first on the class path that holds each of the tests' packages with a marker
//!      file in it, as a build's test-classes folder stands before its classes: a test that
//!      lists a package folder found on the class path (`getResource("")`) differs here;
//!   4. JUnit 4 only, when the Platform console launcher is found ([`find_console_launcher`]):
//!      `org.junit.platform.console.ConsoleLauncher` itself (JUnit 4 tests run through the
//!      Vintage engine), declaration order; the runner's listener is registered through
//!      `META-INF/services`. For JUnit 5, runs 1-3 already go through the Platform Launcher
//!      that the console launcher drives.
//!   5. with [`CheckOptions::clock`]: the runner, declaration order, the classes whose clock
//!      reads jforge rewrote first on the class path and `-Djforge.clock=slow` (today, 1 s to
//!      3 h per read): a test that fails only here depends on how fast the machine runs
//!      ([`FailureCause::SlowClock`]; the caller drops just the failing assertion, by the
//!      line the runner reports).
//!
//!   Runs 1, 2 and 4 limit the JIT to C1 (startup-bound, see `QUICK_JVM`); run 3 passes no
//!   option at all, like a user's build. Runs 2-4 run the classes under test as they are (no
//!   instrumented copies, no `--patch-module`), as the user's build does. Later runs run what
//!   run 1 left as candidates: tests that passed (or, in error suites, failed in an ordinary
//!   way) there; they run side by side, one per core, and their verdicts are applied in their
//!   order, so a test whose outcome changes in several is reported with the cause of the
//!   first of them, as if they had run one after another on what each left; each later
//!   run differs from run 1 in one respect that can break a test (order, identity hashes,
//!   launcher; a larger heap or another JIT only hide failures), so the cause says why. Run 1
//!   removes tests that need more than 256 MB of heap; run 3 those that depend on static
//!   state left by the tests before them or on the class path's layout (a test that needs an earlier test runs before it in
//!   one of the two orders, one broken by a later test runs after it). The identity hash run
//!   comes second because a test that depends on identity hashes fails by chance in any run
//!   (when its hash has one hex digit less...), and in run 2 for sure: placed there, it leaves
//!   runs 3 and 4 the failures of their own cause (run 1 may still catch one by chance).
//!   Cost on 1000 TreeMap tests (CPU seconds): javac 1.7, runs 0.3 + 0.3 + 0.45 + 0.7; before
//!   this design javac took 3.9, the runner's own javac 1.0 and its one run 0.45.
//! - A test that runs longer than [`CheckOptions::slow_test`] (1 s) in every run it ran in is
//!   reported as [`FailureCause::TooSlow`] (the fastest run counts, so a machine busy for a
//!   moment removes nothing); one whose thread allocated more than
//!   [`CheckOptions::max_test_bytes`] (200 MB) in run 1 as [`FailureCause::TooMuchMemory`],
//!   like one that ran out of memory.
//! - A test whose START has no result killed the JVM (`System.exit`, `Runtime.halt`, a crash)
//!   or hung it (the JVM is killed when it reports nothing for `run_timeout`, so a large suite
//!   is not mistaken for a hanging test): it is reported as failing and the remaining tests of
//!   that run are run again in a fresh JVM. Where the JDK still allows it, the runner also
//!   installs a SecurityManager that turns `System.exit` into a `SecurityException`. A test
//!   never reported as passed is never counted as passing.
//! - Coverage ([`CheckOptions::coverage`]): the JVMs of runs 1 and 5 get the instrumented
//!   classes first on the class path and the instrumentation's JVM options; after every test
//!   the runner drains the hit probes and writes the ones new to that JVM.
//!   [`Validation::suite_hits`] is the union over those JVMs; a JVM killed during a test loses that test's hits only
//!   (that test fails anyway). The union includes what failing tests reached: it is the
//!   written suite's coverage when the check removes nothing, which is why a caller that
//!   removes tests checks again and keeps the hits of the last, clean check.
//! - `JFORGE_TIMING=1` prints how long each phase took to stderr.
//!
//! The parts, each a file: `result` (what a check reports), `options` (what it checks
//! besides compiling and passing), `javac` (compiling the tests, blanking out what fails),
//! `runner` (the runner, compiled once and cached), `jvm` (running tests in test JVMs and
//! reading their results), `verdicts` (deciding each test from its runs) and `check` (one
//! check, step by step).

mod check;
mod javac;
mod javac_server;
mod jvm;
mod options;
mod result;
mod runner;
mod verdicts;

pub use crate::emit::junit_jars::{find_console_launcher, find_junit};
pub use check::{compile_and_run, compile_and_run_with};
pub use javac::JAVAC_JVM;
pub use javac_server::JavacServer;
pub use options::{CheckOptions, ClockRun, CoverageRun};
pub use result::{
    FailureCause, INCONSISTENT, JVM_EXIT, NO_RESULT, TIMEOUT, TOO_MUCH_MEMORY, TOO_SLOW,
    TestFailure, Validation, removed_by_cause,
};
