//! A regression test's sequence, stored in a comment line of the test, so that a later run
//! into the same folder can read the suite back and keep it.
//!
//! Why: a second run with the same seed does not write the same tests (timing decides how far
//! generation gets), and a maintainer cannot review a suite rewritten on every run. Reading
//! back needs the sequence, not the Java text: a kept test is executed again (does it still
//! end the same way, what does it cover now) and observed again like a new one. Java source
//! cannot be turned back into a sequence reliably (overloads, casts, inlined values), so the
//! writer puts one line before each regression test:
//!
//! ```text
//!     // jforge-seq: {"s":[{"C":["5f0c2e…",[]]},{"L":["int",{"I":3}]},...],"x":"java.lang.Foo"}
//! ```
//!
//! Operations are named by a hash of their full identity (kind, class, member, descriptor,
//! instantiated types), types of literals by their source form, resolved against the new
//! run's operations; a test whose operation is gone (renamed, removed, filtered out) cannot
//! be read back and is replaced. The line is plain ASCII JSON: javac reads Unicode escapes
//! in comments too, and JSON never writes a line break as `\u000a`.

use crate::model::JType;
use crate::sequence::{LambdaBody, OpTable, Operation, Sequence, Stmt, Value};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::hash::Hasher;
use std::path::Path;

/// The comment that starts a stored-sequence line.
pub const PREFIX: &str = "// jforge-seq: ";

#[derive(Serialize, Deserialize)]
enum V {
    N,
    Z(bool),
    B(i8),
    S(i16),
    C(u16),
    I(i32),
    J(i64),
    F(u32),
    D(u64),
    T(String),
    E(String, String),
    /// A lambda: arity, the parameter it returns or the value it returns (neither: void).
    L(u8, Option<u8>, Option<Box<V>>),
    /// A class literal `X.class`: the field descriptor of `X` (`Ljava/lang/String;`, `[I`).
    K(String),
}

#[derive(Serialize, Deserialize)]
enum St {
    /// Operation key, inputs.
    C(String, Vec<u32>),
    /// Type (source form), value.
    L(String, V),
    /// Element type (source form), elements.
    A(String, Vec<u32>),
}

#[derive(Serialize, Deserialize)]
struct Stored {
    s: Vec<St>,
    /// The exception the last statement throws (a test that expects it), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    x: Option<String>,
    /// An error-revealing test (it fails while the defect is there).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    e: bool,
}

/// The key of an operation: a hash of everything that identifies it.
pub fn op_key(op: &Operation) -> String {
    let mut h = twox_hash::XxHash64::with_seed(0x6a66_7365);
    let params: Vec<String> = op.params.iter().map(|t| t.to_string()).collect();
    let targs: Vec<String> = op.method_type_args.iter().map(|t| t.to_string()).collect();
    let ret = op.ret.as_ref().map(|t| t.to_string()).unwrap_or_default();
    for part in [
        format!("{:?}", op.kind),
        op.class.clone(),
        op.name.clone(),
        op.descriptor.clone(),
        op.owner.to_string(),
        params.join(","),
        ret,
        targs.join(","),
        format!("{}{}", op.varargs, op.outer_instance),
    ] {
        h.write(part.as_bytes());
        h.write_u8(0);
    }
    format!("{:016x}", h.finish())
}

fn value_of(v: &Value) -> Option<V> {
    Some(match v {
        Value::Null => V::N,
        Value::Bool(b) => V::Z(*b),
        Value::Byte(x) => V::B(*x),
        Value::Short(x) => V::S(*x),
        Value::Char(x) => V::C(*x),
        Value::Int(x) => V::I(*x),
        Value::Long(x) => V::J(*x),
        Value::Float(x) => V::F(*x),
        Value::Double(x) => V::D(*x),
        Value::Str(s) => V::T(s.clone()),
        Value::Enum(c, n) => V::E(c.clone(), n.clone()),
        Value::Lambda(n, body) => match body {
            LambdaBody::Void => V::L(*n, None, None),
            LambdaBody::Arg(i) => V::L(*n, Some(*i), None),
            LambdaBody::Value(v) => V::L(*n, None, Some(Box::new(value_of(v)?))),
        },
        // `X` is erased (a class without type arguments, an array or a primitive type): its
        // descriptor names it exactly, nested classes included (`La/B$C;`)
        Value::Class(x) => V::K(x.descriptor()),
        // an observed value, never a literal of a sequence
        Value::Array(..) | Value::Digest(..) => return None,
    })
}

fn value_from(v: V) -> Option<Value> {
    Some(match v {
        V::N => Value::Null,
        V::Z(b) => Value::Bool(b),
        V::B(x) => Value::Byte(x),
        V::S(x) => Value::Short(x),
        V::C(x) => Value::Char(x),
        V::I(x) => Value::Int(x),
        V::J(x) => Value::Long(x),
        V::F(x) => Value::Float(x),
        V::D(x) => Value::Double(x),
        V::T(s) => Value::Str(s),
        V::E(c, n) => Value::Enum(c, n),
        V::L(n, Some(i), _) => Value::Lambda(n, LambdaBody::Arg(i)),
        V::L(n, None, Some(v)) => Value::Lambda(n, LambdaBody::Value(Box::new(value_from(*v)?))),
        V::L(n, None, None) => Value::Lambda(n, LambdaBody::Void),
        V::K(d) => Value::Class(crate::model::signature::parse_field_descriptor(&d).ok()?),
    })
}

/// The stored-sequence line of a test (without indentation), or `None` for a sequence that
/// cannot be stored (none today: literals are never arrays). A test written without the line
/// is still read back by [`read_file`], and counted as unreadable.
pub fn line(ops: &OpTable, seq: &Sequence, exception: Option<&str>, error: bool) -> Option<String> {
    let mut s = Vec::with_capacity(seq.len());
    for st in &seq.stmts {
        s.push(match st {
            Stmt::Call { op, args } => St::C(op_key(ops.get(*op)), args.clone()),
            Stmt::Lit { ty, value } => St::L(ty.to_string(), value_of(value)?),
            Stmt::Array { elem, elems } => St::A(elem.to_string(), elems.clone()),
        });
    }
    let stored = Stored {
        s,
        x: exception.map(str::to_string),
        e: error,
    };
    let json = serde_json::to_string(&stored).ok()?;
    Some(format!("{PREFIX}{json}"))
}

/// What the operations of a run can resolve: operation keys and the source forms of every
/// type they mention.
pub struct Resolver {
    ops: HashMap<String, u32>,
    types: HashMap<String, JType>,
}

impl Resolver {
    pub fn new(table: &OpTable) -> Resolver {
        let mut ops = HashMap::new();
        let mut types = HashMap::new();
        for p in crate::model::Prim::ALL {
            let t = JType::Prim(p);
            types.insert(t.to_string(), t);
        }
        let string = JType::class("java.lang.String");
        types.insert(string.to_string(), string);
        for (id, op) in table.iter() {
            ops.entry(op_key(op)).or_insert(id);
            for t in op
                .params
                .iter()
                .chain(std::iter::once(&op.owner))
                .chain(op.ret.iter())
            {
                add_type(&mut types, t);
            }
        }
        Resolver { ops, types }
    }

    /// The sequence of a stored line (the text after [`PREFIX`]), the exception it ends
    /// with and whether it is an error-revealing test; `None` when an operation or type is
    /// not in this run, or the line is damaged.
    pub fn decode(&self, json: &str) -> Option<(Sequence, Option<String>, bool)> {
        let stored: Stored = serde_json::from_str(json).ok()?;
        let mut stmts = Vec::with_capacity(stored.s.len());
        for (i, st) in stored.s.into_iter().enumerate() {
            let earlier = |v: &[u32]| v.iter().all(|&a| (a as usize) < i);
            stmts.push(match st {
                St::C(key, args) if earlier(&args) => Stmt::Call {
                    op: *self.ops.get(&key)?,
                    args,
                },
                St::L(ty, v) => Stmt::Lit {
                    ty: self.types.get(&ty)?.clone(),
                    value: value_from(v)?,
                },
                St::A(ty, elems) if earlier(&elems) => Stmt::Array {
                    elem: self.types.get(&ty)?.clone(),
                    elems,
                },
                _ => return None,
            });
        }
        (!stmts.is_empty()).then_some((Sequence { stmts }, stored.x, stored.e))
    }
}

/// Adds `t`, its element types and type arguments.
fn add_type(types: &mut HashMap<String, JType>, t: &JType) {
    if types.contains_key(&t.to_string()) {
        return;
    }
    types.insert(t.to_string(), t.clone());
    match t {
        JType::Array(e) => add_type(types, e),
        JType::Class { args, .. } => {
            for a in args {
                match a {
                    crate::model::TypeArg::Type(t)
                    | crate::model::TypeArg::Extends(t)
                    | crate::model::TypeArg::Super(t) => add_type(types, t),
                    crate::model::TypeArg::Any => {}
                }
            }
        }
        _ => {}
    }
}

/// The line of a regression test class's header (`emit::junit` writes it) that tells it from
/// an error-revealing one.
pub const REGRESSION_HEADER: &str =
    "// Regression tests: they pass on the code they were generated from and fail when";

/// The line of an error-revealing test class's header (`emit::junit` writes it). Its tests
/// carry stored sequences too (flagged `"e":true`): a re-run keeps the test it wrote for a
/// defect when it still shows it, instead of writing one with other inputs.
pub const ERROR_HEADER: &str =
    "// Error-revealing tests: each test FAILS, showing behaviour that breaks a contract";

/// One test read from an earlier run's file.
#[derive(Clone, Debug)]
pub struct StoredTest {
    /// Simple name of the test class it was in.
    pub class: String,
    pub method: String,
    /// The text after [`PREFIX`]; `None` for a regression test written without the line (a
    /// sequence [`line`] could not store): it cannot be read back, and is counted as such.
    pub json: Option<String>,
    /// In a file of error-revealing tests (one written before they carried stored sequences
    /// has none: its tests are replaced, not counted as unreadable).
    pub error_file: bool,
}

/// The tests of a file jforge wrote (regression or error-revealing), with their stored
/// sequences, in file order.
pub fn read_file(path: &Path) -> Vec<StoredTest> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let class = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    read_text(&class, &text)
}

/// [`read_file`] of the text of test class `class`.
fn read_text(class: &str, text: &str) -> Vec<StoredTest> {
    let error_file = text.lines().any(|l| l == ERROR_HEADER);
    if !error_file && !text.lines().any(|l| l == REGRESSION_HEADER) {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut pending: Option<String> = None;
    for l in text.lines() {
        let t = l.trim();
        if let Some(json) = t.strip_prefix(PREFIX) {
            pending = Some(json.to_string());
        } else if let Some(rest) = t.strip_prefix("public void ") {
            let method = rest.split('(').next().unwrap_or("").trim().to_string();
            out.push(StoredTest {
                class: class.to_string(),
                method,
                json: pending.take(),
                error_file,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::OpKind;

    fn table() -> OpTable {
        let mut t = OpTable::default();
        t.intern(Operation {
            kind: OpKind::Constructor,
            class: "a.B".into(),
            name: "<init>".into(),
            descriptor: "(I)V".into(),
            owner: JType::class("a.B"),
            params: vec![JType::Prim(crate::model::Prim::Int)],
            ret: Some(JType::class("a.B")),
            varargs: false,
            overloaded: false,
            method_type_args: Vec::new(),
            outer_instance: false,
            stub: None,
        });
        t
    }

    #[test]
    fn round_trip_and_unknown_operations() {
        let t = table();
        let seq = Sequence {
            stmts: vec![
                Stmt::Lit {
                    ty: JType::Prim(crate::model::Prim::Int),
                    value: Value::Int(-3),
                },
                Stmt::Call {
                    op: 0,
                    args: vec![0],
                },
            ],
        };
        let l = line(&t, &seq, Some("java.lang.X"), false).unwrap();
        assert!(
            l.starts_with(PREFIX) && l.is_ascii() && !l.contains('\n'),
            "{l}"
        );
        let r = Resolver::new(&t);
        let (back, x, e) = r.decode(l.strip_prefix(PREFIX).unwrap()).unwrap();
        assert!(!e);
        let le = line(&t, &seq, None, true).unwrap();
        assert!(le.ends_with(r#","e":true}"#), "{le}");
        let (back_e, xe, e) = r.decode(le.strip_prefix(PREFIX).unwrap()).unwrap();
        assert!(e && xe.is_none() && back_e == seq);
        assert_eq!(back, seq);
        assert_eq!(x.as_deref(), Some("java.lang.X"));
        // another run without that constructor cannot read it back
        let empty = Resolver::new(&OpTable::default());
        assert!(empty.decode(l.strip_prefix(PREFIX).unwrap()).is_none());
        // a reference to a later statement is refused
        assert!(r.decode(r#"{"s":[{"C":["x",[1]]}]}"#).is_none());
    }

    /// `static <E extends Enum<E>> E parse(Class<E>, String)` instantiated with `E` = `a.B$M`,
    /// as `Enum.<QuoteMode>valueOf(QuoteMode.class, ..)` and `b.<T>get(Class<T>)` are.
    fn generic_table() -> (OpTable, JType) {
        let mut t = table();
        let m = JType::class("a.B$M");
        let class_m = JType::generic("java.lang.Class", vec![m.clone()]);
        t.intern(Operation {
            kind: OpKind::StaticMethod,
            class: "a.B".into(),
            name: "parse".into(),
            descriptor: "(Ljava/lang/Class;Ljava/lang/String;)Ljava/lang/Enum;".into(),
            owner: JType::class("a.B"),
            params: vec![class_m.clone(), JType::string()],
            ret: Some(m),
            varargs: false,
            overloaded: false,
            method_type_args: vec![JType::class("a.B$M")],
            outer_instance: false,
            stub: None,
        });
        (t, class_m)
    }

    #[test]
    fn class_literals_of_generic_calls_round_trip() {
        let (t, class_m) = generic_table();
        let int = JType::Prim(crate::model::Prim::Int);
        let class_of = |x: JType| JType::generic("java.lang.Class", vec![x]);
        let mut t = t;
        // class literals of an array and a primitive type, as `Class<X>` parameters take
        for x in [JType::Array(Box::new(JType::class("a.B$M"))), int.clone()] {
            t.intern(Operation {
                kind: OpKind::StaticMethod,
                class: "a.B".into(),
                name: "of".into(),
                descriptor: format!("(Ljava/lang/Class;)V{}", x.descriptor()),
                owner: JType::class("a.B"),
                params: vec![class_of(x)],
                ret: None,
                varargs: false,
                overloaded: true,
                method_type_args: Vec::new(),
                outer_instance: false,
                stub: None,
            });
        }
        let seq = Sequence {
            stmts: vec![
                Stmt::Lit {
                    ty: class_m,
                    value: Value::Class(JType::class("a.B$M")),
                },
                Stmt::Lit {
                    ty: JType::string(),
                    value: Value::Str("fast".into()),
                },
                Stmt::Call {
                    op: 1,
                    args: vec![0, 1],
                },
                Stmt::Lit {
                    ty: class_of(JType::Array(Box::new(JType::class("a.B$M")))),
                    value: Value::Class(JType::Array(Box::new(JType::class("a.B$M")))),
                },
                Stmt::Call {
                    op: 2,
                    args: vec![3],
                },
                Stmt::Lit {
                    ty: class_of(int.clone()),
                    value: Value::Class(int),
                },
                Stmt::Call {
                    op: 3,
                    args: vec![5],
                },
            ],
        };
        let l = line(&t, &seq, Some("java.lang.IllegalArgumentException"), false).unwrap();
        assert!(l.is_ascii() && !l.contains('\n'), "{l}");
        let (back, x, _) = Resolver::new(&t)
            .decode(l.strip_prefix(PREFIX).unwrap())
            .unwrap();
        assert_eq!(back, seq);
        assert_eq!(x.as_deref(), Some("java.lang.IllegalArgumentException"));
        // a damaged descriptor is refused, not read as another class
        let bad = l.replace("La/B$M;", "La/B$M");
        assert!(
            Resolver::new(&t)
                .decode(bad.strip_prefix(PREFIX).unwrap())
                .is_none()
        );
    }

    #[test]
    fn tests_without_a_stored_line_are_read_as_unreadable() {
        let header = REGRESSION_HEADER;
        let text = format!(
            "{header}\npublic class ARegressionTest {{\n    // jforge-seq: {{\"s\":[]}}\n    \
             @Test\n    public void test1() throws Throwable {{\n    }}\n    @Test\n    \
             public void test2() throws Throwable {{\n    }}\n}}\n"
        );
        let read = read_text("ARegressionTest", &text);
        let got: Vec<(&str, Option<&str>)> = read
            .iter()
            .map(|t| (t.method.as_str(), t.json.as_deref()))
            .collect();
        assert_eq!(got, [("test1", Some(r#"{"s":[]}"#)), ("test2", None)]);
        // error-revealing tests are read back too, flagged by their file's header
        let errors = text.replace(header, ERROR_HEADER);
        let read = read_text("AErrorTest", &errors);
        assert!(
            read.len() == 2 && read.iter().all(|t| t.error_file),
            "{read:?}"
        );
        assert!(!read_text("ARegressionTest", &text)[0].error_file);
        // a file of neither kind is not read
        let other = text.replace(header, "// written by hand");
        assert!(read_text("ATest", &other).is_empty());
    }
}
