//! Calls through function pointers. The lowering leaves each as a
//! placeholder call of [`INDIRECT`] (the pointer, then the converted
//! arguments; the site field holds the statement's id); once the whole
//! program is lowered, [`resolve`] replaces it by
//!
//! ```text
//! (fp.N = f, arg.N.0 = a0, ..., fp.N == &g ? g(arg.N.0, ...) : fp.N == &h ? h(...) : bad_call(fp.N))
//! ```
//!
//! over the functions whose address the program takes (`FuncAddr`) with the
//! pointer's signature, each branch an ordinary direct call with its own
//! call site. So the interpreter, the analyses and the encoder only ever see
//! direct calls, and the pointer and the arguments are evaluated once.

use super::expr::{assign_local, load_local};
use faultline_ir::visit::{for_each_stmt, for_each_stmt_mut, stmt_exprs, stmt_exprs_mut};
use faultline_ir::visit::{walk_expr, walk_expr_mut, Visitor, VisitorMut};
use faultline_ir::*;

/// The callee of a placeholder call through a function pointer.
pub(super) const INDIRECT: FuncId = FuncId(u32::MAX);

struct Taken(Vec<FuncId>);

impl Visitor<'_> for Taken {
    fn visit_expr(&mut self, e: &Expr) {
        if let ExprKind::FuncAddr(f) = e.kind {
            if !self.0.contains(&f) {
                self.0.push(f);
            }
        }
        walk_expr(self, e);
    }
}

/// Every function whose address is taken, in order of appearance.
fn address_taken(prog: &Program) -> Vec<FuncId> {
    let mut t = Taken(Vec::new());
    for g in &prog.globals {
        for it in &g.init.items {
            t.visit_expr(&it.value);
        }
    }
    for f in &prog.functions {
        for_each_stmt(&f.body, &mut |s| stmt_exprs(s, |e| t.visit_expr(e)));
    }
    t.0.sort();
    t.0
}

struct Resolver<'a> {
    /// (function, return type, parameter types) of each candidate.
    taken: &'a [(FuncId, Type, Vec<Type>)],
    call_sites: &'a mut Vec<CallSiteInfo>,
    /// Hidden locals added to the function being rewritten.
    locals: &'a mut Vec<Local>,
    loc: Loc,
}

impl Resolver<'_> {
    fn temp(&mut self, name: String, ty: &Type) -> LocalId {
        self.locals.push(Local {
            name,
            ty: ty.clone(),
            loc: self.loc,
            is_param: false,
        });
        LocalId(self.locals.len() as u32 - 1)
    }

    fn dispatch(&mut self, args: Vec<Expr>, stmt: StmtId, ret: Type) -> Expr {
        let n = self.locals.len();
        let mut args = args.into_iter();
        let f = args.next().expect("the pointer");
        let fty = f.ty.clone();
        let fp = self.temp(format!("fp.{n}"), &fty);
        let mut prefix = vec![assign_local(fp, f)];
        let mut temps = Vec::new();
        for (i, a) in args.enumerate() {
            let ty = a.ty.clone();
            let t = self.temp(format!("arg.{n}.{i}"), &ty);
            prefix.push(assign_local(t, a));
            temps.push((t, ty));
        }
        let params: Vec<Type> = temps.iter().map(|t| t.1.clone()).collect();
        let mut chain = Expr {
            kind: ExprKind::Builtin {
                func: Builtin::BadCall,
                args: vec![super::expr::cast(
                    load_local(fp, &fty),
                    &Type::ptr_to(Type::Void),
                )],
            },
            ty: ret.clone(),
        };
        for (g, gret, gparams) in self.taken.iter().rev() {
            if *gret != ret || *gparams != params {
                continue;
            }
            let site = CallSiteId(self.call_sites.len() as u32);
            self.call_sites.push(CallSiteInfo {
                stmt,
                func: *g,
                relax_args: false,
                prints_only: false,
            });
            let call = Expr {
                kind: ExprKind::Call {
                    func: *g,
                    args: temps.iter().map(|(t, ty)| load_local(*t, ty)).collect(),
                    site,
                },
                ty: ret.clone(),
            };
            let test = Expr {
                kind: ExprKind::Cmp(
                    CmpOp::Eq,
                    Box::new(load_local(fp, &fty)),
                    Box::new(Expr {
                        kind: ExprKind::FuncAddr(*g),
                        ty: fty.clone(),
                    }),
                ),
                ty: INT,
            };
            chain = Expr {
                kind: ExprKind::Cond(Box::new(test), Box::new(call), Box::new(chain)),
                ty: ret.clone(),
            };
        }
        for p in prefix.into_iter().rev() {
            chain = Expr {
                kind: ExprKind::Comma(Box::new(p), Box::new(chain)),
                ty: ret.clone(),
            };
        }
        chain
    }
}

impl VisitorMut for Resolver<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e);
        if let ExprKind::Call { func, args, site } = &mut e.kind {
            if *func == INDIRECT {
                let stmt = StmtId(site.0);
                let args = std::mem::take(args);
                *e = self.dispatch(args, stmt, e.ty.clone());
            }
        }
    }
}

/// Replaces every placeholder call through a function pointer (see the
/// module documentation).
pub(super) fn resolve(prog: &mut Program) {
    let taken: Vec<(FuncId, Type, Vec<Type>)> = address_taken(prog)
        .into_iter()
        .map(|f| {
            let func = prog.func(f);
            let params = func
                .params
                .iter()
                .map(|p| func.locals[p.index()].ty.clone())
                .collect();
            (f, func.ret.clone(), params)
        })
        .collect();
    let call_sites = &mut prog.call_sites;
    for f in prog.functions.iter_mut() {
        let mut r = Resolver {
            taken: &taken,
            call_sites,
            locals: &mut f.locals,
            loc: f.loc,
        };
        for_each_stmt_mut(&mut f.body, &mut |s| {
            stmt_exprs_mut(s, |e| r.visit_expr_mut(e))
        });
    }
}
