//! Symbolic values and C's operations on them, mirroring `faultline_exec::value`.
//!
//! Integers are bit-vectors of their type's width ([`IntSemantics::BitVector`],
//! exact C semantics) or unbounded mathematical integers
//! ([`IntSemantics::Math`], faster, an approximation: no wrap-around, and
//! conversions between integer types do not truncate). Operations return their
//! *safety conditions* beside the value: what must hold for the operation not
//! to be undefined behaviour (no division by zero, no signed overflow, shift
//! counts in range). The executor asserts them for non-relaxed statements.

use faultline_ir::{BinOp, CmpOp, FloatKind, IntKind, Stream, Type, UnOp};
use std::borrow::Cow;
use z3::ast::{Ast, Bool, Float, Int, BV};

/// How integers are encoded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum IntSemantics {
    /// Bit-vectors of the C width: exact.
    #[default]
    #[cfg_attr(
        feature = "clap",
        value(
            name = "bv",
            help = "32-bit (and other C widths) bit-vectors: exact C semantics"
        )
    )]
    BitVector,
    /// Unbounded integers: no wrap-around (an approximation, documented).
    #[cfg_attr(
        feature = "clap",
        value(help = "Unbounded integers: faster, approximate (no wrap-around)")
    )]
    Math,
}

/// An integer term.
#[derive(Clone, Debug)]
pub enum ITerm {
    Bv(BV),
    Math(Int),
}

/// A symbolic integer of a C integer kind.
#[derive(Clone, Debug)]
pub struct SInt {
    pub kind: IntKind,
    pub t: ITerm,
}

/// A symbolic floating value.
#[derive(Clone, Debug)]
pub struct SFloat {
    pub kind: FloatKind,
    pub t: Float,
}

/// Where a pointer may point.
#[derive(Clone, Debug)]
pub enum Target {
    Null,
    /// Object `obj` at cell offset `off` (a `long`).
    Obj {
        obj: u32,
        off: SInt,
    },
    /// A `FILE *`: one of the standard streams, or a file the program opened
    /// (numbered by the encoder, in the order of its `fopen` instances).
    Stream(Stream),
}

/// A symbolic pointer: alternatives guarded by mutually exclusive conditions
/// (their disjunction holds wherever the pointer is used).
#[derive(Clone, Debug)]
pub struct SPtr {
    pub alts: Vec<(Bool, Target)>,
}

#[derive(Clone, Debug)]
pub enum SVal {
    Int(SInt),
    Float(SFloat),
    Ptr(SPtr),
}

/// A value with the conditions under which computing it is defined.
pub struct Checked<T> {
    pub v: T,
    pub safe: Vec<Bool>,
}

impl<T> Checked<T> {
    pub fn ok(v: T) -> Checked<T> {
        Checked {
            v,
            safe: Vec::new(),
        }
    }
}

/// An operation the encoder cannot express.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

pub type SResult<T> = Result<T, Unsupported>;

pub fn tt() -> Bool {
    Bool::from_bool(true)
}
pub fn ff() -> Bool {
    Bool::from_bool(false)
}

/// Conjunction with constant folding.
pub fn and2(a: &Bool, b: &Bool) -> Bool {
    match (a.as_bool(), b.as_bool()) {
        (Some(false), _) | (_, Some(false)) => ff(),
        (Some(true), _) => b.clone(),
        (_, Some(true)) => a.clone(),
        _ => Bool::and(&[a, b]),
    }
}

/// Disjunction with constant folding.
pub fn or2(a: &Bool, b: &Bool) -> Bool {
    match (a.as_bool(), b.as_bool()) {
        (Some(true), _) | (_, Some(true)) => tt(),
        (Some(false), _) => b.clone(),
        (_, Some(false)) => a.clone(),
        _ => Bool::or(&[a, b]),
    }
}

pub fn not(a: &Bool) -> Bool {
    match a.as_bool() {
        Some(b) => Bool::from_bool(!b),
        None => a.not(),
    }
}

pub fn implies(a: &Bool, b: &Bool) -> Bool {
    match (a.as_bool(), b.as_bool()) {
        (Some(false), _) | (_, Some(true)) => tt(),
        (Some(true), _) => b.clone(),
        _ => a.implies(b),
    }
}

pub fn is_false(b: &Bool) -> bool {
    b.as_bool() == Some(false)
}

pub fn is_true(b: &Bool) -> bool {
    b.as_bool() == Some(true)
}

/// `if c then a else b` on Booleans, folded.
pub fn ite_bool(c: &Bool, a: &Bool, b: &Bool) -> Bool {
    match c.as_bool() {
        Some(true) => a.clone(),
        Some(false) => b.clone(),
        None => {
            if a.ast_eq(b) {
                a.clone()
            } else {
                c.ite(a, b)
            }
        }
    }
}

impl ITerm {
    fn ite(c: &Bool, a: &ITerm, b: &ITerm) -> ITerm {
        match (a, b) {
            (ITerm::Bv(x), ITerm::Bv(y)) => ITerm::Bv(match c.as_bool() {
                Some(true) => x.clone(),
                Some(false) => y.clone(),
                None if x.ast_eq(y) => x.clone(),
                None => c.ite(x, y),
            }),
            (ITerm::Math(x), ITerm::Math(y)) => ITerm::Math(match c.as_bool() {
                Some(true) => x.clone(),
                Some(false) => y.clone(),
                None if x.ast_eq(y) => x.clone(),
                None => c.ite(x, y),
            }),
            _ => unreachable!("integer terms of one semantics"),
        }
    }
}

impl SInt {
    pub fn constant(sem: IntSemantics, kind: IntKind, v: i128) -> SInt {
        let t = match sem {
            IntSemantics::BitVector => ITerm::Bv(BV::from_u64(
                kind.wrap(v) as u64 & mask(kind.bits()),
                kind.bits(),
            )),
            IntSemantics::Math => ITerm::Math(Int::from_i128(kind.value(kind.wrap(v)))),
        };
        SInt { kind, t }
    }

    /// `(c, a, b)` when the term is `ite(c, a, b)`.
    /// The term, untyped.
    pub fn dynamic(&self) -> z3::ast::Dynamic {
        match &self.t {
            ITerm::Bv(b) => z3::ast::Dynamic::from_ast(b),
            ITerm::Math(i) => z3::ast::Dynamic::from_ast(i),
        }
    }

    pub fn split_ite(&self) -> Option<(Bool, SInt, SInt)> {
        let dynamic = match &self.t {
            ITerm::Bv(b) => z3::ast::Dynamic::from_ast(b),
            ITerm::Math(i) => z3::ast::Dynamic::from_ast(i),
        };
        if crate::kind::of(&dynamic) != Some(z3_sys::DeclKind::Ite) {
            return None;
        }
        let ch = dynamic.children();
        let c = ch.first()?.as_bool()?;
        let (a, b) = match &self.t {
            ITerm::Bv(_) => (
                ITerm::Bv(ch.get(1)?.as_bv()?),
                ITerm::Bv(ch.get(2)?.as_bv()?),
            ),
            ITerm::Math(_) => (
                ITerm::Math(ch.get(1)?.as_int()?),
                ITerm::Math(ch.get(2)?.as_int()?),
            ),
        };
        Some((
            c,
            SInt {
                kind: self.kind,
                t: a,
            },
            SInt {
                kind: self.kind,
                t: b,
            },
        ))
    }

    /// The constants the term can take when it is a tree of if-then-else
    /// over constants (at most `cap` of them).
    pub fn leaves(&self, cap: usize) -> Option<Vec<i128>> {
        self.const_leaves(cap, false)
    }

    /// The constants among the leaves of the term's tree of if-then-else
    /// (at most `cap`), other leaves (unknown values: a relaxed statement's)
    /// left out.
    pub fn known_leaves(&self, cap: usize) -> Option<Vec<i128>> {
        self.const_leaves(cap, true)
    }

    /// The constant leaves of the term's if-then-else tree; a leaf that is
    /// no constant is skipped with `skip_unknown`, else there is no answer.
    ///
    /// The tree is a DAG (a branch shared by several paths): each term is
    /// visited once, and the walk gives up after a bounded number of terms,
    /// so a deep tree of shared branches costs at most that.
    fn const_leaves(&self, cap: usize, skip_unknown: bool) -> Option<Vec<i128>> {
        let mut out = Vec::new();
        let mut stack = vec![self.clone()];
        let mut seen: std::collections::HashSet<usize> = std::collections::HashSet::new();
        let budget = 64 * cap + 4096;
        while let Some(t) = stack.pop() {
            if !seen.insert(t.dynamic().get_z3_ast().as_ptr() as usize) {
                continue;
            }
            if seen.len() > budget {
                return None;
            }
            if let Some(c) = t.as_const() {
                if !out.contains(&c) {
                    out.push(c);
                }
            } else if let Some((_, a, b)) = t.split_ite() {
                stack.push(b);
                stack.push(a);
            } else if !skip_unknown {
                return None;
            }
            if out.len() > cap || stack.len() > 4 * cap {
                return None;
            }
        }
        Some(out)
    }

    /// A mathematical-integer constant (no wrap-around).
    pub fn constant_math(kind: IntKind, v: i128) -> SInt {
        SInt {
            kind,
            t: ITerm::Math(Int::from_i128(v)),
        }
    }

    pub fn fresh(sem: IntSemantics, kind: IntKind, prefix: &str) -> (SInt, Bool) {
        match sem {
            IntSemantics::BitVector => {
                let bv = BV::fresh_const(prefix, kind.bits());
                let range = if kind == IntKind::Bool {
                    bv.bvule(BV::from_u64(1, 8))
                } else {
                    tt()
                };
                (
                    SInt {
                        kind,
                        t: ITerm::Bv(bv),
                    },
                    range,
                )
            }
            IntSemantics::Math => {
                let i = Int::fresh_const(prefix);
                let range = Bool::and(&[
                    &i.ge(Int::from_i128(kind.min())),
                    &i.le(Int::from_i128(kind.max())),
                ]);
                (
                    SInt {
                        kind,
                        t: ITerm::Math(i),
                    },
                    range,
                )
            }
        }
    }

    pub fn sem(&self) -> IntSemantics {
        match self.t {
            ITerm::Bv(_) => IntSemantics::BitVector,
            ITerm::Math(_) => IntSemantics::Math,
        }
    }

    /// The integer with `f` applied to its term (keeping its sort).
    pub fn map_term(&self, f: &mut dyn FnMut(&z3::ast::Dynamic) -> z3::ast::Dynamic) -> SInt {
        if self.as_const().is_some() {
            return self.clone();
        }
        let t = match &self.t {
            ITerm::Bv(b) => f(&z3::ast::Dynamic::from_ast(b))
                .as_bv()
                .map_or_else(|| self.t.clone(), ITerm::Bv),
            ITerm::Math(i) => f(&z3::ast::Dynamic::from_ast(i))
                .as_int()
                .map_or_else(|| self.t.clone(), ITerm::Math),
        };
        SInt { kind: self.kind, t }
    }

    /// The concrete value, when the term is a numeral.
    pub fn as_const(&self) -> Option<i128> {
        match &self.t {
            ITerm::Bv(b) => {
                let u = b.as_u64()?;
                Some(self.kind.value(self.kind.wrap(if self.kind.signed() {
                    sign_extend(u, self.kind.bits()) as i128
                } else {
                    u as i128
                })))
            }
            ITerm::Math(i) => i.as_i128(),
        }
    }

    pub fn ite(c: &Bool, a: &SInt, b: &SInt) -> SInt {
        let (a, b) = unified(a, b);
        SInt {
            kind: a.kind,
            t: ITerm::ite(c, &a.t, &b.t),
        }
    }

    /// The term as a math integer (a bit-vector read in its kind's
    /// signedness).
    fn to_math(&self) -> SInt {
        match &self.t {
            ITerm::Bv(b) => SInt {
                kind: self.kind,
                t: ITerm::Math(Int::from_bv(b, self.kind.signed())),
            },
            ITerm::Math(_) => self.clone(),
        }
    }

    /// `self == other` (same kind).
    pub fn eq(&self, other: &SInt) -> Bool {
        if let (Some(a), Some(b)) = (self.as_const(), other.as_const()) {
            return Bool::from_bool(a == b);
        }
        let (x, y) = unified(self, other);
        match (&x.t, &y.t) {
            (ITerm::Bv(a), ITerm::Bv(b)) => a.eq(b),
            (ITerm::Math(a), ITerm::Math(b)) => a.eq(b),
            _ => unreachable!("integer terms of one semantics"),
        }
    }

    pub fn eq_const(&self, v: i128) -> Bool {
        self.eq(&SInt::constant(self.sem(), self.kind, v))
    }

    /// C truthiness: `!= 0`.
    pub fn truthy(&self) -> Bool {
        not(&self.eq_const(0))
    }

    fn cmp(&self, op: CmpOp, other: &SInt) -> Bool {
        if let (Some(a), Some(b)) = (self.as_const(), other.as_const()) {
            return Bool::from_bool(match op {
                CmpOp::Eq => a == b,
                CmpOp::Ne => a != b,
                CmpOp::Lt => a < b,
                CmpOp::Le => a <= b,
                CmpOp::Gt => a > b,
                CmpOp::Ge => a >= b,
            });
        }
        let signed = self.kind.signed();
        let (x, y) = unified(self, other);
        match (&x.t, &y.t) {
            (ITerm::Bv(a), ITerm::Bv(b)) => match (op, signed) {
                (CmpOp::Eq, _) => a.eq(b),
                (CmpOp::Ne, _) => a.eq(b).not(),
                (CmpOp::Lt, true) => a.bvslt(b),
                (CmpOp::Lt, false) => a.bvult(b),
                (CmpOp::Le, true) => a.bvsle(b),
                (CmpOp::Le, false) => a.bvule(b),
                (CmpOp::Gt, true) => a.bvsgt(b),
                (CmpOp::Gt, false) => a.bvugt(b),
                (CmpOp::Ge, true) => a.bvsge(b),
                (CmpOp::Ge, false) => a.bvuge(b),
            },
            (ITerm::Math(a), ITerm::Math(b)) => match op {
                CmpOp::Eq => a.eq(b),
                CmpOp::Ne => a.eq(b).not(),
                CmpOp::Lt => a.lt(b),
                CmpOp::Le => a.le(b),
                CmpOp::Gt => a.gt(b),
                CmpOp::Ge => a.ge(b),
            },
            _ => unreachable!("integer terms of one semantics"),
        }
    }

    /// The term as a bit-vector of the kind's width (wrapping math integers).
    fn bv(&self) -> BV {
        match &self.t {
            ITerm::Bv(b) => b.clone(),
            ITerm::Math(i) => BV::from_int(i, self.kind.bits()),
        }
    }

    fn with_bits(&self, kind: IntKind, b: BV) -> SInt {
        match self.t {
            ITerm::Bv(_) => SInt {
                kind,
                t: ITerm::Bv(b),
            },
            ITerm::Math(_) => SInt {
                kind,
                t: ITerm::Math(Int::from_bv(&b, kind.signed())),
            },
        }
    }

    /// Converts to another integer kind (C's conversion).
    pub fn convert(&self, to: IntKind) -> SInt {
        self.convert_depth(to, 8)
    }

    fn convert_depth(&self, to: IntKind, depth: u32) -> SInt {
        // Nothing to convert (walking the term's if-then-else tree would
        // rebuild it, without its sharing).
        if to == self.kind {
            return self.clone();
        }
        if let Some(c) = self.as_const() {
            return SInt::constant(self.sem(), to, c);
        }
        // Push conversions into if-then-else terms, so that a value that is
        // one of a few constants stays visibly so (see `leaves`).
        if depth > 0 {
            if let Some((c, a, b)) = self.split_ite() {
                let (x, y) = (
                    a.convert_depth(to, depth - 1),
                    b.convert_depth(to, depth - 1),
                );
                return SInt::ite(&c, &x, &y);
            }
        }
        if to == IntKind::Bool {
            let one = SInt::constant(self.sem(), IntKind::Bool, 1);
            let zero = SInt::constant(self.sem(), IntKind::Bool, 0);
            return SInt::ite(&self.truthy(), &one, &zero);
        }
        match &self.t {
            ITerm::Math(i) => SInt {
                kind: to,
                t: ITerm::Math(i.clone()),
            },
            ITerm::Bv(b) => {
                let (fw, tw) = (self.kind.bits(), to.bits());
                let nb = if tw == fw {
                    b.clone()
                } else if tw < fw {
                    b.extract(tw - 1, 0)
                } else if self.kind.signed() {
                    b.sign_ext(tw - fw)
                } else {
                    b.zero_ext(tw - fw)
                };
                SInt {
                    kind: to,
                    t: ITerm::Bv(nb),
                }
            }
        }
    }

    /// Evaluates the term in a model to a concrete value.
    pub fn eval(&self, m: &z3::Model) -> Option<i128> {
        match &self.t {
            ITerm::Bv(b) => {
                let u = m.eval(b, true)?.as_u64()?;
                Some(self.kind.value(self.kind.wrap(if self.kind.signed() {
                    sign_extend(u, self.kind.bits()) as i128
                } else {
                    u as i128
                })))
            }
            ITerm::Math(i) => m.eval(i, true)?.as_i128(),
        }
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn sign_extend(u: u64, bits: u32) -> i64 {
    if bits >= 64 {
        u as i64
    } else {
        let shift = 64 - bits;
        ((u << shift) as i64) >> shift
    }
}

/// Sorts and helpers for floating values.
pub fn fp_sort(k: FloatKind) -> z3::Sort {
    match k {
        FloatKind::Float => z3::Sort::float32(),
        FloatKind::Double => z3::Sort::double(),
    }
}

pub fn fp_const(k: FloatKind, v: f64) -> Float {
    match k {
        FloatKind::Float => Float::from_f32(v as f32),
        FloatKind::Double => Float::from_f64(v),
    }
}

fn rne() -> z3::ast::RoundingMode {
    z3::ast::RoundingMode::round_nearest_ties_to_even()
}

fn rtz() -> z3::ast::RoundingMode {
    z3::ast::RoundingMode::round_towards_zero()
}

/// Signed/unsigned bit-vector to floating point (`Z3_mk_fpa_to_fp_signed/unsigned`).
fn bv_to_fp(b: &BV, signed: bool, k: FloatKind) -> Float {
    let sort = fp_sort(k);
    let rm = rne();
    let ctx = b.get_ctx();
    // SAFETY: all three ASTs belong to the thread's context `ctx`; Z3 returns a
    // new AST of the floating sort, which `wrap` takes a reference to.
    unsafe {
        let raw = ctx.get_z3_context();
        let ast = if signed {
            z3_sys::Z3_mk_fpa_to_fp_signed(raw, rm.get_z3_ast(), b.get_z3_ast(), sort.get_z3_sort())
        } else {
            z3_sys::Z3_mk_fpa_to_fp_unsigned(
                raw,
                rm.get_z3_ast(),
                b.get_z3_ast(),
                sort.get_z3_sort(),
            )
        };
        Float::wrap(ctx, ast.expect("Z3 builds the conversion"))
    }
}

impl SFloat {
    pub fn ite(c: &Bool, a: &SFloat, b: &SFloat) -> SFloat {
        let t = match c.as_bool() {
            Some(true) => a.t.clone(),
            Some(false) => b.t.clone(),
            None => c.ite(&a.t, &b.t),
        };
        SFloat { kind: a.kind, t }
    }

    pub fn truthy(&self) -> Bool {
        crate::lift::lift_bool(&self.t.is_zero().not())
    }

    pub fn convert(&self, to: FloatKind) -> SFloat {
        if to == self.kind {
            return self.clone();
        }
        SFloat {
            kind: to,
            t: lifted(self.t.to_fp_with_rounding_mode(&rne(), &fp_sort(to)), |d| {
                d.as_float()
            }),
        }
    }

    /// Evaluates in a model.
    pub fn eval(&self, m: &z3::Model) -> Option<f64> {
        let v = m.eval(&self.t, true)?;
        let v = match self.kind {
            FloatKind::Float => v
                .to_fp_with_rounding_mode(&rne(), &z3::Sort::double())
                .simplify(),
            FloatKind::Double => v.simplify(),
        };
        let bits = v.to_ieee_bv().simplify().as_u64()?;
        Some(f64::from_bits(bits))
    }
}

impl SPtr {
    pub fn single(t: Target) -> SPtr {
        SPtr {
            alts: vec![(tt(), t)],
        }
    }

    pub fn ite(c: &Bool, a: &SPtr, b: &SPtr) -> SPtr {
        match c.as_bool() {
            Some(true) => return a.clone(),
            Some(false) => return b.clone(),
            None => {}
        }
        let mut alts: Vec<(Bool, Target)> = Vec::new();
        let nc = not(c);
        for (g, t) in &a.alts {
            push_alt(&mut alts, and2(c, g), t.clone());
        }
        for (g, t) in &b.alts {
            push_alt(&mut alts, and2(&nc, g), t.clone());
        }
        SPtr { alts }
    }

    /// Whether the pointer is non-null.
    pub fn truthy(&self) -> Bool {
        let mut r = ff();
        for (g, t) in &self.alts {
            if !matches!(t, Target::Null) {
                r = or2(&r, g);
            }
        }
        r
    }
}

/// Adds an alternative, merging it with an existing one for the same object.
fn push_alt(alts: &mut Vec<(Bool, Target)>, g: Bool, t: Target) {
    crate::limits::tick();
    if is_false(&g) {
        return;
    }
    for (g0, t0) in alts.iter_mut() {
        match (&*t0, &t) {
            (Target::Null, Target::Null) => {
                *g0 = or2(g0, &g);
                return;
            }
            (Target::Stream(a), Target::Stream(b)) if a == b => {
                *g0 = or2(g0, &g);
                return;
            }
            (Target::Obj { obj: a, off: oa }, Target::Obj { obj: b, off: ob }) if a == b => {
                let off = SInt::ite(&g, ob, oa);
                *t0 = Target::Obj { obj: *a, off };
                *g0 = or2(g0, &g);
                return;
            }
            _ => {}
        }
    }
    alts.push((g, t));
}

impl SVal {
    pub fn ite(c: &Bool, a: &SVal, b: &SVal) -> SVal {
        match c.as_bool() {
            Some(true) => return a.clone(),
            Some(false) => return b.clone(),
            None => {}
        }
        match (a, b) {
            (SVal::Int(x), SVal::Int(y)) if x.kind == y.kind => SVal::Int(SInt::ite(c, x, y)),
            (SVal::Float(x), SVal::Float(y)) if x.kind == y.kind => {
                SVal::Float(SFloat::ite(c, x, y))
            }
            (SVal::Ptr(x), SVal::Ptr(y)) => SVal::Ptr(SPtr::ite(c, x, y)),
            // Values of different shapes only meet where one side is a placeholder.
            _ => a.clone(),
        }
    }

    /// Whether the value is a single numeral (nothing to simplify).
    pub fn as_const_term(&self) -> bool {
        match self {
            SVal::Int(i) => i.as_const().is_some(),
            SVal::Float(f) => crate::lift::is_value_remembered(&z3::ast::Dynamic::from_ast(&f.t)),
            SVal::Ptr(p) => p.alts.len() == 1 && p.alts[0].0.as_bool().is_some(),
        }
    }

    /// The value with `f` applied to its terms (an integer's or a float's
    /// term; a pointer's guards and offsets), where `f` keeps the sort. An
    /// alternative of a pointer whose guard `f` makes false is dropped.
    pub fn map_terms(&self, f: &mut dyn FnMut(&z3::ast::Dynamic) -> z3::ast::Dynamic) -> SVal {
        match self {
            SVal::Int(i) => SVal::Int(i.map_term(f)),
            SVal::Float(x) => SVal::Float(SFloat {
                kind: x.kind,
                t: f(&z3::ast::Dynamic::from_ast(&x.t))
                    .as_float()
                    .unwrap_or_else(|| x.t.clone()),
            }),
            SVal::Ptr(p) => {
                let alts: Vec<(Bool, Target)> = p
                    .alts
                    .iter()
                    .filter_map(|(g, t)| {
                        let g2 = f(&z3::ast::Dynamic::from_ast(g))
                            .as_bool()
                            .unwrap_or_else(|| g.clone());
                        if is_false(&g2) {
                            return None;
                        }
                        let t2 = match t {
                            Target::Obj { obj, off } => Target::Obj {
                                obj: *obj,
                                off: off.map_term(f),
                            },
                            other => other.clone(),
                        };
                        Some((g2, t2))
                    })
                    .collect();
                match alts.is_empty() {
                    // Every alternative dropped: the read is under a false
                    // guard in effect; keep the value as it was.
                    true => self.clone(),
                    false => SVal::Ptr(SPtr { alts }),
                }
            }
        }
    }

    pub fn truthy(&self) -> Bool {
        match self {
            SVal::Int(i) => i.truthy(),
            SVal::Float(f) => f.truthy(),
            SVal::Ptr(p) => p.truthy(),
        }
    }

    pub fn as_int(&self) -> SResult<&SInt> {
        match self {
            SVal::Int(i) => Ok(i),
            _ => Err(Unsupported("expected an integer value".into())),
        }
    }

    /// The zero value of a scalar type.
    pub fn zero(sem: IntSemantics, t: &Type) -> SVal {
        match t {
            Type::Int(k) => SVal::Int(SInt::constant(sem, *k, 0)),
            Type::Float(k) => SVal::Float(SFloat {
                kind: *k,
                t: fp_const(*k, 0.0),
            }),
            _ => SVal::Ptr(SPtr::single(Target::Null)),
        }
    }

    /// A fresh unconstrained value of a scalar type, with its range condition.
    pub fn fresh(sem: IntSemantics, t: &Type, prefix: &str) -> SResult<(SVal, Bool)> {
        Ok(match t {
            Type::Int(k) => {
                let (v, r) = SInt::fresh(sem, *k, prefix);
                (SVal::Int(v), r)
            }
            Type::Float(k) => {
                let f = match k {
                    FloatKind::Float => Float::fresh_const_float32(prefix),
                    FloatKind::Double => Float::fresh_const_double(prefix),
                };
                (SVal::Float(SFloat { kind: *k, t: f }), tt())
            }
            _ => return Err(Unsupported(format!("a free value of type {t:?}"))),
        })
    }

    /// `self == other` (same type).
    pub fn eq(&self, other: &SVal) -> Bool {
        match (self, other) {
            (SVal::Int(a), SVal::Int(b)) => a.eq(b),
            (SVal::Float(a), SVal::Float(b)) => a.t._eq_fp(&b.t),
            _ => ff(),
        }
    }
}

fn bool_to_int(sem: IntSemantics, b: &Bool) -> SInt {
    let one = SInt::constant(sem, IntKind::Int, 1);
    let zero = SInt::constant(sem, IntKind::Int, 0);
    SInt::ite(b, &one, &zero)
}

/// A binary arithmetic operation in type `ty` (see `faultline_exec::value::binary`).
pub fn binary(op: BinOp, ty: &Type, a: &SVal, b: &SVal) -> SResult<Checked<SVal>> {
    match (ty, a, b) {
        (Type::Int(k), SVal::Int(x), SVal::Int(y)) => int_binary(op, *k, x, y).map(|c| Checked {
            v: SVal::Int(c.v),
            safe: c.safe,
        }),
        (Type::Float(k), SVal::Float(x), SVal::Float(y)) => {
            let rm = rne();
            let t = match op {
                BinOp::Add => x.t.add_with_rounding_mode(&y.t, &rm),
                BinOp::Sub => x.t.sub_with_rounding_mode(&y.t, &rm),
                BinOp::Mul => x.t.mul_with_rounding_mode(&y.t, &rm),
                BinOp::Div => x.t.div_with_rounding_mode(&y.t, &rm),
                _ => return Err(Unsupported(format!("{op:?} on floating values"))),
            };
            let t = lifted(t, |d| d.as_float());
            Ok(Checked::ok(SVal::Float(SFloat { kind: *k, t })))
        }
        _ => Err(Unsupported(format!("{op:?} on these operands"))),
    }
}

/// `t` computed on each combination of its operands' if-then-else leaves
/// when they are values (`crate::lift`), else `t`.
fn lifted<T: Ast>(t: T, back: impl Fn(z3::ast::Dynamic) -> Option<T>) -> T {
    lifted_within(t, crate::lift::LEAVES, back)
}

/// [`lifted`] with at most `leaves` leaves.
fn lifted_within<T: Ast>(t: T, leaves: usize, back: impl Fn(z3::ast::Dynamic) -> Option<T>) -> T {
    crate::lift::lift_within(&z3::ast::Dynamic::from_ast(&t), leaves)
        .and_then(back)
        .unwrap_or(t)
}

/// Whether a wider two's-complement value fits in `w` bits (its high bits are
/// the sign extension of bit `w - 1`). Used instead of Z3's
/// `bv*_no_overflow` predicates, which Z3 4.8 gets wrong for signed
/// multiplication with negative operands.
fn fits_signed(wide: &BV, w: u32) -> Bool {
    let narrow = wide.extract(w - 1, 0);
    wide.eq(narrow.sign_ext(wide.get_size() - w))
}

/// `x` and `y` in one semantics. A few conversions give bits whatever the
/// semantics (a float's truncation, a pointer's truth value); met with a
/// math integer, such a term is read as the math integer it denotes.
/// Borrowed unless converted: this is on every integer operation.
fn unified<'a>(x: &'a SInt, y: &'a SInt) -> (Cow<'a, SInt>, Cow<'a, SInt>) {
    match (&x.t, &y.t) {
        (ITerm::Bv(_), ITerm::Math(_)) => (Cow::Owned(x.to_math()), Cow::Borrowed(y)),
        (ITerm::Math(_), ITerm::Bv(_)) => (Cow::Borrowed(x), Cow::Owned(y.to_math())),
        _ => (Cow::Borrowed(x), Cow::Borrowed(y)),
    }
}

/// `x * n` in `x`'s kind, wrapping, with no overflow condition: an offset
/// scaled by a constant element size (the caller bounds the offset),
/// computed per leaf when `x` is an if-then-else tree of values.
pub fn scaled(x: &SInt, n: i128) -> SInt {
    let t = match &x.t {
        ITerm::Bv(b) => {
            let w = x.kind.bits();
            ITerm::Bv(lifted(b.bvmul(BV::from_i64(n as i64, w)), |d| d.as_bv()))
        }
        ITerm::Math(i) => ITerm::Math(lifted(i * Int::from_i64(n as i64), |d| d.as_int())),
    };
    SInt { kind: x.kind, t }
}

/// The most leaves of a lifted product or quotient of two unknown math
/// integers ([`crate::lift::lift_within`]): nonlinear otherwise, which Z3
/// decides far more slowly than a multiplexer of this size (a 3x3 matrix
/// product whose operands are each one of ten inputs: 100 leaves).
const NONLINEAR_LEAVES: usize = 256;

/// A product, quotient or remainder `t` of `x` and `y`, lifted
/// ([`lifted`]); with up to [`NONLINEAR_LEAVES`] leaves when neither
/// operand is a constant.
fn nonlinear<T: Ast>(t: T, x: &SInt, y: &SInt, back: impl Fn(z3::ast::Dynamic) -> Option<T>) -> T {
    let leaves = match x.as_const().is_some() || y.as_const().is_some() {
        true => crate::lift::LEAVES,
        false => NONLINEAR_LEAVES,
    };
    lifted_within(t, leaves, back)
}

fn int_binary(op: BinOp, k: IntKind, x: &SInt, y: &SInt) -> SResult<Checked<SInt>> {
    if let (Some(a), Some(b)) = (x.as_const(), y.as_const()) {
        return Ok(fold_binary(op, k, y.kind, a, b, x.sem()));
    }
    let (x, y) = unified(x, y);
    let (x, y) = (x.as_ref(), y.as_ref());
    let signed = k.signed();
    let mut safe = Vec::new();
    let t = match (&x.t, &y.t) {
        (ITerm::Bv(a), ITerm::Bv(b)) if !matches!(op, BinOp::Shl | BinOp::Shr) => {
            let r = match op {
                BinOp::Add => {
                    if signed {
                        safe.push(fits_signed(&a.sign_ext(1).bvadd(b.sign_ext(1)), k.bits()));
                    }
                    a.bvadd(b)
                }
                BinOp::Sub => {
                    if signed {
                        safe.push(fits_signed(&a.sign_ext(1).bvsub(b.sign_ext(1)), k.bits()));
                    }
                    a.bvsub(b)
                }
                BinOp::Mul => {
                    if signed {
                        let w = k.bits();
                        let fits = fits_signed(&a.sign_ext(w).bvmul(b.sign_ext(w)), w);
                        safe.push(nonlinear(fits, x, y, |d| d.as_bool()));
                    }
                    nonlinear(a.bvmul(b), x, y, |d| d.as_bv())
                }
                BinOp::Div | BinOp::Rem => {
                    safe.push(b.eq(BV::from_u64(0, k.bits())).not());
                    if signed {
                        let w = k.bits();
                        let min = BV::from_u64(1u64 << (w - 1), w);
                        let minus_one = BV::from_i64(-1, w);
                        safe.push(Bool::and(&[&a.eq(&min), &b.eq(&minus_one)]).not());
                    }
                    let r = match (op, signed) {
                        (BinOp::Div, true) => a.bvsdiv(b),
                        (BinOp::Div, false) => a.bvudiv(b),
                        (_, true) => a.bvsrem(b),
                        (_, false) => a.bvurem(b),
                    };
                    nonlinear(r, x, y, |d| d.as_bv())
                }
                BinOp::BitAnd => a.bvand(b),
                BinOp::BitOr => a.bvor(b),
                BinOp::BitXor => a.bvxor(b),
                BinOp::Shl | BinOp::Shr => unreachable!("handled below"),
            };
            ITerm::Bv(r)
        }
        (ITerm::Math(a), ITerm::Math(b))
            if matches!(
                op,
                BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem
            ) =>
        {
            let r = match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a * b,
                _ => {
                    safe.push(b.eq(Int::from_i64(0)).not());
                    // C truncates toward zero; SMT-LIB's div/mod are Euclidean.
                    let zero = Int::from_i64(0);
                    let aa = a.ge(&zero).ite(a, &(-a));
                    let bb = b.ge(&zero).ite(b, &(-b));
                    let q = aa.div(&bb);
                    let same_sign = a.ge(&zero).eq(b.ge(&zero));
                    let quot = same_sign.ite(&q, &(-&q));
                    if op == BinOp::Div {
                        quot
                    } else {
                        a - &(b * &quot)
                    }
                }
            };
            // A product or quotient of if-then-else terms over values is
            // nonlinear for Z3's integer arithmetic: computed per leaf, it
            // is a multiplexer over numerals (as on bit-vectors).
            let r = match op {
                BinOp::Add | BinOp::Sub => r,
                _ => nonlinear(r, x, y, |d| d.as_int()),
            };
            ITerm::Math(r)
        }
        _ => {
            // Shifts (both semantics) and bitwise operations on math integers
            // go through bit-vectors of the kind's width.
            let a = x.bv();
            let w = k.bits();
            let r = match op {
                BinOp::Shl | BinOp::Shr => {
                    let count = y.convert(if y.kind.signed() {
                        IntKind::Long
                    } else {
                        IntKind::ULong
                    });
                    let c64 = count.bv();
                    safe.push(c64.bvult(BV::from_u64(w as u64, 64)));
                    if y.kind.signed() {
                        safe.push(c64.bvsge(BV::from_i64(0, 64)));
                    }
                    let c = c64.extract(w - 1, 0);
                    match (op, signed) {
                        (BinOp::Shl, _) => a.bvshl(&c),
                        (_, true) => a.bvashr(&c),
                        (_, false) => a.bvlshr(&c),
                    }
                }
                BinOp::BitAnd => a.bvand(y.bv()),
                BinOp::BitOr => a.bvor(y.bv()),
                BinOp::BitXor => a.bvxor(y.bv()),
                _ => unreachable!("arithmetic handled above"),
            };
            return Ok(Checked {
                v: x.with_bits(k, r),
                safe,
            });
        }
    };
    Ok(Checked {
        v: SInt { kind: k, t },
        safe,
    })
}

/// Folds an operation on two constants with the interpreter's arithmetic;
/// undefined behaviour (division by zero, signed overflow, bad shift) becomes
/// a false safety condition.
fn fold_binary(
    op: BinOp,
    k: IntKind,
    rk: IntKind,
    a: i128,
    b: i128,
    sem: IntSemantics,
) -> Checked<SInt> {
    use faultline_exec::value::{self, Value};
    let (va, vb) = (Value::Int(k.wrap(a)), Value::Int(rk.wrap(b)));
    let mut safe = Vec::new();
    let v = match value::binary(op, &Type::Int(k), &Type::Int(rk), va, vb) {
        Ok(Value::Int(r)) => k.value(r),
        _ => {
            safe.push(Bool::from_bool(false));
            0
        }
    };
    if sem == IntSemantics::BitVector
        && k.signed()
        && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul)
    {
        let exact = match op {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            _ => a.saturating_mul(b),
        };
        if exact < k.min() || exact > k.max() {
            safe.push(Bool::from_bool(false));
        }
    }
    if sem == IntSemantics::Math && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
        let exact = match op {
            BinOp::Add => a + b,
            BinOp::Sub => a - b,
            _ => a.saturating_mul(b),
        };
        return Checked {
            v: SInt::constant_math(k, exact),
            safe,
        };
    }
    Checked {
        v: SInt::constant(sem, k, v),
        safe,
    }
}

pub fn unary(op: UnOp, ty: &Type, operand_ty: &Type, a: &SVal) -> SResult<Checked<SVal>> {
    if let (UnOp::Neg | UnOp::BitNot, Type::Int(k), SVal::Int(x)) = (op, ty, a) {
        if let Some(c) = x.as_const() {
            let r = if op == UnOp::Neg { -c } else { !c };
            let mut safe = Vec::new();
            if op == UnOp::Neg && k.signed() && x.sem() == IntSemantics::BitVector && r > k.max() {
                safe.push(Bool::from_bool(false));
            }
            return Ok(Checked {
                v: SVal::Int(SInt::constant(x.sem(), *k, r)),
                safe,
            });
        }
    }
    let _ = operand_ty;
    match (op, ty, a) {
        (UnOp::Not, _, v) => {
            let sem = match v {
                SVal::Int(i) => i.sem(),
                _ => IntSemantics::BitVector,
            };
            Ok(Checked::ok(SVal::Int(bool_to_int(sem, &not(&v.truthy())))))
        }
        (UnOp::Neg, Type::Int(k), SVal::Int(x)) => {
            let mut safe = Vec::new();
            let t = match &x.t {
                ITerm::Bv(b) => {
                    if k.signed() {
                        safe.push(fits_signed(&b.sign_ext(1).bvneg(), k.bits()));
                    }
                    ITerm::Bv(b.bvneg())
                }
                ITerm::Math(i) => ITerm::Math(-i),
            };
            Ok(Checked {
                v: SVal::Int(SInt { kind: *k, t }),
                safe,
            })
        }
        (UnOp::BitNot, Type::Int(k), SVal::Int(x)) => {
            Ok(Checked::ok(SVal::Int(x.with_bits(*k, x.bv().bvnot()))))
        }
        (UnOp::Neg, Type::Float(k), SVal::Float(x)) => Ok(Checked::ok(SVal::Float(SFloat {
            kind: *k,
            t: lifted(-&x.t, |d| d.as_float()),
        }))),
        _ => Err(Unsupported(format!("{op:?} on {ty:?}"))),
    }
}

/// A comparison; the result is an `int` 0/1, returned with the Boolean it encodes.
pub fn compare(op: CmpOp, a: &SVal, b: &SVal) -> SResult<Checked<(SVal, Bool)>> {
    let (c, safe) = match (a, b) {
        (SVal::Int(x), SVal::Int(y)) => (x.cmp(op, y), Vec::new()),
        (SVal::Float(x), SVal::Float(y)) => {
            let c = match op {
                CmpOp::Eq => x.t._eq_fp(&y.t),
                CmpOp::Ne => x.t._eq_fp(&y.t).not(),
                CmpOp::Lt => x.t.lt(&y.t),
                CmpOp::Le => x.t.le(&y.t),
                CmpOp::Gt => x.t.gt(&y.t),
                CmpOp::Ge => x.t.ge(&y.t),
            };
            (crate::lift::lift_bool(&c), Vec::new())
        }
        (SVal::Ptr(p), SVal::Ptr(q)) => ptr_compare(op, p, q)?,
        _ => {
            return Err(Unsupported(
                "comparison of values of different kinds".into(),
            ))
        }
    };
    let sem = match a {
        SVal::Int(i) => i.sem(),
        _ => IntSemantics::BitVector,
    };
    Ok(Checked {
        v: (SVal::Int(bool_to_int(sem, &c)), c),
        safe,
    })
}

fn ptr_compare(op: CmpOp, p: &SPtr, q: &SPtr) -> SResult<(Bool, Vec<Bool>)> {
    // Equality: same target (null with null, or same object and offset).
    // Relational: defined only within one object.
    let mut eq = ff();
    let mut rel = ff();
    let mut same_obj = ff();
    for (g1, t1) in &p.alts {
        for (g2, t2) in &q.alts {
            let g = and2(g1, g2);
            match (t1, t2) {
                (Target::Null, Target::Null) => {
                    eq = or2(&eq, &g);
                    same_obj = or2(&same_obj, &g);
                    if matches!(op, CmpOp::Le | CmpOp::Ge) {
                        rel = or2(&rel, &g);
                    }
                }
                (Target::Stream(a), Target::Stream(b)) if a == b => {
                    eq = or2(&eq, &g);
                    same_obj = or2(&same_obj, &g);
                    if matches!(op, CmpOp::Le | CmpOp::Ge) {
                        rel = or2(&rel, &g);
                    }
                }
                (Target::Obj { obj: a, off: x }, Target::Obj { obj: b, off: y }) if a == b => {
                    eq = or2(&eq, &and2(&g, &x.cmp(CmpOp::Eq, y)));
                    same_obj = or2(&same_obj, &g);
                    if !matches!(op, CmpOp::Eq | CmpOp::Ne) {
                        rel = or2(&rel, &and2(&g, &x.cmp(op, y)));
                    }
                }
                _ => {}
            }
        }
    }
    Ok(match op {
        CmpOp::Eq => (eq, Vec::new()),
        CmpOp::Ne => (not(&eq), Vec::new()),
        _ => (rel, vec![same_obj]),
    })
}

/// C's conversion from `from` to `to` (see `faultline_exec::value::convert`).
pub fn convert(v: &SVal, from: &Type, to: &Type) -> SResult<Checked<SVal>> {
    Ok(match (v, from, to) {
        (_, _, Type::Void) => Checked::ok(v.clone()),
        (SVal::Int(i), Type::Int(_), Type::Int(tk)) => Checked::ok(SVal::Int(i.convert(*tk))),
        (SVal::Int(i), Type::Int(fk), Type::Float(tk)) => {
            let t = match &i.t {
                ITerm::Bv(b) => bv_to_fp(b, fk.signed(), *tk),
                ITerm::Math(m) => bv_to_fp(&BV::from_int(m, 64), true, *tk),
            };
            let t = lifted(t, |d| d.as_float());
            Checked::ok(SVal::Float(SFloat { kind: *tk, t }))
        }
        (SVal::Float(f), Type::Float(_), Type::Int(tk)) => {
            if *tk == IntKind::Bool {
                let sem = IntSemantics::BitVector;
                return Ok(Checked::ok(SVal::Int(SInt::ite(
                    &f.truthy(),
                    &SInt::constant(sem, IntKind::Bool, 1),
                    &SInt::constant(sem, IntKind::Bool, 0),
                ))));
            }
            // Truncation; out-of-range values are undefined behaviour.
            let w = tk.bits();
            let bv = if tk.signed() {
                f.t.to_sbv_with_rounding_mode(&rtz(), w)
            } else {
                f.t.to_ubv_with_rounding_mode(&rtz(), w)
            };
            let r = f.t.round_to_integral_with_rounding_mode(&rtz());
            let lo = fp_const(f.kind, tk.min() as f64 - 1.0);
            let hi = fp_const(f.kind, tk.max() as f64 + 1.0);
            let safe = vec![crate::lift::lift_bool(&Bool::and(&[
                &r.gt(&lo),
                &r.lt(&hi),
            ]))];
            Checked {
                v: SVal::Int(SInt {
                    kind: *tk,
                    t: ITerm::Bv(lifted(bv, |d| d.as_bv())),
                }),
                safe,
            }
        }
        (SVal::Float(f), Type::Float(_), Type::Float(tk)) => {
            Checked::ok(SVal::Float(f.convert(*tk)))
        }
        (SVal::Ptr(_), Type::Ptr(_) | Type::Array(..), Type::Ptr(_)) => Checked::ok(v.clone()),
        (SVal::Ptr(p), Type::Ptr(_), Type::Int(IntKind::Bool)) => {
            let sem = IntSemantics::BitVector;
            Checked::ok(SVal::Int(SInt::ite(
                &p.truthy(),
                &SInt::constant(sem, IntKind::Bool, 1),
                &SInt::constant(sem, IntKind::Bool, 0),
            )))
        }
        (SVal::Int(i), Type::Int(_), Type::Ptr(_)) => match i.as_const() {
            Some(0) => Checked::ok(SVal::Ptr(SPtr::single(Target::Null))),
            _ => return Err(Unsupported("conversion of an integer to a pointer".into())),
        },
        (SVal::Ptr(_), Type::Stream | Type::Ptr(_), Type::Stream | Type::Ptr(_)) => {
            Checked::ok(v.clone())
        }
        (SVal::Ptr(p), Type::Stream, Type::Int(IntKind::Bool)) => {
            let sem = IntSemantics::BitVector;
            Checked::ok(SVal::Int(SInt::ite(
                &p.truthy(),
                &SInt::constant(sem, IntKind::Bool, 1),
                &SInt::constant(sem, IntKind::Bool, 0),
            )))
        }
        (SVal::Int(i), Type::Int(_), Type::Stream) => match i.as_const() {
            Some(0) => Checked::ok(SVal::Ptr(SPtr::single(Target::Null))),
            _ => return Err(Unsupported("conversion of an integer to a FILE *".into())),
        },
        (SVal::Ptr(_), _, Type::Int(_)) => {
            return Err(Unsupported(
                "conversion of a pointer to an integer is not encoded".into(),
            ))
        }
        _ => return Err(Unsupported(format!("conversion from {from:?} to {to:?}"))),
    })
}

/// IEEE equality of floating values (`fp.eq`: NaN is unequal to itself, -0 equals +0).
pub trait FpEq {
    fn _eq_fp(&self, other: &Float) -> Bool;
}

impl FpEq for Float {
    fn _eq_fp(&self, other: &Float) -> Bool {
        let ctx = self.get_ctx();
        // SAFETY: both ASTs belong to the thread's context.
        unsafe {
            let ast =
                z3_sys::Z3_mk_fpa_eq(ctx.get_z3_context(), self.get_z3_ast(), other.get_z3_ast());
            Bool::wrap(ctx, ast.expect("Z3 builds fp.eq"))
        }
    }
}

/// `fabs`.
pub fn fp_abs(x: &Float) -> Float {
    let ctx = x.get_ctx();
    // SAFETY: the AST belongs to the thread's context.
    unsafe {
        let ast = z3_sys::Z3_mk_fpa_abs(ctx.get_z3_context(), x.get_z3_ast());
        Float::wrap(ctx, ast.expect("Z3 builds fp.abs"))
    }
}
