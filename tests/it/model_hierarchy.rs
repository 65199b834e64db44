//! The model over the JDK, commons-lang3 and javac-compiled subjects: inherited members,
//! generic supertypes, subtyping and member types.

use crate::support::model as common;

use jforge::model::classpath::{ClassPath, JmodClasses};
use jforge::model::{JType, Model, Prim, TypeArg};

fn s() -> JType {
    JType::string()
}
fn int() -> JType {
    JType::class("java.lang.Integer")
}
fn g(n: &str, a: Vec<JType>) -> JType {
    JType::generic(n, a)
}

fn treemap_model() -> (Model, JmodClasses) {
    let mut jdk = common::jdk();
    let cp = ClassPath::new(&[]).unwrap();
    let mut m = Model::new();
    assert!(
        m.load(&cp, &mut jdk, "java.util.TreeMap")
            .unwrap()
            .is_some()
    );
    (m, jdk)
}

#[test]
fn load_is_demand_driven() {
    let (mut m, mut jdk) = treemap_model();
    for n in [
        "java.util.TreeMap",
        "java.util.AbstractMap",
        "java.util.Map",
        "java.util.SortedMap",
        "java.util.NavigableMap",
        "java.lang.Object",
    ] {
        assert!(m.get(n).is_some(), "{n} loaded");
    }
    // Only supertypes, not every referenced class.
    assert!(m.get("java.util.TreeMap$Entry").is_none());
    assert!(m.get("java.lang.String").is_none());
    assert!(m.classes().count() < 15, "{}", m.classes().count());
    let names: Vec<&str> = m.classes().map(|c| c.name.as_str()).collect();
    assert!(names.windows(2).all(|w| w[0] < w[1]));
    let cp = ClassPath::new(&[]).unwrap();
    assert!(m.load(&cp, &mut jdk, "no.such.Clazz").unwrap().is_none());
    // Member classes also bring their enclosing class (for accessibility).
    m.load(&cp, &mut jdk, "java.util.AbstractMap$SimpleEntry")
        .unwrap()
        .unwrap();
    assert!(m.is_accessible("java.util.AbstractMap$SimpleEntry"));
    assert!(m.is_accessible("java.util.TreeMap"));
    assert!(!m.is_accessible("java.util.NotLoaded"));
}

#[test]
fn treemap_supertypes_and_subtypes() {
    let (m, _) = treemap_model();
    let sup = m.supertypes("java.util.TreeMap");
    assert_eq!(
        sup.first().map(String::as_str),
        Some("java.util.AbstractMap")
    );
    assert_eq!(sup.last().map(String::as_str), Some("java.lang.Object"));
    for n in [
        "java.util.Map",
        "java.util.SortedMap",
        "java.util.NavigableMap",
        "java.lang.Cloneable",
        "java.io.Serializable",
    ] {
        assert!(sup.contains(&n.to_string()), "{n} in {sup:?}");
    }
    assert_eq!(sup.iter().filter(|s| *s == "java.util.Map").count(), 1);
    assert_eq!(
        m.subtypes("java.util.SortedMap"),
        ["java.util.NavigableMap", "java.util.TreeMap"]
    );
    assert!(m.subtypes("java.util.TreeMap").is_empty());
}

#[test]
fn treemap_methods() {
    let (m, _) = treemap_model();
    let ms = m.methods_of("java.util.TreeMap");
    let names: Vec<&str> = ms.iter().map(|x| x.name.as_str()).collect();
    for n in [
        "put",
        "get",
        "size",
        "firstKey",
        "getOrDefault",
        "hashCode",
        "toString",
        "getClass",
    ] {
        assert!(names.contains(&n), "{n} missing from {names:?}");
    }
    assert_eq!(names.iter().filter(|n| **n == "size").count(), 1);
    let size = ms.iter().find(|x| x.name == "size").unwrap();
    assert_eq!(
        size.owner, "java.util.TreeMap",
        "the most specific declaration wins"
    );
    let god = ms.iter().find(|x| x.name == "getOrDefault").unwrap();
    assert_eq!(god.owner, "java.util.Map", "interface default inherited");
    // equals is declared by AbstractMap (class) and Map (abstract): the class wins.
    assert_eq!(
        ms.iter().find(|x| x.name == "equals").unwrap().owner,
        "java.util.AbstractMap"
    );
    // Static interface methods (Map.of) are not inherited into classes; protected/private not listed.
    assert!(!names.contains(&"of"));
    assert!(
        !names.contains(&"clone")
            || ms.iter().find(|x| x.name == "clone").unwrap().owner == "java.util.TreeMap"
    );
    assert!(!names.contains(&"finalize"));
    assert!(
        ms.iter()
            .all(|x| x.is_public() && !x.is_synthetic_or_bridge())
    );
    let keys: Vec<(&str, &str)> = ms
        .iter()
        .map(|x| (x.name.as_str(), x.descriptor.as_str()))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    // On the interface itself its static factories are visible.
    let map_ms = m.methods_of("java.util.Map");
    assert!(map_ms.iter().any(|x| x.name == "of" && x.is_static()));
    assert!(map_ms.iter().any(|x| x.name == "hashCode"));
    let ctors = m.constructors_of("java.util.TreeMap");
    assert_eq!(ctors.len(), 4);
    assert!(m.constructors_of("java.util.AbstractMap").is_empty());
    assert!(m.constructors_of("java.util.Map").is_empty());
}

#[test]
fn generics_as_super_and_subtyping() {
    let (m, _) = treemap_model();
    let tm = g("java.util.TreeMap", vec![s(), int()]);
    assert_eq!(
        m.as_super(&tm, "java.util.Map"),
        Some(g("java.util.Map", vec![s(), int()]))
    );
    assert_eq!(
        m.as_super(&tm, "java.util.SortedMap"),
        Some(g("java.util.SortedMap", vec![s(), int()]))
    );
    assert_eq!(m.as_super(&tm, "java.util.TreeMap"), Some(tm.clone()));
    assert_eq!(m.as_super(&tm, "java.lang.Object"), Some(JType::object()));
    assert_eq!(m.as_super(&tm, "java.util.List"), None);
    let raw = JType::class("java.util.TreeMap");
    assert_eq!(
        m.as_super(&raw, "java.util.Map"),
        Some(JType::class("java.util.Map"))
    );

    assert!(m.is_subtype(&tm, &g("java.util.Map", vec![s(), int()])));
    let wild = JType::Class {
        name: "java.util.Map".into(),
        args: vec![TypeArg::Extends(JType::object()), TypeArg::Any],
    };
    assert!(m.is_subtype(&tm, &wild));
    assert!(!m.is_subtype(&tm, &g("java.util.SortedMap", vec![int(), int()])));
    assert!(
        !m.is_subtype(&tm, &g("java.util.Map", vec![s(), JType::object()])),
        "invariance"
    );
    assert!(
        m.is_subtype(&tm, &JType::class("java.util.Map")),
        "raw target"
    );
    assert!(
        !m.is_subtype(&raw, &g("java.util.Map", vec![s(), int()])),
        "raw source"
    );
    assert!(m.is_subtype(&tm, &JType::object()));
    assert!(
        m.is_subtype(&JType::class("java.util.Map"), &JType::object()),
        "interfaces <: Object"
    );
    assert!(!m.is_subtype(&g("java.util.Map", vec![s(), int()]), &tm));
    // Wildcards: ? super
    let sup = JType::Class {
        name: "java.util.Map".into(),
        args: vec![TypeArg::Super(s()), TypeArg::Any],
    };
    assert!(m.is_subtype(&tm, &sup));
    let sup_int = JType::Class {
        name: "java.util.Map".into(),
        args: vec![TypeArg::Super(int()), TypeArg::Any],
    };
    assert!(!m.is_subtype(&tm, &sup_int));
    // Primitives and arrays.
    let i = JType::Prim(Prim::Int);
    assert!(m.is_subtype(&i, &i));
    assert!(!m.is_subtype(&i, &JType::Prim(Prim::Long)));
    assert!(!m.is_subtype(&i, &int()), "no boxing");
    let arr_tm = JType::Array(Box::new(tm.clone()));
    assert!(m.is_subtype(
        &arr_tm,
        &JType::Array(Box::new(JType::class("java.util.Map")))
    ));
    assert!(m.is_subtype(&arr_tm, &JType::object()));
    assert!(m.is_subtype(&arr_tm, &JType::class("java.io.Serializable")));
    let arr_i = JType::Array(Box::new(i.clone()));
    assert!(!m.is_subtype(&arr_i, &JType::Array(Box::new(JType::object()))));
    assert!(m.is_subtype(&arr_i, &JType::class("java.lang.Cloneable")));
}

#[test]
fn member_types_substitute() {
    let (m, _) = treemap_model();
    let tm = g("java.util.TreeMap", vec![s(), int()]);
    let ms = m.methods_of("java.util.TreeMap");
    let put = ms.iter().find(|x| x.name == "put").unwrap();
    assert_eq!(
        m.member_types(&tm, put),
        Some((vec![s(), int()], Some(int())))
    );
    // Inherited from an interface: Map.getOrDefault(Object, V) -> V.
    let god = ms.iter().find(|x| x.name == "getOrDefault").unwrap();
    assert_eq!(
        m.member_types(&tm, god),
        Some((vec![JType::object(), int()], Some(int())))
    );
    // entrySet(): Set<Map.Entry<K,V>>.
    let es = ms.iter().find(|x| x.name == "entrySet").unwrap();
    assert_eq!(
        m.member_types(&tm, es).unwrap().1,
        Some(g(
            "java.util.Set",
            vec![g("java.util.Map$Entry", vec![s(), int()])]
        ))
    );
    // Raw receiver: erased.
    let raw = JType::class("java.util.TreeMap");
    assert_eq!(
        m.member_types(&raw, put),
        Some((
            vec![JType::object(), JType::object()],
            Some(JType::object())
        ))
    );
    assert_eq!(
        m.member_types(&raw, es).unwrap().1,
        Some(JType::class("java.util.Set"))
    );
    // Not a subtype of the owner.
    assert_eq!(m.member_types(&JType::class("java.lang.Object"), put), None);
    // Through an interface receiver.
    let map = g("java.util.Map", vec![s(), int()]);
    let mput = m
        .methods_of("java.util.Map")
        .into_iter()
        .find(|x| x.name == "put")
        .unwrap();
    assert_eq!(
        m.member_types(&map, mput),
        Some((vec![s(), int()], Some(int())))
    );
}

#[test]
fn subjects_hierarchy() {
    let out = common::compile_subjects();
    let cp = ClassPath::new(&[out.path().to_path_buf()]).unwrap();
    let mut jdk = common::jdk();
    let mut m = Model::new();
    for n in [
        "p.Hier$Sub",
        "p.Hier$StrList",
        "p.Hier$RawList",
        "p.Hier$Impl",
        "p.Hier$Abs",
        "p.Hier$Hidden$InHidden",
        "p.Subject$1",
        "p.Subject",
    ] {
        assert!(m.load(&cp, &mut jdk, n).unwrap().is_some(), "{n}");
    }
    // Covariant override: one `make`, from Sub, returning String; bridge hidden.
    let sub = m.methods_of("p.Hier$Sub");
    let makes: Vec<_> = sub.iter().filter(|x| x.name == "make").collect();
    assert_eq!(makes.len(), 1);
    assert_eq!(makes[0].owner, "p.Hier$Sub");
    assert_eq!(makes[0].ret, Some(s()));
    assert!(
        sub.iter()
            .any(|x| x.name == "baseOnly" && x.owner == "p.Hier$Base")
    );
    assert!(
        sub.iter().any(|x| x.name == "util" && x.is_static()),
        "inherited static class method"
    );
    // Hidden field: Sub.shared (long) hides Base.shared (int).
    let fs = m.fields_of("p.Hier$Sub");
    let names: Vec<(&str, &str)> = fs
        .iter()
        .map(|f| (f.name.as_str(), f.owner.as_str()))
        .collect();
    assert_eq!(
        names,
        [("onlyBase", "p.Hier$Base"), ("shared", "p.Hier$Sub")]
    );
    assert_eq!(fs[1].ty, JType::Prim(Prim::Long));
    // Interface defaults: the most specific one wins; static interface methods not inherited.
    let im = m.methods_of("p.Hier$Impl");
    let greet: Vec<_> = im.iter().filter(|x| x.name == "greet").collect();
    assert_eq!(greet.len(), 1);
    assert_eq!(greet[0].owner, "p.Hier$LoudGreeter");
    assert!(!im.iter().any(|x| x.name == "create"));
    assert!(
        m.methods_of("p.Hier$Greeter")
            .iter()
            .any(|x| x.name == "create")
    );
    assert!(m.is_subtype(
        &JType::class("p.Hier$Impl"),
        &JType::class("p.Hier$Greeter")
    ));
    // Generic and raw superclasses.
    let strlist = JType::class("p.Hier$StrList");
    assert_eq!(
        m.as_super(&strlist, "java.util.Collection"),
        Some(g("java.util.Collection", vec![s()]))
    );
    assert!(m.is_subtype(&strlist, &g("java.util.List", vec![s()])));
    assert!(!m.is_subtype(&strlist, &g("java.util.List", vec![int()])));
    let rawlist = JType::class("p.Hier$RawList");
    assert_eq!(
        m.as_super(&rawlist, "java.util.List"),
        Some(JType::class("java.util.List"))
    );
    let add = m
        .methods_of("p.Hier$StrList")
        .into_iter()
        .find(|x| x.name == "add" && x.params.len() == 1)
        .unwrap();
    assert_eq!(
        m.member_types(&strlist, add),
        Some((vec![s()], Some(JType::Prim(Prim::Boolean))))
    );
    // Accessibility and constructors.
    assert!(m.is_accessible("p.Hier$Sub"));
    assert!(
        !m.is_accessible("p.Hier$Hidden$InHidden"),
        "enclosing class not public"
    );
    assert!(!m.is_accessible("p.Subject$1"), "anonymous");
    assert!(m.constructors_of("p.Hier$Abs").is_empty());
    assert_eq!(
        m.constructors_of("p.Subject").len(),
        1,
        "only the public constructor"
    );
    // Fields with generic types seen through a parameterized receiver.
    let subj = g("p.Subject", vec![int()]);
    let value = m
        .fields_of("p.Subject")
        .into_iter()
        .find(|f| f.name == "value")
        .unwrap();
    assert_eq!(m.field_type(&subj, value), Some(int()));
    assert_eq!(
        m.field_type(&JType::class("p.Subject"), value),
        Some(JType::object())
    );
    assert_eq!(m.field_type(&JType::class("p.Hier$Sub"), value), None);
    // In a home package (the tests are written there) package access is accessible; private
    // and anonymous classes and private constructors are not.
    m.set_home_packages(["p".to_string()]);
    assert!(m.is_accessible("p.Hier$Hidden$InHidden"));
    assert!(!m.is_public_api("p.Hier$Hidden$InHidden"));
    assert!(!m.is_accessible("p.Subject$1"), "anonymous");
    assert_eq!(
        m.constructors_of("p.Subject").len(),
        1,
        "not the private one"
    );
    m.set_home_packages(["q".to_string()]);
    assert!(
        !m.is_accessible("p.Hier$Hidden$InHidden"),
        "another package"
    );
}

#[test]
fn commons_lang3_strbuilder() {
    let cp = ClassPath::parse("/usr/share/java/commons-lang3.jar").unwrap();
    let mut jdk = common::jdk();
    let mut m = Model::new();
    let name = "org.apache.commons.lang3.text.StrBuilder";
    let c = m
        .load(&cp, &mut jdk, name)
        .unwrap()
        .expect("StrBuilder in commons-lang3");
    assert_eq!(c.name, name);
    for sup in [
        "java.lang.CharSequence",
        "java.lang.Appendable",
        "java.io.Serializable",
        "org.apache.commons.lang3.builder.Builder",
        "java.lang.Object",
    ] {
        assert!(m.get(sup).is_some(), "{sup} loaded");
        assert!(m.supertypes(name).contains(&sup.to_string()), "{sup}");
    }
    let appends: Vec<_> = m
        .methods_of(name)
        .into_iter()
        .filter(|x| x.name == "append")
        .collect();
    assert!(appends.len() > 20, "{} append overloads", appends.len());
    assert!(appends.iter().all(|a| a.ret == Some(JType::class(name))));
    let descs: std::collections::BTreeSet<&str> =
        appends.iter().map(|a| a.descriptor.as_str()).collect();
    assert_eq!(descs.len(), appends.len(), "no duplicate overloads");
    // Builder<String>: build() returns String through the generic interface.
    let sb = JType::class(name);
    assert_eq!(
        m.as_super(&sb, "org.apache.commons.lang3.builder.Builder"),
        Some(g("org.apache.commons.lang3.builder.Builder", vec![s()]))
    );
}

#[test]
fn bridged_interface_methods_are_not_listed_twice() {
    let mut jdk = common::jdk();
    let cp = ClassPath::new(&[]).unwrap();
    let mut m = Model::new();
    m.load(&cp, &mut jdk, "java.lang.String").unwrap().unwrap();
    assert!(m.get("java.lang.Comparable").is_some());
    let cmp: Vec<_> = m
        .methods_of("java.lang.String")
        .into_iter()
        .filter(|x| x.name == "compareTo")
        .collect();
    assert_eq!(cmp.len(), 1, "{cmp:?}");
    assert_eq!(cmp[0].params, vec![s()]);
    // From CharSequence (default method), not overridden by String in JDK 17.
    assert!(
        m.methods_of("java.lang.String")
            .iter()
            .any(|x| x.name == "chars")
    );
}

#[test]
fn malformed_class_on_class_path_names_class_and_entry() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("q")).unwrap();
    std::fs::write(
        dir.path().join("q/Bad.class"),
        [0xCA, 0xFE, 0xBA, 0xBE, 0, 0],
    )
    .unwrap();
    // A valid class file stored under the wrong name.
    let out = common::compile_subjects();
    std::fs::copy(
        out.path().join("p/Hier.class"),
        dir.path().join("q/Moved.class"),
    )
    .unwrap();
    let cp = ClassPath::new(&[dir.path().to_path_buf()]).unwrap();
    let mut jdk = common::jdk();
    let mut m = Model::new();
    let e = format!(
        "{:#}",
        m.load(&cp, &mut jdk, "q.Bad").expect_err("must fail")
    );
    assert!(
        e.contains("q.Bad")
            && e.contains(&dir.path().display().to_string())
            && e.contains("truncated"),
        "{e}"
    );
    let e = format!(
        "{:#}",
        m.load(&cp, &mut jdk, "q.Moved").expect_err("must fail")
    );
    assert!(e.contains("q.Moved") && e.contains("p.Hier"), "{e}");
}

#[test]
fn subclassing_lists_the_abstract_methods_to_implement() {
    let mut jdk = common::jdk();
    let cp = ClassPath::new(&[]).unwrap();
    let mut m = Model::new();
    for c in [
        "java.util.concurrent.ConcurrentMap",
        "java.util.TimerTask",
        "java.util.AbstractList",
        "java.util.Currency",
        // the types their abstract methods name must be loaded (load_closure does it)
        "java.lang.String",
        "java.lang.Integer",
        "java.util.Set",
        "java.util.Collection",
        "java.util.Map$Entry",
    ] {
        assert!(m.load(&cp, &mut jdk, c).unwrap().is_some(), "{c}");
    }
    let names = |ty: &JType| -> Vec<String> {
        let sc = m.subclassing(ty, false).expect("subclassable");
        sc.methods
            .iter()
            .map(|(mi, _, _)| mi.name.clone())
            .collect()
    };
    // ConcurrentMap re-abstracts Map's default replace, putIfAbsent and remove(Object, Object)
    let cm = names(&g("java.util.concurrent.ConcurrentMap", vec![s(), int()]));
    for n in [
        "replace",
        "putIfAbsent",
        "remove",
        "get",
        "size",
        "entrySet",
    ] {
        assert!(cm.iter().any(|x| x == n), "{n} in {cm:?}");
    }
    // Map's default getOrDefault is ConcurrentMap's default too: nothing to implement
    assert!(!cm.iter().any(|x| x == "getOrDefault"), "{cm:?}");
    // the interface's own default and Object's methods are not listed
    assert!(
        !cm.iter().any(|x| x == "forEach" || x == "hashCode"),
        "{cm:?}"
    );
    // TimerTask: run() only (from Runnable), through a protected constructor
    let task = m
        .subclassing(&JType::class("java.util.TimerTask"), false)
        .unwrap();
    assert_eq!(
        task.methods
            .iter()
            .map(|(mi, _, _)| mi.name.as_str())
            .collect::<Vec<_>>(),
        ["run"]
    );
    assert_eq!(task.constructors.len(), 1);
    // AbstractList<String>: get(int) returns a String, size() an int
    let list = m
        .subclassing(&g("java.util.AbstractList", vec![s()]), false)
        .unwrap();
    let types: Vec<(String, Option<JType>)> = list
        .methods
        .iter()
        .map(|(mi, _, r)| (mi.name.clone(), r.clone()))
        .collect();
    assert_eq!(
        types,
        [
            ("get".to_string(), Some(s())),
            ("size".to_string(), Some(JType::Prim(Prim::Int)))
        ]
    );
    // final: never
    assert!(
        m.subclassing(&JType::class("java.util.Currency"), false)
            .is_none()
    );
}

#[test]
fn configurers_are_the_fluent_and_setter_methods_of_library_classes() {
    let cp = ClassPath::new(&[crate::support::compiled("gen")]).unwrap();
    let mut jdk = common::jdk();
    let mut m = Model::new();
    for n in [
        "configure.Opt",
        "configure.Opts",
        "configure.Format",
        "java.lang.StringBuilder",
    ] {
        assert!(m.load(&cp, &mut jdk, n).unwrap().is_some(), "{n}");
    }
    let names = |class: &str| -> Vec<String> {
        jforge::model::producers::configurers(&m, class)
            .iter()
            .map(|x| x.name.clone())
            .collect()
    };
    // a void setter; not the getters
    assert_eq!(names("configure.Opt"), ["setRequired"]);
    // a fluent adder taking an object; not size() nor the package-private list()
    assert_eq!(names("configure.Opts"), ["add"]);
    // fluent `with` methods, simplest first (a char before an array); not getDelimiter()
    assert_eq!(names("configure.Format"), ["withDelimiter", "withHeader"]);
    // the JDK's classes are used as their producers make them
    assert!(names("java.lang.StringBuilder").is_empty());
}
