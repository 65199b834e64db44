//! `jforge coverage`: runs a JUnit 4/5 suite against instrumented copies of the selected
//! classes and reports line and branch coverage (terminal table, JSON, JaCoCo XML, HTML).
//!
//! How: the classes (and their nested classes) are instrumented into a temporary folder put
//! first on the class path (JDK classes are patched into java.base); test sources are compiled
//! with javac; the JUnit Platform console launcher (Jupiter + Vintage engines, so JUnit 4 and 5
//! suites both run) runs under a tiny launcher whose shutdown hook writes the hit probe ids.

use crate::cli::CoverageArgs;
use crate::coverage::{Setup, report, summarize};
use crate::model::classpath::{ClassPath, JdkClasses, JmodClasses};
use crate::runner::java::find_java;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

const LAUNCHER: &str = include_str!("coverage/JforgeCovLauncher.java");

/// No JDK class source when the JDK has no jmods: only class-path classes can be measured.
struct NoJdk;
impl JdkClasses for NoJdk {
    fn class_bytes(&mut self, _: &str) -> Result<Option<Vec<u8>>> {
        Ok(None)
    }
    fn list_classes(&mut self, _: &str) -> Result<Vec<String>> {
        Ok(vec![])
    }
}

fn files_with_ext(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) -> Result<()> {
    for e in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let p = e?.path();
        if p.is_dir() {
            files_with_ext(&p, ext, out)?;
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
    Ok(())
}

fn junit_classpath(explicit: Option<&str>) -> Result<Vec<PathBuf>> {
    if let Some(cp) = explicit {
        return crate::emit::validate::find_junit(5, Some(cp));
    }
    let mut v = crate::emit::validate::find_junit(5, None)?;
    if !v
        .iter()
        .any(|p| p.to_string_lossy().contains("console-standalone"))
    {
        bail!(
            "jforge coverage runs suites with the JUnit Platform console launcher: install Debian \
             package junit5 (junit-platform-console-standalone.jar) or pass --junit-classpath"
        );
    }
    if let Ok(j4) = crate::emit::validate::find_junit(4, None) {
        v.extend(j4);
    }
    Ok(v)
}

pub fn run(args: CoverageArgs) -> Result<crate::exit::Outcome> {
    crate::interrupt::install()?;
    crate::interrupt::settle(measure(args))
}

fn measure(args: CoverageArgs) -> Result<crate::exit::Outcome> {
    args.check()?;
    if args.classes.is_empty() && args.packages.is_empty() {
        bail!("say which classes to measure: --class NAME (repeatable) or --package PREFIX");
    }
    let java = find_java(args.java.as_deref())?;
    let javac = java
        .javac
        .clone()
        .context("no javac in the JDK: point --java at a JDK, not a JRE")?;
    let cp = ClassPath::parse(&args.classpath)?;
    crate::select::check_class_versions(
        &args.classes,
        None,
        &args.packages,
        &[],
        &cp,
        java.version,
    )?;
    let mut jmods: Box<dyn JdkClasses> = match JmodClasses::open(&java.home)? {
        Some(j) => Box::new(j),
        None => Box::new(NoJdk),
    };
    let mut classes: Vec<String> = Vec::new();
    for asked in &args.classes {
        let asked = crate::select::normalize(asked);
        let found = crate::select::find_class(&asked, &mut |n| {
            Ok(cp.find(n)?.is_some() || jmods.class_bytes(n)?.is_some())
        })?;
        match found {
            Some(c) => classes.push(c),
            None => {
                return Err(crate::select::unknown_class_error(
                    &asked,
                    &cp,
                    jmods.as_mut(),
                ));
            }
        }
    }
    for p in &args.packages {
        let found = cp.list_classes(Some(p));
        if found.is_empty() {
            bail!("no class of package {p} on the class path");
        }
        classes.extend(found.into_iter().filter(|c| !c.contains('$')));
    }
    let setup = Setup::prepare(&javac, &cp, jmods.as_mut(), &classes)?;
    let junit = junit_classpath(args.junit_classpath.as_deref())?;

    let tmp = crate::interrupt::temp_dir(tempfile::Builder::new().prefix("jforge-coverage"))
        .context("creating a temporary folder")?;
    // The launcher
    let ldir = tmp.path().join("launcher");
    std::fs::create_dir_all(&ldir)?;
    let lsrc = ldir.join("JforgeCovLauncher.java");
    std::fs::write(&lsrc, LAUNCHER)?;
    javac_run(
        &javac,
        std::slice::from_ref(&setup.runtime_dir),
        &ldir,
        &[lsrc],
    )?;

    // The tests: a jar, a class folder, or sources to compile.
    let tests = &args.tests;
    if !tests.exists() {
        bail!("--tests {}: no such file or folder", tests.display());
    }
    let test_root = if tests.is_dir() {
        let mut srcs = Vec::new();
        files_with_ext(tests, "java", &mut srcs)?;
        if srcs.is_empty() {
            tests.clone()
        } else {
            let out = tmp.path().join("tests");
            std::fs::create_dir_all(&out)?;
            let mut ccp = cp.entries().to_vec();
            ccp.extend(junit.iter().cloned());
            javac_run(&javac, &ccp, &out, &srcs).context("compiling the tests")?;
            out
        }
    } else {
        tests.clone()
    };

    let hits_file = tmp.path().join("hits.txt");
    let mut run_cp = vec![setup.class_dir.clone(), ldir.clone()];
    run_cp.extend(cp.entries().iter().cloned());
    run_cp.push(test_root.clone());
    run_cp.extend(junit.iter().cloned());
    let run_cp = std::env::join_paths(&run_cp).context("a class path entry contains ':'")?;
    let o = Command::new(&java.java)
        .args(&setup.jvm_args)
        .arg("-cp")
        .arg(&run_cp)
        .arg("JforgeCovLauncher")
        .arg(&hits_file)
        .arg(setup.total_probes.to_string())
        .args([
            "org.junit.platform.console.ConsoleLauncher",
            "--disable-banner",
            "--details=summary",
            "--disable-ansi-colors",
            "--include-classname",
            ".*",
            "--scan-classpath",
        ])
        .arg(&test_root)
        .output()
        .with_context(|| format!("running {}", java.java.display()))?;
    let text = String::from_utf8_lossy(&o.stdout);
    let summary: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("tests successful") || l.contains("tests failed"))
        .collect();
    if !args.quiet {
        for l in &summary {
            eprintln!(
                "{}",
                l.trim_matches(|c: char| c == '[' || c == ']' || c.is_whitespace())
            );
        }
    }
    let Ok(hits) = std::fs::read_to_string(&hits_file) else {
        bail!(
            "the test JVM did not report coverage (exit {}); its output:\n{}\n{}",
            o.status,
            text,
            String::from_utf8_lossy(&o.stderr)
        );
    };
    if summary.is_empty() {
        eprintln!(
            "warning: the JUnit launcher printed no summary; its output:\n{text}\n{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let mut hit = vec![false; setup.total_probes as usize];
    for l in hits.lines() {
        if let Ok(id) = l.trim().parse::<usize>()
            && id < hit.len()
        {
            hit[id] = true;
        }
    }
    let summaries = summarize(&setup.maps, &hit);
    print!("{}", report::table(&summaries, args.methods));
    if let Some(p) = &args.json {
        std::fs::write(p, serde_json::to_string_pretty(&report::json(&summaries))?)
            .with_context(|| format!("writing {}", p.display()))?;
    }
    if let Some(p) = &args.xml {
        std::fs::write(p, report::xml(&summaries, "jforge"))
            .with_context(|| format!("writing {}", p.display()))?;
    }
    if let Some(d) = &args.html {
        report::html(&summaries, d, &args.sources)?;
    }
    Ok(crate::exit::Outcome::Clean)
}

fn javac_run(javac: &Path, cp: &[PathBuf], out: &Path, srcs: &[PathBuf]) -> Result<()> {
    let cp = std::env::join_paths(cp).context("a class path entry contains ':'")?;
    let o = Command::new(javac)
        .args(["-encoding", "UTF-8", "-proc:none", "-nowarn", "-g", "-d"])
        .arg(out)
        .arg("-cp")
        .arg(&cp)
        .args(srcs)
        .output()
        .with_context(|| format!("running {}", javac.display()))?;
    if !o.status.success() {
        bail!(
            "javac failed:\n{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    Ok(())
}
