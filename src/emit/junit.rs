//! Writing JUnit 4 / JUnit 5 test classes from test cases.
//!
//! The output is meant to be read by people and compiled by javac without surprises:
//! - one statement per line, variables named after their types (`treeMap0`), literals used
//!   once inlined at their use;
//! - class names are shortened through single-type imports only when that is unambiguous
//!   (no two used classes share a simple name, no clash with the test class, the JUnit
//!   annotations or the `java.lang` classes the writer itself names); otherwise they stay fully
//!   qualified;
//! - overload resolution is pinned by casts when an operation is `overloaded`, and assertions
//!   are written so that exactly one `assertEquals` overload applies (`assertEquals(1L, l0)`,
//!   `assertEquals(Integer.valueOf(3), integer0)` for boxed values, delta `0.0` for floating
//!   point in JUnit 4);
//! - output is deterministic (byte-identical for identical input) and pure ASCII.
//!
//! Every [`WrittenTest`] records the line range of its method so that the validator can map
//! javac errors and test failures back to test cases.

use super::literal::{literal_has_type, literal_with, own_prim};
use super::names::var_base;
use super::{EmitConfig, Ending, TestCase, WrittenTest};
use crate::model::types::{JType, Prim, TypeArg};
use crate::runner::Contract;
use crate::sequence::{OpKind, OpTable, Operation, Stmt, Value};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

/// `java.lang` classes the writer names on its own (wrappers for literals, `Comparable` for
/// contracts ...): always written by simple name, so no other class may take these names.
const BUILTIN: &[&str] = &[
    "Object",
    "String",
    "Integer",
    "Long",
    "Short",
    "Byte",
    "Character",
    "Boolean",
    "Float",
    "Double",
    "Comparable",
    "Throwable",
    "SuppressWarnings",
];

/// Simple names the test class imports from JUnit.
const JUNIT_NAMES: &[&str] = &[
    "Test",
    "FixMethodOrder",
    "MethodSorters",
    "TestMethodOrder",
    "MethodOrderer",
];

/// Prefix of every contract-violation message (the validator and users grep for it).
pub const CONTRACT_MESSAGE: &str = "jforge contract violated: ";

/// Maps binary class names to the source text used in one test class.
struct Namer {
    /// Top-level binary class name -> the name written in source.
    short: HashMap<String, String>,
    /// Single-type imports.
    imports: BTreeSet<String>,
}

/// Split `a.b.Outer$Inner` into the top-level class `a.b.Outer` and the nested rest `$Inner`.
fn split_top(binary: &str) -> (&str, &str) {
    let last_dot = binary.rfind('.').map(|i| i + 1).unwrap_or(0);
    match binary[last_dot..].find('$') {
        // A `$` at the very start of the simple name is part of the name.
        Some(i) if i > 0 => binary.split_at(last_dot + i),
        _ => (binary, ""),
    }
}

fn package_of(top: &str) -> Option<&str> {
    top.rfind('.').map(|i| &top[..i])
}

fn simple_of(top: &str) -> &str {
    top.rsplit('.').next().unwrap_or(top)
}

impl Namer {
    fn new(used: &BTreeSet<String>, package: Option<&str>, class_name: &str) -> Namer {
        let package = package.filter(|p| !p.is_empty());
        let tops: BTreeSet<&str> = used.iter().map(|b| split_top(b).0).collect();
        let mut by_simple: BTreeMap<&str, usize> = BTreeMap::new();
        for t in &tops {
            *by_simple.entry(simple_of(t)).or_default() += 1;
        }
        let mut short = HashMap::new();
        let mut imports = BTreeSet::new();
        for top in tops {
            let simple = simple_of(top);
            let pkg = package_of(top);
            let is_builtin = BUILTIN.contains(&simple) && pkg == Some("java.lang");
            let name = if pkg.is_none() || is_builtin {
                // Default package: cannot be imported, only named simply.
                simple.to_string()
            } else if JUNIT_NAMES.contains(&simple)
                || simple == class_name
                || BUILTIN.contains(&simple)
                || by_simple.get(simple).copied().unwrap_or(0) > 1
            {
                top.to_string()
            } else {
                if pkg != Some("java.lang") && pkg != package {
                    imports.insert(top.to_string());
                }
                simple.to_string()
            };
            short.insert(top.to_string(), name);
        }
        Namer { short, imports }
    }

    /// Source name of a class given by binary name (`Outer.Inner`, `java.util.List`).
    fn class(&self, binary: &str) -> String {
        let (top, rest) = split_top(binary);
        let head = match self.short.get(top) {
            Some(s) => s.clone(),
            None => {
                let simple = simple_of(top);
                if package_of(top) == Some("java.lang") && BUILTIN.contains(&simple) {
                    simple.to_string()
                } else {
                    top.to_string()
                }
            }
        };
        format!("{head}{}", rest.replace('$', "."))
    }

    /// Source text of a type with shortened class names.
    fn ty(&self, t: &JType) -> String {
        match t {
            JType::Prim(p) => p.keyword().to_string(),
            JType::Var(v) => v.clone(),
            JType::Array(e) => format!("{}[]", self.ty(e)),
            JType::Class { name, args } => {
                let mut s = self.class(name);
                if !args.is_empty() {
                    s.push('<');
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            s.push_str(", ");
                        }
                        match a {
                            TypeArg::Type(t) => s.push_str(&self.ty(t)),
                            TypeArg::Any => s.push('?'),
                            TypeArg::Extends(t) => {
                                let _ = write!(s, "? extends {}", self.ty(t));
                            }
                            TypeArg::Super(t) => {
                                let _ = write!(s, "? super {}", self.ty(t));
                            }
                        }
                    }
                    s.push('>');
                }
                s
            }
        }
    }

    fn literal(&self, v: &Value, ty: &JType) -> String {
        literal_with(v, ty, &|t: &JType| self.ty(t))
    }
}

fn collect_type(t: &JType, out: &mut BTreeSet<String>) {
    match t {
        JType::Prim(_) | JType::Var(_) => {}
        JType::Array(e) => collect_type(e, out),
        JType::Class { name, args } => {
            out.insert(name.clone());
            for a in args {
                match a {
                    TypeArg::Type(t) | TypeArg::Extends(t) | TypeArg::Super(t) => {
                        collect_type(t, out)
                    }
                    TypeArg::Any => {}
                }
            }
        }
    }
}

fn collect_op(op: &Operation, with_ret: bool, out: &mut BTreeSet<String>) {
    collect_type(&op.owner, out);
    for m in op.stub.iter().flat_map(|s| &s.methods) {
        for t in m.params.iter().chain(&m.ret) {
            collect_type(t, out);
        }
    }
    for t in op
        .params
        .iter()
        .chain(op.ret.iter().filter(|_| with_ret))
        .chain(op.method_type_args.iter())
    {
        collect_type(t, out);
    }
}

fn collect_value(v: &Value, out: &mut BTreeSet<String>) {
    match v {
        Value::Enum(c, _) => {
            out.insert(c.clone());
        }
        Value::Array(_, items) => items.iter().for_each(|v| collect_value(v, out)),
        _ => {}
    }
}

/// How many statements use each statement's value as an input.
fn use_counts(case: &TestCase) -> Vec<usize> {
    let mut uses = vec![0usize; case.seq.stmts.len()];
    for s in &case.seq.stmts {
        for &i in s.inputs() {
            if let Some(u) = uses.get_mut(i as usize) {
                *u += 1;
            }
        }
    }
    uses
}

/// The statements whose value is asserted, observed or checked by a contract (never
/// inlined, always declared).
fn pinned(case: &TestCase) -> Vec<bool> {
    let n = case.seq.stmts.len();
    let mut pinned = vec![false; n];
    for (i, a) in case.asserts.iter().enumerate() {
        if a.is_some() && i < n {
            pinned[i] = true;
        }
    }
    for (s, _, _) in &case.observers {
        if let Some(p) = pinned.get_mut(*s as usize) {
            *p = true;
        }
    }
    if let Ending::ErrorContract { a, b, .. } = &case.ending {
        for i in std::iter::once(*a).chain(*b) {
            if let Some(p) = pinned.get_mut(i as usize) {
                *p = true;
            }
        }
    }
    pinned
}

/// Per statement: whether nothing reads, asserts or observes its value, or it is the last
/// statement of a test that expects it to throw (a call is then a bare statement: no
/// variable, so its type need not be named).
fn unread(case: &TestCase) -> Vec<bool> {
    let (uses, pinned) = (use_counts(case), pinned(case));
    let n = uses.len();
    let throws = matches!(
        case.ending,
        Ending::ExpectedException { .. } | Ending::ErrorException { .. }
    );
    (0..n)
        .map(|i| (uses[i] == 0 && !pinned[i]) || (throws && i + 1 == n))
        .collect()
}

/// Whether an operation is a method or constructor call (a Java expression statement on its
/// own, unlike a field read).
fn is_call(op: &Operation) -> bool {
    matches!(
        op.kind,
        OpKind::Constructor | OpKind::Method | OpKind::StaticMethod
    )
}

/// Every class a test case names in source.
fn collect_case(ops: &OpTable, case: &TestCase, out: &mut BTreeSet<String>) {
    let unread = unread(case);
    for (i, s) in case.seq.stmts.iter().enumerate() {
        match s {
            Stmt::Call { op, .. } => {
                let op = ops.get(*op);
                // a bare call's result type is named nowhere (a constructor names it anyway)
                let declared = !unread[i] || !is_call(op) || op.kind == OpKind::Constructor;
                collect_op(op, declared, out)
            }
            Stmt::Lit { ty, value } => {
                collect_type(ty, out);
                collect_value(value, out);
            }
            Stmt::Array { elem, .. } => collect_type(elem, out),
        }
    }
    for v in case.asserts.iter().flatten() {
        collect_value(v, out);
    }
    for (_, op, v) in &case.observers {
        collect_op(ops.get(*op), true, out);
        collect_value(v, out);
    }
    match &case.ending {
        Ending::ExpectedException {
            catch_as: Some(class),
            ..
        }
        | Ending::ExpectedException { class, .. }
        | Ending::ErrorException { class, .. } => {
            out.insert(class.clone());
        }
        Ending::Normal | Ending::ErrorContract { .. } => {}
    }
}

/// Text for a `//` comment: one line, and no backslash that could start a unicode escape.
fn comment_text(s: &str) -> String {
    s.replace('\\', "\\\\").replace(['\n', '\r'], " ")
}

/// `(T) expr`, parenthesizing `expr` where a reference cast would otherwise parse as a
/// binary operation (`(Object) -1`).
fn cast(type_src: &str, prim: bool, expr: &str) -> String {
    if let Some(rest) = expr.strip_suffix(") null")
        && rest.starts_with('(')
        && !prim
    {
        return format!("({type_src}) null");
    }
    if !prim && (expr.starts_with('-') || expr.starts_with('+')) {
        format!("({type_src}) ({expr})")
    } else {
        format!("({type_src}) {expr}")
    }
}

/// An expression used as a receiver (`x.m()`): casts and negative numbers need parentheses.
fn receiver(expr: &str) -> String {
    if expr.starts_with('(')
        || expr.starts_with('-')
        || expr.starts_with(|c: char| c.is_ascii_digit())
    {
        format!("({expr})")
    } else {
        expr.to_string()
    }
}

/// State while rendering one test method.
struct MethodWriter<'a> {
    ops: &'a OpTable,
    case: &'a TestCase,
    namer: &'a Namer,
    junit: u8,
    counters: HashMap<String, usize>,
    /// Expression for the value of each statement (variable or inlined literal); `None` for
    /// void statements.
    exprs: Vec<Option<String>>,
    lines: Vec<String>,
    indent: usize,
    /// (index in `lines`, what) of each assertion written.
    asserted: Vec<(usize, super::Asserted)>,
}

impl MethodWriter<'_> {
    fn fresh(&mut self, ty: &JType) -> String {
        let base = var_base(ty);
        let n = self.counters.entry(base.clone()).or_insert(0);
        let name = format!("{base}{n}");
        *n += 1;
        name
    }

    fn line(&mut self, s: impl AsRef<str>) {
        let mut l = " ".repeat(self.indent * 4);
        l.push_str(s.as_ref());
        self.lines.push(l);
    }

    fn out_type(&self, i: usize) -> Option<JType> {
        self.case.seq.out_type(self.ops, i)
    }

    fn arg(&self, i: u32) -> String {
        self.exprs
            .get(i as usize)
            .cloned()
            .flatten()
            .unwrap_or_else(|| format!("/* statement {i} has no value */ null"))
    }

    /// Argument `i` for a parameter of type `param`, cast when the operation is overloaded
    /// (a variable already of exactly that type needs no cast).
    fn param_arg(&self, i: u32, param: &JType, overloaded: bool) -> String {
        let e = self.arg(i);
        if !overloaded || (is_identifier(&e) && self.out_type(i as usize).as_ref() == Some(param)) {
            return e;
        }
        // An inlined literal that already has exactly the parameter type needs no cast.
        if let Some(Stmt::Lit { ty, value }) = self.case.seq.stmts.get(i as usize)
            && ty == param
            && literal_has_type(value, ty)
        {
            return e;
        }
        // Nor does an inlined static field read of exactly that type.
        if let Some(Stmt::Call { op, .. }) = self.case.seq.stmts.get(i as usize)
            && self.ops.get(*op).kind == OpKind::StaticFieldGet
            && self.ops.get(*op).ret.as_ref() == Some(param)
            && !is_identifier(&e)
        {
            return e;
        }
        cast(&self.namer.ty(param), param.is_prim(), &e)
    }

    fn type_args(&self, op: &Operation) -> String {
        if op.method_type_args.is_empty() {
            String::new()
        } else {
            let a: Vec<String> = op
                .method_type_args
                .iter()
                .map(|t| self.namer.ty(t))
                .collect();
            format!("<{}>", a.join(", "))
        }
    }

    /// The source expression of a call of `op` on the statements `args`.
    fn call_expr(&self, op: &Operation, args: &[u32]) -> String {
        let (recv, rest): (Option<String>, &[u32]) = if op.has_receiver() {
            match args.split_first() {
                Some((r, rest)) => (Some(receiver(&self.arg(*r))), rest),
                None => (Some("/* missing receiver */ null".into()), args),
            }
        } else {
            (None, args)
        };
        let static_owner = || self.namer.class(op.owner.class_name().unwrap_or(&op.class));
        let arg_list = |skip: usize| -> String {
            rest.iter()
                .zip(op.params.iter())
                .skip(skip)
                .map(|(a, p)| self.param_arg(*a, p, op.overloaded))
                .collect::<Vec<_>>()
                .join(", ")
        };
        if let Some(stub) = &op.stub {
            let args: Vec<String> = rest.iter().map(|a| self.arg(*a)).collect();
            return super::literal::stub_source(op, stub, &args, &|t: &JType| self.namer.ty(t));
        }
        match op.kind {
            OpKind::Constructor => {
                if op.outer_instance && !rest.is_empty() {
                    let outer = receiver(&self.arg(rest[0]));
                    let binary = op.owner.class_name().unwrap_or(&op.class);
                    let simple = binary.rsplit(['$', '.']).next().unwrap_or(binary);
                    let targs = match &op.owner {
                        JType::Class { args, .. } if !args.is_empty() => "<>",
                        _ => "",
                    };
                    format!("{outer}.new {simple}{targs}({})", arg_list(1))
                } else {
                    let t = match &op.owner {
                        JType::Class { name, args }
                            if args.iter().any(|a| !matches!(a, TypeArg::Type(_))) =>
                        {
                            format!("{}<>", self.namer.class(name))
                        }
                        t => self.namer.ty(t),
                    };
                    format!("new {t}({})", arg_list(0))
                }
            }
            OpKind::Method => {
                format!(
                    "{}.{}{}({})",
                    recv.unwrap_or_default(),
                    self.type_args(op),
                    op.name,
                    arg_list(0)
                )
            }
            OpKind::StaticMethod => {
                format!(
                    "{}.{}{}({})",
                    static_owner(),
                    self.type_args(op),
                    op.name,
                    arg_list(0)
                )
            }
            OpKind::FieldGet => format!("{}.{}", recv.unwrap_or_default(), op.name),
            OpKind::StaticFieldGet => format!("{}.{}", static_owner(), op.name),
            OpKind::FieldSet => {
                format!("{}.{} = {}", recv.unwrap_or_default(), op.name, arg_list(0))
            }
            OpKind::StaticFieldSet => format!("{}.{} = {}", static_owner(), op.name, arg_list(0)),
        }
    }

    /// The assertion that `expr` (of static type `ty`) equals `v`; `None` for an array whose
    /// static type does not let `assertArrayEquals` compare it (e.g. an `Object`).
    fn assertion(&self, expr: &str, ty: &JType, v: &Value) -> Option<String> {
        if let Value::Array(component, _) = v {
            return self.array_assertion(expr, ty, component, v);
        }
        if let Value::Digest(class, len, hash) = v {
            return digest_assertion(expr, ty, class, *len, *hash);
        }
        Some(self.scalar_assertion(expr, ty, v))
    }

    /// `assertArrayEquals(new int[] { 1, 2 }, expr)` for an array of primitives (with a zero
    /// delta for JUnit 4's float and double overloads), `assertArrayEquals(new Object[] {
    /// "a", null }, expr)` for an array of references (compared element by element with
    /// `equals`, whatever the array's class). Only where the static type is such an array.
    fn array_assertion(
        &self,
        expr: &str,
        ty: &JType,
        component: &str,
        v: &Value,
    ) -> Option<String> {
        let JType::Array(elem) = ty else { return None };
        let prim = Prim::from_keyword(component);
        let expected_ty = match (elem.as_ref(), prim) {
            (JType::Prim(p), Some(q)) if *p == q => ty.clone(),
            (JType::Prim(_), _) | (_, Some(_)) => return None,
            (e, None) if *e == JType::string() && component == "java.lang.String" => ty.clone(),
            _ => JType::Array(Box::new(JType::object())),
        };
        let lit = self.namer.literal(v, &expected_ty);
        Some(match prim {
            Some(Prim::Float) if self.junit == 4 => {
                format!("assertArrayEquals({lit}, {expr}, 0.0f);")
            }
            Some(Prim::Double) if self.junit == 4 => {
                format!("assertArrayEquals({lit}, {expr}, 0.0);")
            }
            _ => format!("assertArrayEquals({lit}, {expr});"),
        })
    }

    /// The assertion that `expr` (of static type `ty`) equals the non-array value `v`.
    fn scalar_assertion(&self, expr: &str, ty: &JType, v: &Value) -> String {
        let boxed_bool = matches!(ty, JType::Class { name, .. } if name == "java.lang.Boolean");
        match (v, ty) {
            (Value::Null, JType::Prim(_)) => format!("// {expr} is null?"),
            (Value::Null, _) => format!("assertNull({expr});"),
            (Value::Bool(b), JType::Prim(Prim::Boolean)) => {
                format!("{}({expr});", if *b { "assertTrue" } else { "assertFalse" })
            }
            (Value::Bool(b), _) if boxed_bool => {
                format!("{}({expr});", if *b { "assertTrue" } else { "assertFalse" })
            }
            (_, JType::Prim(p)) => {
                let lit = self.namer.literal(v, ty);
                match p {
                    Prim::Float if self.junit == 4 => format!("assertEquals({lit}, {expr}, 0.0f);"),
                    Prim::Double if self.junit == 4 => format!("assertEquals({lit}, {expr}, 0.0);"),
                    _ => format!("assertEquals({lit}, {expr});"),
                }
            }
            (Value::Str(_) | Value::Enum(..), _) => {
                format!("assertEquals({}, {expr});", self.namer.literal(v, ty))
            }
            _ => {
                // Boxed or reference static type: compare as objects, with a literal of the
                // boxed type, so that only assertEquals(Object, Object) (or JUnit 5's
                // (Integer, Integer)-style overloads) apply.
                let target = match ty {
                    JType::Class { name, .. } if Prim::unboxed(name).is_some() => ty.clone(),
                    _ => own_prim(v)
                        .map(|p| JType::class(p.boxed()))
                        .unwrap_or_else(JType::object),
                };
                format!("assertEquals({}, {expr});", self.namer.literal(v, &target))
            }
        }
    }

    fn contract_lines(&mut self, contract: Contract, a: u32, b: Option<u32>) {
        let value_of = |w: &Self, i: u32| -> Option<String> {
            let e = w.exprs.get(i as usize).cloned().flatten()?;
            Some(match w.out_type(i as usize) {
                Some(JType::Prim(_)) => format!("((Object) {e})"),
                _ => receiver(&e),
            })
        };
        let Some(x) = value_of(self, a) else {
            self.line(format!(
                "// statement {a} has no value to check {}",
                contract.name()
            ));
            return;
        };
        let y = b
            .and_then(|b| value_of(self, b))
            .unwrap_or_else(|| x.clone());
        let name = contract.name();
        let lit = |s: &str| format!("\"{s}\"");
        let (cond, what, shown): (String, String, Vec<&str>) = match contract {
            Contract::EqualsReflexive => (
                format!("!{x}.equals({x})"),
                lit("x.equals(x) is false"),
                vec!["x"],
            ),
            Contract::EqualsNull => (
                format!("{x}.equals(null)"),
                lit("x.equals(null) is true"),
                vec!["x"],
            ),
            Contract::EqualsSymmetric => (
                format!("{x}.equals({y}) != {y}.equals({x})"),
                format!(
                    "\"x.equals(y) is \" + {x}.equals({y}) + \" but y.equals(x) is \" + {y}.equals({x})"
                ),
                vec!["x", "y"],
            ),
            Contract::EqualsHashCode => (
                format!("{x}.equals({y}) && {x}.hashCode() != {y}.hashCode()"),
                format!(
                    "\"x.equals(y) but x.hashCode() is \" + {x}.hashCode() + \" and y.hashCode() is \" + {y}.hashCode()"
                ),
                vec!["x", "y"],
            ),
            Contract::HashCodeThrows | Contract::ToStringThrows => {
                // The contract is "this call does not throw": the test catches what it
                // throws and fails with a message naming the contract and the exception as
                // its cause (so the trace shows the line that threw), so that a red build
                // says why (and the final check can tell this failure from any other).
                let call = if contract == Contract::HashCodeThrows {
                    "hashCode"
                } else {
                    "toString"
                };
                self.line(format!("// Fails: {name}: {call}() throws"));
                self.believed_line();
                self.throws_contract(&format!("{x}.{call}();"), "Throwable", name);
                return;
            }
            Contract::CompareToReflexive => (
                format!("((Comparable) {x}).compareTo({x}) != 0"),
                format!("\"x.compareTo(x) is \" + ((Comparable) {x}).compareTo({x})"),
                vec!["x"],
            ),
            Contract::CompareToAntisymmetric => (
                format!(
                    "Integer.signum(((Comparable) {x}).compareTo({y})) != -Integer.signum(((Comparable) {y}).compareTo({x}))"
                ),
                format!(
                    "\"x.compareTo(y) is \" + ((Comparable) {x}).compareTo({y}) + \" but y.compareTo(x) is \" + ((Comparable) {y}).compareTo({x})"
                ),
                vec!["x", "y"],
            ),
        };
        self.line(format!("// Fails: {name}"));
        self.believed_line();
        let exprs: Vec<(&str, &str)> = shown
            .iter()
            .map(|&v| (v, if v == "x" { x.as_str() } else { y.as_str() }))
            .collect();
        self.contract_failure(&cond, name, &what, &exprs);
    }

    /// `if (cond) { ...; fail("jforge contract violated: NAME: " + what + "; x = ..."); }`:
    /// the message shows the numbers compared (in `what`) and each value (its `toString`,
    /// or class and identity hash when that throws), so the failure says what was found.
    fn contract_failure(&mut self, cond: &str, name: &str, what: &str, values: &[(&str, &str)]) {
        self.line(format!("if ({cond}) {{"));
        self.indent += 1;
        let mut shown = Vec::new();
        for (label, e) in values {
            let v = format!("jforgeShow{}", label.to_uppercase());
            self.line(format!("String {v};"));
            self.line("try {");
            self.line(format!("    {v} = String.valueOf({e});"));
            self.line("} catch (Throwable jforgeT) {");
            self.line(format!(
                "    {v} = {e}.getClass().getName() + \"@\" + Integer.toHexString(System.identityHashCode({e}));"
            ));
            self.line("}");
            shown.push(format!("\"{label} = \" + {v}"));
        }
        self.line(format!(
            "fail(\"{CONTRACT_MESSAGE}{name}: \" + {what} + \"; \" + {});",
            shown.join(" + \", \" + ")
        ));
        self.indent -= 1;
        self.line("}");
    }

    /// `// Believed: broken in com.x.Foo.hashCode (line 12); no argument object was involved`
    /// when the run knows where (why an error test is worth reading).
    fn believed_line(&mut self) {
        if let Some(at) = self.case.defect.as_ref().and_then(|d| d.broken_in.clone()) {
            self.line(format!(
                "// Believed: broken in {}; no argument object was involved",
                comment_text(&at)
            ));
        }
    }

    /// `try { stmt } catch (Class e) { throw new AssertionError("jforge contract violated:
    /// CONTRACT: " + e, e); }`: the exception is the failure's cause, so JUnit's trace shows
    /// the line of the code under test that threw.
    fn throws_contract(&mut self, stmt: &str, class: &str, contract: &str) {
        self.line("try {");
        self.indent += 1;
        self.line(stmt);
        self.indent -= 1;
        self.line(format!("}} catch ({class} e) {{"));
        self.indent += 1;
        self.line(format!(
            "throw new AssertionError(\"{CONTRACT_MESSAGE}{}: \" + e, e);",
            comment_text(contract).replace('"', "")
        ));
        self.indent -= 1;
        self.line("}");
    }

    /// The lines of the method body: the statements, then the assertions of the observers and
    /// the contract check of the ending.
    fn render(&mut self) {
        let seq = self.case.seq.clone();
        let n = seq.stmts.len();
        // Literals and static field reads used once as an input and never asserted or
        // observed are inlined.
        let uses = use_counts(self.case);
        let pinned = pinned(self.case);
        let unread = unread(self.case);
        for i in 0..n {
            let inline = uses[i] == 1 && !pinned[i] && self.inlinable(i);
            self.statement(&seq.stmts[i], i, i + 1 == n, (inline, unread[i]));
        }
        if matches!(
            self.case.ending,
            Ending::Normal | Ending::ErrorContract { .. }
        ) {
            self.observer_assertions();
        }
        if let Ending::ErrorContract { contract, a, b } = &self.case.ending {
            self.contract_lines(*contract, *a, *b);
        }
    }

    /// Whether statement `i` (used once) may stand at its use instead of its own line: a
    /// literal always; a static field read (`TimeUnit.DAYS`) when no statement between it
    /// and its use runs code of the program (only literals, arrays and other static field
    /// reads lie between), so that reading the field later reads the same value even when
    /// the field is not final (the operation does not say). Any other call keeps its line.
    fn inlinable(&self, i: usize) -> bool {
        let stmts = &self.case.seq.stmts;
        let quiet = |s: &Stmt| match s {
            Stmt::Lit { .. } | Stmt::Array { .. } => true,
            Stmt::Call { op, .. } => self.ops.get(*op).kind == OpKind::StaticFieldGet,
        };
        match &stmts[i] {
            Stmt::Lit { .. } => true,
            s @ Stmt::Call { .. } if quiet(s) => {
                let user = stmts
                    .iter()
                    .enumerate()
                    .skip(i + 1)
                    .find(|(_, s)| s.inputs().contains(&(i as u32)))
                    .map(|(j, _)| j);
                user.is_some_and(|j| stmts[i + 1..j].iter().all(quiet))
            }
            _ => false,
        }
    }

    /// Lines of statement `i` (`last`: with the case's ending): its declaration and the
    /// assertion on its value, or the try/catch of the exception it throws. A literal or
    /// static field read used once (`inline`) gets no line: its use holds it.
    /// `unused`: nothing reads, asserts or observes the statement's value, so a call is
    /// written as a bare statement (`builder0.setDelimiter('\t');`), not as a declaration of a
    /// variable nothing reads (issue 33: every statement matters, and reads so).
    fn statement(&mut self, stmt: &Stmt, i: usize, last: bool, (inline, unused): (bool, bool)) {
        let expect_exc = match &self.case.ending {
            Ending::ExpectedException {
                class, catch_as, ..
            } if last => Some((
                class.clone(),
                catch_as.clone().unwrap_or_else(|| class.clone()),
            )),
            _ => None,
        };
        if last && let Ending::ErrorException { class, contract } = &self.case.ending {
            self.line(format!(
                "// Fails: {}: throws {}",
                comment_text(contract),
                comment_text(class)
            ));
            self.believed_line();
        }
        let Some((decl, expr, is_call)) = self.expression(stmt, inline && expect_exc.is_none())
        else {
            return;
        };
        if last && let Ending::ErrorException { class, contract } = &self.case.ending {
            let s = self.declaration(decl.as_ref(), &expr, is_call);
            let class = self.namer.class(class);
            let contract = contract.clone();
            self.throws_contract(&s, &class, &contract);
            return;
        }
        if let Some((class, catch_as)) = expect_exc {
            self.expected_exception(decl.as_ref(), &expr, is_call, (&class, &catch_as));
            return;
        }
        let s = self.declaration(decl.as_ref(), &expr, unused && is_call);
        self.line(s);
        if let Some(Some(v)) = self.case.asserts.get(i)
            && let (Some(e), Some(t)) = (self.exprs[i].clone(), decl.as_ref())
            && let Some(a) = self.assertion(&e, t, v)
        {
            self.asserted
                .push((self.lines.len(), super::Asserted::Stmt(i)));
            self.line(a);
        }
    }

    /// The declared type (`None`: no value), source expression and whether it is a method or
    /// constructor call, of `stmt`; `None` when it is a literal or static field read to
    /// `inline` (its expression then stands for its value).
    fn expression(&mut self, stmt: &Stmt, inline: bool) -> Option<(Option<JType>, String, bool)> {
        Some(match stmt {
            Stmt::Lit { ty, value } => {
                let lit = self.namer.literal(value, ty);
                if inline {
                    self.exprs.push(Some(lit));
                    return None;
                }
                (Some(ty.clone()), lit, false)
            }
            Stmt::Array { elem, elems } => {
                let items: Vec<String> = elems.iter().map(|e| self.arg(*e)).collect();
                let body = if items.is_empty() {
                    "{}".to_string()
                } else {
                    format!("{{ {} }}", items.join(", "))
                };
                // `new List<String>[]` is illegal (generic array creation): use the erasure.
                let expr = format!("new {}[] {body}", self.namer.ty(&elem.erasure()));
                (Some(JType::Array(Box::new(elem.clone()))), expr, false)
            }
            Stmt::Call { op, args } => {
                let op = self.ops.get(*op);
                let expr = self.call_expr(op, args);
                if inline && op.kind == OpKind::StaticFieldGet {
                    self.exprs.push(Some(expr));
                    return None;
                }
                let is_call = is_call(op);
                (op.ret.clone(), expr, is_call)
            }
        })
    }

    /// The statement for `expr`: a declaration of a fresh variable of type `decl`, or the
    /// bare expression when it has no value or `bare` asks for it. Records its value.
    fn declaration(&mut self, decl: Option<&JType>, expr: &str, bare: bool) -> String {
        match decl {
            Some(t) if !bare => {
                let v = self.fresh(t);
                let s = format!("{} {v} = {expr};", self.namer.ty(t));
                self.exprs.push(Some(v));
                s
            }
            _ => {
                self.exprs.push(None);
                format!("{expr};")
            }
        }
    }

    /// `try { statement; fail("Expected exception of type C"); } catch (C e) { // expected }`
    /// around the statement for `expr` (see [`Self::declaration`]); the catch names
    /// `catch_as` (C itself, or its superclass in the release the tests compile for).
    fn expected_exception(
        &mut self,
        decl: Option<&JType>,
        expr: &str,
        bare: bool,
        (class, catch_as): (&str, &str),
    ) {
        self.line("try {");
        self.indent += 1;
        let s = self.declaration(decl, expr, bare);
        self.line(s);
        self.line(format!(
            "fail(\"Expected exception of type {}\");",
            comment_text(class).replace('"', "")
        ));
        self.indent -= 1;
        self.line(format!("}} catch ({} e) {{", self.namer.class(catch_as)));
        self.indent += 1;
        match &self.case.ending {
            Ending::ExpectedException {
                message: Some(m), ..
            } => {
                self.asserted
                    .push((self.lines.len(), super::Asserted::Message));
                self.line(format!(
                    "assertEquals({}, e.getMessage());",
                    super::literal::string_literal(m)
                ));
            }
            _ => self.line("// expected"),
        }
        self.indent -= 1;
        self.line("}");
    }

    /// Assertions of the observer calls made after the last statement, skipping those that
    /// repeat an assertion.
    fn observer_assertions(&mut self) {
        for (k, (s, op_id, v)) in self.case.observers.iter().enumerate() {
            if repeats_an_assertion(self.case, k) {
                continue;
            }
            let op = self.ops.get(*op_id);
            let Some(recv) = self.exprs.get(*s as usize).cloned().flatten() else {
                continue;
            };
            let call = format!("{}.{}{}()", receiver(&recv), self.type_args(op), op.name);
            let ty = op.ret.clone().unwrap_or_else(JType::object);
            if let Some(a) = self.assertion(&call, &ty, v) {
                self.asserted
                    .push((self.lines.len(), super::Asserted::Observer(k)));
                self.line(a);
            }
        }
    }
}

/// `assertEquals(h, java.util.Arrays.deepHashCode(expr)); // 96 elements` for an array too
/// long or nested to write out (`Value::Digest`; `Arrays.hashCode` for a primitive array):
/// a change of any element changes the hash. Only where the static type is an array of the
/// observed kind (a primitive array's own type; any reference array for `deepHashCode`).
fn digest_assertion(expr: &str, ty: &JType, class: &str, len: u32, hash: i32) -> Option<String> {
    let JType::Array(elem) = ty else { return None };
    let primitive = class.len() == 2 && class.starts_with('[');
    let f = match elem.as_ref() {
        JType::Prim(p) if primitive && class.ends_with(p.descriptor()) => "hashCode",
        JType::Prim(_) => return None,
        _ if !primitive => "deepHashCode",
        _ => return None,
    };
    if len == 0 {
        return Some(format!("assertEquals(0, {expr}.length);"));
    }
    let what = if len == 1 { "element" } else { "elements" };
    Some(format!(
        "assertEquals({hash}, java.util.Arrays.{f}({expr})); // the contents' hash: {len} {what}"
    ))
}

/// Whether observer `k` of `case` would repeat an assertion on the same unchanged value: the
/// same observer on the same statement listed before it, or the last statement is that very
/// call on that receiver and is asserted with the same value (`int i0 = map.size();
/// assertEquals(1, i0);` makes `assertEquals(1, map.size())` after it redundant).
fn repeats_an_assertion(case: &TestCase, k: usize) -> bool {
    let (s, op, v) = &case.observers[k];
    if case.observers[..k]
        .iter()
        .any(|(s2, op2, _)| s2 == s && op2 == op)
    {
        return true;
    }
    let n = case.seq.stmts.len();
    matches!(case.seq.stmts.last(), Some(Stmt::Call { op: last, args }) if last == op && args.as_slice() == [*s])
        && n > 0
        && case.asserts.get(n - 1) == Some(&Some(v.clone()))
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Lines of one test method, indented for a class body (4 spaces), and (index in those
/// lines, what) of each assertion.
fn method_lines(
    ops: &OpTable,
    case: &TestCase,
    method_name: &str,
    junit: u8,
    namer: &Namer,
) -> (Vec<String>, Vec<(usize, super::Asserted)>) {
    let mut w = MethodWriter {
        ops,
        case,
        namer,
        junit,
        counters: HashMap::new(),
        exprs: Vec::with_capacity(case.seq.stmts.len()),
        lines: Vec::new(),
        indent: 2,
        asserted: Vec::new(),
    };
    w.render();
    let mut out = vec![
        "    @Test".to_string(),
        format!("    public void {method_name}() throws Throwable {{"),
    ];
    let header = out.len();
    out.append(&mut w.lines);
    out.push("    }".to_string());
    let asserted = w
        .asserted
        .into_iter()
        .map(|(i, a)| (i + header, a))
        .collect();
    (out, asserted)
}

/// One test method's source (used by write_suites and by snapshot tests). Class names are
/// shortened as they would be in a file holding only this test.
pub fn render_test(ops: &OpTable, case: &TestCase, method_name: &str, junit: u8) -> String {
    let mut used = BTreeSet::new();
    collect_case(ops, case, &mut used);
    let namer = Namer::new(&used, None, "");
    let mut s = method_lines(ops, case, method_name, junit, &namer)
        .0
        .join("\n");
    s.push('\n');
    ascii(&s)
}

/// Replace every non-ASCII character by a unicode escape (legal anywhere in Java source).
fn ascii(s: &str) -> String {
    if s.is_ascii() {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0u16; 2];
            for u in c.encode_utf16(&mut buf) {
                let _ = write!(out, "\\u{u:04x}");
            }
        }
    }
    out
}

/// Source of one test class and where its methods are (`emit::suite` names the classes and
/// writes the files).
pub(crate) fn render_class(
    cfg: &EmitConfig,
    ops: &OpTable,
    class_name: &str,
    cases: &[(usize, &TestCase, String)],
    error_suite: bool,
    stored: bool,
) -> (String, Vec<WrittenTest>) {
    let mut used = BTreeSet::new();
    for (_, c, _) in cases {
        collect_case(ops, c, &mut used);
    }
    let package = cfg.package.as_deref().filter(|p| !p.is_empty());
    let namer = Namer::new(&used, package, class_name);
    let mut lines: Vec<String> = Vec::new();
    lines.push("// Generated by jforge, an automatic unit-test generator for Java. Do not edit: regenerate.".into());
    if error_suite {
        lines.push(super::stored::ERROR_HEADER.into());
        lines.push("// (a likely bug in the code under test).".into());
    } else {
        lines.push(super::stored::REGRESSION_HEADER.into());
        lines.push("// its observable behaviour changes.".into());
    }
    if let Some(p) = package {
        lines.push(String::new());
        lines.push(format!("package {p};"));
    }
    let mut imports: BTreeSet<String> = namer.imports.iter().map(|i| i.replace('$', ".")).collect();
    if cfg.junit == 5 {
        imports.insert("org.junit.jupiter.api.MethodOrderer".into());
        imports.insert("org.junit.jupiter.api.Test".into());
        imports.insert("org.junit.jupiter.api.TestMethodOrder".into());
    } else {
        imports.insert("org.junit.FixMethodOrder".into());
        imports.insert("org.junit.Test".into());
        imports.insert("org.junit.runners.MethodSorters".into());
    }
    lines.push(String::new());
    for i in &imports {
        lines.push(format!("import {i};"));
    }
    lines.push(String::new());
    if cfg.junit == 5 {
        lines.push("import static org.junit.jupiter.api.Assertions.*;".into());
        lines.push(String::new());
        lines.push("@TestMethodOrder(MethodOrderer.MethodName.class)".into());
    } else {
        lines.push("import static org.junit.Assert.*;".into());
        lines.push(String::new());
        lines.push("@FixMethodOrder(MethodSorters.NAME_ASCENDING)".into());
    }
    lines.push("@SuppressWarnings({\"unchecked\", \"rawtypes\"})".into());
    lines.push(format!("public class {class_name} {{"));
    let mut tests = Vec::with_capacity(cases.len());
    for (idx, case, method) in cases {
        lines.push(String::new());
        let start = lines.len() + 1;
        if stored {
            let exception = match &case.ending {
                Ending::ExpectedException { class, .. } => Some(class.as_str()),
                _ => None,
            };
            if let Some(l) = super::stored::line(ops, &case.seq, exception, error_suite) {
                lines.push(format!("    {l}"));
            }
        }
        // the line of the method's first line (after the stored sequence's comment)
        let body_start = lines.len() + 1;
        let (body, asserted) = method_lines(ops, case, method, cfg.junit, &namer);
        lines.extend(body);
        tests.push(WrittenTest {
            case: *idx,
            method: method.clone(),
            lines: (start, lines.len()),
            assertions: asserted
                .into_iter()
                .map(|(i, a)| (body_start + i, a))
                .collect(),
        });
    }
    lines.push("}".into());
    let mut src = lines.join("\n");
    src.push('\n');
    (ascii(&src), tests)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn namer_shortens_unambiguous_names() {
        let used: BTreeSet<String> = [
            "java.util.TreeMap",
            "java.util.List",
            "java.awt.List",
            "java.util.Map$Entry",
            "java.lang.String",
            "com.x.Integer",
            "com.x.Test",
            "com.x.RegressionTest0",
            "java.lang.Thread$State",
            "Plain",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let n = Namer::new(&used, Some("com.t"), "RegressionTest0");
        assert_eq!(n.class("java.util.TreeMap"), "TreeMap");
        assert_eq!(n.class("java.util.Map$Entry"), "Map.Entry");
        assert_eq!(n.class("java.util.List"), "java.util.List");
        assert_eq!(n.class("java.awt.List"), "java.awt.List");
        assert_eq!(n.class("java.lang.String"), "String");
        assert_eq!(n.class("com.x.Integer"), "com.x.Integer");
        assert_eq!(n.class("com.x.Test"), "com.x.Test");
        assert_eq!(n.class("com.x.RegressionTest0"), "com.x.RegressionTest0");
        assert_eq!(n.class("java.lang.Thread$State"), "Thread.State");
        assert_eq!(n.class("Plain"), "Plain");
        let imports: Vec<&str> = n.imports.iter().map(|s| s.as_str()).collect();
        assert_eq!(imports, vec!["java.util.Map", "java.util.TreeMap"]);
    }

    #[test]
    fn casts_parenthesize_negative_numbers() {
        assert_eq!(cast("Object", false, "-1"), "(Object) (-1)");
        assert_eq!(cast("int", true, "-1"), "(int) -1");
        assert_eq!(cast("Object", false, "(String) null"), "(Object) null");
        assert_eq!(receiver("(String) null"), "((String) null)");
        assert_eq!(receiver("str0"), "str0");
    }
}
