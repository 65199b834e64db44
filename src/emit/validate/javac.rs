//! Compiling with javac: its JVM's options, one javac run, its error messages, and the copies
//! of the written test files whose failing methods are blanked out between javac rounds.

use crate::emit::WrittenFile;
use anyhow::{Context, Result, anyhow, bail};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Options of javac's own JVM: a check compiles once and exits, so C2 compilation and a
/// parallel collector only cost time (measured on 1000 TreeMap tests: 3.5 s of CPU with the
/// defaults, 1.55 s with these).
pub const JAVAC_JVM: [&str; 2] = ["-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"];

/// The entries as one class path, each made absolute (test JVMs run in a scratch folder).
pub(super) fn join_cp(parts: &[&[PathBuf]]) -> Result<std::ffi::OsString> {
    std::env::join_paths(
        parts
            .iter()
            .flat_map(|p| p.iter())
            .map(|p| std::path::absolute(p).unwrap_or_else(|_| p.clone())),
    )
    .context("a class path entry contains ':'; rename it")
}

/// One javac run; `level`: the flags that set the Java release (see [`level_flags`]). In the
/// warm `server` when there is one and it can take it, else with the javac program.
///
/// With the server, several files and several cores, the files are first compiled in groups
/// side by side (the written test classes do not refer to each other); when a group fails,
/// all of them are compiled again as one, so that the errors the check acts on are those of
/// one javac over the whole suite, as without the server.
pub(super) fn run_javac(
    javac: &Path,
    server: Option<&super::javac_server::JavacServer>,
    cp: &std::ffi::OsStr,
    out: &Path,
    sources: &[PathBuf],
    level: &[String],
) -> Result<(bool, String)> {
    let args = javac_args(cp, out, sources, level);
    if let Some(server) = server {
        let groups = side_by_side_groups(sources);
        if groups.len() > 1 {
            let jobs: Vec<_> = groups
                .iter()
                .map(|g| javac_args(cp, out, g, level))
                .collect();
            if let Ok(r) = server.compile_side_by_side(&jobs)
                && r.iter().all(|(ok, _)| *ok)
            {
                return Ok((true, r.into_iter().map(|(_, t)| t).collect()));
            }
        }
        match server.compile(&args) {
            Ok(r) => return Ok(r),
            Err(e) if super::options::timing_on() => {
                eprintln!("jforge timing: the javac server did not compile ({e:#}); javac runs");
            }
            Err(_) => {}
        }
    }
    let o = Command::new(javac)
        .args(JAVAC_JVM)
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .with_context(|| {
            format!(
                "cannot run javac at {}; pass a JDK with --java",
                javac.display()
            )
        })?;
    let mut text = String::from_utf8_lossy(&o.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&o.stderr));
    Ok((o.status.success(), text))
}

/// The sources in as many groups as there are cores (at most one per file), balanced by
/// size: the largest file first, each into the lightest group.
fn side_by_side_groups(sources: &[PathBuf]) -> Vec<Vec<PathBuf>> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let n = cores.min(sources.len()).max(1);
    let mut sized: Vec<(u64, &PathBuf)> = sources
        .iter()
        .map(|p| (std::fs::metadata(p).map_or(0, |m| m.len()), p))
        .collect();
    sized.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    let mut groups: Vec<(u64, Vec<PathBuf>)> = vec![(0, Vec::new()); n];
    for (len, p) in sized {
        if let Some(g) = groups.iter_mut().min_by_key(|g| g.0) {
            g.0 += len;
            g.1.push(p.clone());
        }
    }
    groups
        .into_iter()
        .map(|g| g.1)
        .filter(|g| !g.is_empty())
        .collect()
}

/// javac's arguments for one compile of `sources` into `out`.
fn javac_args(
    cp: &std::ffi::OsStr,
    out: &Path,
    sources: &[PathBuf],
    level: &[String],
) -> Vec<std::ffi::OsString> {
    level
        .iter()
        .map(|s| s.as_str())
        .chain([
            "-encoding",
            "UTF-8",
            "-proc:none",
            "-nowarn",
            "-Xmaxerrs",
            "100000",
            "-d",
        ])
        .map(std::ffi::OsString::from)
        .chain([out.as_os_str().to_owned(), "-cp".into(), cp.to_owned()])
        .chain(sources.iter().map(|s| s.as_os_str().to_owned()))
        .collect()
}

/// The javac flags that compile for Java `release`, best first: `--release N` (which also
/// holds the JDK's API to that release), then `-source N -target N` (a JDK 8 javac has no
/// `--release`; a newer one may have dropped a release as `--release` but not as `-source`).
/// When javac refuses each ([`level_refused`]), the check compiles with none.
pub(super) fn level_flags(release: Option<u32>) -> Vec<Vec<String>> {
    let Some(n) = release else {
        return Vec::new();
    };
    let n = n.to_string();
    vec![
        vec!["--release".into(), n.clone()],
        vec!["-source".into(), n.clone(), "-target".into(), n],
    ]
}

/// javac failed on its flags rather than on a source: no error names a file, and one speaks
/// of the release, source or target (`release version 5 not supported`, `invalid flag:
/// --release`, `Source option 5 is no longer supported`, `invalid target release: 21`).
pub(super) fn level_refused(out: &str) -> bool {
    let lower = out.to_lowercase();
    parse_javac_errors(out).is_empty()
        && ["release", "source option", "target option", "invalid flag"]
            .iter()
            .any(|w| lower.contains(w))
}

/// `(file, line, message)` for each javac error; the message includes the lines javac prints
/// after the header (source line, caret, symbol/location).
fn parse_javac_errors(out: &str) -> Vec<(String, usize, String)> {
    let header = regex::Regex::new(r"^(.+\.java):(\d+): error: (.*)$").expect("valid regex");
    let other_header =
        regex::Regex::new(r"^(.+\.java):(\d+): (warning|note): ").expect("valid regex");
    let summary = regex::Regex::new(r"^\d+ (error|errors|warning|warnings)$").expect("valid regex");
    let mut errs: Vec<(String, usize, String)> = Vec::new();
    let mut in_error = false;
    for line in out.lines() {
        if let Some(c) = header.captures(line) {
            let ln = c[2].parse().unwrap_or(0);
            errs.push((c[1].to_string(), ln, c[3].to_string()));
            in_error = true;
        } else if other_header.is_match(line)
            || summary.is_match(line)
            || line.starts_with("Note: ")
        {
            in_error = false;
        } else if in_error && let Some(e) = errs.last_mut() {
            e.2.push('\n');
            e.2.push_str(line);
        }
    }
    errs
}

/// The one message for a JUnit class path without the JUnit API (javac's first errors only).
pub(super) fn no_junit_api(junit: u8, junit_cp: &[PathBuf], javac_out: &str) -> anyhow::Error {
    anyhow!(
        "the JUnit {junit} class path ({}) does not provide the JUnit API needed to run tests; \
         install Debian package junit{junit} or pass --junit-classpath. javac said: {}",
        junit_cp
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(":"),
        first_javac_errors(javac_out, 2)
    )
}

/// The first `n` javac error messages of `out`, one line each without the file's folder, and
/// how many more there were (a missing JUnit makes javac print dozens of the same error).
fn first_javac_errors(out: &str, n: usize) -> String {
    let errs = parse_javac_errors(out);
    if errs.is_empty() {
        return out.lines().take(n).collect::<Vec<_>>().join("; ");
    }
    let mut text: Vec<String> = errs
        .iter()
        .take(n)
        .map(|(file, line, msg)| {
            let name = Path::new(file)
                .file_name()
                .map_or(file.clone(), |f| f.to_string_lossy().into_owned());
            format!("{name}:{line}: {}", msg.lines().next().unwrap_or(""))
        })
        .collect();
    if errs.len() > n {
        text.push(format!("... {} more errors", errs.len() - n));
    }
    text.join("; ")
}

/// (file index, test index) -> javac messages, for each test method that does not compile.
pub(super) type BrokenMethods = BTreeMap<(usize, usize), Vec<String>>;

/// Copies of the written test files, compiled by javac: failing methods get blanked out
/// between javac rounds (lines kept, so javac's line numbers stay valid).
pub(super) struct TestSources<'a> {
    files: &'a [WrittenFile],
    /// Per file, its lines as they are compiled next.
    lines: Vec<Vec<String>>,
    /// Per file, the path of its copy (`<tmp>/src/<file index>/<file name>`).
    pub(super) copies: Vec<PathBuf>,
}

impl<'a> TestSources<'a> {
    /// Reads the written files and makes the folders of their copies.
    pub(super) fn copy(files: &'a [WrittenFile], tmp: &Path) -> Result<TestSources<'a>> {
        let mut lines: Vec<Vec<String>> = Vec::with_capacity(files.len());
        let mut copies: Vec<PathBuf> = Vec::with_capacity(files.len());
        for (i, f) in files.iter().enumerate() {
            let text = std::fs::read_to_string(&f.path).with_context(|| {
                format!("cannot read the written test file {}", f.path.display())
            })?;
            lines.push(text.lines().map(str::to_string).collect());
            let name = f
                .path
                .file_name()
                .ok_or_else(|| anyhow!("{} is not a file name", f.path.display()))?;
            let dir = tmp.join("src").join(i.to_string());
            std::fs::create_dir_all(&dir).context("cannot create a temporary folder")?;
            copies.push(dir.join(name));
        }
        Ok(TestSources {
            files,
            lines,
            copies,
        })
    }

    /// Writes the copies as they are now.
    pub(super) fn write(&self) -> Result<()> {
        for (src, copy) in self.lines.iter().zip(&self.copies) {
            let mut text = src.join("\n");
            text.push('\n');
            std::fs::write(copy, text).context("cannot write to the temporary folder")?;
        }
        Ok(())
    }

    /// Maps the errors of a failed javac round to test methods, adding their messages to
    /// `broken`; returns the methods that failed for the first time. An import javac cannot
    /// resolve is blanked out in the copy: the type is newer than the release the tests are
    /// compiled for (`java.lang.reflect.InaccessibleObjectException` under `--release 8`), and
    /// the methods that name it fail in this round or the next and are removed with it (the
    /// file is written again from the tests that remain, so the import goes too). Any other
    /// error outside every test method, or again in a blanked-out one, is an `Err`.
    pub(super) fn blame(
        &mut self,
        out: &str,
        broken: &mut BrokenMethods,
    ) -> Result<Vec<(usize, usize)>> {
        let files = self.files;
        let errs = parse_javac_errors(out);
        if errs.is_empty() {
            bail!("javac failed on the generated tests without a usable error message:\n{out}");
        }
        let mut new_broken = Vec::new();
        for (file, line, msg) in errs {
            let Some(fi) = self.file_index(&file) else {
                bail!("javac reported an error in {file}, which is not a generated test:\n{out}");
            };
            if let Some(text) = self.lines[fi].get_mut(line.wrapping_sub(1))
                && text.trim_start().starts_with("import ")
            {
                text.clear();
                continue;
            }
            let Some(ti) = files[fi]
                .tests
                .iter()
                .position(|t| t.lines.0 <= line && line <= t.lines.1)
            else {
                bail!(
                    "the generated file {} does not compile outside any test method (line {line}), \
                     usually a class that is missing from or not public on the class path \
                     given for the code under test; javac said:\n{out}",
                    files[fi].path.display()
                );
            };
            if broken.contains_key(&(fi, ti)) && !new_broken.contains(&(fi, ti)) {
                bail!("javac still reports errors in a removed test method:\n{out}");
            }
            let entry = broken.entry((fi, ti)).or_default();
            entry.push(format!("{}:{line}: {msg}", files[fi].path.display()));
            if !new_broken.contains(&(fi, ti)) {
                new_broken.push((fi, ti));
            }
        }
        Ok(new_broken)
    }

    /// The index of the copy javac names `file` (as given, or the same file by another path).
    fn file_index(&self, file: &str) -> Option<usize> {
        let copies = &self.copies;
        copies
            .iter()
            .position(|c| Path::new(file) == c.as_path())
            .or_else(|| {
                let canon = std::fs::canonicalize(file).ok()?;
                copies
                    .iter()
                    .position(|c| std::fs::canonicalize(c).ok().as_deref() == Some(canon.as_path()))
            })
    }

    /// Blanks out the lines of these test methods.
    pub(super) fn blank(&mut self, methods: &[(usize, usize)]) {
        for &(fi, ti) in methods {
            let (a, b) = self.files[fi].tests[ti].lines;
            for l in a..=b {
                if let Some(s) = self.lines[fi].get_mut(l - 1) {
                    s.clear();
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_javac_errors() {
        let out = "/t/A.java:12: error: cannot find symbol\n        x.foo();\n         ^\n  symbol:   method foo()\n/t/A.java:20: error: ';' expected\n2 errors\n";
        let e = parse_javac_errors(out);
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].0, "/t/A.java");
        assert_eq!(e[0].1, 12);
        assert!(e[0].2.starts_with("cannot find symbol\n"));
        assert!(e[0].2.contains("symbol:   method foo()"));
        assert_eq!(e[1].1, 20);
        assert_eq!(e[1].2, "';' expected");
    }
}
