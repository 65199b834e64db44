//! Round trip of the literal writer through javac: `T x = <literal>;` for many values and
//! types is compiled and run, the program prints what each variable holds (type and exact
//! bits / UTF-16 units), and that must equal the value we asked for. This catches wrong
//! escapes, lossy float text and literals of the wrong static type.

use crate::support as common;
use common::jdk_tool;
use jforge::emit::literal::java_literal;
use jforge::model::types::{JType, Prim};
use jforge::sequence::Value;
use rand::{Rng, SeedableRng};
use std::process::Command;

fn prim_of(v: &Value) -> Option<Prim> {
    Some(match v {
        Value::Bool(_) => Prim::Boolean,
        Value::Byte(_) => Prim::Byte,
        Value::Short(_) => Prim::Short,
        Value::Char(_) => Prim::Char,
        Value::Int(_) => Prim::Int,
        Value::Long(_) => Prim::Long,
        Value::Float(_) => Prim::Float,
        Value::Double(_) => Prim::Double,
        _ => return None,
    })
}

/// What the Java side prints for a value held in a variable of type `ty`.
fn expected(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Str(s) => {
            let units: Vec<String> = s.encode_utf16().map(|u| format!("{u:x}")).collect();
            format!("String:{}", units.join(","))
        }
        Value::Enum(c, k) => format!("Enum:{c}.{k}"),
        Value::Char(c) => format!("Character:{c}"),
        Value::Float(b) => {
            let f = f32::from_bits(*b);
            let bits = if f.is_nan() { f32::NAN.to_bits() } else { *b };
            format!("Float:{bits:x}")
        }
        Value::Double(b) => {
            let d = f64::from_bits(*b);
            let bits = if d.is_nan() { 0x7ff8000000000000 } else { *b };
            format!("Double:{bits:x}")
        }
        Value::Bool(b) => format!("java.lang.Boolean:{b}"),
        Value::Byte(b) => format!("java.lang.Byte:{b}"),
        Value::Short(s) => format!("java.lang.Short:{s}"),
        Value::Int(i) => format!("java.lang.Integer:{i}"),
        Value::Long(l) => format!("java.lang.Long:{l}"),
        Value::Array(c, items) => {
            let items: Vec<String> = items.iter().map(expected).collect();
            format!("Array:{c}[{}]", items.join(";"))
        }
        // not drawn by this round trip (lambdas are compiled by params_e2e's smoke suite)
        Value::Lambda(..) => "Lambda".into(),
        Value::Class(c) => format!("Class:{}", c.source()),
        // an observed value only, never drawn as a literal (suite_e2e asserts it)
        Value::Digest(..) => "Digest".into(),
    }
}

const DESCRIBE: &str = r#"
    static String describe(Object o) {
        if (o == null) return "null";
        if (o instanceof String) {
            String s = (String) o;
            StringBuilder b = new StringBuilder("String:");
            for (int i = 0; i < s.length(); i++) {
                if (i > 0) b.append(',');
                b.append(Integer.toHexString(s.charAt(i)));
            }
            return b.toString();
        }
        if (o instanceof Character) return "Character:" + (int) (Character) o;
        if (o instanceof Float) return "Float:" + Integer.toHexString(Float.floatToRawIntBits((Float) o));
        if (o instanceof Double) return "Double:" + Long.toHexString(Double.doubleToRawLongBits((Double) o));
        if (o.getClass().isArray()) {
            StringBuilder b = new StringBuilder("Array:" + o.getClass().getComponentType().getName() + "[");
            for (int i = 0; i < java.lang.reflect.Array.getLength(o); i++) {
                if (i > 0) b.append(';');
                b.append(describe(java.lang.reflect.Array.get(o, i)));
            }
            return b.append(']').toString();
        }
        if (o instanceof Enum) return "Enum:" + ((Enum<?>) o).getDeclaringClass().getName() + "." + ((Enum<?>) o).name();
        return o.getClass().getName() + ":" + o;
    }
"#;

#[test]
fn literals_round_trip_through_javac() {
    let mut cases: Vec<(Value, JType)> = Vec::new();
    let prim = |p| JType::Prim(p);
    for i in [0, 1, -1, 42, i32::MIN, i32::MAX, i32::MIN + 1] {
        cases.push((Value::Int(i), prim(Prim::Int)));
    }
    for l in [0, -1, i64::MIN, i64::MAX, i32::MIN as i64 - 1] {
        cases.push((Value::Long(l), prim(Prim::Long)));
    }
    for b in [i8::MIN, -1, 0, i8::MAX] {
        cases.push((Value::Byte(b), prim(Prim::Byte)));
    }
    for s in [i16::MIN, -3, i16::MAX] {
        cases.push((Value::Short(s), prim(Prim::Short)));
    }
    for c in [
        0u16,
        10,
        13,
        9,
        8,
        12,
        39,
        34,
        92,
        0x7f,
        0x85,
        0xa0,
        0x2028,
        0x2029,
        0xd800,
        0xdfff,
        0xfeff,
        0xffff,
        b'a' as u16,
        b'u' as u16,
    ] {
        cases.push((Value::Char(c), prim(Prim::Char)));
    }
    for f in [
        1.5f32,
        -0.0,
        0.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MIN_POSITIVE,
        1e-45,
        f32::MAX,
        f32::MIN,
        0.1,
        1.0 / 3.0,
        16777217.0,
        1e10,
    ] {
        cases.push((Value::float(f), prim(Prim::Float)));
    }
    for d in [
        1.5f64,
        -0.0,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        5e-324,
        f64::MAX,
        f64::MIN_POSITIVE,
        0.1,
        1.0 / 3.0,
        1e16,
        1e300,
        123456789.125,
    ] {
        cases.push((Value::double(d), prim(Prim::Double)));
    }
    cases.push((Value::Bool(true), prim(Prim::Boolean)));
    cases.push((Value::Bool(false), prim(Prim::Boolean)));
    for s in [
        "",
        "a\"b",
        "\\u0041",
        "\\",
        "\u{2028}\u{2029}",
        "😀x",
        "\0",
        "tab\tnl\nCR\r",
        "*/ /* //",
        "é ü 漢",
        "\u{1}\u{7f}\u{85}",
        "'",
    ] {
        cases.push((Value::Str(s.into()), JType::string()));
    }
    // Boxed and reference contexts.
    let object = JType::object();
    for v in [
        Value::Int(-1),
        Value::Int(i32::MIN),
        Value::Long(-5),
        Value::Byte(-1),
        Value::Short(-2),
        Value::Char(0),
        Value::Bool(true),
        Value::Bool(false),
        Value::float(-1.5),
        Value::double(f64::NAN),
        Value::Str("o".into()),
    ] {
        cases.push((v.clone(), object.clone()));
        if let Some(p) = prim_of(&v) {
            cases.push((v, JType::class(p.boxed())));
        }
    }
    cases.push((Value::Int(-7), JType::class("java.lang.Number")));
    cases.push((Value::Long(-7), JType::class("java.lang.Comparable")));
    // Enums and typed nulls.
    cases.push((
        Value::Enum("java.util.concurrent.TimeUnit".into(), "SECONDS".into()),
        JType::class("java.util.concurrent.TimeUnit"),
    ));
    cases.push((
        Value::Enum("java.lang.Thread$State".into(), "NEW".into()),
        JType::class("java.lang.Thread$State"),
    ));
    cases.push((
        Value::Enum("java.lang.Thread$State".into(), "BLOCKED".into()),
        object.clone(),
    ));
    cases.push((Value::Null, JType::string()));
    cases.push((
        Value::Null,
        JType::generic("java.util.List", vec![JType::string()]),
    ));
    cases.push((Value::Null, JType::class("java.util.Map$Entry")));
    cases.push((Value::Null, JType::Array(Box::new(JType::Prim(Prim::Int)))));
    cases.push((Value::Null, JType::class("java.lang.Integer")));
    // Arrays (what assertArrayEquals is given): primitives of their own type, references
    // as Object[] (or String[]), empty ones.
    let array = |t: JType| JType::Array(Box::new(t));
    cases.push((
        Value::Array("int".into(), vec![Value::Int(1), Value::Int(i32::MIN)]),
        array(prim(Prim::Int)),
    ));
    cases.push((
        Value::Array("char".into(), vec![Value::Char(39), Value::Char(0xd800)]),
        array(prim(Prim::Char)),
    ));
    cases.push((
        Value::Array(
            "double".into(),
            vec![Value::double(f64::NAN), Value::double(-0.0)],
        ),
        array(prim(Prim::Double)),
    ));
    cases.push((
        Value::Array("byte".into(), vec![Value::Byte(-1)]),
        array(prim(Prim::Byte)),
    ));
    cases.push((Value::Array("long".into(), vec![]), array(prim(Prim::Long))));
    cases.push((
        Value::Array(
            "java.lang.Object".into(),
            vec![
                Value::Str("a\"".into()),
                Value::Int(3),
                Value::Null,
                Value::Enum("java.lang.Thread$State".into(), "NEW".into()),
                Value::Char(97),
            ],
        ),
        array(object.clone()),
    ));
    cases.push((
        Value::Array(
            "java.lang.String".into(),
            vec![Value::Str("x".into()), Value::Null],
        ),
        array(JType::string()),
    ));
    cases.push((
        Value::Array("java.lang.String".into(), vec![]),
        array(JType::string()),
    ));
    // Random bits and strings (fixed seed, so failures reproduce).
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for _ in 0..100 {
        cases.push((Value::Float(rng.random()), prim(Prim::Float)));
        cases.push((Value::Double(rng.random()), prim(Prim::Double)));
        cases.push((Value::Char(rng.random()), prim(Prim::Char)));
        let len = rng.random_range(0..12);
        let s: String = (0..len)
            .map(|_| match rng.random_range(0..3) {
                0 => char::from(rng.random_range(0u8..128)),
                1 => char::from_u32(rng.random_range(0x80..0xd800)).unwrap_or('x'),
                _ => char::from_u32(rng.random_range(0x10000..0x10ffff)).unwrap_or('y'),
            })
            .collect();
        cases.push((Value::Str(s), JType::string()));
    }

    let mut src = String::from("public class LitCheck {\n");
    src.push_str(DESCRIBE);
    src.push_str("    public static void main(String[] args) {\n");
    for (i, (v, ty)) in cases.iter().enumerate() {
        let lit = java_literal(v, ty);
        src.push_str(&format!(
            "        {{ {} x = {lit}; System.out.println(\"{i}\\t\" + describe(x)); }}\n",
            ty.source()
        ));
    }
    src.push_str("    }\n}\n");
    assert!(src.is_ascii(), "literals must keep the file ASCII");

    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("LitCheck.java");
    std::fs::write(&file, &src).unwrap();
    let out = Command::new(jdk_tool("javac"))
        .arg("-d")
        .arg(dir.path())
        .arg(&file)
        .output()
        .expect("javac runs");
    assert!(
        out.status.success(),
        "javac failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        src
    );
    let out = Command::new(jdk_tool("java"))
        .arg("-cp")
        .arg(dir.path())
        .arg("LitCheck")
        .output()
        .expect("java runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), cases.len());
    for (i, (v, ty)) in cases.iter().enumerate() {
        // A boxed context converts to its own primitive type.
        let v = match (ty.class_name().and_then(Prim::unboxed), v) {
            (Some(Prim::Long), Value::Int(i)) => Value::Long(*i as i64),
            _ => v.clone(),
        };
        let want = format!("{i}\t{}", expected(&v));
        assert_eq!(lines[i], want, "literal {} for {ty}", java_literal(&v, ty));
    }
}
