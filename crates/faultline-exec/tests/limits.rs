//! The limits of a run, like a real machine's: the stack as gcc -O0 lays out
//! frames in 8 MiB, a time limit, an optional step count, and the job's
//! budget (the thread's current one).

use faultline_exec::interp::frame_size;
use faultline_exec::{
    Budget, ErrorKind, ExecOptions, Executable, Exhausted, Input, Limits, Termination,
};
use std::time::Duration;

const RECURSION: &str = "#include <stdio.h>\n\
    int f(int n) { if (n == 0) return 0; return 1 + f(n - 1); }\n\
    int main(void) { int n; scanf(\"%d\", &n); printf(\"%d\\n\", f(n)); return 0; }\n";

const ENDLESS: &str = "int main(void) { int i = 0; while (i >= 0) i = 1 - i; return i; }\n";

/// Runs `src` on `stdin` with `limits` in a thread with `stack` bytes of
/// stack: (stdout, termination, peak stack).
fn run(
    src: &'static str,
    stdin: &'static str,
    limits: Limits,
    stack: usize,
) -> (String, Termination, u64) {
    std::thread::Builder::new()
        .stack_size(stack)
        .spawn(move || {
            let prog = faultline_c::compile_source("prog.c", src).expect("compiles");
            let exe = Executable::new(&prog).expect("starts");
            let e = exe.run(
                Input {
                    args: &[],
                    stdin: stdin.as_bytes(),
                    workdir: None,
                },
                ExecOptions {
                    limits,
                    ..ExecOptions::default()
                },
            );
            (
                String::from_utf8_lossy(&e.stdout).into_owned(),
                e.termination,
                e.peak_stack,
            )
        })
        .expect("thread")
        .join()
        .expect("no panic")
}

fn error(t: &Termination) -> (ErrorKind, &str) {
    match t {
        Termination::RuntimeError(e) => (e.kind, e.message.as_str()),
        other => panic!("expected a runtime error, got {other:?}"),
    }
}

#[test]
fn frames_are_estimated_as_gcc_lays_them_out() {
    let prog = faultline_c::compile_source(
        "prog.c",
        "int f(int n) { return n; }\n\
         int g(int n, int a[10]) { int b[20]; double d; b[0] = n; d = n; return a[0] + b[0] + (int)d; }\n\
         int main(void) { int a[10]; a[0] = 0; return f(1) + g(1, a); }\n",
    )
    .expect("compiles");
    let size = |name: &str| frame_size(&prog, prog.func(prog.func_by_name(name).unwrap()));
    // gcc -O0: `sub $0x10,%rsp` and `sub $0x70,%rsp`, plus return address
    // and saved frame pointer.
    assert_eq!((size("f"), size("g")), (32, 128));
}

#[test]
fn recursion_100000_deep_runs() {
    let (out, t, _) = run(RECURSION, "100000\n", Limits::default(), 1 << 30);
    assert_eq!((out.as_str(), t), ("100000\n", Termination::Exit(0)));
}

#[test]
fn infinite_recursion_overflows_the_8_mib_stack() {
    let (_, t, _) = run(RECURSION, "-1\n", Limits::default(), 1 << 30);
    assert_eq!(
        error(&t),
        (
            ErrorKind::StackOverflow,
            "stack overflow: call depth 261889 needs more than the 8 MiB stack (each frame estimated as gcc -O0 lays it out)"
        )
    );
}

#[test]
fn a_thread_with_a_small_stack_gets_a_stack_overflow_not_a_crash() {
    let (_, t, _) = run(RECURSION, "100000\n", Limits::default(), 32 << 20);
    let (kind, message) = error(&t);
    assert_eq!(kind, ErrorKind::StackOverflow);
    assert!(
        message.starts_with("stack overflow: call depth ")
            && message.ends_with(
                " exhausts faultline's own stack (run faultline in a thread with a larger stack)"
            ),
        "{message}"
    );
}

#[test]
fn a_run_ends_at_its_time_limit_or_step_count() {
    let limits = Limits {
        max_time: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    let (_, t, _) = run(ENDLESS, "", limits, 64 << 20);
    let (kind, message) = error(&t);
    assert_eq!(kind, ErrorKind::TimeLimit);
    assert!(
        message.starts_with("the run reached the time limit of 0.1 s after ")
            && message.ends_with(" statements and loop iterations (--max-time raises it)"),
        "{message}"
    );
    let limits = Limits {
        max_steps: Some(1000),
        max_time: None,
        ..Limits::default()
    };
    let (_, t, _) = run(ENDLESS, "", limits, 64 << 20);
    assert_eq!(
        error(&t),
        (
            ErrorKind::StepLimit,
            "the run reached the step limit of 1000 statements and loop iterations (--max-steps raises it)"
        )
    );
}

#[test]
fn the_threads_budget_interrupts_a_run() {
    let t = std::thread::spawn(|| {
        let budget = Budget::new(Some(Duration::from_millis(100)), None);
        let _entered = budget.enter();
        let prog = faultline_c::compile_source("prog.c", ENDLESS).expect("compiles");
        let exe = Executable::new(&prog).expect("starts");
        let limits = Limits {
            max_time: None,
            ..Limits::default()
        };
        exe.run(
            Input::default(),
            ExecOptions {
                limits,
                ..ExecOptions::default()
            },
        )
        .termination
    })
    .join()
    .expect("no panic");
    assert_eq!(t, Termination::OutOfBudget(Exhausted::Time));
}

/// A run reports the most stack its calls used at once, counted as the
/// stack limit counts it: what a replay's bounded stack is scaled from
/// (`Session::replay_limits` in faultline-diagnose).
#[test]
fn a_run_reports_its_peak_stack() {
    let prog = faultline_c::compile_source("prog.c", RECURSION).expect("compiles");
    let size = |name: &str| frame_size(&prog, prog.func(prog.func_by_name(name).unwrap()));
    let (f, main) = (size("f"), size("main"));
    let (.., p0) = run(RECURSION, "0\n", Limits::default(), 1 << 30);
    let (.., p1000) = run(RECURSION, "1000\n", Limits::default(), 1 << 30);
    // f(1000) down to f(0): 1000 frames more than f(0) alone.
    assert_eq!((f, p1000 - p0), (32, 1000 * 32));
    // The 8 KiB a C program's start-up uses, main's frame and f(0)'s.
    assert_eq!(p0, (8 << 10) + main + f);
}

/// Stops a run once its stdout is no longer a prefix of `expected`.
struct Prefix(&'static [u8]);

impl faultline_exec::Hooks for Prefix {
    fn keeps_printing(&mut self, stdout: &[u8]) -> bool {
        self.0.starts_with(stdout)
    }
}

#[test]
fn a_hook_ends_a_run_whose_output_went_wrong() {
    // The first line differs from the expected one: the run stops after
    // writing it, before the rest of the loop (which would never end).
    let prog = faultline_c::compile_source(
        "prog.c",
        "#include <stdio.h>\nint main(void) { int i; for (i = 0; ; i++) printf(\"%d\\n\", i); }\n",
    )
    .expect("compiles");
    let exe = Executable::new(&prog).expect("starts");
    let mut hook = Prefix(b"0\n1\n7\n");
    let e = exe.run(
        Input {
            args: &[],
            stdin: b"",
            workdir: None,
        },
        ExecOptions {
            hooks: Some(&mut hook),
            ..ExecOptions::default()
        },
    );
    assert_eq!(e.termination, Termination::Stopped);
    assert_eq!(e.stdout, b"0\n1\n2\n");
}
