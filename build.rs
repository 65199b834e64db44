//! Compiles the Java worker (worker/**/*.java) with javac --release 17 and packages it as a jar
//! in OUT_DIR; src/runner/jar.rs embeds it with include_bytes!. A JDK 17+ is therefore needed
//! at build time (JAVA_HOME or javac on PATH), as it is at run time.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=worker");
    println!("cargo:rerun-if-env-changed=JAVA_HOME");
    if let Err(e) = build() {
        eprintln!("error: {e}");
        panic!("building the jforge Java worker failed: {e}");
    }
}

fn find_tool(name: &str) -> Option<PathBuf> {
    if let Some(home) = std::env::var_os("JAVA_HOME") {
        let p = Path::new(&home).join("bin").join(name);
        if p.is_file() {
            return Some(p);
        }
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        let p = dir.join(name);
        if p.is_file() {
            // Resolve symlinks (/usr/bin/javac -> /usr/lib/jvm/.../bin/javac) so that sibling
            // tools (jar) come from the same JDK.
            return Some(std::fs::canonicalize(&p).unwrap_or(p));
        }
    }
    None
}

fn java_files(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let rd = std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in rd {
        let p = entry.map_err(|e| e.to_string())?.path();
        if p.is_dir() {
            java_files(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "java") {
            out.push(p);
        }
    }
    Ok(())
}

fn build() -> Result<(), String> {
    let javac = find_tool("javac").ok_or(
        "javac not found: a JDK 17+ is required to build jforge; set JAVA_HOME to a JDK or put \
         its bin/ on PATH (Debian/Ubuntu: apt-get install openjdk-17-jdk-headless)",
    )?;
    let jar_tool = javac
        .parent()
        .map(|d| d.join("jar"))
        .filter(|p| p.is_file())
        .or_else(|| find_tool("jar"))
        .ok_or("the JDK's `jar` tool was not found next to javac")?;
    let out = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| e.to_string())?);
    let classes = out.join("worker-classes");
    let _ = std::fs::remove_dir_all(&classes);
    std::fs::create_dir_all(&classes).map_err(|e| e.to_string())?;
    let mut srcs = Vec::new();
    java_files(Path::new("worker"), &mut srcs)?;
    srcs.sort();
    let st = Command::new(&javac)
        .args(["--release", "17", "-encoding", "UTF-8", "-nowarn", "-d"])
        .arg(&classes)
        .args(&srcs)
        .status()
        .map_err(|e| format!("cannot run {}: {e}", javac.display()))?;
    if !st.success() {
        return Err(format!(
            "javac failed on the worker sources ({}); a JDK 17+ is required",
            javac.display()
        ));
    }
    let jar = out.join("jforge-worker.jar");
    let _ = std::fs::remove_file(&jar);
    let st = Command::new(&jar_tool)
        .arg("--create")
        .arg("--file")
        .arg(&jar)
        .arg("-C")
        .arg(&classes)
        .arg(".")
        .status()
        .map_err(|e| format!("cannot run {}: {e}", jar_tool.display()))?;
    if !st.success() {
        return Err("jar failed to package the worker".into());
    }
    Ok(())
}
