//! Runtime values and C's arithmetic on them, exactly as gcc -O0 on x86-64.
//!
//! These functions are the single definition of the interpreter's arithmetic;
//! the encoders' tests compare their formulas against them.

use faultline_ir::{BinOp, CmpOp, FloatKind, IntKind, Stream, Type, UnOp};
use std::fmt;

/// A pointer: an object, the object's generation when the pointer was made
/// (to detect dangling pointers), and an offset in cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ptr {
    pub obj: u32,
    pub gen: u32,
    pub off: i64,
}

impl Ptr {
    pub const NULL: Ptr = Ptr {
        obj: u32::MAX,
        gen: 0,
        off: 0,
    };
    pub fn is_null(self) -> bool {
        self.obj == u32::MAX
    }
}

/// A scalar value in a cell.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// An integer, stored as [`IntKind::wrap`] produces it for the cell's type.
    Int(i64),
    /// A floating value (exactly representable in `float` for `float` cells).
    Float(f64),
    Ptr(Ptr),
    Stream(Stream),
    /// A pointer to a function of the program.
    Func(faultline_ir::FuncId),
    /// Not yet written (a local without initializer).
    Uninit,
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v}"),
            Value::Ptr(p) if p.is_null() => write!(f, "NULL"),
            Value::Ptr(p) => write!(f, "&obj{}[{}]", p.obj, p.off),
            Value::Stream(s) => write!(f, "{s:?}"),
            Value::Func(id) => write!(f, "&fn{}", id.0),
            Value::Uninit => write!(f, "uninitialized"),
        }
    }
}

/// An arithmetic fault: what C leaves undefined and an x86 binary traps on or
/// the interpreter refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArithError {
    DivByZero,
    /// `INT_MIN / -1` or `INT_MIN % -1` (traps on x86).
    DivOverflow,
    /// A shift count negative or not less than the width.
    InvalidShift(i128),
    Uninit,
    /// An operation not defined on these values (e.g. comparing pointers into different objects).
    Invalid(String),
}

impl fmt::Display for ArithError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArithError::DivByZero => write!(f, "division by zero"),
            ArithError::DivOverflow => {
                write!(f, "signed division overflow (minimum value divided by -1)")
            }
            ArithError::InvalidShift(n) => write!(f, "shift by {n}, outside the width of the type"),
            ArithError::Uninit => write!(f, "use of an uninitialized value"),
            ArithError::Invalid(m) => f.write_str(m),
        }
    }
}

pub type ArithResult = Result<Value, ArithError>;

/// C truthiness (`!= 0`).
pub fn truthy(v: Value) -> Result<bool, ArithError> {
    match v {
        Value::Int(i) => Ok(i != 0),
        Value::Float(x) => Ok(x != 0.0),
        Value::Ptr(p) => Ok(!p.is_null()),
        Value::Stream(_) | Value::Func(_) => Ok(true),
        Value::Uninit => Err(ArithError::Uninit),
    }
}

fn int_of(k: IntKind, v: Value) -> Result<i128, ArithError> {
    match v {
        Value::Int(i) => Ok(k.value(i)),
        Value::Uninit => Err(ArithError::Uninit),
        other => Err(ArithError::Invalid(format!(
            "expected an integer, found {other}"
        ))),
    }
}

fn float_of(v: Value) -> Result<f64, ArithError> {
    match v {
        Value::Float(x) => Ok(x),
        Value::Uninit => Err(ArithError::Uninit),
        other => Err(ArithError::Invalid(format!(
            "expected a floating value, found {other}"
        ))),
    }
}

/// Rounds a double to the precision of a floating kind.
pub fn round_to(k: FloatKind, x: f64) -> f64 {
    match k {
        FloatKind::Float => x as f32 as f64,
        FloatKind::Double => x,
    }
}

/// A binary arithmetic/bitwise operation in type `ty` (both operands already of
/// type `ty`, except a shift's right operand, of type `rty`).
pub fn binary(op: BinOp, ty: &Type, rty: &Type, a: Value, b: Value) -> ArithResult {
    match ty {
        Type::Int(k) => {
            let k = *k;
            let x = int_of(k, a)?;
            let rk = rty.int_kind().unwrap_or(k);
            let y = int_of(rk, b)?;
            let r = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x.wrapping_mul(y),
                BinOp::Div | BinOp::Rem => {
                    if y == 0 {
                        return Err(ArithError::DivByZero);
                    }
                    if k.signed() && x == k.min() && y == -1 {
                        return Err(ArithError::DivOverflow);
                    }
                    if op == BinOp::Div {
                        x / y
                    } else {
                        x % y
                    }
                }
                BinOp::Shl | BinOp::Shr => {
                    if y < 0 || y >= k.bits() as i128 {
                        return Err(ArithError::InvalidShift(y));
                    }
                    if op == BinOp::Shl {
                        x << y
                    } else {
                        x >> y
                    }
                }
                BinOp::BitAnd => x & y,
                BinOp::BitOr => x | y,
                BinOp::BitXor => x ^ y,
            };
            Ok(Value::Int(k.wrap(r)))
        }
        Type::Float(fk) => {
            let (x, y) = (float_of(a)?, float_of(b)?);
            let r = match fk {
                FloatKind::Float => {
                    let (x, y) = (x as f32, y as f32);
                    (match op {
                        BinOp::Add => x + y,
                        BinOp::Sub => x - y,
                        BinOp::Mul => x * y,
                        BinOp::Div => x / y,
                        _ => return Err(ArithError::Invalid(format!("{op:?} on float"))),
                    }) as f64
                }
                FloatKind::Double => match op {
                    BinOp::Add => x + y,
                    BinOp::Sub => x - y,
                    BinOp::Mul => x * y,
                    BinOp::Div => x / y,
                    _ => return Err(ArithError::Invalid(format!("{op:?} on double"))),
                },
            };
            Ok(Value::Float(r))
        }
        other => Err(ArithError::Invalid(format!("arithmetic on {other:?}"))),
    }
}

pub fn unary(op: UnOp, ty: &Type, a: Value) -> ArithResult {
    match (op, ty) {
        (UnOp::Not, _) => Ok(Value::Int(!truthy(a)? as i64)),
        (UnOp::Neg, Type::Int(k)) => Ok(Value::Int(k.wrap(-int_of(*k, a)?))),
        (UnOp::BitNot, Type::Int(k)) => Ok(Value::Int(k.wrap(!int_of(*k, a)?))),
        (UnOp::Neg, Type::Float(_)) => Ok(Value::Float(-float_of(a)?)),
        _ => Err(ArithError::Invalid(format!("{op:?} on {ty:?}"))),
    }
}

/// Compares two operands of type `ty`; the result is an `int` 0 or 1.
pub fn compare(op: CmpOp, ty: &Type, a: Value, b: Value) -> ArithResult {
    let ord = match ty {
        Type::Int(k) => Some(int_of(*k, a)?.cmp(&int_of(*k, b)?)),
        Type::Float(_) => float_of(a)?.partial_cmp(&float_of(b)?),
        Type::Ptr(_) => {
            let (p, q) = match (a, b) {
                (Value::Ptr(p), Value::Ptr(q)) => (p, q),
                (Value::Func(_), Value::Func(_) | Value::Ptr(_))
                | (Value::Ptr(_), Value::Func(_)) => {
                    return match op {
                        CmpOp::Eq => Ok(Value::Int((a == b) as i64)),
                        CmpOp::Ne => Ok(Value::Int((a != b) as i64)),
                        _ => Err(ArithError::Invalid(
                            "relational comparison of function pointers".into(),
                        )),
                    };
                }
                (Value::Uninit, _) | (_, Value::Uninit) => return Err(ArithError::Uninit),
                _ => {
                    return Err(ArithError::Invalid(
                        "comparison of a pointer with a non-pointer".into(),
                    ))
                }
            };
            if p.obj != q.obj || p.gen != q.gen {
                return match op {
                    CmpOp::Eq => Ok(Value::Int(0)),
                    CmpOp::Ne => Ok(Value::Int(1)),
                    _ => Err(ArithError::Invalid(
                        "relational comparison of pointers into different objects".into(),
                    )),
                };
            }
            Some(p.off.cmp(&q.off))
        }
        Type::Stream => Some(if a == b {
            std::cmp::Ordering::Equal
        } else {
            std::cmp::Ordering::Less
        }),
        _ => return Err(ArithError::Invalid(format!("comparison of {ty:?}"))),
    };
    use std::cmp::Ordering::*;
    let r = match (op, ord) {
        (CmpOp::Ne, None) => true,
        (_, None) => false,
        (CmpOp::Eq, Some(o)) => o == Equal,
        (CmpOp::Ne, Some(o)) => o != Equal,
        (CmpOp::Lt, Some(o)) => o == Less,
        (CmpOp::Le, Some(o)) => o != Greater,
        (CmpOp::Gt, Some(o)) => o == Greater,
        (CmpOp::Ge, Some(o)) => o != Less,
    };
    Ok(Value::Int(r as i64))
}

/// x86-64 `cvttsd2si` with a 32-bit destination: truncation, or the "integer
/// indefinite" value `INT_MIN` for NaN and out-of-range inputs.
fn cvt_i32(x: f64) -> i128 {
    if x.is_nan() || x >= 2147483648.0 || x <= -2147483649.0 {
        i32::MIN as i128
    } else {
        x.trunc() as i128
    }
}

/// x86-64 `cvttsd2si` with a 64-bit destination.
fn cvt_i64(x: f64) -> i128 {
    if x.is_nan() || !(-9223372036854775808.0..9223372036854775808.0).contains(&x) {
        i64::MIN as i128
    } else {
        x.trunc() as i128
    }
}

/// Floating to integer as gcc -O0 compiles it on x86-64 (C leaves
/// out-of-range conversions undefined; this reproduces what the binary does).
fn float_to_int(k: IntKind, x: f64) -> i64 {
    match k {
        IntKind::Bool => (x != 0.0) as i64,
        IntKind::ULong | IntKind::ULongLong => {
            // gcc: values below 2^63 convert directly; others subtract 2^63 first.
            if x < 9223372036854775808.0 {
                k.wrap(cvt_i64(x))
            } else {
                k.wrap(cvt_i64(x - 9223372036854775808.0) ^ (i64::MIN as i128))
            }
        }
        IntKind::Long | IntKind::LongLong | IntKind::UInt => k.wrap(cvt_i64(x)),
        _ => k.wrap(cvt_i32(x)),
    }
}

/// Converts `v` from type `from` to type `to` (C's conversions).
pub fn convert(v: Value, from: &Type, to: &Type) -> ArithResult {
    if let Value::Uninit = v {
        return Err(ArithError::Uninit);
    }
    match (from, to) {
        (_, Type::Void) => Ok(Value::Int(0)),
        (Type::Int(fk), Type::Int(tk)) => Ok(Value::Int(tk.wrap(int_of(*fk, v)?))),
        (Type::Int(fk), Type::Float(tk)) => {
            let i = int_of(*fk, v)?;
            // Convert directly to the target precision (no double rounding).
            let r = match tk {
                FloatKind::Float => {
                    if fk.signed() || fk.bits() < 64 {
                        (i as i64) as f32 as f64
                    } else {
                        (i as u64) as f32 as f64
                    }
                }
                FloatKind::Double => {
                    if fk.signed() || fk.bits() < 64 {
                        (i as i64) as f64
                    } else {
                        (i as u64) as f64
                    }
                }
            };
            Ok(Value::Float(r))
        }
        (Type::Float(_), Type::Int(tk)) => Ok(Value::Int(float_to_int(*tk, float_of(v)?))),
        (Type::Float(_), Type::Float(tk)) => Ok(Value::Float(round_to(*tk, float_of(v)?))),
        (Type::Ptr(_), Type::Int(IntKind::Bool)) => Ok(Value::Int(truthy(v)? as i64)),
        (Type::Ptr(_), Type::Ptr(_)) | (Type::Array(..), Type::Ptr(_)) => Ok(v),
        (Type::Int(_), Type::Ptr(_) | Type::Stream) => match v {
            Value::Int(0) => Ok(Value::Ptr(Ptr::NULL)),
            _ => Err(ArithError::Invalid(
                "conversion of a non-zero integer to a pointer is not supported".into(),
            )),
        },
        (Type::Ptr(_), Type::Int(_)) => Err(ArithError::Invalid(
            "conversion of a pointer to an integer is not supported".into(),
        )),
        (a, b) if a == b => Ok(v),
        (Type::Stream, Type::Ptr(_)) | (Type::Ptr(_), Type::Stream) => Ok(v),
        _ => Err(ArithError::Invalid(format!(
            "conversion from {from:?} to {to:?}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_ir::{INT, LONG};

    const UINT: Type = Type::Int(IntKind::UInt);

    fn i(v: i64) -> Value {
        Value::Int(v)
    }

    #[test]
    fn int_arithmetic_wraps_and_truncates() {
        assert_eq!(
            binary(BinOp::Add, &INT, &INT, i(i32::MAX as i64), i(1)),
            Ok(i(i32::MIN as i64))
        );
        assert_eq!(binary(BinOp::Div, &INT, &INT, i(-7), i(2)), Ok(i(-3)));
        assert_eq!(binary(BinOp::Rem, &INT, &INT, i(-7), i(2)), Ok(i(-1)));
        assert_eq!(binary(BinOp::Rem, &INT, &INT, i(7), i(-2)), Ok(i(1)));
        assert_eq!(
            binary(BinOp::Div, &INT, &INT, i(1), i(0)),
            Err(ArithError::DivByZero)
        );
        assert_eq!(
            binary(BinOp::Div, &INT, &INT, i(i32::MIN as i64), i(-1)),
            Err(ArithError::DivOverflow)
        );
        assert_eq!(
            binary(BinOp::Sub, &UINT, &UINT, i(0), i(1)),
            Ok(i(u32::MAX as i64))
        );
        assert_eq!(binary(BinOp::Shr, &INT, &INT, i(-8), i(1)), Ok(i(-4)));
        assert_eq!(
            binary(BinOp::Shr, &UINT, &INT, i(u32::MAX as i64), i(28)),
            Ok(i(15))
        );
        assert_eq!(
            binary(BinOp::Shl, &INT, &INT, i(1), i(32)),
            Err(ArithError::InvalidShift(32))
        );
        assert_eq!(
            binary(BinOp::Mul, &LONG, &LONG, i(i64::MAX), i(2)),
            Ok(i(-2))
        );
    }

    #[test]
    fn conversions_follow_c() {
        let d = Type::Float(FloatKind::Double);
        let f = Type::Float(FloatKind::Float);
        assert_eq!(convert(Value::Float(-3.9), &d, &INT), Ok(i(-3)));
        assert_eq!(convert(i(-1), &INT, &UINT), Ok(i(u32::MAX as i64)));
        assert_eq!(
            convert(Value::Float(0.1), &d, &f),
            Ok(Value::Float(0.1f32 as f64))
        );
        assert_eq!(
            convert(Value::Float(1e10), &d, &INT),
            Ok(i(i32::MIN as i64))
        );
        assert_eq!(convert(i(300), &INT, &Type::Int(IntKind::Char)), Ok(i(44)));
        assert_eq!(
            compare(CmpOp::Lt, &UINT, i(u32::MAX as i64), i(1)),
            Ok(i(0))
        );
        assert_eq!(
            compare(
                CmpOp::Ne,
                &d,
                Value::Float(f64::NAN),
                Value::Float(f64::NAN)
            ),
            Ok(i(1))
        );
    }
}
