//! Functional interfaces (JLS 9.8) found from the class files: an interface with exactly one
//! abstract method besides the public methods of `Object`, and its function type as seen
//! through a parameterized type (`Consumer<? super String>` takes a `String`).
//!
//! Why in the model: whether a lambda can stand where a type is expected is a fact of the
//! declarations, like subtyping; the generators (`gen`, `params`) and the writers need the
//! same answer, and it must come from the class, not from a list of known names.

use super::{JType, Model, TypeArg, access};

/// The one abstract method of a functional interface, as seen through a parameterized type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionType {
    /// Binary name of the interface.
    pub interface: String,
    /// The method's name (`accept`, `apply`, `compare`).
    pub method: String,
    /// Parameter types after substitution (no wildcards at the top level).
    pub params: Vec<JType>,
    /// Return type after substitution; `None` for `void`.
    pub ret: Option<JType>,
}

impl Model {
    /// The function type of `ty` when it is a public functional interface that is not an
    /// annotation: one abstract instance method (not generic, not one of `Object`'s public
    /// methods such as `Comparator.equals`), every other method default or static.
    /// Wildcard arguments are replaced by their bound first (JLS 9.9's ground type):
    /// `Function<? super String, ? extends Integer>` is seen as `Function<String, Integer>`.
    pub fn function_type(&self, ty: &JType) -> Option<FunctionType> {
        let JType::Class { name, args } = ty else {
            return None;
        };
        let ci = self.get(name)?;
        if !ci.is_interface() || ci.access & access::ANNOTATION != 0 || !self.is_accessible(name) {
            return None;
        }
        let mut abstract_methods = self.methods_of(name).into_iter().filter(|m| {
            m.is_abstract() && !m.is_static() && !is_object_method(&m.name, &m.descriptor)
        });
        let m = abstract_methods.next()?;
        if abstract_methods.next().is_some() || !m.type_params.is_empty() {
            return None;
        }
        let ground = JType::Class {
            name: name.clone(),
            args: args
                .iter()
                .zip(
                    ci.type_params
                        .iter()
                        .map(Some)
                        .chain(std::iter::repeat(None)),
                )
                .map(|(a, p)| TypeArg::Type(ground_arg(a, p.and_then(|p| p.bounds.first()))))
                .collect(),
        };
        let (params, ret) = self.member_types(&ground, m)?;
        Some(FunctionType {
            interface: name.clone(),
            method: m.name.clone(),
            params,
            ret,
        })
    }
}

/// A type argument without its wildcard: `? extends X` and `? super X` become `X`, `?` the
/// type parameter's first bound (`Object` when it has none or the bound mentions variables).
fn ground_arg(a: &TypeArg, bound: Option<&JType>) -> JType {
    match a {
        TypeArg::Type(x) | TypeArg::Extends(x) | TypeArg::Super(x) => x.clone(),
        TypeArg::Any => bound
            .filter(|b| {
                let mut vars = Vec::new();
                b.vars(&mut vars);
                vars.is_empty()
            })
            .cloned()
            .unwrap_or_else(JType::object),
    }
}

/// `equals(Object)`, `hashCode()`, `toString()`: an interface may redeclare them abstract
/// (`Comparator.equals`) without them counting (JLS 9.8).
fn is_object_method(name: &str, descriptor: &str) -> bool {
    matches!(
        (name, descriptor),
        ("equals", "(Ljava/lang/Object;)Z")
            | ("hashCode", "()I")
            | ("toString", "()Ljava/lang/String;")
    )
}
