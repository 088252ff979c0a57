//! The encoder holds the thread's budget: once the budget is exhausted,
//! the next unit of encoding work (a statement instance, a cell of a
//! memory access, an offset of a read) unwinds to the nearest
//! `limits::guard`, which says which limit ended it. Not timed: the budget
//! is exhausted before the encoding starts, and the program is far smaller
//! than the 1024 units between two measures of the budget, so only the
//! check of the budget's flag at every unit stops it.

use faultline_exec::budget::{Budget, Exhausted};
use faultline_exec::TestCase;
use faultline_smt::limits::{self, Stopped};
use faultline_smt::{encode_test, AbVars, Bounds, Encoding, IntSemantics, Sink};
use z3::Solver;

const PROG: &str = "#include <stdio.h>
int main(void) {
    char buf[16];
    int n = 0;
    while (fgets(buf, 16, stdin))
        n++;
    printf(\"%d\\n\", n);
    return 0;
}
";

fn test_case() -> TestCase {
    TestCase {
        name: "t".into(),
        args: Vec::new(),
        stdin: b"a\nb\n".to_vec(),
        expected_stdout: b"3\n".to_vec(),
        expected_status: None,
        workdir: None,
    }
}

/// Encodes `test` of `prog` with `full`: the number of statement instances.
fn encode(prog: &faultline_ir::Program, test: &TestCase, bounds: &Bounds) -> usize {
    encode_relaxing(prog, test, bounds, AbVars::new())
}

/// Encodes `test` of `prog` with `full`, relaxing what `ab` allows: the
/// number of statement instances.
fn encode_relaxing(
    prog: &faultline_ir::Program,
    test: &TestCase,
    bounds: &Bounds,
    mut ab: AbVars,
) -> usize {
    let solver = Solver::new();
    encode_test(
        prog,
        test,
        Encoding::Full,
        IntSemantics::BitVector,
        bounds,
        None,
        &mut ab,
        &Sink::new(&solver),
    )
    .expect("encodable")
    .instances
}

/// Encodes the test under `budget` (made the thread's current one): the
/// number of statement instances encoded, or why it stopped.
fn encode_under(budget: &Budget) -> Result<usize, Stopped> {
    let prog = faultline_c::compile_source("t.c", PROG).expect("compiles");
    let _scope = limits::enter(budget);
    let bounds = Bounds {
        default_loop: 4,
        ..Bounds::default()
    };
    limits::guard(|| encode(&prog, &test_case(), &bounds))
}

#[test]
fn an_exhausted_budget_stops_the_encoder_at_once() {
    let budget = Budget::unlimited();
    budget.exhaust(Exhausted::Time);
    assert_eq!(encode_under(&budget), Err(Stopped::Budget(Exhausted::Time)));
    let budget = Budget::unlimited();
    budget.exhaust(Exhausted::Memory);
    assert_eq!(
        encode_under(&budget),
        Err(Stopped::Budget(Exhausted::Memory))
    );
}

#[test]
fn a_budget_left_lets_the_encoding_finish() {
    // 11 instances of the program's statements, and 5 of its insertions
    // (an output at the end of the loop body, 4 times; one after the
    // `printf`).
    assert_eq!(encode_under(&Budget::unlimited()), Ok(16));
}

#[test]
fn a_string_function_reads_a_large_array_only_up_to_its_nul() {
    // `scanf("%s")` stores the input and a NUL in the first cells of a
    // million; `strlen` reads up to that NUL (the rest was a million
    // if-then-else terms, a second per check).
    let prog = faultline_c::compile_source(
        "big.c",
        "#include <stdio.h>
#include <string.h>
int main(void) {
    char s[1000000];
    scanf(\"%s\", s);
    printf(\"%d\\n\", (int)strlen(s));
    return 0;
}
",
    )
    .expect("compiles");
    let test = TestCase {
        stdin: b"abc\n".to_vec(),
        ..test_case()
    };
    let work = work_within(&prog, &test, &Bounds::default(), 10_000);
    let work = work.expect("within 10,000 units of work");
    assert!(work < 100, "{work}");
}

/// The units of work encoding `test` of `prog` with `full` takes (with an
/// unlimited budget, every statement relaxable), `None` beyond `cap`.
fn work_within(
    prog: &faultline_ir::Program,
    test: &TestCase,
    bounds: &Bounds,
    cap: u64,
) -> Option<u64> {
    work_relaxing(prog, test, bounds, AbVars::new(), cap)
}

/// [`work_within`], relaxing only what `ab` allows.
fn work_relaxing(
    prog: &faultline_ir::Program,
    test: &TestCase,
    bounds: &Bounds,
    ab: AbVars,
    cap: u64,
) -> Option<u64> {
    let _scope = limits::enter(&Budget::unlimited());
    limits::capped(cap, || {
        encode_relaxing(prog, test, bounds, ab);
        limits::work()
    })
}

#[test]
fn a_read_at_a_free_index_has_one_alternative_per_run_of_equal_cells() {
    // Every statement is relaxable (`full`), so `i` is free after `i++`
    // and `s[i]` may be any of the 100,000 cells. `scanf` wrote 4 of them
    // ("abc" and its NUL); the rest are the same uninitialized zero: 5
    // alternatives per read, not 100,000 (a second per check and a
    // gigabyte per formula).
    let prog = faultline_c::compile_source(
        "free.c",
        "#include <stdio.h>
int main(void) {
    char s[100000];
    int i, sum = 0;
    scanf(\"%s\", s);
    for (i = 0; s[i] != 0; i++)
        sum += s[i];
    printf(\"%d\\n\", sum);
    return 0;
}
",
    )
    .expect("compiles");
    let test = TestCase {
        stdin: b"abc\n".to_vec(),
        expected_stdout: b"295\n".to_vec(),
        ..test_case()
    };
    let bounds = Bounds {
        default_loop: 6,
        ..Bounds::default()
    };
    let work = work_within(&prog, &test, &bounds, 20_000);
    let work = work.expect("within 20,000 units of work");
    assert!(work < 1_000, "{work}");
}

#[test]
fn a_loop_that_may_return_keeps_its_counters_where_it_goes_on() {
    // Relaxed, the condition may return at any iteration. Where the loop
    // goes on, `j` is still its next value: read under a guard that says so,
    // it is a constant, and so are the loops' conditions and the cells read
    // and written. (Otherwise every counter is a term over where the loop
    // could have returned, every offset a choice among the nine cells, and
    // the products of the second loop choices among their products:
    // 19,549 units of work, against 2,773.)
    let prog = faultline_c::compile_source(
        "ret.c",
        "#include <stdio.h>
int read_matrix(int m[3][3]) {
    int i, j;
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            if (scanf(\"%d\", &m[i][j]) != 1)
                return 0;
    return 1;
}
int main(void) {
    int a[3][3], i, j, s = 0;
    if (!read_matrix(a)) {
        printf(\"bad\\n\");
        return 1;
    }
    for (i = 0; i < 3; i++)
        for (j = 0; j < 3; j++)
            s += a[i][j] * a[j][i];
    printf(\"%d\\n\", s);
    return 0;
}
",
    )
    .expect("compiles");
    let test = TestCase {
        stdin: b"1 2 3 4 5 6 7 8 9\n".to_vec(),
        expected_stdout: b"261\n".to_vec(),
        ..test_case()
    };
    let cond = (0..prog.stmts.len())
        .map(|i| faultline_ir::StmtId(i as u32))
        .find(|s| {
            let info = prog.stmt(*s);
            info.loc.line == 6 && info.kind == faultline_ir::StmtKind::IfCond
        })
        .expect("the condition at line 6");
    let bounds = Bounds {
        default_loop: 4,
        ..Bounds::default()
    };
    let focus = AbVars::focused(std::iter::once(cond).collect());
    let work = work_relaxing(&prog, &test, &bounds, focus, 200_000);
    let work = work.expect("within 200,000 units of work");
    assert!(work < 5_000, "{work}");
}
