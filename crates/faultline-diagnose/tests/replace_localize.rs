//! The Siemens program `replace` (tests/siemens/replace: the reference
//! program, two faulty versions, one failing test of each with its input
//! file): a program that reads its lines with `fgets` from stdin and prints
//! them with `fputc`, localized with the `trace` encoding and `mbd`. The
//! diagnoses are exactly these (the effort limit is deterministic).
//!
//! v17 (`result = NEWLINE;` for `result = ESCAPE;`, line 78): the faulty
//! line is the second diagnosis, after line 61 (`outset[*j] = c;`, which
//! stores the character printed: its single check used to reach the effort
//! limit and was left out; since the guards on the run's path are constants
//! its focused formula is decided). v15 (`result = i + 1;`, line 244, an off by
//! one that changes the path): `trace` cannot send the test down another
//! path, so its only diagnosis is the three statements that print the line.

mod common;

use common::*;
use faultline_diagnose::{localize, Combine, Localization};
use faultline_exec::suite::{read_command_file, with_oracle_in};
use faultline_exec::{Compare, Limits, TestCase};
use faultline_ir::Program;
use faultline_smt::Encoding;
use std::path::PathBuf;

fn dir() -> PathBuf {
    root().join("tests/siemens/replace")
}

/// The failing tests of a version: its command lines, run in `inputs/`,
/// judged against `source.c`.
fn tests_of(v: &str) -> Vec<TestCase> {
    let oracle = compile(&dir().join("source.c"));
    let lines = read_command_file(&dir().join(format!("{v}.txt"))).expect("command lines");
    let inputs = dir().join("inputs");
    with_oracle_in(
        lines,
        Some(&inputs),
        &oracle,
        "replace.c",
        None,
        Limits::default(),
    )
    .expect("the oracle runs")
    .tests
}

fn lines(prog: &Program, loc: &Localization) -> Vec<Vec<u32>> {
    loc.diagnoses
        .iter()
        .map(|d| d.stmts.iter().map(|s| prog.stmt(*s).loc.line).collect())
        .collect()
}

fn run(v: &str) -> (Program, Vec<TestCase>) {
    (compile(&dir().join(format!("{v}.c"))), tests_of(v))
}

/// The faulty assignment (line 78) is one of six single-statement
/// diagnoses, second in source order after `outset[*j] = c;` (line 61), which
/// can store the character the expected output needs; so can the call
/// `addstr(escjunk, sub, &j, MAXPAT)` (line 278) passing another character
/// (its arguments are relaxable). The search completes:
/// on the run's path only the recorded `switch` cases are encoded, which
/// keeps every single statement's check under the effort limit, and with
/// single statements found no larger set is searched (the default).
#[test]
fn v17_trace_names_the_faulty_assignment_among_single_statements() {
    let (prog, tests) = run("v17");
    let session =
        faultline_diagnose::Session::new(&prog, &tests, Compare::Exact, Limits::default())
            .expect("runs");
    assert_eq!(session.failing.len(), 1);
    let smallest = faultline_diagnose::Options {
        max_size: 3,
        ..faultline_diagnose::Options::default()
    };
    let loc = localize(&session, Encoding::Trace, Combine::Mbd, &smallest);
    assert!(loc.skipped.is_empty(), "{:?}", loc.skipped);
    assert_eq!(
        lines(&prog, &loc),
        vec![
            vec![61],
            vec![78],
            vec![90],
            vec![277],
            vec![278],
            vec![478]
        ]
    );
    // Every single check is decided within the effort limit.
    let inc = loc.incomplete.as_ref().map(|i| i.describe());
    assert_eq!(inc, None);
}

#[test]
fn v15_trace_keeps_the_path() {
    let (prog, tests) = run("v15");
    let session =
        faultline_diagnose::Session::new(&prog, &tests, Compare::Exact, Limits::default())
            .expect("runs");
    assert_eq!(session.failing.len(), 1);
    let loc = localize(&session, Encoding::Trace, Combine::Mbd, &options(3));
    assert!(loc.skipped.is_empty(), "{:?}", loc.skipped);
    assert_eq!(lines(&prog, &loc), vec![vec![478, 502, 557]]);
    assert!(loc.incomplete.is_none(), "{:?}", loc.incomplete);
}
