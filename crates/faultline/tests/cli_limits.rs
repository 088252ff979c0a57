//! Limits as a user meets them: `--timeout` and `--max-memory` hold in every
//! phase (partial results, exit status 3), runs are limited like a real
//! machine's (time, an 8 MiB stack), `-o` is checked before the search, and
//! `--quiet` says why nothing was found. The programs are in tests/limits.

mod common;

use common::*;
use serde_json::Value;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/limits")
}

/// Runs faultline in `tests/limits`.
fn limits(args: &[&str], stdin: &[u8]) -> Output {
    faultline_in(&dir(), args, stdin)
}

fn json(o: &Output) -> Value {
    serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", o.stdout))
}

#[test]
fn an_endless_loop_with_timeout_2_gives_a_partial_result() {
    let o = limits(
        &[
            "localize",
            "endless/endless.c",
            "--tests",
            "endless/tests",
            "--timeout",
            "2",
            "--max-time",
            "10",
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(o.status, 3, "{}", o.stderr);
    let j = json(&o);
    assert_eq!(j["complete"], false);
    assert_eq!(j["incomplete_kind"], "timeout");
    assert_eq!(j["incomplete_reason"], "the time limit was reached");
}

#[test]
fn without_max_time_an_endless_test_leaves_time_to_localize() {
    // Each run may take a tenth of --timeout: the test that loops without
    // end takes 1 s, not the whole 10 s, and the search names the faulty
    // update of `i`.
    let o = limits(
        &[
            "localize",
            "endless/endless.c",
            "--tests",
            "endless/tests",
            "--timeout",
            "10",
            "--format",
            "json",
        ],
        b"",
    );
    let j = json(&o);
    // The time limit did not end it.
    assert_ne!(j["incomplete_kind"], "timeout", "{}", o.stdout);
    // The faulty update (line 9), and the other update of `i` (line 10):
    // with values of its choice it makes the loop sum to 45 and end (`i`
    // 0, 5, 9, 8, 7, 6, 5, 5, then 10).
    assert_eq!(diagnosis_lines(&j), [vec![10], vec![9]]);
}

#[test]
fn quiet_says_which_limit_ended_a_search_that_found_nothing() {
    let o = limits(
        &[
            "localize",
            "endless/endless.c",
            "--tests",
            "endless/tests",
            "--timeout",
            "2",
            "--max-time",
            "10",
            "--quiet",
        ],
        b"",
    );
    // t1 loops until the time limit stops everything (--max-time lets a run
    // take longer than the whole job).
    assert_eq!(
        (o.stdout.as_str(), o.status),
        (
            "no diagnosis: the search stopped early (the time limit was reached; after running 1 test)\n",
            3
        )
    );
}

#[test]
fn a_run_longer_than_max_time_fails_and_says_how_to_raise_the_limit() {
    let o = limits(
        &[
            "test",
            "endless/endless.c",
            "--tests",
            "endless/tests",
            "--max-time",
            "0.5",
        ],
        b"",
    );
    assert_eq!(o.status, 1);
    let line = o.stdout.lines().find(|l| l.starts_with("test t2")).unwrap();
    assert!(
        line.starts_with("test t2 ... FAILED: runtime error: endless/endless.c:")
            && line.contains(": the run reached the time limit of 0.5 s after ")
            && line.contains(" statements and loop iterations (--max-time raises it)"),
        "{line}"
    );
    assert!(
        o.stdout.ends_with("\n2 tests: 1 passed, 1 failed\n"),
        "{}",
        o.stdout
    );
}

#[test]
fn max_steps_still_gives_a_reproducible_limit() {
    let o = limits(
        &["run", "endless/endless.c", "--max-steps", "1000"],
        b"10\n",
    );
    assert_eq!(
        (o.stderr.as_str(), o.status),
        (
            "faultline: runtime error: endless/endless.c:8: the run reached the step limit of 1000 statements and loop iterations (--max-steps raises it) (in `s = s + i;`)\n",
            139
        )
    );
}

#[test]
fn recursion_runs_as_deep_as_an_8_mib_stack_allows() {
    let o = limits(&["run", "recursion.c"], b"100000\n");
    assert_eq!(
        (o.stdout.as_str(), o.stderr.as_str(), o.status),
        ("100000\n", "", 0)
    );
    let o = limits(&["run", "recursion.c"], b"-1\n");
    assert_eq!(
        (o.stdout.as_str(), o.stderr.as_str(), o.status),
        (
            "",
            "faultline: runtime error: recursion.c:4: stack overflow: call depth 261889 needs more than the 8 MiB stack (each frame estimated as gcc -O0 lays it out) (in `return 1 + f(n - 1);`)\n",
            139
        )
    );
}

#[test]
fn an_unwritable_output_file_is_reported_before_the_search() {
    let start = Instant::now();
    let o = limits(
        &[
            "localize",
            "endless/endless.c",
            "--tests",
            "endless/tests",
            "--timeout",
            "60",
            "-o",
            "/nonexistent/dir/x",
        ],
        b"",
    );
    assert_eq!(
        (o.stdout.as_str(), o.stderr.as_str(), o.status),
        (
            "",
            "error: cannot write /nonexistent/dir/x: No such file or directory (os error 2)\n",
            2
        )
    );
    // Before the tests run (t2 alone takes its 10 s time limit).
    assert!(
        start.elapsed() < Duration::from_secs(8),
        "{:?}",
        start.elapsed()
    );
}

#[test]
fn one_test_is_one_test() {
    let o = limits(&["test", "one/one.c", "--tests", "one/tests"], b"");
    assert_eq!(o.status, 1);
    assert!(
        o.stdout.ends_with("\n1 test: 0 passed, 1 failed\n"),
        "{}",
        o.stdout
    );
    let o = limits(&["localize", "one/one.c", "--tests", "one/tests"], b"");
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert!(
        o.stdout.starts_with("1 of 1 test fail: t1\n"),
        "{}",
        o.stdout
    );
}

/// Peak resident memory of a child process (KiB), from `wait4`.
fn wait_with_peak(child: std::process::Child) -> (i32, String, i64) {
    use std::io::Read;
    let mut child = child;
    let mut out = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("read");
    let mut status = 0;
    // SAFETY: plain wait4 on our own child, with valid out-pointers.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    (libc::WEXITSTATUS(status), out, usage.ru_maxrss)
}

#[test]
fn a_huge_expected_output_stops_at_the_memory_limit() {
    // A test printing 850,000 numbers (5.8 MB); the program is wrong on 8 of
    // the lines.
    let tmp = tempdir("huge-output");
    let tests = tmp.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(tests.join("big.in"), "850000\n").unwrap();
    let expected: String = (0..850_000).map(|i| format!("{i}\n")).collect();
    std::fs::write(tests.join("big.out"), expected).unwrap();
    std::fs::write(tests.join("small.in"), "5\n").unwrap();
    std::fs::write(tests.join("small.out"), "0\n1\n2\n3\n4\n").unwrap();
    let child = faultline()
        .current_dir(dir())
        .args(["localize", "longout/longout.c", "--tests"])
        .arg(&tests)
        .args([
            "--max-memory",
            "300",
            "--timeout",
            "300",
            "--format",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("faultline runs");
    let (status, out, peak_kib) = wait_with_peak(child);
    assert_eq!(status, 3);
    let j: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(j["incomplete_kind"], "memory");
    // The cap holds within a margin for the last measure's allocations
    // (without the limit, the process grew past 8 GB).
    assert!(peak_kib < 400 * 1024, "peak {peak_kib} KiB");
    let _ = std::fs::remove_dir_all(tmp);
}

/// A failing test whose formula the encoder cannot build once some
/// statements' values are unknown is still used: the statements whose
/// checks cannot be encoded are left undecided, the note says why, and the
/// result is partial (exit status 3, `complete` false, kind `unencoded`),
/// never a silent "0 diagnoses" as if nothing were wrong.
#[test]
fn checks_that_cannot_be_encoded_leave_statements_undecided_and_the_result_partial() {
    let args = [
        "localize",
        "unencodable/names.c",
        "--tests",
        "unencodable/tests",
    ];
    let why = "unencodable/names.c:14: cannot encode `printf(\"%s\\n\", names[i] + j);`: string argument at a computed offset into an object of more than 64 elements, at more than 64 offsets";
    let o = limits(&args, b"");
    assert_eq!(o.status, 3, "{}", o.stderr);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines[0], "1 of 1 test fail: one");
    // 2 statements: the reading loop's condition is refuted (relaxed, it
    // cannot make the printing loop print a third name), since a string
    // argument's offset is abstracted once per distinct subterm and its
    // values can be enumerated; and since values are read simplified by
    // their guard, 4 more checks can be encoded (6 were left undecided
    // before): where the loops go on, their counters are still constants.
    assert_eq!(lines[1], "method full+mbd: 5 diagnoses (incomplete: 2 statements left undecided: their checks' formulas could not be encoded (see the notes))");
    let note = format!(
        "note: test one: a statement's check could not be encoded ({why}); statements left undecided"
    );
    assert!(lines.contains(&note.as_str()), "{}", o.stdout);
    let o = limits(&[&args[..], &["--format", "json"]].concat(), b"");
    assert_eq!(o.status, 3, "{}", o.stderr);
    let j = json(&o);
    assert_eq!(j["complete"], false);
    assert_eq!(j["incomplete_kind"], "unencoded");
    assert_eq!(j["tests"]["skipped"], serde_json::json!([]));
}

/// Unions are not encoded: every encoding leaves out the failing test whose
/// run accesses one, and `full` leaves undecided the statements whose
/// checks would reach it on another test; the result is partial either way.
#[test]
fn failing_tests_reaching_a_union_are_not_used() {
    let why = "union/prog.c:15: cannot encode `b.f = 1.5f;`: a union (its members overlap in memory, which the encoder does not model)";
    let o = limits(&["localize", "union/prog.c", "--tests", "union/tests"], b"");
    assert_eq!(o.status, 3, "{}", o.stderr);
    // Test b's run reaches the union: it is not used. Test a's does not:
    // only the statement whose check would reach it is left undecided.
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(lines[..3], [
        "2 of 3 tests fail: a, b".to_string(),
        format!("note: test b is not used: {why}"),
        "method full+mbd: 2 diagnoses (incomplete: 1 statement left undecided: its check's formula could not be encoded (see the notes); 1 of 2 failing tests not used)".to_string(),
    ]);
    assert_eq!(
        lines.last().copied(),
        Some(format!("note: test a: a statement's check could not be encoded ({why}); statements left undecided").as_str())
    );
    let o = limits(
        &[
            "localize",
            "union/prog.c",
            "--tests",
            "union/tests",
            "--method",
            "trace",
            "--quiet",
        ],
        b"",
    );
    assert_eq!(o.status, 3, "{}", o.stderr);
    assert_eq!(
        o.stdout,
        "union/prog.c:12:5: diagnosis 1: `int m = n * 2 + 1;` would need 6 here, computed 7 (explains a)\n\
         union/prog.c:18:5: diagnosis 2: `printf(\"%d\\n\", m);` would need to print \"6\\n\" (explains a)\n"
    );
}

/// `strncpy` with a length of `(size_t)-1` (n - 1 for n = 0) is an overflow:
/// the run reports it and the formula excludes that path; neither panics.
#[test]
fn a_negative_strncpy_length_is_an_overflow_not_a_crash() {
    let o = limits(
        &[
            "localize",
            "strncpy/prefix.c",
            "--tests",
            "strncpy/tests",
            "--quiet",
        ],
        b"",
    );
    assert_eq!(o.status, 1, "{}", o.stderr);
    assert_eq!(
        o.stdout,
        "strncpy/prefix.c:12:5: diagnosis 1: `strncpy(out, word, n - 1);`; line 13 `out[n - 1] = '\\0';` would need 116 here, computed 0 for test five (explains five, two, zero)\n"
    );
}

/// A limit reached while a per-test method (BugAssist) encodes the last
/// failing test's formula ends the search as partial (exit status 3, the
/// limit named), never "no set of statements explains the failing test"
/// as if the search had completed: bigsort's one formula (a 40-element
/// bubble sort, unrolled) needs far more than 150 MiB.
#[test]
fn a_limit_during_a_per_test_encoding_makes_the_result_partial() {
    let o = limits(
        &[
            "localize",
            "bigsort/bigsort.c",
            "--tests",
            "bigsort/tests",
            "--method",
            "bugassist",
            "--max-memory",
            "150",
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(o.status, 3, "{}", o.stderr);
    let j = json(&o);
    assert_eq!(j["complete"], false);
    assert_eq!(j["incomplete_kind"], "memory");
    assert_eq!(j["diagnoses"].as_array().map(Vec::len), Some(0));
}

/// A solver call that does not heed the interruption at the time limit
/// (stood for by `FAULTLINE_TEST_STALL_SECONDS`: the search thread is held
/// for a minute after it found its diagnoses) does not hold the process: a
/// second and a tenth of the limit after it, the diagnoses found so far are
/// reported as a partial result, in the order found, with a note.
#[test]
fn a_search_that_does_not_return_in_time_is_reported_by_the_backstop() {
    let start = Instant::now();
    let child = faultline()
        .current_dir(root())
        .args([
            "localize",
            "examples/mid/mid.c",
            "--tests",
            "examples/mid/tests",
            "--timeout",
            "1",
            "--format",
            "json",
        ])
        .env("FAULTLINE_TEST_STALL_SECONDS", "60")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .expect("faultline runs");
    let elapsed = start.elapsed();
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
    assert_eq!(child.status.code(), Some(3));
    let stdout = String::from_utf8_lossy(&child.stdout);
    let j: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    assert_eq!(j["complete"], false);
    assert_eq!(j["incomplete_kind"], "timeout");
    // Found in this order: lines 10 and 22 on the runs' paths, then the
    // condition at line 14 (it changes the path).
    assert_eq!(diagnosis_lines(&j), [vec![10u64], vec![22], vec![14]]);
    assert_eq!(
        j["notes"][0],
        "the solver did not stop within 1.1 s of the time limit: the diagnoses found until then are \
         reported in the order found, not ranked"
    );
}

#[test]
fn cafl_honours_the_time_limit_with_a_partial_tree() {
    // 3000 iterations: the whole tree (1000 nodes) takes over 10 s even in
    // a release build; a limit of 3 s cuts it after the root.
    let o = limits(
        &[
            "localize",
            "cafllong/long.c",
            "--tests",
            "cafllong/tests",
            "--method",
            "cafl",
            "--timeout",
            "3",
            "--format",
            "json",
        ],
        b"",
    );
    assert_eq!(o.status, 3, "{}", o.stderr);
    let j = json(&o);
    assert_eq!(j["schema"], "faultline.cafl/1");
    assert_eq!(j["incomplete_kind"], "timeout");
    assert_eq!(
        o.stderr.trim(),
        "partial: the time limit was reached; the causes not built yet are missing (nodes marked truncated)"
    );
    let nodes = j["nodes"].as_array().expect("nodes");
    assert_eq!(nodes[0]["id"], "0");
    assert!(nodes.len() < 1000, "{} nodes", nodes.len());
    assert!(
        nodes.iter().any(|n| n["state"] == "truncated"),
        "a node whose expansion the limit stopped"
    );
}
