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

/// One field (or array element) of an object in a canonical text form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextField {
    /// The object's runtime class (`ds.L$N`, `[I`).
    pub class: String,
    /// The field's position in the class's fixed field order (an element's index).
    pub index: u32,
    /// The field's name as `Declaring.name`, in forms written with `jforge.canon.names`.
    pub name: Option<String>,
    /// The object's number in first-visit order (root 0).
    pub owner: u32,
    /// The value: a literal (`I5`, `Btrue`, `"text"`, `pkg.Enum.NAME`), `N`, or `#k` for an
    /// object (a new one is numbered and its own fields listed too).
    pub value: String,
}

/// The fields of every object of a canonical text form (worker/jforge/worker/Canon.java:
/// `N`, `#k`, a literal, or a class name then `{v,...,}` / `{Declaring.name=v,...,}` for
/// fields or `[len:v,...,]` for array elements), and the number of objects. A text not in
/// that grammar gives an error naming where it stopped. The one reader of the text form:
/// builders' field extensions and exhaustive's growing fields both use it.
pub fn text_fields(text: &str) -> anyhow::Result<(Vec<TextField>, u32)> {
    let mut p = TextParser {
        b: text.as_bytes(),
        at: 0,
        next_id: 0,
        out: Vec::new(),
    };
    p.value()?;
    if p.at != p.b.len() {
        anyhow::bail!("unexpected text at byte {} of a canonical form", p.at);
    }
    Ok((p.out, p.next_id))
}

struct TextParser<'t> {
    b: &'t [u8],
    at: usize,
    next_id: u32,
    out: Vec<TextField>,
}

impl TextParser<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.at).copied()
    }

    fn expect(&mut self, c: u8) -> anyhow::Result<()> {
        if self.peek() != Some(c) {
            anyhow::bail!(
                "expected '{}' at byte {} of a canonical form",
                c as char,
                self.at
            );
        }
        self.at += 1;
        Ok(())
    }

    fn text(&self, from: usize) -> String {
        String::from_utf8_lossy(&self.b[from..self.at]).into_owned()
    }

    /// One value; an object is parsed whole and given as `#id`.
    fn value(&mut self) -> anyhow::Result<String> {
        let start = self.at;
        match self.peek() {
            None => anyhow::bail!("a canonical form ends early"),
            Some(b'"') => {
                self.at += 1;
                loop {
                    match self.peek() {
                        None => anyhow::bail!("unterminated string in a canonical form"),
                        Some(b'\\') => self.at += 2,
                        Some(b'"') => {
                            self.at += 1;
                            break;
                        }
                        Some(_) => self.at += 1,
                    }
                }
                Ok(self.text(start))
            }
            Some(b'#') => {
                self.at += 1;
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.at += 1;
                }
                Ok(self.text(start))
            }
            Some(b'[') => {
                // an array class name: [[I, [Ljava.lang.Object;
                while self.peek() == Some(b'[') {
                    self.at += 1;
                }
                if self.peek() == Some(b'L') {
                    while self.peek().is_some_and(|c| c != b';') {
                        self.at += 1;
                    }
                    self.expect(b';')?;
                } else {
                    self.at += 1;
                }
                let class = self.text(start);
                self.object(class)
            }
            Some(_) => {
                while self
                    .peek()
                    .is_some_and(|c| !matches!(c, b',' | b'{' | b'}' | b'[' | b']'))
                {
                    self.at += 1;
                }
                let token = self.text(start);
                match self.peek() {
                    Some(b'{') | Some(b'[') => self.object(token),
                    _ => Ok(token),
                }
            }
        }
    }

    /// `Declaring.name=` before a field's value, in forms written with names.
    fn field_name(&mut self) -> Option<String> {
        let start = self.at;
        let mut end = start;
        while self.b.get(end).is_some_and(|c| !b"=,{}[]\"#".contains(c)) {
            end += 1;
        }
        (self.b.get(end) == Some(&b'=')).then(|| {
            self.at = end + 1;
            String::from_utf8_lossy(&self.b[start..end]).into_owned()
        })
    }

    fn object(&mut self, class: String) -> anyhow::Result<String> {
        let id = self.next_id;
        self.next_id += 1;
        let (close, fields) = match self.peek() {
            Some(b'{') => (b'}', true),
            Some(b'[') => {
                self.at += 1;
                while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                    self.at += 1;
                }
                if self.peek() != Some(b':') {
                    anyhow::bail!("expected ':' at byte {} of a canonical form", self.at);
                }
                (b']', false)
            }
            _ => anyhow::bail!("expected an object body at byte {}", self.at),
        };
        self.at += 1;
        let mut index = 0u32;
        while self.peek() != Some(close) {
            let name = if fields { self.field_name() } else { None };
            let value = self.value()?;
            self.expect(b',')?;
            self.out.push(TextField {
                class: class.clone(),
                index,
                name,
                owner: id,
                value,
            });
            index += 1;
        }
        self.at += 1;
        Ok(format!("#{id}"))
    }
}
