//! The engine: what every method asks for while it localizes. It owns the
//! bounds, the deadline and memory limit, the statistics, notes and skipped
//! tests, and each failing test's own formula (for validating candidates);
//! it encodes tests, replays witnesses, solves, and polishes angelic values.
//!
//! The engine calls no method and no combination: they call it.

mod focused;
mod helper;

pub use helper::{Helper, Job};

use crate::angelic::angelic_values;
use crate::mcs::{Mcs, McsEnumerator, McsOptions, Order, Stop};
use crate::options::Options;
use crate::result::{Angelic, Diagnosis, Incomplete, Localization, Ranked, Stats};
use crate::session::{Progress, Session};
use crate::witness::{Replay, Witness};
use faultline_exec::budget::{Budget, Exhausted};
use faultline_exec::suite::TestCase;
use faultline_exec::trace::Scope;
use faultline_exec::Executable;
use faultline_exec::{ErrorKind, Termination};
use faultline_ir::{Branch, Insertion, StmtId, StmtKind};
use faultline_smt::limits::{self, Stopped};
use faultline_smt::sym::{SInt, SVal};
use faultline_smt::{
    encode_test, AbVars, Bounds, BranchPolicy, Encoding, InstValue, IntSemantics, RelaxedInstance,
    Sink, TestEncoding, TracePolicy,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::{Model, Params, SatResult, Solver};

/// How many diagnoses (per test, for per-test methods) get polished angelic
/// values: the first ones, which people read. Each polish costs a handful of
/// solver calls that are often harder than the enumeration's own (TCAS v2,
/// `full`: 0.63 s unpolished, 1.0 s with 10 polished diagnoses).
pub const POLISHED: usize = 10;

/// A failing test's own formula (one solver each), for validating candidate
/// diagnoses when no witness replays, and for their angelic values.
struct Single {
    solver: Solver,
    enc: TestEncoding,
    ab: AbVars,
}

/// A test explained by a diagnosis: its angelic values, and the witness
/// read from its own formula when one was solved.
#[derive(Clone, Debug)]
pub struct Explained {
    pub angelic: Vec<Angelic>,
    pub witness: Option<Witness>,
}

/// How a test is checked for a candidate when no witness replays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// On the test's own formula (every statement relaxable), without limit.
    Own,
    /// On the test's formula *focused* on the candidate (only its statements
    /// relaxable), within the effort limit ([`Options::effort`]); angelic
    /// values polished when `polish`. With `on_path`, the focused formula
    /// follows the run's path (the `trace` encoding whatever the engine's):
    /// its models are runs of the program, so what it explains the engine's
    /// formula explains too, but a fix that changes the path is refuted
    /// there; a check that cannot be made on the path is undecided, with
    /// nothing noted.
    Focused { polish: bool, on_path: bool },
    /// By re-execution alone (predicate switching and value replacement,
    /// [`crate::switch::switch_search`], a single statement with `full`):
    /// explained by a switched run that passes, refuted where the statement
    /// cannot change the run (it did not run), else undecided: a pass before
    /// the focused formulas, which span every path the statement may open.
    Switched,
}

/// Units of encoding work ([`limits::tick`]) a focused formula may take per
/// step of the test's run (see [`Engine::focused_work_cap`]). Measured
/// (`FAULTLINE_PROFILE`, stop 38): no focused check of a run of more than
/// 200 steps that decided took more than 10 units per step over IntroClass,
/// 33 over six Siemens versions; those that reached the bound were
/// undecided, at 1 to 7 s each.
pub const FOCUSED_WORK_PER_STEP: u64 = 50;

/// The least work bound of a focused formula. Measured likewise: the
/// largest focused formula that decided took 19,076 units over IntroClass,
/// 32,380 over the course benchmark (`matmul`), 22,818 over six Siemens
/// versions; at 300,000, the bound cost `tot_info` v1 0.5 s per statement
/// that reached it, 35 of them within its 20 s.
pub const FOCUSED_WORK_MIN: u64 = 60_000;

/// What checking a candidate found.
#[derive(Debug)]
pub enum Verdict<T> {
    /// Relaxing the candidate makes the test(s) pass.
    Explained(T),
    /// It does not.
    Refuted,
    /// The solver's effort limit was reached first.
    Undecided,
}

/// What a limited check decided.
enum Decided {
    Sat(Model),
    Unsat,
    Undecided,
}

/// How long a check with nonlinear real arithmetic may run, with an effort
/// limit ([`Engine::check_forked`]): about what the effort limit allows the
/// checks Z3 does stop (`tot_info` v23's cheaper checks: the slowest ended
/// at the limit in 1.9 s).
const NONLINEAR_CHECK_BOUND: Duration = Duration::from_secs(2);

/// Most re-executions spent on simplifying one witness's values.
const MAX_SIMPLIFY_REPLAYS: usize = 200;

/// Shared machinery: bounds, deadline, encoding and validation of tests.
pub struct Engine<'s, 'p> {
    session: &'s Session<'p>,
    options: Options,
    /// The encoding of the engine's own formulas (validation, replay paths).
    encoding: Encoding,
    /// Soft clause weights (clause weighting); `None` means cardinality.
    weights: Option<HashMap<StmtId, u64>>,
    bounds: Bounds,
    /// The time and memory of the job (the thread's current budget, or one
    /// made from the options).
    budget: Budget,
    /// The budget's scope, when the engine made the budget.
    _scope: Option<limits::Scope>,
    stats: Stats,
    notes: Vec<String>,
    skipped: Vec<(usize, String)>,
    /// Tests on which a focused check could not be encoded (noted once).
    unencodable: BTreeSet<usize>,
    /// Tests whose formula with nothing relaxable was built ([`Engine::encodable`]).
    encodable: BTreeSet<usize>,
    /// The statements of focused checks that could not be encoded.
    unencoded: BTreeSet<StmtId>,
    /// The statements and tests for which predicate switching or value
    /// replacement found no witness ([`crate::switch::switch_search`]):
    /// not searched again.
    unswitched: BTreeSet<(StmtId, usize)>,
    /// The work bound of the next encoding ([`limits::capped`]), taken by it.
    work_cap: Option<u64>,
    /// Whether the last encoding reached its work bound.
    capped: bool,
    /// Each test's own formula (ordered, so its terms are released in a
    /// fixed order: Z3 reuses released ids, which orders its search).
    singles: BTreeMap<usize, Single>,
    /// Whether formulas are pure bit-vector (Z3's finite-domain solver applies).
    finite: bool,
    exe: Executable<'p>,
    /// Path signature of each failing test (equal ids: same branch decisions).
    signature: HashMap<usize, usize>,
    /// Formulas built (for progress).
    encoded: usize,
    /// The work of focused formulas' encodings ([`Engine::cost_spent`]).
    work_spent: u64,
}

impl<'s, 'p> Engine<'s, 'p> {
    /// An engine whose own formulas use `encoding`, enumerating by cardinality.
    pub fn new(session: &'s Session<'p>, options: Options, encoding: Encoding) -> Engine<'s, 'p> {
        // The memory limit is the process's resident memory, measured by the
        // budget (in long loops, and by a watchdog that interrupts Z3), not
        // Z3's own `memory_max_size`: that one is global to the process and
        // leaves Z3 unusable once reached.
        let finite = options.int_semantics == IntSemantics::BitVector
            && !faultline_ir::analysis::uses_floats(session.prog);
        let (budget, scope) = match Budget::current() {
            Some(b) => (b, None),
            None => {
                let b = Budget::new(options.timeout, options.max_memory);
                let scope = limits::enter(&b);
                (b, Some(scope))
            }
        };
        let needs = session.needs();
        let bounds = needs.bounds(options.unwind);
        let mut notes = Vec::new();
        for t in session.cut_runs() {
            notes.push(format!(
                "test {} did not end within the interpreter's limits; its formula unrolls each loop it was in as often as the other failing tests needed and at least {} times, and the solver chooses when the loop ends",
                session.tests[t].name,
                crate::session::CUT_UNWIND
            ));
        }
        if let Some(cap) = options.unwind {
            for over in needs.over(session.prog, cap) {
                notes.push(format!("a failing run needs more than --unwind {cap}: {over}; paths beyond the bound are excluded"));
            }
        }
        Engine {
            session,
            options,
            encoding,
            weights: None,
            bounds,
            budget,
            _scope: scope,
            stats: Stats {
                run_time: session.run_time,
                ..Stats::default()
            },
            notes,
            skipped: Vec::new(),
            unencodable: BTreeSet::new(),
            encodable: BTreeSet::new(),
            unencoded: BTreeSet::new(),
            unswitched: BTreeSet::new(),
            work_cap: None,
            capped: false,
            singles: BTreeMap::new(),
            finite,
            exe: Executable::new(session.prog).expect("the program ran before"),
            signature: session.path_signatures(),
            encoded: 0,
            work_spent: 0,
        }
    }

    /// The same engine enumerating by total clause weight (`Some`), or by
    /// cardinality (`None`).
    pub fn weighted(mut self, weights: Option<HashMap<StmtId, u64>>) -> Engine<'s, 'p> {
        self.weights = weights;
        self
    }

    /// Whether the engine enumerates by clause weight.
    pub fn is_weighted(&self) -> bool {
        self.weights.is_some()
    }

    pub fn session(&self) -> &'s Session<'p> {
        self.session
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The encoding of the engine's own formulas.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The program, ready to run (hijacked and perturbed runs).
    pub fn exe(&self) -> &Executable<'p> {
        &self.exe
    }

    /// The path signature of failing test `t`: tests with equal signatures
    /// took the same branch decisions.
    pub fn path(&self, t: usize) -> Option<usize> {
        self.signature.get(&t).copied()
    }

    /// Number of distinct paths of the failing tests.
    pub fn paths(&self) -> usize {
        let mut seen = BTreeSet::new();
        self.session
            .failing
            .iter()
            .filter(|t| seen.insert(self.path(**t)))
            .count()
    }

    /// A fresh solver: Z3's SAT-based finite-domain solver for pure
    /// bit-vector formulas (an order of magnitude faster on them), else the
    /// default solver.
    pub fn solver(&self) -> Solver {
        if self.finite {
            if let Some(s) = Solver::new_for_logic("QF_FD") {
                return s;
            }
        }
        Solver::new()
    }

    /// Time left before the deadline (`None`: no time limit).
    pub fn time_left(&self) -> Option<Duration> {
        self.budget.time_left()
    }

    pub fn timed_out(&self) -> bool {
        self.limit_hit() == Some(Incomplete::Timeout)
    }

    /// The limit that has been hit, if any: time, memory (the session's, the
    /// budget's), or Z3 failing on this thread.
    pub fn limit_hit(&self) -> Option<Incomplete> {
        if let Some(e) = self.session.incomplete.or_else(|| self.budget.check()) {
            return Some(incomplete_of_exhausted(e));
        }
        limits::failure().map(|f| {
            if f.memory {
                Incomplete::Memory
            } else {
                Incomplete::Solver(f.message)
            }
        })
    }

    /// Why a solver query or an enumeration stopped: the limit hit, if
    /// any (Z3's own reason is then a consequence), else the reason given.
    fn stop_reason(&self, stop: Stop) -> Incomplete {
        self.limit_hit().unwrap_or_else(|| incomplete_of(stop))
    }

    /// Why guarded work stopped, as a result's incompleteness.
    fn stopped(&self, s: Stopped) -> Incomplete {
        match s {
            Stopped::Budget(e) => incomplete_of_exhausted(e),
            Stopped::Solver(m) => self.stop_reason(Stop::Unknown(m)),
        }
    }

    // ----- statistics, notes, progress -------------------------------------

    /// Counts solver calls made outside the engine (an enumerator's, a check's).
    pub fn count_solver_calls(&mut self, calls: u64) {
        self.stats.solver_calls += calls;
    }

    /// Counts solving time spent outside the engine.
    pub fn count_solve_time(&mut self, time: Duration) {
        self.stats.solve_time += time;
    }

    /// Counts a test formula built for a method (per-test formulas).
    pub fn count_test_encoded(&mut self) {
        self.stats.tests_encoded += 1;
    }

    /// Bounds the next encoding to `cap` units of work ([`limits::capped`]);
    /// one that reaches it fails, and [`Engine::take_outgrown`] says so.
    pub fn set_work_cap(&mut self, cap: Option<u64>) {
        self.work_cap = cap;
    }

    /// Whether the last encoding reached its work bound (the flag is reset).
    pub fn take_outgrown(&mut self) -> bool {
        std::mem::take(&mut self.capped)
    }

    /// Sets the number of tests in a joint formula (`mbd`).
    pub fn set_tests_encoded(&mut self, n: usize) {
        self.stats.tests_encoded = n;
    }

    /// Counts search iterations (enumeration rounds, expansions).
    pub fn count_iterations(&mut self, n: usize) {
        self.stats.iterations += n;
    }

    /// Counts single-statement checks made by a helper engine.
    pub fn count_helper_checks(&mut self, n: usize) {
        self.stats.helper_checks += n;
    }

    /// Counts a test whose MCSes were confirmed from a test on its path.
    pub fn count_reused(&mut self) {
        self.stats.tests_reused += 1;
    }

    /// Adds a note for the report (once).
    pub fn note(&mut self, note: String) {
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    /// Reports the diagnoses found so far.
    pub fn found(&self, diagnoses: &[Diagnosis]) {
        if let Some(p) = &self.options.progress {
            (p.0)(Progress::Diagnoses(diagnoses));
        }
    }

    /// The localization of a method that started at `start`: its name,
    /// diagnoses, ranking and incompleteness, with the engine's statistics,
    /// notes and skipped tests.
    pub fn into_localization(
        self,
        method: String,
        diagnoses: Vec<Diagnosis>,
        ranking: Vec<Ranked>,
        incomplete: Option<Incomplete>,
        start: Instant,
    ) -> Localization {
        // A limit hit anywhere (an encoding it stopped, say) leaves the
        // search incomplete, whatever the strategy reported.
        let incomplete = incomplete.or_else(|| self.limit_hit());
        let mut stats = self.stats;
        stats.total_time = start.elapsed() + self.session.run_time;
        Localization {
            method,
            tests: self.session.verdicts(),
            failing: self.session.failing.clone(),
            skipped: self.skipped,
            diagnoses,
            ranking,
            incomplete,
            notes: self.notes,
            stats,
        }
    }

    // ----- encoding ----------------------------------------------------------

    /// Encodes test `t` in the engine's encoding (on the failing run's path
    /// for `trace`); failures are recorded as skipped tests.
    pub fn encode(&mut self, t: usize, sink: &Sink, ab: &mut AbVars) -> Option<TestEncoding> {
        let mut policy = self.trace_policy(t);
        self.encode_with(
            t,
            sink,
            ab,
            self.encoding,
            policy.as_mut().map(|p| p as &mut dyn BranchPolicy),
        )
    }

    /// Test `t` in the cheaper theory ([`faultline_smt::approx`]: unbounded
    /// integers, floating point as reals), asserted into `solver` (one that
    /// is not the finite-domain solver), for `mbd`'s joint formula where
    /// the exact one is slow ([`crate::combine::mbd`]). `None` when the
    /// test cannot be encoded so or a term has no translation: nothing is
    /// recorded against the test, whose exact formula may still do.
    pub fn encode_cheap(
        &mut self,
        t: usize,
        solver: &Solver,
        ab: &mut AbVars,
    ) -> Option<TestEncoding> {
        let cheap = Sink::collecting();
        let mut policy = self.trace_policy(t);
        let enc = self
            .encode_case_sem(
                self.session.formula_test(t),
                &cheap,
                ab,
                self.encoding,
                policy.as_mut().map(|p| p as &mut dyn BranchPolicy),
                IntSemantics::Math,
            )
            .ok()?;
        faultline_smt::approx::assert_reals(&cheap.assertions(), solver, false)?;
        Some(enc)
    }

    /// In `trace`, the policy that follows test `t`'s recorded run.
    fn trace_policy(&self, t: usize) -> Option<TracePolicy> {
        self.trace_policy_in(t, self.encoding)
    }

    /// The policy of test `t`'s formula in `encoding`: in `trace`, the one
    /// that follows its recorded run.
    fn trace_policy_in(&self, t: usize, encoding: Encoding) -> Option<TracePolicy> {
        match (encoding, self.session.traces.get(&t)) {
            (Encoding::Trace, Some(tr)) => Some(TracePolicy::new(tr)),
            _ => None,
        }
    }

    /// Encodes test `t` in `encoding` with a branch policy (on-demand
    /// formulas); failures are recorded as skipped tests.
    pub fn encode_with(
        &mut self,
        t: usize,
        sink: &Sink,
        ab: &mut AbVars,
        encoding: Encoding,
        policy: Option<&mut dyn BranchPolicy>,
    ) -> Option<TestEncoding> {
        let session = self.session;
        let r = self.encode_case_with(session.formula_test(t), sink, ab, encoding, policy);
        self.encoded += 1;
        if let Some(p) = &self.options.progress {
            (p.0)(Progress::TestsEncoded {
                done: self.encoded,
                total: self.session.failing.len(),
            });
        }
        match r {
            Ok(enc) => Some(enc),
            // A limit is not the test's fault: the search stops instead;
            // nor is a work bound, which the caller set.
            Err(_) if self.limit_hit().is_some() || self.capped => None,
            Err(e) => {
                self.skip(t, e);
                None
            }
        }
    }

    /// Encodes a test case that is not one of the session's tests as given
    /// (MDFS's variant of a failing test without its expected output), with
    /// the engine's bounds and integer semantics; counted in the statistics.
    pub fn encode_case(
        &mut self,
        test: &TestCase,
        sink: &Sink,
        ab: &mut AbVars,
        encoding: Encoding,
    ) -> Result<TestEncoding, String> {
        self.count_test_encoded();
        self.encode_case_with(test, sink, ab, encoding, None)
    }

    /// Encodes `test` with the engine's bounds and integer semantics: the
    /// time, the statement instances and the encoder's notes are recorded;
    /// an error is described for the user.
    fn encode_case_with(
        &mut self,
        test: &TestCase,
        sink: &Sink,
        ab: &mut AbVars,
        encoding: Encoding,
        policy: Option<&mut dyn BranchPolicy>,
    ) -> Result<TestEncoding, String> {
        let sem = self.options.int_semantics;
        self.encode_case_sem(test, sink, ab, encoding, policy, sem)
    }

    /// [`Engine::encode_case_with`] in integer semantics `sem`.
    fn encode_case_sem(
        &mut self,
        test: &TestCase,
        sink: &Sink,
        ab: &mut AbVars,
        encoding: Encoding,
        policy: Option<&mut dyn BranchPolicy>,
        sem: IntSemantics,
    ) -> Result<TestEncoding, String> {
        let start = Instant::now();
        let prog = self.session.prog;
        let bounds = &self.bounds;
        let cap = self.work_cap.take();
        self.capped = false;
        let r = limits::guard(|| match cap {
            Some(c) => limits::capped(c, || {
                encode_test(prog, test, encoding, sem, bounds, policy, ab, sink)
            }),
            None => Some(encode_test(
                prog, test, encoding, sem, bounds, policy, ab, sink,
            )),
        });
        self.stats.encode_time += start.elapsed();
        let enc = match r {
            Ok(Some(r)) => r.map_err(|e| e.describe(prog))?,
            Ok(None) => {
                self.capped = true;
                return Err("the formula reached its work bound".into());
            }
            Err(s) => return Err(self.stopped(s).describe()),
        };
        self.stats.statement_instances += enc.instances;
        for n in &enc.notes {
            self.note(n.clone());
        }
        Ok(enc)
    }

    /// Records that test `t` could not be used, and why.
    pub fn skip(&mut self, t: usize, reason: String) {
        if !self.is_skipped(t) {
            self.skipped.push((t, reason));
        }
    }

    pub fn is_skipped(&self, t: usize) -> bool {
        self.skipped.iter().any(|(s, _)| *s == t)
    }

    /// Encodes test `t` into its own solver (once).
    fn single(&mut self, t: usize) -> bool {
        if self.singles.contains_key(&t) {
            return true;
        }
        if self.is_skipped(t) {
            return false;
        }
        let solver = self.solver();
        let mut ab = AbVars::new();
        match self.encode(t, &Sink::new(&solver), &mut ab) {
            Some(enc) => {
                self.singles.insert(t, Single { solver, enc, ab });
                true
            }
            None => false,
        }
    }

    // ----- solving -----------------------------------------------------------

    /// The MCS options of this engine (bounds, deadline, order by weight
    /// when clause weights are set).
    pub fn mcs_options(&self) -> McsOptions {
        McsOptions {
            max_size: self.options.max_size,
            max_count: self.options.max_diagnoses,
            deadline: self.budget.deadline(),
            order: if self.weights.is_some() {
                Order::Weight
            } else {
                Order::Cardinality
            },
        }
    }

    /// A new MCS enumerator with the engine's options.
    pub fn enumerator(&self) -> McsEnumerator {
        McsEnumerator::new(self.mcs_options())
    }

    /// The next MCS of `en` on `solver` (solving time counted; solver calls
    /// are counted when the caller is done with `en`).
    pub fn next_mcs(
        &mut self,
        en: &mut McsEnumerator,
        solver: &Solver,
    ) -> Result<Option<Mcs>, Incomplete> {
        self.query(|| en.next(solver))
    }

    /// Whether `en` has no unblocked correction set left (see
    /// [`McsEnumerator::exhausted`]; counted like [`Engine::next_mcs`]).
    pub fn mcs_exhausted(
        &mut self,
        en: &mut McsEnumerator,
        solver: &Solver,
    ) -> Result<bool, Incomplete> {
        self.query(|| en.exhausted(solver))
    }

    /// Runs an enumerator query under the limits' guard, its time counted.
    fn query<T>(&mut self, q: impl FnOnce() -> Result<T, Stop>) -> Result<T, Incomplete> {
        let t0 = Instant::now();
        let r = limits::guard(q);
        self.stats.solve_time += t0.elapsed();
        match r {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(stop)) => Err(self.stop_reason(stop)),
            Err(s) => Err(self.stopped(s)),
        }
    }

    /// Statement `s`'s soft-clause weight (1 without clause weighting).
    /// The program's insertions (statements missing from the source).
    pub fn insertions(&self) -> BTreeSet<StmtId> {
        let prog = self.session.prog;
        (0..prog.stmts.len())
            .map(|i| StmtId(i as u32))
            .filter(|s| prog.stmt(*s).kind == StmtKind::Insert)
            .collect()
    }

    /// Whether statement `s` is an insertion (relaxed alone, see
    /// [`crate::formula::Softs::sync`]).
    pub fn is_insertion(&self, s: StmtId) -> bool {
        self.session.prog.stmt(s).kind == StmtKind::Insert
    }

    pub fn weight(&self, s: StmtId) -> u64 {
        self.weights
            .as_ref()
            .and_then(|w| w.get(&s).copied())
            .unwrap_or(1)
            .max(1)
    }

    /// Sets `solver`'s time limit to the deadline's and its deterministic
    /// effort limit (Z3's resource units per query; `None`: none); false
    /// when the deadline has passed.
    fn set_limits(&self, solver: &Solver, effort: Option<u32>) -> bool {
        let mut p = Params::new();
        p.set_u32("rlimit", effort.unwrap_or(0));
        match self.budget.deadline() {
            Some(d) => {
                let left = d.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return false;
                }
                p.set_u32(
                    "timeout",
                    left.as_millis().clamp(1, u32::MAX as u128) as u32,
                );
            }
            None => p.set_u32("timeout", u32::MAX),
        }
        solver.set_params(&p);
        true
    }

    /// Solves `solver` under `assumptions`: its model, `None` if
    /// unsatisfiable or unknown (call and time counted).
    pub fn model_under(&mut self, solver: &Solver, assumptions: &[Bool]) -> Option<Model> {
        let t0 = Instant::now();
        let r = limits::guard(|| match solver.check_assumptions(assumptions) {
            SatResult::Sat => solver.get_model(),
            _ => None,
        });
        self.stats.solve_time += t0.elapsed();
        self.stats.solver_calls += 1;
        crate::profile::log(
            || "model".to_string(),
            if matches!(r, Ok(Some(_))) {
                "sat"
            } else {
                "other"
            },
            t0.elapsed(),
        );
        r.ok().flatten()
    }

    // ----- validation --------------------------------------------------------

    /// Re-executes test `t` with a witness (see [`crate::witness`]), on the
    /// failing run's path for `trace`.
    pub fn replay(&mut self, t: usize, w: &Witness) -> Replay {
        let path: Option<Vec<(StmtId, Vec<Scope>, Branch)>> =
            match (self.encoding, self.session.traces.get(&t)) {
                (Encoding::Trace, Some(tr)) => Some(
                    tr.decisions()
                        .map(|(i, b)| (i.stmt, tr.contexts.chain(i.ctx), b))
                        .collect(),
                ),
                _ => None,
            };
        crate::witness::replay(
            self.session.prog,
            &self.exe,
            &self.session.tests[t],
            t,
            w,
            &self.bounds,
            self.session.replay_limits(),
            self.session.compare,
            path.as_deref(),
        )
    }

    /// Solves test `t`'s own formula with exactly the statements of `d`
    /// relaxed: its model, `None` if unsatisfiable.
    pub fn check_single(
        &mut self,
        t: usize,
        d: &BTreeSet<StmtId>,
    ) -> Result<Option<Model>, Incomplete> {
        if !self.single(t) {
            return Ok(None);
        }
        // Out of the map while solving, which needs the engine.
        let single = self.singles.remove(&t).expect("encoded");
        let r = self.check_within(&single.solver, &single.ab.relaxing_exactly(d), None, "own");
        self.singles.insert(t, single);
        match r? {
            Decided::Sat(m) => Ok(Some(m)),
            _ => Ok(None),
        }
    }

    /// Solves `solver` under `assumptions` within the deadline and a solver
    /// effort limit (Z3's deterministic resource units; `None`: none).
    fn check_within(
        &mut self,
        solver: &Solver,
        assumptions: &[Bool],
        effort: Option<u32>,
        what: &str,
    ) -> Result<Decided, Incomplete> {
        if !self.set_limits(solver, effort) {
            return Err(Incomplete::Timeout);
        }
        let used_before = crate::profile::effort_count(solver);
        let start = Instant::now();
        let r = limits::guard(|| match solver.check_assumptions(assumptions) {
            SatResult::Sat => Ok(solver.get_model()),
            SatResult::Unsat => Ok(None),
            SatResult::Unknown => Err(solver.get_reason_unknown().unwrap_or_default()),
        });
        self.stats.solve_time += start.elapsed();
        self.stats.solver_calls += 1;
        crate::profile::log(
            || {
                let used = crate::profile::effort_count(solver).saturating_sub(used_before);
                let why = match &r {
                    Ok(Err(reason)) => format!(": {reason}"),
                    _ => String::new(),
                };
                format!(
                    "check {what} ({} assumptions, {used:.0} effort){why}",
                    assumptions.len()
                )
            },
            match &r {
                Ok(Ok(Some(_))) => "sat",
                Ok(Ok(None)) => "unsat",
                _ => "unknown",
            },
            start.elapsed(),
        );
        match r {
            Ok(Ok(Some(m))) => Ok(Decided::Sat(m)),
            Ok(Ok(None)) => Ok(Decided::Unsat),
            Ok(Err(_)) if effort.is_some() && self.limit_hit().is_none() => Ok(Decided::Undecided),
            Ok(Err(reason)) => Err(self.stop_reason(Stop::Unknown(reason))),
            Err(s) => Err(self.stopped(s)),
        }
    }

    /// Like [`Engine::check_within`], for a formula with nonlinear real
    /// arithmetic (`shape`), which Z3 may not stop
    /// ([`faultline_smt::forked`]): checked in a child process that is
    /// killed after [`NONLINEAR_CHECK_BOUND`] (with an effort limit) or at
    /// the deadline; a model comes back as its constants' values (the model
    /// made of them gives every term the child's model gives it).
    fn check_forked(
        &mut self,
        solver: &Solver,
        assumptions: &[Bool],
        shape: &faultline_smt::forked::Shape,
        effort: Option<u32>,
        what: &str,
    ) -> Result<Decided, Incomplete> {
        use faultline_smt::forked::{self, Forked};
        if !self.set_limits(solver, effort) {
            return Err(Incomplete::Timeout);
        }
        let left = self
            .budget
            .deadline()
            .map(|d| d.saturating_duration_since(Instant::now()));
        let bound = match effort {
            Some(_) => left.map_or(NONLINEAR_CHECK_BOUND, |l| l.min(NONLINEAR_CHECK_BOUND)),
            None => left.unwrap_or(Duration::MAX),
        };
        let start = Instant::now();
        let (r, peak_kib) = forked::check(solver, assumptions, &shape.consts, bound);
        self.stats.solve_time += start.elapsed();
        self.stats.solver_calls += 1;
        crate::profile::log(
            || {
                let why = match &r {
                    Forked::Unknown(reason) => format!(": {reason}"),
                    Forked::Stalled => format!(": not ended within {bound:?}"),
                    _ => String::new(),
                };
                format!(
                    "check {what} forked ({} assumptions, child peak {} MiB){why}",
                    assumptions.len(),
                    peak_kib / 1024
                )
            },
            match &r {
                Forked::Sat(_) => "sat",
                Forked::Unsat => "unsat",
                _ => "unknown",
            },
            start.elapsed(),
        );
        match r {
            Forked::Unsat => Ok(Decided::Unsat),
            Forked::Sat(values) => {
                let model = Model::new();
                for (c, v) in shape.consts.iter().zip(&values) {
                    model.add_const_interp(&z3::ast::Ast::decl(c), v);
                }
                Ok(Decided::Sat(model))
            }
            // As in [`Engine::check_within`]: undecided under an effort
            // limit, else the solver's stop.
            Forked::Unknown(_) | Forked::Stalled => match (self.limit_hit(), effort) {
                (Some(inc), _) => Err(inc),
                (None, Some(_)) => Ok(Decided::Undecided),
                (None, None) => Err(self.stop_reason(Stop::Unknown(match r {
                    Forked::Unknown(reason) => reason,
                    _ => "a check in a child process did not end".into(),
                }))),
            },
        }
    }

    /// Whether `d` explains test `t`, with its angelic values and, when a
    /// solver was needed, a witness for similar tests: first by replaying
    /// the given witnesses, then on the test's own formula.
    pub fn explain(
        &mut self,
        t: usize,
        d: &BTreeSet<StmtId>,
        witnesses: &[Witness],
    ) -> Result<Option<Explained>, Incomplete> {
        Ok(match self.explain_by(t, d, witnesses, Check::Own)? {
            Verdict::Explained(e) => Some(e),
            Verdict::Refuted | Verdict::Undecided => None,
        })
    }

    /// Whether `d` explains test `t`: first by replaying the given
    /// witnesses, then by `check`.
    pub fn explain_by(
        &mut self,
        t: usize,
        d: &BTreeSet<StmtId>,
        witnesses: &[Witness],
        check: Check,
    ) -> Result<Verdict<Explained>, Incomplete> {
        for w in witnesses {
            let r = self.replay(t, w);
            if r.explains {
                return Ok(Verdict::Explained(Explained {
                    angelic: r.angelic,
                    witness: None,
                }));
            }
        }
        match check {
            Check::Focused { .. } | Check::Switched => {
                let t0 = Instant::now();
                let (r, kind, on) = match check {
                    Check::Focused { polish, on_path } => {
                        let encoding = match on_path {
                            true => Encoding::Trace,
                            false => self.encoding,
                        };
                        let r = self.check_focused(t, d, polish, encoding);
                        let on = if on_path { " (on the path)" } else { "" };
                        (r, "focused", on)
                    }
                    // Re-execution does not watch the time limit: a pass
                    // over hundreds of tests would go on past it, each
                    // search undecided (its runs cut), and the search would
                    // end only at the command's backstop, its unconfirmed
                    // diagnoses lost.
                    _ => match self.limit_hit() {
                        Some(inc) => (Err(inc), "switched", ""),
                        None => (Ok(self.check_switched(t, d)), "switched", ""),
                    },
                };
                crate::profile::log(
                    || {
                        let lines: Vec<String> = d
                            .iter()
                            .map(|s| {
                                let info = self.session.prog.stmt(*s);
                                format!("{}:{:?}", info.loc.line, info.kind)
                            })
                            .collect();
                        format!("{kind} test {t}{on} on {}", lines.join(" "))
                    },
                    match &r {
                        Ok(Verdict::Explained(_)) => "explained",
                        Ok(Verdict::Refuted) => "refuted",
                        Ok(Verdict::Undecided) => "undecided",
                        Err(_) => "stopped",
                    },
                    t0.elapsed(),
                );
                r
            }
            Check::Own => Ok(match self.check_single(t, d)? {
                None => Verdict::Refuted,
                Some(model) => {
                    let single = self.singles.get(&t).expect("encoded");
                    Verdict::Explained(self.explained(t, &single.enc, &model, d))
                }
            }),
        }
    }

    /// What `model` of test `t`'s formula `enc` says of `d`: its angelic
    /// values and a witness for similar tests.
    fn explained(
        &self,
        t: usize,
        enc: &TestEncoding,
        model: &Model,
        d: &BTreeSet<StmtId>,
    ) -> Explained {
        let expected = &self.session.formula_test(t).expected_stdout;
        Explained {
            angelic: angelic_values(self.session, t, enc, model, d),
            witness: Some(Witness::from_model(enc, model, d, expected)),
        }
    }

    /// Test `t` re-executed with witness `w`, its values simplified by
    /// re-execution when `simplify` ([`Witness::simplified`]: a replay per
    /// change), else replayed as they are: the angelic values applied and
    /// the witness, or `None` when `w` does not replay.
    pub fn replayed(&mut self, t: usize, w: &Witness, simplify: bool) -> Option<Explained> {
        let t0 = Instant::now();
        let r = match simplify {
            true => w.simplified(|w| self.replay(t, w), MAX_SIMPLIFY_REPLAYS),
            false => Some((w.clone(), self.replay(t, w))).filter(|(_, r)| r.explains),
        }
        .map(|(w, r)| Explained {
            angelic: r.angelic,
            witness: Some(w),
        });
        crate::profile::log(
            || format!("replay test {t}"),
            if r.is_some() { "explains" } else { "fails" },
            t0.elapsed(),
        );
        r
    }

    /// Whether `d` is a correction set: every failing test's formula is
    /// satisfiable with exactly the statements of `d` relaxed (each test on
    /// its own formula, no witnesses). Tests that cannot be encoded count as
    /// unexplained. Used by brute-force checks.
    pub fn explains_all(&mut self, d: &BTreeSet<StmtId>) -> Result<bool, Incomplete> {
        for t in self.session.failing.clone() {
            if self.check_single(t, d)?.is_none() {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The statements that have a relaxation variable in some failing test's
    /// formula (the candidates of every diagnosis).
    pub fn relaxable(&mut self) -> BTreeSet<StmtId> {
        let mut out = BTreeSet::new();
        for t in self.session.failing.clone() {
            if self.single(t) {
                out.extend(self.singles[&t].ab.stmts().map(|(s, _)| s));
            }
        }
        out
    }

    /// Whether `d` explains each of the tests (skipped ones aside), and its
    /// angelic values on them: each test checked by `check` unless a witness
    /// of a test on its path replays; the first test not explained decides.
    pub fn explain_each(
        &mut self,
        tests: &[usize],
        d: &BTreeSet<StmtId>,
        check: Check,
    ) -> Result<Verdict<Vec<Angelic>>, Incomplete> {
        self.explain_each_known(tests, d, check, None)
    }

    /// Like [`Engine::explain_each`]; `known` holds tests that `d` was
    /// already found to explain by checks whose explanations hold for
    /// `check` too (a focused check on the run's path for a focused check
    /// of `full`: its models are runs of the program). They are not checked
    /// again; the tests this call explains are added to it.
    pub fn explain_each_with(
        &mut self,
        tests: &[usize],
        d: &BTreeSet<StmtId>,
        check: Check,
        known: &mut BTreeMap<usize, Explained>,
    ) -> Result<Verdict<Vec<Angelic>>, Incomplete> {
        self.explain_each_known(tests, d, check, Some(known))
    }

    /// [`Engine::explain_each_with`], with nothing kept when `known` is
    /// `None` (no explanation is copied).
    fn explain_each_known(
        &mut self,
        tests: &[usize],
        d: &BTreeSet<StmtId>,
        check: Check,
        mut known: Option<&mut BTreeMap<usize, Explained>>,
    ) -> Result<Verdict<Vec<Angelic>>, Incomplete> {
        let mut by_group: HashMap<usize, Vec<Witness>> = HashMap::new();
        let mut out = Vec::new();
        let mut checked = false;
        // Re-execution goes on past the tests it leaves undecided while the
        // statement has explained at least two tests and twice as many as it
        // left undecided (a search costs milliseconds; most statements
        // explain none and stop at their first test): a statement that
        // explains most failing tests is then known as such (an unconfirmed
        // diagnosis if the engine's formulas do not decide the others
        // either).
        let mut passed_over = 0usize;
        let mut explained = 0usize;
        for &t in tests {
            if self.is_skipped(t) {
                continue;
            }
            let g = self.path(t).unwrap_or(usize::MAX);
            let mut ws = by_group.remove(&g).unwrap_or_default();
            let verdict = match known.as_ref().and_then(|k| k.get(&t)) {
                Some(e) => Verdict::Explained(e.clone()),
                None => self.explain_by(t, d, &ws, check)?,
            };
            // A focused check that found the test's run unencodable has
            // left the test out: its verdict does not count.
            if self.is_skipped(t) {
                continue;
            }
            checked = true;
            match verdict {
                Verdict::Refuted => return Ok(Verdict::Refuted),
                Verdict::Undecided
                    if check == Check::Switched
                        && explained >= 2
                        && explained >= 2 * (passed_over + 1) =>
                {
                    passed_over += 1;
                }
                Verdict::Undecided => return Ok(Verdict::Undecided),
                Verdict::Explained(e) => {
                    explained += 1;
                    if let Some(k) = known.as_mut() {
                        k.entry(t).or_insert_with(|| e.clone());
                    }
                    out.extend(e.angelic);
                    ws.extend(e.witness);
                    by_group.insert(g, ws);
                }
            }
        }
        // No test to explain: nothing says `d` is a diagnosis.
        if !checked {
            return Ok(Verdict::Refuted);
        }
        if passed_over > 0 {
            return Ok(Verdict::Undecided);
        }
        Ok(Verdict::Explained(out))
    }

    // ----- readable angelic values ------------------------------------------

    /// Looks for a model of the same diagnosis whose angelic values read well:
    /// each relaxed integer instance keeps its computed value where it can, else
    /// takes a value in [-1, 1], else in [-100, 100], else any. Preferences are
    /// dropped as unsat cores name them (a handful of solver calls). Returns
    /// `None` (keep the model) if the solver gives up or the budget runs out.
    pub fn polish(
        &mut self,
        solver: &Solver,
        base: &[Bool],
        insts: &[&RelaxedInstance],
        d: &BTreeSet<StmtId>,
        model: &Model,
    ) -> Option<Model> {
        limits::guard(|| self.polish_unguarded(solver, base, insts, d, model))
            .ok()
            .flatten()
    }

    fn polish_unguarded(
        &mut self,
        solver: &Solver,
        base: &[Bool],
        insts: &[&RelaxedInstance],
        d: &BTreeSet<StmtId>,
        model: &Model,
    ) -> Option<Model> {
        let tiers = preference_tiers(solver, insts, d, model);
        if tiers.is_empty() {
            return None;
        }
        let mut level = vec![0usize; tiers.len()];
        for _ in 0..12 {
            if self.limit_hit().is_some() {
                return None;
            }
            let prefs: Vec<(usize, Bool)> = level
                .iter()
                .enumerate()
                .filter_map(|(i, &l)| tiers[i].get(l).map(|b| (i, b.clone())))
                .collect();
            let mut assumptions = base.to_vec();
            assumptions.extend(prefs.iter().map(|(_, b)| b.clone()));
            self.stats.solver_calls += 1;
            let t0 = Instant::now();
            let r = solver.check_assumptions(&assumptions);
            limits::note_z3_memory();
            self.stats.solve_time += t0.elapsed();
            crate::profile::log(|| "polish".to_string(), &format!("{r:?}"), t0.elapsed());
            match r {
                SatResult::Sat => return solver.get_model(),
                SatResult::Unknown => return None,
                SatResult::Unsat => {
                    let core = solver.get_unsat_core();
                    let mut moved = false;
                    for (i, b) in &prefs {
                        if core.iter().any(|c| c.ast_eq(b)) {
                            level[*i] += 1;
                            moved = true;
                        }
                    }
                    if !moved {
                        return None;
                    }
                }
            }
        }
        None
    }
}

/// Per relaxed integer instance of `d` active in `model`: its tiers of
/// preference for [`Engine::polish`], most preferred first, as fresh
/// literals asserted to imply them in `solver`.
fn preference_tiers(
    solver: &Solver,
    insts: &[&RelaxedInstance],
    d: &BTreeSet<StmtId>,
    model: &Model,
) -> Vec<Vec<Bool>> {
    let active = |inst: &&&RelaxedInstance| {
        d.contains(&inst.stmt)
            && model.eval(&inst.guard, true).and_then(|b| b.as_bool()) == Some(true)
    };
    // Instances per statement: a statement of an MCS changes some instance's
    // value in every model, so one executed once cannot keep its value.
    let mut count: BTreeMap<StmtId, usize> = BTreeMap::new();
    for inst in insts.iter().filter(active) {
        *count.entry(inst.stmt).or_default() += 1;
    }
    let mut tiers: Vec<Vec<Bool>> = Vec::new();
    for inst in insts.iter().filter(active) {
        // An argument keeps the value passed where it can (a fix changes one
        // argument, not all of them); no range is preferred for it.
        if let InstValue::Argument {
            chosen: SVal::Int(c),
            computed: SVal::Int(v),
            ..
        } = &inst.value
        {
            let lit = Bool::fresh_const("polish");
            solver.assert(lit.implies(c.eq(v)));
            tiers.push(vec![lit]);
        }
        if let InstValue::Scalar {
            chosen: SVal::Int(c),
            computed: SVal::Int(v),
        } = &inst.value
        {
            let sem = c.sem();
            let lo1 = SInt::constant(sem, c.kind, -1);
            let hi1 = SInt::constant(sem, c.kind, 1);
            let lo2 = SInt::constant(sem, c.kind, -100);
            let hi2 = SInt::constant(sem, c.kind, 100);
            let within = |lo: &SInt, hi: &SInt| {
                let a = faultline_smt::sym::compare(
                    faultline_ir::CmpOp::Ge,
                    &SVal::Int(c.clone()),
                    &SVal::Int(lo.clone()),
                );
                let b = faultline_smt::sym::compare(
                    faultline_ir::CmpOp::Le,
                    &SVal::Int(c.clone()),
                    &SVal::Int(hi.clone()),
                );
                match (a, b) {
                    (Ok(a), Ok(b)) => Some(Bool::and(&[&a.v.1, &b.v.1])),
                    _ => None,
                }
            };
            let mut t = Vec::new();
            if count[&inst.stmt] > 1 {
                t.push(c.eq(v));
            }
            if !c.kind.signed() {
                t.extend(within(&SInt::constant(sem, c.kind, 0), &hi1));
                t.extend(within(&SInt::constant(sem, c.kind, 0), &hi2));
            } else {
                t.extend(within(&lo1, &hi1));
                t.extend(within(&lo2, &hi2));
            }
            // Assumed as fresh literals: an assumption that is a term of
            // its own makes Z3's SAT-based solver preprocess it at every
            // call (TCAS v28: 300 ms a call, against 5 ms).
            let t = t
                .into_iter()
                .map(|pref| {
                    let lit = Bool::fresh_const("polish");
                    solver.assert(lit.implies(&pref));
                    lit
                })
                .collect();
            tiers.push(t);
        }
    }
    tiers
}

/// A budget's exhaustion as a result's incompleteness.
pub fn incomplete_of_exhausted(e: Exhausted) -> Incomplete {
    match e {
        Exhausted::Time => Incomplete::Timeout,
        Exhausted::Memory => Incomplete::Memory,
    }
}

/// Why an enumeration stopped, as a result's incompleteness.
fn incomplete_of(stop: Stop) -> Incomplete {
    match stop {
        Stop::Timeout => Incomplete::Timeout,
        Stop::Effort => Incomplete::Effort(0),
        Stop::Unknown(m) if m.contains("memory") => Incomplete::Memory,
        Stop::Unknown(m) => Incomplete::Solver(m),
    }
}

/// Whether statement set `d`, relaxed alone, certainly leaves failing test
/// `t` failing, by what its run did (no formula needed): an output
/// insertion only adds text, so the run's output must be a subsequence of
/// the expected one; a declaration without an initializer only matters
/// when the run read the variable uninitialized (in the interpreter, a
/// runtime error).
fn cannot_change_alone(session: &Session, t: usize, d: &BTreeSet<StmtId>) -> bool {
    let [s] = d.iter().copied().collect::<Vec<_>>()[..] else {
        return false;
    };
    let run = &session.runs[t].execution;
    match session.prog.stmt(s).kind {
        StmtKind::Insert => {
            session.prog.insertion(s) == Some(Insertion::Output)
                && !is_subsequence(&run.stdout, &session.formula_test(t).expected_stdout)
        }
        StmtKind::Declare => !matches!(
            &run.termination,
            Termination::RuntimeError(e) if e.kind == ErrorKind::UninitializedRead
        ),
        _ => false,
    }
}

/// Whether `a`'s bytes appear in `b` in order.
fn is_subsequence(a: &[u8], b: &[u8]) -> bool {
    let mut it = b.iter();
    a.iter().all(|c| it.any(|d| d == c))
}
