//! One-token repairs (`faultline_diagnose::repair`) and the order they give
//! equally small diagnoses: a statement that one operator or constant edit
//! fixes, without breaking a passing test, comes first.

mod common;

use common::*;
use faultline_diagnose::repair::has_repair;
use faultline_diagnose::{localize, Combine};
use faultline_smt::Encoding;

/// Counts the scores of at least 50 (the fault: `>` for `>=`).
const PASSES: &str = "#include <stdio.h>
int main(void) {
    int n, x, passed = 0;
    scanf(\"%d\", &n);
    for (int i = 0; i < n; i++) {
        scanf(\"%d\", &x);
        int y = x;
        int ok = y > 50;
        passed = passed + ok;
    }
    printf(\"%d\\n\", passed);
    return 0;
}
";

fn tests() -> Vec<faultline_exec::TestCase> {
    vec![
        stdin_test("t1", "3 10 50 90\n", "2\n"),
        stdin_test("t2", "2 60 70\n", "2\n"),
        stdin_test("t3", "1 20\n", "0\n"),
        stdin_test("t4", "2 50 50\n", "2\n"),
    ]
}

#[test]
fn a_relational_edit_repairs_the_comparison_and_nothing_else() {
    let prog = compile_src("passes.c", PASSES);
    let tests = tests();
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![0, 3]);
    assert_eq!(has_repair(&s, find(&prog, "int ok = y > 50;")), Some(true));
    // `passed + ok` would need another term (the count of 50s), no one-token edit.
    assert_eq!(
        has_repair(&s, find(&prog, "passed = passed + ok;")),
        Some(false)
    );
    assert_eq!(has_repair(&s, find(&prog, "passed = 0")), Some(false));
}

/// In the found (source) order `int y = x;` (which would need 51) comes
/// before the comparison; with the repair evidence the comparison comes
/// first, and the others keep their order.
#[test]
fn a_repairable_statement_comes_first() {
    let prog = compile_src("passes.c", PASSES);
    let tests = tests();
    let s = session(&prog, &tests);
    let loc = localize(&s, Encoding::Full, Combine::Mbd, &options(1));
    assert_eq!(
        reported(&loc),
        vec![
            set(&prog, &[(8, "int ok = y > 50;")]),
            set(&prog, &[(7, "int y = x;")]),
            set(&prog, &[(9, "passed = passed + ok;")]),
            set(&prog, &[(3, "passed = 0")]),
            set(&prog, &[(11, "printf(\"%d\\n\", passed);")]),
        ],
        "{}",
        show_all(&prog, &reported(&loc))
    );
}

/// Replays and repairs run with a stack of ten times the deepest test
/// run's (at least 256 KiB), not the runs' 8 MiB: an edit that turns a
/// base case around (`n >= 2` for `n <= 2`) recurses without end and must
/// end after thousands of calls, not hundreds of thousands (fibonacci's
/// repairs took 1.4 s and 750 MiB).
#[test]
fn replays_have_a_stack_scaled_from_the_test_runs() {
    let prog = compile_src(
        "fib.c",
        "#include <stdio.h>
int fib(int n) {
    if (n <= 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}
int main(void) {
    int n;
    scanf(\"%d\", &n);
    printf(\"%d\\n\", fib(n));
    return 0;
}
",
    );
    let tests = vec![
        stdin_test("t1", "1\n", "1\n"),
        stdin_test("t2", "2\n", "1\n"),
        stdin_test("t3", "5\n", "5\n"),
    ];
    let s = session(&prog, &tests);
    let deepest = s.runs.iter().map(|r| r.execution.peak_stack).max().unwrap();
    assert!(deepest < 16 << 10, "{deepest}");
    assert_eq!(
        s.replay_limits().stack_size,
        faultline_diagnose::session::MIN_REPLAY_STACK
    );
    assert_eq!(faultline_diagnose::session::MIN_REPLAY_STACK, 256 << 10);
}

#[test]
fn replays_are_not_as_long_as_a_run_that_did_not_end() {
    let prog = compile_src(
        "endless.c",
        "#include <stdio.h>
int main(void) {
    int n, i, sum = 0;
    scanf(\"%d\", &n);
    for (i = 1; i <= n; i--)
        sum += i;
    printf(\"%d\\n\", sum);
    return 0;
}
",
    );
    let tests = vec![
        stdin_test("t1", "0\n", "0\n"),
        stdin_test("t2", "3\n", "6\n"),
    ];
    let limits = faultline_exec::Limits {
        max_steps: Some(5_000_000),
        ..faultline_exec::Limits::default()
    };
    let s = faultline_diagnose::Session::new(&prog, &tests, faultline_exec::Compare::Exact, limits)
        .expect("the tests run");
    assert!(s.is_cut(1));
    assert!(s.runs[1].execution.steps >= 5_000_000);
    // Ten times the run that ended (a few steps) is below the floor.
    assert_eq!(s.replay_limits().max_steps, Some(100_000));
}
