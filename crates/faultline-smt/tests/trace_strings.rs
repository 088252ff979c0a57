//! Two encodings checked on small programs with exact outcomes:
//!
//! - The `trace` encoding of a `switch` enters the recorded case alone: an
//!   untaken case's code (here a loop) is not encoded at all, as the untaken
//!   side of an `if` is not.
//! - `strcpy`/`strncpy`/`strcat` of a string with computed characters copy
//!   them up to the NUL (`strcat` also after a destination string whose
//!   length is computed; the formula with nothing relaxed has the run's
//!   output as its only model; relaxing the statement that computes a
//!   character lets the copy carry another one), and an overflow of the
//!   destination is excluded as the interpreter's runtime error is.

use faultline_exec::{ExecOptions, Executable, Input, TestCase, Trace};
use faultline_smt::{
    encode_test, AbVars, Bounds, Encoding, IntSemantics, Sink, TestEncoding, TracePolicy,
};
use z3::ast::Bool;
use z3::{SatResult, Solver};

fn compile(src: &str) -> faultline_ir::Program {
    faultline_c::compile_source("t.c", src).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

fn test_case(stdin: &str, expected: &str) -> TestCase {
    TestCase {
        name: "t".into(),
        args: Vec::new(),
        stdin: stdin.as_bytes().to_vec(),
        expected_stdout: expected.as_bytes().to_vec(),
        expected_status: None,
        workdir: None,
    }
}

/// The run's stdout and trace (or `None` for stdout after a runtime error).
fn run(prog: &faultline_ir::Program, stdin: &str) -> (Option<String>, Trace) {
    let exe = Executable::new(prog).expect("starts");
    let opts = ExecOptions {
        record_trace: true,
        ..ExecOptions::default()
    };
    let r = exe.run(
        Input {
            args: &[],
            stdin: stdin.as_bytes(),
            workdir: None,
        },
        opts,
    );
    let out = match r.termination {
        faultline_exec::Termination::Exit(0) => Some(String::from_utf8(r.stdout).expect("utf-8")),
        _ => None,
    };
    (out, r.trace.expect("traced"))
}

/// Encodes the test; returns its encoding and whether the formula is
/// satisfiable with exactly the statements on `relaxed_lines` relaxable.
fn check(
    prog: &faultline_ir::Program,
    test: &TestCase,
    encoding: Encoding,
    trace: Option<&Trace>,
    relaxed_lines: &[u32],
) -> (TestEncoding, SatResult) {
    let bounds = Bounds {
        default_loop: 12,
        ..Bounds::default()
    };
    let solver = Solver::new();
    let mut ab = AbVars::new();
    let mut policy = trace.map(TracePolicy::new);
    let enc = encode_test(
        prog,
        test,
        encoding,
        IntSemantics::BitVector,
        &bounds,
        policy
            .as_mut()
            .map(|p| p as &mut dyn faultline_smt::BranchPolicy),
        &mut ab,
        &Sink::new(&solver),
    )
    .unwrap_or_else(|e| panic!("{}", e.describe(prog)));
    let fixed: Vec<Bool> = ab
        .stmts()
        .filter(|(s, _)| !relaxed_lines.contains(&prog.stmt(*s).loc.line))
        .map(|(_, b)| b.not())
        .collect();
    let r = solver.check_assumptions(&fixed);
    (enc, r)
}

/// A program whose `switch` in a loop takes case 1 on input "1 1", and whose
/// case 2 holds `untaken` (a loop, or nothing). The switch's value comes from
/// an assignment, which the formula may relax.
fn switch_program(untaken: &str) -> String {
    format!(
        "#include <stdio.h>\n\
         int main(void) {{\n\
           int k, v, n = 0, s = 0, i;\n\
           while (scanf(\"%d\", &k) == 1) {{ v = k;\n\
             switch (v) {{\n\
             case 1: s += 10; break;\n\
             case 2: {untaken} break;\n\
             default: s = -1;\n\
             }}\n\
             n++;\n\
           }}\n\
           printf(\"%d %d\\n\", n, s);\n\
           return 0;\n\
         }}\n"
    )
}

#[test]
fn trace_enters_only_the_recorded_case_of_a_switch() {
    let with_loop = compile(&switch_program("for (i = 0; i < 9; i++) s += i;"));
    let without = compile(&switch_program(""));
    let test = test_case("1 1", "2 21\n");
    let mut counts = Vec::new();
    for prog in [&with_loop, &without] {
        let (out, trace) = run(prog, "1 1");
        assert_eq!(out.as_deref(), Some("2 20\n"));
        let (enc, sat) = check(prog, &test, Encoding::Trace, Some(&trace), &[6]);
        // `s += 10` relaxed explains the expected output on the run's path.
        assert_eq!(sat, SatResult::Sat);
        assert_eq!(enc.notes, Vec::<String>::new());
        let (_, sat) = check(prog, &test, Encoding::Trace, Some(&trace), &[]);
        assert_eq!(sat, SatResult::Unsat);
        counts.push(enc.instances);
    }
    // The untaken case's loop adds nothing to the trace formula.
    assert_eq!(counts[0], counts[1]);
    // The full formula does encode it.
    let (full, _) = check(&with_loop, &test, Encoding::Full, None, &[]);
    let (full_without, _) = check(&without, &test, Encoding::Full, None, &[]);
    assert!(full.instances > full_without.instances);
}

/// A program copying a string whose first character is computed from the
/// input (line 5) with `call` (line 6) and printing the copy.
fn copy_program(dst_size: usize, call: &str) -> faultline_ir::Program {
    compile(&format!(
        "#include <stdio.h>\n#include <string.h>\n\
         int main(void) {{\n  char a[6], b[{dst_size}]; int n;\n\
         if (scanf(\"%d\", &n) != 1) return 1; a[0] = 'a' + n; a[1] = 'b'; a[2] = 'c'; a[3] = 0; a[4] = 'z'; a[5] = 'z';\n\
         strcpy(b, \"xy\"); {call};\n\
         printf(\"%s|%c%c\\n\", b, b[3], b[{last}]);\n  return 0;\n}}\n",
        last = dst_size - 1
    ))
}

#[test]
fn copies_of_computed_strings() {
    // strcpy: the NUL is copied, the rest of the destination is kept.
    let prog = copy_program(6, "strcpy(b, a)");
    let (out, _) = run(&prog, "1");
    // b[3] is the copied NUL, b[5] never written: the interpreter stops.
    assert_eq!(out, None);
    let prog = copy_program(4, "strcpy(b, a)");
    let (out, _) = run(&prog, "1");
    assert_eq!(out.as_deref(), Some("bbc|\0\0\n"));
    for enc in [Encoding::Full, Encoding::Trace] {
        let (_, trace) = run(&prog, "1");
        let t = if enc == Encoding::Trace {
            Some(&trace)
        } else {
            None
        };
        let ok = test_case("1", "bbc|\0\0\n");
        assert_eq!(check(&prog, &ok, enc, t, &[]).1, SatResult::Sat);
        let other = test_case("1", "qbc|\0\0\n");
        assert_eq!(check(&prog, &other, enc, t, &[]).1, SatResult::Unsat);
        // Relaxing the statements of line 5 (the computed characters).
        assert_eq!(check(&prog, &other, enc, t, &[5]).1, SatResult::Sat);
    }
    // strcpy into a destination too small for the copy and its NUL.
    let prog = copy_program(3, "strcpy(b, a)");
    assert_eq!(run(&prog, "1").0, None);
    let any = test_case("1", "bbc|");
    assert_eq!(
        check(&prog, &any, Encoding::Full, None, &[]).1,
        SatResult::Unsat
    );
    // strncpy pads with NULs up to its length; strcat appends after "xy".
    let prog = copy_program(5, "strncpy(b, a, 5)");
    assert_eq!(run(&prog, "2").0.as_deref(), Some("cbc|\0\0\n"));
    let t = test_case("2", "cbc|\0\0\n");
    assert_eq!(
        check(&prog, &t, Encoding::Full, None, &[]).1,
        SatResult::Sat
    );
    let prog = copy_program(6, "strcat(b, a)");
    assert_eq!(run(&prog, "0").0.as_deref(), Some("xyabc|b\0\n"));
    // (On the run's path, where "xy" is known to be there.)
    let (_, trace) = run(&prog, "0");
    let tr = Some(&trace);
    let t = test_case("0", "xyabc|b\0\n");
    assert_eq!(check(&prog, &t, Encoding::Trace, tr, &[]).1, SatResult::Sat);
    let t = test_case("0", "xyqbc|b\0\n");
    assert_eq!(
        check(&prog, &t, Encoding::Trace, tr, &[]).1,
        SatResult::Unsat
    );
    assert_eq!(
        check(&prog, &t, Encoding::Trace, tr, &[5]).1,
        SatResult::Sat
    );
    // In `full` "xy" is stored under the path's guard, so the destination's
    // length is computed: the copy lands after it, whatever it is.
    assert_eq!(
        check(&prog, &t, Encoding::Full, None, &[]).1,
        SatResult::Unsat
    );
    assert_eq!(
        check(&prog, &t, Encoding::Full, None, &[5]).1,
        SatResult::Sat
    );
    let ok = test_case("0", "xyabc|b\0\n");
    assert_eq!(
        check(&prog, &ok, Encoding::Full, None, &[]).1,
        SatResult::Sat
    );
}
