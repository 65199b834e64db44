//! The operations of a run (`OpSet`: the table, primary, helper and view operations,
//! observers, instantiations); why a class or member is left out is `sequence::SkipReason`.

use crate::model::JType;
use crate::sequence::{OpId, OpTable, SkipReason};
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
