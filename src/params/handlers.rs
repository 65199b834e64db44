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
//! - `number-format`: String arguments replaced by numbers in the forms parsers read.
//! - `value-search` (IllegalArgument and its kinds, Arithmetic, DateTime): one literal at a
//!   time replaced by values the method compared its arguments against, class constants,
//!   boundaries.
//! - `unsupported` (UnsupportedOperation, ReadOnlyBuffer): a receiver of another class.
//! - `null-pointer`: no null argument; another receiver (one built with fewer defaults).
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
            // a number, then the other literals (a radix) with it
            let mut out = strings(plan, NUMERIC_STRINGS);
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
        "setup" => setup(cx, plan),
        "value-search" => value_search(cx, plan),
        _ => {
            let mut out = other_receivers(cx, plan, false);
            out.extend(value_search(cx, plan));
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
    let r = base.container_length(cx.repo).unwrap_or(r).max(1);
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

/// NoSuchElement, IllegalState: the relative operation on the receiver first.
fn state(cx: &mut Cx, plan: &Plan) -> Vec<Plan> {
    let mut out: Vec<Plan> = filled(cx, plan).into_iter().collect();
    out.extend(other_receivers(cx, plan, false));
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
    for (pos, a) in plan.args.iter().enumerate() {
        let Arg::Lit(t, v) = a else { continue };
        let tries: Vec<Value> = if matches!(v, Value::Str(_)) {
            let consts = cx.constants.1.iter().take(4).cloned();
            consts
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
    let mut out = Vec::new();
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
