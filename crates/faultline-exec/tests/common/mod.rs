//! Helpers shared by the interpreter's integration tests.

use faultline_exec::{ExecOptions, Executable, Input, Termination};

/// Runs `src` (as `t.c`) and returns (stdout, the runtime error's kind and
/// description, if the run ended with one).
pub fn run(src: &str) -> (String, Option<(String, String)>) {
    let prog = faultline_c::compile_source("t.c", src).expect("compiles");
    let exe = Executable::new(&prog).expect("starts");
    let e = exe.run(
        Input {
            args: &[],
            stdin: b"",
            workdir: None,
        },
        ExecOptions::default(),
    );
    let err = match &e.termination {
        Termination::RuntimeError(r) => Some((r.kind.name().to_string(), r.describe(&prog))),
        _ => None,
    };
    (String::from_utf8_lossy(&e.stdout).into_owned(), err)
}
