//! The operations of a run (`OpSet`: the table, primary, helper and view operations,
//! observers, instantiations) and why a class or member is left out (`SkipReason`).

use crate::model::JType;
use crate::sequence::{OpId, OpTable};
use std::collections::{BTreeMap, HashMap};

/// The operations of a run.
#[derive(Debug, Default)]
pub struct OpSet {
    pub table: OpTable,
    /// Operations of the classes under test: what generation picks from.
    pub primary: Vec<OpId>,
    /// Operations of helper classes that only supply arguments (picked rarely).
    pub secondary: Vec<OpId>,
    /// Coverage guidance only ([`add_view_ops`](super::add_view_ops)): instance methods of the
    /// interfaces and abstract classes that operations return and nested classes under test
    /// implement (`keySet()` -> `NavigableSet.pollFirst()`, `iterator()` ->
    /// `Iterator.remove()`...).
    pub views: Vec<OpId>,
    /// Observer methods by receiver type (no arguments, primitive or String result).
    pub observers: HashMap<JType, Vec<OpId>>,
    /// For each op id: the class under test it belongs to (`None` for helpers).
    pub owner_class: Vec<Option<String>>,
    /// Concrete type each class under test is used at.
    pub instantiations: BTreeMap<String, JType>,
    /// Members left out, with the reason (for the summary and --stats-json).
    pub skipped: Vec<(String, SkipReason)>,
}

impl OpSet {
    /// The class under test operation `op` belongs to; `None` for helpers and for the view
    /// operations guidance calls on returned objects (`NavigableSet.pollFirst()` after
    /// `keySet()`), whose `owner_class` is the view's interface, not a class under test.
    pub fn class_under_test(&self, op: OpId) -> Option<&str> {
        let class = self.owner_class.get(op as usize)?.as_deref()?;
        self.instantiations.contains_key(class).then_some(class)
    }
}

/// Why a class or member is not tested. Written to `--stats-json` as its text; the warnings
/// at the end of a run count members per reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipReason {
    /// A class found through --package/--jar that tests cannot name.
    ClassNotPublic,
    /// A class found through --package/--jar that could not be read.
    ClassNotFound,
    ClassTypeParams,
    ReturnsNonPublic,
    FieldTypeNotConcrete,
    NotMemberOfInstantiation,
    GenericConstructor,
    MethodTypeParams,
    TypesNotConcrete,
    ParameterizedArray,
    /// `exhaustive`: a parameter type has no domain.
    NoInputValues,
    /// A parameter type that no public constructor, static factory or constant jforge can
    /// call makes (the member is still called, with `null` for it).
    NoProducer,
    /// A static setter or a write to a static field (`DateTimeZone.setDefault(..)`): a test
    /// calling it changes the JVM for every test run after it, in the user's build too.
    GlobalState,
}

impl SkipReason {
    pub fn text(self) -> &'static str {
        match self {
            SkipReason::ClassNotPublic => "class is not public",
            SkipReason::ClassNotFound => "class file not found",
            SkipReason::ClassTypeParams => "type parameters cannot be instantiated",
            SkipReason::ReturnsNonPublic => "returns a type that is not public",
            SkipReason::FieldTypeNotConcrete => "field type cannot be made concrete",
            SkipReason::NotMemberOfInstantiation => "not a member of the instantiated type",
            SkipReason::GenericConstructor => "generic constructor",
            SkipReason::MethodTypeParams => "method type parameters cannot be instantiated",
            SkipReason::TypesNotConcrete => "types cannot be made concrete or are not public",
            SkipReason::ParameterizedArray => "parameterized array parameter",
            SkipReason::NoInputValues => "an input type has no values",
            SkipReason::NoProducer => {
                "a parameter type has no public constructor, static factory or constant to make it (only null is passed)"
            }
            SkipReason::GlobalState => {
                "changes state shared by the whole JVM (name it in --include-methods to test it)"
            }
        }
    }
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

impl serde::Serialize for SkipReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.text())
    }
}
