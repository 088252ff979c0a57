//! A localization that a limit stopped keeps its Z3 context past the end of
//! its thread (`limits::isolated`): deleting a context frees every term it
//! still holds, which took 3 s past a 20 s limit on Siemens `tot_info`
//! before the result could be reported. The context is deleted when asked
//! (`limits::release_parked`) or by the next isolated localization. Z3's
//! allocations are counted for the whole process, so this test has a test
//! binary of its own.

use faultline_exec::budget::{Budget, Exhausted};
use faultline_smt::limits;
use z3::ast::{Ast, BV};

extern "C" {
    fn Z3_get_estimated_alloc_size() -> u64;
}

/// Z3's allocations in the whole process, in MiB.
fn z3_mib() -> u64 {
    // SAFETY: reads a global counter.
    unsafe { Z3_get_estimated_alloc_size() >> 20 }
}

/// How the terms of a localization outlive it.
#[derive(Clone, Copy)]
enum Held {
    /// By a reference of Z3's own, as the terms Z3 keeps until its context
    /// is deleted.
    ByZ3,
    /// Kept from being released by `limits::release_later`, as a search
    /// stopped by a limit keeps its formula.
    Kept,
}

/// Runs an isolated localization (`exhausted`: its time limit already
/// reached) that leaves about 90 MiB of terms in its context, `held` so.
fn localization(exhausted: bool, held: Held) {
    let budget = Budget::unlimited();
    let _entered = budget.enter();
    if exhausted {
        budget.exhaust(Exhausted::Time);
    }
    let r = limits::isolated(|| {
        let x = BV::new_const("x", 32);
        let mut t = x.clone();
        for i in 0..50_000u64 {
            t = t.bvadd(BV::from_u64(i, 32)).bvmul(&x);
        }
        match held {
            // SAFETY: one more reference to a live term of the thread's
            // context; the context's deletion frees it.
            Held::ByZ3 => unsafe {
                z3_sys::Z3_inc_ref(t.get_ctx().get_z3_context(), t.get_z3_ast())
            },
            Held::Kept => limits::release_later(t),
        }
    });
    assert!(r.is_ok());
}

#[test]
fn a_context_a_limit_stopped_is_deleted_only_when_released() {
    let base = z3_mib();
    let near_base = || assert!(z3_mib() < base + 10, "{} MiB, {base} before", z3_mib());
    let kept = || assert!(z3_mib() > base + 30, "{} MiB, {base} before", z3_mib());
    // Within its limits, the context is deleted with its thread.
    localization(false, Held::ByZ3);
    near_base();
    for held in [Held::ByZ3, Held::Kept] {
        // Stopped by a limit, it is kept...
        localization(true, held);
        kept();
        // ...until released,
        limits::release_parked();
        near_base();
        // or until the next localization starts.
        localization(true, held);
        kept();
        localization(false, Held::ByZ3);
        near_base();
    }
}
