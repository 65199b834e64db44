//! The messages around execution: HELLO and the version check, REGISTER and REGISTERED
//! (operations resolved once per worker), and the requests for a JDK class's bytes or a
//! package's classes.

use super::consts::{
    BYTES, HELLO, LIST, MAGIC, OP_CTOR, OP_FGET, OP_FSET, OP_METHOD, OP_SFGET, OP_SFSET,
    OP_SMETHOD, REGISTER, REGISTERED, VERSION,
};
use super::frame::{Dec, Enc, expect_tag};
use crate::sequence::{OpId, OpKind, Operation};
use anyhow::{Result, bail};

pub fn op_kind_code(k: OpKind) -> u8 {
    match k {
        OpKind::Constructor => OP_CTOR,
        OpKind::Method => OP_METHOD,
        OpKind::StaticMethod => OP_SMETHOD,
        OpKind::FieldGet => OP_FGET,
        OpKind::StaticFieldGet => OP_SFGET,
        OpKind::FieldSet => OP_FSET,
        OpKind::StaticFieldSet => OP_SFSET,
    }
}

/// REGISTER: ops `first..first+ops.len()`.
pub fn encode_register(first: u32, ops: &[Operation]) -> Vec<u8> {
    let mut e = Enc::frame(REGISTER);
    e.u32(first);
    e.u32(ops.len() as u32);
    for op in ops {
        e.u8(op_kind_code(op.kind));
        e.str(&op.class);
        e.str(&op.name);
        e.str(&op.descriptor);
    }
    e.finish()
}

/// REGISTERED payload -> failed ops with reasons.
pub fn decode_registered(payload: &[u8]) -> Result<Vec<(OpId, String)>> {
    let mut d = Dec::new(payload);
    expect_tag(&mut d, REGISTERED)?;
    let n = d.u32()?;
    let mut v = Vec::new();
    for _ in 0..n {
        let id = d.u32()?;
        v.push((id, d.str()?));
    }
    Ok(v)
}

/// What a worker says first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hello {
    /// The protocol version of the worker jar.
    pub version: u16,
    pub pid: u64,
}

/// HELLO payload -> the worker's protocol version and pid (see [`check_version`]).
pub fn decode_hello(payload: &[u8]) -> Result<Hello> {
    let mut d = Dec::new(payload);
    expect_tag(&mut d, HELLO)?;
    let magic = d.u32()?;
    if magic != MAGIC {
        bail!("not a jforge worker (magic {magic:#x})");
    }
    let version = d.u16()?;
    Ok(Hello {
        version,
        pid: d.u64()?,
    })
}

/// Refuses a worker jar of another protocol version than this jforge's. The jar is unpacked
/// under a name holding the hash of its bytes, so this means the file at `jar` is not the one
/// this binary embeds (replaced, or unpacked by another build that hashed the same).
pub fn check_version(version: u16, jar: &std::path::Path) -> Result<()> {
    if version != VERSION {
        bail!(
            "worker jar protocol {version}, jforge expects {VERSION}: the cached worker jar is \
             stale; remove {} (jforge unpacks a fresh one on the next run) or rebuild jforge",
            jar.display()
        );
    }
    Ok(())
}

pub fn encode_str_request(tag: u8, s: &str) -> Vec<u8> {
    let mut e = Enc::frame(tag);
    e.str(s);
    e.finish()
}

pub fn decode_bytes(payload: &[u8]) -> Result<Option<Vec<u8>>> {
    let mut d = Dec::new(payload);
    expect_tag(&mut d, BYTES)?;
    if d.u8()? == 0 {
        return Ok(None);
    }
    let n = d.u32()? as usize;
    Ok(Some(d.bytes(n)?.to_vec()))
}

pub fn decode_list(payload: &[u8]) -> Result<Vec<String>> {
    let mut d = Dec::new(payload);
    expect_tag(&mut d, LIST)?;
    let n = d.u32()?;
    (0..n).map(|_| d.str()).collect()
}
