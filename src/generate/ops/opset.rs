//! The operations of a run (`OpSet`: the table, primary, helper and view operations,
//! observers, instantiations); why a class or member is left out is `sequence::SkipReason`.

use super::reach::Reach;
use crate::model::JType;
use crate::sequence::{OpId, OpTable, Sequence, SkipReason, Stmt};
use std::collections::{BTreeMap, HashMap};

/// The parameter types that take a sink: what a call writes into an argument of one of
/// these types is its result (see [`OpSet::sinks`]).
pub const SINK_TYPES: [&str; 3] = [
    "java.lang.Appendable",
    "java.io.Writer",
    "java.io.OutputStream",
];

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
    /// For each op id: where a test can call it (see [`Reach`]); empty, or shorter than the
    /// table, where every operation is callable anywhere (the model's home packages empty).
    pub reach: Vec<Reach>,
    /// For each op id: whether it calls behind its class's public API (see
    /// `reach::is_internal`); shorter than the table where the rest are not.
    pub internal: Vec<bool>,
    /// `--test-package`: the package of every test, when given (else each test is in its class
    /// under test's package, see [`crate::emit::suite::test_package`]).
    pub test_package: Option<String>,
    /// The fields each method reads and writes (`instrument::fields`), for the methods of
    /// the classes under test and the observers; filled by the command before generation,
    /// empty when it does not (the observers are then taken in name order).
    pub field_use: HashMap<OpId, crate::instrument::fields::FieldUse>,
    /// Per operation, the types its code tests an argument against (`instanceof`)
    /// that are proper subtypes of one of its parameters' (`gen::run::cast_hints`): some of
    /// that parameter's values are picked among them. Empty when the command does not fill it.
    pub casts: HashMap<OpId, Vec<JType>>,
    /// Helper types that are text or byte sinks (`Appendable`, `Writer`, `OutputStream`:
    /// `StringBuilder`, `StringWriter`, `ByteArrayOutputStream`...) with observers: a value
    /// of one passed to the last call of a test is observed after it, since what the call
    /// wrote into it is its result (`translate(input, 0, writer)`, `printer.print(..)`).
    pub sinks: std::collections::HashSet<JType>,
    /// `new StringBuilder(String)` when a parameter is a `CharSequence` (`gen` only): some
    /// `CharSequence` arguments are a String wrapped in it (`RandomGenerator::pick_value`).
    /// Not a helper operation: as one it changed which helpers were picked, and Guava's
    /// `Splitter` lost 4 branches of the coverage corpus.
    pub char_sequence_op: Option<OpId>,
    /// The observers [`OpSet::add_reading_observers`] added (by what they do, not by name):
    /// asserted like the others, but a value only they tell apart does not make a lean
    /// suite keep one more test on the same path (`finish::final_value`).
    pub reading_observers: std::collections::HashSet<OpId>,
    /// The operations this set was built with, in the order it built them, when its table
    /// holds others too ([`OpSet::rebased`]: one class's set in a table the classes of a
    /// `gen --per-class` run share); `None`: the whole table. What a generator prepares per
    /// operation (types, probes) it prepares for these, as a run of the class alone would.
    pub own: Option<Vec<OpId>>,
}

impl OpSet {
    /// The ids of [`OpSet::own`]'s operations, else of the whole table, in order.
    pub fn own_ids(&self) -> Vec<OpId> {
        match &self.own {
            Some(v) => v.clone(),
            None => (0..self.table.len() as OpId).collect(),
        }
    }
}

impl OpSet {
    /// Adds as observers the methods of the classes under test that take no argument, give a
    /// result a test can assert, and by their bytecode read fields of the object and write
    /// none (`field_use`, filled first): getters by what they do, beside those by name
    /// (`getX`, `isX`, `size`). Why: a call's effect often shows only through such a method
    /// (Commons Codec's `Base64.encode(in, 0, -1)` through `avail()`, a real fault's only
    /// symptom; issue 34 item 4). A method that writes a field, directly or through its own
    /// class's helpers, is no observer: asserting it would change what it asserts.
    pub fn add_reading_observers(&mut self) {
        for &op in &self.primary {
            let o = self.table.get(op);
            let reads_only = self
                .field_use
                .get(&op)
                .is_some_and(|u| !u.reads.is_empty() && u.writes.is_empty());
            if o.kind != crate::sequence::OpKind::Method
                || !o.params.is_empty()
                || !o
                    .ret
                    .as_ref()
                    .is_some_and(super::filters::is_observable_type)
                || super::filters::OBJECT_NOISE.contains(&o.name.as_str())
                || o.name == "toString"
                || !reads_only
            {
                continue;
            }
            let list = self.observers.entry(o.owner.clone()).or_default();
            if !list.contains(&op) {
                list.push(op);
                self.reading_observers.insert(op);
            }
        }
    }

    /// Interns every operation of this set into `table` (a run's shared table) and returns
    /// where each went: `map[old id]` is its id in `table`. With [`OpSet::rebased`], a set
    /// built for one class alone is expressed in the ids of a table many classes share
    /// (`gen --per-class`, one session for all classes).
    pub fn intern_into(&self, table: &mut OpTable) -> Vec<OpId> {
        self.table
            .iter()
            .map(|(_, op)| table.intern(op.clone()))
            .collect()
    }

    /// This set in the ids of `table`, which holds every one of its operations at
    /// `map[old id]` ([`OpSet::intern_into`]): the same operations, roles, observers and
    /// facts, only numbered as `table` numbers them.
    pub fn rebased(self, table: OpTable, map: &[OpId]) -> OpSet {
        let m = |o: OpId| map[o as usize];
        let ms = |v: Vec<OpId>| v.into_iter().map(m).collect::<Vec<_>>();
        let n = table.len();
        OpSet {
            table,
            primary: ms(self.primary),
            secondary: ms(self.secondary),
            views: ms(self.views),
            observers: self
                .observers
                .into_iter()
                .map(|(t, v)| (t, ms(v)))
                .collect(),
            owner_class: relaid(self.owner_class, map, n, None),
            instantiations: self.instantiations,
            skipped: self.skipped,
            reach: relaid(self.reach, map, n, Reach::default()),
            internal: relaid(self.internal, map, n, false),
            test_package: self.test_package,
            field_use: self.field_use.into_iter().map(|(o, u)| (m(o), u)).collect(),
            casts: self.casts.into_iter().map(|(o, c)| (m(o), c)).collect(),
            sinks: self.sinks,
            char_sequence_op: self.char_sequence_op.map(m),
            reading_observers: self.reading_observers.into_iter().map(m).collect(),
            own: Some(map.to_vec()),
        }
    }

    /// Leaves operation `op` out of generation, listed as `sig` with `reason`; it stays in
    /// the table, so operation ids keep their meaning.
    pub fn leave_out(&mut self, op: OpId, sig: String, reason: SkipReason) {
        self.primary.retain(|&o| o != op);
        self.secondary.retain(|&o| o != op);
        self.skipped.push((sig, reason));
    }

    /// The class under test operation `op` belongs to; `None` for helpers and for the view
    /// operations guidance calls on returned objects (`NavigableSet.pollFirst()` after
    /// `keySet()`), whose `owner_class` is the view's interface, not a class under test.
    pub fn class_under_test(&self, op: OpId) -> Option<&str> {
        let class = self.owner_class.get(op as usize)?.as_deref()?;
        self.instantiations.contains_key(class).then_some(class)
    }

    /// Where a test can call operation `op`.
    pub fn is_internal(&self, op: OpId) -> bool {
        self.internal.get(op as usize).copied().unwrap_or(false)
    }

    /// Whether a statement of `seq` calls behind a class's public API ([`Self::is_internal`]):
    /// a violation it shows is set aside, not an error test.
    pub fn calls_internal(&self, seq: &crate::sequence::Sequence) -> bool {
        !self.internal.is_empty()
            && seq.stmts.iter().any(
                |s| matches!(s, crate::sequence::Stmt::Call { op, .. } if self.is_internal(*op)),
            )
    }

    pub fn reach(&self, op: OpId) -> &Reach {
        static ANYWHERE: Reach = Reach::Anywhere;
        self.reach.get(op as usize).unwrap_or(&ANYWHERE)
    }

    /// Whether the test of `seq` can call every operation in it: those of package access it
    /// uses are of one package, the package its test is written in (that of the last class
    /// under test it calls, as [`crate::emit::suite::owner`] decides). Always true when no
    /// operation is confined to a package.
    pub fn callable(&self, seq: &Sequence) -> bool {
        // Only a confined operation gets an entry (`members.rs`), so an empty list is a run
        // where every operation is callable anywhere: one check per built sequence, not a
        // scan of every operation.
        if self.reach.is_empty() {
            return true;
        }
        let mut reach = Reach::Anywhere;
        for s in &seq.stmts {
            if let Stmt::Call { op, .. } = s {
                reach = reach.and(self.reach(*op).clone());
                if reach == Reach::Nowhere {
                    return false;
                }
            }
        }
        match reach {
            Reach::Anywhere => true,
            Reach::Package(p) => self.test_package_of(seq).as_deref() == Some(&*p),
            Reach::Nowhere => false,
        }
    }

    /// Whether the test of `seq` can call observer `op` after it.
    pub fn observable(&self, seq: &Sequence, op: OpId) -> bool {
        match self.reach(op) {
            Reach::Anywhere => true,
            Reach::Package(p) => self.test_package_of(seq).as_deref() == Some(&**p),
            Reach::Nowhere => false,
        }
    }

    /// The package the test of `seq` is written in: that of the last class under test it
    /// calls (`None` when it calls none).
    fn test_package_of(&self, seq: &Sequence) -> Option<String> {
        let owner = seq.stmts.iter().rev().find_map(|s| match s {
            Stmt::Call { op, .. } => self.class_under_test(*op),
            _ => None,
        })?;
        crate::emit::suite::test_package(owner, self.test_package.as_deref())
    }
}

/// A per-operation vector laid out again for the table `map` numbers into (`n` ids): entry
/// `i` goes to `map[i]`, the rest are `fill`. An empty vector stays empty (`reach` and
/// `internal`: empty means "every operation the same").
fn relaid<T: Clone>(old: Vec<T>, map: &[OpId], n: usize, fill: T) -> Vec<T> {
    if old.is_empty() {
        return old;
    }
    let mut v = vec![fill; n];
    for (i, x) in old.into_iter().enumerate() {
        v[map[i] as usize] = x;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sequence::{OpKind, Operation};

    fn method(class: &str, name: &str) -> Operation {
        Operation {
            kind: OpKind::Method,
            class: class.into(),
            name: name.into(),
            descriptor: "()I".into(),
            owner: JType::class(class),
            params: Vec::new(),
            ret: Some(JType::Prim(crate::model::types::Prim::Int)),
            varargs: false,
            overloaded: false,
            method_type_args: Vec::new(),
            outer_instance: false,
            stub: None,
        }
    }

    /// A class's own set (`size`, `peek` of `a.Stack`, helper `b.Util.x`), numbered in a
    /// table that another class filled first and that holds one of its operations already:
    /// every role and per-operation fact follows its operation to its new id.
    #[test]
    fn a_set_rebased_keeps_every_role_under_the_shared_tables_ids() {
        let mut own = OpSet::default();
        let size = own.table.intern(method("a.Stack", "size"));
        let peek = own.table.intern(method("a.Stack", "peek"));
        let util = own.table.intern(method("b.Util", "x"));
        own.primary = vec![size, peek];
        own.secondary = vec![util];
        own.observers.insert(JType::class("a.Stack"), vec![size]);
        own.owner_class = vec![Some("a.Stack".into()), Some("a.Stack".into()), None];
        own.internal = vec![false, true];
        own.reading_observers.insert(size);
        own.field_use.insert(peek, Default::default());

        let mut shared = OpTable::default();
        shared.intern(method("c.Other", "y"));
        shared.intern(method("b.Util", "x"));
        let map = own.intern_into(&mut shared);
        assert_eq!(map, vec![2, 3, 1]);
        assert_eq!(shared.len(), 4);
        let r = own.rebased(shared, &map);
        assert_eq!(r.table.get(r.primary[0]).name, "size");
        assert_eq!(r.primary, vec![2, 3]);
        assert_eq!(r.secondary, vec![1]);
        assert_eq!(r.observers[&JType::class("a.Stack")], vec![2]);
        assert_eq!(r.owner_class.len(), 4);
        assert_eq!(r.owner_class[3].as_deref(), Some("a.Stack"));
        assert_eq!(r.owner_class[0], None);
        assert_eq!(r.owner_class[1], None);
        assert!(r.is_internal(3) && !r.is_internal(2) && !r.is_internal(0));
        assert!(r.reading_observers.contains(&2));
        assert!(r.field_use.contains_key(&3));
        assert_eq!(r.own_ids(), vec![2, 3, 1]);
        assert_eq!(OpSet::default().own_ids(), Vec::<OpId>::new());
    }
}
