//! Explored program parts for on-demand formulas (OFC, AgxFaults).
//!
//! An [`Explored`] set records, for every condition instance some run has
//! reached, the outcomes runs took there, and how to get there again: the
//! forced decisions of the run that first reached it. The formula encodes
//! explored outcomes and leaves the others as black boxes
//! ([`faultline_smt::Explore::Abstract`]). Expanding an outcome re-executes
//! the test forced down it after the same prefix (execution hijacking).

use faultline_exec::trace::Scope;
use faultline_exec::{ExecOptions, Executable, Hooks, Input, Limits, Site, TestCase, Trace};
use faultline_ir::{Branch, StmtId};
use faultline_smt::{BranchPolicy, Explore};
use std::collections::{BTreeMap, BTreeSet};

/// A condition instance: statement and context chain.
pub type CondInst = (StmtId, Vec<Scope>);

#[derive(Clone, Debug, Default)]
pub struct Explored {
    outcomes: BTreeMap<CondInst, BTreeSet<Branch>>,
    /// The forced decisions of the run that first reached each instance.
    reached_by: BTreeMap<CondInst, Vec<(CondInst, Branch)>>,
    /// Runs executed (the original run and every hijacked one).
    pub runs: usize,
}

impl Explored {
    /// What the original failing run explored.
    pub fn from_trace(trace: &Trace) -> Explored {
        let mut e = Explored::default();
        e.add(trace, &[]);
        e
    }

    /// Adds a run's decisions; `forced` are the decisions it was forced to take.
    /// Returns whether anything new was explored.
    pub fn add(&mut self, trace: &Trace, forced: &[(CondInst, Branch)]) -> bool {
        self.runs += 1;
        let mut new = false;
        for (inst, b) in trace.decisions() {
            let key = (inst.stmt, trace.contexts.chain(inst.ctx));
            new |= self.outcomes.entry(key.clone()).or_default().insert(b);
            self.reached_by
                .entry(key)
                .or_insert_with(|| forced.to_vec());
        }
        new
    }

    /// Union with another explored set (e.g. another test's with the same path).
    pub fn merge(&mut self, other: &Explored) {
        for (k, v) in &other.outcomes {
            self.outcomes
                .entry(k.clone())
                .or_default()
                .extend(v.iter().copied());
        }
        for (k, v) in &other.reached_by {
            self.reached_by
                .entry(k.clone())
                .or_insert_with(|| v.clone());
        }
    }

    pub fn outcomes(&self, c: &CondInst) -> Option<&BTreeSet<Branch>> {
        self.outcomes.get(c)
    }

    /// Number of (instance, outcome) pairs explored.
    pub fn size(&self) -> usize {
        self.outcomes.values().map(|s| s.len()).sum()
    }

    /// The decisions to force to reach `c` and take `b` there.
    pub fn forcing(&self, c: &CondInst, b: Branch) -> Vec<(CondInst, Branch)> {
        let mut f: Vec<(CondInst, Branch)> = self
            .reached_by
            .get(c)
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|(k, _)| k != c)
            .collect();
        f.push((c.clone(), b));
        f
    }

    /// Expands black boxes: re-executes `test` forced down each of `boxes`
    /// after the decisions that reach it; returns whether anything new was
    /// explored.
    pub fn expand(
        &mut self,
        exe: &Executable,
        test: &TestCase,
        boxes: &[(CondInst, Branch)],
        limits: Limits,
    ) -> bool {
        let mut progress = false;
        for (c, b) in boxes {
            let forced = self.forcing(c, *b);
            progress |= self.hijack(exe, test, &forced, limits);
        }
        progress
    }

    /// Re-executes `test` forced down `forced` (execution hijacking) and adds
    /// what it explored; returns whether it explored something new.
    pub fn hijack(
        &mut self,
        exe: &Executable,
        test: &TestCase,
        forced: &[(CondInst, Branch)],
        limits: Limits,
    ) -> bool {
        let mut h = Hijack {
            forced: forced.iter().cloned().collect(),
        };
        let run = exe.run(
            Input {
                args: &test.args,
                stdin: &test.stdin,
            },
            ExecOptions {
                record_trace: true,
                limits,
                hooks: Some(&mut h),
            },
        );
        match &run.trace {
            Some(t) => self.add(t, forced),
            None => false,
        }
    }
}

struct Hijack {
    forced: BTreeMap<CondInst, Branch>,
}

impl Hooks for Hijack {
    fn branch(&mut self, site: &Site, computed: Branch) -> Branch {
        *self
            .forced
            .get(&(site.inst.stmt, site.ctx.to_vec()))
            .unwrap_or(&computed)
    }
}

/// The branch policy of an explored set: explored outcomes are encoded, the
/// others are black boxes; instances no run reached are encoded both ways.
pub struct ExploredPolicy<'e>(pub &'e Explored);

impl BranchPolicy for ExploredPolicy<'_> {
    fn explore(&mut self, stmt: StmtId, ctx: &[Scope]) -> Explore {
        match self.0.outcomes.get(&(stmt, ctx.to_vec())) {
            None => Explore::Both,
            Some(seen) => Explore::Abstract(seen.iter().copied().collect()),
        }
    }
}

/// One failing test's formula over the explored part of the program (OFC's
/// abstract formula, AgxFaults' angelic program): explored outcomes encoded,
/// the other branches black boxes; with its MCS enumerator.
pub(crate) struct ExploredFormula {
    pub solver: z3::Solver,
    pub ab: faultline_smt::AbVars,
    pub enc: faultline_smt::TestEncoding,
    pub en: crate::mcs::McsEnumerator,
    pub softs: crate::localize::Softs,
}

impl ExploredFormula {
    /// Encodes test `t` over `explored`; `None` if it cannot be encoded (the
    /// engine has noted why).
    pub fn new(
        engine: &mut crate::localize::Engine,
        t: usize,
        explored: &Explored,
    ) -> Option<ExploredFormula> {
        let solver = engine.solver();
        let mut ab = faultline_smt::AbVars::new();
        let mut policy = ExploredPolicy(explored);
        let enc = engine.encode_with(
            t,
            &faultline_smt::Sink::new(&solver),
            &mut ab,
            Some(&mut policy),
        )?;
        engine.stats.tests_encoded += 1;
        let mut en = crate::mcs::McsEnumerator::new(engine.mcs_options());
        let mut softs = crate::localize::Softs::new();
        softs.sync(engine, &ab, &mut en);
        Some(ExploredFormula {
            solver,
            ab,
            enc,
            en,
            softs,
        })
    }

    /// The next MCS (solver time counted).
    pub fn next(
        &mut self,
        engine: &mut crate::localize::Engine,
    ) -> Result<Option<crate::mcs::Mcs>, crate::result::Incomplete> {
        let t0 = std::time::Instant::now();
        let next = self.en.next(&self.solver);
        engine.stats.solve_time += t0.elapsed();
        next.map_err(crate::localize::incomplete_of)
    }

    /// The black boxes `model` enters.
    pub fn entered(&self, model: &z3::Model) -> Vec<(CondInst, Branch)> {
        self.enc
            .abstract_entries
            .iter()
            .filter(|e| model.eval(&e.3, true).and_then(|b| b.as_bool()) == Some(true))
            .map(|e| ((e.0, e.1.clone()), e.2))
            .collect()
    }

    /// Assumptions: exactly `d` relaxed, and no black box entered.
    fn outside_boxes(&self, d: &BTreeSet<StmtId>) -> Vec<z3::ast::Bool> {
        let mut a = self.ab.relaxing_exactly(d);
        a.extend(self.enc.abstract_entries.iter().map(|e| e.3.not()));
        a
    }

    /// A model relaxing exactly `d` that enters no black box, if there is one.
    pub fn model_outside_boxes(
        &self,
        engine: &mut crate::localize::Engine,
        d: &BTreeSet<StmtId>,
    ) -> Option<z3::Model> {
        let t0 = std::time::Instant::now();
        let r = self.solver.check_assumptions(&self.outside_boxes(d));
        engine.stats.solve_time += t0.elapsed();
        engine.stats.solver_calls += 1;
        match r {
            z3::SatResult::Sat => self.solver.get_model(),
            _ => None,
        }
    }

    /// `model` (of `d`, outside every black box) with readable angelic
    /// values, see [`crate::localize::polish`].
    pub fn polish(
        &self,
        engine: &mut crate::localize::Engine,
        d: &BTreeSet<StmtId>,
        model: z3::Model,
    ) -> z3::Model {
        let insts: Vec<&faultline_smt::RelaxedInstance> = self.enc.relaxed.iter().collect();
        crate::localize::polish(
            engine,
            &self.solver,
            &self.outside_boxes(d),
            &insts,
            d,
            &model,
        )
        .unwrap_or(model)
    }
}
