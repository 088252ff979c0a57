//! `--threads`: a second engine takes every other single-statement check
//! once the rest of a pass is expected to cost (docs/how-it-works.md, "Two
//! engines"). The course benchmark's `selectionsort` spends about 130,000
//! units of encoding work in its checks: the second engine takes 25 of
//! them.

mod common;

use common::*;

fn selectionsort(threads: &str) -> serde_json::Value {
    let o = faultline_root(&[
        "localize",
        "benchmarks/course/selectionsort/selectionsort.c",
        "--tests",
        "benchmarks/course/selectionsort/tests",
        "--threads",
        threads,
        "--format",
        "json",
    ]);
    assert_eq!(o.status, 1, "{}", o.stderr);
    serde_json::from_str(&o.stdout).expect("a JSON report")
}

#[test]
fn two_engines_give_the_same_result_in_every_process() {
    let runs: Vec<serde_json::Value> = (0..3).map(|_| selectionsort("2")).collect();
    let first = &runs[0];
    assert_eq!(first["complete"], true);
    assert_eq!(first["stats"]["helper_checks"], 25);
    assert_eq!(first["stats"]["solver_calls"], 49);
    assert_eq!(diagnosis_lines(first), [[8], [7], [10], [9]]);
    for r in &runs[1..] {
        // The angelic values too: each engine's solver history is fixed.
        assert_eq!(r["diagnoses"], first["diagnoses"]);
        assert_eq!(r["stats"]["solver_calls"], first["stats"]["solver_calls"]);
        assert_eq!(r["stats"]["helper_checks"], first["stats"]["helper_checks"]);
    }
}

#[test]
fn one_engine_finds_the_same_diagnoses_alone() {
    let one = selectionsort("1");
    assert_eq!(one["complete"], true);
    assert_eq!(one["stats"]["helper_checks"], 0);
    assert_eq!(one["stats"]["solver_calls"], 49);
    // The same statements, in the same order. Not always the same angelic
    // values: a statement the second engine checks gets a model of its own
    // solver history (here the missing update of `n` at line 9, one value of
    // test t4), as valid as the first engine's.
    let statements = |j: &serde_json::Value| -> Vec<serde_json::Value> {
        j["diagnoses"]
            .as_array()
            .expect("diagnoses")
            .iter()
            .map(|d| d["statements"].clone())
            .collect()
    };
    let two = selectionsort("2");
    assert_eq!(statements(&one), statements(&two));
    assert_eq!(statements(&one).len(), 4);
    // The values of the statements the first engine checked in both runs
    // agree.
    assert_eq!(one["diagnoses"][0], two["diagnoses"][0]);
}

#[test]
fn a_cheap_localization_starts_no_second_engine() {
    let o = faultline_root(&[
        "localize",
        "examples/leap/leap.c",
        "--tests",
        "examples/leap/tests",
        "--format",
        "json",
    ]);
    let j: serde_json::Value = serde_json::from_str(&o.stdout).expect("a JSON report");
    assert_eq!(j["stats"]["helper_checks"], 0);
}

#[test]
fn threads_is_one_or_two() {
    for n in ["0", "3"] {
        let o = faultline_root(&[
            "localize",
            "examples/leap/leap.c",
            "--tests",
            "examples/leap/tests",
            "--threads",
            n,
        ]);
        assert_eq!(o.status, 2);
        assert_eq!(
            o.stderr,
            format!("error: --threads must be 1 or 2, not {n}\n")
        );
    }
}
