//! `faultline test`: run a suite and report verdicts.

use crate::input::{compile, exit, load_suite, SuiteArgs, UserError};
use clap::{Args, ValueEnum};
use faultline_exec::{Executable, RunOptions, Verdict};
use std::path::PathBuf;

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Args)]
pub struct TestArgs {
    /// The C program under test.
    pub program: PathBuf,
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub fn test_cmd(a: &TestArgs) -> Result<u8, UserError> {
    let (program, suite, format) = (&a.program, &a.suite, a.format);
    let prog = compile(program)?;
    let (tests, compare, limits) = load_suite(suite, &prog, None)?;
    let exe = Executable::new(&prog).map_err(|e| {
        UserError(format!(
            "{}: error: {}",
            program.display(),
            e.describe(&prog)
        ))
    })?;
    let options = RunOptions {
        record_trace: false,
        limits,
        compare,
    };
    let runs = faultline_exec::run_suite(&exe, &tests, &options);
    let report = faultline_report::tests::TestReport::new(
        &prog,
        &program.display().to_string(),
        &tests,
        &runs,
    );
    match format {
        Format::Text => print!("{}", report.to_text()),
        Format::Json => println!("{}", report.to_json()),
    }
    Ok(if runs.iter().all(|r| r.verdict == Verdict::Pass) {
        exit::OK
    } else {
        exit::FAILED
    })
}
