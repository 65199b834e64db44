//! Which regression candidates become the written suite.
//!
//! Why: users judge a generator by the suite it writes, not by what it executed. A blind
//! sample of the run's candidates loses most of what the run reached (a rare sequence that
//! alone covers a branch is unlikely to be drawn), so the suite is chosen in two steps:
//!
//! 1. **Cover.** Greedy set cover over the probes (line and branch edges) each candidate hit
//!    when it was generated: repeatedly take the candidate that adds the most probes not yet
//!    covered, ties to the shorter sequence, then the earlier one. Every probe that any
//!    candidate (a legal sequence: it ended normally or in an expected exception) covered is
//!    covered by the chosen ones. Lazy evaluation: a candidate's gain only shrinks as the
//!    cover grows, so a stale gain in the heap is an upper bound and is recomputed only
//!    when it reaches the top.
//! 2. **Fill.** Up to the output limit, the most diverse of the rest: round robin over the
//!    classes under test (the one with the fewest chosen tests first), within a class over
//!    the final operation (fewest first), so that a cheap value class does not crowd out
//!    the others.
//!
//! Everything is deterministic: candidates come in generation order and every tie is broken
//! by length, then id.

use super::ops::OpSet;
use super::random::Candidate;
use crate::sequence::Stmt;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashSet};

/// Probe ids as a growable bit set.
#[derive(Default, Clone)]
pub struct ProbeSet {
    bits: Vec<bool>,
    count: usize,
}

impl ProbeSet {
    pub fn insert(&mut self, id: u32) -> bool {
        let i = id as usize;
        if i >= self.bits.len() {
            self.bits.resize(i + 1, false);
        }
        let new = !self.bits[i];
        self.bits[i] = true;
        self.count += new as usize;
        new
    }
    pub fn contains(&self, id: u32) -> bool {
        self.bits.get(id as usize).copied().unwrap_or(false)
    }
    pub fn len(&self) -> usize {
        self.count
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
    pub fn extend(&mut self, ids: &[u32]) {
        for &id in ids {
            self.insert(id);
        }
    }
}

fn gain(c: &Candidate, covered: &ProbeSet) -> usize {
    c.cov.as_ref().map_or(0, |ids| {
        ids.iter().filter(|&&i| !covered.contains(i)).count()
    })
}

/// Greedy set cover: indices into `cands` (skipping `taken`) that together cover every probe
/// the candidates cover and `covered` does not, in the order chosen. `covered` grows.
pub fn greedy_cover(
    cands: &[Candidate],
    taken: &HashSet<usize>,
    covered: &mut ProbeSet,
) -> Vec<usize> {
    // (gain, shorter first, earlier first, index)
    let mut heap: BinaryHeap<(usize, Reverse<usize>, Reverse<u64>, usize)> = cands
        .iter()
        .enumerate()
        .filter(|(i, _)| !taken.contains(i))
        .filter_map(|(i, c)| {
            let g = gain(c, covered);
            (g > 0).then_some((g, Reverse(c.comp.seq.len()), Reverse(c.id), i))
        })
        .collect();
    let mut out = Vec::new();
    while let Some((stale, len, id, i)) = heap.pop() {
        let g = gain(&cands[i], covered);
        if g == 0 {
            continue;
        }
        if g < stale
            && heap
                .peek()
                .is_some_and(|top| (g, len, id, i) < (top.0, top.1, top.2, top.3))
        {
            heap.push((g, len, id, i));
            continue;
        }
        if let Some(ids) = &cands[i].cov {
            covered.extend(ids);
        }
        out.push(i);
    }
    out
}

/// The class under test a candidate is "about": the owner of its last call that belongs to
/// a class under test.
fn owner<'o>(ops: &'o OpSet, c: &Candidate) -> Option<&'o str> {
    c.comp.seq.stmts.iter().rev().find_map(|s| match s {
        Stmt::Call { op, .. } => ops.class_under_test(*op),
        _ => None,
    })
}

fn last_op(c: &Candidate) -> u32 {
    c.comp
        .seq
        .stmts
        .iter()
        .rev()
        .find_map(|s| match s {
            Stmt::Call { op, .. } => Some(*op),
            _ => None,
        })
        .unwrap_or(u32::MAX)
}

/// Up to `room` more indices (not in `taken`), spread over classes and final operations;
/// only candidates that call a class under test.
pub fn diverse_fill(
    ops: &OpSet,
    cands: &[Candidate],
    taken: &HashSet<usize>,
    room: usize,
) -> Vec<usize> {
    if room == 0 {
        return Vec::new();
    }
    // class -> op -> queue of candidate indices (generation order)
    let mut groups: BTreeMap<&str, BTreeMap<u32, std::collections::VecDeque<usize>>> =
        BTreeMap::new();
    let mut per_class: BTreeMap<&str, usize> = BTreeMap::new();
    let mut per_op: BTreeMap<u32, usize> = BTreeMap::new();
    for (i, c) in cands.iter().enumerate() {
        // A sequence that calls nothing of the classes under test (`new Locale("PT846H")`,
        // helper calls that happened to be new values) tests nothing of them: users found a
        // third of a suite made of those, uncounted in the per-class table.
        let Some(class) = owner(ops, c) else {
            continue;
        };
        let op = last_op(c);
        if taken.contains(&i) {
            *per_class.entry(class).or_default() += 1;
            *per_op.entry(op).or_default() += 1;
        } else {
            groups
                .entry(class)
                .or_default()
                .entry(op)
                .or_default()
                .push_back(i);
        }
    }
    let mut out = Vec::new();
    while out.len() < room {
        // The class with the fewest tests that still has candidates.
        let Some(class) = groups
            .iter()
            .filter(|(_, g)| g.values().any(|q| !q.is_empty()))
            .min_by_key(|(c, _)| (per_class.get(*c).copied().unwrap_or(0), **c))
            .map(|(c, _)| *c)
        else {
            break;
        };
        let Some(g) = groups.get_mut(class) else {
            break;
        };
        let Some((&op, q)) = g
            .iter_mut()
            .filter(|(_, q)| !q.is_empty())
            .min_by_key(|(op, _)| (per_op.get(*op).copied().unwrap_or(0), **op))
        else {
            break;
        };
        let Some(i) = q.pop_front() else { break };
        out.push(i);
        *per_class.entry(class).or_default() += 1;
        *per_op.entry(op).or_default() += 1;
    }
    out
}

/// What [`choose`] picked.
#[derive(Debug, Default)]
pub struct Choice {
    /// Indices into the candidates, in generation order.
    pub chosen: Vec<usize>,
    /// How many tests the whole cover needed (before a cut at a hard limit).
    pub cover: usize,
    /// Probes covered by some candidate but by none of the chosen (the cover was cut at an
    /// explicit `--output-limit`).
    pub left_out: usize,
    /// Probes covered by the candidates together.
    pub universe: usize,
}

/// Cover, then fill up to `limit`. When the cover alone needs more than `limit` tests it is
/// written whole unless `hard_limit` (the user set the limit), in which case it is cut and
/// `left_out` says how much coverage that lost.
pub fn choose(ops: &OpSet, cands: &[Candidate], limit: usize, hard_limit: bool) -> Choice {
    let mut covered = ProbeSet::default();
    let mut cover = greedy_cover(cands, &HashSet::new(), &mut covered);
    let universe = covered.len();
    let cover_len = cover.len();
    let mut left_out = 0;
    if hard_limit && cover.len() > limit {
        cover.truncate(limit);
        let mut kept = ProbeSet::default();
        for &i in &cover {
            if let Some(ids) = &cands[i].cov {
                kept.extend(ids);
            }
        }
        left_out = universe - kept.len();
    }
    let taken: HashSet<usize> = cover.iter().copied().collect();
    let room = limit.saturating_sub(cover.len());
    let fill = diverse_fill(ops, cands, &taken, room);
    let mut chosen = cover;
    chosen.extend(fill);
    chosen.sort_by_key(|&i| cands[i].id);
    Choice {
        chosen,
        cover: cover_len,
        left_out,
        universe,
    }
}
