//! Output statements checked by their text alone
//! ([`faultline_diagnose::printed`]): a statement whose only effect is what
//! it prints is explained or refuted on a test by locating its instances in
//! the run's output and matching the expected output against the rest,
//! without a formula. On a program that prints an extra line, the check
//! finds the one instance to silence, agrees with the test's own formula
//! on every output statement, and makes no solver call.

mod common;

use common::*;
use faultline_diagnose::engine::{Check, Engine, Verdict};
use faultline_diagnose::printed::{fit, record, text_only, Fit};
use faultline_diagnose::result::AngelicValue;
use faultline_diagnose::{localize, Combine, Options};
use faultline_exec::trace::Scope;
use faultline_exec::{Executable, Limits};
use faultline_smt::Encoding;
use std::collections::BTreeSet;

const SRC: &str = r#"#include <stdio.h>

int main(void) {
    int n, i;
    scanf("%d", &n);
    for (i = 0; i < n; i++) {
        printf("%d\n", i * i);
        if (i == 2)
            printf("warning\n");
    }
    printf("done\n");
    return 0;
}
"#;

fn tests() -> Vec<faultline_exec::TestCase> {
    vec![
        stdin_test("two", "2\n", "0\n1\ndone\n"),
        stdin_test("four", "4\n", "0\n1\n4\n9\ndone\n"),
        stdin_test("five", "5\n", "0\n1\n4\n9\n16\ndone\n"),
    ]
}

#[test]
fn the_instances_of_an_output_statement_are_located_and_matched() {
    let prog = compile_src("warning.c", SRC);
    let tests = tests();
    let exe = Executable::new(&prog).expect("starts");
    let square = stmt(&prog, 7, "printf(\"%d\\n\", i * i);");
    let warning = stmt(&prog, 9, "printf(\"warning\\n\");");
    let done = stmt(&prog, 11, "printf(\"done\\n\");");
    let only = text_only(&prog);
    assert_eq!(
        only,
        [square, warning, done].into_iter().collect(),
        "the scanf reads input; the others are not output statements"
    );
    let four = &tests[1];
    let p = record(&exe, four, square, Limits::default()).expect("exits");
    assert_eq!(p.stdout, b"0\n1\n4\nwarning\n9\ndone\n");
    let spans: Vec<(usize, usize)> = p.segments.iter().map(|s| (s.start, s.end)).collect();
    assert_eq!(spans, [(0, 2), (2, 4), (4, 6), (14, 16)]);
    let iterations: Vec<u32> = p
        .segments
        .iter()
        .map(|s| match s.ctx.as_slice() {
            [Scope::Iter(_, k)] => *k,
            other => panic!("not in the loop: {other:?}"),
        })
        .collect();
    assert_eq!(iterations, [0, 1, 2, 3]);
    // The extra line is not the squares' to remove.
    assert_eq!(fit(&four.expected_stdout, &p), Fit::Impossible);
    let p = record(&exe, four, warning, Limits::default()).expect("exits");
    assert_eq!(fit(&four.expected_stdout, &p), Fit::Texts(vec![Vec::new()]));
    let p = record(&exe, four, done, Limits::default()).expect("exits");
    assert_eq!(fit(&four.expected_stdout, &p), Fit::Impossible);
    // A statement that did not print in the run is left to the formula.
    assert!(record(&exe, &tests[0], warning, Limits::default()).is_none());
}

/// The verdict's kind: explained, refuted or undecided.
fn kind<T>(v: &Verdict<T>) -> &'static str {
    match v {
        Verdict::Explained(_) => "explained",
        Verdict::Refuted => "refuted",
        Verdict::Undecided => "undecided",
    }
}

#[test]
fn the_text_check_agrees_with_the_formula_without_a_solver_call() {
    let prog = compile_src("warning.c", SRC);
    let tests = tests();
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![1, 2]);
    let outputs = [
        stmt(&prog, 7, "printf(\"%d\\n\", i * i);"),
        stmt(&prog, 9, "printf(\"warning\\n\");"),
        stmt(&prog, 11, "printf(\"done\\n\");"),
    ];
    let mut by_text = Engine::new(&s, Options::default(), Encoding::Full);
    let mut by_formula = Engine::new(&s, Options::default(), Encoding::Full);
    for &o in &outputs {
        let d = BTreeSet::from([o]);
        for &t in &s.failing {
            let own = by_formula
                .explain_by(t, &d, &[], Check::Own)
                .expect("no limit");
            for check in [
                Check::Focused {
                    polish: false,
                    on_path: true,
                },
                Check::Focused {
                    polish: false,
                    on_path: false,
                },
                Check::Switched,
            ] {
                let v = by_text.explain_by(t, &d, &[], check).expect("no limit");
                assert_eq!(kind(&v), kind(&own), "{o:?} on test {t} by {check:?}");
                if let Verdict::Explained(e) = v {
                    let values: Vec<(&[Scope], &AngelicValue)> =
                        e.angelic.iter().map(|a| (&a.ctx[..], &a.value)).collect();
                    assert_eq!(values.len(), 1, "{values:?}");
                    assert!(
                        matches!(values[0], ([Scope::Iter(_, 2)], AngelicValue::Output { text }) if text.is_empty()),
                        "{values:?}"
                    );
                }
            }
        }
    }
    let stats = by_text
        .into_localization(
            String::new(),
            Vec::new(),
            Vec::new(),
            None,
            std::time::Instant::now(),
        )
        .stats;
    assert_eq!(stats.solver_calls, 0);
}

#[test]
fn the_extra_line_is_a_diagnosis_as_the_formula_finds_it() {
    let prog = compile_src("warning.c", SRC);
    let tests = tests();
    let s = session(&prog, &tests);
    let loc = localize(&s, Encoding::Full, Combine::Mbd, &options(1));
    assert_eq!(
        show_all(&prog, &reported(&loc)),
        show_all(
            &prog,
            &[
                // `i` made -2 after the third square: its square is 4.
                set(&prog, &[(6, "i++")]),
                set(&prog, &[(8, "i == 2")]),
                set(&prog, &[(9, "printf(\"warning\\n\");")]),
            ]
        )
    );
    assert!(loc.incomplete.is_none());
}
