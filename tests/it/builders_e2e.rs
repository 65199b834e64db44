//! End-to-end tests of `jforge builders` (real JVMs): observer detection on subjects whose
//! observers are known, both algorithms on subjects whose minimal sufficient sets are known
//! (checked by the tool against the whole API and by an independent restricted search),
//! verification of hand-written sets that are insufficient or not minimal, determinism of the
//! genetic algorithm, `exhaustive --builders auto`, and the refusal of a set that cannot build
//! a first structure.

use crate::support as common;
use common::*;
use std::path::PathBuf;

fn subjects_exh() -> PathBuf {
    compiled("exhaustive")
}

/// Runs `jforge builders` and returns the --stats-json.
fn builders(class: &str, extra: &[&str]) -> serde_json::Value {
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("b.json");
    let mut c = jforge();
    c.args(["builders", "-q", "--classpath"])
        .arg(subjects_exh())
        .args(["--class", class, "--stats-json"])
        .arg(&json)
        .args(extra);
    run_ok(&mut c);
    read_json(&json)
}

fn strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

/// Method names of the builder set, without the class (`add(int)`, `<init>(int)`).
fn set(j: &serde_json::Value) -> Vec<String> {
    let mut v: Vec<String> = strings(&j["builders"])
        .into_iter()
        .map(|s| {
            let (head, params) = s.split_once('(').unwrap();
            let name = head.rsplit('.').next().unwrap();
            let name = if name.chars().next().unwrap().is_uppercase() {
                "<init>"
            } else {
                name
            };
            format!("{name}({params}")
        })
        .collect();
    v.sort();
    v
}

fn assert_verified(j: &serde_json::Value) {
    let v = &j["verdict"];
    assert_eq!(v["sufficient"], true, "{v}");
    assert_eq!(v["minimal"], true, "{v}");
    assert_eq!(v["structures"], v["api_structures"], "{v}");
    if let Some(c) = j["search_check"].as_object() {
        assert_eq!(c["agrees"], true, "{j}");
        assert_eq!(c["structures"], v["structures"], "{j}");
    }
}

fn role(j: &serde_json::Value, method: &str) -> String {
    j["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["signature"].as_str().unwrap().ends_with(method))
        .unwrap_or_else(|| panic!("no method {method} in {j}"))["role"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn observers_are_told_from_builders() {
    // NodeCachingLinkedList: the queries are observers; every add and removal changes the list
    let j = builders("ds.NodeCachingLinkedList", &["--scope", "4"]);
    for m in [
        "contains(int)",
        "get(int)",
        "indexOf(int)",
        "size()",
        "repOK()",
    ] {
        assert_eq!(role(&j, m), "observer", "{m}: {}", j["methods"]);
    }
    for m in [
        "add(int)",
        "addFirst(int)",
        "remove(int)",
        "removeIndex(int)",
        "clear()",
        "NodeCachingLinkedList()",
    ] {
        assert_eq!(role(&j, m), "builder", "{m}: {}", j["methods"]);
    }
    assert_eq!(strings(&j["observers"]).len(), 5);
    // the search's candidates are the others
    assert_eq!(strings(&j["candidates"]).len(), 7);
}

#[test]
fn hill_climbing_finds_the_minimal_sets() {
    // NodeCachingLinkedList: a removal fills the node cache, and the two constructors build
    // different cache limits (20, and 0..4 from the int domain)
    let j = builders("ds.NodeCachingLinkedList", &[]);
    assert_verified(&j);
    assert_eq!(
        set(&j),
        ["<init>()", "<init>(int)", "add(int)", "remove(int)"],
        "{}",
        j["builders"]
    );
    assert_eq!(j["verdict"]["structures"], 5610);
    // a red-black tree needs remove for some colourings; an AVL tree only add
    let j = builders("ds.RedBlackTree", &[]);
    assert_verified(&j);
    assert_eq!(set(&j), ["<init>()", "add(int)", "remove(int)"]);
    let j = builders("ds.AvlTree", &[]);
    assert_verified(&j);
    assert_eq!(set(&j), ["<init>()", "add(int)"]);
    // consolidation after extractMin builds trees insertions alone do not
    let j = builders("ds.FibonacciHeap", &[]);
    assert_verified(&j);
    assert_eq!(set(&j), ["<init>()", "extractMin()", "insert(int)"]);
    // steps: the constructor first, then one method per step, the count rising each time
    let steps = j["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 3);
    let counts: Vec<u64> = steps
        .iter()
        .map(|s| s["structures"].as_u64().unwrap())
        .collect();
    assert!(counts.windows(2).all(|w| w[0] < w[1]), "{counts:?}");
}

#[test]
fn a_builder_that_is_no_add() {
    // disjoint sets grow only by union; find compresses paths but union(x, x) does the same
    for alg in ["hc", "ga"] {
        let j = builders("ds.DisjointSets", &["--algorithm", alg]);
        assert_verified(&j);
        assert_eq!(set(&j), ["<init>(int)", "union(int,int)"], "{alg}");
        assert_eq!(role(&j, "sets()"), "observer");
        assert_eq!(role(&j, "size()"), "observer");
    }
}

#[test]
fn genetic_algorithm_finds_the_minimal_sets_deterministically() {
    let run = |seed: &str| {
        builders(
            "ds.NodeCachingLinkedList",
            &["--algorithm", "ga", "--seed", seed],
        )
    };
    let a = run("3");
    assert_verified(&a);
    let s = set(&a);
    assert_eq!(s.len(), 4, "{s:?}");
    assert!(s.contains(&"<init>()".to_string()) && s.contains(&"<init>(int)".to_string()));
    assert!(
        s.iter().any(|m| m == "add(int)" || m == "addFirst(int)"),
        "{s:?}"
    );
    assert!(
        s.iter()
            .any(|m| m == "remove(int)" || m == "removeIndex(int)"),
        "{s:?}"
    );
    // the same seed gives the same run, generation by generation (all but the timings)
    let b = run("3");
    let untimed = |j: &serde_json::Value| {
        let mut g = j["generations"].clone();
        for x in g.as_array_mut().unwrap() {
            x.as_object_mut().unwrap().remove("seconds");
        }
        g
    };
    assert_eq!(untimed(&a), untimed(&b));
    assert_eq!(untimed(&a).as_array().unwrap().len(), 21);
    assert_eq!(a["builders"], b["builders"]);
    assert_eq!(a["methods"], b["methods"]);
    let j = builders("ds.RedBlackTree", &["--algorithm", "ga", "--seed", "1"]);
    assert_verified(&j);
    assert_eq!(set(&j), ["<init>()", "add(int)", "remove(int)"]);
    // the paper's fitness alone cannot tell remove from nothing on field extensions
    let p = builders(
        "ds.RedBlackTree",
        &["--algorithm", "ga", "--seed", "1", "--paper-fitness"],
    );
    assert_eq!(p["verdict"]["sufficient"], false, "{}", p["verdict"]);
}

#[test]
fn verification_rejects_insufficient_and_superfluous_sets() {
    let d = tempfile::tempdir().unwrap();
    let write = |name: &str, lines: &[&str]| {
        let f = d.path().join(name);
        std::fs::write(&f, lines.join("\n")).unwrap();
        f.display().to_string()
    };
    // without a removal the node cache stays empty: not sufficient
    let adds = write(
        "adds.txt",
        &[
            r"ds\.NodeCachingLinkedList\(\)",
            r"ds\.NodeCachingLinkedList\(int\)",
            r"ds\.NodeCachingLinkedList\.add\(int\)",
        ],
    );
    let j = builders("ds.NodeCachingLinkedList", &["--verify", &adds]);
    let v = &j["verdict"];
    assert_eq!(v["sufficient"], false, "{v}");
    assert_eq!(v["minimal"], true, "{v}");
    assert_eq!(v["structures"], 4686);
    assert_eq!(v["api_structures"], 5610);
    assert!(!v["missing_examples"].as_array().unwrap().is_empty());
    assert!(j["algorithm"].is_null());
    // addFirst next to add is superfluous: sufficient but not minimal
    let extra = write(
        "extra.txt",
        &[
            r"ds\.NodeCachingLinkedList\(\)",
            r"ds\.NodeCachingLinkedList\(int\)",
            r"ds\.NodeCachingLinkedList\.add\(int\)",
            r"ds\.NodeCachingLinkedList\.addFirst\(int\)",
            r"ds\.NodeCachingLinkedList\.remove\(int\)",
        ],
    );
    let j = builders("ds.NodeCachingLinkedList", &["--verify", &extra]);
    let v = &j["verdict"];
    assert_eq!(v["sufficient"], true, "{v}");
    assert_eq!(v["minimal"], false, "{v}");
    let without = v["without"].as_array().unwrap();
    let first = without
        .iter()
        .find(|w| w["method"].as_str().unwrap().ends_with("addFirst(int)"))
        .unwrap();
    assert_eq!(first["structures"], 5610);
    // the red-black tree without remove
    let rbt = write(
        "rbt.txt",
        &[r"ds\.RedBlackTree\(\)", r"ds\.RedBlackTree\.add\(int\)"],
    );
    let j = builders("ds.RedBlackTree", &["--verify", &rbt]);
    assert_eq!(j["verdict"]["sufficient"], false);
}

#[test]
fn the_output_file_is_what_exhaustive_and_gen_read() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("avl.txt");
    let j = builders("ds.AvlTree", &["--output", file.to_str().unwrap()]);
    assert_verified(&j);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains(r"ds\.AvlTree\.add\(int\)"), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("# sufficient at scope 5: yes")),
        "{text}"
    );
    // exhaustive with the file and with --builders auto: the same count as the whole API
    let exh = |b: &str| {
        let json = d.path().join(format!("e-{}.json", b.len()));
        run_ok(
            jforge()
                .args(["exhaustive", "-q", "--classpath"])
                .arg(subjects_exh())
                .args(["--class", "ds.AvlTree", "--scope", "7", "--builders", b])
                .arg("--stats-json")
                .arg(&json),
        );
        read_json(&json)
    };
    let hand = d.path().join("hand.txt");
    std::fs::write(&hand, "ds\\.AvlTree\\(\\)\nds\\.AvlTree\\.add\\(.*\n").unwrap();
    let by_hand = exh(hand.to_str().unwrap());
    let by_file = exh(file.to_str().unwrap());
    let auto = exh("auto");
    assert_eq!(by_hand["structures"], auto["structures"]);
    assert_eq!(by_file["structures"], auto["structures"]);
    assert_eq!(auto["usable_operations"], 2);
    // gen restricted to the builders: only AvlTree() and add(int) are called
    let out = d.path().join("tests");
    let json = d.path().join("gen.json");
    run_ok(
        jforge()
            .args(["gen", "-q", "--no-validate", "--no-coverage", "--classpath"])
            .arg(subjects_exh())
            .args([
                "--class",
                "ds.AvlTree",
                "--generated-limit",
                "300",
                "--builders",
            ])
            .arg(&file)
            .arg("--output-dir")
            .arg(&out)
            .arg("--stats-json")
            .arg(&json),
    );
    let mut called = String::new();
    for f in java_files(&out) {
        called.push_str(&std::fs::read_to_string(f).unwrap());
    }
    assert!(called.contains(".add("), "{called}");
    assert!(!called.contains(".contains("), "{called}");
}

#[test]
fn random_generation_with_the_builders_is_compared_with_the_whole_api() {
    let j = builders(
        "ds.BinarySearchTree",
        &["--compare-gen", "2s", "--no-search-check"],
    );
    let c = &j["gen_comparison"];
    for side in ["builders", "whole_api"] {
        let f = &c[side];
        assert!(f["sequences"].as_u64().unwrap() > 0, "{c}");
        assert!(f["distinct"].as_u64().unwrap() > 1, "{c}");
        assert!(f["distinct"].as_u64() <= f["objects"].as_u64(), "{c}");
        assert!(f["largest"].as_u64().unwrap() >= 2, "{c}");
    }
}

/// The builder set as signatures, sorted.
fn signatures(j: &serde_json::Value) -> Vec<String> {
    let mut v = strings(&j["builders"]);
    v.sort();
    v
}

#[test]
fn a_class_behind_a_builder_gets_the_builder_methods_it_needs() {
    // ds.HttpConfig has no public constructor: builder(String) returns a Builder, whose
    // build() makes the config. Neither builds a config alone, so hill climbing starts from
    // the chain of both; port(int) and withTimeout(int) each add structures; secure() and
    // tls(boolean) add the same ones (tls true), and secure() takes no parameter; toBuilder()
    // and Builder.host() add nothing.
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("http.txt");
    let j = builders("ds.HttpConfig", &["--output", file.to_str().unwrap()]);
    assert_verified(&j);
    let expected = [
        "ds.HttpConfig$Builder.build()",
        "ds.HttpConfig$Builder.port(int)",
        "ds.HttpConfig$Builder.secure()",
        "ds.HttpConfig.builder(String)",
        "ds.HttpConfig.withTimeout(int)",
    ];
    assert_eq!(signatures(&j), expected, "{j}");
    // hosts a..e x ports (80 and 0..4) x tls x timeouts (30 and 0..4), at scope 5
    assert_eq!(j["verdict"]["structures"], 5 * 6 * 2 * 6);
    let steps = j["steps"].as_array().unwrap();
    assert_eq!(
        steps[0]["added"], "ds.HttpConfig.builder(String) + ds.HttpConfig$Builder.build()",
        "{j}"
    );
    assert_eq!(steps[0]["structures"], 5, "{j}");
    // each one is needed: without the factory or build() nothing is built at all
    for w in j["verdict"]["without"].as_array().unwrap() {
        let lost = match w["method"].as_str().unwrap() {
            "ds.HttpConfig.builder(String)" | "ds.HttpConfig$Builder.build()" => 0,
            "ds.HttpConfig$Builder.secure()" => 180,
            _ => 60,
        };
        assert_eq!(w["structures"], lost, "{w}");
    }
    for observer in ["host()", "port()", "tls()", "timeout()"] {
        assert_eq!(role(&j, &format!("ds.HttpConfig.{observer}")), "observer");
    }
    assert_eq!(role(&j, "HttpConfig.toBuilder()"), "builder", "{j}");
    assert!(
        !strings(&j["candidates"]).contains(&"ds.HttpConfig$Builder.host()".to_string()),
        "a getter of the builder class builds nothing: {j}"
    );
    // the genetic algorithm starts from the same chain and ends with the same set
    let ga = builders("ds.HttpConfig", &["--algorithm", "ga", "--no-search-check"]);
    assert_verified(&ga);
    assert_eq!(signatures(&ga), expected, "{ga}");
    // the file lists the builder's methods too, and exhaustive enumerates with it what the
    // whole API builds
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains(r"ds\.HttpConfig\$Builder\.port\(int\)"),
        "{text}"
    );
    let json = d.path().join("e.json");
    run_ok(
        jforge()
            .args(["exhaustive", "-q", "--classpath"])
            .arg(subjects_exh())
            .args(["--class", "ds.HttpConfig", "--scope", "5", "--builders"])
            .arg(&file)
            .arg("--stats-json")
            .arg(&json),
    );
    assert_eq!(read_json(&json)["structures"], 360);
    // ServerConfig: the same shape with tls(boolean) as the only way to tls
    let j = builders("ds.ServerConfig", &[]);
    assert_verified(&j);
    assert_eq!(
        signatures(&j),
        [
            "ds.ServerConfig$Builder.build()",
            "ds.ServerConfig$Builder.port(int)",
            "ds.ServerConfig$Builder.tls(boolean)",
            "ds.ServerConfig.builder(String)",
        ]
    );
    assert_eq!(j["verdict"]["structures"], 5 * 6 * 2);
}

#[test]
fn sets_without_a_constructor_are_refused() {
    let o = jforge()
        .args(["exhaustive", "-q", "--classpath"])
        .arg(subjects_exh())
        .args([
            "--class",
            "ds.SinglyLinkedList",
            "--scope",
            "3",
            "--methods",
            r"ds\.SinglyLinkedList\.add\(.*",
        ])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("no constructor or static factory"), "{e}");
    assert!(e.contains(r"ds\.SinglyLinkedList\(\)"), "{e}");
    // a builders file that matches nothing is refused by gen too
    let d = tempfile::tempdir().unwrap();
    let f = d.path().join("b.txt");
    std::fs::write(&f, "ds\\.Nothing\\(\\)\n").unwrap();
    let o = jforge()
        .args(["gen", "-q", "--no-validate", "--classpath"])
        .arg(subjects_exh())
        .args(["--class", "ds.AvlTree", "--builders"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no method of the classes under test"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn cli_errors_are_clear() {
    let err = |args: &[&str]| {
        let o = jforge()
            .args(["builders", "-q", "--classpath"])
            .arg(subjects_exh())
            .args(args)
            .output()
            .unwrap();
        assert!(!o.status.success());
        String::from_utf8_lossy(&o.stderr).to_string()
    };
    assert!(err(&[]).contains("--class"));
    assert!(err(&["--class", "ds.Nope"]).contains("ds.Nope"));
    assert!(err(&["--class", "ds.AvlTree", "--mutation-rate", "2"]).contains("--mutation-rate"));
    // a modification counter kept in the forms: the search never ends, and says why
    let e = err(&[
        "--class",
        "ds.NodeCachingLinkedList",
        "--scope",
        "3",
        "--omit-fields",
        "",
        "--no-search-check",
    ]);
    assert!(e.contains("--omit-fields"), "{e}");
}

#[test]
fn a_counter_that_stops_the_run_is_named_with_the_omit_fields_line() {
    // ds.LruCache counts its misses and hits: every get builds a new structure, so the
    // closures never stop growing. The run stops (exit 4, like a limit of exhaustive), names
    // the counter that grew along the calls it explored and the --omit-fields line; following
    // the advice (each run names what its closures showed growing) ends in a verified set.
    let mut omit = "modCount".to_string();
    let mut named = Vec::new();
    let j = loop {
        let d = tempfile::tempdir().unwrap();
        let json = d.path().join("b.json");
        let o = jforge()
            .args(["builders", "-q", "--classpath"])
            .arg(subjects_exh())
            .args([
                "--class",
                "ds.LruCache",
                "--scope",
                "3",
                "--no-search-check",
            ])
            .args(["--omit-fields", &omit, "--stats-json"])
            .arg(&json)
            .output()
            .unwrap();
        if o.status.success() {
            break read_json(&json);
        }
        let e = String::from_utf8_lossy(&o.stderr).to_string();
        assert_eq!(o.status.code(), Some(4), "{e}");
        assert!(e.contains("never stop growing"), "{e}");
        let line = e
            .trim_end()
            .rsplit_once("--omit-fields '")
            .map(|(_, l)| l.trim_end_matches('\''))
            .unwrap_or_else(|| panic!("no --omit-fields line: {e}"))
            .to_string();
        // the line keeps what was omitted and adds a counter named in the message
        assert!(
            line.starts_with(&format!("{omit}|")),
            "{line} after {omit}: {e}"
        );
        let added = line[omit.len() + 1..].to_string();
        for f in added.split('|') {
            assert!(e.contains(&format!("ds.LruCache.{f} (up to ")), "{f}: {e}");
            named.push(f.to_string());
        }
        omit = line;
        assert!(named.len() <= 2, "named {named:?}");
    };
    named.sort();
    assert_eq!(named, ["hits", "misses"]);
    assert_eq!(j["verdict"]["sufficient"], true, "{j}");
    // with the counters left out, get still reorders the cache: a builder
    assert_eq!(role(&j, ".get(String)"), "builder", "{j}");
    // --time-limit: the same kind of stop (exit 4), said in its terms
    let o = jforge()
        .args(["builders", "-q", "--classpath"])
        .arg(subjects_exh())
        .args([
            "--class",
            "ds.LruCache",
            "--scope",
            "3",
            "--time-limit",
            "1ms",
        ])
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{e}");
    assert!(e.contains("time limit of 1ms reached"), "{e}");
}

#[test]
fn an_access_ordered_get_changes_the_cache() {
    // get(k) moves k to the end of an access-ordered LinkedHashMap: a mutation, seen only on
    // a cache holding two keys or more (the counters are left out, so only the order tells)
    let j = builders(
        "ds.LruCache",
        &[
            "--scope",
            "3",
            "--omit-fields",
            "modCount|hits|misses",
            "--no-search-check",
        ],
    );
    assert_eq!(role(&j, ".get(String)"), "builder", "{j}");
    let get = j["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["signature"] == "ds.LruCache.get(String)")
        .unwrap();
    assert!(get["evidence"]["changed"].as_u64().unwrap() >= 6, "{get}");
    for observer in [".hits()", ".misses()", ".size()"] {
        assert_eq!(role(&j, observer), "observer", "{j}");
    }
}

#[test]
fn a_get_that_only_reorders_is_a_mutation_and_a_lookup_is_not() {
    // ds.RecentlyUsed: get(name) moves a present name to the end of an access-ordered
    // LinkedHashMap (nothing else changes); contains(name) reads the same map and moves
    // nothing. Detection calls both, on the structures whose forms hold most names, with each
    // name the form shows: get changes the order on about half of them (the least recent of
    // two names), contains on none.
    for seed in ["0", "1"] {
        let j = builders(
            "ds.RecentlyUsed",
            &["--scope", "3", "--no-search-check", "--seed", seed],
        );
        let evidence = |sig: &str| {
            j["methods"]
                .as_array()
                .unwrap()
                .iter()
                .find(|m| m["signature"] == sig)
                .unwrap_or_else(|| panic!("no {sig} in {j}"))["evidence"]
                .clone()
        };
        let get = evidence("ds.RecentlyUsed.get(String)");
        assert_eq!(role(&j, ".get(String)"), "builder", "{j}");
        assert!(get["changed"].as_u64().unwrap() >= 6, "seed {seed}: {get}");
        let contains = evidence("ds.RecentlyUsed.contains(String)");
        assert_eq!(role(&j, ".contains(String)"), "observer", "{j}");
        assert_eq!(contains["changed"], 0, "{contains}");
        assert!(contains["calls"].as_u64().unwrap() >= 40, "{contains}");
        assert_eq!(role(&j, ".size()"), "observer", "{j}");
        // use(name, w) reorders too, so get adds no structure: the set is the other two
        assert_eq!(
            signatures(&j),
            ["ds.RecentlyUsed(int)", "ds.RecentlyUsed.use(String,int)"]
        );
        assert_verified(&j);
    }
}

#[test]
fn an_index_checked_get_is_expected_behaviour_as_for_gen_and_exhaustive() {
    // ds.IntList.get(i) throws IndexOutOfBoundsException for an index past the end: gen's
    // contracts (crate::contracts) call that an invalid argument, as exhaustive does
    // (exhaustive_e2e::an_index_checked_get_is_expected_behaviour_not_a_failure, same
    // domains): lists of at most 4 ints of 0..2, 1+3+9+27+81; get(0..2) on the lists shorter
    // than the index: 3 (empty) + 2*3 + 1*9
    let args = ["--scope", "3", "--max-array", "4"];
    let j = builders("ds.IntList", &args);
    assert_verified(&j);
    assert_eq!(j["verdict"]["structures"], 121, "{j}");
    assert_eq!(j["failures"].as_array().unwrap().len(), 0, "{j}");
    assert_eq!(j["expected_exceptions"], 18, "{j}");
    assert_eq!(role(&j, ".get(int)"), "observer", "{j}");
    // --error-exceptions means what it means for gen and exhaustive: the same 18 calls
    let mut with = args.to_vec();
    with.extend(["--error-exceptions", "java.lang.IndexOutOfBoundsException"]);
    let j = builders("ds.IntList", &with);
    assert_eq!(
        j["failures"],
        serde_json::json!([[
            "java.lang.IndexOutOfBoundsException in ds.IntList.get(int)",
            18
        ]]),
        "{j}"
    );
    assert_eq!(j["expected_exceptions"], 0, "{j}");
}
