//! The literal pool: primitive and String values that seed generation, from defaults and from
//! the constant pools of the classes under test (and, during the run, small values that
//! calls returned).

use crate::model::{JType, Literal, Prim};
use crate::sequence::Value;
use std::collections::{BTreeMap, HashSet};

#[derive(Debug, Default, Clone)]
pub struct LiteralPool {
    values: BTreeMap<Prim, Vec<Value>>,
    strings: Vec<String>,
    seen: HashSet<Value>,
}

/// Strings longer than this are not worth reusing as literals.
const MAX_STRING: usize = 100;

impl LiteralPool {
    pub fn with_defaults() -> LiteralPool {
        let mut p = LiteralPool::default();
        for i in [-1i64, 0, 1, 10, 100] {
            p.add_integral(i);
        }
        for d in [-1.0f64, 0.0, 1.0, 10.0, 100.0] {
            p.add_value(Prim::Double, Value::double(d));
            p.add_value(Prim::Float, Value::float(d as f32));
        }
        p.add_value(Prim::Boolean, Value::Bool(true));
        p.add_value(Prim::Boolean, Value::Bool(false));
        for c in ['a', '0', ' ', 'Z', '\n'] {
            p.add_value(Prim::Char, Value::Char(c as u16));
        }
        for s in ["", "hi!", "a", "10"] {
            p.add_string(s);
        }
        p
    }

    fn add_value(&mut self, prim: Prim, v: Value) {
        if self.seen.insert(v.clone()) {
            self.values.entry(prim).or_default().push(v);
        }
    }

    fn add_integral(&mut self, i: i64) {
        if let Ok(v) = i32::try_from(i) {
            self.add_value(Prim::Int, Value::Int(v));
        }
        self.add_value(Prim::Long, Value::Long(i));
        if let Ok(v) = i16::try_from(i) {
            self.add_value(Prim::Short, Value::Short(v));
        }
        if let Ok(v) = i8::try_from(i) {
            self.add_value(Prim::Byte, Value::Byte(v));
        }
    }

    /// A value the code under test compared against (comparison logging): every integral
    /// type it fits, and, with `as_char`, char when it is a UTF-16 unit.
    pub fn add_compared(&mut self, v: i64, as_char: bool) {
        self.add_integral(v);
        if as_char && let Ok(c) = u16::try_from(v) {
            self.add_value(Prim::Char, Value::Char(c));
        }
    }

    /// How many distinct values the pool holds.
    pub fn len(&self) -> usize {
        self.seen.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seen.is_empty()
    }

    pub fn add_string(&mut self, s: &str) {
        if s.chars().count() <= MAX_STRING && self.seen.insert(Value::Str(s.to_string())) {
            self.strings.push(s.to_string());
        }
    }

    pub fn add_literal(&mut self, l: &Literal) {
        match l {
            Literal::Int(i) => self.add_integral(*i as i64),
            Literal::Long(l) => self.add_value(Prim::Long, Value::Long(*l)),
            Literal::Float(f) => self.add_value(Prim::Float, Value::float(*f)),
            Literal::Double(d) => self.add_value(Prim::Double, Value::double(*d)),
            Literal::Str(s) => self.add_string(s),
        }
    }

    /// A value returned by a call: kept when small enough to be a useful literal.
    pub fn add_observed(&mut self, v: &Value) {
        match v {
            Value::Int(i) if i.abs() <= 10_000 => self.add_integral(*i as i64),
            Value::Long(l) if l.abs() <= 10_000 => self.add_value(Prim::Long, v.clone()),
            Value::Char(_) => self.add_value(Prim::Char, v.clone()),
            Value::Str(s) => self.add_string(s),
            _ => {}
        }
    }

    /// The values available for a literal type (primitive, boxed or String).
    pub fn choices(&self, t: &JType) -> Option<LiteralChoices<'_>> {
        match t {
            JType::Prim(p) => self.values.get(p).map(|v| LiteralChoices::Values(v)),
            JType::Class { name, .. } if name == "java.lang.String" => {
                Some(LiteralChoices::Strings(&self.strings))
            }
            JType::Class { name, .. } => {
                let p = Prim::unboxed(name)?;
                self.values.get(&p).map(|v| LiteralChoices::Values(v))
            }
            _ => None,
        }
    }
}

pub enum LiteralChoices<'a> {
    Values(&'a [Value]),
    Strings(&'a [String]),
}

impl LiteralChoices<'_> {
    pub fn len(&self) -> usize {
        match self {
            LiteralChoices::Values(v) => v.len(),
            LiteralChoices::Strings(s) => s.len(),
        }
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn get(&self, i: usize) -> Value {
        match self {
            LiteralChoices::Values(v) => v[i].clone(),
            LiteralChoices::Strings(s) => Value::Str(s[i].clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn constants_fill_the_right_types() {
        let mut p = LiteralPool::with_defaults();
        p.add_literal(&Literal::Int(300));
        p.add_literal(&Literal::Str("GET".into()));
        let ints = p.choices(&JType::Prim(Prim::Int)).unwrap();
        assert!((0..ints.len()).any(|i| ints.get(i) == Value::Int(300)));
        let bytes = p.choices(&JType::Prim(Prim::Byte)).unwrap();
        assert!(
            !(0..bytes.len()).any(|i| bytes.get(i) == Value::Byte(44)),
            "300 does not fit a byte"
        );
        let strs = p.choices(&JType::string()).unwrap();
        assert!((0..strs.len()).any(|i| strs.get(i) == Value::Str("GET".into())));
        let boxed = p.choices(&JType::class("java.lang.Long")).unwrap();
        assert!((0..boxed.len()).any(|i| boxed.get(i) == Value::Long(300)));
        assert!(p.choices(&JType::object()).is_none());
    }
}
