//! A solver check that reaches Z3's memory cap answers "unknown" without
//! reporting an error, and Z3 stays over its cap: the next allocation where
//! Z3 catches nothing (releasing the solver) used to end the process
//! (`terminate`, on Siemens `tot_info` v5). The check is a memory limit,
//! and the process goes on. Z3's cap is global to the process, so this test
//! has a test binary of its own.

use faultline_exec::budget::{Budget, Exhausted};
use faultline_smt::limits;
use z3::ast::BV;
use z3::{SatResult, Solver};

extern "C" {
    fn Z3_get_estimated_alloc_size() -> u64;
}

#[test]
fn a_check_at_z3_memory_cap_is_a_memory_limit() {
    let budget = Budget::unlimited();
    let _scope = limits::enter(&budget);
    // A product of sixteen 64-bit unknowns: bit-blasting it takes far more
    // than the few MiB left under the cap.
    let xs: Vec<BV> = (0..16)
        .map(|i| BV::new_const(format!("x{i}"), 64))
        .collect();
    let product = xs.iter().skip(1).fold(xs[0].clone(), |p, x| p.bvmul(x));
    let solver = Solver::new();
    solver.assert(product.eq(BV::from_u64(0x1234_5678_9abc_def1, 64)));
    for x in &xs {
        solver.assert(x.bvugt(BV::from_u64(1, 64)));
    }
    // SAFETY: a read of Z3's global allocation counter.
    let used = unsafe { Z3_get_estimated_alloc_size() } >> 20;
    limits::cap_z3_memory(used + 8);
    let r = limits::guard(|| solver.check()).expect("no failure reported");
    assert_eq!(r, SatResult::Unknown);
    assert_eq!(limits::failure().map(|f| f.memory), Some(true));
    assert_eq!(budget.exhausted(), Some(Exhausted::Memory));
    // Released without ending the process, and Z3 works again.
    drop(solver);
    let y = BV::new_const("y", 8);
    let s = Solver::new();
    s.assert(y.bvugt(BV::from_u64(3, 8)));
    assert_eq!(s.check(), SatResult::Sat);
}
