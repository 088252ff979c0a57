//! The SARIF logs of `faultline localize --format sarif`: valid against the
//! SARIF 2.1.0 schema, with the fields GitHub code scanning and the VS Code
//! SARIF viewer need, and fingerprints that match across reruns.

mod common;

use common::{faultline, root};
use serde_json::Value;

fn sarif(prog: &str, tests: &str) -> Value {
    let o = faultline()
        .current_dir(root())
        .args(["localize", prog, "--tests", tests, "--format", "sarif"])
        .output()
        .expect("faultline runs");
    assert_eq!(o.status.code(), Some(1));
    serde_json::from_slice(&o.stdout).expect("valid JSON")
}

fn examples() -> Vec<Value> {
    vec![
        sarif("examples/triangle/triangle.c", "examples/triangle/tests"),
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
