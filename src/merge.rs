//! `jforge merge DIR...`: one report from the reports of the shards of a run (`--shard I/N`
//! on N machines): the `--stats-json` envelopes and `jforge coverage`'s JSON, from which the
//! JaCoCo XML and the HTML report are written again.
//!
//! Why a merge over JSON values and not over each command's typed report: the envelope is
//! the one format every command writes (`crate::report`), and a rule per kind of value
//! (counts add up, rows are concatenated and sorted, peaks take the maximum, percentages and
//! rates are computed again from the merged counts) merges every command's report, the ones
//! to come included. The same merge combines the per-class runs of `gen --per-class` into
//! one report, so a run split into shards and merged gives the report one run gives: the
//! merge is associative and ignores the order of its inputs (rows are sorted, numbers
//! summed).
//!
//! Why the checks: a merge of shards of different runs (another seed, limit, selection or
//! jforge version), of a shard twice, or with a shard missing would look like a valid report
//! and be wrong; each is refused with the files that disagree.

use crate::coverage::ClassSummary;
use crate::shard::Sharding;
use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// `jforge merge`.
#[derive(Args, Debug, Clone)]
pub struct MergeArgs {
    /// The shards' folders (or files): every `--stats-json` report and `jforge coverage
    /// --json` report found in them (sub-folders included) is merged.
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Write the merged `--stats-json` report here.
    #[arg(long, value_name = "FILE")]
    pub stats_json: Option<PathBuf>,
    /// The merged coverage: --json, --xml (JaCoCo), --html with --sources, as `jforge
    /// coverage` writes them.
    #[command(flatten)]
    pub reports: crate::flags::CoverageReports,
}

/// One report read from a shard's folder.
struct Found {
    path: PathBuf,
    value: Value,
}

/// Runs `jforge merge`.
pub fn run(args: MergeArgs) -> Result<crate::exit::Outcome> {
    if args.stats_json.is_none()
        && args.reports.json.is_none()
        && args.reports.xml.is_none()
        && args.reports.html.is_none()
    {
        bail!(
            "say what to write: --stats-json FILE (the merged report) and/or --json FILE, --xml FILE, --html DIR (the merged coverage)"
        );
    }
    let (reports, coverage) = find_reports(&args.dirs)?;
    if args.stats_json.is_some() {
        merge_stats(&args, &reports)?;
    }
    if args.reports.json.is_some() || args.reports.xml.is_some() || args.reports.html.is_some() {
        merge_coverage(&args, &coverage)?;
    }
    Ok(crate::exit::Outcome::Clean)
}

/// Every `--stats-json` envelope and coverage JSON under the given folders.
fn find_reports(dirs: &[PathBuf]) -> Result<(Vec<Found>, Vec<Found>)> {
    let (mut reports, mut coverage) = (Vec::new(), Vec::new());
    for d in dirs {
        if !d.exists() {
            bail!(
                "{}: no such folder; pass the folders the shards wrote their reports to",
                d.display()
            );
        }
        let mut files = Vec::new();
        json_files(d, &mut files)?;
        let before = reports.len() + coverage.len();
        for path in files {
            let text = std::fs::read_to_string(&path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let Ok(value) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            if value.get("report_version").is_some() && value.get("command").is_some() {
                reports.push(Found { path, value });
            } else if value.get("classes").is_some() && value.get("line_percent").is_some() {
                coverage.push(Found { path, value });
            }
        }
        if reports.len() + coverage.len() == before {
            bail!(
                "{} holds no jforge report: expected a --stats-json report or a `jforge coverage --json` report in it; pass the folders the shards wrote",
                d.display()
            );
        }
    }
    Ok((reports, coverage))
}

/// The `.json` files of `p` (a file, or a folder searched with its sub-folders), sorted.
fn json_files(p: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if p.is_file() {
        out.push(p.to_path_buf());
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
        .with_context(|| format!("cannot read the folder {}", p.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for e in entries {
        if e.is_dir() {
            json_files(&e, out)?;
        } else if e.extension().is_some_and(|x| x == "json") {
            out.push(e);
        }
    }
    Ok(())
}

/// The merged `--stats-json` report of the shards, written and summarized.
fn merge_stats(args: &MergeArgs, reports: &[Found]) -> Result<()> {
    if reports.is_empty() {
        bail!(
            "--stats-json: none of the folders holds a --stats-json report; run each shard with --stats-json FILE"
        );
    }
    for key in ["command", "report_version", "version"] {
        same_everywhere(reports, key, |v| v.get(key).cloned())?;
    }
    check_shards(reports)?;
    let mut merged = combine(reports.iter().map(|f| f.value.clone()).collect());
    if let Some(s) = merged.get_mut("sharding").and_then(Value::as_object_mut) {
        s.insert("shard".into(), Value::Null);
    }
    if let Some(path) = &args.stats_json {
        crate::report::write_merged(path, &merged)?;
    }
    println!("{}", summary_line(&merged, reports.len()));
    Ok(())
}

/// "merged 3 reports: 12 classes, 340 regression tests, 2 error tests".
pub fn summary_line(merged: &Value, parts: usize) -> String {
    let n = |k: &str| merged.get(k).and_then(Value::as_u64).unwrap_or(0);
    let classes = merged
        .get("classes")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    format!(
        "merged {parts} report(s): {classes} classes, {} regression tests, {} error tests",
        n("regression_tests"),
        n("error_tests")
    )
}

/// Refuses reports whose `key` differs, naming two files that disagree.
fn same_everywhere(
    found: &[Found],
    what: &str,
    key: impl Fn(&Value) -> Option<Value>,
) -> Result<()> {
    let first = &found[0];
    let k0 = key(&first.value);
    for f in &found[1..] {
        let k = key(&f.value);
        if k != k0 {
            bail!(
                "{} and {} come from different runs ({what}: {} vs {}): merge the shards of one run, all made with the same jforge, seed and options",
                first.path.display(),
                f.path.display(),
                k0.map_or("none".into(), |v| v.to_string()),
                k.map_or("none".into(), |v| v.to_string())
            );
        }
    }
    Ok(())
}

/// The reports' `sharding`: one run (same options and selection), every shard once, none
/// missing. Reports without `sharding` (runs without `--shard`) merge as they are.
fn check_shards(found: &[Found]) -> Result<()> {
    let sharding = |v: &Value| -> Option<Sharding> {
        v.get("sharding")
            .and_then(|s| serde_json::from_value(s.clone()).ok())
    };
    same_everywhere(found, "options", |v| {
        sharding(v).map(|s| Value::String(s.options))
    })?;
    same_everywhere(found, "classes selected", |v| {
        sharding(v).map(|s| Value::from(s.selected_classes))
    })?;
    let mut seen: BTreeMap<u32, &Path> = BTreeMap::new();
    let mut count = None;
    for f in found {
        let Some(shard) = sharding(&f.value).and_then(|s| s.shard) else {
            continue;
        };
        if count.is_some_and(|c| c != shard.count) {
            bail!(
                "{} is shard {shard} but the other reports are of {} shards: merge the shards of one run",
                f.path.display(),
                count.unwrap_or(0)
            );
        }
        count = Some(shard.count);
        if let Some(other) = seen.insert(shard.index, &f.path) {
            bail!(
                "shard {shard} is given twice ({} and {}): pass each shard's folder once",
                other.display(),
                f.path.display()
            );
        }
    }
    if let Some(n) = count
        && let Some(missing) = (0..n).find(|i| !seen.contains_key(i))
    {
        bail!(
            "shard {missing}/{n} is missing ({} of {n} shards given): pass the folder of every shard",
            seen.len()
        );
    }
    Ok(())
}

/// The merged coverage of the shards (`jforge coverage --json` reports), written as JSON,
/// JaCoCo XML and HTML as asked.
fn merge_coverage(args: &MergeArgs, found: &[Found]) -> Result<()> {
    if found.is_empty() {
        bail!(
            "--json/--xml/--html: none of the folders holds a `jforge coverage --json` report; run `jforge coverage --shard I/N --json FILE` in each shard"
        );
    }
    check_shards(found)?;
    let mut lists = Vec::new();
    for f in found {
        let classes: Vec<ClassSummary> =
            serde_json::from_value(f.value.get("classes").cloned().unwrap_or(Value::Null))
                .with_context(|| {
                    format!(
                        "{}: not a coverage report of this jforge version",
                        f.path.display()
                    )
                })?;
        lists.push(classes);
    }
    let classes = crate::coverage::report::combine(lists);
    let sharding = found[0]
        .value
        .get("sharding")
        .and_then(|s| serde_json::from_value::<Sharding>(s.clone()).ok())
        .map(|s| Sharding { shard: None, ..s });
    crate::coverage::report::write(&args.reports.files(), &classes, sharding.as_ref(), false)?;
    Ok(())
}

/// Keys whose numbers are peaks (the maximum over the parts), not counts.
const PEAK_KEYS: &[&str] = &["rust_peak_rss_kb"];
/// Keys that name the run, the same in every part (the first is kept).
const SAME_KEYS: &[&str] = &[
    "seed",
    "workers",
    "report_version",
    "version",
    "command",
    "selected_classes",
];
/// Keys whose values only mean something within one run (a time series): dropped.
const PER_RUN_KEYS: &[&str] = &["series"];

/// One part's report (`--stats-json` of a per-class run), with the run's `seed` in place of
/// the part's own, as a shard's report carries it.
pub fn read_part(json: &Path, seed: u64) -> Result<Value> {
    let text = std::fs::read_to_string(json)
        .with_context(|| format!("cannot read the report {}", json.display()))?;
    let mut v: Value = serde_json::from_str(&text)
        .with_context(|| format!("cannot read the report {}", json.display()))?;
    if let Some(m) = v.as_object_mut() {
        m.insert("seed".into(), Value::from(seed));
    }
    Ok(v)
}

/// Completes a merged report with a run's own fields: `defaults` where the parts gave none
/// (a report of no part), `fields` always.
pub fn complete(merged: &mut Value, defaults: Map<String, Value>, fields: Map<String, Value>) {
    let Some(m) = merged.as_object_mut() else {
        return;
    };
    for (k, v) in defaults {
        m.entry(k).or_insert(v);
    }
    m.extend(fields);
}

/// Several reports of one command as one: counts add up, rows are concatenated and sorted,
/// peaks take the maximum, `stop_reason` is the most frequent one (all in `stop_reasons`),
/// and percentages and rates are computed again. Associative and independent of the order
/// of `parts`.
pub fn combine(parts: Vec<Value>) -> Value {
    let mut merged = Value::Null;
    let mut reasons: BTreeMap<String, u64> = BTreeMap::new();
    for mut p in parts {
        count_stop_reasons(&mut p, &mut reasons);
        merged = merge_value("", merged, p);
    }
    let mut merged = match merged {
        Value::Object(m) => m,
        _ => Map::new(),
    };
    if let Some((reason, _)) = reasons
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
    {
        merged.insert("stop_reason".into(), Value::String(reason.clone()));
    }
    merged.insert(
        "stop_reasons".into(),
        serde_json::to_value(&reasons).unwrap_or(Value::Null),
    );
    let mut merged = Value::Object(merged);
    recompute(&mut merged);
    merged
}

/// Moves a part's `stop_reason`/`stop_reasons` into the running count.
fn count_stop_reasons(part: &mut Value, reasons: &mut BTreeMap<String, u64>) {
    let Some(m) = part.as_object_mut() else {
        return;
    };
    let counts = m.remove("stop_reasons");
    let one = m.remove("stop_reason");
    match (counts.as_ref().and_then(Value::as_object), one) {
        (Some(c), _) => {
            for (k, v) in c {
                *reasons.entry(k.clone()).or_default() += v.as_u64().unwrap_or(0);
            }
        }
        (None, Some(Value::String(r))) => *reasons.entry(r).or_default() += 1,
        _ => {}
    }
}

/// Merges two values found under `key` (see [`combine`]).
fn merge_value(key: &str, a: Value, b: Value) -> Value {
    if PER_RUN_KEYS.contains(&key) {
        return Value::Array(Vec::new());
    }
    match (a, b) {
        (Value::Null, x) | (x, Value::Null) => x,
        (Value::Number(x), Value::Number(y)) => merge_numbers(key, &x, &y),
        (Value::Bool(x), Value::Bool(y)) => {
            Value::Bool(if key == "clean" { x && y } else { x || y })
        }
        (Value::Array(mut x), Value::Array(y)) => {
            x.extend(y);
            sort_rows(&mut x);
            Value::Array(x)
        }
        (Value::Object(mut x), Value::Object(y)) => {
            for (k, v) in y {
                let old = x.remove(&k).unwrap_or(Value::Null);
                let m = merge_value(&k, old, v);
                x.insert(k, m);
            }
            Value::Object(x)
        }
        // Text and values of different kinds: the first part's (they name the run).
        (x, _) => x,
    }
}

fn merge_numbers(key: &str, x: &serde_json::Number, y: &serde_json::Number) -> Value {
    if SAME_KEYS.contains(&key) {
        return Value::Number(x.clone());
    }
    let peak = PEAK_KEYS.contains(&key);
    if let (Some(a), Some(b)) = (x.as_u64(), y.as_u64()) {
        return Value::from(if peak { a.max(b) } else { a + b });
    }
    if let (Some(a), Some(b)) = (x.as_i64(), y.as_i64()) {
        return Value::from(if peak { a.max(b) } else { a + b });
    }
    let (a, b) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
    Value::from(if peak { a.max(b) } else { a + b })
}

/// Rows in a fixed order whatever the order of the parts: by their class (or name, or first
/// element), then by their whole text.
fn sort_rows(rows: &mut [Value]) {
    let name = |v: &Value| -> String {
        match v {
            Value::Object(m) => ["class", "name", "operation"]
                .iter()
                .find_map(|k| m.get(*k).and_then(Value::as_str))
                .unwrap_or("")
                .to_string(),
            Value::Array(a) => a.first().map(|f| f.to_string()).unwrap_or_default(),
            other => other.to_string(),
        }
    };
    rows.sort_by_cached_key(|v| (name(v), v.to_string()));
}

/// Percentages and rates from the merged counts, at every level.
fn recompute(v: &mut Value) {
    let Some(m) = v.as_object_mut() else {
        if let Some(a) = v.as_array_mut() {
            a.iter_mut().for_each(recompute);
        }
        return;
    };
    let num = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_f64);
    let pct = |c: f64, t: f64| Value::from(100.0 * crate::coverage::ratio(c as u32, t as u32));
    for (kind, percent) in [("branches", "branch_percent"), ("lines", "line_percent")] {
        if !m.contains_key(percent) {
            continue;
        }
        let counter = m.get(kind).and_then(|c| {
            Some((
                num(c.as_object()?, "covered")?,
                num(c.as_object()?, "total")?,
            ))
        });
        let flat = num(m, &format!("{kind}_covered")).zip(num(m, &format!("{kind}_total")));
        if let Some((c, t)) = counter.or(flat) {
            m.insert(percent.into(), pct(c, t));
        }
        // The written suite's share of the run's totals (gen's `coverage.suite`).
        let total = num(m, &format!("{kind}_total"));
        if let (Some(t), Some(suite)) = (total, m.get_mut("suite").and_then(Value::as_object_mut))
            && let Some(c) = suite
                .get(&format!("{kind}_covered"))
                .and_then(Value::as_f64)
        {
            suite.insert(percent.into(), pct(c, t));
        }
    }
    if let Some(secs) = num(m, "generation_seconds").filter(|s| *s > 0.0) {
        for (rate, count) in [
            ("sequences_per_second", "executed"),
            ("statements_per_second", "statements"),
        ] {
            if let (true, Some(n)) = (m.contains_key(rate), num(m, count)) {
                m.insert(rate.into(), Value::from(n / secs));
            }
        }
    }
    for (k, child) in m.iter_mut() {
        if k != "suite" {
            recompute(child);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn part(class: &str, tests: u64, covered: u64, reason: &str) -> Value {
        json!({
            "command": "gen", "report_version": 2, "version": "1", "stop_reason": reason,
            "seed": 3, "regression_tests": tests, "rust_peak_rss_kb": tests * 10,
            "classes": [{"class": class, "regression_tests": tests}],
            "coverage": {"branches_covered": covered, "branches_total": 10,
                         "branch_percent": 1.0, "series": [[0.5, 1, 1]],
                         "suite": {"branches_covered": covered, "branch_percent": 0.0}},
            "validation": {"clean": true, "budget_cut": false},
        })
    }

    #[test]
    fn counts_add_rows_sort_and_percentages_are_computed_again() {
        let a = part("b.B", 4, 3, "generated-limit");
        let b = part("a.A", 6, 5, "generated-limit");
        let c = part("c.C", 1, 0, "exhausted");
        let m = combine(vec![a.clone(), b.clone(), c.clone()]);
        assert_eq!(m["regression_tests"], 11);
        assert_eq!(m["seed"], 3);
        assert_eq!(m["rust_peak_rss_kb"], 60);
        assert_eq!(m["stop_reason"], "generated-limit");
        assert_eq!(m["stop_reasons"]["exhausted"], 1);
        let classes: Vec<&str> = m["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["class"].as_str().unwrap())
            .collect();
        assert_eq!(classes, ["a.A", "b.B", "c.C"]);
        assert_eq!(m["coverage"]["branches_total"], 30);
        assert_eq!(m["coverage"]["branch_percent"], 100.0 * 8.0 / 30.0);
        assert_eq!(m["coverage"]["suite"]["branch_percent"], 100.0 * 8.0 / 30.0);
        assert_eq!(m["coverage"]["series"], json!([]));
        // The order of the parts and their grouping do not matter.
        let ab = combine(vec![b.clone(), a.clone()]);
        let grouped = combine(vec![c, ab]);
        assert_eq!(grouped, m);
    }
}
