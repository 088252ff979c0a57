//! OFC: on-demand formula computation (Jin and Orso, "Improving Efficiency
//! and Scalability of Formula-based Debugging").
//!
//! Per failing test, the formula starts from what the failing run executed:
//! the outcomes it took are encoded, the branches it did not take are black
//! boxes (their effects unconstrained; see `faultline_smt::summary`). All
//! MCSes are enumerated. An MCS whose every model enters a black box may owe
//! its existence to the abstraction: the black boxes its model enters are
//! expanded by re-executing the test forced down them after the same prefix
//! (execution hijacking), the newly reached code is encoded, and enumeration
//! starts again. When no MCS needs a black box, the MCSes are those of the
//! `full` formula:
//!
//! - *sound*: an MCS with a model outside every black box is a correction set
//!   of the full formula (the model is an execution of the bounded program),
//!   and it is minimal there because the abstract formula over-approximates
//!   the program (any correction set of the full formula is one of the
//!   abstract formula, so a smaller one would have been found first);
//! - *complete*: every MCS of the full formula is a correction set of the
//!   abstract formula, hence contains one of its MCSes, which is real, hence
//!   equal to it.
//!
//! This refines the paper's rule ("expand the conditions in an MCS with an
//! unexplored branch"), which it subsumes: a relaxed condition taking an
//! unexplored branch enters its black box.

use crate::angelic::angelic_values;
use crate::combine::mbd::Mbd;
use crate::combine::Combine;
use crate::combine::{Combination, TestMcs};
use crate::engine::{Engine, POLISHED};
use crate::explore::{CondInst, Explored};
use crate::ondemand::{each_test, ExploredFormula, OnDemand, Searched, TestSearch};
use crate::options::Options;
use crate::ranking::{merge_rankings, rank_by_diagnoses, weighted_ranking};
use crate::result::{Incomplete, Localization};
use crate::session::Session;
use crate::weights::{clause_weights, Formula};
use crate::witness::Witness;
use faultline_ir::{Branch, StmtId};
use faultline_smt::Encoding;
use std::collections::BTreeSet;
use std::time::Instant;

/// OFC's formulas: explored outcomes of the `full` formula, the others
/// black boxes.
const ENCODING: Encoding = Encoding::Full;

/// Runs OFC with optional clause weights from a suspiciousness `formula`:
/// per failing test, merged by the paper's rule (`combine` other than
/// `mbd`), or `mbd` over the tests' on-demand formulas.
pub fn run(
    session: &Session,
    formula: Option<Formula>,
    combine: Combine,
    options: &Options,
    name: String,
) -> Localization {
    if combine == Combine::Mbd {
        let weights = formula.map(|f| clause_weights(session, f, options.spectrum));
        let start = Instant::now();
        let mut engine = Engine::new(session, options.clone(), ENCODING).weighted(weights);
        let found = Mbd::over(OnDemand::default()).combine(&mut engine);
        let ranking = if formula.is_some() {
            weighted_ranking(&found.diagnoses)
        } else {
            rank_by_diagnoses(&found.diagnoses)
        };
        return engine.into_localization(name, found.diagnoses, ranking, found.incomplete, start);
    }
    let start = Instant::now();
    let weights = formula.map(|f| clause_weights(session, f, options.spectrum));
    let mut engine = Engine::new(session, options.clone(), ENCODING).weighted(weights);
    let (found, per_test) = each_test(&mut engine, &mut Ofc);
    let ranking = merge_rankings(&per_test);
    engine.into_localization(name, found.diagnoses, ranking, found.incomplete, start)
}

/// OFC's search of one test, for [`each_test`].
struct Ofc;

impl TestSearch for Ofc {
    fn encoding(&self) -> Encoding {
        ENCODING
    }
    fn verifies(&self) -> bool {
        false
    }
    fn search(&mut self, engine: &mut Engine, t: usize, explored: Explored) -> Searched {
        let r = ofc_test(engine, t, explored);
        Searched {
            mcses: r.mcses,
            witnesses: r.witnesses,
            complete: r.complete,
            explored: r.explored,
            incomplete: r.incomplete,
        }
    }
}

/// One OFC iteration: the MCSes of the abstract formula, and what was expanded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Iteration {
    pub mcses: Vec<BTreeSet<StmtId>>,
    pub expanded: Vec<(CondInst, Branch)>,
}

/// OFC's result for one failing test.
#[derive(Clone, Debug, Default)]
pub struct TestResult {
    pub test: usize,
    /// Final MCSes, in enumeration order, with cost and angelic values.
    pub mcses: Vec<TestMcs>,
    /// The values of each final MCS's model (outside every black box), when
    /// path sharing is on (else empty).
    pub witnesses: Vec<Witness>,
    /// Whether `mcses` are all the test's MCSes within the size bound.
    pub complete: bool,
    pub iterations: Vec<Iteration>,
    pub explored: Explored,
    pub incomplete: Option<Incomplete>,
}

/// Most expansion rounds per test (each adds at least one explored outcome,
/// so this bounds a pathological program, not a normal one).
const MAX_ROUNDS: usize = 200;

/// Runs OFC on failing test `t`, starting from `explored`.
pub fn ofc_test(engine: &mut Engine, t: usize, mut explored: Explored) -> TestResult {
    let mut res = TestResult {
        test: t,
        ..TestResult::default()
    };
    let session = engine.session();
    for _ in 0..MAX_ROUNDS {
        if let Some(inc) = engine.limit_hit() {
            res.incomplete = Some(inc);
            break;
        }
        let Some(mut f) = ExploredFormula::new(engine, t, &explored, ENCODING) else {
            break;
        };
        let mut iteration = Iteration::default();
        let mut found = Vec::new();
        let mut witnesses = Vec::new();
        let mut expand: Vec<(CondInst, Branch)> = Vec::new();
        loop {
            let mcs = match f.next(engine) {
                Ok(Some(m)) => m,
                Ok(None) => break,
                Err(inc) => {
                    res.incomplete = Some(inc);
                    break;
                }
            };
            let d = f.softs.to_stmts(&mcs.members);
            iteration.mcses.push(d.clone());
            let entered = f.entered(&mcs.model);
            let mut model = mcs.model;
            if !entered.is_empty() {
                // Is there a model of this MCS outside every black box?
                match f.model_outside_boxes(engine, &d) {
                    Some(m) => model = m,
                    None => {
                        for item in entered {
                            if !expand.contains(&item) {
                                expand.push(item);
                            }
                        }
                    }
                }
            }
            // Polished values only matter in the final round: once a box is
            // to be expanded, this round's diagnoses are recomputed.
            if found.len() < POLISHED && expand.is_empty() {
                model = f.polish(engine, &d, model);
            }
            let angelic = angelic_values(session, t, &f.enc, &model, &d);
            // Kept for tests on the same path (only a final round's count).
            if engine.options().share_paths && expand.is_empty() {
                witnesses.push(Witness::from_model(
                    &f.enc,
                    &model,
                    &d,
                    &session.formula_test(t).expected_stdout,
                ));
            }
            found.push(TestMcs {
                stmts: d,
                cost: mcs.cost,
                angelic,
                verified: None,
            });
            f.en.block(&f.solver, &mcs.members);
            if found.len() >= engine.options().max_diagnoses {
                break;
            }
        }
        engine.count_solver_calls(f.en.solver_calls());
        let progress = explored.expand(
            engine.exe(),
            &session.tests[t],
            &expand,
            session.replay_limits(),
        );
        iteration.expanded = expand.clone();
        res.iterations.push(iteration);
        if expand.is_empty() || !progress || res.incomplete.is_some() {
            res.complete = expand.is_empty()
                && res.incomplete.is_none()
                && found.len() < engine.options().max_diagnoses;
            res.mcses = found;
            res.witnesses = witnesses;
            break;
        }
    }
    engine.count_iterations(res.iterations.len());
    res.explored = explored;
    res
}
