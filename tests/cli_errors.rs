//! Bad input gets one clear message and a non-zero exit, and nothing is lost.

mod common;
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
        &["not public"],
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
        &["quirks.NoApi has no public constructor, method or field"],
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
