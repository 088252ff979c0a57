//! Unions are not encoded: a formula that would access one is refused with
//! the statement and the reason (the localization skips the test and is
//! marked partial), never encoded as if the members did not overlap. The
//! full encoding covers every path, so it refuses every test of a program
//! reaching a union; the trace encoding refuses only a run that accesses one.

use faultline_exec::TestCase;
use faultline_smt::{encode_test, AbVars, Bounds, Encoding, IntSemantics, Sink};
use z3::Solver;

const SRC: &str = "#include <stdio.h>\n\
union U { float f; int i; };\n\
int main(void) {\n\
  int n;\n\
  union U u;\n\
  if (scanf(\"%d\", &n) != 1) return 1;\n\
  if (n > 0) {\n\
    u.f = 1.5f;\n\
    printf(\"%x\\n\", u.i);\n\
  } else {\n\
    printf(\"%d\\n\", n);\n\
  }\n\
  return 0;\n\
}\n";

fn encode(prog: &faultline_ir::Program, enc: Encoding, stdin: &[u8]) -> Result<(), String> {
    let test = TestCase {
        name: "t".into(),
        args: Vec::new(),
        stdin: stdin.to_vec(),
        expected_stdout: b"0\n".to_vec(),
        expected_status: None,
        workdir: None,
    };
    let solver = Solver::new();
    let mut ab = AbVars::new();
    encode_test(
        prog,
        &test,
        enc,
        IntSemantics::BitVector,
        &Bounds::default(),
        None,
        &mut ab,
        &Sink::new(&solver),
    )
    .map(|_| ())
    .map_err(|e| e.describe(prog))
}

#[test]
fn a_run_through_a_union_is_refused() {
    let prog = faultline_c::compile_source("u.c", SRC).expect("compiles");
    let refused = Err("u.c:8: cannot encode `u.f = 1.5f;`: a union (its members overlap in memory, which the encoder does not model)".to_string());
    assert_eq!(encode(&prog, Encoding::Full, b"1"), refused);
    assert_eq!(encode(&prog, Encoding::Full, b"-1"), refused);
    assert_eq!(encode(&prog, Encoding::Trace, b"1"), refused);
    assert_eq!(encode(&prog, Encoding::Trace, b"-1"), Ok(()));
}
