//! The worker jar, compiled by build.rs and embedded in the binary so that jforge is a single
//! file. The JVM needs it on disk, so it is unpacked once into a cache directory under a name
//! containing a hash of its bytes (a new jforge build never runs an old worker), written to a
//! temporary file and renamed into place so that concurrent runs never see a partial jar.

use anyhow::{Context, Result};
use std::hash::Hasher;
use std::io::Write;
use std::path::PathBuf;

/// The worker jar's bytes.
pub static WORKER_JAR: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/jforge-worker.jar"));

/// Hex hash of the embedded jar.
pub fn jar_hash() -> String {
    let mut h = twox_hash::XxHash64::with_seed(0x006a_6172);
    h.write(WORKER_JAR);
    format!("{:016x}", h.finish())
}

fn cache_dirs() -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        v.push(PathBuf::from(x).join("jforge"));
    }
    if let Some(h) = std::env::var_os("HOME").filter(|x| !x.is_empty()) {
        v.push(PathBuf::from(h).join(".cache").join("jforge"));
    }
    v.push(std::env::temp_dir().join("jforge-cache"));
    v
}

/// Path of the unpacked worker jar, unpacking it when needed.
pub fn worker_jar() -> Result<PathBuf> {
    let name = format!("worker-{}.jar", jar_hash());
    let mut last_err = None;
    for dir in cache_dirs() {
        let path = dir.join(&name);
        if std::fs::metadata(&path).is_ok_and(|m| m.len() == WORKER_JAR.len() as u64) {
            return Ok(path);
        }
        match write_atomic(&dir, &path) {
            Ok(()) => return Ok(path),
            Err(e) => last_err = Some(e),
        }
    }
    Err(last_err.unwrap_or_else(|| anyhow::anyhow!("no cache directory")))
        .context("cannot unpack the jforge worker jar: make $XDG_CACHE_HOME, ~/.cache or the temp directory writable")
}

fn write_atomic(dir: &std::path::Path, path: &std::path::Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    tmp.write_all(WORKER_JAR)?;
    tmp.flush()?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("renaming into {}", path.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jar_is_unpacked_once_with_same_bytes() {
        let p = worker_jar().unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), WORKER_JAR);
        assert!(
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .contains(&jar_hash())
        );
        assert_eq!(worker_jar().unwrap(), p);
        // a jar is a zip: starts with PK
        assert_eq!(&WORKER_JAR[..2], b"PK");
    }
}
