//! Read and write sets of a class's methods, from its class file: the fields each method
//! reads (`getfield`, `getstatic`) and writes (`putfield`, `putstatic`), the methods it calls
//! and the classes it casts to. `jforge concolic`'s Candidate Sequence Search (seed 002)
//! prepends a call before the method under test only when it writes something that the
//! method (or a later call) reads, transitively over the calls it makes; this is where those
//! facts come from. It lives in the instrumenter because that is the reader that decodes
//! bytecode.

use super::classfile::parse_class;
use anyhow::{Context, Result};

/// A field or method named by its owner (internal name), name and descriptor.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MemberRef {
    pub owner: String,
    pub name: String,
    pub descriptor: String,
}

/// What one method's own code reads, writes and calls (not transitive).
#[derive(Clone, Debug, Default)]
pub struct MethodAccess {
    pub name: String,
    pub descriptor: String,
    pub reads: Vec<MemberRef>,
    pub writes: Vec<MemberRef>,
    pub calls: Vec<MemberRef>,
    /// Classes (internal names) the code casts to or tests with `instanceof`.
    pub casts: Vec<String>,
}

/// The class's internal name and the accesses of each of its methods with code.
pub fn method_accesses(bytes: &[u8]) -> Result<(String, Vec<MethodAccess>)> {
    let cf = parse_class(bytes)?;
    let class = cf
        .cp
        .class_name_at(cf.this_class)
        .context("reading this_class")?
        .to_string();
    let mut out = Vec::new();
    for m in &cf.methods {
        let name = cf.cp.utf8_at(m.name)?.to_string();
        let descriptor = cf.cp.utf8_at(m.desc)?.to_string();
        let mut acc = MethodAccess {
            name,
            descriptor,
            ..MethodAccess::default()
        };
        for a in &m.attrs {
            if cf.cp.utf8_at(a.name).map(|s| s == "Code").unwrap_or(false) {
                let refs = super::code::member_refs(a.body).with_context(|| {
                    format!("reading the code of {}{}", acc.name, acc.descriptor)
                })?;
                for (op, idx) in refs {
                    if op == 0xc0 || op == 0xc1 {
                        acc.casts
                            .extend(cf.cp.class_name_at(idx).ok().map(str::to_string));
                        continue;
                    }
                    let Some((owner, n, d)) = cf.cp.ref_at(idx) else {
                        continue;
                    };
                    let r = MemberRef {
                        owner: owner.to_string(),
                        name: n.to_string(),
                        descriptor: d.to_string(),
                    };
                    match op {
                        0xb2 | 0xb4 => acc.reads.push(r),
                        0xb3 | 0xb5 => acc.writes.push(r),
                        _ => acc.calls.push(r),
                    }
                }
            }
        }
        out.push(acc);
    }
    Ok((class, out))
}
