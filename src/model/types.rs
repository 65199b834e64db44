//! Java types as jforge sees them: primitives, (parameterized) class types, arrays and type
//! variables. Parsed from descriptors and from generic `Signature` attributes (JVMS 4.7.9.1).
//!
//! Class names are always *binary names with dots*: `java.util.Map$Entry`, never slashes.
//! Source code is produced by [`JType::source`], which turns `$` of member classes into `.`.

use std::fmt;

/// The eight primitive types of Java.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Prim {
    Boolean,
    Byte,
    Char,
    Short,
    Int,
    Long,
    Float,
    Double,
}

impl Prim {
    /// Java keyword, e.g. `int`.
    pub fn keyword(self) -> &'static str {
        match self {
            Prim::Boolean => "boolean",
            Prim::Byte => "byte",
            Prim::Char => "char",
            Prim::Short => "short",
            Prim::Int => "int",
            Prim::Long => "long",
            Prim::Float => "float",
            Prim::Double => "double",
        }
    }
    /// The primitive named by a Java keyword (`int`); `None` for anything else.
    pub fn from_keyword(k: &str) -> Option<Prim> {
        Prim::ALL.into_iter().find(|p| p.keyword() == k)
    }
    /// JVM descriptor letter, e.g. `I`.
    pub fn descriptor(self) -> char {
        match self {
            Prim::Boolean => 'Z',
            Prim::Byte => 'B',
            Prim::Char => 'C',
            Prim::Short => 'S',
            Prim::Int => 'I',
            Prim::Long => 'J',
            Prim::Float => 'F',
            Prim::Double => 'D',
        }
    }
    pub fn from_descriptor(c: char) -> Option<Prim> {
        Some(match c {
            'Z' => Prim::Boolean,
            'B' => Prim::Byte,
            'C' => Prim::Char,
            'S' => Prim::Short,
            'I' => Prim::Int,
            'J' => Prim::Long,
            'F' => Prim::Float,
            'D' => Prim::Double,
            _ => return None,
        })
    }
    /// Binary name of the wrapper class, e.g. `java.lang.Integer`.
    pub fn boxed(self) -> &'static str {
        match self {
            Prim::Boolean => "java.lang.Boolean",
            Prim::Byte => "java.lang.Byte",
            Prim::Char => "java.lang.Character",
            Prim::Short => "java.lang.Short",
            Prim::Int => "java.lang.Integer",
            Prim::Long => "java.lang.Long",
            Prim::Float => "java.lang.Float",
            Prim::Double => "java.lang.Double",
        }
    }
    pub fn unboxed(class: &str) -> Option<Prim> {
        Some(match class {
            "java.lang.Boolean" => Prim::Boolean,
            "java.lang.Byte" => Prim::Byte,
            "java.lang.Character" => Prim::Char,
            "java.lang.Short" => Prim::Short,
            "java.lang.Integer" => Prim::Int,
            "java.lang.Long" => Prim::Long,
            "java.lang.Float" => Prim::Float,
            "java.lang.Double" => Prim::Double,
            _ => return None,
        })
    }
    pub const ALL: [Prim; 8] = [
        Prim::Boolean,
        Prim::Byte,
        Prim::Char,
        Prim::Short,
        Prim::Int,
        Prim::Long,
        Prim::Float,
        Prim::Double,
    ];
}

/// A Java type. `Class` with empty `args` is a non-generic (or raw) class type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JType {
    Prim(Prim),
    /// Binary name with dots (`java.util.Map$Entry`) and type arguments.
    Class {
        name: String,
        args: Vec<TypeArg>,
    },
    Array(Box<JType>),
    /// A type variable such as `T` (only in declarations; generated sequences use concrete types).
    Var(String),
}

/// One type argument of a parameterized type.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TypeArg {
    Type(JType),
    /// `?`
    Any,
    /// `? extends T`
    Extends(JType),
    /// `? super T`
    Super(JType),
}

impl JType {
    pub fn class(name: &str) -> JType {
        JType::Class {
            name: name.to_string(),
            args: Vec::new(),
        }
    }
    pub fn generic(name: &str, args: Vec<JType>) -> JType {
        JType::Class {
            name: name.to_string(),
            args: args.into_iter().map(TypeArg::Type).collect(),
        }
    }
    pub fn object() -> JType {
        JType::class("java.lang.Object")
    }
    pub fn string() -> JType {
        JType::class("java.lang.String")
    }
    pub fn is_prim(&self) -> bool {
        matches!(self, JType::Prim(_))
    }
    /// Class name for class types (`None` for primitives, arrays and variables).
    pub fn class_name(&self) -> Option<&str> {
        match self {
            JType::Class { name, .. } => Some(name),
            _ => None,
        }
    }
    /// True when the type mentions no type variable and no wildcard at top level of arguments.
    pub fn is_concrete(&self) -> bool {
        match self {
            JType::Prim(_) => true,
            JType::Var(_) => false,
            JType::Array(e) => e.is_concrete(),
            JType::Class { args, .. } => args.iter().all(|a| match a {
                TypeArg::Type(t) => t.is_concrete(),
                // A wildcard argument is fine inside a declared type (`List<?>`).
                TypeArg::Any => true,
                TypeArg::Extends(t) | TypeArg::Super(t) => t.is_concrete(),
            }),
        }
    }
    /// The erasure: type arguments dropped, type variables replaced by `Object`
    /// (callers that know the bound should substitute first).
    pub fn erasure(&self) -> JType {
        match self {
            JType::Prim(p) => JType::Prim(*p),
            JType::Class { name, .. } => JType::class(name),
            JType::Array(e) => JType::Array(Box::new(e.erasure())),
            JType::Var(_) => JType::object(),
        }
    }
    /// JVM field descriptor of the erasure: `I`, `Ljava/lang/String;`, `[J`.
    pub fn descriptor(&self) -> String {
        match self {
            JType::Prim(p) => p.descriptor().to_string(),
            JType::Class { name, .. } => format!("L{};", name.replace('.', "/")),
            JType::Array(e) => format!("[{}", e.descriptor()),
            JType::Var(_) => "Ljava/lang/Object;".to_string(),
        }
    }
    /// Java source text: `java.util.Map.Entry<java.lang.String, java.lang.Integer>`, `int[]`.
    /// Fully qualified; the emitter shortens names through its import table.
    pub fn source(&self) -> String {
        self.to_string()
    }
    /// Replace type variables by the types bound to them (unbound variables stay).
    pub fn subst(&self, map: &dyn Fn(&str) -> Option<JType>) -> JType {
        match self {
            JType::Prim(_) => self.clone(),
            JType::Var(v) => map(v).unwrap_or_else(|| self.clone()),
            JType::Array(e) => JType::Array(Box::new(e.subst(map))),
            JType::Class { name, args } => JType::Class {
                name: name.clone(),
                args: args
                    .iter()
                    .map(|a| match a {
                        TypeArg::Type(t) => TypeArg::Type(t.subst(map)),
                        TypeArg::Any => TypeArg::Any,
                        TypeArg::Extends(t) => TypeArg::Extends(t.subst(map)),
                        TypeArg::Super(t) => TypeArg::Super(t.subst(map)),
                    })
                    .collect(),
            },
        }
    }
    /// Names of the type variables used anywhere in this type.
    pub fn vars(&self, out: &mut Vec<String>) {
        match self {
            JType::Prim(_) => {}
            JType::Var(v) => {
                if !out.contains(v) {
                    out.push(v.clone())
                }
            }
            JType::Array(e) => e.vars(out),
            JType::Class { args, .. } => {
                for a in args {
                    match a {
                        TypeArg::Type(t) | TypeArg::Extends(t) | TypeArg::Super(t) => t.vars(out),
                        TypeArg::Any => {}
                    }
                }
            }
        }
    }
}

/// Source form of a binary class name: `java.util.Map$Entry` -> `java.util.Map.Entry`.
/// (`$` inside a simple name that is not a nesting separator is rare; the model records real
/// nesting through InnerClasses and the emitter uses that when it matters.)
pub fn source_name(binary: &str) -> String {
    binary.replace('$', ".")
}

impl fmt::Display for JType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JType::Prim(p) => f.write_str(p.keyword()),
            JType::Var(v) => f.write_str(v),
            JType::Array(e) => write!(f, "{e}[]"),
            JType::Class { name, args } => {
                f.write_str(&source_name(name))?;
                if !args.is_empty() {
                    f.write_str("<")?;
                    for (i, a) in args.iter().enumerate() {
                        if i > 0 {
                            f.write_str(", ")?;
                        }
                        match a {
                            TypeArg::Type(t) => write!(f, "{t}")?,
                            TypeArg::Any => f.write_str("?")?,
                            TypeArg::Extends(t) => write!(f, "? extends {t}")?,
                            TypeArg::Super(t) => write!(f, "? super {t}")?,
                        }
                    }
                    f.write_str(">")?;
                }
                Ok(())
            }
        }
    }
}

/// A declared type parameter `<T extends A & B>`: `bounds` is empty for an implicit `Object`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypeParam {
    pub name: String,
    pub bounds: Vec<JType>,
}
