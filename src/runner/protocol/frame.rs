//! Frames (`u32` length, then the payload whose first byte is the message tag), the
//! big-endian encoder that builds them and the bounds-checked decoder that reads them.

use anyhow::{Result, bail};
use std::io::{Read, Write};

/// Largest frame accepted (guards against garbage lengths).
pub const MAX_FRAME: usize = 1 << 30;

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
    /// Bytes left in the frame.
    pub fn remaining(&self) -> usize {
        self.b.len() - self.pos
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

pub fn expect_tag(d: &mut Dec, tag: u8) -> Result<()> {
    let t = d.u8()?;
    if t != tag {
        bail!("protocol error: expected message {tag:#x}, got {t:#x}");
    }
    Ok(())
}
