//! The producer graph's operations (`model::producers`): the simplest constructors,
//! factories and constants that make the parameter types nothing else makes, levels deep, and
//! the members left with only `null` for such a type.

use super::builder::Builder;
use super::filters::{is_overloaded, is_setter_name, opens_a_file, qualified_signature};
use super::values::{class_literal, is_literal_type, lambda_literal};
use crate::model::producers::{self, ProducerKind};
use crate::model::{JType, MethodInfo};
use crate::sequence::SkipReason;
use crate::sequence::{OpId, OpKind, Operation};
use std::collections::{BTreeSet, HashSet, VecDeque};

/// At most this many calls (constructors, factories) per type the producer graph supplies,
/// simplest first, and this many constants (all of a small enum's).
const PRODUCER_CALLS: usize = 6;

const PRODUCER_CONSTANTS: usize = 12;

/// The producer graph's operations (`model::producers`): values for parameter types that
/// neither the classes under test nor the collection helpers make.
impl Builder<'_> {
    /// Adds, as helper operations, the simplest producers of every parameter type nothing
    /// else makes, and of their parameter types in turn, [`producers::MAX_DEPTH`] levels
    /// deep (a `LocalDate` from `LocalDate.of(int, Month, int)` and `Month`'s constants).
    /// Skips recorded while trying producers are not the user's members: dropped.
    pub(super) fn producer_ops(&mut self, param_types: &BTreeSet<JType>) {
        let skips_before = self.set.skipped.len();
        self.made_from_scratch = self.types_made_from_scratch();
        let mut queue: VecDeque<(JType, usize)> =
            param_types.iter().map(|p| (element_type(p), 1)).collect();
        let mut seen = BTreeSet::new();
        while let Some((need, depth)) = queue.pop_front() {
            if !seen.insert(need.clone()) || !self.needs_producer(&need) {
                continue;
            }
            let mut made = self.producers_for(&need);
            if made.is_empty() && self.package_stubs {
                made = self.stub_ops(&need, false, false);
            }
            for id in made {
                self.set.secondary.push(id);
                let op = self.set.table.get(id);
                let from_scratch = op
                    .input_types()
                    .iter()
                    .all(|t| self.input_from_scratch(t, &self.made_from_scratch));
                if let Some(r) = op.ret.clone().filter(|_| from_scratch) {
                    self.made_from_scratch.push(r);
                }
                if depth < producers::MAX_DEPTH {
                    for p in &self.set.table.get(id).params {
                        queue.push_back((element_type(p), depth + 1));
                    }
                }
            }
        }
        self.set.skipped.truncate(skips_before);
    }

    /// A reference type that no operation makes yet (not a literal, not Object, not a class
    /// under test).
    fn needs_producer(&self, need: &JType) -> bool {
        let Some(name) = need.class_name() else {
            return false;
        };
        !(is_literal_type(need)
            || name == "java.lang.Object"
            || self.set.instantiations.contains_key(name)
            || self.produced(need))
    }

    /// Whether a lambda or a class literal stands for `need` where no operation makes one.
    /// Not part of [`Self::needs_producer`]: the graph's values come first (an `ArrayList`
    /// for an `Iterable` iterates; a lambda's `iterator()` returns null).
    fn literal_fits(&self, need: &JType) -> bool {
        lambda_literal(self.model, need).is_some() || class_literal(self.model, need).is_some()
    }

    /// Whether the operations of the classes under test and of the collection helpers make a
    /// value that can be passed where `need` is expected, from scratch (see
    /// [`Self::types_made_from_scratch`]).
    pub(super) fn produced(&self, need: &JType) -> bool {
        self.made_from_scratch
            .iter()
            .any(|t| self.model.is_subtype(t, need))
    }

    /// The result types of the operations (so far: those of the classes under test and the
    /// collection helpers) that can run from scratch: every input is a literal, a lambda or
    /// class literal, an array, or the result of another such operation; a fixpoint. An
    /// operation whose inputs need `need` first makes none: `Base64.Decoder.wrap(InputStream)`
    /// needs an `InputStream` (in `--package java.util` it hid the producer graph's
    /// `InputStream.nullInputStream()`), and `Booking.total()` returns a `BigDecimal` but
    /// needs a `Booking`, whose constructor needs a `BigDecimal` (the run had no amount at
    /// all, every Booking call got `null` and threw: 0 of 14 methods covered).
    fn types_made_from_scratch(&self) -> Vec<JType> {
        let ops: Vec<&Operation> = self
            .set
            .primary
            .iter()
            .chain(&self.set.secondary)
            .map(|&id| self.set.table.get(id))
            .collect();
        // The generator passes a String literal where a CharSequence or Comparable is
        // expected, an Integer where a Number is (`RandomGenerator::pick_value`).
        let mut made: Vec<JType> = vec![JType::string(), JType::class("java.lang.Integer")];
        let mut ready: HashSet<JType> = HashSet::new();
        let mut done = vec![false; ops.len()];
        loop {
            let mut grew = false;
            for (i, op) in ops.iter().enumerate() {
                if done[i] {
                    continue;
                }
                let runs = op.input_types().iter().all(|t| {
                    ready.contains(t) || {
                        let ok = self.input_from_scratch(t, &made);
                        if ok {
                            ready.insert(t.clone());
                        }
                        ok
                    }
                });
                if !runs {
                    continue;
                }
                done[i] = true;
                if let Some(r) = op.ret.as_ref().filter(|r| !made.contains(r)) {
                    made.push(r.clone());
                    grew = true;
                }
            }
            if !grew {
                return made;
            }
        }
    }

    /// Whether a value for input type `t` exists without any operation, or from one in
    /// `made`.
    fn input_from_scratch(&self, t: &JType, made: &[JType]) -> bool {
        is_literal_type(t)
            || matches!(t, JType::Array(_))
            || *t == JType::object()
            || self.literal_fits(t)
            || made.iter().any(|m| self.model.is_subtype(m, t))
    }

    /// Operations for the simplest producers of `need` ([`PRODUCER_CALLS`] calls and
    /// [`PRODUCER_CONSTANTS`] constants at most).
    fn producers_for(&mut self, need: &JType) -> Vec<OpId> {
        let model = self.model;
        let Some(name) = need.class_name() else {
            return Vec::new();
        };
        let mut out: Vec<OpId> = Vec::new();
        let (mut calls, mut constants) = (0, 0);
        for p in producers::producers(model, name) {
            let (count, limit) = match p.kind {
                ProducerKind::Constant => (&mut constants, PRODUCER_CONSTANTS),
                _ => (&mut calls, PRODUCER_CALLS),
            };
            if *count >= limit {
                continue;
            }
            let id = match (p.method, p.field) {
                (_, Some(f)) => self.constant_op(f, need),
                (Some(m), _) if p.kind == ProducerKind::Constructor => {
                    self.producer_constructor_op(&p.class, m, need)
                }
                (Some(m), _) => self.factory_op(&p.class, m, need),
                _ => None,
            };
            if let Some(id) = id.filter(|id| !out.contains(id)) {
                out.push(id);
                *count += 1;
            }
        }
        out
    }

    /// `ZoneOffset.UTC`, `RoundingMode.HALF_UP`: a static final field read.
    fn constant_op(&mut self, f: &crate::model::FieldInfo, need: &JType) -> Option<OpId> {
        let ok = f.ty.is_concrete()
            && self.type_accessible(&f.ty)
            && self.model.is_subtype(&f.ty, need)
            && !self.excluded_helper(&format!("{}.{}", f.owner, f.name));
        if !ok {
            return None;
        }
        let op = Operation {
            kind: OpKind::StaticFieldGet,
            class: f.owner.clone(),
            name: f.name.clone(),
            descriptor: f.descriptor.clone(),
            owner: JType::class(&f.owner),
            params: Vec::new(),
            ret: Some(f.ty.clone()),
            varargs: false,
            overloaded: false,
            method_type_args: Vec::new(),
            outer_instance: false,
            stub: None,
        };
        Some(self.push(op, false, &f.owner))
    }

    /// A constructor of `class` (the needed type or an implementation of it).
    fn producer_constructor_op(
        &mut self,
        class: &str,
        m: &MethodInfo,
        need: &JType,
    ) -> Option<OpId> {
        let ci = self.model.get(class)?;
        let sig = qualified_signature(class, "<init>", m);
        if opens_a_file(class, &m.params) || self.excluded_helper(&sig) {
            return None;
        }
        let ty = self.helper_type(need, class, ci)?;
        if !self.model.is_subtype(&ty, need) {
            return None;
        }
        self.constructor_op(ci, &ty, m, &sig, false, None)
    }

    /// A static factory declared in `class` whose result, with its type variables bound to
    /// fit, can be passed where `need` is expected.
    fn factory_op(&mut self, class: &str, m: &MethodInfo, need: &JType) -> Option<OpId> {
        let sig = qualified_signature(class, &m.name, m);
        if self.excluded_helper(&sig) || is_setter_name(&m.name) {
            return None;
        }
        let mut fixed = Vec::new();
        if !producers::unify(self.model, m.ret.as_ref()?, need, &mut fixed) {
            return None;
        }
        self.fixed = fixed;
        let found = self.concrete_params(&JType::class(class), m, &sig);
        self.fixed.clear();
        let (params, ret, targs) = found?;
        if !ret.as_ref().is_some_and(|r| self.model.is_subtype(r, need)) {
            return None;
        }
        let overloaded = is_overloaded(self.model, class, m);
        let op = Operation {
            kind: OpKind::StaticMethod,
            class: m.owner.clone(),
            name: m.name.clone(),
            descriptor: m.descriptor.clone(),
            owner: JType::class(class),
            params,
            ret,
            varargs: m.is_varargs(),
            overloaded,
            method_type_args: targs,
            outer_instance: false,
            stub: None,
        };
        Some(self.push(op, false, class))
    }

    /// `--exclude-methods` applies to helpers too (`--include-methods` chooses among the
    /// members under test only: naming `Booking.*` must not starve Booking of arguments).
    pub(super) fn excluded_helper(&self, sig: &str) -> bool {
        self.exclude.is_some_and(|r| r.is_match(sig))
    }

    /// Records, for every member under test, a parameter type that no operation makes and no
    /// literal supplies: the member cannot be called with a value of it (only with `null`).
    pub(super) fn unproduced_skips(&mut self) {
        let mut missing = Vec::new();
        for &id in &self.set.primary {
            let op = self.set.table.get(id);
            // `params` follow the receiver; an inner class's outer instance comes first.
            let outer = usize::from(op.outer_instance);
            let unmade = op
                .params
                .iter()
                .skip(outer)
                .map(element_type)
                .find(|p| self.needs_producer(p) && !self.literal_fits(p));
            if let Some(ty) = unmade {
                missing.push((op.signature(), ty));
            }
        }
        for (member, ty) in missing {
            let entry = format!("{member}: no value for {}", ty.source());
            self.set.skipped.push((entry, SkipReason::NoProducer));
        }
    }
}

/// The element type of an array type, else the type.
pub(super) fn element_type(t: &JType) -> JType {
    match t {
        JType::Array(e) => element_type(e),
        _ => t.clone(),
    }
}
