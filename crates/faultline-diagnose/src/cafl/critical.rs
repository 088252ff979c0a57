//! Critical conditions of a cause, and the dynamic slice.
//!
//! - *Direct*: for an instance, the closest enclosing branch instance it does
//!   not post-dominate: the latest earlier instance, in the same function
//!   activation, of a condition the statement is control-dependent on (the
//!   IR's control dependences come from post-dominators); for a statement
//!   control-dependent on nothing in its function, that of the call instance.
//! - *Indirect*: for a variable an instance reads, a branch instance executed
//!   between the variable's last definition and the read whose untaken side
//!   would have redefined the variable (statically: a statement under that
//!   outcome, transitively through nested conditions and calls, defines it).
//!   A definition executed after the branch would block it; since the last
//!   definition precedes every branch considered, none does.

use super::model::{Model, StepId};
use faultline_exec::trace::CtxId;
use faultline_ir::{Branch, FuncId, Program, StmtId, VarRef};
use std::collections::{BTreeSet, HashMap};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CriticalKind {
    Direct,
    Indirect,
}

/// Static and dynamic facts the critical conditions need.
pub struct Facts {
    /// The direct critical condition of each step.
    pub control: Vec<Option<StepId>>,
    /// Branch steps in trace order.
    pub branches: Vec<StepId>,
    /// Variables defined under each (condition, outcome), transitively.
    pub defs_under: HashMap<StmtId, Vec<(Branch, BTreeSet<VarRef>)>>,
}

impl Facts {
    pub fn new(prog: &Program, model: &Model) -> Facts {
        // Dynamic control dependences.
        let mut latest: HashMap<(CtxId, StmtId), StepId> = HashMap::new();
        let mut own: Vec<Option<StepId>> = vec![None; model.steps.len()];
        for (i, s) in model.steps.iter().enumerate() {
            let info = prog.stmt(s.stmt);
            own[i] = info
                .control
                .iter()
                .filter_map(|(c, _)| latest.get(&(s.act, *c)).copied())
                .max();
            if s.outcome.is_some() {
                latest.insert((s.act, s.stmt), i);
            }
        }
        let control = (0..model.steps.len())
            .map(|i| {
                let mut s = i;
                let mut guard = 0;
                loop {
                    if let Some(c) = own[s] {
                        break Some(c);
                    }
                    match model.callers.get(&model.steps[s].act) {
                        Some(&caller) if guard < 10_000 => {
                            s = caller;
                            guard += 1;
                        }
                        _ => break None,
                    }
                }
            })
            .collect();
        let branches = (0..model.steps.len())
            .filter(|&i| model.steps[i].outcome.is_some() && model.steps[i].in_model)
            .collect();
        Facts {
            control,
            branches,
            defs_under: defs_under(prog),
        }
    }

    /// The critical conditions of a cause, in trace order, each with the
    /// cause's instances it is critical for.
    pub fn critical(
        &self,
        model: &Model,
        cause: &BTreeSet<StepId>,
    ) -> Vec<(StepId, CriticalKind, BTreeSet<StepId>)> {
        let mut out: HashMap<StepId, (CriticalKind, BTreeSet<StepId>)> = HashMap::new();
        for &s in cause {
            if let Some(c) = self.control[s] {
                let e = out
                    .entry(c)
                    .or_insert((CriticalKind::Direct, BTreeSet::new()));
                e.0 = CriticalKind::Direct;
                e.1.insert(s);
            }
            for &v in &model.steps[s].reads {
                let var = &model.vars[v];
                let from = var.owner.map_or(0, |o| o + 1);
                if var.owner == Some(s) {
                    continue;
                }
                let lo = self.branches.partition_point(|&b| b < from);
                let hi = self.branches.partition_point(|&b| b < s);
                if lo >= hi {
                    // Defined after the instance began (a callee's return value).
                    continue;
                }
                for &b in &self.branches[lo..hi] {
                    let bs = &model.steps[b];
                    if let VarRef::Local(..) = var.cell.var {
                        if bs.act != var.cell.act {
                            continue;
                        }
                    }
                    let taken = bs.outcome.expect("branch step");
                    let hit = self.defs_under.get(&bs.stmt).is_some_and(|v| {
                        v.iter()
                            .any(|(o, defs)| *o != taken && defs.contains(&var.cell.var))
                    });
                    if hit {
                        out.entry(b)
                            .or_insert((CriticalKind::Indirect, BTreeSet::new()))
                            .1
                            .insert(s);
                    }
                }
            }
        }
        let mut v: Vec<_> = out.into_iter().map(|(b, (k, f))| (b, k, f)).collect();
        v.sort_by_key(|(b, _, _)| *b);
        v
    }

    /// The dynamic slice of a failure at `step` reading `reads`: data and
    /// (direct) control dependences, transitively.
    pub fn slice(&self, model: &Model, step: StepId, reads: &[usize]) -> BTreeSet<StepId> {
        let mut out: BTreeSet<StepId> = [step].into();
        let mut stack = vec![step];
        let push = |s: StepId, out: &mut BTreeSet<StepId>, stack: &mut Vec<StepId>| {
            if out.insert(s) {
                stack.push(s);
            }
        };
        for &v in reads {
            if let Some(o) = model.vars[v].owner {
                push(o, &mut out, &mut stack);
            }
        }
        while let Some(s) = stack.pop() {
            let st = &model.steps[s];
            for &v in st
                .reads
                .iter()
                .chain(st.defs.iter().flat_map(|d| model.vars[*d].mentions.iter()))
            {
                if let Some(o) = model.vars[v].owner {
                    push(o, &mut out, &mut stack);
                }
            }
            if let Some(c) = self.control[s] {
                push(c, &mut out, &mut stack);
            }
        }
        out
    }
}

/// Variables each (condition, outcome) may define, transitively through
/// nested conditions and through calls (globals the callees define).
fn defs_under(prog: &Program) -> HashMap<StmtId, Vec<(Branch, BTreeSet<VarRef>)>> {
    // Globals each function defines, transitively.
    let mut fdefs: HashMap<FuncId, BTreeSet<VarRef>> = HashMap::new();
    // Statements that may be missing are no code of the run.
    let written = || prog.stmts.iter().filter(|s| s.kind.is_written());
    for s in written() {
        let e = fdefs.entry(s.func).or_default();
        e.extend(s.defs.iter().filter(|d| matches!(d, VarRef::Global(_))));
    }
    let mut calls: HashMap<FuncId, BTreeSet<FuncId>> = HashMap::new();
    for s in &prog.stmts {
        calls
            .entry(s.func)
            .or_default()
            .extend(s.calls.iter().copied());
    }
    loop {
        let mut changed = false;
        let funcs: Vec<FuncId> = fdefs.keys().copied().collect();
        for f in funcs {
            let mut add = BTreeSet::new();
            for g in calls.get(&f).into_iter().flatten() {
                add.extend(fdefs.get(g).into_iter().flatten().copied());
            }
            let e = fdefs.entry(f).or_default();
            let before = e.len();
            e.extend(add);
            changed |= e.len() != before;
        }
        if !changed {
            break;
        }
    }
    let mut out: HashMap<(StmtId, Branch), BTreeSet<VarRef>> = HashMap::new();
    for s in written() {
        let mut defs: BTreeSet<VarRef> = s.defs.iter().copied().collect();
        for f in &s.calls {
            defs.extend(fdefs.get(f).into_iter().flatten().copied());
        }
        if defs.is_empty() {
            continue;
        }
        // Every (condition, outcome) above the statement, transitively.
        let mut seen: BTreeSet<(StmtId, Branch)> = BTreeSet::new();
        let mut stack: Vec<(StmtId, Branch)> = s.control.clone();
        while let Some(cb) = stack.pop() {
            if !seen.insert(cb) {
                continue;
            }
            stack.extend(prog.stmt(cb.0).control.iter().copied());
        }
        for cb in seen {
            out.entry(cb).or_default().extend(defs.iter().copied());
        }
    }
    let mut by_stmt: HashMap<StmtId, Vec<(Branch, BTreeSet<VarRef>)>> = HashMap::new();
    for ((c, b), d) in out {
        by_stmt.entry(c).or_default().push((b, d));
    }
    by_stmt
}
