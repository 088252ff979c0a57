//! Formula-based localization: encode failing tests, enumerate MCSes, combine
//! tests (`mbd`, `setcombine`, `per-test`), read angelic values from models.

use crate::bounds::Needs;
use crate::mcs::{McsEnumerator, McsOptions, Order, Stop};
use crate::result::{
    Angelic, AngelicValue, Diagnosis, Incomplete, Localization, Ranked, Stats, TestVerdict,
};
use crate::witness::Witness;
use faultline_exec::trace::Trace;
use faultline_exec::{Compare, Executable, Limits, Run, RunOptions, TestCase};
use faultline_ir::{Program, StmtId};
use faultline_smt::{
    encode_test, AbVars, Bounds, Encoding, InstValue, IntSemantics, Sink, TestEncoding, TracePolicy,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::{Model, Params, SatResult, Solver};

/// How the failing tests are combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Combine {
    /// One formula over all failing tests sharing the relaxation variables:
    /// subset-minimal diagnoses consistent with every failing test (CFaults).
    Mbd,
    /// MCSes per test, combined by picking one per test and taking the union,
    /// removing duplicates and supersets (SNIPER).
    SetCombine,
    /// Each failing test's MCSes, unmerged.
    PerTest,
}

/// Settings of a localization.
#[derive(Clone, Debug)]
pub struct Options {
    pub encoding: Encoding,
    pub combine: Combine,
    pub max_size: usize,
    pub max_diagnoses: usize,
    pub timeout: Option<Duration>,
    pub unwind: Option<u32>,
    pub int_semantics: IntSemantics,
    pub compare: Compare,
    pub limits: Limits,
    /// Soft clause weights (clause weighting); `None` means cardinality.
    pub weights: Option<HashMap<StmtId, u64>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            encoding: Encoding::Full,
            combine: Combine::Mbd,
            max_size: 3,
            max_diagnoses: 100,
            timeout: None,
            unwind: None,
            int_semantics: IntSemantics::BitVector,
            compare: Compare::Exact,
            limits: Limits::default(),
            weights: None,
        }
    }
}

/// A program with its tests run: what every method starts from.
pub struct Session<'p> {
    pub prog: &'p Program,
    pub tests: &'p [TestCase],
    pub runs: Vec<Run>,
    /// Indices of failing tests.
    pub failing: Vec<usize>,
    /// Traces of the failing runs.
    pub traces: HashMap<usize, Trace>,
    pub run_time: Duration,
}

impl<'p> Session<'p> {
    /// Runs every test; failing ones are re-run with traces.
    pub fn new(
        prog: &'p Program,
        tests: &'p [TestCase],
        compare: Compare,
        limits: Limits,
    ) -> Result<Session<'p>, String> {
        let start = Instant::now();
        let exe = Executable::new(prog).map_err(|e| e.describe(prog))?;
        let plain = RunOptions {
            record_trace: false,
            limits,
            compare,
        };
        let traced = RunOptions {
            record_trace: true,
            limits,
            compare,
        };
        let mut runs = Vec::with_capacity(tests.len());
        let mut failing = Vec::new();
        let mut traces = HashMap::new();
        for (i, t) in tests.iter().enumerate() {
            let r = faultline_exec::run(&exe, t, &plain);
            if r.passed() {
                runs.push(r);
                continue;
            }
            let mut r = faultline_exec::run(&exe, t, &traced);
            if let Some(tr) = r.execution.trace.take() {
                traces.insert(i, tr);
            }
            failing.push(i);
            runs.push(r);
        }
        Ok(Session {
            prog,
            tests,
            runs,
            failing,
            traces,
            run_time: start.elapsed(),
        })
    }

    pub fn verdicts(&self) -> Vec<TestVerdict> {
        self.tests
            .iter()
            .zip(&self.runs)
            .map(|(t, r)| TestVerdict {
                name: t.name.clone(),
                passed: r.passed(),
                reason: match &r.verdict {
                    faultline_exec::Verdict::Pass => None,
                    faultline_exec::Verdict::Fail(f) => Some(f.describe(self.prog)),
                },
            })
            .collect()
    }

    /// What the failing runs needed (loop iterations, recursion depth).
    pub fn needs(&self) -> Needs {
        let mut n = Needs::default();
        for t in &self.failing {
            if let Some(tr) = self.traces.get(t) {
                n.merge(&Needs::of_trace(self.prog, tr));
            }
        }
        n
    }
}

/// Shared machinery: bounds, deadline, encoding and validation of tests.
pub struct Engine<'s, 'p> {
    pub session: &'s Session<'p>,
    pub options: Options,
    pub bounds: Bounds,
    pub deadline: Option<Instant>,
    pub stats: Stats,
    pub notes: Vec<String>,
    pub skipped: Vec<(usize, String)>,
    /// One solver holding tests' formulas under activation literals, for
    /// validating candidate diagnoses and reading their angelic values.
    validator: Validator,
    /// Whether formulas are pure bit-vector (Z3's finite-domain solver applies).
    finite: bool,
    pub exe: Executable<'p>,
    /// Path signature of each failing test (equal ids: same branch decisions).
    pub signature: HashMap<usize, usize>,
    pub replays: usize,
}

impl<'s, 'p> Engine<'s, 'p> {
    pub fn new(session: &'s Session<'p>, options: Options) -> Engine<'s, 'p> {
        let finite = options.int_semantics == IntSemantics::BitVector
            && !faultline_ir::analysis::uses_floats(session.prog);
        let deadline = options.timeout.map(|t| Instant::now() + t);
        let needs = session.needs();
        let bounds = needs.bounds(options.unwind);
        let mut notes = Vec::new();
        if let Some(cap) = options.unwind {
            for over in needs.over(cap) {
                notes.push(format!("a failing run needs more than --unwind {cap}: {over}; paths beyond the bound are excluded"));
            }
        }
        Engine {
            session,
            options,
            bounds,
            deadline,
            stats: Stats {
                run_time: session.run_time,
                ..Stats::default()
            },
            notes,
            skipped: Vec::new(),
            validator: Validator::default(),
            finite,
            exe: Executable::new(session.prog).expect("the program ran before"),
            signature: signatures(session),
            replays: 0,
        }
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

    pub fn timed_out(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Encodes test `t` into `solver`; failures are recorded as skipped tests.
    pub fn encode_into(&mut self, t: usize, sink: &Sink, ab: &mut AbVars) -> Option<TestEncoding> {
        let start = Instant::now();
        let prog = self.session.prog;
        let mut policy = match (self.options.encoding, self.session.traces.get(&t)) {
            (Encoding::Trace, Some(tr)) => Some(TracePolicy::new(tr)),
            _ => None,
        };
        let r = encode_test(
            prog,
            &self.session.tests[t],
            self.options.encoding,
            self.options.int_semantics,
            &self.bounds,
            policy
                .as_mut()
                .map(|p| p as &mut dyn faultline_smt::BranchPolicy),
            ab,
            sink,
        );
        self.stats.encode_time += start.elapsed();
        match r {
            Ok(enc) => {
                self.stats.statement_instances += enc.instances;
                for n in &enc.notes {
                    if !self.notes.contains(n) {
                        self.notes.push(n.clone());
                    }
                }
                Some(enc)
            }
            Err(e) => {
                if !self.skipped.iter().any(|(s, _)| *s == t) {
                    self.skipped.push((t, e.describe(prog)));
                }
                None
            }
        }
    }

    /// Adds the tests not yet in the validation solver, each under its own
    /// activation literal.
    fn validate_tests(&mut self, tests: &[usize]) {
        let missing: Vec<usize> = tests
            .iter()
            .copied()
            .filter(|t| !self.validator.encs.contains_key(t) && !self.is_skipped(*t))
            .collect();
        if missing.is_empty() {
            return;
        }
        let mut v = std::mem::take(&mut self.validator);
        let solver = v.solver.take().unwrap_or_else(|| self.solver());
        for t in missing {
            let act = Bool::new_const(format!("test_{t}"));
            let sink = Sink {
                solver: &solver,
                activation: Some(act.clone()),
            };
            if let Some(enc) = self.encode_into(t, &sink, &mut v.ab) {
                v.encs.insert(t, enc);
                v.acts.insert(t, act);
            }
        }
        v.solver = Some(solver);
        self.validator = v;
    }

    fn set_timeout(&self, solver: &Solver) -> bool {
        let mut p = Params::new();
        match self.deadline {
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

    /// Re-executes test `t` with a witness (see [`crate::witness`]).
    pub fn replay(&mut self, t: usize, w: &Witness) -> crate::witness::Replay {
        self.replays += 1;
        let path: Option<
            Vec<(
                StmtId,
                Vec<faultline_exec::trace::Scope>,
                faultline_ir::Branch,
            )>,
        > = match (self.options.encoding, self.session.traces.get(&t)) {
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
            self.options.limits,
            self.options.compare,
            path.as_deref(),
        )
    }

    pub fn is_skipped(&self, t: usize) -> bool {
        self.skipped.iter().any(|(s, _)| *s == t)
    }

    /// Checks whether the tests are satisfiable with exactly the statements of
    /// `d` relaxed: a model covering all of them, or the tests in an unsat core.
    pub fn check_tests(
        &mut self,
        tests: &[usize],
        d: &BTreeSet<StmtId>,
    ) -> Result<Check, Incomplete> {
        self.validate_tests(tests);
        let v = &self.validator;
        let Some(solver) = &v.solver else {
            return Ok(Check::Sat(None));
        };
        let mut assumptions: Vec<Bool> =
            v.ab.stmts()
                .map(|(s, b)| if d.contains(&s) { b.clone() } else { b.not() })
                .collect();
        let active: Vec<usize> = tests
            .iter()
            .copied()
            .filter(|t| v.acts.contains_key(t))
            .collect();
        if active.is_empty() {
            return Ok(Check::Sat(None));
        }
        assumptions.extend(active.iter().map(|t| v.acts[t].clone()));
        if !self.set_timeout(solver) {
            return Err(Incomplete::Timeout);
        }
        let start = Instant::now();
        let r = solver.check_assumptions(&assumptions);
        self.stats.solve_time += start.elapsed();
        self.stats.solver_calls += 1;
        if std::env::var_os("FAULTLINE_DEBUG").is_some() {
            eprintln!(
                "validate {} tests: {:?} in {:?}",
                active.len(),
                r,
                start.elapsed()
            );
        }
        match r {
            SatResult::Sat => Ok(Check::Sat(solver.get_model())),
            SatResult::Unsat => {
                let core: Vec<Bool> = solver.get_unsat_core();
                let mut culprits: Vec<usize> = active
                    .iter()
                    .copied()
                    .filter(|t| core.iter().any(|c| c.ast_eq(&v.acts[t])))
                    .collect();
                if culprits.is_empty() {
                    culprits = active.clone();
                }
                Ok(Check::Unsat(culprits))
            }
            SatResult::Unknown => Err(if self.timed_out() {
                Incomplete::Timeout
            } else {
                Incomplete::Solver(solver.get_reason_unknown().unwrap_or_default())
            }),
        }
    }

    /// The angelic values of diagnosis `d` on the given tests, from the
    /// validation solver: `None` if some test is not explained by `d`.
    pub fn angelic_for(
        &mut self,
        tests: &[usize],
        d: &BTreeSet<StmtId>,
    ) -> Result<Option<Vec<Angelic>>, Incomplete> {
        match self.check_tests(tests, d)? {
            Check::Unsat(_) => Ok(None),
            Check::Sat(None) => Ok(Some(Vec::new())),
            Check::Sat(Some(model)) => {
                let mut out = Vec::new();
                for t in tests {
                    if let Some(enc) = self.validator.encs.get(t) {
                        out.extend(angelic_values(self.session, *t, enc, &model, d));
                    }
                }
                Ok(Some(out))
            }
        }
    }

    pub fn mcs_options(&self) -> McsOptions {
        McsOptions {
            max_size: self.options.max_size,
            max_count: self.options.max_diagnoses,
            deadline: self.deadline,
            order: if self.options.weights.is_some() {
                Order::Weight
            } else {
                Order::Cardinality
            },
        }
    }

    pub fn weight(&self, s: StmtId) -> u64 {
        self.options
            .weights
            .as_ref()
            .and_then(|w| w.get(&s).copied())
            .unwrap_or(1)
            .max(1)
    }
}

/// The validation solver.
#[derive(Default)]
struct Validator {
    solver: Option<Solver>,
    ab: AbVars,
    acts: BTreeMap<usize, Bool>,
    encs: HashMap<usize, TestEncoding>,
}

/// The answer of [`Engine::check_tests`].
pub enum Check {
    /// Satisfiable (the model is `None` when no test could be checked).
    Sat(Option<Model>),
    /// Unsatisfiable; these tests are in the unsat core.
    Unsat(Vec<usize>),
}

/// Soft literals of an enumerator, kept in sync with the ab variables.
pub struct Softs {
    pub index: BTreeMap<StmtId, usize>,
    pub stmts: Vec<StmtId>,
}

impl Softs {
    pub fn new() -> Softs {
        Softs {
            index: BTreeMap::new(),
            stmts: Vec::new(),
        }
    }
    /// Adds the ab variables not yet soft (in statement order).
    pub fn sync(&mut self, engine: &Engine, ab: &AbVars, en: &mut McsEnumerator) {
        for (s, v) in ab.stmts() {
            if !self.index.contains_key(&s) {
                let i = en.add_soft(v.not(), engine.weight(s));
                self.index.insert(s, i);
                self.stmts.push(s);
            }
        }
    }
    pub fn to_stmts(&self, members: &[usize]) -> BTreeSet<StmtId> {
        members.iter().map(|&i| self.stmts[i]).collect()
    }
}

impl Default for Softs {
    fn default() -> Self {
        Softs::new()
    }
}

fn fmt_sval(v: &faultline_smt::sym::SVal, m: &Model) -> String {
    use faultline_smt::sym::SVal;
    match v {
        SVal::Int(i) => i.eval(m).map_or_else(|| "?".into(), |x| x.to_string()),
        SVal::Float(f) => f.eval(m).map_or_else(|| "?".into(), |x| format!("{x}")),
        SVal::Ptr(_) => "a pointer".into(),
        SVal::Stream(s) => format!("{s:?}"),
    }
}

/// Reads the angelic values of `d`'s statements from a model of test `t`'s formula.
pub fn angelic_values(
    session: &Session,
    t: usize,
    enc: &TestEncoding,
    m: &Model,
    d: &BTreeSet<StmtId>,
) -> Vec<Angelic> {
    let expected = &session.tests[t].expected_stdout;
    let mut out = Vec::new();
    for inst in &enc.relaxed {
        if !d.contains(&inst.stmt) {
            continue;
        }
        if m.eval(&inst.guard, true).and_then(|b| b.as_bool()) != Some(true) {
            continue;
        }
        let value = match &inst.value {
            InstValue::Scalar { chosen, computed } => AngelicValue::Value {
                needed: fmt_sval(chosen, m),
                computed: fmt_sval(computed, m),
            },
            InstValue::Branch { chosen, computed } => AngelicValue::Branch {
                needed: m
                    .eval(chosen, true)
                    .and_then(|b| b.as_bool())
                    .unwrap_or(false),
                computed: m
                    .eval(computed, true)
                    .and_then(|b| b.as_bool())
                    .unwrap_or(false),
            },
            InstValue::Output { start, end } => {
                let s = m
                    .eval(start, true)
                    .and_then(|v| v.as_i64())
                    .unwrap_or(0)
                    .max(0) as usize;
                let e = m
                    .eval(end, true)
                    .and_then(|v| v.as_i64())
                    .unwrap_or(0)
                    .max(0) as usize;
                let text = expected
                    .get(s.min(expected.len())..e.min(expected.len()).max(s.min(expected.len())))
                    .unwrap_or(&[]);
                AngelicValue::Output {
                    text: String::from_utf8_lossy(text).into_owned(),
                }
            }
        };
        out.push(Angelic {
            test: t,
            stmt: inst.stmt,
            ctx: inst.ctx.clone(),
            value,
        });
    }
    out
}

/// Numbers the failing tests' paths: tests with equal numbers took the same
/// branch decisions.
pub fn signatures(session: &Session) -> HashMap<usize, usize> {
    let mut ids: HashMap<Vec<(StmtId, faultline_ir::Branch)>, usize> = HashMap::new();
    let mut out = HashMap::new();
    for &t in &session.failing {
        let sig: Vec<(StmtId, faultline_ir::Branch)> = match session.traces.get(&t) {
            Some(tr) => tr.decisions().map(|(i, b)| (i.stmt, b)).collect(),
            None => Vec::new(),
        };
        let n = ids.len();
        out.insert(t, *ids.entry(sig).or_insert(n));
    }
    out
}

/// Groups failing tests by the branch decisions of their runs; the first test
/// of each group comes first (tests with one path tend to share diagnoses).
pub fn representatives_first(session: &Session) -> Vec<usize> {
    let mut seen: HashMap<Vec<(StmtId, faultline_ir::Branch)>, usize> = HashMap::new();
    let mut reps = Vec::new();
    let mut rest = Vec::new();
    for &t in &session.failing {
        let sig: Vec<(StmtId, faultline_ir::Branch)> = match session.traces.get(&t) {
            Some(tr) => tr.decisions().map(|(i, b)| (i.stmt, b)).collect(),
            None => Vec::new(),
        };
        if seen.insert(sig, t).is_none() {
            reps.push(t);
        } else {
            rest.push(t);
        }
    }
    reps.extend(rest);
    reps
}

fn incomplete_of(stop: Stop) -> Incomplete {
    match stop {
        Stop::Timeout => Incomplete::Timeout,
        Stop::Unknown(m) => Incomplete::Solver(m),
    }
}

/// Runs the formula-based localization with the chosen encoding and combination.
pub fn localize(session: &Session, options: &Options) -> Localization {
    let start = Instant::now();
    let mut engine = Engine::new(session, options.clone());
    let (diagnoses, incomplete) = match options.combine {
        Combine::Mbd => mbd(&mut engine),
        Combine::SetCombine => setcombine(&mut engine),
        Combine::PerTest => per_test(&mut engine),
    };
    let mut engine_stats = engine.stats.clone();
    engine_stats.total_time = start.elapsed() + session.run_time;
    let method = format!(
        "{}+{}",
        match options.encoding {
            Encoding::Full => "full",
            Encoding::Trace => "trace",
            Encoding::Flow => "flow",
        },
        match options.combine {
            Combine::Mbd => "mbd",
            Combine::SetCombine => "setcombine",
            Combine::PerTest => "per-test",
        }
    );
    let ranking = rank_by_diagnoses(&diagnoses);
    Localization {
        method,
        tests: session.verdicts(),
        failing: session.failing.clone(),
        skipped: engine.skipped.clone(),
        diagnoses,
        ranking,
        incomplete,
        notes: engine.notes.clone(),
        stats: engine_stats,
    }
}

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

fn diag(
    stmts: &BTreeSet<StmtId>,
    cost: u64,
    test: Option<usize>,
    angelic: Vec<Angelic>,
) -> Diagnosis {
    Diagnosis {
        stmts: stmts.iter().copied().collect(),
        cost,
        test,
        angelic,
        verified: None,
    }
}

/// `mbd`: one formula over the failing tests, added lazily: the
/// representatives of distinct paths first; every candidate MCS is checked
/// against each remaining test's own formula, and a test it does not explain
/// joins the formula (which rules the candidate out). A candidate that
/// explains every test is an MCS of the formula over all of them (its proper
/// subsets already fail on the joined tests), and the order of reports is that
/// of the full formula.
pub fn mbd(engine: &mut Engine) -> (Vec<Diagnosis>, Option<Incomplete>) {
    let mut en = McsEnumerator::new(engine.mcs_options());
    let r = mbd_with(engine, &mut en);
    engine.stats.solver_calls += en.solver_calls();
    r
}

fn mbd_with(engine: &mut Engine, en: &mut McsEnumerator) -> (Vec<Diagnosis>, Option<Incomplete>) {
    let session = engine.session;
    let solver = engine.solver();
    let mut ab = AbVars::new();
    let mut softs = Softs::new();
    let order = representatives_first(session);
    let mut active: Vec<usize> = Vec::new();
    let mut encs: HashMap<usize, TestEncoding> = HashMap::new();
    // Start with one test per distinct path.
    let n_paths = {
        let mut seen = BTreeSet::new();
        session
            .failing
            .iter()
            .filter(|t| {
                let sig: Vec<_> = session
                    .traces
                    .get(t)
                    .map(|tr| tr.decisions().map(|(i, b)| (i.stmt, b)).collect())
                    .unwrap_or_default();
                seen.insert(sig)
            })
            .count()
    };
    for &t in order.iter().take(n_paths.max(1)) {
        if engine.timed_out() {
            break;
        }
        if let Some(enc) = engine.encode_into(t, &Sink::new(&solver), &mut ab) {
            encs.insert(t, enc);
            active.push(t);
        }
    }
    engine.stats.tests_encoded = active.len();
    let mut diagnoses = Vec::new();
    if active.is_empty() {
        return (diagnoses, engine.timed_out().then_some(Incomplete::Timeout));
    }
    loop {
        engine.stats.iterations += 1;
        softs.sync(engine, &ab, en);
        en.set_deadline(engine.deadline);
        let t0 = Instant::now();
        let next = en.next(&solver);
        engine.stats.solve_time += t0.elapsed();
        let mcs = match next {
            Ok(Some(m)) => m,
            Ok(None) => return (diagnoses, None),
            Err(stop) => return (diagnoses, Some(incomplete_of(stop))),
        };
        let d = softs.to_stmts(&mcs.members);
        // Validate on the tests not in the formula, all at once.
        let mut angelic: Vec<Angelic> = Vec::new();
        for &t in &active {
            angelic.extend(angelic_values(session, t, &encs[&t], &mcs.model, &d));
        }
        let pending: Vec<usize> = order
            .iter()
            .copied()
            .filter(|t| !encs.contains_key(t))
            .collect();
        // Witnesses first: replay each test with the angelic values of an
        // active test of the same path (or the first active test).
        let mut witnesses: HashMap<usize, Witness> = HashMap::new();
        let mut rest = Vec::new();
        for t in pending {
            if engine.is_skipped(t) {
                continue;
            }
            let sig = engine.signature.get(&t).copied();
            let src = active
                .iter()
                .copied()
                .find(|a| engine.signature.get(a).copied() == sig)
                .unwrap_or(active[0]);
            let w = witnesses.entry(src).or_insert_with(|| {
                Witness::from_model(
                    &encs[&src],
                    &mcs.model,
                    &d,
                    &session.tests[src].expected_stdout,
                )
            });
            let w = w.clone();
            let r = engine.replay(t, &w);
            if r.explains {
                angelic.extend(r.angelic);
            } else {
                rest.push(t);
            }
        }
        match engine.check_tests(&rest, &d) {
            Err(inc) => return (diagnoses, Some(inc)),
            Ok(Check::Sat(model)) => {
                if let Some(model) = model {
                    for t in &rest {
                        if let Some(enc) = engine.validator.encs.get(t) {
                            angelic.extend(angelic_values(session, *t, enc, &model, &d));
                        }
                    }
                }
            }
            Ok(Check::Unsat(culprits)) => {
                // The first unexplained test (in the order of `order`) joins the formula.
                let t = *order
                    .iter()
                    .find(|t| culprits.contains(t))
                    .unwrap_or(&culprits[0]);
                if let Some(enc) = engine.encode_into(t, &Sink::new(&solver), &mut ab) {
                    encs.insert(t, enc);
                    active.push(t);
                    engine.stats.tests_encoded = active.len();
                } else {
                    return (
                        diagnoses,
                        Some(Incomplete::Solver(format!("test {} cannot be encoded", t))),
                    );
                }
                en.invalidate();
                continue;
            }
        }
        angelic.sort_by(|a, b| a.test.cmp(&b.test).then(a.stmt.cmp(&b.stmt)));
        diagnoses.push(diag(&d, mcs.cost, None, angelic));
        en.block(&solver, &mcs.members);
        if diagnoses.len() >= engine.options.max_diagnoses {
            return (diagnoses, Some(Incomplete::MaxDiagnoses));
        }
    }
}

/// Enumerates one test's MCSes on its own formula.
fn test_mcses(
    engine: &mut Engine,
    t: usize,
) -> Result<Vec<(BTreeSet<StmtId>, u64, Vec<Angelic>)>, Incomplete> {
    let session = engine.session;
    let solver = engine.solver();
    let mut ab = AbVars::new();
    let Some(enc) = engine.encode_into(t, &Sink::new(&solver), &mut ab) else {
        return Ok(Vec::new());
    };
    engine.stats.tests_encoded += 1;
    let mut en = McsEnumerator::new(engine.mcs_options());
    let mut softs = Softs::new();
    softs.sync(engine, &ab, &mut en);
    let mut out = Vec::new();
    loop {
        let t0 = Instant::now();
        let next = en.take_next(&solver);
        engine.stats.solve_time += t0.elapsed();
        match next {
            Ok(Some(m)) => {
                let d = softs.to_stmts(&m.members);
                let a = angelic_values(session, t, &enc, &m.model, &d);
                out.push((d, m.cost, a));
                if out.len() >= engine.options.max_diagnoses {
                    break;
                }
            }
            Ok(None) => break,
            Err(stop) => {
                engine.stats.solver_calls += en.solver_calls();
                return Err(incomplete_of(stop));
            }
        }
    }
    engine.stats.solver_calls += en.solver_calls();
    Ok(out)
}

/// `per-test`: every failing test's MCSes, unmerged.
pub fn per_test(engine: &mut Engine) -> (Vec<Diagnosis>, Option<Incomplete>) {
    let mut all = Vec::new();
    for &t in &engine.session.failing.clone() {
        if engine.timed_out() {
            return (all, Some(Incomplete::Timeout));
        }
        match test_mcses(engine, t) {
            Ok(list) => {
                for (d, cost, a) in list {
                    all.push(diag(&d, cost, Some(t), a));
                }
            }
            Err(inc) => return (all, Some(inc)),
        }
    }
    (all, None)
}

/// Most sets kept while folding `setcombine`'s product.
const COMBINE_CAP: usize = 10_000;

/// `setcombine`: pick one MCS per test, take the union; drop duplicates and
/// supersets as the product is folded, and unions above the size bound.
pub fn setcombine(engine: &mut Engine) -> (Vec<Diagnosis>, Option<Incomplete>) {
    let mut acc: Vec<BTreeSet<StmtId>> = vec![BTreeSet::new()];
    let mut incomplete = None;
    let max_size = engine.options.max_size;
    for &t in &engine.session.failing.clone() {
        if engine.timed_out() {
            incomplete = Some(Incomplete::Timeout);
            break;
        }
        let list = match test_mcses(engine, t) {
            Ok(l) => l,
            Err(inc) => {
                incomplete = Some(inc);
                break;
            }
        };
        if list.is_empty() {
            continue;
        }
        let mut next: Vec<BTreeSet<StmtId>> = Vec::new();
        for a in &acc {
            for (m, _, _) in &list {
                let u: BTreeSet<StmtId> = a.union(m).copied().collect();
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
            let note = format!("setcombine kept the {COMBINE_CAP} smallest combinations");
            if !engine.notes.contains(&note) {
                engine.notes.push(note);
            }
        }
        acc = minimal;
    }
    let mut diagnoses = Vec::new();
    for d in acc
        .into_iter()
        .filter(|d| !d.is_empty())
        .take(engine.options.max_diagnoses)
    {
        let failing = engine.session.failing.clone();
        let angelic = match engine.angelic_for(&failing, &d) {
            Ok(a) => a.unwrap_or_default(),
            Err(inc) => {
                incomplete = incomplete.or(Some(inc));
                Vec::new()
            }
        };
        let cost = d.iter().map(|s| engine.weight(*s)).sum();
        diagnoses.push(diag(&d, cost, None, angelic));
    }
    (diagnoses, incomplete)
}
