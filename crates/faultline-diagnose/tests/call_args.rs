//! Wrong arguments of a call: a relaxed statement gives the arithmetic
//! arguments of its calls with relaxable arguments fresh values
//! (`faultline_ir::calls`), the interpreter replays them
//! (`Hooks::argument`), and swapping two arguments is a one-token repair.

mod common;

use common::*;
use faultline_diagnose::repair::has_repair;
use faultline_diagnose::result::AngelicValue;
use faultline_diagnose::{localize, Combine};
use faultline_smt::Encoding;

fn arg(index: u32, needed: &str, computed: &str) -> AngelicValue {
    AngelicValue::Argument {
        index,
        needed: needed.to_string(),
        computed: computed.to_string(),
    }
}

/// examples/swapped-args: `print_range(a, b)` for `print_range(b, a)` when
/// `a > b`. The call is the first diagnosis in `full` and `flow`, with the
/// bounds each failing test needs, and they pass when replayed; `trace`
/// cannot find it (the right bounds run the loop, which the failing runs
/// did not: another path).
#[test]
fn swapped_arguments_of_a_void_call_are_the_first_diagnosis() {
    let dir = root().join("examples/swapped-args");
    let prog = compile(&dir.join("range.c"));
    let tests = load_tests(&dir.join("tests"));
    let s = session(&prog, &tests);
    let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["down", "far", "same", "up"]);
    assert_eq!(s.failing, vec![0, 1]);
    let call = set(&prog, &[(21, "print_range(a, b);")]);
    let call_id = stmt(&prog, 21, "print_range(a, b);");
    for enc in [Encoding::Full, Encoding::Flow] {
        let loc = localize(&s, enc, Combine::Mbd, &options(1));
        assert_eq!(
            reported(&loc),
            vec![call.clone(), set(&prog, &[(9, "printf(\"\\n\");")])],
            "{enc:?}: {}",
            show_all(&prog, &reported(&loc))
        );
        assert_eq!(
            angelic_of(&loc, &call, call_id),
            vec![
                (0, arg(0, "1", "3")),
                (0, arg(1, "3", "1")),
                (1, arg(0, "2", "5")),
                (1, arg(1, "5", "2")),
            ],
            "{enc:?}"
        );
        assert!(
            faultline_diagnose::witness::reported_values_pass(&s, &loc, &loc.diagnoses[0]),
            "{enc:?}"
        );
    }
    let loc = localize(&s, Encoding::Trace, Combine::Mbd, &options(1));
    assert_eq!(
        reported(&loc),
        vec![set(&prog, &[(9, "printf(\"\\n\");")])],
        "{}",
        show_all(&prog, &reported(&loc))
    );
    assert_eq!(has_repair(&s, call_id), Some(true));
    assert_eq!(
        has_repair(&s, stmt(&prog, 19, "print_range(a, b);")),
        Some(false)
    );
}

/// The course benchmark's `hanoi`: `hanoi(n - 1, via, from, to)` for
/// `hanoi(n - 1, via, to, from)` is the first diagnosis in every encoding
/// (the right pegs keep every run's path), and swapping two of its
/// arguments repairs it.
#[test]
fn hanoi_wrong_peg_order_is_the_first_diagnosis() {
    let dir = root().join("benchmarks/course/hanoi");
    let prog = compile(&dir.join("hanoi.c"));
    let tests = load_tests(&dir.join("tests"));
    let s = session(&prog, &tests);
    let call = stmt(&prog, 13, "hanoi(n - 1, via, from, to);");
    for enc in [Encoding::Full, Encoding::Flow, Encoding::Trace] {
        let loc = localize(&s, enc, Combine::Mbd, &options(1));
        assert_eq!(
            reported(&loc),
            vec![
                set(&prog, &[(13, "hanoi(n - 1, via, from, to);")]),
                set(
                    &prog,
                    &[(
                        11,
                        "printf(\"move disk %d from %c to %c\\n\", n, from, to);"
                    )]
                ),
            ],
            "{enc:?}: {}",
            show_all(&prog, &reported(&loc))
        );
        assert!(
            faultline_diagnose::witness::reported_values_pass(&s, &loc, &loc.diagnoses[0]),
            "{enc:?}"
        );
    }
    assert_eq!(has_repair(&s, call), Some(true));
    assert_eq!(
        has_repair(&s, stmt(&prog, 10, "hanoi(n - 1, from, via, to);")),
        Some(false)
    );
}
