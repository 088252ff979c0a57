//! `setcombine`: pick one MCS per test, take the union; drop duplicates and
//! supersets as the product is folded, and unions above the size bound
//! (SNIPER).

use super::per_test::test_mcses;
use super::{Combination, Found, TestMcs};
use crate::engine::{Check, Engine, Verdict};
use crate::share::PathMemo;
use faultline_ir::StmtId;
use std::collections::BTreeSet;

/// Most sets kept while folding `setcombine`'s product.
const COMBINE_CAP: usize = 10_000;

/// The `setcombine` combination.
pub struct SetCombine;

impl Combination for SetCombine {
    fn combine(&mut self, engine: &mut Engine) -> Found {
        let mut acc: Vec<BTreeSet<StmtId>> = vec![BTreeSet::new()];
        let mut incomplete = None;
        let mut memo = PathMemo::default();
        for &t in &engine.session().failing {
            if let Some(inc) = engine.limit_hit() {
                incomplete = Some(inc);
                break;
            }
            let list = match test_mcses(engine, t, &mut memo) {
                Ok(l) => l,
                Err(inc) => {
                    incomplete = Some(inc);
                    break;
                }
            };
            if list.is_empty() {
                continue;
            }
            acc = fold(engine, &acc, &list);
        }
        let mut diagnoses = Vec::new();
        let failing = &engine.session().failing;
        for d in acc
            .into_iter()
            .filter(|d| !d.is_empty())
            .take(engine.options().max_diagnoses)
        {
            let angelic = match engine.explain_each(failing, &d, Check::Own) {
                Ok(Verdict::Explained(a)) => a,
                Ok(_) => Vec::new(),
                Err(inc) => {
                    incomplete = incomplete.or(Some(inc));
                    Vec::new()
                }
            };
            let cost = d.iter().map(|s| engine.weight(*s)).sum();
            let m = TestMcs {
                stmts: d,
                cost,
                angelic,
                verified: None,
            };
            diagnoses.push(m.diagnosis(None));
            engine.found(&diagnoses);
        }
        Found {
            diagnoses,
            incomplete,
        }
    }
}

/// The minimal unions (within the size bound) of a set of `acc` with an MCS
/// of `list`, smallest first.
fn fold(engine: &mut Engine, acc: &[BTreeSet<StmtId>], list: &[TestMcs]) -> Vec<BTreeSet<StmtId>> {
    let max_size = engine.options().max_size;
    let mut next: Vec<BTreeSet<StmtId>> = Vec::new();
    for a in acc {
        for m in list {
            let u: BTreeSet<StmtId> = a.union(&m.stmts).copied().collect();
            if u.len() <= max_size {
                next.push(u);
            }
        }
    }
    next.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    next.dedup();
    let mut minimal: Vec<BTreeSet<StmtId>> = Vec::new();
    for s in next {
        if !minimal.iter().any(|m| m.is_subset(&s)) {
            minimal.push(s);
        }
    }
    if minimal.len() > COMBINE_CAP {
        minimal.truncate(COMBINE_CAP);
        engine.note(format!(
            "setcombine kept the {COMBINE_CAP} smallest combinations"
        ));
    }
    minimal
}
