//! Every library function faultline implements has both semantics: for each
//! [`Builtin`], a small program calling it (arguments made from its
//! signature) is lowered by the front end to that builtin, runs in the
//! interpreter to a normal exit, and is encoded by the symbolic executor into
//! a formula that the run satisfies with nothing relaxed. A builtin the
//! encoder does not implement must say why in [`Builtin::encodable`]; the
//! encoder must then refuse it.

use faultline_exec::{ExecOptions, Executable, Input, Termination, TestCase};
use faultline_ir::visit::{any_expr, for_each_stmt, stmt_exprs};
use faultline_ir::{Builtin, ExprKind, Program, Type, DOUBLE, INT, LONG, ULONG};
use faultline_smt::{encode_test, AbVars, Bounds, Encoding, IntSemantics, Sink};
use z3::ast::Bool;
use z3::{SatResult, Solver};

const STDIN: &[u8] = b"12";

/// A C argument of type `t` (`dst`: the destination of a string copy;
/// `reads`: a stream read from).
fn argument(t: &Type, dst: bool, reads: bool) -> &'static str {
    match t {
        Type::Stream if reads => "stdin",
        Type::Stream => "stdout",
        Type::Ptr(p) if p.is_pointer() => "NULL",
        Type::Ptr(_) if dst => "buf",
        Type::Ptr(_) => "\"12\"",
        t if *t == Type::Int(faultline_ir::IntKind::UInt) => "2u",
        t if *t == INT => "65",
        t if *t == LONG => "65L",
        t if *t == ULONG => "2",
        t if *t == DOUBLE => "2.0",
        t => panic!("no test argument of type {t:?}"),
    }
}

/// Programs for the builtins whose arguments cannot be made from their
/// signature alone (heap blocks, function pointers, VLAs): (definitions
/// before `main`, statements of `main`).
fn special_program(b: Builtin) -> Option<(&'static str, &'static str)> {
    let cmp =
        "int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }\n";
    Some(match b {
        Builtin::Malloc => (
            "",
            "char *p = malloc(3); p[0] = 'a'; p[1] = 0; printf(\"%s\\n\", p); free(p);",
        ),
        Builtin::Calloc => ("", "int *p = calloc(2, sizeof(int)); printf(\"%d\\n\", p[1]);"),
        Builtin::Realloc => (
            "",
            "int *p = realloc(0, sizeof(int)); *p = 65; printf(\"%d\\n\", *p);",
        ),
        Builtin::Free => ("", "free(malloc(2));"),
        Builtin::Alloca => ("", "int n = 2; int a[n]; a[1] = 65; printf(\"%d\\n\", a[1]);"),
        Builtin::BadCall => (
            "int id(int x) { return x; }\n",
            "int (*f)(int) = id; printf(\"%d\\n\", f(65));",
        ),
        Builtin::Qsort => (
            cmp,
            "int v[3] = {3, 1, 2}; qsort(v, 3, sizeof v[0], cmp); printf(\"%d\\n\", v[0]);",
        ),
        Builtin::Bsearch => (
            cmp,
            "int v[3] = {1, 2, 3}, k = 2; printf(\"%d\\n\", bsearch(&k, v, 3, sizeof(int), cmp) != 0);",
        ),
        _ => return None,
    })
}

/// A program that calls `b` once and prints what it returns.
fn program_calling(b: Builtin) -> String {
    if let Some((defs, stmt)) = special_program(b) {
        return format!(
            "#include <stdio.h>\n#include <stdlib.h>\n{defs}char buf[16] = \"ab\";\n\
             int main(void) {{\n  {stmt}\n  printf(\"%s\\n\", buf);\n  return 0;\n}}\n"
        );
    }
    let sig = b.signature();
    let copies =
        sig.ret.is_pointer() || matches!(b, Builtin::Sprintf | Builtin::Snprintf | Builtin::Gets);
    let reads = b.is_input() || matches!(b, Builtin::Ungetc | Builtin::Feof | Builtin::Ferror);
    let args: Vec<&str> = sig
        .params
        .iter()
        .enumerate()
        .map(|(i, t)| argument(t, copies && i == 0, reads))
        .collect();
    let call = format!("{}({})", b.name(), args.join(", "));
    let stmt = match &sig.ret {
        Type::Void => format!("{call};"),
        Type::Stream => format!("printf(\"%d\\n\", {call} == NULL);"),
        Type::Ptr(_) => format!("printf(\"%s\\n\", {call});"),
        t if *t == DOUBLE => format!("printf(\"%f\\n\", {call});"),
        _ => format!("printf(\"%ld\\n\", (long)({call}));"),
    };
    format!(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <math.h>\n\
         #include <ctype.h>\n#include <assert.h>\n\
         char buf[16] = \"Ab12\";\nint main(void) {{\n  {stmt}\n  printf(\"%s\\n\", buf);\n  return 0;\n}}\n"
    )
}

fn calls_builtin(prog: &Program, b: Builtin) -> bool {
    let mut found = false;
    for f in &prog.functions {
        for_each_stmt(&f.body, &mut |s| {
            stmt_exprs(s, |e| {
                found |= any_expr(e, |e| match &e.kind {
                    ExprKind::Builtin { func, .. } if *func == b => Some(true),
                    _ => None,
                })
            })
        });
    }
    found
}

/// Runs `b`'s program in the interpreter and returns it as a passing test.
fn interpret(prog: &Program, b: Builtin) -> TestCase {
    let exe = Executable::new(prog).expect("starts");
    let run = exe.run(
        Input {
            args: &[],
            stdin: STDIN,
            workdir: None,
        },
        ExecOptions::default(),
    );
    let Termination::Exit(status) = run.termination else {
        panic!(
            "{}: the interpreter ends with {:?}",
            b.name(),
            run.termination
        );
    };
    TestCase {
        name: b.name().to_string(),
        args: Vec::new(),
        stdin: STDIN.to_vec(),
        expected_stdout: run.stdout,
        expected_status: Some(status),
        workdir: None,
    }
}

#[test]
fn every_builtin_has_interpreter_and_encoder_semantics() {
    for b in Builtin::ALL {
        if b == Builtin::Abort {
            // Ends the run (as a failed assertion does); tested with the CLI.
            continue;
        }
        let src = program_calling(b);
        let prog = faultline_c::compile_source("t.c", &src)
            .unwrap_or_else(|e| panic!("{}: {e}\n{src}", b.name()));
        assert!(
            calls_builtin(&prog, b),
            "{}: not lowered to the builtin",
            b.name()
        );
        let test = interpret(&prog, b);

        let solver = Solver::new();
        let mut ab = AbVars::new();
        let encoded = encode_test(
            &prog,
            &test,
            Encoding::Full,
            IntSemantics::BitVector,
            &Bounds::default(),
            None,
            &mut ab,
            &Sink::new(&solver),
        );
        match (b.encodable(), encoded) {
            (Ok(()), Ok(_)) => {
                let nothing_relaxed: Vec<Bool> = ab.stmts().map(|(_, v)| v.not()).collect();
                assert_eq!(
                    solver.check_assumptions(&nothing_relaxed),
                    SatResult::Sat,
                    "{}: the encoding disagrees with the interpreter",
                    b.name()
                );
            }
            (Ok(()), Err(e)) => panic!("{}: not encoded: {}", b.name(), e.describe(&prog)),
            (Err(_), Ok(_)) => panic!(
                "{}: marked as not encodable, but the encoder encodes it",
                b.name()
            ),
            (Err(_), Err(_)) => {}
        }
    }
}

#[test]
fn the_encoder_tells_apart_another_output() {
    // The same programs with a different expected output are unsatisfiable
    // with nothing relaxed (the builtins are not left unconstrained).
    for b in [
        Builtin::Strlen,
        Builtin::IsDigit,
        Builtin::ToUpper,
        Builtin::Atoi,
    ] {
        let prog = faultline_c::compile_source("t.c", &program_calling(b)).expect("compiles");
        let mut test = interpret(&prog, b);
        test.expected_stdout[0] ^= 1;
        let solver = Solver::new();
        let mut ab = AbVars::new();
        encode_test(
            &prog,
            &test,
            Encoding::Full,
            IntSemantics::BitVector,
            &Bounds::default(),
            None,
            &mut ab,
            &Sink::new(&solver),
        )
        .expect("encodes");
        let nothing_relaxed: Vec<Bool> = ab.stmts().map(|(_, v)| v.not()).collect();
        assert_eq!(
            solver.check_assumptions(&nothing_relaxed),
            SatResult::Unsat,
            "{}",
            b.name()
        );
    }
}
