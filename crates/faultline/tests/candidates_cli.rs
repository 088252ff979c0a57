//! `break` and `continue` as candidates, as `faultline localize` reports them
//! (examples/skip-negatives: `break` written for `continue`).

mod common;

use common::*;

fn localize(method: &str, format: &str) -> String {
    let o = faultline()
        .current_dir(root())
        .env("NO_COLOR", "1")
        .args([
            "localize",
            "examples/skip-negatives/skipneg.c",
            "--tests",
            "examples/skip-negatives/tests",
            "--method",
            method,
            "--format",
            format,
        ])
        .output()
        .expect("faultline runs");
    // 1: tests fail and the failures were localized.
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).expect("UTF-8")
}

/// The first diagnosis is the `break`, which would need to `continue` at
/// the iterations where the failing runs left the loop.
#[test]
fn the_break_is_reported_first_with_the_jump_it_needs() {
    for method in ["full", "flow"] {
        let text = localize(method, "text");
        let first: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with("diagnosis 1 of 3"))
            .take(9)
            .collect();
        assert_eq!(
            first,
            vec![
                "diagnosis 1 of 3: 1 statement, explains mid, two",
                "  --> examples/skip-negatives/skipneg.c:10:13",
                "   |",
                "10 |             break;",
                "   |             ^^^^^^ this `break` would need to `continue` (go on with the next iteration)",
                "   |",
                "   = test mid (iteration 2 of the loop at line 7): this `break` would need to `continue` (go on with the next iteration)",
                "   = test two (iteration 1 of the loop at line 7): this `break` would need to `continue` (go on with the next iteration)",
                "   = test two (iteration 3 of the loop at line 7): this `break` would need to `continue` (go on with the next iteration)",
            ],
            "{method}: {text}"
        );
        let json: serde_json::Value =
            serde_json::from_str(&localize(method, "json")).expect("JSON");
        let d = &json["diagnoses"][0];
        assert_eq!(d["statements"][0]["kind"], "break");
        assert_eq!(d["statements"][0]["line"], 10);
        assert_eq!(
            d["angelic"][0],
            serde_json::json!({
                "test": "mid", "statement": d["statements"][0]["id"], "line": 10,
                "context": "iteration 2 of the loop at line 7",
                "kind": "jump", "needed": "continue", "computed": "break"
            })
        );
    }
}

/// `trace` keeps the run's jumps: the initializer comes first.
#[test]
fn trace_reports_the_initializer_first() {
    let json: serde_json::Value = serde_json::from_str(&localize("trace", "json")).expect("JSON");
    let d = &json["diagnoses"][0];
    assert_eq!(d["statements"][0]["text"], "int sum = 0;");
    assert_eq!(d["angelic"][0]["needed"], "3");
    assert_eq!(d["angelic"][1]["needed"], "10");
}
