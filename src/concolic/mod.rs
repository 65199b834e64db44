//! Concolic generation with an SMT solver (JTestCraft, seed 002): run a method under test
//! concretely with its int-like parameters traced as symbols (`crate::instrument::trace`,
//! `jforge.rt.Sym`), insert the path into the method's constraint tree (`tree.rs`), ask the
//! solver (`solver.rs`) for inputs that take an alternative not yet explored, run them, and
//! so on until every tree is exhausted or the budget ends. Each distinct path that covers a
//! decision or probe no earlier path covered becomes a test, written by the shared suite
//! stage (`cmd.rs`).
//!
//! What is symbolic: int, long, short, byte, char and boolean parameters of the method under
//! test, with Java's bit-vector semantics (`trace.rs`), and its String parameters through
//! `length`, `charAt`, `isEmpty`, `equals` and `startsWith` (the solver's string theory);
//! everything else (receiver fields, references, floats, other String methods) is concrete: a receiver is built with the class's simplest
//! constructor taking literals (Candidate Sequence Search is not built yet), other arguments
//! are fixed literals (`""`, `null`, 0.0).

pub mod cmd;
pub mod hybrid;
pub mod solver;
pub mod trace;
pub mod tree;

use crate::model::{JType, Prim};
use crate::runner::{ExecMode, ExecRequest, Pool, SeqResult, StmtOutcome};
use crate::sequence::{OpId, OpKind, OpTable, Sequence, Stmt, Value};
use anyhow::Result;
use solver::{Answer, Query, Solver, Val};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;
use trace::Choice;
use tree::{Leaf, Pending, Tree, TreeStats};

/// A method to explore: the operation, and how its receiver is built (instance methods).
#[derive(Clone, Debug)]
pub struct Target {
    pub op: OpId,
    /// Statements that build the receiver (the last one's value), empty for static methods
    /// and constructors.
    pub receiver: Vec<Stmt>,
    /// Inputs that statements of `receiver` give (input index, the receiver being input 0
    /// of an instance method; statement): `gen --concolic` takes the receiver and the object
    /// arguments from gen's pool (`hybrid.rs`). An input not listed is a literal (symbolic
    /// when int-like) or, for the receiver, the last statement.
    pub fixed: Vec<(usize, u32)>,
}

/// A path worth a test: the sequence, how it ended, and the probes it covered.
#[derive(Clone, Debug)]
pub struct Found {
    pub seq: Arc<Sequence>,
    /// The (public) class of the exception the last call threw, if it threw.
    pub exception: Option<String>,
    /// The probes the run covered.
    pub coverage: Option<Arc<[u32]>>,
}

/// What exploring one method gave.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct MethodResult {
    pub method: String,
    #[serde(flatten)]
    pub tree: TreeStats,
    pub runs: u64,
    pub solver_calls: u64,
    pub solver_seconds: f64,
    pub seconds: f64,
    /// Runs whose trace was missing or cut short (the path is unknown).
    pub untraced_runs: u64,
    /// Shadow values found out of step with the run (dropped).
    pub desyncs: u64,
    /// Why the method was not explored, if it was not.
    pub skipped: Option<String>,
    #[serde(skip)]
    pub tests: Vec<Found>,
}

/// The engine's settings and the facts of the instrumented classes.
pub struct Engine<'a> {
    pub table: &'a OpTable,
    /// Switch keys by site (probe id of the switch's first case, as text).
    pub switch_cases: HashMap<String, Vec<i64>>,
    pub max_depth: usize,
    /// Alternatives solved per batch of runs (the pool runs them in parallel).
    pub batch: usize,
}

/// The literal a parameter of type `t` starts with, and the value of a model's bits for it.
fn start_value(t: &JType) -> Value {
    match t {
        JType::Prim(p) => bits_value(*p, 0),
        JType::Class { name, .. } if name == "java.lang.String" => Value::Str(String::new()),
        _ => Value::Null,
    }
}

fn bits_value(p: Prim, bits: u64) -> Value {
    match p {
        Prim::Boolean => Value::Bool(bits & 1 != 0),
        Prim::Byte => Value::Byte(bits as u8 as i8),
        Prim::Char => Value::Char(bits as u16),
        Prim::Short => Value::Short(bits as u16 as i16),
        Prim::Int => Value::Int(bits as u32 as i32),
        Prim::Long => Value::Long(bits as i64),
        Prim::Float => Value::float(0.0),
        Prim::Double => Value::double(0.0),
    }
}

impl Engine<'_> {
    /// The sequence: receiver statements, one literal per parameter, the call.
    fn sequence(&self, target: &Target, inputs: &[Value]) -> Sequence {
        let op = self.table.get(target.op);
        let mut stmts = target.receiver.clone();
        let mut args = Vec::new();
        let fixed = |i: usize| target.fixed.iter().find(|f| f.0 == i).map(|f| f.1);
        let receiver = usize::from(op.has_receiver());
        if op.has_receiver() && !stmts.is_empty() {
            args.push(fixed(0).unwrap_or(stmts.len() as u32 - 1));
        }
        for (i, (t, v)) in op.params.iter().zip(inputs).enumerate() {
            if let Some(at) = fixed(i + receiver) {
                args.push(at);
                continue;
            }
            args.push(stmts.len() as u32);
            stmts.push(Stmt::Lit {
                ty: t.clone(),
                value: v.clone(),
            });
        }
        stmts.push(Stmt::Call {
            op: target.op,
            args,
        });
        Sequence { stmts }
    }

    /// The keys of a switch (from the probe map) or the indices of an array access (the
    /// seed's heap simulation: one path per index, for arrays of at most 64 elements; longer
    /// ones get only their bounds decided).
    fn cases(&self) -> impl Fn(&trace::Event) -> Vec<i64> + '_ {
        |e: &trace::Event| match e.len {
            Some(n) if n <= 64 => (0..n).collect(),
            Some(_) => Vec::new(),
            None => self.switch_cases.get(&e.site).cloned().unwrap_or_default(),
        }
    }

    /// The query for an alternative: the path of its trace up to it, then the alternative.
    fn query(&self, p: &Pending) -> Result<Query> {
        let t = &p.trace;
        let cases = self.cases();
        let mut asserts = Vec::new();
        let mut roots = Vec::new();
        for (d, e) in t.events.iter().take(p.depth + 1).enumerate() {
            let keys = cases(e);
            let choice = if d == p.depth {
                p.alt.clone()
            } else {
                Tree::normalize(&e.choice, &keys)
            };
            asserts.push(trace::constraint(e, &choice, &keys));
            roots.push(e.a);
            roots.push(e.b);
        }
        let defs = trace::definitions(&t.nodes, &roots)?;
        let mut vars: Vec<(String, u32)> = t
            .nodes
            .iter()
            .enumerate()
            .filter_map(|(i, n)| match n {
                trace::Node::Var { kind, index } if defs.iter().any(|d| d.0 == format!("n{i}")) => {
                    Some((trace::var_name(*index), trace::var_width(*kind)))
                }
                _ => None,
            })
            .collect();
        vars.dedup();
        let (links, tied) = trace::string_links(&t.nodes, &defs)?;
        vars.extend(links);
        asserts.splice(0..0, tied);
        Ok(Query {
            vars,
            defs,
            asserts,
        })
    }

    /// The inputs a model gives: the solved variables, the rest as in the source run.
    fn inputs_from(&self, target: &Target, p: &Pending, q: &Query, vals: &[Val]) -> Vec<Value> {
        let op = self.table.get(target.op);
        let mut inputs = (*p.inputs).clone();
        for ((name, _), v) in q.vars.iter().zip(vals) {
            let Some(i) = name.strip_prefix('p').and_then(|s| s.parse::<usize>().ok()) else {
                continue;
            };
            let (Some(t), Some(slot)) = (op.params.get(i), inputs.get_mut(i)) else {
                continue;
            };
            match (t, v) {
                (JType::Prim(prim), Val::Bits(b)) => *slot = bits_value(*prim, *b),
                (JType::Class { .. }, Val::Str(text)) => *slot = Value::Str(text.clone()),
                _ => {}
            }
        }
        inputs
    }

    /// Explores one method until its tree is exhausted or `deadline`.
    pub fn explore(
        &self,
        pool: &mut Pool,
        solver: &mut dyn Solver,
        target: &Target,
        deadline: Instant,
    ) -> Result<MethodResult> {
        let t0 = Instant::now();
        let (calls0, time0) = solver.calls();
        let op = self.table.get(target.op);
        let mut ex = Exploration {
            tree: Tree::new(self.max_depth),
            result: MethodResult {
                method: op.signature(),
                ..MethodResult::default()
            },
            covered: HashSet::new(),
        };
        let first: Vec<Value> = op.params.iter().map(start_value).collect();
        let mut batch: Vec<(Vec<Value>, Option<Pending>)> = vec![(first, None)];
        while !batch.is_empty() {
            self.run_batch(pool, target, &mut ex, std::mem::take(&mut batch))?;
            batch = self.solve_next(solver, target, &mut ex, deadline)?;
        }
        ex.tree.finish();
        let (calls, time) = solver.calls();
        let mut r = ex.result;
        r.tree = ex.tree.stats.clone();
        r.solver_calls = calls - calls0;
        r.solver_seconds = (time - time0).as_secs_f64();
        r.seconds = t0.elapsed().as_secs_f64();
        Ok(r)
    }

    /// Asks the solver about alternatives until a batch of inputs is ready (or nothing is
    /// left, or the deadline).
    fn solve_next(
        &self,
        solver: &mut dyn Solver,
        target: &Target,
        ex: &mut Exploration,
        deadline: Instant,
    ) -> Result<Vec<(Vec<Value>, Option<Pending>)>> {
        let mut batch = Vec::new();
        while batch.len() < self.batch.max(1) && Instant::now() < deadline {
            let Some(p) = ex.tree.pick() else { break };
            let q = self.query(&p)?;
            match solver.check(&q)? {
                Answer::Sat(vals) => {
                    let inputs = self.inputs_from(target, &p, &q, &vals);
                    batch.push((inputs, Some(p)));
                }
                Answer::Unsat => ex.tree.close(&p, Leaf::Infeasible),
                Answer::Unknown => ex.tree.close(&p, Leaf::Timeout),
            }
        }
        Ok(batch)
    }

    /// Runs a batch of inputs and inserts their paths; an alternative its run did not reach
    /// is closed as diverged.
    fn run_batch(
        &self,
        pool: &mut Pool,
        target: &Target,
        ex: &mut Exploration,
        batch: Vec<(Vec<Value>, Option<Pending>)>,
    ) -> Result<()> {
        let seqs: Vec<Arc<Sequence>> = batch
            .iter()
            .map(|(inputs, _)| Arc::new(self.sequence(target, inputs)))
            .collect();
        let reqs = seqs
            .iter()
            .map(|s| ExecRequest {
                seq: s.clone(),
                mode: ExecMode::Generate,
                contract_values: Vec::new(),
                observers: Vec::new(),
                reuse: None,
            })
            .collect();
        let results = pool.execute(reqs)?;
        for (((inputs, pending), seq), r) in batch.into_iter().zip(seqs).zip(results) {
            ex.result.runs += 1;
            self.record(ex, seq, inputs, &r)?;
            if let Some(p) = pending
                && !ex.tree.reached(&p)
            {
                ex.tree.close(&p, Leaf::Diverged);
            }
        }
        Ok(())
    }

    /// Inserts one run's path; keeps it as a test when it covered something new.
    fn record(
        &self,
        ex: &mut Exploration,
        seq: Arc<Sequence>,
        inputs: Vec<Value>,
        r: &SeqResult,
    ) -> Result<()> {
        let last = seq.len() - 1;
        // A run that ended before the call (receiver set-up threw) or died has no trace.
        let parsed = match &r.trace {
            Some(text) => trace::parse(text)?,
            None => {
                ex.result.untraced_runs += 1;
                return Ok(());
            }
        };
        ex.result.desyncs += parsed.desyncs as u64;
        if parsed.truncated {
            ex.result.untraced_runs += 1;
        }
        let cases = self.cases();
        let (new_path, new_decisions) = ex.tree.insert(Arc::new(parsed), Arc::new(inputs), &cases);
        let new_probes = r
            .coverage
            .as_deref()
            .unwrap_or(&[])
            .iter()
            .filter(|&&p| ex.covered.insert(p))
            .count();
        if new_path && (new_decisions > 0 || new_probes > 0) {
            let exception = match r.outcomes.get(last) {
                Some(StmtOutcome::Exception { public_class, .. }) => Some(public_class.to_string()),
                Some(StmtOutcome::Normal(_)) => None,
                // timed out, crashed, not run: no test
                _ => return Ok(()),
            };
            ex.result.tests.push(Found {
                seq,
                exception,
                coverage: r.coverage.clone(),
            });
        }
        Ok(())
    }
}

/// The state of one method's exploration.
struct Exploration {
    tree: Tree,
    result: MethodResult,
    /// Probes covered by the runs so far.
    covered: HashSet<u32>,
}

/// The receiver statements for an instance method of `class`: its constructor with the fewest
/// parameters, all of them literals (primitives, Strings; null otherwise). `None` when the
/// class has no public constructor.
pub fn receiver_for(table: &OpTable, ops: &[OpId], class: &str) -> Option<Vec<Stmt>> {
    let ctor = ops
        .iter()
        .map(|&id| (id, table.get(id)))
        .filter(|(_, o)| o.kind == OpKind::Constructor && o.class == class && !o.outer_instance)
        .min_by_key(|(_, o)| o.params.len())?;
    let (id, op) = ctor;
    let mut stmts: Vec<Stmt> = op
        .params
        .iter()
        .map(|t| Stmt::Lit {
            ty: t.clone(),
            value: start_value(t),
        })
        .collect();
    stmts.push(Stmt::Call {
        op: id,
        args: (0..op.params.len() as u32).collect(),
    });
    Some(stmts)
}

/// Whether a choice took the jump (for reports).
pub fn describe(c: &Choice) -> String {
    match c {
        Choice::Branch(b) => if *b { "taken" } else { "not taken" }.into(),
        Choice::Case(k) if *k == tree::DEFAULT_CASE => "default".into(),
        Choice::Case(k) => format!("case {k}"),
    }
}
