//! `jforge gen`: the whole run, from the command line to checked JUnit files and a summary.

use crate::cli::{GenArgs, parse_duration};
use crate::emit::output::RunOutput;
use crate::emit::suite::Tool;
use crate::emit::validate::CoverageRun;
use crate::emit::{EmitConfig, TestCase};
use crate::generate::finish::{ErrorTest, FinishStats, error_tests, regression_tests};
use crate::generate::literals::LiteralPool;
use crate::generate::ops::{OpSet, SkipReason, add_view_ops, build_ops, helper_classes};
use crate::generate::random::{GenConfig, Generator, Progress};
use crate::report::{Phases, Report, SuiteCoverage};
use crate::select;
use crate::sequence::Stmt;
use crate::session::{Session, WorkerSettings};
use crate::suite::check::{CheckSettings, write_and_check};
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use regex::Regex;
use std::collections::HashSet;
use std::time::{Duration, Instant};

fn method_filter(re: Option<&str>, flag: &str) -> anyhow::Result<Option<Regex>> {
    re.map(|r| crate::cli::parse_regex(flag, r)).transpose()
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

/// Runs `jforge gen`; the outcome says whether error-revealing tests were written (exit 3).
/// An interrupted run (Ctrl-C, SIGTERM) exits with status 130 from the signal handler, see
/// `crate::interrupt`.
pub fn run(args: GenArgs) -> anyhow::Result<crate::exit::Outcome> {
    crate::interrupt::install()?;
    crate::interrupt::settle(generate_and_write(args))
}

fn generate_and_write(args: GenArgs) -> anyhow::Result<crate::exit::Outcome> {
    let started = Instant::now();
    args.check()?;
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
    // Locked for the whole run, written through a staging folder (see emit::output).
    let mut out = RunOutput::open(
        Tool::Gen,
        EmitConfig {
            out_dir: args.output_dir(),
            junit: args.suite.junit,
            package: args.test_package.clone(),
            tests_per_file: args.suite.tests_per_file as usize,
        },
        args.suite.error_output_dir.as_deref(),
        args.suite.error_tests_in_suite,
    )?;
    let mut session = Session::open(
        args.run.java.as_deref(),
        &args.run.classpath,
        &args.jars,
        args.run.workers,
        WorkerSettings {
            call_timeout,
            heap_mb: args.run.worker_heap.unwrap_or(1024),
            ..WorkerSettings::default()
        },
    )?;
    select::check_class_versions(
        &args.run.classes,
        args.classlist.as_deref(),
        &args.packages,
        &args.jars,
        &session.cp,
        session.java.version,
    )?;

    // ---- selection and model
    let (classes, skipped_classes, explicit) = session.with_classes(|model, cp, jdk| {
        let sel = select::resolve(
            &args.run.classes,
            args.classlist.as_deref(),
            &args.packages,
            &args.jars,
            cp,
            jdk,
        )?;
        let mut classes = Vec::new();
        let mut skipped = Vec::new();
        let mut explicit = HashSet::new();
        for asked in &sel.explicit {
            // `Outer.Inner` names `Outer$Inner` when it is no class itself
            let found = select::find_class(asked, &mut |n| Ok(model.load(cp, jdk, n)?.is_some()))?;
            let Some(c) = found else {
                return Err(select::unknown_class_error(asked, cp, jdk));
            };
            let Some(ci) = model.get(&c) else {
                return Err(select::unknown_class_error(asked, cp, jdk));
            };
            let c = &c;
            if matches!(ci.nesting, crate::model::Nesting::Local) || !ci.is_public() {
                bail!(
                    "class {c} is not public: jforge tests public classes through their public API"
                );
            }
            if !model.is_accessible(c) {
                bail!("class {c} is nested in a class that is not public, so tests cannot name it");
            }
            classes.push(c.clone());
            explicit.insert(c.clone());
        }
        for c in &sel.discovered {
            let found = model.load(cp, jdk, c)?.is_some();
            if found && model.is_accessible(c) {
                classes.push(c.clone());
            } else if found {
                skipped.push((c.clone(), SkipReason::ClassNotPublic));
            } else {
                skipped.push((c.clone(), SkipReason::ClassNotFound));
            }
        }
        for h in helper_classes(model, &classes) {
            // Helper classes only supply arguments; one that cannot be read is simply unused.
            let _ = model.load(cp, jdk, &h);
        }
        Ok((classes, skipped, explicit))
    })?;
    if classes.is_empty() {
        bail!("none of the selected classes is public: nothing to test");
    }
    let mut ops = build_ops(&session.model, &classes, include.as_ref(), exclude.as_ref());
    if let Some(f) = &args.builders {
        crate::builders::restrict_ops(&mut ops, f)?;
    }
    for c in &classes {
        // Callable means: something can be called without first having an instance, or
        // another operation produces one.
        let ty = ops.instantiations.get(c);
        let has = ops.primary.iter().any(|&o| {
            let op = ops.table.get(o);
            ops.owner_class[o as usize].as_deref() == Some(c) && !op.has_receiver()
                || ty.is_some_and(|t| {
                    op.ret
                        .as_ref()
                        .is_some_and(|r| session.model.is_subtype(r, t))
                })
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
        if let Some(ci) = session.model.get(c) {
            for l in &ci.literals {
                literals.add_literal(l);
            }
        }
    }

    // ---- coverage: restart the workers on instrumented copies of the classes under test
    let mut use_coverage = !args.no_coverage && (args.coverage || COVERAGE_BY_DEFAULT);
    if use_coverage && session.java.javac.is_none() {
        if args.coverage {
            bail!(
                "--coverage needs a JDK with javac, and {} has none: point --java at a JDK",
                session.java.home.display()
            );
        }
        // Coverage is on by default; on a JRE the run goes on without it.
        eprintln!(
            "warning: {} is a JRE (no javac): running without coverage, and the written tests \
             cannot be checked; point --java at a JDK for both",
            session.java.home.display()
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
        let javac = session
            .java
            .javac
            .clone()
            .context("internal error: coverage without javac")?;
        let guidance = !args.no_guidance;
        let setup = session.with_classes(|model, cp, jdk| {
            let setup = crate::coverage::Setup::prepare(&javac, cp, jdk, &classes)?;
            if guidance {
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
                    let _ = model.load(cp, jdk, n);
                }
                add_view_ops(
                    &mut ops,
                    model,
                    &nested,
                    include.as_ref(),
                    exclude.as_ref(),
                    2,
                );
            }
            Ok(setup)
        })?;
        // The workers run the instrumented copies.
        let mut settings = session.worker_settings().clone();
        settings.classpath_prefix = vec![setup.class_dir.clone()];
        settings.extra_jvm_args = setup.jvm_args.clone();
        session.set_worker_settings(settings);
        cov_setup = Some(setup);
    }
    let mut pool = session.take_pool()?;
    let model = &session.model;
    let java = &session.java;
    let entries = &session.entries;

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
    let mut generator = Generator::new(model, &ops, literals, cfg);
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
    if !args.run.quiet {
        eprintln!(
            "Building tests: re-running {} candidates in two JVMs, minimizing {} errors...",
            generator.final_candidates().len().min(output_limit),
            generator.errors.len()
        );
    }
    let mut fstats = FinishStats::default();
    let regression = regression_tests(
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
    let errors = error_tests(&generator, &mut pool, &mut fstats, work_deadline)?;
    let finish_time = finish_start.elapsed();
    let check_start = Instant::now();

    let error_cases: Vec<TestCase> = errors.iter().map(|e| e.case.clone()).collect();
    let checked = write_and_check(
        &mut out,
        &ops.table,
        &ops.owner_class,
        &classes,
        &regression,
        &error_cases,
        &CheckSettings {
            javac: java.javac.as_deref(),
            java: &java.java,
            user_cp: entries,
            junit: args.suite.junit,
            junit_classpath: args.suite.checking.junit_classpath.as_deref(),
            skip: args.suite.checking.no_validate,
            quiet: args.run.quiet,
            coverage: cov_setup.as_ref().map(CoverageRun::from_setup),
            deadline,
        },
    )?;
    let regression: Vec<TestCase> = checked
        .regression
        .iter()
        .map(|&i| regression[i].clone())
        .collect();
    let errors: Vec<ErrorTest> = checked.errors.iter().map(|&i| errors[i].clone()).collect();
    let files = checked.files;
    let validation = checked.validation;

    // ---- into place: only now are earlier files replaced
    let installed = out.install(&files)?;
    let files = installed.files;
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
    if let (Some(setup), Some(hits), Some(cov)) = (
        &cov_setup,
        validation.suite_hits.as_ref(),
        report.coverage.as_mut(),
    ) {
        let per_class = crate::coverage::summarize(&setup.maps, hits);
        let (lines, branches, _) = crate::coverage::totals(&per_class);
        let sel = &fstats.selection;
        cov.suite = Some(SuiteCoverage {
            branches_covered: branches.covered,
            lines_covered: lines.covered,
            branch_percent: 100.0 * crate::coverage::ratio(branches.covered, cov.branches_total),
            line_percent: 100.0 * crate::coverage::ratio(lines.covered, cov.lines_total),
            branches_only_in_illegal_sequences: cov
                .branches_covered
                .saturating_sub(sel.legal_branches),
            branches_lost_in_selection: sel.legal_branches.saturating_sub(sel.chosen_branches),
            branches_lost_in_check: sel.chosen_branches as i64 - branches.covered as i64,
            per_class,
        });
    }
    report.phase_seconds = Phases {
        setup: setup_time.as_secs_f64(),
        generation: gen_time.as_secs_f64(),
        finish: finish_time.as_secs_f64(),
        check: check_time.as_secs_f64(),
        finish_budget: finish_budget.map(|b| b.as_secs_f64()),
    };
    report.output = out.summary(
        args.suite.checking.junit_classpath.as_deref(),
        entries,
        &files,
        &installed.replaced,
    );
    if let Some(path) = &args.run.stats_json {
        let text = serde_json::to_string_pretty(&report.json())?;
        std::fs::write(path, text)
            .with_context(|| format!("cannot write --stats-json file {}", path.display()))?;
    }
    report.print_summary(&mut std::io::stdout())?;
    for w in report.warnings() {
        eprintln!("{w}");
    }
    Ok(if errors.is_empty() {
        crate::exit::Outcome::Clean
    } else {
        crate::exit::Outcome::ErrorsFound
    })
}

fn progress_bar(args: &GenArgs, time_limit: Option<Duration>) -> ProgressBar {
    if args.run.quiet {
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
