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
use super::classfile::{ConstPool, Reader, put_u2, put_u4, write_attr};
use super::frames::{self, Frame};
use anyhow::{Context, Result, bail};
use std::collections::HashMap;

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

/// Everything the rewriter needs to know about the method and class.
/// Rewrites, in a Code attribute body, every `invokevirtual #from` into `invokestatic #to`
/// (same length, so no offset moves) for the pairs of `map`. Used for comparison logging:
/// `String.equals(Object)` becomes `Cov.strEq(String, Object)`, same stack effect. Returns
/// `None` when nothing matched.
pub(crate) fn retarget_calls(body: &[u8], map: &HashMap<u16, u16>) -> Result<Option<Vec<u8>>> {
    if body.len() < 8 {
        bail!("truncated Code attribute");
    }
    let code_len = u32::from_be_bytes([body[4], body[5], body[6], body[7]]) as usize;
    let code = body
        .get(8..8 + code_len)
        .context("truncated Code attribute")?;
    let mut out: Option<Vec<u8>> = None;
    for ins in decode(code)? {
        if ins.op != 0xb6 {
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
    Ok(out)
}

pub(crate) struct MethodCtx<'a> {
    pub(crate) major: u16,
    pub(crate) initial_frame: &'a dyn Fn() -> Result<Frame>,
    pub(crate) cov_ref: u16,
    /// Log the operands of `if_icmp*` and `lcmp` (comparison logging).
    pub(crate) log_compares: bool,
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
    let mut r = Reader::new(body);
    let max_stack = r.u2()?;
    let max_locals = r.u2()?;
    let code_len = r.u4()? as usize;
    if code_len == 0 || code_len > 65535 {
        bail!("invalid code length {code_len}");
    }
    let code = r.bytes(code_len)?;
    let n_exc = r.u2()?;
    let mut excs = Vec::with_capacity(n_exc as usize);
    for _ in 0..n_exc {
        excs.push((r.u2()?, r.u2()?, r.u2()?, r.u2()?));
    }
    let attrs = super::classfile::read_attrs(&mut r)?;
    if r.remaining() != 0 {
        bail!("{} trailing bytes in the Code attribute", r.remaining());
    }

    let insns = decode(code)?;
    let n = insns.len();
    // original offset -> instruction index (n for code_len)
    let mut idx_of = vec![u32::MAX; code_len + 1];
    for (i, ins) in insns.iter().enumerate() {
        idx_of[ins.off as usize] = i as u32;
    }
    idx_of[code_len] = n as u32;
    let idx = |off: u32| -> Option<usize> {
        idx_of
            .get(off as usize)
            .copied()
            .filter(|&v| v != u32::MAX)
            .map(|v| v as usize)
    };
    let must_idx = |off: u32, what: &str| -> Result<usize> {
        idx(off).with_context(|| format!("{what} offset {off} is not an instruction boundary"))
    };
    if !never_falls_through(insns[n - 1].op) {
        bail!(
            "code falls off its end (last instruction {:#04x})",
            insns[n - 1].op
        );
    }

    // Sub-attributes we understand.
    let mut lines: Vec<(u32, u32)> = Vec::new();
    let mut lvts: Vec<(u16, Vec<[u16; 5]>)> = Vec::new();
    let mut smt: Option<&[u8]> = None;
    let mut smt_name = 0u16;
    let mut lnt_name = None;
    for a in &attrs {
        let name = cp.utf8_at(a.name).unwrap_or("");
        match name {
            "LineNumberTable" => {
                lnt_name = Some(a.name);
                let mut ar = Reader::new(a.body);
                let k = ar.u2()?;
                for _ in 0..k {
                    lines.push((ar.u2()? as u32, ar.u2()? as u32));
                }
            }
            "LocalVariableTable" | "LocalVariableTypeTable" => {
                let mut ar = Reader::new(a.body);
                let k = ar.u2()?;
                let mut v = Vec::with_capacity(k as usize);
                for _ in 0..k {
                    v.push([ar.u2()?, ar.u2()?, ar.u2()?, ar.u2()?, ar.u2()?]);
                }
                lvts.push((a.name, v));
            }
            "StackMapTable" => {
                smt = Some(a.body);
                smt_name = a.name;
            }
            _ => {} // dropped: other code attributes (type annotations) carry stale offsets
        }
    }
    lines.sort_by_key(|&(pc, _)| pc);
    let line_at = |off: u32| -> Option<u32> {
        lines
            .iter()
            .rev()
            .find(|&&(pc, _)| pc <= off)
            .map(|&(_, l)| l)
    };

    // ---- probe assignment ----
    let mut probes: Vec<DraftProbe> = Vec::new();
    let mut next = first_id;
    let mut new_probe = |probes: &mut Vec<DraftProbe>, kind, offset, line| -> Result<u32> {
        let id = next;
        if id > i32::MAX as u32 {
            bail!("probe id {id} exceeds the int range");
        }
        next += 1;
        probes.push(DraftProbe { kind, offset, line });
        Ok(id)
    };
    let entry_id = new_probe(&mut probes, ProbeKind::MethodEntry, 0, line_at(0))?;
    let mut line_ids: HashMap<u32, u32> = HashMap::new();
    let mut line_probes: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut ft: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
    let mut tramps: Vec<Tramp> = Vec::new();
    let mut insn_tramps: Vec<Vec<usize>> = vec![Vec::new(); n]; // cond: [taken]; switch: cases.., default
    let mut li = 0;
    for (i, ins) in insns.iter().enumerate() {
        while li < lines.len() && lines[li].0 < ins.off {
            li += 1; // entry not at an instruction boundary: ignored
        }
        while li < lines.len() && lines[li].0 == ins.off {
            let line = lines[li].1;
            let id = match line_ids.get(&line) {
                Some(&id) => id,
                None => {
                    let id = new_probe(&mut probes, ProbeKind::Line, ins.off, Some(line))?;
                    line_ids.insert(line, id);
                    id
                }
            };
            if !line_probes[i].contains(&id) {
                line_probes[i].push(id);
            }
            li += 1;
        }
        let line = line_at(ins.off);
        let mut tramp = |probes: &mut Vec<DraftProbe>, kind: ProbeKind, t: u32| -> Result<usize> {
            let id = new_probe(probes, kind, ins.off, line)?;
            tramps.push(Tramp {
                probe: id,
                target: must_idx(t, "jump target")?,
                island: n,
                wide: false,
                moves: 0,
            });
            Ok(tramps.len() - 1)
        };
        match &ins.kind {
            Kind::Cond(t) => {
                let tr = tramp(&mut probes, ProbeKind::BranchTaken, *t)?;
                insn_tramps[i].push(tr);
                let id = new_probe(&mut probes, ProbeKind::BranchNotTaken, ins.off, line)?;
                if i + 1 >= n {
                    bail!("conditional jump at the end of the code");
                }
                ft[i + 1].push(id);
            }
            Kind::Table {
                default,
                low,
                targets,
                ..
            } => {
                for (k, t) in targets.iter().enumerate() {
                    let key = (*low as i64 + k as i64) as i32;
                    let tr = tramp(&mut probes, ProbeKind::SwitchCase { key }, *t)?;
                    insn_tramps[i].push(tr);
                }
                let tr = tramp(&mut probes, ProbeKind::SwitchDefault, *default)?;
                insn_tramps[i].push(tr);
            }
            Kind::Lookup { default, pairs } => {
                for (key, t) in pairs {
                    let tr = tramp(&mut probes, ProbeKind::SwitchCase { key: *key }, *t)?;
                    insn_tramps[i].push(tr);
                }
                let tr = tramp(&mut probes, ProbeKind::SwitchDefault, *default)?;
                insn_tramps[i].push(tr);
            }
            Kind::Jump16(t) | Kind::Jump32(t) => {
                must_idx(*t, "jump target")?;
            }
            Kind::Plain => {}
        }
    }

    // ---- comparison logging: site ids (probe id of the taken edge of the jump) ----
    let taken = |i: usize| -> Option<u32> {
        match insns.get(i).map(|x| &x.kind) {
            Some(Kind::Cond(_)) => insn_tramps[i].first().map(|&t| tramps[t].probe),
            _ => None,
        }
    };
    let mut cmp_site: Vec<Option<u32>> = vec![None; n];
    let mut cmp_refs = (0u16, 0u16);
    if ctx.log_compares {
        for (i, ins) in insns.iter().enumerate() {
            if is_if_icmp(ins.op) {
                cmp_site[i] = taken(i);
            } else if ins.op == LCMP {
                cmp_site[i] = Some(taken(i + 1).unwrap_or(entry_id));
            }
        }
        let has = |f: &dyn Fn(u8) -> bool| {
            insns
                .iter()
                .zip(&cmp_site)
                .any(|(x, s)| s.is_some() && f(x.op))
        };
        if has(&is_if_icmp) {
            cmp_refs.0 = cp.methodref(super::RUNTIME_CLASS, "cmpI", "(III)V")?;
        }
        if has(&|op| op == LCMP) {
            cmp_refs.1 = cp.methodref(super::RUNTIME_CLASS, "lcmp", "(JJI)I")?;
        }
    }
    let cmp_log_len = |i: usize| -> u32 {
        if cmp_site[i].is_some() && is_if_icmp(insns[i].op) {
            CMP_LOG_LEN
        } else {
            0
        }
    };

    // ---- layout ----
    let eligible: Vec<usize> = (1..=n)
        .filter(|&j| never_falls_through(insns[j - 1].op))
        .collect();
    let mut goto_wide = vec![false; n];
    let mut pre = vec![0u32; n + 1];
    let mut lbl = vec![0u32; n + 1];
    let mut at = vec![0u32; n];
    let mut tpos = vec![0u32; tramps.len()];
    let mut islands: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
    let pad = |pos: u32| (3 - pos % 4) % 4;
    let mut total = 0u32;
    let mut settled = false;
    for _round in 0..64 {
        for v in islands.iter_mut() {
            v.clear();
        }
        for (t, tr) in tramps.iter().enumerate() {
            islands[tr.island].push(t);
        }
        let mut pos: u64 = 0;
        for i in 0..=n {
            pre[i] = pos as u32;
            if i == 0 {
                pos += PROBE_LEN as u64;
            }
            pos += PROBE_LEN as u64 * ft[i].len() as u64;
            for &t in &islands[i] {
                tpos[t] = pos as u32;
                pos += PROBE_LEN as u64 + if tramps[t].wide { 5 } else { 3 };
            }
            lbl[i] = pos as u32;
            if i == n {
                break;
            }
            pos += PROBE_LEN as u64 * line_probes[i].len() as u64;
            pos += cmp_log_len(i) as u64;
            at[i] = pos as u32;
            let ins = &insns[i];
            pos += match &ins.kind {
                Kind::Plain if ins.op == LCMP && cmp_site[i].is_some() => LCMP_LEN as u64,
                Kind::Plain | Kind::Cond(_) | Kind::Jump32(_) => ins.len as u64,
                Kind::Jump16(_) => {
                    if goto_wide[i] {
                        5
                    } else {
                        3
                    }
                }
                Kind::Table { targets, .. } => {
                    1 + pad(pos as u32) as u64 + 12 + 4 * targets.len() as u64
                }
                Kind::Lookup { pairs, .. } => {
                    1 + pad(pos as u32) as u64 + 8 + 8 * pairs.len() as u64
                }
            };
            if pos > 65535 {
                return Ok(Err(format!(
                    "instrumented code would exceed the 65535-byte method limit (original {code_len} bytes)"
                )));
            }
        }
        total = pos as u32;
        let mut changed = false;
        for (i, ins) in insns.iter().enumerate() {
            match &ins.kind {
                Kind::Jump16(t) if !goto_wide[i] => {
                    let ti = idx(*t).unwrap_or(0);
                    if !fits16(lbl[ti] as i64 - at[i] as i64) {
                        goto_wide[i] = true;
                        changed = true;
                    }
                }
                Kind::Cond(_) => {
                    let t = insn_tramps[i][0];
                    if !fits16(tpos[t] as i64 - at[i] as i64) {
                        // Move the trampoline to the island nearest to the jump.
                        let best = eligible
                            .iter()
                            .copied()
                            .filter(|&j| j != tramps[t].island)
                            .min_by_key(|&j| (pre[j] as i64 - at[i] as i64).abs());
                        match best {
                            Some(j)
                                if tramps[t].moves < 4
                                    && (pre[j] as i64 - at[i] as i64).abs() < 30000 =>
                            {
                                tramps[t].island = j;
                                tramps[t].moves += 1;
                                changed = true;
                            }
                            _ => {
                                return Ok(Err(format!(
                                    "no place for a trampoline within 32 KiB of the jump at offset {}",
                                    ins.off
                                )));
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        for (t, tr) in tramps.iter_mut().enumerate() {
            if !tr.wide && !fits16(lbl[tr.target] as i64 - (tpos[t] + PROBE_LEN) as i64) {
                tr.wide = true;
                changed = true;
            }
        }
        if !changed {
            settled = true;
            break;
        }
    }
    if !settled {
        return Ok(Err("jump layout did not settle".into()));
    }

    // ---- emit ----
    let mut out: Vec<u8> = Vec::with_capacity(total as usize);
    let emit_probe = |out: &mut Vec<u8>, cp: &mut ConstPool, id: u32| -> Result<()> {
        push_int(out, cp, id)?;
        out.push(0xb8);
        put_u2(out, ctx.cov_ref);
        Ok(())
    };
    for i in 0..=n {
        if i == 0 {
            emit_probe(&mut out, cp, entry_id)?;
        }
        for &p in &ft[i] {
            emit_probe(&mut out, cp, p)?;
        }
        for &t in &islands[i] {
            let tr = &tramps[t];
            emit_probe(&mut out, cp, tr.probe)?;
            let d = lbl[tr.target] as i64 - out.len() as i64;
            if tr.wide {
                out.push(0xc8);
                put_u4(&mut out, d as i32 as u32);
            } else {
                out.push(0xa7);
                put_u2(&mut out, d as i16 as u16);
            }
        }
        if i == n {
            break;
        }
        for &p in &line_probes[i] {
            emit_probe(&mut out, cp, p)?;
        }
        let ins = &insns[i];
        if let Some(site) = cmp_site[i]
            && is_if_icmp(ins.op)
        {
            out.push(0x5c); // dup2
            push_int(&mut out, cp, site)?;
            out.push(0xb8);
            put_u2(&mut out, cmp_refs.0);
        }
        let here = out.len() as i64;
        if here != at[i] as i64 {
            bail!("internal layout error at offset {}", ins.off);
        }
        let rel_t = |t: usize| (tpos[t] as i64 - here) as i32 as u32;
        match &ins.kind {
            Kind::Plain if ins.op == LCMP && cmp_site[i].is_some() => {
                push_int(&mut out, cp, cmp_site[i].unwrap_or(entry_id))?;
                out.push(0xb8);
                put_u2(&mut out, cmp_refs.1);
            }
            Kind::Plain => {
                out.extend_from_slice(&code[ins.off as usize..(ins.off + ins.len) as usize])
            }
            Kind::Jump16(t) => {
                let d = lbl[idx(*t).unwrap_or(0)] as i64 - here;
                if goto_wide[i] {
                    out.push(if ins.op == 0xa7 { 0xc8 } else { 0xc9 });
                    put_u4(&mut out, d as i32 as u32);
                } else {
                    out.push(ins.op);
                    put_u2(&mut out, d as i16 as u16);
                }
            }
            Kind::Cond(_) => {
                out.push(ins.op);
                put_u2(&mut out, rel_t(insn_tramps[i][0]) as u16);
            }
            Kind::Jump32(t) => {
                out.push(ins.op);
                put_u4(
                    &mut out,
                    (lbl[idx(*t).unwrap_or(0)] as i64 - here) as i32 as u32,
                );
            }
            Kind::Table { low, high, .. } => {
                out.push(ins.op);
                out.extend(std::iter::repeat_n(0, pad(here as u32) as usize));
                let ts = &insn_tramps[i];
                put_u4(&mut out, rel_t(ts[ts.len() - 1]));
                put_u4(&mut out, *low as u32);
                put_u4(&mut out, *high as u32);
                for &t in &ts[..ts.len() - 1] {
                    put_u4(&mut out, rel_t(t));
                }
            }
            Kind::Lookup { pairs, .. } => {
                out.push(ins.op);
                out.extend(std::iter::repeat_n(0, pad(here as u32) as usize));
                let ts = &insn_tramps[i];
                put_u4(&mut out, rel_t(ts[ts.len() - 1]));
                put_u4(&mut out, pairs.len() as u32);
                for (k, (key, _)) in pairs.iter().enumerate() {
                    put_u4(&mut out, *key as u32);
                    put_u4(&mut out, rel_t(ts[k]));
                }
            }
        }
    }
    if out.len() != total as usize {
        bail!(
            "internal layout error: emitted {} bytes, planned {total}",
            out.len()
        );
    }

    // ---- exception table: skip islands inside protected ranges ----
    let mut new_excs: Vec<[u16; 4]> = Vec::new();
    for &(s, e, h, ty) in &excs {
        let si = must_idx(s as u32, "exception range start")?;
        let ei = must_idx(e as u32, "exception range end")?;
        let hi = must_idx(h as u32, "exception handler")?;
        if si >= ei {
            bail!("empty exception range {s}..{e}");
        }
        let mut cur = lbl[si];
        for j in si + 1..ei {
            if !islands[j].is_empty() {
                if pre[j] > cur {
                    new_excs.push([cur as u16, pre[j] as u16, lbl[hi] as u16, ty]);
                }
                cur = lbl[j];
            }
        }
        if pre[ei] > cur {
            new_excs.push([cur as u16, pre[ei] as u16, lbl[hi] as u16, ty]);
        }
    }

    // ---- sub-attributes ----
    let mut sub: Vec<(u16, Vec<u8>)> = Vec::new();
    if let Some(name) = lnt_name {
        let mut b = Vec::new();
        let kept: Vec<(u32, u32)> = lines
            .iter()
            .filter_map(|&(pc, l)| idx(pc).filter(|&k| k < n).map(|k| (lbl[k], l)))
            .collect();
        put_u2(&mut b, kept.len() as u16);
        for (pc, l) in kept {
            put_u2(&mut b, pc as u16);
            put_u2(&mut b, l as u16);
        }
        sub.push((name, b));
    }
    for (name, entries) in &lvts {
        let mut kept = Vec::new();
        for e in entries {
            let end = e[0] as u32 + e[1] as u32;
            if let (Some(si), Some(ei)) = (idx(e[0] as u32), idx(end))
                && si < n
                && ei > si
            {
                let (ns, ne) = (lbl[si], pre[ei]);
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
        sub.push((*name, b));
    }
    match smt {
        Some(body) => {
            let init = (ctx.initial_frame)()?;
            let decoded = frames::decode(body, &init).context("decoding the StackMapTable")?;
            let mut by_off: HashMap<u32, &Frame> = HashMap::new();
            let mut all: Vec<(u32, &Frame)> = Vec::new();
            for (off, f) in &decoded {
                let k = must_idx(*off, "stack-map frame")?;
                if k >= n {
                    bail!("stack-map frame at the end of the code");
                }
                by_off.insert(*off, f);
                all.push((lbl[k], f));
            }
            for (t, tr) in tramps.iter().enumerate() {
                let off = insns[tr.target].off;
                let f = by_off.get(&off).with_context(|| {
                    format!(
                        "no stack-map frame at branch target {off}; the class is not verifiable"
                    )
                })?;
                all.push((tpos[t], f));
            }
            all.sort_by_key(|(p, _)| *p);
            let remap = |o: u32| -> Result<u32> {
                let k = must_idx(o, "Uninitialized(new)")?;
                if k >= n || insns[k].op != 0xbb {
                    bail!("Uninitialized({o}) does not point at a `new` instruction");
                }
                Ok(at[k])
            };
            sub.push((smt_name, frames::encode(&all, cp, &remap)?));
        }
        None => {
            if ctx.major >= 51 && !tramps.is_empty() {
                bail!(
                    "method has branches but no StackMapTable (class version {})",
                    ctx.major
                );
            }
        }
    }

    // ---- Code attribute ----
    let mut b = Vec::with_capacity(out.len() + 64);
    // A probe needs one slot; a comparison log two copies of the operands and a site id.
    let extra = if (0..n).any(|i| cmp_log_len(i) > 0) {
        3
    } else {
        1
    };
    let ms = max_stack
        .checked_add(extra)
        .context("max_stack overflows after adding probe and comparison-log slots")?;
    put_u2(&mut b, ms);
    put_u2(&mut b, max_locals);
    put_u4(&mut b, out.len() as u32);
    b.extend_from_slice(&out);
    put_u2(
        &mut b,
        u16::try_from(new_excs.len()).context("too many exception-table entries")?,
    );
    for e in new_excs {
        for v in e {
            put_u2(&mut b, v);
        }
    }
    put_u2(&mut b, sub.len() as u16);
    for (name, body) in sub {
        write_attr(&mut b, name, &body)?;
    }
    Ok(Ok(Rewritten { body: b, probes }))
}
