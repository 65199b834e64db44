//! The binary protocol between jforge and its worker JVMs (the Java side is
//! worker/jforge/worker/: Frames.java reads and writes the frames, Executor.java decodes EXEC,
//! Outcomes.java encodes results). The numbers both sides use are generated from one source,
//! src/runner/protocol.txt (see build.rs); keep the layouts in step and bump `VERSION` there
//! on any change.
//!
//! Why binary and why this shape: the runner's throughput target is ~10,000 sequences/s, so a
//! request carries only integers (operation ids registered once, statement indices) and type
//! descriptors go through a per-worker string table; results name classes through a second
//! per-worker table built by the worker. Every frame is `u32 length` (big-endian, as Java's
//! DataOutputStream) followed by the payload whose first byte is the message tag.
//!
//! String tables: a string reference is a `u32` id; an id equal to the current table size
//! defines the next entry and is followed by the string (`u32` byte length + UTF-8).
//!
//! The parts, each a file: `consts` (the generated numbers), `frame` (frames, the encoder
//! and the decoder), `control` (the handshake, registering operations, JDK class requests),
//! `values` (literal and observed values), `exec` (EXEC: the sequences to run), `outcome`
//! (one statement's outcome, a contract's blame, the class-name tables) and `result`
//! (RESULT: outcomes, violations, observers and the optional sections).

mod consts;
mod control;
mod exec;
mod frame;
mod outcome;
mod result;
mod values;

#[cfg(test)]
mod tests;

pub use consts::*;
pub use control::{
    Hello, check_version, decode_bytes, decode_hello, decode_list, decode_registered,
    encode_register, encode_str_request, op_kind_code,
};
pub use exec::{TypeTable, WireSeq, WireStmt, decode_exec, encode_exec};
pub use frame::{Dec, Enc, MAX_FRAME, expect_tag, read_frame, write_frame};
pub use outcome::{ClassEncTable, ClassTable, contract_code, decode_outcome, encode_outcome};
pub use result::{decode_result, encode_result};
pub use values::{decode_value, encode_value};
