//! Building the operations of a run: the classes under test (and their stubs), helper
//! classes for parameter types nothing under test makes, the producer graph, observers of
//! returned types; and the view operations coverage guidance adds (`add_view_ops`).

use super::filters::is_observer;
use super::opset::{OpSet, SINK_TYPES};
use super::reach::Reach;
use super::values::is_literal_type;
use crate::model::producers::default_implementation;
use crate::model::{ClassInfo, JType, Model, TypeArg};
use crate::sequence::SkipReason;
use crate::sequence::{OpId, Operation};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet, HashSet};

pub(super) struct Builder<'a> {
    pub(super) model: &'a Model,
    pub(super) set: OpSet,
    pub(super) include: Option<&'a Regex>,
    pub(super) exclude: Option<&'a Regex>,
    /// Method type arguments fixed by the type a producer must make (`Optional.of(T)` for an
    /// `Optional<BigDecimal>` parameter: T = BigDecimal); set only while a producer's
    /// operation is built, read by [`Builder::choose_args`].
    pub(super) fixed: Vec<(String, JType)>,
    /// Make anonymous subclasses ([`Stub`](crate::sequence::Stub)) of abstract classes under test
    /// and of abstract parameter types nothing else makes ([`build_ops_with_stubs`]).
    pub(super) stubs: bool,
    /// Also of classes under test through a constructor of package access, and of parameter
    /// types (`params`; see [`build_ops_with_stubs`]).
    pub(super) package_stubs: bool,
    /// Keep the members javac writes into every enum (`values()`, `valueOf(String)`) and
    /// `Enum.valueOf` as operations of the classes under test. `params` (which finds working
    /// arguments for every public method, these included), `exhaustive` and `builders` (whose
    /// search spaces they are part of) keep them; `gen` leaves them out as JDK behaviour
    /// ([`is_inherited_jdk_behaviour`](super::filters::is_inherited_jdk_behaviour)).
    pub(super) enum_members: bool,
    /// The classes under test that may get stubs (`None`: all). `gen` names the classes the
    /// user named with --class: see [`build_ops_with_stubs`].
    stub_only: Option<&'a HashSet<String>>,
    /// The types some operation makes from scratch ([`Builder::types_made_from_scratch`]),
    /// while the producer graph's operations are added.
    pub(super) made_from_scratch: Vec<JType>,
    /// Types the classes under test's methods test their arguments against with
    /// `instanceof` (`gen::classes::tested_types`): values of them are made as for
    /// parameter types.
    tested: Vec<JType>,
    /// Whether the argument types get their configurers (`configurers`): `gen` only.
    configure: bool,
}

/// Build the operations for `classes` (binary names, already loaded with their supertypes and
/// the classes of the producer graph: `model::producers::load_closure`).
pub fn build_ops(
    model: &Model,
    classes: &[String],
    include: Option<&Regex>,
    exclude: Option<&Regex>,
) -> OpSet {
    Builder::new(model, include, exclude).build(classes)
}

/// [`build_ops`] plus anonymous subclasses ("stubs", [`Stub`](crate::sequence::Stub)): an abstract
/// class under test gets one as receiver (its concrete methods are exercised), and a parameter type
/// that is an abstract class or an interface of several methods that nothing on the class path
/// implements publicly gets one as value (`TimerTask`, `ListResourceBundle`). `gen` and `params`
/// use it; `exhaustive` and `builders` keep their search spaces of the code's own members.
///
/// `all`: parameter types get stubs too, and so does a class under test whose constructors
/// have package access (`params`, which calls each method once and keeps the first working
/// call). `gen` passes false and stubs only the classes under test that are made to be
/// subclassed (a public or protected constructor): a stub answering defaults loops forever
/// in the code it is given to (an `Iterator` whose `hasNext()` is always true in
/// `Iterators.find`), and stubs of guava's `Immutable*` (package-private constructors) hung;
/// on guava collect, 60 s, they cost 13 worker restarts and branch coverage fell from 47% to
/// 28-31% (BENCHMARKS.md).
///
/// `only`: the classes under test that may get stubs (`None`: every one). `gen` passes the
/// classes named with --class: over a whole package (guava collect, 60 s, a quiet machine)
/// stubs of every abstract class under test cut the rate from 1,920 to 651 sequences/s and
/// the written suite's branches from 55.3% to 48.8%, with 4 worker deaths (BENCHMARKS.md
/// "Stubs"), so a package run leaves them out until calls on a stub's delegate cost less.
pub fn build_ops_with_stubs<'a>(
    model: &'a Model,
    classes: &[String],
    include: Option<&'a Regex>,
    exclude: Option<&'a Regex>,
    all: bool,
    only: Option<&'a HashSet<String>>,
    tested: &[JType],
) -> OpSet {
    let mut b = Builder::new(model, include, exclude);
    b.tested = tested.to_vec();
    b.stubs = true;
    b.package_stubs = all;
    b.enum_members = all;
    b.stub_only = only;
    // gen (not `all`, which is params') configures its arguments (`configurers`)
    b.configure = !all;
    b.build(classes)
}

impl<'a> Builder<'a> {
    fn new(model: &'a Model, include: Option<&'a Regex>, exclude: Option<&'a Regex>) -> Self {
        Builder {
            model,
            set: OpSet::default(),
            include,
            exclude,
            fixed: Vec::new(),
            stubs: false,
            package_stubs: false,
            enum_members: true,
            stub_only: None,
            made_from_scratch: Vec::new(),
            tested: Vec::new(),
            configure: false,
        }
    }

    /// The operations of `classes` (see [`build_ops`]).
    fn build(mut self, classes: &[String]) -> OpSet {
        let model = self.model;
        let b = &mut self;
        let mut param_types = b.primary_ops(classes);
        // the types the classes' methods test their arguments against: made like parameters
        param_types.extend(b.tested.iter().cloned());
        // Helper classes for parameter types nothing under test can produce.
        let helpers = b.helper_types(&param_types);
        for ty in helpers.into_values() {
            let Some(ci) = ty.class_name().and_then(|n| model.get(n)) else {
                continue;
            };
            let ops = b.class_ops(ci, &ty, false);
            b.set.secondary.extend(ops);
        }
        b.producer_ops(&param_types);
        if b.configure {
            b.configurer_ops(&param_types);
            b.char_sequence_ops(&param_types);
        }
        b.unproduced_skips();
        b.returned_type_observers();
        b.sink_observers();
        b.set.owner_class.resize(b.set.table.len(), None);
        b.drop_unreachable();
        self.set
    }

    /// Leaves out the operations no test can call (things of package access of two
    /// packages, see [`Reach`]), reported as of types that are not public.
    fn drop_unreachable(&mut self) {
        let set = &mut self.set;
        let nowhere: HashSet<OpId> = (0..set.reach.len() as OpId)
            .filter(|&id| set.reach[id as usize] == Reach::Nowhere)
            .collect();
        if nowhere.is_empty() {
            return;
        }
        for &id in &nowhere {
            let op = set.table.get(id);
            let sig = format!("{}.{}{}", op.class, op.name, op.descriptor);
            set.skipped.push((sig, SkipReason::TypesNotConcrete));
        }
        set.primary.retain(|id| !nowhere.contains(id));
        set.secondary.retain(|id| !nowhere.contains(id));
        set.views.retain(|id| !nowhere.contains(id));
        for obs in set.observers.values_mut() {
            obs.retain(|id| !nowhere.contains(id));
        }
    }
}

impl Builder<'_> {
    /// The operations of the classes under test (instantiated), as primary operations;
    /// returns the parameter types they take.
    fn primary_ops(&mut self, classes: &[String]) -> BTreeSet<JType> {
        let mut param_types = BTreeSet::new();
        let mut interfaces = Vec::new();
        for c in classes {
            let Some(ci) = self.model.get(c) else {
                continue;
            };
            let Some(ty) = self.instantiate_class(ci) else {
                self.set
                    .skipped
                    .push((c.clone(), SkipReason::ClassTypeParams));
                continue;
            };
            self.set.instantiations.insert(c.clone(), ty.clone());
            let mut ops = self.class_ops(ci, &ty, true);
            let may_stub = self.stub_only.is_none_or(|only| only.contains(c));
            if ci.is_interface() {
                if may_stub {
                    interfaces.push(ty);
                }
            } else if may_stub && (ci.is_abstract() || self.model.constructors_of(c).is_empty()) {
                // (a class with a protected constructor only is made to be subclassed:
                // `ResourceBundle.Control`)
                ops.extend(self.primary_stubs(&ty));
            }
            self.add_primary(ops, &mut param_types);
        }
        // An interface under test that no operation under test makes (`Callbacks.Codec`, a
        // parameter type of its own package) gets stubs too; one that one makes does not
        // (its implementations are the values worth testing).
        for ty in interfaces {
            if !self.produced(&ty) {
                let stubs = self.primary_stubs(&ty);
                self.add_primary(stubs, &mut param_types);
            }
        }
        param_types
    }

    /// The stubs of a class under test at type `ty`: primary operations (a stub runs the
    /// class's constructor, and gen takes receivers from primary results) and producers
    /// (params makes its receivers from producers).
    fn primary_stubs(&mut self, ty: &JType) -> Vec<OpId> {
        // Package access only where the tests are in the class's package (not for the JDK's
        // classes, whose tests go to `jforge.tests`).
        let class = ty.class_name().unwrap_or_default();
        let package = class.rsplit_once('.').map(|(p, _)| p.to_string());
        let package_ok = crate::emit::suite::test_package(class, None) == package;
        // A class the user named (`--class`) gets a stub through a constructor of package
        // access too: Commons CSV's abstract `Lexer` has only one, and its faults were out
        // of reach (issue 34, item 2). Not over a whole package, where guava's `Immutable*`
        // stubs hung (see `build_ops_with_stubs`).
        let named = self.stub_only.is_some_and(|only| only.contains(class));
        let stubs = self.stub_ops(ty, package_ok && (self.package_stubs || named), true);
        self.set.secondary.extend(&stubs);
        stubs
    }

    /// Adds `ops` to the primary operations and their parameter types to `param_types`.
    fn add_primary(&mut self, ops: Vec<OpId>, param_types: &mut BTreeSet<JType>) {
        for id in ops {
            self.set.primary.push(id);
            for p in self.set.table.get(id).params.clone() {
                param_types.insert(p);
            }
        }
    }

    /// Observers of the types the classes under test return but are not under test (a
    /// factory's product: `DateTimeFormat.forPattern(..)` returns a `DateTimeFormatter`, a
    /// method returns a `List`): without them such values got no assertion at all. They are
    /// only observers (never called during generation): no-argument getters, `size()`,
    /// `isEmpty()`, a `toString()` the class declares, whose result is a primitive, a String
    /// or an array.
    fn returned_type_observers(&mut self) {
        for ty in self.concrete_results(&self.set.primary.clone(), |t| !is_literal_type(t)) {
            self.observed(&ty);
        }
    }

    /// Observers for the helper types that are text or byte sinks (see [`OpSet::sinks`]).
    /// Why only sinks and not collections: a collection passed to a call is mostly its
    /// input (`new TreeList(list)`, `addAll(list)`), and observing it would assert an
    /// unchanged object in test after test; a Writer or a StringBuilder passed in is there
    /// to be written to.
    fn sink_observers(&mut self) {
        let model = self.model;
        let sink = |t: &JType| {
            SINK_TYPES
                .iter()
                .any(|s| model.is_subtype(t, &JType::class(s)))
        };
        for ty in self.concrete_results(&self.set.secondary.clone(), sink) {
            if self.observed(&ty) {
                self.set.sinks.insert(ty);
            }
        }
    }

    /// The concrete class types operations `ops` return that `keep` accepts.
    fn concrete_results(&self, ops: &[OpId], keep: impl Fn(&JType) -> bool) -> BTreeSet<JType> {
        ops.iter()
            .filter_map(|&id| self.set.table.get(id).ret.clone())
            .filter(|t| matches!(t, JType::Class { .. }) && t.is_concrete() && keep(t))
            .collect()
    }

    /// Whether type `ty` has observers, listing its plain ones first when it has none yet
    /// (not for `Object` or a class the tests cannot name).
    fn observed(&mut self, ty: &JType) -> bool {
        if self.set.observers.contains_key(ty) {
            return true;
        }
        let Some(name) = ty.class_name().map(str::to_string) else {
            return false;
        };
        if ty.erasure() == JType::object() || !self.model.is_accessible(&name) {
            return false;
        }
        let observers = self.plain_observers(&name, ty);
        if observers.is_empty() {
            return false;
        }
        self.set.observers.insert(ty.clone(), observers);
        true
    }

    /// The observers of `ty` (class `name`) whose result type needs no substitution.
    fn plain_observers(&mut self, name: &str, ty: &JType) -> Vec<OpId> {
        let mut out = Vec::new();
        for m in self.model.methods_of(name) {
            let ret = m.ret.as_ref().filter(|r| r.is_concrete());
            if !is_observer(m, ret) || !self.model.is_accessible(&m.owner) {
                continue;
            }
            let op = Operation::instance_call(&m.owner, &m.name, &m.descriptor, ty, m.ret.clone());
            out.push(self.push(op, false, name));
        }
        out.extend(self.runtime_to_string(name, ty));
        out
    }

    /// `toString()` as an observer of an interface or abstract class `name` (at type `ty`)
    /// that does not declare one: the object behind it is of another class, which mostly
    /// does (cli2's `PatternBuilder.create()` returns an `Option` whose `toString()` lists
    /// its options in order; Defects4J's Cli-7 changed that order and only `toString()`
    /// showed it; a returned `List` was only ever asserted by `size()` and `isEmpty()`).
    /// When the runtime class keeps `Object.toString`, its identity hash keeps the value
    /// out of the assertions (`suite::assertable`).
    pub(super) fn runtime_to_string(&mut self, name: &str, ty: &JType) -> Option<OpId> {
        let ci = self.model.get(name)?;
        if !(ci.is_interface() || ci.is_abstract()) {
            return None;
        }
        let declared =
            self.model.methods_of(name).iter().any(|m| {
                m.name == "toString" && m.params.is_empty() && m.owner != "java.lang.Object"
            });
        if declared {
            return None;
        }
        let op = Operation::instance_call(
            "java.lang.Object",
            "toString",
            "()Ljava/lang/String;",
            ty,
            Some(JType::string()),
        );
        Some(self.push(op, false, name))
    }

    /// The helper types (keyed by implementation and type) for the parameter types that
    /// no primary operation produces: the class itself when it is concrete and public, else
    /// a default implementation of the interface.
    fn helper_types(&mut self, param_types: &BTreeSet<JType>) -> BTreeMap<String, JType> {
        let model = self.model;
        let produced: Vec<JType> = self
            .set
            .primary
            .iter()
            .filter_map(|&id| self.set.table.get(id).ret.clone())
            .collect();
        let mut helpers: BTreeMap<String, JType> = BTreeMap::new();
        for p in param_types {
            let p = match p {
                JType::Array(e) => (**e).clone(),
                _ => p.clone(),
            };
            let Some(name) = p.class_name() else { continue };
            if is_literal_type(&p)
                || name == "java.lang.Object"
                || self.set.instantiations.contains_key(name)
            {
                continue;
            }
            if produced.iter().any(|r| model.is_subtype(r, &p)) {
                continue;
            }
            let Some(ci) = model.get(name) else { continue };
            let impl_name = if !ci.is_interface() && !ci.is_abstract() && model.is_accessible(name)
            {
                name.to_string()
            } else if let Some(d) = default_implementation(name) {
                d.to_string()
            } else {
                continue;
            };
            let Some(ici) = model.get(&impl_name) else {
                continue;
            };
            let Some(ty) = self.helper_type(&p, &impl_name, ici) else {
                continue;
            };
            helpers.entry(format!("{impl_name}{ty}")).or_insert(ty);
        }
        helpers
    }

    /// The type of helper class `ici` (named `impl_name`) passed for parameter type `p`.
    /// Type arguments: taken from the parameter (wildcard bounds), else instantiated.
    pub(super) fn helper_type(&self, p: &JType, impl_name: &str, ici: &ClassInfo) -> Option<JType> {
        if ici.type_params.is_empty() {
            return Some(JType::class(impl_name));
        }
        let args: Vec<JType> = match p {
            JType::Class { args, .. } if args.len() == ici.type_params.len() => args
                .iter()
                .map(|a| match a {
                    TypeArg::Type(t) | TypeArg::Extends(t) | TypeArg::Super(t)
                        if t.is_concrete() =>
                    {
                        t.clone()
                    }
                    _ => JType::string(),
                })
                .collect(),
            _ => match self.instantiate_class(ici) {
                Some(JType::Class { args, .. }) => args
                    .into_iter()
                    .filter_map(|a| {
                        if let TypeArg::Type(t) = a {
                            Some(t)
                        } else {
                            None
                        }
                    })
                    .collect(),
                _ => return None,
            },
        };
        Some(JType::generic(impl_name, args))
    }
}

/// Adds [`OpSet::views`]: code of classes under test that no operation calls directly, such
/// as TreeMap's key set, sub-maps, iterators and spliterators, runs only when methods are
/// called on the objects operations return, typed as public interfaces (`NavigableSet`,
/// `Iterator`, `Spliterator`). For every such return type (not itself under test) that one
/// of `implementors` (the nested classes whose coverage is measured) implements, its
/// instance methods become operations; views of views too, `depth` levels deep. Coverage
/// guidance then weights them by the uncovered branches of the implementing methods.
pub fn add_view_ops(
    set: &mut OpSet,
    model: &Model,
    implementors: &[String],
    include: Option<&Regex>,
    exclude: Option<&Regex>,
    depth: usize,
) {
    let impls: Vec<JType> = implementors
        .iter()
        .filter(|n| model.get(n).is_some())
        .map(|n| JType::class(n))
        .collect();
    if impls.is_empty() {
        return;
    }
    let mut b = Builder {
        set: std::mem::take(set),
        ..Builder::new(model, include, exclude)
    };
    let mut done: BTreeSet<String> = b.set.instantiations.keys().cloned().collect();
    let mut frontier: Vec<OpId> = b.set.primary.clone();
    for _ in 0..depth {
        let mut types: BTreeMap<String, JType> = BTreeMap::new();
        for &id in &frontier {
            let Some(r) = b.set.table.get(id).ret.clone() else {
                continue;
            };
            let Some(name) = r.class_name().map(str::to_string) else {
                continue;
            };
            if done.contains(&name) || !r.is_concrete() || !model.is_accessible(&name) {
                continue;
            }
            let Some(ci) = model.get(&name) else { continue };
            if !(ci.is_interface() || ci.is_abstract()) {
                continue;
            }
            let raw = JType::class(&name);
            if impls.iter().any(|i| model.is_subtype(i, &raw)) {
                types.entry(format!("{r}")).or_insert(r);
            }
        }
        let mut next = Vec::new();
        for ty in types.into_values() {
            let Some(name) = ty.class_name().map(str::to_string) else {
                continue;
            };
            done.insert(name.clone());
            let Some(ci) = model.get(&name) else { continue };
            for id in b.class_ops(ci, &ty, true) {
                let op = b.set.table.get(id);
                if op.has_receiver() && !b.set.primary.contains(&id) && !b.set.views.contains(&id) {
                    b.set.views.push(id);
                    next.push(id);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        frontier = next;
    }
    b.set.owner_class.resize(b.set.table.len(), None);
    b.drop_unreachable();
    *set = b.set;
}
