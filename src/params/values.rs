//! Seed 000's value heuristics for one parameter: which literal to pass first, and which
//! others a handler may try next (class constants, boundaries, values the method compared
//! its arguments against).
//!
//! Why here and not in `generate::literals`: `gen` draws literals at random from a pool; here
//! the order is the point (constants of the declaring class first, an index bounded by the
//! smallest container), and a value is chosen once per attempt, deterministically.

use crate::model::{JType, Literal, Model, Prim};
use crate::sequence::{Operation, Value};

/// Largest class constant used as a size or count: a constant such as `MAX_ARRAY_SIZE`
/// (`Integer.MAX_VALUE - 8`) passed to `new ArrayList(int)` exhausts the heap.
const MAX_CONSTANT: i64 = 1000;

/// The primitive kind of a literal type (`int`, `Integer`), `None` for String and others.
pub fn prim_of(t: &JType) -> Option<Prim> {
    match t {
        JType::Prim(p) => Some(*p),
        JType::Class { name, .. } => Prim::unboxed(name),
        _ => None,
    }
}

/// Whether `t` is `int`, `long`, `short` or their boxes: what an index may be.
pub fn is_integral(t: &JType) -> bool {
    matches!(
        prim_of(t),
        Some(Prim::Int | Prim::Long | Prim::Short | Prim::Byte)
    )
}

/// `v` as a value of primitive kind `p` (saturating for narrow kinds).
pub fn integral(p: Prim, v: i64) -> Value {
    match p {
        Prim::Int => Value::Int(v.clamp(i32::MIN as i64, i32::MAX as i64) as i32),
        Prim::Long => Value::Long(v),
        Prim::Short => Value::Short(v.clamp(i16::MIN as i64, i16::MAX as i64) as i16),
        Prim::Byte => Value::Byte(v.clamp(i8::MIN as i64, i8::MAX as i64) as i8),
        Prim::Char => Value::Char(v.clamp(0, u16::MAX as i64) as u16),
        Prim::Float => Value::float(v as f32),
        Prim::Double => Value::double(v as f64),
        Prim::Boolean => Value::Bool(v != 0),
    }
}

/// The integral value of a literal, if it has one.
pub fn as_i64(v: &Value) -> Option<i64> {
    Some(match v {
        Value::Int(i) => *i as i64,
        Value::Long(l) => *l,
        Value::Short(s) => *s as i64,
        Value::Byte(b) => *b as i64,
        Value::Char(c) => *c as i64,
        _ => return None,
    })
}

/// The constants of `class` and its supertypes (their constant pools: `static final`
/// values and the literals the code uses), integral ones in `1..=MAX_CONSTANT` and Strings,
/// in declaration order, without repeats.
pub fn class_constants(model: &Model, class: &str) -> (Vec<i64>, Vec<String>) {
    let mut ints = Vec::new();
    let mut strs = Vec::new();
    let mut classes = vec![class.to_string()];
    classes.extend(model.supertypes(class));
    for c in classes {
        let Some(ci) = model.get(&c) else { continue };
        for l in &ci.literals {
            match l {
                Literal::Int(i) => push_new(&mut ints, *i as i64),
                Literal::Long(l) => push_new(&mut ints, *l),
                Literal::Str(s) if !s.is_empty() && s.len() <= 40 => push_new(&mut strs, s.clone()),
                _ => {}
            }
        }
    }
    ints.retain(|v| (1..=MAX_CONSTANT).contains(v));
    (ints, strs)
}

fn push_new<T: PartialEq>(v: &mut Vec<T>, x: T) {
    if !v.contains(&x) {
        v.push(x);
    }
}

/// The first value tried for a parameter of literal type `t`: for an index (`index` true)
/// 0, else the first small positive class constant, else 1; `"abc"` for Strings (three
/// characters: an index into it has room).
pub fn first_literal(t: &JType, index: bool, constants: &[i64]) -> Value {
    let Some(p) = prim_of(t) else {
        return Value::Str("abc".into());
    };
    match p {
        Prim::Boolean => Value::Bool(true),
        Prim::Char => Value::Char(u16::from(b'a')),
        Prim::Float | Prim::Double => integral(p, constants.first().copied().unwrap_or(1)),
        _ if index => integral(p, 0),
        _ => integral(p, constants.first().copied().unwrap_or(1)),
    }
}

/// The `i`-th of a few distinct values of literal type `t` (elements a container is filled
/// with: `"a"`, `"b"`, ...; 1, 2, ...).
pub fn nth_literal(t: &JType, i: usize) -> Value {
    match prim_of(t) {
        None => Value::Str(((b'a' + (i % 26) as u8) as char).to_string()),
        Some(Prim::Boolean) => Value::Bool(i.is_multiple_of(2)),
        Some(Prim::Char) => Value::Char(u16::from(b'a') + (i % 26) as u16),
        Some(p) => integral(p, i as i64 + 1),
    }
}

/// Values a handler tries for a parameter of literal type `t` after a value was refused
/// (IllegalArgumentException and the like): the values the method compared against and
/// their neighbours, the class constants, then boundaries; without `first`.
pub fn search_values(t: &JType, constants: &[i64], compared: &[i64], first: &Value) -> Vec<Value> {
    let Some(p) = prim_of(t) else {
        return Vec::new();
    };
    let mut out: Vec<Value> = Vec::new();
    match p {
        Prim::Boolean => out.extend([Value::Bool(false), Value::Bool(true)]),
        Prim::Float | Prim::Double => {
            for d in [0.5, 0.0, 2.0, -1.0, 10.0] {
                out.push(if p == Prim::Float {
                    Value::float(d as f32)
                } else {
                    Value::double(d)
                });
            }
        }
        _ => {
            let mut ints: Vec<i64> = Vec::new();
            // the pairs the method compared hold the argument itself: its other operands
            for &c in compared.iter().filter(|&&c| integral(p, c) != *first) {
                ints.extend([c, c + 1, c - 1]);
            }
            ints.extend(constants.iter().copied());
            ints.extend([
                0,
                2,
                -1,
                10,
                100,
                1,
                16,
                1000,
                i32::MAX as i64,
                i32::MIN as i64,
            ]);
            for i in ints {
                push_new(&mut out, integral(p, i));
            }
        }
    }
    out.retain(|v| v != first);
    out
}

/// The command process launchers get (`ProcessBuilder(String...)`, `command(..)`,
/// `Runtime.exec(..)`, every String argument and element): `true`, when an executable of that
/// name is on the PATH, else `None` (they then get "abc" and fail with "Cannot run program").
/// Why `true`: it reads no input, writes no output, exits at once with 0 whatever its
/// arguments (`exec(cmd, envp)` passes it the same word as an environment entry, ignored
/// without a `=`), and exists on every POSIX system. Called by name, not by path, so that a
/// smoke test or benchmark written from the call runs on another machine. A child that still
/// runs after a sequence is killed by the worker (`Leaks`).
pub fn harmless_command() -> Option<String> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .any(|d| d.join("true").is_file())
        .then(|| "true".to_string())
}

/// Whether `op` starts processes from its String arguments (see [`harmless_command`]).
pub fn launches(op: &Operation) -> bool {
    match op.class.as_str() {
        "java.lang.ProcessBuilder" => op.name == "<init>" || op.name == "command",
        "java.lang.Runtime" => op.name == "exec",
        _ => false,
    }
}

/// Strings a `NumberFormatException` asks for: numbers in the forms parsers read.
pub const NUMERIC_STRINGS: &[&str] = &["1", "0", "12", "1.5", "-1", "true", "1e3"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_starts_at_zero_and_a_size_at_a_constant() {
        let int = JType::Prim(Prim::Int);
        assert_eq!(first_literal(&int, true, &[16]), Value::Int(0));
        assert_eq!(first_literal(&int, false, &[16]), Value::Int(16));
        assert_eq!(first_literal(&int, false, &[]), Value::Int(1));
        assert_eq!(
            first_literal(&JType::string(), false, &[]),
            Value::Str("abc".into())
        );
    }

    #[test]
    fn the_search_tries_compared_values_and_their_neighbours_first() {
        let int = JType::Prim(Prim::Int);
        // 1 is the argument itself, compared with 42
        let v = search_values(&int, &[7], &[1, 42], &Value::Int(1));
        assert_eq!(
            &v[..4],
            &[
                Value::Int(42),
                Value::Int(43),
                Value::Int(41),
                Value::Int(7)
            ]
        );
        assert!(!v.contains(&Value::Int(1)));
    }
}
