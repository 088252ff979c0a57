//! What a localization produces: diagnoses with angelic values, a ranking of
//! statements, and the settings and statistics behind them.
//!
//! This crate links no solver: renderers (`faultline-report`) depend on it
//! alone; `faultline-diagnose` re-exports it as `faultline_diagnose::result`.

use faultline_exec::trace::Scope;
use faultline_ir::{Jump, Program, StmtId};
use std::time::Duration;

/// The value an angelic (relaxed) statement instance takes in a diagnosis.
#[derive(Clone, Debug, PartialEq)]
pub enum AngelicValue {
    /// A store or return value: what it would need to be, and what the
    /// statement computes at that point.
    Value { needed: String, computed: String },
    /// Argument `index` (its position, from 0) of a call in the statement
    /// whose arguments are relaxable: what it would need to be, and what the
    /// statement passes.
    Argument {
        index: u32,
        needed: String,
        computed: String,
    },
    /// A condition's outcome.
    Branch { needed: bool, computed: bool },
    /// What an output statement would need to print.
    Output { text: String },
    /// Where a `break` or `continue` would need to go, and its own jump.
    Jump { needed: Jump, computed: Jump },
}

/// One relaxed statement instance of a diagnosis on one test.
#[derive(Clone, Debug, PartialEq)]
pub struct Angelic {
    /// Index of the test in the suite.
    pub test: usize,
    pub stmt: StmtId,
    /// Where the instance is: its loop iterations and call sites.
    pub ctx: Vec<Scope>,
    pub value: AngelicValue,
}

/// A set of statements whose relaxation explains every failing test considered.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnosis {
    /// The statements, in source order.
    pub stmts: Vec<StmtId>,
    /// Cardinality, or total weight when enumerating by weight.
    pub cost: u64,
    /// For `per-test` combination, the test this diagnosis explains.
    pub test: Option<usize>,
    pub angelic: Vec<Angelic>,
    /// Whether re-executing the test(s) with the angelic values made them
    /// pass (`None`: not checked by this method).
    pub verified: Option<bool>,
    /// The failing tests the diagnosis was not decided on within the limits
    /// (empty: it explains every failing test considered). An *unconfirmed*
    /// diagnosis explains all the others (at least twice as many); it is
    /// reported after every confirmed one (`mbd`, see docs/how-it-works.md).
    pub undecided: Vec<usize>,
}

/// A statement in the ranking, with what put it there.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranked {
    pub stmt: StmtId,
    /// A score, higher is more suspicious (method-specific; see docs).
    pub score: f64,
}

/// Why the search stopped before completing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Incomplete {
    Timeout,
    MaxDiagnoses,
    Memory,
    Solver(String),
    /// The solver's effort limit (`--effort`) was reached: this many
    /// statements were left undecided by their single-statement checks (and
    /// excluded from the search), or the search for larger diagnoses stopped
    /// at a query that reached it.
    Effort(usize),
    /// This many statements were left undecided because their
    /// single-statement check's formula could not be encoded on some test
    /// (a construct the encoder refuses once their values are unknown; the
    /// notes say which).
    Unencoded(usize),
}

/// The kind of an [`Incomplete`], for tools (`incomplete_kind` in the JSON
/// report): what `bench` tabulates, independent of the message's wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IncompleteKind {
    Timeout,
    MaxDiagnoses,
    Memory,
    Solver,
    Effort,
    Unencoded,
}

impl Incomplete {
    pub fn kind(&self) -> IncompleteKind {
        match self {
            Incomplete::Timeout => IncompleteKind::Timeout,
            Incomplete::MaxDiagnoses => IncompleteKind::MaxDiagnoses,
            Incomplete::Memory => IncompleteKind::Memory,
            Incomplete::Solver(_) => IncompleteKind::Solver,
            Incomplete::Effort(_) => IncompleteKind::Effort,
            Incomplete::Unencoded(_) => IncompleteKind::Unencoded,
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Incomplete::Timeout => "the time limit was reached".into(),
            Incomplete::MaxDiagnoses => "the maximum number of diagnoses was reached".into(),
            Incomplete::Memory => "the memory limit was reached".into(),
            Incomplete::Solver(m) => format!("the solver gave up: {m}"),
            Incomplete::Effort(0) => {
                "the solver's effort limit stopped the search for larger diagnoses (--effort 0 removes the limit)".into()
            }
            Incomplete::Effort(1) => {
                "the solver's effort limit left 1 statement undecided (--effort 0 removes the limit)".into()
            }
            Incomplete::Effort(n) => format!(
                "the solver's effort limit left {n} statements undecided (--effort 0 removes the limit)"
            ),
            Incomplete::Unencoded(1) => {
                "1 statement left undecided: its check's formula could not be encoded (see the notes)".into()
            }
            Incomplete::Unencoded(n) => format!(
                "{n} statements left undecided: their checks' formulas could not be encoded (see the notes)"
            ),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stats {
    pub solver_calls: u64,
    pub tests_encoded: usize,
    pub statement_instances: usize,
    pub iterations: usize,
    /// Failing tests whose MCSes were confirmed from a test on the same
    /// path instead of enumerated (`faultline_diagnose::share`).
    pub tests_reused: usize,
    /// Single-statement checks made by a helper engine on a second thread
    /// (`--threads 2`).
    pub helper_checks: usize,
    pub run_time: Duration,
    pub encode_time: Duration,
    pub solve_time: Duration,
    pub total_time: Duration,
}

/// How a failing test's reason starts when its output differs from the
/// expected one only in whitespace (spaces, tabs, newlines): what a person
/// should know first (`--ignore-whitespace` passes it).
pub const WHITESPACE_ONLY: &str = "output differs only in whitespace";

/// A test's verdict as the localization saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct TestVerdict {
    pub name: String,
    pub passed: bool,
    pub reason: Option<String>,
    /// A failure whose output differs from the expected one only in
    /// whitespace (its reason then starts with [`WHITESPACE_ONLY`]).
    pub whitespace_only: bool,
}

/// The result of a localization.
#[derive(Clone, Debug, PartialEq)]
pub struct Localization {
    pub method: String,
    pub tests: Vec<TestVerdict>,
    /// Indices of the failing tests.
    pub failing: Vec<usize>,
    /// Failing tests that could not be encoded, with why.
    pub skipped: Vec<(usize, String)>,
    pub diagnoses: Vec<Diagnosis>,
    pub ranking: Vec<Ranked>,
    pub incomplete: Option<Incomplete>,
    pub notes: Vec<String>,
    pub stats: Stats,
}

impl Localization {
    /// Whether the result is a part of what the method would report: a
    /// limit stopped the search (other than the maximum number of
    /// diagnoses, which the user asked for), or failing tests could not be
    /// encoded and were not used.
    pub fn is_partial(&self) -> bool {
        !self.skipped.is_empty()
            || self
                .incomplete
                .as_ref()
                .is_some_and(|i| *i != Incomplete::MaxDiagnoses)
    }

    /// The failing tests used (not skipped), in suite order.
    pub fn used_failing(&self) -> Vec<usize> {
        self.failing
            .iter()
            .copied()
            .filter(|t| !self.skipped.iter().any(|(s, _)| s == t))
            .collect()
    }

    /// The rank (1-based) of the first statement on one of `lines` in the ranking.
    pub fn rank_of_lines(&self, prog: &Program, lines: &[u32]) -> Option<usize> {
        self.ranking
            .iter()
            .position(|r| lines.contains(&prog.stmt(r.stmt).loc.line))
            .map(|i| i + 1)
    }
}

/// Formats a scope chain for people: `iteration 2 of line 12, call at line 30`.
pub fn describe_ctx(prog: &Program, ctx: &[Scope]) -> String {
    let parts: Vec<String> = ctx
        .iter()
        .map(|s| match s {
            Scope::Iter(l, k) if l.0 != u32::MAX => {
                format!(
                    "iteration {} of the loop at line {}",
                    k + 1,
                    prog.stmt(*l).loc.line
                )
            }
            Scope::Iter(_, k) => format!("iteration {}", k + 1),
            Scope::Call(site) => {
                let cs = &prog.call_sites[site.index()];
                format!(
                    "in {} called at line {}",
                    prog.func(cs.func).name,
                    prog.stmt(cs.stmt).loc.line
                )
            }
        })
        .collect();
    parts.join(", ")
}
