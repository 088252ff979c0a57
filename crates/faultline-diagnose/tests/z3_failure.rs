//! Z3 failing (here: out of memory, by a tiny `memory_max_size`) is a limit
//! of the localization, never a panic. Z3's memory cap is global to the
//! process, so this test has a test binary of its own.

use faultline_diagnose::methods::{self, Method};
use faultline_diagnose::{Combine, Incomplete, Options, Session};
use faultline_exec::{Budget, Compare, Limits, TestCase};
use faultline_smt::Encoding;

#[test]
fn z3_running_out_of_memory_is_a_memory_limit() {
    let prog = faultline_c::compile_source(
        "mid.c",
        "#include <stdio.h>\n\
         int main(void) {\n\
             int x, y, z, m;\n\
             scanf(\"%d %d %d\", &x, &y, &z);\n\
             m = z;\n\
             if (y < z) {\n\
                 if (x < y) m = y;\n\
                 else if (x < z) m = y;\n\
             } else {\n\
                 if (x > y) m = y;\n\
                 else if (x > z) m = x;\n\
             }\n\
             printf(\"%d\\n\", m);\n\
             return 0;\n\
         }\n",
    )
    .expect("compiles");
    let test = |name: &str, input: &str, out: &str| TestCase {
        name: name.into(),
        args: Vec::new(),
        stdin: input.as_bytes().to_vec(),
        expected_stdout: out.as_bytes().to_vec(),
        expected_status: None,
        workdir: None,
    };
    let tests = vec![test("t1", "3 3 5\n", "3\n"), test("t2", "2 1 3\n", "2\n")];
    let session = Session::new(&prog, &tests, Compare::Exact, Limits::default()).expect("runs");
    assert_eq!(session.failing, vec![1]);
    let method = Method::Formula {
        encoding: Encoding::Full,
        combine: Combine::Mbd,
        weights: None,
    };
    // The thread's Z3 context exists before its memory is capped (Z3 could
    // not make one after).
    let _scope = faultline_smt::limits::enter(&Budget::unlimited());
    faultline_smt::limits::cap_z3_memory(1);
    let loc = methods::run(&session, &method, &Options::default());
    assert_eq!(loc.incomplete, Some(Incomplete::Memory));
    assert!(loc.diagnoses.is_empty());
    // Once the limit is reached, Z3's cap is lifted, so that what the search
    // held could be released (Z3 at its cap fails allocations where it
    // catches nothing, and the process ends): Z3 works again.
    let x = z3::ast::Int::new_const("x");
    let solver = z3::Solver::new();
    solver.assert(x.gt(z3::ast::Int::from_i64(1)));
    assert_eq!(solver.check(), z3::SatResult::Sat);
}
