//! The solver conversation of `jforge concolic`, behind a small trait so that z3, cvc5 or any
//! SMT-LIB2 solver (and a test double) are interchangeable: a [`Query`] is bit-vector
//! variables, shared definitions and assertions as s-expressions ([`Term`]); the answer is a
//! model of the variables, "unsatisfiable" or "unknown" (the per-query time limit).
//!
//! The process and the SMT-LIB2 text go through the `easy-smt` crate (spawning, pipes,
//! `print-success`, typed responses); each query runs between `push` and `pop`, so one
//! solver process serves a whole run.

use anyhow::{Context, Result, bail};
use std::time::{Duration, Instant};

/// An s-expression: an atom (symbol, `#x..` literal) or a list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Atom(String),
    List(Vec<Term>),
}

impl Term {
    pub fn atom(s: impl Into<String>) -> Term {
        Term::Atom(s.into())
    }

    /// `(head args..)`.
    pub fn app(head: &str, args: Vec<Term>) -> Term {
        let mut v = vec![Term::atom(head)];
        v.extend(args);
        Term::List(v)
    }

    /// `((_ name i..) arg)`: an indexed operator such as `(_ sign_extend 24)`.
    pub fn indexed(name: &str, idx: &[u32], arg: Term) -> Term {
        let mut head = vec![Term::atom("_"), Term::atom(name)];
        head.extend(idx.iter().map(|i| Term::atom(i.to_string())));
        Term::List(vec![Term::List(head), arg])
    }

    /// A bit-vector literal of `width` bits (a multiple of 4, or 1).
    pub fn bv(value: u64, width: u32) -> Term {
        let masked = if width >= 64 {
            value
        } else {
            value & ((1u64 << width) - 1)
        };
        if width.is_multiple_of(4) {
            Term::Atom(format!("#x{masked:0w$x}", w = (width / 4) as usize))
        } else {
            Term::Atom(format!("#b{masked:0w$b}", w = width as usize))
        }
    }

    /// The SMT-LIB2 text.
    pub fn text(&self) -> String {
        match self {
            Term::Atom(a) => a.clone(),
            Term::List(v) => {
                let parts: Vec<String> = v.iter().map(Term::text).collect();
                format!("({})", parts.join(" "))
            }
        }
    }
}

/// One satisfiability question.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// Variables: name and bit width.
    pub vars: Vec<(String, u32)>,
    /// Definitions in order (each may use the earlier ones): name, bit width, body.
    pub defs: Vec<(String, u32, Term)>,
    pub asserts: Vec<Term>,
    /// Assertions tried first and dropped if the query is unsatisfiable with them (short
    /// arrays: readable tests).
    pub prefer: Vec<Term>,
}

/// A variable's value in a model.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Val {
    /// A bit-vector, as unsigned bits.
    Bits(u64),
    /// A String (width 0, [`STRING`]).
    Str(String),
}

/// What the solver said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Values of [`Query::vars`], in order.
    Sat(Vec<Val>),
    Unsat,
    /// Time limit reached (or the solver gave up).
    Unknown,
}

/// A solver: z3 or cvc5 in a process, or anything else that answers queries.
pub trait Solver {
    fn check(&mut self, q: &Query) -> Result<Answer>;
    /// Calls so far and the time spent in them.
    fn calls(&self) -> (u64, Duration);
}

/// Which solver `--solver` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverKind {
    Z3,
    Cvc5,
}

/// An SMT-LIB 2.6 string literal: every character as `\u{..}`, so that quotes, backslashes
/// and non-ASCII characters need no other escape (z3 and cvc5 read the same).
pub fn string_literal(s: &str) -> Term {
    let body: String = s.encode_utf16().map(|u| format!("\\u{{{u:x}}}")).collect();
    Term::atom(format!("\"{body}\""))
}

/// The width of String values: 0 stands for the SMT-LIB sort `String` (the solver declares it so).
pub const STRING: u32 = 0;

/// Whether a query over these definitions needs the string theory.
pub fn uses_strings(defs: &[(String, u32, Term)]) -> bool {
    defs.iter().any(|d| d.1 == STRING)
}

/// A solver found and its per-query time limit.
#[derive(Clone, Debug)]
pub struct SolverSpec {
    pub path: std::path::PathBuf,
    pub kind: SolverKind,
    pub timeout: Duration,
}

impl SolverSpec {
    /// The solver asked for (`z3`, `cvc5` or a path; a clear message when none is
    /// installed) with its per-query time limit.
    pub fn find(choice: &crate::settings::SolverChoice) -> Result<SolverSpec> {
        let (path, kind) = locate(&choice.solver)?;
        Ok(SolverSpec {
            path,
            kind,
            timeout: choice.timeout,
        })
    }

    /// Starts the solver process.
    pub fn start(&self) -> Result<SmtProcess> {
        SmtProcess::start(&self.path, &self.kind, self.timeout)
    }
}

/// Finds the solver program for `--solver z3|cvc5|PATH`: the name on PATH, or the path
/// itself (its kind from its file name). Errors say how to install one.
pub fn locate(spec: &str) -> Result<(std::path::PathBuf, SolverKind)> {
    let path = std::path::Path::new(spec);
    let kind = match path.file_name().and_then(|n| n.to_str()) {
        Some(n) if n.contains("cvc5") => SolverKind::Cvc5,
        _ => SolverKind::Z3,
    };
    if path.components().count() > 1 {
        if path.is_file() {
            return Ok((path.to_path_buf(), kind));
        }
        bail!("--solver {spec}: no such file; give the path of a z3 or cvc5 executable");
    }
    let found = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|d| d.join(spec))
        .find(|p| p.is_file());
    match found {
        Some(p) => Ok((p, kind)),
        None => bail!(
            "concolic generation (jforge concolic, gen --concolic) needs an SMT solver and `{spec}` is not on PATH: install one \
             (Debian/Ubuntu: `apt-get install z3` or `apt-get install cvc5`; macOS: `brew \
             install z3`) or name it with --solver z3|cvc5|PATH"
        ),
    }
}

/// A solver process spoken to in SMT-LIB2 through `easy-smt`: one for bit-vector queries
/// (logic QF_BV, where the solvers are fastest) and, started at the first query with a
/// String, one for the string theory (logic ALL: cvc5 needs it for strings).
pub struct SmtProcess {
    bv: easy_smt::Context,
    strings: Option<easy_smt::Context>,
    program: std::path::PathBuf,
    kind: SolverKind,
    limit: Duration,
    calls: u64,
    time: Duration,
    /// Queries the solver answered with an error, and the first error's text.
    errors: u64,
    first_error: Option<String>,
}

/// Starts a solver process with a per-query time limit and a logic.
fn start_context(
    program: &std::path::Path,
    kind: &SolverKind,
    limit: Duration,
    logic: &str,
) -> Result<easy_smt::Context> {
    let ms = limit.as_millis().max(1);
    let args: Vec<String> = match kind {
        SolverKind::Z3 => vec!["-smt2".into(), "-in".into(), format!("-t:{ms}")],
        SolverKind::Cvc5 => vec![
            "--quiet".into(),
            "--lang=smt2".into(),
            "--incremental".into(),
            // str.at and str.prefixof need cvc5's extended string functions
            "--strings-exp".into(),
            format!("--tlimit-per={ms}"),
        ],
    };
    // JFORGE_SMT_LOG=FILE: every command sent to the solver, to replay by hand (the string
    // theory's process writes FILE.strings).
    let log = match std::env::var_os("JFORGE_SMT_LOG") {
        Some(p) => {
            let mut p = std::path::PathBuf::from(p);
            if logic != "QF_BV" {
                p.as_mut_os_string().push(".strings");
            }
            Some(
                std::fs::File::create(&p)
                    .with_context(|| format!("creating JFORGE_SMT_LOG file {}", p.display()))?,
            )
        }
        None => None,
    };
    let mut ctx = easy_smt::ContextBuilder::new()
        .solver(program)
        .solver_args(args)
        .replay_file(log)
        .build()
        .with_context(|| format!("starting the SMT solver {}", program.display()))?;
    ctx.set_logic(logic)
        .with_context(|| format!("setting up the SMT solver {}", program.display()))?;
    Ok(ctx)
}

impl SmtProcess {
    /// Starts the solver with a per-query time limit.
    pub fn start(program: &std::path::Path, kind: &SolverKind, limit: Duration) -> Result<Self> {
        Ok(SmtProcess {
            bv: start_context(program, kind, limit, "QF_BV")?,
            strings: None,
            program: program.to_path_buf(),
            kind: kind.clone(),
            limit,
            calls: 0,
            time: Duration::ZERO,
            errors: 0,
            first_error: None,
        })
    }

    /// Queries the solver refused with an error (answered as unknown), and the first one's
    /// text.
    pub fn errors(&self) -> (u64, Option<&str>) {
        (self.errors, self.first_error.as_deref())
    }

    /// After an error, a fresh process for the theory that failed: the old one may be
    /// left inside a `push`, or may have exited.
    fn restart(&mut self, strings: bool) -> Result<()> {
        if strings {
            self.strings = None;
        } else {
            self.bv = start_context(&self.program, &self.kind, self.limit, "QF_BV")?;
        }
        Ok(())
    }

    /// The process for a query: the string theory's when a variable or definition is a
    /// String (`strings`).
    fn context_for(&mut self, strings: bool) -> Result<&mut easy_smt::Context> {
        if !strings {
            return Ok(&mut self.bv);
        }
        if self.strings.is_none() {
            self.strings = Some(start_context(&self.program, &self.kind, self.limit, "ALL")?);
        }
        self.strings
            .as_mut()
            .context("internal error: the string solver did not start")
    }
}

fn sexpr(ctx: &easy_smt::Context, t: &Term) -> easy_smt::SExpr {
    match t {
        Term::Atom(a) => ctx.atom(a.as_str()),
        Term::List(v) => ctx.list(v.iter().map(|x| sexpr(ctx, x)).collect()),
    }
}

/// The sort of a width: a bit-vector, or String for width 0.
fn sort(ctx: &easy_smt::Context, width: u32) -> easy_smt::SExpr {
    if width == STRING {
        ctx.atom("String")
    } else {
        ctx.bit_vec_sort(ctx.numeral(width))
    }
}

/// Asks about a query with Strings or preferences: first with the Strings' characters kept
/// to printable ASCII (a test that reads `"run:abc"`, not `"run:\ufffe\uea96"`) and the
/// preferred assertions (short arrays), then, if that is impossible, with any 16-bit char
/// and without them.
fn ask_readable(ctx: &mut easy_smt::Context, q: &Query) -> Result<Answer> {
    ctx.push()?;
    let r = ask(ctx, q, (' ', '~'), &q.prefer);
    ctx.pop()?;
    match r? {
        Answer::Unsat => ask(ctx, q, ('\u{0}', '\u{ffff}'), &[]),
        a => Ok(a),
    }
}

/// Declares the variables (a String's characters kept to `chars`), defines the
/// definitions, asserts, checks and reads the model.
fn ask(
    ctx: &mut easy_smt::Context,
    q: &Query,
    chars: (char, char),
    prefer: &[Term],
) -> Result<Answer> {
    for (name, width) in &q.vars {
        let s = sort(ctx, *width);
        ctx.declare_const(name.as_str(), s)?;
        if *width == STRING {
            let utf16 = Term::app(
                "str.in_re",
                vec![
                    Term::atom(name.as_str()),
                    Term::app(
                        "re.*",
                        vec![Term::app(
                            "re.range",
                            vec![
                                string_literal(&chars.0.to_string()),
                                string_literal(&chars.1.to_string()),
                            ],
                        )],
                    ),
                ],
            );
            let e = sexpr(ctx, &utf16);
            ctx.assert(e)?;
        }
    }
    for (name, width, body) in &q.defs {
        let s = sort(ctx, *width);
        let b = sexpr(ctx, body);
        ctx.define_const(name.as_str(), s, b)?;
    }
    for a in q.asserts.iter().chain(prefer) {
        let e = sexpr(ctx, a);
        ctx.assert(e)?;
    }
    Ok(match ctx.check()? {
        easy_smt::Response::Sat => {
            let names: Vec<easy_smt::SExpr> =
                q.vars.iter().map(|(n, _)| ctx.atom(n.as_str())).collect();
            let vals = if names.is_empty() {
                Vec::new()
            } else {
                ctx.get_value(names)?
            };
            let mut out = Vec::with_capacity(vals.len());
            for (_, v) in vals {
                let text = ctx.display(v).to_string();
                let val = match parse_bv(&text) {
                    Some(b) => Val::Bits(b),
                    None => Val::Str(parse_string(&text).with_context(|| {
                        format!(
                            "reading the solver's value {text} (expected a bit-vector or a String)"
                        )
                    })?),
                };
                out.push(val);
            }
            Answer::Sat(out)
        }
        easy_smt::Response::Unsat => Answer::Unsat,
        easy_smt::Response::Unknown => Answer::Unknown,
    })
}

impl Solver for SmtProcess {
    /// One query. A query the solver answers with an error (a declaration it refuses, a
    /// term it does not support, a crash) is that alternative's "unknown", counted in
    /// [`SmtProcess::errors`], and the next query goes to a fresh process: one query must
    /// not end the exploration of every method after it (a duplicate declaration once
    /// stopped `gen --concolic`'s helper for the rest of the run). A solver that cannot be
    /// started again is an error.
    fn check(&mut self, q: &Query) -> Result<Answer> {
        let t0 = Instant::now();
        let strings = q.vars.iter().any(|v| v.1 == STRING) || uses_strings(&q.defs);
        let ctx = self.context_for(strings)?;
        let r = ctx.push().map_err(anyhow::Error::from).and_then(|()| {
            let r = if q.vars.iter().any(|v| v.1 == STRING) || !q.prefer.is_empty() {
                ask_readable(ctx, q)
            } else {
                ask(ctx, q, ('\u{0}', '\u{ffff}'), &[])
            };
            let popped = ctx.pop();
            r.and_then(|a| popped.map(|()| a).map_err(Into::into))
        });
        self.calls += 1;
        self.time += t0.elapsed();
        match r {
            Ok(a) => Ok(a),
            Err(e) => {
                self.errors += 1;
                self.first_error
                    .get_or_insert_with(|| format!("talking to the SMT solver: {e:#}"));
                self.restart(strings)
                    .context("restarting the SMT solver after an error")?;
                Ok(Answer::Unknown)
            }
        }
    }

    fn calls(&self) -> (u64, Duration) {
        (self.calls, self.time)
    }
}

/// A bit-vector value as the solver prints it: `#x..`, `#b..` or `(_ bvN W)`.
pub fn parse_bv(s: &str) -> Option<u64> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("#x") {
        return u64::from_str_radix(h, 16).ok();
    }
    if let Some(b) = s.strip_prefix("#b") {
        return u64::from_str_radix(b, 2).ok();
    }
    let inner = s.strip_prefix("(_ bv")?.strip_suffix(')')?;
    inner.split_whitespace().next()?.parse().ok()
}

/// A String value as the solver prints it: in double quotes, `""` for a quote, `\u{..}`
/// (or `\uXXXX`) for a character by its code; other characters as they are.
pub fn parse_string(s: &str) -> Option<String> {
    let inner = s.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut units: Vec<u16> = Vec::new();
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if chars.peek() == Some(&'"') => {
                chars.next();
                units.push(b'"' as u16);
            }
            '\\' if chars.peek() == Some(&'u') => {
                chars.next();
                let hex: String = if chars.peek() == Some(&'{') {
                    chars.next();
                    chars.by_ref().take_while(|&c| c != '}').collect()
                } else {
                    chars.by_ref().take(4).collect()
                };
                let code = u32::from_str_radix(&hex, 16).ok()?;
                units.push(u16::try_from(code).ok()?);
            }
            c => {
                let mut buf = [0u16; 2];
                units.extend_from_slice(c.encode_utf16(&mut buf));
            }
        }
    }
    Some(String::from_utf16_lossy(&units))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_and_values_round_trip() {
        assert_eq!(Term::bv(u64::MAX, 32).text(), "#xffffffff");
        assert_eq!(Term::bv(1, 1).text(), "#b1");
        assert_eq!(parse_bv("#x0000001f"), Some(31));
        assert_eq!(parse_bv("#b101"), Some(5));
        assert_eq!(parse_bv("(_ bv42 32)"), Some(42));
        assert_eq!(parse_bv("oops"), None);
        assert_eq!(
            parse_string(r#""a""\u{e9}B\u0041""#).as_deref(),
            Some("a\"éBA")
        );
        assert_eq!(parse_string("\"\"").as_deref(), Some(""));
        assert_eq!(parse_string("#x01"), None);
        assert_eq!(
            Term::indexed("sign_extend", &[24], Term::atom("p0")).text(),
            "((_ sign_extend 24) p0)"
        );
    }

    #[test]
    fn a_query_the_solver_refuses_is_unknown_and_the_next_one_is_answered() {
        // z3 is installed by .ci/run; without it there is nothing to talk to
        let Ok((z3, kind)) = locate("z3") else {
            return;
        };
        let mut s = SmtProcess::start(&z3, &kind, Duration::from_secs(5)).unwrap();
        let var = |n: &str| (n.to_string(), 32);
        let seven = Term::app("=", vec![Term::atom("p0"), Term::bv(7, 32)]);
        let refused = Query {
            vars: vec![var("p6"), var("p6")],
            defs: Vec::new(),
            asserts: Vec::new(),
            prefer: Vec::new(),
        };
        assert_eq!(s.check(&refused).unwrap(), Answer::Unknown);
        let (n, first) = s.errors();
        assert_eq!(n, 1);
        assert!(first.unwrap().contains("p6"), "{first:?}");
        let fine = Query {
            vars: vec![var("p0")],
            asserts: vec![seven],
            ..refused
        };
        assert_eq!(s.check(&fine).unwrap(), Answer::Sat(vec![Val::Bits(7)]));
        assert_eq!(s.errors().0, 1);
        assert_eq!(s.calls().0, 2);
    }

    #[test]
    fn a_missing_solver_says_how_to_install_one() {
        let e = locate("no-such-solver-jforge").unwrap_err().to_string();
        assert!(e.contains("apt-get install z3"), "{e}");
        assert!(e.contains("--solver"), "{e}");
    }
}
