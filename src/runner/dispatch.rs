//! The pool's work queue: a batch is cut into small chunks, queued in submission order across
//! batches and taken by whichever worker slot is free (a routed chunk only by its own slot);
//! results are put back by input index, so a batch's results come back in input order
//! whatever worker ran them. Why on demand rather than one contiguous share per worker: a
//! batch waited for its slowest share, so one call that hung for a second idled the other
//! worker as long, and the next batch could not start before the generator collected (guava
//! collect: the workers waited for requests 42% of their time; BENCHMARKS.md, issue 22).
//!
//! One thread per slot while there is work ([`serve`]): it takes a chunk, runs it on its
//! worker, delivers the results, and ends (leaving its worker in the queue) when no chunk is
//! left for it. Everything the threads share is behind one mutex; a chunk's results are
//! delivered at once, so the lock is taken a few times per chunk, not per request.

use crate::runner::worker::{RunEnd, Worker, WorkerSpec};
use crate::runner::{CrashKind, ExecMode, ExecRequest, SeqResult, StmtOutcome};
use crate::sequence::{OpId, Operation, Stmt};
use anyhow::{Context, Result};
use std::collections::VecDeque;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Most requests in one chunk of a batch that is not routed. A chunk is one EXEC frame and one
/// round trip (the worker waits from its chunk's last result until the next frame arrives), so
/// it must not be tiny; a request that hangs holds the rest of its chunk behind it, so it must
/// not be large. At ~0.3 ms per generated sequence 16 requests are ~5 ms of work against a
/// round trip of tens of microseconds, and at most 15 requests wait behind a hang while the
/// other workers take every other chunk.
pub const CHUNK_MAX: usize = 16;

/// The chunk length for a batch of `n` requests on `workers` workers: at least four chunks per
/// worker (so that a small batch, such as gen's first ones of 16, is still shared), at most
/// [`CHUNK_MAX`].
pub fn chunk_len(n: usize, workers: usize) -> usize {
    n.div_ceil(4 * workers.max(1)).clamp(1, CHUNK_MAX)
}

/// How long past the pool's stop time a running request may still finish.
const STOP_GRACE: Duration = Duration::from_secs(1);

/// Requests of one batch for one worker slot to run in order.
pub struct Chunk {
    pub batch: u64,
    /// (input index, request)
    pub reqs: Vec<(usize, ExecRequest)>,
    /// The slot a routed chunk must run on; `None`: whichever is free.
    pub slot: Option<usize>,
    /// The pool's stop time when the batch was submitted (see `Pool::set_stop_at`).
    pub stop_at: Option<Instant>,
}

/// What happened to the workers since the pool last folded it into its statistics.
#[derive(Default)]
pub struct Counts {
    /// Per slot.
    pub restarts: Vec<u64>,
    pub timeouts: u64,
    /// Requests not run (past the stop time, or calling an operation that hung in the batch).
    pub not_run: u64,
    pub crashes: Vec<CrashKind>,
    /// Per slot, in KiB.
    pub peak_rss_kb: Vec<u64>,
}

/// A batch submitted and not collected yet.
pub struct Batch {
    pub id: u64,
    pub results: Vec<Option<SeqResult>>,
    /// Per request: a result arrived or it failed (the batch then has an error).
    settled: Vec<bool>,
    missing: usize,
    /// Operations whose call hung in this batch or an earlier one still pending, on any
    /// worker: its later generation requests that end with a call of one are not run.
    hung: Vec<OpId>,
    /// Requests the submitter no longer wants (see `Pool::withdraw`): not run when not started.
    pub withdrawn: Vec<bool>,
    pub error: Option<anyhow::Error>,
}

pub struct Queue {
    chunks: VecDeque<Chunk>,
    batches: Vec<Batch>,
    /// The worker of each slot whose thread is not running (`None`: lost, started on demand).
    pub idle: Vec<Option<Worker>>,
    /// Whether the slot's thread is running.
    pub running: Vec<bool>,
    pub counts: Counts,
}

impl Queue {
    pub fn batch_mut(&mut self, id: u64) -> Option<&mut Batch> {
        self.batches.iter_mut().find(|b| b.id == id)
    }
}

/// The queue and the signal that a batch got results.
pub struct Shared {
    queue: Mutex<Queue>,
    delivered: Condvar,
}

impl Shared {
    pub fn new(slots: usize) -> Shared {
        Shared {
            queue: Mutex::new(Queue {
                chunks: VecDeque::new(),
                batches: Vec::new(),
                idle: (0..slots).map(|_| None).collect(),
                running: vec![false; slots],
                counts: Counts {
                    restarts: vec![0; slots],
                    peak_rss_kb: vec![0; slots],
                    ..Counts::default()
                },
            }),
            delivered: Condvar::new(),
        }
    }

    pub fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits until every request of batch `id` has a result or failed, and removes it.
    pub fn wait_batch(&self, id: u64) -> Option<Batch> {
        let mut q = self.lock();
        loop {
            let pos = q.batches.iter().position(|b| b.id == id)?;
            if q.batches[pos].missing == 0 {
                return Some(q.batches.remove(pos));
            }
            q = self.delivered.wait(q).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Adds a batch of `n` requests and its chunks (at the end of the queue).
    pub fn add(q: &mut Queue, id: u64, n: usize, chunks: Vec<Chunk>) {
        q.batches.push(Batch {
            id,
            results: (0..n).map(|_| None).collect(),
            settled: vec![false; n],
            missing: n,
            hung: Vec::new(),
            withdrawn: vec![false; n],
            error: None,
        });
        q.chunks.extend(chunks);
    }

    /// Forgets every chunk not taken and every batch (the pool stops).
    pub fn clear(&self) {
        let mut q = self.lock();
        q.chunks.clear();
        q.batches.clear();
        self.delivered.notify_all();
    }

    /// The next chunk `slot` may run; with none, the slot's thread ends: its worker goes to
    /// `idle`.
    fn next(&self, slot: usize, worker: &mut Option<Worker>) -> Option<Chunk> {
        let mut q = self.lock();
        let pos = q
            .chunks
            .iter()
            .position(|c| c.slot.is_none_or(|s| s == slot));
        match pos {
            Some(p) => q.chunks.remove(p),
            None => {
                q.idle[slot] = worker.take();
                q.running[slot] = false;
                None
            }
        }
    }

    /// Puts the rest of a chunk whose worker died first in the queue.
    fn requeue(&self, rest: Chunk) {
        self.lock().chunks.push_front(rest);
    }

    fn count(&self, f: impl FnOnce(&mut Counts)) {
        f(&mut self.lock().counts);
    }

    /// Records the results of requests `idx` of a batch (gone when the pool stopped).
    fn deliver(&self, batch: u64, idx: &[usize], results: Vec<SeqResult>) {
        let mut q = self.lock();
        let mut complete = false;
        if let Some(b) = q.batches.iter_mut().find(|b| b.id == batch) {
            for (&i, r) in idx.iter().zip(results) {
                if !b.settled[i] {
                    b.settled[i] = true;
                    b.missing -= 1;
                }
                b.results[i] = Some(r);
            }
            complete = b.missing == 0;
        }
        drop(q);
        // only a complete batch is waited for: no wake-up of the collector per chunk
        if complete {
            self.delivered.notify_all();
        }
    }

    /// Requests `idx` of a batch that have no result get none: the batch fails with `e`.
    fn fail(&self, batch: u64, idx: &[usize], e: anyhow::Error) {
        let mut q = self.lock();
        if let Some(b) = q.batches.iter_mut().find(|b| b.id == batch) {
            for &i in idx {
                if !b.settled[i] {
                    b.settled[i] = true;
                    b.missing -= 1;
                }
            }
            b.error.get_or_insert(e);
        }
        drop(q);
        self.delivered.notify_all();
    }

    /// Records that `op`'s call hung in a batch: for it and the batches submitted after it
    /// (built before the submitter could learn of the hang).
    fn hung(&self, batch: u64, op: OpId) {
        let mut q = self.lock();
        for b in q.batches.iter_mut().filter(|b| b.id >= batch) {
            if !b.hung.contains(&op) {
                b.hung.push(op);
            }
        }
    }

    /// Pushes (as not run, to `results`) the requests from `from` on that are withdrawn or,
    /// for generation, end with a call of an operation that hung in the batch; when there are
    /// none, returns the end of the run of requests from `from` that are neither.
    fn skip(
        &self,
        batch: u64,
        chunk: &ChunkReqs,
        from: usize,
        slot: usize,
        results: &mut Vec<SeqResult>,
    ) -> usize {
        let mut q = self.lock();
        let Some(b) = q.batches.iter().find(|b| b.id == batch) else {
            // the pool stopped: nobody waits for these
            while results.len() < chunk.reqs.len() {
                results.push(not_run(&chunk.reqs[results.len()], slot));
            }
            return chunk.reqs.len();
        };
        // Only generation's requests that end with the call: an operation that hung once may
        // have run normally earlier in other sequences (their prefixes reuse its values), and
        // the requests of test building must all run (a request not run is a test dropped).
        let calls_hung = |r: &ExecRequest| {
            !b.hung.is_empty()
                && r.mode == ExecMode::Generate
                && matches!(r.seq.stmts.last(), Some(Stmt::Call { op, .. }) if b.hung.contains(op))
        };
        let skipped = |i: usize| b.withdrawn[chunk.idx[i]] || calls_hung(&chunk.reqs[i]);
        let mut i = from;
        let mut hung = 0;
        while i < chunk.reqs.len() && skipped(i) {
            hung += u64::from(!b.withdrawn[chunk.idx[i]]);
            results.push(not_run(&chunk.reqs[i], slot));
            i += 1;
        }
        if i > from {
            q.counts.not_run += hung;
            return i;
        }
        while i < chunk.reqs.len() && !skipped(i) {
            i += 1;
        }
        i
    }
}

/// A chunk's requests apart from their input indices (the worker takes a slice of requests).
struct ChunkReqs {
    batch: u64,
    idx: Vec<usize>,
    reqs: Vec<ExecRequest>,
    slot: Option<usize>,
    stop_at: Option<Instant>,
}

impl ChunkReqs {
    fn of(c: Chunk) -> ChunkReqs {
        let (idx, reqs) = c.reqs.into_iter().unzip();
        ChunkReqs {
            batch: c.batch,
            idx,
            reqs,
            slot: c.slot,
            stop_at: c.stop_at,
        }
    }

    /// The requests from `n` on, as a chunk to queue again.
    fn rest(self, n: usize) -> Chunk {
        Chunk {
            batch: self.batch,
            reqs: self.idx.into_iter().zip(self.reqs).skip(n).collect(),
            slot: self.slot,
            stop_at: self.stop_at,
        }
    }
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

/// What a slot's thread needs besides its worker.
pub struct SlotCtx {
    pub slot: usize,
    pub shared: Arc<Shared>,
    pub spec: Arc<WorkerSpec>,
    pub ops: Arc<Vec<Operation>>,
}

/// How often a slot's thread samples its worker's resident set at most.
const RSS_EVERY: Duration = Duration::from_millis(250);

/// A worker for `slot` with `ops` registered: three tries (a JVM start can fail once), the
/// last error if all failed. The pool starts its workers so; a slot's thread restarts one so.
pub(crate) fn start_registered(
    spec: &WorkerSpec,
    ops: &[Operation],
    slot: usize,
) -> Result<Worker> {
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

/// A slot's thread: runs the chunks it may take until none is left. A worker that died is
/// restarted at once (the rest of its chunk is queued first, for whichever worker is free,
/// or for this one when routed); a worker lost for good is started again for the next chunk,
/// unless that chunk's stop time has passed (then it comes back not run).
pub fn serve(cx: SlotCtx, mut worker: Option<Worker>) {
    let mut sampled = Instant::now();
    // The batch of the last chunk the worker ran: a chunk of the same batch continues its
    // frames (the worker keeps what hung in them).
    let mut last: Option<u64> = None;
    while let Some(chunk) = cx.shared.next(cx.slot, &mut worker) {
        let same = worker.is_some() && last == Some(chunk.batch);
        last = Some(chunk.batch);
        let (batch, idx): (u64, Vec<usize>) =
            (chunk.batch, chunk.reqs.iter().map(|r| r.0).collect());
        let w = match worker.take() {
            Some(w) => w,
            // Past the stop time no JVM is started: the chunks a slot whose worker is gone
            // takes come back not run. Else each of a batch's chunks could cost a JVM start
            // (and, with hostile code, a death) after the run's limit.
            None if chunk.stop_at.is_some_and(|t| Instant::now() >= t) => {
                rest_not_run(&cx, &ChunkReqs::of(chunk), Vec::new());
                continue;
            }
            None => match start_registered(&cx.spec, &cx.ops, cx.slot) {
                Ok(w) => {
                    cx.shared.count(|c| c.restarts[cx.slot] += 1);
                    w
                }
                Err(e) => {
                    cx.shared.fail(batch, &idx, e);
                    continue;
                }
            },
        };
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_chunk(&cx, w, ChunkReqs::of(chunk), same)
        }));
        match run {
            Ok(End::Kept(w)) => worker = Some(*w),
            Ok(End::Lost) => {}
            Ok(End::Died(rest)) => {
                if let Some(rest) = rest {
                    cx.shared.requeue(rest);
                }
                // Started now (the restart is already counted), while another worker may
                // take the rest; a failure is met again (and reported) by the next chunk
                // that needs this slot.
                worker = start_registered(&cx.spec, &cx.ops, cx.slot).ok();
                last = None;
            }
            Err(_) => {
                let e = crate::exit::internal(anyhow::anyhow!("a runner thread panicked"));
                cx.shared.fail(batch, &idx, e);
            }
        }
        if sampled.elapsed() >= RSS_EVERY
            && let Some(w) = worker.as_mut()
        {
            note_rss(&cx, w);
            sampled = Instant::now();
        }
    }
}

fn note_rss(cx: &SlotCtx, w: &mut Worker) {
    let kb = w.sample_rss();
    cx.shared.count(|c| {
        let p = &mut c.peak_rss_kb[cx.slot];
        *p = (*p).max(kb);
    });
}

/// How a chunk ended for its worker.
enum End {
    /// The worker goes on (boxed: a worker is large, the other variants small).
    Kept(Box<Worker>),
    /// The worker died before the stop time: it is to be restarted (counted already), and the
    /// rest of the chunk, if any, queued again.
    Died(Option<Chunk>),
    /// The worker is gone (past the stop time, or an error): started again only when needed.
    Lost,
}

/// Runs a chunk on `worker`, delivering its results.
/// `same`: the worker's previous frame was of the same batch.
fn run_chunk(cx: &SlotCtx, mut worker: Worker, c: ChunkReqs, mut same: bool) -> End {
    let mut results = Vec::with_capacity(c.reqs.len());
    // A request still running this long after the stop time is given up (the worker killed),
    // so that a hanging call cannot hold the run for a whole call timeout past its limit.
    let give_up = c.stop_at.map(|t| t + STOP_GRACE);
    while results.len() < c.reqs.len() {
        let from = results.len();
        let to = cx.shared.skip(c.batch, &c, from, cx.slot, &mut results);
        if results.len() > from {
            continue;
        }
        if same {
            worker.same_batch();
        }
        same = true;
        match worker.run_until(&c.reqs[from..to], &mut results, give_up) {
            Ok(RunEnd::Done) => note_timeouts(cx, &c, from, &results),
            Ok(RunEnd::Stopped) => {
                drop(worker);
                rest_not_run(cx, &c, results);
                return End::Lost;
            }
            Ok(RunEnd::Died(kind)) => return died(cx, worker, c, results, kind),
            Err(e) => {
                let n = results.len();
                cx.shared.deliver(c.batch, &c.idx[..n], results);
                let e = e.context(format!("worker {}", cx.slot));
                cx.shared.fail(c.batch, &c.idx, e);
                return End::Lost;
            }
        }
    }
    cx.shared.deliver(c.batch, &c.idx, results);
    End::Kept(Box::new(worker))
}

/// After a worker died on the last of `results`: counts it and delivers what ran; past the
/// stop time the rest comes back not run (no JVM is started for it), else the restart is
/// counted before the results are delivered (the exhaustive search reads the restarts of a
/// slot when it collects: its prototypes died with the worker) and the rest is returned to
/// be queued again.
fn died(
    cx: &SlotCtx,
    mut worker: Worker,
    c: ChunkReqs,
    results: Vec<SeqResult>,
    kind: Option<CrashKind>,
) -> End {
    let n = results.len();
    match kind {
        None => {
            cx.shared.count(|k| k.timeouts += 1);
            if let Some(op) = hung_op(&c.reqs[n - 1], &results[n - 1]) {
                cx.shared.hung(c.batch, op);
            }
        }
        Some(k) => cx.shared.count(|c| c.crashes.push(k)),
    }
    note_rss(cx, &mut worker);
    drop(worker);
    if c.stop_at.is_some_and(|t| Instant::now() >= t) {
        rest_not_run(cx, &c, results);
        return End::Lost;
    }
    cx.shared.count(|k| k.restarts[cx.slot] += 1);
    cx.shared.deliver(c.batch, &c.idx[..n], results);
    End::Died((n < c.reqs.len()).then(|| c.rest(n)))
}

/// Records the operations whose calls timed out (the worker went on) among the results from
/// `from` on: the batch's later requests ending with them are not run.
fn note_timeouts(cx: &SlotCtx, c: &ChunkReqs, from: usize, results: &[SeqResult]) {
    for (i, r) in results.iter().enumerate().skip(from) {
        if let Some(op) = hung_op(&c.reqs[i], r) {
            cx.shared.hung(c.batch, op);
        }
    }
}

/// Ends a chunk whose worker is gone past the stop time: the requests without a result come
/// back not run (and counted as such).
fn rest_not_run(cx: &SlotCtx, c: &ChunkReqs, mut results: Vec<SeqResult>) {
    let n = (c.reqs.len() - results.len()) as u64;
    cx.shared.count(|k| k.not_run += n);
    while results.len() < c.reqs.len() {
        results.push(not_run(&c.reqs[results.len()], cx.slot));
    }
    cx.shared.deliver(c.batch, &c.idx, results);
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

#[cfg(test)]
mod tests {
    use super::chunk_len;

    #[test]
    fn small_batches_are_shared_and_large_ones_cut_at_sixteen() {
        // gen's first batch of 16 on 2 workers: 8 chunks of 2, not one chunk of 16
        assert_eq!(chunk_len(16, 2), 2);
        assert_eq!(chunk_len(100, 2), 13);
        assert_eq!(chunk_len(256, 2), 16);
        assert_eq!(chunk_len(256, 1), 16);
        assert_eq!(chunk_len(1, 4), 1);
        assert_eq!(chunk_len(0, 2), 1);
    }
}
