//! The report of `jforge params`: per method the working call as Java source and what it
//! returned, or why no call worked (exception, message, top frames, handlers tried); totals
//! per class and package; the body of `--stats-json` and the summary.

use super::{Failure, Search, Status, Target};
use crate::emit::{Ending, TestCase, junit::render_test};
use crate::runner::Observed;
use crate::sequence::OpTable;
use serde::Serialize;
use std::collections::BTreeMap;

/// One method under test.
#[derive(Serialize, Clone, Debug)]
pub struct MethodReport {
    pub class: String,
    /// `java.util.ArrayList.get(int)`.
    pub method: String,
    /// Seed 000's signature complexity (receiver included).
    pub complexity: u32,
    /// `invoked`, `failed` or `skipped`.
    pub status: &'static str,
    /// The working call as Java statements (receiver construction, arguments, call).
    pub call: Option<String>,
    /// What it returned: a literal, `null`, `void`, or `an object of class C`.
    pub returned: Option<String>,
    pub attempts: u32,
    /// The handler whose proposal worked.
    pub handled_by: Option<&'static str>,
    pub handlers_tried: Vec<&'static str>,
    pub failure: Option<FailureReport>,
}

/// Why a method has no working call.
#[derive(Serialize, Clone, Debug)]
pub struct FailureReport {
    /// An exception class, `timeout`, `crash: ...`, `no value of type T`, `not callable`,
    /// `not reached` or `skipped: ...`.
    pub cause: String,
    pub message: Option<String>,
    pub frames: Vec<String>,
}

/// Totals of one class or package.
#[derive(Serialize, Clone, Debug, Default, PartialEq)]
pub struct Totals {
    pub methods: usize,
    pub invoked: usize,
    pub failed: usize,
    pub skipped: usize,
}

impl Totals {
    fn add(&mut self, status: &str) {
        self.methods += 1;
        match status {
            "invoked" => self.invoked += 1,
            "failed" => self.failed += 1,
            _ => self.skipped += 1,
        }
    }

    /// Invoked as a percentage of the methods.
    pub fn percent(&self) -> f64 {
        if self.methods == 0 {
            0.0
        } else {
            100.0 * self.invoked as f64 / self.methods as f64
        }
    }
}

/// `--stats-json` of `jforge params`.
#[derive(Serialize, Debug, Default)]
pub struct ParamsStats {
    pub classes: usize,
    /// Seed 000's denominator: public non-abstract methods and constructors of the public
    /// classes (interfaces not counted), skipped ones included.
    #[serde(flatten)]
    pub totals: Totals,
    /// Members under test that threw at least once.
    pub threw: usize,
    /// Of those, how many a handler's proposal then made work.
    pub handled: usize,
    pub handled_by: BTreeMap<&'static str, usize>,
    /// Methods still failing, by cause.
    pub failing_by_cause: BTreeMap<String, usize>,
    pub rounds: u32,
    pub attempts: u64,
    pub seconds: f64,
    pub per_class: BTreeMap<String, Totals>,
    pub per_package: BTreeMap<String, Totals>,
    /// Every method (the totals' `methods` counts them).
    pub per_method: Vec<MethodReport>,
    /// `--output-dir`: the smoke suite.
    pub suite: Option<super::smoke::SmokeSuite>,
    /// `--jmh` / `--vary`: the benchmark project, consuming methods, the values varied.
    pub benchmark: Option<super::jmh::JmhReport>,
}

impl ParamsStats {
    /// The report of a finished search; `skipped` are members the operations left out, with
    /// the reason.
    pub fn of(search: &Search, skipped: &[(String, String)], seconds: f64) -> ParamsStats {
        let mut st = ParamsStats {
            rounds: search.rounds,
            attempts: search.attempts,
            seconds,
            ..ParamsStats::default()
        };
        for t in search.targets.iter().filter(|t| t.under_test) {
            st.per_method.push(method_report(&search.ops.table, t));
            if t.threw > 0 {
                st.threw += 1;
                if let Status::Invoked {
                    handler: Some(h), ..
                } = t.status
                {
                    st.handled += 1;
                    *st.handled_by.entry(h).or_default() += 1;
                }
            }
        }
        for (member, why) in skipped {
            st.per_method.push(MethodReport {
                class: member_class(member),
                method: member.clone(),
                complexity: 0,
                status: "skipped",
                call: None,
                returned: None,
                attempts: 0,
                handled_by: None,
                handlers_tried: Vec::new(),
                failure: Some(FailureReport {
                    cause: format!("skipped: {why}"),
                    message: None,
                    frames: Vec::new(),
                }),
            });
        }
        st.per_method.sort_by(|a, b| {
            (&a.class, a.complexity, &a.method).cmp(&(&b.class, b.complexity, &b.method))
        });
        st.totalize();
        st
    }

    fn totalize(&mut self) {
        for m in &self.per_method {
            self.totals.add(m.status);
            self.per_class
                .entry(m.class.clone())
                .or_default()
                .add(m.status);
            let package = m.class.rsplit_once('.').map_or("", |(p, _)| p).to_string();
            self.per_package.entry(package).or_default().add(m.status);
            if m.status != "invoked"
                && let Some(f) = &m.failure
            {
                *self.failing_by_cause.entry(f.cause.clone()).or_default() += 1;
            }
        }
        self.classes = self.per_class.len();
    }
}

/// The class of a skipped member's signature (`java.util.Foo.bar(int): ...`).
fn member_class(member: &str) -> String {
    let head = member.split(['(', ':']).next().unwrap_or(member);
    head.rsplit_once('.').map_or(head, |(c, _)| c).to_string()
}

fn method_report(table: &OpTable, t: &Target) -> MethodReport {
    let op = table.get(t.op);
    let mut r = MethodReport {
        class: op.class.clone(),
        method: op.signature(),
        complexity: t.complexity,
        status: "failed",
        call: None,
        returned: None,
        attempts: t.attempts,
        handled_by: None,
        handlers_tried: t.handlers.clone(),
        failure: None,
    };
    match &t.status {
        Status::Invoked {
            seq,
            result,
            handler,
        } => {
            r.status = "invoked";
            r.call = Some(java_call(table, seq));
            r.returned = Some(describe(result));
            r.handled_by = *handler;
        }
        Status::Failed(f) => r.failure = Some(failure_report(f)),
        Status::Pending => r.failure = Some(failure_report(&Failure::NotReached)),
    }
    r
}

/// The statements of a sequence as Java (the body of a test method, unindented).
pub fn java_call(table: &OpTable, seq: &crate::sequence::SeqRef) -> String {
    let case = TestCase {
        seq: seq.clone(),
        asserts: vec![None; seq.len()],
        observers: Vec::new(),
        ending: Ending::Normal,
        defect: None,
    };
    let src = render_test(table, &case, "call", 4);
    let lines: Vec<&str> = src.lines().collect();
    let body = lines.get(2..lines.len().saturating_sub(1)).unwrap_or(&[]);
    body.iter()
        .map(|l| l.strip_prefix("        ").unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A result for the report.
pub fn describe(o: &Observed) -> String {
    match o {
        Observed::Void => "void".into(),
        Observed::Null => "null".into(),
        Observed::Value(v) => crate::emit::literal::java_literal(v, &value_type(v)),
        Observed::Object { class, .. } => format!("an object of class {class}"),
    }
}

/// The static type a literal of `v` is written with.
fn value_type(v: &crate::sequence::Value) -> crate::model::JType {
    use crate::model::{JType, Prim};
    use crate::sequence::Value;
    match v {
        Value::Bool(_) => JType::Prim(Prim::Boolean),
        Value::Byte(_) => JType::Prim(Prim::Byte),
        Value::Short(_) => JType::Prim(Prim::Short),
        Value::Char(_) => JType::Prim(Prim::Char),
        Value::Int(_) => JType::Prim(Prim::Int),
        Value::Long(_) => JType::Prim(Prim::Long),
        Value::Float(_) => JType::Prim(Prim::Float),
        Value::Double(_) => JType::Prim(Prim::Double),
        Value::Enum(c, _) => JType::class(c),
        _ => JType::string(),
    }
}

fn failure_report(f: &Failure) -> FailureReport {
    let (cause, message, frames) = match f {
        Failure::Threw {
            class,
            message,
            frames,
            setup,
        } => (
            if *setup {
                format!("{class} (while building the receiver or arguments)")
            } else {
                class.clone()
            },
            message.clone(),
            frames.clone(),
        ),
        Failure::Timeout => (
            "timeout (the call did not return within --call-timeout)".into(),
            None,
            vec![],
        ),
        Failure::Crash(k) => (format!("crash: {k}"), None, vec![]),
        Failure::NoValue(t) => (format!("no value of type {t}"), None, vec![]),
        Failure::NotCallable(why) => (
            "not callable by reflection".into(),
            Some(why.clone()),
            vec![],
        ),
        Failure::NotReached => ("not reached (time limit)".into(), None, vec![]),
        Failure::Unstable => (
            "unstable: the working call did not complete again in a fresh JVM".into(),
            None,
            vec![],
        ),
    };
    FailureReport {
        cause,
        message,
        frames,
    }
}

/// The summary: one line per method (unless `quiet`), totals per class, the grand total.
pub fn print_summary(st: &ParamsStats, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    for m in &st.per_method {
        match m.status {
            "invoked" => {
                let via = m
                    .handled_by
                    .map(|h| format!(" (after {h})"))
                    .unwrap_or_default();
                writeln!(
                    out,
                    "ok    {}  -> {}{via}",
                    m.method,
                    m.returned.as_deref().unwrap_or("")
                )?;
                for l in m.call.iter().flat_map(|c| c.lines()) {
                    writeln!(out, "        {l}")?;
                }
            }
            _ => {
                let f = m.failure.as_ref();
                let cause = f.map_or("", |f| f.cause.as_str());
                let msg = f
                    .and_then(|f| f.message.as_deref())
                    .map(|s| format!(": {}", short(s)))
                    .unwrap_or_default();
                writeln!(out, "FAIL  {}  {cause}{msg}", m.method)?;
                if let Some(top) = f.and_then(|f| f.frames.first()) {
                    writeln!(out, "        at {top}")?;
                }
                if !m.handlers_tried.is_empty() {
                    writeln!(
                        out,
                        "        handlers tried: {} ({} attempts)",
                        m.handlers_tried.join(", "),
                        m.attempts
                    )?;
                }
            }
        }
    }
    writeln!(out)?;
    for (c, t) in &st.per_class {
        writeln!(
            out,
            "{c}: {}/{} invoked ({:.1}%), {} failed, {} skipped",
            t.invoked,
            t.methods,
            t.percent(),
            t.failed,
            t.skipped
        )?;
    }
    if st.per_package.len() > 1 {
        for (p, t) in &st.per_package {
            writeln!(
                out,
                "package {p}: {}/{} invoked ({:.1}%)",
                t.invoked,
                t.methods,
                t.percent()
            )?;
        }
    }
    if let Some(s) = &st.suite {
        writeln!(
            out,
            "smoke suite: {} tests in {} ({} files, {})",
            s.tests,
            s.output_dir,
            s.files.len(),
            if s.validation.skipped.is_some() {
                "not checked"
            } else if s.validation.clean {
                "compiled and passed"
            } else {
                "check incomplete"
            }
        )?;
    }
    if let Some(b) = &st.benchmark {
        print_benchmark(b, out)?;
    }
    let t = &st.totals;
    writeln!(
        out,
        "params: {}/{} methods invoked ({:.1}%) in {} classes, {} failed, {} skipped; {} threw at least once, {} of them handled; {} attempts in {} rounds, {:.1} s",
        t.invoked,
        t.methods,
        t.percent(),
        st.classes,
        t.failed,
        t.skipped,
        st.threw,
        st.handled,
        st.attempts,
        st.rounds,
        st.seconds
    )
}

/// The benchmark lines: the project, the consuming methods, the values varied.
fn print_benchmark(b: &super::jmh::JmhReport, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    for (m, run) in &b.consuming {
        writeln!(
            out,
            "consumes its inputs: {m}: {run} consecutive calls completed (state made again per invocation)"
        )?;
    }
    if let Some(v) = &b.varied {
        writeln!(
            out,
            "--vary {}: {} values work {:?}",
            v.method,
            v.values.len(),
            v.values
        )?;
        if !v.dropped.is_empty() {
            writeln!(
                out,
                "--vary {}: the call threw for {:?} (left out)",
                v.method, v.dropped
            )?;
        }
    }
    if let Some(d) = &b.dir {
        writeln!(
            out,
            "JMH project: {d} ({} benchmarks): cd {d} && mvn -q package && java -jar target/benchmarks.jar",
            b.benchmarks
        )?;
    }
    Ok(())
}

/// The first line of a message, at most 120 characters.
fn short(s: &str) -> String {
    let line = s.lines().next().unwrap_or("");
    if line.chars().count() > 120 {
        format!("{}...", line.chars().take(120).collect::<String>())
    } else {
        line.to_string()
    }
}
