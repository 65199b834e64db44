//! Driving the search: breadth-first rounds to a fixpoint, each operation's combinations
//! enumerated semi-naively; the memory and time limits; and exploring combinations a driver
//! chose itself (`jforge builders`).

use super::found::{Progress, RoundStats};
use super::inputs::{Choice, ParamDom};
use super::state::Search;
use crate::exhaustive::canon::kept_bytes;
use crate::runner::Pool;
use std::time::Instant;

impl<'a> Search<'a> {
    /// Runs rounds until a fixpoint (or --max-rounds).
    pub fn run(&mut self, pool: &mut Pool, tick: &mut dyn FnMut(&Progress)) -> anyhow::Result<()> {
        self.started = Instant::now();
        self.promotions = vec![Vec::new(); pool.workers()];
        self.restarts_seen = pool.slot_restarts().to_vec();
        let mut old_end = 0usize;
        let mut new_end = 0usize;
        loop {
            self.round += 1;
            let round_start = Instant::now();
            let explored_before = self.explored;
            let structures_before = self.seen.len() as u64;
            self.check_memory(old_end, new_end)?;
            self.cache.borrow_mut().clear();
            let frontier: Vec<usize> = (old_end..new_end).collect();
            self.rebalance(pool, &frontier)?;
            self.check_contracts(pool, new_end)?;
            for ui in 0..self.usable.len() {
                self.run_operation(pool, ui, old_end, new_end, tick)?;
            }
            self.drain(pool)?;
            let new_structures = self.seen.len() as u64 - structures_before;
            self.rounds.push(RoundStats {
                round: self.round,
                explored: self.explored - explored_before,
                new_structures,
                seconds: round_start.elapsed().as_secs_f64(),
            });
            old_end = new_end;
            new_end = self.kept.len();
            tick(&Progress {
                round: self.round,
                frontier: new_end - old_end,
                structures: self.seen.len() as u64,
                explored: self.explored,
                elapsed: self.started.elapsed(),
            });
            if new_end == old_end {
                self.fixpoint = true;
                return Ok(());
            }
            self.warn_if_endless();
            if self.cfg.max_rounds.is_some_and(|m| self.round >= m) {
                // the last round's structures were not checked yet
                self.check_contracts(pool, new_end)?;
                return Ok(());
            }
        }
    }

    /// This round's combinations of usable operation `ui`, batched: in round 1 every one of
    /// an operation whose inputs are all literals; later, semi-naively, those with at least
    /// one input among the last round's kept structures (`old_end..new_end`).
    fn run_operation(
        &mut self,
        pool: &mut Pool,
        ui: usize,
        old_end: usize,
        new_end: usize,
        tick: &mut dyn FnMut(&Progress),
    ) -> anyhow::Result<()> {
        let params = self.usable[ui].params.clone();
        let doms = self.input_domains(&params, old_end, new_end);
        let all_lits = params.iter().all(|p| matches!(p, ParamDom::Lits(_)));
        if self.round == 1 {
            if all_lits {
                let full: Vec<Vec<Choice>> = doms.iter().map(|d| d.0.clone()).collect();
                self.product(pool, ui, &full, &mut Vec::new(), tick)?;
            }
            return Ok(());
        }
        for j in 0..doms.len() {
            if doms[j].1.is_empty() {
                continue;
            }
            let lists: Vec<Vec<Choice>> = doms
                .iter()
                .enumerate()
                .map(|(i, d)| {
                    if i < j {
                        d.0.clone()
                    } else if i == j {
                        d.1.clone()
                    } else {
                        d.0.iter().chain(&d.1).copied().collect()
                    }
                })
                .collect();
            self.product(pool, ui, &lists, &mut Vec::new(), tick)?;
        }
        Ok(())
    }

    /// Per input of an operation with these parameters: (old choices, new choices). Literals
    /// are all old; structures are the kept ones that fit, new if kept in the last round
    /// (`old_end..new_end`).
    fn input_domains(
        &mut self,
        params: &[ParamDom],
        old_end: usize,
        new_end: usize,
    ) -> Vec<(Vec<Choice>, Vec<Choice>)> {
        let mut doms: Vec<(Vec<Choice>, Vec<Choice>)> = Vec::with_capacity(params.len());
        for p in params {
            match p {
                ParamDom::Lits(l) => {
                    doms.push(((0..l.len() as u32).map(Choice::Lit).collect(), vec![]))
                }
                ParamDom::Refs(ty) => {
                    let mut old = Vec::new();
                    let mut new = Vec::new();
                    for k in 0..new_end {
                        if self.fits(self.kept[k].class, ty) {
                            if k < old_end {
                                old.push(Choice::Ref(k as u32));
                            } else {
                                new.push(Choice::Ref(k as u32));
                            }
                        }
                    }
                    // A fixed pseudo-random order (not the kept order): consecutive
                    // kept structures come from the same parent and live in the same
                    // worker, so batches in kept order would keep one worker busy at a
                    // time. The order does not depend on the number of workers.
                    old.sort_by_key(scatter);
                    new.sort_by_key(scatter);
                    doms.push((old, new))
                }
            }
        }
        doms
    }

    fn product(
        &mut self,
        pool: &mut Pool,
        ui: usize,
        lists: &[Vec<Choice>],
        cur: &mut Vec<Choice>,
        tick: &mut dyn FnMut(&Progress),
    ) -> anyhow::Result<()> {
        if cur.len() == lists.len() {
            self.batch.push((ui, cur.clone()));
            if self.batch.len() >= self.cfg.batch {
                self.flush(pool)?;
                self.check_budget()?;
                tick(&Progress {
                    round: self.round,
                    frontier: 0,
                    structures: self.seen.len() as u64,
                    explored: self.explored,
                    elapsed: self.started.elapsed(),
                });
            }
            return Ok(());
        }
        let i = cur.len();
        for c in lists[i].iter() {
            cur.push(*c);
            self.product(pool, ui, lists, cur, tick)?;
            cur.pop();
        }
        Ok(())
    }

    /// Before a round: refuses it when even a round that only repeats the frontier's size
    /// would exceed the memory budget (an estimate, up front); warns when the growth of the
    /// last rounds extrapolates past it. Growth is not a bound: rounds whose structures are
    /// at the scope mostly go out of scope (a list at scope 8 keeps growing x8 per round
    /// until the last one adds nothing), so a growth-based refusal would turn down runs that
    /// fit. During the round, [`Search::check_budget`] stops the search as soon as the kept
    /// structures really pass the budget: it never ends in an out-of-memory crash.
    fn check_memory(&mut self, old_end: usize, new_end: usize) -> anyhow::Result<()> {
        let frontier = (new_end - old_end) as u64;
        let prev = self
            .rounds
            .len()
            .checked_sub(2)
            .map(|i| self.rounds[i].new_structures.max(1))
            .unwrap_or(1);
        let growth = (frontier as f64 / prev as f64).max(1.0);
        let avg = if self.kept.is_empty() {
            kept_bytes(4)
        } else {
            self.bytes / self.kept.len() as u64
        };
        let at_least = self.bytes + frontier * avg;
        if at_least > self.cfg.memory_budget {
            return Err(crate::exit::budget(anyhow::anyhow!(
                "scope too large for memory: round {} would hold at least {} kept structures \
                 (~{} MiB, budget {} MiB); lower --scope or the domains, or raise --max-memory",
                self.round,
                self.kept.len() as u64 + frontier,
                at_least >> 20,
                self.cfg.memory_budget >> 20
            )));
        }
        let predicted = self.bytes + (frontier as f64 * growth * avg as f64 * 1.2) as u64;
        if predicted > self.cfg.memory_budget {
            let w = format!(
                "round {} may hold up to {} kept structures (~{} MiB, budget {} MiB) \
                 if it grows like the last one; the search stops if the budget is reached",
                self.round,
                self.kept.len() as u64 + (frontier as f64 * growth) as u64,
                predicted >> 20,
                self.cfg.memory_budget >> 20
            );
            // once per run: the later rounds' warnings have the same cause
            if !self.memory_warned {
                eprintln!("warning: {w}");
                self.memory_warned = true;
            }
        }
        Ok(())
    }

    /// Warns (once) when the search looks endless: after six rounds or more, the last three
    /// found the same number of new structures. That is the mark of a field that changes on
    /// every call, a counter such as modCount: every sequence then builds a structure never
    /// seen, and no fixpoint comes. A healthy search slows down instead, as its structures
    /// reach the scope and their extensions go out of it.
    fn warn_if_endless(&mut self) {
        let n = self.rounds.len();
        if !self.warnings.is_empty() || n < 6 {
            return;
        }
        let last = &self.rounds[n - 3..];
        let k = last[0].new_structures;
        if k > 0 && last.iter().all(|r| r.new_structures == k) {
            let w = format!(
                "rounds {}-{} each found {} new structures: the search may never reach a \
                 fixpoint. A field that changes on every call (a counter such as modCount) \
                 makes every sequence new; leave it out with --omit-fields NAME, or bound \
                 the search with --max-rounds",
                last[0].round, last[2].round, k
            );
            eprintln!("warning: {w}");
            self.warnings.push(w);
        }
    }

    /// Stops the search when the kept structures pass the memory budget, or the time limit.
    fn check_budget(&self) -> anyhow::Result<()> {
        if let Some((at, limit)) = self.cfg.deadline
            && Instant::now() >= at
        {
            return Err(crate::exit::budget(anyhow::anyhow!(
                "time limit of {limit:?} reached in round {} with {} structures and no fixpoint: \
                 the result would not be exhaustive, so nothing was written; lower --scope or \
                 the domains, or raise --time-limit",
                self.round,
                self.seen.len()
            )));
        }
        if self.bytes > self.cfg.memory_budget {
            return Err(crate::exit::budget(anyhow::anyhow!(
                "scope too large for memory: round {} reached the budget of {} MiB with {} \
                 structures kept; lower --scope or the domains, or raise --max-memory",
                self.round,
                self.cfg.memory_budget >> 20,
                self.kept.len()
            )));
        }
        Ok(())
    }

    /// Runs the given combinations (usable index, inputs) and applies their results as a round
    /// does (new structures are kept and stay live as prototypes, failures are recorded), for
    /// drivers that choose the combinations themselves instead of [`Search::run`]'s
    /// breadth-first rounds: `jforge builders` explores what its candidate sets need.
    /// `inputs`: the kept structures the combinations extend (increasing), rebalanced across
    /// the workers first. Each call counts as a round (`Kept::round`: the structures of the
    /// last call are where `growth` follows chains back from), and the time and memory
    /// limits are checked after every batch and at the end.
    pub fn explore(
        &mut self,
        pool: &mut Pool,
        inputs: &[usize],
        combos: impl IntoIterator<Item = (usize, Vec<Choice>)>,
    ) -> anyhow::Result<()> {
        self.round += 1;
        if self.promotions.len() != pool.workers() {
            self.promotions = vec![Vec::new(); pool.workers()];
            self.restarts_seen = pool.slot_restarts().to_vec();
        }
        self.rebalance(pool, inputs)?;
        for c in combos {
            self.batch.push(c);
            if self.batch.len() >= self.cfg.batch {
                self.flush(pool)?;
                self.check_budget()?;
            }
        }
        self.drain(pool)?;
        self.check_budget()
    }

    /// Waits for the batch in flight and applies its results; runs again what had to be
    /// re-queued, until nothing is left.
    pub fn drain(&mut self, pool: &mut Pool) -> anyhow::Result<()> {
        loop {
            self.flush(pool)?;
            while !self.inflight.is_empty() {
                self.apply_oldest(pool)?;
            }
            if self.requeue.is_empty() {
                return Ok(());
            }
            self.batch = std::mem::take(&mut self.requeue);
        }
    }
}

/// Sort key scattering kept indices (a bijective 32-bit mix, so the order is a permutation).
fn scatter(c: &Choice) -> u32 {
    let Choice::Ref(k) = *c else { return 0 };
    let mut x = k.wrapping_mul(0x9E37_79B1);
    x ^= x >> 16;
    x = x.wrapping_mul(0x85EB_CA6B);
    x ^ (x >> 13)
}
