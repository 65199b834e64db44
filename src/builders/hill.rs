//! Hill climbing (seed 001, BEAPI section 3.3): fitness is the number of distinct structures
//! the set builds at the scope. Start from the best single constructor or factory (with its
//! creator chain when it builds another class: `builder(String)` + `Builder.build()` for a
//! class behind a builder, since neither alone builds one of the class); at each
//! step add the method that raises the fitness most; stop when none raises it. Ties go to the
//! method with fewer and simpler parameters (primitive 1, reference `w3`, seed 004), then to
//! the smaller signature, so the result is deterministic.
//!
//! Every successor of a step is a closure started from the current set's closure (its
//! structures are a subset of the answer), and all of them are computed together, so their
//! missing combinations share the workers' batches (see space.rs).

use super::bits::Bits;
use super::space::{Closure, Space, Wave};
use anyhow::bail;
use std::time::Instant;

#[derive(Clone, Debug, serde::Serialize)]
pub struct Step {
    pub step: u32,
    /// The method added (at step 1 the constructor or factory, with its creator chain:
    /// signatures joined by ` + `).
    pub added: String,
    pub set: Vec<String>,
    pub structures: u64,
    /// Candidate sets measured in this step.
    pub evaluated: usize,
    /// Sequences the step ran (combinations no earlier step had run).
    pub sequences: u64,
    pub seconds: f64,
}

pub struct Outcome {
    pub builders: Vec<u32>,
    pub structures: u64,
    pub steps: Vec<Step>,
    pub evaluations: usize,
    pub closure: Closure,
}

/// Orders candidates: more structures first, then lighter parameters, then signature.
fn better(space: &Space, w3: f64, a: (u64, u32), b: (u64, u32)) -> bool {
    better_set(space, w3, (a.0, &[a.1]), (b.0, &[b.1]))
}

/// [`better`] for sets of operations (creator chains): more structures, then lighter
/// parameters in total, then fewer operations, then signatures.
fn better_set(space: &Space, w3: f64, a: (u64, &[u32]), b: (u64, &[u32])) -> bool {
    let (fa, ua) = a;
    let (fb, ub) = b;
    if fa != fb {
        return fa > fb;
    }
    let weight = |s: &[u32]| -> f64 { s.iter().map(|&u| space.ops[u as usize].weight(w3)).sum() };
    let (wa, wb) = (weight(ua), weight(ub));
    if wa != wb {
        return wa < wb;
    }
    if ua.len() != ub.len() {
        return ua.len() < ub.len();
    }
    let names = |s: &[u32]| -> Vec<&str> {
        s.iter()
            .map(|&u| space.ops[u as usize].signature.as_str())
            .collect()
    };
    names(ua) < names(ub)
}

pub fn climb(
    space: &mut Space,
    candidates: &[u32],
    w3: f64,
    progress: &mut dyn FnMut(&Step),
    wave: &mut dyn FnMut(&Wave),
) -> anyhow::Result<Outcome> {
    let mut steps = Vec::new();
    // step 1: the best single constructor or factory
    let started = Instant::now();
    let explored = space.explored();
    let (first, mut fitness, mut curr, creators) = best_creator(space, candidates, w3, wave)?;
    let mut evaluations = creators;
    let mut builders = first;
    let s = Step {
        step: 1,
        added: set_names(space, &builders).join(" + "),
        set: set_names(space, &builders),
        structures: fitness,
        evaluated: creators,
        sequences: space.explored() - explored,
        seconds: started.elapsed().as_secs_f64(),
    };
    progress(&s);
    steps.push(s);
    loop {
        let started = Instant::now();
        let explored = space.explored();
        let rest: Vec<u32> = candidates
            .iter()
            .copied()
            .filter(|u| !builders.contains(u) && !space.excluded.contains_key(u))
            .collect();
        if rest.is_empty() {
            break;
        }
        let best = best_addition(space, &curr, &rest, w3, wave)?;
        evaluations += rest.len();
        let Some((f, u, closure)) = best else { break };
        if f <= fitness {
            break;
        }
        fitness = f;
        curr = closure;
        builders.push(u);
        let s = Step {
            step: steps.len() as u32 + 1,
            added: space.ops[u as usize].signature.clone(),
            set: set_names(space, &builders),
            structures: fitness,
            evaluated: rest.len(),
            sequences: space.explored() - explored,
            seconds: started.elapsed().as_secs_f64(),
        };
        progress(&s);
        steps.push(s);
    }
    Ok(Outcome {
        builders,
        structures: fitness,
        steps,
        evaluations,
        closure: curr,
    })
}

/// The signatures of a set.
fn set_names(space: &Space, b: &[u32]) -> Vec<String> {
    b.iter()
        .map(|&u| space.ops[u as usize].signature.clone())
        .collect()
}

/// Step 1: the constructor or static factory whose closure builds most, each with its
/// creator chain (`Space::creator_chain`: a factory of a builder class needs the builder's
/// `build()` to build anything of the class, so it is measured with it), as (the chain,
/// its structures, its closure, how many creators were measured); an error when there is
/// none or none builds a structure.
fn best_creator(
    space: &mut Space,
    candidates: &[u32],
    w3: f64,
    wave: &mut dyn FnMut(&Wave),
) -> anyhow::Result<(Vec<u32>, u64, Closure, usize)> {
    let chains: Vec<Vec<u32>> = candidates
        .iter()
        .copied()
        .filter(|&u| space.ops[u as usize].is_creator())
        .map(|u| {
            space
                .creator_chain(u, candidates)
                .unwrap_or_else(|| vec![u])
        })
        .collect();
    if chains.is_empty() {
        bail!(
            "no constructor or static factory among the candidate methods: nothing can build a \
             first structure (check --methods and the class's public constructors)"
        );
    }
    let mut closures: Vec<Closure> = chains
        .iter()
        .map(|c| Closure::of(&Bits::from_indices(c.iter().copied())))
        .collect();
    space.close(&mut closures, wave)?;
    let mut best: Option<(u64, usize)> = None;
    for (i, chain) in chains.iter().enumerate() {
        let f = space.structures(&closures[i]);
        if best.is_none_or(|(bf, bi)| better_set(space, w3, (f, chain), (bf, &chains[bi]))) {
            best = Some((f, i));
        }
    }
    let Some((fitness, at)) = best else {
        bail!("internal error: no creator measured");
    };
    if fitness == 0 {
        bail!(
            "no constructor, static factory or builder chain (a factory, then the builder's \
             build()) builds a structure of the class at this scope (each one threw or went \
             out of scope): try a larger --scope or other domains"
        );
    }
    let n = chains.len();
    Ok((chains[at].clone(), fitness, closures.swap_remove(at), n))
}

/// The method of `rest` whose addition to the current closure `curr` builds most (all
/// successors closed together; those over the combination budget left out), as (its
/// structures, the method, the closure).
fn best_addition(
    space: &mut Space,
    curr: &Closure,
    rest: &[u32],
    w3: f64,
    wave: &mut dyn FnMut(&Wave),
) -> anyhow::Result<Option<(u64, u32, Closure)>> {
    let mut closures: Vec<Closure> = rest.iter().map(|&u| curr.with(u)).collect();
    space.close(&mut closures, wave)?;
    let mut best: Option<(u64, u32, usize)> = None;
    for (i, &u) in rest.iter().enumerate() {
        if closures[i].over_budget.is_some() {
            continue;
        }
        let f = space.structures(&closures[i]);
        if best.is_none_or(|(bf, bu, _)| better(space, w3, (f, u), (bf, bu))) {
            best = Some((f, u, i));
        }
    }
    Ok(best.map(|(f, u, at)| (f, u, closures.swap_remove(at))))
}
