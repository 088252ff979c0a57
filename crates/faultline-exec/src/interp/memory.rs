//! Places and memory accesses: lvalues, pointer checks, loads (including gcc's
//! layout of globals just outside an array), stores and pointer arithmetic.

use super::*;

impl<'e, 'p, 'h> Machine<'e, 'p, 'h> {
    pub(super) fn var_obj(&self, v: Var) -> u32 {
        match v {
            Var::Global(g) => self.globals[g.index()],
            Var::Local(l) => self.frames.last().expect("frame").locals[l.index()],
        }
    }

    pub(super) fn place(&mut self, p: &'p Place) -> R<Loc> {
        match &p.kind {
            PlaceKind::Var(v) => Ok(Loc::at(self.var_obj(*v), 0)),
            PlaceKind::Deref(e) => {
                let v = self.eval(e)?;
                self.deref(v, &p.ty)
            }
            PlaceKind::Index(base, idx) => {
                let b = self.place(base)?;
                if b.void {
                    self.eval(idx)?;
                    return Ok(b);
                }
                let i = match self.eval(idx)? {
                    Value::Int(i) => i,
                    Value::Uninit => return Err(self.arith(ArithError::Uninit)),
                    _ => {
                        return Err(self.error(ErrorKind::Invalid, "array index is not an integer"))
                    }
                };
                let (elem, n) = match &base.ty {
                    Type::Array(e, n) => (e, *n),
                    _ => return Err(self.error(ErrorKind::Invalid, "indexing a non-array")),
                };
                let esize = self.prog.size_of(elem) as i64;
                if let Some(e) = b.emu {
                    let addr = (e.addr as i64 + i * esize) as u64;
                    return Ok(Loc {
                        emu: Some(Emu { addr, ..e }),
                        ..b
                    });
                }
                if i < 0 || i as u64 >= n {
                    let global = match self.mem.objects[b.obj as usize].origin {
                        Origin::Var(VarRef::Global(g)) => Some(g.index()),
                        _ => None,
                    };
                    let base = global.and_then(|g| self.exe_layout.cell_addr(g, b.off));
                    let (Some(g), Some(base)) = (global, base) else {
                        if self.waived() {
                            return Ok(Loc::VOID);
                        }
                        return Err(self.error(
                            ErrorKind::OutOfBounds,
                            format!(
                                "index {i} is out of bounds for {} of {n} elements",
                                self.object_name(b.obj)
                            ),
                        ));
                    };
                    let _ = g;
                    let addr = (base as i64 + i * esize) as u64;
                    return Ok(Loc {
                        emu: Some(Emu {
                            addr,
                            index: i,
                            len: n,
                        }),
                        ..b
                    });
                }
                Ok(Loc::at(
                    b.obj,
                    b.off + i as usize * self.prog.cells(elem) as usize,
                ))
            }
            PlaceKind::Field(base, n) => {
                let b = self.place(base)?;
                let Type::Struct(s) = &base.ty else {
                    return Err(self.error(ErrorKind::Invalid, "member access on a non-struct"));
                };
                let f = &self.prog.struct_def(*s).fields[*n as usize];
                if b.void {
                    return Ok(b);
                }
                if let Some(e) = b.emu {
                    return Ok(Loc {
                        emu: Some(Emu {
                            addr: e.addr + f.byte_offset,
                            ..e
                        }),
                        ..b
                    });
                }
                Ok(Loc::at(b.obj, b.off + f.cell_offset as usize))
            }
        }
    }

    /// Checks a pointer conversion to `to` (`(T *) p`, or `void *` to `T *`):
    /// memory holds typed values, not bytes, so the object `p` points into
    /// must hold a `T` (or an object starting with one) where `p` points.
    /// Reinterpreting an object as another type (an `int` through a
    /// `char *`) is refused rather than computed wrongly.
    pub(super) fn check_ptr_cast(&mut self, v: Value, to: &Type) -> R<()> {
        let (Value::Ptr(p), Some(t)) = (v, to.pointee()) else {
            return Ok(());
        };
        if *t == Type::Void || p.is_null() {
            return Ok(());
        }
        let o = &self.mem.objects[p.obj as usize];
        if o.live && o.gen == p.gen && p.off == 0 && o.cells.is_empty() {
            // An untyped heap block takes the type it is first used as.
            self.type_heap(p.obj, t);
        }
        let o = &self.mem.objects[p.obj as usize];
        let len = o.cells.len() as i64;
        // Dangling and one-past-the-end pointers are caught when dereferenced.
        if !o.live || o.gen != p.gen || p.off < 0 || p.off >= len {
            return Ok(());
        }
        let off = p.off as u64;
        if o.origin == Origin::Heap {
            if self.heap_holds(p.obj, off, t) || self.waived() {
                return Ok(());
            }
            return Err(self.error(
                ErrorKind::Unsupported,
                format!(
                    "unsupported: access to {} through a pointer to {} (memory holds typed values, not bytes)",
                    self.object_name(p.obj),
                    self.prog.type_name(t)
                ),
            ));
        }
        let ok = match o.origin {
            Origin::Var(VarRef::Global(g)) => {
                holds(self.prog, &self.prog.globals[g.index()].ty, off, t)
            }
            Origin::Var(VarRef::Local(f, l)) => {
                holds(self.prog, &self.prog.func(f).locals[l.index()].ty, off, t)
            }
            Origin::Var(VarRef::Indirect) => true,
            // Strings are `char` cells; `argv` is an array of `char *`.
            Origin::Heap => true,
            Origin::StrLit | Origin::Arg => match o.cells[p.off as usize] {
                Value::Ptr(_) => t.is_pointer(),
                _ => same_repr(t, &faultline_ir::CHAR),
            },
        };
        if ok || self.waived() {
            return Ok(());
        }
        Err(self.error(
            ErrorKind::Unsupported,
            format!(
                "unsupported: access to {} through a pointer to {} (memory holds typed values, not bytes)",
                self.object_name(p.obj),
                self.prog.type_name(t)
            ),
        ))
    }

    /// Checks that a pointer may be dereferenced as an object of type `ty`.
    pub(super) fn deref(&self, v: Value, ty: &Type) -> R<Loc> {
        match self.deref_checked(v, ty) {
            Err(_) if self.waived() => Ok(Loc::VOID),
            r => r,
        }
    }

    pub(super) fn deref_checked(&self, v: Value, ty: &Type) -> R<Loc> {
        let p = match v {
            Value::Ptr(p) => p,
            Value::Uninit => return Err(self.arith(ArithError::Uninit)),
            _ => return Err(self.error(ErrorKind::Invalid, "dereferencing a non-pointer")),
        };
        if p.is_null() {
            return Err(self.error(ErrorKind::NullDereference, "null pointer dereference"));
        }
        let o = &self.mem.objects[p.obj as usize];
        if !o.live && o.heap.is_some() {
            return Err(self.use_after_free(p.obj));
        }
        if !o.live || o.gen != p.gen {
            return Err(self.error(
                ErrorKind::DanglingPointer,
                "dereference of a dangling pointer (its object's lifetime has ended)",
            ));
        }
        let n = self.prog.cells(ty).max(1) as i64;
        if p.off < 0 || p.off + n > o.cells.len() as i64 {
            return Err(self.error(
                ErrorKind::OutOfBounds,
                format!(
                    "pointer dereference out of bounds of {} (cell {} of {})",
                    self.object_name(p.obj),
                    p.off,
                    o.cells.len()
                ),
            ));
        }
        self.check_union_member(p.obj, p.off as usize, ty)?;
        Ok(Loc::at(p.obj, p.off as usize))
    }

    pub(super) fn oob(&self, loc: Loc, write: bool) -> Box<Stop> {
        let e = loc.emu.expect("an out-of-bounds place");
        self.error(
            ErrorKind::OutOfBounds,
            format!(
                "index {} is out of bounds for {} of {} elements{}",
                e.index,
                self.object_name(loc.obj),
                e.len,
                if write {
                    ""
                } else {
                    " (outside the memory gcc maps for globals)"
                }
            ),
        )
    }

    /// Reads a scalar of type `ty` outside a global array, as the gcc binary would.
    pub(super) fn load_emulated(&mut self, loc: Loc, ty: &Type) -> R<Value> {
        let e = loc.emu.expect("an out-of-bounds place");
        let size = self.prog.size_of(ty);
        let layout = self.exe_layout;
        let v = match layout.resolve(e.addr, size) {
            Resolved::Unmapped => return Err(self.oob(loc, false)),
            Resolved::Cell { global, cell } => {
                let v = self.mem.objects[self.globals[global] as usize].cells[cell];
                match (v, ty) {
                    (Value::Int(_), Type::Int(_)) | (Value::Float(_), Type::Float(_)) => v,
                    _ => self.bytes_value(e.addr, size, ty)?,
                }
            }
            Resolved::Zero => zero_of(ty),
            Resolved::Bytes => self.bytes_value(e.addr, size, ty)?,
        };
        if let Some(s) = self.cur {
            let note = format!(
                "{}: index {} is out of bounds for {} of {} elements; the read was resolved as gcc lays out globals",
                self.prog.stmt_pos(s),
                e.index,
                self.object_name(loc.obj),
                e.len
            );
            if !self.warnings.contains(&note) {
                self.warnings.push(note);
            }
        }
        Ok(v)
    }

    /// Assembles a scalar from the bytes of the globals at `addr` (little-endian).
    pub(super) fn bytes_value(&self, addr: u64, size: u64, ty: &Type) -> R<Value> {
        let mut bytes = vec![0u8; size as usize];
        for c in self.exe_layout.overlapping(addr, size) {
            let v = self.mem.objects[self.globals[c.global] as usize].cells[c.cell];
            let raw: u64 = match v {
                Value::Int(i) => i as u64,
                Value::Float(x) if c.size == 4 => (x as f32).to_bits() as u64,
                Value::Float(x) => x.to_bits(),
                _ => {
                    return Err(self.error(
                        ErrorKind::Unsupported,
                        "out-of-bounds read overlapping a pointer is not supported",
                    ))
                }
            };
            for k in 0..c.size {
                let a = c.addr + k;
                if a >= addr && a < addr + size {
                    bytes[(a - addr) as usize] = (raw >> (8 * k)) as u8;
                }
            }
        }
        let mut raw = 0u64;
        for (k, b) in bytes.iter().enumerate() {
            raw |= (*b as u64) << (8 * k);
        }
        Ok(match ty {
            Type::Int(k) => Value::Int(k.wrap(raw as i128)),
            Type::Float(faultline_ir::FloatKind::Float) => {
                Value::Float(f32::from_bits(raw as u32) as f64)
            }
            Type::Float(_) => Value::Float(f64::from_bits(raw)),
            _ => {
                return Err(self.error(
                    ErrorKind::Unsupported,
                    "out-of-bounds read of a pointer is not supported",
                ))
            }
        })
    }

    pub(super) fn load_typed(&mut self, loc: Loc, ty: &Type) -> R<Value> {
        if loc.void {
            return Ok(zero_of(ty));
        }
        if loc.emu.is_some() {
            return self.load_emulated(loc, ty);
        }
        self.load(loc)
    }

    pub(super) fn load(&self, loc: Loc) -> R<Value> {
        if loc.void {
            return Ok(Value::Int(0));
        }
        if loc.emu.is_some() {
            return Err(self.oob(loc, false));
        }
        let v = self.mem.objects[loc.obj as usize].cells[loc.off];
        self.uses.borrow_mut().read(loc.obj, loc.off);
        if v == Value::Uninit && self.waived() {
            return Ok(Value::Int(0));
        }
        if v == Value::Uninit {
            if let Some(e) = self.punned_read(loc) {
                return Err(e);
            }
            return Err(self.error(
                ErrorKind::UninitializedRead,
                format!("read of uninitialized {}", self.object_name(loc.obj)),
            ));
        }
        Ok(v)
    }

    pub(super) fn target_of(&self, loc: Loc) -> Target {
        match self.mem.objects[loc.obj as usize].origin {
            Origin::Var(var) => Target::Var {
                var,
                cell: loc.off as u32,
            },
            _ => Target::Other {
                cell: loc.off as u32,
            },
        }
    }

    /// Stores a scalar. `produced`: the value is produced by the current
    /// statement (trace and hooks see it).
    pub(super) fn store(&mut self, loc: Loc, v: Value, produced: bool) -> R<Value> {
        if loc.void || (loc.emu.is_some() && self.waived()) {
            return Ok(v);
        }
        if loc.emu.is_some() {
            return Err(self.oob(loc, true));
        }
        let o = &self.mem.objects[loc.obj as usize];
        if o.readonly {
            return Err(self.error(ErrorKind::WriteToReadonly, "write to a string literal"));
        }
        let v = if produced {
            self.produce(self.target_of(loc), v)
        } else {
            v
        };
        self.mem.objects[loc.obj as usize].cells[loc.off] = v;
        self.uses.get_mut().write(loc.obj, loc.off, self.cur);
        self.sync_unions(loc.obj, loc.off, loc.off + 1)?;
        Ok(v)
    }

    pub(super) fn store_agg(&mut self, loc: Loc, cells: &[Value]) -> R<()> {
        if loc.void || (loc.emu.is_some() && self.waived()) {
            return Ok(());
        }
        if loc.emu.is_some() {
            return Err(self.oob(loc, true));
        }
        if self.mem.objects[loc.obj as usize].readonly {
            return Err(self.error(ErrorKind::WriteToReadonly, "write to a string literal"));
        }
        for (i, v) in cells.iter().enumerate() {
            let v = self.produce(self.target_of(Loc::at(loc.obj, loc.off + i)), *v);
            self.mem.objects[loc.obj as usize].cells[loc.off + i] = v;
            self.uses.get_mut().write(loc.obj, loc.off + i, self.cur);
        }
        self.sync_unions(loc.obj, loc.off, loc.off + cells.len())
    }

    pub(super) fn ptr_add(&self, p: Value, n: i64, pointee: &Type) -> R<Value> {
        match p {
            Value::Ptr(p) if p.is_null() && n == 0 => Ok(Value::Ptr(p)),
            Value::Ptr(p) if p.is_null() => {
                Err(self.error(ErrorKind::NullDereference, "arithmetic on a null pointer"))
            }
            Value::Ptr(p) if self.is_freed_heap(p.obj) => Err(self.use_after_free(p.obj)),
            Value::Ptr(p) => {
                let step = self.prog.cells(pointee).max(1) as i64;
                let off = p.off + n * step;
                let len = self.mem.objects[p.obj as usize].cells.len() as i64;
                if off < 0 || off > len {
                    return Err(self.error(
                        ErrorKind::OutOfBounds,
                        format!(
                            "pointer arithmetic leaves the bounds of {}",
                            self.object_name(p.obj)
                        ),
                    ));
                }
                Ok(Value::Ptr(Ptr { off, ..p }))
            }
            Value::Uninit => Err(self.arith(ArithError::Uninit)),
            _ => Err(self.error(ErrorKind::Invalid, "pointer arithmetic on a non-pointer")),
        }
    }
}

/// Whether an object of type `obj` holds, `off` cells from its start, an
/// object of type `t` (itself, an element, a member, or their first parts).
pub(super) fn holds(prog: &Program, obj: &Type, off: u64, t: &Type) -> bool {
    if off == 0 && same_repr(obj, t) {
        return true;
    }
    match obj {
        Type::Array(e, n) => {
            let c = prog.cells(e).max(1);
            off / c < *n && holds(prog, e, off % c, t)
        }
        Type::Struct(s) => prog.struct_def(*s).fields.iter().any(|f| {
            off >= f.cell_offset
                && off < f.cell_offset + prog.cells(&f.ty)
                && holds(prog, &f.ty, off - f.cell_offset, t)
        }),
        _ => false,
    }
}

/// Whether values of types `a` and `b` are stored alike (same width,
/// signedness and kind), so that one may be accessed as the other.
fn same_repr(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Int(x), Type::Int(y)) => {
            x.bits() == y.bits()
                && x.signed() == y.signed()
                && (*x == faultline_ir::IntKind::Bool) == (*y == faultline_ir::IntKind::Bool)
        }
        (Type::Ptr(_), Type::Ptr(_)) => true,
        _ => a == b,
    }
}
