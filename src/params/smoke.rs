//! The working calls checked and kept: each runs again in two JVMs through the shared suite
//! stage (`suite::observe`: once in the search's pool, once in a freshly started JVM with
//! another time zone, locale and charset), and with `--output-dir` becomes one smoke test
//! per method, written and checked like `gen`'s suites (`suite::check::write_and_check`).
//!
//! Why re-run every working call, with or without a suite: a call that completed once may
//! depend on what ran before it in that worker (static state) or on the machine's defaults;
//! a benchmark built on it would fail on its first fresh start. Such a method is reported as
//! failed (`unstable`), not as invoked.

use super::{Failure, Search, Status};
use crate::emit::TestCase;
use crate::emit::output::RunOutput;
use crate::report::ValidationSummary;
use crate::runner::Pool;
use crate::session::Session;
use crate::suite::check::{CheckSettings, write_and_check};
use crate::suite::{Expect, ObserveItem, ObserveStats};
use serde::Serialize;

/// What `--output-dir` wrote.
#[derive(Serialize, Debug, Default)]
pub struct SmokeSuite {
    pub output_dir: String,
    /// Tests written and kept after the check (one per method).
    pub tests: usize,
    pub files: Vec<String>,
    pub validation: ValidationSummary,
}

/// Runs every working call again (see the module doc); a call that does not complete the
/// same way in both JVMs turns its method into a failure. Returns the tests of the
/// confirmed calls (asserting the values equal in both runs), in target order.
pub fn confirm(search: &mut Search, pool: &mut Pool) -> anyhow::Result<Vec<TestCase>> {
    let mut who = Vec::new();
    let mut items = Vec::new();
    for (ti, t) in search.targets.iter().enumerate() {
        if let (true, Status::Invoked { seq, .. }) = (t.under_test, &t.status) {
            who.push(ti);
            items.push(ObserveItem {
                seq: seq.clone(),
                expect: Expect::Normal,
                observers: Vec::new(),
                contract_values: Vec::new(),
            });
        }
    }
    let mut stats = ObserveStats::default();
    let observed = crate::suite::observe(search.model, pool, &items, &mut stats)?;
    let mut cases = Vec::new();
    for (ti, case) in who.into_iter().zip(observed) {
        match case {
            Some(mut c) => {
                unasserted_when_the_machine_decides(search, &mut c);
                cases.push(c)
            }
            None => search.targets[ti].status = Status::Failed(Failure::Unstable),
        }
    }
    Ok(cases)
}

/// Tests that assert nothing: their values depend on what the machine does, and two runs of
/// the confirmation may agree by chance. The test still shows the call completes.
/// - One that takes an element out of a made collection (`Search::element_of_collection`):
///   which element comes first depends on the collection's iteration order, and
///   `Currency.getAvailableCurrencies()` hashes by identity (most currencies have 2 fraction
///   digits, so two runs may agree and a third not).
/// - One that starts an operating-system process (`ProcessBuilder.start()`,
///   `startPipeline(..)`): what the process reports (`isAlive()`, `exitValue()`, `info()`,
///   `waitFor(..)` within a time) depends on how fast the machine schedules it (under load,
///   the suite's reverse-order run once saw `isAlive()` true where both runs had seen false).
fn unasserted_when_the_machine_decides(search: &Search, c: &mut TestCase) {
    let table = &search.ops.table;
    let decides = c.seq.stmts.iter().any(|s| match s {
        crate::sequence::Stmt::Call { op, .. } => {
            let o = table.get(*op);
            search.element_ops.contains(op)
                || (o.class == "java.lang.ProcessBuilder" && o.name.starts_with("start"))
        }
        _ => false,
    });
    if decides {
        c.asserts.iter_mut().for_each(|a| *a = None);
        c.observers.clear();
    }
}

/// Writes the smoke suite into `out`, checks it (javac + JUnit; what fails is removed) and
/// puts it in place.
pub fn write(
    out: &mut RunOutput,
    session: &Session,
    search: &Search,
    classes: &[String],
    cases: &[TestCase],
    check: &crate::settings::SuiteSettings,
    quiet: bool,
) -> anyhow::Result<SmokeSuite> {
    let table = &search.ops.table;
    let mut owner_class = search.ops.owner_class.clone();
    owner_class.resize(table.len(), None);
    let checked = write_and_check(
        out,
        table,
        &owner_class,
        classes,
        cases,
        &[],
        &CheckSettings::of(session, check, quiet),
    )?;
    let installed = out.install(&checked.files)?;
    Ok(SmokeSuite {
        output_dir: check
            .output_dir
            .as_ref()
            .map(|d| d.display().to_string())
            .unwrap_or_default(),
        tests: checked.regression.len(),
        files: installed
            .files
            .iter()
            .map(|f| f.path.display().to_string())
            .collect(),
        validation: checked.validation,
    })
}
