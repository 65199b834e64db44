//! `jforge exhaustive`: bounded-exhaustive generation from the API (BEAPI, issue 4).
//!
//! Wiring: settings (flags over an optional properties file), class selection and model
//! loading as in `jforge gen`, operations from `generate::ops::build_ops` restricted to the
//! classes under test (and to --methods / --builders), input domains, the worker pool with the
//! canonicalization settings as system properties, the search (`search/`), then outputs:
//! summary, --csv, --dump, --stats-json and a JUnit suite (`--output-dir`).

pub mod canon;
pub mod cmd;
pub mod growth;
pub mod reach;
pub mod report;
pub mod search;

use crate::emit::{Ending, TestCase};
use crate::generate::ops::{OpSet, SkipReason, is_literal_type};
use crate::model::{JType, Prim};
use crate::runner::Pool;
use crate::sequence::{OpKind, Stmt, Value};
pub use crate::settings::DomainInput;
use crate::suite::{Expect, ObserveItem, ObserveStats};
use anyhow::{Context, bail};
use regex::Regex;
use search::{ParamDom, Search, Usable};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// Largest scope accepted: canonical forms and sequences grow with it and every realistic
/// subject is out of memory long before.
pub const MAX_SCOPE: u32 = 64;

/// The settings after merging the properties file and the flags.
#[derive(Clone, Debug)]
pub struct Settings {
    pub scope: u32,
    pub ints: Vec<i32>,
    pub longs: Vec<i64>,
    pub shorts: Vec<i32>,
    pub doubles: Vec<f64>,
    pub chars: Vec<char>,
    pub booleans: Vec<bool>,
    pub strings: Vec<String>,
    pub max_array: Option<u32>,
    pub omit_fields: Option<String>,
    pub methods: Option<Regex>,
    pub builders: Vec<Regex>,
    /// `--error-exceptions`: besides gen's other contracts (`crate::contracts`), exceptions
    /// that reveal errors; every other exception is expected behaviour.
    pub error_exceptions: HashSet<String>,
    pub check: Option<String>,
    /// Warnings about the settings (a replaced flag), for the end of the run.
    pub notes: Vec<String>,
}

/// A builders file (`--builders`, and what `jforge builders` writes): one signature regex per
/// line, matched whole against `Operation::signature`; `#` starts a comment line.
pub fn read_builders_file(f: &std::path::Path) -> anyhow::Result<Vec<Regex>> {
    let text = std::fs::read_to_string(f)
        .with_context(|| format!("cannot read --builders file {}", f.display()))?;
    let mut builders = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        builders.push(Regex::new(&format!("^(?:{l})$")).with_context(|| {
            format!("{}:{}: not a valid regular expression", f.display(), i + 1)
        })?);
    }
    if builders.is_empty() {
        bail!("--builders file {} lists no signatures", f.display());
    }
    Ok(builders)
}

/// Parse `A:B` (inclusive).
pub fn parse_range(flag: &str, s: &str) -> anyhow::Result<(i64, i64)> {
    let bad = || {
        anyhow::anyhow!("--{flag} '{s}' is not a range: write A:B with integers A <= B, e.g. 0:3")
    };
    let (a, b) = s.trim().split_once(':').ok_or_else(bad)?;
    let a: i64 = a.trim().parse().map_err(|_| bad())?;
    let b: i64 = b.trim().parse().map_err(|_| bad())?;
    if a > b {
        return Err(bad());
    }
    if b - a > 10_000 {
        bail!(
            "--{flag} '{s}' has {} values: at most 10001 are allowed",
            b - a + 1
        );
    }
    Ok((a, b))
}

fn read_properties(path: &std::path::Path) -> anyhow::Result<HashMap<String, String>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read --config file {}", path.display()))?;
    let mut m = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with('!') {
            continue;
        }
        let Some((k, v)) = line.split_once(['=', ':']) else {
            bail!("{}:{}: expected key=value", path.display(), i + 1);
        };
        let k = match k.trim() {
            "max.objects" => "scope",
            "int.range" => "ints",
            "omit.fields" => "omit-fields",
            "strings" | "string.values" => "strings",
            k => k,
        };
        m.insert(k.replace('_', "-"), v.trim().to_string());
    }
    Ok(m)
}

/// `--scope` (else `scope` of --config): required, and at most [`MAX_SCOPE`].
fn scope_setting(flag: Option<u32>, props: &HashMap<String, String>) -> anyhow::Result<u32> {
    let scope = match flag {
        Some(s) => s,
        None => match props.get("scope") {
            Some(s) => s
                .parse()
                .with_context(|| format!("scope '{s}' in --config is not a number"))?,
            None => bail!("--scope N is required (or scope=N in --config)"),
        },
    };
    if scope > MAX_SCOPE {
        let lists = (scope as f64).powi(scope as i32);
        let gib = lists * canon::kept_bytes(scope as usize) as f64 / (1u64 << 30) as f64;
        let size = if gib.is_finite() {
            format!("about {lists:.1e} structures (~{gib:.1e} GiB of sequences)")
        } else {
            "more structures than any memory holds".to_string()
        };
        return Err(crate::exit::budget(anyhow::anyhow!(
            "scope {scope} is too large: at most {MAX_SCOPE} objects per class are supported, \
             and with {scope} int values a list alone has {size}; lower --scope"
        )));
    }
    Ok(scope)
}

/// The values of range `value` (`A:B`) of flag `--flag`, else `0..scope` (at least one).
fn range_or_scope(flag: &str, value: Option<String>, scope: u32) -> anyhow::Result<Vec<i64>> {
    match value {
        Some(s) => {
            let (x, y) = parse_range(flag, &s)?;
            Ok((x..=y).collect())
        }
        None => Ok((0..scope.max(1) as i64).collect()),
    }
}

/// `--ints`: a range whose values fit in an int.
fn ints_setting(value: Option<String>, scope: u32) -> anyhow::Result<Vec<i64>> {
    let ints64 = range_or_scope("ints", value, scope)?;
    if ints64
        .iter()
        .any(|&v| v < i32::MIN as i64 || v > i32::MAX as i64)
    {
        bail!("--ints: values must fit in an int");
    }
    Ok(ints64)
}

/// `--shorts`: a range, clamped to the short values; else the ints.
fn shorts_setting(value: Option<String>, scope: u32, ints: &[i32]) -> anyhow::Result<Vec<i32>> {
    Ok(match value {
        Some(s) => range_or_scope("shorts", Some(s), scope)?
            .into_iter()
            .map(|v| v.clamp(i16::MIN as i64, i16::MAX as i64) as i32)
            .collect(),
        None => ints.to_vec(),
    })
}

/// `--doubles`: a comma-separated list of numbers; else the ints.
fn doubles_setting(value: Option<String>, ints: &[i32]) -> anyhow::Result<Vec<f64>> {
    Ok(match value {
        Some(s) => s
            .split(',')
            .map(|x| {
                x.trim()
                    .parse::<f64>()
                    .map_err(|_| anyhow::anyhow!("--doubles: '{x}' is not a number"))
            })
            .collect::<anyhow::Result<_>>()?,
        None => ints.iter().map(|&v| v as f64).collect(),
    })
}

/// `--booleans`: a comma-separated list of `true`/`false`; else both.
fn booleans_setting(value: Option<String>) -> anyhow::Result<Vec<bool>> {
    Ok(match value {
        Some(s) => s
            .split(',')
            .map(|x| match x.trim() {
                "true" => Ok(true),
                "false" => Ok(false),
                o => bail!("--booleans: '{o}' is not true or false"),
            })
            .collect::<anyhow::Result<_>>()?,
        None => vec![false, true],
    })
}

/// `--builders FILE` (else `builders` of --config): the signature regexes it lists; none
/// without a file.
fn builders_setting(
    a: &DomainInput,
    props: &HashMap<String, String>,
) -> anyhow::Result<Vec<Regex>> {
    let builders_file = a
        .builders
        .clone()
        .or_else(|| props.get("builders").map(PathBuf::from));
    match builders_file {
        Some(f) => read_builders_file(&f),
        None => Ok(Vec::new()),
    }
}

/// `--error-exceptions` (else `error-exceptions` of --config), and a note when the replaced
/// `--misuse-exceptions` (or its --config key) was given: outcomes are classified as in `gen`
/// (`crate::contracts`), so every exception that breaks no contract is expected behaviour
/// and the old list has nothing left to say.
fn error_exceptions_setting(
    a: &DomainInput,
    props: &HashMap<String, String>,
) -> (HashSet<String>, Vec<String>) {
    let mut given = a.error_exceptions.clone();
    if given.is_empty()
        && let Some(s) = props.get("error-exceptions")
    {
        given = s.split(',').map(str::to_string).collect();
    }
    let mut notes = Vec::new();
    if a.misuse_exceptions_given || props.contains_key("misuse-exceptions") {
        notes.push(MISUSE_REPLACED.to_string());
    }
    (crate::contracts::error_exceptions(&given), notes)
}

/// The note for the replaced `--misuse-exceptions`.
pub const MISUSE_REPLACED: &str = "warning: --misuse-exceptions is ignored: outcomes are \
     classified as in jforge gen (an exception thrown for an invalid argument or state is \
     expected behaviour; a NullPointerException without a null input, an AssertionError and \
     the classes of --error-exceptions are errors)";

impl Settings {
    /// The settings, else its key in the --config file, else its default.
    pub fn read(a: &DomainInput) -> anyhow::Result<Settings> {
        let props = match &a.config {
            Some(p) => read_properties(p)?,
            None => HashMap::new(),
        };
        let get =
            |flag: &Option<String>, key: &str| flag.clone().or_else(|| props.get(key).cloned());
        let scope = scope_setting(a.scope, &props)?;
        let ints64 = ints_setting(get(&a.ints, "ints"), scope)?;
        let ints: Vec<i32> = ints64.iter().map(|&v| v as i32).collect();
        let longs = match get(&a.longs, "longs") {
            Some(s) => range_or_scope("longs", Some(s), scope)?,
            None => ints64.clone(),
        };
        let shorts = shorts_setting(get(&a.shorts, "shorts"), scope, &ints)?;
        let doubles = doubles_setting(get(&a.doubles, "doubles"), &ints)?;
        let letters: Vec<char> = (0..scope.max(1))
            .map(|i| (b'a' + (i % 26) as u8) as char)
            .collect();
        let chars = match get(&a.chars, "chars") {
            Some(s) => s.chars().collect(),
            None => letters.clone(),
        };
        let booleans = booleans_setting(get(&a.booleans, "booleans"))?;
        let strings = match get(&a.strings, "strings") {
            Some(s) => s.split(',').map(|x| x.to_string()).collect(),
            None => letters.iter().map(|c| c.to_string()).collect(),
        };
        let max_array = match a.max_array {
            Some(m) => Some(m),
            None => props
                .get("max-array")
                .map(|s| s.parse())
                .transpose()
                .context("max-array in --config")?,
        };
        let omit_fields = get(&a.omit_fields, "omit-fields");
        if let Some(o) = &omit_fields {
            crate::settings::parse_regex("--omit-fields", o)?;
        }
        let methods = get(&a.methods, "methods")
            .map(|m| crate::settings::parse_regex("--methods", &m))
            .transpose()?;
        let builders = builders_setting(a, &props)?;
        let (error_exceptions, notes) = error_exceptions_setting(a, &props);
        Ok(Settings {
            scope,
            ints,
            longs,
            shorts,
            doubles,
            chars,
            booleans,
            strings,
            max_array,
            omit_fields,
            methods,
            builders,
            error_exceptions,
            check: get(&a.check, "check"),
            notes,
        })
    }

    /// Literal statements for an input of type `t`, or `None` if it is not a literal type.
    pub fn literals(&self, t: &JType) -> Option<Vec<Stmt>> {
        let prim = match t {
            JType::Prim(p) => Some(*p),
            JType::Class { name, .. } => Prim::unboxed(name),
            _ => None,
        };
        let lit = |v: Value| Stmt::Lit {
            ty: t.clone(),
            value: v,
        };
        let vals: Vec<Value> = match prim {
            Some(Prim::Int) => self.ints.iter().map(|&v| Value::Int(v)).collect(),
            Some(Prim::Long) => self.longs.iter().map(|&v| Value::Long(v)).collect(),
            Some(Prim::Short) => self
                .shorts
                .iter()
                .map(|&v| Value::Short(v as i16))
                .collect(),
            Some(Prim::Byte) => self
                .shorts
                .iter()
                .map(|&v| Value::Byte(v.clamp(-128, 127) as i8))
                .collect(),
            Some(Prim::Double) => self.doubles.iter().map(|&v| Value::double(v)).collect(),
            Some(Prim::Float) => self
                .doubles
                .iter()
                .map(|&v| Value::float(v as f32))
                .collect(),
            Some(Prim::Char) => self
                .chars
                .iter()
                .filter(|c| (**c as u32) < 0x10000)
                .map(|&c| Value::Char(c as u16))
                .collect(),
            Some(Prim::Boolean) => self.booleans.iter().map(|&b| Value::Bool(b)).collect(),
            None if t.class_name() == Some("java.lang.String") => {
                self.strings.iter().map(|s| Value::Str(s.clone())).collect()
            }
            _ => return None,
        };
        let mut vals = vals;
        vals.dedup();
        Some(vals.into_iter().map(lit).collect())
    }
}

/// Heap of each worker JVM when --worker-heap is not given: the prototypes of a large search
/// live there, so a third of the machine's memory shared by the workers, between 1 and 8 GiB.
pub(crate) fn default_worker_heap(workers: usize) -> u32 {
    let total_mb = mem_total_kb() / 1024;
    (total_mb / 3 / workers.max(1) as u64).clamp(1024, 8192) as u32
}

fn mem_total_kb() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("MemTotal:"))
                .and_then(|l| {
                    l.split_whitespace()
                        .nth(1)
                        .and_then(|v| v.parse::<u64>().ok())
                })
        })
        .unwrap_or(8 << 20)
}

/// Memory the kept structures may take: --max-memory (MiB), else half the machine's RAM.
pub fn memory_budget(max_memory_mib: Option<u64>) -> u64 {
    if let Some(m) = max_memory_mib {
        return m << 20;
    }
    mem_total_kb() * 1024 / 2
}

/// JVM options of workers that canonicalize with these settings: at most `scope` objects per
/// class (`None`: no bound), forms written as text (`--dump`) or hashed.
pub fn canon_jvm_args(settings: &Settings, scope: Option<u32>, text: bool) -> Vec<String> {
    let mut jvm = vec![
        "--add-opens".into(),
        "java.base/java.util.concurrent=ALL-UNNAMED".into(),
        "--add-opens".into(),
        "java.base/java.math=ALL-UNNAMED".into(),
    ];
    if let Some(s) = scope {
        jvm.insert(0, format!("-Djforge.canon.scope={s}"));
    }
    if let Some(m) = settings.max_array {
        jvm.push(format!("-Djforge.canon.maxArray={m}"));
    }
    if let Some(o) = &settings.omit_fields {
        jvm.push(format!("-Djforge.canon.omit={o}"));
    }
    if text {
        jvm.push("-Djforge.canon.text=true".into());
    }
    jvm
}

/// Usable operations: constructors and methods of the classes under test, after --methods and
/// --builders; members whose inputs cannot be supplied are listed as skipped. Classes the
/// operations were built for that are not under test are builder classes
/// ([`reach::builder_classes`]): their operations that can build something
/// ([`reach::builds`]) are usable whatever --methods and --builders say (those select the
/// API of the classes under test), and their structures are kept like the others.
pub fn usable_ops(
    ops: &OpSet,
    classes: &[String],
    s: &Settings,
    skipped: &mut Vec<(String, SkipReason)>,
) -> Vec<Usable> {
    let mut out = Vec::new();
    let ref_types: Vec<JType> = ops.instantiations.values().cloned().collect();
    let built: Vec<String> = ops.instantiations.keys().cloned().collect();
    for &id in &ops.primary {
        let op = ops.table.get(id);
        if !matches!(
            op.kind,
            OpKind::Constructor | OpKind::Method | OpKind::StaticMethod
        ) {
            continue;
        }
        if matches!(op.name.as_str(), "equals" | "hashCode" | "toString") {
            continue;
        }
        if op.name == s.check.as_deref().unwrap_or("\u{0}") {
            continue;
        }
        let sig = op.signature();
        let helper = ops
            .owner_class
            .get(id as usize)
            .and_then(|c| c.as_deref())
            .is_some_and(|c| !classes.iter().any(|k| k == c));
        if helper {
            if !reach::builds(op, &built) {
                continue;
            }
        } else if s.methods.as_ref().is_some_and(|m| !m.is_match(&sig))
            || !s.builders.is_empty() && !s.builders.iter().any(|b| b.is_match(&sig))
        {
            continue;
        }
        let mut params = Vec::new();
        let mut ok = true;
        for t in op.input_types() {
            // Object parameters (remove(Object), containsKey(Object)...) take the String
            // domain: generic classes are instantiated with String first (generate::ops).
            let t = if t.class_name() == Some("java.lang.Object") {
                JType::string()
            } else {
                t
            };
            if let Some(l) = s.literals(&t) {
                if l.is_empty() {
                    ok = false;
                    break;
                }
                params.push(ParamDom::Lits(l));
            } else if matches!(t, JType::Class { .. }) {
                params.push(ParamDom::Refs(t));
            } else {
                ok = false;
                break;
            }
        }
        if !ok {
            skipped.push((sig, SkipReason::NoInputValues));
            continue;
        }
        let canon_result = op.ret.as_ref().is_some_and(|r| {
            !is_literal_type(r)
                && matches!(r, JType::Class { .. })
                && ref_types.iter().any(|t| t.erasure() == r.erasure())
        }) || op.kind == OpKind::Constructor;
        out.push(Usable {
            op: id,
            params,
            canon_result,
        });
    }
    out
}

/// The search starts from operations without structure inputs (constructors, static
/// factories): when --methods/--builders leave none, nothing can be built, which is refused
/// instead of reporting 0 structures.
pub(crate) fn check_can_start(
    model: &crate::model::Model,
    ops: &OpSet,
    classes: &[String],
    usable: &[Usable],
    s: &Settings,
) -> anyhow::Result<()> {
    let starts = usable
        .iter()
        .any(|u| u.canon_result && u.params.iter().all(|p| matches!(p, ParamDom::Lits(_))));
    if starts {
        return Ok(());
    }
    let flags = if s.methods.is_some() && !s.builders.is_empty() {
        "--methods and --builders select"
    } else if s.methods.is_some() {
        "--methods selects"
    } else if !s.builders.is_empty() {
        "--builders selects"
    } else {
        let missing = reach::missing_producers(model, ops, usable);
        bail!(
            "{} has no public constructor or static factory whose inputs jforge can supply, so no structure can be built{}",
            classes.join(", "),
            if missing.is_empty() {
                String::new()
            } else {
                format!(" ({})", missing.join("; "))
            }
        );
    };
    let example = ops
        .primary
        .iter()
        .map(|&o| ops.table.get(o))
        .find(|o| o.kind == OpKind::Constructor)
        .map(|o| {
            format!(
                ", e.g. {} (signatures are written like {})",
                regex::escape(&o.signature()),
                o.signature()
            )
        })
        .unwrap_or_default();
    bail!(
        "{flags} no constructor or static factory of {}, so no structure can be built: add one{example}",
        classes.join(", ")
    )
}

/// A readable, replayable form of a sequence: `v0 = new ds.Sll(); v1 = 0; v0.add(v1)`.
pub fn render_seq(ops: &OpSet, seq: &crate::sequence::Sequence) -> Vec<String> {
    seq.stmts
        .iter()
        .enumerate()
        .map(|(i, s)| match s {
            Stmt::Lit { value, ty } => {
                format!("v{i} = {}", crate::emit::literal::java_literal(value, ty))
            }
            Stmt::Array { elem, elems } => {
                let e: Vec<String> = elems.iter().map(|x| format!("v{x}")).collect();
                format!("v{i} = new {}[] {{{}}}", elem.source(), e.join(", "))
            }
            Stmt::Call { op, args } => {
                let o = ops.table.get(*op);
                let a: Vec<String> = args.iter().map(|x| format!("v{x}")).collect();
                match o.kind {
                    OpKind::Constructor => format!("v{i} = new {}({})", o.class, a.join(", ")),
                    OpKind::Method if o.ret.is_none() && !a.is_empty() => {
                        format!("{}.{}({})", a[0], o.name, a[1..].join(", "))
                    }
                    OpKind::Method if !a.is_empty() => {
                        format!("v{i} = {}.{}({})", a[0], o.name, a[1..].join(", "))
                    }
                    _ => format!("v{i} = {}.{}({})", o.class, o.name, a.join(", ")),
                }
            }
        })
        .collect()
}

/// One regression test per structure of the classes under test (sequence + observer
/// assertions from one Observe run) and failure tests (exceptions, --check counterexamples).
pub(crate) fn build_tests(
    search: &Search,
    model: &crate::model::Model,
    pool: &mut Pool,
    classes: &[String],
    limit: usize,
    stats: &mut ObserveStats,
) -> anyhow::Result<(Vec<TestCase>, Vec<TestCase>)> {
    let ops = search.ops;
    let mut picked = Vec::new();
    for (i, k) in search.kept.iter().enumerate() {
        if picked.len() >= limit {
            break;
        }
        let cls = &search.classes[k.class as usize];
        if classes.iter().any(|c| c.as_str() == cls.as_ref()) {
            picked.push(search.materialize(i));
        }
    }
    // The shared suite stage: two JVMs, stable values only, assertable values only;
    // structures breaking a contract are failures (reported by the search), not tests.
    let items: Vec<ObserveItem> = picked
        .iter()
        .map(|(seq, value)| ObserveItem {
            seq: seq.clone(),
            expect: Expect::Normal,
            observers: seq
                .out_type(&ops.table, *value as usize)
                .and_then(|t| ops.observers.get(&t))
                .map(|v| v.iter().take(8).map(|&o| (*value, o)).collect())
                .unwrap_or_default(),
            contract_values: vec![*value],
        })
        .collect();
    let mut reg = Vec::new();
    let mut err = Vec::new();
    for chunk in items.chunks(2000) {
        for t in crate::suite::observe(model, pool, chunk, stats)?
            .into_iter()
            .flatten()
        {
            reg.push(t);
        }
    }
    for f in &search.failures {
        if let Some((contract, a)) = f.contract {
            err.push(TestCase {
                defect: None,
                seq: f.seq.clone(),
                asserts: vec![None; f.seq.len()],
                observers: Vec::new(),
                ending: Ending::ErrorContract {
                    contract,
                    a,
                    b: None,
                },
            });
        } else if let Some(p) = &f.public_class {
            err.push(TestCase {
                defect: None,
                seq: f.seq.clone(),
                asserts: vec![None; f.seq.len()],
                observers: Vec::new(),
                ending: Ending::ErrorException {
                    class: p.clone(),
                    // a jforge pseudo-exception (excessive output, ...) breaks no contract of
                    // gen's: it is named as before
                    contract: f
                        .exception_contract
                        .unwrap_or("unexpected-exception")
                        .into(),
                },
            });
        }
    }
    for c in &search.counterexamples {
        let k = &search.kept[c.kept];
        let cls = search.classes[k.class as usize].to_string();
        if let Some(&op) = search.cfg.check_ops.get(&cls) {
            let (seq, value) = search.materialize(c.kept);
            err.push(TestCase {
                defect: None,
                asserts: vec![None; seq.len()],
                seq,
                observers: vec![(value, op, Value::Bool(true))],
                ending: Ending::Normal,
            });
        }
    }
    Ok((reg, err))
}
