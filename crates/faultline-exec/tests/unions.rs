//! Unions on typed cells (`interp/unions.rs`): pointers stored and read back,
//! what cannot be decoded exactly (a pointer's bytes as a narrower integer, an
//! integer that is no address as a pointer) refused with the exact runtime
//! error, a dereference leaving a union member out of bounds. Punning of
//! integers and floats is compared with gcc in tests/programs/union_*.

mod common;

use common::run;

const DEFS: &str = "#include <stdio.h>\nunion P { int *p; long l; int i; };\n";

#[test]
fn a_pointer_round_trips_through_its_bytes() {
    let (out, err) = run(&format!(
        "{DEFS}int main(void) {{\n  int x = 5;\n  union P u, w;\n  u.p = &x;\n  w.l = u.l;\n  \
         printf(\"%d %d\\n\", *w.p, w.p == &x);\n  u.l = 0;\n  printf(\"%d\\n\", u.p == 0);\n  return 0;\n}}\n"
    ));
    assert_eq!((out.as_str(), err), ("5 1\n1\n", None));
}

#[test]
fn part_of_a_pointer_is_refused() {
    assert_eq!(
        run(&format!(
            "{DEFS}int main(void) {{\n  int x = 5;\n  union P u;\n  u.p = &x;\n  return u.i;\n}}\n"
        ))
        .1,
        Some((
            "unsupported".into(),
            "t.c:7: unsupported: read of a member of type int of the union in 'u' whose bytes hold a pointer or part of one (memory holds typed values, not bytes) (in `return u.i;`)".into()
        ))
    );
}

#[test]
fn an_integer_that_is_no_address_is_refused_as_a_pointer() {
    assert_eq!(
        run(&format!(
            "{DEFS}int main(void) {{\n  union P u;\n  u.l = 12345;\n  return u.p != 0;\n}}\n"
        ))
        .1,
        Some((
            "unsupported".into(),
            "t.c:6: unsupported: read of a member of type int * of the union in 'u' whose bytes hold an integer that is not the address of an object (memory holds typed values, not bytes) (in `return u.p != 0;`)".into()
        ))
    );
}

#[test]
fn a_dereference_past_a_member_is_out_of_bounds() {
    let src =
        "union A { int a[2]; char c[8]; };\nint main(void) {\n  union A u;\n  int *q = u.a;\n  \
               u.a[0] = 1;\n  u.a[1] = 2;\n  return q[2];\n}\n";
    assert_eq!(
        run(src).1,
        Some((
            "out-of-bounds".into(),
            "t.c:7: pointer dereference out of bounds of the union member it points into, in 'u' (in `return q[2];`)".into()
        ))
    );
}

#[test]
fn a_member_partly_written_is_uninitialized() {
    let src = "union M { char c; int i; };\nint main(void) {\n  union M m;\n  m.c = 7;\n  return m.i;\n}\n";
    assert_eq!(
        run(src).1,
        Some((
            "uninitialized-read".into(),
            "t.c:5: read of uninitialized 'm' (in `return m.i;`)".into()
        ))
    );
}

#[test]
fn pointers_to_members_compare_by_address() {
    let src = "#include <stdio.h>\nunion U { int i; char c[4]; struct { char a, b; } s; };\nint main(void) {\n  \
               union U u;\n  printf(\"%d %d %d %d\\n\", (void *)&u.i == (void *)&u.c, (void *)&u.s.b == (void *)&u.c[1],\n  \
               (char *)&u.s.b < &u.c[2], (void *)&u == (void *)&u.s);\n  return 0;\n}\n";
    assert_eq!(run(src), ("1 1 1 1\n".to_string(), None));
}
