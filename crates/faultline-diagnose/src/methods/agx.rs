//! AgxFaults: incremental angelic fix localization (Phung and Lee,
//! "Incremental Formula-Based Fix Localization").
//!
//! Per failing test, one MCS at a time. The formula starts from what the
//! failing run executed (the *angelic program*: explored outcomes encoded in
//! SNIPER's flow-sensitive form, unexplored branches as black boxes). For the
//! cheapest MCS not yet reported, its model gives an *angelic path*. If that
//! path enters a branch no run has taken, the test is re-executed with the
//! MCS's angelic values substituted at its statements (a *perturbation*); the
//! run follows the angelic values into the new branch, whatever it executes is
//! encoded, and the same question is asked again without blocking. Otherwise
//! the MCS is a *feasible* fix candidate: it is reported with its angelic
//! values and path, and blocked. Every reported candidate is re-executed with
//! its angelic values, and whether that makes the failing test pass is
//! reported (`Diagnosis::verified`).
//!
//! When a perturbed run explores nothing new (its values diverge from the
//! model's path before the black box), the black boxes the model enters are
//! expanded by execution hijacking, as in OFC, so the search always makes
//! progress.

use crate::angelic::angelic_values;
use crate::combine::TestMcs;
use crate::engine::{Engine, POLISHED};
use crate::explore::{CondInst, Explored};
use crate::ondemand::{each_test, ExploredFormula, Searched, TestSearch};
use crate::options::Options;
use crate::ranking::merge_rankings;
use crate::result::{Incomplete, Localization};
use crate::session::Session;
use crate::weights::{clause_weights, Formula};
use crate::witness::Witness;
use faultline_exec::ExecOptions;
use faultline_ir::{Branch, StmtId};
use faultline_smt::Encoding;
use std::collections::BTreeSet;
use std::time::Instant;

/// AgxFaults' formulas: SNIPER's flow-sensitive form over explored outcomes.
const ENCODING: Encoding = Encoding::Flow;

/// Runs AgxFaults on every failing test, with optional clause weights from a
/// suspiciousness `formula`, and merges the reports by the OFC paper's rule.
pub fn run(
    session: &Session,
    formula: Option<Formula>,
    options: &Options,
    name: String,
) -> Localization {
    let start = Instant::now();
    let weights = formula.map(|f| clause_weights(session, f, options.spectrum));
    // The engine's own formulas (replays) are the exact program's.
    let mut engine = Engine::new(session, options.clone(), Encoding::Full).weighted(weights);
    let (found, per_test) = each_test(&mut engine, &mut Agx);
    let ranking = merge_rankings(&per_test);
    engine.into_localization(name, found.diagnoses, ranking, found.incomplete, start)
}

/// AgxFaults' search of one test, for [`each_test`].
struct Agx;

impl TestSearch for Agx {
    fn encoding(&self) -> Encoding {
        ENCODING
    }
    fn verifies(&self) -> bool {
        true
    }
    fn search(&mut self, engine: &mut Engine, t: usize, explored: Explored) -> Searched {
        let r = agx_test(engine, t, explored);
        Searched {
            mcses: r.candidates,
            witnesses: r.witnesses,
            complete: r.complete,
            explored: r.explored,
            incomplete: r.incomplete,
        }
    }
}

#[derive(Clone, Debug, Default)]
pub struct TestResult {
    pub test: usize,
    /// Fix candidates, each verified by re-execution or not.
    pub candidates: Vec<TestMcs>,
    /// The values each candidate was re-executed with.
    pub witnesses: Vec<Witness>,
    /// Whether `candidates` are all the test's MCSes within the size bound,
    /// each confirmed by re-execution.
    pub complete: bool,
    pub explored: Explored,
    /// Perturbed re-executions and hijacked expansions.
    pub perturbations: usize,
    pub incomplete: Option<Incomplete>,
}

const MAX_STEPS: usize = 400;

pub fn agx_test(engine: &mut Engine, t: usize, mut explored: Explored) -> TestResult {
    let session = engine.session();
    let mut res = TestResult {
        test: t,
        ..TestResult::default()
    };
    let mut reported: Vec<BTreeSet<StmtId>> = Vec::new();
    'outer: for _ in 0..MAX_STEPS {
        if let Some(inc) = engine.limit_hit() {
            res.incomplete = Some(inc);
            break;
        }
        let Some(mut f) = ExploredFormula::new(engine, t, &explored, ENCODING) else {
            break;
        };
        // The explored set only grew: every reported statement is still soft.
        for r in &reported {
            if let Some(members) = f.softs.members(r) {
                f.en.block(&f.solver, &members);
            }
        }
        loop {
            if reported.len() >= engine.options().max_diagnoses {
                break 'outer;
            }
            let mcs = match f.next(engine) {
                Ok(Some(m)) => m,
                Ok(None) => {
                    engine.count_solver_calls(f.en.solver_calls());
                    res.complete = res.candidates.iter().all(|c| c.verified == Some(true));
                    break 'outer;
                }
                Err(inc) => {
                    engine.count_solver_calls(f.en.solver_calls());
                    res.incomplete = Some(inc);
                    break 'outer;
                }
            };
            let d = f.softs.to_stmts(&mcs.members);
            let entered = f.entered(&mcs.model);
            let mut model = mcs.model;
            if !entered.is_empty() {
                match f.model_outside_boxes(engine, &d) {
                    Some(m) => model = m,
                    None => {
                        // The angelic path needs unexplored code: perturb.
                        res.perturbations += 1;
                        let w = Witness::from_model(
                            &f.enc,
                            &model,
                            &d,
                            &session.formula_test(t).expected_stdout,
                        );
                        let progress = perturb(engine, t, &w, &mut explored)
                            || explored.expand(
                                engine.exe(),
                                &session.tests[t],
                                &entered,
                                session.replay_limits(),
                            );
                        engine.count_solver_calls(f.en.solver_calls());
                        if !progress {
                            // Nothing left to explore: report it unconfirmed.
                            let angelic = angelic_values(session, t, &f.enc, &model, &d);
                            res.candidates.push(TestMcs {
                                stmts: d.clone(),
                                cost: mcs.cost,
                                angelic,
                                verified: Some(false),
                            });
                            res.witnesses.push(w);
                            reported.push(d);
                        }
                        continue 'outer;
                    }
                }
            }
            // A feasible candidate: readable values, then confirm by re-execution.
            if res.candidates.len() < POLISHED {
                model = f.polish(engine, &d, model);
            }
            let w =
                Witness::from_model(&f.enc, &model, &d, &session.formula_test(t).expected_stdout);
            let replay = engine.replay(t, &w);
            let angelic = if replay.explains {
                replay.angelic
            } else {
                angelic_values(session, t, &f.enc, &model, &d)
            };
            res.candidates.push(TestMcs {
                stmts: d.clone(),
                cost: mcs.cost,
                angelic,
                verified: Some(replay.explains),
            });
            res.witnesses.push(w);
            f.en.block(&f.solver, &mcs.members);
            reported.push(d);
        }
    }
    res.explored = explored;
    res
}

/// Re-executes the test with the witness's angelic values and adds what the
/// run explores; returns whether it explored something new.
fn perturb(engine: &mut Engine, t: usize, w: &Witness, explored: &mut Explored) -> bool {
    let session = engine.session();
    let test = &session.tests[t];
    let mut hooks = crate::witness::Applier::new(w, t);
    let run = engine.exe().run(
        test.input(),
        ExecOptions {
            record_trace: true,
            limits: session.replay_limits(),
            hooks: Some(&mut hooks),
        },
    );
    match &run.trace {
        Some(tr) => {
            // Forcing all of the run's decisions retraces its path without the values.
            let forced: Vec<(CondInst, Branch)> = tr
                .decisions()
                .map(|(i, b)| ((i.stmt, tr.contexts.chain(i.ctx)), b))
                .collect();
            explored.add(tr, &forced)
        }
        None => false,
    }
}
