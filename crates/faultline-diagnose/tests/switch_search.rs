//! Predicate switching with several instances
//! ([`faultline_diagnose::witness::switch_search`]) on examples/word-limit:
//! a word-length limit written 5 for 79. A word of six letters needs one
//! instance of the limit's condition switched, seven letters two, eight
//! three (each found by extending a run's switches), and a longer one every
//! late instance: the condition made constant. Each switched run passes,
//! and the switches are exactly the instances the fault cut. Values: an
//! off-by-one at one instance, and at every instance of a loop (all shifted
//! alike). Ten instances switched one after another (neither constant
//! outcome passes), a constant replaced by another constant of the
//! function, and a loop run once per call (forty calls) made one iteration
//! longer or shorter at every call.

mod common;

use common::*;
use faultline_diagnose::witness::{constants, switch_search, Alt, Found, Switches};
use faultline_exec::trace::Scope;
use faultline_exec::{Compare, Executable, Limits};

/// The switches found for one test whose input is `word` and a newline.
fn search(word: &str) -> Option<Switches> {
    let prog = compile(&root().join("examples/word-limit/words.c"));
    let exe = Executable::new(&prog).expect("starts");
    let limit = stmt(&prog, 18, "len >= 5");
    let test = stdin_test(
        word,
        &format!("{word}\n"),
        &format!("{word} {}\n1 words\n", word.len()),
    );
    let limits = Limits {
        max_steps: Some(100_000),
        ..Limits::default()
    };
    switch_search(&exe, &test, limit, true, 200, &[], limits, Compare::Exact).map(switches)
}

/// The switches of what a search found.
fn switches(f: Found) -> Switches {
    f.switches
}

/// The switched outcomes, with the iteration of the loop at line 8 each
/// belongs to (the position of the word's letter, from 0).
fn outcomes(switches: &Switches) -> Vec<(u32, bool)> {
    switches
        .iter()
        .map(|(ctx, b)| match ctx.as_slice() {
            [Scope::Iter(_, k)] => match b {
                Alt::Outcome(b) => (*k, *b),
                other => panic!("not an outcome: {other:?}"),
            },
            other => panic!("not in the loop: {other:?}"),
        })
        .collect()
}

#[test]
fn one_two_and_three_switches_together() {
    let six = search("abcdef").expect("one switch");
    assert_eq!(outcomes(&six), vec![(5, false)]);
    let seven = search("abcdefg").expect("two switches");
    assert_eq!(outcomes(&seven), vec![(5, false), (6, false)]);
    let eight = search("abcdefgh").expect("three switches");
    assert_eq!(outcomes(&eight), vec![(5, false), (6, false), (7, false)]);
}

#[test]
fn a_cut_loop_needs_its_condition_constant() {
    let long = search("localization").expect("the condition never true");
    assert_eq!(
        outcomes(&long),
        (5..=11).map(|i| (i, false)).collect::<Vec<_>>()
    );
}

#[test]
fn a_run_no_switch_fixes_gives_nothing() {
    // The expected output counts two words for one: no outcome of the
    // limit's condition prints that.
    let prog = compile(&root().join("examples/word-limit/words.c"));
    let exe = Executable::new(&prog).expect("starts");
    let limit = stmt(&prog, 18, "len >= 5");
    let test = stdin_test("two", "abcdefgh\n", "abcdefgh 8\n2 words\n");
    assert_eq!(
        switch_search(
            &exe,
            &test,
            limit,
            true,
            200,
            &[],
            Limits::default(),
            Compare::Exact
        ),
        None
    );
}

/// The switches found for statement `text` on `line` of `src`, with `stdin`
/// and the expected output `expected`.
fn values(src: &str, line: u32, text: &str, stdin: &str, expected: &str) -> Option<Switches> {
    found(src, line, text, false, stdin, expected)
}

/// The switches found for statement `text` on `line` of `src` (a condition
/// when `condition`), with `stdin` and the expected output `expected`, the
/// program's constants given as [`constants`] gives them.
fn found(
    src: &str,
    line: u32,
    text: &str,
    condition: bool,
    stdin: &str,
    expected: &str,
) -> Option<Switches> {
    let prog = compile_src("values.c", src);
    let exe = Executable::new(&prog).expect("starts");
    let s = stmt(&prog, line, text);
    let test = stdin_test("t", stdin, expected);
    let consts = constants(&prog)[prog.stmt(s).func.index()].clone();
    switch_search(
        &exe,
        &test,
        s,
        condition,
        200,
        &consts,
        Limits {
            max_steps: Some(100_000),
            ..Limits::default()
        },
        Compare::Exact,
    )
    .map(switches)
}

#[test]
fn an_off_by_one_value_once() {
    let src = "#include <stdio.h>
int main(void) {
    int n, i, count = 0;
    scanf(\"%d\", &n);
    int limit = n + 1;
    for (i = 0; i < limit; i++)
        count++;
    printf(\"%d\\n\", count);
    return 0;
}
";
    let found = values(src, 5, "int limit = n + 1;", "5\n", "5\n").expect("one less");
    assert_eq!(found, vec![(Vec::new(), Alt::Int(5))]);
    // No value of that statement prints a negative count.
    assert_eq!(values(src, 5, "int limit = n + 1;", "5\n", "-1\n"), None);
}

#[test]
fn an_off_by_one_value_at_every_iteration() {
    let src = "#include <stdio.h>
int main(void) {
    int i, x;
    for (i = 0; i < 3; i++) {
        x = i * 2 + 1;
        printf(\"%d\\n\", x);
    }
    return 0;
}
";
    let found = values(src, 5, "x = i * 2 + 1;", "", "0\n2\n4\n").expect("each one less");
    let taken: Vec<(u32, Alt)> = found
        .iter()
        .map(|(ctx, a)| match ctx.as_slice() {
            [Scope::Iter(_, k)] => (*k, *a),
            other => panic!("not in the loop: {other:?}"),
        })
        .collect();
    assert_eq!(
        taken,
        vec![(0, Alt::Int(0)), (1, Alt::Int(2)), (2, Alt::Int(4))]
    );
}

/// The instances of a loop's statement switched, by iteration: what each
/// takes.
fn by_iteration(found: &Switches) -> Vec<(u32, Alt)> {
    found
        .iter()
        .map(|(ctx, a)| match ctx.as_slice() {
            [Scope::Iter(_, k)] => (*k, *a),
            other => panic!("not in the loop: {other:?}"),
        })
        .collect()
}

#[test]
fn ten_instances_switched_one_after_another() {
    // `x > 5` for `x > 6`: each 6 must print "small". Neither constant
    // outcome passes (7 is big, 3 small), so the ten instances are found
    // one at a time, each extending the run that printed the most correct
    // output by the instance met last before its first wrong byte.
    let src = "#include <stdio.h>
int main(void) {
    int x;
    while (scanf(\"%d\", &x) == 1) {
        if (x > 5)
            printf(\"big\\n\");
        else
            printf(\"small\\n\");
    }
    return 0;
}
";
    let xs: Vec<i32> = (0..10).flat_map(|_| [6, 7, 3]).collect();
    let stdin: String = xs.iter().map(|x| format!("{x}\n")).collect();
    let expected: String = xs
        .iter()
        .map(|&x| if x > 6 { "big\n" } else { "small\n" })
        .collect();
    let found = found(src, 5, "x > 5", true, &stdin, &expected).expect("ten switches");
    let sixes: Vec<(u32, Alt)> = (0..10).map(|k| (3 * k, Alt::Outcome(false))).collect();
    assert_eq!(by_iteration(&found), sixes);
}

#[test]
fn a_constant_replaced_by_another_of_the_function() {
    // `r = 10;` for `r = '@';`: one more or one less is no '@'; the
    // function's constant 64 is, at every instance.
    let src = "#include <stdio.h>
int main(void) {
    int c, r, at = 0;
    while ((c = getchar()) != EOF) {
        if (c == '#')
            r = 10;
        else
            r = c;
        if (r == '@')
            at++;
    }
    printf(\"%d\\n\", at);
    return 0;
}
";
    let found = values(src, 6, "r = 10;", "#a#b#\n", "3\n").expect("the constant 64");
    assert_eq!(
        by_iteration(&found),
        vec![(0, Alt::Int(64)), (2, Alt::Int(64)), (4, Alt::Int(64))]
    );
    // A value no constant of the program gives is not found.
    assert_eq!(values(src, 6, "r = 10;", "#a#b#\n", "2\n"), None);
}

/// The switched outcomes of a loop condition in a function called once per
/// input number: the iteration of each, in call order.
fn per_call(found: &Switches) -> Vec<(u32, Alt)> {
    found
        .iter()
        .map(|(ctx, a)| match ctx.as_slice() {
            [_, _, Scope::Iter(_, k)] => (*k, *a),
            other => panic!("not in one call's loop: {other:?}"),
        })
        .collect()
}

const SUMS: &str = "#include <stdio.h>
int sum(int n) {
    int s = 0, i;
    for (i = 1; i < n; i++)
        s += i;
    return s;
}
int main(void) {
    int n;
    while (scanf(\"%d\", &n) == 1)
        printf(\"%d\\n\", sum(n));
    return 0;
}
";

/// `sum` called on 3, 4, 5, 2, ten times over: forty executions of its
/// loop, more than a search switching one instance at a time reaches
/// together (32), so only the loop made longer or shorter at every
/// execution finds them. The input, and the expected output with `sum`
/// giving `sum(n)` for each.
fn forty_calls(sum: impl Fn(u32) -> u32) -> (Vec<u32>, String, String) {
    let ns: Vec<u32> = (0..10).flat_map(|_| [3, 4, 5, 2]).collect();
    let stdin = ns.iter().map(|n| format!("{n}\n")).collect();
    let expected = ns.iter().map(|&n| format!("{}\n", sum(n))).collect();
    (ns, stdin, expected)
}

#[test]
fn every_execution_of_a_loop_one_iteration_longer() {
    // `i < n` for `i <= n` in a function called forty times: each call's
    // loop needs one more iteration, its exit made true once.
    let (ns, stdin, expected) = forty_calls(|n| n * (n + 1) / 2);
    let found = found(SUMS, 4, "i < n", true, &stdin, &expected).expect("longer");
    let exits: Vec<(u32, Alt)> = ns.iter().map(|&n| (n - 1, Alt::Outcome(true))).collect();
    assert_eq!(per_call(&found), exits);
}

#[test]
fn every_execution_of_a_loop_one_iteration_shorter() {
    // Expected sums of 1 to n - 2: each call's last iteration made false.
    let (ns, stdin, expected) = forty_calls(|n| (n - 2) * (n - 1) / 2);
    let found = found(SUMS, 4, "i < n", true, &stdin, &expected).expect("shorter");
    let last: Vec<(u32, Alt)> = ns.iter().map(|&n| (n - 2, Alt::Outcome(false))).collect();
    assert_eq!(per_call(&found), last);
}

/// A switched check made after the time limit: re-execution does not watch
/// the clock, so a pass of such checks over hundreds of failing tests went
/// on past the limit (Siemens `replace` v18: 3 s, until the command's
/// backstop reported without the pass's unconfirmed diagnoses). The check
/// now stops with the limit, as a focused check does, where it would have
/// explained the test.
#[test]
fn a_switched_check_after_the_time_limit_stops_with_the_limit() {
    use faultline_diagnose::engine::{Check, Engine, Verdict};
    use faultline_diagnose::{Incomplete, Options};
    use faultline_exec::budget::{Budget, Exhausted};
    use std::collections::BTreeSet;
    let prog = compile_src(
        "big.c",
        "#include <stdio.h>\n\
         int main(void) {\n\
             int x;\n\
             if (scanf(\"%d\", &x) != 1)\n\
                 return 1;\n\
             if (x > 5)\n\
                 printf(\"big\\n\");\n\
             else\n\
                 printf(\"small\\n\");\n\
             return 0;\n\
         }\n",
    );
    let tests = vec![stdin_test("five", "5\n", "big\n")];
    let session = session(&prog, &tests);
    let d = BTreeSet::from([stmt(&prog, 6, "x > 5")]);
    let verdict = |exhausted: bool| {
        let budget = Budget::unlimited();
        let _scope = faultline_smt::limits::enter(&budget);
        let mut engine = Engine::new(&session, Options::default(), faultline_smt::Encoding::Full);
        if exhausted {
            budget.exhaust(Exhausted::Time);
        }
        engine.explain_each(&[0], &d, Check::Switched)
    };
    assert!(matches!(verdict(false), Ok(Verdict::Explained(_))));
    assert_eq!(verdict(true).err(), Some(Incomplete::Timeout));
}
