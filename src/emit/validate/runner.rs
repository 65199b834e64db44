//! The test runner (the Java sources kept next to this folder), compiled once per JUnit
//! class path and kept in jforge's cache folder, with the services folder that registers its
//! listener for the console launcher run.

use super::javac::{join_cp, run_javac};
use anyhow::{Context, Result};
use std::hash::Hasher;
use std::path::{Path, PathBuf};

const RUNNER4: &str = include_str!("../JforgeJUnit4Runner.java");

const RUNNER5: &str = include_str!("../JforgeJUnit5Runner.java");

/// Reports JUnit Platform events (JUnit 5 runner, and the console launcher run).
const PLATFORM_LISTENER: &str = include_str!("../JforgePlatformListener.java");

/// The results file all runners write (line format, escaping, measures, System.exit blocking).
const RUNNER_OUTPUT: &str = include_str!("../JforgeRunnerOutput.java");

/// Folders where a compiled runner may be kept, best first (the worker jar's cache folders).
fn cache_roots() -> Vec<PathBuf> {
    crate::runner::jar::cache_dirs()
}

/// The compiled runner: classes, and the folder whose `META-INF/services` registers the
/// listener for the console launcher run (when that run is possible).
pub(super) struct RunnerClasses {
    pub(super) classes: PathBuf,
    pub(super) services: Option<PathBuf>,
    pub(super) cached: bool,
}

const SERVICES: &str = "META-INF/services/org.junit.platform.launcher.TestExecutionListener";

/// Writes the runner sources under `dir/src`, compiles them into `dir/classes` and writes the
/// services folder. `Ok(Err(javac output))` when javac rejects them.
fn compile_runner(
    javac: &Path,
    cp: &std::ffi::OsStr,
    dir: &Path,
    sources: &[(&str, &str)],
    console: bool,
) -> Result<std::result::Result<(), String>> {
    let src = dir.join("src");
    let classes = dir.join("classes");
    std::fs::create_dir_all(&src)
        .and_then(|_| std::fs::create_dir_all(&classes))
        .with_context(|| format!("cannot create folders in {}", dir.display()))?;
    let mut files = Vec::new();
    for (name, text) in sources {
        let p = src.join(name);
        std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))?;
        files.push(p);
    }
    let (ok, out) = run_javac(javac, None, cp, &classes, &files, &[])?;
    if !ok {
        return Ok(Err(out));
    }
    if console {
        let svc = dir.join("services").join(SERVICES);
        if let Some(parent) = svc.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("cannot create {}", parent.display()))?;
        }
        std::fs::write(&svc, "JforgePlatformListener\n")
            .with_context(|| format!("cannot write {}", svc.display()))?;
    }
    Ok(Ok(()))
}

/// The runner for `junit` (with the console launcher listener when `console` is given),
/// compiled once per (sources, javac, class path) and kept in the cache folder; compiled into
/// `scratch` when no cache folder is writable.
pub(super) fn prepare_runner(
    javac: &Path,
    junit: u8,
    junit_cp: &[PathBuf],
    console: Option<&[PathBuf]>,
    scratch: &Path,
) -> Result<std::result::Result<RunnerClasses, String>> {
    let mut sources = vec![("JforgeRunnerOutput.java", RUNNER_OUTPUT)];
    if junit == 4 {
        sources.push(("JforgeJUnit4Runner.java", RUNNER4));
    } else {
        sources.push(("JforgeJUnit5Runner.java", RUNNER5));
    }
    if junit == 5 || console.is_some() {
        sources.push(("JforgePlatformListener.java", PLATFORM_LISTENER));
    }
    let cp_entries: Vec<PathBuf> = junit_cp
        .iter()
        .chain(console.unwrap_or(&[]))
        .cloned()
        .collect();
    let cp = join_cp(&[&cp_entries])?;
    let mut h = twox_hash::XxHash64::with_seed(0x7275_6e6e);
    for (n, t) in &sources {
        h.write(n.as_bytes());
        h.write(t.as_bytes());
    }
    h.write(javac.as_os_str().as_encoded_bytes());
    for e in &cp_entries {
        h.write(e.as_os_str().as_encoded_bytes());
        if let Ok(m) = std::fs::metadata(e) {
            h.write_u64(m.len());
            if let Ok(t) = m.modified().and_then(|t| {
                t.duration_since(std::time::UNIX_EPOCH)
                    .map_err(std::io::Error::other)
            }) {
                h.write_u128(t.as_nanos());
            }
        }
    }
    h.write_u8(console.is_some() as u8);
    let name = format!("validate-runner-{:016x}", h.finish());
    let found = |dir: &Path| RunnerClasses {
        classes: dir.join("classes"),
        services: console.is_some().then(|| dir.join("services")),
        cached: true,
    };
    for root in cache_roots() {
        let dir = root.join(&name);
        if dir.join("ok").is_file() {
            return Ok(Ok(found(&dir)));
        }
        if std::fs::create_dir_all(&root).is_err() {
            continue;
        }
        let Ok(tmp) = tempfile::Builder::new()
            .prefix(".validate-runner-")
            .tempdir_in(&root)
        else {
            continue;
        };
        if let Err(out) = compile_runner(javac, &cp, tmp.path(), &sources, console.is_some())? {
            return Ok(Err(out));
        }
        if std::fs::write(tmp.path().join("ok"), b"").is_err() {
            continue;
        }
        let kept = tmp.keep();
        if std::fs::rename(&kept, &dir).is_err() {
            // Another jforge run got there first (or the folder cannot be renamed): use theirs
            // when complete.
            let _ = std::fs::remove_dir_all(&kept);
            if !dir.join("ok").is_file() {
                continue;
            }
        }
        let mut r = found(&dir);
        r.cached = false;
        return Ok(Ok(r));
    }
    let dir = scratch.join("runner");
    if let Err(out) = compile_runner(javac, &cp, &dir, &sources, console.is_some())? {
        return Ok(Err(out));
    }
    let mut r = found(&dir);
    r.cached = false;
    Ok(Ok(r))
}
