//! Sharing MCSes between failing tests that follow the same path.
//!
//! Per-test methods (`per-test`/BugAssist, `setcombine`, OFC, AgxFaults)
//! enumerate every failing test's MCSes. Failing tests on one path usually
//! have the same ones: a benchmark version with 1578 failing tests has a
//! handful of paths. Once a test `A`'s complete list `S_A` (an antichain of
//! sets with at most `max_size` members) is known, a later test `B` on the
//! same path is answered by checking `S_A` instead of enumerating:
//!
//! 1. every `M ∈ S_A` is a correction set of `B`: re-executing `B` with `A`'s
//!    angelic values for `M` passes (a witness, [`crate::witness`]; no
//!    solver call);
//! 2. `B`'s formula with every `M ∈ S_A` blocked has no correction set with at
//!    most `max_size` members: one solver call.
//!
//! Then `S_A` is exactly `B`'s list. By (2) every small correction set of `B`
//! contains some `M ∈ S_A`, so every MCS of `B` is some `M` (which is a
//! correction set by (1), and an MCS contains no smaller one). Conversely each
//! `M` is minimal for `B`: a smaller correction set `M' ⊊ M` would contain
//! some `M'' ∈ S_A` by (2), and `M'' ⊊ M` contradicts `S_A` being an
//! antichain. When the formula is an over-approximation (OFC's and AgxFaults'
//! black boxes), (2) on it implies (2) on the exact formula, and (1) is an
//! execution of the real program, so the argument holds for the exact MCSes.
//! The order is the enumeration order, `(cost, member list)` in `B`'s
//! formula; the angelic values are those of `B`'s own re-execution. If a
//! check fails, `B` is enumerated as usual and its list is remembered too.

use crate::engine::Engine;
use crate::formula::Softs;
use crate::mcs::McsEnumerator;
use crate::result::{Angelic, Incomplete};
use crate::witness::Witness;
use faultline_ir::StmtId;
use std::collections::{BTreeSet, HashMap};

/// One MCS of a test: statements, cost, and the values that explained it.
#[derive(Clone, Debug)]
pub struct Known {
    pub stmts: BTreeSet<StmtId>,
    pub cost: u64,
    pub witness: Witness,
}

/// An MCS of a test confirmed from another test's list.
#[derive(Clone, Debug)]
pub struct Reused {
    pub stmts: BTreeSet<StmtId>,
    pub cost: u64,
    /// The angelic values of this test's re-execution.
    pub angelic: Vec<Angelic>,
}

/// A test's formula, as far as the check needs it: its solver, an MCS
/// enumerator and its soft terms.
pub struct CheckFormula<'a> {
    pub solver: &'a z3::Solver,
    pub en: &'a mut McsEnumerator,
    pub softs: &'a Softs,
}

/// Most distinct lists remembered per path.
const LISTS_PER_PATH: usize = 4;

/// Complete MCS lists of tests already enumerated, by path signature.
#[derive(Default)]
pub struct PathMemo {
    lists: HashMap<usize, Vec<Vec<Known>>>,
}

impl PathMemo {
    /// Remembers the complete MCS list of a test with path signature `sig`.
    pub fn remember(&mut self, sig: usize, list: Vec<Known>) {
        let lists = self.lists.entry(sig).or_default();
        let same = |l: &Vec<Known>| {
            l.len() == list.len() && l.iter().zip(&list).all(|(a, b)| a.stmts == b.stmts)
        };
        if let Some(i) = lists.iter().position(same) {
            // Fresher witnesses first: they come from a closer test.
            lists.remove(i);
        } else if lists.len() >= LISTS_PER_PATH {
            lists.pop();
        }
        lists.insert(0, list);
    }

    /// The first remembered list of test `t`'s path whose every MCS explains
    /// `t` on re-execution (check 1), with `t`'s angelic values; `None` if
    /// there is none. Check 2 is [`PathMemo::confirm`], on `t`'s formula.
    pub fn candidate(&self, engine: &mut Engine, t: usize, sig: usize) -> Option<Vec<Reused>> {
        'lists: for list in self.lists.get(&sig)? {
            let mut out = Vec::with_capacity(list.len());
            for k in list {
                let r = engine.replay(t, &k.witness);
                if !r.explains {
                    continue 'lists;
                }
                out.push(Reused {
                    stmts: k.stmts.clone(),
                    cost: k.cost,
                    angelic: r.angelic,
                });
            }
            return Some(out);
        }
        None
    }

    /// Check 2: blocks every set of `list` in `f` and asks whether a
    /// correction set within `max_size` is left. `Some(list)` in enumeration
    /// order if none is; `None` if one is, and then `f` has the list blocked:
    /// the caller enumerates on a fresh formula.
    pub fn confirm(
        &mut self,
        engine: &mut Engine,
        f: CheckFormula,
        list: Vec<Reused>,
    ) -> Result<Option<Vec<Reused>>, Incomplete> {
        let mut keyed = Vec::with_capacity(list.len());
        for r in list {
            let Some(members) = f.softs.members(&r.stmts) else {
                return Ok(None);
            };
            f.en.block(f.solver, &members);
            keyed.push(((r.cost, members), r));
        }
        let calls = f.en.solver_calls();
        let done = engine.mcs_exhausted(f.en, f.solver);
        engine.count_solver_calls(f.en.solver_calls() - calls);
        if !done? {
            return Ok(None);
        }
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        engine.count_reused();
        Ok(Some(keyed.into_iter().map(|(_, r)| r).collect()))
    }
}
