//! Decoding of C literals: integer and floating constants, character
//! constants and string literals.

use faultline_ir::{FloatKind, IntKind};

/// A decoded numeric constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Number {
    /// Value and C type (C11 6.4.4.1 typing rules).
    Int(u64, IntKind),
    Float(f64, FloatKind),
}

fn is_float_text(t: &str) -> bool {
    let lower = t.to_ascii_lowercase();
    if lower.starts_with("0x") {
        lower.contains('.') || lower.contains('p')
    } else {
        lower.contains('.') || lower.contains('e')
    }
}

/// Parses a preprocessing number as a C constant.
pub fn parse_number(text: &str) -> Result<Number, String> {
    if is_float_text(text) {
        parse_float(text)
    } else {
        parse_int(text)
    }
}

fn parse_int(text: &str) -> Result<Number, String> {
    let b = text.as_bytes();
    let (radix, start, base_name) = if b.len() > 1 && b[0] == b'0' && (b[1] == b'x' || b[1] == b'X')
    {
        (16u32, 2usize, "hexadecimal")
    } else if b.len() > 1 && b[0] == b'0' && (b[1] == b'b' || b[1] == b'B') {
        (2, 2, "binary")
    } else if b.len() > 1 && b[0] == b'0' {
        (8, 1, "octal")
    } else {
        (10, 0, "decimal")
    };
    let mut i = start;
    let mut value: u128 = 0;
    let mut digits = 0;
    while i < b.len() && b[i].is_ascii_alphanumeric() {
        let c = b[i] as char;
        let Some(d) = c.to_digit(16) else { break };
        if radix == 16 || c.is_ascii_digit() {
            if d >= radix {
                return Err(format!("invalid digit '{c}' in {base_name} constant"));
            }
        } else {
            break;
        }
        value = value
            .saturating_mul(radix as u128)
            .saturating_add(d as u128);
        digits += 1;
        i += 1;
    }
    if digits == 0 && radix != 8 {
        return Err(format!("invalid {base_name} constant '{text}'"));
    }
    let suffix = text[i..].to_ascii_lowercase();
    let (uns, longs) = match suffix.as_str() {
        "" => (false, 0),
        "u" => (true, 0),
        "l" => (false, 1),
        "ul" | "lu" => (true, 1),
        "ll" => (false, 2),
        "ull" | "llu" => (true, 2),
        _ => {
            return Err(format!(
                "invalid suffix '{}' on integer constant",
                &text[i..]
            ))
        }
    };
    if value > u64::MAX as u128 {
        return Err("integer literal is too large to be represented in any integer type".into());
    }
    use IntKind::*;
    let dec = radix == 10;
    let candidates: &[IntKind] = match (uns, longs, dec) {
        (false, 0, true) => &[Int, Long, LongLong, ULongLong],
        (false, 0, false) => &[Int, UInt, Long, ULong, LongLong, ULongLong],
        (true, 0, _) => &[UInt, ULong, ULongLong],
        (false, 1, true) => &[Long, LongLong, ULongLong],
        (false, 1, false) => &[Long, ULong, LongLong, ULongLong],
        (true, 1, _) => &[ULong, ULongLong],
        (false, _, true) => &[LongLong, ULongLong],
        (false, _, false) => &[LongLong, ULongLong],
        (true, _, _) => &[ULongLong],
    };
    for &k in candidates {
        if value as i128 <= k.max() {
            return Ok(Number::Int(value as u64, k));
        }
    }
    Err("integer literal is too large to be represented in any integer type".into())
}

fn parse_float(text: &str) -> Result<Number, String> {
    let mut body = text;
    let mut kind = FloatKind::Double;
    let last = body.as_bytes().last().copied().unwrap_or(b'0');
    let hex = body.len() > 1 && (body.starts_with("0x") || body.starts_with("0X"));
    if last == b'f' || last == b'F' {
        kind = FloatKind::Float;
        body = &body[..body.len() - 1];
    } else if last == b'l' || last == b'L' {
        return Err("unsupported: long double".into());
    }
    let bad = || format!("invalid floating constant '{text}'");
    if hex {
        let v = parse_hex_float(&body[2..]).ok_or_else(bad)?;
        return Ok(Number::Float(round(v, kind), kind));
    }
    // Validate the shape: digits [. digits] [e [+-] digits].
    let bytes = body.as_bytes();
    let mut i = 0;
    let mut mant = 0;
    while i < bytes.len() && bytes[i].is_ascii_digit() {
        i += 1;
        mant += 1;
    }
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
            mant += 1;
        }
    }
    if mant == 0 {
        return Err(bad());
    }
    if i < bytes.len() && (bytes[i] == b'e' || bytes[i] == b'E') {
        i += 1;
        if i < bytes.len() && (bytes[i] == b'+' || bytes[i] == b'-') {
            i += 1;
        }
        let s = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if s == i {
            return Err("exponent has no digits".into());
        }
    }
    if i != bytes.len() {
        return Err(format!(
            "invalid suffix '{}' on floating constant",
            &text[i..]
        ));
    }
    let mut norm = body.replace(".e", ".0e").replace(".E", ".0E");
    if norm.starts_with('.') {
        norm.insert(0, '0');
    }
    let v = match kind {
        FloatKind::Float => norm.parse::<f32>().map(|f| f as f64),
        FloatKind::Double => norm.parse::<f64>(),
    }
    .map_err(|_| bad())?;
    Ok(Number::Float(v, kind))
}

fn round(v: f64, k: FloatKind) -> f64 {
    match k {
        FloatKind::Float => v as f32 as f64,
        FloatKind::Double => v,
    }
}

fn parse_hex_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = 0;
    let mut mant: u128 = 0;
    let mut exp: i64 = 0;
    let mut digits = 0;
    let mut seen_dot = false;
    while i < b.len() {
        let c = b[i] as char;
        if c == '.' && !seen_dot {
            seen_dot = true;
        } else if let Some(d) = c.to_digit(16) {
            digits += 1;
            if mant < (1u128 << 100) {
                mant = mant * 16 + d as u128;
                if seen_dot {
                    exp -= 4;
                }
            } else if !seen_dot {
                exp += 4;
            }
        } else {
            break;
        }
        i += 1;
    }
    if digits == 0 || i >= b.len() || (b[i] != b'p' && b[i] != b'P') {
        return None;
    }
    let e: i64 = s[i + 1..].parse().ok()?;
    let total = exp.saturating_add(e).clamp(-2000, 2000) as i32;
    Some((mant as f64) * 2f64.powi(total))
}

/// Decodes the escapes of a quoted literal's body into bytes.
fn decode_body(body: &str) -> Result<Vec<u8>, String> {
    let b = body.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c != b'\\' {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        let Some(&e) = b.get(i) else {
            return Err("incomplete escape sequence".into());
        };
        i += 1;
        match e {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'e' | b'E' => out.push(27),
            b'0'..=b'7' => {
                let mut v: u32 = (e - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                if v > 0xff {
                    return Err("octal escape sequence out of range".into());
                }
                out.push(v as u8);
            }
            b'x' => {
                let mut v: u32 = 0;
                let mut n = 0;
                while i < b.len() && (b[i] as char).is_ascii_hexdigit() {
                    v = v
                        .saturating_mul(16)
                        .saturating_add((b[i] as char).to_digit(16).unwrap_or(0));
                    i += 1;
                    n += 1;
                }
                if n == 0 {
                    return Err("\\x used with no following hex digits".into());
                }
                if v > 0xff {
                    return Err("hex escape sequence out of range".into());
                }
                out.push(v as u8);
            }
            b'u' | b'U' => return Err("unsupported: universal character names".into()),
            other => out.push(other),
        }
    }
    Ok(out)
}

fn split_quoted(text: &str, q: char) -> Result<&str, String> {
    let Some(start) = text.find(q) else {
        return Err(format!("missing terminating {q} character"));
    };
    if start > 0 {
        return Err(if q == '"' {
            "unsupported: wide or unicode string literals".into()
        } else {
            "unsupported: wide or unicode character constants".into()
        });
    }
    let body = &text[1..];
    if body.is_empty() || !body.ends_with(q) {
        return Err(format!("missing terminating {q} character"));
    }
    Ok(&body[..body.len() - 1])
}

/// The value of a character constant (type `int`; `char` is signed, and
/// multi-character constants follow gcc).
pub fn parse_char(text: &str) -> Result<i64, String> {
    let body = split_quoted(text, '\'')?;
    let bytes = decode_body(body)?;
    match bytes.len() {
        0 => Err("empty character constant".into()),
        1 => Ok(bytes[0] as i8 as i64),
        _ => {
            let mut v: u32 = 0;
            for b in bytes {
                v = (v << 8) | b as u32;
            }
            Ok(v as i32 as i64)
        }
    }
}

/// The bytes of a string literal (without a terminating NUL).
pub fn parse_string(text: &str) -> Result<Vec<u8>, String> {
    let body = split_quoted(text, '"')?;
    decode_body(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_typing() {
        assert_eq!(parse_number("42"), Ok(Number::Int(42, IntKind::Int)));
        assert_eq!(
            parse_number("2147483648"),
            Ok(Number::Int(2147483648, IntKind::Long))
        );
        assert_eq!(
            parse_number("0xffffffff"),
            Ok(Number::Int(0xffffffff, IntKind::UInt))
        );
        assert_eq!(parse_number("010"), Ok(Number::Int(8, IntKind::Int)));
        assert_eq!(parse_number("0"), Ok(Number::Int(0, IntKind::Int)));
        assert_eq!(parse_number("5u"), Ok(Number::Int(5, IntKind::UInt)));
        assert_eq!(parse_number("5UL"), Ok(Number::Int(5, IntKind::ULong)));
        assert_eq!(parse_number("5ll"), Ok(Number::Int(5, IntKind::LongLong)));
        assert_eq!(
            parse_number("18446744073709551615u"),
            Ok(Number::Int(u64::MAX, IntKind::ULong))
        );
        assert!(parse_number("09").is_err());
        assert!(parse_number("1x").is_err());
        assert!(parse_number("99999999999999999999999").is_err());
    }

    #[test]
    fn floats() {
        assert_eq!(
            parse_number("1.5"),
            Ok(Number::Float(1.5, FloatKind::Double))
        );
        assert_eq!(
            parse_number("1."),
            Ok(Number::Float(1.0, FloatKind::Double))
        );
        assert_eq!(
            parse_number(".5f"),
            Ok(Number::Float(0.5, FloatKind::Float))
        );
        assert_eq!(
            parse_number("1e3"),
            Ok(Number::Float(1000.0, FloatKind::Double))
        );
        assert_eq!(
            parse_number("1.e2"),
            Ok(Number::Float(100.0, FloatKind::Double))
        );
        assert_eq!(
            parse_number("0x1p4"),
            Ok(Number::Float(16.0, FloatKind::Double))
        );
        assert_eq!(
            parse_number("0.1f"),
            Ok(Number::Float(0.1f32 as f64, FloatKind::Float))
        );
        assert!(parse_number("1.5L").is_err());
        assert!(parse_number("1e").is_err());
    }

    #[test]
    fn chars_and_strings() {
        assert_eq!(parse_char("'a'"), Ok(97));
        assert_eq!(parse_char("'\\n'"), Ok(10));
        assert_eq!(parse_char("'\\0'"), Ok(0));
        assert_eq!(parse_char("'\\xff'"), Ok(-1));
        assert_eq!(parse_char("'\\101'"), Ok(65));
        assert_eq!(parse_char("'ab'"), Ok(0x6162));
        assert!(parse_char("''").is_err());
        assert_eq!(parse_string("\"a\\tb\\\"\""), Ok(b"a\tb\"".to_vec()));
        assert!(parse_string("L\"x\"").is_err());
    }
}
