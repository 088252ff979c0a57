//! Angelic re-execution: running a test with a diagnosis's statements forced
//! to produce given values (and conditions given outcomes, output statements
//! given text, `break` and `continue` given jumps).
//!
//! A run in which only the diagnosis's statement instances deviate from the
//! program, that passes the test, that overflows no signed type outside those
//! statements, stays within the formula's unwinding bounds and (for the
//! `trace` encoding) follows the failing run's path, is a model of the test's
//! formula with exactly the diagnosis relaxed: a *witness* that the diagnosis
//! explains the test, found without a solver. AgxFaults uses the same check to
//! confirm that its candidates are feasible fixes.

use crate::bounds::Needs;
use crate::result::{Angelic, AngelicValue};
use faultline_exec::trace::Scope;
use faultline_exec::value::Value;
use faultline_exec::{ExecOptions, Executable, Hooks, Limits, Site, TestCase, Verdict};
use faultline_ir::{Branch, Jump, Program, StmtId};
use faultline_smt::sym::SVal;
use faultline_smt::{Bounds, InstValue, TestEncoding};
use std::collections::{BTreeSet, HashMap};
use z3::Model;

pub use crate::switch::{constants, switch_search, Alt, Found, Switches, MAX_SWITCH_RUNS};

type Key = (StmtId, Vec<Scope>);

/// What a diagnosis's statement instances produce in one model.
#[derive(Clone, Debug, Default)]
pub struct Witness {
    pub stmts: BTreeSet<StmtId>,
    values: HashMap<Key, Vec<Value>>,
    branches: HashMap<Key, bool>,
    outputs: HashMap<Key, Vec<u8>>,
    jumps: HashMap<Key, Jump>,
    /// Whether a run with it may go beyond the formula's unwinding bounds
    /// and still explain the test (switched outcomes or replaced values
    /// found by re-execution alone, [`Witness::switched`]: the run is the
    /// evidence, not a model).
    pub unbounded: bool,
}

fn to_value(v: &SVal, m: &Model) -> Option<Value> {
    match v {
        SVal::Int(i) => i.eval(m).map(|x| Value::Int(i.kind.wrap(x))),
        SVal::Float(f) => f.eval(m).map(Value::Float),
        _ => None,
    }
}

impl Witness {
    /// The values the relaxed instances of `d` take in `model` for a test's formula.
    pub fn from_model(
        enc: &TestEncoding,
        model: &Model,
        d: &BTreeSet<StmtId>,
        expected: &[u8],
    ) -> Witness {
        let mut w = Witness {
            stmts: d.clone(),
            ..Witness::default()
        };
        for inst in &enc.relaxed {
            if !d.contains(&inst.stmt) {
                continue;
            }
            if model.eval(&inst.guard, true).and_then(|b| b.as_bool()) != Some(true) {
                continue;
            }
            let key = (inst.stmt, inst.ctx.clone());
            match &inst.value {
                InstValue::Scalar { chosen, .. } | InstValue::Argument { chosen, .. } => {
                    if let Some(v) = to_value(chosen, model) {
                        w.values.entry(key).or_default().push(v);
                    }
                }
                InstValue::Branch { chosen, .. } => {
                    if let Some(b) = model.eval(chosen, true).and_then(|b| b.as_bool()) {
                        w.branches.insert(key, b);
                    }
                }
                InstValue::Jump { leave, next, .. } => {
                    w.jumps
                        .insert(key, crate::angelic::model_jump(model, leave, next));
                }
                InstValue::Output { start, end } => {
                    let at = |b: &z3::ast::BV| {
                        model.eval(b, true).and_then(|v| v.as_u64()).unwrap_or(0) as usize
                    };
                    let (s, e) = (at(start).min(expected.len()), at(end).min(expected.len()));
                    // A prints-only call's instance: the texts of its events in order.
                    let out = w.outputs.entry(key).or_default();
                    out.extend_from_slice(&expected[s..e.max(s)]);
                }
            }
        }
        w
    }

    /// The witness in which instances of statement `stmt` take what
    /// `switches` gives them (each named by its context: an outcome, or its
    /// first value), every other instance its computed one. Its run may go
    /// beyond the unwinding bounds: found by re-execution, the run is the
    /// evidence, a fix of the program (a condition that lets a loop run at
    /// all, or run its course).
    pub fn switched(stmt: StmtId, switches: Switches) -> Witness {
        let mut w = Witness {
            stmts: BTreeSet::from([stmt]),
            unbounded: true,
            ..Witness::default()
        };
        for (ctx, alt) in switches {
            match alt {
                Alt::Outcome(b) => {
                    w.branches.insert((stmt, ctx), b);
                }
                Alt::Int(v) => {
                    w.values.insert((stmt, ctx), vec![Value::Int(v)]);
                }
                Alt::Float(bits) => {
                    w.values
                        .insert((stmt, ctx), vec![Value::Float(f64::from_bits(bits))]);
                }
            }
        }
        w
    }

    /// The witness of the angelic values a report gives for test `t`, read
    /// back from their printed form (integers, doubles, outcomes, texts);
    /// `None` when one cannot be (a pointer).
    pub fn from_angelic(stmts: &[StmtId], angelic: &[Angelic], t: usize) -> Option<Witness> {
        let mut w = Witness {
            stmts: stmts.iter().copied().collect(),
            ..Witness::default()
        };
        for a in angelic.iter().filter(|a| a.test == t) {
            let key = (a.stmt, a.ctx.clone());
            match &a.value {
                AngelicValue::Value { needed, .. } | AngelicValue::Argument { needed, .. } => {
                    let v = match needed.parse::<i64>() {
                        Ok(i) => Value::Int(i),
                        Err(_) => Value::Float(needed.parse::<f64>().ok()?),
                    };
                    w.values.entry(key).or_default().push(v);
                }
                AngelicValue::Branch { needed, .. } => {
                    w.branches.insert(key, *needed);
                }
                AngelicValue::Output { text } => {
                    w.outputs.insert(key, text.as_bytes().to_vec());
                }
                AngelicValue::Jump { needed, .. } => {
                    w.jumps.insert(key, *needed);
                }
            }
        }
        Some(w)
    }

    /// The witness of the values a cheap model chose for the relaxed
    /// instances of `d` in a test's exact formula (`exact`, its relaxed
    /// instances; see [`faultline_smt::approx::pinned`]).
    pub fn from_pinned(
        exact: &[faultline_smt::RelaxedInstance],
        pinned: &[faultline_smt::approx::Pinned],
        d: &BTreeSet<StmtId>,
    ) -> Witness {
        use faultline_smt::approx::Chosen;
        let mut w = Witness {
            stmts: d.clone(),
            ..Witness::default()
        };
        for p in pinned {
            let inst = &exact[p.inst];
            if !d.contains(&inst.stmt) {
                continue;
            }
            let key = (inst.stmt, inst.ctx.clone());
            match (p.chosen, &inst.value) {
                (
                    Chosen::Int(v),
                    InstValue::Scalar {
                        chosen: SVal::Int(i),
                        ..
                    },
                ) => {
                    w.values
                        .entry(key)
                        .or_default()
                        .push(Value::Int(i.kind.wrap(v)));
                }
                (Chosen::Float(x), InstValue::Scalar { .. }) => {
                    w.values.entry(key).or_default().push(Value::Float(x));
                }
                (Chosen::Branch(b), _) => {
                    w.branches.insert(key, b);
                }
                (Chosen::Jump(leave, next), _) => {
                    w.jumps
                        .insert(key, faultline_smt::instances::jump_of(leave, next));
                }
                _ => {}
            }
        }
        w
    }

    /// Reads better, by re-execution alone (`replay` re-executes the test
    /// with a witness): each changed value or outcome, in the order the run
    /// applied them, is given back its computed value when the test still
    /// passes without the change, else (an integer) a value in [-1, 1] or
    /// one next to the computed one when that passes, as the solver's
    /// polishing prefers. Every step is a witness, so the result is exact.
    /// `None` when `self` itself does not replay; at most `max_replays`
    /// re-executions.
    pub fn simplified(
        &self,
        mut replay: impl FnMut(&Witness) -> Replay,
        max_replays: usize,
    ) -> Option<(Witness, Replay)> {
        let mut best = self.clone();
        let mut r = replay(&best);
        if !r.explains {
            return None;
        }
        let mut left = max_replays;
        let mut try_with = |c: Witness, best: &mut Witness, r: &mut Replay, left: &mut usize| {
            if *left == 0 {
                return false;
            }
            *left -= 1;
            let rc = replay(&c);
            if rc.explains {
                *best = c;
                *r = rc;
                true
            } else {
                false
            }
        };
        let applied = r.angelic.clone();
        for a in &applied {
            let key = (a.stmt, a.ctx.clone());
            match &a.value {
                AngelicValue::Value { needed, computed } if needed != computed => {
                    if best.values.get(&key).is_none_or(|v| v.len() != 1) {
                        continue;
                    }
                    let mut c = best.clone();
                    c.values.remove(&key);
                    if try_with(c, &mut best, &mut r, &mut left) {
                        continue;
                    }
                    let (Ok(n), Ok(cv)) = (needed.parse::<i64>(), computed.parse::<i64>()) else {
                        continue;
                    };
                    // -1 only where the type is evidently signed.
                    let mut candidates: Vec<i64> = Vec::new();
                    if n.unsigned_abs() > 1 {
                        candidates.extend([0, 1]);
                        if n < 0 || cv < 0 {
                            candidates.push(-1);
                        }
                    }
                    if n.unsigned_abs() > 100 {
                        candidates.extend(
                            [cv.saturating_add(1), cv.saturating_sub(1)]
                                .into_iter()
                                .filter(|x| x.unsigned_abs() <= 100),
                        );
                    }
                    for x in candidates {
                        let mut c = best.clone();
                        c.values.insert(key.clone(), vec![Value::Int(x)]);
                        if try_with(c, &mut best, &mut r, &mut left) {
                            break;
                        }
                    }
                }
                AngelicValue::Branch { needed, computed } if needed != computed => {
                    let mut c = best.clone();
                    c.branches.remove(&key);
                    try_with(c, &mut best, &mut r, &mut left);
                }
                _ => {}
            }
        }
        // Texts: a statement's consecutive outputs print one line each when
        // their texts have as many lines as there are outputs (the solver
        // splits the expected text among them anyhow: "nothing" here, two
        // lines there).
        let outputs: Vec<(Key, String)> = r
            .angelic
            .iter()
            .filter_map(|a| match &a.value {
                AngelicValue::Output { text } => Some(((a.stmt, a.ctx.clone()), text.clone())),
                _ => None,
            })
            .collect();
        let mut i = 0;
        while i < outputs.len() {
            let mut j = i + 1;
            while j < outputs.len() && outputs[j].0 .0 == outputs[i].0 .0 {
                j += 1;
            }
            let run = &outputs[i..j];
            let text: String = run.iter().map(|(_, t)| t.as_str()).collect();
            let lines: Vec<&str> = text.split_inclusive('\n').collect();
            let uneven = run
                .iter()
                .any(|(_, t)| t.split_inclusive('\n').count() != 1);
            if run.len() > 1 && uneven && lines.len() == run.len() {
                let mut c = best.clone();
                for ((key, _), line) in run.iter().zip(&lines) {
                    c.outputs.insert(key.clone(), line.as_bytes().to_vec());
                }
                try_with(c, &mut best, &mut r, &mut left);
            }
            i = j;
        }
        Some((best, r))
    }

    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
            && self.branches.is_empty()
            && self.outputs.is_empty()
            && self.jumps.is_empty()
    }
}

/// Applies a witness during a run and records what it changed.
pub struct Applier<'w> {
    w: &'w Witness,
    test: usize,
    counts: HashMap<Key, u32>,
    seen: Vec<Angelic>,
    /// The output the run must print exactly, if outputs are compared
    /// byte for byte: the run stops once its output is no longer a prefix
    /// of it (it fails either way).
    exact: Option<&'w [u8]>,
}

fn fmt_value(v: Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Float(x) => format!("{x}"),
        other => other.to_string(),
    }
}

impl<'w> Applier<'w> {
    pub fn new(w: &'w Witness, test: usize) -> Applier<'w> {
        Applier {
            w,
            test,
            counts: HashMap::new(),
            seen: Vec::new(),
            exact: None,
        }
    }
}

impl Applier<'_> {
    /// The next value of the instance at `site` (its stores, returned values
    /// and arguments share one list, in the encoder's order); `arg`: argument
    /// `arg` of a call.
    fn next_value(&mut self, site: &Site, computed: Value, arg: Option<u32>) -> Value {
        if !self.w.stmts.contains(&site.inst.stmt) {
            return computed;
        }
        let key = (site.inst.stmt, site.ctx.to_vec());
        let n = self.counts.entry(key.clone()).or_insert(0);
        let i = *n as usize;
        *n += 1;
        // An instance without a value keeps its computed one, and is
        // reported as such ("as computed").
        let v = match self.w.values.get(&key).and_then(|v| v.get(i)) {
            Some(&v) => v,
            None => computed,
        };
        let (needed, shown) = (fmt_value(v), fmt_value(computed));
        self.seen.push(Angelic {
            test: self.test,
            stmt: site.inst.stmt,
            ctx: key.1,
            value: match arg {
                None => AngelicValue::Value {
                    needed,
                    computed: shown,
                },
                Some(index) => AngelicValue::Argument {
                    index,
                    needed,
                    computed: shown,
                },
            },
        });
        v
    }
}

impl Hooks for Applier<'_> {
    fn relaxed(&self, stmt: StmtId) -> bool {
        self.w.stmts.contains(&stmt)
    }

    fn keeps_printing(&mut self, stdout: &[u8]) -> bool {
        may_still_print(self.exact, stdout)
    }

    fn watches(&self, stmt: StmtId) -> bool {
        self.w.stmts.contains(&stmt)
    }

    fn branch(&mut self, site: &Site, computed: Branch) -> Branch {
        if !self.w.stmts.contains(&site.inst.stmt) {
            return computed;
        }
        let c = computed == Branch::True;
        // An instance without an outcome keeps its computed one, reported
        // "as computed" when it is two-way (a `switch`'s case is not a
        // Boolean outcome).
        let needed = match self.w.branches.get(&(site.inst.stmt, site.ctx.to_vec())) {
            Some(&b) => b,
            None if matches!(computed, Branch::True | Branch::False) => c,
            None => return computed,
        };
        self.seen.push(Angelic {
            test: self.test,
            stmt: site.inst.stmt,
            ctx: site.ctx.to_vec(),
            value: AngelicValue::Branch {
                needed,
                computed: c,
            },
        });
        if needed {
            Branch::True
        } else {
            Branch::False
        }
    }

    fn value(&mut self, site: &Site, _k: u32, computed: Value) -> Value {
        self.next_value(site, computed, None)
    }

    fn argument(&mut self, site: &Site, i: u32, computed: Value) -> Value {
        self.next_value(site, computed, Some(i))
    }

    fn jump(&mut self, site: &Site, computed: Jump) -> Jump {
        if !self.w.stmts.contains(&site.inst.stmt) {
            return computed;
        }
        match self.w.jumps.get(&(site.inst.stmt, site.ctx.to_vec())) {
            Some(&j) => {
                self.seen.push(Angelic {
                    test: self.test,
                    stmt: site.inst.stmt,
                    ctx: site.ctx.to_vec(),
                    value: AngelicValue::Jump {
                        needed: j,
                        computed,
                    },
                });
                j
            }
            None => computed,
        }
    }

    fn output(&mut self, site: &Site, computed: Vec<u8>) -> Vec<u8> {
        if !self.w.stmts.contains(&site.inst.stmt) {
            return computed;
        }
        match self.w.outputs.get(&(site.inst.stmt, site.ctx.to_vec())) {
            Some(t) => {
                self.seen.push(Angelic {
                    test: self.test,
                    stmt: site.inst.stmt,
                    ctx: site.ctx.to_vec(),
                    value: AngelicValue::Output {
                        text: String::from_utf8_lossy(t).into_owned(),
                    },
                });
                t.clone()
            }
            None => computed,
        }
    }
}

/// The output a run of `test` must print byte for byte, when `compare`
/// compares so: a run whose output stops being a prefix of it fails
/// whatever follows ([`Hooks::keeps_printing`]).
pub(crate) fn exact_output(test: &TestCase, compare: faultline_exec::Compare) -> Option<&[u8]> {
    matches!(compare, faultline_exec::Compare::Exact).then_some(&test.expected_stdout[..])
}

/// Whether `stdout` may still become `exact` (always, without one).
pub(crate) fn may_still_print(exact: Option<&[u8]>, stdout: &[u8]) -> bool {
    exact.is_none_or(|e| e.starts_with(stdout))
}

/// What a re-execution with angelic values showed.
pub struct Replay {
    /// The run is a witness (see the module docs).
    pub explains: bool,
    /// The angelic values applied, for the report.
    pub angelic: Vec<Angelic>,
}

/// Re-executes test `t` with the witness's values substituted.
#[allow(clippy::too_many_arguments)]
pub fn replay(
    prog: &Program,
    exe: &Executable,
    test: &TestCase,
    t: usize,
    w: &Witness,
    bounds: &Bounds,
    limits: Limits,
    compare: faultline_exec::Compare,
    path: Option<&[(StmtId, Vec<Scope>, Branch)]>,
) -> Replay {
    let mut applier = Applier {
        w,
        test: t,
        counts: HashMap::new(),
        seen: Vec::new(),
        exact: exact_output(test, compare),
    };
    // The trace serves the bounds and the path only: a witness that may
    // leave the bounds, with no path to follow, records none.
    let exec = exe.run(
        test.input(),
        ExecOptions {
            record_trace: !w.unbounded || path.is_some(),
            limits,
            hooks: Some(&mut applier),
        },
    );
    let verdict = faultline_exec::suite::judge(test, &exec, compare);
    let mut ok = verdict == Verdict::Pass && exec.overflows.iter().all(|s| w.stmts.contains(s));
    if ok {
        if let Some(trace) = &exec.trace {
            if !w.unbounded {
                let needs = Needs::of_trace(prog, trace);
                ok = needs
                    .loops
                    .iter()
                    .all(|(l, n)| *n <= *bounds.loops.get(l).unwrap_or(&bounds.default_loop))
                    && needs.depth.iter().all(|(f, n)| {
                        *n <= *bounds.depth.get(f).unwrap_or(&bounds.default_depth).max(&1)
                    });
            }
            if let Some(path) = path {
                let taken: Vec<(StmtId, Vec<Scope>, Branch)> = trace
                    .decisions()
                    .map(|(i, b)| (i.stmt, trace.contexts.chain(i.ctx), b))
                    .collect();
                ok &= taken.as_slice() == path;
            }
        }
    }
    Replay {
        explains: ok,
        angelic: applier.seen,
    }
}

/// Whether re-executing every failing test `session` used with the angelic
/// values `d` reports for it (applied as a run's substituted values, judged
/// as the tests are) makes it pass: the reported values, not a model, are
/// checked. `false` when a value cannot be read back.
pub fn reported_values_pass(
    session: &crate::Session,
    loc: &crate::result::Localization,
    d: &crate::result::Diagnosis,
) -> bool {
    let Ok(exe) = Executable::new(session.prog) else {
        return false;
    };
    let used = loc.used_failing();
    !used.is_empty()
        && used.iter().all(|&t| {
            let Some(w) = Witness::from_angelic(&d.stmts, &d.angelic, t) else {
                return false;
            };
            let test = &session.tests[t];
            let mut applier = Applier::new(&w, t);
            let exec = exe.run(
                test.input(),
                ExecOptions {
                    record_trace: false,
                    limits: session.replay_limits(),
                    hooks: Some(&mut applier),
                },
            );
            faultline_exec::suite::judge(test, &exec, session.compare) == Verdict::Pass
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use faultline_exec::trace::Scope;

    fn ctx(i: u32) -> Vec<Scope> {
        vec![Scope::Iter(StmtId(9), i)]
    }

    fn value(i: u32, needed: i64, computed: i64) -> Angelic {
        Angelic {
            test: 0,
            stmt: StmtId(1),
            ctx: ctx(i),
            value: AngelicValue::Value {
                needed: needed.to_string(),
                computed: computed.to_string(),
            },
        }
    }

    /// A stand-in for a re-execution: statement 1 runs in iterations 1 to
    /// 3 computing 10, 20 and 30; the test passes when iteration 2 stores an
    /// even number and iteration 3 stores 7 or 8.
    fn replay(w: &Witness) -> Replay {
        let computed = [10, 20, 30];
        let mut angelic = Vec::new();
        let mut stored = Vec::new();
        for (i, c) in computed.iter().enumerate() {
            let i = i as u32 + 1;
            let v = match w.values.get(&(StmtId(1), ctx(i))).map(|v| v[0]) {
                Some(Value::Int(v)) => {
                    angelic.push(value(i, v, *c));
                    v
                }
                _ => *c,
            };
            stored.push(v);
        }
        Replay {
            explains: stored[1] % 2 == 0 && (stored[2] == 7 || stored[2] == 8),
            angelic,
        }
    }

    #[test]
    fn simplified_keeps_computed_values_and_prefers_small_ones() {
        // A model's values: every instance changed, to large numbers.
        let model = vec![value(1, -77, 10), value(2, 123456, 20), value(3, 8, 30)];
        let w = Witness::from_angelic(&[StmtId(1)], &model, 0).expect("integers");
        let (_, r) = w
            .simplified(replay, 200)
            .expect("the model's values replay");
        assert!(r.explains);
        // Iterations 1 and 2 keep their computed values (the change is not
        // needed); iteration 3 must change: neither 0 nor 1 passes, so it
        // keeps the model's 8.
        assert_eq!(r.angelic, vec![value(3, 8, 30)]);
    }

    #[test]
    fn simplified_is_none_when_the_witness_does_not_replay() {
        let model = vec![value(3, 9, 30)];
        let w = Witness::from_angelic(&[StmtId(1)], &model, 0).expect("integers");
        assert!(w.simplified(replay, 200).is_none());
    }

    #[test]
    fn simplified_stops_after_its_replays() {
        let model = vec![value(1, -77, 10), value(2, 123456, 20), value(3, 8, 30)];
        let w = Witness::from_angelic(&[StmtId(1)], &model, 0).expect("integers");
        // One re-execution to check the witness, none left to simplify.
        let (_, r) = w.simplified(replay, 0).expect("replays");
        assert_eq!(r.angelic, model);
    }
}
