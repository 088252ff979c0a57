//! The lexer: source bytes to preprocessing tokens with exact locations.

use std::rc::Rc;

use crate::source::{err, PResult, Span};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    /// A preprocessing number (decoded by the parser).
    Number,
    /// A character constant, quotes (and any prefix) included.
    Char,
    /// A string literal, quotes (and any prefix) included.
    Str,
    Punct,
    /// Any other character (a stray character, or an unterminated quote).
    Other,
    /// Marks the end of an included file (preprocessor internal) or of the input.
    End,
}

/// The names of macros a token must not be expanded by (Prosser's hide sets).
pub type HideSet = Option<Rc<Vec<Rc<str>>>>;

#[derive(Clone, Debug)]
pub struct Token {
    pub kind: Kind,
    pub text: Rc<str>,
    pub span: Span,
    /// First token of a line.
    pub bol: bool,
    /// Preceded by whitespace.
    pub space: bool,
    pub hide: HideSet,
}

impl Token {
    pub fn is(&self, p: &str) -> bool {
        self.kind == Kind::Punct && &*self.text == p
    }
    pub fn is_ident(&self, s: &str) -> bool {
        self.kind == Kind::Ident && &*self.text == s
    }
}

const PUNCTS: [&str; 49] = [
    "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=",
    "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "[", "]", "(", ")", "{", "}", ".", "&", "*",
    "+", "-", "~", "!", "/", "%", "<", ">", "^", "|", "?", ":", ";", "=", ",", "#", "@",
];

struct Lexer<'a> {
    clean: Vec<u8>,
    map: Vec<u32>,
    line_starts: Vec<u32>,
    file: u32,
    _src: &'a [u8],
}

impl Lexer<'_> {
    fn pos(&self, orig: u32) -> (u32, u32) {
        let idx = self
            .line_starts
            .partition_point(|&s| s <= orig)
            .saturating_sub(1);
        let start = self.line_starts.get(idx).copied().unwrap_or(0);
        (idx as u32 + 1, orig.saturating_sub(start) + 1)
    }

    /// The span of clean bytes `[a, b)`.
    fn span(&self, a: usize, b: usize) -> Span {
        let lo = self.map[a];
        if b <= a {
            let (line, col) = self.pos(lo);
            return Span {
                file: self.file,
                lo,
                hi: lo,
                line,
                col,
                end_line: line,
                end_col: col,
            };
        }
        let last = self.map[b - 1];
        let (line, col) = self.pos(lo);
        let (end_line, ec) = self.pos(last);
        Span {
            file: self.file,
            lo,
            hi: last + 1,
            line,
            col,
            end_line,
            end_col: ec + 1,
        }
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'$'
}

/// Splits `src` (the text of file `file`) into preprocessing tokens. The
/// result ends with a [`Kind::End`] token at the end of the file.
pub fn lex(file: u32, src: &[u8]) -> PResult<Vec<Token>> {
    let mut line_starts = vec![0u32];
    for (i, &c) in src.iter().enumerate() {
        if c == b'\n' {
            line_starts.push(i as u32 + 1);
        }
    }
    let (clean, map) = remove_splices(src);
    let lx = Lexer {
        clean,
        map,
        line_starts,
        file,
        _src: src,
    };
    let c = &lx.clean;
    let n = c.len();
    let mut toks = Vec::new();
    let mut bol = true;
    let mut space = false;
    // A UTF-8 byte order mark at the start of the file is not a token.
    let mut i = if c.starts_with(&[0xef, 0xbb, 0xbf]) {
        3
    } else {
        0
    };
    while i < n {
        let ch = c[i];
        if ch == b'\n' {
            bol = true;
            space = true;
            i += 1;
            continue;
        }
        if matches!(ch, b' ' | b'\t' | b'\r' | 0x0b | 0x0c) {
            space = true;
            i += 1;
            continue;
        }
        if ch == b'/' && i + 1 < n && c[i + 1] == b'/' {
            while i < n && c[i] != b'\n' {
                i += 1;
            }
            space = true;
            continue;
        }
        if ch == b'/' && i + 1 < n && c[i + 1] == b'*' {
            let start = i;
            i += 2;
            loop {
                if i + 1 >= n {
                    return err(lx.span(start, start + 2), "unterminated /* comment");
                }
                if c[i] == b'*' && c[i + 1] == b'/' {
                    i += 2;
                    break;
                }
                i += 1;
            }
            space = true;
            continue;
        }
        let start = i;
        let (kind, end) = scan_token(c, i);
        i = end;
        let text: Rc<str> = String::from_utf8_lossy(&c[start..i]).into();
        toks.push(Token {
            kind,
            text,
            span: lx.span(start, i),
            bol,
            space,
            hide: None,
        });
        bol = false;
        space = false;
    }
    let end = lx.span(n, n);
    toks.push(Token {
        kind: Kind::End,
        text: "".into(),
        span: end,
        bol: true,
        space: true,
        hide: None,
    });
    Ok(toks)
}

/// Removes line splices (backslash-newline), returning the text and, for
/// each byte of it (and its end), the offset it came from in `src`.
fn remove_splices(src: &[u8]) -> (Vec<u8>, Vec<u32>) {
    let mut clean = Vec::with_capacity(src.len());
    let mut map = Vec::with_capacity(src.len() + 1);
    let mut i = 0;
    while i < src.len() {
        if src[i] == b'\\' {
            if src.get(i + 1) == Some(&b'\n') {
                i += 2;
                continue;
            }
            if src.get(i + 1) == Some(&b'\r') && src.get(i + 2) == Some(&b'\n') {
                i += 3;
                continue;
            }
        }
        clean.push(src[i]);
        map.push(i as u32);
        i += 1;
    }
    map.push(src.len() as u32);
    (clean, map)
}

/// The kind and end of the token starting at `c[start]` (not whitespace or
/// a comment).
fn scan_token(c: &[u8], start: usize) -> (Kind, usize) {
    let n = c.len();
    let mut i = start;
    let ch = c[i];
    let kind;
    if is_ident_start(ch) {
        while i < n && is_ident_char(c[i]) {
            i += 1;
        }
        let word = &c[start..i];
        if matches!(word, b"L" | b"u" | b"U" | b"u8") && i < n && (c[i] == b'"' || c[i] == b'\'') {
            let q = c[i];
            match scan_quoted(c, i) {
                Some(end) => {
                    i = end;
                    kind = if q == b'"' { Kind::Str } else { Kind::Char };
                }
                None => {
                    kind = Kind::Ident;
                }
            }
        } else {
            kind = Kind::Ident;
        }
    } else if ch.is_ascii_digit() || (ch == b'.' && i + 1 < n && c[i + 1].is_ascii_digit()) {
        i += 1;
        while i < n {
            let d = c[i];
            if matches!(d, b'e' | b'E' | b'p' | b'P')
                && i + 1 < n
                && matches!(c[i + 1], b'+' | b'-')
            {
                i += 2;
            } else if is_ident_char(d) || d == b'.' {
                i += 1;
            } else {
                break;
            }
        }
        kind = Kind::Number;
    } else if ch == b'"' || ch == b'\'' {
        match scan_quoted(c, i) {
            Some(end) => {
                i = end;
                kind = if ch == b'"' { Kind::Str } else { Kind::Char };
            }
            None => {
                i += 1;
                kind = Kind::Other;
            }
        }
    } else if let Some(p) = PUNCTS.iter().find(|p| c[i..].starts_with(p.as_bytes())) {
        i += p.len();
        kind = if *p == "@" { Kind::Other } else { Kind::Punct };
    } else {
        // One (UTF-8) character.
        let len = match ch {
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf7 => 4,
            _ => 1,
        };
        i = (i + len).min(n);
        kind = Kind::Other;
    }
    (kind, i)
}

/// Scans a quoted literal starting at the quote `c[i]`; returns the index
/// after the closing quote, or `None` when the line ends first.
fn scan_quoted(c: &[u8], i: usize) -> Option<usize> {
    let q = c[i];
    let mut j = i + 1;
    while j < c.len() {
        match c[j] {
            b'\\' => j += 2,
            b'\n' => return None,
            x if x == q => return Some(j + 1),
            _ => j += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        lex(0, s.as_bytes())
            .unwrap()
            .iter()
            .map(|t| t.text.to_string())
            .collect()
    }

    #[test]
    fn tokens_and_spans() {
        assert_eq!(
            texts("a+=b->c ... 1.5e+3"),
            vec!["a", "+=", "b", "->", "c", "...", "1.5e+3", ""]
        );
        let t = lex(0, b"int x;\n  y = 'a';").unwrap();
        assert_eq!((t[3].span.line, t[3].span.col), (2, 3));
        assert!(t[3].bol);
        assert_eq!((t[5].span.col, t[5].span.end_col), (7, 10));
        assert_eq!(texts("a /* c */ b // d\n c"), vec!["a", "b", "c", ""]);
        assert_eq!(texts("ab\\\ncd"), vec!["abcd", ""]);
        assert_eq!(texts("\u{feff}int x;"), vec!["int", "x", ";", ""]);
        assert_eq!(texts("a\r\nb"), vec!["a", "b", ""]);
        assert!(lex(0, b"/* x").is_err());
        let t = lex(0, b"'x").unwrap();
        assert_eq!(t[0].kind, Kind::Other);
    }
}
