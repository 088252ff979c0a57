//! Predicate switching and value replacement by re-execution alone
//! ([`switch_search`]): a test re-executed with instances of a condition
//! given the other outcome, or of a statement given its computed integer
//! plus or minus one (one at a time, all alike, then several together), a
//! run that passes being a witness ([`crate::witness::Witness::switched`]);
//! and the constants such a search gives a statement that computes one
//! ([`constants`]).

use crate::witness::{exact_output, may_still_print};
use faultline_exec::trace::Scope;
use faultline_exec::value::Value;
use faultline_exec::{ExecOptions, Executable, Hooks, Limits, Site, TestCase, Verdict};
use faultline_ir::{Branch, Program, StmtId};
use std::collections::HashMap;

/// What an instance takes in a [`switch_search`]: a condition's outcome, or
/// the (first) integer a statement instance produces; or the floating value
/// it produces (its bits) in a [`crate::numeric::value_search`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alt {
    Outcome(bool),
    Int(i64),
    Float(u64),
}

impl Alt {
    /// The other values tried for an instance that took `self`: the other
    /// outcome; one more, one less.
    fn others(self) -> Vec<Alt> {
        match self {
            Alt::Outcome(b) => vec![Alt::Outcome(!b)],
            Alt::Int(v) => vec![Alt::Int(v.wrapping_add(1)), Alt::Int(v.wrapping_sub(1))],
            Alt::Float(_) => Vec::new(),
        }
    }
}

/// What every instance not switched takes in a [`switch_search`]: one
/// outcome (the condition made constant), or its computed integer plus a
/// shift.
#[derive(Clone, Copy, Debug)]
enum Rest {
    Outcome(bool),
    Shift(i64),
    Const(i64),
    /// A loop condition: each execution of the loop one iteration longer
    /// (the first false outcome of each made true).
    Longer,
    /// A loop condition: each execution of the loop one iteration shorter
    /// (its last true outcome in the whole failing run made false).
    Shorter,
}

/// Steers the instances of a statement during a [`switch_search`]: those
/// in `forced` take their value, the others what `rest` gives if set, else
/// their computed one; each instance with a two-way outcome or an integer
/// as its first value is recorded (up to [`MAX_SEEN`]).
struct Switcher<'a> {
    stmt: StmtId,
    /// Whether the statement is a condition: its outcomes are switched,
    /// else its values (never both: a condition's own stores, such as a
    /// `scanf` in it, are not what a switch changes).
    condition: bool,
    forced: &'a HashMap<Vec<Scope>, Alt>,
    rest: Option<Rest>,
    /// The values each instance produced so far (values and arguments of
    /// calls counted together, as [`Applier`] counts them).
    counts: HashMap<Vec<Scope>, u32>,
    /// The instances met, in order: context, value taken, value computed.
    seen: Vec<(Vec<Scope>, Alt, Alt)>,
    /// Whether an instance was met that `seen` does not hold (beyond
    /// [`MAX_SEEN`] instances, or deeper than [`MAX_SEEN_DEPTH`]).
    unrecorded: bool,
    /// The output the run must print exactly (outputs compared byte for
    /// byte): a run whose output stops being a prefix of it is stopped.
    exact: Option<&'a [u8]>,
    /// The last iteration whose test was true in each execution of the
    /// loop (named by the context it runs in) in the whole failing run,
    /// when the statement is a loop condition ([`Rest::Shorter`]).
    last_true: &'a HashMap<Vec<Scope>, u32>,
    /// The executions of the loop already made one iteration longer
    /// ([`Rest::Longer`]).
    longer: std::collections::HashSet<Vec<Scope>>,
}

impl Switcher<'_> {
    /// What the instance at `site`, which computed `computed`, takes.
    fn take(&mut self, site: &Site, computed: Alt) -> Alt {
        // Recording a context, or looking it up, costs its depth: a
        // recursion switched past its base case would make the run
        // quadratic. Deeper instances (and those beyond the first
        // [`MAX_SEEN`]) are neither recorded nor switched one by one.
        let recorded = site.ctx.len() <= MAX_SEEN_DEPTH && self.seen.len() < MAX_SEEN;
        let forced = match recorded {
            true => self.forced.get(site.ctx).copied(),
            false => None,
        };
        let iteration = || loop_iteration(self.stmt, site.ctx);
        let taken = forced.unwrap_or(match (self.rest, computed) {
            (Some(Rest::Longer), Alt::Outcome(false)) => match iteration() {
                Some((outer, _)) if self.longer.insert(outer.to_vec()) => Alt::Outcome(true),
                _ => computed,
            },
            (Some(Rest::Shorter), Alt::Outcome(true)) => match iteration() {
                Some((outer, k)) if self.last_true.get(outer) == Some(&k) => Alt::Outcome(false),
                _ => computed,
            },
            (Some(Rest::Outcome(b)), Alt::Outcome(_)) => Alt::Outcome(b),
            (Some(Rest::Shift(d)), Alt::Int(v)) => Alt::Int(v.wrapping_add(d)),
            (Some(Rest::Const(c)), Alt::Int(_)) => Alt::Int(c),
            _ => computed,
        });
        match recorded {
            true => self.seen.push((site.ctx.to_vec(), taken, computed)),
            false => self.unrecorded = true,
        }
        taken
    }

    /// The `computed` value of the instance at `site`, or what it takes
    /// instead when it is the instance's first and an integer.
    fn next_value(&mut self, site: &Site, computed: Value) -> Value {
        if site.inst.stmt != self.stmt || self.condition {
            return computed;
        }
        // Counting an instance's values costs its context's depth: deeper
        // instances keep their values.
        if site.ctx.len() > MAX_SEEN_DEPTH {
            self.unrecorded = true;
            return computed;
        }
        let n = self.counts.entry(site.ctx.to_vec()).or_insert(0);
        *n += 1;
        match (*n, computed) {
            (1, Value::Int(v)) => match self.take(site, Alt::Int(v)) {
                Alt::Int(t) => Value::Int(t),
                Alt::Outcome(_) | Alt::Float(_) => computed,
            },
            _ => computed,
        }
    }
}

impl Hooks for Switcher<'_> {
    fn keeps_printing(&mut self, stdout: &[u8]) -> bool {
        may_still_print(self.exact, stdout)
    }

    fn relaxed(&self, stmt: StmtId) -> bool {
        stmt == self.stmt
    }

    fn watches(&self, stmt: StmtId) -> bool {
        stmt == self.stmt
    }

    fn branch(&mut self, site: &Site, computed: Branch) -> Branch {
        // A `switch`'s case is not a two-way outcome: it is not switched.
        if site.inst.stmt != self.stmt
            || !self.condition
            || !matches!(computed, Branch::True | Branch::False)
        {
            return computed;
        }
        match self.take(site, Alt::Outcome(computed == Branch::True)) {
            Alt::Outcome(true) => Branch::True,
            Alt::Outcome(false) => Branch::False,
            Alt::Int(_) | Alt::Float(_) => computed,
        }
    }

    fn value(&mut self, site: &Site, _k: u32, computed: Value) -> Value {
        self.next_value(site, computed)
    }

    fn argument(&mut self, site: &Site, _i: u32, computed: Value) -> Value {
        self.next_value(site, computed)
    }
}

/// The most runs one [`switch_search`] makes, the failing run's own
/// included.
pub const MAX_SWITCH_RUNS: usize = 128;

/// The most instances switched one by one together by a [`switch_search`].
const MAX_SWITCHES: usize = 32;

/// The instances of a run whose switch a [`switch_search`] tries: at most
/// this many of the failing run's (the first and the last half), half as
/// many after a switch.
const SWITCH_SPAN: usize = 32;

/// The most instances of a statement one run of a [`switch_search`]
/// records (the others are not switched one by one).
const MAX_SEEN: usize = 16_384;

/// The deepest context of an instance a [`switch_search`] records.
const MAX_SEEN_DEPTH: usize = 64;

/// Instances switched by a [`switch_search`], each named by its context,
/// with what it takes.
pub type Switches = Vec<(Vec<Scope>, Alt)>;

/// What a [`switch_search`] found: the switches of a run that passes.
#[derive(Clone, Debug, PartialEq)]
pub struct Found {
    pub switches: Switches,
    /// Whether every instance was given a value alike (the condition made
    /// constant, every value shifted or made one constant): the switches
    /// are every instance that took another value than its computed one,
    /// some of them perhaps not needed. Otherwise each switch was added to
    /// a run that needed more (one at a time, the last one met first).
    pub alike: bool,
}

/// A set of switches a [`switch_search`] runs: `switches`, and every other
/// instance given what `rest` gives if set.
struct Node {
    switches: Switches,
    rest: Option<Rest>,
}

/// Predicate switching and value replacement, with several instances:
/// outcomes for instances of the two-way condition `stmt`, or integers for
/// the first value of instances of statement `stmt` (computed plus or minus
/// one), with which test `test` passes, judged on its output alone (no
/// trace recorded), or `None` when none is found within
/// [`MAX_SWITCH_RUNS`] runs. A necessary condition for
/// [`Witness::switched`] to replay, cheap to test where the replay is not
/// (a switched run can recurse or loop far beyond the failing run, and
/// [`replay`] records every instance with its context).
///
/// The search re-executes the test (`steps`: the failing run's length).
/// The failing run's instances are switched one at a time first, in order
/// (at most [`SWITCH_SPAN`]: the first and last ones); then every instance
/// switched alike: the condition made constant (a bound that cuts a loop
/// short is wrong at each of its late iterations), every value one more,
/// one less (an off-by-one), and, for a statement that computed the same
/// integer at every instance, each of `constants` (a constant mutated into
/// another: [`constants`]); then, up to [`MAX_SWITCHES`] together, a run
/// with switches is extended by switching one instance it met after its
/// last switched one, the latest first, the runs that printed the longest
/// correct output first (byte-for-byte comparisons stop a run as soon as
/// its output can no longer be the expected one, so only the instances
/// before that point are tried, and the one that made it wrong is mostly
/// the last). Each set of switches is run at most once; the search is
/// deterministic. Runs beyond single switches are limited to four times the
/// failing run's steps (at least 10,000), and the search's runs to 32 times
/// in all (at least 1,000,000, at most eight runs to the replay limit),
/// not counting a run that printed more correct output than every run
/// before it (a step forward): a switched loop that no longer ends is not
/// followed to the replay limit each time, and a fault that needs many
/// instances switched is followed as far as it leads.
#[allow(clippy::too_many_arguments)]
pub fn switch_search(
    exe: &Executable,
    test: &TestCase,
    stmt: StmtId,
    condition: bool,
    steps: u64,
    constants: &[i64],
    limits: Limits,
    compare: faultline_exec::Compare,
) -> Option<Found> {
    let exact = exact_output(test, compare);
    let deeper = Limits {
        max_steps: limits
            .max_steps
            .map(|m| m.min(steps.saturating_mul(4).max(10_000))),
        ..limits
    };
    // A run cut short (a loop that does not end) is as long as the limits
    // allowed: eight runs to the replay limit, then.
    let budget = limits
        .max_steps
        .map_or(u64::MAX, |m| m.saturating_mul(8))
        .min(steps.saturating_mul(32).max(1_000_000));
    let mut spent = 0u64;
    // Nodes to run, in the order of their key: single switches (rank 0)
    // first, every instance alike (rank 1), then extensions (rank 2) by
    // the correct output their parent printed (longest first), then in the
    // order they were made.
    let mut queue: std::collections::BTreeMap<(u8, std::cmp::Reverse<usize>, usize), Node> =
        std::collections::BTreeMap::new();
    let root = Node {
        switches: Vec::new(),
        rest: None,
    };
    queue.insert((0, std::cmp::Reverse(0), 0), root);
    let mut made = 1;
    let mut runs = 0;
    let mut best = 0;
    let mut last_true: HashMap<Vec<Scope>, u32> = HashMap::new();
    while let Some((_, node)) = queue.pop_first() {
        if runs == MAX_SWITCH_RUNS || spent >= budget {
            return None;
        }
        runs += 1;
        let forced: HashMap<Vec<Scope>, Alt> = node.switches.iter().cloned().collect();
        let mut sw = Switcher {
            stmt,
            condition,
            forced: &forced,
            rest: node.rest,
            counts: HashMap::new(),
            seen: Vec::new(),
            unrecorded: false,
            exact,
            last_true: &last_true,
            longer: Default::default(),
        };
        let single = node.switches.len() <= 1 && node.rest.is_none();
        let exec = exe.run(
            test.input(),
            ExecOptions {
                record_trace: false,
                limits: if single { limits } else { deeper },
                hooks: Some(&mut sw),
            },
        );
        let root = node.switches.is_empty() && node.rest.is_none();
        // The correct output the run printed; a run that printed more than
        // every run before it does not count against the budget (each such
        // run is a step forward: a fault that needs many instances switched
        // is followed as far as it leads, within the runs' number).
        let progress = match exact {
            Some(e) => e
                .iter()
                .zip(&exec.stdout)
                .take_while(|(a, b)| a == b)
                .count(),
            None => 0,
        };
        if root || progress <= best {
            spent += exec.steps;
        }
        best = best.max(progress);
        let (seen, unrecorded) = (sw.seen, sw.unrecorded);
        if !root && faultline_exec::suite::judge(test, &exec, compare) == Verdict::Pass {
            return match node.rest {
                None => Some(Found {
                    switches: node.switches,
                    alike: false,
                }),
                // Every instance that took another value than its
                // computed one, when the run recorded them all.
                Some(_) if !unrecorded => Some(Found {
                    switches: seen
                        .into_iter()
                        .filter(|(_, taken, c)| taken != c)
                        .map(|(ctx, taken, _)| (ctx, taken))
                        .collect(),
                    alike: true,
                }),
                Some(_) => None,
            };
        }
        if root {
            // A loop condition: each execution of the loop one iteration
            // longer, or shorter (an off-by-one bound in a loop that runs
            // more than once: one switch per execution).
            let looped = seen
                .iter()
                .any(|(ctx, _, _)| loop_iteration(stmt, ctx).is_some());
            if looped {
                // The failing run stopped at its first wrong byte: the last
                // true iteration of every execution of the loop is read from
                // the whole run, made once more without that stop.
                let (none, no_last) = (HashMap::new(), HashMap::new());
                let mut whole = Switcher {
                    stmt,
                    condition,
                    forced: &none,
                    rest: None,
                    counts: HashMap::new(),
                    seen: Vec::new(),
                    unrecorded: false,
                    exact: None,
                    last_true: &no_last,
                    longer: Default::default(),
                };
                let exec = exe.run(
                    test.input(),
                    ExecOptions {
                        record_trace: false,
                        limits,
                        hooks: Some(&mut whole),
                    },
                );
                spent += exec.steps;
                let mut last: HashMap<Vec<Scope>, u32> = HashMap::new();
                for (ctx, _, c) in &whole.seen {
                    if let (Some((outer, k)), Alt::Outcome(true)) = (loop_iteration(stmt, ctx), c) {
                        let l = last.entry(outer.to_vec()).or_insert(k);
                        *l = (*l).max(k);
                    }
                }
                last_true = last;
            }
            let alike = match (condition, looped) {
                // The longer and shorter runs first: a condition made
                // constantly true may not end before the limits.
                (true, true) => vec![
                    Rest::Longer,
                    Rest::Shorter,
                    Rest::Outcome(false),
                    Rest::Outcome(true),
                ],
                (true, false) => vec![Rest::Outcome(false), Rest::Outcome(true)],
                (false, _) => vec![Rest::Shift(1), Rest::Shift(-1)],
            };
            // A statement that computed one integer at every instance (a
            // constant, `result = NEWLINE;`) is also given each other
            // constant of the program (a constant mutated into another).
            let mut ints = seen.iter().filter_map(|(_, _, c)| match c {
                Alt::Int(v) => Some(*v),
                Alt::Outcome(_) | Alt::Float(_) => None,
            });
            let constant = match (condition, unrecorded, ints.next()) {
                (false, false, Some(c0)) if ints.all(|v| v == c0) => Some(c0),
                _ => None,
            };
            let others = constant.into_iter().flat_map(|c0| {
                constants
                    .iter()
                    .filter(move |&&c| c != c0 && c.abs_diff(c0) != 1)
                    .map(|&c| Rest::Const(c))
            });
            for rest in alike.into_iter().chain(others) {
                let node = Node {
                    switches: Vec::new(),
                    rest: Some(rest),
                };
                queue.insert((1, std::cmp::Reverse(0), made), node);
                made += 1;
            }
        }
        if node.rest.is_some() || node.switches.len() == MAX_SWITCHES {
            continue;
        }
        // The instances after the last switched one (those before it were
        // tried by the runs this one extends).
        let from = seen
            .iter()
            .rposition(|(ctx, _, _)| forced.contains_key(ctx))
            .map_or(0, |p| p + 1);
        let span = match root {
            true => SWITCH_SPAN,
            false => SWITCH_SPAN / 2,
        };
        let n = seen.len() - from;
        let half = span / 2;
        let rank = if root { 0 } else { 2 };
        let mut tried: Vec<usize> = (0..n)
            .filter(|&k| n <= span || k < half || k >= n - half)
            .collect();
        // An extension tries the latest instances first: a run stops at its
        // first wrong byte, and the instance that made it wrong is mostly
        // the last one met before it, so that a fault needing many
        // instances switched is followed switch by switch.
        if !root {
            tried.reverse();
        }
        for k in tried {
            let (ctx, taken, _) = &seen[from + k];
            for alt in taken.others() {
                let mut switches = node.switches.clone();
                switches.push((ctx.clone(), alt));
                let child = Node {
                    switches,
                    rest: None,
                };
                queue.insert((rank, std::cmp::Reverse(progress), made), child);
                made += 1;
            }
        }
    }
    None
}

/// The execution of the loop whose condition `stmt` an instance in context
/// `ctx` tests (the context it runs in), and the instance's iteration; `None`
/// when `stmt` is not that loop's condition.
fn loop_iteration(stmt: StmtId, ctx: &[Scope]) -> Option<(&[Scope], u32)> {
    match ctx.split_last() {
        Some((Scope::Iter(l, k), outer)) if *l == stmt => Some((outer, *k)),
        _ => None,
    }
}

/// The integer constants a [`switch_search`] gives a statement of each
/// function (indexed by [`faultline_ir::FuncId`]) that computes a constant:
/// the distinct constants written in the function (a negated one as its
/// value), in source order, then those of the rest of the program, at most
/// [`MAX_CONSTANTS`].
pub fn constants(prog: &Program) -> Vec<Vec<i64>> {
    use faultline_ir::visit::{for_each_stmt, stmt_exprs, walk_expr, Visitor};
    use faultline_ir::{Expr, ExprKind, UnOp};
    struct Ints(Vec<i64>);
    impl<'a> Visitor<'a> for Ints {
        fn visit_expr(&mut self, e: &'a Expr) {
            match &e.kind {
                ExprKind::Int(v) => self.0.push(*v),
                ExprKind::Unary(UnOp::Neg, a) => match a.kind {
                    ExprKind::Int(v) => self.0.push(v.wrapping_neg()),
                    _ => walk_expr(self, e),
                },
                _ => walk_expr(self, e),
            }
        }
    }
    // Each function's own constants, once.
    let own: Vec<Vec<i64>> = prog
        .functions
        .iter()
        .map(|f| {
            let mut ints = Ints(Vec::new());
            for_each_stmt(&f.body, &mut |st| stmt_exprs(st, |e| ints.visit_expr(e)));
            ints.0
        })
        .collect();
    (0..own.len())
        .map(|f| {
            let others = (0..own.len()).filter(|&g| g != f);
            let mut out: Vec<i64> = Vec::new();
            for v in std::iter::once(f).chain(others).flat_map(|g| own[g].iter()) {
                if out.len() == MAX_CONSTANTS {
                    break;
                }
                if !out.contains(v) {
                    out.push(*v);
                }
            }
            out
        })
        .collect()
}

/// The most constants a [`switch_search`] gives a statement that computes
/// one ([`constants`]).
const MAX_CONSTANTS: usize = 32;
