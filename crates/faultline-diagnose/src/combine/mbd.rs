//! `mbd`: one formula over the failing tests, added lazily: the
//! representatives of distinct paths first; every candidate MCS is checked
//! against each remaining test's own formula, and a test it does not explain
//! joins the formula (which rules the candidate out). A candidate that
//! explains every test is an MCS of the formula over all of them (its proper
//! subsets already fail on the joined tests), and the order of reports is that
//! of the full formula.
//!
//! How a test enters the joint formula is a [`TestSource`]: [`Exact`] encodes
//! it in the engine's encoding; OFC's on-demand formulas
//! ([`crate::ondemand::OnDemand`]) encode what runs explored and may grow,
//! after which the joint formula is rebuilt.

use super::{Combination, Found};
use crate::angelic::angelic_values;
use crate::engine::{Check, Engine, Explained, Helper, Verdict, POLISHED};
use crate::formula::Softs;
use crate::mcs::{Mcs, McsEnumerator, Order};
use crate::result::{Angelic, Diagnosis, Incomplete};
use crate::witness::Witness;
use faultline_ir::StmtId;
use faultline_smt::{AbVars, Encoding, RelaxedInstance, Sink, TestEncoding};
use std::collections::{BTreeMap, BTreeSet};
use z3::ast::Bool;
use z3::{Model, Solver};

/// The effort limit of each query of the search beyond the first level, in
/// multiples of a single statement's check's.
const SEARCH_EFFORT: u32 = 2;

/// The size (units of work of its representatives' encodings) beyond which
/// a joint formula of slow operations starts in the cheaper theory
/// ([`Search::cheap_first`]). Over IntroClass, the exact first queries of
/// such formulas up to 1,400 units decide within the effort limit, in less
/// time than the cheaper theory's candidates take to confirm (`checksum`:
/// 0.1 s against 0.4 s); from 1,700 units they reached the 1 GiB memory
/// limit (`digits`: 1,746 to 12,468 units) or took longer than the cheaper
/// search (0.5 s against 0.1 s).
const CHEAP_JOINT_UNITS: u64 = 1_500;

/// The formula of the active tests, with its MCS enumerator.
pub struct Joint {
    pub solver: Solver,
    pub ab: AbVars,
    pub softs: Softs,
    pub en: McsEnumerator,
    /// Each active test's encoding. Ordered: dropping the joint formula
    /// ([`Search::switch`]) releases their terms in this order, and Z3
    /// reuses released ids for the terms made next, which orders its
    /// search (a hashed map made solver calls vary from run to run).
    pub encs: BTreeMap<usize, TestEncoding>,
    /// Whether the tests are encoded in the cheaper theory (unbounded
    /// integers, reals): its candidates are then confirmed on every test's
    /// exact focused formula before they are reported.
    pub cheap: bool,
}

impl Joint {
    /// A joint formula; with `insertions`, the statements missing from the
    /// source are relaxable in it, else they are encoded as written (they
    /// are then decided alone, by focused checks); `cheap`: in the cheaper
    /// theory.
    fn new(engine: &Engine, insertions: bool, cheap: bool) -> Joint {
        let ab = match insertions {
            true => AbVars::new(),
            false => AbVars::excluding(engine.insertions()),
        };
        Joint {
            // Not the finite-domain solver for unbounded integers.
            solver: match cheap {
                true => Solver::new(),
                false => engine.solver(),
            },
            ab,
            softs: Softs::new(),
            en: engine.enumerator(),
            encs: BTreeMap::new(),
            cheap,
        }
    }

    /// Adds test `t` encoded by `encode` (given the joint solver's sink and
    /// relaxation variables); whether it could be encoded.
    pub fn add(
        &mut self,
        t: usize,
        encode: impl FnOnce(&Sink, &mut AbVars) -> Option<TestEncoding>,
    ) -> bool {
        match encode(&Sink::new(&self.solver), &mut self.ab) {
            Some(enc) => {
                self.encs.insert(t, enc);
                true
            }
            None => false,
        }
    }
}

/// What a candidate's model is worth to the report.
pub enum Settled {
    /// A model of the candidate the report can use.
    Model(Model),
    /// The test formulas grew: the joint formula must be rebuilt.
    Grown,
}

/// How tests enter the joint formula.
pub trait TestSource {
    /// Encodes test `t` into `joint`; whether it could be encoded.
    fn encode(&mut self, engine: &mut Engine, joint: &mut Joint, t: usize) -> bool;
    /// Whether tests enter in the engine's exact encoding: then a single
    /// statement's check on a test is its focused formula's.
    fn exact(&self) -> bool {
        false
    }
    /// Checks candidate `d` with `model` over the `active` tests.
    fn settle(
        &mut self,
        engine: &mut Engine,
        joint: &Joint,
        active: &[usize],
        d: &BTreeSet<StmtId>,
        model: Model,
    ) -> Settled;
}

/// Each test's exact formula in the engine's encoding.
pub struct Exact;

impl TestSource for Exact {
    fn exact(&self) -> bool {
        true
    }
    fn encode(&mut self, engine: &mut Engine, joint: &mut Joint, t: usize) -> bool {
        if joint.cheap {
            return match engine.encode_cheap(t, &joint.solver, &mut joint.ab) {
                Some(enc) => {
                    joint.encs.insert(t, enc);
                    true
                }
                None => false,
            };
        }
        joint.add(t, |sink, ab| engine.encode(t, sink, ab))
    }
    fn settle(
        &mut self,
        _: &mut Engine,
        _: &Joint,
        _: &[usize],
        _: &BTreeSet<StmtId>,
        model: Model,
    ) -> Settled {
        Settled::Model(model)
    }
}

/// `mbd` over the tests of a [`TestSource`].
pub struct Mbd<S: TestSource> {
    source: S,
}

impl Mbd<Exact> {
    /// `mbd` over exact test formulas.
    pub fn exact() -> Mbd<Exact> {
        Mbd { source: Exact }
    }
}

impl<S: TestSource> Mbd<S> {
    pub fn over(source: S) -> Mbd<S> {
        Mbd { source }
    }
}

impl<S: TestSource> Combination for Mbd<S> {
    fn combine(&mut self, engine: &mut Engine) -> Found {
        // With focused checks of single statements, insertions (relaxed
        // alone) are decided there and left out of the joint formula.
        let focused = self.source.exact()
            && engine.mcs_options().order == Order::Cardinality
            && engine.options().max_size >= 1;
        let order = engine.session().representatives_first();
        let mut search = Search {
            singles_order: shorter_runs_first(engine, order.clone()),
            order,
            source: &mut self.source,
            joint: Joint::new(engine, !focused, false),
            insertions: !focused,
            active: Vec::new(),
            diagnoses: Vec::new(),
            accepted: Vec::new(),
            undecided: Vec::new(),
            refuted: BTreeSet::new(),
            unconfirmed_singles: Vec::new(),
            unconfirmed: false,
            search_effort: None,
            joint_work: 0,
            joint_cap: None,
            outgrown: false,
        };
        // With focused checks, the joint formula (every statement
        // relaxable, the hardest to build) is built only when single
        // statements do not settle the search.
        // With focused checks, each test's run is checked to be encodable
        // when a check first reaches it (`Engine::explain_each`).
        if !focused {
            search.encode_representatives(engine);
        }
        // With focused checks and the effort limit, the joint formula is
        // bounded like a focused one: the larger programs' grew to
        // gigabytes (Siemens `tot_info`) before their first query.
        if focused && engine.options().effort.is_some() {
            search.joint_cap = Some(engine.options().joint_work);
        }
        if !focused && search.active.is_empty() {
            return Found {
                diagnoses: Vec::new(),
                incomplete: engine.limit_hit(),
            };
        }
        let incomplete = match focused {
            true => search.singles_first(engine).err(),
            false => None,
        };
        // Only the smallest diagnoses: when single statements explain the
        // tests, no larger set is searched.
        let smallest_found = focused && !engine.options().all_sizes && !search.diagnoses.is_empty();
        // The joint formula, when single statements do not settle the
        // search; `unstarted`: it could not be started (a limit was reached
        // while it was built, or no failing test's run can be encoded in
        // it), and the search ends with what the single statements gave,
        // their undecided and unconfirmed ones included.
        let mut unstarted = None;
        if focused && incomplete.is_none() && !smallest_found {
            search.encode_representatives(engine);
            if search.outgrown {
                unstarted = Some(Some(Incomplete::Effort(0)));
            } else if search.active.is_empty() {
                unstarted = Some(match engine.limit_hit() {
                    Some(inc) => Some(inc),
                    None if search.diagnoses.is_empty() => None,
                    None => Some(Incomplete::Solver(
                        "no failing test's whole formula could be encoded".into(),
                    )),
                });
            } else {
                search.after_singles(engine);
            }
        }
        let incomplete = match unstarted {
            Some(stopped) => stopped,
            None => search.run_joint(engine, focused, incomplete, smallest_found),
        };
        let incomplete = match incomplete {
            Some(Incomplete::Effort(_)) => Some(search.undecided(engine, true)),
            None if search.unconfirmed => Some(search.undecided(engine, true)),
            None if !search.undecided.is_empty() => Some(search.undecided(engine, false)),
            other => other,
        };
        engine.count_solver_calls(search.joint.en.solver_calls());
        let mut diagnoses = search.diagnoses;
        // Within a size, in statement order: the order in which the solver
        // finds diagnoses of one size depends on its history, not on the
        // program.
        if engine.mcs_options().order == Order::Cardinality {
            diagnoses.sort_by(|a, b| a.cost.cmp(&b.cost).then_with(|| a.stmts.cmp(&b.stmts)));
        }
        // Unconfirmed single statements after every confirmed diagnosis,
        // while the count allows (the result is incomplete: a limit left
        // them undecided).
        let room = engine
            .options()
            .max_diagnoses
            .saturating_sub(diagnoses.len());
        diagnoses.extend(search.unconfirmed_singles.into_iter().take(room));
        // Stopped by a limit, the joint formula (gigabytes on Siemens
        // `tot_info`) is released after the result, not before it.
        if faultline_smt::limits::stopped_by_limit() {
            faultline_smt::limits::release_later(search.joint);
        }
        Found {
            diagnoses,
            incomplete,
        }
    }
}

/// What checking a candidate on the tests outside the joint formula gave.
enum Validation {
    /// Every test is explained: the candidate's angelic values.
    Explained(Vec<Angelic>),
    /// Test `t` is not: it joins the formula.
    Unexplained(usize),
    /// A candidate of the cheaper theory's joint formula that a test of
    /// that formula does not confirm exactly (refuted, or undecided within
    /// the effort limit: `undecided`): not reported, and blocked.
    Spurious { undecided: bool },
    /// A limit was hit.
    Stopped(Incomplete),
}

/// One `mbd` search.
struct Search<'a, S: TestSource> {
    /// Failing tests, representatives of distinct paths first.
    order: Vec<usize>,
    /// The order in which a single statement's focused checks visit the
    /// tests ([`shorter_runs_first`]).
    singles_order: Vec<usize>,
    source: &'a mut S,
    joint: Joint,
    /// Tests in the joint formula, in the order they joined.
    active: Vec<usize>,
    diagnoses: Vec<Diagnosis>,
    /// The statements of each diagnosis reported.
    accepted: Vec<BTreeSet<StmtId>>,
    /// Statements whose focused check reached the effort limit: excluded
    /// from the search.
    undecided: Vec<StmtId>,
    /// Single statements refuted on some failing test (by re-execution or
    /// by the engine's focused formulas).
    refuted: BTreeSet<StmtId>,
    /// Single statements that explain most failing tests and were left
    /// undecided on the others within the limits: reported after every
    /// confirmed diagnosis ([`Search::collect_unconfirmed`]).
    unconfirmed_singles: Vec<Diagnosis>,
    /// Whether insertions are relaxable in the joint formula (else they are
    /// decided by focused checks alone).
    insertions: bool,
    /// Whether a candidate of the cheaper theory's joint formula was left
    /// unreported because its exact check reached the effort limit.
    unconfirmed: bool,
    /// The effort limit of the search's queries beyond the first level.
    search_effort: Option<u32>,
    /// The work (units of [`faultline_smt::limits::work`]) of encoding the
    /// joint formula's representatives.
    joint_work: u64,
    /// The work the joint formula's tests may still take
    /// ([`crate::Options::joint_work`] at first; `None`: unbounded).
    joint_cap: Option<u64>,
    /// Whether a test's encoding into the joint formula reached the bound:
    /// the search for larger diagnoses ends there.
    outgrown: bool,
}

impl<S: TestSource> Search<'_, S> {
    /// The joint search after the single statements (`incomplete`: the
    /// limit that stopped them; `smallest_found`: they settled it), each
    /// query beyond the first level limited when `focused`: why it ended
    /// early, if it did.
    fn run_joint(
        &mut self,
        engine: &mut Engine,
        focused: bool,
        incomplete: Option<Incomplete>,
        smallest_found: bool,
    ) -> Option<Incomplete> {
        // After the first level, each query of the search is limited too: a
        // query that reaches the limit ends the search, with the diagnoses
        // found so far.
        if focused {
            self.search_effort = engine
                .options()
                .effort
                .map(|e| e.saturating_mul(SEARCH_EFFORT));
            self.joint.en.set_effort(self.search_effort);
        }
        let searched = focused && incomplete.is_none() && !smallest_found;
        if searched && self.may_cheapen(engine) && self.cheap_first() {
            self.switch(engine, true);
        }
        incomplete.or_else(|| match smallest_found {
            true => None,
            false => match self.run(engine) {
                // Where the exact formula's query reached the effort limit,
                // the cheaper theory's goes on.
                Some(Incomplete::Effort(_))
                    if searched && self.may_cheapen(engine) && self.switch(engine, true) =>
                {
                    self.run(engine)
                }
                other => other,
            },
        })
    }

    /// Starts the joint formula with one test per path.
    fn encode_representatives(&mut self, engine: &mut Engine) {
        let w0 = faultline_smt::limits::work();
        let t0 = std::time::Instant::now();
        let representatives: Vec<usize> = self
            .order
            .iter()
            .copied()
            .take(engine.paths().max(1))
            .collect();
        for t in representatives {
            if engine.limit_hit().is_some() {
                break;
            }
            if self.encode_bounded(engine, t) {
                self.active.push(t);
            } else if self.outgrown {
                break;
            }
        }
        engine.set_tests_encoded(self.active.len());
        self.joint_work = faultline_smt::limits::work() - w0;
        crate::profile::log(
            || {
                format!(
                    "joint formula ({} tests, {} units)",
                    self.active.len(),
                    self.joint_work
                )
            },
            "",
            t0.elapsed(),
        );
    }

    /// Encodes test `t` into the joint formula within what is left of its
    /// work bound; whether it could be encoded (if not because of the bound,
    /// [`Search::outgrown`] is set).
    fn encode_bounded(&mut self, engine: &mut Engine, t: usize) -> bool {
        let w0 = faultline_smt::limits::work();
        engine.set_work_cap(self.joint_cap);
        let encoded = self.source.encode(engine, &mut self.joint, t);
        let outgrown = engine.take_outgrown();
        engine.set_work_cap(None);
        if let Some(cap) = &mut self.joint_cap {
            *cap = cap.saturating_sub(faultline_smt::limits::work() - w0);
        }
        if !encoded && outgrown {
            self.outgrown = true;
            engine.note(format!(
                "the search for diagnoses of more than one statement stopped: its formula over the failing tests reached its work bound ({} units; --effort 0 removes it)",
                engine.options().joint_work
            ));
        }
        encoded
    }

    /// Why statements are left undecided: the effort limit (of their
    /// checks, or of the search's queries when `search_effort`), or their
    /// checks' formulas could not be encoded (said only when nothing was
    /// undecided by effort: the notes name the tests either way).
    fn undecided(&self, engine: &Engine, search_effort: bool) -> Incomplete {
        let unencoded = self
            .undecided
            .iter()
            .filter(|s| engine.was_unencoded(**s))
            .count();
        match self.undecided.len() - unencoded {
            0 if unencoded > 0 && !search_effort => Incomplete::Unencoded(unencoded),
            n => Incomplete::Effort(n),
        }
    }

    /// The first level (diagnoses of one statement) by focused checks: each
    /// statement of the joint formula alone, on each failing test's focused
    /// formula (only that statement relaxable), in the order of the joint
    /// formula's soft terms, which is the enumerator's order within a level.
    /// A statement relaxed alone explains the tests exactly when it explains
    /// each one (the tests share nothing but the `ab` variables), so the
    /// diagnoses are level 1 of the joint formula over all tests, found
    /// without its hardest queries: the focused formula of a statement that
    /// feeds array indices or loop bounds is small where the joint
    /// formula's is not. A statement whose check reaches the effort limit is
    /// *undecided*: it is excluded from the joint formula (`¬ab`), which
    /// loses diagnoses containing it but reports nothing that is not a
    /// minimal correction set, and the result says how many were left. The
    /// enumerator then starts at level 2.
    ///
    /// The candidates are known without the joint formula
    /// ([`Engine::single_candidates`]), which is built afterwards, and only
    /// when the search goes on ([`Search::after_singles`]).
    ///
    /// With `full`, every candidate that computes a value is checked first
    /// on the runs' paths (the fix keeps each failing run's path): those
    /// formulas are the runs' own, small whatever the program, and what
    /// they explain `full` explains. Then the remaining conditions and
    /// statements that compute values are checked by re-execution alone
    /// (predicate switching and value replacement, [`Pass::Switched`]): a
    /// run that passes is a witness. Only the others are then checked on
    /// `full`'s focused formulas, whose size grows with all the paths the
    /// relaxed values may open.
    fn singles_first(&mut self, engine: &mut Engine) -> Result<(), Incomplete> {
        let mut known: BTreeMap<StmtId, BTreeMap<usize, Explained>> = BTreeMap::new();
        let r = engine.with_helper(|engine, helper| self.singles_with(engine, helper, &mut known));
        if r.is_err() || !self.undecided.is_empty() {
            self.collect_unconfirmed(engine, &known);
        }
        r
    }

    /// The single statements, neither accepted nor refuted, that explain at
    /// least two failing tests and twice as many as they were left
    /// undecided on (a check reached the effort limit, or was not made: a
    /// limit stopped the search, or the statement's first undecided test
    /// already kept it from being confirmed): unconfirmed diagnoses, with
    /// the angelic values of the tests they explain, those undecided on the
    /// fewest tests first, then the most suspicious (Ochiai).
    fn collect_unconfirmed(
        &mut self,
        engine: &Engine,
        known: &BTreeMap<StmtId, BTreeMap<usize, Explained>>,
    ) {
        let tests: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|t| !engine.is_skipped(*t))
            .collect();
        let mut found: Vec<Diagnosis> = Vec::new();
        for (s, k) in known {
            if self.refuted.contains(s) || self.accepted.iter().any(|d| d.contains(s)) {
                continue;
            }
            let missing: Vec<usize> = tests
                .iter()
                .copied()
                .filter(|t| !k.contains_key(t))
                .collect();
            let explained = tests.len() - missing.len();
            if missing.is_empty() || explained < 2 || explained < 2 * missing.len() {
                continue;
            }
            let mut angelic: Vec<Angelic> = tests
                .iter()
                .filter_map(|t| k.get(t))
                .flat_map(|e| e.angelic.iter().cloned())
                .collect();
            angelic.sort_by(|a, b| a.test.cmp(&b.test).then(a.stmt.cmp(&b.stmt)));
            found.push(Diagnosis {
                stmts: vec![*s],
                cost: 1,
                test: None,
                angelic,
                verified: None,
                undecided: missing,
            });
        }
        let susp = crate::weights::suspiciousness(
            engine.session(),
            crate::weights::Formula::Ochiai,
            engine.options().spectrum,
        );
        let score = |d: &Diagnosis| susp.get(&d.stmts[0]).copied().unwrap_or(0.0);
        found.sort_by(|a, b| {
            (a.undecided.len().cmp(&b.undecided.len()))
                .then(score(b).total_cmp(&score(a)))
                .then(a.stmts.cmp(&b.stmts))
        });
        self.unconfirmed_singles = found;
    }

    /// [`Search::singles_first`], with a helper engine for when the checks
    /// cost ([`Search::check_singles`]).
    fn singles_with<'s, 'p>(
        &mut self,
        engine: &mut Engine<'s, 'p>,
        helper: &mut Helper<'_, '_, 's, 'p>,
        known: &mut BTreeMap<StmtId, BTreeMap<usize, Explained>>,
    ) -> Result<(), Incomplete> {
        let mut candidates = engine.single_candidates();
        // The insertions, outside the joint formula, after the statements
        // of the source (their ids come after).
        candidates.extend(engine.insertions());
        // The tests each candidate explains on the paths or by re-execution:
        // `full` explains them too, and checks only the others.
        if engine.encoding() == Encoding::Full {
            let (on, mut rest): (Vec<StmtId>, Vec<StmtId>) = candidates
                .into_iter()
                .partition(|s| engine.relaxable_on_path(*s));
            rest.extend(self.unexplained(engine, helper, &on, Pass::OnPath, known)?);
            // Most suspicious first (Ochiai over the tests' spectra), so
            // that a time limit leaves the likeliest checked; the order of
            // the report does not depend on it (see `accept`).
            let susp = crate::weights::suspiciousness(
                engine.session(),
                crate::weights::Formula::Ochiai,
                engine.options().spectrum,
            );
            let score = |s: &StmtId| susp.get(s).copied().unwrap_or(0.0);
            rest.sort_by(|a, b| score(b).total_cmp(&score(a)).then(a.cmp(b)));
            // Then by predicate switching and value replacement (the others,
            // jumps and insertions, are undecided there at once): a switched
            // run that passes each test explains it without the focused
            // formula, which spans every path the statement may open (the
            // costliest checks of large programs); the others are left to
            // their formulas, with the tests already explained.
            candidates = self.unexplained(engine, helper, &rest, Pass::Switched, known)?;
            // The statements with the fewest tests left to explain first (a
            // stable sort: by suspiciousness within a count): a statement
            // that explains all failing tests but one needs one focused
            // formula to be accepted, and is the likeliest fault.
            let left = |s: &StmtId| {
                let k = known.get(s);
                let explained = |t: &usize| k.is_some_and(|k| k.contains_key(t));
                self.singles_order.iter().filter(|t| !explained(t)).count()
            };
            candidates.sort_by_cached_key(left);
        }
        for (s, v) in self.check_singles(engine, helper, &candidates, Pass::Focused, known)? {
            // An undecided insertion has no soft term to exclude from the
            // joint formula, but leaves the result partial all the same: a
            // diagnosis may be missing.
            if matches!(v, Verdict::Undecided) {
                self.undecided.push(s);
            }
        }
        Ok(())
    }

    /// [`Search::check_singles`]: the candidates not explained, in order.
    fn unexplained<'s, 'p>(
        &mut self,
        engine: &mut Engine<'s, 'p>,
        helper: &mut Helper<'_, '_, 's, 'p>,
        candidates: &[StmtId],
        pass: Pass,
        known: &mut BTreeMap<StmtId, BTreeMap<usize, Explained>>,
    ) -> Result<Vec<StmtId>, Incomplete> {
        let verdicts = self.check_singles(engine, helper, candidates, pass, known)?;
        Ok(verdicts
            .into_iter()
            .filter(|(_, v)| !matches!(v, Verdict::Explained(())))
            .map(|(s, _)| s)
            .collect())
    }

    /// Each of `candidates` checked alone on every failing test as `pass`
    /// checks and settled
    /// ([`Search::settle`]), in order: their verdicts. `known`: the tests
    /// each already explains (see [`Engine::explain_each_with`]).
    ///
    /// With `--threads 2`, once the rest of the pass is expected to cost
    /// [`PARALLEL_COST`] (the pass's mean [`Engine::cost_spent`] per
    /// statement so far, times the statements left), the remaining
    /// candidates are shared between the engine and a helper engine on the
    /// second core ([`Helper::in_parallel`]): alternately, in order, so that
    /// each gets as many of the most suspicious. Which engine checks what
    /// is fixed before either starts and each has its own solver history,
    /// so the verdicts do not depend on timing; they are settled in the
    /// candidates' order.
    fn check_singles<'s, 'p>(
        &mut self,
        engine: &mut Engine<'s, 'p>,
        helper: &mut Helper<'_, '_, 's, 'p>,
        candidates: &[StmtId],
        pass: Pass,
        known: &mut BTreeMap<StmtId, BTreeMap<usize, Explained>>,
    ) -> Result<Vec<(StmtId, Verdict<()>)>, Incomplete> {
        let mut out = Vec::with_capacity(candidates.len());
        let start = engine.cost_spent();
        for (i, &s) in candidates.iter().enumerate() {
            // What the rest of the pass is expected to cost, at the pass's
            // mean so far.
            let rest = (candidates.len() - i) as u64;
            let expected = match i {
                0 => 0,
                _ => engine.cost_spent().saturating_sub(start) / i as u64 * rest,
            };
            if engine.options().threads > 1 && expected >= PARALLEL_COST && rest >= 2 {
                self.check_shared(engine, helper, &candidates[i..], pass, known, &mut out)?;
                break;
            }
            let polish = self.diagnoses.len() < POLISHED;
            let k = known.entry(s).or_default();
            let v = single_verdict(engine, &self.singles_order, s, pass, polish, k)?;
            out.push((s, self.settle(engine, s, pass, v)?));
        }
        Ok(out)
    }

    /// `candidates` checked partly by the engine, partly by a helper
    /// ([`Search::check_singles`]), their verdicts settled in order onto
    /// `out`. Every check made is settled; then the first limit (in the
    /// candidates' order) that stopped either engine is returned.
    fn check_shared<'s, 'p>(
        &mut self,
        engine: &mut Engine<'s, 'p>,
        helper: &mut Helper<'_, '_, 's, 'p>,
        candidates: &[StmtId],
        pass: Pass,
        known: &mut BTreeMap<StmtId, BTreeMap<usize, Explained>>,
        out: &mut Vec<(StmtId, Verdict<()>)>,
    ) -> Result<(), Incomplete> {
        let mut sides: [Vec<ToCheck>; 2] = [Vec::new(), Vec::new()];
        for (i, &s) in candidates.iter().enumerate() {
            sides[i % 2].push((i, s, known.remove(&s).unwrap_or_default()));
        }
        let [mine, theirs] = sides;
        let polished = self.diagnoses.len();
        let order = &self.singles_order;
        let helper_order = order.clone();
        let (mine, theirs) = helper.in_parallel(
            engine,
            |e| check_side(e, order, mine, pass, polished),
            Box::new(move |e| Box::new(check_side(e, &helper_order, theirs, pass, polished))),
        );
        let theirs = *theirs
            .downcast::<Vec<(usize, Checked)>>()
            .expect("a helper's checks give their verdicts");
        engine.count_helper_checks(theirs.iter().filter(|(_, c)| c.reached).count());
        let mut checked: Vec<(usize, Checked)> = mine.into_iter().chain(theirs).collect();
        checked.sort_unstable_by_key(|(i, _)| *i);
        let mut stopped = None;
        for (_, checked) in checked {
            known.insert(checked.s, checked.known);
            match checked.verdict {
                Ok(v) => out.push((checked.s, self.settle(engine, checked.s, pass, v)?)),
                Err(inc) => {
                    stopped.get_or_insert(inc);
                }
            }
        }
        stopped.map_or(Ok(()), Err)
    }

    /// Statement `s`'s verdict `v` on every failing test: accepted (blocked
    /// in the joint formula once it is built) when it explains them all;
    /// the maximum number of diagnoses reached stops the search.
    fn settle(
        &mut self,
        engine: &mut Engine,
        s: StmtId,
        pass: Pass,
        v: Verdict<Vec<Angelic>>,
    ) -> Result<Verdict<()>, Incomplete> {
        Ok(match v {
            // A refutation on the runs' paths holds for those paths only.
            Verdict::Refuted => {
                if pass != Pass::OnPath {
                    self.refuted.insert(s);
                }
                Verdict::Refuted
            }
            Verdict::Undecided => Verdict::Undecided,
            Verdict::Explained(mut angelic) => {
                // Reported in the order of the tests, whatever the
                // order they were checked in.
                angelic.sort_by_cached_key(|a| self.order.iter().position(|&t| t == a.test));
                if self.accept(engine, BTreeSet::from([s]), 1, &[], angelic) {
                    return Err(Incomplete::MaxDiagnoses);
                }
                Verdict::Explained(())
            }
        })
    }

    /// Whether the joint formula may be rebuilt in the cheaper theory
    /// ([`Search::switch`]): exact tests, an effort limit (without one,
    /// the search is exact however long it takes), tests in it.
    fn may_cheapen(&self, engine: &Engine) -> bool {
        !self.joint.cheap
            && !self.active.is_empty()
            && engine.options().effort.is_some()
            && self.source.exact()
    }

    /// Whether the search starts in the cheaper theory: a joint formula
    /// of slow operations ([`faultline_smt::approx::expensive`]: products
    /// and quotients of free values, floating-point arithmetic) that is
    /// also large ([`CHEAP_JOINT_UNITS`]). With every statement relaxable,
    /// each test's divisions and conversions become circuits over free
    /// values: IntroClass `digits/dc11fbc9-000`'s first exact query took
    /// 1.9 GB for six tests of ten iterations, the cheaper theory's 0.4 GB.
    /// Other joint formulas start exact, and go over to the cheaper theory
    /// only where an exact query reaches the effort limit.
    fn cheap_first(&self) -> bool {
        self.joint_work > CHEAP_JOINT_UNITS
            && faultline_smt::approx::expensive(&self.joint.solver.get_assertions())
    }

    /// The joint formula rebuilt over the active tests, in the cheaper
    /// theory (`cheap`) or exactly, readied as after the first level: the
    /// diagnoses reported blocked, the undecided statements excluded, the
    /// search's effort limit, and no level above the diagnoses reported
    /// (only the smallest). In the cheaper theory, candidates are confirmed
    /// on every test's exact focused formula before they are reported
    /// ([`Search::confirm`]). Whether every active test could be encoded
    /// (else the formula is left as it was).
    fn switch(&mut self, engine: &mut Engine, cheap: bool) -> bool {
        let mut joint = Joint::new(engine, self.insertions, cheap);
        for &t in &self.active {
            if !self.source.encode(engine, &mut joint, t) {
                return false;
            }
        }
        engine.count_solver_calls(self.joint.en.solver_calls());
        self.joint = joint;
        self.after_singles(engine);
        self.joint.en.set_effort(self.search_effort);
        if !engine.options().all_sizes && engine.mcs_options().order == Order::Cardinality {
            if let Some(found) = self.diagnoses.last() {
                self.joint.en.cap_max_size(found.cost as usize);
            }
        }
        true
    }

    /// Readies the joint formula, just built, for the levels above the
    /// first: the diagnoses of one statement blocked, the undecided
    /// statements excluded (`¬ab`).
    fn after_singles(&mut self, engine: &Engine) {
        self.sync_blocking_accepted(engine);
        let joint = &mut self.joint;
        for s in &self.undecided {
            if let Some(ab) = joint.ab.lookup(*s) {
                joint.solver.assert(ab.not());
            }
        }
        joint.en.raise_floor(2);
    }

    /// Enumerates candidates until none is left or a limit is hit.
    fn run(&mut self, engine: &mut Engine) -> Option<Incomplete> {
        loop {
            engine.count_iterations(1);
            self.joint.softs.sync(
                engine,
                &self.joint.ab,
                &mut self.joint.en,
                &self.joint.solver,
            );
            self.joint.en.set_deadline(engine.mcs_options().deadline);
            let mcs = match engine.next_mcs(&mut self.joint.en, &self.joint.solver) {
                Ok(Some(m)) => m,
                Ok(None) => return None,
                Err(inc) => return Some(inc),
            };
            let d = self.joint.softs.to_stmts(&mcs.members);
            let Mcs {
                members,
                cost,
                model,
                ..
            } = mcs;
            let model = match self
                .source
                .settle(engine, &self.joint, &self.active, &d, model)
            {
                Settled::Model(m) => m,
                Settled::Grown => {
                    self.rebuild(engine);
                    continue;
                }
            };
            let validation = match self.joint.cheap {
                true => self.confirm(engine, &d),
                false => {
                    let values = self.active_values(engine, &d, model);
                    self.validate(engine, &d, values)
                }
            };
            match validation {
                Validation::Stopped(inc) => return Some(inc),
                Validation::Unexplained(t) => {
                    if !self.join(engine, t) {
                        if self.outgrown {
                            return Some(Incomplete::Effort(0));
                        }
                        let msg =
                            format!("test {} cannot be encoded", engine.session().tests[t].name);
                        return Some(Incomplete::Solver(msg));
                    }
                }
                Validation::Spurious { undecided } => {
                    self.unconfirmed |= undecided;
                    self.joint.en.block(&self.joint.solver, &members);
                }
                Validation::Explained(angelic) => {
                    if self.accept(engine, d, cost, &members, angelic) {
                        return Some(Incomplete::MaxDiagnoses);
                    }
                    // Only the smallest diagnoses: no level above this one.
                    if !engine.options().all_sizes
                        && engine.mcs_options().order == Order::Cardinality
                    {
                        self.joint.en.cap_max_size(cost as usize);
                    }
                }
            }
        }
    }

    /// Rebuilds the joint formula over the grown test formulas, with the
    /// diagnoses already reported blocked.
    fn rebuild(&mut self, engine: &mut Engine) {
        engine.count_solver_calls(self.joint.en.solver_calls());
        self.joint = Joint::new(engine, self.insertions, self.joint.cheap);
        for &t in &self.active {
            self.source.encode(engine, &mut self.joint, t);
        }
        // The formula only grew: every statement is still soft.
        self.sync_blocking_accepted(engine);
    }

    /// Soft terms for the joint formula's new relaxation variables, and the
    /// diagnoses already reported blocked in it.
    fn sync_blocking_accepted(&mut self, engine: &Engine) {
        let joint = &mut self.joint;
        joint
            .softs
            .sync(engine, &joint.ab, &mut joint.en, &joint.solver);
        for a in &self.accepted {
            if let Some(members) = joint.softs.members(a) {
                joint.en.block(&joint.solver, &members);
            }
        }
    }

    /// `model` with readable angelic values, for the first diagnoses.
    fn polished(&self, engine: &mut Engine, d: &BTreeSet<StmtId>, model: Model) -> Model {
        if self.diagnoses.len() >= POLISHED {
            return model;
        }
        let insts: Vec<&RelaxedInstance> = self
            .active
            .iter()
            .flat_map(|t| self.joint.encs[t].relaxed.iter())
            .collect();
        let base: Vec<Bool> = self.joint.ab.relaxing_exactly(d);
        engine
            .polish(&self.joint.solver, &base, &insts, d, &model)
            .unwrap_or(model)
    }

    /// The active tests' angelic values and witnesses for candidate `d`:
    /// `model`'s values simplified by re-execution ([`Witness::simplified`])
    /// when every test replays with them, else the values of `model`
    /// polished by the solver.
    fn active_values(
        &self,
        engine: &mut Engine,
        d: &BTreeSet<StmtId>,
        model: Model,
    ) -> Vec<(usize, Vec<Angelic>, Witness)> {
        let witness = |engine: &Engine, a: usize, model: &Model| {
            Witness::from_model(
                &self.joint.encs[&a],
                model,
                d,
                &engine.session().formula_test(a).expected_stdout,
            )
        };
        let witnesses: Vec<(usize, Witness)> = self
            .active
            .iter()
            .map(|&a| (a, witness(engine, a, &model)))
            .collect();
        let replayed: Option<Vec<_>> = witnesses
            .into_iter()
            .map(|(a, w)| {
                let e = engine.replayed(a, &w, true)?;
                Some((a, e.angelic, e.witness.unwrap_or(w)))
            })
            .collect();
        if let Some(r) = replayed {
            return r;
        }
        let model = self.polished(engine, d, model);
        let session = engine.session();
        self.active
            .iter()
            .map(|&a| {
                let values = angelic_values(session, a, &self.joint.encs[&a], &model, d);
                (a, values, witness(engine, a, &model))
            })
            .collect()
    }

    /// Checks candidate `d` on the tests not in the formula, replaying
    /// witnesses per path group (from the active tests' `values` first,
    /// then from tests that needed their own formula) before solving.
    fn validate(
        &self,
        engine: &mut Engine,
        d: &BTreeSet<StmtId>,
        values: Vec<(usize, Vec<Angelic>, Witness)>,
    ) -> Validation {
        let mut angelic: Vec<Angelic> = Vec::new();
        // Ordered by path: the fallback witness (the first path's) is the
        // same in every run (with a hash map it was not, and neither were
        // the solver calls it saved).
        let mut groups: BTreeMap<usize, Vec<Witness>> = BTreeMap::new();
        for (a, values, w) in values {
            angelic.extend(values);
            let g = engine.path(a).unwrap_or(usize::MAX);
            groups.entry(g).or_default().push(w);
        }
        let fallback: Option<Witness> = groups.values().next().and_then(|v| v.first().cloned());
        let pending = self
            .order
            .iter()
            .copied()
            .filter(|t| !self.joint.encs.contains_key(t));
        for t in pending {
            if engine.is_skipped(t) {
                continue;
            }
            let g = engine.path(t).unwrap_or(usize::MAX);
            let ws = replays(&groups, g, fallback.as_ref());
            match engine.explain(t, d, &ws) {
                Err(inc) => return Validation::Stopped(inc),
                Ok(Some(e)) => {
                    angelic.extend(e.angelic);
                    if let Some(w) = e.witness {
                        groups.entry(g).or_default().push(w);
                    }
                }
                Ok(None) => return Validation::Unexplained(t),
            }
        }
        Validation::Explained(angelic)
    }

    /// Candidate `d` of the cheaper theory's joint formula checked on every
    /// failing test's exact focused formula (only `d` relaxable), in order,
    /// after replaying the witnesses of the tests already explained
    /// ([`replays`]): explained by all, its angelic values; refuted by a
    /// test outside the formula, that test joins it; refuted by one of its
    /// tests, or undecided within the effort limit, it is spurious (the
    /// cheaper theory's model needs what C's arithmetic does not give).
    fn confirm(&self, engine: &mut Engine, d: &BTreeSet<StmtId>) -> Validation {
        let polish = self.diagnoses.len() < POLISHED;
        let check = Check::Focused {
            polish,
            on_path: false,
        };
        let mut angelic: Vec<Angelic> = Vec::new();
        let mut groups: BTreeMap<usize, Vec<Witness>> = BTreeMap::new();
        for &t in &self.order {
            if engine.is_skipped(t) {
                continue;
            }
            let g = engine.path(t).unwrap_or(usize::MAX);
            let first = groups.values().next().and_then(|v| v.first());
            let ws = replays(&groups, g, first);
            match engine.explain_by(t, d, &ws, check) {
                Err(inc) => return Validation::Stopped(inc),
                Ok(Verdict::Explained(e)) => {
                    angelic.extend(e.angelic);
                    if let Some(w) = e.witness {
                        groups.entry(g).or_default().push(w);
                    }
                }
                Ok(Verdict::Refuted) if !self.joint.encs.contains_key(&t) => {
                    return Validation::Unexplained(t)
                }
                Ok(Verdict::Refuted) => return Validation::Spurious { undecided: false },
                Ok(Verdict::Undecided) => return Validation::Spurious { undecided: true },
            }
        }
        Validation::Explained(angelic)
    }

    /// Adds test `t` to the joint formula (which rules out the candidate it
    /// refuted); whether it could be encoded. A test without a translation
    /// into the cheaper theory makes the joint formula exact again.
    fn join(&mut self, engine: &mut Engine, t: usize) -> bool {
        if !self.encode_bounded(engine, t) {
            if self.outgrown || !self.joint.cheap || !self.switch(engine, false) {
                return false;
            }
            if !self.encode_bounded(engine, t) {
                return false;
            }
        }
        self.active.push(t);
        engine.set_tests_encoded(self.active.len());
        self.joint.en.invalidate();
        true
    }

    /// Reports candidate `d` and blocks it; whether the maximum number of
    /// diagnoses is reached.
    fn accept(
        &mut self,
        engine: &mut Engine,
        d: BTreeSet<StmtId>,
        cost: u64,
        members: &[usize],
        mut angelic: Vec<Angelic>,
    ) -> bool {
        angelic.sort_by(|a, b| a.test.cmp(&b.test).then(a.stmt.cmp(&b.stmt)));
        self.diagnoses.push(Diagnosis {
            stmts: d.iter().copied().collect(),
            cost,
            test: None,
            angelic,
            verified: None,
            undecided: Vec::new(),
        });
        engine.found(&self.diagnoses);
        if !members.is_empty() {
            self.joint.en.block(&self.joint.solver, members);
        }
        self.accepted.push(d);
        self.diagnoses.len() >= engine.options().max_diagnoses
    }
}

/// The witnesses to replay on a test of path group `g` before solving: the
/// last three found on its path, else `fallback` (one of the first path's).
fn replays(
    groups: &BTreeMap<usize, Vec<Witness>>,
    g: usize,
    fallback: Option<&Witness>,
) -> Vec<Witness> {
    match groups.get(&g) {
        Some(v) if !v.is_empty() => v.iter().rev().take(3).cloned().collect(),
        _ => fallback.into_iter().cloned().collect(),
    }
}

/// `order` with the tests whose failing runs are much shorter first (by
/// the number of bits of their step counts: a run at least twice as short
/// as another comes before it; within a length, `order`'s order). A
/// single statement is refuted by the first test it does not explain, and
/// a focused formula grows with its run: `bubblesort`'s checks refuted
/// statements on `5 4 3 2 1` where `2 1` refutes them as well, in a fifth
/// of the time. A statement that explains every test is checked on every
/// one either way.
fn shorter_runs_first(engine: &Engine, mut order: Vec<usize>) -> Vec<usize> {
    let runs = &engine.session().runs;
    order.sort_by_key(|&t| u64::BITS - runs[t].execution.steps.leading_zeros());
    order
}

/// What the rest of a pass of single-statement checks must be expected to
/// cost ([`Engine::cost_spent`]: units of encoding work, deterministic) for
/// the rest to be shared with a helper engine on the second core
/// ([`Search::check_singles`]): about half a second (over the course
/// benchmark and IntroClass the checks take 1 to 7 µs per unit of their
/// encodings' work). Where they cost less (most of IntroClass, TCAS), a
/// second engine's context and encodings (about 20 ms) cost about what it
/// saves, and changing the engine's solver history for the search that
/// follows is a gamble: IntroClass `digits/dc11fbc9-000`, whose
/// single-statement checks take 0.12 s, went from 10 to 15 s when its last
/// ones were shared.
const PARALLEL_COST: u64 = 125_000;

/// A pass of single-statement checks ([`Search::singles_first`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Pass {
    /// Focused formulas on the runs' paths.
    OnPath,
    /// Predicate switching and value replacement alone ([`Check::Switched`]).
    Switched,
    /// The engine's own focused formulas.
    Focused,
}

impl Pass {
    /// How the pass checks a test (angelic values polished with `polish`).
    fn check(self, polish: bool) -> Check {
        match self {
            Pass::OnPath => Check::Focused {
                polish,
                on_path: true,
            },
            Pass::Switched => Check::Switched,
            Pass::Focused => Check::Focused {
                polish,
                on_path: false,
            },
        }
    }
}

/// Statement `s` alone checked on every failing test as `pass` checks, in
/// `order` (angelic values polished with `polish`); `known`: the tests it
/// already explains.
fn single_verdict(
    engine: &mut Engine,
    order: &[usize],
    s: StmtId,
    pass: Pass,
    polish: bool,
    known: &mut BTreeMap<usize, Explained>,
) -> Result<Verdict<Vec<Angelic>>, Incomplete> {
    let d = BTreeSet::from([s]);
    engine.explain_each_with(order, &d, pass.check(polish), known)
}

/// A statement's verdict, checked but not settled, with the tests it
/// explains.
struct Checked {
    s: StmtId,
    verdict: Result<Verdict<Vec<Angelic>>, Incomplete>,
    known: BTreeMap<usize, Explained>,
    /// Whether it was checked (else a limit came first).
    reached: bool,
}

/// A statement to check, with its position among the candidates and the
/// tests it already explains.
type ToCheck = (usize, StmtId, BTreeMap<usize, Explained>);

/// One engine's share of [`Search::check_shared`] (each statement with its
/// position among the candidates): each statement's verdict in turn, up to
/// the first limit. Angelic values are polished while fewer than
/// [`POLISHED`] diagnoses are known: the `polished` found before and those
/// this engine found since.
fn check_side(
    engine: &mut Engine,
    order: &[usize],
    jobs: Vec<ToCheck>,
    pass: Pass,
    polished: usize,
) -> Vec<(usize, Checked)> {
    let mut out = Vec::with_capacity(jobs.len());
    let mut found = 0;
    let mut stopped: Option<Incomplete> = None;
    for (i, s, mut known) in jobs {
        // After a limit, the statements left keep what they explained
        // (see `Search::collect_unconfirmed`), with the limit as verdict.
        if let Some(inc) = &stopped {
            out.push((
                i,
                Checked {
                    s,
                    verdict: Err(inc.clone()),
                    known,
                    reached: false,
                },
            ));
            continue;
        }
        let polish = polished + found < POLISHED;
        let verdict = single_verdict(engine, order, s, pass, polish, &mut known);
        if let Err(inc) = &verdict {
            stopped = Some(inc.clone());
        }
        found += usize::from(matches!(verdict, Ok(Verdict::Explained(_))));
        out.push((
            i,
            Checked {
                s,
                verdict,
                known,
                reached: true,
            },
        ));
    }
    out
}
