//! The reported diagnoses of small programs (tests/localize/*: loops, arrays,
//! calls, switch, string output, prompts, formats, reads until EOF (also
//! into a computed element of an array of strings), two and
//! three faults, failing tests on different paths) against the definition,
//! by brute force over every set of relaxable statements up to the size
//! bound:
//!
//! - `mbd`: exactly the subset-minimal sets that explain every failing test
//!   (each test on its own formula, `Engine::explains_all`), smallest first;
//! - `per-test`: for each failing test, exactly the minimal sets explaining it;
//! - `setcombine` (SNIPER): the minimal unions of one per-test MCS each, within
//!   the bound.
//!
//! Each program's comment names its fault; `prog.c` is the faulty program and
//! the expected outputs come from the fixed one (built with gcc). Each test
//! also checks that the fault itself is a reported `full`+`mbd` diagnosis,
//! and some check forced angelic values.

mod common;

use common::*;
use faultline_diagnose::{AngelicValue, Combine, Localization};
use faultline_ir::Program;
use faultline_smt::Encoding;
use Combine::{Mbd, PerTest, SetCombine};
use Encoding::{Flow, Full, Trace};

/// Checks every combination against brute force; returns the program and
/// the `full`+`mbd` localization, after checking that `fault` is one of its
/// diagnoses.
fn case(
    name: &str,
    k: usize,
    others: &[(Encoding, Combine)],
    fault: &[&str],
) -> (Program, Vec<faultline_exec::TestCase>, Localization) {
    let (prog, tests) = localize_case(name);
    let loc = check_brute(&prog, &tests, Full, Mbd, k);
    for &(e, c) in others {
        check_brute(&prog, &tests, e, c, k);
    }
    if !fault.is_empty() {
        let f = texts(&prog, fault);
        assert!(
            reported(&loc).contains(&f),
            "{name}: the fault {} is not among {}",
            show(&prog, &f),
            show_all(&prog, &reported(&loc))
        );
    }
    (prog, tests, loc)
}

fn test_index(tests: &[faultline_exec::TestCase], name: &str) -> usize {
    tests.iter().position(|t| t.name == name).expect("test")
}

#[test]
fn sum_loop() {
    case(
        "sum_loop",
        3,
        &[
            (Flow, Mbd),
            (Trace, Mbd),
            (Full, SetCombine),
            (Full, PerTest),
        ],
        &["i < n"],
    );
}

#[test]
fn array_max() {
    case("array_max", 3, &[(Flow, Mbd)], &["max = 0;"]);
}

#[test]
fn call_square() {
    case(
        "call_square",
        3,
        &[(Trace, Mbd), (Full, SetCombine)],
        &["return square(a) + square(a);"],
    );
}

#[test]
fn grade_switch() {
    let (prog, tests) = localize_case("grade_switch");
    let loc = check_brute(&prog, &tests, Full, Mbd, 2);
    check_brute(&prog, &tests, Flow, Mbd, 2);
    check_brute(&prog, &tests, Full, PerTest, 2);
    let fault = set(&prog, &[(19, "g = 'B';")]);
    assert!(reported(&loc).contains(&fault));
    // Both failing tests need 'C' (67) from the faulty assignment.
    let s = fault.iter().copied().next().unwrap();
    let vals = angelic_of(&loc, &fault, s);
    assert_eq!(vals.len(), 2);
    for (_, v) in vals {
        assert_eq!(
            v,
            AngelicValue::Value {
                needed: "67".into(),
                computed: "66".into()
            }
        );
    }
}

#[test]
fn two_faults() {
    case(
        "two_faults",
        3,
        &[(Flow, Mbd), (Full, SetCombine), (Full, PerTest)],
        &["a = x + 1;", "b = y * 3;"],
    );
}

#[test]
fn three_faults() {
    case(
        "three_faults",
        3,
        &[(Flow, Mbd), (Full, SetCombine)],
        &["p = x + 1;", "q = x * 3;", "r = x / 3;"],
    );
}

#[test]
fn countdown_while() {
    case(
        "countdown_while",
        3,
        &[(Trace, Mbd), (Full, PerTest)],
        &["n > 1"],
    );
}

#[test]
fn greet_puts() {
    let (prog, tests, loc) = case("greet_puts", 3, &[(Flow, Mbd)], &["hour < 16"]);
    // At 17 the afternoon condition must hold.
    let cond = find(&prog, "hour < 16");
    let d: Set = [cond].into_iter().collect();
    assert_eq!(
        angelic_of(&loc, &d, cond),
        vec![(
            test_index(&tests, "late"),
            AngelicValue::Branch {
                needed: true,
                computed: false
            }
        )]
    );
}

#[test]
fn missing_prompt() {
    case("missing_prompt", 3, &[(Flow, Mbd)], &[]);
}

/// The first output statement, relaxed, prints the missing prompt with its
/// own line: the only diagnosis of one statement, with a forced text.
#[test]
fn missing_prompt_first_output_prints_the_prompt() {
    let (prog, tests) = localize_case("missing_prompt");
    let loc = check_brute(&prog, &tests, Full, Mbd, 3);
    let first = find(&prog, r#"printf("%d\n", a + b);"#);
    let d: Set = [first].into_iter().collect();
    assert_eq!(
        reported(&loc),
        vec![d.clone()],
        "{}",
        show_all(&prog, &reported(&loc))
    );
    assert_eq!(
        angelic_of(&loc, &d, first),
        vec![
            (
                test_index(&tests, "neg"),
                AngelicValue::Output {
                    text: "Enter two numbers: 0\n".into()
                }
            ),
            (
                test_index(&tests, "small"),
                AngelicValue::Output {
                    text: "Enter two numbers: 5\n".into()
                }
            ),
        ]
    );
}

#[test]
fn extra_prompt() {
    case("extra_prompt", 3, &[(Trace, Mbd), (Full, PerTest)], &[]);
}

/// The extra prompt, relaxed, prints nothing: the only diagnosis.
#[test]
fn extra_prompt_prompt_prints_nothing() {
    let (prog, tests) = localize_case("extra_prompt");
    let loc = check_brute(&prog, &tests, Full, Mbd, 3);
    let prompt = find(&prog, r#"printf("Number? ");"#);
    let d: Set = [prompt].into_iter().collect();
    assert_eq!(
        reported(&loc),
        vec![d.clone()],
        "{}",
        show_all(&prog, &reported(&loc))
    );
    for (_, v) in angelic_of(&loc, &d, prompt) {
        assert_eq!(v, AngelicValue::Output { text: "".into() });
    }
}

#[test]
fn wrong_format() {
    let (prog, tests, loc) = case(
        "wrong_format",
        3,
        &[(Trace, Mbd), (Full, SetCombine)],
        &[r#"printf("n = %x\n", n);"#],
    );
    let p = find(&prog, r#"printf("n = %x\n", n);"#);
    let d: Set = [p].into_iter().collect();
    assert_eq!(reported(&loc), vec![d.clone()]);
    assert_eq!(
        angelic_of(&loc, &d, p),
        vec![
            (
                test_index(&tests, "big"),
                AngelicValue::Output {
                    text: "n = 255\n".into()
                }
            ),
            (
                test_index(&tests, "ten"),
                AngelicValue::Output {
                    text: "n = 10\n".into()
                }
            ),
        ]
    );
}

#[test]
fn scanf_eof() {
    case(
        "scanf_eof",
        3,
        &[(Flow, Mbd), (Full, SetCombine)],
        &["x > 1"],
    );
}

#[test]
fn multi_path() {
    case(
        "multi_path",
        3,
        &[
            (Flow, Mbd),
            (Trace, Mbd),
            (Full, SetCombine),
            (Full, PerTest),
        ],
        &["c = (f - 30) * 5 / 9;"],
    );
}

#[test]
fn min_of_three() {
    case(
        "min_of_three",
        3,
        &[(Full, PerTest), (Full, SetCombine), (Trace, Mbd)],
        &["c > m"],
    );
}

#[test]
fn power_loop() {
    case("power_loop", 2, &[(Flow, Mbd)], &["p = power(b, e - 1);"]);
}

#[test]
fn array_reverse() {
    case("array_reverse", 3, &[(Trace, Mbd)], &["i > 0"]);
}

#[test]
fn leap_year() {
    case(
        "leap_year",
        3,
        &[(Flow, Mbd)],
        &["return (y % 4 == 0 && y % 100 != 0) && y % 400 == 0;"],
    );
}

#[test]
fn digit_sum() {
    case(
        "digit_sum",
        3,
        &[(Trace, Mbd), (Full, PerTest)],
        &["n = n / 100;"],
    );
}

/// Relaxing a statement only adds behaviours, so the minimal unions of
/// per-test MCSes (`setcombine`) are exactly the minimal sets explaining
/// every test (`mbd`), on every program here and with every encoding.
#[test]
fn setcombine_and_mbd_agree() {
    let dir = root().join("tests/localize");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| Some(e.ok()?.file_name().to_string_lossy().into_owned()))
        .collect();
    names.sort();
    assert!(names.len() >= 15);
    for name in names {
        let (prog, tests) = localize_case(&name);
        let s = session(&prog, &tests);
        for e in [Full, Flow, Trace] {
            let m = faultline_diagnose::localize(&s, e, Mbd, &options(3));
            let c = faultline_diagnose::localize(&s, e, SetCombine, &options(3));
            let ms: std::collections::BTreeSet<Set> = reported(&m).into_iter().collect();
            let cs: std::collections::BTreeSet<Set> = reported(&c).into_iter().collect();
            assert_eq!(
                ms,
                cs,
                "{name} {e:?}: mbd {} setcombine {}",
                show_all(&prog, &ms),
                show_all(&prog, &cs)
            );
        }
    }
}

/// `scanf("%s")` into a computed element of an array of strings is encoded
/// (each offset the pointer may have), so the failing tests are used.
#[test]
fn names_reverse() {
    let (_, _, loc) = case("names_reverse", 2, &[(Flow, Mbd)], &["i > 0"]);
    assert!(loc.skipped.is_empty(), "{:?}", loc.skipped);
    assert_eq!(loc.incomplete, None);
}
