//! API-level tests of the libc routines (argument resolution, error reporting,
//! the `Input` cursor) and deterministic fuzzing that checks nothing panics on
//! arbitrary formats, arguments and inputs.

use faultline_exec::libc::printf::{
    format, parse_format, render, Arg, ArgType, Piece, Precision, Width,
};
use faultline_exec::libc::scanf::{parse_scanf_format, scanf, Input, Scanned};
use faultline_exec::libc::strconv::{strtod_prefix, strtof_prefix, strtol, strtoul};
use faultline_exec::libc::Length;

fn fmt(f: &str, args: &[Arg]) -> String {
    String::from_utf8(format(f.as_bytes(), args).expect("valid format")).expect("utf-8")
}

fn conv(f: &str) -> faultline_exec::libc::printf::Spec {
    match parse_format(f.as_bytes()).expect("valid format").as_slice() {
        [Piece::Conv(spec)] => spec.clone(),
        other => panic!("expected one conversion, got {other:?}"),
    }
}

#[test]
fn parse_pieces() {
    let pieces = parse_format(b"a%%b%-*.*ldc%5.2fz").unwrap();
    assert_eq!(pieces.len(), 5);
    assert_eq!(pieces[4], Piece::Literal(b"z".to_vec()));
    assert_eq!(pieces[0], Piece::Literal(b"a%b".to_vec()));
    let Piece::Conv(spec) = &pieces[1] else {
        panic!("conversion expected")
    };
    assert!(spec.flags.minus);
    assert_eq!(spec.width, Some(Width::Star));
    assert_eq!(spec.precision, Some(Precision::Star));
    assert_eq!(spec.length, Length::Long);
    assert_eq!(spec.conv, b'd');
    assert_eq!(spec.offset, 4);
    assert_eq!(spec.star_count(), 2);
    assert_eq!(
        spec.arg_type(),
        ArgType::Int {
            bytes: 8,
            signed: true
        }
    );
    assert_eq!(pieces[2], Piece::Literal(b"c".to_vec()));
    let Piece::Conv(spec) = &pieces[3] else {
        panic!("conversion expected")
    };
    assert_eq!(spec.width, Some(Width::Fixed(5)));
    assert_eq!(spec.precision, Some(Precision::Fixed(2)));
    assert_eq!(spec.arg_type(), ArgType::Double);
}

#[test]
fn arg_types() {
    let int = |bytes, signed| ArgType::Int { bytes, signed };
    assert_eq!(conv("%hhd").arg_type(), int(4, true));
    assert_eq!(conv("%hu").arg_type(), int(4, false));
    assert_eq!(conv("%zx").arg_type(), int(8, false));
    assert_eq!(conv("%c").arg_type(), int(4, true));
    assert_eq!(conv("%Lf").arg_type(), ArgType::LongDouble);
    assert_eq!(conv("%lg").arg_type(), ArgType::Double);
    assert_eq!(conv("%s").arg_type(), ArgType::Str);
    assert_eq!(conv("%p").arg_type(), ArgType::Ptr);
}

#[test]
fn format_errors() {
    let cases: &[(&str, usize, &str)] = &[
        ("x%n", 1, "unsupported printf conversion '%n'"),
        ("%5.2n", 0, "unsupported printf conversion '%5.2n'"),
        ("%a", 0, "unsupported printf conversion '%a'"),
        ("ab%ls", 2, "unsupported printf conversion '%ls'"),
        ("%S", 0, "unsupported printf conversion '%S'"),
        ("%y", 0, "unsupported printf conversion '%y'"),
        ("%*%", 0, "unsupported printf conversion '%*%'"),
        ("%", 0, "incomplete printf conversion '%' at end of format"),
        (
            "ok %-5",
            3,
            "incomplete printf conversion '%-5' at end of format",
        ),
        (
            "%1$d",
            0,
            "positional printf arguments are not supported in '%1$'",
        ),
        (
            "%99999999999d",
            0,
            "printf field width too large in '%99999999999'",
        ),
        (
            "%.2147483648f",
            0,
            "printf precision too large in '%.2147483648'",
        ),
    ];
    for &(f, offset, message) in cases {
        let err = parse_format(f.as_bytes()).expect_err(f);
        assert_eq!((err.offset, err.message.as_str()), (offset, message), "{f}");
    }
    let err = format(b"%d %d", &[Arg::Int(1)]).unwrap_err();
    assert_eq!(err.message, "missing printf argument");
    assert_eq!(err.to_string(), "missing printf argument (at byte 3)");
}

#[test]
fn render_resolves_width_and_precision() {
    let spec = conv("%*.*f");
    let mut out = Vec::new();
    render(&spec, Some(-8), Some(-1), Arg::Double(1.5), &mut out);
    assert_eq!(out, b"1.500000");
    out.clear();
    render(&spec, Some(9), Some(2), Arg::Double(-1.5), &mut out);
    assert_eq!(out, b"    -1.50");
    // Fixed values come from the spec when the caller passes None.
    let spec = conv("%08.3f");
    out.clear();
    render(&spec, None, None, Arg::Double(1.23456), &mut out);
    assert_eq!(out, b"0001.235");
    // Star without a resolved value behaves as absent.
    let spec = conv("%*d");
    out.clear();
    render(&spec, None, None, Arg::Int(7), &mut out);
    assert_eq!(out, b"7");
    // Extreme star values are clamped, not overflowed.
    let spec = conv("%.*d");
    out.clear();
    render(&spec, None, Some(i64::MIN), Arg::Int(7), &mut out);
    assert_eq!(out, b"7");
}

#[test]
fn argument_conventions() {
    assert_eq!(fmt("%u", &[Arg::Int(-1)]), "4294967295");
    assert_eq!(fmt("%lu", &[Arg::Int(-1)]), "18446744073709551615");
    assert_eq!(fmt("%d", &[Arg::UInt(0xffff_ffff)]), "-1");
    assert_eq!(fmt("%hhd|%hhu", &[Arg::Int(300), Arg::Int(-1)]), "44|255");
    assert_eq!(fmt("%c", &[Arg::Int(0x141)]), "A");
    assert_eq!(fmt("%s|%.3s", &[Arg::Ptr(0), Arg::Int(0)]), "(null)|");
    assert_eq!(fmt("%s", &[Arg::Str(b"ab\0cd")]), "ab");
    assert_eq!(fmt("%p|%p", &[Arg::Ptr(0), Arg::UInt(255)]), "(nil)|0xff");
    assert_eq!(fmt("%.1f", &[Arg::Int(3)]), "3.0");
    assert_eq!(fmt("%x", &[Arg::Double(1.0)]), "0");
    assert_eq!(fmt("%lx", &[Arg::Double(1.0)]), "3ff0000000000000");
    assert_eq!(fmt("%d", &[Arg::Str(b"x")]), "0");
    assert_eq!(fmt("%Lf", &[Arg::Double(2.675)]), "2.675000");
    assert_eq!(fmt("%lc", &[Arg::Int(65)]), "A");
}

#[test]
fn float_extremes() {
    let min_sub = f64::from_bits(1);
    let text = fmt("%.1074f", &[Arg::Double(min_sub)]);
    assert_eq!(text.len(), 1076);
    assert_eq!(text.find(|c: char| c != '0' && c != '.'), Some(325));
    assert!(text[325..].starts_with("494065645841246544176568792868"));
    assert!(text.ends_with("447265625"));
    assert_eq!(fmt("%e", &[Arg::Double(min_sub)]), "4.940656e-324");
    assert_eq!(fmt("%g", &[Arg::Double(f64::MAX)]), "1.79769e+308");
    assert_eq!(fmt("%.0f", &[Arg::Double(f64::MAX)]).len(), 309);
    assert_eq!(
        fmt(
            "%f|%F|%e|%G",
            &[
                Arg::Double(f64::NAN),
                Arg::Double(-f64::NAN),
                Arg::Double(f64::INFINITY),
                Arg::Double(f64::NEG_INFINITY)
            ]
        ),
        "nan|-NAN|inf|-INF"
    );
    assert_eq!(
        fmt("%.3f|%g", &[Arg::Double(-0.0), Arg::Double(-0.0)]),
        "-0.000|-0"
    );
}

#[test]
fn input_cursor() {
    let mut input = Input::new(b"ab".to_vec());
    assert_eq!(input.peek(), Some(b'a'));
    assert_eq!(input.getc(), Some(b'a'));
    input.ungetc(b'a');
    assert_eq!(input.pos, 0);
    assert_eq!(input.getc(), Some(b'a'));
    input.ungetc(b'z');
    assert_eq!(input.remaining(), b"zb");
    assert_eq!(input.getc(), Some(b'z'));
    assert_eq!(input.getc(), Some(b'b'));
    assert!(input.is_eof());
    assert_eq!(input.getc(), None);
    input.ungetc(b'q');
    assert_eq!(input.getc(), Some(b'q'));
    let mut fresh = Input::new(Vec::new());
    fresh.ungetc(b'x');
    assert_eq!(fresh.getc(), Some(b'x'));
    assert_eq!(fresh.getc(), None);
    let mut past = Input::new(b"abc".to_vec());
    past.pos = 99;
    assert_eq!(past.getc(), None);
    past.ungetc(b'y');
    assert_eq!(past.remaining(), b"y");
}

#[test]
fn scanf_then_getchar_share_the_stream() {
    let mut input = Input::new(b"42\nrest".to_vec());
    let out = scanf(b"%d", &mut input).unwrap();
    assert_eq!(out.ret, 1);
    assert_eq!(input.getc(), Some(b'\n'));
    assert_eq!(input.getc(), Some(b'r'));
}

#[test]
fn scanf_items_and_lengths() {
    let mut input = Input::new(b"-1 -1 300 7 2.5 0x10".to_vec());
    let out = scanf(b"%hu %lu %hhd %n%*d%lf%p", &mut input).unwrap();
    assert_eq!(out.ret, 5);
    assert_eq!(
        out.items,
        vec![
            Scanned::Int {
                value: 65535,
                len: Length::Short,
                conv: b'u'
            },
            Scanned::Int {
                value: i128::from(u64::MAX),
                len: Length::Long,
                conv: b'u'
            },
            Scanned::Int {
                value: 44,
                len: Length::Char,
                conv: b'd'
            },
            Scanned::Int {
                value: 10,
                len: Length::None,
                conv: b'n'
            },
            Scanned::Float {
                value: 2.5,
                len: Length::Long
            },
            Scanned::Int {
                value: 16,
                len: Length::Long,
                conv: b'p'
            },
        ]
    );
    let mut input = Input::new(b"0.1".to_vec());
    let out = scanf(b"%f", &mut input).unwrap();
    assert_eq!(
        out.items,
        vec![Scanned::Float {
            value: f64::from(0.1f32),
            len: Length::None
        }]
    );
}

#[test]
fn scanf_format_errors_consume_nothing() {
    for (f, offset, message) in [
        ("%d %y", 3, "unsupported scanf conversion '%y'"),
        ("%ls", 0, "unsupported scanf conversion '%ls'"),
        ("%lc", 0, "unsupported scanf conversion '%lc'"),
        ("%l[a]", 0, "unsupported scanf conversion '%l['"),
        ("%ms", 0, "unsupported scanf conversion '%m'"),
        ("%[abc", 0, "unterminated scanf scan set '%[abc'"),
        (
            "%2$d",
            0,
            "positional scanf arguments are not supported in '%2$'",
        ),
        ("a%", 1, "incomplete scanf conversion at end of format: '%'"),
    ] {
        let mut input = Input::new(b"12 34".to_vec());
        let err = scanf(f.as_bytes(), &mut input).expect_err(f);
        assert_eq!((err.offset, err.message.as_str()), (offset, message), "{f}");
        assert_eq!(input.pos, 0);
    }
    let parsed = parse_scanf_format(b"%d %*s %[a-z] %% %n").unwrap();
    assert_eq!(parsed.pointer_args(), 3);
}

/// xorshift64*: deterministic pseudo-random numbers for the fuzz tests.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u64) as usize]
    }

    fn text(&mut self, alphabet: &[u8], max_len: u64) -> Vec<u8> {
        let len = self.below(max_len + 1);
        (0..len)
            .map(|_| {
                if self.below(10) == 0 {
                    self.next() as u8
                } else {
                    self.pick(alphabet)
                }
            })
            .collect()
    }
}

fn interesting_double(rng: &mut Rng) -> f64 {
    match rng.below(6) {
        0 => f64::from_bits(rng.next()),
        1 => f64::from_bits(rng.below(1 << 20)),
        2 => rng.pick(&[
            0.0,
            -0.0,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            -f64::NAN,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            1e308,
            0.5,
            9.5,
            999999.5,
        ]),
        3 => (rng.below(1_000_000) as f64) / 1000.0,
        4 => f64::from_bits(0x7ff0_0000_0000_0000 | rng.below(1 << 52)),
        _ => (rng.next() as i64) as f64,
    }
}

#[test]
fn printf_never_panics() {
    let mut rng = Rng(0x5eed_1234_abcd_0001);
    let alphabet = b"%%%%-+ 0#'I*.123456789hlLqjzZtdiouxXcsfFeEgGpna$";
    for _ in 0..30_000 {
        let f = rng.text(alphabet, 12);
        let Ok(pieces) = parse_format(&f) else {
            continue;
        };
        let mut out = Vec::new();
        for piece in &pieces {
            let Piece::Conv(spec) = piece else {
                continue;
            };
            let strings: [&[u8]; 4] = [b"", b"abc", b"with\0nul", b"\xff\xfe"];
            let arg = match rng.below(5) {
                0 => Arg::Int(rng.next() as i64),
                1 => Arg::UInt(rng.next()),
                2 => Arg::Double(interesting_double(&mut rng)),
                3 => Arg::Str(rng.pick(&strings)),
                _ => Arg::Ptr(if rng.below(2) == 0 { 0 } else { rng.next() }),
            };
            let width = match rng.below(3) {
                0 => None,
                1 => Some(rng.below(80) as i64 - 40),
                _ => Some(rng.pick(&[i64::MIN, -1, 0, 1])),
            };
            let precision = match rng.below(3) {
                0 => None,
                1 => Some(rng.below(120) as i64 - 10),
                _ => Some(rng.pick(&[i64::MIN, -1, 0, 400])),
            };
            let width = width.map(|w| w.clamp(-200, 200));
            render(spec, width, precision, arg, &mut out);
        }
    }
}

#[test]
fn scanf_never_panics() {
    let mut rng = Rng(0x5eed_1234_abcd_0002);
    let fmt_alphabet = b"%%%% *0123456789hlLqjztdiouxXcsfeEgGaApn[]^-abc,";
    let input_alphabet = b"0123456789+-.eExXpPabcfinINFty() \n\t,";
    for _ in 0..30_000 {
        let f = rng.text(fmt_alphabet, 10);
        let data = rng.text(input_alphabet, 16);
        let len = data.len();
        let mut input = Input::new(data);
        if let Ok(out) = scanf(&f, &mut input) {
            assert!(out.ret >= -1);
            assert!(out.ret <= out.items.len() as i32);
            assert!(input.pos <= len);
        }
    }
}

#[test]
fn strconv_never_panics() {
    let mut rng = Rng(0x5eed_1234_abcd_0003);
    let alphabet = b"0123456789+-.eExXpPabcdefinINFtyA() _\t";
    for _ in 0..50_000 {
        let s = rng.text(alphabet, 40);
        assert!(strtod_prefix(&s).1 <= s.len());
        assert!(strtof_prefix(&s).1 <= s.len());
        let base = rng.pick(&[0, 1, 2, 8, 10, 16, 36, 37, 99]);
        assert!(strtol(&s, base).1 <= s.len());
        assert!(strtoul(&s, base).1 <= s.len());
    }
    // Very long inputs: digit strings, exponents and hex mantissas.
    let long_digits = vec![b'9'; 100_000];
    assert_eq!(strtod_prefix(&long_digits).0, f64::INFINITY);
    let mut tiny = b"0.".to_vec();
    tiny.extend(std::iter::repeat_n(b'0', 100_000));
    tiny.push(b'1');
    assert_eq!(strtod_prefix(&tiny), (0.0, tiny.len()));
    let mut scaled = vec![b'1'; 50_000];
    scaled.extend_from_slice(b"e-49999");
    assert_eq!(strtod_prefix(&scaled).0, 1.1111111111111112);
    let mut hex = b"0x".to_vec();
    hex.extend(std::iter::repeat_n(b'f', 5_000));
    hex.extend_from_slice(b"p-20000");
    assert_eq!(strtod_prefix(&hex), (1.0, hex.len()));
    assert_eq!(
        strtod_prefix(b"1e99999999999999999999999999999999"),
        (f64::INFINITY, 34)
    );
}
