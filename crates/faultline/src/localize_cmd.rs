//! `faultline localize`: find the statements that explain the failing tests.

use crate::input::{
    check_output, compile, exit, load_suite, SuiteArgs, UserError, DEFAULT_MAX_MEMORY_MIB,
};
use clap::{Args, ValueEnum};
use faultline_diagnose::methods::Method;
use faultline_diagnose::weights::Spectrum;
use faultline_diagnose::{Combine, Options, Session};
use faultline_exec::Budget;
use faultline_report::json::{Report, Settings};
use faultline_report::style::ColorChoice;
use faultline_report::text::plural;
use faultline_smt::{Encoding, IntSemantics};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum LocalizeFormat {
    /// Annotated source for people (coloured on a terminal).
    Text,
    /// The `faultline.localize/1` JSON report.
    Json,
    /// A SARIF 2.1.0 log (GitHub code scanning, the VS Code SARIF viewer).
    Sarif,
    /// One self-contained HTML page (use with -o FILE).
    Html,
}

#[derive(Args)]
pub struct LocalizeArgs {
    /// The C program with failing tests, or a directory of programs (submissions) sharing
    /// the tests: one line per submission and a summary table (a class run).
    pub program: PathBuf,
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// The formula built for each failing test.
    #[arg(long, value_enum, default_value_t = Encoding::Full)]
    pub encoding: Encoding,
    /// How failing tests are combined.
    /// [default: mbd; for ofc: per-test, merged by average rank]
    #[arg(long, value_enum)]
    pub combine: Option<Combine>,
    /// The localization method: full, flow, trace (the --encoding, combined
    /// by --combine), full+cw, bugassist, bugassist+cw, sniper, cfaults, ofc,
    /// ofc+cw, ofc+tarantula, ofc+dstar, agx, agx+cw; on one failing test
    /// (--test): mdfs, cafl (a cause tree). Without it, --encoding and
    /// --combine choose.
    #[arg(long, value_name = "NAME")]
    pub method: Option<String>,
    /// Largest diagnosis (number of statements).
    #[arg(long, default_value_t = 3)]
    pub max_size: usize,
    /// With `mbd` (full, flow, trace): every minimal diagnosis up to
    /// --max-size, not only those of the smallest size that explains the
    /// failing tests.
    #[arg(long)]
    pub all_sizes: bool,
    /// Most diagnoses reported.
    #[arg(long, default_value_t = 100)]
    pub max_diagnoses: usize,
    /// Time limit of the whole localization in seconds, running the tests
    /// included (partial results are printed, exit status 3); without
    /// --max-time, each test run may then take at most a tenth of it.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// What counts as coverage for clause weights: a statement that executed
    /// (`statement`), or one that executed and whose result was used (`use`).
    #[arg(long, value_enum, default_value_t = Spectrum::Use)]
    pub spectrum: Spectrum,
    /// Memory limit in MiB (the process's resident memory; 0: none): the
    /// search stops with partial results (exit status 3) when it is reached.
    /// [default: 2048]
    #[arg(long, value_name = "MIB")]
    pub max_memory: Option<u64>,
    /// Per-test methods: enumerate every failing test's MCSes, instead of
    /// confirming those of a test on the same path (same results; to measure).
    #[arg(long)]
    pub no_path_sharing: bool,
    /// Cap on loop unrolling and recursion unfolding.
    #[arg(long, value_name = "N")]
    pub unwind: Option<u32>,
    /// The solver's effort limit of each single-statement check, in millions
    /// of Z3's resource units (deterministic, unlike --timeout; 0: none): a
    /// statement whose check reaches it is left undecided and the result is
    /// partial (exit status 3); the search for larger diagnoses has twice
    /// as much per query. [default: 2]
    #[arg(long, value_name = "MILLIONS")]
    pub effort: Option<u32>,
    /// Engines checking single statements at once, 1 or 2: with 2, once the
    /// checks cost (a few tenths of a second), a second one on the other
    /// core takes every other statement. The same input gives the same
    /// results each time; 1 and 2 may differ where a check reaches the
    /// effort limit.
    #[arg(long, value_name = "N", default_value_t = faultline_diagnose::DEFAULT_THREADS)]
    pub threads: usize,
    /// How integers are encoded.
    #[arg(long, value_enum, default_value_t = IntSemantics::BitVector)]
    pub int_semantics: IntSemantics,
    /// Output format.
    #[arg(long, value_enum, default_value_t = LocalizeFormat::Text)]
    pub format: LocalizeFormat,
    /// Write the report to FILE instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Text format: only one line per diagnosis.
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Text format: every angelic value and ranked statement, notes and statistics.
    #[arg(short, long)]
    pub verbose: bool,
    /// The failing test a single-run method (mdfs, cafl) explains (default: the first failing one).
    #[arg(long, value_name = "NAME")]
    pub test: Option<String>,
    /// MDFS: the property at the failure point, e.g. "m == 2 && x > z" (default: the expected output).
    #[arg(long, value_name = "EXPR")]
    pub property: Option<String>,
    /// When to colour the text report.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    pub color: ColorChoice,
    #[command(flatten)]
    pub cafl: crate::cafl_cmd::CaflArgs,
}

pub fn localize_cmd(a: &LocalizeArgs) -> Result<u8, UserError> {
    check_output(a.output.as_deref())?;
    if a.method.as_deref() == Some("cafl") && !a.program.is_dir() {
        return crate::cafl_cmd::localize(a);
    }
    if a.max_size == 0 {
        return Err(UserError("error: --max-size must be at least 1".into()));
    }
    if !(1..=2).contains(&a.threads) {
        return Err(UserError(format!(
            "error: --threads must be 1 or 2, not {}",
            a.threads
        )));
    }
    let (timeout, max_memory) = limits_of(a)?;
    if a.program.is_dir() {
        return crate::class_cmd::class_cmd(a, timeout, max_memory);
    }
    let quiet = a.quiet;
    let exit_code = |r: Result<u8, UserError>| match r {
        Ok(code) => code,
        Err(UserError(msg)) => {
            eprintln!("{msg}");
            exit::INPUT
        }
    };
    let r = localize_program(
        a,
        &a.program,
        timeout,
        max_memory,
        quiet,
        Some(&exit_code),
        |prog, session, options, loc, mdfs| {
            write_report(a, prog, session, options, loc, mdfs)?;
            Ok(if loc.is_partial() {
                exit::LIMIT
            } else if session.failing.is_empty() {
                exit::OK
            } else {
                exit::FAILED
            })
        },
    )?;
    match r {
        Limited::Done(code) => code,
        Limited::Stopped(msg) => {
            eprintln!("{msg}");
            Ok(exit::LIMIT)
        }
    }
}

/// The time and memory limits `a` sets (`--timeout`, `--max-memory`; the
/// default memory cap when none is given, none with 0).
pub fn limits_of(a: &LocalizeArgs) -> Result<(Option<Duration>, Option<u64>), UserError> {
    let timeout = match a.timeout {
        Some(t) if !(t > 0.0 && t.is_finite()) => {
            return Err(UserError(format!(
                "error: --timeout must be a positive number of seconds, not {t}"
            )))
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    let max_memory = match a.max_memory {
        Some(0) => None,
        Some(m) => Some(m),
        None => Some(DEFAULT_MAX_MEMORY_MIB),
    };
    Ok((timeout, max_memory))
}

/// What [`localize_program`] ended with.
pub enum Limited<R> {
    /// The localization ran (perhaps partially) and `report` made this.
    Done(R),
    /// The time or memory limit ran out before the tests were loaded.
    Stopped(String),
}

/// The diagnoses of `program` under `a`'s settings, within its own limits
/// (`timeout`, `max_memory`: each program of a class has its own), handed
/// to `report` with what it needs to render them.
pub fn localize_program<R>(
    a: &LocalizeArgs,
    program: &std::path::Path,
    timeout: Option<Duration>,
    max_memory: Option<u64>,
    quiet: bool,
    backstop: Option<&(dyn Fn(R) -> u8 + Sync)>,
    report: impl FnOnce(
            &faultline_ir::Program,
            &Session,
            &Options,
            &faultline_diagnose::Localization,
            Option<&faultline_diagnose::mdfs::MdfsReport>,
        ) -> R
        + Send,
) -> Result<Limited<R>, UserError> {
    // Every phase from here on (the reference program, the tests, encoding,
    // solving, replaying) counts against the time and memory limits.
    let started = std::time::Instant::now();
    let budget = Budget::new(timeout, max_memory);
    if let Some(mib) = max_memory {
        faultline_smt::limits::cap_z3_memory(mib);
    }
    // Z3 runs only under `limits::isolated`, in contexts of its own.
    let _scope = faultline_smt::limits::enter_budget(&budget);
    let prog = compile(program)?;
    let (tests, compare, limits) = match load_suite(&a.suite, &prog, timeout) {
        Err(UserError(msg)) if budget.exhausted().is_some() => {
            return Ok(Limited::Stopped(msg));
        }
        r => r?,
    };
    let options = Options {
        max_size: a.max_size,
        max_diagnoses: a.max_diagnoses,
        timeout,
        unwind: a.unwind,
        int_semantics: a.int_semantics,
        max_memory,
        spectrum: a.spectrum,
        progress: None,
        share_paths: !a.no_path_sharing,
        effort: match a.effort {
            None => Some(faultline_diagnose::DEFAULT_EFFORT),
            Some(0) => None,
            Some(m) => Some(m.saturating_mul(1_000_000)),
        },
        all_sizes: a.all_sizes,
        threads: a.threads,
        joint_work: faultline_diagnose::DEFAULT_JOINT_WORK,
    };
    let progress = std::sync::Arc::new(faultline_report::progress::Indicator::for_stderr(quiet));
    let mut options = options;
    // The diagnoses found so far, for the backstop below.
    let so_far: std::sync::Arc<std::sync::Mutex<Vec<faultline_diagnose::Diagnosis>>> =
        std::sync::Arc::default();
    if progress.is_enabled() || backstop.is_some() {
        let sink = std::sync::Arc::clone(&progress);
        let keep = std::sync::Arc::clone(&so_far);
        options.progress = Some(faultline_diagnose::ProgressHook(std::sync::Arc::new(
            move |p| {
                use faultline_report::progress::{Event, ProgressSink};
                if let faultline_diagnose::Progress::Diagnoses(d) = p {
                    *keep.lock().unwrap_or_else(|e| e.into_inner()) = d.to_vec();
                }
                sink.event(match p {
                    faultline_diagnose::Progress::TestsRun { done, total } => {
                        Event::TestsRun { done, total }
                    }
                    faultline_diagnose::Progress::TestsEncoded { done, total } => {
                        Event::TestsEncoded { done, total }
                    }
                    faultline_diagnose::Progress::Diagnoses(d) => {
                        Event::Diagnoses { count: d.len() }
                    }
                })
            },
        )));
    }
    progress.phase(format!("running {}", plural(tests.len(), "test", "tests")));
    let session = Session::with_progress(&prog, &tests, compare, limits, options.progress.as_ref())
        .map_err(|e| UserError(format!("{}: error: {e}", program.display())))?;
    progress.phase(format!(
        "localizing {}",
        plural(session.failing.len(), "failing test", "failing tests")
    ));
    let method = match &a.method {
        Some(name) => Method::parse(name, a.combine).map_err(|e| {
            UserError(format!(
                "error: --method: {e}, or cafl (the cause tree of one failing test)"
            ))
        })?,
        None => Method::Formula {
            encoding: a.encoding,
            combine: a.combine.unwrap_or(Combine::Mbd),
            weights: None,
        },
    };
    let report = std::sync::Mutex::new(Some(report));
    let searched = std::thread::scope(|s| {
        let (done, wait) = std::sync::mpsc::channel::<()>();
        if let (Some(exit_code), Some(t)) = (backstop, timeout) {
            let stuck = Stuck {
                prog: &prog,
                session: &session,
                options: &options,
                method: method.name(),
                so_far: &so_far,
                progress: &progress,
                grace: backstop_grace(t),
                started,
            };
            let report = &report;
            let left = (t + stuck.grace).saturating_sub(started.elapsed());
            s.spawn(move || {
                if let Err(std::sync::mpsc::RecvTimeoutError::Timeout) = wait.recv_timeout(left) {
                    stuck.report(report, exit_code);
                }
            });
        }
        let searched = crate::mdfs_cmd::run(a, &session, &method, &options).map(|m| match m {
            Some((loc, report)) => (loc, report),
            None => (
                faultline_diagnose::methods::run(&session, &method, &options),
                None,
            ),
        });
        // Tests of the backstop stand for a solver call that does not heed
        // the interruption by holding the search this long after it ended.
        if let Some(secs) = std::env::var("FAULTLINE_TEST_STALL_SECONDS")
            .ok()
            .and_then(|v| v.parse::<u64>().ok())
        {
            std::thread::sleep(Duration::from_secs(secs));
        }
        drop(done);
        searched
    });
    let (loc, mdfs) = searched?;
    options.progress = None;
    if let Ok(p) = std::sync::Arc::try_unwrap(progress) {
        p.finish();
    }
    let report = report
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .expect("the backstop reports only by ending the process");
    Ok(Limited::Done(report(
        &prog,
        &session,
        &options,
        &loc,
        mdfs.as_ref(),
    )))
}

/// How long after the time limit the backstop waits for the search to
/// return: a second and a tenth of the limit (the search normally stops
/// within a few hundred milliseconds, then ranks what it found).
fn backstop_grace(timeout: Duration) -> Duration {
    Duration::from_secs(1) + timeout / 10
}

/// What the backstop needs to report a search that did not return in time:
/// a solver call that does not heed the interruption at the time limit
/// (some of Z3's preprocessing of large floating-point terms does not) would
/// otherwise hold the process past `--timeout` for as long as it runs.
struct Stuck<'s, 'p> {
    prog: &'s faultline_ir::Program,
    session: &'s Session<'p>,
    options: &'s Options,
    method: String,
    so_far: &'s std::sync::Mutex<Vec<faultline_diagnose::Diagnosis>>,
    progress: &'s faultline_report::progress::Indicator,
    grace: Duration,
    started: std::time::Instant,
}

impl Stuck<'_, '_> {
    /// Reports the diagnoses found so far as a partial result (the time
    /// limit), with `report`, and ends the process with `exit_code` of what
    /// it returned.
    fn report<R, F>(self, report: &std::sync::Mutex<Option<F>>, exit_code: &dyn Fn(R) -> u8)
    where
        F: FnOnce(
            &faultline_ir::Program,
            &Session,
            &Options,
            &faultline_diagnose::Localization,
            Option<&faultline_diagnose::mdfs::MdfsReport>,
        ) -> R,
    {
        let Some(report) = report.lock().unwrap_or_else(|e| e.into_inner()).take() else {
            return;
        };
        self.progress.halt();
        let diagnoses = self
            .so_far
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let loc = faultline_diagnose::Localization {
            method: self.method,
            tests: self.session.verdicts(),
            failing: self.session.failing.clone(),
            skipped: Vec::new(),
            diagnoses,
            ranking: Vec::new(),
            incomplete: Some(faultline_diagnose::Incomplete::Timeout),
            notes: vec![format!(
                "the solver did not stop within {:.1} s of the time limit: the diagnoses found \
                 until then are reported in the order found, not ranked",
                self.grace.as_secs_f64()
            )],
            stats: faultline_diagnose::result::Stats {
                total_time: self.started.elapsed(),
                ..Default::default()
            },
        };
        let code = exit_code(report(self.prog, self.session, self.options, &loc, None));
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        // SAFETY: `_exit` ends the process at once; the report is written
        // (and flushed), and the search thread holds nothing to finish.
        unsafe { libc::_exit(i32::from(code)) }
    }
}

/// The settings a report records.
pub fn settings(
    a: &LocalizeArgs,
    options: &Options,
    loc: &faultline_diagnose::Localization,
) -> Settings {
    Settings {
        method: loc.method.clone(),
        encoding: a.encoding.name().into(),
        combine: a.combine.unwrap_or(Combine::Mbd).name().into(),
        max_size: options.max_size,
        all_sizes: options.all_sizes,
        max_diagnoses: options.max_diagnoses,
        timeout_s: a.timeout,
        unwind: options.unwind,
        int_semantics: options.int_semantics.name().into(),
        threads: options.threads,
    }
}

/// Renders the report in the chosen format to stdout or `-o FILE`.
fn write_report(
    a: &LocalizeArgs,
    prog: &faultline_ir::Program,
    session: &Session,
    options: &Options,
    loc: &faultline_diagnose::Localization,
    mdfs: Option<&faultline_diagnose::mdfs::MdfsReport>,
) -> Result<(), UserError> {
    use faultline_report::style::{self, Palette};
    use faultline_report::text::{TextOptions, Verbosity};
    let program_name = a.program.display().to_string();
    let settings = settings(a, options, loc);
    let subject = faultline_report::Subject {
        prog,
        program_name: &program_name,
        settings: &settings,
        loc,
        tests: session.tests,
        runs: &session.runs,
    };
    let text = match a.format {
        LocalizeFormat::Text => {
            let color = a.output.is_none() && style::stdout_color(a.color);
            let opts = TextOptions {
                verbosity: if a.quiet {
                    Verbosity::Quiet
                } else if a.verbose {
                    Verbosity::Verbose
                } else {
                    Verbosity::Normal
                },
                palette: if color {
                    Palette::COLOR
                } else {
                    Palette::PLAIN
                },
            };
            let text = faultline_report::text::render(prog, loc, &opts);
            match mdfs {
                Some(r) if a.verbose => text + &crate::mdfs_cmd::text(r),
                _ => text,
            }
        }
        LocalizeFormat::Json => {
            let mut j = Report::new(prog, &program_name, settings.clone(), loc).to_json();
            j.push('\n');
            match mdfs {
                Some(r) => crate::mdfs_cmd::json(j, r),
                None => j,
            }
        }
        LocalizeFormat::Sarif => faultline_report::sarif::render(&subject),
        LocalizeFormat::Html => faultline_report::html::render(&subject),
    };
    match &a.output {
        None => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth reporting.
            let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
            Ok(())
        }
        Some(path) => std::fs::write(path, text)
            .map_err(|e| UserError(format!("error: cannot write {}: {e}", path.display()))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    /// The command line's value names are the library's `name()`s, and
    /// `FromStr` reads them back.
    #[test]
    fn clap_names_are_the_library_names() {
        fn check<T: ValueEnum + std::str::FromStr + PartialEq + std::fmt::Debug>(
            name: impl Fn(&T) -> &'static str,
        ) {
            for v in T::value_variants() {
                let clap_name = v
                    .to_possible_value()
                    .expect("visible")
                    .get_name()
                    .to_string();
                assert_eq!(clap_name, name(v), "{v:?}");
                assert!(name(v).parse::<T>().ok().as_ref() == Some(v), "{v:?}");
            }
        }
        check::<Encoding>(|e| e.name());
        check::<Combine>(|c| c.name());
        check::<IntSemantics>(|i| i.name());
        check::<Spectrum>(|s| s.name());
        check::<ColorChoice>(|c| c.name());
    }
}
