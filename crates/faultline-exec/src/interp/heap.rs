//! The heap: `malloc`, `calloc`, `realloc` and `free` as objects of the
//! memory model. A block is created untyped (a size in bytes) and takes its
//! cells when a pointer to it is first converted to a `T *`
//! ([`Machine::type_heap`]); blocks are never reused, so a freed block still
//! names where it was allocated and freed in use-after-free and double-free
//! errors. Memory not freed at exit is not an error.

use super::*;
use crate::memory::HeapBlock;

/// The bytes of heap a run may hold at once (live blocks); an allocation
/// beyond it ends the run with `heap-limit`. Sizes above `PTRDIFF_MAX` make
/// `malloc` return `NULL`, as glibc's does.
pub const MAX_HEAP: u64 = 64 << 20;

impl<'e, 'p, 'h> Machine<'e, 'p, 'h> {
    /// `heap block (40 bytes, allocated at t.c:5)`.
    pub(super) fn heap_name(&self, obj: u32) -> String {
        let Some(h) = &self.mem.objects[obj as usize].heap else {
            return "a heap block".into();
        };
        if h.stack {
            return match h.alloc_at {
                Some(s) => format!(
                    "variable-length array ({} bytes, declared at {})",
                    h.bytes,
                    self.prog.stmt_pos(s)
                ),
                None => format!("variable-length array ({} bytes)", h.bytes),
            };
        }
        match h.alloc_at {
            Some(s) => format!(
                "heap block ({} bytes, allocated at {})",
                h.bytes,
                self.prog.stmt_pos(s)
            ),
            None => format!("heap block ({} bytes)", h.bytes),
        }
    }

    /// The use-after-free error for a pointer into freed block `obj`.
    pub(super) fn use_after_free(&self, obj: u32) -> Box<Stop> {
        if self.mem.objects[obj as usize]
            .heap
            .as_ref()
            .is_some_and(|h| h.stack)
        {
            return self.error(
                ErrorKind::DanglingPointer,
                "dereference of a dangling pointer (its object's lifetime has ended)",
            );
        }
        let freed = self.mem.objects[obj as usize]
            .heap
            .as_ref()
            .and_then(|h| h.freed_at)
            .map(|s| format!(", freed at {}", self.prog.stmt_pos(s)))
            .unwrap_or_default();
        let name = self.heap_name(obj);
        let name = name.strip_suffix(')').unwrap_or(&name);
        self.error(
            ErrorKind::UseAfterFree,
            format!("use of freed memory: {name}{freed})"),
        )
    }

    /// Whether `obj` is a heap block that was freed.
    pub(super) fn is_freed_heap(&self, obj: u32) -> bool {
        let o = &self.mem.objects[obj as usize];
        o.heap.is_some() && !o.live
    }

    /// Gives an untyped heap block its cells as an array of `t` (at the
    /// first conversion of a pointer to its start into a `t *`).
    pub(super) fn type_heap(&mut self, obj: u32, t: &Type) {
        let size = self.prog.size_of(t);
        let o = &mut self.mem.objects[obj as usize];
        let Some(h) = &mut o.heap else { return };
        if h.elem.is_some() || !o.live || *t == Type::Void || size == 0 {
            return;
        }
        let n = h.bytes / size;
        let mut types = Vec::new();
        self.prog.cell_types(t, &mut types);
        let mut cells = Vec::with_capacity(types.len() * n as usize);
        for k in 0..n {
            let zero = (k + 1) * size <= h.zero_bytes;
            cells.extend(
                types
                    .iter()
                    .map(|c| if zero { zero_of(c) } else { Value::Uninit }),
            );
        }
        h.elem = Some(t.clone());
        o.cells = cells;
    }

    /// Whether the heap block `obj` holds a `t` at cell `off` (its element
    /// type, or what it starts with); untyped blocks are typed on the way.
    pub(super) fn heap_holds(&mut self, obj: u32, off: u64, t: &Type) -> bool {
        self.type_heap(obj, t);
        let o = &self.mem.objects[obj as usize];
        match o.heap.as_ref().and_then(|h| h.elem.as_ref()) {
            Some(e) => {
                let c = self.prog.cells(e).max(1);
                let n = o.cells.len() as u64 / c;
                super::memory::holds(self.prog, &Type::Array(Box::new(e.clone()), n), off, t)
            }
            None => true,
        }
    }

    pub(super) fn heap_builtin(&mut self, f: Builtin, args: &'p [Expr]) -> R<Value> {
        match f {
            Builtin::Malloc => {
                let n = self.int_arg(&args[0])? as u64;
                self.allocate(n, 0).map(Value::Ptr)
            }
            Builtin::Calloc => {
                let n = self.int_arg(&args[0])? as u64;
                let size = self.int_arg(&args[1])? as u64;
                match n.checked_mul(size) {
                    Some(bytes) => self.allocate(bytes, bytes).map(Value::Ptr),
                    None => Ok(Value::Ptr(Ptr::NULL)),
                }
            }
            Builtin::Realloc => {
                let p = self.ptr_arg(&args[0])?;
                let n = self.int_arg(&args[1])? as u64;
                self.realloc(p, n)
            }
            Builtin::Free => {
                let p = self.ptr_arg(&args[0])?;
                self.free(p, "free")?;
                Ok(Value::Int(0))
            }
            Builtin::Strdup => {
                let s = self.ptr_arg(&args[0])?;
                let mut bytes = self.read_cstr(s)?;
                bytes.push(0);
                let p = self.allocate(bytes.len() as u64, 0)?;
                self.type_heap(p.obj, &Type::Int(faultline_ir::IntKind::Char));
                self.write_bytes(p, &bytes)?;
                Ok(Value::Ptr(p))
            }
            Builtin::Qsort | Builtin::Bsearch => self.sort_builtin(f, args),
            Builtin::BadCall => match self.eval(&args[0])? {
                Value::Ptr(p) if p.is_null() => Err(self.error(
                    ErrorKind::NullDereference,
                    "call through a null function pointer",
                )),
                Value::Uninit => Err(self.arith(ArithError::Uninit)),
                _ => Err(self.error(
                    ErrorKind::Invalid,
                    "call through a function pointer that does not point to a function of its type",
                )),
            },
            Builtin::Alloca => {
                let n = self.int_arg(&args[0])?;
                self.alloca(n)
            }
            _ => Err(self.error(ErrorKind::Invalid, "not a heap function")),
        }
    }

    /// A variable-length array's storage: `n` bytes on the stack (counted
    /// against the stack limit) until the function returns.
    fn alloca(&mut self, n: i64) -> R<Value> {
        if n < 0 {
            return Err(self.error(
                ErrorKind::Invalid,
                format!("variable-length array of negative size ({n} bytes)"),
            ));
        }
        let bytes = n as u64;
        let cur = self.cur;
        let frame = self.frames.last_mut().expect("frame");
        if let Some(i) = frame.allocas.iter().position(|a| a.0 == cur) {
            let old = frame.allocas.swap_remove(i);
            self.release_allocas(&[old]);
        }
        if self.stack.saturating_add(bytes) > self.limits.stack_size {
            return Err(self.error(
                ErrorKind::StackOverflow,
                format!(
                    "stack overflow: a variable-length array of {bytes} bytes does not fit in the {} MiB stack",
                    self.limits.stack_size >> 20
                ),
            ));
        }
        self.stack += bytes;
        self.peak_stack = self.peak_stack.max(self.stack);
        let id = self.mem.alloc_heap(HeapBlock {
            bytes,
            zero_bytes: 0,
            elem: None,
            alloc_at: self.cur,
            freed_at: None,
            stack: true,
        });
        self.frame().allocas.push((cur, id));
        Ok(Value::Ptr(self.mem.ptr_to(id, 0)))
    }

    /// Frees a returning function's variable-length arrays.
    pub(super) fn release_allocas(&mut self, allocas: &[(Option<StmtId>, u32)]) {
        for &(_, id) in allocas {
            let bytes = self.mem.objects[id as usize]
                .heap
                .as_ref()
                .map_or(0, |h| h.bytes);
            self.stack -= bytes;
            self.mem.free_heap(id, None);
        }
    }

    fn allocate(&mut self, bytes: u64, zero_bytes: u64) -> R<Ptr> {
        if bytes > i64::MAX as u64 {
            return Ok(Ptr::NULL);
        }
        if self.heap_bytes.saturating_add(bytes) > MAX_HEAP {
            return Err(self.error(
                ErrorKind::HeapLimit,
                format!(
                    "allocating {bytes} bytes would exceed faultline's heap limit of {} MiB held at once",
                    MAX_HEAP >> 20
                ),
            ));
        }
        self.heap_bytes += bytes;
        let id = self.mem.alloc_heap(HeapBlock {
            bytes,
            zero_bytes,
            elem: None,
            alloc_at: self.cur,
            freed_at: None,
            stack: false,
        });
        Ok(self.mem.ptr_to(id, 0))
    }

    /// Checks that `p` is the start of a live heap block (`what`: `free` or
    /// `realloc`, for messages) and returns the block.
    fn heap_start(&self, p: Ptr, what: &str) -> R<u32> {
        let o = &self.mem.objects[p.obj as usize];
        if o.heap.as_ref().is_none_or(|h| h.stack) || o.gen != p.gen {
            let name = if o.gen != p.gen {
                "an object whose lifetime has ended".to_string()
            } else {
                self.object_name(p.obj)
            };
            return Err(self.error(
                ErrorKind::InvalidFree,
                format!("{what} of a pointer that is not heap memory (it points to {name})"),
            ));
        }
        if !o.live {
            let h = o.heap.as_ref().expect("heap");
            let freed = h
                .freed_at
                .map(|s| format!(", already freed at {}", self.prog.stmt_pos(s)))
                .unwrap_or_default();
            let name = self.heap_name(p.obj);
            let name = name.strip_suffix(')').unwrap_or(&name);
            return Err(self.error(
                ErrorKind::DoubleFree,
                format!("double free: {what} of {name}{freed})"),
            ));
        }
        if p.off != 0 {
            return Err(self.error(
                ErrorKind::InvalidFree,
                format!(
                    "{what} of a pointer into the middle of {}",
                    self.heap_name(p.obj)
                ),
            ));
        }
        Ok(p.obj)
    }

    fn free(&mut self, p: Ptr, what: &str) -> R<()> {
        if p.is_null() {
            return Ok(());
        }
        let obj = self.heap_start(p, what)?;
        let bytes = self.mem.objects[obj as usize]
            .heap
            .as_ref()
            .map_or(0, |h| h.bytes);
        self.heap_bytes -= bytes;
        self.mem.free_heap(obj, self.cur);
        self.uses.get_mut().reset(obj);
        Ok(())
    }

    /// glibc's `realloc`: `realloc(NULL, n)` is `malloc(n)`; `realloc(p, 0)`
    /// frees `p` and returns `NULL`; otherwise a new block keeps the old
    /// contents up to the smaller size (the rest uninitialized).
    fn realloc(&mut self, p: Ptr, n: u64) -> R<Value> {
        if p.is_null() {
            return self.allocate(n, 0).map(Value::Ptr);
        }
        let old = self.heap_start(p, "realloc")?;
        if n == 0 {
            self.free(p, "realloc")?;
            return Ok(Value::Ptr(Ptr::NULL));
        }
        let h = self.mem.objects[old as usize]
            .heap
            .as_deref()
            .cloned()
            .expect("heap");
        let q = self.allocate(n, h.zero_bytes.min(n))?;
        if q.is_null() {
            // Too large: glibc returns NULL and keeps the old block.
            return Ok(Value::Ptr(Ptr::NULL));
        }
        if let Some(elem) = &h.elem {
            self.type_heap(q.obj, elem);
            let old_cells = std::mem::take(&mut self.mem.objects[old as usize].cells);
            let new_cells = &mut self.mem.objects[q.obj as usize].cells;
            let k = old_cells.len().min(new_cells.len());
            new_cells[..k].copy_from_slice(&old_cells[..k]);
        }
        self.free(p, "realloc")?;
        Ok(Value::Ptr(q))
    }
}
