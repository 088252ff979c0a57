//! Unwinding bounds from the failing runs' traces.
//!
//! For each loop, the bound is one more than the largest number of iterations
//! (condition tests) any failing run needed in one execution of the loop, so
//! that a correction making the loop run once more (an off-by-one fault) is
//! within the formula; for each function, the recursion depth is one more than
//! the deepest nesting of its calls in any failing run. `--unwind N` caps
//! both: a failing run that needs more than N is reported, not cut.
//!
//! A `break` is relaxable: relaxed, it may not leave its loop, which then runs
//! longer than the failing run's. A loop that a `break` executed by a failing
//! run leaves is therefore unrolled as often as any run of the suite tested
//! its condition (up to [`JUMP_UNWIND`]), not only as the failing runs did
//! ([`Session::needs`](crate::Session::needs)). A loop the failing runs ran
//! inside another loop is unrolled at least as often as the first passing
//! runs ran it in one execution: a fix running the outer loop once more runs
//! it anew.

use faultline_exec::trace::{Scope, Trace};
use faultline_ir::{FuncId, Jump, Program, Stmt, StmtId};
use faultline_smt::Bounds;
use std::collections::HashMap;

/// The most iterations a loop left by a `break` is unrolled to for the
/// `break`'s sake (when some run of the suite needed that many).
pub const JUMP_UNWIND: u32 = 16;

/// Each `break` and `continue` whose innermost loop or `switch` is a loop,
/// with its jump and that loop (by its condition statement): the loops a
/// relaxed `break` can lengthen, the jumps whose keywords can be swapped.
pub fn loop_jumps(prog: &Program) -> Vec<(StmtId, Jump, StmtId)> {
    fn walk(b: &[Stmt], inner: Option<StmtId>, out: &mut Vec<(StmtId, Jump, StmtId)>) {
        for s in b {
            match s {
                Stmt::Break { id } | Stmt::Continue { id } => {
                    let j = match s {
                        Stmt::Break { .. } => Jump::Break,
                        _ => Jump::Continue,
                    };
                    if let Some(l) = inner {
                        out.push((*id, j, l));
                    }
                }
                Stmt::If { then, els, .. } => {
                    walk(then, inner, out);
                    walk(els, inner, out);
                }
                Stmt::While { cond, body, .. } => {
                    let l = cond.as_ref().map_or(StmtId::NO_CONDITION, |c| c.id);
                    walk(body, Some(l), out);
                }
                Stmt::DoWhile { body, cond } => walk(body, Some(cond.id), out),
                Stmt::Switch { body, .. } => walk(body, None, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    for f in &prog.functions {
        walk(&f.body, None, &mut out);
    }
    out
}

/// What the failing runs needed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// Most iterations of each loop in one execution.
    pub loops: HashMap<StmtId, u32>,
    /// Deepest recursion of each function.
    pub depth: HashMap<FuncId, u32>,
}

impl Needs {
    /// Measures one run's trace.
    pub fn of_trace(prog: &Program, trace: &Trace) -> Needs {
        let mut needs = Needs::default();
        let mut seen = std::collections::HashSet::new();
        for ev in &trace.events {
            if !seen.insert(ev.inst.ctx) {
                continue;
            }
            let chain = trace.contexts.chain(ev.inst.ctx);
            let mut calls: HashMap<FuncId, u32> = HashMap::new();
            for s in &chain {
                match s {
                    Scope::Iter(l, k) => {
                        let e = needs.loops.entry(*l).or_insert(0);
                        *e = (*e).max(k + 1);
                    }
                    Scope::Call(site) => {
                        let f = prog.call_sites[site.index()].func;
                        *calls.entry(f).or_insert(0) += 1;
                    }
                }
            }
            for (f, n) in calls {
                let e = needs.depth.entry(f).or_insert(0);
                *e = (*e).max(n);
            }
        }
        needs
    }

    /// Raises to at least `floor` the loops the run was inside at its last
    /// event: a run ended by a runtime error left them before their end, so
    /// its counts are no evidence of how long they run (a relaxed statement
    /// before the error lets them go on).
    pub fn open_at_end(&mut self, trace: &Trace, floor: u32) {
        let Some(last) = trace.events.last() else {
            return;
        };
        for s in trace.contexts.chain(last.inst.ctx) {
            if let Scope::Iter(l, _) = s {
                let e = self.loops.entry(l).or_insert(0);
                *e = (*e).max(floor);
            }
        }
    }

    /// These needs with each loop and function limited to what `others`
    /// needs of it, and at least `floor` (for a run stopped by a limit).
    pub fn capped(&self, others: &Needs, floor: u32) -> Needs {
        let cap = |n: u32, o: Option<&u32>| n.min(o.copied().unwrap_or(0).max(floor));
        Needs {
            loops: self
                .loops
                .iter()
                .map(|(k, v)| (*k, cap(*v, others.loops.get(k))))
                .collect(),
            depth: self
                .depth
                .iter()
                .map(|(k, v)| (*k, cap(*v, others.depth.get(k))))
                .collect(),
        }
    }

    pub fn merge(&mut self, other: &Needs) {
        for (k, v) in &other.loops {
            let e = self.loops.entry(*k).or_insert(0);
            *e = (*e).max(*v);
        }
        for (k, v) in &other.depth {
            let e = self.depth.entry(*k).or_insert(0);
            *e = (*e).max(*v);
        }
    }

    /// The loops and functions whose need exceeds `cap`, for people (the
    /// loop at `file:line`, the function by name).
    pub fn over(&self, prog: &faultline_ir::Program, cap: u32) -> Vec<String> {
        let mut v: Vec<String> = Vec::new();
        let mut loops: Vec<_> = self.loops.iter().filter(|(_, n)| **n > cap).collect();
        loops.sort();
        for (l, n) in loops {
            v.push(format!("{} needs {n} iterations", prog.loop_name(*l)));
        }
        let mut fs: Vec<_> = self.depth.iter().filter(|(_, n)| **n > cap).collect();
        fs.sort();
        for (f, n) in fs {
            v.push(format!(
                "function '{}' recurses {n} deep",
                prog.func(*f).name
            ));
        }
        v
    }

    /// The bounds for the formula: needs plus one, capped.
    pub fn bounds(&self, cap: Option<u32>) -> Bounds {
        let c = |n: u32| match cap {
            Some(cap) => (n + 1).min(cap.max(1)),
            None => n + 1,
        };
        Bounds {
            loops: self.loops.iter().map(|(k, v)| (*k, c(*v))).collect(),
            default_loop: c(1),
            // Functions are entered once; recursion adds levels.
            depth: self
                .depth
                .iter()
                .map(|(k, v)| (*k, c(*v).max(*v)))
                .collect(),
            default_depth: 1,
        }
    }
}
