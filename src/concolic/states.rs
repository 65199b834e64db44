//! Receiver states for `jforge concolic` (the seed's pruning by state matching, as in
//! Rostra/Symstra): instead of one constraint tree per call sequence, whose inputs make every
//! interleaving of the prefix calls a path of its own, the receivers are explored breadth
//! first over the distinct states they reach. A state is a fixed prefix (a maker, then calls
//! with concrete arguments); each method of the class is explored on it with only its own
//! arguments symbolic (`Target::pinned`); every path of a mutator (a method that writes a
//! field some method reads, Candidate Sequence Search's relevance rule applied forwards)
//! leaves a receiver behind, whose canonical form (worker `Canon.java`, the one `exhaustive`
//! matches states with) decides whether it is new. Only new states are extended, so the
//! budget goes to distinct states (trees of five, six, seven entries before a `remove`)
//! rather than to the orders in which the same state can be built.
//!
//! The form is abstracted before it is matched ([`abstract_form`]): the root object's own
//! primitive fields stay exact (sizes, counters, capacities), the primitive values deeper in
//! the heap (keys of entries, elements of arrays) are replaced by their rank among the values
//! of the same field. Two trees holding 1, 2, 5 and 10, 20, 50 in the same shape are one
//! state: the code under test compares keys with each other, and the solver finds the
//! arguments that fall between them on whichever state is kept. Why ranks per field and not
//! exact values: with the solver choosing keys, exact forms almost never repeat and the
//! search would again explore orders; why the root's fields exact: a size of 1 and of 2 over
//! equal elements must stay two states (a stack fills up one push at a time).

use super::How;
use super::{Engine, MethodResult, Target};

const STATE: How = How::STATE;
use crate::coverage::Tracker;
use crate::runner::{CANON_OP, ExecMode, ExecRequest, Pool};
use crate::sequence::{OpId, OpTable, Sequence, Stmt, Value};
use anyhow::Result;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The methods of one receiver class explored over its states.
pub struct Plan {
    /// Ways to make the receiver (each a first state).
    pub makers: Vec<OpId>,
    /// Instance methods to explore, in report order.
    pub methods: Vec<OpId>,
    /// Those whose paths make new states.
    pub mutators: Vec<OpId>,
}

/// How far the search goes.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Calls after the maker (the depth of the breadth-first search).
    pub max_calls: usize,
    /// Distinct states explored at most.
    pub max_states: usize,
    /// Stop once the runs covered every branch of the classes under test.
    pub stop_at_full: bool,
}

/// What the search gave.
pub struct Outcome {
    pub rows: Vec<(OpId, MethodResult)>,
    /// Every state's trees exhausted and no new state left within `max_calls`.
    pub exhausted: bool,
    /// Distinct receiver states explored.
    pub states: usize,
    /// Every branch of the classes under test covered (the search stopped there).
    pub full_coverage: bool,
    /// When the runs last covered a branch not covered before.
    pub last_gain: Option<Instant>,
}

/// A receiver state: the statements that build it, the receiver being statement `receiver`.
struct State {
    stmts: Vec<Stmt>,
    receiver: u32,
    /// Literal statements left symbolic: the arguments that no decision of the paths that
    /// made the state depended on (all the maker's for a state just made). Why not pin
    /// them: a call whose argument no branch looked at got the start value (every `add` of
    /// a list adds 0, every `setA(x)` sets 0), and the method explored next may need it to
    /// differ (`remove` of the second element, not the first; `open()` after `setA(7);
    /// setB(21)`); the arguments that decided a path stay pinned, so the orders of the
    /// prefix are not explored again.
    free: Vec<usize>,
}

impl State {
    /// Method `m` called on this state.
    fn target(&self, m: OpId) -> Target {
        Target {
            op: m,
            receiver: self.stmts.clone(),
            fixed: vec![(0, self.receiver)],
            pinned: self.pinned(),
        }
    }

    /// The literal statements whose values are fixed.
    fn pinned(&self) -> Vec<usize> {
        self.stmts
            .iter()
            .enumerate()
            .filter(|&(k, s)| matches!(s, Stmt::Lit { .. }) && !self.free.contains(&k))
            .map(|(k, _)| k)
            .collect()
    }
}

/// Explores the methods of `plan` over the receiver states, breadth first, until no new
/// state appears, `bounds` or `deadline`, or every branch of `tracker` is covered.
pub fn explore(
    engine: &Engine,
    pool: &mut Pool,
    solver: &mut dyn super::solver::Solver,
    plan: &Plan,
    bounds: Bounds,
    deadline: Instant,
    tracker: &mut Tracker,
) -> Result<Outcome> {
    let mut rows = empty_rows(engine, plan);
    let mut covered: HashMap<OpId, HashSet<u32>> = HashMap::new();
    let mut explored = HashSet::new();
    let mut seen = HashSet::new();
    let first = plan
        .makers
        .iter()
        .map(|&m| made_by(engine.table, m))
        .collect();
    let mut frontier = new_states(pool, first, &mut seen, bounds.max_states)?;
    let mut out = Outcome {
        rows: Vec::new(),
        exhausted: false,
        states: 0,
        full_coverage: false,
        last_gain: None,
    };
    // the mutators are run even when `--method` leaves them out: they make the states
    let mut calls = plan.methods.clone();
    calls.extend(plan.mutators.iter().filter(|m| !plan.methods.contains(m)));
    for level in 0..=bounds.max_calls {
        if frontier.is_empty() {
            out.exhausted = true;
            break;
        }
        out.states += frontier.len();
        let mut made = Vec::new();
        let items = frontier.len() * calls.len();
        for (k, (state, &m)) in frontier
            .iter()
            .flat_map(|s| calls.iter().map(move |m| (s, m)))
            .enumerate()
        {
            out.full_coverage = full(tracker);
            let now = Instant::now();
            if now >= deadline {
                return Ok(finish(out, rows, false));
            }
            // every branch covered: each method still gets one run (a method without
            // branches, `touch(int)`, needs one for its lines and its test), then stop
            if out.full_coverage && bounds.stop_at_full {
                if calls.iter().all(|c| explored.contains(c)) {
                    return Ok(finish(out, rows, false));
                }
                if explored.contains(&m) {
                    continue;
                }
            }
            explored.insert(m);
            let share = deadline.saturating_duration_since(now) / (items - k) as u32;
            let until = now + share.max(Duration::from_millis(1));
            let covered = covered.entry(m).or_default();
            let mut r =
                engine.explore_with(pool, solver, &state.target(m), until, covered, STATE)?;
            for t in &r.tests {
                if tracker.add(t.coverage.as_deref().unwrap_or(&[])).0 > 0 {
                    out.last_gain = Some(Instant::now());
                }
            }
            let paths = std::mem::take(&mut r.paths);
            if level < bounds.max_calls && plan.mutators.contains(&m) {
                made.extend(successors(state, paths));
            }
            add_row(&mut rows, m, r);
        }
        let room = bounds.max_states.saturating_sub(seen.len());
        frontier = new_states(pool, made, &mut seen, room)?;
    }
    out.full_coverage = full(tracker);
    let exhausted = out.exhausted && rows.values().all(|r| r.tree.unexplored == 0);
    Ok(finish(out, rows, exhausted))
}

/// A row per method of `plan`, nothing explored yet.
fn empty_rows(engine: &Engine, plan: &Plan) -> BTreeMap<OpId, MethodResult> {
    plan.methods
        .iter()
        .map(|&m| {
            let r = MethodResult {
                method: engine.table.get(m).signature(),
                ..MethodResult::default()
            };
            (m, r)
        })
        .collect()
}

/// The sequences of a mutator's paths on `state`, each with its free literals: the state's
/// and the new call's arguments that no decision of the path used.
fn successors(
    state: &State,
    paths: Vec<(Arc<Sequence>, Vec<usize>)>,
) -> impl Iterator<Item = (Arc<Sequence>, Vec<usize>)> + '_ {
    paths.into_iter().map(move |(seq, decided)| {
        let free = state
            .free
            .iter()
            .copied()
            .chain(last_call_literals(&seq))
            .filter(|k| !decided.contains(k))
            .collect();
        (seq, free)
    })
}

/// Whether the runs covered every branch of the classes under test.
pub fn full(tracker: &Tracker) -> bool {
    tracker.branches > 0 && tracker.covered_branches == tracker.branches
}

fn finish(mut out: Outcome, rows: BTreeMap<OpId, MethodResult>, exhausted: bool) -> Outcome {
    out.exhausted = exhausted;
    out.rows = rows.into_iter().collect();
    out
}

/// Adds one exploration to method `m`'s row (none: a mutator `--method` left out).
fn add_row(rows: &mut BTreeMap<OpId, MethodResult>, m: OpId, r: MethodResult) {
    if let Some(row) = rows.get_mut(&m) {
        let method = std::mem::take(&mut row.method);
        row.absorb(r);
        row.method = method;
    }
}

/// The sequence that makes a receiver with `maker`, its arguments at their start values,
/// and its free literals (all of them).
fn made_by(table: &OpTable, maker: OpId) -> (Arc<Sequence>, Vec<usize>) {
    let mut stmts: Vec<Stmt> = table
        .get(maker)
        .params
        .iter()
        .map(|t| Stmt::Lit {
            ty: t.clone(),
            value: super::start_value(t),
        })
        .collect();
    let args = (0..stmts.len() as u32).collect();
    let free = (0..stmts.len()).collect();
    stmts.push(Stmt::Call { op: maker, args });
    (Arc::new(Sequence { stmts }), free)
}

/// The states the sequences (each with its free literals) leave behind that are new (by
/// abstracted canonical form), at most `room` of them. The receiver of a sequence is its
/// first call's result (the maker); a sequence that threw, or whose receiver has no form,
/// makes no state.
fn new_states(
    pool: &mut Pool,
    seqs: Vec<(Arc<Sequence>, Vec<usize>)>,
    seen: &mut HashSet<String>,
    room: usize,
) -> Result<Vec<State>> {
    let with_receiver: Vec<(Arc<Sequence>, u32, Vec<usize>)> = seqs
        .into_iter()
        .filter_map(|(s, free)| {
            let r = s
                .stmts
                .iter()
                .position(|st| matches!(st, Stmt::Call { .. }))?;
            Some((s, r as u32, free))
        })
        .collect();
    let reqs = with_receiver
        .iter()
        .map(|(s, r, free)| ExecRequest {
            seq: Arc::new(marked(s, free)),
            mode: ExecMode::Canon,
            contract_values: Vec::new(),
            observers: vec![(*r, CANON_OP)],
            reuse: None,
        })
        .collect();
    let results = pool.execute(reqs)?;
    let mut out = Vec::new();
    for ((seq, receiver, free), res) in with_receiver.into_iter().zip(results) {
        if out.len() >= room {
            break;
        }
        let form = res.observers.iter().find_map(|o| match &o.result {
            Ok(Value::Str(t)) if o.op == CANON_OP && res.first_abnormal().is_none() => {
                Some(t.clone())
            }
            _ => None,
        });
        let Some(form) = form else { continue };
        if seen.insert(abstract_form(&form)) {
            out.push(State {
                stmts: seq.stmts.clone(),
                receiver,
                free,
            });
        }
    }
    Ok(out)
}

/// The literal statements that are arguments of the last call of `s`.
fn last_call_literals(s: &Sequence) -> impl Iterator<Item = usize> + '_ {
    let args: &[u32] = match s.stmts.last() {
        Some(Stmt::Call { args, .. }) => args,
        _ => &[],
    };
    args.iter()
        .map(|&a| a as usize)
        .filter(|&a| matches!(s.stmts.get(a), Some(Stmt::Lit { .. })))
}

/// First of the values that stand for free literals in the run that gives a state's form
/// (`marked`); [`abstract_form`] writes them all as `F`.
const MARKER: i64 = 0x5EED_0000;

/// `s` with its free `int` and `long` literals set to markers (`MARKER + j` for the j-th):
/// a field that holds an argument still symbolic is told apart from one holding the start
/// value, so `setA(x)` is a new state (its `a` is an input now) although it stored 0, and
/// `setA(x); setA(y)` is the state of `setA(y)`. No decision of the path depended on these
/// literals, so the run takes the same path.
fn marked(s: &Sequence, free: &[usize]) -> Sequence {
    let mut out = s.clone();
    for (j, &k) in free.iter().enumerate() {
        if let Some(Stmt::Lit { value, .. }) = out.stmts.get_mut(k) {
            let m = MARKER + j as i64;
            match value {
                Value::Int(v) => *v = m as i32,
                Value::Long(v) => *v = m,
                _ => {}
            }
        }
    }
    out
}

/// A token of a form: text kept as is, or a primitive value ranked within its group.
enum Piece {
    Text(String),
    Ranked {
        group: String,
        tag: char,
        value: i64,
    },
}

/// The canonical form (text with field names, `Canon.java`) with every primitive value
/// below the root object replaced by its rank among the values of the same field (array
/// elements: of the same array class); the root's own fields, Strings, references and
/// other values stay as written.
pub fn abstract_form(form: &str) -> String {
    let mut p = FormParser {
        s: form.as_bytes(),
        i: 0,
        out: Vec::new(),
    };
    if p.value(0, "").is_none() || p.i != p.s.len() {
        // not a form this parser knows (null, out of scope): matched exactly
        return form.to_string();
    }
    let mut groups: HashMap<&str, BTreeSet<i64>> = HashMap::new();
    for piece in &p.out {
        if let Piece::Ranked { group, value, .. } = piece {
            groups.entry(group).or_default().insert(*value);
        }
    }
    let mut text = String::with_capacity(form.len());
    for piece in &p.out {
        match piece {
            Piece::Text(t) => text.push_str(t),
            Piece::Ranked { group, tag, value } => {
                let rank = groups[group.as_str()].range(..*value).count();
                text.push(*tag);
                text.push('#');
                text.push_str(&rank.to_string());
            }
        }
    }
    text
}

struct FormParser<'a> {
    s: &'a [u8],
    i: usize,
    out: Vec<Piece>,
}

impl FormParser<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn text(&mut self, from: usize) {
        let t = String::from_utf8_lossy(&self.s[from..self.i]).into_owned();
        self.out.push(Piece::Text(t));
    }

    /// Expects byte `b` and keeps it.
    fn expect(&mut self, b: u8) -> Option<()> {
        (self.peek()? == b).then_some(())?;
        self.i += 1;
        self.text(self.i - 1);
        Some(())
    }

    /// One value at `depth` (0: the root) belonging to field or array class `group`.
    fn value(&mut self, depth: usize, group: &str) -> Option<()> {
        let start = self.i;
        if self.peek()? == b'"' {
            self.i += 1;
            loop {
                match self.peek()? {
                    b'\\' => self.i += 2,
                    b'"' => break,
                    _ => self.i += 1,
                }
            }
            self.i += 1;
            self.text(start);
            return Some(());
        }
        // an array class name (`[I`, `[Ljava.lang.Object;`) starts with brackets
        while self.peek()? == b'[' {
            self.i += 1;
        }
        if self.i > start {
            if self.peek()? == b'L' {
                while self.peek()? != b';' {
                    self.i += 1;
                }
            }
            self.i += 1;
        }
        while !matches!(self.peek()?, b',' | b'}' | b']' | b'{' | b'[') {
            self.i += 1;
        }
        let token = String::from_utf8_lossy(&self.s[start..self.i]).into_owned();
        match self.peek()? {
            b'{' => {
                self.text(start);
                self.object(depth)
            }
            b'[' => {
                self.text(start);
                self.array(depth, &token)
            }
            _ => {
                self.scalar(depth, group, token);
                Some(())
            }
        }
    }

    fn scalar(&mut self, depth: usize, group: &str, token: String) {
        let mut chars = token.chars();
        let tag = chars.next().unwrap_or(' ');
        let number = chars.as_str().parse::<i64>().ok();
        match number {
            Some(value) if (MARKER..MARKER + 0x1_0000).contains(&value) => {
                self.out.push(Piece::Text("F".into()))
            }
            Some(value) if depth > 1 && matches!(tag, 'I' | 'L' | 'S' | 'C') => {
                self.out.push(Piece::Ranked {
                    group: group.to_string(),
                    tag,
                    value,
                })
            }
            _ => self.out.push(Piece::Text(token)),
        }
    }

    fn object(&mut self, depth: usize) -> Option<()> {
        self.expect(b'{')?;
        while self.peek()? != b'}' {
            let start = self.i;
            while self.peek()? != b'=' {
                self.i += 1;
            }
            self.i += 1;
            self.text(start);
            let name = String::from_utf8_lossy(&self.s[start..self.i - 1]).into_owned();
            self.value(depth + 1, &name)?;
            self.expect(b',')?;
        }
        self.expect(b'}')
    }

    fn array(&mut self, depth: usize, class: &str) -> Option<()> {
        self.expect(b'[')?;
        let start = self.i;
        while self.peek()? != b':' {
            self.i += 1;
        }
        self.i += 1;
        self.text(start);
        let group = format!("{class}[]");
        while self.peek()? != b']' {
            self.value(depth + 1, &group)?;
            self.expect(b',')?;
        }
        self.expect(b']')
    }
}

#[cfg(test)]
mod tests {
    use super::abstract_form;

    fn map(keys: &[(i32, &str)], size: usize) -> String {
        // a root with two entries in a chain: the key values and the shape
        let e = |k: i32, rest: &str| format!("m.E{{m.E.key=I{k},m.E.next={rest},m.E.value=I0,}}");
        let mut inner = "N".to_string();
        for (k, _) in keys.iter().rev() {
            inner = e(*k, &inner);
        }
        format!("m.Map{{m.Map.head={inner},m.Map.size=I{size},}}")
    }

    #[test]
    fn keys_in_the_same_order_are_one_state_and_sizes_stay_exact() {
        let a = abstract_form(&map(&[(5, ""), (9, "")], 2));
        let b = abstract_form(&map(&[(-100, ""), (2_000_000, "")], 2));
        assert_eq!(a, b);
        assert!(a.contains("m.E.key=I#0"), "{a}");
        // another order of the keys, another size: other states
        assert_ne!(a, abstract_form(&map(&[(9, ""), (5, "")], 2)));
        assert_ne!(a, abstract_form(&map(&[(5, ""), (9, "")], 3)));
        // equal keys stay equal
        assert_ne!(
            abstract_form(&map(&[(5, ""), (5, "")], 2)),
            abstract_form(&map(&[(5, ""), (6, "")], 2))
        );
    }

    #[test]
    fn array_elements_are_ranked_and_the_root_fields_are_not() {
        let stack =
            |elems: &str, n: i32| format!("s.Stack{{s.Stack.elems=[I[3:{elems}],s.Stack.n=I{n},}}");
        let a = abstract_form(&stack("I7,I3,I0,", 2));
        assert_eq!(a, abstract_form(&stack("I70,I30,I0,", 2)));
        assert_ne!(a, abstract_form(&stack("I7,I3,I0,", 1)));
        assert!(a.ends_with("s.Stack.n=I2,}"), "{a}");
        // Strings, nulls and references are kept; forms not parsed are matched exactly
        let s = "s.Box{s.Box.name=\"a,}\\\"b\",s.Box.next=N,s.Box.self=#0,}";
        assert_eq!(abstract_form(s), s);
        assert_eq!(abstract_form("!scope"), "!scope");
    }

    #[test]
    fn a_field_holding_a_free_argument_is_neither_the_start_value_nor_ranked() {
        let lock = |a: i64, b: i64| format!("c.Lock{{c.Lock.a=I{a},c.Lock.b=I{b},}}");
        let fresh = abstract_form(&lock(0, 0));
        let set_a = abstract_form(&lock(super::MARKER, 0));
        assert_ne!(fresh, set_a);
        // which free argument it was does not matter
        assert_eq!(set_a, abstract_form(&lock(super::MARKER + 1, 0)));
        assert_ne!(set_a, abstract_form(&lock(0, super::MARKER)));
        assert!(set_a.contains("c.Lock.a=F,"), "{set_a}");
    }
}
