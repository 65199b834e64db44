//! The classes a `gen` run tests: `--class`, `--classlist`, `--package` and `--jar` resolved,
//! checked (class-file versions, nameable in their tests' package) and loaded into the model
//! with the classes that supply their arguments. A run selects them on its session;
//! `--per-class` selects them once up front to run each on its own.

use super::GenSettings;
use crate::generate::ops::SkipReason;
use crate::model::Model;
use crate::model::classpath::{ClassPath, JdkClasses};
use crate::select;
use crate::session::Session;
use anyhow::bail;
use std::collections::HashSet;

/// The classes a run tests.
pub(crate) struct Selected {
    pub(crate) classes: Vec<String>,
    /// Found through --package/--jar and not tested, with the reason.
    pub(crate) skipped: Vec<(String, SkipReason)>,
    /// Named with --class/--classlist (an error when one cannot be tested).
    pub(crate) explicit: HashSet<String>,
    /// The classes the methods of `classes` test a parameter's value against with
    /// `instanceof` ([`tested_types`]), loaded: the producer graph makes values of them.
    pub(crate) tested: Vec<String>,
}

impl Selected {
    /// The classes coverage measures: the classes under test and the classes of their
    /// packages or jars that tests cannot name (`ClassNotPublic`: private nested classes;
    /// package-private ones are under test, their tests being in their package). Why the
    /// latter: with `--package`/`--jar` the user's measure is the package's (a build's
    /// JaCoCo report counts every class file), and much of a package's code lives in
    /// classes its public API returns (guava collect: 2,292 of 6,114 branches in
    /// package-private ones). Measured, a sequence that reaches new code there is a
    /// regression candidate and its test is written; unmeasured, it was kept only by chance.
    pub(crate) fn measured(&self) -> Vec<String> {
        let mut all = self.classes.clone();
        all.extend(
            self.skipped
                .iter()
                .filter(|(_, why)| *why == SkipReason::ClassNotPublic)
                .map(|(c, _)| c.clone()),
        );
        all
    }
}

/// Resolves --class/--classlist/--package/--jar into the classes to test (class files newer
/// than the JDK refused first) and loads them and their helper classes into the model. The
/// tests are written in their classes' packages, so classes of package access are tested too
/// (not private, local or anonymous ones, nor the JDK's: their tests are in `jforge.tests`),
/// and the model's home packages are set to those packages (`Model::set_home_packages`).
pub(super) fn select_classes(
    session: &mut Session,
    args: &GenSettings,
) -> anyhow::Result<Selected> {
    let jdk_feature = session.java.version;
    session.with_classes(|model, cp, jdk| select_in(model, cp, jdk, jdk_feature, args))
}

/// [`select_classes`] on a model, a class path and the JDK's classes (of feature release
/// `jdk_feature`), as a session or a one-time look ([`Session::look`]) hands them over.
pub(super) fn select_in(
    model: &mut Model,
    cp: &ClassPath,
    jdk: &mut dyn JdkClasses,
    jdk_feature: u32,
    args: &GenSettings,
) -> anyhow::Result<Selected> {
    let asked = select::Asked {
        classes: &args.run.classes,
        classlist: args.classlist.as_deref(),
        packages: &args.packages,
        jars: &args.jars,
    };
    let sel = {
        let sel = select::find_classes(&asked, cp, jdk, jdk_feature, &mut |n, jdk| {
            Ok(model.load(cp, jdk, n)?.is_some() && model.get(n).is_some())
        })?;
        let named = &sel.explicit;
        model.set_home_packages(home_packages(
            named.iter().chain(&sel.discovered),
            args.test_package.as_deref(),
        ));
        let mut classes = Vec::new();
        let mut skipped = Vec::new();
        let mut explicit = HashSet::new();
        for c in named {
            // a class named with --class/--classlist that no test can name is an error
            if let Some(why) = model.why_tests_cannot_name(c) {
                bail!("class {c} {why}");
            }
            classes.push(c.clone());
            explicit.insert(c.clone());
        }
        for c in &sel.discovered {
            let found = model.load(cp, jdk, c)?.is_some();
            if found && model.is_accessible(c) {
                classes.push(c.clone());
            } else if found {
                skipped.push((c.clone(), SkipReason::ClassNotPublic));
            } else {
                skipped.push((c.clone(), SkipReason::ClassNotFound));
            }
        }
        // The producer graph's classes only supply arguments; one that cannot be read is
        // simply unused. So is the enum that stands in for `E extends Enum<E>`.
        let tested = tested_types(model, cp, jdk, &classes);
        crate::model::producers::load_closure(model, cp, jdk, &classes, &tested);
        let _ = model.load(cp, jdk, crate::generate::ops::ENUM_STAND_IN);
        // what a CharSequence parameter is given besides Strings (`generate::ops`)
        let _ = model.load(cp, jdk, "java.lang.StringBuilder");
        let tested = tested
            .into_iter()
            .filter(|t| model.get(t).is_some() && model.is_accessible(t))
            .collect();
        Selected {
            classes,
            skipped,
            explicit,
            tested,
        }
    };
    if sel.classes.is_empty() {
        bail!(
            "none of the selected classes can be tested (all are private or local): nothing to test"
        );
    }
    Ok(sel)
}

/// The classes (binary names) that the constructors and methods of `classes` with a
/// reference parameter test with `instanceof`, in their own code or their class's methods
/// they call (`instrument::fields`), other than the classes themselves. Why: such a method
/// treats those values apart (`CSVFormat.print(Object, ..)` streams an `InputStream`), and
/// generation passes them only if something makes them (`gen::run::cast_hints`); a type no
/// signature mentions had no producer. Classes not loaded yet are not checked against the
/// parameter types here: the producer graph only offers values, `cast_hints` decides.
fn tested_types(
    model: &Model,
    cp: &ClassPath,
    jdk: &mut dyn JdkClasses,
    classes: &[String],
) -> Vec<String> {
    let mut bytes = |n: &str| {
        cp.find(n)
            .ok()
            .flatten()
            .or_else(|| jdk.class_bytes(n).ok().flatten())
    };
    let mut fields = crate::instrument::fields::Fields::default();
    let mut out = std::collections::BTreeSet::new();
    for c in classes {
        let Some(ci) = model.get(c) else { continue };
        for m in ci.constructors.iter().chain(&ci.methods) {
            if !m.params.iter().any(|p| p.class_name().is_some()) {
                continue;
            }
            let u = fields.of(c, &m.name, &m.descriptor, &mut bytes);
            out.extend(u.casts.iter().map(|t| t.replace('/', ".")));
        }
    }
    // (nested classes are not followed: mostly the code's own private or anonymous ones,
    // which no test can make; a public nested type tested this way is not reached yet)
    out.into_iter()
        .filter(|t| !classes.contains(t) && !t.contains('$'))
        .collect()
}

/// The packages whose things of package access the tests can call: the packages of the
/// selected `classes` where their tests are written (not the JDK's: a test cannot be in
/// `java.util`), or with `--test-package` that package when a selected class is in it.
fn home_packages<'a>(
    classes: impl Iterator<Item = &'a String>,
    test_package: Option<&str>,
) -> Vec<String> {
    let mut home = Vec::new();
    for c in classes {
        let package = c.rsplit_once('.').map(|(p, _)| p);
        let Some(p) = crate::emit::suite::test_package(c, test_package) else {
            continue;
        };
        if package == Some(p.as_str()) && !home.contains(&p) {
            home.push(p);
        }
    }
    home
}

#[cfg(test)]
mod tests {
    use super::home_packages;

    #[test]
    fn home_packages_are_the_packages_tests_are_written_in() {
        let classes: Vec<String> = ["a.b.C", "a.b.D$E", "java.util.TreeMap", "x.Y", "Plain"]
            .map(String::from)
            .to_vec();
        // the JDK's tests are in jforge.tests: never home; the default package has none
        assert_eq!(home_packages(classes.iter(), None), ["a.b", "x"]);
        // --test-package: only that package, when a class is in it
        assert_eq!(home_packages(classes.iter(), Some("x")), ["x"]);
        assert!(home_packages(classes.iter(), Some("t")).is_empty());
        assert!(home_packages(classes[2..3].iter(), None).is_empty());
    }
}
