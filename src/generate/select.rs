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
//! 2. **Lean extras** (the default). Only tests that add something a regression suite needs
//!    besides coverage: the shortest test per distinct exception (class + throwing operation)
//!    the cover lacks, and tests that may show a distinct value on a path (final operation
//!    and the branches it took in its own method): per path, a few candidates are observed
//!    and one is written only when what it asserts after its final call is not yet asserted
//!    on that path
//!    (`finish::regression_tests` decides after observing, see [`VALUES_PER_PATH`]).
//!    Why: a fill to a count wrote 766 tests where 45 kept the coverage; nobody reviews that.
//! 3. **Fill** (`--fill`, the behaviour before lean suites). Up to the output limit, the most
//!    diverse of the rest: round robin over the classes under test (the one with the fewest
//!    chosen tests first), within a class over the final operation (fewest first), so that a
//!    cheap value class does not crowd out the others.
//!
//! Everything is deterministic: candidates come in generation order and every tie is broken
//! by length, then id.

use super::ops::OpSet;
use super::random::{CandEnding, Candidate};
use crate::sequence::{Sequence, Stmt};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet};
use std::hash::Hasher;
use std::time::Instant;

/// A regression test read back from the earlier run's files (`emit::stored`).
#[derive(Clone, Debug)]
pub struct EarlierTest {
    pub seq: Sequence,
    /// The exception the test expects its last statement to throw.
    pub exception: Option<String>,
}

/// How the regression tests are chosen.
pub struct Selecting<'e> {
    /// `--output-limit`.
    pub limit: usize,
    /// The user set the limit (the cover is cut to it, with `left_out` counted).
    pub hard_limit: bool,
    /// `--fill`: fill to the limit instead of the lean extras.
    pub fill: bool,
    /// Tests of the earlier run, preferred to new ones (see [`choose`]).
    pub earlier: &'e [EarlierTest],
    /// End of the optional work (replacements).
    pub deadline: Option<Instant>,
    /// With `--project`: the probes the project's own suite covers. The suite then only
    /// adds to it: the cover starts from these probes, and the lean extras (an exception, a
    /// value) come only from candidates that reach a probe the own suite does not.
    pub baseline: Option<&'e ProbeSet>,
    /// This run generated what the earlier run did (the same options, as many sequences):
    /// the earlier tests generated again are chosen as a first run chooses (see
    /// `finish::regenerated`).
    pub same_generation: bool,
}

impl Selecting<'_> {
    /// The probes covered before any test is chosen: the own suite's, or none.
    pub fn covered_before(&self) -> ProbeSet {
        self.baseline.cloned().unwrap_or_default()
    }

    /// Whether candidate `c` may be a lean extra: it reaches a probe the own suite does not
    /// (always, without an own suite).
    pub fn adds_to_baseline(&self, c: &Candidate) -> bool {
        self.baseline.is_none_or(|b| reaches_outside(c, b))
    }
}

/// Whether candidate `c` reached a probe outside `set`.
fn reaches_outside(c: &Candidate, set: &ProbeSet) -> bool {
    c.cov
        .as_ref()
        .is_some_and(|ids| ids.iter().any(|&i| !set.contains(i)))
}

/// Lean suites: distinct values asserted per path (final operation and the branches it took
/// in its own method, see [`paths`]), the covering tests' included. A value is what the
/// test asserts after its final call (the call's result and the observers of the result and
/// of the receiver): one value per path lets arithmetic and constant mutants survive that a
/// few more catch (`x + 1` and `x * 2` agree on 1). Measured with PIT against the
/// 1,000-test fill (BENCHMARKS.md, "Lean suites"): 6 values lost 2.2 points on Fraction,
/// 10 lost 1.6 on IntMath, 16 lose at most 0.8 (Fraction 586 tests, IntMath 662).
pub const VALUES_PER_PATH: usize = 16;

/// Lean suites: candidates observed per path to find its values.
const TRIES_PER_PATH: usize = 32;

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

pub fn last_op(c: &Candidate) -> u32 {
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

/// The path of a candidate for lean suites: its final operation and a hash of the probes
/// it hit in that operation's own method (`method_probes`: the id ranges of the method, if
/// measured, or of the receiver's methods an inherited one calls). Not all its probes:
/// those are the whole sequence's, and nearly every candidate would have a path of its own.
pub type Path = (u32, u64);

/// The path of every candidate (see [`Path`]); `method_probes(op)` is the probe id ranges
/// of the methods an operation's path is read in (none when nothing of it is measured).
pub fn paths(cands: &[Candidate], method_probes: &dyn Fn(u32) -> Vec<(u32, u32)>) -> Vec<Path> {
    cands
        .iter()
        .map(|c| {
            let op = last_op(c);
            let ids = c.cov.as_deref().unwrap_or(&[]);
            (op, path_hash(ids, &method_probes(op)))
        })
        .collect()
}

/// The hash of the probes among `ids` that fall in `ranges` (a [`Path`]'s second half).
pub fn path_hash(ids: &[u32], ranges: &[(u32, u32)]) -> u64 {
    let mut h = twox_hash::XxHash64::with_seed(0x6a66);
    for &(lo, hi) in ranges {
        for id in ids.iter().filter(|&&i| i >= lo && i < hi) {
            h.write_u32(*id);
        }
    }
    h.finish()
}

/// What [`lean_extras`] adds to the cover.
#[derive(Debug, Default)]
pub struct LeanExtras {
    /// The shortest candidate of each (exception class, final operation) the cover lacks.
    pub exceptions: Vec<usize>,
    /// Candidates to observe for a second value on their path; each is written only when
    /// its value is new (decided after observing).
    pub tentative: Vec<usize>,
}

/// Lean suites: besides `taken` (the `cover` and the candidates that may not be extras), at
/// most `room` candidates that may add a distinct exception or a distinct value of a final
/// operation (only candidates that call a class under test; the earlier run's, before
/// `first_new`, first). The exceptions and paths of the cover count as had already; so do
/// those of `within` (with an own suite, the candidates that reach nothing it does not), but
/// only for the new candidates: an earlier test that still adds to the own suite keeps its
/// place unless the cover has its exception. Why: a re-run generates other sequences, and
/// one within the own suite that threw the same exception took the place of the earlier
/// test (Commons DbUtils: a re-run dropped 45 of 185 earlier tests that way, a quarter of
/// the lines).
pub fn lean_extras(
    ops: &OpSet,
    cands: &[Candidate],
    paths: &[Path],
    (taken, cover, within): (&HashSet<usize>, &[usize], &[usize]),
    room: usize,
    first_new: usize,
) -> LeanExtras {
    let mut exceptions: HashSet<(&str, u32)> = HashSet::new();
    let mut tries: HashMap<Path, usize> = HashMap::new();
    for &i in cover {
        let c = &cands[i];
        match &c.ending {
            CandEnding::Exception(cls) => {
                exceptions.insert((cls.as_str(), last_op(c)));
            }
            CandEnding::Normal => *tries.entry(paths[i]).or_default() += 1,
        }
    }
    let mut within_exceptions = exceptions.clone();
    for &i in within {
        if let CandEnding::Exception(cls) = &cands[i].ending {
            within_exceptions.insert((cls.as_str(), last_op(&cands[i])));
        }
    }
    let mut order: Vec<usize> = (0..cands.len())
        .filter(|i| !taken.contains(i) && owner(ops, &cands[*i]).is_some())
        .collect();
    let mut out = LeanExtras::default();
    // exceptions: the shortest test of each
    order.sort_by_key(|&i| (i >= first_new, cands[i].comp.seq.len(), cands[i].id));
    for &i in &order {
        let c = &cands[i];
        if let CandEnding::Exception(cls) = &c.ending
            && out.exceptions.len() < room
        {
            let key = (cls.as_str(), last_op(c));
            let had = if i < first_new {
                exceptions.contains(&key)
            } else {
                within_exceptions.contains(&key)
            };
            if !had {
                exceptions.insert(key);
                within_exceptions.insert(key);
                out.exceptions.push(i);
            }
        }
    }
    // values: in generation order, not shortest first (the shortest sequences call with
    // the same few literals; PIT kills more with the values generation went on to try)
    order.sort_by_key(|&i| (i >= first_new, cands[i].id));
    let mut within_tries: HashMap<Path, usize> = HashMap::new();
    for &i in within {
        if cands[i].ending == CandEnding::Normal {
            *within_tries.entry(paths[i]).or_default() += 1;
        }
    }
    // A re-run looks for new values only on paths no earlier test is on: the earlier tests
    // are that path's values already, and a longer or luckier re-run found more of them on
    // every path (commons-lang3, 60 s: a re-run kept 815 of 819 earlier tests and added 56
    // more, 7% of the lines, mostly values on paths the suite had). New coverage and new
    // exceptions are still added.
    let earlier_paths: HashSet<Path> = (0..first_new.min(cands.len()))
        .filter(|&i| cands[i].ending == CandEnding::Normal)
        .map(|i| paths[i])
        .collect();
    let mut within_counted = false;
    for i in order {
        if out.exceptions.len() + out.tentative.len() >= room {
            break;
        }
        if i >= first_new && earlier_paths.contains(&paths[i]) {
            continue;
        }
        if i >= first_new && !within_counted {
            // The new candidates' looks count those within the own suite too.
            within_counted = true;
            for (p, n) in within_tries.drain() {
                *tries.entry(p).or_default() += n;
            }
        }
        if cands[i].ending == CandEnding::Normal {
            // Each path gets TRIES_PER_PATH looks for its values, the covering tests on it
            // counting as looks.
            let n = tries.entry(paths[i]).or_default();
            if *n <= TRIES_PER_PATH {
                *n += 1;
                out.tentative.push(i);
            }
        }
    }
    out
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
    /// Indices into the candidates, in generation order: written when they observe stably.
    pub chosen: Vec<usize>,
    /// Lean suites: observed too, written only when they show a new value on their path.
    pub tentative: Vec<usize>,
    /// Lean suites: tests chosen for an exception the cover lacked.
    pub exceptions: usize,
    /// How many tests the whole cover needed (before a cut at a hard limit).
    pub cover: usize,
    /// Probes covered by some candidate but by none of the chosen (the cover was cut at an
    /// explicit `--output-limit`).
    pub left_out: usize,
    /// Probes covered by the candidates together (beyond the own suite's, with one).
    pub universe: usize,
    /// With an own suite: candidates that reach nothing it does not (never written).
    pub within_own_suite: usize,
}

/// Cover, then the lean extras (or with `--fill` the diverse fill) up to the limit. When
/// the cover alone needs more than the limit it is written whole unless `hard_limit` (the
/// user set the limit), in which case it is cut and `left_out` says how much coverage that
/// lost. The candidates before `first_new` are the earlier run's tests: the cover takes
/// from them first (the new ones only cover what they miss) and so do the extras, so a
/// re-run keeps every earlier test that still adds something.
pub fn choose(
    ops: &OpSet,
    cands: &[Candidate],
    paths: &[Path],
    how: &Selecting,
    first_new: usize,
) -> Choice {
    let (limit, hard_limit) = (how.limit, how.hard_limit);
    let mut covered = how.covered_before();
    let before = covered.len();
    let new: HashSet<usize> = (first_new..cands.len()).collect();
    let mut cover = greedy_cover(cands, &new, &mut covered);
    let old: HashSet<usize> = (0..first_new).collect();
    cover.extend(greedy_cover(cands, &old, &mut covered));
    let universe = covered.len() - before;
    let cover_len = cover.len();
    let mut left_out = 0;
    if hard_limit && cover.len() > limit {
        cover.truncate(limit);
        let mut kept = how.covered_before();
        for &i in &cover {
            if let Some(ids) = &cands[i].cov {
                kept.extend(ids);
            }
        }
        left_out = universe - (kept.len() - before);
    }
    // Lean extras only from candidates that add to the own suite (all without one). On a
    // re-run into a project, the earlier tests count as its own too for the new candidates:
    // a new extra must reach a probe neither the own suite nor the earlier tests reach, so
    // an unchanged project's suite stays as it was (a 20 s re-run into Commons CSV added 635
    // lines of extras on probes the earlier tests already held).
    let mut with_earlier = how.covered_before();
    if how.baseline.is_some() {
        for c in &cands[..first_new] {
            if let Some(ids) = &c.cov {
                with_earlier.extend(ids);
            }
        }
    }
    let adds = |i: usize| match how.baseline {
        None => true,
        Some(_) if i < first_new => how.adds_to_baseline(&cands[i]),
        Some(_) => reaches_outside(&cands[i], &with_earlier),
    };
    let within: Vec<usize> = (0..cands.len()).filter(|&i| !adds(i)).collect();
    let not_extras = within.len();
    let mut taken: HashSet<usize> = within.iter().copied().collect();
    taken.extend(cover.iter().copied());
    let room = limit.saturating_sub(cover.len());
    let mut chosen = cover;
    let mut tentative = Vec::new();
    let mut exceptions = 0;
    if how.fill {
        chosen.extend(diverse_fill(ops, cands, &taken, room));
    } else {
        let lean = lean_extras(
            ops,
            cands,
            paths,
            (&taken, &chosen, &within),
            room,
            first_new,
        );
        exceptions = lean.exceptions.len();
        chosen.extend(lean.exceptions);
        tentative = lean.tentative;
    }
    chosen.sort_by_key(|&i| cands[i].id);
    Choice {
        chosen,
        tentative,
        exceptions,
        cover: cover_len,
        left_out,
        universe,
        within_own_suite: if how.baseline.is_some() {
            not_extras
        } else {
            0
        },
    }
}

#[cfg(test)]
mod tests {
    use super::path_hash;

    #[test]
    fn a_path_is_the_probes_in_its_ranges_only() {
        // an inherited read(byte[]): its path is read in the receiver's read(..) methods,
        // probes 10..14 and 20..22; probe 3 (a constructor) is the sequence's, not the path's
        let ranges = [(10, 14), (20, 22)];
        let decoding = path_hash(&[3, 10, 11, 20], &ranges);
        assert_eq!(decoding, path_hash(&[10, 11, 20], &ranges));
        assert_eq!(decoding, path_hash(&[1, 2, 10, 11, 20, 30], &ranges));
        let encoding = path_hash(&[3, 10, 12, 20], &ranges);
        assert_ne!(decoding, encoding);
        // no range: every call of the operation is one path
        assert_eq!(path_hash(&[10, 11], &[]), path_hash(&[12], &[]));
    }
}
