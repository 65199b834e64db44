//! Command line: `jforge gen ...`. Flag names are a public interface (scripts depend on them).

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "jforge",
    version,
    about = "Automatic unit-test generation for Java",
    after_help = crate::exit::HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Each generator's flags live in its command file (`src/<name>_cmd.rs`); re-exported here.
pub use crate::builders_cmd::BuildersArgs;
pub use crate::exhaustive_cmd::ExhaustiveArgs;
pub use crate::gen_cmd::GenArgs;

#[derive(Subcommand, Debug)]
#[allow(clippy::large_enum_variant)] // parsed once
pub enum Command {
    /// Feedback-directed random generation of regression and error-revealing JUnit tests.
    #[command(after_help = crate::exit::HELP)]
    Gen(GenArgs),
    /// Bounded-exhaustive generation from the API (BEAPI): every distinct structure within a
    /// scope, each with the shortest call sequence that builds it.
    #[command(after_help = crate::exit::HELP)]
    Exhaustive(ExhaustiveArgs),
    /// Run a JUnit 4/5 suite against instrumented classes; report line and branch coverage.
    #[command(after_help = crate::exit::HELP)]
    Coverage(CoverageArgs),
    // ---- jforge builders (flags in src/builders_cmd.rs) ----
    /// Identify a sufficient and minimal set of builder methods (hill climbing or a genetic
    /// algorithm), checked against the whole API at a small scope.
    Builders(crate::builders_cmd::BuildersArgs),
    // ---- end jforge builders ----
    /// Find, for every public method, a receiver and arguments for which the call completes
    /// (HeuriGenJ): the working call, or why none was found.
    #[command(after_help = crate::exit::HELP)]
    Params(crate::params::cmd::ParamsArgs),
    /// Concolic generation with an SMT solver (z3 or cvc5): each method's paths explored by
    /// solving for inputs that take the branches not yet taken.
    #[command(after_help = crate::exit::HELP)]
    Concolic(crate::concolic::cmd::ConcolicArgs),
    /// Combine the reports of the shards of a run (`--shard I/N`): the `--stats-json`
    /// reports and the coverage (JSON, JaCoCo XML, HTML) as one run would have written them.
    Merge(crate::merge::MergeArgs),
}

#[derive(Args, Debug, Clone)]
pub struct CoverageArgs {
    /// Class path of the code under test (':'-separated folders and jars).
    #[arg(long, value_name = "PATH", default_value = "")]
    pub classpath: String,
    /// The tests: a folder of .java sources (compiled first) or of .class files, or a jar
    /// (with --project: default each module's src/test/java).
    #[arg(long, value_name = "DIR|JAR")]
    pub tests: Option<PathBuf>,
    #[command(flatten)]
    pub project: ProjectArgs,
    /// Class to measure, binary name (repeatable; Outer.Inner works too); its nested classes
    /// are measured too.
    #[arg(long = "class", value_name = "NAME")]
    pub classes: Vec<String>,
    /// Measure every class of this package prefix on the class path (repeatable).
    #[arg(long = "package", value_name = "PREFIX")]
    pub packages: Vec<String>,
    #[command(flatten)]
    pub reports: CoverageReports,
    /// Also list every method in the terminal table.
    #[arg(long)]
    pub methods: bool,
    /// JDK to use (a JDK home or a java binary); default $JAVA_HOME, then java on PATH.
    #[arg(long, value_name = "PATH")]
    pub java: Option<PathBuf>,
    /// Class path of the JUnit Platform console launcher (+ JUnit 4 for Vintage); default:
    /// Debian's /usr/share/java.
    #[arg(long, value_name = "PATH")]
    pub junit_classpath: Option<String>,
    /// Only the table, no test-run summary.
    #[arg(long, short)]
    pub quiet: bool,
    /// Measure only shard I of N (counted from 0) of the selected classes, as `gen --shard`
    /// splits them; `jforge merge` combines the shards' reports.
    #[arg(long, value_name = "I/N", value_parser = crate::shard::parse)]
    pub shard: Option<crate::shard::Shard>,
}

/// The coverage reports `jforge coverage` and `jforge merge` write (`coverage::report::write`).
#[derive(Args, Debug, Clone, Default)]
pub struct CoverageReports {
    /// Write a JaCoCo-compatible XML report here.
    #[arg(long, value_name = "FILE")]
    pub xml: Option<PathBuf>,
    /// Write a browsable HTML report into this folder.
    #[arg(long, value_name = "DIR")]
    pub html: Option<PathBuf>,
    /// Write a JSON report here.
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Source folder (package layout) of the measured classes, for the HTML report (repeatable).
    #[arg(long = "sources", value_name = "DIR")]
    pub sources: Vec<PathBuf>,
}

/// `--project` decides where tests go and which JUnit they use: the flags that say so
/// otherwise are refused with it.
pub(crate) fn check_project_suite(project: &ProjectArgs, suite: &SuiteArgs) -> anyhow::Result<()> {
    if project.project.is_none() {
        return Ok(());
    }
    let given = [
        (suite.output_dir.is_some(), "--output-dir"),
        (suite.error_output_dir.is_some(), "--error-output-dir"),
        (suite.junit != 4, "--junit"),
    ];
    if let Some((_, flag)) = given.iter().find(|(g, _)| *g) {
        anyhow::bail!(
            "{flag} cannot be used with --project: the tests go into each module's src/test/java with the JUnit the module declares"
        );
    }
    Ok(())
}

/// Flag values clap cannot refuse by type alone; each message names the flag.
pub(crate) fn check_common(
    workers: Option<usize>,
    classes: &[String],
    packages: &[String],
) -> anyhow::Result<()> {
    if workers == Some(0) {
        anyhow::bail!("--workers must be at least 1 (default: the number of cores)");
    }
    if classes.iter().any(|c| c.trim().is_empty()) {
        anyhow::bail!("--class needs a class name, e.g. --class com.acme.Circle");
    }
    if packages.iter().any(|p| {
        p.trim()
            .trim_end_matches(".*")
            .trim_end_matches('.')
            .is_empty()
    }) {
        anyhow::bail!(
            "--package needs a package prefix, e.g. --package com.acme (an empty one would select every class)"
        );
    }
    Ok(())
}

impl CoverageArgs {
    /// Refuses flag values that cannot work, before anything starts.
    pub fn check(&self) -> anyhow::Result<()> {
        check_common(None, &self.classes, &self.packages)
    }
}

/// A regular expression given to `what` (a flag, or `file:line`), with one line of error:
/// the regex crate's own message spans three lines and starts its last with "error:".
pub fn parse_regex(what: &str, re: &str) -> anyhow::Result<regex::Regex> {
    regex::Regex::new(re).map_err(|e| {
        let text = e.to_string();
        let why = text
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim()
            .trim_start_matches("error: ");
        anyhow::anyhow!("{what} '{re}' is not a valid regular expression: {why}")
    })
}

/// Parse `30s`, `2m`, `1h`, `500ms`, or plain seconds.
pub fn parse_duration(s: &str) -> anyhow::Result<std::time::Duration> {
    let s = s.trim();
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(i) => (&s[..i], &s[i..]),
        None => (s, "s"),
    };
    let n: f64 = num.parse().map_err(|_| {
        anyhow::anyhow!("cannot read duration '{s}': write e.g. 30s, 2m, 1h or 500ms")
    })?;
    let secs = match unit {
        "ms" => n / 1000.0,
        "s" | "" => n,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        _ => anyhow::bail!("cannot read duration '{s}': unit must be ms, s, m or h"),
    };
    if !(secs.is_finite() && secs > 0.0) {
        anyhow::bail!("duration '{s}' must be positive");
    }
    Ok(std::time::Duration::from_secs_f64(secs))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn durations() {
        assert_eq!(parse_duration("30s").unwrap().as_secs(), 30);
        assert_eq!(parse_duration("2m").unwrap().as_secs(), 120);
        assert_eq!(parse_duration("1h").unwrap().as_secs(), 3600);
        assert_eq!(parse_duration("45").unwrap().as_secs(), 45);
        assert_eq!(parse_duration("500ms").unwrap().as_millis(), 500);
        assert!(
            parse_duration("2x")
                .unwrap_err()
                .to_string()
                .contains("unit")
        );
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("abc").is_err());
    }
    #[test]
    fn regex_errors_are_one_line() {
        let e = parse_regex("--include-methods", "put(").unwrap_err();
        assert_eq!(
            e.to_string(),
            "--include-methods 'put(' is not a valid regular expression: unclosed group"
        );
        assert!(parse_regex("--methods", "a.*").is_ok());
    }
}

/// What is under test and how the worker JVMs run: one definition for every generator
/// (`gen`, `exhaustive`, `builders`, and the ones to come), so a flag means the same
/// everywhere and a new generator gets them by flattening this struct.
#[derive(Args, Debug, Clone, Default)]
pub struct RunArgs {
    /// Class under test, binary name (repeatable): java.util.TreeMap, com.acme.Outer$Inner
    /// (com.acme.Outer.Inner works too).
    #[arg(long = "class", value_name = "NAME")]
    pub classes: Vec<String>,
    /// Class path of the code under test (':'-separated folders and jars).
    #[arg(long, value_name = "PATH", default_value = "")]
    pub classpath: String,
    /// JDK to use (a JDK home or a java binary); default $JAVA_HOME, then java on PATH.
    #[arg(long, value_name = "PATH")]
    pub java: Option<PathBuf>,
    /// Worker JVMs, at least 1 (default: number of cores).
    #[arg(long, value_name = "N")]
    pub workers: Option<usize>,
    /// Heap of each worker JVM in MiB (default 1024; exhaustive: a third of the RAM shared by
    /// the workers, 1-8 GiB each, as the structures kept live for reuse are held there).
    #[arg(long, value_name = "MIB")]
    pub worker_heap: Option<u32>,
    /// Write a JSON report here (docs/reports.md).
    #[arg(long, value_name = "FILE")]
    pub stats_json: Option<PathBuf>,
    /// Hide the progress bar and progress lines.
    #[arg(long, short)]
    pub quiet: bool,
    /// Test only shard I of N (counted from 0) of the selected classes: a class's shard
    /// depends on its name alone; `jforge merge` combines the shards' reports
    /// (docs/shards.md). gen then generates each class on its own (`--per-class`).
    #[arg(long, value_name = "I/N", value_parser = crate::shard::parse)]
    pub shard: Option<crate::shard::Shard>,
}

impl RunArgs {
    /// `--workers`, else the number of cores.
    pub fn workers_or_cores(&self) -> usize {
        self.workers
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
            .max(1)
    }
}

/// A Maven project instead of a class path (`src/project.rs`): Maven gives each module's
/// classes, test class path, test folder and JUnit version.
#[derive(Args, Debug, Clone, Default)]
pub struct ProjectArgs {
    /// A Maven project's folder (its root for a multi-module build): compiled first by Maven,
    /// every module tested with the class path its own build uses, tests written into each
    /// module's src/test/java with the JUnit it declares.
    /// (Conflicts with `--classpath` here; the suite flags, which not every command has,
    /// are refused by [`check_project_suite`].)
    #[arg(long, value_name = "DIR", conflicts_with = "classpath")]
    pub project: Option<PathBuf>,
    /// Only this module of --project (its artifactId; repeatable).
    #[arg(long = "module", value_name = "NAME", requires = "project")]
    pub modules: Vec<String>,
}

/// Where the written JUnit suite goes and how it is checked: every command that writes tests.
#[derive(Args, Debug, Clone, Default)]
pub struct SuiteArgs {
    /// Folder for the written JUnit sources (gen: default jforge-tests; exhaustive: a suite
    /// is written only when this is given).
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// Folder for the error-revealing tests, which fail on purpose (default: `jforge-error-tests`
    /// next to --output-dir, where a build does not run them).
    #[arg(long, value_name = "DIR", conflicts_with = "error_tests_in_suite")]
    pub error_output_dir: Option<PathBuf>,
    /// Write the error-revealing tests next to the regression tests (a build then runs them and
    /// fails).
    #[arg(long)]
    pub error_tests_in_suite: bool,
    /// JUnit version of the written tests: 4 or 5.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(4..=5))]
    pub junit: u8,
    /// Test methods per written class.
    #[arg(long, default_value_t = 500, value_parser = clap::value_parser!(u64).range(1..))]
    pub tests_per_file: u64,
    /// Error-revealing tests next to the regression tests but named `...ErrorCases`, which a
    /// build's default includes do not run (set by `--project`, not a flag).
    #[arg(skip)]
    pub errors_unrun: bool,
    #[command(flatten)]
    pub checking: CheckArgs,
}

/// The input space of the bounded-exhaustive search, shared by `exhaustive` and `builders`
/// (whose fitness is that search): literal domains, omitted fields, the API considered, and
/// the search's memory. Each can also come from `exhaustive --config`.
#[derive(Args, Debug, Clone, Default)]
pub struct DomainArgs {
    /// int/Integer domain A:B inclusive (default 0:scope-1).
    #[arg(long, value_name = "A:B")]
    pub ints: Option<String>,
    /// String domain (default a,b,...: scope letters).
    #[arg(long, value_name = "a,b,c")]
    pub strings: Option<String>,
    /// long/Long domain A:B (default: the int domain).
    #[arg(long, value_name = "A:B")]
    pub longs: Option<String>,
    /// short/Short and byte/Byte domain A:B (default: the int domain).
    #[arg(long, value_name = "A:B")]
    pub shorts: Option<String>,
    /// double/Double and float/Float values, comma-separated (default: the int domain).
    #[arg(long, value_name = "x,y")]
    pub doubles: Option<String>,
    /// char/Character values as a string, one char each (default: a, b, ... scope letters).
    #[arg(long, value_name = "CHARS")]
    pub chars: Option<String>,
    /// boolean/Boolean values, comma-separated (default false,true).
    #[arg(long, value_name = "false,true")]
    pub booleans: Option<String>,
    /// Longest array in a structure (longer ones are out of scope).
    #[arg(long, value_name = "N")]
    pub max_array: Option<u32>,
    /// Fields left out of the canonical form (regex on the name or Class.name), e.g. modCount
    /// (builders: default modCount, since a counter of calls makes every call build a new
    /// structure; '' keeps every field).
    #[arg(long, value_name = "REGEX")]
    pub omit_fields: Option<String>,
    /// Only members whose signature matches, constructors included (e.g.
    /// 'ds\.AvlTree(\(\)|\.add\()' for `ds.AvlTree()` and `ds.AvlTree.add(int)`).
    #[arg(long, value_name = "REGEX")]
    pub methods: Option<String>,
    /// Replaced by gen's classification (`--error-exceptions`): accepted so that scripts keep
    /// running, ignored with a warning.
    #[arg(long, value_name = "CLASSES", value_delimiter = ',', hide = true)]
    pub misuse_exceptions: Vec<String>,
    #[command(flatten)]
    pub contracts: ContractArgs,
    /// Memory the search may use for kept sequences, in MiB (default: half the machine's RAM).
    #[arg(long, value_name = "MIB")]
    pub max_memory: Option<u64>,
    /// Sequences per batch sent to the workers.
    #[arg(long, default_value_t = 2000)]
    pub batch: usize,
}

/// How the written suite is checked: one definition for every command that writes tests.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct CheckArgs {
    /// Class path of JUnit for checking the written tests (default: Debian's /usr/share/java).
    #[arg(long, value_name = "PATH", env = "JFORGE_JUNIT_CLASSPATH")]
    pub junit_classpath: Option<String>,
    /// Do not compile and run the written suite.
    #[arg(long)]
    pub no_validate: bool,
}

/// What counts as a bug, for every generator (`crate::contracts`): an exception thrown for an
/// invalid argument or state is expected behaviour; a NullPointerException without a null
/// input, an AssertionError, a broken object contract and these classes are errors.
#[derive(Args, Debug, Clone, Default)]
pub struct ContractArgs {
    /// Exception classes (binary names) that reveal errors when a call throws them
    /// (comma-separated, repeatable), besides NullPointerException without a null input and
    /// AssertionError.
    #[arg(long, value_name = "CLASSES", value_delimiter = ',')]
    pub error_exceptions: Vec<String>,
}
