//! Tests of the protocol: round trips of EXEC and RESULT frames (string and class tables,
//! sections present and absent), the handshake and REGISTER layouts, and the errors of
//! truncated or malformed frames.

use super::*;
use crate::model::{JType, Prim};
use crate::runner::{
    Blame, BulkForm, Contract, ContractViolation, CrashKind, ExecMode, ExecRequest, FormValue,
    Frame, InputCause, Observed, ObserverValue, SeqResult, StmtOutcome,
};
use crate::sequence::{OpKind, Operation, Sequence, Stmt, Value};
use std::sync::Arc;

fn sample_requests() -> Vec<ExecRequest> {
    let seq = Sequence {
        stmts: vec![
            Stmt::Call {
                op: 0,
                args: vec![],
            },
            Stmt::Lit {
                ty: JType::string(),
                value: Value::Str("héllo".into()),
            },
            Stmt::Lit {
                ty: JType::Prim(Prim::Int),
                value: Value::Int(-7),
            },
            Stmt::Lit {
                ty: JType::Prim(Prim::Double),
                value: Value::double(f64::NAN),
            },
            Stmt::Array {
                elem: JType::Prim(Prim::Int),
                elems: vec![2, 2],
            },
            Stmt::Call {
                op: 3,
                args: vec![0, 1],
            },
            Stmt::Lit {
                ty: JType::class("E"),
                value: Value::Enum("E".into(), "A".into()),
            },
        ],
    };
    vec![
        ExecRequest {
            seq: Arc::new(seq.clone()),
            mode: ExecMode::Observe,
            contract_values: vec![0, 5],
            observers: vec![(0, 9)],
            reuse: None,
        },
        ExecRequest {
            seq: Arc::new(seq),
            mode: ExecMode::Generate,
            contract_values: vec![],
            observers: vec![(1, 2)],
            reuse: None,
        },
    ]
}

#[test]
fn exec_round_trip_and_string_table_reuse() {
    let reqs = sample_requests();
    let mut tt = TypeTable::default();
    let f1 = encode_exec(
        &mut tt,
        reqs.iter().enumerate().map(|(i, r)| (i as u32, r)),
        false,
    );
    let mut strings = Vec::new();
    let got = decode_exec(&f1[4..], &mut strings).unwrap();
    assert_eq!(got.len(), 2);
    assert!(got[0].observe && !got[1].observe);
    assert_eq!(got[0].observers, vec![(0, 9)]);
    // Generate mode sends no observers
    assert!(got[1].observers.is_empty());
    assert_eq!(got[0].contract_values, vec![0, 5]);
    assert_eq!(
        got[0].stmts[1],
        WireStmt::Lit {
            ty: "Ljava/lang/String;".into(),
            value: Value::Str("héllo".into())
        }
    );
    assert_eq!(
        got[0].stmts[3],
        WireStmt::Lit {
            ty: "D".into(),
            value: Value::double(f64::NAN)
        }
    );
    assert_eq!(
        got[0].stmts[4],
        WireStmt::Array {
            elem: "I".into(),
            elems: vec![2, 2]
        }
    );
    assert_eq!(
        got[0].stmts[5],
        WireStmt::Call {
            op: 3,
            args: vec![0, 1]
        }
    );
    assert_eq!(strings, vec!["Ljava/lang/String;", "I", "D", "LE;"]);
    // second batch: no new strings, so the frame is smaller and decodes with the same table
    let f2 = encode_exec(&mut tt, reqs.iter().take(1).map(|r| (7, r)), true);
    let got2 = decode_exec(&f2[4..], &mut strings).unwrap();
    assert_eq!(strings.len(), 4);
    assert_eq!(got2[0].tag, 7);
    assert_eq!(got2[0].stmts, got[0].stmts);
}

fn sample_result() -> SeqResult {
    let c: Arc<str> = "java.util.ArrayList".into();
    SeqResult {
        outcomes: vec![
            StmtOutcome::Normal(Observed::Object {
                class: c.clone(),
                fingerprint: Some(u64::MAX - 3),
            }),
            StmtOutcome::Normal(Observed::Object {
                class: c,
                fingerprint: None,
            }),
            StmtOutcome::Normal(Observed::Value(Value::Char(0xD800))),
            StmtOutcome::Normal(Observed::Value(Value::Array(
                "java.lang.Object".into(),
                vec![Value::Int(1), Value::Null, Value::Str("s".into())],
            ))),
            StmtOutcome::Normal(Observed::Value(Value::Array("char".into(), vec![]))),
            StmtOutcome::Normal(Observed::Void),
            StmtOutcome::Normal(Observed::Null),
            StmtOutcome::Exception {
                class: "java.util.NoSuchElementException".into(),
                public_class: "java.util.NoSuchElementException".into(),
                message: Some("x".into()),
                outside_jdk: true,
            },
            StmtOutcome::Exception {
                class: "java.lang.IllegalStateException".into(),
                public_class: "java.lang.IllegalStateException".into(),
                message: None,
                outside_jdk: false,
            },
            StmtOutcome::Crash(CrashKind::Exited(Some(3))),
            StmtOutcome::Crash(CrashKind::Exited(None)),
            StmtOutcome::Crash(CrashKind::LeakedProcesses(7)),
            StmtOutcome::Crash(CrashKind::WroteFiles(2)),
            StmtOutcome::Timeout,
            StmtOutcome::NotRun,
        ],
        violations: vec![ContractViolation {
            contract: Contract::EqualsSymmetric,
            a: 1,
            b: Some(0),
            detail: "d".into(),
            blame: Blame {
                cause: Some(InputCause::ComparatorInconsistent),
                frames: vec![Frame {
                    class: "java.util.ArrayList".into(),
                    method: "equals".into(),
                    line: 7,
                    own: true,
                    jdk: true,
                }],
            },
        }],
        observers: vec![
            ObserverValue {
                stmt: 0,
                op: 4,
                result: Ok(Value::Long(-1)),
            },
            ObserverValue {
                stmt: 0,
                op: 5,
                result: Err("java.lang.IllegalStateException".into()),
            },
        ],
        worker: 1,
        coverage: None,
        compared: Vec::new(),
        compared_nums: Vec::new(),
        forms: Vec::new(),
        clock_reads: 0,
        trace: None,
        thrown: Some((
            7,
            Blame {
                cause: Some(InputCause::CallbackThrew),
                frames: vec![Frame {
                    class: "quirks.View".into(),
                    method: "hashCode".into(),
                    line: -1,
                    own: false,
                    jdk: false,
                }],
            },
        )),
        // it has crash outcomes, which the worker sends only for a crash it survived
        survived: true,
    }
}

#[test]
fn every_input_cause_round_trips_under_a_name_of_its_own() {
    let causes = [
        None,
        Some(InputCause::CallbackThrew),
        Some(InputCause::ComparatorInconsistent),
        Some(InputCause::NullInput),
        Some(InputCause::StateNotInitialized),
        Some(InputCause::ArgumentBreaksContract),
        Some(InputCause::HeldBreaksContract),
        Some(InputCause::JdkValue),
        Some(InputCause::InternalCall),
    ];
    for cause in causes {
        let mut r = sample_result();
        r.violations[0].blame.cause = cause;
        let f = encode_result(2, &r, &mut ClassEncTable::default());
        let (_, back) = decode_result(&f[4..], &mut ClassTable::default(), 1).unwrap();
        assert_eq!(back.violations[0].blame.cause, cause);
    }
    let names: std::collections::HashSet<&str> =
        causes.iter().flatten().map(|c| c.name()).collect();
    assert_eq!(names.len(), causes.len() - 1);
    assert!(names.contains("held-collection-breaks-contract"));
}

#[test]
fn forms_section_round_trip() {
    let mut r = sample_result();
    let c: Arc<str> = "ds.AvlTree".into();
    r.forms = vec![
        BulkForm {
            task: 0,
            which: 0,
            form: FormValue::Hash(u128::MAX - 5),
            class: Some(c.clone()),
        },
        BulkForm {
            task: 0,
            which: 1,
            form: FormValue::Text("ds.AvlTree{root=null}".into()),
            class: Some(c),
        },
        BulkForm {
            task: 1,
            which: 0,
            form: FormValue::OutOfScope,
            class: None,
        },
        BulkForm {
            task: 2,
            which: 1,
            form: FormValue::Null,
            class: None,
        },
        BulkForm {
            task: 3,
            which: 0,
            form: FormValue::Error("java.lang.StackOverflowError".into()),
            class: None,
        },
        BulkForm {
            task: 4,
            which: 0,
            form: FormValue::Violation(Contract::EqualsReflexive, "x.equals(x) is false".into()),
            class: None,
        },
    ];
    let plain = encode_result(5, &sample_result(), &mut ClassEncTable::default());
    let f = encode_result(5, &r, &mut ClassEncTable::default());
    assert_eq!(f[plain.len()], FORMS_SECTION);
    // a frame cut inside the section is an error
    for cut in plain.len() + 1..f.len() {
        assert!(decode_result(&f[4..cut], &mut ClassTable::default(), 1).is_err());
    }
    // the coverage section follows it
    r.coverage = Some(vec![3, 9].into());
    let f = encode_result(5, &r, &mut ClassEncTable::default());
    let (_, back) = decode_result(&f[4..], &mut ClassTable::default(), 1).unwrap();
    assert_eq!(back, r);
}

#[test]
fn coverage_section_round_trip_and_absent_without_coverage() {
    let mut r = sample_result();
    let mut enc = ClassEncTable::default();
    let plain = encode_result(3, &r, &mut enc);
    r.coverage = Some(vec![0, 1, 127, 128, 70_000, 1 << 28].into());
    r.compared = vec!["GET".into(), "é".into()];
    let mut enc = ClassEncTable::default();
    let f = encode_result(3, &r, &mut enc);
    // the section is appended: the frame without coverage is a prefix (apart from length)
    assert_eq!(&f[4..plain.len()], &plain[4..]);
    assert_eq!(f[plain.len()], COVERAGE_SECTION);
    let mut classes = ClassTable::default();
    let (_, back) = decode_result(&f[4..], &mut classes, 1).unwrap();
    assert_eq!(back, r);
    let mut bad = f.clone();
    bad[plain.len()] = 0x7;
    assert!(decode_result(&bad[4..], &mut ClassTable::default(), 1).is_err());
}

#[test]
fn compared_numbers_round_trip_with_and_without_strings() {
    let mut r = sample_result();
    r.coverage = Some(vec![2, 5].into());
    let old = encode_result(3, &r, &mut ClassEncTable::default());
    let nums = vec![
        4242,
        7,
        -1,
        0,
        i64::MIN,
        i64::MAX,
        123_456_789_012,
        i32::MIN as i64,
    ];
    for strings in [vec![], vec!["GET".to_string()]] {
        r.compared = strings;
        r.compared_nums = nums.clone();
        let f = encode_result(3, &r, &mut ClassEncTable::default());
        let (_, back) = decode_result(&f[4..], &mut ClassTable::default(), 1).unwrap();
        assert_eq!(back, r);
        assert!(f.contains(&COMPARED_NUMS_SECTION));
        // a frame cut inside the section is an error, never a panic
        for cut in old.len() + 1..f.len() {
            let _ = decode_result(&f[4..cut], &mut ClassTable::default(), 1);
        }
        let cut = f.len() - 1;
        assert!(decode_result(&f[4..cut], &mut ClassTable::default(), 1).is_err());
    }
    // an old frame (coverage only, or coverage + strings) still decodes
    let (_, back) = decode_result(&old[4..], &mut ClassTable::default(), 1).unwrap();
    assert!(back.compared_nums.is_empty() && back.coverage.is_some());
    // numbers before strings are out of order
    r.compared = vec!["x".into()];
    r.compared_nums = vec![1];
    let f = encode_result(3, &r, &mut ClassEncTable::default());
    let i = f.iter().rposition(|&b| b == COMPARED_NUMS_SECTION).unwrap();
    let mut swapped = f[..old.len()].to_vec();
    swapped.extend_from_slice(&f[i..]);
    swapped.extend_from_slice(&f[old.len()..i]);
    assert!(decode_result(&swapped[4..], &mut ClassTable::default(), 1).is_err());
}

#[test]
fn result_round_trip() {
    let r = sample_result();
    let mut enc = ClassEncTable::default();
    let f = encode_result(42, &r, &mut enc);
    let mut classes = ClassTable::default();
    let (tag, back) = decode_result(&f[4..], &mut classes, 1).unwrap();
    assert_eq!(tag, 42);
    assert_eq!(back, r);
    // class names (and the blame's method names) were sent once each
    assert_eq!(classes.names.len(), 6);
    // the second frame refers to the table by id only
    let f2 = encode_result(43, &r, &mut enc);
    assert!(f2.len() < f.len());
    let (_, back2) = decode_result(&f2[4..], &mut classes, 1).unwrap();
    assert_eq!(back2, r);
}

#[test]
fn trace_section_round_trips_with_and_without_coverage() {
    for coverage in [None, Some(Arc::from(vec![3u32, 9]))] {
        let mut r = sample_result();
        r.coverage = coverage;
        r.trace = Some("N 0 var I 0\nN 1 const 32 5\nB 12 1 eq 0 1\n".into());
        let f = encode_result(7, &r, &mut ClassEncTable::default());
        assert_eq!(f.iter().filter(|&&b| b == TRACE_SECTION).count(), 1);
        let (_, back) = decode_result(&f[4..], &mut ClassTable::default(), 1).unwrap();
        assert_eq!(back, r);
    }
}

#[test]
fn truncated_frames_are_errors() {
    let r = sample_result();
    let f = encode_result(1, &r, &mut ClassEncTable::default());
    // A frame cut just before its optional THROWN section is a whole frame without it.
    let without_thrown = SeqResult {
        thrown: None,
        trace: None,
        ..r.clone()
    };
    let whole = encode_result(1, &without_thrown, &mut ClassEncTable::default()).len();
    for cut in (5..f.len()).filter(|&c| c != whole) {
        let mut classes = ClassTable::default();
        assert!(
            decode_result(&f[4..cut], &mut classes, 0).is_err(),
            "cut at {cut}"
        );
    }
    let reqs = sample_requests();
    let f = encode_exec(
        &mut TypeTable::default(),
        reqs.iter().map(|r| (0, r)),
        false,
    );
    for cut in 5..f.len() {
        assert!(
            decode_exec(&f[4..cut], &mut Vec::new()).is_err(),
            "cut at {cut}"
        );
    }
    // a frame whose declared length exceeds the stream
    let mut short = &f[..f.len() - 1];
    assert!(read_frame(&mut short).is_err());
    let mut whole = &f[..];
    assert_eq!(read_frame(&mut whole).unwrap(), f[4..].to_vec());
}

#[test]
fn unknown_class_id_and_bad_tags_are_errors() {
    let mut e = Enc::frame(RESULT);
    e.u32(0);
    e.u32(1);
    e.u8(O_OBJECT);
    e.u32(5); // undefined id
    let f = e.finish();
    assert!(decode_result(&f[4..], &mut ClassTable::default(), 0).is_err());
    assert!(decode_hello(&[RESULT]).is_err());
    let mut h = Enc::frame(HELLO);
    h.u32(MAGIC ^ 1);
    h.u16(VERSION);
    h.u64(1);
    let e = decode_hello(&h.finish()[4..]).unwrap_err().to_string();
    assert!(e.contains("not a jforge worker"), "{e}");
}

#[test]
fn nested_arrays_and_impossible_lengths_are_errors() {
    let inner = Value::Array("int".into(), vec![Value::Int(1)]);
    let mut e = Enc::new();
    encode_value(
        &mut e,
        &Value::Array("java.lang.Object".into(), vec![inner]),
    );
    let b = e.buf;
    assert!(decode_value(&mut Dec::new(&b)).is_err());
    let mut e = Enc::new();
    e.u8(V_ARRAY);
    e.str("int");
    e.u32(u32::MAX);
    let b = e.buf;
    assert!(decode_value(&mut Dec::new(&b)).is_err());
}

#[test]
fn a_digested_array_round_trips_and_a_cut_one_is_an_error() {
    let v = Value::Digest("[[Ljava.lang.String;".into(), 96, -1_089_825_926);
    let mut e = Enc::new();
    encode_value(&mut e, &v);
    let b = e.buf;
    assert_eq!(decode_value(&mut Dec::new(&b)).unwrap(), v);
    assert!(decode_value(&mut Dec::new(&b[..b.len() - 1])).is_err());
}

#[test]
fn handshake_refuses_another_protocol_version() {
    let hello = |v: u16| {
        let mut h = Enc::frame(HELLO);
        h.u32(MAGIC);
        h.u16(v);
        h.u64(4242);
        h.finish()
    };
    let jar = std::path::Path::new("/home/u/.cache/jforge/worker-0123.jar");
    let ok = decode_hello(&hello(VERSION)[4..]).unwrap();
    assert_eq!(ok.pid, 4242);
    assert!(check_version(ok.version, jar).is_ok());
    for v in [0, VERSION - 1, VERSION + 1, u16::MAX] {
        let h = decode_hello(&hello(v)[4..]).unwrap();
        let e = check_version(h.version, jar).unwrap_err().to_string();
        let want = format!("worker jar protocol {v}, jforge expects {VERSION}");
        assert!(e.starts_with(&want), "{e}");
        assert!(
            e.contains("stale") && e.contains(&jar.display().to_string()),
            "{e}"
        );
    }
    // a truncated HELLO is an error, not a panic
    let f = hello(VERSION);
    for cut in 5..f.len() {
        assert!(decode_hello(&f[4..cut]).is_err(), "cut at {cut}");
    }
}

#[test]
fn register_frame_layout() {
    let op = Operation {
        kind: OpKind::Method,
        class: "java.util.ArrayList".into(),
        name: "size".into(),
        descriptor: "()I".into(),
        owner: JType::class("java.util.ArrayList"),
        params: vec![],
        ret: Some(JType::Prim(Prim::Int)),
        varargs: false,
        overloaded: false,
        method_type_args: vec![],
        outer_instance: false,
        stub: None,
    };
    let f = encode_register(3, &[op]);
    let mut d = Dec::new(&f[4..]);
    assert_eq!(d.u8().unwrap(), REGISTER);
    assert_eq!(d.u32().unwrap(), 3);
    assert_eq!(d.u32().unwrap(), 1);
    assert_eq!(d.u8().unwrap(), 1);
    assert_eq!(d.str().unwrap(), "java.util.ArrayList");
    assert_eq!(d.str().unwrap(), "size");
    assert_eq!(d.str().unwrap(), "()I");
    assert!(d.at_end());
}
