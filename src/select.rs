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
        sel.discovered.extend(found);
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
