//! The report every command writes: one envelope with the command, the layout version, the
//! jforge version and why the search stopped, around the strategy's own figures
//! (`--stats-json`), plus the pieces every summary shares (the suite check's figures, skipped
//! members, peak memory). A generator's own report type lives in its folder
//! (`generate/report.rs`, `exhaustive/report.rs`, `builders`'s `Report`); this module knows no
//! generator.

use crate::sequence::SkipReason;
use anyhow::Context;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Version of the `--stats-json` layout of every command; raised when a field changes meaning
/// or goes away (new fields do not raise it).
pub const REPORT_VERSION: u32 = 2;

/// How many compile errors [`ValidationSummary::compile_errors`] lists.
pub const COMPILE_ERRORS_LISTED: usize = 20;

#[derive(Debug, Default, Clone, Serialize)]
pub struct ValidationSummary {
    /// Why the written suite was not checked, if it was not.
    pub skipped: Option<String>,
    pub rounds: usize,
    pub compile_removed: usize,
    /// The first of javac's messages for the tests removed for not compiling, as
    /// `Class.test: message` (at most [`COMPILE_ERRORS_LISTED`]): a test that does not
    /// compile is jforge's bug, and this says which.
    pub compile_errors: Vec<String>,
    pub failing_removed: usize,
    pub error_tests_removed: usize,
    pub passed: usize,
    /// The last check found nothing to remove.
    pub clean: bool,
    /// The time budget ended the check before a re-check after removing failing tests
    /// (the tests written passed in the round before).
    pub budget_cut: bool,
    /// Tests removed for failing, by why (`emit::validate::FailureCause`; compile failures
    /// are `compile_removed`).
    pub removed_by_cause: BTreeMap<crate::emit::validate::FailureCause, usize>,
    /// Assertions removed (the rest of their test kept) because they failed under a slowed
    /// clock (`emit::validate`, the slow-clock run).
    pub slow_clock_assertions: usize,
    /// With coverage: per probe id, whether the last check's suite hit it. That is the kept
    /// suite's coverage when `clean`; otherwise the last check still ran the tests removed
    /// after it.
    #[serde(skip)]
    pub suite_hits: Option<Vec<bool>>,
}

/// Why a strategy's search ended (`stop_reason` in every `--stats-json`, kebab-case). One
/// enum for all commands, so a script reads the same names whatever produced the report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum StopReason {
    /// `--time-limit` reached (gen).
    TimeLimit,
    /// `--generated-limit` reached (gen).
    GeneratedLimit,
    /// The earlier run's count of sequences reached: a time-limited re-run with the same
    /// options replays the earlier run's budget (gen).
    EarlierRun,
    /// No new branch for the `--stop-on-plateau` duration (gen).
    Plateau,
    /// Repeated batches made no new sequence (gen).
    Exhausted,
    /// A round found no new structure: every structure within the scope was built
    /// (exhaustive).
    Fixpoint,
    /// `--max-rounds` reached before the fixpoint (exhaustive).
    RoundLimit,
    /// No candidate method improves the set any more (builders, hill climbing).
    Converged,
    /// The last generation ran (builders, genetic algorithm).
    GenerationLimit,
    /// The given set was checked (builders `--verify`).
    Verified,
}

impl StopReason {
    /// For summary lines.
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Plateau => "no new branch for the --stop-on-plateau duration",
            StopReason::TimeLimit => "time limit",
            StopReason::GeneratedLimit => "--generated-limit reached",
            StopReason::EarlierRun => "the earlier run's count of sequences reached",
            StopReason::Exhausted => "no new sequences could be built",
            StopReason::Fixpoint => "fixpoint",
            StopReason::RoundLimit => "stopped before the fixpoint",
            StopReason::Converged => "no candidate adds structures",
            StopReason::GenerationLimit => "last generation",
            StopReason::Verified => "given set verified",
        }
    }
}

/// The `--stats-json` document of every command: these four fields first, then the
/// strategy's own figures at the top level (flattened, so field names stay where scripts
/// read them).
#[derive(Debug, Serialize)]
pub struct Envelope<'a, S: Serialize> {
    /// The subcommand that wrote it: `gen`, `exhaustive`, `builders`.
    pub command: &'static str,
    /// [`REPORT_VERSION`].
    pub report_version: u32,
    /// The jforge version.
    pub version: &'static str,
    pub stop_reason: StopReason,
    #[serde(flatten)]
    pub stats: &'a S,
}

impl<'a, S: Serialize> Envelope<'a, S> {
    pub fn new(command: &'static str, stop_reason: StopReason, stats: &'a S) -> Self {
        Envelope {
            command,
            report_version: REPORT_VERSION,
            version: env!("CARGO_PKG_VERSION"),
            stop_reason,
            stats,
        }
    }

    /// Writes the report as pretty JSON.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(self).context("cannot encode the report")?;
        std::fs::write(path, text)
            .with_context(|| format!("cannot write --stats-json file {}", path.display()))
    }
}

/// Writes a merged report (`jforge merge`, `gen --per-class`): envelopes combined by
/// `crate::merge::combine`, so no longer one typed [`Envelope`]. Creates the folder it goes
/// in (an empty shard wrote nothing else there).
pub fn write_merged(path: &Path, merged: &serde_json::Value) -> anyhow::Result<()> {
    if let Some(parent) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("cannot create {} for the report", parent.display()))?;
    }
    let text = serde_json::to_string_pretty(merged).context("cannot encode the report")?;
    std::fs::write(path, text)
        .with_context(|| format!("cannot write --stats-json file {}", path.display()))
}

/// Peak resident memory of this process (Linux), in KiB.
pub fn own_peak_rss_kb() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    s.lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
}

/// "warning: 8 members skipped: <reason> (see --stats-json)", one line per reason.
pub fn skipped_lines(
    one: &str,
    many: &str,
    reasons: impl Iterator<Item = SkipReason>,
) -> Vec<String> {
    let mut count: BTreeMap<SkipReason, usize> = BTreeMap::new();
    for r in reasons {
        *count.entry(r).or_default() += 1;
    }
    count
        .into_iter()
        .map(|(r, n)| {
            format!(
                "warning: {n} {} skipped: {r} (see --stats-json)",
                if n == 1 { one } else { many }
            )
        })
        .collect()
}

/// At most five names, then how many more.
pub fn name_list(names: &[&str]) -> String {
    let mut s = names.iter().take(5).copied().collect::<Vec<_>>().join(", ");
    if names.len() > 5 {
        s.push_str(&format!(" and {} more", names.len() - 5));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skipped_members_are_counted_per_reason() {
        let lines = skipped_lines(
            "member",
            "members",
            [
                SkipReason::TypesNotConcrete,
                SkipReason::GenericConstructor,
                SkipReason::TypesNotConcrete,
            ]
            .into_iter(),
        );
        assert_eq!(
            lines,
            [
                "warning: 1 member skipped: generic constructor (see --stats-json)",
                "warning: 2 members skipped: types cannot be made concrete or are not public (see --stats-json)"
            ]
        );
        assert_eq!(name_list(&["a", "b"]), "a, b");
        assert_eq!(name_list(&["a"; 7]), "a, a, a, a, a and 2 more");
    }
}
