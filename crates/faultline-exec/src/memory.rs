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
}

#[derive(Clone, Debug)]
pub struct Object {
    pub cells: Vec<Value>,
    pub gen: u32,
    pub live: bool,
    pub readonly: bool,
    pub origin: Origin,
}

#[derive(Clone, Debug, Default)]
pub struct Memory {
    pub objects: Vec<Object>,
    free: Vec<u32>,
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
            id
        } else {
            self.objects.push(Object {
                cells: vec![fill; n],
                gen: 0,
                live: true,
                readonly,
                origin,
            });
            (self.objects.len() - 1) as u32
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
