//! JDK classes are measurable: every class of java.util (plus java.lang.String and Integer,
//! which run during VM startup) is instrumented, patched into java.base with
//! `--patch-module`, verified with `-Xverify:all`, and TreeMap's probes are hit.

use crate::support::instrument as instrument_support;

use instrument_support::*;
use jforge::instrument::{ProbeKind, instrument_class, write_runtime};
use std::collections::BTreeSet;
use std::process::Command;

#[test]
fn patched_java_base_classes_verify_and_record_probes() {
    let jmod = jdk_tool("java")
        .parent()
        .and_then(|b| b.parent())
        .map(|h| h.join("jmods/java.base.jmod"))
        .filter(|p| p.exists())
        .expect("this test needs a JDK with jmods/ (JAVA_HOME or JDK 17 at /usr/lib/jvm)");
    let tmp = tempfile::tempdir().unwrap();
    let ex = tmp.path().join("ex");
    let o = Command::new(jdk_tool("jmod"))
        .args(["extract", "--dir"])
        .arg(&ex)
        .arg(&jmod)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let base = ex.join("classes");
    let patch = tmp.path().join("patch");
    let mut files: Vec<_> = std::fs::read_dir(base.join("java/util"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "class"))
        .collect();
    for n in ["String", "StringLatin1", "Integer"] {
        files.push(base.join(format!("java/lang/{n}.class")));
    }
    files.sort();
    let mut next = 0;
    let mut treemap = None;
    for (k, f) in files.iter().enumerate() {
        let ins = instrument_class(&std::fs::read(f).unwrap(), k as u32, next)
            .unwrap_or_else(|e| panic!("{}: {e:#}", f.display()));
        assert!(ins.probes.methods.iter().all(|m| m.skipped.is_none()));
        next = ins.probes.end();
        let out = patch.join(f.strip_prefix(&base).unwrap());
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        std::fs::write(&out, &ins.bytes).unwrap();
        if ins.probes.class_name == "java/util/TreeMap" {
            treemap = Some(ins.probes);
        }
    }
    write_runtime(&patch).unwrap();
    let cov = tmp.path().join("cov");
    write_runtime(&cov).unwrap();
    let app = tmp.path().join("app");
    javac(
        17,
        &[subjects_dir().join("jdk/JdkApp.java")],
        Some(&cov),
        &app,
    );
    // JdkApp is compiled against the runtime on the class path; at run time the runtime
    // lives in java.base (patched) and is exported to the unnamed module.
    let o = Command::new(jdk_tool("java"))
        .args(["-Xverify:all", "-Xshare:off", "--patch-module"])
        .arg(format!("java.base={}", patch.display()))
        .args(["--add-exports", "java.base/jforge.rt=ALL-UNNAMED", "-cp"])
        .arg(&app)
        .arg("JdkApp")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let mut lines = stdout.lines();
    assert_eq!(lines.next(), Some("13 k0"));
    let hits: BTreeSet<u32> = lines
        .next()
        .and_then(|l| l.strip_prefix("HITS "))
        .unwrap()
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    let tm = treemap.expect("TreeMap instrumented");
    let put = tm.method_probes(
        "put",
        "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
    );
    let entry = put
        .iter()
        .find(|p| p.kind == ProbeKind::MethodEntry)
        .unwrap();
    assert!(hits.contains(&entry.id), "TreeMap.put entry probe not hit");
    // Probes of TreeMap methods not called (e.g. pollFirstEntry) stay unhit.
    let poll = tm.method_probes("pollFirstEntry", "()Ljava/util/Map$Entry;");
    assert!(!poll.is_empty());
    assert!(poll.iter().all(|p| !hits.contains(&p.id)));
}
