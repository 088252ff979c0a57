//! libm and `rand` in the formula.
//!
//! `round` and `fmod` are exact in IEEE arithmetic (round to nearest, ties
//! away from zero; the remainder adjusted to the dividend's sign) and are
//! encoded exactly. `rand` is glibc's generator: its state is one of the
//! (seed, values drawn) pairs the paths may reach, and each value is a
//! constant. `log`, `log10`, `exp`, `sin`, `cos` and `atan` have no exact
//! encoding: of a constant argument the result is computed as the
//! interpreter computes it; of a computed one it is the result the failing
//! run observed where the argument equals an argument the run passed, and
//! unconstrained elsewhere (docs/how-it-works.md says what that gives up).

use super::*;
use crate::sym::FpEq;
use faultline_exec::{ExecOptions, Executable, Hooks, Input, Limits};

/// Statement executions of the run that collects observed values.
const OBSERVE_STEPS: u64 = 50_000_000;

/// Collects the (argument, result) pairs of the inexact libm functions.
#[derive(Default)]
struct Observe {
    seen: Vec<(Builtin, f64, f64)>,
}

impl Hooks for Observe {
    fn watches(&self, _stmt: faultline_ir::StmtId) -> bool {
        false
    }
    fn library_result(&mut self, f: Builtin, args: &[f64], result: f64) {
        if let Some(&x) = args.first() {
            let known = self
                .seen
                .iter()
                .any(|(g, a, _)| *g == f && a.to_bits() == x.to_bits());
            if !known {
                self.seen.push((f, x, result));
            }
        }
    }
}

fn libm(f: Builtin, x: f64) -> f64 {
    match f {
        Builtin::Log => x.ln(),
        Builtin::Log10 => x.log10(),
        Builtin::Exp => x.exp(),
        Builtin::Sin => x.sin(),
        Builtin::Cos => x.cos(),
        _ => x.atan(),
    }
}

impl<'a, 'b> SymExec<'a, 'b> {
    /// `round`, `fmod`, `log`, `log10`, `exp`, `sin`, `cos`, `atan`.
    pub(super) fn math_builtin(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let v = self.eval(&args[0], g)?;
        let SVal::Float(x) = v else {
            return self.unsupported("math function of a non-floating value");
        };
        let kind = x.kind;
        let t = match f {
            Builtin::Round => x.t.round_to_integral_with_rounding_mode(
                &z3::ast::RoundingMode::round_nearest_ties_to_away(),
            ),
            Builtin::Fmod => {
                let w = self.eval(&args[1], g)?;
                let SVal::Float(y) = w else {
                    return self.unsupported("fmod of a non-floating value");
                };
                // IEEE's remainder rounds the quotient to nearest; fmod
                // truncates it: where the remainder's sign differs from the
                // dividend's, add |y| with the dividend's sign (exact).
                let r = x.t.rem(&y.t);
                let zero = sym::fp_const(kind, 0.0);
                let differ = and2(&not(&r.is_zero()), &not(&r.lt(&zero).eq(x.t.lt(&zero))));
                let ay = sym::fp_abs(&y.t);
                let rne = z3::ast::RoundingMode::round_nearest_ties_to_even();
                let adj = x.t.lt(&zero).ite(
                    &r.sub_with_rounding_mode(&ay, &rne),
                    &r.add_with_rounding_mode(&ay, &rne),
                );
                differ.ite(&adj, &r)
            }
            _ => return self.observed_math(f, &x),
        };
        Ok(SVal::Float(SFloat { kind, t }))
    }

    /// A libm function without an exact encoding (see the module doc).
    fn observed_math(&mut self, f: Builtin, x: &SFloat) -> R<SVal> {
        let kind = x.kind;
        // A value (checked within a bound: simplifying a large computed
        // term would cost as much as the term, on every call).
        if crate::lift::is_value(&z3::ast::Dynamic::from_ast(&x.t)) {
            let r = libm(f, x.t.simplify().as_f64());
            return Ok(SVal::Float(SFloat {
                kind,
                t: sym::fp_const(kind, r),
            }));
        }
        if self.observed.is_none() {
            self.observed = Some(self.observe_run());
        }
        let name = self.name(f.name());
        let mut t = match kind {
            FloatKind::Float => z3::ast::Float::fresh_const_float32(&name),
            _ => z3::ast::Float::fresh_const_double(&name),
        };
        let seen: Vec<(f64, f64)> = self
            .observed
            .iter()
            .flatten()
            .filter(|(g, _, _)| *g == f)
            .map(|(_, a, r)| (*a, *r))
            .collect();
        for (a, r) in seen.iter().rev() {
            let at = x.t._eq_fp(&sym::fp_const(kind, *a));
            t = at.ite(&sym::fp_const(kind, *r), &t);
        }
        let note = format!(
            "{} of computed values is encoded from the {} value(s) the failing run observed; elsewhere its result is unconstrained",
            f.name(),
            seen.len()
        );
        if !self.out.notes.contains(&note) {
            self.out.notes.push(note);
        }
        Ok(SVal::Float(SFloat { kind, t }))
    }

    /// Runs the test in the interpreter, collecting the inexact libm
    /// functions' (argument, result) pairs.
    fn observe_run(&self) -> Vec<(Builtin, f64, f64)> {
        let Ok(exe) = Executable::new(self.prog) else {
            return Vec::new();
        };
        let mut obs = Observe::default();
        let input = Input {
            args: &self.test.args,
            stdin: &self.test.stdin,
            workdir: self.test.workdir.as_deref(),
        };
        let options = ExecOptions {
            record_trace: false,
            limits: Limits {
                max_steps: Some(OBSERVE_STEPS),
                max_time: None,
                ..Limits::default()
            },
            hooks: Some(&mut obs),
        };
        exe.run(input, options);
        obs.seen
    }

    /// `rand()` and `srand(seed)` (a constant seed): glibc's generator.
    pub(super) fn rand_builtin(&mut self, f: Builtin, args: &'a [Expr], g: &mut Bool) -> R<SVal> {
        let sem = self.sem;
        let next = if f == Builtin::Srand {
            let v = self.eval(&args[0], g)?;
            let Some(seed) = self.int_of(&v)?.as_const() else {
                return self.unsupported("srand of a computed seed");
            };
            let j = self.rand_state((seed as u32, 0));
            self.long(j as i128)
        } else {
            let mut next = self.long(0);
            let mut value = SInt::constant(sem, IntKind::Int, 0);
            for i in (0..self.rand_states.len()).rev() {
                let at = self.rand_at.eq_const(i as i128);
                if is_false(&at) {
                    continue;
                }
                let (seed, drawn) = self.rand_states[i];
                let mut r = faultline_exec::libc::Random::new(seed);
                let mut x = 0;
                for _ in 0..=drawn {
                    x = r.next_value();
                }
                let j = self.rand_state((seed, drawn + 1));
                next = SInt::ite(&at, &self.long(j as i128), &next);
                value = SInt::ite(&at, &SInt::constant(sem, IntKind::Int, x as i128), &value);
            }
            let at = SInt::ite(g, &next, &self.rand_at.clone());
            self.rand_at = match at.as_const() {
                Some(k) => self.long(k),
                None => at,
            };
            return Ok(SVal::Int(value));
        };
        let at = SInt::ite(g, &next, &self.rand_at.clone());
        self.rand_at = match at.as_const() {
            Some(k) => self.long(k),
            None => at,
        };
        Ok(SVal::Int(SInt::constant(sem, IntKind::Int, 0)))
    }

    /// The index of a `rand` state, added if new.
    fn rand_state(&mut self, s: (u32, usize)) -> usize {
        match self.rand_states.iter().position(|x| *x == s) {
            Some(i) => i,
            None => {
                self.rand_states.push(s);
                self.rand_states.len() - 1
            }
        }
    }
}
