//! The model of the code under test, read from class files by Rust alone: classes, members,
//! generic types, the type hierarchy in both directions and literal constants.
//!
//! Sub-modules:
//! - `types`: [`JType`] and friends.
//! - `signature`: descriptor and generic-signature parser (JVMS 4.3, 4.7.9.1).
//! - `classfile`: class-file reader producing [`ClassInfo`].
//! - `classpath`: class folders, jars and the JDK's modules.
//! - `hierarchy`: [`Model`], supertypes/subtypes, inherited members, subtyping with generics.
//! - `producers`: the producer graph (which public members make a value of a type).
//! - `functional`: functional interfaces and their function types (what a lambda implements).
//! - `subclass`: anonymous subclasses a test can write (what a stub implements).

pub mod classfile;
pub mod classpath;
pub mod functional;
pub mod hierarchy;
pub mod producers;
pub mod release;
pub mod signature;
pub mod subclass;
pub mod types;

pub use hierarchy::Model;
pub use types::{JType, Prim, TypeArg, TypeParam};

/// JVM access flags (JVMS 4.1, 4.5, 4.6).
pub mod access {
    pub const PUBLIC: u16 = 0x0001;
    pub const PRIVATE: u16 = 0x0002;
    pub const PROTECTED: u16 = 0x0004;
    pub const STATIC: u16 = 0x0008;
    pub const FINAL: u16 = 0x0010;
    pub const SYNCHRONIZED: u16 = 0x0020;
    pub const BRIDGE: u16 = 0x0040;
    pub const VARARGS: u16 = 0x0080;
    pub const NATIVE: u16 = 0x0100;
    pub const INTERFACE: u16 = 0x0200;
    pub const ABSTRACT: u16 = 0x0400;
    pub const SYNTHETIC: u16 = 0x1000;
    pub const ANNOTATION: u16 = 0x2000;
    pub const ENUM: u16 = 0x4000;
}

/// A literal constant found in a constant pool (seeds primitive and String values).
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    Str(String),
}

/// How a class is nested (from the InnerClasses attribute).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Nesting {
    TopLevel,
    /// A member class of `outer`; `simple` is its simple name; `is_static` false means an inner
    /// class whose constructors take the outer instance first.
    Member {
        outer: String,
        simple: String,
        is_static: bool,
    },
    /// Anonymous or local: never usable from generated code.
    Local,
}

#[derive(Clone, Debug)]
pub struct ClassInfo {
    /// Binary name with dots: `java.util.Map$Entry`.
    pub name: String,
    /// Access flags; for member classes, the flags of the InnerClasses entry (which carry
    /// `private`/`protected`/`static` that the top-level flags cannot express).
    pub access: u16,
    pub major_version: u16,
    pub super_class: Option<String>,
    pub interfaces: Vec<String>,
    pub type_params: Vec<TypeParam>,
    /// Superclass with type arguments (from the Signature attribute, else the plain name).
    pub generic_super: Option<JType>,
    pub generic_interfaces: Vec<JType>,
    pub nesting: Nesting,
    pub constructors: Vec<MethodInfo>,
    /// Declared methods only (no `<init>`, no `<clinit>`); see [`Model::methods_of`] for
    /// inherited ones.
    pub methods: Vec<MethodInfo>,
    pub fields: Vec<FieldInfo>,
    /// Names of enum constants, in declaration order (empty unless an enum).
    pub enum_constants: Vec<String>,
    /// Literal constants from this class's constant pool, in pool order, without duplicates.
    pub literals: Vec<Literal>,
}

impl ClassInfo {
    pub fn is_public(&self) -> bool {
        self.access & access::PUBLIC != 0
    }
    /// A private member class (its `InnerClasses` flags).
    pub fn is_private(&self) -> bool {
        self.access & access::PRIVATE != 0
    }
    pub fn is_interface(&self) -> bool {
        self.access & access::INTERFACE != 0
    }
    pub fn is_abstract(&self) -> bool {
        self.access & access::ABSTRACT != 0
    }
    pub fn is_enum(&self) -> bool {
        self.access & access::ENUM != 0
    }
    /// Public, and every enclosing class public too is checked by [`Model::is_accessible`].
    pub fn package(&self) -> &str {
        self.name.rsplit_once('.').map(|(p, _)| p).unwrap_or("")
    }
    /// This class as a type with its own type variables as arguments: `TreeMap<K, V>`.
    pub fn this_type(&self) -> JType {
        JType::Class {
            name: self.name.clone(),
            args: self
                .type_params
                .iter()
                .map(|p| TypeArg::Type(JType::Var(p.name.clone())))
                .collect(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct MethodInfo {
    /// Binary name of the declaring class.
    pub owner: String,
    /// `<init>` for constructors.
    pub name: String,
    /// Erased JVM descriptor, e.g. `(Ljava/lang/Object;)Z`.
    pub descriptor: String,
    pub access: u16,
    /// Method type parameters `<T>` (from Signature).
    pub type_params: Vec<TypeParam>,
    /// Generic parameter types (from Signature when present, else from the descriptor).
    /// For constructors of non-static inner classes the outer instance is NOT included
    /// (the descriptor has it; the parser drops it when the Signature does not).
    pub params: Vec<JType>,
    /// `None` for void (and for constructors).
    pub ret: Option<JType>,
    pub exceptions: Vec<JType>,
}

impl MethodInfo {
    pub fn is_public(&self) -> bool {
        self.access & access::PUBLIC != 0
    }
    pub fn is_static(&self) -> bool {
        self.access & access::STATIC != 0
    }
    pub fn is_abstract(&self) -> bool {
        self.access & access::ABSTRACT != 0
    }
    pub fn is_varargs(&self) -> bool {
        self.access & access::VARARGS != 0
    }
    pub fn is_synthetic_or_bridge(&self) -> bool {
        self.access & (access::SYNTHETIC | access::BRIDGE) != 0
    }
    pub fn is_constructor(&self) -> bool {
        self.name == "<init>"
    }
}

#[derive(Clone, Debug)]
pub struct FieldInfo {
    pub owner: String,
    pub name: String,
    pub descriptor: String,
    pub access: u16,
    /// Generic type (Signature when present, else descriptor).
    pub ty: JType,
}

impl FieldInfo {
    pub fn is_public(&self) -> bool {
        self.access & access::PUBLIC != 0
    }
    pub fn is_static(&self) -> bool {
        self.access & access::STATIC != 0
    }
    pub fn is_final(&self) -> bool {
        self.access & access::FINAL != 0
    }
}
