//! Annotated source, the way rustc shows errors: a `-->` header, the source
//! lines with a line-number gutter, carets under the marked spans with their
//! labels, and `=` notes.
//!
//! ```text
//!   --> examples/triangle/triangle.c:14:5
//!    |
//! 14 |     iso = a == b || a == b || a == c;
//!    |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ would need 1 here, computed 0
//!    |
//!    = test t3: would need 1 here, computed 0
//! ```

use crate::style::{Palette, Role};

/// Display width of a tab.
pub const TAB_WIDTH: usize = 4;

/// A marked span of one file: 1-based lines, 1-based byte columns, `end_col`
/// exclusive (as in `faultline_ir::Loc`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mark {
    pub line: u32,
    pub col: u32,
    pub end_line: u32,
    pub end_col: u32,
    /// Printed after the carets of the span's last line (may be empty).
    pub label: String,
}

/// Lines of a span longer than this are elided in the middle.
const MAX_SPAN_LINES: u32 = 5;

/// A line with tabs expanded and trailing whitespace removed, and the display
/// column (0-based) of each byte offset.
struct Expanded {
    text: String,
    /// `cols[i]`: display column where byte `i` starts; `cols[len]`: the end.
    cols: Vec<usize>,
}

fn expand(line: &str) -> Expanded {
    let line = line.trim_end();
    let mut text = String::with_capacity(line.len());
    let mut cols = Vec::with_capacity(line.len() + 1);
    let mut col = 0usize;
    for c in line.chars() {
        for _ in 0..c.len_utf8() {
            cols.push(col);
        }
        if c == '\t' {
            let n = TAB_WIDTH - col % TAB_WIDTH;
            text.extend(std::iter::repeat_n(' ', n));
            col += n;
        } else {
            text.push(c);
            col += 1;
        }
    }
    cols.push(col);
    Expanded { text, cols }
}

impl Expanded {
    /// Display column of a 1-based byte column (clamped to the line).
    fn display_col(&self, byte_col: u32) -> usize {
        let i = (byte_col.max(1) - 1) as usize;
        self.cols[i.min(self.cols.len() - 1)]
    }

    /// Display column of the first non-blank character (the end when blank).
    fn indent(&self) -> usize {
        self.text.len() - self.text.trim_start().len()
    }

    fn width(&self) -> usize {
        self.cols[self.cols.len() - 1]
    }
}

/// One row of carets: display columns `[start, end)` and a label.
struct Carets {
    start: usize,
    end: usize,
    label: String,
}

/// Renders `marks` (in the order given) over `source`, the text of `file`.
/// `notes` follow as `= note` lines. Returns the lines, each ending in `\n`.
pub fn render(file: &str, source: &str, marks: &[Mark], notes: &[String], pal: Palette) -> String {
    let lines: Vec<&str> = source.lines().collect();
    let line_text = |n: u32| -> &str { lines.get(n as usize - 1).copied().unwrap_or("") };
    // Which lines are shown, and the caret rows under each.
    let mut rows: std::collections::BTreeMap<u32, Vec<Carets>> = Default::default();
    for m in marks {
        let first = m.line.max(1);
        let last = m.end_line.max(first);
        let shown: Vec<u32> = if last - first < MAX_SPAN_LINES {
            (first..=last).collect()
        } else {
            vec![first, first + 1, last - 1, last]
        };
        for &n in &shown {
            let e = expand(line_text(n));
            let start = if n == first {
                e.display_col(m.col)
            } else {
                e.indent()
            };
            let end = if n == last {
                e.display_col(m.end_col)
            } else {
                e.width()
            };
            let end = end.max(start + 1);
            rows.entry(n).or_default().push(Carets {
                start,
                end,
                label: if n == last {
                    m.label.clone()
                } else {
                    String::new()
                },
            });
        }
    }
    let width = rows.keys().next_back().map_or(1, |n| n.to_string().len());
    let pad = " ".repeat(width);
    let bar = pal.paint(Role::Gutter, "|");
    let mut out = String::new();
    if let Some(m) = marks.first() {
        out.push_str(&format!(
            "{pad}{} {}:{}:{}\n",
            pal.paint(Role::Gutter, "-->"),
            file,
            m.line,
            m.col
        ));
    }
    out.push_str(&format!("{pad} {bar}\n"));
    let mut previous: Option<u32> = None;
    let source_row = |out: &mut String, n: u32| {
        let e = expand(line_text(n));
        let num = pal.paint(Role::Gutter, &format!("{n:>width$}"));
        if e.text.is_empty() {
            out.push_str(&format!("{num} {bar}\n"));
        } else {
            out.push_str(&format!("{num} {bar} {}\n", e.text));
        }
    };
    for (&n, carets) in &rows {
        if let Some(p) = previous {
            if n == p + 2 {
                source_row(&mut out, p + 1);
            } else if n > p + 2 {
                out.push_str(&format!("{}\n", pal.paint(Role::Gutter, "...")));
            }
        }
        source_row(&mut out, n);
        for c in carets {
            let marks = pal.paint(Role::Mark, &"^".repeat(c.end - c.start));
            let label = if c.label.is_empty() {
                String::new()
            } else {
                format!(" {}", pal.paint(Role::Mark, &c.label))
            };
            out.push_str(&format!(
                "{pad} {bar} {}{marks}{label}\n",
                " ".repeat(c.start)
            ));
        }
        previous = Some(n);
    }
    if !notes.is_empty() {
        out.push_str(&format!("{pad} {bar}\n"));
        let eq = pal.paint(Role::Gutter, "=");
        for n in notes {
            out.push_str(&format!("{pad} {eq} {n}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(line: u32, col: u32, end_line: u32, end_col: u32, label: &str) -> Mark {
        Mark {
            line,
            col,
            end_line,
            end_col,
            label: label.into(),
        }
    }

    #[test]
    fn one_line() {
        let src = "int f(int a)\n{\n    return a + 1;\n}\n";
        let got = render(
            "f.c",
            src,
            &[mark(3, 5, 3, 18, "would need 2 here, computed 3")],
            &["test t1: would need 2 here, computed 3".into()],
            Palette::PLAIN,
        );
        assert_eq!(
            got,
            " --> f.c:3:5\n  |\n3 |     return a + 1;\n  |     ^^^^^^^^^^^^^ would need 2 here, computed 3\n  |\n  = test t1: would need 2 here, computed 3\n"
        );
    }

    #[test]
    fn gaps_tabs_and_two_marks_on_a_line() {
        let src = "a;\nb;\nc;\nd;\ne;\nf;\ng;\nh;\ni;\nj;\n\tfor (i = 0; i < n; i++)\n";
        let got = render(
            "g.c",
            src,
            &[
                mark(1, 1, 1, 3, "one"),
                mark(3, 1, 3, 3, "three"),
                mark(11, 14, 11, 19, "cond"),
                mark(11, 21, 11, 24, "step"),
            ],
            &[],
            Palette::PLAIN,
        );
        assert_eq!(
            got,
            "  --> g.c:1:1\n   |\n 1 | a;\n   | ^^ one\n 2 | b;\n 3 | c;\n   | ^^ three\n...\n11 |     for (i = 0; i < n; i++)\n   |                 ^^^^^ cond\n   |                        ^^^ step\n"
        );
    }

    #[test]
    fn long_spans_are_elided() {
        let src = "x = f(1,\n  2,\n  3,\n  4,\n  5,\n  6);\n";
        let got = render("h.c", src, &[mark(1, 1, 6, 6, "lbl")], &[], Palette::PLAIN);
        assert_eq!(
            got,
            " --> h.c:1:1\n  |\n1 | x = f(1,\n  | ^^^^^^^^\n2 |   2,\n  |   ^^\n...\n5 |   5,\n  |   ^^\n6 |   6);\n  |   ^^^ lbl\n"
        );
    }

    #[test]
    fn colour_wraps_gutter_and_carets() {
        let got = render("f.c", "x;\n", &[mark(1, 1, 1, 3, "l")], &[], Palette::COLOR);
        assert!(got.contains("\x1b[1;33m^^\x1b[0m \x1b[1;33ml\x1b[0m"));
        assert_eq!(
            crate::style::strip_ansi(&got),
            render("f.c", "x;\n", &[mark(1, 1, 1, 3, "l")], &[], Palette::PLAIN)
        );
    }
}
