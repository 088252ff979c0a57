//! Static facts about statements: defs, uses, direct calls and control dependences.
//!
//! Defs and uses are those of the statement's own expressions (a condition's
//! expression, an assignment's place and value), not of its callees. A place
//! reached through a pointer is [`VarRef::Indirect`], except where a library
//! function is given `&x` or an array `x`: its writes (`scanf`'s targets,
//! `strcpy`/`strncpy`/`strcat`'s destination) are defs of `x`, and its reads
//! of a string (`printf`'s `%s` arguments, `strlen`, `strcmp`, `atoi`, the
//! source of `strcpy`, ...) are uses of `x`. String literals are not
//! variables: reading one is no use.
//!
//! Control dependences follow Ferrante, Ottenstein and Warren: on each
//! function's statement-level control-flow graph, statement S is
//! control-dependent on condition C with outcome b when S post-dominates C's
//! b-successor but not C itself. Statements that cannot reach the function's
//! exit (infinite loops) are given an edge to it, the usual convention.

use crate::{
    Block, Branch, Builtin, Expr, ExprKind, FuncId, Place, PlaceKind, Program, Stmt, StmtId, Type,
    Var, VarRef,
};
use std::collections::{BTreeSet, HashMap};

/// Fills `defs`, `uses`, `calls` and `control` of every [`crate::StmtInfo`] of `program`.
pub fn compute(program: &mut Program) {
    let mut facts: Vec<(StmtId, Facts)> = Vec::new();
    let mut control: Vec<(StmtId, Vec<(StmtId, Branch)>)> = Vec::new();
    for (i, f) in program.functions.iter().enumerate() {
        let fid = FuncId(i as u32);
        visit_block(&f.body, &mut |s| stmt_facts(fid, s, &mut facts));
        control.extend(control_dependences(&f.body));
    }
    for (id, f) in facts {
        let info = &mut program.stmts[id.index()];
        info.defs = f.defs.into_iter().collect();
        info.uses = f.uses.into_iter().collect();
        info.calls = f.calls.into_iter().collect();
    }
    for (id, deps) in control {
        program.stmts[id.index()].control = deps;
    }
}

/// Whether the program computes with floating values anywhere (solvers for
/// pure bit-vector formulas are much faster).
pub fn uses_floats(program: &Program) -> bool {
    fn expr(e: &Expr) -> bool {
        if e.ty.is_float() {
            return true;
        }
        match &e.kind {
            ExprKind::Int(_)
            | ExprKind::Float(_)
            | ExprKind::Str(_)
            | ExprKind::Stream(_)
            | ExprKind::Old => false,
            ExprKind::Load(p) | ExprKind::AddrOf(p) => place(p),
            ExprKind::Unary(_, a) | ExprKind::Cast(a) => expr(a),
            ExprKind::Binary(_, a, b)
            | ExprKind::Cmp(_, a, b)
            | ExprKind::PtrAdd(a, b)
            | ExprKind::PtrDiff(a, b)
            | ExprKind::And(a, b)
            | ExprKind::Or(a, b)
            | ExprKind::Comma(a, b) => expr(a) || expr(b),
            ExprKind::Cond(c, a, b) => expr(c) || expr(a) || expr(b),
            ExprKind::Assign {
                place: p, value, ..
            } => place(p) || expr(value),
            ExprKind::Call { args, .. } | ExprKind::Builtin { args, .. } => args.iter().any(expr),
        }
    }
    fn place(p: &Place) -> bool {
        p.ty.is_float()
            || match &p.kind {
                PlaceKind::Var(_) => false,
                PlaceKind::Deref(e) => expr(e),
                PlaceKind::Index(b, i) => place(b) || expr(i),
                PlaceKind::Field(b, _) => place(b),
            }
    }
    let mut found = program
        .globals
        .iter()
        .any(|g| g.init.items.iter().any(|i| expr(&i.value)));
    for f in &program.functions {
        visit_block(&f.body, &mut |s| {
            found |= match s {
                Stmt::Expr { expr: e, .. } | Stmt::Return { value: Some(e), .. } => expr(e),
                Stmt::Init { init, .. } => init.items.iter().any(|i| expr(&i.value)),
                Stmt::If { cond, .. } | Stmt::DoWhile { cond, .. } | Stmt::Switch { cond, .. } => {
                    expr(&cond.expr)
                }
                Stmt::While { cond: Some(c), .. } => expr(&c.expr),
                _ => false,
            };
        });
    }
    found
}

fn visit_block<'a>(b: &'a Block, f: &mut dyn FnMut(&'a Stmt)) {
    for s in b {
        f(s);
        match s {
            Stmt::If { then, els, .. } => {
                visit_block(then, f);
                visit_block(els, f);
            }
            Stmt::While { body, step, .. } => {
                visit_block(body, f);
                if let Some(st) = step {
                    f(st);
                }
            }
            Stmt::DoWhile { body, .. } | Stmt::Switch { body, .. } => visit_block(body, f),
            _ => {}
        }
    }
}

#[derive(Default)]
struct Facts {
    defs: BTreeSet<VarRef>,
    uses: BTreeSet<VarRef>,
    calls: BTreeSet<FuncId>,
}

fn stmt_facts(func: FuncId, s: &Stmt, out: &mut Vec<(StmtId, Facts)>) {
    let mut f = Facts::default();
    let id = match s {
        Stmt::Expr { id, expr } => {
            expr_facts(func, expr, &mut f);
            *id
        }
        Stmt::Init {
            id, local, init, ..
        } => {
            f.defs.insert(VarRef::Local(func, *local));
            for item in &init.items {
                expr_facts(func, &item.value, &mut f);
            }
            *id
        }
        Stmt::Return { id, value } => {
            if let Some(e) = value {
                expr_facts(func, e, &mut f);
            }
            *id
        }
        Stmt::Break { id } | Stmt::Continue { id } => *id,
        Stmt::If { cond, .. } | Stmt::DoWhile { cond, .. } | Stmt::Switch { cond, .. } => {
            expr_facts(func, &cond.expr, &mut f);
            cond.id
        }
        Stmt::While {
            cond: Some(cond), ..
        } => {
            expr_facts(func, &cond.expr, &mut f);
            cond.id
        }
        Stmt::While { cond: None, .. } | Stmt::Declare { .. } => return,
    };
    out.push((id, f));
}

fn var_ref(func: FuncId, v: Var) -> VarRef {
    match v {
        Var::Global(g) => VarRef::Global(g),
        Var::Local(l) => VarRef::Local(func, l),
    }
}

/// The variable a place is rooted at, if it is not reached through a pointer.
fn root(func: FuncId, p: &Place) -> VarRef {
    match &p.kind {
        PlaceKind::Var(v) => var_ref(func, *v),
        PlaceKind::Index(b, _) | PlaceKind::Field(b, _) => root(func, b),
        PlaceKind::Deref(_) => VarRef::Indirect,
    }
}

/// Records the uses made while computing a place's address.
fn place_address_uses(func: FuncId, p: &Place, f: &mut Facts) {
    match &p.kind {
        PlaceKind::Var(_) => {}
        PlaceKind::Deref(e) => expr_facts(func, e, f),
        PlaceKind::Index(b, i) => {
            place_address_uses(func, b, f);
            expr_facts(func, i, f);
        }
        PlaceKind::Field(b, _) => place_address_uses(func, b, f),
    }
}

/// The variable a pointer argument designates when it is `&place` or a decayed array.
fn pointed_root(func: FuncId, e: &Expr) -> VarRef {
    match &e.kind {
        ExprKind::AddrOf(p) => root(func, p),
        ExprKind::Cast(inner) => pointed_root(func, inner),
        _ => VarRef::Indirect,
    }
}

fn expr_facts(func: FuncId, e: &Expr, f: &mut Facts) {
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Stream(_)
        | ExprKind::Old => {}
        ExprKind::Load(p) => {
            f.uses.insert(root(func, p));
            place_address_uses(func, p, f);
        }
        ExprKind::AddrOf(p) => place_address_uses(func, p, f),
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => expr_facts(func, a, f),
        ExprKind::Binary(_, a, b)
        | ExprKind::Cmp(_, a, b)
        | ExprKind::PtrAdd(a, b)
        | ExprKind::PtrDiff(a, b)
        | ExprKind::And(a, b)
        | ExprKind::Or(a, b)
        | ExprKind::Comma(a, b) => {
            expr_facts(func, a, f);
            expr_facts(func, b, f);
        }
        ExprKind::Cond(c, a, b) => {
            expr_facts(func, c, f);
            expr_facts(func, a, f);
            expr_facts(func, b, f);
        }
        ExprKind::Assign { place, value, .. } => {
            f.defs.insert(root(func, place));
            if contains_old(value) {
                f.uses.insert(root(func, place));
            }
            place_address_uses(func, place, f);
            expr_facts(func, value, f);
        }
        ExprKind::Call {
            func: callee, args, ..
        } => {
            f.calls.insert(*callee);
            for a in args {
                expr_facts(func, a, f);
            }
        }
        ExprKind::Builtin { func: b, args } => {
            for a in args {
                expr_facts(func, a, f);
            }
            for (i, a) in args.iter().enumerate() {
                let written = match b {
                    Builtin::Strcpy | Builtin::Strncpy | Builtin::Strcat => i == 0,
                    Builtin::Scanf => i > 0,
                    _ => false,
                };
                // `strcat` also reads its destination (to find its end).
                let read = match b {
                    Builtin::Strcpy | Builtin::Strncpy | Builtin::Scanf => !written,
                    _ => true,
                };
                if written {
                    f.defs.insert(pointed_root(func, a));
                }
                if read && is_string(&a.ty) && !is_literal(a) {
                    f.uses.insert(pointed_root(func, a));
                }
            }
        }
    }
}

/// Whether a library function's argument is a string (`char *`), which it reads.
fn is_string(t: &Type) -> bool {
    matches!(t, Type::Ptr(c) if matches!(**c, Type::Int(k) if k.rank() == 1))
}

fn is_literal(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Str(_) => true,
        ExprKind::Cast(inner) => is_literal(inner),
        _ => false,
    }
}

fn contains_old(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Old => true,
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => contains_old(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::Cmp(_, a, b)
        | ExprKind::PtrAdd(a, b)
        | ExprKind::PtrDiff(a, b)
        | ExprKind::And(a, b)
        | ExprKind::Or(a, b)
        | ExprKind::Comma(a, b) => contains_old(a) || contains_old(b),
        ExprKind::Cond(c, a, b) => contains_old(c) || contains_old(a) || contains_old(b),
        // An inner assignment's `Old` refers to its own place.
        _ => false,
    }
}

// ----- control dependences ------------------------------------------------

const EXIT: usize = 0;

/// A function's statement-level CFG: node 0 is the exit; other nodes are
/// statements (or the heads of `for (;;)` loops).
struct Cfg {
    stmt: Vec<Option<StmtId>>,
    succ: Vec<Vec<(usize, Option<Branch>)>>,
    index: HashMap<StmtId, usize>,
}

impl Cfg {
    fn node(&mut self, s: Option<StmtId>) -> usize {
        if let Some(id) = s {
            if let Some(&n) = self.index.get(&id) {
                return n;
            }
        }
        self.stmt.push(s);
        self.succ.push(Vec::new());
        let n = self.stmt.len() - 1;
        if let Some(id) = s {
            self.index.insert(id, n);
        }
        n
    }
    fn edge(&mut self, a: usize, b: usize, l: Option<Branch>) {
        self.succ[a].push((b, l));
    }

    /// Builds `block` with `next` as its successor; returns its entry node.
    fn block(&mut self, b: &Block, next: usize, brk: usize, cont: usize) -> usize {
        let mut succ = next;
        for s in b.iter().rev() {
            succ = self.stmt_node(s, succ, brk, cont);
        }
        succ
    }

    fn stmt_node(&mut self, s: &Stmt, next: usize, brk: usize, cont: usize) -> usize {
        match s {
            Stmt::Declare { .. } => next,
            Stmt::Expr { id, .. } | Stmt::Init { id, .. } => {
                let n = self.node(Some(*id));
                self.edge(n, next, None);
                n
            }
            Stmt::Return { id, .. } => {
                let n = self.node(Some(*id));
                self.edge(n, EXIT, None);
                n
            }
            Stmt::Break { id } => {
                let n = self.node(Some(*id));
                self.edge(n, brk, None);
                n
            }
            Stmt::Continue { id } => {
                let n = self.node(Some(*id));
                self.edge(n, cont, None);
                n
            }
            Stmt::If { cond, then, els } => {
                let c = self.node(Some(cond.id));
                let t = self.block(then, next, brk, cont);
                let e = self.block(els, next, brk, cont);
                self.edge(c, t, Some(Branch::True));
                self.edge(c, e, Some(Branch::False));
                c
            }
            Stmt::While { cond, body, step } => {
                let head = self.node(cond.as_ref().map(|c| c.id));
                let step_entry = match step {
                    Some(st) => self.stmt_node(st, head, brk, cont),
                    None => head,
                };
                let b = self.block(body, step_entry, next, step_entry);
                if cond.is_some() {
                    self.edge(head, b, Some(Branch::True));
                    self.edge(head, next, Some(Branch::False));
                } else {
                    self.edge(head, b, None);
                }
                head
            }
            Stmt::DoWhile { body, cond } => {
                let c = self.node(Some(cond.id));
                let b = self.block(body, c, next, c);
                self.edge(c, b, Some(Branch::True));
                self.edge(c, next, Some(Branch::False));
                b
            }
            Stmt::Switch {
                cond,
                body,
                cases,
                default,
            } => {
                let c = self.node(Some(cond.id));
                let mut entries = vec![next; body.len() + 1];
                for i in (0..body.len()).rev() {
                    entries[i] = self.stmt_node(&body[i], entries[i + 1], next, cont);
                }
                for (k, case) in cases.iter().enumerate() {
                    self.edge(c, entries[case.target], Some(Branch::Case(k as u32)));
                }
                self.edge(
                    c,
                    default.map_or(next, |d| entries[d]),
                    Some(Branch::Default),
                );
                c
            }
        }
    }
}

fn control_dependences(body: &Block) -> Vec<(StmtId, Vec<(StmtId, Branch)>)> {
    let mut g = Cfg {
        stmt: vec![None],
        succ: vec![Vec::new()],
        index: HashMap::new(),
    };
    g.block(body, EXIT, EXIT, EXIT);
    let n = g.stmt.len();
    // Nodes that cannot reach the exit get an edge to it.
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (a, ss) in g.succ.iter().enumerate() {
        for &(b, _) in ss {
            preds[b].push(a);
        }
    }
    let mut reach = vec![false; n];
    let mut stack = vec![EXIT];
    reach[EXIT] = true;
    while let Some(x) = stack.pop() {
        for &p in &preds[x] {
            if !reach[p] {
                reach[p] = true;
                stack.push(p);
            }
        }
    }
    let mut extra: Vec<Vec<usize>> = vec![Vec::new(); n];
    for a in 1..n {
        if !reach[a] {
            extra[a].push(EXIT);
        }
    }
    let succs = |a: usize| {
        g.succ[a]
            .iter()
            .map(|&(b, _)| b)
            .chain(extra[a].iter().copied())
    };
    // Post-dominators by the iterative algorithm of Cooper, Harvey and Kennedy
    // on the reverse graph, rooted at the exit.
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    // Reverse-graph DFS from EXIT (over predecessors, including virtual edges).
    let mut rpreds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for a in 0..n {
        for b in succs(a) {
            rpreds[b].push(a);
        }
    }
    fn dfs(x: usize, rpreds: &[Vec<usize>], seen: &mut [bool], order: &mut Vec<usize>) {
        let mut stack = vec![(x, 0usize)];
        seen[x] = true;
        while let Some((node, i)) = stack.pop() {
            if i < rpreds[node].len() {
                stack.push((node, i + 1));
                let next = rpreds[node][i];
                if !seen[next] {
                    seen[next] = true;
                    stack.push((next, 0));
                }
            } else {
                order.push(node);
            }
        }
    }
    dfs(EXIT, &rpreds, &mut seen, &mut order);
    let mut po_num = vec![usize::MAX; n];
    for (i, &x) in order.iter().enumerate() {
        po_num[x] = i;
    }
    let mut ipdom = vec![usize::MAX; n];
    ipdom[EXIT] = EXIT;
    let mut changed = true;
    while changed {
        changed = false;
        for &x in order.iter().rev() {
            if x == EXIT {
                continue;
            }
            let mut new = usize::MAX;
            for s in succs(x) {
                if ipdom[s] == usize::MAX {
                    continue;
                }
                new = if new == usize::MAX {
                    s
                } else {
                    let (mut a, mut b) = (new, s);
                    while a != b {
                        while po_num[a] < po_num[b] {
                            a = ipdom[a];
                        }
                        while po_num[b] < po_num[a] {
                            b = ipdom[b];
                        }
                    }
                    a
                };
            }
            if new != usize::MAX && ipdom[x] != new {
                ipdom[x] = new;
                changed = true;
            }
        }
    }
    let mut deps: Vec<BTreeSet<(StmtId, Branch)>> = vec![BTreeSet::new(); n];
    for a in 1..n {
        let Some(cid) = g.stmt[a] else { continue };
        for &(b, l) in &g.succ[a] {
            let Some(l) = l else { continue };
            let stop = ipdom[a];
            let mut x = b;
            while x != stop && x != EXIT && x != usize::MAX {
                deps[x].insert((cid, l));
                x = ipdom[x];
            }
        }
    }
    (1..n)
        .filter_map(|x| g.stmt[x].map(|id| (id, deps[x].iter().copied().collect())))
        .collect()
}
