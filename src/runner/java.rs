//! Finding a JDK: the worker needs `java` 17+ (Unix domain sockets in java.nio, JDK 16+), and
//! later stages need `javac`. Order: an explicit `--java PATH` (a JDK home or a java binary),
//! then `$JAVA_HOME`, then `java` on PATH with symlinks resolved to its home.

use anyhow::{Context, Result, anyhow, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JavaHome {
    pub home: PathBuf,
    pub java: PathBuf,
    pub javac: Option<PathBuf>,
    pub version: u32,
}

const HOW_TO: &str = "point jforge at a JDK 17 or newer with --java PATH (a JDK home or its bin/java) \
or the JAVA_HOME environment variable; to install one on Debian/Ubuntu: \
apt-get install openjdk-17-jdk-headless";

/// Locates a JDK (see module docs). Requires version >= 17.
pub fn find_java(explicit: Option<&Path>) -> Result<JavaHome> {
    if let Some(p) = explicit {
        let jh = from_path(p).map_err(|e| anyhow!("--java {}: {e:#}; {HOW_TO}", p.display()))?;
        return check(jh);
    }
    if let Some(h) = std::env::var_os("JAVA_HOME").filter(|h| !h.is_empty()) {
        let jh = from_path(Path::new(&h))
            .map_err(|e| anyhow!("JAVA_HOME={}: {e:#}; {HOW_TO}", Path::new(&h).display()))?;
        return check(jh);
    }
    if let Some(java) = on_path("java") {
        let real = std::fs::canonicalize(&java).unwrap_or(java);
        let jh = from_path(&real)
            .map_err(|e| anyhow!("java on PATH ({}): {e:#}; {HOW_TO}", real.display()))?;
        return check(jh);
    }
    bail!("no Java found (no --java, no JAVA_HOME, no java on PATH): {HOW_TO}")
}

fn check(jh: JavaHome) -> Result<JavaHome> {
    if jh.version < 17 {
        bail!(
            "{} is Java {}, but jforge needs Java 17 or newer: {HOW_TO}",
            jh.java.display(),
            jh.version
        );
    }
    Ok(jh)
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// `p` is a JDK/JRE home or a `java` binary (possibly a symlink). Messages do not repeat
/// `p`: the caller names it.
fn from_path(p: &Path) -> Result<JavaHome> {
    if !p.exists() {
        bail!("it does not exist");
    }
    let (home, java) = if p.is_dir() {
        let java = p.join("bin").join("java");
        if !java.is_file() {
            bail!("it has no bin/java, so it is not a Java home");
        }
        (p.to_path_buf(), java)
    } else {
        let real = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        let home = real
            .parent()
            .and_then(|b| b.parent())
            .map(Path::to_path_buf)
            .with_context(|| format!("cannot tell the Java home of {}", real.display()))?;
        (home, p.to_path_buf())
    };
    let javac = Some(home.join("bin").join("javac")).filter(|j| j.is_file());
    let version = version_from_release(&home)
        .or_else(|| version_from_binary(&java))
        .with_context(|| format!("cannot determine the version of {}", java.display()))?;
    Ok(JavaHome {
        home,
        java,
        javac,
        version,
    })
}

fn version_from_release(home: &Path) -> Option<u32> {
    let text = std::fs::read_to_string(home.join("release")).ok()?;
    let line = text.lines().find(|l| l.starts_with("JAVA_VERSION="))?;
    parse_version(line.trim_start_matches("JAVA_VERSION=").trim_matches('"'))
}

fn version_from_binary(java: &Path) -> Option<u32> {
    let out = Command::new(java).arg("-version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stderr);
    let q = text.split('"').nth(1)?;
    parse_version(q)
}

/// "17.0.15" -> 17, "1.8.0_392" -> 8, "21" -> 21, "22-ea" -> 22.
pub fn parse_version(s: &str) -> Option<u32> {
    let mut parts = s.split(|c: char| !c.is_ascii_digit());
    let first: u32 = parts.next()?.parse().ok()?;
    if first == 1 {
        return parts.next()?.parse().ok();
    }
    Some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(parse_version("17.0.15"), Some(17));
        assert_eq!(parse_version("1.8.0_392"), Some(8));
        assert_eq!(parse_version("21"), Some(21));
        assert_eq!(parse_version("22-ea"), Some(22));
        assert_eq!(parse_version("x"), None);
    }

    #[test]
    fn finds_installed_jdk() {
        let jh = find_java(None).unwrap();
        assert!(jh.version >= 17);
        assert!(jh.java.is_file());
        let again = find_java(Some(&jh.home)).unwrap();
        assert_eq!(again.version, jh.version);
        let by_bin = find_java(Some(&jh.java)).unwrap();
        assert_eq!(
            by_bin.home,
            std::fs::canonicalize(&jh.home).unwrap_or(jh.home.clone())
        );
    }

    #[test]
    fn bad_explicit_path_explains_what_to_do() {
        let e = find_java(Some(Path::new("/nonexistent/jdk"))).unwrap_err();
        let msg = format!("{e:#}");
        assert!(
            msg.contains("JAVA_HOME") && msg.contains("openjdk-17-jdk-headless"),
            "{msg}"
        );
    }
}
