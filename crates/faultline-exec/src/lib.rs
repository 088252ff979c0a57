//! Runs C programs (as IR) exactly as a gcc -O0 binary on x86-64 Linux would,
//! judges them against tests, and records traces and coverage.
//!
//! - [`interp`]: the interpreter ([`Executable::run`]).
//! - [`value`]: C arithmetic on runtime values (shared with the encoders' tests).
//! - [`suite`]: test suites (directories of `.in`/`.out`, argument files with an oracle) and verdicts.
//! - [`trace`]: statement instances, traces, coverage.
//! - [`libc`]: printf/scanf/strtol/strtod as glibc does them.

pub mod budget;
pub mod compare;
pub mod interp;
pub mod layout;
pub mod libc;
pub mod memory;
pub mod suite;
pub mod trace;
pub mod value;

pub use budget::{Budget, Exhausted};
pub use interp::{
    argv0_of, ErrorKind, ExecOptions, Executable, Execution, Hooks, Input, Limits, RuntimeError,
    Site, Termination,
};
pub use suite::{Compare, FailReason, TestCase, Verdict};
pub use trace::{Coverage, CtxId, Instance, Trace};

/// Options of a test run.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions {
    pub record_trace: bool,
    pub limits: Limits,
    pub compare: Compare,
}

/// One test's execution and verdict.
#[derive(Clone, Debug)]
pub struct Run {
    pub execution: Execution,
    pub verdict: Verdict,
}

impl Run {
    pub fn passed(&self) -> bool {
        self.verdict.passed()
    }
}

/// Runs one test.
pub fn run(exe: &Executable<'_>, test: &TestCase, options: &RunOptions) -> Run {
    let execution = exe.run(
        test.input(),
        ExecOptions {
            record_trace: options.record_trace,
            limits: options.limits,
            hooks: None,
        },
    );
    let verdict = suite::judge(test, &execution, options.compare);
    Run { execution, verdict }
}

/// Runs every test of a suite, in order.
pub fn run_suite(exe: &Executable<'_>, tests: &[TestCase], options: &RunOptions) -> Vec<Run> {
    tests.iter().map(|t| run(exe, t, options)).collect()
}
