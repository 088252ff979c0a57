//! Cascade fault localization (CaFL; Yi, Yang, Liu, Zhao, Wang, "Explaining
//! Software Failures by Cascade Fault Localization"): a tree of causes of one
//! failing run.
//!
//! - [`model`]: the failing run's trace as SSA actions (`v := e`, `assume(c)`),
//!   replayed over the interpreter's trace with the run's addresses.
//! - [`wp`]: `computeCause`: weakest preconditions backwards from a failure
//!   predicate to the first unsatisfiable point, a minimal unsatisfiable core,
//!   and the instances that transformed its conjuncts.
//! - [`critical`]: direct and indirect critical conditions, dynamic slices.
//! - this module: the tree (level 0 explains the failure; each critical
//!   condition of a cause at level i is the failure of a child at level i+1),
//!   built breadth first, with the user's feedback (correct statements,
//!   benign causes) and the ranking derived from it.

pub mod critical;
pub mod guided;
pub mod measure;
pub mod model;
pub mod wp;

use crate::result::Incomplete;
use critical::{CriticalKind, Facts};
use faultline_exec::budget::{Budget, Exhausted};
use faultline_exec::interp::{ExecOptions, Executable, Hooks, Site};
use faultline_exec::suite::FailReason;
use faultline_exec::trace::{Instance, Trace};
use faultline_exec::{Compare, Limits, TestCase, Verdict};
use faultline_ir::{FuncId, Program, StmtId};
use model::{ActionKind, Model, StepId};
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::time::{Duration, Instant};
use wp::{Cause, Failure, WpOptions};
use z3::ast::Bool;

/// Options of the method.
#[derive(Clone, Debug)]
pub struct CaflOptions {
    pub wp: WpOptions,
    /// Deepest level built (the root is level 0); `None`: no limit.
    pub max_level: Option<u32>,
    /// Most nodes built.
    pub max_nodes: usize,
    /// Functions designated correct: their calls are atomic.
    pub designated_correct: Vec<String>,
}

impl Default for CaflOptions {
    fn default() -> Self {
        CaflOptions {
            wp: WpOptions::default(),
            max_level: None,
            max_nodes: 1000,
            designated_correct: Vec::new(),
        }
    }
}

/// What the failure is.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureKind {
    /// A violated assertion (the predicate: the asserted condition).
    Assertion,
    /// Wrong output (the predicate: the printed values equal the expected ones).
    Output,
    /// A runtime error, a wrong exit status or a stopped run (the predicate:
    /// `false` at the last instance).
    Other,
}

/// A critical condition of a node's cause.
#[derive(Clone, Debug)]
pub struct Condition {
    /// The branch instance.
    pub step: StepId,
    pub kind: CriticalKind,
    /// The cause's instances it is critical for.
    pub from: Vec<StepId>,
    /// The child node explaining it, when built.
    pub child: Option<usize>,
    /// When the same branch instance is already explained by another node.
    pub duplicate_of: Option<usize>,
}

/// Why a node has no children.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeState {
    /// Its critical conditions were expanded (as feedback allowed).
    Expanded,
    /// The user marked the cause benign: its subtree is pruned.
    Benign,
    /// `max_level` or `max_nodes` stopped the expansion.
    Truncated,
}

/// One cause in the tree.
#[derive(Clone, Debug)]
pub struct Node {
    /// Path id: "0" for the root, "0.2" for the child of its critical condition 2.
    pub id: String,
    pub level: u32,
    pub parent: Option<usize>,
    /// The failing instance this node explains: the failure (root) or the
    /// critical condition (branch instance) of the parent.
    pub failure: StepId,
    /// The cause's instances, in trace order (the failure instance included).
    pub cause: Vec<StepId>,
    /// Whether the weakest precondition became unsatisfiable.
    pub refuted: bool,
    pub conditions: Vec<Condition>,
    pub state: NodeState,
}

/// Counters.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Stats {
    /// Instances of the failing run.
    pub trace_instances: usize,
    /// Distinct instances in the tree's causes.
    pub tree_instances: usize,
    pub solver_checks: u32,
    #[serde(skip)]
    pub time: Duration,
}

/// The failing test's explanation: the run, its model, and the tree.
pub struct Explainer<'p> {
    pub prog: &'p Program,
    pub test: String,
    pub trace: Trace,
    pub model: Model,
    pub facts: Facts,
    pub failure_kind: FailureKind,
    /// One line on what failed.
    pub failure_text: String,
    root: Failure,
    pub options: CaflOptions,
    cache: HashMap<Option<StepId>, Cause>,
    /// Lines marked correct.
    pub correct: BTreeSet<u32>,
    /// Nodes marked benign (ids).
    pub benign: BTreeSet<String>,
    pub nodes: Vec<Node>,
    pub stats: Stats,
    /// The thread's time or memory limit ran out while the tree was built:
    /// the nodes not built yet are missing (their parents are `Truncated`).
    pub incomplete: Option<Incomplete>,
    solver: z3::Solver,
}

/// Records what each output instance printed.
#[derive(Default)]
struct OutputLog(Vec<(Instance, Vec<u8>)>);

impl Hooks for OutputLog {
    fn output(&mut self, site: &Site, computed: Vec<u8>) -> Vec<u8> {
        self.0.push((site.inst, computed.clone()));
        computed
    }
}

impl<'p> Explainer<'p> {
    /// Runs `test` (which must fail) and builds its tree.
    pub fn new(
        prog: &'p Program,
        test: &TestCase,
        compare: Compare,
        limits: Limits,
        options: CaflOptions,
    ) -> Result<Explainer<'p>, String> {
        let start = Instant::now();
        let mut atomic: BTreeSet<FuncId> = BTreeSet::new();
        for name in &options.designated_correct {
            match prog.func_by_name(name) {
                Some(f) => {
                    atomic.insert(f);
                }
                None => {
                    return Err(format!(
                        "error: --designated-correct: no function named `{name}`"
                    ))
                }
            }
        }
        let exe = Executable::new(prog).map_err(|e| format!("error: {}", e.describe(prog)))?;
        let mut log = OutputLog::default();
        let execution = exe.run(
            test.input(),
            ExecOptions {
                record_trace: true,
                limits,
                hooks: Some(&mut log),
            },
        );
        if let faultline_exec::Termination::OutOfBudget(e) = execution.termination {
            return Err(limit_message(&incomplete_of(e), "running the test"));
        }
        let verdict = faultline_exec::suite::judge(test, &execution, compare);
        let reason = match verdict {
            Verdict::Pass => return Err(format!("error: test `{}` passes", test.name)),
            Verdict::Fail(r) => r,
        };
        // The output the failure is measured against: the one closest to
        // the run's that `compare` accepts (faultline_smt::oracle::target).
        let ended = matches!(execution.termination, faultline_exec::Termination::Exit(_));
        // A run cut short: the expected words with the run's whitespace as
        // far as it printed them (one test: no other runs show the
        // program's ending).
        let test = &TestCase {
            expected_stdout: match ended {
                true => faultline_smt::oracle::target(
                    compare,
                    &test.expected_stdout,
                    Some(&execution.stdout),
                ),
                false => faultline_smt::oracle::cut_target(
                    compare,
                    &test.expected_stdout,
                    &execution.stdout,
                    None,
                ),
            },
            ..test.clone()
        };
        let trace = execution.trace.clone().unwrap_or_default();
        if trace.events.is_empty() {
            return Err(format!("error: test `{}` executed no statement", test.name));
        }
        let (model, facts) = faultline_smt::limits::guard(|| {
            let model = Model::build(prog, &trace, &atomic);
            let facts = Facts::new(prog, &model);
            (model, facts)
        })
        .map_err(|s| limit_message(&stopped(&s), "modelling the run"))?;
        let (failure_kind, root) =
            failure_of(&model, &trace, test, &execution.stdout, &reason, &log);
        let failure_text = match &reason {
            FailReason::Output {
                line,
                expected,
                actual,
            } => {
                format!(
                    "output line {line}: expected `{}`, got `{}`",
                    expected.escape_debug(),
                    actual.escape_debug()
                )
            }
            FailReason::ExitStatus { expected, actual } => {
                format!("exit status {actual}, expected {expected}")
            }
            FailReason::Assertion { message } => message.trim().to_string(),
            FailReason::RuntimeError(e) => e.describe(prog),
        };
        let mut ex = Explainer {
            prog,
            test: test.name.clone(),
            trace,
            model,
            facts,
            failure_kind,
            failure_text,
            root,
            options,
            cache: HashMap::new(),
            correct: BTreeSet::new(),
            benign: BTreeSet::new(),
            nodes: Vec::new(),
            stats: Stats::default(),
            incomplete: None,
            solver: z3::Solver::new(),
        };
        ex.build();
        ex.stats.time = start.elapsed();
        match (ex.nodes.is_empty(), &ex.incomplete) {
            (true, Some(e)) => Err(limit_message(e, "explaining the failure")),
            _ => Ok(ex),
        }
    }

    pub fn line(&self, s: StepId) -> u32 {
        self.prog.stmt(self.model.steps[s].stmt).loc.line
    }

    pub fn stmt(&self, s: StepId) -> StmtId {
        self.model.steps[s].stmt
    }

    /// Whether guided by feedback: with statements marked correct, only their
    /// critical conditions are expanded; otherwise every one is.
    pub fn guided(&self) -> bool {
        !self.correct.is_empty()
    }

    /// Marks the statements on `lines` correct and rebuilds the tree.
    pub fn mark_correct(&mut self, lines: &[u32]) -> Result<(), String> {
        for &l in lines {
            if !self
                .model
                .steps
                .iter()
                .any(|s| s.in_model && self.prog.stmt(s.stmt).loc.line == l)
            {
                return Err(format!(
                    "error: --correct: line {l} has no statement the failing run executed"
                ));
            }
        }
        self.correct.extend(lines.iter().copied());
        self.build();
        Ok(())
    }

    /// Removes correctness marks and rebuilds.
    pub fn unmark_correct(&mut self, lines: &[u32]) {
        for l in lines {
            self.correct.remove(l);
        }
        self.build();
    }

    /// Marks a node benign (prunes its subtree) and rebuilds.
    pub fn mark_benign(&mut self, id: &str) -> Result<(), String> {
        if !self.nodes.iter().any(|n| n.id == id) {
            let known: Vec<&str> = self.nodes.iter().map(|n| n.id.as_str()).collect();
            return Err(format!(
                "error: --benign: no node `{id}` in the tree (nodes: {})",
                known.join(", ")
            ));
        }
        self.benign.insert(id.to_string());
        self.build();
        Ok(())
    }

    pub fn unmark_benign(&mut self, id: &str) {
        self.benign.remove(id);
        self.build();
    }

    fn cause_of(&mut self, branch: Option<StepId>) -> Cause {
        if let Some(c) = self.cache.get(&branch) {
            return c.clone();
        }
        let failure = match branch {
            None => Some(self.root.clone()),
            Some(b) => {
                let st = &self.model.steps[b];
                st.assume.and_then(|a| match &self.model.actions[a].kind {
                    ActionKind::Assume(c, m) => Some(Failure {
                        step: b,
                        action: a,
                        pred: c.not(),
                        mentions: m.clone(),
                    }),
                    ActionKind::Def(_) => None,
                })
            }
        };
        let cause = match failure {
            Some(f) => {
                let slice = self
                    .options
                    .wp
                    .slicing
                    .then(|| self.facts.slice(&self.model, f.step, &f.mentions));
                wp::compute_cause(
                    &self.model,
                    &f,
                    self.options.wp,
                    slice.as_ref(),
                    &self.solver,
                )
            }
            None => Cause {
                steps: [branch.expect("a branch")].into(),
                refuted: false,
                solver_checks: 0,
            },
        };
        self.stats.solver_checks += cause.solver_checks;
        self.cache.insert(branch, cause.clone());
        cause
    }

    /// [`Self::make_node`] within the thread's budget: `None` (and
    /// `incomplete` set) once it is exhausted, before or while the node's
    /// cause is computed.
    fn make_node_within(
        &mut self,
        id: String,
        level: u32,
        parent: Option<usize>,
        branch: Option<StepId>,
    ) -> Option<usize> {
        if self.incomplete.is_some() {
            return None;
        }
        if let Some(e) = Budget::check_current() {
            self.incomplete = Some(incomplete_of(e));
            return None;
        }
        match faultline_smt::limits::guard(|| self.make_node(id, level, parent, branch)) {
            Ok(n) => Some(n),
            Err(s) => {
                self.incomplete = Some(stopped(&s));
                None
            }
        }
    }

    fn make_node(
        &mut self,
        id: String,
        level: u32,
        parent: Option<usize>,
        branch: Option<StepId>,
    ) -> usize {
        let cause = self.cause_of(branch);
        let failure = branch.unwrap_or(self.root.step);
        let conditions = self
            .facts
            .critical(&self.model, &cause.steps)
            .into_iter()
            .map(|(step, kind, from)| Condition {
                step,
                kind,
                from: from.into_iter().collect(),
                child: None,
                duplicate_of: None,
            })
            .collect();
        self.nodes.push(Node {
            id,
            level,
            parent,
            failure,
            cause: cause.steps.iter().copied().collect(),
            refuted: cause.refuted,
            conditions,
            state: NodeState::Expanded,
        });
        self.nodes.len() - 1
    }

    /// (Re)builds the tree breadth first under the current feedback.
    pub fn build(&mut self) {
        self.nodes.clear();
        self.incomplete = None;
        let Some(root) = self.make_node_within("0".into(), 0, None, None) else {
            return;
        };
        let mut explained: HashMap<StepId, usize> = HashMap::new();
        explained.insert(self.root.step, root);
        let mut queue = VecDeque::from([root]);
        while let Some(n) = queue.pop_front() {
            if self.benign.contains(&self.nodes[n].id) {
                self.nodes[n].state = NodeState::Benign;
                continue;
            }
            let level = self.nodes[n].level;
            for k in 0..self.nodes[n].conditions.len() {
                let (b, expand) = {
                    let c = &self.nodes[n].conditions[k];
                    let expand = !self.guided()
                        || c.from.iter().any(|&s| self.correct.contains(&self.line(s)));
                    (c.step, expand)
                };
                if !expand {
                    continue;
                }
                if let Some(&other) = explained.get(&b) {
                    self.nodes[n].conditions[k].duplicate_of = Some(other);
                    continue;
                }
                if self.options.max_level.is_some_and(|m| level + 1 > m)
                    || self.nodes.len() >= self.options.max_nodes
                {
                    self.nodes[n].state = NodeState::Truncated;
                    continue;
                }
                let id = format!("{}.{k}", self.nodes[n].id);
                let Some(child) = self.make_node_within(id, level + 1, Some(n), Some(b)) else {
                    self.nodes[n].state = NodeState::Truncated;
                    break;
                };
                self.nodes[n].conditions[k].child = Some(child);
                explained.insert(b, child);
                queue.push_back(child);
            }
        }
        let mut inside: BTreeSet<StepId> = BTreeSet::new();
        for n in &self.nodes {
            inside.extend(n.cause.iter().copied());
        }
        self.stats.trace_instances = self.model.steps.iter().filter(|s| s.in_model).count();
        self.stats.tree_instances = inside.len();
    }

    /// The node with this id.
    pub fn node(&self, id: &str) -> Option<usize> {
        self.nodes.iter().position(|n| n.id == id)
    }

    /// Statements in the order a user inspects them walking the tree breadth
    /// first: by level, then order in the trace; each with its level.
    pub fn ranking(&self) -> Vec<(StmtId, u32)> {
        let mut order: Vec<usize> = (0..self.nodes.len()).collect();
        order.sort_by_key(|&n| (self.nodes[n].level, n));
        let mut by_level: Vec<(u32, StepId)> = Vec::new();
        for n in order {
            for &s in &self.nodes[n].cause {
                by_level.push((self.nodes[n].level, s));
            }
        }
        by_level.sort();
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for (level, s) in by_level {
            let stmt = self.stmt(s);
            if seen.insert(stmt) {
                out.push((stmt, level));
            }
        }
        out
    }

    /// Source lines inspected, breadth first, up to and including the first
    /// of `faulty` (`None` when the tree never reaches them).
    pub fn lines_until(&self, faulty: &[u32]) -> Option<usize> {
        let mut seen = BTreeSet::new();
        for (stmt, _) in self.ranking() {
            let line = self.prog.stmt(stmt).loc.line;
            seen.insert(line);
            if faulty.contains(&line) {
                return Some(seen.len());
            }
        }
        None
    }

    /// The share of the trace's instances inside the tree's causes.
    pub fn share(&self) -> f64 {
        if self.stats.trace_instances == 0 {
            0.0
        } else {
            self.stats.tree_instances as f64 / self.stats.trace_instances as f64
        }
    }

    /// The share of the trace's instances inside one node's cause.
    pub fn node_share(&self, n: usize) -> f64 {
        if self.stats.trace_instances == 0 {
            0.0
        } else {
            self.nodes[n].cause.len() as f64 / self.stats.trace_instances as f64
        }
    }

    /// Distinct source lines of a node's cause, in trace order.
    pub fn node_lines(&self, n: usize) -> Vec<(u32, StmtId)> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for &s in &self.nodes[n].cause {
            let stmt = self.stmt(s);
            if seen.insert(stmt) {
                out.push((self.line(s), stmt));
            }
        }
        out
    }
}

/// The failure predicate of the run.
fn failure_of(
    model: &Model,
    trace: &Trace,
    test: &TestCase,
    stdout: &[u8],
    reason: &FailReason,
    log: &OutputLog,
) -> (FailureKind, Failure) {
    let last = trace.events.len() - 1;
    let last_step = (0..trace.events.len())
        .rev()
        .find(|&i| model.steps[i].in_model)
        .unwrap_or(last);
    let fallback = |step: StepId| Failure {
        step,
        action: model.steps[step].end_action,
        pred: Bool::from_bool(false),
        mentions: Vec::new(),
    };
    match reason {
        FailReason::Assertion { .. } => {
            let step = (0..trace.events.len())
                .rev()
                .find(|&i| model.steps[i].check.is_some())
                .unwrap_or(last_step);
            match &model.steps[step].check {
                Some((c, m)) => (
                    FailureKind::Assertion,
                    Failure {
                        step,
                        action: model.steps[step].end_action,
                        pred: c.clone(),
                        mentions: m.clone(),
                    },
                ),
                None => (FailureKind::Other, fallback(step)),
            }
        }
        FailReason::Output { .. } => {
            let index: HashMap<Instance, StepId> = trace
                .events
                .iter()
                .enumerate()
                .map(|(i, e)| (e.inst, i))
                .collect();
            let expected = &test.expected_stdout;
            let diff = expected
                .iter()
                .zip(stdout)
                .position(|(a, b)| a != b)
                .unwrap_or(expected.len().min(stdout.len()));
            let mut at = 0;
            let mut chosen = None;
            for (inst, text) in &log.0 {
                let Some(&s) = index.get(inst) else { continue };
                chosen = Some((s, at));
                if diff < at + text.len() {
                    break;
                }
                at += text.len();
            }
            let Some((step, start)) = chosen else {
                return (FailureKind::Output, fallback(last_step));
            };
            let pred = model.steps[step].printed.as_ref().and_then(|p| {
                let fmt = p.format.as_ref()?;
                // The expected text must match this statement's format, and
                // differ from what it printed in an integer it printed;
                // otherwise the statement should not have printed what it
                // did at all: the predicate is `false` there.
                let want = format_values(fmt, expected.get(start..)?)?;
                let got = format_values(fmt, stdout.get(start..)?)?;
                if want.len() != p.args.len() || want == got {
                    return None;
                }
                let mut eqs = Vec::new();
                let mut mentions = BTreeSet::new();
                for ((arg, m), w) in p.args.iter().zip(&want) {
                    let Some(w) = w else { continue };
                    let faultline_smt::sym::SVal::Int(i) = arg.as_ref()? else {
                        return None;
                    };
                    eqs.push(i.eq_const(*w));
                    mentions.extend(m.iter().copied());
                }
                let refs: Vec<&Bool> = eqs.iter().collect();
                Some((Bool::and(&refs), mentions.into_iter().collect()))
            });
            match pred {
                Some((pred, mentions)) => (
                    FailureKind::Output,
                    Failure {
                        step,
                        action: model.steps[step].end_action,
                        pred,
                        mentions,
                    },
                ),
                None => (FailureKind::Output, fallback(step)),
            }
        }
        _ => (FailureKind::Other, fallback(last_step)),
    }
}

/// The integer values a printf format's conversions print in `text` (`None`
/// entries for conversions that are not integers); `None` when `text` does
/// not match the format.
fn format_values(fmt: &[u8], text: &[u8]) -> Option<Vec<Option<i128>>> {
    let mut out = Vec::new();
    let (mut i, mut t) = (0, 0);
    while i < fmt.len() {
        if fmt[i] != b'%' {
            if text.get(t) != Some(&fmt[i]) {
                return None;
            }
            i += 1;
            t += 1;
            continue;
        }
        i += 1;
        if fmt.get(i) == Some(&b'%') {
            if text.get(t) != Some(&b'%') {
                return None;
            }
            i += 1;
            t += 1;
            continue;
        }
        while i < fmt.len() && (b"-+ #0123456789.lhz".contains(&fmt[i])) {
            i += 1;
        }
        let conv = *fmt.get(i)?;
        i += 1;
        match conv {
            b'd' | b'i' | b'u' => {
                while text.get(t) == Some(&b' ') {
                    t += 1;
                }
                let s = t;
                if matches!(text.get(t), Some(b'-') | Some(b'+')) {
                    t += 1;
                }
                while text.get(t).is_some_and(|c| c.is_ascii_digit()) {
                    t += 1;
                }
                let v: i128 = std::str::from_utf8(&text[s..t]).ok()?.parse().ok()?;
                out.push(Some(v));
            }
            b'c' => {
                out.push(Some(*text.get(t)? as i128));
                t += 1;
            }
            _ => {
                // Other conversions: skip to the next literal character of the format.
                let next = fmt.get(i).copied();
                while t < text.len() && Some(text[t]) != next {
                    t += 1;
                }
                out.push(None);
            }
        }
    }
    Some(out)
}

fn incomplete_of(e: Exhausted) -> Incomplete {
    match e {
        Exhausted::Time => Incomplete::Timeout,
        Exhausted::Memory => Incomplete::Memory,
    }
}

/// What a stop of Z3's work means: the budget when it is exhausted (an
/// interrupted Z3 call may fail rather than return), else Z3's failure.
fn stopped(s: &faultline_smt::limits::Stopped) -> Incomplete {
    match (s, Budget::exhausted_current()) {
        (&faultline_smt::limits::Stopped::Budget(e), _) | (_, Some(e)) => incomplete_of(e),
        (faultline_smt::limits::Stopped::Solver(m), None) => Incomplete::Solver(m.clone()),
    }
}

/// The message of a limit reached before the tree's root was built.
fn limit_message(e: &Incomplete, while_: &str) -> String {
    format!("error: {} while {while_}: no cause tree", e.describe())
}

/// The index of the failing test named `name` (or the first failing test).
pub fn choose_test(
    prog: &Program,
    tests: &[TestCase],
    name: Option<&str>,
    compare: Compare,
    limits: Limits,
) -> Result<usize, String> {
    match name {
        Some(n) => tests
            .iter()
            .position(|t| t.name == n)
            .ok_or_else(|| format!("error: --test: no test named `{n}`")),
        None => {
            let exe = Executable::new(prog).map_err(|e| format!("error: {}", e.describe(prog)))?;
            let opts = faultline_exec::RunOptions {
                record_trace: false,
                limits,
                compare,
            };
            tests
                .iter()
                .position(|t| !faultline_exec::run(&exe, t, &opts).passed())
                .ok_or_else(|| "error: no test fails: there is nothing to explain".to_string())
        }
    }
}
