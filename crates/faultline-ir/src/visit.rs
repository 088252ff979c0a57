//! Walking the IR: the one place that knows which expressions and places an
//! expression, a place or a statement contains.
//!
//! [`Visitor`] (and [`VisitorMut`]) visit expressions and places; their
//! default methods descend into every sub-expression and sub-place in
//! evaluation order ([`walk_expr`], [`walk_place`]). A visitor overrides
//! `visit_expr`/`visit_place` for the nodes it cares about and calls the
//! `walk_*` function to descend (or does not, to prune).
//!
//! Statements: [`for_each_stmt`] visits every statement of a block, nested
//! ones included; [`stmt_exprs`] gives the expressions a statement itself
//! evaluates (not those of the statements nested in it).

use crate::{Expr, ExprKind, Place, PlaceKind, Stmt};

/// A read-only visitor of expressions and places.
pub trait Visitor<'a> {
    fn visit_expr(&mut self, e: &'a Expr) {
        walk_expr(self, e);
    }
    fn visit_place(&mut self, p: &'a Place) {
        walk_place(self, p);
    }
}

/// Visits the direct sub-expressions and sub-places of `e`, in evaluation order.
pub fn walk_expr<'a, V: Visitor<'a> + ?Sized>(v: &mut V, e: &'a Expr) {
    match &e.kind {
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Stream(_)
        | ExprKind::FuncAddr(_)
        | ExprKind::Old => {}
        ExprKind::Load(p) | ExprKind::AddrOf(p) => v.visit_place(p),
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => v.visit_expr(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::Cmp(_, a, b)
        | ExprKind::PtrAdd(a, b)
        | ExprKind::PtrDiff(a, b)
        | ExprKind::And(a, b)
        | ExprKind::Or(a, b)
        | ExprKind::Comma(a, b) => {
            v.visit_expr(a);
            v.visit_expr(b);
        }
        ExprKind::Cond(c, a, b) => {
            v.visit_expr(c);
            v.visit_expr(a);
            v.visit_expr(b);
        }
        ExprKind::Assign { place, value, .. } => {
            v.visit_place(place);
            v.visit_expr(value);
        }
        ExprKind::Call { args, .. } | ExprKind::Builtin { args, .. } => {
            for a in args {
                v.visit_expr(a);
            }
        }
    }
}

/// Visits the direct sub-places and sub-expressions of `p` (those its address
/// is computed from), in evaluation order.
pub fn walk_place<'a, V: Visitor<'a> + ?Sized>(v: &mut V, p: &'a Place) {
    match &p.kind {
        PlaceKind::Var(_) => {}
        PlaceKind::Deref(e) => v.visit_expr(e),
        PlaceKind::Index(b, i) => {
            v.visit_place(b);
            v.visit_expr(i);
        }
        PlaceKind::Field(b, _) => v.visit_place(b),
    }
}

/// A visitor that may change the expressions and places it visits.
pub trait VisitorMut {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e);
    }
    fn visit_place_mut(&mut self, p: &mut Place) {
        walk_place_mut(self, p);
    }
}

/// [`walk_expr`] for [`VisitorMut`].
pub fn walk_expr_mut<V: VisitorMut + ?Sized>(v: &mut V, e: &mut Expr) {
    match &mut e.kind {
        ExprKind::Int(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_)
        | ExprKind::Stream(_)
        | ExprKind::FuncAddr(_)
        | ExprKind::Old => {}
        ExprKind::Load(p) | ExprKind::AddrOf(p) => v.visit_place_mut(p),
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => v.visit_expr_mut(a),
        ExprKind::Binary(_, a, b)
        | ExprKind::Cmp(_, a, b)
        | ExprKind::PtrAdd(a, b)
        | ExprKind::PtrDiff(a, b)
        | ExprKind::And(a, b)
        | ExprKind::Or(a, b)
        | ExprKind::Comma(a, b) => {
            v.visit_expr_mut(a);
            v.visit_expr_mut(b);
        }
        ExprKind::Cond(c, a, b) => {
            v.visit_expr_mut(c);
            v.visit_expr_mut(a);
            v.visit_expr_mut(b);
        }
        ExprKind::Assign { place, value, .. } => {
            v.visit_place_mut(place);
            v.visit_expr_mut(value);
        }
        ExprKind::Call { args, .. } | ExprKind::Builtin { args, .. } => {
            for a in args {
                v.visit_expr_mut(a);
            }
        }
    }
}

/// [`walk_place`] for [`VisitorMut`].
pub fn walk_place_mut<V: VisitorMut + ?Sized>(v: &mut V, p: &mut Place) {
    match &mut p.kind {
        PlaceKind::Var(_) => {}
        PlaceKind::Deref(e) => v.visit_expr_mut(e),
        PlaceKind::Index(b, i) => {
            v.visit_place_mut(b);
            v.visit_expr_mut(i);
        }
        PlaceKind::Field(b, _) => v.visit_place_mut(b),
    }
}

/// Whether `e` or any expression within it satisfies `pred`. `pred` sees an
/// expression before its operands; returning `Some(answer)` decides the node
/// without descending into it, `None` descends. Places are searched only
/// for the expressions in them.
pub fn any_expr<'a>(e: &'a Expr, pred: impl FnMut(&'a Expr) -> Option<bool>) -> bool {
    struct Search<F> {
        pred: F,
        found: bool,
    }
    impl<'a, F: FnMut(&'a Expr) -> Option<bool>> Visitor<'a> for Search<F> {
        fn visit_expr(&mut self, e: &'a Expr) {
            if self.found {
                return;
            }
            match (self.pred)(e) {
                Some(answer) => self.found = answer,
                None => walk_expr(self, e),
            }
        }
    }
    let mut s = Search { pred, found: false };
    s.visit_expr(e);
    s.found
}

/// The expressions statement `s` itself evaluates, in order: an expression
/// statement's expression, an initializer's values, a returned value, a
/// condition's expression. Nested statements (branches, loop bodies and
/// steps) are not included.
pub fn stmt_exprs<'a>(s: &'a Stmt, mut f: impl FnMut(&'a Expr)) {
    match s {
        Stmt::Expr { expr, .. } => f(expr),
        Stmt::Init { init, .. } => init.items.iter().for_each(|i| f(&i.value)),
        Stmt::Return { value, .. } => value.iter().for_each(f),
        Stmt::If { cond, .. } | Stmt::DoWhile { cond, .. } | Stmt::Switch { cond, .. } => {
            f(&cond.expr)
        }
        Stmt::While { cond, .. } => cond.iter().for_each(|c| f(&c.expr)),
        Stmt::Declare { .. }
        | Stmt::Insert { .. }
        | Stmt::Break { .. }
        | Stmt::Continue { .. }
        | Stmt::Goto { .. }
        | Stmt::Label { .. } => {}
    }
}

/// [`stmt_exprs`] with mutable access.
pub fn stmt_exprs_mut(s: &mut Stmt, mut f: impl FnMut(&mut Expr)) {
    match s {
        Stmt::Expr { expr, .. } => f(expr),
        Stmt::Init { init, .. } => init.items.iter_mut().for_each(|i| f(&mut i.value)),
        Stmt::Return { value, .. } => value.iter_mut().for_each(f),
        Stmt::If { cond, .. } | Stmt::DoWhile { cond, .. } | Stmt::Switch { cond, .. } => {
            f(&mut cond.expr)
        }
        Stmt::While { cond, .. } => cond.iter_mut().for_each(|c| f(&mut c.expr)),
        Stmt::Declare { .. }
        | Stmt::Insert { .. }
        | Stmt::Break { .. }
        | Stmt::Continue { .. }
        | Stmt::Goto { .. }
        | Stmt::Label { .. } => {}
    }
}

/// The blocks nested directly in `s`, in order (a `while`'s step is
/// visited as a one-statement block after its body).
fn nested_blocks<'a>(s: &'a Stmt, mut f: impl FnMut(&'a [Stmt])) {
    match s {
        Stmt::If { then, els, .. } => {
            f(then);
            f(els);
        }
        Stmt::While { body, step, .. } => {
            f(body);
            if let Some(st) = step {
                f(std::slice::from_ref(&**st));
            }
        }
        Stmt::DoWhile { body, .. } | Stmt::Switch { body, .. } => f(body),
        _ => {}
    }
}

/// Calls `f` on every statement of `b`, nested ones included, in pre-order
/// (a statement before the statements nested in it; a loop's step after its body).
pub fn for_each_stmt<'a>(b: &'a [Stmt], f: &mut impl FnMut(&'a Stmt)) {
    for s in b {
        f(s);
        nested_blocks(s, |inner| for_each_stmt(inner, f));
    }
}

/// [`for_each_stmt`] with mutable access.
pub fn for_each_stmt_mut(b: &mut [Stmt], f: &mut impl FnMut(&mut Stmt)) {
    for s in b {
        f(s);
        match s {
            Stmt::If { then, els, .. } => {
                for_each_stmt_mut(then, f);
                for_each_stmt_mut(els, f);
            }
            Stmt::While { body, step, .. } => {
                for_each_stmt_mut(body, f);
                if let Some(st) = step {
                    for_each_stmt_mut(std::slice::from_mut(&mut **st), f);
                }
            }
            Stmt::DoWhile { body, .. } | Stmt::Switch { body, .. } => for_each_stmt_mut(body, f),
            _ => {}
        }
    }
}
