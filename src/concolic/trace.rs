//! The trace of one traced sequence, as `jforge.rt.Sym` writes it (TRACE_SECTION of a RESULT
//! frame), and its translation to SMT-LIB2 bit-vector terms with Java's semantics.
//!
//! Format, one item per line: `N id var K i` (the literal of statement i, an argument of kind
//! K: I J S B C Z, as its 32- or 64-bit value), `N id const W v`, `N id OP W a [b]` (an
//! operation of width W on earlier nodes); `B site taken CMP a b` (a conditional jump at
//! `site` whose condition `a CMP b` was `taken`), `S site key n` (a switch on node n took
//! `key`), `A site index n len` (an array access at the symbolic index n), `U site taken OP`
//! (a conditional jump or switch whose condition depended on the inputs through OP, an
//! operation the trace does not model: decided concretely, named in the report), `D s n k`
//! (statement s wrote n fields or array elements, k of them overwritten by a later statement
//! before any read them), `X ...` (notes: frames out of step, a trace too long). Kind L is
//! the length of an array argument made by statement i. Why text: the trace is built in the worker from string pieces anyway, it is read
//! once per run, and a line format is easy to check by eye.

use super::solver::{STRING, Term, string_literal};
use anyhow::{Context, Result, bail};

/// A node of the trace's expression DAG.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    Var {
        kind: char,
        index: usize,
    },
    Const {
        width: u32,
        value: i64,
    },
    Op {
        op: String,
        width: u32,
        args: Vec<usize>,
    },
    /// A String constant (compared with a symbolic String).
    Str(String),
}

/// A switch's default, whatever key took it.
pub const DEFAULT_CASE: i64 = i64::MIN;

/// Which way a decision went.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Choice {
    /// A conditional jump: taken or not.
    Branch(bool),
    /// A switch: the key it took.
    Case(i64),
}

/// One symbolic decision of the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    pub site: String,
    pub choice: Choice,
    /// Branch: (comparison, a, b), the jump's condition; switch: ("switch", on, on).
    pub cmp: String,
    pub a: usize,
    pub b: usize,
    /// An array access (`cmp` "array"): the array's length; `a` is the index.
    pub len: Option<i64>,
}

/// A parsed trace.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub nodes: Vec<Node>,
    pub events: Vec<Event>,
    /// Shadow values found out of step with the concrete run (dropped, see Sym).
    pub desyncs: u32,
    /// The trace was too long to send: the path is unknown.
    pub truncated: bool,
    /// Per statement that wrote fields or array elements: (statement, definitions,
    /// definitions overwritten by a later statement before any later statement read them).
    pub defs: Vec<(usize, u32, u32)>,
    /// Branches decided concretely because their condition depended on the inputs through
    /// an operation the trace does not model: (site, the operation).
    pub lost: Vec<(String, String)>,
}

/// Parses the worker's trace text.
pub fn parse(text: &str) -> Result<Trace> {
    let mut t = Trace::default();
    for (k, line) in text.lines().enumerate() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let bad = || format!("trace line {}: `{line}`", k + 1);
        match f.first().copied() {
            Some("N") => {
                let id: usize = f.get(1).context("no id").with_context(bad)?.parse()?;
                if id != t.nodes.len() {
                    bail!("{}: node ids out of order", bad());
                }
                t.nodes.push(parse_node(&f[2..], id).with_context(bad)?);
            }
            Some("B") if f.len() == 6 => t.events.push(Event {
                site: f[1].to_string(),
                choice: Choice::Branch(f[2] == "1"),
                cmp: f[3].to_string(),
                a: node_ref(f[4], t.nodes.len()).with_context(bad)?,
                b: node_ref(f[5], t.nodes.len()).with_context(bad)?,
                len: None,
            }),
            Some("A") if f.len() == 5 => {
                let on = node_ref(f[3], t.nodes.len()).with_context(bad)?;
                let index: i64 = f[2].parse().with_context(bad)?;
                let len: i64 = f[4].parse().with_context(bad)?;
                t.events.push(Event {
                    site: f[1].to_string(),
                    choice: Choice::Case(if (0..len).contains(&index) {
                        index
                    } else {
                        DEFAULT_CASE
                    }),
                    cmp: "array".into(),
                    a: on,
                    b: on,
                    len: Some(len),
                })
            }
            Some("S") if f.len() == 4 => {
                let on = node_ref(f[3], t.nodes.len()).with_context(bad)?;
                t.events.push(Event {
                    site: f[1].to_string(),
                    choice: Choice::Case(f[2].parse().with_context(bad)?),
                    cmp: "switch".into(),
                    a: on,
                    b: on,
                    len: None,
                })
            }
            Some("D") if f.len() == 4 => t.defs.push((
                f[1].parse().with_context(bad)?,
                f[2].parse().with_context(bad)?,
                f[3].parse().with_context(bad)?,
            )),
            Some("U") if f.len() == 4 => t.lost.push((f[1].to_string(), f[3].to_string())),
            Some("X") => match f.get(1).copied() {
                Some("desync") => t.desyncs += f.get(2).and_then(|n| n.parse().ok()).unwrap_or(1),
                _ => t.truncated = true,
            },
            None => {}
            _ => bail!("{}: unknown item", bad()),
        }
    }
    Ok(t)
}

fn node_ref(s: &str, known: usize) -> Result<usize> {
    let id: usize = s.parse()?;
    if id >= known {
        bail!("refers to node {id} before it is defined");
    }
    Ok(id)
}

fn parse_node(f: &[&str], id: usize) -> Result<Node> {
    Ok(match f {
        ["var", kind, index] => Node::Var {
            kind: kind.chars().next().unwrap_or('I'),
            index: index.parse()?,
        },
        ["const", w, v] => Node::Const {
            width: w.parse()?,
            value: v.parse()?,
        },
        ["str", hex] => Node::Str(parse_utf16_hex(hex)?),
        [op, w, args @ ..] if !args.is_empty() && args.len() <= 2 => Node::Op {
            op: op.to_string(),
            width: w.parse()?,
            args: args
                .iter()
                .map(|a| node_ref(a, id))
                .collect::<Result<_>>()?,
        },
        _ => bail!("malformed node"),
    })
}

/// A String constant of the trace: its UTF-16 units, four hex digits each (`-`: empty).
fn parse_utf16_hex(hex: &str) -> Result<String> {
    if hex == "-" {
        return Ok(String::new());
    }
    if !hex.len().is_multiple_of(4) || !hex.is_ascii() {
        bail!("malformed String constant");
    }
    let units: Vec<u16> = (0..hex.len())
        .step_by(4)
        .map(|i| u16::from_str_radix(&hex[i..i + 4], 16))
        .collect::<std::result::Result<_, _>>()?;
    Ok(String::from_utf16_lossy(&units))
}

/// Array arguments have at most this many elements (the bound of a length variable, kind
/// L): tests stay readable, and a loop over the elements stays within `--max-depth`.
pub const MAX_ARRAY: u64 = 16;

/// The length the solver is asked to keep an array argument within first (then up to
/// [`MAX_ARRAY`]).
pub const SHORT_ARRAY: u64 = 4;

/// The declared width of a parameter variable of kind K (T: a String, L: an array's length).
pub fn var_width(kind: char) -> u32 {
    match kind {
        'T' => STRING,
        'J' => 64,
        'S' | 'C' => 16,
        'B' => 8,
        'Z' => 1,
        _ => 32,
    }
}

/// The name of parameter variable i.
pub fn var_name(index: usize) -> String {
    format!("p{index}")
}

/// The parameter variables the definitions use, each once, in order of first use, with
/// its width. A trace may hold a parameter's `var` node more than once, apart (a parameter
/// read again after other values); the solver refuses a second declaration of one name
/// (`gen --concolic` on HardBranches in CI: "constant 'p6' already declared", which ended
/// the helper for the rest of the run).
pub fn declared_vars(nodes: &[Node], defs: &[(String, u32, Term)]) -> Vec<(String, u32)> {
    let mut seen = std::collections::HashSet::new();
    nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| match n {
            Node::Var { kind, index } if defs.iter().any(|d| d.0 == format!("n{i}")) => {
                Some((var_name(*index), var_width(*kind)))
            }
            _ => None,
        })
        .filter(|(name, _)| seen.insert(name.clone()))
        .collect()
}

/// The width of node `n`'s value.
pub fn width(nodes: &[Node], n: usize) -> u32 {
    match &nodes[n] {
        Node::Var { kind: 'J', .. } => 64,
        Node::Var { kind: 'T', .. } | Node::Str(_) => STRING,
        Node::Var { .. } => 32,
        Node::Const { width, .. } | Node::Op { width, .. } => *width,
    }
}

/// The term of node `n`, its operands referred to by name (`n<id>` definitions, see
/// [`definitions`]).
fn node_term(nodes: &[Node], n: usize) -> Result<Term> {
    let r = |i: usize| Term::atom(format!("n{i}"));
    Ok(match &nodes[n] {
        Node::Var { kind, index } => {
            let v = Term::atom(var_name(*index));
            match kind {
                'S' => Term::indexed("sign_extend", &[16], v),
                'B' => Term::indexed("sign_extend", &[24], v),
                'C' => Term::indexed("zero_extend", &[16], v),
                'Z' => Term::indexed("zero_extend", &[31], v),
                _ => v,
            }
        }
        Node::Const { width, value } => Term::bv(*value as u64, *width),
        Node::Str(v) => string_literal(v),
        Node::Op { op, .. } if STRING_OPS.contains(&op.as_str()) => string_op(nodes, n)?,
        Node::Op { op, width, args } => {
            let a = r(args[0]);
            let b = || {
                args.get(1)
                    .map(|&x| r(x))
                    .context("a binary operation needs two operands")
            };
            match op.as_str() {
                "bvadd" | "bvsub" | "bvmul" | "bvsdiv" | "bvsrem" | "bvand" | "bvor" | "bvxor" => {
                    Term::app(op, vec![a, b()?])
                }
                "bvneg" => Term::app("bvneg", vec![a]),
                "shl" | "ashr" | "lshr" => {
                    // Java masks the shift distance (an int) to the operand's width.
                    let name = match op.as_str() {
                        "shl" => "bvshl",
                        "ashr" => "bvashr",
                        _ => "bvlshr",
                    };
                    let mask = Term::app("bvand", vec![b()?, Term::bv(*width as u64 - 1, 32)]);
                    let dist = if *width == 64 {
                        Term::indexed("zero_extend", &[32], mask)
                    } else {
                        mask
                    };
                    Term::app(name, vec![a, dist])
                }
                "i2b" => Term::indexed("sign_extend", &[24], Term::indexed("extract", &[7, 0], a)),
                "i2s" => Term::indexed("sign_extend", &[16], Term::indexed("extract", &[15, 0], a)),
                "i2c" => Term::indexed("zero_extend", &[16], Term::indexed("extract", &[15, 0], a)),
                "i2l" => Term::indexed("sign_extend", &[32], a),
                "l2i" => Term::indexed("extract", &[31, 0], a),
                "lcmp" => {
                    let b = b()?;
                    Term::app(
                        "ite",
                        vec![
                            Term::app("bvslt", vec![a.clone(), b.clone()]),
                            Term::bv(u64::MAX, 32),
                            Term::app(
                                "ite",
                                vec![Term::app("=", vec![a, b]), Term::bv(0, 32), Term::bv(1, 32)],
                            ),
                        ],
                    )
                }
                other => bail!("unknown operation {other} in the trace"),
            }
        }
    })
}

/// The operations on Strings a trace may hold.
const STRING_OPS: [&str; 9] = [
    "slen", "sempty", "seq", "spre", "sat", "ssuf", "scont", "sidxs", "sidxc",
];

/// The term of a String operation (`slen`, `sempty`, `seq`, `spre`, `sat`): an int, as a
/// 32-bit vector (booleans 0 or 1, as Java's). A length or a char is the variable `l<id>`
/// that [`string_links`] ties to its integer.
fn string_op(nodes: &[Node], n: usize) -> Result<Term> {
    let Node::Op { op, args, .. } = &nodes[n] else {
        bail!("not a String operation");
    };
    let r = |k: usize| -> Result<Term> {
        let i = *args.get(k).context("a String operation lacks an operand")?;
        Ok(Term::atom(format!("n{i}")))
    };
    let bool01 = |c: Term| Term::app("ite", vec![c, Term::bv(1, 32), Term::bv(0, 32)]);
    Ok(match op.as_str() {
        "slen" | "sat" | "sidxs" | "sidxc" => Term::atom(format!("l{n}")),
        "sempty" => bool01(Term::app(
            "=",
            vec![Term::app("str.len", vec![r(0)?]), Term::atom("0")],
        )),
        "seq" => bool01(Term::app("=", vec![r(0)?, r(1)?])),
        // s.startsWith(p): p is a prefix of s
        "spre" => bool01(Term::app("str.prefixof", vec![r(1)?, r(0)?])),
        // s.endsWith(p): p is a suffix of s
        "ssuf" => bool01(Term::app("str.suffixof", vec![r(1)?, r(0)?])),
        "scont" => bool01(Term::app("str.contains", vec![r(0)?, r(1)?])),
        other => bail!("unknown String operation {other} in the trace"),
    })
}

/// The integer a length, char or index node stands for: `(str.len s)`, `(str.to_code
/// (str.at s i))` (a constant index as a numeral), `(str.indexof s t 0)`; an `indexOf` of a
/// char is -1 for a code past 0xFFFF (not modelled).
fn string_int(nodes: &[Node], n: usize) -> Result<Option<Term>> {
    let Node::Op { op, args, .. } = &nodes[n] else {
        return Ok(None);
    };
    let r = |k: usize| -> Result<Term> {
        let i = *args.get(k).context("a String operation lacks an operand")?;
        Ok(Term::atom(format!("n{i}")))
    };
    Ok(match op.as_str() {
        "slen" => Some(Term::app("str.len", vec![r(0)?])),
        "sat" => {
            let at = match args.get(1).map(|&i| &nodes[i]) {
                Some(Node::Const { value, .. }) if *value >= 0 => Term::atom(value.to_string()),
                _ => Term::app("bv2nat", vec![r(1)?]),
            };
            Some(Term::app(
                "str.to_code",
                vec![Term::app("str.at", vec![r(0)?, at])],
            ))
        }
        "sidxs" => Some(Term::app(
            "str.indexof",
            vec![r(0)?, r(1)?, Term::atom("0")],
        )),
        "sidxc" => {
            let ch = r(1)?;
            let unit = match args.get(1).map(|&i| &nodes[i]) {
                // one UTF-16 unit, a lone surrogate too (what `string_literal` writes)
                Some(Node::Const { value, .. }) if (0..=0xFFFF).contains(value) => {
                    Term::atom(format!("\"\\u{{{value:x}}}\""))
                }
                _ => Term::app("str.from_code", vec![Term::app("bv2nat", vec![ch.clone()])]),
            };
            Some(Term::app(
                "ite",
                vec![
                    Term::app("bvult", vec![ch, Term::bv(0x1_0000, 32)]),
                    Term::app("str.indexof", vec![r(0)?, unit, Term::atom("0")]),
                    Term::app("-", vec![Term::atom("1")]),
                ],
            ))
        }
        _ => None,
    })
}

/// A declared variable: name and width.
pub type Var = (String, u32);

/// The variables `l<id>` of the length and char nodes among `defs`, and the assertions that
/// tie each to its integer: `(= (bv2nat l<id>) (str.len s))`. Why not `(_ int2bv 32)` in
/// the definition: cvc5 1.0.3 does not solve `int2bv` of a length within 10 s, and solves
/// this form at once (z3 solves both).
pub fn string_links(nodes: &[Node], defs: &[(String, u32, Term)]) -> Result<(Vec<Var>, Vec<Term>)> {
    let mut vars = Vec::new();
    let mut asserts = Vec::new();
    for (name, _, _) in defs {
        let Some(i) = name.strip_prefix('n').and_then(|s| s.parse::<usize>().ok()) else {
            continue;
        };
        if let Some(int) = string_int(nodes, i)? {
            let l = format!("l{i}");
            let nat = Term::app(
                "=",
                vec![
                    Term::app("bv2nat", vec![Term::atom(l.as_str())]),
                    int.clone(),
                ],
            );
            let signed = matches!(&nodes[i], Node::Op { op, .. } if op.starts_with("sidx"));
            asserts.push(if signed {
                // an index or -1 (not found)
                Term::app(
                    "ite",
                    vec![
                        Term::app("=", vec![int, Term::app("-", vec![Term::atom("1")])]),
                        Term::app("=", vec![Term::atom(l.as_str()), Term::bv(u64::MAX, 32)]),
                        nat,
                    ],
                )
            } else {
                nat
            });
            vars.push((l, 32));
        }
    }
    Ok((vars, asserts))
}

/// Makes the variables of the statements `pinned` names concrete (their value in `inputs`)
/// and drops the decisions that then depend on no variable: the receiver built by a state of
/// `super::states` is a fixed prefix, its decisions were explored when the state was found,
/// and only the calls after it are inputs. String variables become String constants.
///
/// `lengths`: the array statements of the fixed prefix and their lengths, whose length
/// variables (kind L) become constants too (the prefix's statements do not change).
pub fn pin(
    t: &mut Trace,
    inputs: &[crate::sequence::Value],
    pinned: &[usize],
    lengths: &[(usize, usize)],
) {
    use crate::sequence::Value as V;
    let mut symbolic = vec![false; t.nodes.len()];
    for n in 0..t.nodes.len() {
        let fixed_len = match &t.nodes[n] {
            Node::Var { kind: 'L', index } => lengths.iter().find(|l| l.0 == *index),
            _ => None,
        };
        if let Some(&(_, len)) = fixed_len {
            t.nodes[n] = Node::Const {
                width: 32,
                value: len as i64,
            };
        }
        let pinned = match &t.nodes[n] {
            Node::Var { kind: 'L', .. } => None,
            Node::Var { index, .. } if pinned.contains(index) => inputs.get(*index),
            _ => None,
        };
        let concrete = match (pinned, &t.nodes[n]) {
            (Some(V::Str(s)), _) => Some(Node::Str(s.clone())),
            (Some(v), Node::Var { kind, .. }) => {
                let value = match v {
                    V::Bool(b) => i64::from(*b),
                    V::Byte(x) => i64::from(*x),
                    V::Short(x) => i64::from(*x),
                    V::Char(x) => i64::from(*x),
                    V::Int(x) => i64::from(*x),
                    V::Long(x) => *x,
                    _ => 0,
                };
                let width = if *kind == 'J' { 64 } else { 32 };
                Some(Node::Const { width, value })
            }
            _ => None,
        };
        symbolic[n] = match (&concrete, &t.nodes[n]) {
            (Some(_), _) => false,
            (None, Node::Var { .. }) => true,
            (None, Node::Op { args, .. }) => args.iter().any(|&a| symbolic[a]),
            (None, _) => false,
        };
        if let Some(c) = concrete {
            t.nodes[n] = c;
        }
    }
    t.events.retain(|e| symbolic[e.a] || symbolic[e.b]);
}

/// The statements whose variables the decisions of `t` depend on.
pub fn decided_vars(t: &Trace) -> std::collections::BTreeSet<usize> {
    let mut uses: Vec<std::collections::BTreeSet<usize>> = Vec::with_capacity(t.nodes.len());
    for n in &t.nodes {
        let set = match n {
            Node::Var { index, .. } => [*index].into(),
            Node::Op { args, .. } => args.iter().flat_map(|&a| uses[a].clone()).collect(),
            _ => Default::default(),
        };
        uses.push(set);
    }
    t.events
        .iter()
        .flat_map(|e| {
            uses[e.a]
                .iter()
                .chain(&uses[e.b])
                .copied()
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Definitions `n<id>` of the nodes that `roots` use, in id order (children first).
pub fn definitions(nodes: &[Node], roots: &[usize]) -> Result<Vec<(String, u32, Term)>> {
    let mut need = vec![false; nodes.len()];
    let mut stack: Vec<usize> = roots.to_vec();
    while let Some(n) = stack.pop() {
        if std::mem::replace(&mut need[n], true) {
            continue;
        }
        if let Node::Op { args, .. } = &nodes[n] {
            stack.extend(args.iter().copied());
        }
    }
    let mut out = Vec::new();
    for (i, needed) in need.iter().enumerate() {
        if *needed {
            out.push((format!("n{i}"), width(nodes, i), node_term(nodes, i)?));
        }
    }
    Ok(out)
}

/// The condition of a branch event (the jump's condition), over the `n<id>` definitions.
pub fn jump_condition(e: &Event) -> Term {
    let (a, b) = (
        Term::atom(format!("n{}", e.a)),
        Term::atom(format!("n{}", e.b)),
    );
    let op = match e.cmp.as_str() {
        "eq" | "ne" => "=",
        "lt" => "bvslt",
        // an index within bounds (String.charAt)
        "ult" => "bvult",
        "ge" => "bvsge",
        "gt" => "bvsgt",
        _ => "bvsle",
    };
    let t = Term::app(op, vec![a, b]);
    if e.cmp == "ne" {
        Term::app("not", vec![t])
    } else {
        t
    }
}

/// The constraint that event `e` went the way `choice` says. `cases`: the keys of a switch
/// (a key not among them is the default).
pub fn constraint(e: &Event, choice: &Choice, cases: &[i64]) -> Term {
    match choice {
        Choice::Branch(true) => jump_condition(e),
        Choice::Branch(false) => Term::app("not", vec![jump_condition(e)]),
        Choice::Case(k) if e.len.is_some() => {
            let on = Term::atom(format!("n{}", e.a));
            if *k == DEFAULT_CASE {
                // out of bounds: the access throws
                let len = Term::bv(e.len.unwrap_or(0) as u64, 32);
                Term::app(
                    "or",
                    vec![
                        Term::app("bvslt", vec![on.clone(), Term::bv(0, 32)]),
                        Term::app("bvsge", vec![on, len]),
                    ],
                )
            } else {
                // pinned to the index the run used
                Term::app("=", vec![on, Term::bv(*k as u64, 32)])
            }
        }
        Choice::Case(k) => {
            let on = Term::atom(format!("n{}", e.a));
            let eq = |k: i64| Term::app("=", vec![on.clone(), Term::bv(k as u64, 32)]);
            if cases.contains(k) || cases.is_empty() {
                eq(*k)
            } else {
                let mut v: Vec<Term> = cases
                    .iter()
                    .map(|&c| Term::app("not", vec![eq(c)]))
                    .collect();
                v.push(Term::atom("true"));
                Term::app("and", v)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parameter_read_twice_apart_is_declared_once() {
        // p6 loaded, another parameter, then p6 loaded again: three var nodes, two names
        let t = parse(
            "N 0 var I 6\nN 1 var I 2\nN 2 bvadd 32 0 1\nN 3 var I 6\nN 4 bvmul 32 2 3\n\
             N 5 const 32 7\nB 12 0 eq 4 5\n",
        )
        .unwrap();
        let defs = definitions(&t.nodes, &[4, 5]).unwrap();
        assert_eq!(
            declared_vars(&t.nodes, &defs),
            vec![("p6".to_string(), 32), ("p2".to_string(), 32)]
        );
    }

    #[test]
    fn a_trace_parses_into_nodes_and_decisions() {
        let t = parse(
            "N 0 var I 0\nN 1 const 32 31\nN 2 bvmul 32 0 1\nN 3 var C 1\nN 4 const 32 7\n\
             B 12 0 eq 2 4\nS 20 3 3\nX desync 2\n",
        )
        .unwrap();
        assert_eq!(t.nodes.len(), 5);
        assert_eq!(t.events.len(), 2);
        assert_eq!(t.events[0].choice, Choice::Branch(false));
        assert_eq!(t.events[1].choice, Choice::Case(3));
        assert_eq!(t.desyncs, 2);
        let defs = definitions(&t.nodes, &[2]).unwrap();
        let text: Vec<String> = defs.iter().map(|d| d.2.text()).collect();
        assert_eq!(text, vec!["p0", "#x0000001f", "(bvmul n0 n1)"]);
        assert_eq!(
            constraint(&t.events[0], &Choice::Branch(false), &[]).text(),
            "(not (= n2 n4))"
        );
        assert_eq!(
            constraint(&t.events[1], &Choice::Case(9), &[1, 2]).text(),
            "(and (not (= n3 #x00000001)) (not (= n3 #x00000002)) true)"
        );
    }

    #[test]
    fn an_array_read_pins_its_index_and_out_of_bounds_is_one_choice() {
        let t = parse("N 0 var I 0\nA a5.3 2 0 8\nA a5.3 9 0 8\n").unwrap();
        assert_eq!(t.events[0].choice, Choice::Case(2));
        assert_eq!(t.events[1].choice, Choice::Case(super::DEFAULT_CASE));
        assert_eq!(t.events[0].len, Some(8));
        assert_eq!(
            constraint(&t.events[0], &Choice::Case(2), &[]).text(),
            "(= n0 #x00000002)"
        );
        assert_eq!(
            constraint(&t.events[1], &t.events[1].choice, &[]).text(),
            "(or (bvslt n0 #x00000000) (bvsge n0 #x00000008))"
        );
    }

    #[test]
    fn string_nodes_become_string_theory_terms() {
        let t = parse(
            "N 0 var T 0\nN 1 str 0072005c\nN 2 spre 32 0 1\nN 3 const 32 0\nB 5 1 eq 2 3\n\
             N 4 slen 32 0\nN 5 const 32 4\nB c1.2 1 ult 5 4\nN 6 sat 32 0 5\nN 7 str -\n\
             N 8 seq 32 0 7\n",
        )
        .unwrap();
        assert_eq!(t.nodes[1], Node::Str("r\\".into()));
        assert_eq!(t.nodes[7], Node::Str(String::new()));
        let defs = definitions(&t.nodes, &[2, 4, 6, 8]).unwrap();
        assert!(crate::concolic::solver::uses_strings(&defs));
        let text: Vec<(u32, String)> = defs.iter().map(|d| (d.1, d.2.text())).collect();
        assert_eq!(text[0], (STRING, "p0".into()));
        assert_eq!(text[1], (STRING, r#""\u{72}\u{5c}""#.into()));
        // s.startsWith(p) is (str.prefixof p s)
        assert_eq!(
            text[2].1,
            "(ite (str.prefixof n1 n0) #x00000001 #x00000000)"
        );
        assert_eq!(text[3].1, "l4");
        assert_eq!(text[5].1, "l6");
        let (vars, links) = string_links(&t.nodes, &defs).unwrap();
        assert_eq!(vars, vec![("l4".to_string(), 32), ("l6".to_string(), 32)]);
        let links: Vec<String> = links.iter().map(Term::text).collect();
        assert_eq!(links[0], "(= (bv2nat l4) (str.len n0))");
        // a constant index is a numeral
        assert_eq!(links[1], "(= (bv2nat l6) (str.to_code (str.at n0 4)))");
        assert_eq!(text[7].1, "(ite (= n0 n7) #x00000001 #x00000000)");
        assert_eq!(
            constraint(&t.events[1], &Choice::Branch(false), &[]).text(),
            "(not (bvult n5 n4))"
        );
        assert!(parse("N 0 str 12\n").is_err());
        assert!(parse("N 0 var T 0\nN 1 sfoo 32 0\n").is_ok());
        assert!(definitions(&parse("N 0 var T 0\nN 1 sfoo 32 0\n").unwrap().nodes, &[1]).is_err());
    }

    #[test]
    fn unsupported_operations_and_array_lengths_and_more_string_operations_parse() {
        let t = parse(
            "N 0 var L 3\nN 1 const 32 4\nB b7.2 1 ult 1 0\nU 12 0 String.hashCode\n\
             N 2 var T 0\nN 3 str 0021003f\nN 4 ssuf 32 2 3\nN 5 const 32 122\n\
             N 6 sidxc 32 2 5\nN 7 sidxs 32 2 3\nN 8 scont 32 2 3\n",
        )
        .unwrap();
        assert_eq!(
            t.lost,
            vec![("12".to_string(), "String.hashCode".to_string())]
        );
        assert_eq!(var_width('L'), 32);
        let defs = definitions(&t.nodes, &[0, 4, 6, 7, 8]).unwrap();
        let text: Vec<String> = defs.iter().map(|d| d.2.text()).collect();
        assert_eq!(text[0], "p3");
        assert!(text.contains(&"(ite (str.suffixof n3 n2) #x00000001 #x00000000)".to_string()));
        assert!(text.contains(&"(ite (str.contains n2 n3) #x00000001 #x00000000)".to_string()));
        let (vars, links) = string_links(&t.nodes, &defs).unwrap();
        assert_eq!(vars, vec![("l6".to_string(), 32), ("l7".to_string(), 32)]);
        let links: Vec<String> = links.iter().map(Term::text).collect();
        // indexOf is -1 when not found: the link is signed
        assert_eq!(
            links[0],
            "(ite (= (ite (bvult n5 #x00010000) (str.indexof n2 \"\\u{7a}\" 0) (- 1)) (- 1)) \
             (= l6 #xffffffff) (= (bv2nat l6) (ite (bvult n5 #x00010000) (str.indexof n2 \
             \"\\u{7a}\" 0) (- 1))))"
        );
        assert_eq!(
            links[1],
            "(ite (= (str.indexof n2 n3 0) (- 1)) (= l7 #xffffffff) (= (bv2nat l7) \
             (str.indexof n2 n3 0)))"
        );
        // a receiver's array has a fixed length: its variable becomes a constant
        let mut pinned = t.clone();
        pin(&mut pinned, &[], &[], &[(3, 5)]);
        assert_eq!(
            pinned.nodes[0],
            Node::Const {
                width: 32,
                value: 5
            }
        );
        assert!(pinned.events.is_empty());
    }

    #[test]
    fn malformed_traces_are_errors_not_panics() {
        assert!(parse("N 1 var I 0\n").is_err());
        assert!(parse("N 0 bvadd 32 0 5\n").is_err());
        assert!(parse("B 1 1 eq 0 0\n").is_err());
        assert!(parse("Q\n").is_err());
    }

    #[test]
    fn pinned_variables_become_constants_and_their_decisions_go() {
        use crate::sequence::Value;
        // p1 < p4 (a put's key against a key stored by an earlier call), p1 == 7 (only the
        // earlier call), p4 + p4 > 0 (only the call under test)
        let text = "N 0 var I 1\nN 1 var I 4\nN 2 const 32 7\nN 3 bvadd 32 1 1\n\
                    B j1 1 lt 0 1\nB j2 0 eq 0 2\nB j3 1 gt 3 2\n";
        let mut t = parse(text).unwrap();
        let inputs = vec![
            Value::Null,
            Value::Int(-3),
            Value::Null,
            Value::Null,
            Value::Int(9),
        ];
        assert_eq!(decided_vars(&t).into_iter().collect::<Vec<_>>(), [1, 4]);
        pin(&mut t, &inputs, &[0, 1, 2, 3], &[]);
        assert_eq!(
            t.nodes[0],
            Node::Const {
                width: 32,
                value: -3
            }
        );
        assert_eq!(
            t.nodes[1],
            Node::Var {
                kind: 'I',
                index: 4
            }
        );
        let sites: Vec<&str> = t.events.iter().map(|e| e.site.as_str()).collect();
        assert_eq!(sites, ["j1", "j3"]);
        // nothing pinned: every decision stays
        let mut all = parse(text).unwrap();
        pin(&mut all, &inputs, &[], &[]);
        assert_eq!(all.events.len(), 3);
    }
}
