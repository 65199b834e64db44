//! Values no operation makes: the types whose values are literals, lambda literals for
//! functional interfaces, class literals for `Class<X>`.

use crate::model::{JType, Model, Prim, TypeArg};
use crate::sequence::{LambdaBody, Value};

/// Types whose values come from literals rather than from operations.
pub fn is_literal_type(t: &JType) -> bool {
    match t {
        JType::Prim(_) => true,
        JType::Class { name, .. } => name == "java.lang.String" || Prim::unboxed(name).is_some(),
        _ => false,
    }
}

/// A lambda literal for `ty` when it is a functional interface (`Model::function_type`),
/// else `None`: `(p$0) -> {}` for a `Consumer`, `(p$0, p$1) -> 0` for a `Comparator`,
/// `(p$0) -> p$0` for a `UnaryOperator`. What it returns, by the method's return type:
/// nothing for `void`; zero (`false`, `0L`, ...) for a primitive or boxed type; else the
/// first parameter that fits, else `""` where a String fits, `0` where an Integer does, else
/// `null`. Why not a value of the producer graph for the rest (`Supplier<List<String>>`): a
/// literal holds no statements; such a result is rare among the JDK's parameters and `null`
/// is still a valid lambda.
pub fn lambda_literal(model: &Model, ty: &JType) -> Option<Value> {
    let f = model.function_type(ty)?;
    let arity = u8::try_from(f.params.len()).ok()?;
    let body = match &f.ret {
        None => LambdaBody::Void,
        Some(r) => lambda_result(model, &f.params, r),
    };
    Some(Value::Lambda(arity, body))
}

/// A class literal for `ty` when it is `Class<X>` and `X.class` has that type: `X` a
/// class without type arguments, an array or a primitive type, or a wildcard met by its bound
/// (`Class<? extends Annotation>`: `Annotation.class`; `Class<?>`: `Object.class`); the class
/// must be one tests can name.
pub fn class_literal(model: &Model, ty: &JType) -> Option<Value> {
    let JType::Class { name, args } = ty else {
        return None;
    };
    if name != "java.lang.Class" {
        return None;
    }
    let x = match args.first() {
        Some(TypeArg::Type(x) | TypeArg::Extends(x) | TypeArg::Super(x)) => x.clone(),
        Some(TypeArg::Any) | None => JType::object(),
    };
    let mut base = &x;
    while let JType::Array(e) = base {
        base = e;
    }
    let nameable = match base {
        JType::Prim(_) => true,
        JType::Class { name, args } => args.is_empty() && model.is_accessible(name),
        _ => false,
    };
    nameable.then_some(Value::Class(x))
}

/// What a lambda of parameters `params` returns for result type `r` (see [`lambda_literal`]).
fn lambda_result(model: &Model, params: &[JType], r: &JType) -> LambdaBody {
    let prim = match r {
        JType::Prim(p) => Some(*p),
        JType::Class { name, .. } => Prim::unboxed(name),
        _ => None,
    };
    if let Some(p) = prim {
        return LambdaBody::Value(Box::new(zero(p)));
    }
    let boxed = |p: &JType| match p {
        JType::Prim(k) => JType::class(k.boxed()),
        _ => p.clone(),
    };
    if let Some(i) = params.iter().position(|p| model.is_subtype(&boxed(p), r)) {
        return LambdaBody::Arg(i as u8);
    }
    let v = if model.is_subtype(&JType::string(), r) {
        Value::Str(String::new())
    } else if model.is_subtype(&JType::class("java.lang.Integer"), r) {
        Value::Int(0)
    } else {
        Value::Null
    };
    LambdaBody::Value(Box::new(v))
}

/// The zero of primitive kind `p` (`false` for boolean).
fn zero(p: Prim) -> Value {
    match p {
        Prim::Boolean => Value::Bool(false),
        Prim::Byte => Value::Byte(0),
        Prim::Short => Value::Short(0),
        Prim::Char => Value::Char(0),
        Prim::Int => Value::Int(0),
        Prim::Long => Value::Long(0),
        Prim::Float => Value::float(0.0),
        Prim::Double => Value::double(0.0),
    }
}
