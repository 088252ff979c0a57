//! Evaluation of constant expressions over the IR (array sizes, case
//! labels, enumerators, static initializers).

use faultline_ir::{BinOp, CmpOp, Expr, ExprKind, FloatKind, IntKind, PlaceKind, Type, UnOp, Var};

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CVal {
    /// The mathematical value (within the range of the expression's type).
    Int(i128),
    Float(f64),
}

impl CVal {
    fn truth(self) -> bool {
        match self {
            CVal::Int(v) => v != 0,
            CVal::Float(f) => f != 0.0,
        }
    }
}

fn wrap(k: IntKind, v: i128) -> i128 {
    k.value(k.wrap(v))
}

fn round(k: FloatKind, f: f64) -> f64 {
    match k {
        FloatKind::Float => f as f32 as f64,
        FloatKind::Double => f,
    }
}

/// Converts a constant to type `to`.
pub fn convert(v: CVal, to: &Type) -> Option<CVal> {
    match to {
        Type::Int(IntKind::Bool) => Some(CVal::Int(v.truth() as i128)),
        Type::Int(k) => match v {
            CVal::Int(x) => Some(CVal::Int(wrap(*k, x))),
            CVal::Float(f) => {
                if f.is_nan() {
                    None
                } else {
                    Some(CVal::Int(wrap(*k, f.trunc() as i128)))
                }
            }
        },
        Type::Float(k) => match v {
            CVal::Int(x) => Some(CVal::Float(match k {
                FloatKind::Float => x as f32 as f64,
                FloatKind::Double => x as f64,
            })),
            CVal::Float(f) => Some(CVal::Float(round(*k, f))),
        },
        _ => None,
    }
}

/// The value of `e` if it is an arithmetic constant expression.
pub fn eval(e: &Expr) -> Option<CVal> {
    match &e.kind {
        ExprKind::Int(v) => match e.ty {
            Type::Int(k) => Some(CVal::Int(k.value(*v))),
            _ => None,
        },
        ExprKind::Float(f) => Some(CVal::Float(*f)),
        ExprKind::Cast(inner) => convert(eval(inner)?, &e.ty),
        ExprKind::Unary(op, a) => {
            let v = eval(a)?;
            match (op, v, &e.ty) {
                (UnOp::Not, v, _) => Some(CVal::Int(!v.truth() as i128)),
                (UnOp::Neg, CVal::Int(x), Type::Int(k)) => {
                    Some(CVal::Int(wrap(*k, x.wrapping_neg())))
                }
                (UnOp::Neg, CVal::Float(f), Type::Float(k)) => Some(CVal::Float(round(*k, -f))),
                (UnOp::BitNot, CVal::Int(x), Type::Int(k)) => Some(CVal::Int(wrap(*k, !x))),
                _ => None,
            }
        }
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (eval(a)?, eval(b)?);
            match (&e.ty, x, y) {
                (Type::Int(k), CVal::Int(x), CVal::Int(y)) => {
                    let r = match op {
                        BinOp::Add => x.wrapping_add(y),
                        BinOp::Sub => x.wrapping_sub(y),
                        BinOp::Mul => x.wrapping_mul(y),
                        BinOp::Div => {
                            if y == 0 {
                                return None;
                            }
                            x / y
                        }
                        BinOp::Rem => {
                            if y == 0 {
                                return None;
                            }
                            x % y
                        }
                        BinOp::Shl => {
                            if y < 0 || y >= k.bits() as i128 {
                                return None;
                            }
                            ((x as u128) << y) as i128
                        }
                        BinOp::Shr => {
                            if y < 0 || y >= k.bits() as i128 {
                                return None;
                            }
                            x >> y
                        }
                        BinOp::BitAnd => x & y,
                        BinOp::BitOr => x | y,
                        BinOp::BitXor => x ^ y,
                    };
                    Some(CVal::Int(wrap(*k, r)))
                }
                (Type::Float(k), CVal::Float(x), CVal::Float(y)) => {
                    let r = match op {
                        BinOp::Add => x + y,
                        BinOp::Sub => x - y,
                        BinOp::Mul => x * y,
                        BinOp::Div => x / y,
                        _ => return None,
                    };
                    Some(CVal::Float(round(*k, r)))
                }
                _ => None,
            }
        }
        ExprKind::Cmp(op, a, b) => {
            let (x, y) = (eval(a)?, eval(b)?);
            let ord = match (x, y) {
                (CVal::Int(x), CVal::Int(y)) => x.partial_cmp(&y),
                (CVal::Float(x), CVal::Float(y)) => x.partial_cmp(&y),
                _ => return None,
            };
            use std::cmp::Ordering::*;
            let r = match (op, ord) {
                (CmpOp::Eq, o) => o == Some(Equal),
                (CmpOp::Ne, o) => o != Some(Equal),
                (CmpOp::Lt, o) => o == Some(Less),
                (CmpOp::Le, o) => matches!(o, Some(Less | Equal)),
                (CmpOp::Gt, o) => o == Some(Greater),
                (CmpOp::Ge, o) => matches!(o, Some(Greater | Equal)),
            };
            Some(CVal::Int(r as i128))
        }
        ExprKind::And(a, b) => {
            if !eval(a)?.truth() {
                Some(CVal::Int(0))
            } else {
                Some(CVal::Int(eval(b)?.truth() as i128))
            }
        }
        ExprKind::Or(a, b) => {
            if eval(a)?.truth() {
                Some(CVal::Int(1))
            } else {
                Some(CVal::Int(eval(b)?.truth() as i128))
            }
        }
        ExprKind::Cond(c, a, b) => {
            if eval(c)?.truth() {
                eval(a)
            } else {
                eval(b)
            }
        }
        _ => None,
    }
}

/// The constant expression of type `ty` with value `v`.
pub fn constant(v: CVal, ty: &Type) -> Option<Expr> {
    let kind = match (ty, convert(v, ty)?) {
        (Type::Int(k), CVal::Int(x)) => ExprKind::Int(k.wrap(x)),
        (Type::Float(_), CVal::Float(f)) => ExprKind::Float(f),
        _ => return None,
    };
    Some(Expr {
        kind,
        ty: ty.clone(),
    })
}

/// Whether `e` is an integer constant expression with value 0 (a null pointer
/// constant), or such a constant cast to `void *`.
pub fn is_null_const(e: &Expr) -> bool {
    match &e.ty {
        Type::Int(_) => eval(e) == Some(CVal::Int(0)),
        Type::Ptr(inner) if **inner == Type::Void => match &e.kind {
            ExprKind::Cast(x) => x.ty.is_integer() && is_null_const(x),
            _ => false,
        },
        _ => false,
    }
}

/// Whether `e` is an address constant: a null pointer, a string literal, the
/// address of (an element or field of) a global, plus or minus a constant.
pub fn is_address_const(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Str(_) | ExprKind::FuncAddr(_) => true,
        ExprKind::Cast(inner) => {
            e.ty.is_pointer()
                && ((inner.ty.is_integer() && is_null_const(inner)) || is_address_const(inner))
        }
        ExprKind::AddrOf(p) => place_is_static(p),
        ExprKind::PtrAdd(a, i) => is_address_const(a) && eval(i).is_some(),
        _ => false,
    }
}

fn place_is_static(p: &faultline_ir::Place) -> bool {
    match &p.kind {
        PlaceKind::Var(Var::Global(_)) => true,
        PlaceKind::Var(Var::Local(_)) => false,
        PlaceKind::Index(q, i) => place_is_static(q) && eval(i).is_some(),
        PlaceKind::Field(q, _) => place_is_static(q),
        PlaceKind::Deref(_) => false,
    }
}
