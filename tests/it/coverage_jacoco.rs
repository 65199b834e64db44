//! Agreement with JaCoCo (Debian package libjacoco-java): jforge writes a suite for
//! commons-lang3 classes, then `jforge coverage` and JaCoCo's agent measure the same suite; the
//! line and branch percentages of every class must agree within one percentage point (see
//! docs/coverage.md, "Counting", for the counting rules).

use crate::support as common;
use common::*;
use std::path::Path;
use std::process::Command;

const LANG3: &str = "/usr/share/java/commons-lang3.jar";
const JACOCO: &str = "/usr/share/java/org.jacoco.agent.jar";

/// JaCoCo rows per class, and the lines of classes listed in `detail` as (class, line, status)
/// with JaCoCo's ICounter status (1 not covered, 2 fully, 3 partly covered).
type Lines = Vec<(String, u32, u32)>;

fn jacoco_totals(exec: &Path, work: &Path) -> (Vec<(String, [u64; 4])>, Lines) {
    let tool = work.join("jacoco-tool");
    let core = "/usr/share/java/org.jacoco.core.jar";
    javac(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/subjects/cov/jacoco"),
        &tool,
        core,
    );
    let cp = format!(
        "{}:{core}:/usr/share/java/asm.jar:/usr/share/java/asm-commons.jar:/usr/share/java/asm-tree.jar",
        tool.display()
    );
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    for class in CLASSES {
        let o = run_ok(
            Command::new("java")
                .args(["-cp", &cp, "JacocoTotals"])
                .arg(exec)
                .args([LANG3, class, class]),
        );
        for l in String::from_utf8_lossy(&o.stdout).lines() {
            let f: Vec<&str> = l.split_whitespace().collect();
            if f[0] == "line" {
                // "line CLASS NR STATUS": the class or one of its nested classes
                lines.push((
                    f[1].to_string(),
                    f[2].parse().unwrap(),
                    f[3].parse().unwrap(),
                ));
                continue;
            }
            let n = |i: usize| f[i].parse::<u64>().unwrap();
            if !rows.iter().any(|(c, _)| c == f[0]) {
                rows.push((f[0].to_string(), [n(1), n(2), n(3), n(4)]));
            }
        }
    }
    (rows, lines)
}

const CLASSES: [&str; 3] = [
    "org.apache.commons.lang3.BooleanUtils",
    "org.apache.commons.lang3.text.StrBuilder",
    "org.apache.commons.lang3.CharUtils",
];

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn line_and_branch_coverage_agree_with_jacoco() {
    if !Path::new(JACOCO).exists() || !Path::new(LANG3).exists() {
        panic!("this test needs Debian packages libjacoco-java and libcommons-lang3-java");
    }
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("suite");
    let classes = CLASSES;
    let mut args: Vec<String> = [
        "gen",
        "--quiet",
        "--classpath",
        LANG3,
        "--generated-limit",
        "3000",
        "--seed",
        "1",
        "--output-limit",
        "300",
        "--output-dir",
    ]
    .map(String::from)
    .to_vec();
    args.push(out.display().to_string());
    for c in classes {
        args.push("--class".into());
        args.push(c.into());
    }
    run_done(jforge().args(&args));

    // jforge's numbers
    let json = d.path().join("cov.json");
    let mut cargs: Vec<String> = ["coverage", "--quiet", "--classpath", LANG3, "--tests"]
        .map(String::from)
        .to_vec();
    cargs.push(out.display().to_string());
    cargs.push("--json".into());
    cargs.push(json.display().to_string());
    for c in classes {
        cargs.push("--class".into());
        cargs.push(c.into());
    }
    run_ok(jforge().args(&cargs));
    let ours = read_json(&json);

    // JaCoCo's numbers for the same suite, run by the same JUnit launcher
    let agent_dir = d.path().join("agent");
    std::fs::create_dir_all(&agent_dir).unwrap();
    run_ok(
        Command::new("unzip")
            .args(["-o", "-q", JACOCO, "jacocoagent.jar", "-d"])
            .arg(&agent_dir),
    );
    let compiled = d.path().join("compiled");
    javac(
        &out,
        &compiled,
        &format!("{LANG3}:/usr/share/java/junit4.jar"),
    );
    let exec = d.path().join("jacoco.exec");
    let junit = "/usr/share/java/junit-platform-console-standalone.jar:/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";
    let o = Command::new("java")
        .arg(format!(
            "-javaagent:{}=destfile={},includes=org.apache.commons.lang3.*",
            agent_dir.join("jacocoagent.jar").display(),
            exec.display()
        ))
        .arg("-cp")
        .arg(format!("{LANG3}:{}:{junit}", compiled.display()))
        .args([
            "org.junit.platform.console.ConsoleLauncher",
            "--disable-banner",
            "--include-classname",
            ".*",
            "--scan-classpath",
        ])
        .arg(&compiled)
        .output()
        .unwrap();
    assert!(exec.exists(), "{}", String::from_utf8_lossy(&o.stderr));
    let (theirs, their_lines) = jacoco_totals(&exec, d.path());

    let mut checked = 0;
    let mut report = String::new();
    for c in ours["classes"].as_array().unwrap() {
        let name = c["name"].as_str().unwrap();
        let Some((_, j)) = theirs.iter().find(|(n, _)| n == name) else {
            // JaCoCo reports only classes that were loaded or are in the jar; nested classes
            // never loaded still appear in its analysis, so a missing one is a bug.
            panic!("JaCoCo has no row for {name}");
        };
        let pct = |a: u64, b: u64| {
            if b == 0 {
                100.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        let ol = pct(
            c["lines"]["covered"].as_u64().unwrap(),
            c["lines"]["total"].as_u64().unwrap(),
        );
        let ob = pct(
            c["branches"]["covered"].as_u64().unwrap(),
            c["branches"]["total"].as_u64().unwrap(),
        );
        let jl = pct(j[0], j[1]);
        let jb = pct(j[2], j[3]);
        report += &format!(
            "{name}: lines jforge {ol:.1}% jacoco {jl:.1}% ({}/{} vs {}/{}); branches jforge {ob:.1}% jacoco {jb:.1}% ({}/{} vs {}/{})\n",
            c["lines"]["covered"],
            c["lines"]["total"],
            j[0],
            j[1],
            c["branches"]["covered"],
            c["branches"]["total"],
            j[2],
            j[3]
        );
        // Same lines and branches exist in both.
        assert_eq!(c["lines"]["total"].as_u64().unwrap(), j[1], "{report}");
        assert_eq!(c["branches"]["total"].as_u64().unwrap(), j[3], "{report}");
        assert!((ob - jb).abs() <= 1.0, "branch coverage differs:\n{report}");
        if (ol - jl).abs() > 1.0 {
            // The one documented difference (docs/coverage.md, "Counting"): a line whose code
            // started but ended in an exception before JaCoCo's next probe is covered for
            // jforge (probe at the line's start) and missed for JaCoCo (probes after blocks).
            // So jforge may only be ahead, and only on lines that JaCoCo calls not covered.
            let status = c["line_status"].as_object().unwrap();
            let differing: Vec<u32> = their_lines
                .iter()
                .filter(|(cl, _, st)| cl == name && *st == 1)
                .filter(|(_, l, _)| status.get(&l.to_string()).is_some_and(|v| v[0] == true))
                .map(|(_, l, _)| *l)
                .collect();
            let ahead = c["lines"]["covered"]
                .as_u64()
                .unwrap()
                .checked_sub(j[0])
                .unwrap_or_else(|| panic!("jforge behind JaCoCo:\n{report}"));
            report += &format!("  lines jforge covers and JaCoCo misses: {differing:?}\n");
            let behind: Vec<u32> = their_lines
                .iter()
                .filter(|(cl, _, st)| cl == name && *st != 1)
                .filter(|(_, l, _)| status.get(&l.to_string()).is_some_and(|v| v[0] != true))
                .map(|(_, l, _)| *l)
                .collect();
            report += &format!("  lines JaCoCo covers and jforge misses: {behind:?}\n");
            assert_eq!(
                differing.len() as u64,
                ahead,
                "line coverage differs:\n{report}"
            );
            // Every difference is of that one kind (checked above); how many there are
            // depends on how many written tests end in an expected exception (the suite keeps
            // every test that covered something new, throwing ones included): at most 2.5%
            // of the class's lines, or 2 lines in a class under 80 lines (StrBuilderWriter: 2
            // of 14, its two `write(.., off, len)` given bad indices). Since arguments are
            // configured (`generate::ops::configurers`: StrMatcher, StrTokenizer) and
            // CharSequences are also StringBuilders, StrBuilder has 16 of 761 (2.1%), each
            // of this kind; before, under 2%.
            let total = c["lines"]["total"].as_u64().unwrap();
            assert!(
                ahead * 40 <= total.max(80),
                "line coverage differs too much:\n{report}"
            );
        }
        checked += 1;
    }
    eprintln!("{report}");
    assert!(checked >= 3, "{report}");
}
