//! Probe counts of the instrumenter checked against hand-counted subject methods, for class
//! files produced by `javac --release 8, 11 and 17`, and robustness against malformed input.

use crate::support::instrument as instrument_support;

use instrument_support::*;
use jforge::instrument::{ProbeKind, ProbeMap, instrument_class};
use std::collections::HashMap;

/// (class, method, descriptor, distinct source lines, conditional jumps, switch probes).
/// Total probes = 1 (entry) + lines + 2 * conditionals + switch probes (cases + defaults).
const EXPECTED: &[(&str, &str, &str, u32, u32, u32)] = &[
    ("subj/Branches", "<init>", "()V", 1, 0, 0),
    ("subj/Branches", "sign", "(I)I", 3, 1, 0),
    // tableswitch: 3 cases + default
    ("subj/Branches", "table", "(I)Ljava/lang/String;", 5, 0, 4),
    // lookupswitch: 3 cases + default
    ("subj/Branches", "lookup", "(I)I", 5, 0, 4),
    // for loop: init line, header line (twice in the table), body, return
    ("subj/Branches", "sum", "(I)I", 4, 1, 0),
    // try/catch/finally: 7 distinct lines, finally copied 3 times, no branches
    ("subj/Branches", "tryIt", "(Ljava/lang/String;)I", 7, 0, 0),
    ("subj/Branches", "tern", "(II)I", 1, 3, 0),
    // string switch: lookupswitch on hashCode (2 + default), 2 equals checks,
    // second switch on the index (2 + default)
    ("subj/Branches", "str", "(Ljava/lang/String;)I", 4, 2, 6),
    ("subj/Branches", "make", "(I)Ljava/lang/Object;", 1, 1, 0),
    // tableswitch 1..4 with 1 and 2 sharing a target and 3 (a gap) the default's: 3 distinct
    // targets, 3 branches, as JaCoCo counts them
    ("subj/Branches", "shared", "(I)Ljava/lang/String;", 4, 0, 3),
    // 8 lines; the else-if line is entered mid-line too, with the same probe
    ("subj/Branches", "kind", "(Ljava/lang/Object;I)I", 8, 3, 0),
    ("subj/Base", "<init>", "(Ljava/lang/String;)V", 3, 0, 0),
    ("subj/Base", "tag", "()Ljava/lang/String;", 1, 0, 0),
    ("subj/Ctor", "<init>", "(I)V", 2, 1, 0),
    ("subj/Ctor", "tagOf", "(I)Ljava/lang/String;", 1, 0, 0),
    ("subj/Lambdas", "<init>", "()V", 1, 0, 0),
    (
        "subj/Lambdas",
        "positive",
        "()Ljava/util/function/IntPredicate;",
        1,
        0,
        0,
    ),
    ("subj/Lambdas", "lambda$positive$0", "(I)Z", 1, 1, 0),
    ("subj/Lambdas", "test", "(I)Z", 1, 0, 0),
    ("subj/Lambdas$Shape", "<init>", "()V", 1, 0, 0),
];

fn count(map: &ProbeMap, name: &str, desc: &str) -> (u32, u32, u32, u32, u32) {
    let ps = map.method_probes(name, desc);
    let k = |f: &dyn Fn(ProbeKind) -> bool| ps.iter().filter(|p| f(p.kind)).count() as u32;
    (
        k(&|x| x == ProbeKind::MethodEntry),
        k(&|x| x == ProbeKind::Line),
        k(&|x| x == ProbeKind::BranchTaken),
        k(&|x| x == ProbeKind::BranchNotTaken),
        k(&|x| matches!(x, ProbeKind::SwitchCase { .. } | ProbeKind::SwitchDefault)),
    )
}

fn compile_and_instrument(release: u32) -> HashMap<String, ProbeMap> {
    let tmp = tempfile::tempdir().unwrap();
    let classes = tmp.path().join("classes");
    javac(
        release,
        &java_files(&subjects_dir().join("subj")),
        None,
        &classes,
    );
    instrument_dir(&classes, &tmp.path().join("out"))
}

#[test]
fn probe_counts_match_hand_counts_for_release_8_11_17() {
    for release in [8, 11, 17] {
        let maps = compile_and_instrument(release);
        for &(class, name, desc, lines, conds, switch) in EXPECTED {
            let map = maps
                .get(class)
                .unwrap_or_else(|| panic!("release {release}: class {class} missing"));
            let got = count(map, name, desc);
            assert_eq!(
                got,
                (1, lines, conds, conds, switch),
                "release {release}: {class}.{name}{desc} (entry, lines, taken, not-taken, switch)"
            );
            let m = map
                .methods
                .iter()
                .find(|m| m.name == name && m.descriptor == desc)
                .unwrap();
            assert_eq!(m.probe_count, 1 + lines + 2 * conds + switch);
        }
        // Abstract and native methods have no probes and no method entry.
        let shape = &maps["subj/Lambdas$Shape"];
        assert!(shape.methods.iter().all(|m| m.name == "<init>"));
        // Every method of every subject class is covered by EXPECTED (but subj/Compares, the
        // comparison-logging corpus, whose operands instrument_verify checks).
        for (class, map) in maps.iter().filter(|(c, _)| *c != "subj/Compares") {
            for m in &map.methods {
                assert!(
                    EXPECTED
                        .iter()
                        .any(|e| e.0 == class && e.1 == m.name && e.2 == m.descriptor),
                    "release {release}: unexpected method {class}.{}{}",
                    m.name,
                    m.descriptor
                );
            }
        }
    }
}

#[test]
fn switch_probes_carry_case_keys_and_lines() {
    let maps = compile_and_instrument(8);
    let src = std::fs::read_to_string(subjects_dir().join("subj/Branches.java")).unwrap();
    let map = &maps["subj/Branches"];
    let ps = map.method_probes("lookup", "(I)I");
    let mut keys: Vec<i32> = ps
        .iter()
        .filter_map(|p| match p.kind {
            ProbeKind::SwitchCase { key } => Some(key),
            _ => None,
        })
        .collect();
    keys.sort();
    assert_eq!(keys, vec![10, 1000, 100000]);
    let switch_line = marker_line(&src, "lookup-switch");
    for p in ps.iter().filter(|p| p.kind != ProbeKind::Line) {
        assert_eq!(p.line, Some(switch_line), "{p:?}");
    }
    let mut lines: Vec<u32> = ps
        .iter()
        .filter(|p| p.kind == ProbeKind::Line)
        .map(|p| p.line.unwrap())
        .collect();
    lines.sort();
    let want: Vec<u32> = [
        "lookup-switch",
        "lookup-10",
        "lookup-1000",
        "lookup-100000",
        "lookup-default",
    ]
    .iter()
    .map(|m| marker_line(&src, m))
    .collect();
    assert_eq!(lines, want);
}

#[test]
fn probe_ids_are_global_and_contiguous() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = tmp.path().join("classes");
    javac(8, &java_files(&subjects_dir().join("subj")), None, &classes);
    let bytes = std::fs::read(classes.join("subj/Branches.class")).unwrap();
    let a = instrument_class(&bytes, 7, 0).unwrap();
    let b = instrument_class(&bytes, 7, 40_000).unwrap();
    assert_eq!(a.probes.class_id, 7);
    assert_eq!(a.probes.probe_count, b.probes.probe_count);
    assert_eq!(b.probes.end(), 40_000 + b.probes.probe_count);
    for (k, p) in b.probes.probes.iter().enumerate() {
        assert_eq!(p.id, 40_000 + k as u32);
    }
    let mut next = 40_000;
    for m in &b.probes.methods {
        assert_eq!(m.first_probe, next);
        next += m.probe_count;
    }
    assert_eq!(next, b.probes.end());
    // Ids above 32767 are loaded with ldc_w from the constant pool, so the classes differ.
    assert_ne!(a.bytes, b.bytes);
}

/// Source of a method whose bytecode exceeds 32 KiB, so javac must use goto_w ("fat code").
/// Returns (source, distinct lines in `big`, conditional jumps in `big`).
pub fn big_source() -> (String, u32, u32) {
    let mut s =
        String::from("package subj;\n\npublic class Big {\n    public static int big(int x) {\n");
    s.push_str("        int a = x;\n        if (x > 0) {\n");
    let mut lines = 3; // int a, if, return
    let mut conds = 1;
    for k in 0..110 {
        s.push_str("            ");
        for _ in 0..40 {
            s.push_str("a = a * 31 + 7; ");
        }
        s.push('\n');
        lines += 1;
        if k % 10 == 5 {
            s.push_str("            if (a > 5) a++;\n");
            lines += 1;
            conds += 1;
        }
    }
    s.push_str("        }\n        return a;\n    }\n}\n");
    (s, lines, conds)
}

#[test]
fn long_method_with_wide_jumps_has_exact_probe_count() {
    let (src, lines, conds) = big_source();
    let tmp = tempfile::tempdir().unwrap();
    let f = tmp.path().join("Big.java");
    std::fs::write(&f, src).unwrap();
    for release in [8, 17] {
        let out = tmp.path().join(format!("c{release}"));
        javac(release, std::slice::from_ref(&f), None, &out);
        let bytes = std::fs::read(out.join("subj/Big.class")).unwrap();
        let ins = instrument_class(&bytes, 0, 0).unwrap();
        let m = ins.probes.methods.iter().find(|m| m.name == "big").unwrap();
        assert_eq!(m.skipped, None);
        assert_eq!(
            count(&ins.probes, "big", "(I)I"),
            (1, lines, conds, conds, 0)
        );
    }
}

#[test]
fn malformed_input_gives_errors_not_panics() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = tmp.path().join("classes");
    javac(8, &java_files(&subjects_dir().join("subj")), None, &classes);
    let bytes = std::fs::read(classes.join("subj/Branches.class")).unwrap();
    assert!(instrument_class(&[], 0, 0).is_err());
    assert!(instrument_class(b"not a class file", 0, 0).is_err());
    let mut errors = 0;
    for cut in 0..bytes.len() {
        if instrument_class(&bytes[..cut], 0, 0).is_err() {
            errors += 1;
        }
    }
    assert_eq!(errors, bytes.len(), "every truncation must be rejected");
    // Deterministic byte flips: must return (Ok or Err) without panicking.
    let mut state = 0x2545_f491_u32;
    for _ in 0..3000 {
        let mut b = bytes.clone();
        for _ in 0..3 {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            let i = state as usize % b.len();
            b[i] = (state >> 8) as u8;
        }
        let _ = instrument_class(&b, 0, 0);
    }
}

/// A switch has one branch probe per distinct target, as JaCoCo counts a switch's branches:
/// `case 1: case 2:` share one (it takes the first key), and the tableswitch's gap key 3
/// goes to the default, whose probe it shares.
#[test]
fn switch_entries_with_one_target_share_a_probe() {
    for release in [8, 17] {
        let maps = compile_and_instrument(release);
        let ps = maps["subj/Branches"].method_probes("shared", "(I)Ljava/lang/String;");
        let mut kinds: Vec<String> = ps
            .iter()
            .filter_map(|p| match p.kind {
                ProbeKind::SwitchCase { key } => Some(format!("case {key}")),
                ProbeKind::SwitchDefault => Some("default".to_string()),
                _ => None,
            })
            .collect();
        kinds.sort();
        assert_eq!(kinds, ["case 1", "case 4", "default"], "release {release}");
    }
}
