//! Variable names for generated tests, derived from the variable's type.
//!
//! Names are the main thing a reader scans in a generated test, so they follow the type
//! (`treeMap0`, `str1`, `intArray0`) rather than the statement index. A base name never ends
//! in a digit (so `base + counter` cannot collide with another base) and the running number
//! keeps keyword-like bases such as `long` legal (`long0`).

use crate::model::types::{JType, Prim};

const KEYWORDS: &[&str] = &[
    "abstract",
    "assert",
    "boolean",
    "break",
    "byte",
    "case",
    "catch",
    "char",
    "class",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extends",
    "false",
    "final",
    "finally",
    "float",
    "for",
    "goto",
    "if",
    "implements",
    "import",
    "instanceof",
    "int",
    "interface",
    "long",
    "native",
    "new",
    "null",
    "package",
    "private",
    "protected",
    "public",
    "return",
    "short",
    "static",
    "strictfp",
    "super",
    "switch",
    "synchronized",
    "this",
    "throw",
    "throws",
    "transient",
    "true",
    "try",
    "void",
    "volatile",
    "while",
    "var",
    "yield",
    "record",
    "_",
];

/// True for Java keywords and the literals `true`, `false`, `null`.
pub fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

/// Variable base names from types: `TreeMap<..>` -> `treeMap`, `String` -> `str`, `int` ->
/// `i`, `long` -> `long`, `Map.Entry` -> `entry`, `int[]` -> `intArray`, `String[]` ->
/// `strArray`. The writer appends a per-test running number per base name (`treeMap0`,
/// `str0`, `str1`), which also keeps keyword bases (`long`, `byte`, `short`) legal.
pub fn var_base(ty: &JType) -> String {
    match ty {
        JType::Prim(p) => match p {
            Prim::Boolean => "b",
            Prim::Byte => "byte",
            Prim::Char => "c",
            Prim::Short => "short",
            Prim::Int => "i",
            Prim::Long => "long",
            Prim::Float => "f",
            Prim::Double => "d",
        }
        .to_string(),
        JType::Array(e) => format!("{}Array", elem_base(e)),
        JType::Class { name, .. } => match name.as_str() {
            "java.lang.String" => "str".to_string(),
            "java.lang.Object" => "obj".to_string(),
            "java.lang.Class" => "cls".to_string(),
            _ => {
                let simple = name.rsplit(['.', '$']).next().unwrap_or(name);
                finish(&camel(simple))
            }
        },
        JType::Var(v) => finish(&camel(v)),
    }
}

/// Base of an array element: primitives by keyword (`intArray`), others as for variables.
fn elem_base(e: &JType) -> String {
    match e {
        JType::Prim(p) => p.keyword().to_string(),
        JType::Array(inner) => format!("{}Array", elem_base(inner)),
        _ => var_base(e),
    }
}

/// `TreeMap` -> `treeMap`, `URL` -> `url`, `HTMLParser` -> `htmlParser`.
fn camel(simple: &str) -> String {
    let chars: Vec<char> = simple.chars().collect();
    let upper_run = chars.iter().take_while(|c| c.is_uppercase()).count();
    let lower_up_to = if upper_run > 1 && upper_run < chars.len() {
        // `HTMLParser`: the last capital starts the next word.
        upper_run - 1
    } else {
        upper_run.max(1)
    };
    chars
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i < lower_up_to {
                c.to_lowercase().next().unwrap_or(*c)
            } else {
                *c
            }
        })
        .collect()
}

/// Make `s` a usable identifier base: legal characters only, not empty, not a keyword, not
/// ending in a digit.
fn finish(s: &str) -> String {
    let mut out: String = s
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if out.is_empty()
        || !out
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
    {
        out.insert(0, 'v');
    }
    if is_keyword(&out) {
        out.push_str("Value");
    }
    if out.ends_with(|c: char| c.is_ascii_digit()) {
        out.push('_');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bases() {
        let tm = JType::generic(
            "java.util.TreeMap",
            vec![JType::string(), JType::class("java.lang.Integer")],
        );
        assert_eq!(var_base(&tm), "treeMap");
        assert_eq!(var_base(&JType::string()), "str");
        assert_eq!(var_base(&JType::Prim(Prim::Int)), "i");
        assert_eq!(var_base(&JType::Prim(Prim::Long)), "long");
        assert_eq!(var_base(&JType::class("java.util.Map$Entry")), "entry");
        assert_eq!(
            var_base(&JType::Array(Box::new(JType::Prim(Prim::Int)))),
            "intArray"
        );
        assert_eq!(
            var_base(&JType::Array(Box::new(JType::string()))),
            "strArray"
        );
        assert_eq!(var_base(&JType::class("java.net.URL")), "url");
        assert_eq!(var_base(&JType::class("a.HTMLParser")), "htmlParser");
        assert_eq!(var_base(&JType::class("a.Int")), "intValue");
        assert_eq!(var_base(&JType::class("a.Outer$1")), "v1_");
        assert_eq!(var_base(&JType::class("a.Vec2")), "vec2_");
        assert_eq!(var_base(&JType::Var("T".into())), "t");
    }
}
