//! Which test class a test goes to, what the class is called, and the run marker.
//!
//! One family of test classes per class under test, in that class's own package (tests of
//! JDK classes go to `jforge.tests`, since javac refuses `package java.util`; `--test-package`
//! puts every family in one package). Names end in `Test` so that the default includes of
//! Maven Surefire (`**/*Test.java`) and Gradle pick them up:
//!
//! | class under test | regression tests | error-revealing tests |
//! |---|---|---|
//! | `com.acme.Circle` | `CircleRegressionTest`, `CircleRegression2Test`, ... | `CircleErrorTest`, `CircleError2Test`, ... |
//! | `com.acme.Outer$Inner` | `Outer_InnerRegressionTest` | `Outer_InnerErrorTest` |
//!
//! (`jforge exhaustive` writes `CircleExhaustiveTest`... and `CircleExhaustiveErrorTest`...).
//! The second and later classes of a family exist when `--tests-per-file` splits it. When a
//! name is taken (a file jforge may not replace, or two classes with one simple name in one
//! package), the stem gets a number: `Circle_2RegressionTest`.
//!
//! A test belongs to the class under test of its last call; a test whose last call is on a
//! helper class goes with the first class under test it uses.
//!
//! Every file starts with a marker line, `// jforge: gen, classes: com.acme.Circle, run: ID`:
//! the command that wrote it, the class(es) under test it was written for, and the run (a hash
//! of the run's output, so that `--seed` + `--generated-limit` stay byte-identical). A `gen`
//! run with a time limit adds `, sequences: N, options: H`: its budget in sequences and a hash
//! of its options, which a re-run with the same options replays ([`Replay`]). A run
//! replaces only files whose marker names its own command and only classes it tests.
//! Above it may stand one block comment, the project's license header (`--project`, see
//! `crate::project::license_header`); the marker is read after it.

use super::junit::render_class;
use super::{EmitConfig, TestCase, WrittenFile, WrittenTest};
use crate::sequence::{OpTable, Stmt};
use anyhow::{Context, Result, anyhow};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::Hasher;
use std::path::{Path, PathBuf};

/// The command that writes a suite: part of the marker and of the class names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Gen,
    Exhaustive,
    /// `jforge params`: one smoke test per method (its working call).
    Params,
    Concolic,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Gen => "gen",
            Tool::Exhaustive => "exhaustive",
            Tool::Params => "params",
            Tool::Concolic => "concolic",
        }
    }

    /// The word between the stem and `Test`: (regression, error-revealing).
    fn words(self) -> (&'static str, &'static str) {
        match self {
            Tool::Gen => ("Regression", "Error"),
            Tool::Exhaustive => ("Exhaustive", "ExhaustiveError"),
            Tool::Params => ("Smoke", "SmokeError"),
            Tool::Concolic => ("Concolic", "ConcolicError"),
        }
    }
}

/// Packages whose tests cannot live in the package itself (javac refuses `package java.util`
/// outside java.base).
const RESTRICTED: [&str; 5] = ["java.", "javax.", "jdk.", "sun.", "com.sun."];

/// Package for the tests of `class`: `explicit` (`--test-package`) when given, else the
/// class's own package, `jforge.tests` for JDK classes, `None` for the default package.
pub fn test_package(class: &str, explicit: Option<&str>) -> Option<String> {
    if let Some(p) = explicit {
        return Some(p.to_string()).filter(|p| !p.is_empty());
    }
    let (pkg, _) = class.rsplit_once('.')?;
    if RESTRICTED.iter().any(|r| format!("{pkg}.").starts_with(r)) {
        Some("jforge.tests".to_string())
    } else {
        Some(pkg.to_string())
    }
}

/// `a.b.Outer$Inner` -> `Outer_Inner`, made a valid Java identifier.
pub fn stem(class: &str) -> String {
    let simple = class.rsplit('.').next().unwrap_or(class);
    let mut s: String = simple
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, '_');
    }
    s
}

/// Name of the `k`-th (0-based) class of a family: `CircleRegressionTest`,
/// `CircleRegression2Test`, ...
pub fn class_name(stem: &str, word: &str, k: usize) -> String {
    class_name_as(stem, word, k, TEST_SUFFIX)
}

/// The usual last word of a test class name (`CircleRegressionTest`), which Maven's
/// Surefire and other builds' default includes match.
pub const TEST_SUFFIX: &str = "Test";
/// The last word of error-revealing test classes written next to the regression tests of a
/// build that must stay green (`CircleErrorCases`): Surefire's default includes (`Test*`,
/// `*Test`, `*Tests`, `*TestCase`) do not match it, `-Dtest='*ErrorCases'` selects it.
pub const UNRUN_SUFFIX: &str = "Cases";

/// [`class_name`] with another last word than `Test`.
pub fn class_name_as(stem: &str, word: &str, k: usize, suffix: &str) -> String {
    if k == 0 {
        format!("{stem}{word}{suffix}")
    } else {
        format!("{stem}{word}{}{suffix}", k + 1)
    }
}

/// Checks a package name the tests are written to.
pub fn check_package(p: &str) -> Result<()> {
    let ok = p.split('.').all(|s| {
        !s.is_empty()
            && !s.starts_with(|c: char| c.is_ascii_digit())
            && s.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    });
    if ok {
        Ok(())
    } else {
        Err(anyhow!(
            "'{p}' is not a valid Java package name; pass e.g. --test-package com.example.tests"
        ))
    }
}

/// The class under test a test belongs to: its `owner` when that is a class under test (an
/// error test: the class whose code broke the contract), else that of its last call of a
/// class under test, else the first of `classes`. (Operations of interfaces that guidance calls on returned objects,
/// `Iterator.next()`, have an owner outside `classes`: helpers here.) The same rule as the
/// summary's per-class counts (`generate::report`'s class rows), so that a class's row counts
/// the tests of its file family (they once differed: Document 126 in the table, 173 in its
/// files).
pub fn owner<'a>(
    case: &TestCase,
    owner_class: &[Option<String>],
    classes: &'a [String],
) -> &'a str {
    let of = |s: &Stmt| match s {
        Stmt::Call { op, .. } => {
            let c = owner_class.get(*op as usize)?.as_deref()?;
            classes.iter().find(|k| k.as_str() == c).map(|k| k.as_str())
        }
        _ => None,
    };
    if let Some(own) = case
        .defect
        .as_ref()
        .and_then(|d| d.owner.as_deref())
        .and_then(|o| classes.iter().find(|k| k.as_str() == o))
    {
        return own;
    }
    let fallback = classes.first().map_or("", |c| c.as_str());
    case.seq.stmts.iter().rev().find_map(of).unwrap_or(fallback)
}

/// The marker line at the top of every file a command writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    pub tool: String,
    pub classes: Vec<String>,
    pub run: String,
    /// What a re-run with the same options replays (`gen` with a time limit only).
    pub replay: Option<Replay>,
}

/// The budget of a time-limited `gen` run in sequences, and the options it ran with (a hash
/// of `GenSettings::options_key`): a re-run with the same options stops at that many
/// sequences, so that on unchanged code it generates, and writes, what the earlier run did.
/// Why: generation is deterministic for a number of sequences, a time limit is not; two
/// 5 s runs of TreeMap differed in 1,116 to 3,486 of 12,500 lines, each reaching another
/// count (issue 33: re-runs change under 5% of the lines).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub sequences: u64,
    /// With `--project`: the count of sequences at which the project's own tests' coverage
    /// began to steer generation (`generate::random::Steer`), which a replay repeats.
    pub steered: Option<u64>,
    pub options: String,
}

const MARKER_PREFIX: &str = "// jforge: ";

impl Marker {
    pub fn line(&self) -> String {
        let replay = self
            .replay
            .as_ref()
            .map(|r| {
                let steered = r
                    .steered
                    .map(|k| format!(", steered: {k}"))
                    .unwrap_or_default();
                format!(
                    ", sequences: {}{steered}, options: {}",
                    r.sequences, r.options
                )
            })
            .unwrap_or_default();
        format!(
            "{MARKER_PREFIX}{}, classes: {}, run: {}{replay}",
            self.tool,
            self.classes.join(" "),
            self.run
        )
    }

    /// Reads a marker line; `None` for anything else (a file jforge did not write, or one
    /// from a jforge without markers).
    pub fn parse(line: &str) -> Option<Marker> {
        let rest = line.trim_end().strip_prefix(MARKER_PREFIX)?;
        let (tool, rest) = rest.split_once(", classes: ")?;
        let (classes, run) = rest.rsplit_once(", run: ")?;
        let classes: Vec<String> = classes.split_whitespace().map(str::to_string).collect();
        // after the run's id, optional fields (a marker without them is read as before)
        let (run, replay) = match run.split_once(", sequences: ") {
            Some((run, r)) => {
                let (n, options) = r.split_once(", options: ")?;
                let (n, steered) = match n.split_once(", steered: ") {
                    Some((n, k)) => (n, Some(k.parse().ok()?)),
                    None => (n, None),
                };
                let replay = Replay {
                    sequences: n.parse().ok()?,
                    steered,
                    options: options.to_string(),
                };
                (run, Some(replay))
            }
            None => (run, None),
        };
        if tool.is_empty() || classes.is_empty() || run.is_empty() {
            return None;
        }
        Some(Marker {
            tool: tool.to_string(),
            classes,
            run: run.to_string(),
            replay,
        })
    }

    /// The marker of a file, from its first line, or the first after a leading block comment
    /// (a license header).
    pub fn of_file(path: &Path) -> Option<Marker> {
        use std::io::Read;
        let f = std::fs::File::open(path).ok()?;
        let mut head = Vec::new();
        f.take(64 << 10).read_to_end(&mut head).ok()?;
        Marker::of_text(&String::from_utf8_lossy(&head))
    }

    /// The marker of a file's text: its first line, or the first after a leading `/* ... */`
    /// comment.
    pub fn of_text(text: &str) -> Option<Marker> {
        let text = text.trim_start_matches('\u{feff}');
        let rest = match text.trim_start().strip_prefix("/*") {
            Some(comment) => {
                let after = &comment[comment.find("*/")? + 2..];
                after
                    .trim_start_matches([' ', '\t'])
                    .trim_start_matches(['\r', '\n'])
            }
            None => text,
        };
        Marker::parse(rest.lines().next()?)
    }
}

/// Which folder a file goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Root {
    /// The output folder (the build's test sources).
    Suite,
    /// The folder of error-revealing tests (when they are kept apart).
    Errors,
}

/// A rendered test class, not yet on disk.
#[derive(Clone, Debug)]
pub struct Rendered {
    pub root: Root,
    /// Path below the root: package folders and file name.
    pub rel: PathBuf,
    pub class_name: String,
    pub class_under_test: String,
    pub error_suite: bool,
    pub tests: Vec<WrittenTest>,
    pub text: String,
}

/// What a command asks for.
pub struct SuiteSpec<'a> {
    pub tool: Tool,
    /// JUnit version, tests per file, `--test-package` (`package`); `out_dir` is not used.
    pub emit: &'a EmitConfig,
    /// The classes under test of the run.
    pub classes: &'a [String],
    /// Per operation id, the class under test it belongs to (`OpSet::owner_class`).
    pub owner_class: &'a [Option<String>],
    /// Where error-revealing tests go.
    pub error_root: Root,
    /// Last word of the error-revealing test classes' names ([`TEST_SUFFIX`] or
    /// [`UNRUN_SUFFIX`]).
    pub error_suffix: &'static str,
    /// Regression tests read back from an earlier run, by sequence fingerprint: the test
    /// class (simple name) and method they had, kept when the family's stem is unchanged.
    pub placements: &'a HashMap<u128, Placement>,
    /// A comment above the marker line of every file (the license header of `--project`).
    pub header: Option<&'a str>,
    /// The budget a re-run with the same options replays (see [`Replay`]).
    pub replay: Option<&'a Replay>,
}

/// Where a test read back from an earlier run was: kept there, under its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Simple name of its test class.
    pub class: String,
    pub method: String,
}

/// The name of the `n`-th test (1-based) with `width` digits.
fn test_name(n: usize, width: usize) -> String {
    format!("test{n:0width$}")
}

/// File index and method name of each test of a family, `placed`: where each was in the
/// earlier run (file index, name), if read back. Without earlier tests: files of `per` in
/// order, `test1`.. with as many digits as the count needs (the layout before re-runs).
/// With them: each earlier test stays in its file under its name (a file whose tests all
/// went is not refilled); new tests go after them, into the last file while it has room,
/// then into new files, named on from the highest earlier number, so no kept test is
/// renamed or moved.
pub fn layout(placed: &[Option<(usize, String)>], per: usize) -> Vec<(usize, String)> {
    let per = per.max(1);
    let number = |m: &str| {
        m.strip_prefix("test")
            .filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
            .map(|d| (d.parse::<usize>().unwrap_or(0), d.len()))
    };
    let mut names: HashSet<&str> = HashSet::new();
    let mut per_file: BTreeMap<usize, usize> = BTreeMap::new();
    let (mut top, mut width) = (0, 0);
    let placed: Vec<Option<&(usize, String)>> = placed
        .iter()
        .map(|p| {
            let p = p.as_ref().filter(|(_, m)| names.insert(m.as_str()))?;
            *per_file.entry(p.0).or_default() += 1;
            if let Some((n, w)) = number(&p.1) {
                top = top.max(n);
                width = width.max(w);
            }
            Some(p)
        })
        .collect();
    let fresh = placed.iter().filter(|p| p.is_none()).count();
    let width = width.max((top + fresh).to_string().len());
    let mut last = per_file.keys().next_back().copied().unwrap_or(0);
    let mut out = Vec::with_capacity(placed.len());
    for p in placed {
        match p {
            Some((k, m)) => out.push((*k, m.clone())),
            None => {
                let n = per_file.entry(last).or_default();
                if *n >= per {
                    last += 1;
                }
                *per_file.entry(last).or_default() += 1;
                top += 1;
                let mut name = test_name(top, width);
                while names.contains(name.as_str()) {
                    top += 1;
                    name = test_name(top, width);
                }
                out.push((last, name));
            }
        }
    }
    out
}

/// Render the suite: families per class, names free of `taken` (root, relative path: a file
/// that may not be replaced), marker lines. Deterministic for identical input.
pub fn render_suite(
    spec: &SuiteSpec,
    ops: &OpTable,
    regression: &[TestCase],
    errors: &[TestCase],
    taken: &dyn Fn(Root, &Path) -> bool,
) -> Result<Vec<Rendered>> {
    let emit = spec.emit;
    if emit.junit != 4 && emit.junit != 5 {
        return Err(anyhow!(
            "unsupported JUnit version {}: choose 4 or 5",
            emit.junit
        ));
    }
    if let Some(p) = emit.package.as_deref().filter(|p| !p.is_empty()) {
        check_package(p)?;
    }
    let (reg_word, err_word) = spec.tool.words();
    let mut suite = SuiteRenderer {
        spec,
        ops,
        taken,
        per: emit.tests_per_file.max(1),
        used: HashSet::new(),
        out: Vec::new(),
    };
    for part in [
        SuitePart {
            cases: regression,
            error_suite: false,
            word: reg_word,
            suffix: TEST_SUFFIX,
            root: Root::Suite,
        },
        SuitePart {
            cases: errors,
            error_suite: true,
            word: err_word,
            suffix: spec.error_suffix,
            root: spec.error_root,
        },
    ] {
        for (class, idx) in families(&part, spec) {
            suite.render_family(&part, class, &idx)?;
        }
    }
    let mut out = suite.out;
    add_markers(spec, &mut out);
    Ok(out)
}

/// The regression or the error-revealing half of a suite.
struct SuitePart<'c> {
    cases: &'c [TestCase],
    error_suite: bool,
    /// The word in its class names (`Regression`, `Error`, ...).
    word: &'static str,
    /// The last word of its class names (`Test`, or `Cases` for error tests a build skips).
    suffix: &'static str,
    /// The folder its files go to.
    root: Root,
}

/// The indices of `part`'s cases per class under test (see [`owner`]), in class order.
fn families<'a>(part: &SuitePart, spec: &SuiteSpec<'a>) -> BTreeMap<&'a str, Vec<usize>> {
    let mut families: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, c) in part.cases.iter().enumerate() {
        families
            .entry(owner(c, spec.owner_class, spec.classes))
            .or_default()
            .push(i);
    }
    families
}

/// The state of [`render_suite`]: what it renders with, and the files rendered so far.
struct SuiteRenderer<'a> {
    spec: &'a SuiteSpec<'a>,
    ops: &'a OpTable,
    taken: &'a dyn Fn(Root, &Path) -> bool,
    /// Tests per file.
    per: usize,
    /// (root, relative path) of every file rendered so far.
    used: HashSet<(Root, PathBuf)>,
    out: Vec<Rendered>,
}

impl SuiteRenderer<'_> {
    /// Renders the family of `class`, the cases `idx` of `part`: in its test package, split
    /// into files of `per` tests, under the first stem whose names are free.
    fn render_family(&mut self, part: &SuitePart, class: &str, idx: &[usize]) -> Result<()> {
        let emit = self.spec.emit;
        let package = test_package(class, emit.package.as_deref());
        if let Some(p) = &package {
            check_package(p).with_context(|| format!("writing the tests of {class}"))?;
        }
        let dir: PathBuf = package
            .as_deref()
            .map(|p| p.replace('.', "/"))
            .unwrap_or_default()
            .into();
        let chosen = self.free_stem(part, class, &dir, idx.len().div_ceil(self.per));
        let cfg = EmitConfig {
            package: package.clone(),
            ..emit.clone()
        };
        let slots = self.slots(part, &chosen, &dir, idx);
        let mut files: BTreeMap<usize, Vec<(usize, &TestCase, String)>> = BTreeMap::new();
        for (&g, (k, method)) in idx.iter().zip(slots) {
            files
                .entry(k)
                .or_default()
                .push((g, &part.cases[g], method));
        }
        let stored = self.spec.tool == Tool::Gen;
        for (k, chunk) in files {
            let name = class_name_as(&chosen, part.word, k, part.suffix);
            let (text, tests) =
                render_class(&cfg, self.ops, &name, &chunk, part.error_suite, stored);
            let rel = dir.join(format!("{name}.java"));
            self.used.insert((part.root, rel.clone()));
            self.out.push(Rendered {
                root: part.root,
                rel,
                class_name: match &package {
                    Some(p) => format!("{p}.{name}"),
                    None => name,
                },
                class_under_test: class.to_string(),
                error_suite: part.error_suite,
                tests,
                text,
            });
        }
        Ok(())
    }

    /// File index and method name of each case `idx` of `part` in the family of stem
    /// `chosen` (see [`layout`]); earlier tests of another stem count as new, and so do all
    /// when the layout would need a file name that is taken.
    fn slots(
        &self,
        part: &SuitePart,
        chosen: &str,
        dir: &Path,
        idx: &[usize],
    ) -> Vec<(usize, String)> {
        let file_of = |class: &str| {
            (0..10_000).find(|&k| class_name_as(chosen, part.word, k, part.suffix) == class)
        };
        let placed: Vec<Option<(usize, String)>> = idx
            .iter()
            .map(|&g| {
                if part.error_suite {
                    return None;
                }
                let p = self.spec.placements.get(&part.cases[g].seq.fingerprint())?;
                Some((file_of(&p.class)?, p.method.clone()))
            })
            .collect();
        let slots = layout(&placed, self.per);
        let free = slots.iter().all(|(k, _)| {
            let rel = dir.join(format!(
                "{}.java",
                class_name_as(chosen, part.word, *k, part.suffix)
            ));
            !self.used.contains(&(part.root, rel.clone())) && !(self.taken)(part.root, &rel)
        });
        if free {
            slots
        } else {
            layout(&vec![None; idx.len()], self.per)
        }
    }

    /// The stem of `class`'s family of `files` files in `dir`: its own, else `<stem>_<n>` for
    /// the first n whose names are all free (not rendered yet, not `taken`), with a note.
    fn free_stem(&self, part: &SuitePart, class: &str, dir: &Path, files: usize) -> String {
        let (root, word) = (part.root, part.word);
        let base = stem(class);
        let mut n = 1;
        let chosen = loop {
            let s = if n == 1 {
                base.clone()
            } else {
                format!("{base}_{n}")
            };
            let free = (0..files).all(|k| {
                let rel = dir.join(format!("{}.java", class_name_as(&s, word, k, part.suffix)));
                !self.used.contains(&(root, rel.clone())) && !(self.taken)(root, &rel)
            });
            if free {
                break s;
            }
            n += 1;
        };
        if n > 1 {
            eprintln!(
                "note: {} is taken; the {} tests of {class} go to {} instead",
                dir.join(format!(
                    "{}.java",
                    class_name_as(&base, word, 0, part.suffix)
                ))
                .display(),
                if part.error_suite {
                    "error"
                } else {
                    "regression"
                },
                dir.join(format!(
                    "{}.java",
                    class_name_as(&chosen, word, 0, part.suffix)
                ))
                .display(),
            );
        }
        chosen
    }
}

/// Prepend the marker line (under the header, when there is one). Its `run` field hashes
/// what the file holds (the command, its class, its path and text), not the whole run: a
/// re-run that leaves a file's tests as they were leaves the file byte-identical. It once
/// hashed everything the run wrote, so one test added to one file changed the marker of
/// every file: on Commons CSV, 10 of a re-run's 109 changed lines were markers (issue 33).
fn add_markers(spec: &SuiteSpec, files: &mut [Rendered]) {
    let header = spec
        .header
        .map(|h| format!("{}\n", h.trim_end()))
        .unwrap_or_default();
    let shift = 1 + header.lines().count();
    for f in files {
        let mut h = twox_hash::XxHash64::with_seed(0x6a66);
        h.write(spec.tool.name().as_bytes());
        h.write(f.class_under_test.as_bytes());
        h.write(b"\n");
        h.write(f.rel.to_string_lossy().as_bytes());
        h.write(f.text.as_bytes());
        let m = Marker {
            tool: spec.tool.name().to_string(),
            classes: vec![f.class_under_test.clone()],
            run: format!("{:016x}", h.finish()),
            replay: spec.replay.cloned(),
        };
        f.text = format!("{header}{}\n{}", m.line(), f.text);
        for t in &mut f.tests {
            t.lines = (t.lines.0 + shift, t.lines.1 + shift);
            for a in &mut t.assertions {
                a.0 += shift;
            }
        }
    }
}

fn not_writable(dir: &Path, e: impl std::fmt::Display) -> anyhow::Error {
    anyhow!(
        "cannot write to {}: {e}; choose another --output-dir",
        dir.display()
    )
}

/// Write rendered files below `root_dir` (creating package folders).
pub fn write_rendered(root_dir: &Path, f: &Rendered) -> Result<WrittenFile> {
    let path = root_dir.join(&f.rel);
    let dir = path.parent().unwrap_or(root_dir);
    std::fs::create_dir_all(dir).map_err(|e| not_writable(dir, e))?;
    std::fs::write(&path, &f.text)
        .map_err(|e| not_writable(dir, e))
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(WrittenFile {
        path,
        class_name: f.class_name.clone(),
        error_suite: f.error_suite,
        tests: f.tests.clone(),
    })
}

/// Write one suite without class families or markers: `RegressionTest`, `Regression2Test`,
/// ... (split at `cfg.tests_per_file`) and `ErrorTest`, ... into `cfg.out_dir/<package
/// path>/`, overwriting files of those names and deleting nothing. For tests of the writer;
/// the commands go through [`super::output`]. Byte-identical output for identical input.
pub fn write_suites(
    cfg: &EmitConfig,
    ops: &OpTable,
    regression: &[TestCase],
    errors: &[TestCase],
) -> Result<Vec<WrittenFile>> {
    if cfg.junit != 4 && cfg.junit != 5 {
        return Err(anyhow!(
            "unsupported JUnit version {}: choose 4 or 5",
            cfg.junit
        ));
    }
    let package = cfg.package.as_deref().filter(|p| !p.is_empty());
    if let Some(p) = package {
        check_package(p)?;
    }
    let dir = match package {
        Some(p) => cfg.out_dir.join(p.replace('.', "/")),
        None => cfg.out_dir.clone(),
    };
    std::fs::create_dir_all(&dir).map_err(|e| not_writable(&dir, e))?;
    let per = cfg.tests_per_file.max(1);
    let mut written = Vec::new();
    for (word, cases, error_suite) in [("Regression", regression, false), ("Error", errors, true)] {
        let width = cases.len().to_string().len();
        let indexed: Vec<(usize, &TestCase, String)> = cases
            .iter()
            .enumerate()
            .map(|(i, c)| (i, c, test_name(i + 1, width)))
            .collect();
        for (k, chunk) in indexed.chunks(per).enumerate() {
            let name = class_name("", word, k);
            let (text, tests) = render_class(cfg, ops, &name, chunk, error_suite, false);
            let rendered = Rendered {
                root: Root::Suite,
                rel: PathBuf::from(format!("{name}.java")),
                class_name: match package {
                    Some(p) => format!("{p}.{name}"),
                    None => name,
                },
                class_under_test: String::new(),
                error_suite,
                tests,
                text,
            };
            written.push(write_rendered(&dir, &rendered)?);
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(stem("com.acme.Circle"), "Circle");
        assert_eq!(stem("com.acme.Outer$Inner"), "Outer_Inner");
        assert_eq!(stem("Plain"), "Plain");
        assert_eq!(
            class_name("Circle", "Regression", 0),
            "CircleRegressionTest"
        );
        assert_eq!(
            class_name("Circle", "Regression", 1),
            "CircleRegression2Test"
        );
        assert_eq!(class_name("", "Error", 0), "ErrorTest");
        assert_eq!(
            test_package("com.acme.Circle", None).as_deref(),
            Some("com.acme")
        );
        assert_eq!(
            test_package("java.util.TreeMap", None).as_deref(),
            Some("jforge.tests")
        );
        assert_eq!(
            test_package("com.sun.net.httpserver.Headers", None).as_deref(),
            Some("jforge.tests")
        );
        assert_eq!(
            test_package("com.sunny.X", None).as_deref(),
            Some("com.sunny")
        );
        assert_eq!(
            test_package("java.util.TreeMap", Some("t")).as_deref(),
            Some("t")
        );
        assert_eq!(test_package("Plain", None), None);
    }

    fn ctor(class: &str) -> crate::sequence::Operation {
        let ty = crate::model::types::JType::class(class);
        crate::sequence::Operation {
            kind: crate::sequence::OpKind::Constructor,
            class: class.to_string(),
            name: "<init>".into(),
            descriptor: "()V".into(),
            owner: ty.clone(),
            params: vec![],
            ret: Some(ty),
            varargs: false,
            overloaded: false,
            method_type_args: vec![],
            outer_instance: false,
            stub: None,
        }
    }

    fn case(ops: &[u32]) -> TestCase {
        let stmts: Vec<Stmt> = ops
            .iter()
            .map(|&op| Stmt::Call { op, args: vec![] })
            .collect();
        TestCase {
            defect: None,
            asserts: vec![None; stmts.len()],
            seq: std::sync::Arc::new(crate::sequence::Sequence { stmts }),
            observers: vec![],
            ending: super::super::Ending::Normal,
        }
    }

    #[test]
    fn families_per_class_in_its_package() {
        let mut ops = OpTable::default();
        for c in [
            "com.acme.Circle",
            "other.Square",
            "java.util.ArrayList",
            "com.acme.Outer$Inner",
        ] {
            ops.intern(ctor(c));
        }
        let owner_class = vec![
            Some("com.acme.Circle".to_string()),
            Some("other.Square".to_string()),
            None,
            Some("com.acme.Outer$Inner".to_string()),
        ];
        let classes: Vec<String> = ["com.acme.Circle", "com.acme.Outer$Inner", "other.Square"]
            .map(String::from)
            .to_vec();
        // last call on a helper (ArrayList): goes with the first class under test it uses
        let regression = [
            case(&[0]),
            case(&[1]),
            case(&[0, 2]),
            case(&[3]),
            case(&[0]),
        ];
        let errors = [case(&[1])];
        let emit = EmitConfig {
            out_dir: PathBuf::new(),
            junit: 4,
            package: None,
            tests_per_file: 2,
        };
        let spec = SuiteSpec {
            tool: Tool::Gen,
            emit: &emit,
            classes: &classes,
            owner_class: &owner_class,
            error_root: Root::Errors,
            error_suffix: TEST_SUFFIX,
            placements: &HashMap::new(),
            header: None,
            replay: None,
        };
        let taken = |root: Root, rel: &Path| {
            root == Root::Suite && rel == Path::new("other/SquareRegressionTest.java")
        };
        let files = render_suite(&spec, &ops, &regression, &errors, &taken).unwrap();
        let got: Vec<(Root, String, Vec<usize>)> = files
            .iter()
            .map(|f| {
                (
                    f.root,
                    f.rel.display().to_string(),
                    f.tests.iter().map(|t| t.case).collect(),
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    Root::Suite,
                    "com/acme/CircleRegressionTest.java".into(),
                    vec![0, 2]
                ),
                (
                    Root::Suite,
                    "com/acme/CircleRegression2Test.java".into(),
                    vec![4]
                ),
                (
                    Root::Suite,
                    "com/acme/Outer_InnerRegressionTest.java".into(),
                    vec![3]
                ),
                (
                    Root::Suite,
                    "other/Square_2RegressionTest.java".into(),
                    vec![1]
                ),
                (Root::Errors, "other/SquareErrorTest.java".into(), vec![0]),
            ]
        );
        assert_eq!(files[0].class_name, "com.acme.CircleRegressionTest");
        // Error tests next to the regression tests of a build that must stay green.
        let unrun = SuiteSpec {
            error_root: Root::Suite,
            error_suffix: UNRUN_SUFFIX,
            ..spec
        };
        let other = render_suite(&unrun, &ops, &regression, &errors, &taken).unwrap();
        let last = other.last().unwrap();
        assert_eq!(
            (last.root, last.rel.display().to_string()),
            (Root::Suite, "other/SquareErrorCases.java".into())
        );
        // Each file's marker hashes that file: the same tests give the same file, and a
        // file whose tests did not change keeps its bytes when another file's did.
        let again = render_suite(&spec, &ops, &regression, &errors, &taken).unwrap();
        let fewer = render_suite(&spec, &ops, &regression[..4], &errors, &taken).unwrap();
        let text_of = |fs: &[Rendered], rel: &str| {
            fs.iter()
                .find(|f| f.rel == Path::new(rel))
                .map(|f| f.text.clone())
        };
        for rel in [
            "com/acme/CircleRegressionTest.java",
            "com/acme/CircleRegression2Test.java",
        ] {
            assert_eq!(text_of(&files, rel), text_of(&again, rel), "{rel}");
        }
        let inner = "com/acme/Outer_InnerRegressionTest.java";
        assert_eq!(text_of(&files, inner), text_of(&fewer, inner));
        assert_eq!(text_of(&fewer, "com/acme/CircleRegression2Test.java"), None);
        let runs: std::collections::HashSet<String> = files
            .iter()
            .map(|f| Marker::parse(f.text.lines().next().unwrap()).unwrap().run)
            .collect();
        assert_eq!(runs.len(), files.len(), "one hash per file");
        for f in &files {
            let lines: Vec<&str> = f.text.lines().collect();
            let m = Marker::parse(lines[0]).unwrap();
            assert_eq!(m.tool.as_str(), "gen");
            assert_eq!(m.run.len(), 16);
            assert_eq!(m.classes, vec![f.class_under_test.clone()]);
            // methods numbered per family; recorded line ranges include the marker line
            // and the test's stored sequence (an error-revealing test's flagged as one)
            for t in &f.tests {
                let first = lines[t.lines.0 - 1];
                assert!(first.starts_with("    // jforge-seq: "), "{first}");
                assert_eq!(first.ends_with(r#","e":true}"#), f.error_suite, "{first}");
                assert_eq!(lines[t.lines.0], "    @Test");
                assert_eq!(lines[t.lines.1 - 1], "    }");
            }
        }
        assert_eq!(files[1].tests[0].method, "test3");
        // identical input, identical output (run id included)
        let again = render_suite(&spec, &ops, &regression, &errors, &taken).unwrap();
        assert!(files.iter().zip(&again).all(|(a, b)| a.text == b.text));
        // Under a license header: every file starts with it, then the same text; line
        // ranges follow.
        let header = "/*\n * Licensed to the Apache Software Foundation (ASF)\n */";
        let headed = SuiteSpec {
            header: Some(header),
            ..spec
        };
        let under = render_suite(&headed, &ops, &regression, &errors, &taken).unwrap();
        for (a, b) in files.iter().zip(&under) {
            assert_eq!(b.text, format!("{header}\n{}", a.text));
            assert_eq!(Marker::of_text(&b.text), Marker::of_text(&a.text));
            let lines: Vec<&str> = b.text.lines().collect();
            for (ta, tb) in a.tests.iter().zip(&b.tests) {
                assert_eq!(tb.lines, (ta.lines.0 + 3, ta.lines.1 + 3));
                assert_eq!(lines[tb.lines.1 - 1], "    }");
                for (x, y) in ta.assertions.iter().zip(&tb.assertions) {
                    assert_eq!((x.0 + 3, x.1), *y);
                }
            }
        }
    }

    #[test]
    fn markers_round_trip() {
        let m = Marker {
            tool: "gen".into(),
            classes: vec!["com.acme.Circle".into(), "com.acme.Outer$Inner".into()],
            run: "0123456789abcdef".into(),
            replay: None,
        };
        let replayed = Marker {
            replay: Some(Replay {
                sequences: 82373,
                steered: None,
                options: "fedcba9876543210".into(),
            }),
            ..m.clone()
        };
        assert_eq!(
            replayed.line(),
            "// jforge: gen, classes: com.acme.Circle com.acme.Outer$Inner, run: 0123456789abcdef, sequences: 82373, options: fedcba9876543210"
        );
        assert_eq!(Marker::parse(&replayed.line()), Some(replayed.clone()));
        assert_eq!(
            Marker::parse(&replayed.line().replace("82373", "many")),
            None,
            "a count that is not a number is not a marker"
        );
        let steered = Marker {
            replay: Some(Replay {
                sequences: 82373,
                steered: Some(4096),
                options: "fedcba9876543210".into(),
            }),
            ..m.clone()
        };
        assert!(
            steered
                .line()
                .ends_with(", sequences: 82373, steered: 4096, options: fedcba9876543210")
        );
        assert_eq!(Marker::parse(&steered.line()), Some(steered.clone()));
        assert_eq!(
            m.line(),
            "// jforge: gen, classes: com.acme.Circle com.acme.Outer$Inner, run: 0123456789abcdef"
        );
        assert_eq!(Marker::parse(&m.line()), Some(m.clone()));
        assert_eq!(Marker::parse(&format!("{}\r\n", m.line())), Some(m.clone()));
        // Under a license header, as `--project` writes it.
        let header = "/*\n * Licensed to the Apache Software Foundation (ASF)\n */";
        assert_eq!(
            Marker::of_text(&format!("{header}\n{}\npackage a;\n", m.line())),
            Some(m.clone())
        );
        assert_eq!(
            Marker::of_text(&format!("{header}\npackage a;\n{}\n", m.line())),
            None
        );
        for bad in [
            "// Generated by jforge, an automatic unit-test generator for Java.",
            "// jforge: gen, run: 1",
            "// jforge: gen, classes: , run: 1",
            "package a;",
        ] {
            assert_eq!(Marker::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn layout_keeps_earlier_tests_and_appends_new_ones() {
        // no earlier tests: files of 2, names by position
        let fresh = layout(&[None, None, None], 2);
        assert_eq!(
            fresh,
            vec![
                (0, "test1".into()),
                (0, "test2".into()),
                (1, "test3".into())
            ]
        );
        // earlier: file 0 had test01, test03 (test02 went), file 1 had test04; two new tests
        let placed = vec![
            Some((0, "test01".to_string())),
            Some((0, "test03".to_string())),
            Some((1, "test04".to_string())),
            None,
            None,
        ];
        assert_eq!(
            layout(&placed, 2),
            vec![
                (0, "test01".into()),
                (0, "test03".into()),
                (1, "test04".into()),
                (1, "test05".into()),
                (2, "test06".into()),
            ]
        );
    }
}
