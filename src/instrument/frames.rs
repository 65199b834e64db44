//! StackMapTable decoding into explicit frames and re-encoding as `full_frame`s.
//!
//! Frames are expanded because the instrumenter inserts new frames (for trampolines) between
//! existing ones, which would break the delta encoding (`same`, `chop`, `append` are relative
//! to the previous frame). Re-encoding every frame as `full_frame` is always valid and keeps
//! the code simple; it costs a few bytes per frame.

use super::classfile::{ConstPool, Reader, put_u2};
use anyhow::{Context, Result, bail};

/// A verification type. `ObjectName` only appears in the implicit initial frame (built from
/// the method descriptor) and is turned into a Class constant when encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum VType {
    Top,
    Integer,
    Float,
    Double,
    Long,
    Null,
    UninitializedThis,
    Object(u16),
    ObjectName(String),
    /// Offset (in the original code) of the `new` instruction.
    Uninitialized(u32),
}

#[derive(Clone, Debug)]
pub(crate) struct Frame {
    pub(crate) locals: Vec<VType>,
    pub(crate) stack: Vec<VType>,
}

/// The implicit frame at offset 0, from the method's descriptor.
pub(crate) fn initial_frame(
    is_static: bool,
    is_init: bool,
    this_class: u16,
    this_is_object: bool,
    desc: &str,
) -> Result<Frame> {
    let mut locals = Vec::new();
    if !is_static {
        if is_init && !this_is_object {
            locals.push(VType::UninitializedThis);
        } else {
            locals.push(VType::Object(this_class));
        }
    }
    let b = desc.as_bytes();
    if b.first() != Some(&b'(') {
        bail!("malformed method descriptor {desc:?}");
    }
    let mut i = 1;
    while i < b.len() && b[i] != b')' {
        let start = i;
        while i < b.len() && b[i] == b'[' {
            i += 1;
        }
        let Some(&c) = b.get(i) else {
            bail!("malformed method descriptor {desc:?}");
        };
        if c == b'L' {
            while i < b.len() && b[i] != b';' {
                i += 1;
            }
            if i >= b.len() {
                bail!("malformed method descriptor {desc:?}");
            }
        }
        i += 1;
        let t = if start != i - 1 || c == b'L' {
            // array or object
            let s = &desc[start..i];
            if b[start] == b'[' {
                VType::ObjectName(s.to_string())
            } else {
                VType::ObjectName(s[1..s.len() - 1].to_string())
            }
        } else {
            match c {
                b'B' | b'C' | b'I' | b'S' | b'Z' => VType::Integer,
                b'F' => VType::Float,
                b'J' => VType::Long,
                b'D' => VType::Double,
                _ => bail!("malformed method descriptor {desc:?}"),
            }
        };
        locals.push(t);
    }
    if i >= b.len() {
        bail!("malformed method descriptor {desc:?}");
    }
    Ok(Frame {
        locals,
        stack: vec![],
    })
}

fn read_vtype(r: &mut Reader) -> Result<VType> {
    Ok(match r.u1()? {
        0 => VType::Top,
        1 => VType::Integer,
        2 => VType::Float,
        3 => VType::Double,
        4 => VType::Long,
        5 => VType::Null,
        6 => VType::UninitializedThis,
        7 => VType::Object(r.u2()?),
        8 => VType::Uninitialized(r.u2()? as u32),
        t => bail!("unknown verification type tag {t}"),
    })
}

fn read_vtypes(r: &mut Reader, n: usize) -> Result<Vec<VType>> {
    (0..n).map(|_| read_vtype(r)).collect()
}

/// Decodes a StackMapTable body into (original offset, frame) pairs.
pub(crate) fn decode(body: &[u8], initial: &Frame) -> Result<Vec<(u32, Frame)>> {
    let mut r = Reader::new(body);
    let n = r.u2()?;
    let mut out: Vec<(u32, Frame)> = Vec::with_capacity(n as usize);
    let mut prev = initial.clone();
    for k in 0..n {
        let tag = r.u1()?;
        let (delta, frame) = match tag {
            0..=63 => (
                tag as u32,
                Frame {
                    locals: prev.locals.clone(),
                    stack: vec![],
                },
            ),
            64..=127 => (
                (tag - 64) as u32,
                Frame {
                    locals: prev.locals.clone(),
                    stack: vec![read_vtype(&mut r)?],
                },
            ),
            247 => {
                let d = r.u2()? as u32;
                (
                    d,
                    Frame {
                        locals: prev.locals.clone(),
                        stack: vec![read_vtype(&mut r)?],
                    },
                )
            }
            248..=250 => {
                let d = r.u2()? as u32;
                let k = (251 - tag) as usize;
                if k > prev.locals.len() {
                    bail!(
                        "chop_frame removes {k} locals but only {} exist",
                        prev.locals.len()
                    );
                }
                let mut locals = prev.locals.clone();
                locals.truncate(prev.locals.len() - k);
                (
                    d,
                    Frame {
                        locals,
                        stack: vec![],
                    },
                )
            }
            251 => (
                r.u2()? as u32,
                Frame {
                    locals: prev.locals.clone(),
                    stack: vec![],
                },
            ),
            252..=254 => {
                let d = r.u2()? as u32;
                let mut locals = prev.locals.clone();
                locals.extend(read_vtypes(&mut r, (tag - 251) as usize)?);
                (
                    d,
                    Frame {
                        locals,
                        stack: vec![],
                    },
                )
            }
            255 => {
                let d = r.u2()? as u32;
                let nl = r.u2()? as usize;
                let locals = read_vtypes(&mut r, nl)?;
                let ns = r.u2()? as usize;
                let stack = read_vtypes(&mut r, ns)?;
                (d, Frame { locals, stack })
            }
            t => bail!("reserved stack-map frame type {t} in frame {k}"),
        };
        let off = match out.last() {
            None => delta,
            Some((p, _)) => p + delta + 1,
        };
        prev = frame.clone();
        out.push((off, frame));
    }
    if r.remaining() != 0 {
        bail!("{} trailing bytes in StackMapTable", r.remaining());
    }
    Ok(out)
}

fn write_vtype(
    out: &mut Vec<u8>,
    t: &VType,
    cp: &mut ConstPool,
    remap: &dyn Fn(u32) -> Result<u32>,
) -> Result<()> {
    match t {
        VType::Top => out.push(0),
        VType::Integer => out.push(1),
        VType::Float => out.push(2),
        VType::Double => out.push(3),
        VType::Long => out.push(4),
        VType::Null => out.push(5),
        VType::UninitializedThis => out.push(6),
        VType::Object(i) => {
            out.push(7);
            put_u2(out, *i);
        }
        VType::ObjectName(n) => {
            out.push(7);
            put_u2(out, cp.class(n)?);
        }
        VType::Uninitialized(o) => {
            out.push(8);
            let n = remap(*o)?;
            put_u2(
                out,
                u16::try_from(n).context("Uninitialized offset beyond 65535")?,
            );
        }
    }
    Ok(())
}

/// Encodes frames (sorted by new offset, strictly increasing) as full frames.
/// `remap` maps the original offset of a `new` instruction to its new offset.
pub(crate) fn encode(
    frames: &[(u32, &Frame)],
    cp: &mut ConstPool,
    remap: &dyn Fn(u32) -> Result<u32>,
) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    put_u2(
        &mut out,
        u16::try_from(frames.len()).context("too many stack-map frames")?,
    );
    let mut prev: Option<u32> = None;
    for (off, f) in frames {
        let delta = match prev {
            None => *off,
            Some(p) => {
                if *off <= p {
                    bail!("internal error: stack-map frames out of order ({p} then {off})");
                }
                off - p - 1
            }
        };
        prev = Some(*off);
        out.push(255);
        put_u2(
            &mut out,
            u16::try_from(delta).context("stack-map offset beyond 65535")?,
        );
        put_u2(&mut out, f.locals.len() as u16);
        for t in &f.locals {
            write_vtype(&mut out, t, cp, remap)?;
        }
        put_u2(&mut out, f.stack.len() as u16);
        for t in &f.stack {
            write_vtype(&mut out, t, cp, remap)?;
        }
    }
    Ok(out)
}
