//! Configurers of argument objects (`model::producers::configurers`): the fluent and setter
//! methods of the library types the classes under test take as arguments, as helper
//! operations, so that an argument is not only ever the producer's plain value
//! (`CSVFormat.DEFAULT.withHeader("a", "b")`, an `Options` holding a required `Option`);
//! and a `StringBuilder` where a `CharSequence` is taken, not only Strings.

use super::builder::Builder;
use super::filters::{is_overloaded, opens_a_file, qualified_signature};
use super::producers::element_type;
use crate::model::JType;
use crate::model::producers::{self, configurers};
use crate::sequence::{OpId, OpKind, Operation};
use std::collections::BTreeSet;

impl Builder<'_> {
    /// Adds the configurers of the argument types (`param_types`) that are library classes
    /// not under test, then, for the types those configurers take (an `Option` for
    /// `Options.addOption(Option)`), producers and configurers in turn, as deep as the
    /// producer graph goes ([`producers::MAX_DEPTH`]). Only `gen` asks for them
    /// (`build_ops_with_stubs` without `all`); `exhaustive` and `builders` keep their search
    /// spaces of the code's own members, and `params` calls each method once.
    pub(super) fn configurer_ops(&mut self, param_types: &BTreeSet<JType>) {
        let mut done: BTreeSet<JType> = BTreeSet::new();
        let mut wanted: BTreeSet<JType> = param_types.clone();
        for _ in 1..producers::MAX_DEPTH {
            let mut next: BTreeSet<JType> = BTreeSet::new();
            for ty in wanted {
                let ty = element_type(&ty);
                if !done.insert(ty.clone()) {
                    continue;
                }
                for id in self.configurers_of(&ty) {
                    if !self.set.secondary.contains(&id) {
                        self.set.secondary.push(id);
                    }
                    next.extend(self.set.table.get(id).params.iter().cloned());
                }
            }
            if next.is_empty() {
                return;
            }
            self.producer_ops(&next);
            wanted = next;
        }
    }

    /// The operations of the configurers of `ty` (a class type, not under test, that a test
    /// can name).
    fn configurers_of(&mut self, ty: &JType) -> Vec<OpId> {
        let model = self.model;
        let Some(name) = ty.class_name().map(str::to_string) else {
            return Vec::new();
        };
        if self.set.instantiations.contains_key(&name) || !model.is_accessible(&name) {
            return Vec::new();
        }
        let Some(ci) = model.get(&name) else {
            return Vec::new();
        };
        let Some(recv) = self.helper_type(ty, &name, ci) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for m in configurers(model, &name) {
            let sig = qualified_signature(&name, &m.name, m);
            if self.excluded_helper(&sig) || opens_a_file(&name, &m.params) {
                continue;
            }
            let skips = self.set.skipped.len();
            let found = self.concrete_params(&recv, m, &sig);
            // a configurer that cannot be made concrete is not the user's member: no skip
            self.set.skipped.truncate(skips);
            let Some((params, ret, targs)) = found else {
                continue;
            };
            if ret.as_ref().is_some_and(|r| !self.type_accessible(r)) {
                continue;
            }
            let overloaded = is_overloaded(model, &name, m);
            let op = Operation {
                kind: OpKind::Method,
                class: m.owner.clone(),
                name: m.name.clone(),
                descriptor: m.descriptor.clone(),
                owner: recv.clone(),
                params,
                ret,
                varargs: m.is_varargs(),
                overloaded,
                method_type_args: targs,
                outer_instance: false,
                stub: None,
            };
            out.push(self.push(op, false, &name));
        }
        out
    }

    /// `new StringBuilder(String)` where a parameter is a `CharSequence`
    /// ([`OpSet::char_sequence_op`](super::OpSet)): otherwise only
    /// Strings are passed there (the producer graph sees the type made by String literals),
    /// and code that treats another `CharSequence` differently is never run. Commons Lang's
    /// `LookupTranslator` keyed its map by the sequences themselves, so a `StringBuilder` key
    /// never matched (Defects4J Lang-4); `CharSequenceUtils.regionMatches` has a branch for
    /// what is not a String.
    pub(super) fn char_sequence_ops(&mut self, param_types: &BTreeSet<JType>) {
        let wanted = param_types
            .iter()
            .any(|t| element_type(t).class_name() == Some("java.lang.CharSequence"));
        if !wanted {
            return;
        }
        let builder = "java.lang.StringBuilder";
        let Some(ci) = self.model.get(builder) else {
            return;
        };
        let ty = JType::class(builder);
        let from_string = self
            .model
            .constructors_of(builder)
            .into_iter()
            .find(|m| m.params == [JType::string()]);
        let sig = format!("{builder}(java.lang.String)");
        if let Some(m) = from_string
            && !self.excluded_helper(&sig)
        {
            self.set.char_sequence_op = self.constructor_op(ci, &ty, m, &sig, false, None);
        }
    }
}
