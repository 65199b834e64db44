//! `gen --per-class` and `gen --shard I/N`: every selected class generated on its own, so that
//! a class's tests depend on the class, `--seed`, the limits and the selection only, never on
//! which other classes share the run. That is what lets N shards on N machines add up, through
//! `jforge merge`, to the run one machine makes over all the classes.
//!
//! How: the classes are selected once (as `gen` selects them) and split by `--shard`
//! (`crate::shard`); then one session generates each with a generator of its own
//! ([`session::PerClass`]; what keeps a class independent is there), and one check runs all
//! their tests. The report is a `gen` report with the run's `sharding` and skipped classes
//! added, so `jforge merge` combines shards into the report of one `--per-class` run. With
//! `--concolic` each class still runs the whole `gen` pipeline alone ([`whole_runs`]), its
//! report merged by `crate::merge::combine`, the same merge `jforge merge` does.

mod session;

use super::GenSettings;
use super::classes::Selected;
use crate::exit::Outcome;
use crate::shard::Sharding;
use crate::shard::{class_seed, share};
use anyhow::{Context, Result};
use serde_json::{Map, Value};
use std::time::Duration;

/// Runs `gen` on every class of this shard (all classes without `--shard`), each on its own,
/// and writes the report. The classes are selected once up front (no worker starts unless
/// the JDK has no jmods) to shard them; then one session generates them all
/// ([`session::PerClass`]), or with `--concolic` (whose helper's traced workers are per
/// run) one whole run per class ([`whole_runs`]).
pub(super) fn run(args: GenSettings) -> Result<Outcome> {
    let sel = crate::strategy::look(&args.run, &args.jars, |model, cp, jdk, feature| {
        super::classes::select_in(model, cp, jdk, feature, &args)
    })?;
    let mine = match args.run.shard {
        Some(s) => s.select(&sel.classes),
        None => sel.classes.clone(),
    };
    let sharding = Sharding {
        shard: args.run.shard,
        selected_classes: sel.classes.len(),
        options: args.options_key.clone(),
    };
    if mine.is_empty()
        && let Some(s) = args.run.shard
    {
        eprintln!(
            "note: shard {s} holds none of the {} selected classes: nothing to generate",
            sel.classes.len()
        );
    }
    if args.solver.is_some() || mine.is_empty() {
        return whole_runs(args, &sel, &mine, &sharding);
    }
    let (defaults, fields) = envelope(&args, &sel, &sharding);
    let tmp = crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-per-class"))
        .context("creating a temporary folder")?;
    let json = tmp.path().join("report.json");
    let (asked, seed) = (args.run.stats_json.clone(), args.seed);
    let mut one = args;
    one.run.stats_json = Some(json.clone());
    let outcome = crate::strategy::drive(session::PerClass {
        args: one,
        mine,
        prepared: None,
    })?;
    if let Some(p) = &asked {
        let mut report = crate::merge::read_part(&json, seed)?;
        crate::merge::complete(&mut report, defaults, fields);
        crate::report::write_merged(p, &report)?;
    }
    Ok(outcome)
}

/// `gen --per-class` as one whole `gen` run per class (`--concolic`, and a shard without
/// classes), the reports merged. Each class's settings are made before the first runs, its
/// share of what is left of `--time-limit` set when its turn comes.
fn whole_runs(
    args: GenSettings,
    sel: &Selected,
    mine: &[String],
    sharding: &Sharding,
) -> Result<Outcome> {
    let (defaults, fields) = envelope(&args, sel, sharding);
    let tmp = crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-per-class"))
        .context("creating a temporary folder")?;
    let javac = shared_javac(&args, mine.len());
    let plans: Vec<(String, GenSettings)> = mine
        .iter()
        .enumerate()
        .map(|(i, class)| {
            let json = tmp.path().join(format!("{i}.json"));
            let mut one = class_args(&args, class, &json, sel.classes.len());
            one.shared_javac = javac.clone();
            (class.clone(), one)
        })
        .collect();
    let mut outcome = Outcome::Clean;
    let mut parts = Vec::new();
    let deadline = args.time_limit.map(|t| std::time::Instant::now() + t);
    for (i, (class, mut one)) in plans.into_iter().enumerate() {
        if !args.run.quiet {
            eprintln!("class {} of {}: {class}", i + 1, mine.len());
        }
        // What is left of --time-limit, shared by the classes left: a class that ends early
        // (or a long finishing) leaves the rest more (or less).
        one.time_limit = deadline.map(|d| {
            let left = d.saturating_duration_since(std::time::Instant::now());
            let t = (left / (mine.len() - i) as u32).max(Duration::from_secs(1));
            Duration::from_millis(t.as_millis() as u64)
        });
        let json = one.run.stats_json.clone();
        match super::run::drive(one) {
            Ok(o) => {
                if o == Outcome::ErrorsFound {
                    outcome = o;
                }
            }
            Err(e) if !sel.explicit.contains(&class) => {
                eprintln!("note: {class} skipped: {e:#}");
                continue;
            }
            Err(e) => return Err(e.context(format!("generating tests of {class}"))),
        }
        if let Some(json) = json {
            parts.push(crate::merge::read_part(&json, args.seed)?);
        }
    }
    let mut merged = crate::merge::combine(parts);
    crate::merge::complete(&mut merged, defaults, fields);
    if let Some(p) = &args.run.stats_json {
        crate::report::write_merged(p, &merged)?;
    }
    println!("{}", crate::merge::summary_line(&merged, mine.len()));
    Ok(outcome)
}

/// One javac for the checks of every class (`JavacServer`): a javac JVM per class cost each
/// class a JVM start and a cold compile; shared, every class after the first compiles warm.
/// None with `--no-validate`, one class, or no javac (each class's check then does as it
/// would alone).
fn shared_javac(
    args: &GenSettings,
    classes: usize,
) -> Option<std::sync::Arc<crate::emit::validate::JavacServer>> {
    if args.suite.no_validate || classes < 2 {
        return None;
    }
    let java = crate::runner::java::find_java(args.run.java.as_deref()).ok()?;
    java.javac.as_ref()?;
    crate::emit::validate::JavacServer::start(&java.java, false)
        .ok()
        .map(std::sync::Arc::new)
}

/// One class's flags: the class alone (jars moved to the class path), its seed and shares of
/// the limits.
fn class_args(
    args: &GenSettings,
    class: &str,
    json: &std::path::Path,
    selected: usize,
) -> GenSettings {
    let mut a = args.clone();
    a.per_class = false;
    a.run.shard = None;
    a.run.classes = vec![class.to_string()];
    a.packages.clear();
    a.classlist = None;
    let mut cp: Vec<String> = Vec::new();
    if !a.run.classpath.is_empty() {
        cp.push(std::mem::take(&mut a.run.classpath));
    }
    cp.extend(a.jars.drain(..).map(|j| j.display().to_string()));
    a.run.classpath = cp.join(":");
    a.seed = class_seed(args.seed, class);
    a.generated_limit = args.generated_limit.map(|n| share(n, selected));
    a.run.stats_json = Some(json.to_path_buf());
    a
}

/// The run's own fields of the merged report: those a report with no part (a shard without
/// classes) lacks, and those of the whole run (the classes selection skipped, `sharding`).
fn envelope(
    args: &GenSettings,
    sel: &Selected,
    sharding: &Sharding,
) -> (Map<String, Value>, Map<String, Value>) {
    let mut defaults = Map::new();
    defaults.insert("command".into(), Value::from("gen"));
    defaults.insert(
        "report_version".into(),
        Value::from(crate::report::REPORT_VERSION),
    );
    defaults.insert("version".into(), Value::from(env!("CARGO_PKG_VERSION")));
    defaults.insert("seed".into(), Value::from(args.seed));
    defaults.insert("classes".into(), Value::Array(Vec::new()));
    // A class not tested belongs to a shard by its name too, so the shards' lists add up.
    let skipped: Vec<_> = sel
        .skipped
        .iter()
        .filter(|(c, _)| sharding.shard.is_none_or(|s| s.contains(c)))
        .collect();
    let mut fields = Map::new();
    fields.insert(
        "skipped_classes".into(),
        serde_json::to_value(&skipped).unwrap_or_default(),
    );
    fields.insert(
        "sharding".into(),
        serde_json::to_value(sharding).unwrap_or_default(),
    );
    (defaults, fields)
}
