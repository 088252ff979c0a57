//! How a run's stdout is compared with the expected output: byte for byte,
//! token by token (whitespace ignored), numbers within a tolerance, or the
//! answer a pattern extracts (a course checker's regular expression).
//!
//! The same [`Compare`] judges every run (`test`, `localize`, `bench`, the
//! replays of diagnoses); the formula of a failing test expresses it through
//! the *target* output `faultline_smt::oracle::target` builds from it.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// How stdout is compared with the expected output.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Compare {
    /// Byte for byte.
    #[default]
    Exact,
    /// As sequences of whitespace-separated tokens (words): differences in
    /// whitespace are ignored, including a missing or extra final newline.
    IgnoreWhitespace,
    /// As sequences of tokens; a token of the expected output that is a
    /// decimal number matches a number within `abs` of it, or within `rel`
    /// times its magnitude; other tokens must be equal.
    Numbers { abs: f64, rel: f64 },
    /// The answers a pattern extracts must be the expected output's.
    Pattern(&'static Pattern),
}

/// A regular expression extracting the answer from an output. Every
/// (non-overlapping, leftmost-first) match is an answer: its first capture
/// group that took part in the match, or the whole match when none did.
/// Two outputs agree when they have the same answers in the same order
/// (compared ignoring case when the pattern does): the reference's answer
/// is there and no other answer appears.
#[derive(Debug)]
pub struct Pattern {
    pub source: String,
    pub ignore_case: bool,
    regex: regex::bytes::Regex,
}

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.source == other.source && self.ignore_case == other.ignore_case
    }
}

/// One answer: its byte span in the output and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// Where the whole match (the answer in its context) starts.
    pub match_start: usize,
    pub start: usize,
    pub end: usize,
    pub text: Vec<u8>,
}

type Interned = Mutex<HashMap<(String, bool), &'static Pattern>>;

impl Pattern {
    /// The compiled pattern for `source` (one per distinct pattern and case
    /// option in a process, so that [`Compare`] stays `Copy`); the error is
    /// the regex crate's, on one line.
    pub fn intern(source: &str, ignore_case: bool) -> Result<&'static Pattern, String> {
        static TABLE: OnceLock<Interned> = OnceLock::new();
        let table = TABLE.get_or_init(Default::default);
        let mut table = table.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(p) = table.get(&(source.to_string(), ignore_case)) {
            return Ok(p);
        }
        let regex = regex::bytes::RegexBuilder::new(source)
            .case_insensitive(ignore_case)
            .multi_line(true)
            .build()
            .map_err(|e| {
                let text = e.to_string();
                let last = text.lines().last().unwrap_or("").trim().to_string();
                format!("invalid pattern {source:?}: {last}")
            })?;
        let p: &'static Pattern = Box::leak(Box::new(Pattern {
            source: source.to_string(),
            ignore_case,
            regex,
        }));
        table.insert((source.to_string(), ignore_case), p);
        Ok(p)
    }

    /// The answers in `out`, in order.
    pub fn answers(&self, out: &[u8]) -> Vec<Answer> {
        self.regex
            .captures_iter(out)
            .map(|c| {
                let m = (1..c.len())
                    .find_map(|i| c.get(i))
                    .or_else(|| c.get(0))
                    .expect("a match");
                Answer {
                    match_start: c.get(0).map_or(m.start(), |w| w.start()),
                    start: m.start(),
                    end: m.end(),
                    text: m.as_bytes().to_vec(),
                }
            })
            .collect()
    }

    /// Whether two answers are the same.
    pub fn same(&self, a: &[u8], b: &[u8]) -> bool {
        if self.ignore_case {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    }

    /// Whether `actual`'s answers are `expected`'s.
    pub fn agree(&self, expected: &[u8], actual: &[u8]) -> bool {
        let (e, a) = (self.answers(expected), self.answers(actual));
        e.len() == a.len() && e.iter().zip(&a).all(|(x, y)| self.same(&x.text, &y.text))
    }
}

/// The whitespace-separated tokens of `s`, with their offsets.
pub fn tokens(s: &[u8]) -> Vec<(usize, &[u8])> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < s.len() {
        if s[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < s.len() && !s[i].is_ascii_whitespace() {
            i += 1;
        }
        out.push((start, &s[start..i]));
    }
    out
}

/// A decimal number token (`12`, `-3.50`, `1e-3`); not `inf` or `nan`.
fn number(t: &[u8]) -> Option<f64> {
    let s = std::str::from_utf8(t).ok()?;
    if !s
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E'))
        || !s.bytes().any(|c| c.is_ascii_digit())
    {
        return None;
    }
    s.parse().ok()
}

impl Compare {
    /// The name used by `--compare` and `compare.toml`'s `mode`.
    pub fn mode_name(&self) -> &'static str {
        match self {
            Compare::Exact => "exact",
            Compare::IgnoreWhitespace => "tokens",
            Compare::Numbers { .. } => "numbers",
            Compare::Pattern(_) => "pattern",
        }
    }

    /// Whether the token `actual` stands for the expected token `expected`.
    pub fn token_matches(&self, expected: &[u8], actual: &[u8]) -> bool {
        if expected == actual {
            return true;
        }
        let Compare::Numbers { abs, rel } = *self else {
            return false;
        };
        match (number(expected), number(actual)) {
            (Some(e), Some(a)) => {
                let d = (e - a).abs();
                d <= abs || d <= rel * e.abs()
            }
            _ => false,
        }
    }

    /// Whether `actual` passes as `expected`.
    pub fn agrees(&self, expected: &[u8], actual: &[u8]) -> bool {
        match self {
            Compare::Exact => expected == actual,
            Compare::IgnoreWhitespace | Compare::Numbers { .. } => {
                let (e, a) = (tokens(expected), tokens(actual));
                e.len() == a.len()
                    && e.iter()
                        .zip(&a)
                        .all(|((_, x), (_, y))| self.token_matches(x, y))
            }
            Compare::Pattern(p) => p.agree(expected, actual),
        }
    }

    /// Whether line `x` of the expected output and line `y` of the actual one
    /// differ (to name the first differing line of a failure).
    pub fn lines_differ(&self, x: Option<&[u8]>, y: Option<&[u8]>) -> bool {
        match self {
            Compare::Exact => x != y,
            Compare::IgnoreWhitespace | Compare::Numbers { .. } => {
                let (e, a) = (tokens(x.unwrap_or_default()), tokens(y.unwrap_or_default()));
                e.len() != a.len()
                    || !e
                        .iter()
                        .zip(&a)
                        .all(|((_, p), (_, q))| self.token_matches(p, q))
            }
            Compare::Pattern(p) => !p.agree(x.unwrap_or_default(), y.unwrap_or_default()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_numbers_and_patterns() {
        let t = Compare::IgnoreWhitespace;
        assert!(t.agrees(b"a b\n", b"  a\n\nb"));
        assert!(!t.agrees(b"a b\n", b"ab\n"));
        let n = Compare::Numbers {
            abs: 0.01,
            rel: 0.0,
        };
        assert!(n.agrees(b"x = 1.00\n", b"x = 1.005"));
        assert!(!n.agrees(b"x = 1.00\n", b"x = 1.02"));
        assert!(!n.agrees(b"x = 1.00\n", b"y = 1.00"));
        let r = Compare::Numbers { abs: 0.0, rel: 0.1 };
        assert!(r.agrees(b"100", b"109") && !r.agrees(b"100", b"111"));
        let p = Pattern::intern(r"(-?\d+) is the median", true).expect("compiles");
        let c = Compare::Pattern(p);
        assert!(c.agrees(b"Enter: 5 is the median\n", b"> 5 IS THE MEDIAN"));
        assert!(!c.agrees(b"5 is the median\n", b"6 is the median\n"));
        assert!(!c.agrees(b"5 is the median\n", b"5 is the median\n7 is the median\n"));
        assert!(!c.agrees(b"5 is the median\n", b"the median is 5\n"));
        let g = Pattern::intern(
            r"Student has an ([A-D]) grade|Student has (failed) the course",
            true,
        )
        .expect("compiles");
        assert_eq!(
            g.answers(b"Student has failed the course.\n")[0].text,
            b"failed"
        );
        assert!(std::ptr::eq(
            p,
            Pattern::intern(r"(-?\d+) is the median", true).unwrap()
        ));
        let e = Pattern::intern("(", false).expect_err("invalid");
        assert!(
            !e.contains('\n') && e.starts_with("invalid pattern \"(\""),
            "{e}"
        );
    }
}
