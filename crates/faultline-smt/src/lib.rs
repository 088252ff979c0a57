//! Encodings of programs and failing runs as Z3 formulas.
//!
//! [`encode_test`] symbolically executes the program on one failing test's
//! input (calls inlined, loops unrolled and recursion unfolded up to
//! [`Bounds`]) and asserts into a solver the hard facts: the input, the
//! program's semantics for statements that are not relaxed, the absence of
//! undefined behaviour, and the oracle (expected stdout, exit status,
//! assertions). Each statement S has one relaxation variable `ab_S`
//! ([`AbVars`], shared by all instances and all tests): when it is true, every
//! instance of S may produce any value (an assignment, a return value, a
//! printed text), either outcome (a condition) or any jump (a `break` or
//! `continue`: leave, go on with the next iteration, or go on), and S's own
//! safety checks are not enforced.
//!
//! Three encodings share the executor ([`Encoding`]): `full` (all paths of the
//! bounded program, guarded SSA with `ite` merges), `flow` (SNIPER's
//! flow-sensitive form: one SSA variable per statement instance constrained
//! only where its block is reached and the statement is not relaxed), and
//! `trace` (only the failing run's path; conditions and jumps are hard).

pub mod approx;
pub mod exec;
pub mod forked;
mod guards;
pub mod instances;
mod kind;
mod lift;
pub mod limits;
mod names;
pub mod oracle;
pub mod summary;
pub mod sym;

pub use exec::{
    encode_test, Bounds, BranchPolicy, EncodeError, Encoding, Explore, InstValue, RelaxedInstance,
    TestEncoding, TracePolicy,
};
pub use sym::IntSemantics;

use faultline_ir::StmtId;
use std::collections::BTreeMap;
use z3::ast::Bool;

/// Where hard constraints go: a solver, optionally under an activation
/// literal (`act → constraint`) so that several tests' formulas can share one
/// solver and be switched on per query (their unsat cores then name tests);
/// or a list, for a formula that is built to be inspected or translated
/// rather than solved as it is ([`Sink::collecting`]).
pub struct Sink<'a> {
    target: Target<'a>,
    pub activation: Option<Bool>,
}

enum Target<'a> {
    Solver(&'a z3::Solver),
    List(std::cell::RefCell<Vec<Bool>>),
}

impl<'a> Sink<'a> {
    pub fn new(solver: &'a z3::Solver) -> Sink<'a> {
        Sink {
            target: Target::Solver(solver),
            activation: None,
        }
    }

    /// A sink that keeps the constraints in a list ([`Sink::assertions`]).
    /// Cheaper than a solver used as a container: Z3 sets a new default
    /// solver up (milliseconds: its tactics for every logic) on its first
    /// assertion.
    pub fn collecting() -> Sink<'static> {
        Sink {
            target: Target::List(Default::default()),
            activation: None,
        }
    }

    pub fn assert(&self, b: &Bool) {
        let b = match &self.activation {
            Some(a) => a.implies(b),
            None => b.clone(),
        };
        match &self.target {
            Target::Solver(s) => s.assert(&b),
            Target::List(l) => l.borrow_mut().push(b),
        }
    }

    /// The constraints a collecting sink was given, in order (a solver's
    /// sink: its solver's assertions).
    pub fn assertions(&self) -> Vec<Bool> {
        match &self.target {
            Target::Solver(s) => s.get_assertions(),
            Target::List(l) => l.borrow().clone(),
        }
    }
}

/// The relaxation variables `ab_S`, one per statement, shared across tests.
#[derive(Default, Debug)]
pub struct AbVars {
    vars: BTreeMap<StmtId, Bool>,
    /// A *focused* set: only these statements are relaxable; every other one
    /// is encoded as written, so its values fold to constants wherever the
    /// focus does not reach (`None`: every statement is relaxable).
    focus: Option<std::collections::BTreeSet<StmtId>>,
    /// Statements never relaxable here (encoded as written).
    except: std::collections::BTreeSet<StmtId>,
}

impl AbVars {
    pub fn new() -> AbVars {
        AbVars::default()
    }
    /// Relaxation variables for the statements of `focus` only: the formula
    /// of a test with exactly those statements relaxable (the others as
    /// written), much smaller than the formula with every statement
    /// relaxable and the others' `ab` assumed false.
    pub fn focused(focus: std::collections::BTreeSet<StmtId>) -> AbVars {
        AbVars {
            vars: BTreeMap::new(),
            focus: Some(focus),
            except: Default::default(),
        }
    }
    /// Relaxation variables for every statement but those of `except`.
    pub fn excluding(except: std::collections::BTreeSet<StmtId>) -> AbVars {
        AbVars {
            vars: BTreeMap::new(),
            focus: None,
            except,
        }
    }
    /// Whether statement `s` may be relaxed in formulas built with these
    /// variables.
    pub fn allows(&self, s: StmtId) -> bool {
        self.focus.as_ref().is_none_or(|f| f.contains(&s)) && !self.except.contains(&s)
    }
    /// `ab_S`, created on first use.
    pub fn get(&mut self, s: StmtId) -> Bool {
        self.vars
            .entry(s)
            .or_insert_with(|| Bool::new_const(format!("ab_{}", s.0)))
            .clone()
    }
    /// The statements that have a relaxation variable, in id order.
    pub fn stmts(&self) -> impl Iterator<Item = (StmtId, &Bool)> {
        self.vars.iter().map(|(s, b)| (*s, b))
    }
    pub fn lookup(&self, s: StmtId) -> Option<&Bool> {
        self.vars.get(&s)
    }
    /// Assumptions that relax exactly the statements of `d`: `ab_S` for
    /// those, `¬ab_S` for every other statement with a variable.
    pub fn relaxing_exactly(&self, d: &std::collections::BTreeSet<StmtId>) -> Vec<Bool> {
        self.stmts()
            .map(|(s, b)| if d.contains(&s) { b.clone() } else { b.not() })
            .collect()
    }
    pub fn len(&self) -> usize {
        self.vars.len()
    }
    pub fn is_empty(&self) -> bool {
        self.vars.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A collecting sink keeps what a solver's sink would assert, in order,
    /// activation literal included.
    #[test]
    fn collecting_sink_keeps_what_a_solver_would_be_given() {
        let (x, y) = (Bool::new_const("x"), Bool::new_const("y"));
        let act = Bool::new_const("act");
        let solver = z3::Solver::new();
        let mut into_solver = Sink::new(&solver);
        let mut into_list = Sink::collecting();
        for sink in [&mut into_solver, &mut into_list] {
            sink.assert(&x);
            sink.activation = Some(act.clone());
            sink.assert(&y.not());
        }
        let shown = |v: Vec<Bool>| v.iter().map(|b| b.to_string()).collect::<Vec<_>>();
        assert_eq!(shown(into_list.assertions()), ["x", "(=> act (not y))"]);
        assert_eq!(
            shown(into_solver.assertions()),
            shown(into_list.assertions())
        );
    }
}
