//! The rest of the everyday library: `mem*` on typed cells, the string
//! searches, `strtol`/`strtoul`/`strtod`, `<math.h>` through the host's glibc
//! libm (bit-exact with gcc's binary on the same machine), `rand`/`srand`
//! (glibc's generator) and `abort`.

use super::*;
use crate::libc::Random;

impl<'e, 'p, 'h> Machine<'e, 'p, 'h> {
    pub(super) fn library_builtin(&mut self, f: Builtin, args: &'p [Expr]) -> R<Value> {
        match f {
            Builtin::Memcpy | Builtin::Memmove => {
                let d = self.ptr_arg(&args[0])?;
                let s = self.ptr_arg(&args[1])?;
                let n = self.int_arg(&args[2])? as u64;
                let k = self.mem_cells(&args[0], n)?.len();
                let (so, soff) = self.cells_at(s, k)?;
                let cells: Vec<Value> =
                    self.mem.objects[so as usize].cells[soff..soff + k].to_vec();
                for i in 0..k {
                    self.uses.borrow_mut().read(so, soff + i);
                }
                self.write_cells(d, &cells)?;
                Ok(Value::Ptr(d))
            }
            Builtin::Memset => {
                let d = self.ptr_arg(&args[0])?;
                let c = self.int_arg(&args[1])? as u8;
                let n = self.int_arg(&args[2])? as u64;
                let types = self.mem_cells(&args[0], n)?;
                let mut cells = Vec::with_capacity(types.len());
                for t in &types {
                    cells.push(match t {
                        Type::Int(k) => {
                            let bytes = (k.bits() / 8).max(1);
                            let mut v: i128 = 0;
                            for _ in 0..bytes {
                                v = (v << 8) | c as i128;
                            }
                            Value::Int(k.wrap(v))
                        }
                        Type::Float(_) if c == 0 => Value::Float(0.0),
                        Type::Ptr(_) | Type::Stream if c == 0 => Value::Ptr(Ptr::NULL),
                        t => {
                            return Err(self.error(
                                ErrorKind::Unsupported,
                                format!(
                                    "unsupported: memset of a {} to a nonzero byte (memory holds typed values, not bytes)",
                                    self.prog.type_name(t)
                                ),
                            ))
                        }
                    });
                }
                self.write_cells(d, &cells)?;
                Ok(Value::Ptr(d))
            }
            Builtin::Memcmp => {
                let a = self.ptr_arg(&args[0])?;
                let b = self.ptr_arg(&args[1])?;
                let n = self.int_arg(&args[2])? as u64;
                let types = self.mem_cells(&args[0], n)?;
                let x = self.cell_bytes(a, &types)?;
                let y = self.cell_bytes(b, &types)?;
                Ok(Value::Int(
                    x.iter()
                        .zip(&y)
                        .find(|(p, q)| p != q)
                        .map_or(0, |(p, q)| *p as i64 - *q as i64),
                ))
            }
            Builtin::Strchr | Builtin::Strrchr => {
                let p = self.ptr_arg(&args[0])?;
                let c = self.int_arg(&args[1])? as u8;
                let mut s = self.read_cstr(p)?;
                s.push(0);
                let at = if f == Builtin::Strchr {
                    s.iter().position(|&b| b == c)
                } else {
                    s.iter().rposition(|&b| b == c)
                };
                Ok(Value::Ptr(at.map_or(Ptr::NULL, |i| offset(p, i))))
            }
            Builtin::Strstr => {
                let h = self.ptr_arg(&args[0])?;
                let n = self.ptr_arg(&args[1])?;
                let hay = self.read_cstr(h)?;
                let needle = self.read_cstr(n)?;
                let at = if needle.is_empty() {
                    Some(0)
                } else {
                    hay.windows(needle.len()).position(|w| w == needle)
                };
                Ok(Value::Ptr(at.map_or(Ptr::NULL, |i| offset(h, i))))
            }
            Builtin::Strncat => {
                let d = self.ptr_arg(&args[0])?;
                let s = self.ptr_arg(&args[1])?;
                let n = self.int_arg(&args[2])? as u64 as usize;
                let mut src = self.read_cstr_upto_lenient(s, n)?;
                src.push(0);
                let cur = self.read_cstr(d)?.len();
                self.write_bytes(offset(d, cur), &src)?;
                Ok(Value::Ptr(d))
            }
            Builtin::Strtok => self.strtok(args),
            Builtin::Strtol | Builtin::Strtoul | Builtin::Strtod => {
                let p = self.ptr_arg(&args[0])?;
                let s = self.read_cstr(p)?;
                let (v, used) = match f {
                    Builtin::Strtol => {
                        let base = self.int_arg(&args[2])? as u32;
                        let (v, used, _) = libc::strconv::strtol(&s, base);
                        (Value::Int(v), used)
                    }
                    Builtin::Strtoul => {
                        let base = self.int_arg(&args[2])? as u32;
                        let (v, used, _) = libc::strconv::strtoul(&s, base);
                        (Value::Int(v as i64), used)
                    }
                    _ => {
                        let (v, used) = libc::strconv::strtod_prefix(&s);
                        (Value::Float(v), used)
                    }
                };
                let end = self.ptr_arg(&args[1])?;
                if !end.is_null() {
                    let ty = Type::ptr_to(faultline_ir::CHAR);
                    let loc = self.deref(Value::Ptr(end), &ty)?;
                    self.store(loc, Value::Ptr(offset(p, used)), true)?;
                }
                Ok(v)
            }
            Builtin::Log
            | Builtin::Log10
            | Builtin::Exp
            | Builtin::Sin
            | Builtin::Cos
            | Builtin::Atan
            | Builtin::Round => {
                let x = self.float_arg(&args[0])?;
                let r = match f {
                    Builtin::Log => x.ln(),
                    Builtin::Log10 => x.log10(),
                    Builtin::Exp => x.exp(),
                    Builtin::Sin => x.sin(),
                    Builtin::Cos => x.cos(),
                    Builtin::Atan => x.atan(),
                    _ => x.round(),
                };
                if f != Builtin::Round {
                    if let Some(h) = self.hooks.as_mut() {
                        h.library_result(f, &[x], r);
                    }
                }
                Ok(Value::Float(r))
            }
            Builtin::Fmod => {
                let x = self.float_arg(&args[0])?;
                let y = self.float_arg(&args[1])?;
                Ok(Value::Float(x % y))
            }
            Builtin::Rand => {
                let g = self
                    .lib
                    .rand
                    .get_or_insert_with(|| Box::new(Random::new(1)));
                Ok(Value::Int(g.next_value()))
            }
            Builtin::Srand => {
                let seed = self.int_arg(&args[0])? as u32;
                self.lib.rand = Some(Box::new(Random::new(seed)));
                Ok(Value::Int(0))
            }
            Builtin::Abort => {
                let stmt = self.cur.unwrap_or(StmtId(0));
                Err(Box::new(Stop::Assert(stmt, "abort() called".into())))
            }
            _ => Err(self.error(
                ErrorKind::Invalid,
                format!("{} is not a library function of this module", f.name()),
            )),
        }
    }

    /// `strtok(s, delim)` as glibc's `strtok_r` with a hidden position.
    fn strtok(&mut self, args: &'p [Expr]) -> R<Value> {
        let s = self.ptr_arg(&args[0])?;
        let d = self.ptr_arg(&args[1])?;
        let delim = self.read_cstr(d)?;
        let start = if s.is_null() {
            match self.lib.strtok {
                Some(p) => p,
                None => {
                    return Err(self.error(
                        ErrorKind::NullDereference,
                        "strtok(NULL, ...) before any string was given",
                    ))
                }
            }
        } else {
            s
        };
        let text = self.read_cstr(start)?;
        let skip = text.iter().take_while(|b| delim.contains(b)).count();
        if skip == text.len() {
            self.lib.strtok = Some(offset(start, skip));
            return Ok(Value::Ptr(Ptr::NULL));
        }
        let tok = offset(start, skip);
        let len = text[skip..]
            .iter()
            .take_while(|b| !delim.contains(b))
            .count();
        if skip + len == text.len() {
            self.lib.strtok = Some(offset(tok, len));
        } else {
            self.write_bytes(offset(tok, len), &[0])?;
            self.lib.strtok = Some(offset(tok, len + 1));
        }
        Ok(Value::Ptr(tok))
    }

    /// The cell types that `n` bytes from the pointer argument `arg` cover,
    /// from the type it had before its conversion to `void *` (memory holds
    /// typed cells): `n` must be a whole number of those elements.
    fn mem_cells(&self, arg: &Expr, n: u64) -> R<Vec<Type>> {
        let elem = arg.mem_elem();
        let size = self.prog.size_of(&elem).max(1);
        // No object is this large (a negative size converted to size_t).
        if n / size > MAX_CELLS {
            return Err(self.error(
                ErrorKind::OutOfBounds,
                format!("{n} bytes are more than any object holds"),
            ));
        }
        if !n.is_multiple_of(size) {
            return Err(self.error(
                ErrorKind::Unsupported,
                format!(
                    "unsupported: {n} bytes are not a whole number of {} (memory holds typed values, not bytes)",
                    self.prog.type_name(&elem)
                ),
            ));
        }
        let mut one = Vec::new();
        self.prog.cell_types(&elem, &mut one);
        if (n / size).saturating_mul(one.len() as u64) > MAX_CELLS {
            return Err(self.error(
                ErrorKind::OutOfBounds,
                format!("{n} bytes are more than any object holds"),
            ));
        }

        let mut out = Vec::with_capacity(one.len() * (n / size) as usize);
        for _ in 0..n / size {
            out.extend(one.iter().cloned());
        }
        Ok(out)
    }

    /// The object and offset of `k` cells from `p`, bounds-checked.
    fn cells_at(&self, p: Ptr, k: usize) -> R<(u32, usize)> {
        if k == 0 && !p.is_null() {
            return Ok((p.obj, 0));
        }
        let (obj, off) = self.check_ptr(p)?;
        let len = self.mem.objects[obj as usize].cells.len();
        if off + k > len {
            return Err(self.error(
                ErrorKind::OutOfBounds,
                format!(
                    "{k} cells from the pointer overflow {} ({} cells left)",
                    self.object_name(obj),
                    len - off
                ),
            ));
        }
        Ok((obj, off))
    }

    fn write_cells(&mut self, p: Ptr, cells: &[Value]) -> R<()> {
        if cells.is_empty() {
            return Ok(());
        }
        let (obj, off) = self.cells_at(p, cells.len())?;
        for (i, v) in cells.iter().enumerate() {
            self.store(Loc::at(obj, off + i), *v, true)?;
        }
        Ok(())
    }

    /// The bytes (little-endian) of the cells at `p` of the given types.
    fn cell_bytes(&self, p: Ptr, types: &[Type]) -> R<Vec<u8>> {
        if types.is_empty() {
            return Ok(Vec::new());
        }
        let (obj, off) = self.cells_at(p, types.len())?;
        let mut out = Vec::new();
        for (i, t) in types.iter().enumerate() {
            let v = self.load(Loc::at(obj, off + i))?;
            match (v, t) {
                (Value::Int(x), Type::Int(k)) => {
                    out.extend_from_slice(&x.to_le_bytes()[..(k.bits() / 8).max(1) as usize])
                }
                (Value::Float(x), Type::Float(faultline_ir::FloatKind::Float)) => {
                    out.extend_from_slice(&(x as f32).to_le_bytes())
                }
                (Value::Float(x), _) => out.extend_from_slice(&x.to_le_bytes()),
                _ => {
                    return Err(self.error(
                        ErrorKind::Unsupported,
                        "unsupported: memcmp of pointers (memory holds typed values, not bytes)",
                    ))
                }
            }
        }
        Ok(out)
    }
}

/// More cells than any object can have within the memory limit.
const MAX_CELLS: u64 = 1 << 28;

fn offset(p: Ptr, i: usize) -> Ptr {
    Ptr {
        off: p.off + i as i64,
        ..p
    }
}
