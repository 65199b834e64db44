//! Seed 000's exception handlers: from the exception an attempt threw, the next plans to
//! try. Each handler changes few decisions of the failed [`Plan`]; the search runs the
//! proposals in order until one completes or the method's retry limit is spent.
//!
//! Handlers (the seed's three, and the ones its list of frequent exceptions asks for):
//! - `index` (IndexOutOfBounds and its array/String kinds): integral arguments `v_i >= 0`,
//!   non-decreasing, with a sum below R, the smallest container length; then their
//!   permutations; with no container of a positive length, the containers are filled first.
//! - `cast` (ClassCastException, ArrayStoreException): `Object` arguments replaced by a value
//!   of the declaring class, of the type parameters' bounds, an Integer, then other classes.
//! - `state` (NoSuchElement, IllegalState, EmptyStack, BufferUnderflow): the relative
//!   operation (`add`, `push`, `put`, ...) on the receiver first, else another receiver.
//!   A receiver made from a String is made again from a token (`new Scanner("1")` for
//!   `nextInt()`).
//! - `number-format`: String arguments replaced by numbers in the forms parsers read, with
//!   the integral arguments as the range and radix of the number (`parseInt(s, 0, 2, 10)`).
//! - `value-search` (IllegalArgument and its kinds, Arithmetic, DateTime): first the values
//!   of the same class family that earlier calls made (the inverse operation: `decode` after
//!   `encode`, `parse` after `toString`); then one literal at a time replaced by values the
//!   method compared its arguments against, class constants, boundaries, and for Strings the
//!   names of the class in play and well-known JDK names (`known_strings`).
//! - `unsupported` (UnsupportedOperation, ReadOnlyBuffer): a receiver of another class.
//! - `null-pointer`: no null argument; another receiver (one built with fewer defaults).
//! - `member` (NoSuchMethod, NoSuchField): empty parameter-type arrays, the names of the
//!   class in play.
//! - `other`: any other `Exception`: another receiver, then the value search.
//!
//! Errors (`OutOfMemoryError`, `StackOverflowError`), time-outs and crashed JVMs are not
//! handled: the seed handles `Exception`s only, and a method that exits the JVM or hangs is
//! not retried (each attempt would cost a JVM start or a call time-out).
//!
//! Exception kinds are matched by name (the JDK's subclasses listed), not through the model:
//! the search has no class path at hand, and the classes thrown are the JDK's.

use super::plan::{Arg, FILL, Kit, Plan, Repo};
use super::values::{self, NUMERIC_STRINGS, integral, is_integral, prim_of};
use crate::model::{JType, Model};
use crate::sequence::{OpId, OpTable, Value};

/// What a handler needs besides the failed plan.
pub struct Cx<'a> {
    pub model: &'a Model,
    pub table: &'a OpTable,
    pub repo: &'a mut Repo,
    pub kit: &'a mut Kit,
    pub op: OpId,
    /// Integral and String constants of the declaring class and its supertypes.
    pub constants: &'a (Vec<i64>, Vec<String>),
    /// Numbers the method compared its arguments against (comparison logging).
    pub compared: &'a [i64],
}

/// The handler for an exception class (binary name), `None` for errors.
pub fn handler_for(class: &str) -> Option<&'static str> {
    let simple = class.rsplit('.').next().unwrap_or(class);
    Some(match simple {
        "IndexOutOfBoundsException"
        | "ArrayIndexOutOfBoundsException"
        | "StringIndexOutOfBoundsException" => "index",
        "ClassCastException" | "ArrayStoreException" => "cast",
        "NoSuchElementException"
        | "InputMismatchException"
        | "IllegalStateException"
        | "EmptyStackException"
        | "BufferUnderflowException"
        | "BufferOverflowException" => "state",
        "NumberFormatException" => "number-format",
        "NoSuchMethodException" | "NoSuchFieldException" => "member",
        "UnsupportedOperationException" | "ReadOnlyBufferException" => "unsupported",
        "NullPointerException" => "null-pointer",
        s if s.ends_with("Error") => return None,
        s if s.contains("IllegalArgument")
            || s.starts_with("Illegal")
            || s == "ArithmeticException"
            || s == "DateTimeException"
            || s == "PatternSyntaxException"
            || s == "NegativeArraySizeException" =>
        {
            "value-search"
        }
        _ => "other",
    })
}

/// The plans `handler` proposes after `plan` failed, best first.
pub fn propose(cx: &mut Cx, handler: &str, plan: &Plan) -> Vec<Plan> {
    match handler {
        "index" => index(cx, plan),
        "cast" => cast(cx, plan),
        "state" => state(cx, plan),
        "number-format" => {
            // a number (with its range and radix), then the other literals with it
            let mut out = number_ranges(plan);
            out.extend(strings(plan, NUMERIC_STRINGS));
            if let Some(first) = out.first().cloned() {
                out.extend(value_search(cx, &first));
            }
            out
        }
        "unsupported" => {
            // an immutable receiver, or an immutable argument a static method writes into
            // (`Collections.fill(List.of(..), x)`)
            let mut out = other_receivers(cx, plan, true);
            out.extend(other_made_args(cx, plan, true));
            out
        }
        "null-pointer" => null_pointer(cx, plan),
        "member" => member(cx, plan),
        "setup" => setup(cx, plan),
        "value-search" => {
            let mut out = family_values(cx, plan);
            out.extend(subtype_class_literals(cx, plan));
            out.extend(value_search(cx, plan));
            out
        }
        _ => {
            // the family's values last here: a String another call returned may hold the
            // search JVM's defaults (`Locale.toString()`), so a value found by the search
            // itself is preferred where one works
            let mut out = other_receivers(cx, plan, false);
            out.extend(value_search(cx, plan));
            out.extend(family_values(cx, plan));
            out
        }
    }
}

/// Plans with every container (receiver and made arguments) given `FILL` more elements.
fn filled(cx: &mut Cx, plan: &Plan) -> Option<Plan> {
    let mut p = plan.clone();
    let mut changed = false;
    if let Some((idx, fill)) = &mut p.receiver
        && cx
            .kit
            .relative(cx.model, cx.table, &cx.repo.made[*idx].ty)
            .is_some()
    {
        *fill += FILL;
        changed = true;
    }
    for a in &mut p.args {
        if let Arg::Made { idx, fill } = a
            && cx
                .kit
                .relative(cx.model, cx.table, &cx.repo.made[*idx].ty)
                .is_some()
        {
            *fill += FILL;
            changed = true;
        }
    }
    changed.then_some(p)
}

/// Seed 000's index rule: `v_i >= 0`, non-decreasing, sum < R; then permutations.
fn index(cx: &mut Cx, plan: &Plan) -> Vec<Plan> {
    let ints = plan.int_positions();
    let r = plan.container_length(cx.repo).unwrap_or(0);
    let mut base = plan.clone();
    if r <= 1 || ints.is_empty() {
        match filled(cx, plan) {
            Some(p) => base = p,
            None if ints.is_empty() => return Vec::new(),
            None => {}
        }
    }
    // no container at all (`Objects.checkIndex(int, int)`): the index is below another
    // argument, as if a container of FILL elements
    let r = match base.container_length(cx.repo) {
        Some(l) => l,
        None if r == 0 => FILL as i64,
        None => r,
    }
    .max(1);
    let vectors = index_vectors(ints.len(), r);
    let mut out: Vec<Plan> = Vec::new();
    for v in vectors {
        let mut p = base.clone();
        for (&pos, x) in ints.iter().zip(v) {
            if let Arg::Lit(t, val) = &mut p.args[pos] {
                *val = integral(prim_of(t).unwrap_or(crate::model::Prim::Int), x);
            }
        }
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// Non-decreasing vectors of `n` values `>= 0` with a sum below `r`, simplest first, each
/// followed by its reverse (the seed's permutations), at most 8.
pub fn index_vectors(n: usize, r: i64) -> Vec<Vec<i64>> {
    let mut out: Vec<Vec<i64>> = Vec::new();
    let mut add = |v: Vec<i64>| {
        if v.iter().sum::<i64>() < r && !out.contains(&v) {
            out.push(v);
        }
    };
    add(vec![0; n]);
    if n > 0 {
        for last in [1, r - 1, r / 2] {
            let mut v = vec![0; n];
            v[n - 1] = last.max(0);
            add(v);
        }
        add((0..n as i64).collect());
        add(vec![1; n]);
    }
    let forward = out.clone();
    for v in forward {
        let mut rev = v.clone();
        rev.reverse();
        if !out.contains(&rev) {
            out.push(rev);
        }
    }
    out.truncate(8);
    out
}

/// ClassCastException: the `Object`-like arguments replaced by values of the declaring
/// class, of the receiver's type parameters' bounds, an Integer, other made classes.
fn cast(cx: &mut Cx, plan: &Plan) -> Vec<Plan> {
    let op = cx.table.get(cx.op).clone();
    let positions: Vec<usize> = (0..plan.args.len())
        .filter(|&i| {
            op.params
                .get(i)
                .is_some_and(|p| !matches!(p, JType::Prim(_)) && p.erasure() == JType::object())
        })
        .collect();
    if positions.is_empty() {
        return other_receivers(cx, plan, true);
    }
    let mut values: Vec<Arg> = Vec::new();
    let mut wanted = vec![op.owner.clone()];
    wanted.extend(bounds(cx.model, &op.class));
    for w in &wanted {
        if let Some(&i) = cx.repo.fits(cx.model, w).first() {
            values.push(Arg::Made { idx: i, fill: 0 });
        }
    }
    values.push(Arg::Lit(JType::class("java.lang.Integer"), Value::Int(1)));
    // other classes: those the declaring class names in its signatures first (a cast is
    // to a type the class knows)
    let mentioned =
        crate::model::producers::mentioned_classes(cx.model, std::slice::from_ref(&op.class));
    let mut classes: Vec<usize> = cx.repo.fits(cx.model, &JType::object()).to_vec();
    classes.sort_by_key(|&i| !mentioned.contains(cx.repo.made[i].class.as_ref()));
    let mut seen = std::collections::BTreeSet::new();
    for i in classes {
        if seen.insert(cx.repo.made[i].class.clone()) && seen.len() <= 4 {
            values.push(Arg::Made { idx: i, fill: 0 });
        }
    }
    values
        .into_iter()
        .map(|v| {
            let mut p = plan.clone();
            for &pos in &positions {
                p.args[pos] = v.clone();
            }
            p
        })
        .collect()
}

/// The bounds of the type parameters of `class` (`DelayQueue<E extends Delayed>`: Delayed).
fn bounds(model: &Model, class: &str) -> Vec<JType> {
    model
        .get(class)
        .map(|ci| {
            ci.type_params
                .iter()
                .flat_map(|tp| tp.bounds.iter())
                .filter(|b| b.is_concrete() && **b != JType::object())
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

/// NoSuchElement, IllegalState: the relative operation on the receiver first, then the
/// receiver made again from tokens, then other receivers.
fn state(cx: &mut Cx, plan: &Plan) -> Vec<Plan> {
    let mut out: Vec<Plan> = filled(cx, plan).into_iter().collect();
    out.extend(respelled_receivers(cx, plan));
    out.extend(other_receivers(cx, plan, false));
    out
}

/// Tokens a receiver made from Strings is made again from when a reading method found
/// nothing it could read: a number in every parser's form, a boolean.
const TOKENS: &[&str] = &["1", "true"];

/// The receiver made again with each of [`TOKENS`] for every String of its sequence
/// (`new Scanner("abc")` threw on `nextInt()`: `new Scanner("1")`), at most one receiver per
/// token (`Repo::respelled`).
fn respelled_receivers(cx: &mut Cx, plan: &Plan) -> Vec<Plan> {
    let Some((idx, fill)) = plan.receiver else {
        return Vec::new();
    };
    TOKENS
        .iter()
        .filter_map(|t| cx.repo.respelled(idx, t))
        .map(|i| Plan {
            receiver: Some((i, fill)),
            args: plan.args.clone(),
        })
        .collect()
}

/// A number's String with the integral arguments as its range and radix (`parseInt(
/// CharSequence, begin, end, radix)`: `("12", 0, 2, 10)`): the last integral argument 10, the
/// one before it the String's length, the others 0. Only with two integral arguments or more.
fn number_ranges(plan: &Plan) -> Vec<Plan> {
    let ints = plan.int_positions();
    let has_string = plan
        .args
        .iter()
        .any(|a| matches!(a, Arg::Lit(_, Value::Str(_))));
    if ints.len() < 2 || !has_string {
        return Vec::new();
    }
    ["12", "1"]
        .iter()
        .flat_map(|s| strings(plan, &[s]))
        .map(|mut p| {
            let len = p.container_length_of_strings();
            for (k, &pos) in ints.iter().enumerate() {
                let v = match ints.len() - k {
                    1 => 10,
                    2 => len,
                    _ => 0,
                };
                if let Arg::Lit(t, val) = &mut p.args[pos] {
                    *val = integral(prim_of(t).unwrap_or(crate::model::Prim::Int), v);
                }
            }
            p
        })
        .collect()
}

/// The inverse operation, which seed 000 had not: for each argument that is not a primitive,
/// the values that calls of the same class family made (operations of a class with the same
/// top-level class, not this one), at most 3 per argument: `Base64.Decoder.decode(byte[])`
/// gets what `Base64.Encoder.encode(byte[])` returned, `UUID.fromString` what
/// `UUID.toString()` did.
fn family_values(cx: &mut Cx, plan: &Plan) -> Vec<Plan> {
    let op = cx.table.get(cx.op).clone();
    let family = top_level(&op.class);
    let mut out = Vec::new();
    for (pos, p) in op.params.iter().enumerate() {
        if matches!(p, JType::Prim(_)) || pos >= plan.args.len() {
            continue;
        }
        let fits = cx.repo.fits(cx.model, p).to_vec();
        let kin = fits
            .into_iter()
            .filter(|&i| {
                let producer = cx.repo.made[i].producer;
                producer != cx.op
                    && (producer as usize) < cx.table.len()
                    && top_level(&cx.table.get(producer).class) == family
            })
            .take(3);
        for i in kin {
            let mut np = plan.clone();
            np.args[pos] = Arg::Made { idx: i, fill: 0 };
            if np != *plan {
                out.push(np);
            }
        }
    }
    out
}

/// Each class literal argument replaced by one of its public subtypes, at most 3 (`Class<A
/// extends Annotation>` got `Annotation.class`, which is no annotation type:
/// `getAnnotationsByType(Deprecated.class)`).
fn subtype_class_literals(cx: &mut Cx, plan: &Plan) -> Vec<Plan> {
    let mut out = Vec::new();
    for (pos, a) in plan.args.iter().enumerate() {
        let Arg::Lit(t, Value::Class(x)) = a else {
            continue;
        };
        let Some(name) = x.class_name() else { continue };
        let mut subs = cx.model.subtypes(name);
        subs.sort();
        for sub in subs
            .into_iter()
            .filter(|s| s != name && cx.model.is_accessible(s))
            .take(3)
        {
            let mut p = plan.clone();
            p.args[pos] = Arg::Lit(t.clone(), Value::Class(JType::class(&sub)));
            out.push(p);
        }
    }
    out
}

/// NoSuchMethod, NoSuchField (reflection by name): the arrays of parameter types emptied
/// (`getConstructor()`), with each String the names of the class in play (`getMethod("hashCode",
/// new Class<?>[] {})`: a method without parameters), then the names alone.
fn member(cx: &mut Cx, plan: &Plan) -> Vec<Plan> {
    let mut empty = plan.clone();
    for a in &mut empty.args {
        if let Arg::Array { items, .. } = a {
            items.clear();
        }
    }
    let names = known_strings(cx, plan);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut out = Vec::new();
    if empty != *plan {
        out.push(empty.clone());
    }
    out.extend(strings(&empty, &names));
    out.extend(strings(plan, &names));
    out
}

/// The top-level class of a binary name (`java.util.Base64$Decoder`: `java.util.Base64`).
fn top_level(class: &str) -> &str {
    class.split('$').next().unwrap_or(class)
}

/// Strings a refused String may be instead, most specific first: the names of the class in
/// play (the `X` of a `Class<X>` receiver or class literal argument: its first enum constant,
/// public fields, public no-argument methods: `Enum.valueOf(UnicodeScript.class, "COMMON")`,
/// `String.class.getField("CASE_INSENSITIVE_ORDER")`), then the JDK's well-known names a
/// String parameter often is: a charset (`UTF-8`: `String.getBytes(String)`, `new
/// Formatter(OutputStream, String)`) and a class (`java.lang.String`: `Class.forName`,
/// `ClassLoader.loadClass`).
fn known_strings(cx: &Cx, plan: &Plan) -> Vec<String> {
    let mut classes: Vec<JType> = Vec::new();
    if let Some((idx, _)) = plan.receiver
        && let JType::Class { name, args } = &cx.repo.made[idx].ty
        && name == "java.lang.Class"
        && let Some(crate::model::TypeArg::Type(x)) = args.first()
    {
        classes.push(x.clone());
    }
    for a in &plan.args {
        if let Arg::Lit(_, Value::Class(x)) = a {
            classes.push(x.clone());
        }
    }
    let mut out: Vec<String> = Vec::new();
    for name in classes.iter().filter_map(JType::class_name) {
        if let Some(ci) = cx.model.get(name) {
            out.extend(ci.enum_constants.iter().take(1).cloned());
        }
        out.extend(
            cx.model
                .fields_of(name)
                .iter()
                .take(2)
                .map(|f| f.name.clone()),
        );
        out.extend(
            cx.model
                .methods_of(name)
                .iter()
                .filter(|m| m.params.is_empty() && m.is_public())
                .take(1)
                .map(|m| m.name.clone()),
        );
    }
    out.extend(["UTF-8", "java.lang.String"].map(String::from));
    out.dedup();
    out
}

/// Every String argument replaced by each of `strings`.
fn strings(plan: &Plan, strings: &[&str]) -> Vec<Plan> {
    let positions: Vec<usize> = (0..plan.args.len())
        .filter(|&i| matches!(&plan.args[i], Arg::Lit(_, Value::Str(_))))
        .collect();
    if positions.is_empty() {
        return Vec::new();
    }
    strings
        .iter()
        .map(|s| {
            let mut p = plan.clone();
            for &pos in &positions {
                if let Arg::Lit(_, v) = &mut p.args[pos] {
                    *v = Value::Str(s.to_string());
                }
            }
            p
        })
        .collect()
}

/// The receiver replaced by the next made values (of another run-time class when
/// `other_class`), at most 3; none built on a lambda (its answers are defaults: a `Scanner`
/// reading from a lambda that returns 0 characters makes `nextInt()` wait forever, where the
/// `Scanner("abc")` that threw was the better receiver).
fn other_receivers(cx: &mut Cx, plan: &Plan, other_class: bool) -> Vec<Plan> {
    let Some((cur, _)) = plan.receiver else {
        return Vec::new();
    };
    let owner = cx.table.get(cx.op).owner.clone();
    let class = cx.repo.made[cur].class.clone();
    let fits = cx.repo.fits(cx.model, &owner).to_vec();
    fits.into_iter()
        .filter(|&i| i != cur && (!other_class || cx.repo.made[i].class != class))
        .filter(|&i| !cx.repo.made[i].seq.has_lambda())
        .take(3)
        .map(|i| {
            let mut p = plan.clone();
            let empty = cx.repo.made[i].size == Some(0);
            p.receiver = Some((i, if empty { FILL } else { 0 }));
            p
        })
        .collect()
}

/// NullPointerException: null arguments replaced by values, then other receivers and other
/// made arguments.
fn null_pointer(cx: &mut Cx, plan: &Plan) -> Vec<Plan> {
    let mut out = Vec::new();
    let mut p = plan.clone();
    let mut changed = false;
    for a in &mut p.args {
        if let Arg::Null(t) = a {
            if let Some(&i) = cx.repo.fits(cx.model, t).first() {
                *a = Arg::Made { idx: i, fill: 0 };
                changed = true;
            } else if cx.model.is_subtype(&JType::string(), t) {
                *a = Arg::Lit(JType::string(), Value::Str("abc".into()));
                changed = true;
            }
        }
    }
    if changed {
        out.push(p);
    }
    out.extend(other_receivers(cx, plan, false));
    out.extend(other_made_args(cx, plan, false));
    out
}

/// Each made argument replaced by the next value of its type, or (`other_class`) by the first
/// values of 3 other run-time classes (an `ArrayList` for a `List.of(..)`), given [`FILL`]
/// elements when known to be empty.
fn other_made_args(cx: &mut Cx, plan: &Plan, other_class: bool) -> Vec<Plan> {
    let op = cx.table.get(cx.op).clone();
    let mut out = Vec::new();
    for (pos, a) in plan.args.iter().enumerate() {
        let (Arg::Made { idx, .. }, Some(t)) = (a, op.params.get(pos)) else {
            continue;
        };
        let mut classes = vec![cx.repo.made[*idx].class.clone()];
        let fits = cx.repo.fits(cx.model, t).to_vec();
        for i in fits.into_iter().filter(|i| i != idx) {
            let m = &cx.repo.made[i];
            if other_class && (classes.len() > 3 || classes.contains(&m.class)) {
                continue;
            }
            classes.push(m.class.clone());
            let ty = m.ty.clone();
            let fill = if other_class
                && m.size == Some(0)
                && cx.kit.relative(cx.model, cx.table, &ty).is_some()
            {
                FILL
            } else {
                0
            };
            let mut p = plan.clone();
            p.args[pos] = Arg::Made { idx: i, fill };
            out.push(p);
            if !other_class {
                break;
            }
        }
    }
    out
}

/// A statement before the call threw (filling a container, making the receiver): no fills,
/// then other receivers.
fn setup(cx: &mut Cx, plan: &Plan) -> Vec<Plan> {
    let mut p = plan.clone();
    if let Some((_, f)) = &mut p.receiver {
        *f = 0;
    }
    for a in &mut p.args {
        if let Arg::Made { fill, .. } = a {
            *fill = 0;
        }
    }
    let mut out = vec![p];
    out.extend(other_receivers(cx, plan, false));
    out
}

/// IllegalArgumentException and the like: one literal at a time replaced by the values of
/// [`values::search_values`] (compared values, constants, boundaries), positions taking turns;
/// Strings by the class's String constants and numbers.
fn value_search(cx: &mut Cx, plan: &Plan) -> Vec<Plan> {
    let mut per_position: Vec<Vec<Plan>> = Vec::new();
    let known = known_strings(cx, plan);
    for (pos, a) in plan.args.iter().enumerate() {
        let Arg::Lit(t, v) = a else { continue };
        let tries: Vec<Value> = if matches!(v, Value::Str(_)) {
            let consts = cx.constants.1.iter().take(4).cloned();
            known
                .iter()
                .cloned()
                .chain(consts)
                .chain(["1", "a", "", "A"].map(String::from))
                .map(Value::Str)
                .filter(|s| s != v)
                .collect()
        } else if is_integral(t) || prim_of(t).is_some() {
            values::search_values(t, &cx.constants.0, cx.compared, v)
        } else {
            Vec::new()
        };
        per_position.push(
            tries
                .into_iter()
                .map(|nv| {
                    let mut p = plan.clone();
                    p.args[pos] = Arg::Lit(t.clone(), nv);
                    p
                })
                .collect(),
        );
    }
    // every integral argument 1, then 0 at once: arguments checked together
    // (`SimpleTimeZone.setStartRule(month, day, dayOfWeek, time)`: one at a time, the others
    // stay out of range)
    let ints = plan.int_positions();
    let mut out = Vec::new();
    for v in [1, 0] {
        let mut p = plan.clone();
        for &pos in ints.iter().filter(|_| ints.len() >= 2) {
            if let Arg::Lit(t, val) = &mut p.args[pos] {
                *val = integral(prim_of(t).unwrap_or(crate::model::Prim::Int), v);
            }
        }
        if p != *plan && !out.contains(&p) {
            out.push(p);
        }
    }
    let longest = per_position.iter().map(Vec::len).max().unwrap_or(0);
    for k in 0..longest {
        for plans in &per_position {
            if let Some(p) = plans.get(k) {
                out.push(p.clone());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_vectors_are_non_decreasing_below_r_then_reversed() {
        let v = index_vectors(2, 3);
        assert_eq!(v[0], vec![0, 0]);
        for x in &v {
            assert!(x.iter().sum::<i64>() < 3, "{x:?}");
        }
        assert!(v.contains(&vec![0, 2]) && v.contains(&vec![2, 0]));
        assert!(v.contains(&vec![0, 1]) && v.contains(&vec![1, 0]));
        // R = 1: only zeros fit
        assert_eq!(index_vectors(2, 1), vec![vec![0, 0]]);
    }

    #[test]
    fn exceptions_go_to_their_handler_and_errors_to_none() {
        assert_eq!(
            handler_for("java.lang.StringIndexOutOfBoundsException"),
            Some("index")
        );
        assert_eq!(handler_for("java.util.EmptyStackException"), Some("state"));
        assert_eq!(
            handler_for("java.lang.NumberFormatException"),
            Some("number-format")
        );
        assert_eq!(
            handler_for("java.lang.IllegalArgumentException"),
            Some("value-search")
        );
        assert_eq!(handler_for("java.lang.OutOfMemoryError"), None);
        assert_eq!(handler_for("com.acme.Oops"), Some("other"));
    }
}
