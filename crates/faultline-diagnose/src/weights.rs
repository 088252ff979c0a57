//! Clause weighting (CW): suspiciousness from coverage, as soft-clause weights.
//!
//! From the coverage of every passing and failing test, each statement gets a
//! suspiciousness (Ochiai by default:
//! `failed(s) / sqrt(total_failed × (failed(s) + passed(s)))`). Its soft
//! clause weighs `round(SCALE / susp)`: suspicious statements are cheap to
//! relax, so MCSes enumerated by increasing total weight come in order of
//! suspiciousness. Statements no failing test covers (susp = 0) weigh
//! [`MAX_WEIGHT`]. Weights are integers in `[SCALE, MAX_WEIGHT]` (Z3's
//! pseudo-Boolean constraints take 32-bit coefficients).
//!
//! Coverage is counted by [`Spectrum`]: by default a run covers a statement
//! when the statement executed *and what it computed was used* (it decided a
//! branch, returned, printed, or stored a value read afterwards). Plain
//! statement coverage also counts runs in which a statement's result was
//! overwritten or never read: coincidental coverage, which makes statements
//! executed by every test (initialization code) look innocent however wrong
//! they are. `Spectrum::Statement` selects plain coverage.

use crate::session::Session;
use faultline_ir::StmtId;
use std::collections::HashMap;

/// Weight of a statement with suspiciousness 1.
pub const SCALE: f64 = 100.0;
/// Weight of a statement no failing test covers.
pub const MAX_WEIGHT: u64 = 10_000;

/// What counts as a run covering a statement.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Spectrum {
    /// The statement executed.
    #[cfg_attr(feature = "clap", value(help = "The statement executed"))]
    Statement,
    /// The statement executed and its result was used (see the module docs).
    #[default]
    #[cfg_attr(
        feature = "clap",
        value(
            help = "The statement executed and its result was used (read, printed, branched on)"
        )
    )]
    Use,
}

impl Spectrum {
    /// Every spectrum.
    pub const ALL: [Spectrum; 2] = [Spectrum::Statement, Spectrum::Use];

    /// The spectrum's name: `statement`, `use`.
    pub fn name(self) -> &'static str {
        match self {
            Spectrum::Statement => "statement",
            Spectrum::Use => "use",
        }
    }
}

impl std::str::FromStr for Spectrum {
    type Err = String;
    fn from_str(s: &str) -> Result<Spectrum, String> {
        Spectrum::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| format!("unknown spectrum '{s}' (expected one of: statement, use)"))
    }
}

/// Spectrum-based suspiciousness formulas.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Formula {
    Ochiai,
    Tarantula,
    /// DStar with exponent 2.
    DStar,
}

impl Formula {
    pub fn name(self) -> &'static str {
        match self {
            Formula::Ochiai => "ochiai",
            Formula::Tarantula => "tarantula",
            Formula::DStar => "dstar",
        }
    }

    /// Suspiciousness from the numbers of failing/passing tests covering a
    /// statement and the totals, in [0, 1] (DStar is normalized by its
    /// maximum over the program by the caller).
    pub fn score(self, failed: f64, passed: f64, total_failed: f64, total_passed: f64) -> f64 {
        if failed == 0.0 || total_failed == 0.0 {
            return 0.0;
        }
        match self {
            Formula::Ochiai => failed / (total_failed * (failed + passed)).sqrt(),
            Formula::Tarantula => {
                let f = failed / total_failed;
                let p = if total_passed > 0.0 {
                    passed / total_passed
                } else {
                    0.0
                };
                f / (f + p)
            }
            Formula::DStar => {
                let denom = passed + (total_failed - failed);
                if denom == 0.0 {
                    f64::INFINITY
                } else {
                    failed * failed / denom
                }
            }
        }
    }
}

/// Suspiciousness of every statement covered by some test.
pub fn suspiciousness(
    session: &Session,
    formula: Formula,
    spectrum: Spectrum,
) -> HashMap<StmtId, f64> {
    let n = session.prog.stmts.len();
    let mut failed = vec![0.0f64; n];
    let mut passed = vec![0.0f64; n];
    let (mut tf, mut tp) = (0.0, 0.0);
    for r in &session.runs {
        let cov = &r.execution.coverage;
        let fail = !r.passed();
        if fail {
            tf += 1.0;
        } else {
            tp += 1.0;
        }
        for i in 0..n.min(cov.stmts.len()) {
            let s = StmtId(i as u32);
            let hit = match spectrum {
                Spectrum::Statement => cov.covered(s),
                Spectrum::Use => cov.used(s),
            };
            if hit {
                if fail {
                    failed[i] += 1.0;
                } else {
                    passed[i] += 1.0;
                }
            }
        }
    }
    let mut out: HashMap<StmtId, f64> = (0..n)
        .filter(|&i| failed[i] + passed[i] > 0.0)
        .map(|i| {
            (
                StmtId(i as u32),
                formula.score(failed[i], passed[i], tf, tp),
            )
        })
        .collect();
    if formula == Formula::DStar {
        let finite_max = out
            .values()
            .copied()
            .filter(|v| v.is_finite())
            .fold(0.0f64, f64::max);
        let top = if finite_max > 0.0 { finite_max } else { 1.0 };
        for v in out.values_mut() {
            *v = if v.is_finite() { *v / (top * 2.0) } else { 1.0 };
        }
    }
    out
}

/// Clause weights from the suspiciousness `formula` gives each statement,
/// with coverage counted by `spectrum`.
pub fn clause_weights(
    session: &Session,
    formula: Formula,
    spectrum: Spectrum,
) -> HashMap<StmtId, u64> {
    let susp = suspiciousness(session, formula, spectrum);
    weights(&susp, session.prog.stmts.len())
}

/// Soft-clause weights from suspiciousness: `round(SCALE / susp)`, capped.
pub fn weights(susp: &HashMap<StmtId, f64>, n_stmts: usize) -> HashMap<StmtId, u64> {
    (0..n_stmts)
        .map(|i| {
            let s = StmtId(i as u32);
            let w = match susp.get(&s) {
                Some(&v) if v > 0.0 => ((SCALE / v).round() as u64).clamp(SCALE as u64, MAX_WEIGHT),
                _ => MAX_WEIGHT,
            };
            (s, w)
        })
        .collect()
}
