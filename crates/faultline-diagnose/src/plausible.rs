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
//!   and the statement is the symptom.
//!
//! Diagnoses of one size are ordered by their number of implausible
//! statements, then in the order they were found (a stable sort).

use crate::result::{AngelicValue, Diagnosis};
use faultline_ir::visit::{for_each_stmt, stmt_exprs};
use faultline_ir::{Builtin, Expr, ExprKind, Program, StmtId};
use std::collections::{BTreeSet, HashMap};

/// What is known of each statement to judge its angelic values.
pub struct Plausibility {
    /// Statements that read no variable and call no program function.
    constant: BTreeSet<StmtId>,
    /// The literal format of each output statement that has one
    /// (`printf`/`fprintf` with a string literal, `puts`).
    formats: HashMap<StmtId, Vec<u8>>,
}

impl Plausibility {
    pub fn new(prog: &Program) -> Plausibility {
        let constant = prog
            .stmts
            .iter()
            .enumerate()
            .filter(|(_, s)| s.uses.is_empty() && s.calls.is_empty())
            .map(|(i, _)| StmtId(i as u32))
            .collect();
        let mut formats = HashMap::new();
        for f in &prog.functions {
            for_each_stmt(&f.body, &mut |s| {
                let Some(id) = s.id() else { return };
                stmt_exprs(s, |e| {
                    if let Some(fmt) = output_format(prog, e) {
                        formats.insert(id, fmt);
                    }
                });
            });
        }
        Plausibility { constant, formats }
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
            let distinct: BTreeSet<String> = values
                .iter()
                .filter_map(|v| match v {
                    AngelicValue::Value { needed, .. } => Some(needed.clone()),
                    AngelicValue::Output { text } => Some(text.clone()),
                    AngelicValue::Branch { .. } => None,
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
            if fmt.contains(&b'%')
                && !texts.is_empty()
                && texts.iter().all(|t| fits_format(fmt, t.as_bytes()))
            {
                return false;
            }
        }
        true
    }

    /// Orders equally small diagnoses by their number of implausible
    /// statements, keeping the found order otherwise.
    pub fn order(&self, diagnoses: &mut [Diagnosis]) {
        diagnoses.sort_by_key(|d| (d.stmts.len(), self.implausible(d)));
    }
}

/// The literal format an output call prints with, if `e` is one: printf's
/// or fprintf's string literal (`%` conversions in it), puts' text with its
/// newline.
fn output_format(prog: &Program, e: &Expr) -> Option<Vec<u8>> {
    let ExprKind::Builtin { func, args } = &e.kind else {
        return None;
    };
    let lit = |a: Option<&Expr>| match a.map(|a| &a.kind) {
        Some(ExprKind::Str(s)) => Some(prog.strings[s.index()].clone()),
        _ => None,
    };
    match func {
        Builtin::Printf => lit(args.first()),
        Builtin::Fprintf => lit(args.get(1)),
        Builtin::Puts => lit(args.first()).map(|mut t| {
            t.push(b'\n');
            t
        }),
        _ => None,
    }
}

/// Whether a format has a conversion that prints text (`%s`, `%c`, `%[`),
/// which may hold newlines.
fn prints_text(fmt: &[u8]) -> bool {
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] == b'%' {
            i += 1;
            while i < fmt.len() && !fmt[i].is_ascii_alphabetic() && fmt[i] != b'%' && fmt[i] != b'['
            {
                i += 1;
            }
            if matches!(fmt.get(i), Some(b's' | b'c' | b'[')) {
                return true;
            }
        }
        i += 1;
    }
    false
}

/// Whether `text` is what `fmt` could print: its literal parts in order,
/// anything in place of each conversion (`%%` is a literal `%`).
pub fn fits_format(fmt: &[u8], text: &[u8]) -> bool {
    // Literal segments, split at conversions.
    let mut parts: Vec<Vec<u8>> = vec![Vec::new()];
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] == b'%' {
            if fmt.get(i + 1) == Some(&b'%') {
                parts.last_mut().expect("a part").push(b'%');
                i += 2;
                continue;
            }
            // Skip flags, width, precision, length up to the conversion letter.
            i += 1;
            while i < fmt.len() && !fmt[i].is_ascii_alphabetic() {
                i += 1;
            }
            while i < fmt.len() && matches!(fmt[i], b'h' | b'l' | b'L' | b'z' | b'j' | b't') {
                i += 1;
            }
            i += 1;
            parts.push(Vec::new());
        } else {
            parts.last_mut().expect("a part").push(fmt[i]);
            i += 1;
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
    use super::fits_format;

    #[test]
    fn texts_fit_a_format_by_its_literal_parts() {
        assert!(fits_format(b"line %d: %d\n", b"line 1: 2\n"));
        assert!(fits_format(b"line %d: %d\n", b"line -12: 345\n"));
        assert!(!fits_format(b"line %d: %d\n", b"line 1: 2"));
        assert!(!fits_format(b"%d not found\n", b"9 found at index 4\n"));
        assert!(fits_format(b"%5.2f%%\n", b" 3.14%\n"));
        assert!(fits_format(b"%ld", b"12"));
        assert!(!fits_format(b"total: %d\n", b"sum: 3\n"));
        assert!(fits_format(b"FizzBuzz\n", b"FizzBuzz\n"));
        assert!(!fits_format(b"FizzBuzz\n", b"Fizz\n"));
    }

    #[test]
    fn text_conversions_may_print_newlines() {
        assert!(super::prints_text(b"name: %s\n"));
        assert!(super::prints_text(b"%-3c|"));
        assert!(!super::prints_text(b"%d%% of %5.2f\n"));
    }
}
