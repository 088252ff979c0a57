//! Ways of combining the failing tests, behind one interface
//! ([`Combination`]): each asks the engine for formulas and solver calls and
//! returns the diagnoses in report order.
//!
//! - [`mbd`]: one formula over all failing tests (CFaults), added lazily,
//!   over exact or on-demand test formulas ([`mbd::TestSource`]);
//! - [`setcombine`]: per-test MCSes combined by union (SNIPER);
//! - [`per_test`]: each failing test's MCSes, unmerged (BugAssist).

pub mod mbd;
pub mod per_test;
pub mod setcombine;

use crate::engine::Engine;
use crate::result::{Angelic, Diagnosis, Incomplete};
use faultline_ir::StmtId;
use std::collections::BTreeSet;
use std::str::FromStr;

/// How the failing tests are combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Combine {
    /// One formula over all failing tests sharing the relaxation variables:
    /// subset-minimal diagnoses consistent with every failing test (CFaults).
    #[cfg_attr(
        feature = "clap",
        value(
            help = "One formula over all failing tests: diagnoses consistent with every failing test"
        )
    )]
    Mbd,
    /// MCSes per test, combined by picking one per test and taking the union,
    /// removing duplicates and supersets (SNIPER).
    #[cfg_attr(
        feature = "clap",
        value(
            name = "setcombine",
            help = "Per-test MCSes combined by union (SNIPER)"
        )
    )]
    SetCombine,
    /// Each failing test's MCSes, unmerged.
    #[cfg_attr(feature = "clap", value(help = "Each failing test's MCSes, unmerged"))]
    PerTest,
}

impl Combine {
    /// Every combination.
    pub const ALL: [Combine; 3] = [Combine::Mbd, Combine::SetCombine, Combine::PerTest];

    /// The combination's name: `mbd`, `setcombine`, `per-test`.
    pub fn name(self) -> &'static str {
        match self {
            Combine::Mbd => "mbd",
            Combine::SetCombine => "setcombine",
            Combine::PerTest => "per-test",
        }
    }
}

impl FromStr for Combine {
    type Err = String;
    fn from_str(s: &str) -> Result<Combine, String> {
        Combine::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                format!("unknown combination '{s}' (expected one of: mbd, setcombine, per-test)")
            })
    }
}

/// What a combination found: diagnoses in report order, and why the search
/// stopped early (`None`: complete).
#[derive(Clone, Debug, Default)]
pub struct Found {
    pub diagnoses: Vec<Diagnosis>,
    pub incomplete: Option<Incomplete>,
}

/// A way of combining the failing tests.
pub trait Combination {
    /// Localizes the engine's failing tests.
    fn combine(&mut self, engine: &mut Engine) -> Found;
}

/// One MCS of one test: statements, cost, angelic values, and whether
/// re-executing the test with them made it pass (`None`: not checked).
#[derive(Clone, Debug, PartialEq)]
pub struct TestMcs {
    pub stmts: BTreeSet<StmtId>,
    pub cost: u64,
    pub angelic: Vec<Angelic>,
    pub verified: Option<bool>,
}

impl TestMcs {
    /// The diagnosis of test `test` (`None`: of every failing test).
    pub fn diagnosis(self, test: Option<usize>) -> Diagnosis {
        Diagnosis {
            stmts: self.stmts.into_iter().collect(),
            cost: self.cost,
            test,
            angelic: self.angelic,
            verified: self.verified,
            undecided: Vec::new(),
        }
    }
}
