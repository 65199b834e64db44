//! The genetic algorithm of seed 004 (Ponzio et al., FASE'19, Algorithm 1, after JGAP's
//! defaults): boolean chromosomes over the candidate methods; the initial population is every
//! feasible single-method set (a factory of a builder class with its creator chain, see
//! hill.rs); each evolution keeps the `population` fittest, makes
//! `population x crossover` single-point crossovers of random pairs (two children each), and
//! a mutated copy of every kept chromosome (each gene flipped with probability `mutation`)
//! when at least one gene flipped; new chromosomes join the population. After `generations`
//! evolutions the fittest chromosome ever seen is the answer.
//!
//! Fitness (seed 004, 4.2): the number of field-extension triples of the structures the set
//! builds, plus a tie-break term in [0, 1]:
//! `[w1 (1 - |M|/|MT|) + w2 (1 - (PP(M) + w3 RP(M)) / (PP(MT) + w3 RP(MT)))] / (w1 + w2)`.
//! Deviations, both measured on the subjects of tests/subjects/exhaustive:
//! - the paper collects field extensions from a bounded random run (its modified Randoop);
//!   here they come from the bounded-exhaustive structures of the set at the scope (the same
//!   closures hill climbing counts): exact, deterministic, cached per chromosome;
//! - field extensions are an abstraction (per field, the values seen): sets that build
//!   different structures can have the same ones. NodeCachingLinkedList with clear() instead
//!   of remove(int) misses 490 of 5,610 structures (those with a cache filled while the
//!   list is not empty, under a small cache limit), RedBlackTree without remove misses 10
//!   colourings, and neither adds one field value; with the paper's fitness the tie-break
//!   term then prefers the smaller, insufficient set. So sets with equal field extensions are
//!   ranked by the number of structures they build (exact, from the same closures) before
//!   the tie-break term. `--paper-fitness` ranks by the paper's formula alone.
//!
//! Random choices use a ChaCha8 stream seeded by --seed, and fitness does not depend on timing
//! or workers, so a seed always gives the same run.

use super::bits::Bits;
use super::space::{Closure, Space, Wave};
use anyhow::bail;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::time::Instant;

#[derive(Clone, Debug, serde::Serialize)]
pub struct Params {
    pub generations: u32,
    pub population: usize,
    pub crossover: f64,
    pub mutation: f64,
    pub w1: f64,
    pub w2: f64,
    pub w3: f64,
    pub seed: u64,
    /// Rank by the paper's formula alone (no structure count between field extensions and
    /// the tie-break term).
    pub paper_fitness: bool,
}

impl Default for Params {
    /// The paper's values (numEvo 20, popSize 30, cRate 0.35, mRate 0.08; w1 2, w2 1, w3 2).
    fn default() -> Self {
        Params {
            generations: 20,
            population: 30,
            crossover: 0.35,
            mutation: 0.08,
            w1: 2.0,
            w2: 1.0,
            w3: 2.0,
            seed: 0,
            paper_fitness: false,
        }
    }
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Generation {
    pub generation: u32,
    pub best: Vec<String>,
    pub fitness: f64,
    pub field_extensions: usize,
    pub structures: u64,
    pub population: usize,
    /// Chromosomes measured for the first time in this generation.
    pub evaluated: usize,
    pub sequences: u64,
    pub seconds: f64,
}

pub struct Outcome {
    pub builders: Vec<u32>,
    pub fitness: f64,
    pub field_extensions: usize,
    pub generations: Vec<Generation>,
    pub evaluations: usize,
}

#[derive(Clone, Copy, Debug)]
struct Score {
    /// The paper's fitness: field extensions plus the tie-break term.
    fitness: f64,
    field_ext: usize,
    structures: u64,
}

impl Score {
    /// Fitter first: field extensions, then (unless `paper`) structures, then the tie-break
    /// term (`fitness - field_ext`).
    fn cmp(&self, other: &Score, paper: bool) -> std::cmp::Ordering {
        let key = |s: &Score| (s.field_ext, if paper { 0 } else { s.structures });
        key(other)
            .cmp(&key(self))
            .then_with(|| other.fitness.total_cmp(&self.fitness))
    }
}

struct Ga<'s, 'a> {
    space: &'s mut Space<'a>,
    genes: Vec<u32>,
    params: Params,
    cache: HashMap<Vec<bool>, Score>,
    /// PP(MT) + w3 RP(MT).
    total_weight: f64,
}

impl Ga<'_, '_> {
    /// The operation set of a chromosome, without the operations over the budget.
    fn set_of(&self, c: &[bool]) -> Bits {
        Bits::from_indices(
            c.iter()
                .zip(&self.genes)
                .filter(|(on, u)| **on && !self.space.excluded.contains_key(u))
                .map(|(_, &u)| u),
        )
    }

    fn tie_term(&self, set: &Bits) -> f64 {
        let p = &self.params;
        let n = set.len() as f64 / self.genes.len().max(1) as f64;
        let w: f64 = set
            .iter()
            .map(|u| self.space.ops[u as usize].weight(p.w3))
            .sum();
        let complexity = if self.total_weight > 0.0 {
            w / self.total_weight
        } else {
            0.0
        };
        (p.w1 * (1.0 - n) + p.w2 * (1.0 - complexity)) / (p.w1 + p.w2)
    }

    /// Measures the chromosomes not in the cache (together: their missing combinations share
    /// the workers' batches).
    fn evaluate(
        &mut self,
        chromosomes: &[Vec<bool>],
        wave: &mut dyn FnMut(&Wave),
    ) -> anyhow::Result<usize> {
        let mut todo: Vec<Vec<bool>> = Vec::new();
        for c in chromosomes {
            if !self.cache.contains_key(c) && !todo.contains(c) {
                todo.push(c.clone());
            }
        }
        let mut pending = todo.clone();
        while !pending.is_empty() {
            let sets: Vec<Bits> = pending.iter().map(|c| self.set_of(c)).collect();
            let mut closures: Vec<Closure> = sets.iter().map(Closure::of).collect();
            self.space.close(&mut closures, wave)?;
            // chromosomes whose closure went over the budget are measured again without the
            // operation now excluded
            let mut again = Vec::new();
            let mut done: Vec<(Vec<bool>, &Closure, Bits)> = Vec::new();
            for ((c, cl), set) in pending.iter().zip(&closures).zip(sets) {
                if cl.over_budget.is_some() {
                    again.push(c.clone());
                } else {
                    done.push((c.clone(), cl, set));
                }
            }
            let refs: Vec<&Closure> = done.iter().map(|d| d.1).collect();
            let ext = self.space.field_extensions(&refs)?;
            for ((c, cl, set), fe) in done.into_iter().zip(ext) {
                let structures = self.space.structures(cl);
                let fitness = fe as f64 + self.tie_term(&set);
                self.cache.insert(
                    c,
                    Score {
                        fitness,
                        field_ext: fe,
                        structures,
                    },
                );
            }
            pending = again;
        }
        Ok(todo.len())
    }

    fn score(&self, c: &[bool]) -> Score {
        self.cache.get(c).copied().unwrap_or(Score {
            fitness: f64::NEG_INFINITY,
            field_ext: 0,
            structures: 0,
        })
    }

    /// Fitter first; equal fitness: the smaller chromosome (as bits) first.
    fn rank(&self, pop: &mut Vec<Vec<bool>>) {
        let paper = self.params.paper_fitness;
        pop.sort_by(|a, b| {
            self.score(a)
                .cmp(&self.score(b), paper)
                .then_with(|| a.cmp(b))
        });
        pop.dedup();
    }

    fn names(&self, c: &[bool]) -> Vec<String> {
        self.set_of(c)
            .iter()
            .map(|u| self.space.ops[u as usize].signature.clone())
            .collect()
    }
}

pub fn evolve(
    space: &mut Space,
    candidates: &[u32],
    params: &Params,
    progress: &mut dyn FnMut(&Generation),
    wave: &mut dyn FnMut(&Wave),
) -> anyhow::Result<Outcome> {
    let mut genes = candidates.to_vec();
    genes.sort_unstable();
    let total_weight = genes
        .iter()
        .map(|&u| space.ops[u as usize].weight(params.w3))
        .sum();
    if genes.is_empty() {
        bail!("no candidate methods: every method was classified as an observer");
    }
    let mut ga = Ga {
        space,
        genes,
        params: params.clone(),
        cache: HashMap::new(),
        total_weight,
    };
    let mut rng = ChaCha8Rng::seed_from_u64(params.seed);
    let mut generations = Vec::new();
    // initial population: every feasible single-method set
    let mark = Mark::now(ga.space);
    let (mut pop, mut evaluations) = ga.initial_population(wave)?;
    ga.rank(&mut pop);
    let mut best = pop[0].clone();
    let g0 = ga.record(0, &best, pop.len(), evaluations, &mark);
    progress(&g0);
    generations.push(g0);
    for generation in 1..=params.generations {
        let mark = Mark::now(ga.space);
        let evaluated = ga.next_generation(&mut pop, &mut rng, wave)?;
        evaluations += evaluated;
        if ga
            .score(&pop[0])
            .cmp(&ga.score(&best), params.paper_fitness)
            == std::cmp::Ordering::Less
        {
            best = pop[0].clone();
        }
        let g = ga.record(generation, &best, pop.len(), evaluated, &mark);
        progress(&g);
        generations.push(g);
    }
    let s = ga.score(&best);
    let builders: Vec<u32> = ga.set_of(&best).iter().collect();
    Ok(Outcome {
        builders,
        fitness: s.fitness,
        field_extensions: s.field_ext,
        generations,
        evaluations,
    })
}

/// Where a generation started: the time and the sequences explored so far.
struct Mark {
    started: Instant,
    explored: u64,
}

impl Mark {
    /// Now, and the sequences `space` has explored so far.
    fn now(space: &Space) -> Mark {
        Mark {
            started: Instant::now(),
            explored: space.explored(),
        }
    }
}

impl Ga<'_, '_> {
    /// Every feasible single-method set (one that builds a structure), measured; returns
    /// them and how many chromosomes were measured. A factory of a builder class comes with
    /// its creator chain (`Space::creator_chain`: `builder(String)` + `Builder.build()`),
    /// without which it builds nothing of the class.
    fn initial_population(
        &mut self,
        wave: &mut dyn FnMut(&Wave),
    ) -> anyhow::Result<(Vec<Vec<bool>>, usize)> {
        let n = self.genes.len();
        let mut singles: Vec<Vec<bool>> = (0..n)
            .map(|i| {
                let mut c = vec![false; n];
                c[i] = true;
                let u = self.genes[i];
                if self.space.ops[u as usize].is_creator()
                    && let Some(chain) = self.space.creator_chain(u, &self.genes)
                {
                    for v in chain {
                        if let Ok(at) = self.genes.binary_search(&v) {
                            c[at] = true;
                        }
                    }
                }
                c
            })
            .collect();
        singles.dedup();
        let evaluated = self.evaluate(&singles, wave)?;
        let pop: Vec<Vec<bool>> = singles
            .into_iter()
            .filter(|c| self.score(c).structures > 0)
            .collect();
        if pop.is_empty() {
            bail!(
                "no single method builds a structure of the class at this scope (no constructor \
                 or static factory among the candidates, or each one throws): nothing to evolve"
            );
        }
        Ok((pop, evaluated))
    }

    /// One evolution: the popSize fittest are kept, their children and mutants measured and
    /// added, the whole ranked; returns how many chromosomes were measured for the first
    /// time.
    fn next_generation(
        &mut self,
        pop: &mut Vec<Vec<bool>>,
        rng: &mut ChaCha8Rng,
        wave: &mut dyn FnMut(&Wave),
    ) -> anyhow::Result<usize> {
        // natural selection: the popSize fittest
        self.rank(pop);
        pop.truncate(self.params.population.max(1));
        let mut offspring = self.crossovers(pop, rng);
        self.mutants(pop, rng, &mut offspring);
        let evaluated = self.evaluate(&offspring, wave)?;
        pop.extend(offspring);
        self.rank(pop);
        Ok(evaluated)
    }

    /// Single-point crossover of random pairs, popSize x cRate times (two children each).
    fn crossovers(&self, pop: &[Vec<bool>], rng: &mut ChaCha8Rng) -> Vec<Vec<bool>> {
        let n = self.genes.len();
        let params = &self.params;
        let mut offspring: Vec<Vec<bool>> = Vec::new();
        let crossovers = (params.population as f64 * params.crossover) as usize;
        for _ in 0..crossovers {
            let a = &pop[rng.random_range(0..pop.len())];
            let b = &pop[rng.random_range(0..pop.len())];
            let point = if n > 1 { rng.random_range(1..n) } else { 0 };
            let mut c1 = a[..point].to_vec();
            c1.extend_from_slice(&b[point..]);
            let mut c2 = b[..point].to_vec();
            c2.extend_from_slice(&a[point..]);
            offspring.push(c1);
            offspring.push(c2);
        }
        offspring
    }

    /// A mutated copy of every kept chromosome (each gene flipped with probability
    /// `mutation`), added to `offspring` when at least one gene flipped.
    fn mutants(&self, pop: &[Vec<bool>], rng: &mut ChaCha8Rng, offspring: &mut Vec<Vec<bool>>) {
        for c in pop {
            let mut m = c.clone();
            let mut flipped = false;
            for g in m.iter_mut() {
                if rng.random_bool(self.params.mutation.clamp(0.0, 1.0)) {
                    *g = !*g;
                    flipped = true;
                }
            }
            if flipped {
                offspring.push(m);
            }
        }
    }

    /// The progress record of a generation: its best chromosome and figures since `mark`.
    fn record(
        &self,
        generation: u32,
        best: &[bool],
        population: usize,
        evaluated: usize,
        mark: &Mark,
    ) -> Generation {
        let sequences = self.space.explored() - mark.explored;
        let seconds = mark.started.elapsed().as_secs_f64();
        let s = self.score(best);
        Generation {
            generation,
            best: self.names(best),
            fitness: s.fitness,
            field_extensions: s.field_ext,
            structures: s.structures,
            population,
            evaluated,
            sequences,
            seconds,
        }
    }
}
