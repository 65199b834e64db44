//! Assembling a batch of new sequences: each class's weight, the choice of the next
//! operation (by class, coverage or successes), and its inputs from the values of earlier
//! sequences, literals, arrays, nulls and lambdas.

use super::candidates::{Component, TypeId};
use super::generator::{Built, Draft, Generator, Reusable};
use super::oversized::{sizes, small_size};
use crate::generate::literals::{LiteralChoices, LiteralPool};
use crate::generate::ops::is_literal_type;
use crate::model::JType;
use crate::sequence::{OpId, OpKind, Sequence, Stmt, Value};
use rand::Rng;
use std::collections::HashSet;
use std::sync::Arc;

/// The most uncovered branches that raise a class's weight: past it, a big class does not
/// starve the others.
const CLASS_UNCOVERED_CAP: u32 = 200;

/// Chance that a literal argument of an operation with a comparison pool comes from it.
const OP_LITERAL_P: f64 = 0.5;

/// Chance that a String literal is a mutant of a pool string (`literals::mutate_string`)
/// rather than the pool string itself.
const STRING_MUTANT_P: f64 = 0.25;

/// Chance that a String mutant is another String of the sequence spliced into the base
/// instead (see `draft_splice`).
const SPLICE_P: f64 = 0.3;

/// Chance that an argument of an operation with cast types (`OpSet::casts`) is picked among
/// the values of one of them (see `cast_hint`).
const CAST_HINT_P: f64 = 0.3;

/// Chance that the argument of `equals(Object)` is a peer of the receiver
/// ([`Generator::equals_peer`]) rather than any value.
const EQUALS_PEER_P: f64 = 0.5;

/// How often a `CharSequence` argument is a String literal wrapped in a `new
/// StringBuilder(..)` (`OpSet::char_sequence_op`), where the class has such parameters.
const CHAR_SEQUENCE_WRAP_P: f64 = 0.1;

impl<'a> Generator<'a> {
    /// Each class's weight in the choice of the next operation, from the coverage so far
    /// (once per batch): 1 + a tenth of the uncovered branches of the methods its operations
    /// run (at most [`CLASS_UNCOVERED_CAP`]), counting only operations that have run at
    /// least once (reachable: a class nothing can build a receiver for keeps weight 1
    /// instead of drawing picks that fail to assemble), 0 when all its operations are
    /// excluded. Why: picking operations uniformly gave a class with 100 methods 100 times
    /// the sequences of one with a method, covered or not; now every class gets a share
    /// and the time goes where branches are left (issue 22, req. 6). Without coverage or
    /// guidance every class weighs 1.
    ///
    /// Deterministic whatever the number of workers: the tracker is fed with results in
    /// generation order (`Pool::collect` returns them in request order), a batch is built
    /// from the results of the batches before the one in flight, and the worker leaves out
    /// of a sequence's probes what ran before its first statement (its own bookkeeping on
    /// instrumented JDK classes, which depends on that worker's history; see
    /// ARCHITECTURE.md, "Budget by class").
    fn refresh_class_weights(&mut self) {
        let mut seen: HashSet<u32> = HashSet::new();
        let guided = self.cfg.guidance;
        self.class_weight = self
            .class_ops
            .iter()
            .map(|ops| {
                if ops.iter().all(|&o| self.stats[o as usize].excluded) {
                    return 0.0;
                }
                let Some(g) = self.cov.as_ref().filter(|_| guided) else {
                    return 1.0;
                };
                seen.clear();
                let uncovered: u32 = ops
                    .iter()
                    .filter(|&&o| self.stats[o as usize].calls > 0)
                    .filter_map(|&o| g.op_method[o as usize])
                    .filter(|&m| seen.insert(m))
                    .map(|m| g.tracker.methods[m as usize].open())
                    .sum();
                1.0 + f64::from(uncovered.min(CLASS_UNCOVERED_CAP)) / 10.0
            })
            .collect();
    }

    /// The class whose operation comes next, by weight (`None` with one class, or none
    /// weighs anything).
    fn pick_class(&mut self) -> Option<usize> {
        if self.class_ops.len() < 2 || self.class_weight.len() != self.class_ops.len() {
            return None;
        }
        let total: f64 = self.class_weight.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let mut x = self.rng.random::<f64>() * total;
        for (i, w) in self.class_weight.iter().enumerate() {
            x -= w;
            if *w > 0.0 && x <= 0.0 {
                return Some(i);
            }
        }
        self.class_weight.iter().rposition(|&w| w > 0.0)
    }

    /// The operations not excluded of the pool the next pick draws from: a class's
    /// (`pick_class`), helpers' (`use_secondary`) or views'.
    fn live_pool(&mut self, use_secondary: bool, use_views: bool) -> Vec<OpId> {
        let class = if use_views || use_secondary || self.ops.primary.is_empty() {
            None
        } else {
            self.pick_class()
        };
        let pool = if use_views {
            &self.ops.views
        } else if use_secondary || self.ops.primary.is_empty() {
            &self.ops.secondary
        } else if let Some(c) = class {
            &self.class_ops[c]
        } else {
            &self.ops.primary
        };
        let live: Vec<OpId> = pool
            .iter()
            .copied()
            .filter(|&o| !self.stats[o as usize].excluded)
            .collect();
        if live.is_empty() && class.is_some() {
            // excluded since the weights were set: any class's
            return self
                .ops
                .primary
                .iter()
                .copied()
                .filter(|&o| !self.stats[o as usize].excluded)
                .collect();
        }
        live
    }

    fn pick_op(&mut self) -> Option<OpId> {
        let use_secondary = !self.ops.secondary.is_empty() && self.rng.random_bool(0.1);
        // Coverage guidance reaches nested classes under test through the objects
        // operations return (OpSet::views): a quarter of the choices.
        let use_views = !use_secondary
            && self.cov.is_some()
            && self.cfg.guidance
            && !self.ops.views.is_empty()
            && self.rng.random_bool(0.25);
        let live = self.live_pool(use_secondary, use_views);
        if live.is_empty() {
            return None;
        }
        if let Some(g) = &self.cov
            && self.cfg.guidance
            && !use_secondary
            && self.rng.random_bool(0.5)
        {
            // Coverage guidance: weight 1 + uncovered branches of the op's own method (capped),
            // so methods whose code still has unexplored branches are called more.
            let w: Vec<f64> = live
                .iter()
                .map(|&o| {
                    let unc =
                        g.op_method[o as usize].map_or(0, |m| g.tracker.methods[m as usize].open());
                    1.0 + unc.min(64) as f64
                })
                .collect();
            let total: f64 = w.iter().sum();
            let mut x = self.rng.random::<f64>() * total;
            for (i, wi) in w.iter().enumerate() {
                x -= wi;
                if x <= 0.0 {
                    return Some(live[i]);
                }
            }
            return live.last().copied();
        }
        if self.cfg.adaptive && !use_secondary {
            // Weight 1 / (1 + successes): methods with few successful sequences are favoured.
            let w: Vec<f64> = live
                .iter()
                .map(|&o| 1.0 / (1.0 + self.stats[o as usize].successes as f64))
                .collect();
            let total: f64 = w.iter().sum();
            let mut x = self.rng.random::<f64>() * total;
            for (i, wi) in w.iter().enumerate() {
                x -= wi;
                if x <= 0.0 {
                    return Some(live[i]);
                }
            }
            return live.last().copied();
        }
        Some(live[self.rng.random_range(0..live.len())])
    }

    /// Build one new sequence ending in a call of `op`, or `None` when inputs are missing.
    fn assemble(&mut self, op_id: OpId) -> Option<Built> {
        let op = self.ops.table.get(op_id);
        let inputs = self.op_inputs[op_id as usize].clone();
        let mut b = Draft {
            seq: Sequence {
                stmts: Vec::with_capacity(self.cfg.max_len + 1),
            },
            tids: Vec::with_capacity(self.cfg.max_len + 1),
            has_null: false,
            classes: Vec::new(),
        };
        let mut parents = Vec::new();
        let mut args = Vec::with_capacity(inputs.len());
        let receiver_slots = usize::from(op.has_receiver() || op.outer_instance);
        // What a stub's methods return: a value of the pool (never a random null, as for a
        // receiver), `null` only when the pool has none (ops::build_ops_with_stubs).
        let stub_values = op.stub.as_ref().map_or(usize::MAX, |s| s.super_params);
        self.building = Some(op_id);
        // (Not for `Object.equals`, identity: a peer cannot reach anything there, and the
        // random draw alone would move every class's stream.)
        let peer =
            op.is_equals() && op.class != "java.lang.Object" && self.rng.random_bool(EQUALS_PEER_P);
        for (i, &need) in inputs.iter().enumerate() {
            let returned = i >= stub_values;
            let idx = if peer && i == 1 {
                self.equals_peer(&mut b, &mut parents, args[0])
            } else {
                None
            };
            let receiver = i < receiver_slots || returned;
            let need = if receiver || idx.is_some() {
                need
            } else {
                self.cast_hint(op_id, need).unwrap_or(need)
            };
            let idx = idx
                .or_else(|| self.pick_value(&mut b, &mut parents, need, receiver, 0))
                .or_else(|| returned.then(|| self.push_null(&mut b, need)));
            let Some(idx) = idx else {
                self.building = None;
                return None;
            };
            args.push(idx);
        }
        self.building = None;
        if self.mutates_shared(op_id, &b, &args) {
            return None;
        }
        let call = Stmt::Call { op: op_id, args };
        let ret = self.op_ret[op_id as usize];
        b.seq.stmts.push(call.clone());
        b.tids.push(ret);
        // Repetition (p 0.1, 0..=100 more copies): what makes deep states reachable. Also
        // of a call given its own receiver (`list.addAll(list)`, `sb.append(sb)`), though
        // each copy doubles it: not repeating those cost java.util.LinkedList 4 branches of
        // the coverage corpus and StrBuilder none.
        if op.kind == OpKind::Method && self.rng.random_bool(0.1) {
            let m = self.rng.random_range(0..=100usize);
            for _ in 0..m.min(self.cfg.max_len.saturating_sub(b.seq.len())) {
                b.seq.stmts.push(call.clone());
                b.tids.push(ret);
            }
        }
        // Things of package access of another package than the test's (ops::Reach): a test
        // that would not compile.
        if b.seq.len() > self.cfg.max_len || !self.ops.callable(&b.seq) {
            return None;
        }
        Some(Built {
            comp: Component {
                seq: Arc::new(b.seq),
                tids: b.tids,
                has_null: b.has_null,
                cand: None,
            },
            op: op_id,
            parents,
            classes: b.classes,
        })
    }

    /// Whether calling `op_id` on `args` would write the fields of a shared instance: a
    /// receiver that is the value of a static field (`ToStringStyle.SIMPLE_STYLE`, an enum
    /// constant) and a method whose bytecode writes an object's field (`setNullText(..)`, of
    /// package access) or a field set. Why: the instance is the whole JVM's, so the test would
    /// change every later test that uses it; commons-lang3's own `SimpleToStringStyleTest`
    /// failed under Surefire after a written test set the style's null text. Refused here,
    /// not when candidates are chosen: run, such a call would also change the instance for
    /// the worker's later sequences.
    fn mutates_shared(&self, op_id: OpId, b: &Draft, args: &[u32]) -> bool {
        // the receiver first: a static field's value is rare, the lookup below is a hash
        let shared = args.first().is_some_and(|&r| {
            matches!(&b.seq.stmts[r as usize], Stmt::Call { op, .. }
                if self.ops.table.get(*op).kind == OpKind::StaticFieldGet)
        });
        shared
            && match self.ops.table.get(op_id).kind {
                OpKind::Method => self
                    .ops
                    .field_use
                    .get(&op_id)
                    .is_some_and(|u| u.writes_instance_fields()),
                OpKind::FieldSet => true,
                _ => false,
            }
    }

    /// Sometimes (p [`CAST_HINT_P`]) a narrower type for an argument of `op_id` where `need`
    /// is expected: one of the types its code tests that parameter's kind of value against
    /// (`OpSet::casts`), of which the pool has a value. `None` for the rest, and for an
    /// operation without such types (no random draw then, so other classes' streams stay).
    fn cast_hint(&mut self, op_id: OpId, need: TypeId) -> Option<TypeId> {
        let hints = self.ops.casts.get(&op_id)?;
        if !self.rng.random_bool(CAST_HINT_P) {
            return None;
        }
        let h = hints[self.rng.random_range(0..hints.len())].clone();
        let t = self.tid(&h);
        (t != need && self.is_sub(t, need) && !self.assignable_types(t).is_empty()).then_some(t)
    }

    /// Index of a statement in `b` whose value can be passed where `need` is expected.
    pub(super) fn pick_value(
        &mut self,
        b: &mut Draft,
        parents: &mut Vec<u64>,
        need: TypeId,
        receiver: bool,
        depth: u32,
    ) -> Option<u32> {
        let need_ty = self.types[need as usize].clone();
        // Reuse a value already in the sequence (not a number for an operation that
        // allocates by its arguments: it may be a large one).
        if self.rng.random_bool(0.4)
            && !(sizes(&need_ty) && self.building_allocates())
            && let Some(i) = self.reuse_in_draft(b, need, receiver)
        {
            return Some(i);
        }
        if !receiver && !need_ty.is_prim() && self.rng.random_bool(0.05) {
            return Some(self.push_null(b, need));
        }
        if is_literal_type(&need_ty) {
            return self.pick_literal(b, need, need_ty);
        }
        if let Some(wrap) = self.ops.char_sequence_op
            && need_ty.class_name() == Some("java.lang.CharSequence")
            && self.rng.random_bool(CHAR_SEQUENCE_WRAP_P)
        {
            // a String of the pool in a `new StringBuilder(..)` (OpSet::char_sequence_op)
            let string = self.tid(&JType::string());
            let s = self.pick_literal(b, string, JType::string())?;
            b.seq.stmts.push(Stmt::Call {
                op: wrap,
                args: vec![s],
            });
            b.tids.push(self.op_ret[wrap as usize]);
            return Some(b.seq.len() as u32 - 1);
        }
        if let JType::Array(elem) = &need_ty {
            return self.pick_array(b, parents, need, elem, depth);
        }
        // A component sequence with a reusable value of a subtype.
        let types = self.assignable_types(need);
        let total: usize = types.iter().map(|&t| self.by_type[t as usize].len()).sum();
        if total == 0 {
            // A literal where one fits: a String for Object, CharSequence, Comparable<String>,
            // Serializable; an Integer for Number.
            for lit in [JType::string(), JType::class("java.lang.Integer")] {
                let lt = self.tid(&lit);
                if self.is_sub(lt, need) {
                    return self.pick_value(b, parents, lt, receiver, depth + 1);
                }
            }
            // A lambda for a functional interface nothing made (`forEach(Consumer)`), a
            // class literal for a `Class<X>`.
            let value = crate::generate::ops::lambda_literal(self.model, &need_ty)
                .or_else(|| crate::generate::ops::class_literal(self.model, &need_ty))?;
            b.seq.stmts.push(Stmt::Lit { ty: need_ty, value });
            b.tids.push(Some(need));
            return Some(b.seq.len() as u32 - 1);
        }
        self.append_component(b, parents, &types, total)
    }

    /// The argument of `equals(Object)` on the value of statement `receiver`: another value
    /// of the receiver's type already in `b`, a peer derived from the same values
    /// (`f2 = f1.withQuote('x')`, `c2 = c1.conjugate()`, a builder's `build()` twice with a
    /// setter between), else a value of that type from the pool; `None` when there is none.
    /// Why: `equals` compares field by field (`a == o.a && b == o.b && ...`), and each
    /// field's "differs" branch is reached only by two objects equal in every field before
    /// it; any `Object` (what the parameter type asks for) mostly stops at `getClass() !=
    /// o.getClass()`. Measured on the coverage corpus (BENCHMARKS.md, "Peers for equals"):
    /// TreeMap +40 branches (its views compared with the map they view), a net gain; taking
    /// only peers already in `b`, from a stream of their own, gained less and lost more.
    fn equals_peer(&mut self, b: &mut Draft, parents: &mut Vec<u64>, receiver: u32) -> Option<u32> {
        let ty = b.tids.get(receiver as usize).copied().flatten()?;
        let peers: Vec<u32> = (0..b.seq.len() as u32)
            .filter(|&i| {
                i != receiver
                    && b.tids[i as usize].is_some_and(|t| self.is_sub(t, ty))
                    && !matches!(
                        b.seq.stmts[i as usize],
                        Stmt::Lit {
                            value: Value::Null,
                            ..
                        }
                    )
            })
            .collect();
        if !peers.is_empty() {
            return Some(peers[self.rng.random_range(0..peers.len())]);
        }
        let types = self.assignable_types(ty);
        let total: usize = types.iter().map(|&t| self.by_type[t as usize].len()).sum();
        if total == 0 {
            return None;
        }
        self.append_component(b, parents, &types, total)
    }

    /// Appends a `null` of type `need` to `b`; returns its index.
    fn push_null(&self, b: &mut Draft, need: TypeId) -> u32 {
        b.seq.stmts.push(Stmt::Lit {
            ty: self.types[need as usize].clone(),
            value: Value::Null,
        });
        b.tids.push(Some(need));
        b.has_null = true;
        b.seq.len() as u32 - 1
    }

    /// A statement already in `b` whose value fits `need` (never a `null` for a receiver),
    /// chosen at random.
    fn reuse_in_draft(&mut self, b: &Draft, need: TypeId, receiver: bool) -> Option<u32> {
        let fits: Vec<u32> = (0..b.seq.len())
            .filter(|&i| {
                b.tids[i].is_some_and(|t| self.is_sub(t, need))
                    && !(receiver
                        && matches!(
                            b.seq.stmts[i],
                            Stmt::Lit {
                                value: Value::Null,
                                ..
                            }
                        ))
            })
            .map(|i| i as u32)
            .collect();
        if fits.is_empty() {
            return None;
        }
        Some(fits[self.rng.random_range(0..fits.len())])
    }

    /// Whether the operation whose arguments are being picked ran out of memory before.
    fn building_allocates(&self) -> bool {
        self.building.is_some_and(|op| self.allocates.contains(&op))
    }

    /// A literal of `need_ty` appended to `b`: from the values the operation being built
    /// compared against (half the time, when it has some), else from the run's pool (only
    /// small numbers for an operation that ran out of memory).
    fn pick_literal(&mut self, b: &mut Draft, need: TypeId, need_ty: JType) -> Option<u32> {
        let own = self
            .building
            .and_then(|op| self.op_literals.get(op as usize))
            .and_then(|p| p.as_deref())
            .and_then(|p| p.choices(&need_ty))
            .filter(|c| !c.is_empty());
        let v = if let Some(ch) = own
            && self.rng.random_bool(OP_LITERAL_P)
        {
            ch.get(self.rng.random_range(0..ch.len()))
        } else if sizes(&need_ty) && self.building_allocates() {
            let ch = self.literals.choices(&need_ty)?;
            let small: Vec<Value> = (0..ch.len())
                .map(|i| ch.get(i))
                .filter(small_size)
                .collect();
            if small.is_empty() {
                return None;
            }
            small[self.rng.random_range(0..small.len())].clone()
        } else {
            let ch = self.literals.choices(&need_ty)?;
            if ch.is_empty() {
                return None;
            }
            let v = ch.get(self.rng.random_range(0..ch.len()));
            match v {
                Value::Str(base)
                    if self.compares() && self.shape_rng.random_bool(STRING_MUTANT_P) =>
                {
                    let spliced = self.draft_splice(b, &base);
                    Value::Str(spliced.unwrap_or_else(|| self.string_mutant(&base)))
                }
                v => v,
            }
        };
        b.seq.stmts.push(Stmt::Lit {
            ty: need_ty,
            value: v,
        });
        b.tids.push(Some(need));
        Some(b.seq.len() as u32 - 1)
    }

    /// Whether the operation whose arguments are being picked compared values in its code
    /// (it has a comparison pool): only its String arguments are mutated. Why not every
    /// String: a String that is only stored or hashed (a list's element) branches on no
    /// shape, and changing it moves the rest of the run for nothing (measured on the
    /// corpus: `java.util.LinkedList`'s run took another way and lost 11 branches).
    /// A String given to a `StringReader` is mutated too: it is the text the code under test
    /// reads and compares character by character (Commons CSV's `ExtendedBufferedReader`
    /// counts lines at `'\r'`; its readers held only "a", "10" and "hi!", and the fault of
    /// Defects4J Csv-1 went unseen).
    fn compares(&self) -> bool {
        self.building.is_some_and(|op| {
            self.op_literals
                .get(op as usize)
                .is_some_and(|p| p.is_some())
                || self.makes_text(op)
        })
    }

    /// Whether `op` makes a `StringReader`: its String is text the code under test reads.
    fn makes_text(&self, op: OpId) -> bool {
        self.ops
            .table
            .get(op)
            .ret
            .as_ref()
            .and_then(|r| r.class_name())
            .is_some_and(|c| c == "java.io.StringReader")
    }

    /// Sometimes (p [`SPLICE_P`]) `base` with a String of the sequence built so far inserted
    /// at a random place: a text that holds the delimiter, separator or prefix an earlier
    /// argument set (`format.withDelimiter("||")` then `format.print("a||b", ..)`,
    /// `split(text, sep)` with `sep` first). `None` when the draft has no short String
    /// other than `base` (no random draw then).
    fn draft_splice(&mut self, b: &Draft, base: &str) -> Option<String> {
        let mut found: Vec<&str> = Vec::new();
        for s in &b.seq.stmts {
            if let Stmt::Lit {
                value: Value::Str(v),
                ..
            } = s
                && (1..=16).contains(&v.chars().count())
                && v != base
                && !found.contains(&v.as_str())
            {
                found.push(v);
            }
        }
        if found.is_empty() || !self.shape_rng.random_bool(SPLICE_P) {
            return None;
        }
        let piece = found[self.shape_rng.random_range(0..found.len())];
        let at: Vec<usize> = base
            .char_indices()
            .map(|(i, _)| i)
            .chain(std::iter::once(base.len()))
            .collect();
        let i = at[self.shape_rng.random_range(0..at.len())];
        Some(format!("{}{piece}{}", &base[..i], &base[i..]))
    }

    /// A mutant of `base` (`literals::mutate_string`): characters inserted come from what the
    /// operation being built compared against, and what the run's classes compared against.
    fn string_mutant(&mut self, base: &str) -> String {
        let mut chars: Vec<u16> = Vec::new();
        let own = self
            .building
            .and_then(|op| self.op_literals.get(op as usize))
            .and_then(|p| p.as_deref());
        // The text of a reader gets the characters any operation compared against (read()
        // compares what it reads with '\r'; the reader's own constructor compares nothing).
        let is_text = matches!(self.building, Some(op) if own.is_none() && self.makes_text(op));
        let text_pools: Vec<&LiteralPool> = if is_text {
            self.op_literals.iter().flatten().map(|p| &**p).collect()
        } else {
            Vec::new()
        };
        for pool in own.into_iter().chain(text_pools) {
            push_chars(pool, &mut chars);
        }
        // Half the mutants of a reader's text are a short text of the punctuation and
        // control characters compared against ("\r\n", "a\r"; the pools hold each value
        // compared and its neighbours): one inserted at a time into pool strings, they were
        // too rare to be read (shapes.Lines: no carriage return in 20,000 sequences).
        if is_text && self.shape_rng.random_bool(0.5) {
            let mut marks: Vec<char> = chars
                .iter()
                .filter_map(|&u| char::from_u32(u32::from(u)))
                .filter(|c| !c.is_alphanumeric())
                .collect();
            marks.sort_unstable();
            marks.dedup();
            if !marks.is_empty() {
                return crate::generate::literals::text_of(&marks, &mut self.shape_rng);
            }
        }
        push_chars(&self.literals, &mut chars);
        // borrowed, not copied: this runs for every mutant, in the generator's loop
        let strings: &[String] = match self.literals.choices(&JType::string()) {
            Some(LiteralChoices::Strings(s)) => &s[..s.len().min(64)],
            _ => &[],
        };
        crate::generate::literals::mutate_string(base, &chars, strings, &mut self.shape_rng)
    }

    /// An array of 0 to 3 elements of type `elem` appended to `b` (no arrays nested deeper
    /// than one level).
    fn pick_array(
        &mut self,
        b: &mut Draft,
        parents: &mut Vec<u64>,
        need: TypeId,
        elem: &JType,
        depth: u32,
    ) -> Option<u32> {
        if depth > 1 {
            return None;
        }
        let et = self.tid(elem);
        let n = self.rng.random_range(0..=3usize);
        let mut elems = Vec::with_capacity(n);
        for _ in 0..n {
            elems.push(self.pick_value(b, parents, et, false, depth + 1)?);
        }
        b.seq.stmts.push(Stmt::Array {
            elem: elem.clone(),
            elems,
        });
        b.tids.push(Some(need));
        Some(b.seq.len() as u32 - 1)
    }

    /// Appends to `b` a component sequence holding a reusable value of one of `types`
    /// (`total` values in all), and returns that value's statement.
    fn append_component(
        &mut self,
        b: &mut Draft,
        parents: &mut Vec<u64>,
        types: &[TypeId],
        total: usize,
    ) -> Option<u32> {
        // Tournament of two: of two random candidates the shorter sequence wins. This keeps
        // sequences (and tests) short without losing depth, which repetition provides, and
        // halves the copying that dominates the generator's time (bloat control).
        let (k1, k2) = (
            self.rng.random_range(0..total),
            self.rng.random_range(0..total),
        );
        let first = self.nth_value(types, k1);
        let second = self.nth_value(types, k2);
        let chosen = match (first, second) {
            (Some(a), Some(b2)) => Some(if b2.0.seq.len() < a.0.seq.len() {
                b2
            } else {
                a
            }),
            (a, b2) => a.or(b2),
        };
        let (comp, stmt, class) = chosen?;
        if b.seq.len() + comp.seq.len() > self.cfg.max_len {
            return None;
        }
        b.classes.extend(class);
        let off = b.seq.append(&comp.seq);
        b.tids.extend(comp.tids.iter().copied());
        b.has_null |= comp.has_null;
        if let Some(c) = comp.cand {
            parents.push(c);
        }
        Some(off + stmt)
    }

    /// The `k`-th reusable value over the lists of `types`.
    fn nth_value(&self, types: &[TypeId], mut k: usize) -> Option<Reusable> {
        for &t in types {
            let l = self.by_type[t as usize].len();
            if k < l {
                return Some(self.by_type[t as usize][k].clone());
            }
            k -= l;
        }
        None
    }

    pub(super) fn build_batch(&mut self, n: usize) -> Vec<Built> {
        if let Some(hit) = self
            .steer
            .as_mut()
            .and_then(|s| s.due(self.progress.generated))
            && let Some(g) = self.cov.as_mut()
        {
            g.tracker.cover_elsewhere(&hit);
        }
        self.refresh_class_weights();
        let mut out = Vec::with_capacity(n);
        let mut attempts = 0;
        // An operation that crashed or timed out may end at most one sequence per batch, so
        // that a hostile method costs a few worker restarts, not a batch full of them.
        let mut suspects_used: HashSet<OpId> = HashSet::new();
        while out.len() < n && attempts < n * 20 {
            attempts += 1;
            let Some(op) = self.pick_op() else { break };
            if self.blame[op as usize] > 0 && !suspects_used.insert(op) {
                continue;
            }
            let Some(built) = self.assemble(op) else {
                continue;
            };
            let f = built.comp.seq.fingerprint();
            if !self.seen_seqs.insert(f as u64, (f >> 64) as u64) {
                continue;
            }
            out.push(built);
        }
        out
    }
}

/// Appends the `char` values of `pool` to `chars`.
fn push_chars(pool: &LiteralPool, chars: &mut Vec<u16>) {
    if let Some(ch) = pool.choices(&JType::Prim(crate::model::Prim::Char)) {
        for i in 0..ch.len() {
            if let Value::Char(c) = ch.get(i) {
                chars.push(c);
            }
        }
    }
}
