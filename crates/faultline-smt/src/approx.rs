//! A cheaper theory for first answers: floating point as real arithmetic.
//!
//! Z3 bit-blasts a floating-point division, square root or product of a
//! free value into a circuit it rarely decides within the effort limit, and
//! likewise a wide bit-vector product or quotient of free values. The
//! engine's focused checks therefore first solve a formula in a cheaper
//! theory: the test encoded with unbounded integers
//! ([`crate::IntSemantics::Math`]) and its floating-point terms translated
//! here into reals ([`Reals`]): no rounding, no infinities or NaNs, a square
//! root as a non-negative `r` with `r * r = x`. Such a model is not a model
//! of the exact formula; [`pins`] turns it into the values of the relaxed
//! instances, which the engine then asserts on the exact formula: with them
//! fixed, everything folds to constants and the exact check is cheap, so a
//! diagnosis found this way is an exact one (or the exact check decides as
//! before).

use crate::instances::{InstValue, RelaxedInstance};
use crate::sym::{fp_const, SInt, SVal};
use std::collections::{HashMap, HashSet};
use z3::ast::{Ast, Bool, Dynamic, Float, Int, Real, BV};
use z3::{DeclKind, Model, SortKind};

/// Whether `formula` holds an operation Z3 decides slowly: floating-point
/// arithmetic on a value that is not a constant, or a product, quotient or
/// remainder of at least 32 bits whose operands are not constants (a
/// product: both of them).
pub fn expensive(formula: &[Bool]) -> bool {
    floating_operations(formula, 0).1
}

/// The floating-point operations on values that are not constants in
/// `formula`, counted up to `limit` (the count stops there), and whether it
/// holds any operation Z3 decides slowly ([`expensive`]).
pub fn floating_operations(formula: &[Bool], limit: usize) -> (usize, bool) {
    let mut count = 0;
    let mut any = false;
    let mut seen: HashSet<usize> = HashSet::new();
    let mut stack: Vec<Dynamic> = formula.iter().map(|b| Dynamic::from_ast(b)).collect();
    while let Some(e) = stack.pop() {
        if !seen.insert(e.get_z3_ast().as_ptr() as usize) || !e.is_app() {
            continue;
        }
        let args = e.children();
        let free = args
            .iter()
            .filter(|a| a.sort_kind() != SortKind::RoundingMode && !is_numeral(a))
            .count();
        let costly = match crate::kind::of(&e) {
            Some(
                DeclKind::FpaAdd
                | DeclKind::FpaSub
                | DeclKind::FpaMul
                | DeclKind::FpaDiv
                | DeclKind::FpaRem
                | DeclKind::FpaFma
                | DeclKind::FpaSqrt,
            ) if free > 0 => {
                count += 1;
                true
            }
            Some(DeclKind::Bmul) => free > 1 && bv_width(&e) >= 32,
            Some(
                DeclKind::Bsdiv
                | DeclKind::Budiv
                | DeclKind::Bsrem
                | DeclKind::Burem
                | DeclKind::Bsmod
                | DeclKind::BsdivI
                | DeclKind::BudivI
                | DeclKind::BsremI
                | DeclKind::BuremI
                | DeclKind::BsmodI,
            ) => free > 0 && bv_width(&e) >= 32,
            _ => false,
        };
        any |= costly;
        if any && count >= limit {
            break;
        }
        stack.extend(args);
    }
    (count, any)
}

/// The greatest nesting depth of `formula`'s terms (a constant's is 0),
/// counted up to `limit` (the count stops there).
pub fn depth(formula: &[Bool], limit: u32) -> u32 {
    let mut depth: HashMap<u32, u32> = HashMap::new();
    let mut max = 0;
    for root in formula {
        let mut stack = vec![(Dynamic::from_ast(root), false)];
        while let Some((e, expanded)) = stack.pop() {
            let id = id_of(&e);
            if depth.contains_key(&id) {
                continue;
            }
            let args = if e.is_app() { e.children() } else { Vec::new() };
            if expanded || args.is_empty() {
                let d = nested_over(&args, &depth);
                max = max.max(d);
                if max >= limit {
                    return limit;
                }
                depth.insert(id, d);
                continue;
            }
            stack.push((e, true));
            stack.extend(args.into_iter().map(|a| (a, false)));
        }
    }
    max
}

/// The nesting depth of a term over `args`, given theirs in `depth` (by
/// id; a term not there counts as a constant).
fn nested_over(args: &[Dynamic], depth: &HashMap<u32, u32>) -> u32 {
    args.iter()
        .map(|a| depth.get(&id_of(a)).copied().unwrap_or(0) + 1)
        .max()
        .unwrap_or(0)
}

/// Z3's id of term `e`.
fn id_of(e: &Dynamic) -> u32 {
    // SAFETY: `e` belongs to the thread's context.
    unsafe { z3_sys::Z3_get_ast_id(e.get_ctx().get_z3_context(), e.get_z3_ast()) }
}

/// Whether `e` is a numeral (of any sort).
pub(crate) fn is_numeral(e: &Dynamic) -> bool {
    matches!(
        crate::kind::of(e),
        Some(
            DeclKind::Bnum
                | DeclKind::FpaNum
                | DeclKind::FpaPlusZero
                | DeclKind::FpaMinusZero
                | DeclKind::FpaPlusInf
                | DeclKind::FpaMinusInf
                | DeclKind::FpaNan
                | DeclKind::Anum
        )
    )
}

fn bv_width(e: &Dynamic) -> u32 {
    e.as_bv().map_or(0, |b| b.get_size())
}

/// The translation of floating-point terms into real arithmetic, with the
/// side conditions it needs (divisors are not zero, square roots are roots).
/// Terms without floating point are kept; a term it cannot translate (a
/// reinterpretation of bits, an infinity, a remainder) makes the whole
/// translation fail.
#[derive(Default)]
pub struct Reals {
    /// Per translated term (by its id, the term kept alive here): its
    /// translation. Ordered: the terms are released in this order when the
    /// translation is dropped, and Z3 reuses released ids for the terms
    /// made next, which orders its search (an order by address or a random
    /// hash would make diagnoses vary from run to run).
    cache: std::collections::BTreeMap<u32, (Dynamic, Option<Dynamic>)>,
    /// Conditions the translated terms need.
    pub side: Vec<Bool>,
    /// While a deep formula is asserted ([`assert_reals`]): the nesting
    /// depth of each term made (by id), for terms nested deeper than
    /// [`NAMED_DEPTH`] to be named.
    naming: Option<HashMap<u32, u32>>,
}

/// The nesting depth from which [`assert_reals`] names the terms of a
/// formula. Z3 (4.8.12) configures a solver at its first check from the
/// static features of the formula asserted, collected up to three times; a
/// term nested deeper than 30 makes the collection walk the term's whole
/// subterm graph again, so that it grows with the square of the depth of an
/// unrolled loop's chains of values, and neither the effort limit nor an
/// interruption stops it. The course's `sieve` (focused formulas about
/// 2,000 deep) spent 0.8 to 1.2 s of each of its four hardest checks there
/// (half their time), and its time limit ran over by that much. A named
/// term is a fresh constant with an equation: the same models, and Z3
/// configures the solver as before, from the same features; but it
/// searches differently, and over the course benchmark more slowly where
/// the formulas were shallower (`tictactoe`, 600 deep: 1.0 s, 1.3 to 1.5 s
/// with every formula named).
pub const DEEP_FORMULA: u32 = 1_000;

/// The nesting depth beyond which a term of a [`DEEP_FORMULA`] is replaced
/// by a fresh constant defined equal to it: below the 30 of Z3's
/// collection.
const NAMED_DEPTH: u32 = 24;

impl Reals {
    pub fn new() -> Reals {
        Reals::default()
    }

    /// Whether some term was translated into a real (floating point).
    pub fn any_real(&self) -> bool {
        self.cache
            .values()
            .any(|(_, t)| t.as_ref().is_some_and(|t| t.sort_kind() == SortKind::Real))
    }

    /// `b` over reals, or `None` when some term has no translation.
    pub fn bool(&mut self, b: &Bool) -> Option<Bool> {
        self.tr(&Dynamic::from_ast(b))?.as_bool()
    }

    /// The real that floating-point term `f` stands for.
    pub fn real(&mut self, f: &Float) -> Option<Real> {
        self.tr(&Dynamic::from_ast(f))?.as_real()
    }

    fn tr(&mut self, e: &Dynamic) -> Option<Dynamic> {
        let key = id_of(e);
        if let Some((_, r)) = self.cache.get(&key) {
            return r.clone();
        }
        let mut r = self.translate(e);
        if self.naming.is_some() {
            r = r.map(|t| self.named(t));
        }
        self.cache.insert(key, (e.clone(), r.clone()));
        r
    }

    /// `t`, or a fresh constant defined equal to it (the definition among
    /// the side conditions) where `t` is nested deeper than
    /// [`NAMED_DEPTH`] over the names made so far (a term made inside the
    /// translation of another counts as a constant: the depth may be short
    /// by the few levels such terms add).
    fn named(&mut self, t: Dynamic) -> Dynamic {
        let depth = self.naming.as_mut().expect("naming");
        let d = nested_over(&t.children(), depth);
        let nameable = matches!(
            t.sort_kind(),
            SortKind::Bool | SortKind::Int | SortKind::Real | SortKind::Bv
        );
        if d <= NAMED_DEPTH || !nameable {
            depth.insert(id_of(&t), d);
            return t;
        }
        let k = Dynamic::fresh_const("deep", &t.get_sort());
        depth.insert(id_of(&k), 0);
        self.side.push(k.eq(&t));
        k
    }

    fn real_arg(&mut self, e: &Dynamic) -> Option<Real> {
        match e.sort_kind() {
            SortKind::FloatingPoint | SortKind::Real => self.tr(e)?.as_real(),
            _ => None,
        }
    }

    fn translate(&mut self, e: &Dynamic) -> Option<Dynamic> {
        let fp = e.sort_kind() == SortKind::FloatingPoint;
        if !e.is_app() {
            return (!fp).then(|| e.clone());
        }
        let args = e.children();
        // An uninterpreted symbol (a constant) matches no operation below.
        let kind = crate::kind::of(e).unwrap_or(DeclKind::Internal);
        let r = |x: Real| Some(Dynamic::from_ast(&x));
        let b = |x: Bool| Some(Dynamic::from_ast(&x));
        match kind {
            DeclKind::FpaNum | DeclKind::FpaPlusZero | DeclKind::FpaMinusZero => {
                let f = e.as_float()?;
                f.as_f64()
                    .is_finite()
                    .then(|| Dynamic::from_ast(&f.to_real().simplify()))
            }
            // Above every finite double.
            DeclKind::FpaPlusInf | DeclKind::FpaMinusInf => {
                let max = Float::from_f64(f64::MAX).to_real().simplify();
                let two = Real::from_int(&Int::from_i64(2));
                let big = Real::mul(&[&max, &two]);
                r(match kind {
                    DeclKind::FpaPlusInf => big,
                    _ => big.unary_minus(),
                })
            }
            DeclKind::FpaNan => None,
            _ if fp && args.is_empty() && !is_numeral(e) => r(Real::fresh_const("real")),
            DeclKind::FpaAdd | DeclKind::FpaSub | DeclKind::FpaMul | DeclKind::FpaDiv => {
                let x = self.real_arg(args.get(1)?)?;
                let y = self.real_arg(args.get(2)?)?;
                r(match kind {
                    DeclKind::FpaAdd => Real::add(&[&x, &y]),
                    DeclKind::FpaSub => Real::sub(&[&x, &y]),
                    DeclKind::FpaMul => Real::mul(&[&x, &y]),
                    _ => {
                        self.side
                            .push(y.eq(Real::from_int(&Int::from_i64(0))).not());
                        x.div(&y)
                    }
                })
            }
            DeclKind::FpaFma => {
                let x = self.real_arg(args.get(1)?)?;
                let y = self.real_arg(args.get(2)?)?;
                let z = self.real_arg(args.get(3)?)?;
                r(Real::add(&[&Real::mul(&[&x, &y]), &z]))
            }
            DeclKind::FpaNeg => r(self.real_arg(args.first()?)?.unary_minus()),
            DeclKind::FpaAbs => {
                let x = self.real_arg(args.first()?)?;
                let zero = Real::from_int(&Int::from_i64(0));
                r(x.ge(&zero).ite(&x, &x.unary_minus()))
            }
            DeclKind::FpaSqrt => {
                let x = self.real_arg(args.get(1)?)?;
                let root = Real::fresh_const("sqrt");
                let zero = Real::from_int(&Int::from_i64(0));
                self.side.push(x.ge(&zero));
                self.side.push(root.ge(&zero));
                self.side.push(Real::mul(&[&root, &root]).eq(&x));
                r(root)
            }
            DeclKind::FpaMin | DeclKind::FpaMax => {
                let x = self.real_arg(args.first()?)?;
                let y = self.real_arg(args.get(1)?)?;
                let first = match kind {
                    DeclKind::FpaMin => x.le(&y),
                    _ => x.ge(&y),
                };
                r(first.ite(&x, &y))
            }
            DeclKind::FpaEq
            | DeclKind::FpaLt
            | DeclKind::FpaGt
            | DeclKind::FpaLe
            | DeclKind::FpaGe => {
                let x = self.real_arg(args.first()?)?;
                let y = self.real_arg(args.get(1)?)?;
                b(match kind {
                    DeclKind::FpaEq => x.eq(&y),
                    DeclKind::FpaLt => x.lt(&y),
                    DeclKind::FpaGt => x.gt(&y),
                    DeclKind::FpaLe => x.le(&y),
                    _ => x.ge(&y),
                })
            }
            DeclKind::FpaIsNan | DeclKind::FpaIsInf | DeclKind::FpaIsSubnormal => {
                b(Bool::from_bool(false))
            }
            DeclKind::FpaIsZero
            | DeclKind::FpaIsNormal
            | DeclKind::FpaIsNegative
            | DeclKind::FpaIsPositive => {
                let x = self.real_arg(args.first()?)?;
                let zero = Real::from_int(&Int::from_i64(0));
                b(match kind {
                    DeclKind::FpaIsZero => x.eq(&zero),
                    DeclKind::FpaIsNormal => x.eq(&zero).not(),
                    DeclKind::FpaIsNegative => x.lt(&zero),
                    _ => x.gt(&zero),
                })
            }
            DeclKind::FpaToFp | DeclKind::FpaToFpUnsigned if args.len() == 2 => {
                let x = &args[1];
                match x.sort_kind() {
                    SortKind::FloatingPoint | SortKind::Real => r(self.real_arg(x)?),
                    SortKind::Bv => r(Real::from_int(&self.bv_int(x, kind == DeclKind::FpaToFp)?)),
                    _ => None,
                }
            }
            DeclKind::FpaToSbv | DeclKind::FpaToUbv => {
                let x = self.real_arg(args.get(1)?)?;
                let zero = Real::from_int(&Int::from_i64(0));
                // Toward zero, as C's conversion.
                let t = x
                    .ge(&zero)
                    .ite(&x.to_int(), &x.unary_minus().to_int().unary_minus());
                Some(Dynamic::from_ast(&BV::from_int(&t, bv_width(e))))
            }
            DeclKind::FpaToReal => r(self.real_arg(args.first()?)?),
            // Rounded toward zero (C's conversion to an integer type, whose
            // range check rounds so): truncation.
            DeclKind::FpaRoundToIntegral
                if crate::kind::of(args.first()?) == Some(DeclKind::FpaRmTowardZero) =>
            {
                let x = self.real_arg(args.get(1)?)?;
                let zero = Real::from_int(&Int::from_i64(0));
                let t = x.ge(&zero).ite(
                    &Real::from_int(&x.to_int()),
                    &Real::from_int(&x.unary_minus().to_int()).unary_minus(),
                );
                r(t)
            }
            DeclKind::Ite if fp => {
                let c = self.tr(args.first()?)?.as_bool()?;
                let x = self.real_arg(args.get(1)?)?;
                let y = self.real_arg(args.get(2)?)?;
                r(c.ite(&x, &y))
            }
            DeclKind::Eq | DeclKind::Distinct
                if args.first()?.sort_kind() == SortKind::FloatingPoint =>
            {
                let x = self.real_arg(args.first()?)?;
                let y = self.real_arg(args.get(1)?)?;
                b(match kind {
                    DeclKind::Eq => x.eq(&y),
                    _ => x.eq(&y).not(),
                })
            }
            _ if fp => None,
            // An equation between bit patterns of floating-point values
            // (`pow`'s neighbouring doubles) has no meaning over reals: it
            // is taken as false, so the real value is the other case's.
            DeclKind::Eq => self.rebuild(e, &args).or_else(|| b(Bool::from_bool(false))),
            _ => self.rebuild(e, &args),
        }
    }

    /// The integer a bit-vector stands for (its argument when it converts
    /// an integer, as the unbounded semantics does).
    fn bv_int(&mut self, x: &Dynamic, signed: bool) -> Option<Int> {
        if crate::kind::of(x) == Some(DeclKind::Int2bv) {
            if let Some(i) = self.tr(x.children().first()?)?.as_int() {
                return Some(i);
            }
        }
        Some(Int::from_bv(&self.tr(x)?.as_bv()?, signed))
    }

    /// `e` with its arguments translated (itself when none changed).
    fn rebuild(&mut self, e: &Dynamic, args: &[Dynamic]) -> Option<Dynamic> {
        let mut out = Vec::with_capacity(args.len());
        let mut changed = false;
        for a in args {
            if a.sort_kind() == SortKind::FloatingPoint {
                return None;
            }
            let t = self.tr(a)?;
            changed |= t.get_z3_ast() != a.get_z3_ast();
            out.push(t);
        }
        if !changed {
            return Some(e.clone());
        }
        let refs: Vec<&dyn Ast> = out.iter().map(|a| a as &dyn Ast).collect();
        Some(e.decl().apply(&refs))
    }
}

/// What the cheap model chose for one relaxed instance of the exact
/// formula, as a concrete value (for a re-execution) and as substitutions
/// of the exact formula's fresh values by constants (for a check).
pub struct Pinned {
    /// The index of the instance in the exact formula's relaxed instances.
    pub inst: usize,
    pub chosen: Chosen,
    pub pins: Vec<(Dynamic, Dynamic)>,
}

/// A concrete value a cheap model chose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Chosen {
    /// An integer, within its type.
    Int(i128),
    Float(f64),
    /// A condition's outcome.
    Branch(bool),
    /// A `break`/`continue`'s `leave` and `next`.
    Jump(bool, bool),
}

/// The values `model` (of the cheap formula, whose relaxed instances are
/// `cheap`) gives the relaxed instances of the exact formula (`exact`):
/// instances are matched by statement and context, in order; integers
/// outside their type and instances without a match are left out, outputs
/// too.
pub fn pinned(
    exact: &[RelaxedInstance],
    cheap: &[RelaxedInstance],
    model: &Model,
    reals: &mut Reals,
) -> Vec<Pinned> {
    let mut used = vec![false; cheap.len()];
    let mut out = Vec::new();
    let eval_bool = |b: &Bool| model.eval(b, true).and_then(|v| v.as_bool());
    let pin = |x: &Bool, v: bool| (Dynamic::from_ast(x), Dynamic::from_ast(&Bool::from_bool(v)));
    for (k, e) in exact.iter().enumerate() {
        let Some(i) = (0..cheap.len())
            .find(|&i| !used[i] && cheap[i].stmt == e.stmt && cheap[i].ctx == e.ctx)
        else {
            continue;
        };
        used[i] = true;
        let found = match (&e.value, &cheap[i].value) {
            (InstValue::Scalar { chosen: x, .. }, InstValue::Scalar { chosen: y, .. }) => {
                pin_scalar(x, y, model, reals).map(|(p, c)| (c, vec![p]))
            }
            (InstValue::Branch { chosen: x, .. }, InstValue::Branch { chosen: y, .. }) => {
                eval_bool(y).map(|v| (Chosen::Branch(v), vec![pin(x, v)]))
            }
            (
                InstValue::Jump { leave, next, .. },
                InstValue::Jump {
                    leave: l2,
                    next: n2,
                    ..
                },
            ) => match (eval_bool(l2), eval_bool(n2)) {
                (Some(l), Some(n)) => Some((Chosen::Jump(l, n), vec![pin(leave, l), pin(next, n)])),
                _ => None,
            },
            _ => None,
        };
        if let Some((chosen, pins)) = found {
            out.push(Pinned {
                inst: k,
                chosen,
                pins,
            });
        }
    }
    out
}

fn pin_scalar(
    exact: &SVal,
    cheap: &SVal,
    model: &Model,
    reals: &mut Reals,
) -> Option<((Dynamic, Dynamic), Chosen)> {
    match (exact, cheap) {
        (SVal::Int(x), SVal::Int(y)) => {
            let v = y.eval(model)?;
            let f = x.dynamic();
            (x.kind.value(x.kind.wrap(v)) == v).then(|| {
                (
                    (f, SInt::constant(x.sem(), x.kind, v).dynamic()),
                    Chosen::Int(v),
                )
            })
        }
        (SVal::Float(x), SVal::Float(y)) => {
            let r = reals.real(&y.t)?;
            let v = model.eval(&r, true)?.approx_f64();
            let f = Dynamic::from_ast(&x.t);
            v.is_finite().then(|| {
                (
                    (f, Dynamic::from_ast(&fp_const(x.kind, v))),
                    Chosen::Float(v),
                )
            })
        }
        _ => None,
    }
}

/// The assumptions to check a solver holding a translation
/// ([`assert_reals`]) under, the others being asserted: with reals, all of
/// them are asserted (the solver must be the check's alone), since under
/// assumptions Z3 (4.8.12) does not count the effort of nonlinear real
/// arithmetic and its effort limit would not hold (`tot_info` v5: 18 s on
/// one check limited to about a tenth of a second). Integer formulas keep
/// their assumptions, which the incremental solver decides faster (the
/// course's `sieve`: 6 s in all against 11 s asserted).
pub fn assumptions(solver: &z3::Solver, reals: &Reals, mut assumptions: Vec<Bool>) -> Vec<Bool> {
    if reals.any_real() {
        for a in assumptions.drain(..) {
            solver.assert(&a);
        }
    }
    assumptions
}

/// Asserts `formula` translated into reals (with its side conditions) into
/// `solver`: the translation, or `None` when some term could not be
/// translated. With `name_deep`, a formula nested [`DEEP_FORMULA`] deep or
/// more is asserted with its terms named beyond [`NAMED_DEPTH`]: for a
/// solver checked once, whose configuration at the first check would cost
/// about as much as the check. (A solver queried many times pays for it
/// once, and its search may do worse with the names: an IntroClass
/// `syllables` program's search for larger diagnoses reached the effort
/// limit on a query it answered in 1.2 s without them.)
pub fn assert_reals(formula: &[Bool], solver: &z3::Solver, name_deep: bool) -> Option<Reals> {
    let mut reals = Reals::new();
    if name_deep && depth(formula, DEEP_FORMULA) >= DEEP_FORMULA {
        reals.naming = Some(HashMap::new());
    }
    for a in formula {
        solver.assert(&reals.bool(a)?);
    }
    reals.naming = None;
    for s in &reals.side {
        solver.assert(s);
    }
    Some(reals)
}
