//! End-to-end: `--shard I/N` and `jforge merge`. Three shards run as local processes, their
//! reports and coverage merged, must equal one run over the same classes with the same seed
//! and `--generated-limit` (tests, per-class counts, coverage figures); and `jforge merge`
//! refuses what does not belong together, naming the files.

use crate::support::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// `jforge gen` on the `ds` subjects (three public classes, one nested private class), one
/// worker, seed 1, 600 sequences over all the selected classes.
fn gen_ds(dir: &Path, extra: &[&str]) -> Command {
    let mut c = jforge();
    c.args(["gen", "--quiet", "--workers", "1", "--package", "ds"])
        .args(["--generated-limit", "600", "--seed", "1"])
        .arg("--classpath")
        .arg(subjects())
        .arg("--output-dir")
        .arg(dir.join("tests"))
        .arg("--stats-json")
        .arg(dir.join("stats.json"))
        .args(extra);
    c
}

/// `jforge coverage` of the `ds` classes with the tests in `dir/tests`.
fn coverage_ds(dir: &Path, extra: &[&str]) -> Command {
    let mut c = jforge();
    c.args(["coverage", "--quiet", "--package", "ds"])
        .arg("--classpath")
        .arg(subjects())
        .arg("--tests")
        .arg(dir.join("tests"))
        .arg("--json")
        .arg(dir.join("coverage.json"))
        .args(extra);
    c
}

/// The `.java` files under `dir/tests`, by path relative to it.
fn test_files(dir: &Path) -> BTreeMap<String, String> {
    let root = dir.join("tests");
    java_files(&root)
        .into_iter()
        .map(|f| {
            (
                f.strip_prefix(&root).unwrap().display().to_string(),
                std::fs::read_to_string(&f).unwrap(),
            )
        })
        .collect()
}

fn wait_ok(mut c: Command) -> std::process::Child {
    c.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    c.spawn().expect("jforge starts")
}

/// Waits for the processes, each of which must end with exit 0 or 3.
fn all_done(children: Vec<std::process::Child>) {
    for ch in children {
        let o = ch.wait_with_output().unwrap();
        assert!(
            matches!(o.status.code(), Some(0 | 3)),
            "a shard failed ({}):\n{}\n{}",
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
}

/// The figures of a gen report that do not depend on time or paths.
fn figures(r: &Value) -> Value {
    let cov = &r["coverage"];
    json!({
        "classes": r["classes"],
        "regression_tests": r["regression_tests"],
        "error_tests": r["error_tests"],
        "generated": r["generated"],
        "executed": r["executed"],
        "stop_reason": r["stop_reason"],
        "seed": r["seed"],
        "skipped_classes": r["skipped_classes"],
        "branches": [cov["branches_covered"], cov["branches_total"], cov["branch_percent"]],
        "lines": [cov["lines_covered"], cov["lines_total"], cov["line_percent"]],
        "suite": [cov["suite"]["branches_covered"], cov["suite"]["lines_covered"]],
        "coverage_classes": cov["classes"],
        "validation_passed": r["validation"]["passed"],
    })
}

/// Coverage JSON with its classes by name (a merged report lists them sorted).
fn coverage_figures(c: &Value) -> Value {
    let mut classes = c["classes"].as_array().unwrap().clone();
    classes.sort_by_key(|x| x["name"].as_str().unwrap().to_string());
    json!({"lines": c["lines"], "branches": c["branches"], "methods": c["methods"],
           "line_percent": c["line_percent"], "branch_percent": c["branch_percent"],
           "classes": classes})
}

#[test]
#[ignore = "slow: seven jforge runs"]
fn three_shards_merged_equal_one_run() {
    let d = tempfile::tempdir().unwrap();
    let one = d.path().join("one");
    run_done(&mut gen_ds(&one, &["--per-class"]));
    run_ok(&mut coverage_ds(&one, &[]));

    let shard = |i: usize| d.path().join(format!("shard{i}"));
    all_done(
        (0..3)
            .map(|i| wait_ok(gen_ds(&shard(i), &["--shard", &format!("{i}/3")])))
            .collect(),
    );
    all_done(
        (0..3)
            .map(|i| wait_ok(coverage_ds(&shard(i), &["--shard", &format!("{i}/3")])))
            .collect(),
    );
    let merged = d.path().join("merged");
    let o = run_ok(
        jforge()
            .arg("merge")
            .args((0..3).map(shard))
            .arg("--stats-json")
            .arg(merged.join("stats.json"))
            .arg("--json")
            .arg(merged.join("coverage.json"))
            .arg("--xml")
            .arg(merged.join("coverage.xml")),
    );
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("merged 3 report(s): 3 classes"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );

    // Every class in exactly one shard, and the shards' tests are the run's, byte for byte.
    let rows: Vec<usize> = (0..3)
        .map(|i| {
            read_json(&shard(i).join("stats.json"))["classes"]
                .as_array()
                .unwrap()
                .len()
        })
        .collect();
    assert_eq!(rows.iter().sum::<usize>(), 3, "{rows:?}");
    let mut union = BTreeMap::new();
    for i in 0..3 {
        union.extend(test_files(&shard(i)));
    }
    let single = test_files(&one);
    assert_eq!(
        single.keys().collect::<Vec<_>>(),
        [
            "ds/BinarySearchTreeRegressionTest.java",
            "ds/IntStackRegressionTest.java",
            "ds/LruCacheRegressionTest.java"
        ]
    );
    assert!(union == single, "the shards wrote other tests than one run");

    // The merged report and coverage are the run's.
    let run = read_json(&one.join("stats.json"));
    let m = read_json(&merged.join("stats.json"));
    assert!(run["regression_tests"].as_u64().unwrap() > 10, "{run:#}");
    assert_eq!(figures(&m), figures(&run));
    // one session for the three classes, each class's generation counted by why it stopped
    assert_eq!(
        run["stop_reasons"],
        json!({"generated-limit": 3}),
        "{run:#}"
    );
    assert_eq!(m["stop_reasons"], run["stop_reasons"]);
    assert_eq!(m["sharding"]["shard"], Value::Null);
    assert_eq!(m["sharding"]["selected_classes"], 3);
    let cov_run = read_json(&one.join("coverage.json"));
    let cov_m = read_json(&merged.join("coverage.json"));
    assert!(cov_run["branches"]["covered"].as_u64().unwrap() > 0);
    assert_eq!(coverage_figures(&cov_m), coverage_figures(&cov_run));
    let xml = std::fs::read_to_string(merged.join("coverage.xml")).unwrap();
    let (covered, total) = (
        cov_run["branches"]["covered"].as_u64().unwrap(),
        cov_run["branches"]["total"].as_u64().unwrap(),
    );
    // The report's own counter (two spaces in), after every class's.
    let counter = format!(
        "\n  <counter type=\"BRANCH\" missed=\"{}\" covered=\"{covered}\"/>",
        total - covered
    );
    assert!(xml.contains(&counter), "{xml}");
}

/// A minimal gen report of shard `shard` of 3 with class `class`.
fn report(dir: &Path, shard: u32, seed: u64, class: &str) {
    std::fs::create_dir_all(dir).unwrap();
    let r = json!({
        "command": "gen", "report_version": 2, "version": env!("CARGO_PKG_VERSION"),
        "stop_reason": "generated-limit", "seed": seed, "regression_tests": 2,
        "classes": [{"class": class, "regression_tests": 2}],
        "sharding": {"shard": {"index": shard, "count": 3}, "selected_classes": 3,
                     "options": format!("gen seed={seed}")},
    });
    std::fs::write(dir.join("stats.json"), r.to_string()).unwrap();
}

fn merge_err(dirs: &[&Path]) -> String {
    let out = tempfile::tempdir().unwrap();
    let o = jforge()
        .arg("merge")
        .args(dirs)
        .arg("--stats-json")
        .arg(out.path().join("m.json"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn merge_refuses_shards_of_other_runs_twice_or_missing() {
    let d = tempfile::tempdir().unwrap();
    let p = |n: &str| d.path().join(n);
    report(&p("a"), 0, 1, "x.A");
    report(&p("b"), 1, 1, "x.B");
    report(&p("c"), 2, 1, "x.C");
    report(&p("other"), 2, 2, "x.C");
    report(&p("again"), 1, 1, "x.B");
    std::fs::create_dir_all(p("empty")).unwrap();

    let e = merge_err(&[&p("a"), &p("b"), &p("other")]);
    assert!(e.contains("come from different runs (options"), "{e}");
    assert!(e.contains("other/stats.json"), "{e}");
    let e = merge_err(&[&p("a"), &p("b"), &p("again"), &p("c")]);
    assert!(e.contains("shard 1/3 is given twice"), "{e}");
    let e = merge_err(&[&p("a"), &p("c")]);
    assert!(
        e.contains("shard 1/3 is missing (2 of 3 shards given)"),
        "{e}"
    );
    let e = merge_err(&[&p("a"), &p("b"), &p("c"), &p("empty")]);
    assert!(e.contains("holds no jforge report"), "{e}");
    let e = merge_err(&[&p("a"), &p("nowhere")]);
    assert!(e.contains("nowhere: no such folder"), "{e}");

    // The three shards merge: counts add up, rows sorted by class.
    let m = p("m.json");
    run_ok(
        jforge()
            .arg("merge")
            .args([p("c"), p("a"), p("b")])
            .arg("--stats-json")
            .arg(&m),
    );
    let m = read_json(&m);
    assert_eq!(m["regression_tests"], 6);
    let classes: Vec<&str> = m["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["class"].as_str().unwrap())
        .collect();
    assert_eq!(classes, ["x.A", "x.B", "x.C"]);

    // A shard outside the count is refused before anything runs.
    let o = jforge()
        .args(["gen", "--class", "x.A", "--shard", "3/3"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("shards are numbered from 0 to 2"),
        "{o:?}"
    );
}

/// The commands of the YAML recipes of docs/shards.md, continuation lines joined: each `jforge ...`
/// line with flags of every string in every YAML document.
fn recipe_commands(docs: &[serde_yaml::Value]) -> Vec<String> {
    fn strings(v: &serde_yaml::Value, out: &mut Vec<String>) {
        match v {
            serde_yaml::Value::String(s) => out.push(s.clone()),
            serde_yaml::Value::Sequence(items) => items.iter().for_each(|i| strings(i, out)),
            serde_yaml::Value::Mapping(m) => m.values().for_each(|i| strings(i, out)),
            _ => {}
        }
    }
    let mut texts = Vec::new();
    docs.iter().for_each(|d| strings(d, &mut texts));
    texts
        .iter()
        .flat_map(|t| {
            t.replace("\\\n", " ")
                .lines()
                .filter_map(|l| l.find("jforge ").map(|i| l[i..].to_string()))
                // commands, not step names such as "Install jforge and JUnit"
                .filter(|l| l.contains(" --"))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// YAML documents of every ```yaml block of docs/shards.md ("Beyond one machine").
fn shards_page_yaml() -> Vec<serde_yaml::Value> {
    use serde::Deserialize as _;
    let page =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/shards.md")).unwrap();
    let mut docs = Vec::new();
    for block in page.split("```yaml\n").skip(1) {
        let text = block.split("\n```").next().unwrap();
        for d in serde_yaml::Deserializer::from_str(text) {
            docs.push(serde_yaml::Value::deserialize(d).expect("docs/shards.md's YAML parses"));
        }
    }
    docs
}

#[test]
fn shards_page_recipes_are_yaml_and_use_flags_jforge_has() {
    let docs = shards_page_yaml();
    // GitHub Actions (one document) and Kubernetes (claim, indexed job, merge job).
    assert_eq!(docs.len(), 4, "{docs:#?}");
    let commands = recipe_commands(&docs);
    for sub in ["gen", "coverage", "merge"] {
        assert!(
            commands
                .iter()
                .filter(|c| c.starts_with(&format!("jforge {sub} ")))
                .count()
                >= 2,
            "both recipes run jforge {sub}: {commands:#?}"
        );
    }
    let mut help: BTreeMap<String, String> = BTreeMap::new();
    for c in &commands {
        let sub = c.split_whitespace().nth(1).unwrap().to_string();
        let text = help.entry(sub.clone()).or_insert_with(|| {
            let o = run_ok(jforge().args([sub.as_str(), "--help"]));
            String::from_utf8_lossy(&o.stdout).to_string()
        });
        for flag in c.split_whitespace().filter(|w| w.starts_with("--")) {
            assert!(
                text.contains(&format!("{flag} ")) || text.contains(&format!("{flag}\n")),
                "docs/shards.md recipe uses `jforge {sub} {flag}`, which jforge {sub} does not have"
            );
        }
    }
    // The shard count is the same everywhere in each recipe.
    let gh = &docs[0];
    let shards = gh["env"]["SHARDS"].as_u64().unwrap();
    let matrix = gh["jobs"]["shard"]["strategy"]["matrix"]["shard"]
        .as_sequence()
        .unwrap();
    assert_eq!(matrix.len() as u64, shards);
    let job = &docs[2]["spec"];
    assert_eq!(job["completionMode"], "Indexed");
    let env = &job["template"]["spec"]["containers"][0]["env"][0];
    assert_eq!(env["name"], "SHARDS");
    assert_eq!(
        job["completions"].as_u64().unwrap().to_string(),
        env["value"].as_str().unwrap()
    );
    assert_eq!(job["parallelism"], job["completions"]);
}
