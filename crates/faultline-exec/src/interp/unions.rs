//! Unions: overlapping members on typed cells.
//!
//! A union's members each have their own cells (laid out as in a struct), all
//! at byte offset 0. After every store into a union, the union's bytes are
//! assembled (little-endian, as on x86-64) from the stored cells and, where
//! they do not cover them, from the other cells, and every other cell of the
//! union is decoded from them: storing a `float` member and reading the `int`
//! one gives the IEEE bits, storing an `int` and reading a `char` its low
//! byte, as gcc's binary does. A cell whose bytes were not all written stays
//! uninitialized (reading it is the usual uninitialized read). Pointers have
//! no bytes: their cells keep the pointer, read back through a pointer member;
//! read as an integer of their width they give the synthetic address of
//! [`super::addr`], and an integer read as a pointer converts back only when
//! it is such an address. What cannot be decoded (a pointer's bytes read as a
//! narrower integer or a `double`, a function pointer as an integer) is
//! recorded in [`Memory::punned`] and reported as unsupported when read.

use super::*;

/// A union's scalar cells, in order: type, byte offset and size.
pub(super) type UnionCells = std::rc::Rc<[(Type, u64, u64)]>;

/// One byte of a union's image.
#[derive(Clone, Copy, PartialEq)]
enum Byte {
    Unknown,
    Known(u8),
    /// Byte `k` of a value that has no bytes (a pointer, function or stream).
    Opaque(Value, u8),
}

impl<'e, 'p, 'h> Machine<'e, 'p, 'h> {
    /// Keeps the unions around the stored cells `lo..hi` of `obj` consistent
    /// with the stored values (see the module documentation).
    pub(super) fn sync_unions(&mut self, obj: u32, lo: usize, hi: usize) -> R<()> {
        if !self.has_unions || hi <= lo {
            return Ok(());
        }
        let gen = self.mem.objects[obj as usize].gen;
        if !self.mem.punned.is_empty() {
            for c in lo..hi {
                self.mem.punned.remove(&(obj, gen, c));
            }
        }
        let Some(ty) = self.object_type(obj) else {
            return Ok(());
        };
        let Some((base, id)) = enclosing_union(self.prog, &ty, 0, lo as u64, hi as u64) else {
            return Ok(());
        };
        let ut = Type::Struct(id);
        let cells = self.union_cells(id);
        let base = base as usize;
        let mut image = vec![Byte::Unknown; self.prog.size_of(&ut) as usize];
        let stored = |c: usize| c >= lo && c < hi;
        // The other cells first (they agree with each other), the stored ones last.
        for pass in [false, true] {
            for (i, (_, at, size)) in cells.iter().enumerate() {
                let c = base + i;
                if stored(c) != pass {
                    continue;
                }
                let v = self.mem.objects[obj as usize].cells[c];
                let at = *at as usize;
                for (k, b) in value_bytes(v, *size).into_iter().enumerate() {
                    if let Some(slot) = image.get_mut(at + k) {
                        if pass || *slot == Byte::Unknown {
                            *slot = b;
                        }
                    }
                }
            }
        }
        for (i, (t, at, size)) in cells.iter().enumerate() {
            let c = base + i;
            if stored(c) {
                continue;
            }
            let (at, size) = (*at as usize, *size as usize);
            let bytes = image.get(at..at + size).unwrap_or(&[]);
            let v = match self.decode(t, bytes) {
                Ok(v) => {
                    if !self.mem.punned.is_empty() {
                        self.mem.punned.remove(&(obj, gen, c));
                    }
                    v
                }
                Err(what) => {
                    self.mem.punned.insert((obj, gen, c), (t.clone(), what));
                    Value::Uninit
                }
            };
            self.mem.objects[obj as usize].cells[c] = v;
            self.uses.get_mut().write(obj, c, self.cur);
        }
        Ok(())
    }

    /// The cells of union `id`: their types, byte offsets and sizes (computed once).
    fn union_cells(&mut self, id: faultline_ir::StructId) -> UnionCells {
        if let Some(c) = self.union_cells.get(&id) {
            return c.clone();
        }
        let mut out = Vec::new();
        crate::layout::scalar_cells(self.prog, &Type::Struct(id), 0, &mut out);
        let cells: UnionCells = out.into();
        self.union_cells.insert(id, cells.clone());
        cells
    }

    /// The value of type `t` the bytes hold; `Uninit` when one of them was
    /// never written; what they hold when they cannot be decoded exactly.
    fn decode(&self, t: &Type, bytes: &[Byte]) -> Result<Value, &'static str> {
        const PTR: &str = "a pointer or part of one";
        const NOT_ADDR: &str = "an integer that is not the address of an object";
        if bytes.is_empty() || bytes.contains(&Byte::Unknown) {
            return Ok(Value::Uninit);
        }
        let known: Option<Vec<u8>> = bytes
            .iter()
            .map(|b| match b {
                Byte::Known(x) => Some(*x),
                _ => None,
            })
            .collect();
        let raw = known.map(|k| {
            k.iter()
                .enumerate()
                .fold(0u64, |acc, (i, b)| acc | (*b as u64) << (8 * i))
        });
        // The one opaque value the bytes hold, in order.
        let opaque = match bytes[0] {
            Byte::Opaque(v, 0)
                if bytes.len() == 8
                    && bytes
                        .iter()
                        .enumerate()
                        .all(|(k, b)| *b == Byte::Opaque(v, k as u8)) =>
            {
                Some(v)
            }
            _ => None,
        };
        match (t, raw, opaque) {
            (Type::Int(k), Some(r), _) => Ok(Value::Int(k.wrap(r as i128))),
            (Type::Int(k), None, Some(Value::Ptr(p))) => {
                let a = self.ptr_to_addr(p).map_err(|_| PTR)?;
                Ok(Value::Int(k.wrap(a as i128)))
            }
            (Type::Float(faultline_ir::FloatKind::Float), Some(r), _) => {
                Ok(Value::Float(f32::from_bits(r as u32) as f64))
            }
            (Type::Float(_), Some(r), _) => Ok(Value::Float(f64::from_bits(r))),
            (Type::Ptr(_), Some(0), _) => Ok(Value::Ptr(Ptr::NULL)),
            (Type::Ptr(_), Some(r), _) => self
                .addr_to_ptr(r as i64)
                .map(Value::Ptr)
                .map_err(|_| NOT_ADDR),
            (Type::Ptr(_), None, Some(v @ (Value::Ptr(_) | Value::Func(_)))) => Ok(v),
            (Type::Stream, None, Some(v @ Value::Stream(_))) => Ok(v),
            _ => Err(PTR),
        }
    }

    /// Checks that a dereference of a `ty` at cell `off` of `obj` stays in
    /// the union member it points into: pointer arithmetic from one member
    /// may reach the cells of the next, which are other bytes of the union
    /// (or past it), never the continuation of the member.
    pub(super) fn check_union_member(&self, obj: u32, off: usize, ty: &Type) -> R<()> {
        if !self.has_unions || *ty == Type::Void || ty.is_scalar() && off == 0 {
            return Ok(());
        }
        let Some(ot) = self.object_type(obj) else {
            return Ok(());
        };
        if !self.prog.has_union(&ot) || memory::holds(self.prog, &ot, off as u64, ty) {
            return Ok(());
        }
        Err(self.error(
            ErrorKind::OutOfBounds,
            format!(
                "pointer dereference out of bounds of the union member it points into, in {}",
                self.object_name(obj)
            ),
        ))
    }

    /// Pointers into one object that contains a union, compared: by their
    /// byte offsets (members of a union share bytes, `&u.i == (void *) &u.c`),
    /// which for other objects follow the cells' order.
    pub(super) fn union_ptr_operands(&self, x: Value, y: Value) -> (Value, Value) {
        let (Value::Ptr(p), Value::Ptr(q)) = (x, y) else {
            return (x, y);
        };
        if !self.has_unions || p.is_null() || p.obj != q.obj || p.gen != q.gen || p.off == q.off {
            return (x, y);
        }
        if !self
            .object_type(p.obj)
            .is_some_and(|t| self.prog.has_union(&t))
        {
            return (x, y);
        }
        match (self.ptr_to_addr(p), self.ptr_to_addr(q)) {
            (Ok(a), Ok(b)) => (
                Value::Ptr(Ptr { off: a, ..p }),
                Value::Ptr(Ptr { off: b, ..q }),
            ),
            _ => (x, y),
        }
    }

    /// A pointer converted to `to` (`T *`): when the cell it designates does
    /// not hold a `T` but another cell at the same byte does, a member of a
    /// union there (`(unsigned char *) &u` to the `unsigned char` member,
    /// and back to the union), the pointer to that cell.
    pub(super) fn union_retarget(&self, v: Value, to: &Type) -> Value {
        let (Value::Ptr(p), Some(t)) = (v, to.pointee()) else {
            return v;
        };
        if !self.has_unions || p.is_null() || p.off < 0 || *t == Type::Void {
            return v;
        }
        let Some(ot) = self.object_type(p.obj) else {
            return v;
        };
        let off = p.off as u64;
        if off >= self.prog.cells(&ot) || memory::holds(self.prog, &ot, off, t) {
            return v;
        }
        match retarget(self.prog, &ot, off, t) {
            Some(c) => Value::Ptr(Ptr { off: c as i64, ..p }),
            None => v,
        }
    }

    /// Forgets the undecodable cells of `obj` (its cells were all rewritten).
    pub(super) fn forget_punned(&mut self, obj: u32) {
        if !self.mem.punned.is_empty() {
            self.mem.punned.retain(|k, _| k.0 != obj);
        }
    }

    /// The error for reading a cell [`Machine::sync_unions`] could not decode.
    pub(super) fn punned_read(&self, loc: Loc) -> Option<Box<Stop>> {
        let gen = self.mem.objects[loc.obj as usize].gen;
        let (t, what) = self.mem.punned.get(&(loc.obj, gen, loc.off))?;
        Some(self.error(
            ErrorKind::Unsupported,
            format!(
                "unsupported: read of a member of type {} of the union in {} whose bytes hold {what} (memory holds typed values, not bytes)",
                self.prog.type_name(t),
                self.object_name(loc.obj)
            ),
        ))
    }
}

/// The bytes of a cell's value of `size` bytes.
fn value_bytes(v: Value, size: u64) -> Vec<Byte> {
    let raw = match v {
        Value::Int(i) => i as u64,
        Value::Float(x) if size == 4 => (x as f32).to_bits() as u64,
        Value::Float(x) => x.to_bits(),
        Value::Ptr(p) if p.is_null() => 0,
        Value::Uninit => return vec![Byte::Unknown; size as usize],
        v => return (0..size).map(|k| Byte::Opaque(v, k as u8)).collect(),
    };
    (0..size)
        .map(|k| Byte::Known((raw >> (8 * k)) as u8))
        .collect()
}

/// A cell of an object of type `ty` at the same byte as cell `off` that
/// holds a `t` (through the members of the unions around `off`).
fn retarget(prog: &Program, ty: &Type, off: u64, t: &Type) -> Option<u64> {
    match ty {
        Type::Array(e, n) => {
            let per = prog.cells(e).max(1);
            let k = off / per;
            (k < *n).then_some(())?;
            Some(k * per + retarget(prog, e, off % per, t)?)
        }
        Type::Struct(s) if prog.struct_def(*s).union => {
            let byte = prog.cell_byte_offset(ty, off)?;
            if byte == 0 && memory::holds(prog, ty, 0, t) {
                return Some(0);
            }
            let at: Vec<(&faultline_ir::Field, u64)> = prog
                .struct_def(*s)
                .fields
                .iter()
                .filter_map(|f| Some((f, prog.byte_cell(&f.ty, byte)?)))
                .collect();
            if let Some((f, c)) = at.iter().find(|(f, c)| memory::holds(prog, &f.ty, *c, t)) {
                return Some(f.cell_offset + c);
            }
            at.iter()
                .find_map(|(f, c)| Some(f.cell_offset + retarget(prog, &f.ty, *c, t)?))
        }
        Type::Struct(s) => {
            let f = prog
                .struct_def(*s)
                .fields
                .iter()
                .find(|f| off >= f.cell_offset && off < f.cell_offset + prog.cells(&f.ty))?;
            Some(f.cell_offset + retarget(prog, &f.ty, off - f.cell_offset, t)?)
        }
        _ => None,
    }
}

/// The outermost union of an object of type `t` (at cell `base`) whose cells
/// include the cells `lo..hi` without being exactly them: `(its first cell,
/// its id)`. `None` when no union overlaps the range partly (a whole union
/// stored is a consistent copy).
fn enclosing_union(
    prog: &Program,
    t: &Type,
    base: u64,
    lo: u64,
    hi: u64,
) -> Option<(u64, faultline_ir::StructId)> {
    let n = prog.cells(t);
    if lo < base || hi > base + n || (lo == base && hi == base + n) {
        return None;
    }
    match t {
        Type::Struct(s) if prog.struct_def(*s).union => Some((base, *s)),
        Type::Struct(s) => {
            let f = prog.struct_def(*s).fields.iter().find(|f| {
                lo >= base + f.cell_offset && lo < base + f.cell_offset + prog.cells(&f.ty)
            })?;
            enclosing_union(prog, &f.ty, base + f.cell_offset, lo, hi)
        }
        Type::Array(e, _) => {
            let per = prog.cells(e).max(1);
            let k = (lo - base) / per;
            enclosing_union(prog, e, base + k * per, lo, hi)
        }
        _ => None,
    }
}
