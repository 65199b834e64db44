//! A pool of worker JVMs. A batch is split into contiguous chunks, one per worker, run
//! concurrently (one thread per chunk), and the results are put back in input order, so a
//! batch's results do not depend on the number of workers (only `SeqResult::worker` does).
//! A worker that dies is replaced (all operations registered again) and the rest of its chunk
//! resubmitted; crashes and timeouts are results, not errors.
//!
//! Batches may be pipelined: [`Pool::submit_routed`] accepts a new batch while earlier ones
//! are still running, and [`Pool::collect`] returns the oldest. Each worker slot runs its
//! chunks strictly in submission order: a chunk thread waits for its ticket on the slot's
//! baton, takes the worker from it, and puts it back for the next ticket. So a worker that
//! finishes its share of a batch early starts on the next batch at once instead of waiting
//! for the slowest worker. The workers return to `slots` when nothing is pending; every
//! other operation (register, stats, synchronous requests) requires that.

use crate::exit::internal;
use crate::runner::jar;
use crate::runner::worker::{RunEnd, Worker, WorkerSpec, WorkerTime};
use crate::runner::{CrashKind, ExecMode, ExecRequest, JdkClasses, SeqResult, StmtOutcome};
use crate::sequence::{OpId, OpTable, Operation, Stmt};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct PoolConfig {
    /// The `java` executable.
    pub java: PathBuf,
    pub classpath: Vec<PathBuf>,
    pub workers: usize,
    pub call_timeout: Duration,
    pub heap_mb: u32,
    pub extra_jvm_args: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct PoolStats {
    pub sequences: u64,
    pub statements: u64,
    pub restarts: u64,
    /// Requests not run because the stop time had passed.
    pub not_run: u64,
    pub timeouts: u64,
    /// Worker deaths by kind ([`CrashKind::counted`]: all leaked-process crashes count as
    /// one kind whatever the number of processes).
    pub crashes: BTreeMap<CrashKind, u64>,
    /// Peak resident set (VmHWM) per worker slot over all its JVMs, in KiB.
    pub worker_peak_rss_kb: Vec<u64>,
    /// Where the workers' time went since the pool started (second opinion included).
    pub time: WorkerTime,
}

/// What a chunk thread hands back.
struct ChunkOut {
    slot: usize,
    worker: Option<Worker>,
    /// (input index, result)
    results: Vec<(usize, SeqResult)>,
    restarts: u64,
    timeouts: u64,
    crashes: Vec<CrashKind>,
    peak_rss_kb: u64,
    error: Option<anyhow::Error>,
    /// Requests left unrun because the stop time had passed (see [`Pool::set_stop_at`]).
    not_run: u64,
}

/// A batch submitted and not collected yet: its chunk threads and its number of requests.
struct Pending {
    handles: Vec<JoinHandle<ChunkOut>>,
    len: usize,
}

/// Hands a slot's worker from one chunk thread to the next, in ticket order.
#[derive(Default)]
struct Baton {
    state: Mutex<BatonState>,
    turn: Condvar,
}

#[derive(Default)]
struct BatonState {
    worker: Option<Worker>,
    /// The ticket whose chunk may run now.
    serving: u64,
}

pub struct Pool {
    spec: Arc<WorkerSpec>,
    ops: Arc<Vec<Operation>>,
    /// The workers while nothing is pending (in the batons while batches run).
    slots: Vec<Option<Worker>>,
    batons: Vec<Arc<Baton>>,
    next_ticket: Vec<u64>,
    pending: VecDeque<Pending>,
    stats: PoolStats,
    slot_restarts: Vec<u64>,
    /// After this instant a worker that dies is not restarted for the rest of its chunk:
    /// those requests come back not run. Keeps a run's time budget whatever the code under
    /// test does (each death costs a JVM start; a hanging call, a call timeout).
    stop_at: Option<Instant>,
    /// The JVMs of [`Pool::execute_elsewhere`], started on its first use.
    second: Option<Box<Pool>>,
    /// The folder on the workers' class path where the classes of stub operations are
    /// written before they are registered (`crate::stubclass`); shared with the second
    /// opinion.
    stubs: Arc<crate::interrupt::TempDir>,
}

/// The clock of workers that run rewritten classes (`jforge.rt.JClock`): fixed, one
/// microsecond per read from 2020-01-01 (a fast machine), reset before each sequence
/// (deterministic).
pub const CLOCK_FIXED: &str = "-Djforge.clock=fixed";
/// The JIT of workers that run many short calls of many methods: C1 only. Why: C2 compiling
/// thousands of methods called a few times each took more CPU than running them (guava
/// collect, 2 workers: the JIT threads 27% of all CPU samples; BENCHMARKS.md, issue 22).
pub const QUICK_JIT: &str = "-XX:TieredStopAtLevel=1";
/// The second opinion's clock: years away, a random step of seconds to hours per read.
pub const CLOCK_SHIFTED: &str = "-Djforge.clock=shifted";

/// JVM options of the second opinion ([`Pool::execute_elsewhere`]) at `utc_hour` (0-23):
/// another time zone, Turkish (decimal comma, dotless i in case mapping, other month and day
/// names) and Latin-1 as the default charset. A value that depends on the machine's defaults
/// differs there and is not asserted: the test would fail on a colleague's machine or a CI
/// server. The zone is UTC+14 from 10:00 UTC and UTC-12 before, so that its date is never
/// UTC's: a test asserting today's date (`LocalDate.now()`) or the hour would fail tomorrow.
/// The clock of rewritten classes is shifted too ([`CLOCK_SHIFTED`], the last `-D` wins over
/// the first run's [`CLOCK_FIXED`]; without rewritten classes nothing reads it).
pub fn second_opinion_jvm_args(utc_hour: u64) -> Vec<String> {
    let zone = if utc_hour >= 10 {
        "Pacific/Kiritimati"
    } else {
        "Etc/GMT+12"
    };
    [
        format!("-Duser.timezone={zone}"),
        "-Duser.language=tr".to_string(),
        "-Duser.country=TR".to_string(),
        "-Dfile.encoding=ISO-8859-1".to_string(),
        CLOCK_SHIFTED.to_string(),
    ]
    .into()
}

/// Starts `k` workers at once (JVM start-ups overlap), `start(i)` for slot `i`; the first
/// error if any failed.
fn start_all(
    k: usize,
    start: impl Fn(usize) -> Result<Worker> + Sync,
) -> Result<Vec<Option<Worker>>> {
    let results: Vec<Result<Worker>> = std::thread::scope(|s| {
        let start = &start;
        let handles: Vec<_> = (0..k).map(|i| s.spawn(move || start(i))).collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(internal(anyhow::anyhow!("worker start thread panicked")))
                })
            })
            .collect()
    });
    results.into_iter().map(|r| r.map(Some)).collect()
}

/// Writes the class of stub operation `op` (none for other operations) below `dir`, where
/// the workers' class loader finds it when the operation is registered.
fn write_stub_class(dir: &std::path::Path, op: &Operation) -> Result<()> {
    let Some(stub) = &op.stub else {
        return Ok(());
    };
    let path = dir.join(format!("{}.class", op.class.replace('.', "/")));
    if path.exists() {
        return Ok(());
    }
    let bytes = crate::stubclass::class_file(&op.class, stub);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {} for a stub class", parent.display()))?;
    }
    std::fs::write(&path, bytes).with_context(|| {
        format!(
            "writing the stub class {} (is the temporary folder full? set TMPDIR)",
            path.display()
        )
    })
}

fn start_registered(spec: &WorkerSpec, ops: &[Operation], slot: usize) -> Result<Worker> {
    let mut last = None;
    for _ in 0..3 {
        match Worker::start(spec, slot).and_then(|mut w| w.register(ops).map(|_| w)) {
            Ok(w) => return Ok(w),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| anyhow::anyhow!("worker start failed")))
        .with_context(|| format!("cannot restart worker {slot}"))
}

/// The result of a request not run because the pool's stop time had passed.
fn not_run(req: &ExecRequest, slot: usize) -> SeqResult {
    SeqResult {
        outcomes: vec![StmtOutcome::NotRun; req.seq.len()],
        violations: Vec::new(),
        observers: Vec::new(),
        worker: slot,
        coverage: None,
        compared: Vec::new(),
        compared_nums: Vec::new(),
        forms: Vec::new(),
        clock_reads: 0,
        thrown: None,
        survived: false,
        trace: None,
    }
}

/// Ends a chunk whose worker is gone past the stop time: the requests without a result come
/// back not run (and counted as such).
fn rest_not_run(
    mut out: ChunkOut,
    idx: Vec<usize>,
    mut results: Vec<SeqResult>,
    reqs: &[ExecRequest],
) -> ChunkOut {
    out.not_run += (reqs.len() - results.len()) as u64;
    while results.len() < reqs.len() {
        results.push(not_run(&reqs[results.len()], out.slot));
    }
    out.results = idx.into_iter().zip(results).collect();
    out
}

/// Skips (as not run, pushed to `results`) the generation requests from `from` on that end
/// with a call of an operation of `hung`; when there are none, returns the end of the run of requests from
/// `from` that call none.
fn skip_hung(
    reqs: &[ExecRequest],
    from: usize,
    hung: &[OpId],
    results: &mut Vec<SeqResult>,
    out: &mut ChunkOut,
) -> usize {
    // Only generation's requests that end with the call: an operation that hung once may
    // have run normally earlier in other sequences (their prefixes reuse its values), and
    // the requests of test building must all run (a request not run is a test dropped).
    let calls_hung = |r: &ExecRequest| {
        !hung.is_empty()
            && r.mode == ExecMode::Generate
            && matches!(r.seq.stmts.last(), Some(Stmt::Call { op, .. }) if hung.contains(op))
    };
    let mut i = from;
    while i < reqs.len() && calls_hung(&reqs[i]) {
        results.push(not_run(&reqs[i], out.slot));
        out.not_run += 1;
        i += 1;
    }
    if i > from {
        return i;
    }
    let mut end = i;
    while end < reqs.len() && !calls_hung(&reqs[end]) {
        end += 1;
    }
    end
}

/// The operation whose call timed out in `r`.
fn hung_op(req: &ExecRequest, r: &SeqResult) -> Option<OpId> {
    let i = r
        .outcomes
        .iter()
        .position(|o| matches!(o, StmtOutcome::Timeout))?;
    match req.seq.stmts.get(i)? {
        Stmt::Call { op, .. } => Some(*op),
        _ => None,
    }
}

/// How long past the pool's stop time a running request may still finish.
const STOP_GRACE: Duration = Duration::from_secs(1);

fn run_chunk(
    slot: usize,
    mut worker: Worker,
    spec: Arc<WorkerSpec>,
    ops: Arc<Vec<Operation>>,
    reqs: Vec<(usize, ExecRequest)>,
    stop_at: Option<Instant>,
) -> ChunkOut {
    let (idx, reqs): (Vec<usize>, Vec<ExecRequest>) = reqs.into_iter().unzip();
    let mut out = ChunkOut {
        slot,
        worker: None,
        results: Vec::with_capacity(reqs.len()),
        restarts: 0,
        timeouts: 0,
        crashes: Vec::new(),
        peak_rss_kb: 0,
        error: None,
        not_run: 0,
    };
    let mut results = Vec::with_capacity(reqs.len());
    // A request still running this long after the stop time is given up (the worker killed),
    // so that a hanging call cannot hold the run for a whole call timeout past its limit.
    let give_up = stop_at.map(|t| t + STOP_GRACE);
    // Operations that hung in this chunk: the chunk's later generation requests that end with
    // a call of one are not run (each would likely cost a call limit and a JVM start again).
    let mut hung: Vec<OpId> = Vec::new();
    while results.len() < reqs.len() {
        let from = results.len();
        let to = skip_hung(&reqs, from, &hung, &mut results, &mut out);
        if results.len() > from {
            continue;
        }
        match worker.run_until(&reqs[from..to], &mut results, give_up) {
            Ok(RunEnd::Done) => {}
            Ok(RunEnd::Stopped) => {
                drop(worker);
                return rest_not_run(out, idx, results, &reqs);
            }
            Ok(RunEnd::Died(kind)) => {
                match kind {
                    None => {
                        out.timeouts += 1;
                        hung.extend(hung_op(
                            &reqs[results.len() - 1],
                            &results[results.len() - 1],
                        ));
                    }
                    Some(k) => out.crashes.push(k),
                }
                out.peak_rss_kb = out.peak_rss_kb.max(worker.sample_rss());
                drop(worker);
                if stop_at.is_some_and(|t| Instant::now() >= t) {
                    // Past the stop time: the rest is not run (and no JVM is started for
                    // it; the next request that needs this slot starts one).
                    return rest_not_run(out, idx, results, &reqs);
                }
                out.restarts += 1;
                match start_registered(&spec, &ops, slot) {
                    Ok(w) => worker = w,
                    Err(e) => {
                        out.error = Some(e);
                        return out;
                    }
                }
            }
            Err(e) => {
                out.error = Some(e.context(format!("worker {slot}")));
                return out;
            }
        }
    }
    out.peak_rss_kb = out.peak_rss_kb.max(worker.sample_rss());
    out.worker = Some(worker);
    out.results = idx.into_iter().zip(results).collect();
    out
}

impl Pool {
    /// Starts all workers in parallel.
    pub fn start(cfg: PoolConfig) -> Result<Pool> {
        if cfg.workers == 0 {
            bail!("the number of workers must be at least 1");
        }
        let jar = jar::worker_jar()?;
        // registered with the interrupt handler: an interrupted run leaves no folder behind
        let stubs = Arc::new(
            crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-stubs"))
                .context("creating a temporary folder for the workers' stub classes (is the temporary folder writable? set TMPDIR)")?,
        );
        let mut classpath = cfg.classpath.clone();
        classpath.push(stubs.path().to_path_buf());
        let spec = Arc::new(WorkerSpec {
            java: cfg.java.clone(),
            jar,
            classpath,
            call_timeout: cfg.call_timeout,
            heap_mb: cfg.heap_mb,
            extra_jvm_args: cfg.extra_jvm_args.clone(),
            spent: Arc::default(),
            learned_limit_ms: Arc::default(),
        });
        let slots = start_all(cfg.workers, |i| Worker::start(&spec, i))
            .context("starting the worker JVMs")?;
        Ok(Pool::assemble(spec, Arc::new(Vec::new()), slots, stubs))
    }

    /// A pool of the given started workers.
    fn assemble(
        spec: Arc<WorkerSpec>,
        ops: Arc<Vec<Operation>>,
        slots: Vec<Option<Worker>>,
        stubs: Arc<crate::interrupt::TempDir>,
    ) -> Pool {
        let k = slots.len();
        Pool {
            spec,
            ops,
            slots,
            batons: (0..k).map(|_| Arc::default()).collect(),
            next_ticket: vec![0; k],
            pending: VecDeque::new(),
            slot_restarts: vec![0; k],
            stop_at: None,
            stats: PoolStats {
                worker_peak_rss_kb: vec![0; k],
                ..PoolStats::default()
            },
            second: None,
            stubs,
        }
    }

    /// The second-opinion pool: as many workers, with [`second_opinion_jvm_args`], the same
    /// operations registered.
    fn second_opinion(&self) -> Result<Pool> {
        let mut spec = (*self.spec).clone();
        let utc_hour = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() / 3600 % 24);
        spec.extra_jvm_args
            .extend(second_opinion_jvm_args(utc_hour));
        let spec = Arc::new(spec);
        let slots = start_all(self.slots.len(), |i| start_registered(&spec, &self.ops, i))
            .context("starting the second-opinion worker JVMs")?;
        Ok(Pool::assemble(
            spec,
            self.ops.clone(),
            slots,
            self.stubs.clone(),
        ))
    }

    pub fn workers(&self) -> usize {
        self.slots.len()
    }

    fn ensure_idle(&self) -> Result<()> {
        if !self.pending.is_empty() {
            bail!("a batch is still running: call collect() first");
        }
        Ok(())
    }

    /// Restarts the workers lost to errors.
    fn ensure_workers(&mut self) -> Result<()> {
        for i in 0..self.slots.len() {
            if self.slots[i].is_none() {
                self.slots[i] = Some(start_registered(&self.spec, &self.ops, i)?);
                self.stats.restarts += 1;
                self.slot_restarts[i] += 1;
            }
        }
        Ok(())
    }

    /// Registers the ops of `ops` not yet registered, in every worker (and after each restart).
    pub fn register(&mut self, ops: &OpTable) -> Result<Vec<(OpId, String)>> {
        self.ensure_idle()?;
        if ops.len() > self.ops.len() {
            let known = self.ops.len();
            for (_, op) in ops.iter().skip(known) {
                write_stub_class(self.stubs.path(), op)?;
            }
            let v = Arc::make_mut(&mut self.ops);
            v.extend(ops.iter().skip(known).map(|(_, o)| o.clone()));
        }
        self.ensure_workers()?;
        let all = self.ops.clone();
        let results: Vec<Result<Vec<(OpId, String)>>> = std::thread::scope(|s| {
            let hs: Vec<_> = self
                .slots
                .iter_mut()
                .flatten()
                .map(|w| {
                    let all = &all;
                    s.spawn(move || w.register(all))
                })
                .collect();
            hs.into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(internal(anyhow::anyhow!("register thread panicked")))
                    })
                })
                .collect()
        });
        let mut failed = None;
        for (i, r) in results.into_iter().enumerate() {
            match r {
                Ok(f) => {
                    failed.get_or_insert(f);
                }
                Err(_) => {
                    // A worker died while loading classes: replace it (registers everything).
                    self.slots[i] = None;
                    self.slots[i] = Some(start_registered(&self.spec, &self.ops, i)?);
                    self.stats.restarts += 1;
                    self.slot_restarts[i] += 1;
                }
            }
        }
        Ok(failed.unwrap_or_default())
    }

    /// Starts one chunk thread per slot with requests. With nothing pending, the idle
    /// workers (restarted where lost) go into the batons first; otherwise the new chunks queue
    /// behind the running ones of the same slot.
    fn spawn_assignments(
        &mut self,
        assign: Vec<Vec<(usize, ExecRequest)>>,
        total: usize,
    ) -> Result<()> {
        if self.pending.is_empty() {
            self.ensure_workers()?;
            for (slot, w) in self.slots.iter_mut().enumerate() {
                let mut st = lock(&self.batons[slot]);
                st.worker = w.take();
                st.serving = self.next_ticket[slot];
            }
        }
        let mut handles = Vec::new();
        for (slot, reqs) in assign.into_iter().enumerate() {
            if reqs.is_empty() {
                continue;
            }
            let ticket = self.next_ticket[slot];
            self.next_ticket[slot] += 1;
            let baton = self.batons[slot].clone();
            let spec = self.spec.clone();
            let ops = self.ops.clone();
            let stop_at = self.stop_at;
            handles.push(std::thread::spawn(move || {
                let mut st = lock(&baton);
                while st.serving != ticket {
                    st = baton.turn.wait(st).unwrap_or_else(|e| e.into_inner());
                }
                let w = st.worker.take();
                drop(st);
                // Passes the turn on even if this thread panics (the next chunk then finds no
                // worker and starts one).
                let mut turn = Turn {
                    baton: &baton,
                    worker: None,
                };
                let mut out = match w {
                    Some(w) => run_chunk(slot, w, spec, ops, reqs, stop_at),
                    // lost by an earlier chunk that could not restart it: try once more
                    None => match start_registered(&spec, &ops, slot) {
                        Ok(w) => {
                            let mut out = run_chunk(slot, w, spec, ops, reqs, stop_at);
                            out.restarts += 1;
                            out
                        }
                        Err(e) => ChunkOut {
                            slot,
                            worker: None,
                            results: Vec::new(),
                            restarts: 0,
                            timeouts: 0,
                            crashes: Vec::new(),
                            peak_rss_kb: 0,
                            error: Some(e),
                            not_run: 0,
                        },
                    },
                };
                turn.worker = out.worker.take();
                drop(turn);
                out
            }));
        }
        self.pending.push_back(Pending {
            handles,
            len: total,
        });
        Ok(())
    }

    /// With nothing pending, the workers go back from the batons to `slots`.
    fn reclaim_workers(&mut self) {
        if self.pending.is_empty() {
            for (slot, w) in self.slots.iter_mut().enumerate() {
                if let Some(x) = lock(&self.batons[slot]).worker.take() {
                    *w = Some(x);
                }
            }
        }
    }

    /// Starts executing a batch and returns at once; see [`Pool::collect`].
    pub fn submit(&mut self, batch: Vec<ExecRequest>) -> Result<()> {
        self.ensure_idle()?;
        let n = batch.len();
        let k = self.slots.len();
        let per = n.div_ceil(k).max(1);
        let mut assign: Vec<Vec<(usize, ExecRequest)>> = (0..k).map(|_| Vec::new()).collect();
        for (i, r) in batch.into_iter().enumerate() {
            assign[i / per].push((i, r));
        }
        self.spawn_assignments(assign, n)
    }

    /// Like [`Pool::submit`], but each request runs on the worker given with it (modulo the
    /// number of workers), in input order among that worker's requests, after the requests
    /// of batches submitted earlier. Unlike `submit`, it does not wait for earlier batches to
    /// be collected (pipelining). Used by the exhaustive search, whose prototypes live in the
    /// worker that built them.
    pub fn submit_routed(&mut self, batch: Vec<(ExecRequest, usize)>) -> Result<()> {
        let n = batch.len();
        let k = self.slots.len();
        let mut assign: Vec<Vec<(usize, ExecRequest)>> = (0..k).map(|_| Vec::new()).collect();
        for (i, (r, w)) in batch.into_iter().enumerate() {
            assign[w % k].push((i, r));
        }
        self.spawn_assignments(assign, n)
    }

    /// Requests submitted from now on stop being run (come back as not run) once a worker
    /// dies after `at`; `None` runs everything.
    pub fn set_stop_at(&mut self, at: Option<Instant>) {
        self.stop_at = at;
    }

    /// Restarts so far of each worker slot (a restarted worker has lost its state, e.g. the
    /// prototypes of the exhaustive search).
    pub fn slot_restarts(&self) -> &[u64] {
        &self.slot_restarts
    }

    /// Waits for the oldest batch submitted and not collected; results in input order.
    pub fn collect(&mut self) -> Result<Vec<SeqResult>> {
        let Some(batch) = self.pending.pop_front() else {
            return Err(internal(anyhow::anyhow!("no batch to collect")));
        };
        let mut slots: Vec<Option<SeqResult>> = (0..batch.len).map(|_| None).collect();
        let mut first_err = None;
        for h in batch.handles {
            let out = match h.join() {
                Ok(o) => o,
                Err(_) => {
                    first_err.get_or_insert(internal(anyhow::anyhow!("a runner thread panicked")));
                    continue;
                }
            };
            self.stats.restarts += out.restarts;
            self.stats.not_run += out.not_run;
            self.slot_restarts[out.slot] += out.restarts;
            self.stats.timeouts += out.timeouts;
            for c in out.crashes {
                *self.stats.crashes.entry(c.counted()).or_default() += 1;
            }
            let peak = &mut self.stats.worker_peak_rss_kb[out.slot];
            *peak = (*peak).max(out.peak_rss_kb);
            if let Some(e) = out.error {
                first_err.get_or_insert(e);
            }
            for (i, r) in out.results {
                self.stats.sequences += 1;
                self.stats.statements += r
                    .outcomes
                    .iter()
                    .filter(|o| !matches!(o, StmtOutcome::NotRun))
                    .count() as u64;
                slots[i] = Some(r);
            }
        }
        self.reclaim_workers();
        if let Some(e) = first_err {
            return Err(e);
        }
        slots
            .into_iter()
            .enumerate()
            .map(|(i, r)| r.ok_or_else(|| internal(anyhow::anyhow!("no result for request {i}"))))
            .collect()
    }

    pub fn execute(&mut self, batch: Vec<ExecRequest>) -> Result<Vec<SeqResult>> {
        self.submit(batch)?;
        self.collect()
    }

    /// Runs each request again, in other JVMs than the first run's (the worker index given
    /// with each request ran it): the second-opinion pool, started on first use with another
    /// time zone, locale and default charset ([`second_opinion_jvm_args`]) and kept until the
    /// pool shuts down. Its restarts, timeouts and crashes count in this pool's statistics.
    pub fn execute_elsewhere(
        &mut self,
        batch: Vec<(ExecRequest, usize)>,
    ) -> Result<Vec<SeqResult>> {
        self.ensure_idle()?;
        if self
            .second
            .as_ref()
            .is_some_and(|p| p.ops.len() != self.ops.len())
            && let Some(old) = self.second.take()
        {
            old.shutdown();
        }
        if self.second.is_none() {
            self.second = Some(Box::new(self.second_opinion()?));
        }
        let Some(second) = self.second.as_mut() else {
            bail!("internal error: no second-opinion pool");
        };
        second.set_stop_at(self.stop_at);
        let before = second.stats.clone();
        // Second-opinion workers are numbered after this pool's.
        let k = self.slots.len();
        let out = second
            .execute(batch.into_iter().map(|(r, _)| r).collect())
            .map(|rs| {
                rs.into_iter()
                    .map(|mut r| {
                        r.worker += k;
                        r
                    })
                    .collect::<Vec<_>>()
            });
        let after = &second.stats;
        self.stats.sequences += after.sequences - before.sequences;
        self.stats.statements += after.statements - before.statements;
        self.stats.restarts += after.restarts - before.restarts;
        self.stats.not_run += after.not_run - before.not_run;
        self.stats.timeouts += after.timeouts - before.timeouts;
        for (k, n) in &after.crashes {
            let had = before.crashes.get(k).copied().unwrap_or(0);
            *self.stats.crashes.entry(k.clone()).or_default() += n - had;
        }
        out
    }

    pub fn stats(&mut self) -> PoolStats {
        for (i, w) in self.slots.iter_mut().enumerate() {
            if let Some(w) = w {
                let p = w.sample_rss();
                self.stats.worker_peak_rss_kb[i] = self.stats.worker_peak_rss_kb[i].max(p);
            }
        }
        if let Ok(t) = self.spec.spent.lock() {
            self.stats.time = t.clone();
        }
        self.stats.clone()
    }

    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(second) = self.second.take() {
            second.shutdown();
        }
        for batch in std::mem::take(&mut self.pending) {
            for h in batch.handles {
                let _ = h.join();
            }
        }
        self.reclaim_workers();
        for (i, w) in self.slots.iter_mut().enumerate() {
            if let Some(mut w) = w.take() {
                let p = w.sample_rss();
                if let Some(peak) = self.stats.worker_peak_rss_kb.get_mut(i) {
                    *peak = (*peak).max(p);
                }
                w.kill();
            }
        }
    }

    /// A worker for synchronous requests (slot 0), restarted if needed.
    fn worker0(&mut self) -> Result<&mut Worker> {
        self.ensure_idle()?;
        self.ensure_workers()?;
        self.slots[0].as_mut().context("no worker")
    }
}

/// A slot's turn: on drop, leaves the worker on the baton and wakes the next ticket.
struct Turn<'a> {
    baton: &'a Baton,
    worker: Option<Worker>,
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut st = lock(self.baton);
        st.worker = self.worker.take();
        st.serving += 1;
        self.baton.turn.notify_all();
    }
}

fn lock(b: &Baton) -> std::sync::MutexGuard<'_, BatonState> {
    b.state.lock().unwrap_or_else(|e| e.into_inner())
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.stop();
    }
}

impl JdkClasses for Pool {
    fn class_bytes(&mut self, binary_name: &str) -> Result<Option<Vec<u8>>> {
        let r = self.worker0()?.class_bytes(binary_name);
        if r.is_err() {
            self.slots[0] = None;
        }
        r
    }

    fn list_classes(&mut self, package_prefix: &str) -> Result<Vec<String>> {
        let r = self.worker0()?.list_classes(package_prefix);
        if r.is_err() {
            self.slots[0] = None;
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::second_opinion_jvm_args;

    #[test]
    fn the_second_opinion_is_on_another_date_than_utc_at_every_hour() {
        for h in 0..24i64 {
            let args = second_opinion_jvm_args(h as u64);
            let offset = if args.contains(&"-Duser.timezone=Pacific/Kiritimati".to_string()) {
                14
            } else {
                assert!(args.contains(&"-Duser.timezone=Etc/GMT+12".to_string()));
                -12 // Etc/GMT+12 is UTC-12 (POSIX sign)
            };
            // any minute of hour h: the local hour leaves 0..24, so the date changed
            for local in [h + offset, h + offset + 1] {
                assert!(!(1..24).contains(&local), "hour {h}: {args:?}");
            }
            assert!(args.iter().any(|a| a == "-Duser.language=tr"));
        }
    }
}
