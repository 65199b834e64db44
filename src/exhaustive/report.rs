//! The figures of a `jforge exhaustive` run: the strategy stats of the `--stats-json`
//! envelope (see `crate::report`; field names are a public interface) and the summary on the
//! terminal, printed from them.

use crate::generate::ops::SkipReason;
use crate::report::ValidationSummary;
use crate::suite::ObserveStats;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;

#[derive(Debug, Clone, Serialize)]
pub struct ExhaustiveStats {
    pub classes: Vec<String>,
    pub scope: u32,
    pub ints: Vec<i32>,
    pub strings: Vec<String>,
    pub omit_fields: Option<String>,
    pub state_matching: bool,
    /// Constructors and methods the search calls.
    pub usable_operations: usize,
    pub skipped_members: Vec<(String, SkipReason)>,
    pub workers: usize,
    /// Seconds of the search.
    pub seconds: f64,
    pub total_seconds: f64,
    /// Distinct structures of the classes under test.
    pub structures: u64,
    /// Distinct structures per runtime class.
    pub structures_by_class: BTreeMap<String, u64>,
    pub kept_sequences: usize,
    pub prototype_reuse: PrototypeReuse,
    pub explored: u64,
    /// Sequences dropped because they ended in an expected exception (`crate::contracts`);
    /// the name is older than the classification and kept (a public interface).
    pub misuse_dropped: u64,
    pub out_of_scope: u64,
    pub canon_errors: BTreeMap<String, u64>,
    /// Every structure within the scope was built.
    pub fixpoint: bool,
    /// Warnings given during the search (also printed as they came).
    pub warnings: Vec<String>,
    /// Warnings about the settings (a replaced flag), printed after the summary.
    pub setting_warnings: Vec<String>,
    /// When no structure of the classes under test was built: why, one reason per line
    /// (the run exits with status 2).
    pub no_structures_because: Vec<String>,
    pub rounds: Vec<super::search::RoundStats>,
    pub failures: Vec<FailureRow>,
    /// `--check`: the method asked.
    pub check: Option<String>,
    pub counterexamples: Vec<CounterexampleRow>,
    /// `--output-dir`, when tests were written.
    pub output_dir: Option<String>,
    /// Where failure tests went, when apart from the suite (`--error-output-dir`).
    pub error_output_dir: Option<String>,
    pub tests_written: usize,
    pub tests_dropped: ObserveStats,
    pub validation: Option<ValidationSummary>,
    pub failure_tests_written: usize,
    /// Files an earlier `jforge exhaustive` run wrote for the same classes, replaced.
    pub files_replaced: usize,
    pub restarts: u64,
    pub timeouts: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct PrototypeReuse {
    pub enabled: bool,
    pub from_prototype: u64,
    pub from_scratch: u64,
    pub rebuilt: u64,
    /// Why reuse was turned off during the run, if it was.
    pub disabled: Option<String>,
}

/// An exception (or crash, timeout, broken contract) met while building structures.
#[derive(Debug, Clone, Serialize)]
pub struct FailureRow {
    pub exception: String,
    pub message: Option<String>,
    pub occurrences: u64,
    /// The statements of the shortest sequence that shows it.
    pub sequence: Vec<String>,
}

/// A structure on which the `--check` method did not return true.
#[derive(Debug, Clone, Serialize)]
pub struct CounterexampleRow {
    pub check: Option<String>,
    /// `false`, or the exception the check threw.
    pub result: String,
    pub class: String,
    pub sequence: Vec<String>,
}

impl ExhaustiveStats {
    /// The summary on stdout.
    pub fn print_summary(&self, out: &mut dyn Write) -> std::io::Result<()> {
        writeln!(
            out,
            "jforge exhaustive: {} scope {}: {} structures, {} sequences explored in {:.2}s ({} rounds{})",
            self.classes.join(", "),
            self.scope,
            self.structures,
            self.explored,
            self.seconds,
            self.rounds.len(),
            if self.fixpoint {
                ", fixpoint"
            } else {
                ", stopped before the fixpoint"
            }
        )?;
        for (c, n) in &self.structures_by_class {
            writeln!(out, "  structures of {c}: {n}")?;
        }
        if !self.no_structures_because.is_empty() {
            writeln!(
                out,
                "  no structure of {} was built:",
                self.classes.join(", ")
            )?;
            for why in &self.no_structures_because {
                writeln!(out, "    {why}")?;
            }
        }
        writeln!(
            out,
            "  dropped: {} ending in an expected exception (invalid argument or state), {} out of scope",
            self.misuse_dropped, self.out_of_scope
        )?;
        for (e, n) in &self.canon_errors {
            writeln!(out, "  canonicalization failed {n} times: {e}")?;
        }
        writeln!(out, "  failures: {}", self.failures.len())?;
        for f in &self.failures {
            writeln!(
                out,
                "    {} ({}x){}\n      {}",
                f.exception,
                f.occurrences,
                f.message
                    .as_ref()
                    .map(|m| format!(": {m}"))
                    .unwrap_or_default(),
                f.sequence.join("; ")
            )?;
        }
        if let Some(check) = &self.check {
            writeln!(
                out,
                "  --check counterexamples: {}",
                self.counterexamples.len()
            )?;
            for c in self.counterexamples.iter().take(20) {
                writeln!(
                    out,
                    "    {check} returned {}: {}",
                    c.result,
                    c.sequence.join("; ")
                )?;
            }
        }
        if let Some(d) = &self.output_dir {
            let n = self.failure_tests_written;
            let failures = match &self.error_output_dir {
                Some(e) if n > 0 => {
                    format!("; {n} failure tests to {e}, where a build does not run them")
                }
                _ => format!(" and {n} failure tests"),
            };
            writeln!(
                out,
                "  wrote {} structure tests to {d}{failures}; replaced {} files an earlier jforge exhaustive run wrote for the same classes",
                self.tests_written, self.files_replaced
            )?;
        }
        Ok(())
    }

    /// Members of the classes under test left out, one line per reason (for stderr).
    pub fn warnings(&self) -> Vec<String> {
        let under_test = |sig: &str| {
            self.classes.iter().any(|c| {
                sig.strip_prefix(c.as_str())
                    .is_some_and(|rest| rest.starts_with(['.', '(']))
            })
        };
        let reasons = self
            .skipped_members
            .iter()
            .filter(|(s, _)| under_test(s))
            .map(|(_, r)| *r);
        let mut lines = self.setting_warnings.clone();
        if !self.no_structures_because.is_empty() {
            lines.push(format!(
                "error: no structure of {} was built (reasons in the summary above); nothing \
                 to test, exit status 2",
                self.classes.join(", ")
            ));
        }
        lines.extend(crate::report::skipped_lines("member", "members", reasons));
        lines
    }
}
