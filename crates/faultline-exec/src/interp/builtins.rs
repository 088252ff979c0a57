//! The library functions other than input and output, and C strings in memory.

use super::*;

impl<'e, 'p, 'h> Machine<'e, 'p, 'h> {
    pub(super) fn builtin(&mut self, f: Builtin, args: &'p [Expr]) -> R<Value> {
        match f {
            Builtin::Printf | Builtin::Fprintf => self.printf_builtin(f, args),
            Builtin::Puts => {
                let p = self.ptr_arg(&args[0])?;
                let mut s = self.read_cstr(p)?;
                s.push(b'\n');
                self.emit(Stream::Stdout, &s)?;
                Ok(Value::Int(s.len() as i64))
            }
            Builtin::Putchar => {
                let c = self.int_arg(&args[0])? as u8;
                self.emit(Stream::Stdout, &[c])?;
                Ok(Value::Int(c as i64))
            }
            Builtin::Getchar => Ok(Value::Int(self.input.getc().map_or(-1, |b| b as i64))),
            Builtin::Scanf => self.scanf(args),
            Builtin::Atoi | Builtin::Atol | Builtin::Atof => {
                let p = self.ptr_arg(&args[0])?;
                let s = self.read_cstr(p)?;
                Ok(match f {
                    Builtin::Atoi => Value::Int(libc::strconv::atoi(&s) as i64),
                    Builtin::Atol => Value::Int(libc::strconv::atol(&s)),
                    _ => Value::Float(libc::strconv::atof(&s)),
                })
            }
            Builtin::Exit => {
                let s = self.int_arg(&args[0])?;
                Err(Box::new(Stop::Exit((s & 0xff) as i32)))
            }
            Builtin::Abs => Ok(Value::Int(
                faultline_ir::IntKind::Int.wrap((self.int_arg(&args[0])? as i128).abs()),
            )),
            Builtin::Labs => Ok(Value::Int(
                faultline_ir::IntKind::Long.wrap((self.int_arg(&args[0])? as i128).abs()),
            )),
            Builtin::Fabs => Ok(Value::Float(self.float_arg(&args[0])?.abs())),
            Builtin::Sqrt => Ok(Value::Float(self.float_arg(&args[0])?.sqrt())),
            Builtin::Floor => Ok(Value::Float(self.float_arg(&args[0])?.floor())),
            Builtin::Ceil => Ok(Value::Float(self.float_arg(&args[0])?.ceil())),
            Builtin::Pow => {
                let x = self.float_arg(&args[0])?;
                let y = self.float_arg(&args[1])?;
                Ok(Value::Float(x.powf(y)))
            }
            Builtin::Strlen => {
                let p = self.ptr_arg(&args[0])?;
                Ok(Value::Int(self.read_cstr(p)?.len() as i64))
            }
            Builtin::Strcmp | Builtin::Strncmp => {
                let p = self.ptr_arg(&args[0])?;
                let q = self.ptr_arg(&args[1])?;
                let n = if f == Builtin::Strncmp {
                    Some(self.int_arg(&args[2])? as u64 as usize)
                } else {
                    None
                };
                let a = self.read_cstr_upto(p, n)?;
                let b = self.read_cstr_upto(q, n)?;
                Ok(Value::Int(strcmp(&a, &b, n)))
            }
            Builtin::Strcpy | Builtin::Strcat => {
                let d = self.ptr_arg(&args[0])?;
                let s = self.ptr_arg(&args[1])?;
                let mut src = self.read_cstr(s)?;
                src.push(0);
                let at = if f == Builtin::Strcat {
                    let cur = self.read_cstr(d)?.len() as i64;
                    Ptr {
                        off: d.off + cur,
                        ..d
                    }
                } else {
                    d
                };
                self.write_bytes(at, &src)?;
                Ok(Value::Ptr(d))
            }
            Builtin::Strncpy => {
                let d = self.ptr_arg(&args[0])?;
                let s = self.ptr_arg(&args[1])?;
                let n = self.int_arg(&args[2])? as u64 as usize;
                // A length past the destination (a negative one included)
                // is an overflow before anything is read or padded.
                self.writable(d, n)?;
                let mut src = self.read_cstr_upto(s, Some(n))?;
                src.resize(n, 0);
                self.write_bytes(d, &src)?;
                Ok(Value::Ptr(d))
            }
            Builtin::Assert => {
                let v = self.eval(&args[0])?;
                if value::truthy(v).map_err(|e| self.arith(e))? {
                    return Ok(Value::Int(0));
                }
                let text = match &args.get(1).map(|a| &a.kind) {
                    Some(ExprKind::Str(s)) => {
                        String::from_utf8_lossy(&self.prog.strings[s.index()]).into_owned()
                    }
                    _ => String::new(),
                };
                let stmt = self.cur.unwrap_or(StmtId(0));
                let info = self.prog.stmt(stmt);
                let func = &self.prog.func(info.func).name;
                let msg = format!(
                    "{}: {}:{}: {}: Assertion `{}' failed.",
                    self.argv0.trim_start_matches("./"),
                    self.prog.file_name(info.loc.file),
                    info.loc.line,
                    func,
                    text
                );
                self.err.extend_from_slice(msg.as_bytes());
                self.err.push(b'\n');
                Err(Box::new(Stop::Assert(stmt, msg)))
            }
            Builtin::IsDigit
            | Builtin::IsAlpha
            | Builtin::IsAlnum
            | Builtin::IsSpace
            | Builtin::IsUpper
            | Builtin::IsLower
            | Builtin::ToUpper
            | Builtin::ToLower => {
                let c = self.int_arg(&args[0])?;
                Ok(Value::Int(ctype(f, c)))
            }
            Builtin::Fflush => {
                let all = match args.first() {
                    Some(a) => matches!(
                        self.eval(a)?,
                        Value::Stream(Stream::Stdout) | Value::Ptr(Ptr::NULL)
                    ),
                    None => true,
                };
                if all {
                    self.lib.stdout_flushed = self.out.len();
                }
                Ok(Value::Int(0))
            }
            // heap
            Builtin::Malloc
            | Builtin::Calloc
            | Builtin::Realloc
            | Builtin::Free
            | Builtin::Alloca
            | Builtin::BadCall
            | Builtin::Qsort
            | Builtin::Bsearch
            | Builtin::Strdup => self.heap_builtin(f, args),
            // io-lib: files and streams, formatted strings (interp/stdio.rs)
            Builtin::Fopen
            | Builtin::Fclose
            | Builtin::Fgets
            | Builtin::Fgetc
            | Builtin::Getc
            | Builtin::Ungetc
            | Builtin::Fscanf
            | Builtin::Fputc
            | Builtin::Putc
            | Builtin::Fputs
            | Builtin::Feof
            | Builtin::Ferror
            | Builtin::Gets
            | Builtin::Sprintf
            | Builtin::Snprintf
            | Builtin::Sscanf => self.stdio_builtin(f, args),
            // io-lib: memory, strings, math, rand, abort (interp/library.rs)
            Builtin::Memcpy
            | Builtin::Memmove
            | Builtin::Memset
            | Builtin::Memcmp
            | Builtin::Strchr
            | Builtin::Strrchr
            | Builtin::Strstr
            | Builtin::Strncat
            | Builtin::Strtok
            | Builtin::Strtol
            | Builtin::Strtoul
            | Builtin::Strtod
            | Builtin::Log
            | Builtin::Log10
            | Builtin::Exp
            | Builtin::Sin
            | Builtin::Cos
            | Builtin::Atan
            | Builtin::Fmod
            | Builtin::Round
            | Builtin::Rand
            | Builtin::Srand
            | Builtin::Abort => self.library_builtin(f, args),
        }
    }

    /// Checks that `p` points into a live object and returns (object, offset).
    pub(super) fn check_ptr(&self, p: Ptr) -> R<(u32, usize)> {
        self.deref(Value::Ptr(p), &faultline_ir::CHAR)
            .map(|l| (l.obj, l.off))
    }

    /// Reads the NUL-terminated string at `p`.
    pub(super) fn read_cstr(&self, p: Ptr) -> R<Vec<u8>> {
        let (obj, off) = self.check_ptr(p)?;
        let cells = &self.mem.objects[obj as usize].cells;
        let mut out = Vec::new();
        for (i, c) in cells[off..].iter().enumerate() {
            self.uses.borrow_mut().read(obj, off + i);
            match c {
                Value::Int(0) => return Ok(out),
                Value::Int(b) => out.push(*b as u8),
                Value::Uninit => {
                    return Err(self.error(
                        ErrorKind::UninitializedRead,
                        format!(
                            "read of uninitialized characters of {}",
                            self.object_name(obj)
                        ),
                    ))
                }
                _ => {
                    return Err(
                        self.error(ErrorKind::Invalid, "string contains a non-character cell")
                    )
                }
            }
        }
        Err(self.error(
            ErrorKind::OutOfBounds,
            format!("string in {} is not NUL-terminated", self.object_name(obj)),
        ))
    }

    pub(super) fn read_cstr_upto(&self, p: Ptr, n: Option<usize>) -> R<Vec<u8>> {
        let Some(n) = n else { return self.read_cstr(p) };
        let (obj, off) = self.check_ptr(p)?;
        let cells = &self.mem.objects[obj as usize].cells;
        let mut out = Vec::new();
        for c in cells[off..].iter().take(n) {
            match c {
                Value::Int(0) => return Ok(out),
                Value::Int(b) => out.push(*b as u8),
                _ => {
                    return Err(self.error(
                        ErrorKind::UninitializedRead,
                        "read of uninitialized characters",
                    ))
                }
            }
        }
        if out.len() < n {
            return Err(self.error(ErrorKind::OutOfBounds, "string is not NUL-terminated"));
        }
        Ok(out)
    }

    /// Reads at most `n` bytes of a string (printf `%.Ns` need not be NUL-terminated).
    pub(super) fn read_cstr_upto_lenient(&self, p: Ptr, n: usize) -> R<Vec<u8>> {
        let (obj, off) = self.check_ptr(p)?;
        let cells = &self.mem.objects[obj as usize].cells;
        let mut out = Vec::new();
        for c in cells[off..].iter().take(n) {
            match c {
                Value::Int(0) => break,
                Value::Int(b) => out.push(*b as u8),
                _ => {
                    return Err(self.error(
                        ErrorKind::UninitializedRead,
                        "read of uninitialized characters",
                    ))
                }
            }
        }
        Ok(out)
    }

    /// Checks that `len` bytes can be written from `p` (an error otherwise):
    /// its object and the offset in it.
    fn writable(&self, p: Ptr, len: usize) -> R<(u32, usize)> {
        let (obj, off) = self.check_ptr(p)?;
        let o = &self.mem.objects[obj as usize];
        if o.readonly {
            return Err(self.error(ErrorKind::WriteToReadonly, "write to a string literal"));
        }
        if len > o.cells.len() - off {
            return Err(self.error(
                ErrorKind::OutOfBounds,
                format!(
                    "writing {} bytes overflows {} ({} cells from the pointer)",
                    len,
                    self.object_name(obj),
                    o.cells.len() - off
                ),
            ));
        }
        Ok((obj, off))
    }

    /// Writes bytes (as `char` cells) at `p`, bounds-checked.
    pub(super) fn write_bytes(&mut self, p: Ptr, bytes: &[u8]) -> R<()> {
        let (obj, off) = self.writable(p, bytes.len())?;
        for (i, b) in bytes.iter().enumerate() {
            let v = self.produce(
                self.target_of(Loc::at(obj, off + i)),
                Value::Int(*b as i8 as i64),
            );
            self.mem.objects[obj as usize].cells[off + i] = v;
            self.uses.get_mut().write(obj, off + i, self.cur);
        }
        self.sync_unions(obj, off, off + bytes.len())
    }
}

/// glibc's x86-64 `strcmp`/`strncmp` return the difference of the first
/// differing bytes (as unsigned char).
fn strcmp(a: &[u8], b: &[u8], n: Option<usize>) -> i64 {
    let limit = n.unwrap_or(usize::MAX);
    let mut i = 0;
    while i < limit {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        if x != y {
            return x as i64 - y as i64;
        }
        if x == 0 {
            return 0;
        }
        i += 1;
    }
    0
}

/// glibc's `<ctype.h>` in the C locale (the table is [`faultline_ir::CtypeClass`]):
/// a classifier returns its class's bit of `__ctype_b` for members (e.g.
/// `isdigit` gives 2048); `toupper`/`tolower` map the other case's letters.
fn ctype(f: Builtin, c: i64) -> i64 {
    let Some(class) = f.ctype_class() else {
        return 0;
    };
    match f {
        Builtin::ToUpper if class.contains(c) => c - 32,
        Builtin::ToLower if class.contains(c) => c + 32,
        Builtin::ToUpper | Builtin::ToLower => c,
        _ => class.classify(c),
    }
}
