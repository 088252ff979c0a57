//! String-to-number conversions with glibc semantics: `atoi`, `atol`,
//! `strtol`, `strtoul`, `strtod`, `strtof`, `atof`.
//!
//! All functions take the bytes of a C string *without* its terminating NUL
//! (a NUL inside the slice also ends the number, as it would in C) and never
//! panic. Whitespace is the C-locale `isspace` set: space, `\t`, `\n`, `\v`,
//! `\f`, `\r`.

/// C-locale `isspace`.
pub fn is_c_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// Value of `b` as a digit in bases up to 36 (`0-9`, `a-z`, `A-Z`).
fn digit_value(b: u8) -> Option<u32> {
    match b {
        b'0'..=b'9' => Some(u32::from(b - b'0')),
        b'a'..=b'z' => Some(u32::from(b - b'a') + 10),
        b'A'..=b'Z' => Some(u32::from(b - b'A') + 10),
        _ => None,
    }
}

/// Result of the shared `strtol`/`strtoul` scanner.
struct IntScan {
    negative: bool,
    magnitude: u64,
    overflow: bool,
    consumed: usize,
}

/// The common part of glibc's `strtol` family: whitespace, sign, optional
/// `0x` prefix (bases 0 and 16), digits. `consumed == 0` means no conversion.
fn scan_integer(s: &[u8], base: u32) -> IntScan {
    let none = IntScan {
        negative: false,
        magnitude: 0,
        overflow: false,
        consumed: 0,
    };
    if base == 1 || base > 36 {
        return none;
    }
    let at = |i: usize| s.get(i).copied().unwrap_or(0);
    let mut i = 0;
    while is_c_space(at(i)) {
        i += 1;
    }
    let mut negative = false;
    if at(i) == b'-' {
        negative = true;
        i += 1;
    } else if at(i) == b'+' {
        i += 1;
    }
    let mut base = base;
    if at(i) == b'0' {
        if (base == 0 || base == 16) && (at(i + 1) | 0x20) == b'x' {
            i += 2;
            base = 16;
        } else if base == 0 {
            base = 8;
        }
    } else if base == 0 {
        base = 10;
    }
    let digits_start = i;
    let mut magnitude: u64 = 0;
    let mut overflow = false;
    while let Some(d) = digit_value(at(i)) {
        if d >= base {
            break;
        }
        match magnitude
            .checked_mul(u64::from(base))
            .and_then(|m| m.checked_add(u64::from(d)))
        {
            Some(m) => magnitude = m,
            None => overflow = true,
        }
        i += 1;
    }
    if i == digits_start {
        // No digits. glibc special case: "0x" followed by a non-hex-digit
        // converts the "0" and leaves the end pointer at the 'x'.
        if digits_start >= 2
            && (at(digits_start - 1) | 0x20) == b'x'
            && at(digits_start - 2) == b'0'
        {
            return IntScan {
                consumed: digits_start - 1,
                ..none
            };
        }
        return none;
    }
    IntScan {
        negative,
        magnitude,
        overflow,
        consumed: i,
    }
}

/// glibc `strtol` (64-bit `long`). Returns `(value, consumed, erange)`;
/// `consumed == 0` means no conversion was performed (value 0). Out-of-range
/// values saturate to `i64::MIN`/`i64::MAX` with `erange` set. An invalid
/// base (1 or > 36) yields `(0, 0, false)` (glibc sets `EINVAL`).
pub fn strtol(s: &[u8], base: u32) -> (i64, usize, bool) {
    let r = scan_integer(s, base);
    if r.consumed == 0 {
        return (0, r.consumed, false);
    }
    if r.negative {
        if r.overflow || r.magnitude > 1u64 << 63 {
            (i64::MIN, r.consumed, true)
        } else {
            ((r.magnitude as i64).wrapping_neg(), r.consumed, false)
        }
    } else if r.overflow || r.magnitude > i64::MAX as u64 {
        (i64::MAX, r.consumed, true)
    } else {
        (r.magnitude as i64, r.consumed, false)
    }
}

/// glibc `strtoul` (64-bit `unsigned long`). Returns `(value, consumed,
/// erange)`. A leading `-` negates the value modulo 2^64 (as C does);
/// overflow yields `u64::MAX` with `erange` set.
pub fn strtoul(s: &[u8], base: u32) -> (u64, usize, bool) {
    let r = scan_integer(s, base);
    if r.consumed == 0 {
        return (0, r.consumed, false);
    }
    if r.overflow {
        (u64::MAX, r.consumed, true)
    } else if r.negative {
        (r.magnitude.wrapping_neg(), r.consumed, false)
    } else {
        (r.magnitude, r.consumed, false)
    }
}

/// glibc `atoi`: `(int) strtol(s, NULL, 10)` — saturation to the `long`
/// range first, then truncation to 32 bits.
pub fn atoi(s: &[u8]) -> i32 {
    strtol(s, 10).0 as i32
}

/// glibc `atol` (and `atoll`): `strtol(s, NULL, 10)`.
pub fn atol(s: &[u8]) -> i64 {
    strtol(s, 10).0
}

/// glibc `atof`: `strtod(s, NULL)`.
pub fn atof(s: &[u8]) -> f64 {
    strtod_prefix(s).0
}

/// A number recognised by the `strtod` grammar, before rounding.
enum FloatText {
    Inf,
    /// `payload` is the value of the `nan(...)` sequence when glibc would use
    /// it as a payload.
    Nan {
        payload: Option<u64>,
    },
    /// Significant decimal digits (ASCII, no leading zeros; empty means zero)
    /// times ten to `exp10`.
    Decimal {
        digits: Vec<u8>,
        exp10: i64,
    },
    /// `mant` (up to 64 significant bits) times two to `exp2`, plus a sticky
    /// flag for non-zero bits that did not fit.
    Hex {
        mant: u64,
        exp2: i64,
        sticky: bool,
    },
}

/// Exponent digits are accumulated with saturation at this magnitude; any
/// larger exponent already over- or underflows every format.
const EXP_LIMIT: i64 = 1 << 40;

/// Parses optional exponent digits after an exponent character at `s[i]`
/// (`e`/`p` already checked by the caller). Returns `(value, end)` or `None`
/// when no digits follow (the exponent character is then not consumed).
fn parse_exponent(s: &[u8], i: usize) -> Option<(i64, usize)> {
    let at = |k: usize| s.get(k).copied().unwrap_or(0);
    let mut j = i + 1;
    let mut neg = false;
    if at(j) == b'-' {
        neg = true;
        j += 1;
    } else if at(j) == b'+' {
        j += 1;
    }
    if !at(j).is_ascii_digit() {
        return None;
    }
    let mut e: i64 = 0;
    while at(j).is_ascii_digit() {
        e = (e * 10 + i64::from(at(j) - b'0')).min(EXP_LIMIT);
        j += 1;
    }
    Some((if neg { -e } else { e }, j))
}

/// Recognises the glibc `strtod` grammar (C locale). Returns the sign, the
/// parsed number and the number of bytes consumed (0: no conversion).
fn scan_float(s: &[u8]) -> (bool, FloatText, usize) {
    let zero = FloatText::Decimal {
        digits: Vec::new(),
        exp10: 0,
    };
    let at = |k: usize| s.get(k).copied().unwrap_or(0);
    let mut i = 0;
    while is_c_space(at(i)) {
        i += 1;
    }
    let mut negative = false;
    if at(i) == b'-' {
        negative = true;
        i += 1;
    } else if at(i) == b'+' {
        i += 1;
    }
    let lower = |k: usize| at(k).to_ascii_lowercase();
    // inf / infinity
    if lower(i) == b'i' && lower(i + 1) == b'n' && lower(i + 2) == b'f' {
        let word = b"inity";
        let full = (0..word.len()).all(|k| lower(i + 3 + k) == word[k]);
        let end = if full { i + 8 } else { i + 3 };
        return (negative, FloatText::Inf, end);
    }
    // nan / nan(n-char-sequence)
    if lower(i) == b'n' && lower(i + 1) == b'a' && lower(i + 2) == b'n' {
        let mut end = i + 3;
        let mut payload = None;
        if at(end) == b'(' {
            let seq_start = end + 1;
            let mut k = seq_start;
            while at(k).is_ascii_alphanumeric() || at(k) == b'_' {
                k += 1;
            }
            if at(k) == b')' {
                let seq = &s[seq_start..k];
                let (v, used, _) = strtoul(seq, 0);
                if used == seq.len() {
                    payload = Some(v);
                }
                end = k + 1;
            }
        }
        return (negative, FloatText::Nan { payload }, end);
    }
    // Hexadecimal: "0x" followed by a hex digit, or by '.' and a hex digit.
    if at(i) == b'0' && lower(i + 1) == b'x' {
        let j = i + 2;
        let valid = at(j).is_ascii_hexdigit() || (at(j) == b'.' && at(j + 1).is_ascii_hexdigit());
        if !valid {
            // Only the "0" is converted.
            return (negative, zero, i + 1);
        }
        let mut k = j;
        let mut mant: u64 = 0;
        let mut exp2: i64 = 0;
        let mut sticky = false;
        let mut seen_dot = false;
        loop {
            let c = at(k);
            if c == b'.' && !seen_dot {
                seen_dot = true;
                k += 1;
                continue;
            }
            let Some(d) = (if c.is_ascii_hexdigit() {
                digit_value(c)
            } else {
                None
            }) else {
                break;
            };
            if mant == 0 && d == 0 {
                if seen_dot {
                    exp2 -= 4;
                }
            } else if mant < 1u64 << 60 {
                mant = (mant << 4) | u64::from(d);
                if seen_dot {
                    exp2 -= 4;
                }
            } else {
                sticky |= d != 0;
                if !seen_dot {
                    exp2 += 4;
                }
            }
            exp2 = exp2.clamp(-EXP_LIMIT, EXP_LIMIT);
            k += 1;
        }
        if lower(k) == b'p' {
            if let Some((e, end)) = parse_exponent(s, k) {
                exp2 = (exp2 + e).clamp(-4 * EXP_LIMIT, 4 * EXP_LIMIT);
                k = end;
            }
        }
        return (negative, FloatText::Hex { mant, exp2, sticky }, k);
    }
    // Decimal.
    let mut k = i;
    let mut digits = Vec::new();
    let mut exp10: i64 = 0;
    let mut any_digit = false;
    let mut seen_dot = false;
    loop {
        let c = at(k);
        if c == b'.' && !seen_dot {
            seen_dot = true;
            k += 1;
            continue;
        }
        if !c.is_ascii_digit() {
            break;
        }
        any_digit = true;
        if !(digits.is_empty() && c == b'0') {
            digits.push(c);
        }
        if seen_dot {
            exp10 -= 1;
        }
        k += 1;
    }
    if !any_digit {
        return (false, zero, 0);
    }
    if lower(k) == b'e' {
        if let Some((e, end)) = parse_exponent(s, k) {
            exp10 += e;
            k = end;
        }
    }
    // Drop trailing zeros (keeps the digit string short for long inputs).
    while digits.last() == Some(&b'0') {
        digits.pop();
        exp10 += 1;
    }
    (negative, FloatText::Decimal { digits, exp10 }, k)
}

/// Rounds `mant * 2^exp2` (+ a sticky epsilon) to a binary format with
/// `prec` significand bits and minimum normal exponent `emin` (exponent of the
/// leading bit), nearest-even. Returns `None` on overflow, otherwise
/// `(sig, lsb_exp)` with `value = sig * 2^lsb_exp`, `sig < 2^prec`.
fn round_binary(
    mant: u64,
    exp2: i64,
    sticky: bool,
    prec: u32,
    emin: i64,
    emax: i64,
) -> Option<(u64, i64)> {
    if mant == 0 {
        return Some((0, 0));
    }
    let nbits = i64::from(64 - mant.leading_zeros());
    let top = exp2 + nbits - 1;
    let mut lsb = top.max(emin) - (i64::from(prec) - 1);
    let shift = lsb - exp2;
    let mut sig: u64;
    if shift <= 0 {
        // Exact (the sticky part is below the retained 64 bits, which are
        // never all significant here because prec < 64 - 4).
        sig = mant << ((-shift) as u32);
    } else if shift > 64 {
        // Everything is below half an ulp.
        sig = 0;
    } else {
        let wide = u128::from(mant);
        let rem = wide & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        sig = (wide >> shift) as u64;
        let up = rem > half || (rem == half && (sticky || sig & 1 == 1));
        if up {
            sig += 1;
            if sig == 1u64 << prec {
                sig >>= 1;
                lsb += 1;
            }
        }
    }
    if sig != 0 && lsb + i64::from(prec) - 1 > emax {
        return None;
    }
    Some((sig, lsb))
}

fn hex_to_f64(mant: u64, exp2: i64, sticky: bool) -> f64 {
    match round_binary(mant, exp2, sticky, 53, -1022, 1023) {
        None => f64::INFINITY,
        Some((0, _)) => 0.0,
        Some((sig, lsb)) => {
            if sig >= 1u64 << 52 {
                let biased = (lsb + 52 + 1023) as u64;
                f64::from_bits((biased << 52) | (sig & ((1u64 << 52) - 1)))
            } else {
                // Subnormal: lsb == -1074.
                f64::from_bits(sig)
            }
        }
    }
}

fn hex_to_f32(mant: u64, exp2: i64, sticky: bool) -> f32 {
    match round_binary(mant, exp2, sticky, 24, -126, 127) {
        None => f32::INFINITY,
        Some((0, _)) => 0.0,
        Some((sig, lsb)) => {
            let sig = sig as u32;
            if sig >= 1u32 << 23 {
                let biased = (lsb + 23 + 127) as u32;
                f32::from_bits((biased << 23) | (sig & ((1u32 << 23) - 1)))
            } else {
                f32::from_bits(sig)
            }
        }
    }
}

/// Builds a literal for Rust's correctly rounded float parser (`str::parse`
/// rounds to nearest-even, like glibc in the default rounding mode). The
/// literal has the form `0.DIGITSeM` so that its explicit exponent stays
/// small whatever the number of digits. Returns `Err(false)` when the value
/// certainly underflows to zero and `Err(true)` when it certainly overflows,
/// for both `f32` and `f64`.
fn decimal_literal(digits: &[u8], exp10: i64) -> Result<String, bool> {
    if digits.is_empty() {
        return Err(false);
    }
    let magnitude = exp10.saturating_add(digits.len() as i64);
    if magnitude > 400 {
        return Err(true);
    }
    if magnitude < -400 {
        return Err(false);
    }
    let mut text = String::with_capacity(digits.len() + 24);
    text.push_str("0.");
    for &d in digits {
        text.push(char::from(d));
    }
    text.push('e');
    text.push_str(&magnitude.to_string());
    Ok(text)
}

/// glibc `strtod`: returns the value and the number of bytes consumed (0 if
/// no conversion could be performed, in which case the value is 0.0).
/// Accepts leading whitespace, a sign, decimal numbers with optional
/// exponent, hexadecimal floats (`0x1.8p3`, exponent optional), `inf`,
/// `infinity`, `nan` and `nan(n-char-sequence)` (case-insensitive).
/// Results are correctly rounded (round-to-nearest-even), overflow gives
/// ±inf and underflow ±0 or a subnormal, exactly as glibc.
pub fn strtod_prefix(s: &[u8]) -> (f64, usize) {
    let (negative, text, consumed) = scan_float(s);
    if consumed == 0 {
        return (0.0, 0);
    }
    let magnitude = match text {
        FloatText::Inf => f64::INFINITY,
        FloatText::Nan { payload } => {
            let mut bits = 0x7ff8_0000_0000_0000u64;
            if let Some(p) = payload {
                let p = p & ((1u64 << 51) - 1);
                if p != 0 {
                    bits |= p;
                }
            }
            f64::from_bits(bits)
        }
        FloatText::Hex { mant, exp2, sticky } => hex_to_f64(mant, exp2, sticky),
        FloatText::Decimal { digits, exp10 } => match decimal_literal(&digits, exp10) {
            Ok(text) => text.parse::<f64>().unwrap_or(0.0),
            Err(true) => f64::INFINITY,
            Err(false) => 0.0,
        },
    };
    let value = if negative {
        f64::from_bits(magnitude.to_bits() | (1u64 << 63))
    } else {
        magnitude
    };
    (value, consumed)
}

/// glibc `strtof`: like [`strtod_prefix`] but rounds directly to `f32`
/// (no double rounding through `f64`).
pub fn strtof_prefix(s: &[u8]) -> (f32, usize) {
    let (negative, text, consumed) = scan_float(s);
    if consumed == 0 {
        return (0.0, 0);
    }
    let magnitude = match text {
        FloatText::Inf => f32::INFINITY,
        FloatText::Nan { payload } => {
            let mut bits = 0x7fc0_0000u32;
            if let Some(p) = payload {
                let p = (p & ((1u64 << 22) - 1)) as u32;
                if p != 0 {
                    bits |= p;
                }
            }
            f32::from_bits(bits)
        }
        FloatText::Hex { mant, exp2, sticky } => hex_to_f32(mant, exp2, sticky),
        FloatText::Decimal { digits, exp10 } => match decimal_literal(&digits, exp10) {
            Ok(text) => text.parse::<f32>().unwrap_or(0.0),
            Err(true) => f32::INFINITY,
            Err(false) => 0.0,
        },
    };
    let value = if negative {
        f32::from_bits(magnitude.to_bits() | (1u32 << 31))
    } else {
        magnitude
    };
    (value, consumed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_integers() {
        assert_eq!(atoi(b"  -42xyz"), -42);
        assert_eq!(atoi(b"2147483648"), -2147483648);
        assert_eq!(atoi(b"99999999999999999999"), -1);
        assert_eq!(atol(b"-9223372036854775809"), i64::MIN);
        assert_eq!(strtol(b"0xg", 0), (0, 1, false));
        assert_eq!(strtoul(b"-1", 10), (u64::MAX, 2, false));
    }

    #[test]
    fn basic_floats() {
        assert_eq!(strtod_prefix(b"0x1.8p3"), (12.0, 7));
        assert_eq!(strtod_prefix(b"1e+"), (1.0, 1));
        assert_eq!(strtod_prefix(b"."), (0.0, 0));
        assert_eq!(strtod_prefix(b"0x.").1, 1);
        assert_eq!(strtof_prefix(b"0.1").0, 0.1f32);
    }
}
