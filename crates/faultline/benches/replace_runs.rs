//! Interpreter speed on the Siemens program `replace`: every test of its
//! universe (a command line with `< FILE`, run in `inputs/`) on version v1, in
//! faultline's interpreter (traces recorded, as localization runs them)
//! against the `gcc -O0` binary spawned once per test, directly (no shell),
//! as a test harness would run it.
//!
//! The benchmark data is outside the repository (`../shared/benchmarks/siemens`,
//! or `FAULTLINE_SIEMENS`). Run with `cargo bench -p faultline --bench
//! replace_runs`; the numbers measured on the development machine are in
//! docs/benchmarks.md ("Interpreter speed").

mod common;

use common::run_binary;
use faultline_exec::suite::{read_command_file, with_oracle_in};
use faultline_exec::{run_suite, Executable, Limits, RunOptions};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Timed repetitions of each side.
const REPS: usize = 3;

fn siemens() -> Option<PathBuf> {
    let dir = std::env::var_os("FAULTLINE_SIEMENS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/benchmarks/siemens")
        });
    dir.join("replace").is_dir().then_some(dir)
}

fn main() {
    let Some(siemens) = siemens() else {
        println!("the Siemens benchmark is not there (set FAULTLINE_SIEMENS): nothing measured");
        return;
    };
    let dir = siemens.join("replace");
    let inputs = dir.join("inputs");
    let lines = read_command_file(&dir.join("universe.txt")).expect("universe.txt");
    let source =
        faultline_c::compile_file(&dir.join("source/replace.c")).expect("replace.c compiles");
    let oracle = with_oracle_in(
        lines,
        Some(&inputs),
        &source,
        "replace",
        None,
        Limits::default(),
    )
    .expect("the reference runs");
    let tests = oracle.tests;
    let src = dir.join("versions/v1/replace.c");
    let prog = faultline_c::compile_file(&src).expect("v1 compiles");
    let exe = Executable::new(&prog).expect("v1 starts");
    let options = RunOptions {
        record_trace: true,
        ..RunOptions::default()
    };

    let failing = run_suite(&exe, &tests, &options)
        .iter()
        .filter(|r| !r.passed())
        .count();
    let mut times: Vec<Duration> = Vec::with_capacity(REPS);
    for _ in 0..REPS {
        let start = Instant::now();
        let runs = run_suite(&exe, &tests, &options);
        times.push(start.elapsed());
        assert_eq!(runs.len(), tests.len());
    }
    let interp_min = *times.iter().min().expect("repetitions");

    let tmp = std::env::temp_dir().join(format!("faultline-bench-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let bin = tmp.join("replace-v1");
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
    let mut gcc_times = Vec::with_capacity(REPS);
    let mut agree = 0;
    for _ in 0..REPS {
        let start = Instant::now();
        agree = run_binary(&bin, Some(&inputs), &tests);
        gcc_times.push(start.elapsed());
    }
    let _ = std::fs::remove_dir_all(&tmp);
    let gcc_min = *gcc_times.iter().min().expect("repetitions");

    println!(
        "replace v1, {} tests ({} left out: the reference fails them), {} failing in the interpreter, {} failing as a gcc binary",
        tests.len(),
        oracle.excluded.len(),
        failing,
        tests.len() - agree
    );
    println!(
        "interpreter (record_trace): min {:.3} s over {REPS} runs of the suite",
        interp_min.as_secs_f64()
    );
    println!(
        "gcc -O0 binary, spawned per test: min {:.3} s over {REPS} runs of the suite",
        gcc_min.as_secs_f64()
    );
    println!(
        "ratio (binary min / interpreter min): {:.1}x",
        gcc_min.as_secs_f64() / interp_min.as_secs_f64()
    );
}
