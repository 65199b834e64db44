//! Anonymous subclasses (`Stub`): values of abstract classes under test and of abstract
//! parameter types nothing else makes, one per super constructor.

use super::builder::Builder;
use crate::model::JType;
use crate::sequence::{OpId, OpKind, Operation, Stub, StubMethod};
use std::sync::Arc;

/// At most this many stubs of a type (one per super constructor, simplest first).
const STUB_CONSTRUCTORS: usize = 2;

/// Anonymous subclasses ([`Stub`]): values of abstract types nothing else makes.
impl Builder<'_> {
    /// Stub operations making values of `ty` (see [`Model::subclassing`]; `package_ok`: the
    /// tests are written in the type's package, as for a class under test), one per super
    /// constructor up to [`STUB_CONSTRUCTORS`]. Their inputs: the super constructor's
    /// arguments, then what each non-void method returns.
    pub(super) fn stub_ops(&mut self, ty: &JType, package_ok: bool, cut: bool) -> Vec<OpId> {
        if !self.stubs {
            return Vec::new();
        }
        let model = self.model;
        let Some(ty) = self.stub_type(ty) else {
            return Vec::new();
        };
        let Some(sc) = model.subclassing(&ty, package_ok) else {
            return Vec::new();
        };
        let methods: Vec<StubMethod> = sc
            .methods
            .iter()
            .map(|(m, params, ret)| StubMethod {
                name: m.name.clone(),
                descriptor: m.descriptor.clone(),
                access: access_word(m.access),
                params: params.clone(),
                ret: ret.clone(),
            })
            .collect();
        let (superclass, interface) = if sc.class.is_interface() {
            ("java.lang.Object".to_string(), Some(sc.class.name.clone()))
        } else {
            (sc.class.name.clone(), None)
        };
        let mut out = Vec::new();
        for (ctor, super_params) in sc.constructors.iter().take(STUB_CONSTRUCTORS) {
            let stub = Stub {
                superclass: superclass.clone(),
                interface: interface.clone(),
                super_descriptor: ctor.map_or_else(|| "()V".to_string(), |c| c.descriptor.clone()),
                super_params: super_params.len(),
                methods: methods.clone(),
            };
            let package = sc.package_access || crate::model::subclass::needs_package(*ctor);
            let mut params = super_params.clone();
            params.extend(methods.iter().filter_map(|m| m.ret.clone()));
            let op = Operation {
                kind: OpKind::Constructor,
                class: crate::stubclass::class_name(&stub, package),
                name: "<init>".into(),
                descriptor: crate::stubclass::constructor_descriptor(&stub),
                owner: ty.clone(),
                params,
                ret: Some(ty.clone()),
                varargs: false,
                overloaded: false,
                method_type_args: Vec::new(),
                outer_instance: false,
                stub: Some(Arc::new(stub)),
            };
            out.push(self.push(op, cut, &sc.class.name));
        }
        out
    }

    /// The type a stub of `need` is made at: its wildcard arguments replaced by their bound
    /// (`Iterable<? extends String>`: `Iterable<String>`), as for a helper class.
    fn stub_type(&self, need: &JType) -> Option<JType> {
        let name = need.class_name()?;
        let ci = self.model.get(name)?;
        self.helper_type(need, name, ci)
    }
}

/// The access keyword of a method overriding one with access flags `a`.
fn access_word(a: u16) -> &'static str {
    use crate::model::access::{PROTECTED, PUBLIC};
    if a & PUBLIC != 0 {
        "public"
    } else if a & PROTECTED != 0 {
        "protected"
    } else {
        ""
    }
}
