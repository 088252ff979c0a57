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

use crate::explore::{CondInst, Explored, ExploredPolicy};
use crate::localize::{angelic_values, Engine, Softs};
use crate::mcs::{McsEnumerator, Stop};
use crate::result::{Angelic, Incomplete};
use crate::witness::Witness;
use faultline_exec::{ExecOptions, Input};
use faultline_ir::{Branch, StmtId};
use faultline_smt::{AbVars, Sink};
use std::collections::BTreeSet;
use std::time::Instant;
use z3::ast::Bool;
use z3::SatResult;

/// A fix candidate: statements, cost, angelic values, verified by re-execution.
pub type Candidate = (BTreeSet<StmtId>, u64, Vec<Angelic>, Option<bool>);

#[derive(Clone, Debug, Default)]
pub struct TestResult {
    pub test: usize,
    pub candidates: Vec<Candidate>,
    pub explored: Explored,
    /// Perturbed re-executions and hijacked expansions.
    pub perturbations: usize,
    pub incomplete: Option<Incomplete>,
}

const MAX_STEPS: usize = 400;

pub fn agx_test(engine: &mut Engine, t: usize, mut explored: Explored) -> TestResult {
    let session = engine.session;
    let mut res = TestResult {
        test: t,
        ..TestResult::default()
    };
    let mut reported: Vec<BTreeSet<StmtId>> = Vec::new();
    let saved = engine.options.encoding;
    engine.options.encoding = faultline_smt::Encoding::Flow;
    'outer: for _ in 0..MAX_STEPS {
        if let Some(inc) = engine.limit_hit() {
            res.incomplete = Some(inc);
            break;
        }
        let solver = engine.solver();
        let mut ab = AbVars::new();
        let mut policy = ExploredPolicy(&explored);
        let Some(enc) = engine.encode_with(t, &Sink::new(&solver), &mut ab, Some(&mut policy))
        else {
            break;
        };
        engine.stats.tests_encoded += 1;
        let mut en = McsEnumerator::new(engine.mcs_options());
        let mut softs = Softs::new();
        softs.sync(engine, &ab, &mut en);
        for r in &reported {
            let members: Vec<usize> = r
                .iter()
                .filter_map(|s| softs.index.get(s).copied())
                .collect();
            en.block(&solver, &members);
        }
        loop {
            if reported.len() >= engine.options.max_diagnoses {
                break 'outer;
            }
            let t0 = Instant::now();
            let next = en.next(&solver);
            engine.stats.solve_time += t0.elapsed();
            let mcs = match next {
                Ok(Some(m)) => m,
                Ok(None) => {
                    engine.stats.solver_calls += en.solver_calls();
                    break 'outer;
                }
                Err(stop) => {
                    engine.stats.solver_calls += en.solver_calls();
                    res.incomplete = Some(match stop {
                        Stop::Timeout => Incomplete::Timeout,
                        Stop::Unknown(m) if m.contains("memory") => Incomplete::Memory,
                        Stop::Unknown(m) => Incomplete::Solver(m),
                    });
                    break 'outer;
                }
            };
            let d = softs.to_stmts(&mcs.members);
            let entered: Vec<(CondInst, Branch)> = enc
                .abstract_entries
                .iter()
                .filter(|e| mcs.model.eval(&e.3, true).and_then(|b| b.as_bool()) == Some(true))
                .map(|e| ((e.0, e.1.clone()), e.2))
                .collect();
            let mut model = mcs.model;
            if !entered.is_empty() {
                let mut assumptions: Vec<Bool> = ab
                    .stmts()
                    .map(|(s, b)| if d.contains(&s) { b.clone() } else { b.not() })
                    .collect();
                assumptions.extend(enc.abstract_entries.iter().map(|e| e.3.not()));
                engine.stats.solver_calls += 1;
                match solver.check_assumptions(&assumptions) {
                    SatResult::Sat => {
                        if let Some(m) = solver.get_model() {
                            model = m;
                        }
                    }
                    _ => {
                        // The angelic path needs unexplored code: perturb.
                        res.perturbations += 1;
                        let w = Witness::from_model(
                            &enc,
                            &model,
                            &d,
                            &session.tests[t].expected_stdout,
                        );
                        let mut progress = perturb(engine, t, &w, &mut explored);
                        if !progress {
                            for (c, b) in &entered {
                                let forced = explored.forcing(c, *b);
                                progress |= explored.hijack(
                                    &engine.exe,
                                    &session.tests[t],
                                    &forced,
                                    engine.options.limits,
                                );
                            }
                        }
                        engine.stats.solver_calls += en.solver_calls();
                        if !progress {
                            // Nothing left to explore: report it unconfirmed.
                            let angelic = angelic_values(session, t, &enc, &model, &d);
                            res.candidates
                                .push((d.clone(), mcs.cost, angelic, Some(false)));
                            reported.push(d);
                        }
                        continue 'outer;
                    }
                }
            }
            // A feasible candidate: readable values, then confirm by re-execution.
            if res.candidates.len() < crate::localize::POLISHED {
                let insts: Vec<&faultline_smt::RelaxedInstance> = enc.relaxed.iter().collect();
                let mut base: Vec<Bool> = ab
                    .stmts()
                    .map(|(s, b)| if d.contains(&s) { b.clone() } else { b.not() })
                    .collect();
                base.extend(enc.abstract_entries.iter().map(|e| e.3.not()));
                if let Some(better) =
                    crate::localize::polish(engine, &solver, &base, &insts, &d, &model)
                {
                    model = better;
                }
            }
            let w = Witness::from_model(&enc, &model, &d, &session.tests[t].expected_stdout);
            let replay = engine.replay(t, &w);
            let angelic = if replay.explains {
                replay.angelic
            } else {
                angelic_values(session, t, &enc, &model, &d)
            };
            res.candidates
                .push((d.clone(), mcs.cost, angelic, Some(replay.explains)));
            en.block(&solver, &mcs.members);
            reported.push(d);
        }
    }
    engine.options.encoding = saved;
    res.explored = explored;
    res
}

/// Re-executes the test with the witness's angelic values and adds what the
/// run explores; returns whether it explored something new.
fn perturb(engine: &mut Engine, t: usize, w: &Witness, explored: &mut Explored) -> bool {
    let test = &engine.session.tests[t];
    let mut hooks = crate::witness::Applier::new(w, t);
    let run = engine.exe.run(
        Input {
            args: &test.args,
            stdin: &test.stdin,
        },
        ExecOptions {
            record_trace: true,
            limits: engine.options.limits,
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
