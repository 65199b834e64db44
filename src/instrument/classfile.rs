//! Minimal class-file plumbing for the instrumenter: a bounds-checked byte reader, the
//! constant pool (kept as raw entries so that every original index stays valid, with new
//! entries only ever appended), and the class skeleton (fields, methods, attributes) as raw
//! byte slices. Only `Code` attributes are rewritten; everything else is copied verbatim,
//! which is why this does not go through a full object model.

pub(crate) use crate::classbytes::{Reader, put_u2, put_u4};
use anyhow::{Context, Result, bail};
use std::collections::HashMap;

/// One constant-pool entry: its tag and the bytes after the tag. The second slot of a
/// Long/Double is stored as `tag == 0` and is never written.
#[derive(Clone)]
struct CpEntry {
    tag: u8,
    body: Vec<u8>,
}

/// The constant pool with append-only editing and de-duplication of what we add.
pub(crate) struct ConstPool {
    entries: Vec<CpEntry>, // index 0 unused
    utf8: HashMap<String, u16>,
    classes: HashMap<String, u16>,
    ints: HashMap<i32, u16>,
    name_types: HashMap<(u16, u16), u16>,
    methodrefs: HashMap<(u16, u16), u16>,
    /// String constants added by the instrumenter (existing ones are not indexed).
    strings: HashMap<String, u16>,
}

pub(crate) const TAG_UTF8: u8 = 1;
const TAG_INTEGER: u8 = 3;
const TAG_CLASS: u8 = 7;
const TAG_STRING: u8 = 8;
const TAG_METHODREF: u8 = 10;
const TAG_NAME_AND_TYPE: u8 = 12;

impl ConstPool {
    pub(crate) fn parse(r: &mut Reader) -> Result<Self> {
        let count = r.u2()? as usize;
        if count == 0 {
            bail!("constant_pool_count is 0");
        }
        let mut cp = ConstPool {
            entries: vec![CpEntry {
                tag: 0,
                body: vec![],
            }],
            utf8: HashMap::new(),
            classes: HashMap::new(),
            ints: HashMap::new(),
            name_types: HashMap::new(),
            methodrefs: HashMap::new(),
            strings: HashMap::new(),
        };
        while cp.entries.len() < count {
            let idx = cp.entries.len() as u16;
            let tag = r.u1()?;
            let len = match tag {
                TAG_UTF8 => {
                    let n = r.u2()? as usize;
                    r.pos -= 2;
                    2 + n
                }
                3 | 4 => 4,                // Integer, Float
                5 | 6 => 8,                // Long, Double
                7 | 8 | 16 | 19 | 20 => 2, // Class, String, MethodType, Module, Package
                9..=12 | 17 | 18 => 4,     // refs, NameAndType, Dynamic, InvokeDynamic
                15 => 3,                   // MethodHandle
                t => bail!("unknown constant-pool tag {t} at entry {idx}"),
            };
            let body = r
                .bytes(len)
                .with_context(|| format!("reading constant-pool entry {idx}"))?
                .to_vec();
            match tag {
                TAG_UTF8 => {
                    let s = String::from_utf8_lossy(&body[2..]).into_owned();
                    cp.utf8.entry(s).or_insert(idx);
                }
                TAG_INTEGER => {
                    let v = i32::from_be_bytes([body[0], body[1], body[2], body[3]]);
                    cp.ints.entry(v).or_insert(idx);
                }
                _ => {}
            }
            let wide = matches!(tag, 5 | 6);
            cp.entries.push(CpEntry { tag, body });
            if wide {
                if cp.entries.len() >= count {
                    bail!("Long/Double constant at the last constant-pool slot {idx}");
                }
                cp.entries.push(CpEntry {
                    tag: 0,
                    body: vec![],
                });
            }
        }
        // Index classes by name (needs all Utf8 entries first).
        for i in 1..cp.entries.len() {
            if cp.entries[i].tag == TAG_CLASS {
                let b = &cp.entries[i].body;
                let ni = u16::from_be_bytes([b[0], b[1]]);
                if let Ok(name) = cp.utf8_at(ni) {
                    let name = name.to_string();
                    cp.classes.entry(name).or_insert(i as u16);
                }
            }
        }
        Ok(cp)
    }

    pub(crate) fn utf8_at(&self, idx: u16) -> Result<&str> {
        let e = self
            .entries
            .get(idx as usize)
            .with_context(|| format!("constant-pool index {idx} out of range"))?;
        if e.tag != TAG_UTF8 {
            bail!("constant-pool entry {idx} is not Utf8 (tag {})", e.tag);
        }
        std::str::from_utf8(&e.body[2..])
            .with_context(|| format!("constant-pool Utf8 {idx} is not plain UTF-8"))
    }

    pub(crate) fn class_name_at(&self, idx: u16) -> Result<&str> {
        let e = self
            .entries
            .get(idx as usize)
            .with_context(|| format!("constant-pool index {idx} out of range"))?;
        if e.tag != TAG_CLASS {
            bail!("constant-pool entry {idx} is not a Class (tag {})", e.tag);
        }
        self.utf8_at(u16::from_be_bytes([e.body[0], e.body[1]]))
    }

    fn push(&mut self, tag: u8, body: Vec<u8>) -> Result<u16> {
        let idx = self.entries.len();
        if idx >= 0xFFFF {
            bail!("constant pool is full (65535 entries); cannot add instrumentation constants");
        }
        self.entries.push(CpEntry { tag, body });
        Ok(idx as u16)
    }

    pub(crate) fn utf8(&mut self, s: &str) -> Result<u16> {
        if let Some(&i) = self.utf8.get(s) {
            return Ok(i);
        }
        if s.len() > 0xFFFF {
            bail!("string constant too long");
        }
        let mut body = Vec::with_capacity(2 + s.len());
        put_u2(&mut body, s.len() as u16);
        body.extend_from_slice(s.as_bytes());
        let i = self.push(TAG_UTF8, body)?;
        self.utf8.insert(s.to_string(), i);
        Ok(i)
    }

    pub(crate) fn class(&mut self, name: &str) -> Result<u16> {
        if let Some(&i) = self.classes.get(name) {
            return Ok(i);
        }
        let n = self.utf8(name)?;
        let i = self.push(TAG_CLASS, n.to_be_bytes().to_vec())?;
        self.classes.insert(name.to_string(), i);
        Ok(i)
    }

    /// A String constant (for `ldc_w`).
    pub(crate) fn string(&mut self, s: &str) -> Result<u16> {
        if let Some(&i) = self.strings.get(s) {
            return Ok(i);
        }
        let u = self.utf8(s)?;
        let i = self.push(TAG_STRING, u.to_be_bytes().to_vec())?;
        self.strings.insert(s.to_string(), i);
        Ok(i)
    }

    pub(crate) fn integer(&mut self, v: i32) -> Result<u16> {
        if let Some(&i) = self.ints.get(&v) {
            return Ok(i);
        }
        let i = self.push(TAG_INTEGER, v.to_be_bytes().to_vec())?;
        self.ints.insert(v, i);
        Ok(i)
    }

    pub(crate) fn methodref(&mut self, class: &str, name: &str, desc: &str) -> Result<u16> {
        let c = self.class(class)?;
        let n = self.utf8(name)?;
        let d = self.utf8(desc)?;
        let nt = match self.name_types.get(&(n, d)) {
            Some(&i) => i,
            None => {
                let mut body = n.to_be_bytes().to_vec();
                body.extend_from_slice(&d.to_be_bytes());
                let i = self.push(TAG_NAME_AND_TYPE, body)?;
                self.name_types.insert((n, d), i);
                i
            }
        };
        if let Some(&i) = self.methodrefs.get(&(c, nt)) {
            return Ok(i);
        }
        let mut body = c.to_be_bytes().to_vec();
        body.extend_from_slice(&nt.to_be_bytes());
        let i = self.push(TAG_METHODREF, body)?;
        self.methodrefs.insert((c, nt), i);
        Ok(i)
    }

    /// (class, name, descriptor) of the Methodref at `idx`, if it is one.
    pub(crate) fn methodref_at(&self, idx: u16) -> Option<(&str, &str, &str)> {
        let e = self.entries.get(idx as usize)?;
        if e.tag != TAG_METHODREF {
            return None;
        }
        let b = &e.body;
        let class = self.class_name_at(u16::from_be_bytes([b[0], b[1]])).ok()?;
        let (name, desc) = self.name_and_type_at(u16::from_be_bytes([b[2], b[3]]))?;
        Some((class, name, desc))
    }

    /// (class, name, descriptor) of the Fieldref, Methodref or InterfaceMethodref at `idx`
    /// (`jforge concolic`'s read and write sets name the owner of each access).
    pub(crate) fn ref_at(&self, idx: u16) -> Option<(&str, &str, &str)> {
        let e = self.entries.get(idx as usize)?;
        if !matches!(e.tag, 9..=11) || e.body.len() < 4 {
            return None;
        }
        let class = self
            .class_name_at(u16::from_be_bytes([e.body[0], e.body[1]]))
            .ok()?;
        let (name, desc) = self.name_and_type_at(u16::from_be_bytes([e.body[2], e.body[3]]))?;
        Some((class, name, desc))
    }

    /// (name, descriptor) of the NameAndType at `idx`, if it is one.
    fn name_and_type_at(&self, idx: u16) -> Option<(&str, &str)> {
        let nt = self
            .entries
            .get(idx as usize)
            .filter(|e| e.tag == TAG_NAME_AND_TYPE && e.body.len() >= 4)?;
        let name = self
            .utf8_at(u16::from_be_bytes([nt.body[0], nt.body[1]]))
            .ok()?;
        let desc = self
            .utf8_at(u16::from_be_bytes([nt.body[2], nt.body[3]]))
            .ok()?;
        Some((name, desc))
    }

    /// (name, descriptor) of the Fieldref, Methodref, InterfaceMethodref or InvokeDynamic
    /// at `idx` (trace mode needs the stack effect of every member access and call).
    pub(crate) fn member_at(&self, idx: u16) -> Option<(&str, &str)> {
        let e = self.entries.get(idx as usize)?;
        if !matches!(e.tag, 9 | 10 | 11 | 18) || e.body.len() < 4 {
            return None;
        }
        self.name_and_type_at(u16::from_be_bytes([e.body[2], e.body[3]]))
    }

    /// Indices of the Class entries naming `name`.
    pub(crate) fn class_indices(&self, name: &str) -> Vec<u16> {
        (1..self.entries.len())
            .filter(|&i| {
                self.entries[i].tag == TAG_CLASS && self.class_name_at(i as u16).ok() == Some(name)
            })
            .map(|i| i as u16)
            .collect()
    }

    /// Indices of all Methodref entries.
    pub(crate) fn methodref_indices(&self) -> Vec<u16> {
        (1..self.entries.len())
            .filter(|&i| self.entries[i].tag == TAG_METHODREF)
            .map(|i| i as u16)
            .collect()
    }

    pub(crate) fn write(&self, out: &mut Vec<u8>) {
        put_u2(out, self.entries.len() as u16);
        for e in &self.entries[1..] {
            if e.tag == 0 {
                continue;
            }
            out.push(e.tag);
            out.extend_from_slice(&e.body);
        }
    }
}

/// A raw attribute: name index and body.
pub(crate) struct RawAttr<'a> {
    pub(crate) name: u16,
    pub(crate) body: &'a [u8],
}

pub(crate) fn read_attrs<'a>(r: &mut Reader<'a>) -> Result<Vec<RawAttr<'a>>> {
    let n = r.u2()?;
    let mut v = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let name = r.u2()?;
        let len = r.u4()? as usize;
        let body = r.bytes(len)?;
        v.push(RawAttr { name, body });
    }
    Ok(v)
}

pub(crate) fn write_attr(out: &mut Vec<u8>, name: u16, body: &[u8]) -> Result<()> {
    put_u2(out, name);
    let len = u32::try_from(body.len()).context("attribute larger than 4 GiB")?;
    put_u4(out, len);
    out.extend_from_slice(body);
    Ok(())
}

/// A field or method: flags, name, descriptor, attributes.
pub(crate) struct Member<'a> {
    pub(crate) access: u16,
    pub(crate) name: u16,
    pub(crate) desc: u16,
    pub(crate) attrs: Vec<RawAttr<'a>>,
}

pub(crate) fn read_members<'a>(r: &mut Reader<'a>) -> Result<Vec<Member<'a>>> {
    let n = r.u2()?;
    let mut v = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let access = r.u2()?;
        let name = r.u2()?;
        let desc = r.u2()?;
        let attrs = read_attrs(r)?;
        v.push(Member {
            access,
            name,
            desc,
            attrs,
        });
    }
    Ok(v)
}

/// The parsed class skeleton. `middle` is access_flags .. interfaces, copied verbatim.
pub(crate) struct ClassFile<'a> {
    pub(crate) minor: u16,
    pub(crate) major: u16,
    pub(crate) cp: ConstPool,
    pub(crate) access: u16,
    pub(crate) this_class: u16,
    /// Constant-pool index of the super class (0 for `java.lang.Object`).
    pub(crate) super_class: u16,
    pub(crate) middle: &'a [u8],
    pub(crate) fields: &'a [u8],
    pub(crate) methods: Vec<Member<'a>>,
    pub(crate) attrs: &'a [u8],
}

/// Newest class-file major version accepted (Java 25 = 69).
pub(crate) const MAX_MAJOR: u16 = 69;

pub(crate) fn parse_class(bytes: &[u8]) -> Result<ClassFile<'_>> {
    let mut r = Reader::new(bytes);
    let magic = r.u4().context("reading the class-file magic number")?;
    if magic != 0xCAFE_BABE {
        bail!("not a class file (magic number {magic:#010x}, expected 0xcafebabe)");
    }
    let minor = r.u2()?;
    let major = r.u2()?;
    if !(45..=MAX_MAJOR).contains(&major) {
        bail!(
            "unsupported class-file version {major}.{minor} (supported: 45 to {MAX_MAJOR}, Java 1.1 to 25)"
        );
    }
    let cp = ConstPool::parse(&mut r).context("reading the constant pool")?;
    let mid_start = r.pos;
    let access = r.u2()?;
    let this_class = r.u2()?;
    let super_class = r.u2()?;
    let n_if = r.u2()? as usize;
    r.bytes(n_if * 2)?;
    let middle = &bytes[mid_start..r.pos];
    let f_start = r.pos;
    read_members(&mut r).context("reading fields")?;
    let fields = &bytes[f_start..r.pos];
    let methods = read_members(&mut r).context("reading methods")?;
    let a_start = r.pos;
    read_attrs(&mut r).context("reading class attributes")?;
    let attrs = &bytes[a_start..r.pos];
    if r.remaining() != 0 {
        bail!("{} trailing bytes after the class file", r.remaining());
    }
    Ok(ClassFile {
        minor,
        major,
        cp,
        access,
        this_class,
        super_class,
        middle,
        fields,
        methods,
        attrs,
    })
}
