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
