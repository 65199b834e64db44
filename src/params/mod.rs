//! `jforge params` (seed 000, HeuriGenJ): for every public method of the classes under test, a
//! receiver and arguments for which the call completes, found from bytecode with value
//! heuristics and exception handlers, so that each method can be benchmarked.
//!
//! One folder for the generator and its command: `cmd.rs` (flags, [`crate::strategy::Strategy`],
//! summary), `plan.rs` (attempts and the values made so far), `values.rs` (literal
//! heuristics), `handlers.rs` (exception handlers), `report.rs` (per method and totals).
//!
//! The search ([`Search::run`]) goes in rounds. Each round every method not yet settled gets
//! one attempt: its first plan (seed 000's heuristics over the values made so far) or the next
//! plan a handler proposed after its last exception. All attempts of a round run as one batch
//! on the shared worker pool. A call that completes with a non-null result adds the value to
//! the [`plan::Repo`], from which later rounds take receivers and arguments: so methods run in
//! increasing complexity in the sense of seed 000 (a method waits until a producer of every
//! type it needs worked; producers of the graph are methods of the search too, and
//! `model::producers::call_complexity` orders each round). When a round has nothing left to
//! run, the methods still waiting for a type nothing made get `null` for it (never for a
//! receiver). A method is settled when a call completed, when its retry limit is spent, when no
//! handler has anything left to try, or when it crashed or hung a worker (not retried).

pub mod cmd;
mod handlers;
pub mod jmh;
mod plan;
pub mod report;
pub mod smoke;
mod values;

use crate::generate::ops::{OpSet, class_literal, is_literal_type, lambda_literal};
use crate::model::{JType, Model, producers};
use crate::runner::{CrashKind, ExecMode, ExecRequest, Observed, Pool, SeqResult, StmtOutcome};
use crate::sequence::{OpId, OpKind, Operation, SeqRef, Sequence, Stmt, Value};
use handlers::Cx;
use plan::{ARRAY_LEN, Arg, Build, FILL, Kit, Made, Plan, Repo};
use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Instant;

/// How a search runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Attempts per method at most.
    pub retries: u32,
    /// No round starts after this.
    pub deadline: Instant,
}

/// Why a method has no working call.
#[derive(Clone, Debug, PartialEq)]
pub enum Failure {
    /// The last attempt threw (`setup`: a statement before the call threw).
    Threw {
        class: String,
        message: Option<String>,
        frames: Vec<String>,
        setup: bool,
    },
    Timeout,
    Crash(CrashKind),
    /// Nothing made a value of this type (a receiver cannot be null).
    NoValue(String),
    /// The worker could not find the member by reflection.
    NotCallable(String),
    /// The run's time limit came first.
    NotReached,
    /// The working call did not complete again in a fresh JVM (`smoke::confirm`).
    Unstable,
}

/// Where a method stands.
#[derive(Clone, Debug)]
pub enum Status {
    Pending,
    Invoked {
        seq: SeqRef,
        result: Observed,
        /// The handler whose proposal worked (`None`: the first plan did).
        handler: Option<&'static str>,
    },
    Failed(Failure),
}

/// One method of the search (a member under test, or a producer of the graph).
pub struct Target {
    pub op: OpId,
    pub complexity: u32,
    /// A member under test (reported), else a producer that supplies values.
    pub under_test: bool,
    pub attempts: u32,
    pub status: Status,
    /// Handlers that proposed plans, in order, each once.
    pub handlers: Vec<&'static str>,
    /// Exceptions thrown by earlier attempts (a later attempt may have worked).
    pub threw: u32,
    queue: VecDeque<(Plan, Option<&'static str>)>,
    tried: HashSet<Plan>,
    /// Integral parameters are indices (a container is involved).
    index: bool,
    constants: (Vec<i64>, Vec<String>),
}

/// The search state.
pub struct Search<'m> {
    pub model: &'m Model,
    pub ops: OpSet,
    pub targets: Vec<Target>,
    pub repo: Repo,
    kit: Kit,
    /// Numbers each operation compared its arguments against (comparison logging).
    compared: HashMap<OpId, Vec<i64>>,
    /// The `Iterator.next()` operations that take an element out of a made collection
    /// (`element_of_collection`): which element depends on the collection's iteration order.
    pub element_ops: HashSet<OpId>,
    /// The harmless command process launchers get (`values::harmless_command`).
    command: Option<String>,
    allow_null: bool,
    pub rounds: u32,
    pub attempts: u64,
    pub timed_out: bool,
}

impl<'m> Search<'m> {
    /// The search over `ops`: its members under test are the primary operations declared by
    /// one of `classes` (a non-abstract method or constructor of a class, not an interface),
    /// its producers every other operation that returns something.
    pub fn new(model: &'m Model, ops: OpSet, classes: &[String]) -> Search<'m> {
        let mut targets = Vec::new();
        let mut seen = HashSet::new();
        let primary: HashSet<OpId> = ops.primary.iter().copied().collect();
        for (id, op) in ops.table.iter() {
            let callable = matches!(
                op.kind,
                OpKind::Constructor | OpKind::Method | OpKind::StaticMethod
            ) || (op.kind == OpKind::StaticFieldGet && !primary.contains(&id));
            if !callable || !seen.insert((op.class.clone(), op.name.clone(), op.descriptor.clone()))
            {
                continue;
            }
            let under_test = primary.contains(&id)
                && classes.contains(&op.class)
                && is_measured(model, &op.class, &op.name, &op.descriptor);
            if !under_test && (op.ret.is_none() || !ops.secondary.contains(&id)) {
                continue;
            }
            targets.push(Target::new(model, &ops, id, under_test));
        }
        targets.sort_by_key(|t| (t.complexity, t.op));
        let mut ops = ops;
        let repo = seeded_repo(&mut ops);
        Search {
            model,
            ops,
            targets,
            repo,
            kit: Kit::default(),
            compared: HashMap::new(),
            element_ops: HashSet::new(),
            command: values::harmless_command(),
            allow_null: false,
            rounds: 0,
            attempts: 0,
            timed_out: false,
        }
    }

    /// Rounds until every method is settled or the deadline passed; `progress` gets the
    /// number of members under test settled after each round.
    pub fn run(
        &mut self,
        pool: &mut Pool,
        settings: &Settings,
        progress: &mut dyn FnMut(usize),
    ) -> anyhow::Result<()> {
        loop {
            if Instant::now() >= settings.deadline {
                self.timed_out = true;
                break;
            }
            let batch = self.next_batch(pool)?;
            if batch.is_empty() {
                if self.allow_null || !self.targets.iter().any(Target::pending) {
                    break;
                }
                self.allow_null = true;
                continue;
            }
            self.rounds += 1;
            self.attempts += batch.len() as u64;
            let requests = batch.iter().map(|(_, _, r)| r.clone()).collect();
            let results = pool.execute(requests)?;
            // calls that completed first, so that a handler of this round sees the values
            // made in it (`decode` fails in the round `encode` works: handlers::family_values)
            let (done, threw): (Vec<_>, Vec<_>) = batch
                .into_iter()
                .zip(results)
                .partition(|((_, _, req), res)| completed(req, res));
            for ((ti, plan, req), res) in done.into_iter().chain(threw) {
                self.apply(ti, plan, &req, res, settings);
            }
            progress(self.settled());
        }
        for t in &mut self.targets {
            if t.pending() {
                t.status = Status::Failed(Failure::NotReached);
            }
        }
        Ok(())
    }

    /// Members under test settled so far.
    pub fn settled(&self) -> usize {
        self.targets
            .iter()
            .filter(|t| t.under_test && !t.pending())
            .count()
    }

    /// One attempt of every pending method that has a plan (registering new operations
    /// first; a member the workers cannot find fails here).
    fn next_batch(&mut self, pool: &mut Pool) -> anyhow::Result<Vec<(usize, Plan, ExecRequest)>> {
        let mut batch = Vec::new();
        for ti in 0..self.targets.len() {
            if !self.targets[ti].pending() {
                continue;
            }
            if let Some(plan) = self.next_plan(ti) {
                let req = self.request(ti, &plan);
                batch.push((ti, plan, req));
            }
        }
        for (op, why) in pool.register(&self.ops.table)? {
            for t in self.targets.iter_mut().filter(|t| t.op == op) {
                t.status = Status::Failed(Failure::NotCallable(why.clone()));
            }
        }
        batch.retain(|(ti, _, _)| self.targets[*ti].pending());
        Ok(batch)
    }

    /// The next plan of target `ti`: its first, or the next untried proposal.
    fn next_plan(&mut self, ti: usize) -> Option<Plan> {
        if self.targets[ti].attempts == 0 && self.targets[ti].queue.is_empty() {
            match self.first_plan(ti) {
                Ok(p) => self.targets[ti].queue.push_back((p, None)),
                Err(missing) => {
                    if self.allow_null {
                        self.targets[ti].status =
                            Status::Failed(Failure::NoValue(missing.source()));
                    }
                    return None;
                }
            }
        }
        let t = &mut self.targets[ti];
        while let Some((p, _)) = t.queue.front() {
            if t.tried.contains(p) {
                t.queue.pop_front();
            } else {
                return Some(p.clone());
            }
        }
        None
    }

    /// Seed 000's first plan: the best made receiver (filled when known to be empty),
    /// literals by the value heuristics, arrays of [`ARRAY_LEN`] elements, made values for
    /// other types; `Err(type)` when a type has no value yet (`null` once nothing more comes,
    /// except for a receiver).
    fn first_plan(&mut self, ti: usize) -> Result<Plan, JType> {
        let op = self.ops.table.get(self.targets[ti].op).clone();
        let (index, consts) = (self.targets[ti].index, self.targets[ti].constants.0.clone());
        let receiver = if op.has_receiver() {
            Some(self.made_pick(&op.owner).ok_or_else(|| op.owner.clone())?)
        } else {
            None
        };
        let command = self.command.clone().filter(|_| values::launches(&op));
        let mut args = Vec::new();
        for p in &op.params {
            args.push(self.first_arg(p, index, &consts, command.as_deref())?);
        }
        Ok(Plan { receiver, args })
    }

    /// The first value of parameter `p`; `command`: the String every String (and String
    /// array element) of a process launcher gets.
    fn first_arg(
        &mut self,
        p: &JType,
        index: bool,
        consts: &[i64],
        command: Option<&str>,
    ) -> Result<Arg, JType> {
        if let Some(c) = command.filter(|_| *p == JType::string()) {
            return Ok(Arg::Lit(JType::string(), Value::Str(c.to_string())));
        }
        if is_literal_type(p) {
            return Ok(plan::literal_arg(
                p,
                index && values::is_integral(p),
                consts,
            ));
        }
        if let JType::Array(elem) = p {
            let items = (0..ARRAY_LEN)
                .map(|k| match command.filter(|_| **elem == JType::string()) {
                    Some(c) => Ok(Arg::Lit(JType::string(), Value::Str(c.to_string()))),
                    None => self.element(elem, k),
                })
                .collect::<Result<Vec<_>, _>>()?;
            return Ok(Arg::Array {
                elem: (**elem).clone(),
                items,
            });
        }
        // Object, CharSequence, Comparable<String>: a String first (seed 000 prefers a
        // Comparable for Object; a comparator passed to remove(Object) says nothing)
        if self.model.is_subtype(&JType::string(), p) {
            return Ok(plan::literal_arg(p, false, consts));
        }
        if let Some(a) = self.made_arg(p) {
            return Ok(a);
        }
        if let Some(v) = lambda_literal(self.model, p).or_else(|| class_literal(self.model, p)) {
            return Ok(Arg::Lit(p.clone(), v));
        }
        if self.allow_null {
            return Ok(Arg::Null(p.clone()));
        }
        Err(p.clone())
    }

    /// Element `k` of an array argument: distinct literals, else the best made value.
    fn element(&mut self, elem: &JType, k: usize) -> Result<Arg, JType> {
        if is_literal_type(elem) {
            return Ok(Arg::Lit(elem.clone(), values::nth_literal(elem, k)));
        }
        if matches!(elem, JType::Array(_)) {
            return Ok(Arg::Array {
                elem: elem.clone(),
                items: Vec::new(),
            });
        }
        if let Some(a) = self.made_arg(elem) {
            return Ok(a);
        }
        if self.model.is_subtype(&JType::string(), elem) {
            return Ok(Arg::Lit(JType::string(), values::nth_literal(elem, k)));
        }
        if let Some(v) = lambda_literal(self.model, elem) {
            return Ok(Arg::Lit(elem.clone(), v));
        }
        Err(elem.clone())
    }

    /// The best made value for `need` as an argument.
    fn made_arg(&mut self, need: &JType) -> Option<Arg> {
        self.made_pick(need)
            .map(|(idx, fill)| Arg::Made { idx, fill })
    }

    /// The best made value for `need` and its fill: filled when it is known to be empty and
    /// can be.
    fn made_pick(&mut self, need: &JType) -> Option<(usize, u8)> {
        let idx = match self.repo.fits(self.model, need).first() {
            Some(&i) => i,
            None => self.element_of_collection(need)?,
        };
        let m = &self.repo.made[idx];
        let empty = m.size == Some(0);
        let ty = m.ty.clone();
        let fill = if empty
            && self
                .kit
                .relative(self.model, &self.ops.table, &ty)
                .is_some()
        {
            FILL
        } else {
            0
        };
        Some((idx, fill))
    }

    /// A value of `need` taken out of a made collection of such values when nothing made one
    /// (`Currency.getAvailableCurrencies().iterator().next()`: no method of `Currency` makes one
    /// from a value jforge has): its index in the repo.
    fn element_of_collection(&mut self, need: &JType) -> Option<usize> {
        if is_literal_type(need) || !need.is_concrete() {
            return None;
        }
        let (coll, elem) = self.repo.made.iter().enumerate().find_map(|(i, m)| {
            let JType::Class { args, .. } = self.model.as_super(&m.ty, "java.lang.Iterable")?
            else {
                return None;
            };
            let Some(crate::model::TypeArg::Type(e)) = args.first() else {
                return None;
            };
            (m.size != Some(0) && m.producer < plan::SEEDED && self.model.is_subtype(e, need))
                .then(|| (i, e.clone()))
        })?;
        let m = self.repo.made[coll].clone();
        let iter_ty = JType::generic("java.util.Iterator", vec![elem.clone()]);
        let iterator = self.ops.table.intern(Operation::instance_call(
            "java.lang.Iterable",
            "iterator",
            "()Ljava/util/Iterator;",
            &m.ty,
            Some(iter_ty.clone()),
        ));
        let next = self.ops.table.intern(Operation::instance_call(
            "java.util.Iterator",
            "next",
            "()Ljava/lang/Object;",
            &iter_ty,
            Some(elem.clone()),
        ));
        self.element_ops.insert(next);
        let mut seq = (*m.seq).clone();
        let at = seq.len() as u32 - 1;
        seq.stmts.push(Stmt::Call {
            op: iterator,
            args: vec![at],
        });
        seq.stmts.push(Stmt::Call {
            op: next,
            args: vec![at + 1],
        });
        let class = elem.class_name().unwrap_or("java.lang.Object").into();
        Some(self.repo.derived(seq, elem, class))
    }

    /// The request of one attempt: its sequence, and the length of the result observed.
    fn request(&mut self, ti: usize, plan: &Plan) -> ExecRequest {
        let op = self.targets[ti].op;
        let seq = Build {
            model: self.model,
            table: &self.ops.table,
            repo: &self.repo,
            kit: &mut self.kit,
        }
        .sequence(op, plan);
        let last = seq.len() as u32 - 1;
        let ret = self.ops.table.get(op).ret.clone();
        let observers = ret
            .filter(|r| !is_literal_type(r) && !r.is_prim())
            .and_then(|r| self.kit.length(self.model, &mut self.ops.table, &r))
            .map(|len| vec![(last, len)])
            .unwrap_or_default();
        ExecRequest {
            seq: Arc::new(seq),
            mode: ExecMode::Observe,
            contract_values: Vec::new(),
            observers,
            reuse: None,
        }
    }

    /// Records the outcome of an attempt: a made value and the method settled, or the
    /// handler's proposals queued (settled when there are none or the limit is reached).
    fn apply(
        &mut self,
        ti: usize,
        plan: Plan,
        req: &ExecRequest,
        res: SeqResult,
        settings: &Settings,
    ) {
        let proposer = self.targets[ti]
            .queue
            .iter()
            .find(|(p, _)| *p == plan)
            .and_then(|(_, h)| *h);
        let t = &mut self.targets[ti];
        t.attempts += 1;
        t.tried.insert(plan.clone());
        let last = req.seq.len() - 1;
        if let Some(nums) = (!res.compared_nums.is_empty()).then_some(&res.compared_nums) {
            let entry = self.compared.entry(t.op).or_default();
            for n in nums {
                if !entry.contains(n) && entry.len() < 64 {
                    entry.push(*n);
                }
            }
        }
        match res.outcomes.get(last) {
            Some(StmtOutcome::Normal(o)) => self.invoked(ti, req, &res, o.clone(), proposer),
            _ => self.failed(ti, &plan, &res, last, settings),
        }
    }

    /// A completed call: the method is settled, a non-null result is a made value (an object,
    /// or an enum constant, which the worker reports as a value: `UnicodeScript.of(1)` is the
    /// receiver of `name()`).
    fn invoked(
        &mut self,
        ti: usize,
        req: &ExecRequest,
        res: &SeqResult,
        result: Observed,
        handler: Option<&'static str>,
    ) {
        let op = self.targets[ti].op;
        let class = match &result {
            Observed::Object { class, .. } => Some(class.clone()),
            Observed::Value(Value::Enum(c, _)) => Some(Arc::from(c.as_str())),
            // a String a call returned is an argument of the inverse operation of its class
            // family (`UUID.fromString(uuid.toString())`, handlers::family_values)
            // and so is an array (`Base64.Decoder.decode(encoder.encode(bytes))`)
            Observed::Value(Value::Str(s)) if !s.is_empty() => Some(Arc::from("java.lang.String")),
            Observed::Value(Value::Array(c, items)) if !items.is_empty() => {
                Some(Arc::from(format!("{c}[]").as_str()))
            }
            _ => None,
        };
        let text_len = match &result {
            Observed::Value(Value::Str(s)) => Some(s.encode_utf16().count() as i64),
            Observed::Value(Value::Array(_, items)) => Some(items.len() as i64),
            _ => None,
        };
        if let (Some(class), Some(ty)) = (class, self.ops.table.get(op).ret.clone()) {
            let size = res
                .observers
                .first()
                .and_then(|o| match &o.result {
                    Ok(v) => values::as_i64(v),
                    Err(_) => None,
                })
                .or(text_len);
            self.repo.add(Made {
                seq: req.seq.clone(),
                ty,
                class,
                size,
                producer: op,
            });
        }
        let t = &mut self.targets[ti];
        t.status = Status::Invoked {
            seq: req.seq.clone(),
            result,
            handler,
        };
    }

    /// A failed attempt: the failure recorded, the handler's plans queued.
    fn failed(&mut self, ti: usize, plan: &Plan, res: &SeqResult, last: usize, s: &Settings) {
        let at = res.first_abnormal().unwrap_or(last);
        let failure = match res.outcomes.get(at) {
            Some(StmtOutcome::Exception { class, message, .. }) => Failure::Threw {
                class: class.to_string(),
                message: message.clone(),
                frames: frames(res),
                setup: at < last,
            },
            Some(StmtOutcome::Timeout) => Failure::Timeout,
            Some(StmtOutcome::Crash(k)) => Failure::Crash(k.clone()),
            _ => Failure::Crash(CrashKind::Unresponsive),
        };
        let handler = match &failure {
            Failure::Threw { setup: true, .. } => Some("setup"),
            Failure::Threw { class, .. } => handlers::handler_for(class),
            _ => None,
        };
        self.targets[ti].threw += u32::from(matches!(failure, Failure::Threw { .. }));
        if let Some(h) = handler {
            self.queue_proposals(ti, h, plan);
        }
        let t = &mut self.targets[ti];
        t.queue.retain(|(p, _)| !t.tried.contains(p));
        if handler.is_none() || t.queue.is_empty() || t.attempts >= s.retries {
            t.status = Status::Failed(failure);
        }
    }

    /// Queues what handler `h` proposes for the failed `plan` (after the proposals already
    /// queued: earlier handlers' ideas are not dropped).
    fn queue_proposals(&mut self, ti: usize, h: &'static str, plan: &Plan) {
        let op = self.targets[ti].op;
        let compared = self.compared.get(&op).cloned().unwrap_or_default();
        let constants = self.targets[ti].constants.clone();
        let mut cx = Cx {
            model: self.model,
            table: &self.ops.table,
            repo: &mut self.repo,
            kit: &mut self.kit,
            op,
            constants: &constants,
            compared: &compared,
        };
        let proposals = handlers::propose(&mut cx, h, plan);
        let t = &mut self.targets[ti];
        if !t.handlers.contains(&h) {
            t.handlers.push(h);
        }
        for p in proposals {
            if !t.tried.contains(&p) && !t.queue.iter().any(|(q, _)| *q == p) {
                t.queue.push_back((p, Some(h)));
            }
        }
    }
}

impl Search<'_> {
    /// `seq` with `n` more elements given to the value of statement `recv` (its relative
    /// operation, distinct elements) before the last call; `None` without a relative
    /// operation. `--vary` grows a receiver this way for indices beyond its size.
    pub fn grown(&mut self, seq: &Sequence, recv: u32, n: usize) -> Option<Sequence> {
        let ty = seq.out_type(&self.ops.table, recv as usize)?;
        let rel = self.kit.relative(self.model, &self.ops.table, &ty)?;
        let params = self.ops.table.get(rel).params.clone();
        let mut out = seq.clone();
        let last = out.stmts.pop()?;
        for k in 0..n {
            let mut args = vec![recv];
            for (j, p) in params.iter().enumerate() {
                let i = k * params.len() + j;
                let value = match values::prim_of(p) {
                    None => Value::Str(format!("e{i}")),
                    Some(_) => values::nth_literal(p, i),
                };
                out.stmts.push(Stmt::Lit {
                    ty: p.clone(),
                    value,
                });
                args.push(out.stmts.len() as u32 - 1);
            }
            out.stmts.push(Stmt::Call { op: rel, args });
        }
        out.stmts.push(last);
        Some(out)
    }
}

impl Target {
    fn new(model: &Model, ops: &OpSet, op: OpId, under_test: bool) -> Target {
        let o = ops.table.get(op);
        let receiver_cost = if o.has_receiver() { 4 } else { 0 };
        let index = o.input_types().iter().any(|t| plan::is_container(model, t));
        Target {
            op,
            complexity: producers::call_complexity(model, &o.params) + receiver_cost,
            under_test,
            attempts: 0,
            status: Status::Pending,
            handlers: Vec::new(),
            threw: 0,
            queue: VecDeque::new(),
            tried: HashSet::new(),
            index,
            constants: values::class_constants(model, &o.class),
        }
    }

    pub fn pending(&self) -> bool {
        matches!(self.status, Status::Pending)
    }
}

/// Values that need no search: a literal of each boxed type and String (the receivers of
/// `String.length()`, `Integer.compareTo(..)`), `Class.forName("java.lang.String")` for
/// `Class<String>`, the type `java.lang.Class` is instantiated at, and [`seeded_calls`]. Their
/// producer ids are past the operation table (`u32::MAX` down), so no target has them.
fn seeded_repo(ops: &mut OpSet) -> Repo {
    let mut repo = Repo::default();
    let lits: Vec<(JType, Value)> = vec![
        (JType::string(), Value::Str("abc".into())),
        (JType::class("java.lang.Integer"), Value::Int(1)),
        (JType::class("java.lang.Long"), Value::Long(1)),
        (JType::class("java.lang.Short"), Value::Short(1)),
        (JType::class("java.lang.Byte"), Value::Byte(1)),
        (JType::class("java.lang.Double"), Value::double(1.5)),
        (JType::class("java.lang.Float"), Value::float(1.5)),
        (
            JType::class("java.lang.Character"),
            Value::Char(u16::from(b'a')),
        ),
        (JType::class("java.lang.Boolean"), Value::Bool(true)),
    ];
    for (k, (ty, value)) in lits.into_iter().enumerate() {
        let size = matches!(&value, Value::Str(s) if !s.is_empty()).then_some(3);
        let class = ty.class_name().unwrap_or("java.lang.Object").into();
        repo.add(Made {
            seq: Arc::new(Sequence {
                stmts: vec![Stmt::Lit {
                    ty: ty.clone(),
                    value,
                }],
            }),
            ty,
            class,
            size,
            producer: u32::MAX - k as u32,
        });
    }
    for (k, (seq, ty, class)) in seeded_calls(ops).into_iter().enumerate() {
        repo.add(Made {
            seq: Arc::new(seq),
            ty,
            class: class.into(),
            size: None,
            producer: u32::MAX - 100 - k as u32,
        });
    }
    repo
}

/// Seeded values made by calls, with their type and class: `Class<String>`; a `File` of the
/// temporary directory (`new File(System.getProperty("java.io.tmpdir"))`) and its `file:`
/// URL (`ProcessBuilder.directory`, `Runtime.exec(.., File)`, `redirectOutput(File)`,
/// `Package.isSealed(URL)` need one that exists). Why the temporary directory and not a file:
/// it exists on every machine, and nothing can write into a directory's path (a regular file
/// would be truncated by `new Formatter(File)`); where a reader needs a file it still fails.
fn seeded_calls(ops: &mut OpSet) -> Vec<(Sequence, JType, &'static str)> {
    let class_of_string = JType::generic("java.lang.Class", vec![JType::string()]);
    let for_name = seed_op(ops, "java.lang.Class.forName", class_of_string.clone());
    let get_property = seed_op(ops, "java.lang.System.getProperty", JType::string());
    let file = JType::class("java.io.File");
    let new_file = seed_op(ops, "java.io.File.<init>", file.clone());
    let uri = JType::class("java.net.URI");
    let to_uri = ops.table.intern(Operation::instance_call(
        "java.io.File",
        "toURI",
        "()Ljava/net/URI;",
        &file,
        Some(uri.clone()),
    ));
    let url = JType::class("java.net.URL");
    let to_url = ops.table.intern(Operation::instance_call(
        "java.net.URI",
        "toURL",
        "()Ljava/net/URL;",
        &uri,
        Some(url.clone()),
    ));
    let lit = |s: &str| Stmt::Lit {
        ty: JType::string(),
        value: Value::Str(s.into()),
    };
    let call = |op, args| Stmt::Call { op, args };
    let tmp_dir = vec![
        lit("java.io.tmpdir"),
        call(get_property, vec![0]),
        call(new_file, vec![1]),
    ];
    let mut tmp_url = tmp_dir.clone();
    tmp_url.extend([call(to_uri, vec![2]), call(to_url, vec![3])]);
    let seq = |stmts| Sequence { stmts };
    vec![
        (
            seq(vec![lit("java.lang.String"), call(for_name, vec![0])]),
            class_of_string,
            "java.lang.Class",
        ),
        (seq(tmp_dir), file, "java.io.File"),
        (seq(tmp_url), url, "java.net.URL"),
    ]
}

/// Interns `class.name(String)`, a static method (`<init>`: a constructor) returning `ret`.
fn seed_op(ops: &mut OpSet, member: &str, ret: JType) -> OpId {
    let (class, name) = member.rsplit_once('.').unwrap_or(("", member));
    let (kind, descriptor) = if name == "<init>" {
        (OpKind::Constructor, "(Ljava/lang/String;)V".to_string())
    } else {
        let erased = ret.erasure();
        let r = erased.class_name().unwrap_or("java.lang.Object");
        (
            OpKind::StaticMethod,
            format!("(Ljava/lang/String;)L{};", r.replace('.', "/")),
        )
    };
    ops.table.intern(Operation {
        kind,
        class: class.into(),
        name: name.into(),
        descriptor,
        owner: JType::class(class),
        params: vec![JType::string()],
        ret: Some(ret),
        varargs: false,
        overloaded: true,
        method_type_args: Vec::new(),
        outer_instance: false,
        stub: None,
    })
}

/// Whether the last call of `req` completed.
fn completed(req: &ExecRequest, res: &SeqResult) -> bool {
    matches!(
        res.outcomes.get(req.seq.len() - 1),
        Some(StmtOutcome::Normal(_))
    )
}

/// The top frames of the exception a call threw (`Class.method (line n)`), at most 5.
fn frames(res: &SeqResult) -> Vec<String> {
    res.thrown
        .as_ref()
        .map(|(_, b)| b.frames.iter().take(5).map(|f| f.describe()).collect())
        .unwrap_or_default()
}

/// Whether member `name descriptor` of `class` counts (seed 000's denominator): a
/// non-abstract method or constructor of a class that is not an interface.
fn is_measured(model: &Model, class: &str, name: &str, descriptor: &str) -> bool {
    let Some(ci) = model.get(class) else {
        return false;
    };
    !ci.is_interface()
        && ci
            .methods
            .iter()
            .chain(&ci.constructors)
            .find(|m| m.name == name && m.descriptor == descriptor)
            .is_some_and(|m| !m.is_abstract())
}
