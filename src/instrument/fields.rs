//! Which fields a method reads and writes, read from its bytecode: its own `getfield` /
//! `putfield` (and `getstatic` / `putstatic`), and those of the methods of the same class it
//! calls (private helpers, `this.setX(..)`), transitively up to [`MAX_DEPTH`]. Why: after a
//! test's last call, the observers worth asserting are the ones that read what that call
//! wrote (`withQuoteMode(NON_NUMERIC)` is checked by `getQuoteMode()`, not by the first
//! twelve getters by name; issue 33, item 4). It lives in the instrumenter because that is
//! the reader that decodes bytecode.

use super::classfile::parse_class;
use std::collections::{BTreeSet, HashMap};

/// How deep calls into the same class are followed.
const MAX_DEPTH: u32 = 3;

/// A method: owner (internal name), name, descriptor.
type MethodKey = (String, String, String);

/// The fields (as `owner.name`, internal owner name) a method reads and writes.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct FieldUse {
    pub reads: BTreeSet<String>,
    pub writes: BTreeSet<String>,
    /// Those of `reads` and `writes` that are static (`getstatic` / `putstatic`).
    pub statics: BTreeSet<String>,
    /// The classes (internal names) the code tests with `instanceof`: not fields, read in
    /// the same pass. What an `Object` parameter is
    /// expected to be (`CSVFormat.print(Object, ..)` streams an `InputStream` and a `Reader`
    /// its own way); see `generate::random::assemble`.
    pub casts: BTreeSet<String>,
}

impl FieldUse {
    /// Whether this (an observer) reads one of the fields `written`.
    pub fn reads_what(&self, written: &BTreeSet<String>) -> bool {
        self.reads.iter().any(|f| written.contains(f))
    }

    /// Whether this writes a field of an object (not a static one).
    pub fn writes_instance_fields(&self) -> bool {
        self.writes.iter().any(|f| !self.statics.contains(f))
    }

    /// The static fields this sets without reading them: a setting of the whole JVM
    /// (`OptionBuilder.withDescription(d)` stores `d` for the next `create()`), not a cache
    /// filled on first use (`if (cache == null) cache = ..` reads it). Compiler-made fields
    /// (`$assertionsDisabled`, `$SWITCH_TABLE$..`) are not settings.
    pub fn settings_written(&self) -> impl Iterator<Item = &String> {
        self.writes.iter().filter(|f| {
            self.statics.contains(*f)
                && !self.reads.contains(*f)
                && !f.rsplit('.').next().is_some_and(|n| n.contains('$'))
        })
    }
}

/// A method body's own field accesses and its calls into its own class.
#[derive(Default, Clone)]
struct Direct {
    uses: FieldUse,
    calls: Vec<MethodKey>,
}

/// A class file's methods and its super class (internal name).
struct Class {
    methods: HashMap<(String, String), Direct>,
    super_class: Option<String>,
}

/// The methods of the classes read so far; reads each class file once.
#[derive(Default)]
pub struct Fields {
    classes: HashMap<String, Option<Class>>,
    memo: HashMap<MethodKey, FieldUse>,
}

impl Fields {
    /// The fields `owner.name desc` (binary or internal class name) reads and writes, with
    /// those of the methods of its class it calls; empty when the class file cannot be read.
    /// `bytes` finds a class file by binary name (dots).
    pub fn of(
        &mut self,
        owner: &str,
        name: &str,
        desc: &str,
        bytes: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
    ) -> FieldUse {
        self.collect(&owner.replace('.', "/"), name, desc, bytes, 0)
    }

    fn collect(
        &mut self,
        owner: &str,
        name: &str,
        desc: &str,
        bytes: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
        depth: u32,
    ) -> FieldUse {
        let key = (owner.to_string(), name.to_string(), desc.to_string());
        if let Some(u) = self.memo.get(&key) {
            return u.clone();
        }
        let Some(direct) = self.direct(owner, name, desc, bytes) else {
            return FieldUse::default();
        };
        // in progress (a recursive call): what the body itself does
        self.memo.insert(key.clone(), direct.uses.clone());
        let mut uses = direct.uses;
        if depth < MAX_DEPTH {
            for (o, n, d) in &direct.calls {
                let callee = self.collect(o, n, d, bytes, depth + 1);
                uses.reads.extend(callee.reads);
                uses.writes.extend(callee.writes);
                uses.statics.extend(callee.statics);
                uses.casts.extend(callee.casts);
            }
        }
        if depth == 0 {
            self.memo.insert(key, uses.clone());
        } else {
            // a shallower caller's reading stops earlier: not remembered
            self.memo.remove(&key);
        }
        uses
    }

    fn direct(
        &mut self,
        owner: &str,
        name: &str,
        desc: &str,
        bytes: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
    ) -> Option<Direct> {
        // an inherited method's body is in a super class
        let mut owner = owner.to_string();
        for _ in 0..16 {
            let class = self
                .classes
                .entry(owner.clone())
                .or_insert_with(|| bytes(&owner.replace('/', ".")).and_then(|b| read_class(&b)))
                .as_ref()?;
            if let Some(d) = class.methods.get(&(name.to_string(), desc.to_string())) {
                return Some(d.clone());
            }
            owner = class.super_class.clone()?;
        }
        None
    }
}

/// The JDK container methods that change their receiver.
const MUTATORS: &[&str] = &[
    "add",
    "addAll",
    "addFirst",
    "addLast",
    "put",
    "putAll",
    "putIfAbsent",
    "remove",
    "removeAll",
    "removeIf",
    "removeFirst",
    "removeLast",
    "retainAll",
    "clear",
    "set",
    "offer",
    "offerFirst",
    "offerLast",
    "push",
    "pop",
    "poll",
    "pollFirst",
    "pollLast",
    "append",
    "insert",
    "delete",
    "deleteCharAt",
    "replace",
    "replaceAll",
    "setLength",
    "setCharAt",
    "reverse",
    "compute",
    "computeIfAbsent",
    "computeIfPresent",
    "merge",
    "sort",
];

/// Whether `class` (internal name) is a JDK container whose [`MUTATORS`] change it.
fn container(class: &str) -> bool {
    class.starts_with("java/util/")
        || class == "java/lang/StringBuilder"
        || class == "java/lang/StringBuffer"
}

/// The last field of object type a method body loaded (`getfield`), to tell a write into
/// the object it holds: `this.set.add(..)` changes what the field `set` holds without a
/// `putfield`, as `this.buffer[i] = c` does. Why: `CharSet.ASCII_NUMERIC.add("..")` (a
/// protected method, callable from the tests' package) changed a constant every later test
/// of commons-lang3's build saw, and `CharSetTest.testStatics` failed: `add` was not known to
/// write anything, so the rule against writing shared instances let it through. Read
/// without a stack model: the field counts as the call's receiver when it is a container
/// of the JDK, the call one of its mutators, and the load not the instruction right before a
/// call with arguments (then it is the last argument: `list.add(this.items)`); an array
/// field as the store's array when no array load came between.
#[derive(Default)]
struct Held {
    /// (instruction index, field as `owner.name`, its type's internal name or `[..`).
    last: Option<(usize, String, String)>,
}

impl Held {
    fn loaded(&mut self, i: usize, field: &str, desc: &str) {
        self.last = match desc.as_bytes().first() {
            Some(b'L') => Some((i, field.to_string(), desc[1..desc.len() - 1].to_string())),
            Some(b'[') => Some((i, field.to_string(), desc.to_string())),
            _ => None,
        };
    }

    /// The field whose object instruction `i` (`op` at `off` of `body`) writes, if any.
    fn written_by(
        &mut self,
        i: usize,
        op: u8,
        body: &[u8],
        off: u32,
        cp: &super::classfile::ConstPool,
    ) -> Option<String> {
        let (at, field, ty) = self.last.as_ref()?;
        match op {
            // iaload..saload: an element read, so a later store is not into this field
            0x2e..=0x35 => {
                self.last = None;
                None
            }
            // iastore..sastore
            0x4f..=0x56 if ty.starts_with('[') => {
                let f = field.clone();
                self.last = None;
                Some(f)
            }
            // invokevirtual, invokeinterface
            0xb6 | 0xb9 => {
                let at_ref = off as usize + 1;
                let idx = u16::from_be_bytes([*body.get(at_ref)?, *body.get(at_ref + 1)?]);
                let (owner, name, desc) = cp.ref_at(idx)?;
                let takes_args = !desc.starts_with("()");
                let receiver = !(takes_args && *at + 1 == i);
                if receiver && container(owner) && container(ty) && MUTATORS.contains(&name) {
                    let f = field.clone();
                    self.last = None;
                    return Some(f);
                }
                None
            }
            _ => None,
        }
    }
}

/// Each method of a class file: its field accesses and its calls into the same class.
fn read_class(bytes: &[u8]) -> Option<Class> {
    let cf = parse_class(bytes).ok()?;
    let this = cf.cp.class_name_at(cf.this_class).ok()?.to_string();
    let super_class = match cf.super_class {
        0 => None,
        i => Some(cf.cp.class_name_at(i).ok()?.to_string()),
    };
    let mut out = HashMap::new();
    for m in &cf.methods {
        let mut d = Direct::default();
        let code = m
            .attrs
            .iter()
            .find(|a| cf.cp.utf8_at(a.name).is_ok_and(|s| s == "Code"));
        if let Some(c) = code
            && let Ok((body, ops)) = super::code::opcodes(c.body)
        {
            let mut held = Held::default();
            for (i, &(off, op)) in ops.iter().enumerate() {
                if let Some(f) = held.written_by(i, op, body, off, &cf.cp) {
                    d.uses.writes.insert(f);
                }
                let at = off as usize + 1;
                if at + 2 > body.len() {
                    continue;
                }
                let idx = u16::from_be_bytes([body[at], body[at + 1]]);
                match op {
                    // getstatic, putstatic, getfield, putfield
                    0xb2..=0xb5 => {
                        if let Some((o, n, desc)) = cf.cp.ref_at(idx) {
                            let f = format!("{o}.{n}");
                            if op <= 0xb3 {
                                d.uses.statics.insert(f.clone());
                            }
                            if op == 0xb4 {
                                held.loaded(i, &f, desc);
                            }
                            if op == 0xb3 || op == 0xb5 {
                                d.uses.writes.insert(f);
                            } else {
                                d.uses.reads.insert(f);
                            }
                        }
                    }
                    // instanceof (not of arrays): a value the code treats apart. Not
                    // `checkcast`: a cast assumes the type (`(Comparable) key` in TreeMap),
                    // and a generic call's result is cast too; as hints they cost the
                    // coverage corpus TreeMap 10 and StringUtils 16 branches.
                    0xc1 => {
                        if let Ok(c) = cf.cp.class_name_at(idx)
                            && !c.starts_with('[')
                        {
                            d.uses.casts.insert(c.to_string());
                        }
                    }
                    // invokevirtual, invokespecial, invokestatic into this class
                    0xb6..=0xb8 => {
                        if let Some((o, n, ds)) = cf.cp.ref_at(idx)
                            && o == this
                            && n != "<init>"
                        {
                            d.calls.push((o.to_string(), n.to_string(), ds.to_string()));
                        }
                    }
                    _ => {}
                }
            }
        }
        out.insert(
            (
                cf.cp.utf8_at(m.name).ok()?.to_string(),
                cf.cp.utf8_at(m.desc).ok()?.to_string(),
            ),
            d,
        );
    }
    Some(Class {
        methods: out,
        super_class,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setter_writes_through_its_private_helper_and_a_getter_reads() {
        // a JDK class, read from the running JDK's jmods
        let home = crate::model::classpath::test_java_home();
        let mut jmods = crate::model::classpath::JmodClasses::open(&home)
            .unwrap()
            .expect("the JDK has jmods");
        use crate::model::classpath::JdkClasses;
        let mut bytes = |n: &str| jmods.class_bytes(n).ok().flatten();
        let mut f = Fields::default();
        // ArrayList.add(Object) writes size (in its private helper add(Object, Object[], int))
        let add = f.of(
            "java.util.ArrayList",
            "add",
            "(Ljava/lang/Object;)Z",
            &mut bytes,
        );
        assert!(add.writes.contains("java/util/ArrayList.size"), "{add:?}");
        let size = f.of("java.util.ArrayList", "size", "()I", &mut bytes);
        assert!(size.reads_what(&add.writes), "{size:?}");
        let empty = f.of("java.util.ArrayList", "isEmpty", "()Z", &mut bytes);
        assert!(empty.reads_what(&add.writes));
        // an inherited method's body is found in the super class
        let hash = f.of("java.util.ArrayList", "hashCode", "()I", &mut bytes);
        assert!(!hash.reads.is_empty(), "{hash:?}");
        // HashSet.add writes no field itself, it puts into the map its field holds
        let put = f.of(
            "java.util.HashSet",
            "add",
            "(Ljava/lang/Object;)Z",
            &mut bytes,
        );
        assert!(put.writes.contains("java/util/HashSet.map"), "{put:?}");
        let has = f.of(
            "java.util.HashSet",
            "contains",
            "(Ljava/lang/Object;)Z",
            &mut bytes,
        );
        assert!(has.writes.is_empty(), "{has:?}");
        assert!(has.reads_what(&put.writes));
        // the classes a parameter is tested against with instanceof, in the method (inherited
        // from AbstractMap here) or its class's methods it calls: TreeMap(Map) copies a
        // SortedMap its own way, through putAll(Map)
        let eq = f.of(
            "java.util.ArrayList",
            "equals",
            "(Ljava/lang/Object;)Z",
            &mut bytes,
        );
        assert!(eq.casts.contains("java/util/List"), "{eq:?}");
        let from = f.of(
            "java.util.TreeMap",
            "<init>",
            "(Ljava/util/Map;)V",
            &mut bytes,
        );
        assert!(from.casts.contains("java/util/SortedMap"), "{from:?}");
        assert!(has.casts.is_empty(), "{has:?}");
        // an unknown class: nothing known
        assert_eq!(f.of("no.Such", "m", "()V", &mut bytes), FieldUse::default());
    }
}
