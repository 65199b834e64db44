//! Field extensions (seed 004, after Ponzio et al.): the set of (field, object, value) triples
//! over the canonical forms of a set of structures. A richer set of field values means the
//! builders reach more diverse objects; the genetic algorithm maximizes their number.
//!
//! The triples are read off the worker's text linearization (worker/jforge/worker/Canon.java,
//! `jforge.canon.text`): objects are numbered in first-visit order (root 0), fields are
//! written in a fixed order per class, so a field is (runtime class, position) and an object is
//! its canonical number. Grammar of a value: `N` (null), `#k` (object k, already visited), a
//! literal (`I5`, `Btrue`, `D3ff0…`, `"text"`, `pkg.Enum.NAME`), or a new object: its class
//! name then `{v,v,…,}` (fields) or `[len:v,v,…,]` (array elements).

use crate::exhaustive::canon::{TextField, text_fields};
use std::collections::HashMap;

/// Interns fields, values and triples across structures, so that every structure's field
/// extension is a small sorted list of triple ids.
#[derive(Default, Debug)]
pub struct Interner {
    fields: HashMap<(String, u32), u32>,
    values: HashMap<String, u32>,
    triples: HashMap<(u32, u32, u32), u32>,
}

impl Interner {
    /// Triple ids of one canonical text, sorted and distinct. A text the worker did not write
    /// in the expected grammar gives an error naming where it stopped.
    pub fn triples(&mut self, text: &str) -> anyhow::Result<Vec<u32>> {
        let (fields, _) = text_fields(text)?;
        let mut ids = Vec::with_capacity(fields.len());
        for TextField {
            class,
            index,
            owner,
            value,
            ..
        } in fields
        {
            let nf = self.fields.len() as u32;
            let f = *self.fields.entry((class, index)).or_insert(nf);
            let nv = self.values.len() as u32;
            let v = *self.values.entry(value).or_insert(nv);
            let nt = self.triples.len() as u32;
            ids.push(*self.triples.entry((f, owner, v)).or_insert(nt));
        }
        ids.sort_unstable();
        ids.dedup();
        Ok(ids)
    }
}

/// Objects in one canonical text (the root and every object reachable from it that is not a
/// value): the size of a structure.
pub fn object_count(text: &str) -> anyhow::Result<u32> {
    Ok(text_fields(text)?.1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn triples_of_a_list_with_a_cycle() {
        // a header node pointing to itself, a size, a string and an int array
        let mut i = Interner::default();
        let t = i
            .triples(r#"ds.L{ds.L$N{#1,#1,N,},I0,"a,b",[I[2:I1,I2,],}"#)
            .unwrap();
        // L: 4 fields; N: 3 fields; the array: 2 elements
        assert_eq!(t.len(), 9);
        // the same form again adds nothing; a form differing in one value adds one triple
        assert_eq!(
            i.triples(r#"ds.L{ds.L$N{#1,#1,N,},I0,"a,b",[I[2:I1,I2,],}"#)
                .unwrap(),
            t
        );
        let u = i
            .triples(r#"ds.L{ds.L$N{#1,#1,N,},I1,"a,b",[I[2:I1,I2,],}"#)
            .unwrap();
        let union: std::collections::BTreeSet<u32> = t.iter().chain(&u).copied().collect();
        assert_eq!(union.len(), 10);
    }

    #[test]
    fn object_arrays_enums_and_errors() {
        let mut i = Interner::default();
        let t = i
            .triples("p.Q{[Ljava.lang.Object;[2:N,p.Color.RED,],Btrue,}")
            .unwrap();
        assert_eq!(t.len(), 4);
        assert_eq!(
            object_count("p.Q{[Ljava.lang.Object;[2:N,p.Color.RED,],Btrue,}").unwrap(),
            2
        );
        assert_eq!(object_count(r#"ds.L{ds.L$N{#1,#1,N,},I0,}"#).unwrap(), 2);
        assert!(i.triples("p.Q{I1").is_err());
        assert!(i.triples("p.Q{I1,}x").is_err());
    }
}
