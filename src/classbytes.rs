//! Big-endian class-file bytes, shared by the model's reader (src/model/classfile.rs) and the
//! instrumenter (src/instrument/): a bounds-checked cursor whose reads return an error, never
//! panic, on a truncated or malformed file, and the writers of u2/u4. Reads are named after
//! the JVMS's u1/u2/u4/u8 (sizes in bytes).

use anyhow::{Context, Result};

/// Bounds-checked big-endian reader. Every read returns an error instead of panicking.
pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pub(crate) pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    pub(crate) fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.buf.len())
            .with_context(|| {
                format!(
                    "truncated class file: wanted {n} bytes at offset {} of {}",
                    self.pos,
                    self.buf.len()
                )
            })?;
        let s = &self.buf[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    pub(crate) fn u1(&mut self) -> Result<u8> {
        Ok(self.bytes(1)?[0])
    }

    pub(crate) fn u2(&mut self) -> Result<u16> {
        let b = self.bytes(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    pub(crate) fn u4(&mut self) -> Result<u32> {
        let b = self.bytes(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A JVMS u8: eight bytes, big-endian (the two halves of a long or double constant).
    pub(crate) fn u8(&mut self) -> Result<u64> {
        let hi = self.u4()? as u64;
        let lo = self.u4()? as u64;
        Ok((hi << 32) | lo)
    }

    pub(crate) fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }
}

pub(crate) fn put_u2(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_be_bytes());
}

pub(crate) fn put_u4(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_be_bytes());
}
