//! Calls: inlined calls of the program's functions, and the library functions
//! (builtins) other than input and output.

use super::*;

/// `pow(x, 2)` of a computed `x`: a fresh double equal to `x * x` or one
/// of its two neighbours (glibc's `pow` is within 0.52 ulp of the exact
/// square, `x * x` within 0.5 ulp), with the constraint saying so.
fn near_square(x: &z3::ast::Float, name: &str) -> (z3::ast::Float, Bool) {
    let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
    let m = x.mul_with_rounding_mode(x, &rne);
    let r = z3::ast::Float::fresh_const_double(name);
    let (bm, br) = (m.to_ieee_bv(), r.to_ieee_bv());
    let one = z3::ast::BV::from_u64(1, 64);
    let zero = sym::fp_const(FloatKind::Double, 0.0);
    let inf = sym::fp_const(FloatKind::Double, f64::INFINITY);
    let positive = zero.lt(&m);
    let finite = m.lt(&inf);
    let near = Bool::or(&[
        &r.eq(&m),
        &Bool::and(&[&positive, &finite, &br.eq(bm.bvadd(&one))]),
        &Bool::and(&[&positive, &br.eq(bm.bvsub(&one))]),
    ]);
    (r, near)
}

impl<'a, 'b> SymExec<'a, 'b> {
    /// `pow`: on each combination of values its arguments can take (the
    /// leaves of their if-then-else terms), as the interpreter computes it;
    /// `pow(x, 2)` of a computed `x` is `x * x` or a neighbouring double
    /// (glibc's `pow` is within 0.52 ulp of x², `x * x` within 0.5); of other
    /// computed arguments the result is unconstrained (a note says so).
    fn pow_builtin(&mut self, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let x = self.eval(&args[0], g)?;
        let y = self.eval(&args[1], g)?;
        let (SVal::Float(a), SVal::Float(b)) = (&x, &y) else {
            return self.unsupported("pow of non-floating values");
        };
        let kind = FloatKind::Double;
        let mut hard = Vec::new();
        let mut free = false;
        let t = crate::lift::map_leaves(
            &[
                z3::ast::Dynamic::from_ast(&a.t),
                z3::ast::Dynamic::from_ast(&b.t),
            ],
            &mut |leaves| {
                let (Some(xa), Some(yb)) = (leaves[0].as_float(), leaves[1].as_float()) else {
                    unreachable!("floating arguments")
                };
                let known = |t: &z3::ast::Dynamic| crate::lift::is_value(t);
                let r = match (known(&leaves[0]), known(&leaves[1])) {
                    (true, true) => sym::fp_const(kind, xa.as_f64().powf(yb.as_f64())),
                    (_, true) if yb.as_f64() == 2.0 => {
                        let (r, near) = near_square(&xa, &self.name("pow"));
                        hard.push(near);
                        r
                    }
                    _ => {
                        free = true;
                        z3::ast::Float::fresh_const_double(&self.name("pow"))
                    }
                };
                z3::ast::Dynamic::from_ast(&r)
            },
        );
        for h in hard {
            self.hard(h);
        }
        if free {
            let note = "pow of computed values is unconstrained where its arguments are not values the program computes from its input (pow(x, 2) aside)".to_string();
            if !self.out.notes.contains(&note) {
                self.out.notes.push(note);
            }
        }
        Ok(SVal::Float(SFloat {
            kind,
            t: t.as_float().expect("a double"),
        }))
    }

    /// `strcmp`, `strncmp` (with a constant length), over every pair of
    /// strings the arguments may designate.
    fn strcmp_builtin(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let a = self.eval(&args[0], g)?;
        let b = self.eval(&args[1], g)?;
        let limit = if f == Builtin::Strncmp {
            let n = self.eval(&args[2], g)?;
            match self.int_of(&n)?.as_const() {
                Some(n) => Some(n as usize),
                None => return self.unsupported("strncmp with a computed length"),
            }
        } else {
            None
        };
        let b_alts = self.string_reads(&b, g)?;
        self.per_string(&a, g, |this, ca| {
            let mut acc: Option<SInt> = None;
            for (gb, _, _, cb) in b_alts.iter().rev() {
                let x = this.strcmp_sym(ca, cb, limit);
                acc = Some(match acc {
                    None => x,
                    Some(prev) => SInt::ite(gb, &x, &prev),
                });
            }
            Ok(SVal::Int(acc.unwrap_or_else(|| {
                SInt::constant(this.sem, IntKind::Int, 0)
            })))
        })
    }

    /// Inlines a call under guard `g`; returns the result cells and the guard
    /// under which the call returns normally.
    pub(super) fn call(
        &mut self,
        fid: FuncId,
        args: Vec<Vec<SCell>>,
        g: &Bool,
        site: Option<faultline_ir::CallSiteId>,
    ) -> R<(Option<Vec<SCell>>, Bool)> {
        let prog = self.prog;
        let f = prog.func(fid);
        let depth = self.frames.iter().filter(|fr| fr.func == fid).count() as u32;
        let limit = *self
            .bounds
            .depth
            .get(&fid)
            .unwrap_or(&self.bounds.default_depth);
        if depth >= limit.max(1) {
            // Recursion bound: this call is assumed not to happen.
            self.hard(not(g));
            let note = format!(
                "recursion of '{}' is unfolded to depth {}",
                f.name,
                limit.max(1)
            );
            if !self.out.notes.contains(&note) {
                self.out.notes.push(note);
            }
            let ret = if f.ret == Type::Void {
                None
            } else {
                Some(self.zero_cells(&f.ret, true))
            };
            return Ok((ret, ff()));
        }
        let ctx = match site {
            Some(s) => self.contexts.enter(self.ctx(), Scope::Call(s)),
            None => CtxId::ROOT,
        };
        let mut locals = Vec::with_capacity(f.locals.len());
        for l in &f.locals {
            let cells = self.zero_cells(&l.ty, false);
            locals.push(self.alloc(cells, false));
        }
        for (p, a) in f.params.iter().zip(args) {
            let obj = locals[p.index()];
            for (c, v) in self.objs[obj as usize].cells.iter_mut().zip(a) {
                *c = v;
            }
        }
        self.frames.push(Frame {
            func: fid,
            locals,
            ctx,
            ret_guard: ff(),
            ret: None,
            allocas: Vec::new(),
        });
        let saved_stmts = std::mem::take(&mut self.stmts);
        let saved_loops = std::mem::take(&mut self.loops);
        let saved_old = std::mem::take(&mut self.old);
        let saved_blocks = std::mem::take(&mut self.blocks);
        let saved_labels = std::mem::take(&mut self.labels);
        let r = self.exec_block(&f.body, g.clone());
        self.stmts = saved_stmts;
        self.loops = saved_loops;
        self.old = saved_old;
        self.blocks = saved_blocks;
        self.labels = saved_labels;
        let frame = self.frames.pop().expect("pushed");
        for obj in &frame.locals {
            self.objs[*obj as usize].live = false;
        }
        self.release_allocas(&frame.allocas);
        let fell = r?;
        let normal = or2(&frame.ret_guard, &fell);
        let ret = if f.ret == Type::Void {
            None
        } else {
            match frame.ret {
                Some(cells) if is_false(&fell) => Some(cells),
                Some(cells) => {
                    // Falling off the end of a non-void function: the value is indeterminate.
                    let undef: Vec<SCell> = self.zero_cells(&f.ret, false);
                    Some(
                        cells
                            .iter()
                            .zip(&undef)
                            .map(|(c, u)| SCell {
                                v: SVal::ite(&fell, &u.v, &c.v),
                                init: sym::ite_bool(&fell, &u.init, &c.init),
                            })
                            .collect(),
                    )
                }
                None => Some(self.zero_cells(&f.ret, false)),
            }
        };
        Ok((ret, normal))
    }

    pub(super) fn builtin(
        &mut self,
        f: Builtin,
        args: &'a [Expr],
        ty: &Type,
        g: &mut Bool,
    ) -> R<SVal> {
        let sem = self.sem;
        let int = |v: i128| SVal::Int(SInt::constant(sem, IntKind::Int, v));
        match f {
            Builtin::Printf | Builtin::Fprintf | Builtin::Puts | Builtin::Putchar => {
                self.output_builtin(f, args, g)
            }
            Builtin::Scanf | Builtin::Getchar => self.input_builtin(f, args, g),
            Builtin::Atoi | Builtin::Atol | Builtin::Atof => {
                let v = self.eval(&args[0], g)?;
                self.per_string(&v, g, |this, cells| {
                    let Some(s) = Self::const_string(cells) else {
                        return this.unsupported(format!(
                            "{} of a string computed by the program",
                            f.name()
                        ));
                    };
                    Ok(match f {
                        Builtin::Atoi => int(libc::atoi(&s) as i128),
                        Builtin::Atol => {
                            SVal::Int(SInt::constant(sem, IntKind::Long, libc::atol(&s) as i128))
                        }
                        _ => SVal::Float(SFloat {
                            kind: FloatKind::Double,
                            t: sym::fp_const(FloatKind::Double, libc::atof(&s)),
                        }),
                    })
                })
            }
            Builtin::Exit => {
                let v = self.eval(&args[0], g)?;
                let v = self.relax_scalar(v, &args[0].ty, g)?;
                let s = self.int_of(&v)?.convert(IntKind::Int);
                self.status = SInt::ite(g, &s, &self.status.clone());
                *g = ff();
                Ok(int(0))
            }
            Builtin::Abs | Builtin::Labs => {
                let v = self.eval(&args[0], g)?;
                let x = self.int_of(&v)?;
                let neg = self.lift(sym::unary(faultline_ir::UnOp::Neg, ty, ty, &v))?;
                let nv = self.checked_if(neg, g, &x)?;
                let is_neg = self
                    .lift(sym::compare(
                        faultline_ir::CmpOp::Lt,
                        &v,
                        &SVal::Int(SInt::constant(sem, x.kind, 0)),
                    ))?
                    .v
                    .1;
                Ok(SVal::ite(&is_neg, &nv, &v))
            }
            Builtin::Fabs | Builtin::Sqrt | Builtin::Floor | Builtin::Ceil => {
                let v = self.eval(&args[0], g)?;
                let SVal::Float(x) = v else {
                    return self.unsupported("math function of a non-floating value");
                };
                let t = match f {
                    Builtin::Fabs => sym::fp_abs(&x.t),
                    Builtin::Sqrt => x.t.sqrt(),
                    Builtin::Floor => x.t.round_to_integral_with_rounding_mode(
                        &z3::ast::RoundingMode::round_towards_negative(),
                    ),
                    _ => x.t.round_to_integral_with_rounding_mode(
                        &z3::ast::RoundingMode::round_towards_positive(),
                    ),
                };
                Ok(SVal::Float(SFloat { kind: x.kind, t }))
            }
            Builtin::Pow => self.pow_builtin(args, g),
            Builtin::Strlen => {
                let v = self.eval(&args[0], g)?;
                let gg = g.clone();
                self.per_string(&v, g, |this, cells| {
                    let (len, found) = this.strlen_sym(cells);
                    this.check(&gg, found);
                    Ok(SVal::Int(len.convert(IntKind::ULong)))
                })
            }
            Builtin::Strcmp | Builtin::Strncmp => self.strcmp_builtin(f, args, g),
            Builtin::Strcpy | Builtin::Strcat | Builtin::Strncpy => self.strcpy_builtin(f, args, g),
            Builtin::Assert => {
                let v = self.eval(&args[0], g)?;
                // Assertions are the specification: always hard.
                self.hard(implies(g, &v.truthy()));
                Ok(int(0))
            }
            Builtin::IsDigit
            | Builtin::IsAlpha
            | Builtin::IsAlnum
            | Builtin::IsSpace
            | Builtin::IsUpper
            | Builtin::IsLower
            | Builtin::ToUpper
            | Builtin::ToLower => {
                let v = self.eval(&args[0], g)?;
                let c = self.int_of(&v)?.convert(IntKind::Int);
                Ok(SVal::Int(self.ctype_sym(f, &c)))
            }
            Builtin::Malloc
            | Builtin::Calloc
            | Builtin::Realloc
            | Builtin::Free
            | Builtin::Strdup
            | Builtin::Alloca => self.heap_builtin(f, args, g),
            Builtin::BadCall => {
                // A call through a pointer to no function of its type: a
                // runtime error, so the path is excluded.
                self.eval(&args[0], g)?;
                self.check(&g.clone(), ff());
                Ok(if ty.is_scalar() {
                    SVal::zero(sem, ty)
                } else {
                    int(0)
                })
            }
            Builtin::Fflush => self.fflush(args, g),
            Builtin::Fopen
            | Builtin::Fclose
            | Builtin::Fgets
            | Builtin::Gets
            | Builtin::Fgetc
            | Builtin::Getc
            | Builtin::Ungetc
            | Builtin::Fscanf
            | Builtin::Feof
            | Builtin::Ferror
            | Builtin::Fputc
            | Builtin::Putc
            | Builtin::Fputs => self.stream_builtin(f, args, g),
            Builtin::Abort => self.abort(g),
            Builtin::Round
            | Builtin::Fmod
            | Builtin::Log
            | Builtin::Log10
            | Builtin::Exp
            | Builtin::Sin
            | Builtin::Cos
            | Builtin::Atan => self.math_builtin(f, args, g),
            Builtin::Rand | Builtin::Srand => self.rand_builtin(f, args, g),
            Builtin::Strchr | Builtin::Strrchr => self.strchr_builtin(f, args, g),
            Builtin::Strstr => self.strstr_builtin(args, g),
            Builtin::Memcpy | Builtin::Memmove | Builtin::Memset | Builtin::Memcmp => {
                self.mem_builtin(f, args, g)
            }
            Builtin::Strtol | Builtin::Strtoul | Builtin::Strtod => self.strto_builtin(f, args, g),
            Builtin::Sscanf => self.sscanf_builtin(args, g),
            // io-lib: not encoded yet (issue 13); `Builtin::encodable` says why.
            _ => match f.encodable() {
                Err(why) => self.unsupported(format!("library function '{}': {why}", f.name())),
                Ok(()) => self.unsupported(format!("library function '{}'", f.name())),
            },
        }
    }

    pub(super) fn checked_if(&mut self, c: Checked<SVal>, g: &Bool, x: &SInt) -> R<SVal> {
        let is_neg = match &c.v {
            SVal::Int(_) => {
                let zero = SInt::constant(self.sem, x.kind, 0);
                self.lift(sym::compare(
                    faultline_ir::CmpOp::Lt,
                    &SVal::Int(x.clone()),
                    &SVal::Int(zero),
                ))?
                .v
                .1
            }
            _ => tt(),
        };
        let gg = and2(g, &is_neg);
        Ok(self.checked(c, &gg))
    }

    pub(super) fn in_char_range(&self, c: &SInt, lo: u8, hi: u8) -> Bool {
        let ge = sym::compare(
            faultline_ir::CmpOp::Ge,
            &SVal::Int(c.clone()),
            &SVal::Int(SInt::constant(self.sem, IntKind::Int, lo as i128)),
        );
        let le = sym::compare(
            faultline_ir::CmpOp::Le,
            &SVal::Int(c.clone()),
            &SVal::Int(SInt::constant(self.sem, IntKind::Int, hi as i128)),
        );
        match (ge, le) {
            (Ok(a), Ok(b)) => and2(&a.v.1, &b.v.1),
            _ => ff(),
        }
    }

    /// Membership of `c` in a `<ctype.h>` class: its ranges (one table with
    /// the interpreter, [`faultline_ir::CtypeClass`]) as range tests, in order.
    fn in_ctype_class(&self, c: &SInt, class: &CtypeClass) -> Bool {
        class.ranges.iter().fold(ff(), |acc, &(lo, hi)| {
            let t = if lo == hi {
                c.eq_const(lo as i128)
            } else {
                self.in_char_range(c, lo, hi)
            };
            or2(&acc, &t)
        })
    }

    pub(super) fn ctype_sym(&self, f: Builtin, c: &SInt) -> SInt {
        let sem = self.sem;
        let k = |v: i128| SInt::constant(sem, IntKind::Int, v);
        let Some(class) = f.ctype_class() else {
            return k(0);
        };
        let member = self.in_ctype_class(c, class);
        let add = |x: &SInt, d: i128| match sym::binary(
            faultline_ir::BinOp::Add,
            &faultline_ir::INT,
            &SVal::Int(x.clone()),
            &SVal::Int(k(d)),
        ) {
            Ok(Checked {
                v: SVal::Int(i), ..
            }) => i,
            _ => x.clone(),
        };
        match f {
            Builtin::ToUpper => SInt::ite(&member, &add(c, -32), c),
            Builtin::ToLower => SInt::ite(&member, &add(c, 32), c),
            _ => SInt::ite(&member, &k(class.mask as i128), &k(0)),
        }
    }

    pub(super) fn strcmp_sym(&self, a: &[SCell], b: &[SCell], limit: Option<usize>) -> SInt {
        // Compare byte by byte: the result is the difference at the first
        // position where they differ or where `a` ends.
        let sem = self.sem;
        let n = a.len().min(b.len()).min(limit.unwrap_or(usize::MAX));
        let mut result = SInt::constant(sem, IntKind::Int, 0);
        for j in (0..n).rev() {
            let (SVal::Int(x), SVal::Int(y)) = (&a[j].v, &b[j].v) else {
                continue;
            };
            let ux = x.convert(IntKind::UChar).convert(IntKind::Int);
            let uy = y.convert(IntKind::UChar).convert(IntKind::Int);
            let diff = match sym::binary(
                faultline_ir::BinOp::Sub,
                &faultline_ir::INT,
                &SVal::Int(ux.clone()),
                &SVal::Int(uy),
            ) {
                Ok(Checked {
                    v: SVal::Int(d), ..
                }) => d,
                _ => continue,
            };
            let differ = not(&x.eq(y));
            let end = ux.eq_const(0);
            // At j: if differ → diff; else if end → 0; else → result of j+1.
            result = SInt::ite(
                &differ,
                &diff,
                &SInt::ite(&end, &SInt::constant(sem, IntKind::Int, 0), &result),
            );
        }
        result
    }
}
