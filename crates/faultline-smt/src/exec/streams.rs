//! Files and streams in the formula.
//!
//! A `FILE *` is a pointer whose targets are streams ([`Target::Stream`]):
//! `stdin`, `stdout`, `stderr`, or a file opened by an `fopen` instance
//! (`Stream::File(k)`, numbered in the order the encoder meets them). A stream
//! chosen by a computed condition (`fp = argc > 1 ? fopen(...) : stdin`) is a
//! pointer with several guarded alternatives, and each operation is encoded
//! once per alternative under its guard.
//!
//! What a stream reads is a hard fact of the test: stdin's bytes, and the
//! bytes of a file named relative to the test's working directory, read when
//! the formula is built, as the interpreter reads them. Each stream that can
//! be read has its own position, a term over the offsets it can take (see
//! [`SymExec::read_cases`]); each read is simulated from each of them with
//! faultline's glibc-exact library. Writes to stdout are output events
//! (matched by the oracle); writes to stderr and to files are not observed.

use super::*;

/// C's `EOF`.
const EOF: i128 = -1;

impl<'a, 'b> SymExec<'a, 'b> {
    /// The streams a `FILE *` value may designate, with their guards. A NULL
    /// stream, or a file used after `fclose`, is undefined behaviour (a check
    /// of the current statement).
    pub(super) fn stream_alts(&mut self, v: &SVal, g: &Bool) -> R<Vec<(Bool, Stream)>> {
        let SVal::Ptr(p) = v else {
            return self.unsupported("a stream argument that is not a FILE *");
        };
        let mut out = Vec::new();
        let mut valid = ff();
        for (ga, t) in &p.alts {
            match t {
                Target::Stream(s) => {
                    let open = match s {
                        Stream::File(k) => not(&self.files[*k as usize].closed),
                        _ => tt(),
                    };
                    valid = or2(&valid, &and2(ga, &open));
                    out.push((ga.clone(), *s));
                }
                Target::Null => {}
                Target::Obj { .. } => {
                    return self.unsupported("a stream argument that points to an object")
                }
            }
        }
        self.check(g, valid);
        Ok(out)
    }

    /// The reader of a stream, if it is open for reading.
    fn reader_of(&self, s: Stream) -> Option<usize> {
        match s {
            Stream::Stdin => Some(0),
            Stream::File(k) => self.files[k as usize].reader,
            Stream::Stdout | Stream::Stderr => None,
        }
    }

    /// Whether a stream is open for writing.
    fn writable(&self, s: Stream) -> bool {
        match s {
            Stream::Stdin => false,
            Stream::File(k) => self.files[k as usize].write,
            Stream::Stdout | Stream::Stderr => true,
        }
    }

    /// Sets a stream's error indicator under `g`.
    fn set_error(&mut self, s: Stream, g: &Bool) {
        let old = self.stream_errors.get(&s).cloned().unwrap_or_else(ff);
        self.stream_errors.insert(s, or2(&old, g));
    }

    fn int(&self, v: i128) -> SInt {
        SInt::constant(self.sem, IntKind::Int, v)
    }

    /// Merges per-alternative results (the alternatives are exclusive).
    fn merge_int(alts: Vec<(Bool, SInt)>, default: SInt) -> SInt {
        alts.iter()
            .rev()
            .fold(default, |acc, (ga, v)| SInt::ite(ga, v, &acc))
    }

    /// The files and streams library: `fopen`, `fclose`, reads (`fgets`,
    /// `gets`, `fgetc`, `getc`, `ungetc`, `fscanf`), writes (`fputc`, `putc`,
    /// `fputs`), `feof`, `ferror`.
    pub(super) fn stream_builtin(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        match f {
            Builtin::Fopen => self.fopen(args, g),
            Builtin::Fclose => {
                let v = self.eval(&args[0], g)?;
                let gg = g.clone();
                for (ga, s) in self.stream_alts(&v, &gg)? {
                    let gs = and2(&gg, &ga);
                    match s {
                        Stream::File(k) => {
                            let c = &mut self.files[k as usize].closed;
                            *c = or2(c, &gs);
                        }
                        Stream::Stdout => self.flushes.push((self.outputs.len(), gs)),
                        _ => {}
                    }
                }
                Ok(SVal::Int(self.int(0)))
            }
            Builtin::Fgets | Builtin::Gets => self.fgets(f, args, g),
            Builtin::Fgetc | Builtin::Getc => {
                let v = self.eval(&args[0], g)?;
                self.per_reader(&v, g, &|input| {
                    (input.getc().map_or(EOF, |b| b as i128), Vec::new())
                })
            }
            Builtin::Fscanf => {
                let v = self.eval(&args[0], g)?;
                let fv = self.eval(&args[1], g)?;
                let (_, _, cells) = self.string_cells(&fv, g)?;
                let Some(fmt) = Self::const_string(&cells) else {
                    return self.unsupported("fscanf with a computed format");
                };
                let format = self.scan_format(Some(&fmt))?.expect("a format");
                let mut targets = Vec::new();
                for a in &args[2..] {
                    let p = self.eval(a, g)?;
                    targets.push((p, a.ty.pointee().cloned().unwrap_or(Type::Void)));
                }
                let gg = g.clone();
                let mut rets = Vec::new();
                for (ga, s) in self.stream_alts(&v, &gg)? {
                    let gs = and2(&gg, &ga);
                    match self.reader_of(s) {
                        Some(r) => {
                            let cases = self.read_cases(r, &gs, &|input| {
                                let out = libc::scanf::run_format(&format, input);
                                (out.ret as i128, out.items)
                            });
                            let ret = self.finish_scan(&cases, &targets, &gs)?;
                            rets.push((ga, ret));
                        }
                        None => {
                            self.set_error(s, &gs);
                            rets.push((ga, self.int(EOF)));
                        }
                    }
                }
                Ok(SVal::Int(Self::merge_int(rets, self.int(EOF))))
            }
            Builtin::Ungetc => self.ungetc(args, g),
            Builtin::Feof | Builtin::Ferror => {
                let v = self.eval(&args[0], g)?;
                let gg = g.clone();
                let mut set = ff();
                for (ga, s) in self.stream_alts(&v, &gg)? {
                    let on = if f == Builtin::Feof {
                        self.reader_of(s)
                            .map_or_else(ff, |r| self.readers[r].eof.clone())
                    } else {
                        self.stream_errors.get(&s).cloned().unwrap_or_else(ff)
                    };
                    set = or2(&set, &and2(&ga, &on));
                }
                Ok(SVal::Int(SInt::ite(&set, &self.int(1), &self.int(0))))
            }
            Builtin::Fputc | Builtin::Putc | Builtin::Fputs => self.fput(f, args, g),
            _ => self.unsupported(format!("{} is not a stream function", f.name())),
        }
    }

    /// A read of one byte or one scan, per alternative of the stream `v`;
    /// a stream not open for reading sets its error indicator and gives EOF.
    fn per_reader(
        &mut self,
        v: &SVal,
        g: &Bool,
        op: &dyn Fn(&mut libc::Input) -> (i128, Vec<libc::Scanned>),
    ) -> R<SVal> {
        let mut rets = Vec::new();
        for (ga, s) in self.stream_alts(v, g)? {
            let gs = and2(g, &ga);
            match self.reader_of(s) {
                Some(r) => {
                    let cases = self.read_cases(r, &gs, op);
                    let ret = self.finish_scan(&cases, &[], &gs)?;
                    rets.push((ga, ret));
                }
                None => {
                    self.set_error(s, &gs);
                    rets.push((ga, self.int(EOF)));
                }
            }
        }
        Ok(SVal::Int(Self::merge_int(rets, self.int(EOF))))
    }

    /// `fgets(buf, n, stream)` (a constant `n`) and `gets(buf)`: the line read
    /// from each possible offset is stored into `buf` under that offset's
    /// guard (a line longer than the buffer is undefined behaviour); the
    /// value is `buf`, or NULL where nothing was read.
    fn fgets(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let buf = self.eval(&args[0], g)?;
        let (n, stream) = if f == Builtin::Fgets {
            let n = self.eval(&args[1], g)?;
            let Some(n) = self.int_of(&n)?.as_const() else {
                return self.unsupported("fgets with a computed size");
            };
            (Some(n as i64), self.eval(&args[2], g)?)
        } else {
            (None, SVal::Ptr(SPtr::single(Target::Stream(Stream::Stdin))))
        };
        let null = SVal::Ptr(SPtr::single(Target::Null));
        if n.is_some_and(|n| n <= 0) {
            self.stream_alts(&stream, &g.clone())?;
            return Ok(null);
        }
        let op = move |input: &mut libc::Input| -> (i128, Vec<libc::Scanned>) {
            let mut line = Vec::new();
            let mut any = false;
            match n {
                Some(n) => {
                    while (line.len() as i64) < n - 1 {
                        match input.getc() {
                            Some(b) => {
                                line.push(b);
                                if b == b'\n' {
                                    break;
                                }
                            }
                            None => break,
                        }
                    }
                    any = !line.is_empty() || n == 1;
                }
                None => {
                    while let Some(b) = input.getc() {
                        any = true;
                        if b == b'\n' {
                            break;
                        }
                        line.push(b);
                    }
                }
            }
            if !any {
                return (0, Vec::new());
            }
            line.push(0);
            (1, vec![libc::Scanned::Chars(line)])
        };
        let gg = g.clone();
        let mut got = ff();
        for (ga, s) in self.stream_alts(&stream, &gg)? {
            let gs = and2(&gg, &ga);
            match self.reader_of(s) {
                Some(r) => {
                    let cases = self.read_cases(r, &gs, &op);
                    // The line is target 0 of the cases that read one.
                    self.store_scanned_chars(&buf, 0, &cases, &gs)?;
                    let read = cases
                        .iter()
                        .filter(|c| c.ret == 1)
                        .fold(ff(), |acc, c| or2(&acc, &c.at));
                    got = or2(&got, &and2(&ga, &read));
                }
                None => self.set_error(s, &gs),
            }
        }
        Ok(SVal::ite(&got, &buf, &null))
    }

    /// `ungetc(c, stream)`: pushing back the byte just read steps the
    /// position back (and clears end-of-file). Pushing back a different byte
    /// (which replaces it in glibc's stream) is encoded only where it is
    /// concrete (one offset, a constant byte, a call that certainly happens);
    /// elsewhere such paths are excluded by a hard constraint.
    /// `ungetc(EOF, ...)` does nothing.
    fn ungetc(&mut self, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let cv = self.eval(&args[0], g)?;
        let c = self.int_of(&cv)?.convert(IntKind::Int);
        let v = self.eval(&args[1], g)?;
        let is_eof = c.eq_const(EOF);
        let byte = c.convert(IntKind::UChar).convert(IntKind::Int);
        let gg = g.clone();
        let mut rets = Vec::new();
        for (ga, s) in self.stream_alts(&v, &gg)? {
            let gs = and2(&gg, &ga);
            let Some(r) = self.reader_of(s) else {
                rets.push((ga, self.int(EOF)));
                continue;
            };
            let push = and2(&gs, &not(&is_eof));
            // One offset, a constant byte, a certain call: the pushback is
            // concrete, as the interpreter does it (the byte replaces the one
            // before the position, or is inserted at the start).
            let reader = &mut self.readers[r];
            if let (Some(o), Some(b), true) = (
                reader.pos.as_const(),
                c.as_const(),
                sym::is_true(&gs) && reader.starts.len() == 1,
            ) {
                if b != EOF {
                    // As `libc::Input::ungetc`.
                    let o = (o as usize).min(reader.data.len());
                    let pos = if o > 0 {
                        reader.data[o - 1] = b as u8;
                        o - 1
                    } else {
                        reader.data.insert(0, b as u8);
                        0
                    };
                    reader.pos = SInt::constant(self.sem, IntKind::Long, pos as i128);
                    reader.starts = std::iter::once(pos).collect();
                    reader.eof = ff();
                }
                rets.push((ga, SInt::ite(&is_eof, &self.int(EOF), &byte)));
                continue;
            }
            let reader = &self.readers[r];
            let mut new_pos = reader.pos.clone();
            let mut same = ff();
            let mut ends = Vec::new();
            for &o in &reader.starts {
                let at = reader.pos.eq_const(o as i128);
                if is_false(&at) || o == 0 {
                    continue;
                }
                let prev = byte.eq_const(reader.data[o - 1] as i128);
                same = or2(&same, &and2(&at, &prev));
                new_pos = SInt::ite(&at, &self.long(o as i128 - 1), &new_pos);
                ends.push(o - 1);
            }
            self.hard(implies(&push, &same));
            let reader = &mut self.readers[r];
            reader.pos = SInt::ite(&push, &new_pos, &reader.pos.clone());
            reader.eof = and2(&reader.eof, &not(&push));
            reader.starts.extend(ends);
            rets.push((ga, SInt::ite(&is_eof, &self.int(EOF), &byte)));
        }
        Ok(SVal::Int(Self::merge_int(rets, self.int(EOF))))
    }

    /// `fputc`/`putc(c, stream)` and `fputs(s, stream)`: output events on
    /// stdout; writes to stderr and files are not observed; a stream not
    /// open for writing sets its error indicator and gives EOF.
    fn fput(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let (pieces, ok) = if f == Builtin::Fputs {
            let v = self.eval(&args[0], g)?;
            let strs = self.string_vals(&v, g, None)?;
            (vec![OutPiece::Str(strs)], self.int(1))
        } else {
            let v = self.eval(&args[0], g)?;
            let c = self.int_of(&v)?.convert(IntKind::Int);
            let byte = c.convert(IntKind::UChar).convert(IntKind::Int);
            (vec![OutPiece::Char(c)], byte)
        };
        let sv = self.eval(&args[1], g)?;
        self.write_pieces(&sv, pieces, ok, g)
    }

    /// Writes `pieces` to each stream `sv` may designate: an output event
    /// where it is stdout. Returns `ok` where the stream is open for writing,
    /// EOF elsewhere.
    pub(super) fn write_pieces(
        &mut self,
        sv: &SVal,
        pieces: Vec<OutPiece>,
        ok: SInt,
        g: &Bool,
    ) -> R<SVal> {
        let mut rets = Vec::new();
        for (ga, s) in self.stream_alts(sv, g)? {
            let gs = and2(g, &ga);
            if !self.writable(s) {
                self.set_error(s, &gs);
                rets.push((ga, self.int(EOF)));
                continue;
            }
            if s == Stream::Stdout {
                let ab = self.cur_ab();
                let ev = self.out_event(gs, ab, pieces.clone());
                self.outputs.push(ev);
            }
            rets.push((ga, ok.clone()));
        }
        Ok(SVal::Int(Self::merge_int(rets, self.int(EOF))))
    }

    /// `fopen(name, mode)` with constant strings (a name that may be one of
    /// several strings opens one file per string): the file is read now from
    /// the test's working directory (the interpreter's rules: `r` needs the
    /// file, else NULL; `w` starts empty; `a` appends; `+` also reads).
    /// Reopening a file this run writes is not encoded.
    fn fopen(&mut self, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let nv = self.eval(&args[0], g)?;
        let mv = self.eval(&args[1], g)?;
        let gg = g.clone();
        let names = self.string_reads(&nv, &gg)?;
        let (_, _, mcells) = self.string_cells(&mv, g)?;
        let Some(mode) = Self::const_string(&mcells) else {
            return self.unsupported("fopen with a computed mode");
        };
        let mut acc = SPtr::single(Target::Null);
        for (ga, _, _, cells) in names.iter().rev() {
            let Some(name) = Self::const_string(cells) else {
                return self.unsupported("fopen of a computed file name");
            };
            let name = String::from_utf8_lossy(&name).into_owned();
            let one = self.fopen_one(name, &mode)?;
            acc = SPtr::ite(ga, &one, &acc);
        }
        Ok(SVal::Ptr(acc))
    }

    fn fopen_one(&mut self, name: String, mode: &[u8]) -> R<SPtr> {
        let null = SPtr::single(Target::Null);
        let plus = mode.contains(&b'+');
        let written = self.files.iter().any(|f| f.write && f.name == name);
        let existing = match mode.first() {
            Some(b'r' | b'a') => {
                if written {
                    return self.unsupported(format!(
                        "fopen of '{name}', which this run writes (files written are not encoded)"
                    ));
                }
                let dir = self
                    .test
                    .workdir
                    .clone()
                    .unwrap_or_else(|| std::path::PathBuf::from("."));
                std::fs::read(dir.join(&name)).ok()
            }
            _ => None,
        };
        let (data, write) = match mode.first() {
            Some(b'r') => match existing {
                Some(bytes) => (Some(bytes), plus),
                None => return Ok(null),
            },
            Some(b'w') => (plus.then(Vec::new), true),
            Some(b'a') => (plus.then(|| existing.unwrap_or_default()), true),
            _ => return Ok(null),
        };
        let reader = data.map(|d| {
            self.readers.push(Reader::new(self.sem, d));
            self.readers.len() - 1
        });
        self.files.push(SFile {
            name,
            reader,
            write,
            closed: ff(),
        });
        let k = self.files.len() as u32 - 1;
        Ok(SPtr::single(Target::Stream(Stream::File(k))))
    }

    /// `fflush(stream)`: marks the output so far as written where the stream
    /// is stdout (or NULL: every stream), for `abort`.
    pub(super) fn fflush(&mut self, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let Some(a) = args.first() else {
            self.flushes.push((self.outputs.len(), g.clone()));
            return Ok(SVal::Int(self.int(0)));
        };
        let v = self.eval(a, g)?;
        if let SVal::Ptr(p) = &v {
            for (ga, t) in &p.alts {
                if matches!(t, Target::Null | Target::Stream(Stream::Stdout)) {
                    self.flushes.push((self.outputs.len(), and2(g, ga)));
                }
            }
        }
        Ok(SVal::Int(self.int(0)))
    }

    /// `abort()`: exit status 134 (SIGABRT), and the output not flushed is
    /// lost, as with glibc's fully buffered stdout when fewer than its 4096
    /// bytes were printed since the last flush (the encoder's assumption: the
    /// interpreter also keeps every full buffer).
    pub(super) fn abort(&mut self, g: &mut Bool) -> R<SVal> {
        for i in 0..self.outputs.len() {
            let flushed = self
                .flushes
                .iter()
                .filter(|(n, _)| *n > i)
                .fold(ff(), |acc, (_, gf)| or2(&acc, gf));
            let lost = and2(g, &not(&flushed));
            let e = &mut self.outputs[i];
            e.guard = and2(&e.guard, &not(&lost));
        }
        self.status = SInt::ite(g, &self.int(134), &self.status.clone());
        *g = ff();
        Ok(SVal::Int(self.int(0)))
    }
}
