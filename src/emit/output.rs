//! Putting a command's tests into a project's folders without losing anything.
//!
//! - **Lock.** The output folder (and the folder of error-revealing tests) is locked for the
//!   whole run: `.jforge.lock` inside it, held with an OS file lock (`File::try_lock`,
//!   released by the OS when the process dies) and holding the pid. A second run fails at once
//!   and names the pid. The file is removed on release; a run that locked a file another run
//!   just removed notices (the path no longer leads to its file) and locks again.
//! - **Staging.** Files are written to a hidden `.jforge-staging-*` folder inside each target
//!   folder (same file system, so renames are atomic) and the final check runs on them there.
//!   Only [`RunOutput::install`] moves them into place, in an [`interrupt::critical`] section.
//!   A run that fails or is interrupted before leaves the earlier suite as it was.
//! - **Replacing.** A run replaces exactly the files whose marker (see `suite`) names its own
//!   command and only classes it tests: they are overwritten or deleted at install and
//!   counted. Files without a marker (hand-written, or from a jforge without markers) and files
//!   of other commands or classes are never touched; a new file whose name is taken by one
//!   gets another name.

use super::stored::StoredTest;
use super::suite::{
    Marker, Placement, Rendered, Replay, Root, SuiteSpec, Tool, check_package, render_suite,
};
use super::{EmitConfig, TestCase, WrittenFile};
use crate::interrupt;
use anyhow::{Context, Result, bail};
use std::collections::{BTreeSet, HashMap};
use std::fs::{File, OpenOptions};
use std::io::Write as _;
use std::path::{Component, Path, PathBuf};

const LOCK_FILE: &str = ".jforge.lock";
const STAGING_PREFIX: &str = ".jforge-staging-";
/// Default folder of error-revealing tests, a sibling of the output folder.
pub const ERROR_DIR_NAME: &str = "jforge-error-tests";

/// An OS lock on a folder for one run.
struct DirLock {
    path: PathBuf,
    _file: File,
    _registration: interrupt::Registration,
}

impl DirLock {
    fn acquire(dir: &Path, flag: &str) -> Result<DirLock> {
        let path = dir.join(LOCK_FILE);
        for _ in 0..20 {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
                .with_context(|| {
                    format!(
                        "cannot create the lock file {}: choose another {flag}",
                        path.display()
                    )
                })?;
            match file.try_lock() {
                Ok(()) => {}
                Err(std::fs::TryLockError::WouldBlock) => {
                    let pid = std::fs::read_to_string(&path)
                        .ok()
                        .and_then(|s| s.trim().parse::<u32>().ok())
                        .map_or("unknown".to_string(), |p| p.to_string());
                    bail!(
                        "another jforge run is writing to {} (pid {pid}); wait for it or choose another {flag}",
                        dir.display()
                    );
                }
                Err(std::fs::TryLockError::Error(e))
                    if e.kind() == std::io::ErrorKind::Unsupported =>
                {
                    eprintln!(
                        "warning: {} cannot be locked on this file system ({e}); do not run two jforge runs into it at once",
                        dir.display()
                    );
                }
                Err(std::fs::TryLockError::Error(e)) => {
                    return Err(e).with_context(|| {
                        format!("cannot lock {}: choose another {flag}", path.display())
                    });
                }
            }
            if !same_file(&file, &path) {
                // A run that just finished removed the file we opened: lock the new one.
                continue;
            }
            let mut f = &file;
            f.set_len(0)
                .and_then(|_| writeln!(f, "{}", std::process::id()))
                .with_context(|| format!("cannot write the lock file {}", path.display()))?;
            let registration = interrupt::register_file(&path);
            return Ok(DirLock {
                path,
                _file: file,
                _registration: registration,
            });
        }
        bail!(
            "cannot lock {}: other jforge runs keep starting and stopping there; choose another {flag}",
            dir.display()
        )
    }
}

fn same_file(f: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (f.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        // Still locked here: a run waiting on this file notices it was removed.
        let _ = std::fs::remove_file(&self.path);
    }
}

/// One folder a run writes to, with its lock and staging folder.
struct Target {
    dir: PathBuf,
    staging: Option<interrupt::TempDir>,
    lock: Option<DirLock>,
    /// The run created the folder: removed again when nothing was put in it.
    created: Option<interrupt::Registration>,
}

impl Target {
    fn open(dir: &Path, flag: &'static str) -> Result<Target> {
        let created = !dir.exists();
        std::fs::create_dir_all(dir).with_context(|| {
            format!(
                "cannot create output folder {}: choose another {flag}",
                dir.display()
            )
        })?;
        let created = created.then(|| interrupt::register_created_dir(dir));
        let lock = DirLock::acquire(dir, flag)?;
        // Left by a run that was killed (SIGKILL): nobody else writes here while we hold the lock.
        if let Ok(rd) = std::fs::read_dir(dir) {
            for e in rd.flatten() {
                if e.file_name().to_string_lossy().starts_with(STAGING_PREFIX) {
                    let _ = std::fs::remove_dir_all(e.path());
                }
            }
        }
        let staging = interrupt::temp_dir_in(tempfile::Builder::new().prefix(STAGING_PREFIX), dir)
            .with_context(|| {
                format!(
                    "cannot write to output folder {}: choose another {flag}",
                    dir.display()
                )
            })?;
        Ok(Target {
            dir: dir.to_path_buf(),
            staging: Some(staging),
            lock: Some(lock),
            created,
        })
    }

    fn staging(&self) -> &Path {
        self.staging.as_ref().map_or(&self.dir, |s| s.path())
    }

    fn clear_staging(&self) -> Result<()> {
        let dir = self.staging();
        for e in std::fs::read_dir(dir)
            .with_context(|| format!("cannot read {}", dir.display()))?
            .flatten()
        {
            let p = e.path();
            if p.is_dir() {
                std::fs::remove_dir_all(&p)
            } else {
                std::fs::remove_file(&p)
            }
            .with_context(|| format!("cannot remove {}", p.display()))?;
        }
        Ok(())
    }
}

impl Drop for Target {
    fn drop(&mut self) {
        drop(self.staging.take());
        drop(self.lock.take());
        if self.created.take().is_some() {
            let _ = std::fs::remove_dir(&self.dir);
        }
    }
}

/// Earlier files under `dir`: (path, marker) for jforge's, and those of a jforge without
/// markers (first line "// Generated by jforge").
#[derive(Default)]
struct Scan {
    marked: Vec<(PathBuf, Marker)>,
    legacy: Vec<PathBuf>,
}

fn scan(dir: &Path, depth: usize, out: &mut Scan) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = rd.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') {
            continue;
        }
        let Ok(ft) = e.file_type() else { continue };
        let path = e.path();
        if ft.is_dir() && depth < 64 {
            scan(&path, depth + 1, out);
        } else if ft.is_file() && name.ends_with(".java") {
            if let Some(m) = Marker::of_file(&path) {
                out.marked.push((path, m));
            } else if name.starts_with("RegressionTest") || name.starts_with("ErrorTest") {
                let first = std::fs::read(&path).unwrap_or_default();
                if first.starts_with(b"// Generated by jforge") {
                    out.legacy.push(path);
                }
            }
        }
    }
}

/// Where the error-revealing tests go by default: `jforge-error-tests` next to the output
/// folder (outside `src/test/java`, so neither Maven nor Gradle compiles or runs them).
pub fn default_error_dir(out_dir: &Path) -> Result<PathBuf> {
    let base = match out_dir.components().next_back() {
        Some(Component::Normal(_)) => out_dir.to_path_buf(),
        _ => std::fs::canonicalize(out_dir)
            .with_context(|| format!("cannot resolve {}", out_dir.display()))?,
    };
    match base.parent() {
        Some(p) => Ok(p.join(ERROR_DIR_NAME)),
        None => bail!(
            "the output folder {} has no parent folder for the error-revealing tests: pass --error-output-dir",
            out_dir.display()
        ),
    }
}

/// Where the tests went, for the report (flattened into `--stats-json`).
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct OutputSummary {
    /// Folder of the error-revealing tests when they are kept apart from the suite.
    pub error_output_dir: Option<String>,
    pub error_files: Vec<String>,
    /// One shell line that compiles and runs the error-revealing tests.
    pub error_tests_command: Option<String>,
    /// Files an earlier run of the same command wrote for the same classes, now replaced.
    pub replaced_files: Vec<String>,
}

/// What a finished run put in place.
#[derive(Debug, Default, Clone)]
pub struct Installed {
    /// The files at their final paths.
    pub files: Vec<WrittenFile>,
    /// Files of earlier runs (same command, same classes) that were overwritten or removed.
    pub replaced: Vec<PathBuf>,
}

/// The output of one run: locked folders, staging, markers, install.
pub struct RunOutput {
    tool: Tool,
    emit: EmitConfig,
    suite: Target,
    /// `None`: error-revealing tests go with the regression tests.
    errors: Option<Target>,
    classes: Vec<String>,
    /// (staging path, final path) of the last [`RunOutput::write`].
    staged: Vec<(PathBuf, PathBuf)>,
    /// Tests read back from the earlier run, by sequence fingerprint (see `suite::layout`).
    placements: HashMap<u128, Placement>,
    /// Last word of the error-revealing test classes (see [`RunOutput::errors_unrun`]).
    error_suffix: &'static str,
    /// The comment above every file's marker (`SuiteSettings::header`).
    header: Option<String>,
    /// The budget the files' markers record (see [`Replay`]).
    replay: Option<Replay>,
}

impl RunOutput {
    /// Lock the folders and create the staging folders. `emit.out_dir` is the output folder,
    /// `emit.package` the `--test-package` override. `error_dir`: where error-revealing tests
    /// go (`None`: [`default_error_dir`]); ignored with `errors_in_suite`.
    pub fn open(
        tool: Tool,
        emit: EmitConfig,
        error_dir: Option<&Path>,
        errors_in_suite: bool,
    ) -> Result<RunOutput> {
        if let Some(p) = emit.package.as_deref().filter(|p| !p.is_empty()) {
            check_package(p)?;
        }
        let suite = Target::open(&emit.out_dir, "--output-dir")?;
        let errors = if errors_in_suite {
            None
        } else {
            let dir = match error_dir {
                Some(d) => d.to_path_buf(),
                None => default_error_dir(&emit.out_dir)?,
            };
            let canon = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
            let out = canon(&emit.out_dir);
            if dir.exists() && canon(&dir) == out {
                bail!(
                    "the error-revealing tests would go to the output folder {} itself: pass another --error-output-dir, or --error-tests-in-suite",
                    emit.out_dir.display()
                );
            }
            let t = Target::open(&dir, "--error-output-dir")?;
            if canon(&dir).starts_with(&out) {
                eprintln!(
                    "warning: {} is inside the output folder {}: a build that compiles that folder runs the error-revealing tests, which fail on purpose",
                    dir.display(),
                    emit.out_dir.display()
                );
            }
            Some(t)
        };
        Ok(RunOutput {
            tool,
            emit,
            suite,
            errors,
            classes: Vec::new(),
            staged: Vec::new(),
            placements: HashMap::new(),
            error_suffix: super::suite::TEST_SUFFIX,
            header: None,
            replay: None,
        })
    }

    /// The output a command's suite settings ask for (`settings::SuiteSettings`: `--output-dir`,
    /// else `default_dir`; `--junit`, `--tests-per-file`, where error tests go); `package` is
    /// `--test-package`. `None` when there is no folder: the command writes no suite.
    pub fn for_suite(
        tool: Tool,
        suite: &crate::settings::SuiteSettings,
        default_dir: Option<&Path>,
        package: Option<String>,
    ) -> Result<Option<RunOutput>> {
        let Some(out_dir) = suite.output_dir.as_deref().or(default_dir) else {
            return Ok(None);
        };
        let mut out = RunOutput::open(
            tool,
            EmitConfig {
                out_dir: out_dir.to_path_buf(),
                junit: suite.junit,
                package,
                tests_per_file: suite.tests_per_file as usize,
            },
            suite.error_output_dir.as_deref(),
            suite.error_tests_in_suite || suite.errors_unrun,
        )?;
        if suite.errors_unrun {
            out.errors_unrun();
        }
        out.header = suite.header.clone();
        Ok(Some(out))
    }

    /// Name the error-revealing test classes `...ErrorCases` (see
    /// [`super::suite::UNRUN_SUFFIX`]): for error tests written into a build's test folder,
    /// where a plain `mvn test` must not run them.
    pub fn errors_unrun(&mut self) {
        self.error_suffix = super::suite::UNRUN_SUFFIX;
    }

    /// The folder of error-revealing tests, when they are kept apart.
    pub fn error_dir(&self) -> Option<&Path> {
        self.errors.as_ref().map(|t| t.dir.as_path())
    }

    fn target(&self, root: Root) -> &Target {
        match (root, &self.errors) {
            (Root::Errors, Some(t)) => t,
            _ => &self.suite,
        }
    }

    fn targets(&self) -> impl Iterator<Item = &Target> {
        std::iter::once(&self.suite).chain(self.errors.as_ref())
    }

    /// Earlier files this run replaces, and files of a jforge without markers.
    fn earlier(&self) -> (BTreeSet<PathBuf>, Vec<PathBuf>) {
        let mut s = Scan::default();
        for t in self.targets() {
            scan(&t.dir, 0, &mut s);
        }
        let ours: BTreeSet<&str> = self.classes.iter().map(|c| c.as_str()).collect();
        let replaceable = s
            .marked
            .into_iter()
            .filter(|(_, m)| {
                m.tool == self.tool.name() && m.classes.iter().all(|c| ours.contains(c.as_str()))
            })
            .map(|(p, _)| p)
            .collect();
        (replaceable, s.legacy)
    }

    /// The tests an earlier run of this command wrote for some of `classes` (files it would
    /// replace; the error-revealing ones' folder too), with their stored sequences, files in
    /// name order, tests in file order.
    pub fn earlier_tests(&self, classes: &[String]) -> Vec<StoredTest> {
        let mut s = Scan::default();
        scan(&self.suite.dir, 0, &mut s);
        if let Some(errors) = self.errors.as_ref().filter(|e| e.dir != self.suite.dir) {
            scan(&errors.dir, 0, &mut s);
        }
        let ours: BTreeSet<&str> = classes.iter().map(|c| c.as_str()).collect();
        s.marked
            .iter()
            .filter(|(_, m)| {
                m.tool == self.tool.name() && m.classes.iter().all(|c| ours.contains(c.as_str()))
            })
            .flat_map(|(p, _)| super::stored::read_file(p))
            .collect()
    }

    /// The budget the earlier run of `classes` recorded in its files' markers, when every one
    /// of its files records the same (see [`Replay`]).
    pub fn earlier_replay(&self, classes: &[String]) -> Option<Replay> {
        let mut s = Scan::default();
        scan(&self.suite.dir, 0, &mut s);
        let ours: BTreeSet<&str> = classes.iter().map(|c| c.as_str()).collect();
        let mut replays = s
            .marked
            .into_iter()
            .filter(|(_, m)| {
                m.tool == self.tool.name() && m.classes.iter().all(|c| ours.contains(c.as_str()))
            })
            .map(|(_, m)| m.replay);
        let first = replays.next()??;
        replays.all(|r| r.as_ref() == Some(&first)).then_some(first)
    }

    /// The budget the written files' markers record (see [`Replay`]).
    pub fn set_replay(&mut self, replay: Option<Replay>) {
        self.replay = replay;
    }

    /// Where tests read back from an earlier run stay (by sequence fingerprint).
    pub fn set_placements(&mut self, placements: HashMap<u128, Placement>) {
        self.placements = placements;
    }

    /// Render the tests of `classes` and write them to the staging folders (replacing what an
    /// earlier call staged). Returns the staged files, for the final check.
    pub fn write(
        &mut self,
        ops: &crate::sequence::OpTable,
        owner_class: &[Option<String>],
        classes: &[String],
        regression: &[TestCase],
        errors: &[TestCase],
    ) -> Result<Vec<WrittenFile>> {
        self.classes = classes.to_vec();
        let (replaceable, _) = self.earlier();
        let spec = SuiteSpec {
            tool: self.tool,
            emit: &self.emit,
            classes,
            owner_class,
            error_root: if self.errors.is_some() {
                Root::Errors
            } else {
                Root::Suite
            },
            error_suffix: self.error_suffix,
            placements: &self.placements,
            header: self.header.as_deref(),
            replay: self.replay.as_ref(),
        };
        let taken = |root: Root, rel: &Path| {
            let p = self.target(root).dir.join(rel);
            std::fs::symlink_metadata(&p).is_ok() && !replaceable.contains(&p)
        };
        let rendered: Vec<Rendered> = render_suite(&spec, ops, regression, errors, &taken)?;
        for t in self.targets() {
            t.clear_staging()?;
        }
        let mut files = Vec::with_capacity(rendered.len());
        let mut staged = Vec::with_capacity(rendered.len());
        for r in &rendered {
            let t = self.target(r.root);
            let f = super::suite::write_rendered(t.staging(), r)?;
            staged.push((f.path.clone(), t.dir.join(&r.rel)));
            files.push(f);
        }
        self.staged = staged;
        Ok(files)
    }

    /// Move the staged files into place and remove the earlier files they replace. `files`
    /// are those the last [`RunOutput::write`] returned.
    pub fn install(&mut self, files: &[WrittenFile]) -> Result<Installed> {
        let (replaceable, legacy) = self.earlier();
        let finals: HashMap<&Path, &Path> = self
            .staged
            .iter()
            .map(|(s, f)| (s.as_path(), f.as_path()))
            .collect();
        let roots: Vec<PathBuf> = self.targets().map(|t| t.dir.clone()).collect();
        interrupt::critical(|| -> Result<()> {
            for (staged, fin) in &self.staged {
                if let Some(parent) = fin.parent() {
                    std::fs::create_dir_all(parent).with_context(|| {
                        format!(
                            "cannot create {}: choose another --output-dir",
                            parent.display()
                        )
                    })?;
                }
                if std::fs::rename(staged, fin).is_err() {
                    std::fs::copy(staged, fin).with_context(|| {
                        format!(
                            "cannot write {}: choose another --output-dir",
                            fin.display()
                        )
                    })?;
                }
            }
            let kept: BTreeSet<&Path> = self.staged.iter().map(|(_, f)| f.as_path()).collect();
            for old in &replaceable {
                if !kept.contains(old.as_path()) {
                    std::fs::remove_file(old)
                        .with_context(|| format!("cannot remove {}", old.display()))?;
                    remove_empty_parents(old, &roots);
                }
            }
            Ok(())
        })?;
        if let Some(first) = legacy.first() {
            eprintln!(
                "note: {} file(s) such as {} come from a jforge version without run markers and were left alone; delete them if the new files replace them",
                legacy.len(),
                first.display()
            );
        }
        let files = files
            .iter()
            .map(|f| WrittenFile {
                path: finals
                    .get(f.path.as_path())
                    .map_or_else(|| f.path.clone(), |p| p.to_path_buf()),
                ..f.clone()
            })
            .collect();
        self.staged.clear();
        Ok(Installed {
            files,
            replaced: replaceable.into_iter().collect(),
        })
    }
}

impl RunOutput {
    /// The report's part on where the tests went. `files` and `replaced` come from
    /// [`RunOutput::install`]; `junit_classpath` (`--junit-classpath`) and `user_cp` make the
    /// command that runs the error-revealing tests.
    pub fn summary(
        &self,
        junit_classpath: Option<&str>,
        user_cp: &[PathBuf],
        files: &[WrittenFile],
        replaced: &[PathBuf],
    ) -> OutputSummary {
        let errors: Vec<WrittenFile> = files.iter().filter(|f| f.error_suite).cloned().collect();
        let junit = self.emit.junit;
        let command = (self.errors.is_some() && !errors.is_empty()).then(|| {
            let junit_cp = super::validate::find_junit(junit, junit_classpath)
                .unwrap_or_else(|_| vec![PathBuf::from("JUNIT_JARS")]);
            error_command(junit, user_cp, &junit_cp, &errors)
        });
        OutputSummary {
            error_output_dir: self.error_dir().map(|d| d.display().to_string()),
            error_files: errors
                .iter()
                .map(|f| f.path.display().to_string())
                .collect(),
            error_tests_command: command,
            replaced_files: replaced.iter().map(|p| p.display().to_string()).collect(),
        }
    }
}

/// Remove the folders a deletion left empty, up to (not including) the output roots.
fn remove_empty_parents(file: &Path, roots: &[PathBuf]) {
    let mut dir = file.parent();
    while let Some(d) = dir {
        if roots.iter().any(|r| r == d) || std::fs::remove_dir(d).is_err() {
            break;
        }
        dir = d.parent();
    }
}

/// Quote for a POSIX shell when needed.
fn sh(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:=+-,@%".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// One shell line that compiles and runs the error-revealing tests `files` (they fail: each
/// failure is a bug report). JUnit 4: `JUnitCore`; JUnit 5: the console launcher.
pub fn error_command(
    junit: u8,
    user_cp: &[PathBuf],
    junit_cp: &[PathBuf],
    files: &[WrittenFile],
) -> String {
    let cp: Vec<String> = user_cp
        .iter()
        .chain(junit_cp)
        .map(|p| p.display().to_string())
        .collect();
    let cp = sh(&cp.join(":"));
    let sources: Vec<String> = files
        .iter()
        .map(|f| sh(&f.path.display().to_string()))
        .collect();
    let classes: Vec<&str> = files.iter().map(|f| f.class_name.as_str()).collect();
    let run = if junit == 5 {
        let sel: Vec<String> = classes
            .iter()
            .map(|c| format!("--select-class {c}"))
            .collect();
        format!(
            "org.junit.platform.console.ConsoleLauncher --disable-banner {}",
            sel.join(" ")
        )
    } else {
        format!("org.junit.runner.JUnitCore {}", classes.join(" "))
    };
    format!(
        "d=$(mktemp -d) && javac -nowarn -encoding UTF-8 -d \"$d\" -cp {cp} {} && java -cp \"$d\":{cp} {run}; rm -rf \"$d\"",
        sources.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_quoting() {
        assert_eq!(sh("a/b.jar:c"), "a/b.jar:c");
        assert_eq!(sh("my dir/x"), "'my dir/x'");
        assert_eq!(sh("it's"), "'it'\\''s'");
        assert_eq!(sh(""), "''");
    }

    #[test]
    fn error_dir_is_a_sibling() {
        assert_eq!(
            default_error_dir(Path::new("src/test/java")).unwrap(),
            Path::new("src/test").join(ERROR_DIR_NAME)
        );
        assert_eq!(
            default_error_dir(Path::new("jforge-tests")).unwrap(),
            Path::new(ERROR_DIR_NAME)
        );
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("a/b")).unwrap();
        // `a/b/..` is `a`: its sibling, not a folder inside it
        assert_eq!(
            default_error_dir(&d.path().join("a/b/..")).unwrap(),
            std::fs::canonicalize(d.path())
                .unwrap()
                .join(ERROR_DIR_NAME)
        );
    }

    #[test]
    fn second_lock_is_refused_with_the_pid() {
        let d = tempfile::tempdir().unwrap();
        let a = DirLock::acquire(d.path(), "--output-dir").unwrap();
        let e = DirLock::acquire(d.path(), "--output-dir")
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("another jforge run is writing to")
                && e.contains(&format!("(pid {})", std::process::id()))
                && e.contains("choose another --output-dir"),
            "{e}"
        );
        drop(a);
        assert!(!d.path().join(LOCK_FILE).exists());
        let b = DirLock::acquire(d.path(), "--output-dir").unwrap();
        drop(b);
    }
}
