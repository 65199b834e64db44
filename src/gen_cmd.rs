//! `jforge gen`: the whole run, from the command line to checked JUnit files and a summary.

use crate::cli::{GenArgs, parse_duration};
use crate::emit::validate::{compile_and_run, find_junit};
use crate::emit::{EmitConfig, Ending, TestCase, WrittenFile, junit::write_suites};
use crate::generate::finish::{ErrorTest, FinishStats, error_tests, regression_tests};
use crate::generate::literals::LiteralPool;
use crate::generate::ops::{OpSet, add_view_ops, build_ops, helper_classes};
use crate::generate::random::{GenConfig, Generator, Progress};
use crate::model::Model;
use crate::model::classpath::{ClassPath, JdkClasses, JmodClasses};
use crate::report::{Phases, Report, ValidationSummary};
use crate::runner::java::find_java;
use crate::runner::{Pool, PoolConfig};
use crate::select;
use crate::sequence::Stmt;
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use regex::Regex;
use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
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

/// Make sure the output folder can be written before any work is done.
fn check_output_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| {
        format!(
            "cannot create output folder {}: choose another --output-dir",
            dir.display()
        )
    })?;
    let probe = dir.join(".jforge-write-test");
    std::fs::write(&probe, b"").with_context(|| {
        format!(
            "cannot write to output folder {}: choose another --output-dir",
            dir.display()
        )
    })?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

fn default_package(classes: &[String]) -> Option<String> {
    let first = classes.first()?;
    let pkg = first.rsplit_once('.').map(|(p, _)| p.to_string())?;
    let restricted = ["java.", "javax.", "jdk.", "sun.", "com.sun."];
    if restricted.iter().any(|r| format!("{pkg}.").starts_with(r)) {
        Some("jforge.tests".to_string())
    } else {
        Some(pkg)
    }
}

/// Whether `gen` measures coverage without `--coverage` (see ARCHITECTURE.md, "Coverage
/// guidance": decided by measured throughput cost).
const COVERAGE_BY_DEFAULT: bool = true;

/// Regression tests written when `--output-limit` is not given (the tests that keep the
/// run's coverage are written even when they are more).
const DEFAULT_OUTPUT_LIMIT: usize = 1000;

/// Time allowed after generation for building, minimizing and checking the tests:
/// max(20 s, a quarter of the time limit). The whole run takes at most the time limit plus
/// this, whatever the code under test does.
fn finish_budget(limit: Duration) -> Duration {
    (limit / 4).max(Duration::from_secs(20))
}

pub fn run(args: GenArgs) -> anyhow::Result<()> {
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
    let output_limit = args.output_limit.unwrap_or(DEFAULT_OUTPUT_LIMIT);
    let include = method_filter(args.include_methods.as_deref(), "--include-methods")?;
    let exclude = method_filter(args.exclude_methods.as_deref(), "--exclude-methods")?;
    check_output_dir(&args.output_dir)?;
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
    let pool_config = |classpath: Vec<PathBuf>, extra_jvm_args: Vec<String>| PoolConfig {
        java: java.java.clone(),
        classpath,
        workers,
        call_timeout,
        heap_mb: args.worker_heap,
        extra_jvm_args,
    };
    // Workers start only when needed: the model reads JDK classes from the jmods when the
    // JDK has them, and with coverage the workers run instrumented classes, so a pool
    // started first would be thrown away.
    let mut early_pool: Option<Pool> = None;
    let jmods = JmodClasses::open(&java.home)?;
    if jmods.is_none() {
        early_pool = Some(Pool::start(pool_config(entries.clone(), Vec::new()))?);
    }

    // ---- selection and model
    let mut model = Model::new();
    let (classes, skipped_classes) = {
        let mut jdk = match (jmods, early_pool.as_mut()) {
            (Some(j), _) => Jdk::Jmods(j),
            (None, Some(pool)) => Jdk::Pool(pool),
            (None, None) => bail!("internal error: no JDK class source"),
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
    if let Some(f) = &args.builders {
        crate::builders::restrict_ops(&mut ops, f)?;
    }
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
    let mut use_coverage = !args.no_coverage && (args.coverage || COVERAGE_BY_DEFAULT);
    if use_coverage && java.javac.is_none() {
        if args.coverage {
            bail!(
                "--coverage needs a JDK with javac, and {} has none: point --java at a JDK",
                java.home.display()
            );
        }
        // Coverage is on by default; on a JRE the run goes on without it.
        eprintln!(
            "warning: {} is a JRE (no javac): running without coverage, and the written tests \
             cannot be checked; point --java at a JDK for both",
            java.home.display()
        );
        use_coverage = false;
    }
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
            .context("internal error: coverage without javac")?;
        let mut jdk: Box<dyn JdkClasses> =
            match (JmodClasses::open(&java.home)?, early_pool.as_mut()) {
                (Some(j), _) => Box::new(j),
                (None, Some(pool)) => Box::new(Jdk::Pool(pool)),
                (None, None) => bail!("internal error: no JDK class source"),
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
        if let Some(p) = early_pool.take() {
            p.shutdown();
        }
        let mut cp2 = vec![setup.class_dir.clone()];
        cp2.extend(entries.iter().cloned());
        early_pool = Some(Pool::start(pool_config(cp2, setup.jvm_args.clone()))?);
        cov_setup = Some(setup);
    }
    let mut pool = match early_pool {
        Some(p) => p,
        None => Pool::start(pool_config(entries.clone(), Vec::new()))?,
    };

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
        max_candidates: (output_limit * 4).max(100),
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
    let setup_time = started.elapsed();
    // The time limit covers the whole run up to here: generation gets what setup left (at
    // least a second), and the finishing phase its own budget after it.
    if let Some(t) = time_limit {
        generator.cfg.time_limit = Some(t.saturating_sub(setup_time).max(Duration::from_secs(1)));
    }
    let finish_budget = time_limit.map(finish_budget);
    pool.set_stop_at(generator.cfg.time_limit.map(|t| gen_start + t));
    let mut tick = |p: &Progress| update_bar(&bar, p, args.generated_limit);
    generator.run(&mut pool, &mut tick)?;
    let gen_time = gen_start.elapsed();
    let finish_start = Instant::now();
    let deadline = finish_budget.map(|b| finish_start + b);
    // Optional work (replacing dropped tests, minimizing) gets half the finishing budget;
    // the javac/JUnit check the rest.
    let work_deadline = finish_budget.map(|b| finish_start + b / 2);
    pool.set_stop_at(work_deadline);
    bar.finish_and_clear();
    let progress = generator.progress.clone();

    // ---- tests
    if !args.quiet {
        eprintln!(
            "Building tests: re-running {} candidates in two JVMs, minimizing {} errors...",
            generator.final_candidates().len().min(output_limit),
            generator.errors.len()
        );
    }
    let mut fstats = FinishStats::default();
    let mut regression = regression_tests(
        &generator,
        &mut pool,
        output_limit,
        args.output_limit.is_some(),
        &mut fstats,
        work_deadline,
    )?;
    if fstats.selection.left_out > 0 {
        eprintln!(
            "warning: --output-limit {output_limit} cut the tests that keep the run's coverage \
             ({} needed): {} of {} line and branch probes the run covered are left out; \
             raise --output-limit to keep them",
            fstats.selection.cover, fstats.selection.left_out, fstats.selection.probes
        );
    }
    let mut errors = error_tests(&generator, &mut pool, &mut fstats, work_deadline)?;
    let finish_time = finish_start.elapsed();
    let check_start = Instant::now();

    let emit = EmitConfig {
        out_dir: args.output_dir.clone(),
        junit: args.junit,
        package: args
            .test_package
            .clone()
            .or_else(|| default_package(&classes)),
        tests_per_file: args.tests_per_file as usize,
    };
    let mut files = write(&emit, &ops, &regression, &errors)?;
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
                    // The test JVM may go this long without progress; with a time limit, no
                    // longer than the finishing budget has left (at least 5 s).
                    let run_timeout = deadline.map_or(Duration::from_secs(600), |d| {
                        d.saturating_duration_since(Instant::now())
                            .clamp(Duration::from_secs(5), Duration::from_secs(600))
                    });
                    if round > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                        // The failing tests are already removed; the rest passed last round.
                        validation.budget_cut = true;
                        break;
                    }
                    let v = compile_and_run(
                        javac,
                        &java.java,
                        &entries,
                        &junit_cp,
                        &files,
                        args.junit,
                        run_timeout,
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
                    files = write(&emit, &ops, &regression, &errors)?;
                }
            }
        }
    }

    let check_time = check_start.elapsed();

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
    report.phase_seconds = Phases {
        setup: setup_time.as_secs_f64(),
        generation: gen_time.as_secs_f64(),
        finish: finish_time.as_secs_f64(),
        check: check_time.as_secs_f64(),
        finish_budget: finish_budget.map(|b| b.as_secs_f64()),
    };
    if let Some(path) = &args.stats_json {
        let text = serde_json::to_string_pretty(&report.json())?;
        std::fs::write(path, text)
            .with_context(|| format!("cannot write --stats-json file {}", path.display()))?;
    }
    report.print_summary(&mut std::io::stdout())?;
    Ok(())
}

fn write(
    emit: &EmitConfig,
    ops: &OpSet,
    regression: &[TestCase],
    errors: &[ErrorTest],
) -> anyhow::Result<Vec<WrittenFile>> {
    let ecases: Vec<TestCase> = errors.iter().map(|e| e.case.clone()).collect();
    write_suites(emit, &ops.table, regression, &ecases)
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
            Some(Ending::ErrorException { contract, .. }) => f
                .message
                .starts_with(&format!("jforge contract violated: {contract}")),
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

/// The class under test a test is about: the owner of its last call on a class under test
/// (a test ending in a call on a view or helper, `map.keySet().pollFirst()`, is about the
/// class whose call produced the receiver).
pub fn test_owner<'o>(ops: &'o OpSet, case: &TestCase) -> Option<&'o str> {
    case.seq.stmts.iter().rev().find_map(|s| match s {
        Stmt::Call { op, .. } => ops.owner_class.get(*op as usize)?.as_deref(),
        _ => None,
    })
}
