//! The terminal report of `faultline localize`: each diagnosis as annotated
//! source (carets under its statements, labelled with the angelic values),
//! then the ranked suspicious statements.
//!
//! Three levels of detail ([`Verbosity`]): `Quiet` prints one line per
//! diagnosis (`file:line:col: diagnosis N: ...`, nothing else), `Normal` the
//! annotated source with a few angelic values per statement, and `Verbose`
//! every angelic value, every ranked statement, the notes and the statistics.

use crate::snippet::{self, Mark};
use crate::style::{Palette, Role};
use faultline_ir::{Jump, Program, StmtId};
use faultline_result::describe_ctx;
use faultline_result::{Angelic, AngelicValue, Diagnosis, Localization, Stats};
use std::collections::BTreeSet;
use std::fmt::Write;

/// How many angelic values are listed under a statement (without `--verbose`).
pub const ANGELIC_SHOWN: usize = 3;
/// How many test names are listed before "and N more".
pub const TESTS_LISTED: usize = 3;
/// How many ranked statements are listed (without `--verbose`).
pub const RANKING_SHOWN: usize = 10;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Verbosity {
    /// One line per diagnosis, nothing else.
    Quiet,
    #[default]
    Normal,
    /// Every angelic value and ranked statement, notes and statistics.
    Verbose,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TextOptions {
    pub verbosity: Verbosity,
    pub palette: Palette,
}

impl Default for TextOptions {
    fn default() -> Self {
        TextOptions {
            verbosity: Verbosity::Normal,
            palette: Palette::PLAIN,
        }
    }
}

/// What an angelic value means, for people: "would need 5 here, computed 3",
/// "this condition would need to be false", "would need to print \"...\"".
pub fn angelic_phrase(a: &Angelic) -> String {
    value_phrase(&a.value)
}

/// [`angelic_phrase`] of a bare value.
pub fn value_phrase(v: &AngelicValue) -> String {
    match v {
        AngelicValue::Value { needed, computed } if computed == "uninitialized" => {
            format!("would need to be initialized to {needed}")
        }
        AngelicValue::Value { needed, computed } if needed == computed => {
            format!("would need {needed} here (as computed)")
        }
        AngelicValue::Value { needed, computed } => {
            format!("would need {needed} here, computed {computed}")
        }
        AngelicValue::Argument {
            index,
            needed,
            computed,
        } if needed == computed => {
            format!("argument {} would need {needed} (as passed)", index + 1)
        }
        AngelicValue::Argument {
            index,
            needed,
            computed,
        } => format!(
            "argument {} would need {needed}, passed {computed}",
            index + 1
        ),
        AngelicValue::Branch { needed, computed } if needed == computed => {
            format!("would need to be {needed} (as computed)")
        }
        AngelicValue::Branch { needed, .. } => format!("this condition would need to be {needed}"),
        AngelicValue::Output { text } if text.is_empty() => {
            "would need to print nothing".to_string()
        }
        AngelicValue::Output { text } => format!("would need to print {text:?}"),
        AngelicValue::Jump { needed, computed } if needed == computed => {
            format!("would need to {} (as written)", jump_phrase(*needed))
        }
        AngelicValue::Jump { needed, computed } => {
            format!(
                "this `{}` would need to {}",
                computed.name(),
                jump_phrase(*needed)
            )
        }
    }
}

/// What a jump does, for people: "`break` (leave the loop or switch)".
fn jump_phrase(j: Jump) -> &'static str {
    match j {
        Jump::Break => "`break` (leave the loop or switch)",
        Jump::Continue => "`continue` (go on with the next iteration)",
        Jump::Stay => "not jump (go on with the next statement)",
    }
}

/// `a, b, c and 2 more` (the first `shown` names).
pub fn list_names(names: &[&str], shown: usize) -> String {
    let mut s = names
        .iter()
        .take(shown)
        .copied()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > shown {
        let _ = write!(s, " and {} more", names.len() - shown);
    }
    s
}

/// `1 test`, `2 tests`: a count with the word in the right number.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The search's work, for people: `2 tests encoded, 94 statement instances,
/// 14 solver calls, 5 iterations`.
/// With a helper engine, how many statements it checked comes last
/// (`, 40 statements checked on a second thread`).
pub fn work_done(st: &Stats) -> String {
    let mut s = format!(
        "{} encoded, {}, {}, {}",
        plural(st.tests_encoded, "test", "tests"),
        plural(
            st.statement_instances,
            "statement instance",
            "statement instances"
        ),
        plural(st.solver_calls as usize, "solver call", "solver calls"),
        plural(st.iterations, "iteration", "iterations")
    );
    if st.helper_checks > 0 {
        s += &format!(
            ", {} on a second thread",
            plural(st.helper_checks, "statement checked", "statements checked")
        );
    }
    s
}

/// The tests a diagnosis explains, in suite order: those with angelic values;
/// without any, the diagnosis's own test (`per-test`), else every failing test
/// that was used.
pub fn explained_tests(loc: &Localization, d: &Diagnosis) -> Vec<usize> {
    let with_values: BTreeSet<usize> = d.angelic.iter().map(|a| a.test).collect();
    if !with_values.is_empty() {
        return with_values.into_iter().collect();
    }
    if let Some(t) = d.test {
        return vec![t];
    }
    let mut tests = loc.used_failing();
    tests.retain(|t| !d.undecided.contains(t));
    tests
}

/// A statement's angelic values in a diagnosis: the changed ones first (those
/// where the needed value differs from the computed one), each group in the
/// diagnosis's order.
pub fn stmt_values(d: &Diagnosis, st: StmtId) -> Vec<&Angelic> {
    let (mut changed, same): (Vec<&Angelic>, Vec<&Angelic>) = d
        .angelic
        .iter()
        .filter(|a| a.stmt == st)
        .partition(|a| is_change(&a.value));
    changed.extend(same);
    changed
}

/// Whether the needed value differs from what the statement computes
/// (outputs always count as changes).
pub fn is_change(v: &AngelicValue) -> bool {
    match v {
        AngelicValue::Value { needed, computed } => needed != computed,
        AngelicValue::Argument {
            needed, computed, ..
        } => needed != computed,
        AngelicValue::Branch { needed, computed } => needed != computed,
        AngelicValue::Output { .. } => true,
        AngelicValue::Jump { needed, computed } => needed != computed,
    }
}

/// The label under a statement of a diagnosis: the phrase of its first angelic
/// value (changed values first, see [`stmt_values`]), with the test named when the statement's values differ between
/// instances. `None` without angelic values.
pub fn stmt_label(loc: &Localization, d: &Diagnosis, st: StmtId) -> Option<String> {
    let values = stmt_values(d, st);
    let first = values.first()?;
    let phrase = call_phrase(d, first).unwrap_or_else(|| angelic_phrase(first));
    if values.iter().all(|a| a.value == first.value) {
        Some(phrase)
    } else {
        Some(format!("{phrase} for test {}", loc.tests[first.test].name))
    }
}

/// When `first` is an argument of a call: what the whole call instance
/// would need, "would need arguments (1, 67, 65), passed (1, 65, 67)" (`…`
/// for an argument that is not relaxed: a pointer or a struct).
fn call_phrase(d: &Diagnosis, first: &Angelic) -> Option<String> {
    if !matches!(first.value, AngelicValue::Argument { .. }) {
        return None;
    }
    // The instance's arguments, a call after another (positions restart).
    let mut calls: Vec<Vec<&Angelic>> = Vec::new();
    let mut last: Option<u32> = None;
    for a in d
        .angelic
        .iter()
        .filter(|a| a.stmt == first.stmt && a.test == first.test && a.ctx == first.ctx)
    {
        let AngelicValue::Argument { index, .. } = a.value else {
            continue;
        };
        if last.is_none_or(|l| index <= l) {
            calls.push(Vec::new());
        }
        last = Some(index);
        calls.last_mut().expect("pushed").push(a);
    }
    let call = calls
        .into_iter()
        .find(|c| c.iter().any(|a| std::ptr::eq(*a, first)))?;
    let tuple = |needed: bool| {
        let mut parts: Vec<String> = Vec::new();
        for a in &call {
            if let AngelicValue::Argument {
                index,
                needed: n,
                computed: c,
            } = &a.value
            {
                while parts.len() < *index as usize {
                    parts.push("…".to_string());
                }
                parts.push(if needed { n.clone() } else { c.clone() });
            }
        }
        parts.join(", ")
    };
    Some(format!(
        "would need arguments ({}), passed ({})",
        tuple(true),
        tuple(false)
    ))
}

/// A statement's label in a snippet, which shows the source: an insertion
/// (not in the source) says what is missing where, then its label.
fn kind_label(prog: &Program, st: StmtId, label: String) -> String {
    let info = prog.stmt(st);
    match info.kind {
        faultline_ir::StmtKind::Insert => format!("{}: {label}", info.text),
        _ => label,
    }
}

fn test_names<'a>(loc: &'a Localization, tests: &[usize]) -> Vec<&'a str> {
    tests.iter().map(|&t| loc.tests[t].name.as_str()).collect()
}

/// Renders the report.
pub fn render(prog: &Program, loc: &Localization, opts: &TextOptions) -> String {
    match opts.verbosity {
        Verbosity::Quiet => render_quiet(prog, loc),
        _ => render_full(prog, loc, opts),
    }
}

/// One line per diagnosis: `file:line:col: diagnosis N: `text` label (tests)`,
/// further statements after `;` as `line L `text` label`. Without any, one
/// line says why: every test passes, nothing was found, or the limit that
/// ended the search.
pub fn render_quiet(prog: &Program, loc: &Localization) -> String {
    let mut s = String::new();
    if loc.diagnoses.is_empty() {
        let _ = writeln!(s, "{}", nothing_found(loc));
        return s;
    }
    for (i, d) in loc.diagnoses.iter().enumerate() {
        let Some(&first) = d.stmts.first() else {
            continue;
        };
        let f = prog.stmt(first);
        let _ = write!(
            s,
            "{}:{}:{}: diagnosis {}: ",
            prog.file_name(f.loc.file),
            f.loc.line,
            f.loc.col,
            i + 1
        );
        let parts: Vec<String> = d
            .stmts
            .iter()
            .enumerate()
            .map(|(k, st)| {
                let info = prog.stmt(*st);
                let mut p = if k == 0 {
                    format!("`{}`", info.text)
                } else if info.loc.file == f.loc.file {
                    format!("line {} `{}`", info.loc.line, info.text)
                } else {
                    format!(
                        "{}:{} `{}`",
                        prog.file_name(info.loc.file),
                        info.loc.line,
                        info.text
                    )
                };
                if let Some(l) = stmt_label(loc, d, *st) {
                    let _ = write!(p, " {l}");
                }
                p
            })
            .collect();
        let tests = explained_tests(loc, d);
        let _ = writeln!(
            s,
            "{} (explains {})",
            parts.join("; "),
            list_names(&test_names(loc, &tests), TESTS_LISTED)
        );
    }
    s
}

/// "2 of 3 failing tests", "the failing test": how many were not used.
fn unused(loc: &Localization, n: usize) -> String {
    match loc.failing.len() {
        1 => "the failing test".into(),
        f if f == n => format!("all {f} failing tests"),
        f => format!("{n} of {f} failing tests"),
    }
}

/// Why a localization has no diagnosis, in one line.
pub fn nothing_found(loc: &Localization) -> String {
    if loc.failing.is_empty() && loc.incomplete.is_none() {
        return format!(
            "{}: nothing to localize",
            match loc.tests.len() {
                1 => "the test passes".to_string(),
                n => format!("all {n} tests pass"),
            }
        );
    }
    if !loc.failing.is_empty() && loc.used_failing().is_empty() {
        let (t, why) = &loc.skipped[0];
        return format!(
            "no diagnosis: no failing test could be encoded (test {}: {}{})",
            loc.tests[*t].name,
            why,
            match loc.skipped.len() {
                1 => String::new(),
                n => format!("; and {} more", plural(n - 1, "test", "tests")),
            }
        );
    }
    match &loc.incomplete {
        Some(i) => format!(
            "no diagnosis: the search stopped early ({}; after running {})",
            i.describe(),
            plural(loc.tests.len(), "test", "tests")
        ),
        None => {
            format!(
                "no diagnosis: no set of statements within the search bounds explains the failing {}; {}",
                if loc.failing.len() == 1 { "test" } else { "tests" },
                what_to_try(&loc.method)
            )
        }
    }
}

/// What may find a diagnosis where method `method` (`trace+mbd`) found
/// none within its bounds.
fn what_to_try(method: &str) -> &'static str {
    match method.split('+').next() {
        Some("trace") => {
            "`trace` keeps the runs' branch outcomes and has no candidates for missing code: --method full has both (a larger --max-size may also help)"
        }
        _ => "a larger --max-size may find one, or the fault is missing code of a kind no candidate covers",
    }
}

fn render_full(prog: &Program, loc: &Localization, opts: &TextOptions) -> String {
    let pal = opts.palette;
    let verbose = opts.verbosity == Verbosity::Verbose;
    let mut s = String::new();
    let failing = test_names(loc, &loc.failing);
    if failing.is_empty() {
        let _ = writeln!(s, "{}", nothing_found(loc));
        if verbose {
            stats(&mut s, loc, pal);
        }
        return s;
    }
    let _ = writeln!(
        s,
        "{} of {} fail: {}",
        pal.paint(Role::Fail, &failing.len().to_string()),
        plural(loc.tests.len(), "test", "tests"),
        list_names(&failing, if verbose { usize::MAX } else { 10 })
    );
    let spacing: Vec<&str> = loc
        .failing
        .iter()
        .filter(|t| loc.tests[**t].whitespace_only)
        .map(|t| loc.tests[*t].name.as_str())
        .collect();
    if !spacing.is_empty() {
        let _ = writeln!(
            s,
            "{} the output of {} differs from the expected one only in whitespace (spaces, tabs or newlines); --ignore-whitespace passes {}",
            pal.paint(Role::Note, "note:"),
            if spacing.len() == 1 { format!("test {}", spacing[0]) } else { format!("tests {}", list_names(&spacing, 10)) },
            if spacing.len() == 1 { "it" } else { "them" }
        );
    }
    for (t, why) in &loc.skipped {
        let _ = writeln!(
            s,
            "{} test {} is not used: {}",
            pal.paint(Role::Note, "note:"),
            loc.tests[*t].name,
            why
        );
    }
    let _ = writeln!(
        s,
        "method {}: {}{}",
        loc.method,
        plural(loc.diagnoses.len(), "diagnosis", "diagnoses"),
        match (&loc.incomplete, loc.skipped.len()) {
            (None, 0) => String::new(),
            (Some(i), 0) => format!(" (incomplete: {})", i.describe()),
            (None, n) => format!(" (partial: {} not used)", unused(loc, n)),
            (Some(i), n) => format!(
                " (incomplete: {}; {} not used)",
                i.describe(),
                unused(loc, n)
            ),
        }
    );
    if loc.diagnoses.is_empty() && loc.incomplete.is_none() && !loc.used_failing().is_empty() {
        let _ = writeln!(
            s,
            "{} {}",
            pal.paint(Role::Note, "note:"),
            nothing_found(loc)
        );
    }
    for (i, d) in loc.diagnoses.iter().enumerate() {
        s.push('\n');
        diagnosis(&mut s, prog, loc, i, d, opts);
    }
    if !loc.ranking.is_empty() {
        let _ = writeln!(
            s,
            "\n{}",
            pal.paint(
                Role::Heading,
                "suspicious statements, most suspicious first:"
            )
        );
        let shown = if verbose {
            loc.ranking.len()
        } else {
            RANKING_SHOWN
        };
        let width = loc.ranking.len().min(shown).to_string().len();
        for (i, r) in loc.ranking.iter().take(shown).enumerate() {
            let info = prog.stmt(r.stmt);
            let _ = writeln!(
                s,
                "  {:>width$}. {}:{}  {}",
                i + 1,
                prog.file_name(info.loc.file),
                info.loc.line,
                info.text
            );
        }
        if loc.ranking.len() > shown {
            let _ = writeln!(
                s,
                "  ... and {} more (--verbose lists them)",
                loc.ranking.len() - shown
            );
        }
    }
    if !loc.notes.is_empty() {
        s.push('\n');
    }
    for n in &loc.notes {
        let _ = writeln!(s, "{} {n}", pal.paint(Role::Note, "note:"));
    }
    if verbose {
        stats(&mut s, loc, pal);
    }
    s
}

fn stats(s: &mut String, loc: &Localization, pal: Palette) {
    let st = &loc.stats;
    let _ = writeln!(
        s,
        "\n{}",
        pal.paint(Role::Dim, &format!("statistics: {}", work_done(st)))
    );
    let _ = writeln!(
        s,
        "{}",
        pal.paint(
            Role::Dim,
            &format!(
                "time: {:.2} s in all: running tests {:.2} s, encoding {:.2} s, solving {:.2} s",
                st.total_time.as_secs_f64(),
                st.run_time.as_secs_f64(),
                st.encode_time.as_secs_f64(),
                st.solve_time.as_secs_f64()
            )
        )
    );
}

fn diagnosis(
    s: &mut String,
    prog: &Program,
    loc: &Localization,
    i: usize,
    d: &Diagnosis,
    opts: &TextOptions,
) {
    let pal = opts.palette;
    let verbose = opts.verbosity == Verbosity::Verbose;
    let tests = explained_tests(loc, d);
    let mut head = format!(
        "{}: {}, explains {}",
        pal.paint(
            Role::Heading,
            &format!("diagnosis {} of {}", i + 1, loc.diagnoses.len())
        ),
        plural(d.stmts.len(), "statement", "statements"),
        list_names(
            &test_names(loc, &tests),
            if verbose { usize::MAX } else { TESTS_LISTED }
        )
    );
    match d.verified {
        Some(true) => head.push_str("; verified by re-execution"),
        Some(false) => head.push_str("; NOT confirmed by re-execution"),
        None => {}
    }
    if !d.undecided.is_empty() {
        let _ = write!(
            head,
            "; unconfirmed: not decided on {} within the limits",
            list_names(&test_names(loc, &d.undecided), TESTS_LISTED)
        );
    }
    if verbose && d.cost != d.stmts.len() as u64 {
        let _ = write!(head, "; cost {}", d.cost);
    }
    let _ = writeln!(s, "{head}");
    // One snippet per file, in the order the statements' files first appear.
    let mut files: Vec<faultline_ir::FileId> = Vec::new();
    for st in &d.stmts {
        let f = prog.stmt(*st).loc.file;
        if !files.contains(&f) {
            files.push(f);
        }
    }
    for f in files {
        let stmts: Vec<StmtId> = d
            .stmts
            .iter()
            .copied()
            .filter(|st| prog.stmt(*st).loc.file == f)
            .collect();
        let marks: Vec<Mark> = stmts
            .iter()
            .map(|st| {
                let l = prog.stmt(*st).loc;
                Mark {
                    line: l.line,
                    col: l.col,
                    end_line: l.end_line,
                    end_col: l.end_col,
                    label: kind_label(prog, *st, stmt_label(loc, d, *st).unwrap_or_default()),
                }
            })
            .collect();
        let mut notes = Vec::new();
        for st in &stmts {
            stmt_notes(&mut notes, prog, loc, d, *st, verbose);
        }
        let file = &prog.files[f.index()];
        s.push_str(&snippet::render(
            &file.name, &file.text, &marks, &notes, pal,
        ));
    }
}

/// The `=` lines under a statement: its angelic values per test and instance,
/// unless one value for every test says it all (then the label does).
fn stmt_notes(
    notes: &mut Vec<String>,
    prog: &Program,
    loc: &Localization,
    d: &Diagnosis,
    st: StmtId,
    verbose: bool,
) {
    let values = stmt_values(d, st);
    let Some(first) = values.first() else {
        return;
    };
    if values
        .iter()
        .all(|a| a.value == first.value && a.ctx.is_empty())
        && !verbose
    {
        return;
    }
    let prefix = if d.stmts.len() > 1 {
        format!("line {}, ", prog.stmt(st).loc.line)
    } else {
        String::new()
    };
    let shown = if verbose { values.len() } else { ANGELIC_SHOWN };
    for a in values.iter().take(shown) {
        let ctx = describe_ctx(prog, &a.ctx);
        let ctx = if ctx.is_empty() {
            String::new()
        } else {
            format!(" ({ctx})")
        };
        notes.push(format!(
            "{prefix}test {}{ctx}: {}",
            loc.tests[a.test].name,
            angelic_phrase(a)
        ));
    }
    if values.len() > shown {
        let rest = &values[shown..];
        let more_tests: BTreeSet<usize> = rest
            .iter()
            .map(|a| a.test)
            .filter(|t| !values[..shown].iter().any(|a| a.test == *t))
            .collect();
        let from = if more_tests.is_empty() {
            String::new()
        } else {
            format!(
                " (from {})",
                plural(more_tests.len(), "more test", "more tests")
            )
        };
        notes.push(format!(
            "{prefix}... and {}{from}; --verbose shows them",
            plural(rest.len(), "more value", "more values")
        ));
    }
}
