//! The one sequence type every generator produces and the runner executes.
//!
//! A [`Sequence`] is a list of statements; each statement produces at most one value and
//! refers to the values of earlier statements by index. Operations (constructors, methods,
//! field accesses) live in an [`OpTable`] and are referred to by [`OpId`]: the runner registers
//! each operation with a worker once and afterwards only sends the id.

use crate::model::JType;
use std::sync::Arc;

pub type OpId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpKind {
    /// `new C(args)`; inputs are the constructor arguments (for a non-static inner class the
    /// outer instance comes first and is written `outer.new Inner(...)`).
    Constructor,
    /// `recv.m(args)`; input 0 is the receiver.
    Method,
    /// `C.m(args)`.
    StaticMethod,
    /// `recv.f`; input 0 is the receiver.
    FieldGet,
    /// `C.f` (also enum constants).
    StaticFieldGet,
    /// `recv.f = v`; inputs: receiver, value.
    FieldSet,
    /// `C.f = v`; input: value.
    StaticFieldSet,
}

/// An operation with the concrete (instantiated) Java types used in source code.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Operation {
    pub kind: OpKind,
    /// Binary name of the class the member is looked up in by reflection (dots).
    pub class: String,
    /// Member name; `<init>` for constructors.
    pub name: String,
    /// Erased JVM descriptor: method descriptor for methods and constructors, field descriptor
    /// for fields. For inner-class constructors it includes the outer instance.
    pub descriptor: String,
    /// Static type of the receiver (instance members), or the class named in source for static
    /// members and constructors (with type arguments for `new TreeMap<String, Integer>()`).
    pub owner: JType,
    /// Concrete types of the inputs after the receiver, in order (for `FieldSet`, the value).
    pub params: Vec<JType>,
    /// Concrete static type of the result (`None` for void and setters). For constructors:
    /// the constructed type.
    pub ret: Option<JType>,
    /// Method is varargs (the last parameter is an array; emitted as an explicit array).
    pub varargs: bool,
    /// Another overload of the same name and arity exists: the emitter casts each argument to
    /// its parameter type so that javac selects exactly this member.
    pub overloaded: bool,
    /// Explicit type arguments for a generic method call: `Collections.<String>emptyList()`.
    pub method_type_args: Vec<JType>,
    /// Constructor of a non-static inner class: `params[0]` is the outer instance and the call
    /// is written `outer.new Inner(rest)`.
    pub outer_instance: bool,
    /// A constructor of an anonymous subclass jforge makes (see [`Stub`]); `None` for every
    /// member of the code under test.
    pub stub: Option<Arc<Stub>>,
}

/// An anonymous subclass of an abstract class (or an implementation of an interface with
/// several abstract methods) that no public class of the class path implements: `new
/// ForwardingList<String>() { protected List<String> delegate() { return arrayList0; } }`.
/// Its operation is a constructor (`OpKind::Constructor`) of a class the runner writes
/// before the workers load it ([`Operation::class`] names it); the operation's `params`
/// are the super constructor's arguments, then one value per non-void method, which that
/// method returns. The writers print the anonymous class instead of the runner's class.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Stub {
    /// Binary name of the class extended (`java.lang.Object` for an interface).
    pub superclass: String,
    /// The interface implemented, if the stub is of an interface.
    pub interface: Option<String>,
    /// Erased descriptor of the super constructor called.
    pub super_descriptor: String,
    /// How many of the operation's `params` go to the super constructor.
    pub super_params: usize,
    /// The methods implemented, in the order of their values in the operation's `params`.
    pub methods: Vec<StubMethod>,
}

/// One abstract method a [`Stub`] implements.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StubMethod {
    pub name: String,
    /// Erased JVM descriptor.
    pub descriptor: String,
    /// `public`, `protected` or package access (`""`): the access of the method overridden.
    pub access: &'static str,
    /// Parameter types as seen from the stub's type (for the source of the override).
    pub params: Vec<JType>,
    /// Return type as seen from the stub's type; `None` for void (the method does nothing).
    pub ret: Option<JType>,
}

impl Stub {
    /// The index in the operation's `params` of the value method `k` returns (`None` for a
    /// void method).
    pub fn value_of(&self, k: usize) -> Option<usize> {
        self.methods.get(k)?.ret.as_ref()?;
        let before = self.methods[..k].iter().filter(|m| m.ret.is_some()).count();
        Some(self.super_params + before)
    }
}

impl Operation {
    /// A call of an instance method without parameters, `receiver.name()`, on a receiver of
    /// static type `owner` (observers, `size()`-like lengths, `--check` predicates).
    pub fn instance_call(
        class: &str,
        name: &str,
        descriptor: &str,
        owner: &JType,
        ret: Option<JType>,
    ) -> Operation {
        Operation {
            kind: OpKind::Method,
            class: class.to_string(),
            name: name.to_string(),
            descriptor: descriptor.to_string(),
            owner: owner.clone(),
            params: Vec::new(),
            ret,
            varargs: false,
            overloaded: false,
            method_type_args: Vec::new(),
            outer_instance: false,
            stub: None,
        }
    }

    /// Number of inputs a statement of this operation takes (receiver included).
    pub fn arity(&self) -> usize {
        self.input_types().len()
    }
    /// Static types of all inputs, receiver first (for instance members).
    pub fn input_types(&self) -> Vec<JType> {
        let mut v = Vec::with_capacity(self.params.len() + 1);
        if matches!(
            self.kind,
            OpKind::Method | OpKind::FieldGet | OpKind::FieldSet
        ) {
            v.push(self.owner.clone());
        }
        v.extend(self.params.iter().cloned());
        v
    }
    pub fn has_receiver(&self) -> bool {
        matches!(
            self.kind,
            OpKind::Method | OpKind::FieldGet | OpKind::FieldSet
        )
    }
    /// An instance `equals(Object)` (whatever class declares it).
    pub fn is_equals(&self) -> bool {
        self.kind == OpKind::Method
            && self.name == "equals"
            && self.descriptor == "(Ljava/lang/Object;)Z"
    }
    /// An instance `hashCode()`.
    pub fn is_hash_code(&self) -> bool {
        self.kind == OpKind::Method && self.name == "hashCode" && self.descriptor == "()I"
    }
    /// An instance `ordinal()` returning `int` (`Enum.ordinal()` on an enum receiver, or an
    /// interface method of that name an enum implements).
    pub fn is_ordinal(&self) -> bool {
        self.kind == OpKind::Method && self.name == "ordinal" && self.descriptor == "()I"
    }
    /// Short human name, e.g. `java.util.TreeMap.put(Object,Object)`.
    pub fn signature(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|t| short(&t.erasure().to_string()))
            .collect();
        match self.kind {
            OpKind::Constructor => format!("{}({})", self.class, params.join(",")),
            OpKind::FieldGet | OpKind::StaticFieldGet => format!("{}.{}", self.class, self.name),
            OpKind::FieldSet | OpKind::StaticFieldSet => format!("{}.{}=", self.class, self.name),
            _ => format!("{}.{}({})", self.class, self.name, params.join(",")),
        }
    }
}

fn short(name: &str) -> String {
    name.rsplit('.').next().unwrap_or(name).to_string()
}

/// All operations known to a run; ids are indices.
#[derive(Default, Debug, Clone)]
pub struct OpTable {
    ops: Vec<Operation>,
    index: std::collections::HashMap<Operation, OpId>,
}

impl OpTable {
    pub fn intern(&mut self, op: Operation) -> OpId {
        if let Some(&id) = self.index.get(&op) {
            return id;
        }
        let id = self.ops.len() as OpId;
        self.ops.push(op.clone());
        self.index.insert(op, id);
        id
    }
    pub fn get(&self, id: OpId) -> &Operation {
        &self.ops[id as usize]
    }
    /// The id of `op` when the table holds it.
    pub fn id_of(&self, op: &Operation) -> Option<OpId> {
        self.index.get(op).copied()
    }
    pub fn len(&self) -> usize {
        self.ops.len()
    }
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }
    pub fn iter(&self) -> impl Iterator<Item = (OpId, &Operation)> {
        self.ops.iter().enumerate().map(|(i, o)| (i as OpId, o))
    }
}

/// A primitive, String, enum or null value: what a literal statement holds and what the
/// worker reports for such results. Floats are kept as bits so that values hash and compare
/// exactly (NaN, -0.0).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Null,
    Bool(bool),
    Byte(i8),
    Short(i16),
    /// UTF-16 code unit.
    Char(u16),
    Int(i32),
    Long(i64),
    Float(u32),
    Double(u64),
    Str(String),
    /// Enum constant: binary class name, constant name.
    Enum(String, String),
    /// An array's contents, as observed in `Observe` mode (never a literal of a sequence):
    /// the component class name (`int`, `java.lang.String`, `java.lang.Object`, ...) and the
    /// elements, each a primitive, String, enum or null value (no nested arrays).
    Array(String, Vec<Value>),
    /// An array too long or too nested to write out (see `Outcomes.writeDigest` in the
    /// worker), as observed in `Observe` mode: its class name (`[[Ljava.lang.String;`), its
    /// length and the hash `java.util.Arrays.deepHashCode` (`Arrays.hashCode` for a
    /// primitive array) gives it, which a test recomputes. Never a literal of a sequence.
    Digest(String, u32, i32),
    /// A lambda implementing the functional interface that is the literal's static type
    /// (`Stmt::Lit { ty: Consumer<String>, .. }`): its number of parameters and what its one
    /// abstract method returns. The worker makes it a `java.lang.reflect.Proxy`, the writers
    /// `(p$0, p$1) -> p$0`. Only a literal of a sequence, never a reported value.
    Lambda(u8, LambdaBody),
    /// A class literal `X.class` of the erased type `X` (a class, array or primitive type):
    /// a `Class<X>` argument (`getAnnotation(Class)`, `Arrays.copyOf(.., Class)`). Only a
    /// literal of a sequence, never a reported value.
    Class(JType),
}

/// What a lambda literal's method returns (see [`Value::Lambda`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LambdaBody {
    /// Nothing: the method is `void` (`x -> {}`).
    Void,
    /// Its parameter with this index (`(a, b) -> a`): the parameter's type fits the result.
    Arg(u8),
    /// This value (a primitive, boxed, String or null value of exactly the return type's kind:
    /// `0L` for `long`, `""` for `String`).
    Value(Box<Value>),
}

impl Value {
    pub fn float(f: f32) -> Value {
        Value::Float(f.to_bits())
    }
    pub fn double(d: f64) -> Value {
        Value::Double(d.to_bits())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stmt {
    /// Call `op` on the values of the statements at `args` (receiver first).
    Call { op: OpId, args: Vec<u32> },
    /// A literal of static type `ty` (primitive, String, or a typed `null`).
    Lit { ty: JType, value: Value },
    /// `new elem[] { v0, v1, ... }` from the values of the statements at `elems`.
    Array { elem: JType, elems: Vec<u32> },
}

impl Stmt {
    /// Whether this is `x.equals(x)`: the receiver passed as its own argument (true by the
    /// reflexivity contract, which the worker checks apart: nothing worth asserting or
    /// writing on its own).
    /// `is_equals` says whether an operation is `equals(Object)` ([`Operation::is_equals`]).
    pub fn is_self_equals(&self, is_equals: impl Fn(OpId) -> bool) -> bool {
        matches!(self, Stmt::Call { op, args } if args.len() == 2 && args[0] == args[1] && is_equals(*op))
    }
    /// Indices of the statements whose values this one reads.
    pub fn inputs(&self) -> &[u32] {
        match self {
            Stmt::Call { args, .. } => args,
            Stmt::Lit { .. } => &[],
            Stmt::Array { elems, .. } => elems,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sequence {
    pub stmts: Vec<Stmt>,
}

pub type SeqRef = Arc<Sequence>;

impl Sequence {
    pub fn len(&self) -> usize {
        self.stmts.len()
    }
    pub fn is_empty(&self) -> bool {
        self.stmts.is_empty()
    }
    /// Whether a statement is a lambda literal: the values made from it behave as the lambda's
    /// default answers do (a `Scanner` over a lambda that reads 0 characters waits forever in
    /// `next()`), so generators use them last or not at all as receivers.
    pub fn has_lambda(&self) -> bool {
        self.stmts.iter().any(|s| {
            matches!(
                s,
                Stmt::Lit {
                    value: Value::Lambda(..),
                    ..
                }
            )
        })
    }
    /// Static type of the value statement `i` produces (`None` for void).
    pub fn out_type(&self, ops: &OpTable, i: usize) -> Option<JType> {
        match &self.stmts[i] {
            Stmt::Call { op, .. } => ops.get(*op).ret.clone(),
            Stmt::Lit { ty, .. } => Some(ty.clone()),
            Stmt::Array { elem, .. } => Some(JType::Array(Box::new(elem.clone()))),
        }
    }
    /// Append `other`, shifting its references; returns the offset of its first statement.
    pub fn append(&mut self, other: &Sequence) -> u32 {
        let off = self.stmts.len() as u32;
        self.stmts.reserve(other.stmts.len());
        for s in &other.stmts {
            self.stmts.push(match s {
                Stmt::Call { op, args } => Stmt::Call {
                    op: *op,
                    args: args.iter().map(|a| a + off).collect(),
                },
                Stmt::Lit { .. } => s.clone(),
                Stmt::Array { elem, elems } => Stmt::Array {
                    elem: elem.clone(),
                    elems: elems.iter().map(|a| a + off).collect(),
                },
            });
        }
        off
    }
    /// Remove statement `i` (which no later statement may use); later references shift down.
    pub fn remove(&self, i: usize) -> Option<Sequence> {
        let i = i as u32;
        let mut out = Vec::with_capacity(self.stmts.len() - 1);
        for (j, s) in self.stmts.iter().enumerate() {
            if j as u32 == i {
                continue;
            }
            if s.inputs().contains(&i) {
                return None;
            }
            let fix = |a: &u32| if *a > i { a - 1 } else { *a };
            out.push(match s {
                Stmt::Call { op, args } => Stmt::Call {
                    op: *op,
                    args: args.iter().map(fix).collect(),
                },
                Stmt::Lit { .. } => s.clone(),
                Stmt::Array { elem, elems } => Stmt::Array {
                    elem: elem.clone(),
                    elems: elems.iter().map(fix).collect(),
                },
            });
        }
        Some(Sequence { stmts: out })
    }
    /// A 128-bit structural hash (one XXH3-128 pass), used to drop duplicate sequences
    /// before execution.
    pub fn fingerprint(&self) -> u128 {
        use std::hash::Hash;
        /// `std::hash::Hasher` over XXH3-128 (the crate's 128-bit hasher has no such impl).
        struct H(twox_hash::XxHash3_128);
        impl std::hash::Hasher for H {
            fn write(&mut self, bytes: &[u8]) {
                self.0.write(bytes)
            }
            fn finish(&self) -> u64 {
                self.0.finish_128() as u64
            }
        }
        let mut h = H(twox_hash::XxHash3_128::with_seed(0x6a66));
        self.hash(&mut h);
        h.0.finish_128()
    }
}

/// Why a class or member is not tested. Written to `--stats-json` as its text; the warnings
/// at the end of a run count members per reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SkipReason {
    /// A class found through --package/--jar that tests cannot name.
    ClassNotPublic,
    /// A class found through --package/--jar that could not be read.
    ClassNotFound,
    ClassTypeParams,
    ReturnsNonPublic,
    FieldTypeNotConcrete,
    NotMemberOfInstantiation,
    GenericConstructor,
    MethodTypeParams,
    TypesNotConcrete,
    ParameterizedArray,
    /// `exhaustive`: a parameter type has no domain.
    NoInputValues,
    /// A parameter type that no public constructor, static factory or constant jforge can
    /// call makes (the member is still called, with `null` for it).
    NoProducer,
    /// A static setter or a write to a static field (`DateTimeZone.setDefault(..)`): a test
    /// calling it changes the JVM for every test run after it, in the user's build too.
    GlobalState,
    /// A member of the JDK that the Java release the project compiles its tests for lacks
    /// (`model::release`): a test calling it would not compile in the project's build.
    NewerThanRelease,
}

impl SkipReason {
    pub fn text(self) -> &'static str {
        match self {
            SkipReason::ClassNotPublic => "class is not public",
            SkipReason::ClassNotFound => "class file not found",
            SkipReason::ClassTypeParams => "type parameters cannot be instantiated",
            SkipReason::ReturnsNonPublic => "returns a type that is not public",
            SkipReason::FieldTypeNotConcrete => "field type cannot be made concrete",
            SkipReason::NotMemberOfInstantiation => "not a member of the instantiated type",
            SkipReason::GenericConstructor => "generic constructor",
            SkipReason::MethodTypeParams => "method type parameters cannot be instantiated",
            SkipReason::TypesNotConcrete => "types cannot be made concrete or are not public",
            SkipReason::ParameterizedArray => "parameterized array parameter",
            SkipReason::NoInputValues => "an input type has no values",
            SkipReason::NoProducer => {
                "a parameter type has no public constructor, static factory or constant to make it (only null is passed)"
            }
            SkipReason::GlobalState => {
                "changes state shared by the whole JVM (name it in --include-methods to test it)"
            }
            SkipReason::NewerThanRelease => {
                "not in the Java release the project compiles its tests for"
            }
        }
    }
}

impl std::fmt::Display for SkipReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.text())
    }
}

impl serde::Serialize for SkipReason {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.text())
    }
}
