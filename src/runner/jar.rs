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

pub fn cache_dirs() -> Vec<PathBuf> {
    let mut v = Vec::new();
    if let Some(x) = std::env::var_os("XDG_CACHE_HOME").filter(|x| !x.is_empty()) {
        v.push(PathBuf::from(x).join("jforge"));
    }
    if let Some(h) = std::env::var_os("HOME").filter(|x| !x.is_empty()) {
        v.push(PathBuf::from(h).join(".cache").join("jforge"));
    }
    // One folder per user: a shared one was created by the first user and refused the rest.
    v.push(std::env::temp_dir().join(format!(
        "jforge-cache-{}",
        rustix::process::getuid().as_raw()
    )));
    v
}

/// Whether `dir` may hold the jar this process runs: absent (it will be made), or a folder of
/// this user's that nobody else can write to (a jar planted there would run as this user).
pub fn trusted(dir: &std::path::Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match std::fs::symlink_metadata(dir) {
        Err(_) => true,
        Ok(m) => {
            m.is_dir() && m.uid() == rustix::process::getuid().as_raw() && m.mode() & 0o022 == 0
        }
    }
}

/// Path of the unpacked worker jar, unpacking it when needed.
pub fn worker_jar() -> Result<PathBuf> {
    let name = format!("worker-{}.jar", jar_hash());
    let mut last_err = None;
    for dir in cache_dirs() {
        if !trusted(&dir) {
            last_err = Some(anyhow::anyhow!(
                "{} is another user's or writable by others",
                dir.display()
            ));
            continue;
        }
        let path = dir.join(&name);
        // the bytes, not only the length: a jar cut short or altered is written again
        if std::fs::read(&path).is_ok_and(|b| b == WORKER_JAR) {
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
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("creating {}", dir.display()))?;
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
    fn only_own_folders_closed_to_others_are_trusted() {
        use std::os::unix::fs::PermissionsExt;
        let d = tempfile::tempdir().unwrap();
        assert!(trusted(&d.path().join("absent")));
        let open = d.path().join("open");
        std::fs::create_dir(&open).unwrap();
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
        assert!(!trusted(&open));
        std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert!(trusted(&open));
        let file = d.path().join("file");
        std::fs::write(&file, b"x").unwrap();
        assert!(!trusted(&file));
        assert!(
            cache_dirs()
                .last()
                .unwrap()
                .to_string_lossy()
                .contains("jforge-cache-")
        );
    }

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
