//! Snapshots of `faultline localize`'s reports (text, quiet, verbose, JSON,
//! SARIF) on the three examples, and the output options (-o, --color).
//! Timings and the version are zeroed/redacted before snapshotting.

mod common;

use common::{faultline, root};
use serde_json::Value;

/// (snapshot name, program, tests directory).
const EXAMPLES: [(&str, &str, &str); 3] = [
    (
        "triangle",
        "examples/triangle/triangle.c",
        "examples/triangle/tests",
    ),
    (
        "maxval",
        "examples/maxval/maxval.c",
        "examples/maxval/tests",
    ),
    ("leap", "examples/leap/leap.c", "examples/leap/tests"),
];

/// Runs `faultline localize PROG --tests DIR EXTRA...` in the repository root;
/// returns stdout and the exit status.
fn localize(prog: &str, tests: &str, extra: &[&str]) -> (String, i32) {
    let o = faultline()
        .current_dir(root())
        .env_remove("NO_COLOR")
        .args(["localize", prog, "--tests", tests])
        .args(extra)
        .output()
        .expect("faultline runs");
    assert!(
        o.stderr.is_empty(),
        "unexpected stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    (
        String::from_utf8(o.stdout).expect("UTF-8 output"),
        o.status.code().expect("exit status"),
    )
}

fn zero(v: &mut Value, keys: &[&str]) {
    for k in keys {
        let field = &mut v[*k];
        assert!(field.is_number(), "{k} is a number");
        *field = Value::from(0.0);
    }
}

const TIMES: [&str; 4] = ["run_s", "encode_s", "solve_s", "total_s"];

#[test]
fn text_reports() {
    for (name, prog, tests) in EXAMPLES {
        let (out, status) = localize(prog, tests, &[]);
        assert_eq!(status, 1, "{name}: failing tests localized");
        assert!(!out.contains('\x1b'), "{name}: no colour in a pipe");
        insta::assert_snapshot!(format!("{name}_text"), out);
        let (quiet, status) = localize(prog, tests, &["--quiet"]);
        assert_eq!(status, 1);
        insta::assert_snapshot!(format!("{name}_quiet"), quiet);
    }
}

#[test]
fn verbose_report_lists_everything() {
    let (out, status) = localize(
        "examples/triangle/triangle.c",
        "examples/triangle/tests",
        &["--verbose"],
    );
    assert_eq!(status, 1);
    let (time_lines, rest): (Vec<&str>, Vec<&str>) =
        out.lines().partition(|l| l.starts_with("time: "));
    assert_eq!(time_lines.len(), 1, "one line of timings");
    assert!(time_lines[0].contains(" s in all: running tests "));
    insta::assert_snapshot!("triangle_verbose", rest.join("\n"));
}

#[test]
fn json_reports() {
    for (name, prog, tests) in EXAMPLES {
        let (out, status) = localize(prog, tests, &["--format", "json"]);
        assert_eq!(status, 1);
        let mut v: Value = serde_json::from_str(&out).expect("valid JSON");
        assert_eq!(v["schema"], "faultline.localize/1");
        zero(&mut v["stats"], &TIMES);
        insta::assert_snapshot!(
            format!("{name}_json"),
            serde_json::to_string_pretty(&v).unwrap()
        );
    }
}

#[test]
fn sarif_reports() {
    for (name, prog, tests) in EXAMPLES {
        let (out, status) = localize(prog, tests, &["--format", "sarif"]);
        assert_eq!(status, 1);
        let mut v: Value = serde_json::from_str(&out).expect("valid JSON");
        let run = &mut v["runs"][0];
        zero(&mut run["properties"]["stats"], &TIMES);
        let driver = &mut run["tool"]["driver"];
        assert_eq!(driver["version"], env!("CARGO_PKG_VERSION"));
        driver["version"] = "[version]".into();
        driver["semanticVersion"] = "[version]".into();
        insta::assert_snapshot!(
            format!("{name}_sarif"),
            serde_json::to_string_pretty(&v).unwrap()
        );
    }
}

#[test]
fn output_file_matches_stdout() {
    let dir = common::tempdir("report-output");
    let file = dir.join("report.txt");
    let (stdout, _) = localize(
        "examples/maxval/maxval.c",
        "examples/maxval/tests",
        &["--color", "always"],
    );
    let (empty, status) = localize(
        "examples/maxval/maxval.c",
        "examples/maxval/tests",
        &["-o", file.to_str().unwrap()],
    );
    assert_eq!(status, 1);
    assert_eq!(empty, "");
    let written = std::fs::read_to_string(&file).unwrap();
    // --color always colours stdout; files are never coloured.
    assert!(stdout.contains("\x1b[1;33m"));
    assert!(!written.contains('\x1b'));
    assert_eq!(faultline_report::style::strip_ansi(&stdout), written);
}

#[test]
fn no_color_and_never_turn_colour_off() {
    let o = faultline()
        .current_dir(root())
        .env("NO_COLOR", "1")
        .args([
            "localize",
            "examples/maxval/maxval.c",
            "--tests",
            "examples/maxval/tests",
            "--color",
            "never",
        ])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&o.stdout).contains('\x1b'));
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn quiet_and_verbose_conflict() {
    let o = faultline()
        .current_dir(root())
        .args([
            "localize",
            "examples/maxval/maxval.c",
            "--tests",
            "examples/maxval/tests",
            "-q",
            "-v",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot be used with"));
}

#[test]
fn unwritable_output_is_an_input_error() {
    let o = faultline()
        .current_dir(root())
        .args([
            "localize",
            "examples/maxval/maxval.c",
            "--tests",
            "examples/maxval/tests",
            "-o",
            "/nonexistent-dir/report.txt",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "error: cannot write /nonexistent-dir/report.txt: No such file or directory (os error 2)\n"
    );
}
