//! Descriptor and generic signature parsing (JVMS 4.3, 4.7.9.1).
//!
//! Class files carry two kinds of type strings: erased *descriptors* (`(ILjava/lang/String;)V`)
//! that every member has, and optional generic *signatures* (`<T:Ljava/lang/Object;>(TT;)V`) in
//! `Signature` attributes. jforge needs the generic view to build well-typed call sequences, and the
//! erased one to tell overloads apart. Both grammars are small, so this is a hand-written
//! recursive-descent parser over bytes: it never panics, and its errors say which string and which
//! position is wrong.
//!
//! Simplifications (documented, deliberate):
//! - Inner class type signatures `Lp/Outer<TT;>.Inner<TU;>;` become
//!   `JType::Class { name: "p.Outer$Inner", args: [U] }`: only the innermost type arguments are
//!   kept. The outer arguments matter only for non-static inner classes of generic classes, which
//!   generated tests rarely need; [`JType`] has no place for them.
//! - A type parameter's class bound `java.lang.Object` is dropped (javac writes it for every
//!   unbounded `<T>`), so `TypeParam::bounds` is empty for an implicit `Object` as the model
//!   documents.

use anyhow::{Result, bail};

use super::types::{JType, Prim, TypeArg, TypeParam};

/// A class's generic signature: `class C<T> extends S<T> implements I<T>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassSignature {
    pub type_params: Vec<TypeParam>,
    pub superclass: JType,
    pub interfaces: Vec<JType>,
}

/// A method's generic signature. `ret` is `None` for `void`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodSignature {
    pub type_params: Vec<TypeParam>,
    pub params: Vec<JType>,
    pub ret: Option<JType>,
    pub throws: Vec<JType>,
}

/// Parse a field descriptor (`I`, `[Ljava/lang/String;`).
pub fn parse_field_descriptor(s: &str) -> Result<JType> {
    let mut p = Parser::new(s, false);
    let t = p.java_type()?;
    p.end()?;
    Ok(t)
}

/// Parse a method descriptor into parameter types and return type (`None` for `V`).
pub fn parse_method_descriptor(s: &str) -> Result<(Vec<JType>, Option<JType>)> {
    let mut p = Parser::new(s, false);
    let (params, ret) = p.method_types()?;
    p.end()?;
    Ok((params, ret))
}

/// Parse a field signature (a ReferenceTypeSignature: class type, type variable or array).
pub fn parse_field_signature(s: &str) -> Result<JType> {
    let mut p = Parser::new(s, true);
    let t = p.reference_type()?;
    p.end()?;
    Ok(t)
}

/// Parse a class signature (`<K:Ljava/lang/Object;V:…>Ljava/util/AbstractMap<TK;TV;>;…`).
pub fn parse_class_signature(s: &str) -> Result<ClassSignature> {
    let mut p = Parser::new(s, true);
    let type_params = p.type_params()?;
    let superclass = p.class_type()?;
    let mut interfaces = Vec::new();
    while !p.at_end() {
        interfaces.push(p.class_type()?);
    }
    Ok(ClassSignature {
        type_params,
        superclass,
        interfaces,
    })
}

/// Parse a method signature (`<T::Ljava/lang/Comparable<-TT;>;>(Ljava/util/List<TT;>;)V`).
pub fn parse_method_signature(s: &str) -> Result<MethodSignature> {
    let mut p = Parser::new(s, true);
    let type_params = p.type_params()?;
    let (params, ret) = p.method_types()?;
    let mut throws = Vec::new();
    while !p.at_end() {
        p.expect(b'^')?;
        let t = match p.peek() {
            Some(b'T') => p.type_var()?,
            _ => p.class_type()?,
        };
        throws.push(t);
    }
    Ok(MethodSignature {
        type_params,
        params,
        ret,
        throws,
    })
}

/// The signature string of a type (the inverse of [`parse_field_signature`] for reference types,
/// of [`parse_field_descriptor`] for primitives). Used by tests and by code that writes class
/// files.
pub fn type_signature(t: &JType) -> String {
    let mut out = String::new();
    write_sig(t, &mut out);
    out
}

fn write_sig(t: &JType, out: &mut String) {
    match t {
        JType::Prim(p) => out.push(p.descriptor()),
        JType::Var(v) => {
            out.push('T');
            out.push_str(v);
            out.push(';');
        }
        JType::Array(e) => {
            out.push('[');
            write_sig(e, out);
        }
        JType::Class { name, args } => {
            out.push('L');
            out.push_str(&name.replace('.', "/"));
            if !args.is_empty() {
                out.push('<');
                for a in args {
                    match a {
                        TypeArg::Any => out.push('*'),
                        TypeArg::Type(t) => write_sig(t, out),
                        TypeArg::Extends(t) => {
                            out.push('+');
                            write_sig(t, out);
                        }
                        TypeArg::Super(t) => {
                            out.push('-');
                            write_sig(t, out);
                        }
                    }
                }
                out.push('>');
            }
            out.push(';');
        }
    }
}

struct Parser<'a> {
    src: &'a str,
    b: &'a [u8],
    pos: usize,
    /// Generic signatures allow type variables and type arguments; descriptors do not.
    generic: bool,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str, generic: bool) -> Self {
        Parser {
            src,
            b: src.as_bytes(),
            pos: 0,
            generic,
        }
    }

    fn kind(&self) -> &'static str {
        if self.generic {
            "signature"
        } else {
            "descriptor"
        }
    }

    fn err<T>(&self, what: &str) -> Result<T> {
        bail!(
            "malformed {} {:?} at position {}: {}",
            self.kind(),
            self.src,
            self.pos,
            what
        )
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.pos).copied()
    }

    fn at_end(&self) -> bool {
        self.pos >= self.b.len()
    }

    fn end(&self) -> Result<()> {
        if self.at_end() {
            Ok(())
        } else {
            self.err("unexpected trailing characters")
        }
    }

    fn expect(&mut self, c: u8) -> Result<()> {
        match self.peek() {
            Some(x) if x == c => {
                self.pos += 1;
                Ok(())
            }
            Some(x) => self.err(&format!("expected '{}', found '{}'", c as char, x as char)),
            None => self.err(&format!("expected '{}', found end of string", c as char)),
        }
    }

    /// An identifier: up to one of `. ; [ / < > :` (we also stop at `/` so callers can build
    /// qualified names). Must be non-empty.
    fn ident(&mut self) -> Result<&'a str> {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if matches!(c, b'.' | b';' | b'[' | b'/' | b'<' | b'>' | b':') {
                break;
            }
            self.pos += 1;
        }
        if self.pos == start {
            return self.err("expected an identifier");
        }
        // Stops are ASCII, so start..pos are char boundaries.
        Ok(&self.src[start..self.pos])
    }

    /// JavaTypeSignature: base type or reference type.
    fn java_type(&mut self) -> Result<JType> {
        match self.peek() {
            Some(c) => {
                if let Some(p) = Prim::from_descriptor(c as char) {
                    self.pos += 1;
                    Ok(JType::Prim(p))
                } else {
                    self.reference_type()
                }
            }
            None => self.err("expected a type, found end of string"),
        }
    }

    fn reference_type(&mut self) -> Result<JType> {
        match self.peek() {
            Some(b'L') => self.class_type(),
            Some(b'T') if self.generic => self.type_var(),
            Some(b'[') => {
                self.pos += 1;
                // Guard against absurd nesting (JVMS limits arrays to 255 dimensions).
                let depth = self.b[..self.pos]
                    .iter()
                    .rev()
                    .take_while(|&&c| c == b'[')
                    .count();
                if depth > 255 {
                    return self.err("array type with more than 255 dimensions");
                }
                Ok(JType::Array(Box::new(self.java_type()?)))
            }
            Some(c) => self.err(&format!("expected a reference type, found '{}'", c as char)),
            None => self.err("expected a reference type, found end of string"),
        }
    }

    fn type_var(&mut self) -> Result<JType> {
        self.expect(b'T')?;
        let name = self.ident()?;
        self.expect(b';')?;
        Ok(JType::Var(name.to_string()))
    }

    /// ClassTypeSignature: `L pkg/ Simple<args> (. Simple<args>)* ;`
    fn class_type(&mut self) -> Result<JType> {
        self.expect(b'L')?;
        let mut name = String::new();
        // Package specifier and the first simple name.
        loop {
            name.push_str(self.ident()?);
            if self.peek() == Some(b'/') {
                self.pos += 1;
                name.push('.');
            } else {
                break;
            }
        }
        let mut args = self.type_args_opt()?;
        while self.peek() == Some(b'.') {
            if !self.generic {
                return self.err("'.' is not allowed in a descriptor");
            }
            self.pos += 1;
            name.push('$');
            name.push_str(self.ident()?);
            // Keep only the innermost arguments (see module docs).
            args = self.type_args_opt()?;
        }
        self.expect(b';')?;
        Ok(JType::Class { name, args })
    }

    fn type_args_opt(&mut self) -> Result<Vec<TypeArg>> {
        if self.peek() != Some(b'<') {
            return Ok(Vec::new());
        }
        if !self.generic {
            return self.err("type arguments are not allowed in a descriptor");
        }
        self.pos += 1;
        let mut args = Vec::new();
        loop {
            let a = match self.peek() {
                Some(b'*') => {
                    self.pos += 1;
                    TypeArg::Any
                }
                Some(b'+') => {
                    self.pos += 1;
                    TypeArg::Extends(self.reference_type()?)
                }
                Some(b'-') => {
                    self.pos += 1;
                    TypeArg::Super(self.reference_type()?)
                }
                Some(b'>') if !args.is_empty() => {
                    self.pos += 1;
                    return Ok(args);
                }
                _ => TypeArg::Type(self.reference_type()?),
            };
            args.push(a);
        }
    }

    /// Optional `<T:bound:ibound...>` list.
    fn type_params(&mut self) -> Result<Vec<TypeParam>> {
        let mut out = Vec::new();
        if self.peek() != Some(b'<') {
            return Ok(out);
        }
        self.pos += 1;
        loop {
            if self.peek() == Some(b'>') && !out.is_empty() {
                self.pos += 1;
                return Ok(out);
            }
            let name = self.ident()?.to_string();
            self.expect(b':')?;
            let mut bounds = Vec::new();
            // Class bound (optional).
            if matches!(self.peek(), Some(b'L' | b'T' | b'[')) {
                let b = self.reference_type()?;
                if b != JType::object() {
                    bounds.push(b);
                }
            }
            // Interface bounds.
            while self.peek() == Some(b':') {
                self.pos += 1;
                bounds.push(self.reference_type()?);
            }
            out.push(TypeParam { name, bounds });
        }
    }

    /// `( params ) ret`
    fn method_types(&mut self) -> Result<(Vec<JType>, Option<JType>)> {
        self.expect(b'(')?;
        let mut params = Vec::new();
        while self.peek() != Some(b')') {
            if self.at_end() {
                return self.err("missing ')'");
            }
            params.push(self.java_type()?);
        }
        self.pos += 1;
        let ret = if self.peek() == Some(b'V') {
            self.pos += 1;
            None
        } else {
            Some(self.java_type()?)
        };
        Ok((params, ret))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(n: &str) -> JType {
        JType::class(n)
    }
    fn v(n: &str) -> JType {
        JType::Var(n.into())
    }

    #[test]
    fn descriptors() {
        assert_eq!(parse_field_descriptor("I").unwrap(), JType::Prim(Prim::Int));
        assert_eq!(
            parse_field_descriptor("[[Ljava/lang/String;").unwrap(),
            JType::Array(Box::new(JType::Array(Box::new(JType::string()))))
        );
        let (p, r) = parse_method_descriptor("(IJ[DLjava/util/Map$Entry;)V").unwrap();
        assert_eq!(
            p,
            vec![
                JType::Prim(Prim::Int),
                JType::Prim(Prim::Long),
                JType::Array(Box::new(JType::Prim(Prim::Double))),
                c("java.util.Map$Entry")
            ]
        );
        assert_eq!(r, None);
        assert_eq!(
            parse_method_descriptor("()Z").unwrap().1,
            Some(JType::Prim(Prim::Boolean))
        );
    }

    #[test]
    fn descriptor_errors() {
        for bad in [
            "",
            "Q",
            "Ljava/lang/String",
            "TT;",
            "Ljava/util/List<TT;>;",
            "II",
            "[",
            "L;",
        ] {
            assert!(parse_field_descriptor(bad).is_err(), "{bad:?} should fail");
        }
        for bad in ["(I", "()", "I)V", "(V)V", "()VV"] {
            assert!(parse_method_descriptor(bad).is_err(), "{bad:?} should fail");
        }
        let e = parse_field_descriptor("Ljava/lang/String")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("Ljava/lang/String") && e.contains("position"),
            "{e}"
        );
    }

    #[test]
    fn treemap_class_signature() {
        let s = parse_class_signature(
            "<K:Ljava/lang/Object;V:Ljava/lang/Object;>Ljava/util/AbstractMap<TK;TV;>;\
             Ljava/util/NavigableMap<TK;TV;>;Ljava/lang/Cloneable;Ljava/io/Serializable;",
        )
        .unwrap();
        assert_eq!(
            s.type_params,
            vec![
                TypeParam {
                    name: "K".into(),
                    bounds: vec![]
                },
                TypeParam {
                    name: "V".into(),
                    bounds: vec![]
                }
            ]
        );
        assert_eq!(
            s.superclass,
            JType::generic("java.util.AbstractMap", vec![v("K"), v("V")])
        );
        assert_eq!(
            s.interfaces,
            vec![
                JType::generic("java.util.NavigableMap", vec![v("K"), v("V")]),
                c("java.lang.Cloneable"),
                c("java.io.Serializable")
            ]
        );
    }

    #[test]
    fn map_entry_and_inner_classes() {
        // Map.entrySet(): Set<Map.Entry<K,V>>
        let m = parse_method_signature("()Ljava/util/Set<Ljava/util/Map$Entry<TK;TV;>;>;").unwrap();
        assert_eq!(
            m.ret,
            Some(JType::generic(
                "java.util.Set",
                vec![JType::generic("java.util.Map$Entry", vec![v("K"), v("V")])]
            ))
        );
        // Inner class type signature: only the innermost arguments are kept.
        let t = parse_field_signature("Lp/Outer<TT;>.Inner<TU;>;").unwrap();
        assert_eq!(t, JType::generic("p.Outer$Inner", vec![v("U")]));
        let t = parse_field_signature("Lp/Outer<TT;>.Inner;").unwrap();
        assert_eq!(t, c("p.Outer$Inner"));
    }

    #[test]
    fn collections_sort() {
        let m = parse_method_signature("<T::Ljava/lang/Comparable<-TT;>;>(Ljava/util/List<TT;>;)V")
            .unwrap();
        assert_eq!(m.type_params.len(), 1);
        assert_eq!(m.type_params[0].name, "T");
        assert_eq!(
            m.type_params[0].bounds,
            vec![JType::Class {
                name: "java.lang.Comparable".into(),
                args: vec![TypeArg::Super(v("T"))]
            }]
        );
        assert_eq!(
            m.params,
            vec![JType::generic("java.util.List", vec![v("T")])]
        );
        assert_eq!(m.ret, None);
        assert!(m.throws.is_empty());
    }

    #[test]
    fn enum_and_bounds_and_throws() {
        let s = parse_class_signature(
            "<E:Ljava/lang/Enum<TE;>;>Ljava/lang/Object;Ljava/lang/constant/Constable;\
             Ljava/lang/Comparable<TE;>;Ljava/io/Serializable;",
        )
        .unwrap();
        assert_eq!(
            s.type_params[0].bounds,
            vec![JType::generic("java.lang.Enum", vec![v("E")])]
        );
        assert_eq!(s.superclass, JType::object());
        assert_eq!(s.interfaces.len(), 3);
        // Class bound plus interface bounds, wildcards, method-level throws of a variable.
        let m = parse_method_signature(
            "<T:Ljava/lang/Number;:Ljava/lang/Comparable<TT;>;X:Ljava/lang/Exception;>\
             ([TT;Ljava/util/List<*>;Ljava/util/Map<+TT;-Ljava/lang/Integer;>;)[I^TX;^Ljava/io/IOException;",
        )
        .unwrap();
        assert_eq!(
            m.type_params[0].bounds,
            vec![
                c("java.lang.Number"),
                JType::generic("java.lang.Comparable", vec![v("T")])
            ]
        );
        assert_eq!(m.params[0], JType::Array(Box::new(v("T"))));
        assert_eq!(
            m.params[1],
            JType::Class {
                name: "java.util.List".into(),
                args: vec![TypeArg::Any]
            }
        );
        assert_eq!(
            m.params[2],
            JType::Class {
                name: "java.util.Map".into(),
                args: vec![
                    TypeArg::Extends(v("T")),
                    TypeArg::Super(c("java.lang.Integer"))
                ]
            }
        );
        assert_eq!(m.ret, Some(JType::Array(Box::new(JType::Prim(Prim::Int)))));
        assert_eq!(m.throws, vec![v("X"), c("java.io.IOException")]);
    }

    #[test]
    fn signature_errors() {
        for bad in [
            "<>Ljava/lang/Object;",
            "<T>Ljava/lang/Object;",
            "Ljava/util/List<>;",
            "I",
        ] {
            assert!(parse_class_signature(bad).is_err(), "{bad:?} should fail");
        }
        for bad in ["(TT)V", "<T:>()V^", "(Ljava/util/List<I>;)V", "()V^I"] {
            assert!(parse_method_signature(bad).is_err(), "{bad:?} should fail");
        }
        assert!(
            parse_field_signature("I").is_err(),
            "a field signature is a reference type"
        );
        let deep = "[".repeat(300) + "I";
        assert!(parse_field_descriptor(&deep).is_err());
    }

    mod prop {
        use super::super::*;
        use proptest::prelude::*;

        fn ident() -> impl Strategy<Value = String> {
            "[A-Za-z_$][A-Za-z0-9_$]{0,6}"
        }

        fn class_name() -> impl Strategy<Value = String> {
            prop::collection::vec(ident(), 1..4).prop_map(|v| v.join("."))
        }

        fn ref_type() -> impl Strategy<Value = JType> {
            let leaf = prop_oneof![
                class_name().prop_map(|n| JType::class(&n)),
                ident().prop_map(JType::Var),
            ];
            leaf.prop_recursive(4, 24, 4, |inner| {
                let arg = prop_oneof![
                    Just(TypeArg::Any),
                    inner.clone().prop_map(TypeArg::Type),
                    inner.clone().prop_map(TypeArg::Extends),
                    inner.clone().prop_map(TypeArg::Super),
                ];
                prop_oneof![
                    (class_name(), prop::collection::vec(arg, 1..4))
                        .prop_map(|(name, args)| JType::Class { name, args }),
                    inner.prop_map(|t| JType::Array(Box::new(t))),
                    prop::sample::select(Prim::ALL.to_vec())
                        .prop_map(|p| JType::Array(Box::new(JType::Prim(p)))),
                ]
            })
        }

        proptest! {
            #[test]
            fn signature_roundtrip(t in ref_type()) {
                let s = type_signature(&t);
                prop_assert_eq!(parse_field_signature(&s).unwrap(), t);
            }

            #[test]
            fn never_panics(s in "[LT;<>+*\\-\\[\\]/.:^()IVZa-c]{0,30}") {
                let _ = parse_field_signature(&s);
                let _ = parse_class_signature(&s);
                let _ = parse_method_signature(&s);
                let _ = parse_method_descriptor(&s);
            }
        }
    }
}
