//! Agreement with JaCoCo (Debian package libjacoco-java): jforge writes a suite for
//! commons-lang3 classes, then `jforge coverage` and JaCoCo's agent measure the same suite; the
//! line and branch percentages of every class must agree within one percentage point (see
//! README "jforge coverage" for the counting rules).

mod common;
use common::*;
use std::path::Path;
use std::process::Command;

const LANG3: &str = "/usr/share/java/commons-lang3.jar";
const JACOCO: &str = "/usr/share/java/org.jacoco.agent.jar";

fn jacoco_totals(exec: &Path, work: &Path) -> Vec<(String, [u64; 4])> {
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
    let o = run_ok(
        Command::new("java")
            .args(["-cp", &cp, "JacocoTotals"])
            .arg(exec)
            .args([LANG3, "org.apache.commons.lang3."]),
    );
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let n = |i: usize| f[i].parse::<u64>().unwrap();
            (f[0].to_string(), [n(1), n(2), n(3), n(4)])
        })
        .collect()
}

#[test]
fn line_and_branch_coverage_agree_with_jacoco() {
    if !Path::new(JACOCO).exists() || !Path::new(LANG3).exists() {
        panic!("this test needs Debian packages libjacoco-java and libcommons-lang3-java");
    }
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("suite");
    let classes = [
        "org.apache.commons.lang3.BooleanUtils",
        "org.apache.commons.lang3.text.StrBuilder",
        "org.apache.commons.lang3.CharUtils",
    ];
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
    run_ok(jforge().args(&args));

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
    let theirs = jacoco_totals(&exec, d.path());

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
        assert!((ol - jl).abs() <= 1.0, "line coverage differs:\n{report}");
        assert!((ob - jb).abs() <= 1.0, "branch coverage differs:\n{report}");
        checked += 1;
    }
    eprintln!("{report}");
    assert!(checked >= 3, "{report}");
}
