//! Execution semantics of the runner on real JVMs: values, exceptions, fingerprints, observers,
//! contracts, malformed sequences, determinism across worker counts, JDK class access.

use crate::support::runner as common;

use common::*;
use jforge::model::{JType, Prim};
use jforge::runner::{
    Contract, ExecMode, ExecRequest, JdkClasses, Observed, SeqResult, StmtOutcome,
};
use jforge::sequence::{OpTable, Sequence, Stmt, Value};
use std::sync::Arc;

fn value(o: &StmtOutcome) -> &Value {
    match o {
        StmtOutcome::Normal(Observed::Value(v)) => v,
        other => panic!("expected a value, got {other:?}"),
    }
}

fn fp(o: &StmtOutcome) -> (String, Option<u64>) {
    match o {
        StmtOutcome::Normal(Observed::Object { class, fingerprint }) => {
            (class.to_string(), *fingerprint)
        }
        other => panic!("expected an object, got {other:?}"),
    }
}

struct Ops {
    t: OpTable,
    list_new: u32,
    list_add: u32,
    list_size: u32,
    list_iter: u32,
    to_string: u32,
    tree_new: u32,
    tree_put: u32,
    tree_first: u32,
    object_new: u32,
    list_new_cap: u32,
    seconds: u32,
    broken_new: u32,
    badhash_new: u32,
    missing: u32,
    list_copy: u32,
}

fn ops() -> Ops {
    let mut t = OpTable::default();
    let o = object();
    let list_new = ctor(&mut t, "java.util.ArrayList", "()V", vec![]);
    let list_add = method(
        &mut t,
        "java.util.ArrayList",
        "add",
        "(Ljava/lang/Object;)Z",
        vec![o.clone()],
        boolean(),
    );
    let list_size = method(&mut t, "java.util.ArrayList", "size", "()I", vec![], int());
    let list_iter = method(
        &mut t,
        "java.util.ArrayList",
        "iterator",
        "()Ljava/util/Iterator;",
        vec![],
        Some(JType::class("java.util.Iterator")),
    );
    let to_string = method(
        &mut t,
        "java.lang.Object",
        "toString",
        "()Ljava/lang/String;",
        vec![],
        Some(JType::string()),
    );
    let tree_new = ctor(&mut t, "java.util.TreeMap", "()V", vec![]);
    let tree_put = method(
        &mut t,
        "java.util.TreeMap",
        "put",
        "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;",
        vec![o.clone(), o.clone()],
        Some(o.clone()),
    );
    let tree_first = method(
        &mut t,
        "java.util.TreeMap",
        "firstKey",
        "()Ljava/lang/Object;",
        vec![],
        Some(o.clone()),
    );
    let object_new = ctor(&mut t, "java.lang.Object", "()V", vec![]);
    let list_new_cap = ctor(
        &mut t,
        "java.util.ArrayList",
        "(I)V",
        vec![JType::Prim(Prim::Int)],
    );
    let seconds = sfield(
        &mut t,
        "java.util.concurrent.TimeUnit",
        "SECONDS",
        "Ljava/util/concurrent/TimeUnit;",
        JType::class("java.util.concurrent.TimeUnit"),
    );
    let broken_new = ctor(&mut t, "rsub.Broken", "()V", vec![]);
    let badhash_new = ctor(&mut t, "rsub.BadHash", "(I)V", vec![JType::Prim(Prim::Int)]);
    let missing = method(
        &mut t,
        "java.util.ArrayList",
        "noSuchMethod",
        "()V",
        vec![],
        None,
    );
    let list_copy = ctor(
        &mut t,
        "java.util.ArrayList",
        "(Ljava/util/Collection;)V",
        vec![JType::class("java.util.Collection")],
    );
    Ops {
        t,
        list_copy,
        list_new,
        list_add,
        list_size,
        list_iter,
        to_string,
        tree_new,
        tree_put,
        tree_first,
        object_new,
        list_new_cap,
        seconds,
        broken_new,
        badhash_new,
        missing,
    }
}

#[test]
fn values_exceptions_fingerprints_and_registration() {
    let _g = serial();
    let o = ops();
    let mut pool = pool(1);
    let failed = pool.register(&o.t).unwrap();
    assert_eq!(failed.len(), 1, "{failed:?}");
    assert_eq!(failed[0].0, o.missing);
    assert!(failed[0].1.contains("noSuchMethod"), "{}", failed[0].1);

    let list_x = vec![
        call(o.list_new, &[]),
        lit_str("x"),
        call(o.list_add, &[0, 1]),
        call(o.list_size, &[0]),
    ];
    let tree = vec![
        call(o.tree_new, &[]),
        call(o.tree_first, &[0]),
        lit_str("k"),
        call(o.tree_put, &[0, 2, 2]),
    ];
    // fingerprints are taken right after each statement
    let two_lists = vec![
        call(o.list_new, &[]),
        lit_str("a"),
        call(o.list_add, &[0, 1]),
        call(o.list_copy, &[0]),
        call(o.list_copy, &[0]),
        call(o.object_new, &[]),
        call(o.list_new, &[]),
    ];
    let enum_and_malformed = vec![
        call(o.seconds, &[]),
        Stmt::Lit {
            ty: JType::class("java.lang.Integer"),
            value: Value::Null,
        },
        call(o.list_new_cap, &[1]),
        call(o.list_new, &[]),
    ];
    let res = pool
        .execute(vec![
            req(list_x),
            req(tree),
            req(two_lists),
            req(enum_and_malformed),
            req(vec![call(o.missing, &[])]),
        ])
        .unwrap();

    // ArrayList: add returns true, size 1
    let r = &res[0];
    assert_eq!(fp(&r.outcomes[0]).0, "java.util.ArrayList");
    assert_eq!(value(&r.outcomes[1]), &Value::Str("x".into()));
    assert_eq!(value(&r.outcomes[2]), &Value::Bool(true));
    assert_eq!(value(&r.outcomes[3]), &Value::Int(1));
    assert_eq!(r.first_abnormal(), None);

    // TreeMap.firstKey on an empty map throws; later statements do not run
    let r = &res[1];
    match &r.outcomes[1] {
        StmtOutcome::Exception {
            class,
            public_class,
            ..
        } => {
            assert_eq!(&**class, "java.util.NoSuchElementException");
            assert_eq!(&**public_class, "java.util.NoSuchElementException");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(r.outcomes[2], StmtOutcome::NotRun);
    assert_eq!(r.outcomes[3], StmtOutcome::NotRun);
    assert_eq!(r.first_abnormal(), Some(1));

    // equal lists have equal fingerprints; new Object() has none; empty list differs
    let r = &res[2];
    let (c0, f0) = fp(&r.outcomes[0]);
    let (_, f3) = fp(&r.outcomes[3]);
    let (_, f4) = fp(&r.outcomes[4]);
    assert_eq!(c0, "java.util.ArrayList");
    assert!(f0.is_some() && f3.is_some());
    assert_eq!(f3, f4);
    assert_ne!(f0, f3);
    let (c5, f5) = fp(&r.outcomes[5]);
    assert_eq!(c5, "java.lang.Object");
    assert_eq!(f5, None);
    let (_, f6) = fp(&r.outcomes[6]);
    assert_eq!(f6, f0);

    // enum constant; null Integer into ArrayList(int) is malformed
    let r = &res[3];
    assert_eq!(
        value(&r.outcomes[0]),
        &Value::Enum("java.util.concurrent.TimeUnit".into(), "SECONDS".into())
    );
    assert_eq!(r.outcomes[1], StmtOutcome::Normal(Observed::Null));
    match &r.outcomes[2] {
        StmtOutcome::Exception { class, .. } => assert_eq!(&**class, "jforge.MalformedSequence"),
        other => panic!("{other:?}"),
    }
    assert_eq!(r.outcomes[3], StmtOutcome::NotRun);
    // an op that did not resolve makes the sequence malformed, not the worker crash
    match &res[4].outcomes[0] {
        StmtOutcome::Exception { class, .. } => assert_eq!(&**class, "jforge.MalformedSequence"),
        other => panic!("{other:?}"),
    }
    let st = pool.stats();
    assert_eq!(st.sequences, 5);
    assert_eq!(st.restarts, 0);
    assert!(st.worker_peak_rss_kb[0] > 10_000, "{st:?}");
    pool.shutdown();
}

#[test]
fn observers_and_contracts() {
    let _g = serial();
    let o = ops();
    let mut pool = pool(1);
    pool.register(&o.t).unwrap();
    let list_x = Arc::new(Sequence {
        stmts: vec![
            call(o.list_new, &[]),
            lit_str("x"),
            call(o.list_add, &[0, 1]),
        ],
    });
    let observe = ExecRequest {
        seq: list_x.clone(),
        mode: ExecMode::Observe,
        contract_values: vec![0],
        observers: vec![(0, o.list_size), (0, o.to_string), (0, o.list_iter)],
        reuse: None,
    };
    let broken = ExecRequest {
        seq: Arc::new(Sequence {
            stmts: vec![call(o.broken_new, &[]), call(o.list_new, &[])],
        }),
        mode: ExecMode::Generate,
        contract_values: vec![0],
        observers: vec![],
        reuse: None,
    };
    let badhash = ExecRequest {
        seq: Arc::new(Sequence {
            stmts: vec![
                lit_int(1),
                call(o.badhash_new, &[0]),
                call(o.badhash_new, &[0]),
            ],
        }),
        mode: ExecMode::Generate,
        contract_values: vec![1],
        observers: vec![],
        reuse: None,
    };
    let res = pool.execute(vec![observe, broken, badhash]).unwrap();
    let r = &res[0];
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(r.observers.len(), 3);
    assert_eq!(r.observers[0].result, Ok(Value::Int(1)));
    assert_eq!(r.observers[1].result, Ok(Value::Str("[x]".into())));
    assert_eq!(r.observers[2].result, Err("jforge.NotAValue".into()));

    let kinds: Vec<Contract> = res[1].violations.iter().map(|v| v.contract).collect();
    assert!(kinds.contains(&Contract::EqualsReflexive), "{kinds:?}");
    assert!(kinds.contains(&Contract::EqualsNull), "{kinds:?}");
    assert!(res[1].violations.iter().all(|v| v.a == 0));

    // hashCode throws: the object is reported without fingerprint, and the contract fires
    assert_eq!(fp(&res[2].outcomes[1]), ("rsub.BadHash".to_string(), None));
    let kinds: Vec<Contract> = res[2].violations.iter().map(|v| v.contract).collect();
    assert!(kinds.contains(&Contract::HashCodeThrows), "{kinds:?}");
    assert!(
        res[2]
            .violations
            .iter()
            .any(|v| v.detail.contains("IllegalStateException"))
    );
    pool.shutdown();
}

fn mixed_batch(o: &Ops) -> Vec<ExecRequest> {
    (0..40)
        .map(|i| {
            let mut s = vec![call(o.list_new, &[]), lit_str(&format!("v{}", i % 5))];
            for _ in 0..(i % 4) {
                s.push(call(o.list_add, &[0, 1]));
            }
            s.push(call(o.list_size, &[0]));
            if i % 7 == 0 {
                let b = s.len() as u32;
                s.push(call(o.tree_new, &[]));
                s.push(call(o.tree_first, &[b]));
            }
            req(s)
        })
        .collect()
}

fn strip_worker(v: Vec<SeqResult>) -> Vec<SeqResult> {
    v.into_iter()
        .map(|mut r| {
            r.worker = 0;
            r
        })
        .collect()
}

#[test]
fn same_batch_on_one_and_two_workers_gives_equal_results() {
    let _g = serial();
    let o = ops();
    let mut p1 = pool(1);
    p1.register(&o.t).unwrap();
    let r1 = p1.execute(mixed_batch(&o)).unwrap();
    p1.shutdown();
    let mut p2 = pool(2);
    p2.register(&o.t).unwrap();
    let r2 = p2.execute(mixed_batch(&o)).unwrap();
    assert!(r2.iter().any(|r| r.worker == 0) && r2.iter().any(|r| r.worker == 1));
    assert!(r1.iter().any(|r| r.first_abnormal().is_some()));
    assert_eq!(strip_worker(r1), strip_worker(r2.clone()));

    // elsewhere: every request runs in the other worker
    let again: Vec<(ExecRequest, usize)> = mixed_batch(&o)
        .into_iter()
        .zip(r2.iter().map(|r| r.worker))
        .collect();
    let r3 = p2.execute_elsewhere(again).unwrap();
    for (a, b) in r2.iter().zip(&r3) {
        assert_ne!(a.worker, b.worker);
        assert_eq!(a.outcomes, b.outcomes);
    }
    p2.shutdown();
}

#[test]
fn jdk_classes_through_a_worker() {
    let _g = serial();
    let mut pool = pool(1);
    let b = pool.class_bytes("java.util.TreeMap").unwrap().unwrap();
    assert_eq!(&b[..4], &[0xCA, 0xFE, 0xBA, 0xBE]);
    assert!(
        pool.class_bytes("java.util.NoSuchClassHere")
            .unwrap()
            .is_none()
    );
    let names = pool.list_classes("java.util.concurrent.atomic").unwrap();
    assert!(
        names
            .iter()
            .any(|n| n == "java.util.concurrent.atomic.AtomicInteger")
    );
    assert!(
        names
            .iter()
            .all(|n| n.starts_with("java.util.concurrent.atomic."))
    );
    let sub = pool.list_classes("java.util.concurrent").unwrap();
    assert!(
        sub.len() > names.len()
            && sub
                .iter()
                .any(|n| n == "java.util.concurrent.atomic.AtomicLong")
    );
    pool.shutdown();
}

#[test]
fn jvm_start_failure_reports_its_stderr() {
    let _g = serial();
    let mut cfg = config(1, std::time::Duration::from_secs(5), 128, vec![]);
    cfg.extra_jvm_args = vec!["-XX:+NoSuchJforgeFlag".into()];
    let err = match jforge::runner::Pool::start(cfg) {
        Ok(_) => panic!("a JVM with a bad flag started"),
        Err(e) => format!("{e:#}"),
    };
    assert!(err.contains("NoSuchJforgeFlag"), "{err}");
    assert!(worker_children().is_empty());
}

#[test]
fn a_worker_jar_of_another_protocol_version_is_refused() {
    // jforge.test.protocolVersion makes the worker announce another protocol version in
    // HELLO, as a stale worker jar would.
    let _g = serial();
    let mut cfg = config(1, std::time::Duration::from_secs(5), 128, vec![]);
    cfg.extra_jvm_args = vec!["-Djforge.test.protocolVersion=0".into()];
    let err = match jforge::runner::Pool::start(cfg) {
        Ok(_) => panic!("a worker of protocol version 0 was accepted"),
        Err(e) => format!("{e:#}"),
    };
    let want = format!(
        "worker jar protocol 0, jforge expects {}: the cached worker jar is stale; remove ",
        jforge::runner::protocol::VERSION
    );
    assert!(err.contains(&want), "{err}");
    assert!(err.contains("worker-") && err.contains(".jar"), "{err}");
    assert!(worker_children().is_empty());
}
