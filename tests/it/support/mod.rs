//! What the integration tests share: running jforge, JDK tools, compiling the Java subjects
//! of tests/subjects once per run into one per-run folder (removed when the test binary
//! exits; folders of earlier runs that were killed are swept at the next run), and compiling
//! and running what jforge wrote with javac and JUnit independently of jforge's own checker.

pub mod instrument;
pub mod model;
pub mod runner;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, OnceLock};

/// Prefix of the per-run folders under the system temp folder.
const RUN_DIR_PREFIX: &str = "jforge-it-";

static RUN_DIR: OnceLock<PathBuf> = OnceLock::new();

/// This run's folder for compiled subjects and other shared files: created on first use,
/// removed when the test binary exits.
pub fn run_dir() -> &'static Path {
    RUN_DIR.get_or_init(|| {
        sweep_stale_run_dirs();
        let d = std::env::temp_dir().join(format!("{RUN_DIR_PREFIX}{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("creating the per-run test folder");
        // Statics are never dropped: remove the folder from an exit handler instead. The
        // harness ends with `std::process::exit`, which runs C `atexit` handlers.
        // SAFETY: `atexit` only stores the function pointer; `remove_run_dir` is `extern "C"`,
        // takes nothing and does not unwind (it ignores errors).
        unsafe { atexit(remove_run_dir) };
        d
    })
}

unsafe extern "C" {
    fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
}

extern "C" fn remove_run_dir() {
    if let Some(d) = RUN_DIR.get() {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Removes the folders of earlier runs whose process is gone (a run killed before exit).
fn sweep_stale_run_dirs() {
    let Ok(rd) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().to_string();
        let Some(pid) = name.strip_prefix(RUN_DIR_PREFIX) else {
            continue;
        };
        if pid.parse::<u32>().is_ok() && !Path::new("/proc").join(pid).exists() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// `tests/subjects/<subdir>` compiled (javac, every .java below it) once per run into the
/// run folder; the same folder for every test that asks.
pub fn compiled(subdir: &str) -> PathBuf {
    static DONE: OnceLock<Mutex<HashMap<String, PathBuf>>> = OnceLock::new();
    let done = DONE.get_or_init(|| Mutex::new(HashMap::new()));
    let mut done = done.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(d) = done.get(subdir) {
        return d.clone();
    }
    let dir = run_dir().join("subjects").join(subdir);
    let _ = std::fs::remove_dir_all(&dir);
    javac(&subjects_src(subdir), &dir, "");
    done.insert(subdir.to_string(), dir.clone());
    dir
}

/// `tests/subjects/<subdir>` in the source tree.
pub fn subjects_src(subdir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/subjects")
        .join(subdir)
}

pub fn jforge() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jforge"))
}

pub fn java_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                out.extend(java_files(&p));
            } else if p.extension().is_some_and(|x| x == "java") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The first element of JSON array `list` whose field `key` is `value` (a per-class row of
/// `--stats-json`: `entry(&stats["classes"], "class", "ds.IntStack")`).
pub fn entry<'a>(
    list: &'a serde_json::Value,
    key: &str,
    value: &str,
) -> Option<&'a serde_json::Value> {
    list.as_array()?.iter().find(|e| e[key] == value)
}

/// The text of every .java file under `dir`, in `java_files` order, concatenated.
pub fn java_sources(dir: &Path) -> String {
    java_files(dir)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect()
}

/// Compile every .java under `src` into `out` (release 17 unless given).
pub fn javac(src: &Path, out: &Path, cp: &str) {
    std::fs::create_dir_all(out).unwrap();
    let files = java_files(src);
    assert!(!files.is_empty(), "no java files under {}", src.display());
    let o = Command::new(jdk_tool("javac"))
        .args(["-nowarn", "-encoding", "UTF-8", "-d"])
        .arg(out)
        .args(if cp.is_empty() {
            vec![]
        } else {
            vec!["-cp", cp]
        })
        .args(&files)
        .output()
        .expect("javac runs");
    assert!(
        o.status.success(),
        "javac failed:\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The subjects of tests/subjects/gen, compiled once per run.
pub fn subjects() -> PathBuf {
    compiled("gen")
}

pub const JUNIT4: &str = "/usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar";

pub fn run_ok(cmd: &mut Command) -> Output {
    let o = cmd.output().expect("command runs");
    assert!(
        o.status.success(),
        "command failed ({}):\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// Runs a `jforge gen`/`exhaustive` command that must finish: exit 0, or 3 when it wrote
/// error-revealing tests (docs/reports.md, "Exit status").
pub fn run_done(cmd: &mut Command) -> Output {
    let o = cmd.output().expect("command runs");
    assert!(
        matches!(o.status.code(), Some(0 | 3)),
        "command failed ({}):\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

pub fn read_json(p: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(p).expect("stats json written"))
        .expect("valid json")
}

/// Result of an independent JUnit 4 run of a generated suite.
pub struct JUnitRun {
    pub tests_run: usize,
    /// (test header line like `test001(pkg.ErrorTest0)`, first line of the failure)
    pub failures: Vec<(String, String)>,
    pub output: String,
}

/// Compile the suite in `tests_dir` against `cp` + JUnit 4 and run each class with JUnitCore.
pub fn compile_and_run_junit4(tests_dir: &Path, cp: &str) -> JUnitRun {
    let out = tests_dir.with_extension("classes");
    let full_cp = if cp.is_empty() {
        JUNIT4.to_string()
    } else {
        format!("{cp}:{JUNIT4}")
    };
    javac(tests_dir, &out, &full_cp);
    let classes: Vec<String> = java_files(tests_dir)
        .iter()
        .map(|f| {
            let rel = f.strip_prefix(tests_dir).unwrap().with_extension("");
            rel.to_string_lossy().replace('/', ".")
        })
        .collect();
    let run_cp = format!("{}:{}", out.display(), full_cp);
    let o = Command::new("java")
        .args(["-cp", &run_cp, "org.junit.runner.JUnitCore"])
        .args(&classes)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let mut failures = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        // "1) test01(pkg.ErrorTest0)" followed by the exception line
        if let Some((num, rest)) = l.split_once(") ")
            && num.chars().all(|c| c.is_ascii_digit())
            && !num.is_empty()
        {
            failures.push((
                rest.to_string(),
                lines.get(i + 1).unwrap_or(&"").to_string(),
            ));
        }
    }
    let tests_run = if let Some(l) = lines.iter().find(|l| l.starts_with("OK (")) {
        l.trim_start_matches("OK (")
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap()
    } else if let Some(l) = lines.iter().find(|l| l.starts_with("Tests run: ")) {
        l.trim_start_matches("Tests run: ")
            .split(',')
            .next()
            .unwrap()
            .parse()
            .unwrap()
    } else {
        panic!(
            "cannot read JUnit output:\n{text}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    JUnitRun {
        tests_run,
        failures,
        output: text,
    }
}

/// A JDK tool (`javac`, `java`, `jmod`): from $JAVA_HOME, else Debian's JDK 17, else PATH.
pub fn jdk_tool(name: &str) -> PathBuf {
    let homes = [
        std::env::var("JAVA_HOME").ok(),
        Some("/usr/lib/jvm/java-17-openjdk-amd64".to_string()),
    ];
    for h in homes.into_iter().flatten() {
        let p = PathBuf::from(h).join("bin").join(name);
        if p.is_file() {
            return p;
        }
    }
    PathBuf::from(name)
}

/// The newest JDK 21+ installed under /usr/lib/jvm besides the default one (e.g. Temurin 25
/// on the CI machines), with its feature version; `None` on a machine with only one JDK (the
/// tests that need it then say they were skipped).
pub fn newer_jdk() -> Option<(PathBuf, u32)> {
    let default = jforge::runner::java::find_java(None).ok()?;
    let mut best: Option<(PathBuf, u32)> = None;
    for e in std::fs::read_dir("/usr/lib/jvm").ok()?.flatten() {
        let Ok(jh) = jforge::runner::java::find_java(Some(&e.path())) else {
            continue;
        };
        if jh.version >= 21
            && jh.version > default.version
            && best.as_ref().is_none_or(|b| jh.version > b.1)
        {
            best = Some((jh.home, jh.version));
        }
    }
    best
}
