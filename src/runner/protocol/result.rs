//! RESULT: a sequence's outcomes, contract violations, observer values and canonical
//! forms, then the optional sections (thrown, coverage, compared values, clock, trace),
//! coverage ids as varint deltas.

use super::consts::{
    CLOCK_SECTION, COMPARED_NUMS_SECTION, COMPARED_SECTION, COVERAGE_SECTION, FORM_ERROR,
    FORM_HASH, FORM_NULL, FORM_OUT_OF_SCOPE, FORM_TEXT, FORM_VIOLATION, FORMS_SECTION, RESULT,
    THROWN_SECTION, TRACE_SECTION,
};
use super::frame::{Dec, Enc, expect_tag};
use super::outcome::{
    ClassEncTable, ClassTable, contract_code, contract_from, decode_blame, decode_outcome,
    encode_blame, encode_outcome,
};
use super::values::{decode_value, encode_value};
use crate::runner::{
    BulkForm, ContractViolation, FormValue, ObserverValue, SeqResult, StmtOutcome,
};
use anyhow::{Result, bail};
use std::sync::Arc;

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
        let blame = decode_blame(&mut d, classes)?;
        violations.push(ContractViolation {
            contract,
            a,
            b: (b >= 0).then_some(b as u32),
            detail,
            blame,
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
    let thrown = if d.pos < d.b.len() && d.b[d.pos] == THROWN_SECTION {
        d.u8()?;
        let stmt = d.u32()?;
        Some((stmt, decode_blame(&mut d, classes)?))
    } else {
        None
    };
    let forms = if d.pos < d.b.len() && d.b[d.pos] == FORMS_SECTION {
        d.u8()?;
        decode_forms(&mut d, classes)?
    } else {
        Vec::new()
    };
    let clock_reads = if d.pos < d.b.len() && d.b[d.pos] == CLOCK_SECTION {
        d.u8()?;
        varint(&mut d)?
    } else {
        0
    };
    let coverage = decode_coverage(&mut d)?;
    let (compared, compared_nums) = decode_compared(&mut d)?;
    let trace = if d.pos < d.b.len() && d.b[d.pos] == TRACE_SECTION {
        d.u8()?;
        Some(d.str()?)
    } else {
        None
    };
    if !d.at_end() {
        bail!("protocol error: trailing bytes in RESULT frame");
    }
    // The worker sends a crash only for an error it survived (protocol 6).
    let survived = outcomes.iter().any(|o| matches!(o, StmtOutcome::Crash(_)));
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
            clock_reads,
            thrown,
            survived,
            trace,
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
        encode_blame(&mut e, &v.blame, classes);
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
    if let Some((stmt, blame)) = &r.thrown {
        e.u8(THROWN_SECTION);
        e.u32(*stmt);
        encode_blame(&mut e, blame, classes);
    }
    if !r.forms.is_empty() {
        e.u8(FORMS_SECTION);
        e.u32(r.forms.len() as u32);
        for f in &r.forms {
            e.u32(f.task);
            e.u8(f.which);
            match &f.form {
                FormValue::Hash(h) => {
                    e.u8(FORM_HASH);
                    e.u64((h >> 64) as u64);
                    e.u64(*h as u64);
                }
                FormValue::Text(t) => {
                    e.u8(FORM_TEXT);
                    e.str(t);
                }
                FormValue::OutOfScope => e.u8(FORM_OUT_OF_SCOPE),
                FormValue::Null => e.u8(FORM_NULL),
                FormValue::Error(m) => {
                    e.u8(FORM_ERROR);
                    e.str(m);
                }
                FormValue::Violation(c, m) => {
                    e.u8(FORM_VIOLATION);
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
    if r.clock_reads > 0 {
        e.u8(CLOCK_SECTION);
        put_varint(&mut e, r.clock_reads);
    }
    encode_coverage_sections(&mut e, r);
    e.finish()
}

/// The coverage, comparison-logging and trace sections of a RESULT frame.
fn encode_coverage_sections(e: &mut Enc, r: &SeqResult) {
    if let Some(c) = &r.coverage {
        encode_coverage(e, c);
        if !r.compared.is_empty() {
            e.u8(COMPARED_SECTION);
            put_varint(e, r.compared.len() as u32);
            for s in &r.compared {
                e.str(s);
            }
        }
        if !r.compared_nums.is_empty() {
            e.u8(COMPARED_NUMS_SECTION);
            put_varint(e, r.compared_nums.len() as u32);
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
    if let Some(t) = &r.trace {
        e.u8(TRACE_SECTION);
        e.str(t);
    }
}

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

fn decode_forms(d: &mut Dec, classes: &mut ClassTable) -> Result<Vec<BulkForm>> {
    let n = d.u32()? as usize;
    let mut out = Vec::with_capacity(n.min(1 << 20));
    for _ in 0..n {
        let task = d.u32()?;
        let which = d.u8()?;
        let (form, has_class) = match d.u8()? {
            FORM_HASH => {
                let hi = d.u64()? as u128;
                let lo = d.u64()? as u128;
                (FormValue::Hash(hi << 64 | lo), true)
            }
            FORM_TEXT => (FormValue::Text(d.str()?), true),
            FORM_OUT_OF_SCOPE => (FormValue::OutOfScope, false),
            FORM_NULL => (FormValue::Null, false),
            FORM_ERROR => (FormValue::Error(d.str()?), false),
            FORM_VIOLATION => {
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
    if d.at_end() || d.b[d.pos] == TRACE_SECTION {
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

/// The optional comparison-logging sections that follow the coverage section: Strings
/// (0xC1), then numbers (0xC3); either may be absent (older workers send neither).
fn decode_compared(d: &mut Dec) -> Result<(Vec<String>, Vec<i64>)> {
    let mut strings = Vec::new();
    let mut nums = Vec::new();
    if d.at_end() {
        return Ok((strings, nums));
    }
    if d.b[d.pos] == COMPARED_SECTION {
        d.u8()?;
        let n = varint(d)? as usize;
        strings = (0..n.min(1 << 16))
            .map(|_| d.str())
            .collect::<Result<_>>()?;
    }
    if d.at_end() || d.b[d.pos] != COMPARED_NUMS_SECTION {
        return Ok((strings, nums));
    }
    d.u8()?;
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
