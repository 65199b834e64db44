//! One notion of a bug for every generator: which exceptions a call may throw as expected
//! behaviour and which reveal an error. `gen` (Randoop's rules), `exhaustive` and `builders`
//! all classify a thrown exception here, so the three never disagree on what a bug is.
//!
//! The rules (Randoop's, seed 003): an exception the code throws for an invalid argument or
//! state (`IndexOutOfBoundsException` from an index-checked `get`, `IllegalArgumentException`,
//! `NoSuchElementException`, ...) is expected behaviour. A `NullPointerException` when no
//! input was null, an `AssertionError`, and any class named in `--error-exceptions` break a
//! contract. Object contracts (equals, hashCode, toString, compareTo) are checked by the
//! worker (`Contracts.java`) and are errors for every generator alike. Crashes and timeouts
//! are no exceptions of the code and are handled by each generator (blamed and excluded by
//! `gen`, reported by `exhaustive`).

use crate::runner::{Observed, SeqResult, StmtOutcome};
use crate::sequence::{Sequence, Stmt, Value};
use std::collections::HashSet;

/// The contract an exception of `class` (binary name) thrown by the final call of a sequence
/// breaks, if any; `None`: expected behaviour. `null_input`: some input of the sequence was
/// null (see [`null_input`]); `error_exceptions`: the classes of `--error-exceptions`.
pub fn exception_contract(
    class: &str,
    null_input: bool,
    error_exceptions: &HashSet<String>,
) -> Option<&'static str> {
    if class == "java.lang.NullPointerException" && !null_input {
        Some("npe-without-null-input")
    } else if class == "java.lang.AssertionError" {
        Some("assertion-error")
    } else if error_exceptions.contains(class) {
        Some("declared-exception")
    } else {
        None
    }
}

/// Whether some statement of `seq` took a null input: a `null` literal, or a value that was
/// null when `r` ran (an NPE is then expected behaviour).
pub fn null_input(seq: &Sequence, r: &SeqResult) -> bool {
    let is_null = |a: u32| {
        matches!(
            seq.stmts.get(a as usize),
            Some(Stmt::Lit {
                value: Value::Null,
                ..
            })
        ) || matches!(
            r.outcomes.get(a as usize),
            Some(StmtOutcome::Normal(Observed::Null))
        )
    };
    seq.stmts
        .iter()
        .any(|s| s.inputs().iter().any(|&a| is_null(a)))
}

/// Whether `class` (binary name) is a class of the JDK (its packages are the platform's:
/// no class path may define them). A JDK value that breaks an object contract while not
/// under test (`Collections.emptyList()` returned by the class under test, equal to a list
/// whose hashCode is wrong) shows the JDK's documented behaviour or the other value's
/// defect, which the reverse pair reports on that value's own class: the violation is set
/// aside (`jdk-value`), not an error test of the classes under test.
pub fn jdk_class(class: &str) -> bool {
    ["java.", "javax.", "jdk.", "sun.", "com.sun."]
        .iter()
        .any(|p| class.starts_with(p))
}

/// `--error-exceptions` as given (comma-separated, repeatable): trimmed binary names, empty
/// entries dropped.
pub fn error_exceptions(given: &[String]) -> HashSet<String> {
    given
        .iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_argument_or_state_is_expected_behaviour() {
        let none = HashSet::new();
        for c in [
            "java.lang.IndexOutOfBoundsException",
            "java.lang.IllegalArgumentException",
            "java.lang.IllegalStateException",
            "java.util.NoSuchElementException",
        ] {
            assert_eq!(exception_contract(c, false, &none), None, "{c}");
        }
        let npe = "java.lang.NullPointerException";
        assert_eq!(
            exception_contract(npe, false, &none),
            Some("npe-without-null-input")
        );
        assert_eq!(exception_contract(npe, true, &none), None);
        assert_eq!(
            exception_contract("java.lang.AssertionError", true, &none),
            Some("assertion-error")
        );
        let declared =
            error_exceptions(&[" java.lang.IndexOutOfBoundsException".into(), "".into()]);
        assert_eq!(declared.len(), 1);
        assert_eq!(
            exception_contract("java.lang.IndexOutOfBoundsException", false, &declared),
            Some("declared-exception")
        );
    }

    #[test]
    fn jdk_classes_are_those_of_the_platform_packages() {
        assert!(jdk_class("java.util.Collections$EmptyList"));
        assert!(jdk_class("javax.swing.JList"));
        assert!(jdk_class("sun.util.calendar.ZoneInfo"));
        assert!(!jdk_class("org.apache.commons.collections4.SetUtils$5"));
        assert!(!jdk_class("javafoo.Bar"));
        assert!(!jdk_class("blame.Union$1"));
    }
}
