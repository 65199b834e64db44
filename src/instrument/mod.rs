//! Bytecode instrumentation for coverage, and the clock reads jforge controls (`clock.rs`).
//!
//! Why in Rust and not a Java agent: jforge already parses class files in Rust, the worker
//! JVM then needs no agent jar and no bytecode library, and the probe map is known before
//! the JVM starts, so the generator can reason about uncovered branches without asking it.
//!
//! [`instrument_class`] rewrites every method body so that executing it records *probes*:
//!
//! * one **method-entry** probe per method with code;
//! * one **line** probe per distinct source line in the LineNumberTable; its hit code is
//!   inserted at every line-table entry of that line (a `finally` block copied three times
//!   still has one probe for each of its lines, hit when any copy runs);
//! * two **branch** probes per conditional jump (`if*`, `if_icmp*`, `if_acmp*`, `ifnull`,
//!   `ifnonnull`): the taken edge and the fall-through edge;
//! * one probe per **switch** case and one for its default (`tableswitch`, `lookupswitch`).
//!
//! A probe is `sipush id` (or `ldc_w id` beyond 32767) + `invokestatic jforge/rt/Cov.hit(I)V`.
//! That is heavier than JaCoCo's per-method `boolean[]` local, but it needs no new local, no
//! change to the locals of any stack-map frame and no per-method registration; HotSpot
//! inlines the two-instruction `hit` method once it is hot. Fall-through probes sit right
//! after the jump; taken edges go through a trampoline (see `code.rs` for the layout).
//!
//! Comparison logging (for the generator's literal pool): `String.equals` calls become
//! `Cov.strEq` (same length and stack effect), each `if_icmp*` is preceded by `dup2; sipush
//! site; invokestatic Cov.cmpI` and each `lcmp` becomes `sipush site; invokestatic Cov.lcmp`
//! (laid out with the probes, see `code.rs`).
//!
//! The runtime class (`src/instrument/rt/Cov.java`) keeps one global
//! `boolean[]` that starts at 64 Ki probes and is grown under a lock when a
//! larger id shows up; build.rs compiles it with the clock's and the tracer's runtime, and
//! [`write_runtime`] writes them where a run needs them. The class-file layer is our own
//! (`classfile.rs`): the constant pool is only appended to, so every attribute we do not
//! rewrite is copied byte for byte.

pub mod access;
mod classfile;
pub mod clock;
mod code;
pub mod fields;
mod frames;
pub mod sizes;
pub mod trace;

use anyhow::{Context, Result};
use classfile::ConstPool;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// Internal name of the runtime class that records probe hits.
pub const RUNTIME_CLASS: &str = "jforge/rt/Cov";

// `RUNTIME_CLASSES`: the class files of src/instrument/rt, compiled by build.rs.
include!(concat!(env!("OUT_DIR"), "/rt_classes.rs"));

/// What a probe records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ProbeKind {
    /// The method was entered.
    MethodEntry,
    /// A source line ran (any of its line-table entries).
    Line,
    /// The jump of a conditional branch was taken.
    BranchTaken,
    /// A conditional branch fell through.
    BranchNotTaken,
    /// A switch case with this key was selected.
    SwitchCase { key: i32 },
    /// A switch went to its default target.
    SwitchDefault,
}

/// One probe. `offset` is the bytecode offset in the ORIGINAL code of the instruction the
/// probe belongs to (the jump or switch for branch probes, the first line-table entry for
/// line probes, 0 for method entry).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probe {
    pub id: u32,
    pub kind: ProbeKind,
    /// Index into [`ProbeMap::methods`].
    pub method: u32,
    pub offset: u32,
    pub line: Option<u32>,
}

/// The probes of one method (a contiguous id range).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MethodProbes {
    pub name: String,
    pub descriptor: String,
    pub access: u16,
    pub first_probe: u32,
    pub probe_count: u32,
    /// Why the method was left uninstrumented (it has code but would grow past a JVM limit).
    pub skipped: Option<String>,
}

/// Every probe of one class. Probe ids are `first_probe .. first_probe + probe_count`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeMap {
    /// Internal name, e.g. `java/util/TreeMap`.
    pub class_name: String,
    pub class_id: u32,
    pub first_probe: u32,
    pub probe_count: u32,
    pub methods: Vec<MethodProbes>,
    pub probes: Vec<Probe>,
}

impl ProbeMap {
    /// One past the last probe id: the `first_probe` for the next class.
    pub fn end(&self) -> u32 {
        self.first_probe + self.probe_count
    }

    /// The probes of the method `name` + `descriptor`.
    pub fn method_probes<'a>(&'a self, name: &str, descriptor: &str) -> Vec<&'a Probe> {
        let Some(m) = self
            .methods
            .iter()
            .position(|m| m.name == name && m.descriptor == descriptor)
        else {
            return vec![];
        };
        self.probes
            .iter()
            .filter(|p| p.method == m as u32)
            .collect()
    }
}

/// A rewritten class and its probes.
#[derive(Debug, Clone)]
pub struct Instrumented {
    pub bytes: Vec<u8>,
    pub probes: ProbeMap,
}

const ACC_STATIC: u16 = 0x0008;
const ACC_MODULE: u16 = 0x8000;

/// Rewrites a class file so that running it records coverage probes with ids starting at
/// `first_probe`. Abstract and native methods get no probes; `module-info` and the runtime
/// class itself are returned unchanged with no probes. Errors (never panics) on malformed
/// or unsupported input.
pub fn instrument_class(bytes: &[u8], class_id: u32, first_probe: u32) -> Result<Instrumented> {
    instrument_class_with(bytes, class_id, first_probe, false)
}

/// [`instrument_class`], and with `trace` the trace mode of `jforge concolic` too (see
/// `trace.rs`): every method of a user class also calls `jforge.rt.Sym` around each
/// instruction (comparison logging is off then: the trace replaces `lcmp` and
/// `String.equals` itself).
pub fn instrument_class_with(
    bytes: &[u8],
    class_id: u32,
    first_probe: u32,
    trace: bool,
) -> Result<Instrumented> {
    let mut cf = classfile::parse_class(bytes)?;
    let class_name = read_class_name(&cf)?;
    if cf.access & ACC_MODULE != 0 || class_name == RUNTIME_CLASS {
        return Ok(unchanged(bytes, class_name, class_id, first_probe));
    }
    let cov_ref = cf.cp.methodref(RUNTIME_CLASS, "hit", "(I)V")?;
    // In trace mode `String.equals` stays a call, which the trace replaces by its own
    // (`Sym.sequals`: the solver's string theory reasons about it).
    let mut retarget = if trace && !is_jdk_class(&class_name) {
        HashMap::new()
    } else {
        string_equals_retargets(&mut cf.cp, &class_name)?
    };
    // One rewrite pass for coverage and the clock (see clock.rs): both only retarget calls.
    let clock = clock::plan(&mut cf.cp, &class_name)?;
    retarget.extend(clock.calls.iter().map(|(&a, &b)| (a, b)));
    let class = ClassContext {
        name: &class_name,
        this_class: cf.this_class,
        major: cf.major,
        this_is_object: class_name == "java/lang/Object",
        cov_ref,
        retarget,
        new_date: clock.new_date,
        // Numbers are logged in user classes only, and not in static initialisers: JDK classes
        // also run for the JDK itself and for the worker (bootstraps, reflection, class
        // loading), and static initialisers run once per worker JVM, so the values they would
        // log depend on the worker's history and gen would differ between 1 and 2 workers.
        log_numbers: !is_jdk_class(&class_name) && !trace,
        trace: trace && !is_jdk_class(&class_name),
    };
    let mut methods = MethodsOut::new(cf.methods.len(), first_probe);
    for m in &cf.methods {
        methods.add_method(&class, m, &mut cf.cp)?;
    }
    Ok(Instrumented {
        bytes: write_class(&cf, &methods.bytes, bytes.len()),
        probes: ProbeMap {
            class_name,
            class_id,
            first_probe,
            probe_count: methods.next - first_probe,
            methods: methods.entries,
            probes: methods.probes,
        },
    })
}

/// Whether the class's constant pool names a clock read that [`retarget_clock`] would rewrite
/// (a quick scan: nothing is rewritten). False for JDK classes and malformed input.
pub fn reads_clock(bytes: &[u8]) -> bool {
    let Ok(cf) = classfile::parse_class(bytes) else {
        return false;
    };
    match read_class_name(&cf) {
        Ok(n) if cf.access & ACC_MODULE == 0 && !is_jdk_class(&n) && !n.starts_with("jforge/") => {
            !clock::clock_refs(&cf.cp).is_empty()
        }
        _ => false,
    }
}

/// Rewrites the clock reads of a class (see `clock.rs`) and nothing else: no probes, same
/// code lengths, every other byte kept. `None` when the class reads no clock (or is a JDK
/// class, a module descriptor or the runtime).
pub fn retarget_clock(bytes: &[u8]) -> Result<Option<Vec<u8>>> {
    let mut cf = classfile::parse_class(bytes)?;
    let class_name = read_class_name(&cf)?;
    if cf.access & ACC_MODULE != 0 {
        return Ok(None);
    }
    let patch = clock::plan(&mut cf.cp, &class_name)?;
    if patch.is_empty() {
        return Ok(None);
    }
    let mut methods = Vec::new();
    classfile::put_u2(&mut methods, cf.methods.len() as u16);
    for m in &cf.methods {
        classfile::put_u2(&mut methods, m.access);
        classfile::put_u2(&mut methods, m.name);
        classfile::put_u2(&mut methods, m.desc);
        classfile::put_u2(&mut methods, m.attrs.len() as u16);
        for a in &m.attrs {
            let is_code = cf.cp.utf8_at(a.name).map(|s| s == "Code").unwrap_or(false);
            let body = if is_code {
                code::retarget_calls(a.body, &patch.calls, patch.new_date.as_ref())
                    .with_context(|| format!("rewriting the clock reads of {class_name}"))?
            } else {
                None
            };
            classfile::write_attr(&mut methods, a.name, body.as_deref().unwrap_or(a.body))?;
        }
    }
    Ok(Some(write_class(&cf, &methods, bytes.len())))
}

/// The internal name of the class (`module-info` for a module descriptor).
fn read_class_name(cf: &classfile::ClassFile) -> Result<String> {
    Ok(if cf.access & ACC_MODULE != 0 {
        "module-info".to_string()
    } else {
        cf.cp
            .class_name_at(cf.this_class)
            .context("reading this_class")?
            .to_string()
    })
}

/// The class as it was, with no probes.
fn unchanged(bytes: &[u8], class_name: String, class_id: u32, first_probe: u32) -> Instrumented {
    Instrumented {
        bytes: bytes.to_vec(),
        probes: ProbeMap {
            class_name,
            class_id,
            first_probe,
            probe_count: 0,
            methods: vec![],
            probes: vec![],
        },
    }
}

/// Comparison logging: maps each `String.equals` methodref to `Cov.strEq` (added to the pool
/// when needed), which records the operands for the generator's literal pool, so string
/// switches are logged too. Empty inside java.lang, which the runtime itself uses.
fn string_equals_retargets(cp: &mut ConstPool, class_name: &str) -> Result<HashMap<u16, u16>> {
    let mut retarget = HashMap::new();
    if !class_name.starts_with("java/lang/") {
        let eqs: Vec<u16> = cp
            .methodref_indices()
            .into_iter()
            .filter(|&i| {
                cp.methodref_at(i) == Some(("java/lang/String", "equals", "(Ljava/lang/Object;)Z"))
            })
            .collect();
        if !eqs.is_empty() {
            let to = cp.methodref(
                RUNTIME_CLASS,
                "strEq",
                "(Ljava/lang/String;Ljava/lang/Object;)Z",
            )?;
            for i in eqs {
                retarget.insert(i, to);
            }
        }
    }
    Ok(retarget)
}

/// What the methods of one class share while their code is rewritten.
struct ClassContext<'a> {
    name: &'a str,
    this_class: u16,
    major: u16,
    this_is_object: bool,
    /// Methodref of `Cov.hit(I)V`.
    cov_ref: u16,
    /// `String.equals` methodrefs to turn into `Cov.strEq` (see [`string_equals_retargets`])
    /// and clock reads to turn into `JClock` calls (see `clock.rs`).
    retarget: HashMap<u16, u16>,
    /// `new Date()` to turn into `JClock.newDate()`.
    new_date: Option<clock::NewDate>,
    /// Log compared numbers (user classes only).
    log_numbers: bool,
    /// Trace mode (see `trace.rs`).
    trace: bool,
}

/// The rewritten methods table and the probes of the methods so far.
struct MethodsOut {
    /// methods_count and the method_info structures.
    bytes: Vec<u8>,
    /// One entry per method with code.
    entries: Vec<MethodProbes>,
    probes: Vec<Probe>,
    /// Id of the next probe.
    next: u32,
}

impl MethodsOut {
    /// An empty table for `method_count` methods, probes from `first_probe` on.
    fn new(method_count: usize, first_probe: u32) -> Self {
        let mut bytes = Vec::new();
        classfile::put_u2(&mut bytes, method_count as u16);
        MethodsOut {
            bytes,
            entries: Vec::new(),
            probes: Vec::new(),
            next: first_probe,
        }
    }

    /// Copies method `m`, rewriting its first Code attribute; a method with code gets an
    /// entry in the probe map.
    fn add_method(
        &mut self,
        class: &ClassContext,
        m: &classfile::Member,
        cp: &mut ConstPool,
    ) -> Result<()> {
        let name = cp
            .utf8_at(m.name)
            .context("reading a method name")?
            .to_string();
        let desc = cp
            .utf8_at(m.desc)
            .with_context(|| format!("reading the descriptor of method {name}"))?
            .to_string();
        classfile::put_u2(&mut self.bytes, m.access);
        classfile::put_u2(&mut self.bytes, m.name);
        classfile::put_u2(&mut self.bytes, m.desc);
        classfile::put_u2(&mut self.bytes, m.attrs.len() as u16);
        let mut entry = MethodProbes {
            name,
            descriptor: desc,
            access: m.access,
            first_probe: self.next,
            probe_count: 0,
            skipped: None,
        };
        let mut has_code = false;
        for a in &m.attrs {
            let is_code = cp.utf8_at(a.name).map(|s| s == "Code").unwrap_or(false);
            if !is_code || has_code {
                classfile::write_attr(&mut self.bytes, a.name, a.body)?;
                continue;
            }
            has_code = true;
            self.add_code(class, m, a, &mut entry, cp)?;
        }
        if has_code {
            self.entries.push(entry);
        }
        Ok(())
    }

    /// Rewrites the Code attribute `code` of method `m` and records its probes in `entry`. A
    /// method that would grow past a JVM limit keeps its code (still logging comparisons)
    /// and `entry` says why.
    fn add_code(
        &mut self,
        class: &ClassContext,
        m: &classfile::Member,
        code: &classfile::RawAttr,
        entry: &mut MethodProbes,
        cp: &mut ConstPool,
    ) -> Result<()> {
        let (name, desc) = (entry.name.as_str(), entry.descriptor.as_str());
        let init = || {
            frames::initial_frame(
                m.access & ACC_STATIC != 0,
                name == "<init>",
                class.this_class,
                class.this_is_object,
                desc,
            )
        };
        let ctx = code::MethodCtx {
            major: class.major,
            initial_frame: &init,
            cov_ref: class.cov_ref,
            log_compares: class.log_numbers && name != "<clinit>",
            trace: class
                .trace
                .then_some((name, desc, m.access & ACC_STATIC != 0)),
        };
        let patched = if class.retarget.is_empty() && class.new_date.is_none() {
            None
        } else {
            code::retarget_calls(code.body, &class.retarget, class.new_date.as_ref())?
        };
        let body = patched.as_deref().unwrap_or(code.body);
        let rewritten = code::rewrite(body, cp, &ctx, self.next)
            .with_context(|| format!("instrumenting method {}.{name}{desc}", class.name))?;
        match rewritten {
            Ok(rw) => {
                classfile::write_attr(&mut self.bytes, code.name, &rw.body)?;
                entry.probe_count = rw.probes.len() as u32;
                // The method's index in the probe map: its entry is added after its attributes.
                let method_index = self.entries.len() as u32;
                for (k, p) in rw.probes.into_iter().enumerate() {
                    self.probes.push(Probe {
                        id: self.next + k as u32,
                        kind: p.kind,
                        method: method_index,
                        offset: p.offset,
                        line: p.line,
                    });
                }
                self.next += entry.probe_count;
            }
            Err(reason) => {
                // Uninstrumented, but still logging comparisons (same length, same frames).
                classfile::write_attr(&mut self.bytes, code.name, body)?;
                entry.skipped = Some(reason);
            }
        }
        Ok(())
    }
}

/// Writes the class file: the grown constant pool and the rewritten methods; every other
/// part is copied byte for byte.
fn write_class(cf: &classfile::ClassFile, methods: &[u8], original_len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(original_len + original_len / 2);
    classfile::put_u4(&mut out, 0xCAFE_BABE);
    classfile::put_u2(&mut out, cf.minor);
    classfile::put_u2(&mut out, cf.major);
    cf.cp.write(&mut out);
    out.extend_from_slice(cf.middle);
    out.extend_from_slice(cf.fields);
    out.extend_from_slice(methods);
    out.extend_from_slice(cf.attrs);
    out
}

/// Classes of the JDK (by internal name).
fn is_jdk_class(name: &str) -> bool {
    ["java/", "javax/", "jdk/", "sun/", "com/sun/"]
        .iter()
        .any(|p| name.starts_with(p))
}

/// Writes the runtime classes instrumented code calls (`jforge/rt/Cov.class`, `JClock`,
/// `Sym`; compiled by build.rs with `--release 8` from src/instrument/rt) under `out_dir`.
pub fn write_runtime(out_dir: &Path) -> Result<()> {
    for (rel, bytes) in RUNTIME_CLASSES {
        let path = out_dir.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating the folder {}", parent.display()))?;
        }
        std::fs::write(&path, bytes).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
