//! The plain settings every command hands the shared layers: what is under test and how the
//! worker JVMs run ([`RunSettings`]), the Maven project ([`ProjectSettings`]), where the written
//! suite goes and how it is checked ([`SuiteSettings`]), the coverage reports
//! ([`ReportFiles`]), the input space of a bounded-exhaustive search ([`DomainInput`]), the
//! solver ([`SolverChoice`]), and the parsers of their values.
//!
//! Why plain structs beside the clap groups of `crate::flags`: a command reads its flags once,
//! at its entry (`<command>/cmd.rs`), into these; `project`, `session`, `strategy`, the
//! generators and the suite stage take them and never a clap struct, so a flag's spelling,
//! default or help text can change without touching the layers below, and those layers can be
//! driven from a test or another command without building a command line.

use std::path::PathBuf;
use std::time::Duration;

/// What is under test and how the worker JVMs run: the same for every generator.
#[derive(Debug, Clone, Default)]
pub struct RunSettings {
    /// Binary names of the classes under test (`--class`, as given).
    pub classes: Vec<String>,
    /// Class path of the code under test (':'-separated folders and jars).
    pub classpath: String,
    /// A JDK home or a java binary; `None`: $JAVA_HOME, then java on PATH.
    pub java: Option<PathBuf>,
    /// Worker JVMs (`None`: the number of cores).
    pub workers: Option<usize>,
    /// Heap of each worker JVM in MiB (`None`: the command's default).
    pub worker_heap: Option<u32>,
    /// Where the JSON report goes.
    pub stats_json: Option<PathBuf>,
    /// No progress bar or progress lines.
    pub quiet: bool,
    /// Only this shard of the selected classes.
    pub shard: Option<crate::shard::Shard>,
}

impl RunSettings {
    /// The workers asked for, else the number of cores.
    pub fn workers_or_cores(&self) -> usize {
        self.workers
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
            .max(1)
    }
}

/// A Maven project instead of a class path (`crate::project`).
#[derive(Debug, Clone, Default)]
pub struct ProjectSettings {
    /// The project's folder (its root for a multi-module build).
    pub dir: PathBuf,
    /// Only these modules (artifactIds); empty: every module.
    pub modules: Vec<String>,
    /// Flags for every Maven call (`MAVEN_ARGS` split into words, then `--maven-arg`).
    pub maven_args: Vec<String>,
}

/// Where a written JUnit suite goes and how it is checked: every command that writes tests.
#[derive(Debug, Clone)]
pub struct SuiteSettings {
    /// Folder of the written sources (`None`: the command's default, or no suite).
    pub output_dir: Option<PathBuf>,
    /// Folder of the error-revealing tests (`None`: next to the output folder).
    pub error_output_dir: Option<PathBuf>,
    /// Error-revealing tests next to the regression tests.
    pub error_tests_in_suite: bool,
    /// JUnit 4 or 5.
    pub junit: u8,
    /// Test methods per written class.
    pub tests_per_file: u64,
    /// Error-revealing tests next to the regression tests, named `...ErrorCases` (which a
    /// build's default includes do not run): set for `--project`.
    pub errors_unrun: bool,
    /// Class path of JUnit for the check (`None`: Debian's /usr/share/java).
    pub junit_classpath: Option<String>,
    /// Do not compile and run the written suite.
    pub no_validate: bool,
    /// The Java release the suite is compiled for in the check (`javac --release N`), the
    /// one the project's build compiles its tests for (`None`: the JDK's own).
    pub test_release: Option<u32>,
    /// A comment written above the marker line of every file (the project's license
    /// header), `/* ... */` lines without the final newline.
    pub header: Option<String>,
}

impl Default for SuiteSettings {
    fn default() -> Self {
        SuiteSettings {
            output_dir: None,
            error_output_dir: None,
            error_tests_in_suite: false,
            junit: 4,
            tests_per_file: 500,
            errors_unrun: false,
            junit_classpath: None,
            no_validate: false,
            test_release: None,
            header: None,
        }
    }
}

/// The report files of `jforge coverage` and `jforge merge` (`--json`, `--xml`, `--html` and
/// the source folders the HTML shows).
#[derive(Debug, Clone, Default)]
pub struct ReportFiles {
    pub xml: Option<PathBuf>,
    pub html: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub sources: Vec<PathBuf>,
}

/// The input space as the command line gives it: each value a flag's text (`None`: not
/// given), read against the `--config` file by `exhaustive::Settings::read`, which flags override.
#[derive(Debug, Clone, Default)]
pub struct DomainInput {
    pub scope: Option<u32>,
    /// `--config`: a properties file with the settings.
    pub config: Option<PathBuf>,
    pub ints: Option<String>,
    pub strings: Option<String>,
    pub longs: Option<String>,
    pub shorts: Option<String>,
    pub doubles: Option<String>,
    pub chars: Option<String>,
    pub booleans: Option<String>,
    pub max_array: Option<u32>,
    pub omit_fields: Option<String>,
    pub methods: Option<String>,
    /// The replaced `--misuse-exceptions` was given (a warning).
    pub misuse_exceptions_given: bool,
    pub error_exceptions: Vec<String>,
    /// A builders file (not `auto`).
    pub builders: Option<PathBuf>,
    /// `--check METHOD`.
    pub check: Option<String>,
}

/// The SMT solver asked for: `z3`, `cvc5` or a path, and the time limit of one query
/// (`concolic::solver::SolverSpec::find` locates it).
#[derive(Debug, Clone)]
pub struct SolverChoice {
    pub solver: String,
    pub timeout: Duration,
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
pub fn parse_duration(s: &str) -> anyhow::Result<Duration> {
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
    Ok(Duration::from_secs_f64(secs))
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
