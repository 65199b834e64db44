//! `jforge coverage`: runs a JUnit 4/5 suite against instrumented copies of the selected
//! classes and reports line and branch coverage (terminal table, JSON, JaCoCo XML, HTML).
//!
//! How: the classes (and their nested classes) are instrumented into a temporary folder put
//! first on the class path (JDK classes are patched into java.base); test sources are compiled
//! with javac; the JUnit Platform console launcher (Jupiter + Vintage engines, so JUnit 4 and 5
//! suites both run) runs under a tiny launcher whose shutdown hook writes the hit probe ids.

use crate::coverage::{Setup, report, summarize};
use crate::flags::{CoverageReports, ProjectArgs, check_common};
use crate::model::classpath::{ClassPath, JdkClasses, JmodClasses};
use crate::runner::java::find_java;
use crate::settings::{ProjectSettings, ReportFiles};
use anyhow::{Context, Result, bail};
use clap::Args;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const LAUNCHER: &str = include_str!("JforgeCovLauncher.java");

/// `jforge coverage`.
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

impl CoverageArgs {
    /// The flags read, or why they cannot work, before anything starts.
    fn settings(self) -> Result<Measure> {
        check_common(None, &self.classes, &self.packages)?;
        Ok(Measure {
            classpath: self.classpath,
            tests: self.tests,
            project: self.project.settings()?,
            classes: self.classes,
            packages: self.packages,
            reports: self.reports.files(),
            methods: self.methods,
            java: self.java,
            junit_classpath: self.junit_classpath,
            quiet: self.quiet,
            shard: self.shard,
        })
    }
}

/// What `jforge coverage` measures and reports, read from its flags.
#[derive(Debug, Clone)]
struct Measure {
    classpath: String,
    tests: Option<PathBuf>,
    project: Option<ProjectSettings>,
    classes: Vec<String>,
    packages: Vec<String>,
    reports: ReportFiles,
    methods: bool,
    java: Option<PathBuf>,
    junit_classpath: Option<String>,
    quiet: bool,
    shard: Option<crate::shard::Shard>,
}

/// No JDK class source when the JDK has no jmods: only class-path classes can be measured.
struct NoJdk;
impl JdkClasses for NoJdk {
    fn class_bytes(&mut self, _: &str) -> Result<Option<Vec<u8>>> {
        Ok(None)
    }
    fn list_classes(&mut self, _: &str) -> Result<Vec<String>> {
        Ok(vec![])
    }
}

fn files_with_ext(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) -> Result<()> {
    for e in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let p = e?.path();
        if p.is_dir() {
            files_with_ext(&p, ext, out)?;
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
    Ok(())
}

fn junit_classpath(explicit: Option<&str>) -> Result<Vec<PathBuf>> {
    if let Some(cp) = explicit {
        return crate::emit::validate::find_junit(5, Some(cp));
    }
    let mut v = crate::emit::validate::find_junit(5, None)?;
    if !v
        .iter()
        .any(|p| p.to_string_lossy().contains("console-standalone"))
    {
        bail!(
            "jforge coverage runs suites with the JUnit Platform console launcher: install Debian \
             package junit5 (junit-platform-console-standalone.jar) or pass --junit-classpath"
        );
    }
    if let Ok(j4) = crate::emit::validate::find_junit(4, None) {
        v.extend(j4);
    }
    Ok(v)
}

pub fn run(args: CoverageArgs) -> Result<crate::exit::Outcome> {
    let args = args.settings()?;
    crate::interrupt::install()?;
    crate::interrupt::settle(measure(args))
}

fn measure(args: Measure) -> Result<crate::exit::Outcome> {
    if let Some(project) = &args.project {
        return measure_project(&args, project);
    }
    if args.classes.is_empty() && args.packages.is_empty() {
        bail!("say which classes to measure: --class NAME (repeatable) or --package PREFIX");
    }
    let Some(tests) = args.tests.clone() else {
        bail!(
            "say which tests to run: --tests DIR|JAR (or --project DIR for a Maven project's own tests)"
        );
    };
    let (classes, sharding) = measured(&args, Tests::Given(tests))?;
    report::write(&args.reports, &classes, sharding.as_ref(), args.methods)?;
    Ok(crate::exit::Outcome::Clean)
}

/// `coverage --project`: every module holding classes of the selection (all its classes when
/// none is given) measured with its own tests (`--tests` or its src/test/java) on the class
/// path its build uses; one report over all modules.
fn measure_project(args: &Measure, project: &ProjectSettings) -> Result<crate::exit::Outcome> {
    let runs = crate::project::module_runs(
        project,
        args.java.as_deref(),
        &args.classes,
        &args.packages,
        true,
    )?;
    // The build's view (issue 33): without --tests, each module's tests as its build compiles
    // and runs them: `mvn test-compile`, Surefire's includes/excludes, the JUnit launcher of
    // the project's Platform version.
    if args.tests.is_none() {
        crate::project::compile_tests(&project.dir, args.java.as_deref(), &project.maven_args)?;
    }
    let (mut lists, mut sharding) = (Vec::new(), None);
    for r in runs {
        let tests = match &args.tests {
            Some(t) => Tests::Given(t.clone()),
            None if r.module.test_classes.is_dir() => Tests::Own(
                OwnSuite::of(&r.module, Vec::new())
                    .with_context(|| format!("module {}", r.module.name))?,
            ),
            None => {
                eprintln!(
                    "note: module {}: no compiled tests in {}, skipped",
                    r.module.name,
                    r.module.test_classes.display()
                );
                continue;
            }
        };
        if let Tests::Given(t) = &tests
            && !t.exists()
        {
            eprintln!(
                "note: module {}: no tests in {}, skipped",
                r.module.name,
                t.display()
            );
            continue;
        }
        eprintln!("module {} ({} classes)", r.module.name, r.classes.len());
        let mut a = args.clone();
        a.project = None;
        a.classpath = r.module.classpath();
        a.classes = r.classes;
        a.packages.clear();
        let (classes, s) = measured(&a, tests)?;
        lists.push(classes);
        sharding = sharding.or(s);
    }
    let classes = report::combine(lists);
    report::write(&args.reports, &classes, sharding.as_ref(), args.methods)?;
    Ok(crate::exit::Outcome::Clean)
}

/// The tests `coverage` runs.
enum Tests {
    /// `--tests`: a folder of sources or classes, or a jar; every test class in it runs.
    Given(PathBuf),
    /// A project module's own suite, as its build runs it.
    Own(OwnSuite),
}

/// The coverage of the selected classes (this shard's) by `tests`, per class, and the
/// report's `sharding` with `--shard`.
fn measured(
    args: &Measure,
    tests: Tests,
) -> Result<(
    Vec<crate::coverage::ClassSummary>,
    Option<crate::shard::Sharding>,
)> {
    let java = find_java(args.java.as_deref())?;
    let javac = java
        .javac
        .clone()
        .context("no javac in the JDK: point --java at a JDK, not a JRE")?;
    let cp = ClassPath::parse(&args.classpath)?;
    crate::select::check_class_versions(
        &args.classes,
        None,
        &args.packages,
        &[],
        &cp,
        java.version,
    )?;
    let mut jmods: Box<dyn JdkClasses> = match JmodClasses::open(&java.home)? {
        Some(j) => Box::new(j),
        None => Box::new(NoJdk),
    };
    let selected = resolve_classes(args, &cp, jmods.as_mut())?;
    let classes = match args.shard {
        Some(s) => s.select(&selected),
        None => selected.clone(),
    };
    let sharding = args.shard.map(|s| crate::shard::Sharding {
        shard: Some(s),
        selected_classes: selected.len(),
        options: format!("coverage {:?} {:?}", args.classes, args.packages),
    });
    if classes.is_empty() {
        if let Some(s) = args.shard {
            eprintln!(
                "note: shard {s} holds none of the {} selected classes",
                selected.len()
            );
        }
        return Ok((Vec::new(), sharding));
    }
    // After the class-version check (which names the JDK to use), before anything is
    // instrumented or compiled; a shard with no class has no tests either.
    if let Tests::Given(t) = &tests
        && !t.exists()
    {
        bail!("--tests {}: no such file or folder", t.display());
    }
    let setup = Setup::prepare(&cp, jmods.as_mut(), &classes)?;
    let junit = match (&tests, &args.junit_classpath) {
        (Tests::Own(own), None) => own.junit.clone(),
        _ => junit_classpath(args.junit_classpath.as_deref())?,
    };

    let tmp = crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-coverage"))
        .context("creating a temporary folder")?;
    let m = Measurement {
        java: &java.java,
        javac: &javac,
        cp: &cp,
        junit: &junit,
        setup: &setup,
        tmp: tmp.path(),
        filter: match &tests {
            Tests::Own(own) => Some(&own.selection),
            Tests::Given(_) => None,
        },
    };
    let launcher_dir = m.compile_launcher()?;
    let test_root = match &tests {
        Tests::Given(t) => m.test_classes(t)?,
        Tests::Own(own) => own.test_classes.clone(),
    };
    let hit = m.run_tests(&launcher_dir, &test_root, args.quiet)?;
    Ok((summarize(&setup.maps, &hit), sharding))
}

/// The classes named with --class (found on the class path or in the JDK) and the top-level
/// classes of each --package.
fn resolve_classes(
    args: &Measure,
    cp: &ClassPath,
    jmods: &mut dyn JdkClasses,
) -> Result<Vec<String>> {
    let mut classes: Vec<String> = Vec::new();
    for asked in &args.classes {
        let asked = crate::select::normalize(asked);
        let found = crate::select::find_class(&asked, &mut |n| {
            Ok(cp.find(n)?.is_some() || jmods.class_bytes(n)?.is_some())
        })?;
        match found {
            Some(c) => classes.push(c),
            None => {
                return Err(crate::select::unknown_class_error(&asked, cp, jmods));
            }
        }
    }
    for p in &args.packages {
        let found = cp.list_classes(Some(p));
        if found.is_empty() {
            bail!("no class of package {p} on the class path");
        }
        classes.extend(found.into_iter().filter(|c| !c.contains('$')));
    }
    Ok(classes)
}

/// What the steps after set-up share: the JDK, the class paths, the instrumented classes and
/// the run's temporary folder.
struct Measurement<'a> {
    java: &'a Path,
    javac: &'a Path,
    cp: &'a ClassPath,
    junit: &'a [PathBuf],
    setup: &'a Setup,
    tmp: &'a Path,
    /// Which test classes run (`None`: every class found).
    filter: Option<&'a TestSelection>,
}

/// Which test classes of a test root run: regular expressions over binary class names (the
/// build's Surefire includes and excludes, see `crate::project::TestFilter`), and classes
/// left out by name (the files jforge wrote, when a project's own suite is measured before
/// adding to it).
#[derive(Clone, Debug, Default)]
pub struct TestSelection {
    pub includes: Vec<String>,
    pub excludes: Vec<String>,
    pub leave_out: Vec<String>,
}

impl TestSelection {
    /// The console launcher's flags for this selection.
    fn launcher_args(&self) -> Vec<String> {
        let mut a = Vec::new();
        for i in &self.includes {
            a.extend(["--include-classname".to_string(), i.clone()]);
        }
        for e in &self.excludes {
            a.extend(["--exclude-classname".to_string(), e.clone()]);
        }
        for c in &self.leave_out {
            a.extend([
                "--exclude-classname".to_string(),
                format!("^{}$", regex::escape(c)),
            ]);
        }
        a
    }
}

/// A module's own tests as its build runs them: compiled by its build (`mvn test-compile`),
/// Surefire's selection, the JUnit launcher of its Platform version.
#[derive(Clone, Debug)]
pub struct OwnSuite {
    /// `target/test-classes`.
    pub test_classes: PathBuf,
    /// The JUnit jars: the console launcher first.
    pub junit: Vec<PathBuf>,
    pub selection: TestSelection,
}

impl OwnSuite {
    /// The own suite of `m`: its compiled tests, its Surefire selection, its launcher
    /// (`crate::project::Module::console_launcher`; Debian's for JUnit 4) and `leave_out`.
    pub fn of(m: &crate::project::Module, leave_out: Vec<String>) -> Result<OwnSuite> {
        // the project's own JUnit jars are on its class path already: only the launcher
        let junit = match m.console_launcher()? {
            Some(l) => vec![l],
            None => junit_classpath(None)?,
        };
        Ok(OwnSuite {
            test_classes: m.test_classes.clone(),
            junit,
            selection: TestSelection {
                includes: m.test_filter.includes.clone(),
                excludes: m.test_filter.excludes.clone(),
                leave_out,
            },
        })
    }
}

/// What a module's own suite covered of the classes `setup` instrumented.
pub struct OwnRun {
    /// Hit probes (indexed by probe id).
    pub hit: Vec<bool>,
    /// Tests the launcher found.
    pub tests: u64,
}

/// Runs `suite` against the instrumented classes of `setup` (the probe ids of the caller's
/// run) on the class path `cp`.
pub fn run_own_suite(
    java: &Path,
    javac: &Path,
    cp: &ClassPath,
    setup: &Setup,
    suite: &OwnSuite,
) -> Result<OwnRun> {
    if !suite.test_classes.is_dir() {
        bail!(
            "the project's tests are not compiled: no {}",
            suite.test_classes.display()
        );
    }
    let tmp = crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-own-suite"))
        .context("creating a temporary folder")?;
    let m = Measurement {
        java,
        javac,
        cp,
        junit: &suite.junit,
        setup,
        tmp: tmp.path(),
        filter: Some(&suite.selection),
    };
    let launcher_dir = m.compile_launcher()?;
    let (hit, tests) = m.run_counted(&launcher_dir, &suite.test_classes, true)?;
    Ok(OwnRun { hit, tests })
}

impl Measurement<'_> {
    /// Compiles the launcher that writes the hit probes at exit; returns its class folder.
    fn compile_launcher(&self) -> Result<PathBuf> {
        let ldir = self.tmp.join("launcher");
        std::fs::create_dir_all(&ldir)?;
        let lsrc = ldir.join("JforgeCovLauncher.java");
        std::fs::write(&lsrc, LAUNCHER)?;
        javac_run(
            self.javac,
            std::slice::from_ref(&self.setup.runtime_dir),
            &ldir,
            &[lsrc],
        )?;
        Ok(ldir)
    }

    /// The test classes' root: a jar, a class folder, or the classes compiled from a folder
    /// of sources.
    fn test_classes(&self, tests: &Path) -> Result<PathBuf> {
        if !tests.is_dir() {
            return Ok(tests.to_path_buf());
        }
        let mut srcs = Vec::new();
        files_with_ext(tests, "java", &mut srcs)?;
        if srcs.is_empty() {
            return Ok(tests.to_path_buf());
        }
        let out = self.tmp.join("tests");
        std::fs::create_dir_all(&out)?;
        let mut ccp = self.cp.entries().to_vec();
        ccp.extend(self.junit.iter().cloned());
        javac_run(self.javac, &ccp, &out, &srcs).context("compiling the tests")?;
        Ok(out)
    }

    /// Runs the suite under the launcher (JUnit's summary lines on stderr unless `quiet`)
    /// and returns which probes it hit.
    fn run_tests(&self, launcher_dir: &Path, test_root: &Path, quiet: bool) -> Result<Vec<bool>> {
        Ok(self.run_counted(launcher_dir, test_root, quiet)?.0)
    }

    /// [`Self::run_tests`] and the number of tests the launcher found.
    fn run_counted(
        &self,
        launcher_dir: &Path,
        test_root: &Path,
        quiet: bool,
    ) -> Result<(Vec<bool>, u64)> {
        let hits_file = self.tmp.join("hits.txt");
        let o = self.launch(launcher_dir, test_root, &hits_file)?;
        let text = String::from_utf8_lossy(&o.stdout);
        let summary: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("tests successful") || l.contains("tests failed"))
            .collect();
        if !quiet {
            for l in &summary {
                eprintln!(
                    "{}",
                    l.trim_matches(|c: char| c == '[' || c == ']' || c.is_whitespace())
                );
            }
        }
        let Ok(hits) = std::fs::read_to_string(&hits_file) else {
            bail!(
                "the test JVM did not report coverage (exit {}); its output:\n{}\n{}",
                o.status,
                text,
                String::from_utf8_lossy(&o.stderr)
            );
        };
        // Why an error and not a warning: a run in which no test ran measures nothing, and a
        // 0% table with exit 0 reads as a measurement (a launcher of another JUnit Platform
        // version than the tests' finds no test at all).
        if tests_found(&text) == Some(0) || summary.is_empty() {
            bail!(
                "no test ran: the JUnit launcher {} in {}; check that --tests holds compiled tests or their sources and that --junit-classpath has the JUnit Platform version the tests were written for; its output:\n{}\n{}",
                if summary.is_empty() {
                    "printed no summary (it failed)"
                } else {
                    "found no test"
                },
                test_root.display(),
                tail(&text, 20),
                tail(&String::from_utf8_lossy(&o.stderr), 20)
            );
        }
        let mut hit = vec![false; self.setup.total_probes as usize];
        for l in hits.lines() {
            if let Ok(id) = l.trim().parse::<usize>()
                && id < hit.len()
            {
                hit[id] = true;
            }
        }
        Ok((hit, tests_found(&text).unwrap_or(0)))
    }

    /// The test JVM: the JUnit console launcher scanning `test_root`, under the launcher
    /// that writes the hit probes to `hits_file`, the instrumented classes first.
    fn launch(&self, launcher_dir: &Path, test_root: &Path, hits_file: &Path) -> Result<Output> {
        let setup = self.setup;
        let mut run_cp = vec![setup.class_dir.clone(), launcher_dir.to_path_buf()];
        run_cp.extend(self.cp.entries().iter().cloned());
        run_cp.push(test_root.to_path_buf());
        run_cp.extend(self.junit.iter().cloned());
        let run_cp = std::env::join_paths(&run_cp).context("a class path entry contains ':'")?;
        Command::new(self.java)
            .args(&setup.jvm_args)
            .arg("-cp")
            .arg(&run_cp)
            .arg("JforgeCovLauncher")
            .arg(hits_file)
            .arg(setup.total_probes.to_string())
            .args([
                "org.junit.platform.console.ConsoleLauncher",
                "--disable-banner",
                "--details=summary",
                "--disable-ansi-colors",
            ])
            .args(match self.filter {
                Some(f) => f.launcher_args(),
                None => vec!["--include-classname".to_string(), ".*".to_string()],
            })
            .arg("--scan-classpath")
            .arg(test_root)
            .output()
            .with_context(|| format!("running {}", self.java.display()))
    }
}

/// The number of the console launcher's `[ N tests found ]` line, if it printed one.
fn tests_found(out: &str) -> Option<u64> {
    out.lines()
        .find(|l| l.contains("tests found"))
        .and_then(|l| {
            l.trim_matches(|c: char| c == '[' || c == ']' || c.is_whitespace())
                .split_whitespace()
                .next()
                .and_then(|n| n.parse().ok())
        })
}

/// The last `n` lines of a process's output.
fn tail(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

fn javac_run(javac: &Path, cp: &[PathBuf], out: &Path, srcs: &[PathBuf]) -> Result<()> {
    let cp = std::env::join_paths(cp).context("a class path entry contains ':'")?;
    let o = Command::new(javac)
        .args(["-encoding", "UTF-8", "-proc:none", "-nowarn", "-g", "-d"])
        .arg(out)
        .arg("-cp")
        .arg(&cp)
        .args(srcs)
        .output()
        .with_context(|| format!("running {}", javac.display()))?;
    if !o.status.success() {
        bail!(
            "javac failed:\n{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_launchers_test_count_is_read_from_its_summary() {
        let out = "Test run finished after 64 ms\n[         2 containers found      ]\n[         5 tests found           ]\n[         5 tests successful      ]\n";
        assert_eq!(tests_found(out), Some(5));
        assert_eq!(tests_found("[ 0 tests found ]"), Some(0));
        assert_eq!(tests_found("Exception in thread main"), None);
    }
}
