//! Equally small diagnoses in the order a person would look at them
//! (`faultline_diagnose::plausible`): a constant statement that would need
//! different values at different instances, and an output statement that
//! would only print other values in its own format (the symptom) or a
//! different number of lines at different instances, come after the others.
//! Programs from the course benchmark (benchmarks/course).

mod common;

use common::*;
use faultline_diagnose::{localize, Combine};
use faultline_smt::Encoding;

fn course(name: &str) -> (faultline_ir::Program, Vec<faultline_exec::TestCase>) {
    let dir = root().join("benchmarks/course").join(name);
    (
        compile(&dir.join(format!("{name}.c"))),
        load_tests(&dir.join("tests")),
    )
}

/// `int line = 0;` (the fault: lines count from 1) comes before the
/// `printf("line %d: %d\n", line, count)` that would print nothing at one
/// instance and two lines at another.
#[test]
fn an_output_needing_different_numbers_of_lines_comes_after() {
    let (prog, tests) = course("charcount");
    let s = session(&prog, &tests);
    let loc = localize(&s, Encoding::Full, Combine::Mbd, &options(2));
    assert_eq!(
        reported(&loc)[..2],
        [
            set(&prog, &[(7, "int line = 0;")]),
            set(&prog, &[(19, "printf(\"line %d: %d\\n\", line, count);")]),
        ]
    );
}

/// The condition (the fault: `||` for `&&`) comes before
/// `printf("FizzBuzz\n")`, a constant output that would need to print
/// "Fizz\n" at some instances and "FizzBuzz\n" at others.
#[test]
fn a_constant_needing_different_values_comes_after() {
    let (prog, tests) = course("fizzbuzz");
    let s = session(&prog, &tests);
    let loc = localize(&s, Encoding::Full, Combine::Mbd, &options(1));
    assert_eq!(
        reported(&loc),
        vec![
            set(&prog, &[(11, "i % 3 == 0 || i % 5 == 0")]),
            set(&prog, &[(12, "printf(\"FizzBuzz\\n\");")]),
        ]
    );
}

/// Each rule on a program of its own, with the angelic values given: what
/// makes a statement implausible, and what does not.
#[test]
fn the_rules_on_given_angelic_values() {
    use faultline_diagnose::plausible::Plausibility;
    use faultline_diagnose::{Angelic, AngelicValue, Diagnosis};
    let prog = compile_src(
        "rules.c",
        "#include <stdio.h>\n\
         int main(void) {\n\
             int c = getchar();\n\
             int k = 0;\n\
             printf(\"Done\\n\");\n\
             printf(\"k = %d\\n\", k);\n\
             char n[4] = \"ab\";\n\
             printf(\"name: %s\", n);\n\
             return c;\n\
         }\n",
    );
    let p = Plausibility::new(&prog);
    let value = |v: &str| AngelicValue::Value {
        needed: v.into(),
        computed: "0".into(),
    };
    let text = |t: &str| AngelicValue::Output { text: t.into() };
    let judge = |line: u32, text_of: &str, values: Vec<AngelicValue>| {
        let st = stmt(&prog, line, text_of);
        let d = Diagnosis {
            stmts: vec![st],
            cost: 1,
            test: None,
            angelic: values
                .into_iter()
                .enumerate()
                .map(|(test, value)| Angelic {
                    test,
                    stmt: st,
                    ctx: Vec::new(),
                    value,
                })
                .collect(),
            verified: None,
            undecided: Vec::new(),
        };
        p.implausible(&d)
    };
    // A constant needing one other value is a plausible fix; two are not.
    assert_eq!(judge(4, "int k = 0;", vec![value("1"), value("1")]), 0);
    assert_eq!(judge(4, "int k = 0;", vec![value("1"), value("2")]), 1);
    // A read of the input is not a constant: its values may differ.
    assert_eq!(
        judge(3, "int c = getchar();", vec![value("1"), value("2")]),
        0
    );
    // A constant output: one other text is plausible, two are not.
    let done = "printf(\"Done\\n\");";
    assert_eq!(judge(5, done, vec![text("done\n"), text("done\n")]), 0);
    assert_eq!(judge(5, done, vec![text("done\n"), text("Done\n")]), 1);
    // Only other values in its own format: the symptom.
    let k = "printf(\"k = %d\\n\", k);";
    assert_eq!(judge(6, k, vec![text("k = 1\n")]), 1);
    assert_eq!(judge(6, k, vec![text("k: 1\n")]), 0);
    // Nothing here, a line there: no single format prints both...
    assert_eq!(judge(6, k, vec![text(""), text("k: 1\n")]), 1);
    // ... unless a `%s` may carry the newline.
    let s = "printf(\"name: %s\", n);";
    assert_eq!(judge(8, s, vec![text(""), text("name: y\n")]), 0);
}
