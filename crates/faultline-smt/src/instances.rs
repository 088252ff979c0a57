//! What an encoding produced for one test: its relaxed statement instances
//! and the values they take in a model. Written by the symbolic executor
//! ([`crate::exec`]) and the output oracle ([`crate::oracle`]).

use crate::sym::SVal;
use faultline_exec::trace::Scope;
use faultline_ir::{Branch, StmtId};
use z3::ast::{Bool, BV};

/// The value a relaxed statement instance produced in a model.
#[derive(Clone, Debug)]
pub enum InstValue {
    /// A stored or returned scalar: what the model chose, and what the
    /// statement computes in the model's state.
    Scalar { chosen: SVal, computed: SVal },
    /// A condition's outcome.
    Branch { chosen: Bool, computed: Bool },
    /// An output statement: the text it prints is the expected output between these positions.
    Output { start: BV, end: BV },
}

/// One instance of a relaxable statement in the formula.
#[derive(Clone, Debug)]
pub struct RelaxedInstance {
    pub stmt: StmtId,
    pub ctx: Vec<Scope>,
    /// When the instance is reached.
    pub guard: Bool,
    pub value: InstValue,
}

/// What [`crate::encode_test`] built for one test.
#[derive(Debug, Default)]
pub struct TestEncoding {
    pub relaxed: Vec<RelaxedInstance>,
    /// Approximations made (for reports).
    pub notes: Vec<String>,
    /// Guards of unexplored (abstract) branches entered, with their condition
    /// instance (on-demand strategies expand these).
    pub abstract_entries: Vec<(StmtId, Vec<Scope>, Branch, Bool)>,
    /// Number of statement instances encoded.
    pub instances: usize,
}
