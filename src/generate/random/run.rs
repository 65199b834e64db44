//! The main loop: batches built while the one before runs, their results applied in
//! order, the stop at a limit, a plateau or exhaustion; and a helper's turn at coverage
//! plateaus (`gen --concolic`) on the same workers.

use super::candidates::{Component, Incident, Progress};
use super::generator::{Built, Draft, Generator};
use crate::generate::assist::{Stalled, StalledOp};
use crate::model::JType;
use crate::report::StopReason;
use crate::runner::{ExecMode, ExecRequest, Pool, SeqResult};
use crate::sequence::{OpId, Sequence, Stmt, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub(super) struct Pending {
    pub(super) reqs: Vec<Built>,
    /// Per request: still wanted when its batch was collected (see [`Generator::wanted`]);
    /// the results of the others are dropped, whether the pool had run them or not.
    pub(super) keep: Vec<bool>,
}

/// Batches in a row that built no new sequence before a run calls itself exhausted.
const IDLE_BATCHES_TO_EXHAUST: u32 = 20;

impl<'a> Generator<'a> {
    /// Generate until the time or count limit. `tick` is called after every batch.
    ///
    /// Batch N+1 is built while batch N runs, from the results up to N-1, and submitted at
    /// once, before N is collected, so that the workers never wait for the generator. What
    /// is learnt from N about N+1 (an operation excluded, a value class found hang-prone) is
    /// applied by dropping those requests of N+1: withdrawn from the pool (not run if no
    /// worker started them) and their results ignored either way, so the generator sees what
    /// it would have seen had they never been submitted (ARCHITECTURE.md, "Determinism").
    /// When the helper of `gen --concolic` may take its turn, which needs an idle pool, N+1
    /// waits for N as before.
    pub fn run(&mut self, pool: &mut Pool, tick: &mut dyn FnMut(&Progress)) -> anyhow::Result<()> {
        let start = Instant::now();
        let mut pending: Option<Pending> = None;
        let mut batches = 0usize;
        let mut idle_batches = 0u32;
        loop {
            let plateau = match (&mut self.cov, self.cfg.stop_on_plateau) {
                (Some(g), Some(p)) => {
                    let since = *g.last_new_branch.get_or_insert(start);
                    since.elapsed() >= p
                }
                _ => false,
            };
            let time_up = self.cfg.time_limit.is_some_and(|t| start.elapsed() >= t) || plateau;
            let remaining = self
                .cfg
                .generated_limit
                .map(|l| l.saturating_sub(self.progress.generated));
            let next = if time_up || remaining == Some(0) {
                Vec::new()
            } else {
                // Batches grow from 16 to batch_size, so that early feedback (crashes, the
                // first values of each type) arrives before many sequences are built blind.
                let size = (16usize << batches.min(16)).min(self.cfg.batch_size);
                batches += 1;
                let n = remaining.map_or(size, |r| r.min(size as u64) as usize);
                let b = self.build_batch(n);
                self.progress.generated += b.len() as u64;
                b
            };
            let early = !next.is_empty() && self.assist_due(start).is_none();
            if early {
                pool.submit(next.iter().map(|b| self.request(b)).collect())?;
            }
            let had_pending = pending.is_some();
            if let Some(p) = pending.take() {
                let results = pool.collect()?;
                self.apply_kept(p, results);
            }
            if !early && let Some(deadline) = self.assist_due(start) {
                self.assist_round(pool, deadline)?;
            }
            self.note_progress(start, tick);
            let keep: Vec<bool> = next.iter().map(|b| self.wanted(b)).collect();
            if !keep.contains(&true) {
                if early {
                    // nothing of it is used: not run where not started yet
                    pool.withdraw(&(0..next.len()).collect::<Vec<_>>());
                    pool.collect()?;
                }
                let limit = time_up || remaining == Some(0);
                if !had_pending {
                    idle_batches += 1;
                }
                // The batch just applied may make new sequences possible, and random choices
                // may still find new ones: stop only at a limit or after repeated failure
                // (20 batches in a row with nothing new: up to 100,000 attempts, ~0.1 s;
                // 5 let a class whose arguments were all still null or constants stop after
                // 0.6 s of a 20 s budget).
                if !limit && (had_pending || idle_batches < IDLE_BATCHES_TO_EXHAUST) {
                    continue;
                }
                self.stop_reason = if plateau {
                    StopReason::Plateau
                } else if time_up {
                    StopReason::TimeLimit
                } else if remaining == Some(0) && self.cfg.replayed {
                    StopReason::EarlierRun
                } else if remaining == Some(0) {
                    StopReason::GeneratedLimit
                } else {
                    StopReason::Exhausted
                };
                break;
            }
            idle_batches = 0;
            pending = Some(self.submit_wanted(pool, next, keep, early)?);
        }
        Ok(())
    }

    /// Sequences built before their operation was excluded, or a value they reuse was found
    /// to make calls hang, are not run.
    fn wanted(&self, b: &Built) -> bool {
        !self.stats[b.op as usize].excluded && !b.classes.iter().any(|c| self.hanging.is_prone(c))
    }

    /// The batch `next` in the pool with only its wanted requests (`keep`): an early batch
    /// (submitted whole) gives back the others, a held one is submitted without them.
    fn submit_wanted(
        &mut self,
        pool: &mut Pool,
        next: Vec<Built>,
        keep: Vec<bool>,
        early: bool,
    ) -> anyhow::Result<Pending> {
        if early {
            let unwanted: Vec<usize> = (0..keep.len()).filter(|&i| !keep[i]).collect();
            if !unwanted.is_empty() {
                pool.withdraw(&unwanted);
            }
            return Ok(Pending { reqs: next, keep });
        }
        let next: Vec<Built> = next
            .into_iter()
            .zip(keep)
            .filter(|x| x.1)
            .map(|x| x.0)
            .collect();
        pool.submit(next.iter().map(|b| self.request(b)).collect())?;
        Ok(Pending {
            keep: vec![true; next.len()],
            reqs: next,
        })
    }

    /// Applies the results of a collected batch's wanted requests, in input order.
    fn apply_kept(&mut self, p: Pending, results: Vec<SeqResult>) {
        let (built, results): (Vec<Built>, Vec<SeqResult>) = p
            .reqs
            .into_iter()
            .zip(results)
            .zip(p.keep)
            .filter(|x| x.1)
            .map(|x| x.0)
            .unzip();
        self.apply(built, results);
    }

    /// The progress after a batch (elapsed time, coverage and its series), given to `tick`.
    fn note_progress(&mut self, start: Instant, tick: &mut dyn FnMut(&Progress)) {
        self.progress.elapsed = start.elapsed();
        if let Some(g) = self.cov.as_mut() {
            g.start.get_or_insert(start);
            let t = &g.tracker;
            self.progress.branches = Some((t.covered_branches, t.branches));
            self.progress.lines = Some((t.covered_lines, t.lines));
            let last = g.series.last().copied().unwrap_or_default();
            if (last.1, last.2) != (t.covered_branches, t.covered_lines) {
                g.series.push((
                    self.progress.elapsed.as_secs_f64(),
                    t.covered_branches,
                    t.covered_lines,
                ));
            }
        }
        tick(&self.progress);
    }

    fn request(&self, b: &Built) -> ExecRequest {
        let last = b.comp.seq.len() as u32 - 1;
        let mut cv = Vec::new();
        if self.op_ret[b.op as usize].is_some_and(|t| !self.types[t as usize].is_prim()) {
            cv.push(last);
        }
        if let Stmt::Call { args, .. } = &b.comp.seq.stmts[last as usize]
            && self.ops.table.get(b.op).has_receiver()
            && let Some(&r) = args.first()
            && !cv.contains(&r)
        {
            cv.push(r);
        }
        ExecRequest {
            seq: b.comp.seq.clone(),
            mode: ExecMode::Generate,
            contract_values: cv,
            observers: Vec::new(),
            reuse: None,
        }
    }

    /// When a helper is set, coverage has not grown for
    /// [`crate::generate::assist::plateau_after`] and generation has time left: the deadline
    /// of the helper's turn.
    fn assist_due(&mut self, start: Instant) -> Option<Instant> {
        self.assist.as_ref()?;
        let g = self.cov.as_mut()?;
        let since = *g.last_new_branch.get_or_insert(start);
        // Halfway through without a turn, the helper gets one even though coverage still
        // grows: on a loaded machine random generation found a branch every second or so
        // until 26 s of 30, and the helper's one turn came too late to solve anything
        // (concolic_e2e in CI, 2026-11-28).
        let halfway = self.assist_stats.handoffs == 0
            && self
                .cfg
                .time_limit
                .is_some_and(|t| start.elapsed() >= t / 2);
        if since.elapsed() < crate::generate::assist::plateau_after(self.cfg.time_limit) && !halfway
        {
            return None;
        }
        let left = match self.cfg.time_limit {
            Some(t) => t.checked_sub(start.elapsed())?,
            None => Duration::from_secs(30),
        };
        let budget = crate::generate::assist::helper_budget(left);
        (budget >= Duration::from_millis(500)).then(|| Instant::now() + budget)
    }

    /// One turn of the helper: it gets the stalled operations, its sequences run on gen's
    /// workers and are applied like generated ones (their values join the pool, new
    /// coverage makes a regression candidate). A helper that fails is dropped with an
    /// incident; generation goes on without it.
    fn assist_round(&mut self, pool: &mut Pool, deadline: Instant) -> anyhow::Result<()> {
        let Some(mut helper) = self.assist.take() else {
            return Ok(());
        };
        let stalled = Stalled {
            ops: self.stalled_ops(),
            deadline,
        };
        let t0 = Instant::now();
        let answer = helper.plateau(&stalled);
        let errors_before = self.assist_stats.solver_errors;
        helper.figures(&mut self.assist_stats);
        if errors_before == 0
            && self.assist_stats.solver_errors > 0
            && let Some(e) = helper.first_error()
        {
            self.incidents.push(Incident {
                operation: "gen --concolic".into(),
                what: format!(
                    "the solver refused a query (taken as unknown; the helper went on): {e}"
                ),
            });
        }
        self.assist_stats.handoffs += 1;
        self.assist_stats.seconds += t0.elapsed().as_secs_f64();
        let seqs = match answer {
            Ok(s) => {
                self.assist = Some(helper);
                s
            }
            Err(e) => {
                self.incidents.push(Incident {
                    operation: "gen --concolic".into(),
                    what: format!("the helper stopped: {e:#}"),
                });
                Vec::new()
            }
        };
        let built: Vec<Built> = seqs.into_iter().filter_map(|s| self.adopt(s)).collect();
        let before = self.cov.as_ref().map_or(0, |g| g.tracker.covered_branches);
        if !built.is_empty() {
            self.assist_stats.sequences += built.len() as u64;
            let reqs: Vec<ExecRequest> = built.iter().map(|b| self.request(b)).collect();
            let results = pool.execute(reqs)?;
            self.apply(built, results);
        }
        if let Some(g) = self.cov.as_mut() {
            self.assist_stats.new_branches += u64::from(g.tracker.covered_branches - before);
            // The plateau clock restarts: the helper had its turn.
            g.last_new_branch = Some(Instant::now());
        }
        Ok(())
    }

    /// The operations of the classes under test whose own method has uncovered branches,
    /// most uncovered first, each with its receiver and object arguments from the pool.
    fn stalled_ops(&mut self) -> Vec<StalledOp> {
        let Some(g) = self.cov.as_ref() else {
            return Vec::new();
        };
        let mut todo: Vec<(OpId, u32)> = self
            .ops
            .primary
            .iter()
            .filter(|&&op| !self.stats[op as usize].excluded)
            .filter_map(|&op| {
                let m = &g.tracker.methods[g.op_method[op as usize]? as usize];
                let uncovered = m.open();
                (uncovered > 0).then_some((op, uncovered))
            })
            .collect();
        todo.sort_by_key(|&(op, u)| (std::cmp::Reverse(u), op));
        todo.into_iter()
            .filter_map(|(op, uncovered)| self.stalled_op(op, uncovered))
            .collect()
    }

    /// A receiver and the non-literal arguments of `op` from the pool (primitives and
    /// Strings are the helper's); `None` when the pool has no receiver yet.
    fn stalled_op(&mut self, op: OpId, uncovered: u32) -> Option<StalledOp> {
        let o = self.ops.table.get(op);
        if o.outer_instance {
            return None;
        }
        let receiver = usize::from(o.has_receiver());
        let inputs = self.op_inputs[op as usize].clone();
        let mut b = Draft {
            seq: Sequence::default(),
            tids: Vec::new(),
            has_null: false,
            classes: Vec::new(),
        };
        let mut fixed = Vec::new();
        self.building = Some(op);
        for (i, &need) in inputs.iter().enumerate() {
            let t = &self.types[need as usize];
            if i >= receiver && (t.is_prim() || *t == JType::string()) {
                continue;
            }
            let at = self.pick_value(&mut b, &mut Vec::new(), need, i < receiver, 0);
            match at {
                Some(at) => fixed.push((i, at)),
                None if i < receiver => {
                    self.building = None;
                    return None;
                }
                None => {}
            }
        }
        self.building = None;
        Some(StalledOp {
            op,
            uncovered,
            prefix: b.seq,
            fixed,
        })
    }

    /// A helper's sequence as a generated one (static types of its statements), unless it
    /// ran before or does not end in a call.
    fn adopt(&mut self, seq: Sequence) -> Option<Built> {
        let f = seq.fingerprint();
        if !self.seen_seqs.insert(f as u64, (f >> 64) as u64) {
            return None;
        }
        self.adopt_any(seq)
    }

    /// Runs the error-revealing tests an earlier run wrote into the output folder, after
    /// generation: a defect one of them still shows keeps that test (`add_error`), whatever
    /// this run found for it; one that no longer shows its defect is gone (or, ending
    /// normally now, a regression candidate like any sequence). Why: a re-run found the same
    /// defects with other inputs and rewrote their tests (Commons CSV: 2 of the 34 lines a
    /// re-run changed). Returns how many were run.
    pub fn replay_errors(&mut self, pool: &mut Pool, seqs: Vec<Sequence>) -> anyhow::Result<usize> {
        let built: Vec<Built> = seqs.into_iter().filter_map(|s| self.adopt_any(s)).collect();
        if built.is_empty() {
            return Ok(0);
        }
        let n = built.len();
        let reqs: Vec<ExecRequest> = built.iter().map(|b| self.request(b)).collect();
        let results = pool.execute(reqs)?;
        self.replaying = true;
        self.apply(built, results);
        self.replaying = false;
        Ok(n)
    }

    /// A sequence made a request, seen before or not.
    fn adopt_any(&mut self, seq: Sequence) -> Option<Built> {
        let Some(Stmt::Call { op, .. }) = seq.stmts.last() else {
            return None;
        };
        let op = *op;
        let tids = (0..seq.len())
            .map(|i| seq.out_type(&self.ops.table, i).map(|t| self.tid(&t)))
            .collect();
        let has_null = seq.stmts.iter().any(|s| {
            matches!(
                s,
                Stmt::Lit {
                    value: Value::Null,
                    ..
                }
            )
        });
        Some(Built {
            comp: Component {
                seq: Arc::new(seq),
                tids,
                has_null,
                cand: None,
            },
            op,
            parents: Vec::new(),
            classes: Vec::new(),
        })
    }
}
