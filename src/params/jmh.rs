//! `--jmh DIR`: a Maven project with one JMH benchmark per method that got working arguments
//! (seed 000's purpose: every method benchmarked).
//!
//! Each benchmark has a `@State` class whose `@Setup` runs the working call's statements
//! before the call (receiver construction, arguments, the elements a container received),
//! each into a field (literals too, so that the JIT cannot fold them into constants); the
//! `@Benchmark` method makes only the call and hands its result to a `Blackhole`. Modes
//! (seed 000): fixed arguments; `--vary` (n values of one parameter, a JMH `@Param`, each
//! value checked in a worker first: a value the call throws for is left out and reported);
//! repeated calls for a method that consumes its inputs (`List.remove(int)`, `Iterator.next`,
//! `Stack.pop`): the call is repeated in a worker up to [`REPEAT`] times, the longest run of
//! consecutive completed calls is reported, and a method that fails before [`REPEAT`] gets
//! its state made again before every invocation (`Level.Invocation`).
//!
//! The code is written from the sequence (a field per statement, fully qualified types), not
//! through the JUnit writer: a test method's locals cannot be split between a setup and a
//! measured call. The user's class path is copied into `DIR/lib` (folders as jars, made with
//! the JDK's `jar`), so the project builds and runs on its own: `mvn -q package`, then
//! `java -jar target/benchmarks.jar`.

use super::{Search, Status};
use crate::emit::literal::java_literal;
use crate::model::types::source_name;
use crate::runner::{ExecMode, ExecRequest, Pool, StmtOutcome};
use crate::sequence::{OpKind, OpTable, Operation, SeqRef, Sequence, Stmt, Value};
use anyhow::{Context, bail};
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Calls a consuming method is repeated in the worker to find its longest run.
pub const REPEAT: u32 = 16;
/// JMH, from Maven Central.
const JMH_VERSION: &str = "1.37";
/// jmh-core 1.37's runtime dependencies (the names `copy-dependencies` gives them).
const JMH_JARS: &[&str] = &[
    "jmh-core-1.37.jar",
    "jopt-simple-5.0.4.jar",
    "commons-math3-3.6.1.jar",
];

/// `--vary 'name(type,...)=from:to:n'`: n values of the first numeric parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Vary {
    pub name: String,
    /// Parameter types as written (simple or qualified names).
    pub params: Vec<String>,
    pub values: Vec<i64>,
}

/// Reads `--vary`.
pub fn parse_vary(s: &str) -> anyhow::Result<Vary> {
    let advice =
        "write --vary 'name(type,...)=from:to:n', e.g. 'add(int,java.lang.Object)=0:1000:10'";
    let (sig, range) = s
        .split_once('=')
        .with_context(|| format!("--vary '{s}' has no '=': {advice}"))?;
    let (name, rest) = sig
        .trim()
        .split_once('(')
        .with_context(|| format!("--vary '{s}' names no parameter list: {advice}"))?;
    let params: Vec<String> = rest
        .trim_end_matches(')')
        .split(',')
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect();
    let nums: Vec<&str> = range.split(':').collect();
    let [from, to, n] = nums.as_slice() else {
        bail!("--vary range '{range}' is not from:to:n: {advice}");
    };
    let parse = |x: &str| {
        x.trim()
            .parse::<i64>()
            .with_context(|| format!("--vary: '{x}' is not an integer: {advice}"))
    };
    let (from, to, n) = (parse(from)?, parse(to)?, parse(n)?);
    if !(1..=1000).contains(&n) || to < from {
        bail!("--vary range '{range}': need from <= to and 1 <= n <= 1000");
    }
    let values = (0..n)
        .map(|i| {
            if n == 1 {
                from
            } else {
                from + ((to - from) as i128 * i as i128 / (n - 1) as i128) as i64
            }
        })
        .collect::<Vec<_>>();
    Ok(Vary {
        name: name.trim().to_string(),
        params,
        values: dedup(values),
    })
}

fn dedup(mut v: Vec<i64>) -> Vec<i64> {
    v.dedup();
    v
}

/// The erased parameter types of a method descriptor, as source names (`int`,
/// `java.lang.Object`).
fn descriptor_params(desc: &str) -> Vec<String> {
    let inner = desc
        .strip_prefix('(')
        .and_then(|d| d.split(')').next())
        .unwrap_or("");
    let mut out = Vec::new();
    let mut chars = inner.chars().peekable();
    while chars.peek().is_some() {
        let mut dims = 0;
        while chars.peek() == Some(&'[') {
            chars.next();
            dims += 1;
        }
        let base = match chars.next() {
            Some('L') => chars
                .by_ref()
                .take_while(|c| *c != ';')
                .collect::<String>()
                .replace('/', "."),
            Some(c) => crate::model::Prim::from_descriptor(c)
                .map(|p| p.keyword().to_string())
                .unwrap_or_default(),
            None => break,
        };
        out.push(format!("{}{}", source_name(&base), "[]".repeat(dims)));
    }
    out
}

impl Vary {
    /// Whether `op` is the method named (types by simple or qualified name).
    pub fn matches(&self, op: &Operation) -> bool {
        let simple = |s: &str| s.rsplit('.').next().unwrap_or(s).to_string();
        let declared = descriptor_params(&op.descriptor);
        let name = if op.kind == OpKind::Constructor {
            op.class.rsplit(['.', '$']).next().unwrap_or("").to_string()
        } else {
            op.name.clone()
        };
        name == self.name
            && declared.len() == self.params.len()
            && declared
                .iter()
                .zip(&self.params)
                .all(|(d, p)| d == p || simple(d) == simple(p))
    }
}

/// What `--jmh` wrote.
#[derive(Serialize, Debug, Default)]
pub struct JmhReport {
    /// `--jmh`: where the project was written.
    pub dir: Option<String>,
    pub benchmarks: usize,
    /// Methods that consume their inputs: the longest run of consecutive completed calls
    /// (fewer than `REPEAT`); their state is made again before every invocation.
    pub consuming: BTreeMap<String, u32>,
    /// `--vary`: the method, the values kept, the values the call threw for.
    pub varied: Option<VaryReport>,
}

#[derive(Serialize, Debug, Default)]
pub struct VaryReport {
    pub method: String,
    pub values: Vec<i64>,
    pub dropped: Vec<i64>,
}

/// One benchmark to write.
struct Bench {
    /// Index of the target.
    target: usize,
    seq: SeqRef,
    /// Longest run of consecutive completed calls (`REPEAT`: no limit seen).
    run: u32,
    /// `--vary`: the statement whose value is the parameter, the values kept.
    vary: Option<(usize, Vec<i64>)>,
}

/// Finds each method's longest run of calls and checks `--vary`'s values, then writes the
/// project into `dir` when given (see the module doc).
pub fn write(
    dir: Option<&Path>,
    search: &mut Search,
    pool: &mut Pool,
    java_home: &Path,
    user_cp: &[PathBuf],
    vary: Option<&Vary>,
) -> anyhow::Result<JmhReport> {
    let mut benches = benches(search);
    longest_runs(pool, &mut benches)?;
    let mut report = JmhReport {
        dir: dir.map(|d| d.display().to_string()),
        benchmarks: benches.len(),
        ..JmhReport::default()
    };
    if let Some(v) = vary {
        report.varied = Some(check_vary(pool, search, &mut benches, v)?);
    }
    let table = &search.ops.table;
    for b in &benches {
        if b.run < REPEAT {
            let sig = table.get(search.targets[b.target].op).signature();
            report.consuming.insert(sig, b.run);
        }
    }
    let Some(dir) = dir else {
        return Ok(report);
    };
    // the benchmarks of an earlier run go: a method that lost its working call must not stay
    let src = dir.join("src/main/java/jforge/bench");
    if src.exists() {
        std::fs::remove_dir_all(&src)
            .with_context(|| format!("cannot replace {}: check --jmh", src.display()))?;
    }
    let jars = copy_classpath(dir, java_home, user_cp)?;
    write_file(&dir.join("pom.xml"), &pom(&jars))?;
    let mut by_class: BTreeMap<String, Vec<&Bench>> = BTreeMap::new();
    for b in &benches {
        let class = table.get(search.targets[b.target].op).class.clone();
        by_class.entry(class).or_default().push(b);
    }
    for (class, list) in by_class {
        let name = bench_class_name(&class);
        let text = bench_class(table, search, &name, &list);
        write_file(&src.join(format!("{name}.java")), &text)?;
    }
    Ok(report)
}

fn write_file(path: &Path, text: &str) -> anyhow::Result<()> {
    if let Some(p) = path.parent() {
        std::fs::create_dir_all(p)
            .with_context(|| format!("cannot create {}: check --jmh", p.display()))?;
    }
    std::fs::write(path, text)
        .with_context(|| format!("cannot write {}: check --jmh", path.display()))
}

/// The invoked methods under test, in target order.
fn benches(search: &Search) -> Vec<Bench> {
    search
        .targets
        .iter()
        .enumerate()
        .filter_map(|(i, t)| match (&t.status, t.under_test) {
            (Status::Invoked { seq, .. }, true) => Some(Bench {
                target: i,
                seq: seq.clone(),
                run: REPEAT,
                vary: None,
            }),
            _ => None,
        })
        .collect()
}

/// The working sequence with its last call repeated `REPEAT` times in all.
fn repeated(seq: &Sequence) -> Sequence {
    let mut s = seq.clone();
    if let Some(last) = seq.stmts.last() {
        for _ in 1..REPEAT {
            s.stmts.push(last.clone());
        }
    }
    s
}

fn request(seq: Sequence) -> ExecRequest {
    ExecRequest {
        seq: Arc::new(seq),
        mode: ExecMode::Generate,
        contract_values: Vec::new(),
        observers: Vec::new(),
        reuse: None,
    }
}

/// Repeats each call in a worker: the longest run of consecutive completed calls.
fn longest_runs(pool: &mut Pool, benches: &mut [Bench]) -> anyhow::Result<()> {
    let reqs = benches.iter().map(|b| request(repeated(&b.seq))).collect();
    let results = pool.execute(reqs)?;
    for (b, r) in benches.iter_mut().zip(results) {
        let first = b.seq.len() - 1;
        let ok = r.outcomes[first..]
            .iter()
            .take_while(|o| matches!(o, StmtOutcome::Normal(_)))
            .count();
        b.run = (ok as u32).max(1);
    }
    Ok(())
}

/// `--vary`: each value tried in a worker in place of the first numeric literal argument of
/// the method's working call; kept when the call completes.
fn check_vary(
    pool: &mut Pool,
    search: &mut Search,
    benches: &mut [Bench],
    v: &Vary,
) -> anyhow::Result<VaryReport> {
    let table = &search.ops.table;
    let Some(b) = benches
        .iter_mut()
        .find(|b| v.matches(table.get(search.targets[b.target].op)))
    else {
        bail!(
            "--vary names {}({}), which has no working call: check the name and parameter types against the report",
            v.name,
            v.params.join(",")
        );
    };
    let Some(Stmt::Call { args, .. }) = b.seq.stmts.last() else {
        bail!("internal error: a working call without a call");
    };
    let Some(at) = args.iter().map(|&a| a as usize).find(|&a| {
        matches!(&b.seq.stmts[a], Stmt::Lit { value, .. } if super::values::as_i64(value).is_some())
    }) else {
        bail!("--vary {}: the method has no int, long, short, byte or char parameter to vary", v.name);
    };
    let method = table.get(search.targets[b.target].op).clone();
    let mut report = VaryReport {
        method: method.signature(),
        ..VaryReport::default()
    };
    run_values(pool, &b.seq, at, &v.values, &mut report)?;
    // an index beyond the receiver's size: the receiver grown to the largest value dropped
    let recv = args.first().copied().filter(|_| method.has_receiver());
    let most = report.dropped.iter().copied().max().unwrap_or(0);
    if let Some(recv) = recv.filter(|_| (1..=MAX_GROWTH).contains(&most))
        && let Some(grown) = search.grown(&b.seq, recv, most as usize + 1)
    {
        let mut again = VaryReport::default();
        run_values(pool, &grown, at, &v.values, &mut again)?;
        if again.values.len() > report.values.len() {
            report.values = again.values;
            report.dropped = again.dropped;
            b.seq = Arc::new(grown);
        }
    }
    if report.values.is_empty() {
        bail!(
            "--vary {}: the call threw for every value of the range: choose another range",
            report.method
        );
    }
    b.vary = Some((at, report.values.clone()));
    Ok(report)
}

/// Most elements `--vary` adds to a receiver (one per index value beyond its size): each is
/// a statement of the JMH `@Setup`, whose bytecode must stay under the JVM's 64 KiB a method.
const MAX_GROWTH: i64 = 1024;

/// Runs `seq` with each of `values` at literal `at`: kept or dropped into `report`.
fn run_values(
    pool: &mut Pool,
    seq: &Sequence,
    at: usize,
    values: &[i64],
    report: &mut VaryReport,
) -> anyhow::Result<()> {
    let reqs = values
        .iter()
        .map(|&x| request(with_value(seq, at, x)))
        .collect();
    for (&x, r) in values.iter().zip(pool.execute(reqs)?) {
        if r.first_abnormal().is_none() {
            report.values.push(x);
        } else {
            report.dropped.push(x);
        }
    }
    Ok(())
}

/// `seq` with literal statement `at` set to `x` (in its own type).
fn with_value(seq: &Sequence, at: usize, x: i64) -> Sequence {
    let mut s = seq.clone();
    if let Stmt::Lit { ty, value } = &mut s.stmts[at]
        && let Some(p) = super::values::prim_of(ty)
    {
        *value = super::values::integral(p, x);
    }
    s
}

/// `ArrayListBench`, `Store_ReadOnlyBench`.
fn bench_class_name(class: &str) -> String {
    let simple = class.rsplit('.').next().unwrap_or(class).replace('$', "_");
    format!("{simple}Bench")
}

/// The source of one benchmark class.
fn bench_class(table: &OpTable, search: &Search, name: &str, benches: &[&Bench]) -> String {
    let mut s = String::new();
    s.push_str(
        "// Generated by jforge params: one JMH benchmark per method with working arguments.\n",
    );
    s.push_str("package jforge.bench;\n\n");
    s.push_str("import java.util.concurrent.TimeUnit;\nimport org.openjdk.jmh.annotations.*;\nimport org.openjdk.jmh.infra.Blackhole;\n\n");
    s.push_str("@BenchmarkMode(Mode.AverageTime)\n@OutputTimeUnit(TimeUnit.NANOSECONDS)\n");
    s.push_str("@SuppressWarnings({\"unchecked\", \"rawtypes\", \"deprecation\"})\n");
    let _ = writeln!(s, "public class {name} {{");
    for (k, b) in benches.iter().enumerate() {
        let op = table.get(search.targets[b.target].op);
        bench_method(&mut s, table, op, b, k);
    }
    s.push_str("}\n");
    s
}

/// The state class and the benchmark method of one working call.
fn bench_method(s: &mut String, table: &OpTable, op: &Operation, b: &Bench, k: usize) {
    let seq = &b.seq;
    let last = seq.len() - 1;
    let level = if b.run < REPEAT {
        "Invocation"
    } else {
        "Iteration"
    };
    let _ = writeln!(s, "\n    /** {} */", op.signature().replace("*/", "* /"));
    if b.run < REPEAT {
        let _ = writeln!(
            s,
            "    // consumes its inputs: {} consecutive calls completed, so the state is made before every call",
            b.run
        );
    }
    let _ = writeln!(
        s,
        "    @State(Scope.Thread)\n    public static class S{k} {{"
    );
    if let Some((_, values)) = &b.vary {
        let list: Vec<String> = values.iter().map(|v| format!("\"{v}\"")).collect();
        let _ = writeln!(
            s,
            "        @Param({{{}}})\n        public String param;",
            list.join(", ")
        );
    }
    for i in 0..last {
        if let Some(t) = seq.out_type(table, i) {
            let _ = writeln!(s, "        public {} v{i};", t.source());
        }
    }
    let _ = writeln!(
        s,
        "\n        @Setup(Level.{level})\n        public void setup() throws Throwable {{"
    );
    for i in 0..last {
        let expr = stmt_expr(table, seq, i, "", b.vary.as_ref().map(|v| v.0));
        match seq.out_type(table, i) {
            // cast: a result typed wider than the field (`Class.forName` for a
            // `Class<String>`) still compiles (unchecked warnings are suppressed)
            Some(t) if matches!(seq.stmts[i], Stmt::Call { .. }) => {
                let _ = writeln!(s, "            v{i} = ({}) {expr};", t.source());
            }
            Some(_) => {
                let _ = writeln!(s, "            v{i} = {expr};");
            }
            None => {
                let _ = writeln!(s, "            {expr};");
            }
        }
    }
    s.push_str("        }\n    }\n\n");
    let method = match op.kind {
        OpKind::Constructor => "new".to_string(),
        _ => op.name.clone(),
    };
    let call = stmt_expr(table, seq, last, "s.", None);
    let _ = writeln!(
        s,
        "    @Benchmark\n    public void m{k}_{method}(S{k} s, Blackhole bh) throws Throwable {{"
    );
    if op.ret.is_some() {
        let _ = writeln!(s, "        bh.consume({call});\n    }}");
    } else {
        let _ = writeln!(s, "        {call};\n    }}");
    }
}

/// The Java expression of statement `i`, its inputs read from fields `{prefix}v<n>`;
/// `varied`: the statement read from the `@Param`.
fn stmt_expr(
    table: &OpTable,
    seq: &Sequence,
    i: usize,
    prefix: &str,
    varied: Option<usize>,
) -> String {
    let var = |a: &u32| format!("{prefix}v{a}");
    match &seq.stmts[i] {
        Stmt::Lit { ty, value } if varied == Some(i) => parse_param(ty, value),
        Stmt::Lit { ty, value } => java_literal(value, ty),
        Stmt::Array { elem, elems } => {
            let items: Vec<String> = elems.iter().map(var).collect();
            format!("new {}[] {{{}}}", elem.source(), items.join(", "))
        }
        Stmt::Call { op, args } => {
            let op = table.get(*op);
            let vars: Vec<String> = args.iter().map(var).collect();
            call_expr(op, &vars)
        }
    }
}

/// `Integer.parseInt(param)` in the literal's type.
fn parse_param(ty: &crate::model::JType, value: &Value) -> String {
    let e = match value {
        Value::Long(_) => "Long.parseLong(param)",
        Value::Short(_) => "Short.parseShort(param)",
        Value::Byte(_) => "Byte.parseByte(param)",
        Value::Char(_) => "(char) Integer.parseInt(param)",
        _ => "Integer.parseInt(param)",
    };
    format!("({}) {e}", ty.source())
}

/// A call of `op` on `vars` (receiver first), casting arguments of an overloaded member.
fn call_expr(op: &Operation, vars: &[String]) -> String {
    let recv = usize::from(op.has_receiver());
    let args: Vec<String> = vars[recv..]
        .iter()
        .zip(&op.params)
        .map(|(v, p)| {
            if op.overloaded {
                format!("({}) {v}", p.source())
            } else {
                v.clone()
            }
        })
        .collect();
    let targs = if op.method_type_args.is_empty() {
        String::new()
    } else {
        let t: Vec<String> = op.method_type_args.iter().map(|t| t.source()).collect();
        format!("<{}>", t.join(", "))
    };
    let owner = source_name(op.owner.class_name().unwrap_or(&op.class));
    if let Some(stub) = &op.stub {
        return crate::emit::literal::stub_source(op, stub, &args, &|t: &crate::model::JType| {
            t.source()
        });
    }
    match op.kind {
        OpKind::Constructor if op.outer_instance => {
            let simple = op.class.rsplit('$').next().unwrap_or(&op.class);
            format!("{}.new {simple}({})", vars[0], args[1..].join(", "))
        }
        OpKind::Constructor => format!("new {}({})", op.owner.source(), args.join(", ")),
        OpKind::Method => format!("{}.{targs}{}({})", vars[0], op.name, args.join(", ")),
        OpKind::StaticMethod => format!("{owner}.{targs}{}({})", op.name, args.join(", ")),
        OpKind::FieldGet => format!("{}.{}", vars[0], op.name),
        OpKind::StaticFieldGet => format!("{owner}.{}", op.name),
        OpKind::FieldSet => format!("{}.{} = {}", vars[0], op.name, vars[1]),
        OpKind::StaticFieldSet => format!("{owner}.{} = {}", op.name, vars[0]),
    }
}

/// The user's class path copied into `dir/lib` (folders packed with the JDK's `jar`);
/// returns the jar names.
fn copy_classpath(
    dir: &Path,
    java_home: &Path,
    user_cp: &[PathBuf],
) -> anyhow::Result<Vec<String>> {
    let lib = dir.join("lib");
    std::fs::create_dir_all(&lib)
        .with_context(|| format!("cannot create {}: check --jmh", lib.display()))?;
    let mut names = Vec::new();
    for (i, e) in user_cp.iter().enumerate() {
        let stem = e.file_stem().and_then(|s| s.to_str()).unwrap_or("classes");
        let name = format!("{i}-{stem}.jar");
        let to = lib.join(&name);
        if e.is_dir() {
            let jar = java_home.join("bin/jar");
            let out = std::process::Command::new(&jar)
                .arg("cf")
                .arg(&to)
                .arg("-C")
                .arg(e)
                .arg(".")
                .output()
                .with_context(|| {
                    format!(
                        "cannot run {}: --jmh needs a JDK with the jar tool",
                        jar.display()
                    )
                })?;
            if !out.status.success() {
                bail!(
                    "jar could not pack {} for the benchmark project: {}",
                    e.display(),
                    String::from_utf8_lossy(&out.stderr).trim()
                );
            }
        } else if e.is_file() {
            std::fs::copy(e, &to)
                .with_context(|| format!("cannot copy {} into {}", e.display(), lib.display()))?;
        } else {
            continue;
        }
        names.push(name);
    }
    Ok(names)
}

/// The project's pom: JMH 1.37 (core, and the annotation processor that generates the
/// benchmark list), the user's jars as system dependencies, a runnable `target/benchmarks.jar`
/// whose manifest names JMH's jars (copied into `target/lib`) and the user's (`../lib`).
fn pom(user_jars: &[String]) -> String {
    let mut deps = String::new();
    let mut class_path: Vec<String> = JMH_JARS.iter().map(|j| format!("lib/{j}")).collect();
    for (i, j) in user_jars.iter().enumerate() {
        let _ = write!(
            deps,
            "\n    <dependency>\n      <groupId>jforge.user</groupId>\n      <artifactId>cp{i}</artifactId>\n      <version>1</version>\n      <scope>system</scope>\n      <systemPath>${{project.basedir}}/lib/{j}</systemPath>\n    </dependency>"
        );
        class_path.push(format!("../lib/{j}"));
    }
    POM.replace("@JMH@", JMH_VERSION)
        .replace("@DEPS@", &deps)
        .replace("@CLASSPATH@", &class_path.join(" "))
}

/// The marker of a pom this command wrote (a folder holding another pom is refused).
pub const POM_MARKER: &str = "<!-- Generated by jforge params";

/// Refuses a `--jmh` folder that holds a project jforge did not write.
pub fn check_dir(dir: &Path) -> anyhow::Result<()> {
    let pom = dir.join("pom.xml");
    if let Ok(text) = std::fs::read_to_string(&pom)
        && !text.contains(POM_MARKER)
    {
        bail!(
            "{} holds a pom.xml jforge did not write: give --jmh a new or empty folder (jforge replaces only its own benchmark project)",
            dir.display()
        );
    }
    Ok(())
}

const POM: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!-- Generated by jforge params: JMH benchmarks of the working calls. Build with
     `mvn -q package`, run with `java -jar target/benchmarks.jar` (JMH's options apply, e.g.
     `-wi 1 -i 3 -f 1` or a benchmark name). -->
<project xmlns="http://maven.apache.org/POM/4.0.0"
         xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>jforge.bench</groupId>
  <artifactId>benchmarks</artifactId>
  <version>1.0</version>
  <packaging>jar</packaging>
  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
  <dependencies>
    <dependency>
      <groupId>org.openjdk.jmh</groupId>
      <artifactId>jmh-core</artifactId>
      <version>@JMH@</version>
    </dependency>
    <dependency>
      <groupId>org.openjdk.jmh</groupId>
      <artifactId>jmh-generator-annprocess</artifactId>
      <version>@JMH@</version>
      <scope>provided</scope>
    </dependency>@DEPS@
  </dependencies>
  <build>
    <finalName>benchmarks</finalName>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-resources-plugin</artifactId>
        <version>3.3.1</version>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.13.0</version>
        <configuration>
          <annotationProcessorPaths>
            <path>
              <groupId>org.openjdk.jmh</groupId>
              <artifactId>jmh-generator-annprocess</artifactId>
              <version>@JMH@</version>
            </path>
          </annotationProcessorPaths>
        </configuration>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-surefire-plugin</artifactId>
        <version>3.2.5</version>
        <configuration><skip>true</skip></configuration>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-dependency-plugin</artifactId>
        <version>3.6.1</version>
        <executions>
          <execution>
            <id>copy-dependencies</id>
            <phase>package</phase>
            <goals><goal>copy-dependencies</goal></goals>
            <configuration>
              <outputDirectory>${project.build.directory}/lib</outputDirectory>
              <includeScope>runtime</includeScope>
            </configuration>
          </execution>
        </executions>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-jar-plugin</artifactId>
        <version>2.4</version>
        <configuration>
          <archive>
            <manifest>
              <mainClass>org.openjdk.jmh.Main</mainClass>
            </manifest>
            <manifestEntries>
              <Class-Path>@CLASSPATH@</Class-Path>
            </manifestEntries>
          </archive>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vary_reads_a_signature_and_a_range() {
        let v = parse_vary("add(int,java.lang.Object)=0:1000:11").unwrap();
        assert_eq!(v.name, "add");
        assert_eq!(v.params, vec!["int", "java.lang.Object"]);
        assert_eq!(v.values.len(), 11);
        assert_eq!((v.values[0], v.values[1], v.values[10]), (0, 100, 1000));
        assert!(
            parse_vary("add(int)")
                .unwrap_err()
                .to_string()
                .contains("--vary")
        );
        assert!(parse_vary("add(int)=5:1:3").is_err());
    }

    #[test]
    fn descriptors_give_source_parameter_types() {
        assert_eq!(
            descriptor_params("(I[Ljava/lang/String;Ljava/util/Map$Entry;)V"),
            vec!["int", "java.lang.String[]", "java.util.Map.Entry"]
        );
    }
}
