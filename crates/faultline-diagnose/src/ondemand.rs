//! The on-demand machinery shared by OFC and AgxFaults: a test's formula
//! over what runs explored ([`ExploredFormula`]: explored outcomes encoded,
//! the other branches black boxes), the joint `mbd` formula over such
//! formulas ([`OnDemand`]), and the per-test loop ([`each_test`]) that shares
//! explored sets and MCS lists between tests on one path.

use crate::combine::mbd::{Joint, Settled, TestSource};
use crate::combine::{Found, TestMcs};
use crate::engine::Engine;
use crate::explore::{black_boxes, CondInst, Explored, ExploredPolicy};
use crate::formula::Softs;
use crate::mcs::{Mcs, McsEnumerator};
use crate::ranking::rank_statements;
use crate::result::Incomplete;
use crate::share::{CheckFormula, Known, PathMemo, Reused};
use crate::witness::Witness;
use faultline_ir::{Branch, StmtId};
use faultline_smt::{AbVars, Encoding, RelaxedInstance, Sink, TestEncoding};
use std::collections::{BTreeSet, HashMap};
use z3::ast::Bool;
use z3::{Model, Solver};

/// One failing test's formula over the explored part of the program (OFC's
/// abstract formula, AgxFaults' angelic program): explored outcomes encoded,
/// the other branches black boxes; with its MCS enumerator.
pub struct ExploredFormula {
    pub solver: Solver,
    pub ab: AbVars,
    pub enc: TestEncoding,
    pub en: McsEnumerator,
    pub softs: Softs,
}

impl ExploredFormula {
    /// Encodes test `t` over `explored` in `encoding`; `None` if it cannot be
    /// encoded (the engine has noted why).
    pub fn new(
        engine: &mut Engine,
        t: usize,
        explored: &Explored,
        encoding: Encoding,
    ) -> Option<ExploredFormula> {
        let solver = engine.solver();
        let mut ab = AbVars::new();
        let mut policy = ExploredPolicy(explored);
        let enc =
            engine.encode_with(t, &Sink::new(&solver), &mut ab, encoding, Some(&mut policy))?;
        engine.count_test_encoded();
        let mut en = engine.enumerator();
        let mut softs = Softs::new();
        softs.sync(engine, &ab, &mut en, &solver);
        Some(ExploredFormula {
            solver,
            ab,
            enc,
            en,
            softs,
        })
    }

    /// The next MCS (solver time counted).
    pub fn next(&mut self, engine: &mut Engine) -> Result<Option<Mcs>, Incomplete> {
        engine.next_mcs(&mut self.en, &self.solver)
    }

    /// The black boxes `model` enters.
    pub fn entered(&self, model: &Model) -> Vec<(CondInst, Branch)> {
        black_boxes(&self.enc)
            .filter(|b| b.entered_in(model))
            .map(|b| (b.cond, b.branch))
            .collect()
    }

    /// Assumptions: exactly `d` relaxed, and no black box entered.
    fn outside_boxes(&self, d: &BTreeSet<StmtId>) -> Vec<Bool> {
        let mut a = self.ab.relaxing_exactly(d);
        a.extend(black_boxes(&self.enc).map(|b| b.entry.not()));
        a
    }

    /// A model relaxing exactly `d` that enters no black box, if there is one.
    pub fn model_outside_boxes(&self, engine: &mut Engine, d: &BTreeSet<StmtId>) -> Option<Model> {
        engine.model_under(&self.solver, &self.outside_boxes(d))
    }

    /// `model` (of `d`, outside every black box) with readable angelic
    /// values, see [`Engine::polish`].
    pub fn polish(&self, engine: &mut Engine, d: &BTreeSet<StmtId>, model: Model) -> Model {
        let insts: Vec<&RelaxedInstance> = self.enc.relaxed.iter().collect();
        engine
            .polish(&self.solver, &self.outside_boxes(d), &insts, d, &model)
            .unwrap_or(model)
    }
}

/// Test `t`'s explored set: its run's, merged with those of the tests on its
/// path in `explored`.
fn explored_on_path(engine: &Engine, explored: &HashMap<usize, Explored>, t: usize) -> Explored {
    let mut e = match engine.session().traces.get(&t) {
        Some(tr) => Explored::from_trace(tr),
        None => Explored::default(),
    };
    let g = engine.path(t);
    for (u, ex) in explored {
        if engine.path(*u) == g {
            e.merge(ex);
        }
    }
    e
}

/// OFC's formulas for `mbd`: each test over what its runs explored (shared
/// by path), expanded whenever a candidate needs a black box (see
/// [`crate::methods::ofc`]).
#[derive(Default)]
pub struct OnDemand {
    explored: HashMap<usize, Explored>,
}

impl TestSource for OnDemand {
    fn encode(&mut self, engine: &mut Engine, joint: &mut Joint, t: usize) -> bool {
        if !self.explored.contains_key(&t) {
            let e = explored_on_path(engine, &self.explored, t);
            self.explored.insert(t, e);
        }
        let explored = &self.explored[&t];
        joint.add(t, |sink, ab| {
            let mut p = ExploredPolicy(explored);
            engine.encode_with(t, sink, ab, Encoding::Full, Some(&mut p))
        })
    }

    /// A model of `d` outside every black box; if there is none, the boxes
    /// the candidate's model enters are expanded by hijacking.
    fn settle(
        &mut self,
        engine: &mut Engine,
        joint: &Joint,
        active: &[usize],
        d: &BTreeSet<StmtId>,
        model: Model,
    ) -> Settled {
        let entered: Vec<(usize, CondInst, Branch)> = active
            .iter()
            .flat_map(|t| {
                black_boxes(&joint.encs[t])
                    .filter(|b| b.entered_in(&model))
                    .map(move |b| (*t, b.cond, b.branch))
            })
            .collect();
        if entered.is_empty() {
            return Settled::Model(model);
        }
        let mut assumptions: Vec<Bool> = joint.ab.relaxing_exactly(d);
        for t in active {
            assumptions.extend(black_boxes(&joint.encs[t]).map(|b| b.entry.not()));
        }
        engine.count_solver_calls(1);
        let sat = joint.solver.check_assumptions(&assumptions) == z3::SatResult::Sat;
        faultline_smt::limits::note_z3_memory();
        match joint.solver.get_model() {
            Some(m) if sat => Settled::Model(m),
            _ => {
                let session = engine.session();
                for (t, c, b) in &entered {
                    let e = self.explored.get_mut(t).expect("explored");
                    let forced = e.forcing(c, *b);
                    e.hijack(
                        engine.exe(),
                        &session.tests[*t],
                        &forced,
                        session.replay_limits(),
                    );
                }
                Settled::Grown
            }
        }
    }
}

/// What a per-test on-demand search found for one test.
#[derive(Clone, Debug, Default)]
pub struct Searched {
    /// The test's MCSes, in report order.
    pub mcses: Vec<TestMcs>,
    /// The values each MCS was explained by (one per MCS when the list can be
    /// shared with tests on the same path).
    pub witnesses: Vec<Witness>,
    /// Whether `mcses` are all the test's MCSes within the size bound.
    pub complete: bool,
    /// What the test's runs explored.
    pub explored: Explored,
    pub incomplete: Option<Incomplete>,
}

/// A per-test method's search for one test's MCSes (OFC, AgxFaults).
pub trait TestSearch {
    /// The encoding of the method's formulas.
    fn encoding(&self) -> Encoding;
    /// Whether MCSes confirmed from a test on the same path count as
    /// verified by re-execution (they were replayed).
    fn verifies(&self) -> bool;
    /// Searches test `t`'s MCSes starting from `explored`.
    fn search(&mut self, engine: &mut Engine, t: usize, explored: Explored) -> Searched;
}

/// Runs `search` on every failing test with a trace, sharing explored sets
/// and MCS lists between tests on one path; the diagnoses of every test,
/// with each test's ranking (statements in order of [`rank_statements`]).
pub fn each_test(engine: &mut Engine, search: &mut dyn TestSearch) -> (Found, Vec<Vec<StmtId>>) {
    let session = engine.session();
    let mut found = Found::default();
    let mut per_test: Vec<Vec<StmtId>> = Vec::new();
    // Tests with one path share what their runs explored.
    let mut shared: HashMap<usize, Explored> = HashMap::new();
    let mut memo = PathMemo::default();
    for &t in &session.failing {
        if let Some(inc) = engine.limit_hit() {
            found.incomplete = Some(inc);
            break;
        }
        let Some(trace) = session.traces.get(&t) else {
            continue;
        };
        let sig = engine.path(t).unwrap_or(usize::MAX);
        let mut start_set = Explored::from_trace(trace);
        if let Some(prev) = shared.get(&sig) {
            start_set.merge(prev);
        }
        // A test on the path of one already done: confirm its list.
        let reused = reuse(engine, &mut memo, t, sig, &start_set, search.encoding());
        let (mcses, inc) = match reused {
            Ok(Some(list)) => {
                let verified = search.verifies().then_some(true);
                let mcses = list
                    .into_iter()
                    .map(|r| TestMcs {
                        stmts: r.stmts,
                        cost: r.cost,
                        angelic: r.angelic,
                        verified,
                    })
                    .collect();
                (mcses, None)
            }
            Ok(None) => {
                let r = search.search(engine, t, start_set);
                if r.complete && r.witnesses.len() == r.mcses.len() {
                    let list = r
                        .mcses
                        .iter()
                        .zip(r.witnesses)
                        .map(|(m, w)| Known {
                            stmts: m.stmts.clone(),
                            cost: m.cost,
                            witness: w,
                        })
                        .collect();
                    memo.remember(sig, list);
                }
                shared.entry(sig).or_default().merge(&r.explored);
                (r.mcses, r.incomplete)
            }
            Err(inc) => {
                found.incomplete = Some(inc);
                break;
            }
        };
        let start_of_test = found.diagnoses.len();
        found
            .diagnoses
            .extend(mcses.into_iter().map(|m| m.diagnosis(Some(t))));
        per_test.push(rank_statements(&found.diagnoses[start_of_test..]));
        engine.found(&found.diagnoses);
        if inc.is_some() {
            found.incomplete = inc;
            break;
        }
    }
    (found, per_test)
}

/// Test `t`'s MCSes confirmed from the list of a test on its path
/// ([`crate::share`]), checked on its formula over `explored`.
fn reuse(
    engine: &mut Engine,
    memo: &mut PathMemo,
    t: usize,
    sig: usize,
    explored: &Explored,
    encoding: Encoding,
) -> Result<Option<Vec<Reused>>, Incomplete> {
    if !engine.options().share_paths {
        return Ok(None);
    }
    let Some(list) = memo.candidate(engine, t, sig) else {
        return Ok(None);
    };
    let Some(mut f) = ExploredFormula::new(engine, t, explored, encoding) else {
        return Ok(None);
    };
    let check = CheckFormula {
        solver: &f.solver,
        en: &mut f.en,
        softs: &f.softs,
    };
    memo.confirm(engine, check, list)
}
