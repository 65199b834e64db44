//! Helpers shared by the model tests: the JDK's jmods and javac-compiled subjects.

use std::path::{Path, PathBuf};

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
    super::javac(&src, out.path(), "");
    out
}
