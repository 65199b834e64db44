//! `jforge gen`'s flags, read once into [`GenSettings`], and what a command line asks for: one
//! run on a class path, one run per class (`--per-class`, `--shard`), or one per module of a
//! Maven project (`--project`).

use super::GenSettings;
use crate::concolic::solver::SolverSpec;
use crate::exit::Outcome;
use crate::flags::{
    ContractArgs, ProjectArgs, RunArgs, SolverArgs, SuiteArgs, check_common, check_project_suite,
};
use crate::settings::{parse_duration, parse_regex};
use anyhow::{Context, bail};
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// `jforge gen`.
#[derive(Args, Debug, Clone)]
pub struct GenArgs {
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub suite: SuiteArgs,
    #[command(flatten)]
    pub project: ProjectArgs,
    /// File with one class name per line (# comments allowed).
    #[arg(long, value_name = "FILE")]
    pub classlist: Option<PathBuf>,
    /// Test every class whose name starts with this package prefix, public or package-private
    /// (its tests are in its package; of the JDK, public ones) (repeatable).
    #[arg(long = "package", value_name = "PREFIX")]
    pub packages: Vec<String>,
    /// Test every class of this jar, public or package-private (repeatable; the jar is added
    /// to the class path).
    #[arg(long = "jar", value_name = "JAR")]
    pub jars: Vec<PathBuf>,
    /// Only methods whose signature matches (e.g. 'java.util.TreeMap.put\(.*').
    #[arg(long, value_name = "REGEX")]
    pub include_methods: Option<String>,
    /// Leave out methods whose signature matches.
    #[arg(long, value_name = "REGEX")]
    pub exclude_methods: Option<String>,
    /// Call only the methods of this builders file (jforge builders --output); observers of
    /// the whole class still give the assertions.
    #[arg(long, value_name = "FILE")]
    pub builders: Option<PathBuf>,
    /// Stop after this long: 30s, 2m, 1h, or plain seconds. Default 60s.
    #[arg(long, value_name = "DURATION")]
    pub time_limit: Option<String>,
    /// Stop after this many generated sequences (deterministic with --seed).
    #[arg(long, value_name = "N")]
    pub generated_limit: Option<u64>,
    /// Random seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Most regression tests to write (default 1000). The tests that keep the run's coverage
    /// are chosen first; when they alone are more than the default, they are all written;
    /// when they are more than a limit you set, the cut is reported with the coverage lost.
    #[arg(long)]
    pub output_limit: Option<usize>,
    #[command(flatten)]
    pub contracts: ContractArgs,
    /// After the tests that keep the run's coverage, fill the suite up to --output-limit with
    /// the most diverse other tests (the default writes only tests that add a distinct
    /// exception or a distinct value on a covered path).
    #[arg(long)]
    pub fill: bool,
    /// Per-call time limit (default 5s).
    #[arg(long, value_name = "DURATION")]
    pub call_timeout: Option<String>,
    /// Package of all generated test classes (default: each class's tests in its own package;
    /// tests of JDK classes such as java.* and javax.* go to package `jforge.tests`).
    #[arg(long, value_name = "PACKAGE")]
    pub test_package: Option<String>,
    /// Favour methods that have fewer successful sequences (adaptive weights).
    #[arg(long)]
    pub adaptive_weights: bool,
    /// Measure branch and line coverage of the classes under test on every sequence and use
    /// it to guide generation (instrumented classes in the workers).
    #[arg(long, overrides_with = "no_coverage")]
    pub coverage: bool,
    /// Turn coverage measurement and guidance off.
    #[arg(long)]
    pub no_coverage: bool,
    /// Measure coverage but do not let it guide generation (for comparisons).
    #[arg(long)]
    pub no_guidance: bool,
    /// With coverage: stop when no new branch was covered for this long (e.g. 10s).
    #[arg(long, value_name = "DURATION")]
    pub stop_on_plateau: Option<String>,
    /// When coverage stops growing, explore the methods with uncovered branches with an SMT
    /// solver (as `jforge concolic` does) and add the inputs it finds to the run.
    #[arg(long)]
    pub concolic: bool,
    #[command(flatten)]
    pub solver: SolverArgs,
    /// Generate each class on its own (its own seed from --seed and its name, its share of
    /// --generated-limit and --time-limit), so that its tests do not depend on the other
    /// classes of the run; implied by --shard, whose shards then add up to this run.
    #[arg(long)]
    pub per_class: bool,
    /// With --project: write tests for everything the run covers, not only for what the
    /// project's own tests miss.
    #[arg(long)]
    pub ignore_own_tests: bool,
}

impl GenArgs {
    /// The flags read once into the plain settings of a run (durations and patterns parsed,
    /// the solver found), or why they cannot work, before anything starts.
    pub fn settings(self) -> anyhow::Result<GenSettings> {
        let options_key = options_key(&self);
        self.check()?;
        let time_limit = match (&self.time_limit, self.generated_limit) {
            (Some(t), _) => Some(parse_duration(t).context("--time-limit")?),
            (None, Some(_)) => None,
            (None, None) => Some(Duration::from_secs(60)),
        };
        let call_timeout = match &self.call_timeout {
            Some(t) => parse_duration(t).context("--call-timeout")?,
            None => Duration::from_secs(5),
        };
        // each pattern read here, before the solver is looked for (`concolic_solver`)
        let include_methods = (self.include_methods.as_deref())
            .map(|r| parse_regex("--include-methods", r))
            .transpose()?;
        let exclude_methods = (self.exclude_methods.as_deref())
            .map(|r| parse_regex("--exclude-methods", r))
            .transpose()?;
        let stop_on_plateau = self
            .stop_on_plateau
            .as_deref()
            .map(parse_duration)
            .transpose()
            .context("--stop-on-plateau")?;
        let solver = concolic_solver(&self)?;
        Ok(GenSettings {
            options_key,
            run: self.run.settings(),
            suite: self.suite.settings(),
            project: self.project.settings()?,
            classlist: self.classlist,
            packages: self.packages,
            jars: self.jars,
            include_methods,
            exclude_methods,
            builders: self.builders,
            time_limit,
            generated_limit: self.generated_limit,
            seed: self.seed,
            output_limit: self.output_limit,
            error_exceptions: self.contracts.error_exceptions,
            fill: self.fill,
            call_timeout,
            test_package: self.test_package,
            adaptive_weights: self.adaptive_weights,
            coverage: self.coverage,
            no_coverage: self.no_coverage,
            no_guidance: self.no_guidance,
            stop_on_plateau,
            solver,
            per_class: self.per_class,
            ignore_own_tests: self.ignore_own_tests,
            own_suite: None,
            shared_javac: None,
        })
    }

    /// Refuses flag values that cannot work.
    fn check(&self) -> anyhow::Result<()> {
        check_common(self.run.workers, &self.run.classes, &self.packages)?;
        if self.ignore_own_tests && self.project.project.is_none() {
            anyhow::bail!(
                "--ignore-own-tests applies only with --project (without it no own tests are run)"
            );
        }
        if self.project.project.is_some() && !self.jars.is_empty() {
            anyhow::bail!(
                "--jar cannot be used with --project: Maven gives each module's class path; select classes with --class or --package"
            );
        }
        check_project_suite(&self.project, &self.suite)?;
        for j in &self.jars {
            if !j.is_file() && !j.is_dir() {
                anyhow::bail!(
                    "--jar {}: {}; pass the path of a jar file (or a folder of classes)",
                    j.display(),
                    if j.exists() {
                        "not a file"
                    } else {
                        "no such file"
                    }
                );
            }
        }
        Ok(())
    }
}

/// The options that decide what a class's run does: two shards with another key are of
/// different runs (`jforge merge` refuses them). Paths of the class path and the output are
/// left out (they differ between machines); the selection and the limits are in.
fn options_key(a: &GenArgs) -> String {
    let jar_names: Vec<String> = a
        .jars
        .iter()
        .filter_map(|j| j.file_name().map(|n| n.to_string_lossy().to_string()))
        .collect();
    format!(
        "gen seed={} generated-limit={:?} time-limit={:?} output-limit={:?} class={:?} package={:?} classlist={:?} jar={:?} include={:?} exclude={:?} builders={:?} fill={} coverage={}/{}/{} adaptive={} junit={} tests-per-file={} test-package={:?} error-exceptions={:?} call-timeout={:?} plateau={:?}",
        a.seed,
        a.generated_limit,
        a.time_limit,
        a.output_limit,
        a.run.classes,
        a.packages,
        a.classlist.as_ref().and_then(|c| c.file_name()),
        jar_names,
        a.include_methods,
        a.exclude_methods,
        a.builders.as_ref().and_then(|b| b.file_name()),
        a.fill,
        a.coverage,
        a.no_coverage,
        a.no_guidance,
        a.adaptive_weights,
        a.suite.junit,
        a.suite.tests_per_file,
        a.test_package,
        a.contracts.error_exceptions,
        a.call_timeout,
        a.stop_on_plateau,
    )
}

/// `--concolic`: the solver (a clear message when none is installed) and what the helper
/// needs of the run (coverage); without `--concolic` nothing needs a solver, and a solver
/// flag is refused.
fn concolic_solver(args: &GenArgs) -> anyhow::Result<Option<SolverSpec>> {
    if !args.concolic {
        // Why an error and not a warning: a solver flag without --concolic would be ignored,
        // and the user who typed it expects the solver to run.
        let given = args.solver.given();
        if !given.is_empty() {
            bail!(
                "{} {} only to gen's concolic helper: add --concolic (or drop {})",
                given.join(" and "),
                if given.len() == 1 { "applies" } else { "apply" },
                if given.len() == 1 { "it" } else { "them" }
            );
        }
        return Ok(None);
    }
    if args.no_coverage {
        bail!(
            "--concolic starts when coverage stops growing, so it needs coverage (drop --no-coverage)"
        );
    }
    SolverSpec::find(&args.solver.choice()?).map(Some)
}

/// Runs `jforge gen` through the shared pipeline (`crate::strategy::drive`); the outcome says
/// whether error-revealing tests were written (exit 3). An interrupted run (Ctrl-C, SIGTERM)
/// exits with status 130 from the signal handler, see `crate::interrupt`.
pub fn run(args: GenArgs) -> anyhow::Result<Outcome> {
    let settings = args.settings()?;
    super::dispatch::run(settings)
}
