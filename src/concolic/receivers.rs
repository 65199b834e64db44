//! Candidate Sequence Search (seed 002, JTestCraft): the call sequences that set up the
//! receiver of an instance method under test. Sequences are built backwards from the method:
//! a call is prepended only if it writes a field that the method, or a call after it, reads
//! (read and write sets from the class files, `instrument::access`, closed transitively over
//! the methods each one calls and over every method of the same name and descriptor in the
//! classes under test, which covers overriders). The first statement makes the receiver (a
//! public constructor or a static factory of the class); the arguments of every call are
//! literals, and the primitive ones are symbolic inputs of the concolic run (`mod.rs`), so a
//! `push(x)` before `top()` gets the `x` that `top`'s branch needs. The seed's dynamic check
//! (a call whose every definition is overwritten before use) runs on the first trace of each
//! sequence (`super::overwritten_before_use`).
//!
//! Why reads and writes of fields and not "any call on the receiver": the seed measured that
//! this pruning is what lets sequences grow from 3-4 to 5-6 calls in the same time; every
//! extra candidate is a whole constraint tree to explore.

use super::{Target, start_value};
use crate::instrument::access::{MemberRef, method_accesses};
use crate::model::JType;
use crate::model::classpath::ClassPath;
use crate::sequence::{OpId, OpKind, OpTable, Operation, Stmt};
use anyhow::{Context, Result};
use std::collections::{BTreeSet, HashMap};

/// A field: owner (internal name) and name.
type Field = (String, String);
/// A method: class (internal name), name and descriptor.
type MethodKey = (String, String, String);

/// The fields each method reads and writes, itself or through the methods it calls.
#[derive(Debug, Default)]
pub struct Effects {
    reads: HashMap<MethodKey, BTreeSet<Field>>,
    writes: HashMap<MethodKey, BTreeSet<Field>>,
    /// Classes each method's own code casts to or tests with `instanceof`.
    casts: HashMap<MethodKey, BTreeSet<String>>,
}

impl Effects {
    /// The read and write sets of every method of `classes` (internal names: the classes
    /// under test and their nested classes), closed over calls between them.
    pub fn load(cp: &ClassPath, classes: &[String]) -> Result<Effects> {
        let mut direct = Vec::new();
        for c in classes {
            let binary = c.replace('/', ".");
            let Some(bytes) = cp.find(&binary)? else {
                continue;
            };
            let (class, methods) = method_accesses(&bytes)
                .with_context(|| format!("reading the field accesses of {binary}"))?;
            for m in methods {
                direct.push(((class.clone(), m.name.clone(), m.descriptor.clone()), m));
            }
        }
        let field = |r: &MemberRef| (r.owner.clone(), r.name.clone());
        let mut e = Effects::default();
        let mut calls: HashMap<MethodKey, Vec<MethodKey>> = HashMap::new();
        for (key, m) in &direct {
            e.reads
                .insert(key.clone(), m.reads.iter().map(field).collect());
            e.writes
                .insert(key.clone(), m.writes.iter().map(field).collect());
            e.casts
                .insert(key.clone(), m.casts.iter().cloned().collect());
            // A call resolves to every method of that name and descriptor here: the one
            // named and its overriders (and, conservatively, unrelated namesakes).
            let callees = m
                .calls
                .iter()
                .flat_map(|c| {
                    direct
                        .iter()
                        .filter(|(k, _)| k.1 == c.name && k.2 == c.descriptor)
                        .map(|(k, _)| k.clone())
                })
                .collect();
            calls.insert(key.clone(), callees);
        }
        e.close(&calls);
        Ok(e)
    }

    /// Adds to each method what its callees read and write, until nothing changes.
    fn close(&mut self, calls: &HashMap<MethodKey, Vec<MethodKey>>) {
        loop {
            let mut changed = false;
            for (m, callees) in calls {
                for c in callees {
                    for sets in [&mut self.reads, &mut self.writes] {
                        let add: Vec<Field> = sets.get(c).into_iter().flatten().cloned().collect();
                        let own = sets.entry(m.clone()).or_default();
                        for f in add {
                            changed |= own.insert(f);
                        }
                    }
                }
            }
            if !changed {
                return;
            }
        }
    }

    fn key(op: &Operation) -> MethodKey {
        (
            op.class.replace('.', "/"),
            op.name.clone(),
            op.descriptor.clone(),
        )
    }

    /// Fields `op` reads, transitively (empty for a method not read from a class file).
    pub fn reads(&self, op: &Operation) -> BTreeSet<Field> {
        self.reads.get(&Self::key(op)).cloned().unwrap_or_default()
    }

    /// Binary names of the classes `op`'s own code casts to or tests with `instanceof`.
    pub fn casts(&self, op: &Operation) -> Vec<String> {
        self.casts
            .get(&Self::key(op))
            .into_iter()
            .flatten()
            .map(|c| c.replace('/', "."))
            .collect()
    }

    /// Fields `op` writes, transitively.
    pub fn writes(&self, op: &Operation) -> BTreeSet<Field> {
        self.writes.get(&Self::key(op)).cloned().unwrap_or_default()
    }
}

/// How far the search goes.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Calls between the receiver's creation and the method under test.
    pub max_calls: usize,
    /// Candidate sequences per method (shortest first).
    pub max_candidates: usize,
}

/// The candidate receiver sequences of instance method `target` (shortest first; for each
/// suffix of calls, each way to make the receiver); empty when nothing makes the receiver.
pub fn candidates(
    table: &OpTable,
    ops: &[OpId],
    effects: &Effects,
    target: OpId,
    limits: Limits,
) -> Vec<Target> {
    let t = table.get(target);
    let makers = makers(table, ops, &t.class);
    if makers.is_empty() {
        return Vec::new();
    }
    let mutators: Vec<(OpId, BTreeSet<Field>)> = ops
        .iter()
        .map(|&id| (id, table.get(id)))
        .filter(|(_, o)| o.kind == OpKind::Method && o.class == t.class)
        .map(|(id, o)| (id, effects.writes(o)))
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let objects = object_params(table, ops, effects, t);
    let mut out = Vec::new();
    for suffix in suffixes(table, effects, &mutators, effects.reads(t), limits) {
        // An object argument of the receiver's class is set up like the receiver (the same
        // calls, their own symbolic literals) or left as made: `equals` gets a stack as
        // long as the receiver and one of another length.
        let mut shapes = vec![suffix.clone()];
        if !suffix.is_empty() && !objects.is_empty() {
            shapes.push(Vec::new());
        }
        for shape in &shapes {
            for &m in &makers {
                if out.len() >= limits.max_candidates {
                    return out;
                }
                out.push(build(table, m, &suffix, target, &objects, shape));
            }
        }
        // and once `null` (a literal), for the branches of an argument that is not one
        if suffix.is_empty() && objects.iter().any(Option::is_some) {
            let none = vec![None; objects.len()];
            out.push(build(table, makers[0], &suffix, target, &none, &[]));
        }
    }
    out
}

/// Whether `t` takes an object argument set up like its receiver (a parameter of its own
/// class, or `Object` cast to it): such methods keep their Candidate Sequence Search
/// sequences under `--receivers states`, which fixes one receiver and symbolic literals only.
pub fn needs_objects(table: &OpTable, ops: &[OpId], effects: &Effects, t: OpId) -> bool {
    object_params(table, ops, effects, table.get(t))
        .iter()
        .any(Option::is_some)
}

/// The methods of `class` among `ops` whose writes meet `reads`: the calls that can change
/// what a method reading `reads` does (Candidate Sequence Search's rule, applied forwards
/// by `states.rs`).
pub fn mutators(
    table: &OpTable,
    ops: &[OpId],
    effects: &Effects,
    class: &str,
    reads: &BTreeSet<Field>,
) -> Vec<OpId> {
    ops.iter()
        .copied()
        .filter(|&id| {
            let o = table.get(id);
            o.kind == OpKind::Method && o.class == class && !effects.writes(o).is_disjoint(reads)
        })
        .collect()
}

/// Per parameter of `t`, the maker of an object argument: for a parameter of a class under
/// test's type, or of type `Object` when the method casts to (or tests `instanceof`) the
/// receiver's class, as seed 002 types `Object` parameters; `None` for the rest (literals).
fn object_params(
    table: &OpTable,
    ops: &[OpId],
    effects: &Effects,
    t: &Operation,
) -> Vec<Option<OpId>> {
    let casts = effects.casts(t);
    t.params
        .iter()
        .map(|p| match p {
            JType::Class { name, .. }
                if *name == t.class || (name == "java.lang.Object" && casts.contains(&t.class)) =>
            {
                makers(table, ops, &t.class).first().copied()
            }
            _ => None,
        })
        .collect()
}

/// The ways to make a receiver of `class`: its public constructors and the static methods
/// of the class that return it, fewest parameters first (at most two, each a candidate).
pub fn makers(table: &OpTable, ops: &[OpId], class: &str) -> Vec<OpId> {
    let mut m: Vec<OpId> = ops
        .iter()
        .copied()
        .filter(|&id| {
            let o = table.get(id);
            o.class == class
                && !o.outer_instance
                && (o.kind == OpKind::Constructor
                    || (o.kind == OpKind::StaticMethod
                        && matches!(&o.ret, Some(JType::Class { name, .. }) if name == class)))
        })
        .collect();
    m.sort_by_key(|&id| {
        (
            table.get(id).params.len(),
            table.get(id).kind != OpKind::Constructor,
        )
    });
    m.truncate(2);
    m
}

/// Call suffixes before the method under test, built backwards: a call is prepended when it
/// writes a field that what follows reads; what it reads is then needed too. Breadth first,
/// so the shortest come first; the empty suffix is the first.
fn suffixes(
    table: &OpTable,
    effects: &Effects,
    mutators: &[(OpId, BTreeSet<Field>)],
    needed: BTreeSet<Field>,
    limits: Limits,
) -> Vec<Vec<OpId>> {
    let mut level: Vec<(Vec<OpId>, BTreeSet<Field>)> = vec![(Vec::new(), needed)];
    let mut out = vec![Vec::new()];
    for _ in 0..limits.max_calls {
        let mut next = Vec::new();
        for (suffix, needed) in &level {
            for (id, writes) in mutators {
                if writes.is_disjoint(needed) {
                    continue;
                }
                let mut s = vec![*id];
                s.extend(suffix);
                let mut n = needed.clone();
                n.extend(effects.reads(table.get(*id)));
                out.push(s.clone());
                next.push((s, n));
                if out.len() >= limits.max_candidates {
                    return out;
                }
            }
        }
        level = next;
    }
    out
}

/// Appends literal statements for `params` and returns their indices.
fn literals(stmts: &mut Vec<Stmt>, params: &[JType]) -> Vec<u32> {
    params
        .iter()
        .map(|t| {
            stmts.push(Stmt::Lit {
                ty: t.clone(),
                value: start_value(t),
            });
            stmts.len() as u32 - 1
        })
        .collect()
}

/// Appends an object made by `maker` and set up by the calls of `suffix` (each with its
/// literals); returns the object's statement.
fn object(stmts: &mut Vec<Stmt>, table: &OpTable, maker: OpId, suffix: &[OpId]) -> u32 {
    let args = literals(stmts, &table.get(maker).params);
    stmts.push(Stmt::Call { op: maker, args });
    let made = stmts.len() as u32 - 1;
    for &op in suffix {
        let mut args = vec![made];
        args.extend(literals(stmts, &table.get(op).params));
        stmts.push(Stmt::Call { op, args });
    }
    made
}

/// The statements before the call: each object argument (made and set up by `shape`), then
/// the receiver (made by `maker`, set up by `suffix`).
fn build(
    table: &OpTable,
    maker: OpId,
    suffix: &[OpId],
    target: OpId,
    objects: &[Option<OpId>],
    shape: &[OpId],
) -> Target {
    let mut stmts = Vec::new();
    // input 0 is the receiver, parameter i is input i + 1
    let mut fixed: Vec<(usize, u32)> = objects
        .iter()
        .enumerate()
        .filter_map(|(i, o)| o.map(|m| (i + 1, object(&mut stmts, table, m, shape))))
        .collect();
    fixed.push((0, object(&mut stmts, table, maker, suffix)));
    Target {
        op: target,
        receiver: stmts,
        fixed,
        pinned: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{overwritten_before_use, trace};

    #[test]
    fn a_prefix_call_whose_every_definition_is_overwritten_before_use_drops_the_sequence() {
        // statement 1 (setA) wrote one field, overwritten by statement 3 before any read;
        // statement 3 wrote one, read later
        let t = trace::parse("D 1 1 1\nD 3 1 0\n").unwrap();
        assert_eq!(t.defs, vec![(1, 1, 1), (3, 1, 0)]);
        assert!(overwritten_before_use(&t, &[1, 3]));
        // the receiver's constructor (statement 0 here) is no prefix call
        assert!(!overwritten_before_use(&t, &[3]));
        // one definition of two overwritten: the call still bears on what follows
        let partly = trace::parse("D 1 2 1\n").unwrap();
        assert!(!overwritten_before_use(&partly, &[1]));
        // a call that wrote nothing is not judged by this rule
        let none = trace::parse("D 1 0 0\n").unwrap();
        assert!(!overwritten_before_use(&none, &[1]));
    }
}
