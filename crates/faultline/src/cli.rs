//! Argument parsing and dispatch.

use clap::{Args, Parser, Subcommand, ValueEnum};
use faultline_exec::{suite, Compare, Limits, TestCase};
use faultline_ir::Program;
use std::io::Read;
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

#[derive(Parser)]
#[command(
    name = "faultline",
    version,
    about = "Finds the statements of a C program that explain why its tests fail",
    long_about = "faultline runs a C program's tests in an exact interpreter and, for the failing ones, \
                  finds the minimal sets of statements whose change would make them pass, with the values \
                  those statements would have had to compute."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Runs a C program in faultline's interpreter, with stdin passed through.
    Run(RunArgs),
    /// Runs a program's tests and reports each verdict (exit status 1 when any test fails).
    Test(TestArgs),
    /// Finds the statements that explain the failing tests, with the values they would need.
    Localize(crate::localize_cmd::LocalizeArgs),
    /// Runs localization methods over a benchmark manifest and tabulates accuracy and cost.
    Bench(crate::bench_cmd::BenchArgs),
    /// Explain one failing test interactively with CaFL's cause tree.
    Explain(crate::cafl_cmd::ExplainArgs),
}

#[derive(Args)]
struct RunArgs {
    /// The C program.
    program: PathBuf,
    /// Command-line arguments for the program (after `--`).
    #[arg(last = true)]
    args: Vec<String>,
    /// Maximum number of statements executed before the run is stopped as non-terminating.
    #[arg(long, default_value_t = Limits::default().max_steps)]
    max_steps: u64,
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
    /// File with one test per line: the program's command-line arguments (needs --oracle).
    #[arg(long, value_name = "FILE")]
    pub args_file: Option<PathBuf>,
    /// Reference program whose output on each line of --args-file is the expected output.
    #[arg(long, value_name = "REF.c")]
    pub oracle: Option<PathBuf>,
    /// Compare outputs as sequences of words, ignoring differences in whitespace.
    #[arg(long)]
    pub ignore_whitespace: bool,
    /// Maximum number of statements a test may execute before it is stopped as non-terminating.
    #[arg(long, default_value_t = Limits::default().max_steps)]
    pub max_steps: u64,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Args)]
struct TestArgs {
    /// The C program under test.
    program: PathBuf,
    #[command(flatten)]
    suite: SuiteArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// An error for the user: printed as one line, exit status 2.
pub struct UserError(pub String);

impl<E: std::fmt::Display> From<E> for UserError {
    fn from(e: E) -> Self {
        UserError(e.to_string())
    }
}

/// What `faultline --version` prints after the name: faultline's version and the Z3 it links
/// (`0.1.0 (Z3 4.8.12.0)`).
pub fn version() -> String {
    format!("{} (Z3 {})", env!("CARGO_PKG_VERSION"), z3::full_version())
}

fn parse_cli() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    // Built once per process; clap keeps a `&'static str`.
    let version: &'static str = Box::leak(version().into_boxed_str());
    let matches = Cli::command().version(version).try_get_matches()?;
    Cli::from_arg_matches(&matches)
}

pub fn main() -> u8 {
    let cli = match parse_cli() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() {
                exit::INPUT
            } else {
                exit::OK
            };
            let _ = e.print();
            return code;
        }
    };
    let result = match cli.command {
        Command::Run(a) => run_cmd(a),
        Command::Test(a) => crate::test_cmd::test_cmd(&a.program, &a.suite, a.format),
        Command::Localize(a) => crate::localize_cmd::localize_cmd(&a),
        Command::Bench(a) => crate::bench_cmd::bench_cmd(&a),
        Command::Explain(a) => crate::cafl_cmd::explain_cmd(&a),
    };
    match result {
        Ok(code) => code,
        Err(UserError(msg)) => {
            eprintln!("{msg}");
            exit::INPUT
        }
    }
}

/// Reads and compiles a C file; errors are one line naming the file and position.
pub fn compile(path: &Path) -> Result<Program, UserError> {
    faultline_c::compile_file(path).map_err(|e| UserError(e.to_string()))
}

/// The suite's tests, with the options for comparing outputs.
pub fn load_suite(s: &SuiteArgs) -> Result<(Vec<TestCase>, Compare, Limits), UserError> {
    let limits = Limits {
        max_steps: s.max_steps,
        ..Limits::default()
    };
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
            let args = suite::read_args_file(file)?;
            let reference = faultline_c::compile_file(oracle)
                .map_err(|e| UserError(format!("{e} (in the reference program)")))?;
            suite::with_oracle(args, &reference, &oracle.display().to_string(), limits)?
        }
        _ => {
            return Err(UserError(
                "error: give --tests DIR, or --args-file FILE with --oracle REF.c".into(),
            ))
        }
    };
    Ok((tests, compare, limits))
}

fn run_cmd(a: RunArgs) -> Result<u8, UserError> {
    let prog = compile(&a.program)?;
    let exe = faultline_exec::Executable::new(&prog).map_err(|e| {
        UserError(format!(
            "{}: error: {}",
            a.program.display(),
            e.describe(&prog)
        ))
    })?;
    let mut stdin = Vec::new();
    std::io::stdin()
        .read_to_end(&mut stdin)
        .map_err(|e| UserError(format!("error: cannot read standard input: {e}")))?;
    let limits = Limits {
        max_steps: a.max_steps,
        ..Limits::default()
    };
    let exec = exe.run(
        faultline_exec::Input {
            args: &a.args,
            stdin: &stdin,
        },
        faultline_exec::ExecOptions {
            limits,
            ..Default::default()
        },
    );
    use std::io::Write;
    let _ = std::io::stdout().write_all(&exec.stdout);
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().write_all(&exec.stderr);
    if let faultline_exec::Termination::RuntimeError(e) = &exec.termination {
        eprintln!("faultline: runtime error: {}", e.describe(&prog));
    }
    Ok(exec.exit_status() as u8)
}
