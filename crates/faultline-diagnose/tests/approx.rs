//! Focused checks of formulas Z3 decides slowly (floating-point division of
//! a free value, 64-bit products of free values) are first solved in a
//! cheaper theory (`faultline_smt::approx`: unbounded integers, reals for
//! floating point) and the model's values are checked on the exact formula.
//! Before, the faulty statements of these course programs were left
//! undecided by the effort limit and never reported.

mod common;

use common::*;
use faultline_diagnose::{localize, Combine, Incomplete, Localization, Options};
use faultline_smt::Encoding;

/// `benchmarks/course/NAME` localized with `full` and `opts`: the result,
/// with its diagnoses as text.
fn localization(name: &str, opts: &Options) -> (Localization, String) {
    let dir = root().join("benchmarks/course").join(name);
    let prog = compile(&dir.join(format!("{name}.c")));
    let tests = load_tests(&dir.join("tests"));
    let s = session(&prog, &tests);
    let loc = localize(&s, Encoding::Full, Combine::Mbd, opts);
    let shown = show_all(&prog, &reported(&loc));
    (loc, shown)
}

/// Whether `benchmarks/course/NAME`'s result with `opts` is complete, and
/// its diagnoses as text.
fn localized(name: &str, opts: &Options) -> (bool, String) {
    let (loc, shown) = localization(name, opts);
    (loc.incomplete.is_none(), shown)
}

/// The diagnoses of one statement of `benchmarks/course/NAME`, as text.
fn singles(name: &str) -> String {
    localized(name, &options(1)).1
}

/// `sum = x` (for `sum += x`) feeds `sum / n`, a division of doubles: the
/// sum the output needs is found over reals, then checked exactly.
#[test]
fn average_float_division() {
    assert_eq!(
        singles("average"),
        "{11: sum = x;} {17: printf(\"%d numbers, average %.2f, smallest %.2f\\n\", n, sum / n, min);}"
    );
}

/// `half * half * exp` (for `* base`): products of free `long`s, found over
/// unbounded integers, then checked on bit-vectors.
#[test]
fn power_long_products() {
    assert_eq!(
        singles("power"),
        "{12: return half * half * exp;} {23: printf(\"%ld^%d = %ld\\n\", b, e, power(b, e));}"
    );
}

/// Large formulas are checked in the cheaper theory first too: relaxing a
/// statement of `letterfreq`'s counting loop makes every later count, index
/// and comparison depend on it (formulas beyond 2,000 units of work), and
/// the exact checks of several such statements reached the effort limit
/// (the result was partial, the fault's condition first nonetheless). Over
/// unbounded integers each is decided, and the result is complete.
#[test]
fn large_formulas_are_decided_in_the_cheaper_theory() {
    assert_eq!(
        localized("letterfreq", &Options::default()),
        (true, "{9: islower(c)}".to_string())
    );
}

/// `interest`'s loop computes `pow(1 + rate / 10, y)`: relaxing `y`'s
/// update makes it a floating-point operation on an unknown value. The
/// cheaper theory's values for it do not replay, and the exact check with
/// those values fixed never decided (Z3 bit-blasts floating-point
/// operations whatever the values, without counting the effort: unknown
/// after 0.5 s here, up to 12 s a check on Siemens `tot_info`). Such a check
/// is not made: the statement is undecided as before, with one solver call
/// fewer for each.
#[test]
fn floating_point_formulas_are_not_checked_with_the_cheap_values_fixed() {
    let opts = Options {
        threads: 1,
        ..Options::default()
    };
    let (loc, shown) = localization("interest", &opts);
    assert_eq!(
        shown,
        "{15: amount = principal * pow(1 + rate / 10, y);} {16: printf(\"year %2d: %10.2f\\n\", y, amount);}"
    );
    assert_eq!(loc.incomplete, Some(Incomplete::Effort(1)));
    assert_eq!(loc.stats.solver_calls, 13);
}
