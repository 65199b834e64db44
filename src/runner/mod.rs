//! The runner: a pool of child JVMs ("workers") that execute sequences.
//!
//! Why child processes and not an embedded JVM: the code under test may call `System.exit`,
//! loop forever, exhaust the heap, overflow the stack or print megabytes; a child can be
//! killed and restarted and the sequence that was running is blamed. See ARCHITECTURE.md.
//!
//! Sub-modules: `protocol` (binary frames, both directions), `worker` (one child process),
//! `pool` (many workers, batches split deterministically, crash/timeout recovery), `jar`
//! (the embedded worker jar and where it is unpacked), `java` (finding a JDK).

mod dispatch;
pub mod jar;
pub mod java;
pub mod pool;
pub mod protocol;
pub mod worker;

pub use pool::{CLOCK_FIXED, CLOCK_SHIFTED, Pool, PoolConfig, PoolStats, QUICK_JIT};
pub use worker::WorkerTime;

use crate::sequence::{OpId, SeqRef, Value};
use std::sync::Arc;

/// What the worker does besides running the statements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecMode {
    /// Generation: outcomes, values, novelty fingerprints and contracts; no observers.
    Generate,
    /// Test building: as `Generate` plus the requested observer calls after the last statement.
    Observe,
    /// `jforge exhaustive`: as `Observe`, except that an observer entry whose op is
    /// [`CANON_OP`] asks for the canonical form of that statement's value instead of a call;
    /// it comes back as `Ok(Value::Str(form))` (see worker/jforge/worker/Canon.java).
    Canon,
}

/// What an observer entry threw when the worker stopped that observer at its limit (a getter
/// that loops), and what the later observers of its sequence threw, which were not called
/// (the stopped call may have left the value half changed); the statements' outcomes stand.
pub const OBSERVER_STOPPED: &str = "jforge.ObserverStopped";

/// Observer op id meaning "canonical form of this statement's value" in [`ExecMode::Canon`].
pub const CANON_OP: OpId = protocol::CANON_OP;

#[derive(Clone, Debug)]
pub struct ExecRequest {
    pub seq: SeqRef,
    pub mode: ExecMode,
    /// Statement indices whose values get the unary object contracts (equals reflexive,
    /// equals null, hashCode and toString throw nothing, compareTo reflexive), and the binary
    /// ones (equals symmetric, equals=>hashCode, compareTo antisymmetric) against every other
    /// non-null reference value of the sequence (at most 64 pairs). Checked after the last
    /// statement, only when no statement threw.
    pub contract_values: Vec<u32>,
    /// `Observe` mode: (statement, observer op) calls made after the last statement, in order.
    /// The observer op is a no-argument instance method whose receiver is that statement's value.
    pub observers: Vec<(u32, OpId)>,
    /// `jforge exhaustive` prototype reuse ([`ExecMode::Canon`] only; see
    /// worker/jforge/worker/Protos.java). `None` everywhere else.
    pub reuse: Option<Box<Reuse>>,
}

/// Prototype reuse: structures kept by the exhaustive search stay live in the worker that
/// built them; a request can start from a deep copy of one instead of re-running its sequence.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reuse {
    /// (statement, prototype id): that statement is a fresh deep copy of the prototype (the
    /// statement itself is a placeholder literal of the right type; it is not sent).
    pub protos: Vec<(u32, u32)>,
    /// Non-zero: the worker holds every value it canonicalizes in this run (in scope) as a
    /// candidate under (retain, statement).
    pub retain: u32,
    /// Done before the run: candidate (retain, statement) becomes prototype id.
    pub promote: Vec<(u32, u32, u32)>,
    /// Done after the promotions: candidates with a retain id up to this one are dropped.
    pub forget_upto: u32,
    /// A bulk request: many one-call tasks on prototype copies in one request (the request's
    /// `seq` is then only a placeholder with one statement per task; each task's outcome is
    /// that of its call, and its canonical forms come back in [`SeqResult::forms`]).
    pub bulk: Option<Bulk>,
}

/// Tasks of a bulk request; task `i` holds its candidates under retain id `retain_base + i`
/// and value index 0 (the copy) and 1 (the result).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bulk {
    /// Literal table the tasks refer to.
    pub lits: Vec<crate::sequence::Stmt>,
    pub retain_base: u32,
    pub tasks: Vec<BulkTask>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BulkTask {
    pub proto: u32,
    pub op: OpId,
    /// Input position of the prototype copy (0 for a receiver).
    pub pos: u8,
    /// Literal-table index of every other input, in order.
    pub lits: Vec<u32>,
    pub canon_result: bool,
}

/// A canonical form returned by a bulk request.
#[derive(Clone, Debug, PartialEq)]
pub struct BulkForm {
    pub task: u32,
    /// 0: the prototype copy after the call; 1: the call's result.
    pub which: u8,
    pub form: FormValue,
    /// Runtime class of the value (for forms and texts).
    pub class: Option<Arc<str>>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum FormValue {
    Hash(u128),
    Text(String),
    OutOfScope,
    Null,
    Error(String),
    /// A contracts task found this contract broken (detail from the worker).
    Violation(Contract, String),
}

/// What happened to one statement.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtOutcome {
    /// Not executed because an earlier statement threw, timed out or crashed.
    NotRun,
    Normal(Observed),
    /// The statement threw. `public_class` is the nearest public superclass (what source code
    /// may name in a `catch`).
    Exception {
        class: Arc<str>,
        public_class: Arc<str>,
        message: Option<String>,
        /// The top frame of its stack trace is code outside the JDK: the message is that
        /// code's own, the same on every JDK (a test may assert it).
        outside_jdk: bool,
    },
    /// Exceeded the per-call time limit; the worker was restarted.
    Timeout,
    /// The worker died or had to be restarted because of this statement.
    Crash(CrashKind),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CrashKind {
    /// The JVM exited (System.exit, Runtime.halt, a native crash); exit code when known.
    Exited(Option<i32>),
    OutOfMemory,
    StackOverflow,
    /// The sequence left non-daemon threads running.
    LeakedThreads,
    /// The sequence left processes running (this many, killed by the worker; 0 in
    /// [`PoolStats::crashes`](crate::runner::PoolStats), where the number is left out).
    LeakedProcesses(u32),
    /// The worker stopped answering (killed after the grace period).
    Unresponsive,
    /// The sequence wrote files (this many) into the worker's folder (removed by the worker;
    /// 0 in [`PoolStats::crashes`](crate::runner::PoolStats), where the number is left out).
    WroteFiles(u32),
}

impl CrashKind {
    /// The kind as counted in [`PoolStats::crashes`](crate::runner::PoolStats): without the
    /// number of processes a leak left.
    pub fn counted(&self) -> CrashKind {
        match self {
            CrashKind::LeakedProcesses(_) => CrashKind::LeakedProcesses(0),
            CrashKind::WroteFiles(_) => CrashKind::WroteFiles(0),
            k => k.clone(),
        }
    }
}

impl std::fmt::Display for CrashKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CrashKind::Exited(Some(c)) => write!(f, "JVM exited with code {c}"),
            CrashKind::Exited(None) => f.write_str("JVM exited"),
            CrashKind::OutOfMemory => f.write_str("OutOfMemoryError"),
            CrashKind::StackOverflow => f.write_str("StackOverflowError"),
            CrashKind::LeakedThreads => f.write_str("left threads running"),
            CrashKind::LeakedProcesses(0) => f.write_str("left processes running"),
            CrashKind::LeakedProcesses(1) => f.write_str("left 1 process running"),
            CrashKind::LeakedProcesses(n) => write!(f, "left {n} processes running"),
            CrashKind::Unresponsive => f.write_str("worker unresponsive"),
            CrashKind::WroteFiles(0) => f.write_str("wrote files"),
            CrashKind::WroteFiles(1) => f.write_str("wrote a file"),
            CrashKind::WroteFiles(n) => write!(f, "wrote {n} files"),
        }
    }
}

/// The value a statement produced.
#[derive(Clone, Debug, PartialEq)]
pub enum Observed {
    /// void method, constructor of nothing, field set
    Void,
    Null,
    /// Primitive, boxed primitive, String or enum constant (boxed values are reported with
    /// the primitive variant; `class` in `Object` is never a wrapper).
    Value(Value),
    /// Any other object. `fingerprint` is `(class, hashCode())` mixed when the class overrides
    /// `equals`, so that equal values collide; `None` when equality is identity (always new).
    Object {
        class: Arc<str>,
        fingerprint: Option<u64>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Contract {
    EqualsReflexive,
    EqualsNull,
    EqualsSymmetric,
    EqualsHashCode,
    HashCodeThrows,
    ToStringThrows,
    CompareToReflexive,
    CompareToAntisymmetric,
}

impl Contract {
    /// Stable name used in test messages, JSON and the summary.
    pub fn name(self) -> &'static str {
        match self {
            Contract::EqualsReflexive => "equals-reflexive",
            Contract::EqualsNull => "equals-null",
            Contract::EqualsSymmetric => "equals-symmetric",
            Contract::EqualsHashCode => "equals-hashcode",
            Contract::HashCodeThrows => "hashcode-throws",
            Contract::ToStringThrows => "tostring-throws",
            Contract::CompareToReflexive => "compareto-reflexive",
            Contract::CompareToAntisymmetric => "compareto-antisymmetric",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct ContractViolation {
    pub contract: Contract,
    /// Statement whose value broke it; `b` is the second value of binary contracts.
    pub a: u32,
    pub b: Option<u32>,
    /// e.g. the exception thrown by hashCode.
    pub detail: String,
    /// Who broke it (the worker's `Blame`).
    pub blame: Blame,
}

/// Why a violation (or the exception a call threw) is the input's doing, not the class's:
/// the sequence is then an invalid input, not an error test (see the worker's `Blame`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum InputCause {
    /// Thrown inside or out of the code of an argument object (a function, predicate,
    /// converter, comparator, supplier, or a view built on one).
    CallbackThrew,
    /// The values were built with a Comparator argument that breaks its contract (not
    /// reflexive, antisymmetric, transitive or consistent with equals) on the sequence's values.
    ComparatorInconsistent,
    /// hashCode or toString threw a NullPointerException on a value built with a null
    /// argument (as for the exceptions of calls, an NPE after a null input is expected).
    NullInput,
    /// A NullPointerException thrown by the receiver's own code on a field of its own that is
    /// null, that a public method of its class sets, and that the sequence never called: the
    /// object was used before the set-up its class documents (a state precondition, like an
    /// IllegalStateException).
    StateNotInitialized,
    /// equals-symmetric or equals-hashcode broken between a Set, List or Map that keeps its
    /// interface's contract and another one (or an argument object) that breaks it alone,
    /// checked against a JDK copy of each.
    ArgumentBreaksContract,
    /// equals-symmetric or equals-hashcode broken by a decorator or view (`UnmodifiableSet`
    /// around another class's values view) that answers exactly as a Set, List or Map it
    /// holds in its fields, which breaks the same contract with the same partner alone: the
    /// held collection's class owns the defect (its own error test, when the sequence reaches
    /// it as a value).
    HeldBreaksContract,
    /// Decided by jforge, not the worker: an object contract broken by a value of a JDK
    /// class that is not under test (see `contracts::jdk_class`).
    JdkValue,
    /// Decided by jforge, not the worker: the sequence calls behind a class's public API (a
    /// member of package or protected access, a constructor or static method of a class of
    /// package access), whose preconditions its callers in the package keep and no
    /// documentation states; only what the public API reaches is a bug report
    /// (`OpSet::is_internal`).
    InternalCall,
}

impl InputCause {
    /// Stable name used in the summary and JSON.
    pub fn name(self) -> &'static str {
        match self {
            InputCause::CallbackThrew => "callback-threw",
            InputCause::ComparatorInconsistent => "comparator-inconsistent",
            InputCause::NullInput => "null-input",
            InputCause::StateNotInitialized => "state-not-initialized",
            InputCause::ArgumentBreaksContract => "argument-breaks-contract",
            InputCause::HeldBreaksContract => "held-collection-breaks-contract",
            InputCause::JdkValue => "jdk-value",
            InputCause::InternalCall => "internal-call",
        }
    }
}

/// A stack frame of the code that broke a contract.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Frame {
    pub class: Arc<str>,
    pub method: Arc<str>,
    /// Source line, when known (negative: unknown).
    pub line: i32,
    /// The class is the violating value's (or the call's) class or one of its supertypes.
    pub own: bool,
    /// A JDK class (boot or platform class loader).
    pub jdk: bool,
}

impl Frame {
    /// `com.x.Foo.hashCode (line 12)`.
    pub fn describe(&self) -> String {
        if self.line >= 0 {
            format!("{}.{} (line {})", self.class, self.method, self.line)
        } else {
            format!("{}.{}", self.class, self.method)
        }
    }
}

/// Who broke a contract: whether an input caused it, and the frames between the throw site
/// and the call (top first; for a wrong result, the one method that returned it).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Blame {
    pub cause: Option<InputCause>,
    pub frames: Vec<Frame>,
}

impl Blame {
    /// The frame of the code that broke an object contract: the top frame in the violating
    /// value's own class (or a supertype), else the top frame outside the JDK, else the top.
    pub fn object_culprit(&self) -> Option<&Frame> {
        self.frames
            .iter()
            .find(|f| f.own)
            .or_else(|| self.frames.iter().find(|f| !f.jdk))
            .or(self.frames.first())
    }

    /// The frame where an exception was thrown, as far as a class of `under_test` is
    /// concerned: the top frame in one of them, else the top frame outside the JDK, else the
    /// top frame of the call's own class, else the top frame.
    pub fn thrown_culprit(&self, under_test: &dyn Fn(&str) -> bool) -> Option<&Frame> {
        self.frames
            .iter()
            .find(|f| under_test(&f.class))
            .or_else(|| self.frames.iter().find(|f| !f.jdk))
            .or_else(|| self.frames.iter().find(|f| f.own))
            .or(self.frames.first())
    }
}

/// Result of an observer call.
#[derive(Clone, Debug, PartialEq)]
pub struct ObserverValue {
    pub stmt: u32,
    pub op: OpId,
    /// The value, or the class of the exception it threw.
    pub result: Result<Value, String>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SeqResult {
    /// One entry per statement.
    pub outcomes: Vec<StmtOutcome>,
    pub violations: Vec<ContractViolation>,
    pub observers: Vec<ObserverValue>,
    /// Index of the worker that ran it.
    pub worker: usize,
    /// Coverage probes hit by the sequence (increasing ids), when the worker runs instrumented
    /// classes; `None` without coverage or when the worker died.
    pub coverage: Option<Arc<[u32]>>,
    /// With coverage: String operands the classes under test compared with `equals` (or a
    /// string `switch`) and found unequal (comparison logging).
    pub compared: Vec<String>,
    /// With coverage: int and long operands of the `if_icmp*` and `lcmp` comparisons the
    /// classes under test evaluated with unequal operands, in pairs (at most 2 per comparison
    /// site and 64 values per sequence).
    pub compared_nums: Vec<i64>,
    /// Canonical forms of a bulk request ([`Reuse::bulk`]), in task order.
    pub forms: Vec<BulkForm>,
    /// With rewritten clock reads (`-Djforge.clock`): how many times the sequence (observers
    /// included) read the clock.
    pub clock_reads: u32,
    /// When a call threw: its statement and who broke it.
    pub thrown: Option<(u32, Blame)>,
    /// The worker survived the crash among the outcomes (an OutOfMemoryError or
    /// StackOverflowError it reported itself) and goes on: no restart. False for the results
    /// jforge made up after a worker died.
    pub survived: bool,
    /// With tracing (`-Djforge.sym`, `jforge concolic`): the trace of the last call (see
    /// `crate::concolic::trace`).
    pub trace: Option<String>,
}

impl SeqResult {
    /// Index of the first statement that did not end normally.
    pub fn first_abnormal(&self) -> Option<usize> {
        self.outcomes
            .iter()
            .position(|o| !matches!(o, StmtOutcome::Normal(_)))
    }
}

pub use crate::model::classpath::JdkClasses;

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(class: &str, method: &str, own: bool, jdk: bool) -> Frame {
        Frame {
            class: class.into(),
            method: method.into(),
            line: 3,
            own,
            jdk,
        }
    }

    #[test]
    fn the_culprit_is_the_classs_own_frame_not_a_helper() {
        // Guava-like: checkNotNull (a non-JDK helper) above the class under test's method,
        // above the JDK frames of a view's superclass.
        let b = Blame {
            cause: None,
            frames: vec![
                frame("java.util.Objects", "requireNonNull", false, true),
                frame("com.g.base.Preconditions", "checkNotNull", false, false),
                frame("com.g.collect.Cfg", "<init>", false, false),
                frame("com.g.collect.Cfg$Builder", "build", true, false),
                frame("java.util.AbstractMap", "hashCode", true, true),
            ],
        };
        let under_test = |c: &str| c.starts_with("com.g.collect.");
        assert_eq!(
            b.thrown_culprit(&under_test).unwrap().describe(),
            "com.g.collect.Cfg.<init> (line 3)"
        );
        // nothing under test: the top frame outside the JDK
        assert_eq!(
            b.thrown_culprit(&|_| false).unwrap().class.as_ref(),
            "com.g.base.Preconditions"
        );
        // an object contract: the top frame in the value's own class or a supertype
        assert_eq!(
            b.object_culprit().unwrap().class.as_ref(),
            "com.g.collect.Cfg$Builder"
        );
        // JDK only (a JDK class under test): its own frame, else the top
        let jdk = Blame {
            cause: None,
            frames: vec![
                frame("java.util.Objects", "requireNonNull", false, true),
                frame("java.util.TreeMap", "put", true, true),
            ],
        };
        assert_eq!(
            jdk.thrown_culprit(&|_| false).unwrap().class.as_ref(),
            "java.util.TreeMap"
        );
        assert!(Blame::default().object_culprit().is_none());
    }
}
