//! What a piece of code may do, for black boxes.
//!
//! On-demand formulas (OFC, AgxFaults) leave a branch that no run has taken
//! unencoded: a *black box* that may do anything the branch's code could do.
//! Its [`Summary`] says what that is: the variables it may write (directly or
//! through the functions it calls), whether it may print, read input, exit,
//! return, or leave the enclosing loop. The executor havocs those effects
//! under the branch's guard, so the abstract formula over-approximates the
//! program and every diagnosis of the program is a correction set of it.

use faultline_ir::visit::{stmt_exprs, walk_expr, Visitor};
use faultline_ir::{Builtin, Expr, ExprKind, FuncId, LabelId, Program, Stmt, VarRef};
use std::collections::BTreeSet;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Variables possibly written (`VarRef::Indirect`: memory through pointers).
    pub defs: BTreeSet<VarRef>,
    pub outputs: bool,
    pub inputs: bool,
    pub exits: bool,
    /// A `return` of the enclosing function.
    pub returns: bool,
    /// A `break` / `continue` leaving the block.
    pub breaks: bool,
    pub continues: bool,
    /// May free heap blocks (`free`, `realloc`).
    pub frees: bool,
    /// The labels of the `goto`s in the block, and the labels it defines: a
    /// `goto` to a label it does not define leaves it ([`Summary::gotos_out`]).
    pub gotos: BTreeSet<LabelId>,
    pub labels: BTreeSet<LabelId>,
    /// What the encoder cannot summarize, if anything.
    pub refused: Option<&'static str>,
}

impl Summary {
    /// The labels (outside the block) its `goto`s may jump to.
    pub fn gotos_out(&self) -> impl Iterator<Item = LabelId> + '_ {
        self.gotos.difference(&self.labels).copied()
    }

    fn absorb_call(&mut self, callee: &Summary) {
        for d in &callee.defs {
            if matches!(d, VarRef::Global(_) | VarRef::Indirect) {
                self.defs.insert(*d);
            }
        }
        self.outputs |= callee.outputs;
        self.inputs |= callee.inputs;
        self.exits |= callee.exits;
        self.frees |= callee.frees;
        self.refused = self.refused.or(callee.refused);
    }
}

/// Transitive summaries of every function.
#[derive(Clone, Debug)]
pub struct Summaries {
    funcs: Vec<Summary>,
}

/// Collects what expressions may do: the library functions' effects, and the
/// functions called.
struct Effects<'s> {
    summary: &'s mut Summary,
    calls: &'s mut BTreeSet<FuncId>,
}

impl Visitor<'_> for Effects<'_> {
    fn visit_expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Call { func, .. } => {
                self.calls.insert(*func);
            }
            ExprKind::Builtin { func, .. } => {
                self.summary.outputs |= func.is_output();
                self.summary.inputs |= matches!(
                    func,
                    Builtin::Scanf
                        | Builtin::Getchar
                        // io-lib (not encoded yet: a test calling one is left out)
                        | Builtin::Fgets
                        | Builtin::Fgetc
                        | Builtin::Getc
                        | Builtin::Gets
                        | Builtin::Fscanf
                        | Builtin::Ungetc
                );
                self.summary.exits |= matches!(func, Builtin::Exit | Builtin::Abort);
                self.summary.frees |= matches!(func, Builtin::Free | Builtin::Realloc);
                if let Err(why) = func.encodable() {
                    self.summary.refused = self.summary.refused.or(Some(why));
                }
            }
            _ => {}
        }
        walk_expr(self, e);
    }
}

fn expr_effects(e: &Expr, s: &mut Summary, calls: &mut BTreeSet<FuncId>) {
    Effects { summary: s, calls }.visit_expr(e);
}

/// Direct effects of a block (defs from the statement table), with the
/// functions it calls; `depth` counts enclosing loops/switches inside the
/// block (a `break` at depth 0 leaves the block).
fn block_direct(
    prog: &Program,
    b: &[Stmt],
    loops: u32,
    switches: u32,
    s: &mut Summary,
    calls: &mut BTreeSet<FuncId>,
) {
    for st in b {
        if let Some(id) = st.id() {
            let info = prog.stmt(id);
            s.defs.extend(info.defs.iter().copied());
        }
        stmt_exprs(st, |e| expr_effects(e, s, calls));
        match st {
            Stmt::Expr { .. } | Stmt::Init { .. } | Stmt::Declare { .. } | Stmt::Insert { .. } => {}
            Stmt::If { then, els, .. } => {
                block_direct(prog, then, loops, switches, s, calls);
                block_direct(prog, els, loops, switches, s, calls);
            }
            Stmt::While { body, step, .. } => {
                block_direct(prog, body, loops + 1, switches, s, calls);
                if let Some(st) = step {
                    block_direct(
                        prog,
                        std::slice::from_ref(&**st),
                        loops + 1,
                        switches,
                        s,
                        calls,
                    );
                }
            }
            Stmt::DoWhile { body, .. } => {
                block_direct(prog, body, loops + 1, switches, s, calls);
            }
            Stmt::Switch { body, .. } => {
                block_direct(prog, body, loops, switches + 1, s, calls);
            }
            Stmt::Return { .. } => s.returns = true,
            Stmt::Break { .. } => {
                if loops == 0 && switches == 0 {
                    s.breaks = true;
                }
            }
            Stmt::Continue { .. } => {
                if loops == 0 {
                    s.continues = true;
                }
            }
            Stmt::Goto { label, .. } => {
                s.gotos.insert(*label);
            }
            Stmt::Label { label } => {
                s.labels.insert(*label);
            }
        }
    }
}

impl Summaries {
    pub fn new(prog: &Program) -> Summaries {
        let n = prog.functions.len();
        let mut direct = Vec::with_capacity(n);
        let mut callees = Vec::with_capacity(n);
        for f in &prog.functions {
            let mut s = Summary::default();
            let mut calls = BTreeSet::new();
            block_direct(prog, &f.body, 0, 0, &mut s, &mut calls);
            direct.push(s);
            callees.push(calls);
        }
        let mut funcs = direct.clone();
        let mut changed = true;
        while changed {
            changed = false;
            for i in 0..n {
                let mut s = funcs[i].clone();
                for c in &callees[i] {
                    let cs = funcs[c.index()].clone();
                    s.absorb_call(&cs);
                }
                if s != funcs[i] {
                    funcs[i] = s;
                    changed = true;
                }
            }
        }
        Summaries { funcs }
    }

    pub fn func(&self, f: FuncId) -> &Summary {
        &self.funcs[f.index()]
    }

    /// What a block (of function `f`'s body) may do, callees included.
    pub fn block(&self, prog: &Program, b: &[Stmt]) -> Summary {
        let mut s = Summary::default();
        let mut calls = BTreeSet::new();
        block_direct(prog, b, 0, 0, &mut s, &mut calls);
        for c in calls {
            s.absorb_call(&self.funcs[c.index()]);
        }
        s
    }
}
