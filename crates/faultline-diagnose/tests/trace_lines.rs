//! Programs that read their input a line at a time with `fgets` and scan the
//! line with `sscanf` (as schedule2 and tot_info do), localized with the
//! `trace` encoding. The line's characters are the test's input, a hard
//! fact: on the run's path (every guard the constant true, even after a
//! short circuit or a conditional expression whose operands are relaxable
//! terms) `fgets` stores constants, so `sscanf` can scan them. Before, the
//! guard after `a || b` was the term `¬a ∨ a`, the buffer's characters
//! `ite` terms, and the test was refused ("sscanf of a string whose
//! characters are computed").

mod common;

use common::*;
use faultline_diagnose::{localize, Combine, Localization};
use faultline_ir::Program;
use faultline_smt::Encoding;

/// Sums the second number of each `CMD N` line whose command is 1 or 2;
/// the fault: `total += 2 * n` for `total += n` (line 17). The `||` in
/// `valid` and the `?:` in `main` (over `lines`, a relaxable term) are
/// evaluated before each `fgets`. The diagnoses: the faulty line first, then
/// the declaration's `total = 0` (another start value per test) and the
/// `printf`.
const SUM: &str = "#include <stdio.h>
int valid(int c) {
    return c == 1 || c == 2;
}
int main(void) {
    char buf[32];
    int total = 0, lines = 0, c, n;
    while (fgets(buf, 32, stdin)) {
        c = -1;
        n = 0;
        sscanf(buf, \"%d %d\", &c, &n);
        lines = lines > 100 ? 100 : lines + 1;
        if (!valid(c))
            continue;
        if (c == 2)
            n = -n;
        total += 2 * n;
    }
    printf(\"%d %d\\n\", total, lines);
    return 0;
}
";

fn lines_of(prog: &Program, loc: &Localization) -> Vec<Vec<u32>> {
    loc.diagnoses
        .iter()
        .map(|d| d.stmts.iter().map(|s| prog.stmt(*s).loc.line).collect())
        .collect()
}

#[test]
fn fgets_then_sscanf_is_encoded_and_the_faulty_line_is_found() {
    let prog = compile_src("sum.c", SUM);
    let tests = vec![
        stdin_test("a", "1 3\n2 1\n", "2 2\n"),
        stdin_test("b", "1 5\n7 7\n", "5 2\n"),
        stdin_test("c", "9 9\n", "0 1\n"),
    ];
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![0, 1]);
    let loc = localize(&s, Encoding::Trace, Combine::Mbd, &options(2));
    assert!(loc.skipped.is_empty(), "{:?}", loc.skipped);
    assert!(loc.incomplete.is_none(), "{:?}", loc.incomplete);
    assert_eq!(lines_of(&prog, &loc), vec![vec![17], vec![7], vec![19]]);
}

/// A budget exhausted once the tests have run ends the localization in its
/// encoding, with the partial flag and no diagnosis (not timed: the budget
/// is exhausted before `localize` starts).
#[test]
fn an_exhausted_budget_during_encoding_gives_a_partial_result() {
    let prog = compile_src("sum.c", SUM);
    let tests = vec![stdin_test("a", "1 3\n2 1\n", "2 2\n")];
    let s = session(&prog, &tests);
    let budget = faultline_exec::budget::Budget::unlimited();
    budget.exhaust(faultline_exec::budget::Exhausted::Time);
    let _entered = budget.enter();
    let loc = localize(&s, Encoding::Trace, Combine::Mbd, &options(2));
    assert!(loc.diagnoses.is_empty());
    assert_eq!(
        loc.incomplete,
        Some(faultline_diagnose::result::Incomplete::Timeout)
    );
}
