//! A test formula with its MCS enumerator: the soft terms kept in sync with
//! the relaxation variables, and one failing test's own formula.

use crate::engine::Engine;
use crate::mcs::McsEnumerator;
use faultline_ir::StmtId;
use faultline_smt::{AbVars, Sink, TestEncoding};
use std::collections::{BTreeMap, BTreeSet};
use z3::ast::Bool;
use z3::Solver;

/// Soft literals of an enumerator, kept in sync with the ab variables.
pub struct Softs {
    pub index: BTreeMap<StmtId, usize>,
    pub stmts: Vec<StmtId>,
    /// Each soft term's ab variable, and whether it is an insertion's.
    relaxed: Vec<Bool>,
    alone: Vec<bool>,
}

impl Softs {
    pub fn new() -> Softs {
        Softs {
            index: BTreeMap::new(),
            stmts: Vec::new(),
            relaxed: Vec::new(),
            alone: Vec::new(),
        }
    }
    /// Adds the ab variables not yet soft (in statement order), weighed by
    /// the engine's clause weights. An insertion (a statement missing from
    /// the source) is relaxed alone or not at all: `¬ab_i ∨ ¬ab_j` for each
    /// insertion `i` and each other statement `j` is asserted into `solver`
    /// (a missing statement together with wrong ones is not a diagnosis a
    /// person would follow, and pairs with insertions multiply).
    pub fn sync(&mut self, engine: &Engine, ab: &AbVars, en: &mut McsEnumerator, solver: &Solver) {
        for (s, v) in ab.stmts() {
            if let std::collections::btree_map::Entry::Vacant(e) = self.index.entry(s) {
                let i = en.add_soft(v.not(), engine.weight(s));
                e.insert(i);
                self.stmts.push(s);
                let alone = engine.is_insertion(s);
                for (j, w) in self.relaxed.iter().enumerate() {
                    if alone || self.alone[j] {
                        solver.assert(Bool::or(&[v.not(), w.not()]));
                    }
                }
                self.relaxed.push(v.clone());
                self.alone.push(alone);
            }
        }
    }
    pub fn to_stmts(&self, members: &[usize]) -> BTreeSet<StmtId> {
        members.iter().map(|&i| self.stmts[i]).collect()
    }
    /// The soft indices of `d`'s statements, sorted; `None` if one has no
    /// soft term (it is not relaxable in this formula).
    pub fn members(&self, d: &BTreeSet<StmtId>) -> Option<Vec<usize>> {
        let mut m = d
            .iter()
            .map(|s| self.index.get(s).copied())
            .collect::<Option<Vec<usize>>>()?;
        m.sort_unstable();
        Some(m)
    }
}

impl Default for Softs {
    fn default() -> Self {
        Softs::new()
    }
}

/// One test's own formula, in the engine's encoding, with its MCS enumerator.
pub struct TestFormula {
    pub solver: Solver,
    pub enc: TestEncoding,
    pub ab: AbVars,
    pub en: McsEnumerator,
    pub softs: Softs,
}

impl TestFormula {
    /// Encodes test `t`; `None` if it cannot be encoded (the engine has
    /// noted why).
    pub fn new(engine: &mut Engine, t: usize) -> Option<TestFormula> {
        let solver = engine.solver();
        let mut ab = AbVars::new();
        let enc = engine.encode(t, &Sink::new(&solver), &mut ab)?;
        engine.count_test_encoded();
        let mut en = engine.enumerator();
        let mut softs = Softs::new();
        softs.sync(engine, &ab, &mut en, &solver);
        Some(TestFormula {
            solver,
            enc,
            ab,
            en,
            softs,
        })
    }
}
