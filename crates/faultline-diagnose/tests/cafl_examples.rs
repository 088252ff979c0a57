//! CaFL's two worked examples, step by step (examples/cafl-cascade,
//! examples/cafl-omission): exact causes, critical conditions and feedback.

use faultline_diagnose::cafl::critical::CriticalKind::{self, Direct, Indirect};
use faultline_diagnose::cafl::wp::WpOptions;
use faultline_diagnose::cafl::{CaflOptions, Explainer, NodeState};
use faultline_exec::{Compare, Limits, TestCase};
use faultline_ir::Program;
use std::path::Path;

fn load(dir: &str, file: &str) -> (Program, Vec<TestCase>) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples")
        .join(dir);
    let prog = faultline_c::compile_file(&root.join(file)).expect("compiles");
    let tests = faultline_exec::suite::load_dir(&root.join("tests")).expect("tests");
    (prog, tests)
}

fn explain<'p>(prog: &'p Program, tests: &[TestCase], options: CaflOptions) -> Explainer<'p> {
    Explainer::new(prog, &tests[0], Compare::Exact, Limits::default(), options).expect("explains")
}

/// The distinct lines of node `n`'s cause, sorted.
fn lines(ex: &Explainer, n: usize) -> Vec<u32> {
    let mut l: Vec<u32> = ex.node_lines(n).into_iter().map(|(l, _)| l).collect();
    l.sort_unstable();
    l.dedup();
    l
}

/// Critical conditions of node `n`: (line, kind).
fn conditions(ex: &Explainer, n: usize) -> Vec<(u32, CriticalKind)> {
    ex.nodes[n]
        .conditions
        .iter()
        .map(|c| (ex.line(c.step), c.kind))
        .collect()
}

/// The tree as (id, level, lines) in breadth-first order.
fn shape(ex: &Explainer) -> Vec<(String, u32, Vec<u32>)> {
    (0..ex.nodes.len())
        .map(|n| (ex.nodes[n].id.clone(), ex.nodes[n].level, lines(ex, n)))
        .collect()
}

fn every_option() -> Vec<CaflOptions> {
    let mut out = Vec::new();
    for slicing in [true, false] {
        for pruning in [true, false] {
            out.push(CaflOptions {
                wp: WpOptions { slicing, pruning },
                ..CaflOptions::default()
            });
        }
    }
    out
}

// Example 1: 10 x=0; 11 y=1; 12 if(y==1) 13 x=x+1; 14 assert(x==0)

#[test]
fn cascade_level_0_is_the_increment_from_zero() {
    let (prog, tests) = load("cafl-cascade", "cascade.c");
    for options in every_option() {
        let ex = explain(&prog, &tests, options);
        assert_eq!(lines(&ex, 0), vec![10, 13, 14]);
        assert!(ex.nodes[0].refuted);
        assert_eq!(ex.line(ex.nodes[0].failure), 14);
        // The increment is guarded by the branch at line 12 (direct).
        assert_eq!(conditions(&ex, 0), vec![(12, Direct)]);
        let from: Vec<u32> = ex.nodes[0].conditions[0]
            .from
            .iter()
            .map(|&s| ex.line(s))
            .collect();
        assert_eq!(from, vec![13]);
    }
}

#[test]
fn cascade_feedback_expands_the_condition_of_correct_statements() {
    let (prog, tests) = load("cafl-cascade", "cascade.c");
    let mut ex = explain(&prog, &tests, CaflOptions::default());
    // Line 10 alone is correct: it has no critical condition; nothing expands.
    ex.mark_correct(&[10]).unwrap();
    assert_eq!(shape(&ex), vec![("0".into(), 0, vec![10, 13, 14])]);
    // Lines 10 and 13 are correct: the critical condition at line 12 gives {11, 12}.
    ex.mark_correct(&[13]).unwrap();
    assert_eq!(
        shape(&ex),
        vec![
            ("0".into(), 0, vec![10, 13, 14]),
            ("0.0".into(), 1, vec![11, 12])
        ]
    );
    assert_eq!(ex.line(ex.nodes[1].failure), 12);
    assert_eq!(conditions(&ex, 1), vec![]);
    // The same tree without feedback (every condition expanded).
    let auto = explain(&prog, &tests, CaflOptions::default());
    assert_eq!(shape(&auto), shape(&ex));
    // Benign prunes: the level-1 cause disappears with its subtree.
    ex.mark_benign("0.0").unwrap();
    assert_eq!(ex.nodes[1].state, NodeState::Benign);
    ex.mark_benign("0").unwrap();
    assert_eq!(shape(&ex), vec![("0".into(), 0, vec![10, 13, 14])]);
    assert_eq!(ex.nodes[0].state, NodeState::Benign);
}

// Example 2: 11 a=2,b=1,c=1,d=0; 12 if(a>0){ 13 if(b<0) 14 if(c!=2) 15 c=2; 16 d=c+3;} 18 assert(d==5)

#[test]
fn omission_level_0_and_its_critical_conditions() {
    let (prog, tests) = load("cafl-omission", "omission.c");
    for options in every_option() {
        let ex = explain(&prog, &tests, options);
        assert_eq!(lines(&ex, 0), vec![11, 16, 18]);
        // Line 12 directly, line 13 indirectly (its untaken side assigns c);
        // not line 14, which did not execute.
        assert_eq!(conditions(&ex, 0), vec![(12, Direct), (13, Indirect)]);
        // Level 1: {11, 12} and {11, 13}.
        assert_eq!(
            shape(&ex),
            vec![
                ("0".into(), 0, vec![11, 16, 18]),
                ("0.0".into(), 1, vec![11, 12]),
                ("0.1".into(), 1, vec![11, 13]),
            ]
        );
        // Line 13's own condition is line 12, explained already by node 0.0.
        assert_eq!(conditions(&ex, 2), vec![(12, Direct)]);
        assert_eq!(ex.nodes[2].conditions[0].duplicate_of, Some(1));
    }
}

#[test]
fn omission_feedback_step_by_step() {
    let (prog, tests) = load("cafl-omission", "omission.c");
    let mut ex = explain(&prog, &tests, CaflOptions::default());
    // The assertion is correct: it has no critical condition.
    ex.mark_correct(&[18]).unwrap();
    assert_eq!(shape(&ex), vec![("0".into(), 0, vec![11, 16, 18])]);
    // d = c + 3 is correct: both of its critical conditions expand.
    ex.mark_correct(&[16]).unwrap();
    assert_eq!(
        shape(&ex),
        vec![
            ("0".into(), 0, vec![11, 16, 18]),
            ("0.0".into(), 1, vec![11, 12]),
            ("0.1".into(), 1, vec![11, 13]),
        ]
    );
    // The cause of taking a > 0 is benign: pruned, the other stays.
    ex.mark_benign("0.0").unwrap();
    assert_eq!(ex.nodes[1].state, NodeState::Benign);
    assert_eq!(ex.nodes[2].state, NodeState::Expanded);
    // Ranking: level, then trace order (line 11 holds four statements: `c = 1`
    // and `d = 0` at level 0, `a = 2` and `b = 1` at level 1).
    let ranked: Vec<(u32, u32)> = ex
        .ranking()
        .into_iter()
        .map(|(s, l)| (prog.stmt(s).loc.line, l))
        .collect();
    assert_eq!(
        ranked,
        vec![
            (11, 0),
            (16, 0),
            (18, 0),
            (11, 1),
            (11, 1),
            (12, 1),
            (13, 1)
        ]
    );
    assert_eq!(ex.lines_until(&[13]), Some(5));
    // User errors name what is wrong.
    let e = ex.mark_correct(&[3]).unwrap_err();
    assert!(e.contains("line 3"), "{e}");
    let e = ex.mark_benign("0.7").unwrap_err();
    assert!(e.contains("`0.7`"), "{e}");
}

#[test]
fn deterministic() {
    let (prog, tests) = load("cafl-omission", "omission.c");
    let a = shape(&explain(&prog, &tests, CaflOptions::default()));
    for _ in 0..3 {
        assert_eq!(shape(&explain(&prog, &tests, CaflOptions::default())), a);
    }
}
