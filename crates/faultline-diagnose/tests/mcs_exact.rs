//! Hand-written MCS enumeration cases with known answers.

use std::time::{Duration, Instant};

use faultline_diagnose::mcs::{
    enumerate, Mcs, McsEnumerator, McsOptions, McsOutcome, Order, Stop, StopReason,
};
use z3::ast::Bool;
use z3::{SatResult, Solver};

fn options(order: Order, max_size: usize) -> McsOptions {
    McsOptions {
        max_size,
        order,
        ..McsOptions::default()
    }
}

fn sets(outcome: &McsOutcome) -> Vec<(Vec<usize>, u64)> {
    outcome
        .mcses
        .iter()
        .map(|m| (m.members.clone(), m.cost))
        .collect()
}

fn set(members: &[usize], cost: u64) -> (Vec<usize>, u64) {
    (members.to_vec(), cost)
}

fn consts(prefix: &str, n: usize) -> Vec<Bool> {
    (0..n)
        .map(|i| Bool::new_const(format!("{prefix}{i}")))
        .collect()
}

fn weighted(lits: &[Bool], weights: &[u64]) -> Vec<(Bool, u64)> {
    lits.iter().cloned().zip(weights.iter().copied()).collect()
}

/// The model falsifies exactly the members' soft terms.
fn assert_witness(mcs: &Mcs, softs: &[(Bool, u64)]) {
    for (i, (lit, _)) in softs.iter().enumerate() {
        let value = mcs.model.eval(lit, true).and_then(|v| v.as_bool());
        assert_eq!(
            value,
            Some(!mcs.members.contains(&i)),
            "soft {i} in the model of {:?}",
            mcs.members
        );
    }
}

/// `x = false; a = !x; b = a; assert(!b)`, one soft per statement.
fn straight_line(solver: &Solver) -> Vec<Bool> {
    let x = Bool::new_const("x");
    let a = Bool::new_const("a");
    let b = Bool::new_const("b");
    let s = consts("ok", 3);
    solver.assert(s[0].implies(x.iff(Bool::from_bool(false))));
    solver.assert(s[1].implies(a.iff(x.not())));
    solver.assert(s[2].implies(b.iff(&a)));
    solver.assert(b.not());
    s
}

#[test]
fn straight_line_program_cardinality() {
    let solver = Solver::new();
    let s = straight_line(&solver);
    let softs = weighted(&s, &[1, 1, 1]);
    let out = enumerate(&solver, &softs, &options(Order::Cardinality, 3));
    assert!(out.complete);
    assert_eq!(out.stop, None);
    assert_eq!(sets(&out), vec![set(&[0], 1), set(&[1], 1), set(&[2], 1)]);
    for m in &out.mcses {
        assert_witness(m, &softs);
    }
}

#[test]
fn straight_line_program_weight() {
    let solver = Solver::new();
    let s = straight_line(&solver);
    let softs = weighted(&s, &[3, 1, 2]);
    let out = enumerate(&solver, &softs, &options(Order::Weight, 3));
    assert!(out.complete);
    assert_eq!(sets(&out), vec![set(&[1], 1), set(&[2], 2), set(&[0], 3)]);
}

/// Hard: ¬s0 ∨ ¬s1, ¬s1 ∨ ¬s2. MCSes: {1} and {0, 2}.
fn two_conflicts(solver: &Solver) -> Vec<Bool> {
    let s = consts("t", 3);
    solver.assert(Bool::or(&[s[0].not(), s[1].not()]));
    solver.assert(Bool::or(&[s[1].not(), s[2].not()]));
    s
}

#[test]
fn weight_order_puts_a_heavy_singleton_after_a_light_pair() {
    let solver = Solver::new();
    let s = two_conflicts(&solver);
    let softs = weighted(&s, &[1, 5, 1]);
    let card = {
        let solver = Solver::new();
        let s = two_conflicts(&solver);
        enumerate(
            &solver,
            &weighted(&s, &[1, 5, 1]),
            &options(Order::Cardinality, 3),
        )
    };
    assert_eq!(sets(&card), vec![set(&[1], 1), set(&[0, 2], 2)]);
    let out = enumerate(&solver, &softs, &options(Order::Weight, 3));
    assert!(out.complete);
    assert_eq!(sets(&out), vec![set(&[0, 2], 2), set(&[1], 5)]);
    for m in &out.mcses {
        assert_witness(m, &softs);
    }
}

#[test]
fn max_size_bounds_cardinality_in_both_orders() {
    for order in [Order::Cardinality, Order::Weight] {
        let solver = Solver::new();
        let s = two_conflicts(&solver);
        let out = enumerate(&solver, &weighted(&s, &[1, 5, 1]), &options(order, 1));
        assert!(out.complete);
        assert_eq!(
            sets(&out),
            vec![set(&[1], if order == Order::Weight { 5 } else { 1 })]
        );
        let solver = Solver::new();
        let s = two_conflicts(&solver);
        let out = enumerate(&solver, &weighted(&s, &[1, 5, 1]), &options(order, 0));
        assert!(out.complete);
        assert!(out.mcses.is_empty());
    }
}

#[test]
fn unsatisfiable_hard_formula_has_no_mcs() {
    for order in [Order::Cardinality, Order::Weight] {
        let solver = Solver::new();
        let s = consts("u", 4);
        let y = Bool::new_const("y");
        solver.assert(&y);
        solver.assert(y.not());
        let out = enumerate(&solver, &weighted(&s, &[1, 2, 3, 4]), &options(order, 4));
        assert!(out.complete, "{order:?}");
        assert!(out.mcses.is_empty());
        assert_eq!(out.stop, None);
        // The unsat core proves it at once: one query.
        assert_eq!(out.solver_calls, 1, "{order:?}");
    }
}

#[test]
fn satisfiable_softs_give_the_empty_mcs_only() {
    for order in [Order::Cardinality, Order::Weight] {
        let solver = Solver::new();
        let s = consts("e", 3);
        solver.assert(Bool::or(&[&s[0], &s[1]]));
        let softs = weighted(&s, &[2, 2, 2]);
        let out = enumerate(&solver, &softs, &options(order, 3));
        assert!(out.complete);
        assert_eq!(sets(&out), vec![set(&[], 0)]);
        assert_witness(&out.mcses[0], &softs);
        // Blocking the empty set does not poison the solver.
        assert_eq!(solver.check(), SatResult::Sat);
    }
}

#[test]
fn no_softs() {
    let solver = Solver::new();
    let out = enumerate(&solver, &[], &options(Order::Cardinality, 3));
    assert_eq!(sets(&out), vec![set(&[], 0)]);
    let solver = Solver::new();
    solver.assert(Bool::from_bool(false));
    let out = enumerate(&solver, &[], &options(Order::Weight, 3));
    assert!(out.complete && out.mcses.is_empty());
}

/// Two independent failing checks: one needs {0} or {1}, the other {2} or {3}.
/// MCSes: all pairs {a, b} with a ∈ {0,1}, b ∈ {2,3}; plus, with soft 4 whose
/// falsity fixes both, {4}.
#[test]
fn level_of_pairs_is_sorted() {
    let solver = Solver::new();
    let s = consts("p", 5);
    solver.assert(Bool::or(&[s[0].not(), s[1].not(), s[4].not()]));
    solver.assert(Bool::or(&[s[2].not(), s[3].not(), s[4].not()]));
    let softs = weighted(&s, &[1, 1, 1, 1, 1]);
    let out = enumerate(&solver, &softs, &options(Order::Cardinality, 3));
    assert!(out.complete);
    assert_eq!(
        sets(&out),
        vec![
            set(&[4], 1),
            set(&[0, 2], 2),
            set(&[0, 3], 2),
            set(&[1, 2], 2),
            set(&[1, 3], 2),
        ]
    );
    // probe 0 (unsat), probe 1 + collect (2), probe 2: 4 found + 1 = 5,
    // probe 3 (unsat, core without the bound ends it).
    assert_eq!(out.solver_calls, 1 + 2 + 5 + 1);
}

#[test]
fn max_count_stops_early() {
    let solver = Solver::new();
    let s = straight_line(&solver);
    let mut opts = options(Order::Cardinality, 3);
    opts.max_count = 2;
    let out = enumerate(&solver, &weighted(&s, &[1, 1, 1]), &opts);
    assert!(!out.complete);
    assert_eq!(out.stop, Some(StopReason::MaxCount));
    assert_eq!(sets(&out), vec![set(&[0], 1), set(&[1], 1)]);
}

#[test]
fn deterministic_across_runs() {
    let run = || {
        let solver = Solver::new();
        let s = consts("d", 6);
        // Pairs of conflicting softs around a ring.
        for i in 0..6 {
            solver.assert(Bool::or(&[s[i].not(), s[(i + 1) % 6].not()]));
        }
        let out = enumerate(
            &solver,
            &weighted(&s, &[2, 1, 2, 1, 2, 1]),
            &options(Order::Weight, 6),
        );
        sets(&out)
    };
    let first = run();
    // Minimal vertex covers of a 6-cycle: two of size 3, three of size 4.
    assert_eq!(
        first,
        vec![
            set(&[1, 3, 5], 3),
            set(&[0, 1, 3, 4], 6),
            set(&[0, 2, 3, 5], 6),
            set(&[0, 2, 4], 6),
            set(&[1, 2, 4, 5], 6),
        ]
    );
    for _ in 0..3 {
        assert_eq!(run(), first);
    }
}

#[test]
fn deadline_in_the_past_times_out_without_solving() {
    let solver = Solver::new();
    let s = straight_line(&solver);
    let mut opts = options(Order::Cardinality, 3);
    opts.deadline = Some(Instant::now() - Duration::from_millis(1));
    let out = enumerate(&solver, &weighted(&s, &[1, 1, 1]), &opts);
    assert!(!out.complete);
    assert_eq!(out.stop, Some(StopReason::Timeout));
    assert!(out.mcses.is_empty());
    assert_eq!(out.solver_calls, 0);
}

#[test]
fn timed_out_enumerator_resumes_with_a_new_deadline() {
    let solver = Solver::new();
    let s = straight_line(&solver);
    let mut opts = options(Order::Weight, 3);
    opts.deadline = Some(Instant::now() - Duration::from_millis(1));
    let mut engine = McsEnumerator::new(opts);
    for lit in &s {
        engine.add_soft(lit.clone(), 1);
    }
    assert!(matches!(engine.next(&solver), Err(Stop::Timeout)));
    engine.set_deadline(Some(Instant::now() + Duration::from_secs(600)));
    let first = engine.next(&solver).unwrap().unwrap();
    assert_eq!(first.members, vec![0]);
    // The timeout parameter is reset: the solver has no limit afterwards.
    assert_eq!(solver.check(), SatResult::Sat);
}

#[test]
fn next_does_not_block_and_block_removes_supersets() {
    let solver = Solver::new();
    let s = consts("n", 5);
    solver.assert(Bool::or(&[s[0].not(), s[1].not(), s[4].not()]));
    solver.assert(Bool::or(&[s[2].not(), s[3].not(), s[4].not()]));
    let mut engine = McsEnumerator::new(options(Order::Cardinality, 3));
    for lit in &s {
        engine.add_soft(lit.clone(), 1);
    }
    let a = engine.next(&solver).unwrap().unwrap();
    let b = engine.next(&solver).unwrap().unwrap();
    assert_eq!(a.members, vec![4]);
    assert_eq!(b.members, vec![4]);
    engine.block(&solver, &[4]);
    // Blocking {0} removes {0,2} and {0,3}.
    engine.block(&solver, &[0]);
    let mut rest = Vec::new();
    while let Some(m) = engine.next(&solver).unwrap() {
        engine.block(&solver, &m.members);
        rest.push(m.members);
    }
    assert_eq!(rest, vec![vec![1, 2], vec![1, 3]]);
    assert_eq!(engine.blocked().len(), 4);
}

#[test]
fn temporary_constraints_do_not_leak() {
    let solver = Solver::new();
    let s = two_conflicts(&solver);
    let mut engine = McsEnumerator::new(options(Order::Weight, 3));
    for (i, lit) in s.iter().enumerate() {
        engine.add_soft(lit.clone(), [1, 5, 1][i]);
    }
    // Enumerate without blocking: next() twice over the whole state machine.
    let first = engine.next(&solver).unwrap().unwrap();
    assert_eq!(first.members, vec![0, 2]);
    // Softs 0 and 2 together are still satisfiable: nothing of the level
    // search constrains the solver.
    assert_eq!(
        solver.check_assumptions(&[s[0].clone(), s[2].clone()]),
        SatResult::Sat
    );
    assert_eq!(solver.check_assumptions(&[s[1].clone()]), SatResult::Sat);
    assert_eq!(solver.check(), SatResult::Sat);
}

#[test]
fn growing_formula_between_calls() {
    let solver = Solver::new();
    let s = straight_line(&solver);
    let mut engine = McsEnumerator::new(options(Order::Cardinality, 3));
    for lit in &s {
        engine.add_soft(lit.clone(), 1);
    }
    let first = engine.next(&solver).unwrap().unwrap();
    assert_eq!(first.members, vec![0]);
    // A new observation: x must be false, so statement 0 cannot be the fix,
    // and a new statement `c = b` whose result must equal a.
    let x = Bool::new_const("x");
    engine.assert_hard(&solver, &x.not());
    let c = Bool::new_const("c");
    let b = Bool::new_const("b");
    let a = Bool::new_const("a");
    let s3 = Bool::new_const("ok3");
    solver.assert(s3.implies(c.iff(&b)));
    engine.invalidate();
    let i3 = engine.add_soft(s3.clone(), 1);
    assert_eq!(i3, 3);
    engine.assert_hard(&solver, &c.iff(&a));
    let mut all = Vec::new();
    while let Some(m) = engine.take_next(&solver).unwrap() {
        all.push(m.members);
    }
    // {1}: a = false, c = b = false is consistent with c = a. {2}: b = false,
    // but then c = b = false ≠ a = true unless 3 is relaxed too: {2, 3}.
    assert_eq!(all, vec![vec![1], vec![2, 3]]);
}

#[test]
#[should_panic(expected = "weights must be positive")]
fn zero_weight_is_rejected() {
    let mut engine = McsEnumerator::new(McsOptions::default());
    engine.add_soft(Bool::new_const("z"), 0);
}

/// `exhausted` answers "is a correction set left?" in one query: not after
/// blocking two of the three MCSes, yes after blocking all three, in both
/// orders; and `next` agrees with it afterwards.
#[test]
fn exhausted_after_blocking_every_mcs() {
    for order in [Order::Cardinality, Order::Weight] {
        let solver = Solver::new();
        let s = straight_line(&solver);
        let mut en = McsEnumerator::new(options(order, 3));
        for lit in &s {
            en.add_soft(lit.clone(), 1);
        }
        en.block(&solver, &[0]);
        en.block(&solver, &[2]);
        let calls = en.solver_calls();
        assert_eq!(en.exhausted(&solver), Ok(false), "{order:?}");
        assert_eq!(en.solver_calls(), calls + 1, "{order:?}: one query");
        let next = en.next(&solver).expect("answers").expect("one left");
        assert_eq!(next.members, vec![1], "{order:?}");
        en.block(&solver, &[1]);
        let calls = en.solver_calls();
        assert_eq!(en.exhausted(&solver), Ok(true), "{order:?}");
        assert_eq!(en.solver_calls(), calls + 1, "{order:?}: one query");
        assert!(en.next(&solver).expect("answers").is_none(), "{order:?}");
    }
}
