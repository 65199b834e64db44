//! The literal pool: primitive and String values that seed generation, from defaults and from
//! the constant pools of the classes under test (and, during the run, small values that
//! calls returned).

use crate::model::{JType, Literal, Prim};
use crate::sequence::Value;
use rand::Rng;
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

/// Whole strings of the shapes parsers and escapers branch on (issue 34, item 3): numbers
/// in every notation Java and its libraries read (radix prefix, exponent, type suffix,
/// sign alone, a doubled sign, negative zero, just past `int` and `long` in decimal and in
/// hex, more decimals than a `float` and a `double` hold), escapes, an absolute URL, a
/// supplementary character (a surrogate pair in UTF-16), control characters and quotes.
const SHAPES: &[&str] = &[
    "-",
    "+1",
    "-0",
    "0x1F",
    "0X1f",
    "#1F",
    "017",
    "1e5",
    "1E-3",
    "1.0f",
    "1.5d",
    "10L",
    ".5",
    "1.",
    "NaN",
    "-Infinity",
    "2147483648",
    "-9223372036854775809",
    "--1",
    "0x80000000",
    "0x8000000000000000",
    "0.12345678",
    "1.123456789012345678",
    "http://a.b/c/d?e",
    "&#x1F;",
    "&amp;",
    "\\u0041",
    "%s",
    "\u{1F600}",
    "\u{0}",
    "\r\n",
    "\"",
    "\\",
    "\t ",
    "\u{e9}",
];

/// Prefixes and suffixes a mutation adds: signs, radix prefixes, exponents and the type
/// letters of Java's number literals, a supplementary character, a percent sign.
const PREFIXES: &[&str] = &["-", "+", "0x", "0X", "#", "0", " ", "\\"];
const SUFFIXES: &[&str] = &[
    "e5",
    "E-3",
    "L",
    "l",
    "f",
    "F",
    "d",
    "D",
    ".0",
    "%",
    " ",
    "\u{1F600}",
    // a whitespace above ' ' (`Character.isWhitespace`, not `trim()`'s): em space
    "\u{2003}",
];

/// Single characters a mutation inserts beside the ones the code compared against.
const SPECIAL_CHARS: &[char] = &[
    '\u{1F600}',
    '\t',
    '\r',
    '\n',
    '"',
    '\\',
    ',',
    ';',
    '\u{e9}',
    '\0',
    '-',
    '.',
];

/// A mutant of `base` (issue 34, item 3: inputs of the right shape): a character inserted
/// (one of `chars`, the characters the code compared against, or a special one), one
/// deleted, the string repeated, its case flipped, a sign/radix prefix or an
/// exponent/type suffix added, another pool string appended, or a whole string of a known
/// shape ([`SHAPES`]). Deterministic in `rng`.
pub fn mutate_string(base: &str, chars: &[u16], others: &[String], rng: &mut impl Rng) -> String {
    let mut cs: Vec<char> = base.chars().collect();
    let pick_char = |rng: &mut dyn rand::RngCore| -> char {
        let own: Vec<char> = chars
            .iter()
            .filter_map(|&u| char::from_u32(u as u32))
            .collect();
        if !own.is_empty() && rng.random_bool(0.6) {
            own[rng.random_range(0..own.len())]
        } else {
            SPECIAL_CHARS[rng.random_range(0..SPECIAL_CHARS.len())]
        }
    };
    match rng.random_range(0..9u32) {
        0 | 1 => {
            let at = rng.random_range(0..=cs.len());
            let c = pick_char(rng);
            cs.insert(at, c);
        }
        2 if !cs.is_empty() => {
            let at = rng.random_range(0..cs.len());
            cs.remove(at);
        }
        3 if !cs.is_empty() => {
            let again = cs.clone();
            cs.extend(again);
        }
        4 if cs.iter().any(|c| c.is_alphabetic()) => {
            let upper = cs.iter().any(|c| c.is_lowercase());
            let s: String = cs.iter().collect();
            return if upper {
                s.to_uppercase()
            } else {
                s.to_lowercase()
            };
        }
        5 => {
            let p = PREFIXES[rng.random_range(0..PREFIXES.len())];
            return format!("{p}{base}");
        }
        6 => {
            let x = SUFFIXES[rng.random_range(0..SUFFIXES.len())];
            return format!("{base}{x}");
        }
        7 if !others.is_empty() => {
            let o = &others[rng.random_range(0..others.len())];
            return format!("{base}{o}");
        }
        _ => return SHAPES[rng.random_range(0..SHAPES.len())].to_string(),
    }
    cs.into_iter().collect()
}

/// A short text (1 to 4 characters) mostly of `chars` (punctuation and control characters
/// code compared what it read against), else `'a'`: the content of a reader for code that
/// reads it character by character. Deterministic in `rng`.
pub fn text_of(chars: &[char], rng: &mut impl Rng) -> String {
    let n = rng.random_range(1..=4usize);
    (0..n)
        .map(|_| {
            if !chars.is_empty() && rng.random_bool(0.7) {
                chars[rng.random_range(0..chars.len())]
            } else {
                'a'
            }
        })
        .collect()
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

    #[test]
    fn mutants_take_the_shapes_parsers_branch_on() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let others = vec!["abc".to_string()];
        let mutants: Vec<String> = (0..400)
            .map(|_| mutate_string("10", &[b';' as u16], &others, &mut rng))
            .collect();
        let has = |f: &dyn Fn(&str) -> bool| mutants.iter().any(|m| f(m));
        // a compared-against character inserted, one deleted, repeated, prefixes, suffixes
        assert!(has(&|m| m.contains(';')), "{mutants:?}");
        assert!(has(&|m| m == "1" || m == "0"));
        assert!(has(&|m| m == "1010"));
        assert!(has(&|m| m == "0x10" || m == "-10"));
        assert!(has(&|m| m == "10e5" || m == "10L"));
        assert!(has(&|m| m == "10abc"));
        // whole shapes: a supplementary character (a surrogate pair in Java), a radix literal
        assert!(has(&|m| m.chars().any(|c| c as u32 > 0xFFFF)));
        assert!(has(&|m| m == "0x1F"));
        // case: a string with letters flips
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        assert!((0..200).any(|_| mutate_string("abC", &[], &[], &mut rng) == "ABC"));
    }
}
