//! Output statements checked by their text alone
//! ([`faultline_diagnose::printed`]): a statement whose only effect is what
//! it prints is explained or refuted on a test by locating its instances in
//! the run's output and matching the expected output against the rest,
//! without a formula. On a program that prints an extra line, the check
//! finds the one instance to silence, agrees with the test's own formula
//! on every output statement, and makes no solver call. A call of a
//! function that only prints (examples/extra-call: a note printed for every
//! number, its guard missing) is relaxed as skippable, in every method's
//! formula and in re-execution alike.

mod common;

use common::*;
use faultline_diagnose::engine::{Check, Engine, Verdict};
use faultline_diagnose::printed::{fit, record, text_only, Fit, Printer};
use faultline_diagnose::result::AngelicValue;
use faultline_diagnose::Session;
use faultline_diagnose::{localize, Combine, Options};
use faultline_exec::trace::Scope;
use faultline_exec::{Executable, Limits};
use faultline_ir::StmtId;
use faultline_smt::Encoding;
use std::collections::BTreeSet;
use std::time::Instant;

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
        [square, warning, done]
            .into_iter()
            .map(|s| (s, Printer::Output))
            .collect(),
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
    assert_eq!(
        fit(&four.expected_stdout, &p, Printer::Output),
        Fit::Impossible
    );
    let p = record(&exe, four, warning, Limits::default()).expect("exits");
    assert_eq!(
        fit(&four.expected_stdout, &p, Printer::Output),
        Fit::Texts(vec![Vec::new()])
    );
    let p = record(&exe, four, done, Limits::default()).expect("exits");
    assert_eq!(
        fit(&four.expected_stdout, &p, Printer::Output),
        Fit::Impossible
    );
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

/// A statement, a test, and the iteration and text of each instance whose
/// text changes.
type Texts = (StmtId, usize, Vec<(u32, String)>);

/// Checks each of `stmts` alone on every failing test of `s` by text
/// (on the path, on `full`'s focused formula, by re-execution) and on the
/// test's own formula: the same verdicts, no solver call for the former.
/// Returns the angelic values of the explained checks by text, per
/// statement and test: each instance's iteration and text.
fn agree(s: &Session, stmts: &[StmtId]) -> Vec<Texts> {
    let mut by_text = Engine::new(s, Options::default(), Encoding::Full);
    let mut by_formula = Engine::new(s, Options::default(), Encoding::Full);
    let mut out = Vec::new();
    for &o in stmts {
        let d = BTreeSet::from([o]);
        for &t in &s.failing {
            let own = by_formula
                .explain_by(t, &d, &[], Check::Own)
                .expect("no limit");
            let mut values = Vec::new();
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
                    values = e
                        .angelic
                        .iter()
                        .map(|a| {
                            let k = a.ctx.iter().find_map(|s| match s {
                                Scope::Iter(_, k) => Some(*k),
                                Scope::Call(_) => None,
                            });
                            match (k, &a.value) {
                                (Some(k), AngelicValue::Output { text }) => (k, text.clone()),
                                other => panic!("not an output in the loop: {other:?}"),
                            }
                        })
                        .collect();
                }
            }
            if !values.is_empty() {
                out.push((o, t, values));
            }
        }
    }
    let stats = by_text
        .into_localization(String::new(), Vec::new(), Vec::new(), None, Instant::now())
        .stats;
    assert_eq!(stats.solver_calls, 0);
    out
}

#[test]
fn the_text_check_agrees_with_the_formula_without_a_solver_call() {
    let prog = compile_src("warning.c", SRC);
    let tests = tests();
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![1, 2]);
    let warning = stmt(&prog, 9, "printf(\"warning\\n\");");
    let outputs = [
        stmt(&prog, 7, "printf(\"%d\\n\", i * i);"),
        warning,
        stmt(&prog, 11, "printf(\"done\\n\");"),
    ];
    // Only the warning explains a test: it prints nothing at `i == 2`.
    assert_eq!(
        agree(&s, &outputs),
        [
            (warning, 1, vec![(2, String::new())]),
            (warning, 2, vec![(2, String::new())]),
        ]
    );
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

/// examples/extra-call, relaxed as each method relaxes it.
fn extra_call() -> (faultline_ir::Program, Vec<faultline_exec::TestCase>) {
    let dir = root().join("examples/extra-call");
    (
        compile(&dir.join("squares.c")),
        load_tests(&dir.join("tests")),
    )
}

#[test]
fn a_call_that_only_prints_may_be_skipped() {
    let (prog, tests) = extra_call();
    let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["four", "one", "two", "zero"]);
    let exe = Executable::new(&prog).expect("starts");
    let call = stmt(&prog, 17, "note(i);");
    let note = stmt(&prog, 7, "printf(\"(%d is odd)\\n\", i);");
    assert_eq!(text_only(&prog).get(&call), Some(&Printer::Call));
    assert_eq!(text_only(&prog).get(&note), Some(&Printer::Output));
    // Each call's instance prints its note; skipped, nothing.
    let four = &tests[0];
    let p = record(&exe, four, call, Limits::default()).expect("exits");
    let notes: Vec<&[u8]> = p
        .segments
        .iter()
        .map(|s| &p.stdout[s.start..s.end])
        .collect();
    assert_eq!(
        notes,
        [
            &b"(0 is odd)\n"[..],
            b"(1 is odd)\n",
            b"(2 is odd)\n",
            b"(3 is odd)\n"
        ]
    );
    let texts = |v: &[&str]| Fit::Texts(v.iter().map(|t| t.as_bytes().to_vec()).collect());
    assert_eq!(
        fit(&four.expected_stdout, &p, Printer::Call),
        texts(&["", "(1 is odd)\n", "", "(3 is odd)\n"])
    );
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![0, 1, 2]);
    // The verdicts of the text check are the formula's, where the call is
    // skipped at the even numbers.
    let skipped =
        |t: usize, ks: &[u32]| (call, t, ks.iter().map(|k| (*k, String::new())).collect());
    let printed =
        |t: usize, ks: &[u32]| (note, t, ks.iter().map(|k| (*k, String::new())).collect());
    assert_eq!(
        agree(&s, &[note, call]),
        vec![
            printed(0, &[0, 2]),
            printed(1, &[0]),
            printed(2, &[0]),
            skipped(0, &[0, 2]),
            skipped(1, &[0]),
            skipped(2, &[0]),
        ]
    );
}

#[test]
fn every_method_names_the_call_that_only_prints() {
    let (prog, tests) = extra_call();
    let s = session(&prog, &tests);
    let call = set(&prog, &[(17, "note(i);")]);
    let note = set(&prog, &[(7, "printf(\"(%d is odd)\\n\", i);")]);
    for (enc, combine) in [
        (Encoding::Full, Combine::Mbd),
        (Encoding::Flow, Combine::Mbd),
        (Encoding::Trace, Combine::Mbd),
        (Encoding::Full, Combine::PerTest),
    ] {
        let loc = localize(&s, enc, combine, &options(1));
        // Per test, each test's diagnoses in turn: the same two.
        let mut found: Vec<Set> = Vec::new();
        for d in reported(&loc) {
            if !found.contains(&d) {
                found.push(d);
            }
        }
        assert_eq!(
            show_all(&prog, &found),
            show_all(&prog, &[note.clone(), call.clone()]),
            "{enc:?} {combine:?}"
        );
        // The call's values make every failing test pass (per test, a
        // diagnosis has the values of its own test only).
        if matches!(combine, Combine::Mbd) {
            assert!(
                faultline_diagnose::witness::reported_values_pass(&s, &loc, &loc.diagnoses[1]),
                "{enc:?}"
            );
        }
    }
}
