//! Which abstract classes (and interfaces with several abstract methods) a test can subclass
//! anonymously, and the abstract methods such a subclass must implement, as seen through a
//! parameterized type (`ForwardingList<String>` implements `List<String> delegate()`).
//!
//! Why in the model: like a functional interface (`functional.rs`), whether `new X() { ... }`
//! compiles is a fact of the declarations (access of the class, its constructors and its
//! abstract methods, inherited ones included); the generators and the writers must get the
//! same answer, from the class files, never from a list of names.

use super::{ClassInfo, JType, MethodInfo, Model, Nesting, TypeArg, access};
use std::collections::{BTreeMap, BTreeSet};

/// How an anonymous subclass of a type is made: the super constructors it may call and the
/// methods it implements.
#[derive(Clone, Debug)]
pub struct Subclassing<'a> {
    /// The class extended or the interface implemented.
    pub class: &'a ClassInfo,
    /// Constructors a subclass may call, each with its parameter types seen from the type;
    /// one constructor without parameters (`Object()`) for an interface.
    pub constructors: Vec<(Option<&'a MethodInfo>, Vec<JType>)>,
    /// The abstract methods to implement, with their parameter and return types seen from
    /// the type, sorted by name and descriptor.
    pub methods: Vec<(&'a MethodInfo, Vec<JType>, Option<JType>)>,
    /// A method to implement has package access: the subclass must live in the class's
    /// package (at run time, and in source: only a test of that package can write it). So
    /// must one calling a constructor of package access ([`needs_package`]).
    pub package_access: bool,
}

/// Key of a method for overriding: name and erased parameter list.
pub(super) fn override_key(m: &MethodInfo) -> (String, String) {
    let params = m
        .descriptor
        .split_once(')')
        .map(|(p, _)| p)
        .unwrap_or(&m.descriptor);
    (m.name.clone(), params.to_string())
}

/// Whether a subclass calling constructor `c` (`None`: `Object()`) must be in its class's
/// package.
pub fn needs_package(c: Option<&MethodInfo>) -> bool {
    c.is_some_and(|c| has_package_access(c.access))
}

/// Neither public, protected nor private.
fn has_package_access(a: u16) -> bool {
    a & (access::PUBLIC | access::PROTECTED | access::PRIVATE) == 0
}

impl Model {
    /// How a test subclasses `ty` anonymously, when it can: a public top-level or static
    /// member class, not final, abstract or without a public constructor (a protected one:
    /// `new ResourceBundle.Control() {}`), or an interface that is no functional interface
    /// (those get lambdas) and no annotation; at least one constructor a subclass may call
    /// (public, protected, or package access when `package_ok`: the test is in the class's
    /// package); every abstract method, inherited ones included, not generic itself, with
    /// types a test can name, and of package access only in the class's own package (and
    /// then only when `package_ok`). `None` otherwise.
    pub fn subclassing(&self, ty: &JType, package_ok: bool) -> Option<Subclassing<'_>> {
        let JType::Class { name, .. } = ty else {
            return None;
        };
        let ci = self.get(name)?;
        let shape_ok = self.is_accessible(name)
            && ci.access & (access::FINAL | access::ANNOTATION | access::ENUM) == 0
            && !matches!(
                ci.nesting,
                Nesting::Member {
                    is_static: false,
                    ..
                }
            )
            && (ci.is_abstract() || ci.is_interface() || self.constructors_of(name).is_empty())
            && ty.is_concrete()
            && (!ci.is_interface() || self.function_type(ty).is_none());
        if !shape_ok {
            return None;
        }
        let mut package_access = false;
        let mut methods = Vec::new();
        for m in self.abstract_methods(name)? {
            if has_package_access(m.access) {
                let owner_package = m.owner.rsplit_once('.').map_or("", |(p, _)| p);
                if !package_ok || owner_package != ci.package() {
                    return None;
                }
                package_access = true;
            }
            if !m.type_params.is_empty() {
                return None;
            }
            let (params, ret) = self.member_types(ty, m)?;
            if !params.iter().chain(&ret).all(|t| self.nameable(t)) {
                return None;
            }
            methods.push((m, params, ret));
        }
        let constructors = self.super_constructors(ci, ty, package_ok);
        if constructors.is_empty() {
            return None;
        }
        Some(Subclassing {
            class: ci,
            constructors,
            methods,
            package_access,
        })
    }

    /// The constructors of `ci` a subclass may call, with their types seen from `ty`.
    fn super_constructors<'a>(
        &'a self,
        ci: &'a ClassInfo,
        ty: &JType,
        package_ok: bool,
    ) -> Vec<(Option<&'a MethodInfo>, Vec<JType>)> {
        if ci.is_interface() {
            return vec![(None, Vec::new())];
        }
        let mut out = Vec::new();
        for c in &ci.constructors {
            let usable = c.access & access::PRIVATE == 0
                && !c.is_synthetic_or_bridge()
                && c.type_params.is_empty()
                && (package_ok || !has_package_access(c.access));
            let Some((params, _)) = usable.then(|| self.member_types(ty, c)).flatten() else {
                continue;
            };
            if params.iter().all(|t| self.nameable(t) && t.is_concrete()) {
                out.push((Some(c), params));
            }
        }
        // Simplest first: fewest parameters, then the descriptor.
        out.sort_by_key(|(c, p)| (p.len(), c.map(|c| c.descriptor.clone())));
        out
    }

    /// The abstract instance methods of `name` that a concrete subclass must implement:
    /// declared or inherited, not implemented by a class of its superclass chain nor by a
    /// default method. `None` when the chain is not fully loaded.
    fn abstract_methods(&self, name: &str) -> Option<Vec<&MethodInfo>> {
        let ci = self.get(name)?;
        let mut chain = Vec::new();
        let mut cur = if ci.is_interface() {
            Some("java.lang.Object".to_string())
        } else {
            Some(name.to_string())
        };
        while let Some(n) = cur {
            let k = self.get(&n)?;
            chain.push(k);
            cur = k.super_class.clone();
            if chain.len() > 256 {
                return None;
            }
        }
        let instance = |m: &&MethodInfo| !m.is_static() && m.access & access::PRIVATE == 0;
        let mut implemented = BTreeSet::new();
        let mut need: BTreeMap<(String, String), &MethodInfo> = BTreeMap::new();
        for k in &chain {
            for m in k.methods.iter().filter(instance) {
                let kk = override_key(m);
                if implemented.contains(&kk) || need.contains_key(&kk) {
                    continue;
                }
                if m.is_abstract() {
                    need.insert(kk, m);
                } else {
                    implemented.insert(kk);
                }
            }
        }
        let mut ifaces: Vec<&ClassInfo> = Vec::new();
        if ci.is_interface() {
            ifaces.push(ci);
        }
        ifaces.extend(
            self.supertypes(name)
                .iter()
                .filter_map(|s| self.get(s))
                .filter(|k| k.is_interface()),
        );
        // Per key, the interface declarations no subinterface redeclares: implemented when
        // one of them is a default method (`ConcurrentMap.replace` re-abstracts `Map`'s).
        let mut decls: BTreeMap<(String, String), Vec<&MethodInfo>> = BTreeMap::new();
        for m in ifaces
            .iter()
            .flat_map(|k| k.methods.iter().filter(instance))
        {
            decls.entry(override_key(m)).or_default().push(m);
        }
        for (kk, ms) in decls {
            if implemented.contains(&kk) || need.contains_key(&kk) {
                continue;
            }
            let specific = self.most_specific(&ms);
            if let Some(m) = specific
                .first()
                .filter(|_| specific.iter().all(|m| m.is_abstract()))
            {
                need.insert(kk, m);
            }
        }
        Some(need.into_values().collect())
    }

    /// A type a test can write: primitives, and classes that are accessible, with
    /// nameable arguments; arrays of those. Type variables are not (the caller resolved
    /// them already).
    fn nameable(&self, t: &JType) -> bool {
        match t {
            JType::Prim(_) => true,
            JType::Var(_) => false,
            JType::Array(e) => self.nameable(e),
            JType::Class { name, args } => {
                self.is_accessible(name)
                    && args.iter().all(|a| match a {
                        TypeArg::Type(x) | TypeArg::Extends(x) | TypeArg::Super(x) => {
                            self.nameable(x)
                        }
                        TypeArg::Any => true,
                    })
            }
        }
    }
}
