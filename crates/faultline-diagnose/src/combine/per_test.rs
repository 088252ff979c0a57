//! `per-test`: every failing test's MCSes on its own formula, unmerged
//! (BugAssist). A test on the path of one already enumerated is answered by
//! confirming that test's list ([`crate::share`]).

use super::{Combination, Found, TestMcs};
use crate::angelic::angelic_values;
use crate::engine::{Engine, POLISHED};
use crate::formula::TestFormula;
use crate::result::Incomplete;
use crate::share::{CheckFormula, Known, PathMemo};
use crate::witness::Witness;
use faultline_smt::RelaxedInstance;
use z3::ast::Bool;

/// The `per-test` combination.
pub struct PerTest;

impl Combination for PerTest {
    fn combine(&mut self, engine: &mut Engine) -> Found {
        let mut found = Found::default();
        let mut memo = PathMemo::default();
        for &t in &engine.session().failing {
            if let Some(inc) = engine.limit_hit() {
                found.incomplete = Some(inc);
                return found;
            }
            match test_mcses(engine, t, &mut memo) {
                Ok(list) => {
                    for m in list {
                        found.diagnoses.push(m.diagnosis(Some(t)));
                    }
                    engine.found(&found.diagnoses);
                }
                Err(inc) => {
                    found.incomplete = Some(inc);
                    return found;
                }
            }
        }
        found
    }
}

/// Enumerates one test's MCSes on its own formula, or confirms those of a
/// test on the same path ([`crate::share`]).
pub fn test_mcses(
    engine: &mut Engine,
    t: usize,
    memo: &mut PathMemo,
) -> Result<Vec<TestMcs>, Incomplete> {
    let sig = engine.path(t).filter(|_| engine.options().share_paths);
    let candidate = sig.and_then(|g| memo.candidate(engine, t, g));
    let Some(mut f) = TestFormula::new(engine, t) else {
        return Ok(Vec::new());
    };
    if let Some(list) = candidate {
        let check = CheckFormula {
            solver: &f.solver,
            en: &mut f.en,
            softs: &f.softs,
        };
        if let Some(list) = memo.confirm(engine, check, list)? {
            return Ok(list
                .into_iter()
                .map(|r| TestMcs {
                    stmts: r.stmts,
                    cost: r.cost,
                    angelic: r.angelic,
                    verified: None,
                })
                .collect());
        }
        match TestFormula::new(engine, t) {
            Some(fresh) => f = fresh,
            None => return Ok(Vec::new()),
        }
    }
    let result = enumerate(engine, t, &mut f, sig.is_some());
    engine.count_solver_calls(f.en.solver_calls());
    let (out, known) = result?;
    if let (Some(g), Some(known)) = (sig, known) {
        memo.remember(g, known);
    }
    Ok(out)
}

/// Test `t`'s MCSes on its formula `f`, in enumeration order; with
/// `keep_witnesses`, the complete list with witnesses for tests on the same
/// path (`None` if the enumeration stopped at the maximum count).
fn enumerate(
    engine: &mut Engine,
    t: usize,
    f: &mut TestFormula,
    keep_witnesses: bool,
) -> Result<(Vec<TestMcs>, Option<Vec<Known>>), Incomplete> {
    let session = engine.session();
    let expected = &session.formula_test(t).expected_stdout;
    let mut out = Vec::new();
    let mut known = Vec::new();
    while let Some(m) = engine.next_mcs(&mut f.en, &f.solver)? {
        let d = f.softs.to_stmts(&m.members);
        let mut model = m.model;
        if out.len() < POLISHED {
            let insts: Vec<&RelaxedInstance> = f.enc.relaxed.iter().collect();
            let base: Vec<Bool> = f.ab.relaxing_exactly(&d);
            if let Some(better) = engine.polish(&f.solver, &base, &insts, &d, &model) {
                model = better;
            }
        }
        let angelic = angelic_values(session, t, &f.enc, &model, &d);
        if keep_witnesses {
            known.push(Known {
                stmts: d.clone(),
                cost: m.cost,
                witness: Witness::from_model(&f.enc, &model, &d, expected),
            });
        }
        f.en.block(&f.solver, &m.members);
        out.push(TestMcs {
            stmts: d,
            cost: m.cost,
            angelic,
            verified: None,
        });
        if out.len() >= engine.options().max_diagnoses {
            return Ok((out, None));
        }
    }
    Ok((out, keep_witnesses.then_some(known)))
}
