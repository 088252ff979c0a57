//! The dynamic dependence graph (DDG) of one run.
//!
//! Nodes are the run's statement instances (in execution order), an *entry*
//! node (node 0) and a *failure* node `p` (the last node). An edge `u → v`
//! says that `v` depends on `u`:
//!
//! - **data**: `u` is the last writer of a variable cell `v`'s statement reads
//!   (its static uses; an array or struct read depends on the last writer of
//!   every cell), a parameter read depends on the call instance that passed
//!   it, and a statement calling a function depends on the callee's `return`;
//! - **control**: `u` is the latest instance, in the same function
//!   activation, of a condition the statement is control-dependent on (a
//!   function's top-level statements depend on the call instance);
//! - **summary control**: `u` is a condition instance executed after the last
//!   write of a variable `v`'s statement reads, one of whose *other* outcomes
//!   may assign that variable (statically: the statements control-dependent on
//!   that outcome, transitively, and the globals their callees may assign).
//!   Had `u` gone the other way, the value read could have been another.
//!
//! Instances with no dependence depend on the entry; `p` depends on the
//! output instances (and on the last instance when the run ended abnormally).
//! `break` and `continue` compute nothing and are not nodes.

use faultline_exec::trace::{CtxId, Outcome, Scope, Target};
use faultline_exec::{Termination, Trace};
use faultline_ir::visit::any_expr;
use faultline_ir::{
    Block, Branch, Builtin, Expr, ExprKind, FuncId, Program, Stmt, StmtId, StmtKind, VarRef,
};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

/// Why one instance depends on another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DepKind {
    Data,
    Control,
    Summary,
}

/// A node of the DDG.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// Index of the event in the trace (`None` for entry and failure).
    pub event: Option<usize>,
    pub stmt: Option<StmtId>,
    pub ctx: Vec<Scope>,
    /// The outcome, for condition instances.
    pub outcome: Option<Branch>,
    /// The instance reads the test's input (never cut, never altered).
    pub input: bool,
    /// The instance writes output (part of the failure point).
    pub output: bool,
}

/// Static facts per statement that the DDG needs beyond [`faultline_ir::StmtInfo`].
#[derive(Clone, Debug, Default)]
pub struct StmtFacts {
    pub output: Vec<bool>,
    pub input: Vec<bool>,
    /// Per (condition, outcome): the variables the statements
    /// control-dependent on that outcome may assign (transitively, callees'
    /// globals included).
    pub may_def: HashMap<(StmtId, Branch), BTreeSet<VarRef>>,
}

impl StmtFacts {
    pub fn of(prog: &Program) -> StmtFacts {
        let n = prog.stmts.len();
        let mut f = StmtFacts {
            output: vec![false; n],
            input: vec![false; n],
            may_def: HashMap::new(),
        };
        for func in &prog.functions {
            walk_block(&func.body, &mut |id, e| {
                let (o, i) = builtins(e);
                f.output[id.index()] |= o;
                f.input[id.index()] |= i;
            });
        }
        // Globals each function may assign, transitively through calls.
        let mut fdefs: Vec<BTreeSet<VarRef>> = vec![BTreeSet::new(); prog.functions.len()];
        loop {
            let mut changed = false;
            for s in prog.stmts.iter().filter(|s| s.kind.is_written()) {
                let mut add: BTreeSet<VarRef> = s
                    .defs
                    .iter()
                    .filter(|v| matches!(v, VarRef::Global(_)))
                    .copied()
                    .collect();
                for c in &s.calls {
                    add.extend(fdefs[c.index()].iter().copied());
                }
                let before = fdefs[s.func.index()].len();
                fdefs[s.func.index()].extend(add);
                changed |= fdefs[s.func.index()].len() != before;
            }
            if !changed {
                break;
            }
        }
        loop {
            let mut changed = false;
            for (i, s) in prog.stmts.iter().enumerate() {
                if !s.kind.is_written() {
                    continue;
                }
                let id = StmtId(i as u32);
                let mut add: BTreeSet<VarRef> = s.defs.iter().copied().collect();
                for c in &s.calls {
                    add.extend(fdefs[c.index()].iter().copied());
                }
                if s.kind.is_condition() {
                    for ((c, _), d) in &f.may_def {
                        if *c == id {
                            add.extend(d.iter().copied());
                        }
                    }
                }
                for dep in &s.control {
                    let e = f.may_def.entry(*dep).or_default();
                    let before = e.len();
                    e.extend(add.iter().copied());
                    changed |= e.len() != before;
                }
            }
            if !changed {
                break;
            }
        }
        f
    }

    /// Variables the outcomes of `cond` other than `taken` may assign.
    fn untaken_defs(&self, cond: StmtId, taken: Branch) -> BTreeSet<VarRef> {
        let mut out = BTreeSet::new();
        for ((c, b), d) in &self.may_def {
            if *c == cond && *b != taken {
                out.extend(d.iter().copied());
            }
        }
        out
    }
}

/// Whether `e` calls an output function, and whether it reads input.
fn builtins(e: &Expr) -> (bool, bool) {
    let calls = |test: fn(Builtin) -> bool| {
        any_expr(e, |x| match &x.kind {
            ExprKind::Builtin { func, .. } if test(*func) => Some(true),
            _ => None,
        })
    };
    (calls(Builtin::is_output), calls(Builtin::is_input))
}

fn walk_block(b: &Block, f: &mut dyn FnMut(StmtId, &Expr)) {
    for s in b {
        walk_stmt(s, f);
    }
}

fn walk_stmt(s: &Stmt, f: &mut dyn FnMut(StmtId, &Expr)) {
    match s {
        Stmt::Expr { id, expr } => f(*id, expr),
        Stmt::Init { id, init, .. } => init.items.iter().for_each(|it| f(*id, &it.value)),
        Stmt::Declare { .. }
        | Stmt::Insert { .. }
        | Stmt::Break { .. }
        | Stmt::Continue { .. }
        | Stmt::Goto { .. }
        | Stmt::Label { .. } => {}
        Stmt::If { cond, then, els } => {
            f(cond.id, &cond.expr);
            walk_block(then, f);
            walk_block(els, f);
        }
        Stmt::While { cond, body, step } => {
            if let Some(c) = cond {
                f(c.id, &c.expr);
            }
            walk_block(body, f);
            if let Some(s) = step {
                walk_stmt(s, f);
            }
        }
        Stmt::DoWhile { body, cond } => {
            walk_block(body, f);
            f(cond.id, &cond.expr);
        }
        Stmt::Switch { cond, body, .. } => {
            f(cond.id, &cond.expr);
            walk_block(body, f);
        }
        Stmt::Return { id, value } => {
            if let Some(v) = value {
                f(*id, v)
            }
        }
    }
}

/// The dynamic dependence graph of a run.
#[derive(Clone, Debug)]
pub struct Ddg {
    pub nodes: Vec<Node>,
    /// `(u, v, kind)`: `v` depends on `u`; sorted, without duplicates.
    pub edges: Vec<(usize, usize, DepKind)>,
    /// Per node, the nodes it depends on (sorted).
    pub preds: Vec<Vec<usize>>,
    /// Per node, the nodes depending on it (sorted).
    pub succs: Vec<Vec<usize>>,
    /// Shortest dependence distance of each node to the failure (`u32::MAX`: none).
    pub distance: Vec<u32>,
}

/// One function activation while scanning the trace.
struct Act {
    ctx: CtxId,
    caller: Option<usize>,
    last_of: HashMap<StmtId, usize>,
    locals: HashMap<VarRef, BTreeMap<u32, usize>>,
    /// Condition instances whose other outcomes may assign a local.
    summary: HashMap<VarRef, Vec<usize>>,
    /// The node whose writes are not applied yet (they happen after its callees).
    pending: Option<usize>,
    ret: Option<usize>,
}

/// Scans a trace into a DDG.
struct Builder<'a> {
    prog: &'a Program,
    trace: &'a Trace,
    facts: &'a StmtFacts,
    nodes: Vec<Node>,
    edges: BTreeSet<(usize, usize, DepKind)>,
    globals: HashMap<VarRef, BTreeMap<u32, usize>>,
    gsummary: HashMap<VarRef, Vec<usize>>,
    stack: Vec<Act>,
    /// Per node, its control dependences (dynamic).
    ctl: Vec<Vec<usize>>,
    /// Per node, its data dependences on variables (not on callees' returns).
    data: Vec<Vec<usize>>,
}

/// Summary dependences considered per variable read (the latest ones).
const SUMMARY_WINDOW: usize = 64;

impl Ddg {
    pub const ENTRY: usize = 0;

    /// The failure node.
    pub fn failure(&self) -> usize {
        self.nodes.len() - 1
    }

    /// Builds the DDG of `trace` (a run of `prog` that ended with `termination`).
    pub fn build(prog: &Program, trace: &Trace, termination: &Termination) -> Ddg {
        let facts = StmtFacts::of(prog);
        let mut b = Builder {
            prog,
            trace,
            facts: &facts,
            nodes: vec![Node {
                event: None,
                stmt: None,
                ctx: Vec::new(),
                outcome: None,
                input: false,
                output: false,
            }],
            edges: BTreeSet::new(),
            globals: HashMap::new(),
            gsummary: HashMap::new(),
            stack: vec![Act::new(CtxId::ROOT, None)],
            ctl: vec![Vec::new()],
            data: vec![Vec::new()],
        };
        let mut outputs = Vec::new();
        for (i, ev) in trace.events.iter().enumerate() {
            let info = prog.stmt(ev.inst.stmt);
            if matches!(
                info.kind,
                StmtKind::Break | StmtKind::Continue | StmtKind::Goto
            ) {
                continue;
            }
            let n = b.event(i);
            if facts.output[ev.inst.stmt.index()] {
                outputs.push(n);
            }
        }
        while b.stack.len() > 1 {
            b.pop();
        }
        if let Some(p) = b.stack.last().and_then(|a| a.pending) {
            b.apply_writes(p);
        }
        let last = b.nodes.len() - 1;
        let p = b.nodes.len();
        b.nodes.push(Node {
            event: None,
            stmt: None,
            ctx: Vec::new(),
            outcome: None,
            input: false,
            output: false,
        });
        let abnormal = !matches!(termination, Termination::Exit(_));
        if (abnormal || outputs.is_empty()) && last > 0 {
            outputs.push(last);
        }
        for o in outputs {
            b.edges.insert((o, p, DepKind::Data));
        }
        // Input-only instances are dropped: the input is a fact, so what
        // reads it depends on the entry instead.
        let input: Vec<bool> = b.nodes.iter().map(|x| x.input).collect();
        b.edges = std::mem::take(&mut b.edges)
            .into_iter()
            .filter(|&(_, v, _)| !input[v])
            .map(|(u, v, k)| {
                if input[u] {
                    (Ddg::ENTRY, v, k)
                } else {
                    (u, v, k)
                }
            })
            .collect();
        let n = b.nodes.len();
        let mut has_pred = vec![false; n];
        for &(_, v, _) in &b.edges {
            has_pred[v] = true;
        }
        for (v, has) in has_pred.iter().enumerate().skip(1) {
            if !has {
                b.edges.insert((Ddg::ENTRY, v, DepKind::Data));
            }
        }
        Ddg::from_parts(b.nodes, b.edges.into_iter().collect())
    }

    /// A DDG from nodes and edges (node 0 the entry, the last node the failure).
    pub fn from_parts(nodes: Vec<Node>, mut edges: Vec<(usize, usize, DepKind)>) -> Ddg {
        edges.sort();
        edges.dedup();
        let n = nodes.len();
        let mut preds = vec![Vec::new(); n];
        let mut succs = vec![Vec::new(); n];
        for &(u, v, _) in &edges {
            preds[v].push(u);
            succs[u].push(v);
        }
        for l in preds.iter_mut().chain(succs.iter_mut()) {
            l.sort_unstable();
            l.dedup();
        }
        let mut distance = vec![u32::MAX; n];
        let mut q = VecDeque::new();
        distance[n - 1] = 0;
        q.push_back(n - 1);
        while let Some(v) = q.pop_front() {
            for &u in &preds[v] {
                if distance[u] == u32::MAX {
                    distance[u] = distance[v] + 1;
                    q.push_back(u);
                }
            }
        }
        Ddg {
            nodes,
            edges,
            preds,
            succs,
            distance,
        }
    }

    /// Nodes reachable from `from` following dependences forward (`from` included).
    pub fn descendants(&self, from: &[usize]) -> Vec<bool> {
        reach(&self.succs, from)
    }

    /// Nodes from which `to` is reachable (`to` included).
    pub fn ancestors(&self, to: &[usize]) -> Vec<bool> {
        reach(&self.preds, to)
    }

    /// A shortest dependence chain from `v` to the failure (both included).
    pub fn chain(&self, v: usize) -> Vec<usize> {
        let mut out = vec![v];
        let mut cur = v;
        while self.distance[cur] > 0 && self.distance[cur] != u32::MAX {
            let next = self.succs[cur]
                .iter()
                .copied()
                .filter(|&s| self.distance[s] == self.distance[cur] - 1)
                .min();
            match next {
                Some(s) => {
                    out.push(s);
                    cur = s;
                }
                None => break,
            }
        }
        out
    }

    /// Whether the node is a two-way condition instance (`if`, loop).
    pub fn is_branch(&self, prog: &Program, v: usize) -> bool {
        self.nodes[v].stmt.is_some_and(|s| {
            matches!(
                prog.stmt(s).kind,
                StmtKind::IfCond | StmtKind::LoopCond | StmtKind::DoWhileCond
            )
        }) && matches!(self.nodes[v].outcome, Some(Branch::True | Branch::False))
    }
}

fn reach(adj: &[Vec<usize>], from: &[usize]) -> Vec<bool> {
    let mut seen = vec![false; adj.len()];
    let mut q: Vec<usize> = from.to_vec();
    for &f in from {
        seen[f] = true;
    }
    while let Some(v) = q.pop() {
        for &w in &adj[v] {
            if !seen[w] {
                seen[w] = true;
                q.push(w);
            }
        }
    }
    seen
}

impl Act {
    fn new(ctx: CtxId, caller: Option<usize>) -> Act {
        Act {
            ctx,
            caller,
            last_of: HashMap::new(),
            locals: HashMap::new(),
            summary: HashMap::new(),
            pending: None,
            ret: None,
        }
    }
}

impl Builder<'_> {
    /// The activation (innermost call context) of a context.
    fn activation(&self, mut ctx: CtxId) -> CtxId {
        let list = &self.trace.contexts.list;
        while ctx != CtxId::ROOT {
            let c = list[ctx.0 as usize];
            if matches!(c.scope, Scope::Call(_)) {
                return ctx;
            }
            ctx = c.parent;
        }
        CtxId::ROOT
    }

    fn pop(&mut self) {
        let act = self.stack.pop().expect("an activation to leave");
        if let Some(p) = act.pending {
            self.apply_writes_in(p, None);
        }
        if let (Some(r), Some(c)) = (act.ret, act.caller) {
            self.edges.insert((r, c, DepKind::Data));
        }
        let _ = act.ctx;
    }

    /// Makes the activation of `ctx` the innermost one.
    fn enter(&mut self, ctx: CtxId) {
        let a = self.activation(ctx);
        if self.stack.iter().any(|x| x.ctx == a) {
            while self.stack.last().is_some_and(|x| x.ctx != a) {
                self.pop();
            }
            return;
        }
        // A new activation: its parent must be on the stack.
        let parent = self.activation(self.trace.contexts.list[a.0 as usize].parent);
        if self.stack.iter().any(|x| x.ctx == parent) {
            while self.stack.last().is_some_and(|x| x.ctx != parent) {
                self.pop();
            }
        }
        let caller = self.stack.last().and_then(|x| x.pending);
        self.stack.push(Act::new(a, caller));
    }

    fn apply_writes(&mut self, n: usize) {
        let top = self.stack.len() - 1;
        self.apply_writes_in(n, Some(top));
    }

    fn apply_writes_in(&mut self, n: usize, act: Option<usize>) {
        let ev = &self.trace.events[self.nodes[n].event.expect("an instance")];
        for w in &ev.writes {
            match w.target {
                Target::Var { var, cell } => match var {
                    VarRef::Global(_) => {
                        self.globals.entry(var).or_default().insert(cell, n);
                    }
                    VarRef::Local(..) => {
                        if let Some(a) = act {
                            self.stack[a].locals.entry(var).or_default().insert(cell, n);
                        }
                    }
                    VarRef::Indirect => {}
                },
                Target::Return => {}
                Target::Other { .. } => {}
            }
        }
    }

    fn event(&mut self, i: usize) -> usize {
        let ev = &self.trace.events[i];
        let stmt = ev.inst.stmt;
        let info = self.prog.stmt(stmt);
        self.enter(ev.inst.ctx);
        if let Some(p) = self.stack.last_mut().and_then(|a| a.pending.take()) {
            self.apply_writes(p);
        }
        let n = self.nodes.len();
        self.nodes.push(Node {
            event: Some(i),
            stmt: Some(stmt),
            ctx: self.trace.contexts.chain(ev.inst.ctx),
            outcome: match ev.outcome {
                Outcome::Branch(b) => Some(b),
                Outcome::None => None,
            },
            input: self.facts.input[stmt.index()],
            output: self.facts.output[stmt.index()],
        });
        self.ctl.push(Vec::new());
        let top = self.stack.len() - 1;
        // Data dependences.
        let mut data_preds: Vec<usize> = Vec::new();
        for &v in &info.uses {
            let (writers, summary): (Vec<usize>, &[usize]) = match v {
                VarRef::Global(_) => (
                    self.globals
                        .get(&v)
                        .map(|m| m.values().copied().collect())
                        .unwrap_or_default(),
                    self.gsummary.get(&v).map_or(&[], |s| s.as_slice()),
                ),
                VarRef::Local(f, l) => {
                    let a = &self.stack[top];
                    let w: Vec<usize> = a
                        .locals
                        .get(&v)
                        .map(|m| m.values().copied().collect())
                        .unwrap_or_default();
                    // A parameter not assigned yet holds what the call passed:
                    // it depends on what the call's arguments read.
                    let w = if w.is_empty() && is_param(self.prog, f, l) {
                        a.caller.map(|c| self.data[c].clone()).unwrap_or_default()
                    } else {
                        w
                    };
                    (w, a.summary.get(&v).map_or(&[], |s| s.as_slice()))
                }
                VarRef::Indirect => continue,
            };
            let last = writers.iter().copied().max().unwrap_or(0);
            let candidates: Vec<usize> = summary
                .iter()
                .rev()
                .take(SUMMARY_WINDOW)
                .copied()
                .filter(|&c| c > last)
                .collect();
            data_preds.extend(writers.iter().copied());
            for w in writers {
                self.edges.insert((w, n, DepKind::Data));
            }
            // Only the innermost candidates: one another candidate depends on
            // (through control dependences) reaches the use through it.
            let mut kept: Vec<usize> = Vec::new();
            for c in candidates {
                if !kept.iter().any(|&k| self.control_reaches(c, k)) {
                    kept.push(c);
                }
            }
            for c in kept {
                self.edges.insert((c, n, DepKind::Summary));
            }
        }
        // Control dependences.
        let a = &self.stack[top];
        let mut ctl = Vec::new();
        for (c, _) in &info.control {
            if let Some(&u) = a.last_of.get(c) {
                ctl.push(u);
            }
        }
        if info.control.is_empty() {
            // A function's top-level statements run when its call does.
            if let Some(c) = a.caller {
                ctl.extend(self.ctl[c].iter().copied());
            }
        }
        for &u in &ctl {
            self.edges.insert((u, n, DepKind::Control));
        }
        self.ctl[n] = ctl;
        data_preds.sort_unstable();
        data_preds.dedup();
        self.data.push(data_preds);
        // Bookkeeping for later instances.
        let a = &mut self.stack[top];
        a.last_of.insert(stmt, n);
        if info.kind == StmtKind::Return {
            a.ret = Some(n);
        }
        if let Outcome::Branch(taken) = ev.outcome {
            for v in self.facts.untaken_defs(stmt, taken) {
                match v {
                    VarRef::Global(_) => self.gsummary.entry(v).or_default().push(n),
                    VarRef::Local(..) => self.stack[top].summary.entry(v).or_default().push(n),
                    VarRef::Indirect => {}
                }
            }
        }
        self.stack[top].pending = Some(n);
        n
    }
}

impl Builder<'_> {
    /// Whether `to` depends on `from` through control dependences.
    fn control_reaches(&self, from: usize, to: usize) -> bool {
        let mut stack = vec![to];
        let mut seen = BTreeSet::new();
        while let Some(v) = stack.pop() {
            if v == from {
                return true;
            }
            if v < from || !seen.insert(v) {
                continue;
            }
            stack.extend(self.ctl[v].iter().copied());
        }
        false
    }
}

fn is_param(prog: &Program, f: FuncId, l: faultline_ir::LocalId) -> bool {
    prog.func(f).params.contains(&l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_and_chain_on_a_small_graph() {
        let node = || Node {
            event: None,
            stmt: None,
            ctx: Vec::new(),
            outcome: None,
            input: false,
            output: false,
        };
        // 0 → 1 → 2 → 4, 0 → 3 → 4 (4 is the failure).
        let g = Ddg::from_parts(
            (0..5).map(|_| node()).collect(),
            vec![
                (0, 1, DepKind::Data),
                (1, 2, DepKind::Data),
                (2, 4, DepKind::Data),
                (0, 3, DepKind::Control),
                (3, 4, DepKind::Data),
            ],
        );
        assert_eq!(g.distance, vec![2, 2, 1, 1, 0]);
        assert_eq!(g.chain(1), vec![1, 2, 4]);
        assert_eq!(g.chain(0), vec![0, 3, 4]);
        assert_eq!(g.ancestors(&[2]), vec![true, true, true, false, false]);
        assert_eq!(g.descendants(&[3]), vec![false, false, false, true, true]);
    }
}
