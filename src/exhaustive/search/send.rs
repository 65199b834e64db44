//! Sending a batch to the workers, pipelined: each combination as a task of its worker's
//! bulk request (one structure input with a home), a short request from a prototype copy, or
//! its whole sequence; promotions go with each worker's first request.

use super::inputs::Choice;
use super::state::{Meta, Search};
use crate::model::JType;
use crate::runner::{Bulk, BulkTask, CANON_OP, ExecMode, ExecRequest, Pool, Reuse};
use crate::sequence::{OpId, SeqRef, Sequence, Stmt, Value};
use std::sync::Arc;

/// Batches in flight at once: while the search applies one and builds the next, each worker
/// already runs its share of the following one (a worker that finishes a batch early does not
/// wait for the other). Results are still applied in submission order.
const PIPELINE: usize = 2;

/// The requests of the batch [`Search::flush`] sends, and what was sent for each.
struct Outgoing {
    workers: usize,
    /// Requests, with the worker each goes to.
    reqs: Vec<(ExecRequest, usize)>,
    /// Metas of the combinations sent as requests of their own, in batch order.
    metas: Vec<Meta>,
    /// Index in `reqs` of the first request to each worker (`usize::MAX`: none yet).
    first_for: Vec<usize>,
    /// Bulk requests, one per worker: (tasks, metas of its tasks).
    bulks: Vec<(Vec<BulkTask>, Vec<Meta>)>,
    /// Bulk tasks carry no sequence of their own: one shared empty one.
    empty: SeqRef,
}

impl<'a> Search<'a> {
    /// Sends the pending batch to the workers. Pipelined: the batch before it (if any) is
    /// collected first, the new one submitted, and only then are the earlier results applied,
    /// so that Rust-side work overlaps the workers'. Results are applied in batch order.
    pub fn flush(&mut self, pool: &mut Pool) -> anyhow::Result<()> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.batch);
        let workers = pool.workers();
        let mut out = Outgoing {
            workers,
            reqs: Vec::with_capacity(batch.len()),
            metas: Vec::with_capacity(batch.len()),
            first_for: vec![usize::MAX; workers],
            bulks: (0..workers).map(|_| (Vec::new(), Vec::new())).collect(),
            empty: Arc::new(Sequence::default()),
        };
        let bulk_ok = self.cfg.reuse && self.cfg.check_ops.is_empty();
        for (order, (ui, choice)) in batch.into_iter().enumerate() {
            let order = order as u32;
            let mut refs = choice.iter().filter_map(|c| match c {
                Choice::Ref(k) => Some(*k),
                Choice::Lit(_) => None,
            });
            let first = refs.next();
            let single = first.is_some() && refs.next().is_none();
            let home = first.and_then(|k| self.kept[k as usize].home);
            if let (true, true, Some(h), Some(k)) = (bulk_ok, single, home, first) {
                self.add_bulk_task(&mut out, order, ui, choice, k, h as usize % workers);
                continue;
            }
            self.add_request(&mut out, order, ui, choice, home, single);
        }
        let Outgoing {
            mut reqs,
            mut metas,
            mut first_for,
            bulks,
            ..
        } = out;
        let bulk_metas = self.add_bulk_requests(bulks, &mut reqs, &mut first_for);
        in_batch_order(&mut metas, bulk_metas);
        self.promote_with_first_requests(&mut reqs, &first_for);
        pool.submit_routed(reqs)?;
        self.inflight.push_back(metas);
        while self.inflight.len() > PIPELINE {
            self.apply_oldest(pool)?;
        }
        Ok(())
    }

    /// A combination whose one structure input is prototype `proto`, held by worker `w`:
    /// a task of that worker's bulk request (the copy's position, the literals by index).
    fn add_bulk_task(
        &mut self,
        out: &mut Outgoing,
        order: u32,
        ui: usize,
        choice: Vec<Choice>,
        proto: u32,
        w: usize,
    ) {
        let u = &self.usable[ui];
        let mut pos = 0u8;
        let mut lits = Vec::with_capacity(choice.len());
        for (j, c) in choice.iter().enumerate() {
            match c {
                Choice::Ref(_) => pos = j as u8,
                Choice::Lit(i) => lits.push(self.lit_base[ui][j] + i),
            }
        }
        let n = choice.len();
        let (tasks, metas) = &mut out.bulks[w];
        tasks.push(BulkTask {
            proto,
            op: u.op,
            pos,
            lits,
            canon_result: u.canon_result,
        });
        let mut canon = vec![pos as u32];
        if u.canon_result {
            canon.push(n as u32);
        }
        let task = Some(tasks.len() as u32 - 1);
        metas.push(Meta {
            ui,
            choice: choice.into_boxed_slice(),
            canon,
            requested: 0,
            len: n + 1,
            protos: vec![pos as u32],
            worker: w,
            retain: 0,
            rebuild: None,
            seq: out.empty.clone(),
            req: 0,
            task,
            order,
        });
        self.from_prototype += 1;
    }

    /// A combination sent as a request of its own: its short form when its one structure
    /// input has a home (prototype reuse), else its whole sequence, to the worker holding its
    /// structure input if any (round-robin otherwise).
    fn add_request(
        &mut self,
        out: &mut Outgoing,
        order: u32,
        ui: usize,
        choice: Vec<Choice>,
        home: Option<u16>,
        single: bool,
    ) {
        let workers = out.workers;
        let (seq, canon, protos, worker) = match home {
            Some(h) if self.cfg.reuse && single => {
                let (seq, canon, protos) = self.build_short(ui, &choice);
                self.from_prototype += 1;
                (seq, canon, protos, h as usize % workers)
            }
            _ => {
                let (seq, canon) = self.build(ui, &choice);
                self.from_scratch += 1;
                let w = match home {
                    Some(h) => h as usize % workers,
                    None => {
                        self.round_robin += 1;
                        self.round_robin % workers
                    }
                };
                (seq, canon, Vec::new(), w)
            }
        };
        let mut observers = Vec::with_capacity(canon.len() * 2);
        for &s in &canon {
            observers.push((s, CANON_OP));
            if let Some(c) = self.check_op_for(&seq, s) {
                observers.push((s, c));
            }
        }
        let retain = if self.cfg.reuse {
            self.next_retain += 1;
            self.next_retain
        } else {
            0
        };
        let seq = Arc::new(seq);
        out.metas.push(Meta {
            ui,
            choice: choice.into_boxed_slice(),
            canon,
            requested: observers.len(),
            len: seq.len(),
            protos: protos.iter().map(|p| p.0).collect(),
            worker,
            retain,
            rebuild: None,
            seq: seq.clone(),
            req: out.reqs.len(),
            task: None,
            order,
        });
        if out.first_for[worker] == usize::MAX {
            out.first_for[worker] = out.reqs.len();
        }
        out.reqs.push((
            ExecRequest {
                seq,
                mode: ExecMode::Canon,
                contract_values: Vec::new(),
                observers,
                reuse: self.cfg.reuse.then(|| {
                    Box::new(Reuse {
                        protos,
                        retain,
                        ..Reuse::default()
                    })
                }),
            },
            worker,
        ));
    }

    /// Appends the bulk requests (one per worker with tasks) after the others: the first
    /// request to each worker carries its promotions. Gives their tasks consecutive retain
    /// ids; returns the tasks' metas.
    fn add_bulk_requests(
        &mut self,
        bulks: Vec<(Vec<BulkTask>, Vec<Meta>)>,
        reqs: &mut Vec<(ExecRequest, usize)>,
        first_for: &mut [usize],
    ) -> Vec<Meta> {
        let mut bulk_metas = Vec::new();
        for (w, (tasks, mut ms)) in bulks.into_iter().enumerate() {
            if tasks.is_empty() {
                continue;
            }
            let base = self.next_retain + 1;
            self.next_retain += tasks.len() as u32;
            let req = reqs.len();
            for (t, m) in ms.iter_mut().enumerate() {
                m.retain = base + t as u32;
                m.req = req;
            }
            bulk_metas.extend(ms);
            if first_for[w] == usize::MAX {
                first_for[w] = req;
            }
            reqs.push((bulk_request(tasks, self.lit_table.clone(), base), w));
        }
        bulk_metas
    }

    /// Promotions decided by the batches applied so far go with the first request to each
    /// worker; batches still in flight are applied after this one is submitted, so their
    /// promotions wait for a later batch (no request of this one can need them: structures
    /// kept in a round are used from the next round on).
    fn promote_with_first_requests(
        &mut self,
        reqs: &mut [(ExecRequest, usize)],
        first_for: &[usize],
    ) {
        for (w, &i) in first_for.iter().enumerate() {
            if i != usize::MAX {
                let mut r = reqs[i].0.reuse.take();
                if let Some(x) = r.as_mut() {
                    if let Some(p) = self.promotions.get_mut(w) {
                        x.promote = std::mem::take(p);
                    }
                    x.forget_upto = self.applied_retain;
                }
                reqs[i].0.reuse = r;
            }
        }
    }

    /// Static type of the value at `stmt` (for the check op).
    fn check_op_for(&self, seq: &Sequence, stmt: u32) -> Option<OpId> {
        if self.cfg.check_ops.is_empty() {
            return None;
        }
        let ty = seq.out_type(&self.ops.table, stmt as usize)?;
        let name = ty.erasure().class_name()?.to_string();
        self.cfg.check_ops.get(&name).copied()
    }
}

/// A bulk request of `tasks` on prototype copies; its sequence is only a placeholder with one
/// statement per task.
pub(super) fn bulk_request(tasks: Vec<BulkTask>, lits: Vec<Stmt>, retain_base: u32) -> ExecRequest {
    let placeholder = Stmt::Lit {
        ty: JType::Prim(crate::model::Prim::Int),
        value: Value::Null,
    };
    ExecRequest {
        seq: Arc::new(Sequence {
            stmts: vec![placeholder; tasks.len()],
        }),
        mode: ExecMode::Canon,
        contract_values: Vec::new(),
        observers: Vec::new(),
        reuse: Some(Box::new(Reuse {
            bulk: Some(Bulk {
                lits,
                retain_base,
                tasks,
            }),
            ..Reuse::default()
        })),
    }
}

/// Puts a batch's metas back in the order its combinations were made (the bulk tasks' were
/// set aside). The orders are a permutation of 0..n: each meta goes straight to its place (a
/// sort of these large records showed up in profiles).
fn in_batch_order(metas: &mut Vec<Meta>, bulk_metas: Vec<Meta>) {
    if bulk_metas.is_empty() {
        return;
    }
    let n = metas.len() + bulk_metas.len();
    let mut placed: Vec<Option<Meta>> = Vec::with_capacity(n);
    placed.resize_with(n, || None);
    for m in metas.drain(..).chain(bulk_metas) {
        let at = m.order as usize;
        placed[at] = Some(m);
    }
    metas.extend(placed.into_iter().flatten());
}
