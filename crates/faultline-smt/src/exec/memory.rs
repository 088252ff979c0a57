//! Memory and places: objects and their cells, lvalues as guarded
//! alternatives, reads (including gcc's layout of globals just outside an
//! array), stores and initialization.

use super::heap::{signed_numeral, term_values};
use super::*;

/// The most values of a computed offset enumerated from its term
/// ([`SymExec::offset_values`]); beyond, every cell is a candidate.
const MAX_OFFSET_VALUES: usize = 64;

/// The most guards whose facts ([`crate::guards::facts`]) are kept for
/// reads to come: a loop body's reads alternate between a few guards.
const FACTS_KEPT: usize = 8;

/// The most term nodes visited to enumerate an offset's values.
const MAX_OFFSET_NODES: usize = 300;

impl<'a, 'b> SymExec<'a, 'b> {
    pub(super) fn ptr_to(&self, obj: u32, off: i128) -> SCell {
        SCell {
            v: SVal::Ptr(SPtr::single(Target::Obj {
                obj,
                off: SInt::constant(self.sem, IntKind::Long, off),
            })),
            init: tt(),
        }
    }

    pub(super) fn alloc(&mut self, cells: Vec<SCell>, readonly: bool) -> u32 {
        self.objs.push(SObj {
            cells,
            live: true,
            alive: tt(),
            readonly,
            heap: None,
        });
        (self.objs.len() - 1) as u32
    }

    /// The cells of an object of type `ty`, each zero, initialized or not.
    /// Each cell type's zero is made once and shared (an array of a million
    /// `char` made a million Z3 constants, a second of a focused check).
    pub(super) fn zero_cells(&self, ty: &Type, init: bool) -> Vec<SCell> {
        let mut types = Vec::new();
        self.prog.cell_types(ty, &mut types);
        let init = Bool::from_bool(init);
        let mut zeros: Vec<(&Type, SVal)> = Vec::new();
        types
            .iter()
            .map(|t| {
                let v = match zeros.iter().find(|(z, _)| *z == t) {
                    Some((_, v)) => v.clone(),
                    None => {
                        let v = SVal::zero(self.sem, t);
                        zeros.push((t, v.clone()));
                        v
                    }
                };
                SCell {
                    v,
                    init: init.clone(),
                }
            })
            .collect()
    }

    pub(super) fn init_memory(&mut self) -> R<()> {
        let prog = self.prog;
        for s in &prog.strings {
            let cells = s
                .iter()
                .chain(std::iter::once(&0u8))
                .map(|&b| SCell {
                    v: SVal::Int(SInt::constant(self.sem, IntKind::Char, b as i8 as i128)),
                    init: tt(),
                })
                .collect();
            let id = self.alloc(cells, true);
            self.strings.push(id);
        }
        for _ in &prog.functions {
            let id = self.alloc(Vec::new(), true);
            self.funcs.push(id);
        }
        for g in &prog.globals {
            let cells = self.zero_cells(&g.ty, true);
            let id = self.alloc(cells, false);
            self.globals.push(id);
        }
        // Written initializers are statements (relaxable), before `main`.
        for (i, g) in prog.globals.iter().enumerate() {
            let obj = self.globals[i];
            let mut guard = tt();
            if let Some(id) = g.init_stmt {
                self.begin(id);
            }
            let mut r = Ok(());
            for item in &g.init.items {
                r = self.init_item(obj, item.cell, &item.value, &mut guard);
                if r.is_err() {
                    break;
                }
            }
            if g.init_stmt.is_some() {
                self.end();
            }
            r?;
        }
        Ok(())
    }

    pub(super) fn init_item(
        &mut self,
        obj: u32,
        cell: u64,
        value: &'a Expr,
        g: &mut Bool,
    ) -> R<()> {
        let lp = LPlace {
            alts: vec![LAlt {
                g: tt(),
                obj,
                off: SInt::constant(self.sem, IntKind::Long, cell as i128),
                emu: None,
            }],
        };
        if value.ty.is_scalar() {
            let v = self.eval(value, g)?;
            let v = if is_input(value) {
                v
            } else {
                self.relax_scalar(v, &value.ty, g)?
            };
            self.store(&lp, &value.ty, SCell { v, init: tt() }, g);
        } else {
            let cells = self.eval_agg(value, g)?;
            let cells = self.relax_agg(cells, &value.ty, g)?;
            self.store_agg(&lp, &cells, g);
        }
        Ok(())
    }

    pub(super) fn var_obj(&self, v: Var) -> u32 {
        match v {
            Var::Global(g) => self.globals[g.index()],
            Var::Local(l) => self.frames.last().expect("frame").locals[l.index()],
        }
    }

    pub(super) fn long(&self, v: i128) -> SInt {
        SInt::constant(self.sem, IntKind::Long, v)
    }

    pub(super) fn add_off(&self, a: &SInt, b: &SInt) -> SInt {
        match (a.as_const(), b.as_const()) {
            (Some(x), Some(y)) => self.long(x + y),
            _ => sym::binary(
                faultline_ir::BinOp::Add,
                &faultline_ir::LONG,
                &SVal::Int(a.clone()),
                &SVal::Int(b.clone()),
            )
            .ok()
            .and_then(|c| match c.v {
                SVal::Int(i) => Some(i),
                _ => None,
            })
            .expect("long addition"),
        }
    }

    pub(super) fn mul_off(&self, a: &SInt, n: u64) -> SInt {
        if n == 1 {
            return a.clone();
        }
        match a.as_const() {
            Some(x) => self.long(x * n as i128),
            None => sym::scaled(&a.convert(IntKind::Long), n as i128),
        }
    }

    pub(super) fn in_range(&self, off: &SInt, lo: i128, hi: i128) -> Bool {
        match off.as_const() {
            Some(x) => Bool::from_bool(x >= lo && x <= hi),
            None => {
                let (ge, le) = (
                    sym::compare(
                        faultline_ir::CmpOp::Ge,
                        &SVal::Int(off.clone()),
                        &SVal::Int(self.long(lo)),
                    ),
                    sym::compare(
                        faultline_ir::CmpOp::Le,
                        &SVal::Int(off.clone()),
                        &SVal::Int(self.long(hi)),
                    ),
                );
                match (ge, le) {
                    (Ok(a), Ok(b)) => and2(&a.v.1, &b.v.1),
                    _ => ff(),
                }
            }
        }
    }

    pub(super) fn place(&mut self, p: &'a Place, g: &mut Bool) -> R<LPlace> {
        if self.has_unions && self.touches_union(p) {
            return self.unsupported(
                "a union (its members overlap in memory, which the encoder does not model)",
            );
        }
        match &p.kind {
            PlaceKind::Var(v) => Ok(LPlace {
                alts: vec![LAlt {
                    g: tt(),
                    obj: self.var_obj(*v),
                    off: self.long(0),
                    emu: None,
                }],
            }),
            PlaceKind::Index(base, idx) => {
                let b = self.place(base, g)?;
                let i = self.eval(idx, g)?;
                let i = self.lift(i.as_int().cloned())?.convert(IntKind::Long);
                let (elem, n) = match &base.ty {
                    Type::Array(e, n) => (e, *n),
                    _ => return self.unsupported("indexing a non-array"),
                };
                let esize = self.prog.size_of(elem) as i128;
                // An index outside a global array, taking one of a few known
                // values: those reads resolve as gcc lays out globals (other
                // values, a relaxed statement's, stay inside the array).
                if let ([a], Some(values)) = (b.alts.as_slice(), i.known_leaves(16)) {
                    let base_addr = a.emu.or_else(|| self.global_cell_addr(a));
                    let outside: Vec<i128> = values
                        .iter()
                        .copied()
                        .filter(|k| a.emu.is_some() || *k < 0 || *k >= n as i128)
                        .collect();
                    if let (Some(base), false) = (base_addr, outside.is_empty()) {
                        let mut alts = Vec::new();
                        let mut ok = ff();
                        for k in &outside {
                            let at = and2(&a.g, &i.eq_const(*k));
                            ok = or2(&ok, &at);
                            alts.push(LAlt {
                                g: at,
                                obj: a.obj,
                                off: a.off.clone(),
                                emu: Some((base as i128 + k * esize) as u64),
                            });
                        }
                        if a.emu.is_none() {
                            let inside = self.in_range(&i, 0, n as i128 - 1);
                            if !is_false(&inside) {
                                let scaled = self.mul_off(&i, self.prog.cells(elem));
                                ok = or2(&ok, &inside);
                                alts.push(LAlt {
                                    g: and2(&a.g, &inside),
                                    obj: a.obj,
                                    off: self.add_off(&a.off, &scaled),
                                    emu: None,
                                });
                            }
                        }
                        self.check(&g.clone(), ok);
                        return Ok(LPlace { alts });
                    }
                }
                let ok = self.in_range(&i, 0, n as i128 - 1);
                self.check(&g.clone(), ok);
                let scaled = self.mul_off(&i, self.prog.cells(elem));
                Ok(LPlace {
                    alts: b
                        .alts
                        .into_iter()
                        .map(|a| LAlt {
                            off: self.add_off(&a.off, &scaled),
                            ..a
                        })
                        .collect(),
                })
            }
            PlaceKind::Field(base, n) => {
                let b = self.place(base, g)?;
                let Type::Struct(s) = &base.ty else {
                    return self.unsupported("member of a non-struct");
                };
                let f = &self.prog.struct_def(*s).fields[*n as usize];
                let d = self.long(f.cell_offset as i128);
                let bytes = f.byte_offset;
                Ok(LPlace {
                    alts: b
                        .alts
                        .into_iter()
                        .map(|a| LAlt {
                            off: self.add_off(&a.off, &d),
                            emu: a.emu.map(|addr| addr + bytes),
                            ..a
                        })
                        .collect(),
                })
            }
            PlaceKind::Deref(e) => {
                let v = self.eval(e, g)?;
                let SVal::Ptr(ptr) = v else {
                    return self.unsupported("dereference of a non-pointer");
                };
                let n = self.prog.cells(&p.ty).max(1) as i128;
                let mut alts = Vec::new();
                let mut valid = ff();
                for (ga, t) in ptr.alts {
                    match t {
                        Target::Null | Target::Stream(_) => {}
                        Target::Obj { obj, off } => {
                            if !self.objs[obj as usize].live {
                                continue;
                            }
                            let ok = self.access_ok(obj, &off, n);
                            valid = or2(&valid, &and2(&ga, &ok));
                            alts.push(LAlt {
                                g: ga,
                                obj,
                                off,
                                emu: None,
                            });
                        }
                    }
                }
                self.check(&g.clone(), valid);
                Ok(LPlace { alts })
            }
        }
    }

    /// Whether place `p` is, contains or is a member of a union.
    fn touches_union(&self, p: &Place) -> bool {
        self.prog.has_union(&p.ty)
            || matches!(&p.kind, PlaceKind::Field(base, _)
                if matches!(base.ty, Type::Struct(s) if self.prog.struct_def(s).union))
    }

    /// The cells of `obj` that offset `off` may denote for an access of `n`
    /// cells. With `read`, where every offset is a candidate, runs of equal cells
    /// are one candidate each ([`Self::runs_of_equal_cells`]; a store must
    /// name its cell).
    pub(super) fn candidates(
        &self,
        obj: u32,
        off: &SInt,
        n: usize,
        read: bool,
    ) -> Vec<(usize, Bool)> {
        let len = self.objs[obj as usize].cells.len();
        if len < n {
            return Vec::new();
        }
        match off.as_const() {
            Some(k) if k >= 0 && (k as usize) + n <= len => vec![(k as usize, tt())],
            Some(_) => Vec::new(),
            None => match self.offset_values(off) {
                // The offsets the term can take: an index that is one of
                // a few values (the iterations of a loop whose condition
                // is relaxed) reads a few cells, not the whole object.
                Some(ks) => ks
                    .into_iter()
                    .filter_map(|k| usize::try_from(k).ok())
                    .filter(|&k| k + n <= len)
                    .map(|k| (k, off.eq_const(k as i128)))
                    .collect(),
                None if read => self.runs_of_equal_cells(obj, off, n),
                None => self.every_offset(off, len, n),
            },
        }
    }

    /// The values a computed offset can take as far as its term's structure
    /// shows (`term_values`: numerals, the arms of if-then-elses and the
    /// operations on them, no relaxed or other free value inside), in
    /// increasing order; `None` when unknown or more than
    /// [`MAX_OFFSET_VALUES`].
    pub(super) fn offset_values(&self, off: &SInt) -> Option<Vec<i64>> {
        let mut budget = MAX_OFFSET_NODES;
        let (values, partial) = term_values(
            &off.dynamic(),
            MAX_OFFSET_VALUES,
            &mut budget,
            &self.relaxed_vars,
            &mut self.term_values.borrow_mut(),
        )?;
        if partial {
            return None;
        }
        let mut ks: Vec<i64> = values.iter().map(signed_numeral).collect::<Option<_>>()?;
        ks.sort_unstable();
        ks.dedup();
        Some(ks)
    }

    /// Where every offset of `obj` is a candidate of a read of `n` cells:
    /// consecutive offsets whose `n` cells hold the same terms are one
    /// candidate (the first of them) under the condition that `off` is in
    /// their range. A read at a free index of a 2000-`char` buffer holding a
    /// 10-character string and zeros is 12 alternatives, not 2000.
    fn runs_of_equal_cells(&self, obj: u32, off: &SInt, n: usize) -> Vec<(usize, Bool)> {
        let cells = &self.objs[obj as usize].cells;
        let len = cells.len();
        let keys: Vec<Option<(usize, usize)>> = cells.iter().map(cell_key).collect();
        let same = |a: usize, b: usize| {
            (0..n).all(|i| keys[a + i].is_some() && keys[a + i] == keys[b + i])
        };
        let mut out = Vec::new();
        let mut lo = 0;
        while lo + n <= len {
            crate::limits::tick();
            let mut hi = lo;
            while hi + 1 + n <= len && same(lo, hi + 1) {
                hi += 1;
            }
            let cond = if lo == hi {
                off.eq_const(lo as i128)
            } else {
                self.in_range(off, lo as i128, hi as i128)
            };
            out.push((lo, cond));
            lo = hi + 1;
        }
        out
    }

    /// Every offset of an object of `len` cells where `n` cells fit, each
    /// with the condition that `off` is it.
    fn every_offset(&self, off: &SInt, len: usize, n: usize) -> Vec<(usize, Bool)> {
        (0..=len - n)
            .map(|j| {
                crate::limits::tick();
                (j, off.eq_const(j as i128))
            })
            .collect()
    }

    /// The address in gcc's layout of a place's cell, if the object is a global
    /// and the offset constant.
    pub(super) fn global_cell_addr(&self, a: &LAlt) -> Option<u64> {
        let g = self.globals.iter().position(|&o| o == a.obj)?;
        let off = a.off.as_const()?;
        self.layout.cell_addr(g, usize::try_from(off).ok()?)
    }

    /// Reads a scalar just outside a global array, as gcc's binary would.
    pub(super) fn read_emulated(&mut self, addr: u64, ty: &Type, g: &Bool) -> R<SCell> {
        let size = self.prog.size_of(ty);
        match self.layout.resolve(addr, size) {
            Resolved::Cell { global, cell } => {
                let obj = self.globals[global];
                Ok(self.objs[obj as usize].cells[cell].clone())
            }
            Resolved::Zero => Ok(SCell {
                v: SVal::zero(self.sem, ty),
                init: tt(),
            }),
            Resolved::Unmapped => {
                self.check(g, ff());
                Ok(SCell {
                    v: SVal::zero(self.sem, ty),
                    init: tt(),
                })
            }
            Resolved::Bytes => self.unsupported("an out-of-bounds read straddling several globals"),
        }
    }

    /// Reads `n` consecutive cells.
    pub(super) fn read(&mut self, lp: &LPlace, n: usize, g: &Bool) -> R<Vec<SCell>> {
        let mut acc: Option<Vec<SCell>> = None;
        for alt in &lp.alts {
            if let Some(addr) = alt.emu {
                if n != 1 {
                    return self.unsupported("an out-of-bounds read of a struct");
                }
                let ty = self.emu_ty.clone().unwrap_or(faultline_ir::INT);
                let gg = and2(g, &alt.g);
                let c = self.read_emulated(addr, &ty, &gg)?;
                acc = Some(match acc {
                    None => vec![c],
                    Some(prev) => vec![SCell {
                        v: SVal::ite(&alt.g, &c.v, &prev[0].v),
                        init: sym::ite_bool(&alt.g, &c.init, &prev[0].init),
                    }],
                });
                continue;
            }
            for (j, at) in self.candidates(alt.obj, &alt.off, n, true) {
                crate::limits::tick();
                let cond = and2(&alt.g, &at);
                let mut cells: Vec<SCell> = self.objs[alt.obj as usize].cells[j..j + n].to_vec();
                // A computed offset may denote cells of other types (where it
                // cannot actually point): give every candidate the read's type.
                if let (1, Some(ty)) = (n, &self.emu_ty) {
                    cells[0].v = coerce(cells[0].v.clone(), ty, self.sem);
                }
                acc = Some(match acc {
                    None => cells,
                    Some(prev) => cells
                        .iter()
                        .zip(&prev)
                        .map(|(c, p)| SCell {
                            v: SVal::ite(&cond, &c.v, &p.v),
                            init: sym::ite_bool(&cond, &c.init, &p.init),
                        })
                        .collect(),
                });
            }
        }
        match acc {
            Some(cells) => Ok(self.under(g, cells)),
            None => {
                // No valid cell: the access is undefined; the check already excludes it.
                self.check(g, ff());
                Ok((0..n)
                    .map(|_| SCell {
                        v: SVal::Int(SInt::constant(self.sem, IntKind::Int, 0)),
                        init: tt(),
                    })
                    .collect())
            }
        }
    }

    /// `cells` read under `g`, simplified by what `g` says
    /// ([`crate::guards`]): they are used only where `g` holds.
    fn under(&mut self, g: &Bool, cells: Vec<SCell>) -> Vec<SCell> {
        if g.as_bool().is_some() || cells.iter().all(|c| c.v.as_const_term()) {
            return cells;
        }
        let cache = &mut self.facts;
        let mut facts = || {
            let id = crate::lift::ast_id(&z3::ast::Dynamic::from_ast(g));
            if let Some(k) = cache.iter().position(|(k, _)| *k == id) {
                return cache[k].1.clone();
            }
            let f = std::rc::Rc::new(crate::guards::facts(g));
            if cache.len() == FACTS_KEPT {
                cache.remove(0);
            }
            cache.push((id, f.clone()));
            f
        };
        cells
            .into_iter()
            .map(|c| SCell {
                v: c.v.map_terms(&mut |t| crate::guards::under(&mut facts, t)),
                init: crate::guards::under_bool(&mut facts, &c.init),
            })
            .collect()
    }

    pub(super) fn read_scalar(&mut self, lp: &LPlace, ty: &Type, g: &Bool) -> R<SVal> {
        self.emu_ty = Some(ty.clone());
        let cells = self.read(lp, 1, g);
        self.emu_ty = None;
        let cells = cells?;
        let c = cells.into_iter().next().expect("one cell");
        self.check(g, c.init.clone());
        Ok(coerce(c.v, ty, self.sem))
    }

    pub(super) fn store(&mut self, lp: &LPlace, ty: &Type, cell: SCell, g: &Bool) {
        let _ = ty;
        self.store_agg(lp, &[cell], g);
    }

    pub(super) fn store_agg(&mut self, lp: &LPlace, cells: &[SCell], g: &Bool) {
        let n = cells.len();
        for alt in &lp.alts {
            if alt.emu.is_some() {
                // Writing outside an array: undefined behaviour.
                self.check(&and2(g, &alt.g), ff());
                continue;
            }
            if self.objs[alt.obj as usize].readonly {
                self.check(&and2(g, &alt.g), ff());
                continue;
            }
            for (j, at) in self.candidates(alt.obj, &alt.off, n, false) {
                crate::limits::tick();
                let cond = and2(&and2(g, &alt.g), &at);
                if is_false(&cond) {
                    continue;
                }
                let obj = &mut self.objs[alt.obj as usize];
                for (i, c) in cells.iter().enumerate() {
                    let old = &obj.cells[j + i];
                    obj.cells[j + i] = SCell {
                        v: SVal::ite(&cond, &c.v, &old.v),
                        init: sym::ite_bool(&cond, &c.init, &old.init),
                    };
                }
            }
        }
    }

    pub(super) fn relax_agg(&mut self, cells: Vec<SCell>, ty: &Type, g: &Bool) -> R<Vec<SCell>> {
        let mut types = Vec::new();
        self.prog.cell_types(ty, &mut types);
        let mut out = Vec::with_capacity(cells.len());
        for (c, t) in cells.into_iter().zip(types) {
            let v = self.relax_scalar(c.v, &t, g)?;
            out.push(SCell { v, init: c.init });
        }
        Ok(out)
    }

    pub(super) fn ptr_place(&mut self, ptr: &SVal, pointee: &Type, g: &Bool) -> R<LPlace> {
        let SVal::Ptr(p) = ptr else {
            return self.unsupported("scanf target is not a pointer");
        };
        let n = self.prog.cells(pointee).max(1) as i128;
        let mut alts = Vec::new();
        let mut valid = ff();
        for (ga, t) in &p.alts {
            if let Target::Obj { obj, off } = t {
                if !self.objs[*obj as usize].live {
                    continue;
                }
                valid = or2(&valid, &and2(ga, &self.access_ok(*obj, off, n)));
                alts.push(LAlt {
                    g: ga.clone(),
                    obj: *obj,
                    off: off.clone(),
                    emu: None,
                });
            }
        }
        self.check(g, valid);
        Ok(LPlace { alts })
    }
}

/// A cell's identity as terms (the addresses of its value's and its
/// initialization's terms, which Z3 shares between equal terms), `None` for
/// a pointer (never grouped with another cell).
fn cell_key(c: &SCell) -> Option<(usize, usize)> {
    use z3::ast::Ast;
    let v = match &c.v {
        SVal::Int(SInt {
            t: sym::ITerm::Bv(b),
            ..
        }) => b.get_z3_ast(),
        SVal::Int(SInt {
            t: sym::ITerm::Math(i),
            ..
        }) => i.get_z3_ast(),
        SVal::Float(f) => f.t.get_z3_ast(),
        SVal::Ptr(_) => return None,
    };
    Some((v.as_ptr() as usize, c.init.get_z3_ast().as_ptr() as usize))
}
