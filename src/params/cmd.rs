//! `jforge params`: its flags and its [`Strategy`]: class selection as `gen` does it
//! (`--class`, `--package`, `--classpath`), the operations and producer graph of
//! `generate::ops`, the search of [`super::Search`] on the session's pool, the report.

use super::report::{self, ParamsStats};
use super::{Search, Settings};
use crate::emit::output::RunOutput;
use crate::emit::suite::Tool;
use crate::flags::{RunArgs, SuiteArgs, check_common};
use crate::generate::ops::build_ops_with_stubs;
use crate::report::StopReason;
use crate::select;
use crate::session::{Session, WorkerSettings};
use crate::settings::{RunSettings, SuiteSettings, parse_duration};
use crate::strategy::{Finished, Strategy};
use anyhow::{Context, bail};
use clap::Args;
use std::time::{Duration, Instant};

/// `jforge params`. Finds, for every public method of the classes under test, a receiver and
/// arguments for which the call completes (seed 000, HeuriGenJ), and reports the working call
/// or why none was found.
#[derive(Args, Debug, Clone)]
pub struct ParamsArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// `--output-dir DIR`: a smoke suite, one test per method (its working call).
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Every public class of this package on the class path or in the JDK (repeatable;
    /// sub-packages are not included).
    #[arg(long = "package", value_name = "PACKAGE")]
    pub packages: Vec<String>,
    /// Attempts per method at most (the first plan and the exception handlers' proposals).
    #[arg(long, value_name = "N", default_value_t = 16)]
    pub retries: u32,
    /// Stop trying after this long (e.g. 30s, 2m); methods not settled are reported as not
    /// reached.
    #[arg(long, value_name = "DURATION", default_value = "60s")]
    pub time_limit: String,
    /// Write a Maven JMH project here: one benchmark per method with working arguments
    /// (`mvn -q package && java -jar target/benchmarks.jar`).
    #[arg(long, value_name = "DIR")]
    pub jmh: Option<std::path::PathBuf>,
    /// n values of one parameter: 'name(type,...)=from:to:n' (the method's first numeric
    /// parameter; each value is checked, those the call throws for are left out); with
    /// --jmh, a JMH @Param.
    #[arg(long, value_name = "SPEC")]
    pub vary: Option<String>,
    /// Longest a single call may run before the worker is restarted and the method reported
    /// as hanging.
    #[arg(long, value_name = "DURATION", default_value = "3s")]
    pub call_timeout: String,
}

/// A member left out and why.
type Skipped = (String, String);

impl ParamsArgs {
    /// The flags read once into the plain settings of a run, or why they cannot work, before
    /// anything starts.
    pub fn settings(self) -> anyhow::Result<Plan> {
        check_common(self.run.workers, &self.run.classes, &self.packages)?;
        if self.run.classes.is_empty() && self.packages.is_empty() {
            bail!(
                "name the classes whose methods to call with --class NAME or --package PACKAGE\n  e.g. jforge params --class java.util.ArrayList"
            );
        }
        if self.retries == 0 {
            bail!("--retries must be at least 1 (default 16)");
        }
        Ok(Plan {
            time_limit: parse_duration(&self.time_limit).context("--time-limit")?,
            call_timeout: parse_duration(&self.call_timeout).context("--call-timeout")?,
            vary: self
                .vary
                .as_deref()
                .map(super::jmh::parse_vary)
                .transpose()?,
            run: self.run.settings(),
            suite: self.suite.settings(),
            packages: self.packages,
            retries: self.retries,
            jmh: self.jmh,
        })
    }
}

/// A run of `jforge params`, read from its flags.
#[derive(Debug)]
pub struct Plan {
    run: RunSettings,
    suite: SuiteSettings,
    packages: Vec<String>,
    retries: u32,
    time_limit: Duration,
    jmh: Option<std::path::PathBuf>,
    vary: Option<super::jmh::Vary>,
    call_timeout: Duration,
}

/// Runs `jforge params` through the shared pipeline.
pub fn run(args: ParamsArgs) -> anyhow::Result<crate::exit::Outcome> {
    crate::strategy::drive(Params {
        args: args.settings()?,
        output: None,
    })
}

/// `jforge params` behind the [`Strategy`] boundary.
pub struct Params {
    args: Plan,
    /// `--output-dir`, locked in `prepare`.
    output: Option<RunOutput>,
}

impl Strategy for Params {
    const COMMAND: &'static str = "params";
    type Stats = ParamsStats;

    fn run_settings(&self) -> &RunSettings {
        &self.args.run
    }

    fn prepare(&mut self) -> anyhow::Result<()> {
        let a = &self.args;
        if let Some(d) = &a.jmh {
            super::jmh::check_dir(d)?;
        }
        self.output = RunOutput::for_suite(Tool::Params, &a.suite, None, None)?;
        Ok(())
    }

    fn worker_settings(&self) -> anyhow::Result<WorkerSettings> {
        Ok(WorkerSettings {
            call_timeout: self.args.call_timeout,
            heap_mb: self.args.run.worker_heap.unwrap_or(1024),
            ..WorkerSettings::default()
        })
    }

    fn run(self, mut session: Session, started: Instant) -> anyhow::Result<Finished<ParamsStats>> {
        let limit = self.args.time_limit;
        let (classes, mut skipped) = select_classes(&mut session, &self.args)?;
        let ops = build_ops_with_stubs(&session.model, &classes, None, None, true, None, &[]);
        skipped.extend(
            ops.skipped
                .iter()
                // a member with a type nothing makes is still tried (with null for it)
                .filter(|(m, why)| {
                    *why != crate::generate::ops::SkipReason::NoProducer
                        && classes.iter().any(|c| m.starts_with(&format!("{c}.")))
                })
                .map(|(m, why)| (m.clone(), why.text().to_string())),
        );
        // kept until the run ends: the workers read the instrumented classes from its folder
        let _logging = comparison_logging(&mut session, &classes)?;
        let mut pool = session.take_pool()?;
        let mut search = Search::new(&session.model, ops, &classes);
        let settings = Settings {
            retries: self.args.retries,
            deadline: started + limit,
        };
        search_with_progress(
            &mut search,
            &mut pool,
            &settings,
            self.args.run.quiet,
            started,
        )?;
        let cases = super::smoke::confirm(&mut search, &mut pool)?;
        let suite = match self.output {
            Some(mut out) => Some(super::smoke::write(
                &mut out,
                &session,
                &search,
                &classes,
                &cases,
                &self.args.suite,
                self.args.run.quiet,
            )?),
            None => None,
        };
        let benchmark = if self.args.jmh.is_some() || self.args.vary.is_some() {
            Some(super::jmh::write(
                self.args.jmh.as_deref(),
                &mut search,
                &mut pool,
                &session.java.home,
                &session.entries,
                self.args.vary.as_ref(),
            )?)
        } else {
            None
        };
        pool.shutdown();
        let stop_reason = if search.timed_out {
            StopReason::TimeLimit
        } else {
            StopReason::Exhausted
        };
        let mut stats = ParamsStats::of(&search, &skipped, started.elapsed().as_secs_f64());
        stats.suite = suite;
        stats.benchmark = benchmark;
        Ok(Finished {
            stats,
            stop_reason,
            outcome: crate::exit::Outcome::Clean,
        })
    }

    fn print_summary(stats: &ParamsStats, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        report::print_summary(stats, out)
    }

    fn warnings(stats: &ParamsStats) -> Vec<String> {
        let crashed: Vec<&str> = stats
            .per_method
            .iter()
            .filter(|m| {
                m.failure
                    .as_ref()
                    .is_some_and(|f| f.cause.starts_with("crash") || f.cause.starts_with("timeout"))
            })
            .map(|m| m.method.as_str())
            .collect();
        if crashed.is_empty() {
            return Vec::new();
        }
        vec![format!(
            "warning: {} methods crashed or hung a worker JVM and were not retried (e.g. {}): see their lines above",
            crashed.len(),
            crashed[0]
        )]
    }
}

/// Comparison logging (as `gen` has it): the classes under test outside the JDK are
/// instrumented, so that each attempt reports the numbers its method compared its arguments
/// against, which the `value-search` handler tries first. JDK classes are left alone (their
/// numbers are not logged, and patching java.base costs a JVM start option for nothing);
/// without javac (a JRE) there is no logging.
fn comparison_logging(
    session: &mut Session,
    classes: &[String],
) -> anyhow::Result<Option<crate::coverage::Setup>> {
    const JDK: [&str; 5] = ["java.", "javax.", "jdk.", "sun.", "com.sun."];
    let user: Vec<String> = classes
        .iter()
        .filter(|c| !JDK.iter().any(|p| c.starts_with(p)))
        .cloned()
        .collect();
    if session.java.javac.is_none() || user.is_empty() {
        return Ok(None);
    }
    let what = crate::coverage::Instrument {
        coverage: true,
        clock: false,
    };
    let setup = session
        .with_classes(|_, cp, jdk| crate::coverage::Setup::prepare_with(cp, jdk, &user, what))?;
    let mut settings = session.worker_settings().clone();
    settings.classpath_prefix = vec![setup.class_dir.clone()];
    settings
        .extra_jvm_args
        .extend(setup.jvm_args.iter().cloned());
    session.set_worker_settings(settings);
    Ok(Some(setup))
}

/// Runs the search with a bar of methods settled (plain lines in logs).
fn search_with_progress(
    search: &mut Search,
    pool: &mut crate::runner::Pool,
    settings: &Settings,
    quiet: bool,
    started: Instant,
) -> anyhow::Result<()> {
    let total = search.targets.iter().filter(|t| t.under_test).count();
    let bar = progress_bar(quiet, total as u64);
    let mut lines = crate::progress::LogLines::new(quiet);
    search.run(pool, settings, &mut |done| {
        bar.set_position(done as u64);
        lines.tick(started.elapsed(), || {
            format!("{done}/{total} methods settled")
        });
    })?;
    bar.finish_and_clear();
    Ok(())
}

/// A bar of methods settled, hidden when quiet or stderr is no terminal.
fn progress_bar(quiet: bool, total: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let b = indicatif::ProgressBar::new(total);
    b.set_style(
        indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} methods settled",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    b
}

/// `--class`/`--package` resolved and loaded (with the producer graph's classes), and the
/// members reported as skipped (none yet: the operations add theirs).
fn select_classes(
    session: &mut Session,
    args: &Plan,
) -> anyhow::Result<(Vec<String>, Vec<Skipped>)> {
    let asked = select::Asked {
        classes: &args.run.classes,
        packages: &args.packages,
        ..Default::default()
    };
    let jdk_feature = session.java.version;
    let classes = session.with_classes(|model, cp, jdk| {
        let sel = select::find_classes(&asked, cp, jdk, jdk_feature, &mut |n, jdk| {
            Ok(model.load(cp, jdk, n)?.is_some())
        })?;
        let mut classes = Vec::new();
        for c in sel.explicit {
            if !model.get(&c).is_some_and(|ci| ci.is_public()) || !model.is_accessible(&c) {
                bail!("class {c} is not public: jforge params calls the public methods of public classes");
            }
            classes.push(c);
        }
        for c in &sel.discovered {
            // sub-packages are not part of --package here (the seed counts one package)
            let in_package = args.packages.iter().any(|p| {
                c.rsplit_once('.').map(|(pkg, _)| pkg) == Some(p.trim_end_matches(".*").trim_end_matches('.'))
            });
            if !in_package {
                continue;
            }
            // a class that is not public is not in the seed's denominator: left out quietly
            if model.load(cp, jdk, c)?.is_some() && model.is_accessible(c) {
                classes.push(c.clone());
            }
        }
        crate::model::producers::load_closure_up_to(model, cp, jdk, &classes, 3000);
        Ok(classes)
    })?;
    if classes.is_empty() {
        bail!("none of the selected classes is public: nothing to call");
    }
    Ok((classes, Vec::new()))
}
