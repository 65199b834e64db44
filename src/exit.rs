//! The exit status of the jforge process: one definition for every command (docs/reports.md,
//! "Exit status"; `jforge --help` prints the same table).
//!
//! Commands return `anyhow::Result<Outcome>`. An error exits with 2 (input or environment)
//! unless it was tagged with [`internal`] (a bug in jforge) or [`budget`] (a limit was
//! reached); `main` finds the tag anywhere in the error's chain, so context added later keeps
//! it. A panic exits with 1 after one short line (see `main`).

use std::fmt;

/// How the process ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExitStatus {
    /// The run succeeded and wrote no error-revealing test.
    Success,
    /// A bug in jforge: a panic, or a broken internal rule such as a worker protocol violation.
    Internal,
    /// The run could not be done because of its input or environment: bad flag values, an
    /// unknown class, a bad class path, no JDK, an unwritable output folder.
    Input,
    /// The run succeeded and wrote error-revealing tests (or, for `exhaustive`, failure tests).
    ErrorsFound,
    /// A budget was exceeded: memory, scope.
    Budget,
}

impl ExitStatus {
    pub fn code(self) -> i32 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Internal => 1,
            ExitStatus::Input => 2,
            ExitStatus::ErrorsFound => 3,
            ExitStatus::Budget => 4,
        }
    }
}

/// The table printed by `--help` (kept next to the definition so the two cannot drift).
pub const HELP: &str = "\
Exit status:
  0  success, no error-revealing test written
  1  internal error: a bug in jforge (please report it)
  2  the run could not be done because of its input or environment (bad flag value, unknown
     class, bad class path, no JDK, unwritable output folder, ...; exhaustive: a search that
     built no structure, the summary says why)
  3  success, and error-revealing tests were written (gen: error tests; exhaustive: failures
     or --check counterexamples)
  4  a budget was exceeded (exhaustive: --max-memory, scope too large)";

/// What a command that ran to its end found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing that reveals an error.
    Clean,
    /// Error-revealing tests were written.
    ErrorsFound,
    /// The run ended but built nothing to test with its input (`exhaustive`: no structure of
    /// the classes under test; its summary says why): exit 2, like any input the run cannot
    /// work with, yet with the summary and the report written.
    NothingBuilt,
}

impl Outcome {
    pub fn status(self) -> ExitStatus {
        match self {
            Outcome::Clean => ExitStatus::Success,
            Outcome::ErrorsFound => ExitStatus::ErrorsFound,
            Outcome::NothingBuilt => ExitStatus::Input,
        }
    }
}

/// The kinds an error can be tagged with; an untagged error is an input/environment error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Internal,
    Budget,
}

/// An error carrying its kind. It displays as the error it wraps and continues that error's
/// chain, so `{e:#}` prints exactly what it printed before tagging.
#[derive(Debug)]
struct Tagged {
    kind: ErrorKind,
    error: anyhow::Error,
}

impl fmt::Display for Tagged {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.error, f)
    }
}

impl std::error::Error for Tagged {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.source()
    }
}

fn tag(kind: ErrorKind, e: impl Into<anyhow::Error>) -> anyhow::Error {
    anyhow::Error::new(Tagged {
        kind,
        error: e.into(),
    })
}

/// Tags `e` as a bug in jforge (exit 1).
pub fn internal(e: impl Into<anyhow::Error>) -> anyhow::Error {
    tag(ErrorKind::Internal, e)
}

/// Tags `e` as an exceeded budget (exit 4).
pub fn budget(e: impl Into<anyhow::Error>) -> anyhow::Error {
    tag(ErrorKind::Budget, e)
}

/// The kind `e` was tagged with (the outermost tag), if any.
pub fn kind_of(e: &anyhow::Error) -> Option<ErrorKind> {
    e.chain()
        .find_map(|c| c.downcast_ref::<Tagged>())
        .map(|t| t.kind)
}

/// The exit status for an error.
pub fn status_of(e: &anyhow::Error) -> ExitStatus {
    match kind_of(e) {
        Some(ErrorKind::Internal) => ExitStatus::Internal,
        Some(ErrorKind::Budget) => ExitStatus::Budget,
        None => ExitStatus::Input,
    }
}

/// The one line printed for a panic (see `main`): where, and the panic's message.
pub fn panic_line(info: &std::panic::PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    let msg = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(no message)".into());
    let at = info
        .location()
        .map(|l| format!(" at {}:{}", l.file(), l.line()))
        .unwrap_or_default();
    format!(
        "internal error (a bug in jforge), please report it with the command line: panicked{at}: {msg}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn untagged_errors_are_input_errors() {
        let e = anyhow::anyhow!("class x not found");
        assert_eq!(status_of(&e), ExitStatus::Input);
        assert_eq!(status_of(&e).code(), 2);
    }

    #[test]
    fn tags_survive_context_and_keep_the_message() {
        let inner: anyhow::Result<()> =
            Err(anyhow::anyhow!("bad frame")).context("decoding a worker result");
        let e = internal(inner.unwrap_err());
        assert_eq!(
            format!("{e:#}"),
            "decoding a worker result: bad frame",
            "tagging changes no message"
        );
        let e = e.context("worker 1");
        assert_eq!(
            format!("{e:#}"),
            "worker 1: decoding a worker result: bad frame"
        );
        assert_eq!(status_of(&e), ExitStatus::Internal);
        let b = budget(anyhow::anyhow!("scope too large for memory")).context("round 3");
        assert_eq!(status_of(&b).code(), 4);
    }

    #[test]
    fn outcomes_and_codes() {
        assert_eq!(Outcome::Clean.status().code(), 0);
        assert_eq!(Outcome::ErrorsFound.status().code(), 3);
        assert_eq!(Outcome::NothingBuilt.status().code(), 2);
        assert_eq!(ExitStatus::Internal.code(), 1);
    }
}
