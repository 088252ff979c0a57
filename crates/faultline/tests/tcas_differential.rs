//! Differential test against gcc on TCAS: for tcas.c and its 41 faulty
//! versions, on each of the 1608 tests, the interpreter prints what the
//! `gcc -O0` binary prints and exits with its status — except where the
//! interpreter reports undefined behaviour. That happens in exactly two
//! versions: v33 and v38 write outside `Positive_RA_Alt_Thresh` (in every run
//! that reaches `initialize`), which the interpreter reports as a runtime
//! error, while the gcc binary silently corrupts a neighbouring global. (Reads
//! just outside that array, which tcas.c itself does for some inputs, are
//! resolved as gcc lays out globals; see faultline_exec::layout.)
//!
//! The failing tests `faultline test` reports for each version equal
//! failing.tsv, outside v33 and v38.

mod common;

use common::*;
use faultline_exec::{suite, ExecOptions, Executable, Input, Limits, Termination, Verdict};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// (program, tests with undefined behaviour, mismatches with gcc)
type Outcome = (String, Vec<usize>, Vec<String>);

#[test]
fn tcas_matches_gcc_on_every_test_and_failing_sets_match() {
    let dir = tempdir("tcas-diff");
    let universe = tcas_universe();
    let mut programs = vec![("tcas".to_string(), tcas().join("tcas.c"))];
    for v in tcas_versions() {
        programs.push((v.clone(), tcas().join("versions").join(&v).join("tcas.c")));
    }
    let next = AtomicUsize::new(0);
    // (program, tests with undefined behaviour, mismatches)
    let results: Mutex<Vec<Outcome>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((name, path)) = programs.get(i) else { break };
                let prog = faultline_c::compile_file(path).unwrap_or_else(|e| panic!("{name}: {e}"));
                let exe = Executable::new(&prog).expect("starts");
                let bin = dir.join(name);
                gcc(path, &bin);
                let mut ub = Vec::new();
                let mut bad = Vec::new();
                for (t, args) in universe.iter().enumerate() {
                    let (out, status) = run_binary(&bin, args, b"");
                    let e = exe.run(Input { args, stdin: b"", workdir: None }, ExecOptions::default());
                    match &e.termination {
                        Termination::RuntimeError(_) => ub.push(t + 1),
                        _ => {
                            if e.stdout != out || e.exit_status() != status {
                                bad.push(format!(
                                    "{name} test {}: gcc printed {:?} (status {status}), faultline {:?} (status {})",
                                    t + 1,
                                    String::from_utf8_lossy(&out),
                                    String::from_utf8_lossy(&e.stdout),
                                    e.exit_status()
                                ));
                            }
                        }
                    }
                }
                results.lock().expect("lock").push((name.clone(), ub, bad));
            });
        }
    });
    let mut results = results.into_inner().expect("lock");
    results.sort();
    let mismatches: Vec<&String> = results.iter().flat_map(|r| r.2.iter()).collect();
    assert!(
        mismatches.is_empty(),
        "{} mismatches, first: {:?}",
        mismatches.len(),
        &mismatches[..mismatches.len().min(5)]
    );
    let with_ub: Vec<&str> = results
        .iter()
        .filter(|r| !r.1.is_empty())
        .map(|r| r.0.as_str())
        .collect();
    assert_eq!(
        with_ub,
        vec!["v33", "v38"],
        "only v33 and v38 have undefined behaviour"
    );
    // In v33 and v38 every run that reaches initialize() errors: the runs with 12 arguments or more.
    let reaching: Vec<usize> = universe
        .iter()
        .enumerate()
        .filter(|(_, a)| a.len() >= 12)
        .map(|(i, _)| i + 1)
        .collect();
    for r in &results {
        if r.0 == "v33" || r.0 == "v38" {
            assert_eq!(
                r.1, reaching,
                "{}: the runs with an out-of-bounds write",
                r.0
            );
        }
    }

    // The failing sets of `faultline test` (the oracle is tcas.c, run by the interpreter).
    let reference = faultline_c::compile_file(&tcas().join("tcas.c")).expect("tcas.c compiles");
    let args: Vec<(String, Vec<String>)> = universe
        .iter()
        .enumerate()
        .map(|(i, a)| ((i + 1).to_string(), a.clone()))
        .collect();
    let tests =
        suite::with_oracle(args, &reference, "tcas.c", Limits::default()).expect("the oracle runs");
    for (version, expected) in tcas_failing() {
        if version == "v33" || version == "v38" {
            continue;
        }
        let prog =
            faultline_c::compile_file(&tcas().join("versions").join(&version).join("tcas.c"))
                .expect("compiles");
        let exe = Executable::new(&prog).expect("starts");
        let runs = faultline_exec::run_suite(&exe, &tests, &Default::default());
        let failing: Vec<usize> = runs
            .iter()
            .enumerate()
            .filter(|(_, r)| r.verdict != Verdict::Pass)
            .map(|(i, _)| i + 1)
            .collect();
        assert_eq!(failing, expected, "{version}: failing tests");
    }
}
