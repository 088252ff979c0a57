//! Exact diagnoses on small programs using heap memory and `goto`
//! (tests/localize/heap_list, heap_array, goto_cleanup), with `full`, `flow`
//! and `trace`, each checked against brute force over the definition of
//! `mbd` (every subset-minimal set explaining every failing test).

mod common;

use common::*;
use faultline_diagnose::Combine;
use faultline_smt::Encoding;
use Encoding::{Flow, Full, Trace};

/// Checks `name` with each encoding against brute force and against the
/// expected diagnoses (statement texts, in the reported order).
fn case(name: &str, want: &[(Encoding, &[&[&str]])]) {
    let (prog, tests) = localize_case(name);
    let mut got = Vec::new();
    let mut expected = Vec::new();
    for (e, sets) in want {
        let loc = check_brute(&prog, &tests, *e, Combine::Mbd, 3);
        let texts_of =
            |s: &Set| -> Vec<String> { s.iter().map(|&m| prog.stmt(m).text.to_string()).collect() };
        got.push((*e, reported(&loc).iter().map(texts_of).collect::<Vec<_>>()));
        expected.push((
            *e,
            sets.iter()
                .map(|s| texts_of(&texts(&prog, s)))
                .collect::<Vec<_>>(),
        ));
    }
    assert_eq!(got, expected, "{name}");
}

/// A sorted insertion into a linked list of `malloc`ed nodes walks past the
/// place to insert (`>=` for `<=`): found by `full` and `flow` (the walk's
/// condition, first: `<` for `>=` repairs it, see `faultline_diagnose::repair`);
/// `trace` keeps conditions hard, so only the values remain.
#[test]
fn heap_list() {
    let walk: &[&str] = &["p->next != NULL && p->next->key >= key"];
    let key: &[&str] = &["n->key = key;"];
    let print: &[&str] = &["printf(\"%d \", p->key);"];
    let both: &[&[&str]] = &[
        walk,
        key,
        print,
        &["scanf(\"%d\", &k) == 1", "printf(\"\\n\");"],
        &["p != NULL", "printf(\"\\n\");"],
    ];
    case(
        "heap_list",
        &[(Full, both), (Flow, both), (Trace, &[key, print])],
    );
}

/// A heap array's maximum misses its last element (`i < n - 1`, first: `<=`
/// for `<` repairs it).
#[test]
fn heap_array() {
    let both: &[&[&str]] = &[
        &["i < n - 1"],
        &["i++"],
        &["best = a[0];"],
        &["printf(\"%d\\n\", best);"],
        &["i = 0", "scanf(\"%d\", &a[i]) != 1"],
        &["scanf(\"%d\", &a[i]) != 1", "a[i] = 0;"],
        &["i = 1", "a[i] > best", "best = a[i];"],
    ];
    case(
        "heap_array",
        &[
            (Full, both),
            (Flow, both),
            (
                Trace,
                &[&["i++"], &["best = a[0];"], &["printf(\"%d\\n\", best);"]],
            ),
        ],
    );
}

/// A wrong assignment before a forward `goto` to a cleanup label: the
/// gotos' guards reach the label, so the fault is the first diagnosis with
/// every encoding. An update of `status` missing at the end of the loop
/// body also explains the tests (last of the single statements: an
/// insertion, without a repair); `trace` has no insertions. `full` and
/// `flow` find the same pairs.
#[test]
fn goto_cleanup() {
    let singles: [&[&str]; 6] = [
        &["sum = sum + x * 2;"],
        &["return sum;"],
        &["sum = 0"],
        &["status = 0"],
        &["printf(\"%d\\n\", total(n));"],
        &["missing update of `status` at the end of the loop body at line 7"],
    ];
    // Pairs of one size come in statement order, then by plausibility
    // (which reads their angelic values: the two encodings' models give
    // `status = 2;` different values, so that its pair with `i++` comes
    // earlier in `flow`).
    let with = |pairs: &[&'static [&'static str]]| -> Vec<&'static [&'static str]> {
        singles
            .iter()
            .copied()
            .chain(pairs.iter().copied())
            .collect()
    };
    let full = with(&[
        &["i < n", "sum = -status;"],
        &["i++", "sum = -status;"],
        &["scanf(\"%d\", &x) != 1", "sum = -status;"],
        &["x < 0", "sum = -status;"],
        &["status != 0", "sum = -status;"],
        &["i = 0", "status = 2;"],
        &["i = 0", "sum = -status;"],
        &["i < n", "status = 2;"],
        &["i++", "status = 2;"],
        &["scanf(\"%d\", &x) != 1", "status = 2;"],
        &["x < 0", "status = 1;"],
    ]);
    let flow = with(&[
        &["i < n", "sum = -status;"],
        &["i++", "status = 2;"],
        &["i++", "sum = -status;"],
        &["scanf(\"%d\", &x) != 1", "sum = -status;"],
        &["x < 0", "sum = -status;"],
        &["status != 0", "sum = -status;"],
        &["i = 0", "status = 2;"],
        &["i = 0", "sum = -status;"],
        &["i < n", "status = 2;"],
        &["scanf(\"%d\", &x) != 1", "status = 2;"],
        &["x < 0", "status = 1;"],
    ]);
    case(
        "goto_cleanup",
        &[
            (Full, &full),
            (Flow, &flow),
            (
                Trace,
                &[
                    &["sum = sum + x * 2;"],
                    &["return sum;"],
                    &["sum = 0"],
                    &["printf(\"%d\\n\", total(n));"],
                ],
            ),
        ],
    );
}

/// OFC's black boxes over code that frees heap blocks or jumps with `goto`
/// over-approximate it: OFC's MCSes equal the full formula's per failing test
/// on the three programs.
#[test]
fn ofc_equals_full_with_heap_and_goto() {
    use faultline_diagnose::methods::{self, Method};
    for name in ["heap_list", "heap_array", "goto_cleanup"] {
        let (prog, tests) = localize_case(name);
        let s = session(&prog, &tests);
        let run = |m: &str| {
            let loc = methods::run(&s, &Method::parse(m, None).expect("method"), &options(3));
            assert_eq!(loc.incomplete, None, "{name} {m}");
            assert!(loc.skipped.is_empty(), "{name} {m}: {:?}", loc.skipped);
            loc.failing
                .iter()
                .map(|&t| methods::per_test_sets(&loc, t))
                .collect::<Vec<_>>()
        };
        assert_eq!(run("ofc"), run("bugassist"), "{name}");
    }
}
