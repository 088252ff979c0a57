//! What every command shares: exit codes, errors for the user, compiling
//! the program and loading its test suite.

use clap::Args;
use faultline_exec::interp::DEFAULT_MAX_TIME;
use faultline_exec::{suite, Compare, Limits, TestCase};
use faultline_ir::Program;
use serde::Deserialize;
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
    /// How outputs are compared with the expected ones (overrides the mode of the tests'
    /// compare.toml; see docs/how-it-works.md) [default: exact].
    #[arg(long, value_enum, value_name = "MODE")]
    pub compare: Option<CompareMode>,
    /// Compare outputs as sequences of words, ignoring differences in whitespace
    /// (--compare tokens).
    #[arg(long, conflicts_with = "compare")]
    pub ignore_whitespace: bool,
    /// --compare pattern: the regular expression whose first capture group is the answer.
    #[arg(long, value_name = "REGEX")]
    pub pattern: Option<String>,
    /// --compare pattern: match the pattern and compare the answers ignoring case.
    #[arg(long)]
    pub ignore_case: bool,
    /// --compare numbers: the absolute tolerance of a number.
    #[arg(long, value_name = "X")]
    pub abs_tolerance: Option<f64>,
    /// --compare numbers: the tolerance of a number relative to the expected one.
    #[arg(long, value_name = "X")]
    pub rel_tolerance: Option<f64>,
    /// Time limit of each test run, in seconds (0: none) [default: 10].
    #[arg(long, value_name = "SECONDS")]
    pub max_time: Option<f64>,
    /// Limit on the statements and loop iterations each test run executes
    /// (reproducible on any machine, unlike --max-time) [default: none].
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
}

/// The limits of each run from `--max-time` and `--max-steps`. Without
/// `--max-time`, a run may take [`DEFAULT_MAX_TIME`], and at most a tenth of
/// `within`, the time limit of the whole job (`--timeout`), so that a test
/// that does not end leaves time to localize (with `--timeout 10`, a loop
/// that never ends took the whole 10 s in its first test).
pub fn run_limits(
    max_time: Option<f64>,
    max_steps: Option<u64>,
    within: Option<std::time::Duration>,
) -> Result<Limits, UserError> {
    let max_time = match max_time {
        Some(t) if !(t >= 0.0 && t.is_finite()) => {
            return Err(UserError(format!(
                "error: --max-time must be a number of seconds (0: no limit), not {t}"
            )))
        }
        Some(t) => (t > 0.0).then(|| std::time::Duration::from_secs_f64(t)),
        None => Some(within.map_or(DEFAULT_MAX_TIME, |w| DEFAULT_MAX_TIME.min(w / 10))),
    };
    Ok(Limits {
        max_steps,
        max_time,
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
    within: Option<std::time::Duration>,
) -> Result<(Vec<TestCase>, Compare, Limits), UserError> {
    let limits = run_limits(s.max_time, s.max_steps, within)?;
    let compare = suite_compare(s)?;
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

/// A comparison mode (`--compare`, `mode` in compare.toml).
#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CompareMode {
    // Byte for byte.
    Exact,
    // Whitespace-separated tokens; whitespace is ignored.
    Tokens,
    // The same as tokens.
    Whitespace,
    // Tokens; numbers within --abs-tolerance or --rel-tolerance.
    Numbers,
    // The answers --pattern extracts.
    Pattern,
}

/// The comparison of a suite: compare.toml, or the flags that override it.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareSpec {
    pub mode: Option<CompareMode>,
    pub pattern: Option<String>,
    #[serde(default)]
    pub ignore_case: bool,
    pub abs_tolerance: Option<f64>,
    pub rel_tolerance: Option<f64>,
}

/// The name of the comparison file in a test directory (or next to an
/// argument file).
pub const COMPARE_FILE: &str = "compare.toml";

impl CompareSpec {
    /// Reads `path`; errors name the file and line.
    pub fn read(path: &Path) -> Result<CompareSpec, UserError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| UserError(format!("{}: error: cannot read file: {e}", path.display())))?;
        toml::from_str(&text).map_err(|e| {
            let line = e.span().map_or(1, |r| {
                1 + text[..r.start.min(text.len())].matches('\n').count()
            });
            UserError(format!(
                "{}:{line}: error: {}",
                path.display(),
                e.message().trim().replace('\n', " ")
            ))
        })
    }

    /// `self` with what the command line sets overriding it: a mode given
    /// there (`--compare`, `--ignore-whitespace`) replaces the file's
    /// settings altogether; other flags override the file's one by one.
    pub fn overridden(mut self, s: &SuiteArgs) -> CompareSpec {
        let mode = match (s.compare, s.ignore_whitespace) {
            (Some(m), _) => Some(m),
            (None, true) => Some(CompareMode::Tokens),
            (None, false) => None,
        };
        if mode.is_some() {
            self = CompareSpec {
                mode,
                ..CompareSpec::default()
            };
        }
        if s.pattern.is_some() {
            self.pattern = s.pattern.clone();
        }
        self.ignore_case |= s.ignore_case;
        if s.abs_tolerance.is_some() {
            self.abs_tolerance = s.abs_tolerance;
        }
        if s.rel_tolerance.is_some() {
            self.rel_tolerance = s.rel_tolerance;
        }
        self
    }

    /// The comparison; `origin` names where the settings come from in errors.
    pub fn build(&self, origin: &str) -> Result<Compare, UserError> {
        let mode = self.mode.unwrap_or(if self.pattern.is_some() {
            CompareMode::Pattern
        } else if self.abs_tolerance.is_some() || self.rel_tolerance.is_some() {
            CompareMode::Numbers
        } else {
            CompareMode::Exact
        });
        let misplaced = match mode {
            CompareMode::Pattern => None,
            _ if self.pattern.is_some() => Some("a pattern"),
            _ if self.ignore_case => Some("ignore-case"),
            _ => None,
        }
        .or(match mode {
            CompareMode::Numbers => None,
            _ if self.abs_tolerance.is_some() || self.rel_tolerance.is_some() => {
                Some("a tolerance")
            }
            _ => None,
        });
        if let Some(what) = misplaced {
            let mode = format!("{mode:?}").to_lowercase();
            return Err(UserError(format!(
                "{origin}: error: {what} is given, but outputs are compared in mode {mode}"
            )));
        }
        Ok(match mode {
            CompareMode::Exact => Compare::Exact,
            CompareMode::Tokens | CompareMode::Whitespace => Compare::IgnoreWhitespace,
            CompareMode::Numbers => {
                let tol = |x: Option<f64>, name: &str| {
                    match x {
                    Some(v) if !(v >= 0.0 && v.is_finite()) => Err(UserError(format!(
                        "{origin}: error: the {name} tolerance must be a number of at least 0, not {v}"
                    ))),
                    v => Ok(v.unwrap_or(0.0)),
                }
                };
                Compare::Numbers {
                    abs: tol(self.abs_tolerance, "absolute")?,
                    rel: tol(self.rel_tolerance, "relative")?,
                }
            }
            CompareMode::Pattern => {
                let Some(p) = &self.pattern else {
                    return Err(UserError(format!(
                        "{origin}: error: compare mode pattern needs a pattern (a regular expression whose first group is the answer)"
                    )));
                };
                Compare::Pattern(
                    faultline_exec::suite::Pattern::intern(p, self.ignore_case)
                        .map_err(|e| UserError(format!("{origin}: error: {e}")))?,
                )
            }
        })
    }
}

/// The comparison of the suite `s`: its compare.toml (in the test directory,
/// or the argument file's) with the command line's flags overriding it.
pub fn suite_compare(s: &SuiteArgs) -> Result<Compare, UserError> {
    let dir = match (&s.tests, &s.args_file) {
        (Some(d), _) => Some(d.clone()),
        (None, Some(f)) => Some(match f.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        }),
        _ => None,
    };
    let file = dir.map(|d| d.join(COMPARE_FILE)).filter(|f| f.is_file());
    let spec = match &file {
        Some(f) => CompareSpec::read(f)?,
        None => CompareSpec::default(),
    };
    let origin = match &file {
        Some(f) => format!("{} (or the command line)", f.display()),
        None => "the command line".to_string(),
    };
    spec.overridden(s).build(&origin)
}
