//! Strings a pointer may designate, their cells, lengths and constant values.

use super::*;

/// The largest object a string argument at a computed offset may point
/// into: each offset is an alternative string, whose cost grows with the
/// square of the object's size.
const MAX_STRING_OFFSETS: usize = 64;

impl<'a, 'b> SymExec<'a, 'b> {
    /// `strcpy`, `strncpy` (with a constant length), `strcat` (onto a
    /// constant string) of a constant string: stores its characters.
    pub(super) fn strcpy_builtin(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let sem = self.sem;
        let d = self.eval(&args[0], g)?;
        let s = self.eval(&args[1], g)?;
        let (_, _, src) = self.string_cells(&s, g)?;
        let Some(bytes) = Self::const_string(&src) else {
            return self.unsupported(format!("{} of a string computed by the program", f.name()));
        };
        let (obj, off, dst) = self.string_cells(&d, g)?;
        let mut data = bytes.clone();
        let start = match f {
            Builtin::Strcat => match Self::const_string(&dst) {
                Some(cur) => cur.len(),
                None => return self.unsupported("strcat onto a string computed by the program"),
            },
            _ => 0,
        };
        if f == Builtin::Strncpy {
            let n = self.eval(&args[2], g)?;
            let Some(n) = self.int_of(&n)?.as_const() else {
                return self.unsupported("strncpy with a computed length");
            };
            // size_t: a negative length is a huge one.
            let n = n as u64;
            if n > dst.len().saturating_sub(start) as u64 {
                self.check(&g.clone(), ff());
                return Ok(d);
            }
            data.truncate(n as usize);
            data.resize(n as usize, 0);
        } else {
            data.push(0);
        }
        if start + data.len() > dst.len() {
            self.check(&g.clone(), ff());
            return Ok(d);
        }
        let cells: Vec<SCell> = data
            .iter()
            .map(|&b| SCell {
                v: SVal::Int(SInt::constant(sem, IntKind::Char, b as i8 as i128)),
                init: tt(),
            })
            .collect();
        let lp = LPlace {
            alts: vec![LAlt {
                g: tt(),
                obj,
                off: self.long((off + start) as i128),
                emu: None,
            }],
        };
        self.store_agg(&lp, &cells, g);
        Ok(d)
    }

    /// The strings a pointer may designate: for each target (with its
    /// guard), the cells from the pointer to the end of the object. Targets
    /// must have constant offsets; a null or out-of-range target is excluded
    /// by a safety check.
    pub(super) fn string_alts(&mut self, v: &SVal, g: &Bool) -> R<Vec<StringAlt>> {
        let SVal::Ptr(p) = v else {
            return self.unsupported("string argument is not a pointer");
        };
        let mut out = Vec::new();
        let mut valid = ff();
        for (ga, t) in &p.alts {
            if is_false(ga) {
                continue;
            }
            if let Target::Obj { obj, off } = t {
                if !self.objs[*obj as usize].live {
                    continue;
                }
                let len = self.objs[*obj as usize].cells.len();
                match off.as_const() {
                    Some(k) if k >= 0 && (k as usize) < len => {
                        valid = or2(&valid, ga);
                        let cells = self.objs[*obj as usize].cells[k as usize..].to_vec();
                        out.push((ga.clone(), *obj, k as usize, cells));
                    }
                    Some(_) => {}
                    // A computed offset (an element of a small array of
                    // strings): one alternative per offset in the object.
                    None if len <= MAX_STRING_OFFSETS => {
                        for k in 0..len {
                            let gk = and2(ga, &off.eq_const(k as i128));
                            if is_false(&gk) {
                                continue;
                            }
                            valid = or2(&valid, &gk);
                            let cells = self.objs[*obj as usize].cells[k..].to_vec();
                            out.push((gk, *obj, k, cells));
                        }
                    }
                    None => {
                        return self.unsupported(format!(
                            "string argument at a computed offset into an object of more than {MAX_STRING_OFFSETS} elements"
                        ))
                    }
                }
            }
        }
        self.check(g, valid);
        Ok(out)
    }

    /// Like [`Self::string_alts`], for arguments that must designate one object.
    pub(super) fn string_cells(&mut self, v: &SVal, g: &Bool) -> R<(u32, usize, Vec<SCell>)> {
        let mut alts = self.string_alts(v, g)?;
        match alts.len() {
            0 => Ok((0, 0, Vec::new())),
            1 => {
                let (_, obj, off, cells) = alts.remove(0);
                Ok((obj, off, cells))
            }
            _ => self.unsupported("a string argument that may point to several objects here"),
        }
    }

    /// Computes a value per string alternative and merges them by guard.
    pub(super) fn per_string(
        &mut self,
        v: &SVal,
        g: &Bool,
        mut f: impl FnMut(&mut Self, &[SCell]) -> R<SVal>,
    ) -> R<SVal> {
        let alts = self.string_alts(v, g)?;
        let mut acc: Option<SVal> = None;
        for (ga, _, _, cells) in alts.iter().rev() {
            let x = f(self, cells)?;
            acc = Some(match acc {
                None => x,
                Some(prev) => SVal::ite(ga, &x, &prev),
            });
        }
        Ok(acc.unwrap_or_else(|| SVal::Int(SInt::constant(self.sem, IntKind::Int, 0))))
    }

    /// A string's bytes when all of them (up to the NUL) are constants.
    pub(super) fn const_string(cells: &[SCell]) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        for c in cells {
            let SVal::Int(i) = &c.v else { return None };
            if !sym::is_true(&c.init) {
                return None;
            }
            let b = i.as_const()?;
            if b == 0 {
                return Some(out);
            }
            out.push(b as u8);
        }
        None
    }

    /// The symbolic length of a string (its first NUL), with the condition that one exists.
    pub(super) fn strlen_sym(&self, cells: &[SCell]) -> (SInt, Bool) {
        let mut len = self.long(0);
        let mut found = ff();
        for (j, c) in cells.iter().enumerate().rev() {
            let is_nul = match &c.v {
                SVal::Int(i) => i.eq_const(0),
                _ => ff(),
            };
            len = SInt::ite(&is_nul, &self.long(j as i128), &len);
            found = or2(&found, &is_nul);
        }
        (len, found)
    }
}

/// A string a pointer may designate: guard, object, offset, cells from there.
type StringAlt = (Bool, u32, usize, Vec<SCell>);
