//! Files and streams: `FILE *` values for `stdin`, `stdout`, `stderr` and the
//! files a program opens, `fgets`, `fgetc`, `ungetc`, `fscanf`, `fputs`, ...,
//! and `sprintf`/`snprintf`/`sscanf` over the glibc-exact formatting and
//! scanning of `crate::libc`.
//!
//! Files are read from the test's working directory ([`Input::workdir`],
//! else the current directory). Writes never reach the disk: a file opened
//! for writing lives in the run's scratch space (in memory, per run), where
//! a later `fopen` of the same name in the same run reads it back.

use super::*;
use std::path::PathBuf;

/// An open stream other than the standard ones.
struct OpenFile {
    name: String,
    /// What is left to read (files opened for reading).
    read: Option<libc::Input>,
    /// Whether the file is open for writing (its bytes are in the scratch space).
    write: bool,
    error: bool,
    closed: bool,
}

/// The run's files, the stdout buffer model and the library's hidden state
/// (`strtok`'s position, `rand`'s generator).
#[derive(Default)]
pub(super) struct LibState {
    workdir: Option<PathBuf>,
    files: Vec<OpenFile>,
    /// Files written in this run, by the name they were opened with.
    scratch: HashMap<String, Vec<u8>>,
    /// Bytes of stdout explicitly flushed (`fflush`): with the glibc buffer
    /// model below, what an aborting process has written.
    pub(super) stdout_flushed: usize,
    /// Error indicators of the standard streams (reading stdout, writing stdin).
    std_error: [bool; 3],
    /// `strtok`'s saved position.
    pub(super) strtok: Option<Ptr>,
    /// glibc `random`'s state, created at the first `rand` or `srand`.
    pub(super) rand: Option<Box<crate::libc::Random>>,
}

impl LibState {
    pub(super) fn new(workdir: Option<&std::path::Path>) -> LibState {
        LibState {
            workdir: workdir.map(|p| p.to_path_buf()),
            ..LibState::default()
        }
    }
}

/// glibc's stdout buffer when stdout is a pipe or a file: 4096 bytes, fully
/// buffered. A process that aborts has written what it flushed plus every
/// full buffer since.
pub(super) fn stdout_written_at_abort(len: usize, flushed: usize) -> usize {
    const BUF: usize = 4096;
    let flushed = flushed.min(len);
    flushed + (len - flushed) / BUF * BUF
}

impl<'e, 'p, 'h> Machine<'e, 'p, 'h> {
    /// The stream an argument designates (a NULL `FILE *` is a null dereference).
    pub(super) fn stream_arg(&mut self, e: &'p Expr) -> R<Stream> {
        match self.eval(e)? {
            Value::Stream(Stream::File(i)) if self.lib.files[i as usize].closed => Err(self.error(
                ErrorKind::DanglingPointer,
                format!(
                    "use of the stream of '{}' after fclose",
                    self.lib.files[i as usize].name
                ),
            )),
            Value::Stream(s) => Ok(s),
            Value::Ptr(p) if p.is_null() => Err(self.error(
                ErrorKind::NullDereference,
                "a NULL stream (FILE *) passed to a library function",
            )),
            Value::Uninit => Err(self.arith(ArithError::Uninit)),
            v => Err(self.error(
                ErrorKind::Invalid,
                format!("expected a stream (FILE *), found {v}"),
            )),
        }
    }

    /// The read cursor of a stream, if it can be read.
    fn reader(&mut self, s: Stream) -> Option<&mut libc::Input> {
        match s {
            Stream::Stdin => Some(&mut self.input),
            Stream::File(i) => self.lib.files[i as usize].read.as_mut(),
            Stream::Stdout | Stream::Stderr => None,
        }
    }

    fn set_error(&mut self, s: Stream) {
        match s {
            Stream::Stdin => self.lib.std_error[0] = true,
            Stream::Stdout => self.lib.std_error[1] = true,
            Stream::Stderr => self.lib.std_error[2] = true,
            Stream::File(i) => self.lib.files[i as usize].error = true,
        }
    }

    /// The next byte of a stream (`None`: end of file, or a stream not open
    /// for reading, whose error indicator is then set).
    fn read_byte(&mut self, s: Stream) -> Option<u8> {
        match self.reader(s) {
            Some(input) => input.getc(),
            None => {
                self.set_error(s);
                None
            }
        }
    }

    /// Writes to a file the program opened (into the run's scratch space).
    pub(super) fn write_file(&mut self, i: u32, bytes: &[u8]) -> R<()> {
        let f = &self.lib.files[i as usize];
        if !f.write {
            self.lib.files[i as usize].error = true;
            return Ok(());
        }
        let name = f.name.clone();
        let total: usize = self.lib.scratch.values().map(Vec::len).sum();
        if self.out.len() + self.err.len() + total + bytes.len() > self.limits.max_output {
            return Err(self.error(
                ErrorKind::OutputLimit,
                format!("output limit of {} bytes exceeded", self.limits.max_output),
            ));
        }
        self.lib
            .scratch
            .entry(name)
            .or_default()
            .extend_from_slice(bytes);
        Ok(())
    }

    /// Writes to any stream; a stream not open for writing gets its error
    /// indicator set and the call returns `false` (C's `EOF`).
    pub(super) fn put(&mut self, s: Stream, bytes: &[u8]) -> R<bool> {
        match s {
            Stream::Stdin => {
                self.set_error(s);
                Ok(false)
            }
            Stream::File(i) if !self.lib.files[i as usize].write => {
                self.set_error(s);
                Ok(false)
            }
            _ => {
                self.emit(s, bytes)?;
                Ok(true)
            }
        }
    }

    /// The files, streams and formatted-string functions.
    pub(super) fn stdio_builtin(&mut self, f: Builtin, args: &'p [Expr]) -> R<Value> {
        let eof = Value::Int(-1);
        match f {
            Builtin::Fopen => self.fopen(args),
            Builtin::Fclose => {
                let s = self.stream_arg(&args[0])?;
                if let Stream::File(i) = s {
                    self.lib.files[i as usize].closed = true;
                } else if s == Stream::Stdout {
                    self.lib.stdout_flushed = self.out.len();
                }
                Ok(Value::Int(0))
            }
            Builtin::Fgets => {
                let buf = self.ptr_arg(&args[0])?;
                let n = self.int_arg(&args[1])?;
                let s = self.stream_arg(&args[2])?;
                if n <= 0 {
                    return Ok(Value::Ptr(Ptr::NULL));
                }
                let mut line = Vec::new();
                while (line.len() as i64) < n - 1 {
                    match self.read_byte(s) {
                        Some(b) => {
                            line.push(b);
                            if b == b'\n' {
                                break;
                            }
                        }
                        None => break,
                    }
                }
                if line.is_empty() && n > 1 {
                    return Ok(Value::Ptr(Ptr::NULL));
                }
                line.push(0);
                self.write_bytes(buf, &line)?;
                Ok(Value::Ptr(buf))
            }
            Builtin::Gets => {
                let buf = self.ptr_arg(&args[0])?;
                let mut line = Vec::new();
                let mut any = false;
                while let Some(b) = self.read_byte(Stream::Stdin) {
                    any = true;
                    if b == b'\n' {
                        break;
                    }
                    line.push(b);
                }
                if !any {
                    return Ok(Value::Ptr(Ptr::NULL));
                }
                line.push(0);
                self.write_bytes(buf, &line)?;
                Ok(Value::Ptr(buf))
            }
            Builtin::Fgetc | Builtin::Getc => {
                let s = self.stream_arg(&args[0])?;
                Ok(self.read_byte(s).map_or(eof, |b| Value::Int(b as i64)))
            }
            Builtin::Ungetc => {
                let c = self.int_arg(&args[0])?;
                let s = self.stream_arg(&args[1])?;
                if c == -1 {
                    return Ok(eof);
                }
                match self.reader(s) {
                    Some(input) => {
                        input.ungetc(c as u8);
                        Ok(Value::Int(c & 0xff))
                    }
                    None => Ok(eof),
                }
            }
            Builtin::Fscanf => {
                let s = self.stream_arg(&args[0])?;
                let Some(input) = self.reader(s) else {
                    self.set_error(s);
                    return Ok(eof);
                };
                let mut input = std::mem::take(input);
                let r = self.scan_into(&mut input, &args[1..]);
                if let Some(slot) = self.reader(s) {
                    *slot = input;
                }
                r
            }
            Builtin::Fputc | Builtin::Putc => {
                let c = self.int_arg(&args[0])? as u8;
                let s = self.stream_arg(&args[1])?;
                Ok(if self.put(s, &[c])? {
                    Value::Int(c as i64)
                } else {
                    eof
                })
            }
            Builtin::Fputs => {
                let p = self.ptr_arg(&args[0])?;
                let text = self.read_cstr(p)?;
                let s = self.stream_arg(&args[1])?;
                Ok(if self.put(s, &text)? {
                    Value::Int(1)
                } else {
                    eof
                })
            }
            Builtin::Feof | Builtin::Ferror => {
                let s = self.stream_arg(&args[0])?;
                let set = if f == Builtin::Feof {
                    self.reader(s).is_some_and(|i| i.eof)
                } else {
                    match s {
                        Stream::Stdin => self.lib.std_error[0],
                        Stream::Stdout => self.lib.std_error[1],
                        Stream::Stderr => self.lib.std_error[2],
                        Stream::File(i) => self.lib.files[i as usize].error,
                    }
                };
                Ok(Value::Int(set as i64))
            }
            Builtin::Sprintf | Builtin::Snprintf => {
                let buf = self.ptr_arg(&args[0])?;
                let (limit, rest) = if f == Builtin::Snprintf {
                    (Some(self.int_arg(&args[1])? as u64), &args[2..])
                } else {
                    (None, &args[1..])
                };
                let fmt_ptr = self.ptr_arg(&rest[0])?;
                let fmt = self.read_cstr(fmt_ptr)?;
                let mut bytes = self.printf(&fmt, &rest[1..])?;
                let len = bytes.len();
                match limit {
                    Some(0) => {}
                    Some(n) => {
                        bytes.truncate(len.min((n - 1) as usize));
                        bytes.push(0);
                        self.write_bytes(buf, &bytes)?;
                    }
                    None => {
                        bytes.push(0);
                        self.write_bytes(buf, &bytes)?;
                    }
                }
                Ok(Value::Int(len as i64))
            }
            Builtin::Sscanf => {
                let p = self.ptr_arg(&args[0])?;
                let text = self.read_cstr(p)?;
                let mut input = libc::Input::new(text);
                self.scan_into(&mut input, &args[1..])
            }
            _ => Err(self.error(
                ErrorKind::Invalid,
                format!("{} is not a stream function", f.name()),
            )),
        }
    }

    fn fopen(&mut self, args: &'p [Expr]) -> R<Value> {
        let p = self.ptr_arg(&args[0])?;
        let name = String::from_utf8_lossy(&self.read_cstr(p)?).into_owned();
        let p = self.ptr_arg(&args[1])?;
        let mode = self.read_cstr(p)?;
        let plus = mode.contains(&b'+');
        let existing = match mode.first() {
            Some(b'r' | b'a') => self.lib.scratch.get(&name).cloned().or_else(|| {
                let dir = self
                    .lib
                    .workdir
                    .clone()
                    .unwrap_or_else(|| PathBuf::from("."));
                std::fs::read(dir.join(&name)).ok()
            }),
            _ => None,
        };
        let (read, write) = match mode.first() {
            Some(b'r') => match existing {
                Some(bytes) if plus => {
                    self.lib.scratch.insert(name.clone(), bytes.clone());
                    (Some(libc::Input::new(bytes)), true)
                }
                Some(bytes) => (Some(libc::Input::new(bytes)), false),
                None => return Ok(Value::Ptr(Ptr::NULL)),
            },
            Some(b'w') => {
                self.lib.scratch.insert(name.clone(), Vec::new());
                (plus.then(|| libc::Input::new(Vec::new())), true)
            }
            Some(b'a') => {
                let bytes = existing.unwrap_or_default();
                self.lib.scratch.insert(name.clone(), bytes.clone());
                (plus.then(|| libc::Input::new(bytes)), true)
            }
            _ => return Ok(Value::Ptr(Ptr::NULL)),
        };
        self.lib.files.push(OpenFile {
            name,
            read,
            write,
            error: false,
            closed: false,
        });
        Ok(Value::Stream(Stream::File(self.lib.files.len() as u32 - 1)))
    }
}
