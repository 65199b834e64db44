//! End-to-end on Java 21+ code (records, a sealed interface, pattern switches with record
//! patterns and guards) compiled by a newer JDK than the default 17: `gen --java` on that JDK
//! writes a suite that its javac compiles and its JUnit run passes, and the default JDK says
//! clearly why it cannot load the classes. Skipped (with a line saying so) on a machine
//! without a second JDK 21+ under /usr/lib/jvm.

use crate::support::*;
use std::path::Path;
use std::process::Command;

/// tests/subjects/modern compiled by the newer JDK's javac for Java 21.
fn compile_modern(jdk: &Path, out: &Path) {
    let o = Command::new(jdk.join("bin/javac"))
        .args(["-nowarn", "--release", "21", "-d"])
        .arg(out)
        .args(java_files(&subjects_src("modern")))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn records_sealed_types_and_pattern_switches_on_a_newer_jdk() {
    let Some((jdk, version)) = newer_jdk() else {
        eprintln!("skipped: no JDK 21+ newer than the default one under /usr/lib/jvm");
        return;
    };
    let d = tempfile::tempdir().unwrap();
    let classes = d.path().join("classes");
    compile_modern(&jdk, &classes);

    // The default JDK (17) cannot load class files of Java 21: said before any work.
    let o = jforge()
        .args(["gen", "-q", "--package", "shapes", "--classpath"])
        .arg(&classes)
        .arg("--output-dir")
        .arg(d.path().join("refused"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("compiled for Java 21 (class file 65)"),
        "{err}"
    );
    assert!(err.contains("pass --java with a JDK 21 or newer"), "{err}");
    assert!(!d.path().join("refused").exists());

    let out = d.path().join("tests");
    let json = d.path().join("s.json");
    let mut c = jforge();
    c.args([
        "gen",
        "-q",
        "--package",
        "shapes",
        "--generated-limit",
        "1500",
    ])
    .arg("--java")
    .arg(&jdk)
    .arg("--classpath")
    .arg(&classes)
    .arg("--output-dir")
    .arg(&out)
    .arg("--stats-json")
    .arg(&json);
    run_done(&mut c);
    let stats = read_json(&json);
    let v = &stats["validation"];
    assert_eq!(v["clean"], true, "JDK {version}: {v:#}");
    let written = stats["regression_tests"].as_u64().unwrap();
    assert_eq!(v["passed"].as_u64().unwrap(), written, "{v:#}");
    for f in ["RectRegressionTest.java", "ShapesRegressionTest.java"] {
        assert!(out.join("shapes").join(f).is_file(), "{f} not written");
    }
    // The pattern switches were reached by the written suite: both methods covered, and more
    // than half of their branches (one per case and guard).
    let per_class = stats["coverage"]["suite"]["per_class"].as_array().unwrap();
    let shapes = per_class
        .iter()
        .find(|c| c["name"] == "shapes.Shapes")
        .unwrap();
    for m in shapes["methods_detail"].as_array().unwrap() {
        if m["name"] == "area" || m["name"] == "describe" {
            let (cov, tot) = (
                m["branches"]["covered"].as_u64().unwrap(),
                m["branches"]["total"].as_u64().unwrap(),
            );
            assert!(tot >= 10 && cov * 2 > tot, "{}: {cov}/{tot}", m["name"]);
        }
    }
}
