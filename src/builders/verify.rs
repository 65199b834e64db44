//! The verdict on a builder set, checked rather than assumed:
//!
//! - **sufficient**: the set builds exactly the structures the whole API builds at the scope
//!   (every usable method, observers included): the same canonical forms, compared as the
//!   sets of their 128-bit keys, hence the same count;
//! - **minimal**: without any one of its methods the set builds fewer structures.
//!
//! Both come from the exploration's closures, whose every edge is a call that ran in a worker.
//! On top of that, `jforge builders` runs an independent exhaustive search restricted to the
//! set on fresh workers and compares its forms with the closure's (a check of the whole
//! closure model on the answer; see builders/cmd.rs).

use super::bits::Bits;
use super::space::{Closure, Space, Wave};

#[derive(Clone, Debug, serde::Serialize)]
pub struct Without {
    pub method: String,
    pub structures: u64,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Verdict {
    pub scope: u32,
    /// Structures of the classes under test the set builds, and the whole API.
    pub structures: u64,
    pub api_structures: u64,
    /// Distinct canonical forms (any class) of each.
    pub forms: usize,
    pub api_forms: usize,
    pub api_methods: usize,
    pub sufficient: bool,
    /// Sequences (whole API) building structures the set cannot build (at most three).
    pub missing_examples: Vec<Vec<String>>,
    pub minimal: bool,
    /// Structures built without each method of the set.
    pub without: Vec<Without>,
    /// Methods of the API left out of the check, with why (over the combination budget).
    pub unchecked: Vec<(String, String)>,
}

/// Checks `builders` against every usable operation of the space.
pub fn verify(
    space: &mut Space,
    builders: &[u32],
    scope: u32,
    wave: &mut dyn FnMut(&Wave),
) -> anyhow::Result<(Verdict, Closure)> {
    let set = Bits::from_indices(builders.iter().copied());
    let mut own = vec![Closure::of(&set)];
    space.close(&mut own, wave)?;
    let own = own.pop().unwrap_or_else(|| Closure::of(&set));
    // the whole API, from what the set reached (a subset of it)
    let all: Vec<u32> = (0..space.ops.len() as u32).collect();
    let mut api = vec![own.with_all(&all)];
    loop {
        space.close(&mut api, wave)?;
        if api[0].over_budget.is_none() {
            break;
        }
        // leave the operation over the budget out and close again
        let ok: Vec<u32> = all
            .iter()
            .copied()
            .filter(|u| !space.excluded.contains_key(u))
            .collect();
        api = vec![own.with_all(&ok)];
    }
    let api = api.pop().unwrap_or_else(|| own.clone());
    let mine = space.keys(&own);
    let theirs = space.keys(&api);
    let sufficient = mine == theirs;
    let mut missing_examples = Vec::new();
    if !sufficient {
        for s in api.reached.iter() {
            if !own.reached.contains(s) && missing_examples.len() < 3 {
                missing_examples.push(space.sequence_of(s));
            }
        }
    }
    // minimality: each method left out in turn
    let mut fewer: Vec<Closure> = builders
        .iter()
        .map(|&b| {
            let mut s = set.clone();
            s.remove(b);
            Closure::of(&s)
        })
        .collect();
    space.close(&mut fewer, wave)?;
    let structures = space.structures(&own);
    let without: Vec<Without> = builders
        .iter()
        .zip(&fewer)
        .map(|(&b, c)| Without {
            method: space.ops[b as usize].signature.clone(),
            structures: space.structures(c),
        })
        .collect();
    let minimal = fewer
        .iter()
        .all(|c| c.over_budget.is_none() && space.keys(c).len() < mine.len());
    let unchecked = space
        .excluded
        .iter()
        .map(|(&u, why)| (space.ops[u as usize].signature.clone(), why.clone()))
        .collect();
    let verdict = Verdict {
        scope,
        structures,
        api_structures: space.structures(&api),
        forms: mine.len(),
        api_forms: theirs.len(),
        api_methods: api.ops.len(),
        sufficient,
        missing_examples,
        minimal,
        without,
        unchecked,
    };
    Ok((verdict, own))
}
