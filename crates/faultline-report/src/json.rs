//! The JSON report of `faultline localize` (schema `faultline.localize/1`,
//! documented field by field in docs/json.md).

use faultline_ir::{Jump, Program, StmtId};
use faultline_result::describe_ctx;
use faultline_result::{AngelicValue, IncompleteKind, Localization};
use serde::{Deserialize, Serialize};

pub const SCHEMA: &str = "faultline.localize/1";

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Settings {
    pub method: String,
    pub encoding: String,
    pub combine: String,
    pub max_size: usize,
    /// `--all-sizes`: every minimal diagnosis up to `max_size`, not only
    /// the smallest (added to `/1`: older reports have none).
    #[serde(default)]
    pub all_sizes: bool,
    pub max_diagnoses: usize,
    pub timeout_s: Option<f64>,
    pub unwind: Option<u32>,
    pub int_semantics: String,
    /// `--threads`: engines checking single statements at once (added to
    /// `/1`: older reports have none, and were made by one).
    #[serde(default = "one")]
    pub threads: usize,
}

fn one() -> usize {
    1
}

#[derive(Serialize, Deserialize, Debug)]
pub struct Report {
    pub schema: String,
    pub program: String,
    pub settings: Settings,
    pub tests: Tests,
    pub diagnoses: Vec<JDiagnosis>,
    pub ranking: Vec<JRanked>,
    pub complete: bool,
    pub incomplete_reason: Option<String>,
    /// The kind of `incomplete_reason`: `timeout`, `max_diagnoses`,
    /// `memory`, `solver` (added to `/1`: older reports have none).
    #[serde(default)]
    pub incomplete_kind: Option<IncompleteKind>,
    pub notes: Vec<String>,
    pub stats: JStats,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct Tests {
    pub total: usize,
    pub passing: Vec<String>,
    pub failing: Vec<JFailing>,
    pub skipped: Vec<JSkipped>,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct JFailing {
    pub name: String,
    pub reason: String,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct JSkipped {
    pub name: String,
    pub reason: String,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct JStmt {
    pub id: u32,
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
    pub kind: faultline_ir::StmtKind,
    pub text: String,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct JAngelic {
    pub test: String,
    pub statement: u32,
    pub line: u32,
    pub context: String,
    #[serde(flatten)]
    pub value: JValue,
}

#[derive(Serialize, Deserialize, Debug)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum JValue {
    Value {
        needed: String,
        computed: String,
    },
    /// Argument `index` (from 0) of a call in the statement.
    Argument {
        index: u32,
        needed: String,
        computed: String,
    },
    Branch {
        needed: bool,
        computed: bool,
    },
    Output {
        text: String,
    },
    /// `needed` and `computed` are `break`, `continue` or `stay` (no jump).
    Jump {
        needed: Jump,
        computed: Jump,
    },
}

#[derive(Serialize, Deserialize, Debug)]
pub struct JDiagnosis {
    pub rank: usize,
    pub size: usize,
    pub cost: u64,
    pub test: Option<String>,
    pub statements: Vec<JStmt>,
    pub angelic: Vec<JAngelic>,
    pub verified: Option<bool>,
    /// Failing tests the diagnosis was not decided on within the limits
    /// (an unconfirmed diagnosis; empty for the others).
    #[serde(default)]
    pub undecided: Vec<String>,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct JRanked {
    pub rank: usize,
    pub statement: JStmt,
    pub score: f64,
}

#[derive(Serialize, Deserialize, Debug)]
pub struct JStats {
    pub solver_calls: u64,
    pub tests_encoded: usize,
    pub statement_instances: usize,
    pub iterations: usize,
    pub tests_reused: usize,
    /// Added to `/1`: older reports have none.
    #[serde(default)]
    pub helper_checks: usize,
    pub run_s: f64,
    pub encode_s: f64,
    pub solve_s: f64,
    pub total_s: f64,
}

pub fn stmt(prog: &Program, id: StmtId) -> JStmt {
    let s = prog.stmt(id);
    JStmt {
        id: id.0,
        file: prog.file_name(s.loc.file).to_string(),
        line: s.loc.line,
        column: s.loc.col,
        end_line: s.loc.end_line,
        end_column: s.loc.end_col,
        kind: s.kind,
        text: s.text.clone(),
    }
}

pub fn value(v: &AngelicValue) -> JValue {
    match v {
        AngelicValue::Value { needed, computed } => JValue::Value {
            needed: needed.clone(),
            computed: computed.clone(),
        },
        AngelicValue::Argument {
            index,
            needed,
            computed,
        } => JValue::Argument {
            index: *index,
            needed: needed.clone(),
            computed: computed.clone(),
        },
        AngelicValue::Branch { needed, computed } => JValue::Branch {
            needed: *needed,
            computed: *computed,
        },
        AngelicValue::Output { text } => JValue::Output { text: text.clone() },
        AngelicValue::Jump { needed, computed } => JValue::Jump {
            needed: *needed,
            computed: *computed,
        },
    }
}

impl Report {
    pub fn new(
        prog: &Program,
        program_name: &str,
        settings: Settings,
        loc: &Localization,
    ) -> Report {
        let name = |t: usize| loc.tests[t].name.clone();
        let diagnoses = loc
            .diagnoses
            .iter()
            .enumerate()
            .map(|(i, d)| JDiagnosis {
                rank: i + 1,
                size: d.stmts.len(),
                cost: d.cost,
                test: d.test.map(name),
                statements: d.stmts.iter().map(|s| stmt(prog, *s)).collect(),
                angelic: d
                    .angelic
                    .iter()
                    .map(|a| JAngelic {
                        test: name(a.test),
                        statement: a.stmt.0,
                        line: prog.stmt(a.stmt).loc.line,
                        context: describe_ctx(prog, &a.ctx),
                        value: value(&a.value),
                    })
                    .collect(),
                verified: d.verified,
                undecided: d.undecided.iter().map(|t| name(*t)).collect(),
            })
            .collect();
        Report {
            schema: SCHEMA.into(),
            program: program_name.to_string(),
            settings,
            tests: Tests {
                total: loc.tests.len(),
                passing: loc
                    .tests
                    .iter()
                    .filter(|t| t.passed)
                    .map(|t| t.name.clone())
                    .collect(),
                failing: loc
                    .failing
                    .iter()
                    .map(|&t| JFailing {
                        name: name(t),
                        reason: loc.tests[t].reason.clone().unwrap_or_default(),
                    })
                    .collect(),
                skipped: loc
                    .skipped
                    .iter()
                    .map(|(t, r)| JSkipped {
                        name: name(*t),
                        reason: r.clone(),
                    })
                    .collect(),
            },
            diagnoses,
            ranking: loc
                .ranking
                .iter()
                .enumerate()
                .map(|(i, r)| JRanked {
                    rank: i + 1,
                    statement: stmt(prog, r.stmt),
                    score: r.score,
                })
                .collect(),
            complete: !loc.is_partial(),
            incomplete_reason: loc.incomplete.as_ref().map(|i| i.describe()),
            incomplete_kind: loc.incomplete.as_ref().map(|i| i.kind()),
            notes: loc.notes.clone(),
            stats: JStats {
                solver_calls: loc.stats.solver_calls,
                tests_encoded: loc.stats.tests_encoded,
                statement_instances: loc.stats.statement_instances,
                iterations: loc.stats.iterations,
                tests_reused: loc.stats.tests_reused,
                helper_checks: loc.stats.helper_checks,
                run_s: loc.stats.run_time.as_secs_f64(),
                encode_s: loc.stats.encode_time.as_secs_f64(),
                solve_s: loc.stats.solve_time.as_secs_f64(),
                total_s: loc.stats.total_time.as_secs_f64(),
            },
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("the report serializes")
    }

    /// Reads a `faultline.localize/1` report (as `faultline bench` reads its
    /// jobs' output).
    pub fn from_json(text: &[u8]) -> Result<Report, String> {
        let r: Report = serde_json::from_slice(text).map_err(|e| e.to_string())?;
        if r.schema != SCHEMA {
            return Err(format!("schema '{}', expected '{SCHEMA}'", r.schema));
        }
        Ok(r)
    }
}
