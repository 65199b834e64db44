//! Where the JUnit jars come from for compiling and running the written tests.
//!
//! Why: the final check must run on any machine that has a JDK, not only on one with
//! Debian's `junit4`/`junit5` packages. The lookup order, best first:
//! 1. `--junit-classpath` (a ':'-separated class path), else env `JFORGE_JUNIT_CLASSPATH`;
//! 2. Debian's `/usr/share/java` (`JFORGE_JUNIT_SHARE` names another folder of that layout:
//!    other distributions, or a test that simulates a machine without the packages);
//! 3. jforge's cache folder (`~/.cache/jforge/junit/`), filled by step 5 on an earlier run;
//! 4. the Maven repository `~/.m2/repository` (newest version found);
//! 5. Maven itself, when `mvn` is on the PATH: a throw-away POM that declares JUnit 4.13.2 and
//!    the JUnit Platform console launcher [`CONSOLE_VERSION`] is resolved with
//!    `dependency:copy-dependencies` into the cache folder (once: about 3.5 MB, 10 s), so the
//!    local Maven repository, mirrors and proxies of `~/.m2/settings.xml` are honoured.
//!
//! When all fail, the error names each place looked at and what to install.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};

/// The JUnit 4 release resolved through Maven (the last of the 4.x line).
pub const JUNIT4_VERSION: &str = "4.13.2";
/// The JUnit Platform console launcher resolved through Maven: the last release of the
/// JUnit 5 line, which runs on Java 8+ (6.x needs Java 17 and drops nothing we use, but the
/// 1.x line keeps the check working for `--java` 11).
pub const CONSOLE_VERSION: &str = "1.14.4";
/// The plugin version named in the throw-away POM (not the one a Maven install defaults to:
/// the result must not depend on the Maven version).
const DEPENDENCY_PLUGIN: &str = "3.6.1";

/// Where to look, apart from the explicit class path: a struct so that tests can point each
/// place at a folder of their own.
#[derive(Clone, Debug)]
pub struct Places {
    /// Debian's layout: `junit4.jar`, `hamcrest-core.jar`, `junit-platform-console-standalone.jar`...
    pub share: PathBuf,
    /// The user's home (for `~/.m2/repository`), if known.
    pub home: Option<PathBuf>,
    /// jforge's own cache folders, best first (the first writable one receives Maven's copy).
    pub caches: Vec<PathBuf>,
    /// Resolve through Maven when nothing else has the jars.
    pub maven: bool,
}

impl Places {
    /// The places of this machine and user.
    pub fn of_this_machine() -> Places {
        let share = std::env::var_os("JFORGE_JUNIT_SHARE")
            .filter(|s| !s.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/usr/share/java"));
        Places {
            share,
            home: std::env::var_os("HOME")
                .filter(|h| !h.is_empty())
                .map(PathBuf::from),
            caches: crate::runner::jar::cache_dirs()
                .into_iter()
                .map(|d| d.join("junit"))
                .collect(),
            maven: true,
        }
    }
}

pub(crate) fn split_cp(cp: &str) -> Vec<PathBuf> {
    cp.split(':')
        .filter(|s| !s.is_empty())
        .map(PathBuf::from)
        .collect()
}

pub(crate) fn check_entries(entries: Vec<PathBuf>, origin: &str) -> Result<Vec<PathBuf>> {
    if entries.is_empty() {
        bail!(
            "the JUnit class path from {origin} is empty; pass e.g. --junit-classpath /usr/share/java/junit4.jar:/usr/share/java/hamcrest-core.jar"
        );
    }
    for e in &entries {
        if !e.exists() {
            bail!(
                "JUnit class path entry {} (from {origin}) does not exist; fix --junit-classpath / JFORGE_JUNIT_CLASSPATH",
                e.display()
            );
        }
    }
    Ok(entries)
}

/// Compare dotted version strings numerically (`4.13.2` > `4.9`).
pub(crate) fn version_key(v: &str) -> Vec<u64> {
    v.split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap_or(0))
        .collect()
}

/// Highest version of `<repo>/<group path>/<artifact>/<ver>/<artifact>-<ver>.jar`.
fn newest_in_m2(repo: &Path, group: &str, artifact: &str) -> Option<PathBuf> {
    let dir = repo.join(group.replace('.', "/")).join(artifact);
    let mut best: Option<(Vec<u64>, PathBuf)> = None;
    for e in std::fs::read_dir(&dir).ok()?.flatten() {
        let ver = e.file_name().to_string_lossy().to_string();
        let jar = e.path().join(format!("{artifact}-{ver}.jar"));
        if jar.is_file() {
            let key = version_key(&ver);
            if best.as_ref().is_none_or(|(k, _)| key > *k) {
                best = Some((key, jar));
            }
        }
    }
    best.map(|(_, p)| p)
}

/// JUnit jars for compiling and running: `explicit` (a ':'-separated class path) > env
/// JFORGE_JUNIT_CLASSPATH > the places of [`Places::of_this_machine`] (module documentation).
pub fn find_junit(junit: u8, explicit: Option<&str>) -> Result<Vec<PathBuf>> {
    if junit != 4 && junit != 5 {
        bail!("unsupported JUnit version {junit}: choose 4 or 5");
    }
    if let Some(cp) = explicit {
        return check_entries(split_cp(cp), "--junit-classpath");
    }
    if let Ok(cp) = std::env::var("JFORGE_JUNIT_CLASSPATH")
        && !cp.trim().is_empty()
    {
        return check_entries(split_cp(&cp), "JFORGE_JUNIT_CLASSPATH");
    }
    find_junit_in(junit, &Places::of_this_machine())
}

/// The jars `names` in `dir`, when all are there.
fn all_in(dir: &Path, names: &[&str]) -> Option<Vec<PathBuf>> {
    let v: Vec<PathBuf> = names.iter().map(|n| dir.join(n)).collect();
    v.iter().all(|p| p.is_file()).then_some(v)
}

fn in_share(junit: u8, share: &Path) -> Option<Vec<PathBuf>> {
    if junit == 4 {
        all_in(share, &["junit4.jar", "hamcrest-core.jar"])
    } else {
        all_in(share, &["junit-platform-console-standalone.jar"]).or_else(|| {
            all_in(
                share,
                &[
                    "junit-jupiter-api.jar",
                    "junit-jupiter-engine.jar",
                    "junit-platform-commons.jar",
                    "junit-platform-engine.jar",
                    "junit-platform-launcher.jar",
                    "opentest4j.jar",
                    "apiguardian-api.jar",
                ],
            )
        })
    }
}

/// The jar names [`resolve_with_maven`] leaves in a cache folder.
fn cached_names(junit: u8) -> Vec<String> {
    if junit == 4 {
        vec![
            format!("junit-{JUNIT4_VERSION}.jar"),
            "hamcrest-core-1.3.jar".to_string(),
        ]
    } else {
        vec![format!(
            "junit-platform-console-standalone-{CONSOLE_VERSION}.jar"
        )]
    }
}

fn in_cache(junit: u8, caches: &[PathBuf]) -> Option<Vec<PathBuf>> {
    let names = cached_names(junit);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    caches.iter().find_map(|c| all_in(c, &names))
}

fn in_m2(junit: u8, home: &Path) -> Option<Vec<PathBuf>> {
    let repo = home.join(".m2/repository");
    if junit == 4 {
        match (
            newest_in_m2(&repo, "junit", "junit"),
            newest_in_m2(&repo, "org.hamcrest", "hamcrest-core"),
        ) {
            (Some(a), Some(b)) => Some(vec![a, b]),
            _ => None,
        }
    } else {
        newest_in_m2(
            &repo,
            "org.junit.platform",
            "junit-platform-console-standalone",
        )
        .map(|p| vec![p])
    }
}

pub(crate) fn find_junit_in(junit: u8, places: &Places) -> Result<Vec<PathBuf>> {
    if let Some(v) = in_share(junit, &places.share)
        .or_else(|| in_cache(junit, &places.caches))
        .or_else(|| places.home.as_deref().and_then(|h| in_m2(junit, h)))
    {
        return Ok(v);
    }
    let why = if places.maven {
        match resolve_with_maven(&places.caches) {
            Ok(()) => match in_cache(junit, &places.caches) {
                Some(v) => return Ok(v),
                None => "Maven ran but left no jars in jforge's cache folder".to_string(),
            },
            Err(e) => format!("{e:#}"),
        }
    } else {
        "not tried".to_string()
    };
    let pkg = if junit == 4 { "junit4" } else { "junit5" };
    let cache = places
        .caches
        .first()
        .map(|c| c.display().to_string())
        .unwrap_or_default();
    bail!(
        "JUnit {junit} jars not found: looked in {}, {cache} and ~/.m2/repository; resolving them \
         through Maven: {why}. Install Debian package {pkg} (apt-get install {pkg}), or Maven \
         with access to Maven Central (apt-get install maven; jforge then fetches JUnit \
         {JUNIT4_VERSION} and the console launcher {CONSOLE_VERSION} once), or pass \
         --junit-classpath (or set JFORGE_JUNIT_CLASSPATH)",
        places.share.display()
    )
}

/// The throw-away POM whose dependencies are the jars the check needs.
fn resolve_pom() -> String {
    format!(
        r#"<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>jforge.junit</groupId><artifactId>resolve</artifactId><version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>{JUNIT4_VERSION}</version></dependency>
    <dependency><groupId>org.junit.platform</groupId><artifactId>junit-platform-console-standalone</artifactId><version>{CONSOLE_VERSION}</version></dependency>
  </dependencies>
  <build><plugins><plugin><groupId>org.apache.maven.plugins</groupId><artifactId>maven-dependency-plugin</artifactId><version>{DEPENDENCY_PLUGIN}</version></plugin></plugins></build>
</project>
"#
    )
}

/// Resolves JUnit 4 and the console launcher through `mvn` into the first usable cache
/// folder (written under a temporary name, then renamed, so a run interrupted half-way leaves
/// nothing a later run would take for complete).
fn resolve_with_maven(caches: &[PathBuf]) -> Result<()> {
    let dest = caches
        .iter()
        .find(|c| {
            c.parent().is_some_and(|p| {
                crate::runner::jar::trusted(p) && std::fs::create_dir_all(p).is_ok()
            })
        })
        .context("no writable cache folder ($XDG_CACHE_HOME, ~/.cache or the temp directory)")?;
    let parent = dest.parent().context("cache folder without a parent")?;
    let work =
        crate::interrupt::temp_dir_in(tempfile::Builder::new().prefix("junit-resolve-"), parent)
            .with_context(|| format!("cannot create a folder in {}", parent.display()))?;
    on_path("mvn").context("mvn is not on the PATH")?;
    std::fs::write(work.path().join("pom.xml"), resolve_pom())?;
    let out = work.path().join("jars");
    eprintln!(
        "jforge: no JUnit jars on this machine; fetching JUnit {JUNIT4_VERSION} and the console launcher {CONSOLE_VERSION} through Maven into {} (once)",
        dest.display()
    );
    let user = crate::maven::env_args()?;
    crate::maven::Call {
        dir: work.path(),
        java_home: None,
        user: &user,
        doing: "fetch JUnit and its console launcher".to_string(),
    }
    .run(&[
        "dependency:copy-dependencies".to_string(),
        format!("-DoutputDirectory={}", out.display()),
    ])?;
    // Another run may have finished first: its folder is as good as ours.
    if !dest.is_dir() {
        std::fs::rename(&out, dest)
            .or_else(|e| if dest.is_dir() { Ok(()) } else { Err(e) })
            .with_context(|| format!("cannot move the jars into {}", dest.display()))?;
    }
    Ok(())
}

/// The file `name` in the first folder of `$PATH` that has it.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

fn is_console_jar(p: &Path) -> bool {
    p.file_name().is_some_and(|n| {
        n.to_string_lossy()
            .starts_with("junit-platform-console-standalone")
    })
}

/// Where the JUnit Platform console launcher is, for running JUnit 4 suites through it:
/// nothing more when `junit_cp` has `junit-platform-console-standalone*.jar`, else that jar
/// from the places of [`find_junit`] (without asking Maven: that run is optional);
/// `None` when there is none.
pub fn find_console_launcher(junit_cp: &[PathBuf]) -> Option<Vec<PathBuf>> {
    if junit_cp.iter().any(|p| is_console_jar(p)) {
        return Some(Vec::new());
    }
    let places = Places {
        maven: false,
        ..Places::of_this_machine()
    };
    let found = find_junit_in(5, &places).ok()?;
    let jar: Vec<PathBuf> = found.into_iter().filter(|p| is_console_jar(p)).collect();
    (!jar.is_empty()).then_some(jar)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places(dir: &Path) -> Places {
        Places {
            share: dir.join("share"),
            home: Some(dir.to_path_buf()),
            caches: vec![dir.join("cache/junit")],
            maven: false,
        }
    }

    #[test]
    fn console_launcher_on_the_junit_class_path_is_used() {
        let cp = vec![
            PathBuf::from("/x/junit4.jar"),
            PathBuf::from("/x/junit-platform-console-standalone-1.9.1.jar"),
        ];
        assert_eq!(find_console_launcher(&cp), Some(vec![]));
        assert!(!is_console_jar(Path::new("/x/junit-platform-console.jar")));
    }

    #[test]
    fn versions_compare_numerically() {
        assert!(version_key("4.13.2") > version_key("4.9"));
    }

    #[test]
    fn junit_lookup_reports_how_to_fix() {
        let empty = tempfile::tempdir().unwrap();
        let e = find_junit_in(4, &places(empty.path()))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("Debian package junit4 (apt-get install junit4)"),
            "{e}"
        );
        assert!(e.contains("apt-get install maven"), "{e}");
        assert!(e.contains("--junit-classpath"), "{e}");
        let e = find_junit_in(5, &places(empty.path()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("junit5"), "{e}");
        assert!(check_entries(vec![empty.path().join("nope.jar")], "x").is_err());
    }

    #[test]
    fn the_maven_repository_then_the_cache_are_used() {
        let empty = tempfile::tempdir().unwrap();
        let m2 = empty.path().join(".m2/repository");
        for (g, a, v) in [
            ("junit", "junit", "4.12"),
            ("junit", "junit", "4.13.2"),
            ("org/hamcrest", "hamcrest-core", "1.3"),
        ] {
            let d = m2.join(g).join(a).join(v);
            std::fs::create_dir_all(&d).unwrap();
            std::fs::write(d.join(format!("{a}-{v}.jar")), b"").unwrap();
        }
        let found = find_junit_in(4, &places(empty.path())).unwrap();
        assert!(found[0].ends_with("junit-4.13.2.jar"), "{found:?}");
        assert!(found[1].ends_with("hamcrest-core-1.3.jar"), "{found:?}");
        // jforge's cache comes before ~/.m2.
        let cache = empty.path().join("cache/junit");
        std::fs::create_dir_all(&cache).unwrap();
        for n in cached_names(4) {
            std::fs::write(cache.join(n), b"").unwrap();
        }
        let found = find_junit_in(4, &places(empty.path())).unwrap();
        assert!(found[0].starts_with(&cache), "{found:?}");
    }

    #[test]
    fn the_resolving_pom_names_pinned_versions() {
        let pom = resolve_pom();
        assert!(pom.contains("<version>4.13.2</version>"));
        assert!(pom.contains(&format!("<version>{CONSOLE_VERSION}</version>")));
        assert!(pom.contains(&format!("<version>{DEPENDENCY_PLUGIN}</version>")));
    }
}
