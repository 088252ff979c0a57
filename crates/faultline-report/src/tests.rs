//! The report of `faultline test`: each test's verdict, as text or JSON.
//!
//! JSON schema `faultline.test/1` (documented in docs/json.md):
//! `{ schema, program, tests: [{ name, verdict: "pass"|"fail", reason? }], summary: { total, passed, failed } }`
//! where `reason` is `{ kind, message, ... }` with `kind` one of `output`
//! (with `line`, `expected`, `actual`), `exit-status` (`expected`, `actual`),
//! `assertion`, `runtime-error` (`error`: the error kind, `file`, `line`).

use faultline_exec::{FailReason, Run, TestCase, Verdict};
use faultline_ir::Program;
use serde::Serialize;

pub const SCHEMA: &str = "faultline.test/1";

#[derive(Serialize)]
pub struct TestReport {
    pub schema: &'static str,
    pub program: String,
    pub tests: Vec<TestEntry>,
    pub summary: Summary,
}

#[derive(Serialize)]
pub struct TestEntry {
    pub name: String,
    pub verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
}

#[derive(Serialize)]
pub struct Reason {
    pub kind: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

#[derive(Serialize)]
pub struct Summary {
    pub total: usize,
    pub passed: usize,
    pub failed: usize,
}

impl Reason {
    pub fn new(prog: &Program, r: &FailReason) -> Reason {
        let mut reason = Reason {
            kind: r.kind(),
            message: r.describe(prog),
            line: None,
            expected: None,
            actual: None,
            error: None,
            file: None,
        };
        match r {
            FailReason::Output {
                line,
                expected,
                actual,
            } => {
                reason.line = Some(*line);
                reason.expected = Some(expected.clone());
                reason.actual = Some(actual.clone());
            }
            FailReason::ExitStatus { expected, actual } => {
                reason.expected = Some(expected.to_string());
                reason.actual = Some(actual.to_string());
            }
            FailReason::Assertion { .. } => {}
            FailReason::RuntimeError(e) => {
                reason.error = Some(e.kind.name());
                if let Some(s) = e.stmt {
                    let info = prog.stmt(s);
                    reason.file = Some(prog.file_name(info.loc.file).to_string());
                    reason.line = Some(info.loc.line as usize);
                }
            }
        }
        reason
    }
}

impl TestReport {
    pub fn new(prog: &Program, program_name: &str, tests: &[TestCase], runs: &[Run]) -> TestReport {
        let entries: Vec<TestEntry> = tests
            .iter()
            .zip(runs)
            .map(|(t, r)| TestEntry {
                name: t.name.clone(),
                verdict: if r.passed() { "pass" } else { "fail" },
                reason: match &r.verdict {
                    Verdict::Pass => None,
                    Verdict::Fail(f) => Some(Reason::new(prog, f)),
                },
            })
            .collect();
        let passed = entries.iter().filter(|e| e.verdict == "pass").count();
        TestReport {
            schema: SCHEMA,
            program: program_name.to_string(),
            summary: Summary {
                total: entries.len(),
                passed,
                failed: entries.len() - passed,
            },
            tests: entries,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("the report serializes")
    }

    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for t in &self.tests {
            match &t.reason {
                None => s.push_str(&format!("test {} ... ok\n", t.name)),
                Some(r) => s.push_str(&format!("test {} ... FAILED: {}\n", t.name, r.message)),
            }
        }
        let m = &self.summary;
        s.push_str(&format!(
            "\n{}: {} passed, {} failed\n",
            if m.total == 1 {
                "1 test".to_string()
            } else {
                format!("{} tests", m.total)
            },
            m.passed,
            m.failed
        ));
        s
    }
}
