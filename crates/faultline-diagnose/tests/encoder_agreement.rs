//! The encoder agrees with the interpreter: a formula with no relaxation has
//! exactly the interpreter's run as its model.
//!
//! For every test of the differential corpus (tests/programs/*), the
//! interpreter's stdout and exit status become the expected ones; the test is
//! encoded (`full`, bounds from the run's trace) and, with every `ab_S`
//! assumed false, the formula must be satisfiable; with the expected stdout
//! changed by one byte it must be unsatisfiable.
//!
//! Not checked, but counted: runs that end in a runtime error or a failed
//! assertion (there the formula forbids what the run did), programs the
//! encoder reports as unsupported, runs of more than [`MAX_EVENTS`] statement
//! instances, and checks on which the solver gives up (time or memory
//! limit). Programs that call a library function the encoder declares it does
//! not encode yet ([`faultline_ir::Builtin::encodable`]) are not run at all
//! (counted and named). At least 70% of the tests that end normally and are short enough
//! must be supported by the encoder, and at least 50 formulas must be checked.
//!
//! Programs that use what the encoder does not encode yet by design (streams,
//! `qsort`: issue 13) are not run at all and not counted in that share; they
//! are listed. `FAULTLINE_AGREEMENT_PROGRAMS` (a comma-separated list of
//! name prefixes) checks only some programs (the share is then not asserted).
//!
//! Each test is checked in a child process (this test binary, running
//! `agreement_child`), so that a formula too large for the machine or a
//! panic ends one check, not the run.

mod common;

use common::*;
use faultline_diagnose::bounds::Needs;
use faultline_exec::{ExecOptions, Executable, Input, Limits, Termination, TestCase};
use faultline_ir::Program;
use faultline_smt::{encode_test, AbVars, Bounds, Encoding, IntSemantics, Sink};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::{SatResult, Solver};

/// The tests of a corpus program: (name, args, stdin).
fn corpus_tests(dir: &Path) -> Vec<(String, Vec<String>, Vec<u8>)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("program directory")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "in").then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let stdin = std::fs::read(dir.join(format!("{n}.in"))).expect("stdin");
            let args = std::fs::read_to_string(dir.join(format!("{n}.args")))
                .map(|a| a.split_whitespace().map(String::from).collect())
                .unwrap_or_default();
            (n, args, stdin)
        })
        .collect()
}

/// Most time one satisfiability check may take.
const CHECK_TIMEOUT_MS: u32 = 5_000;

/// What the solver said about the formula of a test with nothing relaxed.
#[derive(Debug, PartialEq)]
enum Answer {
    Sat,
    Unsat,
    /// Timeout or memory limit.
    GaveUp,
}

/// Whether the formula of `test` with nothing relaxed is satisfiable, on the
/// solver localization uses (Z3's finite-domain solver for pure bit-vector
/// formulas).
fn satisfiable(prog: &Program, test: &TestCase, bounds: &Bounds) -> Result<Answer, String> {
    let solver = if faultline_ir::analysis::uses_floats(prog) {
        Solver::new()
    } else {
        Solver::new_for_logic("QF_FD").unwrap_or_default()
    };
    let mut params = z3::Params::new();
    params.set_u32("timeout", CHECK_TIMEOUT_MS);
    solver.set_params(&params);
    let mut ab = AbVars::new();
    encode_test(
        prog,
        test,
        Encoding::Full,
        IntSemantics::BitVector,
        bounds,
        None,
        &mut ab,
        &Sink::new(&solver),
    )
    .map_err(|e| e.describe(prog))?;
    let assumptions: Vec<Bool> = ab.stmts().map(|(_, b)| b.not()).collect();
    Ok(match solver.check_assumptions(&assumptions) {
        SatResult::Sat => Answer::Sat,
        SatResult::Unsat => Answer::Unsat,
        SatResult::Unknown => Answer::GaveUp,
    })
}

/// The expected stdout changed by one byte.
fn changed(stdout: &[u8]) -> Vec<u8> {
    let mut out = stdout.to_vec();
    if out.is_empty() {
        out.push(b'x');
    } else {
        let i = out.len() / 2;
        out[i] = if out[i] == b'0' { b'1' } else { b'0' };
    }
    out
}

/// What one test's check found.
#[derive(Debug, PartialEq)]
enum Outcome {
    /// The run ended in a runtime error or a failed assertion.
    Skipped,
    Unsupported(String),
    /// The run executes more statement instances than [`MAX_EVENTS`].
    TooLong(usize),
    Checked {
        as_run: Answer,
        changed: Answer,
    },
    /// The child process died (the encoder panicked, or a limit was hit).
    Died(String),
}

/// Runs longer than this (statement instances) are not encoded: the full
/// encoding of such runs is beyond the check's time and memory limits.
const MAX_EVENTS: usize = 3_000;

const CHILD_ENV: &str = "FAULTLINE_AGREEMENT_ONE";
/// Most time one test's child process may take.
const CHILD_TIMEOUT: Duration = Duration::from_secs(20);

/// Checks one test of a corpus program (in the child process).
fn check_one(dir: &Path, t: &str) -> Outcome {
    let prog = compile(&dir.join("prog.c"));
    let exe = Executable::new(&prog).expect("starts");
    let (_, args, stdin) = corpus_tests(dir)
        .into_iter()
        .find(|(n, _, _)| n == t)
        .expect("the test exists");
    let run = exe.run(
        Input {
            args: &args,
            stdin: &stdin,
            workdir: None,
        },
        ExecOptions {
            record_trace: true,
            // A step count, not the default time limit: the corpus's endless
            // loops end fast, with a trace of a bounded size.
            limits: Limits {
                max_steps: Some(10_000_000),
                max_time: None,
                ..Limits::default()
            },
            ..ExecOptions::default()
        },
    );
    let Termination::Exit(status) = run.termination else {
        return Outcome::Skipped;
    };
    let trace = run.trace.as_ref().expect("traced");
    if trace.events.len() > MAX_EVENTS {
        return Outcome::TooLong(trace.events.len());
    }
    let bounds = Needs::of_trace(&prog, trace).bounds(None);
    let test = TestCase {
        name: t.to_string(),
        args,
        stdin,
        expected_stdout: run.stdout.clone(),
        expected_status: Some(status),
        workdir: None,
    };
    let mut changed_test = test.clone();
    changed_test.expected_stdout = changed(&run.stdout);
    let as_run = match satisfiable(&prog, &test, &bounds) {
        Ok(a) => a,
        Err(e) => return Outcome::Unsupported(e),
    };
    let changed = satisfiable(&prog, &changed_test, &bounds).expect("encoded once");
    Outcome::Checked { as_run, changed }
}

/// The entry point of the child processes: checks the test named by
/// `FAULTLINE_AGREEMENT_ONE` (`program/test`) and prints the outcome; does
/// nothing in a normal test run.
#[test]
fn agreement_child() {
    let Ok(one) = std::env::var(CHILD_ENV) else {
        return;
    };
    // A formula too large for the machine makes Z3 give up, not swap.
    z3::set_global_param("memory_max_size", "2500");
    let (program, t) = one.split_once('/').expect("program/test");
    let outcome = check_one(&root().join("tests/programs").join(program), t);
    println!("OUTCOME {outcome:?}");
}

/// Runs the check of one test in a child process (memory and time limits;
/// a crash is an outcome, not the end of the test run).
fn run_child(program: &str, t: &str) -> (Outcome, Duration) {
    let start = Instant::now();
    let exe = std::env::current_exe().expect("the test binary");
    let mut cmd = if Path::new("/usr/bin/prlimit").exists() {
        let mut c = Command::new("/usr/bin/prlimit");
        c.arg("--as=6000000000").arg("--").arg(&exe);
        c
    } else {
        Command::new(&exe)
    };
    cmd.args([
        "--exact",
        "agreement_child",
        "--nocapture",
        "--test-threads=1",
    ])
    .env(CHILD_ENV, format!("{program}/{t}"))
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("the test binary starts");
    let status = loop {
        if let Some(st) = child.try_wait().expect("wait") {
            break Some(st);
        }
        if start.elapsed() > CHILD_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    // libtest may print "test agreement_child ... " on the same line.
    let line = stdout
        .lines()
        .find_map(|l| l.find("OUTCOME ").map(|i| &l[i + "OUTCOME ".len()..]));
    let outcome = match (status, line) {
        (None, _) => Outcome::Checked {
            as_run: Answer::GaveUp,
            changed: Answer::GaveUp,
        },
        (Some(_), Some("Skipped")) => Outcome::Skipped,
        (Some(_), Some(l)) if l.starts_with("TooLong(") => {
            Outcome::TooLong(l["TooLong(".len()..l.len() - 1].parse().expect("a count"))
        }
        (Some(_), Some(l)) if l.starts_with("Unsupported(") => {
            Outcome::Unsupported(l["Unsupported(".len()..l.len() - 1].to_string())
        }
        (Some(_), Some(l)) => {
            let answer = |key: &str| {
                let rest = &l[l.find(key).expect("answer") + key.len()..];
                if rest.starts_with("Sat") {
                    Answer::Sat
                } else if rest.starts_with("Unsat") {
                    Answer::Unsat
                } else {
                    Answer::GaveUp
                }
            };
            Outcome::Checked {
                as_run: answer("as_run: "),
                changed: answer("changed: "),
            }
        }
        (Some(_), None)
            if String::from_utf8_lossy(&out.stderr).contains("z3-0.")
                || String::from_utf8_lossy(&out.stderr).contains("out_of_memory_error") =>
        {
            // Z3 returned no term, or threw its out-of-memory exception
            // where the API does not catch it (an abort): the memory limit
            // this child sets (`memory_max_size`) was reached.
            Outcome::Checked {
                as_run: Answer::GaveUp,
                changed: Answer::GaveUp,
            }
        }
        (Some(st), None) => {
            let stderr = String::from_utf8_lossy(&out.stderr);
            let why = stderr
                .lines()
                .find(|l| l.contains("panicked at"))
                .map(|l| {
                    let next = stderr.lines().skip_while(|x| *x != l).nth(1).unwrap_or("");
                    format!("{l} {next}")
                })
                .unwrap_or_else(|| format!("{st}"));
            Outcome::Died(why)
        }
    };
    (outcome, start.elapsed())
}

#[test]
fn unrelaxed_formulas_have_exactly_the_interpreters_run_as_model() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let start = Instant::now();
    let corpus = root().join("tests/programs");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .filter_map(|e| Some(e.ok()?.path()))
        .filter(|p| p.join("prog.c").exists())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 60, "{} programs", dirs.len());
    let only: Option<Vec<String>> = std::env::var("FAULTLINE_AGREEMENT_PROGRAMS")
        .ok()
        .map(|v| v.split(',').map(String::from).collect());
    if let Some(only) = &only {
        dirs.retain(|d| {
            let n = d.file_name().unwrap().to_string_lossy().into_owned();
            only.iter().any(|p| n.starts_with(p.as_str()))
        });
    }
    // Programs using what the encoder does not encode yet: listed, not run.
    let mut not_yet: Vec<String> = Vec::new();
    let dirs: Vec<PathBuf> = dirs
        .into_iter()
        .filter(|d| {
            let prog = faultline_c::compile_file(&d.join("prog.c")).expect("compiles");
            match not_encoded_yet(&prog) {
                Some(why) => {
                    let p = d.file_name().unwrap().to_string_lossy().into_owned();
                    not_yet.push(format!("{p} ({why})"));
                    false
                }
                None => true,
            }
        })
        .collect();
    let jobs: Vec<(String, String)> = dirs
        .iter()
        .flat_map(|d| {
            let p = d.file_name().unwrap().to_string_lossy().into_owned();
            corpus_tests(d)
                .into_iter()
                .map(move |(t, _, _)| (p.clone(), t))
        })
        .collect();
    let results: Mutex<Vec<(String, Outcome, Duration)>> = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((p, t)) = jobs.get(i) else { break };
                let (o, d) = run_child(p, t);
                results.lock().unwrap().push((format!("{p}/{t}"), o, d));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let (mut checked, mut skipped, mut unsupported, mut gave_up, mut too_long) = (0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut messages: Vec<String> = Vec::new();
    for (name, o, d) in &results {
        match o {
            Outcome::Skipped => skipped += 1,
            Outcome::TooLong(n) => {
                too_long += 1;
                messages.push(format!("too long: {name} ({n} statement instances)"));
            }
            Outcome::Unsupported(m) => {
                unsupported += 1;
                let p = name.split('/').next().unwrap();
                let msg = format!("unsupported: {p}: {m}");
                if !messages.contains(&msg) {
                    messages.push(msg);
                }
            }
            Outcome::Checked { as_run, changed } => {
                if *as_run == Answer::GaveUp || *changed == Answer::GaveUp {
                    gave_up += 1;
                    messages.push(format!("solver gave up: {name} ({:.1}s)", d.as_secs_f64()));
                    continue;
                }
                checked += 1;
                if *as_run != Answer::Sat {
                    failures.push(format!(
                        "{name}: unsatisfiable with the interpreter's output"
                    ));
                }
                if *changed != Answer::Unsat {
                    failures.push(format!("{name}: satisfiable with a changed output"));
                }
            }
            Outcome::Died(why) => failures.push(format!("{name}: the check died: {why}")),
        }
    }
    let mut slow: Vec<&(String, Outcome, Duration)> = results.iter().collect();
    slow.sort_by_key(|x| std::cmp::Reverse(x.2));
    println!(
        "{} tests: {checked} checked, {skipped} runtime errors or failed assertions skipped, {too_long} too long, {unsupported} unsupported, solver gave up on {gave_up}; {:.1}s",
        results.len(),
        start.elapsed().as_secs_f64()
    );
    println!(
        "{} programs not run: they call library functions not encoded yet: {}",
        not_yet.len(),
        not_yet.join(", ")
    );
    for m in &messages {
        println!("{m}");
    }
    println!(
        "{} programs not run (not encoded yet): {}",
        not_yet.len(),
        not_yet.join(", ")
    );
    for (n, _, d) in slow.iter().take(8) {
        println!("slowest: {n} {:.2}s", d.as_secs_f64());
    }
    assert!(
        failures.is_empty(),
        "{} disagreements:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // Whether a test is supported does not depend on the machine; whether
    // the solver finishes within its time limit does (a loaded CI machine
    // gave up on 52 of 179, a quiet one on about 30). So the encoder's
    // coverage is asserted on what is deterministic, and the number of
    // formulas actually checked against the interpreter only has a floor.
    // Measured: 129 of 173 encoded (the unsupported C is `*` widths, `%s`
    // with a width of computed strings, strcpy/atol of computed strings and
    // pow); 77 checked on the loaded machine. Runs too long to encode are
    // not counted. With the heap, goto, VLAs and function pointers encoded
    // (issue 13): 246 tests, 80 checked, 90 the solver gave up on (a loaded
    // machine), 45 unsupported, no disagreement.
    if only.is_some() {
        return;
    }
    let total = checked + unsupported + gave_up;
    let supported = checked + gave_up;
    assert!(
        supported * 100 >= total * 70,
        "only {supported} of {total} tests are supported by the encoder"
    );
    assert!(
        checked >= 50,
        "only {checked} of {total} formulas were checked (the solver gave up on {gave_up}, {too_long} too long)"
    );
}

/// Why the encoder cannot encode `prog` yet by design (issue 13), if it
/// uses any of it: a library function [`Builtin::encodable`] refuses
/// (`qsort`, streams, ...).
fn not_encoded_yet(prog: &Program) -> Option<&'static str> {
    use faultline_ir::visit::{any_expr, for_each_stmt, stmt_exprs};
    use faultline_ir::ExprKind;
    let mut why = None;
    let mut check = |e: &faultline_ir::Expr| {
        any_expr(e, |e| {
            let r = match &e.kind {
                ExprKind::Builtin { func, .. } => func.encodable().err(),
                _ => None,
            };
            why = why.or(r);
            r.map(|_| true)
        });
    };
    for g in &prog.globals {
        for it in &g.init.items {
            check(&it.value);
        }
    }
    for f in &prog.functions {
        for_each_stmt(&f.body, &mut |s| stmt_exprs(s, &mut check));
    }
    why
}
