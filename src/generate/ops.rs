//! From the model to operations: which constructors, methods and fields of the classes under
//! test (and of a few helper classes that supply arguments) the generators may call, with
//! generic types instantiated so that every call can be written as compiling Java.
//!
//! Generic classes are instantiated with concrete type arguments chosen from `String` and
//! `Integer` (the first that satisfies the declared bounds), e.g. `TreeMap<String, Integer>`.
//! A member whose types cannot be made concrete is skipped and listed with the reason; no
//! sequence is ever generated that javac would reject.

use crate::model::producers::{self, ProducerKind, default_implementation};
use crate::model::{ClassInfo, JType, MethodInfo, Model, Nesting, Prim, TypeArg, TypeParam};
use crate::sequence::{LambdaBody, OpId, OpKind, OpTable, Operation, Stub, StubMethod, Value};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;

/// The operations of a run.
#[derive(Debug, Default)]
pub struct OpSet {
    pub table: OpTable,
    /// Operations of the classes under test: what generation picks from.
    pub primary: Vec<OpId>,
    /// Operations of helper classes that only supply arguments (picked rarely).
    pub secondary: Vec<OpId>,
    /// Coverage guidance only ([`add_view_ops`]): instance methods of the interfaces and
    /// abstract classes that operations return and nested classes under test implement
    /// (`keySet()` -> `NavigableSet.pollFirst()`, `iterator()` -> `Iterator.remove()`...).
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

/// Methods never worth calling in a test (identity-based or thread-related).
const OBJECT_NOISE: &[&str] = &[
    "getClass",
    "hashCode",
    "wait",
    "notify",
    "notifyAll",
    "finalize",
];

/// `Throwable`'s own stack-trace and suppression machinery, inherited by every exception
/// class under test: hundreds of tests of JDK code (`fillInStackTrace()`, `getStackTrace()`,
/// `printStackTrace()`, `initCause(..)`) and none of the user's. `getMessage()`,
/// `getLocalizedMessage()`, `getCause()` and `toString()` stay (they show the class's own
/// constructor arguments), as do overrides the class declares.
fn is_inherited_throwable_noise(m: &MethodInfo) -> bool {
    m.owner == "java.lang.Throwable"
        && !matches!(
            m.name.as_str(),
            "getMessage" | "getLocalizedMessage" | "getCause" | "toString"
        )
}

/// Whether a constructor of JDK class `class` with these parameters opens (and so creates) a
/// file: `new PrintWriter("only")`, `new FileOutputStream(name)`. Helper classes never use
/// those: a test calling them writes into whatever folder the build runs it in.
fn opens_a_file(class: &str, params: &[JType]) -> bool {
    const FILE_CLASSES: &[&str] = &[
        "java.io.FileOutputStream",
        "java.io.FileWriter",
        "java.io.PrintWriter",
        "java.io.PrintStream",
        "java.io.RandomAccessFile",
        "java.util.Formatter",
    ];
    FILE_CLASSES.contains(&class)
        && params
            .iter()
            .any(|p| *p == JType::string() || p.class_name() == Some("java.io.File"))
}

/// Types whose values come from literals rather than from operations.
pub fn is_literal_type(t: &JType) -> bool {
    match t {
        JType::Prim(_) => true,
        JType::Class { name, .. } => name == "java.lang.String" || Prim::unboxed(name).is_some(),
        _ => false,
    }
}

/// A lambda literal for `ty` when it is a functional interface (`Model::function_type`),
/// else `None`: `(p$0) -> {}` for a `Consumer`, `(p$0, p$1) -> 0` for a `Comparator`,
/// `(p$0) -> p$0` for a `UnaryOperator`. What it returns, by the method's return type:
/// nothing for `void`; zero (`false`, `0L`, ...) for a primitive or boxed type; else the
/// first parameter that fits, else `""` where a String fits, `0` where an Integer does, else
/// `null`. Why not a value of the producer graph for the rest (`Supplier<List<String>>`): a
/// literal holds no statements; such a result is rare among the JDK's parameters and `null`
/// is still a valid lambda.
pub fn lambda_literal(model: &Model, ty: &JType) -> Option<Value> {
    let f = model.function_type(ty)?;
    let arity = u8::try_from(f.params.len()).ok()?;
    let body = match &f.ret {
        None => LambdaBody::Void,
        Some(r) => lambda_result(model, &f.params, r),
    };
    Some(Value::Lambda(arity, body))
}

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

/// A class literal for `ty` when it is `Class<X>` and `X.class` has that type: `X` a
/// class without type arguments, an array or a primitive type, or a wildcard met by its bound
/// (`Class<? extends Annotation>`: `Annotation.class`; `Class<?>`: `Object.class`); the class
/// must be one tests can name.
pub fn class_literal(model: &Model, ty: &JType) -> Option<Value> {
    let JType::Class { name, args } = ty else {
        return None;
    };
    if name != "java.lang.Class" {
        return None;
    }
    let x = match args.first() {
        Some(TypeArg::Type(x) | TypeArg::Extends(x) | TypeArg::Super(x)) => x.clone(),
        Some(TypeArg::Any) | None => JType::object(),
    };
    let mut base = &x;
    while let JType::Array(e) = base {
        base = e;
    }
    let nameable = match base {
        JType::Prim(_) => true,
        JType::Class { name, args } => args.is_empty() && model.is_accessible(name),
        _ => false,
    };
    nameable.then_some(Value::Class(x))
}

/// What a lambda of parameters `params` returns for result type `r` (see [`lambda_literal`]).
fn lambda_result(model: &Model, params: &[JType], r: &JType) -> LambdaBody {
    let prim = match r {
        JType::Prim(p) => Some(*p),
        JType::Class { name, .. } => Prim::unboxed(name),
        _ => None,
    };
    if let Some(p) = prim {
        return LambdaBody::Value(Box::new(zero(p)));
    }
    let boxed = |p: &JType| match p {
        JType::Prim(k) => JType::class(k.boxed()),
        _ => p.clone(),
    };
    if let Some(i) = params.iter().position(|p| model.is_subtype(&boxed(p), r)) {
        return LambdaBody::Arg(i as u8);
    }
    let v = if model.is_subtype(&JType::string(), r) {
        Value::Str(String::new())
    } else if model.is_subtype(&JType::class("java.lang.Integer"), r) {
        Value::Int(0)
    } else {
        Value::Null
    };
    LambdaBody::Value(Box::new(v))
}

/// The zero of primitive kind `p` (`false` for boolean).
fn zero(p: Prim) -> Value {
    match p {
        Prim::Boolean => Value::Bool(false),
        Prim::Byte => Value::Byte(0),
        Prim::Short => Value::Short(0),
        Prim::Char => Value::Char(0),
        Prim::Int => Value::Int(0),
        Prim::Long => Value::Long(0),
        Prim::Float => Value::float(0.0),
        Prim::Double => Value::double(0.0),
    }
}

struct Builder<'a> {
    model: &'a Model,
    set: OpSet,
    include: Option<&'a Regex>,
    exclude: Option<&'a Regex>,
    /// Method type arguments fixed by the type a producer must make (`Optional.of(T)` for an
    /// `Optional<BigDecimal>` parameter: T = BigDecimal); set only while a producer's
    /// operation is built, read by [`Builder::choose_args`].
    fixed: Vec<(String, JType)>,
    /// Make anonymous subclasses ([`Stub`]) of abstract classes under test and of abstract
    /// parameter types nothing else makes ([`build_ops_with_stubs`]).
    stubs: bool,
    /// Also of classes under test through a constructor of package access, and of parameter
    /// types (`params`; see [`build_ops_with_stubs`]).
    package_stubs: bool,
    /// The classes under test that may get stubs (`None`: all). `gen` names the classes the
    /// user named with --class: see [`build_ops_with_stubs`].
    stub_only: Option<&'a HashSet<String>>,
    /// The types some operation makes from scratch ([`Builder::types_made_from_scratch`]),
    /// while the producer graph's operations are added.
    made_from_scratch: Vec<JType>,
}

/// At most this many calls (constructors, factories) per type the producer graph supplies,
/// simplest first, and this many constants (all of a small enum's).
const PRODUCER_CALLS: usize = 6;
const PRODUCER_CONSTANTS: usize = 12;

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

/// [`build_ops`] plus anonymous subclasses ("stubs", [`Stub`]): an abstract class under test
/// gets one as receiver (its concrete methods are exercised), and a parameter type that is
/// an abstract class or an interface of several methods that nothing on the class path
/// implements publicly gets one as value (`TimerTask`, `ListResourceBundle`). `gen` and
/// `params` use it; `exhaustive` and `builders` keep their search spaces of the code's own
/// members.
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
) -> OpSet {
    let mut b = Builder::new(model, include, exclude);
    b.stubs = true;
    b.package_stubs = all;
    b.stub_only = only;
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
            stub_only: None,
            made_from_scratch: Vec::new(),
        }
    }

    /// The operations of `classes` (see [`build_ops`]).
    fn build(mut self, classes: &[String]) -> OpSet {
        let model = self.model;
        let b = &mut self;
        let param_types = b.primary_ops(classes);
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
        b.unproduced_skips();
        b.returned_type_observers();
        b.set.owner_class.resize(b.set.table.len(), None);
        self.set
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
        let stubs = self.stub_ops(ty, package_ok && self.package_stubs, true);
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
        let returned: BTreeSet<JType> = self
            .set
            .primary
            .iter()
            .filter_map(|&id| self.set.table.get(id).ret.clone())
            .filter(|t| {
                matches!(t, JType::Class { .. })
                    && t.is_concrete()
                    && !is_literal_type(t)
                    && !self.set.observers.contains_key(t)
            })
            .collect();
        for ty in returned {
            let Some(name) = ty.class_name().map(str::to_string) else {
                continue;
            };
            if ty.erasure() == JType::object() || !self.model.is_accessible(&name) {
                continue;
            }
            let observers = self.plain_observers(&name, &ty);
            if !observers.is_empty() {
                self.set.observers.insert(ty, observers);
            }
        }
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
        out
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
    fn helper_type(&self, p: &JType, impl_name: &str, ici: &ClassInfo) -> Option<JType> {
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

/// The producer graph's operations (`model::producers`): values for parameter types that
/// neither the classes under test nor the collection helpers make.
impl Builder<'_> {
    /// Adds, as helper operations, the simplest producers of every parameter type nothing
    /// else makes, and of their parameter types in turn, [`producers::MAX_DEPTH`] levels
    /// deep (a `LocalDate` from `LocalDate.of(int, Month, int)` and `Month`'s constants).
    /// Skips recorded while trying producers are not the user's members: dropped.
    fn producer_ops(&mut self, param_types: &BTreeSet<JType>) {
        let skips_before = self.set.skipped.len();
        self.made_from_scratch = self.types_made_from_scratch();
        let mut queue: VecDeque<(JType, usize)> =
            param_types.iter().map(|p| (element_type(p), 1)).collect();
        let mut seen = BTreeSet::new();
        while let Some((need, depth)) = queue.pop_front() {
            if !seen.insert(need.clone()) || !self.needs_producer(&need) {
                continue;
            }
            let mut made = self.producers_for(&need);
            if made.is_empty() && self.package_stubs {
                made = self.stub_ops(&need, false, false);
            }
            for id in made {
                self.set.secondary.push(id);
                let op = self.set.table.get(id);
                let from_scratch = op
                    .input_types()
                    .iter()
                    .all(|t| self.input_from_scratch(t, &self.made_from_scratch));
                if let Some(r) = op.ret.clone().filter(|_| from_scratch) {
                    self.made_from_scratch.push(r);
                }
                if depth < producers::MAX_DEPTH {
                    for p in &self.set.table.get(id).params {
                        queue.push_back((element_type(p), depth + 1));
                    }
                }
            }
        }
        self.set.skipped.truncate(skips_before);
    }

    /// A reference type that no operation makes yet (not a literal, not Object, not a class
    /// under test).
    fn needs_producer(&self, need: &JType) -> bool {
        let Some(name) = need.class_name() else {
            return false;
        };
        !(is_literal_type(need)
            || name == "java.lang.Object"
            || self.set.instantiations.contains_key(name)
            || self.produced(need))
    }

    /// Whether a lambda or a class literal stands for `need` where no operation makes one.
    /// Not part of [`Self::needs_producer`]: the graph's values come first (an `ArrayList`
    /// for an `Iterable` iterates; a lambda's `iterator()` returns null).
    fn literal_fits(&self, need: &JType) -> bool {
        lambda_literal(self.model, need).is_some() || class_literal(self.model, need).is_some()
    }

    /// Whether the operations of the classes under test and of the collection helpers make a
    /// value that can be passed where `need` is expected, from scratch (see
    /// [`Self::types_made_from_scratch`]).
    fn produced(&self, need: &JType) -> bool {
        self.made_from_scratch
            .iter()
            .any(|t| self.model.is_subtype(t, need))
    }

    /// The result types of the operations (so far: those of the classes under test and the
    /// collection helpers) that can run from scratch: every input is a literal, a lambda or
    /// class literal, an array, or the result of another such operation; a fixpoint. An
    /// operation whose inputs need `need` first makes none: `Base64.Decoder.wrap(InputStream)`
    /// needs an `InputStream` (in `--package java.util` it hid the producer graph's
    /// `InputStream.nullInputStream()`), and `Booking.total()` returns a `BigDecimal` but
    /// needs a `Booking`, whose constructor needs a `BigDecimal` (the run had no amount at
    /// all, every Booking call got `null` and threw: 0 of 14 methods covered).
    fn types_made_from_scratch(&self) -> Vec<JType> {
        let ops: Vec<&Operation> = self
            .set
            .primary
            .iter()
            .chain(&self.set.secondary)
            .map(|&id| self.set.table.get(id))
            .collect();
        // The generator passes a String literal where a CharSequence or Comparable is
        // expected, an Integer where a Number is (`RandomGenerator::pick_value`).
        let mut made: Vec<JType> = vec![JType::string(), JType::class("java.lang.Integer")];
        let mut ready: HashSet<JType> = HashSet::new();
        let mut done = vec![false; ops.len()];
        loop {
            let mut grew = false;
            for (i, op) in ops.iter().enumerate() {
                if done[i] {
                    continue;
                }
                let runs = op.input_types().iter().all(|t| {
                    ready.contains(t) || {
                        let ok = self.input_from_scratch(t, &made);
                        if ok {
                            ready.insert(t.clone());
                        }
                        ok
                    }
                });
                if !runs {
                    continue;
                }
                done[i] = true;
                if let Some(r) = op.ret.as_ref().filter(|r| !made.contains(r)) {
                    made.push(r.clone());
                    grew = true;
                }
            }
            if !grew {
                return made;
            }
        }
    }

    /// Whether a value for input type `t` exists without any operation, or from one in
    /// `made`.
    fn input_from_scratch(&self, t: &JType, made: &[JType]) -> bool {
        is_literal_type(t)
            || matches!(t, JType::Array(_))
            || *t == JType::object()
            || self.literal_fits(t)
            || made.iter().any(|m| self.model.is_subtype(m, t))
    }

    /// Operations for the simplest producers of `need` ([`PRODUCER_CALLS`] calls and
    /// [`PRODUCER_CONSTANTS`] constants at most).
    fn producers_for(&mut self, need: &JType) -> Vec<OpId> {
        let model = self.model;
        let Some(name) = need.class_name() else {
            return Vec::new();
        };
        let mut out: Vec<OpId> = Vec::new();
        let (mut calls, mut constants) = (0, 0);
        for p in producers::producers(model, name) {
            let (count, limit) = match p.kind {
                ProducerKind::Constant => (&mut constants, PRODUCER_CONSTANTS),
                _ => (&mut calls, PRODUCER_CALLS),
            };
            if *count >= limit {
                continue;
            }
            let id = match (p.method, p.field) {
                (_, Some(f)) => self.constant_op(f, need),
                (Some(m), _) if p.kind == ProducerKind::Constructor => {
                    self.producer_constructor_op(&p.class, m, need)
                }
                (Some(m), _) => self.factory_op(&p.class, m, need),
                _ => None,
            };
            if let Some(id) = id.filter(|id| !out.contains(id)) {
                out.push(id);
                *count += 1;
            }
        }
        out
    }

    /// `ZoneOffset.UTC`, `RoundingMode.HALF_UP`: a static final field read.
    fn constant_op(&mut self, f: &crate::model::FieldInfo, need: &JType) -> Option<OpId> {
        let ok = f.ty.is_concrete()
            && self.type_accessible(&f.ty)
            && self.model.is_subtype(&f.ty, need)
            && !self.excluded_helper(&format!("{}.{}", f.owner, f.name));
        if !ok {
            return None;
        }
        let op = Operation {
            kind: OpKind::StaticFieldGet,
            class: f.owner.clone(),
            name: f.name.clone(),
            descriptor: f.descriptor.clone(),
            owner: JType::class(&f.owner),
            params: Vec::new(),
            ret: Some(f.ty.clone()),
            varargs: false,
            overloaded: false,
            method_type_args: Vec::new(),
            outer_instance: false,
            stub: None,
        };
        Some(self.push(op, false, &f.owner))
    }

    /// A constructor of `class` (the needed type or an implementation of it).
    fn producer_constructor_op(
        &mut self,
        class: &str,
        m: &MethodInfo,
        need: &JType,
    ) -> Option<OpId> {
        let ci = self.model.get(class)?;
        let sig = qualified_signature(class, "<init>", m);
        if opens_a_file(class, &m.params) || self.excluded_helper(&sig) {
            return None;
        }
        let ty = self.helper_type(need, class, ci)?;
        if !self.model.is_subtype(&ty, need) {
            return None;
        }
        self.constructor_op(ci, &ty, m, &sig, false, None)
    }

    /// A static factory declared in `class` whose result, with its type variables bound to
    /// fit, can be passed where `need` is expected.
    fn factory_op(&mut self, class: &str, m: &MethodInfo, need: &JType) -> Option<OpId> {
        let sig = qualified_signature(class, &m.name, m);
        if self.excluded_helper(&sig) || is_setter_name(&m.name) {
            return None;
        }
        let mut fixed = Vec::new();
        if !producers::unify(self.model, m.ret.as_ref()?, need, &mut fixed) {
            return None;
        }
        self.fixed = fixed;
        let found = self.concrete_params(&JType::class(class), m, &sig);
        self.fixed.clear();
        let (params, ret, targs) = found?;
        if !ret.as_ref().is_some_and(|r| self.model.is_subtype(r, need)) {
            return None;
        }
        let overloaded = self
            .model
            .methods_of(class)
            .iter()
            .filter(|o| o.name == m.name && o.params.len() == m.params.len())
            .count()
            > 1;
        let op = Operation {
            kind: OpKind::StaticMethod,
            class: m.owner.clone(),
            name: m.name.clone(),
            descriptor: m.descriptor.clone(),
            owner: JType::class(class),
            params,
            ret,
            varargs: m.is_varargs(),
            overloaded,
            method_type_args: targs,
            outer_instance: false,
            stub: None,
        };
        Some(self.push(op, false, class))
    }

    /// `--exclude-methods` applies to helpers too (`--include-methods` chooses among the
    /// members under test only: naming `Booking.*` must not starve Booking of arguments).
    fn excluded_helper(&self, sig: &str) -> bool {
        self.exclude.is_some_and(|r| r.is_match(sig))
    }

    /// Records, for every member under test, a parameter type that no operation makes and no
    /// literal supplies: the member cannot be called with a value of it (only with `null`).
    fn unproduced_skips(&mut self) {
        let mut missing = Vec::new();
        for &id in &self.set.primary {
            let op = self.set.table.get(id);
            // `params` follow the receiver; an inner class's outer instance comes first.
            let outer = usize::from(op.outer_instance);
            let unmade = op
                .params
                .iter()
                .skip(outer)
                .map(element_type)
                .find(|p| self.needs_producer(p) && !self.literal_fits(p));
            if let Some(ty) = unmade {
                missing.push((op.signature(), ty));
            }
        }
        for (member, ty) in missing {
            let entry = format!("{member}: no value for {}", ty.source());
            self.set.skipped.push((entry, SkipReason::NoProducer));
        }
    }
}

/// At most this many stubs of a type (one per super constructor, simplest first).
const STUB_CONSTRUCTORS: usize = 2;

/// Anonymous subclasses ([`Stub`]): values of abstract types nothing else makes.
impl Builder<'_> {
    /// Stub operations making values of `ty` (see [`Model::subclassing`]; `package_ok`: the
    /// tests are written in the type's package, as for a class under test), one per super
    /// constructor up to [`STUB_CONSTRUCTORS`]. Their inputs: the super constructor's
    /// arguments, then what each non-void method returns.
    fn stub_ops(&mut self, ty: &JType, package_ok: bool, cut: bool) -> Vec<OpId> {
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

/// The element type of an array type, else the type.
fn element_type(t: &JType) -> JType {
    match t {
        JType::Array(e) => element_type(e),
        _ => t.clone(),
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
    *set = b.set;
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

    fn instantiate_class(&self, ci: &ClassInfo) -> Option<JType> {
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

    /// Whether `--include-methods` names `sig` (a user who asks for a member gets it).
    fn named(&self, sig: &str) -> bool {
        self.include.is_some_and(|r| r.is_match(sig))
    }

    fn excluded(&mut self, sig: &str) -> bool {
        if let Some(inc) = self.include
            && !inc.is_match(sig)
        {
            return true;
        }
        if let Some(exc) = self.exclude
            && exc.is_match(sig)
        {
            return true;
        }
        false
    }

    fn push(&mut self, op: Operation, cut: bool, class: &str) -> OpId {
        let id = self.set.table.intern(op);
        if self.set.owner_class.len() <= id as usize {
            self.set.owner_class.resize(id as usize + 1, None);
        }
        if cut {
            self.set.owner_class[id as usize] = Some(class.to_string());
        }
        id
    }

    /// The operations of class `ci` used at type `ty`: constructors, methods and (for a
    /// class under test, `cut`) fields; a helper class only supplies easy constructors and
    /// mutators.
    fn class_ops(&mut self, ci: &ClassInfo, ty: &JType, cut: bool) -> Vec<OpId> {
        let mut out = Vec::new();
        if !self.model.is_accessible(&ci.name) {
            self.set
                .skipped
                .push((ci.name.clone(), SkipReason::ClassNotPublic));
            return out;
        }
        self.constructor_ops(ci, ty, cut, &mut out);
        self.method_ops(&ci.name, ty, cut, &mut out);
        if cut {
            self.field_ops(&ci.name, ty, &mut out);
        }
        out
    }

    /// The constructors of `ci` (an inner class's take the outer instance first).
    fn constructor_ops(&mut self, ci: &ClassInfo, ty: &JType, cut: bool, out: &mut Vec<OpId>) {
        let model = self.model;
        let inner_outer = match &ci.nesting {
            Nesting::Member {
                outer,
                is_static: false,
                ..
            } => Some(outer.clone()),
            _ => None,
        };
        let name = &ci.name;
        let ctors = model.constructors_of(name);
        for m in &ctors {
            let sig = qualified_signature(name, "<init>", m);
            if self.excluded(&sig) {
                continue;
            }
            if !cut
                && (!m.params.iter().all(is_easy)
                    || opens_a_file(name, &m.params)
                    || producers::is_unrepeatable(name, "<init>", &m.params))
            {
                continue;
            }
            if let Some(id) = self.constructor_op(ci, ty, m, &sig, cut, inner_outer.as_deref()) {
                out.push(id);
            }
        }
    }

    /// The operation of constructor `m` of `ci` at type `ty` (`outer`: the enclosing class of
    /// an inner class, whose instance it takes first).
    fn constructor_op(
        &mut self,
        ci: &ClassInfo,
        ty: &JType,
        m: &MethodInfo,
        sig: &str,
        cut: bool,
        outer: Option<&str>,
    ) -> Option<OpId> {
        let name = &ci.name;
        let mut params = self.concrete_params(ty, m, sig)?.0;
        if let Some(o) = outer {
            params.insert(0, JType::class(o));
        }
        let overloaded = self
            .model
            .constructors_of(name)
            .iter()
            .filter(|c| c.params.len() == m.params.len())
            .count()
            > 1;
        let op = Operation {
            kind: OpKind::Constructor,
            class: name.clone(),
            name: "<init>".into(),
            descriptor: m.descriptor.clone(),
            owner: ty.clone(),
            params,
            ret: Some(ty.clone()),
            varargs: m.is_varargs(),
            overloaded,
            method_type_args: Vec::new(),
            outer_instance: outer.is_some(),
            stub: None,
        };
        Some(self.push(op, cut, name))
    }

    /// The methods of class `name`, less Object's noise; the observers among them are
    /// recorded for the receiver type `ty` of a class under test.
    fn method_ops(&mut self, name: &str, ty: &JType, cut: bool, out: &mut Vec<OpId>) {
        let model = self.model;
        let methods = model.methods_of(name);
        let mut observers = Vec::new();
        for m in &methods {
            if OBJECT_NOISE.contains(&m.name.as_str())
                || (m.owner == "java.lang.Object" && m.name == "toString")
                || is_inherited_throwable_noise(m)
            {
                continue;
            }
            if !cut {
                let mutator = ["add", "put", "offer", "push", "append", "addAll", "putAll"]
                    .contains(&m.name.as_str());
                if !mutator || m.is_static() || !m.params.iter().all(is_easy) {
                    continue;
                }
            }
            let sig = qualified_signature(name, &m.name, m);
            if self.excluded(&sig) {
                continue;
            }
            if is_static_setter(m) && !self.named(&sig) {
                self.set.skipped.push((sig, SkipReason::GlobalState));
                continue;
            }
            let Some((params, ret, targs)) = self.concrete_params(ty, m, &sig) else {
                continue;
            };
            if let Some(r) = &ret
                && !self.type_accessible(r)
            {
                self.set.skipped.push((sig, SkipReason::ReturnsNonPublic));
                continue;
            }
            let overloaded = methods
                .iter()
                .filter(|o| o.name == m.name && o.params.len() == m.params.len())
                .count()
                > 1;
            let is_static = m.is_static();
            let decl_accessible = model.is_accessible(&m.owner);
            let op = Operation {
                kind: if is_static {
                    OpKind::StaticMethod
                } else {
                    OpKind::Method
                },
                class: m.owner.clone(),
                name: m.name.clone(),
                descriptor: m.descriptor.clone(),
                owner: if is_static {
                    JType::class(if decl_accessible { &m.owner } else { name })
                } else {
                    ty.clone()
                },
                params,
                ret: ret.clone(),
                varargs: m.is_varargs(),
                overloaded,
                method_type_args: targs,
                outer_instance: false,
                stub: None,
            };
            let observer = is_observer(m, ret.as_ref());
            let id = self.push(op, cut, name);
            if observer {
                observers.push(id);
            }
            out.push(id);
        }
        if cut && !observers.is_empty() {
            self.set
                .observers
                .entry(ty.clone())
                .or_default()
                .extend(observers);
        }
    }

    /// Getters and setters of the fields and enum constants of a class under test (static
    /// primitive constants left out: nothing to test).
    fn field_ops(&mut self, name: &str, ty: &JType, out: &mut Vec<OpId>) {
        let model = self.model;
        for f in model.fields_of(name) {
            let sig = format!("{}.{}", name, f.name);
            if self.excluded(&sig) {
                continue;
            }
            let fty = if f.is_static() {
                Some(f.ty.clone())
            } else {
                model.field_type(ty, f)
            };
            let Some(fty) = fty.filter(|t| t.is_concrete() && self.type_accessible(t)) else {
                self.set
                    .skipped
                    .push((sig, SkipReason::FieldTypeNotConcrete));
                continue;
            };
            if f.is_static() && fty.is_prim() {
                continue; // constants: nothing to test
            }
            let owner = if f.is_static() {
                JType::class(&f.owner)
            } else {
                ty.clone()
            };
            let get = Operation {
                kind: if f.is_static() {
                    OpKind::StaticFieldGet
                } else {
                    OpKind::FieldGet
                },
                class: f.owner.clone(),
                name: f.name.clone(),
                descriptor: f.descriptor.clone(),
                owner: owner.clone(),
                params: Vec::new(),
                ret: Some(fty.clone()),
                varargs: false,
                overloaded: false,
                method_type_args: Vec::new(),
                outer_instance: false,
                stub: None,
            };
            out.push(self.push(get, true, name));
            if f.is_static() && !f.is_final() && !self.named(&sig) {
                self.set.skipped.push((sig, SkipReason::GlobalState));
            } else if !f.is_final() {
                let set = Operation {
                    kind: if f.is_static() {
                        OpKind::StaticFieldSet
                    } else {
                        OpKind::FieldSet
                    },
                    class: f.owner.clone(),
                    name: f.name.clone(),
                    descriptor: f.descriptor.clone(),
                    owner,
                    params: vec![fty],
                    ret: None,
                    varargs: false,
                    overloaded: false,
                    method_type_args: Vec::new(),
                    outer_instance: false,
                    stub: None,
                };
                out.push(self.push(set, true, name));
            }
        }
    }

    /// Concrete parameter and result types of `m` on a receiver of type `ty`, with method
    /// type parameters instantiated; `None` (and a skip record) when impossible.
    #[allow(clippy::type_complexity)]
    fn concrete_params(
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

    fn type_accessible(&self, t: &JType) -> bool {
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

/// Parameters a helper class's member may take: literal types, or the helper's own type
/// arguments (so `ArrayList<String>.add(String)` qualifies).
fn is_easy(p: &JType) -> bool {
    is_literal_type(p) || matches!(p, JType::Var(_)) || *p == JType::object()
}

/// What an observer may return: a primitive, a String, or an array of primitives or of
/// references (the worker reports an array's contents when they are values, and the test
/// asserts them with `assertArrayEquals`).
fn is_observable_type(t: &JType) -> bool {
    match t {
        JType::Array(e) => !matches!(e.as_ref(), JType::Array(_)),
        _ => t.is_prim() || *t == JType::string(),
    }
}

/// Whether `m`, whose result type is `ret` (as seen from the receiver), is an observer: an
/// instance method without parameters named like a getter (`size`, `getX`, `isX`, a
/// `toString` the class declares) whose result the test can assert.
fn is_observer(m: &MethodInfo, ret: Option<&JType>) -> bool {
    !m.is_static()
        && m.params.is_empty()
        && ret.is_some_and(is_observable_type)
        && is_observer_name(&m.name)
        && !OBJECT_NOISE.contains(&m.name.as_str())
        && !(m.name == "toString" && m.owner == "java.lang.Object")
}

/// `setDefault`, `setCurrentMillisFixed`: `set` and a capital.
/// A static `set*` method that changes the JVM's state (`Locale.setDefault(..)`): not one whose
/// first parameter is an array, which it sets the elements of (`Arrays.setAll(int[], ..)`).
fn is_static_setter(m: &MethodInfo) -> bool {
    m.is_static() && is_setter_name(&m.name) && !matches!(m.params.first(), Some(JType::Array(_)))
}

fn is_setter_name(n: &str) -> bool {
    n.strip_prefix("set")
        .and_then(|r| r.chars().next())
        .is_some_and(|c| c.is_ascii_uppercase())
}

fn is_observer_name(n: &str) -> bool {
    matches!(n, "size" | "count" | "length" | "toString" | "isEmpty")
        || (n.starts_with("get") && n.len() > 3)
        || (n.starts_with("is") && n.len() > 2)
}

/// `java.util.TreeMap.put(java.lang.Object,java.lang.Object)`: what --include-methods and
/// --exclude-methods match against (erased parameter types, fully qualified, as javap and the
/// JVM erase them: from the descriptor, so that `<T extends Appendable> T html(T)` is
/// `html(java.lang.Appendable)`, not `html(java.lang.Object)`).
pub fn qualified_signature(class: &str, name: &str, m: &MethodInfo) -> String {
    let erased = crate::model::signature::parse_method_descriptor(&m.descriptor)
        .ok()
        .map(|(ps, _)| ps)
        // an inner class's constructor takes its outer instance first: not a parameter here
        .filter(|ps| ps.len() >= m.params.len())
        .map(|ps| ps[ps.len() - m.params.len()..].to_vec());
    let params: Vec<String> = match erased {
        Some(ps) => ps.iter().map(|p| p.to_string()).collect(),
        None => m.params.iter().map(|p| p.erasure().to_string()).collect(),
    };
    if name == "<init>" {
        format!("{}({})", class, params.join(","))
    } else {
        format!("{}.{}({})", class, name, params.join(","))
    }
}
