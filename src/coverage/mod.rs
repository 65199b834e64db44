//! Coverage measurement on top of the instrumenter (`crate::instrument`): preparing
//! instrumented copies of the classes under test for a JVM ([`Setup`]), accumulating probe hits
//! ([`Tracker`]) and summarising them as line / branch / method coverage per class and method
//! ([`summarize`]). `report` renders summaries (table, JSON, JaCoCo XML, HTML).
//!
//! Counting rules (close to JaCoCo's so that the numbers agree, see ARCHITECTURE.md):
//! a line is covered when any of its line-table entries ran; every conditional jump has two
//! branches; a switch has one branch per case key plus its default; synthetic methods other
//! than lambda bodies are left out (bridges, accessors, `$values`).

pub mod cmd;
pub mod report;

use crate::instrument::{ProbeKind, ProbeMap, write_runtime};
use crate::model::classpath::{ClassPath, JdkClasses};
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const ACC_SYNTHETIC: u16 = 0x1000;

/// Instrumented copies of some classes, ready to be put in front of a JVM's class path.
pub struct Setup {
    _dir: crate::interrupt::TempDir,
    /// Class folder with the instrumented application classes and the runtime (put it first
    /// on the class path).
    pub class_dir: PathBuf,
    /// Where `jforge/rt/Cov.class` is (the class folder, or the java.base patch folder).
    pub runtime_dir: PathBuf,
    /// JVM options: `--patch-module java.base=...` and `--add-exports` when JDK classes are
    /// instrumented, and `-Djforge.cov.probes=N` (which turns on per-sequence coverage in the
    /// jforge worker) when coverage is measured. Never the clock's mode: the same options
    /// serve the final check, whose ordinary runs use the real clock.
    pub jvm_args: Vec<String>,
    pub maps: Vec<ProbeMap>,
    pub total_probes: u32,
    /// Seconds spent instrumenting.
    pub instrument_secs: f64,
    /// Whether probes were added (coverage measured); false for a clock-only set-up.
    pub measured: bool,
    /// Classes of the user's class path (classes under test included) whose clock reads were
    /// retargeted to `jforge.rt.JClock` (see `crate::instrument::clock`).
    pub clock_classes: usize,
    /// Classes that read the clock but could not be rewritten (they read the real clock).
    pub clock_skipped: Vec<String>,
}

/// What [`Setup::prepare_with`] does to the classes.
#[derive(Clone, Copy, Debug)]
pub struct Instrument {
    /// Probes and comparison logging in the classes under test.
    pub coverage: bool,
    /// Clock reads retargeted in the classes under test and in every class of the user's
    /// class path that reads the clock (see `crate::instrument::clock`).
    pub clock: bool,
}

/// Binary names of `class` and its nested classes found on `cp` or in the JDK.
fn with_nested(class: &str, cp: &ClassPath, jdk: &mut dyn JdkClasses) -> (Vec<String>, bool) {
    let pkg = class.rsplit_once('.').map(|(p, _)| p).unwrap_or("");
    let prefix = format!("{class}$");
    let in_cp = cp.find(class).ok().flatten().is_some();
    let listed = if in_cp {
        cp.list_classes(if pkg.is_empty() { None } else { Some(pkg) })
    } else {
        jdk.list_classes(pkg).unwrap_or_default()
    };
    let mut v = vec![class.to_string()];
    v.extend(listed.into_iter().filter(|n| n.starts_with(&prefix)));
    (v, in_cp)
}

/// The folders a set-up writes and what it wrote so far.
struct Folders {
    class_dir: PathBuf,
    /// `<patch_root>/<module>/`: the JDK classes rewritten, one folder per module.
    patch_root: PathBuf,
    patch_dir: PathBuf,
    /// Modules other than java.base that got a rewritten class.
    other_modules: BTreeSet<String>,
    /// Binary names already written (or seen).
    seen: BTreeSet<String>,
    maps: Vec<ProbeMap>,
    next: u32,
    patched: bool,
    clock_classes: usize,
    clock_skipped: Vec<String>,
    /// Trace mode (`jforge concolic`) in the classes under test.
    trace: bool,
}

impl Folders {
    /// The patch folder of a JDK class's module (java.base when the JDK does not say).
    fn module_dir(&mut self, jdk: &mut dyn JdkClasses, class: &str) -> PathBuf {
        match jdk.module_of(class) {
            Some(m) if m != "java.base" => {
                let d = self.patch_root.join(&m);
                self.other_modules.insert(m);
                d
            }
            _ => self.patch_dir.clone(),
        }
    }

    /// `--patch-module` and `--add-exports` for the rewritten JDK classes: each module its
    /// own folder; the runtime lives in java.base and is exported to the application and
    /// to every other patched module (their probes call it).
    fn patch_args(&self) -> Vec<String> {
        let mut args = vec![
            "--patch-module".to_string(),
            format!("java.base={}", self.patch_dir.display()),
        ];
        for m in &self.other_modules {
            args.push("--patch-module".to_string());
            args.push(format!("{m}={}", self.patch_root.join(m).display()));
        }
        let mut readers = vec!["ALL-UNNAMED".to_string()];
        readers.extend(self.other_modules.iter().cloned());
        args.push("--add-exports".to_string());
        args.push(format!("java.base/jforge.rt={}", readers.join(",")));
        args
    }

    /// Writes the rewritten class `internal` (internal name) under `root`.
    fn write(root: &Path, internal: &str, bytes: &[u8]) -> Result<()> {
        let out = root.join(format!("{internal}.class"));
        std::fs::create_dir_all(out.parent().unwrap_or(root))?;
        std::fs::write(&out, bytes).with_context(|| format!("writing {}", out.display()))
    }

    /// The classes under test and their nested classes: instrumented for coverage (clock
    /// reads included), or only their clock reads retargeted.
    fn classes_under_test(
        &mut self,
        cp: &ClassPath,
        jdk: &mut dyn JdkClasses,
        classes: &[String],
        what: Instrument,
    ) -> Result<()> {
        for c in classes {
            let (names, in_cp) = with_nested(c, cp, jdk);
            for n in names {
                if !self.seen.insert(n.clone()) {
                    continue;
                }
                let bytes = if in_cp {
                    cp.find(&n)?
                } else {
                    jdk.class_bytes(&n)?
                };
                let Some(bytes) = bytes else {
                    if n == *c {
                        bail!("class {c} not found for instrumentation");
                    }
                    continue;
                };
                if !what.coverage {
                    self.clock_only(&n, &bytes)?;
                    continue;
                }
                let reads_clock = in_cp && crate::instrument::reads_clock(&bytes);
                let ins = crate::instrument::instrument_class_with(
                    &bytes,
                    self.maps.len() as u32,
                    self.next,
                    self.trace,
                )
                .with_context(|| format!("instrumenting {n}"))?;
                self.next = ins.probes.end();
                self.patched |= !in_cp;
                self.clock_classes += reads_clock as usize;
                let root = if in_cp {
                    self.class_dir.clone()
                } else {
                    self.module_dir(jdk, &n)
                };
                Self::write(&root, &ins.probes.class_name, &ins.bytes)?;
                self.maps.push(ins.probes);
            }
        }
        Ok(())
    }

    /// Retargets the clock reads of one class of the user's class path, if it has any. A
    /// class the rewriter cannot handle (a full constant pool, bytecode it does not know) is
    /// left as it is, reading the real clock, and counted in `clock_skipped`.
    fn clock_only(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        match crate::instrument::retarget_clock(bytes) {
            Ok(Some(b)) => {
                Self::write(&self.class_dir, &name.replace('.', "/"), &b)?;
                self.clock_classes += 1;
            }
            Ok(None) => {}
            Err(_) => self.clock_skipped.push(name.to_string()),
        }
        Ok(())
    }

    /// Every other class of the user's class path that reads the clock (classes of signed
    /// jars excepted: a changed class would break the signature).
    fn class_path(&mut self, cp: &ClassPath) -> Result<()> {
        let signed: Vec<PathBuf> = cp
            .entries()
            .iter()
            .filter(|e| is_signed_jar(e))
            .cloned()
            .collect();
        for n in cp.list_classes(None) {
            if self.seen.contains(&n) {
                continue;
            }
            let Some((bytes, origin)) = cp.find_with_origin(&n)? else {
                continue;
            };
            if signed.contains(&origin) || !crate::instrument::reads_clock(&bytes) {
                continue;
            }
            self.seen.insert(n.clone());
            self.clock_only(&n, &bytes)?;
        }
        Ok(())
    }
}

/// Whether `path` is a jar with a signature (`META-INF/*.SF`).
fn is_signed_jar(path: &Path) -> bool {
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    let Ok(z) = zip::ZipArchive::new(std::io::BufReader::new(f)) else {
        return false;
    };
    z.file_names().any(|n| {
        let Ok(n) = n else { return false };
        let u = n.to_ascii_uppercase();
        u.starts_with("META-INF/") && u.ends_with(".SF")
    })
}

impl Setup {
    /// Instruments `classes` (binary names) and their nested classes for coverage. Application
    /// classes come from `cp`; JDK classes (those not on `cp`) from `jdk` and must live in
    /// `java.base`.
    pub fn prepare(cp: &ClassPath, jdk: &mut dyn JdkClasses, classes: &[String]) -> Result<Setup> {
        let what = Instrument {
            coverage: true,
            clock: false,
        };
        Setup::prepare_with(cp, jdk, classes, what)
    }

    /// As [`Setup::prepare`], with coverage and the clock as `what` says: one rewrite pass per
    /// class and one class folder for both (the clock's rewrite only retargets calls, which
    /// the coverage rewrite does too).
    pub fn prepare_with(
        cp: &ClassPath,
        jdk: &mut dyn JdkClasses,
        classes: &[String],
        what: Instrument,
    ) -> Result<Setup> {
        Setup::prepare_inner(cp, jdk, classes, what, false)
    }

    /// Coverage, the clock and the trace mode of `jforge concolic` (`crate::instrument::trace`)
    /// in the classes under test; the JVM options turn on the worker's tracing
    /// (`-Djforge.sym`), which arms it before the last statement of every sequence.
    pub fn prepare_traced(
        cp: &ClassPath,
        jdk: &mut dyn JdkClasses,
        classes: &[String],
    ) -> Result<Setup> {
        let what = Instrument {
            coverage: true,
            clock: true,
        };
        let mut setup = Setup::prepare_inner(cp, jdk, classes, what, true)?;
        setup.jvm_args.push("-Djforge.sym=1".to_string());
        Ok(setup)
    }

    fn prepare_inner(
        cp: &ClassPath,
        jdk: &mut dyn JdkClasses,
        classes: &[String],
        what: Instrument,
        trace: bool,
    ) -> Result<Setup> {
        let t0 = std::time::Instant::now();
        let dir = crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-cov"))
            .context("creating a temporary folder for instrumented classes")?;
        let mut f = Folders {
            class_dir: dir.path().join("classes"),
            patch_root: dir.path().join("modules"),
            patch_dir: dir.path().join("modules").join("java.base"),
            other_modules: BTreeSet::new(),
            seen: BTreeSet::new(),
            maps: Vec::new(),
            next: 0,
            patched: false,
            clock_classes: 0,
            clock_skipped: Vec::new(),
            trace,
        };
        f.classes_under_test(cp, jdk, classes, what)?;
        if what.clock {
            // Cost: 0.15 s for guava.jar (2.9 MB, 10 classes rewritten).
            f.class_path(cp)?;
        }
        std::fs::create_dir_all(&f.class_dir)?;
        let mut jvm_args = Vec::new();
        if f.patched {
            // The runtime must live where java.base can see it; application classes reach it
            // through the export.
            write_runtime(&f.patch_dir)?;
            jvm_args.extend(f.patch_args());
        } else {
            write_runtime(&f.class_dir)?;
        }
        if what.coverage {
            jvm_args.push(format!("-Djforge.cov.probes={}", f.next));
        }
        Ok(Setup {
            _dir: dir,
            runtime_dir: if f.patched {
                f.patch_dir
            } else {
                f.class_dir.clone()
            },
            class_dir: f.class_dir,
            jvm_args,
            maps: f.maps,
            total_probes: f.next,
            instrument_secs: t0.elapsed().as_secs_f64(),
            measured: what.coverage,
            clock_classes: f.clock_classes,
            clock_skipped: f.clock_skipped,
        })
    }
}

/// Per-probe facts the generator needs quickly.
#[derive(Clone, Debug)]
pub struct ProbeInfo {
    pub is_branch: bool,
    pub is_line: bool,
    /// Index into [`Tracker::methods`].
    pub method: u32,
}

/// Coverage accumulated over a run.
pub struct Tracker {
    pub hit: Vec<bool>,
    pub info: Vec<ProbeInfo>,
    /// (class binary name, method name, descriptor, branch probes, covered branch probes)
    pub methods: Vec<MethodCov>,
    pub branches: u32,
    pub covered_branches: u32,
    pub lines: u32,
    pub covered_lines: u32,
    /// Probes covered elsewhere (the project's own tests, see [`Tracker::cover_elsewhere`]);
    /// empty until then.
    elsewhere: Vec<bool>,
}

#[derive(Clone, Debug)]
pub struct MethodCov {
    pub class: String,
    pub name: String,
    pub descriptor: String,
    pub branches: u32,
    pub covered_branches: u32,
    /// Branch probes covered elsewhere (the project's own tests) and not yet by the run.
    pub elsewhere: u32,
}

impl MethodCov {
    /// The branches neither the run nor the project's own tests covered: what is left to
    /// find in this method.
    pub fn open(&self) -> u32 {
        self.branches
            .saturating_sub(self.covered_branches)
            .saturating_sub(self.elsewhere)
    }
}

fn is_branch(k: &ProbeKind) -> bool {
    matches!(
        k,
        ProbeKind::BranchTaken
            | ProbeKind::BranchNotTaken
            | ProbeKind::SwitchCase { .. }
            | ProbeKind::SwitchDefault
    )
}

fn counted(name: &str, access: u16) -> bool {
    access & ACC_SYNTHETIC == 0 || name.starts_with("lambda$")
}

impl Tracker {
    pub fn new(maps: &[ProbeMap], total: u32) -> Tracker {
        let mut info = vec![
            ProbeInfo {
                is_branch: false,
                is_line: false,
                method: u32::MAX,
            };
            total as usize
        ];
        let mut methods = Vec::new();
        let (mut branches, mut lines) = (0, 0);
        for m in maps {
            let base = methods.len() as u32;
            for mp in &m.methods {
                methods.push(MethodCov {
                    class: m.class_name.replace('/', "."),
                    name: mp.name.clone(),
                    descriptor: mp.descriptor.clone(),
                    branches: 0,
                    covered_branches: 0,
                    elsewhere: 0,
                });
            }
            for p in &m.probes {
                let mp = &m.methods[p.method as usize];
                let keep = counted(&mp.name, mp.access);
                let b = keep && is_branch(&p.kind);
                let l = keep && p.kind == ProbeKind::Line;
                if b {
                    branches += 1;
                    methods[(base + p.method) as usize].branches += 1;
                }
                if l {
                    lines += 1;
                }
                info[p.id as usize] = ProbeInfo {
                    is_branch: b,
                    is_line: l,
                    method: base + p.method,
                };
            }
        }
        Tracker {
            hit: vec![false; total as usize],
            info,
            methods,
            branches,
            covered_branches: 0,
            lines,
            covered_lines: 0,
            elsewhere: Vec::new(),
        }
    }

    /// Marks the probes `hit` elsewhere (by the project's own tests): they no longer count
    /// as open ([`MethodCov::open`]), so guidance spends the time where neither the run nor
    /// the project's suite has been. The run's own counts are unchanged.
    pub fn cover_elsewhere(&mut self, hit: &[bool]) {
        self.elsewhere = hit.to_vec();
        self.elsewhere.resize(self.hit.len(), false);
        for (i, inf) in self.info.iter().enumerate() {
            if self.elsewhere[i] && !self.hit[i] && inf.is_branch {
                self.methods[inf.method as usize].elsewhere += 1;
            }
        }
    }

    /// Adds the hits of one sequence; returns how many branch and line probes were new.
    pub fn add(&mut self, ids: &[u32]) -> (u32, u32) {
        let (mut nb, mut nl) = (0, 0);
        for &id in ids {
            let i = id as usize;
            if i >= self.hit.len() || self.hit[i] {
                continue;
            }
            self.hit[i] = true;
            let inf = &self.info[i];
            if inf.is_branch {
                nb += 1;
                let m = &mut self.methods[inf.method as usize];
                m.covered_branches += 1;
                if self.elsewhere.get(i).copied().unwrap_or(false) {
                    m.elsewhere -= 1;
                }
            }
            if inf.is_line {
                nl += 1;
            }
        }
        self.covered_branches += nb;
        self.covered_lines += nl;
        (nb, nl)
    }

    pub fn branch_ratio(&self) -> f64 {
        ratio(self.covered_branches, self.branches)
    }

    pub fn line_ratio(&self) -> f64 {
        ratio(self.covered_lines, self.lines)
    }
}

pub fn ratio(a: u32, b: u32) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
}

/// Covered / total.
#[derive(Clone, Copy, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Counter {
    pub covered: u32,
    pub total: u32,
}

impl Counter {
    fn add(&mut self, c: bool) {
        self.total += 1;
        self.covered += c as u32;
    }
    fn merge(&mut self, o: Counter) {
        self.total += o.total;
        self.covered += o.covered;
    }
    pub fn missed(&self) -> u32 {
        self.total - self.covered
    }
    pub fn percent(&self) -> f64 {
        100.0 * ratio(self.covered, self.total)
    }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MethodSummary {
    pub name: String,
    pub descriptor: String,
    /// First line of the method (smallest line number), when known.
    pub line: Option<u32>,
    pub lines: Counter,
    pub branches: Counter,
    pub covered: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ClassSummary {
    /// Binary name, e.g. `java.util.TreeMap$Entry`.
    pub name: String,
    pub lines: Counter,
    pub branches: Counter,
    pub methods: Counter,
    pub methods_detail: Vec<MethodSummary>,
    /// line -> (covered, branches total, branches covered); a line is covered when any of its
    /// probes ran.
    #[serde(rename = "line_status")]
    pub line_detail: std::collections::BTreeMap<u32, (bool, u32, u32)>,
}

/// Line, branch and method coverage per class and method for the probes in `hit`.
pub fn summarize(maps: &[ProbeMap], hit: &[bool]) -> Vec<ClassSummary> {
    let h = |id: u32| hit.get(id as usize).copied().unwrap_or(false);
    let mut out = Vec::new();
    for m in maps {
        let mut cs = ClassSummary {
            name: m.class_name.replace('/', "."),
            lines: Counter::default(),
            branches: Counter::default(),
            methods: Counter::default(),
            methods_detail: Vec::new(),
            line_detail: Default::default(),
        };
        for (mi, mp) in m.methods.iter().enumerate() {
            if !counted(&mp.name, mp.access) || mp.skipped.is_some() {
                continue;
            }
            let mut ms = MethodSummary {
                name: mp.name.clone(),
                descriptor: mp.descriptor.clone(),
                line: None,
                lines: Counter::default(),
                branches: Counter::default(),
                covered: false,
            };
            for p in m.probes.iter().filter(|p| p.method == mi as u32) {
                match p.kind {
                    ProbeKind::MethodEntry => ms.covered = h(p.id),
                    ProbeKind::Line => {
                        ms.lines.add(h(p.id));
                        if let Some(l) = p.line {
                            ms.line = Some(ms.line.map_or(l, |x: u32| x.min(l)));
                            cs.line_detail.entry(l).or_default().0 |= h(p.id);
                        }
                    }
                    _ => {
                        ms.branches.add(h(p.id));
                        if let Some(l) = p.line {
                            let e = cs.line_detail.entry(l).or_default();
                            e.1 += 1;
                            e.2 += h(p.id) as u32;
                        }
                    }
                }
            }
            cs.branches.merge(ms.branches);
            cs.methods.add(ms.covered);
            cs.methods_detail.push(ms);
        }
        // Distinct lines: a field initialiser copied into every constructor is one line.
        for &(covered, _, _) in cs.line_detail.values() {
            cs.lines.add(covered);
        }
        out.push(cs);
    }
    out
}

/// Sum of the counters of `classes`: (lines, branches, methods).
pub fn totals(classes: &[ClassSummary]) -> (Counter, Counter, Counter) {
    let (mut l, mut b, mut m) = (Counter::default(), Counter::default(), Counter::default());
    for c in classes {
        l.merge(c.lines);
        b.merge(c.branches);
        m.merge(c.methods);
    }
    (l, b, m)
}

/// What the suite stage's check needs of a set-up (`emit::validate`).
impl Setup {
    /// The check's coverage run over these instrumented classes.
    pub fn coverage_run(&self) -> crate::emit::validate::CoverageRun {
        crate::emit::validate::CoverageRun {
            class_dir: self.class_dir.clone(),
            jvm_args: self.jvm_args.clone(),
            total_probes: self.total_probes,
        }
    }

    /// The check's slow-clock run over these rewritten classes (without the coverage probes);
    /// none when no clock read was rewritten (JDK classes never are): the slowed clock could
    /// change nothing there, and the run would only repeat run 1 (0.45 s for TreeMap).
    pub fn clock_run(&self) -> Option<crate::emit::validate::ClockRun> {
        if self.clock_classes == 0 {
            return None;
        }
        Some(crate::emit::validate::ClockRun {
            class_dir: self.class_dir.clone(),
            jvm_args: self
                .jvm_args
                .iter()
                .filter(|a| !a.starts_with("-Djforge.cov.probes="))
                .cloned()
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instrument::{MethodProbes, Probe, ProbeMap};

    /// One method with a line probe and four branch probes (ids 0..5).
    fn one_method() -> Tracker {
        let kinds = [
            ProbeKind::Line,
            ProbeKind::BranchTaken,
            ProbeKind::BranchNotTaken,
            ProbeKind::BranchTaken,
            ProbeKind::BranchNotTaken,
        ];
        let map = ProbeMap {
            class_name: "a/B".into(),
            class_id: 0,
            first_probe: 0,
            probe_count: 5,
            methods: vec![MethodProbes {
                name: "m".into(),
                descriptor: "()V".into(),
                access: 1,
                first_probe: 0,
                probe_count: 5,
                skipped: None,
            }],
            probes: (0..5)
                .map(|i| Probe {
                    id: i,
                    kind: kinds[i as usize],
                    method: 0,
                    offset: i,
                    line: Some(1),
                })
                .collect(),
        };
        Tracker::new(&[map], 5)
    }

    #[test]
    fn branches_covered_elsewhere_are_not_open_and_the_run_keeps_its_own_counts() {
        let mut t = one_method();
        t.add(&[0, 1]);
        assert_eq!(t.methods[0].open(), 3);
        // the own suite covered probes 1 (the run has it too), 2 and 0 (a line)
        t.cover_elsewhere(&[true, true, true, false, false]);
        assert_eq!(t.methods[0].open(), 2, "probe 2 is covered elsewhere");
        assert_eq!(t.covered_branches, 1, "the run's own count is unchanged");
        // the run reaches probe 2 itself: still not open, not counted twice
        assert_eq!(t.add(&[2]), (1, 0));
        assert_eq!(t.methods[0].open(), 2);
        t.add(&[3, 4]);
        assert_eq!(t.methods[0].open(), 0);
        assert_eq!(t.covered_branches, 4);
    }
}
