//! Interpreter speed on TCAS: all 1608 tests of tests/tcas/universe.txt on
//! version v1, in faultline's interpreter (with traces recorded, as
//! localization runs them) against the `gcc -O0` binary spawned once per
//! test, as a test harness would run it.
//!
//! Run with `cargo bench -p faultline --bench tcas_runs`; the numbers measured
//! on the development machine are in docs/benchmarks.md ("Interpreter speed").

mod common;

use common::run_binary;
use faultline_exec::{run_suite, suite, Executable, Limits, RunOptions, TestCase};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Timed repetitions of the interpreter run.
const INTERP_REPS: usize = 20;
/// Timed repetitions of the binary runs.
const GCC_REPS: usize = 3;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// The tests: one per universe line, expected output from the oracle tcas.c.
fn tests(tcas: &Path) -> Vec<TestCase> {
    let lines = suite::read_args_file(&tcas.join("universe.txt")).expect("tests/tcas/universe.txt");
    let oracle = faultline_c::compile_file(&tcas.join("tcas.c")).expect("tcas.c compiles");
    suite::with_oracle(lines, &oracle, "tcas.c", Limits::default()).expect("the oracle runs")
}

fn main() {
    let tcas = root().join("tests/tcas");
    let src = tcas.join("versions/v1/tcas.c");
    let tests = tests(&tcas);
    let prog = faultline_c::compile_file(&src).expect("v1 compiles");
    let exe = Executable::new(&prog).expect("v1 starts");
    let options = RunOptions {
        record_trace: true,
        ..RunOptions::default()
    };

    // Interpreter: one warm-up, then timed repetitions.
    let failing = run_suite(&exe, &tests, &options)
        .iter()
        .filter(|r| !r.passed())
        .count();
    let mut times = Vec::with_capacity(INTERP_REPS);
    for _ in 0..INTERP_REPS {
        let start = Instant::now();
        let runs = run_suite(&exe, &tests, &options);
        times.push(start.elapsed());
        assert_eq!(runs.len(), tests.len());
    }
    let interp_min = *times.iter().min().expect("repetitions");
    let interp_median = median(times);

    // gcc -O0 binary, spawned per test.
    let dir = std::env::temp_dir().join(format!("faultline-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bin = dir.join("tcas-v1");
    let gcc = Command::new("gcc")
        .args(["-O0", "-w", "-o"])
        .arg(&bin)
        .arg(&src)
        .output()
        .expect("gcc runs (install gcc)");
    assert!(
        gcc.status.success(),
        "gcc failed: {}",
        String::from_utf8_lossy(&gcc.stderr)
    );
    let mut gcc_times = Vec::with_capacity(GCC_REPS);
    let mut agree = 0;
    for _ in 0..GCC_REPS {
        let start = Instant::now();
        agree = run_binary(&bin, None, &tests);
        gcc_times.push(start.elapsed());
    }
    let _ = std::fs::remove_dir_all(&dir);
    let gcc_min = *gcc_times.iter().min().expect("repetitions");

    println!(
        "tcas v1, {} tests ({} failing in the interpreter, {} failing as a gcc binary)",
        tests.len(),
        failing,
        tests.len() - agree
    );
    println!(
        "interpreter (record_trace): min {:.4} s, median {:.4} s over {INTERP_REPS} runs of the suite",
        secs(interp_min),
        secs(interp_median)
    );
    println!(
        "gcc -O0 binary, spawned per test: min {:.4} s over {GCC_REPS} runs of the suite",
        secs(gcc_min)
    );
    println!(
        "ratio (binary min / interpreter min): {:.1}x",
        secs(gcc_min) / secs(interp_min)
    );
}
