//! Calls: of the program's functions (checked against their prototypes, or
//! fixed up once a later definition is seen), and of the library functions.

use std::rc::Rc;

use faultline_ir::visit;
use faultline_ir::*;

use super::builtins;
use super::expr::{cast, int_const, promote};
use super::{Fixup, Lowerer, Sym};
use crate::ast;
use crate::source::{err, PResult, Span};

impl Lowerer<'_> {
    pub(super) fn call(
        &mut self,
        callee: &ast::Expr,
        args: &[ast::Expr],
        span: Span,
    ) -> PResult<Expr> {
        let ast::ExprKind::Ident(name) = &callee.kind else {
            let f = self.rv(callee);
            if let Ok(f) = &f {
                if is_func_ptr(&f.ty) {
                    return self.indirect_call(f.clone(), args, span);
                }
            }
            return match f {
                Ok(f) => err(
                    callee.span,
                    format!(
                        "called object type '{}' is not a function or function pointer",
                        self.type_str(&f.ty)
                    ),
                ),
                Err(e) => Err(e),
            };
        };
        let declared = match self.lookup(name) {
            Some(Sym::Var { ty, .. }) if is_func_ptr(ty) => {
                let f = self.rv(callee)?;
                return self.indirect_call(f, args, span);
            }
            Some(Sym::Var { ty, .. }) => {
                return err(
                    callee.span,
                    format!(
                        "called object type '{}' is not a function or function pointer",
                        self.type_str(ty)
                    ),
                );
            }
            Some(Sym::EnumConst(_)) => {
                return err(
                    callee.span,
                    "called object type 'int' is not a function or function pointer",
                )
            }
            Some(Sym::Typedef { .. }) => {
                return err(
                    callee.span,
                    format!("unexpected type name '{name}': expected expression"),
                )
            }
            Some(Sym::Func { ty }) => Some(ty.clone()),
            None => None,
        };
        if let Some(&fid) = self.func_ids.get(name) {
            return self.user_call(fid, name, declared, args, span);
        }
        if let Some(func) = Builtin::from_name(name) {
            return match func {
                Builtin::Assert => self.assert_call(args, span),
                _ => self.builtin_call(func, args, span),
            };
        }
        if let Some(class) = CtypeClass::by_name(name) {
            return self.ctype_call(class, args, span);
        }
        if declared.is_some() {
            return err(
                callee.span,
                format!("function '{name}' is declared but never defined"),
            );
        }
        if builtins::UNSUPPORTED.contains(&&**name) {
            return err(
                callee.span,
                format!("unsupported: library function '{name}'"),
            );
        }
        err(callee.span, format!("call to undeclared function '{name}'"))
    }

    /// A call through a function pointer: lowered to a placeholder call of
    /// [`super::indirect::INDIRECT`] with the pointer as first argument, which
    /// [`super::indirect::resolve`] turns into direct calls once every
    /// function whose address is taken is known.
    fn indirect_call(&mut self, f: Expr, args: &[ast::Expr], span: Span) -> PResult<Expr> {
        let Type::Ptr(t) = &f.ty else {
            return err(span, "called object is not a function pointer");
        };
        let Type::Func(sig) = &**t else {
            return err(span, "called object is not a function pointer");
        };
        let sig = (**sig).clone();
        let Some(params) = &sig.params else {
            return err(
                span,
                "unsupported: call through a pointer to a function without a prototype",
            );
        };
        if sig.variadic {
            return err(
                span,
                "unsupported: call through a pointer to a variadic function",
            );
        }
        if matches!(sig.ret, Type::Struct(_)) {
            return err(
                span,
                format!(
                    "unsupported: call through a function pointer returning a {}",
                    self.tag_kw(&sig.ret)
                ),
            );
        }
        let args = self.lower_args(args)?;
        let args = self.convert_args("function pointer", params, args, span)?;
        let stmt = match self.fctx.as_ref().and_then(|f| f.cur_stmt) {
            Some(s) if !self.static_init => s,
            _ if self.uneval > 0 => StmtId(0),
            _ => return err(span, "initializer element is not a compile-time constant"),
        };
        let mut all = Vec::with_capacity(args.len() + 1);
        all.push(f);
        all.extend(args);
        Ok(Expr {
            kind: ExprKind::Call {
                func: super::indirect::INDIRECT,
                args: all,
                site: CallSiteId(stmt.0),
            },
            ty: sig.ret,
        })
    }

    pub(super) fn lower_args(&mut self, args: &[ast::Expr]) -> PResult<Vec<(Expr, Span)>> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            out.push((self.value(a)?, a.span));
        }
        Ok(out)
    }

    /// Converts call arguments to the parameter types (and checks their number).
    pub(crate) fn convert_args(
        &self,
        name: &str,
        params: &[Type],
        args: Vec<(Expr, Span)>,
        span: Span,
    ) -> PResult<Vec<Expr>> {
        if args.len() < params.len() {
            return err(span, format!("too few arguments to function '{name}'"));
        }
        if args.len() > params.len() {
            return err(
                args[params.len()].1,
                format!("too many arguments to function '{name}'"),
            );
        }
        let mut out = Vec::with_capacity(args.len());
        for ((a, s), p) in args.into_iter().zip(params) {
            out.push(self.convert_assign(a, p, s)?);
        }
        Ok(out)
    }

    pub(super) fn user_call(
        &mut self,
        fid: FuncId,
        name: &Rc<str>,
        declared: Option<Rc<super::FuncTy>>,
        args: &[ast::Expr],
        span: Span,
    ) -> PResult<Expr> {
        let args = self.lower_args(args)?;
        let known = self.func_sigs[fid.index()]
            .clone()
            .or_else(|| declared.clone().filter(|d| d.params.is_some()));
        let site = self.new_call_site(fid, span)?;
        // A function defined without a prototype (K&R) is called unchecked in
        // C; its arguments are converted once every body is lowered, when it
        // is known which parameters are used (`apply_fixups`).
        let kr = known.as_ref().is_some_and(|s| s.kr_names.is_some());
        let (args, ret) = match known {
            Some(sig) if !kr => {
                let params: Vec<Type> = sig
                    .params
                    .as_deref()
                    .unwrap_or(&[])
                    .iter()
                    .map(|p| p.ty.clone())
                    .collect();
                (
                    self.convert_args(name, &params, args, span)?,
                    sig.ret.clone(),
                )
            }
            known => {
                let ret = match (known, &declared) {
                    (Some(sig), _) => sig.ret.clone(),
                    (None, Some(d)) => d.ret.clone(),
                    (None, None) => {
                        self.implicit_uses.entry(name.clone()).or_insert(span);
                        INT
                    }
                };
                self.fixups.push(Fixup {
                    site,
                    func: fid,
                    name: name.clone(),
                    args,
                    span,
                });
                (Vec::new(), ret)
            }
        };
        Ok(Expr {
            kind: ExprKind::Call {
                func: fid,
                args,
                site,
            },
            ty: ret,
        })
    }

    pub(super) fn builtin_call(
        &mut self,
        func: Builtin,
        args: &[ast::Expr],
        span: Span,
    ) -> PResult<Expr> {
        let name = func.name();
        let sig = func.signature();
        let args = self.lower_args(args)?;
        let n = sig.params.len();
        // qsort/bsearch: the array's element type, known here from `base`
        // before its conversion to `void *`, gives the element's cells.
        let elem = match func {
            Builtin::Qsort | Builtin::Bsearch => {
                let i = usize::from(func == Builtin::Bsearch);
                match args.get(i).map(|a| &a.0.ty) {
                    Some(Type::Ptr(e)) if **e != Type::Void && !matches!(**e, Type::Func(_)) => {
                        Some((**e).clone())
                    }
                    Some(_) => {
                        return err(
                            args[i].1,
                            format!("unsupported: {name} of an array given as 'void *' (its element type is unknown)"),
                        )
                    }
                    None => None,
                }
            }
            _ => None,
        };
        if args.len() < n {
            return err(span, format!("too few arguments to function '{name}'"));
        }
        if args.len() > n && !sig.variadic {
            return err(
                args[n].1,
                format!("too many arguments to function '{name}'"),
            );
        }
        let mut out = Vec::with_capacity(args.len());
        for (i, (a, s)) in args.into_iter().enumerate() {
            if i < n {
                out.push(self.convert_assign(a, &sig.params[i], s)?);
                continue;
            }
            // Default argument promotions.
            let a = match &a.ty {
                Type::Float(FloatKind::Float) => cast(a, &DOUBLE),
                Type::Int(_) => promote(a),
                t @ Type::Struct(_) => {
                    return err(
                        s,
                        format!(
                            "unsupported: passing a {} to a variadic function",
                            self.tag_kw(t)
                        ),
                    )
                }
                _ => a,
            };
            out.push(a);
        }
        if let Some(e) = elem {
            out.push(int_const(self.cells(&e) as i128, IntKind::ULong));
            out.push(int_const(self.size_of(&e) as i128, IntKind::ULong));
        }
        Ok(Expr {
            kind: ExprKind::Builtin { func, args: out },
            ty: sig.ret,
        })
    }

    /// `isprint(c)` and friends: `(c in ranges) ? mask : 0`, with the
    /// argument evaluated once (through a hidden local when it has effects).
    pub(super) fn ctype_call(
        &mut self,
        class: &CtypeClass,
        args: &[ast::Expr],
        span: Span,
    ) -> PResult<Expr> {
        let args = self.lower_args(args)?;
        let mut args = self.convert_args(class.name, &[INT], args, span)?;
        let v = args.remove(0);
        let (setup, c) = if is_pure(&v) {
            (None, v)
        } else {
            let Some(f) = self.fctx.as_mut() else {
                return err(span, "initializer element is not a compile-time constant");
            };
            let tmp = match f.ctype_tmp {
                Some(t) => t,
                None => {
                    let t = LocalId(f.locals.len() as u32);
                    let loc = self.files.loc(span);
                    f.locals.push(Local {
                        name: "$ctype".into(),
                        ty: INT,
                        loc,
                        is_param: false,
                    });
                    f.local_const.push(false);
                    f.ctype_tmp = Some(t);
                    t
                }
            };
            (
                Some(super::expr::assign_local(tmp, v)),
                super::expr::load_local(tmp, &INT),
            )
        };
        let k = |v: i64| int_const(v as i128, IntKind::Int);
        let cmp = |op: CmpOp, a: &Expr, b: i64| Expr {
            kind: ExprKind::Cmp(op, Box::new(a.clone()), Box::new(k(b))),
            ty: INT,
        };
        let mut test: Option<Expr> = None;
        for &(lo, hi) in class.ranges {
            let (lo, hi) = (lo as i64, hi as i64);
            let t = if lo == hi {
                cmp(CmpOp::Eq, &c, lo)
            } else {
                Expr {
                    kind: ExprKind::And(
                        Box::new(cmp(CmpOp::Ge, &c, lo)),
                        Box::new(cmp(CmpOp::Le, &c, hi)),
                    ),
                    ty: INT,
                }
            };
            test = Some(match test {
                None => t,
                Some(prev) => Expr {
                    kind: ExprKind::Or(Box::new(prev), Box::new(t)),
                    ty: INT,
                },
            });
        }
        let test = test.unwrap_or_else(|| k(0));
        let e = Expr {
            kind: ExprKind::Cond(Box::new(test), Box::new(k(class.mask)), Box::new(k(0))),
            ty: INT,
        };
        Ok(match setup {
            Some(s) => Expr {
                kind: ExprKind::Comma(Box::new(s), Box::new(e)),
                ty: INT,
            },
            None => e,
        })
    }

    pub(super) fn assert_call(&mut self, args: &[ast::Expr], span: Span) -> PResult<Expr> {
        match args {
            [a] => {
                let e = self.scalar_operand(a)?;
                let text = self.files.text(a.span);
                let id = StrId(self.strings.len() as u32);
                self.strings.push(text.into_bytes());
                let s = Expr {
                    kind: ExprKind::Str(id),
                    ty: Type::ptr_to(CHAR),
                };
                Ok(Expr {
                    kind: ExprKind::Builtin {
                        func: Builtin::Assert,
                        args: vec![e, s],
                    },
                    ty: Type::Void,
                })
            }
            [] => err(span, "too few arguments to function 'assert'"),
            [_, b, ..] => err(b.span, "too many arguments to function 'assert'"),
        }
    }
}

/// Whether evaluating `e` twice is the same as evaluating it once.
fn is_pure(e: &Expr) -> bool {
    !visit::any_expr(e, |e| match &e.kind {
        ExprKind::Old
        | ExprKind::Cond(..)
        | ExprKind::Assign { .. }
        | ExprKind::Call { .. }
        | ExprKind::Builtin { .. }
        | ExprKind::Comma(..) => Some(true),
        _ => None,
    })
}

/// Whether `t` is a pointer to a function.
pub(super) fn is_func_ptr(t: &Type) -> bool {
    matches!(t, Type::Ptr(f) if matches!(**f, Type::Func(_)))
}
