//! Expressions: type checking, implicit conversions made explicit, places.

use std::rc::Rc;

use faultline_ir::*;

use super::consts::{self, is_null_const};
use super::decl_ty::DeclTy;
use super::{Lowerer, Sym};
use crate::ast::{self, BinOp as ABin, UnOp as AUn};
use crate::source::{err, PResult, Span};

/// The result of lowering an expression before lvalue conversion.
pub(crate) enum Val {
    Place(Place),
    Rv(Expr),
    /// A string literal (an array of `len + 1` chars until it decays).
    Str(StrId, usize),
}

pub(crate) fn int_const(v: i128, k: IntKind) -> Expr {
    Expr {
        kind: ExprKind::Int(k.wrap(v)),
        ty: Type::Int(k),
    }
}

/// The value of local `l` of type `ty`.
pub(crate) fn load_local(l: LocalId, ty: &Type) -> Expr {
    Expr {
        kind: ExprKind::Load(Box::new(Place {
            kind: PlaceKind::Var(Var::Local(l)),
            ty: ty.clone(),
        })),
        ty: ty.clone(),
    }
}

/// `l = value`, for a local `l` of `value`'s type.
pub(crate) fn assign_local(l: LocalId, value: Expr) -> Expr {
    let ty = value.ty.clone();
    Expr {
        kind: ExprKind::Assign {
            place: Box::new(Place {
                kind: PlaceKind::Var(Var::Local(l)),
                ty: ty.clone(),
            }),
            value: Box::new(value),
            post: false,
        },
        ty,
    }
}

/// Converts `e` to `ty` (no node when the types already agree). A pointer
/// converted to `void *` skips the pointer conversions before it (`(void *)
/// (char *) p` is `(void *) p`: the pointer is the same, and no `char` is
/// accessed, as in `free((char *) p)`).
pub(crate) fn cast(e: Expr, ty: &Type) -> Expr {
    if e.ty == *ty {
        e
    } else if *ty == Type::ptr_to(Type::Void) && e.ty.is_pointer() {
        match e.kind {
            ExprKind::Cast(inner) if inner.ty.is_pointer() => cast(*inner, ty),
            kind => Expr {
                kind: ExprKind::Cast(Box::new(Expr { kind, ty: e.ty })),
                ty: ty.clone(),
            },
        }
    } else {
        Expr {
            kind: ExprKind::Cast(Box::new(e)),
            ty: ty.clone(),
        }
    }
}

/// The integer promotion of a type.
pub(crate) fn promoted(t: &Type) -> Type {
    match t {
        Type::Int(k) if k.rank() < IntKind::Int.rank() => INT,
        t => t.clone(),
    }
}

pub(crate) fn promote(e: Expr) -> Expr {
    let t = promoted(&e.ty);
    cast(e, &t)
}

/// The usual arithmetic conversions.
pub(crate) fn common_type(a: &Type, b: &Type) -> Type {
    if *a == DOUBLE || *b == DOUBLE {
        return DOUBLE;
    }
    if a.is_float() || b.is_float() {
        return Type::Float(FloatKind::Float);
    }
    let (Type::Int(x), Type::Int(y)) = (promoted(a), promoted(b)) else {
        return a.clone();
    };
    if x == y {
        return Type::Int(x);
    }
    if x.signed() == y.signed() {
        return Type::Int(if x.rank() >= y.rank() { x } else { y });
    }
    let (u, s) = if x.signed() { (y, x) } else { (x, y) };
    if u.rank() >= s.rank() {
        Type::Int(u)
    } else if s.bits() > u.bits() {
        Type::Int(s)
    } else {
        Type::Int(s.to_unsigned())
    }
}

fn is_char_kind(t: &Type) -> bool {
    matches!(
        t,
        Type::Int(IntKind::Char | IntKind::SChar | IntKind::UChar)
    )
}

pub(crate) fn is_char_array_elem(t: &Type) -> bool {
    is_char_kind(t)
}

fn cmp_op(op: ABin) -> CmpOp {
    match op {
        ABin::Lt => CmpOp::Lt,
        ABin::Gt => CmpOp::Gt,
        ABin::Le => CmpOp::Le,
        ABin::Ge => CmpOp::Ge,
        ABin::Eq => CmpOp::Eq,
        _ => CmpOp::Ne,
    }
}

fn arith_op(op: ABin) -> BinOp {
    match op {
        ABin::Mul => BinOp::Mul,
        ABin::Div => BinOp::Div,
        ABin::Rem => BinOp::Rem,
        ABin::Add => BinOp::Add,
        ABin::Sub => BinOp::Sub,
        ABin::Shl => BinOp::Shl,
        ABin::Shr => BinOp::Shr,
        ABin::BitAnd => BinOp::BitAnd,
        ABin::BitXor => BinOp::BitXor,
        _ => BinOp::BitOr,
    }
}

fn null_of(ty: &Type) -> Expr {
    cast(int_const(0, IntKind::Int), ty)
}

impl Lowerer<'_> {
    /// Lvalue conversion and array/string decay.
    pub(crate) fn decay(&mut self, v: Val) -> Expr {
        match v {
            Val::Rv(e) => e,
            Val::Str(id, _) => Expr {
                kind: ExprKind::Str(id),
                ty: Type::ptr_to(CHAR),
            },
            Val::Place(p) => {
                if let Type::Array(elem, _) = &p.ty {
                    let elem = (**elem).clone();
                    let first = Place {
                        kind: PlaceKind::Index(Box::new(p), Box::new(int_const(0, IntKind::Long))),
                        ty: elem.clone(),
                    };
                    Expr {
                        kind: ExprKind::AddrOf(Box::new(first)),
                        ty: Type::ptr_to(elem),
                    }
                } else {
                    let ty = p.ty.clone();
                    Expr {
                        kind: ExprKind::Load(Box::new(p)),
                        ty,
                    }
                }
            }
        }
    }

    /// Lowers `e` as a value.
    pub(crate) fn rv(&mut self, e: &ast::Expr) -> PResult<Expr> {
        let v = self.expr(e)?;
        Ok(self.decay(v))
    }

    /// Lowers `e` as a value that must be used (not `void`).
    pub(super) fn value(&mut self, e: &ast::Expr) -> PResult<Expr> {
        let v = self.rv(e)?;
        if v.ty == Type::Void {
            return err(e.span, "void value not ignored as it ought to be");
        }
        Ok(v)
    }

    /// Lowers `e` as a scalar tested against zero.
    pub(crate) fn scalar(&mut self, e: &ast::Expr) -> PResult<Expr> {
        let v = self.rv(e)?;
        if !(v.ty.is_arithmetic() || v.ty.is_pointer() || v.ty == Type::Stream) {
            return err(
                e.span,
                format!(
                    "statement requires expression of scalar type ('{}' invalid)",
                    self.type_str(&v.ty)
                ),
            );
        }
        Ok(v)
    }

    /// The value of an integer constant expression.
    pub(crate) fn const_int(&mut self, e: &ast::Expr, msg: &str) -> PResult<i128> {
        let v = self.unevaluated(|l| l.rv(e))?;
        if !v.ty.is_integer() {
            return err(e.span, msg);
        }
        match consts::eval(&v) {
            Some(consts::CVal::Int(x)) => Ok(x),
            _ => err(e.span, msg),
        }
    }

    /// Converts `e` as if by assignment to an object of type `to`.
    pub(crate) fn convert_assign(&self, e: Expr, to: &Type, span: Span) -> PResult<Expr> {
        let from = e.ty.clone();
        if from == *to {
            return Ok(e);
        }
        let (fs, ts) = (self.type_str(&from), self.type_str(to));
        match (to, &from) {
            (_, Type::Void) => err(span, "void value not ignored as it ought to be"),
            (t, f) if t.is_arithmetic() && f.is_arithmetic() => Ok(cast(e, to)),
            (Type::Ptr(_), Type::Ptr(_)) if is_null_const(&e) => Ok(null_of(to)),
            (Type::Ptr(tp), Type::Ptr(fp)) => {
                if pointees_compatible(tp, fp) {
                    Ok(cast(e, to))
                } else {
                    err(
                        span,
                        format!("incompatible pointer types: cannot convert '{fs}' to '{ts}'"),
                    )
                }
            }
            (Type::Ptr(_), Type::Int(_)) => {
                if is_null_const(&e) {
                    Ok(cast(e, to))
                } else {
                    err(span, format!("incompatible integer to pointer conversion: cannot convert '{fs}' to '{ts}'"))
                }
            }
            (Type::Int(IntKind::Bool), Type::Ptr(_)) => Ok(self.ptr_to_bool(e)),
            (Type::Int(_), Type::Ptr(_)) => err(
                span,
                format!(
                    "incompatible pointer to integer conversion: cannot convert '{fs}' to '{ts}'"
                ),
            ),
            _ => err(
                span,
                format!("incompatible types: cannot convert '{fs}' to '{ts}'"),
            ),
        }
    }

    fn ptr_to_bool(&self, e: Expr) -> Expr {
        let null = null_of(&e.ty);
        let ne = Expr {
            kind: ExprKind::Cmp(CmpOp::Ne, Box::new(e), Box::new(null)),
            ty: INT,
        };
        cast(ne, &Type::Int(IntKind::Bool))
    }

    /// Lowers an expression.
    pub(crate) fn expr(&mut self, e: &ast::Expr) -> PResult<Val> {
        let span = e.span;
        Ok(match &e.kind {
            ast::ExprKind::Ident(name) => return self.ident(name, span),
            ast::ExprKind::Int(v, k) => Val::Rv(int_const(*v as i128, *k)),
            ast::ExprKind::Float(v, k) => Val::Rv(Expr {
                kind: ExprKind::Float(*v),
                ty: Type::Float(*k),
            }),
            ast::ExprKind::Char(v) => Val::Rv(int_const(*v as i128, IntKind::Int)),
            ast::ExprKind::Str(bytes) => {
                let id = StrId(self.strings.len() as u32);
                self.strings.push(bytes.clone());
                Val::Str(id, bytes.len())
            }
            ast::ExprKind::Unary(op, a) => return self.unary(*op, a, span),
            ast::ExprKind::Binary(op, a, b) => Val::Rv(self.binary(*op, a, b, span)?),
            ast::ExprKind::Assign(op, a, b) => Val::Rv(self.assign(*op, a, b, span)?),
            ast::ExprKind::Cond(c, a, b) => Val::Rv(self.conditional(c, a, b, span)?),
            ast::ExprKind::Comma(a, b) => {
                let a = self.rv(a)?;
                let b = self.rv(b)?;
                let ty = b.ty.clone();
                Val::Rv(Expr {
                    kind: ExprKind::Comma(Box::new(a), Box::new(b)),
                    ty,
                })
            }
            ast::ExprKind::Call(f, args) => Val::Rv(self.call(f, args, span)?),
            ast::ExprKind::Index(a, i) => Val::Place(self.index(a, i, span)?),
            ast::ExprKind::Member(base, field, arrow) => {
                Val::Place(self.member(base, field, *arrow)?)
            }
            ast::ExprKind::Cast(tn, x) => Val::Rv(self.cast_expr(tn, x, span)?),
            ast::ExprKind::SizeofType(tn) => {
                let t = match self.type_name_ty(tn)? {
                    DeclTy::Obj(t) => t,
                    DeclTy::IncompleteArray(_) => {
                        return err(
                            span,
                            "invalid application of 'sizeof' to an incomplete type",
                        )
                    }
                    DeclTy::Func(_) => {
                        return err(span, "invalid application of 'sizeof' to a function type")
                    }
                    DeclTy::File => return err(span, "unsupported: FILE objects"),
                };
                Val::Rv(self.sizeof(&t, span)?)
            }
            ast::ExprKind::Offsetof(tn, parts) => Val::Rv(self.offsetof(tn, parts, span)?),
            ast::ExprKind::SizeofExpr(x) => {
                if let Some(e) = self.vla_sizeof(x) {
                    return Ok(Val::Rv(e));
                }
                let t = self.unevaluated(|l| {
                    Ok(match l.expr(x)? {
                        Val::Place(p) => p.ty,
                        Val::Str(_, len) => Type::Array(Box::new(CHAR), len as u64 + 1),
                        Val::Rv(e) => e.ty,
                    })
                })?;
                Val::Rv(self.sizeof(&t, span)?)
            }
        })
    }

    /// `sizeof a` for a variable-length array `a` (`sizeof(a)` too): its
    /// length at the declaration times the element size, computed at run time.
    fn vla_sizeof(&mut self, x: &ast::Expr) -> Option<Expr> {
        let ast::ExprKind::Ident(name) = &x.kind else {
            return None;
        };
        let Some(Sym::Var {
            var: Var::Local(l), ..
        }) = self.lookup(name)
        else {
            return None;
        };
        let l = *l;
        let (len, elem) = self.fctx.as_ref()?.vlas.get(&l)?.clone();
        Some(Expr {
            kind: ExprKind::Binary(
                BinOp::Mul,
                Box::new(Expr {
                    kind: ExprKind::Load(Box::new(Place {
                        kind: PlaceKind::Var(Var::Local(len)),
                        ty: ULONG,
                    })),
                    ty: ULONG,
                }),
                Box::new(int_const(self.size_of(&elem) as i128, IntKind::ULong)),
            ),
            ty: ULONG,
        })
    }

    fn sizeof(&self, t: &Type, span: Span) -> PResult<Expr> {
        if let Type::Struct(_) = t {
            if !self.is_complete(t) {
                return err(
                    span,
                    format!(
                        "invalid application of 'sizeof' to an incomplete type '{}'",
                        self.type_str(t)
                    ),
                );
            }
        }
        Ok(int_const(self.size_of(t) as i128, IntKind::ULong))
    }

    fn ident(&mut self, name: &Rc<str>, span: Span) -> PResult<Val> {
        match self.lookup(name) {
            Some(Sym::Var { var, ty, .. }) => {
                return Ok(Val::Place(Place {
                    kind: PlaceKind::Var(*var),
                    ty: ty.clone(),
                }));
            }
            Some(Sym::EnumConst(v)) => return Ok(Val::Rv(int_const(*v as i128, IntKind::Int))),
            Some(Sym::Func { ty }) => {
                let ty = ty.clone();
                return self.func_value(name, Some(ty), span);
            }
            Some(Sym::Typedef { .. }) => {
                return err(
                    span,
                    format!("unexpected type name '{name}': expected expression"),
                );
            }
            None => {}
        }
        let stream = match &**name {
            "stdin" => Some(Stream::Stdin),
            "stdout" => Some(Stream::Stdout),
            "stderr" => Some(Stream::Stderr),
            _ => None,
        };
        if let Some(s) = stream {
            return Ok(Val::Rv(Expr {
                kind: ExprKind::Stream(s),
                ty: Type::Stream,
            }));
        }
        if &**name == "__func__" {
            if let Some(f) = &self.fctx {
                let bytes = f.name.as_bytes().to_vec();
                let id = StrId(self.strings.len() as u32);
                let len = bytes.len();
                self.strings.push(bytes);
                return Ok(Val::Str(id, len));
            }
        }
        if self.func_ids.contains_key(name)
            || Builtin::from_name(name).is_some()
            || CtypeClass::by_name(name).is_some()
        {
            return self.func_value(name, None, span);
        }
        err(span, format!("use of undeclared identifier '{name}'"))
    }

    /// A function used as a value: a pointer to it.
    fn func_value(
        &mut self,
        name: &Rc<str>,
        declared: Option<Rc<super::FuncTy>>,
        span: Span,
    ) -> PResult<Val> {
        let Some(&fid) = self.func_ids.get(name) else {
            return err(
                span,
                format!("unsupported: library function '{name}' used as a value (only the program's functions can be pointed to)"),
            );
        };
        let Some(sig) = self.func_sigs[fid.index()]
            .clone()
            .or(declared.filter(|d| d.params.is_some()))
        else {
            return err(
                span,
                format!(
                    "unsupported: pointer to function '{name}' before its prototype or definition"
                ),
            );
        };
        Ok(Val::Rv(Expr {
            kind: ExprKind::FuncAddr(fid),
            ty: Type::ptr_to(Type::Func(Box::new(super::types::func_sig(&sig)))),
        }))
    }

    fn unary(&mut self, op: AUn, a: &ast::Expr, span: Span) -> PResult<Val> {
        let bad = |l: &Self, t: &Type| {
            err(
                span,
                format!(
                    "invalid argument type '{}' to unary expression",
                    l.type_str(t)
                ),
            )
        };
        Ok(Val::Rv(match op {
            AUn::Neg | AUn::Plus => {
                let x = self.value(a)?;
                if !x.ty.is_arithmetic() {
                    return bad(self, &x.ty);
                }
                let x = promote(x);
                if op == AUn::Plus {
                    x
                } else {
                    let ty = x.ty.clone();
                    Expr {
                        kind: ExprKind::Unary(UnOp::Neg, Box::new(x)),
                        ty,
                    }
                }
            }
            AUn::BitNot => {
                let x = self.value(a)?;
                if !x.ty.is_integer() {
                    return bad(self, &x.ty);
                }
                let x = promote(x);
                let ty = x.ty.clone();
                Expr {
                    kind: ExprKind::Unary(UnOp::BitNot, Box::new(x)),
                    ty,
                }
            }
            AUn::Not => {
                let x = self.value(a)?;
                if !(x.ty.is_arithmetic() || x.ty.is_pointer() || x.ty == Type::Stream) {
                    return bad(self, &x.ty);
                }
                Expr {
                    kind: ExprKind::Unary(UnOp::Not, Box::new(x)),
                    ty: INT,
                }
            }
            AUn::Deref => {
                let x = self.value(a)?;
                let Type::Ptr(t) = &x.ty else {
                    return err(
                        span,
                        format!(
                            "indirection requires pointer operand ('{}' invalid)",
                            self.type_str(&x.ty)
                        ),
                    );
                };
                if **t == Type::Void {
                    return err(span, "dereferencing 'void *' pointer");
                }
                if let Type::Func(_) = **t {
                    // `*f` designates the function, which decays back to `f`.
                    return Ok(Val::Rv(x));
                }
                let ty = (**t).clone();
                return Ok(Val::Place(Place {
                    kind: PlaceKind::Deref(Box::new(x)),
                    ty,
                }));
            }
            AUn::AddrOf => match self.expr(a)? {
                Val::Place(p) => {
                    let ty = Type::ptr_to(p.ty.clone());
                    Expr {
                        kind: ExprKind::AddrOf(Box::new(p)),
                        ty,
                    }
                }
                Val::Str(..) => {
                    return err(span, "unsupported: taking the address of a string literal")
                }
                Val::Rv(x) if matches!(x.kind, ExprKind::FuncAddr(_)) => x,
                Val::Rv(x) => {
                    return err(
                        span,
                        format!(
                            "cannot take the address of an rvalue of type '{}'",
                            self.type_str(&x.ty)
                        ),
                    )
                }
            },
            AUn::PreInc | AUn::PreDec | AUn::PostInc | AUn::PostDec => {
                let inc = matches!(op, AUn::PreInc | AUn::PostInc);
                let post = matches!(op, AUn::PostInc | AUn::PostDec);
                let what = if inc { "increment" } else { "decrement" };
                let place = self.modifiable(a, what)?;
                let old = Expr {
                    kind: ExprKind::Old,
                    ty: place.ty.clone(),
                };
                let value = match &place.ty {
                    Type::Ptr(t) => {
                        self.check_ptr_arith(t, span)?;
                        let d = int_const(if inc { 1 } else { -1 }, IntKind::Long);
                        Expr {
                            kind: ExprKind::PtrAdd(Box::new(old), Box::new(d)),
                            ty: place.ty.clone(),
                        }
                    }
                    Type::Int(_) | Type::Float(_) => {
                        let t = promoted(&place.ty);
                        let one = match &t {
                            Type::Float(_) => Expr {
                                kind: ExprKind::Float(1.0),
                                ty: t.clone(),
                            },
                            Type::Int(k) => int_const(1, *k),
                            _ => unreachable_type(),
                        };
                        let bop = if inc { BinOp::Add } else { BinOp::Sub };
                        let b = Expr {
                            kind: ExprKind::Binary(bop, Box::new(cast(old, &t)), Box::new(one)),
                            ty: t,
                        };
                        cast(b, &place.ty)
                    }
                    t => {
                        return err(
                            span,
                            format!("cannot {what} value of type '{}'", self.type_str(t)),
                        );
                    }
                };
                let ty = place.ty.clone();
                Expr {
                    kind: ExprKind::Assign {
                        place: Box::new(place),
                        value: Box::new(value),
                        post,
                    },
                    ty,
                }
            }
        }))
    }

    /// Whether a place is rooted in a `const` variable (and its name).
    fn const_root(&self, p: &Place) -> Option<String> {
        match &p.kind {
            PlaceKind::Var(Var::Global(g)) => self
                .global_const
                .get(g.index())
                .copied()
                .unwrap_or(false)
                .then(|| self.globals[g.index()].name.clone()),
            PlaceKind::Var(Var::Local(l)) => {
                let f = self.fctx.as_ref()?;
                f.local_const
                    .get(l.index())
                    .copied()
                    .unwrap_or(false)
                    .then(|| f.locals[l.index()].name.clone())
            }
            PlaceKind::Index(q, _) | PlaceKind::Field(q, _) => self.const_root(q),
            PlaceKind::Deref(_) => None,
        }
    }

    /// Lowers the target of an assignment or increment.
    fn modifiable(&mut self, e: &ast::Expr, what: &str) -> PResult<Place> {
        match self.expr(e)? {
            Val::Place(p) => {
                if let Type::Array(..) = p.ty {
                    return err(
                        e.span,
                        format!("array type '{}' is not assignable", self.type_str(&p.ty)),
                    );
                }
                if let Some(name) = self.const_root(&p) {
                    return err(e.span, format!("cannot {what} read-only variable '{name}'"));
                }
                Ok(p)
            }
            _ => err(e.span, "expression is not assignable"),
        }
    }

    fn check_ptr_arith(&self, pointee: &Type, span: Span) -> PResult<()> {
        if *pointee == Type::Void {
            return err(span, "arithmetic on a pointer to void");
        }
        if !self.is_complete(pointee) {
            return err(
                span,
                format!(
                    "arithmetic on a pointer to an incomplete type '{}'",
                    self.type_str(pointee)
                ),
            );
        }
        Ok(())
    }

    fn ptr_add(&self, p: Expr, i: Expr, neg: bool, span: Span) -> PResult<Expr> {
        if let Type::Ptr(t) = &p.ty {
            self.check_ptr_arith(t, span)?;
        }
        let mut idx = cast(i, &LONG);
        if neg {
            idx = Expr {
                kind: ExprKind::Unary(UnOp::Neg, Box::new(idx)),
                ty: LONG,
            };
        }
        let ty = p.ty.clone();
        Ok(Expr {
            kind: ExprKind::PtrAdd(Box::new(p), Box::new(idx)),
            ty,
        })
    }

    fn invalid_operands(&self, op: &str, a: &Type, b: &Type, span: Span) -> PResult<Expr> {
        err(
            span,
            format!(
                "invalid operands to binary {op} (have '{}' and '{}')",
                self.type_str(a),
                self.type_str(b)
            ),
        )
    }

    /// `a op b` for an arithmetic, bitwise or shift operator (with pointer arithmetic for `+`/`-`).
    pub(crate) fn arith(&self, op: ABin, a: Expr, b: Expr, span: Span) -> PResult<Expr> {
        let (at, bt) = (a.ty.clone(), b.ty.clone());
        match op {
            ABin::Add if at.is_pointer() && bt.is_integer() => {
                return self.ptr_add(a, b, false, span)
            }
            ABin::Add if at.is_integer() && bt.is_pointer() => {
                return self.ptr_add(b, a, false, span)
            }
            ABin::Sub if at.is_pointer() && bt.is_integer() => {
                return self.ptr_add(a, b, true, span)
            }
            ABin::Sub if at.is_pointer() && bt.is_pointer() => {
                let (Type::Ptr(x), Type::Ptr(y)) = (&at, &bt) else {
                    unreachable_type()
                };
                if x != y {
                    return err(
                        span,
                        format!(
                            "'{}' and '{}' are not pointers to compatible types",
                            self.type_str(&at),
                            self.type_str(&bt)
                        ),
                    );
                }
                self.check_ptr_arith(x, span)?;
                return Ok(Expr {
                    kind: ExprKind::PtrDiff(Box::new(a), Box::new(b)),
                    ty: LONG,
                });
            }
            _ => {}
        }
        let ints_only = matches!(
            op,
            ABin::Rem | ABin::Shl | ABin::Shr | ABin::BitAnd | ABin::BitOr | ABin::BitXor
        );
        let ok = if ints_only {
            at.is_integer() && bt.is_integer()
        } else {
            at.is_arithmetic() && bt.is_arithmetic()
        };
        if !ok {
            return self.invalid_operands(op.symbol(), &at, &bt, span);
        }
        let bop = arith_op(op);
        if matches!(op, ABin::Shl | ABin::Shr) {
            let a = promote(a);
            let b = promote(b);
            let ty = a.ty.clone();
            return Ok(Expr {
                kind: ExprKind::Binary(bop, Box::new(a), Box::new(b)),
                ty,
            });
        }
        let t = common_type(&at, &bt);
        Ok(Expr {
            kind: ExprKind::Binary(bop, Box::new(cast(a, &t)), Box::new(cast(b, &t))),
            ty: t,
        })
    }

    fn compare(&self, op: ABin, a: Expr, b: Expr, span: Span) -> PResult<Expr> {
        let (at, bt) = (a.ty.clone(), b.ty.clone());
        let cop = cmp_op(op);
        let mk = |a: Expr, b: Expr| Expr {
            kind: ExprKind::Cmp(cop, Box::new(a), Box::new(b)),
            ty: INT,
        };
        if at.is_arithmetic() && bt.is_arithmetic() {
            let t = common_type(&at, &bt);
            return Ok(mk(cast(a, &t), cast(b, &t)));
        }
        // A null pointer constant compared with a pointer becomes that pointer's null.
        if at.is_pointer() && is_null_const(&b) && at != bt {
            return Ok(mk(a, null_of(&at)));
        }
        if bt.is_pointer() && is_null_const(&a) && at != bt {
            return Ok(mk(null_of(&bt), b));
        }
        // `FILE *` values: compared with each other or with NULL.
        match (&at, &bt) {
            (Type::Stream, Type::Stream) => return Ok(mk(a, b)),
            (Type::Stream, _) if is_null_const(&b) => return Ok(mk(a, null_of(&at))),
            (_, Type::Stream) if is_null_const(&a) => return Ok(mk(null_of(&bt), b)),
            _ => {}
        }
        match (&at, &bt) {
            (Type::Ptr(x), Type::Ptr(y)) => {
                if x == y {
                    Ok(mk(a, b))
                } else if **x == Type::Void {
                    Ok(mk(a, cast(b, &at)))
                } else if **y == Type::Void {
                    Ok(mk(cast(a, &bt), b))
                } else {
                    err(
                        span,
                        format!(
                            "comparison of distinct pointer types ('{}' and '{}')",
                            self.type_str(&at),
                            self.type_str(&bt)
                        ),
                    )
                }
            }
            (Type::Ptr(_), Type::Int(_)) | (Type::Int(_), Type::Ptr(_)) => {
                let (p, i, swapped) = if at.is_pointer() {
                    (a, b, false)
                } else {
                    (b, a, true)
                };
                if !is_null_const(&i) {
                    return err(
                        span,
                        format!(
                            "comparison between pointer and integer ('{}' and '{}')",
                            self.type_str(&at),
                            self.type_str(&bt)
                        ),
                    );
                }
                let n = cast(i, &p.ty);
                Ok(if swapped { mk(n, p) } else { mk(p, n) })
            }
            _ => self.invalid_operands(op.symbol(), &at, &bt, span),
        }
    }

    fn binary(&mut self, op: ABin, a: &ast::Expr, b: &ast::Expr, span: Span) -> PResult<Expr> {
        match op {
            ABin::LogAnd | ABin::LogOr => {
                let x = self.scalar_operand(a)?;
                let y = self.scalar_operand(b)?;
                let kind = if op == ABin::LogAnd {
                    ExprKind::And(Box::new(x), Box::new(y))
                } else {
                    ExprKind::Or(Box::new(x), Box::new(y))
                };
                Ok(Expr { kind, ty: INT })
            }
            ABin::Lt | ABin::Gt | ABin::Le | ABin::Ge | ABin::Eq | ABin::Ne => {
                let x = self.value(a)?;
                let y = self.value(b)?;
                self.compare(op, x, y, span)
            }
            _ => {
                let x = self.value(a)?;
                let y = self.value(b)?;
                self.arith(op, x, y, span)
            }
        }
    }

    pub(super) fn scalar_operand(&mut self, e: &ast::Expr) -> PResult<Expr> {
        let v = self.value(e)?;
        if !(v.ty.is_arithmetic() || v.ty.is_pointer() || v.ty == Type::Stream) {
            return err(
                e.span,
                format!(
                    "invalid operand of type '{}' where a scalar is required",
                    self.type_str(&v.ty)
                ),
            );
        }
        Ok(v)
    }

    fn assign(
        &mut self,
        op: Option<ABin>,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> PResult<Expr> {
        let place = self.modifiable(a, "assign to")?;
        let rhs = self.value(b)?;
        let ty = place.ty.clone();
        let value = match op {
            None => self.convert_assign(rhs, &ty, b.span)?,
            Some(op) => {
                let old = Expr {
                    kind: ExprKind::Old,
                    ty: ty.clone(),
                };
                if ty.is_pointer() && matches!(op, ABin::Add | ABin::Sub) && rhs.ty.is_integer() {
                    self.ptr_add(old, rhs, op == ABin::Sub, span)?
                } else if ty.is_arithmetic() && rhs.ty.is_arithmetic() {
                    let r = self.arith(op, old, rhs, span).map_err(|mut d| {
                        let plain = format!("binary {} (", op.symbol());
                        d.msg = d.msg.replace(&plain, &format!("binary {}= (", op.symbol()));
                        d
                    })?;
                    cast(r, &ty)
                } else {
                    return err(
                        span,
                        format!(
                            "invalid operands to binary {}= (have '{}' and '{}')",
                            op.symbol(),
                            self.type_str(&ty),
                            self.type_str(&rhs.ty)
                        ),
                    );
                }
            }
        };
        Ok(Expr {
            kind: ExprKind::Assign {
                place: Box::new(place),
                value: Box::new(value),
                post: false,
            },
            ty,
        })
    }

    fn conditional(
        &mut self,
        c: &ast::Expr,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
    ) -> PResult<Expr> {
        let c = self.scalar_operand(c)?;
        let x = self.rv(a)?;
        let y = self.rv(b)?;
        let (xt, yt) = (x.ty.clone(), y.ty.clone());
        let t = if xt.is_arithmetic() && yt.is_arithmetic() {
            common_type(&xt, &yt)
        } else if xt == yt {
            xt.clone()
        } else {
            match (&xt, &yt) {
                (Type::Ptr(p), Type::Ptr(q)) if **p == Type::Void || **q == Type::Void => {
                    Type::ptr_to(Type::Void)
                }
                (Type::Ptr(_), Type::Int(_)) if is_null_const(&y) => xt.clone(),
                (Type::Int(_), Type::Ptr(_)) if is_null_const(&x) => yt.clone(),
                _ => {
                    return err(
                        span,
                        format!(
                            "incompatible operand types ('{}' and '{}')",
                            self.type_str(&xt),
                            self.type_str(&yt)
                        ),
                    )
                }
            }
        };
        let conv = |e: Expr| {
            if t.is_pointer() && e.ty != t && is_null_const(&e) {
                null_of(&t)
            } else {
                cast(e, &t)
            }
        };
        let (x, y) = (conv(x), conv(y));
        Ok(Expr {
            kind: ExprKind::Cond(Box::new(c), Box::new(x), Box::new(y)),
            ty: t,
        })
    }

    fn index(&mut self, a: &ast::Expr, i: &ast::Expr, span: Span) -> PResult<Place> {
        let base = self.expr(a)?;
        let (base, idx) = match base {
            Val::Place(p) if matches!(p.ty, Type::Array(..)) => (Val::Place(p), self.value(i)?),
            other => {
                let b = self.decay(other);
                if b.ty.is_integer() {
                    // `i[a]`
                    let other = self.expr(i)?;
                    (other, b)
                } else {
                    (Val::Rv(b), self.value(i)?)
                }
            }
        };
        if !idx.ty.is_integer() {
            return err(i.span, "array subscript is not an integer");
        }
        match base {
            Val::Place(p) if matches!(p.ty, Type::Array(..)) => {
                let Type::Array(elem, _) = &p.ty else {
                    unreachable_type()
                };
                let ty = (**elem).clone();
                Ok(Place {
                    kind: PlaceKind::Index(Box::new(p), Box::new(cast(idx, &LONG))),
                    ty,
                })
            }
            other => {
                let b = self.decay(other);
                let Type::Ptr(t) = &b.ty else {
                    return err(span, "subscripted value is not an array or pointer");
                };
                if **t == Type::Void {
                    return err(span, "subscript of a pointer to void");
                }
                let ty = (**t).clone();
                let p = self.ptr_add(b, idx, false, span)?;
                Ok(Place {
                    kind: PlaceKind::Deref(Box::new(p)),
                    ty,
                })
            }
        }
    }

    fn member(&mut self, base: &ast::Expr, field: &ast::Ident, arrow: bool) -> PResult<Place> {
        let place = if arrow {
            let p = self.value(base)?;
            match &p.ty {
                Type::Ptr(t) if matches!(**t, Type::Struct(_)) => {
                    let ty = (**t).clone();
                    Place {
                        kind: PlaceKind::Deref(Box::new(p)),
                        ty,
                    }
                }
                t => {
                    return err(
                        base.span,
                        format!(
                            "member reference type '{}' is not a pointer to a struct",
                            self.type_str(t)
                        ),
                    )
                }
            }
        } else {
            match self.expr(base)? {
                Val::Place(p) if matches!(p.ty, Type::Struct(_)) => p,
                Val::Rv(e) if matches!(e.ty, Type::Struct(_)) => {
                    let kw = self.tag_kw(&e.ty);
                    let msg = format!("unsupported: member access on a {kw} that is not an lvalue");
                    return err(base.span, msg);
                }
                v => {
                    let t = match &v {
                        Val::Place(p) => p.ty.clone(),
                        Val::Rv(e) => e.ty.clone(),
                        Val::Str(..) => Type::ptr_to(CHAR),
                    };
                    return err(
                        base.span,
                        format!(
                            "member reference base type '{}' is not a structure",
                            self.type_str(&t)
                        ),
                    );
                }
            }
        };
        let Type::Struct(sid) = place.ty else {
            unreachable_type()
        };
        if !self.struct_complete[sid.0 as usize] {
            return err(
                base.span,
                format!(
                    "incomplete definition of type '{}'",
                    self.type_str(&place.ty)
                ),
            );
        }
        let Some(path) = self.member_path(sid, &field.name) else {
            return err(
                field.span,
                format!(
                    "no member named '{}' in '{}'",
                    field.name,
                    self.type_str(&place.ty)
                ),
            );
        };
        let mut place = place;
        for idx in path {
            let Type::Struct(s) = place.ty else {
                unreachable_type()
            };
            let ty = self.structs[s.0 as usize].fields[idx as usize].ty.clone();
            place = Place {
                kind: PlaceKind::Field(Box::new(place), idx),
                ty,
            };
        }
        Ok(place)
    }

    fn cast_expr(&mut self, tn: &ast::TypeName, x: &ast::Expr, span: Span) -> PResult<Expr> {
        let to = match self.type_name_ty(tn)? {
            DeclTy::Obj(t) => t,
            DeclTy::File => return err(span, "unsupported: FILE objects"),
            DeclTy::IncompleteArray(_) => return err(span, "cast to incomplete array type"),
            DeclTy::Func(_) => return err(span, "unsupported: function pointers"),
        };
        let e = self.rv(x)?;
        if to == Type::Void {
            return Ok(Expr {
                kind: ExprKind::Cast(Box::new(e)),
                ty: Type::Void,
            });
        }
        if e.ty == Type::Void {
            return err(
                span,
                "operand of type 'void' where arithmetic or pointer type is required",
            );
        }
        let (fs, ts) = (self.type_str(&e.ty), self.type_str(&to));
        match (&to, &e.ty) {
            (t, f) if t == f && t.is_scalar() => Ok(e),
            (t, f) if t.is_arithmetic() && f.is_arithmetic() => Ok(cast(e, &to)),
            (Type::Ptr(_), Type::Ptr(_)) => Ok(cast(e, &to)),
            // Between pointers and integers: synthetic addresses in the
            // interpreter (faultline-exec's interp/addr.rs).
            (Type::Ptr(p), Type::Int(_)) if !matches!(**p, Type::Func(_)) => Ok(cast(e, &to)),
            (Type::Int(IntKind::Bool), Type::Ptr(_)) => Ok(self.ptr_to_bool(e)),
            (Type::Int(_), Type::Ptr(p)) if !matches!(**p, Type::Func(_)) => Ok(cast(e, &to)),
            (Type::Ptr(_), Type::Int(_)) => {
                err(span, "unsupported: cast from integer to function pointer")
            }
            (Type::Int(_), Type::Ptr(_)) => {
                err(span, "unsupported: cast from function pointer to integer")
            }
            (Type::Array(..), _) => err(span, format!("cast to array type '{ts}'")),
            (Type::Struct(_), _) => err(
                span,
                format!("conversion to non-scalar type '{ts}' requested"),
            ),
            _ => err(span, format!("invalid cast from '{fs}' to '{ts}'")),
        }
    }

    // ----- calls -----
}

/// Pointer conversions allowed implicitly: identical pointees, `void *`, or
/// integer pointees of the same width (gcc only warns about signedness).
fn pointees_compatible(a: &Type, b: &Type) -> bool {
    if a == b || *a == Type::Void || *b == Type::Void {
        return true;
    }
    // gcc accepts (with a warning) any conversion between function pointer
    // types, such as a comparator taking `const int *` passed to `qsort`.
    if let (Type::Func(_), Type::Func(_)) = (a, b) {
        return true;
    }
    match (a, b) {
        (Type::Int(x), Type::Int(y)) => {
            x.bits() == y.bits() && *x != IntKind::Bool && *y != IntKind::Bool
        }
        _ => false,
    }
}

#[track_caller]
pub(super) fn unreachable_type() -> ! {
    unreachable!("type checked above")
}
