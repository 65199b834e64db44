//! `jforge gen`: the whole run, from the command line to checked JUnit files and a summary.

use crate::cli::{GenArgs, parse_duration};
use crate::emit::output::RunOutput;
use crate::emit::suite::Tool;
use crate::emit::validate::{compile_and_run, find_junit};
use crate::emit::{EmitConfig, Ending, TestCase, WrittenFile};
use crate::generate::finish::{ErrorTest, FinishStats, error_tests, regression_tests};
use crate::generate::literals::LiteralPool;
use crate::generate::ops::{OpSet, add_view_ops, build_ops, helper_classes};
use crate::generate::random::{GenConfig, Generator, Progress};
use crate::model::Model;
use crate::model::classpath::{ClassPath, JdkClasses, JmodClasses};
use crate::report::{Report, ValidationSummary};
use crate::runner::java::find_java;
use crate::runner::{Pool, PoolConfig};
use crate::select;
use crate::sequence::Stmt;
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use regex::Regex;
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// JDK classes from the jmods when the JDK has them (fast, no JVM), else from a worker.
enum Jdk<'p> {
    Jmods(JmodClasses),
    Pool(&'p mut Pool),
}

impl JdkClasses for Jdk<'_> {
    fn class_bytes(&mut self, n: &str) -> anyhow::Result<Option<Vec<u8>>> {
        match self {
            Jdk::Jmods(j) => j.class_bytes(n),
            Jdk::Pool(p) => p.class_bytes(n),
        }
    }
    fn list_classes(&mut self, p: &str) -> anyhow::Result<Vec<String>> {
        match self {
            Jdk::Jmods(j) => j.list_classes(p),
            Jdk::Pool(pool) => pool.list_classes(p),
        }
    }
}

fn method_filter(re: Option<&str>, flag: &str) -> anyhow::Result<Option<Regex>> {
    re.map(Regex::new)
        .transpose()
        .with_context(|| format!("{flag} is not a valid regular expression"))
}

/// Whether `gen` measures coverage without `--coverage` (see ARCHITECTURE.md, "Coverage
/// guidance": decided by measured throughput cost).
const COVERAGE_BY_DEFAULT: bool = true;

/// What a finished `jforge gen` run wrote (for the exit status).
#[derive(Clone, Debug, Default)]
pub struct GenOutcome {
    /// Error-revealing tests written (each one fails on purpose).
    pub error_tests_written: usize,
}

pub fn run(args: GenArgs) -> anyhow::Result<()> {
    run_with_outcome(args).map(|_| ())
}

/// `jforge gen`; an interrupted run (Ctrl-C, SIGTERM) exits with status 130 from the signal
/// handler, see `crate::interrupt`.
pub fn run_with_outcome(args: GenArgs) -> anyhow::Result<GenOutcome> {
    crate::interrupt::install()?;
    crate::interrupt::settle(generate_and_write(args))
}

fn generate_and_write(args: GenArgs) -> anyhow::Result<GenOutcome> {
    let started = Instant::now();
    let time_limit = match (&args.time_limit, args.generated_limit) {
        (Some(t), _) => Some(parse_duration(t).context("--time-limit")?),
        (None, Some(_)) => None,
        (None, None) => Some(Duration::from_secs(60)),
    };
    let call_timeout = match &args.call_timeout {
        Some(t) => parse_duration(t).context("--call-timeout")?,
        None => Duration::from_secs(5),
    };
    let include = method_filter(args.include_methods.as_deref(), "--include-methods")?;
    let exclude = method_filter(args.exclude_methods.as_deref(), "--exclude-methods")?;
    // Locked for the whole run, written through a staging folder (see emit::output).
    let mut out = RunOutput::open(
        Tool::Gen,
        EmitConfig {
            out_dir: args.output_dir.clone(),
            junit: args.junit,
            package: args.test_package.clone(),
            tests_per_file: args.tests_per_file as usize,
        },
        args.error_output_dir.as_deref(),
        args.error_tests_in_suite,
    )?;
    let java = find_java(args.java.as_deref())?;

    let mut entries: Vec<PathBuf> = ClassPath::parse(&args.classpath)?.entries().to_vec();
    for j in &args.jars {
        if !entries.contains(j) {
            entries.push(j.clone());
        }
    }
    let cp = ClassPath::new(&entries)?;
    let workers = args
        .workers
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
        .max(1);
    let mut pool = Pool::start(PoolConfig {
        java: java.java.clone(),
        classpath: entries.clone(),
        workers,
        call_timeout,
        heap_mb: args.worker_heap,
        extra_jvm_args: Vec::new(),
    })?;

    // ---- selection and model
    let jmods = JmodClasses::open(&java.home)?;
    let mut model = Model::new();
    let (classes, skipped_classes) = {
        let mut jdk = match jmods {
            Some(j) => Jdk::Jmods(j),
            None => Jdk::Pool(&mut pool),
        };
        let sel = select::resolve(
            &args.classes,
            args.classlist.as_deref(),
            &args.packages,
            &args.jars,
            &cp,
            &mut jdk,
        )?;
        let mut classes = Vec::new();
        let mut skipped = Vec::new();
        for c in &sel.explicit {
            let Some(ci) = model.load(&cp, &mut jdk, c)? else {
                return Err(select::unknown_class_error(c, &cp, &mut jdk));
            };
            if matches!(ci.nesting, crate::model::Nesting::Local) || !ci.is_public() {
                bail!(
                    "class {c} is not public: jforge tests public classes through their public API"
                );
            }
            if !model.is_accessible(c) {
                bail!("class {c} is nested in a class that is not public, so tests cannot name it");
            }
            classes.push(c.clone());
        }
        for c in &sel.discovered {
            let found = model.load(&cp, &mut jdk, c)?.is_some();
            if found && model.is_accessible(c) {
                classes.push(c.clone());
            } else {
                skipped.push(c.clone());
            }
        }
        for h in helper_classes(&model, &classes) {
            // Helper classes only supply arguments; one that cannot be read is simply unused.
            let _ = model.load(&cp, &mut jdk, &h);
        }
        (classes, skipped)
    };
    if classes.is_empty() {
        bail!("none of the selected classes is public: nothing to test");
    }
    let mut ops = build_ops(&model, &classes, include.as_ref(), exclude.as_ref());
    let explicit: HashSet<&String> = args.classes.iter().collect();
    for c in &classes {
        // Callable means: something can be called without first having an instance, or
        // another operation produces one.
        let ty = ops.instantiations.get(c);
        let has = ops.primary.iter().any(|&o| {
            let op = ops.table.get(o);
            ops.owner_class[o as usize].as_deref() == Some(c) && !op.has_receiver()
                || ty.is_some_and(|t| op.ret.as_ref().is_some_and(|r| model.is_subtype(r, t)))
        });
        if !has && explicit.contains(c) {
            bail!(
                "class {c} has no public constructor, method or field jforge can call{}",
                if include.is_some() || exclude.is_some() {
                    " (after --include-methods/--exclude-methods)"
                } else {
                    ""
                }
            );
        }
    }
    if ops.primary.is_empty() {
        bail!("the selected classes have no public members jforge can call");
    }
    let mut literals = LiteralPool::with_defaults();
    for c in &classes {
        if let Some(ci) = model.get(c) {
            for l in &ci.literals {
                literals.add_literal(l);
            }
        }
    }

    // ---- coverage: restart the workers on instrumented copies of the classes under test
    let use_coverage = !args.no_coverage && (args.coverage || COVERAGE_BY_DEFAULT);
    let stop_on_plateau = args
        .stop_on_plateau
        .as_deref()
        .map(parse_duration)
        .transpose()
        .context("--stop-on-plateau")?;
    if stop_on_plateau.is_some() && !use_coverage {
        bail!("--stop-on-plateau needs coverage (drop --no-coverage)");
    }
    let mut cov_setup = None;
    if use_coverage {
        let javac = java
            .javac
            .clone()
            .context("--coverage needs a JDK with javac (point --java at a JDK)")?;
        let mut jdk: Box<dyn JdkClasses> = match JmodClasses::open(&java.home)? {
            Some(j) => Box::new(j),
            None => Box::new(Jdk::Pool(&mut pool)),
        };
        let setup = crate::coverage::Setup::prepare(&javac, &cp, jdk.as_mut(), &classes)?;
        if !args.no_guidance {
            // Guidance reaches the measured nested classes (views, iterators...) through
            // the interfaces they implement (see ops::add_view_ops).
            let nested: Vec<String> = setup
                .maps
                .iter()
                .map(|m| m.class_name.replace('/', "."))
                .filter(|n| !classes.contains(n))
                .collect();
            for n in &nested {
                // a nested class that cannot be read simply gives no views
                let _ = model.load(&cp, jdk.as_mut(), n);
            }
            add_view_ops(
                &mut ops,
                &model,
                &nested,
                include.as_ref(),
                exclude.as_ref(),
                2,
            );
        }
        drop(jdk);
        pool.shutdown();
        let mut cp2 = vec![setup.class_dir.clone()];
        cp2.extend(entries.iter().cloned());
        pool = Pool::start(PoolConfig {
            java: java.java.clone(),
            classpath: cp2,
            workers,
            call_timeout,
            heap_mb: args.worker_heap,
            extra_jvm_args: setup.jvm_args.clone(),
        })?;
        cov_setup = Some(setup);
    }

    // ---- generation
    let failed = pool.register(&ops.table)?;
    let cfg = GenConfig {
        seed: args.seed,
        time_limit,
        generated_limit: args.generated_limit,
        error_exceptions: args
            .error_exceptions
            .iter()
            .map(|s| s.trim().to_string())
            .collect(),
        adaptive: args.adaptive_weights,
        max_candidates: (args.output_limit * 4).max(100),
        stop_on_plateau,
        guidance: !args.no_guidance,
        ..GenConfig::default()
    };
    let mut generator = Generator::new(&model, &ops, literals, cfg);
    if let Some(setup) = &cov_setup {
        let tracker = crate::coverage::Tracker::new(&setup.maps, setup.total_probes);
        generator.enable_coverage(tracker, setup.maps.clone());
    }
    for (op, why) in failed {
        generator.exclude(op, &format!("cannot be loaded: {why}"));
    }
    let bar = progress_bar(&args, time_limit);
    let gen_start = Instant::now();
    let mut tick = |p: &Progress| update_bar(&bar, p, args.generated_limit);
    generator.run(&mut pool, &mut tick)?;
    let gen_time = gen_start.elapsed();
    bar.finish_and_clear();
    let progress = generator.progress.clone();

    // ---- tests
    if !args.quiet {
        eprintln!(
            "Building tests: re-running {} candidates in two JVMs, minimizing {} errors...",
            generator.final_candidates().len().min(args.output_limit),
            generator.errors.len()
        );
    }
    let mut fstats = FinishStats::default();
    let mut regression = regression_tests(&generator, &mut pool, args.output_limit, &mut fstats)?;
    let mut errors = error_tests(&generator, &mut pool, &mut fstats)?;

    let mut files = write(&mut out, &ops, &classes, &regression, &errors)?;
    let mut validation = ValidationSummary::default();
    if files.is_empty() {
        validation.skipped = Some("no tests were generated".into());
        validation.clean = true;
    } else if args.no_validate {
        validation.skipped = Some("--no-validate".into());
    } else {
        match (
            java.javac.as_ref(),
            find_junit(args.junit, args.junit_classpath.as_deref()),
        ) {
            (None, _) => {
                validation.skipped =
                    Some("no javac in the JDK: point --java at a JDK, not a JRE".into())
            }
            (_, Err(e)) => {
                eprintln!("warning: the written tests were not checked: {e:#}");
                validation.skipped = Some(format!("{e:#}"));
            }
            (Some(javac), Ok(junit_cp)) => {
                if !args.quiet {
                    eprintln!("Checking the written tests with javac and JUnit...");
                }
                for round in 0..3 {
                    let v = compile_and_run(
                        javac,
                        &java.java,
                        &entries,
                        &junit_cp,
                        &files,
                        args.junit,
                        Duration::from_secs(600),
                    )?;
                    let (bad_reg, bad_err) = judge(&files, &v, &errors);
                    validation.rounds = round + 1;
                    validation.compile_removed += v.compile_failures.len();
                    validation.failing_removed += bad_reg.len();
                    validation.error_tests_removed += bad_err.len();
                    validation.passed = v.passed.len();
                    if bad_reg.is_empty() && bad_err.is_empty() {
                        validation.clean = true;
                        break;
                    }
                    regression = regression
                        .into_iter()
                        .enumerate()
                        .filter(|(i, _)| !bad_reg.contains(i))
                        .map(|(_, c)| c)
                        .collect();
                    errors = errors
                        .into_iter()
                        .enumerate()
                        .filter(|(i, _)| !bad_err.contains(i))
                        .map(|(_, c)| c)
                        .collect();
                    files = write(&mut out, &ops, &classes, &regression, &errors)?;
                }
            }
        }
    }

    // ---- into place: only now are earlier files replaced
    let installed = out.install(&files)?;
    let files = installed.files;

    // ---- report
    let stats = pool.stats();
    pool.shutdown();
    let mut report = Report::build(
        &args,
        &classes,
        &skipped_classes,
        &ops,
        &generator,
        &progress,
        gen_time,
        &regression,
        &errors,
        &fstats,
        &validation,
        &stats,
        &files,
        started.elapsed(),
    );
    report.output = out.summary(
        args.junit_classpath.as_deref(),
        &entries,
        &files,
        &installed.replaced,
    );
    if let Some(path) = &args.stats_json {
        let text = serde_json::to_string_pretty(&report.json())?;
        std::fs::write(path, text)
            .with_context(|| format!("cannot write --stats-json file {}", path.display()))?;
    }
    report.print_summary(&mut std::io::stdout())?;
    Ok(GenOutcome {
        error_tests_written: errors.len(),
    })
}

fn write(
    out: &mut RunOutput,
    ops: &OpSet,
    classes: &[String],
    regression: &[TestCase],
    errors: &[ErrorTest],
) -> anyhow::Result<Vec<WrittenFile>> {
    let ecases: Vec<TestCase> = errors.iter().map(|e| e.case.clone()).collect();
    out.write(&ops.table, &ops.owner_class, classes, regression, &ecases)
}

/// Which written tests must go: regression tests that did not compile or did not pass, error
/// tests that did not compile or did not fail for their stated reason.
fn judge(
    files: &[WrittenFile],
    v: &crate::emit::validate::Validation,
    errors: &[ErrorTest],
) -> (HashSet<usize>, HashSet<usize>) {
    let mut loc: BTreeMap<(String, String), (bool, usize)> = BTreeMap::new();
    for f in files {
        for t in &f.tests {
            loc.insert(
                (f.class_name.clone(), t.method.clone()),
                (f.error_suite, t.case),
            );
        }
    }
    let mut bad_reg = HashSet::new();
    let mut bad_err = HashSet::new();
    let mut mark = |key: (String, String), ok_if_error: Option<&dyn Fn(usize) -> bool>| {
        if let Some(&(is_err, case)) = loc.get(&key) {
            match (is_err, ok_if_error) {
                (false, _) => {
                    bad_reg.insert(case);
                }
                (true, Some(ok)) if ok(case) => {}
                (true, _) => {
                    bad_err.insert(case);
                }
            }
        }
    };
    for (c, m, _) in &v.compile_failures {
        mark((c.clone(), m.clone()), None);
    }
    for f in &v.test_failures {
        let expected = |case: usize| match errors.get(case).map(|e| &e.case.ending) {
            Some(Ending::ErrorContract { contract, .. }) => f
                .message
                .starts_with(&format!("jforge contract violated: {}", contract.name())),
            Some(Ending::ErrorException { class, .. }) => f.exception_class == *class,
            _ => false,
        };
        mark((f.class_name.clone(), f.method.clone()), Some(&expected));
    }
    // Error tests that passed reveal nothing.
    for (c, m) in &v.passed {
        if let Some(&(true, case)) = loc.get(&(c.clone(), m.clone())) {
            bad_err.insert(case);
        }
    }
    (bad_reg, bad_err)
}

fn progress_bar(args: &GenArgs, time_limit: Option<Duration>) -> ProgressBar {
    if args.quiet {
        return ProgressBar::hidden();
    }
    let len = match (args.generated_limit, time_limit) {
        (Some(n), _) => n,
        (None, Some(t)) => t.as_secs().max(1),
        _ => 0,
    };
    let bar = ProgressBar::new(len);
    let unit = if args.generated_limit.is_some() {
        "{pos}/{len} seq"
    } else {
        "{pos}/{len}s"
    };
    let style =
        ProgressStyle::with_template(&format!("{{elapsed_precise}} [{{bar:30}}] {unit} {{msg}}"))
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ");
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

fn update_bar(bar: &ProgressBar, p: &Progress, count_limit: Option<u64>) {
    let secs = p.elapsed.as_secs_f64().max(1e-6);
    bar.set_position(if count_limit.is_some() {
        p.generated
    } else {
        p.elapsed.as_secs()
    });
    let cov = match p.branches {
        Some((c, t)) => format!(
            " | branches {c}/{t} ({:.1}%)",
            100.0 * crate::coverage::ratio(c, t)
        ),
        None => String::new(),
    };
    bar.set_message(format!(
        "| {:.0} seq/s | {} executed | {} regression | {} error kinds{cov}",
        p.executed as f64 / secs,
        p.executed,
        p.regression,
        p.errors
    ));
}

/// Operation of the last call of a test (what the test is "about").
pub fn last_op(case: &TestCase) -> Option<u32> {
    case.seq.stmts.iter().rev().find_map(|s| match s {
        Stmt::Call { op, .. } => Some(*op),
        _ => None,
    })
}
