//! `jforge exhaustive`: bounded-exhaustive generation from the API (BEAPI, issue 4).
//!
//! Wiring: settings (flags over an optional properties file), class selection and model
//! loading as in `jforge gen`, operations from `generate::ops::build_ops` restricted to the
//! classes under test (and to --methods / --builders), input domains, the worker pool with the
//! canonicalization settings as system properties, the search (`search.rs`), then outputs:
//! summary, --csv, --dump, --stats-json and a JUnit suite (`--output-dir`).

pub mod canon;
pub mod search;

use crate::cli::ExhaustiveArgs;
use crate::emit::output::{Installed, RunOutput};
use crate::emit::suite::Tool;
use crate::emit::{EmitConfig, Ending, TestCase};
use crate::generate::ops::{OpSet, SkipReason, build_ops, is_literal_type};
use crate::model::{JType, Prim};
use crate::runner::Pool;
use crate::select;
use crate::sequence::{OpKind, Operation, Stmt, Value};
use crate::session::{Session, WorkerSettings};
use crate::suite::check::{CheckSettings, write_and_check};
use crate::suite::{Expect, ObserveItem, ObserveStats};
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use regex::Regex;
use search::{ParamDom, Search, SearchConfig, Usable};
use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

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
    pub misuse: Vec<String>,
    pub check: Option<String>,
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

impl Settings {
    pub fn from_args(a: &ExhaustiveArgs) -> anyhow::Result<Settings> {
        let props = match &a.config {
            Some(p) => read_properties(p)?,
            None => HashMap::new(),
        };
        let get =
            |flag: &Option<String>, key: &str| flag.clone().or_else(|| props.get(key).cloned());
        let scope = match a.scope {
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
        let range = |flag: &str, v: Option<String>| -> anyhow::Result<Vec<i64>> {
            match v {
                Some(s) => {
                    let (x, y) = parse_range(flag, &s)?;
                    Ok((x..=y).collect())
                }
                None => Ok((0..scope.max(1) as i64).collect()),
            }
        };
        let ints64 = range("ints", get(&a.domain.ints, "ints"))?;
        if ints64
            .iter()
            .any(|&v| v < i32::MIN as i64 || v > i32::MAX as i64)
        {
            bail!("--ints: values must fit in an int");
        }
        let ints: Vec<i32> = ints64.iter().map(|&v| v as i32).collect();
        let longs = match get(&a.domain.longs, "longs") {
            Some(s) => range("longs", Some(s))?,
            None => ints64.clone(),
        };
        let shorts = match get(&a.domain.shorts, "shorts") {
            Some(s) => range("shorts", Some(s))?
                .into_iter()
                .map(|v| v.clamp(i16::MIN as i64, i16::MAX as i64) as i32)
                .collect(),
            None => ints.clone(),
        };
        let doubles = match get(&a.domain.doubles, "doubles") {
            Some(s) => s
                .split(',')
                .map(|x| {
                    x.trim()
                        .parse::<f64>()
                        .map_err(|_| anyhow::anyhow!("--doubles: '{x}' is not a number"))
                })
                .collect::<anyhow::Result<_>>()?,
            None => ints.iter().map(|&v| v as f64).collect(),
        };
        let letters: Vec<char> = (0..scope.max(1))
            .map(|i| (b'a' + (i % 26) as u8) as char)
            .collect();
        let chars = match get(&a.domain.chars, "chars") {
            Some(s) => s.chars().collect(),
            None => letters.clone(),
        };
        let booleans = match get(&a.domain.booleans, "booleans") {
            Some(s) => s
                .split(',')
                .map(|x| match x.trim() {
                    "true" => Ok(true),
                    "false" => Ok(false),
                    o => bail!("--booleans: '{o}' is not true or false"),
                })
                .collect::<anyhow::Result<_>>()?,
            None => vec![false, true],
        };
        let strings = match get(&a.domain.strings, "strings") {
            Some(s) => s.split(',').map(|x| x.to_string()).collect(),
            None => letters.iter().map(|c| c.to_string()).collect(),
        };
        let max_array = match a.domain.max_array {
            Some(m) => Some(m),
            None => props
                .get("max-array")
                .map(|s| s.parse())
                .transpose()
                .context("max-array in --config")?,
        };
        let omit_fields = get(&a.domain.omit_fields, "omit-fields");
        if let Some(o) = &omit_fields {
            crate::cli::parse_regex("--omit-fields", o)?;
        }
        let methods = get(&a.domain.methods, "methods")
            .map(|m| crate::cli::parse_regex("--methods", &m))
            .transpose()?;
        let builders_file = a
            .builders
            .clone()
            .or_else(|| props.get("builders").map(PathBuf::from));
        let builders = match builders_file {
            Some(f) => read_builders_file(&f)?,
            None => Vec::new(),
        };
        let mut misuse: Vec<String> = a
            .domain
            .misuse_exceptions
            .iter()
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        if misuse.is_empty() {
            misuse = match props.get("misuse-exceptions") {
                Some(s) => s.split(',').map(|x| x.trim().to_string()).collect(),
                None => vec![
                    "java.lang.IllegalArgumentException".into(),
                    "java.lang.IllegalStateException".into(),
                ],
            };
        }
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
            misuse,
            check: get(&a.check, "check"),
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
fn default_worker_heap(workers: usize) -> u32 {
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

/// Memory the kept structures may take: --max-memory, else half the machine's RAM.
pub fn memory_budget(args: &ExhaustiveArgs) -> u64 {
    if let Some(m) = args.domain.max_memory {
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
/// --builders; members whose inputs cannot be supplied are listed as skipped.
pub fn usable_ops(
    ops: &OpSet,
    classes: &[String],
    s: &Settings,
    skipped: &mut Vec<(String, SkipReason)>,
) -> Vec<Usable> {
    let mut out = Vec::new();
    let ref_types: Vec<JType> = classes
        .iter()
        .filter_map(|c| ops.instantiations.get(c).cloned())
        .collect();
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
        if s.methods.as_ref().is_some_and(|m| !m.is_match(&sig)) {
            continue;
        }
        if !s.builders.is_empty() && !s.builders.iter().any(|b| b.is_match(&sig)) {
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
fn check_can_start(
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
        bail!(
            "{} has no public constructor or static factory whose inputs jforge can supply, so no structure can be built",
            classes.join(", ")
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

/// Runs `jforge exhaustive`; failures and --check counterexamples make the outcome
/// `ErrorsFound` (exit 3); an interrupted run exits with status 130 (see `crate::interrupt`).
pub fn run(args: ExhaustiveArgs) -> anyhow::Result<crate::exit::Outcome> {
    crate::interrupt::install()?;
    crate::interrupt::settle(enumerate_and_write(args))
}

fn enumerate_and_write(args: ExhaustiveArgs) -> anyhow::Result<crate::exit::Outcome> {
    let started = Instant::now();
    args.check()?;
    // `--builders auto`: identify a builder set first (jforge builders), then enumerate with it
    let auto_builders = args.builders.as_deref() == Some(std::path::Path::new("auto"));
    let args = if auto_builders {
        ExhaustiveArgs {
            builders: None,
            ..args
        }
    } else {
        args
    };
    let settings = Settings::from_args(&args)?;
    if args.run.classes.is_empty() {
        bail!("name the class to enumerate with --class NAME");
    }
    // ---- output folders: locked for the whole run, written through staging (emit::output)
    let mut output = match &args.suite.output_dir {
        Some(d) => Some(RunOutput::open(
            Tool::Exhaustive,
            EmitConfig {
                out_dir: d.clone(),
                junit: args.suite.junit,
                package: None,
                tests_per_file: args.suite.tests_per_file as usize,
            },
            args.suite.error_output_dir.as_deref(),
            args.suite.error_tests_in_suite,
        )?),
        None => None,
    };
    let workers_hint = args.run.workers_or_cores();
    let jvm = canon_jvm_args(&settings, Some(settings.scope), args.dump.is_some());
    let mut session = Session::open(
        args.run.java.as_deref(),
        &args.run.classpath,
        &[],
        Some(workers_hint),
        WorkerSettings {
            call_timeout: Duration::from_secs(5),
            heap_mb: args
                .run
                .worker_heap
                .unwrap_or_else(|| default_worker_heap(workers_hint)),
            classpath_prefix: Vec::new(),
            extra_jvm_args: jvm,
        },
    )?;
    let workers = session.workers;
    select::check_class_versions(
        &args.run.classes,
        None,
        &[],
        &[],
        &session.cp,
        session.java.version,
    )?;

    // ---- model and operations (as in `jforge gen`)
    let classes = session.load_classes_under_test(
        &args.run.classes,
        "its structures are built through its public API",
    )?;
    let mut pool = session.take_pool()?;
    let model = &session.model;
    let ops = build_ops(model, &classes, None, None);
    let mut table = ops.table.clone();
    let mut check_ops = HashMap::new();
    if let Some(m) = &settings.check {
        for c in &classes {
            let Some(ty) = ops.instantiations.get(c) else {
                continue;
            };
            let found = model
                .methods_of(c)
                .into_iter()
                .find(|mi| mi.name == *m && mi.params.is_empty() && !mi.is_static());
            let Some(mi) = found else {
                bail!("--check {m}: class {c} has no method {m}() without parameters");
            };
            if mi.descriptor != "()Z" {
                bail!("--check {m}: {c}.{m}() must return boolean");
            }
            let id = table.intern(Operation {
                kind: OpKind::Method,
                class: c.clone(),
                name: m.clone(),
                descriptor: "()Z".into(),
                owner: ty.clone(),
                params: vec![],
                ret: Some(JType::Prim(Prim::Boolean)),
                varargs: false,
                overloaded: false,
                method_type_args: vec![],
                outer_instance: false,
            });
            check_ops.insert(c.clone(), id);
        }
    }
    let mut skipped = ops.skipped.clone();
    let usable = usable_ops(&ops, &classes, &settings, &mut skipped);
    let usable = match auto_builders
        .then(|| crate::builders::auto(&args, &session.pool_maker(), model, &ops, &classes))
        .transpose()?
        .flatten()
    {
        Some(keep) => usable
            .into_iter()
            .filter(|u| keep.contains(&u.op))
            .collect(),
        None => usable,
    };
    if usable.is_empty() {
        bail!(
            "no usable constructor or method in {}{}",
            classes.join(", "),
            if settings.methods.is_some() || !settings.builders.is_empty() {
                " after --methods/--builders"
            } else {
                ""
            }
        );
    }
    check_can_start(&ops, &classes, &usable, &settings)?;
    let failed = pool.register(&table)?;
    if let Some((_, why)) = failed
        .iter()
        .find(|(id, _)| check_ops.values().any(|c| c == id))
    {
        bail!("--check method cannot be called: {why}");
    }
    let failed_ids: Vec<u32> = failed.iter().map(|(i, _)| *i).collect();
    let usable: Vec<Usable> = usable
        .into_iter()
        .filter(|u| !failed_ids.contains(&u.op))
        .collect();
    let ops = OpSet { table, ..ops };

    let cfg = SearchConfig {
        state_matching: !args.no_state_matching,
        reuse: !args.no_reuse,
        misuse: settings.misuse.clone(),
        batch: args.domain.batch.max(1),
        max_rounds: args.max_rounds,
        memory_budget: memory_budget(&args),
        dump: args.dump.is_some(),
        check_ops,
        contracts: !args.no_contracts,
    };
    let n_usable = usable.len();
    let mut search = Search::new(model, &ops, usable, cfg);
    let bar = if args.run.quiet {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::new_spinner();
        b.set_style(
            ProgressStyle::with_template("{elapsed_precise} {spinner} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        b.enable_steady_tick(Duration::from_millis(250));
        b
    };
    let quiet = args.run.quiet;
    let mut tick = |p: &search::Progress| {
        let rate = p.explored as f64 / p.elapsed.as_secs_f64().max(1e-6);
        let msg = format!(
            "round {} | frontier {} | {} structures | {} explored | {:.0} seq/s",
            p.round, p.frontier, p.structures, p.explored, rate
        );
        if p.frontier > 0 && !quiet {
            bar.println(&msg);
        }
        bar.set_message(msg);
    };
    let search_start = Instant::now();
    search.run(&mut pool, &mut tick)?;
    let seconds = search_start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let structures = search.structures_of(&classes);

    // ---- outputs
    if let Some(path) = &args.dump {
        let mut text = String::new();
        for f in &search.forms {
            text.push_str(f);
            text.push('\n');
        }
        std::fs::write(path, text)
            .with_context(|| format!("cannot write --dump file {}", path.display()))?;
    }
    if let Some(path) = &args.csv {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open --csv file {}", path.display()))?;
        writeln!(
            f,
            "{},{},{:.3},{},{}",
            classes.join("+"),
            settings.scope,
            seconds,
            structures,
            search.explored
        )?;
    }
    let mut written = 0usize;
    let mut failure_tests = 0usize;
    let mut observe_stats = ObserveStats::default();
    let mut installed = Installed::default();
    let mut validation: Option<crate::report::ValidationSummary> = None;
    if let Some(out) = &mut output {
        let (reg, err) = build_tests(
            &search,
            model,
            &mut pool,
            &classes,
            args.max_tests,
            &mut observe_stats,
        )?;
        // The shared suite stage's check: compiled and run as a build would, what does not
        // compile or pass removed, before anything is put in place.
        let checked = write_and_check(
            out,
            &ops.table,
            &ops.owner_class,
            &classes,
            &reg,
            &err,
            &CheckSettings {
                javac: session.java.javac.as_deref(),
                java: &session.java.java,
                user_cp: &session.entries,
                junit: args.suite.junit,
                junit_classpath: args.suite.checking.junit_classpath.as_deref(),
                skip: args.suite.checking.no_validate,
                quiet: args.run.quiet,
                coverage: None,
                deadline: None,
            },
        )?;
        written = checked.regression.len();
        failure_tests = checked.errors.len();
        installed = out.install(&checked.files)?;
        validation = Some(checked.validation);
    }
    let stats = pool.stats();
    pool.shutdown();

    let by_class: BTreeMap<String, u64> = search
        .structures
        .iter()
        .map(|(c, n)| (c.to_string(), *n))
        .collect();
    let failures: Vec<serde_json::Value> = search
        .failures
        .iter()
        .map(|f| {
            serde_json::json!({
                "exception": f.what,
                "message": f.message,
                "occurrences": f.occurrences,
                "sequence": render_seq(&ops, &f.seq),
            })
        })
        .collect();
    let counterexamples: Vec<serde_json::Value> = search
        .counterexamples
        .iter()
        .map(|c| {
            let k = &search.kept[c.kept];
            let (seq, _) = search.materialize(c.kept);
            serde_json::json!({
                "check": settings.check,
                "result": c.result,
                "class": search.classes[k.class as usize].as_ref(),
                "sequence": render_seq(&ops, &seq),
            })
        })
        .collect();
    if let Some(path) = &args.run.stats_json {
        let j = serde_json::json!({
            "command": "exhaustive",
            "report_version": crate::report::REPORT_VERSION,
            "version": env!("CARGO_PKG_VERSION"),
            "classes": classes,
            "scope": settings.scope,
            "ints": settings.ints,
            "strings": settings.strings,
            "omit_fields": settings.omit_fields,
            "state_matching": !args.no_state_matching,
            "usable_operations": n_usable,
            "skipped_members": skipped,
            "workers": workers,
            "seconds": seconds,
            "total_seconds": started.elapsed().as_secs_f64(),
            "structures": structures,
            "structures_by_class": by_class,
            "kept_sequences": search.kept.len(),
            "prototype_reuse": {
                "enabled": !args.no_reuse,
                "from_prototype": search.from_prototype,
                "from_scratch": search.from_scratch,
                "rebuilt": search.rebuilt,
                "disabled": search.reuse_disabled,
            },
            "explored": search.explored,
            "misuse_dropped": search.misuse_dropped,
            "out_of_scope": search.out_of_scope,
            "canon_errors": search.canon_errors,
            "fixpoint": search.fixpoint,
            "warnings": search.warnings,
            "rounds": search.rounds,
            "failures": failures,
            "counterexamples": counterexamples,
            "tests_written": written,
            "tests_dropped": observe_stats,
            "validation": validation,
            "failure_tests_written": failure_tests,
            "restarts": stats.restarts,
            "timeouts": stats.timeouts,
        });
        std::fs::write(path, serde_json::to_string_pretty(&j)?)
            .with_context(|| format!("cannot write --stats-json file {}", path.display()))?;
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "jforge exhaustive: {} scope {}: {} structures, {} sequences explored in {:.2}s ({} rounds{})",
        classes.join(", "),
        settings.scope,
        structures,
        search.explored,
        seconds,
        search.rounds.len(),
        if search.fixpoint {
            ", fixpoint"
        } else {
            ", stopped before the fixpoint"
        }
    )?;
    for (c, n) in &by_class {
        writeln!(out, "  structures of {c}: {n}")?;
    }
    writeln!(
        out,
        "  dropped: {} API misuse, {} out of scope",
        search.misuse_dropped, search.out_of_scope
    )?;
    for (e, n) in &search.canon_errors {
        writeln!(out, "  canonicalization failed {n} times: {e}")?;
    }
    writeln!(out, "  failures: {}", search.failures.len())?;
    for f in &search.failures {
        writeln!(
            out,
            "    {} ({}x){}\n      {}",
            f.what,
            f.occurrences,
            f.message
                .as_ref()
                .map(|m| format!(": {m}"))
                .unwrap_or_default(),
            render_seq(&ops, &f.seq).join("; ")
        )?;
    }
    if settings.check.is_some() {
        writeln!(
            out,
            "  --check counterexamples: {}",
            search.counterexamples.len()
        )?;
        for c in search.counterexamples.iter().take(20) {
            let (seq, _) = search.materialize(c.kept);
            writeln!(
                out,
                "    {} returned {}: {}",
                settings.check.as_deref().unwrap_or(""),
                c.result,
                render_seq(&ops, &seq).join("; ")
            )?;
        }
    }
    if let (Some(d), Some(o)) = (&args.suite.output_dir, &output) {
        let failures = match o.error_dir() {
            Some(e) if failure_tests > 0 => format!(
                "; {failure_tests} failure tests to {}, where a build does not run them",
                e.display()
            ),
            _ => format!(" and {failure_tests} failure tests"),
        };
        writeln!(
            out,
            "  wrote {written} structure tests to {}{failures}; replaced {} files an earlier jforge exhaustive run wrote for the same classes",
            d.display(),
            installed.replaced.len()
        )?;
    }
    drop(out);
    let under_test = |sig: &str| {
        classes.iter().any(|c| {
            sig.strip_prefix(c.as_str())
                .is_some_and(|rest| rest.starts_with(['.', '(']))
        })
    };
    let reasons = skipped
        .iter()
        .filter(|(s, _)| under_test(s))
        .map(|(_, r)| *r);
    for w in crate::report::skipped_lines("member", "members", reasons) {
        eprintln!("{w}");
    }
    Ok(
        if search.failures.is_empty() && search.counterexamples.is_empty() {
            crate::exit::Outcome::Clean
        } else {
            crate::exit::Outcome::ErrorsFound
        },
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
fn build_tests(
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
                seq: f.seq.clone(),
                asserts: vec![None; f.seq.len()],
                observers: Vec::new(),
                ending: Ending::ErrorException {
                    class: p.clone(),
                    contract: "unexpected-exception".into(),
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
                asserts: vec![None; seq.len()],
                seq,
                observers: vec![(value, op, Value::Bool(true))],
                ending: Ending::Normal,
            });
        }
    }
    Ok((reg, err))
}
