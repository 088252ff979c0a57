//! Expensive operations on if-then-else trees of values, computed per leaf.
//!
//! A multiplication, a division or a floating-point operation whose operands
//! are if-then-else terms over values (`ite(c, 2, 1) * 21`, `sum / n` where
//! `sum` is one of a few constants, depending on a relaxed condition) is
//! bit-blasted by Z3 into a multiplier or divider circuit, and a divider's
//! circuit needs search even when its inputs are known. [`lift`] computes
//! such an operation on each combination of the leaves instead: the result
//! is an if-then-else tree over the operands' own conditions whose leaves are
//! values, which costs Z3 a multiplexer. The term is equivalent; nothing else
//! changes.

use std::collections::BTreeMap;
use z3::ast::{Ast, Bool, Dynamic};
use z3::AstKind;
use z3_sys::DeclKind;

/// The most leaves (operations computed on values) one lifting builds.
pub(crate) const LEAVES: usize = 64;

/// The most nodes visited to decide whether a subterm is a value.
const VALUE_NODES: usize = 256;

/// The most distinct subterms one lifting visits.
const NODES: usize = 4096;

/// `t` with its operations pushed through the if-then-else terms of its
/// operands down to values (see the module documentation), or `None` when
/// `t` has a free value outside an if-then-else's condition, or the tree
/// would have more than [`LEAVES`] leaves.
pub fn lift(t: &Dynamic) -> Option<Dynamic> {
    lift_within(t, LEAVES)
}

/// [`lift`] with at most `leaves` leaves (instead of [`LEAVES`]): a
/// product of two unknowns is nonlinear for Z3's integer arithmetic, where
/// a larger multiplexer is still the cheaper term.
pub fn lift_within(t: &Dynamic, leaves: usize) -> Option<Dynamic> {
    let mut memo = Memo::new();
    let mut budget = Budget::new(leaves);
    let r = tree(t, &mut budget, &mut memo)?;
    // Nothing to gain when `t` was no if-then-else of values already.
    (!r.ast_eq(t)).then_some(r)
}

/// [`lift`] for a Boolean term (a safety condition).
pub fn lift_bool(t: &Bool) -> Bool {
    lift(&Dynamic::from_ast(t))
        .and_then(|d| d.as_bool())
        .unwrap_or_else(|| t.clone())
}

/// The condition and arms of an if-then-else term.
fn ite_parts(t: &Dynamic) -> Option<(Bool, Dynamic, Dynamic)> {
    if crate::kind::of(t) != Some(DeclKind::Ite) {
        return None;
    }
    let ch = t.children();
    Some((ch[0].as_bool()?, ch[1].clone(), ch[2].clone()))
}

/// `f` applied to the leaves of `args` read as if-then-else trees: `f` gets
/// each combination of leaves (a value, simplified, or a term with a free
/// constant) and the results are joined by the trees' conditions. Beyond
/// [`LEAVES`] combinations, `f` gets `args` themselves.
pub fn map_leaves(args: &[Dynamic], f: &mut dyn FnMut(&[Dynamic]) -> Dynamic) -> Dynamic {
    let mut budget = Budget::new(LEAVES);
    let trees: Option<Vec<Dynamic>> = args.iter().map(|a| partial(a, &mut budget)).collect();
    trees
        .and_then(|ts| split(&ts, f, &mut budget))
        .unwrap_or_else(|| f(args))
}

/// `t` as an if-then-else tree whose leaves are values or terms that are
/// not if-then-else terms.
fn partial(t: &Dynamic, budget: &mut Budget) -> Option<Dynamic> {
    budget.nodes = budget.nodes.checked_sub(1)?;
    if let Some((c, x, y)) = ite_parts(t) {
        let a = partial(&x, budget)?;
        let b = partial(&y, budget)?;
        return Some(c.ite(&a, &b));
    }
    if is_value_remembered(t) {
        return Some(simplified(t));
    }
    Some(t.clone())
}

/// `f` on each combination of the trees' leaves.
fn split(
    args: &[Dynamic],
    f: &mut dyn FnMut(&[Dynamic]) -> Dynamic,
    budget: &mut Budget,
) -> Option<Dynamic> {
    if let Some(i) = args.iter().position(|a| ite_parts(a).is_some()) {
        let (c, x, y) = ite_parts(&args[i]).expect("an if-then-else");
        let mut a = args.to_vec();
        a[i] = x;
        let l = split(&a, f, budget)?;
        a[i] = y;
        let r = split(&a, f, budget)?;
        return Some(c.ite(&l, &r));
    }
    budget.leaves = budget.leaves.checked_sub(1)?;
    Some(f(args))
}

/// Whether `t` is a value: no free constant in it (within
/// [`VALUE_NODES`] nodes).
pub fn is_value(t: &Dynamic) -> bool {
    value_within(t, &mut VALUE_NODES.clone())
}

/// Whether `t` has no free constant (a numeral, or interpreted operations
/// on numerals such as a floating-point literal or a rounding mode).
fn value_within(t: &Dynamic, budget: &mut usize) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    if t.kind() == AstKind::Numeral || t.as_bool().and_then(|b| b.as_bool()).is_some() {
        return true;
    }
    if !t.is_app() {
        return false;
    }
    let ch = t.children();
    if ch.is_empty() {
        // A constant: a value (a floating-point literal, a rounding mode)
        // or a free constant. (Declaration kinds cannot tell: the z3
        // crate's numbering is a later Z3's.)
        // SAFETY: `t` belongs to the thread's context.
        return unsafe { z3_sys::Z3_is_numeral_ast(t.get_ctx().get_z3_context(), t.get_z3_ast()) };
    }
    ch.iter().all(|c| value_within(c, budget))
}

/// The trees built, by the id of the term they stand for. Ordered, not
/// hashed: the terms are released in a fixed order when the memo is dropped,
/// and Z3 reuses the ids of released terms, which later decide its search.
type Memo = BTreeMap<u32, (Dynamic, Option<Dynamic>)>;

/// The id of a term in its context.
pub(crate) fn ast_id(t: &Dynamic) -> u32 {
    // SAFETY: `t` belongs to the thread's context.
    unsafe { z3_sys::Z3_get_ast_id(t.get_ctx().get_z3_context(), t.get_z3_ast()) }
}

/// Terms and their simplified forms, by the terms' ids.
type Simplified = BTreeMap<u32, (Dynamic, Dynamic)>;

thread_local! {
    /// The terms simplified on this thread ([`simplified`]), with the
    /// context they belong to. Ordered, not hashed, like [`Memo`].
    static SIMPLIFIED: std::cell::RefCell<(usize, Simplified)> = Default::default();
}

/// The most terms [`SIMPLIFIED`] keeps (then it starts afresh).
const MAX_SIMPLIFIED: usize = 100_000;

/// `t.simplify()`, remembered: every focused formula of a test computes the
/// same operations on values again (a loop's floating-point arithmetic, the
/// input's conversions), and Z3's simplifier costs tens of microseconds a
/// call. The terms kept keep their ids (and their context) alive, so an id
/// names one term while it is kept.
pub fn simplified(t: &Dynamic) -> Dynamic {
    let ctx = t.get_ctx().get_z3_context().as_ptr() as usize;
    let id = ast_id(t);
    let known = SIMPLIFIED.with(|c| {
        let c = c.borrow();
        if c.0 != ctx {
            return None;
        }
        c.1.get(&id).map(|(_, r)| r.clone())
    });
    if let Some(r) = known {
        return r;
    }
    let r = t.simplify();
    SIMPLIFIED.with(|c| {
        let mut c = c.borrow_mut();
        if c.0 != ctx || c.1.len() >= MAX_SIMPLIFIED {
            c.1.clear();
            c.0 = ctx;
        }
        c.1.insert(id, (t.clone(), r.clone()));
    });
    r
}

/// What one lifting may still build and visit.
struct Budget {
    leaves: usize,
    nodes: usize,
}

impl Budget {
    fn new(leaves: usize) -> Budget {
        Budget {
            leaves,
            nodes: NODES,
        }
    }
}

/// [`is_value`] (a walk of at most [`VALUE_NODES`] nodes, shared subterms
/// counted each time), its answer remembered for the encoding under way
/// ([`VALUES`]): asked of every node of a lifting's tree and of every
/// floating-point value read, a walk each time cost the square of a loop's
/// accumulated term (tot_info: 40% of a localization).
pub(crate) fn is_value_remembered(t: &Dynamic) -> bool {
    let id = ast_id(t);
    known_value(t, id).unwrap_or_else(|| {
        let v = is_value(t);
        remember_value(t, id, v);
        v
    })
}

thread_local! {
    /// Whether a term is a value ([`is_value_remembered`]), by id, on this
    /// thread, with the context, for the encoding under way
    /// ([`forget_values`]): a loop's accumulated term (`sum + x[i]`) is
    /// asked again by every lifting of the next iteration. The terms are
    /// kept, so that an id names one term while it is kept.
    static VALUES: std::cell::RefCell<(usize, Values)> = Default::default();
}

/// Terms and whether each is a value, by the terms' ids. Ordered, not
/// hashed, like [`Memo`].
type Values = BTreeMap<u32, (Dynamic, bool)>;

/// The most terms [`VALUES`] keeps (then it starts afresh): the terms it
/// keeps alive include every intermediate term a lifting asked about.
const MAX_VALUES: usize = 4_096;

/// Forgets what [`VALUES`] remembers (and releases its terms): called
/// around each encoding, whose terms are alive while it lasts anyway.
pub(crate) fn forget_values() {
    VALUES.with(|c| c.borrow_mut().1.clear());
}

fn known_value(t: &Dynamic, id: u32) -> Option<bool> {
    let ctx = t.get_ctx().get_z3_context().as_ptr() as usize;
    VALUES.with(|c| {
        let c = c.borrow();
        (c.0 == ctx)
            .then(|| c.1.get(&id).map(|(_, v)| *v))
            .flatten()
    })
}

fn remember_value(t: &Dynamic, id: u32, v: bool) {
    let ctx = t.get_ctx().get_z3_context().as_ptr() as usize;
    VALUES.with(|c| {
        let mut c = c.borrow_mut();
        if c.0 != ctx || c.1.len() >= MAX_VALUES {
            c.1.clear();
            c.0 = ctx;
        }
        c.1.insert(id, (t.clone(), v));
    });
}

/// `t` as an if-then-else tree whose leaves are values.
fn tree(t: &Dynamic, budget: &mut Budget, memo: &mut Memo) -> Option<Dynamic> {
    let id = ast_id(t);
    if let Some((_, r)) = memo.get(&id) {
        return r.clone();
    }
    let r = tree_uncached(t, budget, memo);
    memo.insert(id, (t.clone(), r.clone()));
    r
}

fn tree_uncached(t: &Dynamic, budget: &mut Budget, memo: &mut Memo) -> Option<Dynamic> {
    crate::limits::tick();
    budget.nodes = budget.nodes.checked_sub(1)?;
    if let Some((c, x, y)) = ite_parts(t) {
        let a = tree(&x, budget, memo)?;
        let b = tree(&y, budget, memo)?;
        return Some(c.ite(&a, &b));
    }
    if is_value_remembered(t) {
        budget.leaves = budget.leaves.checked_sub(1)?;
        return Some(simplified(t));
    }
    if !t.is_app() || t.children().is_empty() {
        return None;
    }
    let args: Vec<Dynamic> = t
        .children()
        .iter()
        .map(|c| tree(c, budget, memo))
        .collect::<Option<_>>()?;
    apply(&t.decl(), &args, budget)
}

/// `d` applied to if-then-else trees of values: split on the first operand
/// that is an if-then-else, down to values.
fn apply(d: &z3::FuncDecl, args: &[Dynamic], budget: &mut Budget) -> Option<Dynamic> {
    if let Some(i) = args.iter().position(|a| ite_parts(a).is_some()) {
        let (c, x, y) = ite_parts(&args[i]).expect("an if-then-else");
        let mut a = args.to_vec();
        a[i] = x;
        let l = apply(d, &a, budget)?;
        a[i] = y;
        let r = apply(d, &a, budget)?;
        return Some(c.ite(&l, &r));
    }
    budget.leaves = budget.leaves.checked_sub(1)?;
    crate::limits::tick();
    let refs: Vec<&dyn Ast> = args.iter().map(|a| a as &dyn Ast).collect();
    Some(simplified(&d.apply(&refs)))
}
