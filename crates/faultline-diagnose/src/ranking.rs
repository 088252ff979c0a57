//! Rankings: the order in which a person should inspect statements.
//!
//! - formula methods: statements in order of their first appearance in the
//!   diagnoses, which come by cost (size, or weight with CW) and then member
//!   list ([`rank_by_diagnoses`]; with clause weights, [`weighted_ranking`]);
//! - per-test methods (`ofc`, `ofc+cw`, `agx`, `per-test`): each test ranks its
//!   statements that way ([`rank_statements`]); the merged ranking puts first
//!   the statements in every failing test's report, then those in fewer, and
//!   orders statements with the same count by their average rank over the
//!   tests that report them (the OFC paper's rule for several failing tests;
//!   [`merge_rankings`]).

use crate::result::{Diagnosis, Localization, Ranked};
use faultline_ir::StmtId;
use std::collections::{BTreeMap, BTreeSet};

/// Statements in order of their first diagnosis (diagnoses are in cost order).
pub fn rank_by_diagnoses(diagnoses: &[Diagnosis]) -> Vec<Ranked> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for (i, d) in diagnoses.iter().enumerate() {
        for s in &d.stmts {
            if seen.insert(*s) {
                out.push(Ranked {
                    stmt: *s,
                    score: 1.0 / (i as f64 + 1.0),
                });
            }
        }
    }
    out
}

/// The ranking of a combined localization with clause weighting: statements
/// in order of first appearance in its diagnoses by size, then weight.
pub fn weighted_ranking(diagnoses: &[Diagnosis]) -> Vec<Ranked> {
    rank_statements(diagnoses)
        .into_iter()
        .enumerate()
        .map(|(i, s)| Ranked {
            stmt: s,
            score: 1.0 / (i as f64 + 1.0),
        })
        .collect()
}

/// One test's ranking: its diagnoses by size, then cost (weight with clause
/// weighting), then enumeration order, unconfirmed ones last; statements in
/// order of first appearance.
pub fn rank_statements(diagnoses: &[Diagnosis]) -> Vec<StmtId> {
    let mut order: Vec<&Diagnosis> = diagnoses.iter().collect();
    order.sort_by_key(|d| (d.undecided.len(), d.stmts.len(), d.cost));
    let mut r = Vec::new();
    for d in order {
        for s in &d.stmts {
            if !r.contains(s) {
                r.push(*s);
            }
        }
    }
    r
}

/// Merges per-test rankings: statements in more tests' reports first, then
/// by average rank over the tests that report them, then by statement id.
pub fn merge_rankings(per_test: &[Vec<StmtId>]) -> Vec<Ranked> {
    let mut seen: BTreeMap<StmtId, (usize, f64)> = BTreeMap::new();
    for r in per_test {
        for (i, s) in r.iter().enumerate() {
            let e = seen.entry(*s).or_insert((0, 0.0));
            e.0 += 1;
            e.1 += (i + 1) as f64;
        }
    }
    let mut v: Vec<(StmtId, usize, f64)> = seen
        .into_iter()
        .map(|(s, (n, sum))| (s, n, sum / n as f64))
        .collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.total_cmp(&b.2)).then(a.0.cmp(&b.0)));
    let tests = per_test.len().max(1) as f64;
    v.into_iter()
        .map(|(s, n, avg)| Ranked {
            stmt: s,
            score: n as f64 / tests / avg,
        })
        .collect()
}

/// Each failing test's ranking from a per-test localization (statements in
/// order of first appearance in that test's diagnoses).
pub fn per_test_rankings(loc: &Localization) -> Vec<Vec<StmtId>> {
    loc.failing
        .iter()
        .map(|&t| {
            let ds: Vec<Diagnosis> = loc
                .diagnoses
                .iter()
                .filter(|d| d.test == Some(t))
                .cloned()
                .collect();
            rank_statements(&ds)
        })
        .collect()
}

/// The statements of the diagnoses of one test, as sets (for comparisons).
pub fn per_test_sets(loc: &Localization, t: usize) -> BTreeSet<BTreeSet<StmtId>> {
    loc.diagnoses
        .iter()
        .filter(|d| d.test == Some(t))
        .map(|d| d.stmts.iter().copied().collect())
        .collect()
}
