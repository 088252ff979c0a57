//! Traces of executed statement instances, and coverage.
//!
//! A statement *instance* is named by (statement, context): the context is the
//! chain of scopes from `main` to the statement: the call sites of the active
//! calls and, in each function, the iteration of each enclosing loop. A
//! statement executes at most once per context, so the pair names one
//! execution, structurally: the same name on every re-execution that reaches
//! it, and the same name in the symbolic executor's unrolled program. The
//! instance also carries its occurrence number: how many times the statement
//! ran before in the same function activation.

use crate::value::Value;
use faultline_ir::{Branch, CallSiteId, StmtId, VarRef};
use std::collections::HashMap;

/// A calling context, indexing [`Trace::contexts`]. Context 0 is `main`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CtxId(pub u32);

impl CtxId {
    pub const ROOT: CtxId = CtxId(0);
}

/// One step of a context chain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scope {
    /// Inside the function called at this call site.
    Call(CallSiteId),
    /// In iteration `k` (0-based) of the loop whose condition is `loop_id`
    /// ([`StmtId::NO_CONDITION`] for a `for (;;)` without condition). Iteration `k`
    /// covers the k-th test of the condition (for `do`: the k-th body) and
    /// the body and step that follow it.
    Iter(StmtId, u32),
}

/// A context: a scope inside a parent context.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Context {
    pub parent: CtxId,
    pub scope: Scope,
}

/// Interns context chains.
#[derive(Clone, Debug, Default)]
pub struct Contexts {
    /// `list[0]` is a placeholder for the root context.
    pub list: Vec<Context>,
    ids: HashMap<(CtxId, Scope), CtxId>,
}

impl Contexts {
    pub fn new() -> Contexts {
        Contexts {
            list: vec![Context {
                parent: CtxId::ROOT,
                scope: Scope::Iter(StmtId::NO_CONDITION, 0),
            }],
            ids: HashMap::new(),
        }
    }
    /// The context of `scope` inside `parent`.
    pub fn enter(&mut self, parent: CtxId, scope: Scope) -> CtxId {
        let next = CtxId(self.list.len() as u32);
        let id = *self.ids.entry((parent, scope)).or_insert(next);
        if id == next {
            self.list.push(Context { parent, scope });
        }
        id
    }
    /// The scopes of a context, outermost first.
    pub fn chain(&self, mut ctx: CtxId) -> Vec<Scope> {
        let mut out = Vec::new();
        while ctx != CtxId::ROOT {
            let c = self.list[ctx.0 as usize];
            out.push(c.scope);
            ctx = c.parent;
        }
        out.reverse();
        out
    }
    /// Looks a chain up without adding it.
    pub fn find(&self, chain: &[Scope]) -> Option<CtxId> {
        let mut ctx = CtxId::ROOT;
        for s in chain {
            ctx = *self.ids.get(&(ctx, *s))?;
        }
        Some(ctx)
    }
}

/// The chain of one context at a time, kept from one request to the next:
/// a run asks for the chains of nearby contexts in turn (the next iteration
/// of a loop, a call one level deeper), so updating it costs the scopes that
/// differ, not the depth. (A child context is interned after its parent, so
/// the ids along a chain increase from the root.)
#[derive(Clone, Debug, Default)]
pub struct ChainCache {
    ids: Vec<CtxId>,
    scopes: Vec<Scope>,
}

impl ChainCache {
    /// The scopes of `ctx` in `contexts`, outermost first (as
    /// [`Contexts::chain`]).
    pub fn chain(&mut self, contexts: &Contexts, ctx: CtxId) -> &[Scope] {
        let mut added = Vec::new();
        let mut c = ctx;
        let keep = loop {
            if c == CtxId::ROOT {
                break 0;
            }
            if let Ok(j) = self.ids.binary_search(&c) {
                break j + 1;
            }
            added.push(c);
            c = contexts.list[c.0 as usize].parent;
        };
        self.ids.truncate(keep);
        self.scopes.truncate(keep);
        for &c in added.iter().rev() {
            self.ids.push(c);
            self.scopes.push(contexts.list[c.0 as usize].scope);
        }
        &self.scopes
    }
}

/// The name of a statement instance: `(stmt, ctx)` identifies it; `occ` is
/// its occurrence number within its function activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Instance {
    pub stmt: StmtId,
    pub ctx: CtxId,
    pub occ: u32,
}

/// The outcome of a condition instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Not a condition (or the condition did not finish evaluating).
    None,
    Branch(Branch),
}

/// Where a value went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// A cell of a variable (cell 0 for scalars).
    Var { var: VarRef, cell: u32 },
    /// A cell of a string literal or of the argument vector.
    Other { cell: u32 },
    /// The value returned by a `return` statement.
    Return,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Write {
    pub target: Target,
    pub value: Value,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub inst: Instance,
    pub outcome: Outcome,
    /// The values the statement itself wrote (not its callees), in order.
    pub writes: Vec<Write>,
}

/// The executed statement instances of a run, in execution order.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub events: Vec<Event>,
    pub contexts: Contexts,
}

impl Trace {
    /// The branch decisions of the run, in order.
    pub fn decisions(&self) -> impl Iterator<Item = (Instance, Branch)> + '_ {
        self.events.iter().filter_map(|e| match e.outcome {
            Outcome::Branch(b) => Some((e.inst, b)),
            Outcome::None => None,
        })
    }
}

/// Statement and branch execution counts of one run (or summed over runs).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Coverage {
    /// Executions per statement, indexed by `StmtId`.
    pub stmts: Vec<u32>,
    /// Executions per (condition, outcome).
    pub branches: HashMap<(StmtId, Branch), u32>,
    /// Per statement, whether a value it stored was read afterwards (1) or not (0).
    pub used: Vec<u32>,
    /// Per statement, whether it stored a value (1) or not (0).
    pub wrote: Vec<u32>,
}

impl Coverage {
    pub fn new(n_stmts: usize) -> Coverage {
        Coverage {
            stmts: vec![0; n_stmts],
            branches: HashMap::new(),
            used: vec![0; n_stmts],
            wrote: vec![0; n_stmts],
        }
    }
    /// Whether the statement executed and what it computed mattered: it
    /// decided a branch, returned, printed, or stored a value that was read
    /// afterwards (a statement storing only values nobody read did not
    /// influence the run: coincidental coverage).
    pub fn used(&self, s: StmtId) -> bool {
        self.covered(s)
            && (self.wrote.get(s.index()).is_none_or(|&w| w == 0)
                || self.used.get(s.index()).is_some_and(|&u| u > 0))
    }

    pub fn covered(&self, s: StmtId) -> bool {
        self.stmts.get(s.index()).is_some_and(|&n| n > 0)
    }
    /// Adds another coverage's counts to this one.
    pub fn merge(&mut self, other: &Coverage) {
        if self.stmts.len() < other.stmts.len() {
            self.stmts.resize(other.stmts.len(), 0);
        }
        for (a, b) in self.stmts.iter_mut().zip(&other.stmts) {
            *a += b;
        }
        for (k, v) in &other.branches {
            *self.branches.entry(*k).or_insert(0) += v;
        }
        for (dst, src) in [
            (&mut self.used, &other.used),
            (&mut self.wrote, &other.wrote),
        ] {
            if dst.len() < src.len() {
                dst.resize(src.len(), 0);
            }
            for (a, b) in dst.iter_mut().zip(src) {
                *a += b;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cached chains are the chains, whatever order contexts are asked
    /// for in: deeper, shallower, siblings, unrelated ones.
    #[test]
    fn chain_cache_agrees_with_contexts() {
        let mut contexts = Contexts::new();
        let mut all = vec![CtxId::ROOT];
        // A tree: every context gets a call and two iterations below it.
        for i in 0..40u32 {
            let parent = all[(i as usize * 7) % all.len()];
            all.push(contexts.enter(parent, Scope::Call(CallSiteId(i % 3))));
            all.push(contexts.enter(parent, Scope::Iter(StmtId(i % 5), i)));
        }
        let mut cache = ChainCache::default();
        let mut order: Vec<CtxId> = all.clone();
        order.extend(all.iter().rev());
        order.extend(all.iter().step_by(3));
        order.extend(all.iter().rev().step_by(5));
        for c in order {
            assert_eq!(
                cache.chain(&contexts, c),
                contexts.chain(c).as_slice(),
                "{c:?}"
            );
        }
        assert!(cache.chain(&contexts, CtxId::ROOT).is_empty());
    }
}
