//! From candidates to test cases.
//!
//! Regression candidates are executed again in `Observe` mode (return values and observer
//! methods recorded), then a second time in a different worker JVM; only values equal in both
//! runs become assertions, so identity hash codes, addresses, times and random numbers never
//! reach a test. Error candidates are reduced by removing every statement not needed to
//! reproduce the same violation (seed 003, §6.1 phase 1), confirmed in another JVM, and kept
//! one per defect (`random::DefectKey`).

use super::ops::{OpSet, SINK_TYPES};
use super::random::{CandEnding, Candidate, ErrorCandidate, Generator, Violation};
use super::select;
pub use super::select::{EarlierTest, Selecting};
use crate::contracts::null_input;
use crate::emit::{Defect, Ending, TestCase};
use crate::runner::{Blame, ExecMode, ExecRequest, Frame, Pool, SeqResult, StmtOutcome};
use crate::sequence::{OpId, OpKind, Sequence, Stmt, Value};
use crate::suite::{Expect, ObserveItem, ObserveStats};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Instant;

/// Observer calls per value.
const MAX_OBSERVERS: usize = 12;

#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct FinishStats {
    /// Regression candidates whose outcome differed between two JVMs (dropped).
    pub unstable_tests: usize,
    /// Assertions dropped because the value differed between two JVMs or looked like an
    /// identity hash (those that read the clock not included).
    pub unstable_assertions: usize,
    /// Assertions dropped because the value differed between two JVMs and the sequence read
    /// the clock (which jforge shifts in the second JVM).
    pub clock_assertions: usize,
    /// Error candidates that did not reproduce in a second JVM (dropped).
    pub unreproducible_errors: usize,
    /// Tests written without the assertions of an observer stopped at its limit (a getter
    /// that loops) and of the observers after it.
    pub stopped_observers: usize,
    /// Statements removed by minimizing error tests.
    pub minimized_statements: usize,
    /// How the written regression tests were chosen.
    pub selection: SelectionStats,
    /// Minimizing error tests was stopped by the time budget (they are longer than needed).
    pub minimization_cut: bool,
    /// Replacements for dropped covering tests were skipped for the time budget.
    pub replacements_cut: bool,
    /// What became of the earlier run's tests in selection.
    pub earlier: EarlierStats,
}

/// How the regression tests were chosen from the candidates (see [`super::select`]).
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct SelectionStats {
    /// Candidates the run kept (all that reached new coverage, a sample of the others).
    pub candidates: usize,
    /// Probes (line and branch edges) the candidates covered together.
    pub probes: usize,
    /// Tests the greedy cover of those probes needed.
    pub cover: usize,
    /// Probes left out because the cover was cut at `--output-limit`.
    pub left_out: usize,
    /// Tests chosen to replace covering tests dropped as unstable.
    pub replacements: usize,
    /// Lean suites: tests written for an exception (class, throwing operation) the cover
    /// lacked.
    pub exception_tests: usize,
    /// Lean suites: tests written for another value of a final operation (or its first test).
    pub value_tests: usize,
    /// With `--project`: candidates that reach nothing the project's own suite does not
    /// (never written).
    pub within_own_suite: usize,
    /// Branch and line probes the candidates (legal sequences) covered; the run's figure
    /// also counts sequences that crashed, timed out or broke a contract.
    pub legal_branches: u32,
    pub legal_lines: u32,
    /// Branch and line probes the chosen tests covered when they were generated.
    pub chosen_branches: u32,
    pub chosen_lines: u32,
}

impl FinishStats {
    /// Adds another finishing's figures (`gen --per-class`: one finishing per class, one
    /// report).
    pub fn absorb(&mut self, o: &FinishStats) {
        self.unstable_tests += o.unstable_tests;
        self.unstable_assertions += o.unstable_assertions;
        self.clock_assertions += o.clock_assertions;
        self.unreproducible_errors += o.unreproducible_errors;
        self.stopped_observers += o.stopped_observers;
        self.minimized_statements += o.minimized_statements;
        self.minimization_cut |= o.minimization_cut;
        self.replacements_cut |= o.replacements_cut;
        let (s, t) = (&mut self.selection, &o.selection);
        s.candidates += t.candidates;
        s.probes += t.probes;
        s.cover += t.cover;
        s.left_out += t.left_out;
        s.replacements += t.replacements;
        s.exception_tests += t.exception_tests;
        s.value_tests += t.value_tests;
        s.within_own_suite += t.within_own_suite;
        s.legal_branches += t.legal_branches;
        s.legal_lines += t.legal_lines;
        s.chosen_branches += t.chosen_branches;
        s.chosen_lines += t.chosen_lines;
        self.earlier.read += o.earlier.read;
        self.earlier.changed += o.earlier.changed;
        self.earlier.chosen += o.earlier.chosen;
        self.earlier.regenerated |= o.earlier.regenerated;
    }
}

/// An error-revealing test and what it shows.
#[derive(Clone, Debug)]
pub struct ErrorTest {
    pub case: TestCase,
    pub op: OpId,
    pub contract: &'static str,
    /// How many generated sequences showed this kind of violation.
    pub occurrences: u64,
    /// Through how many operations it showed (`ErrorCandidate::routes`).
    pub routes: usize,
    /// For an object contract: the class whose contract breaks.
    pub class: Option<Arc<str>>,
    /// The frame of the code that broke the contract (the class and method the summary and
    /// the test's comment name), from the confirming run; `None` when the worker gave none.
    pub culprit: Option<Frame>,
}

/// The frame whose code broke the contract and the class under test the defect belongs to:
/// for an object contract, the value's class (else the culprit's, when that one is under
/// test); for an exception, the class under test whose method threw (the top frame in a
/// class under test), so that the summary, the table and the file name agree.
fn culprit_and_owner(
    ops: &OpSet,
    e: &ErrorCandidate,
    v: &Violation,
    blame: &Blame,
) -> (Option<Frame>, Option<String>) {
    let under_test = |c: &str| ops.instantiations.contains_key(c);
    let culprit = match v {
        Violation::Contract { .. } => blame.object_culprit(),
        Violation::Exception { .. } => blame.thrown_culprit(&under_test),
    }
    .cloned();
    let owner = match v {
        Violation::Contract { .. } => e.class.as_deref().filter(|c| under_test(c)),
        Violation::Exception { .. } => None,
    }
    .or_else(|| {
        culprit
            .as_ref()
            .map(|f| &*f.class)
            .filter(|c| under_test(c))
    })
    .map(str::to_string);
    (culprit, owner)
}

/// The observers asserted on the value statement `stmt` returned (at most
/// [`MAX_OBSERVERS`], in name order). On the receiver of the last call (`receiver`), those
/// that read a field the calls on it write (`instrument::fields`, read from
/// the bytecode) come first, then the others: `setZone(z)` is checked by `getZone()` even
/// when twelve getters come before it by name (issue 33, item 4). Why the others stay
/// (up to the cap): a getter the call should not change pins that it did not (a regression
/// that writes the wrong field), and observers' own code is covered by the suite (keeping
/// only the related ones cost java.util.TreeMap 6 branches of the corpus).
fn observer_calls(
    ops: &OpSet,
    seq: &Sequence,
    stmt: u32,
    receiver: bool,
    hung: &dyn Fn(OpId) -> bool,
) -> Vec<(u32, OpId)> {
    let ty = match &seq.stmts[stmt as usize] {
        Stmt::Call { op, .. } => ops.table.get(*op).ret.clone(),
        _ => None,
    };
    let Some(ty) = ty else { return Vec::new() };
    let Some(all) = ops.observers.get(&ty) else {
        return Vec::new();
    };
    let mut chosen: Vec<OpId> = all
        .iter()
        .copied()
        .filter(|&o| ops.observable(seq, o) && !hung(o))
        .collect();
    if receiver {
        let written = writes_on(ops, seq, stmt);
        // stable: each group keeps name order
        chosen.sort_by_key(|o| !ops.field_use.get(o).is_some_and(|u| u.reads_what(&written)));
    }
    chosen
        .into_iter()
        .take(MAX_OBSERVERS)
        .map(|o| (stmt, o))
        .collect()
}

/// The fields the calls on the value of statement `recv` write (as far as the bytecode
/// says): a test ending in a getter after `setZone(z)` is about what `setZone` wrote.
fn writes_on(ops: &OpSet, seq: &Sequence, recv: u32) -> std::collections::BTreeSet<String> {
    let mut all = std::collections::BTreeSet::new();
    for st in &seq.stmts {
        if let Stmt::Call { op, args } = st
            && ops.table.get(*op).has_receiver()
            && args.first() == Some(&recv)
            && let Some(u) = ops.field_use.get(op)
        {
            all.extend(u.writes.iter().cloned());
        }
    }
    all
}

/// The sinks ([`OpSet::sinks`]) the sequence's calls were given where they take one (not as
/// receivers, which the parameters do not include): what the calls wrote into them is
/// observed after the last. Every call's, not only the last's: a printer made over a
/// `StringWriter` writes into it at each later call (`new CSVPrinter(writer, format)` then
/// `printer.println()`, which appended "null" for a format without a record separator,
/// Defects4J Csv-5; the writer was never looked at).
fn sinks_written(seq: &Sequence, ops: &OpSet) -> Vec<u32> {
    let mut out: Vec<u32> = Vec::new();
    for st in &seq.stmts {
        let Stmt::Call { op, args } = st else {
            continue;
        };
        let call = ops.table.get(*op);
        let skip = usize::from(call.has_receiver());
        for (&a, param) in args.iter().skip(skip).zip(&call.params) {
            // taken as a sink (`Writer out`), not as an input that happens to be one
            // (`CharSequence in` given a StringBuilder)
            let takes_sink = param.class_name().is_some_and(|n| SINK_TYPES.contains(&n))
                || ops.sinks.contains(param);
            let sink = takes_sink
                && match seq.stmts.get(a as usize) {
                    Some(Stmt::Call { op, .. }) => ops
                        .table
                        .get(*op)
                        .ret
                        .as_ref()
                        .is_some_and(|t| ops.sinks.contains(t)),
                    _ => false,
                };
            if sink && !out.contains(&a) {
                out.push(a);
            }
        }
    }
    out
}

/// The calls before the last whose value no later statement uses (not the last call's
/// receiver): their observers are asserted at the end, so a statement kept for what it
/// covers also pins what it returned (`List<String> list0 = options0.getMatchingOptions(..)`
/// was written and never looked at; issue 33, item 4: every statement matters).
fn unused_values(seq: &Sequence, receiver: Option<u32>) -> Vec<u32> {
    let n = seq.stmts.len();
    let mut used = vec![false; n];
    for st in &seq.stmts {
        for &a in st.inputs() {
            if let Some(u) = used.get_mut(a as usize) {
                *u = true;
            }
        }
    }
    (0..n.saturating_sub(1))
        .filter(|&i| !used[i] && Some(i as u32) != receiver)
        .filter(|&i| matches!(seq.stmts[i], Stmt::Call { .. }))
        .map(|i| i as u32)
        .collect()
}

fn receiver_of_last(seq: &Sequence, ops: &OpSet) -> Option<u32> {
    match seq.stmts.last()? {
        Stmt::Call { op, args } if ops.table.get(*op).has_receiver() => args.first().copied(),
        _ => None,
    }
}

/// What became of the earlier run's tests in selection (the final check may still drop
/// some; the command counts what was written).
#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct EarlierStats {
    /// Tests read back (with a sequence this run's operations can express).
    pub read: usize,
    /// Tests that no longer end the way they did (normally, or with their exception).
    pub changed: usize,
    /// Tests chosen again (they still add coverage, an exception or a value).
    pub chosen: usize,
    /// Every earlier test was generated again, so the tests were chosen as a first run
    /// chooses them (an unchanged class gets its suite back as it was; `--per-class`: in at
    /// least one class).
    pub regenerated: bool,
}

/// Build the regression tests: run the earlier run's tests again (those that still end the
/// same way become the first candidates), choose candidates that keep the run's coverage
/// ([`super::select`]), observe them in two JVMs, and when a chosen test is dropped as
/// unstable, choose replacements for the probes only it covered (twice at most).
pub fn regression_tests(
    generator: &Generator,
    pool: &mut Pool,
    how: &Selecting,
    stats: &mut FinishStats,
) -> anyhow::Result<Vec<TestCase>> {
    let ops = generator.ops;
    let earlier = earlier_candidates(pool, how.earlier, stats)?;
    // readable tests: collapse unused repetitions first (simplify.rs), so that the cover is
    // chosen over the sequences that will be written
    let noisy = |id: u32| generator.is_jdk_probe(id);
    let is_equals = |op: OpId| ops.table.get(op).is_equals();
    let is_identity = |op: OpId| ops.table.get(op).class == "java.lang.Object";
    let new = super::simplify::collapse_candidates(
        generator.final_candidates(),
        pool,
        &noisy,
        &is_equals,
        &is_identity,
    )?;
    let seen: HashSet<u128> = earlier.iter().map(|c| c.comp.seq.fingerprint()).collect();
    stats.earlier.regenerated = how.same_generation && regenerated(&seen, &new, stats);
    let mut cands = if stats.earlier.regenerated {
        Vec::new()
    } else {
        with_generated_coverage(earlier, &new)
    };
    let first_new = cands.len();
    // A replay (`GenConfig::replayed`: the same options on the same code) keeps the earlier
    // suite, its only candidates the earlier tests. Why: a replay cut short by the time
    // limit generates a prefix of the earlier run, whose looks for values went to paths the
    // earlier run had no room left for (TreeMap, 5 s: +62 tests), and one that timing made
    // diverge (a call cut at the limit, a worker restart) added tests of what it happened to
    // reach (commons-lang3, 60 s: +67 and +109). Otherwise a sequence generated again is
    // the earlier test.
    let replay_only = generator.cfg.replayed && first_new > 0;
    let new = new
        .into_iter()
        .filter(|c| !replay_only && (first_new == 0 || !seen.contains(&c.comp.seq.fingerprint())));
    cands.extend(new.map(|mut c| {
        c.id += first_new as u64;
        c
    }));
    if cands.is_empty() {
        return Ok(Vec::new());
    }
    let paths = select::paths(&cands, &|op| generator.path_ranges_of(op));
    let choice = select::choose(ops, &cands, &paths, how, first_new);
    stats.selection.candidates = cands.len();
    stats.selection.exception_tests = choice.exceptions;
    stats.selection.cover = choice.cover;
    stats.selection.probes = choice.universe;
    stats.selection.left_out = choice.left_out;
    if let Some(g) = &generator.cov {
        selection_coverage(g, &cands, &choice, &mut stats.selection);
    }
    stats.selection.within_own_suite = choice.within_own_suite;
    let kept = observe_chosen(generator, pool, &cands, &paths, &choice, how, stats)?;
    stats.earlier.chosen = kept
        .iter()
        .filter(|(i, _)| seen.contains(&cands[*i].comp.seq.fingerprint()))
        .count();
    Ok(kept.into_iter().map(|(_, t)| t).collect())
}

/// The earlier tests, each generated again taking the coverage it had in generation. Why:
/// run again on its own after generation, an earlier test covered other probes in 10 of 743
/// TreeMap tests (state the JVM had or had not built lazily), and the cover then added new
/// candidates for probes the earlier suite did hold.
fn with_generated_coverage(mut earlier: Vec<Candidate>, new: &[Candidate]) -> Vec<Candidate> {
    let generated: HashMap<u128, &Candidate> =
        new.iter().map(|c| (c.comp.seq.fingerprint(), c)).collect();
    for e in &mut earlier {
        if let Some(g) = generated.get(&e.comp.seq.fingerprint())
            && g.ending == e.ending
            && g.cov.is_some()
        {
            e.cov = g.cov.clone();
        }
    }
    earlier
}

/// Whether this run, which made the earlier run's sequences (`Selecting::same_generation`),
/// generated every earlier test again (`seen`: their fingerprints), each still ending as it
/// did: then the selection runs as a first run's, over this run's candidates alone, and
/// chooses what the earlier run chose. Why: an earlier test re-run on its own can cover
/// other probes than when it was generated (lazy state of the JVM), and the earlier tests
/// steered the cover and the looks for values away from the choice the same candidates had
/// made: a re-run of `TreeMap --generated-limit 82373` into its own suite, every sequence
/// the same, added 35 tests and changed 771 of 12,061 lines. Otherwise (another budget, a
/// changed class) the earlier tests come first ([`select::choose`]): a run that got further
/// would choose another cover of its own.
fn regenerated(seen: &HashSet<u128>, new: &[Candidate], stats: &FinishStats) -> bool {
    if seen.is_empty() || stats.earlier.changed > 0 || seen.len() < stats.earlier.read {
        return false;
    }
    let generated: HashSet<u128> = new.iter().map(|c| c.comp.seq.fingerprint()).collect();
    seen.is_subset(&generated)
}

/// The earlier run's tests as candidates (ids 0..): executed again for their coverage; those
/// that no longer end as they did are counted and left out.
fn earlier_candidates(
    pool: &mut Pool,
    earlier: &[EarlierTest],
    stats: &mut FinishStats,
) -> anyhow::Result<Vec<Candidate>> {
    stats.earlier.read = earlier.len();
    if earlier.is_empty() {
        return Ok(Vec::new());
    }
    let reqs = earlier
        .iter()
        .map(|e| ExecRequest {
            seq: Arc::new(e.seq.clone()),
            mode: ExecMode::Generate,
            contract_values: Vec::new(),
            observers: Vec::new(),
            reuse: None,
        })
        .collect();
    let results = pool.execute(reqs)?;
    let mut out = Vec::with_capacity(earlier.len());
    for (e, r) in earlier.iter().zip(results) {
        let n = r.outcomes.len();
        let ending = match (r.first_abnormal(), &e.exception) {
            (None, None) => Some(CandEnding::Normal),
            (Some(k), Some(x)) if k + 1 == n => match &r.outcomes[k] {
                StmtOutcome::Exception { public_class, .. } if public_class.as_ref() == x => {
                    Some(CandEnding::Exception(x.clone()))
                }
                _ => None,
            },
            _ => None,
        };
        let Some(ending) = ending else {
            stats.earlier.changed += 1;
            continue;
        };
        let seq = Arc::new(e.seq.clone());
        let has_null = seq.stmts.iter().any(|s| {
            matches!(
                s,
                Stmt::Lit {
                    value: Value::Null,
                    ..
                }
            )
        });
        out.push(Candidate {
            id: out.len() as u64,
            comp: Arc::new(super::random::Component {
                tids: vec![None; seq.len()],
                seq,
                has_null,
                cand: None,
            }),
            ending,
            cov: r.coverage.clone(),
        });
    }
    Ok(out)
}

/// Branches and lines the candidates (legal sequences) and the chosen ones covered.
fn selection_coverage(
    g: &super::random::CovGuide,
    cands: &[Candidate],
    choice: &select::Choice,
    sel: &mut SelectionStats,
) {
    let total = g.tracker.hit.len() as u32;
    let mut legal = crate::coverage::Tracker::new(&g.maps, total);
    let mut chosen = crate::coverage::Tracker::new(&g.maps, total);
    for c in cands {
        if let Some(ids) = &c.cov {
            legal.add(ids);
            if choice
                .chosen
                .binary_search_by_key(&c.id, |&k| cands[k].id)
                .is_ok()
            {
                chosen.add(ids);
            }
        }
    }
    sel.legal_branches = legal.covered_branches;
    sel.legal_lines = legal.covered_lines;
    sel.chosen_branches = chosen.covered_branches;
    sel.chosen_lines = chosen.covered_lines;
}

/// Observes the chosen and tentative candidates, keeps the tentative ones that show a new
/// value, and replaces covering tests dropped as unstable (twice at most, until
/// `deadline`). (candidate index, test) in candidate order.
fn observe_chosen(
    generator: &Generator,
    pool: &mut Pool,
    cands: &[Candidate],
    paths: &[select::Path],
    choice: &select::Choice,
    how: &Selecting,
    stats: &mut FinishStats,
) -> anyhow::Result<Vec<(usize, TestCase)>> {
    let deadline = how.deadline;
    let mut tried: HashSet<usize> = choice.chosen.iter().copied().collect();
    let all: Vec<usize> = choice
        .chosen
        .iter()
        .chain(&choice.tentative)
        .copied()
        .collect();
    let mut kept = observe(generator, pool, cands, &all, stats)?;
    let stable_chosen = kept.iter().filter(|(i, _)| tried.contains(i)).count();
    let idle = |op: OpId| {
        let op = generator.ops.table.get(op);
        op.kind == OpKind::StaticFieldGet || op.is_equals() || op.is_hash_code() || op.is_ordinal()
    };
    let counted = |op: OpId| !generator.ops.reading_observers.contains(&op);
    kept = new_values(paths, kept, &tried, &idle, &counted);
    stats.selection.value_tests = kept.iter().filter(|(i, _)| !tried.contains(i)).count();
    tried.extend(choice.tentative.iter().copied());
    let mut dropped = stable_chosen < choice.chosen.len();
    for _ in 0..2 {
        if !dropped || choice.universe == 0 {
            break;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            stats.replacements_cut = true;
            break;
        }
        let mut covered = how.covered_before();
        for (i, _) in &kept {
            if let Some(ids) = &cands[*i].cov {
                covered.extend(ids);
            }
        }
        let extra = select::greedy_cover(cands, &tried, &mut covered);
        if extra.is_empty() {
            break;
        }
        stats.selection.replacements += extra.len();
        tried.extend(extra.iter().copied());
        let more = observe(generator, pool, cands, &extra, stats)?;
        dropped = more.len() < extra.len();
        kept.extend(more);
    }
    kept.sort_by_key(|(i, _)| cands[*i].id);
    Ok(kept)
}

/// The result asserted after a test's final call and its observers (statement, observer,
/// value).
type Asserted = (Option<Value>, Vec<(u32, OpId, Value)>);

/// What a regression test asserts after its final call: the call's result and every
/// observer (of the result and of the receiver); `None` when nothing is asserted.
/// Only the observers of the last call's result and of its inputs (receiver, sinks) count:
/// those of values earlier statements left unused ([`unused_values`]) say nothing of what
/// the final call did, and counting them made every test look new (CLI's Options and
/// DefaultParser: 251 -> 366 tests). Nor do the observers `counted` says no to (those by
/// what they do, [`OpSet::reading_observers`]): `total()` and `count()` of a running total
/// tell every `add(x)` apart, and counting them made the lean suite of
/// tests/subjects/rerun almost as large as the full one (63 against 71 tests).
fn final_value(t: &TestCase, counted: &dyn Fn(OpId) -> bool) -> Option<Asserted> {
    let ret = t.asserts.last().cloned().flatten();
    let last = t.seq.stmts.len().saturating_sub(1) as u32;
    let inputs = t.seq.stmts.last().map(|s| s.inputs()).unwrap_or(&[]);
    let observers: Vec<_> = t
        .observers
        .iter()
        .filter(|(s, o, _)| (*s == last || inputs.contains(s)) && counted(*o))
        .cloned()
        .collect();
    (ret.is_some() || !observers.is_empty()).then_some((ret, observers))
}

/// Lean suites: the observed tests of `chosen` (all kept) and of the tentative rest (in
/// the order observed, kept when their path has no test yet, or has fewer than
/// [`select::VALUES_PER_PATH`] values and theirs is new). A tentative test that ends
/// normally, asserts nothing after its final call and whose final call is `idle` (a static
/// field read, `equals`, `hashCode`, `ordinal()`: values [`crate::suite::worth_asserting`]
/// leaves out, `x.equals(x)` first) is not kept: its last line says nothing, and the cover
/// did not need it for coverage.
fn new_values(
    paths_of: &[select::Path],
    observed: Vec<(usize, TestCase)>,
    chosen: &HashSet<usize>,
    idle: &dyn Fn(OpId) -> bool,
    counted: &dyn Fn(OpId) -> bool,
) -> Vec<(usize, TestCase)> {
    let mut values: HashMap<select::Path, HashSet<_>> = HashMap::new();
    let mut paths: HashSet<select::Path> = HashSet::new();
    for (i, t) in &observed {
        if chosen.contains(i) && t.ending == Ending::Normal {
            let path = paths_of[*i];
            paths.insert(path);
            if let Some(v) = final_value(t, counted) {
                values.entry(path).or_default().insert(v);
            }
        }
    }
    let mut out = Vec::with_capacity(observed.len());
    for (i, t) in observed {
        if chosen.contains(&i) {
            out.push((i, t));
            continue;
        }
        if t.ending == Ending::Normal
            && final_value(&t, counted).is_none()
            && matches!(t.seq.stmts.last(), Some(Stmt::Call { op, .. }) if idle(*op))
        {
            continue;
        }
        let path = paths_of[i];
        let seen = values.entry(path).or_default();
        let new_value = seen.len() < select::VALUES_PER_PATH
            && final_value(&t, counted).is_some_and(|v| seen.insert(v));
        if paths.insert(path) || new_value {
            out.push((i, t));
        }
    }
    out
}

/// Runs the chosen candidates through the shared suite stage ([`crate::suite::observe`]):
/// (candidate index, test) for those that ended the same way in two JVMs.
fn observe(
    generator: &Generator,
    pool: &mut Pool,
    all: &[Candidate],
    chosen: &[usize],
    stats: &mut FinishStats,
) -> anyhow::Result<Vec<(usize, TestCase)>> {
    let ops = generator.ops;
    // An observer excluded in generation after timeouts (`weekendNights()` looping over a
    // booking of a million days) is not asserted: every test on such a value would call
    // it, and where it times out in one JVM and not in the other the whole test is dropped
    // as unstable (bk.Booking, 20 s: 334 tests).
    let hung = |o: OpId| generator.stats.get(o as usize).is_some_and(|s| s.excluded);
    let items: Vec<ObserveItem> = chosen
        .iter()
        .map(|&i| {
            let c = &all[i];
            let seq = &c.comp.seq;
            let mut observers = Vec::new();
            if c.ending == CandEnding::Normal {
                let last = seq.len() as u32 - 1;
                observers.extend(observer_calls(ops, seq, last, false, &hung));
                let receiver = receiver_of_last(seq, ops);
                if let Some(r) = receiver {
                    observers.extend(observer_calls(ops, seq, r, true, &hung));
                }
                for a in sinks_written(seq, ops) {
                    if Some(a) != receiver {
                        observers.extend(observer_calls(ops, seq, a, false, &hung));
                    }
                }
                for i in unused_values(seq, receiver) {
                    observers.extend(observer_calls(ops, seq, i, false, &hung));
                }
            }
            ObserveItem {
                seq: seq.clone(),
                expect: match &c.ending {
                    CandEnding::Normal => Expect::Normal,
                    CandEnding::Exception(cls) => Expect::Exception(cls.clone()),
                },
                observers,
                contract_values: Vec::new(),
            }
        })
        .collect();
    let mut ostats = ObserveStats::default();
    let tests = crate::suite::observe(generator.model(), pool, &items, &mut ostats)?;
    stats.unstable_tests += ostats.unstable_tests;
    stats.unstable_assertions += ostats.unstable_assertions;
    stats.clock_assertions += ostats.clock_assertions;
    stats.stopped_observers += ostats.stopped_observers;
    Ok(chosen
        .iter()
        .zip(tests)
        .filter_map(|(&i, t)| t.map(|t| (i, t)))
        .collect())
}

fn contract_values(v: &Violation) -> Vec<u32> {
    match v {
        Violation::Exception { .. } => Vec::new(),
        Violation::Contract { a, b, .. } => {
            let mut cv = vec![*a];
            if let Some(b) = b {
                cv.push(*b);
            }
            cv
        }
    }
}

/// Does `r` show violation `v` again, by the class's own code (no input blamed)? Returns the
/// violation as reported this time and who broke it.
fn reproduced(seq: &Sequence, v: &Violation, r: &SeqResult) -> Option<(Violation, Blame)> {
    match v {
        Violation::Exception { contract, class } => {
            let n = r.outcomes.len();
            let blame = match &r.thrown {
                Some((s, b)) if *s as usize == n - 1 => b.clone(),
                _ => Blame::default(),
            };
            let ok = r.first_abnormal() == Some(n - 1)
                && matches!(&r.outcomes[n - 1], StmtOutcome::Exception { class: c, .. } if c.as_ref() == class)
                && (*contract != "npe-without-null-input" || !null_input(seq, r))
                && blame.cause.is_none();
            ok.then(|| (v.clone(), blame))
        }
        Violation::Contract { contract, a, b } => r
            .violations
            .iter()
            .find(|x| {
                x.contract == *contract && (x.a == *a || Some(x.a) == *b) && x.blame.cause.is_none()
            })
            .map(|x| {
                let v = Violation::Contract {
                    contract: x.contract,
                    a: x.a,
                    b: x.b,
                };
                (v, x.blame.clone())
            }),
    }
}

fn request(seq: &Sequence, v: &Violation) -> ExecRequest {
    ExecRequest {
        seq: Arc::new(seq.clone()),
        mode: ExecMode::Generate,
        contract_values: contract_values(v),
        observers: Vec::new(),
        reuse: None,
    }
}

fn shift(v: &Violation, removed: u32) -> Violation {
    let f = |x: u32| if x > removed { x - 1 } else { x };
    match v {
        Violation::Exception { .. } => v.clone(),
        Violation::Contract { contract, a, b } => Violation::Contract {
            contract: *contract,
            a: f(*a),
            b: b.map(f),
        },
    }
}

/// One error candidate being minimized: statements are tried for removal backwards, one at
/// a time (`next` is the next index to try).
struct Shrinking {
    seq: Sequence,
    v: Violation,
    next: usize,
}

impl Shrinking {
    /// The next removal to try: (index, smaller sequence, violation in it).
    fn step(&mut self) -> Option<(usize, Sequence, Violation)> {
        while self.next > 0 {
            self.next -= 1;
            let i = self.next;
            let protected = match &self.v {
                Violation::Exception { .. } => i == self.seq.len() - 1,
                Violation::Contract { a, b, .. } => i as u32 == *a || Some(i as u32) == *b,
            };
            if protected {
                continue;
            }
            if let Some(smaller) = self.seq.remove(i) {
                let v = shift(&self.v, i as u32);
                return Some((i, smaller, v));
            }
        }
        None
    }
}

/// Remove every statement not needed for each violation (backwards, one at a time). The
/// errors are minimized in lockstep, one batch per step holding one try of each, so the
/// cost is the longest sequence's steps, not the sum. Stops trying when `deadline` passes
/// (the sequences are then only partly minimized; `cut` says so).
fn minimize_all(
    pool: &mut Pool,
    items: &mut [Shrinking],
    deadline: Option<Instant>,
) -> anyhow::Result<bool> {
    loop {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Ok(items.iter().any(|s| s.next > 0));
        }
        let tries: Vec<(usize, Sequence, Violation)> = items
            .iter_mut()
            .enumerate()
            .filter_map(|(k, s)| s.step().map(|(_, seq, v)| (k, seq, v)))
            .collect();
        if tries.is_empty() {
            return Ok(false);
        }
        let reqs = tries.iter().map(|(_, seq, v)| request(seq, v)).collect();
        let results = pool.execute(reqs)?;
        for ((k, smaller, v2), r) in tries.into_iter().zip(&results) {
            if let Some((v3, _)) = reproduced(&smaller, &v2, r) {
                items[k].seq = smaller;
                items[k].v = v3;
            }
        }
    }
}

/// Build the error-revealing tests: one per defect, minimized and confirmed in two JVMs. Minimization stops at `deadline` (the tests are then written less short).
pub fn error_tests(
    generator: &Generator,
    pool: &mut Pool,
    stats: &mut FinishStats,
    deadline: Option<Instant>,
) -> anyhow::Result<Vec<ErrorTest>> {
    let errors: Vec<ErrorCandidate> = generator.errors.values().cloned().collect();
    if errors.is_empty() {
        return Ok(Vec::new());
    }
    let mut items: Vec<Shrinking> = errors
        .iter()
        .map(|e| Shrinking {
            seq: (*e.comp.seq).clone(),
            v: e.violation.clone(),
            // an earlier run's test stays as it was written
            next: if e.earlier { 0 } else { e.comp.seq.len() },
        })
        .collect();
    stats.minimization_cut = minimize_all(pool, &mut items, deadline)?;
    let reqs: Vec<ExecRequest> = items.iter().map(|s| request(&s.seq, &s.v)).collect();
    let first = pool.execute(reqs.clone())?;
    let again = pool.execute_elsewhere(
        reqs.into_iter()
            .zip(first.iter().map(|r| r.worker))
            .collect(),
    )?;
    let mut out = Vec::new();
    for (((e, s), r1), r2) in errors.iter().zip(items).zip(&first).zip(&again) {
        let (seq, v) = (s.seq, s.v);
        let (Some((_, blame)), Some(_)) = (reproduced(&seq, &v, r1), reproduced(&seq, &v, r2))
        else {
            stats.unreproducible_errors += 1;
            continue;
        };
        let (culprit, owner) = culprit_and_owner(generator.ops, e, &v, &blame);
        stats.minimized_statements += e.comp.seq.len() - seq.len();
        let ending = match &v {
            Violation::Exception { contract, class } => Ending::ErrorException {
                class: class.clone(),
                contract: contract.to_string(),
            },
            Violation::Contract { contract, a, b } => Ending::ErrorContract {
                contract: *contract,
                a: *a,
                b: *b,
            },
        };
        let n = seq.len();
        out.push(ErrorTest {
            case: TestCase {
                defect: Some(Defect {
                    broken_in: culprit.as_ref().map(Frame::describe),
                    owner,
                }),
                seq: Arc::new(seq),
                asserts: vec![None; n],
                observers: Vec::new(),
                ending,
            },
            op: e.op,
            contract: v.contract_name(),
            occurrences: e.count,
            routes: e.routes.len(),
            class: e.class.clone(),
            culprit,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::JType;

    #[test]
    fn values_no_later_statement_uses_are_observed_and_not_counted_as_the_final_value() {
        // 0: options = new Options(); 1: "x"; 2: list = options.matching("x") (unused);
        // 3: options.add("x") (unused, but the receiver of nothing later either);
        // 4: parser.parse(options) (last)
        let call = |op, args: Vec<u32>| Stmt::Call { op, args };
        let lit = Stmt::Lit {
            ty: JType::string(),
            value: Value::Str("x".into()),
        };
        let seq = Sequence {
            stmts: vec![
                call(0, vec![]),
                lit,
                call(1, vec![0, 1]),
                call(2, vec![0, 1]),
                call(3, vec![0]),
            ],
        };
        assert_eq!(unused_values(&seq, Some(0)), vec![2, 3]);
        // the last call's receiver is never an unused value, nor is a literal
        assert_eq!(unused_values(&seq, Some(3)), vec![2]);

        let case = |observers: Vec<(u32, OpId, Value)>| TestCase {
            seq: std::sync::Arc::new(seq.clone()),
            asserts: vec![None; 5],
            observers,
            ending: crate::emit::Ending::Normal,
            defect: None,
        };
        // observers of an unused middle value do not make the final value differ
        let a = case(vec![(0, 9, Value::Int(1)), (2, 8, Value::Int(5))]);
        let b = case(vec![(0, 9, Value::Int(1)), (2, 8, Value::Int(6))]);
        assert_eq!(final_value(&a, &|_| true), final_value(&b, &|_| true));
        // those of the last call's receiver do
        let c = case(vec![(0, 9, Value::Int(2)), (2, 8, Value::Int(5))]);
        assert_ne!(final_value(&a, &|_| true), final_value(&c, &|_| true));
        // unless the observer is one by what it does (OpSet::reading_observers)
        let by_name = |o: OpId| o != 9;
        assert_eq!(final_value(&a, &by_name), final_value(&c, &by_name));
    }
}
