//! Class-file reader (JVMS chapter 4) producing [`ClassInfo`].
//!
//! Why hand-written: jforge reads only the *declaration* side of a class file (constant pool,
//! flags, fields, methods and the attributes `Signature`, `Exceptions`, `InnerClasses`), not
//! bytecode. That is a few hundred lines, reads every class-file version up to Java 21+ (all
//! constant-pool tags, including `Dynamic`, `Module` and `Package`), and lets every malformed
//! input produce an error that names what is wrong instead of a panic. Older crates
//! (`cafebabe`, `classfile-parser`) failed on modern constant pools. Writing class files (for
//! instrumentation) is a separate concern and not done here.
//!
//! Robustness: every read is bounds-checked, constant-pool indices are checked for range and
//! tag, and counts come from `u16` fields so no allocation can be absurd. A `Signature` attribute
//! that does not parse is ignored (the erased descriptor is used instead): some compilers emit
//! odd signatures, and the descriptor is always authoritative for the JVM.

use anyhow::{Context, Result, bail};

use super::signature::{
    parse_class_signature, parse_field_descriptor, parse_field_signature, parse_method_descriptor,
    parse_method_signature,
};
use super::types::{JType, TypeParam};
use super::{ClassInfo, FieldInfo, Literal, MethodInfo, Nesting, access};
use crate::classbytes::Reader;

/// Strings longer than this (in chars) are not kept as literals.
const MAX_LITERAL_CHARS: usize = 200;

/// Parse a class file. Never panics; malformed input gives an error naming the problem.
pub fn parse_class(bytes: &[u8]) -> Result<ClassInfo> {
    let mut r = Reader::new(bytes);
    let major_version = read_versions(&mut r)?;
    let pool = Pool::read(&mut r)?;
    let header = ClassHeader::read(&mut r, &pool)?;
    let raw_fields = read_members(&mut r, &pool, "field")?;
    let raw_methods = read_members(&mut r, &pool, "method")?;
    let attrs = read_attributes(&mut r, &pool).context("reading the class attributes")?;
    // Trailing bytes are tolerated (the JVM rejects them, but they do not hurt reading).

    let (access_flags, nesting) = nesting_of(&attrs, &pool, &header)?;
    let non_static_inner = matches!(
        nesting,
        Nesting::Member {
            is_static: false,
            ..
        }
    );
    let (type_params, generic_super, generic_interfaces) = generic_header(&attrs, &pool, &header)?;
    let (fields, enum_constants) = interpret_fields(raw_fields, &header.name)?;
    let (constructors, methods) = interpret_methods(raw_methods, &header.name, non_static_inner)?;

    Ok(ClassInfo {
        name: header.name,
        access: access_flags,
        major_version,
        super_class: header.super_class,
        interfaces: header.interfaces,
        type_params,
        generic_super,
        generic_interfaces,
        nesting,
        constructors,
        methods,
        fields,
        enum_constants,
        literals: pool.literals(&bootstrap_strings(&attrs, &pool)),
    })
}

/// Checks the magic number and returns the major version (the minor one is not kept).
fn read_versions(r: &mut Reader) -> Result<u16> {
    let magic = r.u4().context("reading the magic number")?;
    if magic != 0xCAFE_BABE {
        bail!("not a class file: bad magic number 0x{magic:08X} (expected 0xCAFEBABE)");
    }
    let _minor = r.u2().context("reading the minor version")?;
    r.u2().context("reading the major version")
}

/// The part of the class file between the constant pool and the fields: flags and names.
struct ClassHeader {
    /// The top-level access flags (an InnerClasses entry may replace them).
    access: u16,
    name: String,
    super_class: Option<String>,
    interfaces: Vec<String>,
}

impl ClassHeader {
    /// Reads the access flags, this_class, super_class and the interfaces, resolved to names.
    fn read(r: &mut Reader, pool: &Pool) -> Result<ClassHeader> {
        let access = r.u2().context("reading the class access flags")?;
        let this_idx = r.u2().context("reading this_class")?;
        let name = pool.class_name(this_idx).context("resolving this_class")?;
        let super_idx = r.u2().context("reading super_class")?;
        let super_class = if super_idx == 0 {
            None
        } else {
            Some(
                pool.class_name(super_idx)
                    .context("resolving super_class")?,
            )
        };
        let n_if = r.u2().context("reading the interface count")?;
        let mut interfaces = Vec::with_capacity(n_if as usize);
        for i in 0..n_if {
            let idx = r.u2().with_context(|| format!("reading interface #{i}"))?;
            interfaces.push(
                pool.class_name(idx)
                    .with_context(|| format!("resolving interface #{i}"))?,
            );
        }
        Ok(ClassHeader {
            access,
            name,
            super_class,
            interfaces,
        })
    }
}

/// Reads the count and the entries of the field or method table (`kind` names it in errors).
fn read_members(r: &mut Reader, pool: &Pool, kind: &str) -> Result<Vec<Member>> {
    let n = r
        .u2()
        .with_context(|| format!("reading the {kind} count"))?;
    let mut members = Vec::with_capacity(n as usize);
    for i in 0..n {
        members.push(Member::read(r, pool).with_context(|| format!("reading {kind} #{i}"))?);
    }
    Ok(members)
}

/// The class's effective access flags and nesting, from the `InnerClasses` entry describing
/// the class itself (the top-level flags and `TopLevel` when there is none).
fn nesting_of(attrs: &[RawAttr], pool: &Pool, header: &ClassHeader) -> Result<(u16, Nesting)> {
    let Some(data) = find_attr(attrs, "InnerClasses") else {
        return Ok((header.access, Nesting::TopLevel));
    };
    let mut ar = Reader::new(data);
    let n = ar.u2().context("reading InnerClasses")?;
    for i in 0..n {
        let inner = ar
            .u2()
            .with_context(|| format!("reading InnerClasses entry #{i}"))?;
        let outer = ar
            .u2()
            .with_context(|| format!("reading InnerClasses entry #{i}"))?;
        let simple = ar
            .u2()
            .with_context(|| format!("reading InnerClasses entry #{i}"))?;
        let flags = ar
            .u2()
            .with_context(|| format!("reading InnerClasses entry #{i}"))?;
        let inner_name = pool
            .class_name(inner)
            .with_context(|| format!("resolving InnerClasses entry #{i}"))?;
        if inner_name != header.name {
            continue;
        }
        let nesting = if outer != 0 && simple != 0 {
            Nesting::Member {
                outer: pool
                    .class_name(outer)
                    .with_context(|| format!("resolving InnerClasses entry #{i}"))?,
                simple: pool
                    .utf8(simple)
                    .with_context(|| format!("resolving InnerClasses entry #{i}"))?
                    .to_string(),
                // Member interfaces, enums, records and annotations are implicitly static.
                is_static: flags & (access::STATIC | access::INTERFACE) != 0,
            }
        } else {
            Nesting::Local
        };
        return Ok((flags, nesting));
    }
    Ok((header.access, Nesting::TopLevel))
}

/// Type parameters, generic superclass and generic interfaces from the class `Signature`
/// attribute, else the plain names (also when the signature does not parse or the class has
/// no superclass).
fn generic_header(
    attrs: &[RawAttr],
    pool: &Pool,
    header: &ClassHeader,
) -> Result<(Vec<TypeParam>, Option<JType>, Vec<JType>)> {
    let class_sig = match find_attr(attrs, "Signature") {
        Some(d) => {
            let s = sig_string(d, pool).context("reading the class Signature attribute")?;
            parse_class_signature(s).ok()
        }
        None => None,
    };
    Ok(match class_sig {
        Some(s) if header.super_class.is_some() => {
            (s.type_params, Some(s.superclass), s.interfaces)
        }
        _ => (
            Vec::new(),
            header.super_class.as_deref().map(JType::class),
            header.interfaces.iter().map(|i| JType::class(i)).collect(),
        ),
    })
}

/// Types the raw fields (generic signature, else descriptor) and lists the enum constants.
fn interpret_fields(raw_fields: Vec<Member>, owner: &str) -> Result<(Vec<FieldInfo>, Vec<String>)> {
    let mut fields = Vec::with_capacity(raw_fields.len());
    let mut enum_constants = Vec::new();
    for f in raw_fields {
        let ty = match f
            .signature
            .as_deref()
            .and_then(|s| parse_field_signature(s).ok())
        {
            Some(t) => t,
            None => parse_field_descriptor(&f.descriptor)
                .with_context(|| format!("field {}", f.name))?,
        };
        if f.access & access::ENUM != 0 {
            enum_constants.push(f.name.clone());
        }
        fields.push(FieldInfo {
            owner: owner.to_string(),
            name: f.name,
            descriptor: f.descriptor,
            access: f.access,
            ty,
        });
    }
    Ok((fields, enum_constants))
}

/// Types the raw methods and sorts them into constructors and methods (`<clinit>` dropped).
fn interpret_methods(
    raw_methods: Vec<Member>,
    owner: &str,
    non_static_inner: bool,
) -> Result<(Vec<MethodInfo>, Vec<MethodInfo>)> {
    let mut constructors = Vec::new();
    let mut methods = Vec::new();
    for m in raw_methods {
        if m.name == "<clinit>" {
            continue;
        }
        let is_ctor = m.name == "<init>";
        let info = interpret_method(m, owner, is_ctor && non_static_inner)?;
        if is_ctor {
            constructors.push(info)
        } else {
            methods.push(info)
        }
    }
    Ok((constructors, methods))
}

/// Types one method or constructor: its generic signature when it parses, else its
/// descriptor, without the synthetic outer-instance parameter of an inner class's
/// constructor (`drops_outer_instance`), which the signature never has.
fn interpret_method(m: Member, owner: &str, drops_outer_instance: bool) -> Result<MethodInfo> {
    let (mut dparams, dret) =
        parse_method_descriptor(&m.descriptor).with_context(|| format!("method {}", m.name))?;
    let is_ctor = m.name == "<init>";
    let sig = m
        .signature
        .as_deref()
        .and_then(|s| parse_method_signature(s).ok());
    let mut exceptions: Vec<JType> = m.exceptions.iter().map(|e| JType::class(e)).collect();
    let (type_params, params, ret) = match sig {
        Some(s) => {
            if !s.throws.is_empty() {
                exceptions = s.throws;
            }
            (s.type_params, s.params, s.ret)
        }
        None => {
            if drops_outer_instance && !dparams.is_empty() {
                // The synthetic outer-instance parameter.
                dparams.remove(0);
            }
            (Vec::new(), dparams, dret)
        }
    };
    Ok(MethodInfo {
        owner: owner.to_string(),
        name: m.name,
        descriptor: m.descriptor,
        access: m.access,
        type_params,
        params,
        ret: if is_ctor { None } else { ret },
        exceptions,
    })
}

/// How a String constant is used as a static argument of a bootstrap method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BootstrapString {
    /// The recipe of `StringConcatFactory.makeConcatWithConstants`: the constant text of a
    /// `"a" + x + "b"` expression, with `\u{1}` for each argument and `\u{2}` for each
    /// constant passed separately.
    ConcatRecipe,
    /// A constant of the source: a `\u{2}` constant of a concatenation, a case label of a
    /// pattern `switch` (`SwitchBootstraps.typeSwitch`).
    Constant,
    /// Anything else javac generates (record field names for `ObjectMethods`, enum constant
    /// names of `enumSwitch`, ...): not a literal of the program.
    Artefact,
}

/// String constants used as bootstrap-method arguments (JVMS 4.7.23), by pool index. A String
/// constant used both there and by `ldc` is one pool entry; javac's recipes contain `\u{1}`,
/// which no program literal does in practice, so treating such an entry as a recipe loses
/// nothing.
fn bootstrap_strings(
    attrs: &[RawAttr],
    pool: &Pool,
) -> std::collections::HashMap<u16, BootstrapString> {
    let mut out = std::collections::HashMap::new();
    let Some(data) = find_attr(attrs, "BootstrapMethods") else {
        return out;
    };
    let mut r = Reader::new(data);
    // A malformed attribute only costs literals: the JVM verifies it, we never execute it.
    let Ok(n) = r.u2() else { return out };
    for _ in 0..n {
        let (Ok(mh), Ok(nargs)) = (r.u2(), r.u2()) else {
            return out;
        };
        let target = pool.method_handle_target(mh);
        let is = |class: &str, name: &str| {
            target
                .as_ref()
                .is_some_and(|(c, m)| c == class && m == name)
        };
        let concat = is(
            "java.lang.invoke.StringConcatFactory",
            "makeConcatWithConstants",
        );
        let labels = is("java.lang.runtime.SwitchBootstraps", "typeSwitch");
        for i in 0..nargs {
            let Ok(arg) = r.u2() else { return out };
            if !matches!(pool.get(arg), Ok(Const::Str(_))) {
                continue;
            }
            let role = match (concat, labels, i) {
                (true, _, 0) => BootstrapString::ConcatRecipe,
                (true, _, _) | (_, true, _) => BootstrapString::Constant,
                _ => BootstrapString::Artefact,
            };
            out.entry(arg).or_insert(role);
        }
    }
    out
}

#[derive(Clone, Debug)]
enum Const {
    /// Index 0 and the unusable slot after a Long/Double.
    Unused,
    Utf8(String),
    Int(i32),
    Float(f32),
    Long(i64),
    Double(f64),
    Class(u16),
    Str(u16),
    /// Fieldref, Methodref, InterfaceMethodref: class and NameAndType indices.
    MemberRef(u16, u16),
    /// NameAndType: the name index (the descriptor is not needed).
    NameAndType(u16),
    /// MethodHandle: the referenced member (its kind is not needed).
    MethodHandle(u16),
    /// MethodType, Dynamic, InvokeDynamic, Module, Package: not needed.
    Other,
}

struct Pool {
    entries: Vec<Const>,
}

impl Pool {
    fn read(r: &mut Reader) -> Result<Pool> {
        let count = r.u2().context("reading the constant pool count")? as usize;
        let mut entries = Vec::with_capacity(count.max(1));
        entries.push(Const::Unused);
        while entries.len() < count {
            let i = entries.len();
            let tag = r
                .u1()
                .with_context(|| format!("reading constant pool entry #{i}"))?;
            let ctx = || format!("reading constant pool entry #{i} (tag {tag})");
            let c = match tag {
                1 => {
                    let len = r.u2().with_context(ctx)? as usize;
                    Const::Utf8(decode_mutf8(r.bytes(len).with_context(ctx)?))
                }
                3 => Const::Int(r.u4().with_context(ctx)? as i32),
                4 => Const::Float(f32::from_bits(r.u4().with_context(ctx)?)),
                5 => Const::Long(r.u8().with_context(ctx)? as i64),
                6 => Const::Double(f64::from_bits(r.u8().with_context(ctx)?)),
                7 => Const::Class(r.u2().with_context(ctx)?),
                8 => Const::Str(r.u2().with_context(ctx)?),
                // Fieldref, Methodref, InterfaceMethodref, NameAndType.
                9..=12 => {
                    let a = r.u2().with_context(ctx)?;
                    let b = r.u2().with_context(ctx)?;
                    if tag == 12 {
                        Const::NameAndType(a)
                    } else {
                        Const::MemberRef(a, b)
                    }
                }
                // Dynamic, InvokeDynamic.
                17 | 18 => {
                    r.bytes(4).with_context(ctx)?;
                    Const::Other
                }
                // MethodHandle: reference kind, reference index.
                15 => {
                    r.u1().with_context(ctx)?;
                    Const::MethodHandle(r.u2().with_context(ctx)?)
                }
                // MethodType, Module, Package.
                16 | 19 | 20 => {
                    r.bytes(2).with_context(ctx)?;
                    Const::Other
                }
                _ => bail!(
                    "bad constant pool tag {tag} at entry #{i} (offset {})",
                    r.pos - 1
                ),
            };
            let wide = matches!(c, Const::Long(_) | Const::Double(_));
            entries.push(c);
            if wide {
                entries.push(Const::Unused);
            }
        }
        // A Long/Double in the last slot overflows the declared count by one: drop the filler.
        entries.truncate(count.max(1));
        Ok(Pool { entries })
    }

    fn get(&self, idx: u16) -> Result<&Const> {
        match self.entries.get(idx as usize) {
            Some(Const::Unused) | None => {
                bail!(
                    "bad constant pool index {idx} (pool has {} entries)",
                    self.entries.len()
                )
            }
            Some(c) => Ok(c),
        }
    }

    fn utf8(&self, idx: u16) -> Result<&str> {
        match self.get(idx)? {
            Const::Utf8(s) => Ok(s),
            other => bail!(
                "constant pool index {idx} should be a Utf8 entry but is {}",
                tag_name(other)
            ),
        }
    }

    /// A Class entry's name as a binary name with dots.
    fn class_name(&self, idx: u16) -> Result<String> {
        match self.get(idx)? {
            Const::Class(n) => Ok(self.utf8(*n)?.replace('/', ".")),
            other => bail!(
                "constant pool index {idx} should be a Class entry but is {}",
                tag_name(other)
            ),
        }
    }

    /// (class, member name) a MethodHandle entry refers to, when the entries are well formed.
    fn method_handle_target(&self, idx: u16) -> Option<(String, String)> {
        let Ok(Const::MethodHandle(m)) = self.get(idx) else {
            return None;
        };
        let Ok(Const::MemberRef(class, nat)) = self.get(*m) else {
            return None;
        };
        let Ok(Const::NameAndType(name)) = self.get(*nat) else {
            return None;
        };
        Some((
            self.class_name(*class).ok()?,
            self.utf8(*name).ok()?.to_string(),
        ))
    }

    /// The literal constants: numbers, and Strings except javac's bootstrap artefacts
    /// (`bootstrap`): a string-concatenation recipe contributes its constant pieces.
    fn literals(
        &self,
        bootstrap: &std::collections::HashMap<u16, BootstrapString>,
    ) -> Vec<Literal> {
        let mut out: Vec<Literal> = Vec::new();
        let mut push = |l: Literal| {
            // Compare floats by bits so NaN deduplicates too.
            let same = |a: &Literal, b: &Literal| match (a, b) {
                (Literal::Float(x), Literal::Float(y)) => x.to_bits() == y.to_bits(),
                (Literal::Double(x), Literal::Double(y)) => x.to_bits() == y.to_bits(),
                _ => a == b,
            };
            if !out.iter().any(|o| same(o, &l)) {
                out.push(l);
            }
        };
        for (i, c) in self.entries.iter().enumerate() {
            let role = u16::try_from(i)
                .ok()
                .and_then(|i| bootstrap.get(&i))
                .copied();
            match c {
                Const::Int(v) => push(Literal::Int(*v)),
                Const::Long(v) => push(Literal::Long(*v)),
                Const::Float(v) => push(Literal::Float(*v)),
                Const::Double(v) => push(Literal::Double(*v)),
                Const::Str(i) => {
                    let Ok(s) = self.utf8(*i) else { continue };
                    let pieces: Vec<&str> = match role {
                        Some(BootstrapString::Artefact) => continue,
                        Some(BootstrapString::ConcatRecipe) => s
                            .split(['\u{1}', '\u{2}'])
                            .filter(|p| !p.is_empty())
                            .collect(),
                        Some(BootstrapString::Constant) | None => vec![s],
                    };
                    for p in pieces {
                        if p.chars().count() <= MAX_LITERAL_CHARS {
                            push(Literal::Str(p.to_string()))
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }
}

fn tag_name(c: &Const) -> &'static str {
    match c {
        Const::Unused => "unusable",
        Const::Utf8(_) => "a Utf8 entry",
        Const::Int(_) => "an Integer entry",
        Const::Float(_) => "a Float entry",
        Const::Long(_) => "a Long entry",
        Const::Double(_) => "a Double entry",
        Const::Class(_) => "a Class entry",
        Const::Str(_) => "a String entry",
        Const::MemberRef(..) => "a member reference",
        Const::NameAndType(_) => "a NameAndType entry",
        Const::MethodHandle(_) => "a MethodHandle entry",
        Const::Other => "another kind of entry",
    }
}

/// Decode the JVM's "modified UTF-8" (JVMS 4.4.7): NUL as `C0 80`, supplementary characters as
/// two 3-byte surrogates. Invalid sequences become U+FFFD.
fn decode_mutf8(b: &[u8]) -> String {
    if let Ok(s) = std::str::from_utf8(b)
        && !b.contains(&0xC0)
        && !b.contains(&0xED)
    {
        return s.to_string();
    }
    let mut units: Vec<u16> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c < 0x80 {
            units.push(c as u16);
            i += 1;
        } else if c & 0xE0 == 0xC0 && i + 1 < b.len() && b[i + 1] & 0xC0 == 0x80 {
            units.push((((c & 0x1F) as u16) << 6) | (b[i + 1] & 0x3F) as u16);
            i += 2;
        } else if c & 0xF0 == 0xE0
            && i + 2 < b.len()
            && b[i + 1] & 0xC0 == 0x80
            && b[i + 2] & 0xC0 == 0x80
        {
            units.push(
                (((c & 0x0F) as u16) << 12)
                    | (((b[i + 1] & 0x3F) as u16) << 6)
                    | (b[i + 2] & 0x3F) as u16,
            );
            i += 3;
        } else {
            units.push(0xFFFD);
            i += 1;
        }
    }
    String::from_utf16_lossy(&units)
}

struct RawAttr<'a> {
    name: String,
    data: &'a [u8],
}

fn read_attributes<'a>(r: &mut Reader<'a>, pool: &Pool) -> Result<Vec<RawAttr<'a>>> {
    let n = r.u2().context("reading the attribute count")?;
    let mut out = Vec::new();
    for i in 0..n {
        let name_idx = r.u2().with_context(|| format!("reading attribute #{i}"))?;
        let name = pool
            .utf8(name_idx)
            .with_context(|| format!("resolving the name of attribute #{i}"))?;
        let len = r
            .u4()
            .with_context(|| format!("reading the length of attribute {name}"))?
            as usize;
        let data = r
            .bytes(len)
            .with_context(|| format!("reading attribute {name}"))?;
        out.push(RawAttr {
            name: name.to_string(),
            data,
        });
    }
    Ok(out)
}

fn find_attr<'a>(attrs: &[RawAttr<'a>], name: &str) -> Option<&'a [u8]> {
    attrs.iter().find(|a| a.name == name).map(|a| a.data)
}

fn sig_string<'p>(data: &[u8], pool: &'p Pool) -> Result<&'p str> {
    let mut r = Reader::new(data);
    pool.utf8(r.u2()?)
}

/// A field or method before interpretation.
struct Member {
    access: u16,
    name: String,
    descriptor: String,
    signature: Option<String>,
    /// Class names from the `Exceptions` attribute.
    exceptions: Vec<String>,
}

impl Member {
    fn read(r: &mut Reader, pool: &Pool) -> Result<Member> {
        let access = r.u2()?;
        let name = pool
            .utf8(r.u2()?)
            .context("resolving the name")?
            .to_string();
        let descriptor = pool
            .utf8(r.u2()?)
            .with_context(|| format!("resolving the descriptor of {name}"))?
            .to_string();
        let attrs = read_attributes(r, pool)
            .with_context(|| format!("reading the attributes of {name}"))?;
        let signature = match find_attr(&attrs, "Signature") {
            Some(d) => Some(
                sig_string(d, pool)
                    .with_context(|| format!("Signature of {name}"))?
                    .to_string(),
            ),
            None => None,
        };
        let mut exceptions = Vec::new();
        if let Some(d) = find_attr(&attrs, "Exceptions") {
            let mut ar = Reader::new(d);
            let n = ar.u2().with_context(|| format!("Exceptions of {name}"))?;
            for _ in 0..n {
                let idx = ar.u2().with_context(|| format!("Exceptions of {name}"))?;
                exceptions.push(
                    pool.class_name(idx)
                        .with_context(|| format!("Exceptions of {name}"))?,
                );
            }
        }
        Ok(Member {
            access,
            name,
            descriptor,
            signature,
            exceptions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modified_utf8() {
        assert_eq!(decode_mutf8(b"abc"), "abc");
        assert_eq!(decode_mutf8(&[0x61, 0xC0, 0x80, 0x62]), "a\0b");
        // U+1F600 as a surrogate pair D83D DE00, each in 3-byte form.
        assert_eq!(
            decode_mutf8(&[0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]),
            "\u{1F600}"
        );
        assert_eq!(decode_mutf8(&[0xFF]), "\u{FFFD}");
    }

    #[test]
    fn bad_magic_and_truncation() {
        let e = parse_class(&[0xCA, 0xFE, 0xBA, 0xBF, 0, 0, 0, 61]).unwrap_err();
        assert!(format!("{e:#}").contains("bad magic"), "{e:#}");
        let e = parse_class(&[0xCA, 0xFE]).unwrap_err();
        assert!(format!("{e:#}").contains("truncated"), "{e:#}");
        // Valid header, constant pool count 2 but an unknown tag.
        let e = parse_class(&[0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0, 2, 99]).unwrap_err();
        assert!(
            format!("{e:#}").contains("bad constant pool tag 99"),
            "{e:#}"
        );
    }
}
