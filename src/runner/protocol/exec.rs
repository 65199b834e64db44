//! EXEC: the sequences to run, with their modes, observers, contract values and prototype
//! reuse (promotions, bulk tasks); type descriptors through a per-worker string table. The
//! decoder is the worker's side, used to check the encoder.

use super::consts::{
    EXEC, MODE_BULK, MODE_CANON, MODE_GENERATE, MODE_OBSERVE, STMT_ARRAY, STMT_CALL, STMT_LIT,
    STMT_PROTO,
};
use super::frame::{Dec, Enc, expect_tag};
use super::values::{decode_value, encode_value};
use crate::runner::{Bulk, ExecMode, ExecRequest, Reuse};
use crate::sequence::{OpId, Stmt, Value};
use anyhow::{Result, bail};
use std::collections::HashMap;

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

/// EXEC: sequences with batch-local tags. Types go through `types`, extended as needed.
/// `same_batch`: the requests belong to the batch of the worker's previous frame, whose hung
/// operations and value classes still hold (worker: Executor.exec).
pub fn encode_exec<'a>(
    types: &mut TypeTable,
    reqs: impl IntoIterator<Item = (u32, &'a ExecRequest)>,
    same_batch: bool,
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
            ExecMode::Generate => MODE_GENERATE,
            ExecMode::Observe => MODE_OBSERVE,
            // jforge exhaustive (worker: Exhaustive.canon / Canon.java)
            ExecMode::Canon => MODE_CANON,
        });
        body.u32(r.seq.stmts.len() as u32);
        let protos: &[(u32, u32)] = r.reuse.as_ref().map_or(&[], |x| &x.protos);
        for (i, s) in r.seq.stmts.iter().enumerate() {
            if let Some(&(_, id)) = protos.iter().find(|p| p.0 as usize == i) {
                body.u8(STMT_PROTO);
                body.u32(id);
                continue;
            }
            match s {
                Stmt::Call { op, args } => {
                    body.u8(STMT_CALL);
                    body.u32(*op);
                    body.u32(args.len() as u32);
                    args.iter().for_each(|a| body.u32(*a));
                }
                Stmt::Lit { ty, value } => {
                    body.u8(STMT_LIT);
                    body.u32(types.id(ty.descriptor(), &mut new));
                    encode_value(&mut body, value);
                }
                Stmt::Array { elem, elems } => {
                    body.u8(STMT_ARRAY);
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
    e.u8(u8::from(same_batch));
    e.u32(n);
    e.bytes(&body.buf);
    e.finish()
}

/// Promotions (candidate -> prototype) and the forget bound of a request (worker:
/// Exhaustive.readPromotions).
fn encode_promotions(body: &mut Enc, x: &Reuse) {
    body.u32(x.promote.len() as u32);
    for (c, s, id) in &x.promote {
        body.u32(*c);
        body.u32(*s);
        body.u32(*id);
    }
    body.u32(x.forget_upto);
}

/// A bulk request ([`MODE_BULK`]; worker: Exhaustive.runBulk).
fn encode_bulk(
    body: &mut Enc,
    types: &mut TypeTable,
    new: &mut Vec<String>,
    reuse: Option<&Reuse>,
    b: &Bulk,
) {
    body.u8(MODE_BULK);
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
    let _same_batch = d.u8()?;
    let n = d.u32()?;
    let mut out = Vec::new();
    for _ in 0..n {
        let tag = d.u32()?;
        let mode = d.u8()?;
        if mode == MODE_BULK {
            bail!("bulk requests (mode {MODE_BULK}) are not decoded here");
        }
        let observe = mode == MODE_OBSERVE;
        let ns = d.u32()?;
        let mut stmts = Vec::new();
        for _ in 0..ns {
            stmts.push(match d.u8()? {
                STMT_CALL => {
                    let op = d.u32()?;
                    let na = d.u32()?;
                    let args = (0..na).map(|_| d.u32()).collect::<Result<_>>()?;
                    WireStmt::Call { op, args }
                }
                STMT_LIT => {
                    let ty = str_at(strings, d.u32()?)?;
                    WireStmt::Lit {
                        ty,
                        value: decode_value(&mut d)?,
                    }
                }
                STMT_ARRAY => {
                    let elem = str_at(strings, d.u32()?)?;
                    let na = d.u32()?;
                    let elems = (0..na).map(|_| d.u32()).collect::<Result<_>>()?;
                    WireStmt::Array { elem, elems }
                }
                STMT_PROTO => WireStmt::Proto { id: d.u32()? },
                t => bail!("bad statement kind {t}"),
            });
        }
        let ncv = d.u32()?;
        let contract_values = (0..ncv).map(|_| d.u32()).collect::<Result<_>>()?;
        let nobs = d.u32()?;
        let observers = (0..nobs)
            .map(|_| Ok((d.u32()?, d.u32()?)))
            .collect::<Result<_>>()?;
        let reuse = if mode == MODE_CANON {
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
