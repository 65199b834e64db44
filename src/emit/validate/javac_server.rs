//! A javac kept warm for one run (`jforge.worker.JavacServer`, in the worker jar): started
//! before the check, given a warm-up source at once, then asked for each javac round.
//!
//! Why: the check's javac was a fresh JVM per round, and a cold javac spends half its time
//! interpreting itself (TreeMap's 665 tests: 1.1 s cold, 0.5 s after a warm-up compile), and
//! a suite with compile errors pays that in every round. `gen` starts it when generation
//! ends, so that the JVM boots while the tests are finished and the rounds after the first
//! are warm; and when generation runs for a fixed time (`--time-limit` alone), at its start
//! with a warm-up compile, which then costs generation a little CPU and no wall time.
//!
//! Anything wrong with the server (no compiler in the JDK, a JVM that died, an argument it
//! cannot carry) makes [`JavacServer::compile`] fail, and the check runs the javac program as
//! before: the server only ever saves time.

use anyhow::{Context, Result, bail};
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

/// The server JVM's options: as javac's own (`javac::JAVAC_JVM`), C1 only and the serial
/// collector; a run compiles a few times, never long enough for C2 to pay off.
const SERVER_JVM: [&str; 2] = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"];

/// Methods in the warm-up source: 150 (0.55 s of compiling) got most of the gain; 450 no more.
const WARM_UP_METHODS: usize = 150;

/// A running javac server; see the module documentation.
pub struct JavacServer {
    inner: Mutex<Inner>,
}

impl std::fmt::Debug for JavacServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JavacServer")
    }
}

struct Inner {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    /// Requests sent so far; a request's id is its number.
    sent: u64,
    dir: crate::interrupt::TempDir,
    /// Set once the server failed: every later compile goes to the javac program.
    broken: bool,
}

impl JavacServer {
    /// Starts the server with the JDK's `java`, and gives it the warm-up source when
    /// `warm_up`.
    pub fn start(java: &Path, warm_up: bool) -> Result<JavacServer> {
        let jar = crate::runner::jar::worker_jar()?;
        let dir = crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-javac"))
            .context("cannot create a temporary folder for the javac server")?;
        let mut child = Command::new(java)
            .args(SERVER_JVM)
            .arg("-cp")
            .arg(&jar)
            .arg("jforge.worker.JavacServer")
            .current_dir(dir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot run {}", java.display()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            bail!("the javac server's pipes were not set up");
        };
        let mut inner = Inner {
            child,
            stdin,
            stdout: BufReader::new(stdout),
            sent: 0,
            dir,
            broken: false,
        };
        if warm_up {
            inner.warm_up()?;
        }
        Ok(JavacServer {
            inner: Mutex::new(inner),
        })
    }

    /// Compiles with these javac arguments: (whether javac succeeded, its output), or an
    /// error when the server cannot (the caller then runs the javac program).
    pub fn compile(&self, args: &[OsString]) -> Result<(bool, String)> {
        let mut r = self.compile_side_by_side(std::slice::from_ref(&args.to_vec()))?;
        r.pop().context("the javac server gave no answer")
    }

    /// Compiles each argument list at the same time, each on a thread of the server; their
    /// results in the same order.
    pub fn compile_side_by_side(&self, jobs: &[Vec<OsString>]) -> Result<Vec<(bool, String)>> {
        let mut inner = self
            .inner
            .lock()
            .map_err(|_| anyhow::anyhow!("the javac server's lock is poisoned"))?;
        if inner.broken {
            bail!("the javac server failed before");
        }
        let r = inner.compile(jobs);
        if r.is_err() {
            inner.broken = true;
        }
        r
    }
}

impl Inner {
    /// Sends the warm-up source (its answer is passed over by the next compile).
    fn warm_up(&mut self) -> Result<()> {
        let src = self.dir.path().join("warm").join("WarmUp.java");
        std::fs::create_dir_all(src.parent().unwrap_or(self.dir.path()))?;
        std::fs::write(&src, warm_up_source(WARM_UP_METHODS))?;
        let classes = self.dir.path().join("warm-classes");
        let args: Vec<OsString> = ["-proc:none", "-nowarn", "-d"]
            .into_iter()
            .map(OsString::from)
            .chain([classes.into_os_string(), src.into_os_string()])
            .collect();
        self.send(&args)?;
        Ok(())
    }

    /// Writes the argument file of the next request and sends it; returns its id and file.
    fn send(&mut self, args: &[OsString]) -> Result<(u64, PathBuf)> {
        let mut text = String::new();
        for a in args {
            let a = a
                .to_str()
                .context("an argument is not UTF-8: the javac server cannot carry it")?;
            if a.contains(['\n', '\r']) {
                bail!("an argument holds a line break: the javac server cannot carry it");
            }
            text.push_str(a);
            text.push('\n');
        }
        self.sent += 1;
        let id = self.sent;
        let file = self.dir.path().join(format!("args{id}.txt"));
        std::fs::write(&file, text).context("writing the javac server's argument file")?;
        let path = file
            .to_str()
            .context("the temporary folder's path is not UTF-8")?;
        writeln!(self.stdin, "{id}\t{path}").context("the javac server is gone")?;
        self.stdin.flush().context("the javac server is gone")?;
        Ok((id, file))
    }

    fn compile(&mut self, jobs: &[Vec<OsString>]) -> Result<Vec<(bool, String)>> {
        let mut sent = Vec::new();
        for args in jobs {
            sent.push(self.send(args)?);
        }
        let mut codes: Vec<Option<i32>> = vec![None; sent.len()];
        while codes.iter().any(Option::is_none) {
            let mut line = String::new();
            if self.stdout.read_line(&mut line)? == 0 {
                bail!("the javac server ended");
            }
            let line = line.trim_end();
            if line == "NOJAVAC" {
                bail!("the JDK has no compiler API");
            }
            let Some((got, rc)) = line.split_once('\t') else {
                continue;
            };
            // Answers to earlier requests (the warm-up) are passed over.
            let Some(k) = sent.iter().position(|(id, _)| got == id.to_string()) else {
                continue;
            };
            let rc: i32 = rc.parse().context("the javac server's answer")?;
            if rc < 0 {
                bail!("javac failed inside the server");
            }
            codes[k] = Some(rc);
        }
        sent.iter()
            .zip(codes)
            .map(|((_, file), rc)| {
                let out = std::fs::read(format!("{}.out", file.display()))
                    .context("reading the javac server's output")?;
                Ok((rc == Some(0), String::from_utf8_lossy(&out).into_owned()))
            })
            .collect()
    }
}

impl Drop for Inner {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A source shaped like written tests (generic locals, overloaded assertions, try/catch
/// around an expected exception), JDK only, `methods` test-like methods long.
fn warm_up_source(methods: usize) -> String {
    let mut s = String::from(
        "package warm;\n\nimport java.util.*;\n\npublic class WarmUp {\n\
         \x20   static void assertEquals(long a, long b) {}\n\
         \x20   static void assertEquals(Object a, Object b) {}\n\
         \x20   static void assertEquals(double a, double b, double d) {}\n\
         \x20   static void assertTrue(boolean b) {}\n\
         \x20   static void fail(String m) {}\n",
    );
    for i in 0..methods {
        s.push_str(&format!(
            "\n    public void test{i}() throws Throwable {{\n\
             \x20       TreeMap<String, Integer> map{i} = new TreeMap<String, Integer>();\n\
             \x20       Integer integer{i} = map{i}.put(\"k{i}\", {i});\n\
             \x20       List<String> list{i} = new ArrayList<String>(map{i}.keySet());\n\
             \x20       assertEquals({i}L, (long) list{i}.size());\n\
             \x20       assertEquals(\"k{i}\", map{i}.firstKey());\n\
             \x20       assertEquals(0.5, (double) {i} / 2.0, 0.0);\n\
             \x20       assertTrue(map{i}.containsKey(\"k{i}\") && integer{i} == null);\n\
             \x20       StringBuilder sb{i} = new StringBuilder(\"s{i}\").append('c').append({i});\n\
             \x20       assertEquals(\"s{i}c{i}\", sb{i}.toString());\n\
             \x20       try {{\n\
             \x20           map{i}.put(null, {i});\n\
             \x20           fail(\"Expected exception of type java.lang.NullPointerException\");\n\
             \x20       }} catch (NullPointerException e) {{\n\
             \x20           // expected\n\
             \x20       }}\n\
             \x20   }}\n"
        ));
    }
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The server compiles like the javac program: a good source passes, a bad one fails
    /// with javac's message naming the file and line; the warm-up source compiles.
    #[test]
    fn compiles_and_reports_errors_like_javac() {
        let Ok(java) = crate::runner::java::find_java(None) else {
            return;
        };
        let server = JavacServer::start(&java.java, true).expect("starting the javac server");
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("Good.java");
        std::fs::write(&good, "class Good { int f() { return 1; } }").unwrap();
        let bad = dir.path().join("Bad.java");
        std::fs::write(&bad, "class Bad {\n int f() { return \"x\"; }\n}").unwrap();
        let out = dir.path().join("out");
        let args = |src: &Path| -> Vec<OsString> {
            vec!["-d".into(), out.clone().into_os_string(), src.into()]
        };
        let (ok, text) = server.compile(&args(&good)).unwrap();
        assert!(ok, "{text}");
        assert!(out.join("Good.class").is_file());
        let (ok, text) = server.compile(&args(&bad)).unwrap();
        assert!(!ok);
        assert!(
            text.contains("Bad.java:2: error: incompatible types"),
            "{text}"
        );
        assert!(warm_up_source(3).contains("test2()"));
    }
}
