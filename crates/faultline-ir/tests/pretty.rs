//! The IR's printed form (`faultline_ir::pretty`): conversions made explicit
//! as casts, typed constants, statement ids, `old`, `=post`, library calls.

use faultline_ir::pretty;

const SRC: &str = r#"
int g;
long f(int x) { return x + 1L; }
int main(void) {
  int a[3];
  int i = 0;
  for (i = 0; i < 3; i++) { a[i] = i * 2; }
  do { g += a[1]; } while (g < 5);
  switch (g) { case 6: g = f(g); break; default: g--; }
  printf("%d\n", g);
  return 0;
}
"#;

#[test]
fn a_program() {
    let p = faultline_c::compile_source("t.c", SRC).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        pretty::program(&p),
        r#"global g: int

fn f(x: int) -> long {
  s0: return (long)x + 1:long;
}

fn main() -> int {
  local a: int[3]
  local i: int
  declare a;
  s1: init i = 0;
  s2: i = 0;
  s3: while (i < 3) {
    s5: a[(long)i] = i * 2;
    s14: insert output;
    s15: insert assign g;
  } step {
    s4: i =post old + 1;
  }
  do {
    s6: g = old + a[(long)1];
    s16: insert output;
    s17: insert assign i;
  } s7: while (g < 5);
  s8: switch (g) {
  case 6:
    s9: g = (int)f(g);
    s10: break;
  default:
    s11: g =post old - 1;
  }
  s12: $printf("%d\n", g);
  s18: insert output;
  s13: return 0;
}
"#
    );
}

#[test]
fn one_expression() {
    let p = faultline_c::compile_source("t.c", SRC).unwrap_or_else(|e| panic!("{e}"));
    let main = p.func_by_name("main").expect("main");
    let faultline_ir::Stmt::Expr { expr, .. } = &p.func(main).body[2] else {
        panic!("s2 is an expression statement")
    };
    assert_eq!(pretty::expr(&p, main, expr), "i = 0");
}
