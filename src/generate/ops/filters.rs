//! Which members are worth calling or observing: identity and thread noise, `Throwable`'s
//! own machinery, constructors that open files, static setters, observers by name and result
//! type; and the signature --include-methods and --exclude-methods match against.

use super::values::is_literal_type;
use crate::model::{JType, MethodInfo};

/// Methods never worth calling in a test (identity-based or thread-related).
pub(super) const OBJECT_NOISE: &[&str] = &[
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
pub(super) fn is_inherited_throwable_noise(m: &MethodInfo) -> bool {
    m.owner == "java.lang.Throwable"
        && !matches!(
            m.name.as_str(),
            "getMessage" | "getLocalizedMessage" | "getCause" | "toString"
        )
}

/// `java.lang.Enum`'s final methods, inherited by every enum under test (`ordinal()`,
/// `name()`, `compareTo`, `getDeclaringClass()`, `describeConstable()`, `equals`), its static
/// `valueOf(Class, String)`, and the `values()` and `valueOf(String)` the compiler writes into
/// every enum (`is_enum` says `class`, whose members these are, is one; `keep_enum_members`
/// keeps these last three, for `params`): their results are the JDK's and the
/// declaration order, not the enum's own behaviour. A test of them pins the JDK
/// (`QuoteMode.valueOf("ALLOW_ALL")` throwing IllegalArgumentException, issue 33); EvoSuite
/// leaves the same members out. (Inherited `Object.equals`, identity, was left out too and
/// dropped again: the random stream it moved made re-runs of an unchanged class add tests,
/// 57 of 361 lines on tests/subjects/rerun.)
pub(super) fn is_inherited_jdk_behaviour(
    class: &str,
    m: &MethodInfo,
    is_enum: bool,
    keep_enum_members: bool,
) -> bool {
    let from_enum = m.owner == "java.lang.Enum" && class != "java.lang.Enum";
    let final_method = from_enum
        && matches!(
            m.name.as_str(),
            "ordinal" | "name" | "compareTo" | "getDeclaringClass" | "describeConstable" | "equals"
        );
    final_method
        || (!keep_enum_members
            && ((from_enum && m.name == "valueOf") || (is_enum && is_implicit_enum_member(m))))
        || inherited_jdk_static(class, m)
}

/// A static method of a JDK class that a class of the user's inherits
/// (`ExtendedBufferedReader.nullReader()`, `Reader`'s; `MyThread.sleep(long)`): calling it
/// tests the JDK, not the class. Worse, as an operation of the class under test it made its
/// result type count as made, so the producer graph gave that type nothing else: Commons
/// CSV's `ExtendedBufferedReader(Reader)` got only `Reader.nullReader()`, never a
/// `StringReader` with content, and its line counting was never checked (Defects4J Csv-1).
fn inherited_jdk_static(class: &str, m: &MethodInfo) -> bool {
    use crate::model::release::is_jdk_class;
    // (Enum's static valueOf(Class, String) is decided above, kept for `params`)
    m.is_static()
        && m.owner != class
        && m.owner != "java.lang.Enum"
        && is_jdk_class(&m.owner)
        && !is_jdk_class(class)
}

/// The `values()` and `valueOf(String)` javac declares in every enum (JLS 8.9.3), told apart
/// from a method the enum declares itself by their exact descriptors.
fn is_implicit_enum_member(m: &MethodInfo) -> bool {
    let own = format!("L{};", m.owner.replace('.', "/"));
    m.is_static()
        && match m.name.as_str() {
            "values" => m.descriptor == format!("()[{own}"),
            "valueOf" => m.descriptor == format!("(Ljava/lang/String;){own}"),
            _ => false,
        }
}

/// Whether a constructor of JDK class `class` with these parameters opens (and so creates) a
/// file: `new PrintWriter("only")`, `new FileOutputStream(name)`. Helper classes never use
/// those: a test calling them writes into whatever folder the build runs it in.
pub(super) fn opens_a_file(class: &str, params: &[JType]) -> bool {
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

/// Parameters a helper class's member may take: literal types, or the helper's own type
/// arguments (so `ArrayList<String>.add(String)` qualifies).
pub(super) fn is_easy(p: &JType) -> bool {
    is_literal_type(p) || matches!(p, JType::Var(_)) || *p == JType::object()
}

/// What an observer may return: a primitive, a String, or an array of primitives or of
/// references (the worker reports an array's contents when they are values, and the test
/// asserts them with `assertArrayEquals`).
pub(super) fn is_observable_type(t: &JType) -> bool {
    match t {
        JType::Array(e) => !matches!(e.as_ref(), JType::Array(_)),
        _ => t.is_prim() || *t == JType::string(),
    }
}

/// Whether `m`, whose result type is `ret` (as seen from the receiver), is an observer: an
/// instance method without parameters named like a getter (`size`, `getX`, `isX`, a
/// `toString` the class declares) whose result the test can assert.
pub(super) fn is_observer(m: &MethodInfo, ret: Option<&JType>) -> bool {
    !m.is_static()
        && m.params.is_empty()
        && ret.is_some_and(is_observable_type)
        && is_observer_name(&m.name)
        && !OBJECT_NOISE.contains(&m.name.as_str())
        && !(m.name == "toString" && m.owner == "java.lang.Object")
}

/// A static `set*` method that changes the JVM's state (`Locale.setDefault(..)`): not one whose
/// first parameter is an array, which it sets the elements of (`Arrays.setAll(int[], ..)`).
pub(super) fn is_static_setter(m: &MethodInfo) -> bool {
    m.is_static() && is_setter_name(&m.name) && !matches!(m.params.first(), Some(JType::Array(_)))
}

/// `setDefault`, `setCurrentMillisFixed`: `set` and a capital.
pub(super) fn is_setter_name(n: &str) -> bool {
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

/// Whether class `class` has another method of `m`'s name and arity (a call of it then
/// casts its `null` arguments so that javac picks the right one).
pub(super) fn is_overloaded(model: &crate::model::Model, class: &str, m: &MethodInfo) -> bool {
    model
        .methods_of(class)
        .iter()
        .filter(|o| o.name == m.name && o.params.len() == m.params.len())
        .count()
        > 1
}
