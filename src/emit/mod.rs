//! Writing JUnit 4/5 source from sequences, and checking what was written with javac and
//! JUnit (`validate`).
//!
//! Sub-modules: `literal` (Java literals for values), `names` (variable names from types),
//! `junit` (test classes), `validate` (compile + run, map failures back to test methods),
//! `suite` (which test class a test goes to, class names, run markers), `output` (locked
//! output folders, staging, replacing only a run's own earlier files), `stored` (a test's
//! sequence in a comment line, read back by the next run).

pub mod junit;
pub mod literal;
pub mod names;
pub mod output;
pub mod stored;
pub mod suite;
pub mod validate;

use crate::runner::Contract;
use crate::sequence::{OpId, SeqRef, Value};

/// How a test ends.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// Every statement returns normally.
    Normal,
    /// Regression test: the last statement throws `class` (a public class name, binary form);
    /// written as try { ...; fail(...) } catch (Class e) { }.
    ExpectedException { class: String },
    /// Error-revealing test: the last statement throws `class`, which breaks `contract`
    /// (e.g. "npe-without-null-input", "assertion-error", "declared-exception"). The test is
    /// written so that it fails with that exception.
    ErrorException { class: String, contract: String },
    /// Error-revealing test: an object contract fails on the values of statements `a` (and `b`)
    /// after the last statement; written as an assertion whose message names the contract.
    ErrorContract {
        contract: Contract,
        a: u32,
        b: Option<u32>,
    },
}

/// One test to write: the statements, what to assert, how it ends.
#[derive(Clone, Debug)]
pub struct TestCase {
    pub seq: SeqRef,
    /// Per statement: the value to assert right after it (results of type primitive, String or
    /// enum that were stable across runs), or `None`.
    pub asserts: Vec<Option<Value>>,
    /// Observer calls to assert after the last statement: (statement, observer op, value).
    pub observers: Vec<(u32, OpId, Value)>,
    pub ending: Ending,
}

/// Output settings.
#[derive(Clone, Debug)]
pub struct EmitConfig {
    pub out_dir: std::path::PathBuf,
    /// 4 or 5.
    pub junit: u8,
    /// Package of the test classes; `None` = default package.
    pub package: Option<String>,
    pub tests_per_file: usize,
}

/// Where a test method ended up, so that compile errors and failures map back to test cases.
#[derive(Clone, Debug)]
pub struct WrittenTest {
    /// Index into the slice of test cases given to the writer.
    pub case: usize,
    pub method: String,
    /// 1-based inclusive line range of the method in the file.
    pub lines: (usize, usize),
}

#[derive(Clone, Debug)]
pub struct WrittenFile {
    pub path: std::path::PathBuf,
    /// Fully qualified class name of the test class.
    pub class_name: String,
    /// Error-revealing tests (`*ErrorTest`, true) or regression tests (false);
    /// `WrittenTest::case` indexes the error or the regression slice accordingly.
    pub error_suite: bool,
    pub tests: Vec<WrittenTest>,
}
