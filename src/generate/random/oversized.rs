//! Integral arguments too large for an operation that allocates by them: which parameters
//! can size an allocation, which literals are small enough, and which calls of a sequence
//! took a large one.

use crate::model::JType;
use crate::sequence::{OpId, Sequence, Stmt, Value};
use std::collections::HashSet;

/// The largest integral argument an operation that ran out of memory gets from the run's
/// literal pool: capacities and counts up to 1024 exercise the code, 2^30 only the heap
/// (guava collect: 227 OutOfMemoryErrors in 120 s, each a sequence lost plus full
/// collections). Values its own comparisons logged are still used (`op_literals`), so a
/// branch on a larger size stays reachable.
const SMALL_SIZE: i64 = 1024;

/// Whether a parameter of this type can size an allocation: `int`, `long` and their boxes
/// (a `short` or `byte` cannot ask for more than 32767 elements).
pub(super) fn sizes(t: &JType) -> bool {
    match t {
        JType::Prim(p) => matches!(p, crate::model::Prim::Int | crate::model::Prim::Long),
        JType::Class { name, .. } => name == "java.lang.Integer" || name == "java.lang.Long",
        _ => false,
    }
}

/// Whether an integral literal is small enough for an operation that allocates by its
/// arguments (other values are: they size nothing).
pub(super) fn small_size(v: &Value) -> bool {
    match v {
        Value::Int(i) => i64::from(*i).abs() <= SMALL_SIZE,
        Value::Long(l) => l.unsigned_abs() <= SMALL_SIZE as u64,
        _ => true,
    }
}

/// Whether a call of `op` takes an integral literal too large for an allocating operation.
fn oversized_args(seq: &Sequence, args: &[u32]) -> bool {
    args.iter().any(|&a| {
        matches!(seq.stmts.get(a as usize), Some(Stmt::Lit { value, .. }) if !small_size(value))
    })
}

/// Whether `seq` calls an operation of `allocates` with a large integral literal.
pub(super) fn oversized_call(seq: &Sequence, allocates: &HashSet<OpId>) -> bool {
    seq.stmts.iter().any(|s| {
        matches!(s, Stmt::Call { op, args } if allocates.contains(op) && oversized_args(seq, args))
    })
}

/// The operations of the calls that made the inputs of statement `i` (transitively), taking
/// a large integral literal: where a size stored for later came from.
pub(super) fn sized_makers(seq: &Sequence, i: usize) -> Vec<OpId> {
    let mut out = Vec::new();
    let mut seen = vec![false; seq.len()];
    let mut stack: Vec<u32> = seq.stmts.get(i).map_or(&[][..], |s| s.inputs()).to_vec();
    while let Some(j) = stack.pop() {
        let j = j as usize;
        if j >= seq.len() || std::mem::replace(&mut seen[j], true) {
            continue;
        }
        if let Stmt::Call { op, args } = &seq.stmts[j]
            && oversized_args(seq, args)
        {
            out.push(*op);
        }
        stack.extend_from_slice(seq.stmts[j].inputs());
    }
    out
}
