//! What every command shares: exit codes, errors for the user, compiling
//! the program and loading its test suite.

use clap::Args;
use faultline_exec::interp::DEFAULT_MAX_TIME;
use faultline_exec::{suite, Compare, Limits, TestCase};
use faultline_ir::Program;
use std::path::{Path, PathBuf};

/// Exit codes (documented in the README).
pub mod exit {
    /// All tests pass / the command succeeded.
    pub const OK: u8 = 0;
    /// Some test failed (and, for `localize`, the failures were localized).
    pub const FAILED: u8 = 1;
    /// Usage or input error (bad arguments, unreadable or invalid C, bad test suite).
    pub const INPUT: u8 = 2;
    /// A limit (time, memory) was hit before the search completed; partial results were printed.
    pub const LIMIT: u8 = 3;
}

/// Where the tests come from (shared by every command that runs tests).
#[derive(Args, Clone)]
pub struct SuiteArgs {
    /// Directory of NAME.in / NAME.out pairs (stdin and expected stdout; optional NAME.args).
    #[arg(
        long,
        value_name = "DIR",
        required_unless_present = "args_file",
        conflicts_with = "args_file"
    )]
    pub tests: Option<PathBuf>,
    /// File with one test per line: the program's command line (shell quoting, `< FILE`
    /// for standard input; needs --oracle).
    #[arg(long, value_name = "FILE")]
    pub args_file: Option<PathBuf>,
    /// Working directory of the --args-file tests: `< FILE` and the files the program
    /// opens are relative to it [default: the argument file's directory].
    #[arg(long, value_name = "DIR", requires = "args_file")]
    pub workdir: Option<PathBuf>,
    /// Reference program whose output on each line of --args-file is the expected output.
    #[arg(long, value_name = "REF.c")]
    pub oracle: Option<PathBuf>,
    /// Compare outputs as sequences of words, ignoring differences in whitespace.
    #[arg(long)]
    pub ignore_whitespace: bool,
    /// Time limit of each test run, in seconds (0: none).
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_MAX_TIME.as_secs_f64())]
    pub max_time: f64,
    /// Limit on the statements and loop iterations each test run executes
    /// (reproducible on any machine, unlike --max-time) [default: none].
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
}

/// The limits of each run from `--max-time` and `--max-steps`.
pub fn run_limits(max_time: f64, max_steps: Option<u64>) -> Result<Limits, UserError> {
    if !(max_time >= 0.0 && max_time.is_finite()) {
        return Err(UserError(format!(
            "error: --max-time must be a number of seconds (0: no limit), not {max_time}"
        )));
    }
    Ok(Limits {
        max_steps,
        max_time: (max_time > 0.0).then(|| std::time::Duration::from_secs_f64(max_time)),
        ..Limits::default()
    })
}

/// An error for the user: printed as one line, exit status 2.
pub struct UserError(pub String);

impl<E: std::fmt::Display> From<E> for UserError {
    fn from(e: E) -> Self {
        UserError(e.to_string())
    }
}

/// Reads and compiles a C file; errors are one line naming the file and position.
pub fn compile(path: &Path) -> Result<Program, UserError> {
    faultline_c::compile_file(path).map_err(|e| UserError(e.to_string()))
}

/// The suite's tests, with the options for comparing outputs.
/// The tests of `s` for the program `prog` (a reference program given with
/// `--oracle` runs under `prog`'s `argv[0]`).
pub fn load_suite(
    s: &SuiteArgs,
    prog: &faultline_ir::Program,
) -> Result<(Vec<TestCase>, Compare, Limits), UserError> {
    let limits = run_limits(s.max_time, s.max_steps)?;
    let compare = if s.ignore_whitespace {
        Compare::IgnoreWhitespace
    } else {
        Compare::Exact
    };
    // The pairing of --args-file and --oracle is checked here rather than by
    // clap, so that the error is one line naming the file.
    let tests = match (&s.tests, &s.args_file, &s.oracle) {
        (_, _, Some(oracle)) if s.args_file.is_none() => {
            return Err(UserError(format!(
                "{}: error: --oracle needs --args-file FILE (the argument lines to run the reference program on)",
                oracle.display()
            )))
        }
        (_, Some(file), None) => {
            return Err(UserError(format!(
                "{}: error: --args-file needs --oracle REF.c (the reference program whose output is the expected output)",
                file.display()
            )))
        }
        (Some(dir), _, _) => suite::load_dir(dir)?,
        (None, Some(file), Some(oracle)) => {
            let lines = suite::read_command_file(file)?;
            let workdir = match &s.workdir {
                Some(d) => d.clone(),
                None => match file.parent() {
                    Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
                    _ => PathBuf::from("."),
                },
            };
            if !workdir.is_dir() {
                return Err(UserError(format!(
                    "{}: error: the working directory of the tests is not a directory",
                    workdir.display()
                )));
            }
            let reference = faultline_c::compile_file(oracle)
                .map_err(|e| UserError(format!("{e} (in the reference program)")))?;
            let o = suite::with_oracle_in(
                lines,
                Some(&workdir),
                &reference,
                &oracle.display().to_string(),
                Some(&faultline_exec::argv0_of(prog)),
                limits,
            )?;
            for (name, why) in &o.excluded {
                eprintln!(
                    "{}: note: test {name} left out: the reference program fails it: {why}",
                    oracle.display()
                );
            }
            if o.tests.is_empty() {
                return Err(UserError(format!(
                    "{}: error: the reference program fails every test",
                    oracle.display()
                )));
            }
            o.tests
        }
        _ => {
            return Err(UserError(
                "error: give --tests DIR, or --args-file FILE with --oracle REF.c".into(),
            ))
        }
    };
    Ok((tests, compare, limits))
}

/// Checks before any work that the report can be written to `path`
/// (`-o FILE`): the file is opened for writing, and created if missing (it
/// is not truncated until the report is written).
pub fn check_output(path: Option<&Path>) -> Result<(), UserError> {
    let Some(path) = path else { return Ok(()) };
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map(drop)
        .map_err(|e| UserError(format!("error: cannot write {}: {e}", path.display())))
}

/// The memory limit of a localization when `--max-memory` is not given, in
/// MiB: a run over a class's programs must not take the machine down.
pub const DEFAULT_MAX_MEMORY_MIB: u64 = 2048;
