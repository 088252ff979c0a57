//! gcc's layout of global variables, for reads just outside a global array.
//!
//! Reading past the end of a global array is undefined behaviour, but real
//! programs do it (the Siemens TCAS reads `Positive_RA_Alt_Thresh[9]` for
//! some inputs) and their compiled binaries then read whatever lies there:
//! a neighbouring global, alignment padding, or the zeroed rest of the page.
//! To behave exactly as the gcc -O0 binary does, such *reads* are resolved
//! against the layout gcc 12 gives globals on x86-64: initialized globals in
//! `.data`, the others in `.bss`, each section in definition order, each
//! variable aligned to its type (arrays and structs of 16 bytes or more to 16
//! bytes), `.bss` after `.data`, and the mapped page ending at the next 4 KiB
//! boundary (taking the first user global at 0x4040, where gcc's startup
//! objects end). Out-of-bounds *writes* stay runtime errors: they corrupt
//! state, and reporting them is more useful than imitating the corruption.

use faultline_ir::{Layout, Program, Type};

/// One scalar cell of a global, placed in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlacedCell {
    pub addr: u64,
    pub size: u64,
    pub global: usize,
    pub cell: usize,
}

/// What an emulated read of a scalar finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Resolved {
    /// Exactly one cell of the same size.
    Cell { global: usize, cell: usize },
    /// Padding or the zeroed rest of the page.
    Zero,
    /// Straddles cells or mixes padding: bytes must be assembled.
    Bytes,
    /// Outside the mapped globals: the binary would crash.
    Unmapped,
}

#[derive(Clone, Debug, Default)]
pub struct GccLayout {
    /// Address of each global.
    pub base: Vec<u64>,
    /// All scalar cells, sorted by address.
    pub cells: Vec<PlacedCell>,
    pub start: u64,
    pub end: u64,
    pub page_end: u64,
}

const FIRST: u64 = 0x4040;

fn align_of(prog: &Program, t: &Type) -> u64 {
    let a = prog.align_of(t).max(1);
    match t {
        Type::Array(..) | Type::Struct(_) if prog.size_of(t) >= 16 => a.max(16),
        _ => a,
    }
}

/// The scalar cells of type `t` placed at byte `at`, in order: type, byte
/// offset and size, as gcc lays them out.
pub(crate) fn scalar_cells(prog: &Program, t: &Type, at: u64, out: &mut Vec<(Type, u64, u64)>) {
    match t {
        Type::Void | Type::Func(_) => {}
        Type::Array(e, n) => {
            let sz = prog.size_of(e);
            for i in 0..*n {
                scalar_cells(prog, e, at + i * sz, out);
            }
        }
        Type::Struct(s) => {
            for f in &prog.struct_def(*s).fields {
                scalar_cells(prog, &f.ty, at + f.byte_offset, out);
            }
        }
        t => out.push((t.clone(), at, prog.size_of(t))),
    }
}

impl GccLayout {
    pub fn new(prog: &Program) -> GccLayout {
        let is_data = |g: &faultline_ir::Global| {
            g.init
                .items
                .iter()
                .any(|it| !matches!(it.value.kind, faultline_ir::ExprKind::Int(0)))
        };
        let mut order: Vec<usize> = (0..prog.globals.len())
            .filter(|&i| is_data(&prog.globals[i]))
            .collect();
        order.extend((0..prog.globals.len()).filter(|&i| !is_data(&prog.globals[i])));
        let mut base = vec![0; prog.globals.len()];
        let mut addr = FIRST;
        let mut cells = Vec::new();
        for i in order {
            let g = &prog.globals[i];
            let a = align_of(prog, &g.ty);
            addr = addr.div_ceil(a) * a;
            base[i] = addr;
            let mut bytes = Vec::new();
            scalar_cells(prog, &g.ty, addr, &mut bytes);
            for (c, (_, at, size)) in bytes.into_iter().enumerate() {
                cells.push(PlacedCell {
                    addr: at,
                    size,
                    global: i,
                    cell: c,
                });
            }
            addr += prog.size_of(&g.ty);
        }
        cells.sort_by_key(|c| c.addr);
        let page_end = addr.div_ceil(4096).max(1) * 4096;
        GccLayout {
            base,
            cells,
            start: FIRST,
            end: addr,
            page_end,
        }
    }

    /// Resolves a read of `size` bytes at `addr`.
    pub fn resolve(&self, addr: u64, size: u64) -> Resolved {
        if addr < self.start || addr + size > self.page_end {
            return Resolved::Unmapped;
        }
        let overlapping: Vec<&PlacedCell> = self
            .cells
            .iter()
            .filter(|c| c.addr < addr + size && addr < c.addr + c.size)
            .collect();
        match overlapping.as_slice() {
            [] => Resolved::Zero,
            [c] if c.addr == addr && c.size == size => Resolved::Cell {
                global: c.global,
                cell: c.cell,
            },
            _ => Resolved::Bytes,
        }
    }

    /// The cells overlapping `[addr, addr + size)`.
    pub fn overlapping(&self, addr: u64, size: u64) -> impl Iterator<Item = &PlacedCell> {
        self.cells
            .iter()
            .filter(move |c| c.addr < addr + size && addr < c.addr + c.size)
    }

    /// The address of cell `cell` of global `g`.
    pub fn cell_addr(&self, g: usize, cell: usize) -> Option<u64> {
        self.cells
            .iter()
            .find(|c| c.global == g && c.cell == cell)
            .map(|c| c.addr)
    }
}
