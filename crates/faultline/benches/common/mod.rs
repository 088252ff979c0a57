//! What the interpreter benchmarks share: running a gcc binary once per test.

use faultline_exec::TestCase;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Spawns the binary once per test (in `workdir`, when given), feeding it the
/// test's arguments and stdin; returns the number of tests whose output and
/// status match the expectations.
pub fn run_binary(bin: &Path, workdir: Option<&Path>, tests: &[TestCase]) -> usize {
    let mut agree = 0;
    for t in tests {
        let mut cmd = Command::new(bin);
        cmd.args(&t.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if let Some(w) = workdir {
            cmd.current_dir(w);
        }
        let mut child = cmd.spawn().expect("spawn the gcc binary");
        drop(child.stdin.take().map(|mut i| i.write_all(&t.stdin)));
        let out = child.wait_with_output().expect("wait for the gcc binary");
        if out.stdout == t.expected_stdout && out.status.code() == t.expected_status {
            agree += 1;
        }
    }
    agree
}
