//! Why a branch stayed uncovered (issue 31): per branch edge of the classes under test that
//! the written suite does not cover, the evidence the exploration left (the constraint
//! trees' verdicts on the decision that takes it, the operations the trace could not model
//! on its way, whether any run reached it) turned into one reason: infeasible (the solver
//! proved no input takes it), solver unknown, an unsupported operation by name, diverged,
//! unexplored (time), beyond the depth limit, decided concretely, not kept, never reached.
//!
//! A decision is named the way the trace names it: a conditional jump by the probe id of
//! its taken edge, a switch by the id of its first case probe (`Branches::new` maps each
//! edge probe to that site and the choice that takes it).

use super::trace::DEFAULT_CASE;
use super::trace::{Choice, Trace};
use super::tree::{Tree, Verdicts};
use crate::instrument::{ProbeKind, ProbeMap};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

const ACC_SYNTHETIC: u16 = 0x1000;

/// One branch edge of the classes under test.
#[derive(Clone, Debug)]
pub struct Edge {
    pub probe: u32,
    /// The other edges of the same jump or switch.
    pub siblings: Vec<u32>,
    /// The decision that takes it: the trace's site and the choice.
    pub site: String,
    pub choice: Choice,
    /// Binary class name (dots), method name and descriptor.
    pub class: String,
    pub name: String,
    pub descriptor: String,
    /// Bytecode offset of the jump or switch, and its source line.
    pub offset: u32,
    pub line: Option<u32>,
}

/// The branch edges of the classes under test (those branch coverage counts).
#[derive(Default)]
pub struct Branches {
    pub edges: Vec<Edge>,
    /// Edge indices by (class, method name, descriptor).
    by_method: HashMap<(String, String, String), Vec<usize>>,
}

impl Branches {
    pub fn new(maps: &[ProbeMap]) -> Branches {
        let mut out = Branches::default();
        for m in maps {
            let class = m.class_name.replace('/', ".");
            // the branch probes of each instruction, by (method, offset)
            let mut by_insn: BTreeMap<(u32, u32), Vec<&crate::instrument::Probe>> = BTreeMap::new();
            for p in &m.probes {
                let branch = matches!(
                    p.kind,
                    ProbeKind::BranchTaken
                        | ProbeKind::BranchNotTaken
                        | ProbeKind::SwitchCase { .. }
                        | ProbeKind::SwitchDefault
                );
                let Some(mp) = m.methods.get(p.method as usize) else {
                    continue;
                };
                let counted = mp.access & ACC_SYNTHETIC == 0 || mp.name.starts_with("lambda$");
                if branch && counted {
                    by_insn.entry((p.method, p.offset)).or_default().push(p);
                }
            }
            for ((method, _), probes) in by_insn {
                let mp = &m.methods[method as usize];
                out.add_insn(&class, &mp.name, &mp.descriptor, &probes);
            }
        }
        out
    }

    /// The edges of one jump or switch.
    fn add_insn(
        &mut self,
        class: &str,
        name: &str,
        desc: &str,
        probes: &[&crate::instrument::Probe],
    ) {
        let site = probes
            .iter()
            .filter(|p| p.kind != ProbeKind::BranchNotTaken)
            .map(|p| p.id)
            .min()
            .unwrap_or(0)
            .to_string();
        let key = (class.to_string(), name.to_string(), desc.to_string());
        for p in probes {
            let choice = match p.kind {
                ProbeKind::BranchTaken => Choice::Branch(true),
                ProbeKind::BranchNotTaken => Choice::Branch(false),
                ProbeKind::SwitchCase { key } => Choice::Case(key as i64),
                _ => Choice::Case(DEFAULT_CASE),
            };
            self.by_method
                .entry(key.clone())
                .or_default()
                .push(self.edges.len());
            self.edges.push(Edge {
                probe: p.id,
                siblings: probes.iter().map(|q| q.id).filter(|&q| q != p.id).collect(),
                site: site.clone(),
                choice,
                class: class.to_string(),
                name: name.to_string(),
                descriptor: desc.to_string(),
                offset: p.offset,
                line: p.line,
            });
        }
    }

    /// The edges of a method.
    pub fn of(&self, class: &str, name: &str, desc: &str) -> impl Iterator<Item = &Edge> {
        let key = (class.to_string(), name.to_string(), desc.to_string());
        self.by_method
            .get(&key)
            .map(|v| v.as_slice())
            .unwrap_or(&[])
            .iter()
            .map(|&i| &self.edges[i])
    }
}

/// What the exploration of a method left about the branches it did not take.
#[derive(Clone, Debug, Default)]
pub struct Evidence {
    /// Per decision no run took: what became of its alternatives, over all trees.
    pub verdicts: HashMap<(String, Choice), Verdicts>,
    /// Sites some run decided symbolically.
    pub decided: HashSet<String>,
    /// Sites some run decided concretely because of an unsupported operation, and which.
    pub lost: BTreeMap<String, BTreeSet<String>>,
    /// Probes some run covered.
    pub ran: HashSet<u32>,
}

impl Evidence {
    /// Notes what a run's trace says: the sites it decided symbolically, those it decided
    /// concretely because of an unsupported operation.
    pub fn note_trace(&mut self, t: &Trace) {
        for e in &t.events {
            if !self.decided.contains(&e.site) {
                self.decided.insert(e.site.clone());
            }
        }
        for (site, op) in &t.lost {
            self.lost
                .entry(site.clone())
                .or_default()
                .insert(op.clone());
        }
    }

    /// Adds a finished tree's verdicts.
    pub fn note_tree(&mut self, tree: &Tree) {
        for (k, v) in tree.verdicts() {
            self.verdicts.entry(k).or_default().add(&v);
        }
    }

    pub fn absorb(&mut self, o: &Evidence) {
        for (k, v) in &o.verdicts {
            self.verdicts.entry(k.clone()).or_default().add(v);
        }
        self.decided.extend(o.decided.iter().cloned());
        for (site, ops) in &o.lost {
            self.lost
                .entry(site.clone())
                .or_default()
                .extend(ops.iter().cloned());
        }
        self.ran.extend(o.ran.iter().copied());
    }
}

/// Why an edge stayed uncovered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// The solver answered unknown (its time limit) on some path to it.
    SolverUnknown,
    /// Its condition depended on the inputs through an operation the trace does not model.
    Unsupported,
    /// The solver's inputs took another path than predicted.
    Diverged,
    /// The time ended before the solver was asked.
    Unexplored,
    /// The decision lay beyond `--max-depth`.
    DepthLimit,
    /// The solver proved that no input takes it, on every path that reached its decision.
    Infeasible,
    /// A run covered it but its test was not kept (failed, did not compile, timed out).
    NotKept,
    /// Its method was not explored (`--method` left it out, or nothing makes its receiver).
    NotExplored,
    /// Its jump ran, but its condition did not depend on the inputs jforge solves for.
    NotSymbolic,
    /// No run reached it.
    NotReached,
}

impl Reason {
    /// Whether random inputs might still take the edge (the exploration keeps re-seeding
    /// while some edge of the method is open and time remains).
    pub fn open(self) -> bool {
        matches!(
            self,
            Reason::SolverUnknown | Reason::Unsupported | Reason::Diverged | Reason::NotSymbolic
        )
    }

    /// The heading of the reason in the summary.
    pub fn title(self) -> &'static str {
        match self {
            Reason::SolverUnknown => "solver unknown (time-out)",
            Reason::Unsupported => "unsupported operation",
            Reason::Diverged => "diverged (the solver's inputs took another path)",
            Reason::Unexplored => "not explored (the time limit ended first)",
            Reason::DepthLimit => "beyond --max-depth",
            Reason::Infeasible => "infeasible (the solver proved no input takes it)",
            Reason::NotKept => "covered by a run whose test was not kept",
            Reason::NotExplored => "its method was not explored (--method, or no receiver)",
            Reason::NotSymbolic => {
                "decided concretely (the condition does not depend on inputs jforge solves for)"
            }
            Reason::NotReached => "never reached",
        }
    }
}

/// The reason for one edge and, when unsupported, the operations; `reached`: a run took
/// another edge of its jump or switch.
pub fn reason_of(e: &Edge, ev: &Evidence, reached: bool) -> (Reason, Vec<String>) {
    if ev.ran.contains(&e.probe) {
        return (Reason::NotKept, Vec::new());
    }
    let v = ev
        .verdicts
        .get(&(e.site.clone(), e.choice.clone()))
        .cloned()
        .unwrap_or_default();
    let ops: Vec<String> = ev
        .lost
        .get(&e.site)
        .map(|s| s.iter().cloned().collect())
        .unwrap_or_default();
    let r = if v.timeouts > 0 {
        Reason::SolverUnknown
    } else if !ops.is_empty() {
        Reason::Unsupported
    } else if v.diverged > 0 {
        Reason::Diverged
    } else if v.unexplored > 0 {
        Reason::Unexplored
    } else if v.beyond_depth > 0 {
        Reason::DepthLimit
    } else if v.infeasible > 0 {
        Reason::Infeasible
    } else if reached {
        Reason::NotSymbolic
    } else {
        Reason::NotReached
    };
    (
        r,
        if r == Reason::Unsupported {
            ops
        } else {
            Vec::new()
        },
    )
}

/// One uncovered branch edge and why (`--stats-json`: `uncovered`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Uncovered {
    pub class: String,
    /// The method, with its parameter types (`check(int,int)`).
    pub method: String,
    pub line: Option<u32>,
    /// Bytecode offset of the jump or switch.
    pub offset: u32,
    /// Which edge: `taken` / `not taken` (the jump of the bytecode), `case K`, `default`.
    pub edge: String,
    pub reason: Reason,
    /// The unsupported operations its condition went through (reason `unsupported`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub operations: Vec<String>,
    /// The reason in words.
    pub text: String,
}

/// A method: binary class name (dots), name, descriptor.
pub type MethodKey = (String, String, String);

/// Every branch edge of `branches` that `kept` does not cover, with its reason;
/// `unexplored`: the methods of the classes under test that were not explored.
pub fn explain(
    branches: &Branches,
    ev: &Evidence,
    kept: &HashSet<u32>,
    unexplored: &HashSet<MethodKey>,
) -> Vec<Uncovered> {
    let mut out = Vec::new();
    for e in &branches.edges {
        if kept.contains(&e.probe) {
            continue;
        }
        let reached = e
            .siblings
            .iter()
            .any(|s| kept.contains(s) || ev.ran.contains(s));
        let key = (e.class.clone(), e.name.clone(), e.descriptor.clone());
        let (reason, operations) = if unexplored.contains(&key) && !reached {
            (Reason::NotExplored, Vec::new())
        } else {
            reason_of(e, ev, reached)
        };
        let v = ev
            .verdicts
            .get(&(e.site.clone(), e.choice.clone()))
            .cloned()
            .unwrap_or_default();
        let text = match reason {
            Reason::Infeasible => format!(
                "infeasible: the solver proved that no input takes it (unsat on {} path{})",
                v.infeasible,
                if v.infeasible == 1 { "" } else { "s" }
            ),
            Reason::SolverUnknown => format!(
                "solver unknown: the solver gave up or ran past --solver-timeout ({} time-out{})",
                v.timeouts,
                if v.timeouts == 1 { "" } else { "s" }
            ),
            Reason::Unsupported => format!(
                "unsupported operation {}: the condition depends on the inputs through it, and \
                 jforge does not model it",
                operations.join(", ")
            ),
            r => r.title().to_string(),
        };
        // a constructor as Java writes it
        let name = match e.name.as_str() {
            "<init>" => e.class.rsplit(['.', '$']).next().unwrap_or(&e.class),
            n => n,
        };
        out.push(Uncovered {
            class: e.class.clone(),
            method: format!("{name}({})", java_params(&e.descriptor)),
            line: e.line,
            offset: e.offset,
            edge: super::describe(&e.choice),
            reason,
            operations,
            text,
        });
    }
    out.sort_by(|a, b| {
        (a.reason, &a.class, &a.method, a.offset).cmp(&(b.reason, &b.class, &b.method, b.offset))
    });
    out
}

/// The parameter types of a method descriptor, as Java writes them (`int,String,byte[]`).
pub fn java_params(desc: &str) -> String {
    let params = desc
        .strip_prefix('(')
        .and_then(|s| s.split_once(')'))
        .map_or("", |(p, _)| p);
    let mut out = Vec::new();
    let mut dims = 0;
    let mut chars = params.chars();
    while let Some(c) = chars.next() {
        let base = match c {
            '[' => {
                dims += 1;
                continue;
            }
            'L' => {
                let name: String = chars.by_ref().take_while(|&c| c != ';').collect();
                name.rsplit(['/', '$']).next().unwrap_or(&name).to_string()
            }
            c => crate::model::Prim::ALL
                .into_iter()
                .find(|p| p.descriptor() == c)
                .map_or("?", |p| p.keyword())
                .to_string(),
        };
        out.push(format!("{base}{}", "[]".repeat(dims)));
        dims = 0;
    }
    out.join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(site: &str, choice: Choice) -> Edge {
        Edge {
            probe: 7,
            siblings: vec![8],
            site: site.into(),
            choice,
            class: "a.B".into(),
            name: "f".into(),
            descriptor: "(I[BLjava/lang/String;)V".into(),
            offset: 3,
            line: Some(12),
        }
    }

    #[test]
    fn the_reason_follows_the_evidence_in_order_of_use() {
        let e = edge("7", Choice::Branch(true));
        let mut ev = Evidence::default();
        assert_eq!(reason_of(&e, &ev, false).0, Reason::NotReached);
        assert_eq!(reason_of(&e, &ev, true).0, Reason::NotSymbolic);
        let key = ("7".to_string(), Choice::Branch(true));
        ev.verdicts.entry(key.clone()).or_default().infeasible = 2;
        assert_eq!(reason_of(&e, &ev, true).0, Reason::Infeasible);
        // an unsupported operation on another path: not proven infeasible
        ev.lost
            .entry("7".into())
            .or_default()
            .insert("String.hashCode".into());
        assert_eq!(
            reason_of(&e, &ev, true),
            (Reason::Unsupported, vec!["String.hashCode".to_string()])
        );
        ev.verdicts.entry(key).or_default().timeouts = 1;
        assert_eq!(reason_of(&e, &ev, true).0, Reason::SolverUnknown);
        ev.ran.insert(7);
        assert_eq!(reason_of(&e, &ev, true).0, Reason::NotKept);
        assert!(Reason::Unsupported.open() && !Reason::Infeasible.open());
    }

    #[test]
    fn descriptors_read_as_java_parameter_lists() {
        assert_eq!(java_params("(I[BLjava/lang/String;)V"), "int,byte[],String");
        assert_eq!(java_params("([[JLa/B$C;)I"), "long[][],C");
        assert_eq!(java_params("()V"), "");
    }
}
