//! The interpreter's memory: objects made of scalar cells.
//!
//! Every variable instance, string literal and argument string is one object.
//! A pointer names an object, the object's generation and a cell offset, so
//! that out-of-bounds accesses and dangling pointers are detected exactly,
//! rather than reading a neighbouring object as a compiled binary might.

use crate::value::{Ptr, Value};
use faultline_ir::VarRef;

/// What an object is, for messages and trace targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    Var(VarRef),
    StrLit,
    Arg,
    /// A block from `malloc`, `calloc` or `realloc` (its facts in [`Object::heap`]).
    Heap,
}

/// A heap block: its size in bytes and where it was allocated and freed. The
/// block has no cells until a pointer to it is first converted to a `T *`
/// ([`Memory::type_heap`]): then it holds `bytes / sizeof(T)` elements of `T`.
#[derive(Clone, Debug, PartialEq)]
pub struct HeapBlock {
    pub bytes: u64,
    /// Leading bytes known to be zero (`calloc`; what `realloc` kept of them).
    pub zero_bytes: u64,
    /// The element type, once typed.
    pub elem: Option<faultline_ir::Type>,
    pub alloc_at: Option<faultline_ir::StmtId>,
    pub freed_at: Option<faultline_ir::StmtId>,
    /// A variable-length array (`alloca`): on the stack, freed when its
    /// function returns, never by `free`.
    pub stack: bool,
}

#[derive(Clone, Debug)]
pub struct Object {
    pub cells: Vec<Value>,
    pub gen: u32,
    pub live: bool,
    pub readonly: bool,
    pub origin: Origin,
    /// Set for heap blocks.
    pub heap: Option<Box<HeapBlock>>,
}

#[derive(Clone, Debug, Default)]
pub struct Memory {
    pub objects: Vec<Object>,
    free: Vec<u32>,
    /// Cells of unions whose bytes could not be decoded as the cell's type
    /// (a pointer's bytes read as a narrower integer, ...), by object,
    /// generation and cell, with what the bytes hold: reading one is an
    /// unsupported runtime error.
    pub punned: std::collections::BTreeMap<(u32, u32, usize), (faultline_ir::Type, &'static str)>,
}

impl Memory {
    /// Allocates an object of `n` cells, all `fill`.
    pub fn alloc(&mut self, n: usize, fill: Value, origin: Origin, readonly: bool) -> u32 {
        if let Some(id) = self.free.pop() {
            let o = &mut self.objects[id as usize];
            o.cells.clear();
            o.cells.resize(n, fill);
            o.gen = o.gen.wrapping_add(1);
            o.live = true;
            o.readonly = readonly;
            o.origin = origin;
            o.heap = None;
            id
        } else {
            self.objects.push(Object {
                cells: vec![fill; n],
                gen: 0,
                live: true,
                readonly,
                origin,
                heap: None,
            });
            (self.objects.len() - 1) as u32
        }
    }

    /// Allocates a heap block (never reusing a slot, so that a freed block
    /// stays recognizable for use-after-free and double-free errors).
    pub fn alloc_heap(&mut self, block: HeapBlock) -> u32 {
        self.objects.push(Object {
            cells: Vec::new(),
            gen: 0,
            live: true,
            readonly: false,
            origin: Origin::Heap,
            heap: Some(Box::new(block)),
        });
        (self.objects.len() - 1) as u32
    }

    /// Frees a heap block: its cells are dropped, its facts kept.
    pub fn free_heap(&mut self, id: u32, at: Option<faultline_ir::StmtId>) {
        let o = &mut self.objects[id as usize];
        o.live = false;
        o.cells = Vec::new();
        if let Some(h) = &mut o.heap {
            h.freed_at = at;
        }
    }

    /// Ends an object's lifetime; pointers to it become dangling.
    pub fn release(&mut self, id: u32) {
        let o = &mut self.objects[id as usize];
        o.live = false;
        self.free.push(id);
    }

    pub fn ptr_to(&self, id: u32, off: i64) -> Ptr {
        Ptr {
            obj: id,
            gen: self.objects[id as usize].gen,
            off,
        }
    }
}
