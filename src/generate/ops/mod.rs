//! From the model to operations: which constructors, methods and fields of the classes under
//! test (and of a few helper classes that supply arguments) the generators may call, with
//! generic types instantiated so that every call can be written as compiling Java.
//!
//! Generic classes are instantiated with concrete type arguments chosen from `String` and
//! `Integer` (the first that satisfies the declared bounds), e.g. `TreeMap<String, Integer>`.
//! A member whose types cannot be made concrete is skipped and listed with the reason; no
//! sequence is ever generated that javac would reject.
//!
//! The parts, each a file: `opset` (the operations of a run, and why members are left out),
//! `values` (literal types, lambda and class literals: values no operation makes), `filters`
//! (which members are worth calling or observing), `builder` (building the operations, and
//! the views coverage guidance adds), `members` (a class's constructors, methods and fields),
//! `instantiate` (type arguments chosen for generic classes, methods and parameters),
//! `producers` (the producer graph's operations), `configurers` (the fluent and setter
//! methods that configure argument objects), `stubs` (anonymous subclasses) and `reach`
//! (which package's tests can call an operation: those of package access in their package).

mod builder;
mod configurers;
mod filters;
mod instantiate;
mod members;
mod opset;
mod producers;
mod reach;
mod stubs;
mod values;

pub use crate::sequence::SkipReason;
pub use builder::{add_view_ops, build_ops, build_ops_with_stubs};
pub use filters::qualified_signature;
pub use instantiate::ENUM_STAND_IN;
pub use opset::{OpSet, SINK_TYPES};
pub use reach::Reach;
pub use values::{class_literal, is_literal_type, lambda_literal};
