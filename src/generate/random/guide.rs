//! Coverage feedback for generation (`CovGuide`): the tracker of the probes covered so far,
//! each operation's instrumented method, the keys of the switches, and which probes are static
//! initialisers' or the JDK's.

use crate::generate::ops::OpSet;
use crate::instrument::ProbeKind;
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// Coverage feedback for generation (see `Generator::enable_coverage`).
pub struct CovGuide {
    pub tracker: crate::coverage::Tracker,
    /// Probe maps of the instrumented classes (for the per-class summary).
    pub maps: Vec<crate::instrument::ProbeMap>,
    /// Op id -> index of the tracker method whose code the op runs.
    pub(super) op_method: Vec<Option<u32>>,
    /// (seconds since start, covered branches, covered lines), one point per change.
    pub series: Vec<(f64, u32, u32)>,
    /// Sequences whose coverage was new.
    pub new_coverage_seqs: u64,
    pub(super) last_new_branch: Option<Instant>,
    pub(super) start: Option<Instant>,
    /// Probe ids of switch cases and defaults (increasing) -> index into `switch_keys`.
    pub(super) switch_probes: Vec<(u32, u32)>,
    /// The case keys of each instrumented switch.
    pub(super) switch_keys: Vec<Vec<i32>>,
    /// Probe ids of static initialisers: they run in the first sequence that uses a class in
    /// each worker JVM, so which sequence carries them depends on the number of workers; a
    /// candidate's coverage leaves them out (the written suite runs them anyway).
    pub(super) clinit: Vec<bool>,
    /// Probe ids of JDK classes (patched into java.base): the JVM runs them too.
    pub(super) jdk: Vec<bool>,
}

impl CovGuide {
    /// The guide of the probes of `tracker`, whose classes `maps` describes; each operation
    /// of `ops` mapped to the instrumented method it runs (see `Generator::enable_coverage`).
    pub(super) fn new(
        ops: &OpSet,
        tracker: crate::coverage::Tracker,
        maps: Vec<crate::instrument::ProbeMap>,
    ) -> CovGuide {
        let mut by_key: HashMap<(&str, &str, &str), u32> = HashMap::new();
        let mut by_sig: HashMap<(&str, &str), u32> = HashMap::new();
        for (i, m) in tracker.methods.iter().enumerate() {
            by_key.insert((&m.class, &m.name, &m.descriptor), i as u32);
            by_sig.entry((&m.name, &m.descriptor)).or_insert(i as u32);
        }
        let mut op_method = vec![None; ops.table.len()];
        for id in ops.own_ids() {
            let op = ops.table.get(id);
            op_method[id as usize] = by_key
                .get(&(op.class.as_str(), op.name.as_str(), op.descriptor.as_str()))
                .or_else(|| by_sig.get(&(op.name.as_str(), op.descriptor.as_str())))
                .copied();
        }
        // Switches: their probes (cases and default share the switch's method and offset).
        let mut switch_at: BTreeMap<(usize, u32, u32), u32> = BTreeMap::new();
        let mut switch_keys: Vec<Vec<i32>> = Vec::new();
        let mut switch_probes = Vec::new();
        for (mi, m) in maps.iter().enumerate() {
            for p in &m.probes {
                let key = match p.kind {
                    ProbeKind::SwitchCase { key } => Some(key),
                    ProbeKind::SwitchDefault => None,
                    _ => continue,
                };
                let k = *switch_at
                    .entry((mi, p.method, p.offset))
                    .or_insert_with(|| {
                        switch_keys.push(Vec::new());
                        switch_keys.len() as u32 - 1
                    });
                if let Some(key) = key {
                    switch_keys[k as usize].push(key);
                }
                switch_probes.push((p.id, k));
            }
        }
        switch_probes.sort_unstable();
        let mut clinit = vec![false; tracker.hit.len()];
        let mut jdk = vec![false; tracker.hit.len()];
        for m in &maps {
            if ["java/", "javax/", "jdk/", "sun/", "com/sun/"]
                .iter()
                .any(|p| m.class_name.starts_with(p))
            {
                for p in &m.probes {
                    if let Some(j) = jdk.get_mut(p.id as usize) {
                        *j = true;
                    }
                }
            }
            for p in &m.probes {
                if m.methods
                    .get(p.method as usize)
                    .is_some_and(|mp| mp.name == "<clinit>")
                    && let Some(c) = clinit.get_mut(p.id as usize)
                {
                    *c = true;
                }
            }
        }
        CovGuide {
            clinit,
            jdk,
            tracker,
            maps,
            op_method,
            series: vec![(0.0, 0, 0)],
            new_coverage_seqs: 0,
            last_new_branch: None,
            start: None,
            switch_probes,
            switch_keys,
        }
    }

    /// Line / branch / method coverage per class so far.
    pub fn summaries(&self) -> Vec<crate::coverage::ClassSummary> {
        crate::coverage::summarize(&self.maps, &self.tracker.hit)
    }
}

/// When the project's own tests' coverage steers generation (`gen --project`, see
/// [`Steer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SteerWhen {
    /// At the first batch after it arrives (a first run: its own suite runs beside
    /// generation, so that a suite of a minute does not eat the time limit).
    Arrival,
    /// At the first batch from this many sequences on, waiting for it: a re-run replays
    /// the point an earlier run recorded; `At(0)` for a run bounded by a count, which must
    /// not depend on how fast the suite ran.
    At(u64),
    /// Never (a replay of a run that was not steered).
    Never,
}

/// The project's own tests' coverage, on its way to the generator: once it is applied the
/// branches those tests cover no longer draw guidance (`MethodCov::open`), so the time goes
/// to the classes and methods the project's suite leaves uncovered (issue 33, item 5: add
/// what the suite lacks instead of repeating it). Where it was applied is recorded
/// (`applied_at`), so that a re-run with the same options generates the same sequences.
pub struct Steer {
    rx: std::sync::mpsc::Receiver<Vec<bool>>,
    when: SteerWhen,
    /// The count of sequences generated when the coverage was applied.
    pub applied_at: Option<u64>,
}

impl Steer {
    pub fn new(rx: std::sync::mpsc::Receiver<Vec<bool>>, when: SteerWhen) -> Steer {
        Steer {
            rx,
            when,
            applied_at: None,
        }
    }

    /// The own tests' probes, when they are to be applied now, `generated` sequences into
    /// the run (`None` before, after, or when the suite could not be measured).
    pub(super) fn due(&mut self, generated: u64) -> Option<Vec<bool>> {
        if self.applied_at.is_some() {
            return None;
        }
        let got = match self.when {
            SteerWhen::Never => return None,
            SteerWhen::Arrival => match self.rx.try_recv() {
                Ok(hit) => hit,
                Err(std::sync::mpsc::TryRecvError::Empty) => return None,
                Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                    self.when = SteerWhen::Never;
                    return None;
                }
            },
            SteerWhen::At(k) if generated >= k => match self.rx.recv() {
                Ok(hit) => hit,
                Err(_) => {
                    self.when = SteerWhen::Never;
                    return None;
                }
            },
            SteerWhen::At(_) => return None,
        };
        self.applied_at = Some(generated);
        Some(got)
    }
}
