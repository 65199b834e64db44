//! The single-object contracts of `gen` checked on every kept structure once: on prototype
//! copies where the workers hold them, else by re-running their sequences; violations become
//! failures.

use super::found::Failure;
use super::send::bulk_request;
use super::state::Search;
use crate::runner::{
    BulkTask, CANON_OP, Contract, ExecMode, ExecRequest, FormValue, Pool, StmtOutcome,
};

impl<'a> Search<'a> {
    /// The single-object contracts of `gen` (equals reflexive and false for null, hashCode
    /// and toString do not throw, compareTo reflexive) on every kept structure not checked
    /// yet, up to `to`: on a copy of its prototype in the worker that holds it, else by
    /// re-running its sequence. A contract depends on the structure only, so checking each
    /// distinct structure once checks every sequence explored. Violations become failures,
    /// the first structure (in kept order) per contract and detail.
    pub(super) fn check_contracts(&mut self, pool: &mut Pool, to: usize) -> anyhow::Result<()> {
        let from = self.contracts_done;
        if !self.cfg.contracts || from >= to {
            self.contracts_done = self.contracts_done.max(to);
            return Ok(());
        }
        let step = self.cfg.batch.max(1) * 4;
        let mut start = from;
        while start < to {
            let end = (start + step).min(to);
            self.check_contracts_of(pool, start, end)?;
            start = end;
        }
        self.contracts_done = to;
        Ok(())
    }

    /// The contracts of one chunk of kept structures, `start..end`: on prototype copies where
    /// the workers hold them, the rest re-run; violations recorded in kept order.
    fn check_contracts_of(
        &mut self,
        pool: &mut Pool,
        start: usize,
        end: usize,
    ) -> anyhow::Result<()> {
        let workers = pool.workers();
        // (kept, violation) found in this chunk; sequences to run for the rest
        let mut found: Vec<(usize, Option<Contract>, String)> = Vec::new();
        let mut rerun: Vec<usize> = Vec::new();
        let mut bulks: Vec<Vec<usize>> = vec![Vec::new(); workers];
        for k in start..end {
            match self.kept[k].home {
                Some(h) if self.cfg.reuse => bulks[h as usize % workers].push(k),
                _ => rerun.push(k),
            }
        }
        self.check_contracts_on_prototypes(pool, bulks, &mut rerun, &mut found)?;
        self.check_contracts_by_rerun(pool, &mut rerun, &mut found)?;
        found.sort_by_key(|f| f.0);
        for (k, c, detail) in found {
            self.record_violation(k, c, detail);
        }
        Ok(())
    }

    /// Contracts on prototype copies: one bulk request per worker for the kept structures it
    /// holds (`bulks[w]`). Violations go to `found`; structures whose check did not run
    /// normally (prototype gone with a restart, or the check crashed) go to `rerun`.
    fn check_contracts_on_prototypes(
        &mut self,
        pool: &mut Pool,
        bulks: Vec<Vec<usize>>,
        rerun: &mut Vec<usize>,
        found: &mut Vec<(usize, Option<Contract>, String)>,
    ) -> anyhow::Result<()> {
        let mut reqs = Vec::new();
        let mut owners = Vec::new();
        for (w, ks) in bulks.into_iter().enumerate() {
            if ks.is_empty() {
                continue;
            }
            let tasks = ks
                .iter()
                .map(|&k| BulkTask {
                    proto: k as u32,
                    op: CANON_OP,
                    pos: 0,
                    lits: Vec::new(),
                    canon_result: false,
                })
                .collect::<Vec<_>>();
            let mut req = bulk_request(tasks, Vec::new(), 0);
            self.attach_promotions(&mut req, w);
            reqs.push((req, w));
            owners.push(ks);
        }
        if reqs.is_empty() {
            return Ok(());
        }
        pool.submit_routed(reqs)?;
        let results = pool.collect()?;
        self.note_restarts(pool);
        for (ks, r) in owners.iter().zip(&results) {
            for (t, &k) in ks.iter().enumerate() {
                match r.outcomes.get(t) {
                    Some(StmtOutcome::Normal(_)) => {}
                    // prototype gone (restart), or the check itself crashed: re-run
                    _ => rerun.push(k),
                }
            }
            for f in &r.forms {
                if let (FormValue::Violation(c, d), Some(&k)) = (&f.form, ks.get(f.task as usize)) {
                    found.push((k, Some(*c), d.clone()));
                }
            }
        }
        Ok(())
    }

    /// Contracts by re-running the sequences of the kept structures `rerun` (sorted first);
    /// violations, and crashes of the worker, go to `found`.
    fn check_contracts_by_rerun(
        &mut self,
        pool: &mut Pool,
        rerun: &mut [usize],
        found: &mut Vec<(usize, Option<Contract>, String)>,
    ) -> anyhow::Result<()> {
        if rerun.is_empty() {
            return Ok(());
        }
        rerun.sort_unstable();
        let reqs: Vec<ExecRequest> = rerun
            .iter()
            .map(|&k| {
                let (seq, v) = self.materialize(k);
                ExecRequest {
                    seq,
                    mode: ExecMode::Generate,
                    contract_values: vec![v],
                    observers: Vec::new(),
                    reuse: None,
                }
            })
            .collect();
        let results = pool.execute(reqs)?;
        self.note_restarts(pool);
        for (&k, r) in rerun.iter().zip(&results) {
            let v = self.materialize(k).1;
            if let Some(i) = r.first_abnormal() {
                if let StmtOutcome::Crash(c) = &r.outcomes[i] {
                    found.push((k, None, format!("crash: {c}")));
                }
                continue;
            }
            for x in r.violations.iter().filter(|x| x.a == v && x.b.is_none()) {
                found.push((k, Some(x.contract), x.detail.clone()));
            }
        }
        Ok(())
    }

    /// A broken contract (`None`: the check itself crashed the worker) of kept structure `k`.
    fn record_violation(&mut self, k: usize, c: Option<Contract>, detail: String) {
        let what = match c {
            Some(c) => format!("contract {}: {detail}", c.name()),
            None => format!("contract check: {detail}"),
        };
        let key = (CANON_OP, what.clone());
        if let Some(&i) = self.failure_index.get(&key) {
            self.failures[i].occurrences += 1;
            return;
        }
        self.failure_index.insert(key, self.failures.len());
        let (seq, v) = self.materialize(k);
        self.failures.push(Failure {
            seq,
            what,
            public_class: None,
            message: None,
            occurrences: 1,
            contract: c.map(|c| (c, v)),
            exception_contract: None,
        });
    }
}
