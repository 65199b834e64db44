//! The run context every generator shares, set up before any of them runs: the JDK, the class
//! path, the model of the classes under test, and a pool of worker JVMs started only when
//! something first needs it.
//!
//! Why one type: `gen` and `exhaustive` each did this set-up by hand and drifted (how JDK
//! classes are read, when workers start, how a class is looked up). A generator receives a
//! `Session` and asks it for classes and for the pool; it does not start JVMs itself.
//!
//! Why lazily: JDK classes come from the JDK's `jmods` when it has them (no JVM needed), and a
//! generator may change the workers' class path or JVM options before they start (coverage
//! runs instrumented copies of the classes under test); a pool started first would be thrown
//! away. On a JDK without jmods the pool starts early because it serves JDK class bytes
//! through `jrt:/`; changing the worker settings then restarts it once.
//!
//! More than one pool: a generator that runs several searches at once (builders: observer
//! detection beside the bounded search space, a pool writing canonical forms as text) asks
//! for a [`PoolMaker`], which starts pools with the session's JDK, class path and worker
//! settings plus JVM options of its own. Nothing else starts worker JVMs.

use crate::model::Model;
use crate::model::classpath::{ClassPath, JdkClasses, JmodClasses};
use crate::runner::java::{JavaHome, find_java};
use crate::runner::{Pool, PoolConfig};
use crate::select;
use anyhow::{Result, bail};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How worker JVMs are started.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerSettings {
    pub call_timeout: Duration,
    /// Heap of each worker JVM in MiB (0: the JVM's default).
    pub heap_mb: u32,
    /// Put before the user class path (e.g. instrumented copies of the classes under test).
    pub classpath_prefix: Vec<PathBuf>,
    pub extra_jvm_args: Vec<String>,
}

impl Default for WorkerSettings {
    fn default() -> Self {
        WorkerSettings {
            call_timeout: Duration::from_secs(5),
            heap_mb: 0,
            classpath_prefix: Vec::new(),
            extra_jvm_args: Vec::new(),
        }
    }
}

pub struct Session {
    pub java: JavaHome,
    /// The user's class path, jars given with `--jar` included.
    pub entries: Vec<PathBuf>,
    pub cp: ClassPath,
    pub workers: usize,
    pub model: Model,
    /// `--shard I/N`: the classes under test are those of this shard (see `crate::shard`).
    pub shard: Option<crate::shard::Shard>,
    jmods: Option<JmodClasses>,
    pool: Option<Pool>,
    settings: WorkerSettings,
    /// The settings the running pool was started with.
    started_with: Option<WorkerSettings>,
    /// The javac kept warm for the check, once [`Session::start_javac`] started it or
    /// [`Session::use_javac`] gave it (`None` inside when it could not start: the check then
    /// runs the javac program).
    javac: std::sync::OnceLock<Option<std::sync::Arc<crate::emit::validate::JavacServer>>>,
}

/// Starts pools with a session's JDK, class path and worker settings: for generators that
/// need several pools (each with JVM options of its own) besides [`Session::pool`]. `Send`
/// and cheap to clone, so a pool can be started on another thread while one runs.
#[derive(Clone, Debug)]
pub struct PoolMaker {
    base: PoolConfig,
}

impl PoolMaker {
    /// The configuration of a pool with these JVM options added to the session's.
    pub fn config(&self, extra_jvm_args: Vec<String>) -> PoolConfig {
        let mut c = self.base.clone();
        c.extra_jvm_args.extend(extra_jvm_args);
        c
    }

    /// Starts a pool with these JVM options added to the session's.
    pub fn start(&self, extra_jvm_args: Vec<String>) -> Result<Pool> {
        use anyhow::Context;
        Pool::start(self.config(extra_jvm_args)).context("starting the worker JVMs")
    }

    pub fn workers(&self) -> usize {
        self.base.workers
    }
}

/// JDK classes from the jmods when the JDK has them, else from a worker.
enum Jdk<'a> {
    Jmods(&'a mut JmodClasses),
    Pool(&'a mut Pool),
}

impl JdkClasses for Jdk<'_> {
    fn class_bytes(&mut self, n: &str) -> Result<Option<Vec<u8>>> {
        match self {
            Jdk::Jmods(j) => j.class_bytes(n),
            Jdk::Pool(p) => p.class_bytes(n),
        }
    }
    fn list_classes(&mut self, p: &str) -> Result<Vec<String>> {
        match self {
            Jdk::Jmods(j) => j.list_classes(p),
            Jdk::Pool(pool) => pool.list_classes(p),
        }
    }
    fn module_of(&mut self, n: &str) -> Option<String> {
        match self {
            Jdk::Jmods(j) => j.module_of(n),
            Jdk::Pool(_) => None,
        }
    }
}

impl Session {
    /// Finds the JDK and reads the class path; starts no JVM unless the JDK has no jmods.
    pub fn open(
        java: Option<&Path>,
        classpath: &str,
        jars: &[PathBuf],
        workers: Option<usize>,
        settings: WorkerSettings,
    ) -> Result<Session> {
        let java = find_java(java)?;
        let mut entries: Vec<PathBuf> = ClassPath::parse(classpath)?.entries().to_vec();
        for j in jars {
            if !entries.contains(j) {
                entries.push(j.clone());
            }
        }
        let cp = ClassPath::new(&entries)?;
        let workers = workers
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
            .max(1);
        let jmods = JmodClasses::open(&java.home)?;
        Ok(Session {
            java,
            entries,
            cp,
            workers,
            model: Model::new(),
            shard: None,
            jmods,
            pool: None,
            settings,
            started_with: None,
            javac: std::sync::OnceLock::new(),
        })
    }

    /// Starts, once, a javac that stays up for the check of the written tests
    /// (`crate::emit::validate::JavacServer`), with a warm-up compile when `warm_up`. A
    /// command calls it before the check, so that the JVM boots (and warms up) beside other
    /// work. Without a javac, or when it cannot start, the check runs the javac program as it
    /// would have.
    pub fn start_javac(&self, warm_up: bool) {
        self.javac.get_or_init(|| {
            self.java.javac.as_ref()?;
            crate::emit::validate::JavacServer::start(&self.java.java, warm_up)
                .ok()
                .map(std::sync::Arc::new)
        });
    }

    /// Makes the check use this javac server (one a caller shares between sessions: `gen
    /// --per-class`); a session that has one already keeps it.
    pub fn use_javac(&self, server: std::sync::Arc<crate::emit::validate::JavacServer>) {
        let _ = self.javac.set(Some(server));
    }

    /// The javac server [`Session::start_javac`] started, if it did.
    pub fn javac_server(&self) -> Option<std::sync::Arc<crate::emit::validate::JavacServer>> {
        self.javac.get().cloned().flatten()
    }

    fn config(&self) -> PoolConfig {
        let mut classpath = self.settings.classpath_prefix.clone();
        classpath.extend(self.entries.iter().cloned());
        PoolConfig {
            java: self.java.java.clone(),
            classpath,
            workers: self.workers,
            call_timeout: self.settings.call_timeout,
            heap_mb: self.settings.heap_mb,
            extra_jvm_args: self.settings.extra_jvm_args.clone(),
        }
    }

    /// The worker pool, started (or restarted, when the settings changed) on first use.
    pub fn pool(&mut self) -> Result<&mut Pool> {
        if self.started_with.as_ref() != Some(&self.settings)
            && let Some(old) = self.pool.take()
        {
            old.shutdown();
        }
        if self.pool.is_none() {
            self.pool = Some(Pool::start(self.config())?);
            self.started_with = Some(self.settings.clone());
        }
        match self.pool.as_mut() {
            Some(p) => Ok(p),
            None => anyhow::bail!("internal error: the worker pool did not start"),
        }
    }

    /// The worker pool, started if needed, handed over to the caller (who then holds the
    /// model borrowed and the pool mutably at once, as a generator does).
    pub fn take_pool(&mut self) -> Result<Pool> {
        self.pool()?;
        self.started_with = None;
        match self.pool.take() {
            Some(p) => Ok(p),
            None => anyhow::bail!("internal error: the worker pool did not start"),
        }
    }

    /// A maker of further pools like this session's (see [`PoolMaker`]): same JDK, class path
    /// (prefix included), workers, heap and call timeout; the JVM options are the caller's
    /// (the session's own serve its pool's purpose, e.g. exhaustive's scope bound).
    pub fn pool_maker(&self) -> PoolMaker {
        let mut base = self.config();
        base.extra_jvm_args.clear();
        PoolMaker { base }
    }

    /// Loads the classes the user named (`Outer.Inner` accepted, near names suggested when
    /// one is unknown), refuses classes that are not public (`why` says what the public API
    /// is needed for), and loads the helper classes their operations need. Returns the
    /// binary names: with `--shard`, only the classes of this shard (an error when it holds
    /// none of them: a shard with nothing to test is a mistake in the shard count).
    pub fn load_classes_under_test(&mut self, asked: &[String], why: &str) -> Result<Vec<String>> {
        let shard = self.shard;
        self.with_classes(|model, cp, jdk| {
            let mut classes = Vec::new();
            for asked in asked {
                let asked = select::normalize(asked);
                let found =
                    select::find_class(&asked, &mut |n| Ok(model.load(cp, jdk, n)?.is_some()))?;
                let Some(ci) = found.as_deref().and_then(|c| model.get(c)) else {
                    return Err(select::unknown_class_error(&asked, cp, jdk));
                };
                let c = ci.name.clone();
                if !ci.is_public() || !model.is_accessible(&c) {
                    bail!("class {c} is not public: {why}");
                }
                classes.push(c);
            }
            if let Some(s) = shard {
                let all = classes.len();
                classes = s.select(&classes);
                if classes.is_empty() {
                    bail!(
                        "shard {s} holds none of the {all} classes named with --class: use at most as many shards as classes (a class's shard depends on its name alone)"
                    );
                }
            }
            crate::model::producers::load_closure(model, cp, jdk, &classes, &[]);
            Ok(classes)
        })
    }

    /// Changes how workers start; a running pool is replaced on the next [`Session::pool`].
    pub fn set_worker_settings(&mut self, settings: WorkerSettings) {
        self.settings = settings;
    }

    pub fn worker_settings(&self) -> &WorkerSettings {
        &self.settings
    }

    /// Runs `f` with the model, the class path and a source of JDK class bytes (the jmods,
    /// else the pool, started if needed).
    pub fn with_classes<R>(
        &mut self,
        f: impl FnOnce(&mut Model, &ClassPath, &mut dyn JdkClasses) -> Result<R>,
    ) -> Result<R> {
        if self.jmods.is_none() {
            self.pool()?;
        }
        let mut jdk = match (self.jmods.as_mut(), self.pool.as_mut()) {
            (Some(j), _) => Jdk::Jmods(j),
            (None, Some(p)) => Jdk::Pool(p),
            (None, None) => anyhow::bail!("internal error: no source of JDK classes"),
        };
        f(&mut self.model, &self.cp, &mut jdk)
    }

    /// Opens a session only to look at the classes and closes it: `f` gets the model, the
    /// class path, the JDK's classes and the JDK's feature release. No worker starts unless
    /// the JDK has no jmods (one that did is stopped before returning). `gen --per-class`
    /// selects its classes this way once, then each class's run opens its own session.
    pub fn look<R>(
        java: Option<&Path>,
        classpath: &str,
        jars: &[PathBuf],
        workers: Option<usize>,
        f: impl FnOnce(&mut Model, &ClassPath, &mut dyn JdkClasses, u32) -> Result<R>,
    ) -> Result<R> {
        let mut session = Session::open(java, classpath, jars, workers, WorkerSettings::default())?;
        let feature = session.java.version;
        let r = session.with_classes(|model, cp, jdk| f(model, cp, jdk, feature));
        session.shutdown();
        r
    }

    /// Stops the workers, if any ran.
    pub fn shutdown(&mut self) {
        if let Some(p) = self.pool.take() {
            p.shutdown();
        }
    }
}
