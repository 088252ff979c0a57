//! Checks run in a forked child (`faultline_smt::forked`): their outcomes
//! and models come back, and a check Z3 does not stop is killed at its
//! bound.

use faultline_smt::forked::{self, Forked};
use std::time::{Duration, Instant};
use z3::ast::{Ast, Bool, Int, Real};
use z3::{Model, SatResult, Solver};

/// A formula of `tot_info` v17 in the cheaper theory (nonlinear real
/// arithmetic): Z3 4.8.12 ran it for ten minutes with a 30 s timeout
/// without deciding it.
const STALLS: &str = include_str!("data/nlsat_stall.smt2");

fn real(num: &str, den: &str) -> Real {
    Real::from_rational_str(num, den).unwrap()
}

#[test]
fn a_nonlinear_model_comes_back_as_the_values_of_the_constants() {
    let solver = Solver::new();
    let (x, y) = (Real::new_const("x"), Real::new_const("y"));
    solver.assert((&x * &y).eq(real("6", "1")));
    solver.assert((&x + &y).eq(real("5", "1")));
    solver.assert(x.lt(&y));
    let shape = forked::shape(&solver.get_assertions());
    assert!(shape.nonlinear_reals && !shape.other);
    let mut names: Vec<String> = shape.consts.iter().map(|c| c.to_string()).collect();
    names.sort();
    assert_eq!(names, ["x", "y"]);
    let Forked::Sat(values) = forked::check(&solver, &[], &shape.consts, Duration::from_secs(10)).0
    else {
        panic!("not sat");
    };
    let model = Model::new();
    for (c, v) in shape.consts.iter().zip(&values) {
        model.add_const_interp(&c.decl(), v);
    }
    let eval = |e: &Real| model.eval(e, true).unwrap().to_string();
    assert_eq!((eval(&x), eval(&y)), ("2.0".to_string(), "3.0".to_string()));
    assert_eq!(eval(&(&x * &y)), "6.0");
    // The parent's own solver was not used.
    assert_eq!(solver.check(), SatResult::Sat);
}

#[test]
fn a_nonlinear_contradiction_is_unsat_and_assumptions_hold() {
    let solver = Solver::new();
    let x = Real::new_const("x");
    let a = Bool::new_const("a");
    solver.assert(a.implies((&x * &x).eq(real("-1", "1"))));
    let shape = forked::shape(&solver.get_assertions());
    assert!(shape.nonlinear_reals);
    let bound = Duration::from_secs(10);
    assert!(matches!(
        forked::check(&solver, std::slice::from_ref(&a), &shape.consts, bound).0,
        Forked::Unsat
    ));
    assert!(matches!(
        forked::check(&solver, &[a.not()], &shape.consts, bound).0,
        Forked::Sat(_)
    ));
}

#[test]
fn linear_formulas_and_integer_products_are_not_nonlinear_reals() {
    let x = Real::new_const("x");
    let f = (&x * &real("3", "2")).eq(real("1", "1"));
    let g = (&x / &real("2", "1")).gt(real("0", "1"));
    assert!(!forked::shape(&[f, g]).nonlinear_reals);
    let (i, j) = (Int::new_const("i"), Int::new_const("j"));
    let h = (&i * &j).eq(Int::from_i64(6));
    let shape = forked::shape(&[h]);
    assert!(!shape.nonlinear_reals);
    assert_eq!(shape.consts.len(), 2);
}

#[test]
fn a_check_z3_does_not_stop_is_killed_at_its_bound() {
    let solver = Solver::new();
    solver.from_string(STALLS);
    let shape = forked::shape(&solver.get_assertions());
    assert!(shape.nonlinear_reals && !shape.other);
    let t0 = Instant::now();
    let (r, peak_kib) = forked::check(&solver, &[], &shape.consts, Duration::from_millis(500));
    assert!(matches!(r, Forked::Stalled));
    // The child ran (it was killed, and reaped).
    assert!(peak_kib > 0);
    assert!(t0.elapsed() < Duration::from_secs(5));
}

#[test]
fn an_irrational_value_comes_back_as_a_close_rational() {
    let solver = Solver::new();
    let x = Real::new_const("x");
    solver.assert((&x * &x).eq(real("2", "1")));
    solver.assert(x.gt(real("0", "1")));
    let shape = forked::shape(&solver.get_assertions());
    let Forked::Sat(values) = forked::check(&solver, &[], &shape.consts, Duration::from_secs(10)).0
    else {
        panic!("not sat");
    };
    let v = values[0].as_real().unwrap().approx_f64();
    assert_eq!(v, std::f64::consts::SQRT_2);
}
