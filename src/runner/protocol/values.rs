//! Values on the wire: literals sent in EXEC and values observed in RESULT (primitives,
//! Strings, enums, arrays, lambdas, class literals).

use super::consts::{
    LB_ARG, LB_VALUE, LB_VOID, V_ARRAY, V_BOOLEAN, V_BYTE, V_CHAR, V_CLASS, V_DIGEST, V_DOUBLE,
    V_ENUM, V_FLOAT, V_INT, V_LAMBDA, V_LONG, V_NULL, V_SHORT, V_STRING,
};
use super::frame::{Dec, Enc};
use crate::sequence::{LambdaBody, Value};
use anyhow::{Result, bail};

pub fn encode_value(e: &mut Enc, v: &Value) {
    match v {
        Value::Null => e.u8(V_NULL),
        Value::Bool(b) => {
            e.u8(V_BOOLEAN);
            e.u8(*b as u8)
        }
        Value::Byte(x) => {
            e.u8(V_BYTE);
            e.u8(*x as u8)
        }
        Value::Short(x) => {
            e.u8(V_SHORT);
            e.u16(*x as u16)
        }
        Value::Char(x) => {
            e.u8(V_CHAR);
            e.u16(*x)
        }
        Value::Int(x) => {
            e.u8(V_INT);
            e.i32(*x)
        }
        Value::Long(x) => {
            e.u8(V_LONG);
            e.u64(*x as u64)
        }
        Value::Float(x) => {
            e.u8(V_FLOAT);
            e.u32(*x)
        }
        Value::Double(x) => {
            e.u8(V_DOUBLE);
            e.u64(*x)
        }
        Value::Str(s) => {
            e.u8(V_STRING);
            e.str(s)
        }
        Value::Enum(c, n) => {
            e.u8(V_ENUM);
            e.str(c);
            e.str(n)
        }
        Value::Lambda(arity, body) => {
            e.u8(V_LAMBDA);
            e.u8(*arity);
            match body {
                LambdaBody::Void => e.u8(LB_VOID),
                LambdaBody::Arg(i) => {
                    e.u8(LB_ARG);
                    e.u8(*i)
                }
                LambdaBody::Value(v) => {
                    e.u8(LB_VALUE);
                    encode_value(e, v)
                }
            }
        }
        Value::Class(t) => {
            e.u8(V_CLASS);
            e.str(&t.descriptor())
        }
        Value::Digest(class, len, hash) => {
            e.u8(V_DIGEST);
            e.str(class);
            e.u32(*len);
            e.i32(*hash);
        }
        Value::Array(component, items) => {
            e.u8(V_ARRAY);
            e.str(component);
            e.u32(items.len() as u32);
            for v in items {
                encode_value(e, v);
            }
        }
    }
}

pub fn decode_value(d: &mut Dec) -> Result<Value> {
    match d.u8()? {
        V_DIGEST => {
            let class = d.str()?;
            let len = d.u32()?;
            Ok(Value::Digest(class, len, d.i32()?))
        }
        V_ARRAY => {
            let component = d.str()?;
            let n = d.u32()? as usize;
            // Each element takes at least one byte: a length beyond the frame is corrupt.
            let mut items = Vec::with_capacity(n.min(d.remaining()));
            for _ in 0..n {
                let tag = d.u8()?;
                items.push(decode_scalar(d, tag)?);
            }
            Ok(Value::Array(component, items))
        }
        tag => decode_scalar(d, tag),
    }
}

/// A value that is no array, its tag read.
fn decode_scalar(d: &mut Dec, tag: u8) -> Result<Value> {
    Ok(match tag {
        V_NULL => Value::Null,
        V_BOOLEAN => Value::Bool(d.u8()? != 0),
        V_BYTE => Value::Byte(d.u8()? as i8),
        V_SHORT => Value::Short(d.u16()? as i16),
        V_CHAR => Value::Char(d.u16()?),
        V_INT => Value::Int(d.i32()?),
        V_LONG => Value::Long(d.u64()? as i64),
        V_FLOAT => Value::Float(d.u32()?),
        V_DOUBLE => Value::Double(d.u64()?),
        V_STRING => Value::Str(d.str()?),
        V_ENUM => Value::Enum(d.str()?, d.str()?),
        t => bail!("protocol error: bad value tag {t}"),
    })
}
