//! `faultline localize --method cafl` and `faultline explain` on CaFL's
//! worked examples: text, JSON, HTML, feedback flags, the interactive walk
//! (scripted on standard input) and user errors.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn example(name: &str, file: &str) -> (PathBuf, PathBuf) {
    let dir = root().join("examples").join(name);
    (dir.join(file), dir.join("tests"))
}

fn faultline(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_faultline"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("faultline runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("writes stdin");
    child.wait_with_output().expect("faultline exits")
}

fn localize(name: &str, file: &str, extra: &[&str]) -> Output {
    let (prog, tests) = example(name, file);
    let mut args = vec![
        "localize",
        prog.to_str().unwrap(),
        "--tests",
        tests.to_str().unwrap(),
        "--method",
        "cafl",
        "--color",
        "never",
    ];
    args.extend_from_slice(extra);
    faultline(&args, "")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn text_report_of_the_omission_example() {
    let o = localize("cafl-omission", "omission.c", &[]);
    assert_eq!(o.status.code(), Some(1));
    let s = stdout(&o);
    assert!(s.contains("level 0 [0] the failure at"), "{s}");
    assert!(s.contains("critical: `a > 0` at"), "{s}");
    assert!(s.contains("was true (direct, for line 16) -> [0.0]"), "{s}");
    assert!(
        s.contains("was false (indirect, for line 16) -> [0.1]"),
        "{s}"
    );
    assert!(s.contains("level 1 [0.1] why `b < 0` at"), "{s}");
    assert!(s.contains("(explained by [0.0])"), "{s}");
    assert!(!s.contains("c != 2"), "{s}");
}

#[test]
fn json_report_nodes() {
    let o = localize("cafl-omission", "omission.c", &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["schema"], "faultline.cafl/1");
    assert_eq!(v["test"], "run");
    let nodes = v["nodes"].as_array().unwrap();
    let summary: Vec<(String, u64, Vec<u64>)> = nodes
        .iter()
        .map(|n| {
            let mut lines: Vec<u64> = n["statements"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["line"].as_u64().unwrap())
                .collect();
            lines.sort_unstable();
            lines.dedup();
            (
                n["id"].as_str().unwrap().to_string(),
                n["level"].as_u64().unwrap(),
                lines,
            )
        })
        .collect();
    assert_eq!(
        summary,
        vec![
            ("0".to_string(), 0, vec![11, 16, 18]),
            ("0.0".to_string(), 1, vec![11, 12]),
            ("0.1".to_string(), 1, vec![11, 13]),
        ]
    );
    assert_eq!(nodes[0]["critical_condition"], serde_json::Value::Null);
    assert_eq!(nodes[2]["critical_condition"]["line"], 13);
    assert_eq!(nodes[2]["critical_condition"]["kind"], "indirect");
    assert_eq!(nodes[0]["children"], serde_json::json!(["0.0", "0.1"]));
    assert_eq!(v["ranking"][0]["line"], 11);
}

#[test]
fn feedback_flags() {
    // Only line 10 correct: the tree stops at the root.
    let o = localize(
        "cafl-cascade",
        "cascade.c",
        &["--correct", "10", "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["nodes"].as_array().unwrap().len(), 1);
    // Lines 10 and 13 correct: the condition at line 12 explains them.
    let o = localize(
        "cafl-cascade",
        "cascade.c",
        &["--correct", "10,13", "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["nodes"][1]["id"], "0.0");
    assert_eq!(v["nodes"][1]["critical_condition"]["line"], 12);
    // Benign prunes.
    let o = localize(
        "cafl-omission",
        "omission.c",
        &["--benign", "0.0", "--format", "json"],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(v["nodes"][1]["state"], "benign");
}

#[test]
fn html_report_is_a_collapsible_tree() {
    let o = localize("cafl-omission", "omission.c", &["--format", "html"]);
    let s = stdout(&o);
    assert!(s.starts_with("<!DOCTYPE html>"));
    assert_eq!(s.matches("<details open class=\"node").count(), 3);
    assert!(s.contains("id=\"node-0.1\""));
}

#[test]
fn user_errors_are_one_line_exit_2() {
    for (extra, needle) in [
        (vec!["--test", "nope"], "no test named `nope`"),
        (vec!["--correct", "1x"], "`1x` is not a line number"),
        (vec!["--correct", "3"], "line 3 has no statement"),
        (vec!["--benign", "0.9"], "no node `0.9`"),
        (
            vec!["--designated-correct", "nosuch"],
            "no function named `nosuch`",
        ),
    ] {
        let o = localize("cafl-cascade", "cascade.c", &extra);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{extra:?}: {err}");
        assert!(err.contains(needle), "{extra:?}: {err}");
    }
}

#[test]
fn explain_walks_and_updates_the_tree() {
    let (prog, tests) = example("cafl-cascade", "cascade.c");
    let o = faultline(
        &[
            "explain",
            prog.to_str().unwrap(),
            "--tests",
            tests.to_str().unwrap(),
            "--correct",
            "10",
        ],
        "s 0\nc 13\nr\nb 0.0\nb 7\nzz\nq\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let s = stdout(&o);
    // First view: only the root (line 10 alone has no critical condition).
    let first = s.split("cafl> ").next().unwrap();
    assert!(first.contains("1 nodes"), "{s}");
    // After `c 13`, the level-1 cause appears.
    let parts: Vec<&str> = s.split("cafl> ").collect();
    assert!(parts[2].contains("level 1 [0.0] why `y == 1`"), "{s}");
    // The ranking: level 0 statements first.
    assert!(parts[3].contains("1. line   10 (level 0)"), "{s}");
    // `b 0.0` prunes it: marked benign.
    assert!(parts[4].contains("marked benign"), "{s}");
    assert!(parts[5].contains("error: --benign: no node `7`"), "{s}");
    assert!(parts[6].contains("unknown command `zz`"), "{s}");
}

/// An unknown method's error names every method `localize` accepts, the single-run ones included.
#[test]
fn unknown_method_lists_every_method() {
    let (prog, tests) = example("cafl-cascade", "cascade.c");
    let o = faultline(
        &[
            "localize",
            prog.to_str().unwrap(),
            "--tests",
            tests.to_str().unwrap(),
            "--method",
            "bogus",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: --method: unknown method 'bogus' (expected one of: full, flow, trace, full+cw, bugassist, \
         bugassist+cw, sniper, cfaults, ofc, ofc+cw, ofc+tarantula, ofc+dstar, agx, agx+cw, mdfs), or cafl \
         (the cause tree of one failing test)\n"
    );
}
