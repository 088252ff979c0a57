//! MDFS on three TCAS versions (the first failing test of each, as in
//! `faultline bench benchmarks/tcas.toml --methods mdfs`): a clean cut member
//! whose control parent is polluted (v22), a clean member whose inputs are
//! polluted (v40, the next minimum cut avoiding the clean members), and a
//! polluted branch that a repairing alteration skips (v3).

mod common;

use common::*;
use faultline_diagnose::mdfs::{self, MdfsOptions, MdfsReport, Round};
use faultline_diagnose::Options;
use faultline_exec::{suite, Limits};

/// MDFS on the first failing test of `version`: test `line` (1-based line
/// of universe.txt).
fn tcas(version: &str, line: usize) -> MdfsReport {
    let dir = root().join("tests/tcas");
    let lines = suite::read_args_file(&dir.join("universe.txt")).expect("universe.txt");
    let oracle = faultline_c::compile_file(&dir.join("tcas.c")).expect("tcas.c");
    let tests = suite::with_oracle(
        vec![lines[line - 1].clone()],
        &oracle,
        "tcas.c",
        Limits::default(),
    )
    .expect("oracle");
    let prog = compile(&dir.join("versions").join(version).join("tcas.c"));
    let s = session(&prog, &tests);
    let (_, report) =
        mdfs::localize(&s, &Options::default(), &MdfsOptions::default()).expect("mdfs runs");
    report.expect("a failing test")
}

fn cut_lines(r: &Round) -> Vec<u32> {
    r.cut.iter().map(|e| e.line).collect()
}

/// (lines of the members, verdict) of a round.
fn verdicts(r: &Round) -> Vec<(Vec<u32>, String)> {
    let line = |n: usize| r.cut.iter().find(|e| e.node == n).expect("a member").line;
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

fn one(lines: &[u32], verdict: &str) -> (Vec<u32>, String) {
    (lines.to_vec(), verdict.to_string())
}

/// v22 (fault on line 72: `upward_preferred = Up_Separation > ...`): the run
/// ends in the final `else` of `alt_sep_test` (line 138, `alt_sep =
/// UNRESOLVED`). The only cut before it is its condition `need_downward_RA`
/// (line 135); flipping it prints `DOWNWARD_RA`, still wrong: clean. That
/// only clears line 135's value; whether line 135 should have run at all is
/// decided by its control parent, `need_upward_RA` (line 133), the next
/// round's cut: flipping it prints the expected `UPWARD_RA`: polluted. The
/// search follows that branch back to the fault.
#[test]
fn v22_a_clean_member_s_control_parent_is_tested() {
    let r = tcas("v22", 146);
    assert_eq!(cut_lines(&r.rounds[2]), vec![135]);
    assert_eq!(verdicts(&r.rounds[2]), vec![one(&[135], "clean")]);
    assert_eq!(r.rounds[2].outcome, "clean");
    let r4 = &r.rounds[3];
    assert_eq!(r4.avoided, vec![r.rounds[2].cut[0].node]);
    assert_eq!(r4.property, "the expected output");
    assert_eq!(cut_lines(r4), vec![133]);
    assert_eq!(verdicts(r4), vec![one(&[133], "polluted")]);
    assert_eq!(
        r.rounds[4].property,
        format!("need_upward_RA at line 133 (node {})", r4.cut[0].node)
    );
    let roots: Vec<u32> = r.root_causes.iter().map(|c| c.entity.line).collect();
    assert_eq!(roots, vec![72]);
}

/// v40 (faults on lines 75 and 126: `need_upward_RA` misses `&&
/// Own_Below_Threat()`): both `need_upward_RA` and `need_downward_RA` are
/// true, so the "unreachable" branch of line 128 runs and sets `alt_sep =
/// UNRESOLVED` (line 132). Flipping line 128 alone reaches `UPWARD_RA`,
/// wrong: clean. Its control parent (line 124) is clean too. The next
/// minimum cut avoiding both is the values line 128 and what controls
/// line 124 read: lines 126, 127 and 118-120; altering `need_upward_RA`
/// (line 126) repairs the output: polluted, and the search goes on into
/// `Non_Crossing_Biased_Climb`.
#[test]
fn v40_the_next_cut_avoids_the_clean_members() {
    let r = tcas("v40", 10);
    assert_eq!(cut_lines(&r.rounds[2]), vec![128]);
    assert_eq!(r.rounds[2].outcome, "clean");
    let r4 = &r.rounds[3];
    assert_eq!(cut_lines(r4), vec![124]);
    assert_eq!(verdicts(r4), vec![one(&[124], "clean")]);
    let r5 = &r.rounds[4];
    assert_eq!(r5.avoided, vec![r.rounds[2].cut[0].node, r4.cut[0].node]);
    assert_eq!(cut_lines(r5), vec![126, 127, 118, 119, 120]);
    assert_eq!(r5.outcome, "polluted");
    assert_eq!(
        verdicts(r5)[..5].to_vec(),
        vec![
            one(&[126], "polluted"),
            one(&[127], "clean"),
            one(&[118], "clean"),
            one(&[119], "clean"),
            one(&[120], "clean"),
        ]
    );
    assert_eq!(r.rounds[5].sinks, vec![r5.cut[0].node]);
}

/// v3 (fault on line 125: `||` for `&&` in `intent_not_known`): line 129's
/// condition should be false and the body, with the branches of lines
/// 133 and 138, should not run. Round 3 finds line 138 polluted; its property
/// "line 138 decides false" cannot hold by flipping line 133 (that skips
/// line 138), but flipping line 133 skips the polluted branch and prints
/// the expected output: polluted (round 4). Likewise line 129 (round 5),
/// whose property then leads to the fault: line 125 is polluted (round 6)
/// and a root cause.
#[test]
fn v3_a_skipped_polluted_branch_counts() {
    let r = tcas("v3", 15);
    let r4 = &r.rounds[3];
    assert_eq!(
        r4.property,
        format!(
            "!(need_upward_RA) at line 138 (node {})",
            r.rounds[2].cut[0].node
        )
    );
    assert_eq!(cut_lines(r4), vec![131, 133]);
    assert_eq!(
        verdicts(r4),
        vec![
            one(&[131], "polluted"),
            one(&[133], "polluted"),
            one(&[131, 133], "superset"),
        ]
    );
    let r5 = &r.rounds[4];
    assert_eq!(cut_lines(r5), vec![131, 129, 132]);
    assert_eq!(
        verdicts(r5)[..3].to_vec(),
        vec![
            one(&[131], "clean"),
            one(&[129], "polluted"),
            one(&[132], "polluted"),
        ]
    );
    let r6 = &r.rounds[5];
    assert_eq!(cut_lines(r6), vec![123, 124, 125]);
    assert_eq!(
        verdicts(r6)[..3].to_vec(),
        vec![
            one(&[123], "polluted"),
            one(&[124], "clean"),
            one(&[125], "polluted"),
        ]
    );
    let roots: Vec<u32> = r.root_causes.iter().map(|c| c.entity.line).collect();
    assert!(roots.contains(&125), "{roots:?}");
}
