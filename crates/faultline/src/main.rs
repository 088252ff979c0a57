//! The `faultline` command line.

mod bench_cmd;
mod cafl_cmd;
mod cafl_report;
mod cafl_tui;
mod class_cmd;
mod cli;
mod input;
mod localize_cmd;
mod mdfs_cmd;
mod test_cmd;

use std::process::ExitCode;

fn main() -> ExitCode {
    // One heap for every thread (glibc makes up to eight per core): with a
    // second engine on its own thread (`--threads 2`), freed solver terms
    // kept in a heap of its own raised the peak resident memory of the
    // course benchmark's `sieve` from 173-187 MiB to 201 MiB, for about 5%
    // of the time (docs/benchmarks.md).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called before any other thread starts; it only sets a limit.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
    // The interpreter and the encoders recurse over the program; give them a
    // large stack rather than the main thread's 8 MiB (see `STACK_SIZE`).
    let child = std::thread::Builder::new()
        .stack_size(faultline_smt::limits::STACK_SIZE)
        .spawn(|| -> std::convert::Infallible {
            let code = cli::main();
            // Exit here, without the C library's exit handlers: Z3 frees its
            // terms at exit, seconds after a large formula, and the process's
            // memory is freed anyway. Standard output is flushed first;
            // files were written and closed.
            use std::io::Write;
            let _ = std::io::stdout().flush();
            let _ = std::io::stderr().flush();
            // SAFETY: `_exit` ends the process at once; nothing is pending.
            unsafe { libc::_exit(i32::from(code)) }
        });
    match child.map(|c| c.join()) {
        Ok(Ok(never)) => match never {},
        Ok(Err(_)) => {
            eprintln!(
                "faultline: internal error (panic); please report it with the input that caused it"
            );
            ExitCode::from(101)
        }
        Err(e) => {
            eprintln!("faultline: error: cannot start: {e}");
            ExitCode::from(2)
        }
    }
}
