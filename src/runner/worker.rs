//! One worker JVM seen from Rust: start, handshake, register operations, run a batch, and the
//! post-mortem when it dies.
//!
//! Why a progress file: the worker may vanish without a word (System.exit, Runtime.halt, killed
//! after a hang). It mirrors "which sequence, which statement, outcomes so far, and why I am
//! halting" into a memory-mapped file; after death the file says whom to blame and what the
//! earlier statements did. While the worker is alive, its epoch counter (bumped at each call)
//! tells a slow-but-progressing sequence from a hung one.

use crate::exit::internal;
use crate::runner::protocol::{
    self, ClassTable, Dec, HALT_CODE, M_LEAKED_PROCESSES, M_LEAKED_THREADS, M_OOM, M_SOE,
    M_TIMEOUT, M_WROTE_FILES, P_BYTES, P_COUNT, P_DATA, P_DETAIL, P_EPOCH, P_LIMIT, P_MARKER,
    P_NSTMT, P_STMT, P_TAG, TypeTable,
};
use crate::runner::{CrashKind, ExecRequest, SeqResult, StmtOutcome};
use crate::sequence::{OpId, Operation};
use anyhow::{Context, Result, bail};
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::os::unix::net::{UnixListener, UnixStream};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Size of the shared progress file (sparse; only touched pages cost memory).
const PROGRESS_SIZE: u64 = 8 << 20;
/// How much of the child's stdout/stderr is kept for diagnostics.
const TAIL: usize = 64 * 1024;
const START_TIMEOUT: Duration = Duration::from_secs(60);
const REQUEST_TIMEOUT: Duration = Duration::from_secs(300);
const TICK: Duration = Duration::from_millis(100);
/// The lowest starting call limit of a worker (the worker's `Progress.COLD_NANOS`), within the
/// user's `--call-timeout`: a worker starts at the limit the last one that died had adapted
/// to, but no lower, and at this after a timeout of one that had not adapted yet. Why not the
/// adapted limit itself (100 ms and more, `Progress.FLOOR_NANOS`): a fresh JVM's first calls
/// load classes and run interpreted, ten times slower and more; it adapts after 32 calls.
const COLD_LIMIT: Duration = Duration::from_secs(1);

/// How to start workers.
#[derive(Clone, Debug)]
pub struct WorkerSpec {
    pub java: PathBuf,
    pub jar: PathBuf,
    pub classpath: Vec<PathBuf>,
    pub call_timeout: Duration,
    pub heap_mb: u32,
    pub extra_jvm_args: Vec<String>,
    /// Where the workers of this spec spent their time (shared by the pool's workers and
    /// its second-opinion pool, which clones the spec).
    pub spent: Arc<Mutex<WorkerTime>>,
    /// The call limit the last worker that died had adapted to (ms; 0: none yet), the
    /// starting limit of the next one: a restart after a timeout must not give the next hang
    /// the whole `--call-timeout` again.
    pub learned_limit_ms: Arc<std::sync::atomic::AtomicU64>,
}

/// Worker time by what it went to, summed over the workers (two workers busy for 10 s make
/// 20 s). Why: on whole packages most of the time went to JVM starts and timeouts, not to
/// running sequences, and nothing said so.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerTime {
    /// JVM starts: spawn to handshake.
    pub start: Duration,
    /// Number of JVM starts.
    pub starts: u64,
    /// Registering operations: loading and initialising the classes under test (the
    /// instrumented copies with coverage) and resolving members by reflection.
    pub register: Duration,
    /// Running requests that came back with a result.
    pub executing: Duration,
    /// Requests that ended in a timeout: from the last result to the worker's death.
    pub timeouts: Duration,
    /// Requests that ended in a crash, per kind ([`CrashKind::counted`]): from the last
    /// result to the death and post-mortem.
    pub crashes: std::collections::BTreeMap<CrashKind, Duration>,
    /// Crashes the workers survived (reported as the statement's outcome, no restart), per
    /// kind.
    pub survived: std::collections::BTreeMap<CrashKind, u64>,
    /// Calls the workers ended at the call limit (interrupted or stopped) and went on after:
    /// timeouts that cost no restart.
    pub timeouts_survived: u64,
    /// What those sequences took, from the worker's previous result to theirs (part of
    /// `executing`): the time the call limit let hangs take.
    pub timeouts_survived_time: Duration,
}

impl WorkerTime {
    /// Updates the shared ledger (a poisoned lock only loses the figure).
    fn add(spent: &Mutex<WorkerTime>, f: impl FnOnce(&mut WorkerTime)) {
        if let Ok(mut t) = spent.lock() {
            f(&mut t);
        }
    }
}

impl WorkerSpec {
    /// Time without progress after which the Rust side kills the worker.
    pub fn hard_limit(&self) -> Duration {
        self.call_timeout + Duration::from_secs(2).max(self.call_timeout)
    }
}

/// The last bytes a stream produced.
#[derive(Default)]
pub struct Tail {
    buf: Vec<u8>,
}

impl Tail {
    fn push(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
        if self.buf.len() > 2 * TAIL {
            let cut = self.buf.len() - TAIL;
            self.buf.drain(..cut);
        }
    }
    pub fn text(&self) -> String {
        let s = &self.buf[self.buf.len().saturating_sub(TAIL)..];
        String::from_utf8_lossy(s).into_owned()
    }
}

fn drain(mut r: impl Read + Send + 'static, tail: Arc<Mutex<Tail>>) {
    std::thread::spawn(move || {
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            match r.read(&mut chunk) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if let Ok(mut t) = tail.lock() {
                        t.push(&chunk[..n]);
                    }
                }
            }
        }
    });
}

/// How a batch on one worker ended.
pub enum RunEnd {
    /// Every request has a result.
    Done,
    /// The worker died (the blamed request's result was pushed to the output); `None` means the
    /// call timed out, `Some` names the crash. The worker must be replaced.
    Died(Option<CrashKind>),
    /// The run's stop time passed while a request was still running ([`Worker::run_until`]):
    /// the worker was killed and that request and the rest have no result. Nobody is blamed.
    Stopped,
}

pub struct Worker {
    pub index: usize,
    child: Child,
    group: ProcessGroup,
    stream: UnixStream,
    rbuf: Vec<u8>,
    /// Read buffer of the socket, allocated once.
    chunk: Vec<u8>,
    /// Start of the unread bytes in `rbuf` (frames are consumed by moving this, not by
    /// shifting the buffer: a 64 KiB read holds hundreds of small RESULT frames).
    rpos: usize,
    _dir: crate::interrupt::TempDir,
    progress: std::fs::File,
    stderr: Arc<Mutex<Tail>>,
    stdout: Arc<Mutex<Tail>>,
    types: TypeTable,
    classes: ClassTable,
    /// Number of ops registered (ids `0..registered`).
    pub registered: usize,
    next_tag: u32,
    /// The next frame's requests belong to the batch of the previous one (see
    /// [`Worker::same_batch`]); reset after each frame.
    same_batch: bool,
    hard_limit: Duration,
    /// While [`Worker::run_until`] runs: when to give up on the request running.
    deadline: Option<Instant>,
    killed: bool,
    exit: Option<ExitStatus>,
    peak_rss_kb: u64,
    spent: Arc<Mutex<WorkerTime>>,
    learned_limit_ms: Arc<std::sync::atomic::AtomicU64>,
}

enum ReadErr {
    /// The worker is gone (EOF, reset) or had to be killed.
    Dead,
    /// Killed because the deadline of [`Worker::run_until`] passed.
    Deadline,
    Other(anyhow::Error),
}

/// The files a worker needs: its socket and its progress file, in a private directory, and
/// the empty folder it runs in (`cwd`): whatever the code under test writes to a relative
/// path (`new PrintWriter("only")`) lands there, never in the user's folder, and the worker
/// tells a sequence that wrote there (see `Leaks.java`).
struct WorkerFiles {
    dir: crate::interrupt::TempDir,
    cwd: PathBuf,
    listener: UnixListener,
    sock: PathBuf,
    progress_path: PathBuf,
    progress: std::fs::File,
}

impl WorkerFiles {
    fn create() -> Result<WorkerFiles> {
        let dir = crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-w"))
            .context("creating a private temporary directory for the worker socket")?;
        let sock = dir.path().join("s");
        let listener =
            UnixListener::bind(&sock).with_context(|| format!("binding {}", sock.display()))?;
        listener.set_nonblocking(true)?;
        let cwd = dir.path().join("cwd");
        std::fs::create_dir(&cwd).with_context(|| format!("creating {}", cwd.display()))?;
        let progress_path = dir.path().join("progress");
        let progress = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&progress_path)
            .with_context(|| format!("creating {}", progress_path.display()))?;
        progress.set_len(PROGRESS_SIZE)?;
        Ok(WorkerFiles {
            dir,
            cwd,
            listener,
            sock,
            progress_path,
            progress,
        })
    }
}

/// The worker JVM's command line.
fn jvm_command(spec: &WorkerSpec, files: &WorkerFiles) -> Command {
    // The JVM runs in `files.cwd`: paths the user gave relative to their folder are made
    // absolute first.
    let abs = |p: &std::path::Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut cp = std::ffi::OsString::from(abs(&spec.jar).as_os_str());
    for p in &spec.classpath {
        cp.push(":");
        cp.push(abs(p).as_os_str());
    }
    let mut cmd = Command::new(abs(&spec.java));
    cmd.arg(format!("-Xmx{}m", spec.heap_mb.max(16)))
        .args([
            "-Xss4m",
            "-XX:+UseSerialGC",
            "-XX:-UsePerfData",
            "-XX:-OmitStackTraceInFastThrow",
            // Lambdas' own frames (Outer$$Lambda.apply) in stack traces: how the worker tells a
            // callback argument's code from the class that wrote its body (worker's Blame).
            "-XX:+UnlockDiagnosticVMOptions",
            "-XX:+ShowHiddenFrames",
            "-Djava.awt.headless=true",
            // Reflection stays native: no accessor class spun at a method's 16th call. Why:
            // spinning one runs instrumented JDK classes under test (ArrayList) in whichever
            // sequence makes that call, which differs between 1 and 2 workers; and it was
            // slower over a run (390k against 440k statements/s on ArrayList, HashMap and
            // TreeMap), each spun class costing a sequence's second run (Executor.runAgain).
            "-Dsun.reflect.inflationThreshold=2147483647",
            "--add-opens",
            "java.base/java.util=ALL-UNNAMED",
            "--add-opens",
            "java.base/java.lang=ALL-UNNAMED",
        ])
        .args(&spec.extra_jvm_args)
        .arg("-cp")
        .arg(&cp)
        .arg("jforge.worker.Main")
        .arg(&files.sock)
        .arg(&files.progress_path)
        .arg(spec.call_timeout.as_millis().max(1).to_string())
        .arg(
            match spec
                .learned_limit_ms
                .load(std::sync::atomic::Ordering::Relaxed)
            {
                0 => spec.call_timeout.as_millis().max(1) as u64,
                ms => ms.max(COLD_LIMIT.as_millis() as u64),
            }
            .to_string(),
        )
        .current_dir(&files.cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A process group of its own, led by the JVM: whatever the code under test starts
        // (and whatever those start) is in it unless it leaves on purpose, so killing the
        // group when the worker goes leaves nothing behind (see `ProcessGroup`).
        .process_group(0);
    cmd
}

/// The worker JVM's process group (its pid: the JVM leads it).
///
/// Why kill the group and not only the JVM: a process started by the code under test outlives
/// the JVM (users saw thousands of `sleep`s left after a run). The worker kills the ones still
/// running after each sequence (they are its descendants); the group catches the rest, such as
/// grandchildren whose parent exited, which are no one's descendants any more.
///
/// Why only once, and before the JVM is reaped: while the leader is a zombie its pid cannot be
/// reused, so the group id names our group and nothing else.
struct ProcessGroup {
    pgid: Option<rustix::process::Pid>,
}

impl ProcessGroup {
    fn of(child: &Child) -> ProcessGroup {
        // never 0 or 1 (kill(0) and kill(-1) would signal far more than the worker)
        let pgid = i32::try_from(child.id())
            .ok()
            .filter(|&p| p > 1)
            .and_then(rustix::process::Pid::from_raw);
        ProcessGroup { pgid }
    }

    /// SIGKILL to every process of the group; later calls do nothing.
    fn kill(&mut self) {
        if let Some(p) = self.pgid.take() {
            // ESRCH (the group is empty) is fine
            let _ = rustix::process::kill_process_group(p, rustix::process::Signal::KILL);
        }
    }
}

/// Whether the child has exited, asked without reaping it (WNOWAIT), so that its process group
/// can still be killed safely (see [`ProcessGroup`]).
fn exited_unreaped(child: &mut Child) -> bool {
    use rustix::process::{Pid, WaitId, WaitIdOptions, waitid};
    let opts = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    match i32::try_from(child.id()).ok().and_then(Pid::from_raw) {
        Some(pid) => match waitid(WaitId::Pid(pid), opts) {
            Ok(r) => r.is_some(),
            // waitid refused: ask std, which reaps (the group is killed right after)
            Err(_) => matches!(child.try_wait(), Ok(Some(_))),
        },
        None => matches!(child.try_wait(), Ok(Some(_))),
    }
}

/// Waits for the worker JVM to connect to the socket (or to die, or to time out).
fn accept_worker(
    listener: &UnixListener,
    child: &mut Child,
    group: &mut ProcessGroup,
    stderr: &Mutex<Tail>,
    stdout: &Mutex<Tail>,
    java: &std::path::Path,
) -> Result<UnixStream> {
    let t0 = Instant::now();
    loop {
        match listener.accept() {
            Ok((s, _)) => return Ok(s),
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if exited_unreaped(child) {
                    group.kill();
                    let st = child.wait()?;
                    std::thread::sleep(Duration::from_millis(50));
                    // The JVM reports a failed boot (a module layer it cannot build) on
                    // stdout, other failures on stderr: both are shown.
                    let err = stderr.lock().map(|t| t.text()).unwrap_or_default();
                    let out = stdout.lock().map(|t| t.text()).unwrap_or_default();
                    bail!(
                        "the worker JVM ({}) exited with {st} before connecting; its output:\n{}\n{}",
                        java.display(),
                        out.trim_end(),
                        err.trim_end()
                    );
                }
                if t0.elapsed() > START_TIMEOUT {
                    group.kill();
                    let _ = child.kill();
                    let _ = child.wait();
                    bail!("the worker JVM did not connect within {START_TIMEOUT:?}");
                }
                std::thread::sleep(Duration::from_millis(2));
            }
            Err(e) => {
                group.kill();
                let _ = child.kill();
                let _ = child.wait();
                return Err(e).context("accepting the worker connection");
            }
        }
    }
}

impl Worker {
    pub fn start(spec: &WorkerSpec, index: usize) -> Result<Worker> {
        let t0 = Instant::now();
        let files = WorkerFiles::create()?;
        let mut child = jvm_command(spec, &files).spawn().with_context(|| {
            format!(
                "cannot start {}: check --java / JAVA_HOME",
                spec.java.display()
            )
        })?;
        let mut group = ProcessGroup::of(&child);
        let stderr = Arc::new(Mutex::new(Tail::default()));
        let stdout = Arc::new(Mutex::new(Tail::default()));
        if let Some(e) = child.stderr.take() {
            drain(e, stderr.clone());
        }
        if let Some(o) = child.stdout.take() {
            drain(o, stdout.clone());
        }
        let stream = accept_worker(
            &files.listener,
            &mut child,
            &mut group,
            &stderr,
            &stdout,
            &spec.java,
        )?;
        stream.set_nonblocking(false)?;
        stream.set_read_timeout(Some(TICK))?;
        stream.set_write_timeout(Some(REQUEST_TIMEOUT))?;
        let mut w = Worker {
            index,
            child,
            group,
            stream,
            rbuf: Vec::with_capacity(1 << 16),
            chunk: Vec::new(),
            rpos: 0,
            _dir: files.dir,
            progress: files.progress,
            stderr,
            stdout,
            types: TypeTable::default(),
            classes: ClassTable::default(),
            registered: 0,
            next_tag: 0,
            same_batch: false,
            hard_limit: spec.hard_limit(),
            deadline: None,
            killed: false,
            exit: None,
            peak_rss_kb: 0,
            spent: spec.spent.clone(),
            learned_limit_ms: spec.learned_limit_ms.clone(),
        };
        w.handshake(&spec.jar)?;
        WorkerTime::add(&spec.spent, |t| {
            t.start += t0.elapsed();
            t.starts += 1;
        });
        Ok(w)
    }

    /// Reads HELLO and refuses a worker of another protocol version.
    fn handshake(&mut self, jar: &std::path::Path) -> Result<()> {
        let hello = match self.read_frame(Some(START_TIMEOUT), false) {
            Ok(f) => f,
            Err(ReadErr::Dead | ReadErr::Deadline) => bail!(
                "the worker JVM died during the handshake; stderr:\n{}",
                self.stderr_tail()
            ),
            Err(ReadErr::Other(e)) => return Err(e),
        };
        let hello = protocol::decode_hello(&hello).map_err(internal)?;
        protocol::check_version(hello.version, jar)
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn stderr_tail(&self) -> String {
        self.stderr.lock().map(|t| t.text()).unwrap_or_default()
    }

    pub fn stdout_tail(&self) -> String {
        self.stdout.lock().map(|t| t.text()).unwrap_or_default()
    }

    /// Current VmHWM of the process in KiB (also remembered as the peak).
    pub fn sample_rss(&mut self) -> u64 {
        if let Ok(s) = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())) {
            for l in s.lines() {
                if let Some(v) = l.strip_prefix("VmHWM:") {
                    let kb: u64 = v.trim().trim_end_matches("kB").trim().parse().unwrap_or(0);
                    self.peak_rss_kb = self.peak_rss_kb.max(kb);
                }
            }
        }
        self.peak_rss_kb
    }

    fn epoch(&self) -> u32 {
        let mut b = [0u8; 4];
        match self.progress.read_at(&mut b, P_EPOCH as u64) {
            Ok(4) => u32::from_be_bytes(b),
            _ => 0,
        }
    }

    /// Reads one frame. `total`: overall limit; `watch_epoch`: also kill after `hard_limit`
    /// without progress in the worker.
    fn read_frame(
        &mut self,
        total: Option<Duration>,
        watch_epoch: bool,
    ) -> Result<Vec<u8>, ReadErr> {
        let t0 = Instant::now();
        // The progress epoch is read only once the socket has nothing (a pread per frame
        // would cost more than decoding it).
        let mut last_epoch = None;
        let mut last_change = Instant::now();
        let mut chunk = std::mem::take(&mut self.chunk);
        chunk.resize(64 * 1024, 0);
        let r = self.read_frame_into(
            total,
            watch_epoch,
            t0,
            &mut last_epoch,
            &mut last_change,
            &mut chunk,
        );
        self.chunk = chunk;
        r
    }

    fn read_frame_into(
        &mut self,
        total: Option<Duration>,
        watch_epoch: bool,
        t0: Instant,
        last_epoch: &mut Option<u32>,
        last_change: &mut Instant,
        chunk: &mut [u8],
    ) -> Result<Vec<u8>, ReadErr> {
        loop {
            let avail = &self.rbuf[self.rpos..];
            if avail.len() >= 4 {
                let len = u32::from_be_bytes(avail[..4].try_into().unwrap_or([0; 4])) as usize;
                if len == 0 || len > protocol::MAX_FRAME {
                    return Err(ReadErr::Other(internal(anyhow::anyhow!(
                        "protocol error: bad frame length {len}"
                    ))));
                }
                if avail.len() >= 4 + len {
                    let frame = avail[4..4 + len].to_vec();
                    self.rpos += 4 + len;
                    if self.rpos == self.rbuf.len() {
                        self.rbuf.clear();
                        self.rpos = 0;
                    }
                    return Ok(frame);
                }
            }
            match self.stream.read(chunk) {
                Ok(0) => return Err(ReadErr::Dead),
                Ok(n) => {
                    if self.rpos > 0 {
                        self.rbuf.drain(..self.rpos);
                        self.rpos = 0;
                    }
                    self.rbuf.extend_from_slice(&chunk[..n]);
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    if watch_epoch {
                        let ep = self.epoch();
                        if *last_epoch != Some(ep) {
                            *last_epoch = Some(ep);
                            *last_change = Instant::now();
                        } else if last_change.elapsed() > self.hard_limit {
                            self.kill();
                            return Err(ReadErr::Dead);
                        }
                    }
                    if total.is_some_and(|t| t0.elapsed() > t) {
                        self.kill();
                        return Err(ReadErr::Dead);
                    }
                    if self.deadline.is_some_and(|d| Instant::now() >= d) {
                        self.kill();
                        return Err(ReadErr::Deadline);
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return Err(ReadErr::Dead),
            }
        }
    }

    fn send(&mut self, frame: &[u8]) -> Result<(), ReadErr> {
        match self.stream.write_all(frame) {
            Ok(()) => Ok(()),
            Err(_) => Err(ReadErr::Dead),
        }
    }

    fn dead_error(&mut self, what: &str) -> anyhow::Error {
        let st = self.wait_exit();
        anyhow::anyhow!(
            "the worker JVM died during {what} ({}); stderr tail:\n{}",
            st.map(|s| s.to_string()).unwrap_or_else(|| "killed".into()),
            self.stderr_tail().trim_end()
        )
    }

    /// Registers `ops[self.registered..]`. Returns the ops that failed to resolve.
    pub fn register(&mut self, ops: &[Operation]) -> Result<Vec<(OpId, String)>> {
        if self.registered >= ops.len() {
            return Ok(Vec::new());
        }
        let t0 = Instant::now();
        let frame = protocol::encode_register(self.registered as u32, &ops[self.registered..]);
        let r = self
            .send(&frame)
            .and_then(|_| self.read_frame(Some(REQUEST_TIMEOUT), false));
        WorkerTime::add(&self.spent, |t| t.register += t0.elapsed());
        match r {
            Ok(f) => {
                let failed = protocol::decode_registered(&f).map_err(internal)?;
                self.registered = ops.len();
                Ok(failed)
            }
            Err(ReadErr::Dead | ReadErr::Deadline) => {
                Err(self.dead_error("operation registration"))
            }
            Err(ReadErr::Other(e)) => Err(e),
        }
    }

    fn simple_request(&mut self, frame: Vec<u8>, what: &str) -> Result<Vec<u8>> {
        match self
            .send(&frame)
            .and_then(|_| self.read_frame(Some(REQUEST_TIMEOUT), false))
        {
            Ok(f) => Ok(f),
            Err(ReadErr::Dead | ReadErr::Deadline) => Err(self.dead_error(what)),
            Err(ReadErr::Other(e)) => Err(e),
        }
    }

    pub fn class_bytes(&mut self, name: &str) -> Result<Option<Vec<u8>>> {
        let f = self.simple_request(
            protocol::encode_str_request(protocol::CLASS_BYTES, name),
            "a class lookup",
        )?;
        protocol::decode_bytes(&f).map_err(internal)
    }

    pub fn list_classes(&mut self, prefix: &str) -> Result<Vec<String>> {
        let f = self.simple_request(
            protocol::encode_str_request(protocol::LIST_CLASSES, prefix),
            "a class listing",
        )?;
        protocol::decode_list(&f).map_err(internal)
    }

    /// Runs `reqs` in order, appending one result per request to `out`, until all ran or the
    /// worker died (then the blamed request's result is appended and `Died` returned; the
    /// worker must be replaced).
    /// As [`Worker::run`], but a request still running at `deadline` is given up: the worker
    /// is killed and [`RunEnd::Stopped`] returned (a hanging call no longer holds a run past
    /// its time limit for a whole call timeout).
    /// The next frame continues the batch of the previous one: the operations and value
    /// classes that hung in that frame still keep the batch's generation sequences that
    /// would call them from running (the pool cuts a batch into chunks, one frame each).
    pub fn same_batch(&mut self) {
        self.same_batch = true;
    }

    pub fn run_until(
        &mut self,
        reqs: &[ExecRequest],
        out: &mut Vec<SeqResult>,
        deadline: Option<Instant>,
    ) -> Result<RunEnd> {
        self.deadline = deadline;
        let r = self.run(reqs, out);
        self.deadline = None;
        r
    }

    pub fn run(&mut self, reqs: &[ExecRequest], out: &mut Vec<SeqResult>) -> Result<RunEnd> {
        if reqs.is_empty() {
            return Ok(RunEnd::Done);
        }
        let base = self.next_tag;
        self.next_tag += reqs.len() as u32;
        let frame = protocol::encode_exec(
            &mut self.types,
            reqs.iter().enumerate().map(|(i, r)| (base + i as u32, r)),
            std::mem::take(&mut self.same_batch),
        );
        let mut done = 0usize;
        let t0 = Instant::now();
        let mut last = t0;
        let mut alive = self.send(&frame).is_ok();
        while alive && done < reqs.len() {
            match self.read_frame(None, true) {
                Ok(f) => {
                    let (tag, r) = protocol::decode_result(&f, &mut self.classes, self.index)
                        .context("decoding a worker result")
                        .map_err(internal)?;
                    if tag != base + done as u32 {
                        return Err(internal(anyhow::anyhow!(
                            "protocol error: result for sequence {tag}, expected {}",
                            base + done as u32
                        )));
                    }
                    if r.outcomes.len() != reqs[done].seq.len() {
                        return Err(internal(anyhow::anyhow!(
                            "protocol error: {} outcomes for {} statements",
                            r.outcomes.len(),
                            reqs[done].seq.len()
                        )));
                    }
                    if r.survived {
                        self.note_survived(&r);
                    } else if r.outcomes.contains(&StmtOutcome::Timeout) {
                        WorkerTime::add(&self.spent, |t| {
                            t.timeouts_survived += 1;
                            t.timeouts_survived_time += last.elapsed();
                        });
                    }
                    out.push(r);
                    done += 1;
                    last = Instant::now();
                }
                Err(ReadErr::Dead) => alive = false,
                Err(ReadErr::Deadline) => {
                    WorkerTime::add(&self.spent, |t| t.executing += t0.elapsed());
                    return Ok(RunEnd::Stopped);
                }
                Err(ReadErr::Other(e)) => return Err(e),
            }
        }
        if alive {
            WorkerTime::add(&self.spent, |t| t.executing += t0.elapsed());
            return Ok(RunEnd::Done);
        }
        let (r, kind) = self.postmortem(&reqs[done], base + done as u32);
        out.push(r);
        let lost = last.elapsed();
        WorkerTime::add(&self.spent, |t| {
            t.executing += last - t0;
            match &kind {
                None => t.timeouts += lost,
                Some(k) => *t.crashes.entry(k.counted()).or_default() += lost,
            }
        });
        Ok(RunEnd::Died(kind))
    }

    /// Remembers the call limit the dead worker had adapted to (`adapted` ms, 0 when it had
    /// run too few calls to adapt) as the next worker's starting limit. After a timeout of a
    /// worker that had not adapted yet, the next one starts at [`COLD_LIMIT`] (its own calls
    /// raise it again when they are slow): a hang among the first calls costs the whole
    /// `--call-timeout` once, not at each restart.
    fn learn_limit(&self, adapted: u32, timed_out: bool) {
        let ms = match (adapted, timed_out) {
            (0, true) => COLD_LIMIT.as_millis() as u64,
            (0, false) => return,
            (ms, _) => u64::from(ms),
        };
        self.learned_limit_ms
            .store(ms, std::sync::atomic::Ordering::Relaxed);
    }

    /// Counts the crash a result reports the worker survived.
    fn note_survived(&self, r: &SeqResult) {
        if let Some(StmtOutcome::Crash(k)) = r
            .outcomes
            .iter()
            .find(|o| matches!(o, StmtOutcome::Crash(_)))
        {
            WorkerTime::add(&self.spent, |t| {
                *t.survived.entry(k.counted()).or_default() += 1
            });
        }
    }

    /// Waits up to 5 s for the JVM to exit on its own (then kills it); kills its process
    /// group before reaping it.
    fn wait_exit(&mut self) -> Option<ExitStatus> {
        if self.exit.is_some() {
            return self.exit;
        }
        let t0 = Instant::now();
        while t0.elapsed() < Duration::from_secs(5) {
            if exited_unreaped(&mut self.child) {
                self.group.kill();
                self.exit = self.child.wait().ok();
                return self.exit;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        self.kill();
        self.exit
    }

    /// Kills the process and its process group (SIGKILL) and reaps it.
    pub fn kill(&mut self) {
        self.group.kill();
        if self.exit.is_none() {
            self.killed = true;
            let _ = self.child.kill();
            self.exit = self.child.wait().ok();
        }
    }

    fn postmortem(&mut self, req: &ExecRequest, tag: u32) -> (SeqResult, Option<CrashKind>) {
        let st = self.wait_exit();
        let mut hdr = [0u8; P_DATA as usize];
        let _ = self.progress.read_at(&mut hdr, 0);
        let int = |i: u32| {
            let i = i as usize;
            u32::from_be_bytes(hdr[i..i + 4].try_into().unwrap_or([0; 4]))
        };
        let (p_tag, p_stmt, marker, count, nbytes, nstmt) = (
            int(P_TAG),
            int(P_STMT),
            int(P_MARKER),
            int(P_COUNT),
            int(P_BYTES),
            int(P_NSTMT),
        );
        let n = req.seq.len();
        let matches = p_tag == tag && nstmt as usize == n;
        let code = st.and_then(|s| s.code());
        self.learn_limit(int(P_LIMIT), marker == M_TIMEOUT);
        let kind_outcome = match (marker, self.killed) {
            (M_TIMEOUT, _) if code == Some(HALT_CODE) || !self.killed => StmtOutcome::Timeout,
            (M_OOM, _) => StmtOutcome::Crash(CrashKind::OutOfMemory),
            (M_SOE, _) => StmtOutcome::Crash(CrashKind::StackOverflow),
            (M_LEAKED_THREADS, _) => StmtOutcome::Crash(CrashKind::LeakedThreads),
            (M_LEAKED_PROCESSES, _) => {
                StmtOutcome::Crash(CrashKind::LeakedProcesses(int(P_DETAIL)))
            }
            (M_WROTE_FILES, _) => StmtOutcome::Crash(CrashKind::WroteFiles(int(P_DETAIL))),
            (_, true) => StmtOutcome::Crash(CrashKind::Unresponsive),
            _ => StmtOutcome::Crash(CrashKind::Exited(code)),
        };
        let kind = match &kind_outcome {
            StmtOutcome::Crash(k) => Some(k.clone()),
            _ => None,
        };
        let mut recorded = Vec::new();
        let blame = if matches {
            (p_stmt as usize).min(n.saturating_sub(1))
        } else {
            0
        };
        if matches && nbytes > 0 && (nbytes as u64) < PROGRESS_SIZE - P_DATA as u64 {
            let mut data = vec![0u8; nbytes as usize];
            if self.progress.read_at(&mut data, P_DATA as u64).is_ok() {
                let mut d = Dec::new(&data);
                let mut classes = self.classes.clone();
                for _ in 0..count.min(n as u32) {
                    match protocol::decode_outcome(&mut d, &mut classes) {
                        Ok(o) => recorded.push(o),
                        Err(_) => break,
                    }
                }
            }
        }
        let outcomes = (0..n)
            .map(|i| match i.cmp(&blame) {
                std::cmp::Ordering::Less => recorded.get(i).cloned().unwrap_or(StmtOutcome::NotRun),
                std::cmp::Ordering::Equal => kind_outcome.clone(),
                std::cmp::Ordering::Greater => StmtOutcome::NotRun,
            })
            .collect();
        (
            SeqResult {
                outcomes,
                violations: Vec::new(),
                observers: Vec::new(),
                worker: self.index,
                coverage: None,
                compared: Vec::new(),
                compared_nums: Vec::new(),
                forms: Vec::new(),
                clock_reads: 0,
                thrown: None,
                survived: false,
                trace: None,
            },
            kind,
        )
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        // SIGKILL: nothing in the worker is worth an orderly shutdown, and a hung one would not
        // answer anyway.
        self.kill();
    }
}
