//! Checks Z3 may not stop, run in a child process that can be killed.
//!
//! Z3 decides nonlinear real arithmetic (products and quotients of unknown
//! reals, which the cheaper theory has: [`crate::approx`]) with `nlsat`,
//! which heeds neither the effort limit (`rlimit`) nor the interruption nor
//! its own timeout: one check of `tot_info` v17 ran for ten minutes with a
//! 30 s timeout, and the localization stopped at the command's backstop.
//! [`check`] runs such a check in a forked copy of the process and waits at
//! most a bound; past it the child is killed and the check is undecided.
//! The child reports a model as the values of the formula's free constants
//! ([`shape`]), which the caller fixes to get the same model in its own
//! context at little cost (every product is then of known values).
//!
//! The child runs only the check on the calling thread's context (a copy):
//! a lock another thread held when it was forked (Z3's allocation counter,
//! a context's interruption) would block it, and it is then killed at the
//! bound like a check that does not end. Such a fork is rare (the other
//! threads are the limits' watchdog and, with `--threads 2`, a helper
//! engine), and it only leaves a check undecided.

use std::collections::HashSet;
use std::io::Read;
use std::os::fd::FromRawFd;
use std::time::{Duration, Instant};
use z3::ast::{Ast, Bool, Dynamic, Int, Real, BV};
use z3::{DeclKind, SatResult, Solver, SortKind};

/// What a formula holds that decides how it is checked ([`shape`]).
pub struct Shape {
    /// Nonlinear real arithmetic: a product of two real values that are not
    /// numerals, or a quotient by one (Z3 decides it with `nlsat`).
    /// Nonlinear integer arithmetic is not counted: Z3 stopped every such
    /// check at the effort limit (the course's `sieve`, IntroClass
    /// `digits`), and running them in a child changed what Z3 did before
    /// the effort-limited searches after them, for the worse (IntroClass
    /// `digits`: 14 s more over its 236 programs, 1.9 s → 4.7 s on one).
    pub nonlinear_reals: bool,
    /// The formula's free constants of sort Bool, Int, Real or bit-vector,
    /// in the order of a walk of the formula (deterministic).
    pub consts: Vec<Dynamic>,
    /// A free constant of another sort (an array, an uninterpreted
    /// function): a model cannot be passed back by its constants' values.
    pub other: bool,
}

/// The shape of `formula` (one walk of its terms).
pub fn shape(formula: &[Bool]) -> Shape {
    let mut shape = Shape {
        nonlinear_reals: false,
        consts: Vec::new(),
        other: false,
    };
    let mut seen: HashSet<usize> = HashSet::new();
    let mut stack: Vec<Dynamic> = formula.iter().map(|b| Dynamic::from_ast(b)).collect();
    while let Some(e) = stack.pop() {
        if !seen.insert(e.get_z3_ast().as_ptr() as usize) || !e.is_app() {
            continue;
        }
        if crate::kind::uninterpreted(&e) {
            if e.num_children() > 0 {
                shape.other = true;
            } else if matches!(
                e.sort_kind(),
                SortKind::Bool | SortKind::Int | SortKind::Real | SortKind::Bv
            ) {
                shape.consts.push(e.clone());
            } else {
                shape.other = true;
            }
        }
        let args = e.children();
        let unknown = |a: &Dynamic| !crate::approx::is_numeral(a);
        shape.nonlinear_reals |= e.sort_kind() == SortKind::Real
            && match crate::kind::of(&e) {
                Some(DeclKind::Mul) => args.iter().filter(|a| unknown(a)).count() > 1,
                Some(DeclKind::Div | DeclKind::Power) => args.iter().skip(1).any(unknown),
                _ => false,
            };
        stack.extend(args);
    }
    shape
}

/// What a forked check gave.
pub enum Forked {
    /// Satisfiable: the model's value of each of the constants asked for,
    /// in their order.
    Sat(Vec<Dynamic>),
    Unsat,
    /// Unknown (Z3's reason), or a model the constants' values cannot carry
    /// (an irrational value, a constant of another sort).
    Unknown(String),
    /// Not ended within the bound, or no child could be started.
    Stalled,
}

/// Checks `solver` under `assumptions` in a forked child (with the
/// solver's parameters: its effort limit holds where Z3 heeds it), waiting
/// at most `bound`; a model is returned as the values of `consts`. Also
/// the child's peak resident set in KiB (the pages it shares with this
/// process included; 0 if no child ran).
pub fn check(
    solver: &Solver,
    assumptions: &[Bool],
    consts: &[Dynamic],
    bound: Duration,
) -> (Forked, u64) {
    let mut fds = [0i32; 2];
    // SAFETY: `pipe` fills the two descriptors.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return (Forked::Stalled, 0);
    }
    let (read_fd, write_fd) = (fds[0], fds[1]);
    // SAFETY: reads the process id.
    let parent = unsafe { libc::getpid() };
    // SAFETY: the child runs only the check on this thread's context and
    // leaves by `_exit`, never returning into the parent's frames.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        // The child ends with the thread that forked it (a killed
        // `localize` leaves no check running), and by itself one to two
        // seconds after its bound.
        // SAFETY: plain system calls on this process.
        unsafe {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            if libc::getppid() != parent {
                libc::_exit(1);
            }
            libc::alarm(bound.as_secs().saturating_add(2).min(u32::MAX as u64) as u32);
            libc::close(read_fd);
        }
        let report = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            child_report(solver, assumptions, consts)
        }))
        .unwrap_or_else(|_| "unknown the check failed\n".to_string());
        let report = format!("{report}{END}");
        let bytes = report.as_bytes();
        let mut off = 0;
        while off < bytes.len() {
            // SAFETY: writes from a live buffer to the pipe.
            let n = unsafe {
                libc::write(
                    write_fd,
                    bytes[off..].as_ptr() as *const libc::c_void,
                    bytes.len() - off,
                )
            };
            if n <= 0 {
                break;
            }
            off += n as usize;
        }
        // SAFETY: ends the child without running the parent's destructors.
        unsafe { libc::_exit(0) };
    }
    // SAFETY: the parent's copy of the write end is not used.
    unsafe { libc::close(write_fd) };
    if pid < 0 {
        // SAFETY: the read end is ours.
        unsafe { libc::close(read_fd) };
        return (Forked::Stalled, 0);
    }
    // SAFETY: the read end is ours; the `File` closes it.
    let mut pipe = unsafe { std::fs::File::from_raw_fd(read_fd) };
    let report = read_within(&mut pipe, read_fd, Instant::now() + bound);
    if report.is_none() {
        // SAFETY: the child is ours.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
    let mut status = 0;
    // SAFETY: reaps the child (ended or killed); `usage` is plain data.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: as above.
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let peak_kib = usage.ru_maxrss.max(0) as u64;
    let outcome = match report {
        Some(text) => parse_report(&text, consts),
        None => Forked::Stalled,
    };
    (outcome, peak_kib)
}

/// The child's report: `sat` and one value per constant, `unsat`, or
/// `unknown` and a reason.
fn child_report(solver: &Solver, assumptions: &[Bool], consts: &[Dynamic]) -> String {
    match solver.check_assumptions(assumptions) {
        SatResult::Unsat => "unsat\n".to_string(),
        SatResult::Unknown => format!(
            "unknown {}\n",
            solver
                .get_reason_unknown()
                .unwrap_or_default()
                .replace('\n', " ")
        ),
        SatResult::Sat => {
            let Some(model) = solver.get_model() else {
                return "unknown no model\n".to_string();
            };
            let mut out = String::from("sat\n");
            for c in consts {
                let value = model.eval(c, true).and_then(|v| numeral_text(&v));
                match value {
                    Some(v) => {
                        out.push_str(&v);
                        out.push('\n');
                    }
                    None => return "unknown a value that is not a numeral\n".to_string(),
                }
            }
            out
        }
    }
}

/// A value's text for [`parse_value`]: `true`/`false`, or a numeral
/// (`n` or `n/d`); an irrational number (a square root's) as a rational
/// within 10^-[`IRRATIONAL_DIGITS`] below it (a cheap model's values are
/// used for re-executions, in doubles); `None` for anything else.
fn numeral_text(v: &Dynamic) -> Option<String> {
    if let Some(b) = v.as_bool() {
        return b.as_bool().map(|b| b.to_string());
    }
    let ctx = v.get_ctx().get_z3_context();
    // SAFETY: a value of this context.
    let mut ast = v.get_z3_ast();
    if unsafe { z3_sys::Z3_is_algebraic_number(ctx, ast) } {
        // SAFETY: an algebraic number of this context.
        ast = unsafe { z3_sys::Z3_get_algebraic_number_lower(ctx, ast, IRRATIONAL_DIGITS) }?;
    } else if !crate::approx::is_numeral(v) {
        return None;
    }
    // SAFETY: a numeral of this context; Z3 owns the returned string until
    // its next call, and it is copied at once.
    let s = unsafe {
        let p = z3_sys::Z3_get_numeral_string(ctx, ast);
        if p.is_null() {
            return None;
        }
        std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned()
    };
    Some(s)
}

/// The decimal digits of an irrational model value kept ([`numeral_text`]):
/// more than a double holds.
const IRRATIONAL_DIGITS: u32 = 30;

/// The last line of a child's report. The report is complete when it
/// arrives: the pipe may stay open after the child wrote it, in a sibling
/// forked meanwhile by another thread (a helper engine's), which holds a
/// copy of every descriptor open then.
const END: &str = "end\n";

/// Reads the child's report until its last line ([`END`]) or the end of
/// the pipe, or `None` at `deadline`.
fn read_within(pipe: &mut std::fs::File, fd: i32, deadline: Instant) -> Option<String> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return None;
        }
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        let ms = left.as_millis().clamp(1, i32::MAX as u128) as i32;
        // SAFETY: one descriptor, ours.
        let r = unsafe { libc::poll(&mut pfd, 1, ms) };
        if r < 0 {
            if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return None;
        }
        if r == 0 {
            continue;
        }
        match pipe.read(&mut buf) {
            Ok(0) => return String::from_utf8(out).ok(),
            Ok(n) => {
                out.extend_from_slice(&buf[..n]);
                let end = END.as_bytes();
                if out.ends_with(end)
                    && (out.len() == end.len() || out[out.len() - end.len() - 1] == b'\n')
                {
                    return String::from_utf8(out).ok();
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// The check's outcome from the child's report.
fn parse_report(text: &str, consts: &[Dynamic]) -> Forked {
    // Without its last line the child ended before its report did (killed,
    // out of memory).
    let Some(text) = text.strip_suffix(END) else {
        return Forked::Stalled;
    };
    let mut lines = text.lines();
    match lines.next() {
        Some("unsat") => Forked::Unsat,
        Some("sat") => {
            let mut values = Vec::with_capacity(consts.len());
            for c in consts {
                match lines.next().and_then(|l| parse_value(c, l)) {
                    Some(v) => values.push(v),
                    None => return Forked::Unknown("a model value not read back".into()),
                }
            }
            Forked::Sat(values)
        }
        Some(l) if l.starts_with("unknown") => {
            Forked::Unknown(l.trim_start_matches("unknown").trim().to_string())
        }
        _ => Forked::Unknown("a report not understood".into()),
    }
}

/// Constant `c`'s value from its text ([`numeral_text`]).
fn parse_value(c: &Dynamic, text: &str) -> Option<Dynamic> {
    match c.sort_kind() {
        SortKind::Bool => match text {
            "true" => Some(Dynamic::from_ast(&Bool::from_bool(true))),
            "false" => Some(Dynamic::from_ast(&Bool::from_bool(false))),
            _ => None,
        },
        SortKind::Int => text.parse::<Int>().ok().map(|v| Dynamic::from_ast(&v)),
        SortKind::Real => {
            let (n, d) = text.split_once('/').unwrap_or((text, "1"));
            Real::from_rational_str(n.trim(), d.trim()).map(|v| Dynamic::from_ast(&v))
        }
        SortKind::Bv => {
            let width = c.as_bv()?.get_size();
            BV::from_str(width, text).map(|v| Dynamic::from_ast(&v))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A report is read when its last line arrives, though another process
    /// (here: this one) still holds the pipe's write end.
    #[test]
    fn a_report_is_complete_at_its_last_line() {
        let mut fds = [0i32; 2];
        // SAFETY: `pipe` fills the two descriptors.
        assert_eq!(unsafe { libc::pipe(fds.as_mut_ptr()) }, 0);
        let text = format!("unsat\n{END}");
        // SAFETY: writes from a live buffer to our pipe.
        let n = unsafe { libc::write(fds[1], text.as_ptr() as *const libc::c_void, text.len()) };
        assert_eq!(n as usize, text.len());
        // SAFETY: the read end is ours; the `File` closes it.
        let mut pipe = unsafe { std::fs::File::from_raw_fd(fds[0]) };
        let deadline = Instant::now() + Duration::from_secs(60);
        let report = read_within(&mut pipe, fds[0], deadline);
        assert_eq!(report.as_deref(), Some(text.as_str()));
        assert!(matches!(parse_report(&text, &[]), Forked::Unsat));
        // SAFETY: our write end.
        unsafe { libc::close(fds[1]) };
    }

    /// Without its last line, the report is cut: the check is stalled.
    #[test]
    fn a_cut_report_is_not_a_result() {
        let x = Dynamic::from_ast(&Real::new_const("x"));
        let x = std::slice::from_ref(&x);
        assert!(matches!(parse_report("", x), Forked::Stalled));
        assert!(matches!(parse_report("sat\n1/2\n", x), Forked::Stalled));
        let Forked::Sat(v) = parse_report(&format!("sat\n1/2\n{END}"), x) else {
            panic!("not sat");
        };
        assert_eq!(v[0].as_real().unwrap().approx_f64(), 0.5);
        // A value missing from a complete report.
        assert!(matches!(
            parse_report(&format!("sat\n{END}"), x),
            Forked::Unknown(_)
        ));
    }
}
