//! Trace mode of the instrumenter (`jforge concolic`): calls to `jforge.rt.Sym` around every
//! instruction of the classes under test, so that the runtime keeps a shadow of each frame's
//! operand stack and locals (symbolic expressions over the parameters of the method under
//! test) and records every branch whose condition depends on them.
//!
//! Why every instruction: the shadow stack must stay in step with the JVM's, so each
//! instruction that is not modelled still tells the runtime how many slots it pops and pushes
//! (`Sym.fx`). Modelled ones: local loads and stores (`ld`, `st`, `iinc`), the `dup` family,
//! int/long arithmetic, shifts and casts (the instruction is *replaced* by a `Sym` call that
//! computes the same result, so no operand needs copying), `lcmp`, conditional jumps on ints
//! and switches (operands copied with `dup`/`dup2`, the jump itself unchanged), calls
//! (`call`: the argument shadows become the callee's locals, its return shadow comes back),
//! method entry (`enter`, before the first instruction's label so that a loop back to offset
//! 0 does not enter twice), returns (`ret`) and exception handlers (`handler`: the frames the
//! exception unwound are dropped). Every hook leaves the operand stack as it found it, or
//! replaces one instruction by a call of the same stack effect, so no stack-map frame
//! changes; only `max_stack` grows.

use super::classfile::{ConstPool, put_u2};
use anyhow::{Context, Result};
use std::collections::HashSet;

/// Internal name of the shadow-value runtime.
pub const SYM_CLASS: &str = "jforge/rt/Sym";
/// Extra stack slots the hooks need at most (dup2 of two ints + two int constants).
pub(crate) const TRACE_STACK: u16 = 4;

/// One original instruction as the planner sees it.
pub(crate) struct InsnView<'a> {
    pub(crate) op: u8,
    pub(crate) bytes: &'a [u8],
    pub(crate) off: u32,
    /// Conditional jump: probe id of its taken edge; switch: of its first case (or default).
    pub(crate) site: Option<u32>,
}

/// The hooks of one method, in original-instruction terms.
#[derive(Default)]
pub(crate) struct TraceHooks {
    /// After the entry probe, before the first instruction's label.
    pub(crate) entry: Vec<u8>,
    /// Per instruction: before it (after its label, line probes and comparison log).
    pub(crate) pre: Vec<Vec<u8>>,
    /// Per instruction: bytes that replace it (same stack effect).
    pub(crate) replace: Vec<Option<Vec<u8>>>,
}

/// The key of a method for the runtime: FNV-1a over the UTF-16 units of name + descriptor
/// (`Sym.key` computes the same in Java).
pub fn method_key(name: &str, descriptor: &str) -> i32 {
    let mut h: u32 = 0x811c_9dc5;
    for u in name.encode_utf16().chain(descriptor.encode_utf16()) {
        h ^= u as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h as i32
}

/// Slots of a field type or return type descriptor (`V` = 0).
fn type_slots(d: &str) -> u32 {
    match d.as_bytes().first() {
        Some(b'V') => 0,
        Some(b'J') | Some(b'D') => 2,
        _ => 1,
    }
}

/// Slots of a method descriptor's parameters and of its result.
pub(crate) fn descriptor_slots(desc: &str) -> (u32, u32) {
    let Some((params, ret)) = desc.strip_prefix('(').and_then(|s| s.split_once(')')) else {
        return (0, 0);
    };
    let b = params.as_bytes();
    let (mut i, mut slots) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'J' | b'D' => {
                slots += 2;
                i += 1;
            }
            b'L' => {
                slots += 1;
                i += params[i..].find(';').map(|k| k + 1).unwrap_or(b.len() - i);
            }
            b'[' => {
                while i < b.len() && b[i] == b'[' {
                    i += 1;
                }
                if i < b.len() && b[i] == b'L' {
                    i += params[i..].find(';').map(|k| k + 1).unwrap_or(b.len() - i);
                } else {
                    i += 1;
                }
                slots += 1;
            }
            _ => {
                slots += 1;
                i += 1;
            }
        }
    }
    (slots, type_slots(ret))
}

/// Emits the hooks of a method.
struct Emitter<'c> {
    cp: &'c mut ConstPool,
}

impl Emitter<'_> {
    /// `sipush v`, or `ldc_w` of a pool Integer: 3 bytes either way.
    fn int(&mut self, out: &mut Vec<u8>, v: i32) -> Result<()> {
        if (i16::MIN as i32..=i16::MAX as i32).contains(&v) {
            out.push(0x11);
            put_u2(out, v as i16 as u16);
        } else {
            out.push(0x13);
            put_u2(out, self.cp.integer(v)?);
        }
        Ok(())
    }

    fn call(&mut self, out: &mut Vec<u8>, name: &str, desc: &str) -> Result<()> {
        out.push(0xb8);
        put_u2(out, self.cp.methodref(SYM_CLASS, name, desc)?);
        Ok(())
    }

    /// `Sym.fx(op << 16 | pops << 8 | pushes)` (`op` 0 unless the result depends on the
    /// operands' values, see [`value_op`]), nothing for an instruction with no stack effect.
    fn fx(&mut self, pops: u32, pushes: u32, op: u32) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        if pops + pushes > 0 {
            self.int(&mut out, (op << 16 | pops << 8 | pushes) as i32)?;
            self.call(&mut out, "fx", "(I)V")?;
        }
        Ok(out)
    }

    fn two_ints(&mut self, name: &str, a: i32, b: i32) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.int(&mut out, a)?;
        self.int(&mut out, b)?;
        self.call(&mut out, name, "(II)V")?;
        Ok(out)
    }
}

/// Plans the hooks of one method (see the module documentation). `handlers`: instruction
/// indices where an exception handler starts; `entry_id`: the method's entry probe, which
/// identifies its frames.
pub(crate) fn plan(
    insns: &[InsnView],
    handlers: &HashSet<usize>,
    name_desc: (&str, &str),
    is_static: bool,
    entry_id: u32,
    cp: &mut ConstPool,
) -> Result<TraceHooks> {
    let mut e = Emitter { cp };
    let (args, _) = descriptor_slots(name_desc.1);
    let mut hooks = TraceHooks {
        entry: Vec::new(),
        pre: Vec::with_capacity(insns.len()),
        replace: Vec::with_capacity(insns.len()),
    };
    let entry = entry_id as i32;
    e.int(&mut hooks.entry, method_key(name_desc.0, name_desc.1))?;
    e.int(&mut hooks.entry, (args + u32::from(!is_static)) as i32)?;
    e.int(&mut hooks.entry, entry)?;
    e.call(&mut hooks.entry, "enter", "(III)V")?;
    // Before a constructor's first `invokespecial <init>`, `this` may be uninitialized and
    // cannot be passed to `Sym.putf`: those field writes stay unhooked (concrete).
    let mut initialized = name_desc.0 != "<init>";
    for (i, ins) in insns.iter().enumerate() {
        let mut pre = Vec::new();
        let heap_ok = initialized;
        if ins.op == 0xb7 && !initialized {
            let idx = u16::from_be_bytes([ins.bytes[1], ins.bytes[2]]);
            initialized = e.cp.member_at(idx).is_some_and(|(n, _)| n == "<init>");
        }
        if handlers.contains(&i) {
            e.int(&mut pre, entry)?;
            e.call(&mut pre, "handler", "(I)V")?;
        }
        let (own, replace) = hook(&mut e, ins, heap_ok)
            .with_context(|| format!("tracing the instruction at offset {}", ins.off))?;
        pre.extend(own);
        hooks.pre.push(pre);
        hooks.replace.push(replace);
    }
    Ok(hooks)
}

/// Local slot operand of a load/store (plain, `_n` or wide).
fn local_slot(ins: &InsnView, base: u8) -> u32 {
    match ins.op {
        0xc4 => u16::from_be_bytes([ins.bytes[2], ins.bytes[3]]) as u32,
        op if op >= base => ((op - base) % 4) as u32,
        _ => ins.bytes[1] as u32,
    }
}

/// Arithmetic replaced by a `Sym` call: (method, descriptor), by opcode.
fn arithmetic(op: u8) -> Option<(&'static str, &'static str)> {
    Some(match op {
        0x6c | 0x70 => ("idiv", "(III)I"),
        0x60 | 0x64 | 0x68 | 0x78 | 0x7a | 0x7c | 0x7e | 0x80 | 0x82 => ("i2", "(III)I"),
        0x6d | 0x71 => ("ldiv", "(JJI)J"),
        0x61 | 0x65 | 0x69 | 0x7f | 0x81 | 0x83 => ("l2", "(JJI)J"),
        0x79 | 0x7b | 0x7d => ("lsh", "(JII)J"),
        0x74 | 0x91..=0x93 => ("i1", "(II)I"),
        0x75 => ("l1", "(JI)J"),
        _ => return None,
    })
}

/// The hook before an instruction and the bytes replacing it, if any.
fn hook(e: &mut Emitter, ins: &InsnView, heap_ok: bool) -> Result<(Vec<u8>, Option<Vec<u8>>)> {
    let op = ins.op;
    let out = Vec::new();
    if let Some(rep) = array_store(e, ins)? {
        return Ok((out, Some(rep)));
    }
    if let Some(pre) = field_hook(e, ins, heap_ok)? {
        return Ok((pre, None));
    }
    if let Some((name, desc)) = arithmetic(op) {
        let mut rep = Vec::new();
        e.int(&mut rep, op as i32 | (ins.off as i32) << 8)?;
        e.call(&mut rep, name, desc)?;
        return Ok((out, Some(rep)));
    }
    let replace = |e: &mut Emitter, name: &str, desc: &str| -> Result<Option<Vec<u8>>> {
        let mut rep = Vec::new();
        e.call(&mut rep, name, desc)?;
        Ok(Some(rep))
    };
    if op == 0xb6
        && let Some(rep) = string_call(e, ins)?
    {
        return Ok((out, Some(rep)));
    }
    match op {
        0x85 => return Ok((out, replace(e, "i2l", "(I)J")?)),
        0x88 => return Ok((out, replace(e, "l2i", "(J)I")?)),
        0x94 => return Ok((out, replace(e, "lcmp", "(JJ)I")?)),
        _ => {}
    }
    let pre = match local_hook(e, ins)? {
        Some(pre) => pre,
        None => flow_hook(e, ins)?,
    };
    Ok((pre, None))
}

/// The String methods the solver's string theory models, and the `Sym` method that replaces
/// each call (same arguments, the receiver first; `charAt` also gets the call's offset,
/// which names its bounds decision).
const STRING_CALLS: [(&str, &str, &str, &str); 9] = [
    ("length", "()I", "slength", "(Ljava/lang/String;)I"),
    ("isEmpty", "()Z", "sempty", "(Ljava/lang/String;)Z"),
    (
        "equals",
        "(Ljava/lang/Object;)Z",
        "sequals",
        "(Ljava/lang/String;Ljava/lang/Object;)Z",
    ),
    (
        "startsWith",
        "(Ljava/lang/String;)Z",
        "sstarts",
        "(Ljava/lang/String;Ljava/lang/String;)Z",
    ),
    ("charAt", "(I)C", "scharAt", "(Ljava/lang/String;II)C"),
    (
        "endsWith",
        "(Ljava/lang/String;)Z",
        "sends",
        "(Ljava/lang/String;Ljava/lang/String;)Z",
    ),
    (
        "contains",
        "(Ljava/lang/CharSequence;)Z",
        "scontains",
        "(Ljava/lang/String;Ljava/lang/CharSequence;)Z",
    ),
    ("indexOf", "(I)I", "sindexc", "(Ljava/lang/String;I)I"),
    (
        "indexOf",
        "(Ljava/lang/String;)I",
        "sindexs",
        "(Ljava/lang/String;Ljava/lang/String;)I",
    ),
];

/// `invokevirtual String.length()` & co. replaced by the `Sym` method that computes the same
/// and keeps the result's shadow (`None` for any other call).
fn string_call(e: &mut Emitter, ins: &InsnView) -> Result<Option<Vec<u8>>> {
    let idx = u16::from_be_bytes([ins.bytes[1], ins.bytes[2]]);
    let Some((class, name, desc)) = e.cp.methodref_at(idx) else {
        return Ok(None);
    };
    if class != "java/lang/String" {
        return Ok(None);
    }
    let Some(&(_, _, sym, sym_desc)) = STRING_CALLS
        .iter()
        .find(|(n, d, _, _)| *n == name && *d == desc)
    else {
        return Ok(None);
    };
    let mut rep = Vec::new();
    if sym == "scharAt" {
        e.int(&mut rep, ins.off as i32)?;
    }
    e.call(&mut rep, sym, sym_desc)?;
    Ok(Some(rep))
}

/// The hook of a local-variable or `dup`-family instruction (`None` for any other).
fn local_hook(e: &mut Emitter, ins: &InsnView) -> Result<Option<Vec<u8>>> {
    let op = ins.op;
    let mut out = Vec::new();
    let wide_op = if op == 0xc4 { ins.bytes[1] } else { op };
    Ok(Some(match wide_op {
        0x15..=0x2d => {
            let (base, two) = load_kind(wide_op);
            e.two_ints("ld", local_slot(ins, base) as i32, two)?
        }
        0x36..=0x4e => {
            let (base, two) = store_kind(wide_op);
            e.two_ints("st", local_slot(ins, base) as i32, two)?
        }
        0x84 => {
            let (slot, c) = if op == 0xc4 {
                (
                    u16::from_be_bytes([ins.bytes[2], ins.bytes[3]]) as u32,
                    i16::from_be_bytes([ins.bytes[4], ins.bytes[5]]) as i32,
                )
            } else {
                (ins.bytes[1] as u32, ins.bytes[2] as i8 as i32)
            };
            // iload slot; push slot; push c; Sym.iinc(concrete, slot, c)
            if slot <= 255 {
                out.extend([0x15, slot as u8]);
            } else {
                out.extend([0xc4, 0x15]);
                put_u2(&mut out, slot as u16);
            }
            e.int(&mut out, slot as i32)?;
            e.int(&mut out, c)?;
            e.call(&mut out, "iinc", "(III)V")?;
            out
        }
        0x59..=0x5f => {
            e.int(&mut out, op as i32)?;
            e.call(&mut out, "dup", "(I)V")?;
            out
        }
        _ => return Ok(None),
    }))
}

/// The hook of a branch, switch, return, call or any other instruction (its stack effect).
fn flow_hook(e: &mut Emitter, ins: &InsnView) -> Result<Vec<u8>> {
    let op = ins.op;
    let mut out = Vec::new();
    Ok(match op {
        0x2e..=0x35 => {
            // array load: the index (if symbolic) is pinned, its bounds recorded (Sym.aidx)
            // and the element's shadow pushed (Sym.ald)
            out.push(0x5c);
            e.int(&mut out, ins.off as i32)?;
            e.int(&mut out, if matches!(op, 0x2f | 0x31) { 2 } else { 1 })?;
            e.call(&mut out, "ald", "(Ljava/lang/Object;III)V")?;
            out
        }
        0x99..=0x9e => {
            out.push(0x59);
            e.int(&mut out, op as i32)?;
            e.int(&mut out, ins.site.unwrap_or(0) as i32)?;
            e.call(&mut out, "if1", "(III)V")?;
            out
        }
        0x9f..=0xa4 => {
            out.push(0x5c);
            e.int(&mut out, op as i32)?;
            e.int(&mut out, ins.site.unwrap_or(0) as i32)?;
            e.call(&mut out, "if2", "(IIII)V")?;
            out
        }
        0xaa | 0xab => {
            out.push(0x59);
            e.int(&mut out, ins.site.unwrap_or(0) as i32)?;
            e.call(&mut out, "sw", "(II)V")?;
            out
        }
        0xac..=0xb1 => {
            let slots = match op {
                0xb1 => 0,
                0xad | 0xaf => 2,
                _ => 1,
            };
            e.int(&mut out, slots)?;
            e.call(&mut out, "ret", "(I)V")?;
            out
        }
        0xb6..=0xb9 => {
            let idx = u16::from_be_bytes([ins.bytes[1], ins.bytes[2]]);
            let (name, desc) =
                e.cp.member_at(idx)
                    .map(|(n, d)| (n.to_string(), d.to_string()))
                    .context("invoke of an unreadable method reference")?;
            // what the report names when the call's result (not traced) decides a branch
            let owner = e.cp.ref_at(idx).map(|(c, _, _)| c.to_string());
            let shown = match owner {
                Some(c) => format!("{}.{name}", c.rsplit(['/', '$']).next().unwrap_or(&c)),
                None => name.clone(),
            };
            let (args, ret) = descriptor_slots(&desc);
            let pops = args + u32::from(op != 0xb8);
            e.int(&mut out, method_key(&name, &desc))?;
            e.int(&mut out, (pops << 8 | ret) as i32)?;
            out.push(0x13); // ldc_w
            put_u2(&mut out, e.cp.string(&shown)?);
            e.call(&mut out, "call", "(IILjava/lang/String;)V")?;
            out
        }
        0xbe => {
            // arraylength: the length of an array argument is symbolic
            out.push(0x59);
            e.call(&mut out, "alen", "(Ljava/lang/Object;)V")?;
            out
        }
        _ => {
            let (pops, pushes) = effect(e.cp, ins)?;
            e.fx(pops, pushes, value_op(op))?
        }
    })
}

/// An array store replaced by a `Sym` call that stores (the element's shadow kept, a
/// symbolic index pinned as for loads): `None` for any other instruction.
fn array_store(e: &mut Emitter, ins: &InsnView) -> Result<Option<Vec<u8>>> {
    let (name, desc) = match ins.op {
        0x4f => ("ias", "([IIII)V"),
        0x50 => ("las", "([JIJI)V"),
        0x51 => ("fas", "([FIFI)V"),
        0x52 => ("das", "([DIDI)V"),
        0x53 => ("aas", "([Ljava/lang/Object;ILjava/lang/Object;I)V"),
        0x54 => ("bas", "(Ljava/lang/Object;III)V"),
        0x55 => ("cas", "([CIII)V"),
        0x56 => ("sas", "([SIII)V"),
        _ => return Ok(None),
    };
    let mut rep = Vec::new();
    e.int(&mut rep, ins.off as i32)?;
    e.call(&mut rep, name, desc)?;
    Ok(Some(rep))
}

/// The id of a field for the runtime: the method-key hash of owner and name.
pub fn field_key(owner: &str, name: &str) -> i32 {
    method_key(owner, &format!(".{name}"))
}

/// `getfield`/`putfield`: the object copied under the hook so that `Sym` keeps the
/// field's shadow per object (`None` for any other instruction, and for a `putfield` on a
/// possibly uninitialized `this`, which gets its plain stack effect).
fn field_hook(e: &mut Emitter, ins: &InsnView, heap_ok: bool) -> Result<Option<Vec<u8>>> {
    if !matches!(ins.op, 0xb4 | 0xb5) || (ins.op == 0xb5 && !heap_ok) {
        return Ok(None);
    }
    let idx = u16::from_be_bytes([ins.bytes[1], ins.bytes[2]]);
    let (owner, name, desc) =
        e.cp.ref_at(idx)
            .map(|(c, n, d)| (c.to_string(), n.to_string(), d.to_string()))
            .context("field access of an unreadable field reference")?;
    let slots = type_slots(&desc) as i32;
    let mut out = Vec::new();
    if ins.op == 0xb4 {
        out.push(0x59); // dup: [obj obj]
        e.int(&mut out, field_key(&owner, &name))?;
        e.int(&mut out, slots)?;
        e.call(&mut out, "getf", "(Ljava/lang/Object;II)V")?;
        return Ok(Some(out));
    }
    if slots == 2 {
        out.extend([0x5d, 0x58, 0x5b]); // dup2_x1; pop2; dup_x2: [obj v obj]
    } else {
        out.extend([0x5c, 0x57]); // dup2; pop: [obj v obj]
    }
    e.int(&mut out, field_key(&owner, &name))?;
    e.int(&mut out, slots)?;
    e.call(&mut out, "putf", "(Ljava/lang/Object;II)V")?;
    Ok(Some(out))
}

/// (base of the `_n` forms, 1 for two-slot) of a load opcode.
fn load_kind(op: u8) -> (u8, i32) {
    match op {
        0x16 | 0x1e..=0x21 => (0x1e, 1),
        0x18 | 0x26..=0x29 => (0x26, 1),
        0x15 | 0x1a..=0x1d => (0x1a, 0),
        0x17 | 0x22..=0x25 => (0x22, 0),
        _ => (0x2a, 0),
    }
}

/// (base of the `_n` forms, 1 for two-slot) of a store opcode.
fn store_kind(op: u8) -> (u8, i32) {
    match op {
        0x37 | 0x3f..=0x42 => (0x3f, 1),
        0x39 | 0x47..=0x4a => (0x47, 1),
        0x36 | 0x3b..=0x3e => (0x3b, 0),
        0x38 | 0x43..=0x46 => (0x43, 0),
        _ => (0x4b, 0),
    }
}

/// The opcode of an instruction that is not modelled but computes a value from its operands
/// (floating point, conversions to it, `invokedynamic`: string concatenation), whose result
/// `Sym.fx` marks as lost to it; 0 for the rest (`pop`, `new`, `instanceof`, ...).
fn value_op(op: u8) -> u32 {
    match op {
        0x62
        | 0x63
        | 0x66
        | 0x67
        | 0x6a
        | 0x6b
        | 0x6e
        | 0x6f
        | 0x72
        | 0x73
        | 0x76
        | 0x77
        | 0x86..=0x87
        | 0x89..=0x8a
        | 0x8b..=0x90
        | 0x95..=0x98
        | 0xba => op as u32,
        _ => 0,
    }
}

/// Slots popped and pushed by an instruction that is not modelled.
fn effect(cp: &ConstPool, ins: &InsnView) -> Result<(u32, u32)> {
    let member = || -> Result<(String, String)> {
        let idx = u16::from_be_bytes([ins.bytes[1], ins.bytes[2]]);
        cp.member_at(idx)
            .map(|(n, d)| (n.to_string(), d.to_string()))
            .context("unreadable member reference")
    };
    Ok(match ins.op {
        0x00 | 0xa7 | 0xa9 | 0xc8 | 0xc0 | 0xbe => (0, 0),
        // instanceof: a reference in, an int out (a String's shadow must not become the int)
        0xc1 => (1, 1),
        0x01..=0x08 | 0x0b..=0x0d | 0x10..=0x13 => (0, 1),
        0x09 | 0x0a | 0x0e | 0x0f | 0x14 => (0, 2),
        0x2e | 0x30 | 0x32..=0x35 => (2, 1),
        0x2f | 0x31 => (2, 2),
        0x4f | 0x51 | 0x53..=0x56 => (3, 0),
        0x50 | 0x52 => (4, 0),
        0x57 => (1, 0),
        0x58 => (2, 0),
        0x62 | 0x66 | 0x6a | 0x6e | 0x72 => (2, 1),
        0x63 | 0x67 | 0x6b | 0x6f | 0x73 => (4, 2),
        0x76 | 0x86 | 0x8b => (1, 1),
        0x77 | 0x8a | 0x8f => (2, 2),
        0x87 | 0x8c | 0x8d => (1, 2),
        0x89 | 0x8e | 0x90 => (2, 1),
        0x95 | 0x96 => (2, 1),
        0x97 | 0x98 => (4, 1),
        0xa5 | 0xa6 => (2, 0),
        0xa8 | 0xc9 => (0, 1),
        0xb2 => (0, type_slots(&member()?.1)),
        0xb3 => (type_slots(&member()?.1), 0),
        0xb4 => (1, type_slots(&member()?.1)),
        0xb5 => (1 + type_slots(&member()?.1), 0),
        0xba => {
            let (args, ret) = descriptor_slots(&member()?.1);
            (args, ret)
        }
        0xbb => (0, 1),
        0xbc | 0xbd => (1, 1),
        0xbf | 0xc2 | 0xc3 | 0xc6 | 0xc7 => (1, 0),
        0xc5 => (ins.bytes[3] as u32, 1),
        op => anyhow::bail!("no stack effect known for opcode {op:#04x}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptor_slots_count_longs_doubles_arrays_and_objects() {
        assert_eq!(
            descriptor_slots("(IJLjava/lang/String;[J[[Ljava/lang/Object;D)V"),
            (8, 0)
        );
        assert_eq!(descriptor_slots("()J"), (0, 2));
        assert_eq!(descriptor_slots("(Z)Ljava/lang/String;"), (1, 1));
    }

    #[test]
    fn method_key_is_fnv1a_of_name_and_descriptor() {
        // FNV-1a of "" is the offset basis; the Java side (Sym.key) uses the same constants.
        assert_eq!(method_key("", ""), 0x811c_9dc5_u32 as i32);
        assert_ne!(method_key("f", "(I)I"), method_key("f", "(J)I"));
    }
}
