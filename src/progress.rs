//! Progress for logs: when stderr is not a terminal (a CI job, `2>log`, a script), the
//! commands' progress bars draw nothing, so a long run looked hung (an `exhaustive` run was
//! interrupted after ten silent minutes). [`LogLines`] writes the bar's message as a plain
//! line at most every [`LogLines::EVERY`], only then.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Plain progress lines on stderr while stderr is no terminal.
pub struct LogLines {
    enabled: bool,
    last: Option<Instant>,
}

impl LogLines {
    /// How often a line is written.
    pub const EVERY: Duration = Duration::from_secs(10);

    /// Lines unless `quiet` or stderr is a terminal (where the bar shows the same).
    pub fn new(quiet: bool) -> LogLines {
        LogLines {
            enabled: !quiet && !std::io::stderr().is_terminal(),
            last: None,
        }
    }

    /// Writes the message `msg` makes (prefixed with the elapsed time) if the last line is
    /// [`Self::EVERY`] old; the message is only made then (ticks come per batch).
    pub fn tick(&mut self, elapsed: Duration, msg: impl FnOnce() -> String) {
        if self.enabled && self.last.is_none_or(|t| t.elapsed() >= Self::EVERY) {
            self.line(elapsed, &msg());
        }
    }

    /// Writes `msg` now (a milestone such as the end of a round).
    pub fn line(&mut self, elapsed: Duration, msg: &str) {
        if self.enabled {
            self.last = Some(Instant::now());
            eprintln!("[{:.0}s] {msg}", elapsed.as_secs_f64());
        }
    }
}
