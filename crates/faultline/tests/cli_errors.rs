//! Every input error is one line on stderr that names the file (with
//! line:column where there is one) and says what is wrong, with exit status 2
//! and nothing on stdout. The fixtures are in tests/cli/errors.

mod common;

use common::*;

const E: &str = "tests/cli/errors";

/// Runs faultline in the repository root and checks the exact error line.
fn assert_error(args: &[&str], expected: &str) {
    let o = faultline_root(args);
    assert_eq!(o.stderr, format!("{expected}\n"), "stderr of {args:?}");
    assert_eq!(o.status, 2, "exit status of {args:?}");
    assert_eq!(o.stdout, "", "stdout of {args:?}");
}

fn path(file: &str) -> String {
    format!("{E}/{file}")
}

#[test]
fn syntax_error() {
    let p = path("syntax.c");
    let msg = format!("{p}:3:14: error: expected ';' after declaration");
    assert_error(&["run", &p], &msg);
    assert_error(&["test", &p, "--tests", "examples/triangle/tests"], &msg);
}

#[test]
fn undeclared_identifier() {
    let p = path("undeclared.c");
    assert_error(
        &["run", &p],
        &format!("{p}:3:12: error: use of undeclared identifier 'count'"),
    );
}

#[test]
fn unsupported_goto() {
    let p = path("goto.c");
    assert_error(
        &["run", &p],
        &format!("{p}:5:14: error: unsupported: goto into a nested block (label 'inside' is not in an enclosing block)"),
    );
}

#[test]
fn missing_program() {
    let p = path("missing.c");
    let msg = format!("{p}: error: cannot read file: No such file or directory (os error 2)");
    assert_error(&["run", &p], &msg);
    assert_error(&["test", &p, "--tests", "examples/triangle/tests"], &msg);
}

#[test]
fn non_utf8_program() {
    // latin1.c has the Latin-1 byte 0xE9 at line 1, column 5.
    let p = path("latin1.c");
    assert_eq!(
        std::fs::read(root().join(&p)).expect("fixture")[4],
        0xE9,
        "the fixture keeps its Latin-1 byte"
    );
    assert_error(
        &["run", &p],
        &format!("{p}:1:5: error: file is not valid UTF-8"),
    );
}

#[test]
fn unsupported_header() {
    let p = path("header.c");
    assert_error(
        &["run", &p],
        &format!("{p}:2:10: error: unsupported header <pthread.h>"),
    );
}

#[test]
fn empty_test_directory() {
    let dir = tempdir("cli-empty");
    std::fs::create_dir(dir.join("empty")).expect("mkdir");
    std::fs::write(dir.join("empty/README"), "not a test\n").expect("write");
    std::fs::copy(root().join(path("ok.c")), dir.join("ok.c")).expect("copy");
    let o = faultline_in(&dir, &["test", "ok.c", "--tests", "empty"], b"");
    assert_eq!(
        o.stderr,
        "empty: error: no tests found: expected NAME.in / NAME.out pairs\n"
    );
    assert_eq!((o.status, o.stdout.as_str()), (2, ""));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn missing_test_directory() {
    assert_error(
        &["test", &path("ok.c"), "--tests", &path("no-such-dir")],
        &format!(
            "{}: error: cannot read test directory: No such file or directory (os error 2)",
            path("no-such-dir")
        ),
    );
}

#[test]
fn input_without_expected_output() {
    // no-out has t1.in (alone) and the pair t2.in / t2.out.
    assert_error(
        &["test", &path("ok.c"), "--tests", &path("no-out")],
        &format!(
            "{E}/no-out/t1.in: error: test 't1' has no expected output ({E}/no-out/t1.out is missing)"
        ),
    );
}

#[test]
fn expected_output_without_input() {
    // no-in has the pair t1.in / t1.out and t2.out (alone).
    assert_error(
        &["test", &path("ok.c"), "--tests", &path("no-in")],
        &format!("{E}/no-in/t2.out: error: test 't2' has no input ({E}/no-in/t2.in is missing)"),
    );
}

#[test]
fn oracle_that_does_not_compile() {
    let p = path("syntax.c");
    assert_error(
        &[
            "test",
            &path("ok.c"),
            "--args-file",
            &path("args.txt"),
            "--oracle",
            &p,
        ],
        &format!("{p}:3:14: error: expected ';' after declaration (in the reference program)"),
    );
}

#[test]
fn missing_args_file() {
    let a = path("nope.txt");
    assert_error(
        &[
            "test",
            &path("ok.c"),
            "--args-file",
            &a,
            "--oracle",
            &path("ok.c"),
        ],
        &format!("{a}: error: cannot read argument file: No such file or directory (os error 2)"),
    );
}

#[test]
fn args_file_without_oracle() {
    let a = path("args.txt");
    let msg = format!(
        "{a}: error: --args-file needs --oracle REF.c (the reference program whose output is the expected output)"
    );
    assert_error(&["test", &path("ok.c"), "--args-file", &a], &msg);
    assert_error(&["localize", &path("ok.c"), "--args-file", &a], &msg);
}

#[test]
fn oracle_without_args_file() {
    let r = path("ok.c");
    assert_error(
        &["test", &r, "--tests", "examples/triangle/tests", "--oracle", &r],
        &format!(
            "{r}: error: --oracle needs --args-file FILE (the argument lines to run the reference program on)"
        ),
    );
}

#[test]
fn unknown_option() {
    for cmd in ["run", "test", "localize"] {
        let o = faultline_root(&[cmd, &path("ok.c"), "--frobnicate"]);
        assert_eq!(
            o.stderr.lines().next(),
            Some("error: unexpected argument '--frobnicate' found"),
            "{cmd}: {}",
            o.stderr
        );
        assert_eq!((o.status, o.stdout.as_str()), (2, ""), "{cmd}");
    }
    let o = faultline_root(&["frobnicate"]);
    assert_eq!(
        o.stderr.lines().next(),
        Some("error: unrecognized subcommand 'frobnicate'")
    );
    assert_eq!(o.status, 2);
}

#[test]
fn no_test_source() {
    let o = faultline_root(&["test", &path("ok.c")]);
    assert_eq!(
        o.stderr.lines().take(2).collect::<Vec<_>>(),
        [
            "error: the following required arguments were not provided:",
            "  --tests <DIR>"
        ]
    );
    assert_eq!(o.status, 2);
}
