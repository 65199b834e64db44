//! Helpers shared by the runner tests (runner_*.rs).

use jforge::model::{JType, Prim};
use jforge::runner::{ExecMode, ExecRequest, Pool, PoolConfig};
use jforge::sequence::{OpId, OpKind, OpTable, Operation, Sequence, Stmt, Value};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Serializes JVM-heavy tests within one test binary (2 cores, and the orphan check needs it).
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    static M: Mutex<()> = Mutex::new(());
    M.lock().unwrap_or_else(|e| e.into_inner())
}

pub fn java() -> PathBuf {
    jforge::runner::java::find_java(None)
        .expect("a JDK 17+")
        .java
}

/// tests/subjects/runner/rsub, compiled once per run.
pub fn subjects() -> PathBuf {
    super::compiled("runner/rsub")
}

pub fn config(workers: usize, timeout: Duration, heap_mb: u32, cp: Vec<PathBuf>) -> PoolConfig {
    PoolConfig {
        java: java(),
        classpath: cp,
        workers,
        call_timeout: timeout,
        heap_mb,
        extra_jvm_args: vec![],
    }
}

pub fn pool(workers: usize) -> Pool {
    Pool::start(config(
        workers,
        Duration::from_secs(5),
        256,
        vec![subjects()],
    ))
    .unwrap()
}

fn op(
    kind: OpKind,
    class: &str,
    name: &str,
    desc: &str,
    params: Vec<JType>,
    ret: Option<JType>,
) -> Operation {
    Operation {
        kind,
        class: class.into(),
        name: name.into(),
        descriptor: desc.into(),
        owner: JType::class(class),
        params,
        ret,
        varargs: false,
        overloaded: false,
        method_type_args: vec![],
        outer_instance: false,
        stub: None,
    }
}

pub fn ctor(t: &mut OpTable, class: &str, desc: &str, params: Vec<JType>) -> OpId {
    t.intern(op(
        OpKind::Constructor,
        class,
        "<init>",
        desc,
        params,
        Some(JType::class(class)),
    ))
}

pub fn method(
    t: &mut OpTable,
    class: &str,
    name: &str,
    desc: &str,
    params: Vec<JType>,
    ret: Option<JType>,
) -> OpId {
    t.intern(op(OpKind::Method, class, name, desc, params, ret))
}

pub fn smethod(
    t: &mut OpTable,
    class: &str,
    name: &str,
    desc: &str,
    params: Vec<JType>,
    ret: Option<JType>,
) -> OpId {
    t.intern(op(OpKind::StaticMethod, class, name, desc, params, ret))
}

pub fn sfield(t: &mut OpTable, class: &str, name: &str, desc: &str, ty: JType) -> OpId {
    t.intern(op(
        OpKind::StaticFieldGet,
        class,
        name,
        desc,
        vec![],
        Some(ty),
    ))
}

pub fn call(op: OpId, args: &[u32]) -> Stmt {
    Stmt::Call {
        op,
        args: args.to_vec(),
    }
}

pub fn lit_str(s: &str) -> Stmt {
    Stmt::Lit {
        ty: JType::string(),
        value: Value::Str(s.into()),
    }
}

pub fn lit_int(i: i32) -> Stmt {
    Stmt::Lit {
        ty: JType::Prim(Prim::Int),
        value: Value::Int(i),
    }
}

pub fn req(stmts: Vec<Stmt>) -> ExecRequest {
    ExecRequest {
        seq: Arc::new(Sequence { stmts }),
        mode: ExecMode::Generate,
        contract_values: vec![],
        observers: vec![],
        reuse: None,
    }
}

pub fn int() -> Option<JType> {
    Some(JType::Prim(Prim::Int))
}

pub fn boolean() -> Option<JType> {
    Some(JType::Prim(Prim::Boolean))
}

pub fn object() -> JType {
    JType::object()
}

/// Child processes of this test process that run the jforge worker.
pub fn worker_children() -> Vec<u32> {
    let me = std::process::id();
    let mut v = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let after = stat.rsplit_once(')').map(|x| x.1).unwrap_or("");
        let fields: Vec<&str> = after.split_whitespace().collect();
        if fields.len() < 2 || fields[1].parse::<u32>().ok() != Some(me) {
            continue;
        }
        if fields[0] == "Z" {
            continue;
        }
        let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmd).contains("jforge.worker.Main") {
            v.push(pid);
        }
    }
    v
}
