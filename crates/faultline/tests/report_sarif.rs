//! The SARIF logs of `faultline localize --format sarif`: valid against the
//! SARIF 2.1.0 schema, with the fields GitHub code scanning and the VS Code
//! SARIF viewer need, and fingerprints that match across reruns.

mod common;

use common::{faultline, root};
use serde_json::Value;

fn sarif(prog: &str, tests: &str) -> Value {
    sarif_with(prog, tests, &[])
}

fn sarif_with(prog: &str, tests: &str, extra: &[&str]) -> Value {
    let o = faultline()
        .current_dir(root())
        .args(["localize", prog, "--tests", tests, "--format", "sarif"])
        .args(extra)
        .output()
        .expect("faultline runs");
    assert_eq!(o.status.code(), Some(1));
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

fn examples() -> Vec<Value> {
    vec![
        // Every size, for diagnoses of two statements.
        sarif_with(
            "examples/triangle/triangle.c",
            "examples/triangle/tests",
            &["--all-sizes"],
        ),
        sarif("examples/maxval/maxval.c", "examples/maxval/tests"),
        sarif("examples/leap/leap.c", "examples/leap/tests"),
    ]
}

/// The vendored schema, with one erratum of release rtm.5 fixed: the language
/// patterns (of `run.language` and `toolComponent.language`) have an
/// unbalanced `]`, not a valid ECMA 262 regex, so the validator would refuse
/// the schema itself.
fn schema() -> Value {
    let path = root().join("crates/faultline-report/tests/data/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(path).expect("the vendored schema");
    const BROKEN: &str = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    assert_eq!(text.matches(BROKEN).count(), 2);
    let text = text.replace(BROKEN, r#""^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#);
    serde_json::from_str(&text).unwrap()
}

#[test]
fn logs_are_valid_sarif_2_1_0() {
    let validator = jsonschema::draft4::new(&schema()).expect("the schema compiles");
    for log in examples() {
        let errors: Vec<String> = validator
            .iter_errors(&log)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "schema violations: {errors:#?}");
    }
}

#[test]
fn the_schema_rejects_what_code_scanning_would() {
    // The validator is not vacuous: a result without a message, and a region
    // with line 0, are rejected.
    let validator = jsonschema::draft4::new(&schema()).unwrap();
    let mut log = examples().remove(0);
    log["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    assert!(!validator.is_valid(&log));
    let mut log = examples().remove(0);
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
        0.into();
    assert!(!validator.is_valid(&log));
}

#[test]
fn results_have_what_code_scanning_requires() {
    for log in examples() {
        assert_eq!(log["version"], "2.1.0");
        let run = &log["runs"][0];
        let driver = &run["tool"]["driver"];
        assert_eq!(driver["name"], "faultline");
        assert!(driver["informationUri"]
            .as_str()
            .unwrap()
            .starts_with("https://"));
        let rules: Vec<&str> = driver["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        assert_eq!(rules, ["faultline/full+mbd"]);
        let results = run["results"].as_array().unwrap();
        assert!(!results.is_empty());
        let mut fingerprints = std::collections::BTreeSet::new();
        for r in results {
            assert_eq!(r["ruleId"], "faultline/full+mbd");
            assert_eq!(r["ruleIndex"], 0);
            assert!(!r["message"]["text"].as_str().unwrap().is_empty());
            let loc = &r["locations"][0]["physicalLocation"];
            let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
            assert!(uri.starts_with("examples/") && uri.ends_with(".c"), "{uri}");
            assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
            assert_eq!(loc["artifactLocation"]["index"], 0);
            let region = &loc["region"];
            for k in ["startLine", "startColumn", "endLine", "endColumn"] {
                assert!(region[k].as_u64().unwrap() >= 1, "{k}");
            }
            let rank = r["rank"].as_f64().unwrap();
            assert!((0.0..=100.0).contains(&rank));
            let fp = &r["partialFingerprints"];
            assert_eq!(fp.as_object().unwrap().len(), 2);
            assert!(fingerprints.insert(fp["faultlineDiagnosis/v1"].to_string()));
        }
    }
}

#[test]
fn triangle_results_locate_the_seeded_fault_first() {
    let log = &examples()[0];
    let results = log["runs"][0]["results"].as_array().unwrap();
    // 8 diagnoses: five of one statement, three of two.
    assert_eq!(results.len(), 11);
    let first = &results[0];
    assert_eq!(
        first["locations"][0]["physicalLocation"]["region"],
        serde_json::json!({
            "startLine": 14, "startColumn": 5, "endLine": 14, "endColumn": 38,
            "snippet": { "text": "iso = a == b || a == b || a == c;" }
        })
    );
    assert_eq!(first["rank"], 100.0);
    assert_eq!(first["level"], "warning");
    assert_eq!(first["properties"]["diagnosis"], 1);
    assert_eq!(
        first["properties"]["tests"],
        serde_json::json!(["t4", "t8"])
    );
    assert!(first["message"]["text"]
        .as_str()
        .unwrap()
        .starts_with("`iso = a == b || a == b || a == c;` would need "));
    // A two-statement diagnosis points at its other statement.
    let pair: Vec<&Value> = results
        .iter()
        .filter(|r| r["properties"]["diagnosis"] == 6)
        .collect();
    assert_eq!(pair.len(), 2);
    let related = &pair[0]["relatedLocations"][0];
    assert_eq!(related["id"], 1);
    assert_eq!(related["physicalLocation"]["region"]["startLine"], 8);
    assert!(pair[0]["message"]["text"]
        .as_str()
        .unwrap()
        .contains("together with [line 8](1)"));
    assert_eq!(pair[0]["rank"], 16.67);
}

#[test]
fn fingerprints_are_stable_across_runs() {
    let fp = |log: &Value| -> Vec<Value> {
        log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["partialFingerprints"].clone())
            .collect()
    };
    let a = sarif("examples/leap/leap.c", "examples/leap/tests");
    let b = sarif("examples/leap/leap.c", "examples/leap/tests");
    assert_eq!(fp(&a), fp(&b));
}

/// GitHub code scanning keeps 5,000 results of a run and rejects uploads over 10 MB (gzipped): a log
/// with more candidate statements keeps the highest-ranked 5,000 and says how many it left out, and a
/// result keeps at most 50 angelic values (`angelicOmitted` counts the rest).
#[test]
fn logs_stay_within_code_scannings_limits() {
    // Three counters, each incremented 12 times and printed: every choice of one increment per counter
    // is a 3-statement diagnosis (1728 of them), so over 5,000 results before the cut.
    let dir = common::tempdir("sarif-limits");
    let mut src =
        String::from("#include <stdio.h>\nint main(void) {\n    int a = 0, b = 0, c = 0;\n");
    for v in ["a", "b", "c"] {
        for _ in 0..12 {
            src.push_str(&format!("    {v} = {v} + 1;\n"));
        }
    }
    src.push_str("    printf(\"%d %d %d\\n\", a, b, c);\n    return 0;\n}\n");
    std::fs::write(dir.join("many.c"), src).unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(dir.join("tests/t1.in"), "").unwrap();
    std::fs::write(dir.join("tests/t1.out"), "13 13 13\n").unwrap();
    let run_with = |format: &str| -> Value {
        let o = faultline()
            .current_dir(&dir)
            .args(["localize", "many.c", "--tests", "tests", "--format", format])
            .args(["--max-diagnoses", "1800", "--all-sizes"])
            .output()
            .expect("faultline runs");
        serde_json::from_slice(&o.stdout).expect("valid JSON")
    };
    let log = run_with("sarif");
    let report = run_with("json");
    let sizes: Vec<usize> = report["diagnoses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["size"].as_u64().unwrap() as usize)
        .collect();
    let total: usize = sizes.iter().sum();
    assert!(total > 5000, "{total} statements in all");
    let run = &log["runs"][0];
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 5000);
    // The written results are the first ones: every statement of the first diagnoses, in order.
    let mut expected = Vec::new();
    for (i, n) in sizes.iter().enumerate() {
        expected.extend(std::iter::repeat_n(i as u64 + 1, *n));
    }
    let numbers: Vec<u64> = results
        .iter()
        .map(|r| r["properties"]["diagnosis"].as_u64().unwrap())
        .collect();
    assert_eq!(numbers, expected[..5000]);
    let notes: Vec<&str> = run["invocations"][0]["toolExecutionNotifications"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["message"]["text"].as_str().unwrap())
        .collect();
    let cut = format!(
        "{} lower-ranked results are left out: code scanning keeps 5000 per run (the JSON report has them all)",
        total - 5000
    );
    assert!(notes.contains(&cut.as_str()), "{notes:?}");
    let validator = jsonschema::draft4::new(&schema()).expect("the schema compiles");
    assert!(validator.is_valid(&log), "the cut log is valid SARIF 2.1.0");
}

/// TCAS v33 has 1,578 failing tests: each result keeps 50 angelic values and counts the others.
#[test]
fn results_keep_at_most_50_angelic_values() {
    let tcas = common::tcas();
    let o = faultline()
        .current_dir(root())
        .arg("localize")
        .arg(tcas.join("versions/v33/tcas.c"))
        .arg("--args-file")
        .arg(tcas.join("universe.txt"))
        .arg("--oracle")
        .arg(tcas.join("tcas.c"))
        .args(["--format", "sarif", "--max-diagnoses", "3"])
        .output()
        .expect("faultline runs");
    assert_eq!(o.status.code(), Some(1));
    let log: Value = serde_json::from_slice(&o.stdout).expect("valid JSON");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty());
    let mut cut = 0;
    for r in results {
        let kept = r["properties"]["angelic"].as_array().unwrap().len();
        match r["properties"].get("angelicOmitted") {
            Some(n) => {
                assert_eq!(kept, 50);
                assert!(n.as_u64().unwrap() > 0);
                cut += 1;
            }
            None => assert!(kept <= 50),
        }
    }
    assert!(cut > 0, "no result of v33 has over 50 angelic values");
}
