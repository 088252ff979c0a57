//! The heap's runtime errors are excluded from the formula like an
//! out-of-bounds access: for each error, a program making it on the test's
//! path has no model with nothing relaxed, whatever it prints, while the same
//! program without the error has its run as model. The interpreter stops
//! each erroneous program with the corresponding error.

use faultline_exec::{ExecOptions, Executable, Input, Termination, TestCase};
use faultline_smt::{encode_test, AbVars, Bounds, Encoding, IntSemantics, Sink};
use z3::ast::Bool;
use z3::{SatResult, Solver};

/// A program whose `main` runs `body` (with `n` read from stdin first).
fn program(defs: &str, body: &str) -> faultline_ir::Program {
    let src = format!(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n{defs}\n\
         int main(void) {{\n  int n;\n  if (scanf(\"%d\", &n) != 1) return 1;\n  {body}\n  return 0;\n}}\n"
    );
    faultline_c::compile_source("heap.c", &src).unwrap_or_else(|e| panic!("{e}\n{src}"))
}

/// Runs the program on stdin "3": its stdout, or `None` after a runtime error.
fn run(prog: &faultline_ir::Program) -> Option<Vec<u8>> {
    let exe = Executable::new(prog).expect("starts");
    let r = exe.run(
        Input {
            args: &[],
            stdin: b"3",
            workdir: None,
        },
        ExecOptions::default(),
    );
    match r.termination {
        Termination::Exit(0) => Some(r.stdout),
        _ => None,
    }
}

/// Whether the formula with nothing relaxed and `expected` as the expected
/// stdout is satisfiable.
fn satisfiable(prog: &faultline_ir::Program, expected: &[u8]) -> SatResult {
    let test = TestCase {
        name: "t".into(),
        args: Vec::new(),
        stdin: b"3".to_vec(),
        expected_stdout: expected.to_vec(),
        expected_status: None,
        workdir: None,
    };
    let bounds = Bounds {
        default_loop: 5,
        ..Bounds::default()
    };
    let solver = Solver::new();
    let mut ab = AbVars::new();
    encode_test(
        prog,
        &test,
        Encoding::Full,
        IntSemantics::BitVector,
        &bounds,
        None,
        &mut ab,
        &Sink::new(&solver),
    )
    .unwrap_or_else(|e| panic!("{}", e.describe(prog)));
    let nothing: Vec<Bool> = ab.stmts().map(|(_, b)| b.not()).collect();
    solver.check_assumptions(&nothing)
}

/// (what, definitions, the erroneous body, the same without the error).
const CASES: &[(&str, &str, &str, &str)] = &[
    (
        "use after free",
        "",
        "int *p = malloc(sizeof(int)); *p = 5; free(p); printf(\"%d\\n\", *p);",
        "int *p = malloc(sizeof(int)); *p = 5; printf(\"%d\\n\", *p); free(p);",
    ),
    (
        "double free",
        "",
        "int *p = malloc(sizeof(int)); *p = 5; printf(\"%d\\n\", *p); free(p); free(p);",
        "int *p = malloc(sizeof(int)); *p = 5; printf(\"%d\\n\", *p); free(p); p = NULL; free(p);",
    ),
    (
        "free of the middle of a block",
        "",
        "int *p = malloc(2 * sizeof(int)); p[0] = 5; printf(\"%d\\n\", p[0]); free(p + 1);",
        "int *p = malloc(2 * sizeof(int)); p[0] = 5; printf(\"%d\\n\", p[0]); free(p + 0);",
    ),
    (
        "free of a local",
        "",
        "int x = 5, *p = &x; printf(\"%d\\n\", x); free(p);",
        "int x = 5, *p = malloc(sizeof(int)); printf(\"%d\\n\", x); free(p);",
    ),
    (
        "out of bounds of a computed size",
        "",
        "int i, *a = malloc(n * sizeof(int)); for (i = 0; i <= n; i++) a[i] = i + 3; printf(\"%d\\n\", a[n - 1]);",
        "int i, *a = malloc(n * sizeof(int)); for (i = 0; i < n; i++) a[i] = i + 3; printf(\"%d\\n\", a[n - 1]);",
    ),
    (
        "uninitialized malloc",
        "",
        "int *a = malloc(2 * sizeof(int)); a[0] = 5; printf(\"%d\\n\", a[0] + a[1]);",
        "int *a = calloc(2, sizeof(int)); a[0] = 5; printf(\"%d\\n\", a[0] + a[1]);",
    ),
    (
        "use after realloc",
        "",
        "int *a = malloc(sizeof(int)), *b; a[0] = 5; b = realloc(a, 2 * sizeof(int)); printf(\"%d\\n\", a[0]);",
        "int *a = malloc(sizeof(int)), *b; a[0] = 5; b = realloc(a, 2 * sizeof(int)); printf(\"%d\\n\", b[0]);",
    ),
    (
        "variable-length array out of bounds",
        "",
        "int i, v[n]; for (i = 0; i <= n; i++) v[i] = 5; printf(\"%d\\n\", v[0]);",
        "int i, v[n]; for (i = 0; i < n; i++) v[i] = 5; printf(\"%d\\n\", v[0]);",
    ),
    (
        "call through a null function pointer",
        "int five(int x) { return 5; }",
        "int (*f)(int) = n > 5 ? five : 0; printf(\"%d\\n\", f(n));",
        "int (*f)(int) = n > 0 ? five : 0; printf(\"%d\\n\", f(n));",
    ),
    (
        "strdup read past the copy",
        "",
        "char s[8] = \"ab\"; char *d = strdup(s); printf(\"%d\\n\", d[3] + 5);",
        "char s[8] = \"ab\"; char *d = strdup(s); printf(\"%d\\n\", d[2] + 5);",
    ),
];

#[test]
fn heap_errors_are_excluded_and_correct_uses_agree() {
    for (what, defs, bad, good) in CASES {
        let ok = program(defs, good);
        let out = run(&ok).unwrap_or_else(|| panic!("{what}: the correct program fails"));
        assert_eq!(out, b"5\n", "{what}");
        assert_eq!(satisfiable(&ok, &out), SatResult::Sat, "{what}: correct");
        assert_eq!(
            satisfiable(&ok, b"6\n"),
            SatResult::Unsat,
            "{what}: correct, another output"
        );
        let err = program(defs, bad);
        assert_eq!(run(&err), None, "{what}: the interpreter stops");
        assert_eq!(satisfiable(&err, &out), SatResult::Unsat, "{what}: error");
    }
}

/// A size computed by a relaxable statement: `full` bounds it by the values
/// the computed alternative takes (and agrees with the run); `flow`, whose
/// relaxed values are free variables, refuses it with the reason.
#[test]
fn a_relaxable_size_is_bounded_in_full_and_refused_in_flow() {
    let prog = program(
        "",
        "int m, *a; m = n + 2; a = malloc(m * sizeof(int)); a[m - 1] = 5; printf(\"%d\\n\", a[4]);",
    );
    assert_eq!(run(&prog).as_deref(), Some(&b"5\n"[..]));
    assert_eq!(satisfiable(&prog, b"5\n"), SatResult::Sat);
    let test = TestCase {
        name: "t".into(),
        args: Vec::new(),
        stdin: b"3".to_vec(),
        expected_stdout: b"5\n".to_vec(),
        expected_status: None,
        workdir: None,
    };
    let solver = Solver::new();
    let mut ab = AbVars::new();
    let e = encode_test(
        &prog,
        &test,
        Encoding::Flow,
        IntSemantics::BitVector,
        &Bounds::default(),
        None,
        &mut ab,
        &Sink::new(&solver),
    )
    .expect_err("flow refuses");
    assert_eq!(
        e.describe(&prog),
        "heap.c:8: cannot encode `a = malloc(m * sizeof(int));`: an allocation whose size the formula cannot bound"
    );
}
