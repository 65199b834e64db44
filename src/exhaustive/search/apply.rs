//! Applying a batch's results in batch order: state matching on the canonical forms, new
//! structures kept (and promoted to prototypes), expected exceptions dropped, failures and
//! counterexamples recorded, combinations whose prototype was gone re-queued.

use super::found::{Applied, Counterexample, Failure, Kept};
use super::inputs::Choice;
use super::state::{Meta, Search};
use crate::exhaustive::canon::{Form, OUT_OF_SCOPE, kept_bytes, key};
use crate::runner::{BulkForm, CANON_OP, FormValue, Observed, Pool, SeqResult, StmtOutcome};
use crate::sequence::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// What the observers of a combination that ran normally returned, by statement.
struct Observations {
    forms: Vec<(u32, Form)>,
    /// The --check results other than `true`.
    checks: HashMap<u32, String>,
}

impl<'a> Search<'a> {
    /// Waits for the oldest batch in flight and applies its results.
    pub(super) fn apply_oldest(&mut self, pool: &mut Pool) -> anyhow::Result<()> {
        if let Some(m) = self.inflight.pop_front() {
            let results = pool.collect()?;
            self.note_restarts(pool);
            self.apply_all(m, results);
        }
        Ok(())
    }

    pub(super) fn apply_all(&mut self, metas: Vec<Meta>, results: Vec<SeqResult>) {
        // Forms of bulk results, by task: forms[starts[t]..starts[t + 1]].
        let starts: Vec<Vec<u32>> = results
            .iter()
            .map(|r| {
                if r.forms.is_empty() {
                    return Vec::new();
                }
                let mut st = vec![0u32; r.outcomes.len() + 1];
                for f in &r.forms {
                    if let Some(x) = st.get_mut(f.task as usize + 1) {
                        *x += 1;
                    }
                }
                for t in 1..st.len() {
                    st[t] += st[t - 1];
                }
                st
            })
            .collect();
        for m in &metas {
            self.applied_retain = self.applied_retain.max(m.retain);
            let Some(r) = results.get(m.req) else {
                continue;
            };
            match m.task {
                None => self.apply(m, r),
                Some(t) => {
                    let st = &starts[m.req];
                    let forms = match (st.get(t as usize), st.get(t as usize + 1)) {
                        (Some(&a), Some(&b)) => &r.forms[a as usize..b as usize],
                        _ => &[],
                    };
                    let Some(out) = r.outcomes.get(t as usize) else {
                        continue;
                    };
                    self.apply_task(m, out, forms);
                }
            }
        }
    }

    /// A task of a bulk request: its call's outcome and its forms.
    fn apply_task(&mut self, m: &Meta, out: &StmtOutcome, forms: &[BulkForm]) {
        match out {
            StmtOutcome::Normal(_) if !forms.is_empty() => {}
            StmtOutcome::Normal(_) | StmtOutcome::NotRun => {
                // lost with a worker that died later in the same request
                self.requeue_task(m, None);
                return;
            }
            _ => {
                if let StmtOutcome::Exception { class, message, .. } = out
                    && (class.as_ref() == "jforge.ProtoMissing"
                        || class.as_ref() == "jforge.CopyFailed")
                {
                    self.requeue_task(m, Some((class.as_ref(), message.as_deref())));
                    return;
                }
                // An exception, timeout or crash of the call: as for a whole sequence.
                let mut outcomes = vec![StmtOutcome::Normal(Observed::Void); m.len];
                outcomes[m.len - 1] = out.clone();
                let r = SeqResult {
                    outcomes,
                    violations: Vec::new(),
                    observers: Vec::new(),
                    worker: m.worker,
                    coverage: None,
                    compared: Vec::new(),
                    compared_nums: Vec::new(),
                    forms: Vec::new(),
                    clock_reads: 0,
                    thrown: None,
                    survived: false,
                    trace: None,
                };
                self.apply(m, &r);
                return;
            }
        }
        self.explored += 1;
        // As for a whole sequence: one value out of scope drops the task, none is recorded.
        if forms
            .iter()
            .any(|f| matches!(f.form, FormValue::OutOfScope))
        {
            self.out_of_scope += 1;
            return;
        }
        let mut built = Vec::new();
        for f in forms {
            let Some(&stmt) = m.canon.get(f.which as usize) else {
                continue;
            };
            let key = match &f.form {
                FormValue::Hash(h) => *h,
                FormValue::Text(t) => {
                    let k = key(t);
                    if self.cfg.dump && !self.seen.contains(&k) {
                        self.forms.insert(t.clone());
                    }
                    k
                }
                // (out of scope: the task was dropped above)
                FormValue::OutOfScope | FormValue::Null => continue,
                FormValue::Error(e) => {
                    *self.canon_errors.entry(e.clone()).or_default() += 1;
                    continue;
                }
                // only contracts tasks (check_contracts) report violations
                FormValue::Violation(..) => continue,
            };
            let Some(class) = &f.class else { continue };
            let before = self.kept.len();
            self.record_form(m, stmt, key, class);
            if self.log.is_some() {
                built.push((key, (self.kept.len() > before).then_some(before as u32)));
            }
        }
        self.log_applied(m, built);
    }

    /// Records an applied combination when [`Search::log`] is on.
    fn log_applied(&mut self, m: &Meta, built: Vec<(u128, Option<u32>)>) {
        if let Some(log) = self.log.as_mut() {
            log.push(Applied {
                ui: m.ui as u32,
                choice: m.choice.clone(),
                built,
            });
        }
    }

    /// The prototype was gone or could not be copied: run the whole sequence later.
    fn requeue_task(&mut self, m: &Meta, why: Option<(&str, Option<&str>)>) {
        if let Some(Choice::Ref(k)) = m.choice.iter().find(|c| matches!(c, Choice::Ref(_))) {
            self.kept[*k as usize].home = None;
        }
        if let Some(("jforge.CopyFailed", msg)) = why
            && self.reuse_disabled.is_none()
        {
            self.cfg.reuse = false;
            self.reuse_disabled = Some(format!(
                "a structure could not be copied ({}); every sequence is re-executed",
                msg.unwrap_or("no detail")
            ));
        }
        self.requeue.push((m.ui, m.choice.to_vec()));
    }

    /// Applies the result of one request: a rebuilt prototype, a combination to re-queue
    /// (its prototype was gone), a failure, or the values it built for state matching.
    fn apply(&mut self, m: &Meta, r: &SeqResult) {
        if let Some(k) = m.rebuild {
            self.apply_rebuild(m, r, k);
            return;
        }
        if let Some(i) = r.first_abnormal()
            && m.task.is_none()
            && let StmtOutcome::Exception { class, message, .. } = &r.outcomes[i]
            && m.protos.contains(&(i as u32))
        {
            // The worker no longer holds the prototype (restart, full heap) or could not
            // copy it: run the whole sequence instead.
            self.requeue_task(m, Some((class.as_ref(), message.as_deref())));
            return;
        }
        self.explored += 1;
        if let Some(i) = r.first_abnormal() {
            self.record_failure(m, r, i);
            return;
        }
        let Some(observed) = self.forms_and_checks(m, r) else {
            return;
        };
        self.match_states(m, r, observed);
    }

    /// A prototype moved to (or rebuilt in) another worker: it lives there now if the rebuild
    /// ran normally and its structure is within scope, else it has no home.
    fn apply_rebuild(&mut self, m: &Meta, r: &SeqResult, k: u32) {
        let ok = r.first_abnormal().is_none()
            && r.observers.iter().any(|o| {
                o.op == CANON_OP && matches!(&o.result, Ok(Value::Str(s)) if s != OUT_OF_SCOPE)
            });
        self.rebuilt += 1;
        if ok {
            self.kept[k as usize].home = Some(m.worker as u16);
            self.promotions[m.worker].push((m.retain, m.canon[0], k));
        } else {
            self.kept[k as usize].home = None;
        }
    }

    /// Statement `i` of the combination of `m` did not run normally: dropped when it threw an
    /// exception that breaks no contract (expected behaviour, as in `gen`:
    /// `crate::contracts`), else a failure (one per operation and exception, counting its
    /// occurrences; the first full sequence that shows it). Inputs of the search are never
    /// null (literals of the domains, kept structures), so a NullPointerException is always
    /// one without a null input.
    fn record_failure(&mut self, m: &Meta, r: &SeqResult, i: usize) {
        let op = self.usable[m.ui].op;
        let mut exception_contract = None;
        let (what, public, message) = match &r.outcomes[i] {
            StmtOutcome::Exception {
                class,
                public_class,
                message,
                ..
            } => {
                let null_input = crate::contracts::null_input(&m.seq, r);
                exception_contract = crate::contracts::exception_contract(
                    class,
                    null_input,
                    &self.cfg.error_exceptions,
                );
                if !class.starts_with("jforge.") && exception_contract.is_none() {
                    self.misuse_dropped += 1;
                    let e = self
                        .expected
                        .entry((op, class.to_string()))
                        .or_insert_with(|| (0, message.clone()));
                    e.0 += 1;
                    return;
                }
                (
                    class.to_string(),
                    Some(public_class.to_string()),
                    message.clone(),
                )
            }
            StmtOutcome::Timeout => ("timeout".to_string(), None, None),
            StmtOutcome::Crash(k) => (format!("crash: {k}"), None, None),
            _ => ("not run".to_string(), None, None),
        };
        let k = (op, what.clone());
        if let Some(&i) = self.failure_index.get(&k) {
            self.failures[i].occurrences += 1;
        } else {
            self.failure_index.insert(k, self.failures.len());
            let seq = if m.protos.is_empty() {
                m.seq.clone()
            } else {
                Arc::new(self.build(m.ui, &m.choice).0)
            };
            self.failures.push(Failure {
                seq,
                what,
                public_class: public,
                message,
                occurrences: 1,
                contract: None,
                exception_contract,
            });
        }
    }

    /// The canonical forms and the --check results of a combination that ran normally, by
    /// statement; `None` when one of its values is out of scope (the combination is dropped).
    fn forms_and_checks(&mut self, m: &Meta, r: &SeqResult) -> Option<Observations> {
        if r.observers.len() != m.requested {
            // e.g. a worker that does not know ExecMode::Canon answers with no observer entries
            *self
                .canon_errors
                .entry("the worker returned no canonical forms".into())
                .or_default() += 1;
        }
        let mut forms: Vec<(u32, Form)> = Vec::new();
        let mut checks: HashMap<u32, String> = HashMap::new();
        for o in &r.observers {
            if o.op == CANON_OP {
                match &o.result {
                    Ok(Value::Str(s)) => {
                        if s == OUT_OF_SCOPE {
                            self.out_of_scope += 1;
                            return None;
                        }
                        forms.push((o.stmt, Form::parse(s)));
                    }
                    Ok(v) => *self.canon_errors.entry(format!("{v:?}")).or_default() += 1,
                    Err(e) => *self.canon_errors.entry(e.clone()).or_default() += 1,
                }
            } else {
                let res = match &o.result {
                    Ok(Value::Bool(true)) => continue,
                    Ok(v) => format!("{v:?}"),
                    Err(e) => format!("threw {e}"),
                };
                checks.insert(o.stmt, res);
            }
        }
        Some(Observations { forms, checks })
    }

    /// State matching for the values a combination built: each structure never seen is kept
    /// (every one without state matching), with its --check result if it failed.
    fn match_states(&mut self, m: &Meta, r: &SeqResult, observed: Observations) {
        let Observations { forms, checks } = observed;
        let mut built = Vec::new();
        for (stmt, form) in forms {
            let Form::Form(text) = form else { continue };
            let StmtOutcome::Normal(Observed::Object { class, .. }) = &r.outcomes[stmt as usize]
            else {
                continue;
            };
            // The same key as a bulk request's raw hash (worker hex -> u128); texts (--dump)
            // are hashed here on both paths.
            let k = if self.cfg.dump {
                key(&text)
            } else {
                u128::from_str_radix(&text, 16).unwrap_or_else(|_| key(&text))
            };
            let new = self.seen.insert(k);
            if new {
                *self.structures.entry(class.clone()).or_default() += 1;
                if self.cfg.dump {
                    self.forms.insert(text);
                }
            }
            let before = self.kept.len();
            if new || !self.cfg.state_matching {
                self.keep(m, stmt, class, new.then(|| checks.get(&stmt)).flatten());
            }
            if self.log.is_some() {
                built.push((k, (self.kept.len() > before).then_some(before as u32)));
            }
        }
        self.log_applied(m, built);
    }

    /// State matching for one value of a bulk task (its key, class).
    fn record_form(&mut self, m: &Meta, stmt: u32, key: u128, class: &Arc<str>) {
        let new = self.seen.insert(key);
        if new {
            *self.structures.entry(class.clone()).or_default() += 1;
        }
        if new || !self.cfg.state_matching {
            self.keep(m, stmt, class, None);
        }
    }

    /// Keeps the combination of `m` as the builder of its value at `stmt`; the worker that
    /// ran it will hold that value as a prototype.
    fn keep(&mut self, m: &Meta, stmt: u32, class: &Arc<str>, check: Option<&String>) {
        // A statement that was not canonicalized is not kept, so it costs no memory either.
        let Some(which) = m.canon.iter().position(|&c| c == stmt) else {
            return;
        };
        let cid = self.class_id(class);
        self.bytes += kept_bytes(m.choice.len());
        let kid = self.kept.len() as u32;
        let home = if m.retain != 0 {
            // bulk candidates are held under the value index, others under the statement
            let at = if m.task.is_some() { which as u32 } else { stmt };
            self.promotions[m.worker].push((m.retain, at, kid));
            Some(m.worker as u16)
        } else {
            None
        };
        self.kept.push(Kept {
            ui: m.ui as u32,
            choice: m.choice.clone(),
            which: which as u8,
            class: cid,
            round: self.round,
            home,
        });
        if let Some(res) = check {
            self.counterexamples.push(Counterexample {
                kept: self.kept.len() - 1,
                result: res.clone(),
            });
        }
    }
}
