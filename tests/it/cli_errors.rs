//! Bad input gets one clear message and a non-zero exit, and nothing is lost.

use crate::support as common;
use common::*;

fn fails_with(args: &[&str], needles: &[&str]) {
    let o = jforge().args(args).output().unwrap();
    assert!(!o.status.success(), "should fail: {args:?}");
    let err = String::from_utf8_lossy(&o.stderr);
    for n in needles {
        assert!(err.contains(n), "stderr lacks '{n}':\n{err}");
    }
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn unknown_class_suggests_near_names() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    fails_with(
        &[
            "gen",
            "--class",
            "java.util.TreeMapp",
            "--output-dir",
            out.to_str().unwrap(),
        ],
        &[
            "java.util.TreeMapp not found",
            "did you mean",
            "java.util.TreeMap",
        ],
    );
}

#[test]
fn bad_classpath_entry() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    fails_with(
        &[
            "gen",
            "--class",
            "a.B",
            "--classpath",
            "/no/such/dir",
            "--output-dir",
            out.to_str().unwrap(),
        ],
        &["/no/such/dir"],
    );
    let notjar = d.path().join("x.jar");
    std::fs::write(&notjar, b"not a zip").unwrap();
    fails_with(
        &[
            "gen",
            "--class",
            "a.B",
            "--classpath",
            notjar.to_str().unwrap(),
            "--output-dir",
            out.to_str().unwrap(),
        ],
        &["x.jar"],
    );
    // --jar names the flag the user gave, not a class path entry
    fails_with(
        &[
            "gen",
            "--jar",
            "/no/such.jar",
            "--output-dir",
            out.to_str().unwrap(),
        ],
        &["--jar /no/such.jar: no such file"],
    );
}

#[test]
fn no_java_found() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    fails_with(
        &[
            "gen",
            "--class",
            "java.util.TreeMap",
            "--java",
            "/no/jdk/here",
            "--output-dir",
            out.to_str().unwrap(),
        ],
        &["JAVA_HOME"],
    );
}

#[test]
fn unwritable_output_folder() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("file");
    std::fs::write(&file, b"x").unwrap();
    let out = file.join("sub");
    fails_with(
        &[
            "gen",
            "--class",
            "java.util.TreeMap",
            "--output-dir",
            out.to_str().unwrap(),
        ],
        &["--output-dir"],
    );
}

#[test]
fn malformed_class_file() {
    let d = tempfile::tempdir().unwrap();
    let cls = d.path().join("cls/bad");
    std::fs::create_dir_all(&cls).unwrap();
    std::fs::write(
        cls.join("Broken.class"),
        b"\xca\xfe\xba\xbe\x00\x00\x00\x3d\x00",
    )
    .unwrap();
    let out = d.path().join("o");
    fails_with(
        &[
            "gen",
            "--class",
            "bad.Broken",
            "--classpath",
            d.path().join("cls").to_str().unwrap(),
            "--output-dir",
            out.to_str().unwrap(),
        ],
        &["bad.Broken"],
    );
}

#[test]
fn class_not_public_or_without_members() {
    let classes = subjects();
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    // A private nested class of a subject.
    fails_with(
        &[
            "gen",
            "--class",
            "ds.BinarySearchTree$Node",
            "--classpath",
            classes.to_str().unwrap(),
            "--output-dir",
            out.to_str().unwrap(),
        ],
        &["ds.BinarySearchTree$Node is private"],
    );
}

#[test]
fn nothing_selected() {
    fails_with(&["gen"], &["--class"]);
}

#[test]
fn class_without_callable_members() {
    let classes = subjects();
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    fails_with(
        &[
            "gen",
            "--class",
            "quirks.NoApi",
            "--classpath",
            classes.to_str().unwrap(),
            "--output-dir",
            out.to_str().unwrap(),
        ],
        &["quirks.NoApi has no constructor, method or field jforge can call"],
    );
}

#[test]
fn bad_method_filter_and_duration() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    fails_with(
        &[
            "gen",
            "--class",
            "java.util.TreeMap",
            "--include-methods",
            "put(",
            "--output-dir",
            out.to_str().unwrap(),
        ],
        &["--include-methods"],
    );
    fails_with(
        &[
            "gen",
            "--class",
            "java.util.TreeMap",
            "--time-limit",
            "5x",
            "--output-dir",
            out.to_str().unwrap(),
        ],
        &["--time-limit", "unit"],
    );
}

#[test]
fn too_many_classes_is_refused_up_front() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    fails_with(
        &[
            "gen",
            "--package",
            "java",
            "--output-dir",
            out.to_str().unwrap(),
        ],
        &["classes selected", "narrow --package"],
    );
}

/// Runs jforge; (exit code, stdout, stderr).
fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let o = jforge().args(args).output().unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn exit_codes_say_what_happened() {
    let classes = subjects();
    let cp = classes.to_str().unwrap();
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    let out = out.to_str().unwrap();
    let gen_args = |class: &'static str| {
        vec![
            "gen",
            "-q",
            "--classpath",
            cp,
            "--class",
            class,
            "--generated-limit",
            "400",
            "--output-dir",
            out,
        ]
    };
    // 0: a correct class, no error-revealing test
    let (code, stdout, stderr) = run(&gen_args("ds.IntStack"));
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    // 3: a broken equals, error-revealing tests written
    let (code, stdout, stderr) = run(&gen_args("quirks.BrokenEquals"));
    assert_eq!(code, Some(3), "{stdout}\n{stderr}");
    assert!(stdout.contains("equals-reflexive"), "{stdout}");
    // 2: bad input (an unknown class; a bad flag value; clap's own usage errors)
    assert_eq!(run(&gen_args("ds.NoSuchClass")).0, Some(2));
    assert_eq!(
        run(&["gen", "--class", "ds.IntStack", "--time-limit", "5x"]).0,
        Some(2)
    );
    assert_eq!(run(&["gen", "--no-such-flag"]).0, Some(2));
    // 4: a budget (exhaustive's scope limit, refused up front)
    let (code, _, stderr) = run(&["exhaustive", "--class", "ds.IntStack", "--scope", "1000"]);
    assert_eq!(code, Some(4), "{stderr}");
    assert!(
        stderr.contains("lower --scope") && !stderr.contains("inf"),
        "{stderr}"
    );
    // --help documents them
    let (code, help, _) = run(&["gen", "--help"]);
    assert_eq!(code, Some(0));
    assert!(help.contains("Exit status") && help.contains("3  success, and error-revealing"));
}

/// A class folder with `com.acme.Circle` whose class-file major version is patched to `major`.
fn circle_compiled_for(major: u16, dir: &std::path::Path) -> std::path::PathBuf {
    let src = dir.join("src/com/acme");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("Circle.java"),
        "package com.acme;\npublic class Circle {\n  private final int r;\n  \
         public Circle(int r) { this.r = r; }\n  public int area() { return 3 * r * r; }\n}\n",
    )
    .unwrap();
    let cls = dir.join("cls");
    javac(&dir.join("src"), &cls, "");
    let f = cls.join("com/acme/Circle.class");
    let mut b = std::fs::read(&f).unwrap();
    b[6..8].copy_from_slice(&major.to_be_bytes());
    std::fs::write(&f, b).unwrap();
    cls
}

#[test]
fn classes_compiled_for_a_newer_java_are_refused_up_front() {
    let jdk = jforge_jdk_feature();
    for (major, java) in [(44 + jdk as u16 + 1, jdk + 1), (70, 26)] {
        if java <= jdk {
            continue;
        }
        let d = tempfile::tempdir().unwrap();
        let cls = circle_compiled_for(major, d.path());
        let cp = cls.to_str().unwrap();
        let out = d.path().join("o");
        let out = out.to_str().unwrap();
        let msg = format!(
            "com.acme.Circle is compiled for Java {java} (class file {major}); the JDK in use is \
             {jdk}: pass --java with a JDK {java} or newer"
        );
        for args in [
            &[
                "gen",
                "--class",
                "com.acme.Circle",
                "--classpath",
                cp,
                "--output-dir",
                out,
            ][..],
            &[
                "gen",
                "--no-coverage",
                "--package",
                "com.acme",
                "--classpath",
                cp,
                "--output-dir",
                out,
            ],
            &[
                "exhaustive",
                "--class",
                "com.acme.Circle",
                "--classpath",
                cp,
                "--scope",
                "2",
            ],
            &[
                "coverage",
                "--class",
                "com.acme.Circle",
                "--classpath",
                cp,
                "--tests",
                out,
            ],
        ] {
            let (code, stdout, stderr) = run(args);
            assert_eq!(code, Some(2), "{args:?}\n{stdout}\n{stderr}");
            assert_eq!(stderr.trim(), format!("error: {msg}"), "{args:?}");
        }
    }
}

/// Feature version of the JDK jforge finds without --java ($JAVA_HOME, else `java` on PATH).
fn jforge_jdk_feature() -> u32 {
    let java = match std::env::var_os("JAVA_HOME").filter(|h| !h.is_empty()) {
        Some(h) => std::path::Path::new(&h).join("bin/java"),
        None => "java".into(),
    };
    let o = std::process::Command::new(java)
        .arg("-version")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stderr).to_string();
    let v = text.split('"').nth(1).unwrap_or("17");
    v.split(['.', '-', '+'])
        .next()
        .and_then(|x| x.parse().ok())
        .unwrap_or(17)
}

#[test]
fn nested_class_written_with_a_dot() {
    let classes = subjects();
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    let json = d.path().join("s.json");
    let (code, stdout, stderr) = run(&[
        "gen",
        "-q",
        "--no-validate",
        "--classpath",
        classes.to_str().unwrap(),
        "--class",
        "quirks.Shapes.Box",
        "--generated-limit",
        "50",
        "--output-dir",
        out.to_str().unwrap(),
        "--stats-json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    assert_eq!(read_json(&json)["classes"][0]["class"], "quirks.Shapes$Box");
}

#[test]
fn flag_values_that_cannot_work() {
    fails_with(
        &["gen", "--class", "java.util.TreeMap", "--workers", "0"],
        &["--workers must be at least 1"],
    );
    fails_with(
        &[
            "exhaustive",
            "--class",
            "java.util.TreeMap",
            "--scope",
            "2",
            "--workers",
            "0",
        ],
        &["--workers must be at least 1"],
    );
    fails_with(
        &["gen", "--package", ""],
        &["--package needs a package prefix"],
    );
    fails_with(&["gen", "--class", " "], &["--class needs a class name"]);
}

#[test]
fn a_class_path_without_junit_is_one_short_message() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    let (code, _, stderr) = run(&[
        "gen",
        "-q",
        "--class",
        "java.util.ArrayList",
        "--generated-limit",
        "30",
        "--junit-classpath",
        "/usr/share/java/hamcrest-core.jar",
        "--output-dir",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("does not provide the JUnit API") && stderr.contains("more errors"),
        "{stderr}"
    );
    assert!(stderr.lines().count() <= 2, "one short message:\n{stderr}");
}

#[test]
fn warnings_are_grouped_and_on_stderr() {
    let classes = subjects();
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o");
    let json = d.path().join("s.json");
    let (code, stdout, stderr) = run(&[
        "gen",
        "-q",
        "--no-validate",
        "--classpath",
        classes.to_str().unwrap(),
        "--class",
        "quirks.Skips",
        "--generated-limit",
        "30",
        "--output-dir",
        out.to_str().unwrap(),
        "--stats-json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{stdout}\n{stderr}");
    assert!(
        !stdout.contains("warning"),
        "warnings go to stderr:\n{stdout}"
    );
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("warning:"))
        .collect();
    assert_eq!(
        warnings,
        [
            "warning: 1 member skipped: returns a type that is not public (see --stats-json)",
            "warning: 2 members skipped: generic constructor (see --stats-json)",
        ],
        "{stderr}"
    );
    // the members and their reasons are in the report
    let skipped = read_json(&json)["skipped_members"].to_string();
    assert!(
        skipped.contains("quirks.Skips.hidden()") && skipped.contains("generic constructor"),
        "{skipped}"
    );
}
