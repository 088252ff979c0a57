//! Errors of the library functions on bad arguments (one line, naming the
//! statement; never a panic), and files: reads from the working directory,
//! writes that never reach it.

use faultline_exec::{ErrorKind, ExecOptions, Executable, Input, Termination};
use std::path::Path;

/// Runs `src` in `workdir`: (stdout, the runtime error's kind, line and message, if any).
fn run(src: &str, workdir: Option<&Path>) -> (String, Option<(ErrorKind, u32, String)>) {
    let prog = faultline_c::compile_source("prog.c", src).expect("compiles");
    let exe = Executable::new(&prog).expect("starts");
    let e = exe.run(
        Input {
            args: &[],
            stdin: b"",
            workdir,
        },
        ExecOptions::default(),
    );
    let err = match e.termination {
        Termination::RuntimeError(r) => Some((
            r.kind,
            prog.stmt(r.stmt.expect("a statement")).loc.line,
            r.message,
        )),
        _ => None,
    };
    (String::from_utf8_lossy(&e.stdout).into_owned(), err)
}

fn error_of(body: &str) -> (ErrorKind, u32, String) {
    let src = format!(
        "#include <stdio.h>\n#include <string.h>\nint main(void) {{\n{body}\nreturn 0;\n}}\n"
    );
    run(&src, None).1.expect("a runtime error")
}

#[test]
fn bad_arguments_are_runtime_errors() {
    assert_eq!(
        error_of("int a[4] = {0}, b[4]; int n = -1;\nmemcpy(b, a, n);"),
        (
            ErrorKind::OutOfBounds,
            5,
            "18446744073709551615 bytes are more than any object holds".into()
        )
    );
    assert_eq!(
        error_of("int a[4] = {0}, b[4];\nmemcpy(b, a, 6);"),
        (
            ErrorKind::Unsupported,
            5,
            "unsupported: 6 bytes are not a whole number of int (memory holds typed values, not bytes)"
                .into()
        )
    );
    assert_eq!(
        error_of("int a[4] = {0}, b[2];\nmemcpy(b, a, sizeof a);"),
        (
            ErrorKind::OutOfBounds,
            5,
            "4 cells from the pointer overflow 'b' (2 cells left)".into()
        )
    );
    assert_eq!(
        error_of("double d[2];\nmemset(d, 1, sizeof d);"),
        (
            ErrorKind::Unsupported,
            5,
            "unsupported: memset of a double to a nonzero byte (memory holds typed values, not bytes)"
                .into()
        )
    );
    assert_eq!(
        error_of("char s[4];\nsprintf(s, \"%d\", 12345);"),
        (
            ErrorKind::OutOfBounds,
            5,
            "writing 6 bytes overflows 's' (4 cells from the pointer)".into()
        )
    );
    assert_eq!(
        error_of("FILE *f = fopen(\"nowhere/x\", \"r\");\nfgetc(f);"),
        (
            ErrorKind::NullDereference,
            5,
            "a NULL stream (FILE *) passed to a library function".into()
        )
    );
    assert_eq!(
        error_of("FILE *f = fopen(\"x.txt\", \"w\");\nfclose(f);\nfputc('a', f);"),
        (
            ErrorKind::DanglingPointer,
            6,
            "use of the stream of 'x.txt' after fclose".into()
        )
    );
    assert_eq!(
        error_of("char s[] = \"a b\";\nstrtok(NULL, \" \");"),
        (
            ErrorKind::NullDereference,
            5,
            "strtok(NULL, ...) before any string was given".into()
        )
    );
}

#[test]
fn files_are_read_from_the_working_directory_and_never_written() {
    let dir = std::env::temp_dir().join(format!("faultline-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("in.txt"), "one\ntwo\n").expect("input file");
    let src = "#include <stdio.h>\n\
        int main(void) {\n\
          char line[16]; FILE *f = fopen(\"in.txt\", \"r\"), *o;\n\
          while (fgets(line, sizeof line, f)) printf(\"read %s\", line);\n\
          fclose(f);\n\
          o = fopen(\"in.txt\", \"w\"); fputs(\"replaced\\n\", o); fclose(o);\n\
          o = fopen(\"new.txt\", \"a\"); fprintf(o, \"%d\\n\", 7); fclose(o);\n\
          f = fopen(\"in.txt\", \"r\"); fgets(line, sizeof line, f); printf(\"now %s\", line);\n\
          f = fopen(\"new.txt\", \"r\"); fgets(line, sizeof line, f); printf(\"new %s\", line);\n\
          return 0;\n\
        }\n";
    let (out, err) = run(src, Some(&dir));
    assert_eq!(err, None);
    assert_eq!(out, "read one\nread two\nnow replaced\nnew 7\n");
    // The directory is as it was: the writes stayed in the run.
    assert_eq!(
        std::fs::read_to_string(dir.join("in.txt")).expect("still there"),
        "one\ntwo\n"
    );
    assert!(!dir.join("new.txt").exists());
    // And a second run starts from the directory's files again.
    let (out, _) = run(src, Some(&dir));
    assert_eq!(out, "read one\nread two\nnow replaced\nnew 7\n");
    std::fs::remove_dir_all(&dir).expect("clean up");
}
