//! Applying the results of executed sequences, in generation order: the coverage each
//! added, the values its code compared against (comparison logging), and how it ended
//! (normally, in an exception, a timeout, a crash or console output).

use super::blame::{Blame, LeftOut, stmt_op};
use super::candidates::{
    CHANGES_GLOBAL_STATE, CandEnding, EXCESSIVE_OUTPUT, PRINTS_TO_CONSOLE, Violation, thrown_cause,
};
use super::generator::{Built, Generator};
use crate::runner::{InputCause, Observed, SeqResult, StmtOutcome};
use crate::sequence::{OpId, Sequence, Stmt, Value};
use std::sync::Arc;
use std::time::Instant;

/// The exception a statement threw (borrowed from its result).
struct Thrown<'r> {
    /// The statement that threw.
    at: usize,
    class: &'r str,
    public_class: &'r str,
}

/// Values kept per operation in its comparison pool; more are ignored.
const MAX_OP_LITERALS: usize = 256;

impl<'a> Generator<'a> {
    pub(super) fn apply(&mut self, built: Vec<Built>, results: Vec<SeqResult>) {
        for (b, r) in built.into_iter().zip(results) {
            self.apply_one(b, r);
        }
        self.progress.regression = self.candidates.len() + self.coverage_candidates.len();
        self.progress.errors = self.errors.len();
    }

    fn apply_one(&mut self, b: Built, r: SeqResult) {
        self.progress.executed += 1;
        self.progress.statements += r
            .outcomes
            .iter()
            .filter(|o| !matches!(o, StmtOutcome::NotRun))
            .count() as u64;
        let op = b.op;
        self.stats[op as usize].calls += 1;
        let (new_probe, new_cov) = self.take_coverage(&r);
        let cov = self.candidate_cov(&r);
        if self.cfg.guidance {
            self.learn_compared(op, &b.comp.seq, &r);
        }
        let ending = r.first_abnormal();
        self.note_argument_classes(&b, &r, ending.unwrap_or(b.comp.seq.len().saturating_sub(1)));
        match ending {
            Some(i) => match &r.outcomes[i] {
                StmtOutcome::Timeout => {
                    if repeated_copy(&b, &r, i) {
                        // a copy of the call before it, which returned: what hung is the
                        // value the copies grew (`printRecord(sb, {sb})` doubles `sb` each
                        // time, and a call is repeated up to 100 times), the repetition's
                        // doing, not the operation's. Why: on Commons CSV's head, after 2 or
                        // 3 such timeouts `printRecord` and `print(Object, Appendable,
                        // boolean)` were excluded early in every run, and with them the
                        // paths of an `InputStream` value. (Capping the copies of a call
                        // given one value twice moved the coverage corpus's TreeMap by
                        // -30 branches for nothing: not done.)
                    } else if self.note_hanging_arguments(&b, &r, i) {
                        self.stats[stmt_op(&b, i) as usize].timeouts += 1;
                    } else {
                        self.blame_stmt(&b, i, Blame::Timeout)
                    }
                }
                StmtOutcome::Crash(kind) if r.survived => {
                    self.note_allocating(&b, i, kind);
                    self.note_survived(&b, i)
                }
                StmtOutcome::Crash(kind) => {
                    self.note_allocating(&b, i, kind);
                    self.blame_stmt(&b, i, Blame::Crash(kind.clone()))
                }
                StmtOutcome::Exception { class, .. } if class.as_ref() == EXCESSIVE_OUTPUT => {
                    self.blame_stmt(&b, i, Blame::Output)
                }
                StmtOutcome::Exception { class, .. } if class.as_ref() == PRINTS_TO_CONSOLE => {
                    self.note_left_out(&b, i, LeftOut::Prints)
                }
                StmtOutcome::Exception { class, .. } if class.as_ref() == CHANGES_GLOBAL_STATE => {
                    self.note_left_out(&b, i, LeftOut::GlobalState)
                }
                StmtOutcome::Exception {
                    class,
                    public_class,
                    ..
                } => {
                    let thrown = Thrown {
                        at: i,
                        class,
                        public_class,
                    };
                    self.apply_exception(b, &r, &thrown, new_probe, cov);
                }
                _ => {}
            },
            None => self.apply_normal(b, &r, new_cov, new_probe),
        }
    }

    /// A sequence's coverage as a candidate keeps it: without static initialisers (see
    /// `CovGuide::clinit`).
    pub(super) fn candidate_cov(&self, r: &SeqResult) -> Option<Arc<[u32]>> {
        let ids = r.coverage.as_ref()?;
        let Some(g) = self.cov.as_ref() else {
            return Some(ids.clone());
        };
        let is_clinit = |id: &u32| g.clinit.get(*id as usize).copied().unwrap_or(false);
        if !ids.iter().any(is_clinit) {
            return Some(ids.clone());
        }
        Some(ids.iter().filter(|id| !is_clinit(id)).copied().collect())
    }

    /// Adds a sequence's coverage. Returns whether it covered a probe no earlier sequence
    /// did (such a sequence is always kept as a candidate, guided or not: the written suite
    /// must keep the run's coverage), and whether that should steer generation (guidance on).
    fn take_coverage(&mut self, r: &SeqResult) -> (bool, bool) {
        let (Some(g), Some(ids)) = (self.cov.as_mut(), r.coverage.as_ref()) else {
            return (false, false);
        };
        let (nb, nl) = g.tracker.add(ids);
        if nb > 0 {
            g.last_new_branch = Some(Instant::now());
        }
        if nb + nl > 0 {
            g.new_coverage_seqs += 1;
        }
        (nb + nl > 0, nb + nl > 0 && self.cfg.guidance)
    }

    /// Comparison logging: values the classes under test compared against in this sequence
    /// become literals, globally and (with value ± 1 for numbers, to flip `<` versus `<=`)
    /// for the sequence's final operation, which reached the comparison; so do the case keys
    /// of the switches it reached (known statically from their probes). An operand equal to
    /// a literal of the sequence is most likely that literal, the input, not the value it was
    /// compared against: it is skipped, so the pool is not flooded with inputs ± 1.
    fn learn_compared(&mut self, op: OpId, seq: &Sequence, r: &SeqResult) {
        if r.compared.is_empty() && r.compared_nums.is_empty() && r.coverage.is_none() {
            return;
        }
        let mut switches: Vec<u32> = Vec::new();
        if let (Some(g), Some(ids)) = (self.cov.as_ref(), r.coverage.as_ref())
            && !g.switch_probes.is_empty()
        {
            // Both lists are increasing: a merge walk.
            let sp = &g.switch_probes;
            let mut k = 0;
            for &id in ids.iter() {
                while k < sp.len() && sp[k].0 < id {
                    k += 1;
                }
                if k == sp.len() {
                    break;
                }
                if sp[k].0 == id && self.op_switches.insert((op, sp[k].1)) {
                    switches.push(sp[k].1);
                }
            }
        }
        if r.compared.is_empty() && r.compared_nums.is_empty() && switches.is_empty() {
            return;
        }
        let mut input_nums: Vec<i64> = Vec::new();
        let mut input_strs: Vec<&str> = Vec::new();
        for st in &seq.stmts {
            if let Stmt::Lit { value, .. } = st {
                match value {
                    Value::Byte(v) => input_nums.push(*v as i64),
                    Value::Short(v) => input_nums.push(*v as i64),
                    Value::Char(v) => input_nums.push(*v as i64),
                    Value::Int(v) => input_nums.push(*v as i64),
                    Value::Long(v) => input_nums.push(*v),
                    Value::Str(s) => input_strs.push(s),
                    _ => {}
                }
            }
        }
        let strs: Vec<&String> = r
            .compared
            .iter()
            .filter(|s| !input_strs.contains(&s.as_str()))
            .collect();
        let nums: Vec<i64> = r
            .compared_nums
            .iter()
            .copied()
            .filter(|v| !input_nums.contains(v))
            .collect();
        for s in &strs {
            self.literals.add_string(s);
        }
        for &v in &nums {
            self.literals.add_compared(v, false);
        }
        let i = op as usize;
        if self.op_literals.len() <= i {
            self.op_literals.resize_with(i + 1, || None);
        }
        let pool = self.op_literals[i].get_or_insert_with(Default::default);
        if let Some(g) = self.cov.as_ref() {
            for k in switches {
                for &key in &g.switch_keys[k as usize] {
                    if pool.len() < MAX_OP_LITERALS {
                        pool.add_compared(key as i64, true);
                    }
                }
            }
        }
        for s in strs {
            if pool.len() < MAX_OP_LITERALS {
                pool.add_string(s);
            }
        }
        for v in nums {
            for w in [Some(v), v.checked_sub(1), v.checked_add(1)]
                .into_iter()
                .flatten()
            {
                if pool.len() < MAX_OP_LITERALS {
                    pool.add_compared(w, true);
                }
            }
        }
    }

    /// A sequence in which statement `thrown.at` threw: an error candidate when the
    /// exception breaks a contract, else a regression candidate when it is new (for its
    /// thrower) or reached new coverage.
    fn apply_exception(
        &mut self,
        b: Built,
        r: &SeqResult,
        thrown: &Thrown,
        new_probe: bool,
        cov: Option<Arc<[u32]>>,
    ) {
        let (i, class, public_class) = (thrown.at, thrown.class, thrown.public_class);
        let n = b.comp.seq.len();
        let thrower = match &b.comp.seq.stmts[i] {
            Stmt::Call { op, .. } => *op,
            _ => b.op,
        };
        // Only the final call (or its repetitions) may throw: earlier statements
        // come from sequences that ran normally before. When one does throw (its
        // inputs now share state) and that reached new coverage, the prefix up to
        // it is kept as a regression candidate ending in that exception.
        let final_call = b.comp.seq.stmts[i] == b.comp.seq.stmts[n - 1];
        if !final_call {
            if new_probe && !class.starts_with("jforge.") {
                let mut comp = b.comp;
                let mut short = (*comp.seq).clone();
                short.stmts.truncate(i + 1);
                comp.seq = Arc::new(short);
                comp.tids.truncate(i + 1);
                self.add_candidate(
                    comp,
                    &[],
                    CandEnding::Exception(public_class.to_string()),
                    cov,
                    true,
                );
            }
            return;
        }
        self.stats[thrower as usize].exceptions += 1;
        let null_input = b.comp.has_null || crate::contracts::null_input(&b.comp.seq, r);
        let mut contract =
            crate::contracts::exception_contract(class, null_input, &self.cfg.error_exceptions);
        // An exception thrown inside or out of an argument object's code (a callback) is
        // the input's: the sequence is an invalid input, like an illegal argument.
        if contract.is_some()
            && let Some(cause) = thrown_cause(r, i)
        {
            *self.set_aside.entry(cause).or_default() += 1;
            contract = None;
        }
        // A call behind a class's public API broke a precondition its package keeps: no bug
        // report; nor a regression test when it is an `assert` of that code (a test that
        // expects an AssertionError cannot fail, and depends on -ea).
        if contract.is_some() && self.ops.calls_internal(&b.comp.seq) {
            *self.set_aside.entry(InputCause::InternalCall).or_default() += 1;
            contract = None;
            if class == "java.lang.AssertionError" {
                return;
            }
        }
        let mut comp = b.comp;
        let mut short = (*comp.seq).clone();
        short.stmts.truncate(i + 1);
        comp.seq = Arc::new(short);
        comp.tids.truncate(i + 1);
        if let Some(contract) = contract {
            self.stats[thrower as usize].errors += 1;
            let site = self.throw_site(r, i);
            self.add_error(
                comp,
                thrower,
                Violation::Exception {
                    contract,
                    class: class.to_string(),
                },
                site,
            );
        } else if !class.starts_with("jforge.")
            && (self.seen_exceptions.insert((thrower, class.to_string())) || new_probe)
        {
            self.add_candidate(
                comp,
                &b.parents,
                CandEnding::Exception(public_class.to_string()),
                cov,
                new_probe,
            );
        }
    }

    /// Where the exception statement `at` threw, as the defect's key: the class under test,
    /// method and line of the top frame in a class under test (see `Blame::thrown_culprit`).
    fn throw_site(&self, r: &SeqResult, at: usize) -> Option<Arc<str>> {
        let (s, blame) = r.thrown.as_ref()?;
        if *s as usize != at {
            return None;
        }
        let under_test = |c: &str| self.ops.instantiations.contains_key(c);
        let f = blame.thrown_culprit(&under_test)?;
        (f.line >= 0).then(|| Arc::from(f.describe().as_str()))
    }

    /// A sequence that ran normally: an error candidate when a value broke an object
    /// contract, else its values and behaviour are learned from.
    fn apply_normal(&mut self, b: Built, r: &SeqResult, new_cov: bool, new_probe: bool) {
        let op = b.op;
        self.stats[op as usize].successes += 1;
        let culprit = |v: &crate::runner::ContractViolation| {
            let vop = match &b.comp.seq.stmts[v.a as usize] {
                Stmt::Call { op, .. } => *op,
                _ => op,
            };
            let class = match r.outcomes.get(v.a as usize) {
                Some(StmtOutcome::Normal(Observed::Object { class, .. })) => class.clone(),
                _ => Arc::from(self.ops.table.get(vop).class.as_str()),
            };
            (vop, class)
        };
        let jdk_value = |class: &str| {
            crate::contracts::jdk_class(class) && !self.ops.instantiations.contains_key(class)
        };
        let own = r
            .violations
            .iter()
            .filter(|v| v.blame.cause.is_none())
            .map(|v| (v, culprit(v)))
            .find(|(_, (_, class))| !jdk_value(class));
        if own.is_some() && self.ops.calls_internal(&b.comp.seq) {
            // a value built behind a class's public API may break invariants its package
            // keeps: set aside, not an error test
            *self.set_aside.entry(InputCause::InternalCall).or_default() += 1;
            return;
        }
        if let Some((v, (vop, class))) = own {
            self.stats[op as usize].errors += 1;
            self.add_error(
                b.comp,
                vop,
                Violation::Contract {
                    contract: v.contract,
                    a: v.a,
                    b: v.b,
                },
                Some(class),
            );
            return;
        }
        if let Some(cause) = r
            .violations
            .iter()
            .find_map(|v| v.blame.cause.or(Some(crate::runner::InputCause::JdkValue)))
        {
            // Every violation is the input's doing: an invalid input, neither an error nor
            // a source of values.
            *self.set_aside.entry(cause).or_default() += 1;
            return;
        }
        self.learn(b, r, new_cov, new_probe);
    }
}

/// Whether statement `i` of `b` is a copy of the call right before it (repetition, see
/// `assemble`), and that call returned normally.
fn repeated_copy(b: &Built, r: &SeqResult, i: usize) -> bool {
    let stmts = &b.comp.seq.stmts;
    i > 0
        && matches!(stmts[i], Stmt::Call { .. })
        && stmts[i] == stmts[i - 1]
        && matches!(r.outcomes.get(i - 1), Some(StmtOutcome::Normal(_)))
}
