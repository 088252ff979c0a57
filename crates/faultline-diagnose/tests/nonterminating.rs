//! A run that does not end (a loop counting the wrong way, one of the most
//! common beginner bugs, `examples/endless`) is a failing run like any
//! other: its trace is kept for a prefix only, its formula unrolls the loop
//! to a small bound, and the solver chooses when the loop ends, so the
//! statement that keeps it going is the first diagnosis.

mod common;

use common::*;
use faultline_diagnose::session::{CUT_TRACE_STEPS, CUT_UNWIND};
use faultline_diagnose::{localize, Combine, Session};
use faultline_exec::{Compare, Limits};
use faultline_smt::Encoding;

#[test]
fn endless_loop_is_localized_at_the_statement_that_keeps_it_going() {
    let dir = root().join("examples/endless");
    let prog = compile(&dir.join("endless.c"));
    let tests = load_tests(&dir.join("tests"));
    let limits = Limits {
        max_steps: Some(2 * CUT_TRACE_STEPS),
        max_time: None,
        ..Limits::default()
    };
    let s = Session::new(&prog, &tests, Compare::Exact, limits).expect("the tests run");
    // t1 (n = 3) and t3 (n = 5) loop for ever; t2 (n = 0) never enters the loop.
    assert_eq!(s.failing, vec![0, 2]);
    assert_eq!(s.cut_runs(), vec![0, 2]);
    for t in &s.failing {
        assert!(s.traces[t].events.len() as u64 <= CUT_TRACE_STEPS + 1);
    }
    let needs = s.needs();
    let the_loop = stmt(&prog, 7, "i <= n");
    assert_eq!(needs.loops.get(&the_loop), Some(&CUT_UNWIND));
    let loc = localize(&s, Encoding::Full, Combine::Mbd, &options(3));
    assert_eq!(loc.incomplete, None);
    // Pairs with fewer implausible statements first (a constant such as
    // `sum = 0` needing different values on t1 and t3 is implausible).
    let expected = vec![
        set(&prog, &[(9, "i--;")]),
        set(&prog, &[(7, "i <= n"), (8, "sum += i;")]),
        set(&prog, &[(4, "sum = 0"), (7, "i <= n")]),
        set(&prog, &[(6, "i = 1;"), (7, "i <= n")]),
        set(&prog, &[(7, "i <= n"), (11, "printf(\"%d\\n\", sum);")]),
        set(&prog, &[(4, "sum = 0"), (6, "i = 1;")]),
        set(&prog, &[(6, "i = 1;"), (11, "printf(\"%d\\n\", sum);")]),
    ];
    assert_eq!(
        reported(&loc),
        expected,
        "{}",
        show_all(&prog, &reported(&loc))
    );
    assert!(
        loc.notes
            .iter()
            .any(|n| n.starts_with("test t1 did not end within the interpreter's limits")),
        "{:?}",
        loc.notes
    );
}
