//! The constraint tree of one method under test (seed 002): nodes are the symbolic decisions
//! of its paths (site + which way), leaves are unexplored, terminal (a run took that path),
//! infeasible (the solver proved no input takes it), time-out (the solver gave up) or
//! diverged (the solver's inputs took another path: a condition the trace could not see).
//!
//! Each path is inserted once (a path seen again is counted, not re-explored); a node gets its
//! alternatives when it is first created, so every alternative is asked about at most once.
//! Branches whose condition does not depend on the inputs never appear: the runtime records
//! only symbolic conditions, which is the seed's pruning of deterministic branches without a
//! solver call. The frontier is ordered by decisions no path has taken yet (new branch
//! edges) first, then shallowest first (a breadth-first order that reaches every branch of a
//! loop-free method quickly and keeps loops from swallowing the budget).

use super::trace::{Choice, DEFAULT_CASE, Trace};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// What a node is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// Decided: a run went through it.
    Explored,
    Unexplored,
    Infeasible,
    Timeout,
    Diverged,
}

struct TNode {
    children: BTreeMap<(String, Choice), usize>,
    leaf: Leaf,
    /// A run ended here.
    terminal: bool,
}

/// An alternative to ask the solver about: the path of `trace` up to `depth`, then `alt`.
#[derive(Clone)]
pub struct Pending {
    pub node: usize,
    pub depth: usize,
    pub alt: Choice,
    pub trace: Arc<Trace>,
    /// The inputs of the run that produced `trace` (variables the query leaves free keep them).
    pub inputs: Arc<Vec<crate::sequence::Value>>,
}

/// Counts of a tree.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct TreeStats {
    /// Distinct paths run.
    pub paths: u64,
    /// Runs that took a path already known.
    pub repeated: u64,
    pub infeasible: u64,
    pub timeouts: u64,
    pub diverged: u64,
    /// Alternatives left (budget ended or depth limit).
    pub unexplored: u64,
}

/// What became of the alternatives of one decision (site, choice) no run took, over the
/// nodes of a tree (the same decision after different prefixes): the evidence of why its
/// branch stayed uncovered.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdicts {
    pub infeasible: u32,
    pub timeouts: u32,
    pub diverged: u32,
    /// Not asked about: the time ended first.
    pub unexplored: u32,
    /// Not asked about: the decision lay beyond `--max-depth`.
    pub beyond_depth: u32,
}

impl Verdicts {
    pub fn add(&mut self, o: &Verdicts) {
        self.infeasible += o.infeasible;
        self.timeouts += o.timeouts;
        self.diverged += o.diverged;
        self.unexplored += o.unexplored;
        self.beyond_depth += o.beyond_depth;
    }
}

/// One method's constraint tree.
pub struct Tree {
    nodes: Vec<TNode>,
    frontier: Vec<Pending>,
    /// Decisions (site, choice) some run took.
    seen: HashSet<(String, Choice)>,
    /// Alternatives not created because their decision lay beyond `max_depth`.
    cut: HashSet<(String, Choice)>,
    /// Alternatives beyond this many decisions are not asked about.
    max_depth: usize,
    pub stats: TreeStats,
}

impl Tree {
    pub fn new(max_depth: usize) -> Tree {
        Tree {
            nodes: vec![TNode {
                children: BTreeMap::new(),
                leaf: Leaf::Explored,
                terminal: false,
            }],
            frontier: Vec::new(),
            seen: HashSet::new(),
            cut: HashSet::new(),
            max_depth,
            stats: TreeStats::default(),
        }
    }

    /// The decision an event stands for: a switch key not among the cases is the default.
    pub fn normalize(choice: &Choice, cases: &[i64]) -> Choice {
        match choice {
            Choice::Case(k) if !cases.is_empty() && !cases.contains(k) => {
                Choice::Case(DEFAULT_CASE)
            }
            c => c.clone(),
        }
    }

    /// The other ways a decision could go.
    fn alternatives(choice: &Choice, cases: &[i64]) -> Vec<Choice> {
        match choice {
            Choice::Branch(b) => vec![Choice::Branch(!b)],
            Choice::Case(k) => {
                let mut v: Vec<Choice> = cases
                    .iter()
                    .filter(|c| *c != k)
                    .map(|&c| Choice::Case(c))
                    .collect();
                if *k != DEFAULT_CASE {
                    v.push(Choice::Case(DEFAULT_CASE));
                }
                v
            }
        }
    }

    /// Inserts the path of a run; returns whether it is new, and which decisions no run had
    /// taken before. `cases(event)`: the keys of a switch, the indices of an array access.
    pub fn insert(
        &mut self,
        trace: Arc<Trace>,
        inputs: Arc<Vec<crate::sequence::Value>>,
        cases: &dyn Fn(&super::trace::Event) -> Vec<i64>,
    ) -> (bool, usize) {
        let mut at = 0usize;
        let mut new_decisions = 0;
        for (depth, e) in trace.events.iter().enumerate() {
            let keys = cases(e);
            let choice = Self::normalize(&e.choice, &keys);
            if self.seen.insert((e.site.clone(), choice.clone())) {
                new_decisions += 1;
            }
            let key = (e.site.clone(), choice.clone());
            let expand = self.nodes[at].children.is_empty();
            let next = match self.nodes[at].children.get(&key) {
                Some(&n) => n,
                None => self.add_child(at, key),
            };
            if self.nodes[next].leaf != Leaf::Explored {
                if self.nodes[next].leaf == Leaf::Diverged {
                    self.stats.diverged = self.stats.diverged.saturating_sub(1);
                }
                self.nodes[next].leaf = Leaf::Explored;
                self.frontier.retain(|p| p.node != next);
            }
            if expand && depth >= self.max_depth {
                for alt in Self::alternatives(&choice, &keys) {
                    self.cut.insert((e.site.clone(), alt));
                }
            }
            if expand && depth < self.max_depth {
                for alt in Self::alternatives(&choice, &keys) {
                    let node = self.add_child(at, (e.site.clone(), alt.clone()));
                    self.nodes[node].leaf = Leaf::Unexplored;
                    self.frontier.push(Pending {
                        node,
                        depth,
                        alt,
                        trace: trace.clone(),
                        inputs: inputs.clone(),
                    });
                }
            }
            at = next;
        }
        let new = !self.nodes[at].terminal;
        self.nodes[at].terminal = true;
        if new {
            self.stats.paths += 1;
        } else {
            self.stats.repeated += 1;
        }
        (new, new_decisions)
    }

    fn add_child(&mut self, parent: usize, key: (String, Choice)) -> usize {
        let n = self.nodes.len();
        self.nodes.push(TNode {
            children: BTreeMap::new(),
            leaf: Leaf::Explored,
            terminal: false,
        });
        self.nodes[parent].children.insert(key, n);
        n
    }

    /// The next alternative to ask about, if any: one that would take a decision no run has
    /// taken, else the shallowest.
    pub fn pick(&mut self) -> Option<Pending> {
        let seen = &self.seen;
        let best = self
            .frontier
            .iter()
            .enumerate()
            .min_by_key(|(_, p)| {
                let site = &p.trace.events[p.depth].site;
                (seen.contains(&(site.clone(), p.alt.clone())), p.depth)
            })
            .map(|(i, _)| i)?;
        Some(self.frontier.remove(best))
    }

    /// The solver's verdict on an alternative that will not be run.
    pub fn close(&mut self, p: &Pending, leaf: Leaf) {
        match leaf {
            Leaf::Infeasible => self.stats.infeasible += 1,
            Leaf::Timeout => self.stats.timeouts += 1,
            Leaf::Diverged => self.stats.diverged += 1,
            _ => {}
        }
        if self.nodes[p.node].leaf == Leaf::Unexplored {
            self.nodes[p.node].leaf = leaf;
        }
    }

    /// Whether the alternative's node was reached by a run.
    pub fn reached(&self, p: &Pending) -> bool {
        self.nodes[p.node].leaf == Leaf::Explored
    }

    /// Alternatives not asked about.
    pub fn unexplored(&self) -> usize {
        self.frontier.len()
    }

    /// Ends the tree: what is left counts as unexplored.
    pub fn finish(&mut self) {
        self.stats.unexplored = self.frontier.len() as u64;
    }

    /// The decisions some run took.
    pub fn decided(&self) -> &HashSet<(String, Choice)> {
        &self.seen
    }

    /// Per decision no run took: what became of its alternatives (solver verdicts, left
    /// unexplored, beyond the depth limit).
    pub fn verdicts(&self) -> HashMap<(String, Choice), Verdicts> {
        let mut out: HashMap<(String, Choice), Verdicts> = HashMap::new();
        for n in &self.nodes {
            for (key, &child) in &n.children {
                if self.seen.contains(key) {
                    continue;
                }
                let v = out.entry(key.clone()).or_default();
                match self.nodes[child].leaf {
                    Leaf::Infeasible => v.infeasible += 1,
                    Leaf::Timeout => v.timeouts += 1,
                    Leaf::Diverged => v.diverged += 1,
                    Leaf::Unexplored => v.unexplored += 1,
                    Leaf::Explored => {}
                }
            }
        }
        for key in &self.cut {
            if !self.seen.contains(key) {
                out.entry(key.clone()).or_default().beyond_depth += 1;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::trace::parse;
    use super::*;

    fn run(t: &mut Tree, text: &str) -> (bool, usize) {
        t.insert(
            Arc::new(parse(text).unwrap()),
            Arc::new(vec![]),
            &|e: &super::super::trace::Event| {
                if e.site == "9" { vec![1, 2] } else { vec![] }
            },
        )
    }

    const NODES: &str = "N 0 var I 0\nN 1 const 32 5\n";

    #[test]
    fn each_path_once_and_each_alternative_asked_once() {
        let mut t = Tree::new(100);
        // if (a == 5) not taken, then if (a < 5) taken
        let p1 = format!("{NODES}B 1 0 eq 0 1\nB 2 1 lt 0 1\n");
        assert_eq!(run(&mut t, &p1), (true, 2));
        assert_eq!(t.unexplored(), 2);
        // the same path again: counted, nothing new to ask
        assert_eq!(run(&mut t, &p1), (false, 0));
        assert_eq!(t.stats.repeated, 1);
        assert_eq!(t.unexplored(), 2);
        // the shallowest alternative first: site 1 taken
        let next = t.pick().unwrap();
        assert_eq!((next.depth, next.alt.clone()), (0, Choice::Branch(true)));
        t.close(&next, Leaf::Infeasible);
        // a run down the other alternative closes it without a solver call
        let p2 = format!("{NODES}B 1 0 eq 0 1\nB 2 0 lt 0 1\n");
        assert_eq!(run(&mut t, &p2), (true, 1));
        assert_eq!(t.unexplored(), 0);
        assert!(t.pick().is_none());
        t.finish();
        assert_eq!(t.stats.paths, 2);
        assert_eq!(t.stats.infeasible, 1);
        assert_eq!(t.stats.unexplored, 0);
    }

    #[test]
    fn a_switch_offers_its_other_cases_and_its_default() {
        let mut t = Tree::new(100);
        run(&mut t, &format!("{NODES}S 9 2 0\n"));
        let mut alts: Vec<Choice> = std::iter::from_fn(|| t.pick()).map(|p| p.alt).collect();
        alts.sort();
        assert_eq!(alts, vec![Choice::Case(DEFAULT_CASE), Choice::Case(1)]);
        // keys outside the cases are one default path
        let mut t = Tree::new(100);
        assert!(run(&mut t, &format!("{NODES}S 9 7 0\n")).0);
        assert!(!run(&mut t, &format!("{NODES}S 9 8 0\n")).0);
    }

    #[test]
    fn verdicts_say_what_became_of_the_decisions_no_run_took() {
        let mut t = Tree::new(1);
        run(&mut t, &format!("{NODES}B 1 0 eq 0 1\nB 2 1 lt 0 1\n"));
        let p = t.pick().unwrap();
        t.close(&p, Leaf::Infeasible);
        t.finish();
        let v = t.verdicts();
        let at = |site: &str, b: bool| v.get(&(site.to_string(), Choice::Branch(b))).cloned();
        assert_eq!(at("1", true).unwrap().infeasible, 1);
        // beyond the depth limit: never asked
        assert_eq!(at("2", false).unwrap().beyond_depth, 1);
        // taken decisions have no verdict
        assert!(at("1", false).is_none());
        assert!(
            t.decided()
                .contains(&("2".to_string(), Choice::Branch(true)))
        );
    }

    #[test]
    fn alternatives_beyond_the_depth_limit_are_not_asked() {
        let mut t = Tree::new(1);
        run(&mut t, &format!("{NODES}B 1 0 eq 0 1\nB 2 1 lt 0 1\n"));
        assert_eq!(t.unexplored(), 1);
    }
}
