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
    // Freed memory goes back to the system above 128 KiB, and blocks of
    // 128 KiB or more are mapped on their own, whatever was freed before
    // (glibc raises both thresholds as large blocks are freed). With a second
    // engine on its own thread (`--threads 2`), each thread's heap kept what
    // its solver had freed: the course benchmark's `sieve` peaked at 201
    // MiB, 180 MiB with these thresholds (one heap for both threads did as
    // well, but their allocations then waited for each other: `matmul` 1.63
    // s against 1.38 s).
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: called before any other thread starts; it only sets limits.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 128 << 10);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 << 10);
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
