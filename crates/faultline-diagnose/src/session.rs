//! The test session: a program with its tests run, what every method starts
//! from. It holds the one copy of how runs are compared and limited, which
//! test runs and replays both read.

use crate::bounds::Needs;
use crate::result::TestVerdict;
use faultline_exec::trace::{Scope, Trace};
use faultline_exec::{
    Compare, ErrorKind, Executable, Exhausted, Limits, Run, RunOptions, Termination, TestCase,
};
use faultline_ir::{Branch, Program, StmtId, StmtKind};
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

/// Progress of a localization, for a progress indicator (and for a caller
/// that keeps the diagnoses found so far, to report them should the search
/// not return in time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Progress<'a> {
    /// `done` of `total` tests have run.
    TestsRun { done: usize, total: usize },
    /// `done` formulas of the `total` failing tests have been built.
    TestsEncoded { done: usize, total: usize },
    /// The diagnoses found so far, in the order found (not yet ranked).
    Diagnoses(&'a [crate::result::Diagnosis]),
}

/// The least stack a replay may use (bytes): 256 KiB, some thousands of
/// frames, whatever the test runs used.
pub const MIN_REPLAY_STACK: u64 = 256 << 10;

/// A progress callback (called from the thread doing the work).
#[derive(Clone)]
pub struct ProgressHook(pub std::sync::Arc<dyn Fn(Progress<'_>) + Send + Sync>);

impl std::fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProgressHook")
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
    /// How outputs were compared (replays compare the same way).
    pub compare: Compare,
    /// The limits of every run (replays and hijacked runs included).
    pub limits: Limits,
    /// Set when the thread's budget ran out while the tests ran: `tests`
    /// and `runs` are then those that ran before.
    pub incomplete: Option<Exhausted>,
    /// The failing tests whose formulas require another output than their
    /// expected one: `compare` accepts other outputs, and the formula
    /// requires the one closest to the run's ([`faultline_smt::oracle::target`]).
    targets: HashMap<usize, TestCase>,
    /// [`Session::replay_limits`], from `runs` (computed once: every
    /// replay asks for it).
    replay: Limits,
    /// [`Session::reads_input`], from the program (computed once, for
    /// every engine).
    input_reads: BTreeSet<StmtId>,
    /// [`Session::text_only`], from the program (computed once).
    text_only: HashMap<StmtId, crate::printed::Printer>,
    /// [`Session::floating`], from the program (computed once).
    floating: HashMap<StmtId, crate::numeric::Precision>,
    /// [`Session::constants`], per function, from the program (computed
    /// once, for every engine).
    constants: Vec<Vec<i64>>,
}

/// Steps recorded of a failing run that a limit of its own ended (the step,
/// time or stack limit): enough to show where it went, and a trace that fits
/// in memory (its formula unrolls what it looped in to a small bound anyway,
/// see [`Session::needs`]). Runs that end by themselves are traced in full.
pub const CUT_TRACE_STEPS: u64 = 100_000;

/// Iterations (and recursion depth) the formula of a run ended by a limit of
/// its own allows a loop (or function) at least, beyond what the other
/// failing runs needed.
pub const CUT_UNWIND: u32 = 8;

/// Passing runs traced, at most, for the loops the failing runs ran inside
/// other loops ([`Session::nested_needs`]).
pub const PASSING_TRACED: usize = 8;

/// Whether a limit of the run's own (steps, time, stack) ended it: a loop
/// or a recursion that did not end in time.
fn is_cut(r: &Run) -> bool {
    matches!(
        &r.execution.termination,
        Termination::RuntimeError(e) if matches!(
            e.kind,
            ErrorKind::StepLimit | ErrorKind::TimeLimit | ErrorKind::StackOverflow
        )
    )
}

impl<'p> Session<'p> {
    /// Runs every test; failing ones are re-run with traces. The runs stop
    /// early when the thread's [`faultline_exec::Budget`] runs out
    /// ([`Session::incomplete`]).
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
        let mut incomplete = None;
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
            if let Termination::OutOfBudget(e) = r.execution.termination {
                incomplete = Some(e);
                break;
            }
            if r.passed() {
                runs.push(r);
                continue;
            }
            // The same run again, recording its trace (of its first steps
            // only when a limit of the run ended it).
            let cut = is_cut(&r);
            let traced = if cut {
                let steps = r.execution.steps.min(CUT_TRACE_STEPS);
                RunOptions {
                    limits: Limits {
                        max_steps: Some(steps),
                        max_time: None,
                        ..limits
                    },
                    ..traced
                }
            } else {
                traced
            };
            let mut again = faultline_exec::run(&exe, t, &traced);
            if let Termination::OutOfBudget(e) = again.execution.termination {
                incomplete = Some(e);
                break;
            }
            if let Some(tr) = again.execution.trace.take() {
                traces.insert(i, tr);
            }
            failing.push(i);
            runs.push(r);
        }
        let mut targets = HashMap::new();
        let ended = |r: &Run| matches!(r.execution.termination, Termination::Exit(_));
        let normal: Vec<&[u8]> = runs
            .iter()
            .filter(|r| ended(r))
            .map(|r| &r.execution.stdout[..])
            .collect();
        let ending = faultline_smt::oracle::ending(&normal);
        for &i in &failing {
            let e = &runs[i].execution;
            let t = &tests[i];
            let target = match ended(&runs[i]) {
                true => faultline_smt::oracle::target(compare, &t.expected_stdout, Some(&e.stdout)),
                false => faultline_smt::oracle::cut_target(
                    compare,
                    &t.expected_stdout,
                    &e.stdout,
                    ending.as_deref(),
                ),
            };
            if target != t.expected_stdout {
                let mut f = t.clone();
                f.expected_stdout = target;
                targets.insert(i, f);
            }
        }
        let replay = replay_limits(&runs, limits);
        Ok(Session {
            prog,
            tests: &tests[..runs.len()],
            targets,
            replay,
            input_reads: input_reads(prog),
            text_only: crate::printed::text_only(prog),
            floating: crate::numeric::floating(prog),
            constants: crate::switch::constants(prog),
            runs,
            failing,
            traces,
            run_time: start.elapsed(),
            compare,
            limits,
            incomplete,
        })
    }

    /// Whether statement `s` calls a function that reads the test's input
    /// ([`faultline_ir::builtins::Builtin::is_input`]): what it stores is a
    /// hard fact of the test, which the formulas do not relax and
    /// re-execution never replaces.
    pub fn reads_input(&self, s: StmtId) -> bool {
        self.input_reads.contains(&s)
    }

    /// How statement `s` is relaxed if its only effect is what it prints
    /// to stdout ([`crate::printed`]).
    pub fn text_only(&self, s: StmtId) -> Option<crate::printed::Printer> {
        self.text_only.get(&s).copied()
    }

    /// The precision of statement `s`'s values when they are floating
    /// ([`crate::numeric::floating`]).
    pub fn floating(&self, s: StmtId) -> Option<crate::numeric::Precision> {
        self.floating.get(&s).copied()
    }

    /// The constants a switch search gives a statement of function `func`
    /// that computes a constant ([`crate::switch::constants`]).
    pub fn constants(&self, func: faultline_ir::FuncId) -> &[i64] {
        &self.constants[func.index()]
    }

    /// Test `t` as its formula sees it: its expected output is the output
    /// the formula requires (see [`faultline_smt::oracle::target`]); the
    /// test itself when outputs are compared exactly. Runs and replays are
    /// judged against [`Session::tests`] with [`Session::compare`].
    pub fn formula_test(&self, t: usize) -> &TestCase {
        self.targets.get(&t).unwrap_or(&self.tests[t])
    }

    /// The limits of runs made while localizing (replays with angelic
    /// values, repairs, hijacked runs): a step count of ten times the
    /// longest test run (at least 100,000) instead of a time limit, so
    /// that a replay that does not terminate ends soon and the same way on
    /// any machine; and a stack of ten times the deepest test run's (at
    /// least [`MIN_REPLAY_STACK`], at most the runs' own limit), so that a
    /// change that recurses without end (a base case turned around) ends
    /// after thousands of calls, not after the hundreds of thousands an
    /// 8 MiB stack holds (`fibonacci`'s repairs took 1.4 s and 750 MiB).
    pub fn replay_limits(&self) -> Limits {
        self.replay
    }

    pub fn verdicts(&self) -> Vec<TestVerdict> {
        self.tests
            .iter()
            .zip(&self.runs)
            .map(|(t, r)| {
                let whitespace_only = matches!(
                    &r.verdict,
                    faultline_exec::Verdict::Fail(faultline_exec::FailReason::Output { .. })
                ) && self.compare != Compare::IgnoreWhitespace
                    && Compare::IgnoreWhitespace.agrees(&t.expected_stdout, &r.execution.stdout);
                let reason = match &r.verdict {
                    faultline_exec::Verdict::Pass => None,
                    faultline_exec::Verdict::Fail(f) if whitespace_only => Some(format!(
                        "{}; {}",
                        crate::result::WHITESPACE_ONLY,
                        f.describe(self.prog)
                    )),
                    faultline_exec::Verdict::Fail(f) => Some(f.describe(self.prog)),
                };
                TestVerdict {
                    name: t.name.clone(),
                    passed: r.passed(),
                    reason,
                    whitespace_only,
                }
            })
            .collect()
    }

    /// What the failing runs needed (loop iterations, recursion depth). A
    /// run stopped by the step or depth limit needs, for each loop and
    /// function, what the other failing runs needed and at least
    /// [`CUT_UNWIND`]: the expected output needs its loops to end, and the
    /// formula leaves when to the solver.
    pub fn needs(&self) -> Needs {
        let mut n = Needs::default();
        let mut cut = Vec::new();
        for t in &self.failing {
            if let Some(tr) = self.traces.get(t) {
                let mut needs = Needs::of_trace(self.prog, tr);
                if let Termination::RuntimeError(_) = &self.runs[*t].execution.termination {
                    needs.open_at_end(tr, CUT_UNWIND);
                }
                if is_cut(&self.runs[*t]) {
                    cut.push(needs);
                } else {
                    n.merge(&needs);
                }
            }
        }
        for c in cut {
            n.merge(&c.capped(&n, CUT_UNWIND));
        }
        self.break_needs(&mut n);
        self.nested_needs(&mut n);
        n
    }

    /// Extends `n` for the loops the failing runs ran inside an iteration
    /// of another loop: a fix that runs the outer loop once more runs the
    /// inner one anew, and as often as the program needs there, not as the
    /// failing run's other executions of it did (`factorize`: `n % d == 0`
    /// tested once per divisor the faulty bound allowed, twice and more at
    /// the divisor it left out). Likewise the loops the failing runs ran in
    /// a call with relaxable arguments (`print_range(a, b)` for
    /// `print_range(b, a)` runs its loop as the right bounds need, not as
    /// the wrong ones did). The evidence is the passing runs': such a
    /// loop is unrolled at least as often as any of the first
    /// [`PASSING_TRACED`] passing runs ran it in one execution, at most
    /// [`crate::bounds::JUMP_UNWIND`] times.
    fn nested_needs(&self, n: &mut Needs) {
        let mut nested = std::collections::BTreeSet::new();
        for tr in self.failing.iter().filter_map(|t| self.traces.get(t)) {
            let mut seen = std::collections::HashSet::new();
            for ev in &tr.events {
                let kind = self.prog.stmt(ev.inst.stmt).kind;
                let cond = matches!(kind, StmtKind::LoopCond | StmtKind::DoWhileCond);
                if !seen.insert(ev.inst.ctx) && !cond {
                    continue;
                }
                let (mut outer, mut args) = (false, false);
                for s in tr.contexts.chain(ev.inst.ctx) {
                    match s {
                        Scope::Iter(l, _) => {
                            if outer || args {
                                nested.insert(l);
                            }
                            outer = true;
                        }
                        // A call with relaxable arguments: relaxed, the
                        // callee's loops run as the new arguments need.
                        Scope::Call(site) if self.prog.call_sites[site.index()].relax_args => {
                            args = true;
                        }
                        _ => {}
                    }
                }
                if args && cond {
                    nested.insert(ev.inst.stmt);
                }
            }
        }
        if nested.is_empty() {
            return;
        }
        let Ok(exe) = Executable::new(self.prog) else {
            return;
        };
        let traced = RunOptions {
            record_trace: true,
            limits: Limits {
                max_steps: Some(CUT_TRACE_STEPS),
                max_time: None,
                ..self.limits
            },
            compare: self.compare,
        };
        let passing = (0..self.runs.len()).filter(|t| !self.failing.contains(t));
        for t in passing.take(PASSING_TRACED) {
            let r = faultline_exec::run(&exe, &self.tests[t], &traced);
            if is_cut(&r) {
                continue;
            }
            let Some(tr) = r.execution.trace.as_ref() else {
                continue;
            };
            let p = Needs::of_trace(self.prog, tr);
            for l in &nested {
                if let Some(k) = p.loops.get(l) {
                    let e = n.loops.entry(*l).or_insert(0);
                    *e = (*e).max((*k).min(crate::bounds::JUMP_UNWIND));
                }
            }
        }
    }

    /// Extends `n` for the loops that a `break` executed by a failing run
    /// leaves: relaxed, it goes on, and the loop runs as long as its
    /// condition allows. The evidence of how long is the suite's: the most
    /// times any run tested the loop's condition (counting every execution
    /// of the loop in that run), at most [`crate::bounds::JUMP_UNWIND`].
    fn break_needs(&self, n: &mut Needs) {
        for (brk, j, l) in crate::bounds::loop_jumps(self.prog) {
            if j != faultline_ir::Jump::Break || l == StmtId::NO_CONDITION {
                // Only its `break`s end a `for (;;)`: going on never ends it.
                continue;
            }
            let ran = |t: &usize| self.runs[*t].execution.coverage.stmts[brk.index()] > 0;
            if !self.failing.iter().any(ran) {
                continue;
            }
            let tested = self
                .runs
                .iter()
                .map(|r| {
                    let c = &r.execution.coverage.branches;
                    let t = c.get(&(l, Branch::True)).copied().unwrap_or(0);
                    let f = c.get(&(l, Branch::False)).copied().unwrap_or(0);
                    t + f
                })
                .max()
                .unwrap_or(0)
                .min(crate::bounds::JUMP_UNWIND);
            let e = n.loops.entry(l).or_insert(0);
            *e = (*e).max(tested);
        }
    }

    /// The failing tests whose runs were stopped by the step or depth limit.
    pub fn cut_runs(&self) -> Vec<usize> {
        self.failing
            .iter()
            .copied()
            .filter(|t| is_cut(&self.runs[*t]))
            .collect()
    }

    /// Whether test `t`'s run was cut by its own limit (a loop or recursion
    /// that did not end).
    pub fn is_cut(&self, t: usize) -> bool {
        is_cut(&self.runs[t])
    }

    /// The branch decisions of failing test `t`'s run (empty without a trace).
    fn decisions(&self, t: usize) -> Vec<(StmtId, Branch)> {
        match self.traces.get(&t) {
            Some(tr) => tr.decisions().map(|(i, b)| (i.stmt, b)).collect(),
            None => Vec::new(),
        }
    }

    /// Numbers the failing tests' paths: tests with equal numbers took the
    /// same branch decisions.
    pub fn path_signatures(&self) -> HashMap<usize, usize> {
        type Sig = (Vec<(StmtId, Branch)>, Option<Vec<u8>>);
        let mut ids: HashMap<Sig, usize> = HashMap::new();
        let mut out = HashMap::new();
        for &t in &self.failing {
            let path = self.decisions(t);
            // A run cut short by a runtime error says little about the path its
            // test needs: its expected output tells the groups apart.
            let cut = matches!(
                self.runs[t].execution.termination,
                faultline_exec::Termination::RuntimeError(_)
            );
            let sig = (
                path,
                cut.then(|| self.formula_test(t).expected_stdout.clone()),
            );
            let n = ids.len();
            out.insert(t, *ids.entry(sig).or_insert(n));
        }
        out
    }

    /// The failing tests grouped by the branch decisions of their runs; the
    /// first test of each group comes first (tests with one path tend to
    /// share diagnoses).
    pub fn representatives_first(&self) -> Vec<usize> {
        let mut seen: HashMap<Vec<(StmtId, Branch)>, usize> = HashMap::new();
        let mut reps = Vec::new();
        let mut rest = Vec::new();
        for &t in &self.failing {
            if seen.insert(self.decisions(t), t).is_none() {
                reps.push(t);
            } else {
                rest.push(t);
            }
        }
        reps.extend(rest);
        reps
    }
}

/// [`Session::replay_limits`] of `runs`, made under `limits`. Runs cut by
/// their own limits do not count: a loop that did not end would make every
/// replay as long as the run limit allows (a vowel counter whose `while`
/// never advanced ran 1.4 million steps in half a second, and each replay
/// of a witness then ran 14 million steps, 7 s with the witness applied).
fn replay_limits(runs: &[Run], limits: Limits) -> Limits {
    let ended = || runs.iter().filter(|r| !is_cut(r));
    let longest = ended().map(|r| r.execution.steps).max();
    let deepest = ended().map(|r| r.execution.peak_stack).max();
    Limits {
        max_steps: Some(longest.unwrap_or(0).saturating_mul(10).max(100_000)),
        max_time: None,
        stack_size: deepest
            .unwrap_or(0)
            .saturating_mul(10)
            .max(MIN_REPLAY_STACK)
            .min(limits.stack_size),
        ..limits
    }
}

/// The statements of `prog` that call a function reading the test's input
/// ([`Session::reads_input`]).
fn input_reads(prog: &Program) -> BTreeSet<StmtId> {
    use faultline_ir::visit::{for_each_stmt, stmt_exprs, walk_expr, Visitor};
    struct Finds(bool);
    impl<'a> Visitor<'a> for Finds {
        fn visit_expr(&mut self, e: &'a faultline_ir::Expr) {
            match &e.kind {
                faultline_ir::ExprKind::Builtin { func, .. } if func.is_input() => self.0 = true,
                _ => walk_expr(self, e),
            }
        }
    }
    let mut out = BTreeSet::new();
    for f in &prog.functions {
        for_each_stmt(&f.body, &mut |s| {
            let mut finds = Finds(false);
            stmt_exprs(s, |e| finds.visit_expr(e));
            if let (true, Some(id)) = (finds.0, s.id()) {
                out.insert(id);
            }
        });
    }
    out
}
