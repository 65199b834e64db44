//! What the usable operations can build at all, decided on types before the search runs:
//! which classes are produced (a fixpoint from the operations whose inputs are all literals),
//! the builder classes added when a class under test is reachable only through another class
//! (`ServerConfig.builder(String)` returns a `ServerConfig.Builder` whose `build()` returns the
//! `ServerConfig`), and, for a search that built nothing, why.
//!
//! Why on types: the search only ever combines kept structures, so an operation one of whose
//! parameter types no operation produces is never called; naming that type is the answer a
//! user needs ("no producer for ..."), and it costs nothing to compute.

use super::Settings;
use super::search::{ParamDom, Usable};
use crate::generate::ops::{OpSet, SkipReason, build_ops, is_literal_type};
use crate::model::{JType, Model};
use crate::sequence::OpKind;
use std::collections::BTreeSet;

/// The classes (erased names) the usable operations produce, starting from those whose
/// inputs are all literals.
pub fn produced(model: &Model, ops: &OpSet, usable: &[Usable]) -> BTreeSet<String> {
    let mut produced: BTreeSet<String> = BTreeSet::new();
    loop {
        let before = produced.len();
        for u in usable {
            if !u.canon_result || !inputs_produced(model, u, &produced) {
                continue;
            }
            if let Some(c) = result_class(ops, u) {
                produced.insert(c);
            }
        }
        if produced.len() == before {
            return produced;
        }
    }
}

/// Every structure input of `u` has a produced class that fits it.
fn inputs_produced(model: &Model, u: &Usable, produced: &BTreeSet<String>) -> bool {
    u.params.iter().all(|p| match p {
        ParamDom::Lits(_) => true,
        ParamDom::Refs(t) => fits_any(model, t, produced),
    })
}

/// Some class of `produced` can be passed where `t` is expected.
fn fits_any(model: &Model, t: &JType, produced: &BTreeSet<String>) -> bool {
    let erased = t.erasure();
    produced.iter().any(|c| {
        erased.class_name() == Some(c.as_str())
            || erased.class_name() == Some("java.lang.Object")
            || model.is_subtype(&JType::class(c), &erased)
    })
}

/// The class of the structure `u` builds: a constructor's class, else its return type.
fn result_class(ops: &OpSet, u: &Usable) -> Option<String> {
    let op = ops.table.get(u.op);
    if op.kind == OpKind::Constructor {
        return Some(op.class.clone());
    }
    op.ret
        .as_ref()
        .and_then(|r| r.erasure().class_name().map(str::to_string))
}

/// Most operations a creator chain may take besides its creator (a factory, the builder's
/// `build()`: one; a factory of a factory's argument: two).
const MAX_CHAIN: usize = 3;

/// The creator chain of usable operation `creator` (one whose inputs are all literals): the
/// fewest usable operations, `creator` first, that together produce a class under test
/// (decided on types, as [`produced`]): `[creator]` when it builds one itself,
/// `[ServerConfig.builder(String), ServerConfig.Builder.build()]` for a class behind a
/// builder. Each added operation takes only what the chain produces and produces a class it
/// did not; breadth-first, in the order of `usable` (deterministic). `None` when no chain of
/// at most [`MAX_CHAIN`] more operations among `allowed` reaches a class under test.
pub fn creator_chain(
    model: &Model,
    ops: &OpSet,
    usable: &[Usable],
    creator: usize,
    allowed: &[usize],
    classes: &[String],
) -> Option<Vec<usize>> {
    let produces = |chain: &[usize]| {
        let sub: Vec<Usable> = chain.iter().map(|&i| usable[i].clone()).collect();
        produced(model, ops, &sub)
    };
    let mut level: Vec<Vec<usize>> = vec![vec![creator]];
    for _ in 0..=MAX_CHAIN {
        let mut next = Vec::new();
        for chain in &level {
            let have = produces(chain);
            if classes.iter().any(|c| have.contains(c)) {
                return Some(chain.clone());
            }
            for &i in allowed {
                let u = &usable[i];
                let new_class = result_class(ops, u).is_some_and(|c| !have.contains(&c));
                if !chain.contains(&i)
                    && u.canon_result
                    && new_class
                    && u.params.iter().any(|p| matches!(p, ParamDom::Refs(_)))
                    && inputs_produced(model, u, &have)
                {
                    let mut longer = chain.clone();
                    longer.push(i);
                    next.push(longer);
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        level = next;
    }
    None
}

/// Classes under test that no usable operation can build.
pub fn unreachable(
    model: &Model,
    ops: &OpSet,
    usable: &[Usable],
    classes: &[String],
) -> Vec<String> {
    let produced = produced(model, ops, usable);
    classes
        .iter()
        .filter(|c| !produced.contains(c.as_str()))
        .cloned()
        .collect()
}

/// The operations of the classes under test, their skipped members and the usable ones; when
/// a class under test cannot be built from them (a private constructor behind a builder:
/// `ServerConfig.builder(String)` returns a `ServerConfig.Builder`), the builder classes its
/// signatures name are added ([`builder_classes`]), so that it is built that way. The one
/// entry point of `jforge exhaustive` and `jforge builders`, so that both see the same API.
pub fn ops_with_builder_classes(
    model: &Model,
    classes: &[String],
    settings: &Settings,
) -> (OpSet, Vec<(String, SkipReason)>, Vec<Usable>) {
    let ops = build_ops(model, classes, None, None);
    let mut skipped = exhaustive_skips(&ops);
    let usable = super::usable_ops(&ops, classes, settings, &mut skipped);
    if unreachable(model, &ops, &usable, classes).is_empty() {
        return (ops, skipped, usable);
    }
    let helpers = builder_classes(model, &ops, classes);
    if helpers.is_empty() {
        return (ops, skipped, usable);
    }
    let all: Vec<String> = classes.iter().chain(&helpers).cloned().collect();
    let ops = build_ops(model, &all, None, None);
    let mut skipped = exhaustive_skips(&ops);
    let usable = super::usable_ops(&ops, classes, settings, &mut skipped);
    (ops, skipped, usable)
}

/// The members build_ops skipped, less gen's `NoProducer` (members that only get null):
/// exhaustive takes reference inputs from the structures it builds and reports those members
/// itself (`NoInputValues`).
fn exhaustive_skips(ops: &OpSet) -> Vec<(String, SkipReason)> {
    ops.skipped
        .iter()
        .filter(|(_, r)| *r != SkipReason::NoProducer)
        .cloned()
        .collect()
}

/// Builder classes: the classes the members of the classes under test name in their
/// signatures (parameters and results) that are not under test, are concrete and public,
/// and are not the JDK's (a JDK class's internals would multiply the structures, and the
/// search would explore `ArrayList` instead of the class under test). One level only: the
/// classes those classes name are not added.
pub fn builder_classes(model: &Model, ops: &OpSet, classes: &[String]) -> Vec<String> {
    let mut out: BTreeSet<String> = BTreeSet::new();
    for &id in &ops.primary {
        let op = ops.table.get(id);
        for t in op.params.iter().chain(op.ret.iter()) {
            let erased = t.erasure();
            let Some(name) = erased.class_name() else {
                continue;
            };
            if is_literal_type(&erased) || classes.iter().any(|c| c == name) || is_jdk(name) {
                continue;
            }
            let Some(ci) = model.get(name) else { continue };
            if ci.is_interface() || ci.is_abstract() || ci.is_enum() || !model.is_accessible(name) {
                continue;
            }
            out.insert(name.to_string());
        }
    }
    out.into_iter().collect()
}

fn is_jdk(name: &str) -> bool {
    ["java.", "javax.", "jdk.", "sun.", "com.sun."]
        .iter()
        .any(|p| name.starts_with(p))
}

/// Whether an operation of builder class `helper` can help build something: a constructor,
/// a static factory returning the helper or a class under test, or an instance method that
/// returns nothing, the helper itself (a fluent setter) or a class of `classes` (the
/// helpers and the classes under test: `build()`). Getters and other methods cannot build a
/// structure and are left out, which bounds what the helper adds to the search.
pub fn builds(op: &crate::sequence::Operation, classes: &[String]) -> bool {
    let returns_built = || {
        op.ret
            .as_ref()
            .and_then(|r| r.erasure().class_name().map(str::to_string))
            .is_some_and(|r| classes.contains(&r))
    };
    match op.kind {
        OpKind::Constructor => true,
        OpKind::StaticMethod => returns_built(),
        OpKind::Method => op.ret.is_none() || returns_built(),
        _ => false,
    }
}

/// Why the usable operations build no structure of the classes under test, one reason per
/// line: operations whose structure inputs have no producer (the type named), for a search
/// that ran but built nothing.
pub fn missing_producers(model: &Model, ops: &OpSet, usable: &[Usable]) -> Vec<String> {
    let produced = produced(model, ops, usable);
    let mut lines = Vec::new();
    for u in usable {
        let missing: Vec<String> = u
            .params
            .iter()
            .filter_map(|p| match p {
                ParamDom::Refs(t) if !fits_any(model, t, &produced) => Some(t.source()),
                _ => None,
            })
            .collect();
        if !missing.is_empty() {
            lines.push(format!(
                "{}: no operation produces {}",
                ops.table.get(u.op).signature(),
                missing.join(", ")
            ));
        }
    }
    lines
}

/// Lines of [`why_nothing`] of one kind shown at most.
const MAX_LINES: usize = 8;

/// Why a search that ran built no structure of the classes under test, one reason per line:
/// the operations whose every call threw an expected exception (with the first message),
/// those whose structure inputs nothing produces (the missing type named; a class under test
/// that could not be built is a consequence, not named again), structures beyond the scope,
/// and forms the worker could not compute.
pub fn why_nothing(search: &super::search::Search) -> Vec<String> {
    let ops = search.ops;
    let mut why: Vec<String> = search
        .expected
        .iter()
        .take(MAX_LINES)
        .map(|((op, class), (n, message))| {
            format!(
                "{} threw {class} {n} time{}{}: expected behaviour for the inputs of the \
                 domains (an invalid argument or state), so it built nothing; widen the domains \
                 (--ints, --strings, ...)",
                ops.table.get(*op).signature(),
                if *n == 1 { "" } else { "s" },
                message
                    .as_ref()
                    .map(|m| format!(" (first: \"{m}\")"))
                    .unwrap_or_default()
            )
        })
        .collect();
    let built: Vec<&String> = ops.instantiations.keys().collect();
    why.extend(
        missing_producers(search.model, ops, &search.usable)
            .into_iter()
            .filter(|l| !built.iter().any(|c| l.ends_with(&format!("produces {c}"))))
            .take(MAX_LINES),
    );
    if search.out_of_scope > 0 {
        why.push(format!(
            "{} sequences built structures beyond the scope: raise --scope (or --max-array)",
            search.out_of_scope
        ));
    }
    for (e, n) in &search.canon_errors {
        why.push(format!(
            "the canonical form could not be computed {n} times: {e}"
        ));
    }
    if why.is_empty() {
        why.push("no operation ran normally (see the failures)".into());
    }
    why
}
