//! `mbd`'s joint formula (every statement relaxable, for diagnoses of two
//! statements or more) in the cheaper theory, unbounded integers and reals,
//! where the exact one is slow: after an exact query reaches the effort
//! limit, or from the start when the formula is large and holds products,
//! quotients or floating-point arithmetic of free values. Its candidates are
//! reported only once every test's exact focused formula confirms them. The
//! programs are IntroClass submissions (`digits`, `syllables`), in
//! tests/cheap_joint.

mod common;

use common::*;
use serde_json::Value;
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cheap_joint")
}

fn localize(name: &str, extra: &[&str]) -> (i32, Value) {
    let src = format!("{name}/digits.c");
    let tests = format!("{name}/tests");
    let mut args = vec!["localize", &src, "--tests", &tests, "--format", "json"];
    args.extend_from_slice(extra);
    let o = faultline_in(&dir(), &args, b"");
    let j = serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", o.stdout));
    (o.status, j)
}

/// `1c2bb3a4-000` prints a negative number's last digit with its sign: no
/// single statement explains the six tests, and the exact joint formula's
/// first query for two statements reaches the effort limit (the search
/// ended there, with no diagnosis). In the cheaper theory the search ends:
/// eleven diagnoses of two statements, each confirmed on every test's
/// exact formula, the result complete.
#[test]
fn the_search_goes_on_in_the_cheaper_theory_where_the_exact_query_reaches_the_limit() {
    let (status, j) = localize("digits", &[]);
    assert_eq!(status, 1, "{j}");
    assert_eq!(j["complete"], true, "{}", j["incomplete_reason"]);
    let print = 21; // printf("%d\n", x%10); in the negative branch
    assert_eq!(
        diagnosis_lines(&j),
        vec![
            vec![13, print],
            vec![18, 27],
            vec![print, 22],
            vec![print, 30],
            vec![print, 32],
            vec![print, 35],
            vec![print, 39],
            vec![print, 39],
            vec![print, 42],
            vec![print, 43],
            vec![print, 45],
        ]
    );
    // Every diagnosis has the values its statements would need, per test.
    for d in j["diagnoses"].as_array().unwrap() {
        assert!(!d["angelic"].as_array().unwrap().is_empty(), "{d}");
    }
}

/// `syllables/88394fc0-001` (`syllables` here) counts vowels in a buffer
/// of 20 characters: no single statement explains the tests, and the exact
/// joint formula's first query reaches the effort limit. Rebuilding it in
/// the cheaper theory drops the exact one, whose terms Z3 then reuses the
/// ids of, in the order they are released: the search gives 14 diagnoses,
/// complete, with 126 solver calls in every process. (With the tests'
/// encodings in a hashed map, released in a per-process order, the calls
/// varied from run to run: 117, 118, 119, 120.)
#[test]
fn the_switch_to_the_cheaper_theory_is_deterministic() {
    let run = || {
        let o = faultline_in(
            &dir(),
            &[
                "localize",
                "syllables/syllables.c",
                "--tests",
                "syllables/tests",
                "--format",
                "json",
            ],
            b"",
        );
        serde_json::from_str::<Value>(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", o.stdout))
    };
    let (first, second) = (run(), run());
    assert_eq!(first["complete"], true, "{}", first["incomplete_reason"]);
    assert_eq!(first["diagnoses"].as_array().unwrap().len(), 14);
    assert_eq!(first["diagnoses"], second["diagnoses"]);
    assert_eq!(first["stats"]["solver_calls"], 126);
    assert_eq!(second["stats"]["solver_calls"], 126);
}

/// `dc11fbc9-000` computes its digits with `pow`, `%` and `/` over ten
/// iterations: relaxed, each becomes a circuit over free values, and the
/// exact joint formula's first query took 1.9 GB. The formula is large and
/// holds such operations, so the search starts in the cheaper theory and
/// ends at the effort limit within 1 GiB instead of at the memory limit.
#[test]
fn a_large_joint_formula_of_slow_operations_starts_in_the_cheaper_theory() {
    let (status, j) = localize("digits_pow", &["--max-memory", "1024"]);
    assert_eq!(status, 3, "{j}");
    assert_eq!(j["complete"], false);
    assert_eq!(j["incomplete_kind"], "effort", "{}", j["incomplete_reason"]);
    assert_eq!(j["diagnoses"], serde_json::json!([]));
}
