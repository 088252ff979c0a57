//! How plausible a diagnosis's angelic values are as a fix, to order equally
//! small diagnoses as a person would look at them.
//!
//! A statement is *implausible* in a diagnosis when no edit of it alone could
//! produce what the diagnosis needs of it, or when what it needs is only the
//! failure's symptom:
//!
//! - a **constant statement** (it reads no variable and calls no function of
//!   the program: `return -1;`, `int line = 0;`, `printf("FizzBuzz\n");`)
//!   computes the same thing at every instance, so a fix is one other
//!   constant: it is implausible when its instances need different values
//!   (or texts);
//! - an **output statement** with a literal format and no text among its
//!   conversions that needs texts of different numbers of lines (nothing
//!   here, two lines there): one format prints the same number of lines;
//! - an **output statement whose needed texts all fit its format** (the
//!   format's literal text, with anything in place of each conversion, e.g.
//!   `printf("line %d: %d\n", line, count)` needing "line 1: 2\n") prints
//!   the wrong values it was given: the fault is where they were computed,
//!   and the statement is the symptom;
//! - an **output statement printing constant text** (no conversions) that
//!   needs that text followed by more at every instance printed what it
//!   should: the rest is missing after it (an output insertion).
//!
//! Diagnoses of one size are ordered with the single statements that have a
//! one-token repair (or, for a constant statement, another constant that one
//! of its instances needs; for a declaration or an insertion, a written
//! statement that repairs it) first ([`crate::repair`]), then by their number
//! of insertions (a missing statement costs more than a wrong one), then by
//! their number of implausible statements, then in the order they were found
//! (a stable sort).

use crate::result::{AngelicValue, Diagnosis};
use crate::session::Session;
use faultline_exec::libc::{parse_format, Piece};
use faultline_ir::visit::{any_expr, for_each_stmt, stmt_exprs};
use faultline_ir::{Builtin, Expr, ExprKind, Program, StmtId, StmtKind};
use std::collections::{BTreeSet, HashMap};

/// What is known of each statement to judge its angelic values.
pub struct Plausibility {
    /// Statements that read no variable, call no program function and no
    /// library function other than an output (`getchar()`, `rand()` are not
    /// constant).
    constant: BTreeSet<StmtId>,
    /// The literal format of each output statement that has one
    /// (`printf`/`fprintf` with a string literal, `puts`), parsed by the
    /// interpreter's glibc-exact printf.
    formats: HashMap<StmtId, Vec<Piece>>,
}

impl Plausibility {
    pub fn new(prog: &Program) -> Plausibility {
        let mut constant = BTreeSet::new();
        let mut formats = HashMap::new();
        for f in &prog.functions {
            for_each_stmt(&f.body, &mut |s| {
                let Some(id) = s.id() else { return };
                let info = prog.stmt(id);
                // What a missing statement or initializer would compute is
                // not known: never constant.
                let written = !matches!(info.kind, StmtKind::Insert | StmtKind::Declare);
                let mut fixed = written && info.uses.is_empty() && info.calls.is_empty();
                stmt_exprs(s, |e| {
                    fixed &= !any_expr(e, |e| match &e.kind {
                        ExprKind::Builtin { func, .. } => (!func.is_output()).then_some(true),
                        _ => None,
                    });
                    if let Some(fmt) = output_format(prog, e) {
                        formats.insert(id, fmt);
                    }
                });
                if fixed {
                    constant.insert(id);
                }
            });
        }
        Plausibility { constant, formats }
    }

    /// The number of insertions in `d`: what is missing comes after what
    /// was written wrong.
    fn insertions(&self, prog: &Program, d: &Diagnosis) -> usize {
        d.stmts
            .iter()
            .filter(|s| prog.stmt(**s).kind == StmtKind::Insert)
            .count()
    }

    /// The number of statements of `d` that are implausible (module docs).
    pub fn implausible(&self, d: &Diagnosis) -> usize {
        d.stmts.iter().filter(|s| !self.plausible(d, **s)).count()
    }

    fn plausible(&self, d: &Diagnosis, s: StmtId) -> bool {
        let values: Vec<&AngelicValue> = d
            .angelic
            .iter()
            .filter(|a| a.stmt == s)
            .map(|a| &a.value)
            .collect();
        if self.constant.contains(&s) {
            let distinct: BTreeSet<&str> = values
                .iter()
                .filter_map(|v| match v {
                    AngelicValue::Value { needed, .. } => Some(needed.as_str()),
                    AngelicValue::Output { text } => Some(text.as_str()),
                    AngelicValue::Argument { .. }
                    | AngelicValue::Branch { .. }
                    | AngelicValue::Jump { .. } => None,
                })
                .collect();
            if distinct.len() > 1 {
                return false;
            }
        }
        if let Some(fmt) = self.formats.get(&s) {
            let texts: Vec<&str> = values
                .iter()
                .filter_map(|v| match v {
                    AngelicValue::Output { text } => Some(text.as_str()),
                    _ => None,
                })
                .collect();
            // Without strings or characters among its conversions, what a
            // call prints has the same number of lines whatever its format:
            // one fix cannot print nothing here and two lines there.
            let lines: BTreeSet<usize> = texts.iter().map(|t| t.matches('\n').count()).collect();
            if lines.len() > 1 && !prints_text(fmt) {
                return false;
            }
            let converts = fmt.iter().any(|p| matches!(p, Piece::Conv(_)));
            // A constant text that would need more after it printed what it
            // prints: the rest is missing after it (an insertion).
            if let ([Piece::Literal(lit)], false) = (fmt.as_slice(), texts.is_empty()) {
                if texts
                    .iter()
                    .all(|t| t.len() > lit.len() && t.as_bytes().starts_with(lit))
                {
                    return false;
                }
            }
            if converts && !texts.is_empty() && texts.iter().all(|t| fits_format(fmt, t.as_bytes()))
            {
                return false;
            }
        }
        true
    }

    /// Orders equally small diagnoses (confirmed ones before unconfirmed
    /// ones, [`Diagnosis::undecided`]): single statements with a one-token
    /// repair first (of the first [`crate::repair::MAX_CHECKED`] single-statement
    /// diagnoses; see [`crate::repair`]), then by their number of implausible
    /// statements, keeping the found order otherwise.
    pub fn order(&self, session: &Session, diagnoses: &mut [Diagnosis]) {
        let mut repaired = BTreeSet::new();
        let singles = diagnoses.iter().filter(|d| d.stmts.len() == 1);
        // One single statement keeps its place whatever its repair.
        let checked = if singles.clone().count() > 1 {
            crate::repair::MAX_CHECKED
        } else {
            0
        };
        for d in singles.take(checked) {
            let kind = session.prog.stmt(d.stmts[0]).kind;
            let found = match kind {
                StmtKind::Insert | StmtKind::Declare => crate::repair::insertion_repair(session, d),
                _ => match crate::repair::has_repair(session, d.stmts[0]) {
                    // A constant statement: another constant, one of those
                    // its instances need.
                    Some(false) if self.constant.contains(&d.stmts[0]) => {
                        crate::repair::constant_repair(session, d)
                    }
                    found => found,
                },
            };
            match found {
                Some(true) => {
                    repaired.insert(d.stmts[0]);
                }
                Some(false) => {}
                None => break,
            }
        }
        diagnoses.sort_by_cached_key(|d| {
            let repair = d.stmts.len() == 1 && repaired.contains(&d.stmts[0]);
            (
                // Unconfirmed diagnoses after every confirmed one, those
                // undecided on the fewest tests first.
                d.undecided.len(),
                d.stmts.len(),
                !repair,
                self.insertions(session.prog, d),
                self.implausible(d),
            )
        });
    }
}

/// The parsed literal format an output call prints with, if `e` is one:
/// printf's or fprintf's string literal, puts' text with its newline.
fn output_format(prog: &Program, e: &Expr) -> Option<Vec<Piece>> {
    let ExprKind::Builtin { func, args } = &e.kind else {
        return None;
    };
    let lit = |a: Option<&Expr>| match a.map(|a| &a.kind) {
        Some(ExprKind::Str(s)) => Some(prog.strings[s.index()].clone()),
        _ => None,
    };
    let text = match func {
        Builtin::Printf => lit(args.first())?,
        Builtin::Fprintf => lit(args.get(1))?,
        Builtin::Puts => {
            let mut t = lit(args.first())?;
            t.push(b'\n');
            return Some(vec![Piece::Literal(t)]);
        }
        _ => return None,
    };
    parse_format(&text).ok()
}

/// Whether a format has a conversion that prints text (`%s`, `%c`), which
/// may hold newlines.
fn prints_text(fmt: &[Piece]) -> bool {
    fmt.iter()
        .any(|p| matches!(p, Piece::Conv(c) if matches!(c.conv, b's' | b'c')))
}

/// Whether `text` is what `fmt` could print: its literal parts in order,
/// anything in place of each conversion.
pub fn fits_format(fmt: &[Piece], text: &[u8]) -> bool {
    // Literal segments between conversions (adjacent literals joined).
    let mut parts: Vec<Vec<u8>> = vec![Vec::new()];
    for p in fmt {
        match p {
            Piece::Literal(l) => parts.last_mut().expect("a part").extend_from_slice(l),
            Piece::Conv(_) => parts.push(Vec::new()),
        }
    }
    let (first, rest) = parts.split_first().expect("a part");
    let Some(mut text) = text.strip_prefix(first.as_slice()) else {
        return false;
    };
    let Some((last, middle)) = rest.split_last() else {
        return text.is_empty();
    };
    // Each middle literal at its first occurrence (leftmost matching is
    // enough for a yes/no answer when the last part is anchored at the end).
    for p in middle {
        match find(text, p) {
            Some(k) => text = &text[k + p.len()..],
            None => return false,
        }
    }
    text.ends_with(last)
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::{fits_format, prints_text};
    use faultline_exec::libc::parse_format;

    fn fits(fmt: &[u8], text: &[u8]) -> bool {
        fits_format(&parse_format(fmt).expect("a format"), text)
    }

    #[test]
    fn texts_fit_a_format_by_its_literal_parts() {
        assert!(fits(b"line %d: %d\n", b"line 1: 2\n"));
        assert!(fits(b"line %d: %d\n", b"line -12: 345\n"));
        assert!(!fits(b"line %d: %d\n", b"line 1: 2"));
        assert!(!fits(b"%d not found\n", b"9 found at index 4\n"));
        assert!(fits(b"%5.2f%%\n", b" 3.14%\n"));
        assert!(fits(b"%ld", b"12"));
        assert!(!fits(b"total: %d\n", b"sum: 3\n"));
        assert!(fits(b"FizzBuzz\n", b"FizzBuzz\n"));
        assert!(!fits(b"FizzBuzz\n", b"Fizz\n"));
    }

    #[test]
    fn text_conversions_may_print_newlines() {
        let text = |f: &[u8]| prints_text(&parse_format(f).expect("a format"));
        assert!(text(b"name: %s\n"));
        assert!(text(b"%-3c|"));
        assert!(!text(b"%d%% of %5.2f\n"));
    }
}
