//! Cross-checks the MCS engine against brute force on random small formulas:
//! random 3-CNF hard clauses over a few Boolean variables, soft terms that are
//! random literals, conjunctions or disjunctions, random weights and size
//! bounds, in both orders; with blocking, repeated `next`, and a formula that
//! grows between calls.

use faultline_diagnose::mcs::{enumerate, Mcs, McsEnumerator, McsOptions, Order};
use z3::ast::Bool;
use z3::{SatResult, Solver};

/// xorshift64*: a small, seeded, reproducible generator.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A random problem: hard clauses and soft terms over `vars`.
struct Problem {
    vars: Vec<Bool>,
    hard: Vec<Bool>,
    softs: Vec<Bool>,
    weights: Vec<u64>,
}

impl Problem {
    fn random(rng: &mut Rng, num_vars: usize, num_softs: usize, weighted: bool) -> Problem {
        let vars: Vec<Bool> = (0..num_vars)
            .map(|i| Bool::new_const(format!("x{i}")))
            .collect();
        let mut problem = Problem {
            vars,
            hard: Vec::new(),
            softs: Vec::new(),
            weights: Vec::new(),
        };
        // Mostly a planted satisfiable hard formula (clauses true under a
        // hidden assignment), sometimes unconstrained random clauses.
        let planted: Option<Vec<bool>> = if rng.chance(90) {
            Some((0..num_vars).map(|_| rng.chance(50)).collect())
        } else {
            None
        };
        let clauses = 2 + rng.below(9);
        while (problem.hard.len() as u64) < clauses {
            let (clause, lits) = problem.random_clause_with_literals(rng);
            let keep = planted
                .as_ref()
                .is_none_or(|p| lits.iter().any(|&(v, pos)| p[v] == pos));
            if keep {
                problem.hard.push(clause);
            }
        }
        for _ in 0..num_softs {
            problem.push_random_soft(rng, weighted);
        }
        problem
    }

    /// A random literal, with its variable index and polarity.
    fn literal_with_sign(&self, rng: &mut Rng) -> (Bool, (usize, bool)) {
        let index = rng.below(self.vars.len() as u64) as usize;
        let v = &self.vars[index];
        if rng.chance(50) {
            (v.clone(), (index, true))
        } else {
            (v.not(), (index, false))
        }
    }

    fn literal(&self, rng: &mut Rng) -> Bool {
        self.literal_with_sign(rng).0
    }

    /// Mostly 3-CNF, some binary clauses to make conflicts likelier.
    fn random_clause_with_literals(&self, rng: &mut Rng) -> (Bool, Vec<(usize, bool)>) {
        let width = if rng.chance(25) { 2 } else { 3 };
        let (lits, signs): (Vec<Bool>, Vec<(usize, bool)>) =
            (0..width).map(|_| self.literal_with_sign(rng)).unzip();
        (Bool::or(&lits), signs)
    }

    fn random_clause(&self, rng: &mut Rng) -> Bool {
        self.random_clause_with_literals(rng).0
    }

    fn push_random_soft(&mut self, rng: &mut Rng, weighted: bool) {
        let kind = rng.below(4);
        let soft = match kind {
            0 | 1 => self.literal(rng),
            2 => {
                let n = 2 + rng.below(2);
                let lits: Vec<Bool> = (0..n).map(|_| self.literal(rng)).collect();
                Bool::and(&lits)
            }
            _ => {
                let n = 2 + rng.below(2);
                let lits: Vec<Bool> = (0..n).map(|_| self.literal(rng)).collect();
                Bool::or(&lits)
            }
        };
        self.softs.push(soft);
        self.weights
            .push(if weighted { 1 + rng.below(4) } else { 1 });
    }

    fn solver(&self) -> Solver {
        let solver = Solver::new();
        for clause in &self.hard {
            solver.assert(clause);
        }
        solver
    }

    /// For every subset of the soft terms (as a bit mask), whether it is a
    /// correction set. One fresh solver, push/pop per subset.
    fn correction_sets(&self) -> Vec<bool> {
        let solver = self.solver();
        let n = self.softs.len();
        (0u32..(1 << n))
            .map(|mask| {
                solver.push();
                for (i, soft) in self.softs.iter().enumerate() {
                    if mask & (1 << i) == 0 {
                        solver.assert(soft);
                    }
                }
                let result = solver.check();
                solver.pop(1);
                assert_ne!(result, SatResult::Unknown);
                result == SatResult::Sat
            })
            .collect()
    }

    /// The MCSes with at most `max_size` members containing no blocked set,
    /// sorted by (cost, members).
    fn expected(
        &self,
        cs: &[bool],
        order: Order,
        max_size: usize,
        blocked: &[Vec<usize>],
    ) -> Vec<(Vec<usize>, u64)> {
        let n = self.softs.len();
        let mut out = Vec::new();
        for mask in 0u32..(1 << n) {
            if !cs[mask as usize] {
                continue;
            }
            // Correction sets are closed upwards, so dropping one member at a
            // time decides minimality.
            let minimal = (0..n)
                .filter(|i| mask & (1 << i) != 0)
                .all(|i| !cs[(mask & !(1 << i)) as usize]);
            let members: Vec<usize> = (0..n).filter(|i| mask & (1 << i) != 0).collect();
            if !minimal || members.len() > max_size {
                continue;
            }
            if blocked
                .iter()
                .any(|b| b.iter().all(|x| members.contains(x)))
            {
                continue;
            }
            let cost = match order {
                Order::Cardinality => members.len() as u64,
                Order::Weight => members.iter().map(|&i| self.weights[i]).sum(),
            };
            out.push((members, cost));
        }
        out.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
        out
    }

    /// The model satisfies the hard clauses and falsifies exactly the members.
    fn check_witness(&self, mcs: &Mcs, context: &str) {
        for clause in &self.hard {
            assert_eq!(
                mcs.model.eval(clause, true).and_then(|v| v.as_bool()),
                Some(true),
                "{context}: hard clause violated by the model of {:?}",
                mcs.members
            );
        }
        for (i, soft) in self.softs.iter().enumerate() {
            assert_eq!(
                mcs.model.eval(soft, true).and_then(|v| v.as_bool()),
                Some(!mcs.members.contains(&i)),
                "{context}: soft {i} in the model of {:?}",
                mcs.members
            );
        }
    }
}

fn random_max_size(rng: &mut Rng) -> usize {
    [0, 1, 2, 2, 3, 3, 4, usize::MAX][rng.below(8) as usize]
}

fn random_order(rng: &mut Rng) -> Order {
    if rng.chance(50) {
        Order::Cardinality
    } else {
        Order::Weight
    }
}

fn pairs(mcses: &[Mcs]) -> Vec<(Vec<usize>, u64)> {
    mcses.iter().map(|m| (m.members.clone(), m.cost)).collect()
}

#[test]
fn enumerate_matches_brute_force() {
    let mut calls = 0;
    let mut found = 0;
    let mut by_count = [0usize; 4];
    let mut by_size = [0usize; 8];
    for case in 0..400u64 {
        let mut rng = Rng::new(case);
        let order = random_order(&mut rng);
        let num_softs = 5 + rng.below(4) as usize;
        let num_vars = 4 + rng.below(3) as usize;
        let problem = Problem::random(&mut rng, num_vars, num_softs, order == Order::Weight);
        let max_size = random_max_size(&mut rng);
        let cs = problem.correction_sets();
        let expected = problem.expected(&cs, order, max_size, &[]);

        let solver = problem.solver();
        let softs: Vec<(Bool, u64)> = problem
            .softs
            .iter()
            .cloned()
            .zip(problem.weights.iter().copied())
            .collect();
        let options = McsOptions {
            max_size,
            order,
            ..McsOptions::default()
        };
        let outcome = enumerate(&solver, &softs, &options);
        let context = format!("case {case} ({order:?}, max_size {max_size})");
        assert!(outcome.complete, "{context}");
        assert_eq!(pairs(&outcome.mcses), expected, "{context}");
        for mcs in &outcome.mcses {
            problem.check_witness(mcs, &context);
        }
        calls += outcome.solver_calls;
        found += outcome.mcses.len();
        by_count[outcome.mcses.len().min(3)] += 1;
        for m in &outcome.mcses {
            by_size[m.members.len()] += 1;
        }

        // Same input, same output.
        let again = enumerate(&problem.solver(), &softs, &options);
        assert_eq!(pairs(&again.mcses), expected, "{context}, second run");
    }
    eprintln!(
        "400 cases: {found} MCSes, {calls} solver calls; \
         cases with 0/1/2/3+ MCSes: {by_count:?}; MCSes by size: {by_size:?}"
    );
    // The generator must exercise levels with several MCSes.
    assert!(by_count[2] + by_count[3] >= 150, "{by_count:?}");
}

/// Interleaves `next` (repeated, unblocked), `take_next`, arbitrary blocks,
/// new hard clauses and new soft terms, and compares every answer with brute
/// force on the formula as it stands.
#[test]
fn incremental_use_matches_brute_force() {
    for case in 0..300u64 {
        let mut rng = Rng::new(10_000 + case);
        let order = random_order(&mut rng);
        let weighted = order == Order::Weight;
        let num_softs = 3 + rng.below(3) as usize;
        let mut problem = Problem::random(&mut rng, 6, num_softs, weighted);
        let max_size = random_max_size(&mut rng);
        let solver = problem.solver();
        let mut engine = McsEnumerator::new(McsOptions {
            max_size,
            order,
            ..McsOptions::default()
        });
        for (soft, &w) in problem.softs.iter().zip(&problem.weights) {
            engine.add_soft(soft.clone(), w);
        }
        let mut cs = problem.correction_sets();
        let mut blocked: Vec<Vec<usize>> = Vec::new();
        let mut grown = 0;
        for step in 0..40 {
            let context = format!("case {case} step {step} ({order:?}, max_size {max_size})");
            let expected = problem.expected(&cs, order, max_size, &blocked);
            let action = rng.below(100);
            if action < 10 && grown < 2 && problem.softs.len() < 7 {
                // Grow the formula: a hard clause and a soft term.
                let clause = problem.random_clause(&mut rng);
                if rng.chance(50) {
                    engine.assert_hard(&solver, &clause);
                } else {
                    solver.assert(&clause);
                    engine.invalidate();
                }
                problem.hard.push(clause);
                problem.push_random_soft(&mut rng, weighted);
                let index = engine.add_soft(
                    problem.softs.last().unwrap().clone(),
                    *problem.weights.last().unwrap(),
                );
                assert_eq!(index, problem.softs.len() - 1);
                cs = problem.correction_sets();
                grown += 1;
                continue;
            }
            if action < 18 {
                // Block an arbitrary small set, often not an MCS.
                let n = problem.softs.len() as u64;
                let size = 1 + rng.below(2);
                let set: Vec<usize> = (0..size).map(|_| rng.below(n) as usize).collect();
                engine.block(&solver, &set);
                let mut set = set;
                set.sort_unstable();
                set.dedup();
                blocked.push(set);
                continue;
            }
            let got = if action < 40 {
                let a = engine.next(&solver).unwrap();
                let b = engine.next(&solver).unwrap();
                assert_eq!(
                    a.as_ref().map(|m| (&m.members, m.cost)),
                    b.as_ref().map(|m| (&m.members, m.cost)),
                    "{context}: next twice"
                );
                if let Some(m) = &a {
                    if rng.chance(70) {
                        engine.block(&solver, &m.members);
                        blocked.push(m.members.clone());
                    }
                }
                a
            } else {
                let m = engine.take_next(&solver).unwrap();
                if let Some(m) = &m {
                    blocked.push(m.members.clone());
                }
                m
            };
            assert_eq!(
                got.as_ref().map(|m| (m.members.clone(), m.cost)),
                expected.first().cloned(),
                "{context}"
            );
            if let Some(m) = &got {
                problem.check_witness(m, &context);
            }
        }
    }
}
