//! The inputs of a method under test (`jforge concolic`): the values a sequence starts
//! with, the sequence built from them (an array argument of primitives becomes a literal
//! statement per element and an array statement, so that `Sym` traces its length and its
//! elements), the inputs a solver's model gives (a new length cuts an array or pads it with
//! zeros), and random inputs for re-seeding an exhausted tree while branches stay open.

use super::solver::{Query, Val};
use super::tree::Pending;
use super::{Engine, Target, trace};
use crate::model::{JType, Prim};
use crate::sequence::{Sequence, Stmt, Value};

/// Sets input `value` (of type `t`) to a model's value for `part` of it.
fn set_input(value: &mut Value, t: &JType, part: Part, v: &Val) {
    match (part, t, v, value) {
        (Part::Slot(_), JType::Prim(p), Val::Bits(b), value) => *value = bits_value(*p, *b),
        (Part::Slot(_), JType::Class { .. }, Val::Str(text), value) => {
            *value = Value::Str(text.clone())
        }
        (Part::Len(_), JType::Array(e), Val::Bits(b), Value::Array(_, vals)) => {
            if let JType::Prim(p) = e.as_ref() {
                let n = (*b as usize).min(trace::MAX_ARRAY as usize);
                vals.resize(n, bits_value(*p, 0));
            }
        }
        (Part::Elem(_, j), JType::Array(e), Val::Bits(b), Value::Array(_, vals)) => {
            if let (JType::Prim(p), Some(x)) = (e.as_ref(), vals.get_mut(j)) {
                *x = bits_value(*p, *b);
            }
        }
        _ => {}
    }
}

/// The literal a parameter of type `t` starts with, and the value of a model's bits for it.
pub(super) fn start_value(t: &JType) -> Value {
    match t {
        JType::Prim(p) => bits_value(*p, 0),
        JType::Class { name, .. } if name == "java.lang.String" => Value::Str(String::new()),
        _ => Value::Null,
    }
}

/// The value a parameter of the method under test starts with: an array of primitives is
/// an empty array (its length and elements are inputs: `Sym` traces them), the rest as
/// [`start_value`].
pub(super) fn start_input(t: &JType) -> Value {
    match t {
        JType::Array(e) => match e.as_ref() {
            JType::Prim(p) if !matches!(p, Prim::Float | Prim::Double) => {
                Value::Array(p.keyword().to_string(), Vec::new())
            }
            _ => Value::Null,
        },
        _ => start_value(t),
    }
}

/// What statement k of a sequence built from inputs is (see `Engine::layout`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Part {
    /// The literal (or other statement) of input slot k.
    Slot(usize),
    /// Element j of the array of input slot k.
    Elem(usize, usize),
    /// The array of input slot k (its length).
    Len(usize),
}

fn bits_value(p: Prim, bits: u64) -> Value {
    match p {
        Prim::Boolean => Value::Bool(bits & 1 != 0),
        Prim::Byte => Value::Byte(bits as u8 as i8),
        Prim::Char => Value::Char(bits as u16),
        Prim::Short => Value::Short(bits as u16 as i16),
        Prim::Int => Value::Int(bits as u32 as i32),
        Prim::Long => Value::Long(bits as i64),
        Prim::Float => Value::float(0.0),
        Prim::Double => Value::double(0.0),
    }
}

impl Engine<'_> {
    /// The sequence: receiver statements, one literal per parameter, the call; `inputs`
    /// holds a value per statement before the call (literals take theirs, the rest ignore it).
    pub(super) fn sequence(&self, target: &Target, inputs: &[Value]) -> Sequence {
        let op = self.table.get(target.op);
        let mut stmts: Vec<Stmt> = target
            .receiver
            .iter()
            .zip(inputs)
            .map(|(s, v)| match s {
                Stmt::Lit { ty, .. } => Stmt::Lit {
                    ty: ty.clone(),
                    value: v.clone(),
                },
                other => other.clone(),
            })
            .collect();
        let mut args = Vec::new();
        if op.has_receiver()
            && let Some(r) = target.receiver_stmt()
        {
            args.push(r);
        }
        let params = inputs.get(target.receiver.len()..).unwrap_or(&[]);
        let receiver = usize::from(op.has_receiver());
        for (i, (t, v)) in op.params.iter().zip(params).enumerate() {
            if let Some(at) = target.fixed(i + receiver) {
                args.push(at);
                continue;
            }
            if let (JType::Array(elem), Value::Array(_, vals)) = (t, v) {
                // an array argument: a literal per element, then the array of them
                let first = stmts.len() as u32;
                for x in vals {
                    stmts.push(Stmt::Lit {
                        ty: elem.as_ref().clone(),
                        value: x.clone(),
                    });
                }
                stmts.push(Stmt::Array {
                    elem: elem.as_ref().clone(),
                    elems: (first..first + vals.len() as u32).collect(),
                });
                args.push(stmts.len() as u32 - 1);
                continue;
            }
            args.push(stmts.len() as u32);
            stmts.push(Stmt::Lit {
                ty: t.clone(),
                value: v.clone(),
            });
        }
        stmts.push(Stmt::Call {
            op: target.op,
            args,
        });
        Sequence { stmts }
    }

    /// What each statement of the sequence built from `inputs` is: the receiver's
    /// statements and a parameter's literal are their input slot; an array argument is a
    /// literal per element, then the array.
    pub(super) fn layout(&self, target: &Target, inputs: &[Value]) -> Vec<Part> {
        let op = self.table.get(target.op);
        let r = target.receiver.len();
        let mut out: Vec<Part> = (0..r).map(Part::Slot).collect();
        let receiver = usize::from(op.has_receiver());
        for (i, t) in op.params.iter().enumerate() {
            if target.fixed(i + receiver).is_some() {
                continue;
            }
            match (t, inputs.get(r + i)) {
                (JType::Array(_), Some(Value::Array(_, vals))) => {
                    out.extend((0..vals.len()).map(|j| Part::Elem(r + i, j)));
                    out.push(Part::Len(r + i));
                }
                _ => out.push(Part::Slot(r + i)),
            }
        }
        out
    }

    /// The type of input slot k (a receiver literal's, or a parameter's).
    pub(super) fn slot_type<'t>(&'t self, target: &'t Target, k: usize) -> Option<&'t JType> {
        match target.receiver.get(k) {
            Some(Stmt::Lit { ty, .. }) => Some(ty),
            Some(_) => None,
            None => k
                .checked_sub(target.receiver.len())
                .and_then(|i| self.table.get(target.op).params.get(i)),
        }
    }

    /// The inputs a model gives: the solved variables (`p<k>`: the literal of statement k,
    /// or the length of the array statement k), the rest as in the source run. A new length
    /// cuts an array or pads it with zeros.
    pub(super) fn inputs_from(
        &self,
        target: &Target,
        p: &Pending,
        q: &Query,
        vals: &[Val],
    ) -> Vec<Value> {
        let layout = self.layout(target, &p.inputs);
        let mut inputs = (*p.inputs).clone();
        let mut solved: Vec<(Part, &Val)> = q
            .vars
            .iter()
            .zip(vals)
            .filter_map(|((name, _), v)| {
                let k = name.strip_prefix('p')?.parse::<usize>().ok()?;
                Some((*layout.get(k)?, v))
            })
            .collect();
        // lengths first: the elements solved for then fall inside or are dropped
        solved.sort_by_key(|(part, _)| !matches!(part, Part::Len(_)));
        for (part, v) in solved {
            let slot = match part {
                Part::Slot(k) | Part::Elem(k, _) | Part::Len(k) => k,
            };
            let Some(t) = self.slot_type(target, slot) else {
                continue;
            };
            let Some(value) = inputs.get_mut(slot) else {
                continue;
            };
            set_input(value, t, part, v);
        }
        inputs
    }

    /// The first inputs: the receiver's literals as built, each parameter's start value.
    pub(super) fn first_inputs(&self, target: &Target) -> Vec<Value> {
        let op = self.table.get(target.op);
        target
            .receiver
            .iter()
            .map(|s| match s {
                Stmt::Lit { value, .. } => value.clone(),
                _ => Value::Null,
            })
            .chain(op.params.iter().map(start_input))
            .collect()
    }

    /// The first batch: the first inputs, and when a parameter is a String or an array, the
    /// same with each of them null (a `s == null` branch is decided on references, which
    /// the solver does not choose).
    pub(super) fn first_batch(&self, target: &Target) -> Vec<(Vec<Value>, Option<Pending>)> {
        let first = self.first_inputs(target);
        let r = target.receiver.len();
        let receiver = usize::from(self.table.get(target.op).has_receiver());
        let mut nulls = first.clone();
        let mut any = false;
        for (i, v) in nulls.iter_mut().skip(r).enumerate() {
            if target.fixed(i + receiver).is_none() && matches!(v, Value::Str(_) | Value::Array(..))
            {
                *v = Value::Null;
                any = true;
            }
        }
        let mut batch = vec![(first, None)];
        if any {
            batch.push((nulls, None));
        }
        batch
    }

    /// A batch of random inputs (the method's own parameters and the receiver's literals
    /// that are not pinned), as many as the pool runs at once; empty when nothing varies.
    pub(super) fn random_batch(
        &self,
        target: &Target,
        rng: &mut Rng,
    ) -> Vec<(Vec<Value>, Option<Pending>)> {
        let first = self.first_inputs(target);
        let r = target.receiver.len();
        let receiver = usize::from(self.table.get(target.op).has_receiver());
        let varies = |k: usize| {
            if k < r {
                matches!(target.receiver[k], Stmt::Lit { .. }) && !target.pinned.contains(&k)
            } else {
                target.fixed(k - r + receiver).is_none()
            }
        };
        let mut batch = Vec::new();
        for _ in 0..self.batch.max(1) {
            let mut inputs = first.clone();
            let mut any = false;
            for (k, v) in inputs.iter_mut().enumerate() {
                if !varies(k) {
                    continue;
                }
                if let Some(t) = self.slot_type(target, k)
                    && let Some(x) = rng.value(t)
                {
                    *v = x;
                    any = true;
                }
            }
            if !any {
                return Vec::new();
            }
            batch.push((inputs, None));
        }
        batch
    }
}

/// Random inputs for re-seeding (xorshift, seeded per method: runs repeat).
pub(super) struct Rng(u64);

impl Rng {
    pub(super) fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Bits for an int-like value: small, at a boundary, or anything, a third each.
    fn bits(&mut self) -> u64 {
        match self.next() % 3 {
            0 => ((self.next() % 33) as i64 - 16) as u64,
            1 => [
                0,
                1,
                u64::MAX,
                i32::MIN as u64,
                i32::MAX as u64,
                i64::MIN as u64,
                i64::MAX as u64,
            ][(self.next() % 7) as usize],
            _ => self.next(),
        }
    }

    fn printable(&mut self) -> u16 {
        b' ' as u16 + (self.next() % 95) as u16
    }

    /// A random value of type `t`: primitives (not floating point), Strings of printable
    /// characters and arrays of primitives of up to 8 elements; `None` for the rest.
    pub(super) fn value(&mut self, t: &JType) -> Option<Value> {
        Some(match t {
            JType::Prim(Prim::Float | Prim::Double) => return None,
            JType::Prim(Prim::Char) if self.next().is_multiple_of(2) => {
                Value::Char(self.printable())
            }
            JType::Prim(p) => {
                let b = self.bits();
                bits_value(*p, b)
            }
            JType::Class { name, .. } if name == "java.lang.String" => {
                let n = self.next() % 9;
                let units: Vec<u16> = (0..n).map(|_| self.printable()).collect();
                Value::Str(String::from_utf16_lossy(&units))
            }
            JType::Array(e) => match e.as_ref() {
                JType::Prim(p) if !matches!(p, Prim::Float | Prim::Double) => {
                    let n = self.next() % 9;
                    let vals = (0..n).map(|_| bits_value(*p, self.bits())).collect();
                    Value::Array(p.keyword().to_string(), vals)
                }
                _ => return None,
            },
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solved_length_cuts_or_pads_an_array_and_elements_land_in_it() {
        let t = JType::Array(Box::new(JType::Prim(Prim::Byte)));
        let mut v = start_input(&t);
        assert_eq!(v, Value::Array("byte".into(), vec![]));
        set_input(&mut v, &t, Part::Len(0), &Val::Bits(3));
        set_input(&mut v, &t, Part::Elem(0, 1), &Val::Bits(0xfe));
        assert_eq!(
            v,
            Value::Array(
                "byte".into(),
                vec![Value::Byte(0), Value::Byte(-2), Value::Byte(0)]
            )
        );
        // past the bound: cut to it
        set_input(&mut v, &t, Part::Len(0), &Val::Bits(u32::MAX as u64));
        match &v {
            Value::Array(_, e) => assert_eq!(e.len() as u64, trace::MAX_ARRAY),
            other => panic!("{other:?}"),
        }
        // arrays of floating point and of objects stay null
        assert_eq!(
            start_input(&JType::Array(Box::new(JType::Prim(Prim::Double)))),
            Value::Null
        );
    }

    #[test]
    fn random_values_fit_their_types() {
        let mut r = Rng::new(7);
        for _ in 0..200 {
            match r.value(&JType::class("java.lang.String")) {
                Some(Value::Str(s)) => {
                    assert!(s.len() <= 8 && s.chars().all(|c| (' '..='~').contains(&c)))
                }
                other => panic!("{other:?}"),
            }
            assert!(matches!(
                r.value(&JType::Prim(Prim::Short)),
                Some(Value::Short(_))
            ));
            match r.value(&JType::Array(Box::new(JType::Prim(Prim::Int)))) {
                Some(Value::Array(c, e)) => assert!(c == "int" && e.len() <= 8),
                other => panic!("{other:?}"),
            }
        }
        assert_eq!(r.value(&JType::Prim(Prim::Float)), None);
    }
}
