//! Exact error messages and positions.

use std::path::Path;

fn error(src: &str) -> String {
    match faultline_c::compile_source("t.c", src) {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => e.to_string(),
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("faultline-c-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

#[test]
fn syntax_errors() {
    assert_eq!(
        error("int main() { int x = 1\n return x; }"),
        "t.c:1:23: error: expected ';' after declaration"
    );
    assert_eq!(
        error("int main() { x = 1 }"),
        "t.c:1:19: error: expected ';' after expression"
    );
    assert_eq!(
        error("int main() { return 1 }"),
        "t.c:1:22: error: expected ';' after return statement"
    );
    assert_eq!(
        error("int main() { return (1; }"),
        "t.c:1:23: error: expected ')'"
    );
    assert_eq!(
        error("int main() { return * ; }"),
        "t.c:1:23: error: expected expression"
    );
    assert_eq!(error("int main() {"), "t.c:1:13: error: expected '}'");
    assert_eq!(
        error("int main() { int x = 1 @ 2; }"),
        "t.c:1:24: error: stray '@' in program"
    );
    assert_eq!(
        error("int main() { char c = 'a; }"),
        "t.c:1:23: error: missing terminating ' character"
    );
    assert_eq!(
        error("int main() { if x { } }"),
        "t.c:1:17: error: expected '(' after 'if'"
    );
    assert_eq!(error("}"), "t.c:1:1: error: expected external declaration");
    assert_eq!(
        error("int main() { return 09; }"),
        "t.c:1:21: error: invalid digit '9' in octal constant"
    );
    assert_eq!(error("/* open"), "t.c:1:1: error: unterminated /* comment");
}

#[test]
fn semantic_errors() {
    assert_eq!(
        error("int main() {\n  int x = 1;\n  return y;\n}"),
        "t.c:3:10: error: use of undeclared identifier 'y'"
    );
    assert_eq!(
        error("int main() { foo(1); return 0; }"),
        "t.c:1:14: error: call to undeclared function 'foo'"
    );
    assert_eq!(
        error("int f(int a, int b) { return a; }\nint main() { return f(1); }"),
        "t.c:2:21: error: too few arguments to function 'f'"
    );
    assert_eq!(
        error("int f(int a) { return a; }\nint main() { return f(1, 2); }"),
        "t.c:2:26: error: too many arguments to function 'f'"
    );
    assert_eq!(
        error("int main() { return f(1, 2); }\nint f(int a) { return a; }"),
        "t.c:1:26: error: too many arguments to function 'f'"
    );
    assert_eq!(
        error("int main() { int x; int x; }"),
        "t.c:1:25: error: redefinition of 'x'"
    );
    assert_eq!(
        error("int g; int g = 1; int g = 2; int main() {}"),
        "t.c:1:23: error: redefinition of 'g'"
    );
    assert_eq!(
        error("int f() { return 0; }\nint f() { return 1; }"),
        "t.c:2:5: error: redefinition of 'f'"
    );
    assert_eq!(
        error("int main() { break; }"),
        "t.c:1:14: error: 'break' statement not in loop or switch statement"
    );
    assert_eq!(
        error("int main() { switch (1) { case 1: continue; } }"),
        "t.c:1:35: error: 'continue' statement not in loop statement"
    );
    assert_eq!(
        error("int main() { int x = 0; switch (x) { case 1: case 2: break; case 1: break; } }"),
        "t.c:1:66: error: duplicate case value '1'"
    );
    assert_eq!(
        error("int main() { int x = 0; switch (x) { case x: break; } }"),
        "t.c:1:43: error: case label does not reduce to an integer constant"
    );
    assert_eq!(
        error("int n = 3; int a[n]; int main() {}"),
        "t.c:1:18: error: array size is not an integer constant expression"
    );
    assert_eq!(
        error("int main() { int n = 3; int a[2][n]; }"),
        "t.c:1:34: error: unsupported: variable-length arrays"
    );
    assert_eq!(
        error("int main() { int n = 3; int a[n] = {1}; }"),
        "t.c:1:29: error: variable-sized object may not be initialized"
    );
    assert_eq!(
        error("int main() { int a[3]; a = 0; }"),
        "t.c:1:24: error: array type 'int[3]' is not assignable"
    );
    assert_eq!(
        error("int main() { 5 = 3; }"),
        "t.c:1:14: error: expression is not assignable"
    );
    assert_eq!(
        error("int main() { int x; x + 1 = 2; }"),
        "t.c:1:21: error: expression is not assignable"
    );
    assert_eq!(
        error("struct P { int x; };\nint main() { struct P p; return p + 1; }"),
        "t.c:2:33: error: invalid operands to binary + (have 'struct P' and 'int')"
    );
    assert_eq!(
        error("int main() { int x; return x(); }"),
        "t.c:1:28: error: called object type 'int' is not a function or function pointer"
    );
    assert_eq!(
        error("int helper() { return 0; }"),
        "t.c:1:1: error: no 'main' function defined"
    );
    assert_eq!(
        error("struct P { int x; };\nint main() { struct P p; return p.y; }"),
        "t.c:2:35: error: no member named 'y' in 'struct P'"
    );
    assert_eq!(
        error("int main() { const int k = 1; k = 2; }"),
        "t.c:1:31: error: cannot assign to read-only variable 'k'"
    );
    assert_eq!(
        error("int main() { int *p; double d; p = &d; }"),
        "t.c:1:36: error: incompatible pointer types: cannot convert 'double *' to 'int *'"
    );
    assert_eq!(
        error("void f() {}\nint main() { int x = f(); }"),
        "t.c:2:22: error: void value not ignored as it ought to be"
    );
    assert_eq!(
        error("void f() { return 1; }\nint main() {}"),
        "t.c:1:19: error: void function 'f' should not return a value"
    );
}

#[test]
fn unsupported_constructs() {
    assert_eq!(
        error("int main() { goto end; return 1; }"),
        "t.c:1:19: error: use of undeclared label 'end'"
    );
    assert_eq!(
        error("int main() { end: ; end: return 0; }"),
        "t.c:1:21: error: redefinition of label 'end'"
    );
    assert_eq!(
        error("int main() { int i = 0; goto in; if (i) { in: i++; } return i; }"),
        "t.c:1:30: error: unsupported: goto into a nested block (label 'in' is not in an enclosing block)"
    );
    assert_eq!(
        error("#include <pthread.h>\nint main() {}"),
        "t.c:1:10: error: unsupported header <pthread.h>"
    );
    assert_eq!(
        error("int main() { longjmp(0, 1); }"),
        "t.c:1:14: error: unsupported: library function 'longjmp'"
    );
    assert_eq!(
        error("int main() { int (*fp)() = 0; return fp(1); }"),
        "t.c:1:38: error: unsupported: call through a pointer to a function without a prototype"
    );
    assert_eq!(
        error("#include <string.h>\nint main() { int (*fp)(const char *) = strlen; }"),
        "t.c:2:40: error: unsupported: library function 'strlen' used as a value (only the program's functions can be pointed to)"
    );
    assert_eq!(
        error("int g(int);\nint main() { int (*fp)(int) = f; return fp(1); }\nint f(int x) { return x; }"),
        "t.c:2:31: error: unsupported: pointer to function 'f' before its prototype or definition"
    );
    assert_eq!(
        error("#include <stdlib.h>\nint c(const void *a, const void *b) { return 0; }\nint main() { void *p = 0; qsort(p, 1, 1, c); }"),
        "t.c:3:33: error: unsupported: qsort of an array given as 'void *' (its element type is unknown)"
    );
    assert_eq!(
        error("int main() { long double x; }"),
        "t.c:1:14: error: unsupported: long double"
    );
    assert_eq!(
        error("int main() { int x = 0; switch (x) { case 0: if (x) { case 1: x = 2; } } }"),
        "t.c:1:60: error: unsupported: case label nested inside a block of a switch"
    );
    assert_eq!(
        error("int f(int n, ...) { return n; }\nint main() {}"),
        "t.c:1:5: error: unsupported: variadic functions"
    );
    assert_eq!(
        error("struct S { int a : 3; };\nint main() {}"),
        "t.c:1:18: error: unsupported: bit-fields"
    );
}

#[test]
fn union_errors() {
    assert_eq!(
        error("struct S { int a; union { int a; float f; }; };\nint main() {}"),
        "t.c:1:19: error: duplicate member 'a'"
    );
    assert_eq!(
        error("union U { struct { int a; }; int a; };\nint main() {}"),
        "t.c:1:34: error: duplicate member 'a'"
    );
    assert_eq!(
        error("struct S { int t; union { int a; float f; }; };\nstruct S s = {.f = 1};\nint main() {}"),
        "t.c:2:16: error: unsupported: designator of a member of an anonymous struct or union"
    );
    assert_eq!(
        error("union U { int a : 3; };\nint main() {}"),
        "t.c:1:17: error: unsupported: bit-fields"
    );
    assert_eq!(
        error("struct S { int a; };\nunion S u;\nint main() {}"),
        "t.c:2:7: error: use of 'S' with tag type that does not match previous declaration"
    );
    assert_eq!(
        error("union S { int a; };\nint main() { struct S *p = 0; }"),
        "t.c:2:21: error: use of 'S' with tag type that does not match previous declaration"
    );
    assert_eq!(
        error("union U { int a; };\nunion U { int b; };\nint main() {}"),
        "t.c:2:7: error: redefinition of 'union U'"
    );
    assert_eq!(
        error("union U { int a; float f; };\nunion U u = {.a = 1, .f = 2};\nint main() {}"),
        "t.c:2:27: error: unsupported: more than one initializer for a union"
    );
    assert_eq!(
        error("union U { int a; float f; };\nint main() { union U u = {1, 2}; }"),
        "t.c:2:30: error: excess elements in union initializer"
    );
    assert_eq!(
        error("union U { int a; };\nint main() { union U u; u.b = 1; }"),
        "t.c:2:27: error: no member named 'b' in 'union U'"
    );
    assert_eq!(
        error("#include <stdio.h>\nunion U { int a; };\nint main() { union U u; u.a = 1; printf(\"%d\", u); }"),
        "t.c:3:47: error: unsupported: passing a union to a variadic function"
    );
    assert_eq!(
        error("union U { int a; };\nunion U f(void) { union U u; u.a = 1; return u; }\nint main() { return f().a; }"),
        "t.c:3:21: error: unsupported: member access on a union that is not an lvalue"
    );
    assert_eq!(
        error("union U { };\nint main() {}"),
        "t.c:1:1: error: unsupported: unions without members"
    );
    assert_eq!(
        error("union U { int a; char c[]; };\nint main() {}"),
        "t.c:1:23: error: unsupported: flexible array members"
    );
}

#[test]
fn preprocessor_errors() {
    assert_eq!(
        error("#error stop here\nint main() {}"),
        "t.c:1:1: error: #error stop here"
    );
    assert_eq!(
        error("#if 1\nint main() {}"),
        "t.c:1:1: error: unterminated conditional directive"
    );
    assert_eq!(
        error("#endif\nint main() {}"),
        "t.c:1:2: error: #endif without #if"
    );
    assert_eq!(
        error("#include \"nope.h\"\nint main() {}"),
        "t.c:1:10: error: 'nope.h' file not found"
    );
    assert_eq!(
        error("#define F(a, b) a\nint main() { return F(1); }"),
        "t.c:2:21: error: macro 'F' requires 2 arguments, but only 1 given"
    );
    assert_eq!(
        error("#foo\nint main() {}"),
        "t.c:1:2: error: invalid preprocessing directive #foo"
    );
    assert_eq!(
        error("#if 1 / 0\n#endif\nint main() {}"),
        "t.c:1:7: error: division by zero in preprocessor expression"
    );
}

#[test]
fn missing_file() {
    let e = faultline_c::compile_file(Path::new("definitely/missing.c")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "definitely/missing.c: error: cannot read file: No such file or directory (os error 2)"
    );
    assert_eq!((e.line, e.col), (0, 0));
}

#[test]
fn non_utf8_file() {
    let d = temp_dir("utf8");
    let path = d.join("bad.c");
    std::fs::write(&path, b"int x = 1;\nint y\xff = 2;\nint main() {}\n").expect("write");
    let e = faultline_c::compile_file(&path).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{}:2:6: error: file is not valid UTF-8", path.display())
    );
    let e = faultline_c::compile_bytes_named("raw.c", b"\xc3\x28").unwrap_err();
    assert_eq!(e.to_string(), "raw.c:1:1: error: file is not valid UTF-8");
}

#[test]
fn errors_in_included_files_name_that_file() {
    let d = temp_dir("inc");
    std::fs::write(
        d.join("defs.h"),
        "#define LIMIT 10\nint helper(int x) { return x + LIMIT; }\n",
    )
    .expect("write");
    std::fs::write(d.join("bad.h"), "int broken( {\n").expect("write");
    std::fs::write(
        d.join("ok.c"),
        "#include \"defs.h\"\nint main() { return helper(LIMIT); }\n",
    )
    .expect("write");
    std::fs::write(d.join("bad.c"), "#include \"bad.h\"\nint main() {}\n").expect("write");
    let p = faultline_c::compile_file(&d.join("ok.c")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.files.len(), 2);
    assert!(p.files[1].name.ends_with("defs.h"));
    let helper = p.func(p.func_by_name("helper").expect("helper"));
    assert_eq!(p.file_name(helper.loc.file), p.files[1].name);
    let e = faultline_c::compile_file(&d.join("bad.c")).unwrap_err();
    assert!(e.file.ends_with("bad.h"), "{e}");
    assert_eq!((e.line, e.col), (1, 13));
}

/// A K&R function is called unchecked: a mistyped argument for a parameter
/// the body never uses is accepted (tests/programs/kr_mistyped_arg runs
/// it), one for a parameter it uses is an error at the argument.
#[test]
fn kr_calls_with_mistyped_arguments() {
    let used = "#include <stdio.h>\nstatic f();\nint main(void) { f(stdin); return 0; }\nstatic f(fp)\nFILE **fp;\n{ return fp != 0; }\n";
    assert_eq!(
        error(used),
        "t.c:3:20: error: incompatible types: cannot convert 'FILE *' to 'FILE * *'"
    );
    let unused = "#include <stdio.h>\nstatic f();\nint main(void) { return f(stdin, 2); }\nstatic f(fp, k)\nFILE **fp;\nint k;\n{ return k; }\n";
    assert!(faultline_c::compile_source("t.c", unused).is_ok());
}

#[test]
fn offsetof_errors() {
    // Errors in the macro's expansion are located at its use.
    let pre = "#include <stddef.h>\nstruct S { int a; int v[4]; struct S *next; };\n";
    assert_eq!(
        error(&format!(
            "{pre}int main() {{ return offsetof(struct S, b); }}"
        )),
        "t.c:3:21: error: no member named 'b' in 'struct S'"
    );
    assert_eq!(
        error(&format!("{pre}int main() {{ return offsetof(int, a); }}")),
        "t.c:3:21: error: offsetof: 'int' is not a structure or union"
    );
    assert_eq!(
        error(&format!(
            "{pre}int main() {{ return offsetof(struct S, a[1]); }}"
        )),
        "t.c:3:21: error: offsetof: 'int' is not an array"
    );
    assert_eq!(
        error(&format!(
            "{pre}int main() {{ int k = 1; return offsetof(struct S, v[k]); }}"
        )),
        "t.c:3:32: error: offsetof needs a constant index"
    );
    assert_eq!(
        error(&format!(
            "{pre}struct T;\nint main() {{ return offsetof(struct T, a); }}"
        )),
        "t.c:4:21: error: offsetof of incomplete type 'struct T'"
    );
    assert_eq!(
        error(&format!(
            "{pre}int main() {{ return __builtin_offsetof(struct S, b); }}"
        )),
        "t.c:3:50: error: no member named 'b' in 'struct S'"
    );
}
