//! Outputs and inputs: the standard streams, `printf` and `scanf` on the
//! program's memory.

use super::*;

impl<'e, 'p, 'h> Machine<'e, 'p, 'h> {
    /// `printf`, `fprintf`: formats as glibc does and writes to the stream.
    pub(super) fn printf_builtin(&mut self, f: Builtin, args: &'p [Expr]) -> R<Value> {
        let (stream, rest) = if f == Builtin::Fprintf {
            (self.stream_arg(&args[0])?, &args[1..])
        } else {
            (Stream::Stdout, args)
        };
        let fmt_ptr = self.ptr_arg(&rest[0])?;
        let fmt = self.read_cstr(fmt_ptr)?;
        let bytes = self.printf(&fmt, &rest[1..])?;
        // A stream not open for writing: EOF and its error indicator, as glibc.
        Ok(Value::Int(if self.put(stream, &bytes)? {
            bytes.len() as i64
        } else {
            -1
        }))
    }

    /// After a write to stdout: the run ends if the hooks say so
    /// ([`Hooks::keeps_printing`]).
    fn printed(&mut self) -> R<()> {
        if self.capturing > 0 {
            return Ok(());
        }
        let keeps = match self.hooks.as_mut() {
            Some(h) => h.keeps_printing(&self.out),
            None => true,
        };
        match keeps {
            true => Ok(()),
            false => Err(Box::new(Stop::Hooked)),
        }
    }

    /// Statement instance `e`, a prints-only call
    /// ([`faultline_ir::CallSiteInfo::prints_only`]) of a statement the
    /// hooks watch: what the call writes to stdout is shown to them as the
    /// statement's output once it returns ([`Hooks::output`]), and replaced
    /// by what they return.
    pub(super) fn printing_call(&mut self, e: &'p Expr) -> R<()> {
        let mark = self.out.len();
        self.capturing += 1;
        let r = self.eval(e);
        self.capturing -= 1;
        r?;
        let printed = self.out.split_off(mark);
        let inst = self.frames.last().expect("frame").inst;
        let chain = self.chain.chain(&self.contexts, inst.ctx);
        let text = match self.hooks.as_mut() {
            Some(h) => h.output(&Site { inst, ctx: chain }, printed),
            None => printed,
        };
        self.out.extend_from_slice(&text);
        self.printed()
    }

    pub(super) fn emit(&mut self, stream: Stream, bytes: &[u8]) -> R<()> {
        match stream {
            Stream::Stdout
                if self
                    .frames
                    .last()
                    .is_some_and(|f| self.watched(f.inst.stmt)) =>
            {
                let inst = self.frames.last().expect("frame").inst;
                let chain = self.chain.chain(&self.contexts, inst.ctx);
                let text = match self.hooks.as_mut() {
                    Some(h) => h.output(&Site { inst, ctx: chain }, bytes.to_vec()),
                    None => bytes.to_vec(),
                };
                self.out.extend_from_slice(&text);
                self.printed()?;
            }
            Stream::Stdout => {
                self.out.extend_from_slice(bytes);
                self.printed()?;
            }
            Stream::Stderr => self.err.extend_from_slice(bytes),
            Stream::Stdin => return Err(self.error(ErrorKind::Invalid, "output to stdin")),
            Stream::File(i) => return self.write_file(i, bytes),
        }
        if self.out.len() + self.err.len() > self.limits.max_output {
            return Err(self.error(
                ErrorKind::OutputLimit,
                format!("output limit of {} bytes exceeded", self.limits.max_output),
            ));
        }
        Ok(())
    }

    pub(super) fn printf(&mut self, fmt: &[u8], args: &'p [Expr]) -> R<Vec<u8>> {
        let pieces =
            libc::parse_format(fmt).map_err(|e| self.error(ErrorKind::Invalid, e.to_string()))?;
        let mut out = Vec::new();
        let mut next = args.iter();
        let mut take = |m: &mut Self| -> R<&'p Expr> {
            next.next().ok_or_else(|| {
                m.error(
                    ErrorKind::Invalid,
                    "printf: too few arguments for the format",
                )
            })
        };
        for piece in &pieces {
            let spec = match piece {
                libc::Piece::Literal(bytes) => {
                    out.extend_from_slice(bytes);
                    continue;
                }
                libc::Piece::Conv(spec) => spec,
            };
            let width = match spec.width {
                Some(libc::Width::Star) => {
                    let a = take(self)?;
                    Some(self.int_arg(a)?)
                }
                Some(libc::Width::Fixed(n)) => Some(n as i64),
                None => None,
            };
            let precision = match spec.precision {
                Some(libc::Precision::Star) => {
                    let a = take(self)?;
                    Some(self.int_arg(a)?)
                }
                Some(libc::Precision::Fixed(n)) => Some(n as i64),
                None => None,
            };
            let e = take(self)?;
            let v = self.eval(e)?;
            let strbuf;
            let arg = match (spec.conv, v, &e.ty) {
                (b's', Value::Ptr(p), _) => {
                    let s = match precision {
                        Some(n) if n >= 0 => self.read_cstr_upto_lenient(p, n as usize)?,
                        _ => self.read_cstr(p)?,
                    };
                    strbuf = s;
                    libc::Arg::Str(&strbuf)
                }
                (b'p', Value::Ptr(p), _) => libc::Arg::Ptr(if p.is_null() {
                    0
                } else {
                    0x1000 * (p.obj as u64 + 1) + p.off as u64 * 4
                }),
                (b'd' | b'i' | b'c' | b'u' | b'x' | b'X' | b'o', Value::Int(i), Type::Int(k)) => {
                    if k.signed() {
                        libc::Arg::Int(i)
                    } else {
                        libc::Arg::UInt(i as u64 & mask(k.bits()))
                    }
                }
                (b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A', Value::Float(x), _) => {
                    libc::Arg::Double(x)
                }
                (_, Value::Uninit, _) => return Err(self.arith(ArithError::Uninit)),
                (c, v, t) => {
                    return Err(self.error(
                        ErrorKind::Invalid,
                        format!(
                            "printf: %{} given an argument of type {} ({v})",
                            c as char,
                            self.prog.type_name(t)
                        ),
                    ))
                }
            };
            libc::render(spec, width, precision, arg, &mut out);
        }
        Ok(out)
    }

    pub(super) fn scanf(&mut self, args: &'p [Expr]) -> R<Value> {
        let mut input = std::mem::take(&mut self.input);
        let r = self.scan_into(&mut input, args);
        self.input = input;
        r
    }

    /// `scanf` over `input`: `args` are the format and the pointers.
    pub(super) fn scan_into(&mut self, input: &mut libc::Input, args: &'p [Expr]) -> R<Value> {
        let fmt_ptr = self.ptr_arg(&args[0])?;
        let fmt = self.read_cstr(fmt_ptr)?;
        let outcome = libc::scanf::scanf(&fmt, input)
            .map_err(|e| self.error(ErrorKind::Invalid, e.to_string()))?;
        let targets = &args[1..];
        for (i, item) in outcome.items.iter().enumerate() {
            let Some(target) = targets.get(i) else {
                return Err(self.error(
                    ErrorKind::Invalid,
                    "scanf: too few arguments for the format",
                ));
            };
            let p = self.ptr_arg(target)?;
            let pointee = target.ty.pointee().cloned().unwrap_or(Type::Void);
            match item {
                libc::scanf::Scanned::Int { value, .. } => {
                    let Type::Int(k) = pointee else {
                        return Err(self.error(
                            ErrorKind::Invalid,
                            "scanf: integer conversion needs an integer pointer",
                        ));
                    };
                    let loc = self.deref(Value::Ptr(p), &pointee)?;
                    self.store(loc, Value::Int(k.wrap(*value)), true)?;
                }
                libc::scanf::Scanned::Float { value, .. } => {
                    let Type::Float(k) = pointee else {
                        return Err(self.error(
                            ErrorKind::Invalid,
                            "scanf: %f/%lf needs a float/double pointer",
                        ));
                    };
                    let loc = self.deref(Value::Ptr(p), &pointee)?;
                    self.store(loc, Value::Float(value::round_to(k, *value)), true)?;
                }
                libc::scanf::Scanned::Chars(bytes) => self.write_bytes(p, bytes)?,
                libc::scanf::Scanned::Str(bytes) => {
                    let mut b = bytes.clone();
                    b.push(0);
                    self.write_bytes(p, &b)?;
                }
            }
        }
        Ok(Value::Int(outcome.ret as i64))
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}
