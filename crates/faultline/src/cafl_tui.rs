//! The full-screen terminal UI of `faultline explain` (when standard input
//! and output are terminals): the cause tree as an outline to walk with the
//! keys, statements to mark correct, causes to mark benign, and the tree
//! rebuilt after each change.
//!
//! The UI is a state machine ([`Tui::key`]) and a renderer to lines of text
//! ([`Tui::render`]); [`run`] connects them to the terminal (raw mode through
//! termios, ANSI escapes). Tests drive the state machine and read the
//! rendered lines: the test backend.

use faultline_diagnose::cafl::{Explainer, NodeState};
use std::io::{Read, Write};

/// One row of the outline.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Row {
    Node(usize),
    Stmt { node: usize, line: u32 },
}

/// A key the UI understands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Up,
    Down,
    /// Collapse or expand the node under the cursor.
    Toggle,
    /// Mark the statement under the cursor correct (or unmark it).
    Correct,
    /// Mark the node under the cursor benign (or not).
    Benign,
    Quit,
    Other,
}

pub struct Tui<'e, 'p> {
    pub ex: &'e mut Explainer<'p>,
    cursor: usize,
    collapsed: std::collections::BTreeSet<String>,
    pub status: String,
}

impl<'e, 'p> Tui<'e, 'p> {
    pub fn new(ex: &'e mut Explainer<'p>) -> Self {
        Tui {
            ex,
            cursor: 0,
            collapsed: Default::default(),
            status: "↑/↓ or j/k move · enter folds · c marks a statement correct · b marks a cause benign · q quits".into(),
        }
    }

    fn rows(&self) -> Vec<Row> {
        let mut out = Vec::new();
        if !self.ex.nodes.is_empty() {
            self.rows_of(0, &mut out);
        }
        out
    }

    fn rows_of(&self, n: usize, out: &mut Vec<Row>) {
        out.push(Row::Node(n));
        if self.collapsed.contains(&self.ex.nodes[n].id) {
            return;
        }
        for (line, _) in self.ex.node_lines(n) {
            out.push(Row::Stmt { node: n, line });
        }
        for c in &self.ex.nodes[n].conditions {
            if let Some(ch) = c.child {
                self.rows_of(ch, out);
            }
        }
    }

    /// Applies a key; returns false to quit.
    pub fn key(&mut self, k: Key) -> bool {
        let rows = self.rows();
        let cur = rows.get(self.cursor).cloned();
        match k {
            Key::Quit => return false,
            Key::Up => self.cursor = self.cursor.saturating_sub(1),
            Key::Down => self.cursor = (self.cursor + 1).min(rows.len().saturating_sub(1)),
            Key::Toggle => {
                if let Some(Row::Node(n)) | Some(Row::Stmt { node: n, .. }) = cur {
                    let id = self.ex.nodes[n].id.clone();
                    if !self.collapsed.remove(&id) {
                        self.collapsed.insert(id);
                    }
                    self.cursor = self
                        .rows()
                        .iter()
                        .position(|r| *r == Row::Node(n))
                        .unwrap_or(0);
                }
            }
            Key::Correct => match cur {
                Some(Row::Stmt { line, .. }) => {
                    if self.ex.correct.contains(&line) {
                        self.ex.unmark_correct(&[line]);
                        self.status = format!("line {line} no longer marked correct");
                    } else {
                        match self.ex.mark_correct(&[line]) {
                            Ok(()) => self.status = format!("line {line} marked correct"),
                            Err(e) => self.status = e,
                        }
                    }
                }
                _ => self.status = "put the cursor on a statement to mark it correct".into(),
            },
            Key::Benign => {
                if let Some(Row::Node(n)) | Some(Row::Stmt { node: n, .. }) = cur {
                    let id = self.ex.nodes[n].id.clone();
                    if self.ex.benign.contains(&id) {
                        self.ex.unmark_benign(&id);
                        self.status = format!("[{id}] no longer benign");
                    } else {
                        match self.ex.mark_benign(&id) {
                            Ok(()) => self.status = format!("[{id}] marked benign"),
                            Err(e) => self.status = e,
                        }
                    }
                }
            }
            Key::Other => {}
        }
        let len = self.rows().len();
        self.cursor = self.cursor.min(len.saturating_sub(1));
        true
    }

    /// The screen as lines of at most `width` characters (`height` lines:
    /// a header, the outline scrolled to the cursor, and the status line).
    pub fn render(&self, width: usize, height: usize) -> Vec<String> {
        let ex = &*self.ex;
        let mut lines = vec![format!(
            "faultline explain: test `{}`: {}",
            ex.test, ex.failure_text
        )];
        let rows = self.rows();
        let body = height.saturating_sub(2).max(1);
        let top = self.cursor.saturating_sub(body - 1);
        for (i, r) in rows.iter().enumerate().skip(top).take(body) {
            let mark = if i == self.cursor { ">" } else { " " };
            let text = match r {
                Row::Node(n) => {
                    let node = &ex.nodes[*n];
                    let fold = if self.collapsed.contains(&node.id) {
                        "+"
                    } else {
                        "-"
                    };
                    let state = match node.state {
                        NodeState::Benign => " (benign)",
                        NodeState::Truncated => " (truncated)",
                        NodeState::Expanded => "",
                    };
                    format!(
                        "{}{fold} level {} [{}] {}{state}",
                        "  ".repeat(node.level as usize),
                        node.level,
                        node.id,
                        crate::cafl_report::explains(ex, *n)
                    )
                }
                Row::Stmt { node, line } => {
                    let text = ex
                        .node_lines(*node)
                        .into_iter()
                        .filter(|(l, _)| l == line)
                        .map(|(_, s)| ex.prog.stmt(s).text.clone())
                        .collect::<Vec<_>>()
                        .join("  ");
                    let ok = if ex.correct.contains(line) {
                        " ✓ correct"
                    } else {
                        ""
                    };
                    format!(
                        "{}    {line:>5} | {text}{ok}",
                        "  ".repeat(ex.nodes[*node].level as usize)
                    )
                }
            };
            lines.push(cut(&format!("{mark}{text}"), width));
        }
        while lines.len() < height.saturating_sub(1) {
            lines.push(String::new());
        }
        lines.push(cut(&self.status, width));
        lines
    }
}

fn cut(s: &str, width: usize) -> String {
    s.chars().take(width).collect()
}

/// Raw mode on the terminal for the guard's lifetime.
struct RawMode(libc::termios);

impl RawMode {
    fn enter() -> Option<RawMode> {
        // SAFETY: tcgetattr/tcsetattr on fd 0 with a zeroed, then filled, termios.
        unsafe {
            let mut t: libc::termios = std::mem::zeroed();
            if libc::tcgetattr(0, &mut t) != 0 {
                return None;
            }
            let saved = t;
            t.c_lflag &= !(libc::ICANON | libc::ECHO);
            t.c_cc[libc::VMIN] = 1;
            t.c_cc[libc::VTIME] = 0;
            if libc::tcsetattr(0, libc::TCSANOW, &t) != 0 {
                return None;
            }
            Some(RawMode(saved))
        }
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        // SAFETY: restores the attributes saved by `enter`.
        unsafe {
            libc::tcsetattr(0, libc::TCSANOW, &self.0);
        }
    }
}

fn size() -> (usize, usize) {
    // SAFETY: TIOCGWINSZ fills a zeroed winsize.
    unsafe {
        let mut w: libc::winsize = std::mem::zeroed();
        if libc::ioctl(1, libc::TIOCGWINSZ, &mut w) == 0 && w.ws_col > 0 && w.ws_row > 0 {
            (w.ws_col as usize, w.ws_row as usize)
        } else {
            (100, 30)
        }
    }
}

/// Whether both standard input and output are terminals.
pub fn is_terminal() -> bool {
    // SAFETY: isatty on the standard descriptors.
    unsafe { libc::isatty(0) == 1 && libc::isatty(1) == 1 }
}

/// Runs the full-screen UI until `q`.
pub fn run(ex: &mut Explainer) -> std::io::Result<()> {
    let Some(_raw) = RawMode::enter() else {
        return Err(std::io::Error::other("cannot put the terminal in raw mode"));
    };
    let mut tui = Tui::new(ex);
    let mut out = std::io::stdout().lock();
    let mut input = std::io::stdin().lock();
    // Alternate screen, hidden cursor.
    write!(out, "\x1b[?1049h\x1b[?25l")?;
    loop {
        let (w, h) = size();
        write!(out, "\x1b[H\x1b[2J")?;
        for (i, l) in tui.render(w, h).iter().enumerate() {
            write!(out, "\x1b[{};1H{l}", i + 1)?;
        }
        out.flush()?;
        let mut b = [0u8; 1];
        if input.read(&mut b)? == 0 {
            break;
        }
        let key = match b[0] {
            b'q' => Key::Quit,
            b'j' => Key::Down,
            b'k' => Key::Up,
            b'\n' | b'\r' | b' ' => Key::Toggle,
            b'c' => Key::Correct,
            b'b' => Key::Benign,
            0x1b => {
                let mut seq = [0u8; 2];
                if input.read(&mut seq)? == 2 && seq[0] == b'[' {
                    match seq[1] {
                        b'A' => Key::Up,
                        b'B' => Key::Down,
                        _ => Key::Other,
                    }
                } else {
                    Key::Other
                }
            }
            _ => Key::Other,
        };
        if !tui.key(key) {
            break;
        }
    }
    write!(out, "\x1b[?25h\x1b[?1049l")?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_diagnose::cafl::CaflOptions;
    use faultline_exec::{Compare, Limits};
    use std::path::Path;

    #[test]
    fn walk_mark_and_prune_on_the_test_backend() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/cafl-cascade");
        let prog = faultline_c::compile_file(&dir.join("cascade.c")).unwrap();
        let tests = faultline_exec::suite::load_dir(&dir.join("tests")).unwrap();
        let mut ex = Explainer::new(
            &prog,
            &tests[0],
            Compare::Exact,
            Limits::default(),
            CaflOptions::default(),
        )
        .unwrap();
        // Start guided: line 10 correct, so only the root.
        ex.mark_correct(&[10]).unwrap();
        let mut tui = Tui::new(&mut ex);
        let screen = tui.render(200, 12);
        assert!(
            screen[1].starts_with(">- level 0 [0] the failure at"),
            "{screen:#?}"
        );
        assert!(
            screen[2].contains("10 | int x = 0; ✓ correct"),
            "{screen:#?}"
        );
        assert!(!screen.iter().any(|l| l.contains("[0.0]")), "{screen:#?}");
        // Down to `x = x + 1;` (rows: node, 10, 13, 14) and mark it correct.
        tui.key(Key::Down);
        tui.key(Key::Down);
        assert!(
            tui.render(200, 12)[3].starts_with(">"),
            "{:#?}",
            tui.render(200, 12)
        );
        tui.key(Key::Correct);
        assert_eq!(tui.status, "line 13 marked correct");
        let screen = tui.render(200, 12);
        assert!(
            screen
                .iter()
                .any(|l| l.contains("- level 1 [0.0] why `y == 1`")),
            "{screen:#?}"
        );
        // Down to the new node and mark it benign.
        for _ in 0..2 {
            tui.key(Key::Down);
        }
        tui.key(Key::Benign);
        assert_eq!(tui.status, "[0.0] marked benign");
        assert!(tui
            .render(200, 12)
            .iter()
            .any(|l| l.contains("[0.0]") && l.ends_with("(benign)")));
        // Fold the root: one row left.
        for _ in 0..10 {
            tui.key(Key::Up);
        }
        tui.key(Key::Toggle);
        let screen = tui.render(200, 12);
        assert!(screen[1].starts_with(">+ level 0 [0]"), "{screen:#?}");
        assert!(screen[2].is_empty(), "{screen:#?}");
        assert!(!tui.key(Key::Quit));
    }
}
