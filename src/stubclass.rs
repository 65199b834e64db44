//! Writes the class file of a [`Stub`]: the anonymous subclass jforge makes of an abstract
//! class (or interface) exists in source as `new X() { ... }`, but the workers run sequences,
//! not source, so the runner writes an equivalent class onto their class path before they
//! load it.
//!
//! Why written here and not in the worker: the worker uses only the JDK, and JDK 17 has no
//! class-file API; a stub is so simple (no branch, so no stack map frames) that a hundred
//! lines write it. The class, version 52 (Java 8):
//! - one `private final` field `r<k>` per non-void method, holding what that method returns;
//! - one public constructor taking the super constructor's arguments, then the fields'
//!   values; it stores the fields *before* calling the super constructor (the verifier allows
//!   `putfield` of the class's own fields on `uninitializedThis`, as javac does for an inner
//!   class's outer instance), so that a super constructor calling an abstract method (a
//!   template method) already sees the values;
//! - each abstract method, with the access of the method it implements, returning its field
//!   (a void one returns at once).
//!
//! The name ends in [`MARKER`] plus a hash: the worker's blame knows a stub by it.

use crate::sequence::Stub;
use std::collections::HashMap;
use std::hash::Hasher;

/// What every stub class name contains (`com.acme.Bag$$JforgeStub_1a2b3c4d`).
pub const MARKER: &str = "$$JforgeStub_";

/// Package of the stubs that need no package access: JDK packages (`java.util`) cannot get
/// classes of the class path's loader.
pub const PACKAGE: &str = "jforge.stub";

/// The binary name of the class of `stub`: in the package of the class it extends when it
/// needs package access, else in [`PACKAGE`]; the hash tells stubs of one class apart.
pub fn class_name(stub: &Stub, package_access: bool) -> String {
    let base = stub.interface.as_deref().unwrap_or(&stub.superclass);
    let mut h = twox_hash::XxHash64::with_seed(0x5354);
    h.write(base.as_bytes());
    h.write(stub.super_descriptor.as_bytes());
    for m in &stub.methods {
        h.write(m.name.as_bytes());
        h.write(m.descriptor.as_bytes());
        h.write(m.access.as_bytes());
    }
    let hash = h.finish() as u32;
    if package_access {
        format!("{base}{MARKER}{hash:08x}")
    } else {
        format!(
            "{PACKAGE}.{}{MARKER}{hash:08x}",
            base.replace(['.', '$'], "_")
        )
    }
}

/// The erased descriptor of the stub class's one constructor: the super constructor's
/// parameters, then the return type of each non-void method.
pub fn constructor_descriptor(stub: &Stub) -> String {
    let mut all: Vec<&str> = params(&stub.super_descriptor);
    all.extend(
        stub.methods
            .iter()
            .filter_map(|m| ret_descriptor(&m.descriptor)),
    );
    format!("({})V", all.concat())
}

/// The class file of `stub` named `name` (binary name, dots).
pub fn class_file(name: &str, stub: &Stub) -> Vec<u8> {
    let mut w = Writer::default();
    let this = w.class(&name.replace('.', "/"));
    let sup = w.class(&stub.superclass.replace('.', "/"));
    let iface = stub
        .interface
        .as_ref()
        .map(|i| w.class(&i.replace('.', "/")));
    let returns: Vec<(usize, String)> = stub
        .methods
        .iter()
        .enumerate()
        .filter_map(|(k, m)| Some((k, ret_descriptor(&m.descriptor)?.to_string())))
        .collect();
    let mut fields = Vec::new();
    for (k, d) in &returns {
        fields.push(member(0x0012, w.utf8(&format!("r{k}")), w.utf8(d), None));
    }
    let mut methods = vec![constructor(&mut w, this, sup, stub, &returns)];
    for (k, m) in stub.methods.iter().enumerate() {
        let ret = ret_descriptor(&m.descriptor);
        let mut code = Vec::new();
        let stack = match ret {
            None => 0,
            Some(d) => {
                let f = w.member_ref(9, this, &format!("r{k}"), d);
                code.push(0x2a);
                code.push(0xb4);
                code.extend(f.to_be_bytes());
                size(d)
            }
        };
        code.push(ret.map_or(0xb1, return_op));
        let locals = 1 + params(&m.descriptor).iter().map(|p| size(p)).sum::<u16>();
        let access = match m.access {
            "public" => 0x0001,
            "protected" => 0x0004,
            _ => 0,
        };
        let body = w.code(stack, locals, &code);
        methods.push(member(
            access,
            w.utf8(&m.name),
            w.utf8(&m.descriptor),
            Some(body),
        ));
    }
    w.finish(this, sup, iface, &fields, &methods)
}

/// The constructor: fields first, then the super constructor with its arguments.
fn constructor(
    w: &mut Writer,
    this: u16,
    sup: u16,
    stub: &Stub,
    returns: &[(usize, String)],
) -> Vec<u8> {
    let supers = params(&stub.super_descriptor);
    let mut all: Vec<&str> = supers.clone();
    all.extend(returns.iter().map(|(_, d)| d.as_str()));
    let slots: Vec<u16> = all
        .iter()
        .scan(1u16, |next, d| {
            let s = *next;
            *next += size(d);
            Some(s)
        })
        .collect();
    let mut code = Vec::new();
    for (j, (k, d)) in returns.iter().enumerate() {
        let f = w.member_ref(9, this, &format!("r{k}"), d);
        code.push(0x2a);
        load(&mut code, d, slots[supers.len() + j]);
        code.push(0xb5);
        code.extend(f.to_be_bytes());
    }
    code.push(0x2a);
    for (j, d) in supers.iter().enumerate() {
        load(&mut code, d, slots[j]);
    }
    let init = w.member_ref(10, sup, "<init>", &stub.super_descriptor);
    code.push(0xb7);
    code.extend(init.to_be_bytes());
    code.push(0xb1);
    let words = |ds: &[&str]| ds.iter().map(|d| size(d)).sum::<u16>();
    let stack = (1 + words(&supers)).max(3);
    let locals = 1 + words(&all);
    let descriptor = format!("({})V", all.concat());
    let body = w.code(stack, locals, &code);
    member(0x0001, w.utf8("<init>"), w.utf8(&descriptor), Some(body))
}

/// A field or method: access, name, descriptor, and the Code attribute of a method.
fn member(access: u16, name: u16, descriptor: u16, code: Option<Vec<u8>>) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend(access.to_be_bytes());
    out.extend(name.to_be_bytes());
    out.extend(descriptor.to_be_bytes());
    out.extend(u16::from(code.is_some()).to_be_bytes());
    out.extend(code.unwrap_or_default());
    out
}

/// Pushes local `slot` of field descriptor `d` (`wide` for slots past 255).
fn load(code: &mut Vec<u8>, d: &str, slot: u16) {
    let op = match d.as_bytes()[0] {
        b'J' => 0x16,
        b'F' => 0x17,
        b'D' => 0x18,
        b'L' | b'[' => 0x19,
        _ => 0x15,
    };
    if let Ok(s) = u8::try_from(slot) {
        code.extend([op, s]);
    } else {
        code.extend([0xc4, op]);
        code.extend(slot.to_be_bytes());
    }
}

/// The return instruction for field descriptor `d`.
fn return_op(d: &str) -> u8 {
    match d.as_bytes()[0] {
        b'J' => 0xad,
        b'F' => 0xae,
        b'D' => 0xaf,
        b'L' | b'[' => 0xb0,
        _ => 0xac,
    }
}

/// Local-variable slots (and stack words) of a value of field descriptor `d`.
fn size(d: &str) -> u16 {
    if d == "J" || d == "D" { 2 } else { 1 }
}

/// The return descriptor of method descriptor `d`; `None` for void.
fn ret_descriptor(d: &str) -> Option<&str> {
    d.split_once(')').map(|(_, r)| r).filter(|r| *r != "V")
}

/// The parameter descriptors of method descriptor `d`.
fn params(d: &str) -> Vec<&str> {
    let inner = d
        .strip_prefix('(')
        .and_then(|r| r.split_once(')'))
        .map_or("", |(p, _)| p);
    let b = inner.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let start = i;
        while i < b.len() && b[i] == b'[' {
            i += 1;
        }
        if i < b.len() && b[i] == b'L' {
            while i < b.len() && b[i] != b';' {
                i += 1;
            }
        }
        i += 1;
        out.push(&inner[start..i.min(b.len())]);
    }
    out
}

/// A constant pool being built (entries deduplicated) and the class's parts.
#[derive(Default)]
struct Writer {
    pool: Vec<u8>,
    count: u16,
    index: HashMap<Vec<u8>, u16>,
}

impl Writer {
    /// Index of the constant with these bytes (tag first), added when new.
    fn constant(&mut self, bytes: Vec<u8>) -> u16 {
        if let Some(&i) = self.index.get(&bytes) {
            return i;
        }
        self.count += 1;
        self.pool.extend(&bytes);
        self.index.insert(bytes, self.count);
        self.count
    }
    fn utf8(&mut self, s: &str) -> u16 {
        // Names and descriptors of the class path are ASCII in practice; modified UTF-8
        // differs from UTF-8 only for NUL and supplementary characters.
        let mut b = vec![1];
        b.extend((s.len() as u16).to_be_bytes());
        b.extend(s.as_bytes());
        self.constant(b)
    }
    fn class(&mut self, internal: &str) -> u16 {
        let n = self.utf8(internal);
        let mut b = vec![7];
        b.extend(n.to_be_bytes());
        self.constant(b)
    }
    /// A Fieldref (tag 9) or Methodref (tag 10).
    fn member_ref(&mut self, tag: u8, class: u16, name: &str, descriptor: &str) -> u16 {
        let (n, d) = (self.utf8(name), self.utf8(descriptor));
        let mut nt = vec![12];
        nt.extend(n.to_be_bytes());
        nt.extend(d.to_be_bytes());
        let nt = self.constant(nt);
        let mut b = vec![tag];
        b.extend(class.to_be_bytes());
        b.extend(nt.to_be_bytes());
        self.constant(b)
    }
    /// A Code attribute (no exception table, no attributes).
    fn code(&mut self, stack: u16, locals: u16, code: &[u8]) -> Vec<u8> {
        let name = self.utf8("Code");
        let mut out = Vec::new();
        out.extend(name.to_be_bytes());
        out.extend((12 + code.len() as u32).to_be_bytes());
        out.extend(stack.to_be_bytes());
        out.extend(locals.to_be_bytes());
        out.extend((code.len() as u32).to_be_bytes());
        out.extend(code);
        out.extend([0, 0, 0, 0]);
        out
    }
    fn finish(
        self,
        this: u16,
        sup: u16,
        iface: Option<u16>,
        fields: &[Vec<u8>],
        methods: &[Vec<u8>],
    ) -> Vec<u8> {
        let mut out = vec![0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 52];
        out.extend((self.count + 1).to_be_bytes());
        out.extend(&self.pool);
        out.extend(0x0031u16.to_be_bytes()); // public final super
        out.extend(this.to_be_bytes());
        out.extend(sup.to_be_bytes());
        out.extend(u16::from(iface.is_some()).to_be_bytes());
        out.extend(iface.map(u16::to_be_bytes).into_iter().flatten());
        for part in [fields, methods] {
            out.extend((part.len() as u16).to_be_bytes());
            for m in part {
                out.extend(m);
            }
        }
        out.extend([0, 0]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_descriptors_split() {
        assert_eq!(
            params("(I[JLjava/lang/String;[[Ljava/util/List;D)V"),
            vec!["I", "[J", "Ljava/lang/String;", "[[Ljava/util/List;", "D"]
        );
        assert_eq!(params("()V"), Vec::<&str>::new());
        assert_eq!(ret_descriptor("()V"), None);
        assert_eq!(ret_descriptor("()J"), Some("J"));
    }
}
