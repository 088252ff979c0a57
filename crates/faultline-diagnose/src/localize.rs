//! Formula-based localization: encode failing tests, enumerate MCSes, combine
//! tests (`mbd`, `setcombine`, `per-test`), read angelic values from models.

use crate::bounds::Needs;
use crate::mcs::{McsEnumerator, McsOptions, Order, Stop};
use crate::result::{
    Angelic, AngelicValue, Diagnosis, Incomplete, Localization, Ranked, Stats, TestVerdict,
};
use crate::share::{CheckFormula, Known, PathMemo};
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

/// Progress of a localization, for a progress indicator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// `done` of `total` tests have run.
    TestsRun { done: usize, total: usize },
    /// `done` formulas of the `total` failing tests have been built.
    TestsEncoded { done: usize, total: usize },
    /// Diagnoses found so far.
    Diagnoses { count: usize },
}

/// A progress callback (called from the thread doing the work).
#[derive(Clone)]
pub struct ProgressHook(pub std::sync::Arc<dyn Fn(Progress) + Send + Sync>);

impl std::fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressHook")
    }
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
    /// Memory limit in MiB (the solver's and the process's).
    pub max_memory: Option<u64>,
    /// What counts as coverage for clause weights.
    pub spectrum: crate::weights::Spectrum,
    /// Called as the search progresses.
    pub progress: Option<ProgressHook>,
    /// Per-test methods: confirm the MCSes of a test on the path of one
    /// already enumerated instead of enumerating ([`crate::share`]). Results
    /// are the same either way; off only to measure or to cross-check.
    pub share_paths: bool,
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
            max_memory: None,
            spectrum: crate::weights::Spectrum::Use,
            progress: None,
            share_paths: true,
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
        Session::with_progress(prog, tests, compare, limits, None)
    }

    /// Like [`Session::new`], reporting each test run.
    pub fn with_progress(
        prog: &'p Program,
        tests: &'p [TestCase],
        compare: Compare,
        limits: Limits,
        progress: Option<&ProgressHook>,
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
            if let Some(p) = progress {
                if i % 64 == 0 {
                    (p.0)(Progress::TestsRun {
                        done: i,
                        total: tests.len(),
                    });
                }
            }
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
    /// Per-test solvers (one formula each), for validating candidate
    /// diagnoses when no witness replays, and for their angelic values.
    singles: HashMap<usize, (Solver, TestEncoding, AbVars)>,
    /// Whether formulas are pure bit-vector (Z3's finite-domain solver applies).
    finite: bool,
    pub exe: Executable<'p>,
    /// Path signature of each failing test (equal ids: same branch decisions).
    pub signature: HashMap<usize, usize>,
    pub replays: usize,
    /// Formulas built (for progress).
    encoded: usize,
}

impl<'s, 'p> Engine<'s, 'p> {
    pub fn new(session: &'s Session<'p>, options: Options) -> Engine<'s, 'p> {
        // The memory limit is checked between solver calls (`limit_hit`), not
        // handed to Z3: Z3's own limit makes the z3 crate panic on the null
        // term it then returns.
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
            singles: HashMap::new(),
            finite,
            exe: Executable::new(session.prog).expect("the program ran before"),
            signature: signatures(session),
            replays: 0,
            encoded: 0,
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

    /// The limit that has been hit, if any (time, or memory).
    pub fn limit_hit(&self) -> Option<Incomplete> {
        if self.timed_out() {
            return Some(Incomplete::Timeout);
        }
        match self.options.max_memory {
            Some(mib) if resident_mib() > mib as f64 => Some(Incomplete::Memory),
            _ => None,
        }
    }

    /// Why the solver answered `unknown`.
    fn unknown(&self, reason: String) -> Incomplete {
        if self.timed_out() {
            Incomplete::Timeout
        } else if reason.contains("memory") || self.limit_hit() == Some(Incomplete::Memory) {
            Incomplete::Memory
        } else {
            Incomplete::Solver(reason)
        }
    }

    /// Encodes test `t` into `solver`; failures are recorded as skipped tests.
    pub fn encode_into(&mut self, t: usize, sink: &Sink, ab: &mut AbVars) -> Option<TestEncoding> {
        let mut policy = match (self.options.encoding, self.session.traces.get(&t)) {
            (Encoding::Trace, Some(tr)) => Some(TracePolicy::new(tr)),
            _ => None,
        };
        self.encode_with(
            t,
            sink,
            ab,
            policy
                .as_mut()
                .map(|p| p as &mut dyn faultline_smt::BranchPolicy),
        )
    }

    /// Encodes test `t` with a branch policy (on-demand strategies).
    pub fn encode_with(
        &mut self,
        t: usize,
        sink: &Sink,
        ab: &mut AbVars,
        policy: Option<&mut dyn faultline_smt::BranchPolicy>,
    ) -> Option<TestEncoding> {
        let start = Instant::now();
        let prog = self.session.prog;
        let r = encode_test(
            prog,
            &self.session.tests[t],
            self.options.encoding,
            self.options.int_semantics,
            &self.bounds,
            policy,
            ab,
            sink,
        );
        self.stats.encode_time += start.elapsed();
        self.encoded += 1;
        if let Some(p) = &self.options.progress {
            (p.0)(Progress::TestsEncoded {
                done: self.encoded,
                total: self.session.failing.len(),
            });
        }
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
        match self.encode_into(t, &Sink::new(&solver), &mut ab) {
            Some(enc) => {
                self.singles.insert(t, (solver, enc, ab));
                true
            }
            None => false,
        }
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
        let (solver, _, ab) = self.singles.get(&t).expect("encoded");
        let assumptions: Vec<Bool> = ab.relaxing_exactly(d);
        if !self.set_timeout(solver) {
            return Err(Incomplete::Timeout);
        }
        let start = Instant::now();
        let r = solver.check_assumptions(&assumptions);
        self.stats.solve_time += start.elapsed();
        self.stats.solver_calls += 1;
        match r {
            SatResult::Sat => Ok(solver.get_model()),
            SatResult::Unsat => Ok(None),
            SatResult::Unknown => {
                Err(self.unknown(solver.get_reason_unknown().unwrap_or_default()))
            }
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
        for w in witnesses {
            let r = self.replay(t, w);
            if r.explains {
                return Ok(Some((r.angelic, None)));
            }
        }
        match self.check_single(t, d)? {
            None => Ok(None),
            Some(model) => {
                let (_, enc, _) = self.singles.get(&t).expect("encoded");
                let angelic = angelic_values(self.session, t, enc, &model, d);
                let w = Witness::from_model(enc, &model, d, &self.session.tests[t].expected_stdout);
                Ok(Some((angelic, Some(w))))
            }
        }
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
                out.extend(self.singles[&t].2.stmts().map(|(s, _)| s));
            }
        }
        out
    }

    /// The angelic values of `d` on each of the tests (`None` if some test is
    /// not explained), sharing witnesses between tests of one path.
    pub fn angelic_for(
        &mut self,
        tests: &[usize],
        d: &BTreeSet<StmtId>,
    ) -> Result<Option<Vec<Angelic>>, Incomplete> {
        let mut by_group: HashMap<usize, Vec<Witness>> = HashMap::new();
        let mut out = Vec::new();
        for &t in tests {
            if self.is_skipped(t) {
                continue;
            }
            let g = self.signature.get(&t).copied().unwrap_or(usize::MAX);
            let ws = by_group.get(&g).cloned().unwrap_or_default();
            match self.explain(t, d, &ws)? {
                None => return Ok(None),
                Some((a, w)) => {
                    out.extend(a);
                    if let Some(w) = w {
                        by_group.entry(g).or_default().push(w);
                    }
                }
            }
        }
        Ok(Some(out))
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

    /// Reports the number of diagnoses found so far.
    pub fn found(&self, count: usize) {
        if let Some(p) = &self.options.progress {
            (p.0)(Progress::Diagnoses { count });
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

/// A test explained by a diagnosis: its angelic values, and the witness
/// read from its own formula when one was solved.
pub type Explained = (Vec<Angelic>, Option<Witness>);

/// One MCS of one test: statements, cost, angelic values.
type TestMcs = (BTreeSet<StmtId>, u64, Vec<Angelic>);

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
            if let std::collections::btree_map::Entry::Vacant(e) = self.index.entry(s) {
                let i = en.add_soft(v.not(), engine.weight(s));
                e.insert(i);
                self.stmts.push(s);
            }
        }
    }
    pub fn to_stmts(&self, members: &[usize]) -> BTreeSet<StmtId> {
        members.iter().map(|&i| self.stmts[i]).collect()
    }
    /// The soft indices of `d`'s statements, sorted; `None` if one has no
    /// soft term (it is not relaxable in this formula).
    pub fn members(&self, d: &BTreeSet<StmtId>) -> Option<Vec<usize>> {
        let mut m = d
            .iter()
            .map(|s| self.index.get(s).copied())
            .collect::<Option<Vec<usize>>>()?;
        m.sort_unstable();
        Some(m)
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
    type Sig = (Vec<(StmtId, faultline_ir::Branch)>, Option<Vec<u8>>);
    let mut ids: HashMap<Sig, usize> = HashMap::new();
    let mut out = HashMap::new();
    for &t in &session.failing {
        let path: Vec<(StmtId, faultline_ir::Branch)> = match session.traces.get(&t) {
            Some(tr) => tr.decisions().map(|(i, b)| (i.stmt, b)).collect(),
            None => Vec::new(),
        };
        // A run cut short by a runtime error says little about the path its
        // test needs: its expected output tells the groups apart.
        let cut = matches!(
            session.runs[t].execution.termination,
            faultline_exec::Termination::RuntimeError(_)
        );
        let sig = (path, cut.then(|| session.tests[t].expected_stdout.clone()));
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

/// Why an enumeration stopped, as a result's incompleteness.
pub(crate) fn incomplete_of(stop: Stop) -> Incomplete {
    match stop {
        Stop::Timeout => Incomplete::Timeout,
        Stop::Unknown(m) if m.contains("memory") => Incomplete::Memory,
        Stop::Unknown(m) => Incomplete::Solver(m),
    }
}

/// The process's resident memory in MiB (Linux `/proc/self/statm`; 0 elsewhere).
pub fn resident_mib() -> f64 {
    resident_mib_of("self")
}

/// The resident memory in MiB of process `pid` (a number, or `self`; Linux
/// `/proc/PID/statm`; 0 elsewhere or if there is no such process).
pub fn resident_mib_of(pid: &str) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/statm"))
        .ok()
        .and_then(|s| {
            s.split_whitespace()
                .nth(1)
                .and_then(|p| p.parse::<f64>().ok())
        })
        .map_or(0.0, |pages| pages * 4096.0 / (1024.0 * 1024.0))
}

/// Runs the formula-based localization with the chosen encoding and combination.
pub fn localize(session: &Session, options: &Options) -> Localization {
    localize_with(session, options, false)
}

/// Like [`localize`]; with `on_demand`, `mbd` runs over OFC's on-demand formulas.
pub fn localize_with(session: &Session, options: &Options, on_demand: bool) -> Localization {
    let start = Instant::now();
    let mut engine = Engine::new(session, options.clone());
    let (diagnoses, incomplete) = match options.combine {
        Combine::Mbd => mbd_core(&mut engine, on_demand),
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
    mbd_core(engine, false)
}

/// The formula of the active tests, rebuilt when on-demand formulas grow.
struct Main {
    solver: Solver,
    ab: AbVars,
    softs: Softs,
    en: McsEnumerator,
    encs: HashMap<usize, TestEncoding>,
}

impl Main {
    fn new(engine: &Engine) -> Main {
        Main {
            solver: engine.solver(),
            ab: AbVars::new(),
            softs: Softs::new(),
            en: McsEnumerator::new(engine.mcs_options()),
            encs: HashMap::new(),
        }
    }

    fn encode(
        &mut self,
        engine: &mut Engine,
        t: usize,
        explored: Option<&crate::explore::Explored>,
    ) -> bool {
        let enc = match explored {
            Some(e) => {
                let mut p = crate::explore::ExploredPolicy(e);
                engine.encode_with(t, &Sink::new(&self.solver), &mut self.ab, Some(&mut p))
            }
            None => engine.encode_into(t, &Sink::new(&self.solver), &mut self.ab),
        };
        match enc {
            Some(enc) => {
                self.encs.insert(t, enc);
                true
            }
            None => false,
        }
    }
}

/// `mbd` over all failing tests; with `on_demand`, each test's formula is
/// OFC's (explored outcomes encoded, other branches black boxes), expanded
/// whenever a candidate needs a black box (see [`crate::ofc`]).
pub(crate) fn mbd_core(
    engine: &mut Engine,
    on_demand: bool,
) -> (Vec<Diagnosis>, Option<Incomplete>) {
    let session = engine.session;
    let order = representatives_first(session);
    let n_paths = {
        let mut seen = BTreeSet::new();
        session
            .failing
            .iter()
            .filter(|t| seen.insert(engine.signature.get(t).copied()))
            .count()
    };
    // What each test's runs explored (on-demand formulas only), shared by path.
    let mut explored: HashMap<usize, crate::explore::Explored> = HashMap::new();
    let explored_of =
        |engine: &Engine, explored: &HashMap<usize, crate::explore::Explored>, t: usize| {
            let mut e = match session.traces.get(&t) {
                Some(tr) => crate::explore::Explored::from_trace(tr),
                None => crate::explore::Explored::default(),
            };
            let g = engine.signature.get(&t);
            for (u, ex) in explored {
                if engine.signature.get(u) == g {
                    e.merge(ex);
                }
            }
            e
        };
    let mut active: Vec<usize> = Vec::new();
    let mut main = Main::new(engine);
    for &t in order.iter().take(n_paths.max(1)) {
        if engine.limit_hit().is_some() {
            break;
        }
        if on_demand {
            let e = explored_of(engine, &explored, t);
            explored.insert(t, e);
        }
        if main.encode(engine, t, explored.get(&t)) {
            active.push(t);
        }
    }
    engine.stats.tests_encoded = active.len();
    let mut diagnoses: Vec<Diagnosis> = Vec::new();
    let mut accepted: Vec<BTreeSet<StmtId>> = Vec::new();
    if active.is_empty() {
        return (diagnoses, engine.limit_hit());
    }
    let finish = |engine: &mut Engine, main: &Main, d: Vec<Diagnosis>, inc: Option<Incomplete>| {
        engine.stats.solver_calls += main.en.solver_calls();
        (d, inc)
    };
    loop {
        engine.stats.iterations += 1;
        main.softs.sync(engine, &main.ab, &mut main.en);
        main.en.set_deadline(engine.deadline);
        let t0 = Instant::now();
        let next = main.en.next(&main.solver);
        engine.stats.solve_time += t0.elapsed();
        let mcs = match next {
            Ok(Some(m)) => m,
            Ok(None) => return finish(engine, &main, diagnoses, None),
            Err(stop) => return finish(engine, &main, diagnoses, Some(incomplete_of(stop))),
        };
        let d = main.softs.to_stmts(&mcs.members);
        let mut model = mcs.model;
        if on_demand {
            // Black boxes the candidate's model enters, per test.
            let entered: Vec<(usize, crate::explore::CondInst, faultline_ir::Branch)> = active
                .iter()
                .flat_map(|t| {
                    main.encs[t]
                        .abstract_entries
                        .iter()
                        .filter(|e| model.eval(&e.3, true).and_then(|b| b.as_bool()) == Some(true))
                        .map(move |e| (*t, (e.0, e.1.clone()), e.2))
                })
                .collect();
            if !entered.is_empty() {
                let mut assumptions: Vec<Bool> = main.ab.relaxing_exactly(&d);
                for t in &active {
                    assumptions.extend(main.encs[t].abstract_entries.iter().map(|e| e.3.not()));
                }
                engine.stats.solver_calls += 1;
                let sat = main.solver.check_assumptions(&assumptions) == SatResult::Sat;
                match main.solver.get_model() {
                    Some(m) if sat => model = m,
                    _ => {
                        // Expand the boxes by hijacking, then rebuild the formula.
                        for (t, c, b) in &entered {
                            let e = explored.get_mut(t).expect("explored");
                            let forced = e.forcing(c, *b);
                            e.hijack(
                                &engine.exe,
                                &session.tests[*t],
                                &forced,
                                engine.options.limits,
                            );
                        }
                        engine.stats.solver_calls += main.en.solver_calls();
                        main = Main::new(engine);
                        for &t in &active {
                            main.encode(engine, t, explored.get(&t));
                        }
                        main.softs.sync(engine, &main.ab, &mut main.en);
                        // The formula only grew: every statement is still soft.
                        for a in &accepted {
                            if let Some(members) = main.softs.members(a) {
                                main.en.block(&main.solver, &members);
                            }
                        }
                        continue;
                    }
                }
            }
        }
        // Readable angelic values for the first diagnoses.
        if diagnoses.len() < POLISHED {
            let insts: Vec<&faultline_smt::RelaxedInstance> = active
                .iter()
                .flat_map(|t| main.encs[t].relaxed.iter())
                .collect();
            let base: Vec<Bool> = main.ab.relaxing_exactly(&d);
            if let Some(m) = polish(engine, &main.solver, &base, &insts, &d, &model) {
                model = m;
            }
        }
        // Validate on the tests not in the formula.
        let mut angelic: Vec<Angelic> = Vec::new();
        for &t in &active {
            angelic.extend(angelic_values(session, t, &main.encs[&t], &model, &d));
        }
        let pending: Vec<usize> = order
            .iter()
            .copied()
            .filter(|t| !main.encs.contains_key(t))
            .collect();
        // Witnesses per path group: from the active tests' model first, then
        // from tests that needed their own formula.
        let mut groups: HashMap<usize, Vec<Witness>> = HashMap::new();
        for &a in &active {
            let g = engine.signature.get(&a).copied().unwrap_or(usize::MAX);
            let w = Witness::from_model(
                &main.encs[&a],
                &model,
                &d,
                &session.tests[a].expected_stdout,
            );
            groups.entry(g).or_default().push(w);
        }
        let fallback: Option<Witness> = groups.values().next().and_then(|v| v.first().cloned());
        let mut joined = None;
        for t in pending {
            if engine.is_skipped(t) {
                continue;
            }
            let g = engine.signature.get(&t).copied().unwrap_or(usize::MAX);
            let mut ws: Vec<Witness> = groups
                .get(&g)
                .map(|v| v.iter().rev().take(3).cloned().collect())
                .unwrap_or_default();
            if ws.is_empty() {
                ws.extend(fallback.clone());
            }
            match engine.explain(t, &d, &ws) {
                Err(inc) => return finish(engine, &main, diagnoses, Some(inc)),
                Ok(Some((a, w))) => {
                    angelic.extend(a);
                    if let Some(w) = w {
                        groups.entry(g).or_default().push(w);
                    }
                }
                Ok(None) => {
                    joined = Some(t);
                    break;
                }
            }
        }
        if let Some(t) = joined {
            if on_demand {
                let e = explored_of(engine, &explored, t);
                explored.insert(t, e);
            }
            if main.encode(engine, t, explored.get(&t)) {
                active.push(t);
                engine.stats.tests_encoded = active.len();
            } else {
                let msg = format!("test {} cannot be encoded", session.tests[t].name);
                return finish(engine, &main, diagnoses, Some(Incomplete::Solver(msg)));
            }
            main.en.invalidate();
            continue;
        }
        angelic.sort_by(|a, b| a.test.cmp(&b.test).then(a.stmt.cmp(&b.stmt)));
        diagnoses.push(diag(&d, mcs.cost, None, angelic));
        engine.found(diagnoses.len());
        main.en.block(&main.solver, &mcs.members);
        accepted.push(d);
        if diagnoses.len() >= engine.options.max_diagnoses {
            return finish(engine, &main, diagnoses, Some(Incomplete::MaxDiagnoses));
        }
    }
}

/// How many diagnoses (per test, for per-test methods) get polished angelic
/// values: the first ones, which people read. Each polish costs a handful of
/// solver calls that are often harder than the enumeration's own (TCAS v2,
/// `full`: 0.63 s unpolished, 1.0 s with 10 polished diagnoses).
pub const POLISHED: usize = 10;

/// Looks for a model of the same diagnosis whose angelic values read well:
/// each relaxed integer instance keeps its computed value where it can, else
/// takes a value in [-1, 1], else in [-100, 100], else any. Preferences are
/// dropped as unsat cores name them (a handful of solver calls). Returns
/// `None` (keep the model) if the solver gives up or the budget runs out.
pub fn polish(
    engine: &mut Engine,
    solver: &Solver,
    base: &[Bool],
    insts: &[&faultline_smt::RelaxedInstance],
    d: &BTreeSet<StmtId>,
    model: &Model,
) -> Option<Model> {
    use faultline_smt::sym::SVal;
    let active = |inst: &&&faultline_smt::RelaxedInstance| {
        d.contains(&inst.stmt)
            && model.eval(&inst.guard, true).and_then(|b| b.as_bool()) == Some(true)
    };
    // Instances per statement: a statement of an MCS changes some instance's
    // value in every model, so one executed once cannot keep its value.
    let mut count: BTreeMap<StmtId, usize> = BTreeMap::new();
    for inst in insts.iter().filter(active) {
        *count.entry(inst.stmt).or_default() += 1;
    }
    // Per instance: its tiers of preference, most preferred first.
    let mut tiers: Vec<Vec<Bool>> = Vec::new();
    for inst in insts.iter().filter(active) {
        if let InstValue::Scalar {
            chosen: SVal::Int(c),
            computed: SVal::Int(v),
        } = &inst.value
        {
            let sem = c.sem();
            let lo1 = faultline_smt::sym::SInt::constant(sem, c.kind, -1);
            let hi1 = faultline_smt::sym::SInt::constant(sem, c.kind, 1);
            let lo2 = faultline_smt::sym::SInt::constant(sem, c.kind, -100);
            let hi2 = faultline_smt::sym::SInt::constant(sem, c.kind, 100);
            let within = |lo: &faultline_smt::sym::SInt, hi: &faultline_smt::sym::SInt| {
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
                t.extend(within(
                    &faultline_smt::sym::SInt::constant(sem, c.kind, 0),
                    &hi1,
                ));
                t.extend(within(
                    &faultline_smt::sym::SInt::constant(sem, c.kind, 0),
                    &hi2,
                ));
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
    if tiers.is_empty() {
        return None;
    }
    let mut level = vec![0usize; tiers.len()];
    for _ in 0..12 {
        let prefs: Vec<(usize, Bool)> = level
            .iter()
            .enumerate()
            .filter_map(|(i, &l)| tiers[i].get(l).map(|b| (i, b.clone())))
            .collect();
        let mut assumptions = base.to_vec();
        assumptions.extend(prefs.iter().map(|(_, b)| b.clone()));
        engine.stats.solver_calls += 1;
        let t0 = Instant::now();
        let r = solver.check_assumptions(&assumptions);
        engine.stats.solve_time += t0.elapsed();
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

/// One test's own formula with its MCS enumerator.
struct OwnFormula {
    solver: Solver,
    enc: TestEncoding,
    ab: AbVars,
    en: McsEnumerator,
    softs: Softs,
}

impl OwnFormula {
    fn new(engine: &mut Engine, t: usize) -> Option<OwnFormula> {
        let solver = engine.solver();
        let mut ab = AbVars::new();
        let enc = engine.encode_into(t, &Sink::new(&solver), &mut ab)?;
        engine.stats.tests_encoded += 1;
        let mut en = McsEnumerator::new(engine.mcs_options());
        let mut softs = Softs::new();
        softs.sync(engine, &ab, &mut en);
        Some(OwnFormula {
            solver,
            enc,
            ab,
            en,
            softs,
        })
    }
}

/// Enumerates one test's MCSes on its own formula, or confirms those of a
/// test on the same path ([`crate::share`]).
fn test_mcses(
    engine: &mut Engine,
    t: usize,
    memo: &mut PathMemo,
) -> Result<Vec<TestMcs>, Incomplete> {
    let session = engine.session;
    let sig = engine
        .signature
        .get(&t)
        .copied()
        .filter(|_| engine.options.share_paths);
    let candidate = sig.and_then(|g| memo.candidate(engine, t, g));
    let Some(mut f) = OwnFormula::new(engine, t) else {
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
                .map(|r| (r.stmts, r.cost, r.angelic))
                .collect());
        }
        match OwnFormula::new(engine, t) {
            Some(fresh) => f = fresh,
            None => return Ok(Vec::new()),
        }
    }
    let expected = &session.tests[t].expected_stdout;
    let mut out = Vec::new();
    let mut known = Vec::new();
    loop {
        let t0 = Instant::now();
        let next = f.en.next(&f.solver);
        engine.stats.solve_time += t0.elapsed();
        match next {
            Ok(Some(m)) => {
                let d = f.softs.to_stmts(&m.members);
                let mut model = m.model;
                if out.len() < POLISHED {
                    let insts: Vec<&faultline_smt::RelaxedInstance> =
                        f.enc.relaxed.iter().collect();
                    let base: Vec<Bool> = f.ab.relaxing_exactly(&d);
                    if let Some(better) = polish(engine, &f.solver, &base, &insts, &d, &model) {
                        model = better;
                    }
                }
                let a = angelic_values(session, t, &f.enc, &model, &d);
                if sig.is_some() {
                    known.push(Known {
                        stmts: d.clone(),
                        cost: m.cost,
                        witness: Witness::from_model(&f.enc, &model, &d, expected),
                    });
                }
                f.en.block(&f.solver, &m.members);
                out.push((d, m.cost, a));
                if out.len() >= engine.options.max_diagnoses {
                    break;
                }
            }
            Ok(None) => {
                if let Some(g) = sig {
                    memo.remember(g, known);
                }
                break;
            }
            Err(stop) => {
                engine.stats.solver_calls += f.en.solver_calls();
                return Err(incomplete_of(stop));
            }
        }
    }
    engine.stats.solver_calls += f.en.solver_calls();
    Ok(out)
}

/// `per-test`: every failing test's MCSes, unmerged.
pub fn per_test(engine: &mut Engine) -> (Vec<Diagnosis>, Option<Incomplete>) {
    let mut all = Vec::new();
    let mut memo = PathMemo::default();
    for &t in &engine.session.failing.clone() {
        if let Some(inc) = engine.limit_hit() {
            return (all, Some(inc));
        }
        match test_mcses(engine, t, &mut memo) {
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
    let mut memo = PathMemo::default();
    for &t in &engine.session.failing.clone() {
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
