//! MDFS (minimum debugging frontier sets): the worked example round by round,
//! user properties, errors, and TCAS.

mod common;

use common::*;
use faultline_diagnose::mdfs::{self, MdfsOptions, MdfsReport};
use faultline_diagnose::{Localization, Options};
use faultline_ir::Program;

fn run(
    prog: &Program,
    tests: &[faultline_exec::TestCase],
    m: &MdfsOptions,
) -> (Localization, MdfsReport) {
    let s = session(prog, tests);
    let (loc, report) = mdfs::localize(&s, &Options::default(), m).expect("mdfs runs");
    (loc, report.expect("a failing test"))
}

/// Lines of a round's cut, nearest the failure first.
fn cut_lines(r: &mdfs::Round) -> Vec<u32> {
    r.cut.iter().map(|e| e.line).collect()
}

/// The verdicts of a round as (lines of the members, verdict).
fn verdicts(report: &MdfsReport, r: &mdfs::Round) -> Vec<(Vec<u32>, String)> {
    let line = |node: usize| {
        r.cut
            .iter()
            .find(|e| e.node == node)
            .map(|e| e.line)
            .unwrap_or_else(|| {
                panic!(
                    "node {node} is on the cut of round {} of {report:?}",
                    r.index
                )
            })
    };
    r.verdicts
        .iter()
        .map(|v| {
            (
                v.members.iter().map(|&n| line(n)).collect(),
                v.verdict.clone(),
            )
        })
        .collect()
}

/// The worked example: `examples/mid/mid.c` (faults on lines 10 and 14), test
/// `2 1 3`, which prints 1 where 2 is expected.
///
/// The failing run executes: 9 `scanf` (input), 10 `m = y` (m = 1),
/// 11 `y < z` (true), 12 `x < y` (false), 14 `x > z` (false), 22 `printf`
/// (the failure point p), 23 `return 0`.
///
/// The DDG, input-only instances dropped (so what read only the input
/// depends on the entry):
/// - 10 ← entry (it reads only `y`, an input);
/// - 11 ← entry; 12 ← 11 (control); 14 ← 12 (control);
/// - 22 ← 10 (data: the last write of `m`), and summary control
///   dependences of its use of `m`: the branches after line 10 whose other
///   outcome may assign `m` are 11 (its else part), 12 (line 13) and 14
///   (line 15); only the innermost one, 14, is kept (12 and 11 reach 22
///   through it by control dependences): 22 ← 14.
///
/// Round 1 (entry → p; 22 is p itself and is never cut). Paths: entry → 10 →
/// 22 and entry → 11 → 12 → 14 → 22. Minimum cuts have two members: {10,
/// 11}, {10, 12} or {10, 14}; the distances to p are 10: 2, 14: 2, 12: 3,
/// 11: 4, so the cut is {10, 14}. Verdicts: {10} polluted (`m = 2` prints
/// 2); {14} polluted (taking the true branch runs line 15, `m = x` = 2);
/// {10, 14} not tested (superset). Line 10 is a value: it is reported; line
/// 14 is a branch: the new property is its negated decision, `x > z` true,
/// at line 14.
///
/// Round 2 (entry → 14): entry → 11 → 12 → 14; the cut is {12} (distance 3
/// beats 11's 4). Flipping 12 runs line 13 and never reaches 14, and the
/// output stays wrong (`m = y` prints 1), so line 14 is neither decided the
/// other way nor skipped by a repair: clean.
///
/// Round 3: a clean member only shows that no value of its own repairs the
/// failure, not that it should have run: its control parent, 11, is tested
/// before the fault is put after the cut (same region and property, 12
/// avoided). Flipping 11 runs the outer else part (line 17 `x > y` true,
/// line 18 `m = y`): line 14 is not reached and 1 is printed: clean. 11 has
/// no control parent in the region (it is at the top of `main`), and every
/// other cut would contain 12 or 11 (12 also reads input, so entry → 12 → 14
/// cannot be cut elsewhere): the fault lies after {12, 11}, which become the
/// sources, and from them to 14 nothing is left to cut: the search stops.
/// Root causes: lines 10 and 14.
#[test]
fn worked_example_round_by_round() {
    let prog = compile(&root().join("examples/mid/mid.c"));
    let tests = load_tests(&root().join("examples/mid/tests"));
    let (loc, report) = run(&prog, &tests, &MdfsOptions::default());
    assert_eq!(report.test, "t213");
    assert_eq!(report.rounds.len(), 3, "{report:#?}");

    let r1 = &report.rounds[0];
    assert_eq!(r1.property, "the expected output");
    assert_eq!(cut_lines(r1), vec![10, 14]);
    assert_eq!(
        verdicts(&report, r1),
        vec![
            (vec![10], "polluted".to_string()),
            (vec![14], "polluted".to_string()),
            (vec![10, 14], "superset".to_string()),
        ]
    );
    assert_eq!(r1.outcome, "polluted");
    assert_eq!(r1.reported, vec![r1.cut[0].node]);

    let r2 = &report.rounds[1];
    assert_eq!(
        r2.property,
        format!("x > z at line 14 (node {})", r1.cut[1].node)
    );
    assert_eq!(cut_lines(r2), vec![12]);
    assert_eq!(verdicts(&report, r2), vec![(vec![12], "clean".to_string())]);
    assert_eq!(r2.outcome, "clean");
    assert!(r2.avoided.is_empty());

    let r3 = &report.rounds[2];
    assert_eq!(r3.property, r2.property);
    assert_eq!(r3.avoided, vec![r2.cut[0].node]);
    assert_eq!(cut_lines(r3), vec![11]);
    assert_eq!(verdicts(&report, r3), vec![(vec![11], "clean".to_string())]);
    assert_eq!(r3.outcome, "clean");

    let roots: Vec<u32> = report.root_causes.iter().map(|r| r.entity.line).collect();
    assert_eq!(roots, vec![10, 14]);
    let chain: Vec<u32> = report.root_causes[1].chain.iter().map(|e| e.line).collect();
    assert_eq!(chain, vec![14, 22]);
    assert_eq!(report.root_causes[0].entity.distance, 2);

    // Diagnoses and ranking: the root causes first, then by distance.
    let lines: Vec<u32> = loc
        .diagnoses
        .iter()
        .map(|d| prog.stmt(d.stmts[0]).loc.line)
        .collect();
    assert_eq!(lines, vec![10, 14]);
    let ranked: Vec<u32> = loc
        .ranking
        .iter()
        .map(|r| prog.stmt(r.stmt).loc.line)
        .collect();
    assert_eq!(ranked, vec![10, 14, 22, 12, 11]);
}

/// `--property m == 2`: `m` is the value of the run's last assignment to `m`
/// (line 10). Round 1 has the same cut; altering line 10 satisfies the
/// property, flipping line 14 does not (line 15 is another assignment).
/// Line 10 has nothing to cut before it (it reads only input): stop.
#[test]
fn user_property_on_the_worked_example() {
    let prog = compile(&root().join("examples/mid/mid.c"));
    let tests = load_tests(&root().join("examples/mid/tests"));
    let m = MdfsOptions {
        property: Some("m == 2".into()),
        ..MdfsOptions::default()
    };
    let (_, report) = run(&prog, &tests, &m);
    assert_eq!(report.property, "m == 2");
    assert_eq!(report.rounds.len(), 1, "{report:#?}");
    let r1 = &report.rounds[0];
    assert_eq!(cut_lines(r1), vec![10, 14]);
    assert_eq!(
        verdicts(&report, r1),
        vec![
            (vec![10], "polluted".to_string()),
            (vec![14], "clean".to_string()),
            (vec![10, 14], "superset".to_string()),
        ]
    );
    let roots: Vec<u32> = report.root_causes.iter().map(|r| r.entity.line).collect();
    assert_eq!(roots, vec![10]);
}

#[test]
fn user_errors_are_one_line() {
    let prog = compile(&root().join("examples/mid/mid.c"));
    let tests = load_tests(&root().join("examples/mid/tests"));
    let s = session(&prog, &tests);
    let err = |m: MdfsOptions| mdfs::localize(&s, &Options::default(), &m).expect_err("an error");
    assert_eq!(
        err(MdfsOptions {
            property: Some("m = 2".into()),
            ..MdfsOptions::default()
        }),
        "--property: unexpected character `=` at column 3"
    );
    assert_eq!(
        err(MdfsOptions {
            property: Some("q > 1".into()),
            ..MdfsOptions::default()
        }),
        "--property: `q` is not assigned before the failure point of test 't213'"
    );
    assert_eq!(
        err(MdfsOptions {
            test: Some("t123".into()),
            ..MdfsOptions::default()
        }),
        "--test: test 't123' passes"
    );
    assert_eq!(
        err(MdfsOptions {
            test: Some("nope".into()),
            ..MdfsOptions::default()
        }),
        "--test: no test named 'nope'"
    );
}
