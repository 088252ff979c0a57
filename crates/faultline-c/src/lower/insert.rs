//! Statements that are not written in the source but may be missing: the
//! candidates of omission faults (a missing `printf("\n")`, a missing
//! `count++`, a missing initialization).
//!
//! After lowering, every function's body gets
//!
//! - a statement id for each declaration of an arithmetic local without an
//!   initializer ([`Stmt::Declare`], kind [`StmtKind::Declare`]) that some
//!   read may see uninitialized ([`scan`]): relaxed, it initializes the
//!   local;
//! - *output insertions* ([`Insertion::Output`]) in `main` and in every
//!   function that prints: after each statement that prints (an output call,
//!   or an `if`, loop or `switch` holding one), and at the end of each block
//!   (before its closing `return`, `break`, `continue` or `goto`);
//! - *update insertions* ([`Insertion::Assign`]) at the end of each block
//!   inside a loop (the body and the branches within it), one per scalar
//!   arithmetic variable in scope before the block (parameters, locals
//!   declared before it, globals) that the function reads, except those
//!   the block assigns at its top level or its loop's step assigns (a
//!   missing update of those is a change of that assignment); at most
//!   [`MAX_UPDATES`] per function, the first in source order.
//!
//! Blocks that are the body of a `switch` get none (their case targets are
//! positions in the block). An insertion has the location of the statement
//! it follows (for an `if`, loop or `switch`, its condition's), and as text
//! what is missing and where: `missing output after `printf("%d", x);``,
//! `missing update of `count` at the end of the loop body at line 6`.
//!
//! The ids are allocated after every statement of the source, function by
//! function in source order, so the source's own statements keep their ids.

use faultline_ir::visit::{any_expr, stmt_exprs};
use faultline_ir::*;
use std::collections::{BTreeSet, HashMap};

/// Update insertions per function at most.
pub const MAX_UPDATES: usize = 32;

/// The location and text of each declaration of an arithmetic local
/// without an initializer, recorded while lowering.
pub(super) type Declared = HashMap<(FuncId, LocalId), (Loc, String)>;

/// Adds the insertions (module docs) to `p`; `p`'s facts (defs, uses) must
/// have been computed, and must be computed again afterwards.
pub(super) fn add(p: &mut Program, declared: &Declared) {
    for fi in 0..p.functions.len() {
        let func = FuncId(fi as u32);
        let mut body = std::mem::take(&mut p.functions[fi].body);
        let reads = function_reads(p, func, &body);
        let prints = func == p.main || holds_output(&body);
        let mut cx = Cx {
            p,
            func,
            prints,
            reads,
            declared,
            updates: 0,
            steps: HashMap::new(),
            uninit: BTreeSet::new(),
        };
        let params: Vec<Var> = cx.p.functions[fi]
            .params
            .iter()
            .map(|l| Var::Local(*l))
            .collect();
        let mut scope: Vec<Var> = (0..cx.p.globals.len())
            .map(|g| Var::Global(GlobalId(g as u32)))
            .chain(params)
            .filter(|v| cx.updatable(*v))
            .collect();
        cx.block(&mut body, &mut scope, None);
        p.functions[fi].body = body;
    }
}

struct Cx<'a> {
    p: &'a mut Program,
    func: FuncId,
    /// Whether the function gets output insertions.
    prints: bool,
    /// The variables the function's statements read.
    reads: BTreeSet<Var>,
    declared: &'a Declared,
    updates: usize,
    /// The step statement of each `for` loop, by its condition.
    steps: HashMap<StmtId, StmtId>,
    /// The locals declared in the block being walked that a read may see
    /// uninitialized.
    uninit: BTreeSet<LocalId>,
}

/// The block an insertion ends: for people.
#[derive(Clone, Copy)]
enum Owner {
    Loop(StmtId),
    Branch(StmtId, bool),
}

impl Cx<'_> {
    fn updatable(&self, v: Var) -> bool {
        self.reads.contains(&v) && self.p.var_type(self.func, v).is_arithmetic()
    }

    /// Adds insertions to `b`, a block whose enclosing loop body (if any)
    /// is `owner`'s; `scope` holds the updatable variables declared before it.
    fn block(&mut self, b: &mut Block, scope: &mut Vec<Var>, owner: Option<(Owner, bool)>) {
        let outer = scope.clone();
        let old = std::mem::take(b);
        // Declarations some read may see uninitialized.
        self.uninit = old
            .iter()
            .enumerate()
            .filter_map(|(k, s)| match s {
                Stmt::Declare { local, .. } => {
                    let v = Var::Local(*local);
                    (scan(self.p, self.func, v, &old[k + 1..]) == Seen::Read).then_some(*local)
                }
                _ => None,
            })
            .collect();
        let mut out: Vec<Stmt> = Vec::with_capacity(old.len());
        for mut s in old {
            self.nested(&mut s, scope, owner.is_some_and(|(_, l)| l));
            let after = (self.prints && !is_jump(&s) && prints(&s))
                .then(|| self.anchor(&s))
                .flatten();
            out.push(s);
            if let Some((loc, place)) = after {
                out.push(self.insert(Insertion::Output, loc, format!("missing output {place}")));
            }
        }
        // The end of the block: after its last statement, before its
        // closing jumps (and after the output insertion that statement got).
        let last = out
            .iter()
            .rposition(|s| !is_jump(s) && !matches!(s, Stmt::Label { .. } | Stmt::Insert { .. }));
        if let Some(last) = last {
            let mut at = last + 1;
            let has_output = matches!(out.get(at), Some(Stmt::Insert { .. }));
            if has_output {
                at += 1;
            }
            let anchor = self.anchor(&out[last]);
            let mut adds = Vec::new();
            if let (Some((loc, place)), true) = (&anchor, self.prints && !has_output) {
                adds.push(self.insert(Insertion::Output, *loc, format!("missing output {place}")));
            }
            if let (Some((o, true)), Some((loc, _))) = (owner, &anchor) {
                let place = self.end_of(o);
                let assigned = self.assigned(&out, o);
                for &v in outer.iter().filter(|v| !assigned.contains(v)) {
                    if self.updates >= MAX_UPDATES {
                        break;
                    }
                    self.updates += 1;
                    let name = self.p.var_name(self.func, v).to_string();
                    adds.push(self.insert(
                        Insertion::Assign(v),
                        *loc,
                        format!("missing update of `{name}` {place}"),
                    ));
                }
            }
            out.splice(at..at, adds);
        }
        *b = out;
        *scope = outer;
    }

    /// Adds insertions inside `s`'s blocks; gives a declaration its id and
    /// puts what `s` declares in scope.
    fn nested(&mut self, s: &mut Stmt, scope: &mut Vec<Var>, in_loop: bool) {
        match s {
            Stmt::Declare { id, local } => {
                let read = self.uninit.contains(local);
                if let (Some((loc, text)), true) = (self.declared.get(&(self.func, *local)), read) {
                    *id = Some(self.new_stmt(StmtKind::Declare, *loc, text.clone()));
                }
                self.declare(*local, scope);
            }
            Stmt::Init { local, .. } => self.declare(*local, scope),
            Stmt::If { cond, then, els } => {
                let c = cond.id;
                self.block(then, scope, Some((Owner::Branch(c, true), in_loop)));
                self.block(els, scope, Some((Owner::Branch(c, false), in_loop)));
            }
            Stmt::While {
                cond: Some(c),
                body,
                step,
            } => {
                let c = c.id;
                if let Some(id) = step.as_ref().and_then(|st| st.id()) {
                    self.steps.insert(c, id);
                }
                self.block(body, scope, Some((Owner::Loop(c), true)));
            }
            // `for (;;)`: no condition to name the loop by.
            Stmt::While {
                cond: None, body, ..
            } => self.block(body, scope, None),
            Stmt::DoWhile { body, cond } => {
                let c = cond.id;
                self.block(body, scope, Some((Owner::Loop(c), true)));
            }
            Stmt::Switch { body, .. } => {
                for s in body.iter_mut() {
                    self.nested(s, scope, in_loop);
                }
            }
            _ => {}
        }
    }

    /// The variables block `b` (of `owner`) assigns at its top level, or
    /// the step of its loop: an update missing at its end would be a change
    /// of that assignment.
    fn assigned(&self, b: &[Stmt], owner: Owner) -> BTreeSet<Var> {
        let mut ids: Vec<StmtId> = b
            .iter()
            .filter(|s| matches!(s, Stmt::Expr { .. } | Stmt::Init { .. }))
            .filter_map(Stmt::id)
            .collect();
        if let Owner::Loop(c) = owner {
            ids.extend(self.steps.get(&c).copied());
        }
        let mut out = BTreeSet::new();
        for id in ids {
            for d in &self.p.stmt(id).defs {
                match *d {
                    VarRef::Global(g) => {
                        out.insert(Var::Global(g));
                    }
                    VarRef::Local(f, l) if f == self.func => {
                        out.insert(Var::Local(l));
                    }
                    _ => {}
                }
            }
        }
        out
    }

    fn declare(&self, l: LocalId, scope: &mut Vec<Var>) {
        let v = Var::Local(l);
        if self.updatable(v) && !scope.contains(&v) {
            scope.push(v);
        }
    }

    /// The location and the words for "after `s`", when `s` has a location.
    fn anchor(&self, s: &Stmt) -> Option<(Loc, String)> {
        let id = s.id()?;
        let info = self.p.stmt(id);
        let place = match s {
            Stmt::If { .. } => format!("after the `if` at line {}", info.loc.line),
            Stmt::While { .. } | Stmt::DoWhile { .. } => {
                format!("after the loop at line {}", info.loc.line)
            }
            Stmt::Switch { .. } => format!("after the `switch` at line {}", info.loc.line),
            Stmt::Insert { .. } => return None,
            _ => format!("after `{}`", info.text),
        };
        Some((info.loc, place))
    }

    fn end_of(&self, o: Owner) -> String {
        match o {
            Owner::Loop(c) => format!(
                "at the end of the loop body at line {}",
                self.p.stmt(c).loc.line
            ),
            Owner::Branch(c, true) => format!(
                "at the end of the `if` branch at line {}",
                self.p.stmt(c).loc.line
            ),
            Owner::Branch(c, false) => format!(
                "at the end of the `else` branch at line {}",
                self.p.stmt(c).loc.line
            ),
        }
    }

    fn insert(&mut self, what: Insertion, loc: Loc, text: String) -> Stmt {
        let id = self.new_stmt(StmtKind::Insert, loc, text);
        Stmt::Insert { id, what }
    }

    fn new_stmt(&mut self, kind: StmtKind, loc: Loc, text: String) -> StmtId {
        let id = StmtId(self.p.stmts.len() as u32);
        self.p.stmts.push(StmtInfo {
            loc,
            text,
            kind,
            func: self.func,
            defs: Vec::new(),
            uses: Vec::new(),
            calls: Vec::new(),
            control: Vec::new(),
        });
        id
    }
}

fn is_jump(s: &Stmt) -> bool {
    matches!(
        s,
        Stmt::Return { .. } | Stmt::Break { .. } | Stmt::Continue { .. } | Stmt::Goto { .. }
    )
}

/// Whether `s` prints on stdout itself or in a statement nested in it (not
/// counting calls of program functions).
fn prints(s: &Stmt) -> bool {
    let mut found = false;
    faultline_ir::visit::for_each_stmt(std::slice::from_ref(s), &mut |s| {
        stmt_exprs(s, |e| {
            found |= any_expr(e, |e| match &e.kind {
                ExprKind::Builtin { func, .. } if func.is_output() => Some(true),
                _ => None,
            });
        });
    });
    found
}

fn holds_output(b: &Block) -> bool {
    b.iter().any(prints)
}

/// The variables read by the statements of function `func`'s body.
fn function_reads(p: &Program, func: FuncId, body: &Block) -> BTreeSet<Var> {
    let mut out = BTreeSet::new();
    faultline_ir::visit::for_each_stmt(body, &mut |s| {
        let Some(id) = s.id() else { return };
        for u in &p.stmt(id).uses {
            match *u {
                VarRef::Global(g) => {
                    out.insert(Var::Global(g));
                }
                VarRef::Local(f, l) if f == func => {
                    out.insert(Var::Local(l));
                }
                _ => {}
            }
        }
    });
    out
}

/// What the statements after a declaration do to its variable first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Seen {
    /// Some path may read it (or the analysis cannot tell: its address is
    /// taken, a `goto` or a label).
    Read,
    /// Every path assigns it before reading it, or leaves (`return`,
    /// `break`, `continue`).
    Assigned,
    /// Neither, so far.
    Open,
}

/// Whether statements `b` (after the declaration of `v` in function
/// `func`) may read `v` before assigning it, by the defs and uses of their
/// statements: conservative (an answer of `Assigned` is sure).
fn scan(p: &Program, func: FuncId, v: Var, b: &[Stmt]) -> Seen {
    let r = match v {
        Var::Local(l) => VarRef::Local(func, l),
        Var::Global(g) => VarRef::Global(g),
    };
    let reads = |id: StmtId| p.stmt(id).uses.contains(&r);
    let writes = |id: StmtId| p.stmt(id).defs.contains(&r);
    for s in b {
        if let Some(id) = s.id() {
            if address_taken(s, v) {
                return Seen::Read;
            }
            if reads(id) {
                return Seen::Read;
            }
        }
        let seen = match s {
            Stmt::Expr { id, .. } | Stmt::Init { id, .. } if writes(*id) => Seen::Assigned,
            // The path leaves: a `break` or `continue` goes on where the
            // scan goes on anyway (after the loop, its step and condition;
            // a declaration in the loop body is made again).
            Stmt::Return { .. } | Stmt::Break { .. } | Stmt::Continue { .. } => Seen::Assigned,
            Stmt::Goto { .. } | Stmt::Label { .. } => Seen::Read,
            Stmt::If { then, els, .. } => match (scan(p, func, v, then), scan(p, func, v, els)) {
                (Seen::Read, _) | (_, Seen::Read) => Seen::Read,
                (Seen::Assigned, Seen::Assigned) => Seen::Assigned,
                _ => Seen::Open,
            },
            Stmt::While { body, step, .. } => {
                let step = step.as_deref().map(std::slice::from_ref).unwrap_or(&[]);
                match (scan(p, func, v, body), scan(p, func, v, step)) {
                    (Seen::Read, _) | (_, Seen::Read) => Seen::Read,
                    _ => Seen::Open,
                }
            }
            Stmt::DoWhile { body, .. } => scan(p, func, v, body),
            Stmt::Switch { body, .. } => match scan(p, func, v, body) {
                Seen::Read => Seen::Read,
                _ => Seen::Open,
            },
            _ => Seen::Open,
        };
        if seen != Seen::Open {
            return seen;
        }
    }
    Seen::Open
}

/// Whether statement `s` (not its nested statements) takes the address of
/// `v` other than as a library function's argument (`scanf("%d", &v)`,
/// whose effect its defs and uses record).
fn address_taken(s: &Stmt, v: Var) -> bool {
    let mut taken = false;
    stmt_exprs(s, |e| {
        taken |= any_expr(e, |e| match &e.kind {
            ExprKind::Builtin { args, .. } => {
                let direct = |a: &Expr| {
                    let a = match &a.kind {
                        ExprKind::Cast(inner) => inner.as_ref(),
                        _ => a,
                    };
                    matches!(&a.kind, ExprKind::AddrOf(pl) if pl.kind == PlaceKind::Var(v))
                };
                args.iter()
                    .any(|a| !direct(a) && any_expr(a, |e| addr_of(e, v)))
                    .then_some(true)
                    .or(Some(false))
            }
            _ => addr_of(e, v),
        });
    });
    taken
}

fn addr_of(e: &Expr, v: Var) -> Option<bool> {
    match &e.kind {
        ExprKind::AddrOf(pl) if pl.kind == PlaceKind::Var(v) => Some(true),
        _ => None,
    }
}
