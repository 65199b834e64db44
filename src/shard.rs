//! `--shard I/N`: which of the selected classes this process tests, so that N machines (a CI
//! matrix, a Kubernetes Indexed Job) share one code base, and `jforge merge` puts their
//! reports back together.
//!
//! Why a hash of the class name alone (FNV-1a, fixed, not Rust's randomized `HashMap` hash):
//! a class's shard must not depend on the machine, the jforge build, the order classes were
//! found in or on which other classes exist, so that adding a class to the code base moves no
//! other class to another shard, and every shard computes the same partition on its own.
//!
//! Why per-class seeds: a class's tests must not depend on which other classes share its
//! run, or N shards could not add up to one run. With `--shard` (or `gen --per-class`) every
//! class is generated alone with the seed [`class_seed`] derives from `--seed` and its name,
//! and its share of `--generated-limit` ([`share`]).

use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};

/// One shard of N: `index` counts from 0 (as Kubernetes' `JOB_COMPLETION_INDEX` does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Parses `I/N` (clap's value parser of `--shard`).
pub fn parse(s: &str) -> Result<Shard> {
    let Some((i, n)) = s.split_once('/') else {
        bail!("'{s}' is no shard: write I/N, e.g. --shard 0/4 for the first of four shards");
    };
    let num = |t: &str, what: &str| -> Result<u32> {
        t.trim().parse::<u32>().map_err(|_| {
            anyhow::anyhow!("'{s}': the {what} '{t}' is not a whole number (write I/N, e.g. 0/4)")
        })
    };
    let (index, count) = (num(i, "shard index")?, num(n, "shard count")?);
    if count == 0 {
        bail!("'{s}': the shard count must be at least 1");
    }
    if index >= count {
        bail!(
            "'{s}': shards are numbered from 0 to {}, so {index} is none of them",
            count - 1
        );
    }
    Ok(Shard { index, count })
}

/// FNV-1a, 64 bits: stable across machines, builds and Rust versions.
pub fn stable_hash(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl Shard {
    /// Whether `class` (binary name, `a.b.C$D`) belongs to this shard: by its name alone.
    pub fn contains(&self, class: &str) -> bool {
        stable_hash(class) % u64::from(self.count) == u64::from(self.index)
    }

    /// The classes of this shard, in their given order.
    pub fn select<S: AsRef<str> + Clone>(&self, classes: &[S]) -> Vec<S> {
        classes
            .iter()
            .filter(|c| self.contains(c.as_ref()))
            .cloned()
            .collect()
    }
}

/// The seed a class is generated with in per-class mode: `--seed` and the class name mixed
/// (SplitMix64's finalizer), so two classes never share a random stream by accident and the
/// seed does not depend on the other classes.
pub fn class_seed(seed: u64, class: &str) -> u64 {
    let mut z = seed ^ stable_hash(class);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A class's share of a limit over `selected` classes (all the classes selected before
/// sharding, so every shard computes the same share): rounded up, at least 1.
pub fn share(limit: u64, selected: usize) -> u64 {
    limit.div_ceil(selected.max(1) as u64).max(1)
}

/// What identifies the run a report belongs to (`sharding` in a report of `--shard` or
/// `gen --per-class`): the shards of one run have the same except `shard`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Sharding {
    /// This shard; `None` in a merged report and in a run without `--shard`.
    pub shard: Option<Shard>,
    /// Classes selected before sharding (the same in every shard of a run).
    pub selected_classes: usize,
    /// The options that decide what a class's run does (seed, limits, selection, ...).
    pub options: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_explain_bad_input() {
        assert_eq!(parse("2/5").unwrap(), Shard { index: 2, count: 5 });
        assert!(parse("5/5").unwrap_err().to_string().contains("0 to 4"));
        assert!(parse("1/0").unwrap_err().to_string().contains("at least 1"));
        assert!(parse("3").unwrap_err().to_string().contains("I/N"));
        assert!(
            parse("a/2")
                .unwrap_err()
                .to_string()
                .contains("whole number")
        );
    }

    #[test]
    fn every_class_is_in_exactly_one_shard_by_its_name_alone() {
        let classes: Vec<String> = (0..200).map(|i| format!("com.acme.C{i}")).collect();
        let n = 4;
        let shards: Vec<Vec<String>> = (0..n)
            .map(|i| Shard { index: i, count: n }.select(&classes))
            .collect();
        assert_eq!(shards.iter().map(Vec::len).sum::<usize>(), classes.len());
        assert!(shards.iter().all(|s| s.len() > 20), "{shards:?}");
        // Adding classes moves none of the others.
        let mut more = classes.clone();
        more.extend((0..50).map(|i| format!("org.other.D{i}")));
        for i in 0..n {
            let s = Shard { index: i, count: n };
            let again: Vec<String> = s
                .select(&more)
                .into_iter()
                .filter(|c| classes.contains(c))
                .collect();
            assert_eq!(again, shards[i as usize]);
        }
        // Known values: the hash is fixed, not per process.
        assert_eq!(stable_hash(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(stable_hash("a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn seeds_and_shares_depend_on_the_class_not_on_the_others() {
        assert_eq!(class_seed(7, "a.B"), class_seed(7, "a.B"));
        assert_ne!(class_seed(7, "a.B"), class_seed(7, "a.C"));
        assert_ne!(class_seed(7, "a.B"), class_seed(8, "a.B"));
        assert_eq!(share(1000, 3), 334);
        assert_eq!(share(2, 5), 1);
        assert_eq!(share(10, 0), 10);
    }
}
