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

type Key = (StmtId, Vec<Scope>);

/// What a diagnosis's statement instances produce in one model.
#[derive(Clone, Debug, Default)]
pub struct Witness {
    pub stmts: BTreeSet<StmtId>,
    values: HashMap<Key, Vec<Value>>,
    branches: HashMap<Key, bool>,
    outputs: HashMap<Key, Vec<u8>>,
    jumps: HashMap<Key, Jump>,
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
                    let s = model
                        .eval(start, true)
                        .and_then(|v| v.as_u64())
                        .unwrap_or(0) as usize;
                    let e = model.eval(end, true).and_then(|v| v.as_u64()).unwrap_or(0) as usize;
                    let (s, e) = (s.min(expected.len()), e.min(expected.len()));
                    w.outputs.insert(key, expected[s..e.max(s)].to_vec());
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
        match self.w.values.get(&key).and_then(|v| v.get(i)) {
            Some(&v) => {
                let (needed, computed) = (fmt_value(v), fmt_value(computed));
                self.seen.push(Angelic {
                    test: self.test,
                    stmt: site.inst.stmt,
                    ctx: key.1,
                    value: match arg {
                        None => AngelicValue::Value { needed, computed },
                        Some(index) => AngelicValue::Argument {
                            index,
                            needed,
                            computed,
                        },
                    },
                });
                v
            }
            None => computed,
        }
    }
}

impl Hooks for Applier<'_> {
    fn relaxed(&self, stmt: StmtId) -> bool {
        self.w.stmts.contains(&stmt)
    }

    fn branch(&mut self, site: &Site, computed: Branch) -> Branch {
        if !self.w.stmts.contains(&site.inst.stmt) {
            return computed;
        }
        match self.w.branches.get(&(site.inst.stmt, site.ctx.to_vec())) {
            Some(&b) => {
                let c = computed == Branch::True;
                self.seen.push(Angelic {
                    test: self.test,
                    stmt: site.inst.stmt,
                    ctx: site.ctx.to_vec(),
                    value: AngelicValue::Branch {
                        needed: b,
                        computed: c,
                    },
                });
                if b {
                    Branch::True
                } else {
                    Branch::False
                }
            }
            None => computed,
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
    };
    let exec = exe.run(
        test.input(),
        ExecOptions {
            record_trace: true,
            limits,
            hooks: Some(&mut applier),
        },
    );
    let verdict = faultline_exec::suite::judge(test, &exec, compare);
    let mut ok = verdict == Verdict::Pass && exec.overflows.iter().all(|s| w.stmts.contains(s));
    if ok {
        if let Some(trace) = &exec.trace {
            let needs = Needs::of_trace(prog, trace);
            ok = needs
                .loops
                .iter()
                .all(|(l, n)| *n <= *bounds.loops.get(l).unwrap_or(&bounds.default_loop))
                && needs.depth.iter().all(|(f, n)| {
                    *n <= *bounds.depth.get(f).unwrap_or(&bounds.default_depth).max(&1)
                });
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
