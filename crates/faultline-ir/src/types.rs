//! C types as the IR sees them, after typedefs and enums are resolved.
//!
//! The memory model is *cell-based*: every object is a flat sequence of scalar
//! cells (one cell per scalar: integer, floating or pointer). An array of `n`
//! elements of type `T` occupies `n * T::cells()` cells, a struct the sum of its
//! fields' cells. Pointer arithmetic on a `T *` moves by `T::cells()` cells.
//! `sizeof` still reports the C byte sizes of x86-64 Linux (LP64), so that
//! programs printing `sizeof` behave as under gcc.

use std::fmt;

/// Identifies a struct definition in [`crate::Program::structs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StructId(pub u32);

/// Integer kinds with x86-64 Linux (LP64) sizes. `char` is signed, as on gcc/x86.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntKind {
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
}

impl IntKind {
    /// Width in bits (`_Bool` is 8 bits wide in storage but only holds 0 or 1).
    pub fn bits(self) -> u32 {
        match self {
            IntKind::Bool | IntKind::Char | IntKind::SChar | IntKind::UChar => 8,
            IntKind::Short | IntKind::UShort => 16,
            IntKind::Int | IntKind::UInt => 32,
            IntKind::Long | IntKind::ULong | IntKind::LongLong | IntKind::ULongLong => 64,
        }
    }

    pub fn signed(self) -> bool {
        matches!(
            self,
            IntKind::Char
                | IntKind::SChar
                | IntKind::Short
                | IntKind::Int
                | IntKind::Long
                | IntKind::LongLong
        )
    }

    /// Integer conversion rank (C11 6.3.1.1).
    pub fn rank(self) -> u32 {
        match self {
            IntKind::Bool => 0,
            IntKind::Char | IntKind::SChar | IntKind::UChar => 1,
            IntKind::Short | IntKind::UShort => 2,
            IntKind::Int | IntKind::UInt => 3,
            IntKind::Long | IntKind::ULong => 4,
            IntKind::LongLong | IntKind::ULongLong => 5,
        }
    }

    /// The unsigned kind of the same rank.
    pub fn to_unsigned(self) -> IntKind {
        match self {
            IntKind::Char | IntKind::SChar => IntKind::UChar,
            IntKind::Short => IntKind::UShort,
            IntKind::Int => IntKind::UInt,
            IntKind::Long => IntKind::ULong,
            IntKind::LongLong => IntKind::ULongLong,
            k => k,
        }
    }

    pub fn min(self) -> i128 {
        if self.signed() {
            -(1i128 << (self.bits() - 1))
        } else {
            0
        }
    }

    pub fn max(self) -> i128 {
        match self {
            IntKind::Bool => 1,
            k if k.signed() => (1i128 << (k.bits() - 1)) - 1,
            k => (1i128 << k.bits()) - 1,
        }
    }

    /// Wraps `v` to this kind as a C conversion does (modulo 2^bits for every
    /// kind: gcc defines out-of-range conversions to signed types that way).
    /// `_Bool` maps every non-zero value to 1.
    pub fn wrap(self, v: i128) -> i64 {
        match self {
            IntKind::Bool => (v != 0) as i64,
            k => {
                let bits = k.bits();
                let m = v & ((1i128 << bits) - 1);
                if k.signed() && m >= (1i128 << (bits - 1)) {
                    (m - (1i128 << bits)) as i64
                } else {
                    // Unsigned 64-bit values above i64::MAX are stored as their
                    // two's-complement bit pattern in an i64.
                    m as u64 as i64
                }
            }
        }
    }

    /// Interprets a stored i64 (as produced by [`IntKind::wrap`]) as a mathematical value.
    pub fn value(self, stored: i64) -> i128 {
        if self == IntKind::ULong || self == IntKind::ULongLong {
            stored as u64 as i128
        } else {
            stored as i128
        }
    }

    pub fn c_name(self) -> &'static str {
        match self {
            IntKind::Bool => "_Bool",
            IntKind::Char => "char",
            IntKind::SChar => "signed char",
            IntKind::UChar => "unsigned char",
            IntKind::Short => "short",
            IntKind::UShort => "unsigned short",
            IntKind::Int => "int",
            IntKind::UInt => "unsigned int",
            IntKind::Long => "long",
            IntKind::ULong => "unsigned long",
            IntKind::LongLong => "long long",
            IntKind::ULongLong => "unsigned long long",
        }
    }
}

/// Floating kinds. `float` arithmetic is done in single precision (SSE, as gcc on x86-64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatKind {
    Float,
    Double,
}

/// A C type. Typedefs and enums are resolved (enums are `int`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Type {
    Void,
    Int(IntKind),
    Float(FloatKind),
    /// Pointer to the inner type (`void *` is `Ptr(Void)`).
    Ptr(Box<Type>),
    /// Fixed-size array of `len` elements.
    Array(Box<Type>, u64),
    Struct(StructId),
    /// The opaque `FILE *` of `stdout`/`stderr`/`stdin`.
    Stream,
    /// A function type; only pointers to it are values (`int (*)(int)` is
    /// `Ptr(Func(..))`, one cell holding a function).
    Func(Box<FuncSig>),
}

/// A function type's signature.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FuncSig {
    pub ret: Type,
    /// `None` when declared without a prototype (`int (*f)()`).
    pub params: Option<Vec<Type>>,
    pub variadic: bool,
}

pub const INT: Type = Type::Int(IntKind::Int);
pub const LONG: Type = Type::Int(IntKind::Long);
pub const ULONG: Type = Type::Int(IntKind::ULong);
pub const CHAR: Type = Type::Int(IntKind::Char);
pub const DOUBLE: Type = Type::Float(FloatKind::Double);

impl Type {
    pub fn ptr_to(t: Type) -> Type {
        Type::Ptr(Box::new(t))
    }
    pub fn is_integer(&self) -> bool {
        matches!(self, Type::Int(_))
    }
    pub fn is_float(&self) -> bool {
        matches!(self, Type::Float(_))
    }
    pub fn is_arithmetic(&self) -> bool {
        matches!(self, Type::Int(_) | Type::Float(_))
    }
    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Ptr(_))
    }
    /// Scalars: arithmetic types, pointers and streams (one cell each).
    pub fn is_scalar(&self) -> bool {
        matches!(
            self,
            Type::Int(_) | Type::Float(_) | Type::Ptr(_) | Type::Stream
        )
    }
    pub fn int_kind(&self) -> Option<IntKind> {
        match self {
            Type::Int(k) => Some(*k),
            _ => None,
        }
    }
    /// The pointee of a pointer, or the element of an array.
    pub fn pointee(&self) -> Option<&Type> {
        match self {
            Type::Ptr(t) | Type::Array(t, _) => Some(t),
            _ => None,
        }
    }
}

/// A struct (or union) definition with its layout in cells and in bytes.
///
/// A union's members lie one after the other in cells (each its own cells,
/// as in a struct) but all at byte offset 0; the interpreter keeps the
/// members' cells consistent with the union's bytes on every store.
#[derive(Clone, Debug, PartialEq)]
pub struct StructDef {
    pub name: String,
    /// A `union`: every member at byte offset 0, `size` the largest member's
    /// rounded up to the strictest alignment.
    pub union: bool,
    pub fields: Vec<Field>,
    /// Number of scalar cells.
    pub cells: u64,
    /// `sizeof`, in bytes, with x86-64 alignment.
    pub size: u64,
    pub align: u64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub name: String,
    pub ty: Type,
    /// Offset in cells from the start of the struct.
    pub cell_offset: u64,
    /// Offset in bytes (as gcc lays it out).
    pub byte_offset: u64,
}

/// Layout queries need the struct table; [`crate::Program`] implements this.
pub trait Layout {
    fn struct_def(&self, id: StructId) -> &StructDef;

    /// Number of scalar cells an object of type `t` occupies.
    fn cells(&self, t: &Type) -> u64 {
        match t {
            Type::Void | Type::Func(_) => 0,
            Type::Int(_) | Type::Float(_) | Type::Ptr(_) | Type::Stream => 1,
            Type::Array(e, n) => self.cells(e) * n,
            Type::Struct(s) => self.struct_def(*s).cells,
        }
    }

    /// `sizeof(t)` in bytes (LP64).
    fn size_of(&self, t: &Type) -> u64 {
        match t {
            Type::Void | Type::Func(_) => 1,
            Type::Int(k) => (k.bits() / 8) as u64,
            Type::Float(FloatKind::Float) => 4,
            Type::Float(FloatKind::Double) => 8,
            Type::Ptr(_) | Type::Stream => 8,
            Type::Array(e, n) => self.size_of(e) * n,
            Type::Struct(s) => self.struct_def(*s).size,
        }
    }

    fn align_of(&self, t: &Type) -> u64 {
        match t {
            Type::Array(e, _) => self.align_of(e),
            Type::Struct(s) => self.struct_def(*s).align,
            t => self.size_of(t).max(1),
        }
    }

    /// The byte offset (as gcc lays `t` out) of cell `cell` of an object of
    /// type `t`; `cells(t)` gives `sizeof(t)` (one past the end). `None` past that.
    fn cell_byte_offset(&self, t: &Type, cell: u64) -> Option<u64> {
        if cell == 0 {
            return Some(0);
        }
        if cell == self.cells(t) {
            return Some(self.size_of(t));
        }
        match t {
            Type::Array(e, n) => {
                let per = self.cells(e).max(1);
                let k = cell / per;
                if k >= *n {
                    return None;
                }
                Some(k * self.size_of(e) + self.cell_byte_offset(e, cell % per)?)
            }
            Type::Struct(s) => {
                let f =
                    self.struct_def(*s).fields.iter().find(|f| {
                        cell >= f.cell_offset && cell < f.cell_offset + self.cells(&f.ty)
                    })?;
                Some(f.byte_offset + self.cell_byte_offset(&f.ty, cell - f.cell_offset)?)
            }
            _ => None,
        }
    }

    /// The cell that starts at byte `byte` of an object of type `t` (the
    /// inverse of [`Layout::cell_byte_offset`]); `None` inside a cell or in padding.
    fn byte_cell(&self, t: &Type, byte: u64) -> Option<u64> {
        if byte == 0 {
            return Some(0);
        }
        if byte == self.size_of(t) {
            return Some(self.cells(t));
        }
        match t {
            Type::Array(e, n) => {
                let size = self.size_of(e).max(1);
                let k = byte / size;
                if k >= *n {
                    return None;
                }
                Some(k * self.cells(e) + self.byte_cell(e, byte % size)?)
            }
            Type::Struct(s) => {
                let f = self.struct_def(*s).fields.iter().find(|f| {
                    byte >= f.byte_offset && byte < f.byte_offset + self.size_of(&f.ty)
                })?;
                Some(f.cell_offset + self.byte_cell(&f.ty, byte - f.byte_offset)?)
            }
            _ => None,
        }
    }

    /// Whether an object of type `t` contains a union (at any depth).
    fn has_union(&self, t: &Type) -> bool {
        match t {
            Type::Array(e, _) => self.has_union(e),
            Type::Struct(s) => {
                let d = self.struct_def(*s);
                d.union || d.fields.iter().any(|f| self.has_union(&f.ty))
            }
            _ => false,
        }
    }

    /// The scalar types of the cells of `t`, in order.
    fn cell_types(&self, t: &Type, out: &mut Vec<Type>) {
        match t {
            Type::Void | Type::Func(_) => {}
            Type::Array(e, n) => {
                for _ in 0..*n {
                    self.cell_types(e, out);
                }
            }
            Type::Struct(s) => {
                for f in &self.struct_def(*s).fields {
                    self.cell_types(&f.ty, out);
                }
            }
            t => out.push(t.clone()),
        }
    }

    /// Renders a type in C syntax (for messages).
    fn type_name(&self, t: &Type) -> String {
        match t {
            Type::Void => "void".into(),
            Type::Int(k) => k.c_name().into(),
            Type::Float(FloatKind::Float) => "float".into(),
            Type::Float(FloatKind::Double) => "double".into(),
            Type::Ptr(inner) => format!("{} *", self.type_name(inner)),
            Type::Array(e, n) => format!("{}[{}]", self.type_name(e), n),
            Type::Struct(s) => {
                let d = self.struct_def(*s);
                let kw = if d.union { "union" } else { "struct" };
                format!("{kw} {}", d.name)
            }
            Type::Stream => "FILE *".into(),
            Type::Func(sig) => {
                let params = match &sig.params {
                    None => String::new(),
                    Some(ps) if ps.is_empty() && !sig.variadic => "void".into(),
                    Some(ps) => {
                        let mut v: Vec<String> = ps.iter().map(|p| self.type_name(p)).collect();
                        if sig.variadic {
                            v.push("...".into());
                        }
                        v.join(", ")
                    }
                };
                format!("{} ({params})", self.type_name(&sig.ret))
            }
        }
    }
}

impl fmt::Display for IntKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.c_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_follows_twos_complement() {
        assert_eq!(IntKind::Int.wrap(1i128 << 31), i32::MIN as i64);
        assert_eq!(IntKind::UInt.wrap(-1), u32::MAX as i64);
        assert_eq!(IntKind::Char.wrap(200), -56);
        assert_eq!(IntKind::UChar.wrap(-1), 255);
        assert_eq!(IntKind::Bool.wrap(42), 1);
        assert_eq!(IntKind::ULong.wrap(-1), -1);
        assert_eq!(IntKind::ULong.value(-1), u64::MAX as i128);
        assert_eq!(IntKind::Short.wrap(70000), 70000 - 65536);
    }

    #[test]
    fn ranges() {
        assert_eq!(IntKind::Int.max(), i32::MAX as i128);
        assert_eq!(IntKind::Int.min(), i32::MIN as i128);
        assert_eq!(IntKind::UShort.max(), 65535);
        assert_eq!(IntKind::ULongLong.max(), u64::MAX as i128);
    }
}
