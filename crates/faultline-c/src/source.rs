//! Source files, spans and internal diagnostics.

use std::path::PathBuf;

use faultline_ir::{FileId, Loc};

/// A range of bytes in one source file, with its 1-based line/column bounds
/// (`end_col` exclusive). Tokens produced by macro expansion carry the span
/// of the whole macro invocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    pub file: u32,
    pub lo: u32,
    pub hi: u32,
    pub line: u32,
    pub col: u32,
    pub end_line: u32,
    pub end_col: u32,
}

impl Span {
    /// The span from the start of `self` to the end of `other` (when both are
    /// in one file and in order; otherwise `self`).
    pub fn to(self, other: Span) -> Span {
        if self.file == other.file && other.hi >= self.lo {
            Span {
                hi: other.hi,
                end_line: other.end_line,
                end_col: other.end_col,
                ..self
            }
        } else {
            self
        }
    }

    /// A zero-width span just after `self`.
    pub fn after(self) -> Span {
        Span {
            lo: self.hi,
            line: self.end_line,
            col: self.end_col,
            ..self
        }
    }
}

/// An error found while compiling, before it is tied to a file name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub span: Span,
    pub msg: String,
}

pub type PResult<T> = Result<T, Diag>;

pub fn err<T>(span: Span, msg: impl Into<String>) -> PResult<T> {
    Err(Diag {
        span,
        msg: msg.into(),
    })
}

pub fn diag(span: Span, msg: impl Into<String>) -> Diag {
    Diag {
        span,
        msg: msg.into(),
    }
}

/// One file known to the compiler: a user file or a built-in header.
#[derive(Clone, Debug)]
pub struct FileEntry {
    pub name: String,
    /// Where the file was read from (for resolving `#include "..."`).
    pub path: Option<PathBuf>,
    pub text: String,
    /// The file's id in [`faultline_ir::Program::files`]; `None` for built-in headers.
    pub program_id: Option<FileId>,
}

/// All files read during one compilation.
#[derive(Clone, Debug, Default)]
pub struct Files {
    pub entries: Vec<FileEntry>,
    /// Number of user files (those with a `program_id`).
    pub user_files: u32,
}

impl Files {
    pub fn add(&mut self, name: String, path: Option<PathBuf>, text: String, user: bool) -> u32 {
        let program_id = if user {
            self.user_files += 1;
            Some(FileId(self.user_files - 1))
        } else {
            None
        };
        self.entries.push(FileEntry {
            name,
            path,
            text,
            program_id,
        });
        (self.entries.len() - 1) as u32
    }

    pub fn name(&self, file: u32) -> &str {
        self.entries
            .get(file as usize)
            .map(|e| e.name.as_str())
            .unwrap_or("<unknown>")
    }

    /// The IR location of a span (spans in built-in headers map to file 0).
    pub fn loc(&self, s: Span) -> Loc {
        let file = self
            .entries
            .get(s.file as usize)
            .and_then(|e| e.program_id)
            .unwrap_or(FileId(0));
        Loc {
            file,
            line: s.line,
            col: s.col,
            end_line: s.end_line,
            end_col: s.end_col,
        }
    }

    /// The source text covered by `s`, on one line: comments and line
    /// splices removed, runs of whitespace collapsed to one space.
    pub fn text(&self, s: Span) -> String {
        let Some(e) = self.entries.get(s.file as usize) else {
            return String::new();
        };
        let bytes = e.text.as_bytes();
        let lo = (s.lo as usize).min(bytes.len());
        let hi = (s.hi as usize).clamp(lo, bytes.len());
        clean_text(&bytes[lo..hi])
    }
}

/// Removes comments and line splices and collapses whitespace (see [`Files::text`]).
pub fn clean_text(b: &[u8]) -> String {
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut pending_space = false;
    let mut i = 0;
    let push_space = |out: &mut Vec<u8>, pending: &mut bool| {
        if *pending && !out.is_empty() {
            out.push(b' ');
        }
        *pending = false;
    };
    while i < b.len() {
        let c = b[i];
        if c == b'\\' && i + 1 < b.len() && b[i + 1] == b'\n' {
            i += 2;
            continue;
        }
        if c == b'\\' && i + 2 < b.len() && b[i + 1] == b'\r' && b[i + 2] == b'\n' {
            i += 3;
            continue;
        }
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            pending_space = true;
            i += 1;
            continue;
        }
        if c == b'/' && i + 1 < b.len() && b[i + 1] == b'*' {
            let mut j = i + 2;
            while j + 1 < b.len() && !(b[j] == b'*' && b[j + 1] == b'/') {
                j += 1;
            }
            i = (j + 2).min(b.len());
            pending_space = true;
            continue;
        }
        if c == b'/' && i + 1 < b.len() && b[i + 1] == b'/' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            pending_space = true;
            continue;
        }
        push_space(&mut out, &mut pending_space);
        if c == b'"' || c == b'\'' {
            out.push(c);
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                if b[i] == b'\\' && i + 1 < b.len() {
                    out.push(b[i]);
                    i += 1;
                }
                out.push(b[i]);
                i += 1;
            }
            if i < b.len() && b[i] == c {
                out.push(c);
                i += 1;
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_text_collapses_and_strips_comments() {
        assert_eq!(clean_text(b"a  =\n\t b /* c */ ;"), "a = b ;");
        assert_eq!(
            clean_text(b"x = \"a  /* b */\"; // tail"),
            "x = \"a  /* b */\";"
        );
        assert_eq!(clean_text(b"f(a,\\\nb)"), "f(a,b)");
    }
}
