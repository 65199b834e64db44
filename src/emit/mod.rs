//! Writing JUnit 4/5 source from sequences, and checking what was written with javac and
//! JUnit (`validate`).
//!
//! Sub-modules: `literal` (Java literals for values), `names` (variable names from types),
//! `junit` (test classes), `validate` (compile + run, map failures back to test methods),
//! `suite` (which test class a test goes to, class names, run markers), `output` (locked
//! output folders, staging, replacing only a run's own earlier files), `stored` (a test's
//! sequence in a comment line, read back by the next run).

pub mod junit;
pub mod junit_jars;
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
    /// written as try { ...; fail(...) } catch (Class e) { }. `catch_as`: the class the catch
    /// names instead, when the Java release the tests compile for lacks `class` (its nearest
    /// superclass there: `suite::check`); the stored sequence keeps `class`, what a re-run sees.
    ///
    /// `message`: the exception's message, asserted in the catch, when code outside the JDK
    /// threw it (its top frame) with the same message in both observing JVMs (see
    /// `suite::thrown_message`).
    ExpectedException {
        class: String,
        catch_as: Option<String>,
        message: Option<String>,
    },
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
    /// For an error test: what the defect is known by (`None`: nothing beyond the ending).
    /// A regression test has one only to name its class ([`Defect::owner`], `gen
    /// --per-class`).
    pub defect: Option<Defect>,
}

/// Why an error test is believed, and whose defect it is.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Defect {
    /// The class under test the test belongs to, when not that of its last call: the class
    /// whose code broke the contract (a defect reached through `Config.Builder` but thrown in
    /// `Config.toString` is `Config`'s; under `gen --per-class`, every test of a class's
    /// generator, wherever its last call is). `None`: the rule of [`suite::owner`].
    pub owner: Option<String>,
    /// The class and method whose code broke the contract, with its line
    /// (`com.x.Foo.hashCode (line 12)`), for the test's comment.
    pub broken_in: Option<String>,
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
    /// The assertions of the method: (1-based line in the file, what it asserts).
    pub assertions: Vec<(usize, Asserted)>,
}

/// What one written assertion asserts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asserted {
    /// The value of statement i (`TestCase::asserts[i]`).
    Stmt(usize),
    /// Observer k (`TestCase::observers[k]`).
    Observer(usize),
    /// The message of the expected exception (`Ending::ExpectedException::message`).
    Message,
}

impl TestCase {
    /// The test without assertion `a`. Dropping an observer drops its repetitions too, and
    /// dropping the last statement's value drops the observers it made redundant, so that
    /// no assertion the writer left out for repeating this one appears in its place.
    pub fn without(&self, a: Asserted) -> TestCase {
        let mut t = self.clone();
        let mut drop_observers = |s: u32, op: crate::sequence::OpId| {
            t.observers.retain(|o| !(o.0 == s && o.1 == op));
        };
        match a {
            Asserted::Stmt(i) => {
                if i + 1 == self.seq.stmts.len()
                    && let Some(crate::sequence::Stmt::Call { op, args }) = self.seq.stmts.last()
                    && let [recv] = args.as_slice()
                {
                    drop_observers(*recv, *op);
                }
                if let Some(v) = t.asserts.get_mut(i) {
                    *v = None;
                }
            }
            Asserted::Observer(k) => {
                if let Some(&(s, op, _)) = self.observers.get(k) {
                    drop_observers(s, op);
                }
            }
            Asserted::Message => {
                if let Ending::ExpectedException { message, .. } = &mut t.ending {
                    *message = None;
                }
            }
        }
        t
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::{Sequence, Stmt, Value};

    /// `w = new W(); long t = w.getTime();` asserted 5, observers getTime (op 1, a repeat
    /// of the statement's assertion the writer leaves out) and isStarted (op 2) on `w`.
    fn watch() -> TestCase {
        TestCase {
            seq: std::sync::Arc::new(Sequence {
                stmts: vec![
                    Stmt::Call {
                        op: 0,
                        args: vec![],
                    },
                    Stmt::Call {
                        op: 1,
                        args: vec![0],
                    },
                ],
            }),
            asserts: vec![None, Some(Value::Long(5))],
            observers: vec![(0, 1, Value::Long(5)), (0, 2, Value::Bool(false))],
            ending: Ending::Normal,
            defect: None,
        }
    }

    #[test]
    fn without_an_assertion_drops_it_and_the_repeats_it_hid() {
        let t = watch().without(Asserted::Stmt(1));
        assert_eq!(t.asserts, vec![None, None]);
        assert_eq!(t.observers, vec![(0, 2, Value::Bool(false))]);
        let t = watch().without(Asserted::Observer(1));
        assert_eq!(t.asserts, vec![None, Some(Value::Long(5))]);
        assert_eq!(t.observers, vec![(0, 1, Value::Long(5))]);
        // an assertion on an earlier statement leaves the observers alone
        let mut w = watch();
        w.asserts[0] = Some(Value::Int(1));
        let t = w.without(Asserted::Stmt(0));
        assert_eq!(t.asserts, vec![None, Some(Value::Long(5))]);
        assert_eq!(t.observers.len(), 2);
    }
}
