//! Configurable output comparison (compare.toml, --compare) as `test` and
//! `localize` see it, its encoding in the formula (a difference the checker
//! ignores is never blamed), and class runs (`localize DIR`). The programs
//! are in examples/median-class (a reference's tests compared by an answer
//! pattern, as IntroClass's checker does, and four submissions),
//! examples/sum-spacing and examples/uninit-flag (runs cut by a runtime
//! error).

mod common;

use common::*;

const CLASS: &str = "examples/median-class/submissions";
const CLASS_TESTS: &str = "examples/median-class/tests";
const WRONGMID: &str = "examples/median-class/submissions/wrongmid.c";

fn lines(o: &Output) -> Vec<&str> {
    o.stdout.lines().collect()
}

#[test]
fn pattern_compares_answers_and_ignores_prompts() {
    // compare.toml in the test directory is picked up: the prompt differs
    // from the reference's in every test, but only wrong answers fail.
    let o = faultline_root(&["test", WRONGMID, "--tests", CLASS_TESTS]);
    assert_eq!(
        o.stdout,
        "test 1 ... FAILED: output differs at line 1: expected \"answer 2\", got \"answer 3\"\n\
         test 2 ... ok\n\
         test 3 ... FAILED: output differs at line 1: expected \"answer 2\", got \"answer 1\"\n\
         test 4 ... ok\ntest 5 ... ok\ntest 6 ... ok\ntest 7 ... ok\n\n\
         7 tests: 5 passed, 2 failed\n"
    );
    assert_eq!(o.status, 1);
    let o = faultline_root(&[
        "test",
        "examples/median-class/submissions/prompt.c",
        "--tests",
        CLASS_TESTS,
    ]);
    assert_eq!(
        (o.stdout.lines().last(), o.status),
        (Some("7 tests: 7 passed, 0 failed"), 0)
    );
}

#[test]
fn pattern_blames_the_computation_not_the_prompt() {
    let o = faultline_root(&["localize", WRONGMID, "--tests", CLASS_TESTS, "-q"]);
    assert_eq!(
        lines(&o),
        [
            "examples/median-class/submissions/wrongmid.c:10:9: diagnosis 1: `m = c;` would need 2 here, computed 3 for test 1 (explains 1, 3)",
            "examples/median-class/submissions/wrongmid.c:13:5: diagnosis 2: `printf(\"%d is the median\\n\", m);` would need to print \"2 is the median\\n\" (explains 1, 3)",
        ]
    );
    assert_eq!(o.status, 1);
}

#[test]
fn exact_comparison_blames_the_prompt() {
    // --compare replaces compare.toml's settings.
    let o = faultline_root(&[
        "localize",
        WRONGMID,
        "--tests",
        CLASS_TESTS,
        "-q",
        "--compare",
        "exact",
    ]);
    assert_eq!(
        lines(&o),
        ["examples/median-class/submissions/wrongmid.c:5:5: diagnosis 1: `printf(\"Enter three numbers: \");` would need to print \"Please enter 3 numbers separated by spaces > 2 is the median\\n\" for test 1; line 13 `printf(\"%d is the median\\n\", m);` would need to print nothing (explains 1, 2, 3 and 4 more)"]
    );
}

#[test]
fn tokens_never_blame_whitespace() {
    let args = [
        "localize",
        "examples/sum-spacing/sum.c",
        "--tests",
        "examples/sum-spacing/tests",
        "-q",
    ];
    // Byte for byte, only the print statement (two spaces) explains every test.
    let o = faultline_root(&args);
    assert_eq!(
        lines(&o),
        ["examples/sum-spacing/sum.c:8:5: diagnosis 1: `printf(\"sum:  %d\\n\", s);` would need to print \"sum: 10\\n\" for test 1 (explains 1, 2, 3)"]
    );
    // Token by token, the loop's bound comes first; the print statement
    // would need its own spacing with another value.
    let mut tokens = args.to_vec();
    tokens.push("--ignore-whitespace");
    let o = faultline_root(&tokens);
    assert_eq!(
        lines(&o),
        [
            "examples/sum-spacing/sum.c:6:17: diagnosis 1: `i < n` this condition would need to be true for test 1 (explains 1, 2)",
            "examples/sum-spacing/sum.c:4:15: diagnosis 2: `s = 0` would need 4 here, computed 0 for test 1 (explains 1, 2)",
            "examples/sum-spacing/sum.c:8:5: diagnosis 3: `printf(\"sum:  %d\\n\", s);` would need to print \"sum:  10\\n\" for test 1 (explains 1, 2)",
        ]
    );
    let mut t = tokens.clone();
    t[0] = "test";
    t.retain(|a| *a != "-q");
    let o = faultline_root(&t);
    assert_eq!(o.stdout.lines().last(), Some("3 tests: 1 passed, 2 failed"));
}

#[test]
fn numbers_within_a_tolerance() {
    let dir = tempdir("numbers");
    std::fs::write(dir.join("1.in"), "4\n").unwrap();
    std::fs::write(dir.join("1.out"), "sum: 10.004\n").unwrap();
    std::fs::write(dir.join("2.in"), "1\n").unwrap();
    std::fs::write(dir.join("2.out"), "sum: 1\n").unwrap();
    std::fs::write(
        dir.join("compare.toml"),
        "mode = \"numbers\"\nabs_tolerance = 0.01\n",
    )
    .unwrap();
    let d = dir.display().to_string();
    let o = faultline_root(&[
        "localize",
        "examples/sum-spacing/sum.c",
        "--tests",
        &d,
        "-q",
    ]);
    // The expected 10.004 in the program's format (`%d`: 10) is within the
    // tolerance, so the print statement need not change its format.
    assert_eq!(
        lines(&o)[..2],
        [
            "examples/sum-spacing/sum.c:6:17: diagnosis 1: `i < n` this condition would need to be true for test 1 (explains 1, 2)",
            "examples/sum-spacing/sum.c:4:15: diagnosis 2: `s = 0` would need 4 here, computed 0 for test 1 (explains 1, 2)",
        ]
    );
    // 0.001 is too tight for 10.
    let o = faultline_root(&[
        "test",
        "examples/sum-spacing/sum.c",
        "--tests",
        &d,
        "--compare",
        "numbers",
        "--abs-tolerance",
        "0.001",
    ]);
    assert_eq!(o.stdout.lines().next(), Some("test 1 ... FAILED: output differs at line 1: expected \"sum: 10.004\\n\", got \"sum:  6\\n\""));
}

#[test]
fn comparison_errors_are_one_line() {
    let dir = tempdir("compare-errors");
    std::fs::copy("../../examples/sum-spacing/tests/1.in", dir.join("1.in")).unwrap();
    std::fs::copy("../../examples/sum-spacing/tests/1.out", dir.join("1.out")).unwrap();
    let d = dir.display().to_string();
    let toml = dir.join("compare.toml");
    let check = |text: &str, extra: &[&str], want: String| {
        std::fs::write(&toml, text).unwrap();
        let mut args = vec!["test", "examples/sum-spacing/sum.c", "--tests", &d];
        args.extend_from_slice(extra);
        let o = faultline_root(&args);
        assert_eq!((o.stderr.as_str(), o.status), (want.as_str(), 2), "{text}");
    };
    let t = toml.display();
    check("mode = \"pattern\"\n\npatern = 'x'\n", &[], format!("{t}:3: error: unknown field `patern`, expected one of `mode`, `pattern`, `ignore_case`, `abs_tolerance`, `rel_tolerance`\n"));
    check("mode = \"pattern\"\n", &[], format!("{t} (or the command line): error: compare mode pattern needs a pattern (a regular expression whose first group is the answer)\n"));
    check(
        "mode = \"pattern\"\npattern = '(x'\n",
        &[],
        format!(
            "{t} (or the command line): error: invalid pattern \"(x\": error: unclosed group\n"
        ),
    );
    check("mode = \"tokens\"\nabs_tolerance = 1\n", &[], format!("{t} (or the command line): error: a tolerance is given, but outputs are compared in mode tokens\n"));
    check("", &["--compare", "numbers", "--rel-tolerance=-1"], format!("{t} (or the command line): error: the relative tolerance must be a number of at least 0, not -1\n"));
}

#[test]
fn class_run_lines_and_summary() {
    let o = faultline_root(&["localize", CLASS, "--tests", CLASS_TESTS]);
    assert_eq!(
        o.stdout,
        "broken.c: error: examples/median-class/submissions/broken.c:8:14: error: expected ';' after expression\n\
         greater.c: localized: 1 of 7 tests fail, 2 diagnoses; first: line 8 `m = b;` (its values pass the failing tests)\n\
         prompt.c: pass: all 7 tests pass\n\
         wrongmid.c: localized: 2 of 7 tests fail, 2 diagnoses; first: line 10 `m = c;` (its values pass the failing tests)\n\
         \n\
         status        submissions\n\
         pass                    1\n\
         localized               2\n\
         no-diagnosis            0\n\
         partial                 0\n\
         error                   1\n\
         total                   4\n\
         first diagnosis's values pass the failing tests: 2 of 2 submissions with failing tests\n"
    );
    assert_eq!((o.stderr.as_str(), o.status), ("", 1));
}

#[test]
fn class_run_json_lines() {
    let o = faultline_root(&[
        "localize",
        CLASS,
        "--tests",
        CLASS_TESTS,
        "--format",
        "json",
    ]);
    let rows: Vec<serde_json::Value> = o
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(
        rows,
        [
            serde_json::json!({"submission": "broken.c", "status": "error", "tests": 0, "failing": 0, "diagnoses": 0, "first": [], "first_verified": null, "first_replayed": null, "incomplete_kind": null, "error": "examples/median-class/submissions/broken.c:8:14: error: expected ';' after expression"}),
            serde_json::json!({"submission": "greater.c", "status": "localized", "tests": 7, "failing": 1, "diagnoses": 2, "first": [{"line": 8, "text": "m = b;"}], "first_verified": null, "first_replayed": true, "incomplete_kind": null, "error": null}),
            serde_json::json!({"submission": "prompt.c", "status": "pass", "tests": 7, "failing": 0, "diagnoses": 0, "first": [], "first_verified": null, "first_replayed": null, "incomplete_kind": null, "error": null}),
            serde_json::json!({"submission": "wrongmid.c", "status": "localized", "tests": 7, "failing": 2, "diagnoses": 2, "first": [{"line": 10, "text": "m = c;"}], "first_verified": null, "first_replayed": true, "incomplete_kind": null, "error": null}),
        ]
    );
}

#[test]
fn class_run_html_has_a_section_per_submission() {
    let out = tempdir("class-html").join("class.html");
    let o = faultline_root(&[
        "localize",
        CLASS,
        "--tests",
        CLASS_TESTS,
        "--format",
        "html",
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!((o.stdout.as_str(), o.status), ("", 1));
    let page = std::fs::read_to_string(&out).unwrap();
    let ids: Vec<&str> = page
        .match_indices("<section id=\"")
        .map(|(i, _)| &page[i + 13..i + 15])
        .collect();
    assert_eq!(ids, ["s0", "s1", "s2", "s3"]);
    // Every submission that ran has its own report; the broken one its error.
    assert_eq!(page.matches("<iframe srcdoc=").count(), 3);
    assert!(page.contains("<h2>broken.c</h2>\n<p>broken.c: error: examples/median-class/submissions/broken.c:8:14: error: expected &#39;;&#39; after expression</p>"));
}

#[test]
fn class_run_refuses_what_reports_one_program() {
    let o = faultline_root(&[
        "localize",
        CLASS,
        "--tests",
        CLASS_TESTS,
        "--format",
        "sarif",
    ]);
    assert_eq!(
        (o.stderr.as_str(), o.status),
        ("examples/median-class/submissions: error: --format sarif reports one program; a class run gives text, json (one line per submission) or html\n", 2)
    );
    let o = faultline_root(&[
        "localize",
        "examples/sum-spacing/tests",
        "--tests",
        CLASS_TESTS,
    ]);
    assert_eq!(
        (o.stderr.as_str(), o.status),
        (
            "examples/sum-spacing/tests: error: no C files (submissions) in this directory\n",
            2
        )
    );
}

#[test]
fn a_run_cut_short_is_not_blamed_for_whitespace_the_checker_ignores() {
    // examples/uninit-flag: the failing runs stop at a read of an
    // uninitialized flag, so their output is cut. The checker ignores
    // whitespace; the program never ends its last line, the expected
    // outputs do. The formula asks for the expected words with the
    // program's own ending (as its normal runs print it), so the last
    // `printf` is not blamed for the missing newline (it was in every
    // diagnosis before).
    let o = faultline_root(&[
        "localize",
        "examples/uninit-flag/digits.c",
        "--tests",
        "examples/uninit-flag/tests",
        "-q",
    ]);
    assert_eq!(
        lines(&o),
        [
            "examples/uninit-flag/digits.c:9:12: diagnosis 1: `neg` would need to be initialized to 0 (explains 1, 4)",
            "examples/uninit-flag/digits.c:17:13: diagnosis 2: `neg && n != 0` would need to be false (as computed) (explains 1, 4)",
        ]
    );
    assert_eq!(o.status, 1);
}
