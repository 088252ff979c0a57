//! What an encoding produced for one test: its relaxed statement instances
//! and the values they take in a model. Written by the symbolic executor
//! ([`crate::exec`]) and the output oracle ([`crate::oracle`]).

use crate::sym::SVal;
use faultline_exec::trace::Scope;
use faultline_ir::{Branch, Jump, StmtId};
use z3::ast::{Bool, BV};

/// The value a relaxed statement instance produced in a model.
#[derive(Clone, Debug)]
pub enum InstValue {
    /// A stored or returned scalar: what the model chose, and what the
    /// statement computes in the model's state.
    Scalar { chosen: SVal, computed: SVal },
    /// Argument `index` (its position) of a call with relaxable arguments
    /// ([`faultline_ir::CallSiteInfo::relax_args`]) in the statement.
    Argument {
        index: u32,
        chosen: SVal,
        computed: SVal,
    },
    /// A condition's outcome.
    Branch { chosen: Bool, computed: Bool },
    /// An output statement: the text it prints is the expected output between these positions.
    Output { start: BV, end: BV },
    /// A `break` or `continue`: it leaves the innermost loop or `switch`
    /// when `leave`, else goes on with the next iteration when `next`, else
    /// goes on with the next statement ([`jump_of`]); `computed` is its own jump.
    Jump {
        leave: Bool,
        next: Bool,
        computed: Jump,
    },
}

/// The jump a model chose for a relaxed `break` or `continue` (see
/// [`InstValue::Jump`]), from the values of its `leave` and `next`.
pub fn jump_of(leave: bool, next: bool) -> Jump {
    match (leave, next) {
        (true, _) => Jump::Break,
        (false, true) => Jump::Continue,
        (false, false) => Jump::Stay,
    }
}

/// The values of `leave` and `next` that choose jump `j`.
pub fn jump_bits(j: Jump) -> (bool, bool) {
    (j == Jump::Break, j == Jump::Continue)
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
