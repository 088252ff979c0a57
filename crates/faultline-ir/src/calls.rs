//! Which call sites have relaxable arguments ([`crate::CallSiteInfo::relax_args`]).
//!
//! A relaxed statement gives every arithmetic argument of such a call
//! instance a fresh value (the encoder) and replays the values a diagnosis
//! needs there (the interpreter's `Hooks::argument`), so a wrong argument
//! (`hanoi(n - 1, via, from, to)` for `hanoi(n - 1, via, to, from)`) is a
//! diagnosis of its statement. Only where it can matter, since each adds a
//! fresh value per call instance:
//!
//! - not in a condition (its outcome is free when relaxed already);
//! - a call of a program function with at least one arithmetic argument that
//!   is not a constant (a call with constant arguments only, `init(10)`,
//!   passes the same values at every instance: a wrong one is an edit of a
//!   constant, and its instances needing different values would be an
//!   implausible diagnosis anyway);
//! - at least two arithmetic arguments: arguments in the wrong order, or one
//!   where another belongs. A call with one (`say(n)`, `sort(a, n)`) is left
//!   alone: measured on the course benchmark, freeing it made `numwords`
//!   (`say(n)` indexing a table of strings) 17 times slower and `transpose`
//!   (its loops over a free size) not found within 20 s, for no fault found;
//! - a callee with an effect (it prints, reads input, writes a global or
//!   through a pointer, calls the library other than its pure functions, or
//!   calls a function that does: what the call does besides returning
//!   depends on the arguments), or returning no arithmetic value (`void`, a
//!   pointer, a struct): otherwise what the arguments change is the
//!   returned value alone, which a relaxed statement (an assignment, a
//!   `return`, an output) already makes free. This keeps pure recursion
//!   (`return fib(n - 1) + fib(n - 2)`) from unfolding every path when its
//!   statement is relaxed.

//!
//! A call is *prints-only* ([`crate::CallSiteInfo::prints_only`]) when it is
//! its statement's whole expression, its arguments have no effect and are
//! not relaxable, and its callee's only effect, through every call it
//! makes, is printing to stdout (`void say(int n)` printing a number in
//! words): relaxed, the statement makes what the call prints free, as a
//! relaxed output statement's text, so a call that should not print what it
//! prints, or should not be made at all, is a diagnosis of its statement.

use crate::visit::{any_expr, for_each_stmt, stmt_exprs, walk_expr, Visitor};
use crate::{Builtin, Expr, ExprKind, FuncId, Place, PlaceKind, Program, Stmt, Var};

/// Library functions without an effect: their result depends on their
/// arguments alone (and what they read through them).
pub fn pure_builtin(b: Builtin) -> bool {
    use Builtin::*;
    b.ctype_class().is_some()
        || matches!(
            b,
            Atoi | Atol
                | Atof
                | Abs
                | Labs
                | Fabs
                | Sqrt
                | Pow
                | Floor
                | Ceil
                | Strlen
                | Strcmp
                | Strncmp
                | IsDigit
                | IsAlpha
                | IsAlnum
                | IsSpace
                | IsUpper
                | IsLower
                | ToUpper
                | ToLower
                | Memcmp
                | Strchr
                | Strrchr
                | Strstr
                | Log
                | Log10
                | Exp
                | Sin
                | Cos
                | Atan
                | Fmod
                | Round
        )
}

/// A constant expression: literals and operations on them.
pub fn is_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Float(_) => true,
        ExprKind::Cast(a) | ExprKind::Unary(_, a) => is_constant(a),
        ExprKind::Binary(_, a, b) | ExprKind::Cmp(_, a, b) => is_constant(a) && is_constant(b),
        _ => false,
    }
}

/// What one function's body does: whether it has an effect of its own,
/// whether one other than printing to stdout, and the program functions it
/// calls.
#[derive(Default)]
struct Body {
    effect: bool,
    beyond_printing: bool,
    calls: Vec<FuncId>,
}

impl Visitor<'_> for Body {
    fn visit_expr(&mut self, e: &Expr) {
        match &e.kind {
            ExprKind::Builtin { func, args } if !pure_builtin(*func) => {
                self.effect = true;
                self.beyond_printing |= !prints_to_stdout(*func, args);
            }
            ExprKind::Call { func, .. } => self.calls.push(*func),
            ExprKind::Assign { place, .. } if !local_place(place) => {
                self.effect = true;
                self.beyond_printing = true;
            }
            _ => {}
        }
        walk_expr(self, e);
    }
}

/// Whether a call of builtin `f` with `args` writes to stdout and does
/// nothing else: `printf`, `puts`, `putchar`, or `fprintf`, `fputs`,
/// `fputc`, `putc` on `stdout`.
pub fn prints_to_stdout(f: Builtin, args: &[Expr]) -> bool {
    let stdout = |a: Option<&Expr>| {
        matches!(
            a.map(|a| &a.kind),
            Some(ExprKind::Stream(crate::Stream::Stdout))
        )
    };
    match f {
        Builtin::Printf | Builtin::Puts | Builtin::Putchar => true,
        Builtin::Fprintf => stdout(args.first()),
        Builtin::Fputc | Builtin::Putc | Builtin::Fputs => stdout(args.get(1)),
        _ => false,
    }
}

/// Whether evaluating `e` has no effect: it stores nothing and calls no
/// program function and no library function with an effect.
pub fn without_effect(e: &Expr) -> bool {
    !any_expr(e, |e| match &e.kind {
        ExprKind::Assign { .. } | ExprKind::Call { .. } => Some(true),
        ExprKind::Builtin { func, .. } => (!pure_builtin(*func)).then_some(true),
        _ => None,
    })
}

/// A place in a local variable of the function (not through a pointer).
fn local_place(p: &Place) -> bool {
    match &p.kind {
        PlaceKind::Var(Var::Local(_)) => true,
        PlaceKind::Var(Var::Global(_)) | PlaceKind::Deref(_) => false,
        PlaceKind::Index(q, _) | PlaceKind::Field(q, _) => local_place(q),
    }
}

fn bodies(prog: &Program) -> Vec<Body> {
    prog.functions
        .iter()
        .map(|f| {
            let mut b = Body::default();
            for_each_stmt(&f.body, &mut |s| stmt_exprs(s, |e| b.visit_expr(e)));
            b
        })
        .collect()
}

/// `own` closed over calls: a function has the property when it has it
/// itself or calls one that has it.
fn through_calls(bodies: &[Body], mut own: Vec<bool>) -> Vec<bool> {
    loop {
        let mut changed = false;
        for (i, b) in bodies.iter().enumerate() {
            if !own[i] && b.calls.iter().any(|c| own[c.index()]) {
                own[i] = true;
                changed = true;
            }
        }
        if !changed {
            return own;
        }
    }
}

/// Per function, whether calling it may have an effect besides its result.
pub fn effectful(prog: &Program) -> Vec<bool> {
    let bodies = bodies(prog);
    let own = bodies.iter().map(|b| b.effect).collect();
    through_calls(&bodies, own)
}

/// Per function, whether calling it may do something other than return a
/// value and print to stdout (or not return: `exit`, `abort`).
fn beyond_printing(prog: &Program) -> Vec<bool> {
    let bodies = bodies(prog);
    let own = bodies.iter().map(|b| b.beyond_printing).collect();
    through_calls(&bodies, own)
}

/// Sets [`crate::CallSiteInfo::relax_args`] and
/// [`crate::CallSiteInfo::prints_only`] of every call site (see the module
/// docs).
pub fn compute(prog: &mut Program) {
    struct Calls<'p> {
        prog: &'p Program,
        eff: Vec<bool>,
        relax: Vec<bool>,
    }
    impl Visitor<'_> for Calls<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Call { func, args, site } = &e.kind {
                let stmt = self.prog.stmt(self.prog.call_sites[site.index()].stmt);
                let callee = self.prog.func(*func);
                self.relax[site.index()] = !stmt.kind.is_condition()
                    && stmt.kind.is_written()
                    && args.iter().filter(|a| a.ty.is_arithmetic()).count() >= 2
                    && args.iter().any(|a| a.ty.is_arithmetic() && !is_constant(a))
                    && (self.eff[func.index()] || !callee.ret.is_arithmetic());
            }
            walk_expr(self, e);
        }
    }
    let mut c = Calls {
        prog,
        eff: effectful(prog),
        relax: vec![false; prog.call_sites.len()],
    };
    for f in &prog.functions {
        for_each_stmt(&f.body, &mut |s| stmt_exprs(s, |e| c.visit_expr(e)));
    }
    let relax = c.relax;
    let beyond = beyond_printing(prog);
    let mut prints = vec![false; prog.call_sites.len()];
    for f in &prog.functions {
        for_each_stmt(&f.body, &mut |s| {
            if let Stmt::Expr { expr, .. } = s {
                if let ExprKind::Call { func, args, site } = &expr.kind {
                    prints[site.index()] = (expr.ty.is_scalar() || expr.ty == crate::Type::Void)
                        && !relax[site.index()]
                        && !beyond[func.index()]
                        && args.iter().all(without_effect);
                }
            }
        });
    }
    for ((site, r), p) in prog.call_sites.iter_mut().zip(relax).zip(prints) {
        site.relax_args = r;
        site.prints_only = p;
    }
}
