//! The oracle as a formula: expected stdout against the program's output
//! statements, and stdin against its reads.
//!
//! **Output.** The symbolic execution visits output statement instances in
//! one linear order, and every concrete path prints a subsequence of them in
//! that order. Each instance k has a guard g_k, a template (the format's
//! literal text and conversions of symbolic values), and, if its statement is
//! relaxable, the statement's `ab`. A position variable p_k says where in the
//! expected output E instance k starts: p_0 = 0 and the last position is |E|.
//! For every offset o that p_k can take (computed forward, so only reachable
//! offsets are encoded):
//! - not reached: p_{k+1} = o;
//! - reached and not relaxed: the template must print exactly E[o..e] for one
//!   of its parses at o (each parse fixes the printed values: `%d` printing
//!   "42" means the value is 42; `%.2f` printing "3.14" means the double lies
//!   in the interval of doubles glibc prints as 3.14), and p_{k+1} = e;
//! - reached and relaxed: the statement prints something else or nothing:
//!   p_{k+1} is o, a parse end of its own template with other values, or any
//!   line boundary of E at or after o.
//!
//! Not modelled: a relaxed output statement printing text that ends in the
//! middle of a line other than at its own template's parse ends (e.g. a
//! relaxed `printf("%d", x)` printing "5 apples" where the line goes on with
//! another statement's output); `%s` of a symbolic string with a width;
//! `printf` return values (unconstrained); stderr (not compared). When the
//! number of (instance, offset) pairs exceeds [`OFFSET_BUDGET`], relaxed
//! statements may only print their own template with other values, or nothing
//! (a note says so).
//!
//! **Comparisons other than byte for byte** (`faultline_exec::Compare`) are
//! expressed by the output the formula requires, the failing test's
//! *target* ([`target`]): of the outputs the checker accepts, the one
//! closest to what the program printed. The formula then requires the
//! output statements to print the target exactly, as above.
//! - *tokens* (whitespace ignored) and *numbers within a tolerance*: the
//!   program's own output, with each token that does not match the expected
//!   token at its position replaced by the expected one; the whitespace
//!   between tokens is the program's own (where the program printed fewer
//!   tokens, the expected output's for the missing ones; where it printed
//!   more, the extra ones are dropped).
//! - *pattern*: the program's own output with each answer (the pattern's
//!   capture) replaced by the reference's answer at the same position. The
//!   prompts and the text around the answers are what the program printed,
//!   so no statement is blamed for them.
//!
//!   When the program printed no answer at all, the target is its output
//!   followed by the expected output from its first answer's match on (the
//!   answer in its context, and what follows).
//!
//! Every target passes the checker (checked; otherwise the expected output
//! itself is the target), so a model never "passes" a test the checker
//! fails, and the failing run, which the checker rejects, is never a model:
//! the formula misses no real difference. It fixes no difference the
//! checker ignores when the target keeps the program's own text, which it
//! does except in these fallbacks (the formula then asks for more than the
//! checker, and a diagnosis may include a statement printing only text the
//! checker ignores): a run that did not end normally (a runtime error, a
//! limit: its output is cut, so the target is the expected output's tokens
//! with the run's whitespace where it printed them, and the program's
//! *ending*, the text every normal run ends with, as the program prints it
//! where the expected output ends with it: [`cut_target`]); a pattern whose
//! answers in the program's output are some but not as many as in the
//! expected output (the expected output is the target); tokens that differ
//! in number (the whitespace around the missing tokens is the expected
//! output's).
//!
//! **Input** is handled during symbolic execution (`exec.rs`): reads consume
//! stdin in the same linear order, the input position is a term over the
//! offsets it can have, and each read is simulated from each of them with
//! faultline's glibc-exact scanf.

use crate::instances::{InstValue, RelaxedInstance, TestEncoding};
use crate::sym::{and2, implies, not, tt, FpEq, IntSemantics, SFloat, SInt};
use crate::Sink;
use faultline_exec::libc;
use faultline_exec::suite::Compare;
use faultline_exec::trace::Scope;
use faultline_ir::{FloatKind, IntKind, StmtId};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use z3::ast::{Bool, BV};

/// Above this many (output instance × offset) pairs, relaxed output
/// statements are restricted to their own template (see the module docs).
pub const OFFSET_BUDGET: usize = 200_000;

/// A string printed: constant bytes, or symbolic characters (the string ends
/// at the first NUL).
#[derive(Clone, Debug)]
pub enum StrVal {
    Const(Vec<u8>),
    Sym(Vec<SInt>),
}

/// A value printed by a conversion.
#[derive(Clone, Debug)]
pub enum OutArg {
    Int(SInt),
    Float(SFloat),
    /// The strings the argument may designate, each with its guard.
    Str(Vec<(Bool, StrVal)>),
}

#[derive(Clone, Debug)]
pub enum OutPiece {
    Lit(Vec<u8>),
    Char(SInt),
    /// A string (`puts`), one of several alternatives.
    Str(Vec<(Bool, StrVal)>),
    Conv {
        spec: libc::Spec,
        width: Option<i64>,
        precision: Option<i64>,
        arg: OutArg,
    },
}

/// One output statement instance writing to stdout.
#[derive(Clone, Debug)]
pub struct OutEvent {
    pub guard: Bool,
    pub stmt: StmtId,
    pub ctx: Vec<Scope>,
    pub ab: Option<Bool>,
    /// The relaxable prints-only calls
    /// ([`faultline_ir::CallSiteInfo::prints_only`]) the event is printed
    /// in, outermost first: each statement with the context and the guard
    /// of its instance. Relaxed, such a call may be skipped (the event's
    /// guard then does not hold): what the instance prints is the text of
    /// its events, nothing when skipped.
    pub within: Vec<(StmtId, Vec<Scope>, Bool)>,
    pub pieces: Vec<OutPiece>,
    /// A black box (unexplored code) that may print anything or nothing.
    pub black_box: bool,
}

/// Output alternatives of a template at an offset: (end offset, condition).
type Alts = Vec<(usize, Bool)>;

fn lit_match(e: &[u8], o: usize, b: &[u8]) -> bool {
    e.len() >= o + b.len() && &e[o..o + b.len()] == b
}

/// The kind a conversion reads its integer argument as.
fn printed_kind(spec: &libc::Spec) -> IntKind {
    use libc::Length as L;
    let signed = matches!(spec.conv, b'd' | b'i');
    if spec.conv == b'c' {
        return IntKind::UChar;
    }
    match (spec.length, signed) {
        (L::Char, true) => IntKind::SChar,
        (L::Char, false) => IntKind::UChar,
        (L::Short, true) => IntKind::Short,
        (L::Short, false) => IntKind::UShort,
        (L::None, true) => IntKind::Int,
        (L::None, false) => IntKind::UInt,
        (_, true) => IntKind::Long,
        (_, false) => IntKind::ULong,
    }
}

fn render(
    spec: &libc::Spec,
    width: Option<i64>,
    precision: Option<i64>,
    arg: libc::Arg,
) -> Vec<u8> {
    let mut out = Vec::new();
    libc::render(spec, width, precision, arg, &mut out);
    out
}

/// Candidate integers a text may be the rendering of.
fn int_candidates(spec: &libc::Spec, text: &[u8]) -> Vec<i128> {
    if spec.conv == b'c' {
        let mut v: Vec<i128> = text.iter().map(|&b| b as i128).collect();
        v.sort();
        v.dedup();
        return v;
    }
    let t: Vec<u8> = text.iter().copied().filter(|c| *c != b' ').collect();
    let (neg, mut digits) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, &t[..]),
    };
    let radix = match spec.conv {
        b'x' | b'X' => {
            if digits.len() >= 2 && digits[0] == b'0' && (digits[1] == b'x' || digits[1] == b'X') {
                digits = &digits[2..];
            }
            16
        }
        b'o' => 8,
        _ => 10,
    };
    if digits.len() > 40 {
        return Vec::new();
    }
    let s = std::str::from_utf8(digits).unwrap_or("");
    if s.is_empty() {
        return vec![0];
    }
    match i128::from_str_radix(s, radix) {
        Ok(v) => vec![if neg { -v } else { v }],
        Err(_) => Vec::new(),
    }
}

/// The characters of a printed integer (digits in any base up to 16, a
/// sign, padding, a `0x` prefix).
fn int_alphabet(c: u8) -> bool {
    c.is_ascii_hexdigit() || matches!(c, b'-' | b'+' | b' ' | b'x' | b'X')
}

fn float_alphabet(c: u8) -> bool {
    c.is_ascii_digit()
        || matches!(
            c,
            b'-' | b'+'
                | b'.'
                | b'e'
                | b'E'
                | b' '
                | b'i'
                | b'n'
                | b'f'
                | b'a'
                | b'I'
                | b'N'
                | b'F'
                | b'A'
                | b'x'
                | b'X'
                | b'p'
                | b'P'
        )
        || c.is_ascii_hexdigit()
}

/// A conversion, its width and precision, and the text it is to print:
/// what [`float_interval`] depends on.
type IntervalKey = (libc::Spec, Option<i64>, Option<i64>, Vec<u8>);

thread_local! {
    /// The intervals found so far on this thread: every focused formula of
    /// a test encodes the same printed values, and finding one takes about
    /// a hundred renderings.
    static INTERVALS: std::cell::RefCell<HashMap<IntervalKey, Option<(f64, f64)>>> =
        Default::default();
}

/// The most intervals [`INTERVALS`] keeps (then it starts afresh).
const MAX_INTERVALS: usize = 100_000;

/// The interval of doubles that a floating conversion prints as `text`.
fn float_interval(
    spec: &libc::Spec,
    width: Option<i64>,
    precision: Option<i64>,
    text: &[u8],
) -> Option<(f64, f64)> {
    let key = (spec.clone(), width, precision, text.to_vec());
    if let Some(found) = INTERVALS.with(|m| m.borrow().get(&key).copied()) {
        return found;
    }
    let found = find_float_interval(spec, width, precision, text);
    INTERVALS.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MAX_INTERVALS {
            m.clear();
        }
        m.insert(key, found);
    });
    found
}

/// [`float_interval`], searched.
fn find_float_interval(
    spec: &libc::Spec,
    width: Option<i64>,
    precision: Option<i64>,
    text: &[u8],
) -> Option<(f64, f64)> {
    let t = std::str::from_utf8(text).ok()?.trim();
    let x: f64 = match t {
        "inf" | "INF" => f64::INFINITY,
        "-inf" | "-INF" => f64::NEG_INFINITY,
        _ => t.parse().ok()?,
    };
    let shows = |v: f64| render(spec, width, precision, libc::Arg::Double(v)) == text;
    if !shows(x) {
        return None;
    }
    // Doubles ordered as integers: monotone key.
    let key = |v: f64| -> i64 {
        let b = v.to_bits() as i64;
        if b < 0 {
            i64::MIN - b
        } else {
            b
        }
    };
    let unkey = |k: i64| -> f64 {
        if k < 0 {
            f64::from_bits((i64::MIN - k) as u64)
        } else {
            f64::from_bits(k as u64)
        }
    };
    let (kx, kmin, kmax) = (
        key(x) as i128,
        key(f64::NEG_INFINITY) as i128,
        key(f64::INFINITY) as i128,
    );
    let shows_key = |k: i128| shows(unkey(k as i64));
    // The printed value is monotone in the double, so the doubles printing as
    // the text are an interval around `x`. Each end: gallop outwards from `x`
    // until a double no longer prints as the text, then bisect between the
    // last one that did and the first that did not. Every double rendered
    // lies next to `x`, so none is a huge number whose decimal expansion
    // (hundreds of digits for `%f`) is slow to render.
    let end = |dir: i128| -> i128 {
        let (mut inside, mut step) = (kx, 1i128);
        let mut outside = loop {
            let k = (kx + dir * step).clamp(kmin, kmax);
            if !shows_key(k) {
                break k;
            }
            if k == inside {
                return k; // an infinity prints as the text
            }
            inside = k;
            step *= 2;
        };
        while (inside - outside).abs() > 1 {
            let mid = (inside + outside) / 2;
            if shows_key(mid) {
                inside = mid;
            } else {
                outside = mid;
            }
        }
        inside
    };
    Some((unkey(end(-1) as i64), unkey(end(1) as i64)))
}

/// Alternatives for one conversion at offset `o`.
fn conv_alts(
    e: &[u8],
    o: usize,
    spec: &libc::Spec,
    width: Option<i64>,
    precision: Option<i64>,
    arg: &OutArg,
) -> Result<Alts, String> {
    let n = e.len();
    let mut alts = Vec::new();
    match arg {
        OutArg::Str(strs) => {
            for (guard, sv) in strs {
                match sv {
                    StrVal::Const(s) => {
                        let text = render(spec, width, precision, libc::Arg::Str(s));
                        if lit_match(e, o, &text) {
                            alts.push((o + text.len(), guard.clone()));
                        }
                    }
                    StrVal::Sym(chars) => {
                        if width.is_some() {
                            return Err("%s of a computed string with a width".into());
                        }
                        for (end, c) in str_alts(e, o, chars) {
                            alts.push((end, and2(guard, &c)));
                        }
                    }
                }
            }
        }
        OutArg::Int(v) => {
            let pk = printed_kind(spec);
            let shown = v.convert(pk);
            // `%c` prints exactly its width's characters (at least one).
            let longest = match spec.conv {
                b'c' => width.unwrap_or(0).max(1) as usize,
                _ => {
                    64 + width.unwrap_or(0).max(0) as usize + precision.unwrap_or(0).max(0) as usize
                }
            };
            let max_len = (n - o).min(longest);
            let mut seen = BTreeSet::new();
            for j in 1..=max_len {
                let text = &e[o..o + j];
                // No number is written with this character: no longer
                // text parses either.
                if spec.conv != b'c' && !int_alphabet(e[o + j - 1]) {
                    break;
                }
                for cand in int_candidates(spec, text) {
                    if cand < pk.min() || cand > pk.max() || !seen.insert((j, cand)) {
                        continue;
                    }
                    let arg = if pk.signed() {
                        libc::Arg::Int(cand as i64)
                    } else {
                        libc::Arg::UInt(cand as u64)
                    };
                    if render(spec, width, precision, arg) == text {
                        alts.push((o + j, shown.eq_const(cand)));
                    }
                }
            }
        }
        OutArg::Float(x) => {
            let d = x.convert(FloatKind::Double);
            let mut j = 0;
            while o + j < n && float_alphabet(e[o + j]) && j < 400 {
                j += 1;
                let text = &e[o..o + j];
                if let Some((lo, hi)) = float_interval(spec, width, precision, text) {
                    let c = if lo.is_nan() {
                        d.t.is_nan()
                    } else if lo == hi {
                        d.t._eq_fp(&crate::sym::fp_const(FloatKind::Double, lo))
                    } else {
                        Bool::and(&[
                            &crate::sym::fp_const(FloatKind::Double, lo).le(&d.t),
                            &d.t.le(crate::sym::fp_const(FloatKind::Double, hi)),
                        ])
                    };
                    alts.push((o + j, c));
                } else if (text.trim_ascii().eq_ignore_ascii_case(b"nan")
                    || text.trim_ascii().eq_ignore_ascii_case(b"-nan"))
                    && render(
                        spec,
                        width,
                        precision,
                        libc::Arg::Double(if text.contains(&b'-') {
                            -f64::NAN
                        } else {
                            f64::NAN
                        }),
                    ) == text
                {
                    alts.push((o + j, d.t.is_nan()));
                }
            }
        }
    }
    Ok(alts)
}

fn str_alts(e: &[u8], o: usize, chars: &[SInt]) -> Alts {
    let mut alts = Vec::new();
    let mut prefix = tt();
    for (l, c) in chars.iter().enumerate() {
        // The string ends here.
        alts.push((o + l, and2(&prefix, &c.eq_const(0))));
        if o + l >= e.len() || e[o + l] == 0 {
            break;
        }
        let byte = e[o + l] as i8 as i128;
        prefix = and2(&prefix, &c.convert(IntKind::Char).eq_const(byte));
    }
    alts
}

/// All parses of a template at offset `o`.
fn template_alts(e: &[u8], o: usize, pieces: &[OutPiece]) -> Result<Alts, String> {
    let mut cur: Alts = vec![(o, tt())];
    for p in pieces {
        let mut next: Alts = Vec::new();
        for (at, cond) in &cur {
            let here: Alts = match p {
                OutPiece::Lit(b) => {
                    if lit_match(e, *at, b) {
                        vec![(*at + b.len(), tt())]
                    } else {
                        Vec::new()
                    }
                }
                OutPiece::Char(c) => {
                    if *at < e.len() {
                        vec![(*at + 1, c.convert(IntKind::UChar).eq_const(e[*at] as i128))]
                    } else {
                        Vec::new()
                    }
                }
                OutPiece::Str(strs) => {
                    let mut v = Vec::new();
                    for (guard, sv) in strs {
                        match sv {
                            StrVal::Const(b) => {
                                if lit_match(e, *at, b) {
                                    v.push((*at + b.len(), guard.clone()));
                                }
                            }
                            StrVal::Sym(chars) => {
                                for (end, c) in str_alts(e, *at, chars) {
                                    v.push((end, and2(guard, &c)));
                                }
                            }
                        }
                    }
                    v
                }
                OutPiece::Conv {
                    spec,
                    width,
                    precision,
                    arg,
                } => conv_alts(e, *at, spec, *width, *precision, arg)?,
            };
            for (end, c) in here {
                next.push((end, and2(cond, &c)));
            }
        }
        if next.len() > 64 {
            // Merge alternatives ending at the same offset.
            let mut by_end: BTreeMap<usize, Bool> = BTreeMap::new();
            for (end, c) in next {
                let prev = by_end.remove(&end);
                by_end.insert(
                    end,
                    match prev {
                        Some(p) => crate::sym::or2(&p, &c),
                        None => c,
                    },
                );
            }
            next = by_end.into_iter().collect();
        }
        cur = next;
        if cur.is_empty() {
            break;
        }
    }
    Ok(cur)
}

/// The output the formula of a failing test requires under `compare`
/// (see the module docs): `expected` itself for an exact comparison, else
/// the output closest to `actual` (the failing run's stdout, `None` when the
/// run did not end normally) that `compare` accepts as `expected`.
pub fn target(compare: Compare, expected: &[u8], actual: Option<&[u8]>) -> Vec<u8> {
    let Some(actual) = actual else {
        return expected.to_vec();
    };
    let t = match compare {
        Compare::Exact => return expected.to_vec(),
        Compare::IgnoreWhitespace | Compare::Numbers { .. } => {
            token_target(compare, expected, actual)
        }
        Compare::Pattern(p) => {
            let (e, a) = (p.answers(expected), p.answers(actual));
            if a.is_empty() && !e.is_empty() {
                // No answer: the program's output, then the expected output
                // from its first answer's match on.
                let mut t = actual.to_vec();
                t.extend_from_slice(&expected[e[0].match_start..]);
                return if compare.agrees(expected, &t) {
                    t
                } else {
                    expected.to_vec()
                };
            }
            if e.len() != a.len() {
                return expected.to_vec();
            }
            let mut t = Vec::with_capacity(actual.len());
            let mut at = 0;
            for (x, y) in e.iter().zip(&a) {
                t.extend_from_slice(&actual[at..y.start]);
                t.extend_from_slice(if p.same(&x.text, &y.text) {
                    &y.text
                } else {
                    &x.text
                });
                at = y.end;
            }
            t.extend_from_slice(&actual[at..]);
            t
        }
    };
    if compare.agrees(expected, &t) {
        t
    } else {
        expected.to_vec()
    }
}

/// The program's *ending*: the text every run that ended normally printed
/// last (the longest common suffix of `outputs`; `None` without a run).
/// [`cut_target`] uses its last tokens, where the expected output ends with
/// them, with the whitespace around them as the program prints it.
pub fn ending(outputs: &[&[u8]]) -> Option<Vec<u8>> {
    let (first, rest) = outputs.split_first()?;
    let mut n = first.len();
    for o in rest {
        let common = first
            .iter()
            .rev()
            .zip(o.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        n = n.min(common);
    }
    Some(first[first.len() - n..].to_vec())
}

/// The text at the end of `ending` whose tokens are the last tokens of
/// the expected output `e` (as many as match), from the whitespace before
/// the first of them (or from the start of `ending`); `None` when its last
/// token is not the expected output's.
fn matching_end<'a>(e: &[(usize, &[u8])], ending: &'a [u8]) -> Option<(&'a [u8], usize)> {
    use faultline_exec::compare::tokens;
    let t = tokens(ending);
    let m = t
        .iter()
        .rev()
        .zip(e.iter().rev())
        .take_while(|((_, a), (_, b))| a == b)
        .count();
    if m == 0 {
        return None;
    }
    // The first matched token must be whole: after whitespace or at the
    // start of `ending` when `ending` is a whole output (a common suffix
    // may start inside a token: `1\nbye` of `11\nbye` and `21\nbye`).
    let first = t.len() - m;
    let (m, start) = match first.checked_sub(1) {
        Some(j) => (m, t[j].0 + t[j].1.len()),
        None if t[0].0 > 0 => (m, 0),
        None => (m - 1, t[0].1.len()),
    };
    (m > 0).then_some((&ending[start..], m))
}

/// The target of a failing test whose run did not end normally (a runtime
/// error, a limit), under a comparison other than byte for byte: the
/// expected output's tokens, with the whitespace the run printed between
/// those it printed (`partial`, its output so far, as far as it agrees with
/// the expected tokens), and, where the expected output ends with the
/// program's `ending` ([`ending`]) as tokens, that ending as the program
/// prints it: a program that ends every run with `printf("\nbye")` cannot
/// print the expected `"\nbye\n"`, which the checker accepts for it.
/// The expected output itself when the checker would not accept the result.
pub fn cut_target(
    compare: Compare,
    expected: &[u8],
    partial: &[u8],
    ending: Option<&[u8]>,
) -> Vec<u8> {
    use faultline_exec::compare::tokens;
    if matches!(compare, Compare::Exact) {
        return expected.to_vec();
    }
    let e = tokens(expected);
    if e.is_empty() {
        return expected.to_vec();
    }
    let p = tokens(partial);
    // The partial output's last token may be cut in the middle.
    let complete = match partial.last() {
        Some(c) if !c.is_ascii_whitespace() => p.len().saturating_sub(1),
        _ => p.len(),
    };
    let agreed = e
        .iter()
        .zip(&p[..complete])
        .take_while(|((_, a), (_, b))| a == b)
        .count();
    let tail = ending.and_then(|end| matching_end(&e, end));
    let kept = e.len() - tail.map_or(0, |(_, m)| m);
    let mut t = Vec::with_capacity(expected.len());
    for (i, &(_, et)) in e[..kept].iter().enumerate() {
        // The separator before a token the run started printing, after
        // tokens it printed as expected, is the run's.
        let sep = match i <= agreed && i < p.len() {
            true => separator(partial, &p, i),
            false => separator(expected, &e, i),
        };
        t.extend_from_slice(sep);
        t.extend_from_slice(et);
    }
    match tail {
        Some((end, _)) => t.extend_from_slice(end),
        None => {
            let (o, last) = e[e.len() - 1];
            t.extend_from_slice(&expected[o + last.len()..]);
        }
    }
    if compare.agrees(expected, &t) {
        t
    } else {
        expected.to_vec()
    }
}

/// The expected token `et` written as the program wrote `at`: an expected
/// number with as many decimals as the program's number (`10` for an
/// expected `10.004` within 0.01 where the program printed `6`), when that
/// is still within the tolerance; else `et` itself.
fn in_format_of(compare: Compare, et: &[u8], at: &[u8]) -> Vec<u8> {
    let plain = |t: &[u8]| {
        !t.is_empty()
            && t.iter()
                .all(|c| c.is_ascii_digit() || matches!(c, b'-' | b'.'))
            && t.iter().any(u8::is_ascii_digit)
    };
    if !matches!(compare, Compare::Numbers { .. }) || !plain(et) || !plain(at) {
        return et.to_vec();
    }
    let Some(e) = std::str::from_utf8(et)
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
    else {
        return et.to_vec();
    };
    let decimals = at
        .iter()
        .position(|&c| c == b'.')
        .map_or(0, |p| at.len() - p - 1);
    let t = format!("{e:.decimals$}").into_bytes();
    if compare.token_matches(et, &t) {
        t
    } else {
        et.to_vec()
    }
}

/// The whitespace of `text` before its token `i` (of `toks`, its tokens).
fn separator<'a>(text: &'a [u8], toks: &[(usize, &[u8])], i: usize) -> &'a [u8] {
    let start = i.checked_sub(1).map_or(0, |j| toks[j].0 + toks[j].1.len());
    &text[start..toks[i].0]
}

/// The tokens of `expected` with `actual`'s whitespace and its tokens where
/// they match.
fn token_target(compare: Compare, expected: &[u8], actual: &[u8]) -> Vec<u8> {
    use faultline_exec::compare::tokens;
    let (e, a) = (tokens(expected), tokens(actual));
    if e.is_empty() {
        return expected.to_vec();
    }
    let mut t = Vec::with_capacity(actual.len().max(expected.len()));
    for (i, &(_, et)) in e.iter().enumerate() {
        let sep = match i < a.len() {
            true => separator(actual, &a, i),
            false => separator(expected, &e, i),
        };
        t.extend_from_slice(sep);
        match a.get(i) {
            Some(&(_, at)) if compare.token_matches(et, at) => t.extend_from_slice(at),
            Some(&(_, at)) => t.extend_from_slice(&in_format_of(compare, et, at)),
            None => t.extend_from_slice(et),
        }
    }
    let trailing = if a.len() >= e.len() {
        let (o, last) = a[a.len() - 1];
        &actual[o + last.len()..]
    } else {
        let (o, last) = e[e.len() - 1];
        &expected[o + last.len()..]
    };
    t.extend_from_slice(trailing);
    t
}

/// Asserts that the stdout events print exactly `expected`.
pub fn encode_outputs(
    solver: &Sink,
    events: &[OutEvent],
    expected: &[u8],
    sem: IntSemantics,
    out: &mut TestEncoding,
) -> Result<(), (Option<StmtId>, String)> {
    let _ = sem;
    let n = expected.len();
    let mut boundaries: BTreeSet<usize> = BTreeSet::new();
    boundaries.insert(0);
    boundaries.insert(n);
    for (i, &b) in expected.iter().enumerate() {
        if b == b'\n' {
            boundaries.insert(i + 1);
        }
    }
    let mut starts: BTreeSet<usize> = BTreeSet::new();
    starts.insert(0);
    let mut pos = BV::from_u64(0, 32);
    let mut restricted = false;
    let mut pairs = 0usize;
    for (k, ev) in events.iter().enumerate() {
        pairs += starts.len();
        if pairs > OFFSET_BUDGET && !restricted {
            restricted = true;
            out.notes.push(
                "the expected output is long: relaxed output statements may only print their own format with other values, or nothing"
                    .into(),
            );
        }
        // An output statement that is not relaxable and cannot run (its
        // guard folded to false) prints nothing, and one that must run
        // (folded to true) cannot be skipped: the run's own prefix keeps one
        // offset per event, so that the formula of a long output grows with
        // the events whose guards the relaxed statements reach, not with
        // events times offsets. (A relaxable one is encoded as it is
        // whatever its guard.)
        let certain = match ev.ab {
            None => ev.guard.as_bool(),
            Some(_) => None,
        };
        if certain == Some(false) {
            continue;
        }
        let next = BV::fresh_const(&format!("pos_{}_{}", ev.stmt.0, k), 32);
        let mut next_starts = BTreeSet::new();
        for &o in &starts {
            crate::limits::tick();
            let at = pos.eq(BV::from_u64(o as u64, 32));
            if certain.is_none() {
                solver.assert(&implies(
                    &and2(&at, &not(&ev.guard)),
                    &next.eq(BV::from_u64(o as u64, 32)),
                ));
                next_starts.insert(o);
            }
            let alts = template_alts(expected, o, &ev.pieces).map_err(|m| (Some(ev.stmt), m))?;
            let normal = match &ev.ab {
                Some(ab) => and2(&and2(&at, &ev.guard), &not(ab)),
                None => and2(&at, &ev.guard),
            };
            let options: Vec<Bool> = alts
                .iter()
                .map(|(end, c)| and2(&next.eq(BV::from_u64(*end as u64, 32)), c))
                .collect();
            let any = if options.is_empty() {
                Bool::from_bool(false)
            } else {
                Bool::or(&options.iter().collect::<Vec<_>>())
            };
            solver.assert(&implies(&normal, &any));
            for (end, _) in &alts {
                next_starts.insert(*end);
            }
            if let Some(ab) = &ev.ab {
                let relaxed = and2(&and2(&at, &ev.guard), ab);
                let mut ends: BTreeSet<usize> = alts.iter().map(|(e, _)| *e).collect();
                ends.insert(o);
                if !restricted {
                    ends.extend(boundaries.range(o..).copied());
                }
                let opts: Vec<Bool> = ends
                    .iter()
                    .map(|e| next.eq(BV::from_u64(*e as u64, 32)))
                    .collect();
                solver.assert(&implies(
                    &relaxed,
                    &Bool::or(&opts.iter().collect::<Vec<_>>()),
                ));
                next_starts.extend(ends);
            }
        }
        if ev.ab.is_some() && !ev.black_box {
            out.relaxed.push(RelaxedInstance {
                stmt: ev.stmt,
                ctx: ev.ctx.clone(),
                guard: ev.guard.clone(),
                value: InstValue::Output {
                    start: pos.clone(),
                    end: next.clone(),
                },
            });
        }
        // A relaxed prints-only call's instance: a relaxed instance per
        // event it may print, in order.
        for (stmt, ctx, guard) in &ev.within {
            out.relaxed.push(RelaxedInstance {
                stmt: *stmt,
                ctx: ctx.clone(),
                guard: guard.clone(),
                value: InstValue::Output {
                    start: pos.clone(),
                    end: next.clone(),
                },
            });
        }
        pos = next;
        starts = next_starts;
    }
    solver.assert(&pos.eq(BV::from_u64(n as u64, 32)));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(fmt: &str) -> libc::Spec {
        match libc::parse_format(fmt.as_bytes())
            .expect("format")
            .remove(0)
        {
            libc::printf::Piece::Conv(s) => s,
            other => panic!("not a conversion: {other:?}"),
        }
    }

    /// The interval's ends print as the text and their neighbours do not.
    fn check(fmt: &str, precision: Option<i64>, text: &str) {
        let s = spec(fmt);
        let (a, b) = float_interval(&s, None, precision, text.as_bytes()).expect("an interval");
        let x: f64 = text.parse().expect("a number");
        assert!(a <= x && x <= b, "{fmt} {text}: [{a}, {b}]");
        let shows = |v: f64| render(&s, None, precision, libc::Arg::Double(v)) == text.as_bytes();
        assert!(shows(a) && shows(b));
        assert!(!shows(a.next_down()) && !shows(b.next_up()));
    }

    #[test]
    fn float_intervals_are_exact() {
        // Negative values, zero and values far from zero: the galloping
        // search finds both ends exactly (its speed is measured by the course
        // benchmark's float programs, not here).
        check("%.2f", Some(2), "-1.00");
        check("%f", None, "2.250000");
        check("%f", None, "-3.000000");
        check("%.1f", Some(1), "0.0");
        check("%e", None, "-1.500000e+300");
        let s = spec("%f");
        assert!(float_interval(&s, None, None, b"1.5").is_none());
        let (a, b) = float_interval(&s, None, None, b"1000000000000.000000").expect("interval");
        assert_eq!((a, b), (1e12, 1e12), "doubles near 1e12 are 1.2e-4 apart");
    }
    #[test]
    fn targets_keep_what_the_checker_ignores() {
        use faultline_exec::suite::Pattern;
        let words = Compare::IgnoreWhitespace;
        assert_eq!(target(words, b"1 2 3\n", Some(b"1  5\t3")), b"1  2\t3");
        assert_eq!(target(words, b"1 2 3\n", Some(b"1  2")), b"1  2 3\n");
        assert_eq!(target(words, b"1 2\n", Some(b"1 2 3 ")), b"1 2 ");
        assert_eq!(target(words, b"1 2\n", None), b"1 2\n");
        // A run cut short: the expected tokens, the run's whitespace where
        // it printed them, the program's ending as every normal run prints
        // it.
        assert_eq!(
            cut_target(words, b"a b\nc\nbye\n", b"a  b", Some(b"\nbye")),
            b"a  b\nc\nbye"
        );
        assert_eq!(cut_target(words, b"a b\n", b"a  b", None), b"a  b\n");
        assert_eq!(
            cut_target(words, b"x\nbye\n", b"", Some(b" see you")),
            b"x\nbye\n"
        );
        assert_eq!(cut_target(Compare::Exact, b"a\n", b"a", Some(b"a")), b"a\n");
        // The ending's tokens that end the expected output, whole.
        let bye = ending(&[b"1\n11\nbye", b"2\n21\nbye"]).expect("an ending");
        assert_eq!(bye, b"1\nbye");
        assert_eq!(
            cut_target(words, b"x\n1\nbye\n", b"", Some(&bye)),
            b"x\n1\nbye"
        );
        let one = ending(&[b"> 6\n-9\nbye"]).expect("an ending");
        assert_eq!(
            cut_target(words, b"> 4\n1\nbye\n", b"> ", Some(&one)),
            b"> 4\n1\nbye"
        );
        assert_eq!(cut_target(words, b"2 1\n", b"", Some(b"1")), b"2 1\n");
        assert_eq!(ending(&[]), None);
        assert_eq!(target(Compare::Exact, b"a\n", Some(b"b\n")), b"a\n");
        let n = Compare::Numbers {
            abs: 0.01,
            rel: 0.0,
        };
        assert_eq!(
            target(n, b"x 1.00 2.00\n", Some(b"x  1.001  3")),
            b"x  1.001  2"
        );
        // The expected number in the program's format when within the
        // tolerance, else as expected.
        assert_eq!(target(n, b"10.004\n", Some(b"6\n")), b"10\n");
        assert_eq!(target(n, b"10.4\n", Some(b"6\n")), b"10.4\n");
        assert_eq!(target(n, b"2.5\n", Some(b"6.25\n")), b"2.50\n");
        let p = Pattern::intern(r"(-?\d+) is the median", true).expect("compiles");
        let c = Compare::Pattern(p);
        assert_eq!(
            target(
                c,
                b"Please enter 3 numbers > 6 is the median\n",
                Some(b"Numbers? 5 IS the median\n")
            ),
            b"Numbers? 6 IS the median\n"
        );
        // No answer in the program's output: its output, then the expected
        // answer in its context and what follows.
        assert_eq!(
            target(c, b"Numbers > 6 is the median\nBye\n", Some(b"Enter > ")),
            b"Enter > 6 is the median\nBye\n"
        );
        // More answers than expected: the expected output.
        assert_eq!(
            target(
                c,
                b"6 is the median\n",
                Some(b"5 is the median\n7 is the median\n")
            ),
            b"6 is the median\n"
        );
        assert_eq!(
            target(c, b"6 is the median\n", Some(b"median: 5\n")),
            b"median: 5\n6 is the median\n"
        );
        // An answer without context: replaced in place.
        let q = Pattern::intern(r"(\d)", false).expect("compiles");
        assert_eq!(
            target(Compare::Pattern(q), b"a 1\n", Some(b"b 2\n")),
            b"b 1\n"
        );
    }
}
