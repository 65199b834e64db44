//! A pool of worker JVMs. A batch is cut into small chunks that the workers take in
//! submission order, whichever is free (`dispatch`), and the results are put back in input
//! order, so a batch's results do not depend on the number of workers nor on which worker ran
//! what (only `SeqResult::worker` does). A worker that dies is replaced (all operations
//! registered again) and the rest of its chunk queued again; crashes and timeouts are results,
//! not errors.
//!
//! Batches may be pipelined: [`Pool::submit`] and [`Pool::submit_routed`] accept a new batch
//! while earlier ones are still running, and [`Pool::collect`] returns the oldest. A worker
//! that finishes its share of a batch early goes on with the next batch at once instead of
//! waiting for the slowest worker. The workers return to `slots` when nothing is pending;
//! every other operation (register, stats, synchronous requests) requires that.

use crate::exit::internal;
use crate::runner::dispatch::{self, Chunk, Counts, Shared, SlotCtx, start_registered};
use crate::runner::jar;
use crate::runner::worker::{Worker, WorkerSpec, WorkerTime};
use crate::runner::{CrashKind, ExecRequest, JdkClasses, SeqResult, StmtOutcome};
use crate::sequence::{OpId, OpTable, Operation};
use anyhow::{Context, Result, bail};
use std::collections::BTreeMap;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::Arc;
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

pub struct Pool {
    spec: Arc<WorkerSpec>,
    ops: Arc<Vec<Operation>>,
    /// The workers while nothing is pending (with the slot threads, or idle in the queue,
    /// while batches run).
    slots: Vec<Option<Worker>>,
    /// The queue of chunks the slot threads take from (`dispatch`).
    shared: Arc<Shared>,
    /// Each slot's thread, while it runs or until joined.
    threads: Vec<Option<JoinHandle<()>>>,
    /// The ids of the batches submitted and not collected, oldest first.
    pending: VecDeque<u64>,
    next_batch: u64,
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
/// the first run's [`CLOCK_FIXED`]; without rewritten classes nothing reads it). Identity
/// hash codes there are a counter (HotSpot's `-XX:hashCode=3`, ignored by a JVM that does
/// not know it): small numbers of one to four hex digits where the first JVM's have seven or
/// eight. A value that holds one (`length()` of a String with `Object.toString()` in it)
/// agreed between two ordinary JVMs most of the time, was asserted, and failed the check's
/// run where every identity hash is 1, which then compiled and ran the suite a second time
/// (StrBuilder: 7 of its 9 removals, BENCHMARKS.md). Not every hash 1, as in that run:
/// distinct objects keep distinct hashes here, so an `equals` without `hashCode` still
/// shows its defect in the second JVM and its error test is confirmed.
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
        "-XX:+IgnoreUnrecognizedVMOptions".to_string(),
        "-XX:+UnlockExperimentalVMOptions".to_string(),
        "-XX:hashCode=3".to_string(),
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
            shared: Arc::new(Shared::new(k)),
            threads: (0..k).map(|_| None).collect(),
            pending: VecDeque::new(),
            next_batch: 0,
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

    /// The registered operation with id `id` (ids are those of the run's `OpTable`).
    pub fn op(&self, id: OpId) -> Option<&Operation> {
        self.ops.get(id as usize)
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

    /// Queues a batch of `n` requests cut into `chunks` and starts the thread of every slot
    /// whose thread is not running. With nothing pending, the idle workers (restarted where
    /// lost) go into the queue first.
    fn enqueue(&mut self, chunks: Vec<Chunk>, n: usize) -> Result<()> {
        if self.pending.is_empty() {
            self.ensure_workers()?;
            self.join_threads();
            let mut q = self.shared.lock();
            for (slot, w) in self.slots.iter_mut().enumerate() {
                q.idle[slot] = w.take();
            }
        }
        let id = self.next_batch;
        self.next_batch += 1;
        self.pending.push_back(id);
        let mut q = self.shared.lock();
        Shared::add(&mut q, id, n, chunks);
        for slot in 0..self.slots.len() {
            if q.running[slot] {
                continue;
            }
            q.running[slot] = true;
            let worker = q.idle[slot].take();
            let cx = SlotCtx {
                slot,
                shared: self.shared.clone(),
                spec: self.spec.clone(),
                ops: self.ops.clone(),
            };
            // The slot's earlier thread has ended (it set `running` to false as its last act
            // under the lock); its handle is dropped.
            self.threads[slot] = Some(std::thread::spawn(move || dispatch::serve(cx, worker)));
        }
        Ok(())
    }

    /// Waits for the slot threads to end (each ends when no chunk is left for it).
    fn join_threads(&mut self) {
        for h in self.threads.iter_mut().filter_map(Option::take) {
            let _ = h.join();
        }
    }

    /// With nothing pending, the workers go back from the queue to `slots`.
    fn reclaim_workers(&mut self) {
        if self.pending.is_empty() {
            self.join_threads();
            let mut q = self.shared.lock();
            for (slot, w) in self.slots.iter_mut().enumerate() {
                if let Some(x) = q.idle[slot].take() {
                    *w = Some(x);
                }
            }
        }
    }

    /// Starts executing a batch and returns at once; see [`Pool::collect`]. Batches submitted
    /// while others run queue behind them: the workers take small chunks
    /// ([`dispatch::chunk_len`]) in submission order across batches, whichever is free, so a
    /// worker that finishes early goes on with the rest of the batch or the next one.
    pub fn submit(&mut self, batch: Vec<ExecRequest>) -> Result<()> {
        let n = batch.len();
        let len = dispatch::chunk_len(n, self.slots.len());
        let id = self.next_batch;
        let stop_at = self.stop_at;
        let mut chunks: Vec<Chunk> = Vec::with_capacity(n.div_ceil(len));
        for (i, r) in batch.into_iter().enumerate() {
            if i % len == 0 {
                chunks.push(Chunk {
                    batch: id,
                    reqs: Vec::with_capacity(len),
                    slot: None,
                    stop_at,
                });
            }
            if let Some(c) = chunks.last_mut() {
                c.reqs.push((i, r));
            }
        }
        self.enqueue(chunks, n)
    }

    /// Like [`Pool::submit`], but each request runs on the worker given with it (modulo the
    /// number of workers), in input order among that worker's requests, after the requests
    /// of batches submitted earlier (one chunk per worker and batch). Used by the exhaustive
    /// search, whose prototypes live in the worker that built them.
    pub fn submit_routed(&mut self, batch: Vec<(ExecRequest, usize)>) -> Result<()> {
        let n = batch.len();
        let k = self.slots.len();
        let id = self.next_batch;
        let mut chunks: Vec<Chunk> = (0..k)
            .map(|slot| Chunk {
                batch: id,
                reqs: Vec::new(),
                slot: Some(slot),
                stop_at: self.stop_at,
            })
            .collect();
        for (i, (r, w)) in batch.into_iter().enumerate() {
            chunks[w % k].reqs.push((i, r));
        }
        chunks.retain(|c| !c.reqs.is_empty());
        self.enqueue(chunks, n)
    }

    /// The requests `indices` of the batch submitted last are no longer wanted: those no
    /// worker has started come back not run (uncounted), the others run as submitted. The
    /// submitter must treat their results alike (gen drops them all): which ones had started
    /// depends on timing.
    pub fn withdraw(&mut self, indices: &[usize]) {
        let Some(&id) = self.pending.back() else {
            return;
        };
        let mut q = self.shared.lock();
        if let Some(b) = q.batch_mut(id) {
            for &i in indices {
                if let Some(w) = b.withdrawn.get_mut(i) {
                    *w = true;
                }
            }
        }
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
        let Some(id) = self.pending.pop_front() else {
            return Err(internal(anyhow::anyhow!("no batch to collect")));
        };
        let batch = self.shared.wait_batch(id);
        self.fold_counts();
        self.reclaim_workers();
        let batch = batch.ok_or_else(|| internal(anyhow::anyhow!("batch {id} was lost")))?;
        if let Some(e) = batch.error {
            return Err(e);
        }
        let mut out = Vec::with_capacity(batch.results.len());
        for (i, r) in batch.results.into_iter().enumerate() {
            let r = r.ok_or_else(|| internal(anyhow::anyhow!("no result for request {i}")))?;
            let ran = r
                .outcomes
                .iter()
                .filter(|o| !matches!(o, StmtOutcome::NotRun));
            let ran = ran.count() as u64;
            // a withdrawn request that was not run is not counted
            if !(batch.withdrawn[i] && ran == 0) {
                self.stats.sequences += 1;
                self.stats.statements += ran;
            }
            out.push(r);
        }
        Ok(out)
    }

    /// Adds what the slot threads counted since the last call to the statistics.
    fn fold_counts(&mut self) {
        let c = {
            let mut q = self.shared.lock();
            let k = q.counts.restarts.len();
            std::mem::replace(
                &mut q.counts,
                Counts {
                    restarts: vec![0; k],
                    peak_rss_kb: vec![0; k],
                    ..Counts::default()
                },
            )
        };
        self.stats.restarts += c.restarts.iter().sum::<u64>();
        for (slot, n) in c.restarts.into_iter().enumerate() {
            self.slot_restarts[slot] += n;
        }
        self.stats.not_run += c.not_run;
        self.stats.timeouts += c.timeouts;
        for k in c.crashes {
            *self.stats.crashes.entry(k.counted()).or_default() += 1;
        }
        for (slot, kb) in c.peak_rss_kb.into_iter().enumerate() {
            let peak = &mut self.stats.worker_peak_rss_kb[slot];
            *peak = (*peak).max(kb);
        }
    }

    /// Runs a batch on idle workers and waits for its results.
    pub fn execute(&mut self, batch: Vec<ExecRequest>) -> Result<Vec<SeqResult>> {
        self.ensure_idle()?;
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
        self.fold_counts();
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
        // What was not collected is not wanted: chunks not started are dropped, the running
        // ones end (their requests from then on come back not run).
        self.shared.clear();
        self.pending.clear();
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
