//! The work bound of `mbd`'s joint formula (`Options::joint_work`): when no
//! single statement explains the failing tests, the search for larger
//! diagnoses builds a formula over the tests with every statement
//! relaxable; one that grows beyond the bound ends the search, partial as
//! at the effort limit, with a note, instead of growing to gigabytes
//! (Siemens `tot_info`: 7.5 million units in 15 s). The default bound is
//! measured in `DEFAULT_JOINT_WORK`; here a tiny one stands for a formula
//! that outgrows it.

mod common;

use common::*;
use faultline_diagnose::{Combine, Incomplete, Localization, Options, DEFAULT_JOINT_WORK};
use faultline_smt::Encoding;

/// Two independent faults: `x` and `y` (printed by statements of their own)
/// each need their own fix, so the smallest diagnoses have two statements.
const SRC: &str = r#"#include <stdio.h>

int main(void) {
    int a, b, x, y;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    x = a + 1;
    y = b * 2;
    printf("%d\n", x);
    printf("%d\n", y);
    return 0;
}
"#;

fn localize(joint_work: u64) -> (faultline_ir::Program, Localization) {
    let prog = compile_src("two.c", SRC);
    let tests = vec![
        stdin_test("t1", "1 2\n", "1\n2\n"),
        stdin_test("t2", "3 5\n", "3\n5\n"),
    ];
    let loc = {
        let session = session(&prog, &tests);
        let options = Options {
            joint_work,
            ..Options::default()
        };
        faultline_diagnose::localize(&session, Encoding::Full, Combine::Mbd, &options)
    };
    (prog, loc)
}

const NOTE: &str = "the search for diagnoses of more than one statement stopped: its formula over the failing tests reached its work bound";

#[test]
fn within_the_bound_the_pairs_are_found() {
    let (prog, loc) = localize(DEFAULT_JOINT_WORK);
    assert_eq!(
        show_all(&prog, &reported(&loc)),
        show_all(
            &prog,
            &[
                set(&prog, &[(7, "x = a + 1;"), (8, "y = b * 2;")]),
                set(&prog, &[(7, "x = a + 1;"), (10, "printf(\"%d\\n\", y);")]),
                set(&prog, &[(8, "y = b * 2;"), (9, "printf(\"%d\\n\", x);")]),
                set(
                    &prog,
                    &[(9, "printf(\"%d\\n\", x);"), (10, "printf(\"%d\\n\", y);")]
                ),
            ]
        )
    );
    assert_eq!(loc.incomplete, None);
    assert!(
        !loc.notes.iter().any(|n| n.starts_with(NOTE)),
        "{:?}",
        loc.notes
    );
}

#[test]
fn beyond_the_bound_the_search_stops_partial_with_a_note() {
    let (_, loc) = localize(1);
    assert!(loc.diagnoses.is_empty(), "{:?}", loc.diagnoses);
    assert_eq!(loc.incomplete, Some(Incomplete::Effort(0)));
    assert!(
        loc.notes
            .iter()
            .any(|n| n == &format!("{NOTE} (1 units; --effort 0 removes it)")),
        "{:?}",
        loc.notes
    );
}
