//! Symbolic C operations (`faultline_smt::sym`) on constants agree with the
//! interpreter's arithmetic (`faultline_exec::value`): same values (widths,
//! wrap-around, truncating division), and an undefined-behaviour side
//! condition that is false exactly where the interpreter reports an error
//! or signed overflow.

use faultline_exec::value::{self, Value};
use faultline_ir::{BinOp, CmpOp, IntKind, Type, UnOp};
use faultline_smt::sym::{self, SInt, SVal};
use faultline_smt::IntSemantics;
use z3::ast::Bool;
use z3::{Model, SatResult, Solver};

const KINDS: [IntKind; 5] = [
    IntKind::Char,
    IntKind::UShort,
    IntKind::Int,
    IntKind::UInt,
    IntKind::Long,
];

const OPS: [BinOp; 10] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Div,
    BinOp::Rem,
    BinOp::Shl,
    BinOp::Shr,
    BinOp::BitAnd,
    BinOp::BitOr,
    BinOp::BitXor,
];

fn samples(k: IntKind) -> Vec<i128> {
    let mut v = vec![0, 1, 2, 7, 31, 100, k.max(), k.max() - 1, k.min()];
    if k.signed() {
        v.extend([-1, -7, k.min() + 1]);
    }
    v.sort();
    v.dedup();
    v
}

/// A model of no constraints: evaluates constant terms.
fn empty_model() -> Model {
    let solver = Solver::new();
    assert_eq!(solver.check(), SatResult::Sat);
    solver.get_model().expect("a model")
}

fn holds(m: &Model, b: &Bool) -> bool {
    m.eval(b, true).and_then(|v| v.as_bool()).expect("constant")
}

fn int(k: IntKind, v: i128) -> SVal {
    SVal::Int(SInt::constant(IntSemantics::BitVector, k, v))
}

#[test]
fn binary_operations_agree_with_the_interpreter() {
    let m = empty_model();
    let mut checked = 0;
    for k in KINDS {
        let ty = Type::Int(k);
        for op in OPS {
            for &a in &samples(k) {
                for &b in &samples(k) {
                    let concrete =
                        value::binary(op, &ty, &ty, Value::Int(k.wrap(a)), Value::Int(k.wrap(b)));
                    let symbolic = sym::binary(op, &ty, &int(k, a), &int(k, b)).expect("encodes");
                    let safe = symbolic.safe.iter().all(|s| holds(&m, s));
                    let what = format!("{a} {op:?} {b} in {k:?}");
                    match concrete {
                        Ok(Value::Int(v)) => {
                            let SVal::Int(r) = &symbolic.v else {
                                panic!("{what}: not an integer")
                            };
                            assert_eq!(r.eval(&m), Some(k.value(v)), "{what}");
                            let exact = match op {
                                BinOp::Add => Some(a + b),
                                BinOp::Sub => Some(a - b),
                                BinOp::Mul => Some(a * b),
                                _ => None,
                            };
                            let overflows =
                                k.signed() && exact.is_some_and(|x| x < k.min() || x > k.max());
                            if !overflows && !matches!(op, BinOp::Shl) {
                                assert!(safe, "{what}: reported undefined");
                            }
                            if overflows {
                                assert!(!safe, "{what}: signed overflow not reported");
                            }
                        }
                        Ok(other) => panic!("{what}: {other:?}"),
                        Err(_) => assert!(!safe, "{what}: undefined behaviour not reported"),
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 3000);
}

#[test]
fn comparisons_and_negation_agree_with_the_interpreter() {
    let m = empty_model();
    for k in KINDS {
        let ty = Type::Int(k);
        for &a in &samples(k) {
            for op in [
                CmpOp::Eq,
                CmpOp::Ne,
                CmpOp::Lt,
                CmpOp::Le,
                CmpOp::Gt,
                CmpOp::Ge,
            ] {
                for &b in &samples(k) {
                    let Ok(Value::Int(c)) =
                        value::compare(op, &ty, Value::Int(k.wrap(a)), Value::Int(k.wrap(b)))
                    else {
                        panic!("compares")
                    };
                    let s = sym::compare(op, &int(k, a), &int(k, b)).expect("encodes");
                    assert_eq!(holds(&m, &s.v.1), c == 1, "{a} {op:?} {b} in {k:?}");
                }
            }
            let Ok(Value::Int(n)) = value::unary(UnOp::Neg, &ty, Value::Int(k.wrap(a))) else {
                panic!("negates")
            };
            let s = sym::unary(UnOp::Neg, &ty, &ty, &int(k, a)).expect("encodes");
            let SVal::Int(r) = &s.v else { panic!() };
            assert_eq!(r.eval(&m), Some(k.value(n)), "-{a} in {k:?}");
        }
    }
}

#[test]
fn conversions_wrap_like_the_interpreter() {
    let m = empty_model();
    for from in KINDS {
        for to in KINDS {
            for &a in &samples(from) {
                let Ok(Value::Int(c)) =
                    value::convert(Value::Int(from.wrap(a)), &Type::Int(from), &Type::Int(to))
                else {
                    panic!("converts")
                };
                let s =
                    sym::convert(&int(from, a), &Type::Int(from), &Type::Int(to)).expect("encodes");
                let SVal::Int(r) = &s.v else { panic!() };
                assert_eq!(r.eval(&m), Some(to.value(c)), "({to:?}){a}:{from:?}");
            }
        }
    }
}

/// A multiplication, a division or a floating-point operation on
/// if-then-else terms of values is computed per leaf: the result is an
/// if-then-else over the same condition with values as leaves (no
/// multiplier or divider for Z3 to bit-blast), and equivalent.
#[test]
fn expensive_operations_on_if_then_else_values_are_computed_per_leaf() {
    use faultline_ir::FloatKind;
    use faultline_smt::sym::SFloat;
    let c = Bool::new_const("c");
    let i = |v| SInt::constant(IntSemantics::BitVector, IntKind::Int, v);
    let x = SVal::Int(SInt::ite(&c, &i(2), &i(1)));
    for (op, at_true, at_false) in [(BinOp::Mul, 42, 21), (BinOp::Div, 0, 0), (BinOp::Rem, 2, 1)] {
        let r = sym::binary(op, &Type::Int(IntKind::Int), &x, &int(IntKind::Int, 21)).unwrap();
        let SVal::Int(v) = &r.v else { panic!("an int") };
        let text = v.dynamic().to_string();
        assert!(
            !text.contains("bvmul") && !text.contains("bvsdiv") && !text.contains("bvsrem"),
            "{op:?}: {text}"
        );
        for (cv, want) in [(true, at_true), (false, at_false)] {
            let s = Solver::new();
            s.assert(c.eq(Bool::from_bool(cv)));
            assert_eq!(s.check(), SatResult::Sat);
            let m = s.get_model().unwrap();
            assert_eq!(v.eval(&m), Some(want), "{op:?} with c = {cv}");
            for safe in &r.safe {
                assert!(holds(&m, safe), "{op:?}: {safe}");
            }
        }
    }
    let f = |v| SFloat {
        kind: FloatKind::Double,
        t: sym::fp_const(FloatKind::Double, v),
    };
    let y = SVal::Float(SFloat::ite(&c, &f(10.0), &f(4.0)));
    let r = sym::binary(
        BinOp::Div,
        &Type::Float(FloatKind::Double),
        &y,
        &SVal::Float(f(4.0)),
    )
    .unwrap();
    let SVal::Float(q) = &r.v else {
        panic!("a double")
    };
    assert!(!q.t.to_string().contains("fp.div"), "{}", q.t);
    // A comparison of values is a value: a condition the executor folds.
    let lt = sym::compare(CmpOp::Lt, &SVal::Float(f(2.0)), &SVal::Float(f(1.0))).unwrap();
    assert_eq!(lt.v.1.as_bool(), Some(false));
}

/// A product of two unknowns, each one of ten values (a 3x3 matrix's cell
/// whose index a relaxed loop counter chose), is computed per leaf in both
/// semantics: a multiplexer over the 100 products, not a multiplication
/// (nonlinear for Z3's integer arithmetic, a multiplier circuit on
/// bit-vectors), and equivalent.
#[test]
fn a_product_of_two_unknowns_of_a_few_values_each_is_computed_per_leaf() {
    for sem in [IntSemantics::Math, IntSemantics::BitVector] {
        let i = |v| SInt::constant(sem, IntKind::Int, v);
        let tree = |name: &str| {
            let mut t = i(0);
            for v in 1..10 {
                t = SInt::ite(&Bool::new_const(format!("{name}{v}")), &i(v), &t);
            }
            t
        };
        let (x, y) = (SVal::Int(tree("a")), SVal::Int(tree("b")));
        let r = sym::binary(BinOp::Mul, &Type::Int(IntKind::Int), &x, &y).unwrap();
        let SVal::Int(v) = &r.v else { panic!("an int") };
        let text = v.dynamic().to_string();
        assert!(
            !text.contains('*') && !text.contains("bvmul"),
            "{sem:?}: {text}"
        );
        let s = Solver::new();
        s.assert(Bool::new_const("a7"));
        s.assert(Bool::new_const("b9").not());
        s.assert(Bool::new_const("b8"));
        assert_eq!(s.check(), SatResult::Sat);
        let m = s.get_model().unwrap();
        // a is 9 or 7 (the first true condition from the outside), b is 8.
        let a = match m.eval(&Bool::new_const("a9"), true).unwrap().as_bool() {
            Some(true) => 9,
            _ => match m.eval(&Bool::new_const("a8"), true).unwrap().as_bool() {
                Some(true) => 8,
                _ => 7,
            },
        };
        assert_eq!(v.eval(&m), Some(a * 8), "{sem:?}");
    }
}

/// Converting an integer to its own kind is the term itself: a walk of its
/// if-then-else tree would rebuild it without its sharing (every printed
/// `%d` of a cell whose index a relaxed counter chose converted it).
#[test]
fn an_integer_converted_to_its_own_kind_is_itself() {
    let sem = IntSemantics::BitVector;
    let mut t = SInt::constant(sem, IntKind::Int, 0);
    for k in 0..20 {
        let (free, _) = SInt::fresh(sem, IntKind::Int, "v");
        t = SInt::ite(&Bool::new_const(format!("c{k}")), &free, &t);
    }
    assert!(t.convert(IntKind::Int).dynamic().ast_eq(t.dynamic()));
    assert!(!t.convert(IntKind::Long).dynamic().ast_eq(t.dynamic()));
}

/// The constants of an if-then-else tree whose branches are shared (a DAG
/// with 2^40 paths, as a loop's symbolic index builds) are found by
/// visiting each term once, and a walk that would visit too many terms
/// gives up instead of running on.
#[test]
fn known_leaves_of_a_shared_tree_visit_each_term_once() {
    let sem = IntSemantics::BitVector;
    let mut t = SInt::ite(
        &Bool::new_const("c"),
        &SInt::constant(sem, IntKind::Int, 1),
        &SInt::constant(sem, IntKind::Int, 2),
    );
    for k in 0..40 {
        let (free, _) = SInt::fresh(sem, IntKind::Int, "free");
        let inner = SInt::ite(&Bool::new_const(format!("d{k}")), &t, &free);
        t = SInt::ite(&Bool::new_const(format!("c{k}")), &t, &inner);
    }
    assert_eq!(t.known_leaves(16), Some(vec![1, 2]));
    // Every leaf unknown but two: `leaves` (no unknown leaf allowed) has no
    // answer.
    assert_eq!(t.leaves(16), None);
    // A wide tree of distinct terms: more than the walk's budget.
    let mut wide = SInt::constant(sem, IntKind::Int, 0);
    for k in 0..6000 {
        let (free, _) = SInt::fresh(sem, IntKind::Int, "w");
        wide = SInt::ite(&Bool::new_const(format!("w{k}")), &free, &wide);
    }
    assert_eq!(wide.known_leaves(16), None);
}

/// In math semantics, the few conversions that give bits whatever the
/// semantics (a double truncated to `int`, a pointer's truth value) meet
/// math integers in arithmetic, comparisons and choices: the bits are read
/// as the integer they denote (schedule2's focused checks in the cheaper
/// theory panicked on `int + (bits)`).
#[test]
fn bits_from_a_conversion_meet_math_integers() {
    use faultline_ir::FloatKind;
    use sym::FpEq;
    let sem = IntSemantics::Math;
    let int = Type::Int(IntKind::Int);
    let (d, _) = SVal::fresh(sem, &Type::Float(FloatKind::Double), "d").unwrap();
    let (n, _) = SVal::fresh(sem, &int, "n").unwrap();
    let t = sym::convert(&d, &Type::Float(FloatKind::Double), &int)
        .unwrap()
        .v;
    let sum = sym::binary(BinOp::Add, &int, &n, &t).unwrap().v;
    let diff = sym::binary(BinOp::Sub, &int, &t, &n).unwrap().v;
    let lt = sym::compare(CmpOp::Lt, &t, &n).unwrap().v.1;
    let (SVal::Int(sum), SVal::Int(diff), SVal::Int(ti), SVal::Int(ni)) = (&sum, &diff, &t, &n)
    else {
        panic!("integers")
    };
    let pick = SInt::ite(&lt, ti, ni);
    let solver = Solver::new();
    let SVal::Float(df) = &d else {
        panic!("a double")
    };
    solver.assert(df.t._eq_fp(&sym::fp_const(FloatKind::Double, -7.9)));
    solver.assert(ni.eq_const(5));
    assert_eq!(solver.check(), SatResult::Sat);
    let m = solver.get_model().unwrap();
    let val = |x: &SInt| m.eval(&x.dynamic(), true).unwrap().to_string();
    assert_eq!(val(sum), "(- 2)");
    assert_eq!(val(diff), "(- 12)");
    assert_eq!(val(&pick), "(- 7)");
}

/// In the cheaper theory (reals), a double converted to `int` is truncated
/// toward zero, range check included (its `fp.roundToIntegral` toward zero
/// was left untranslated, so every formula with such a conversion skipped
/// the cheaper theory: `n = n / 10.0` took seconds per exact check).
#[test]
fn a_double_truncated_to_int_translates_into_reals() {
    use faultline_ir::FloatKind;
    use sym::FpEq;
    let sem = IntSemantics::Math;
    let int = Type::Int(IntKind::Int);
    let (d, _) = SVal::fresh(sem, &Type::Float(FloatKind::Double), "d").unwrap();
    let (n, _) = SVal::fresh(sem, &int, "n").unwrap();
    let conv = sym::convert(&d, &Type::Float(FloatKind::Double), &int).unwrap();
    let (SVal::Float(df), SVal::Int(ti), SVal::Int(ni)) = (&d, &conv.v, &n) else {
        panic!("a double and integers")
    };
    let holds = |x: f64, k: i128| {
        let mut formula = conv.safe.clone();
        formula.push(df.t._eq_fp(&sym::fp_const(FloatKind::Double, x)));
        formula.push(ti.eq(ni));
        formula.push(ni.eq_const(k));
        let solver = Solver::new();
        faultline_smt::approx::assert_reals(&formula, &solver, false).expect("translated");
        solver.check() == SatResult::Sat
    };
    assert!(holds(-7.9, -7));
    assert!(!holds(-7.9, -8));
    assert!(holds(12.5, 12));
    assert!(!holds(12.5, 13));
    // Out of `int`'s range: undefined, so no value.
    assert!(!holds(3e10, 0));
}

/// A translated formula with nonlinear real arithmetic stops at the effort
/// limit: its relaxation is asserted, not assumed (under assumptions Z3
/// does not count this effort, and this check ran to the time limit).
#[test]
fn a_nonlinear_real_check_stops_at_its_effort_limit() {
    use faultline_ir::FloatKind;
    use z3::ast::{Float, RoundingMode};
    let rm = RoundingMode::round_nearest_ties_to_even();
    let a = Bool::new_const("a");
    let x: Vec<Float> = (0..12)
        .map(|i| Float::new_const_double(format!("x{i}")))
        .collect();
    let c = |v: f64| sym::fp_const(FloatKind::Double, v);
    let mut formula = Vec::new();
    for i in 0..12 {
        let (j, k) = ((i + 1) % 12, (i + 3) % 12);
        let lhs = x[i]
            .mul_with_rounding_mode(&x[j], &rm)
            .mul_with_rounding_mode(&x[k], &rm)
            .add_with_rounding_mode(c(3.0).mul_with_rounding_mode(&x[j], &rm), &rm);
        let rhs = c(2.5 + (i * 7 % 8) as f64);
        formula.push(a.implies(lhs.eq(&rhs)));
        let sq = x[i].mul_with_rounding_mode(&x[i], &rm);
        formula.push(a.implies(sq.gt(x[k].add_with_rounding_mode(c(1.0), &rm))));
    }
    let solver = Solver::new();
    let reals = faultline_smt::approx::assert_reals(&formula, &solver, false).expect("translated");
    let assumptions = faultline_smt::approx::assumptions(&solver, &reals, vec![a]);
    assert!(assumptions.is_empty(), "asserted");
    let mut p = z3::Params::new();
    p.set_u32("rlimit", 200_000);
    p.set_u32("timeout", 60_000);
    solver.set_params(&p);
    let r = solver.check_assumptions(&assumptions);
    let reason = solver.get_reason_unknown().unwrap_or_default();
    assert!(
        r == SatResult::Unknown && !reason.contains("timeout"),
        "{r:?} ({reason})"
    );
}

/// Floating-point operations on unknown values are counted (up to the
/// limit); those on constants are not.
#[test]
fn floating_operations_are_counted_up_to_the_limit() {
    use faultline_ir::FloatKind;
    use faultline_smt::approx::floating_operations;
    use z3::ast::{Float, RoundingMode};
    let rm = RoundingMode::round_nearest_ties_to_even();
    let c = |v: f64| sym::fp_const(FloatKind::Double, v);
    let x = Float::new_const_double("x");
    // x*2 + 1, then (x*2 + 1) * x: three operations on x, one on constants.
    let y = x
        .mul_with_rounding_mode(c(2.0), &rm)
        .add_with_rounding_mode(c(1.0), &rm);
    let z = y.mul_with_rounding_mode(&x, &rm);
    let k = c(3.0).add_with_rounding_mode(c(4.0), &rm);
    let formula = vec![z.gt(&k)];
    assert_eq!(floating_operations(&formula, 100), (3, true));
    assert_eq!(floating_operations(&formula, 2), (2, true));
    assert_eq!(floating_operations(&[k.gt(c(1.0))], 100), (0, false));
}

/// A formula nested at least `DEEP_FORMULA` deep (an unrolled loop's chain
/// of values) is asserted with its deep terms named: nothing in the solver
/// is nested deeper than Z3's feature collection handles in linear time,
/// and the models are the same (here: `x + 1 + ... + 1` is `x + n`, not
/// `x + n - 1`, and the model gives the chain its value). A shallower
/// formula is asserted as it is, and so is a deep one when names are not
/// asked for.
#[test]
fn a_deep_formula_is_asserted_with_its_deep_terms_named() {
    use faultline_smt::approx::{assert_reals, depth, DEEP_FORMULA};
    use z3::ast::Int;
    let x = Int::new_const("x");
    let chain = |n: u32| {
        let one = Int::from_i64(1);
        (0..n).fold(x.clone(), |t, _| Int::add(&[&t, &one]))
    };
    let deep = DEEP_FORMULA + 500;
    let holds = |n: u32, k: i64| {
        let t = chain(n);
        let formula = vec![
            t.eq(Int::add(&[&x, &Int::from_i64(k)])),
            x.ge(Int::from_i64(3)),
        ];
        assert!(depth(&formula, u32::MAX) > n);
        // Not named when not asked to be.
        let solver = Solver::new();
        assert_reals(&formula, &solver, false).expect("translated");
        assert!(depth(&solver.get_assertions(), u32::MAX) > n);
        let solver = Solver::new();
        assert_reals(&formula, &solver, true).expect("translated");
        let asserted = depth(&solver.get_assertions(), u32::MAX);
        let sat = solver.check() == SatResult::Sat;
        if sat {
            let m = solver.get_model().expect("a model");
            let at = |e: &Int| m.eval(e, true).and_then(|v| v.as_i64()).expect("a value");
            assert_eq!(at(&t), at(&x) + i64::from(n));
        }
        (sat, asserted)
    };
    let (sat, asserted) = holds(deep, i64::from(deep));
    assert!(sat);
    assert!(asserted <= 26, "nested {asserted} deep");
    let (sat, asserted) = holds(deep, i64::from(deep) - 1);
    assert!(!sat);
    assert!(asserted <= 26, "nested {asserted} deep");
    // Shallower: as it is.
    let (sat, asserted) = holds(100, 100);
    assert!(sat);
    assert!(asserted > 100);
}
