//! Values read under a guard, simplified by what the guard says.
//!
//! The encoder keeps one state for all paths: a store under guard `g` makes
//! the cell `ite(g, new, old)`. A value read under a guard that implies `g`
//! is `new` on every path that matters, but the term does not say so: a
//! loop whose body may `return` (a relaxed `if (scanf(...) != 1) return 0;`)
//! turns its counter into `ite(¬returned, j + 1, j)` after the first
//! iteration, its condition into a term, every later offset into a choice
//! among cells, and the unrolled loop into a formula over every way the
//! returns could fall (a 3x3 matrix read twice: 10 MB of formula, seconds
//! of Z3 before any search).
//!
//! What a guard says is read off its shape, cheaply and soundly: the guard
//! itself and the operands of its conjunctions hold, the operands of negated
//! disjunctions do not, and what holds in every operand of a disjunction
//! holds ([`Facts`]). [`under`] then takes the branch of each if-then-else
//! whose condition is known, and folds operations whose operands became
//! values. A value read under `g` is only ever used under `g` (stored under
//! it, compared under it, printed under it): where `g` is false the
//! simplified value may differ from the stored one, and nothing sees it.

use std::collections::{BTreeMap, HashSet};
use z3::ast::{Ast, Bool, Dynamic};
use z3::AstKind;
use z3_sys::DeclKind;

/// The most guard terms visited to collect what a guard says.
const FACT_NODES: usize = 128;

/// The most value terms visited to simplify one value.
const VALUE_NODES: usize = 64;

/// What a guard says: terms that hold and terms that do not, by id.
#[derive(Default, Debug)]
pub struct Facts {
    yes: Ids,
    no: Ids,
}

/// A set of term ids, hashed by one multiplication (ids are small, dense
/// integers; the default hasher cost more than the rest of a lookup).
type Ids = HashSet<u32, std::hash::BuildHasherDefault<IdHasher>>;

#[derive(Default)]
struct IdHasher(u64);

impl std::hash::Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8 | u64::from(*b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, i: u32) {
        self.0 = u64::from(i).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

impl Facts {
    /// No facts yet, with room for a whole walk's (no rehashing while
    /// collecting: most of the walk's cost otherwise).
    fn sized() -> Facts {
        Facts {
            yes: Ids::with_capacity_and_hasher(FACT_NODES, Default::default()),
            no: Ids::with_capacity_and_hasher(FACT_NODES / 4, Default::default()),
        }
    }

    /// Whether nothing is known.
    pub fn is_empty(&self) -> bool {
        self.yes.is_empty() && self.no.is_empty()
    }

    /// Whether `c` is known true (`Some(true)`), known false, or neither.
    fn truth(&self, c: &Dynamic) -> Option<bool> {
        if let Some(b) = c.as_bool().and_then(|b| b.as_bool()) {
            return Some(b);
        }
        let id = crate::lift::ast_id(c);
        if self.yes.contains(&id) {
            return Some(true);
        }
        if self.no.contains(&id) {
            return Some(false);
        }
        self.derived(c, 2)
    }

    /// Whether `c` is known true or false from its operands' truth, looking
    /// `depth` operations deep.
    fn derived(&self, c: &Dynamic, depth: u32) -> Option<bool> {
        if depth == 0 {
            return None;
        }
        let known = |d: &Dynamic| {
            let id = crate::lift::ast_id(d);
            if self.yes.contains(&id) {
                Some(true)
            } else if self.no.contains(&id) {
                Some(false)
            } else {
                self.derived(d, depth - 1)
            }
        };
        match app_kind(c)? {
            DeclKind::Not => known(&c.children()[0]).map(|b| !b),
            // A conjunction is false when an operand is, true when all are
            // (and a disjunction the other way around).
            k @ (DeclKind::And | DeclKind::Or) => {
                let decisive = k == DeclKind::Or;
                let mut all = true;
                for d in c.children() {
                    match known(&d) {
                        Some(b) if b == decisive => return Some(decisive),
                        Some(_) => {}
                        None => all = false,
                    }
                }
                all.then_some(!decisive)
            }
            _ => None,
        }
    }
}

/// What guard `g` says (see the module documentation), within
/// [`FACT_NODES`] terms.
pub fn facts(g: &Bool) -> Facts {
    let mut f = Facts::sized();
    let mut budget = FACT_NODES;
    let ctx = g.get_ctx().get_z3_context();
    // SAFETY: `g` is a live term of `ctx`: its subterms live as long as it
    // does, and none is kept past this call (only ids are).
    unsafe { collect(ctx, g.get_z3_ast(), true, &mut f, &mut budget) };
    f
}

fn app_kind(t: &Dynamic) -> Option<DeclKind> {
    // SAFETY: `t` is a live term of its context.
    unsafe { raw_kind(t.get_ctx().get_z3_context(), t.get_z3_ast()).map(|(k, _)| k) }
}

/// The kind of term `a`'s operation and the application, when `a` is an
/// application (read through Z3's API directly: no term or declaration
/// object is made and released, this is on every read of the encoder).
///
/// # Safety
/// `a` must be a live term of `ctx`.
unsafe fn raw_kind(
    ctx: z3_sys::Z3_context,
    a: z3_sys::Z3_ast,
) -> Option<(DeclKind, z3_sys::Z3_app)> {
    unsafe {
        if z3_sys::Z3_get_ast_kind(ctx, a) != AstKind::App {
            return None;
        }
        let app = z3_sys::Z3_to_app(ctx, a)?;
        let d = z3_sys::Z3_get_app_decl(ctx, app)?;
        Some((
            crate::kind::of_decl(ctx, d).unwrap_or(DeclKind::Internal),
            app,
        ))
    }
}

/// Adds what term `a` being `holds` says to `f`.
///
/// # Safety
/// `a` must be a live term of `ctx`.
unsafe fn collect(
    ctx: z3_sys::Z3_context,
    a: z3_sys::Z3_ast,
    holds: bool,
    f: &mut Facts,
    budget: &mut usize,
) {
    if *budget == 0 {
        return;
    }
    *budget -= 1;
    let Some((kind, app)) = (unsafe { raw_kind(ctx, a) }) else {
        return;
    };
    if matches!(kind, DeclKind::True | DeclKind::False) {
        return;
    }
    let id = unsafe { z3_sys::Z3_get_ast_id(ctx, a) };
    let set = if holds { &mut f.yes } else { &mut f.no };
    if !set.insert(id) {
        return;
    }
    let arg = |i| unsafe { z3_sys::Z3_get_app_arg(ctx, app, i) };
    let n = unsafe { z3_sys::Z3_get_app_num_args(ctx, app) };
    match (kind, holds) {
        (DeclKind::Not, _) => {
            if let Some(c) = arg(0) {
                unsafe { collect(ctx, c, !holds, f, budget) };
            }
        }
        (DeclKind::And, true) | (DeclKind::Or, false) => {
            for i in 0..n {
                if let Some(c) = arg(i) {
                    unsafe { collect(ctx, c, holds, f, budget) };
                }
            }
        }
        // A disjunction that holds: what each of its operands says alike.
        (DeclKind::Or, true) | (DeclKind::And, false) => {
            let mut common: Option<Facts> = None;
            for i in 0..n {
                let mut one = Facts::default();
                if let Some(c) = arg(i) {
                    unsafe { collect(ctx, c, holds, &mut one, budget) };
                }
                common = Some(match common {
                    None => one,
                    Some(prev) => Facts {
                        yes: prev.yes.intersection(&one.yes).copied().collect(),
                        no: prev.no.intersection(&one.no).copied().collect(),
                    },
                });
            }
            if let Some(c) = common {
                f.yes.extend(c.yes);
                f.no.extend(c.no);
            }
        }
        _ => {}
    }
}

/// `t` with the branches of its if-then-else terms that `f` decides taken,
/// and the operations whose operands became values folded (within
/// [`VALUE_NODES`] terms; beyond, the rest is left as it is). Equal to `t`
/// wherever the guard `f` was read from holds.
///
/// `facts` gives what the guard says, computed only when `t` has an
/// if-then-else to decide (most values read have none).
pub fn under(facts: &mut dyn FnMut() -> std::rc::Rc<Facts>, t: &Dynamic) -> Dynamic {
    // Ordered, not hashed, like `lift`'s memo: the terms are released in a
    // fixed order when it is dropped, and Z3 reuses the ids of released
    // terms, which later decide its search.
    let mut memo = BTreeMap::new();
    let mut budget = VALUE_NODES;
    let mut f = Lazy {
        get: facts,
        got: None,
    };
    rewrite(&mut f, t, &mut memo, &mut budget)
}

/// [`under`] for a Boolean term (kept as it is when it is a constant).
pub fn under_bool(facts: &mut dyn FnMut() -> std::rc::Rc<Facts>, b: &Bool) -> Bool {
    if b.as_bool().is_some() {
        return b.clone();
    }
    under(facts, &Dynamic::from_ast(b))
        .as_bool()
        .unwrap_or_else(|| b.clone())
}

/// What a guard says, asked for at the first if-then-else.
struct Lazy<'a> {
    get: &'a mut dyn FnMut() -> std::rc::Rc<Facts>,
    got: Option<std::rc::Rc<Facts>>,
}

impl Lazy<'_> {
    fn facts(&mut self) -> std::rc::Rc<Facts> {
        if self.got.is_none() {
            self.got = Some((self.get)());
        }
        self.got.clone().expect("set")
    }
}

fn rewrite(
    f: &mut Lazy,
    t: &Dynamic,
    memo: &mut BTreeMap<u32, Dynamic>,
    budget: &mut usize,
) -> Dynamic {
    if *budget == 0 {
        return t.clone();
    }
    let Some(kind) = app_kind(t) else {
        return t.clone();
    };
    if t.num_children() == 0 {
        return t.clone();
    }
    let id = crate::lift::ast_id(t);
    if let Some(r) = memo.get(&id) {
        return r.clone();
    }
    *budget -= 1;
    let ch = t.children();
    let r = match kind {
        DeclKind::Ite if f.facts().is_empty() => {
            // The guard says nothing: nothing in `t` changes.
            *budget = 0;
            t.clone()
        }
        DeclKind::Ite => match f.facts().truth(&ch[0]) {
            Some(true) => rewrite(f, &ch[1], memo, budget),
            Some(false) => rewrite(f, &ch[2], memo, budget),
            None => {
                let (a, b) = (
                    rewrite(f, &ch[1], memo, budget),
                    rewrite(f, &ch[2], memo, budget),
                );
                if a.ast_eq(&ch[1]) && b.ast_eq(&ch[2]) {
                    t.clone()
                } else {
                    let c = ch[0].as_bool().expect("a condition");
                    c.ite(&a, &b)
                }
            }
        },
        _ => {
            let new: Vec<Dynamic> = ch.iter().map(|c| rewrite(f, c, memo, budget)).collect();
            if new.iter().zip(&ch).all(|(a, b)| a.ast_eq(b)) {
                t.clone()
            } else {
                let refs: Vec<&dyn Ast> = new.iter().map(|a| a as &dyn Ast).collect();
                let r = t.decl().apply(&refs);
                if new.iter().all(is_literal) {
                    crate::lift::simplified(&r)
                } else {
                    r
                }
            }
        }
    };
    memo.insert(id, r.clone());
    r
}

/// Whether `t` is a numeral or a Boolean constant (one look, no walk:
/// a rebuilt operation is folded only when its operands are).
fn is_literal(t: &Dynamic) -> bool {
    t.as_bool().and_then(|b| b.as_bool()).is_some()
        // SAFETY: `t` is a live term of its context.
        || unsafe { z3_sys::Z3_is_numeral_ast(t.get_ctx().get_z3_context(), t.get_z3_ast()) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::BV;

    #[test]
    fn a_counter_stored_under_a_guard_is_its_new_value_under_a_stronger_one() {
        let (g, r) = (Bool::new_const("g"), Bool::new_const("returned"));
        let j = BV::new_const("j", 32);
        let next = j.bvadd(BV::from_u64(1, 32));
        // j++ under g ∧ ¬returned: ite(g ∧ ¬returned, j + 1, j).
        let store = Bool::and(&[&g, &r.not()]);
        let v = Dynamic::from_ast(&store.ite(&next, &j));
        // Read under (g ∧ ¬returned) ∧ c: j + 1.
        let c = Bool::new_const("c");
        let read = Bool::and(&[&store, &c]);
        let got = under(&mut || facts(&read).into(), &v);
        assert!(got.ast_eq(Dynamic::from_ast(&next)), "{got}");
        // Read where it returned: j.
        let got = under(&mut || facts(&r).into(), &v);
        assert!(got.ast_eq(Dynamic::from_ast(&j)), "{got}");
        // Read under a guard that says nothing of it: unchanged.
        let got = under(&mut || facts(&c).into(), &v);
        assert!(got.ast_eq(&v));
        // A value whose operands become values is folded: ite(g, 1, 2) + 1
        // under g is 2.
        let one = BV::from_u64(1, 32);
        let w = g.ite(&one, &BV::from_u64(2, 32)).bvadd(&one);
        let got = under(&mut || facts(&g).into(), &Dynamic::from_ast(&w));
        assert_eq!(got.as_bv().and_then(|b| b.as_u64()), Some(2));
    }

    #[test]
    fn what_both_operands_of_a_disjunction_say_holds() {
        let (g, a, b) = (
            Bool::new_const("g"),
            Bool::new_const("a"),
            Bool::new_const("b"),
        );
        // After an if-else whose branches both go on: (g ∧ a) ∨ (g ∧ ¬a ∧ b).
        let merged = Bool::or(&[&Bool::and(&[&g, &a]), &Bool::and(&[&g, &a.not(), &b])]);
        let f = facts(&merged);
        assert_eq!(f.truth(&Dynamic::from_ast(&g)), Some(true));
        assert_eq!(f.truth(&Dynamic::from_ast(&a)), None);
        assert_eq!(f.truth(&Dynamic::from_ast(&b)), None);
        // ¬(x ∨ y) says both are false.
        let (x, y) = (Bool::new_const("x"), Bool::new_const("y"));
        let f = facts(&Bool::or(&[&x, &y]).not());
        assert_eq!(f.truth(&Dynamic::from_ast(&x)), Some(false));
        assert_eq!(f.truth(&Dynamic::from_ast(&y.not())), Some(true));
    }
}
