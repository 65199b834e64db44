//! Class path: folders, jars, wildcards, listings and error messages.

use crate::support::model as common;

use std::path::{Path, PathBuf};

use jforge::model::classpath::{ClassPath, JdkClasses};

const LANG3: &str = "/usr/share/java/commons-lang3.jar";

#[test]
fn missing_entry_is_a_clear_error() {
    let e = ClassPath::new(&[PathBuf::from("/no/such/dir")])
        .err()
        .expect("must fail");
    let msg = format!("{e:#}");
    assert!(
        msg.contains("/no/such/dir") && msg.contains("does not exist"),
        "{msg}"
    );
    let e = ClassPath::parse("/tmp:/no/such.jar")
        .err()
        .expect("must fail");
    assert!(format!("{e:#}").contains("/no/such.jar"), "{e:#}");
}

#[test]
fn non_zip_file_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("fake.jar");
    std::fs::write(&f, b"this is not a zip file at all").unwrap();
    let e = ClassPath::new(std::slice::from_ref(&f))
        .err()
        .expect("must fail");
    let msg = format!("{e:#}");
    assert!(
        msg.contains("fake.jar") && msg.contains("not a readable jar"),
        "{msg}"
    );
    assert!(ClassPath::jar_classes(&f).is_err());
}

#[test]
fn folder_entries_find_and_list() {
    let out = common::compile_subjects();
    let cp = ClassPath::new(&[out.path().to_path_buf()]).unwrap();
    assert_eq!(cp.entries(), &[out.path().to_path_buf()]);
    let names = cp.list_classes(Some("p"));
    assert!(names.contains(&"p.Subject".to_string()));
    assert!(names.contains(&"p.Subject$Inner".to_string()));
    assert!(names.windows(2).all(|w| w[0] < w[1]), "sorted");
    assert!(cp.list_classes(Some("q")).is_empty());
    let b = cp.find("p.Subject$Nested").unwrap().expect("found");
    assert_eq!(&b[..4], &[0xCA, 0xFE, 0xBA, 0xBE]);
    assert!(cp.find("p.Nope").unwrap().is_none());
}

#[test]
fn jars_and_prefix_listing() {
    if !Path::new(LANG3).exists() {
        panic!("{LANG3} missing: apt-get install libcommons-lang3-java");
    }
    let cp = ClassPath::parse(&format!("{LANG3}:")).unwrap();
    assert_eq!(cp.entries().len(), 1);
    let all = cp.list_classes(None);
    let text = cp.list_classes(Some("org.apache.commons.lang3.text"));
    assert!(text.contains(&"org.apache.commons.lang3.text.StrBuilder".to_string()));
    assert!(
        text.iter()
            .all(|n| n.starts_with("org.apache.commons.lang3.text."))
    );
    assert!(text.len() < all.len());
    // Prefix matches sub-packages but not lookalike packages.
    let lang3 = cp.list_classes(Some("org.apache.commons.lang3"));
    assert!(lang3.contains(&"org.apache.commons.lang3.text.StrBuilder".to_string()));
    assert!(cp.list_classes(Some("org.apache.commons.lang")).is_empty());
    assert!(
        !all.iter()
            .any(|n| n.ends_with("module-info") || n.ends_with("package-info"))
    );
    assert_eq!(ClassPath::jar_classes(Path::new(LANG3)).unwrap(), all);
    let b = cp
        .find("org.apache.commons.lang3.StringUtils")
        .unwrap()
        .unwrap();
    assert_eq!(&b[..4], &[0xCA, 0xFE, 0xBA, 0xBE]);
}

#[test]
fn wildcard_and_empty() {
    assert!(ClassPath::parse("").unwrap().entries().is_empty());
    let dir = tempfile::tempdir().unwrap();
    for n in ["b.jar", "a.JAR"] {
        std::fs::copy(LANG3, dir.path().join(n)).unwrap();
    }
    std::fs::write(dir.path().join("notes.txt"), "x").unwrap();
    let cp = ClassPath::parse(&format!("{}/*", dir.path().display())).unwrap();
    assert_eq!(
        cp.entries(),
        &[dir.path().join("a.JAR"), dir.path().join("b.jar")]
    );
}

#[test]
fn jmods() {
    let mut jdk = common::jdk();
    let util = jdk.list_classes("java.util").unwrap();
    assert!(util.contains(&"java.util.TreeMap".to_string()));
    assert!(util.contains(&"java.util.concurrent.ConcurrentHashMap".to_string()));
    assert!(!util.iter().any(|n| n.starts_with("java.utilx")));
    assert!(jdk.class_bytes("java.util.TreeMap").unwrap().is_some());
    assert!(
        jdk.class_bytes("java.sql.Connection").unwrap().is_some(),
        "other modules too"
    );
    assert!(jdk.class_bytes("no.Such").unwrap().is_none());
    let none = jforge::model::classpath::JmodClasses::open(Path::new("/nonexistent")).unwrap();
    assert!(none.is_none());
}
