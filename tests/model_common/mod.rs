//! Helpers shared by the model tests: the JDK's jmods and javac-compiled subjects.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use jforge::model::classpath::JmodClasses;

/// `$JAVA_HOME` when it has jmods, else the machine's JDK 17.
pub fn java_home() -> PathBuf {
    if let Some(h) = std::env::var_os("JAVA_HOME").map(PathBuf::from)
        && h.join("jmods").is_dir()
    {
        return h;
    }
    PathBuf::from("/usr/lib/jvm/java-17-openjdk-amd64")
}

pub fn jdk() -> JmodClasses {
    JmodClasses::open(&java_home())
        .expect("reading the JDK's jmods")
        .expect("the JDK must have a jmods/ folder (install a full JDK)")
}

/// Compile `tests/subjects/model/**/*.java` into a fresh temp dir.
pub fn compile_subjects() -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/subjects/model/p");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "java"))
        .collect();
    files.sort();
    let javac = java_home().join("bin/javac");
    let javac = if javac.exists() {
        javac
    } else {
        PathBuf::from("javac")
    };
    let st = Command::new(javac)
        .arg("-d")
        .arg(out.path())
        .args(&files)
        .status()
        .expect("running javac");
    assert!(st.success(), "javac failed");
    out
}
