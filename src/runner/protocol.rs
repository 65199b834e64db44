//! The binary protocol between jforge and its worker JVMs (the Java side is
//! worker/jforge/worker/Worker.java; keep both in step and bump [`VERSION`] on any change).
//!
//! Why binary and why this shape: the runner's throughput target is ~10,000 sequences/s, so a
//! request carries only integers (operation ids registered once, statement indices) and type
//! descriptors go through a per-worker string table; results name classes through a second
//! per-worker table built by the worker. Every frame is `u32 length` (big-endian, as Java's
//! DataOutputStream) followed by the payload whose first byte is the message tag.
//!
//! String tables: a string reference is a `u32` id; an id equal to the current table size
//! defines the next entry and is followed by the string (`u32` byte length + UTF-8).

use crate::runner::{
    Bulk, BulkForm, Contract, ContractViolation, CrashKind, ExecMode, ExecRequest, FormValue,
    Observed, ObserverValue, Reuse, SeqResult, StmtOutcome,
};
use crate::sequence::{OpId, OpKind, Operation, Stmt, Value};
use anyhow::{Result, bail};
use std::collections::HashMap;
use std::io::{Read, Write};
use std::sync::Arc;

pub const MAGIC: u32 = 0x4A46_5247;
pub const VERSION: u16 = 1;

pub const REGISTER: u8 = 1;
pub const EXEC: u8 = 2;
pub const CLASS_BYTES: u8 = 3;
pub const LIST_CLASSES: u8 = 4;
pub const SHUTDOWN: u8 = 5;

pub const HELLO: u8 = 0x10;
pub const REGISTERED: u8 = 0x11;
pub const RESULT: u8 = 0x12;
pub const BYTES: u8 = 0x13;
pub const LIST: u8 = 0x14;

/// Largest frame accepted (guards against garbage lengths).
pub const MAX_FRAME: usize = 1 << 30;

const O_NOTRUN: u8 = 0;
const O_VOID: u8 = 1;
const O_NULL: u8 = 2;
const O_VALUE: u8 = 3;
const O_OBJECT: u8 = 4;
const O_EXC: u8 = 5;
const O_TIMEOUT: u8 = 6;
const O_CRASH: u8 = 7;

/// Growable big-endian encoder.
#[derive(Default, Debug, Clone)]
pub struct Enc {
    pub buf: Vec<u8>,
}

impl Enc {
    pub fn new() -> Enc {
        Enc {
            buf: Vec::with_capacity(256),
        }
    }
    /// A frame under construction: 4 bytes reserved for the length, then the tag.
    pub fn frame(tag: u8) -> Enc {
        let mut e = Enc {
            buf: Vec::with_capacity(256),
        };
        e.buf.extend_from_slice(&[0, 0, 0, 0, tag]);
        e
    }
    /// Fills in the length prefix and returns the bytes.
    pub fn finish(mut self) -> Vec<u8> {
        let len = (self.buf.len() - 4) as u32;
        self.buf[..4].copy_from_slice(&len.to_be_bytes());
        self.buf
    }
    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }
    pub fn u16(&mut self, v: u16) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }
    pub fn u32(&mut self, v: u32) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }
    pub fn i32(&mut self, v: i32) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }
    pub fn u64(&mut self, v: u64) {
        self.buf.extend_from_slice(&v.to_be_bytes());
    }
    pub fn str(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.buf.extend_from_slice(s.as_bytes());
    }
    pub fn bytes(&mut self, b: &[u8]) {
        self.buf.extend_from_slice(b);
    }
}

/// Decoder over one frame's payload; every read checks bounds.
pub struct Dec<'a> {
    pub b: &'a [u8],
    pub pos: usize,
}

impl<'a> Dec<'a> {
    pub fn new(b: &'a [u8]) -> Dec<'a> {
        Dec { b, pos: 0 }
    }
    fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        if self.b.len() - self.pos < n {
            bail!(
                "truncated frame: need {n} bytes at offset {}, {} left",
                self.pos,
                self.b.len() - self.pos
            );
        }
        let s = &self.b[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }
    pub fn u8(&mut self) -> Result<u8> {
        Ok(self.take(1)?[0])
    }
    pub fn u16(&mut self) -> Result<u16> {
        Ok(u16::from_be_bytes(self.take(2)?.try_into()?))
    }
    pub fn u32(&mut self) -> Result<u32> {
        Ok(u32::from_be_bytes(self.take(4)?.try_into()?))
    }
    pub fn i32(&mut self) -> Result<i32> {
        Ok(i32::from_be_bytes(self.take(4)?.try_into()?))
    }
    pub fn u64(&mut self) -> Result<u64> {
        Ok(u64::from_be_bytes(self.take(8)?.try_into()?))
    }
    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        self.take(n)
    }
    pub fn str(&mut self) -> Result<String> {
        let n = self.u32()? as usize;
        let b = self.take(n)?;
        Ok(String::from_utf8(b.to_vec())?)
    }
    pub fn at_end(&self) -> bool {
        self.pos == self.b.len()
    }
}

/// Reads one frame (without its length prefix).
pub fn read_frame(r: &mut impl Read) -> std::io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_be_bytes(len) as usize;
    if len > MAX_FRAME || len == 0 {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("bad frame length {len}"),
        ));
    }
    let mut buf = vec![0u8; len];
    r.read_exact(&mut buf)?;
    Ok(buf)
}

pub fn write_frame(w: &mut impl Write, frame: &[u8]) -> std::io::Result<()> {
    w.write_all(frame)?;
    w.flush()
}

pub fn op_kind_code(k: OpKind) -> u8 {
    match k {
        OpKind::Constructor => 0,
        OpKind::Method => 1,
        OpKind::StaticMethod => 2,
        OpKind::FieldGet => 3,
        OpKind::StaticFieldGet => 4,
        OpKind::FieldSet => 5,
        OpKind::StaticFieldSet => 6,
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

pub fn expect_tag(d: &mut Dec, tag: u8) -> Result<()> {
    let t = d.u8()?;
    if t != tag {
        bail!("protocol error: expected message {tag:#x}, got {t:#x}");
    }
    Ok(())
}

/// HELLO payload -> worker pid.
pub fn decode_hello(payload: &[u8]) -> Result<u64> {
    let mut d = Dec::new(payload);
    expect_tag(&mut d, HELLO)?;
    let magic = d.u32()?;
    let version = d.u16()?;
    if magic != MAGIC {
        bail!("not a jforge worker (magic {magic:#x})");
    }
    if version != VERSION {
        bail!(
            "worker protocol version {version}, expected {VERSION}: stale worker jar in the cache?"
        );
    }
    d.u64()
}

/// Rust-side string table of type descriptors sent to one worker.
#[derive(Default, Debug)]
pub struct TypeTable {
    ids: HashMap<String, u32>,
}

impl TypeTable {
    fn id(&mut self, desc: String, new: &mut Vec<String>) -> u32 {
        if let Some(&id) = self.ids.get(&desc) {
            return id;
        }
        let id = self.ids.len() as u32;
        new.push(desc.clone());
        self.ids.insert(desc, id);
        id
    }
}

pub fn encode_value(e: &mut Enc, v: &Value) {
    match v {
        Value::Null => e.u8(0),
        Value::Bool(b) => {
            e.u8(1);
            e.u8(*b as u8)
        }
        Value::Byte(x) => {
            e.u8(2);
            e.u8(*x as u8)
        }
        Value::Short(x) => {
            e.u8(3);
            e.u16(*x as u16)
        }
        Value::Char(x) => {
            e.u8(4);
            e.u16(*x)
        }
        Value::Int(x) => {
            e.u8(5);
            e.i32(*x)
        }
        Value::Long(x) => {
            e.u8(6);
            e.u64(*x as u64)
        }
        Value::Float(x) => {
            e.u8(7);
            e.u32(*x)
        }
        Value::Double(x) => {
            e.u8(8);
            e.u64(*x)
        }
        Value::Str(s) => {
            e.u8(9);
            e.str(s)
        }
        Value::Enum(c, n) => {
            e.u8(10);
            e.str(c);
            e.str(n)
        }
    }
}

pub fn decode_value(d: &mut Dec) -> Result<Value> {
    Ok(match d.u8()? {
        0 => Value::Null,
        1 => Value::Bool(d.u8()? != 0),
        2 => Value::Byte(d.u8()? as i8),
        3 => Value::Short(d.u16()? as i16),
        4 => Value::Char(d.u16()?),
        5 => Value::Int(d.i32()?),
        6 => Value::Long(d.u64()? as i64),
        7 => Value::Float(d.u32()?),
        8 => Value::Double(d.u64()?),
        9 => Value::Str(d.str()?),
        10 => Value::Enum(d.str()?, d.str()?),
        t => bail!("protocol error: bad value tag {t}"),
    })
}

/// EXEC: sequences with batch-local tags. Types go through `types`, extended as needed.
pub fn encode_exec<'a>(
    types: &mut TypeTable,
    reqs: impl IntoIterator<Item = (u32, &'a ExecRequest)>,
) -> Vec<u8> {
    let mut body = Enc::new();
    let mut new = Vec::new();
    let mut n = 0u32;
    for (tag, r) in reqs {
        n += 1;
        body.u32(tag);
        if let Some(b) = r.reuse.as_ref().and_then(|x| x.bulk.as_ref()) {
            encode_bulk(&mut body, types, &mut new, r.reuse.as_deref(), b);
            continue;
        }
        body.u8(match r.mode {
            ExecMode::Generate => 0,
            ExecMode::Observe => 1,
            // jforge exhaustive (worker: Worker.canon / Canon.java)
            ExecMode::Canon => 2,
        });
        body.u32(r.seq.stmts.len() as u32);
        let protos: &[(u32, u32)] = r.reuse.as_ref().map_or(&[], |x| &x.protos);
        for (i, s) in r.seq.stmts.iter().enumerate() {
            if let Some(&(_, id)) = protos.iter().find(|p| p.0 as usize == i) {
                body.u8(3);
                body.u32(id);
                continue;
            }
            match s {
                Stmt::Call { op, args } => {
                    body.u8(0);
                    body.u32(*op);
                    body.u32(args.len() as u32);
                    args.iter().for_each(|a| body.u32(*a));
                }
                Stmt::Lit { ty, value } => {
                    body.u8(1);
                    body.u32(types.id(ty.descriptor(), &mut new));
                    encode_value(&mut body, value);
                }
                Stmt::Array { elem, elems } => {
                    body.u8(2);
                    body.u32(types.id(elem.descriptor(), &mut new));
                    body.u32(elems.len() as u32);
                    elems.iter().for_each(|a| body.u32(*a));
                }
            }
        }
        body.u32(r.contract_values.len() as u32);
        r.contract_values.iter().for_each(|c| body.u32(*c));
        let obs: &[(u32, OpId)] = if r.mode != ExecMode::Generate {
            &r.observers
        } else {
            &[]
        };
        body.u32(obs.len() as u32);
        for (s, o) in obs {
            body.u32(*s);
            body.u32(*o);
        }
        if r.mode == ExecMode::Canon {
            let none = Reuse::default();
            let x = r.reuse.as_deref().unwrap_or(&none);
            body.u32(x.retain);
            encode_promotions(&mut body, x);
        }
    }
    let mut e = Enc::frame(EXEC);
    e.u32(new.len() as u32);
    new.iter().for_each(|s| e.str(s));
    e.u32(n);
    e.bytes(&body.buf);
    e.finish()
}

/// Promotions (candidate -> prototype) and the forget bound of a request (worker:
/// Worker.readPromotions).
fn encode_promotions(body: &mut Enc, x: &Reuse) {
    body.u32(x.promote.len() as u32);
    for (c, s, id) in &x.promote {
        body.u32(*c);
        body.u32(*s);
        body.u32(*id);
    }
    body.u32(x.forget_upto);
}

/// A bulk request (mode 3; worker: Worker.runBulk).
fn encode_bulk(
    body: &mut Enc,
    types: &mut TypeTable,
    new: &mut Vec<String>,
    reuse: Option<&Reuse>,
    b: &Bulk,
) {
    body.u8(3);
    body.u32(b.lits.len() as u32);
    for l in &b.lits {
        match l {
            Stmt::Lit { ty, value } => {
                body.u32(types.id(ty.descriptor(), new));
                encode_value(body, value);
            }
            _ => {
                // only literals belong in the table; anything else travels as null
                body.u32(types.id("Ljava/lang/Object;".to_string(), new));
                encode_value(body, &Value::Null);
            }
        }
    }
    body.u32(b.retain_base);
    encode_promotions(body, reuse.unwrap_or(&Reuse::default()));
    body.u32(b.tasks.len() as u32);
    for t in &b.tasks {
        body.u32(t.proto);
        body.u32(t.op);
        body.u8(t.pos);
        body.u8(t.lits.len() as u8 + 1);
        t.lits.iter().for_each(|l| body.u32(*l));
        body.u8(t.canon_result as u8);
    }
}

/// A statement as it travels (types as descriptors); used to check the encoder.
#[derive(Clone, Debug, PartialEq)]
pub enum WireStmt {
    Call {
        op: u32,
        args: Vec<u32>,
    },
    /// A deep copy of a prototype (exhaustive prototype reuse).
    Proto {
        id: u32,
    },
    Lit {
        ty: String,
        value: Value,
    },
    Array {
        elem: String,
        elems: Vec<u32>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct WireSeq {
    pub tag: u32,
    pub observe: bool,
    pub stmts: Vec<WireStmt>,
    pub contract_values: Vec<u32>,
    pub observers: Vec<(u32, u32)>,
    /// Canon mode only: retain id, promotions, forget bound.
    pub reuse: Option<Reuse>,
}

/// Decodes an EXEC payload against the receiver's string table `strings` (what the worker does).
pub fn decode_exec(payload: &[u8], strings: &mut Vec<String>) -> Result<Vec<WireSeq>> {
    let mut d = Dec::new(payload);
    expect_tag(&mut d, EXEC)?;
    for _ in 0..d.u32()? {
        strings.push(d.str()?);
    }
    let str_at = |strings: &Vec<String>, id: u32| {
        strings
            .get(id as usize)
            .cloned()
            .ok_or_else(|| anyhow::anyhow!("unknown string id {id}"))
    };
    let n = d.u32()?;
    let mut out = Vec::new();
    for _ in 0..n {
        let tag = d.u32()?;
        let mode = d.u8()?;
        if mode == 3 {
            bail!("bulk requests (mode 3) are not decoded here");
        }
        let observe = mode == 1;
        let ns = d.u32()?;
        let mut stmts = Vec::new();
        for _ in 0..ns {
            stmts.push(match d.u8()? {
                0 => {
                    let op = d.u32()?;
                    let na = d.u32()?;
                    let args = (0..na).map(|_| d.u32()).collect::<Result<_>>()?;
                    WireStmt::Call { op, args }
                }
                1 => {
                    let ty = str_at(strings, d.u32()?)?;
                    WireStmt::Lit {
                        ty,
                        value: decode_value(&mut d)?,
                    }
                }
                2 => {
                    let elem = str_at(strings, d.u32()?)?;
                    let na = d.u32()?;
                    let elems = (0..na).map(|_| d.u32()).collect::<Result<_>>()?;
                    WireStmt::Array { elem, elems }
                }
                3 => WireStmt::Proto { id: d.u32()? },
                t => bail!("bad statement kind {t}"),
            });
        }
        let ncv = d.u32()?;
        let contract_values = (0..ncv).map(|_| d.u32()).collect::<Result<_>>()?;
        let nobs = d.u32()?;
        let observers = (0..nobs)
            .map(|_| Ok((d.u32()?, d.u32()?)))
            .collect::<Result<_>>()?;
        let reuse = if mode == 2 {
            let retain = d.u32()?;
            let np = d.u32()?;
            let promote = (0..np)
                .map(|_| Ok((d.u32()?, d.u32()?, d.u32()?)))
                .collect::<Result<_>>()?;
            let protos = stmts
                .iter()
                .enumerate()
                .filter_map(|(i, s)| match s {
                    WireStmt::Proto { id } => Some((i as u32, *id)),
                    _ => None,
                })
                .collect();
            Some(Reuse {
                protos,
                retain,
                promote,
                forget_upto: d.u32()?,
                bulk: None,
            })
        } else {
            None
        };
        out.push(WireSeq {
            tag,
            observe,
            stmts,
            contract_values,
            observers,
            reuse,
        });
    }
    if !d.at_end() {
        bail!("trailing bytes in EXEC frame");
    }
    Ok(out)
}

/// Rust-side copy of a worker's class-name table.
#[derive(Default, Debug, Clone)]
pub struct ClassTable {
    pub names: Vec<Arc<str>>,
}

impl ClassTable {
    pub fn read(&mut self, d: &mut Dec) -> Result<Arc<str>> {
        let id = d.u32()? as usize;
        if id == self.names.len() {
            let s: Arc<str> = d.str()?.into();
            self.names.push(s.clone());
            Ok(s)
        } else {
            self.names
                .get(id)
                .cloned()
                .ok_or_else(|| anyhow::anyhow!("protocol error: unknown class id {id}"))
        }
    }
}

/// Encoder-side class table (the worker's role; used by tests and tools).
#[derive(Default, Debug)]
pub struct ClassEncTable {
    ids: HashMap<Arc<str>, u32>,
}

impl ClassEncTable {
    pub fn write(&mut self, e: &mut Enc, s: &Arc<str>) {
        if let Some(&id) = self.ids.get(s) {
            e.u32(id);
        } else {
            let id = self.ids.len() as u32;
            self.ids.insert(s.clone(), id);
            e.u32(id);
            e.str(s);
        }
    }
}

/// Decodes one outcome.
pub fn decode_outcome(d: &mut Dec, classes: &mut ClassTable) -> Result<StmtOutcome> {
    Ok(match d.u8()? {
        O_NOTRUN => StmtOutcome::NotRun,
        O_VOID => StmtOutcome::Normal(Observed::Void),
        O_NULL => StmtOutcome::Normal(Observed::Null),
        O_VALUE => StmtOutcome::Normal(Observed::Value(decode_value(d)?)),
        O_OBJECT => {
            let class = classes.read(d)?;
            let fingerprint = if d.u8()? != 0 { Some(d.u64()?) } else { None };
            StmtOutcome::Normal(Observed::Object { class, fingerprint })
        }
        O_EXC => {
            let class = classes.read(d)?;
            let public_class = classes.read(d)?;
            let message = if d.u8()? != 0 { Some(d.str()?) } else { None };
            StmtOutcome::Exception {
                class,
                public_class,
                message,
            }
        }
        O_TIMEOUT => StmtOutcome::Timeout,
        O_CRASH => {
            let kind = match d.u8()? {
                0 => CrashKind::Exited(if d.u8()? != 0 { Some(d.i32()?) } else { None }),
                1 => CrashKind::OutOfMemory,
                2 => CrashKind::StackOverflow,
                3 => CrashKind::LeakedThreads,
                4 => CrashKind::Unresponsive,
                t => bail!("bad crash kind {t}"),
            };
            StmtOutcome::Crash(kind)
        }
        t => bail!("protocol error: bad outcome tag {t}"),
    })
}

pub fn encode_outcome(e: &mut Enc, o: &StmtOutcome, classes: &mut ClassEncTable) {
    match o {
        StmtOutcome::NotRun => e.u8(O_NOTRUN),
        StmtOutcome::Normal(Observed::Void) => e.u8(O_VOID),
        StmtOutcome::Normal(Observed::Null) => e.u8(O_NULL),
        StmtOutcome::Normal(Observed::Value(v)) => {
            e.u8(O_VALUE);
            encode_value(e, v)
        }
        StmtOutcome::Normal(Observed::Object { class, fingerprint }) => {
            e.u8(O_OBJECT);
            classes.write(e, class);
            match fingerprint {
                Some(f) => {
                    e.u8(1);
                    e.u64(*f)
                }
                None => e.u8(0),
            }
        }
        StmtOutcome::Exception {
            class,
            public_class,
            message,
        } => {
            e.u8(O_EXC);
            classes.write(e, class);
            classes.write(e, public_class);
            match message {
                Some(m) => {
                    e.u8(1);
                    e.str(m)
                }
                None => e.u8(0),
            }
        }
        StmtOutcome::Timeout => e.u8(O_TIMEOUT),
        StmtOutcome::Crash(k) => {
            e.u8(O_CRASH);
            match k {
                CrashKind::Exited(c) => {
                    e.u8(0);
                    match c {
                        Some(c) => {
                            e.u8(1);
                            e.i32(*c)
                        }
                        None => e.u8(0),
                    }
                }
                CrashKind::OutOfMemory => e.u8(1),
                CrashKind::StackOverflow => e.u8(2),
                CrashKind::LeakedThreads => e.u8(3),
                CrashKind::Unresponsive => e.u8(4),
            }
        }
    }
}

pub fn contract_code(c: Contract) -> u8 {
    match c {
        Contract::EqualsReflexive => 0,
        Contract::EqualsNull => 1,
        Contract::EqualsSymmetric => 2,
        Contract::EqualsHashCode => 3,
        Contract::HashCodeThrows => 4,
        Contract::ToStringThrows => 5,
        Contract::CompareToReflexive => 6,
        Contract::CompareToAntisymmetric => 7,
    }
}

fn contract_from(c: u8) -> Result<Contract> {
    Ok(match c {
        0 => Contract::EqualsReflexive,
        1 => Contract::EqualsNull,
        2 => Contract::EqualsSymmetric,
        3 => Contract::EqualsHashCode,
        4 => Contract::HashCodeThrows,
        5 => Contract::ToStringThrows,
        6 => Contract::CompareToReflexive,
        7 => Contract::CompareToAntisymmetric,
        t => bail!("protocol error: bad contract {t}"),
    })
}

/// RESULT payload -> (batch-local tag, result).
pub fn decode_result(
    payload: &[u8],
    classes: &mut ClassTable,
    worker: usize,
) -> Result<(u32, SeqResult)> {
    let mut d = Dec::new(payload);
    expect_tag(&mut d, RESULT)?;
    let tag = d.u32()?;
    let n = d.u32()? as usize;
    let mut outcomes = Vec::with_capacity(n.min(1 << 16));
    for _ in 0..n {
        outcomes.push(decode_outcome(&mut d, classes)?);
    }
    let nv = d.u32()?;
    let mut violations = Vec::new();
    for _ in 0..nv {
        let contract = contract_from(d.u8()?)?;
        let a = d.u32()?;
        let b = d.i32()?;
        let detail = d.str()?;
        violations.push(ContractViolation {
            contract,
            a,
            b: (b >= 0).then_some(b as u32),
            detail,
        });
    }
    let no = d.u32()?;
    let mut observers = Vec::new();
    for _ in 0..no {
        let stmt = d.u32()?;
        let op = d.u32()?;
        let result = if d.u8()? != 0 {
            Ok(decode_value(&mut d)?)
        } else {
            Err(d.str()?)
        };
        observers.push(ObserverValue { stmt, op, result });
    }
    let forms = if d.pos < d.b.len() && d.b[d.pos] == FORMS_SECTION {
        d.u8()?;
        decode_forms(&mut d, classes)?
    } else {
        Vec::new()
    };
    let coverage = decode_coverage(&mut d)?;
    let (compared, compared_nums) = decode_compared(&mut d)?;
    if !d.at_end() {
        bail!("protocol error: trailing bytes in RESULT frame");
    }
    Ok((
        tag,
        SeqResult {
            outcomes,
            violations,
            observers,
            worker,
            coverage,
            compared,
            compared_nums,
            forms,
        },
    ))
}

/// The worker's RESULT encoding, for tests and tools.
pub fn encode_result(tag: u32, r: &SeqResult, classes: &mut ClassEncTable) -> Vec<u8> {
    let mut e = Enc::frame(RESULT);
    e.u32(tag);
    e.u32(r.outcomes.len() as u32);
    for o in &r.outcomes {
        encode_outcome(&mut e, o, classes);
    }
    e.u32(r.violations.len() as u32);
    for v in &r.violations {
        e.u8(contract_code(v.contract));
        e.u32(v.a);
        e.i32(v.b.map(|b| b as i32).unwrap_or(-1));
        e.str(&v.detail);
    }
    e.u32(r.observers.len() as u32);
    for o in &r.observers {
        e.u32(o.stmt);
        e.u32(o.op);
        match &o.result {
            Ok(v) => {
                e.u8(1);
                encode_value(&mut e, v)
            }
            Err(s) => {
                e.u8(0);
                e.str(s)
            }
        }
    }
    if !r.forms.is_empty() {
        e.u8(FORMS_SECTION);
        e.u32(r.forms.len() as u32);
        for f in &r.forms {
            e.u32(f.task);
            e.u8(f.which);
            match &f.form {
                FormValue::Hash(h) => {
                    e.u8(0);
                    e.u64((h >> 64) as u64);
                    e.u64(*h as u64);
                }
                FormValue::Text(t) => {
                    e.u8(1);
                    e.str(t);
                }
                FormValue::OutOfScope => e.u8(2),
                FormValue::Null => e.u8(3),
                FormValue::Error(m) => {
                    e.u8(4);
                    e.str(m);
                }
                FormValue::Violation(c, m) => {
                    e.u8(5);
                    e.u8(contract_code(*c));
                    e.str(m);
                }
            }
            if matches!(f.form, FormValue::Hash(_) | FormValue::Text(_)) {
                let c: Arc<str> = f.class.clone().unwrap_or_else(|| "?".into());
                classes.write(&mut e, &c);
            }
        }
    }
    if let Some(c) = &r.coverage {
        encode_coverage(&mut e, c);
        if !r.compared.is_empty() {
            e.u8(COMPARED_SECTION);
            put_varint(&mut e, r.compared.len() as u32);
            for s in &r.compared {
                e.str(s);
            }
        }
        if !r.compared_nums.is_empty() {
            e.u8(COMPARED_NUMS_SECTION);
            put_varint(&mut e, r.compared_nums.len() as u32);
            for &v in &r.compared_nums {
                let mut z = ((v << 1) ^ (v >> 63)) as u64;
                while z & !0x7F != 0 {
                    e.u8((z as u8 & 0x7F) | 0x80);
                    z >>= 7;
                }
                e.u8(z as u8);
            }
        }
    }
    e.finish()
}

/// Marker byte of the optional coverage section that ends a RESULT frame when the worker runs
/// instrumented classes (`-Djforge.cov.probes=N`); absent otherwise.
pub const COVERAGE_SECTION: u8 = 0xC0;

fn varint(d: &mut Dec) -> Result<u32> {
    u32::try_from(varint64(d)?).map_err(|_| anyhow::anyhow!("protocol error: varint too large"))
}

fn put_varint(e: &mut Enc, mut v: u32) {
    while v & !0x7F != 0 {
        e.u8((v as u8 & 0x7F) | 0x80);
        v >>= 7;
    }
    e.u8(v as u8);
}

/// Marker of the canonical-forms section of a bulk RESULT (exhaustive prototype reuse).
const FORMS_SECTION: u8 = 0xC2;

fn decode_forms(d: &mut Dec, classes: &mut ClassTable) -> Result<Vec<BulkForm>> {
    let n = d.u32()? as usize;
    let mut out = Vec::with_capacity(n.min(1 << 20));
    for _ in 0..n {
        let task = d.u32()?;
        let which = d.u8()?;
        let (form, has_class) = match d.u8()? {
            0 => {
                let hi = d.u64()? as u128;
                let lo = d.u64()? as u128;
                (FormValue::Hash(hi << 64 | lo), true)
            }
            1 => (FormValue::Text(d.str()?), true),
            2 => (FormValue::OutOfScope, false),
            3 => (FormValue::Null, false),
            4 => (FormValue::Error(d.str()?), false),
            5 => {
                let c = contract_from(d.u8()?)?;
                (FormValue::Violation(c, d.str()?), false)
            }
            k => bail!("protocol error: bad form kind {k}"),
        };
        let class = if has_class {
            Some(classes.read(d)?)
        } else {
            None
        };
        out.push(BulkForm {
            task,
            which,
            form,
            class,
        });
    }
    Ok(out)
}

/// The optional coverage section: marker, varint count, varint deltas of increasing ids.
fn decode_coverage(d: &mut Dec) -> Result<Option<Arc<[u32]>>> {
    if d.at_end() {
        return Ok(None);
    }
    if d.u8()? != COVERAGE_SECTION {
        bail!("protocol error: trailing bytes in RESULT frame");
    }
    let n = varint(d)? as usize;
    let mut ids = Vec::with_capacity(n.min(1 << 20));
    let mut prev = 0u32;
    for _ in 0..n {
        prev = prev
            .checked_add(varint(d)?)
            .ok_or_else(|| anyhow::anyhow!("protocol error: probe id overflow"))?;
        ids.push(prev);
    }
    Ok(Some(ids.into()))
}

/// Marker of the optional list of String operands compared by the classes under test (after
/// the coverage section).
pub const COMPARED_SECTION: u8 = 0xC1;

/// Marker of the optional list of int/long operands compared by the classes under test (after
/// the String list, when there is one): varint count, zigzag varint64 values, in pairs.
pub const COMPARED_NUMS_SECTION: u8 = 0xC3;

/// The optional comparison-logging sections that follow the coverage section: Strings
/// (0xC1), then numbers (0xC3); either may be absent (older workers send neither).
fn decode_compared(d: &mut Dec) -> Result<(Vec<String>, Vec<i64>)> {
    let mut strings = Vec::new();
    let mut nums = Vec::new();
    if d.at_end() {
        return Ok((strings, nums));
    }
    let mut marker = d.u8()?;
    if marker == COMPARED_SECTION {
        let n = varint(d)? as usize;
        strings = (0..n.min(1 << 16))
            .map(|_| d.str())
            .collect::<Result<_>>()?;
        if d.at_end() {
            return Ok((strings, nums));
        }
        marker = d.u8()?;
    }
    if marker != COMPARED_NUMS_SECTION {
        bail!("protocol error: trailing bytes in RESULT frame");
    }
    let n = varint(d)? as usize;
    nums.reserve(n.min(1 << 16));
    for _ in 0..n {
        let z = varint64(d)?;
        nums.push((z >> 1) as i64 ^ -((z & 1) as i64));
    }
    Ok((strings, nums))
}

fn varint64(d: &mut Dec) -> Result<u64> {
    let mut v: u64 = 0;
    for shift in (0..70).step_by(7) {
        let b = d.u8()?;
        v |= ((b & 0x7F) as u64) << shift;
        if b & 0x80 == 0 {
            return Ok(v);
        }
    }
    bail!("protocol error: varint too long")
}

fn encode_coverage(e: &mut Enc, ids: &[u32]) {
    e.u8(COVERAGE_SECTION);
    put_varint(e, ids.len() as u32);
    let mut prev = 0;
    for &id in ids {
        put_varint(e, id - prev);
        prev = id;
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{JType, Prim};
    use crate::sequence::Sequence;

    fn sample_requests() -> Vec<ExecRequest> {
        let seq = Sequence {
            stmts: vec![
                Stmt::Call {
                    op: 0,
                    args: vec![],
                },
                Stmt::Lit {
                    ty: JType::string(),
                    value: Value::Str("héllo".into()),
                },
                Stmt::Lit {
                    ty: JType::Prim(Prim::Int),
                    value: Value::Int(-7),
                },
                Stmt::Lit {
                    ty: JType::Prim(Prim::Double),
                    value: Value::double(f64::NAN),
                },
                Stmt::Array {
                    elem: JType::Prim(Prim::Int),
                    elems: vec![2, 2],
                },
                Stmt::Call {
                    op: 3,
                    args: vec![0, 1],
                },
                Stmt::Lit {
                    ty: JType::class("E"),
                    value: Value::Enum("E".into(), "A".into()),
                },
            ],
        };
        vec![
            ExecRequest {
                seq: Arc::new(seq.clone()),
                mode: ExecMode::Observe,
                contract_values: vec![0, 5],
                observers: vec![(0, 9)],
                reuse: None,
            },
            ExecRequest {
                seq: Arc::new(seq),
                mode: ExecMode::Generate,
                contract_values: vec![],
                observers: vec![(1, 2)],
                reuse: None,
            },
        ]
    }

    #[test]
    fn exec_round_trip_and_string_table_reuse() {
        let reqs = sample_requests();
        let mut tt = TypeTable::default();
        let f1 = encode_exec(&mut tt, reqs.iter().enumerate().map(|(i, r)| (i as u32, r)));
        let mut strings = Vec::new();
        let got = decode_exec(&f1[4..], &mut strings).unwrap();
        assert_eq!(got.len(), 2);
        assert!(got[0].observe && !got[1].observe);
        assert_eq!(got[0].observers, vec![(0, 9)]);
        // Generate mode sends no observers
        assert!(got[1].observers.is_empty());
        assert_eq!(got[0].contract_values, vec![0, 5]);
        assert_eq!(
            got[0].stmts[1],
            WireStmt::Lit {
                ty: "Ljava/lang/String;".into(),
                value: Value::Str("héllo".into())
            }
        );
        assert_eq!(
            got[0].stmts[3],
            WireStmt::Lit {
                ty: "D".into(),
                value: Value::double(f64::NAN)
            }
        );
        assert_eq!(
            got[0].stmts[4],
            WireStmt::Array {
                elem: "I".into(),
                elems: vec![2, 2]
            }
        );
        assert_eq!(
            got[0].stmts[5],
            WireStmt::Call {
                op: 3,
                args: vec![0, 1]
            }
        );
        assert_eq!(strings, vec!["Ljava/lang/String;", "I", "D", "LE;"]);
        // second batch: no new strings, so the frame is smaller and decodes with the same table
        let f2 = encode_exec(&mut tt, reqs.iter().take(1).map(|r| (7, r)));
        let got2 = decode_exec(&f2[4..], &mut strings).unwrap();
        assert_eq!(strings.len(), 4);
        assert_eq!(got2[0].tag, 7);
        assert_eq!(got2[0].stmts, got[0].stmts);
    }

    fn sample_result() -> SeqResult {
        let c: Arc<str> = "java.util.ArrayList".into();
        SeqResult {
            outcomes: vec![
                StmtOutcome::Normal(Observed::Object {
                    class: c.clone(),
                    fingerprint: Some(u64::MAX - 3),
                }),
                StmtOutcome::Normal(Observed::Object {
                    class: c,
                    fingerprint: None,
                }),
                StmtOutcome::Normal(Observed::Value(Value::Char(0xD800))),
                StmtOutcome::Normal(Observed::Void),
                StmtOutcome::Normal(Observed::Null),
                StmtOutcome::Exception {
                    class: "java.util.NoSuchElementException".into(),
                    public_class: "java.util.NoSuchElementException".into(),
                    message: Some("x".into()),
                },
                StmtOutcome::Crash(CrashKind::Exited(Some(3))),
                StmtOutcome::Crash(CrashKind::Exited(None)),
                StmtOutcome::Timeout,
                StmtOutcome::NotRun,
            ],
            violations: vec![ContractViolation {
                contract: Contract::EqualsSymmetric,
                a: 1,
                b: Some(0),
                detail: "d".into(),
            }],
            observers: vec![
                ObserverValue {
                    stmt: 0,
                    op: 4,
                    result: Ok(Value::Long(-1)),
                },
                ObserverValue {
                    stmt: 0,
                    op: 5,
                    result: Err("java.lang.IllegalStateException".into()),
                },
            ],
            worker: 1,
            coverage: None,
            compared: Vec::new(),
            compared_nums: Vec::new(),
            forms: Vec::new(),
        }
    }

    #[test]
    fn forms_section_round_trip() {
        let mut r = sample_result();
        let c: Arc<str> = "ds.AvlTree".into();
        r.forms = vec![
            BulkForm {
                task: 0,
                which: 0,
                form: FormValue::Hash(u128::MAX - 5),
                class: Some(c.clone()),
            },
            BulkForm {
                task: 0,
                which: 1,
                form: FormValue::Text("ds.AvlTree{root=null}".into()),
                class: Some(c),
            },
            BulkForm {
                task: 1,
                which: 0,
                form: FormValue::OutOfScope,
                class: None,
            },
            BulkForm {
                task: 2,
                which: 1,
                form: FormValue::Null,
                class: None,
            },
            BulkForm {
                task: 3,
                which: 0,
                form: FormValue::Error("java.lang.StackOverflowError".into()),
                class: None,
            },
            BulkForm {
                task: 4,
                which: 0,
                form: FormValue::Violation(
                    Contract::EqualsReflexive,
                    "x.equals(x) is false".into(),
                ),
                class: None,
            },
        ];
        let plain = encode_result(5, &sample_result(), &mut ClassEncTable::default());
        let f = encode_result(5, &r, &mut ClassEncTable::default());
        assert_eq!(f[plain.len()], FORMS_SECTION);
        // a frame cut inside the section is an error
        for cut in plain.len() + 1..f.len() {
            assert!(decode_result(&f[4..cut], &mut ClassTable::default(), 1).is_err());
        }
        // the coverage section follows it
        r.coverage = Some(vec![3, 9].into());
        let f = encode_result(5, &r, &mut ClassEncTable::default());
        let (_, back) = decode_result(&f[4..], &mut ClassTable::default(), 1).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn coverage_section_round_trip_and_absent_without_coverage() {
        let mut r = sample_result();
        let mut enc = ClassEncTable::default();
        let plain = encode_result(3, &r, &mut enc);
        r.coverage = Some(vec![0, 1, 127, 128, 70_000, 1 << 28].into());
        r.compared = vec!["GET".into(), "é".into()];
        let mut enc = ClassEncTable::default();
        let f = encode_result(3, &r, &mut enc);
        // the section is appended: the frame without coverage is a prefix (apart from length)
        assert_eq!(&f[4..plain.len()], &plain[4..]);
        assert_eq!(f[plain.len()], COVERAGE_SECTION);
        let mut classes = ClassTable::default();
        let (_, back) = decode_result(&f[4..], &mut classes, 1).unwrap();
        assert_eq!(back, r);
        let mut bad = f.clone();
        bad[plain.len()] = 0x7;
        assert!(decode_result(&bad[4..], &mut ClassTable::default(), 1).is_err());
    }

    #[test]
    fn compared_numbers_round_trip_with_and_without_strings() {
        let mut r = sample_result();
        r.coverage = Some(vec![2, 5].into());
        let old = encode_result(3, &r, &mut ClassEncTable::default());
        let nums = vec![
            4242,
            7,
            -1,
            0,
            i64::MIN,
            i64::MAX,
            123_456_789_012,
            i32::MIN as i64,
        ];
        for strings in [vec![], vec!["GET".to_string()]] {
            r.compared = strings;
            r.compared_nums = nums.clone();
            let f = encode_result(3, &r, &mut ClassEncTable::default());
            let (_, back) = decode_result(&f[4..], &mut ClassTable::default(), 1).unwrap();
            assert_eq!(back, r);
            assert!(f.contains(&COMPARED_NUMS_SECTION));
            // a frame cut inside the section is an error, never a panic
            for cut in old.len() + 1..f.len() {
                let _ = decode_result(&f[4..cut], &mut ClassTable::default(), 1);
            }
            let cut = f.len() - 1;
            assert!(decode_result(&f[4..cut], &mut ClassTable::default(), 1).is_err());
        }
        // an old frame (coverage only, or coverage + strings) still decodes
        let (_, back) = decode_result(&old[4..], &mut ClassTable::default(), 1).unwrap();
        assert!(back.compared_nums.is_empty() && back.coverage.is_some());
        // numbers before strings are out of order
        r.compared = vec!["x".into()];
        r.compared_nums = vec![1];
        let f = encode_result(3, &r, &mut ClassEncTable::default());
        let i = f.iter().rposition(|&b| b == COMPARED_NUMS_SECTION).unwrap();
        let mut swapped = f[..old.len()].to_vec();
        swapped.extend_from_slice(&f[i..]);
        swapped.extend_from_slice(&f[old.len()..i]);
        assert!(decode_result(&swapped[4..], &mut ClassTable::default(), 1).is_err());
    }

    #[test]
    fn result_round_trip() {
        let r = sample_result();
        let mut enc = ClassEncTable::default();
        let f = encode_result(42, &r, &mut enc);
        let mut classes = ClassTable::default();
        let (tag, back) = decode_result(&f[4..], &mut classes, 1).unwrap();
        assert_eq!(tag, 42);
        assert_eq!(back, r);
        // class names were sent once each
        assert_eq!(classes.names.len(), 2);
        // the second frame refers to the table by id only
        let f2 = encode_result(43, &r, &mut enc);
        assert!(f2.len() < f.len());
        let (_, back2) = decode_result(&f2[4..], &mut classes, 1).unwrap();
        assert_eq!(back2, r);
    }

    #[test]
    fn truncated_frames_are_errors() {
        let r = sample_result();
        let f = encode_result(1, &r, &mut ClassEncTable::default());
        for cut in 5..f.len() {
            let mut classes = ClassTable::default();
            assert!(
                decode_result(&f[4..cut], &mut classes, 0).is_err(),
                "cut at {cut}"
            );
        }
        let reqs = sample_requests();
        let f = encode_exec(&mut TypeTable::default(), reqs.iter().map(|r| (0, r)));
        for cut in 5..f.len() {
            assert!(
                decode_exec(&f[4..cut], &mut Vec::new()).is_err(),
                "cut at {cut}"
            );
        }
        // a frame whose declared length exceeds the stream
        let mut short = &f[..f.len() - 1];
        assert!(read_frame(&mut short).is_err());
        let mut whole = &f[..];
        assert_eq!(read_frame(&mut whole).unwrap(), f[4..].to_vec());
    }

    #[test]
    fn unknown_class_id_and_bad_tags_are_errors() {
        let mut e = Enc::frame(RESULT);
        e.u32(0);
        e.u32(1);
        e.u8(O_OBJECT);
        e.u32(5); // undefined id
        let f = e.finish();
        assert!(decode_result(&f[4..], &mut ClassTable::default(), 0).is_err());
        assert!(decode_hello(&[RESULT]).is_err());
        let mut h = Enc::frame(HELLO);
        h.u32(MAGIC);
        h.u16(VERSION + 1);
        h.u64(1);
        assert!(
            decode_hello(&h.finish()[4..])
                .unwrap_err()
                .to_string()
                .contains("version")
        );
    }

    #[test]
    fn register_frame_layout() {
        let op = Operation {
            kind: OpKind::Method,
            class: "java.util.ArrayList".into(),
            name: "size".into(),
            descriptor: "()I".into(),
            owner: JType::class("java.util.ArrayList"),
            params: vec![],
            ret: Some(JType::Prim(Prim::Int)),
            varargs: false,
            overloaded: false,
            method_type_args: vec![],
            outer_instance: false,
        };
        let f = encode_register(3, &[op]);
        let mut d = Dec::new(&f[4..]);
        assert_eq!(d.u8().unwrap(), REGISTER);
        assert_eq!(d.u32().unwrap(), 3);
        assert_eq!(d.u32().unwrap(), 1);
        assert_eq!(d.u8().unwrap(), 1);
        assert_eq!(d.str().unwrap(), "java.util.ArrayList");
        assert_eq!(d.str().unwrap(), "size");
        assert_eq!(d.str().unwrap(), "()I");
        assert!(d.at_end());
    }
}
