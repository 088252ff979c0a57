//! `faultline test`: run a suite and report verdicts.

use crate::cli::{compile, exit, load_suite, Format, SuiteArgs, UserError};
use faultline_exec::{Executable, RunOptions, Verdict};
use std::path::Path;

pub fn test_cmd(program: &Path, suite: &SuiteArgs, format: Format) -> Result<u8, UserError> {
    let prog = compile(program)?;
    let (tests, compare, limits) = load_suite(suite)?;
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
