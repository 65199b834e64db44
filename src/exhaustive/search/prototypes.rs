//! Where each kept structure lives as a prototype: given back to its frontier entries after
//! a worker lost them, moved from the most loaded workers to the least loaded at the start of
//! a round, and promoted with a worker's next request.

use super::state::{Meta, Search};
use crate::runner::{CANON_OP, ExecMode, ExecRequest, Pool, Reuse};

impl<'a> Search<'a> {
    /// At the start of a round: gives prototypes back to the frontier entries whose worker
    /// lost them, and moves some from the most loaded workers to the least loaded ones so
    /// that each worker extends about the same number of structures. A move re-executes the
    /// structure's sequence in the new worker and keeps the value there. `frontier`: the kept
    /// entries about to be extended, increasing.
    pub(super) fn rebalance(&mut self, pool: &mut Pool, frontier: &[usize]) -> anyhow::Result<()> {
        let w = pool.workers();
        if !self.cfg.reuse || frontier.is_empty() {
            return Ok(());
        }
        let mut load = vec![0usize; w];
        let mut lost = Vec::new();
        for &k in frontier {
            match self.kept[k].home {
                Some(h) => load[h as usize % w] += 1,
                None => lost.push(k),
            }
        }
        let target = frontier.len().div_ceil(w);
        let slack = target / 10 + 1;
        let mut moves: Vec<(usize, usize)> = Vec::new();
        let least = |load: &mut Vec<usize>| {
            let v = (0..w).min_by_key(|&i| load[i]).unwrap_or(0);
            load[v] += 1;
            v
        };
        for k in lost {
            let v = least(&mut load);
            moves.push((k, v));
        }
        if w > 1 {
            for &k in frontier.iter().rev() {
                let Some(h) = self.kept[k].home.map(|h| h as usize % w) else {
                    continue;
                };
                if load[h] > target + slack {
                    load[h] -= 1;
                    let v = least(&mut load);
                    moves.push((k, v));
                }
            }
        }
        if moves.is_empty() {
            return Ok(());
        }
        moves.sort_unstable();
        let mut reqs = Vec::with_capacity(moves.len());
        let mut metas = Vec::with_capacity(moves.len());
        for (k, v) in moves {
            let (seq, value) = self.materialize(k);
            self.next_retain += 1;
            let retain = self.next_retain;
            let meta = Meta {
                ui: self.kept[k].ui as usize,
                choice: self.kept[k].choice.clone(),
                canon: vec![value],
                requested: 1,
                len: seq.len(),
                protos: Vec::new(),
                worker: v,
                retain,
                rebuild: Some(k as u32),
                seq: seq.clone(),
                req: reqs.len(),
                task: None,
                order: 0,
            };
            let mut req = ExecRequest {
                seq,
                mode: ExecMode::Canon,
                contract_values: Vec::new(),
                observers: vec![(value, CANON_OP)],
                reuse: Some(Box::new(Reuse {
                    retain,
                    ..Reuse::default()
                })),
            };
            self.attach_promotions(&mut req, v);
            reqs.push((req, v));
            metas.push(meta);
        }
        pool.submit_routed(reqs)?;
        let results = pool.collect()?;
        self.note_restarts(pool);
        self.apply_all(metas, results);
        Ok(())
    }

    /// Promotions waiting for worker `w` go with its next request.
    pub(super) fn attach_promotions(&mut self, req: &mut ExecRequest, w: usize) {
        let Some(x) = req.reuse.as_mut() else { return };
        if let Some(p) = self.promotions.get_mut(w)
            && (!p.is_empty() || self.applied_retain > 0)
        {
            x.promote = std::mem::take(p);
            x.forget_upto = self.applied_retain;
        }
    }

    /// A restarted worker lost its prototypes and candidates.
    pub(super) fn note_restarts(&mut self, pool: &Pool) {
        let now = pool.slot_restarts();
        for (w, (&a, b)) in now.iter().zip(self.restarts_seen.iter_mut()).enumerate() {
            if a != *b {
                *b = a;
                if let Some(p) = self.promotions.get_mut(w) {
                    p.clear();
                }
                for k in self.kept.iter_mut() {
                    if k.home == Some(w as u16) {
                        k.home = None;
                    }
                }
            }
        }
    }
}
