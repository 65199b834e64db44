//! Calls that misbehave: a timeout or crash blamed on its operation (excluded after
//! repeated ones), a hang blamed on its arguments' classes, an OutOfMemoryError that makes
//! an operation's integral arguments small, a crash the worker survived, a call that
//! printed.

use super::candidates::Incident;
use super::generator::{Built, Generator};
use super::oversized::{oversized_call, sized_makers};
use crate::generate::ops::OpSet;
use crate::runner::{CrashKind, Observed, SeqResult, StmtOutcome};
use crate::sequence::{OpId, Stmt};
use std::sync::Arc;

/// Why a statement is blamed.
pub(super) enum Blame {
    Timeout,
    Crash(CrashKind),
    Output,
}

impl<'a> Generator<'a> {
    pub(super) fn blame_stmt(&mut self, b: &Built, i: usize, blame: Blame) {
        let op = stmt_op(b, i);
        let st = &mut self.stats[op as usize];
        match blame {
            Blame::Timeout => st.timeouts += 1,
            _ => st.crashes += 1,
        }
        self.blame[op as usize] += 1;
        // A hang costs a call limit and the batch waiting for it: an operation is retried
        // with other arguments only while its timeouts stay rare (at most 1 in 100 calls).
        let hangs_often =
            matches!(blame, Blame::Timeout) && st.timeouts >= 2 && st.timeouts * 100 > st.calls;
        if self.blame[op as usize] == self.cfg.blame_limit || hangs_often {
            let n = self.cfg.blame_limit;
            let why = match blame {
                Blame::Crash(k) => format!("excluded after {n} crashes (last: {})", crash_name(&k)),
                Blame::Timeout => format!(
                    "excluded after {} timeouts",
                    self.stats[op as usize].timeouts
                ),
                Blame::Output => format!("excluded after printing more than 1 MiB in {n} calls"),
            };
            self.exclude(op, &why);
        }
    }

    /// Counts the runtime classes of the object arguments of statement `i` (the one that
    /// ended the sequence) as used (see `generate::hangs`).
    pub(super) fn note_argument_classes(&mut self, b: &Built, r: &SeqResult, i: usize) {
        for c in blamable_arguments(self.ops, b, r, i) {
            self.hanging.note_use(&c);
        }
    }

    /// Statement `i`'s call timed out: the runtime classes of its object arguments (not its
    /// receiver) are blamed, and the values of a class that became hang-prone are dropped from the
    /// reusable values (see `generate::hangs`). True when an argument is of a hang-prone class
    /// (now or already): the hang is the argument's doing, and the operation, which will
    /// not get such a value again, is not blamed for it (it keeps running on other
    /// arguments; ARCHITECTURE "Hangs are blamed on their arguments' classes").
    pub(super) fn note_hanging_arguments(&mut self, b: &Built, r: &SeqResult, i: usize) -> bool {
        let mut argument = false;
        for c in blamable_arguments(self.ops, b, r, i) {
            if self.hanging.note_hang(&c) {
                // Said in the summary: a class dropped this way changes what a run tests.
                self.incidents.push(Incident {
                    operation: format!("values of {c}"),
                    what: "not reused: calls given one hung".to_string(),
                });
                for list in &mut self.by_type {
                    list.retain(|(_, _, k)| k.as_deref() != Some(&*c));
                }
            }
            argument |= self.hanging.is_prone(&c);
        }
        argument
    }

    /// An OutOfMemoryError of statement `i`'s call: its operation, and every operation that
    /// made one of its inputs from a large integral literal, get small integral arguments
    /// from now on (see [`SMALL_SIZE`]); the reusable values built with such a call go.
    /// Why the makers: a capacity is often stored and allocated later (`LinkedHashMap(2^30)`
    /// allocates its table at the first `put`, `LinkedHashMultiset.create(n)` likewise), so
    /// the call that runs out of memory is not the one that took the size, and the value
    /// made stays in the pool and fails every call on it (guava collect, 30 s: 70 of 95
    /// OutOfMemoryErrors were calls on such a receiver).
    pub(super) fn note_allocating(&mut self, b: &Built, i: usize, kind: &CrashKind) {
        if !matches!(kind, CrashKind::OutOfMemory) {
            return;
        }
        let seq = &b.comp.seq;
        let mut fresh = false;
        if let Some(Stmt::Call { op, .. }) = seq.stmts.get(i) {
            fresh |= self.allocates.insert(*op);
        }
        for op in sized_makers(seq, i) {
            fresh |= self.allocates.insert(op);
        }
        if fresh {
            self.drop_oversized_values();
        }
    }

    /// Operations whose numbers size an allocation, read from their bytecode
    /// (`generate::sizing`): small integral arguments from the start, as after an
    /// OutOfMemoryError.
    pub fn note_sizing(&mut self, ops: impl IntoIterator<Item = OpId>) {
        self.allocates.extend(ops);
    }

    /// Drops the reusable values whose sequence passes a large integral literal to an
    /// operation that allocates by its arguments (a map whose table of 2^30 entries is
    /// still to come).
    fn drop_oversized_values(&mut self) {
        let allocates = &self.allocates;
        for list in &mut self.by_type {
            list.retain(|(comp, _, _)| !oversized_call(&comp.seq, allocates));
        }
    }

    /// A crash the worker survived (an OutOfMemoryError or StackOverflowError of this call):
    /// counted for the operation, but it costs no restart, so it neither excludes the
    /// operation nor slows its use; the sequence is no test and gives no values.
    pub(super) fn note_survived(&mut self, b: &Built, i: usize) {
        let op = match &b.comp.seq.stmts[i] {
            Stmt::Call { op, .. } => *op,
            _ => b.op,
        };
        self.stats[op as usize].crashes += 1;
    }

    /// A call no test may make: it printed to System.out/err, or it changed state the whole
    /// JVM shares (closed a console stream, set a system property, the default locale or
    /// time zone). Its sequence ends there, never a test; an operation that does it on each of
    /// its first `blame_limit` calls is excluded, one that does it only sometimes stays.
    pub(super) fn note_left_out(&mut self, b: &Built, i: usize, why: LeftOut) {
        let op = match &b.comp.seq.stmts[i] {
            Stmt::Call { op, .. } => *op,
            _ => b.op,
        };
        let st = &mut self.stats[op as usize];
        let (count, reason, limit) = match why {
            LeftOut::Prints => {
                st.prints += 1;
                (
                    st.prints,
                    "left out: prints to System.out/System.err whenever called (a test would print in every build)",
                    PRINTS_LIMIT,
                )
            }
            LeftOut::GlobalState => {
                st.global_state += 1;
                (
                    st.global_state,
                    "left out: changes state the whole JVM shares whenever called (closes System.out, sets a system property or a default; a test would change every later test of the build)",
                    u64::from(self.cfg.blame_limit),
                )
            }
        };
        if st.successes == 0 && count == limit {
            self.exclude(op, reason);
        }
    }
}

/// Calls that all printed before an operation is excluded as printing whenever called. Why
/// not `blame_limit` (3): a parser that prints its `NumberFormatException` and returns null
/// prints for the first random Strings it gets, and was excluded before a numeric one came
/// (Commons CLI's `TypeHandler.createNumber`, Defects4J Cli-3: "method not reached"). A call
/// that prints costs one sequence, which ends there; 50 of them are nothing in a run.
const PRINTS_LIMIT: u64 = 50;

/// Why [`Generator::note_left_out`] leaves a call out of the tests.
#[derive(Clone, Copy)]
pub(super) enum LeftOut {
    Prints,
    GlobalState,
}

/// The runtime classes of the object arguments of statement `i` that a hang of its call
/// may be blamed on (see `generate::hangs`): not its receiver or outer instance (a method that
/// hangs on its own object is the operation's fault, excluded at its timeouts), nor the
/// receiver passed again as an argument (`sb.appendln(sb)` repeated doubles the builder: the
/// call's doing), nor a class under test. Why not a class under test: its values are what
/// the run is about; blamed, they were all dropped. StrBuilder's one timeout of
/// `appendln(Object)` given itself made StrBuilder hang-prone 0.3 s into a run, which then
/// ended 97% of its sequences on values of other types (`writer0.write(..)` of `asWriter()`):
/// the written suite fell from 494 to 329 of 554 branches (`--generated-limit 20000 --seed
/// 1`). Such a hang is the operation's: it counts toward excluding it. An iterator, not a
/// list: it runs for every sequence applied.
fn blamable_arguments<'x>(
    ops: &'x OpSet,
    b: &'x Built,
    r: &'x SeqResult,
    i: usize,
) -> impl Iterator<Item = Arc<str>> + 'x {
    let (receivers, args): (usize, &[u32]) = match b.comp.seq.stmts.get(i) {
        Some(Stmt::Call { op, args }) => {
            let o = ops.table.get(*op);
            let n = usize::from(o.has_receiver() || o.outer_instance);
            (n.min(args.len()), args)
        }
        _ => (0, &[]),
    };
    args[receivers..]
        .iter()
        .filter(move |a| !args[..receivers].contains(a))
        .filter_map(move |&a| object_class(r, a as usize))
        .filter(move |c| !ops.instantiations.contains_key(&**c))
}

/// The operation statement `i` of a built sequence calls (the sequence's own for a
/// statement that is no call).
pub(super) fn stmt_op(b: &Built, i: usize) -> OpId {
    match &b.comp.seq.stmts[i] {
        Stmt::Call { op, .. } => *op,
        _ => b.op,
    }
}

/// The runtime class of statement `i`'s value when it is an object (not a boxed value or
/// String, not null).
pub(super) fn object_class(r: &SeqResult, i: usize) -> Option<Arc<str>> {
    match r.outcomes.get(i)? {
        StmtOutcome::Normal(Observed::Object { class, .. }) => Some(class.clone()),
        _ => None,
    }
}

pub fn crash_name(k: &CrashKind) -> String {
    k.to_string()
}
