//! Omission faults, as `faultline localize` reports them: a missing
//! newline, a missing print of a computed value, a missing increment in a
//! loop and a missing initialization (examples/omission-*), each the first
//! diagnosis, at the place where the statement is missing.

mod common;

use common::*;

fn localize(example: &str, file: &str, method: &str, format: &str) -> String {
    let o = faultline()
        .current_dir(root())
        .env("NO_COLOR", "1")
        .args([
            "localize",
            &format!("examples/{example}/{file}"),
            "--tests",
            &format!("examples/{example}/tests"),
            "--method",
            method,
            "--format",
            format,
        ])
        .output()
        .expect("faultline runs");
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8")
}

/// The first diagnosis of an example: each statement's (kind, line, text),
/// and each angelic value's (test, kind, text or needed value).
fn first(example: &str, file: &str, method: &str) -> (Vec<(String, u64, String)>, Vec<String>) {
    let json: serde_json::Value =
        serde_json::from_str(&localize(example, file, method, "json")).expect("JSON");
    let d = &json["diagnoses"][0];
    let stmts = d["statements"]
        .as_array()
        .expect("statements")
        .iter()
        .map(|s| {
            (
                s["kind"].as_str().expect("kind").to_string(),
                s["line"].as_u64().expect("line"),
                s["text"].as_str().expect("text").to_string(),
            )
        })
        .collect();
    let mut values: Vec<String> = d["angelic"]
        .as_array()
        .expect("angelic")
        .iter()
        .map(|a| {
            let v = a.get("text").or(a.get("needed")).expect("a value");
            format!("{} {}", a["test"].as_str().expect("test"), v)
        })
        .collect();
    values.sort();
    values.dedup();
    (stmts, values)
}

fn stmt(kind: &str, line: u64, text: &str) -> (String, u64, String) {
    (kind.to_string(), line, text.to_string())
}

#[test]
fn a_missing_newline_is_an_output_missing_after_the_printf() {
    for method in ["full", "flow"] {
        let (stmts, values) = first("omission-newline", "squares.c", method);
        assert_eq!(
            stmts,
            vec![stmt(
                "insert",
                10,
                "missing output after `printf(\"%d\", i * i);`"
            )],
            "{method}"
        );
        assert_eq!(values, vec![r#"one "\n""#, r#"three "\n""#], "{method}");
    }
    let text = localize("omission-newline", "squares.c", "full", "text");
    assert!(
        text.contains(
            "   |         ^^^^^^^^^^^^^^^^^^^^ missing output after `printf(\"%d\", i * i);`: would need to print \"\\n\"\n"
        ),
        "{text}"
    );
}

#[test]
fn a_value_computed_and_never_printed_is_an_output_missing_after_its_computation() {
    let (stmts, values) = first("omission-print", "maxof.c", "full");
    assert_eq!(
        stmts,
        vec![stmt("insert", 9, "missing output after the `if` at line 9")]
    );
    assert_eq!(values, vec![r#"first "7\n""#, r#"second "5\n""#]);
}

#[test]
fn a_missing_increment_is_an_update_missing_where_the_count_should_grow() {
    for method in ["full", "flow"] {
        let (stmts, _) = first("omission-increment", "positives.c", method);
        assert_eq!(
            stmts,
            vec![stmt(
                "insert",
                12,
                "missing update of `count` at the end of the `if` branch at line 11"
            )],
            "{method}"
        );
    }
}

#[test]
fn a_missing_initialization_is_reported_at_the_declaration() {
    for method in ["full", "flow"] {
        let (stmts, values) = first("omission-init", "sum.c", method);
        assert_eq!(stmts, vec![stmt("declare", 6, "sum")], "{method}");
        assert_eq!(values, vec!["one \"0\"", "three \"0\""], "{method}");
    }
    let text = localize("omission-init", "sum.c", "full", "text");
    assert!(
        text.contains("  |                  ^^^ would need to be initialized to 0\n"),
        "{text}"
    );
}

/// A test whose output differs only in whitespace is said so first, in the
/// text report and in the test's reason in JSON.
#[test]
fn outputs_that_differ_only_in_whitespace_are_said_so_first() {
    let text = localize("sum-spacing", "sum.c", "full", "text");
    let head: Vec<&str> = text.lines().take(3).collect();
    assert_eq!(
        head,
        vec![
            "3 of 3 tests fail: 1, 2, 3",
            "note: the output of test 3 differs from the expected one only in whitespace (spaces, tabs or newlines); --ignore-whitespace passes it",
            "method full+mbd: 1 diagnosis",
        ]
    );
    let json: serde_json::Value =
        serde_json::from_str(&localize("sum-spacing", "sum.c", "full", "json")).expect("JSON");
    let reasons: Vec<&str> = json["tests"]["failing"]
        .as_array()
        .expect("failing tests")
        .iter()
        .filter_map(|t| t["reason"].as_str())
        .collect();
    assert_eq!(
        reasons,
        vec![
            "output differs at line 1: expected \"sum: 10\\n\", got \"sum:  6\\n\"",
            "output differs at line 1: expected \"sum: 1\\n\", got \"sum:  0\\n\"",
            "output differs only in whitespace; output differs at line 1: expected \"sum: 0\\n\", got \"sum:  0\\n\"",
        ]
    );
}
