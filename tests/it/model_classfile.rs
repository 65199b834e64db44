//! Class-file reader against real class files: the JDK's TreeMap and javac-compiled subjects.

use crate::support::model as common;

use jforge::model::classfile::parse_class;
use jforge::model::classpath::JdkClasses;
use jforge::model::{JType, Literal, Nesting, Prim, TypeArg, access};
use proptest::prelude::*;

fn v(n: &str) -> JType {
    JType::Var(n.into())
}

fn treemap_bytes() -> Vec<u8> {
    common::jdk()
        .class_bytes("java.util.TreeMap")
        .unwrap()
        .expect("TreeMap in java.base")
}

#[test]
fn treemap_facts() {
    let c = parse_class(&treemap_bytes()).unwrap();
    assert_eq!(c.name, "java.util.TreeMap");
    assert!(c.is_public() && !c.is_interface() && !c.is_abstract());
    assert_eq!(c.nesting, Nesting::TopLevel);
    assert!(c.major_version >= 61, "JDK 17+ class files");
    let names: Vec<&str> = c.type_params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["K", "V"]);
    assert_eq!(c.super_class.as_deref(), Some("java.util.AbstractMap"));
    assert_eq!(
        c.generic_super,
        Some(JType::generic(
            "java.util.AbstractMap",
            vec![v("K"), v("V")]
        ))
    );
    assert_eq!(
        c.generic_interfaces,
        vec![
            JType::generic("java.util.NavigableMap", vec![v("K"), v("V")]),
            JType::class("java.lang.Cloneable"),
            JType::class("java.io.Serializable"),
        ]
    );
    let put = c.methods.iter().find(|m| m.name == "put").expect("put");
    assert_eq!(put.params, vec![v("K"), v("V")]);
    assert_eq!(put.ret, Some(v("V")));
    assert_eq!(
        put.descriptor,
        "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;"
    );
    assert!(put.is_public());
    assert!(
        c.methods
            .iter()
            .all(|m| m.name != "<clinit>" && m.name != "<init>")
    );
    // TreeMap(Comparator<? super K>)
    let ctor = c
        .constructors
        .iter()
        .find(|m| m.descriptor == "(Ljava/util/Comparator;)V")
        .expect("TreeMap(Comparator)");
    assert_eq!(
        ctor.params,
        vec![JType::Class {
            name: "java.util.Comparator".into(),
            args: vec![TypeArg::Super(v("K"))]
        }]
    );
    assert_eq!(ctor.ret, None);
    // serialVersionUID and the RED/BLACK boolean constants (ConstantValue ints 0 and 1).
    assert!(
        c.literals.contains(&Literal::Long(919286545866124006)),
        "{:?}",
        c.literals
    );
    assert!(c.literals.contains(&Literal::Int(1)), "{:?}", c.literals);
    assert!(c.enum_constants.is_empty());
}

#[test]
fn map_entry_is_a_static_member_interface() {
    let b = common::jdk()
        .class_bytes("java.util.Map$Entry")
        .unwrap()
        .unwrap();
    let c = parse_class(&b).unwrap();
    assert_eq!(
        c.nesting,
        Nesting::Member {
            outer: "java.util.Map".into(),
            simple: "Entry".into(),
            is_static: true
        }
    );
    assert!(c.is_interface() && c.is_public());
    let cbk = c
        .methods
        .iter()
        .find(|m| m.name == "comparingByKey" && m.params.is_empty())
        .unwrap();
    assert!(cbk.is_static());
    assert_eq!(cbk.type_params.len(), 2);
}

#[test]
fn whole_java_base_parses() {
    let mut jdk = common::jdk();
    let names = jdk.list_classes("java.util").unwrap();
    assert!(
        names.len() > 300,
        "java.util has many classes: {}",
        names.len()
    );
    assert!(names.iter().all(|n| n.starts_with("java.util.")));
    for n in &names {
        let b = jdk.class_bytes(n).unwrap().unwrap();
        let c = parse_class(&b).unwrap_or_else(|e| panic!("{n}: {e:#}"));
        assert_eq!(&c.name, n);
    }
}

fn subject(dir: &std::path::Path, name: &str) -> jforge::model::ClassInfo {
    let path = dir.join(format!("{}.class", name.replace('.', "/")));
    parse_class(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn bootstrap_arguments_are_not_literals() {
    let dir = common::compile_subjects();
    let strings = |name: &str| -> Vec<String> {
        subject(dir.path(), name)
            .literals
            .into_iter()
            .filter_map(|l| match l {
                Literal::Str(s) => Some(s),
                _ => None,
            })
            .collect()
    };
    // "quantity must be positive: " + q is compiled to an invokedynamic whose recipe is
    // "quantity must be positive: \u{1}": its constant pieces are the literals
    let orders = strings("p.Orders");
    for piece in ["quantity must be positive: ", "order of ", " items"] {
        assert!(orders.iter().any(|s| s == piece), "{piece:?} in {orders:?}");
    }
    assert!(
        !orders.iter().any(|s| s.contains(['\u{1}', '\u{2}'])),
        "{orders:?}"
    );
    // a record's ObjectMethods bootstrap gets "sku;quantity": no literal of the program
    let line = strings("p.Orders$Line");
    assert!(!line.iter().any(|s| s.contains("sku;")), "{line:?}");
}

#[test]
fn compiled_subject() {
    let dir = common::compile_subjects();
    let d = dir.path();

    let s = subject(d, "p.Subject");
    assert_eq!(s.nesting, Nesting::TopLevel);
    assert_eq!(s.type_params.len(), 1);
    assert_eq!(s.generic_super, Some(JType::object()));
    assert!(
        s.literals.contains(&Literal::Str("hello-literal".into())),
        "{:?}",
        s.literals
    );
    assert!(
        s.literals.contains(&Literal::Long(1234567890123)),
        "{:?}",
        s.literals
    );
    assert!(
        s.literals.contains(&Literal::Double(2.75)),
        "{:?}",
        s.literals
    );
    let value = s.fields.iter().find(|f| f.name == "value").unwrap();
    assert_eq!(value.ty, v("T"));
    assert_eq!(value.descriptor, "Ljava/lang/Object;");
    // Constructors: public () and private (T).
    assert_eq!(s.constructors.len(), 2);
    let private = s.constructors.iter().find(|m| !m.is_public()).unwrap();
    assert!(private.access & access::PRIVATE != 0);
    assert_eq!(private.params, vec![v("T")]);
    // Generic static method with bounded type parameter, wildcard param and throws.
    let max = s.methods.iter().find(|m| m.name == "max").unwrap();
    assert!(max.is_static());
    assert_eq!(max.type_params[0].name, "E");
    assert_eq!(
        max.type_params[0].bounds,
        vec![JType::Class {
            name: "java.lang.Comparable".into(),
            args: vec![TypeArg::Super(v("E"))]
        }]
    );
    assert_eq!(
        max.params,
        vec![JType::Class {
            name: "java.util.List".into(),
            args: vec![TypeArg::Extends(v("E"))]
        }]
    );
    assert_eq!(max.ret, Some(v("E")));
    assert_eq!(max.exceptions, vec![JType::class("java.io.IOException")]);
    // Varargs.
    let join = s.methods.iter().find(|m| m.name == "join").unwrap();
    assert!(join.is_varargs());
    assert_eq!(join.params[1], JType::Array(Box::new(JType::object())));

    // Non-static inner class: the outer instance is dropped from constructor params.
    let inner = subject(d, "p.Subject$Inner");
    assert_eq!(
        inner.nesting,
        Nesting::Member {
            outer: "p.Subject".into(),
            simple: "Inner".into(),
            is_static: false
        }
    );
    assert!(inner.is_public());
    let by_int = inner
        .constructors
        .iter()
        .find(|m| m.descriptor == "(Lp/Subject;I)V")
        .unwrap();
    assert_eq!(by_int.params, vec![JType::Prim(Prim::Int)]);
    let by_t = inner
        .constructors
        .iter()
        .find(|m| m.descriptor == "(Lp/Subject;Ljava/lang/Object;Ljava/lang/String;)V")
        .unwrap();
    assert_eq!(by_t.params, vec![v("T"), JType::string()]);

    let nested = subject(d, "p.Subject$Nested");
    assert_eq!(
        nested.nesting,
        Nesting::Member {
            outer: "p.Subject".into(),
            simple: "Nested".into(),
            is_static: true
        }
    );
    assert_eq!(
        nested.access & access::STATIC,
        access::STATIC,
        "flags come from InnerClasses"
    );
    let ctor = &nested.constructors[0];
    assert!(ctor.is_varargs());
    assert_eq!(
        ctor.params,
        vec![
            JType::string(),
            JType::Array(Box::new(JType::Prim(Prim::Int)))
        ]
    );

    let prot = subject(d, "p.Subject$Prot");
    assert!(!prot.is_public());
    assert_eq!(prot.access & access::PROTECTED, access::PROTECTED);

    let cb = subject(d, "p.Subject$Callback");
    assert!(matches!(
        cb.nesting,
        Nesting::Member {
            is_static: true,
            ..
        }
    ));

    let color = subject(d, "p.Subject$Color");
    assert!(color.is_enum());
    assert_eq!(color.enum_constants, ["RED", "GREEN", "BLUE"]);
    assert_eq!(
        color.generic_super,
        Some(JType::generic(
            "java.lang.Enum",
            vec![JType::class("p.Subject$Color")]
        ))
    );

    assert_eq!(subject(d, "p.Subject$1").nesting, Nesting::Local);
    assert_eq!(subject(d, "p.Subject$1Local").nesting, Nesting::Local);
}

#[test]
fn malformed_inputs_are_errors() {
    let b = treemap_bytes();
    let e = parse_class(&b[..b.len() / 2]).unwrap_err();
    assert!(format!("{e:#}").contains("truncated"), "{e:#}");
    let e = parse_class(&b[..3]).unwrap_err();
    assert!(format!("{e:#}").contains("truncated"), "{e:#}");
    let mut bad = b.clone();
    bad[0] = 0;
    let e = parse_class(&bad).unwrap_err();
    assert!(format!("{e:#}").contains("bad magic"), "{e:#}");
    // this_class index (right after the constant pool) pointing outside the pool.
    let e = parse_class(&[0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 61, 0, 1, 0, 0x21, 0, 7]).unwrap_err();
    assert!(
        format!("{e:#}").contains("bad constant pool index 7"),
        "{e:#}"
    );
    assert!(parse_class(&[]).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn mutations_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..8),
        cut in any::<prop::sample::Index>(),
        do_cut in any::<bool>(),
    ) {
        static BYTES: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
        let orig = BYTES.get_or_init(treemap_bytes);
        let mut b = orig.clone();
        for (i, x) in &edits {
            let i = i.index(b.len());
            b[i] = *x;
        }
        if do_cut {
            b.truncate(cut.index(b.len()));
        }
        // Must return (Ok or Err), never panic.
        let _ = parse_class(&b);
    }
}
