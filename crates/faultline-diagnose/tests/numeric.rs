//! Floating values searched by re-execution
//! ([`faultline_diagnose::numeric`]): examples/series sums e^x's Taylor
//! series with each term divided by `k + 1` instead of `k`. One shift of
//! the term at every iteration of a call makes the printed sum right, one
//! shift per call that prints a wrong number; an accumulator assigned
//! instead of added to needs its last value only. The search finds those
//! values without a solver call, refutes nothing, and `full` names the
//! term first.

mod common;

use common::*;
use faultline_diagnose::engine::{Check, Engine, Verdict};
use faultline_diagnose::numeric::{floating, value_search, Precision};
use faultline_diagnose::result::AngelicValue;
use faultline_diagnose::witness::Alt;
use faultline_diagnose::{localize, Combine, Options};
use faultline_exec::trace::Scope;
use faultline_exec::{Compare, Executable, Limits};
use faultline_smt::Encoding;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

fn series() -> (faultline_ir::Program, Vec<faultline_exec::TestCase>) {
    let dir = root().join("examples/series");
    (compile(&dir.join("expo.c")), load_tests(&dir.join("tests")))
}

#[test]
fn floating_statements_are_those_whose_first_value_is_floating() {
    let (prog, _) = series();
    let mut found: Vec<(u32, &str, Precision)> = floating(&prog)
        .into_iter()
        .map(|(s, p)| (prog.stmt(s).loc.line, prog.stmt(s).text.as_str(), p))
        .collect();
    found.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    // Not `k = 1`, `k++`, `n++` (integers), the `scanf` (the library
    // stores) or the `printf` (it stores nothing).
    assert_eq!(
        found,
        [
            (7, "sum = 1.0", Precision::Double),
            (7, "term = 1.0", Precision::Double),
            (11, "term = term * x / (k + 1);", Precision::Double),
            (12, "sum += term;", Precision::Double),
            (14, "return sum;", Precision::Double),
        ]
    );
    let single = compile_src(
        "single.c",
        "float half(float x) { float h = x / 2; return h; }\n\
         int main(void) { double d = half(3); printf(\"%f\\n\", d); return 0; }\n",
    );
    let mut found: Vec<(&str, Precision)> = floating(&single)
        .into_iter()
        .map(|(s, p)| (single.stmt(s).text.as_str(), p))
        .collect();
    found.sort_by(|a, b| a.0.cmp(b.0));
    assert_eq!(
        found,
        [
            ("double d = half(3);", Precision::Double),
            ("float h = x / 2;", Precision::Single),
            ("return h;", Precision::Single),
        ]
    );
}

/// The iteration of the outer loop (the call of `expo`) and of the inner
/// one of an instance of the term.
fn iterations(ctx: &[Scope]) -> (u32, u32) {
    match ctx {
        [Scope::Iter(_, call), Scope::Call(_), Scope::Iter(_, k)] => (*call, *k),
        other => panic!("not a term of a call's series: {other:?}"),
    }
}

#[test]
fn each_call_printing_a_wrong_sum_has_its_terms_shifted_alike() {
    let (prog, tests) = series();
    let exe = Executable::new(&prog).expect("starts");
    let term = stmt(&prog, 11, "term = term * x / (k + 1);");
    let names: Vec<&str> = tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["none", "one", "three", "two", "zero"]);
    let limits = Limits {
        max_steps: Some(1_000_000),
        ..Limits::default()
    };
    for (t, calls) in [(1, vec![0]), (2, vec![0, 2]), (3, vec![0, 1])] {
        let found = value_search(
            &exe,
            &tests[t],
            term,
            Precision::Double,
            2_000,
            limits,
            Compare::Exact,
        )
        .unwrap_or_else(|| panic!("no values for test {}", tests[t].name));
        // Every term of each call that printed a wrong sum, shifted by one
        // amount per call (the sum of `three`'s e^0 is right: its terms
        // are zero, and kept).
        let mut shifts: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
        for (ctx, alt) in &found.switches {
            let (call, k) = iterations(ctx);
            assert!(matches!(alt, Alt::Float(_)), "{alt:?}");
            shifts.entry(call).or_default().insert(k);
        }
        let every: BTreeSet<u32> = (0..29).collect();
        assert_eq!(
            shifts,
            calls.iter().map(|c| (*c, every.clone())).collect(),
            "test {}",
            tests[t].name
        );
        assert!(found.alike);
    }
}

#[test]
fn the_search_explains_without_a_solver_call_and_refutes_nothing() {
    let (prog, tests) = series();
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![1, 2, 3]);
    let mut engine = Engine::new(&s, Options::default(), Encoding::Full);
    let term = stmt(&prog, 11, "term = term * x / (k + 1);");
    for &t in &s.failing {
        let v = engine
            .explain_by(t, &BTreeSet::from([term]), &[], Check::Switched)
            .expect("no limit");
        let Verdict::Explained(e) = v else {
            panic!("test {t} not explained")
        };
        // The values replayed are those reported: each a double.
        assert!(!e.angelic.is_empty());
        for a in &e.angelic {
            let AngelicValue::Value { needed, .. } = &a.value else {
                panic!("not a value: {:?}", a.value)
            };
            needed.parse::<f64>().expect("a double");
        }
    }
    let stats = engine
        .into_localization(String::new(), Vec::new(), Vec::new(), None, Instant::now())
        .stats;
    assert_eq!(stats.solver_calls, 0);
}

const TOTAL: &str = r#"#include <stdio.h>

int main(void) {
    double price, total = 0.0;
    int n = 0;
    while (scanf("%lf", &price) == 1) {
        n++;
        total = price * 1.2;
        printf("item %d: %.2f\n", n, price * 1.2);
    }
    printf("total: %.2f\n", total);
    return 0;
}
"#;

#[test]
fn an_accumulator_assigned_needs_its_last_value_only() {
    let prog = compile_src("total.c", TOTAL);
    let tests = vec![
        stdin_test("one", "5\n", "item 1: 6.00\ntotal: 6.00\n"),
        stdin_test(
            "three",
            "5 2.5 10\n",
            "item 1: 6.00\nitem 2: 3.00\nitem 3: 12.00\ntotal: 21.00\n",
        ),
        // An item printed wrong: the total cannot make it right.
        stdin_test("item", "5 1\n", "item 1: 6.00\nitem 2: 1.00\ntotal: 7.20\n"),
    ];
    let s = session(&prog, &tests);
    assert_eq!(s.failing, vec![1, 2]);
    let total = stmt(&prog, 8, "total = price * 1.2;");
    let mut engine = Engine::new(&s, Options::default(), Encoding::Full);
    let d = BTreeSet::from([total]);
    let v = engine
        .explain_by(1, &d, &[], Check::Switched)
        .expect("no limit");
    let Verdict::Explained(e) = v else {
        panic!("not explained")
    };
    // Only the last instance keeps a changed value: it prints as 21.00.
    let changed: Vec<(u32, f64)> = e
        .angelic
        .iter()
        .filter_map(|a| match (&a.value, a.ctx.as_slice()) {
            (AngelicValue::Value { needed, computed }, [Scope::Iter(_, k)])
                if needed != computed =>
            {
                Some((*k, needed.parse::<f64>().expect("a double")))
            }
            _ => None,
        })
        .collect();
    assert_eq!(changed.len(), 1, "{:?}", e.angelic);
    assert_eq!(changed[0].0, 2);
    assert_eq!(format!("{:.2}", changed[0].1), "21.00");
    // Not found, not refuted: left to the formula.
    let exe = Executable::new(&prog).expect("starts");
    let found = value_search(
        &exe,
        &tests[2],
        total,
        Precision::Double,
        1_000,
        Limits::default(),
        Compare::Exact,
    );
    assert_eq!(found, None);
    assert!(matches!(
        engine
            .explain_by(2, &d, &[], Check::Switched)
            .expect("no limit"),
        Verdict::Undecided
    ));
}

#[test]
fn full_names_the_term_first() {
    let (prog, tests) = series();
    let s = session(&prog, &tests);
    let loc = localize(&s, Encoding::Full, Combine::Mbd, &options(1));
    assert_eq!(
        show_all(&prog, &reported(&loc)),
        show_all(
            &prog,
            &[
                set(&prog, &[(11, "term = term * x / (k + 1);")]),
                set(&prog, &[(9, "k = 1")]),
                set(&prog, &[(12, "sum += term;")]),
                set(&prog, &[(14, "return sum;")]),
                set(&prog, &[(7, "term = 1.0")]),
                set(&prog, &[(7, "sum = 1.0")]),
                set(&prog, &[(23, "printf(\"e^%.2f = %.4f\\n\", x, expo(x));")]),
            ]
        )
    );
}
