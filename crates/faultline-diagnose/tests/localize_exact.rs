//! Exact outcomes of the formula engine on the two examples of its issue:
//! `examples/absval` (a wrong negative branch, found with the encodings that
//! see both branches, and only the faulty statement with `trace`) and
//! `examples/overflow` (where the no-overflow rule removes a spurious
//! diagnosis).

mod common;

use common::*;
use faultline_diagnose::engine::Engine;
use faultline_diagnose::{localize, AngelicValue, Combine};
use faultline_smt::Encoding;
use std::collections::BTreeSet;

fn absval() -> (faultline_ir::Program, Vec<faultline_exec::TestCase>) {
    let dir = root().join("examples/absval");
    (
        compile(&dir.join("absval.c")),
        load_tests(&dir.join("tests")),
    )
}

#[test]
fn absval_full_and_flow_find_the_fault_and_the_condition_pair() {
    let (prog, tests) = absval();
    let times_one = set(&prog, &[(9, "return x * 1;")]);
    let pair = set(&prog, &[(8, "x < 0"), (11, "return x;")]);
    for encoding in [Encoding::Full, Encoding::Flow] {
        let s = session(&prog, &tests);
        assert_eq!(s.failing, vec![0], "only x = -1 fails");
        let loc = localize(&s, encoding, Combine::Mbd, &options(3));
        assert_eq!(loc.incomplete, None);
        assert_eq!(
            reported(&loc),
            vec![times_one.clone(), pair.clone()],
            "{encoding:?}: {}",
            show_all(&prog, &reported(&loc))
        );
        // The condition must be false on x = -1, and the positive branch's
        // return must give a non-negative value.
        let cond = stmt(&prog, 8, "x < 0");
        assert_eq!(
            angelic_of(&loc, &pair, cond),
            vec![(
                0,
                AngelicValue::Branch {
                    needed: false,
                    computed: true
                }
            )]
        );
        let ret = stmt(&prog, 11, "return x;");
        for (_, v) in angelic_of(&loc, &pair, ret) {
            match v {
                AngelicValue::Value { needed, computed } => {
                    assert!(needed.parse::<i32>().unwrap() >= 0, "{needed}");
                    assert_eq!(computed, "-1");
                }
                other => panic!("{other:?}"),
            }
        }
        for (_, v) in angelic_of(&loc, &times_one, times_one.iter().copied().next().unwrap()) {
            match v {
                AngelicValue::Value { needed, computed } => {
                    assert!(needed.parse::<i32>().unwrap() >= 0, "{needed}");
                    assert_eq!(computed, "-1");
                }
                other => panic!("{other:?}"),
            }
        }
        check_brute(&prog, &tests, encoding, Combine::Mbd, 3);
    }
}

#[test]
fn absval_trace_finds_only_the_faulty_statement() {
    let (prog, tests) = absval();
    let s = session(&prog, &tests);
    let loc = localize(&s, Encoding::Trace, Combine::Mbd, &options(3));
    assert_eq!(loc.incomplete, None);
    assert_eq!(
        reported(&loc),
        vec![set(&prog, &[(9, "return x * 1;")])],
        "{}",
        show_all(&prog, &reported(&loc))
    );
    check_brute(&prog, &tests, Encoding::Trace, Combine::Mbd, 3);
}

fn overflow() -> (faultline_ir::Program, Vec<faultline_exec::TestCase>) {
    let dir = root().join("examples/overflow");
    (
        compile(&dir.join("overflow.c")),
        load_tests(&dir.join("tests")),
    )
}

/// `b = a + 1` over every int `a`: the values for which the assertion
/// `b <= a` holds with gcc's wrap-around, and with `a + 1` defined (no
/// overflow).
fn witnesses() -> (Vec<i32>, Vec<i32>) {
    let mut wrapping = Vec::new();
    let mut defined = Vec::new();
    for a in i32::MIN..=i32::MAX {
        if a.wrapping_add(1) <= a {
            wrapping.push(a);
        }
        if a.checked_add(1).is_some_and(|b| b <= a) {
            defined.push(a);
        }
    }
    (wrapping, defined)
}

#[test]
fn overflow_full_reports_exactly_the_two_diagnoses() {
    let (prog, tests) = overflow();
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![0]);
    let loc = localize(&s, Encoding::Full, Combine::Mbd, &options(3));
    assert_eq!(loc.incomplete, None);
    let b1 = set(&prog, &[(15, "b = a + 1;")]);
    let pair = set(&prog, &[(14, "y < 5"), (17, "b = a + 2;")]);
    assert_eq!(
        reported(&loc),
        vec![b1, pair.clone()],
        "{}",
        show_all(&prog, &reported(&loc))
    );
    assert_eq!(
        angelic_of(&loc, &pair, stmt(&prog, 14, "y < 5")),
        vec![(
            0,
            AngelicValue::Branch {
                needed: false,
                computed: true
            }
        )]
    );
    check_brute(&prog, &tests, Encoding::Full, Combine::Mbd, 3);
}

#[test]
fn overflow_rule_excludes_the_wrap_around_diagnosis() {
    // With wrap-around (gcc -O0), relaxing `a = x` would explain the test:
    // a = INT_MAX makes b = a + 1 wrap to INT_MIN <= a. It is the only
    // such value of a, so the explanation relies on the overflow alone.
    let (wrapping, defined) = witnesses();
    assert_eq!(wrapping, vec![i32::MAX]);
    assert!(defined.is_empty(), "without overflow, never");
    let (prog, tests) = overflow();
    let s = session(&prog, &tests);
    let opts = options(3);
    let loc = localize(&s, Encoding::Full, Combine::Mbd, &opts);
    let ax: BTreeSet<_> = set(&prog, &[(13, "a = x;")]);
    assert!(
        !reported(&loc).iter().any(|d| d.is_subset(&ax) || *d == ax),
        "{{a = x}} must not be reported"
    );
    let mut engine = Engine::new(&s, opts, Encoding::Full);
    assert!(engine.relaxable().contains(ax.iter().next().unwrap()));
    assert!(
        !engine.explains_all(&ax).unwrap(),
        "{{a = x}} explains nothing"
    );
    // Nor do {x >= 0} or {a = x, x >= 0}: the other branch gives a = 0.
    let cond = set(&prog, &[(13, "x >= 0")]);
    assert!(!engine.explains_all(&cond).unwrap());
    let both: BTreeSet<_> = ax.union(&cond).copied().collect();
    assert!(!engine.explains_all(&both).unwrap());
}

/// A product with a negative operand is defined C (-5 * 2 = -10): relaxing
/// the extra line alone explains the test.
#[test]
fn negative_products_do_not_overflow() {
    let src = "#include <stdio.h>\nint main(void)\n{\n    int n;\n    scanf(\"%d\", &n);\n    printf(\"X\\n\");\n    printf(\"%d\\n\", n * 2);\n    return 0;\n}\n";
    let prog = compile_src("neg.c", src);
    for (stdin, out) in [("5\n", "10\n"), ("-5\n", "-10\n")] {
        let tests = vec![stdin_test("t", stdin, out)];
        let s = session(&prog, &tests);
        let opts = options(3);
        let loc = localize(&s, Encoding::Full, Combine::Mbd, &opts);
        let extra = set(&prog, &[(6, r#"printf("X\n");"#)]);
        assert_eq!(
            reported(&loc),
            vec![extra],
            "stdin {stdin:?}: {}",
            show_all(&prog, &reported(&loc))
        );
    }
}

/// By default `mbd` reports only the diagnoses of the smallest size that
/// has any: absval's single statement, not the pair of its condition and
/// return (`all_sizes` reports both); where no single statement explains
/// the failures (a fault in two places), the pairs.
#[test]
fn only_the_smallest_diagnoses_by_default() {
    let (prog, tests) = absval();
    let times_one = set(&prog, &[(9, "return x * 1;")]);
    for encoding in [Encoding::Full, Encoding::Flow, Encoding::Trace] {
        let s = session(&prog, &tests);
        let smallest = faultline_diagnose::Options {
            max_size: 3,
            ..faultline_diagnose::Options::default()
        };
        assert!(!smallest.all_sizes);
        let loc = localize(&s, encoding, Combine::Mbd, &smallest);
        assert_eq!(loc.incomplete, None);
        assert_eq!(reported(&loc), vec![times_one.clone()], "{encoding:?}");
    }
    // Two faults: `a` and `b` are both read one too low; no single
    // statement makes both printed values right.
    let src = "#include <stdio.h>\nint main(void) {\n    int x, a, b;\n    scanf(\"%d\", &x);\n    a = x - 1;\n    b = x - 2;\n    printf(\"%d\\n\", a);\n    printf(\"%d\\n\", b);\n    return 0;\n}\n";
    let prog = compile_src("two.c", src);
    let tests = vec![stdin_test("t", "5\n", "5\n5\n")];
    let s = session(&prog, &tests);
    let loc = localize(
        &s,
        Encoding::Full,
        Combine::Mbd,
        &faultline_diagnose::Options::default(),
    );
    assert_eq!(loc.incomplete, None);
    let sizes: Vec<usize> = loc.diagnoses.iter().map(|d| d.stmts.len()).collect();
    assert!(
        !sizes.is_empty() && sizes.iter().all(|&n| n == 2),
        "{sizes:?}"
    );
    assert!(reported(&loc).contains(&set(&prog, &[(5, "a = x - 1;"), (6, "b = x - 2;")])));
}
