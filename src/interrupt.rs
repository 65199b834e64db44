//! Ctrl-C, SIGTERM and SIGHUP: an interrupted run leaves nothing behind.
//!
//! Every temporary folder jforge makes (worker sockets, coverage set-up, the final check, the
//! staging folder of the output) is created through [`temp_dir`] / [`temp_dir_in`], and every
//! lock file through [`register_file`], so that the handler knows what to remove. On a signal
//! the handler (a thread of the `ctrlc` crate, not signal context) takes the registry lock,
//! kills this process's child processes (worker JVMs, javac, the JVM of the final check: a
//! `kill -INT <pid>` reaches jforge alone, unlike Ctrl-C, which the terminal sends to the
//! whole foreground process group), removes every registered path and exits with status 130.
//! Holding the registry lock until the exit means no new temporary folder (and so no new
//! worker, which needs one for its socket) can appear behind the handler's back.
//!
//! The few renames that put a checked suite in place run in a [`critical`] section: a signal
//! that arrives then is served right after it, so an output folder never holds half a suite.

use anyhow::anyhow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, OnceLock};

/// Exit status of an interrupted run (128 + SIGINT, what shells report for Ctrl-C).
pub const EXIT_INTERRUPTED: i32 = 130;

#[derive(Debug)]
enum Kind {
    Dir,
    File,
    /// A folder the run created: removed when empty.
    EmptyDir,
}

struct Registry {
    next: u64,
    paths: BTreeMap<u64, (Kind, PathBuf)>,
    /// Depth of [`critical`] sections in progress.
    critical: usize,
    /// A signal came during a critical section.
    pending: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    next: 0,
    paths: BTreeMap::new(),
    critical: 0,
    pending: false,
});
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();

fn lock() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

impl Registry {
    fn add(&mut self, kind: Kind, path: &Path) -> u64 {
        let id = self.next;
        self.next += 1;
        self.paths.insert(id, (kind, path.to_path_buf()));
        id
    }
}

/// Install the handler (once per process; later calls do nothing).
pub fn install() -> anyhow::Result<()> {
    INSTALLED
        .get_or_init(|| ctrlc::set_handler(on_signal).map_err(|e| e.to_string()))
        .clone()
        .map_err(|e| anyhow!("cannot install the Ctrl-C handler: {e}"))
}

/// Whether a signal arrived.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

fn on_signal() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let mut reg = lock();
    if reg.critical > 0 {
        reg.pending = true;
        return;
    }
    clean_up_and_exit(reg)
}

fn clean_up_and_exit(reg: MutexGuard<'static, Registry>) -> ! {
    eprintln!("\njforge: interrupted; stopping the worker JVMs and removing temporary files");
    kill_children();
    // Newest first: a staging folder and a lock file go before the output folder they are in.
    for (kind, path) in reg.paths.values().rev() {
        match kind {
            Kind::File => {
                let _ = std::fs::remove_file(path);
            }
            Kind::Dir => remove_dir_retrying(path),
            Kind::EmptyDir => {
                let _ = std::fs::remove_dir(path);
            }
        }
    }
    kill_children();
    std::process::exit(EXIT_INTERRUPTED)
}

/// The main thread may still be writing into the folder: retry a few times.
fn remove_dir_retrying(path: &Path) {
    for _ in 0..10 {
        match std::fs::remove_dir_all(path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                std::thread::sleep(std::time::Duration::from_millis(20))
            }
            _ => return,
        }
    }
}

/// Kill this process's children (Linux: found through /proc). Elsewhere the worker JVMs stop
/// by themselves when their socket closes, after their current call.
fn kill_children() {
    let me = std::process::id();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return;
    };
    for e in dir.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        if parent_of(pid) == Some(me) {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
    }
}

/// Parent pid from `/proc/PID/stat` ("pid (comm) state ppid ...", comm may hold anything).
fn parent_of(pid: i32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// Run `f` so that a signal arriving meanwhile is served after it (see the module docs).
pub fn critical<T>(f: impl FnOnce() -> T) -> T {
    lock().critical += 1;
    let r = f();
    let mut reg = lock();
    reg.critical -= 1;
    if reg.pending && reg.critical == 0 {
        clean_up_and_exit(reg);
    }
    r
}

/// For the end of a command: when a signal arrived, the handler is removing temporary files
/// and will exit with status 130; the main thread must not report an error (a worker killed
/// by the signal) or success meanwhile.
pub fn settle<T>(r: anyhow::Result<T>) -> anyhow::Result<T> {
    if interrupted() {
        loop {
            std::thread::park();
        }
    }
    r
}

/// A temporary folder that the signal handler removes too. Removed on drop.
pub struct TempDir {
    inner: Option<tempfile::TempDir>,
    id: u64,
}

impl TempDir {
    pub fn path(&self) -> &Path {
        self.inner.as_ref().map_or(Path::new(""), |t| t.path())
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        // Under the registry lock, so that the handler never misses a folder.
        let mut reg = lock();
        reg.paths.remove(&self.id);
        drop(self.inner.take());
    }
}

/// `builder.tempdir()`, registered with the handler.
pub fn temp_dir(builder: &tempfile::Builder) -> std::io::Result<TempDir> {
    let mut reg = lock();
    let t = builder.tempdir()?;
    let id = reg.add(Kind::Dir, t.path());
    Ok(TempDir { inner: Some(t), id })
}

/// `builder.tempdir_in(dir)`, registered with the handler.
pub fn temp_dir_in(builder: &tempfile::Builder, dir: &Path) -> std::io::Result<TempDir> {
    let mut reg = lock();
    let t = builder.tempdir_in(dir)?;
    let id = reg.add(Kind::Dir, t.path());
    Ok(TempDir { inner: Some(t), id })
}

/// A file the handler removes (a lock file); unregistered, not removed, on drop.
pub struct Registration(u64);

pub fn register_file(path: &Path) -> Registration {
    Registration(lock().add(Kind::File, path))
}

/// A folder the run created, which the handler removes if it is empty; unregistered on drop.
pub fn register_created_dir(path: &Path) -> Registration {
    Registration(lock().add(Kind::EmptyDir, path))
}

impl Drop for Registration {
    fn drop(&mut self) {
        lock().paths.remove(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_dirs_are_registered_until_dropped() {
        let t = temp_dir(tempfile::Builder::new().prefix("jforge-int")).unwrap();
        let p = t.path().to_path_buf();
        assert!(p.is_dir());
        assert!(lock().paths.values().any(|(_, q)| *q == p));
        drop(t);
        assert!(!p.exists());
        assert!(!lock().paths.values().any(|(_, q)| *q == p));
    }

    #[test]
    fn parent_pid_of_self() {
        if Path::new("/proc/self/stat").exists() {
            let me = std::process::id() as i32;
            assert!(parent_of(me).is_some_and(|p| p > 0));
        }
    }
}
