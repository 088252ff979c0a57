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

use crate::visit::{any_expr, for_each_stmt, stmt_exprs, walk_expr, walk_place, Visitor};
use crate::LabelId;
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
        for_each_stmt(&f.body, &mut |s| stmt_facts(fid, s, &mut facts));
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
    crate::calls::compute(program);
}

/// Whether the program computes with floating values anywhere (solvers for
/// pure bit-vector formulas are much faster).
pub fn uses_floats(program: &Program) -> bool {
    /// Finds an expression or place of floating type.
    #[derive(Default)]
    struct Floats {
        found: bool,
    }
    impl Visitor<'_> for Floats {
        fn visit_expr(&mut self, e: &Expr) {
            if e.ty.is_float() {
                self.found = true;
            } else {
                walk_expr(self, e);
            }
        }
        fn visit_place(&mut self, p: &Place) {
            if p.ty.is_float() {
                self.found = true;
            } else {
                walk_place(self, p);
            }
        }
    }
    let mut v = Floats::default();
    for g in &program.globals {
        for i in &g.init.items {
            v.visit_expr(&i.value);
        }
    }
    for f in &program.functions {
        for_each_stmt(&f.body, &mut |s| stmt_exprs(s, |e| v.visit_expr(e)));
    }
    v.found
}

/// The defs, uses and calls of one statement of function `func`, collected
/// by visiting its expressions.
struct Facts {
    func: FuncId,
    defs: BTreeSet<VarRef>,
    uses: BTreeSet<VarRef>,
    calls: BTreeSet<FuncId>,
}

fn stmt_facts(func: FuncId, s: &Stmt, out: &mut Vec<(StmtId, Facts)>) {
    let Some(id) = s.id() else {
        return;
    };
    let mut f = Facts {
        func,
        defs: BTreeSet::new(),
        uses: BTreeSet::new(),
        calls: BTreeSet::new(),
    };
    match s {
        Stmt::Init { local, .. } | Stmt::Declare { local, .. } => {
            f.defs.insert(VarRef::Local(func, *local));
        }
        Stmt::Insert {
            what: crate::Insertion::Assign(v),
            ..
        } => {
            f.defs.insert(var_ref(func, *v));
            f.uses.insert(var_ref(func, *v));
        }
        _ => {}
    }
    stmt_exprs(s, |e| f.visit_expr(e));
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

/// The variable a pointer argument designates when it is `&place` or a decayed array.
fn pointed_root(func: FuncId, e: &Expr) -> VarRef {
    match &e.kind {
        ExprKind::AddrOf(p) => root(func, p),
        ExprKind::Cast(inner) => pointed_root(func, inner),
        _ => VarRef::Indirect,
    }
}

/// Visiting a place records the uses made while computing its address
/// (the default walk); visiting an expression records what it reads, writes
/// and calls.
impl Visitor<'_> for Facts {
    fn visit_expr(&mut self, e: &Expr) {
        let func = self.func;
        match &e.kind {
            ExprKind::Load(p) => {
                self.uses.insert(root(func, p));
                self.visit_place(p);
            }
            ExprKind::Assign { place, value, .. } => {
                self.defs.insert(root(func, place));
                if contains_old(value) {
                    self.uses.insert(root(func, place));
                }
                self.visit_place(place);
                self.visit_expr(value);
            }
            ExprKind::Call { func: callee, .. } => {
                self.calls.insert(*callee);
                walk_expr(self, e);
            }
            ExprKind::Builtin { func: b, args } => {
                walk_expr(self, e);
                self.builtin_strings(*b, args);
            }
            _ => walk_expr(self, e),
        }
    }
}

impl Facts {
    /// A library function's writes and reads of the strings its arguments designate.
    fn builtin_strings(&mut self, b: Builtin, args: &[Expr]) {
        let func = self.func;
        for (i, a) in args.iter().enumerate() {
            let written = b.writes_arg(i);
            // `strcat` also reads its destination (to find its end).
            let read = match b {
                Builtin::Strcpy | Builtin::Strncpy | Builtin::Scanf => !written,
                _ => true,
            };
            if written {
                self.defs.insert(pointed_root(func, a));
            }
            if read && is_string(&a.ty) && !is_literal(a) {
                self.uses.insert(pointed_root(func, a));
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

/// Whether `e` refers to the previous value of the enclosing assignment's
/// place: an `Old` not inside an inner assignment (whose `Old` refers to its
/// own place), a call, or a place.
fn contains_old(e: &Expr) -> bool {
    any_expr(e, |e| match &e.kind {
        ExprKind::Old => Some(true),
        ExprKind::Load(_)
        | ExprKind::AddrOf(_)
        | ExprKind::Assign { .. }
        | ExprKind::Call { .. }
        | ExprKind::Builtin { .. } => Some(false),
        _ => None,
    })
}

// ----- control dependences ------------------------------------------------

const EXIT: usize = 0;

/// A function's statement-level CFG: node 0 is the exit; other nodes are
/// statements (or the heads of `for (;;)` loops).
struct Cfg {
    stmt: Vec<Option<StmtId>>,
    succ: Vec<Vec<(usize, Option<Branch>)>>,
    index: HashMap<StmtId, usize>,
    /// The node of each label (created at the first `goto` or the label).
    labels: HashMap<LabelId, usize>,
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
    fn label(&mut self, l: LabelId) -> usize {
        if let Some(&n) = self.labels.get(&l) {
            return n;
        }
        let n = self.node(None);
        self.labels.insert(l, n);
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
            Stmt::Declare { id: None, .. } => next,
            Stmt::Expr { id, .. }
            | Stmt::Init { id, .. }
            | Stmt::Insert { id, .. }
            | Stmt::Declare { id: Some(id), .. } => {
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
            Stmt::Goto { id, label } => {
                let n = self.node(Some(*id));
                let l = self.label(*label);
                self.edge(n, l, None);
                n
            }
            Stmt::Label { label } => {
                let n = self.label(*label);
                self.edge(n, next, None);
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
        labels: HashMap::new(),
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
