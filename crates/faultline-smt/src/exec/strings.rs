//! Strings a pointer may designate, their cells, lengths and constant values.

use super::*;
use crate::sym::ITerm;

/// The largest object a string argument at a computed offset may point
/// into: each offset is an alternative string, whose cost grows with the
/// square of the object's size.
const MAX_STRING_OFFSETS: usize = 64;

/// The solver's effort limit (Z3's resource units) for each query that
/// enumerates the offsets a computed string pointer can take in a larger
/// object.
const OFFSET_EFFORT: u32 = 200_000;

/// `t` with every operand of its top additions, multiplications,
/// extensions and if-then-elses (their conditions too) that is not a
/// numeral replaced by a fresh constant: it can
/// take every value `t` can (and more), and the solver enumerates the values
/// of `21 * sext(i) + 20` at once where `i`'s own term would cost it dearly.
///
/// Each distinct subterm is abstracted once (the term is a DAG: a walk of
/// its tree was exponential in the depth of shared if-then-elses, seconds and
/// gigabytes for an offset after a loop over a computed line).
fn abstract_offset(t: &z3::ast::Dynamic) -> z3::ast::Dynamic {
    abstract_offset_in(t, &mut std::collections::BTreeMap::new())
}

fn abstract_offset_in(
    t: &z3::ast::Dynamic,
    done: &mut std::collections::BTreeMap<u32, (z3::ast::Dynamic, z3::ast::Dynamic)>,
) -> z3::ast::Dynamic {
    if t.kind() == z3::AstKind::Numeral {
        return t.clone();
    }
    let id = crate::lift::ast_id(t);
    if let Some((_, a)) = done.get(&id) {
        return a.clone();
    }
    crate::limits::tick();
    let mut a = None;
    if t.is_app() {
        let d = t.decl();
        let name = d.name();
        if name == "if" {
            let ch = t.children();
            let c = z3::ast::Bool::fresh_const("off");
            let (x, y) = (
                abstract_offset_in(&ch[1], done),
                abstract_offset_in(&ch[2], done),
            );
            a = Some(c.ite(&x, &y));
        } else if matches!(
            name.as_str(),
            "bvadd" | "bvmul" | "bvsub" | "sign_extend" | "zero_extend" | "+" | "*" | "-"
        ) {
            let ch: Vec<z3::ast::Dynamic> = t
                .children()
                .iter()
                .map(|c| abstract_offset_in(c, done))
                .collect();
            let refs: Vec<&dyn z3::ast::Ast> = ch.iter().map(|c| c as &dyn z3::ast::Ast).collect();
            a = Some(d.apply(&refs));
        }
    }
    let a = a.unwrap_or_else(|| z3::ast::Dynamic::fresh_const("off", &t.get_sort()));
    // The term is kept with its abstraction, so that its id is not reused
    // while the map lives.
    done.insert(id, (t.clone(), a.clone()));
    a
}

/// A numeral's value: a bit-vector's as a signed number, or an integer's.
fn numeral_i64(t: &z3::ast::Dynamic) -> Option<i64> {
    if let Some(b) = t.as_bv() {
        return b.as_i64();
    }
    t.as_int().and_then(|i| i.as_i64())
}

/// The largest destination a `strcat` onto a computed string writes into:
/// each cell is an if-then-else over the destination's possible lengths.
const MAX_STRCAT_ROOM: usize = 256;

impl<'a, 'b> SymExec<'a, 'b> {
    /// `strcpy`, `strncpy` (with a constant length), `strcat` (onto a
    /// constant string): stores the source's characters (see
    /// [`Self::strcpy_computed`] when they are computed).
    pub(super) fn strcpy_builtin(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let sem = self.sem;
        let d = self.eval(&args[0], g)?;
        let s = self.eval(&args[1], g)?;
        let (_, _, src) = self.string_cells(&s, g)?;
        let (obj, off, dst) = self.string_cells(&d, g)?;
        let Some(bytes) = Self::const_string(&src) else {
            self.strcpy_computed(f, args, (obj, off, &dst), &src, g)?;
            return Ok(d);
        };
        let mut data = bytes.clone();
        let start = match f {
            Builtin::Strcat => match Self::const_string(&dst) {
                Some(cur) => cur.len(),
                None => {
                    self.strcat_onto_computed((obj, off, &dst), &src, g)?;
                    return Ok(d);
                }
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
        let lp = self.place_at(obj, off + start);
        self.store_agg(&lp, &cells, g);
        Ok(d)
    }

    /// `strcpy`, `strncpy` (constant length) and `strcat` (onto a constant
    /// string) of a string with computed characters: destination cell `i`
    /// takes source cell `i` while no NUL came before it (`strncpy`: a NUL
    /// after the source's end, up to its length), and keeps its value
    /// otherwise. The copy must end inside both objects and read only
    /// initialized characters, as the interpreter checks; a run breaking
    /// that is excluded.
    fn strcpy_computed(
        &mut self,
        f: Builtin,
        args: &'a [Expr],
        (obj, off, dst): (u32, usize, &[SCell]),
        src: &[SCell],
        g: &mut Bool,
    ) -> R<()> {
        let sem = self.sem;
        let start = match f {
            Builtin::Strcat => match Self::const_string(dst) {
                Some(cur) => cur.len(),
                None => return self.strcat_onto_computed((obj, off, dst), src, g),
            },
            _ => 0,
        };
        let room = dst.len().saturating_sub(start);
        let limit = if f == Builtin::Strncpy {
            let n = self.eval(&args[2], g)?;
            let Some(n) = self.int_of(&n)?.as_const() else {
                return self.unsupported("strncpy with a computed length");
            };
            // size_t: a negative length is a huge one.
            let n = n as u64;
            if n > room as u64 {
                self.check(&g.clone(), ff());
                return Ok(());
            }
            Some(n as usize)
        } else {
            None
        };
        let nul = SInt::constant(sem, IntKind::Char, 0);
        // `before`: no NUL among the source's characters so far.
        let mut before = tt();
        let mut cells = Vec::new();
        let count = limit.unwrap_or(room);
        for i in 0..count {
            let old = &dst[start + i];
            let cell = match src.get(i) {
                Some(c) => {
                    self.check(&and2(g, &before), c.init.clone());
                    let v = match &c.v {
                        SVal::Int(x) => SVal::Int(x.convert(IntKind::Char)),
                        _ => SVal::Int(nul.clone()),
                    };
                    let is_nul = match &v {
                        SVal::Int(x) => x.eq_const(0),
                        _ => tt(),
                    };
                    let (v, init) = match limit {
                        // strncpy pads with NULs after the source's end.
                        Some(_) => (SVal::ite(&before, &v, &SVal::Int(nul.clone())), tt()),
                        None => (
                            SVal::ite(&before, &v, &old.v),
                            sym::ite_bool(&before, &tt(), &old.init),
                        ),
                    };
                    before = and2(&before, &not(&is_nul));
                    SCell { v, init }
                }
                None => {
                    // Reading past the source object's end.
                    self.check(&g.clone(), not(&before));
                    match limit {
                        Some(_) => SCell {
                            v: SVal::Int(nul.clone()),
                            init: tt(),
                        },
                        None => SCell {
                            v: old.v.clone(),
                            init: old.init.clone(),
                        },
                    }
                }
            };
            cells.push(cell);
            if limit.is_none() && is_false(&before) {
                break;
            }
        }
        if limit.is_none() {
            // The NUL must be copied inside the destination.
            self.check(&g.clone(), not(&before));
        }
        let lp = self.place_at(obj, off + start);
        self.store_agg(&lp, &cells, g);
        Ok(())
    }

    /// `strcat` onto a destination whose length is computed: cell `i` of
    /// the destination becomes source cell `i - len` when the destination's
    /// string has length `len <= i` and no NUL came before that source cell,
    /// and keeps its value otherwise (an if-then-else over the lengths, so
    /// destinations are limited to [`MAX_STRCAT_ROOM`] cells). The copy must
    /// end inside the destination and read initialized characters.
    fn strcat_onto_computed(
        &mut self,
        (obj, off, dst): (u32, usize, &[SCell]),
        src: &[SCell],
        g: &mut Bool,
    ) -> R<()> {
        let room = dst.len();
        if room > MAX_STRCAT_ROOM {
            return self.unsupported(format!(
                "strcat onto a computed string in an object of more than {MAX_STRCAT_ROOM} characters"
            ));
        }
        let (len, found) = self.strlen_sym(dst);
        self.check(&g.clone(), found);
        let nul = SInt::constant(self.sem, IntKind::Char, 0);
        let chars: Vec<SInt> = src
            .iter()
            .map(|c| match &c.v {
                SVal::Int(x) => x.convert(IntKind::Char),
                _ => nul.clone(),
            })
            .collect();
        // before[j]: no NUL among the source's first j characters.
        let mut before = vec![tt()];
        for (j, c) in chars.iter().enumerate() {
            self.check(&and2(g, &before[j]), src[j].init.clone());
            let next = and2(&before[j], &not(&c.eq_const(0)));
            before.push(next);
        }
        let mut cells = Vec::with_capacity(room);
        for (i, old) in dst.iter().enumerate() {
            let (mut v, mut init) = (old.v.clone(), old.init.clone());
            for k in 0..=i {
                let at = len.eq_const(k as i128);
                let j = i - k;
                if j < chars.len() {
                    let copied = and2(&at, &before[j]);
                    v = SVal::ite(&copied, &SVal::Int(chars[j].clone()), &v);
                    init = sym::ite_bool(&copied, &tt(), &init);
                }
            }
            cells.push(SCell { v, init });
        }
        for k in 0..room {
            // From length k, the NUL must be copied before the end, and
            // found inside the source.
            let end = (room - k).min(chars.len());
            let at = and2(g, &len.eq_const(k as i128));
            self.check(&at, not(&before[end]));
        }
        let lp = self.place_at(obj, off);
        self.store_agg(&lp, &cells, g);
        Ok(())
    }

    /// The place at cell `off` of object `obj`.
    fn place_at(&self, obj: u32, off: usize) -> LPlace {
        LPlace {
            alts: vec![LAlt {
                g: tt(),
                obj,
                off: self.long(off as i128),
                emu: None,
            }],
        }
    }

    /// The strings a pointer may designate: for each target (with its
    /// guard), the cells from the pointer to the end of the object (what a
    /// destination may hold). Targets must have constant offsets; a null or
    /// out-of-range target is excluded by a safety check.
    pub(super) fn string_alts(&mut self, v: &SVal, g: &Bool) -> R<Vec<StringAlt>> {
        self.string_targets(v, g, false)
    }

    /// Like [`Self::string_alts`], for strings that are only read: each
    /// alternative's cells end at its first cell that is NUL whatever the
    /// variables ([`until_nul`]), since nothing reads past it.
    pub(super) fn string_reads(&mut self, v: &SVal, g: &Bool) -> R<Vec<StringAlt>> {
        self.string_targets(v, g, true)
    }

    fn string_targets(&mut self, v: &SVal, g: &Bool, reads: bool) -> R<Vec<StringAlt>> {
        let tail = |this: &Self, obj: u32, k: usize| {
            let cells = &this.objs[obj as usize].cells[k..];
            if reads { until_nul(cells) } else { cells }.to_vec()
        };
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
                        let cells = tail(self, *obj, k as usize);
                        out.push((ga.clone(), *obj, k as usize, cells));
                    }
                    Some(_) => {}
                    // A computed offset (an element of an array of
                    // strings): one alternative per offset it can take, as
                    // its term shows them, else per offset in a small
                    // object, else as the solver enumerates them (an index
                    // scaled by an element's cells: `s[i].name` is `21 * i`).
                    None => {
                        let ks: Vec<usize> = match self.offset_values(off) {
                            Some(ks) => ks
                                .into_iter()
                                .filter_map(|k| usize::try_from(k).ok())
                                .filter(|&k| k < len)
                                .collect(),
                            None if len <= MAX_STRING_OFFSETS => (0..len).collect(),
                            None => match self.string_offsets(off, len) {
                                Some(ks) => ks,
                                None => return self.unsupported(format!(
                                    "string argument at a computed offset into an object of more than {MAX_STRING_OFFSETS} elements, at more than {MAX_STRING_OFFSETS} offsets"
                                )),
                            },
                        };
                        for k in ks {
                            crate::limits::tick();
                            let gk = and2(ga, &off.eq_const(k as i128));
                            if is_false(&gk) {
                                continue;
                            }
                            valid = or2(&valid, &gk);
                            let cells = tail(self, *obj, k);
                            out.push((gk, *obj, k, cells));
                        }
                    }
                }
            }
        }
        self.check(g, valid);
        Ok(out)
    }

    /// The values in `[0, len)` the offset term `off` can take whatever its
    /// variables are (the solver enumerates them; an index scaled by an
    /// element's cells takes only the elements' starts), in increasing
    /// order; `None` when there are more than [`MAX_STRING_OFFSETS`] or the
    /// solver cannot tell within [`OFFSET_EFFORT`].
    fn string_offsets(&self, off: &SInt, len: usize) -> Option<Vec<usize>> {
        let abs = abstract_offset(&off.dynamic());
        let off = &SInt {
            kind: off.kind,
            t: match (&off.t, abs.as_bv(), abs.as_int()) {
                (ITerm::Bv(_), Some(b), _) => ITerm::Bv(b),
                (ITerm::Math(_), _, Some(i)) => ITerm::Math(i),
                _ => return None,
            },
        };
        let solver = z3::Solver::new();
        let mut p = z3::Params::new();
        p.set_u32("rlimit", OFFSET_EFFORT);
        solver.set_params(&p);
        solver.assert(self.in_range(off, 0, len as i128 - 1));
        let mut ks = Vec::new();
        loop {
            crate::limits::tick();
            let r = solver.check();
            crate::limits::note_z3_memory();
            match r {
                z3::SatResult::Unsat => break,
                z3::SatResult::Unknown => return None,
                z3::SatResult::Sat => {}
            }
            let k = solver
                .get_model()
                .and_then(|m| m.eval(&off.dynamic(), true))
                .and_then(|v| numeral_i64(&v))?;
            let k = usize::try_from(k).ok().filter(|&k| k < len)?;
            if ks.len() == MAX_STRING_OFFSETS || ks.contains(&k) {
                return None;
            }
            ks.push(k);
            solver.assert(not(&off.eq_const(k as i128)));
        }
        ks.sort_unstable();
        Some(ks)
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
        let alts = self.string_reads(v, g)?;
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
        for (j, c) in until_nul(cells).iter().enumerate().rev() {
            crate::limits::tick();
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

/// The cells of a string up to its first cell that is NUL whatever the
/// variables (included): no string function reads past it. (A `char` array
/// of a million cells read by `strlen` after `scanf("%s")` made a million
/// if-then-else terms, all overridden by the NUL after the input.)
fn until_nul(cells: &[SCell]) -> &[SCell] {
    let end = cells.iter().position(|c| match &c.v {
        SVal::Int(i) => i.as_const() == Some(0),
        _ => false,
    });
    match end {
        Some(j) => &cells[..=j],
        None => cells,
    }
}

/// The largest haystack × needle a `strstr` of computed strings compares.
const MAX_STRSTR_PAIRS: usize = 1 << 16;

impl<'a, 'b> SymExec<'a, 'b> {
    /// A string's characters as `unsigned char` values (a cell of another
    /// shape, only reachable under a false condition, as 0).
    fn uchars(&self, cells: &[SCell]) -> Vec<SInt> {
        cells
            .iter()
            .map(|c| match &c.v {
                SVal::Int(i) => i.convert(IntKind::UChar),
                _ => SInt::constant(self.sem, IntKind::UChar, 0),
            })
            .collect()
    }

    fn ptr_at(&self, obj: u32, off: usize) -> SPtr {
        SPtr::single(Target::Obj {
            obj,
            off: self.long(off as i128),
        })
    }

    /// `strchr`, `strrchr` over computed characters: a pointer to the first
    /// (last) occurrence of the character before the string's end (the NUL
    /// itself for `'\0'`), or NULL.
    pub(super) fn strchr_builtin(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let v = self.eval(&args[0], g)?;
        let cv = self.eval(&args[1], g)?;
        let c = self.int_of(&cv)?.convert(IntKind::UChar);
        let gg = g.clone();
        let alts = self.string_reads(&v, &gg)?;
        let null = SPtr::single(Target::Null);
        let mut acc = null.clone();
        for (ga, obj, off, cells) in alts.iter().rev() {
            let (_, found) = self.strlen_sym(cells);
            self.check(&and2(&gg, ga), found);
            let x = self.uchars(cells);
            let mut r = null.clone();
            if f == Builtin::Strchr {
                for j in (0..x.len()).rev() {
                    let end = SPtr::ite(&x[j].eq_const(0), &null, &r);
                    r = SPtr::ite(&x[j].eq(&c), &self.ptr_at(*obj, off + j), &end);
                }
            } else {
                let mut alive = tt();
                for (j, xj) in x.iter().enumerate() {
                    let hit = and2(&alive, &xj.eq(&c));
                    r = SPtr::ite(&hit, &self.ptr_at(*obj, off + j), &r);
                    alive = and2(&alive, &not(&xj.eq_const(0)));
                    if is_false(&alive) {
                        break;
                    }
                }
            }
            acc = SPtr::ite(ga, &r, &acc);
        }
        Ok(SVal::Ptr(acc))
    }

    /// `strstr(h, n)` over computed characters: a pointer to the first
    /// position of `h` where `n` occurs, or NULL.
    pub(super) fn strstr_builtin(&mut self, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let hv = self.eval(&args[0], g)?;
        let nv = self.eval(&args[1], g)?;
        let gg = g.clone();
        let hs = self.string_reads(&hv, &gg)?;
        let ns = self.string_reads(&nv, &gg)?;
        let null = SPtr::single(Target::Null);
        let mut acc = null.clone();
        for (gh, obj, off, hcells) in hs.iter().rev() {
            let (_, found) = self.strlen_sym(hcells);
            self.check(&and2(&gg, gh), found);
            let h = self.uchars(hcells);
            let mut per_needle = null.clone();
            for (gn, _, _, ncells) in ns.iter().rev() {
                let (_, found) = self.strlen_sym(ncells);
                self.check(&and2(&gg, gn), found);
                if h.len() * ncells.len() > MAX_STRSTR_PAIRS {
                    return self.unsupported(format!(
                        "strstr of computed strings of more than {MAX_STRSTR_PAIRS} character pairs"
                    ));
                }
                let n = self.uchars(ncells);
                let mut r = null.clone();
                for j in (0..h.len()).rev() {
                    // The needle matches at j: each of its characters up to its NUL.
                    let mut ok = tt();
                    for k in (0..n.len()).rev() {
                        let end = n[k].eq_const(0);
                        let same = match h.get(j + k) {
                            Some(hk) => and2(&hk.eq(&n[k]), &ok),
                            None => ff(),
                        };
                        ok = or2(&end, &same);
                    }
                    let stop = SPtr::ite(&h[j].eq_const(0), &null, &r);
                    r = SPtr::ite(&ok, &self.ptr_at(*obj, off + j), &stop);
                }
                per_needle = SPtr::ite(gn, &r, &per_needle);
            }
            acc = SPtr::ite(gh, &per_needle, &acc);
        }
        Ok(SVal::Ptr(acc))
    }

    /// The cells `n` bytes of `mem*`'s first argument cover (its pointee
    /// type before any conversion to `void *`, as the interpreter counts
    /// them): the element type and the number of elements.
    fn mem_elems(&mut self, arg: &Expr, n: &SVal, g: &Bool) -> R<(Type, u64)> {
        let Some(n) = self.int_of(n)?.as_const() else {
            return self.unsupported("a memory function with a computed size");
        };
        let elem = arg.mem_elem();
        let size = self.prog.size_of(&elem).max(1);
        let n = n as u64;
        if n / size > 1 << 24 {
            // A negative size: more than any object holds.
            self.check(g, ff());
            return Ok((elem, 0));
        }
        if !n.is_multiple_of(size) {
            return self.unsupported(format!(
                "{n} bytes are not a whole number of {} (memory holds typed values, not bytes)",
                self.prog.type_name(&elem)
            ));
        }
        Ok((elem, n / size))
    }

    /// `memcpy`, `memmove`, `memset`, `memcmp` with a constant size, on typed cells.
    pub(super) fn mem_builtin(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let sem = self.sem;
        let d = self.eval(&args[0], g)?;
        let b = self.eval(&args[1], g)?;
        let nv = self.eval(&args[2], g)?;
        let (elem, count) = self.mem_elems(&args[0], &nv, &g.clone())?;
        let gg = g.clone();
        let whole = Type::Array(Box::new(elem.clone()), count);
        let k = self.prog.cells(&whole) as usize;
        match f {
            Builtin::Memcpy | Builtin::Memmove => {
                if k > 0 {
                    let src = self.ptr_place(&b, &whole, &gg)?;
                    let cells = self.read(&src, k, &gg)?;
                    let dst = self.ptr_place(&d, &whole, &gg)?;
                    self.store_agg(&dst, &cells, &gg);
                }
                Ok(d)
            }
            Builtin::Memset => {
                let c = self.int_of(&b)?.convert(IntKind::UChar);
                let mut types = Vec::new();
                self.prog.cell_types(&whole, &mut types);
                let mut cells = Vec::with_capacity(types.len());
                for t in &types {
                    let v = match (t, c.as_const()) {
                        (Type::Int(ik), _) if ik.bits() <= 8 => SVal::Int(c.convert(*ik)),
                        (Type::Int(ik), Some(byte)) => {
                            let mut v: i128 = 0;
                            for _ in 0..(ik.bits() / 8).max(1) {
                                v = (v << 8) | byte;
                            }
                            SVal::Int(SInt::constant(sem, *ik, ik.wrap(v) as i128))
                        }
                        (Type::Float(_) | Type::Ptr(_) | Type::Stream, Some(0)) => SVal::zero(sem, t),
                        _ => {
                            return self.unsupported(format!(
                                "memset of a {} to a computed or nonzero byte (memory holds typed values, not bytes)",
                                self.prog.type_name(t)
                            ))
                        }
                    };
                    cells.push(SCell { v, init: tt() });
                }
                if k > 0 {
                    let dst = self.ptr_place(&d, &whole, &gg)?;
                    self.store_agg(&dst, &cells, &gg);
                }
                Ok(d)
            }
            _ => {
                // memcmp: bytes of character cells.
                if k == 0 {
                    return Ok(SVal::Int(SInt::constant(sem, IntKind::Int, 0)));
                }
                if !matches!(&elem, Type::Int(ik) if ik.bits() <= 8) {
                    return self.unsupported("memcmp of cells other than characters");
                }
                let pa = self.ptr_place(&d, &whole, &gg)?;
                let x = self.read(&pa, k, &gg)?;
                let pb = self.ptr_place(&b, &whole, &gg)?;
                let y = self.read(&pb, k, &gg)?;
                let (x, y) = (self.uchars(&x), self.uchars(&y));
                let mut r = SInt::constant(sem, IntKind::Int, 0);
                for j in (0..k).rev() {
                    let (a, b) = (x[j].convert(IntKind::Int), y[j].convert(IntKind::Int));
                    let diff = match sym::binary(
                        faultline_ir::BinOp::Sub,
                        &faultline_ir::INT,
                        &SVal::Int(a.clone()),
                        &SVal::Int(b.clone()),
                    ) {
                        Ok(Checked {
                            v: SVal::Int(dv), ..
                        }) => dv,
                        _ => return self.unsupported("memcmp"),
                    };
                    r = SInt::ite(&a.eq(&b), &r, &diff);
                }
                Ok(SVal::Int(r))
            }
        }
    }

    /// `strtol`, `strtoul`, `strtod` of a constant string (glibc's
    /// conversion); `*endptr` gets the pointer past what was converted.
    pub(super) fn strto_builtin(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let sem = self.sem;
        let p = self.eval(&args[0], g)?;
        let end = self.eval(&args[1], g)?;
        let base = if f == Builtin::Strtod {
            0
        } else {
            let b = self.eval(&args[2], g)?;
            match self.int_of(&b)?.as_const() {
                Some(b) => b as u32,
                None => return self.unsupported(format!("{} with a computed base", f.name())),
            }
        };
        let gg = g.clone();
        let alts = self.string_reads(&p, &gg)?;
        let mut val: Option<SVal> = None;
        let mut endp = SPtr::single(Target::Null);
        for (ga, obj, off, cells) in alts.iter().rev() {
            let Some(s) = Self::const_string(cells) else {
                return self
                    .unsupported(format!("{} of a string computed by the program", f.name()));
            };
            let (v, used) = match f {
                Builtin::Strtol => {
                    let (v, used, _) = libc::strtol(&s, base);
                    (
                        SVal::Int(SInt::constant(sem, IntKind::Long, v as i128)),
                        used,
                    )
                }
                Builtin::Strtoul => {
                    let (v, used, _) = libc::strtoul(&s, base);
                    (
                        SVal::Int(SInt::constant(sem, IntKind::ULong, v as i128)),
                        used,
                    )
                }
                _ => {
                    let (v, used) = libc::strtod_prefix(&s);
                    (
                        SVal::Float(SFloat {
                            kind: FloatKind::Double,
                            t: sym::fp_const(FloatKind::Double, v),
                        }),
                        used,
                    )
                }
            };
            val = Some(match val {
                None => v,
                Some(prev) => SVal::ite(ga, &v, &prev),
            });
            endp = SPtr::ite(ga, &self.ptr_at(*obj, off + used), &endp);
        }
        let Some(val) = val else {
            return Ok(SVal::zero(sem, &args[0].ty));
        };
        if let SVal::Ptr(e) = &end {
            let non_null = e.truthy();
            if !is_false(&non_null) {
                let ge = and2(&gg, &non_null);
                let ty = Type::ptr_to(faultline_ir::CHAR);
                let lp = self.ptr_place(&end, &ty, &ge)?;
                self.store(
                    &lp,
                    &ty,
                    SCell {
                        v: SVal::Ptr(endp),
                        init: tt(),
                    },
                    &ge,
                );
            }
        }
        Ok(val)
    }

    /// `sscanf` of a string whose characters are constants where it is
    /// called (each string the pointer may designate is scanned with the
    /// glibc-exact scanf); a string of computed characters is not encoded.
    pub(super) fn sscanf_builtin(&mut self, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let p = self.eval(&args[0], g)?;
        let fv = self.eval(&args[1], g)?;
        let (_, _, fcells) = self.string_cells(&fv, g)?;
        let Some(fmt) = Self::const_string(&fcells) else {
            return self.unsupported("sscanf with a computed format");
        };
        let format = self.scan_format(Some(&fmt))?.expect("a format");
        let mut targets = Vec::new();
        for a in &args[2..] {
            let t = self.eval(a, g)?;
            targets.push((t, a.ty.pointee().cloned().unwrap_or(Type::Void)));
        }
        let gg = g.clone();
        let alts = self.string_reads(&p, &gg)?;
        let mut cases = Vec::new();
        for (ga, _, _, cells) in alts {
            let Some(text) = Self::const_string(&cells) else {
                return self.unsupported(
                    "sscanf of a string whose characters are computed (only strings of known characters are scanned)",
                );
            };
            let mut input = libc::Input::new(text);
            let out = libc::scanf::run_format(&format, &mut input);
            cases.push(super::io::ReadCase {
                at: ga,
                end: 0,
                ret: out.ret as i128,
                items: out.items,
                eof: false,
            });
        }
        let ret = self.finish_scan(&cases, &targets, &gg)?;
        Ok(SVal::Int(ret))
    }
}

#[cfg(test)]
mod tests {
    use super::abstract_offset;
    use z3::ast::{Ast, Bool, Dynamic, BV};

    #[test]
    fn an_offset_is_abstracted_once_per_distinct_subterm() {
        // o_{k+1} = if c_k then o_k + 1 else o_k + 2: 40 levels, whose tree
        // has 2^40 leaves. Each distinct subterm is one unit of work.
        let mut o = BV::new_const("i", 64);
        for k in 0..40 {
            let c = Bool::new_const(format!("c{k}"));
            o = c.ite(&(&o + 1u64), &(&o + 2u64));
        }
        let o = Dynamic::from_ast(&o);
        let _scope = crate::limits::enter(&faultline_exec::budget::Budget::unlimited());
        let abs = crate::limits::capped(1_000, || abstract_offset(&o));
        let abs = abs.expect("within 1,000 units of work");
        assert_eq!(abs.get_sort(), o.get_sort());
    }
}
