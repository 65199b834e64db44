//! The operations whose `int` or `long` parameters size an allocation, read from the
//! bytecode before generation (`instrument::sizes`): the generator gives them small numbers
//! from the start (`Generator::note_sizing`), so that their first call does not run out of
//! memory with the 2^30 of a constant pool (issue 22, "Arguments that allocate" in
//! ARCHITECTURE.md).

use crate::instrument::sizes::Sizes;
use crate::sequence::{OpId, OpKind, OpTable};

/// The operations (constructors and methods) with a parameter that sizes an allocation;
/// `bytes` finds a class file by binary name (the class path's, else the JDK's).
pub fn sizing_ops(table: &OpTable, bytes: &mut dyn FnMut(&str) -> Option<Vec<u8>>) -> Vec<OpId> {
    let mut sizes = Sizes::default();
    table
        .iter()
        .filter(|(_, op)| {
            matches!(
                op.kind,
                OpKind::Constructor | OpKind::Method | OpKind::StaticMethod
            ) && (op.descriptor.contains('I') || op.descriptor.contains('J'))
        })
        .filter(|(_, op)| {
            sizes
                .sizing_params(&op.class, &op.name, &op.descriptor, bytes)
                .contains(&true)
        })
        .map(|(id, _)| id)
        .collect()
}
