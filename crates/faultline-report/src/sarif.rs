//! The SARIF 2.1.0 log of `faultline localize` (docs/reports.md has the mapping).
//!
//! One run; one rule per localization method (`faultline/<method>`, e.g.
//! `faultline/full+mbd`); one result per statement of each diagnosis, located
//! at the statement's span, with the diagnosis's other statements as
//! `relatedLocations`, the angelic values in the message and in `properties`,
//! a `rank` (100 for the first diagnosis, 100/k for the k-th) and
//! `partialFingerprints` that depend only on source text, so a rerun on an
//! edited file matches the same results.

use crate::text::{angelic_phrase, explained_tests, list_names, stmt_label, TESTS_LISTED};
use crate::{json, stable_hash, Subject};
use faultline_ir::{Program, StmtId};
use faultline_result::describe_ctx;
use faultline_result::{Diagnosis, Localization};
use serde_json::{json, Value};
use std::path::{Component, Path};

pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
pub const VERSION: &str = "2.1.0";
/// Where people learn about the tool (`tool.driver.informationUri`).
pub const INFORMATION_URI: &str = "https://crates.io/crates/faultline";
/// The base every artifact URI is relative to: the directory faultline ran in.
pub const SRCROOT: &str = "%SRCROOT%";
/// Results written at most: GitHub code scanning keeps 5,000 results of a run (and rejects a run of
/// over 25,000); the highest-ranked are written, and a notification says how many were left out.
pub const MAX_RESULTS: usize = 5000;
/// Related locations of a result at most: GitHub code scanning shows 100 (and rejects over 1,000).
pub const MAX_RELATED: usize = 100;
/// Angelic values in a result's `properties` at most (the first ones, in test order; `angelicOmitted`
/// counts the rest): keeps a log of thousands of failing tests within GitHub's 10 MB upload limit.
pub const MAX_ANGELIC: usize = 50;
/// Keys of `partialFingerprints`.
pub const FINGERPRINT_STATEMENT: &str = "faultlineStatement/v1";
pub const FINGERPRINT_DIAGNOSIS: &str = "faultlineDiagnosis/v1";

/// The rule id of a method: `faultline/full+mbd`.
pub fn rule_id(method: &str) -> String {
    format!("faultline/{method}")
}

/// An artifact location for a path as the user gave it: relative paths (and
/// absolute ones under `cwd`) become URI references relative to `%SRCROOT%`;
/// other absolute paths become `file://` URIs.
pub fn artifact_location(path: &str, cwd: Option<&Path>) -> Value {
    let p = Path::new(path);
    let relative = if p.is_absolute() {
        cwd.and_then(|c| p.strip_prefix(c).ok())
            .map(|r| r.to_path_buf())
    } else {
        Some(p.to_path_buf())
    };
    match relative {
        Some(r) => {
            let parts: Vec<String> = r
                .components()
                .filter(|c| !matches!(c, Component::CurDir))
                .map(|c| percent_encode(&c.as_os_str().to_string_lossy()))
                .collect();
            json!({ "uri": parts.join("/"), "uriBaseId": SRCROOT })
        }
        None => {
            let parts: Vec<String> = p
                .components()
                .filter(|c| matches!(c, Component::Normal(_)))
                .map(|c| percent_encode(&c.as_os_str().to_string_lossy()))
                .collect();
            json!({ "uri": format!("file:///{}", parts.join("/")) })
        }
    }
}

/// Percent-encodes what may not appear in a URI path segment.
fn percent_encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// SARIF columns count UTF-16 code units (1-based); faultline's count bytes.
fn utf16_col(prog: &Program, file: faultline_ir::FileId, line: u32, byte_col: u32) -> u32 {
    let text = &prog.files[file.index()].text;
    let Some(l) = text.lines().nth(line.saturating_sub(1) as usize) else {
        return byte_col;
    };
    let upto = ((byte_col.max(1) - 1) as usize).min(l.len());
    // A column inside a multi-byte character counts from the character's start.
    let mut end = upto;
    while !l.is_char_boundary(end) {
        end -= 1;
    }
    let units: usize = l[..end].chars().map(char::len_utf16).sum();
    units as u32 + 1 + (upto - end) as u32
}

fn physical_location(prog: &Program, st: StmtId, files: &[String], cwd: Option<&Path>) -> Value {
    let info = prog.stmt(st);
    let l = info.loc;
    let name = prog.file_name(l.file);
    let mut artifact = artifact_location(name, cwd);
    if let Some(i) = files.iter().position(|f| f == name) {
        artifact["index"] = json!(i);
    }
    json!({
        "artifactLocation": artifact,
        "region": {
            "startLine": l.line,
            "startColumn": utf16_col(prog, l.file, l.line, l.col),
            "endLine": l.end_line,
            "endColumn": utf16_col(prog, l.file, l.end_line, l.end_col),
            "snippet": { "text": info.text },
        }
    })
}

/// 100 for the first diagnosis, 100/k for the k-th (two decimals).
pub fn rank(index: usize) -> f64 {
    (10000.0 / (index as f64 + 1.0)).round() / 100.0
}

fn result(
    s: &Subject,
    files: &[String],
    cwd: Option<&Path>,
    i: usize,
    d: &Diagnosis,
    st: StmtId,
    min_cost: u64,
) -> Value {
    let prog = s.prog;
    let loc = s.loc;
    let info = prog.stmt(st);
    let tests = explained_tests(loc, d);
    let names: Vec<&str> = tests.iter().map(|&t| loc.tests[t].name.as_str()).collect();
    let mut message = format!("`{}`", info.text);
    if let Some(label) = stmt_label(loc, d, st) {
        message.push(' ');
        message.push_str(&label);
    }
    let others: Vec<StmtId> = d.stmts.iter().copied().filter(|o| *o != st).collect();
    if !others.is_empty() {
        let mut links: Vec<String> = others
            .iter()
            .take(MAX_RELATED)
            .enumerate()
            .map(|(k, o)| format!("[line {}]({})", prog.stmt(*o).loc.line, k + 1))
            .collect();
        if others.len() > MAX_RELATED {
            links.push(format!("{} more statements", others.len() - MAX_RELATED));
        }
        message.push_str(&format!(", together with {}", links.join(" and ")));
    }
    message.push_str(&format!(
        ". Diagnosis {} of {}: changing {} explains failing {} {}.",
        i + 1,
        loc.diagnoses.len(),
        if d.stmts.len() == 1 {
            "this statement".to_string()
        } else {
            format!("these {} statements", d.stmts.len())
        },
        if names.len() == 1 { "test" } else { "tests" },
        list_names(&names, TESTS_LISTED)
    ));
    let related: Vec<Value> = others
        .iter()
        .take(MAX_RELATED)
        .enumerate()
        .map(|(k, o)| {
            let mut text = format!("`{}`", prog.stmt(*o).text);
            if let Some(label) = stmt_label(loc, d, *o) {
                text.push(' ');
                text.push_str(&label);
            }
            json!({
                "id": k + 1,
                "physicalLocation": physical_location(prog, *o, files, cwd),
                "message": { "text": text },
            })
        })
        .collect();
    let file_name = prog.file_name(info.loc.file).as_bytes();
    let mut diag_parts: Vec<&[u8]> = vec![file_name, info.text.as_bytes()];
    for o in &others {
        diag_parts.push(prog.file_name(prog.stmt(*o).loc.file).as_bytes());
        diag_parts.push(prog.stmt(*o).text.as_bytes());
    }
    let mine = d.angelic.iter().filter(|a| a.stmt == st);
    let angelic_total = mine.clone().count();
    let angelic: Vec<Value> = mine
        .take(MAX_ANGELIC)
        .map(|a| {
            let mut v = serde_json::to_value(json::value(&a.value)).expect("values serialize");
            v["test"] = json!(loc.tests[a.test].name);
            v["context"] = json!(describe_ctx(prog, &a.ctx));
            v["description"] = json!(angelic_phrase(a));
            v
        })
        .collect();
    let mut props = json!({
        "diagnosis": i + 1,
        "diagnosisSize": d.stmts.len(),
        "cost": d.cost,
        "tests": names,
        "angelic": angelic,
    });
    if angelic_total > MAX_ANGELIC {
        props["angelicOmitted"] = json!(angelic_total - MAX_ANGELIC);
    }
    if let Some(r) = loc.ranking.iter().position(|r| r.stmt == st) {
        props["statementRank"] = json!(r + 1);
        props["score"] = json!(loc.ranking[r].score);
    }
    if let Some(v) = d.verified {
        props["verified"] = json!(v);
    }
    if !d.undecided.is_empty() {
        let names: Vec<&str> = d
            .undecided
            .iter()
            .map(|&t| loc.tests[t].name.as_str())
            .collect();
        props["undecided"] = json!(names);
    }
    let mut r = json!({
        "ruleId": rule_id(&loc.method),
        "ruleIndex": 0,
        "level": if d.cost == min_cost { "warning" } else { "note" },
        "message": { "text": message },
        "locations": [ { "physicalLocation": physical_location(prog, st, files, cwd) } ],
        "partialFingerprints": {
            FINGERPRINT_STATEMENT: stable_hash([file_name, info.text.as_bytes()]),
            FINGERPRINT_DIAGNOSIS: stable_hash(diag_parts),
        },
        "rank": rank(i),
        "properties": props,
    });
    if !related.is_empty() {
        r["relatedLocations"] = json!(related);
    }
    r
}

fn rule(loc: &Localization) -> Value {
    let method = &loc.method;
    json!({
        "id": rule_id(method),
        "name": "FaultCandidate",
        "shortDescription": {
            "text": format!("Statement whose change would make the failing tests pass ({method})")
        },
        "fullDescription": {
            "text": format!(
                "faultline's {method} localization relaxed this statement, together with the other \
                 statements of its diagnosis, and found values it could compute instead (the angelic \
                 values) that make every failing test it explains produce the expected output. \
                 Diagnoses are minimal: no proper subset of their statements explains the tests."
            )
        },
        "help": {
            "text": "Look at the statement with the values it would need: an off-by-one, a wrong operator \
                     or a wrong variable usually shows as a needed value close to the computed one. \
                     Lower-ranked results are alternative explanations.",
            "markdown": "Look at the statement with the values it would need: an off-by-one, a wrong \
                         operator or a wrong variable usually shows as a needed value close to the \
                         computed one. Lower-ranked results are alternative explanations.",
        },
        "defaultConfiguration": { "level": "warning" },
        "properties": { "tags": ["fault-localization", "correctness"] },
    })
}

/// The SARIF log as a JSON value.
pub fn log(s: &Subject) -> Value {
    let prog = s.prog;
    let loc = s.loc;
    let cwd = std::env::current_dir().ok();
    let cwd = cwd.as_deref();
    // Artifacts: the files with a statement in some diagnosis, program first.
    let mut files: Vec<String> = vec![s.program_name.to_string()];
    for d in &loc.diagnoses {
        for st in &d.stmts {
            let name = prog.file_name(prog.stmt(*st).loc.file);
            if !files.iter().any(|f| f == name) {
                files.push(name.to_string());
            }
        }
    }
    let artifacts: Vec<Value> = files
        .iter()
        .map(|f| {
            json!({
                "location": artifact_location(f, cwd),
                "sourceLanguage": "c",
            })
        })
        .collect();
    let min_cost = loc.diagnoses.iter().map(|d| d.cost).min().unwrap_or(0);
    let mut results = Vec::new();
    let mut omitted = 0usize;
    for (i, d) in loc.diagnoses.iter().enumerate() {
        for st in &d.stmts {
            if results.len() < MAX_RESULTS {
                results.push(result(s, &files, cwd, i, d, *st, min_cost));
            } else {
                omitted += 1;
            }
        }
    }
    let mut notifications: Vec<Value> = loc
        .notes
        .iter()
        .map(|n| json!({ "level": "note", "message": { "text": n } }))
        .collect();
    if omitted > 0 {
        notifications.push(json!({
            "level": "note",
            "message": { "text": format!(
                "{omitted} lower-ranked {} left out: code scanning keeps {MAX_RESULTS} per run \
                 (the JSON report has them all)",
                if omitted == 1 { "result is" } else { "results are" }
            ) },
        }));
    }
    for (t, why) in &loc.skipped {
        notifications.push(json!({
            "level": "warning",
            "message": { "text": format!("test {} is not used: {why}", loc.tests[*t].name) },
        }));
    }
    if let Some(i) = &loc.incomplete {
        notifications.push(json!({
            "level": "warning",
            "message": { "text": format!("the search is incomplete: {}", i.describe()) },
        }));
    }
    let report = json::Report::new(prog, s.program_name, s.settings.clone(), loc);
    json!({
        "$schema": SCHEMA_URI,
        "version": VERSION,
        "runs": [{
            "tool": {
                "driver": {
                    "name": "faultline",
                    "version": env!("CARGO_PKG_VERSION"),
                    "semanticVersion": env!("CARGO_PKG_VERSION"),
                    "informationUri": INFORMATION_URI,
                    "rules": [rule(loc)],
                }
            },
            "automationDetails": { "id": format!("faultline/{}/", loc.method) },
            "columnKind": "utf16CodeUnits",
            "artifacts": artifacts,
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
            }],
            "results": results,
            "properties": {
                "program": s.program_name,
                "settings": report.settings,
                "tests": report.tests,
                "complete": report.complete,
                "stats": report.stats,
            },
        }],
    })
}

/// The SARIF log, pretty-printed, with a final newline.
pub fn render(s: &Subject) -> String {
    let mut out = serde_json::to_string_pretty(&log(s)).expect("the log serializes");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn artifact_uris() {
        assert_eq!(
            artifact_location("examples/a b.c", None),
            json!({ "uri": "examples/a%20b.c", "uriBaseId": "%SRCROOT%" })
        );
        assert_eq!(
            artifact_location("./x.c", None),
            json!({ "uri": "x.c", "uriBaseId": "%SRCROOT%" })
        );
        assert_eq!(
            artifact_location("/src/p/x.c", Some(Path::new("/src"))),
            json!({ "uri": "p/x.c", "uriBaseId": "%SRCROOT%" })
        );
        assert_eq!(
            artifact_location("/other/x.c", Some(Path::new("/src"))),
            json!({ "uri": "file:///other/x.c" })
        );
    }

    #[test]
    fn ranks() {
        assert_eq!(rank(0), 100.0);
        assert_eq!(rank(1), 50.0);
        assert_eq!(rank(2), 33.33);
        assert_eq!(rule_id("full+mbd"), "faultline/full+mbd");
    }
}
