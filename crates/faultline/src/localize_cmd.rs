//! `faultline localize`: find the statements that explain the failing tests.

use crate::cli::{compile, exit, load_suite, SuiteArgs, UserError};
use clap::{Args, ValueEnum};
use faultline_diagnose::{Combine, Options, Session};
use faultline_report::json::{Report, Settings};
use faultline_smt::{Encoding, IntSemantics};
use std::path::PathBuf;
use std::time::Duration;

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum EncodingArg {
    /// All paths of the bounded program (BugAssist, CFaults).
    Full,
    /// Only each failing run's path; conditions are not relaxable.
    Trace,
    /// SNIPER's flow-sensitive formula.
    Flow,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum CombineArg {
    /// One formula over all failing tests: diagnoses consistent with every failing test.
    Mbd,
    /// Per-test MCSes combined by union (SNIPER).
    Setcombine,
    /// Each failing test's MCSes, unmerged.
    PerTest,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum SpectrumArg {
    /// The statement executed.
    Statement,
    /// The statement executed and its result was used (read, printed, branched on).
    Use,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum IntSemArg {
    /// 32-bit (and other C widths) bit-vectors: exact C semantics.
    Bv,
    /// Unbounded integers: faster, approximate (no wrap-around).
    Math,
}

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

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// Colour when writing to a terminal and NO_COLOR is not set.
    Auto,
    Always,
    Never,
}

#[derive(Args)]
pub struct LocalizeArgs {
    /// The C program with failing tests.
    pub program: PathBuf,
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// The formula built for each failing test.
    #[arg(long, value_enum, default_value_t = EncodingArg::Full)]
    pub encoding: EncodingArg,
    /// How failing tests are combined.
    /// [default: mbd; for ofc: per-test, merged by average rank]
    #[arg(long, value_enum)]
    pub combine: Option<CombineArg>,
    /// The localization method: full, flow, trace (the --encoding, combined
    /// by --combine), full+cw, bugassist, bugassist+cw, sniper, cfaults, ofc,
    /// ofc+cw, ofc+tarantula, ofc+dstar, agx, agx+cw. Without it, --encoding
    /// and --combine choose.
    #[arg(long, value_name = "NAME")]
    pub method: Option<String>,
    /// Largest diagnosis (number of statements).
    #[arg(long, default_value_t = 3)]
    pub max_size: usize,
    /// Most diagnoses reported.
    #[arg(long, default_value_t = 100)]
    pub max_diagnoses: usize,
    /// Time limit in seconds (partial results are printed, exit status 3).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// What counts as coverage for clause weights: a statement that executed
    /// (`statement`), or one that executed and whose result was used (`use`).
    #[arg(long, value_enum, default_value_t = SpectrumArg::Use)]
    pub spectrum: SpectrumArg,
    /// Memory limit in MiB: the search stops with partial results (exit status 3) when it is reached.
    #[arg(long, value_name = "MIB")]
    pub max_memory: Option<u64>,
    /// Per-test methods: enumerate every failing test's MCSes, instead of
    /// confirming those of a test on the same path (same results; to measure).
    #[arg(long)]
    pub no_path_sharing: bool,
    /// Cap on loop unrolling and recursion unfolding.
    #[arg(long, value_name = "N")]
    pub unwind: Option<u32>,
    /// How integers are encoded.
    #[arg(long, value_enum, default_value_t = IntSemArg::Bv)]
    pub int_semantics: IntSemArg,
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
    /// When to colour the text report.
    #[arg(long, value_enum, default_value_t = ColorArg::Auto, value_name = "WHEN")]
    pub color: ColorArg,
    #[command(flatten)]
    pub cafl: crate::cafl_cmd::CaflArgs,
}

pub fn localize_cmd(a: &LocalizeArgs) -> Result<u8, UserError> {
    if a.method.as_deref() == Some("cafl") {
        return crate::cafl_cmd::localize(a);
    }
    let prog = compile(&a.program)?;
    let (tests, compare, limits) = load_suite(&a.suite)?;
    if a.max_size == 0 {
        return Err(UserError("error: --max-size must be at least 1".into()));
    }
    let timeout = match a.timeout {
        Some(t) if !(t > 0.0 && t.is_finite()) => {
            return Err(UserError(format!(
                "error: --timeout must be a positive number of seconds, not {t}"
            )))
        }
        Some(t) => Some(Duration::from_secs_f64(t)),
        None => None,
    };
    let options = Options {
        encoding: match a.encoding {
            EncodingArg::Full => Encoding::Full,
            EncodingArg::Trace => Encoding::Trace,
            EncodingArg::Flow => Encoding::Flow,
        },
        combine: match a.combine.unwrap_or(CombineArg::Mbd) {
            CombineArg::Mbd => Combine::Mbd,
            CombineArg::Setcombine => Combine::SetCombine,
            CombineArg::PerTest => Combine::PerTest,
        },
        max_size: a.max_size,
        max_diagnoses: a.max_diagnoses,
        timeout,
        unwind: a.unwind,
        int_semantics: match a.int_semantics {
            IntSemArg::Bv => IntSemantics::BitVector,
            IntSemArg::Math => IntSemantics::Math,
        },
        compare,
        limits,
        weights: None,
        max_memory: a.max_memory,
        spectrum: match a.spectrum {
            SpectrumArg::Statement => faultline_diagnose::weights::Spectrum::Statement,
            SpectrumArg::Use => faultline_diagnose::weights::Spectrum::Use,
        },
        progress: None,
        share_paths: !a.no_path_sharing,
    };
    let progress = std::sync::Arc::new(faultline_report::progress::Indicator::for_stderr(a.quiet));
    let mut options = options;
    if progress.is_enabled() {
        let sink = std::sync::Arc::clone(&progress);
        options.progress = Some(faultline_diagnose::ProgressHook(std::sync::Arc::new(
            move |p| {
                use faultline_report::progress::{Event, ProgressSink};
                sink.event(match p {
                    faultline_diagnose::Progress::TestsRun { done, total } => {
                        Event::TestsRun { done, total }
                    }
                    faultline_diagnose::Progress::TestsEncoded { done, total } => {
                        Event::TestsEncoded { done, total }
                    }
                    faultline_diagnose::Progress::Diagnoses { count } => Event::Diagnoses { count },
                })
            },
        )));
    }
    progress.phase(format!("running {} tests", tests.len()));
    let session = Session::with_progress(&prog, &tests, compare, limits, options.progress.as_ref())
        .map_err(|e| UserError(format!("{}: error: {e}", a.program.display())))?;
    progress.phase(format!(
        "localizing {} failing tests",
        session.failing.len()
    ));
    let method = match &a.method {
        Some(name) => {
            faultline_diagnose::methods::Method::parse(name, a.combine.map(|_| options.combine))
                .map_err(|e| UserError(format!("error: --method: {e}")))?
        }
        None => faultline_diagnose::methods::Method::Formula {
            encoding: options.encoding,
            combine: options.combine,
            weights: None,
        },
    };
    let loc = faultline_diagnose::methods::run(&session, &method, &options);
    options.progress = None;
    if let Ok(p) = std::sync::Arc::try_unwrap(progress) {
        p.finish();
    }
    write_report(a, &prog, &session, &options, &loc)?;
    Ok(if session.failing.is_empty() {
        exit::OK
    } else if loc.incomplete.is_some()
        && loc.incomplete != Some(faultline_diagnose::Incomplete::MaxDiagnoses)
    {
        exit::LIMIT
    } else {
        exit::FAILED
    })
}

/// Renders the report in the chosen format to stdout or `-o FILE`.
fn write_report(
    a: &LocalizeArgs,
    prog: &faultline_ir::Program,
    session: &Session,
    options: &Options,
    loc: &faultline_diagnose::Localization,
) -> Result<(), UserError> {
    use faultline_report::style::{self, ColorChoice, Palette};
    use faultline_report::text::{TextOptions, Verbosity};
    let program_name = a.program.display().to_string();
    let settings = Settings {
        method: loc.method.clone(),
        encoding: format!("{:?}", options.encoding).to_lowercase(),
        combine: match options.combine {
            Combine::Mbd => "mbd".into(),
            Combine::SetCombine => "setcombine".into(),
            Combine::PerTest => "per-test".into(),
        },
        max_size: options.max_size,
        max_diagnoses: options.max_diagnoses,
        timeout_s: a.timeout,
        unwind: options.unwind,
        int_semantics: match options.int_semantics {
            IntSemantics::BitVector => "bv".into(),
            IntSemantics::Math => "math".into(),
        },
    };
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
            let color = a.output.is_none()
                && style::stdout_color(match a.color {
                    ColorArg::Auto => ColorChoice::Auto,
                    ColorArg::Always => ColorChoice::Always,
                    ColorArg::Never => ColorChoice::Never,
                });
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
            faultline_report::text::render(prog, loc, &opts)
        }
        LocalizeFormat::Json => {
            let mut j = Report::new(prog, &program_name, settings.clone(), loc).to_json();
            j.push('\n');
            j
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
