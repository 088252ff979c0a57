//! Same input, same result, statistics included: separate processes (each
//! with its own hash seeds) localize TCAS v33, whose pairs are validated on
//! the tests outside the joint formula with witnesses grouped by path. The
//! fallback witness was the first of a hash map's groups, so the solver calls
//! it saved varied from one process to the next (80, 81 or 82).
//!
//! Likewise the course benchmark's `dayofyear`, whose check of the array
//! initializer is near the effort limit: the encoder's map of term values
//! released its terms in the hash map's (random) order, Z3 reused their ids
//! in that order, and the check reached the limit in one process out of
//! three.

mod common;

use common::*;

fn localize_v33() -> serde_json::Value {
    let tcas = tcas();
    let o = faultline()
        .current_dir(&tcas)
        .args([
            "localize",
            "versions/v33/tcas.c",
            "--args-file",
            "universe.txt",
            "--oracle",
            "tcas.c",
            "--format",
            "json",
        ])
        .output()
        .expect("faultline runs");
    serde_json::from_slice(&o.stdout).expect("a JSON report")
}

#[test]
fn separate_processes_give_the_same_diagnoses_and_solver_calls() {
    let runs: Vec<serde_json::Value> = (0..4).map(|_| localize_v33()).collect();
    let first = &runs[0];
    assert_eq!(first["complete"], true);
    for r in &runs[1..] {
        assert_eq!(r["diagnoses"], first["diagnoses"]);
        assert_eq!(r["stats"]["solver_calls"], first["stats"]["solver_calls"]);
        assert_eq!(
            r["stats"]["statement_instances"],
            first["stats"]["statement_instances"]
        );
    }
}

fn localize_dayofyear() -> serde_json::Value {
    let o = faultline_root(&[
        "localize",
        "benchmarks/course/dayofyear/dayofyear.c",
        "--tests",
        "benchmarks/course/dayofyear/tests",
        "--format",
        "json",
    ]);
    serde_json::from_str(&o.stdout).expect("a JSON report")
}

#[test]
fn an_effort_limit_is_reached_in_every_process_or_in_none() {
    let runs: Vec<serde_json::Value> = (0..3).map(|_| localize_dayofyear()).collect();
    let first = &runs[0];
    let lines = diagnosis_lines(first);
    assert!(lines.contains(&vec![18]), "{lines:?}");
    for r in &runs[1..] {
        assert_eq!(r["complete"], first["complete"]);
        assert_eq!(r["diagnoses"], first["diagnoses"]);
        assert_eq!(r["stats"]["solver_calls"], first["stats"]["solver_calls"]);
    }
}
