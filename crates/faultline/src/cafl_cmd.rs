//! `faultline localize --method cafl` and `faultline explain`: CaFL's cause
//! tree of one failing test, as a report or interactively.

use crate::input::{compile, exit, load_suite, SuiteArgs, UserError};
use clap::Args;
use faultline_diagnose::cafl::wp::WpOptions;
use faultline_diagnose::cafl::{choose_test, CaflOptions, Explainer};
use faultline_report::style::{self, ColorChoice, Palette};
use std::io::{BufRead, Write};
use std::path::PathBuf;

/// CaFL's options (with `--method cafl`, and for `faultline explain`).
#[derive(Args, Clone, Default)]
pub struct CaflArgs {
    /// CaFL: these source lines are correct (comma-separated): only their
    /// critical conditions are expanded.
    #[arg(long, value_name = "LINES")]
    pub correct: Option<String>,
    /// CaFL: this cause (node id, e.g. 0.1) is benign: its subtree is pruned (repeatable).
    #[arg(long, value_name = "NODE")]
    pub benign: Vec<String>,
    /// CaFL: these functions are correct (comma-separated names): their calls are atomic.
    #[arg(long, value_name = "FUNCS")]
    pub designated_correct: Option<String>,
    /// CaFL: do not slice the trace before computing weakest preconditions.
    #[arg(long)]
    pub no_slicing: bool,
    /// CaFL: check the whole precondition at every step (no component or change pruning).
    #[arg(long)]
    pub no_solver_pruning: bool,
    /// CaFL: deepest level of the tree (the root is level 0).
    #[arg(long, value_name = "N")]
    pub max_level: Option<u32>,
}

impl CaflArgs {
    pub fn options(&self) -> CaflOptions {
        CaflOptions {
            wp: WpOptions {
                slicing: !self.no_slicing,
                pruning: !self.no_solver_pruning,
            },
            max_level: self.max_level,
            designated_correct: self
                .designated_correct
                .as_deref()
                .map(|s| {
                    s.split(',')
                        .map(|f| f.trim().to_string())
                        .filter(|f| !f.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
            ..CaflOptions::default()
        }
    }
}

/// Parses `--correct LINES`.
pub fn parse_lines(s: &str) -> Result<Vec<u32>, UserError> {
    s.split(',')
        .map(|x| x.trim())
        .filter(|x| !x.is_empty())
        .map(|x| {
            x.parse::<u32>()
                .ok()
                .filter(|&l| l > 0)
                .ok_or_else(|| UserError(format!("error: --correct: `{x}` is not a line number")))
        })
        .collect()
}

/// Builds the explanation with the feedback given as flags.
pub fn explainer<'p>(
    prog: &'p faultline_ir::Program,
    program: &std::path::Path,
    suite: &SuiteArgs,
    a: &CaflArgs,
    test_name: Option<&str>,
    timeout: Option<std::time::Duration>,
) -> Result<Explainer<'p>, UserError> {
    let (tests, compare, limits) = load_suite(suite, prog, timeout)?;
    let correct = match &a.correct {
        Some(s) => parse_lines(s)?,
        None => Vec::new(),
    };
    let idx = choose_test(prog, &tests, test_name, compare, limits)
        .map_err(|e| UserError(format!("{}: {e}", program.display())))?;
    let mut ex = Explainer::new(prog, &tests[idx], compare, limits, a.options())
        .map_err(|e| UserError(format!("{}: {e}", program.display())))?;
    if !correct.is_empty() {
        ex.mark_correct(&correct).map_err(UserError)?;
    }
    for b in &a.benign {
        ex.mark_benign(b).map_err(UserError)?;
    }
    Ok(ex)
}

/// `localize --method cafl`.
pub fn localize(a: &crate::localize_cmd::LocalizeArgs) -> Result<u8, UserError> {
    use crate::localize_cmd::LocalizeFormat;
    // Every phase (running the tests, modelling the run, each cause) counts
    // against --timeout and --max-memory; a tree they cut is partial.
    let (timeout, max_memory) = crate::localize_cmd::limits_of(a)?;
    let budget = faultline_exec::Budget::new(timeout, max_memory);
    if let Some(mib) = max_memory {
        faultline_smt::limits::cap_z3_memory(mib);
    }
    let _scope = faultline_smt::limits::enter(&budget);
    let prog = compile(&a.program)?;
    let ex = match explainer(
        &prog,
        &a.program,
        &a.suite,
        &a.cafl,
        a.test.as_deref(),
        timeout,
    ) {
        Err(UserError(msg)) if budget.exhausted().is_some() => {
            eprintln!("{msg}");
            return Ok(exit::LIMIT);
        }
        r => r?,
    };
    let name = a.program.display().to_string();
    let text = match a.format {
        LocalizeFormat::Text => {
            let color = a.output.is_none() && style::stdout_color(a.color);
            crate::cafl_report::text(
                &ex,
                &name,
                if color {
                    Palette::COLOR
                } else {
                    Palette::PLAIN
                },
            )
        }
        LocalizeFormat::Json => {
            let mut s = serde_json::to_string_pretty(&crate::cafl_report::json(&ex, &name))
                .map_err(|e| UserError(format!("error: {e}")))?;
            s.push('\n');
            s
        }
        LocalizeFormat::Html => crate::cafl_report::html(&ex, &name),
        LocalizeFormat::Sarif => {
            return Err(UserError(
                "error: --method cafl: SARIF output is not supported (use text, json or html)"
                    .into(),
            ))
        }
    };
    match &a.output {
        None => {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
        }
        Some(path) => std::fs::write(path, text)
            .map_err(|e| UserError(format!("error: cannot write {}: {e}", path.display())))?,
    }
    if let Some(note) = crate::cafl_report::partial_note(&ex) {
        if a.format != LocalizeFormat::Text || a.output.is_some() {
            eprintln!("{note}");
        }
        return Ok(exit::LIMIT);
    }
    Ok(exit::FAILED)
}

#[derive(Args)]
pub struct ExplainArgs {
    /// The C program with a failing test.
    pub program: PathBuf,
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// The failing test to explain [default: the first failing test].
    #[arg(long, value_name = "NAME")]
    pub test: Option<String>,
    #[command(flatten)]
    pub cafl: CaflArgs,
    /// Print the tree once and exit (no interaction).
    #[arg(long)]
    pub no_interactive: bool,
    /// Read commands line by line even on a terminal (instead of the full-screen UI).
    #[arg(long)]
    pub line_mode: bool,
}

const HELP: &str = "commands: c LINES (mark correct)  u LINES (unmark)  b NODE (benign)  \
nb NODE (not benign)  s NODE (show one node)  r (ranking)  h (help)  q (quit)";

/// `faultline explain`: walk the tree, mark statements correct or causes
/// benign, and see it update. On a terminal, a full-screen UI
/// ([`crate::cafl_tui`]); otherwise (or with `--line-mode`) commands are read
/// line by line from standard input (a script).
pub fn explain_cmd(a: &ExplainArgs) -> Result<u8, UserError> {
    let prog = compile(&a.program)?;
    let mut ex = explainer(
        &prog,
        &a.program,
        &a.suite,
        &a.cafl,
        a.test.as_deref(),
        None,
    )?;
    let name = a.program.display().to_string();
    if !a.no_interactive && !a.line_mode && crate::cafl_tui::is_terminal() {
        crate::cafl_tui::run(&mut ex).map_err(|e| UserError(format!("error: terminal: {e}")))?;
        return Ok(exit::FAILED);
    }
    let palette = if style::stdout_color(ColorChoice::Auto) {
        Palette::COLOR
    } else {
        Palette::PLAIN
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let show = |ex: &Explainer, out: &mut dyn Write| {
        let _ = out.write_all(crate::cafl_report::text(ex, &name, palette).as_bytes());
    };
    show(&ex, &mut out);
    if a.no_interactive {
        return Ok(exit::FAILED);
    }
    let _ = writeln!(out, "\n{HELP}");
    loop {
        let _ = write!(out, "cafl> ");
        let _ = out.flush();
        let mut line = String::new();
        match stdin.lock().read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let mut words = line.split_whitespace();
        let cmd = words.next().unwrap_or("");
        let arg = words.collect::<Vec<_>>().join(" ");
        let result: Result<bool, String> = match cmd {
            "" => Ok(false),
            "q" | "quit" | "exit" => break,
            "h" | "help" | "?" => {
                let _ = writeln!(out, "{HELP}");
                Ok(false)
            }
            "c" | "correct" => parse_lines(&arg)
                .map_err(|e| e.0)
                .and_then(|l| ex.mark_correct(&l))
                .map(|()| true),
            "u" | "unmark" => parse_lines(&arg).map_err(|e| e.0).map(|l| {
                ex.unmark_correct(&l);
                true
            }),
            "b" | "benign" => ex.mark_benign(&arg).map(|()| true),
            "nb" => {
                ex.unmark_benign(&arg);
                Ok(true)
            }
            "s" | "show" => match ex.node(&arg) {
                Some(n) => {
                    let _ = writeln!(
                        out,
                        "[{}] level {}: {}",
                        ex.nodes[n].id,
                        ex.nodes[n].level,
                        crate::cafl_report::explains(&ex, n)
                    );
                    for (l, s) in ex.node_lines(n) {
                        let _ = writeln!(out, "  {l:>5} | {}", prog.stmt(s).text);
                    }
                    Ok(false)
                }
                None => Err(format!("error: no node `{arg}` in the tree")),
            },
            "r" | "ranking" => {
                for (i, (s, level)) in ex.ranking().into_iter().enumerate() {
                    let info = prog.stmt(s);
                    let _ = writeln!(
                        out,
                        "{:>3}. line {:>4} (level {level}) {}",
                        i + 1,
                        info.loc.line,
                        info.text
                    );
                }
                Ok(false)
            }
            other => Err(format!("error: unknown command `{other}` ({HELP})")),
        };
        match result {
            Ok(true) => show(&ex, &mut out),
            Ok(false) => {}
            Err(e) => {
                let _ = writeln!(out, "{e}");
            }
        }
    }
    let _ = writeln!(out);
    Ok(exit::FAILED)
}
