//! Where a test can call an operation: anywhere, or only in one package. A test lives in the
//! package of its class under test, so the constructors, methods and fields of package or
//! protected access of that package, and its classes of package access, are callable there
//! (the model admits them in its home packages, `Model::set_home_packages`); a sequence that
//! uses them must be the test of a class of that package, and a sequence that needs two
//! packages can be no test at all.

use crate::model::{JType, Model, TypeArg};
use crate::sequence::{OpKind, Operation};
use std::sync::Arc;

/// Where the test of a sequence can call an operation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Reach {
    /// Public members of public types: any package.
    #[default]
    Anywhere,
    /// A member or a type of package (or protected) access: only a test in this package.
    Package(Arc<str>),
    /// Things of package access of two packages: no test can call it.
    Nowhere,
}

impl Reach {
    /// Both `self` and `other`.
    pub fn and(self, other: Reach) -> Reach {
        match (self, other) {
            (Reach::Anywhere, r) | (r, Reach::Anywhere) => r,
            (Reach::Package(a), Reach::Package(b)) if a == b => Reach::Package(a),
            _ => Reach::Nowhere,
        }
    }
}

/// The package of binary class name `class` (`""` for the default package).
fn package_of(class: &str) -> &str {
    class.rsplit_once('.').map_or("", |(p, _)| p)
}

/// Where `op` can be called: the member's access (declared in `op.class`), a stub's methods of
/// package access, and every class its types name. Only home packages confine: outside them
/// the model admits the public API alone, so whatever is there is callable anywhere.
pub(super) fn reach_of(model: &Model, op: &Operation) -> Reach {
    let home = model.home_packages();
    if home.is_empty() {
        return Reach::Anywhere;
    }
    let confine = |class: &str| {
        let p = package_of(class);
        if home.contains(p) {
            Reach::Package(Arc::from(p))
        } else {
            Reach::Anywhere
        }
    };
    let mut reach = Reach::Anywhere;
    let package_access = match &op.stub {
        None => (!member_is_public(model, op)).then_some(op.class.as_str()),
        Some(stub) => stub
            .methods
            .iter()
            .any(|m| m.access.is_empty())
            .then_some(stub.superclass.as_str()),
    };
    if let Some(class) = package_access {
        reach = reach.and(confine(class));
    }
    let mut names = Vec::new();
    for t in std::iter::once(&op.owner)
        .chain(&op.params)
        .chain(&op.ret)
        .chain(&op.method_type_args)
    {
        class_names(t, &mut names);
    }
    for n in names {
        if model.get(n).is_some() && !model.is_public_api(n) {
            reach = reach.and(confine(n));
        }
    }
    reach
}

/// Whether `op` calls behind its class's public API: a member of package or protected access,
/// or a constructor or static member of a class outside the public API (a stub's methods are
/// jforge's own). Why it matters: such code's preconditions are kept by its callers in the
/// package and stated nowhere (guava's package-private `CompactHashMap` methods, `Cut`'s
/// `assert`s), so a violation a sequence using one causes is no bug report (issue 34: 60
/// error tests on guava collect, all of this kind, once package access was reached).
pub(super) fn is_internal(model: &Model, op: &Operation) -> bool {
    if op.stub.is_some() {
        return false;
    }
    if !member_is_public(model, op) {
        return true;
    }
    let static_like = !matches!(
        op.kind,
        OpKind::Method | OpKind::FieldGet | OpKind::FieldSet
    );
    static_like && model.get(&op.class).is_some() && !model.is_public_api(&op.class)
}

/// Whether the member `op` calls is public (true when it is not found: the model's answer
/// then was public).
fn member_is_public(model: &Model, op: &Operation) -> bool {
    let Some(ci) = model.get(&op.class) else {
        return true;
    };
    let flags = match op.kind {
        OpKind::Constructor => ci
            .constructors
            .iter()
            .find(|m| m.descriptor == op.descriptor)
            .map(|m| m.access),
        OpKind::Method | OpKind::StaticMethod => ci
            .methods
            .iter()
            .find(|m| m.name == op.name && m.descriptor == op.descriptor)
            .map(|m| m.access),
        _ => ci
            .fields
            .iter()
            .find(|f| f.name == op.name)
            .map(|f| f.access),
    };
    flags.is_none_or(|a| a & crate::model::access::PUBLIC != 0)
}

/// The class names in `t`, type arguments and array elements included.
fn class_names<'t>(t: &'t JType, out: &mut Vec<&'t str>) {
    match t {
        JType::Class { name, args } => {
            out.push(name);
            for a in args {
                if let TypeArg::Type(x) | TypeArg::Extends(x) | TypeArg::Super(x) = a {
                    class_names(x, out);
                }
            }
        }
        JType::Array(e) => class_names(e, out),
        JType::Prim(_) | JType::Var(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaches_combine() {
        let p = |s: &str| Reach::Package(Arc::from(s));
        assert_eq!(Reach::Anywhere.and(p("a")), p("a"));
        assert_eq!(p("a").and(Reach::Anywhere), p("a"));
        assert_eq!(p("a").and(p("a")), p("a"));
        assert_eq!(p("a").and(p("b")), Reach::Nowhere);
        assert_eq!(Reach::Nowhere.and(Reach::Anywhere), Reach::Nowhere);
    }
}
