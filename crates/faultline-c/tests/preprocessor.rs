//! The preprocessor, observed through the lowered program.

use faultline_ir::pretty;

fn ir(src: &str) -> String {
    let p = faultline_c::compile_source("pp.c", src).unwrap_or_else(|e| panic!("{e}"));
    pretty::program(&p)
}

fn texts(src: &str) -> Vec<String> {
    let p = faultline_c::compile_source("pp.c", src).unwrap_or_else(|e| panic!("{e}"));
    p.stmts
        .iter()
        .filter(|s| s.kind != faultline_ir::StmtKind::Insert)
        .map(|s| format!("{}:{} {}", s.loc.line, s.loc.col, s.text))
        .collect()
}

#[test]
fn object_and_function_like_macros() {
    let src = "int v = 2;\n#define v (v + 1)\n#define SQ(x) ((x) * (x))\n#define EMPTY\n\
               #define CALL(f, ...) f(__VA_ARGS__)\n#define SUM(a, \\\n b) ((a) + (b))\n\
               int add(int a, int b) { return a + b; }\n\
               int main(void) {\n  int h = v EMPTY;\n  h = SQ(h + 1);\n  h = CALL(add, 1, 2);\n  h = SUM(h,\n    1);\n  return h;\n}\n";
    let out = ir(src);
    // s0 is the global's initializer `int v = 2;`.
    assert!(out.contains("s2: init h = v + 1;"), "{out}");
    assert!(out.contains("s3: h = (h + 1) * (h + 1);"), "{out}");
    assert!(out.contains("s4: h = add(1, 2);"), "{out}");
    assert!(out.contains("s5: h = h + 1;"), "{out}");
    assert_eq!(
        texts(src),
        [
            "1:1 int v = 2;",
            "8:25 return a + b;",
            "10:3 int h = v EMPTY;",
            "11:3 h = SQ(h + 1);",
            "12:3 h = CALL(add, 1, 2);",
            "13:3 h = SUM(h, 1);",
            "15:3 return h;"
        ]
    );
}

#[test]
fn stringify_paste_and_builtin_macros() {
    let src = "#include <stdio.h>\n#define S(x) #x\n#define CAT(a, b) a ## b\n#define SHOW(e) printf(#e \" = %d\\n\", e)\n\
               int counter = 1;\nint main(void) {\n  SHOW(CAT(coun, ter) + 1);\n  puts(S(a \"q\" \\n));\n\
               return __LINE__;\n}\n";
    let out = ir(src);
    assert!(
        out.contains("$printf(\"CAT(coun, ter) + 1 = %d\\n\", counter + 1);"),
        "{out}"
    );
    assert!(out.contains("$puts(\"a \\\"q\\\" \\n\");"), "{out}");
    assert!(out.contains("return 9;"), "{out}");
    let out = ir("int main(void) { char *f = __FILE__; return 0; }");
    assert!(out.contains("init f = \"pp.c\";"), "{out}");
}

#[test]
fn conditional_inclusion() {
    let src = "#define DEBUG 0\n#if DEBUG || defined(VERBOSE)\n#error not expected\n\
               #elif (1 ? 2 : 3) == 2 && -1 < 0 && 0xffffffffu > 0 && '\\n' == 10\nint x = 1;\n\
               #else\nint x = 2;\n#endif\n#ifdef DEBUG\n#undef DEBUG\n#endif\n#ifndef DEBUG\nint y = 3;\n#endif\n\
               #if 0\n#if garbage ((\n#endif\n' unterminated in a skipped group\n#endif\nint main(void) { return x + y; }\n";
    let out = ir(src);
    assert!(
        out.starts_with("global x: int = {0: 1}\nglobal y: int = {0: 3}\n"),
        "{out}"
    );
}

#[test]
fn standard_headers_define_macros_and_types() {
    let src = "#include <stdio.h>\n#include <stdlib.h>\n#include <limits.h>\n#include <stdint.h>\n\
               #include <stdbool.h>\n#include <math.h>\n#include <float.h>\n#include <string.h>\n#include <ctype.h>\n\
               #include <assert.h>\n#include <stddef.h>\n#include <inttypes.h>\n\
               int main(void) {\n  size_t n = sizeof(int32_t);\n  int64_t big = INT64_MAX;\n  bool ok = true;\n\
               double pi = M_PI;\n  int lim = INT_MIN + INT_MAX + EXIT_FAILURE + EOF;\n  uint8_t b = UINT8_MAX;\n\
               double eps = DBL_EPSILON;\n  int *p = NULL;\n  FILE *out = stdout;\n  assert(n == 4);\n\
               fprintf(out, \"%\" PRId64 \"\\n\", big);\n  return ok && p == NULL && pi > 3 && lim && b && eps > 0;\n}\n";
    let out = ir(src);
    assert!(out.contains("init n = 4:ulong;"), "{out}");
    assert!(
        out.contains("init big = 9223372036854775807:long;"),
        "{out}"
    );
    assert!(out.contains("init pi = 3.141592653589793;"), "{out}");
    assert!(out.contains("init p = (int *)0;"), "{out}");
    assert!(out.contains("local out: FILE *"), "{out}");
    assert!(
        out.contains("$assert(n == (unsigned long)4, \"n == 4\");"),
        "{out}"
    );
    assert!(out.contains("$fprintf(out, \"%ld\\n\", big);"), "{out}");
    // NDEBUG removes assertions.
    let out = ir("#define NDEBUG\n#include <assert.h>\nint main(void) { assert(0); return 0; }");
    assert!(out.contains("s0: (void)0;"), "{out}");
}

#[test]
fn includes_are_relative_to_the_including_file() {
    let d = std::env::temp_dir().join(format!("faultline-c-pp-{}", std::process::id()));
    std::fs::create_dir_all(d.join("sub")).expect("temp dir");
    std::fs::write(d.join("sub/inner.h"), "#define INNER 7\n").expect("write");
    std::fs::write(
        d.join("sub/outer.h"),
        "#include \"inner.h\"\n#define OUTER (INNER + 1)\n",
    )
    .expect("write");
    std::fs::write(
        d.join("main.c"),
        "#include \"sub/outer.h\"\nint main(void) { return OUTER; }\n",
    )
    .expect("write");
    let p = faultline_c::compile_file(&d.join("main.c")).unwrap_or_else(|e| panic!("{e}"));
    assert!(pretty::program(&p).contains("return 7 + 1;"));
    assert_eq!(p.files.len(), 3);
}
