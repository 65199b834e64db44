//! What a `gen` command line asks for, once its flags are read: one run on a class path, one
//! run per class (`--per-class`, `--shard`), or one per module of a Maven project
//! (`--project`).

use super::GenSettings;
use crate::exit::Outcome;
use crate::settings::ProjectSettings;

pub(super) fn run(args: GenSettings) -> anyhow::Result<Outcome> {
    if let Some(project) = args.project.clone() {
        return run_project(args, &project);
    }
    run_one(args)
}

/// One `gen` run on a class path: per class with `--per-class` or `--shard`
/// (`super::per_class`), else all classes in one generator.
fn run_one(args: GenSettings) -> anyhow::Result<Outcome> {
    if args.per_class || args.run.shard.is_some() {
        return super::per_class::run(args);
    }
    super::run::drive(args)
}

/// `gen --project DIR`: one run per module (each with the whole `--time-limit`), on the
/// class path its build uses, into its `src/test/java`, with the JUnit it declares; error
/// tests next to them as `...ErrorCases`, which `mvn test` skips (the summary prints the
/// command that runs them). `--class`/`--package` narrow each module's classes; a module
/// without any of them is skipped.
fn run_project(args: GenSettings, project: &ProjectSettings) -> anyhow::Result<Outcome> {
    let dir = project.dir.as_path();
    let modules = crate::project::plan(project, args.run.java.as_deref())?;
    let selects =
        !args.run.classes.is_empty() || !args.packages.is_empty() || args.classlist.is_some();
    // The project's own tests, compiled as its build compiles them, run first in each module
    // so that only tests adding to them are written (issue 33). A build whose tests do not
    // compile still gets tests: all the run covers, with a warning that says why.
    let own_tests = !args.ignore_own_tests
        && match crate::project::compile_tests(dir, args.run.java.as_deref(), &project.maven_args) {
            Ok(()) => true,
            Err(e) => {
                eprintln!(
                    "warning: the project's own tests did not compile, so the tests written cannot be chosen to add to them: {e:#}"
                );
                false
            }
        };
    let (mut outcome, mut ran) = (Outcome::Clean, 0);
    for m in &modules {
        let classes = crate::project::classes_of(m)?;
        let wanted = |c: &String| {
            args.run
                .classes
                .iter()
                .any(|n| crate::select::normalize(n) == *c)
                || args
                    .packages
                    .iter()
                    .any(|p| c.starts_with(p.trim_end_matches(".*")))
        };
        if classes.is_empty()
            || (selects && args.classlist.is_none() && !classes.iter().any(wanted))
        {
            eprintln!("note: module {}: no classes to test, skipped", m.name);
            continue;
        }
        eprintln!(
            "module {} ({} classes, JUnit {})",
            m.name,
            classes.len(),
            m.junit.unwrap_or(4)
        );
        let mut a = args.clone();
        a.project = None;
        a.run.classpath = m.classpath();
        if !selects {
            a.jars = vec![m.classes.clone()];
        }
        if selects {
            a.run
                .classes
                .retain(|n| classes.contains(&crate::select::normalize(n)));
            a.packages.retain(|p| {
                classes
                    .iter()
                    .any(|c| c.starts_with(p.trim_end_matches(".*")))
            });
        }
        crate::project::suite_into(m, &mut a.suite)?;
        if own_tests && m.test_classes.is_dir() {
            let leave_out = crate::project::jforge_test_classes(m);
            match crate::coverage::cmd::OwnSuite::of(m, leave_out) {
                Ok(own) => a.own_suite = Some(own),
                Err(e) => eprintln!(
                    "warning: module {}: its own tests cannot be run ({e:#}); writing tests for all the run covers",
                    m.name
                ),
            }
        }
        if modules.len() > 1 {
            a.run.stats_json = args
                .run
                .stats_json
                .as_ref()
                .map(|p| crate::project::per_module(p, &m.name));
        }
        let o = run_one(a)?;
        if o == Outcome::ErrorsFound {
            outcome = o;
        }
        ran += 1;
    }
    if ran == 0 {
        anyhow::bail!(
            "no module of {} has the classes named by --class/--package",
            dir.display()
        );
    }
    if outcome == Outcome::ErrorsFound {
        println!(
            "error-revealing tests are in src/test/java as *ErrorCases, which `mvn test` does not run; run them with:\n  {}",
            crate::project::errors_command(dir)
        );
    }
    Ok(outcome)
}
