//! End to end: write suites for hand-built sequences over JDK classes and a small compiled
//! class, then compile and run them with javac and JUnit 4 / 5 through the validator.

use crate::support as common;
use common::jdk_tool;
use jforge::emit::suite::write_suites;
use jforge::emit::validate::{JVM_EXIT, TIMEOUT, Validation, compile_and_run, find_junit};
use jforge::emit::{EmitConfig, Ending, TestCase, WrittenFile};
use jforge::model::types::{JType, Prim};
use jforge::runner::Contract;
use jforge::sequence::{OpKind, OpTable, Operation, Sequence, Stmt, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

fn op(kind: OpKind, owner: JType, name: &str, params: Vec<JType>, ret: Option<JType>) -> Operation {
    Operation {
        kind,
        class: owner.class_name().unwrap_or("java.lang.Object").to_string(),
        name: name.to_string(),
        descriptor: String::new(),
        owner,
        params,
        ret,
        varargs: false,
        overloaded: false,
        method_type_args: vec![],
        outer_instance: false,
        stub: None,
    }
}

fn overloaded(mut o: Operation) -> Operation {
    o.overloaded = true;
    o
}

fn lit(ty: JType, value: Value) -> Stmt {
    Stmt::Lit { ty, value }
}
fn call(op: u32, args: &[u32]) -> Stmt {
    Stmt::Call {
        op,
        args: args.to_vec(),
    }
}
fn p(p: Prim) -> JType {
    JType::Prim(p)
}

fn tc(
    stmts: Vec<Stmt>,
    asserts: &[(usize, Value)],
    observers: Vec<(u32, u32, Value)>,
    ending: Ending,
) -> TestCase {
    let mut a = vec![None; stmts.len()];
    for (i, v) in asserts {
        a[*i] = Some(v.clone());
    }
    TestCase {
        defect: None,
        seq: Arc::new(Sequence { stmts }),
        asserts: a,
        observers,
        ending,
    }
}

/// Compile the small classes the tests use (a broken equals, an inner class).
fn compile_demo(dir: &Path) -> PathBuf {
    let src = dir.join("demo-src/demo");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("Bad.java"),
        "package demo;\npublic class Bad {\n  @Override public boolean equals(Object o) { return false; }\n  @Override public int hashCode() { return 1; }\n}\n",
    )
    .unwrap();
    std::fs::write(
        src.join("Outer.java"),
        "package demo;\npublic class Outer {\n  int base = 10;\n  public class Inner {\n    int v;\n    public Inner(int v) { this.v = v; }\n    public int get() { return base + v; }\n  }\n}\n",
    )
    .unwrap();
    let out = dir.join("demo-classes");
    crate::support::javac(&dir.join("demo-src"), &out, "");
    out
}

/// Regression cases with a name each; the names say what the validator must report.
fn regression_cases(ops: &mut OpTable) -> Vec<(&'static str, TestCase)> {
    let string = JType::string();
    let integer = JType::class("java.lang.Integer");
    let int = p(Prim::Int);
    let mut out = Vec::new();

    // ArrayList
    let al = JType::generic("java.util.ArrayList", vec![string.clone()]);
    let new_al = ops.intern(op(
        OpKind::Constructor,
        al.clone(),
        "<init>",
        vec![],
        Some(al.clone()),
    ));
    let add = ops.intern(op(
        OpKind::Method,
        al.clone(),
        "add",
        vec![string.clone()],
        Some(p(Prim::Boolean)),
    ));
    let size = ops.intern(op(
        OpKind::Method,
        al.clone(),
        "size",
        vec![],
        Some(int.clone()),
    ));
    let is_empty = ops.intern(op(
        OpKind::Method,
        al.clone(),
        "isEmpty",
        vec![],
        Some(p(Prim::Boolean)),
    ));
    let al_stmts = vec![
        call(new_al, &[]),
        lit(string.clone(), Value::Str("hello \"w\"\n".into())),
        call(add, &[0, 1]),
        call(size, &[0]),
    ];
    out.push((
        "pass-arraylist",
        tc(
            al_stmts.clone(),
            &[(2, Value::Bool(true)), (3, Value::Int(1))],
            vec![(0, is_empty, Value::Bool(false))],
            Ending::Normal,
        ),
    ));
    out.push((
        "wrong-assert",
        tc(
            al_stmts.clone(),
            &[(3, Value::Int(2))],
            vec![],
            Ending::Normal,
        ),
    ));
    let nosuch = ops.intern(op(
        OpKind::Method,
        al.clone(),
        "noSuchMethod",
        vec![],
        Some(int.clone()),
    ));
    out.push((
        "uncompilable",
        tc(
            vec![call(new_al, &[]), call(nosuch, &[0])],
            &[],
            vec![],
            Ending::Normal,
        ),
    ));

    // TreeMap
    let tm = JType::generic("java.util.TreeMap", vec![string.clone(), integer.clone()]);
    let new_tm = ops.intern(op(
        OpKind::Constructor,
        tm.clone(),
        "<init>",
        vec![],
        Some(tm.clone()),
    ));
    let put = ops.intern(op(
        OpKind::Method,
        tm.clone(),
        "put",
        vec![string.clone(), integer.clone()],
        Some(integer.clone()),
    ));
    let get = ops.intern(op(
        OpKind::Method,
        tm.clone(),
        "get",
        vec![JType::object()],
        Some(integer.clone()),
    ));
    let first_key = ops.intern(op(
        OpKind::Method,
        tm.clone(),
        "firstKey",
        vec![],
        Some(string.clone()),
    ));
    out.push((
        "pass-treemap",
        tc(
            vec![
                call(new_tm, &[]),
                lit(string.clone(), Value::Str("k\u{e9}".into())),
                lit(integer.clone(), Value::Int(-1)),
                call(put, &[0, 1, 2]),
                lit(string.clone(), Value::Str("k\u{e9}".into())),
                call(get, &[0, 4]),
            ],
            &[(3, Value::Null), (5, Value::Int(-1))],
            vec![(0, first_key, Value::Str("k\u{e9}".into()))],
            Ending::Normal,
        ),
    ));
    out.push((
        "pass-expected-npe",
        tc(
            vec![
                call(new_tm, &[]),
                lit(JType::object(), Value::Null),
                call(get, &[0, 1]),
            ],
            &[],
            vec![],
            Ending::ExpectedException {
                class: "java.lang.NullPointerException".into(),
                catch_as: None,
                message: None,
            },
        ),
    ));

    // StringBuilder with overloaded appends.
    let sb = JType::class("java.lang.StringBuilder");
    let new_sb = ops.intern(op(
        OpKind::Constructor,
        sb.clone(),
        "<init>",
        vec![],
        Some(sb.clone()),
    ));
    let app_obj = ops.intern(overloaded(op(
        OpKind::Method,
        sb.clone(),
        "append",
        vec![JType::object()],
        Some(sb.clone()),
    )));
    let app_int = ops.intern(overloaded(op(
        OpKind::Method,
        sb.clone(),
        "append",
        vec![int.clone()],
        Some(sb.clone()),
    )));
    let app_char = ops.intern(overloaded(op(
        OpKind::Method,
        sb.clone(),
        "append",
        vec![p(Prim::Char)],
        Some(sb.clone()),
    )));
    let to_string = ops.intern(op(
        OpKind::Method,
        sb.clone(),
        "toString",
        vec![],
        Some(string.clone()),
    ));
    out.push((
        "pass-stringbuilder",
        tc(
            vec![
                call(new_sb, &[]),
                lit(string.clone(), Value::Str("hi".into())),
                call(app_obj, &[0, 1]),
                lit(int.clone(), Value::Int(-7)),
                call(app_int, &[0, 3]),
                lit(p(Prim::Char), Value::Char(b'c' as u16)),
                call(app_char, &[0, 5]),
                call(to_string, &[0]),
            ],
            &[(7, Value::Str("hi-7c".into()))],
            vec![],
            Ending::Normal,
        ),
    ));

    // Varargs with explicit type arguments.
    let list = JType::generic("java.util.List", vec![string.clone()]);
    let mut as_list = op(
        OpKind::StaticMethod,
        JType::class("java.util.Arrays"),
        "asList",
        vec![JType::Array(Box::new(string.clone()))],
        Some(list.clone()),
    );
    as_list.varargs = true;
    as_list.method_type_args = vec![string.clone()];
    let as_list = ops.intern(as_list);
    let list_size = ops.intern(op(
        OpKind::Method,
        list.clone(),
        "size",
        vec![],
        Some(int.clone()),
    ));
    out.push((
        "pass-varargs",
        tc(
            vec![
                lit(string.clone(), Value::Str("a".into())),
                lit(string.clone(), Value::Null),
                Stmt::Array {
                    elem: string.clone(),
                    elems: vec![0, 1],
                },
                call(as_list, &[2]),
            ],
            &[],
            vec![(3, list_size, Value::Int(2))],
            Ending::Normal,
        ),
    ));

    // Assertions of every primitive kind, boxed and enum values.
    let math = JType::class("java.lang.Math");
    let abs_d = ops.intern(overloaded(op(
        OpKind::StaticMethod,
        math.clone(),
        "abs",
        vec![p(Prim::Double)],
        Some(p(Prim::Double)),
    )));
    let abs_f = ops.intern(overloaded(op(
        OpKind::StaticMethod,
        math.clone(),
        "abs",
        vec![p(Prim::Float)],
        Some(p(Prim::Float)),
    )));
    let abs_l = ops.intern(overloaded(op(
        OpKind::StaticMethod,
        math.clone(),
        "abs",
        vec![p(Prim::Long)],
        Some(p(Prim::Long)),
    )));
    let sqrt = ops.intern(op(
        OpKind::StaticMethod,
        math.clone(),
        "sqrt",
        vec![p(Prim::Double)],
        Some(p(Prim::Double)),
    ));
    let char_at = ops.intern(op(
        OpKind::Method,
        string.clone(),
        "charAt",
        vec![int.clone()],
        Some(p(Prim::Char)),
    ));
    let parse_byte = ops.intern(overloaded(op(
        OpKind::StaticMethod,
        JType::class("java.lang.Byte"),
        "parseByte",
        vec![string.clone()],
        Some(p(Prim::Byte)),
    )));
    let parse_short = ops.intern(overloaded(op(
        OpKind::StaticMethod,
        JType::class("java.lang.Short"),
        "parseShort",
        vec![string.clone()],
        Some(p(Prim::Short)),
    )));
    let value_of = ops.intern(overloaded(op(
        OpKind::StaticMethod,
        integer.clone(),
        "valueOf",
        vec![int.clone()],
        Some(integer.clone()),
    )));
    let time_unit = JType::class("java.util.concurrent.TimeUnit");
    let tu_value_of = ops.intern(op(
        OpKind::StaticMethod,
        time_unit.clone(),
        "valueOf",
        vec![string.clone()],
        Some(time_unit.clone()),
    ));
    let state = JType::class("java.lang.Thread$State");
    let state_new = ops.intern(op(
        OpKind::StaticFieldGet,
        state.clone(),
        "NEW",
        vec![],
        Some(state.clone()),
    ));
    let max_int = ops.intern(op(
        OpKind::StaticFieldGet,
        integer.clone(),
        "MIN_VALUE",
        vec![],
        Some(int.clone()),
    ));
    out.push((
        "pass-primitives",
        tc(
            vec![
                lit(p(Prim::Double), Value::double(-1.5)),
                call(abs_d, &[0]),
                lit(p(Prim::Float), Value::float(-2.5)),
                call(abs_f, &[2]),
                lit(p(Prim::Long), Value::Long(-5)),
                call(abs_l, &[4]),
                lit(p(Prim::Double), Value::double(-1.0)),
                call(sqrt, &[6]),
                lit(string.clone(), Value::Str("abc".into())),
                lit(int.clone(), Value::Int(1)),
                call(char_at, &[8, 9]),
                lit(string.clone(), Value::Str("-3".into())),
                call(parse_byte, &[11]),
                lit(string.clone(), Value::Str("-4".into())),
                call(parse_short, &[13]),
                lit(int.clone(), Value::Int(5)),
                call(value_of, &[15]),
                lit(string.clone(), Value::Str("SECONDS".into())),
                call(tu_value_of, &[17]),
                call(state_new, &[]),
                call(max_int, &[]),
            ],
            &[
                (1, Value::double(1.5)),
                (3, Value::float(2.5)),
                (5, Value::Long(5)),
                (7, Value::double(f64::NAN)),
                (10, Value::Char(b'b' as u16)),
                (12, Value::Byte(-3)),
                (14, Value::Short(-4)),
                (16, Value::Int(5)),
                (
                    18,
                    Value::Enum("java.util.concurrent.TimeUnit".into(), "SECONDS".into()),
                ),
                (
                    19,
                    Value::Enum("java.lang.Thread$State".into(), "NEW".into()),
                ),
                (20, Value::Int(i32::MIN)),
            ],
            vec![],
            Ending::Normal,
        ),
    ));

    // A non-static inner class.
    let outer = JType::class("demo.Outer");
    let inner = JType::class("demo.Outer$Inner");
    let new_outer = ops.intern(op(
        OpKind::Constructor,
        outer.clone(),
        "<init>",
        vec![],
        Some(outer.clone()),
    ));
    let mut ni = op(
        OpKind::Constructor,
        inner.clone(),
        "<init>",
        vec![outer.clone(), int.clone()],
        Some(inner.clone()),
    );
    ni.outer_instance = true;
    let new_inner = ops.intern(ni);
    let inner_get = ops.intern(op(
        OpKind::Method,
        inner.clone(),
        "get",
        vec![],
        Some(int.clone()),
    ));
    out.push((
        "pass-inner",
        tc(
            vec![
                call(new_outer, &[]),
                lit(int.clone(), Value::Int(5)),
                call(new_inner, &[0, 1]),
                call(inner_get, &[2]),
            ],
            &[(3, Value::Int(15))],
            vec![],
            Ending::Normal,
        ),
    ));

    // System.exit must not count as passing.
    let exit = ops.intern(op(
        OpKind::StaticMethod,
        JType::class("java.lang.System"),
        "exit",
        vec![int.clone()],
        None,
    ));
    out.push((
        "exits",
        tc(
            vec![lit(int.clone(), Value::Int(3)), call(exit, &[0])],
            &[],
            vec![],
            Ending::Normal,
        ),
    ));
    // Tests after the exiting one still run.
    out.push((
        "pass-after-exit",
        tc(vec![call(new_sb, &[])], &[], vec![], Ending::Normal),
    ));
    out
}

fn error_cases(ops: &mut OpTable) -> Vec<(&'static str, TestCase)> {
    let bad = JType::class("demo.Bad");
    let new_bad = ops.intern(op(
        OpKind::Constructor,
        bad.clone(),
        "<init>",
        vec![],
        Some(bad),
    ));
    let parse = ops.intern(overloaded(op(
        OpKind::StaticMethod,
        JType::class("java.lang.Integer"),
        "parseInt",
        vec![JType::string()],
        Some(p(Prim::Int)),
    )));
    vec![
        (
            "equals-reflexive",
            tc(
                vec![call(new_bad, &[])],
                &[],
                vec![],
                Ending::ErrorContract {
                    contract: Contract::EqualsReflexive,
                    a: 0,
                    b: None,
                },
            ),
        ),
        (
            "throws-nfe",
            tc(
                vec![
                    lit(JType::string(), Value::Str("x".into())),
                    call(parse, &[0]),
                ],
                &[],
                vec![],
                Ending::ErrorException {
                    class: "java.lang.NumberFormatException".into(),
                    contract: "declared-exception".into(),
                },
            ),
        ),
    ]
}

/// (class, method) of the case named `name`.
fn locate(files: &[WrittenFile], names: &[&str], error: bool, name: &str) -> (String, String) {
    let idx = names.iter().position(|n| *n == name).unwrap();
    for f in files.iter().filter(|f| f.error_suite == error) {
        if let Some(t) = f.tests.iter().find(|t| t.case == idx) {
            return (f.class_name.clone(), t.method.clone());
        }
    }
    panic!("{name} not written");
}

fn run(junit: u8) {
    let dir = tempfile::tempdir().unwrap();
    let demo = compile_demo(dir.path());
    let mut ops = OpTable::default();
    let reg = regression_cases(&mut ops);
    let err = error_cases(&mut ops);
    let reg_names: Vec<&str> = reg.iter().map(|(n, _)| *n).collect();
    let err_names: Vec<&str> = err.iter().map(|(n, _)| *n).collect();
    let reg: Vec<TestCase> = reg.into_iter().map(|(_, c)| c).collect();
    let err: Vec<TestCase> = err.into_iter().map(|(_, c)| c).collect();
    let cfg = EmitConfig {
        out_dir: dir.path().join("out"),
        junit,
        package: Some("gen.tests".into()),
        tests_per_file: 4,
    };
    let files = write_suites(&cfg, &ops, &reg, &err).unwrap();
    let junit_cp = find_junit(junit, None).unwrap();
    let v: Validation = compile_and_run(
        &jdk_tool("javac"),
        &jdk_tool("java"),
        &[demo],
        &junit_cp,
        &files,
        junit,
        Duration::from_secs(120),
    )
    .unwrap();
    let dump = || {
        let mut s = format!("{v:#?}\n");
        for f in &files {
            s.push_str(&std::fs::read_to_string(&f.path).unwrap());
        }
        s
    };

    // Compile failure mapped to its method, and only that one.
    let unc = locate(&files, &reg_names, false, "uncompilable");
    assert_eq!(v.compile_failures.len(), 1, "{}", dump());
    assert_eq!(
        (
            v.compile_failures[0].0.clone(),
            v.compile_failures[0].1.clone()
        ),
        unc
    );
    assert!(
        v.compile_failures[0].2.contains("cannot find symbol"),
        "{}",
        dump()
    );

    // Every "pass-" test passed.
    for n in reg_names.iter().filter(|n| n.starts_with("pass-")) {
        let k = locate(&files, &reg_names, false, n);
        assert!(v.passed.contains(&k), "{n} {k:?} did not pass:\n{}", dump());
    }
    let failure = |k: &(String, String)| {
        v.test_failures
            .iter()
            .find(|f| f.class_name == k.0 && f.method == k.1)
            .unwrap_or_else(|| panic!("{k:?} not reported as failing:\n{}", dump()))
    };
    let wrong = failure(&locate(&files, &reg_names, false, "wrong-assert"));
    let want_assert = if junit == 4 {
        "java.lang.AssertionError"
    } else {
        "org.opentest4j.AssertionFailedError"
    };
    assert_eq!(wrong.exception_class, want_assert);
    assert!(
        wrong.message.contains('2') && wrong.message.contains('1'),
        "{}",
        wrong.message
    );

    let exits = failure(&locate(&files, &reg_names, false, "exits"));
    assert!(
        exits.exception_class == "java.lang.SecurityException" || exits.exception_class == JVM_EXIT,
        "{exits:?}"
    );

    let eq = failure(&locate(&files, &err_names, true, "equals-reflexive"));
    assert!(
        eq.message
            .starts_with("jforge contract violated: equals-reflexive"),
        "{eq:?}"
    );
    let nfe = failure(&locate(&files, &err_names, true, "throws-nfe"));
    // The test catches what the call throws and fails naming the contract and the exception.
    assert!(
        nfe.message.starts_with("jforge contract violated: ")
            && nfe.message.contains("java.lang.NumberFormatException"),
        "{nfe:?}"
    );

    if std::env::var_os("JFORGE_TEST_DUMP").is_some() {
        println!("{}", dump());
    }
    let total = reg_names.len() + err_names.len();
    assert_eq!(
        v.passed.len() + v.test_failures.len() + v.compile_failures.len(),
        total,
        "{}",
        dump()
    );
    assert_eq!(v.test_failures.len(), 4, "{}", dump());
}

#[test]
fn junit4_end_to_end() {
    run(4);
}

#[test]
fn junit5_end_to_end() {
    run(5);
}

/// A test that hangs is killed at the timeout and a test that ends the JVM is blamed; both
/// are reported as failing, and the tests after them still run in a fresh JVM.
#[test]
fn hanging_and_exiting_tests_fail_and_others_still_run() {
    let dir = tempfile::tempdir().unwrap();
    let mut ops = OpTable::default();
    let sleep = ops.intern(overloaded(op(
        OpKind::StaticMethod,
        JType::class("java.lang.Thread"),
        "sleep",
        vec![p(Prim::Long)],
        None,
    )));
    let sb = JType::class("java.lang.StringBuilder");
    let new_sb = ops.intern(op(
        OpKind::Constructor,
        sb.clone(),
        "<init>",
        vec![],
        Some(sb),
    ));
    // The runner turns System.exit into an exception; a test that switches that off (the
    // runner lives in the default package, like these tests) really ends the JVM.
    let allow = ops.intern(op(
        OpKind::StaticFieldSet,
        JType::class("JforgeRunnerOutput"),
        "allowExit",
        vec![p(Prim::Boolean)],
        None,
    ));
    let exit = ops.intern(op(
        OpKind::StaticMethod,
        JType::class("java.lang.System"),
        "exit",
        vec![p(Prim::Int)],
        None,
    ));
    let cases = vec![
        tc(vec![call(new_sb, &[])], &[], vec![], Ending::Normal),
        tc(
            vec![lit(p(Prim::Long), Value::Long(600_000)), call(sleep, &[0])],
            &[],
            vec![],
            Ending::Normal,
        ),
        tc(vec![call(new_sb, &[])], &[], vec![], Ending::Normal),
        tc(
            vec![
                lit(p(Prim::Boolean), Value::Bool(true)),
                call(allow, &[0]),
                lit(p(Prim::Int), Value::Int(3)),
                call(exit, &[2]),
            ],
            &[],
            vec![],
            Ending::Normal,
        ),
        tc(vec![call(new_sb, &[])], &[], vec![], Ending::Normal),
    ];
    let cfg = EmitConfig {
        out_dir: dir.path().to_path_buf(),
        junit: 4,
        package: None,
        tests_per_file: 10,
    };
    let files = write_suites(&cfg, &ops, &cases, &[]).unwrap();
    let v = compile_and_run(
        &jdk_tool("javac"),
        &jdk_tool("java"),
        &[],
        &find_junit(4, None).unwrap(),
        &files,
        4,
        Duration::from_secs(6),
    )
    .unwrap();
    let k = |m: &str| ("RegressionTest".to_string(), m.to_string());
    assert_eq!(v.passed, vec![k("test1"), k("test3"), k("test5")], "{v:#?}");
    assert_eq!(v.test_failures.len(), 2, "{v:#?}");
    assert_eq!(v.test_failures[0].method, "test2");
    assert_eq!(v.test_failures[0].exception_class, TIMEOUT);
    assert_eq!(v.test_failures[1].method, "test4");
    assert_eq!(v.test_failures[1].exception_class, JVM_EXIT);
    assert!(v.test_failures[1].message.contains("status 3"), "{v:#?}");
}
