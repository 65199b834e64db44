//! Shared helpers for the instrumentation tests: compiling Java, instrumenting class
//! folders, and running the verification driver under `-Xverify:all`.

use jforge::instrument::{ProbeMap, instrument_class, write_runtime};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub use super::jdk_tool;

pub fn subjects_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/subjects/instrument")
}

/// Compiles `sources` with `javac --release <release>` into `out`.
pub fn javac(release: u32, sources: &[PathBuf], classpath: Option<&Path>, out: &Path) {
    std::fs::create_dir_all(out).unwrap();
    let mut cmd = Command::new(jdk_tool("javac"));
    cmd.args(["-nowarn", "-g", "--release", &release.to_string(), "-d"])
        .arg(out);
    if let Some(cp) = classpath {
        cmd.arg("-cp").arg(cp);
    }
    let o = cmd.args(sources).output().expect("running javac");
    assert!(
        o.status.success(),
        "javac failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

pub fn java_files(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "java") {
            v.push(p);
        }
    }
    v.sort();
    v
}

pub fn class_files(dir: &Path) -> Vec<PathBuf> {
    let mut v = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "class") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

/// Instruments every class under `src` into `dst` (same relative paths), with global probe
/// ids; returns the probe maps keyed by internal class name.
pub fn instrument_dir(src: &Path, dst: &Path) -> HashMap<String, ProbeMap> {
    let mut maps = HashMap::new();
    let mut next = 0;
    for (k, f) in class_files(src).iter().enumerate() {
        let bytes = std::fs::read(f).unwrap();
        let ins = instrument_class(&bytes, k as u32, next)
            .unwrap_or_else(|e| panic!("instrumenting {}: {e:#}", f.display()));
        next = ins.probes.end();
        let out = dst.join(f.strip_prefix(src).unwrap());
        std::fs::create_dir_all(out.parent().unwrap()).unwrap();
        std::fs::write(&out, &ins.bytes).unwrap();
        maps.insert(ins.probes.class_name.clone(), ins.probes);
    }
    maps
}

/// Compiles the Cov runtime and the driver into `dir`.
pub fn build_driver(dir: &Path) {
    write_runtime(dir).expect("writing the coverage runtime");
    javac(
        8,
        &[subjects_dir().join("driver/Driver.java")],
        Some(dir),
        dir,
    );
}

/// Runs `java -Xverify:all -cp <cp> Driver <args>` with `stdin`, returns stdout lines.
pub fn run_driver(cp: &str, args: &[&str], stdin: &str) -> Vec<String> {
    use std::io::Write;
    let mut child = Command::new(jdk_tool("java"))
        .args([
            "-Xverify:all",
            "-Xshare:off",
            "-Djava.awt.headless=true",
            "-cp",
            cp,
            "Driver",
        ])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting java");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(
        o.status.success(),
        "driver failed: {}\n{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|s| s.to_string())
        .collect()
}

/// Line number of the source line carrying the marker comment `//@<marker>`.
pub fn marker_line(source: &str, marker: &str) -> u32 {
    let tag = format!("//@{marker}");
    let hits: Vec<usize> = source
        .lines()
        .enumerate()
        .filter(|(_, l)| l.trim_end().ends_with(&tag))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(hits.len(), 1, "marker {marker} must appear exactly once");
    hits[0] as u32
}
