//! Java source literals for [`Value`]s.
//!
//! Why this is more than `format!("{v}")`: a literal must (1) compile in every context the
//! writer puts it in (a declaration, a method argument that takes part in overload
//! resolution, the first argument of `assertEquals`), (2) have exactly the static type the
//! sequence recorded, because that type picks overloads, and (3) evaluate to exactly the value
//! the runner observed (NaN, `-0.0`, `Long.MIN_VALUE`, lone surrogates in `char`). Hence:
//! `byte`/`short` values are always cast (`(byte) 1`), boxed contexts use `Integer.valueOf(..)`
//! (a cast `(Integer) -1` would parse as a subtraction), floats use the shortest text that
//! round-trips, special floats use the named constants, and every non-ASCII or control
//! character is written as an escape so that generated files are pure ASCII.

use crate::model::types::JType;
use crate::model::types::Prim;
use crate::sequence::{LambdaBody, Operation, Stub, Value};

/// Java source literal of `v` for a context of static type `ty`: `1L`, `(byte) 1`,
/// `(short) -3`, `'\n'`, `'\u0000'`, `'\''`, `1.5f`, `Float.NaN`, `Double.POSITIVE_INFINITY`,
/// `-0.0`, `Integer.MIN_VALUE`, escaped Strings, typed nulls `(java.lang.String) null`, enum
/// constants `pkg.Color.RED`. In a boxed or reference context (`Integer`, `Object`, `Number`)
/// a primitive value is written `Integer.valueOf(1)` / `Boolean.TRUE`, which has the boxed
/// type and compiles everywhere. Type names are fully qualified.
pub fn java_literal(v: &Value, ty: &JType) -> String {
    literal_with(v, ty, &|t: &JType| t.source())
}

/// As [`java_literal`], naming types through `name` (the writer passes its import-aware
/// namer, so that `java.util.concurrent.TimeUnit.SECONDS` can become `TimeUnit.SECONDS`).
/// `java.lang` wrapper classes are always written by their simple names; the writer makes sure
/// no imported class hides them.
pub(crate) fn literal_with(v: &Value, ty: &JType, name: &dyn Fn(&JType) -> String) -> String {
    match (v, ty) {
        (Value::Null, JType::Prim(_)) => "null".to_string(),
        (Value::Null, _) => {
            let mut vars = Vec::new();
            ty.vars(&mut vars);
            let t = if vars.is_empty() {
                ty.clone()
            } else {
                ty.erasure()
            };
            format!("({}) null", name(&t))
        }
        (Value::Enum(class, constant), _) => format!("{}.{}", name(&JType::class(class)), constant),
        (Value::Lambda(arity, body), _) => format!("({}) {}", name(ty), lambda(*arity, body)),
        (Value::Class(c), _) => format!("{}.class", name(c)),
        (Value::Str(s), _) => string_literal(s),
        (Value::Array(component, items), _) => {
            let elem = match ty {
                JType::Array(elem) => (**elem).clone(),
                _ => array_elem(component),
            };
            array_literal(items, &elem, name)
        }
        (_, JType::Prim(p)) => prim_in(v, *p),
        (_, JType::Class { name: cn, .. }) if Prim::unboxed(cn).is_some() => {
            let p = Prim::unboxed(cn).unwrap_or(Prim::Int);
            boxed(p, &prim_in(v, p))
        }
        _ => match own_prim(v) {
            Some(p) => boxed(p, &prim_literal(v)),
            None => prim_literal(v),
        },
    }
}

/// True when `java_literal(v, ty)` has exactly the static type `ty` (so a cast to `ty` would
/// be redundant): e.g. `1` for `int`, `"a"` for `String`, `Integer.valueOf(1)` for `Integer`,
/// `(T) null` for `T`; but not `"a"` for `Object`.
pub(crate) fn literal_has_type(v: &Value, ty: &JType) -> bool {
    match (v, ty) {
        (Value::Null, JType::Prim(_)) => false,
        (Value::Null, _) => {
            let mut vars = Vec::new();
            ty.vars(&mut vars);
            vars.is_empty()
        }
        (_, JType::Prim(p)) => own_prim(v) == Some(*p),
        (Value::Str(_), JType::Class { name, args }) => {
            name == "java.lang.String" && args.is_empty()
        }
        (Value::Enum(c, _), JType::Class { name, args }) => c == name && args.is_empty(),
        // written with a cast to `ty`
        (Value::Lambda(..), _) => true,
        (_, JType::Class { name, .. }) => Prim::unboxed(name).is_some() && own_prim(v).is_some(),
        _ => false,
    }
}

/// The primitive type a value naturally has (`None` for null, strings and enums).
pub(crate) fn own_prim(v: &Value) -> Option<Prim> {
    Some(match v {
        Value::Bool(_) => Prim::Boolean,
        Value::Byte(_) => Prim::Byte,
        Value::Short(_) => Prim::Short,
        Value::Char(_) => Prim::Char,
        Value::Int(_) => Prim::Int,
        Value::Long(_) => Prim::Long,
        Value::Float(_) => Prim::Float,
        Value::Double(_) => Prim::Double,
        Value::Null
        | Value::Str(_)
        | Value::Enum(..)
        | Value::Array(..)
        | Value::Digest(..)
        | Value::Lambda(..)
        | Value::Class(_) => {
            return None;
        }
    })
}

fn simple_boxed(p: Prim) -> &'static str {
    let b = p.boxed();
    b.rsplit('.').next().unwrap_or(b)
}

fn boxed(p: Prim, lit: &str) -> String {
    match (p, lit) {
        (Prim::Boolean, "true") => "Boolean.TRUE".to_string(),
        (Prim::Boolean, "false") => "Boolean.FALSE".to_string(),
        _ => format!("{}.valueOf({lit})", simple_boxed(p)),
    }
}

/// Literal of primitive type `p`; a value of another primitive kind gets a cast.
fn prim_in(v: &Value, p: Prim) -> String {
    let lit = prim_literal(v);
    match own_prim(v) {
        Some(q) if q == p => lit,
        // `int` literals are also fine where long/float/double is expected, but a cast keeps
        // the static type exact for overload resolution.
        _ => format!("({}) {lit}", p.keyword()),
    }
}

/// Literal of the value's own primitive type (strings, enums and null are handled above).
fn prim_literal(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Byte(b) => format!("(byte) {b}"),
        Value::Short(s) => format!("(short) {s}"),
        Value::Char(c) => char_literal(*c),
        Value::Int(i) if *i == i32::MIN => "Integer.MIN_VALUE".to_string(),
        Value::Int(i) => i.to_string(),
        Value::Long(l) if *l == i64::MIN => "Long.MIN_VALUE".to_string(),
        Value::Long(l) => format!("{l}L"),
        Value::Float(bits) => {
            let f = f32::from_bits(*bits);
            if f.is_nan() {
                "Float.NaN".to_string()
            } else if f == f32::INFINITY {
                "Float.POSITIVE_INFINITY".to_string()
            } else if f == f32::NEG_INFINITY {
                "Float.NEGATIVE_INFINITY".to_string()
            } else {
                // Rust's `{:?}` is the shortest text that round-trips under
                // round-to-nearest, which is also how javac reads literals.
                format!("{f:?}f")
            }
        }
        Value::Double(bits) => {
            let d = f64::from_bits(*bits);
            if d.is_nan() {
                "Double.NaN".to_string()
            } else if d == f64::INFINITY {
                "Double.POSITIVE_INFINITY".to_string()
            } else if d == f64::NEG_INFINITY {
                "Double.NEGATIVE_INFINITY".to_string()
            } else {
                format!("{d:?}")
            }
        }
        Value::Str(s) => string_literal(s),
        Value::Null => "null".to_string(),
        Value::Enum(c, k) => format!("{}.{k}", crate::model::types::source_name(c)),
        Value::Array(component, items) => {
            array_literal(items, &array_elem(component), &|t: &JType| t.source())
        }
        Value::Lambda(arity, body) => lambda(*arity, body),
        Value::Class(c) => format!("{}.class", c.source()),
        // an observed value only, asserted through its hash (`JUnitWriter::digest_assertion`)
        Value::Digest(_, _, hash) => hash.to_string(),
    }
}

/// A lambda expression without its target type: `(p$0, p$1) -> p$0`, `(p$0) -> {}`,
/// `() -> 0L`. Why `p$i`: a lambda parameter may not shadow a local variable of the test,
/// and the writer's variable names never hold a `$` (`names::var_base`). A result value is
/// written in its own kind (`0L`, `(byte) 0`, `""`, `null`), which a lambda's return
/// converts as an assignment does (JLS 15.27.3).
fn lambda(arity: u8, body: &LambdaBody) -> String {
    let params: Vec<String> = (0..arity).map(|i| format!("p${i}")).collect();
    let body = match body {
        LambdaBody::Void => "{}".to_string(),
        LambdaBody::Arg(i) => format!("p${i}"),
        LambdaBody::Value(v) => match &**v {
            Value::Null => "null".to_string(),
            v => prim_literal(v),
        },
    };
    format!("({}) -> {body}", params.join(", "))
}

/// The element type an array of `component` is written with: the primitive itself, else
/// `Object` (an `Object[]` compares element by element with any reference array, and never
/// names a class the test may not see).
fn array_elem(component: &str) -> JType {
    match Prim::from_keyword(component) {
        Some(p) => JType::Prim(p),
        None => JType::object(),
    }
}

/// `new int[] { 1, 2 }`, `new Object[] { "a", null, Integer.valueOf(1) }`: the elements as
/// literals of `elem` (a primitive, or a reference type, written by its erasure).
fn array_literal(items: &[Value], elem: &JType, name: &dyn Fn(&JType) -> String) -> String {
    let lits: Vec<String> = items
        .iter()
        .map(|v| match v {
            Value::Null => "null".to_string(),
            _ => literal_with(v, elem, name),
        })
        .collect();
    let body = if lits.is_empty() {
        "{}".to_string()
    } else {
        format!("{{ {} }}", lits.join(", "))
    };
    format!("new {}[] {body}", name(&elem.erasure()))
}

/// Escape of one UTF-16 code unit inside a char or string literal (`quote` is the delimiter
/// that must be escaped). `\u000a`/`\u000d` would end the line before the lexer sees the
/// literal and `\u0027`/`\u0022`/`\u005c` would close it or start an escape, so those are
/// written with the named escapes.
fn escape_unit(u: u16, quote: char, out: &mut String) {
    match u {
        0x08 => out.push_str("\\b"),
        0x09 => out.push_str("\\t"),
        0x0a => out.push_str("\\n"),
        0x0c => out.push_str("\\f"),
        0x0d => out.push_str("\\r"),
        0x5c => out.push_str("\\\\"),
        0x22 if quote == '"' => out.push_str("\\\""),
        0x27 if quote == '\'' => out.push_str("\\'"),
        0x20..=0x7e => out.push(u as u8 as char),
        _ => out.push_str(&format!("\\u{u:04x}")),
    }
}

/// `'a'`, `'\n'`, `'\''`, `'\u00e9'`, `'\ud800'` (a lone surrogate is a valid `char`).
pub fn char_literal(c: u16) -> String {
    let mut s = String::from("'");
    escape_unit(c, '\'', &mut s);
    s.push('\'');
    s
}

/// A double-quoted Java string literal; everything outside printable ASCII is escaped per
/// UTF-16 code unit (characters beyond the BMP become surrogate pairs `\ud83d\ude00`).
pub fn string_literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for u in s.encode_utf16() {
        escape_unit(u, '"', &mut out);
    }
    out.push('"');
    out
}

/// Source of a stub operation ([`Stub`]): the anonymous class
/// `new ForwardingList<String>() { @Override protected List<String> delegate() { return arrayList0; } }`
/// on one line. `args` are the source expressions of the operation's inputs (the super
/// constructor's arguments, then the values the methods return: variables the writers
/// declare once and never assign again, or inlined literals, so that the class may capture
/// them); `name` names types (the writer's imports).
pub fn stub_source(
    op: &Operation,
    stub: &Stub,
    args: &[String],
    name: &dyn Fn(&JType) -> String,
) -> String {
    let supers = args.get(..stub.super_params).unwrap_or_default().join(", ");
    let mut body = String::new();
    for (k, m) in stub.methods.iter().enumerate() {
        let params: Vec<String> = m
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{} p${i}", name(p)))
            .collect();
        let access = if m.access.is_empty() {
            String::new()
        } else {
            format!("{} ", m.access)
        };
        let (ret, result) = match (&m.ret, stub.value_of(k).and_then(|i| args.get(i))) {
            (Some(r), Some(v)) => (name(r), format!(" return {v}; ")),
            (Some(r), None) => (name(r), " return null; ".to_string()),
            (None, _) => ("void".to_string(), " ".to_string()),
        };
        body.push_str(&format!(
            " @Override {access}{ret} {}({}) {{{result}}}",
            m.name,
            params.join(", ")
        ));
    }
    format!("new {}({supers}) {{{body} }}", name(&op.owner))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(p: Prim) -> JType {
        JType::Prim(p)
    }

    #[test]
    fn primitives() {
        assert_eq!(java_literal(&Value::Long(1), &p(Prim::Long)), "1L");
        assert_eq!(java_literal(&Value::Byte(1), &p(Prim::Byte)), "(byte) 1");
        assert_eq!(
            java_literal(&Value::Short(-3), &p(Prim::Short)),
            "(short) -3"
        );
        assert_eq!(java_literal(&Value::Int(-7), &p(Prim::Int)), "-7");
        assert_eq!(
            java_literal(&Value::Int(i32::MIN), &p(Prim::Int)),
            "Integer.MIN_VALUE"
        );
        assert_eq!(
            java_literal(&Value::Long(i64::MIN), &p(Prim::Long)),
            "Long.MIN_VALUE"
        );
        assert_eq!(
            java_literal(&Value::Long(i64::MAX), &p(Prim::Long)),
            "9223372036854775807L"
        );
        assert_eq!(java_literal(&Value::Bool(true), &p(Prim::Boolean)), "true");
        // A value of another kind is cast to the context type.
        assert_eq!(java_literal(&Value::Int(3), &p(Prim::Long)), "(long) 3");
    }

    #[test]
    fn chars() {
        let c = |ch: u16| java_literal(&Value::Char(ch), &p(Prim::Char));
        assert_eq!(c(b'a' as u16), "'a'");
        assert_eq!(c(b'\n' as u16), "'\\n'");
        assert_eq!(c(0), "'\\u0000'");
        assert_eq!(c(b'\'' as u16), "'\\''");
        assert_eq!(c(b'"' as u16), "'\"'");
        assert_eq!(c(b'\\' as u16), "'\\\\'");
        assert_eq!(c(0xd800), "'\\ud800'");
        assert_eq!(c(0x7f), "'\\u007f'");
    }

    #[test]
    fn floats() {
        let f = |x: f32| java_literal(&Value::float(x), &p(Prim::Float));
        let d = |x: f64| java_literal(&Value::double(x), &p(Prim::Double));
        assert_eq!(f(1.5), "1.5f");
        assert_eq!(f(f32::NAN), "Float.NaN");
        assert_eq!(f(f32::NEG_INFINITY), "Float.NEGATIVE_INFINITY");
        assert_eq!(f(-0.0), "-0.0f");
        assert_eq!(d(f64::INFINITY), "Double.POSITIVE_INFINITY");
        assert_eq!(d(f64::NAN), "Double.NaN");
        assert_eq!(d(-0.0), "-0.0");
        assert_eq!(d(1.0), "1.0");
        assert_eq!(d(0.1), "0.1");
        assert_eq!(d(1e300), "1e300");
        assert_eq!(d(f64::MIN_POSITIVE), "2.2250738585072014e-308");
    }

    #[test]
    fn strings() {
        let s = |x: &str| java_literal(&Value::Str(x.into()), &JType::string());
        assert_eq!(s("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(s("\t\r\n'"), "\"\\t\\r\\n'\"");
        assert_eq!(s("\u{2028}"), "\"\\u2028\"");
        assert_eq!(s("é"), "\"\\u00e9\"");
        assert_eq!(s("😀"), "\"\\ud83d\\ude00\"");
        // `\u` in the text must not become a unicode escape: the backslash is doubled.
        assert_eq!(s("\\u0041"), "\"\\\\u0041\"");
        assert!(s("\u{0}\u{1f}\u{7f}\u{ffff}").is_ascii());
    }

    #[test]
    fn nulls_enums_and_boxes() {
        assert_eq!(
            java_literal(&Value::Null, &JType::string()),
            "(java.lang.String) null"
        );
        assert_eq!(
            java_literal(
                &Value::Null,
                &JType::generic("java.util.List", vec![JType::string()])
            ),
            "(java.util.List<java.lang.String>) null"
        );
        assert_eq!(
            java_literal(&Value::Null, &JType::class("java.util.Map$Entry")),
            "(java.util.Map.Entry) null"
        );
        assert_eq!(
            java_literal(
                &Value::Enum("pkg.Color".into(), "RED".into()),
                &JType::object()
            ),
            "pkg.Color.RED"
        );
        assert_eq!(
            java_literal(
                &Value::Enum("java.lang.Thread$State".into(), "NEW".into()),
                &JType::object()
            ),
            "java.lang.Thread.State.NEW"
        );
        let integer = JType::class("java.lang.Integer");
        assert_eq!(
            java_literal(&Value::Int(-1), &integer),
            "Integer.valueOf(-1)"
        );
        assert_eq!(
            java_literal(&Value::Int(1), &JType::object()),
            "Integer.valueOf(1)"
        );
        assert_eq!(
            java_literal(&Value::Byte(2), &JType::object()),
            "Byte.valueOf((byte) 2)"
        );
        assert_eq!(
            java_literal(&Value::Bool(true), &JType::object()),
            "Boolean.TRUE"
        );
        assert_eq!(
            java_literal(&Value::Int(5), &JType::class("java.lang.Long")),
            "Long.valueOf((long) 5)"
        );
        assert_eq!(
            java_literal(&Value::Str("x".into()), &JType::object()),
            "\"x\""
        );
    }

    #[test]
    fn exact_literal_types() {
        assert!(literal_has_type(&Value::Int(1), &p(Prim::Int)));
        assert!(!literal_has_type(&Value::Int(1), &p(Prim::Long)));
        assert!(literal_has_type(&Value::Str("a".into()), &JType::string()));
        assert!(!literal_has_type(&Value::Str("a".into()), &JType::object()));
        assert!(literal_has_type(
            &Value::Int(1),
            &JType::class("java.lang.Integer")
        ));
        assert!(!literal_has_type(&Value::Int(1), &JType::object()));
        assert!(literal_has_type(&Value::Null, &JType::object()));
        assert!(literal_has_type(
            &Value::Enum("a.E".into(), "X".into()),
            &JType::class("a.E")
        ));
    }
}
