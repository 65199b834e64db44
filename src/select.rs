//! Which classes to test: `--class`, `--classlist`, `--package`, `--jar`, resolved against the
//! class path and the JDK, with clear errors (and near-name suggestions) for names that do
//! not exist.

use crate::model::classpath::{ClassPath, JdkClasses};
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};

/// More classes than this in one run is refused: narrow the selection.
pub const MAX_CLASSES: usize = 2000;

/// What the user asked for.
#[derive(Debug, Default, Clone)]
pub struct Selection {
    /// Named explicitly (`--class`, `--classlist`): each must exist and be testable.
    pub explicit: Vec<String>,
    /// Found through `--package` / `--jar`: non-testable ones are skipped quietly.
    pub discovered: Vec<String>,
}

/// What the user named: `--class`, `--classlist`, `--package`, `--jar`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Asked<'a> {
    pub classes: &'a [String],
    pub classlist: Option<&'a Path>,
    pub packages: &'a [String],
    pub jars: &'a [PathBuf],
}

/// The classes to test, in one step: `asked` resolved ([`resolve`]), class files newer than
/// the JDK (`jdk_feature`) refused before anything is loaded, and each named class found by
/// `load` (which loads it into the caller's model; `Outer.Inner` finds `Outer$Inner`), an
/// unknown one an error with the near names. The returned `explicit` names are the classes
/// found.
pub fn find_classes(
    asked: &Asked,
    cp: &ClassPath,
    jdk: &mut dyn JdkClasses,
    jdk_feature: u32,
    load: &mut dyn FnMut(&str, &mut dyn JdkClasses) -> anyhow::Result<bool>,
) -> anyhow::Result<Selection> {
    let mut sel = resolve(
        asked.classes,
        asked.classlist,
        asked.packages,
        asked.jars,
        cp,
        jdk,
    )?;
    let names = sel.explicit.iter().chain(&sel.discovered);
    check_versions(names, &mut |n| cp.find(n), jdk_feature)?;
    let mut found = Vec::with_capacity(sel.explicit.len());
    for name in &sel.explicit {
        match find_class(name, &mut |n| load(n, &mut *jdk))? {
            Some(c) => found.push(c),
            None => return Err(unknown_class_error(name, cp, jdk)),
        }
    }
    sel.explicit = found;
    Ok(sel)
}

/// Read a class list file: one binary name per line, `#` starts a comment.
pub fn read_classlist(path: &Path) -> anyhow::Result<Vec<String>> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "cannot read class list {}: check the path given to --classlist",
            path.display()
        )
    })?;
    Ok(text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(normalize)
        .collect())
}

/// Whether `--jar` selects every public class of its jars: only when nothing else names the
/// classes. With `--class`, `--classlist` or `--package` the jar is on the class path and the
/// other flags choose (`--jar app.jar --package com.acme.format` tests that package, not
/// the whole jar).
fn jars_select(classes: &[String], classlist: Option<&Path>, packages: &[String]) -> bool {
    classes.is_empty() && classlist.is_none() && packages.is_empty()
}

/// Accept `java/util/TreeMap`, `java.util.TreeMap.class` too.
pub fn normalize(name: &str) -> String {
    let n = name.trim().trim_end_matches(".class");
    n.replace('/', ".")
}

pub fn resolve(
    classes: &[String],
    classlist: Option<&Path>,
    packages: &[String],
    jars: &[PathBuf],
    cp: &ClassPath,
    jdk: &mut dyn JdkClasses,
) -> anyhow::Result<Selection> {
    let mut sel = Selection::default();
    sel.explicit.extend(classes.iter().map(|c| normalize(c)));
    if let Some(f) = classlist {
        sel.explicit.extend(read_classlist(f)?);
    }
    for p in packages {
        let p = p.trim_end_matches('.').trim_end_matches(".*");
        let mut found = cp.list_classes(Some(p));
        if found.is_empty() {
            found = jdk
                .list_classes(p)
                .with_context(|| format!("cannot list the JDK's package {p}"))?;
        }
        if found.is_empty() {
            bail!(
                "no classes found in package '{p}' on the class path or in the JDK: check --package and --classpath"
            );
        }
        sel.discovered.extend(found);
    }
    for j in jars {
        let found = ClassPath::jar_classes(j)?;
        if found.is_empty() {
            bail!("{} holds no classes", j.display());
        }
        if jars_select(classes, classlist, packages) {
            sel.discovered.extend(found);
        }
    }
    // Anonymous and local classes are never testable; drop them early.
    sel.discovered.retain(|c| {
        !c.rsplit('$')
            .next()
            .is_some_and(|s| s.chars().next().is_some_and(|ch| ch.is_ascii_digit()))
            && !c.ends_with("package-info")
            && !c.ends_with("module-info")
    });
    sel.discovered.sort();
    sel.discovered.dedup();
    let mut seen = std::collections::HashSet::new();
    sel.explicit.retain(|c| seen.insert(c.clone()));
    sel.discovered.retain(|c| !seen.contains(c));
    if sel.explicit.is_empty() && sel.discovered.is_empty() {
        bail!(
            "no classes to test: name them with --class NAME, --classlist FILE, --package PREFIX or --jar JAR\n  e.g. jforge gen --class java.util.TreeMap"
        );
    }
    let total = sel.explicit.len() + sel.discovered.len();
    if total > MAX_CLASSES {
        bail!(
            "{total} classes selected, more than the {MAX_CLASSES} one run handles well: narrow --package or split the run (e.g. one --package per sub-package)"
        );
    }
    Ok(sel)
}

/// The names `name` may stand for, as written first: a nested class may be written with
/// dots (`com.acme.Outer.Inner` for `com.acme.Outer$Inner`), so the dots are turned into `$`
/// one by one from the right.
pub fn nested_forms(name: &str) -> Vec<String> {
    let mut out = vec![name.to_string()];
    let mut cur = name.to_string();
    while let Some(i) = cur.rfind('.') {
        cur.replace_range(i..=i, "$");
        out.push(cur.clone());
    }
    out
}

/// The first of [`nested_forms`] for which `exists` says yes, or `None`.
pub fn find_class(
    name: &str,
    exists: &mut dyn FnMut(&str) -> anyhow::Result<bool>,
) -> anyhow::Result<Option<String>> {
    for n in nested_forms(name) {
        if exists(&n)? {
            return Ok(Some(n));
        }
    }
    Ok(None)
}

/// Java feature version that introduced class-file major version `major` (45 = 1.1, 52 = 8,
/// 61 = 17, 62 = 18, ...).
pub fn java_of_class_file(major: u16) -> u32 {
    (major as u32).saturating_sub(44).max(1)
}

/// Refuses a class compiled for a newer Java than the JDK in use (Java `jdk_feature`): its
/// workers could not load it. `bytes` is the class file; not a class file is left to the
/// model, which names the problem.
pub fn check_class_version(name: &str, bytes: &[u8], jdk_feature: u32) -> anyhow::Result<()> {
    if bytes.get(..4) != Some(&[0xCA, 0xFE, 0xBA, 0xBE][..]) {
        return Ok(());
    }
    let Some(&[hi, lo]) = bytes.get(6..8) else {
        return Ok(());
    };
    let major = u16::from_be_bytes([hi, lo]);
    let needs = java_of_class_file(major);
    if needs > jdk_feature {
        bail!(
            "{name} is compiled for Java {needs} (class file {major}); the JDK in use is \
             {jdk_feature}: pass --java with a JDK {needs} or newer"
        );
    }
    Ok(())
}

/// Before any JVM starts: the class files on the class path that `--class`, `--classlist`,
/// `--package` and `--jar` name must not be compiled for a newer Java than the JDK in use.
/// (JDK classes always match their JDK; names not on the class path are left to selection.)
pub fn check_class_versions(
    classes: &[String],
    classlist: Option<&Path>,
    packages: &[String],
    jars: &[PathBuf],
    cp: &ClassPath,
    jdk_feature: u32,
) -> anyhow::Result<()> {
    let mut names: Vec<String> = classes.iter().map(|c| normalize(c)).collect();
    if let Some(f) = classlist {
        names.extend(read_classlist(f)?);
    }
    for p in packages {
        names.extend(cp.list_classes(Some(p.trim_end_matches('.').trim_end_matches(".*"))));
    }
    if jars_select(classes, classlist, packages) {
        for j in jars {
            names.extend(ClassPath::jar_classes(j)?);
        }
    }
    check_versions(names.iter(), &mut |n| cp.find(n), jdk_feature)
}

/// Refuses the first of `names` (each as given, `Outer.Inner` for `Outer$Inner`) whose class
/// file, read by `read` (`None`: not on the class path), is newer than `jdk_feature`.
fn check_versions<'a>(
    names: impl Iterator<Item = &'a String>,
    read: &mut dyn FnMut(&str) -> anyhow::Result<Option<Vec<u8>>>,
    jdk_feature: u32,
) -> anyhow::Result<()> {
    for n in names {
        let mut found = None;
        find_class(n, &mut |f| {
            found = read(f)?;
            Ok(found.is_some())
        })?;
        if let Some(bytes) = found {
            check_class_version(n, &bytes, jdk_feature)?;
        }
    }
    Ok(())
}

/// The error for a class that is not found, with near names from the same package.
pub fn unknown_class_error(name: &str, cp: &ClassPath, jdk: &mut dyn JdkClasses) -> anyhow::Error {
    let pkg = name.rsplit_once('.').map(|(p, _)| p).unwrap_or("");
    let mut pool = cp.list_classes(if pkg.is_empty() { None } else { Some(pkg) });
    if !pkg.is_empty()
        && let Ok(j) = jdk.list_classes(pkg)
    {
        pool.extend(j);
    }
    if pool.is_empty() {
        pool = cp.list_classes(None);
    }
    let mut scored: Vec<(f64, &String)> = pool
        .iter()
        .filter(|c| !c.contains('$') || name.contains('$'))
        .map(|c| {
            (
                strsim::jaro_winkler(&c.to_lowercase(), &name.to_lowercase()),
                c,
            )
        })
        .filter(|(s, _)| *s > 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    let near: Vec<&str> = scored.iter().take(3).map(|(_, c)| c.as_str()).collect();
    let mut msg = format!("class {name} not found on the class path or in the JDK");
    if !near.is_empty() {
        msg.push_str(&format!("\n  did you mean: {}?", near.join(", ")));
    }
    if cp.entries().is_empty() {
        msg.push_str("\n  (no --classpath given: only JDK classes can be found)");
    }
    anyhow::anyhow!(msg)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn normalizes_names() {
        assert_eq!(normalize("java/util/TreeMap.class"), "java.util.TreeMap");
        assert_eq!(normalize(" a.B$C "), "a.B$C");
    }
    #[test]
    fn nested_classes_may_be_written_with_dots() {
        assert_eq!(
            nested_forms("a.b.Outer.Inner"),
            vec![
                "a.b.Outer.Inner",
                "a.b.Outer$Inner",
                "a.b$Outer$Inner",
                "a$b$Outer$Inner"
            ]
        );
        let known = ["a.b.Outer$Inner", "a.b.Outer"];
        let found = find_class("a.b.Outer.Inner", &mut |n| Ok(known.contains(&n))).unwrap();
        assert_eq!(found.as_deref(), Some("a.b.Outer$Inner"));
        let found = find_class("a.b.Outer", &mut |n| Ok(known.contains(&n))).unwrap();
        assert_eq!(found.as_deref(), Some("a.b.Outer"));
        assert!(find_class("x.Y", &mut |_| Ok(false)).unwrap().is_none());
    }

    #[test]
    fn class_files_newer_than_the_jdk_are_refused() {
        let header = |major: u16| {
            let mut b = vec![0xCA, 0xFE, 0xBA, 0xBE, 0, 0];
            b.extend(major.to_be_bytes());
            b
        };
        assert!(check_class_version("a.B", &header(61), 17).is_ok());
        assert!(check_class_version("a.B", &header(52), 17).is_ok());
        let e = check_class_version("com.acme.Circle", &header(62), 17).unwrap_err();
        assert_eq!(
            e.to_string(),
            "com.acme.Circle is compiled for Java 18 (class file 62); the JDK in use is 17: \
             pass --java with a JDK 18 or newer"
        );
        let e = check_class_version("a.B", &header(70), 21).unwrap_err();
        assert!(e.to_string().contains("Java 26 (class file 70)"), "{e}");
        // not a class file: left to the model's reader
        assert!(check_class_version("a.B", b"nope", 17).is_ok());
    }

    #[test]
    fn classlist_skips_comments() {
        let d = tempfile::tempdir().unwrap();
        let f = d.path().join("list.txt");
        std::fs::write(
            &f,
            "# header\njava.util.TreeMap\n\n  java.util.ArrayList # trailing\n",
        )
        .unwrap();
        assert_eq!(
            read_classlist(&f).unwrap(),
            vec!["java.util.TreeMap", "java.util.ArrayList"]
        );
        let err = read_classlist(&d.path().join("nope")).unwrap_err();
        assert!(format!("{err:#}").contains("--classlist"));
    }
}
