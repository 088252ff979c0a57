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
