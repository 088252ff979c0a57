//! The heap: `malloc`, `calloc`, `realloc`, `free`, `strdup` and
//! variable-length arrays (`Builtin::Alloca`) as objects of the memory model.
//!
//! Each allocation instance the executor meets (a statement instance along
//! the unrolled program) is a new object; pointers into it are alternatives
//! over objects and offsets like any other pointer. As in the interpreter, a
//! block is untyped (a size in bytes) until a pointer to its start is first
//! converted to a `T *` ([`SymExec::type_heap`]); then it takes the cells of
//! an array of `T`. Its liveness is a formula (`SObj::alive`): `free` under
//! guard `g` ends it on the paths of `g`, and every access checks it, so use
//! after free, double free and a free of anything but a live block's start
//! exclude their paths like an out-of-bounds access does. Cells of `malloc`
//! are uninitialized (reading one is excluded), those of `calloc` zero.
//!
//! Sizes: a size the formula computes is bounded by the values its term can
//! take as far as its structure shows ([`term_values`]: constants through
//! `ite`s and operations on them, as the input's alternatives give them). The
//! block gets cells for the largest, and accesses are checked against the
//! actual size (`Heap::limit`). Where part of the term is a relaxed
//! instance's value (`full`, `trace`: `ite(ab, fresh, computed)`), sizes above
//! that largest value are excluded (a hard constraint; with nothing relaxed
//! the size is among the values found): a diagnosis needing a larger block is
//! not found. A size depending on any other free value (`flow`'s per-instance
//! values, a black box's) is refused, as is one with more than 64 values.

use super::*;
use std::collections::HashMap;
use z3::ast::{Dynamic, Int, BV};
use z3::AstKind;

/// Most bytes one block of the formula may have (each cell is a term).
const MAX_BLOCK_BYTES: u64 = 1 << 16;
const PTRDIFF_MAX: u64 = i64::MAX as u64;
/// Most term nodes visited to find a size's values.
const MAX_SIZE_NODES: usize = 10_000;
/// Most values a size's term is expanded to.
const MAX_SIZE_VALUES: usize = 64;

/// What the memory model knows of a heap block or variable-length array.
#[derive(Clone, Debug)]
pub(super) struct Heap {
    /// The bytes its cells can hold (the largest size it may have).
    cap: u64,
    /// Its size in bytes when computed (`None`: exactly `cap`).
    bytes: Option<SInt>,
    /// `calloc`: the cells start zero (otherwise uninitialized).
    zero: bool,
    /// The element type once typed.
    elem: Option<Type>,
    /// The cells within its size, when the size is computed.
    limit: Option<SInt>,
    /// A variable-length array (not `free`able).
    stack: bool,
}

impl Heap {
    /// The cells within its size, when the size is computed.
    pub(super) fn limit(&self) -> Option<&SInt> {
        self.limit.as_ref()
    }

    /// A variable-length array (not a `free`able block).
    pub(super) fn is_stack(&self) -> bool {
        self.stack
    }
}

impl<'a, 'b> SymExec<'a, 'b> {
    pub(super) fn heap_builtin(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        match f {
            Builtin::Malloc | Builtin::Alloca => {
                let n = self.eval(&args[0], g)?;
                let n = self.int_of(&n)?.convert(IntKind::ULong);
                self.allocate(&n, false, f == Builtin::Alloca, g)
            }
            Builtin::Calloc => {
                let n = self.eval(&args[0], g)?;
                let size = self.eval(&args[1], g)?;
                let n = self.int_of(&n)?.convert(IntKind::ULong);
                let size = self.int_of(&size)?.convert(IntKind::ULong);
                let bytes = match (n.as_const(), size.as_const()) {
                    (Some(a), Some(b)) => match (a as u64).checked_mul(b as u64) {
                        Some(p) => SInt::constant(self.sem, IntKind::ULong, p as i128),
                        // Overflow: glibc's calloc returns NULL.
                        None => return Ok(SVal::Ptr(SPtr::single(Target::Null))),
                    },
                    _ => self.ulong_op(faultline_ir::BinOp::Mul, &n, &size)?,
                };
                self.allocate(&bytes, true, false, g)
            }
            Builtin::Free => {
                let p = self.eval(&args[0], g)?;
                self.free(&p, g);
                Ok(SVal::Int(SInt::constant(self.sem, IntKind::Int, 0)))
            }
            Builtin::Realloc => {
                let p = self.eval(&args[0], g)?;
                let n = self.eval(&args[1], g)?;
                let n = self.int_of(&n)?.convert(IntKind::ULong);
                self.realloc(&p, &n, g)
            }
            Builtin::Strdup => self.strdup(args, g),
            _ => self.unsupported(format!("'{}' is not a heap function", f.name())),
        }
    }

    fn ulong_op(&self, op: faultline_ir::BinOp, a: &SInt, b: &SInt) -> R<SInt> {
        let c = self.lift(sym::binary(
            op,
            &faultline_ir::ULONG,
            &SVal::Int(a.clone()),
            &SVal::Int(b.clone()),
        ))?;
        self.int_of(&c.v)
    }

    /// The bytes a block of computed size `n` gets: the largest value `n`
    /// can take (see the module documentation), and whether it may be above
    /// `PTRDIFF_MAX` (where the allocation gives NULL).
    fn capacity(&mut self, n: &SInt, g: &Bool) -> R<(u64, bool)> {
        if let Some(c) = n.as_const() {
            let c = c as u64;
            return Ok(if c > PTRDIFF_MAX {
                (0, true)
            } else {
                (c, false)
            });
        }
        let mut budget = MAX_SIZE_NODES;
        let found = term_values(
            &n.dynamic(),
            MAX_SIZE_VALUES,
            &mut budget,
            &self.relaxed_vars,
            &mut self.term_values.borrow_mut(),
        );
        let Some((values, partial)) = found else {
            return self.unsupported("an allocation whose size the formula cannot bound");
        };
        let values: Vec<u64> = values.iter().filter_map(numeral).collect();
        let huge = values.iter().any(|&v| v > PTRDIFF_MAX);
        let Some(cap) = values.into_iter().filter(|&v| v <= PTRDIFF_MAX).max() else {
            return self.unsupported("an allocation whose size the formula cannot bound");
        };
        if partial {
            let le = self.lift(sym::compare(
                CmpOp::Le,
                &SVal::Int(n.clone()),
                &SVal::Int(SInt::constant(self.sem, IntKind::ULong, cap as i128)),
            ))?;
            // Sizes above PTRDIFF_MAX stay possible (they give NULL).
            let huge = self.huge(n)?;
            self.hard(implies(g, &or2(&le.v.1, &huge)));
            return Ok((cap, true));
        }
        Ok((cap, huge))
    }

    /// `n > PTRDIFF_MAX`.
    fn huge(&self, n: &SInt) -> R<Bool> {
        Ok(self
            .lift(sym::compare(
                CmpOp::Gt,
                &SVal::Int(n.clone()),
                &SVal::Int(SInt::constant(
                    self.sem,
                    IntKind::ULong,
                    PTRDIFF_MAX as i128,
                )),
            ))?
            .v
            .1)
    }

    /// A new block of `n` bytes (`zero`: `calloc`; `stack`: a
    /// variable-length array, released when its function returns or its
    /// declaration runs again).
    fn allocate(&mut self, n: &SInt, zero: bool, stack: bool, g: &Bool) -> R<SVal> {
        let (cap, may_be_huge) = self.capacity(n, g)?;
        // Sizes above PTRDIFF_MAX: glibc's malloc returns NULL.
        let huge = if !may_be_huge {
            ff()
        } else if n.as_const().is_some() {
            return Ok(SVal::Ptr(SPtr::single(Target::Null)));
        } else {
            self.huge(n)?
        };
        if cap > MAX_BLOCK_BYTES {
            return self.unsupported(format!(
                "an allocation of {cap} bytes (the formula holds blocks of at most {MAX_BLOCK_BYTES})"
            ));
        }
        let bytes = n.as_const().is_none().then(|| n.clone());
        let obj = self.alloc(Vec::new(), false);
        self.objs[obj as usize].heap = Some(Box::new(Heap {
            cap,
            bytes,
            zero,
            elem: None,
            limit: None,
            stack,
        }));
        if stack {
            let stmt = self.cur();
            let frame = self.frames.last_mut().expect("frame");
            let old: Vec<u32> = frame
                .allocas
                .iter()
                .filter(|a| a.0 == stmt)
                .map(|a| a.1)
                .collect();
            frame.allocas.push((stmt, obj));
            // The declaration runs again: its previous array ends here.
            for o in old {
                let a = self.objs[o as usize].alive.clone();
                self.objs[o as usize].alive = and2(&a, &not(g));
            }
        }
        let p = self.ptr_to(obj, 0).v;
        Ok(match is_false(&huge) {
            true => p,
            false => SVal::ite(&huge, &SVal::Ptr(SPtr::single(Target::Null)), &p),
        })
    }

    /// Gives the untyped blocks `v` may point to the start of their cells as
    /// an array of `t` (at a conversion to `t *`).
    pub(super) fn type_heap(&mut self, v: &SVal, t: &Type) -> R<()> {
        let SVal::Ptr(p) = v else { return Ok(()) };
        if *t == Type::Void {
            return Ok(());
        }
        let size = self.prog.size_of(t);
        if size == 0 {
            return Ok(());
        }
        for (_, target) in &p.alts {
            let Target::Obj { obj, off } = target else {
                continue;
            };
            let Some(h) = self.objs[*obj as usize].heap.as_deref() else {
                continue;
            };
            if h.elem.is_some() || off.as_const() != Some(0) {
                continue;
            }
            let h = h.clone();
            let mut types = Vec::new();
            self.prog.cell_types(t, &mut types);
            let per = types.len() as u64;
            let n = h.cap / size;
            let mut cells = Vec::with_capacity((per * n) as usize);
            for _ in 0..n {
                cells.extend(types.iter().map(|c| SCell {
                    v: SVal::zero(self.sem, c),
                    init: Bool::from_bool(h.zero),
                }));
            }
            let limit = match &h.bytes {
                Some(b) => {
                    let k = self.ulong_op(
                        faultline_ir::BinOp::Div,
                        b,
                        &SInt::constant(self.sem, IntKind::ULong, size as i128),
                    )?;
                    let k = self.ulong_op(
                        faultline_ir::BinOp::Mul,
                        &k,
                        &SInt::constant(self.sem, IntKind::ULong, per as i128),
                    )?;
                    Some(k.convert(IntKind::Long))
                }
                None => None,
            };
            let o = &mut self.objs[*obj as usize];
            o.cells = cells;
            let hh = o.heap.as_deref_mut().expect("heap");
            hh.elem = Some(t.clone());
            hh.limit = limit;
        }
        Ok(())
    }

    /// Whether an access of `n` cells at `off` of `obj` is within the object
    /// (and its computed size) and the object is alive.
    pub(super) fn access_ok(&self, obj: u32, off: &SInt, n: i128) -> Bool {
        let o = &self.objs[obj as usize];
        let len = o.cells.len() as i128;
        let mut ok = and2(&self.in_range(off, 0, len - n), &o.alive);
        if let Some(limit) = o.heap.as_deref().and_then(|h| h.limit.as_ref()) {
            ok = and2(&ok, &self.within(off, n, limit));
        }
        ok
    }

    /// `off + n <= limit`.
    pub(super) fn within(&self, off: &SInt, n: i128, limit: &SInt) -> Bool {
        let end = self.add_off(off, &self.long(n));
        sym::compare(CmpOp::Le, &SVal::Int(end), &SVal::Int(limit.clone()))
            .map(|c| c.v.1)
            .unwrap_or_else(|_| ff())
    }

    /// `free(p)` under `g`: `p` must be null or the start of a live block.
    fn free(&mut self, p: &SVal, g: &Bool) {
        let SVal::Ptr(p) = p else {
            self.check(g, ff());
            return;
        };
        let mut ok = ff();
        for (ga, t) in &p.alts {
            match t {
                Target::Null => ok = or2(&ok, ga),
                Target::Obj { obj, off } => {
                    let o = &self.objs[*obj as usize];
                    if o.heap.as_deref().is_none_or(|h| h.stack) {
                        continue;
                    }
                    ok = or2(&ok, &Bool::and(&[ga, &off.eq_const(0), &o.alive]));
                    let freed = and2(g, ga);
                    let a = o.alive.clone();
                    self.objs[*obj as usize].alive = and2(&a, &not(&freed));
                }
                // free of a FILE *: an invalid free.
                Target::Stream(_) => {}
            }
        }
        self.check(g, ok);
    }

    /// glibc's `realloc`: `realloc(NULL, n)` is `malloc(n)`; `realloc(p, 0)`
    /// frees `p` and returns NULL; otherwise a new block holds the old
    /// contents up to the smaller size, and the old one is freed.
    fn realloc(&mut self, p: &SVal, n: &SInt, g: &Bool) -> R<SVal> {
        let SVal::Ptr(ptr) = p else {
            return self.unsupported("realloc of a non-pointer");
        };
        let new = self.allocate(n, false, false, g)?;
        let SVal::Ptr(np) = &new else {
            return Ok(new);
        };
        let Some(nobj) = np.alts.iter().find_map(|(_, t)| match t {
            Target::Obj { obj, .. } => Some(*obj),
            Target::Null | Target::Stream(_) => None,
        }) else {
            return Ok(new);
        };
        // The new block takes the old ones' type and contents.
        let mut elem = None;
        for (_, t) in &ptr.alts {
            if let Target::Obj { obj, .. } = t {
                if let Some(e) = self.objs[*obj as usize]
                    .heap
                    .as_deref()
                    .and_then(|h| h.elem.clone())
                {
                    if elem.as_ref().is_some_and(|x| *x != e) {
                        return self.unsupported("realloc of blocks of different types");
                    }
                    elem = Some(e);
                }
            }
        }
        if let Some(e) = &elem {
            self.type_heap(&new, e)?;
            for (ga, t) in &ptr.alts {
                if let Target::Obj { obj, .. } = t {
                    let old = self.objs[*obj as usize].cells.clone();
                    let cells = &mut self.objs[nobj as usize].cells;
                    for (c, o) in cells.iter_mut().zip(&old) {
                        *c = SCell {
                            v: SVal::ite(ga, &o.v, &c.v),
                            init: sym::ite_bool(ga, &o.init, &c.init),
                        };
                    }
                }
            }
        }
        // A null pointer allocates only; zero bytes free only.
        let nonnull = ptr.truthy();
        let zero = n.eq_const(0);
        let gf = and2(g, &nonnull);
        self.free(p, &gf);
        let null_result = and2(&nonnull, &zero);
        if is_false(&null_result) {
            return Ok(new);
        }
        let alive = self.objs[nobj as usize].alive.clone();
        self.objs[nobj as usize].alive = and2(&alive, &not(&null_result));
        Ok(SVal::ite(
            &null_result,
            &SVal::Ptr(SPtr::single(Target::Null)),
            &new,
        ))
    }

    /// `strdup(s)`: a block of chars holding the string `s` designates.
    fn strdup(&mut self, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let v = self.eval(&args[0], g)?;
        let alts = self.string_alts(&v, g)?;
        let Some(longest) = alts.iter().map(|a| a.3.len()).max() else {
            return Ok(SVal::Ptr(SPtr::single(Target::Null)));
        };
        let mut cells: Vec<SCell> = (0..longest)
            .map(|_| SCell {
                v: SVal::Int(SInt::constant(self.sem, IntKind::Char, 0)),
                init: ff(),
            })
            .collect();
        let mut len: Option<SInt> = None;
        for (ga, _, _, src) in alts.iter().rev() {
            let (l, found) = self.strlen_sym(src);
            self.check(&and2(g, ga), found);
            len = Some(match len {
                None => l.clone(),
                Some(prev) => SInt::ite(ga, &l, &prev),
            });
            for (c, s) in cells.iter_mut().zip(src) {
                *c = SCell {
                    v: SVal::ite(ga, &s.v, &c.v),
                    init: sym::ite_bool(ga, &s.init, &c.init),
                };
            }
        }
        let len = len.expect("one string").convert(IntKind::Long);
        let limit = self.add_off(&len, &self.long(1));
        let obj = self.alloc(cells, false);
        self.objs[obj as usize].heap = Some(Box::new(Heap {
            cap: longest as u64,
            bytes: Some(limit.convert(IntKind::ULong)),
            zero: false,
            elem: Some(faultline_ir::CHAR),
            limit: Some(limit),
            stack: false,
        }));
        Ok(self.ptr_to(obj, 0).v)
    }

    /// A returning function's variable-length arrays end.
    pub(super) fn release_allocas(&mut self, allocas: &[(Option<StmtId>, u32)]) {
        for &(_, o) in allocas {
            self.objs[o as usize].live = false;
        }
    }
}

/// The integer value of a numeral term.
fn numeral(t: &Dynamic) -> Option<u64> {
    if let Some(b) = t.as_bv() {
        return b.as_u64();
    }
    t.as_int().and_then(|i| i.as_i64()).map(|v| v.max(0) as u64)
}

/// The value of an offset's numeral (a `long`: a 64-bit vector read as
/// signed, or an integer).
pub(super) fn signed_numeral(t: &Dynamic) -> Option<i64> {
    if let Some(b) = t.as_bv() {
        return b.as_u64().map(|u| u as i64);
    }
    t.as_int().and_then(|i| i.as_i64())
}

/// The values an integer term can take as far as its structure shows:
/// numerals, both arms of an `ite`, and an operation applied to every
/// combination of its operands' values (at most `cap` in all). A relaxed
/// instance's fresh value (in `relaxed`) contributes no value but marks the
/// result partial (`true`): with nothing relaxed, the term's value is among
/// those found. `None`: unbounded (another free constant, too many values,
/// or more than `budget` nodes visited). A term whose values are in
/// `found` (from an earlier call of the same encoding: a term's values do
/// not change as relaxed instances are added, its own being made before
/// it) is not visited again; those found here are added.
pub(super) fn term_values(
    t: &Dynamic,
    cap: usize,
    budget: &mut usize,
    relaxed: &Relaxed,
    found: &mut Found,
) -> Option<(Vec<Dynamic>, bool)> {
    if let Some(v) = found.get(t) {
        return (v.0.len() <= cap).then(|| v.clone());
    }
    let v = visit(t, cap, budget, relaxed, found)?;
    found.insert(t.clone(), v.clone());
    Some(v)
}

/// A hash with a fixed seed, for sets and maps of terms: their terms are
/// released in the order of the hashes when they are dropped, and Z3 reuses
/// the ids of released terms for those made next, which orders its search;
/// a random order would make the solver's effort (and so the diagnoses
/// within an effort limit) vary from run to run.
type Fixed = std::hash::BuildHasherDefault<std::collections::hash_map::DefaultHasher>;

/// The fresh values of relaxed statement instances (`SymExec::relaxed_vars`).
pub(super) type Relaxed = std::collections::HashSet<Dynamic, Fixed>;

/// The values found so far of the terms [`term_values`] visited.
pub(super) type Found = HashMap<Dynamic, (Vec<Dynamic>, bool), Fixed>;

fn visit(
    t: &Dynamic,
    cap: usize,
    budget: &mut usize,
    relaxed: &Relaxed,
    found: &mut Found,
) -> Option<(Vec<Dynamic>, bool)> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    crate::limits::tick();
    if t.kind() == AstKind::Numeral {
        return Some((vec![t.clone()], false));
    }
    if relaxed.contains(t) {
        return Some((Vec::new(), true));
    }
    if !t.is_app() {
        return None;
    }
    let d = t.decl();
    let ch = t.children();
    if d.kind() == z3_sys::DeclKind::Ite && ch.len() == 3 {
        let (mut a, pa) = term_values(&ch[1], cap, budget, relaxed, found)?;
        let (b, pb) = term_values(&ch[2], cap, budget, relaxed, found)?;
        for x in b {
            if !a.contains(&x) {
                a.push(x);
            }
        }
        return (a.len() <= cap).then_some((a, pa || pb));
    }
    if ch.is_empty() || ch.iter().any(|c| c.sort_kind() == z3::SortKind::Bool) {
        return None;
    }
    let mut sets = Vec::with_capacity(ch.len());
    let mut partial = false;
    let mut product = 1usize;
    for c in &ch {
        let (v, p) = term_values(c, cap, budget, relaxed, found)?;
        partial |= p;
        product = product.saturating_mul(v.len());
        sets.push(v);
    }
    if product == 0 {
        // An operation on a relaxed value alone: no value known.
        return Some((Vec::new(), true));
    }
    if product > cap {
        return None;
    }
    let mut out: Vec<Dynamic> = Vec::new();
    let mut idx = vec![0usize; sets.len()];
    loop {
        let args: Vec<&Dynamic> = sets.iter().zip(&idx).map(|(s, &i)| &s[i]).collect();
        crate::limits::tick();
        let r = fold(t, d.kind(), &args).unwrap_or_else(|| {
            let refs: Vec<&dyn Ast> = args.iter().map(|a| *a as &dyn Ast).collect();
            crate::lift::simplified(&d.apply(&refs))
        });
        if r.kind() != AstKind::Numeral {
            return None;
        }
        if !out.contains(&r) {
            out.push(r);
        }
        // The next combination.
        let mut k = 0;
        loop {
            if k == idx.len() {
                return Some((out, partial));
            }
            idx[k] += 1;
            if idx[k] < sets[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
    }
}

/// Operation `kind` of term `t` applied to the numerals `args`, computed
/// here for the common integer operations (of bit-vectors up to 64 bits or
/// of unbounded integers that fit 64): Z3's simplifier, the fallback,
/// costs far more per call. `None`: not one of them, or out of range.
fn fold(t: &Dynamic, kind: z3_sys::DeclKind, args: &[&Dynamic]) -> Option<Dynamic> {
    use z3_sys::DeclKind as K;
    if let Some(bv) = t.as_bv() {
        let w = bv.get_size();
        if w > 64 || w == 0 {
            return None;
        }
        let mask = |v: u64| if w == 64 { v } else { v & ((1u64 << w) - 1) };
        let vals: Vec<(u64, u32)> = args
            .iter()
            .map(|a| a.as_bv().and_then(|b| Some((b.as_u64()?, b.get_size()))))
            .collect::<Option<_>>()?;
        let v = match (kind, vals.as_slice()) {
            (K::Badd, [(a, _), (b, _)]) => a.wrapping_add(*b),
            (K::Bsub, [(a, _), (b, _)]) => a.wrapping_sub(*b),
            (K::Bmul, [(a, _), (b, _)]) => a.wrapping_mul(*b),
            (K::Bneg, [(a, _)]) => a.wrapping_neg(),
            (K::ZeroExt, [(a, _)]) => *a,
            (K::SignExt, [(a, aw)]) if *aw >= 1 && *aw < 64 => {
                let shift = 64 - aw;
                (((*a << shift) as i64) >> shift) as u64
            }
            (K::SignExt, [(a, 64)]) => *a,
            _ => return None,
        };
        return Some(Dynamic::from_ast(&BV::from_u64(mask(v), w)));
    }
    if t.as_int().is_some() {
        let vals: Vec<i64> = args
            .iter()
            .map(|a| a.as_int().and_then(|i| i.as_i64()))
            .collect::<Option<_>>()?;
        let v = match (kind, vals.as_slice()) {
            (K::Add, [a, b]) => a.checked_add(*b)?,
            (K::Sub, [a, b]) => a.checked_sub(*b)?,
            (K::Mul, [a, b]) => a.checked_mul(*b)?,
            (K::Uminus, [a]) => a.checked_neg()?,
            _ => return None,
        };
        return Some(Dynamic::from_ast(&Int::from_i64(v)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Bool;

    /// The values `term_values` finds, as signed numbers in order.
    fn values(t: &Dynamic, found: &mut Found) -> Option<(Vec<i64>, bool)> {
        let mut budget = 300;
        let (vs, partial) = term_values(t, 64, &mut budget, &Relaxed::default(), found)?;
        let mut ks: Vec<i64> = vs.iter().map(|v| signed_numeral(v).unwrap()).collect();
        ks.sort_unstable();
        Some((ks, partial))
    }

    /// Operations computed on numerals here agree with Z3's simplifier:
    /// sign extension of a negative value, wrap-around, negation, and
    /// unbounded integers; an operation not computed here (a shift) falls
    /// back to the simplifier.
    #[test]
    fn values_through_ites_and_operations_agree_with_z3() {
        let c = Bool::new_const("c");
        let d = Bool::new_const("d");
        let bv = |v: i64| BV::from_i64(v, 32);
        let x = c.ite(&bv(-3), &d.ite(&bv(7), &bv(i32::MAX as i64)));
        // (long) x * 4 + 1, and x + 1 wrapping in 32 bits.
        let wide = x
            .sign_ext(32)
            .bvmul(BV::from_i64(4, 64))
            .bvadd(BV::from_i64(1, 64));
        let mut found = Found::default();
        assert_eq!(
            values(&Dynamic::from_ast(&wide), &mut found),
            Some((vec![-11, 29, (i32::MAX as i64) * 4 + 1], false))
        );
        let wrapped = x.bvadd(bv(1)).sign_ext(32);
        assert_eq!(
            values(&Dynamic::from_ast(&wrapped), &mut found),
            Some((vec![i32::MIN as i64, -2, 8], false))
        );
        // -x << 1: 6, -14, and -INT_MAX << 1 wrapping to 2.
        let neg = x.bvneg().bvshl(bv(1)).sign_ext(32);
        assert_eq!(
            values(&Dynamic::from_ast(&neg), &mut found),
            Some((vec![-14, 2, 6], false))
        );
        let i = c.ite(&Int::from_i64(-5), &Int::from_i64(6));
        let sum = Int::add(&[&i, &Int::from_i64(10)]) * Int::from_i64(-2);
        assert_eq!(
            values(&Dynamic::from_ast(&sum), &mut found),
            Some((vec![-32, -10], false))
        );
        // A free constant other than a relaxed value: unbounded.
        let free = BV::new_const("free", 32).bvadd(bv(1));
        assert_eq!(values(&Dynamic::from_ast(&free), &mut found), None);
    }
}
