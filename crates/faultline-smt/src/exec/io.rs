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
            (self.eval(&args[0], g)?, &args[1..])
        } else {
            (
                SVal::Ptr(SPtr::single(Target::Stream(Stream::Stdout))),
                args,
            )
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
        // The value printf returns is not modelled: any count.
        let name = self.name("printed");
        let (v, r) = SInt::fresh(sem, IntKind::Int, &name);
        self.hard(r);
        self.write_pieces(&stream, pieces, v, g)
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
        let alts = self.string_reads(v, g)?;
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
    /// guard `g`.
    pub(super) fn input_read(
        &mut self,
        fmt: Option<Vec<u8>>,
        targets: Vec<(SVal, Type)>,
        g: &mut Bool,
    ) -> R<SVal> {
        let format = self.scan_format(fmt.as_deref())?;
        let cases = self.read_cases(0, g, &|input| match &format {
            Some(f) => {
                let out = libc::scanf::run_format(f, input);
                (out.ret as i128, out.items)
            }
            None => (input.getc().map_or(-1, |b| b as i128), Vec::new()),
        });
        let ret = self.finish_scan(&cases, &targets, g)?;
        Ok(SVal::Int(ret))
    }

    /// A scanf format, parsed.
    pub(super) fn scan_format(&self, fmt: Option<&[u8]>) -> R<Option<libc::ScanFormat>> {
        match fmt {
            Some(f) => match libc::parse_scanf_format(f) {
                Ok(f) => Ok(Some(f)),
                Err(e) => self.unsupported(format!("scanf format: {e}")),
            },
            None => Ok(None),
        }
    }

    /// A read of reader `r` under guard `g`: the reader's position is a term
    /// over the offsets it can have (usually one); `op` is simulated from each
    /// with faultline's glibc-exact library, giving one case per offset. The
    /// reader's position and end-of-file indicator move under `g`.
    pub(super) fn read_cases(
        &mut self,
        r: usize,
        g: &Bool,
        op: &dyn Fn(&mut libc::Input) -> (i128, Vec<libc::Scanned>),
    ) -> Vec<ReadCase> {
        let sem = self.sem;
        let reader = &self.readers[r];
        let len = reader.data.len();
        let mut cases: Vec<ReadCase> = Vec::new();
        for &o in &reader.starts {
            crate::limits::tick();
            let at = reader.pos.eq_const(o as i128);
            if is_false(&at) {
                continue;
            }
            let mut input = libc::Input::new(reader.data.clone());
            input.pos = o;
            let (ret, items) = op(&mut input);
            cases.push(ReadCase {
                at,
                end: input.pos.min(len),
                ret,
                items,
                eof: input.eof,
            });
        }
        if is_false(g) {
            return cases;
        }
        let mut new_pos = self.long(0);
        let mut hit_eof = ff();
        for c in cases.iter().rev() {
            new_pos = SInt::ite(&c.at, &self.long(c.end as i128), &new_pos);
            if c.eof {
                hit_eof = or2(&hit_eof, &c.at);
            }
        }
        let reader = &mut self.readers[r];
        let next = SInt::ite(g, &new_pos, &reader.pos);
        reader.pos = match next.as_const() {
            Some(k) => SInt::constant(sem, IntKind::Long, k),
            None => next,
        };
        reader.eof = or2(&reader.eof, &and2(g, &hit_eof));
        // Where the read may not happen, the old offsets remain possible.
        if sym::is_true(g) {
            reader.starts.clear();
        }
        reader.starts.extend(cases.iter().map(|c| c.end));
        cases
    }

    /// The value a read returns (`ret` of each case, -1 where none applies)
    /// and the values it stores through `targets` (scanf's conversions).
    pub(super) fn finish_scan(
        &mut self,
        cases: &[ReadCase],
        targets: &[(SVal, Type)],
        g: &Bool,
    ) -> R<SInt> {
        let sem = self.sem;
        let pick =
            |this: &Self, kind: IntKind, f: &dyn Fn(&ReadCase) -> Option<i128>, default: &SInt| {
                let mut acc = default.clone();
                for c in cases.iter().rev() {
                    if let Some(v) = f(c) {
                        acc = SInt::ite(&c.at, &SInt::constant(this.sem, kind, v), &acc);
                    }
                }
                acc
            };
        let ret = pick(
            self,
            IntKind::Int,
            &|c| Some(c.ret),
            &SInt::constant(sem, IntKind::Int, -1),
        );
        for (i, (ptr, pointee)) in targets.iter().enumerate() {
            let assigned = cases.iter().fold(ff(), |acc, c| {
                or2(&acc, &and2(&c.at, &Bool::from_bool(c.items.len() > i)))
            });
            let gi = and2(g, &assigned);
            if is_false(&gi) {
                continue;
            }
            // What conversion fills target i (the same in every case).
            let kind = cases
                .iter()
                .find_map(|c| c.items.get(i))
                .map(|it| match it {
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
                        &|c| match c.items.get(i) {
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
                        if let Some(libc::Scanned::Float { value, .. }) = c.items.get(i) {
                            acc = SFloat::ite(
                                &c.at,
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
                _ => self.store_scanned_chars(ptr, i, cases, &gi)?,
            }
        }
        Ok(ret)
    }

    /// A black box may consume any part of the remaining input of every
    /// stream it may read.
    pub(super) fn input_havoc(&mut self, g: &Bool) {
        for r in 0..self.readers.len() {
            let name = self.name("inpos");
            let (fresh, _) = SInt::fresh(self.sem, IntKind::Long, &name);
            let reader = &self.readers[r];
            let len = reader.data.len() as i128;
            let lo = reader.starts.iter().copied().min().unwrap_or(0);
            let ge = sym::compare(
                CmpOp::Ge,
                &SVal::Int(fresh.clone()),
                &SVal::Int(reader.pos.clone()),
            );
            let le = sym::compare(
                CmpOp::Le,
                &SVal::Int(fresh.clone()),
                &SVal::Int(self.long(len)),
            );
            if let (Ok(a), Ok(b)) = (ge, le) {
                self.hard(implies(g, &and2(&a.v.1, &b.v.1)));
            }
            let eof = Bool::fresh_const(&self.name("ineof"));
            let reader = &mut self.readers[r];
            reader.pos = SInt::ite(g, &fresh, &reader.pos.clone());
            reader.eof = sym::ite_bool(g, &eof, &reader.eof);
            reader.starts.extend(lo..=len as usize);
        }
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
    pub(super) fn store_scanned_chars(
        &mut self,
        ptr: &SVal,
        i: usize,
        cases: &[ReadCase],
        gi: &Bool,
    ) -> R<()> {
        let sem = self.sem;
        let lp = self.ptr_place(ptr, &Type::Int(IntKind::Char), gi)?;
        for c in cases {
            let bytes: Vec<u8> = match c.items.get(i) {
                Some(libc::Scanned::Str(b)) => {
                    b.iter().copied().chain(std::iter::once(0)).collect()
                }
                Some(libc::Scanned::Chars(b)) => b.clone(),
                _ => continue,
            };
            let gc = and2(gi, &c.at);
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

/// One way a read can go.
pub(super) struct ReadCase {
    /// The read starts at this case's offset.
    pub(super) at: Bool,
    /// The offset after the read.
    pub(super) end: usize,
    /// The value the read returns.
    pub(super) ret: i128,
    /// The items converted (scanf) or the bytes stored (`fgets`: one `Chars`).
    pub(super) items: Vec<libc::Scanned>,
    /// Whether the read found the end of the stream.
    pub(super) eof: bool,
}
