//! Loops the failing runs ran inside another loop are unrolled at least as
//! often as the passing runs ran them in one execution: a fix that runs the
//! outer loop once more runs the inner one anew.

mod common;

use common::*;
use faultline_diagnose::{localize, Combine};
use faultline_smt::Encoding;

/// Prints the prime factors of n (the fault: `d * d < n` for `d * d <= n`).
const FACTORIZE: &str = "#include <stdio.h>

int main(void)
{
    int n, d;
    scanf(\"%d\", &n);
    printf(\"%d =\", n);
    for (d = 2; d * d < n; d++)
        while (n % d == 0) {
            printf(\" %d\", d);
            n /= d;
        }
    if (n > 1)
        printf(\" %d\", n);
    printf(\"\\n\");
    return 0;
}
";

/// On `9` the faulty bound stops before `d = 3`, and the inner loop was
/// tested once (at `d = 2`); the fix needs it three times at `d = 3`. The
/// passing run of `12` ran it three times at `d = 2`: the inner loop is
/// unrolled to 3 + 1, and the faulty bound is the first diagnosis.
#[test]
fn inner_loops_are_unrolled_as_often_as_the_passing_runs_ran_them() {
    let prog = compile_src("factorize.c", FACTORIZE);
    let tests = vec![
        stdin_test("t1", "12\n", "12 = 2 2 3\n"),
        stdin_test("t2", "9\n", "9 = 3 3\n"),
        stdin_test("t3", "10\n", "10 = 2 5\n"),
    ];
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![1]);
    let inner = stmt(&prog, 9, "n % d == 0");
    assert_eq!(s.needs().loops.get(&inner), Some(&3));
    let loc = localize(&s, Encoding::Full, Combine::Mbd, &options(1));
    let first = reported(&loc).into_iter().next();
    assert_eq!(
        first,
        Some(set(&prog, &[(8, "d * d < n")])),
        "{}",
        show_all(&prog, &reported(&loc))
    );
}
