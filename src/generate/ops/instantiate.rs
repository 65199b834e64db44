//! Type arguments: generic classes instantiated with `String` or `Integer` (the first that
//! satisfies the declared bounds, else a bound or an enum stand-in), method type parameters
//! chosen for each call, and parameter types made concrete and accessible.

use super::builder::Builder;
use crate::model::{ClassInfo, JType, MethodInfo, Model, Nesting, TypeArg, TypeParam};
use crate::sequence::SkipReason;

/// The enum a type parameter bounded by `Enum<E>` gets when no other candidate fits: a JDK
/// enum every JVM has, with a handful of constants (`gen` loads it into the model).
pub const ENUM_STAND_IN: &str = "java.util.concurrent.TimeUnit";

/// The type bound to variable `v`: chosen so far, else by the enclosing scope (`outer`).
fn binding(
    chosen: &[(String, JType)],
    outer: &dyn Fn(&str) -> Option<JType>,
    v: &str,
) -> Option<JType> {
    chosen
        .iter()
        .find(|(n, _)| n == v)
        .map(|(_, t)| t.clone())
        .or_else(|| outer(v))
}

impl<'a> Builder<'a> {
    fn candidates() -> [JType; 2] {
        [JType::string(), JType::class("java.lang.Integer")]
    }

    /// Candidates for a type parameter after `String` and `Integer`: the class the member is
    /// called through (`own`: `Locale.Category` for `<T extends Enum<T>> valueOf(Class<T>, ..)`),
    /// then each bound that is concrete once the parameters chosen so far are put in and
    /// that tests can name (`<A extends Appendable> A formatHex(A, byte[])`: `A = Appendable`).
    fn bound_candidates(
        &self,
        tp: &TypeParam,
        own: Option<&JType>,
        chosen: &[(String, JType)],
        outer: &dyn Fn(&str) -> Option<JType>,
    ) -> Vec<JType> {
        let bounds = tp
            .bounds
            .iter()
            .map(|b| b.subst(&|v| binding(chosen, outer, v)));
        // `E extends Enum<E>` names no concrete bound: an enum stands in (EnumMultiset,
        // Sets.immutableEnumSet, Maps.newEnumMap had no operation at all).
        let enum_bound = tp
            .bounds
            .iter()
            .any(|b| b.class_name() == Some("java.lang.Enum"));
        let stand_in = enum_bound
            .then(|| JType::class(ENUM_STAND_IN))
            .filter(|_| self.model.get(ENUM_STAND_IN).is_some());
        own.cloned()
            .into_iter()
            .chain(bounds)
            .filter(|b| b.is_concrete() && self.type_accessible(b))
            .chain(stand_in)
            .collect()
    }

    /// Choose concrete arguments for type parameters so that every bound holds (`own`: the
    /// class a method is called through, a candidate after `String` and `Integer`).
    fn choose_args(
        &self,
        params: &[TypeParam],
        own: Option<&JType>,
        outer: &dyn Fn(&str) -> Option<JType>,
    ) -> Option<Vec<(String, JType)>> {
        let mut chosen: Vec<(String, JType)> = Vec::new();
        for (i, tp) in params.iter().enumerate() {
            // A binding fixed by the needed type (`producers::unify`) must meet the bounds
            // too: `Range.<Map.Entry<String, Integer>>all()` for a needed `Range<Entry>` did
            // not compile (C extends Comparable).
            if let Some((_, t)) = self.fixed.iter().find(|(n, _)| *n == tp.name) {
                if !self.meets_bounds(tp, t, &chosen, outer) {
                    return None;
                }
                chosen.push((tp.name.clone(), t.clone()));
                continue;
            }
            let cands = Self::candidates();
            let mut order: Vec<JType> = [i % 2, (i + 1) % 2]
                .iter()
                .map(|&k| cands[k].clone())
                .collect();
            order.extend(self.bound_candidates(tp, own, &chosen, outer));
            let picked = order
                .into_iter()
                .find(|cand| self.meets_bounds(tp, cand, &chosen, outer));
            chosen.push((tp.name.clone(), picked?));
        }
        Some(chosen)
    }

    /// Whether `cand` for `tp` meets each of its bounds, with the parameters chosen so far
    /// (and `cand` itself) put in; a bound still not concrete is checked by its erasure.
    fn meets_bounds(
        &self,
        tp: &TypeParam,
        cand: &JType,
        chosen: &[(String, JType)],
        outer: &dyn Fn(&str) -> Option<JType>,
    ) -> bool {
        let mut trial = chosen.to_vec();
        trial.push((tp.name.clone(), cand.clone()));
        let lookup = |v: &str| binding(&trial, outer, v);
        tp.bounds.iter().all(|bound| {
            let b = bound.subst(&lookup);
            let b = if b.is_concrete() { b } else { b.erasure() };
            self.model.is_subtype(cand, &b)
        })
    }

    pub(super) fn instantiate_class(&self, ci: &ClassInfo) -> Option<JType> {
        if ci.type_params.is_empty() {
            return Some(JType::class(&ci.name));
        }
        if let Nesting::Member {
            is_static: false, ..
        } = ci.nesting
        {
            return None; // inner class of a generic outer: not supported
        }
        let args = self.choose_args(&ci.type_params, None, &|_| None)?;
        Some(JType::generic(
            &ci.name,
            args.into_iter().map(|(_, t)| t).collect(),
        ))
    }

    /// Concrete parameter and result types of `m` on a receiver of type `ty`, with method
    /// type parameters instantiated; `None` (and a skip record) when impossible.
    #[allow(clippy::type_complexity)]
    pub(super) fn concrete_params(
        &mut self,
        ty: &JType,
        m: &MethodInfo,
        sig: &str,
    ) -> Option<(Vec<JType>, Option<JType>, Vec<JType>)> {
        let (params, ret) = if m.is_static() || m.is_constructor() {
            // Class type variables cannot appear in static members; in constructors they are
            // the class's own, bound by `ty`. A method's own type parameter shadows a class's
            // of the same name (`MultimapBuilder<K0, V0>.<K0 extends Enum<K0>> enumKeys`):
            // it is left for the method's instantiation below.
            let own = |v: &str| m.type_params.iter().any(|tp| tp.name == v);
            let bind = |v: &str| {
                if own(v) {
                    None
                } else {
                    class_binding(self.model, ty, v)
                }
            };
            (
                m.params.iter().map(|p| p.subst(&bind)).collect::<Vec<_>>(),
                m.ret.as_ref().map(|r| r.subst(&bind)),
            )
        } else {
            match self.model.member_types(ty, m) {
                Some(x) => x,
                None => {
                    self.set
                        .skipped
                        .push((sig.to_string(), SkipReason::NotMemberOfInstantiation));
                    return None;
                }
            }
        };
        let mut targs = Vec::new();
        let (params, ret) = if m.type_params.is_empty() {
            (params, ret)
        } else {
            if m.is_constructor() {
                self.set
                    .skipped
                    .push((sig.to_string(), SkipReason::GenericConstructor));
                return None;
            }
            let Some(chosen) = self.choose_args(&m.type_params, Some(ty), &|v| {
                class_binding(self.model, ty, v)
            }) else {
                self.set
                    .skipped
                    .push((sig.to_string(), SkipReason::MethodTypeParams));
                return None;
            };
            let lookup = |v: &str| chosen.iter().find(|(n, _)| n == v).map(|(_, t)| t.clone());
            targs = chosen.iter().map(|(_, t)| t.clone()).collect();
            (
                params.iter().map(|p| p.subst(&lookup)).collect(),
                ret.map(|r| r.subst(&lookup)),
            )
        };
        let all_concrete = params
            .iter()
            .all(|p| p.is_concrete() && self.type_accessible(p))
            && ret.as_ref().is_none_or(|r| r.is_concrete());
        if !all_concrete {
            self.set
                .skipped
                .push((sig.to_string(), SkipReason::TypesNotConcrete));
            return None;
        }
        // Generic array creation is illegal Java: no parameterized array parameters, but for
        // reifiable ones (`Class<?>[]`: `getMethod(String, Class<?>...)`), which the JMH
        // writer creates as written (`new Class<?>[] {..}`).
        let non_reifiable = |e: &JType| {
            matches!(e, JType::Class { args, .. }
                if args.iter().any(|a| !matches!(a, TypeArg::Any)))
        };
        if params
            .iter()
            .any(|p| matches!(p, JType::Array(e) if non_reifiable(e)))
        {
            self.set
                .skipped
                .push((sig.to_string(), SkipReason::ParameterizedArray));
            return None;
        }
        Some((params, ret, targs))
    }

    pub(super) fn type_accessible(&self, t: &JType) -> bool {
        match t {
            JType::Prim(_) => true,
            JType::Var(_) => false,
            JType::Array(e) => self.type_accessible(e),
            JType::Class { name, args } => {
                self.model
                    .get(name)
                    .is_none_or(|_| self.model.is_accessible(name))
                    && args.iter().all(|a| match a {
                        TypeArg::Type(t) | TypeArg::Extends(t) | TypeArg::Super(t) => {
                            self.type_accessible(t)
                        }
                        TypeArg::Any => true,
                    })
            }
        }
    }
}

/// The type bound to class type variable `v` in the instantiated type `ty`.
fn class_binding(model: &Model, ty: &JType, v: &str) -> Option<JType> {
    let JType::Class { name, args } = ty else {
        return None;
    };
    let ci = model.get(name)?;
    let i = ci.type_params.iter().position(|p| p.name == v)?;
    match args.get(i)? {
        TypeArg::Type(t) => Some(t.clone()),
        _ => None,
    }
}
