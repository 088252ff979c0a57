//! Statements that used to be no candidates: `break` and `continue` (relaxed,
//! the solver chooses where they jump), and the initializers of declarations
//! (relaxable in every encoding).

mod common;

use common::*;
use faultline_diagnose::repair::has_repair;
use faultline_diagnose::result::AngelicValue;
use faultline_diagnose::{localize, Combine};
use faultline_ir::Jump;
use faultline_smt::Encoding;

/// Sums the non-negative numbers (the fault: `break` for `continue`).
const SKIP_NEGATIVES: &str = "#include <stdio.h>

int main(void) {
    int n, x, i;
    int sum = 0;
    scanf(\"%d\", &n);
    for (i = 0; i < n; i++) {
        scanf(\"%d\", &x);
        if (x < 0)
            break;
        sum += x;
    }
    printf(\"%d\\n\", sum);
    return 0;
}
";

fn skip_tests() -> Vec<faultline_exec::TestCase> {
    vec![
        stdin_test("all", "3\n1 2 3\n", "6\n"),
        stdin_test("mid", "3\n1 -2 3\n", "4\n"),
        stdin_test("two", "4\n-1 5 -1 5\n", "10\n"),
        stdin_test("pos", "2\n4 5\n", "9\n"),
    ]
}

/// A diagnosis's angelic values: (test, where in the run, value).
fn angelic_in_context(
    prog: &faultline_ir::Program,
    d: &faultline_diagnose::result::Diagnosis,
) -> Vec<(usize, String, AngelicValue)> {
    d.angelic
        .iter()
        .map(|a| {
            (
                a.test,
                faultline_diagnose::result::describe_ctx(prog, &a.ctx),
                a.value.clone(),
            )
        })
        .collect()
}

fn jump(needed: Jump) -> AngelicValue {
    AngelicValue::Jump {
        needed,
        computed: Jump::Break,
    }
}

/// In `full` and `flow` the `break` comes first: it would need to go on with
/// the next iteration where the runs left the loop (iteration 2 of `mid`, 1
/// of `two`), and once more in `two`, whose loop now reaches its third `-1`.
/// The loop is unrolled as far as the passing test `all` ran it (4 condition
/// tests), beyond the failing runs' 2 and 1.
#[test]
fn a_break_for_continue_is_the_first_diagnosis_in_full_and_flow() {
    let prog = compile_src("skipneg.c", SKIP_NEGATIVES);
    let tests = skip_tests();
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![1, 2]);
    let brk = stmt(&prog, 10, "break;");
    for enc in [Encoding::Full, Encoding::Flow] {
        let loc = localize(&s, enc, Combine::Mbd, &options(2));
        assert_eq!(
            reported(&loc),
            vec![
                set(&prog, &[(10, "break;")]),
                set(&prog, &[(5, "int sum = 0;")]),
                set(&prog, &[(13, "printf(\"%d\\n\", sum);")]),
                set(&prog, &[(9, "x < 0"), (11, "sum += x;")]),
            ],
            "{enc:?}: {}",
            show_all(&prog, &reported(&loc))
        );
        let first = &loc.diagnoses[0];
        let values = angelic_in_context(&prog, first);
        assert_eq!(
            values,
            vec![
                (
                    1,
                    "iteration 2 of the loop at line 7".to_string(),
                    jump(Jump::Continue)
                ),
                (
                    2,
                    "iteration 1 of the loop at line 7".to_string(),
                    jump(Jump::Continue)
                ),
                (
                    2,
                    "iteration 3 of the loop at line 7".to_string(),
                    jump(Jump::Continue)
                ),
            ],
            "{enc:?}"
        );
        assert_eq!(first.stmts, vec![brk]);
    }
}

/// `trace` keeps the failing runs' paths, jumps included: the `break` is no
/// candidate there, and the initializer comes first.
#[test]
fn trace_does_not_relax_jumps_but_relaxes_the_initializer() {
    let prog = compile_src("skipneg.c", SKIP_NEGATIVES);
    let tests = skip_tests();
    let s = session(&prog, &tests);
    let loc = localize(&s, Encoding::Trace, Combine::Mbd, &options(2));
    assert_eq!(
        reported(&loc),
        vec![
            set(&prog, &[(5, "int sum = 0;")]),
            set(&prog, &[(13, "printf(\"%d\\n\", sum);")]),
        ],
        "{}",
        show_all(&prog, &reported(&loc))
    );
    let init = stmt(&prog, 5, "int sum = 0;");
    assert_eq!(
        angelic_of(&loc, &set(&prog, &[(5, "int sum = 0;")]), init),
        vec![
            (
                1,
                AngelicValue::Value {
                    needed: "3".into(),
                    computed: "0".into()
                }
            ),
            (
                2,
                AngelicValue::Value {
                    needed: "10".into(),
                    computed: "0".into()
                }
            ),
        ]
    );
}

/// Swapping `break` for `continue` is a one-token repair; nothing of one
/// token repairs the initializer or the addition.
#[test]
fn the_keyword_swap_is_a_one_token_repair() {
    let prog = compile_src("skipneg.c", SKIP_NEGATIVES);
    let tests = skip_tests();
    let s = session(&prog, &tests);
    assert_eq!(has_repair(&s, find(&prog, "break;")), Some(true));
    assert_eq!(has_repair(&s, find(&prog, "int sum = 0;")), Some(false));
    assert_eq!(has_repair(&s, find(&prog, "sum += x;")), Some(false));
}

/// Sums the numbers up to the first zero (the fault: `continue` for
/// `break`: the numbers after the zero are added too).
const UP_TO_ZERO: &str = "#include <stdio.h>

int main(void) {
    int n, x, i;
    int sum = 0;
    scanf(\"%d\", &n);
    for (i = 0; i < n; i++) {
        scanf(\"%d\", &x);
        if (x == 0)
            continue;
        sum += x;
    }
    printf(\"%d\\n\", sum);
    return 0;
}
";

/// The `continue` would need to leave the loop where the zero is read.
#[test]
fn a_continue_for_break_is_the_first_diagnosis() {
    let prog = compile_src("zero.c", UP_TO_ZERO);
    let tests = vec![
        stdin_test("nozero", "3\n1 2 3\n", "6\n"),
        stdin_test("stop", "4\n1 0 5 6\n", "1\n"),
        stdin_test("first", "2\n0 7\n", "0\n"),
    ];
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![1, 2]);
    let cont = stmt(&prog, 10, "continue;");
    for enc in [Encoding::Full, Encoding::Flow] {
        let loc = localize(&s, enc, Combine::Mbd, &options(1));
        assert_eq!(loc.diagnoses[0].stmts, vec![cont], "{enc:?}");
        let values = angelic_in_context(&prog, &loc.diagnoses[0]);
        let brk = AngelicValue::Jump {
            needed: Jump::Break,
            computed: Jump::Continue,
        };
        assert_eq!(
            values,
            vec![
                (
                    1,
                    "iteration 2 of the loop at line 7".to_string(),
                    brk.clone()
                ),
                (2, "iteration 1 of the loop at line 7".to_string(), brk),
            ],
            "{enc:?}"
        );
    }
    assert_eq!(has_repair(&s, cont), Some(true));
}

/// Counts the even numbers (the fault: the counter starts at 1).
const EVENS: &str = "#include <stdio.h>

int main(void) {
    int n, x, i;
    int count = 1;
    scanf(\"%d\", &n);
    for (i = 0; i < n; i++) {
        scanf(\"%d\", &x);
        if (x % 2 == 0)
            count++;
    }
    printf(\"%d\\n\", count);
    return 0;
}
";

/// A wrong initializer in a declaration is the first diagnosis in every
/// encoding, with the value it would need (0 in each test).
#[test]
fn a_wrong_declaration_initializer_is_the_first_diagnosis_in_every_encoding() {
    let prog = compile_src("evens.c", EVENS);
    let tests = vec![
        stdin_test("mixed", "3\n1 2 4\n", "2\n"),
        stdin_test("odd", "2\n1 3\n", "0\n"),
        stdin_test("one", "1\n2\n", "1\n"),
    ];
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![0, 1, 2]);
    let init = stmt(&prog, 5, "int count = 1;");
    assert_eq!(has_repair(&s, init), Some(true));
    let zero = AngelicValue::Value {
        needed: "0".into(),
        computed: "1".into(),
    };
    for enc in [Encoding::Full, Encoding::Flow, Encoding::Trace] {
        let loc = localize(&s, enc, Combine::Mbd, &options(1));
        let mut expected = vec![
            set(&prog, &[(5, "int count = 1;")]),
            set(&prog, &[(12, "printf(\"%d\\n\", count);")]),
        ];
        // A missing update comes last (`trace` has no insertions: they
        // are not instances of the run).
        if enc != Encoding::Trace {
            expected.push(set(
                &prog,
                &[(
                    9,
                    "missing update of `count` at the end of the loop body at line 7",
                )],
            ));
        }
        assert_eq!(
            reported(&loc),
            expected,
            "{enc:?}: {}",
            show_all(&prog, &reported(&loc))
        );
        assert_eq!(
            angelic_of(&loc, &set(&prog, &[(5, "int count = 1;")]), init),
            vec![(0, zero.clone()), (1, zero.clone()), (2, zero.clone())],
            "{enc:?}"
        );
    }
}

/// Reads the digits of a decimal number (the fault: the global base is 8).
const BASE: &str = "#include <stdio.h>

int base = 8;

int main(void) {
    int n, d, value = 0;
    scanf(\"%d\", &n);
    while (n-- > 0) {
        scanf(\"%d\", &d);
        value = value * base + d;
    }
    printf(\"%d\\n\", value);
    return 0;
}
";

/// A global's initializer is a statement at its declaration, the first
/// diagnosis in every encoding, with the value it would need (10), and a
/// re-execution with that value passes (the interpreter applies it before
/// `main`).
#[test]
fn a_wrong_global_initializer_is_the_first_diagnosis_in_every_encoding() {
    let prog = compile_src("base.c", BASE);
    let tests = vec![
        stdin_test("two", "2\n1 2\n", "12\n"),
        stdin_test("one", "1\n7\n", "7\n"),
        stdin_test("three", "2\n3 4\n", "34\n"),
    ];
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![0, 2]);
    let init = stmt(&prog, 3, "int base = 8;");
    assert_eq!(prog.globals[0].init_stmt, Some(init));
    let ten = AngelicValue::Value {
        needed: "10".into(),
        computed: "8".into(),
    };
    for enc in [Encoding::Full, Encoding::Flow, Encoding::Trace] {
        let loc = localize(&s, enc, Combine::Mbd, &options(1));
        assert_eq!(
            loc.diagnoses[0].stmts,
            vec![init],
            "{enc:?}: {}",
            show_all(&prog, &reported(&loc))
        );
        assert_eq!(
            angelic_of(&loc, &set(&prog, &[(3, "int base = 8;")]), init),
            vec![(0, ten.clone()), (2, ten.clone())],
            "{enc:?}"
        );
        assert!(
            faultline_diagnose::witness::reported_values_pass(&s, &loc, &loc.diagnoses[0]),
            "{enc:?}"
        );
    }
}

/// The highest of the numbers read, starting from a wrong constant (`0`
/// for `INT_MIN`: every reading is negative in the failing tests).
const MAXTEMP: &str = "#include <stdio.h>

int main(void) {
    int t, n = 0;
    int max = 0;
    while (scanf(\"%d\", &t) == 1) {
        if (t > max)
            max = t;
        n++;
    }
    printf(\"%d %d\\n\", n, max);
    return 0;
}
";

/// The tests need different values of the constant initializer (the solver
/// picks each test's alone), so it is no one-token repair, but one of them
/// (the lowest) repairs every test: the initializer comes first, before the
/// condition that the tests would let be changed instead.
#[test]
fn a_constant_one_of_whose_needed_values_repairs_every_test_comes_first() {
    let prog = compile_src("maxtemp.c", MAXTEMP);
    let tests = vec![
        stdin_test("warm", "3 9 4\n", "3 9\n"),
        stdin_test("cold", "-5 -2 -9\n", "3 -2\n"),
        stdin_test("one", "-1\n", "1 -1\n"),
    ];
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![1, 2]);
    let init = stmt(&prog, 5, "int max = 0;");
    assert_eq!(has_repair(&s, init), Some(false));
    let loc = localize(&s, Encoding::Full, Combine::Mbd, &options(1));
    let first = reported(&loc)[0].clone();
    assert_eq!(
        first,
        set(&prog, &[(5, "int max = 0;")]),
        "{}",
        show_all(&prog, &reported(&loc))
    );
    let d = &loc.diagnoses[0];
    assert_eq!(
        faultline_diagnose::repair::constant_repair(&s, d),
        Some(true)
    );
}

/// Euclid's algorithm reading the wrong variable (`gcd(a, a % b)` for
/// `gcd(b, a % b)`): a read of another local of the same type is a
/// one-token edit.
const GCD: &str = "#include <stdio.h>

int gcd(int a, int b) {
    if (b == 0)
        return a;
    return gcd(a, a % b);
}

int main(void) {
    int a, b;
    scanf(\"%d %d\", &a, &b);
    printf(\"%d\\n\", gcd(a, b));
    return 0;
}
";

/// A vowel test with `'I'` for `'i'`: a letter constant in the other case
/// is a one-token edit.
const VOWEL: &str = "#include <stdio.h>

int main(void) {
    int c, n = 0;
    while ((c = getchar()) != EOF)
        if (c == 'a' || c == 'e' || c == 'I' || c == 'o' || c == 'u')
            n++;
    printf(\"%d\\n\", n);
    return 0;
}
";

#[test]
fn another_local_and_a_letter_in_the_other_case_are_one_token_repairs() {
    let prog = compile_src("gcd.c", GCD);
    let tests = vec![
        stdin_test("t1", "12 8\n", "4\n"),
        stdin_test("t2", "9 6\n", "3\n"),
        stdin_test("t3", "5 0\n", "5\n"),
    ];
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![0, 1]);
    assert_eq!(
        has_repair(&s, stmt(&prog, 6, "return gcd(a, a % b);")),
        Some(true)
    );
    assert_eq!(has_repair(&s, stmt(&prog, 5, "return a;")), Some(false));

    let prog = compile_src("vowel.c", VOWEL);
    let tests = vec![
        stdin_test("t1", "pick it\n", "2\n"),
        stdin_test("t2", "sea\n", "2\n"),
    ];
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![0]);
    let cond = stmt(
        &prog,
        6,
        "c == 'a' || c == 'e' || c == 'I' || c == 'o' || c == 'u'",
    );
    assert_eq!(has_repair(&s, cond), Some(true));
}
