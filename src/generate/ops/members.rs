//! A class's operations: its constructors, methods and fields at an instantiated type,
//! without the members that are noise, excluded by the user, or whose types cannot be made
//! concrete (each skip recorded with its reason).

use super::builder::Builder;
use super::filters::{
    OBJECT_NOISE, is_easy, is_inherited_jdk_behaviour, is_inherited_throwable_noise, is_observer,
    is_static_setter, opens_a_file, qualified_signature,
};
use crate::model::producers;
use crate::model::{ClassInfo, JType, MethodInfo, Nesting};
use crate::sequence::SkipReason;
use crate::sequence::{OpId, OpKind, Operation};

impl<'a> Builder<'a> {
    /// Whether `--include-methods` names `sig` (a user who asks for a member gets it).
    fn named(&self, sig: &str) -> bool {
        self.include.is_some_and(|r| r.is_match(sig))
    }

    fn excluded(&mut self, sig: &str) -> bool {
        if let Some(inc) = self.include
            && !inc.is_match(sig)
        {
            return true;
        }
        if let Some(exc) = self.exclude
            && exc.is_match(sig)
        {
            return true;
        }
        false
    }

    pub(super) fn push(&mut self, op: Operation, cut: bool, class: &str) -> OpId {
        let reach = super::reach::reach_of(self.model, &op);
        let internal = super::reach::is_internal(self.model, &op);
        let id = self.set.table.intern(op);
        if internal {
            if self.set.internal.len() <= id as usize {
                self.set.internal.resize(id as usize + 1, false);
            }
            self.set.internal[id as usize] = true;
        }
        if self.set.owner_class.len() <= id as usize {
            self.set.owner_class.resize(id as usize + 1, None);
        }
        if reach != super::reach::Reach::Anywhere {
            if self.set.reach.len() <= id as usize {
                self.set
                    .reach
                    .resize(id as usize + 1, super::reach::Reach::Anywhere);
            }
            self.set.reach[id as usize] = reach;
        }
        if cut {
            self.set.owner_class[id as usize] = Some(class.to_string());
        }
        id
    }

    /// The operations of class `ci` used at type `ty`: constructors, methods and (for a
    /// class under test, `cut`) fields; a helper class only supplies easy constructors and
    /// mutators.
    pub(super) fn class_ops(&mut self, ci: &ClassInfo, ty: &JType, cut: bool) -> Vec<OpId> {
        let mut out = Vec::new();
        if !self.model.is_accessible(&ci.name) {
            self.set
                .skipped
                .push((ci.name.clone(), SkipReason::ClassNotPublic));
            return out;
        }
        self.constructor_ops(ci, ty, cut, &mut out);
        self.method_ops(&ci.name, ty, cut, &mut out);
        if cut {
            self.field_ops(&ci.name, ty, &mut out);
        }
        out
    }

    /// The constructors of `ci` (an inner class's take the outer instance first).
    fn constructor_ops(&mut self, ci: &ClassInfo, ty: &JType, cut: bool, out: &mut Vec<OpId>) {
        let model = self.model;
        let inner_outer = match &ci.nesting {
            Nesting::Member {
                outer,
                is_static: false,
                ..
            } => Some(outer.clone()),
            _ => None,
        };
        let name = &ci.name;
        let ctors = model.constructors_of(name);
        for m in &ctors {
            let sig = qualified_signature(name, "<init>", m);
            if self.excluded(&sig) {
                continue;
            }
            if !cut
                && (!m.params.iter().all(is_easy)
                    || opens_a_file(name, &m.params)
                    || producers::is_unrepeatable(name, "<init>", &m.params))
            {
                continue;
            }
            if let Some(id) = self.constructor_op(ci, ty, m, &sig, cut, inner_outer.as_deref()) {
                out.push(id);
            }
        }
    }

    /// The operation of constructor `m` of `ci` at type `ty` (`outer`: the enclosing class of
    /// an inner class, whose instance it takes first).
    pub(super) fn constructor_op(
        &mut self,
        ci: &ClassInfo,
        ty: &JType,
        m: &MethodInfo,
        sig: &str,
        cut: bool,
        outer: Option<&str>,
    ) -> Option<OpId> {
        let name = &ci.name;
        let mut params = self.concrete_params(ty, m, sig)?.0;
        if let Some(o) = outer {
            params.insert(0, JType::class(o));
        }
        let overloaded = self
            .model
            .constructors_of(name)
            .iter()
            .filter(|c| c.params.len() == m.params.len())
            .count()
            > 1;
        let op = Operation {
            kind: OpKind::Constructor,
            class: name.clone(),
            name: "<init>".into(),
            descriptor: m.descriptor.clone(),
            owner: ty.clone(),
            params,
            ret: Some(ty.clone()),
            varargs: m.is_varargs(),
            overloaded,
            method_type_args: Vec::new(),
            outer_instance: outer.is_some(),
            stub: None,
        };
        Some(self.push(op, cut, name))
    }

    /// The methods of class `name`, less Object's noise; the observers among them are
    /// recorded for the receiver type `ty` of a class under test.
    fn method_ops(&mut self, name: &str, ty: &JType, cut: bool, out: &mut Vec<OpId>) {
        let model = self.model;
        let methods = model.methods_of(name);
        let is_enum = model.get(name).is_some_and(|c| c.is_enum());
        let mut observers = Vec::new();
        for m in &methods {
            if OBJECT_NOISE.contains(&m.name.as_str())
                || (m.owner == "java.lang.Object" && m.name == "toString")
                || is_inherited_throwable_noise(m)
                || (cut && is_inherited_jdk_behaviour(name, m, is_enum, self.enum_members))
            {
                continue;
            }
            if !cut {
                let mutator = ["add", "put", "offer", "push", "append", "addAll", "putAll"]
                    .contains(&m.name.as_str());
                if !mutator || m.is_static() || !m.params.iter().all(is_easy) {
                    continue;
                }
            }
            let sig = qualified_signature(name, &m.name, m);
            if self.excluded(&sig) {
                continue;
            }
            if is_static_setter(m) && !self.named(&sig) {
                self.set.skipped.push((sig, SkipReason::GlobalState));
                continue;
            }
            let Some((params, ret, targs)) = self.concrete_params(ty, m, &sig) else {
                continue;
            };
            if let Some(r) = &ret
                && !self.type_accessible(r)
            {
                self.set.skipped.push((sig, SkipReason::ReturnsNonPublic));
                continue;
            }
            let overloaded = methods
                .iter()
                .filter(|o| o.name == m.name && o.params.len() == m.params.len())
                .count()
                > 1;
            let is_static = m.is_static();
            let decl_accessible = model.is_accessible(&m.owner);
            let op = Operation {
                kind: if is_static {
                    OpKind::StaticMethod
                } else {
                    OpKind::Method
                },
                class: m.owner.clone(),
                name: m.name.clone(),
                descriptor: m.descriptor.clone(),
                owner: if is_static {
                    JType::class(if decl_accessible { &m.owner } else { name })
                } else {
                    ty.clone()
                },
                params,
                ret: ret.clone(),
                varargs: m.is_varargs(),
                overloaded,
                method_type_args: targs,
                outer_instance: false,
                stub: None,
            };
            let observer = is_observer(m, ret.as_ref());
            let id = self.push(op, cut, name);
            if observer {
                observers.push(id);
            }
            out.push(id);
        }
        if cut {
            observers.extend(self.runtime_to_string(name, ty));
        }
        if cut && !observers.is_empty() {
            self.set
                .observers
                .entry(ty.clone())
                .or_default()
                .extend(observers);
        }
    }

    /// Getters and setters of the fields and enum constants of a class under test (static
    /// primitive constants left out: nothing to test).
    fn field_ops(&mut self, name: &str, ty: &JType, out: &mut Vec<OpId>) {
        let model = self.model;
        for f in model.fields_of(name) {
            let sig = format!("{}.{}", name, f.name);
            if self.excluded(&sig) {
                continue;
            }
            let fty = if f.is_static() {
                Some(f.ty.clone())
            } else {
                model.field_type(ty, f)
            };
            let Some(fty) = fty.filter(|t| t.is_concrete() && self.type_accessible(t)) else {
                self.set
                    .skipped
                    .push((sig, SkipReason::FieldTypeNotConcrete));
                continue;
            };
            if f.is_static() && fty.is_prim() {
                continue; // constants: nothing to test
            }
            let owner = if f.is_static() {
                JType::class(&f.owner)
            } else {
                ty.clone()
            };
            let get = Operation {
                kind: if f.is_static() {
                    OpKind::StaticFieldGet
                } else {
                    OpKind::FieldGet
                },
                class: f.owner.clone(),
                name: f.name.clone(),
                descriptor: f.descriptor.clone(),
                owner: owner.clone(),
                params: Vec::new(),
                ret: Some(fty.clone()),
                varargs: false,
                overloaded: false,
                method_type_args: Vec::new(),
                outer_instance: false,
                stub: None,
            };
            out.push(self.push(get, true, name));
            if f.is_static() && !f.is_final() && !self.named(&sig) {
                self.set.skipped.push((sig, SkipReason::GlobalState));
            } else if !f.is_final() {
                let set = Operation {
                    kind: if f.is_static() {
                        OpKind::StaticFieldSet
                    } else {
                        OpKind::FieldSet
                    },
                    class: f.owner.clone(),
                    name: f.name.clone(),
                    descriptor: f.descriptor.clone(),
                    owner,
                    params: vec![fty],
                    ret: None,
                    varargs: false,
                    overloaded: false,
                    method_type_args: Vec::new(),
                    outer_instance: false,
                    stub: None,
                };
                out.push(self.push(set, true, name));
            }
        }
    }
}
