//! The heap's runtime errors, with their exact messages (kind, statement,
//! allocation and free sites), and the limits of allocation.

mod common;

use common::run;

fn error(src: &str) -> (String, String) {
    run(src).1.expect("a runtime error")
}

#[test]
fn use_after_free_names_the_allocation_and_the_free() {
    assert_eq!(
        error(
            "#include <stdlib.h>\nint main(void) {\n  int *p = malloc(2 * sizeof *p);\n  \
             p[0] = 1;\n  free(p);\n  return p[0];\n}\n"
        ),
        (
            "use-after-free".into(),
            "t.c:6: use of freed memory: heap block (8 bytes, allocated at t.c:3, freed at t.c:5) (in `return p[0];`)".into()
        )
    );
}

#[test]
fn double_free() {
    assert_eq!(
        error("#include <stdlib.h>\nint main(void) {\n  char *s = malloc(3);\n  free(s);\n  free(s);\n}\n"),
        (
            "double-free".into(),
            "t.c:5: double free: free of heap block (3 bytes, allocated at t.c:3, already freed at t.c:4) (in `free(s);`)".into()
        )
    );
}

#[test]
fn free_of_a_non_heap_pointer() {
    assert_eq!(
        error("#include <stdlib.h>\nint main(void) {\n  int x = 1;\n  free(&x);\n}\n"),
        (
            "invalid-free".into(),
            "t.c:4: free of a pointer that is not heap memory (it points to 'x') (in `free(&x);`)"
                .into()
        )
    );
    assert_eq!(
        error("#include <stdlib.h>\nint main(void) {\n  int *p = malloc(8);\n  free(p + 1);\n}\n"),
        (
            "invalid-free".into(),
            "t.c:4: free of a pointer into the middle of heap block (8 bytes, allocated at t.c:3) (in `free(p + 1);`)"
                .into()
        )
    );
    // free(NULL) does nothing.
    assert_eq!(
        run("#include <stdlib.h>\nint main(void) { free(NULL); return 0; }\n").1,
        None
    );
}

#[test]
fn heap_overflow() {
    assert_eq!(
        error("#include <stdlib.h>\nint main(void) {\n  long *p = malloc(3 * sizeof(long));\n  p[3] = 1;\n}\n"),
        (
            "out-of-bounds".into(),
            "t.c:4: pointer dereference out of bounds of heap block (24 bytes, allocated at t.c:3) (cell 3 of 3) (in `p[3] = 1;`)".into()
        )
    );
}

#[test]
fn uninitialized_heap_reads_but_not_calloc() {
    assert_eq!(
        error("#include <stdlib.h>\nint main(void) {\n  int *p = malloc(sizeof(int));\n  return *p;\n}\n"),
        (
            "uninitialized-read".into(),
            "t.c:4: read of uninitialized heap block (4 bytes, allocated at t.c:3) (in `return *p;`)".into()
        )
    );
    // realloc's growth is uninitialized, what it keeps is not.
    assert_eq!(
        error(
            "#include <stdlib.h>\nint main(void) {\n  int *p = calloc(1, sizeof(int));\n  \
             p = realloc(p, 2 * sizeof(int));\n  return p[0] + p[1];\n}\n"
        ),
        (
            "uninitialized-read".into(),
            "t.c:5: read of uninitialized heap block (8 bytes, allocated at t.c:4) (in `return p[0] + p[1];`)".into()
        )
    );
}

#[test]
fn allocation_limits() {
    // Beyond PTRDIFF_MAX malloc returns NULL, as glibc's does.
    assert_eq!(
        run("#include <stdio.h>\n#include <stdlib.h>\nint main(void) { printf(\"%d\\n\", malloc((size_t)-1) == NULL); return 0; }\n"),
        ("1\n".into(), None)
    );
    // Below it, more than faultline holds is a clear error.
    assert_eq!(
        error("#include <stdlib.h>\nint main(void) {\n  char *p = malloc(1L << 40);\n  return p != 0;\n}\n"),
        (
            "heap-limit".into(),
            "t.c:3: allocating 1099511627776 bytes would exceed faultline's heap limit of 64 MiB held at once (in `char *p = malloc(1L << 40);`)".into()
        )
    );
}

#[test]
fn a_heap_block_is_typed_by_its_first_use() {
    assert_eq!(
        error("#include <stdlib.h>\nint main(void) {\n  int *p = malloc(8);\n  char *c = (char *)p;\n  return c[0];\n}\n"),
        (
            "unsupported".into(),
            "t.c:4: unsupported: access to heap block (8 bytes, allocated at t.c:3) through a pointer to char (memory holds typed values, not bytes) (in `char *c = (char *)p;`)".into()
        )
    );
}

#[test]
fn a_variable_length_array_dies_with_its_function() {
    assert_eq!(
        error(
            "int *f(int n) {\n  int a[n];\n  a[0] = n;\n  return a;\n}\n\
             int main(void) {\n  int *p = f(3);\n  return *p;\n}\n"
        ),
        (
            "dangling-pointer".into(),
            "t.c:8: dereference of a dangling pointer (its object's lifetime has ended) (in `return *p;`)".into()
        )
    );
    assert_eq!(
        error("#include <stdlib.h>\nint main(void) {\n  int n = 2;\n  int a[n];\n  free(a);\n}\n"),
        (
            "invalid-free".into(),
            "t.c:5: free of a pointer that is not heap memory (it points to variable-length array (8 bytes, declared at t.c:4)) (in `free(a);`)".into()
        )
    );
}

#[test]
fn qsort_survives_a_comparator_that_frees_the_array() {
    assert_eq!(
        error(
            "#include <stdlib.h>\nint *g;\n\
             int c(const void *a, const void *b) { free(g); return 0; }\n\
             int main(void) {\n  g = malloc(2 * sizeof(int));\n  g[0] = g[1] = 1;\n  qsort(g, 2, sizeof(int), c);\n}\n"
        ),
        (
            "invalid".into(),
            "t.c:7: qsort: the comparison function freed or moved the array being sorted (in `qsort(g, 2, sizeof(int), c);`)".into()
        )
    );
}
