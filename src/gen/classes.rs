//! The classes a `gen` run tests: `--class`, `--classlist`, `--package` and `--jar` resolved,
//! checked (class-file versions, public, nameable) and loaded into the model with the classes
//! that supply their arguments. A run selects them on its session; `--per-class` selects them
//! once up front ([`plan_classes`]) to run each on its own.

use super::GenSettings;
use crate::generate::ops::SkipReason;
use crate::select;
use crate::session::Session;
use anyhow::bail;
use std::collections::HashSet;

/// The classes a run selects, for `--per-class`: loaded and not
/// tested ones listed; no worker starts unless the JDK has no jmods.
pub(super) fn plan_classes(args: &GenSettings) -> anyhow::Result<Selected> {
    let mut session = crate::strategy::look(&args.run, &args.jars)?;
    let selected = select_classes(&mut session, args);
    session.shutdown();
    selected
}

/// The classes a run tests.
pub(crate) struct Selected {
    pub(crate) classes: Vec<String>,
    /// Found through --package/--jar and not tested, with the reason.
    pub(crate) skipped: Vec<(String, SkipReason)>,
    /// Named with --class/--classlist (an error when one cannot be tested).
    pub(crate) explicit: HashSet<String>,
}

impl Selected {
    /// The classes coverage measures: the classes under test and the classes of their
    /// packages or jars that tests cannot name (`ClassNotPublic`). Why the latter: with
    /// `--package`/`--jar` the user's measure is the package's (a build's JaCoCo report
    /// counts every class file), and much of a package's code lives in package-private
    /// classes its public API returns (guava collect: 2,292 of 6,114 branches). Measured,
    /// a sequence that reaches new code there is a regression candidate and its test is
    /// written; unmeasured, it was kept only by chance.
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

/// Refuses class files newer than the JDK can run, before anything is loaded.
fn check_class_versions(session: &Session, args: &GenSettings) -> anyhow::Result<()> {
    select::check_class_versions(
        &args.run.classes,
        args.classlist.as_deref(),
        &args.packages,
        &args.jars,
        &session.cp,
        session.java.version,
    )
}

/// Resolves --class/--classlist/--package/--jar into the public classes to test (class files
/// newer than the JDK refused first) and loads them and their helper classes into the model.
pub(super) fn select_classes(
    session: &mut Session,
    args: &GenSettings,
) -> anyhow::Result<Selected> {
    check_class_versions(session, args)?;
    let sel = session.with_classes(|model, cp, jdk| {
        let sel = select::resolve(
            &args.run.classes,
            args.classlist.as_deref(),
            &args.packages,
            &args.jars,
            cp,
            jdk,
        )?;
        let mut classes = Vec::new();
        let mut skipped = Vec::new();
        let mut explicit = HashSet::new();
        for asked in &sel.explicit {
            // `Outer.Inner` names `Outer$Inner` when it is no class itself
            let found = select::find_class(asked, &mut |n| Ok(model.load(cp, jdk, n)?.is_some()))?;
            let Some(c) = found else {
                return Err(select::unknown_class_error(asked, cp, jdk));
            };
            let Some(ci) = model.get(&c) else {
                return Err(select::unknown_class_error(asked, cp, jdk));
            };
            let c = &c;
            if matches!(ci.nesting, crate::model::Nesting::Local) || !ci.is_public() {
                bail!(
                    "class {c} is not public: jforge tests public classes through their public API"
                );
            }
            if !model.is_accessible(c) {
                bail!("class {c} is nested in a class that is not public, so tests cannot name it");
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
        crate::model::producers::load_closure(model, cp, jdk, &classes);
        let _ = model.load(cp, jdk, crate::generate::ops::ENUM_STAND_IN);
        Ok(Selected {
            classes,
            skipped,
            explicit,
        })
    })?;
    if sel.classes.is_empty() {
        bail!("none of the selected classes is public: nothing to test");
    }
    Ok(sel)
}
