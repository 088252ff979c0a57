//! Explored program parts for on-demand formulas (OFC, AgxFaults).
//!
//! An [`Explored`] set records, for every condition instance some run has
//! reached, the outcomes runs took there, and how to get there again: the
//! forced decisions of the run that first reached it. The formula encodes
//! explored outcomes and leaves the others as black boxes
//! ([`faultline_smt::Explore::Abstract`]). Expanding an outcome re-executes
//! the test forced down it after the same prefix (execution hijacking).

use faultline_exec::trace::Scope;
use faultline_exec::{ExecOptions, Executable, Hooks, Limits, Site, TestCase, Trace};
use faultline_ir::{Branch, StmtId};
use faultline_smt::{BranchPolicy, Explore, TestEncoding};
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
            test.input(),
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

/// A black box of an on-demand formula: the condition instance and the
/// outcome it stands for, and the guard under which a model enters it.
pub struct BlackBox<'e> {
    pub cond: CondInst,
    pub branch: Branch,
    pub entry: &'e z3::ast::Bool,
}

impl BlackBox<'_> {
    /// Whether `model` enters this black box.
    pub fn entered_in(&self, model: &z3::Model) -> bool {
        model.eval(self.entry, true).and_then(|b| b.as_bool()) == Some(true)
    }
}

/// The black boxes of a test's formula.
pub fn black_boxes(enc: &TestEncoding) -> impl Iterator<Item = BlackBox<'_>> {
    enc.abstract_entries
        .iter()
        .map(|(stmt, ctx, branch, entry)| BlackBox {
            cond: (*stmt, ctx.clone()),
            branch: *branch,
            entry,
        })
}
