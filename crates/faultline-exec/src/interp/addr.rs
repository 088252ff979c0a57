//! Casts between pointers and integers. Memory holds objects, not bytes, so a
//! pointer has no machine address; converting one to an integer gives a
//! synthetic address instead: the object's base plus the byte offset gcc's
//! layout gives the cell within the object's type. Bases are far apart
//! (2^40) and carry the object's generation, so differences and comparisons
//! of addresses within one object, alignment tests and the round trip back to
//! a pointer behave as in the compiled program, and an integer that is not
//! such an address cannot be made into a pointer (a runtime error saying
//! so). The addresses themselves differ from a binary's, which differ from
//! run to run anyway.

use super::*;

/// Bit position of the object number in a synthetic address.
const OBJ_SHIFT: u32 = 40;
/// Bit position of the generation's low byte.
const GEN_SHIFT: u32 = 32;

impl<'e, 'p, 'h> Machine<'e, 'p, 'h> {
    /// The type of object `obj`, for byte offsets (`None`: an untyped heap block).
    pub(super) fn object_type(&self, obj: u32) -> Option<Type> {
        let o = &self.mem.objects[obj as usize];
        let n = o.cells.len() as u64;
        match o.origin {
            Origin::Var(VarRef::Global(g)) => Some(self.prog.globals[g.index()].ty.clone()),
            Origin::Var(VarRef::Local(f, l)) => {
                Some(self.prog.func(f).locals[l.index()].ty.clone())
            }
            Origin::Var(VarRef::Indirect) => None,
            Origin::Heap => {
                let e = o.heap.as_ref()?.elem.clone()?;
                let per = self.prog.cells(&e).max(1);
                Some(Type::Array(Box::new(e), n / per))
            }
            Origin::StrLit => Some(Type::Array(Box::new(faultline_ir::CHAR), n)),
            Origin::Arg => {
                let elem = match o.cells.first() {
                    Some(Value::Ptr(_)) => Type::Ptr(Box::new(faultline_ir::CHAR)),
                    _ => faultline_ir::CHAR,
                };
                Some(Type::Array(Box::new(elem), n))
            }
        }
    }

    fn addr_error(&self, what: String) -> Box<Stop> {
        self.error(ErrorKind::Unsupported, format!("unsupported: {what}"))
    }

    /// The synthetic address of pointer `p` (0 for the null pointer).
    pub(super) fn ptr_to_addr(&self, p: Ptr) -> R<i64> {
        if p.is_null() {
            return Ok(0);
        }
        let ty = self.object_type(p.obj);
        let byte = match (&ty, p.off) {
            (_, 0) => Some(0i64),
            (Some(t), off) if off > 0 => {
                self.prog.cell_byte_offset(t, off as u64).map(|b| b as i64)
            }
            (Some(t), off) => {
                // Before the start: whole elements of an array, backwards.
                match t {
                    Type::Array(e, _) => {
                        let per = self.prog.cells(e).max(1) as i64;
                        (off % per == 0).then(|| off / per * self.prog.size_of(e) as i64)
                    }
                    _ => None,
                }
            }
            (None, _) => None,
        };
        let Some(byte) = byte else {
            return Err(self.addr_error(format!(
                "conversion to an integer of a pointer into {} at cell {} (no byte address)",
                self.object_name(p.obj),
                p.off
            )));
        };
        let base = ((p.obj as i64 + 1) << OBJ_SHIFT) | (((p.gen & 0xff) as i64) << GEN_SHIFT);
        Ok(base + byte)
    }

    /// The pointer a synthetic address designates (0: the null pointer).
    pub(super) fn addr_to_ptr(&self, addr: i64) -> R<Ptr> {
        if addr == 0 {
            return Ok(Ptr::NULL);
        }
        let not_addr = || {
            self.addr_error(format!(
                "conversion of the integer {addr} to a pointer (only integers made from pointers convert back)"
            ))
        };
        // The nearest base: offsets may be slightly negative.
        let unit = addr
            .checked_add(1 << (GEN_SHIFT - 1))
            .ok_or_else(not_addr)?
            >> GEN_SHIFT;
        let obj = (unit >> (OBJ_SHIFT - GEN_SHIFT)) - 1;
        let gen8 = (unit & 0xff) as u32;
        let byte = addr - (unit << GEN_SHIFT);
        if obj < 0 || obj as usize >= self.mem.objects.len() {
            return Err(not_addr());
        }
        let obj = obj as u32;
        let o = &self.mem.objects[obj as usize];
        // A generation that no longer matches makes a dangling pointer.
        let gen = if o.gen & 0xff == gen8 {
            o.gen
        } else {
            o.gen.wrapping_sub(1)
        };
        let off = if byte == 0 {
            Some(0)
        } else {
            match self.object_type(obj) {
                Some(t) if byte > 0 => self.prog.byte_cell(&t, byte as u64).map(|c| c as i64),
                Some(Type::Array(e, _)) => {
                    let size = self.prog.size_of(&e) as i64;
                    let per = self.prog.cells(&e).max(1) as i64;
                    (byte % size == 0).then(|| byte / size * per)
                }
                _ => None,
            }
        };
        match off {
            Some(off) => Ok(Ptr { obj, gen, off }),
            None => Err(self.addr_error(format!(
                "conversion of the integer {addr} to a pointer that is not at the start of a value in {}",
                self.object_name(obj)
            ))),
        }
    }
}
