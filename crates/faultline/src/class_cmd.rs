//! `faultline localize DIR`: a class run over every `.c` file of a
//! directory (the submissions), all tested with the same suite. One line per
//! submission (or one JSON object per line with `--format json`), then a
//! summary table; `--format html` gives one page with a section per
//! submission. Each submission is localized on its own, one after another,
//! within its own time and memory limits; one that does not compile, uses
//! unsupported C or cannot run its tests is a line of the table, not the end
//! of the run.

use crate::input::{exit, UserError};
use crate::localize_cmd::{localize_program, settings, Limited, LocalizeArgs, LocalizeFormat};
use faultline_report::text::plural;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A statement of a submission's first diagnosis.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Stmt {
    pub line: u32,
    pub text: String,
}

/// One submission's line of the table (a JSON line with `--format json`).
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Row {
    pub submission: String,
    /// `pass` (no test fails), `localized` (diagnoses found, search complete),
    /// `no-diagnosis`, `partial` (a limit stopped it, or failing tests could
    /// not be encoded), `error` (does not compile, unsupported C, ...).
    pub status: &'static str,
    pub tests: usize,
    pub failing: usize,
    pub diagnoses: usize,
    /// The first diagnosis's statements, in source order.
    pub first: Vec<Stmt>,
    /// Whether re-executing the failing tests with the first diagnosis's
    /// angelic values made them pass (`null`: not checked by the method).
    pub first_verified: Option<bool>,
    /// Whether re-executing every failing test with the angelic values the
    /// first diagnosis reports (as printed) makes it pass (`null`: no
    /// diagnosis).
    pub first_replayed: Option<bool>,
    /// Why the search stopped early (`partial`).
    pub incomplete_kind: Option<faultline_diagnose::result::IncompleteKind>,
    pub error: Option<String>,
    #[serde(skip)]
    html: Option<String>,
}

const STATUSES: [&str; 5] = ["pass", "localized", "no-diagnosis", "partial", "error"];

/// The `.c` files of `dir`, in natural name order.
fn submissions(dir: &Path) -> Result<Vec<PathBuf>, UserError> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        UserError(format!(
            "{}: error: cannot read directory: {e}",
            dir.display()
        ))
    })?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort_by(|a, b| {
        let name = |p: &PathBuf| p.file_name().map(|n| n.to_string_lossy().into_owned());
        faultline_exec::suite::natural_cmp(
            &name(a).unwrap_or_default(),
            &name(b).unwrap_or_default(),
        )
    });
    if files.is_empty() {
        return Err(UserError(format!(
            "{}: error: no C files (submissions) in this directory",
            dir.display()
        )));
    }
    Ok(files)
}

/// Runs the class in `a.program` (a directory).
pub fn class_cmd(
    a: &LocalizeArgs,
    timeout: Option<Duration>,
    max_memory: Option<u64>,
) -> Result<u8, UserError> {
    if a.method.as_deref() == Some("cafl") {
        return Err(UserError(format!(
            "{}: error: --method cafl explains one program's failing test, not a directory of submissions",
            a.program.display()
        )));
    }
    if a.format == LocalizeFormat::Sarif {
        return Err(UserError(format!(
            "{}: error: --format sarif reports one program; a class run gives text, json (one line per submission) or html",
            a.program.display()
        )));
    }
    let files = submissions(&a.program)?;
    let progress = faultline_report::progress::Indicator::for_stderr(a.quiet);
    let mut rows = Vec::with_capacity(files.len());
    let mut out = String::new();
    for (i, file) in files.iter().enumerate() {
        let name = file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        progress.phase(format!("submission {} of {}: {name}", i + 1, files.len()));
        let row = localize_one(a, file, &name, timeout, max_memory);
        // A submission that a limit stopped left its solver's terms to be
        // freed after its result (`isolated`): freed now, before the next
        // one's limits start.
        faultline_smt::limits::release_parked();
        match a.format {
            LocalizeFormat::Text => {
                let line = text_line(&row) + "\n";
                if a.output.is_none() {
                    progress.print_above(&line);
                }
                out.push_str(&line);
            }
            LocalizeFormat::Json => {
                let line = serde_json::to_string(&row).expect("serializable") + "\n";
                if a.output.is_none() {
                    progress.print_above(&line);
                }
                out.push_str(&line);
            }
            _ => {}
        }
        rows.push(row);
    }
    progress.finish();
    let rest = match a.format {
        LocalizeFormat::Text => {
            let t = summary(&rows);
            out.push_str(&t);
            t
        }
        LocalizeFormat::Html => {
            out = html(&a.program.display().to_string(), &rows);
            out.clone()
        }
        _ => String::new(),
    };
    match &a.output {
        None => {
            use std::io::Write;
            let mut o = std::io::stdout().lock();
            let _ = o.write_all(rest.as_bytes()).and_then(|()| o.flush());
        }
        Some(path) => std::fs::write(path, out)
            .map_err(|e| UserError(format!("error: cannot write {}: {e}", path.display())))?,
    }
    Ok(if rows.iter().any(|r| r.status == "partial") {
        exit::LIMIT
    } else if rows.iter().all(|r| r.status == "pass") {
        exit::OK
    } else {
        exit::FAILED
    })
}

/// Localizes one submission; every failure becomes the row's error.
fn localize_one(
    a: &LocalizeArgs,
    file: &Path,
    name: &str,
    timeout: Option<Duration>,
    max_memory: Option<u64>,
) -> Row {
    let mut row = Row {
        submission: name.to_string(),
        status: "error",
        tests: 0,
        failing: 0,
        diagnoses: 0,
        first: Vec::new(),
        first_verified: None,
        first_replayed: None,
        incomplete_kind: None,
        error: None,
        html: None,
    };
    let want_html = a.format == LocalizeFormat::Html;
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        localize_program(
            a,
            file,
            timeout,
            max_memory,
            true,
            None,
            |prog, session, options, loc, _| {
                let mut r = row.clone();
                r.tests = session.tests.len();
                r.failing = session.failing.len();
                r.diagnoses = loc.diagnoses.len();
                if let Some(d) = loc.diagnoses.first() {
                    r.first = d
                        .stmts
                        .iter()
                        .map(|s| {
                            let info = &prog.stmts[s.0 as usize];
                            Stmt {
                                line: info.loc.line,
                                text: info.text.clone(),
                            }
                        })
                        .collect();
                    r.first_verified = d.verified;
                    r.first_replayed = Some(faultline_diagnose::witness::reported_values_pass(
                        session, loc, d,
                    ));
                }
                r.incomplete_kind = loc
                    .incomplete
                    .as_ref()
                    .filter(|_| loc.is_partial())
                    .map(|i| i.kind());
                r.status = if loc.is_partial() {
                    "partial"
                } else if session.failing.is_empty() {
                    "pass"
                } else if loc.diagnoses.is_empty() {
                    "no-diagnosis"
                } else {
                    "localized"
                };
                if want_html {
                    let program_name = file.display().to_string();
                    let settings = settings(a, options, loc);
                    r.html = Some(faultline_report::html::render(&faultline_report::Subject {
                        prog,
                        program_name: &program_name,
                        settings: &settings,
                        loc,
                        tests: session.tests,
                        runs: &session.runs,
                    }));
                }
                r
            },
        )
    }));
    match run {
        Ok(Ok(Limited::Done(r))) => r,
        Ok(Ok(Limited::Stopped(msg))) => {
            row.status = "partial";
            row.error = Some(msg);
            row
        }
        Ok(Err(UserError(msg))) => {
            row.error = Some(msg);
            row
        }
        Err(_) => {
            row.error = Some(format!(
                "{}: error: internal error (a bug in faultline)",
                file.display()
            ));
            row
        }
    }
}

/// The row as a line of text.
pub fn text_line(r: &Row) -> String {
    let head = format!("{}: {}", r.submission, r.status);
    match r.status {
        "error" => format!("{head}: {}", r.error.as_deref().unwrap_or("")),
        "pass" => format!("{head}: all {} pass", plural(r.tests, "test", "tests")),
        _ if r.error.is_some() => format!("{head}: {}", r.error.as_deref().unwrap_or("")),
        _ => {
            let mut s = format!(
                "{head}: {} of {} fail, {}",
                r.failing,
                plural(r.tests, "test", "tests"),
                plural(r.diagnoses, "diagnosis", "diagnoses")
            );
            if !r.first.is_empty() {
                let stmts: Vec<String> = r
                    .first
                    .iter()
                    .map(|s| format!("line {} `{}`", s.line, s.text))
                    .collect();
                s.push_str("; first: ");
                s.push_str(&stmts.join(", "));
                match r.first_replayed {
                    Some(true) => s.push_str(" (its values pass the failing tests)"),
                    Some(false) => s.push_str(" (its values do not pass every failing test)"),
                    None => {}
                }
            }
            s
        }
    }
}

/// The summary table after the lines.
pub fn summary(rows: &[Row]) -> String {
    let mut s = String::from("\nstatus        submissions\n");
    for st in STATUSES {
        let n = rows.iter().filter(|r| r.status == st).count();
        s.push_str(&format!("{st:<12} {n:>12}\n"));
    }
    s.push_str(&format!("{:<12} {:>12}\n", "total", rows.len()));
    let failing = rows.iter().filter(|r| r.failing > 0).count();
    let replayed = rows
        .iter()
        .filter(|r| r.first_replayed == Some(true))
        .count();
    s.push_str(&format!(
        "first diagnosis's values pass the failing tests: {replayed} of {failing} submissions with failing tests\n"
    ));
    s
}

/// One page, a section per submission (each submission's own report in a
/// frame of its own).
fn html(dir: &str, rows: &[Row]) -> String {
    use faultline_report::html::escape;
    let mut s = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>faultline: {}</title>\n\
         <style>body{{font-family:sans-serif;margin:1em 2em}}iframe{{width:100%;height:40em;border:1px solid #ccc}}\
         table{{border-collapse:collapse}}td,th{{padding:2px 8px;text-align:left}}</style>\n</head>\n<body>\n\
         <h1>faultline: {}</h1>\n<table>\n<tr><th>submission</th><th>status</th><th>first diagnosis</th></tr>\n",
        escape(dir),
        escape(dir)
    );
    for (i, r) in rows.iter().enumerate() {
        s.push_str(&format!(
            "<tr><td><a href=\"#s{i}\">{}</a></td><td>{}</td><td>{}</td></tr>\n",
            escape(&r.submission),
            r.status,
            escape(&text_line(r)[r.submission.len() + r.status.len() + 2..])
        ));
    }
    s.push_str("</table>\n");
    for (i, r) in rows.iter().enumerate() {
        s.push_str(&format!(
            "<section id=\"s{i}\">\n<h2>{}</h2>\n<p>{}</p>\n",
            escape(&r.submission),
            escape(&text_line(r))
        ));
        if let Some(h) = &r.html {
            s.push_str(&format!("<iframe srcdoc=\"{}\"></iframe>\n", escape(h)));
        }
        s.push_str("</section>\n");
    }
    s.push_str("</body>\n</html>\n");
    s
}
