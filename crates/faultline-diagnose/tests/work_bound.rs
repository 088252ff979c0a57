//! The work bound of a focused formula (`FOCUSED_WORK_MIN`,
//! `FOCUSED_WORK_PER_STEP`): a statement whose relaxed value makes a loop
//! nest unknown that its test's run never entered is left undecided once
//! the formula reaches the bound, and the bound is spent once: a formula
//! that outgrows it in the cheaper theory is not encoded again exactly
//! (it spans the same paths).

mod common;

use common::*;
use faultline_diagnose::engine::{Check, Engine, Verdict, FOCUSED_WORK_MIN};
use faultline_diagnose::Options;
use faultline_smt::Encoding;
use std::collections::BTreeSet;

/// `m = 0` runs for a negative `n` only, where the loops that follow run
/// no iteration; relaxed, `m` makes the three nested loops unknown up to
/// the 30 iterations each the other failing run needed.
const SRC: &str = r#"#include <stdio.h>

int main(void) {
    int n, m, i, j, k, s = 0;
    if (scanf("%d", &n) != 1)
        return 1;
    if (n < 0)
        m = 0;
    else
        m = n;
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++)
            for (k = 0; k < m; k++)
                s += (i * j) ^ k;
    printf("%d\n", s + n);
    return 0;
}
"#;

/// `m = 0;` checked alone on its focused formula of failing test `t`
/// (0: `-1`, 1: `30`) by a fresh engine: the verdict and the units of
/// encoding work the check spent.
fn check_on(t: usize) -> (Verdict<Vec<faultline_diagnose::Angelic>>, u64) {
    let prog = compile_src("nest.c", SRC);
    let tests = vec![
        stdin_test("short", "-1\n", "1\n"),
        stdin_test("long", "30\n", "5713598\n"),
    ];
    let session = session(&prog, &tests);
    assert_eq!(session.failing, vec![0, 1]);
    let mut engine = Engine::new(&session, Options::default(), Encoding::Full);
    let d = BTreeSet::from([stmt(&prog, 8, "m = 0;")]);
    let check = Check::Focused {
        polish: false,
        on_path: false,
    };
    let verdict = engine.explain_each(&[t], &d, check).expect("no limit");
    (verdict, engine.cost_spent())
}

/// Test `-1`'s run is 20-odd steps, so its focused formulas get the least
/// bound: the check of `m = 0` encodes the first 2,000 units exactly (the
/// probe beyond which the cheaper theory goes first), then the cheaper
/// theory's formula up to the bound, and stops there, undecided. Encoding
/// the exact formula up to the bound as well (as it did before) spent the
/// bound twice.
#[test]
fn a_formula_beyond_its_work_bound_in_the_cheaper_theory_is_not_encoded_again() {
    let (verdict, spent) = check_on(0);
    assert!(matches!(verdict, Verdict::Undecided), "{verdict:?}");
    assert_eq!(spent, 2_001 + FOCUSED_WORK_MIN + 1);
}

/// The same statement on the long test: it did not run there, so the check
/// refutes it without a formula, and nothing is spent.
#[test]
fn a_statement_the_run_did_not_reach_is_refuted_without_a_formula() {
    let (verdict, spent) = check_on(1);
    assert!(matches!(verdict, Verdict::Refuted), "{verdict:?}");
    assert_eq!(spent, 0);
}
