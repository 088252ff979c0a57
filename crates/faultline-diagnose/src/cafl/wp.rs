//! `computeCause`: weakest preconditions backwards from a failure predicate,
//! up to the first unsatisfiable point, and a minimal unsatisfiable core.
//!
//! The precondition is kept as a list of conjuncts, each with the instances
//! that transformed it: `WP(v := e, φ) = φ[e/v]` substitutes `e` into the
//! conjuncts that mention `v` (and records the instance), `WP(assume c, φ) =
//! φ ∧ c` adds a conjunct. After each step the formula is checked; at the
//! first unsatisfiable point a minimal core of conjuncts is taken (deletion
//! from Z3's core), and the cause is the failure instance plus the
//! transforming instances of the core's conjuncts.
//!
//! Solver pruning (switchable): a step that changed no conjunct is not
//! checked; otherwise only the connected component (conjuncts sharing
//! variables) of the changed conjuncts is, ground conjuncts are decided by
//! simplification, and a component without the failure predicate is
//! satisfiable without asking: its conjuncts are outcomes the run took, so
//! the run's own state satisfies them.

use super::model::{ActionKind, Model, StepId, VarId};
use std::collections::{BTreeSet, HashMap};
use z3::ast::{Ast, Bool, Dynamic};
use z3::{SatResult, Solver};

/// A failure predicate: the condition that should have held before action
/// `action` (exclusive) of the model, at instance `step`.
#[derive(Clone, Debug)]
pub struct Failure {
    pub step: StepId,
    pub action: usize,
    pub pred: Bool,
    pub mentions: Vec<VarId>,
}

#[derive(Clone, Copy, Debug)]
pub struct WpOptions {
    /// Only the dynamic slice of the failure is walked.
    pub slicing: bool,
    /// Connected components, skipped checks, ground conjuncts without the solver.
    pub pruning: bool,
}

impl Default for WpOptions {
    fn default() -> Self {
        WpOptions {
            slicing: true,
            pruning: true,
        }
    }
}

/// What `computeCause` found.
#[derive(Clone, Debug, Default)]
pub struct Cause {
    /// The instances of the cause (failure instance included).
    pub steps: BTreeSet<StepId>,
    /// Whether an unsatisfiable point was found (otherwise the cause is the
    /// failure's data slice: the model could not refute the predicate).
    pub refuted: bool,
    pub solver_checks: u32,
}

struct Conj {
    term: Bool,
    mentions: BTreeSet<VarId>,
    trans: BTreeSet<StepId>,
}

struct Walk<'m> {
    model: &'m Model,
    solver: &'m Solver,
    conj: Vec<Conj>,
    users: HashMap<VarId, Vec<usize>>,
    checks: u32,
    pruning: bool,
}

/// `computeCause` for `failure`; `slice` restricts the walk to those instances.
/// `solver` is used incrementally (each check in its own scope).
pub fn compute_cause(
    model: &Model,
    failure: &Failure,
    options: WpOptions,
    slice: Option<&BTreeSet<StepId>>,
    solver: &Solver,
) -> Cause {
    let mut w = Walk {
        model,
        solver,
        conj: Vec::new(),
        users: HashMap::new(),
        checks: 0,
        pruning: options.pruning,
    };
    let first = w.push(
        failure.pred.clone(),
        failure.mentions.iter().copied().collect(),
        [failure.step].into(),
    );
    let finish = |w: &Walk, core: Vec<usize>| {
        let mut steps: BTreeSet<StepId> = [failure.step].into();
        for c in core {
            steps.extend(w.conj[c].trans.iter().copied());
        }
        Cause {
            steps,
            refuted: true,
            solver_checks: w.checks,
        }
    };
    if let Some(core) = w.check(&[first]) {
        return finish(&w, core);
    }
    for a in (0..failure.action).rev() {
        // Each step builds terms: the thread's budget may end the walk here
        // (unwinding to the caller's `limits::guard`).
        faultline_smt::limits::tick();
        let act = &model.actions[a];
        if slicing_skips(options, slice, act.owner) {
            continue;
        }
        let changed = match &act.kind {
            ActionKind::Def(v) => w.substitute(*v, Some(act.owner)),
            ActionKind::Assume(c, m) => {
                vec![w.push(c.clone(), m.iter().copied().collect(), [act.owner].into())]
            }
        };
        if changed.is_empty() && w.pruning {
            continue;
        }
        if let Some(core) = w.check(&changed) {
            return finish(&w, core);
        }
    }
    // The start: free variables with known initial values (globals) take them.
    let mut changed = BTreeSet::new();
    let start: Vec<VarId> = w.users.keys().copied().collect();
    let mut start = start;
    start.sort_unstable();
    for v in start {
        let var = &model.vars[v];
        if var.owner.is_none() && var.term.is_some() {
            changed.extend(w.substitute(v, None));
        }
    }
    let changed: Vec<usize> = if w.pruning {
        changed.into_iter().collect()
    } else {
        (0..w.conj.len()).collect()
    };
    if !changed.is_empty() {
        if let Some(core) = w.check(&changed) {
            return finish(&w, core);
        }
    }
    // Not refuted: the failure's transforming instances.
    Cause {
        steps: w.conj[first].trans.clone(),
        refuted: false,
        solver_checks: w.checks,
    }
}

fn slicing_skips(o: WpOptions, slice: Option<&BTreeSet<StepId>>, s: StepId) -> bool {
    o.slicing && slice.is_some_and(|sl| !sl.contains(&s))
}

impl<'m> Walk<'m> {
    fn push(&mut self, term: Bool, mentions: BTreeSet<VarId>, trans: BTreeSet<StepId>) -> usize {
        let i = self.conj.len();
        for &m in &mentions {
            self.users.entry(m).or_default().push(i);
        }
        self.conj.push(Conj {
            term: term.simplify(),
            mentions,
            trans,
        });
        i
    }

    /// `φ[term(v)/v]` in every conjunct mentioning `v`; returns the changed ones.
    fn substitute(&mut self, v: VarId, owner: Option<StepId>) -> Vec<usize> {
        let var = &self.model.vars[v];
        let Some(term) = &var.term else {
            return Vec::new();
        };
        let users: Vec<usize> = self
            .users
            .remove(&v)
            .unwrap_or_default()
            .into_iter()
            .filter(|&c| self.conj[c].mentions.contains(&v))
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let pair: [(&Dynamic, &Dynamic); 1] = [(&var.konst, term)];
        for &c in &users {
            let cj = &mut self.conj[c];
            cj.term = cj.term.substitute(&pair).simplify();
            cj.mentions.remove(&v);
            if let (Some(o), false) = (owner, var.input) {
                cj.trans.insert(o);
            }
            for &m in &var.mentions {
                if cj.mentions.insert(m) {
                    self.users.entry(m).or_default().push(c);
                }
            }
        }
        users
    }

    /// Checks the conjunction; `Some(minimal core)` when unsatisfiable.
    fn check(&mut self, changed: &[usize]) -> Option<Vec<usize>> {
        let comp: Vec<usize> = if self.pruning {
            for &c in changed {
                if self.conj[c].term.as_bool() == Some(false) {
                    return Some(vec![c]);
                }
            }
            let comp = self.component(changed);
            // Every conjunct but the failure predicate (conjunct 0) is an
            // outcome the run took: the run's own state satisfies them all, so
            // a component without the failure predicate is satisfiable.
            if !comp.contains(&0) {
                return None;
            }
            comp
        } else {
            (0..self.conj.len()).collect()
        };
        let open: Vec<usize> = comp
            .into_iter()
            .filter(|&c| self.conj[c].term.as_bool() != Some(true))
            .collect();
        if open.is_empty() {
            return None;
        }
        let solver = self.solver;
        solver.push();
        let result = self.check_open(&open);
        solver.pop(1);
        result
    }

    fn check_open(&mut self, open: &[usize]) -> Option<Vec<usize>> {
        let solver = self.solver;
        let lits: Vec<Bool> = open
            .iter()
            .map(|&c| {
                let l = Bool::new_const(format!("cafl_c{c}"));
                solver.assert(l.implies(&self.conj[c].term));
                l
            })
            .collect();
        self.checks += 1;
        let r = solver.check_assumptions(&lits);
        faultline_smt::limits::note_z3_memory();
        match r {
            SatResult::Unsat => {}
            SatResult::Sat => return None,
            // Interrupted by the budget's watchdog: stop the walk (this
            // unwinds when the budget is exhausted); otherwise Z3 could not
            // decide, and the conjunction is taken as satisfiable, as before.
            SatResult::Unknown => {
                faultline_smt::limits::tick();
                return None;
            }
        }
        let core_names: BTreeSet<String> = solver
            .get_unsat_core()
            .iter()
            .map(|b| b.to_string())
            .collect();
        let mut core: Vec<usize> = open
            .iter()
            .zip(&lits)
            .filter(|(_, l)| core_names.contains(&l.to_string()))
            .map(|(c, _)| *c)
            .collect();
        // Deletion: drop every conjunct the rest is still unsatisfiable without.
        let lit_of = |c: usize| lits[open.iter().position(|&o| o == c).expect("in open")].clone();
        let mut k = 0;
        while k < core.len() && core.len() > 1 {
            let trial: Vec<Bool> = core
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != k)
                .map(|(_, &c)| lit_of(c))
                .collect();
            self.checks += 1;
            let r = solver.check_assumptions(&trial);
            faultline_smt::limits::note_z3_memory();
            if r == SatResult::Unsat {
                core.remove(k);
            } else {
                k += 1;
            }
        }
        Some(core)
    }

    /// The conjuncts connected to `seeds` through shared variables.
    fn component(&self, seeds: &[usize]) -> Vec<usize> {
        let mut seen: BTreeSet<usize> = seeds.iter().copied().collect();
        let mut stack: Vec<usize> = seeds.to_vec();
        let mut vars_seen = BTreeSet::new();
        while let Some(c) = stack.pop() {
            for &m in &self.conj[c].mentions {
                if !vars_seen.insert(m) {
                    continue;
                }
                for &o in self.users.get(&m).map(|v| v.as_slice()).unwrap_or(&[]) {
                    if self.conj[o].mentions.contains(&m) && seen.insert(o) {
                        stack.push(o);
                    }
                }
            }
        }
        seen.into_iter().collect()
    }
}
