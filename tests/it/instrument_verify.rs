//! Instrumented subject classes must pass the JVM verifier (`-Xverify:all`, split verifier
//! using our rewritten StackMapTables) and record exactly the expected probes.

use crate::support::instrument as instrument_support;

use instrument_support::*;
use jforge::instrument::{Probe, ProbeKind, ProbeMap};
use std::collections::{BTreeSet, HashMap};

struct Run {
    maps: HashMap<String, ProbeMap>,
    src: String,
    _tmp: tempfile::TempDir,
    cp: String,
}

fn setup(release: u32) -> Run {
    let tmp = tempfile::tempdir().unwrap();
    let classes = tmp.path().join("classes");
    let mut sources = java_files(&subjects_dir().join("subj"));
    let big = tmp.path().join("Big.java");
    std::fs::write(&big, big_source()).unwrap();
    sources.push(big);
    javac(release, &sources, None, &classes);
    let out = tmp.path().join("instrumented");
    let maps = instrument_dir(&classes, &out);
    let drv = tmp.path().join("driver");
    build_driver(&drv);
    let cp = format!("{}:{}", drv.display(), out.display());
    Run {
        maps,
        src: std::fs::read_to_string(subjects_dir().join("subj/Branches.java")).unwrap(),
        _tmp: tmp,
        cp,
    }
}

/// The big-method subject (same shape as in instrument_probes.rs) and its result in Rust.
fn big_source() -> String {
    let mut s =
        String::from("package subj;\npublic class Big {\n  public static int big(int x) {\n");
    s.push_str("    int a = x;\n    if (x > 0) {\n");
    for k in 0..110 {
        for _ in 0..40 {
            s.push_str("a = a * 31 + 7; ");
        }
        s.push('\n');
        if k % 10 == 5 {
            s.push_str("      if (a > 5) a++;\n");
        }
    }
    s.push_str("    }\n    return a;\n  }\n}\n");
    s
}

fn big_expected(x: i32) -> i32 {
    let mut a = x;
    if x > 0 {
        for k in 0..110 {
            for _ in 0..40 {
                a = a.wrapping_mul(31).wrapping_add(7);
            }
            if k % 10 == 5 && a > 5 {
                a += 1;
            }
        }
    }
    a
}

/// Runs calls; returns (result, hit ids, logged comparison operands) per call and fails on
/// any VerifyError.
fn calls(run: &Run, lines: &[&str]) -> Vec<(String, BTreeSet<u32>, Vec<i64>)> {
    let out = run_driver(&run.cp, &[], &lines.join("\n"));
    assert_eq!(out.len(), lines.len(), "driver output: {out:#?}");
    out.iter()
        .zip(lines)
        .map(|(l, call)| {
            let (res, rest) = l.split_once("\tHITS ").expect("driver line format");
            let (hits, nums) = rest.split_once("\tNUMS ").expect("driver line format");
            assert!(!res.starts_with("ERR"), "{call}: {res}");
            let ids = hits
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect();
            let nums = nums
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| s.parse().unwrap())
                .collect();
            (res.to_string(), ids, nums)
        })
        .collect()
}

fn method<'a>(run: &'a Run, class: &str, name: &str) -> Vec<&'a Probe> {
    let map = &run.maps[class];
    let m = map
        .methods
        .iter()
        .find(|m| m.name == name)
        .unwrap_or_else(|| panic!("{class}.{name} not instrumented"));
    map.method_probes(&m.name, &m.descriptor)
}

fn id_of(ps: &[&Probe], kind: ProbeKind) -> u32 {
    let v: Vec<u32> = ps.iter().filter(|p| p.kind == kind).map(|p| p.id).collect();
    assert_eq!(v.len(), 1, "{kind:?}");
    v[0]
}

fn line_id(run: &Run, ps: &[&Probe], marker: &str) -> u32 {
    let line = marker_line(&run.src, marker);
    ps.iter()
        .find(|p| p.kind == ProbeKind::Line && p.line == Some(line))
        .unwrap_or_else(|| panic!("no line probe for {marker} (line {line})"))
        .id
}

/// Branch probes of a method grouped per conditional jump, in bytecode order:
/// (taken, not taken).
fn branches(ps: &[&Probe]) -> Vec<(u32, u32)> {
    let mut offs: Vec<u32> = ps
        .iter()
        .filter(|p| p.kind == ProbeKind::BranchTaken)
        .map(|p| p.offset)
        .collect();
    offs.sort();
    offs.iter()
        .map(|&o| {
            let f = |k| ps.iter().find(|p| p.offset == o && p.kind == k).unwrap().id;
            (f(ProbeKind::BranchTaken), f(ProbeKind::BranchNotTaken))
        })
        .collect()
}

fn set(v: &[u32]) -> BTreeSet<u32> {
    v.iter().copied().collect()
}

fn check_release(release: u32) {
    let run = setup(release);
    // Every instrumented subject class loads and initialises under -Xverify:all.
    let names: Vec<String> = run.maps.keys().map(|n| n.replace('/', ".")).collect();
    let list = run._tmp.path().join("names.txt");
    std::fs::write(&list, names.join("\n")).unwrap();
    let out = run_driver(&run.cp, &["load", list.to_str().unwrap()], "");
    assert_eq!(
        out.last().map(String::as_str),
        Some(format!("SUMMARY ok={} verify=0 other=0", names.len()).as_str()),
        "release {release}: {out:#?}"
    );
    let b = "subj.Branches";
    let res = calls(
        &run,
        &[
            &format!("call {b} sign i:5"),
            &format!("call {b} sign i:-5"),
            &format!("call {b} table i:2"),
            &format!("call {b} table i:9"),
            &format!("call {b} lookup i:1000"),
            &format!("call {b} sum i:3"),
            &format!("call {b} sum i:0"),
            &format!("call {b} tryIt s:12"),
            &format!("call {b} tryIt s:x"),
            &format!("call {b} tern i:1 i:-1"),
            &format!("call {b} str s:b"),
            &format!("call {b} make i:1"),
            "call subj.Ctor tagOf i:3",
            "call subj.Ctor tagOf i:-3",
            "call subj.Lambdas test i:4",
            "call subj.Big big i:5",
            "call subj.Big big i:-5",
            "call subj.Compares f i:7",
            "call subj.Compares f i:4242",
            "call subj.Compares lng j:7",
            "call subj.Compares lng j:123456789012",
            "call subj.Compares chr c:a",
            "call subj.Compares range i:5",
            "call subj.Compares range i:90005",
            "call subj.Compares loop i:100",
            "call subj.Compares sw i:5",
            "call subj.Compares sw i:777",
            "call subj.Compares deep i:1 i:2 i:2 i:3",
            "call subj.Compares deepLong j:1 j:2 i:4",
            "call subj.Compares guarded i:3",
            "call subj.Compares guarded i:-3",
            "call subj.Compares cmpInCtor i:3",
            "call subj.Compares cmpInCtor i:-3",
            &format!("call {b} kind i:7 i:1"),
        ],
    );
    let ctx = format!("release {release}");

    // Comparison logging: the exact operands of if_icmp* / lcmp (unequal ones), in pairs.
    let nums = |k: usize| res[17 + k].2.clone();
    let outs = |k: usize| res[17 + k].0.clone();
    assert_eq!(
        (outs(0), nums(0)),
        ("OK 0".into(), vec![7, 4242]),
        "{ctx} f(7)"
    );
    assert_eq!((outs(1), nums(1)), ("OK 1".into(), vec![]), "{ctx} f(4242)");
    assert_eq!(
        (outs(2), nums(2)),
        ("OK 0".into(), vec![7, 123_456_789_012, 7, -5]),
        "{ctx} lng(7)"
    );
    assert_eq!((outs(3), nums(3)), ("OK 1".into(), vec![]), "{ctx} lng(id)");
    assert_eq!(
        (outs(4), nums(4)),
        ("OK 0".into(), vec![97, 113, 97, 122]),
        "{ctx} chr('a')"
    );
    assert_eq!((outs(5), nums(5)), ("OK 0".into(), vec![5, 90000]), "{ctx}");
    assert_eq!(
        (outs(6), nums(6)),
        ("OK 1".into(), vec![90005, 90000, 90005, 90010]),
        "{ctx} range(90005)"
    );
    // the loop test `i < n` is logged at most twice per call; then s == 777
    assert_eq!(
        (outs(7), nums(7)),
        ("OK 4950".into(), vec![0, 100, 1, 100, 4950, 777]),
        "{ctx} loop(100)"
    );
    // switch keys come from the probes, not from the log
    assert_eq!((outs(8), nums(8)), ("OK other".into(), vec![]), "{ctx}");
    assert_eq!((outs(9), nums(9)), ("OK a".into(), vec![]), "{ctx}");
    assert_eq!(outs(10), "OK 6", "{ctx} deep");
    assert_eq!(nums(10), vec![3, 1], "{ctx} deep");
    assert_eq!(outs(11), "OK 7", "{ctx} deepLong");
    assert_eq!(nums(11), vec![1, 2], "{ctx} deepLong");
    assert_eq!(outs(12), "OK 3", "{ctx} guarded");
    assert_eq!(outs(13), "OK -1", "{ctx} guarded");
    assert_eq!(outs(14), "OK pos", "{ctx} cmpInCtor");
    assert_eq!(nums(14), vec![3, -3], "{ctx} cmpInCtor");
    assert_eq!(outs(15), "OK neg", "{ctx} cmpInCtor");
    assert!(nums(15).is_empty(), "{ctx} cmpInCtor");

    // sign: `if (x > 0)` compiles to `ifle` to the `return -1` line.
    let ps = method(&run, "subj/Branches", "sign");
    let entry = id_of(&ps, ProbeKind::MethodEntry);
    let (taken, not_taken) = (
        id_of(&ps, ProbeKind::BranchTaken),
        id_of(&ps, ProbeKind::BranchNotTaken),
    );
    let (l_if, l_pos, l_neg) = (
        line_id(&run, &ps, "sign-if"),
        line_id(&run, &ps, "sign-pos"),
        line_id(&run, &ps, "sign-neg"),
    );
    assert_eq!(res[0].0, "OK 1", "{ctx}");
    assert_eq!(
        res[0].1,
        set(&[entry, l_if, l_pos, not_taken]),
        "{ctx} sign(5)"
    );
    assert_eq!(res[1].0, "OK -1", "{ctx}");
    assert_eq!(
        res[1].1,
        set(&[entry, l_if, l_neg, taken]),
        "{ctx} sign(-5)"
    );

    // tableswitch
    let ps = method(&run, "subj/Branches", "table");
    let entry = id_of(&ps, ProbeKind::MethodEntry);
    let sw = line_id(&run, &ps, "table-switch");
    assert_eq!(res[2].0, "OK two");
    assert_eq!(
        res[2].1,
        set(&[
            entry,
            sw,
            line_id(&run, &ps, "table-2"),
            id_of(&ps, ProbeKind::SwitchCase { key: 2 })
        ]),
        "{ctx} table(2)"
    );
    assert_eq!(res[3].0, "OK many");
    assert_eq!(
        res[3].1,
        set(&[
            entry,
            sw,
            line_id(&run, &ps, "table-default"),
            id_of(&ps, ProbeKind::SwitchDefault)
        ]),
        "{ctx} table(9)"
    );

    // lookupswitch
    let ps = method(&run, "subj/Branches", "lookup");
    assert_eq!(res[4].0, "OK 2");
    assert_eq!(
        res[4].1,
        set(&[
            id_of(&ps, ProbeKind::MethodEntry),
            line_id(&run, &ps, "lookup-switch"),
            line_id(&run, &ps, "lookup-1000"),
            id_of(&ps, ProbeKind::SwitchCase { key: 1000 })
        ]),
        "{ctx} lookup(1000)"
    );

    // loop: sum(3) takes both edges of the loop test, sum(0) only the exit edge.
    let ps = method(&run, "subj/Branches", "sum");
    let entry = id_of(&ps, ProbeKind::MethodEntry);
    let (t, nt) = (
        id_of(&ps, ProbeKind::BranchTaken),
        id_of(&ps, ProbeKind::BranchNotTaken),
    );
    let l = |m| line_id(&run, &ps, m);
    assert_eq!(res[5].0, "OK 3");
    assert_eq!(
        res[5].1,
        set(&[
            entry,
            l("sum-init"),
            l("sum-for"),
            l("sum-body"),
            l("sum-ret"),
            t,
            nt
        ]),
        "{ctx} sum(3)"
    );
    assert_eq!(res[6].0, "OK 0");
    assert_eq!(
        res[6].1,
        set(&[entry, l("sum-init"), l("sum-for"), l("sum-ret"), t]),
        "{ctx} sum(0)"
    );

    // try/catch/finally
    let ps = method(&run, "subj/Branches", "tryIt");
    let l = |m| line_id(&run, &ps, m);
    assert_eq!(res[7].0, "OK 13");
    for m in ["try-init", "try-parse", "try-finally", "try-ret"] {
        assert!(res[7].1.contains(&l(m)), "{ctx} tryIt(12) misses {m}");
    }
    for m in ["try-catch", "try-neg"] {
        assert!(!res[7].1.contains(&l(m)), "{ctx} tryIt(12) hits {m}");
    }
    assert_eq!(res[8].0, "OK 0");
    for m in ["try-catch", "try-neg", "try-finally", "try-ret"] {
        assert!(res[8].1.contains(&l(m)), "{ctx} tryIt(x) misses {m}");
    }

    // nested ternaries: tern(1, -1) = 2: a > 0 falls through, then b > 0 jumps.
    let ps = method(&run, "subj/Branches", "tern");
    let br = branches(&ps);
    assert_eq!(br.len(), 3);
    assert_eq!(res[9].0, "OK 2");
    let hit_branches: BTreeSet<u32> = res[9]
        .1
        .iter()
        .copied()
        .filter(|id| br.iter().any(|(a, b)| a == id || b == id))
        .collect();
    assert_eq!(hit_branches, set(&[br[0].1, br[1].0]), "{ctx} tern(1,-1)");

    // string switch: "b".hashCode() == 98, then index 1.
    let ps = method(&run, "subj/Branches", "str");
    assert_eq!(res[10].0, "OK 2");
    let cases: BTreeSet<i32> = ps
        .iter()
        .filter(|p| res[10].1.contains(&p.id))
        .filter_map(|p| match p.kind {
            ProbeKind::SwitchCase { key } => Some(key),
            _ => None,
        })
        .collect();
    assert_eq!(cases, [1, 98].into_iter().collect(), "{ctx} str(b)");

    // `new StringBuilder(cond ? ..)`: frames with Uninitialized(new) on the stack.
    assert_eq!(res[11].0, "OK p");
    let ps = method(&run, "subj/Branches", "make");
    assert!(res[11].1.contains(&id_of(&ps, ProbeKind::BranchNotTaken)));

    // super(cond ? ..): frames with uninitializedThis.
    let ps = method(&run, "subj/Ctor", "<init>");
    assert_eq!(res[12].0, "OK pos");
    assert_eq!(res[13].0, "OK neg");
    let (t, nt) = (
        id_of(&ps, ProbeKind::BranchTaken),
        id_of(&ps, ProbeKind::BranchNotTaken),
    );
    assert!(res[12].1.contains(&nt) && !res[12].1.contains(&t), "{ctx}");
    assert!(res[13].1.contains(&t) && !res[13].1.contains(&nt), "{ctx}");

    // A line entered in its middle is covered: `} else if (o instanceof Integer) {` starts
    // with the `goto` that ends the `if` branch, and an Integer jumps past it.
    let ps = method(&run, "subj/Branches", "kind");
    assert_eq!(res[33].0, "OK 2", "{ctx}");
    assert!(
        res[33].1.contains(&line_id(&run, &ps, "kind-elseif")),
        "{ctx}: kind(7) misses its else-if line"
    );
    assert!(!res[33].1.contains(&line_id(&run, &ps, "kind-cast")));

    // lambda body is instrumented and hit.
    let ps = method(&run, "subj/Lambdas", "lambda$positive$0");
    assert_eq!(res[14].0, "OK true");
    assert!(res[14].1.contains(&id_of(&ps, ProbeKind::MethodEntry)));
    assert!(res[14].1.contains(&id_of(&ps, ProbeKind::BranchNotTaken)));

    // method > 32 KiB with goto_w
    assert_eq!(res[15].0, format!("OK {}", big_expected(5)), "{ctx}");
    assert_eq!(res[16].0, format!("OK {}", big_expected(-5)), "{ctx}");
    let ps = method(&run, "subj/Big", "big");
    assert!(res[16].1.contains(&id_of(&ps, ProbeKind::MethodEntry)));
    let br = branches(&ps);
    // Each run takes exactly one edge of the outer `if`.
    for r in [&res[15].1, &res[16].1] {
        let (a, b) = br[0];
        assert!(r.contains(&a) ^ r.contains(&b), "{ctx}: outer if edges");
    }
}

#[test]
fn instrumented_subjects_verify_and_hit_expected_probes_release_8() {
    check_release(8);
}

#[test]
fn instrumented_subjects_verify_and_hit_expected_probes_release_11() {
    check_release(11);
}

#[test]
fn instrumented_subjects_verify_and_hit_expected_probes_release_17() {
    check_release(17);
}

/// The verifier really runs in this setup: a class whose StackMapTable is hidden (attribute
/// renamed) must be rejected with a VerifyError, which the driver reports as ERR.
#[test]
fn driver_reports_verify_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let classes = tmp.path().join("classes");
    javac(8, &java_files(&subjects_dir().join("subj")), None, &classes);
    let f = classes.join("subj/Branches.class");
    let mut bytes = std::fs::read(&f).unwrap();
    let pat = b"StackMapTable";
    let at = bytes
        .windows(pat.len())
        .position(|w| w == pat)
        .expect("StackMapTable name in the constant pool");
    bytes[at + pat.len() - 1] = b'X';
    std::fs::write(&f, bytes).unwrap();
    let drv = tmp.path().join("driver");
    build_driver(&drv);
    let cp = format!("{}:{}", drv.display(), classes.display());
    let out = run_driver(&cp, &[], "call subj.Branches sign i:5\n");
    assert!(out[0].starts_with("ERR java.lang.VerifyError"), "{out:?}");
}

/// Runs `java -Xverify:all [-Djforge.clock=<mode>] -cp <cp> Driver` on `calls`; returns each
/// call's result ("OK value", "EXC ..." or "ERR ...").
fn clock_calls(cp: &str, mode: Option<&str>, calls: &[&str]) -> Vec<String> {
    use std::io::Write;
    let mut cmd = std::process::Command::new(crate::support::jdk_tool("java"));
    cmd.args(["-Xverify:all", "-Xshare:off"]);
    if let Some(m) = mode {
        cmd.arg(format!("-Djforge.clock={m}"));
    }
    let mut child = cmd
        .args(["-cp", cp, "Driver"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(calls.join("\n").as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| l.split('\t').next().unwrap_or("").to_string())
        .collect();
    assert_eq!(out.len(), calls.len(), "{out:#?}");
    out
}

/// Clock reads are retargeted to jforge.rt.JClock, by the clock-only rewrite and by the
/// coverage rewrite alike: the rewritten classes verify (`-Xverify:all`), read the fixed clock
/// (2020-01-01T00:00:00Z, a microsecond per read) under `-Djforge.clock=fixed` and the real
/// clock without it; `new Date(long)` keeps its constructor; a class without clock reads is
/// left alone.
#[test]
fn clock_reads_are_retargeted_and_verify() {
    use jforge::instrument::{reads_clock, retarget_clock};
    let tmp = tempfile::tempdir().unwrap();
    let classes = tmp.path().join("classes");
    javac(
        8,
        &java_files(&subjects_dir().join("clock/clk")),
        None,
        &classes,
    );
    let only = tmp.path().join("clock-only");
    for f in class_files(&classes) {
        let bytes = std::fs::read(&f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let rewritten = retarget_clock(&bytes).unwrap();
        assert_eq!(reads_clock(&bytes), name.starts_with("Timing"), "{name}");
        assert_eq!(rewritten.is_some(), name.starts_with("Timing"), "{name}");
        let b = rewritten.unwrap_or(bytes);
        let out = only.join(f.strip_prefix(&classes).unwrap());
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        std::fs::write(&out, b).unwrap();
    }
    let instrumented = tmp.path().join("instrumented");
    instrument_dir(&classes, &instrumented);
    let drv = tmp.path().join("driver");
    build_driver(&drv);
    let calls = [
        "call clk.Timing millis",
        "call clk.Timing nanos",
        "call clk.Timing year",
        "call clk.Timing yearHere",
        "call clk.Timing instant",
        "call clk.Timing clock",
        "call clk.Timing date",
        "call clk.Timing dateInExpression z:true",
        "call clk.Timing dateOf j:5",
        "call clk.Timing calendarYear",
        "call clk.NoClock twice j:21",
    ];
    let start = "OK 1577836800000";
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    for dir in [&only, &instrumented] {
        let cp = format!("{}:{}", drv.display(), dir.display());
        let fixed = clock_calls(&cp, Some("fixed"), &calls);
        let here = fixed[3].as_str();
        assert!(here == "OK 2020" || here == "OK 2019", "{fixed:#?}");
        let expected = [
            start, "OK 1000", "OK 2020", here, start, start, start, start, "OK 5", "OK 2020",
            "OK 42",
        ];
        assert_eq!(fixed, expected, "{}", dir.display());
        // Without a mode: the real clock, as the JDK's.
        let real = clock_calls(&cp, None, &calls);
        for i in [0, 4, 5, 6, 7] {
            let ms: i64 = real[i].trim_start_matches("OK ").parse().unwrap();
            assert!((ms - now_ms).abs() < 600_000, "{}: {real:#?}", calls[i]);
        }
        assert_eq!(real[8], "OK 5");
    }
}

/// `Cov.drain` scans only the blocks of 64 probes that hits marked instead of one flag per
/// probe (a package has tens of thousands of probes, drained twice per sequence): over a
/// seeded schedule of hits (growing the array), pauses, resumes, drains with two limits
/// (paused ones too), presizing and snapshots it returns what the full scan returns, checked
/// by `CovDrainCheck` against a reference that scans. The counts show the schedule reached
/// each case.
#[test]
fn cov_drain_of_marked_blocks_equals_a_scan_of_every_probe() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    jforge::instrument::write_runtime(dir).expect("compiling the coverage runtime");
    javac(
        8,
        &[subjects_dir().join("covdrain/CovDrainCheck.java")],
        Some(dir),
        dir,
    );
    let o = std::process::Command::new(crate::support::jdk_tool("java"))
        .arg("-cp")
        .arg(dir)
        .args(["CovDrainCheck", "7", "200000"])
        .output()
        .expect("starting java");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{out}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(
        out.trim(),
        "ok drains=7678 nonempty=7421 paused=2502 grown=5 ids=175330"
    );
}
