//! Casts between pointers and integers (synthetic addresses,
//! `interp/addr.rs`): what converts back and what is refused, with the exact
//! runtime errors. The byte distances themselves are compared with gcc in
//! tests/programs/ptr_int_casts.

mod common;

use common::run;

#[test]
fn an_integer_not_made_from_a_pointer_does_not_convert() {
    assert_eq!(
        run("int main(void) {\n  long a = 1234;\n  int *p = (int *)a;\n  return *p;\n}\n").1,
        Some((
            "unsupported".into(),
            "t.c:3: unsupported: conversion of the integer 1234 to a pointer (only integers made from pointers convert back) (in `int *p = (int *)a;`)".into()
        ))
    );
}

#[test]
fn an_address_inside_a_value_does_not_convert() {
    assert_eq!(
        run("int main(void) {\n  int x[2];\n  long a = (long)x + 1;\n  int *p = (int *)a;\n  return 0;\n}\n").1,
        Some((
            "unsupported".into(),
            "t.c:4: unsupported: conversion of the integer 1099511627777 to a pointer that is not at the start of a value in 'x' (in `int *p = (int *)a;`)".into()
        ))
    );
}

#[test]
fn round_trips_keep_lifetimes() {
    // Through an integer and back, after the block is freed: still a use after free.
    let (out, err) = run(
        "#include <stdio.h>\n#include <stdlib.h>\nint main(void) {\n  int *p = malloc(sizeof *p);\n  \
         unsigned long u = (unsigned long)p;\n  *(int *)u = 7;\n  printf(\"%d\\n\", *p);\n  free(p);\n  \
         return *(int *)u;\n}\n",
    );
    assert_eq!(out, "7\n");
    assert_eq!(err.map(|e| e.0), Some("use-after-free".into()));
    // A pointer one before an array's start and back.
    let (out, err) = run(
        "#include <stdio.h>\nint main(void) {\n  int a[3] = {1, 2, 3};\n  long b = (long)(a + 2) - 2 * (long)sizeof(int);\n  \
         printf(\"%d %ld\\n\", *(int *)b, (long)a - (long)(a + 3));\n  return 0;\n}\n",
    );
    assert_eq!((out.as_str(), err), ("1 -12\n", None));
}
