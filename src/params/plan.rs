//! What one attempt at a method passes: a [`Plan`] (which made value is the receiver, which
//! literal, array or made value each argument is, how many elements a container gets first),
//! the [`Repo`] of values earlier successful calls made, and the step from a plan to the
//! [`Sequence`] the workers run.
//!
//! Why plans and not sequences: a handler changes one decision (this index lower, that
//! receiver filled, another implementation) and the sequence is rebuilt; two handlers that
//! propose the same plan are one attempt (plans hash).

use super::values::{self, is_integral, nth_literal};
use crate::generate::ops::is_literal_type;
use crate::model::{JType, Model, Prim};
use crate::sequence::{OpId, OpKind, OpTable, Operation, SeqRef, Sequence, Stmt, Value};
use std::collections::HashMap;
use std::sync::Arc;

/// Elements a container receives before it is used: never empty (seed 000: "positive length").
pub const FILL: u8 = 3;
/// Elements of an array argument.
pub const ARRAY_LEN: usize = 3;

/// Producer ids from here up are seeded values (`seeded_repo`), not operations of the table.
pub const SEEDED: u32 = u32::MAX - 1000;

/// Producer ids of values jforge derived from made values (`Repo::derived`) count down
/// from here: below [`SEEDED`], past any operation table.
const RESPELLED: u32 = SEEDED - 1;

/// A value that a successful call made: a receiver or an argument for later calls.
#[derive(Clone, Debug)]
pub struct Made {
    /// Ends with the statement whose value this is.
    pub seq: SeqRef,
    /// Its static type (the producer's result type).
    pub ty: JType,
    /// Its class at run time (a factory's declared `List` is an `ImmutableCollections$ListN`).
    pub class: Arc<str>,
    /// `size()` or `length()` right after it was made, when the type has one.
    pub size: Option<i64>,
    pub producer: OpId,
}

/// The values made so far, at most one per producer (the first call of it that worked).
#[derive(Default)]
pub struct Repo {
    pub made: Vec<Made>,
    fits: HashMap<JType, Vec<usize>>,
    /// Values derived so far (`derived`).
    derived: u32,
}

impl Repo {
    pub fn add(&mut self, m: Made) {
        if self.made.iter().all(|x| x.producer != m.producer) {
            self.made.push(m);
            self.fits.clear();
        }
    }

    /// Made value `idx` made again with `token` for every String literal of its sequence:
    /// its index, added once per (value, token); `None` when its sequence holds no String.
    pub fn respelled(&mut self, idx: usize, token: &str) -> Option<usize> {
        let base = &self.made[idx];
        let mut seq = (*base.seq).clone();
        let mut changed = false;
        for s in &mut seq.stmts {
            if let Stmt::Lit {
                value: v @ Value::Str(_),
                ..
            } = s
            {
                *v = Value::Str(token.to_string());
                changed = true;
            }
        }
        if !changed {
            return None;
        }
        let (ty, class) = (base.ty.clone(), base.class.clone());
        Some(self.derived(seq, ty, class))
    }

    /// A value made from other made values by jforge, not by a method of the search
    /// (`respelled`, `Search::element_of_collection`): its index, added once per sequence.
    pub fn derived(&mut self, seq: Sequence, ty: JType, class: Arc<str>) -> usize {
        if let Some(i) = self.made.iter().position(|m| *m.seq == seq) {
            return i;
        }
        let producer = RESPELLED - self.derived;
        self.derived += 1;
        self.made.push(Made {
            seq: Arc::new(seq),
            ty,
            class,
            size: None,
            producer,
        });
        self.fits.clear();
        self.made.len() - 1
    }

    /// The made values that fit where `need` is expected, best first: not known to be empty,
    /// then made without a lambda, then seeded (the temporary directory is the `File`, not a
    /// `new File("abc")` a method could write to), then from the shorter sequence (the simplest producer),
    /// then the earliest. Why lambdas last: a lambda's answers are defaults, not behaviour
    /// (`new Scanner(Readable)` on a lambda that reads 0 characters makes `next()` wait
    /// forever, where `new Scanner(String)` answers).
    pub fn fits(&mut self, model: &Model, need: &JType) -> &[usize] {
        let made = &self.made;
        self.fits.entry(need.clone()).or_insert_with(|| {
            let mut v: Vec<usize> = (0..made.len())
                .filter(|&i| model.is_subtype(&made[i].ty, need))
                .collect();
            v.sort_by_key(|&i| {
                let m = &made[i];
                let seeded = m.producer >= SEEDED;
                (
                    m.size == Some(0),
                    m.seq.has_lambda(),
                    !seeded,
                    m.seq.len(),
                    i,
                )
            });
            v
        })
    }
}

/// One argument of an attempt.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Arg {
    /// A literal of this static type.
    Lit(JType, Value),
    /// Made value `idx` of the [`Repo`], first given `fill` elements by a relative operation.
    Made { idx: usize, fill: u8 },
    /// `new elem[] { items }`.
    Array { elem: JType, items: Vec<Arg> },
    /// A typed `null`: only when nothing makes the type.
    Null(JType),
}

impl Arg {
    /// The container length this argument is known to have (arrays, Strings, filled or
    /// measured made values).
    pub fn length(&self, repo: &Repo) -> Option<i64> {
        match self {
            Arg::Lit(_, Value::Str(s)) => Some(s.encode_utf16().count() as i64),
            Arg::Array { items, .. } => Some(items.len() as i64),
            Arg::Made { idx, fill } => repo.made[*idx].size.map(|s| s + *fill as i64),
            _ => None,
        }
    }
}

/// The receiver and arguments of one attempt.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Plan {
    /// Made value and elements added first; `None` for constructors and static methods.
    pub receiver: Option<(usize, u8)>,
    pub args: Vec<Arg>,
}

impl Plan {
    /// R of seed 000's index rule: the smallest positive length of a container argument, else
    /// the receiver's length.
    pub fn container_length(&self, repo: &Repo) -> Option<i64> {
        let args = self
            .args
            .iter()
            .filter_map(|a| a.length(repo))
            .filter(|&l| l > 0)
            .min();
        args.or_else(|| {
            let (idx, fill) = self.receiver?;
            repo.made[idx].size.map(|s| s + fill as i64)
        })
    }

    /// The length of the first String argument (0 without one).
    pub fn container_length_of_strings(&self) -> i64 {
        self.args
            .iter()
            .find_map(|a| match a {
                Arg::Lit(_, Value::Str(s)) => Some(s.encode_utf16().count() as i64),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// Positions of integral literal arguments (the index candidates).
    pub fn int_positions(&self) -> Vec<usize> {
        (0..self.args.len())
            .filter(|&i| matches!(&self.args[i], Arg::Lit(t, _) if is_integral(t)))
            .collect()
    }
}

/// Whether a value of `t` has a length an index refers to: arrays, Strings and other
/// character sequences, collections, maps, buffers, and any class with a public `size()` or
/// `length()` (a user's container).
pub fn is_container(model: &Model, t: &JType) -> bool {
    match t {
        JType::Array(_) => true,
        JType::Class { name, .. } => {
            let known = [
                "java.lang.CharSequence",
                "java.util.Collection",
                "java.util.Map",
                "java.nio.Buffer",
                "java.util.BitSet",
            ]
            .iter()
            .any(|c| name == c || model.supertypes(name).iter().any(|s| s == c));
            known
                || model.methods_of(name).iter().any(|m| {
                    matches!(m.name.as_str(), "size" | "length")
                        && m.params.is_empty()
                        && m.is_public()
                        && !m.is_static()
                })
        }
        _ => false,
    }
}

/// Relative operations (seed 000): what gives a container its elements, by preference.
const RELATIVE: &[&str] = &[
    "add",
    "push",
    "offer",
    "addElement",
    "addLast",
    "put",
    "append",
    "offerLast",
    "addAll",
];

/// The operations a plan needs besides the target: relative operations and length observers,
/// looked up (or interned) once per type.
#[derive(Default)]
pub struct Kit {
    relative: HashMap<JType, Option<OpId>>,
    length: HashMap<JType, Option<OpId>>,
}

impl Kit {
    /// The operation that adds one element to a value of `ty` (`add(E)`, `push(E)`,
    /// `put(K,V)`), among the run's operations: the first name of [`RELATIVE`], then the
    /// fewest parameters, all of literal types.
    pub fn relative(&mut self, model: &Model, table: &OpTable, ty: &JType) -> Option<OpId> {
        *self.relative.entry(ty.clone()).or_insert_with(|| {
            table
                .iter()
                .filter(|(_, op)| {
                    op.kind == OpKind::Method
                        && RELATIVE.contains(&op.name.as_str())
                        && !op.params.is_empty()
                        && op.params.iter().all(is_literal_type)
                        && model.is_subtype(ty, &op.owner)
                })
                .min_by_key(|(id, op)| {
                    let rank = RELATIVE.iter().position(|n| *n == op.name);
                    (rank, op.params.len(), *id)
                })
                .map(|(id, _)| id)
        })
    }

    /// `size()` or `length()` of `ty` (a public no-argument int method), interned into
    /// `table` as an observer.
    pub fn length(&mut self, model: &Model, table: &mut OpTable, ty: &JType) -> Option<OpId> {
        if let Some(&known) = self.length.get(ty) {
            return known;
        }
        let found = ty.class_name().and_then(|name| {
            let m = model.methods_of(name).into_iter().find(|m| {
                matches!(m.name.as_str(), "size" | "length")
                    && m.params.is_empty()
                    && !m.is_static()
                    && m.is_public()
                    && m.ret == Some(JType::Prim(Prim::Int))
                    && model.is_accessible(&m.owner)
            })?;
            Some(table.intern(Operation::instance_call(
                &m.owner,
                &m.name,
                &m.descriptor,
                ty,
                m.ret.clone(),
            )))
        });
        self.length.insert(ty.clone(), found);
        found
    }
}

/// Turns plans into sequences.
pub struct Build<'a> {
    pub model: &'a Model,
    pub table: &'a OpTable,
    pub repo: &'a Repo,
    pub kit: &'a mut Kit,
}

impl Build<'_> {
    /// The sequence of `plan` ending with the call of `op`.
    pub fn sequence(&mut self, op: OpId, plan: &Plan) -> Sequence {
        let mut seq = Sequence::default();
        let mut inputs = Vec::new();
        if let Some((idx, fill)) = plan.receiver {
            inputs.push(self.made(&mut seq, idx, fill));
        }
        for a in &plan.args {
            inputs.push(self.arg(&mut seq, a));
        }
        seq.stmts.push(Stmt::Call { op, args: inputs });
        seq
    }

    fn arg(&mut self, seq: &mut Sequence, a: &Arg) -> u32 {
        match a {
            Arg::Lit(ty, v) => push(seq, lit(ty, v)),
            Arg::Null(ty) => push(seq, lit(ty, &Value::Null)),
            Arg::Made { idx, fill } => self.made(seq, *idx, *fill),
            Arg::Array { elem, items } => {
                let elems = items.iter().map(|i| self.arg(seq, i)).collect();
                push(
                    seq,
                    Stmt::Array {
                        elem: elem.clone(),
                        elems,
                    },
                )
            }
        }
    }

    /// Appends made value `idx`, then `fill` calls of its relative operation.
    fn made(&mut self, seq: &mut Sequence, idx: usize, fill: u8) -> u32 {
        let m = &self.repo.made[idx];
        let off = seq.append(&m.seq);
        let at = off + m.seq.len() as u32 - 1;
        let rel = (fill > 0)
            .then(|| self.kit.relative(self.model, self.table, &m.ty))
            .flatten();
        if let Some(rel) = rel {
            let params = self.table.get(rel).params.clone();
            for k in 0..fill as usize {
                let mut args = vec![at];
                for (j, p) in params.iter().enumerate() {
                    // distinct elements (a set keeps them all), keys and values apart
                    let v = nth_literal(p, k * params.len() + j);
                    args.push(push(seq, lit(p, &v)));
                }
                seq.stmts.push(Stmt::Call { op: rel, args });
            }
        }
        at
    }
}

fn push(seq: &mut Sequence, s: Stmt) -> u32 {
    seq.stmts.push(s);
    seq.stmts.len() as u32 - 1
}

/// The literal for `t` (`Object` and other non-literal types get a String: seed 000 prefers
/// a Comparable for them).
pub fn literal_arg(t: &JType, index: bool, constants: &[i64]) -> Arg {
    let v = values::first_literal(t, index, constants);
    if is_literal_type(t) {
        Arg::Lit(t.clone(), v)
    } else {
        Arg::Lit(JType::string(), v)
    }
}

/// A literal statement.
fn lit(ty: &JType, v: &Value) -> Stmt {
    Stmt::Lit {
        ty: ty.clone(),
        value: v.clone(),
    }
}
