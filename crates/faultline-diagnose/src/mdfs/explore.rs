//! Whether altering statement instances can make the property hold: the
//! symbolic exploration of MDFS, as one solver query per combination.
//!
//! The test's run is encoded by the symbolic executor over every path of the
//! bounded program (`full` encoding), the input fixed. With no statement
//! relaxed, the formula's only path is the failing run. Relaxing exactly the
//! altered instances (their statements' relaxation variables, with every
//! *other* instance of those statements pinned to what it computes) leaves
//! the run concrete up to the first altered instance; an altered assignment
//! takes a free value, an altered branch the other outcome; from there on the
//! program's semantics decides the path. The query asks whether some path so
//! reaches the failure point with the property true: it answers exactly what
//! the sparse exploration of every path would (no path is missed, none is
//! invented), within the unwinding bounds and a time limit per query.
//!
//! Two formulas serve the properties: with the test's oracle (P is "the
//! output is the expected output", or an assertion holds) and without it
//! (the expected output is empty and every output statement is relaxed, so
//! printing constrains nothing) for properties over values or branch outcomes.

use crate::engine::Engine;
use faultline_exec::trace::Scope;
use faultline_exec::TestCase;
use faultline_ir::StmtId;
use faultline_smt::{AbVars, Encoding, InstValue, Sink, TestEncoding};
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

/// A statement instance: statement and context chain.
pub type Inst = (StmtId, Vec<Scope>);

/// What a query answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Some alteration makes the property hold.
    Polluted,
    /// None does.
    Clean,
    /// The solver gave up (time limit): counted as not polluted.
    Unknown(String),
}

/// A test's formula, ready for alteration queries.
pub struct Formula {
    solver: Solver,
    pub enc: TestEncoding,
    ab: AbVars,
    by_inst: HashMap<Inst, Vec<usize>>,
    /// Statements relaxed in every query (output statements, without the oracle).
    always: BTreeSet<StmtId>,
}

impl Formula {
    /// Encodes test `t`; with `oracle` false, without the expected output.
    pub fn new(engine: &mut Engine, t: usize, oracle: bool) -> Result<Formula, String> {
        let test: TestCase = if oracle {
            engine.session().tests[t].clone()
        } else {
            TestCase {
                expected_stdout: Vec::new(),
                expected_status: None,
                workdir: None,
                ..engine.session().tests[t].clone()
            }
        };
        let solver = engine.solver();
        let mut ab = AbVars::new();
        let enc = engine.encode_case(&test, &Sink::new(&solver), &mut ab, Encoding::Full)?;
        let mut by_inst: HashMap<Inst, Vec<usize>> = HashMap::new();
        for (i, r) in enc.relaxed.iter().enumerate() {
            by_inst.entry((r.stmt, r.ctx.clone())).or_default().push(i);
        }
        let always = if oracle {
            BTreeSet::new()
        } else {
            enc.relaxed
                .iter()
                .filter(|r| matches!(r.value, InstValue::Output { .. }))
                .map(|r| r.stmt)
                .collect()
        };
        Ok(Formula {
            solver,
            enc,
            ab,
            by_inst,
            always,
        })
    }

    /// Whether the instance can be altered (the formula relaxes it).
    pub fn alterable(&self, i: &Inst) -> bool {
        self.by_inst.contains_key(i)
    }

    /// The instance's guard and computed outcome, for a condition instance.
    pub fn branch(&self, i: &Inst) -> Option<(Bool, Bool)> {
        let r = &self.enc.relaxed[*self.by_inst.get(i)?.last()?];
        match &r.value {
            InstValue::Branch { computed, .. } => Some((r.guard.clone(), computed.clone())),
            _ => None,
        }
    }

    /// The instance's guard and last stored value.
    pub fn value(&self, i: &Inst) -> Option<(Bool, faultline_smt::sym::SVal)> {
        let r = &self.enc.relaxed[*self.by_inst.get(i)?.last()?];
        match &r.value {
            InstValue::Scalar { chosen, .. } => Some((r.guard.clone(), chosen.clone())),
            _ => None,
        }
    }

    /// A literal standing for `goal` (asserted `lit → goal`).
    pub fn goal(&self, name: &str, goal: &Bool) -> Bool {
        let lit = Bool::fresh_const(name);
        self.solver.assert(lit.implies(goal));
        lit
    }

    /// Can altering exactly `altered` (branches flipped, values free) make
    /// `goal` (and the formula's own oracle) hold?
    pub fn check(
        &self,
        engine: &mut Engine,
        altered: &[Inst],
        goal: Option<&Bool>,
        per_query: Duration,
    ) -> Answer {
        let stmts: BTreeSet<StmtId> = altered.iter().map(|i| i.0).collect();
        let mut assume: Vec<Bool> = self
            .ab
            .stmts()
            .map(|(s, b)| {
                if stmts.contains(&s) || self.always.contains(&s) {
                    b.clone()
                } else {
                    b.not()
                }
            })
            .collect();
        for s in &stmts {
            for (k, idx) in &self.by_inst {
                if k.0 != *s {
                    continue;
                }
                let is_altered = altered.contains(k);
                for &i in idx {
                    let r = &self.enc.relaxed[i];
                    match (&r.value, is_altered) {
                        (InstValue::Branch { chosen, computed }, true) => {
                            assume.push(r.guard.implies(chosen.xor(computed)))
                        }
                        (InstValue::Branch { chosen, computed }, false) => {
                            assume.push(r.guard.implies(chosen.eq(computed)))
                        }
                        (InstValue::Scalar { chosen, computed }, false) => {
                            assume.push(r.guard.implies(chosen.eq(computed)))
                        }
                        (
                            InstValue::Jump {
                                leave,
                                next,
                                computed,
                            },
                            false,
                        ) => {
                            let (l, n) = faultline_smt::instances::jump_bits(*computed);
                            let own = Bool::and(&[
                                &leave.eq(Bool::from_bool(l)),
                                &next.eq(Bool::from_bool(n)),
                            ]);
                            assume.push(r.guard.implies(&own))
                        }
                        _ => {}
                    }
                }
            }
        }
        if let Some(g) = goal {
            assume.push(g.clone());
        }
        let mut p = Params::new();
        let mut limit = per_query;
        if let Some(left) = engine.time_left() {
            limit = limit.min(left);
        }
        if limit.is_zero() {
            return Answer::Unknown("the time limit was reached".into());
        }
        p.set_u32(
            "timeout",
            limit.as_millis().clamp(1, u32::MAX as u128) as u32,
        );
        self.solver.set_params(&p);
        let t0 = Instant::now();
        let r = self.solver.check_assumptions(&assume);
        faultline_smt::limits::note_z3_memory();
        engine.count_solve_time(t0.elapsed());
        engine.count_solver_calls(1);
        match r {
            SatResult::Sat => Answer::Polluted,
            SatResult::Unsat => Answer::Clean,
            SatResult::Unknown => Answer::Unknown(
                self.solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "unknown".into()),
            ),
        }
    }
}
