//! `gen --concolic`: the concolic engine as gen's helper at coverage plateaus (issue 20,
//! requirement 5). Gen knows its covered probes; when no new branch came for a while it hands
//! over the operations whose own method still has uncovered branches, with receivers and
//! object arguments from its component pool (`generate::assist`); each is explored here with
//! the same [`Engine`] as `jforge concolic` (its int-like parameters symbolic, so only the
//! branches whose conditions depend on inputs get solver calls), on a pool of its own that
//! runs the classes in trace mode, and the paths that covered something new go back to gen,
//! which runs them on its own workers: their values join its pool and they become regression
//! candidates, written by the shared suite stage like every other test.
//!
//! Decisions: the traced pool and the solver start at the first plateau (a run that never
//! stalls never starts them); a (method, receiver, arguments) context whose tree was
//! exhausted is not explored again, one cut short by the deadline is (with a fresh tree: the
//! next plateau may bring another receiver, and a tree is cheap to rebuild next to a JVM
//! run); each method gets an equal share of the turn.

use super::solver::{SmtProcess, SolverSpec};
use super::{Engine, Target};
use crate::coverage::Setup;
use crate::generate::assist::{Assist, AssistStats, Stalled, StalledOp};
use crate::runner::{Pool, PoolConfig};
use crate::sequence::{OpTable, Sequence};
use anyhow::Context;
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// The helper: the traced classes, their pool and the solver (both started on first use).
pub struct Hybrid<'a> {
    table: &'a OpTable,
    /// Kept for its temporary folder, which the traced pool runs from.
    _setup: Setup,
    config: PoolConfig,
    pool: Option<Pool>,
    solver: SolverSpec,
    process: Option<SmtProcess>,
    switch_cases: HashMap<String, Vec<i64>>,
    max_depth: usize,
    /// Contexts whose tree was exhausted (fingerprint of their first sequence).
    done: HashSet<u128>,
    stats: AssistStats,
}

impl<'a> Hybrid<'a> {
    /// A helper over `table` (gen's operations) running the classes `setup` traced, on a
    /// pool configured like gen's (`config`: the session's JDK, class path and limits).
    pub fn new(table: &'a OpTable, setup: Setup, config: PoolConfig, solver: SolverSpec) -> Self {
        let mut config = config;
        config.classpath.insert(0, setup.class_dir.clone());
        config.extra_jvm_args.extend(setup.jvm_args.iter().cloned());
        config
            .extra_jvm_args
            .push(crate::runner::CLOCK_FIXED.to_string());
        Hybrid {
            table,
            switch_cases: super::cmd::switch_cases(&setup),
            _setup: setup,
            config,
            pool: None,
            solver,
            process: None,
            max_depth: 200,
            done: HashSet::new(),
            stats: AssistStats::default(),
        }
    }

    /// The traced pool and the solver, started on first use.
    fn started(&mut self) -> anyhow::Result<(&mut Pool, &mut SmtProcess)> {
        if self.pool.is_none() {
            let mut pool = Pool::start(self.config.clone())
                .context("starting the worker JVMs of gen --concolic")?;
            // operations that cannot be loaded fail their runs; gen reports them
            pool.register(self.table)?;
            self.pool = Some(pool);
        }
        if self.process.is_none() {
            self.process = Some(self.solver.start()?);
        }
        match (self.pool.as_mut(), self.process.as_mut()) {
            (Some(p), Some(s)) => Ok((p, s)),
            _ => anyhow::bail!("internal error: gen --concolic's pool or solver did not start"),
        }
    }

    /// The target of a stalled operation, and the fingerprint of its first run.
    fn target(&self, engine: &Engine, o: &StalledOp) -> (Target, u128) {
        let target = Target {
            op: o.op,
            receiver: o.prefix.stmts.clone(),
            fixed: o.fixed.clone(),
            pinned: Vec::new(),
        };
        let key = engine
            .sequence(&target, &engine.first_inputs(&target))
            .fingerprint();
        (target, key)
    }
}

impl Assist for Hybrid<'_> {
    fn plateau(&mut self, stalled: &Stalled) -> anyhow::Result<Vec<Sequence>> {
        // gen covers the branches its own way: no re-seeding, no per-branch reasons
        let no_branches = super::reasons::Branches::default();
        let engine = Engine {
            table: self.table,
            switch_cases: self.switch_cases.clone(),
            max_depth: self.max_depth,
            batch: self.config.workers.max(1) * 2,
            branches: &no_branches,
        };
        let todo: Vec<(Target, u128)> = stalled
            .ops
            .iter()
            .map(|o| self.target(&engine, o))
            .filter(|(_, key)| !self.done.contains(key))
            .collect();
        let mut out = Vec::new();
        let mut exhausted = Vec::new();
        let mut results = Vec::new();
        {
            // The first hand-off starts the helper's JVMs and solver (about 0.5 s, more on
            // a loaded machine): that start-up moves its deadline, or a short budget (gen
            // gives at least 0.5 s) went to the start and nothing was explored. So the run's
            // limit is passed by at most one start-up, once.
            let t0 = Instant::now();
            let fresh = self.pool.is_none() || self.process.is_none();
            let (pool, solver) = self.started()?;
            let deadline = if fresh {
                stalled.deadline + t0.elapsed()
            } else {
                stalled.deadline
            };
            for (k, (target, key)) in todo.iter().enumerate() {
                let now = Instant::now();
                if now >= deadline {
                    break;
                }
                let share = deadline.duration_since(now) / (todo.len() - k) as u32;
                let r = engine.explore(pool, solver, target, now + share)?;
                if r.tree.unexplored == 0 {
                    exhausted.push(*key);
                }
                out.extend(r.tests.iter().map(|f| (*f.seq).clone()));
                results.push(r);
            }
        }
        self.done.extend(exhausted);
        for r in results {
            self.stats.methods_explored += 1;
            self.stats.paths += r.tree.paths;
            self.stats.infeasible += r.tree.infeasible;
            self.stats.solver_timeouts += r.tree.timeouts;
            self.stats.solver_calls += r.solver_calls;
            self.stats.solver_seconds += r.solver_seconds;
        }
        Ok(out)
    }

    fn figures(&self, stats: &mut AssistStats) {
        stats.methods_explored = self.stats.methods_explored;
        stats.paths = self.stats.paths;
        stats.infeasible = self.stats.infeasible;
        stats.solver_timeouts = self.stats.solver_timeouts;
        stats.solver_calls = self.stats.solver_calls;
        stats.solver_seconds = self.stats.solver_seconds;
        stats.solver_errors = self.process.as_ref().map_or(0, |p| p.errors().0);
    }

    fn first_error(&self) -> Option<String> {
        self.process
            .as_ref()
            .and_then(|p| p.errors().1.map(str::to_string))
    }
}

impl Drop for Hybrid<'_> {
    fn drop(&mut self) {
        if let Some(p) = self.pool.take() {
            p.shutdown();
        }
    }
}
