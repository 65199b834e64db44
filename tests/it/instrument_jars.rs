//! Real jars: instrument every class of commons-lang3 and guava, then load and initialise
//! each instrumented class under `-Xverify:all`. No class may fail verification, and as many
//! classes must load as from the original jar (some fail in both for reasons unrelated to
//! instrumentation, e.g. optional dependencies missing from the class path).
//!
//! Also the benchmark for issue 3: prints the instrumentation time and pass rate
//! (`cargo test --release --test instrument_jars -- --nocapture` for release timings).

use crate::support::instrument as instrument_support;

use instrument_support::*;
use jforge::instrument::instrument_class;
use std::io::Read;
use std::path::Path;
use std::time::Instant;

struct Summary {
    ok: usize,
    verify: usize,
    other: usize,
    lines: Vec<String>,
}

fn load_all(cp: &str, names_file: &Path) -> Summary {
    let out = run_driver(cp, &["load", names_file.to_str().unwrap()], "");
    let last = out.last().expect("driver summary").clone();
    let field = |k: &str| -> usize {
        last.split_whitespace()
            .find_map(|w| w.strip_prefix(&format!("{k}=")))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("bad summary line {last:?}"))
    };
    Summary {
        ok: field("ok"),
        verify: field("verify"),
        other: field("other"),
        lines: out,
    }
}

fn check_jar(jar: &Path) {
    if !jar.exists() {
        panic!(
            "{} is missing; install the Debian package (libcommons-lang3-java / libguava-java)",
            jar.display()
        );
    }
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("instrumented");
    let f = std::fs::File::open(jar).unwrap();
    let mut zip = zip::ZipArchive::new(f).unwrap();
    let mut classes: Vec<(String, Vec<u8>)> = Vec::new();
    for i in 0..zip.len() {
        let mut e = zip.by_index(i).unwrap();
        let name = e.name().unwrap().to_string();
        if !name.ends_with(".class")
            || name.starts_with("META-INF/")
            || name.ends_with("module-info.class")
        {
            continue;
        }
        let mut b = Vec::new();
        e.read_to_end(&mut b).unwrap();
        classes.push((name, b));
    }
    let start = Instant::now();
    let mut next = 0u32;
    let mut results = Vec::with_capacity(classes.len());
    let mut errors = Vec::new();
    for (k, (name, b)) in classes.iter().enumerate() {
        match instrument_class(b, k as u32, next) {
            Ok(ins) => {
                next = ins.probes.end();
                results.push((name, ins));
            }
            Err(e) => errors.push(format!("{name}: {e:#}")),
        }
    }
    let took = start.elapsed();
    assert!(errors.is_empty(), "instrumentation errors: {errors:#?}");
    let skipped: Vec<String> = results
        .iter()
        .flat_map(|(n, i)| {
            i.probes
                .methods
                .iter()
                .filter(|m| m.skipped.is_some())
                .map(move |m| format!("{n} {}", m.name))
        })
        .collect();
    for (name, ins) in &results {
        let p = out.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, &ins.bytes).unwrap();
    }
    let names: Vec<String> = classes
        .iter()
        .map(|(n, _)| n.trim_end_matches(".class").replace('/', "."))
        .collect();
    let names_file = tmp.path().join("names.txt");
    std::fs::write(&names_file, names.join("\n")).unwrap();
    let drv = tmp.path().join("driver");
    build_driver(&drv);

    let base = load_all(&format!("{}:{}", drv.display(), jar.display()), &names_file);
    let inst = load_all(&format!("{}:{}", drv.display(), out.display()), &names_file);
    println!(
        "{}: {} classes instrumented in {:.2?} ({} probes, {} methods skipped); \
         verified+initialised {}/{} (original jar: {}/{}), verify errors {}, other errors {}",
        jar.display(),
        results.len(),
        took,
        next,
        skipped.len(),
        inst.ok,
        names.len(),
        base.ok,
        names.len(),
        inst.verify,
        inst.other
    );
    let verify_lines: Vec<&String> = inst
        .lines
        .iter()
        .filter(|l| l.starts_with("VERIFY"))
        .collect();
    assert_eq!(inst.verify, 0, "verify errors: {verify_lines:#?}");
    assert_eq!(base.verify, 0);
    assert_eq!(
        inst.ok,
        base.ok,
        "instrumented classes that failed to load: {:#?}",
        inst.lines
            .iter()
            .filter(|l| l.starts_with("OTHER"))
            .collect::<Vec<_>>()
    );
    assert!(
        skipped.is_empty(),
        "methods left uninstrumented: {skipped:?}"
    );
    assert!(next > 10_000, "suspiciously few probes: {next}");
}

#[test]
fn commons_lang3_classes_all_verify_after_instrumentation() {
    check_jar(Path::new("/usr/share/java/commons-lang3.jar"));
}

#[test]
#[ignore = "slow: the full tier runs it (.ci/run: cargo test --release -- --include-ignored)"]
fn guava_classes_all_verify_after_instrumentation() {
    check_jar(Path::new("/usr/share/java/guava.jar"));
}
