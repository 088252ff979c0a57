//! Conditions found by predicate switching, and values on the runs' paths
//! first (`full` with `mbd`, see docs/how-it-works.md, section 6).
//!
//! - examples/table-limit: a table limit written 10 for 100. The failing run
//!   skips a table of 12 numbers; the fix sums it, 12 iterations of a loop
//!   that no failing run entered, beyond the formula's unwinding bounds.
//!   Re-executed with that one outcome switched, the test passes: the
//!   condition is reported with the outcome it needs.
//! - Siemens tot_info v3 (`../shared/benchmarks/siemens`, or
//!   `FAULTLINE_SIEMENS`; skipped without it): the same fault class in a
//!   real program, whose switched run reads and analyses a 31x32 table.
//! - Siemens print_tokens v7: a token limit of 10 for 80, wrong at every
//!   late iteration: found with the condition made false at every instance.

mod common;

use common::*;

fn localize(args: &[&str]) -> (String, i32) {
    let o = faultline()
        .current_dir(root())
        .env("NO_COLOR", "1")
        .arg("localize")
        .args(args)
        .output()
        .expect("faultline runs");
    (
        String::from_utf8(o.stdout).expect("UTF-8"),
        o.status.code().unwrap_or(-1),
    )
}

/// The statements (`file:line`) of each diagnosis, in order.
fn diagnoses(json: &serde_json::Value) -> Vec<Vec<String>> {
    json["diagnoses"]
        .as_array()
        .expect("diagnoses")
        .iter()
        .map(|d| {
            d["statements"]
                .as_array()
                .expect("statements")
                .iter()
                .map(|s| {
                    let file = s["file"].as_str().expect("file");
                    let name = file.rsplit('/').next().unwrap_or(file);
                    format!("{name}:{}", s["line"])
                })
                .collect()
        })
        .collect()
}

#[test]
fn a_limit_that_skips_a_loop_is_found_by_switching_its_outcome() {
    let (out, code) = localize(&[
        "examples/table-limit/table.c",
        "--tests",
        "examples/table-limit/tests",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["complete"], true, "{out}");
    assert_eq!(
        diagnoses(&json),
        vec![
            vec!["table.c:9".to_string()],
            vec!["table.c:10".to_string()]
        ]
    );
    // The first iteration's outcome switched; the second as computed.
    let angelic: Vec<(String, bool, bool)> = json["diagnoses"][0]["angelic"]
        .as_array()
        .expect("angelic")
        .iter()
        .map(|a| {
            (
                a["context"].as_str().expect("context").to_string(),
                a["needed"].as_bool().expect("needed"),
                a["computed"].as_bool().expect("computed"),
            )
        })
        .collect();
    assert_eq!(
        angelic,
        vec![
            ("iteration 1 of the loop at line 8".to_string(), false, true),
            (
                "iteration 2 of the loop at line 8".to_string(),
                false,
                false
            ),
        ]
    );
    // `trace` keeps the runs' outcomes: only the output remains.
    let (out, _) = localize(&[
        "examples/table-limit/table.c",
        "--tests",
        "examples/table-limit/tests",
        "--encoding",
        "trace",
        "--format",
        "json",
    ]);
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(diagnoses(&json), vec![vec!["table.c:10".to_string()]]);
}

#[test]
fn tot_info_v3_its_table_limit_first() {
    let Some(dir) = siemens() else {
        eprintln!("the Siemens benchmark is not there: nothing checked");
        return;
    };
    let prog = dir.join("tot_info");
    // Its one failing test (universe line 296, from
    // benchmarks/siemens/tot_info.failing.tsv).
    let failing: Vec<String> =
        std::fs::read_to_string(root().join("benchmarks/siemens/tot_info.failing.tsv"))
            .expect("cache")
            .lines()
            .filter_map(|l| l.strip_prefix("v3\t"))
            .map(|l| l.split('\t').next().expect("line").to_string())
            .collect();
    assert_eq!(failing.len(), 1);
    let universe = std::fs::read_to_string(prog.join("universe.txt")).expect("universe");
    let line: usize = failing[0].parse().expect("a line number");
    let tmp = tempdir("switching");
    let args = tmp.join("tests.txt");
    std::fs::write(
        &args,
        format!("{}\n", universe.lines().nth(line - 1).expect("test")),
    )
    .expect("write");
    let src = prog.join("versions/v3/tot_info.c");
    let oracle = prog.join("source/tot_info.c");
    let workdir = prog.join("inputs");
    let (out, _) = localize(&[
        src.to_str().expect("path"),
        "--args-file",
        args.to_str().expect("path"),
        "--workdir",
        workdir.to_str().expect("path"),
        "--oracle",
        oracle.to_str().expect("path"),
        "--format",
        "json",
    ]);
    let _ = std::fs::remove_dir_all(&tmp);
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(
        diagnoses(&json),
        vec![vec!["tot_info.c:75".to_string()]],
        "{out}"
    );
}

/// Siemens print_tokens v7: `if(token_ind >= 10) break;` for 80 cuts every
/// token longer than ten characters. The condition is wrong at each late
/// iteration of the token loop (twenty switches in one test): the condition
/// made false at every instance passes each of the 28 failing tests, so it
/// is the first diagnosis accepted, after a few seconds of runs, where the
/// focused formulas did not name it within a minute.
#[test]
fn print_tokens_v7_its_token_limit_by_a_constant_condition() {
    let Some(dir) = siemens() else {
        eprintln!("the Siemens benchmark is not there: nothing checked");
        return;
    };
    let prog = dir.join("print_tokens");
    let src = prog.join("versions/v7/print_tokens.c");
    let universe = prog.join("universe.txt");
    let oracle = prog.join("source/print_tokens.c");
    let workdir = prog.join("inputs");
    let (out, code) = localize(&[
        src.to_str().expect("path"),
        "--args-file",
        universe.to_str().expect("path"),
        "--workdir",
        workdir.to_str().expect("path"),
        "--oracle",
        oracle.to_str().expect("path"),
        "--max-diagnoses",
        "1",
        "--format",
        "json",
    ]);
    // Failing tests, and the search stopped at its one diagnosis.
    assert_eq!(code, 1, "{out}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(json["incomplete_kind"], "max_diagnoses", "{out}");
    assert_eq!(
        diagnoses(&json),
        vec![vec!["print_tokens.c:281".to_string()]],
        "{out}"
    );
    // Every failing test explained, each with the condition false at the
    // iterations past the tenth character.
    let angelic = json["diagnoses"][0]["angelic"].as_array().expect("angelic");
    let tests: std::collections::BTreeSet<&str> = angelic
        .iter()
        .map(|a| a["test"].as_str().expect("test"))
        .collect();
    assert_eq!(tests.len(), 28);
    assert!(angelic
        .iter()
        .all(|a| a["needed"] == false || a["computed"] == a["needed"]));
}
