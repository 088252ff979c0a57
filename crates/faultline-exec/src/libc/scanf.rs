//! `scanf`/`sscanf` with glibc 2.36 semantics (C locale).
//!
//! [`scanf`] runs glibc's `vfscanf` state machine over an [`Input`] and
//! reports the values to store in a [`ScanOutcome`]. The interpreter maps
//! `items[k]` to the `k`-th non-suppressed conversion's pointer argument
//! (items always form a prefix of those conversions, because scanning stops at
//! the first failure) and returns `ret` to the program.
//!
//! `sscanf(str, fmt, ...)` is `scanf(fmt, &mut Input::new(bytes of str without
//! the NUL))`: the end of the string behaves as end of file, as in glibc.

use super::strconv::{is_c_space, strtod_prefix, strtof_prefix, strtol, strtoul};
use super::{parse_length, FormatError, Length};

/// A read cursor over the bytes of a stream (the program's stdin, or the
/// string of `sscanf`). Shared by `scanf`, `getchar` and friends so that
/// characters consumed by one are not seen by the other.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Input {
    data: Vec<u8>,
    /// Index of the next byte to read. Advanced by [`Input::getc`]; moved back
    /// by [`Input::ungetc`]. Values past the end mean end of file.
    pub pos: usize,
    /// The stream's end-of-file indicator (`feof`): set when a read finds
    /// no byte, cleared by [`Input::ungetc`].
    pub eof: bool,
}

impl Input {
    /// A cursor at the start of `bytes`.
    pub fn new(bytes: Vec<u8>) -> Self {
        Input {
            data: bytes,
            pos: 0,
            eof: false,
        }
    }

    /// `getc`: the next byte, or `None` at end of file (C's `EOF`).
    pub fn getc(&mut self) -> Option<u8> {
        let b = self.data.get(self.pos).copied();
        if b.is_some() {
            self.pos += 1;
        } else {
            self.eof = true;
        }
        b
    }

    /// The next byte without consuming it.
    pub fn peek(&self) -> Option<u8> {
        self.data.get(self.pos).copied()
    }

    /// `ungetc(c)`: makes `c` the next byte read. Pushing back the byte just
    /// read simply steps back; pushing back a different byte replaces it in
    /// the stream (like glibc's pushback, which also clears end-of-file).
    pub fn ungetc(&mut self, c: u8) {
        self.eof = false;
        if self.pos > self.data.len() {
            self.pos = self.data.len();
        }
        if self.pos > 0 {
            self.pos -= 1;
            self.data[self.pos] = c;
        } else {
            self.data.insert(0, c);
        }
    }

    /// The bytes not yet read.
    pub fn remaining(&self) -> &[u8] {
        self.data.get(self.pos..).unwrap_or(&[])
    }

    /// Whether every byte has been read.
    pub fn is_eof(&self) -> bool {
        self.pos >= self.data.len()
    }
}

/// A value produced by one successful, non-suppressed conversion.
#[derive(Debug, Clone, PartialEq)]
pub enum Scanned {
    /// `%d %i %u %o %x %X %p %n`. `value` is already converted to the
    /// destination type exactly as glibc stores it: the text is converted with
    /// `strtol` (signed conversions) or `strtoul` (unsigned), which saturate to
    /// the 64-bit range, and then cast to the destination — `int`/`unsigned`
    /// for no modifier, `short`/`unsigned short` for `h`, `signed
    /// char`/`unsigned char` for `hh`, 64-bit for `l ll q L j z t` and `%p`.
    /// So `value` is within the destination's range and the caller stores its
    /// low bytes. For `%n`, `value` is the number of bytes consumed so far
    /// (cast the same way).
    Int {
        /// The value to store.
        value: i128,
        /// Length modifier (`Length::Long` for `%p`).
        len: Length,
        /// Conversion character.
        conv: u8,
    },
    /// `%e %f %g %a` (any case). Rounded the way glibc rounds for the
    /// destination: `float` (`strtof`, correctly rounded to `f32`, widened
    /// exactly) with no modifier or `h`/`hh`; `double` for `l j z t`; for
    /// `L`/`ll`/`q` (`long double`) the correctly rounded `f64`.
    Float {
        /// The value to store.
        value: f64,
        /// Length modifier.
        len: Length,
    },
    /// `%c`: the bytes read (width, default 1; fewer if end of file came
    /// first). No NUL is stored.
    Chars(Vec<u8>),
    /// `%s` and `%[...]`: the bytes read; the caller appends a NUL.
    Str(Vec<u8>),
}

/// Result of a [`scanf`] call.
#[derive(Debug, Clone, PartialEq)]
pub struct ScanOutcome {
    /// Values to store, in order, one per successful non-suppressed
    /// conversion (including `%n`, which stores without being counted).
    pub items: Vec<Scanned>,
    /// The value `scanf` returns: the number of assignments (excluding `%n`),
    /// or -1 (`EOF`) if an input failure happened before any assignment.
    pub ret: i32,
}

/// A `[...]` scan set.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ScanSet {
    members: [bool; 256],
    negated: bool,
}

impl ScanSet {
    fn matches(&self, c: u8) -> bool {
        self.members[usize::from(c)] != self.negated
    }
}

/// One conversion of a scanf format.
#[derive(Debug, Clone, PartialEq, Eq)]
struct ScanSpec {
    suppress: bool,
    /// Maximum field width; `None` when absent (or 0, which glibc ignores).
    width: Option<u64>,
    length: Length,
    conv: u8,
    set: Option<Box<ScanSet>>,
}

/// A directive of a scanf format.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Directive {
    /// One or more whitespace characters.
    Space,
    /// An ordinary byte that must match.
    Literal(u8),
    /// A conversion (`%%` included).
    Conv(ScanSpec),
}

/// A parsed scanf format (see [`parse_scanf_format`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanFormat {
    directives: Vec<Directive>,
}

impl ScanFormat {
    /// Number of pointer arguments the format consumes (non-suppressed
    /// conversions other than `%%`, including `%n`).
    pub fn pointer_args(&self) -> usize {
        self.directives
            .iter()
            .filter(|d| matches!(d, Directive::Conv(s) if !s.suppress && s.conv != b'%'))
            .count()
    }
}

fn scan_error(fmt: &[u8], start: usize, end: usize, what: &str) -> FormatError {
    let end = end.min(fmt.len()).max(start);
    let text = String::from_utf8_lossy(fmt.get(start..end).unwrap_or(&[])).into_owned();
    FormatError {
        offset: start,
        message: format!("{what} '{text}'"),
    }
}

/// Validates and parses a scanf format without reading any input.
///
/// Supported: whitespace and ordinary characters, `%%`, `*` suppression,
/// field widths, the `'` and `I` flags (no effect in the C locale), length
/// modifiers `hh h l ll q L j z t`, conversions `d i u o x X p n c s [set]
/// [^set] e E f F g G a A`. Errors: unknown conversions, wide conversions
/// (`%lc %ls %l[ %C %S`), the `m` allocation modifier, positional arguments
/// (`%1$d`), a `%` at the end of the format, an unterminated `[`.
pub fn parse_scanf_format(fmt: &[u8]) -> Result<ScanFormat, FormatError> {
    let mut directives = Vec::new();
    let mut i = 0;
    while i < fmt.len() {
        let b = fmt[i];
        if is_c_space(b) {
            if directives.last() != Some(&Directive::Space) {
                directives.push(Directive::Space);
            }
            i += 1;
            continue;
        }
        if b != b'%' {
            directives.push(Directive::Literal(b));
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let mut width: Option<u64> = None;
        let read_width = |i: &mut usize| {
            let mut n: u64 = 0;
            while let Some(d) = fmt.get(*i).filter(|d| d.is_ascii_digit()) {
                n = n.saturating_mul(10).saturating_add(u64::from(d - b'0'));
                *i += 1;
            }
            n
        };
        let mut suppress = false;
        if fmt.get(i).is_some_and(u8::is_ascii_digit) {
            let n = read_width(&mut i);
            if fmt.get(i) == Some(&b'$') {
                return Err(scan_error(
                    fmt,
                    start,
                    i + 1,
                    "positional scanf arguments are not supported in",
                ));
            }
            width = Some(n);
        } else {
            while let Some(&f) = fmt.get(i) {
                match f {
                    b'*' => suppress = true,
                    b'\'' | b'I' => {}
                    _ => break,
                }
                i += 1;
            }
            if fmt.get(i).is_some_and(u8::is_ascii_digit) {
                width = Some(read_width(&mut i));
            }
        }
        if width == Some(0) {
            width = None;
        }
        let length = parse_length(fmt, &mut i);
        let Some(&conv) = fmt.get(i) else {
            return Err(scan_error(
                fmt,
                start,
                i,
                "incomplete scanf conversion at end of format:",
            ));
        };
        i += 1;
        let mut set = None;
        let ok = match conv {
            b'%' | b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'p' | b'n' => true,
            b'e' | b'E' | b'f' | b'F' | b'g' | b'G' | b'a' | b'A' => true,
            b'c' | b's' => length != Length::Long,
            b'[' => {
                if length == Length::Long {
                    false
                } else {
                    set = Some(Box::new(parse_scan_set(fmt, &mut i, start)?));
                    true
                }
            }
            _ => false,
        };
        if !ok {
            return Err(scan_error(fmt, start, i, "unsupported scanf conversion"));
        }
        directives.push(Directive::Conv(ScanSpec {
            suppress,
            width,
            length,
            conv,
            set,
        }));
    }
    Ok(ScanFormat { directives })
}

/// The scan set of a `%[` conversion, from just after the `[` to its closing
/// `]` (advances `*i` past it); `start` is the offset of the `%`.
fn parse_scan_set(fmt: &[u8], i: &mut usize, start: usize) -> Result<ScanSet, FormatError> {
    let mut members = [false; 256];
    let mut negated = false;
    if fmt.get(*i) == Some(&b'^') {
        negated = true;
        *i += 1;
    }
    if let Some(&first @ (b']' | b'-')) = fmt.get(*i) {
        members[usize::from(first)] = true;
        *i += 1;
    }
    loop {
        let Some(&fc) = fmt.get(*i) else {
            return Err(scan_error(fmt, start, *i, "unterminated scanf scan set"));
        };
        *i += 1;
        if fc == b']' {
            break;
        }
        let next = fmt.get(*i).copied();
        let prev = fmt[*i - 2];
        match next {
            Some(hi) if fc == b'-' && hi != b']' && prev <= hi => {
                // Characters from the one before the '-' up to
                // (not including) the next one, which the
                // next iteration adds.
                for ch in prev..hi {
                    members[usize::from(ch)] = true;
                }
            }
            _ => members[usize::from(fc)] = true,
        }
    }
    Ok(ScanSet { members, negated })
}

/// Outcome of a failed conversion step.
enum Failure {
    /// Input failure (end of file): `ret` becomes -1 if nothing was assigned.
    Input,
    /// Matching failure: `ret` is the count so far.
    Matching,
}

/// The scanning state: glibc's `inchar`/`ungetc` over the input, with the
/// end-of-file indication sticky for the rest of the call.
struct Scanner<'a> {
    input: &'a mut Input,
    start: usize,
    eof: bool,
}

impl Scanner<'_> {
    fn inchar(&mut self) -> Option<u8> {
        if self.eof {
            return None;
        }
        let c = self.input.getc();
        if c.is_none() {
            self.eof = true;
        }
        c
    }

    fn ungetc(&mut self, c: Option<u8>) {
        if let Some(b) = c {
            self.input.ungetc(b);
        }
    }

    fn read_in(&self) -> usize {
        self.input.pos.saturating_sub(self.start)
    }
}

fn is_space(c: Option<u8>) -> bool {
    c.is_some_and(is_c_space)
}

fn lower(c: Option<u8>) -> Option<u8> {
    c.map(|b| b.to_ascii_lowercase())
}

/// Casts a signed `strtol` result to the destination type of `len`.
fn store_signed(v: i64, len: Length) -> i128 {
    match len {
        Length::Char => i128::from(v as i8),
        Length::Short => i128::from(v as i16),
        Length::None => i128::from(v as i32),
        _ => i128::from(v),
    }
}

/// Casts an unsigned `strtoul` result to the destination type of `len`.
fn store_unsigned(v: u64, len: Length) -> i128 {
    match len {
        Length::Char => i128::from(v as u8),
        Length::Short => i128::from(v as u16),
        Length::None => i128::from(v as u32),
        _ => i128::from(v),
    }
}

/// `width` as glibc keeps it: -1 for "no maximum".
fn glibc_width(spec: &ScanSpec) -> i64 {
    match spec.width {
        Some(w) => i64::try_from(w).unwrap_or(i64::MAX),
        None => -1,
    }
}

/// Runs a scanf format over `input`.
///
/// Returns `Err` only for formats [`parse_scanf_format`] rejects, in which
/// case no input is consumed. Otherwise follows glibc exactly: characters
/// consumed by a failing conversion stay consumed (e.g. `%d` on `-x` eats the
/// `-`; `%x` on `0xg` stores 0 and eats `0x`), the offending character of a
/// matching failure is pushed back, integer overflow saturates through
/// `strtol`/`strtoul` and is then truncated to the destination type, and `%c`
/// cut short by end of file stores the bytes read and counts.
pub fn scanf(fmt: &[u8], input: &mut Input) -> Result<ScanOutcome, FormatError> {
    let format = parse_scanf_format(fmt)?;
    Ok(run_format(&format, input))
}

/// Runs an already parsed format over `input` (see [`scanf`]).
pub fn run_format(format: &ScanFormat, input: &mut Input) -> ScanOutcome {
    let start = input.pos;
    let mut sc = Scanner {
        input,
        start,
        eof: false,
    };
    let mut items = Vec::new();
    let mut done: i32 = 0;
    let mut skip_space = false;
    for directive in &format.directives {
        let step = match directive {
            Directive::Space => {
                skip_space = true;
                Ok(())
            }
            Directive::Literal(fc) => {
                let r = match_literal(&mut sc, *fc, skip_space);
                skip_space = false;
                r
            }
            Directive::Conv(spec) => {
                if skip_space || !matches!(spec.conv, b'[' | b'c' | b'n') {
                    let mut c;
                    loop {
                        c = sc.inchar();
                        if !is_space(c) {
                            break;
                        }
                    }
                    sc.ungetc(c);
                    skip_space = false;
                }
                convert(&mut sc, spec, &mut items, &mut done)
            }
        };
        match step {
            Ok(()) => {}
            Err(Failure::Input) => {
                return ScanOutcome {
                    items,
                    ret: if done == 0 { -1 } else { done },
                }
            }
            Err(Failure::Matching) => return ScanOutcome { items, ret: done },
        }
    }
    if skip_space {
        let mut c;
        loop {
            c = sc.inchar();
            if !is_space(c) {
                break;
            }
        }
        sc.ungetc(c);
    }
    ScanOutcome { items, ret: done }
}

fn match_literal(sc: &mut Scanner, fc: u8, skip_space: bool) -> Result<(), Failure> {
    let mut c = sc.inchar();
    if c.is_none() {
        return Err(Failure::Input);
    }
    if skip_space {
        while is_space(c) {
            c = sc.inchar();
            if c.is_none() {
                return Err(Failure::Input);
            }
        }
    }
    if c != Some(fc) {
        sc.ungetc(c);
        return Err(Failure::Matching);
    }
    Ok(())
}

fn convert(
    sc: &mut Scanner,
    spec: &ScanSpec,
    items: &mut Vec<Scanned>,
    done: &mut i32,
) -> Result<(), Failure> {
    match spec.conv {
        b'%' => {
            let c = sc.inchar();
            if c.is_none() {
                return Err(Failure::Input);
            }
            if c != Some(b'%') {
                sc.ungetc(c);
                return Err(Failure::Matching);
            }
            Ok(())
        }
        b'n' => {
            if !spec.suppress {
                let n = sc.read_in() as i64;
                items.push(Scanned::Int {
                    value: store_signed(n, spec.length),
                    len: spec.length,
                    conv: b'n',
                });
            }
            Ok(())
        }
        b'c' => {
            let mut width = spec.width.unwrap_or(1);
            let Some(mut ch) = sc.inchar() else {
                return Err(Failure::Input);
            };
            let mut bytes = Vec::new();
            loop {
                if !spec.suppress {
                    bytes.push(ch);
                }
                width -= 1;
                if width == 0 {
                    break;
                }
                match sc.inchar() {
                    Some(next) => ch = next,
                    None => break,
                }
            }
            if !spec.suppress {
                items.push(Scanned::Chars(bytes));
                *done += 1;
            }
            Ok(())
        }
        b's' => {
            let mut width = spec.width;
            let mut c = sc.inchar();
            if c.is_none() {
                return Err(Failure::Input);
            }
            let mut bytes = Vec::new();
            while let Some(ch) = c {
                if is_c_space(ch) {
                    sc.ungetc(c);
                    break;
                }
                if !spec.suppress {
                    bytes.push(ch);
                }
                if let Some(w) = width.as_mut() {
                    *w -= 1;
                    if *w == 0 {
                        break;
                    }
                }
                c = sc.inchar();
            }
            if !spec.suppress {
                items.push(Scanned::Str(bytes));
                *done += 1;
            }
            Ok(())
        }
        b'[' => {
            let Some(set) = spec.set.as_deref() else {
                return Err(Failure::Matching);
            };
            let mut width = spec.width;
            let mut c = sc.inchar();
            if c.is_none() {
                return Err(Failure::Input);
            }
            let mut bytes = Vec::new();
            let mut count = 0usize;
            while let Some(ch) = c {
                if !set.matches(ch) {
                    sc.ungetc(c);
                    break;
                }
                count += 1;
                if !spec.suppress {
                    bytes.push(ch);
                }
                if let Some(w) = width.as_mut() {
                    *w -= 1;
                    if *w == 0 {
                        break;
                    }
                }
                c = sc.inchar();
            }
            if count == 0 {
                return Err(Failure::Matching);
            }
            if !spec.suppress {
                items.push(Scanned::Str(bytes));
                *done += 1;
            }
            Ok(())
        }
        b'd' => scan_int(sc, spec, 10, true, items, done),
        b'i' => scan_int(sc, spec, 0, true, items, done),
        b'u' => scan_int(sc, spec, 10, false, items, done),
        b'o' => scan_int(sc, spec, 8, false, items, done),
        b'x' | b'X' | b'p' => scan_int(sc, spec, 16, false, items, done),
        _ => scan_float(sc, spec, items, done),
    }
}

fn scan_int(
    sc: &mut Scanner,
    spec: &ScanSpec,
    mut base: u32,
    signed: bool,
    items: &mut Vec<Scanned>,
    done: &mut i32,
) -> Result<(), Failure> {
    let pointer = spec.conv == b'p';
    let mut width = glibc_width(spec);
    let mut buf: Vec<u8> = Vec::new();
    let mut c = sc.inchar();
    if c.is_none() {
        return Err(Failure::Input);
    }
    if let Some(sign @ (b'-' | b'+')) = c {
        buf.push(sign);
        if width > 0 {
            width -= 1;
        }
        c = sc.inchar();
    }
    if width != 0 && c == Some(b'0') {
        if width > 0 {
            width -= 1;
        }
        buf.push(b'0');
        c = sc.inchar();
        if width != 0 && lower(c) == Some(b'x') {
            if base == 0 {
                base = 16;
            }
            if base == 16 {
                if width > 0 {
                    width -= 1;
                }
                c = sc.inchar();
            }
        } else if base == 0 {
            base = 8;
        }
    }
    if base == 0 {
        base = 10;
    }
    while let Some(ch) = c {
        if width == 0 {
            break;
        }
        let is_digit = if base == 16 {
            ch.is_ascii_hexdigit()
        } else {
            ch.is_ascii_digit() && u32::from(ch - b'0') < base
        };
        if !is_digit {
            break;
        }
        buf.push(ch);
        if width > 0 {
            width -= 1;
        }
        c = sc.inchar();
    }
    let no_number = buf.is_empty() || (buf.len() == 1 && matches!(buf[0], b'+' | b'-'));
    if no_number {
        let mut nil = false;
        // glibc only tries "(nil)" when the field can hold all five bytes.
        if buf.is_empty() && pointer && !(0..5).contains(&width) && c == Some(b'(') {
            nil = true;
            for expect in [b'n', b'i', b'l'] {
                c = sc.inchar();
                if lower(c) != Some(expect) {
                    nil = false;
                    break;
                }
            }
            if nil {
                c = sc.inchar();
                nil = c == Some(b')');
            }
        }
        if nil {
            buf.push(b'0');
        } else {
            sc.ungetc(c);
            return Err(Failure::Matching);
        }
    } else {
        sc.ungetc(c);
    }
    let (value, consumed) = if signed {
        let (v, n, _) = strtol(&buf, base);
        (store_signed(v, spec.length), n)
    } else {
        let (v, n, _) = strtoul(&buf, base);
        let len = if pointer { Length::Long } else { spec.length };
        (store_unsigned(v, len), n)
    };
    if consumed == 0 {
        return Err(Failure::Matching);
    }
    if !spec.suppress {
        items.push(Scanned::Int {
            value,
            len: if pointer { Length::Long } else { spec.length },
            conv: spec.conv,
        });
        *done += 1;
    }
    Ok(())
}

/// The digits of a decimal or hexadecimal floating number (after its sign,
/// `c` being the first character), as glibc's scanf reads them into `buf`.
fn scan_float_digits(
    sc: &mut Scanner,
    mut c: Option<u8>,
    width: &mut i64,
    buf: &mut Vec<u8>,
    got_sign: bool,
) -> Result<(), Failure> {
    let mut exp_char = b'e';
    let mut hexa = false;
    let mut got_digit = false;
    let mut got_dot = false;
    let mut got_e = false;
    if *width != 0 && c == Some(b'0') {
        buf.push(b'0');
        c = sc.inchar();
        if *width > 0 {
            *width -= 1;
        }
        if *width != 0 && lower(c) == Some(b'x') {
            buf.extend(c);
            hexa = true;
            exp_char = b'p';
            c = sc.inchar();
            if *width > 0 {
                *width -= 1;
            }
        } else {
            got_digit = true;
        }
    }
    loop {
        match c {
            Some(ch) if ch.is_ascii_digit() => {
                buf.push(ch);
                got_digit = true;
            }
            Some(ch) if !got_e && hexa && ch.is_ascii_hexdigit() => {
                buf.push(ch);
                got_digit = true;
            }
            Some(ch @ (b'-' | b'+')) if got_e && buf.last() == Some(&exp_char) => {
                buf.push(ch);
            }
            Some(ch) if got_digit && !got_e && ch.to_ascii_lowercase() == exp_char => {
                buf.push(exp_char);
                got_e = true;
                got_dot = true;
            }
            Some(b'.') if !got_dot => {
                buf.push(b'.');
                got_dot = true;
            }
            _ => {
                sc.ungetc(c);
                break;
            }
        }
        if *width == 0 {
            break;
        }
        c = sc.inchar();
        if c.is_none() {
            break;
        }
        if *width > 0 {
            *width -= 1;
        }
    }
    let sign_len = usize::from(got_sign);
    if buf.len() == sign_len || (hexa && buf.len() == 2 + sign_len) {
        return Err(Failure::Matching);
    }
    Ok(())
}

fn scan_float(
    sc: &mut Scanner,
    spec: &ScanSpec,
    items: &mut Vec<Scanned>,
    done: &mut i32,
) -> Result<(), Failure> {
    let mut width = glibc_width(spec);
    let mut buf: Vec<u8> = Vec::new();
    let mut c = sc.inchar();
    if width > 0 {
        width -= 1;
    }
    if c.is_none() {
        return Err(Failure::Input);
    }
    let mut got_sign = false;
    if let Some(sign @ (b'-' | b'+')) = c {
        got_sign = true;
        buf.push(sign);
        if width == 0 {
            return Err(Failure::Matching);
        }
        c = sc.inchar();
        if c.is_none() {
            return Err(Failure::Matching);
        }
        if width > 0 {
            width -= 1;
        }
    }
    // Reads the next character of a keyword ("nan", "inf", "inity"):
    // matching failure unless it is `expect` (case-insensitive).
    let keyword = |sc: &mut Scanner, c: &mut Option<u8>, width: &mut i64, expect: u8| {
        if *width == 0 {
            return false;
        }
        *c = sc.inchar();
        if lower(*c) != Some(expect) {
            return false;
        }
        if *width > 0 {
            *width -= 1;
        }
        true
    };
    if lower(c) == Some(b'n') {
        buf.extend(c);
        for expect in [b'a', b'n'] {
            if !keyword(sc, &mut c, &mut width, expect) {
                return Err(Failure::Matching);
            }
            buf.extend(c);
        }
    } else if lower(c) == Some(b'i') {
        buf.extend(c);
        for expect in [b'n', b'f'] {
            if !keyword(sc, &mut c, &mut width, expect) {
                return Err(Failure::Matching);
            }
            buf.extend(c);
        }
        if width != 0 {
            c = sc.inchar();
            if c.is_some() {
                if lower(c) == Some(b'i') {
                    if width > 0 {
                        width -= 1;
                    }
                    buf.extend(c);
                    for expect in [b'n', b'i', b't', b'y'] {
                        if !keyword(sc, &mut c, &mut width, expect) {
                            return Err(Failure::Matching);
                        }
                        buf.extend(c);
                    }
                } else {
                    sc.ungetc(c);
                }
            }
        }
    } else {
        scan_float_digits(sc, c, &mut width, &mut buf, got_sign)?;
    }
    let as_double = !matches!(spec.length, Length::None | Length::Char | Length::Short);
    let (value, consumed) = if as_double {
        strtod_prefix(&buf)
    } else {
        let (v, n) = strtof_prefix(&buf);
        (f64::from(v), n)
    };
    if consumed == 0 {
        return Err(Failure::Matching);
    }
    if !spec.suppress {
        items.push(Scanned::Float {
            value,
            len: spec.length,
        });
        *done += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic() {
        let mut input = Input::new(b"12 abc 3.5\n".to_vec());
        let out = scanf(b"%d %s %lf", &mut input).unwrap();
        assert_eq!(out.ret, 3);
        assert_eq!(
            out.items,
            vec![
                Scanned::Int {
                    value: 12,
                    len: Length::None,
                    conv: b'd'
                },
                Scanned::Str(b"abc".to_vec()),
                Scanned::Float {
                    value: 3.5,
                    len: Length::Long
                },
            ]
        );
        assert_eq!(input.getc(), Some(b'\n'));
        assert_eq!(input.getc(), None);
    }

    #[test]
    fn eof_and_errors() {
        let mut input = Input::new(b"   ".to_vec());
        assert_eq!(scanf(b"%d", &mut input).unwrap().ret, -1);
        let mut input = Input::new(b"x".to_vec());
        assert!(scanf(b"%y", &mut input).is_err());
        assert_eq!(input.pos, 0);
    }
}
