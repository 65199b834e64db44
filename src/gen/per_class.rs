//! `gen --per-class` and `gen --shard I/N`: every selected class generated on its own, so that
//! a class's tests depend on the class, `--seed` and the limits only, never on which other
//! classes share the run. That is what lets N shards on N machines add up, through
//! `jforge merge`, to the run one machine makes over all the classes.
//!
//! How: the classes are selected once (as `gen` selects them), split by `--shard`
//! (`crate::shard`), and each runs the whole `gen` pipeline (`strategy::drive`) with
//! `--class` itself, the seed `shard::class_seed(seed, class)`, its share of
//! `--generated-limit` over all the selected classes (`shard::share`, the same in every shard)
//! and an equal share of what is left of `--time-limit` when its turn comes. Each class's report is merged into
//! the run's `--stats-json` by `crate::merge::combine`, the same merge `jforge merge` does
//! over shards. Why whole runs and not one generator per class inside one run: the
//! component pool, the test selection (set cover over probes), the finishing and the check
//! all look at the whole run; a class alone in its run is the one definition of "independent
//! of the other classes" that stays true when any of those change. Its price is one worker
//! start and one check per class (ARCHITECTURE.md, "Shards").

use super::GenSettings;
use super::classes::Selected;
use crate::exit::Outcome;
use crate::shard::Sharding;
use crate::shard::{class_seed, share};
use anyhow::{Context, Result};
use serde_json::Value;
use std::time::Duration;

/// Runs `gen` once per class of this shard (all classes without `--shard`) and writes the
/// merged report.
pub(super) fn run(args: GenSettings) -> Result<Outcome> {
    let sel = super::classes::plan_classes(&args)?;
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
    let tmp = crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-per-class"))
        .context("creating a temporary folder")?;
    let mut outcome = Outcome::Clean;
    let mut parts = Vec::new();
    let deadline = args.time_limit.map(|t| std::time::Instant::now() + t);
    for (i, class) in mine.iter().enumerate() {
        if !args.run.quiet {
            eprintln!("class {} of {}: {class}", i + 1, mine.len());
        }
        let json = tmp.path().join(format!("{i}.json"));
        // What is left of --time-limit, shared by the classes left: a class that ends early
        // (or a long finishing) leaves the rest more (or less).
        let time = deadline.map(|d| {
            let left = d.saturating_duration_since(std::time::Instant::now());
            (left / (mine.len() - i) as u32).max(Duration::from_secs(1))
        });
        let one = class_args(&args, class, &json, sel.classes.len(), time);
        match super::run::drive(one) {
            Ok(o) => {
                if o == Outcome::ErrorsFound {
                    outcome = o;
                }
            }
            Err(e) if !sel.explicit.contains(class) => {
                eprintln!("note: {class} skipped: {e:#}");
                continue;
            }
            Err(e) => return Err(e.context(format!("generating tests of {class}"))),
        }
        parts.push(read_part(&json, args.seed)?);
    }
    let mut merged = crate::merge::combine(parts);
    finish_report(&mut merged, &args, &sel, &sharding);
    if let Some(p) = &args.run.stats_json {
        crate::report::write_merged(p, &merged)?;
    }
    println!("{}", crate::merge::summary_line(&merged, mine.len()));
    Ok(outcome)
}

/// One class's flags: the class alone (jars moved to the class path), its seed and shares of
/// the limits.
fn class_args(
    args: &GenSettings,
    class: &str,
    json: &std::path::Path,
    selected: usize,
    time: Option<Duration>,
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
    a.time_limit = time.map(|t| Duration::from_millis(t.as_millis() as u64));
    a.run.stats_json = Some(json.to_path_buf());
    a
}

/// A class's report, with the run's `--seed` in place of the class's own.
fn read_part(json: &std::path::Path, seed: u64) -> Result<Value> {
    let text = std::fs::read_to_string(json)
        .with_context(|| format!("cannot read the report {}", json.display()))?;
    let mut v: Value = serde_json::from_str(&text)
        .with_context(|| format!("cannot read the report {}", json.display()))?;
    if let Some(m) = v.as_object_mut() {
        m.insert("seed".into(), Value::from(seed));
    }
    Ok(v)
}

/// The envelope of a report with no part (a shard without classes) and the run's own
/// fields: the classes selection skipped, `sharding`.
fn finish_report(merged: &mut Value, args: &GenSettings, sel: &Selected, sharding: &Sharding) {
    let Some(m) = merged.as_object_mut() else {
        return;
    };
    m.entry("command").or_insert_with(|| Value::from("gen"));
    m.entry("report_version")
        .or_insert_with(|| Value::from(crate::report::REPORT_VERSION));
    m.entry("version")
        .or_insert_with(|| Value::from(env!("CARGO_PKG_VERSION")));
    m.entry("seed").or_insert_with(|| Value::from(args.seed));
    m.entry("classes")
        .or_insert_with(|| Value::Array(Vec::new()));
    // A class not tested belongs to a shard by its name too, so the shards' lists add up.
    let skipped: Vec<_> = sel
        .skipped
        .iter()
        .filter(|(c, _)| sharding.shard.is_none_or(|s| s.contains(c)))
        .collect();
    m.insert(
        "skipped_classes".into(),
        serde_json::to_value(&skipped).unwrap_or_default(),
    );
    m.insert(
        "sharding".into(),
        serde_json::to_value(sharding).unwrap_or_default(),
    );
}
