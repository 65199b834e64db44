//! The boundary between a generator and the pipeline every command shares.
//!
//! A generator (`gen`: random, Randoop; `exhaustive`: BEAPI; `builders`: builder
//! identification; the ones to come) implements [`Strategy`]; [`drive`] runs it:
//!
//! ```text
//! prepare (flags, output folders locked)      Strategy::prepare     before any JDK or JVM
//! session (JDK, class path, model, pool)       crate::session        shared, up front
//! the generator's work                         Strategy::run         selection, operations,
//!                                                                    search; to write tests it
//!                                                                    calls the shared suite
//!                                                                    stage (crate::suite)
//! report: --stats-json envelope, summary,      crate::report         shared, behind
//! warnings, exit status                        crate::exit
//! ```
//!
//! Why this shape (and not a driver that also calls the suite stage): a generator's search
//! state borrows the session's model and operations, and its report needs that state after
//! the check (which tests survived, per class). A trait whose one `run` owns the session keeps
//! those borrows inside one function without self-referential types; the suite stage is a
//! library every `run` calls the same way (`suite::observe`, `suite::check::write_and_check`,
//! `emit::output::RunOutput::install`).
//!
//! Everything around `run` is the driver's and the same for all: Ctrl-C handling (no JVM and
//! no half-written file left), how the session is opened from the shared settings, the typed and
//! versioned JSON report, the order of summary and warnings, the exit status.

use crate::exit::Outcome;
use crate::model::Model;
use crate::model::classpath::{ClassPath, JdkClasses};
use crate::report::{Envelope, StopReason};
use crate::session::{Session, WorkerSettings};
use crate::settings::RunSettings;
use anyhow::Result;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// What a generator's run ends with.
pub struct Finished<S> {
    /// The generator's own figures: the body of the `--stats-json` report.
    pub stats: S,
    pub stop_reason: StopReason,
    /// Clean, or error-revealing tests written / failures found (exit 3).
    pub outcome: Outcome,
}

/// One generator behind the shared pipeline (see the module documentation).
pub trait Strategy: Sized {
    /// The subcommand; `command` in the JSON report.
    const COMMAND: &'static str;
    /// The generator's figures, flattened into the JSON report.
    type Stats: Serialize;

    /// What is under test and how the workers run: class path, JDK, workers, report file,
    /// quiet.
    fn run_settings(&self) -> &RunSettings;

    /// Checks the flags and locks the output folders, before any JDK is looked for or JVM
    /// started: bad input fails fast and loses nothing.
    fn prepare(&mut self) -> Result<()>;

    /// Jars given with `--jar`, added to the class path (gen).
    fn jars(&self) -> &[PathBuf] {
        &[]
    }

    /// How the session's worker JVMs start (heap, call timeout, JVM options).
    fn worker_settings(&self) -> Result<WorkerSettings>;

    /// The generator's work on an open session: selection, operations, search, and the tests
    /// through the shared suite stage. `started` is when the command started (time limits
    /// count from there).
    fn run(self, session: Session, started: Instant) -> Result<Finished<Self::Stats>>;

    /// The summary on stdout, after the report is written.
    fn print_summary(stats: &Self::Stats, out: &mut dyn std::io::Write) -> std::io::Result<()>;

    /// Warnings for stderr after the summary, one line per cause.
    fn warnings(_stats: &Self::Stats) -> Vec<String> {
        Vec::new()
    }
}

/// Runs a strategy from start to exit status: the one pipeline of every generator.
pub fn drive<S: Strategy>(strategy: S) -> Result<Outcome> {
    crate::interrupt::install()?;
    let result = drive_steps(strategy);
    crate::interrupt::settle(result)
}

fn drive_steps<S: Strategy>(mut strategy: S) -> Result<Outcome> {
    let started = Instant::now();
    strategy.prepare()?;
    let run = strategy.run_settings().clone();
    let mut session = Session::open(
        run.java.as_deref(),
        &run.classpath,
        strategy.jars(),
        run.workers,
        strategy.worker_settings()?,
    )?;
    session.shard = run.shard;
    let finished = strategy.run(session, started)?;
    if let Some(path) = &run.stats_json {
        Envelope::new(S::COMMAND, finished.stop_reason, &finished.stats).write(path)?;
    }
    S::print_summary(&finished.stats, &mut std::io::stdout().lock())?;
    for w in S::warnings(&finished.stats) {
        eprintln!("{w}");
    }
    Ok(finished.outcome)
}

/// Looks at the classes before any generator runs (`gen --per-class` selects the classes
/// once, then drives one run per class): [`Session::look`] with the run's JDK, class path
/// and workers.
pub fn look<R>(
    run: &RunSettings,
    jars: &[PathBuf],
    f: impl FnOnce(&mut Model, &ClassPath, &mut dyn JdkClasses, u32) -> Result<R>,
) -> Result<R> {
    Session::look(run.java.as_deref(), &run.classpath, jars, run.workers, f)
}
