//! Static facts about statements: defs, uses, direct calls and control dependences.
//! (Being written; `compute` fills `StmtInfo::{defs, uses, calls, control}`.)

use crate::Program;

/// Fills the analysis fields of every [`crate::StmtInfo`] of `program`.
pub fn compute(_program: &mut Program) {}
