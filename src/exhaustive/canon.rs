//! Rust side of canonical forms. The forms themselves are computed in the worker by reflection
//! (worker/jforge/worker/Canon.java, requested through [`crate::runner::ExecMode::Canon`]);
//! here they become 128-bit keys for the state-matching set.

/// What the worker reported for one value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// More than `scope` objects of one class reachable (or an array longer than --max-array).
    OutOfScope,
    Null,
    /// The linearization (with `jforge.canon.text`) or its 128-bit hash in hex.
    Form(String),
}

pub const OUT_OF_SCOPE: &str = "!scope";

impl Form {
    pub fn parse(s: &str) -> Form {
        match s {
            OUT_OF_SCOPE => Form::OutOfScope,
            "null" => Form::Null,
            _ => Form::Form(s.to_string()),
        }
    }
}

/// State-matching key of a form: XXH3-128 of its text (the text is either the linearization
/// or the worker's own hash of it; both are functions of the canonical form only).
pub fn key(form: &str) -> u128 {
    twox_hash::XxHash3_128::oneshot_with_seed(0x6578_6873, form.as_bytes())
}

/// Memory a kept structure costs on the Rust side (its entry with `inputs` choices, its key
/// in the seen set, table overhead), bytes. Sequences are materialized on demand, not kept.
pub fn kept_bytes(inputs: usize) -> u64 {
    120 + 8 * inputs as u64
}
