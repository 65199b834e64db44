//! Which `int` and `long` parameters of a method size an allocation, read from its bytecode:
//! a parameter that reaches `newarray`, `anewarray` or `multianewarray`, or a sizing
//! parameter of a method it calls (`new ArrayList<>(n)`, `Builder(int capacity)`,
//! `Array.newInstance(c, n)`), transitively over the callees' class files. Why: `gen` gives
//! such parameters small numbers before the first `OutOfMemoryError` rather than after it
//! (issue 22, "Arguments that allocate" in ARCHITECTURE.md); on guava collect half of the
//! operations that ran out of memory take their size this way. It lives in the instrumenter
//! because that is the reader that decodes bytecode.
//!
//! The reading is local and cheap, not a data-flow analysis: the value an allocation or a
//! call consumes is traced back over the instructions that push it when each pushes exactly
//! one value (loads, constants), through `i2l`/`l2i`, arithmetic with a constant, and static
//! helpers that return an `int` or `long` from one (`computeArrayListCapacity(n)`,
//! `checkNonnegative(n, "n")`, `Math.max(n, 16)`), up to a load of a parameter. A size
//! stored in a field and allocated later (`HashMap(int)`) is not seen: the generator learns
//! those from the first OutOfMemoryError (`random::sized_makers`).

use super::classfile::parse_class;
use std::collections::HashMap;
use std::rc::Rc;

/// How deep the callees of a method are read.
const MAX_DEPTH: u32 = 4;

/// A method: owner (internal name), name, descriptor.
type MethodKey = (String, String, String);

/// The sizing parameters of the methods read so far, and the class files' methods.
#[derive(Default)]
pub struct Sizes {
    /// Per method: for each parameter (receiver excluded), whether it sizes an allocation.
    memo: HashMap<MethodKey, Vec<bool>>,
    /// Per class: its methods and calls, `None` when the class could not be read.
    classes: HashMap<String, Option<ClassInfo>>,
}

struct ClassInfo {
    methods: Vec<Method>,
    /// The methods the code calls, by constant-pool index (shared by its methods' reads).
    refs: Rc<CodeRefs>,
}

/// Constant-pool index -> called method.
type CodeRefs = HashMap<u16, MethodKey>;

struct Method {
    name: String,
    desc: String,
    is_static: bool,
    code: Option<Vec<u8>>,
}

/// One instruction's opcode and operand bytes.
#[derive(Clone, Copy)]
struct Ins<'a> {
    op: u8,
    arg: &'a [u8],
}

impl Sizes {
    /// For each parameter of `owner.name desc` (binary or internal class name), whether it
    /// sizes an allocation; `bytes` finds a class file by binary name (dots).
    pub fn sizing_params(
        &mut self,
        owner: &str,
        name: &str,
        desc: &str,
        bytes: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
    ) -> Vec<bool> {
        self.params(&owner.replace('.', "/"), name, desc, bytes, 0)
    }

    fn params(
        &mut self,
        owner: &str,
        name: &str,
        desc: &str,
        bytes: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
        depth: u32,
    ) -> Vec<bool> {
        let key = (owner.to_string(), name.to_string(), desc.to_string());
        if let Some(v) = self.memo.get(&key) {
            return v.clone();
        }
        let kinds = param_kinds(desc);
        if owner == "java/lang/reflect/Array" && (name == "newInstance" || name == "newArray") {
            // native: the int is the length
            return kinds.iter().map(|&k| k == b'I').collect();
        }
        if depth > MAX_DEPTH {
            // too deep from here, not for a shallower caller: not remembered
            return vec![false; kinds.len()];
        }
        // in progress (a recursive call): nothing known yet
        self.memo.insert(key.clone(), vec![false; kinds.len()]);
        let Some((is_static, code, refs)) = self.code_of(owner, name, desc, bytes) else {
            return vec![false; kinds.len()];
        };
        let sizing = self.read_method(&code, &refs, is_static, &kinds, bytes, depth);
        self.memo.insert(key, sizing.clone());
        sizing
    }

    /// The Code attribute of a method and whether it is static, reading its class once.
    fn code_of(
        &mut self,
        owner: &str,
        name: &str,
        desc: &str,
        bytes: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
    ) -> Option<(bool, Vec<u8>, Rc<CodeRefs>)> {
        let class = self
            .classes
            .entry(owner.to_string())
            .or_insert_with(|| bytes(&owner.replace('/', ".")).and_then(|b| read_class(&b)))
            .as_ref()?;
        let m = class
            .methods
            .iter()
            .find(|m| m.name == name && m.desc == desc)?;
        Some((m.is_static, m.code.clone()?, class.refs.clone()))
    }

    /// The sizing parameters of one method body.
    fn read_method(
        &mut self,
        code_attr: &[u8],
        refs: &CodeRefs,
        is_static: bool,
        kinds: &[u8],
        bytes: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
        depth: u32,
    ) -> Vec<bool> {
        let mut sizing = vec![false; kinds.len()];
        let Ok((code, ops)) = super::code::opcodes(code_attr) else {
            return sizing;
        };
        let ins: Vec<Ins> = ops
            .iter()
            .enumerate()
            .map(|(i, &(off, op))| {
                let end = ops.get(i + 1).map_or(code.len(), |n| n.0 as usize);
                Ins {
                    op,
                    arg: &code[off as usize + 1..end],
                }
            })
            .collect();
        let mut slots = param_slots(kinds, is_static);
        copied_params(&ins, &mut slots, refs);
        for i in 0..ins.len() {
            let sinks: Vec<usize> = match ins[i].op {
                // newarray, anewarray, multianewarray: the (last) count on top of the stack
                0xbc | 0xbd | 0xc5 => i.checked_sub(1).into_iter().collect(),
                0xb6..=0xb9 => self.sized_args(&ins, i, refs, bytes, depth),
                _ => continue,
            };
            let body = Body {
                ins: &ins,
                slots: &slots,
                refs,
            };
            for j in sinks {
                if let Some(p) = body.origin(j, 0) {
                    sizing[p] = true;
                }
            }
        }
        sizing
    }

    /// The instructions pushing the sizing arguments of the call at `i`.
    fn sized_args(
        &mut self,
        ins: &[Ins],
        i: usize,
        refs: &CodeRefs,
        bytes: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
        depth: u32,
    ) -> Vec<usize> {
        let Some((owner, name, desc)) = member(refs, ins[i].arg) else {
            return Vec::new();
        };
        let kinds = param_kinds(desc);
        if !kinds.iter().any(|&k| k == b'I' || k == b'J') {
            return Vec::new();
        }
        let callee = self.params(owner, name, desc, bytes, depth + 1);
        callee
            .iter()
            .enumerate()
            .filter(|&(_, &s)| s)
            .filter_map(|(k, _)| pusher(ins, i, kinds.len() - k))
            .collect()
    }
}

/// Locals a parameter's value is stored into (`int tableSize = closedTableSize(n, 1.0)`)
/// count as that parameter, in code order (a later store of something else is not seen).
fn copied_params(ins: &[Ins], slots: &mut Vec<Option<usize>>, refs: &CodeRefs) {
    for i in 1..ins.len() {
        let slot = match ins[i].op {
            0x36 | 0x37 => ins[i].arg.first().map(|&s| s as usize), // istore, lstore
            op @ 0x3b..=0x3e => Some((op - 0x3b) as usize),         // istore_n
            op @ 0x3f..=0x42 => Some((op - 0x3f) as usize),         // lstore_n
            _ => None,
        };
        let from = Body {
            ins,
            slots: slots.as_slice(),
            refs,
        }
        .origin(i - 1, 0);
        if let Some(slot) = slot
            && let Some(p) = from
        {
            if slots.len() <= slot {
                slots.resize(slot + 1, None);
            }
            slots[slot] = Some(p);
        }
    }
}

/// The instruction that pushed the `back`-th value below the top of the stack before
/// instruction `i` (1: the top), when every instruction in between pushes exactly one value.
fn pusher(ins: &[Ins], i: usize, back: usize) -> Option<usize> {
    let j = i.checked_sub(back)?;
    (j + 1..i).all(|k| pushes_one(ins[k].op)).then_some(j)
}

/// Loads and constants: instructions that push one value and pop none.
fn pushes_one(op: u8) -> bool {
    matches!(op, 0x01..=0x19 | 0x1a..=0x2d | 0xb2 | 0xbb)
}

/// A method body being read: its instructions, which parameter each local slot holds, and
/// the methods its calls name.
struct Body<'a, 'b> {
    ins: &'b [Ins<'a>],
    slots: &'b [Option<usize>],
    refs: &'b CodeRefs,
}

impl Body<'_, '_> {
    /// The parameter whose value instruction `j` pushes (directly, widened, with a constant
    /// added or shifted, or through a static helper returning a number), if any.
    fn origin(&self, j: usize, depth: u32) -> Option<usize> {
        if depth > 4 {
            return None;
        }
        let ins = self.ins;
        let slot = match ins[j].op {
            0x15 | 0x16 => ins[j].arg.first().map(|&s| s as usize), // iload, lload
            op @ 0x1a..=0x1d => Some((op - 0x1a) as usize),         // iload_n
            op @ 0x1e..=0x21 => Some((op - 0x1e) as usize),         // lload_n
            0x85 | 0x88 => return self.origin(j.checked_sub(1)?, depth + 1), // i2l, l2i
            // iadd, ladd, isub, lsub, imul, lmul, ishl, lshl: one side a constant
            0x60 | 0x61 | 0x64 | 0x65 | 0x68 | 0x69 | 0x78 | 0x79 => {
                let b = j.checked_sub(1)?;
                return if is_const(ins[b].op) {
                    self.origin(b.checked_sub(1)?, depth + 1)
                } else if b >= 1 && is_const(ins[b - 1].op) {
                    self.origin(b, depth + 1)
                } else {
                    None
                };
            }
            0xb8 => return self.through_helper(j, depth),
            _ => None,
        }?;
        self.slots.get(slot).copied().flatten()
    }

    /// A static helper returning an `int` or `long` (`checkNonnegative(n, "n")`,
    /// `Math.max(n, 16)`): the parameter its first numeric argument comes from.
    fn through_helper(&self, j: usize, depth: u32) -> Option<usize> {
        let (_, _, desc) = member(self.refs, self.ins[j].arg)?;
        if !(desc.ends_with(")I") || desc.ends_with(")J")) {
            return None;
        }
        let kinds = param_kinds(desc);
        let k = kinds.iter().position(|&c| c == b'I' || c == b'J')?;
        self.origin(pusher(self.ins, j, kinds.len() - k)?, depth + 1)
    }
}

/// The method an invoke instruction's operand names.
fn member<'r>(refs: &'r CodeRefs, arg: &[u8]) -> Option<&'r MethodKey> {
    let idx = u16::from_be_bytes([*arg.first()?, *arg.get(1)?]);
    refs.get(&idx)
}

/// iconst_*, lconst_*, bipush, sipush, ldc*.
fn is_const(op: u8) -> bool {
    matches!(op, 0x02..=0x0a | 0x10..=0x14)
}

/// The first byte of each parameter's descriptor (`L` and `[` for references).
fn param_kinds(desc: &str) -> Vec<u8> {
    let b = desc.as_bytes();
    let mut out = Vec::new();
    let mut i = 1;
    while i < b.len() && b[i] != b')' {
        let start = i;
        while b[i] == b'[' {
            i += 1;
        }
        if b[i] == b'L' {
            while i < b.len() && b[i] != b';' {
                i += 1;
            }
        }
        out.push(if b[start] == b'[' { b'[' } else { b[start] });
        i += 1;
    }
    out
}

/// For each local slot, the `int` or `long` parameter it holds (receiver excluded).
fn param_slots(kinds: &[u8], is_static: bool) -> Vec<Option<usize>> {
    let mut slots = if is_static { Vec::new() } else { vec![None] };
    for (p, &k) in kinds.iter().enumerate() {
        let numeric = k == b'I' || k == b'J';
        slots.push(numeric.then_some(p));
        if k == b'J' || k == b'D' {
            slots.push(None);
        }
    }
    slots
}

/// The methods of a class file and the calls their code makes, `None` when it cannot be read.
fn read_class(bytes: &[u8]) -> Option<ClassInfo> {
    let cf = parse_class(bytes).ok()?;
    let mut methods = Vec::new();
    let mut refs = HashMap::new();
    for m in &cf.methods {
        let code = m
            .attrs
            .iter()
            .find(|a| cf.cp.utf8_at(a.name).is_ok_and(|s| s == "Code"))
            .map(|a| a.body.to_vec());
        if let Some(c) = &code
            && let Ok((body, ops)) = super::code::opcodes(c)
        {
            for &(off, op) in &ops {
                let at = off as usize + 1;
                if (0xb6..=0xb9).contains(&op) && at + 2 <= body.len() {
                    let idx = u16::from_be_bytes([body[at], body[at + 1]]);
                    if let Some((o, n, d)) = cf.cp.ref_at(idx) {
                        refs.insert(idx, (o.to_string(), n.to_string(), d.to_string()));
                    }
                }
            }
        }
        methods.push(Method {
            name: cf.cp.utf8_at(m.name).ok()?.to_string(),
            desc: cf.cp.utf8_at(m.desc).ok()?.to_string(),
            is_static: m.access & 0x0008 != 0,
            code,
        });
    }
    Some(ClassInfo {
        methods,
        refs: Rc::new(refs),
    })
}
