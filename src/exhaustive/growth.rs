//! Why a search that hit its time or memory limit never reached its fixpoint: the fields
//! whose values kept growing in the structures it built, and the `--omit-fields` line that
//! leaves them out.
//!
//! A counter (`hits`, `misses`, `modCount`) is a field no bound of the search limits: every
//! call that bumps it builds a structure never seen, so the search runs until a limit stops
//! it. The search itself hashes its forms, so the evidence is gathered after the fact:
//! chains of kept structures (a structure of the last round, the one it was built from, and
//! so on back to round 1; each step is one call) are canonicalized once more as text with
//! field names (`jforge.canon.names`) in a one-worker pool, and a numeric field is named
//! when, along some chain, its largest value in the structure rose at least
//! [`MIN_NET_RISES`] more times than it fell and ended beyond every value of the domains and
//! the scope. Why chains and not per-round maxima of a sample: a round holds exponentially
//! many structures, a sample's maximum is noise, whereas a counter rises along the calls that
//! built one structure, and a size bounded by the scope cannot rise that often.

use super::Settings;
use super::search::{Choice, Search};
use crate::runner::{CANON_OP, ExecMode, ExecRequest, Pool, PoolConfig};
use crate::sequence::Value;
use std::collections::{BTreeMap, BTreeSet};

/// Chains followed back from the last round.
const CHAINS: usize = 16;

/// How many more times a field must rise than fall along one chain to count as growing.
const MIN_NET_RISES: u32 = 3;

/// A field whose values kept growing: `Declaring.name` and the largest value seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Growing {
    pub field: String,
    pub largest: i64,
}

/// A search its time or memory limit stopped (an `exit::budget` error): the error, plus the
/// fields whose values kept growing in the structures it built and the `--omit-fields` line
/// that leaves them out, found on one worker started from `cfg` (the run's configuration with
/// [`names_jvm_args`]); still a budget error (exit 4). Other errors, a search that kept
/// nothing, and a diagnosis that finds nothing or fails leave the error as it was. The entry
/// point of `jforge exhaustive` and `jforge builders` alike.
pub fn explain_limit(
    e: anyhow::Error,
    search: &Search,
    cfg: PoolConfig,
    settings: &Settings,
) -> anyhow::Error {
    if crate::exit::kind_of(&e) != Some(crate::exit::ErrorKind::Budget) || search.kept.is_empty() {
        return e;
    }
    let chains = chains(search);
    let found = (|| -> anyhow::Result<Vec<Growing>> {
        let cfg = PoolConfig {
            workers: 1,
            heap_mb: 1024,
            ..cfg
        };
        let mut pool = Pool::start(cfg)?;
        pool.register(&search.ops.table)?;
        let found = growing_fields(&mut pool, search, &chains, domain_bound(settings));
        pool.shutdown();
        found
    })();
    match found
        .ok()
        .and_then(|f| advice(&f, settings.omit_fields.as_deref()))
    {
        Some(advice) => crate::exit::budget(anyhow::anyhow!("{e:#}; {advice}")),
        None => e,
    }
}

/// The largest absolute value of the integral domains and the scope: a field beyond it was
/// not set from a domain.
fn domain_bound(s: &Settings) -> i64 {
    let ints = s.ints.iter().chain(&s.shorts).map(|&v| (v as i64).abs());
    let longs = s.longs.iter().map(|&v| v.saturating_abs());
    ints.chain(longs).fold(s.scope as i64, i64::max)
}

/// Up to [`CHAINS`] chains of kept structures, root first: structures of the last round
/// (evenly spread over it), each followed back through its first structure input.
pub fn chains(search: &Search) -> Vec<Vec<u32>> {
    let Some(last) = search.kept.iter().map(|k| k.round).max() else {
        return Vec::new();
    };
    let ends: Vec<u32> = (0..search.kept.len() as u32)
        .filter(|&k| search.kept[k as usize].round == last)
        .collect();
    let step = (ends.len() / CHAINS).max(1);
    ends.iter()
        .step_by(step)
        .take(CHAINS)
        .map(|&end| {
            let mut chain = vec![end];
            let mut k = end;
            while let Some(&Choice::Ref(parent)) = search.kept[k as usize]
                .choice
                .iter()
                .find(|c| matches!(c, Choice::Ref(_)))
            {
                if chain.len() > search.kept.len() {
                    break; // (kept entries only refer to earlier ones; a guard all the same)
                }
                chain.push(parent);
                k = parent;
            }
            chain.reverse();
            chain
        })
        .collect()
}

/// The fields that kept growing along `chains` (see the module documentation), their forms
/// computed on `pool` (a pool canonicalizing as text with names); `bound`: the largest
/// absolute value of the domains and the scope.
pub fn growing_fields(
    pool: &mut Pool,
    search: &Search,
    chains: &[Vec<u32>],
    bound: i64,
) -> anyhow::Result<Vec<Growing>> {
    let kept: BTreeSet<u32> = chains.iter().flatten().copied().collect();
    let kept: Vec<u32> = kept.into_iter().collect();
    let reqs: Vec<ExecRequest> = kept
        .iter()
        .map(|&k| {
            let (seq, stmt) = search.materialize(k as usize);
            ExecRequest {
                seq,
                mode: ExecMode::Canon,
                contract_values: Vec::new(),
                observers: vec![(stmt, CANON_OP)],
                reuse: None,
            }
        })
        .collect();
    let results = pool.execute(reqs)?;
    let mut maxima: BTreeMap<u32, BTreeMap<String, i64>> = BTreeMap::new();
    for (k, r) in kept.iter().zip(&results) {
        if let Some(Ok(Value::Str(text))) = r.observers.first().map(|o| &o.result)
            && let Ok(m) = field_maxima(text)
        {
            maxima.insert(*k, m);
        }
    }
    let mut found: BTreeMap<String, i64> = BTreeMap::new();
    for chain in chains {
        let values: Vec<&BTreeMap<String, i64>> =
            chain.iter().filter_map(|k| maxima.get(k)).collect();
        for (field, largest) in growing_on(&values, bound) {
            let e = found.entry(field).or_insert(largest);
            *e = (*e).max(largest);
        }
    }
    Ok(found
        .into_iter()
        .map(|(field, largest)| Growing { field, largest })
        .collect())
}

/// The fields that rose at least [`MIN_NET_RISES`] more times than they fell from one
/// structure of a chain to the next and went beyond `bound`, with their largest value.
fn growing_on(values: &[&BTreeMap<String, i64>], bound: i64) -> Vec<(String, i64)> {
    let mut moves: BTreeMap<&str, (u32, u32, i64)> = BTreeMap::new();
    for pair in values.windows(2) {
        for (field, &b) in pair[1] {
            let Some(&a) = pair[0].get(field) else {
                continue;
            };
            let e = moves.entry(field).or_insert((0, 0, a));
            if b > a {
                e.0 += 1;
            } else if b < a {
                e.1 += 1;
            }
            e.2 = e.2.max(b);
        }
    }
    moves
        .into_iter()
        .filter(|(_, (rises, falls, largest))| {
            *rises >= falls + MIN_NET_RISES && largest.unsigned_abs() > bound.unsigned_abs()
        })
        .map(|(f, (_, _, largest))| (f.to_string(), largest))
        .collect()
}

/// The advice for an error message: the fields and the flag line (`--omit-fields` with
/// their names added to what was omitted already); `None` when no field kept growing.
pub fn advice(fields: &[Growing], omitted: Option<&str>) -> Option<String> {
    if fields.is_empty() {
        return None;
    }
    let listed: Vec<String> = fields
        .iter()
        .map(|g| format!("{} (up to {})", g.field, g.largest))
        .collect();
    let mut names: Vec<&str> = Vec::new();
    if let Some(o) = omitted.filter(|o| !o.is_empty()) {
        names.push(o);
    }
    for g in fields {
        let name = g.field.rsplit('.').next().unwrap_or(&g.field);
        if !names.contains(&name) {
            names.push(name);
        }
    }
    Some(format!(
        "the values of {} kept growing in the structures built: a field that counts calls \
         makes every call build a new structure, so the search cannot end; leave them out \
         of the canonical form with --omit-fields '{}'",
        listed.join(", "),
        names.join("|")
    ))
}

/// The largest value of each integral field (`Declaring.name`) over the objects of one
/// canonical text written with names: `p.C{p.C.n=I3,p.C.next=p.C{p.C.n=I4,p.C.next=N,},}`.
/// Booleans, chars, floating-point values, strings and references are not numbers here.
pub fn field_maxima(text: &str) -> anyhow::Result<BTreeMap<String, i64>> {
    let mut out = BTreeMap::new();
    for f in super::canon::text_fields(text)?.0 {
        let Some(name) = f.name else { continue };
        let number = match f.value.as_bytes().split_first() {
            Some((b'I' | b'L' | b'S' | b'B', n)) => std::str::from_utf8(n)
                .ok()
                .and_then(|n| n.parse::<i64>().ok()),
            _ => None,
        };
        if let Some(v) = number {
            let e = out.entry(name).or_insert(v);
            *e = (*e).max(v);
        }
    }
    Ok(out)
}

/// JVM options of the pool [`growing_fields`] needs, after the run's canonicalization
/// options: text forms with field names, no scope bound.
pub fn names_jvm_args(mut canon: Vec<String>) -> Vec<String> {
    canon.push("-Djforge.canon.names=true".into());
    canon
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn maxima_of_integral_fields_over_every_object() {
        let m = field_maxima(
            r#"p.C{p.C.hits=I3,p.C.next=p.C{p.C.hits=I9,p.C.next=#0,p.C.on=Bfalse,p.C.s="x,{",},p.C.on=Btrue,p.C.s=N,}"#,
        )
        .unwrap();
        assert_eq!(m.get("p.C.hits"), Some(&9));
        assert_eq!(m.len(), 1, "{m:?}");
        let m = field_maxima("p.D{p.D.a=[I[2:I7,I8,],p.D.n=L-4,}").unwrap();
        assert_eq!(m.get("p.D.n"), Some(&-4));
        assert!(field_maxima("p.D{p.D.n=I1").is_err());
    }

    #[test]
    fn a_counter_grows_and_a_bounded_size_does_not() {
        let chain: Vec<BTreeMap<String, i64>> = [(0, 0), (1, 1), (2, 2), (3, 1), (4, 2), (5, 2)]
            .iter()
            .map(|&(hits, size)| {
                BTreeMap::from([("C.hits".to_string(), hits), ("C.size".to_string(), size)])
            })
            .collect();
        let refs: Vec<&BTreeMap<String, i64>> = chain.iter().collect();
        assert_eq!(growing_on(&refs, 3), vec![("C.hits".to_string(), 5)]);
        // within the domains it is not named: the search bounds it
        assert!(growing_on(&refs, 5).is_empty());
    }

    #[test]
    fn advice_names_the_fields_and_the_flag_line() {
        let g = |f: &str, n| Growing {
            field: f.into(),
            largest: n,
        };
        let a = advice(
            &[g("ds.LruCache.hits", 7), g("java.util.HashMap.modCount", 9)],
            Some("size"),
        )
        .unwrap();
        assert!(a.contains("ds.LruCache.hits (up to 7)"), "{a}");
        assert!(a.ends_with("--omit-fields 'size|hits|modCount'"), "{a}");
        assert_eq!(advice(&[], None), None);
    }
}
