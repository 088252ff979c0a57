//! Behaviour of `faultline run` and `faultline test` as a user sees it: the
//! whole output, the exit status and, for `--format json`, every field. The
//! programs are in tests/cli and examples/.

mod common;

use common::*;
use serde_json::{json, Value};

const MODES: &str = "tests/cli/run/modes.c";

fn run_modes(args: &[&str], stdin: &[u8]) -> Output {
    let mut all = vec!["run", MODES, "--"];
    all.extend_from_slice(args);
    faultline_in(&root(), &all, stdin)
}

// ----- faultline run --------------------------------------------------------

#[test]
fn run_passes_stdin_and_arguments() {
    let o = run_modes(&["one", "two words", "--three"], b"line 1\nline 2\n");
    assert_eq!(
        o.stdout,
        "argv[1] = one\nargv[2] = two words\nargv[3] = --three\nline 1\nline 2\n"
    );
    assert_eq!((o.stderr.as_str(), o.status), ("", 0));
}

#[test]
fn run_without_arguments_or_stdin() {
    let o = faultline_root(&["run", MODES]);
    assert_eq!(
        (o.stdout.as_str(), o.stderr.as_str(), o.status),
        ("", "", 0)
    );
}

#[test]
fn run_exits_with_the_programs_status() {
    let o = run_modes(&["exit"], b"abc");
    assert_eq!(
        (o.stdout.as_str(), o.stderr.as_str(), o.status),
        ("argv[1] = exit\nabc", "", 3)
    );
    let o = run_modes(&["return"], b"");
    assert_eq!(
        (o.stdout.as_str(), o.stderr.as_str(), o.status),
        ("argv[1] = return\n", "", 42)
    );
}

#[test]
fn run_failed_assertion_aborts_with_134() {
    let o = run_modes(&["assert"], b"xy");
    // abort() does not flush stdout: what was still in glibc's buffer is lost,
    // as for the compiled program writing to a pipe or a file.
    assert_eq!(o.stdout, "");
    // glibc's message: program name, file, line, function, assertion text.
    assert_eq!(
        o.stderr,
        "modes: tests/cli/run/modes.c:24: main: Assertion `n == 0' failed.\n"
    );
    assert_eq!(o.status, 134);
    // With empty stdin the assertion holds.
    assert_eq!(run_modes(&["assert"], b"").status, 0);
}

#[test]
fn run_runtime_error_is_one_line() {
    let o = run_modes(&["divide"], b"abc");
    assert_eq!(o.stdout, "argv[1] = divide\nabc");
    assert_eq!(
        o.stderr,
        "faultline: runtime error: tests/cli/run/modes.c:26: division by zero (in `printf(\"%d\\n\", 100 / (n - n));`)\n"
    );
    assert_eq!(o.status, 139);

    let o = run_modes(&["index"], b"abcde");
    assert_eq!(o.stdout, "argv[1] = index\nabcde");
    assert_eq!(
        o.stderr,
        "faultline: runtime error: tests/cli/run/modes.c:29: index 5 is out of bounds for 'a' of 4 elements (in `a[n] = 1;`)\n"
    );
    assert_eq!(o.status, 139);
    // In bounds, no error.
    assert_eq!(run_modes(&["index"], b"abc").status, 0);
}

#[test]
fn run_max_steps_stops_an_infinite_loop() {
    let o = faultline_root(&["run", "tests/cli/run/loop.c", "--max-steps", "500"]);
    assert_eq!(o.stdout, "");
    assert_eq!(
        o.stderr,
        "faultline: runtime error: tests/cli/run/loop.c:4: the run reached the step limit of 500 statements and loop iterations (--max-steps raises it) (in `i >= 0`)\n"
    );
    assert_eq!(o.status, 139);
}

#[test]
fn run_refuses_to_reinterpret_an_object() {
    // Conversions to the object's own type, through `void *` and to a first
    // member behave as in gcc; reading an `int` through a `char *` (gcc: 2)
    // is refused, since memory holds typed values rather than bytes.
    let o = faultline_root(&["run", "tests/cli/run/casts.c"]);
    assert_eq!(
        (o.stdout.as_str(), o.stderr.as_str(), o.status),
        ("4 3 258\n", "", 0)
    );
    let o = faultline_root(&["run", "tests/cli/run/casts.c", "--", "pun"]);
    assert_eq!(o.stdout, "4 3 258\n");
    assert_eq!(
        o.stderr,
        "faultline: runtime error: tests/cli/run/casts.c:18: unsupported: access to 'n' through a pointer to char (memory holds typed values, not bytes) (in `bytes = (char *) &n;`)\n"
    );
    assert_eq!(o.status, 139);
}

// ----- faultline test -------------------------------------------------------

/// The README's first command (without `cargo run --release --`).
#[test]
fn test_triangle_text() {
    let o = faultline_root(&[
        "test",
        "examples/triangle/triangle.c",
        "--tests",
        "examples/triangle/tests",
    ]);
    assert_eq!(
        o.stdout,
        "\
test t1 ... ok
test t2 ... ok
test t3 ... ok
test t4 ... FAILED: output differs at line 1: expected \"3 2 2: isosceles\\n\", got \"3 2 2: scalene\\n\"
test t5 ... ok
test t6 ... ok
test t7 ... ok
test t8 ... FAILED: output differs at line 1: expected \"5 4 4: isosceles\\n\", got \"5 4 4: scalene\\n\"

8 tests: 6 passed, 2 failed
"
    );
    assert_eq!((o.stderr.as_str(), o.status), ("", 1));
}

fn json_of(o: &Output) -> Value {
    serde_json::from_str(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", o.stdout))
}

#[test]
fn test_triangle_json() {
    let o = faultline_root(&[
        "test",
        "examples/triangle/triangle.c",
        "--tests",
        "examples/triangle/tests",
        "--format",
        "json",
    ]);
    assert_eq!((o.stderr.as_str(), o.status), ("", 1));
    let v = json_of(&o);
    assert_eq!(v["schema"], "faultline.test/1");
    assert_eq!(v["program"], "examples/triangle/triangle.c");
    let tests = v["tests"].as_array().expect("tests array");
    let names: Vec<&str> = tests
        .iter()
        .map(|t| t["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"]);
    let verdicts: Vec<&str> = tests
        .iter()
        .map(|t| t["verdict"].as_str().expect("verdict"))
        .collect();
    assert_eq!(
        verdicts,
        ["pass", "pass", "pass", "fail", "pass", "pass", "pass", "fail"]
    );
    for t in tests {
        if t["verdict"] == "pass" {
            assert_eq!(t.as_object().expect("object").len(), 2, "{t}");
        }
    }
    assert_eq!(
        tests[3]["reason"],
        json!({
            "kind": "output",
            "message": "output differs at line 1: expected \"3 2 2: isosceles\\n\", got \"3 2 2: scalene\\n\"",
            "line": 1,
            "expected": "3 2 2: isosceles\n",
            "actual": "3 2 2: scalene\n"
        })
    );
    assert_eq!(tests[7]["reason"]["expected"], "5 4 4: isosceles\n");
    assert_eq!(tests[7]["reason"]["actual"], "5 4 4: scalene\n");
    assert_eq!(
        v["summary"],
        json!({ "total": 8, "passed": 6, "failed": 2 })
    );
}

#[test]
fn test_every_kind_of_failure_in_json() {
    let o = faultline_root(&[
        "test",
        "tests/cli/verdicts/verdicts.c",
        "--tests",
        "tests/cli/verdicts/tests",
        "--max-steps",
        "1000",
        "--format",
        "json",
    ]);
    assert_eq!((o.stderr.as_str(), o.status), ("", 1));
    let file = "tests/cli/verdicts/verdicts.c";
    assert_eq!(
        json_of(&o),
        json!({
            "schema": "faultline.test/1",
            "program": file,
            "tests": [
                { "name": "t1", "verdict": "pass" },
                {
                    "name": "t2",
                    "verdict": "fail",
                    "reason": {
                        "kind": "runtime-error",
                        "message": format!("runtime error: {file}:12: division by zero (in `printf(\"%d\\n\", 7 / zero);`)"),
                        "error": "division-by-zero",
                        "file": file,
                        "line": 12
                    }
                },
                {
                    "name": "t3",
                    "verdict": "fail",
                    "reason": {
                        "kind": "assertion",
                        "message": format!("assertion failed: verdicts: {file}:14: main: Assertion `cmd != 2' failed.")
                    }
                },
                {
                    "name": "t4",
                    "verdict": "fail",
                    "reason": {
                        "kind": "runtime-error",
                        "message": format!("runtime error: {file}:16: the run reached the step limit of 1000 statements and loop iterations (--max-steps raises it) (in `zero = 1 - zero;`)"),
                        "error": "step-limit",
                        "file": file,
                        "line": 16
                    }
                },
                {
                    "name": "t5",
                    "verdict": "fail",
                    "reason": {
                        "kind": "output",
                        "message": "output differs at line 1: expected \"cmd four\\n\", got \"cmd 4\\n\"",
                        "line": 1,
                        "expected": "cmd four\n",
                        "actual": "cmd 4\n"
                    }
                }
            ],
            "summary": { "total": 5, "passed": 1, "failed": 4 }
        })
    );
}

#[test]
fn test_max_steps_fails_an_infinite_loop() {
    let o = faultline_root(&[
        "test",
        "tests/cli/verdicts/verdicts.c",
        "--tests",
        "tests/cli/verdicts/tests",
        "--max-steps",
        "1000",
    ]);
    let t4 = o
        .stdout
        .lines()
        .find(|l| l.starts_with("test t4 "))
        .expect("t4 is reported");
    assert_eq!(
        t4,
        "test t4 ... FAILED: runtime error: tests/cli/verdicts/verdicts.c:16: the run reached the step limit of 1000 statements and loop iterations (--max-steps raises it) (in `zero = 1 - zero;`)"
    );
    assert_eq!(o.status, 1);
}

#[test]
fn test_ignore_whitespace() {
    let args = [
        "test",
        "tests/cli/ws/spaces.c",
        "--tests",
        "tests/cli/ws/tests",
    ];
    let exact = faultline_root(&args);
    assert_eq!(
        exact.stdout,
        "\
test t1 ... FAILED: output differs at line 1: expected \"1 2 3\\n\", got \"1  2 \\t3\\n\"
test t2 ... FAILED: output differs at line 1: expected \"5 5 11\\n\", got \"5  5 \\t10\\n\"

2 tests: 0 passed, 2 failed
"
    );
    assert_eq!(exact.status, 1);
    // t1 differs only in whitespace (and a trailing empty line): it passes;
    // t2 also differs in a word and still fails.
    let mut loose = args.to_vec();
    loose.push("--ignore-whitespace");
    let o = faultline_root(&loose);
    assert_eq!(
        o.stdout,
        "\
test t1 ... ok
test t2 ... FAILED: output differs at line 1: expected \"5 5 11\\n\", got \"5  5 \\t10\\n\"

2 tests: 1 passed, 1 failed
"
    );
    assert_eq!((o.stderr.as_str(), o.status), ("", 1));
}

#[test]
fn test_args_file_with_oracle() {
    let args = [
        "test",
        "tests/cli/oracle/sum.c",
        "--args-file",
        "tests/cli/oracle/args.txt",
        "--oracle",
        "tests/cli/oracle/sum_ref.c",
    ];
    let o = faultline_root(&args);
    assert_eq!(
        o.stdout,
        "\
test 1 ... ok
test 2 ... FAILED: output differs at line 1: expected \"130\\n\", got \"100\\n\"
test 3 ... FAILED: exit status 1, expected 0
test 4 ... ok

4 tests: 2 passed, 2 failed
"
    );
    assert_eq!((o.stderr.as_str(), o.status), ("", 1));

    let mut json_args = args.to_vec();
    json_args.extend(["--format", "json"]);
    let v = json_of(&faultline_root(&json_args));
    assert_eq!(v["program"], "tests/cli/oracle/sum.c");
    assert_eq!(v["tests"][0], json!({ "name": "1", "verdict": "pass" }));
    assert_eq!(
        v["tests"][2]["reason"],
        json!({
            "kind": "exit-status",
            "message": "exit status 1, expected 0",
            "expected": "0",
            "actual": "1"
        })
    );
    assert_eq!(
        v["summary"],
        json!({ "total": 4, "passed": 2, "failed": 2 })
    );

    // The reference program against itself: every test passes, exit 0.
    let o = faultline_root(&[
        "test",
        "tests/cli/oracle/sum_ref.c",
        "--args-file",
        "tests/cli/oracle/args.txt",
        "--oracle",
        "tests/cli/oracle/sum_ref.c",
    ]);
    assert_eq!(
        o.stdout,
        "test 1 ... ok\ntest 2 ... ok\ntest 3 ... ok\ntest 4 ... ok\n\n4 tests: 4 passed, 0 failed\n"
    );
    assert_eq!(o.status, 0);
}

/// NAME.args gives a directory test its arguments; the exit status of a
/// directory test is not checked (there is no expected status), but a failed
/// assertion fails it.
/// Command lines as the Siemens suite writes them: quoting, `< FILE`, files
/// opened by name in the working directory (by default the argument file's);
/// a test the reference fails is left out with a note.
#[test]
fn test_command_lines_in_a_working_directory() {
    let args = [
        "test",
        "tests/cli/commands/grep.c",
        "--args-file",
        "tests/cli/commands/lines.txt",
        "--oracle",
        "tests/cli/commands/grep_ref.c",
    ];
    let expected = "\
test 1 ... ok
test 2 ... FAILED: output differs at line 1: expected \"2: a  b\\n\", got \"1: a  b\\n\"
test 3 ... ok
test 4 ... FAILED: exit status 0, expected 1
test 6 ... ok

5 tests: 3 passed, 2 failed
";
    let o = faultline_root(&args);
    assert_eq!(o.stdout, expected);
    assert_eq!(
        (o.stderr.as_str(), o.status),
        (
            "tests/cli/commands/grep_ref.c: note: test 5 left out: the reference program fails it: tests/cli/commands/grep_ref.c:11: a NULL stream (FILE *) passed to a library function (in `fgets(line, sizeof line, fp)`)\n",
            1
        )
    );
    // The same with the working directory given, from another directory.
    let mut with_dir = args.to_vec();
    with_dir.extend(["--workdir", "tests/cli/commands"]);
    let o = faultline_root(&with_dir);
    assert_eq!((o.stdout.as_str(), o.status), (expected, 1));
    // Nothing the programs wrote reached the disk.
    assert!(!root().join("tests/cli/commands/copy.txt").exists());

    // Errors name the file and line, or the directory.
    let o = faultline_root(&[
        "test",
        "tests/cli/commands/grep.c",
        "--args-file",
        "tests/cli/commands/bad_lines.txt",
        "--oracle",
        "tests/cli/commands/grep_ref.c",
    ]);
    assert_eq!(
        (o.stderr.as_str(), o.status),
        (
            "tests/cli/commands/bad_lines.txt:2: error: unsupported shell syntax '>' (only arguments and `< FILE`)\n",
            2
        )
    );
    let mut bad_dir = args.to_vec();
    bad_dir.extend(["--workdir", "tests/cli/nowhere"]);
    let o = faultline_root(&bad_dir);
    assert_eq!(
        (o.stderr.as_str(), o.status),
        (
            "tests/cli/nowhere: error: the working directory of the tests is not a directory\n",
            2
        )
    );
}

/// A failing test whose run uses a library function the encoder does not
/// encode is left out of the localization with the reason, and statements
/// whose checks would reach the call on another test are left undecided;
/// the result is partial (exit status 3).
#[test]
fn localize_skips_what_it_cannot_encode() {
    let o = faultline_root(&[
        "localize",
        "tests/cli/commands/grep_sprintf.c",
        "--args-file",
        "tests/cli/commands/lines.txt",
        "--oracle",
        "tests/cli/commands/grep_ref.c",
    ]);
    // Test 2's run calls `sprintf`: it is not used. Test 4's does not: the
    // statements whose checks would reach the call are left undecided.
    assert_eq!(
        o.stdout,
        "\
2 of 5 tests fail: 2, 4
note: test 2 is not used: tests/cli/commands/grep_sprintf.c:15: cannot encode `sprintf(out, \"%d: %s\", n, line);`: library function 'sprintf': sprintf and snprintf are not encoded yet
method full+mbd: 1 diagnosis (incomplete: 3 statements left undecided: their checks' formulas could not be encoded (see the notes); 1 of 2 failing tests not used)

diagnosis 1 of 1: 1 statement, explains 4
  --> tests/cli/commands/grep_sprintf.c:20:5
   |
20 |     return 0;
   |     ^^^^^^^^^ would need 1 here, computed 0

suspicious statements, most suspicious first:
  1. tests/cli/commands/grep_sprintf.c:20  return 0;

note: test 4: a statement's check could not be encoded (tests/cli/commands/grep_sprintf.c:15: cannot encode `sprintf(out, \"%d: %s\", n, line);`: library function 'sprintf': sprintf and snprintf are not encoded yet); statements left undecided
"
    );
    assert_eq!(o.status, 3, "{}{}", o.stdout, o.stderr);
}

/// A search that finds nothing within its bounds says so after the method
/// line, with what may find a diagnosis: `trace` keeps the run's branch
/// outcomes, and a skipped `printf` is not an instance of the run, so no
/// statement of it can print the missing line; `full` names the condition.
#[test]
fn localize_says_what_to_try_when_nothing_explains_the_failure() {
    let dir = tempdir("nothing-found");
    std::fs::write(
        dir.join("pos.c"),
        "#include <stdio.h>\nint main(void) {\n    int x;\n    scanf(\"%d\", &x);\n    if (x > 0)\n        printf(\"pos\\n\");\n    return 0;\n}\n",
    )
    .unwrap();
    let tests = dir.join("tests");
    std::fs::create_dir_all(&tests).unwrap();
    for (name, input, out) in [
        ("zero", "0", "pos\n"),
        ("five", "5", "pos\n"),
        ("neg", "-1", ""),
    ] {
        std::fs::write(tests.join(format!("{name}.in")), input).unwrap();
        std::fs::write(tests.join(format!("{name}.out")), out).unwrap();
    }
    let run = |method: &str| {
        faultline_in(
            &dir,
            &["localize", "pos.c", "--tests", "tests", "--method", method],
            b"",
        )
    };
    let o = run("trace");
    assert_eq!(
        o.stdout,
        "\
1 of 3 tests fail: zero
method trace+mbd: 0 diagnoses
note: no diagnosis: no set of statements within the search bounds explains the failing test; `trace` keeps the runs' branch outcomes and has no candidates for missing code: --method full has both (a larger --max-size may also help)
"
    );
    assert_eq!(o.status, 1, "{}{}", o.stdout, o.stderr);
    let o = faultline_in(
        &dir,
        &["localize", "pos.c", "--tests", "tests", "--quiet"],
        b"",
    );
    assert_eq!(
        o.stdout,
        "\
pos.c:5:9: diagnosis 1: `x > 0` this condition would need to be true (explains zero)
pos.c:5:9: diagnosis 2: `missing output after the `if` at line 5` would need to print \"pos\\n\" (explains zero)
"
    );
}

/// Streams in the formula: grep reads stdin or a file chosen by a condition
/// (`argc > 2 ? fopen(argv[2], "r") : stdin`) with fgets, copies each line
/// to a file with fputs and searches it with strstr. Both faults (line 12
/// counts lines wrongly, line 19 returns 0 when nothing was found) are the
/// first diagnosis, which explains both failing tests.
#[test]
fn localize_encodes_files_and_streams() {
    let o = faultline_root(&[
        "localize",
        "tests/cli/commands/grep.c",
        "--args-file",
        "tests/cli/commands/lines.txt",
        "--oracle",
        "tests/cli/commands/grep_ref.c",
    ]);
    assert!(
        o.stdout.starts_with(
            "\
2 of 5 tests fail: 2, 4
method full+mbd: 3 diagnoses

diagnosis 1 of 3: 2 statements, explains 2, 4
  --> tests/cli/commands/grep.c:12:9
"
        ),
        "{}",
        o.stdout
    );
    assert!(
        o.stdout.contains(
            "19 |     return 0;\n   |     ^^^^^^^^^ would need 1 here, computed 0 for test 4"
        ),
        "{}",
        o.stdout
    );
    assert_eq!(o.status, 1, "{}{}", o.stdout, o.stderr);
}

#[test]
fn test_directory_with_args_files() {
    let o = faultline_root(&["test", MODES, "--tests", "tests/cli/run/tests"]);
    assert_eq!(
        o.stdout,
        "\
test t1 ... ok
test t2 ... ok
test t3 ... FAILED: assertion failed: modes: tests/cli/run/modes.c:24: main: Assertion `n == 0' failed.

3 tests: 2 passed, 1 failed
"
    );
    assert_eq!(o.status, 1);
}

#[test]
fn test_grades_example() {
    let o = faultline_root(&[
        "test",
        "examples/grades/grades.c",
        "--tests",
        "examples/grades/tests",
    ]);
    assert_eq!(
        o.stdout,
        "\
test t1 ... ok
test t2 ... FAILED: output differs at line 1: expected \"bob     90 A\\n\", got \"bob     90 B\\n\"
test t3 ... ok
test t4 ... FAILED: output differs at line 1: expected \"fay     90 A\\n\", got \"fay     90 B\\n\"
test t5 ... ok
test t6 ... FAILED: output differs at line 1: expected \"ivy     90 A\\n\", got \"ivy     90 B\\n\"

6 tests: 3 passed, 3 failed
"
    );
    assert_eq!(o.status, 1);
}

#[test]
fn test_digits_example() {
    let o = faultline_root(&[
        "test",
        "examples/digits/digits.c",
        "--args-file",
        "examples/digits/tests/args.txt",
        "--oracle",
        "examples/digits/digits_ref.c",
    ]);
    assert_eq!(
        o.stdout,
        "\
test 1 ... ok
test 2 ... ok
test 3 ... FAILED: output differs at line 2: expected \"-7: 7\\n\", got \"-7: 0\\n\"
test 4 ... ok
test 5 ... FAILED: output differs at line 1: expected \"-8: 8\\n\", got \"-8: 0\\n\"

5 tests: 3 passed, 2 failed
"
    );
    assert_eq!(o.status, 1);
}

#[test]
fn test_all_pass_exits_0() {
    // The triangle tests that pass, copied to their own directory.
    let dir = tempdir("cli-pass");
    let src = root().join("examples/triangle/tests");
    for t in ["t1", "t2", "t3"] {
        for ext in ["in", "out"] {
            std::fs::copy(
                src.join(format!("{t}.{ext}")),
                dir.join(format!("{t}.{ext}")),
            )
            .expect("copy");
        }
    }
    let prog = root().join("examples/triangle/triangle.c");
    let o = faultline_in(
        &dir,
        &["test", prog.to_str().expect("UTF-8 path"), "--tests", "."],
        b"",
    );
    assert_eq!(
        o.stdout,
        "test t1 ... ok\ntest t2 ... ok\ntest t3 ... ok\n\n3 tests: 3 passed, 0 failed\n"
    );
    assert_eq!((o.stderr.as_str(), o.status), ("", 0));
    let _ = std::fs::remove_dir_all(&dir);
}

// ----- --help -----------------------------------------------------------------

#[test]
fn help_of_run() {
    let o = faultline_root(&["run", "--help"]);
    assert_eq!(
        o.stdout,
        "\
Runs a C program in faultline's interpreter, with stdin passed through

Usage: faultline run [OPTIONS] <PROGRAM> [-- <ARGS>...]

Arguments:
  <PROGRAM>  The C program
  [ARGS]...  Command-line arguments for the program (after `--`)

Options:
      --max-time <SECONDS>  Time limit of the run, in seconds (0: none) [default: 10]
      --max-steps <N>       Limit on the statements and loop iterations executed [default: none]
  -h, --help                Print help
"
    );
    assert_eq!((o.stderr.as_str(), o.status), ("", 0));
}

#[test]
fn help_of_test() {
    let o = faultline_root(&["test", "--help"]);
    assert_eq!(
        o.stdout,
        "\
Runs a program's tests and reports each verdict (exit status 1 when any test fails)

Usage: faultline test [OPTIONS] <PROGRAM>

Arguments:
  <PROGRAM>  The C program under test

Options:
      --tests <DIR>         Directory of NAME.in / NAME.out pairs (stdin and expected stdout; optional NAME.args)
      --args-file <FILE>    File with one test per line: the program's command line (shell quoting, `< FILE` for standard input; needs --oracle)
      --workdir <DIR>       Working directory of the --args-file tests: `< FILE` and the files the program opens are relative to it [default: the argument file's directory]
      --oracle <REF.c>      Reference program whose output on each line of --args-file is the expected output
      --compare <MODE>      How outputs are compared with the expected ones (overrides the mode of the tests' compare.toml; see docs/how-it-works.md) [default: exact] [possible values: exact, tokens, whitespace, numbers, pattern]
      --ignore-whitespace   Compare outputs as sequences of words, ignoring differences in whitespace (--compare tokens)
      --pattern <REGEX>     --compare pattern: the regular expression whose first capture group is the answer
      --ignore-case         --compare pattern: match the pattern and compare the answers ignoring case
      --abs-tolerance <X>   --compare numbers: the absolute tolerance of a number
      --rel-tolerance <X>   --compare numbers: the tolerance of a number relative to the expected one
      --max-time <SECONDS>  Time limit of each test run, in seconds (0: none) [default: 10]
      --max-steps <N>       Limit on the statements and loop iterations each test run executes (reproducible on any machine, unlike --max-time) [default: none]
      --format <FORMAT>     Output format [default: text] [possible values: text, json]
  -h, --help                Print help
"
    );
    assert_eq!((o.stderr.as_str(), o.status), ("", 0));
}

#[test]
fn help_of_localize() {
    let o = faultline_root(&["localize", "--help"]);
    let lines: Vec<&str> = o.stdout.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "Finds the statements that explain the failing tests, with the values they would need",
            "",
            "Usage: faultline localize [OPTIONS] <PROGRAM>",
        ]
    );
    // The options shared with `test` are there, with the same help (clap
    // puts it on the next line when some option has a long help).
    let words: Vec<&str> = o.stdout.split_whitespace().collect();
    for shared in [
        "--tests <DIR> Directory of NAME.in / NAME.out pairs (stdin and expected stdout; optional NAME.args)",
        "--args-file <FILE> File with one test per line: the program's command line (shell quoting, `< FILE` for standard input; needs --oracle)",
        "--workdir <DIR> Working directory of the --args-file tests: `< FILE` and the files the program opens are relative to it [default: the argument file's directory]",
        "--oracle <REF.c> Reference program whose output on each line of --args-file is the expected output",
        "--ignore-whitespace Compare outputs as sequences of words, ignoring differences in whitespace",
    ] {
        let want: Vec<&str> = shared.split_whitespace().collect();
        assert!(
            words.windows(want.len()).any(|w| w == want.as_slice()),
            "{shared:?} in localize --help:\n{}",
            o.stdout
        );
    }
    assert_eq!((o.stderr.as_str(), o.status), ("", 0));
}

#[test]
fn help_of_faultline() {
    for args in [&["--help"][..], &["help"][..]] {
        let o = faultline_root(args);
        assert_eq!(
            o.stdout.lines().take(4).collect::<Vec<_>>(),
            [
                "faultline runs a C program's tests in an exact interpreter and, for the failing ones, finds the minimal sets of statements whose change would make them pass, with the values those statements would have had to compute.",
                "",
                "Usage: faultline <COMMAND>",
                "",
            ],
            "{args:?}"
        );
        for cmd in ["run", "test", "localize"] {
            assert!(
                o.stdout
                    .lines()
                    .any(|l| l.trim_start().starts_with(&format!("{cmd} "))),
                "{cmd} listed in {args:?}"
            );
        }
        assert_eq!(o.status, 0);
    }
    let o = faultline_root(&["help", "test"]);
    assert_eq!(o.stdout, faultline_root(&["test", "--help"]).stdout);
}

/// `--oracle`: the reference runs under the program's `argv[0]`, so a usage
/// message naming it does not fail spuriously (test 1 runs without an
/// argument).
#[test]
fn the_oracle_runs_under_the_programs_argv0() {
    let o = faultline_root(&[
        "test",
        "tests/cli/argv0/count.c",
        "--args-file",
        "tests/cli/argv0/lines.txt",
        "--oracle",
        "tests/cli/argv0/count_ref.c",
    ]);
    assert_eq!(
        o.stdout,
        "\
test 1 ... ok
test 2 ... FAILED: output differs at line 1: expected \"1\\n\", got \"0\\n\"
test 3 ... FAILED: output differs at line 1: expected \"<end of output>\", got \"0\\n\"

3 tests: 1 passed, 2 failed
"
    );
    assert_eq!((o.stderr.as_str(), o.status), ("", 1));
}
