//! The producer graph: for a type that some parameter needs, the public members that make a
//! value of it, simplest first — constructors of the type or of a known implementation, static
//! factories (of the type itself or of an implementation) whose result is a subtype, and public
//! static final constants (enum constants among them).
//!
//! Why in the model: every generator needs values of types that are not under test (a
//! `DateRange(LocalDate, LocalDate)` is unreachable without a `LocalDate`), and seed 000's
//! parameter generation walks the same graph; one graph here, read by `generate::ops` (and by
//! any later generator), not one per generator. It knows nothing about runs: it lists and
//! orders members, and [`load_closure`] loads the classes it mentions so that the lists are
//! complete.
//!
//! Decisions:
//! - Implementations of an interface or abstract class: the well-known JDK ones
//!   ([`default_implementation`]) and the loaded public subtypes (the model loads on demand, so
//!   these are the classes under test and whatever their signatures mention), plus static
//!   factories declared on the type itself (`List.of`, `Comparator.naturalOrder`,
//!   `Function.identity`, `ZoneId.of`).
//! - The clock and unseeded randomness are never producers ([`is_unrepeatable`]: `now()`,
//!   `new Date()`, `Calendar.getInstance()`, `new Random()`): a value made from them differs
//!   on every run, and a day-granular one passes today and fails tomorrow.
//! - Producers that open files (`new FileWriter(name)`) are for the caller to refuse: it
//!   knows which helper members it writes into tests.
//! - Complexity (seed 000's signature complexity): a constant costs 0, a call 1 plus per
//!   parameter 1 for primitives, boxes, Strings and enums, 2 for arrays, 4 for other objects.

use crate::model::classpath::{ClassPath, JdkClasses};
use crate::model::{ClassInfo, FieldInfo, JType, MethodInfo, Model, Prim, TypeArg};
use std::collections::{BTreeSet, VecDeque};

/// How deep [`load_closure`] follows parameter types of producers (a `LocalDate` needs an
/// `int`; `LocalDate.of(int, Month, int)` a `Month`, whose constants need nothing).
pub const MAX_DEPTH: usize = 3;
/// At most this many classes are loaded for producers (the JDK alone has thousands).
const MAX_LOADED: usize = 400;
/// Producers per type whose parameter types [`load_closure`] follows.
const FOLLOWED_PER_TYPE: usize = 8;

/// Implementations used when a parameter's type is an interface or abstract class that no
/// class under test implements.
pub fn default_implementation(name: &str) -> Option<&'static str> {
    Some(match name {
        "java.util.Collection"
        | "java.util.List"
        | "java.lang.Iterable"
        | "java.util.AbstractList"
        | "java.util.AbstractCollection"
        | "java.util.SequencedCollection" => "java.util.ArrayList",
        "java.util.Set" | "java.util.AbstractSet" => "java.util.LinkedHashSet",
        "java.util.SortedSet" | "java.util.NavigableSet" => "java.util.TreeSet",
        "java.util.Map" | "java.util.AbstractMap" => "java.util.LinkedHashMap",
        "java.util.SortedMap" | "java.util.NavigableMap" => "java.util.TreeMap",
        "java.util.Queue" | "java.util.Deque" => "java.util.ArrayDeque",
        "java.lang.Appendable" => "java.lang.StringBuilder",
        // In memory: a file-backed helper would write into the user's folder.
        "java.io.Writer" => "java.io.StringWriter",
        "java.io.OutputStream" => "java.io.ByteArrayOutputStream",
        "java.io.Reader" => "java.io.StringReader",
        "java.io.InputStream" => "java.io.ByteArrayInputStream",
        "java.time.temporal.TemporalAmount" => "java.time.Duration",
        "java.time.temporal.TemporalAccessor"
        | "java.time.temporal.Temporal"
        | "java.time.chrono.ChronoLocalDate" => "java.time.LocalDate",
        "java.time.chrono.ChronoLocalDateTime" => "java.time.LocalDateTime",
        "java.time.ZoneId" => "java.time.ZoneOffset",
        "java.util.Calendar" => "java.util.GregorianCalendar",
        _ => return None,
    })
}

/// What a producer is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum ProducerKind {
    /// A public static final field (an enum constant, `BigDecimal.ONE`, `ZoneOffset.UTC`).
    Constant,
    /// A public static method whose result is a subtype of the type.
    StaticFactory,
    /// A public constructor of the type or of an implementation.
    Constructor,
}

/// One member that makes a value of a type.
#[derive(Clone, Debug)]
pub struct Producer<'m> {
    pub kind: ProducerKind,
    /// The class the member is called through (the implementation for its constructors).
    pub class: String,
    /// The constructor or static method (`None` for a constant).
    pub method: Option<&'m MethodInfo>,
    /// The constant (`None` for a call).
    pub field: Option<&'m FieldInfo>,
    pub complexity: u32,
}

/// The producers of values of class `ty` (binary name), simplest first, ties in name and
/// descriptor order (so the list, and every run that reads it, is deterministic).
pub fn producers<'m>(model: &'m Model, ty: &str) -> Vec<Producer<'m>> {
    let mut out = Vec::new();
    for class in producer_classes(model, ty) {
        let Some(ci) = model.get(&class) else {
            continue;
        };
        constants(model, ci, ty, &mut out);
        factories(model, ci, ty, &mut out);
        if !ci.is_interface() && !ci.is_abstract() {
            for m in model.constructors_of(&class) {
                // (constructors_of: public, or of package access in a home package)
                if inner_free(ci) && !is_unrepeatable(&class, "<init>", &m.params) {
                    out.push(Producer {
                        kind: ProducerKind::Constructor,
                        class: class.clone(),
                        method: Some(m),
                        field: None,
                        complexity: call_complexity(model, &m.params),
                    });
                }
            }
        }
    }
    out.sort_by(|a, b| {
        (a.complexity, a.kind, &a.class, member_key(a)).cmp(&(
            b.complexity,
            b.kind,
            &b.class,
            member_key(b),
        ))
    });
    out
}

/// Name and descriptor of a producer's member, for ordering.
/// At most this many configurers per class ([`configurers`]).
pub const MAX_CONFIGURERS: usize = 24;

/// The public instance methods that configure an object of library class `class` (never the
/// JDK's, whose producers are made to be used as they are): a fluent one that returns the
/// class or a supertype of it (`CSVFormat.withHeader(String...)`, `Options.addOption(Option)`)
/// or a `void` one named like a setter or an adder (`Option.setRequired(boolean)`), declared
/// outside the JDK. Simplest first ([`call_complexity`], then name and descriptor), at most
/// [`MAX_CONFIGURERS`].
///
/// Why: an argument object is mostly made by its simplest producer and used as made
/// (`CSVFormat.DEFAULT`, an empty `new Options()`), and a fault that shows only for an argument
/// configured in a particular way is then out of reach. Of 37 Defects4J faults jforge missed,
/// 8 needed such an argument: a format with a header (Csv-7, Csv-10, Csv-11), options holding
/// a required option or one with an argument (Cli-4, Cli-9, Cli-10, Cli-11, Cli-12).
pub fn configurers<'m>(model: &'m Model, class: &str) -> Vec<&'m MethodInfo> {
    if super::release::is_jdk_class(class) {
        return Vec::new();
    }
    let me = JType::class(class);
    let mut out: Vec<&MethodInfo> = model
        .methods_of(class)
        .into_iter()
        .filter(|m| {
            m.is_public()
                && !m.is_static()
                && !super::release::is_jdk_class(&m.owner)
                && match &m.ret {
                    None => !m.params.is_empty() && is_configurer_name(&m.name),
                    Some(r) => {
                        r.class_name().is_some_and(|n| n != "java.lang.Object")
                            && model.is_subtype(&me, &r.erasure())
                            && !is_getter_name(&m.name)
                    }
                }
        })
        .collect();
    out.sort_by_cached_key(|m| {
        (
            call_complexity(model, &m.params),
            m.name.clone(),
            m.descriptor.clone(),
        )
    });
    out.truncate(MAX_CONFIGURERS);
    out
}

/// `setRequired`, `addOption`, `withHeader`, `putAll`, `enableX`: a `void` method so named
/// changes the object it is called on.
fn is_configurer_name(n: &str) -> bool {
    [
        "set", "add", "put", "with", "enable", "disable", "register", "append", "use",
    ]
    .iter()
    .any(|p| n.starts_with(p))
}

/// `getParent()`, `copy()`: a method that returns another object of the class rather than
/// the one it was called on, configured.
fn is_getter_name(n: &str) -> bool {
    let after = |p: &str| {
        n.strip_prefix(p)
            .and_then(|r| r.chars().next())
            .is_some_and(|c| c.is_ascii_uppercase())
    };
    after("get")
        || after("is")
        || after("to")
        || after("as")
        || matches!(
            n,
            "clone" | "copy" | "get" | "build" | "create" | "parent" | "root"
        )
}

fn member_key<'a>(p: &'a Producer) -> (&'a str, &'a str) {
    match (p.method, p.field) {
        (Some(m), _) => (&m.name, &m.descriptor),
        (None, Some(f)) => (&f.name, &f.descriptor),
        _ => ("", ""),
    }
}

/// A member class that needs no outer instance (a top-level class or a static member).
fn inner_free(ci: &ClassInfo) -> bool {
    !matches!(
        ci.nesting,
        crate::model::Nesting::Member {
            is_static: false,
            ..
        } | crate::model::Nesting::Local
    )
}

/// The accessible classes whose members may produce `ty`: itself, its well-known
/// implementation, its loaded public subtypes (at most 8, by name).
fn producer_classes(model: &Model, ty: &str) -> Vec<String> {
    let mut out = vec![ty.to_string()];
    if let Some(d) = default_implementation(ty) {
        out.push(d.to_string());
    }
    let is_open = model
        .get(ty)
        .is_some_and(|c| c.is_interface() || c.is_abstract());
    if is_open {
        out.extend(
            model
                .subtypes(ty)
                .into_iter()
                .filter(|s| model.get(s).is_some_and(|c| !c.is_interface()))
                .take(8),
        );
    }
    out.dedup();
    out.retain(|c| model.is_accessible(c));
    out
}

/// The public static final fields of `ci` (in a home package also those of package access,
/// `Model::set_home_packages`) whose type is a subtype of `ty`.
fn constants<'m>(model: &'m Model, ci: &'m ClassInfo, ty: &str, out: &mut Vec<Producer<'m>>) {
    for f in &ci.fields {
        let is_const =
            model.member_usable(f.access, &f.owner, &ci.name) && f.is_static() && f.is_final();
        if is_const && f.ty.class_name().is_some_and(|n| is_subclass(model, n, ty)) {
            out.push(Producer {
                kind: ProducerKind::Constant,
                class: ci.name.clone(),
                method: None,
                field: Some(f),
                complexity: 0,
            });
        }
    }
}

/// The public static methods declared in `ci` (in a home package also those of package
/// access) whose result is a subtype of `ty`, less the
/// clock's `now` family.
fn factories<'m>(model: &'m Model, ci: &'m ClassInfo, ty: &str, out: &mut Vec<Producer<'m>>) {
    for m in &ci.methods {
        let returns_ty = m
            .ret
            .as_ref()
            .and_then(|r| r.class_name())
            .is_some_and(|n| is_subclass(model, n, ty));
        if model.member_usable(m.access, &m.owner, &ci.name)
            && m.is_static()
            && returns_ty
            && !reads_clock(m)
            && !is_unrepeatable(&ci.name, &m.name, &m.params)
        {
            out.push(Producer {
                kind: ProducerKind::StaticFactory,
                class: ci.name.clone(),
                method: Some(m),
                field: None,
                complexity: call_complexity(model, &m.params),
            });
        }
    }
}

/// `now()`, `now(ZoneId)`, `now(Clock)` and the like: a value of the moment.
fn reads_clock(m: &MethodInfo) -> bool {
    m.name.starts_with("now")
}

/// JDK members whose value depends on the moment or on an unseeded random source: the clock
/// (`new Date()`, `Calendar.getInstance()`, `new GregorianCalendar()`, `Clock.systemUTC()`,
/// the `now` family) and `new Random()`, `UUID.randomUUID()`, `SecureRandom`. A test
/// built on one would assert today's values (day-granular dates pass today and fail
/// tomorrow), so they are never used to make arguments. `name` is `<init>` for constructors.
pub fn is_unrepeatable(class: &str, name: &str, params: &[JType]) -> bool {
    let no_moment_given = !params.iter().any(JType::is_prim);
    name.starts_with("now")
        || match (class, name) {
            ("java.util.Date" | "java.sql.Date" | "java.sql.Timestamp", "<init>") => {
                params.is_empty()
            }
            ("java.util.GregorianCalendar", "<init>") => no_moment_given,
            ("java.util.Calendar", "getInstance") => true,
            ("java.time.Clock", _) => name.starts_with("system"),
            ("java.util.Random" | "java.util.SplittableRandom", "<init>") => params.is_empty(),
            ("java.security.SecureRandom", _) => true,
            ("java.util.UUID", "randomUUID") => true,
            _ => false,
        }
}

/// Whether class `sub` is `sup` or one of its (loaded) subtypes.
fn is_subclass(model: &Model, sub: &str, sup: &str) -> bool {
    sub == sup || model.supertypes(sub).iter().any(|s| s == sup)
}

/// Seed 000's signature complexity of a call: 1 for the call, plus each parameter's cost
/// (`params` orders the methods it processes by it, `ops` the producers it takes).
pub fn call_complexity(model: &Model, params: &[JType]) -> u32 {
    1 + params.iter().map(|p| param_cost(model, p)).sum::<u32>()
}

fn param_cost(model: &Model, p: &JType) -> u32 {
    match p {
        JType::Prim(_) => 1,
        JType::Array(_) => 2,
        JType::Class { name, .. }
            if name == "java.lang.String"
                || Prim::unboxed(name).is_some()
                || model
                    .get(name)
                    .is_some_and(|c| c.access & crate::model::access::ENUM != 0) =>
        {
            1
        }
        _ => 4,
    }
}

/// Classes named by a type, type arguments and array elements included.
pub fn collect_classes(t: &JType, out: &mut BTreeSet<String>) {
    match t {
        JType::Class { name, args } => {
            out.insert(name.clone());
            for a in args {
                if let TypeArg::Type(t) | TypeArg::Extends(t) | TypeArg::Super(t) = a {
                    collect_classes(t, out)
                }
            }
        }
        JType::Array(e) => collect_classes(e, out),
        _ => {}
    }
}

/// The classes the members of `classes` mention (parameters and results) and their
/// well-known implementations: the first layer of the graph.
pub fn mentioned_classes(model: &Model, classes: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for c in classes {
        let Some(ci) = model.get(c) else { continue };
        for m in ci.constructors.iter().chain(model.methods_of(c)) {
            for p in m.params.iter().chain(m.ret.iter()) {
                collect_classes(p, &mut out);
            }
        }
    }
    let extra: Vec<String> = out
        .iter()
        .filter_map(|n| default_implementation(n).map(str::to_string))
        .collect();
    out.extend(extra);
    out
}

/// Loads the classes the graph needs for the members of `classes`: the classes their
/// signatures mention, and, [`MAX_DEPTH`] levels deep, the classes the simplest producers of
/// those take as parameters. A class that cannot be read is left out (it only supplies
/// arguments); at most [`MAX_LOADED`] classes.
/// `also`: more types whose producers are wanted (the classes a method tests its arguments
/// against), loaded first like the mentioned ones.
pub fn load_closure(
    model: &mut Model,
    cp: &ClassPath,
    jdk: &mut dyn JdkClasses,
    classes: &[String],
    also: &[String],
) {
    load_closure_seeded(model, cp, jdk, classes, also, MAX_LOADED)
}

/// [`load_closure`] with another budget: `params` calls every method of a package (`java.util`
/// mentions over 400 classes in its signatures, and a parameter type left unloaded has no
/// producer), where `gen` keeps the default for its start-up time.
pub fn load_closure_up_to(
    model: &mut Model,
    cp: &ClassPath,
    jdk: &mut dyn JdkClasses,
    classes: &[String],
    max_loaded: usize,
) {
    load_closure_seeded(model, cp, jdk, classes, &[], max_loaded)
}

fn load_closure_seeded(
    model: &mut Model,
    cp: &ClassPath,
    jdk: &mut dyn JdkClasses,
    classes: &[String],
    also: &[String],
    max_loaded: usize,
) {
    let mut first = mentioned_classes(model, classes);
    for a in also {
        first.insert(a.clone());
        if let Some(d) = default_implementation(a) {
            first.insert(d.to_string());
        }
    }
    for c in classes {
        subclassing_types(model, c, &mut first);
    }
    let mut queue: VecDeque<(String, usize)> = first.into_iter().map(|c| (c, 1)).collect();
    let mut seen: BTreeSet<String> = queue.iter().map(|(c, _)| c.clone()).collect();
    let mut loaded = 0;
    while let Some((class, depth)) = queue.pop_front() {
        if loaded >= max_loaded {
            break;
        }
        if !matches!(model.load(cp, jdk, &class), Ok(Some(_))) {
            continue;
        }
        loaded += 1;
        let mut next = BTreeSet::new();
        if let Some(d) = default_implementation(&class) {
            next.insert(d.to_string());
        }
        subclassing_types(model, &class, &mut next);
        if depth < MAX_DEPTH {
            for p in producers(model, &class).iter().take(FOLLOWED_PER_TYPE) {
                for t in p.method.iter().flat_map(|m| m.params.iter()) {
                    collect_classes(t, &mut next);
                }
            }
            // what a configured argument is configured with (`Options.addOption(Option)`)
            for m in configurers(model, &class) {
                for t in &m.params {
                    collect_classes(t, &mut next);
                }
            }
        }
        for n in next {
            if seen.insert(n.clone()) {
                queue.push_back((n, depth + 1));
            }
        }
    }
}

/// The classes an anonymous subclass of abstract class (or interface) `class` names: in its
/// constructors and in the abstract methods of it and its supertypes, protected and package
/// ones included (`Model::subclassing` must find them loaded: `ForwardingBag`'s protected
/// `List<String> delegate()`).
fn subclassing_types(model: &Model, class: &str, out: &mut BTreeSet<String>) {
    let Some(ci) = model.get(class) else {
        return;
    };
    if !ci.is_abstract() && !ci.is_interface() {
        return;
    }
    let private = |m: &&MethodInfo| m.access & crate::model::access::PRIVATE != 0;
    let mut members: Vec<&MethodInfo> = ci.constructors.iter().filter(|m| !private(m)).collect();
    for s in std::iter::once(class.to_string()).chain(model.supertypes(class)) {
        if let Some(k) = model.get(&s) {
            members.extend(k.methods.iter().filter(|m| m.is_abstract() && !private(m)));
        }
    }
    for m in members {
        for t in m.params.iter().chain(&m.ret) {
            collect_classes(t, out);
        }
    }
}

/// Binds the type variables of `pattern` (a factory's result type, say `ArrayList<E>`) so that
/// it is `target` or a subtype of it (`List<String>`): appends the bindings (`E = String`) to
/// `out`; false when no binding makes it fit. Wildcards in `target` are met by their bound.
pub fn unify(
    model: &Model,
    pattern: &JType,
    target: &JType,
    out: &mut Vec<(String, JType)>,
) -> bool {
    match (pattern, target) {
        (JType::Var(v), t) => match out.iter().find(|(n, _)| n == v) {
            Some((_, bound)) => bound == t,
            None if t.is_concrete() => {
                out.push((v.clone(), t.clone()));
                true
            }
            None => false,
        },
        (JType::Array(p), JType::Array(t)) => unify(model, p, t, out),
        (JType::Class { .. }, JType::Class { name: tn, args: ta }) => {
            let Some(JType::Class { args: pa, .. }) = model.as_super(pattern, tn) else {
                return false;
            };
            if ta.is_empty() || pa.is_empty() {
                return true;
            }
            pa.len() == ta.len()
                && pa.iter().zip(ta).all(|(p, t)| match (p, t) {
                    (_, TypeArg::Any) => true,
                    (
                        TypeArg::Type(p),
                        TypeArg::Type(t) | TypeArg::Extends(t) | TypeArg::Super(t),
                    ) => unify(model, p, t, out),
                    (p, t) => p == t,
                })
        }
        (p, t) => p == t,
    }
}
