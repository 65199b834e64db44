//! The model: loaded classes, the type hierarchy in both directions, inherited members and
//! subtyping with generics.
//!
//! Loading is demand-driven: [`Model::load`] reads the asked class plus its supertypes (and its
//! enclosing classes, which [`Model::is_accessible`] needs), never the whole closure of referenced
//! types, so pointing jforge at one class of a huge library stays cheap. Everything is kept in a
//! `BTreeMap` and every listing is sorted or built in a fixed order, so runs are reproducible.
//!
//! Generic reasoning follows the JLS closely enough for test generation: supertypes are viewed
//! with substituted type arguments ([`Model::as_super`]), wildcard containment is checked for
//! subtyping, raw types erase. Known approximations: type variables are only subtypes of
//! themselves and of `Object` (bounds are not consulted), and a wildcard receiver argument
//! (`List<? extends Number>`) substitutes its bound for the variable in member types instead of a
//! capture variable.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use anyhow::{Context, Result, bail};

use super::classfile::parse_class;
use super::classpath::{ClassPath, JdkClasses};
use super::types::{JType, TypeArg};
use super::{ClassInfo, FieldInfo, MethodInfo, Nesting};

const OBJECT: &str = "java.lang.Object";

/// All loaded classes by binary name.
#[derive(Default)]
pub struct Model {
    classes: BTreeMap<String, ClassInfo>,
    /// Names looked for and found nowhere (not asked for again).
    missing: BTreeSet<String>,
    /// The packages tests are written in ([`Model::set_home_packages`]): there, classes,
    /// constructors, methods and fields of package or protected access are accessible too.
    home: BTreeSet<String>,
}

impl Model {
    pub fn new() -> Model {
        Model::default()
    }

    /// Load class `name` (binary, dots) and, transitively, all its supertypes, from `cp` first,
    /// then from `jdk`. Ok(None) if not found anywhere. Err if a class file is malformed
    /// (message names the class and the entry it came from).
    pub fn load(
        &mut self,
        cp: &ClassPath,
        jdk: &mut dyn JdkClasses,
        name: &str,
    ) -> Result<Option<&ClassInfo>> {
        let mut work = VecDeque::from([name.to_string()]);
        while let Some(n) = work.pop_front() {
            if self.classes.contains_key(&n) || self.missing.contains(&n) {
                continue;
            }
            let (bytes, origin) = match cp.find_with_origin(&n)? {
                Some((b, p)) => (b, p.display().to_string()),
                None => match jdk
                    .class_bytes(&n)
                    .with_context(|| format!("reading JDK class {n}"))?
                {
                    Some(b) => (b, "the JDK".to_string()),
                    None => {
                        self.missing.insert(n);
                        continue;
                    }
                },
            };
            let info = parse_class(&bytes)
                .with_context(|| format!("malformed class file for {n} (from {origin})"))?;
            if info.name != n {
                bail!(
                    "class file for {n} (from {origin}) declares class {}: the file is in the wrong folder or the jar is corrupt",
                    info.name
                );
            }
            work.extend(info.super_class.iter().cloned());
            work.extend(info.interfaces.iter().cloned());
            if let Nesting::Member { outer, .. } = &info.nesting {
                work.push_back(outer.clone());
            }
            self.classes.insert(n, info);
        }
        Ok(self.classes.get(name))
    }

    pub fn get(&self, name: &str) -> Option<&ClassInfo> {
        self.classes.get(name)
    }

    /// All loaded classes, sorted by name.
    pub fn classes(&self) -> impl Iterator<Item = &ClassInfo> {
        self.classes.values()
    }

    /// Public and, for member classes, every enclosing class public; never local/anonymous.
    /// In a home package ([`Model::set_home_packages`]) also of package or protected access
    /// (never private). A member class whose enclosing class is not loaded is treated as
    /// inaccessible.
    pub fn is_accessible(&self, name: &str) -> bool {
        self.accessible_in(name, &self.home)
    }

    /// Why a test cannot name class `name` (`None`: it can, [`Model::is_accessible`]), as the
    /// end of a sentence that starts with the class: not loaded, local or anonymous, private,
    /// of package access outside the home packages, or nested in such a class.
    pub fn why_tests_cannot_name(&self, name: &str) -> Option<&'static str> {
        let Some(c) = self.classes.get(name) else {
            return Some("not found");
        };
        if matches!(c.nesting, Nesting::Local) {
            return Some("is local or anonymous: tests cannot name it");
        }
        if self.is_accessible(name) {
            return None;
        }
        Some(if c.is_private() {
            "is private: tests cannot name it"
        } else if !c.is_public() {
            "is not public and its tests cannot be in its package: jforge tests it through its public API"
        } else {
            "is nested in a class that tests cannot name"
        })
    }

    /// [`Model::is_accessible`] from outside every package: public and every enclosing class
    /// public. What a test of another package can name.
    pub fn is_public_api(&self, name: &str) -> bool {
        self.accessible_in(name, &BTreeSet::new())
    }

    fn accessible_in(&self, name: &str, home: &BTreeSet<String>) -> bool {
        let mut cur = name;
        for _ in 0..64 {
            let Some(c) = self.classes.get(cur) else {
                return false;
            };
            if !c.is_public() && (c.is_private() || !home.contains(c.package())) {
                return false;
            }
            match &c.nesting {
                Nesting::TopLevel => return true,
                Nesting::Local => return false,
                Nesting::Member { outer, .. } => cur = outer,
            }
        }
        false
    }

    /// The packages the tests of a run are written in: there the classes, constructors,
    /// methods and fields of package or protected access of that package are accessible too
    /// ([`Model::is_accessible`], [`Model::methods_of`], [`Model::constructors_of`],
    /// [`Model::fields_of`]). Packages whose tests live elsewhere (`java.*` and the JDK's
    /// others: [`crate::emit::suite::test_package`]) are never home. Empty by default: the
    /// public API only.
    pub fn set_home_packages(&mut self, packages: impl IntoIterator<Item = String>) {
        self.home = packages.into_iter().collect();
    }

    /// The home packages ([`Model::set_home_packages`]).
    pub fn home_packages(&self) -> &BTreeSet<String> {
        &self.home
    }

    /// Whether member `access` flags declared in `owner` make it usable through class `name`:
    /// public, or not private with `owner` and `name` both in one home package (a member of
    /// package access declared in another package is not inherited, and a protected one of
    /// another package is not accessible to a test that is no subclass).
    pub fn member_usable(&self, access: u16, owner: &str, name: &str) -> bool {
        if access & super::access::PUBLIC != 0 {
            return true;
        }
        let package = |n: &str| n.rsplit_once('.').map_or("", |(p, _)| p).to_string();
        access & super::access::PRIVATE == 0
            && package(owner) == package(name)
            && self.home.contains(&package(owner))
    }

    /// Transitive proper supertypes (loaded ones only) in breadth-first order from `name`,
    /// superclass before interfaces at each step, `java.lang.Object` last.
    pub fn supertypes(&self, name: &str) -> Vec<String> {
        let mut seen = BTreeSet::from([name.to_string()]);
        let mut out = Vec::new();
        let mut queue = VecDeque::from([name.to_string()]);
        let mut has_object = false;
        while let Some(n) = queue.pop_front() {
            let Some(c) = self.classes.get(&n) else {
                continue;
            };
            for s in c.super_class.iter().chain(&c.interfaces) {
                if !self.classes.contains_key(s) || !seen.insert(s.clone()) {
                    continue;
                }
                if s == OBJECT {
                    has_object = true;
                } else {
                    out.push(s.clone());
                }
                queue.push_back(s.clone());
            }
        }
        if has_object {
            out.push(OBJECT.to_string());
        }
        out
    }

    /// Transitive proper subtypes among loaded classes, sorted.
    pub fn subtypes(&self, name: &str) -> Vec<String> {
        self.classes
            .keys()
            .filter(|c| c.as_str() != name && self.supertypes(c).iter().any(|s| s == name))
            .cloned()
            .collect()
    }

    /// Public methods (and in a home package, [`Model::set_home_packages`], those of package
    /// or protected access declared in it) callable through class `name`: declared and
    /// inherited, overridden ones removed (class methods beat interface methods, more specific
    /// interfaces beat less specific ones), no bridge/synthetic methods, static interface
    /// methods only of `name` itself. Sorted by name, then descriptor.
    pub fn methods_of(&self, name: &str) -> Vec<&MethodInfo> {
        let Some(c) = self.classes.get(name) else {
            return Vec::new();
        };
        let supers = self.supertypes(name);
        let key = super::subclass::override_key;
        let usable = |m: &&MethodInfo| {
            self.member_usable(m.access, &m.owner, name) && !m.is_synthetic_or_bridge()
        };
        let mut chosen: BTreeMap<(String, String), &MethodInfo> = BTreeMap::new();

        // Classes: `name` (unless an interface) and its superclass chain, nearest first.
        let mut chain = Vec::new();
        if !c.is_interface() {
            let mut cur = Some(name.to_string());
            while let Some(n) = cur {
                let Some(k) = self.classes.get(&n) else { break };
                if chain.len() > 256 {
                    break;
                }
                chain.push(k);
                cur = k.super_class.clone();
            }
        }
        // Keys of bridge methods: a class implementing `Comparable<String>` overrides the erased
        // `compareTo(Object)` through a bridge, so the interface method is not separately callable.
        let mut bridged: BTreeSet<(String, String)> = BTreeSet::new();
        for k in &chain {
            for m in k.methods.iter().filter(usable) {
                chosen.entry(key(m)).or_insert(m);
            }
            for m in k
                .methods
                .iter()
                .filter(|m| m.access & super::access::BRIDGE != 0)
            {
                bridged.insert(key(m));
            }
        }

        // Interfaces: `name` itself if an interface, then its superinterfaces.
        let mut ifaces: Vec<&ClassInfo> = Vec::new();
        if c.is_interface() {
            ifaces.push(c);
        }
        ifaces.extend(
            supers
                .iter()
                .filter_map(|s| self.classes.get(s))
                .filter(|k| k.is_interface()),
        );
        let mut candidates: BTreeMap<(String, String), Vec<&MethodInfo>> = BTreeMap::new();
        for k in &ifaces {
            for m in k.methods.iter().filter(usable) {
                if m.is_static() && m.owner != name {
                    continue;
                }
                let kk = key(m);
                if !chosen.contains_key(&kk) && !bridged.contains(&kk) {
                    candidates.entry(kk).or_default().push(m);
                }
            }
        }
        for (kk, ms) in candidates {
            let mut best = self.most_specific(&ms);
            // Prefer a default (non-abstract) method, then the owner name, for determinism.
            best.sort_by_key(|m| (m.is_abstract(), m.owner.clone()));
            if let Some(m) = best.first() {
                chosen.insert(kk, m);
            }
        }

        // An interface also exposes Object's public methods.
        if c.is_interface()
            && let Some(o) = self.classes.get(OBJECT)
        {
            for m in o.methods.iter().filter(usable) {
                chosen.entry(key(m)).or_insert(m);
            }
        }

        let mut out: Vec<&MethodInfo> = chosen.into_values().collect();
        out.sort_by(|a, b| (&a.name, &a.descriptor).cmp(&(&b.name, &b.descriptor)));
        out
    }

    /// The declarations of one method among `ms` (same name and parameters, of several
    /// interfaces) that no declaration of a subinterface overrides.
    pub(super) fn most_specific<'a>(&self, ms: &[&'a MethodInfo]) -> Vec<&'a MethodInfo> {
        ms.iter()
            .filter(|m| {
                !ms.iter()
                    .any(|o| o.owner != m.owner && self.supertypes(&o.owner).contains(&m.owner))
            })
            .copied()
            .collect()
    }

    /// Public constructors (in a home package also protected and package-access ones); none
    /// for abstract classes and interfaces.
    pub fn constructors_of(&self, name: &str) -> Vec<&MethodInfo> {
        match self.classes.get(name) {
            Some(c) if !c.is_interface() && !c.is_abstract() => c
                .constructors
                .iter()
                .filter(|m| self.member_usable(m.access, name, name) && !m.is_synthetic_or_bridge())
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Public fields declared and inherited (in a home package also those of package or
    /// protected access declared in it); a field hides same-named ones of its supertypes.
    /// Sorted by name.
    pub fn fields_of(&self, name: &str) -> Vec<&FieldInfo> {
        let mut chosen: BTreeMap<&str, &FieldInfo> = BTreeMap::new();
        let mut hidden: BTreeSet<&str> = BTreeSet::new();
        let order = std::iter::once(name.to_string()).chain(self.supertypes(name));
        for n in order {
            let Some(c) = self.classes.get(&n) else {
                continue;
            };
            for f in &c.fields {
                if hidden.contains(f.name.as_str()) {
                    continue;
                }
                // Any declaration (public or not) hides farther ones; only accessible ones
                // are kept.
                if self.member_usable(f.access, &f.owner, name)
                    && f.access & super::access::SYNTHETIC == 0
                {
                    chosen.insert(&f.name, f);
                }
                hidden.insert(&f.name);
            }
        }
        chosen.into_values().collect()
    }

    /// View `ty` as its supertype `target` with type arguments substituted. Raw in, raw out.
    pub fn as_super(&self, ty: &JType, target: &str) -> Option<JType> {
        match ty {
            JType::Class { name, .. } if name == target => Some(ty.clone()),
            JType::Class { .. } => self.as_super_rec(ty, target, 0),
            JType::Array(_) => matches!(
                target,
                OBJECT | "java.lang.Cloneable" | "java.io.Serializable"
            )
            .then(|| JType::class(target)),
            _ => None,
        }
    }

    fn as_super_rec(&self, ty: &JType, target: &str, depth: usize) -> Option<JType> {
        let JType::Class { name, args } = ty else {
            return None;
        };
        if name == target {
            return Some(ty.clone());
        }
        if depth > 64 {
            return None;
        }
        let c = self.classes.get(name)?;
        let raw = args.is_empty() && !c.type_params.is_empty();
        let map: BTreeMap<String, TypeArg> = if raw || args.len() != c.type_params.len() {
            BTreeMap::new()
        } else {
            c.type_params
                .iter()
                .map(|p| p.name.clone())
                .zip(args.iter().cloned())
                .collect()
        };
        for s in c.generic_super.iter().chain(&c.generic_interfaces) {
            let sup = if raw {
                s.erasure()
            } else {
                subst_args(s, &map)
            };
            if let Some(r) = self.as_super_rec(&sup, target, depth + 1) {
                return Some(if raw { r.erasure() } else { r });
            }
        }
        // Interfaces have no generic_super but are subtypes of Object.
        if target == OBJECT {
            Some(JType::object())
        } else {
            None
        }
    }

    /// Java subtyping with generics (no boxing; see module docs for approximations).
    pub fn is_subtype(&self, s: &JType, t: &JType) -> bool {
        if s == t {
            return true;
        }
        match (s, t) {
            (JType::Prim(_), _) | (_, JType::Prim(_)) => false,
            (JType::Array(se), JType::Array(te)) => {
                !se.is_prim() && !te.is_prim() && self.is_subtype(se, te)
            }
            (_, JType::Class { name, args }) if name == OBJECT && args.is_empty() => true,
            (JType::Array(_), JType::Class { name, args }) => {
                args.is_empty()
                    && matches!(
                        name.as_str(),
                        "java.lang.Cloneable" | "java.io.Serializable"
                    )
            }
            (JType::Class { .. }, JType::Class { name, args: targs }) => {
                let Some(sup) = self.as_super(s, name) else {
                    return false;
                };
                if targs.is_empty() {
                    return true;
                }
                let JType::Class { args: sargs, .. } = &sup else {
                    return false;
                };
                sargs.len() == targs.len()
                    && sargs
                        .iter()
                        .zip(targs)
                        .all(|(sa, ta)| self.contains(ta, sa))
            }
            _ => false,
        }
    }

    /// Type-argument containment: does `t` contain `s` (JLS 4.5.1)?
    fn contains(&self, t: &TypeArg, s: &TypeArg) -> bool {
        let object = JType::object();
        match (t, s) {
            (TypeArg::Any, _) => true,
            (TypeArg::Type(tt), TypeArg::Type(st)) => tt == st,
            (TypeArg::Type(_), _) => false,
            (TypeArg::Extends(u), TypeArg::Type(st) | TypeArg::Extends(st)) => {
                self.is_subtype(st, u)
            }
            (TypeArg::Extends(u), TypeArg::Any | TypeArg::Super(_)) => *u == object,
            (TypeArg::Super(l), TypeArg::Type(st) | TypeArg::Super(st)) => self.is_subtype(l, st),
            (TypeArg::Super(_), _) => false,
        }
    }

    /// Parameter and return types of `m` as seen from a receiver of static type `receiver`.
    pub fn member_types(
        &self,
        receiver: &JType,
        m: &MethodInfo,
    ) -> Option<(Vec<JType>, Option<JType>)> {
        let owner = self.classes.get(&m.owner);
        let sup = self.as_super(receiver, &m.owner)?;
        let class_params = owner.map(|o| o.type_params.as_slice()).unwrap_or(&[]);
        let JType::Class { args, .. } = &sup else {
            // Array receiver viewed as Object/Cloneable/Serializable: nothing to substitute.
            return Some((m.params.clone(), m.ret.clone()));
        };
        if m.is_static() {
            return Some((m.params.clone(), m.ret.clone()));
        }
        if args.is_empty() && !class_params.is_empty() {
            // Raw receiver: the erasure of the whole method type.
            let bound = |v: &str| -> JType {
                m.type_params
                    .iter()
                    .chain(class_params)
                    .find(|p| p.name == v)
                    .and_then(|p| p.bounds.first())
                    .map(|b| erase_with(b, &m.type_params, class_params, 0))
                    .unwrap_or_else(JType::object)
            };
            let er = |t: &JType| erase_var_aware(t, &bound);
            return Some((m.params.iter().map(er).collect(), m.ret.as_ref().map(er)));
        }
        let map: BTreeMap<String, TypeArg> = class_params
            .iter()
            .map(|p| p.name.clone())
            .zip(args.iter().cloned())
            // Method type parameters shadow class ones.
            .filter(|(n, _)| !m.type_params.iter().any(|p| &p.name == n))
            .collect();
        Some((
            m.params.iter().map(|t| subst_args(t, &map)).collect(),
            m.ret.as_ref().map(|t| subst_args(t, &map)),
        ))
    }

    /// The type of field `f` as seen from a receiver of static type `receiver`.
    pub fn field_type(&self, receiver: &JType, f: &FieldInfo) -> Option<JType> {
        let sup = self.as_super(receiver, &f.owner)?;
        if f.is_static() {
            return Some(f.ty.clone());
        }
        let class_params = self
            .classes
            .get(&f.owner)
            .map(|o| o.type_params.as_slice())
            .unwrap_or(&[]);
        let JType::Class { args, .. } = &sup else {
            return Some(f.ty.clone());
        };
        if args.is_empty() && !class_params.is_empty() {
            let bound = |v: &str| -> JType {
                class_params
                    .iter()
                    .find(|p| p.name == v)
                    .and_then(|p| p.bounds.first())
                    .map(|b| erase_with(b, &[], class_params, 0))
                    .unwrap_or_else(JType::object)
            };
            return Some(erase_var_aware(&f.ty, &bound));
        }
        let map: BTreeMap<String, TypeArg> = class_params
            .iter()
            .map(|p| p.name.clone())
            .zip(args.iter().cloned())
            .collect();
        Some(subst_args(&f.ty, &map))
    }
}

/// Erasure where a type variable erases to the erasure of its first bound.
fn erase_var_aware(t: &JType, bound: &dyn Fn(&str) -> JType) -> JType {
    match t {
        JType::Var(v) => bound(v),
        JType::Array(e) => JType::Array(Box::new(erase_var_aware(e, bound))),
        other => other.erasure(),
    }
}

/// Erasure of a bound, resolving variables through the given parameter lists (depth-limited for
/// `T extends Comparable<T>`-style recursion, which erases to the class anyway).
fn erase_with(
    t: &JType,
    mparams: &[super::types::TypeParam],
    cparams: &[super::types::TypeParam],
    depth: usize,
) -> JType {
    match t {
        JType::Var(v) if depth < 8 => mparams
            .iter()
            .chain(cparams)
            .find(|p| &p.name == v)
            .and_then(|p| p.bounds.first())
            .map(|b| erase_with(b, mparams, cparams, depth + 1))
            .unwrap_or_else(JType::object),
        JType::Array(e) => JType::Array(Box::new(erase_with(e, mparams, cparams, depth))),
        other => other.erasure(),
    }
}

/// Substitute type variables by type arguments. A variable used directly as a type argument takes
/// the argument as is (wildcards included); elsewhere a wildcard binding becomes its upper bound
/// (`? extends X` -> `X`, `?`/`? super X` -> `Object`).
fn subst_args(t: &JType, map: &BTreeMap<String, TypeArg>) -> JType {
    match t {
        JType::Prim(_) => t.clone(),
        JType::Var(v) => match map.get(v) {
            Some(TypeArg::Type(x) | TypeArg::Extends(x)) => x.clone(),
            Some(TypeArg::Any | TypeArg::Super(_)) => JType::object(),
            None => t.clone(),
        },
        JType::Array(e) => JType::Array(Box::new(subst_args(e, map))),
        JType::Class { name, args } => JType::Class {
            name: name.clone(),
            args: args
                .iter()
                .map(|a| match a {
                    TypeArg::Type(JType::Var(v)) if map.contains_key(v) => map[v].clone(),
                    TypeArg::Type(x) => TypeArg::Type(subst_args(x, map)),
                    TypeArg::Any => TypeArg::Any,
                    TypeArg::Extends(x) => TypeArg::Extends(subst_args(x, map)),
                    TypeArg::Super(x) => TypeArg::Super(subst_args(x, map)),
                })
                .collect(),
        },
    }
}
