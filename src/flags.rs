//! The flag groups every command shares (`--class`, `--classpath`, `--java`, `--workers`,
//! the suite flags, `--project`, the literal domains, the contracts, the solver, the coverage
//! reports): one definition each, so a flag means the same in every command, which gets it by
//! flattening the group into its own `Args`. Each group turns into the plain settings the
//! layers below take (`crate::settings` and the generators' own), and the checks clap cannot
//! make by type alone are here. This module names no command: the commands name it.

use crate::settings::{
    DomainInput, ProjectSettings, ReportFiles, RunSettings, SolverChoice, SuiteSettings,
};
use clap::Args;
use std::path::PathBuf;

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
    /// A flag for every Maven call of --project (repeatable; e.g. --maven-arg=-Drat.skip
    /// --maven-arg=-Pfast), after those of the MAVEN_ARGS environment variable.
    #[arg(
        long = "maven-arg",
        value_name = "ARG",
        requires = "project",
        allow_hyphen_values = true
    )]
    pub maven_args: Vec<String>,
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

impl RunArgs {
    /// The plain settings of these flags.
    pub fn settings(&self) -> RunSettings {
        RunSettings {
            classes: self.classes.clone(),
            classpath: self.classpath.clone(),
            java: self.java.clone(),
            workers: self.workers,
            worker_heap: self.worker_heap,
            stats_json: self.stats_json.clone(),
            quiet: self.quiet,
            shard: self.shard,
        }
    }
}

impl ProjectArgs {
    /// `--project`, its `--module`s and the Maven flags (`MAVEN_ARGS`, then `--maven-arg`),
    /// when a project is given; `MAVEN_ARGS` that no shell could split is an error.
    pub fn settings(&self) -> anyhow::Result<Option<ProjectSettings>> {
        let Some(dir) = &self.project else {
            return Ok(None);
        };
        let mut maven_args = crate::maven::env_args()?;
        maven_args.extend(self.maven_args.iter().cloned());
        Ok(Some(ProjectSettings {
            dir: dir.clone(),
            modules: self.modules.clone(),
            maven_args,
        }))
    }
}

impl SuiteArgs {
    /// The plain settings of these flags.
    pub fn settings(&self) -> SuiteSettings {
        SuiteSettings {
            output_dir: self.output_dir.clone(),
            error_output_dir: self.error_output_dir.clone(),
            error_tests_in_suite: self.error_tests_in_suite,
            junit: self.junit,
            tests_per_file: self.tests_per_file,
            errors_unrun: false,
            junit_classpath: self.checking.junit_classpath.clone(),
            no_validate: self.checking.no_validate,
            test_release: None,
            header: None,
        }
    }
}

impl DomainArgs {
    /// The input space as given (each value still to be read against `--config`, see
    /// `exhaustive::Settings::read`), with the command's scope, config file, builders file
    /// and `--check`.
    pub fn input(
        &self,
        scope: Option<u32>,
        config: Option<PathBuf>,
        builders: Option<PathBuf>,
        check: Option<String>,
    ) -> DomainInput {
        DomainInput {
            scope,
            config,
            ints: self.ints.clone(),
            strings: self.strings.clone(),
            longs: self.longs.clone(),
            shorts: self.shorts.clone(),
            doubles: self.doubles.clone(),
            chars: self.chars.clone(),
            booleans: self.booleans.clone(),
            max_array: self.max_array,
            omit_fields: self.omit_fields.clone(),
            methods: self.methods.clone(),
            misuse_exceptions_given: !self.misuse_exceptions.is_empty(),
            error_exceptions: self.contracts.error_exceptions.clone(),
            builders,
            check,
        }
    }
}

impl CoverageReports {
    /// The report files asked for.
    pub fn files(&self) -> ReportFiles {
        ReportFiles {
            xml: self.xml.clone(),
            html: self.html.clone(),
            json: self.json.clone(),
            sources: self.sources.clone(),
        }
    }
}

/// The SMT solver (`jforge concolic`, `jforge gen --concolic`).
#[derive(Args, Debug, Clone, Default)]
pub struct SolverArgs {
    /// The SMT solver: `z3`, `cvc5` (found on PATH) or the path of a solver executable
    /// [default: z3].
    #[arg(long, value_name = "z3|cvc5|PATH")]
    pub solver: Option<String>,
    /// Time limit of one solver query; past it the alternative is recorded as a time-out
    /// [default: 10s].
    #[arg(long, value_name = "D")]
    pub solver_timeout: Option<String>,
}

impl SolverArgs {
    /// The solver asked for (default z3) and its per-query time limit (default 10 s).
    pub fn choice(&self) -> anyhow::Result<SolverChoice> {
        use anyhow::Context;
        Ok(SolverChoice {
            solver: self.solver.clone().unwrap_or_else(|| "z3".into()),
            timeout: crate::settings::parse_duration(
                self.solver_timeout.as_deref().unwrap_or("10s"),
            )
            .context("--solver-timeout")?,
        })
    }

    /// The solver flags given on the command line (for `gen`, where they need `--concolic`).
    pub fn given(&self) -> Vec<&'static str> {
        let mut out = Vec::new();
        if self.solver.is_some() {
            out.push("--solver");
        }
        if self.solver_timeout.is_some() {
            out.push("--solver-timeout");
        }
        out
    }
}
