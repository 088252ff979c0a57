//! Argument parsing and dispatch.

use crate::input::{compile, exit, UserError};
use clap::{Args, Parser, Subcommand};
use std::io::Read;
use std::path::PathBuf;

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
    Test(crate::test_cmd::TestArgs),
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
    /// Time limit of the run, in seconds (0: none).
    #[arg(long, value_name = "SECONDS", default_value_t = faultline_exec::interp::DEFAULT_MAX_TIME.as_secs_f64())]
    max_time: f64,
    /// Limit on the statements and loop iterations executed [default: none].
    #[arg(long, value_name = "N")]
    max_steps: Option<u64>,
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
        Command::Test(a) => crate::test_cmd::test_cmd(&a),
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
    let limits = crate::input::run_limits(Some(a.max_time), a.max_steps, None)?;
    let exec = exe.run(
        faultline_exec::Input {
            args: &a.args,
            stdin: &stdin,
            workdir: None,
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
