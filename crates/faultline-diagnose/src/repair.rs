//! One-token repairs: whether a statement of a diagnosis can be fixed by the
//! smallest edits a programmer makes (and mutation testing models): another
//! relational operator (`>` for `>=`), another arithmetic operator (`-` for
//! `+`), `||` for `&&` and back, an integer constant one more or one less (a
//! letter's constant also in the other case: `'i'` for `'I'`), a read of
//! another local variable of the same type (`gcd(b, a % b)` for `gcd(a, a %
//! b)`), two arguments of a call of the same type swapped (`hanoi(n - 1,
//! via, to, from)` for `hanoi(n - 1, via, from, to)`), or `continue` for
//! `break` and back (in a loop, outside any `switch`).
//!
//! A constant statement (`int max = 0;`) whose instances need different
//! values has a *constant repair* when one of those values, produced by
//! every instance, makes every test pass ([`constant_repair`]).
//!
//! A declaration without an initializer or an insertion ([`faultline_ir::Insertion`])
//! has a repair when the statement a programmer would write there makes
//! every test pass: `int x = c;` for the one constant `c` every instance of
//! a declaration needs, `x++;` or `x--;` for an update, `printf("T")` for the one text `T`
//! every instance needs to print, or `printf("...%d...", v)` printing a
//! variable `v` (of the function or global) where the first instance's
//! needed text has a number ([`insertion_repair`]).
//!
//! A statement *has a one-token repair* when some such edit of it makes every
//! failing test pass and leaves every passing test passing, re-executed by the
//! interpreter. It is evidence that the statement is the fault, not only a
//! place where the failure could be masked: among equally small diagnoses,
//! single statements with a repair come first (see
//! [`crate::plausible::Plausibility::order`]). The search re-runs the failing
//! tests on each edited program and the passing tests only on the edits that
//! fix every failing one, with the session's replay limits; it stops at the
//! thread's budget (the order then stays as found).

use crate::result::{AngelicValue, Diagnosis};
use crate::session::Session;
use faultline_exec::budget::Budget;
use faultline_exec::value::Value;
use faultline_exec::{ExecOptions, Executable, Hooks, Site};
use faultline_ir::visit::{for_each_stmt_mut, stmt_exprs_mut, walk_expr_mut, VisitorMut};
use faultline_ir::{
    BinOp, Builtin, CmpOp, Expr, ExprKind, GlobalId, Insertion, IntKind, Jump, LocalId, Place,
    PlaceKind, Program, Stmt, StmtId, StmtKind, StrId, Type, Var, CHAR, DOUBLE, INT,
};

/// Single-statement diagnoses checked for a repair at most, in found order.
pub const MAX_CHECKED: usize = 20;

/// Edits of one expression node; `locals` are the scalar locals (and
/// parameters) of the statement's function, which a read of one may read
/// instead.
fn edits_of(k: &ExprKind, locals: &[(Var, Type)]) -> Vec<ExprKind> {
    use BinOp::*;
    use CmpOp::*;
    match k {
        // A letter in the other case (`'I'` for `'i'`).
        ExprKind::Int(c) if u8::try_from(*c).is_ok_and(|b| b.is_ascii_alphabetic()) => {
            let b = *c as u8;
            let other = if b.is_ascii_uppercase() {
                b.to_ascii_lowercase()
            } else {
                b.to_ascii_uppercase()
            };
            vec![
                ExprKind::Int(c + 1),
                ExprKind::Int(c - 1),
                ExprKind::Int(i64::from(other)),
            ]
        }
        // Another local variable of the same type (`gcd(b, a % b)` for
        // `gcd(a, a % b)`).
        ExprKind::Load(p) => match &p.kind {
            PlaceKind::Var(v @ Var::Local(_)) => locals
                .iter()
                .filter(|(w, t)| w != v && *t == p.ty)
                .map(|(w, t)| {
                    ExprKind::Load(Box::new(Place {
                        kind: PlaceKind::Var(*w),
                        ty: t.clone(),
                    }))
                })
                .collect(),
            _ => Vec::new(),
        },
        ExprKind::Cmp(op, a, b) => [Eq, Ne, Lt, Le, Gt, Ge]
            .into_iter()
            .filter(|o| o != op)
            .map(|o| ExprKind::Cmp(o, a.clone(), b.clone()))
            .collect(),
        ExprKind::Binary(op @ (Add | Sub | Mul | Div | Rem), a, b) => [Add, Sub, Mul, Div, Rem]
            .into_iter()
            .filter(|o| o != op)
            .map(|o| ExprKind::Binary(o, a.clone(), b.clone()))
            .collect(),
        ExprKind::And(a, b) => vec![ExprKind::Or(a.clone(), b.clone())],
        ExprKind::Or(a, b) => vec![ExprKind::And(a.clone(), b.clone())],
        ExprKind::Int(c) => vec![ExprKind::Int(c + 1), ExprKind::Int(c - 1)],
        // Two arguments of the same type swapped (`hanoi(n - 1, via, to,
        // from)` for `hanoi(n - 1, via, from, to)`).
        ExprKind::Call { func, args, site } => {
            let mut out = Vec::new();
            for i in 0..args.len() {
                for j in i + 1..args.len() {
                    if args[i].ty == args[j].ty && args[i] != args[j] {
                        let mut swapped = args.clone();
                        swapped.swap(i, j);
                        out.push(ExprKind::Call {
                            func: *func,
                            args: swapped,
                            site: *site,
                        });
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// Visits the expression nodes of one statement in a fixed order, counting
/// them, and replaces node `target` by `with` (when given).
struct Nodes {
    seen: usize,
    target: usize,
    with: Option<ExprKind>,
    /// The edits of every node, when counting.
    edits: Vec<Vec<ExprKind>>,
    /// The scalar locals of the statement's function (see [`edits_of`]).
    locals: Vec<(Var, Type)>,
}

impl VisitorMut for Nodes {
    fn visit_expr_mut(&mut self, e: &mut faultline_ir::Expr) {
        let i = self.seen;
        self.seen += 1;
        if self.with.is_none() {
            self.edits.push(edits_of(&e.kind, &self.locals));
        } else if i == self.target {
            e.kind = self.with.take().expect("the edit");
            return;
        }
        walk_expr_mut(self, e);
    }
}

/// Applies `visit` to the expressions of statement `id` in `prog` (a
/// global's initializer too).
fn with_stmt(prog: &mut Program, id: StmtId, visit: &mut Nodes) {
    for g in &mut prog.globals {
        if g.init_stmt == Some(id) {
            for item in &mut g.init.items {
                visit.visit_expr_mut(&mut item.value);
            }
        }
    }
    for f in &mut prog.functions {
        for_each_stmt_mut(&mut f.body, &mut |s| {
            if s.id() == Some(id) {
                stmt_exprs_mut(s, |e| visit.visit_expr_mut(e));
            }
        });
    }
}

/// The other jump keyword of statement `id`, when it is a `break` or
/// `continue` whose innermost loop or `switch` is a loop.
fn swapped_jump(prog: &Program, id: StmtId) -> Option<Stmt> {
    let (_, j, _) = crate::bounds::loop_jumps(prog)
        .into_iter()
        .find(|(s, _, _)| *s == id)?;
    Some(match j {
        Jump::Break => Stmt::Continue { id },
        _ => Stmt::Break { id },
    })
}

/// Replaces statement `id` of `prog` by `with`.
fn replace_stmt(prog: &mut Program, id: StmtId, with: &Stmt) {
    for f in &mut prog.functions {
        for_each_stmt_mut(&mut f.body, &mut |s| {
            if s.id() == Some(id) {
                *s = with.clone();
            }
        });
    }
}

/// Whether some one-token edit of statement `id` makes every failing test of
/// `session` pass and keeps every passing one passing. `None`: the budget ran
/// out before it was decided.
pub fn has_repair(session: &Session, id: StmtId) -> Option<bool> {
    let func = session.prog.func(session.prog.stmt(id).func);
    let locals: Vec<(Var, Type)> = func
        .locals
        .iter()
        .enumerate()
        .filter(|(_, l)| l.ty.is_arithmetic())
        .map(|(i, l)| (Var::Local(LocalId(i as u32)), l.ty.clone()))
        .collect();
    let mut count = Nodes {
        seen: 0,
        target: 0,
        with: None,
        edits: Vec::new(),
        locals,
    };
    let mut prog = session.prog.clone();
    with_stmt(&mut prog, id, &mut count);
    let repairs = |mutant: &Program| {
        Executable::new(mutant).is_ok_and(|exe| every_test_passes(session, &exe, None))
    };
    if let Some(with) = swapped_jump(session.prog, id) {
        let mut mutant = session.prog.clone();
        replace_stmt(&mut mutant, id, &with);
        if repairs(&mutant) {
            return Some(true);
        }
    }
    for (node, edits) in count.edits.into_iter().enumerate() {
        for edit in edits {
            if Budget::check_current().is_some() {
                return None;
            }
            let mut mutant = session.prog.clone();
            let mut apply = Nodes {
                seen: 0,
                target: node,
                with: Some(edit),
                edits: Vec::new(),
                locals: Vec::new(),
            };
            with_stmt(&mut mutant, id, &mut apply);
            if repairs(&mutant) {
                return Some(true);
            }
        }
    }
    if Budget::check_current().is_some() {
        return None;
    }
    Some(false)
}

/// What a repaired declaration or insertion does at each of its instances.
#[derive(Clone, Debug, PartialEq)]
enum Written {
    /// `x = c` (an integer or floating constant, as the angelic values print it).
    Set(String),
    /// `x += d` on an integer.
    Step(i64),
    /// `printf("T")`.
    Print(Vec<u8>),
}

/// Applies a [`Written`] statement at every instance of `stmt`.
struct Apply<'a> {
    stmt: StmtId,
    what: &'a Written,
}

impl Hooks for Apply<'_> {
    fn watches(&self, stmt: StmtId) -> bool {
        stmt == self.stmt
    }
    fn value(&mut self, site: &Site, _k: u32, computed: Value) -> Value {
        if site.inst.stmt != self.stmt {
            return computed;
        }
        match (self.what, computed) {
            (Written::Step(d), Value::Int(i)) => Value::Int(i.wrapping_add(*d)),
            (Written::Set(c), Value::Float(_)) => c.parse().map_or(computed, Value::Float),
            (Written::Set(c), _) => c.parse().map_or(computed, Value::Int),
            _ => computed,
        }
    }
    fn output(&mut self, site: &Site, computed: Vec<u8>) -> Vec<u8> {
        match self.what {
            Written::Print(t) if site.inst.stmt == self.stmt => t.clone(),
            _ => computed,
        }
    }
}

/// The statements a programmer would write for single-statement diagnosis
/// `d` of a declaration or insertion, from its angelic values.
fn written(prog: &Program, d: &Diagnosis) -> Vec<Written> {
    let s = d.stmts[0];
    let mut needed = std::collections::BTreeSet::new();
    let mut texts = std::collections::BTreeSet::new();
    for a in d.angelic.iter().filter(|a| a.stmt == s) {
        match &a.value {
            AngelicValue::Value { needed: n, .. } => {
                needed.insert(n.clone());
            }
            AngelicValue::Output { text } => {
                texts.insert(text.clone());
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    // A missing initializer is a constant; a missing update in a loop is a
    // step (a constant assigned at the end of a loop body fixes a test only
    // by accident).
    if let (1, Some(c), StmtKind::Declare) = (needed.len(), needed.first(), prog.stmt(s).kind) {
        out.push(Written::Set(c.clone()));
    }
    match prog.insertion(s) {
        Some(Insertion::Output) => {
            if let (1, Some(t)) = (texts.len(), texts.first()) {
                if !t.is_empty() {
                    out.push(Written::Print(t.as_bytes().to_vec()));
                }
            }
        }
        Some(Insertion::Assign(_)) => out.extend([Written::Step(1), Written::Step(-1)]),
        None => {}
    }
    out
}

/// Values a constant repair tries at most.
const MAX_CONSTANTS: usize = 4;

/// Whether single-statement diagnosis `d` of a constant statement (it reads
/// no variable: `int max = 0;`, `return -1;`) has a repair: one of the
/// values its instances need (the first [`MAX_CONSTANTS`]), produced by
/// every instance, makes every failing test pass and keeps every passing one
/// passing (the solver chose each test's value alone; one constant may do
/// for all, as `INT_MIN` for a maximum's start). `None`: the budget ran out.
pub fn constant_repair(session: &Session, d: &Diagnosis) -> Option<bool> {
    let s = d.stmts[0];
    let mut values: Vec<&str> = Vec::new();
    for a in d.angelic.iter().filter(|a| a.stmt == s) {
        if let AngelicValue::Value { needed, .. } = &a.value {
            if !values.contains(&needed.as_str()) && values.len() < MAX_CONSTANTS {
                values.push(needed);
            }
        }
    }
    if values.len() < 2 {
        return Some(false);
    }
    let what: Vec<Written> = values.iter().map(|v| Written::Set(v.to_string())).collect();
    passes_everywhere(session, s, &what)
}

/// Whether one of `what`, done by every instance of statement `s`, makes
/// every test of `session` pass. `None`: the budget ran out first.
fn passes_everywhere(session: &Session, s: StmtId, what: &[Written]) -> Option<bool> {
    let Ok(exe) = Executable::new(session.prog) else {
        return Some(false);
    };
    for w in what {
        if Budget::check_current().is_some() {
            return None;
        }
        if every_test_passes(session, &exe, Some((s, w))) {
            return Some(true);
        }
    }
    Some(false)
}

/// Whether every test of `session` passes when run by `exe` (the failing
/// ones first: they fail fast), with statement `s` doing `what` at every
/// instance when given, under the session's replay limits.
fn every_test_passes(
    session: &Session,
    exe: &Executable,
    with: Option<(StmtId, &Written)>,
) -> bool {
    let limits = session.replay_limits();
    let passing = (0..session.runs.len()).filter(|&i| session.runs[i].passed());
    session.failing.iter().copied().chain(passing).all(|t| {
        let test = &session.tests[t];
        let mut hooks = with.map(|(stmt, what)| Apply { stmt, what });
        let exec = exe.run(
            test.input(),
            ExecOptions {
                record_trace: false,
                limits,
                hooks: hooks.as_mut().map(|h| h as &mut dyn Hooks),
            },
        );
        faultline_exec::suite::judge(test, &exec, session.compare) == faultline_exec::Verdict::Pass
    })
}

/// Whether single-statement diagnosis `d` of a declaration without an
/// initializer or an insertion has a repair (module docs): some statement
/// written there makes every failing test pass and keeps every passing one
/// passing. `None`: the budget ran out first.
pub fn insertion_repair(session: &Session, d: &Diagnosis) -> Option<bool> {
    for mutant in printed_values(session.prog, d) {
        if Budget::check_current().is_some() {
            return None;
        }
        if Executable::new(&mutant).is_ok_and(|exe| every_test_passes(session, &exe, None)) {
            return Some(true);
        }
    }
    passes_everywhere(session, d.stmts[0], &written(session.prog, d))
}

/// Variables a printed-value repair may print, at most.
const MAX_PRINTED: usize = 24;

/// The programs where output insertion `d.stmts[0]` is a `printf` of one
/// arithmetic variable (of its function, or global) with the format the
/// first needed text suggests: its first number becomes `%d` (`%ld`, `%u`,
/// `%lu` by the variable's type) or, with `k` decimals, `%.kf`.
fn printed_values(prog: &Program, d: &Diagnosis) -> Vec<Program> {
    let s = d.stmts[0];
    let info = prog.stmt(s);
    if info.kind != StmtKind::Insert {
        return Vec::new();
    }
    let Some(text) = d.angelic.iter().find_map(|a| match &a.value {
        AngelicValue::Output { text } if a.stmt == s => Some(text.as_bytes()),
        _ => None,
    }) else {
        return Vec::new();
    };
    let Some((pre, number, post)) = split_number(text) else {
        return Vec::new();
    };
    let decimals = number
        .iter()
        .position(|c| *c == b'.')
        .map(|i| number.len() - i - 1);
    let func = info.func;
    let vars = (0..prog.func(func).locals.len())
        .map(|l| Var::Local(LocalId(l as u32)))
        .chain((0..prog.globals.len()).map(|g| Var::Global(GlobalId(g as u32))))
        .filter(|v| prog.var_type(func, *v).is_arithmetic())
        .take(MAX_PRINTED);
    let mut out = Vec::new();
    for v in vars {
        let ty = prog.var_type(func, v).clone();
        let (conv, promoted) = match (&ty, decimals) {
            (Type::Int(k), None) if k.rank() <= 3 && k.signed() || k.rank() < 3 => ("%d", INT),
            (Type::Int(IntKind::UInt), None) => ("%u", Type::Int(IntKind::UInt)),
            (Type::Int(k), None) if k.signed() => ("%ld", Type::Int(*k)),
            (Type::Int(k), None) => ("%lu", Type::Int(*k)),
            (Type::Float(_), Some(_)) => ("", DOUBLE),
            _ => continue,
        };
        let conv = match decimals {
            Some(k) => format!("%.{k}f"),
            None => conv.to_string(),
        };
        let mut fmt = escape_percent(pre);
        fmt.extend_from_slice(conv.as_bytes());
        fmt.extend_from_slice(&escape_percent(post));
        let mut mutant = prog.clone();
        let sid = StrId(mutant.strings.len() as u32);
        mutant.strings.push(fmt);
        let load = Expr {
            kind: ExprKind::Load(Box::new(Place {
                kind: PlaceKind::Var(v),
                ty: ty.clone(),
            })),
            ty: ty.clone(),
        };
        let arg = if ty == promoted {
            load
        } else {
            Expr {
                kind: ExprKind::Cast(Box::new(load)),
                ty: promoted,
            }
        };
        let call = Expr {
            kind: ExprKind::Builtin {
                func: Builtin::Printf,
                args: vec![
                    Expr {
                        kind: ExprKind::Str(sid),
                        ty: Type::Ptr(Box::new(CHAR)),
                    },
                    arg,
                ],
            },
            ty: INT,
        };
        replace_stmt(&mut mutant, s, &Stmt::Expr { id: s, expr: call });
        out.push(mutant);
    }
    out
}

/// `text` around its first number (an optional `-`, digits, and optionally
/// `.` and digits): (before, number, after).
fn split_number(text: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let first = text.iter().position(u8::is_ascii_digit)?;
    let start = if first > 0 && text[first - 1] == b'-' {
        first - 1
    } else {
        first
    };
    let mut end = first;
    while end < text.len() && text[end].is_ascii_digit() {
        end += 1;
    }
    if end + 1 < text.len() && text[end] == b'.' && text[end + 1].is_ascii_digit() {
        end += 1;
        while end < text.len() && text[end].is_ascii_digit() {
            end += 1;
        }
    }
    Some((&text[..start], &text[start..end], &text[end..]))
}

fn escape_percent(b: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(b.len());
    for &c in b {
        out.push(c);
        if c == b'%' {
            out.push(b'%');
        }
    }
    out
}
