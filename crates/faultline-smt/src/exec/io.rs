//! Outputs and inputs: the pieces an output statement prints, reads of the
//! test's stdin (`scanf`, `getchar`), and the oracle on outputs and exit status.

use super::*;

impl<'a, 'b> SymExec<'a, 'b> {
    /// `printf`, `fprintf`, `puts`, `putchar`: an output event on stdout (the
    /// oracle matches it against the expected output); the count returned is
    /// not modelled.
    pub(super) fn output_builtin(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let sem = self.sem;
        let (stream, rest) = if f == Builtin::Fprintf {
            let s = self.eval(&args[0], g)?;
            match s {
                SVal::Stream(s) => (s, &args[1..]),
                _ => return self.unsupported("fprintf to a computed stream"),
            }
        } else {
            (Stream::Stdout, args)
        };
        let pieces = match f {
            Builtin::Printf | Builtin::Fprintf => self.printf_pieces(rest, g)?,
            Builtin::Puts => {
                let v = self.eval(&rest[0], g)?;
                let strs = self.string_vals(&v, g, None)?;
                vec![OutPiece::Str(strs), OutPiece::Lit(b"\n".to_vec())]
            }
            _ => {
                let v = self.eval(&rest[0], g)?;
                let c = self.int_of(&v)?;
                vec![OutPiece::Char(c)]
            }
        };
        if stream == Stream::Stdout {
            let ab = self.cur_ab();
            let stmt = self.cur().expect("statement");
            let ctx = self.contexts.chain(self.ctx());
            self.outputs.push(OutEvent {
                guard: g.clone(),
                stmt,
                ctx,
                ab,
                pieces,
                black_box: false,
            });
        }
        // The value printf returns is not modelled: any count.
        let name = self.name("printed");
        let (v, r) = SInt::fresh(sem, IntKind::Int, &name);
        self.hard(r);
        Ok(SVal::Int(v))
    }

    /// `scanf` (with a constant format) and `getchar`: a read of the test's stdin.
    pub(super) fn input_builtin(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let (fmt, targets) = if f == Builtin::Scanf {
            let v = self.eval(&args[0], g)?;
            let (_, _, cells) = self.string_cells(&v, g)?;
            let Some(fmt) = Self::const_string(&cells) else {
                return self.unsupported("scanf with a computed format");
            };
            let mut t = Vec::new();
            for a in &args[1..] {
                let p = self.eval(a, g)?;
                t.push((p, a.ty.pointee().cloned().unwrap_or(Type::Void)));
            }
            (Some(fmt), t)
        } else {
            (None, Vec::new())
        };
        self.input_read(fmt, targets, g)
    }

    /// The pieces of a printf-family call's output.
    pub(super) fn printf_pieces(&mut self, args: &'a [Expr], g: &mut Bool) -> R<Vec<OutPiece>> {
        let fv = self.eval(&args[0], g)?;
        let (_, _, cells) = self.string_cells(&fv, g)?;
        let Some(fmt) = Self::const_string(&cells) else {
            return self.unsupported("printf with a computed format");
        };
        let pieces = match libc::parse_format(&fmt) {
            Ok(p) => p,
            Err(e) => return self.unsupported(format!("printf format: {e}")),
        };
        let mut rest = args[1..].iter();
        let mut out = Vec::new();
        for p in pieces {
            match p {
                libc::Piece::Literal(b) => out.push(OutPiece::Lit(b)),
                libc::Piece::Conv(spec) => {
                    let mut star = |this: &mut Self, g: &mut Bool| -> R<Option<i64>> {
                        let Some(a) = rest.next() else {
                            return this.unsupported("printf: too few arguments");
                        };
                        let v = this.eval(a, g)?;
                        match this.int_of(&v)?.as_const() {
                            Some(n) => Ok(Some(n as i64)),
                            None => {
                                this.unsupported("printf with a computed `*` width or precision")
                            }
                        }
                    };
                    let width = match spec.width {
                        Some(libc::Width::Star) => star(self, g)?,
                        Some(libc::Width::Fixed(n)) => Some(n as i64),
                        None => None,
                    };
                    let precision = match spec.precision {
                        Some(libc::Precision::Star) => star(self, g)?,
                        Some(libc::Precision::Fixed(n)) => Some(n as i64),
                        None => None,
                    };
                    let Some(a) = rest.next() else {
                        return self.unsupported("printf: too few arguments");
                    };
                    let v = self.eval(a, g)?;
                    let arg = match (spec.conv, &v) {
                        (b's', SVal::Ptr(_)) => OutArg::Str(self.string_vals(&v, g, None)?),
                        (_, SVal::Int(i)) => OutArg::Int(i.clone()),
                        (_, SVal::Float(x)) => OutArg::Float(x.clone()),
                        _ => {
                            return self.unsupported(format!(
                                "printf %{} of this argument",
                                spec.conv as char
                            ))
                        }
                    };
                    out.push(OutPiece::Conv {
                        spec,
                        width,
                        precision,
                        arg,
                    });
                }
            }
        }
        Ok(out)
    }

    /// A string's output piece: literal if constant, else its symbolic characters.
    pub(super) fn string_val(&mut self, cells: &[SCell], g: &Bool) -> R<StrVal> {
        if let Some(b) = Self::const_string(cells) {
            return Ok(StrVal::Const(b));
        }
        let (_, found) = self.strlen_sym(cells);
        self.check(g, found);
        let chars = cells
            .iter()
            .map(|c| match &c.v {
                SVal::Int(i) => Ok(i.clone()),
                _ => Err(EncodeError {
                    stmt: self.cur(),
                    message: "string of non-characters".into(),
                }),
            })
            .collect::<R<Vec<SInt>>>()?;
        Ok(StrVal::Sym(chars))
    }

    /// The strings a pointer may designate, for printing (at most `precision` characters).
    pub(super) fn string_vals(
        &mut self,
        v: &SVal,
        g: &Bool,
        precision: Option<i64>,
    ) -> R<Vec<(Bool, StrVal)>> {
        let alts = self.string_alts(v, g)?;
        let mut out = Vec::new();
        for (ga, _, _, cells) in alts {
            let cells = match precision {
                Some(n) if n >= 0 && (n as usize) < cells.len() => {
                    let mut c = cells[..n as usize].to_vec();
                    c.push(SCell {
                        v: SVal::Int(SInt::constant(self.sem, IntKind::Char, 0)),
                        init: tt(),
                    });
                    c
                }
                _ => cells,
            };
            let gg = and2(g, &ga);
            out.push((ga, self.string_val(&cells, &gg)?));
        }
        Ok(out)
    }

    /// A read from stdin (scanf with a constant format, or getchar), under
    /// guard `g`. The input position is a term over the offsets it can have
    /// (usually one); the read is simulated from each with faultline's
    /// glibc-exact scanf, and the return value, the stored values and the new
    /// position are if-then-else terms over those offsets.
    pub(super) fn input_read(
        &mut self,
        fmt: Option<Vec<u8>>,
        targets: Vec<(SVal, Type)>,
        g: &mut Bool,
    ) -> R<SVal> {
        let sem = self.sem;
        let stdin = &self.test.stdin;
        let format = match &fmt {
            Some(f) => match libc::parse_scanf_format(f) {
                Ok(f) => Some(f),
                Err(e) => return self.unsupported(format!("scanf format: {e}")),
            },
            None => None,
        };
        let starts: Vec<usize> = self.in_starts.iter().copied().collect();
        // Simulate the read from every possible offset.
        let mut cases: Vec<ReadCase> = Vec::new();
        for &o in &starts {
            let at = self.in_pos.eq_const(o as i128);
            let mut input = libc::Input::new(stdin.to_vec());
            input.pos = o;
            let (ret, items) = match &format {
                Some(f) => {
                    let out = libc::scanf::run_format(f, &mut input);
                    (out.ret as i128, out.items)
                }
                None => (input.getc().map_or(-1, |b| b as i128), Vec::new()),
            };
            cases.push((at, input.pos.min(stdin.len()), ret, items));
        }
        let pick =
            |this: &Self, kind: IntKind, f: &dyn Fn(&ReadCase) -> Option<i128>, default: &SInt| {
                let mut acc = default.clone();
                for c in cases.iter().rev() {
                    if let Some(v) = f(c) {
                        acc = SInt::ite(&c.0, &SInt::constant(this.sem, kind, v), &acc);
                    }
                }
                acc
            };
        let long_zero = SInt::constant(sem, IntKind::Long, 0);
        let new_pos = pick(self, IntKind::Long, &|c| Some(c.1 as i128), &long_zero);
        let ret = pick(
            self,
            IntKind::Int,
            &|c| Some(c.2),
            &SInt::constant(sem, IntKind::Int, -1),
        );
        for (i, (ptr, pointee)) in targets.iter().enumerate() {
            let assigned = cases.iter().fold(ff(), |acc, c| {
                or2(&acc, &and2(&c.0, &Bool::from_bool(c.3.len() > i)))
            });
            let gi = and2(g, &assigned);
            if is_false(&gi) {
                continue;
            }
            // What conversion fills target i (the same in every case).
            let kind = cases.iter().find_map(|c| c.3.get(i)).map(|it| match it {
                libc::Scanned::Int { .. } => 0,
                libc::Scanned::Float { .. } => 1,
                _ => 2,
            });
            match (kind, pointee) {
                (None, _) => {}
                (Some(0), Type::Int(k)) => {
                    let v = pick(
                        self,
                        *k,
                        &|c| match c.3.get(i) {
                            Some(libc::Scanned::Int { value, .. }) => Some(*value),
                            _ => None,
                        },
                        &SInt::constant(sem, *k, 0),
                    );
                    let lp = self.ptr_place(ptr, pointee, &gi)?;
                    self.store(
                        &lp,
                        pointee,
                        SCell {
                            v: SVal::Int(v),
                            init: tt(),
                        },
                        &gi,
                    );
                }
                (Some(1), Type::Float(k)) => {
                    let mut acc = SFloat {
                        kind: *k,
                        t: sym::fp_const(*k, 0.0),
                    };
                    for c in cases.iter().rev() {
                        if let Some(libc::Scanned::Float { value, .. }) = c.3.get(i) {
                            acc = SFloat::ite(
                                &c.0,
                                &SFloat {
                                    kind: *k,
                                    t: sym::fp_const(*k, *value),
                                },
                                &acc,
                            );
                        }
                    }
                    let lp = self.ptr_place(ptr, pointee, &gi)?;
                    self.store(
                        &lp,
                        pointee,
                        SCell {
                            v: SVal::Float(acc),
                            init: tt(),
                        },
                        &gi,
                    );
                }
                (Some(0 | 1), _) => return self.unsupported("scanf into a target of another type"),
                _ => self.store_scanned_chars(ptr, i, &cases, &gi)?,
            }
        }
        let next = match SInt::ite(g, &new_pos, &self.in_pos).as_const() {
            Some(k) => SInt::constant(sem, IntKind::Long, k),
            None => SInt::ite(g, &new_pos, &self.in_pos),
        };
        self.in_pos = next;
        if !is_false(g) {
            self.in_starts.extend(cases.iter().map(|c| c.1));
        }
        Ok(SVal::Int(ret))
    }

    /// A black box may consume any part of the remaining input.
    pub(super) fn input_havoc(&mut self, g: &Bool) {
        let name = self.name("inpos");
        let (fresh, _) = SInt::fresh(self.sem, IntKind::Long, &name);
        let len = self.test.stdin.len() as i128;
        let lo = self.in_starts.iter().copied().min().unwrap_or(0);
        let ge = sym::compare(
            CmpOp::Ge,
            &SVal::Int(fresh.clone()),
            &SVal::Int(self.in_pos.clone()),
        );
        let le = sym::compare(
            CmpOp::Le,
            &SVal::Int(fresh.clone()),
            &SVal::Int(self.long(len)),
        );
        if let (Ok(a), Ok(b)) = (ge, le) {
            self.hard(implies(g, &and2(&a.v.1, &b.v.1)));
        }
        self.in_pos = SInt::ite(g, &fresh, &self.in_pos.clone());
        self.in_starts.extend(lo..=len as usize);
    }

    pub(super) fn oracle(&mut self) -> R<()> {
        let expected = &self.test.expected_stdout;
        oracle::encode_outputs(
            self.solver,
            &self.outputs,
            expected,
            self.sem,
            &mut self.out,
        )
        .map_err(|e| EncodeError {
            stmt: e.0,
            message: e.1,
        })?;

        if let Some(status) = self.test.expected_status {
            let s = self.status.convert(IntKind::UChar);
            self.hard(s.eq_const(status as i128 & 0xff));
        }
        Ok(())
    }

    /// `%s` / `%c` into a character array: target `i` of each case gets the
    /// bytes read (and a NUL for `%s`), under the case's guard, wherever the
    /// pointer may point (a computed element of an array of strings, a
    /// struct's member). Paths where the bytes overflow the array are
    /// excluded (undefined behaviour).
    fn store_scanned_chars(
        &mut self,
        ptr: &SVal,
        i: usize,
        cases: &[ReadCase],
        gi: &Bool,
    ) -> R<()> {
        let sem = self.sem;
        let lp = self.ptr_place(ptr, &Type::Int(IntKind::Char), gi)?;
        for c in cases {
            let bytes: Vec<u8> = match c.3.get(i) {
                Some(libc::Scanned::Str(b)) => {
                    b.iter().copied().chain(std::iter::once(0)).collect()
                }
                Some(libc::Scanned::Chars(b)) => b.clone(),
                _ => continue,
            };
            let gc = and2(gi, &c.0);
            if is_false(&gc) {
                continue;
            }
            let n = bytes.len() as i128;
            let fits = lp.alts.iter().fold(ff(), |acc, a| {
                let len = self.objs[a.obj as usize].cells.len() as i128;
                or2(&acc, &and2(&a.g, &self.in_range(&a.off, 0, len - n)))
            });
            self.check(&gc, fits);
            let cells: Vec<SCell> = bytes
                .iter()
                .map(|&b| SCell {
                    v: SVal::Int(SInt::constant(sem, IntKind::Char, b as i8 as i128)),
                    init: tt(),
                })
                .collect();
            self.store_agg(&lp, &cells, &gc);
        }
        Ok(())
    }
}

/// One way an input read can go: the guard that the read starts at a given
/// offset, the offset after it, the value returned and the items converted.
type ReadCase = (Bool, usize, i128, Vec<libc::Scanned>);
