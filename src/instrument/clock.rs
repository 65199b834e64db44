//! Clock reads as an input jforge controls: the call sites of the user's code that read the
//! clock (`System.currentTimeMillis`, `System.nanoTime`, `Clock.systemUTC/systemDefaultZone`,
//! `Instant.now`, `new Date()`, the `java.time` `now()` family, `Calendar.getInstance`) are
//! retargeted to static methods of `jforge/rt/JClock` (`rt/JClock.java`) with the same
//! descriptors, whose mode a system property chooses (real, fixed, shifted, slow).
//!
//! Why a rewrite of call sites and not of the JDK: the JDK reads its clock natively and for
//! itself (class loading, the worker's own timers), and what makes a test flaky is a value the
//! code under test derived from the clock. Every rewrite here keeps the code's length, so no
//! offset, frame or table changes: `invokestatic X.now` becomes `invokestatic JClock.X_now`
//! (a new constant-pool methodref), and `new Date; dup; invokespecial Date.<init>()V` (7
//! bytes) becomes `invokestatic JClock.newDate()Ljava/util/Date;` and four `nop`s, the same
//! stack effect (an initialized Date) when nothing jumps into the pattern (checked; a pattern
//! something jumps into, or a `super()` of a Date subclass, is left alone). JDK classes are
//! never rewritten.

use super::classfile::ConstPool;
use anyhow::Result;
use std::collections::HashMap;

/// Internal name of the clock runtime class.
pub const CLOCK_CLASS: &str = "jforge/rt/JClock";

/// The static methods that read the clock: (owner, name, descriptor) -> JClock method name
/// (same descriptor).
const STATIC_READS: &[(&str, &str, &str, &str)] = &[
    (
        "java/lang/System",
        "currentTimeMillis",
        "()J",
        "currentTimeMillis",
    ),
    ("java/lang/System", "nanoTime", "()J", "nanoTime"),
    (
        "java/time/Clock",
        "systemUTC",
        "()Ljava/time/Clock;",
        "Clock_systemUTC",
    ),
    (
        "java/time/Clock",
        "systemDefaultZone",
        "()Ljava/time/Clock;",
        "Clock_systemDefaultZone",
    ),
    (
        "java/time/Instant",
        "now",
        "()Ljava/time/Instant;",
        "Instant_now",
    ),
    (
        "java/util/Calendar",
        "getInstance",
        "()Ljava/util/Calendar;",
        "Calendar_getInstance",
    ),
    (
        "java/util/Calendar",
        "getInstance",
        "(Ljava/util/TimeZone;)Ljava/util/Calendar;",
        "Calendar_getInstance",
    ),
    (
        "java/util/Calendar",
        "getInstance",
        "(Ljava/util/Locale;)Ljava/util/Calendar;",
        "Calendar_getInstance",
    ),
    (
        "java/util/Calendar",
        "getInstance",
        "(Ljava/util/TimeZone;Ljava/util/Locale;)Ljava/util/Calendar;",
        "Calendar_getInstance",
    ),
];

/// The `java.time` classes whose `now()` and `now(ZoneId)` read the clock.
const NOW_CLASSES: &[&str] = &[
    "LocalDate",
    "LocalDateTime",
    "LocalTime",
    "ZonedDateTime",
    "OffsetDateTime",
    "OffsetTime",
    "Year",
    "YearMonth",
    "MonthDay",
];

/// The JClock method that replaces a call of `owner.name desc`, if it reads the clock.
pub fn replacement(owner: &str, name: &str, desc: &str) -> Option<String> {
    if let Some(r) = STATIC_READS
        .iter()
        .find(|(o, n, d, _)| *o == owner && *n == name && *d == desc)
    {
        return Some(r.3.to_string());
    }
    let simple = owner.strip_prefix("java/time/")?;
    if name != "now" || !NOW_CLASSES.contains(&simple) {
        return None;
    }
    let ret = format!("L{owner};");
    (desc == format!("(){ret}") || desc == format!("(Ljava/time/ZoneId;){ret}"))
        .then(|| format!("{simple}_now"))
}

/// What to rewrite in one class: methodref index -> JClock methodref index, and for `new
/// Date()` the Date class index, its `<init>()V` methodref and `JClock.newDate`'s.
#[derive(Default)]
pub(crate) struct ClockPatch {
    pub(crate) calls: HashMap<u16, u16>,
    pub(crate) new_date: Option<NewDate>,
}

/// The constant-pool indices of the `new Date()` rewrite.
#[derive(Clone)]
pub(crate) struct NewDate {
    /// The Class entries naming `java/util/Date`.
    pub(crate) classes: Vec<u16>,
    pub(crate) init: u16,
    pub(crate) to: u16,
}

impl ClockPatch {
    pub(crate) fn is_empty(&self) -> bool {
        self.calls.is_empty() && self.new_date.is_none()
    }
}

/// The clock reads a class's constant pool names, without changing it.
pub(crate) fn clock_refs(cp: &ConstPool) -> Vec<(u16, String, Option<String>)> {
    cp.methodref_indices()
        .into_iter()
        .filter_map(|i| {
            let (o, n, d) = cp.methodref_at(i)?;
            if (o, n, d) == ("java/util/Date", "<init>", "()V") {
                return Some((i, d.to_string(), None));
            }
            replacement(o, n, d).map(|r| (i, d.to_string(), Some(r)))
        })
        .collect()
}

/// Adds the JClock methodrefs a class needs to its pool and returns what to rewrite; empty
/// for JDK classes and the runtime itself.
pub(crate) fn plan(cp: &mut ConstPool, class_name: &str) -> Result<ClockPatch> {
    let mut patch = ClockPatch::default();
    if super::is_jdk_class(class_name) || class_name.starts_with("jforge/rt/") {
        return Ok(patch);
    }
    for (i, desc, to) in clock_refs(cp) {
        match to {
            Some(name) => {
                let to = cp.methodref(CLOCK_CLASS, &name, &desc)?;
                patch.calls.insert(i, to);
            }
            None => {
                let to = cp.methodref(CLOCK_CLASS, "newDate", "()Ljava/util/Date;")?;
                patch.new_date = Some(NewDate {
                    classes: cp.class_indices("java/util/Date"),
                    init: i,
                    to,
                });
            }
        }
    }
    Ok(patch)
}
