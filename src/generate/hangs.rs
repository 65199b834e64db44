//! Values that make calls hang: the runtime classes of arguments of calls that timed out.
//!
//! Why: on guava's collect package nearly all of a run's time went to calls that hang
//! (BENCHMARKS.md, "Where the idle time went"): `Iterators.contains`, `Iterators.get`,
//! `Ordering.min(Iterator)`, `Sets.newConcurrentHashSet(Iterable)` given a `cycle()`
//! iterator or iterable, which never ends. Each such call costs a call limit (about 1.2 s,
//! against a fraction of a millisecond for a typical sequence) on its worker, and the other
//! worker waits for the batch meanwhile. The fault is the argument, not the operation:
//! excluding each consumer after two timeouts still cost two limits per consumer (dozens in a
//! package), and lost the operations for finite arguments.
//!
//! So the generator counts, per runtime class, how often a value of that class was an
//! argument of a sequence's last call (`uses`) and of a call that timed out (`hangs`); a class
//! whose hangs are more than one in [`HANG_SHARE`] of its uses is hang-prone: its values are
//! dropped from the reusable values and never stored again. A common class that was merely
//! present (the `ArrayList` a `Queues.drain` with a long timeout also took) has thousands of
//! uses and is never blamed. Values built from a hang-prone value (a filter or transform
//! of an endless iterable) are not stored either. The decision comes from timeouts, so it is only as
//! deterministic as a timeout (runs without hangs are unaffected: `--seed` determinism holds
//! for them).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// A class is hang-prone when more than one in this many of its uses as an argument hung.
pub const HANG_SHARE: u32 = 50;

#[derive(Debug, Default)]
pub struct HangingValues {
    uses: HashMap<Arc<str>, u32>,
    hangs: HashMap<Arc<str>, u32>,
    prone: HashSet<Arc<str>>,
}

impl HangingValues {
    /// A value of `class` was an argument of a sequence's last (or ending) call.
    pub fn note_use(&mut self, class: &Arc<str>) {
        match self.uses.get_mut(class) {
            Some(n) => *n += 1,
            None => {
                self.uses.insert(class.clone(), 1);
            }
        }
    }

    /// A value of `class` was an argument of a call that timed out (its use counted with
    /// [`Self::note_use`] too); true when that makes the class hang-prone now.
    pub fn note_hang(&mut self, class: &Arc<str>) -> bool {
        let h = self.hangs.entry(class.clone()).or_default();
        *h += 1;
        let uses = self.uses.get(class).copied().unwrap_or(1).max(1);
        if *h * HANG_SHARE > uses && !self.prone.contains(class) {
            self.prone.insert(class.clone());
            return true;
        }
        false
    }

    /// Whether values of `class` made calls hang too often to be reused.
    pub fn is_prone(&self, class: &str) -> bool {
        !self.prone.is_empty() && self.prone.contains(class)
    }

    /// Whether any class is hang-prone (the common case, none, costs one test).
    pub fn any(&self) -> bool {
        !self.prone.is_empty()
    }

    /// The hang-prone classes, sorted.
    pub fn prone(&self) -> Vec<Arc<str>> {
        let mut v: Vec<Arc<str>> = self.prone.iter().cloned().collect();
        v.sort();
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rare_class_is_blamed_at_its_first_hang_and_a_common_one_never() {
        let mut h = HangingValues::default();
        let cycle: Arc<str> = Arc::from("com.google.common.collect.Iterators$CycleIterator");
        let list: Arc<str> = Arc::from("java.util.ArrayList");
        for _ in 0..1000 {
            h.note_use(&list);
        }
        h.note_use(&cycle);
        h.note_use(&list);
        assert!(h.note_hang(&cycle));
        assert!(!h.note_hang(&list));
        assert!(h.is_prone("com.google.common.collect.Iterators$CycleIterator"));
        assert!(!h.is_prone("java.util.ArrayList"));
        // a second hang does not report the class again
        assert!(!h.note_hang(&cycle));
        assert_eq!(h.prone(), vec![cycle]);
    }

    #[test]
    fn a_class_used_often_is_blamed_once_its_hangs_pass_the_share() {
        let mut h = HangingValues::default();
        let c: Arc<str> = Arc::from("p.Slow");
        for _ in 0..(2 * HANG_SHARE) {
            h.note_use(&c);
        }
        assert!(!h.note_hang(&c));
        assert!(!h.note_hang(&c));
        assert!(h.note_hang(&c));
    }
}
