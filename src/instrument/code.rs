//! Rewriting of one `Code` attribute: decode instructions, choose where probes go, lay the
//! new code out (growing jumps to their wide forms and moving trampolines closer when an
//! offset no longer fits in 16 bits), emit it, and remap every offset-bearing table.
//!
//! Layout of the rewritten code, per original instruction `i`:
//!
//! ```text
//! pre[i]:  [entry probe, only i == 0] [fall-through probes of the conditional before i]
//!          [island: trampolines, only when instruction i-1 never falls through]
//! lbl[i]:  [line probes of i]            <- jumps, handlers, frames and line entries for i
//!          [comparison log, only before if_icmp*: dup2; push site; invokestatic Cov.cmpI]
//! ins[i]:  instruction i (jump offsets recomputed, switch padding recomputed; an `lcmp`
//!          becomes push site; invokestatic Cov.lcmp, which returns the same result)
//! ```
//!
//! The comparison log sits after `lbl[i]`, so every path to the jump runs it, and it leaves
//! the stack as it found it, so no frame changes; it only needs two more stack slots (plus
//! one for the site id). The site id is the probe id of the taken edge of the jump (for
//! `lcmp`, of the jump that follows it), which lets the runtime limit logging per site.
//!
//! A trampoline is `probe; goto(_w) lbl[target]`; conditional jumps and switch entries are
//! redirected to their own trampoline, so the taken edge records its probe. Trampolines only
//! live in islands: after an instruction that never falls through (or at the end of the
//! code), so no path reaches them except the redirected jump, and their stack-map frame is a
//! copy of the frame at the original target. This avoids the usual "inverted condition +
//! `goto_w`" rewrite, whose fall-through point would need a frame we cannot know without a
//! full type inference.

use super::ProbeKind;
use super::classfile::{ConstPool, RawAttr, Reader, put_u2, put_u4, write_attr};
use super::clock::NewDate;
use super::frames::{self, Frame};
use anyhow::{Context, Result, bail};
use std::collections::{HashMap, HashSet};

/// A probe before ids are made global: kind, original offset, line.
pub(crate) struct DraftProbe {
    pub(crate) kind: ProbeKind,
    pub(crate) offset: u32,
    pub(crate) line: Option<u32>,
}

#[derive(Debug)]
enum Kind {
    Plain,
    /// goto / jsr (may be promoted to goto_w / jsr_w)
    Jump16(u32),
    /// if* / ifnull / ifnonnull
    Cond(u32),
    /// goto_w / jsr_w
    Jump32(u32),
    Table {
        default: u32,
        low: i32,
        high: i32,
        targets: Vec<u32>,
    },
    Lookup {
        default: u32,
        pairs: Vec<(i32, u32)>,
    },
}

struct Insn {
    off: u32,
    len: u32,
    op: u8,
    kind: Kind,
}

fn be_i32(b: &[u8], at: usize) -> Result<i32> {
    let s = b
        .get(at..at + 4)
        .with_context(|| format!("truncated switch instruction at byte {at}"))?;
    Ok(i32::from_be_bytes([s[0], s[1], s[2], s[3]]))
}

fn target(off: u32, delta: i64, code_len: usize) -> Result<u32> {
    let t = off as i64 + delta;
    if t < 0 || t >= code_len as i64 {
        bail!("jump at offset {off} targets {t}, outside the code (length {code_len})");
    }
    Ok(t as u32)
}

fn decode(code: &[u8]) -> Result<Vec<Insn>> {
    let mut out = Vec::new();
    let mut pc = 0usize;
    let n = code.len();
    while pc < n {
        let op = code[pc];
        let off = pc as u32;
        let b16 = |at: usize| -> Result<i64> {
            let s = code
                .get(at..at + 2)
                .with_context(|| format!("truncated instruction at offset {pc}"))?;
            Ok(i16::from_be_bytes([s[0], s[1]]) as i64)
        };
        let (len, kind) = match op {
            0x00..=0x0f | 0x1a..=0x35 | 0x3b..=0x83 | 0x85..=0x98 | 0xac..=0xb1 => (1, Kind::Plain),
            0xbe | 0xbf | 0xc2 | 0xc3 => (1, Kind::Plain),
            0x10 | 0x12 | 0x15..=0x19 | 0x36..=0x3a | 0xa9 | 0xbc => (2, Kind::Plain),
            0x11 | 0x13 | 0x14 | 0x84 | 0xb2..=0xb8 | 0xbb | 0xbd | 0xc0 | 0xc1 => (3, Kind::Plain),
            0xb9 | 0xba => (5, Kind::Plain),
            0xc5 => (4, Kind::Plain),
            0xc4 => match code.get(pc + 1) {
                Some(0x84) => (6, Kind::Plain),
                Some(_) => (4, Kind::Plain),
                None => bail!("truncated wide instruction at offset {pc}"),
            },
            0x99..=0xa6 | 0xc6 | 0xc7 => (3, Kind::Cond(target(off, b16(pc + 1)?, n)?)),
            0xa7 | 0xa8 => (3, Kind::Jump16(target(off, b16(pc + 1)?, n)?)),
            0xc8 | 0xc9 => (
                5,
                Kind::Jump32(target(off, be_i32(code, pc + 1)? as i64, n)?),
            ),
            0xaa => {
                let base = pc + 1 + (3 - pc % 4);
                let default = target(off, be_i32(code, base)? as i64, n)?;
                let low = be_i32(code, base + 4)?;
                let high = be_i32(code, base + 8)?;
                if high < low {
                    bail!("tableswitch at offset {pc} has high {high} < low {low}");
                }
                let count = (high as i64 - low as i64 + 1) as usize;
                if count > n {
                    bail!("tableswitch at offset {pc} has {count} entries, more than the code");
                }
                let mut targets = Vec::with_capacity(count);
                for k in 0..count {
                    targets.push(target(off, be_i32(code, base + 12 + 4 * k)? as i64, n)?);
                }
                (
                    (base + 12 + 4 * count - pc) as u32,
                    Kind::Table {
                        default,
                        low,
                        high,
                        targets,
                    },
                )
            }
            0xab => {
                let base = pc + 1 + (3 - pc % 4);
                let default = target(off, be_i32(code, base)? as i64, n)?;
                let np = be_i32(code, base + 4)?;
                if np < 0 || np as usize > n {
                    bail!("lookupswitch at offset {pc} has a bad pair count {np}");
                }
                let mut pairs = Vec::with_capacity(np as usize);
                for k in 0..np as usize {
                    let key = be_i32(code, base + 8 + 8 * k)?;
                    let t = target(off, be_i32(code, base + 12 + 8 * k)? as i64, n)?;
                    pairs.push((key, t));
                }
                (
                    (base + 8 + 8 * np as usize - pc) as u32,
                    Kind::Lookup { default, pairs },
                )
            }
            _ => bail!("unknown opcode {op:#04x} at offset {pc}"),
        };
        if pc + len as usize > n {
            bail!("instruction at offset {pc} runs past the end of the code");
        }
        out.push(Insn { off, len, op, kind });
        pc += len as usize;
    }
    Ok(out)
}

/// (opcode, constant-pool index) of every field access and call (`getstatic` ..
/// `invokeinterface`) and every `checkcast`/`instanceof` in a `Code` attribute body: the raw
/// material of read and write sets and of the types an `Object` parameter is used as.
pub(crate) fn member_refs(code_attribute: &[u8]) -> Result<Vec<(u8, u16)>> {
    let code = CodeAttribute::parse(code_attribute)?;
    Ok(decode(code.code)?
        .iter()
        .filter(|i| (0xb2..=0xb9).contains(&i.op) || i.op == 0xc0 || i.op == 0xc1)
        .map(|i| {
            let at = i.off as usize + 1;
            (i.op, u16::from_be_bytes([code.code[at], code.code[at + 1]]))
        })
        .collect())
}

/// The code bytes of a Code attribute body and the (offset, opcode) of each instruction.
pub(crate) type Opcodes<'a> = (&'a [u8], Vec<(u32, u8)>);

/// The code bytes of a Code attribute body and the (offset, opcode) of each instruction.
pub(crate) fn opcodes(code_attribute: &[u8]) -> Result<Opcodes<'_>> {
    let code = CodeAttribute::parse(code_attribute)?;
    let ops = decode(code.code)?.iter().map(|i| (i.off, i.op)).collect();
    Ok((code.code, ops))
}

/// True when control never continues to the next instruction.
fn never_falls_through(op: u8) -> bool {
    matches!(op, 0xa7 | 0xc8 | 0xa9 | 0xaa | 0xab | 0xac..=0xb1 | 0xbf)
}

struct Tramp {
    probe: u32,
    target: usize, // instruction index
    island: usize, // instruction index (n = end of code)
    wide: bool,
    moves: u32,
}

/// Rewrites, in a Code attribute body, every `invokevirtual #from` or `invokestatic #from`
/// into `invokestatic #to` (same length, so no offset moves) for the pairs of `map`, and each
/// `new Date; dup; invokespecial Date.<init>()V` into `invokestatic JClock.newDate` and four
/// `nop`s when `new_date` says so and nothing jumps into the pattern. Used for comparison
/// logging (`String.equals(Object)` becomes `Cov.strEq(String, Object)`, same stack effect)
/// and for the clock (see `clock.rs`). Returns `None` when nothing matched.
pub(crate) fn retarget_calls(
    body: &[u8],
    map: &HashMap<u16, u16>,
    new_date: Option<&NewDate>,
) -> Result<Option<Vec<u8>>> {
    if body.len() < 8 {
        bail!("truncated Code attribute");
    }
    let code_len = u32::from_be_bytes([body[4], body[5], body[6], body[7]]) as usize;
    let code = body
        .get(8..8 + code_len)
        .context("truncated Code attribute")?;
    let insns = decode(code)?;
    let mut out: Option<Vec<u8>> = None;
    for ins in &insns {
        if ins.op != 0xb6 && ins.op != 0xb8 {
            continue;
        }
        let at = 8 + ins.off as usize;
        let idx = u16::from_be_bytes([body[at + 1], body[at + 2]]);
        if let Some(&to) = map.get(&idx) {
            let o = out.get_or_insert_with(|| body.to_vec());
            o[at] = 0xb8;
            o[at + 1..at + 3].copy_from_slice(&to.to_be_bytes());
        }
    }
    if let Some(nd) = new_date {
        let targets = jump_targets(&insns, body, code_len)?;
        for w in insns.windows(3) {
            let at = 8 + w[0].off as usize;
            let u2 = |k: usize| u16::from_be_bytes([body[k + 1], body[k + 2]]);
            let is_new_date = w[0].op == 0xbb
                && nd.classes.contains(&u2(at))
                && w[1].op == 0x59
                && w[2].op == 0xb7
                && u2(8 + w[2].off as usize) == nd.init
                && !targets.contains(&w[1].off)
                && !targets.contains(&w[2].off);
            if is_new_date {
                let o = out.get_or_insert_with(|| body.to_vec());
                o[at] = 0xb8;
                o[at + 1..at + 3].copy_from_slice(&nd.to.to_be_bytes());
                o[at + 3..at + 7].fill(0x00);
            }
        }
    }
    Ok(out)
}

/// Every offset something may jump to: jump and switch targets, and the offsets of the
/// exception table (range bounds and handlers).
fn jump_targets(insns: &[Insn], body: &[u8], code_len: usize) -> Result<HashSet<u32>> {
    let mut t = HashSet::new();
    for ins in insns {
        match &ins.kind {
            Kind::Plain => {}
            Kind::Jump16(x) | Kind::Cond(x) | Kind::Jump32(x) => {
                t.insert(*x);
            }
            Kind::Table {
                default, targets, ..
            } => {
                t.insert(*default);
                t.extend(targets.iter().copied());
            }
            Kind::Lookup { default, pairs } => {
                t.insert(*default);
                t.extend(pairs.iter().map(|p| p.1));
            }
        }
    }
    let at = 8 + code_len;
    let n = body
        .get(at..at + 2)
        .map(|b| u16::from_be_bytes([b[0], b[1]]) as usize)
        .context("truncated Code attribute (exception table)")?;
    for k in 0..n {
        let e = body
            .get(at + 2 + 8 * k..at + 2 + 8 * k + 6)
            .context("truncated exception table")?;
        for j in 0..3 {
            t.insert(u16::from_be_bytes([e[2 * j], e[2 * j + 1]]) as u32);
        }
    }
    Ok(t)
}

/// Everything the rewriter needs to know about the method and class.
pub(crate) struct MethodCtx<'a> {
    pub(crate) major: u16,
    pub(crate) initial_frame: &'a dyn Fn() -> Result<Frame>,
    pub(crate) cov_ref: u16,
    /// Log the operands of `if_icmp*` and `lcmp` (comparison logging).
    pub(crate) log_compares: bool,
    /// Trace mode (`super::trace`): the method's name, descriptor and whether it is static.
    pub(crate) trace: Option<(&'a str, &'a str, bool)>,
}

/// Pushes an int constant: `sipush v`, or `ldc_w` of a pool Integer beyond 32767. 3 bytes.
fn push_int(out: &mut Vec<u8>, cp: &mut ConstPool, v: u32) -> Result<()> {
    if v <= i16::MAX as u32 {
        out.push(0x11);
        put_u2(out, v as u16);
    } else {
        out.push(0x13);
        put_u2(out, cp.integer(v as i32)?);
    }
    Ok(())
}

/// `if_icmpeq` .. `if_icmple`.
fn is_if_icmp(op: u8) -> bool {
    (0x9f..=0xa4).contains(&op)
}
const LCMP: u8 = 0x94;
/// Bytes of the log before an `if_icmp*`: dup2, push site, invokestatic.
const CMP_LOG_LEN: u32 = 7;
/// Bytes that replace an `lcmp`: push site, invokestatic.
const LCMP_LEN: u32 = 6;

pub(crate) struct Rewritten {
    pub(crate) body: Vec<u8>,
    pub(crate) probes: Vec<DraftProbe>,
}

const PROBE_LEN: u32 = 6;

fn fits16(d: i64) -> bool {
    (i16::MIN as i64..=i16::MAX as i64).contains(&d)
}

/// Rewrites one Code attribute body. `first_id` is the global id of the first probe.
/// Returns `Ok(Err(reason))` when the method cannot be instrumented because the result would
/// be too large; the caller then keeps the method unchanged.
pub(crate) fn rewrite(
    body: &[u8],
    cp: &mut ConstPool,
    ctx: &MethodCtx,
    first_id: u32,
) -> Result<std::result::Result<Rewritten, String>> {
    let attr = CodeAttribute::parse(body)?;
    let code = Instructions::decode(attr.code)?;
    let subs = SubAttributes::read(&attr.attrs, cp)?;
    let entered = jump_targets(&code.insns, body, attr.code.len())?;
    let mut plan = plan_probes(&code, &subs.lines, &entered, first_id)?;
    let mut log = CompareLog::plan(&code, &plan, ctx.log_compares, cp)?;
    if let Some((name, desc, is_static)) = ctx.trace {
        log.trace = Some(plan_trace(
            &code,
            &plan,
            &attr,
            (name, desc),
            is_static,
            cp,
        )?);
    }
    let layout = match lay_out(&code, &mut plan, &log) {
        Ok(layout) => layout,
        Err(reason) => return Ok(Err(reason)),
    };
    let rw = Rewrite {
        code: &code,
        plan: &plan,
        log: &log,
        layout: &layout,
    };
    let new_code = rw.emit_code(cp, ctx.cov_ref)?;
    let exceptions = rw.remap_exceptions(&attr.exceptions)?;
    let sub = rw.remap_sub_attributes(&subs, ctx, cp)?;
    let body = rw.write_code_attribute(&attr, &new_code, exceptions, sub)?;
    Ok(Ok(Rewritten {
        body,
        probes: plan.probes,
    }))
}

/// Trace mode: the `Sym` hooks of every instruction (see `super::trace`).
fn plan_trace(
    code: &Instructions,
    plan: &ProbePlan,
    attr: &CodeAttribute,
    name_desc: (&str, &str),
    is_static: bool,
    cp: &mut ConstPool,
) -> Result<super::trace::TraceHooks> {
    let views: Vec<super::trace::InsnView> = code
        .insns
        .iter()
        .enumerate()
        .map(|(i, ins)| super::trace::InsnView {
            op: ins.op,
            bytes: &code.code[ins.off as usize..(ins.off + ins.len) as usize],
            off: ins.off,
            site: plan.insn_tramps[i].first().map(|&t| plan.tramps[t].probe),
        })
        .collect();
    let handlers: HashSet<usize> = attr
        .exceptions
        .iter()
        .filter_map(|&(_, _, h, _)| code.index(h as u32))
        .collect();
    super::trace::plan(&views, &handlers, name_desc, is_static, plan.entry_id, cp)
}

/// The fields of a Code attribute body, borrowed from it.
struct CodeAttribute<'a> {
    max_stack: u16,
    max_locals: u16,
    code: &'a [u8],
    /// Exception table entries: start, end, handler, catch type.
    exceptions: Vec<(u16, u16, u16, u16)>,
    attrs: Vec<RawAttr<'a>>,
}

impl<'a> CodeAttribute<'a> {
    /// Splits a Code attribute body into its fields; errors on a bad code length or trailing bytes.
    fn parse(body: &'a [u8]) -> Result<Self> {
        let mut r = Reader::new(body);
        let max_stack = r.u2()?;
        let max_locals = r.u2()?;
        let code_len = r.u4()? as usize;
        if code_len == 0 || code_len > 65535 {
            bail!("invalid code length {code_len}");
        }
        let code = r.bytes(code_len)?;
        let n_exc = r.u2()?;
        let mut exceptions = Vec::with_capacity(n_exc as usize);
        for _ in 0..n_exc {
            exceptions.push((r.u2()?, r.u2()?, r.u2()?, r.u2()?));
        }
        let attrs = super::classfile::read_attrs(&mut r)?;
        if r.remaining() != 0 {
            bail!("{} trailing bytes in the Code attribute", r.remaining());
        }
        Ok(CodeAttribute {
            max_stack,
            max_locals,
            code,
            exceptions,
            attrs,
        })
    }
}

/// The decoded original code and the instruction index of each original offset.
struct Instructions<'a> {
    code: &'a [u8],
    insns: Vec<Insn>,
    /// Original offset -> instruction index (`insns.len()` for the code length, `u32::MAX`
    /// inside an instruction).
    index_of: Vec<u32>,
}

impl<'a> Instructions<'a> {
    /// Decodes `code` (not empty) and checks that control cannot fall off its end.
    fn decode(code: &'a [u8]) -> Result<Self> {
        let insns = decode(code)?;
        let n = insns.len();
        let mut index_of = vec![u32::MAX; code.len() + 1];
        for (i, ins) in insns.iter().enumerate() {
            index_of[ins.off as usize] = i as u32;
        }
        index_of[code.len()] = n as u32;
        if !never_falls_through(insns[n - 1].op) {
            bail!(
                "code falls off its end (last instruction {:#04x})",
                insns[n - 1].op
            );
        }
        Ok(Instructions {
            code,
            insns,
            index_of,
        })
    }

    /// Number of instructions.
    fn count(&self) -> usize {
        self.insns.len()
    }

    /// The index of the instruction at original offset `off` (the count at the code's end).
    fn index(&self, off: u32) -> Option<usize> {
        self.index_of
            .get(off as usize)
            .copied()
            .filter(|&v| v != u32::MAX)
            .map(|v| v as usize)
    }

    /// [`Self::index`], or an error naming `what` points between instructions.
    fn must_index(&self, off: u32, what: &str) -> Result<usize> {
        self.index(off)
            .with_context(|| format!("{what} offset {off} is not an instruction boundary"))
    }
}

/// The sub-attributes of the Code attribute that are remapped; the others (type annotations)
/// are dropped, because they carry stale offsets.
struct SubAttributes<'a> {
    /// LineNumberTable name index, when there is one.
    line_table_name: Option<u16>,
    /// LineNumberTable entries (start offset, line), sorted by offset.
    lines: Vec<(u32, u32)>,
    /// LocalVariableTable and LocalVariableTypeTable: name index and entries.
    local_tables: Vec<(u16, Vec<[u16; 5]>)>,
    /// StackMapTable name index and body (the last one, when there are several).
    stack_map: Option<(u16, &'a [u8])>,
}

impl<'a> SubAttributes<'a> {
    /// Reads the line, local-variable and stack-map tables among `attrs`.
    fn read(attrs: &[RawAttr<'a>], cp: &ConstPool) -> Result<Self> {
        let mut subs = SubAttributes {
            line_table_name: None,
            lines: Vec::new(),
            local_tables: Vec::new(),
            stack_map: None,
        };
        for a in attrs {
            let name = cp.utf8_at(a.name).unwrap_or("");
            match name {
                "LineNumberTable" => {
                    subs.line_table_name = Some(a.name);
                    let mut ar = Reader::new(a.body);
                    let k = ar.u2()?;
                    for _ in 0..k {
                        subs.lines.push((ar.u2()? as u32, ar.u2()? as u32));
                    }
                }
                "LocalVariableTable" | "LocalVariableTypeTable" => {
                    let mut ar = Reader::new(a.body);
                    let k = ar.u2()?;
                    let mut v = Vec::with_capacity(k as usize);
                    for _ in 0..k {
                        v.push([ar.u2()?, ar.u2()?, ar.u2()?, ar.u2()?, ar.u2()?]);
                    }
                    subs.local_tables.push((a.name, v));
                }
                "StackMapTable" => subs.stack_map = Some((a.name, a.body)),
                _ => {} // dropped: other code attributes (type annotations) carry stale offsets
            }
        }
        subs.lines.sort_by_key(|&(pc, _)| pc);
        Ok(subs)
    }
}

/// The source line of original offset `off`: that of the last line entry at or before it.
fn line_at(lines: &[(u32, u32)], off: u32) -> Option<u32> {
    lines
        .iter()
        .rev()
        .find(|&&(pc, _)| pc <= off)
        .map(|&(_, l)| l)
}

/// Which probes go where, in original-instruction terms (before layout).
struct ProbePlan {
    probes: Vec<DraftProbe>,
    /// Global id of the next probe.
    next: u32,
    /// The method-entry probe.
    entry_id: u32,
    /// Per instruction: the line probes at its label.
    line_probes: Vec<Vec<u32>>,
    /// Per instruction (and the end): the fall-through probes of the conditional before it.
    fall_through: Vec<Vec<u32>>,
    tramps: Vec<Tramp>,
    /// Per instruction, its trampolines. Conditional: [taken]; switch: cases.., default.
    insn_tramps: Vec<Vec<usize>>,
}

/// Assigns the probes in id order: method entry, then per instruction its lines not seen
/// before and the edges of its branch. A line is covered when any of its code ran (as JaCoCo
/// counts), so an instruction that control enters in the middle of a line (`entered`: the
/// `instanceof` of `} else if (x instanceof B) {`, reached by the jump of the `if` while the
/// line's entry is the `goto` that ends the branch before it) carries that line's probe too;
/// `entered` holds every offset a jump, switch or exception-table entry names.
fn plan_probes(
    code: &Instructions,
    lines: &[(u32, u32)],
    entered: &HashSet<u32>,
    first_id: u32,
) -> Result<ProbePlan> {
    let n = code.count();
    let mut plan = ProbePlan {
        probes: Vec::new(),
        next: first_id,
        entry_id: 0,
        line_probes: vec![Vec::new(); n],
        fall_through: vec![Vec::new(); n + 1],
        tramps: Vec::new(),
        insn_tramps: vec![Vec::new(); n],
    };
    plan.entry_id = plan.new_probe(ProbeKind::MethodEntry, 0, line_at(lines, 0))?;
    let mut cursor = LineCursor {
        lines,
        next_entry: 0,
        ids: HashMap::new(),
    };
    for (i, ins) in code.insns.iter().enumerate() {
        plan.add_line_probes(&mut cursor, i, ins.off)?;
        if plan.line_probes[i].is_empty() && entered.contains(&ins.off) {
            plan.add_mid_line_probe(&mut cursor, i, ins.off)?;
        }
        plan.add_branch_probes(code, i, line_at(lines, ins.off))?;
    }
    Ok(plan)
}

/// Walks the sorted line table alongside the instructions.
struct LineCursor<'a> {
    lines: &'a [(u32, u32)],
    /// The first entry not yet consumed.
    next_entry: usize,
    /// Line -> its probe id (one probe per distinct line).
    ids: HashMap<u32, u32>,
}

impl ProbePlan {
    /// Adds a probe and returns its global id.
    fn new_probe(&mut self, kind: ProbeKind, offset: u32, line: Option<u32>) -> Result<u32> {
        let id = self.next;
        if id > i32::MAX as u32 {
            bail!("probe id {id} exceeds the int range");
        }
        self.next += 1;
        self.probes.push(DraftProbe { kind, offset, line });
        Ok(id)
    }

    /// Puts the line probes of the line entries at instruction `i` (offset `off`) at its
    /// label, adding a probe for each line seen for the first time.
    fn add_line_probes(&mut self, cursor: &mut LineCursor, i: usize, off: u32) -> Result<()> {
        let lines = cursor.lines;
        while cursor.next_entry < lines.len() && lines[cursor.next_entry].0 < off {
            cursor.next_entry += 1; // entry not at an instruction boundary: ignored
        }
        while cursor.next_entry < lines.len() && lines[cursor.next_entry].0 == off {
            let line = lines[cursor.next_entry].1;
            let id = match cursor.ids.get(&line) {
                Some(&id) => id,
                None => {
                    let id = self.new_probe(ProbeKind::Line, off, Some(line))?;
                    cursor.ids.insert(line, id);
                    id
                }
            };
            if !self.line_probes[i].contains(&id) {
                self.line_probes[i].push(id);
            }
            cursor.next_entry += 1;
        }
        Ok(())
    }

    /// Puts the probe of the line that instruction `i` (offset `off`, with no line entry of
    /// its own) lies in at its label.
    fn add_mid_line_probe(&mut self, cursor: &mut LineCursor, i: usize, off: u32) -> Result<()> {
        let Some(line) = line_at(cursor.lines, off) else {
            return Ok(()); // before the first line entry: no line to cover
        };
        let id = match cursor.ids.get(&line) {
            Some(&id) => id,
            None => {
                let id = self.new_probe(ProbeKind::Line, off, Some(line))?;
                cursor.ids.insert(line, id);
                id
            }
        };
        self.line_probes[i].push(id);
        Ok(())
    }

    /// Adds the branch probes of instruction `i`: a trampoline for the taken edge of a
    /// conditional or for each switch entry, and the fall-through probe of a conditional.
    /// Checks that the targets of other jumps are instruction boundaries.
    fn add_branch_probes(
        &mut self,
        code: &Instructions,
        i: usize,
        line: Option<u32>,
    ) -> Result<()> {
        let ins = &code.insns[i];
        let off = ins.off;
        match &ins.kind {
            Kind::Cond(t) => {
                let tr = self.add_trampoline(code, ProbeKind::BranchTaken, off, line, *t)?;
                self.insn_tramps[i].push(tr);
                let id = self.new_probe(ProbeKind::BranchNotTaken, off, line)?;
                if i + 1 >= code.count() {
                    bail!("conditional jump at the end of the code");
                }
                self.fall_through[i + 1].push(id);
            }
            Kind::Table {
                default,
                low,
                targets,
                ..
            } => {
                let cases = targets
                    .iter()
                    .enumerate()
                    .map(|(k, t)| ((*low as i64 + k as i64) as i32, *t));
                self.add_switch_probes(code, i, line, cases, *default)?;
            }
            Kind::Lookup { default, pairs } => {
                self.add_switch_probes(code, i, line, pairs.iter().copied(), *default)?;
            }
            Kind::Jump16(t) | Kind::Jump32(t) => {
                code.must_index(*t, "jump target")?;
            }
            Kind::Plain => {}
        }
        Ok(())
    }

    /// The probes of switch `i`: one per distinct target, as JaCoCo counts a switch's
    /// branches, so that jforge's branch figures are the user's. Entries (cases, then the
    /// default) that jump to the same place share its trampoline: `case 1: case 2:` is one
    /// branch, and so are a tableswitch's gap keys and any case whose target is the
    /// default's (they are the default path: its probe is `SwitchDefault`). A probe takes
    /// the key of the first case that reaches it. Before, every entry had its own probe:
    /// Commons CLI's `PatternOptionBuilder` had 65 branches to JaCoCo's 44.
    fn add_switch_probes(
        &mut self,
        code: &Instructions,
        i: usize,
        line: Option<u32>,
        cases: impl Iterator<Item = (i32, u32)>,
        default: u32,
    ) -> Result<()> {
        let off = code.insns[i].off;
        let mut by_target: HashMap<u32, usize> = HashMap::new();
        for (key, t) in cases {
            let tr = match by_target.get(&t) {
                Some(&tr) => tr,
                None => {
                    let kind = if t == default {
                        ProbeKind::SwitchDefault
                    } else {
                        ProbeKind::SwitchCase { key }
                    };
                    let tr = self.add_trampoline(code, kind, off, line, t)?;
                    by_target.insert(t, tr);
                    tr
                }
            };
            self.insn_tramps[i].push(tr);
        }
        let tr = match by_target.get(&default) {
            Some(&tr) => tr,
            None => self.add_trampoline(code, ProbeKind::SwitchDefault, off, line, default)?,
        };
        self.insn_tramps[i].push(tr);
        Ok(())
    }

    /// Adds a probe of `kind` for the jump at `off` and the trampoline that records it on the
    /// way to original offset `target`; the trampoline starts in the island at the end.
    fn add_trampoline(
        &mut self,
        code: &Instructions,
        kind: ProbeKind,
        off: u32,
        line: Option<u32>,
        target: u32,
    ) -> Result<usize> {
        let id = self.new_probe(kind, off, line)?;
        self.tramps.push(Tramp {
            probe: id,
            target: code.must_index(target, "jump target")?,
            island: code.count(),
            wide: false,
            moves: 0,
        });
        Ok(self.tramps.len() - 1)
    }
}

/// Comparison logging: which `if_icmp*` and `lcmp` log their operands, under which site id.
struct CompareLog {
    /// Per instruction: the site id (probe id of the taken edge of the jump) when logged.
    site: Vec<Option<u32>>,
    /// Methodref of `Cov.cmpI` (0 when no `if_icmp*` is logged).
    cmp_int_ref: u16,
    /// Methodref of `Cov.lcmp` (0 when no `lcmp` is logged).
    lcmp_ref: u16,
    /// Trace mode: the hooks laid out with the log (see `super::trace`).
    trace: Option<super::trace::TraceHooks>,
}

impl CompareLog {
    /// Gives every comparison a site id when `enabled`, and adds the runtime methods that
    /// the logged comparisons call to the constant pool.
    fn plan(
        code: &Instructions,
        plan: &ProbePlan,
        enabled: bool,
        cp: &mut ConstPool,
    ) -> Result<Self> {
        let insns = &code.insns;
        let taken = |i: usize| -> Option<u32> {
            match insns.get(i).map(|x| &x.kind) {
                Some(Kind::Cond(_)) => plan.insn_tramps[i].first().map(|&t| plan.tramps[t].probe),
                _ => None,
            }
        };
        let mut log = CompareLog {
            site: vec![None; insns.len()],
            cmp_int_ref: 0,
            lcmp_ref: 0,
            trace: None,
        };
        if enabled {
            for (i, ins) in insns.iter().enumerate() {
                if is_if_icmp(ins.op) {
                    log.site[i] = taken(i);
                } else if ins.op == LCMP {
                    log.site[i] = Some(taken(i + 1).unwrap_or(plan.entry_id));
                }
            }
            let has = |f: &dyn Fn(u8) -> bool| {
                insns
                    .iter()
                    .zip(&log.site)
                    .any(|(x, s)| s.is_some() && f(x.op))
            };
            if has(&is_if_icmp) {
                log.cmp_int_ref = cp.methodref(super::RUNTIME_CLASS, "cmpI", "(III)V")?;
            }
            if has(&|op| op == LCMP) {
                log.lcmp_ref = cp.methodref(super::RUNTIME_CLASS, "lcmp", "(JJI)I")?;
            }
        }
        Ok(log)
    }

    /// Bytes of the comparison log inserted before instruction `i`.
    fn log_len(&self, insns: &[Insn], i: usize) -> u32 {
        let hook = self.trace.as_ref().map_or(0, |t| t.pre[i].len() as u32);
        hook + if self.site[i].is_some() && is_if_icmp(insns[i].op) {
            CMP_LOG_LEN
        } else {
            0
        }
    }

    /// Trace mode: the bytes that replace instruction `i`.
    fn replacement(&self, i: usize) -> Option<&[u8]> {
        self.trace.as_ref().and_then(|t| t.replace[i].as_deref())
    }

    /// Trace mode: the bytes after the entry probe.
    fn entry_len(&self) -> u64 {
        self.trace.as_ref().map_or(0, |t| t.entry.len() as u64)
    }

    /// True when instruction `i` is an `lcmp` replaced by a call to `Cov.lcmp`.
    fn replaces_lcmp(&self, ins: &Insn, i: usize) -> bool {
        ins.op == LCMP && self.site[i].is_some()
    }
}

/// Offsets in the new code, named as in the module documentation.
struct Layout {
    /// Per instruction (and the end): start of `pre[i]`.
    pre: Vec<u32>,
    /// Per instruction (and the end): `lbl[i]`, where jumps, handlers and frames land.
    lbl: Vec<u32>,
    /// Per instruction: `ins[i]`, the instruction itself.
    at: Vec<u32>,
    /// Per trampoline: its start.
    tramp_at: Vec<u32>,
    /// Per instruction (and the end): the trampolines of the island in `pre[i]`.
    islands: Vec<Vec<usize>>,
    /// Per instruction: a `goto` / `jsr` grown to `goto_w` / `jsr_w`.
    goto_wide: Vec<bool>,
    /// Length of the new code.
    total: u32,
}

/// Padding after a switch opcode at `pos`, so that its operands are 4-byte aligned.
fn switch_padding(pos: u32) -> u32 {
    (3 - pos % 4) % 4
}

/// Lays the new code out: places everything, then grows jumps to their wide forms and moves
/// trampolines to nearer islands until every offset fits, in at most 64 rounds. `Err(reason)`
/// when the method cannot be instrumented.
fn lay_out(
    code: &Instructions,
    plan: &mut ProbePlan,
    log: &CompareLog,
) -> std::result::Result<Layout, String> {
    let n = code.count();
    // Islands: after an instruction that never falls through, or at the end.
    let eligible: Vec<usize> = (1..=n)
        .filter(|&j| never_falls_through(code.insns[j - 1].op))
        .collect();
    let mut layout = Layout {
        pre: vec![0u32; n + 1],
        lbl: vec![0u32; n + 1],
        at: vec![0u32; n],
        tramp_at: vec![0u32; plan.tramps.len()],
        islands: vec![Vec::new(); n + 1],
        goto_wide: vec![false; n],
        total: 0,
    };
    for _round in 0..64 {
        layout.fill_islands(&plan.tramps);
        layout.place(code, plan, log)?;
        let jumps_changed = layout.fix_jumps(code, plan, &eligible)?;
        let trampolines_changed = layout.widen_trampolines(&mut plan.tramps);
        if !jumps_changed && !trampolines_changed {
            return Ok(layout);
        }
    }
    Err("jump layout did not settle".into())
}

impl Layout {
    /// Puts each trampoline into the island it is assigned to.
    fn fill_islands(&mut self, tramps: &[Tramp]) {
        for v in self.islands.iter_mut() {
            v.clear();
        }
        for (t, tr) in tramps.iter().enumerate() {
            self.islands[tr.island].push(t);
        }
    }

    /// Computes every offset for the current jump forms and islands. `Err(reason)` when the
    /// code would exceed the 65535-byte method limit.
    fn place(
        &mut self,
        code: &Instructions,
        plan: &ProbePlan,
        log: &CompareLog,
    ) -> std::result::Result<(), String> {
        let n = code.count();
        let mut pos: u64 = 0;
        for i in 0..=n {
            self.pre[i] = pos as u32;
            if i == 0 {
                pos += PROBE_LEN as u64 + log.entry_len();
            }
            pos += PROBE_LEN as u64 * plan.fall_through[i].len() as u64;
            for &t in &self.islands[i] {
                self.tramp_at[t] = pos as u32;
                pos += PROBE_LEN as u64 + if plan.tramps[t].wide { 5 } else { 3 };
            }
            self.lbl[i] = pos as u32;
            if i == n {
                // The trampolines and probes after the last instruction count too.
                check_code_size(pos, code)?;
                break;
            }
            pos += PROBE_LEN as u64 * plan.line_probes[i].len() as u64;
            pos += log.log_len(&code.insns, i) as u64;
            self.at[i] = pos as u32;
            pos += self.instruction_len(&code.insns[i], i, log, pos);
            check_code_size(pos, code)?;
        }
        self.total = pos as u32;
        Ok(())
    }

    /// Length of instruction `i` in the new code when it starts at `pos`.
    fn instruction_len(&self, ins: &Insn, i: usize, log: &CompareLog, pos: u64) -> u64 {
        if let Some(r) = log.replacement(i) {
            return r.len() as u64;
        }
        match &ins.kind {
            Kind::Plain if log.replaces_lcmp(ins, i) => LCMP_LEN as u64,
            Kind::Plain | Kind::Cond(_) | Kind::Jump32(_) => ins.len as u64,
            Kind::Jump16(_) => {
                if self.goto_wide[i] {
                    5
                } else {
                    3
                }
            }
            Kind::Table { targets, .. } => {
                1 + switch_padding(pos as u32) as u64 + 12 + 4 * targets.len() as u64
            }
            Kind::Lookup { pairs, .. } => {
                1 + switch_padding(pos as u32) as u64 + 8 + 8 * pairs.len() as u64
            }
        }
    }

    /// Grows each `goto` / `jsr` whose target is out of 16-bit reach, and moves each
    /// conditional's trampoline that is out of reach. True when something changed.
    fn fix_jumps(
        &mut self,
        code: &Instructions,
        plan: &mut ProbePlan,
        eligible: &[usize],
    ) -> std::result::Result<bool, String> {
        let mut changed = false;
        for (i, ins) in code.insns.iter().enumerate() {
            match &ins.kind {
                Kind::Jump16(t) if !self.goto_wide[i] => {
                    let ti = code.index(*t).unwrap_or(0);
                    if !fits16(self.lbl[ti] as i64 - self.at[i] as i64) {
                        self.goto_wide[i] = true;
                        changed = true;
                    }
                }
                Kind::Cond(_) => {
                    let t = plan.insn_tramps[i][0];
                    if !fits16(self.tramp_at[t] as i64 - self.at[i] as i64) {
                        self.move_trampoline(&mut plan.tramps[t], i, ins.off, eligible)?;
                        changed = true;
                    }
                }
                _ => {}
            }
        }
        Ok(changed)
    }

    /// Moves the trampoline of the conditional jump `i` (original offset `off`) to the island
    /// nearest to the jump; `Err(reason)` when that is not within reach or the trampoline has
    /// already moved 4 times.
    fn move_trampoline(
        &self,
        tramp: &mut Tramp,
        i: usize,
        off: u32,
        eligible: &[usize],
    ) -> std::result::Result<(), String> {
        let best = eligible
            .iter()
            .copied()
            .filter(|&j| j != tramp.island)
            .min_by_key(|&j| (self.pre[j] as i64 - self.at[i] as i64).abs());
        match best {
            Some(j)
                if tramp.moves < 4 && (self.pre[j] as i64 - self.at[i] as i64).abs() < 30000 =>
            {
                tramp.island = j;
                tramp.moves += 1;
                Ok(())
            }
            _ => Err(format!(
                "no place for a trampoline within 32 KiB of the jump at offset {off}"
            )),
        }
    }

    /// Grows each trampoline whose `goto` no longer reaches its target to `goto_w`. True when
    /// something changed.
    fn widen_trampolines(&self, tramps: &mut [Tramp]) -> bool {
        let mut changed = false;
        for (t, tr) in tramps.iter_mut().enumerate() {
            if !tr.wide
                && !fits16(self.lbl[tr.target] as i64 - (self.tramp_at[t] + PROBE_LEN) as i64)
            {
                tr.wide = true;
                changed = true;
            }
        }
        changed
    }
}

/// The planned rewrite of one method, read by the steps that write the new Code attribute.
struct Rewrite<'a> {
    code: &'a Instructions<'a>,
    plan: &'a ProbePlan,
    log: &'a CompareLog,
    layout: &'a Layout,
}

impl Rewrite<'_> {
    /// Writes the new code, following the layout; `cov_ref` is the methodref of `Cov.hit`.
    fn emit_code(&self, cp: &mut ConstPool, cov_ref: u16) -> Result<Vec<u8>> {
        let n = self.code.count();
        let total = self.layout.total;
        let mut out: Vec<u8> = Vec::with_capacity(total as usize);
        for i in 0..=n {
            self.emit_pre(&mut out, cp, cov_ref, i)?;
            if i == n {
                break;
            }
            for &p in &self.plan.line_probes[i] {
                emit_probe(&mut out, cp, cov_ref, p)?;
            }
            self.emit_compare_log(&mut out, cp, i)?;
            self.emit_instruction(&mut out, cp, i)?;
        }
        if out.len() != total as usize {
            bail!(
                "internal layout error: emitted {} bytes, planned {total}",
                out.len()
            );
        }
        Ok(out)
    }

    /// Emits `pre[i]`: the entry probe (before the first instruction), the fall-through
    /// probes and the trampolines of the island.
    fn emit_pre(
        &self,
        out: &mut Vec<u8>,
        cp: &mut ConstPool,
        cov_ref: u16,
        i: usize,
    ) -> Result<()> {
        if i == 0 {
            emit_probe(out, cp, cov_ref, self.plan.entry_id)?;
            if let Some(t) = &self.log.trace {
                out.extend_from_slice(&t.entry);
            }
        }
        for &p in &self.plan.fall_through[i] {
            emit_probe(out, cp, cov_ref, p)?;
        }
        for &t in &self.layout.islands[i] {
            let tr = &self.plan.tramps[t];
            emit_probe(out, cp, cov_ref, tr.probe)?;
            let d = self.layout.lbl[tr.target] as i64 - out.len() as i64;
            if tr.wide {
                out.push(0xc8);
                put_u4(out, d as i32 as u32);
            } else {
                out.push(0xa7);
                put_u2(out, d as i16 as u16);
            }
        }
        Ok(())
    }

    /// Emits the comparison log before instruction `i` when it is a logged `if_icmp*`.
    fn emit_compare_log(&self, out: &mut Vec<u8>, cp: &mut ConstPool, i: usize) -> Result<()> {
        if let Some(site) = self.log.site[i]
            && is_if_icmp(self.code.insns[i].op)
        {
            out.push(0x5c); // dup2
            push_int(out, cp, site)?;
            out.push(0xb8);
            put_u2(out, self.log.cmp_int_ref);
        }
        if let Some(t) = &self.log.trace {
            out.extend_from_slice(&t.pre[i]);
        }
        Ok(())
    }

    /// Emits instruction `i` at its planned offset, with its jump offsets recomputed and its
    /// switch padding redone; a logged `lcmp` becomes a call to `Cov.lcmp`.
    fn emit_instruction(&self, out: &mut Vec<u8>, cp: &mut ConstPool, i: usize) -> Result<()> {
        let ins = &self.code.insns[i];
        let (lbl, tramp_at) = (&self.layout.lbl, &self.layout.tramp_at);
        let here = out.len() as i64;
        if here != self.layout.at[i] as i64 {
            bail!("internal layout error at offset {}", ins.off);
        }
        let rel_t = |t: usize| (tramp_at[t] as i64 - here) as i32 as u32;
        if let Some(r) = self.log.replacement(i) {
            out.extend_from_slice(r);
            return Ok(());
        }
        match &ins.kind {
            Kind::Plain if self.log.replaces_lcmp(ins, i) => {
                push_int(out, cp, self.log.site[i].unwrap_or(self.plan.entry_id))?;
                out.push(0xb8);
                put_u2(out, self.log.lcmp_ref);
            }
            Kind::Plain => out
                .extend_from_slice(&self.code.code[ins.off as usize..(ins.off + ins.len) as usize]),
            Kind::Jump16(t) => {
                let d = lbl[self.code.index(*t).unwrap_or(0)] as i64 - here;
                if self.layout.goto_wide[i] {
                    out.push(if ins.op == 0xa7 { 0xc8 } else { 0xc9 });
                    put_u4(out, d as i32 as u32);
                } else {
                    out.push(ins.op);
                    put_u2(out, d as i16 as u16);
                }
            }
            Kind::Cond(_) => {
                out.push(ins.op);
                put_u2(out, rel_t(self.plan.insn_tramps[i][0]) as u16);
            }
            Kind::Jump32(t) => {
                out.push(ins.op);
                put_u4(
                    out,
                    (lbl[self.code.index(*t).unwrap_or(0)] as i64 - here) as i32 as u32,
                );
            }
            Kind::Table { low, high, .. } => {
                out.push(ins.op);
                out.extend(std::iter::repeat_n(0, switch_padding(here as u32) as usize));
                let ts = &self.plan.insn_tramps[i];
                put_u4(out, rel_t(ts[ts.len() - 1]));
                put_u4(out, *low as u32);
                put_u4(out, *high as u32);
                for &t in &ts[..ts.len() - 1] {
                    put_u4(out, rel_t(t));
                }
            }
            Kind::Lookup { pairs, .. } => {
                out.push(ins.op);
                out.extend(std::iter::repeat_n(0, switch_padding(here as u32) as usize));
                let ts = &self.plan.insn_tramps[i];
                put_u4(out, rel_t(ts[ts.len() - 1]));
                put_u4(out, pairs.len() as u32);
                for (k, (key, _)) in pairs.iter().enumerate() {
                    put_u4(out, *key as u32);
                    put_u4(out, rel_t(ts[k]));
                }
            }
        }
        Ok(())
    }

    /// Remaps the exception table. A protected range is split around the islands inside it,
    /// so that the trampolines (and probes before them) are not protected.
    fn remap_exceptions(&self, exceptions: &[(u16, u16, u16, u16)]) -> Result<Vec<[u16; 4]>> {
        let (code, layout) = (self.code, self.layout);
        let mut new_excs: Vec<[u16; 4]> = Vec::new();
        for &(s, e, h, ty) in exceptions {
            let si = code.must_index(s as u32, "exception range start")?;
            let ei = code.must_index(e as u32, "exception range end")?;
            let hi = code.must_index(h as u32, "exception handler")?;
            if si >= ei {
                bail!("empty exception range {s}..{e}");
            }
            let mut cur = layout.lbl[si];
            for j in si + 1..ei {
                if !layout.islands[j].is_empty() {
                    if layout.pre[j] > cur {
                        new_excs.push([
                            cur as u16,
                            layout.pre[j] as u16,
                            layout.lbl[hi] as u16,
                            ty,
                        ]);
                    }
                    cur = layout.lbl[j];
                }
            }
            if layout.pre[ei] > cur {
                new_excs.push([cur as u16, layout.pre[ei] as u16, layout.lbl[hi] as u16, ty]);
            }
        }
        Ok(new_excs)
    }

    /// The remapped sub-attributes (name index, body), in this order: line numbers, local
    /// variable tables, stack-map table.
    fn remap_sub_attributes(
        &self,
        subs: &SubAttributes,
        ctx: &MethodCtx,
        cp: &mut ConstPool,
    ) -> Result<Vec<(u16, Vec<u8>)>> {
        let mut sub: Vec<(u16, Vec<u8>)> = Vec::new();
        if let Some(name) = subs.line_table_name {
            sub.push((name, self.line_number_table(&subs.lines)));
        }
        for (name, entries) in &subs.local_tables {
            sub.push((*name, self.local_variable_table(entries)));
        }
        match subs.stack_map {
            Some((name, body)) => sub.push((name, self.stack_map_table(body, ctx, cp)?)),
            None => {
                if ctx.major >= 51 && !self.plan.tramps.is_empty() {
                    bail!(
                        "method has branches but no StackMapTable (class version {})",
                        ctx.major
                    );
                }
            }
        }
        Ok(sub)
    }

    /// The LineNumberTable body: each entry at an instruction moves to the instruction's label.
    fn line_number_table(&self, lines: &[(u32, u32)]) -> Vec<u8> {
        let n = self.code.count();
        let mut b = Vec::new();
        let kept: Vec<(u32, u32)> = lines
            .iter()
            .filter_map(|&(pc, l)| {
                self.code
                    .index(pc)
                    .filter(|&k| k < n)
                    .map(|k| (self.layout.lbl[k], l))
            })
            .collect();
        put_u2(&mut b, kept.len() as u16);
        for (pc, l) in kept {
            put_u2(&mut b, pc as u16);
            put_u2(&mut b, l as u16);
        }
        b
    }

    /// A LocalVariable(Type)Table body: each range runs from its first instruction's label to
    /// the start of `pre` of the instruction after it; ranges not on instruction boundaries
    /// are dropped.
    fn local_variable_table(&self, entries: &[[u16; 5]]) -> Vec<u8> {
        let n = self.code.count();
        let mut kept = Vec::new();
        for e in entries {
            let end = e[0] as u32 + e[1] as u32;
            if let (Some(si), Some(ei)) = (self.code.index(e[0] as u32), self.code.index(end))
                && si < n
                && ei > si
            {
                let (ns, ne) = (self.layout.lbl[si], self.layout.pre[ei]);
                if ne >= ns {
                    kept.push([ns as u16, (ne - ns) as u16, e[2], e[3], e[4]]);
                }
            }
        }
        let mut b = Vec::new();
        put_u2(&mut b, kept.len() as u16);
        for e in kept {
            for v in e {
                put_u2(&mut b, v);
            }
        }
        b
    }

    /// The StackMapTable body, as full frames: every original frame at its instruction's
    /// label, plus for each trampoline a copy of the frame at its target.
    fn stack_map_table(&self, body: &[u8], ctx: &MethodCtx, cp: &mut ConstPool) -> Result<Vec<u8>> {
        let (code, layout) = (self.code, self.layout);
        let n = code.count();
        let init = (ctx.initial_frame)()?;
        let decoded = frames::decode(body, &init).context("decoding the StackMapTable")?;
        let mut by_off: HashMap<u32, &Frame> = HashMap::new();
        let mut all: Vec<(u32, &Frame)> = Vec::new();
        for (off, f) in &decoded {
            let k = code.must_index(*off, "stack-map frame")?;
            if k >= n {
                bail!("stack-map frame at the end of the code");
            }
            by_off.insert(*off, f);
            all.push((layout.lbl[k], f));
        }
        for (t, tr) in self.plan.tramps.iter().enumerate() {
            let off = code.insns[tr.target].off;
            let f = by_off.get(&off).with_context(|| {
                format!("no stack-map frame at branch target {off}; the class is not verifiable")
            })?;
            all.push((layout.tramp_at[t], f));
        }
        all.sort_by_key(|(p, _)| *p);
        let remap = |o: u32| -> Result<u32> {
            let k = code.must_index(o, "Uninitialized(new)")?;
            if k >= n || code.insns[k].op != 0xbb {
                bail!("Uninitialized({o}) does not point at a `new` instruction");
            }
            Ok(layout.at[k])
        };
        frames::encode(&all, cp, &remap)
    }

    /// Writes the new Code attribute body. The stack grows by one slot for a probe, or by
    /// three when a comparison log copies two operands and pushes a site id.
    fn write_code_attribute(
        &self,
        attr: &CodeAttribute,
        new_code: &[u8],
        exceptions: Vec<[u16; 4]>,
        sub: Vec<(u16, Vec<u8>)>,
    ) -> Result<Vec<u8>> {
        let n = self.code.count();
        let mut b = Vec::with_capacity(new_code.len() + 64);
        // A probe needs one slot; a comparison log two copies of the operands and a site id.
        let extra = if self.log.trace.is_some() {
            super::trace::TRACE_STACK
        } else if (0..n).any(|i| self.log.log_len(&self.code.insns, i) > 0) {
            3
        } else {
            1
        };
        let ms = attr
            .max_stack
            .checked_add(extra)
            .context("max_stack overflows after adding probe and comparison-log slots")?;
        put_u2(&mut b, ms);
        put_u2(&mut b, attr.max_locals);
        put_u4(&mut b, new_code.len() as u32);
        b.extend_from_slice(new_code);
        put_u2(
            &mut b,
            u16::try_from(exceptions.len()).context("too many exception-table entries")?,
        );
        for e in exceptions {
            for v in e {
                put_u2(&mut b, v);
            }
        }
        put_u2(&mut b, sub.len() as u16);
        for (name, body) in sub {
            write_attr(&mut b, name, &body)?;
        }
        Ok(b)
    }
}

/// Emits a probe: push its id, call `Cov.hit` (`cov_ref`).
fn emit_probe(out: &mut Vec<u8>, cp: &mut ConstPool, cov_ref: u16, id: u32) -> Result<()> {
    push_int(out, cp, id)?;
    out.push(0xb8);
    put_u2(out, cov_ref);
    Ok(())
}

/// JVMS 4.7.3: `code_length` must be below 65536; a method whose instrumented code would not
/// fit is left without probes (the caller reports it).
fn check_code_size(len: u64, code: &Instructions) -> std::result::Result<(), String> {
    if len > 65535 {
        return Err(format!(
            "instrumented code would exceed the 65535-byte method limit (original {} bytes)",
            code.code.len()
        ));
    }
    Ok(())
}
