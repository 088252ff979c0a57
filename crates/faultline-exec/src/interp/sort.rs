//! `qsort` and `bsearch` with the program's comparator, as glibc does them:
//! `qsort` is glibc's merge sort (`msort_with_tmp`: halves of `n / 2` and
//! `n - n / 2`, merging while `cmp(left, right) <= 0` takes from the left),
//! so equal elements keep their order and the comparator sees the same
//! pairs in the same order; `bsearch` is glibc's binary search.

use super::*;

impl<'e, 'p, 'h> Machine<'e, 'p, 'h> {
    pub(super) fn sort_builtin(&mut self, f: Builtin, args: &'p [Expr]) -> R<Value> {
        let name = f.name();
        let (key, rest) = if f == Builtin::Bsearch {
            (Some(self.ptr_arg(&args[0])?), &args[1..])
        } else {
            (None, args)
        };
        let base = self.ptr_arg(&rest[0])?;
        let n = self.int_arg(&rest[1])? as u64;
        let size = self.int_arg(&rest[2])? as u64;
        let cmp = self.eval(&rest[3])?;
        let cells = self.int_arg(&rest[4])? as u64;
        let elem_size = self.int_arg(&rest[5])? as u64;
        let fid = match cmp {
            Value::Func(fid) => fid,
            Value::Ptr(p) if p.is_null() => {
                return Err(self.error(
                    ErrorKind::NullDereference,
                    format!("{name} with a null comparison function"),
                ))
            }
            Value::Uninit => return Err(self.arith(ArithError::Uninit)),
            _ => {
                return Err(self.error(
                    ErrorKind::Invalid,
                    format!("{name} with a comparison function pointer that points to no function"),
                ))
            }
        };
        if n == 0 || (n == 1 && f == Builtin::Qsort) {
            return Ok(Value::Ptr(Ptr::NULL));
        }
        if size != elem_size {
            return Err(self.error(
                ErrorKind::Unsupported,
                format!(
                    "unsupported: {name} with an element size of {size} bytes on an array of {elem_size}-byte elements"
                ),
            ));
        }
        // The whole array must lie in its object.
        let last = Ptr {
            off: base.off + ((n - 1) * cells) as i64,
            ..base
        };
        self.check_ptr(base)?;
        let (obj, _) = self.check_ptr(last)?;
        if (last.off as u64 + cells) as usize > self.mem.objects[obj as usize].cells.len() {
            return Err(self.error(
                ErrorKind::OutOfBounds,
                format!(
                    "{name}: the array of {n} elements overflows {}",
                    self.object_name(obj)
                ),
            ));
        }
        let c = cells as i64;
        let at = |i: u64| Ptr {
            off: base.off + i as i64 * c,
            ..base
        };
        match key {
            None => {
                self.msort(fid, base, c, 0, n)?;
                Ok(Value::Ptr(Ptr::NULL))
            }
            Some(key) => {
                let (mut l, mut u) = (0u64, n);
                while l < u {
                    let idx = (l + u) / 2;
                    let r = self.compare_with(fid, key, at(idx))?;
                    if r < 0 {
                        u = idx;
                    } else if r > 0 {
                        l = idx + 1;
                    } else {
                        return Ok(Value::Ptr(at(idx)));
                    }
                }
                Ok(Value::Ptr(Ptr::NULL))
            }
        }
    }

    /// Calls the comparator on two pointers and returns its `int`.
    fn compare_with(&mut self, fid: FuncId, a: Ptr, b: Ptr) -> R<i64> {
        if self.prog.func(fid).params.len() != 2 {
            return Err(self.error(
                ErrorKind::Invalid,
                format!(
                    "comparison function '{}' does not take two arguments",
                    self.prog.func(fid).name
                ),
            ));
        }
        let saved = self.cur;
        let r = self.call(fid, vec![vec![Value::Ptr(a)], vec![Value::Ptr(b)]], None);
        self.cur = saved;
        match r? {
            Ret::Scalar(Value::Int(v)) => Ok(v),
            Ret::Scalar(Value::Uninit) => Err(self.arith(ArithError::Uninit)),
            _ => Err(self.error(
                ErrorKind::Invalid,
                "comparison function did not return an integer",
            )),
        }
    }

    /// glibc's `msort_with_tmp` on elements `lo..lo + n` (of `c` cells each).
    fn msort(&mut self, fid: FuncId, base: Ptr, c: i64, lo: u64, n: u64) -> R<()> {
        if n <= 1 {
            return Ok(());
        }
        let n1 = n / 2;
        let n2 = n - n1;
        self.msort(fid, base, c, lo, n1)?;
        self.msort(fid, base, c, lo + n1, n2)?;
        let at = |i: u64| Ptr {
            off: base.off + i as i64 * c,
            ..base
        };
        let (mut i, mut j) = (lo, lo + n1);
        let (end1, end2) = (lo + n1, lo + n);
        let mut order = Vec::with_capacity(n as usize);
        while i < end1 && j < end2 {
            if self.compare_with(fid, at(i), at(j))? <= 0 {
                order.push(i);
                i += 1;
            } else {
                order.push(j);
                j += 1;
            }
        }
        order.extend(i..end1);
        order.extend(j..end2);
        let obj = base.obj as usize;
        // The comparator may have ended the array's lifetime (freed it).
        let o = &self.mem.objects[obj];
        if !o.live || o.gen != base.gen || (at(end2).off as usize) > o.cells.len() {
            return Err(self.error(
                ErrorKind::Invalid,
                "qsort: the comparison function freed or moved the array being sorted",
            ));
        }
        let cells = &self.mem.objects[obj].cells;
        let mut merged = Vec::with_capacity((n as i64 * c) as usize);
        for k in order {
            let s = at(k).off as usize;
            merged.extend_from_slice(&cells[s..s + c as usize]);
        }
        let s = at(lo).off as usize;
        for (k, v) in merged.into_iter().enumerate() {
            let loc = Loc::at(base.obj, s + k);
            self.mem.objects[obj].cells[s + k] = v;
            self.uses.get_mut().write(loc.obj, loc.off, self.cur);
        }
        Ok(())
    }
}
