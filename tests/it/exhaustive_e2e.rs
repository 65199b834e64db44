//! End-to-end tests of `jforge exhaustive` (real JVMs, real worker): structure counts checked
//! against counts computed independently here, worker-count independence, the written suite,
//! seeded bugs, --check, CLI errors, and canonical-form properties.

use crate::support as common;
use common::*;
use std::path::PathBuf;

fn subjects_exh() -> PathBuf {
    compiled("exhaustive")
}

/// Runs `jforge exhaustive` and returns the --stats-json.
fn exh(class: &str, extra: &[&str]) -> serde_json::Value {
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("s.json");
    let mut c = jforge();
    c.args(["exhaustive", "-q", "--classpath"])
        .arg(subjects_exh())
        .args(["--class", class, "--stats-json"])
        .arg(&json)
        .args(extra);
    run_done(&mut c);
    read_json(&json)
}

fn structures(j: &serde_json::Value) -> u64 {
    j["structures"].as_u64().unwrap()
}

fn binom(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// Lists of at most `n` values from a domain of `k`: 1 + k + ... + k^n.
fn lists(k: u64, n: u32) -> u64 {
    (0..=n).map(|i| k.pow(i)).sum()
}

#[test]
fn sll_add_scope3_has_40_structures() {
    let d = tempfile::tempdir().unwrap();
    let csv = d.path().join("runs.csv");
    let j = exh(
        "ds.SinglyLinkedList",
        &["--scope", "3", "--csv", csv.to_str().unwrap()],
    );
    assert_eq!(structures(&j), lists(3, 3));
    assert_eq!(structures(&j), 40);
    assert_eq!(j["fixpoint"], true);
    // --csv appends class,scope,seconds,structures,explored
    exh(
        "ds.SinglyLinkedList",
        &["--scope", "2", "--csv", csv.to_str().unwrap()],
    );
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0][0], "ds.SinglyLinkedList");
    assert_eq!(rows[0][1], "3");
    assert!(rows[0][2].parse::<f64>().is_ok());
    assert_eq!(rows[0][3], "40");
    assert_eq!(rows[0][4], j["explored"].to_string());
    assert_eq!(rows[1][3], lists(2, 2).to_string());
}

#[test]
fn bst_add_remove_scope4_has_51_structures() {
    // BSTs over every subset of {0..3}: sum_k C(4,k) * Catalan(k)
    let catalan = |k: u64| binom(2 * k, k) / (k + 1);
    let expected: u64 = (0..=4).map(|k| binom(4, k) * catalan(k)).sum();
    assert_eq!(expected, 51);
    let j = exh(
        "ds.BinarySearchTree",
        &[
            "--scope",
            "4",
            "--methods",
            r"ds\.BinarySearchTree(\(\)|\.add\(.*|\.remove\(.*)",
        ],
    );
    assert_eq!(structures(&j), expected);
    assert_eq!(j["usable_operations"], 3);
}

#[test]
fn node_caching_list_matches_the_closed_formula_and_its_rep_ok() {
    // scope n: n nodes, header included, so a list of L values (0..n-1) and a cache of C
    // cleared nodes with L + C <= n - 1; the cache (at most 20 nodes) never fills here.
    // Scope 8 gives BEAPI's 2,739,136 for ROOPS's NCL (checked in bench/exhaustive.py).
    let formula = |n: u64| -> u64 { (0..n).map(|l| n.pow(l as u32) * (n - l)).sum() };
    assert_eq!(formula(3), 18);
    for scope in [3u64, 4, 5] {
        let j = exh(
            "ds.NodeCachingLinkedList",
            &[
                "--scope",
                &scope.to_string(),
                "--omit-fields",
                "modCount",
                "--methods",
                r"ds\.NodeCachingLinkedList(\(\)|\.add\(.*|\.remove\(.*)",
                "--check",
                "repOK",
            ],
        );
        assert_eq!(structures(&j), formula(scope), "scope {scope}");
        assert_eq!(j["counterexamples"].as_array().unwrap().len(), 0);
    }
    // without removals nothing is ever cached: plain lists
    let j = exh(
        "ds.NodeCachingLinkedList",
        &[
            "--scope",
            "4",
            "--omit-fields",
            "modCount",
            "--methods",
            r"ds\.NodeCachingLinkedList(\(\)|\.add\(.*)",
        ],
    );
    assert_eq!(structures(&j), lists(4, 3));
    // with modCount in the form every add and remove makes a new structure: no fixpoint,
    // and the user is told why
    let j = exh(
        "ds.NodeCachingLinkedList",
        &["--scope", "3", "--max-rounds", "7"],
    );
    assert_eq!(j["fixpoint"], false);
    let w = j["warnings"].as_array().unwrap();
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(w[0].as_str().unwrap().contains("--omit-fields"), "{w:?}");
}

#[test]
fn dll_counts_its_header_and_matches_the_list_formula() {
    // the header entry is an Entry too: scope 4 = at most 3 elements
    let j = exh("ds.DoublyLinkedList", &["--scope", "4", "--ints", "0:2"]);
    assert_eq!(structures(&j), lists(3, 3));
    // removeFirst on an empty list is API misuse (IllegalStateException): dropped silently
    assert!(j["misuse_dropped"].as_u64().unwrap() >= 1);
    assert_eq!(j["failures"].as_array().unwrap().len(), 0);
}

/// An independent AVL tree in Rust: the distinct trees reachable by insertions from the empty
/// tree, enumerated breadth-first.
mod avl {
    #[derive(Clone, PartialEq, Eq, Hash, Debug)]
    pub enum T {
        E,
        N(Box<T>, i32, Box<T>, i32),
    }
    fn h(t: &T) -> i32 {
        match t {
            T::E => 0,
            T::N(_, _, _, h) => *h,
        }
    }
    fn mk(l: T, k: i32, r: T) -> T {
        let hh = h(&l).max(h(&r)) + 1;
        T::N(Box::new(l), k, Box::new(r), hh)
    }
    fn rot_r(t: T) -> T {
        let T::N(l, k, r, _) = t else { unreachable!() };
        let T::N(ll, lk, lr, _) = *l else {
            unreachable!()
        };
        mk(*ll, lk, mk(*lr, k, *r))
    }
    fn rot_l(t: T) -> T {
        let T::N(l, k, r, _) = t else { unreachable!() };
        let T::N(rl, rk, rr, _) = *r else {
            unreachable!()
        };
        mk(mk(*l, k, *rl), rk, *rr)
    }
    pub fn insert(t: T, x: i32) -> T {
        let T::N(l, k, r, hh) = t else {
            return mk(T::E, x, T::E);
        };
        let n = if x < k {
            mk(insert(*l, x), k, *r)
        } else if x > k {
            mk(*l, k, insert(*r, x))
        } else {
            return T::N(l, k, r, hh);
        };
        let T::N(l, k, r, _) = n.clone() else {
            unreachable!()
        };
        let b = h(&l) - h(&r);
        if b > 1 {
            let T::N(_, lk, _, _) = &*l else {
                unreachable!()
            };
            let l2 = if x > *lk { rot_l(*l) } else { *l };
            return rot_r(mk(l2, k, *r));
        }
        if b < -1 {
            let T::N(_, rk, _, _) = &*r else {
                unreachable!()
            };
            let r2 = if x < *rk { rot_r(*r) } else { *r };
            return rot_l(mk(*l, k, r2));
        }
        n
    }
    pub fn size(t: &T) -> u32 {
        match t {
            T::E => 0,
            T::N(l, _, r, _) => 1 + size(l) + size(r),
        }
    }
}

fn avl_count(scope: u32) -> u64 {
    use std::collections::HashSet;
    let mut seen = HashSet::new();
    seen.insert(avl::T::E);
    let mut frontier = vec![avl::T::E];
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for t in &frontier {
            for k in 0..scope as i32 {
                let u = avl::insert(t.clone(), k);
                if avl::size(&u) <= scope && seen.insert(u.clone()) {
                    next.push(u);
                }
            }
        }
        frontier = next;
    }
    seen.len() as u64
}

#[test]
fn avl_counts_match_an_independent_enumeration() {
    for scope in [3, 4, 5] {
        let j = exh("ds.AvlTree", &["--scope", &scope.to_string()]);
        assert_eq!(structures(&j), avl_count(scope), "scope {scope}");
    }
}

#[test]
fn counts_and_forms_do_not_depend_on_workers_or_prototype_reuse() {
    for (class, scope) in [
        ("ds.BinarySearchTree", "4"),
        ("ds.NodeCachingLinkedList", "3"),
        // a method whose result goes out of scope while its receiver does not
        ("ds.SpawningList", "4"),
        ("ds.FibonacciHeap", "3"),
        ("ds.RedBlackTree", "4"),
        ("java.util.TreeMap", "3"),
        // the whole public API: putAll(Map), TreeMap(SortedMap)... take two structures
        ("java.util.TreeMap", "2"),
    ] {
        let d = tempfile::tempdir().unwrap();
        let mut dumps = Vec::new();
        let mut counts = Vec::new();
        // (workers, prototype reuse)
        for (w, reuse) in [("1", true), ("2", true), ("1", false), ("2", false)] {
            let dump = d.path().join(format!("dump{w}{reuse}.txt"));
            let mut args = vec![
                "--scope",
                scope,
                "--workers",
                w,
                "--batch",
                "7",
                "--dump",
                dump.to_str().unwrap(),
            ];
            let builders_only = scope != "2";
            if class == "ds.NodeCachingLinkedList" {
                args.extend(["--omit-fields", "modCount"]);
            }
            if class.starts_with("java.") {
                args.extend(["--omit-fields", "modCount"]);
                if builders_only {
                    args.extend([
                        "--methods",
                        r"java\.util\.TreeMap(\(\)|\.put\(.*|\.remove\(.*)",
                    ]);
                }
            }
            if !reuse {
                args.push("--no-reuse");
            }
            let j = exh(class, &args);
            let r = &j["prototype_reuse"];
            let from_proto = r["from_prototype"].as_u64().unwrap();
            if reuse && !builders_only {
                // combinations of two structures run from scratch, the others from copies
                assert!(from_proto > 0, "{class} w{w}: {r}");
            } else if reuse {
                // nearly every sequence extends a live copy (the first has nothing to copy)
                assert!(
                    from_proto * 10 >= j["explored"].as_u64().unwrap() * 9,
                    "{class} w{w}: {r}"
                );
            } else {
                assert_eq!(from_proto, 0, "{class}: {r}");
            }
            counts.push((structures(&j), j["explored"].as_u64().unwrap()));
            dumps.push(std::fs::read_to_string(&dump).unwrap());
        }
        for i in 1..counts.len() {
            assert_eq!(counts[0], counts[i], "{class} run {i}");
            assert_eq!(dumps[0], dumps[i], "{class} run {i}");
        }
        assert!(counts[0].0 > 0);
        // one canonical form per line, sorted
        let lines: Vec<&str> = dumps[0].lines().collect();
        let mut sorted = lines.clone();
        sorted.sort();
        assert_eq!(lines, sorted);
    }
}

/// `jforge exhaustive` with the worker's field access forced (None: chosen automatically,
/// Unsafe here); the stats and, with `dump`, the forms.
fn exh_with_field_access(
    class: &str,
    extra: &[&str],
    access: Option<&str>,
    dump: bool,
) -> (serde_json::Value, String) {
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("s.json");
    let forms = d.path().join("forms.txt");
    let mut c = jforge();
    c.args(["exhaustive", "-q", "--classpath"])
        .arg(subjects_exh())
        .args(["--class", class, "--stats-json"])
        .arg(&json)
        .args(extra);
    if dump {
        c.arg("--dump").arg(&forms);
    }
    // the worker JVMs inherit it
    match access {
        Some(a) => c.env("JAVA_TOOL_OPTIONS", format!("-Djforge.fieldAccess={a}")),
        None => c.env_remove("JAVA_TOOL_OPTIONS"),
    };
    run_ok(&mut c);
    let text = if dump {
        std::fs::read_to_string(&forms).unwrap()
    } else {
        String::new()
    };
    (read_json(&json), text)
}

#[test]
fn field_access_through_method_handles_finds_the_same_structures() {
    // -Djforge.fieldAccess=handles: the copier and the canonical walk read and write fields
    // through method handles instead of sun.misc.Unsafe (deprecated for removal).
    let treemap = [
        "--scope",
        "3",
        "--omit-fields",
        "modCount",
        "--methods",
        r"java\.util\.TreeMap(\(\)|\.put\(.*|\.remove\(.*)",
    ];
    let cases: [(&str, &[&str]); 3] = [
        ("ds.BinarySearchTree", &["--scope", "4"]),
        ("ds.AvlTree", &["--scope", "4"]),
        ("java.util.TreeMap", &treemap),
    ];
    for (class, extra) in cases {
        for dump in [false, true] {
            let (a, forms_a) = exh_with_field_access(class, extra, None, dump);
            let (b, forms_b) = exh_with_field_access(class, extra, Some("handles"), dump);
            assert!(structures(&a) > 0);
            assert_eq!(structures(&a), structures(&b), "{class}");
            assert_eq!(a["explored"], b["explored"], "{class}");
            assert_eq!(forms_a, forms_b, "{class}");
            // the copies were made through the handles, not given up
            let r = &b["prototype_reuse"];
            assert!(r["disabled"].is_null(), "{class}: {r}");
            assert!(r["from_prototype"].as_u64().unwrap() > 0, "{class}: {r}");
        }
    }
    // A field out of the handles' reach: the copier refuses (Unsafe copies it), the search
    // re-executes, the structures are the same.
    let (a, forms_a) = exh_with_field_access("ds.CountingStack", &["--scope", "3"], None, true);
    let (b, forms_b) =
        exh_with_field_access("ds.CountingStack", &["--scope", "3"], Some("handles"), true);
    assert_eq!(structures(&a), lists(3, 3));
    assert_eq!(structures(&a), structures(&b));
    assert_eq!(forms_a, forms_b);
    assert!(a["prototype_reuse"]["disabled"].is_null(), "{a}");
    let why = b["prototype_reuse"]["disabled"]
        .as_str()
        .unwrap_or_default();
    assert!(
        why.contains("out of reach") && why.contains("handles"),
        "{why}"
    );
}

#[test]
fn a_newer_jdk_finds_the_same_structures_even_with_unsafe_denied() {
    let Some((jdk, version)) = newer_jdk() else {
        eprintln!("skipped: no JDK 21+ newer than the default one under /usr/lib/jvm");
        return;
    };
    let java = jdk.to_str().unwrap();
    let base = ["--scope", "4"];
    let (a, forms_a) = exh_with_field_access("ds.AvlTree", &base, None, true);
    let on_newer = ["--scope", "4", "--java", java];
    let (b, forms_b) = exh_with_field_access("ds.AvlTree", &on_newer, None, true);
    assert_eq!(structures(&a), structures(&b));
    assert_eq!(a["explored"], b["explored"]);
    assert_eq!(forms_a, forms_b);
    if version >= 23 {
        // A JDK that denies sun.misc.Unsafe's memory access: the worker falls back to method
        // handles by itself, and still copies prototypes.
        let d = tempfile::tempdir().unwrap();
        let json = d.path().join("s.json");
        let forms = d.path().join("forms.txt");
        let mut c = jforge();
        c.args(["exhaustive", "-q", "--classpath"])
            .arg(subjects_exh())
            .args(["--class", "ds.AvlTree", "--stats-json"])
            .arg(&json)
            .arg("--dump")
            .arg(&forms)
            .args(on_newer)
            .env("JAVA_TOOL_OPTIONS", "--sun-misc-unsafe-memory-access=deny");
        run_ok(&mut c);
        let j = read_json(&json);
        assert_eq!(structures(&j), structures(&a));
        assert_eq!(std::fs::read_to_string(&forms).unwrap(), forms_a);
        let r = &j["prototype_reuse"];
        assert!(r["disabled"].is_null(), "{r}");
        assert!(r["from_prototype"].as_u64().unwrap() > 0, "{r}");
    }
}

#[test]
fn written_suite_compiles_and_passes() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let mut c = jforge();
    c.args(["exhaustive", "-q", "--classpath"])
        .arg(subjects_exh())
        .args([
            "--class",
            "ds.BinarySearchTree",
            "--scope",
            "3",
            "--output-dir",
        ])
        .arg(&out)
        .arg("--stats-json")
        .arg(d.path().join("s.json"));
    run_done(&mut c);
    // jforge checked the suite itself (the shared suite stage) before putting it in place
    let j = read_json(&d.path().join("s.json"));
    assert_eq!(j["validation"]["clean"], true, "{j:#}");
    assert_eq!(j["validation"]["passed"], 15, "{j:#}");
    let cp = subjects_exh().display().to_string();
    let run = compile_and_run_junit4(&out, &cp);
    // the BST structures at scope 3 with keys 0..2: 1 + 3 + 3*2 + 5 = 15 tests
    assert_eq!(run.tests_run, 15, "{}", run.output);
    assert!(run.failures.is_empty(), "{}", run.output);
}

#[test]
fn seeded_bug_is_reported_with_a_replayable_sequence() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("s.json");
    let mut c = jforge();
    c.args(["exhaustive", "-q", "--classpath"])
        .arg(subjects_exh())
        .args(["--class", "ds.BuggyList", "--scope", "3", "--output-dir"])
        .arg(&out)
        .arg("--stats-json")
        .arg(&json);
    let o = run_done(&mut c);
    assert_eq!(o.status.code(), Some(3), "failures found: exit 3");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("java.lang.NullPointerException"), "{text}");
    let j = read_json(&json);
    let f = &j["failures"][0];
    assert_eq!(f["exception"], "java.lang.NullPointerException");
    // shortest: two adds, then add(2)
    assert_eq!(f["sequence"].as_array().unwrap().len(), 7);
    // the structure tests pass; the failure test, kept apart from them (where a build does
    // not run it), replays the failure: it fails with the NPE
    let cp = subjects_exh().display().to_string();
    let run = compile_and_run_junit4(&out, &cp);
    assert!(run.failures.is_empty(), "{}", run.output);
    assert!(out.join("ds/BuggyListExhaustiveTest.java").is_file());
    let run = compile_and_run_junit4(&d.path().join("jforge-error-tests"), &cp);
    let errs: Vec<_> = run
        .failures
        .iter()
        .filter(|(t, _)| t.contains("ErrorTest"))
        .collect();
    assert_eq!(errs.len(), 1, "{}", run.output);
    assert!(errs[0].1.contains("NullPointerException"), "{}", run.output);
    assert!(
        run.failures.iter().all(|(t, _)| t.contains("ErrorTest")),
        "{}",
        run.output
    );
}

#[test]
fn worker_death_loses_prototypes_but_not_structures() {
    // add(2) on a one-element list halts the JVM: the worker that held the prototypes is
    // restarted empty, its structures are rebuilt from their sequences, and the counts are
    // those of re-execution from scratch. Lists of values 0..3 without [x, 2]-prefixed
    // growth: every list of length <= 3 whose second-added value is not 2.
    let mut runs = Vec::new();
    for extra in [
        &["--workers", "2"][..],
        &["--workers", "1", "--no-reuse"][..],
    ] {
        let mut args = vec!["--scope", "3", "--ints", "0:3"];
        args.extend_from_slice(extra);
        let j = exh("ds.HaltingList", &args);
        runs.push(j);
    }
    let expected = 1 + 4 + 4 * 3 + 4 * 3 * 4;
    for j in &runs {
        assert_eq!(structures(j), expected, "{j}");
        let f = j["failures"].as_array().unwrap();
        assert_eq!(f.len(), 1, "{j}");
        assert_eq!(f[0]["exception"], "crash: JVM exited with code 3", "{j}");
    }
    assert!(
        runs[0]["prototype_reuse"]["rebuilt"].as_u64().unwrap() > 0,
        "{}",
        runs[0]
    );
}

#[test]
fn contracts_are_checked_on_every_structure() {
    // equals is not reflexive from three elements on; hashCode (and so Object.toString)
    // throws when the last value added is 3. Both are found, with the shortest sequence, whether structures are checked
    // on prototype copies or by re-running their sequences, and the written failure tests
    // reproduce them.
    let mut whats = Vec::new();
    for extra in [&[][..], &["--no-reuse", "--workers", "1"][..]] {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("tests");
        let mut args = vec!["--scope", "4", "--output-dir", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let j = exh("ds.BadEqualsList", &args);
        let mut f: Vec<(String, usize)> = j["failures"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["exception"].as_str().unwrap().to_string(),
                    f["sequence"].as_array().unwrap().len(),
                )
            })
            .collect();
        f.sort();
        assert_eq!(
            f,
            vec![
                (
                    "contract equals-reflexive: x.equals(x) is false".to_string(),
                    // new, three (literal, add) pairs
                    7
                ),
                (
                    "contract hashcode-throws: java.lang.IllegalStateException".to_string(),
                    3
                ),
                // Object.toString calls hashCode
                (
                    "contract tostring-throws: java.lang.IllegalStateException".to_string(),
                    3
                ),
            ],
            "{j}"
        );
        let cp = subjects_exh().display().to_string();
        assert!(compile_and_run_junit4(&out, &cp).failures.is_empty());
        let run = compile_and_run_junit4(&d.path().join("jforge-error-tests"), &cp);
        let errs: Vec<_> = run
            .failures
            .iter()
            .filter(|(t, _)| t.contains("ErrorTest"))
            .collect();
        assert_eq!(errs.len(), 3, "{}", run.output);
        assert!(
            run.failures.iter().all(|(t, _)| t.contains("ErrorTest")),
            "{}",
            run.output
        );
        whats.push((f, structures(&j)));
    }
    assert_eq!(whats[0], whats[1]);
    // --no-contracts: nothing checked
    let j = exh("ds.BadEqualsList", &["--scope", "4", "--no-contracts"]);
    assert_eq!(j["failures"].as_array().unwrap().len(), 0, "{j}");
}

#[test]
fn red_black_tree_removal_keeps_the_invariants() {
    // our RBT's remove (TreeMap's algorithm) checked by its own repOK on every structure the
    // API builds; add+remove reaches shapes add alone cannot
    let b = |re: &str| {
        let f = crate::support::run_dir().join(format!("jf-rbt-{}", re.len()));
        std::fs::write(&f, re).unwrap();
        f.display().to_string()
    };
    let both = b(r"ds\.RedBlackTree(\(\)|\.add\(.*|\.remove\(.*)");
    let add = b(r"ds\.RedBlackTree(\(\)|\.add\(.*)");
    let j = exh(
        "ds.RedBlackTree",
        &["--scope", "6", "--builders", &both, "--check", "repOK"],
    );
    assert_eq!(
        j["counterexamples"].as_array().map(|a| a.len()),
        Some(0),
        "{j}"
    );
    let j_add = exh("ds.RedBlackTree", &["--scope", "6", "--builders", &add]);
    assert!(structures(&j) > structures(&j_add), "{j} vs {j_add}");
}

#[test]
fn too_strong_rep_ok_is_flagged_by_check() {
    let j = exh("ds.StrongRepOkList", &["--scope", "3", "--check", "repOK"]);
    assert_eq!(structures(&j), 40);
    // lists of length <= 3 over {0,1,2} with two equal adjacent values: 3 + (27 - 3*2*2)
    assert_eq!(j["counterexamples"].as_array().unwrap().len(), 3 + 15);
    // a correct repOK yields none
    let j = exh("ds.BinarySearchTree", &["--scope", "4", "--check", "repOK"]);
    assert_eq!(j["counterexamples"].as_array().unwrap().len(), 0);
    assert_eq!(structures(&j), 51);
}

fn exh_err(args: &[&str]) -> String {
    let o = jforge()
        .args(["exhaustive", "-q", "--classpath"])
        .arg(subjects_exh())
        .args(args)
        .output()
        .unwrap();
    assert!(!o.status.success());
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn cli_errors_are_clear() {
    let e = exh_err(&["--class", "ds.NoSuchList", "--scope", "3"]);
    assert!(e.contains("ds.NoSuchList"), "{e}");
    let e = exh_err(&["--class", "ds.SinglyLinkedList", "--scope", "1000"]);
    assert!(e.contains("too large"), "{e}");
    let e = exh_err(&[
        "--class",
        "ds.SinglyLinkedList",
        "--scope",
        "3",
        "--ints",
        "5",
    ]);
    assert!(e.contains("--ints"), "{e}");
    let e = exh_err(&[
        "--class",
        "ds.SinglyLinkedList",
        "--scope",
        "3",
        "--ints",
        "3:1",
    ]);
    assert!(e.contains("--ints"), "{e}");
    let e = exh_err(&[
        "--class",
        "ds.SinglyLinkedList",
        "--scope",
        "4",
        "--max-memory",
        "0",
    ]);
    assert!(e.contains("scope too large for memory"), "{e}");
    // up front round 6 fits (1,555 structures kept + a frontier of 1,296); during it the
    // 7,776 new lists of five pass 1 MiB and the search stops with what it reached
    let e = exh_err(&[
        "--class",
        "ds.SinglyLinkedList",
        "--scope",
        "6",
        "--max-memory",
        "1",
        "--batch",
        "50",
    ]);
    assert!(e.contains("round 6 reached the budget of 1 MiB"), "{e}");
    // a selection without a constructor builds nothing: refused, with an example line
    let d = tempfile::tempdir().unwrap();
    let builders = d.path().join("b.txt");
    std::fs::write(&builders, "ds\\.AvlTree\\.add\\(.*\n").unwrap();
    let e = exh_err(&[
        "--class",
        "ds.AvlTree",
        "--scope",
        "3",
        "--builders",
        builders.to_str().unwrap(),
    ]);
    assert!(
        e.contains("--builders selects no constructor") && e.contains("ds\\.AvlTree\\(\\)"),
        "{e}"
    );
}

#[test]
fn config_file_holds_the_same_settings() {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join("exh.properties");
    std::fs::write(&p, "# BEAPI names\nmax.objects=4\nint.range=0:2\n").unwrap();
    let j = exh("ds.DoublyLinkedList", &["--config", p.to_str().unwrap()]);
    assert_eq!(structures(&j), 40);
    // flags override the file
    let j = exh(
        "ds.DoublyLinkedList",
        &["--config", p.to_str().unwrap(), "--ints", "0:0"],
    );
    assert_eq!(structures(&j), 4);
}

#[test]
fn omitted_fields_are_left_out_of_the_form() {
    // without `size`, a BST's form is its shape and keys only: same count (size is derived)
    let j = exh(
        "ds.BinarySearchTree",
        &["--scope", "3", "--omit-fields", "size"],
    );
    assert_eq!(structures(&j), 15);
    // without `value`, lists differ only by length
    let j = exh(
        "ds.SinglyLinkedList",
        &["--scope", "3", "--omit-fields", "value"],
    );
    assert_eq!(structures(&j), 4);
}

#[test]
fn java_util_treemap_scope_2() {
    // TreeMap<String,Integer> with keys {a,b}, values {0,1}, at most 2 entries: the empty map,
    // 2*2 one-entry maps, and two-entry maps: 2 values each * 2 shapes (either key at the
    // root, the other its child) = 1 + 4 + 8 (modCount omitted)
    let j = exh(
        "java.util.TreeMap",
        &[
            "--scope",
            "2",
            "--builders",
            &{
                let d = crate::support::run_dir().join("jf-b");
                std::fs::write(
                    &d,
                    "java\\.util\\.TreeMap\\(\\)\njava\\.util\\.TreeMap\\.put\\(.*\n",
                )
                .unwrap();
                d.display().to_string()
            },
            "--omit-fields",
            "modCount",
        ],
    );
    assert_eq!(structures(&j), 1 + 4 + 2 * 2 * 2);
}

#[test]
fn java_util_hashmap_matches_the_closed_formula() {
    // HashMap<Integer,Integer>, keys and values 0..n-1, put and remove, modCount omitted: the
    // n keys fall in distinct buckets of the 16-slot table, so a structure is a partial map
    // from n keys to n values, (n+1)^n of them, plus the empty map whose table was already
    // allocated (a put then a remove) next to the fresh one whose table is still null.
    for n in [3u32, 4] {
        let j = exh(
            "java.util.HashMap",
            &[
                "--scope",
                &n.to_string(),
                "--methods",
                r"java\.util\.HashMap(\(\)|\.put\(.*|\.remove\(.*)",
                "--omit-fields",
                "modCount",
            ],
        );
        assert_eq!(structures(&j), (n as u64 + 1).pow(n) + 1, "scope {n}");
    }
}

/// Canonical forms: isomorphic heaps give equal forms, non-isomorphic ones different forms.
mod canon_props {
    use super::*;
    use jforge::model::{JType, Prim};
    use jforge::runner::java::find_java;
    use jforge::runner::{CANON_OP, ExecMode, ExecRequest, Pool, PoolConfig};
    use jforge::sequence::{OpKind, OpTable, Operation, Sequence, Stmt, Value};
    use proptest::prelude::*;
    use std::sync::Arc;

    #[derive(Clone, Debug)]
    struct G {
        labels: Vec<i32>,
        a: Vec<i32>,
        b: Vec<i32>,
        root: i32,
    }

    fn graph() -> impl Strategy<Value = (G, Vec<usize>, (usize, u8, i32))> {
        (1usize..6).prop_flat_map(|n| {
            let e = -1..n as i32;
            (
                proptest::collection::vec(0..2i32, n),
                proptest::collection::vec(e.clone(), n),
                proptest::collection::vec(e, n),
                0..n as i32,
                Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
                (0..n, 0u8..3, -1..n as i32),
            )
                .prop_map(|(labels, a, b, root, perm, m)| (G { labels, a, b, root }, perm, m))
        })
    }

    /// The same graph with node i renamed perm[i].
    fn permute(g: &G, p: &[usize]) -> G {
        let n = g.labels.len();
        let mut h = G {
            labels: vec![0; n],
            a: vec![-1; n],
            b: vec![-1; n],
            root: p[g.root as usize] as i32,
        };
        let m = |x: i32| if x < 0 { -1 } else { p[x as usize] as i32 };
        #[allow(clippy::needless_range_loop)]
        for i in 0..n {
            h.labels[p[i]] = g.labels[i];
            h.a[p[i]] = m(g.a[i]);
            h.b[p[i]] = m(g.b[i]);
        }
        h
    }

    /// Independent reference: DFS linearization of the part reachable from the root.
    fn reference(g: &G) -> Vec<i64> {
        let mut ids = std::collections::HashMap::new();
        let mut out = Vec::new();
        fn walk(g: &G, x: i32, ids: &mut std::collections::HashMap<i32, i64>, out: &mut Vec<i64>) {
            if x < 0 {
                out.push(-1);
                return;
            }
            if let Some(id) = ids.get(&x) {
                out.push(1000 + id);
                return;
            }
            ids.insert(x, ids.len() as i64);
            out.push(-2);
            out.push(g.labels[x as usize] as i64);
            walk(g, g.a[x as usize], ids, out);
            walk(g, g.b[x as usize], ids, out);
        }
        walk(g, g.root, &mut ids, &mut out);
        out
    }

    fn request(g: &G) -> ExecRequest {
        let mut s = Sequence::default();
        let arr = |v: &[i32], s: &mut Sequence| {
            let mut elems = Vec::new();
            for &x in v {
                s.stmts.push(Stmt::Lit {
                    ty: JType::Prim(Prim::Int),
                    value: Value::Int(x),
                });
                elems.push(s.stmts.len() as u32 - 1);
            }
            s.stmts.push(Stmt::Array {
                elem: JType::Prim(Prim::Int),
                elems,
            });
            s.stmts.len() as u32 - 1
        };
        let l = arr(&g.labels, &mut s);
        let a = arr(&g.a, &mut s);
        let b = arr(&g.b, &mut s);
        s.stmts.push(Stmt::Lit {
            ty: JType::Prim(Prim::Int),
            value: Value::Int(g.root),
        });
        let r = s.stmts.len() as u32 - 1;
        s.stmts.push(Stmt::Call {
            op: 0,
            args: vec![l, a, b, r],
        });
        let last = s.stmts.len() as u32 - 1;
        ExecRequest {
            seq: Arc::new(s),
            mode: ExecMode::Canon,
            contract_values: vec![],
            observers: vec![(last, CANON_OP)],
            reuse: None,
        }
    }

    fn form(r: &jforge::runner::SeqResult) -> String {
        assert!(r.first_abnormal().is_none(), "{r:?}");
        match &r.observers[0].result {
            Ok(Value::Str(s)) => s.clone(),
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn isomorphic_heaps_equal_non_isomorphic_differ() {
        let java = find_java(None).unwrap();
        // text forms, and the hash mode the search uses (tokens hashed, no text built)
        let start = |text: bool| {
            Pool::start(PoolConfig {
                java: java.java.clone(),
                classpath: vec![subjects_exh()],
                workers: 1,
                call_timeout: std::time::Duration::from_secs(5),
                heap_mb: 256,
                extra_jvm_args: if text {
                    vec!["-Djforge.canon.text=true".into()]
                } else {
                    vec![]
                },
            })
            .unwrap()
        };
        let mut pool = start(true);
        let mut hpool = start(false);
        let ia = JType::Array(Box::new(JType::Prim(Prim::Int)));
        let mut t = OpTable::default();
        t.intern(Operation {
            kind: OpKind::Constructor,
            class: "ds.Graph".into(),
            name: "<init>".into(),
            descriptor: "([I[I[II)V".into(),
            owner: JType::class("ds.Graph"),
            params: vec![ia.clone(), ia.clone(), ia, JType::Prim(Prim::Int)],
            ret: Some(JType::class("ds.Graph")),
            varargs: false,
            overloaded: false,
            method_type_args: vec![],
            outer_instance: false,
            stub: None,
        });
        assert!(pool.register(&t).unwrap().is_empty());
        assert!(hpool.register(&t).unwrap().is_empty());
        let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(64));
        let pool = std::cell::RefCell::new(pool);
        let hpool = std::cell::RefCell::new(hpool);
        let compared = std::cell::Cell::new((0, 0));
        runner
            .run(&graph(), |(g, perm, (node, field, to))| {
                let h = permute(&g, &perm);
                let mut m = g.clone();
                match field {
                    0 => m.labels[node] ^= 1,
                    1 => m.a[node] = to,
                    _ => m.b[node] = to,
                }
                let res = pool
                    .borrow_mut()
                    .execute(vec![request(&g), request(&h), request(&m)])
                    .unwrap();
                let (fg, fh, fm) = (form(&res[0]), form(&res[1]), form(&res[2]));
                prop_assert_eq!(&fg, &fh);
                let iso = reference(&g) == reference(&m);
                prop_assert_eq!(iso, fg == fm, "{:?} vs {:?}", g, m);
                let res = hpool
                    .borrow_mut()
                    .execute(vec![request(&g), request(&h), request(&m)])
                    .unwrap();
                let (hg, hh, hm) = (form(&res[0]), form(&res[1]), form(&res[2]));
                prop_assert_eq!(hg.len(), 32, "a 128-bit hash in hex: {}", hg);
                prop_assert_eq!(&hg, &hh);
                prop_assert_eq!(iso, hg == hm, "hash mode: {:?} vs {:?}", g, m);
                let (x, y) = compared.get();
                compared.set(if iso { (x + 1, y) } else { (x, y + 1) });
                Ok(())
            })
            .unwrap();
        pool.into_inner().shutdown();
        hpool.into_inner().shutdown();
        let compared = compared.get();
        assert!(
            compared.1 > 10,
            "too few non-isomorphic pairs: {compared:?}"
        );
    }
}

#[test]
fn a_search_past_its_time_limit_gives_up_with_the_budget_status() {
    // modCount in the form: no fixpoint ever (users waited ten silent minutes on such a run)
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("s.json");
    let out = d.path().join("tests");
    let started = std::time::Instant::now();
    let o = jforge()
        .args(["exhaustive", "-q", "--classpath"])
        .arg(subjects_exh())
        .args(["--class", "ds.NodeCachingLinkedList", "--scope", "6"])
        .args(["--time-limit", "4s", "--stats-json"])
        .arg(&json)
        .arg("--output-dir")
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(
        err.contains("time limit of 4s reached") && err.contains("raise --time-limit"),
        "{err}"
    );
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    assert!(
        !out.exists() || java_files(&out).is_empty(),
        "a partial suite was written"
    );
    // a bad value is refused before anything starts
    let o = jforge()
        .args(["exhaustive", "--class", "ds.X", "--time-limit", "soon"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--time-limit"));
}

/// Runs `jforge exhaustive` on the subjects with `args`; the process output.
fn exh_output(args: &[&str]) -> std::process::Output {
    jforge()
        .args(["exhaustive", "-q", "--classpath"])
        .arg(subjects_exh())
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn an_index_checked_get_is_expected_behaviour_not_a_failure() {
    // gen's contracts (crate::contracts): IndexOutOfBoundsException from get(i) on a shorter
    // list is an invalid argument, not a bug; lists of at most 4 ints of 0..2: 1+3+9+27+81
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("s.json");
    let args = [
        "--class",
        "ds.IntList",
        "--scope",
        "3",
        "--max-array",
        "4",
        "--output-dir",
        out.to_str().unwrap(),
        "--stats-json",
        json.to_str().unwrap(),
    ];
    let o = exh_output(&args);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let j = read_json(&json);
    assert_eq!(structures(&j), 121, "{j}");
    assert_eq!(j["failures"].as_array().unwrap().len(), 0, "{j}");
    // get(0..2) on the lists shorter than the index: 3 (empty) + 2*3 + 1*9
    assert_eq!(j["misuse_dropped"], 18, "{j}");
    assert!(!d.path().join("jforge-error-tests").exists());
    let cp = subjects_exh().display().to_string();
    let run = compile_and_run_junit4(&out, &cp);
    assert_eq!(run.tests_run, 121, "{}", run.output);
    assert!(run.failures.is_empty(), "{}", run.output);

    // --error-exceptions means what it means for gen: the same call is now a failure, with
    // its shortest sequence, and a failure test that fails with it
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("s.json");
    let mut args = args.to_vec();
    args[7] = out.to_str().unwrap();
    args[9] = json.to_str().unwrap();
    args.extend([
        "--error-exceptions",
        "java.lang.IndexOutOfBoundsException",
        "--misuse-exceptions",
        "java.lang.IllegalStateException",
    ]);
    let o = exh_output(&args);
    assert_eq!(o.status.code(), Some(3), "{o:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("--misuse-exceptions is ignored"), "{err}");
    let j = read_json(&json);
    let f = j["failures"].as_array().unwrap();
    assert_eq!(f.len(), 1, "{j}");
    assert_eq!(f[0]["exception"], "java.lang.IndexOutOfBoundsException");
    assert_eq!(f[0]["occurrences"], 18, "{j}");
    assert_eq!(f[0]["sequence"].as_array().unwrap().len(), 3, "{j}");
    let run = compile_and_run_junit4(&d.path().join("jforge-error-tests"), &cp);
    assert_eq!(run.failures.len(), 1, "{}", run.output);
    assert!(
        run.failures[0].1.contains("declared-exception"),
        "{}",
        run.output
    );
}

#[test]
fn a_class_behind_a_builder_is_built_through_it() {
    // ServerConfig's constructor is private: ServerConfig.builder(host), the Builder's
    // port(int) and tls(boolean), then build(). Hosts a,b x ports 80 (the default),0,1 x tls
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("tests");
    let json = d.path().join("s.json");
    let o = exh_output(&[
        "--class",
        "ds.ServerConfig",
        "--scope",
        "2",
        "--output-dir",
        out.to_str().unwrap(),
        "--stats-json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let j = read_json(&json);
    assert_eq!(structures(&j), 2 * 3 * 2, "{j}");
    assert_eq!(
        j["structures_by_class"]["ds.ServerConfig$Builder"], 12,
        "{j}"
    );
    let cp = subjects_exh().display().to_string();
    let run = compile_and_run_junit4(&out, &cp);
    assert_eq!(run.tests_run, 12, "{}", run.output);
    assert!(run.failures.is_empty(), "{}", run.output);
    let text = std::fs::read_to_string(out.join("ds/ServerConfigExhaustiveTest.java")).unwrap();
    assert!(
        text.contains("ServerConfig.Builder builder0 = ServerConfig.builder(\"a\");")
            && text.contains(".tls(true)")
            && text.contains(".build()"),
        "{text}"
    );
}

#[test]
fn a_search_that_builds_nothing_says_why_and_exits_2() {
    // every capacity of the domain (0) is refused by the constructor
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("s.json");
    let o = exh_output(&[
        "--class",
        "ds.LruCache",
        "--scope",
        "3",
        "--ints",
        "0:0",
        "--stats-json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("no structure of ds.LruCache was built")
            && text.contains(
                "ds.LruCache(int) threw java.lang.IllegalArgumentException 1 time (first: \
                 \"capacity must be positive: 0\")"
            )
            && text.contains("widen the domains"),
        "{text}"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("no structure of ds.LruCache was built"),
        "{err}"
    );
    let j = read_json(&json);
    assert_eq!(structures(&j), 0);
    assert_eq!(
        j["no_structures_because"].as_array().unwrap().len(),
        1,
        "{j}"
    );
    // a constructor whose parameter type nothing produces: refused up front, the type named
    let e = exh_err(&["--class", "ds.Span", "--scope", "2"]);
    assert!(
        e.contains("ds.Span has no public constructor or static factory")
            && e.contains(
                "ds.Span(LocalDate,LocalDate): no operation produces java.time.LocalDate"
            ),
        "{e}"
    );
}

#[test]
fn a_search_stopped_by_its_limit_names_the_fields_that_kept_growing() {
    // hits and misses count calls of get, HashMap.modCount counts changes: no fixpoint ever.
    // The memory budget (structures kept, not seconds) stops it at the same round on any
    // machine; a time limit stops it the same way (one path: exhaustive::cmd::explain_limit)
    let o = exh_output(&[
        "--class",
        "ds.LruCache",
        "--scope",
        "3",
        "--max-memory",
        "4",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(
        err.contains("round 11 would hold at least") && err.contains("raise --max-memory"),
        "{err}"
    );
    for f in [
        "ds.LruCache.hits (up to ",
        "ds.LruCache.misses (up to ",
        "java.util.HashMap.modCount (up to ",
    ] {
        assert!(err.contains(f), "{f}: {err}");
    }
    assert!(!err.contains("ds.LruCache.capacity"), "{err}");
    assert!(
        err.trim_end()
            .ends_with("--omit-fields 'hits|misses|modCount'"),
        "{err}"
    );
    // the line it suggests ends the search: capacity 1 holds nothing or one of 3x3 entries
    // (10), capacity 2 also two distinct keys in order (1 + 9 + 6*9 = 64); eldest() caches
    // the map's key set (a field) on every non-empty map: 74 + 72
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("s.json");
    let o = exh_output(&[
        "--class",
        "ds.LruCache",
        "--scope",
        "3",
        "--omit-fields",
        "hits|misses|modCount",
        "--stats-json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let j = read_json(&json);
    assert_eq!(j["fixpoint"], true);
    assert_eq!(structures(&j), 146, "{j}");
}

#[test]
fn gen_and_exhaustive_agree_on_what_a_bug_is() {
    // the same subject, the same flag, the same verdicts: no error without --error-exceptions
    // (an index-checked get throwing is expected behaviour), an error with it
    for (extra, status) in [
        (&[][..], 0),
        (
            &["--error-exceptions", "java.lang.IndexOutOfBoundsException"][..],
            3,
        ),
    ] {
        let d = tempfile::tempdir().unwrap();
        let out = d.path().join("tests");
        let o = jforge()
            .current_dir(d.path())
            .args(["gen", "-q", "--classpath"])
            .arg(subjects_exh())
            .args(["--class", "ds.IntList", "--generated-limit", "2000"])
            .args(["--no-validate", "--output-dir"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(status), "gen {extra:?}: {o:?}");
        let errors = java_files(&d.path().join("jforge-error-tests"));
        assert_eq!(errors.len(), status as usize / 3, "{errors:?}");
        let mut args = vec!["--class", "ds.IntList", "--scope", "3", "--max-array", "4"];
        args.extend_from_slice(extra);
        let o = exh_output(&args);
        assert_eq!(o.status.code(), Some(status), "exhaustive {extra:?}: {o:?}");
    }
}
