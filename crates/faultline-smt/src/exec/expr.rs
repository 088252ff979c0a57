//! Expressions: scalar and aggregate values, with their undefined-behaviour checks.

use super::*;

impl<'a, 'b> SymExec<'a, 'b> {
    pub(super) fn eval(&mut self, e: &'a Expr, g: &mut Bool) -> R<SVal> {
        let sem = self.sem;
        match &e.kind {
            ExprKind::FuncAddr(f) => Ok(self.ptr_to(self.funcs[f.index()], 0).v),
            ExprKind::Int(v) => {
                let k = e.ty.int_kind().unwrap_or(IntKind::Int);
                Ok(SVal::Int(SInt::constant(sem, k, k.value(*v))))
            }
            ExprKind::Float(v) => match &e.ty {
                Type::Float(k) => Ok(SVal::Float(SFloat {
                    kind: *k,
                    t: sym::fp_const(*k, *v),
                })),
                _ => self.unsupported("floating constant of a non-floating type"),
            },
            ExprKind::Str(s) => {
                let obj = self.strings[s.index()];
                Ok(self.ptr_to(obj, 0).v)
            }
            ExprKind::Stream(s) => Ok(SVal::Ptr(SPtr::single(Target::Stream(*s)))),
            ExprKind::Load(p) => {
                let lp = self.place(p, g)?;
                self.read_scalar(&lp, &p.ty, g)
            }
            ExprKind::AddrOf(p) => self.address_of(p, g),
            ExprKind::Unary(op, a) => {
                let v = self.eval(a, g)?;
                let c = self.lift(sym::unary(*op, &e.ty, &a.ty, &v))?;
                Ok(self.checked(c, g))
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(a, g)?;
                let y = self.eval(b, g)?;
                let c = self.lift(sym::binary(*op, &e.ty, &x, &y))?;
                Ok(self.checked(c, g))
            }
            ExprKind::Cmp(op, a, b) => {
                let x = self.eval(a, g)?;
                let y = self.eval(b, g)?;
                let c = self.lift(sym::compare(*op, &x, &y))?;
                for s in &c.safe {
                    self.check(&g.clone(), s.clone());
                }
                Ok(c.v.0)
            }
            ExprKind::PtrAdd(p, n) => self.ptr_add(p, n, g),
            ExprKind::PtrDiff(a, b) => self.ptr_diff(a, b, g),
            ExprKind::And(a, b) | ExprKind::Or(a, b) => self.short_circuit(e, a, b, g),
            ExprKind::Cond(c, a, b) => self.conditional(e, c, a, b, g),
            ExprKind::Cast(a) => {
                if e.ty == Type::Void {
                    self.eval_for_effects(a, g)?;
                    return Ok(SVal::Int(SInt::constant(sem, IntKind::Int, 0)));
                }
                let v = self.eval(a, g)?;
                if let Some(t) = e.ty.pointee() {
                    self.type_heap(&v, t)?;
                }
                let c = self.lift(sym::convert(&v, &a.ty, &e.ty))?;
                Ok(self.checked(c, g))
            }
            ExprKind::Assign { place, value, post } => self.assign(place, value, *post, g),
            ExprKind::Old => {
                let Some((lp, ty)) = self.old.last().cloned() else {
                    return self.unsupported("Old outside an assignment");
                };
                self.read_scalar(&lp, &ty, g)
            }
            ExprKind::Call { func, args, site } => {
                let a = self.eval_args(args, *site, g)?;
                let (ret, normal) = self.call(*func, a, g, Some(*site))?;
                *g = normal;
                match ret.and_then(|r| r.into_iter().next()) {
                    Some(c) => {
                        self.check(&g.clone(), c.init.clone());
                        Ok(coerce(c.v, &e.ty, sem))
                    }
                    None => Ok(SVal::Int(SInt::constant(sem, IntKind::Int, 0))),
                }
            }
            ExprKind::Builtin { func, args } => self.builtin(*func, args, &e.ty, g),
            ExprKind::Comma(a, b) => {
                self.eval_for_effects(a, g)?;
                self.eval(b, g)
            }
        }
    }

    /// Evaluates `e` for its effects only (an expression statement, the
    /// operand of a cast to `void` or the left of a comma): the
    /// indeterminate result of a call that fell off the end of its function
    /// is not read when nothing uses it, as in the interpreter.
    pub(super) fn eval_for_effects(&mut self, e: &'a Expr, g: &mut Bool) -> R<()> {
        match &e.kind {
            ExprKind::Call { func, args, site } if e.ty.is_scalar() => {
                let a = self.eval_args(args, *site, g)?;
                let (_, normal) = self.call(*func, a, g, Some(*site))?;
                *g = normal;
                Ok(())
            }
            ExprKind::Cast(a) if e.ty == Type::Void => self.eval_for_effects(a, g),
            ExprKind::Comma(a, b) => {
                self.eval_for_effects(a, g)?;
                self.eval_for_effects(b, g)
            }
            _ if e.ty.is_scalar() || e.ty == Type::Void => self.eval(e, g).map(|_| ()),
            _ => self.eval_agg(e, g).map(|_| ()),
        }
    }

    pub(super) fn checked(&mut self, c: Checked<SVal>, g: &Bool) -> SVal {
        for s in c.safe {
            self.check(g, s);
        }
        c.v
    }

    /// The arguments of call `site`; when its arguments are relaxable
    /// ([`faultline_ir::CallSiteInfo::relax_args`]) and its statement is
    /// relaxed, each arithmetic one is a fresh value, after every argument is
    /// evaluated (the interpreter's `Hooks::argument` replays them there).
    pub(super) fn eval_args(
        &mut self,
        args: &'a [Expr],
        site: faultline_ir::CallSiteId,
        g: &mut Bool,
    ) -> R<Vec<Vec<SCell>>> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            if a.ty.is_scalar() {
                let v = self.eval(a, g)?;
                out.push(vec![SCell { v, init: tt() }]);
            } else {
                out.push(self.eval_agg(a, g)?);
            }
        }
        if self.prog.call_sites[site.index()].relax_args {
            for (i, (a, cells)) in args.iter().zip(&mut out).enumerate() {
                if a.ty.is_arithmetic() {
                    let v = cells[0].v.clone();
                    cells[0].v = self.relax_value(v, &a.ty, g, Some(i as u32))?;
                }
            }
        }
        Ok(out)
    }

    pub(super) fn eval_agg(&mut self, e: &'a Expr, g: &mut Bool) -> R<Vec<SCell>> {
        match &e.kind {
            ExprKind::Load(p) => {
                let lp = self.place(p, g)?;
                let n = self.prog.cells(&p.ty) as usize;
                self.read(&lp, n, g)
            }
            ExprKind::Assign { place, value, .. } => {
                let lp = self.place(place, g)?;
                let cells = self.eval_agg(value, g)?;
                let cells = self.relax_agg(cells, &place.ty, g)?;
                self.store_agg(&lp, &cells, g);
                Ok(cells)
            }
            ExprKind::Call { func, args, site } => {
                let a = self.eval_args(args, *site, g)?;
                let (ret, normal) = self.call(*func, a, g, Some(*site))?;
                *g = normal;
                Ok(ret.unwrap_or_default())
            }
            ExprKind::Cond(c, a, b) => {
                let cv = self.eval(c, g)?.truthy();
                let (ga0, gb0) = (and2(g, &cv), and2(g, &not(&cv)));
                let (mut ga, mut gb) = (ga0.clone(), gb0.clone());
                let x = self.eval_agg(a, &mut ga)?;
                let y = self.eval_agg(b, &mut gb)?;
                // As in `conditional`: the guard stays `g` where both arms go on.
                if !(ga.ast_eq(&ga0) && gb.ast_eq(&gb0)) {
                    *g = or2(&ga, &gb);
                }
                Ok(x.iter()
                    .zip(&y)
                    .map(|(p, q)| SCell {
                        v: SVal::ite(&cv, &p.v, &q.v),
                        init: sym::ite_bool(&cv, &p.init, &q.init),
                    })
                    .collect())
            }
            ExprKind::Comma(a, b) => {
                if a.ty.is_scalar() || a.ty == Type::Void {
                    self.eval(a, g)?;
                } else {
                    self.eval_agg(a, g)?;
                }
                self.eval_agg(b, g)
            }
            _ => self.unsupported("struct-valued expression"),
        }
    }

    pub(super) fn int_of(&self, v: &SVal) -> R<SInt> {
        self.lift(v.as_int().cloned())
    }

    /// `&place`: a pointer to each alternative of the place.
    fn address_of(&mut self, p: &'a Place, g: &mut Bool) -> R<SVal> {
        let lp = self.place(p, g)?;
        if lp.alts.iter().any(|a| a.emu.is_some()) {
            return self.unsupported("the address of an element outside its array");
        }
        Ok(SVal::Ptr(SPtr {
            alts: lp
                .alts
                .into_iter()
                .map(|a| {
                    (
                        a.g,
                        Target::Obj {
                            obj: a.obj,
                            off: a.off,
                        },
                    )
                })
                .collect(),
        }))
    }

    /// `p + n`, checked to stay within (or one past) the object.
    fn ptr_add(&mut self, p: &'a Expr, n: &'a Expr, g: &mut Bool) -> R<SVal> {
        let pv = self.eval(p, g)?;
        let nv = self.eval(n, g)?;
        let ni = self.lift(nv.as_int().cloned())?.convert(IntKind::Long);
        let SVal::Ptr(ptr) = pv else {
            return self.unsupported("pointer arithmetic on a non-pointer");
        };
        let step = p.ty.pointee().map_or(1, |t| self.prog.cells(t).max(1));
        let scaled = self.mul_off(&ni, step);
        let mut alts = Vec::new();
        let mut ok = ff();
        for (ga, t) in ptr.alts {
            match t {
                Target::Null => {
                    ok = or2(&ok, &and2(&ga, &scaled.eq_const(0)));
                    alts.push((ga, Target::Null));
                }
                Target::Obj { obj, off } => {
                    let len = self.objs[obj as usize].cells.len() as i128;
                    let noff = self.add_off(&off, &scaled);
                    let mut inside = self.in_range(&noff, 0, len);
                    if let Some(l) = self.objs[obj as usize]
                        .heap
                        .as_deref()
                        .and_then(|h| h.limit())
                    {
                        inside = and2(&inside, &self.within(&noff, 0, l));
                    }
                    ok = or2(&ok, &and2(&ga, &inside));
                    alts.push((ga, Target::Obj { obj, off: noff }));
                }
                // Arithmetic on a FILE * (C forbids it; the front end types it away).
                Target::Stream(_) => {}
            }
        }
        self.check(&g.clone(), ok);
        Ok(SVal::Ptr(SPtr { alts }))
    }

    /// `p - q` in elements, defined for pointers into one object.
    /// Whether the cells of object `obj` between offsets `f1` and `f2` (the
    /// whole object if one is computed) all have `pointee`'s size, so that a
    /// difference in cells is one in elements.
    fn cells_of_size(&self, obj: u32, f1: &SInt, f2: &SInt, pointee: Option<&Type>) -> bool {
        let Some(t) = pointee.filter(|t| t.is_scalar()) else {
            return true;
        };
        let size = self.prog.size_of(t);
        let cells = &self.objs[obj as usize].cells;
        let range = match (f1.as_const(), f2.as_const()) {
            (Some(x), Some(y)) => {
                let (lo, hi) = (x.min(y).max(0) as usize, x.max(y).max(0) as usize);
                lo.min(cells.len())..hi.min(cells.len())
            }
            _ => 0..cells.len(),
        };
        cells[range].iter().all(|c| {
            let bytes = match &c.v {
                SVal::Int(i) => u64::from(i.kind.bits() / 8),
                SVal::Float(x) => match x.kind {
                    faultline_ir::FloatKind::Float => 4,
                    faultline_ir::FloatKind::Double => 8,
                },
                SVal::Ptr(_) => 8,
            };
            bytes == size
        })
    }

    fn ptr_diff(&mut self, a: &'a Expr, b: &'a Expr, g: &mut Bool) -> R<SVal> {
        let x = self.eval(a, g)?;
        let y = self.eval(b, g)?;
        let (SVal::Ptr(p), SVal::Ptr(q)) = (x, y) else {
            return self.unsupported("pointer difference of non-pointers");
        };
        let step = a.ty.pointee().map_or(1, |t| self.prog.cells(t).max(1)) as i128;
        let mut result = self.long(0);
        let mut ok = ff();
        for (g1, t1) in &p.alts {
            for (g2, t2) in &q.alts {
                if let (Target::Obj { obj: o1, off: f1 }, Target::Obj { obj: o2, off: f2 }) =
                    (t1, t2)
                {
                    if o1 == o2 {
                        let gg = and2(g1, g2);
                        if step == 1 && !self.cells_of_size(*o1, f1, f2, a.ty.pointee()) {
                            // The interpreter counts gcc's bytes there.
                            return self.unsupported(
                                "a difference of pointers across members of different sizes (gcc's bytes are not modelled)",
                            );
                        }
                        let d = self.lift(sym::binary(
                            faultline_ir::BinOp::Sub,
                            &faultline_ir::LONG,
                            &SVal::Int(f1.clone()),
                            &SVal::Int(f2.clone()),
                        ))?;
                        let SVal::Int(d) = d.v else { continue };
                        let q = if step == 1 {
                            d
                        } else {
                            match self
                                .lift(sym::binary(
                                    faultline_ir::BinOp::Div,
                                    &faultline_ir::LONG,
                                    &SVal::Int(d),
                                    &SVal::Int(self.long(step)),
                                ))?
                                .v
                            {
                                SVal::Int(i) => i,
                                _ => continue,
                            }
                        };
                        result = SInt::ite(&gg, &q, &result);
                        ok = or2(&ok, &gg);
                    }
                }
            }
        }
        self.check(&g.clone(), ok);
        Ok(SVal::Int(result))
    }

    /// `a && b`, `a || b`: `b` is evaluated under the guard that it is reached.
    fn short_circuit(&mut self, e: &'a Expr, a: &'a Expr, b: &'a Expr, g: &mut Bool) -> R<SVal> {
        let sem = self.sem;
        let is_and = matches!(e.kind, ExprKind::And(..));
        let x = self.eval(a, g)?;
        let xt = x.truthy();
        let take_b = if is_and { xt.clone() } else { not(&xt) };
        let gb0 = and2(g, &take_b);
        let mut gb = gb0.clone();
        let yt = if is_false(&gb) {
            ff()
        } else {
            let y = self.eval(b, &mut gb)?;
            y.truthy()
        };
        // Paths that skip `b`, plus those that evaluate it and go on: all of
        // `g` when evaluating `b` leaves none (kept as `g` itself, so that a
        // path's guard stays the constant true where `take_b` is a term).
        if !gb.ast_eq(&gb0) {
            *g = or2(&and2(g, &not(&take_b)), &gb);
        }
        let r = if is_and {
            and2(&xt, &yt)
        } else {
            or2(&xt, &yt)
        };
        Ok(SVal::Int(SInt::ite(
            &r,
            &SInt::constant(sem, IntKind::Int, 1),
            &SInt::constant(sem, IntKind::Int, 0),
        )))
    }

    /// `c ? a : b`: each branch under its guard, the value merged.
    fn conditional(
        &mut self,
        e: &'a Expr,
        c: &'a Expr,
        a: &'a Expr,
        b: &'a Expr,
        g: &mut Bool,
    ) -> R<SVal> {
        let sem = self.sem;
        let cv = self.eval(c, g)?.truthy();
        let (ga0, gb0) = (and2(g, &cv), and2(g, &not(&cv)));
        let (mut ga, mut gb) = (ga0.clone(), gb0.clone());
        let x = if is_false(&ga) {
            None
        } else {
            Some(self.eval(a, &mut ga)?)
        };
        let y = if is_false(&gb) {
            None
        } else {
            Some(self.eval(b, &mut gb)?)
        };
        // Both arms go on wherever they are reached: the guard stays `g`.
        if !(ga.ast_eq(&ga0) && gb.ast_eq(&gb0)) {
            *g = or2(&ga, &gb);
        }
        Ok(match (x, y) {
            (Some(x), Some(y)) => SVal::ite(&cv, &x, &y),
            (Some(x), None) => x,
            (None, Some(y)) => y,
            (None, None) => SVal::zero(sem, &e.ty),
        })
    }

    /// `place = value` (relaxable unless the value is the test's input);
    /// yields the stored value, or the old one for `x++`/`x--`.
    fn assign(&mut self, place: &'a Place, value: &'a Expr, post: bool, g: &mut Bool) -> R<SVal> {
        let lp = self.place(place, g)?;
        let old = if post {
            Some(self.read_scalar(&lp, &place.ty, g)?)
        } else {
            None
        };
        self.old.push((lp.clone(), place.ty.clone()));
        let v = self.eval(value, g);
        self.old.pop();
        let v = v?;
        let v = if is_input(value) {
            v
        } else {
            self.relax_scalar(v, &place.ty, g)?
        };
        self.store(
            &lp,
            &place.ty,
            SCell {
                v: v.clone(),
                init: tt(),
            },
            g,
        );
        Ok(old.unwrap_or(v))
    }
}
