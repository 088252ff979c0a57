//! The IR walker (`faultline_ir::visit`): which expressions, places and
//! statements it reaches, in which order, and how visitors prune and rewrite.

use faultline_ir::pretty;
use faultline_ir::visit::{
    any_expr, for_each_stmt, for_each_stmt_mut, stmt_exprs, stmt_exprs_mut, walk_expr,
    walk_expr_mut, Visitor, VisitorMut,
};
use faultline_ir::{Expr, ExprKind, FuncId, Place, PlaceKind, Program, Stmt, StmtId};

const SRC: &str = r#"
int g;
long f(int x) { return x + 1L; }
int main(void) {
  int a[3];
  int i = 0;
  for (i = 0; i < 3; i++) { a[i] = i * 2; }
  do { g += a[1]; } while (g < 5);
  switch (g) { case 6: g = f(g); break; default: g--; }
  if (g) { if (a[g - 6]) g = 1; } else { printf("%d\n", g); }
  return 0;
}
"#;

fn program() -> Program {
    faultline_c::compile_source("t.c", SRC).unwrap_or_else(|e| panic!("{e}"))
}

fn main_of(p: &Program) -> FuncId {
    p.func_by_name("main").expect("main")
}

/// Every statement of `main` in the walker's order, by id (`-` for a declaration).
fn stmt_order(p: &Program) -> Vec<String> {
    let mut out = Vec::new();
    for_each_stmt(&p.func(main_of(p)).body, &mut |s: &Stmt| {
        out.push(s.id().map_or("-".to_string(), |id| id.to_string()))
    });
    out
}

#[test]
fn statements_in_pre_order_with_loop_steps_after_bodies() {
    let p = program();
    // s1 init, s2 for-init, s3 loop cond, s5 body (and its insertions s17,
    // s18), s4 step; the do-while (named by its condition s7) before its
    // body s6 (s19, s20); s8 switch and its cases, then the nested ifs
    // (insertions s21, s22), printf (s23 after it), an insertion s24 before
    // the return.
    assert_eq!(
        stmt_order(&p).join(" "),
        "- s1 s2 s3 s5 s17 s18 s4 s7 s6 s19 s20 s8 s9 s10 s11 s12 s13 s14 s21 s22 s15 s23 s24 s16"
    );
    // Every statement with an id of `main` is reached exactly once.
    let mut ids: Vec<StmtId> = Vec::new();
    for_each_stmt(&p.func(main_of(&p)).body, &mut |s: &Stmt| {
        ids.extend(s.id())
    });
    let mut expected: Vec<StmtId> = (0..p.stmts.len() as u32)
        .map(StmtId)
        .filter(|s| p.stmt(*s).func == main_of(&p))
        .collect();
    ids.sort();
    expected.sort();
    assert_eq!(ids, expected);
}

/// Records the kinds of the nodes visited, in order.
struct Recorder<'p> {
    prog: &'p Program,
    func: FuncId,
    seen: Vec<String>,
}

impl<'a> Visitor<'a> for Recorder<'_> {
    fn visit_expr(&mut self, e: &'a Expr) {
        self.seen
            .push(format!("e:{}", pretty::expr(self.prog, self.func, e)));
        walk_expr(self, e);
    }
    fn visit_place(&mut self, p: &'a Place) {
        self.seen.push(match &p.kind {
            PlaceKind::Var(_) => "p:var".to_string(),
            PlaceKind::Deref(_) => "p:deref".to_string(),
            PlaceKind::Index(..) => "p:index".to_string(),
            PlaceKind::Field(..) => "p:field".to_string(),
        });
        faultline_ir::visit::walk_place(self, p);
    }
}

#[test]
fn expressions_and_places_in_evaluation_order() {
    let p = program();
    let main = main_of(&p);
    // s5: a[(long)i] = i * 2
    let Stmt::While { body, .. } = p
        .func(main)
        .body
        .iter()
        .find(|s| matches!(s, Stmt::While { .. }))
        .expect("the for loop")
    else {
        unreachable!()
    };
    let mut r = Recorder {
        prog: &p,
        func: main,
        seen: Vec::new(),
    };
    stmt_exprs(&body[0], |e| r.visit_expr(e));
    assert_eq!(
        r.seen,
        [
            "e:a[(long)i] = i * 2",
            "p:index",
            "p:var",
            "e:(long)i",
            "e:i",
            "p:var",
            "e:i * 2",
            "e:i",
            "p:var",
            "e:2",
        ]
    );
}

#[test]
fn statement_expressions_exclude_nested_statements() {
    let p = program();
    let main = main_of(&p);
    let mut conds = Vec::new();
    for s in &p.func(main).body {
        stmt_exprs(s, |e| conds.push(pretty::expr(&p, main, e)));
    }
    // Top-level statements only: init, for-init, the loop, do-while, switch,
    // if conditions, return (declarations have none).
    assert_eq!(
        conds,
        ["0", "i = 0", "i < 3", "g < 5", "g", "g", "0"],
        "{conds:?}"
    );
}

#[test]
fn any_expr_prunes_where_told() {
    let p = program();
    let main = main_of(&p);
    let mut with_calls = 0;
    let mut loads_outside_calls = 0;
    for_each_stmt(&p.func(main).body, &mut |s: &Stmt| {
        stmt_exprs(s, |e| {
            if any_expr(e, |e| {
                matches!(e.kind, ExprKind::Call { .. }).then_some(true)
            }) {
                with_calls += 1;
            }
            if any_expr(e, |e| match e.kind {
                ExprKind::Call { .. } | ExprKind::Builtin { .. } => Some(false),
                ExprKind::Load(_) => Some(true),
                _ => None,
            }) {
                loads_outside_calls += 1;
            }
        })
    });
    assert_eq!(with_calls, 1, "g = f(g)");
    // Loads: i < 3, a[i] = i * 2, i++ (no: `old`), g += a[1], g < 5, switch g,
    // if (g), if (a[g - 6]); not g = f(g) (inside the call) nor printf.
    assert_eq!(loads_outside_calls, 7);
}

#[test]
fn mutable_visitor_rewrites_every_constant() {
    struct Bump;
    impl VisitorMut for Bump {
        fn visit_expr_mut(&mut self, e: &mut Expr) {
            if let ExprKind::Int(v) = &mut e.kind {
                *v += 100;
            }
            walk_expr_mut(self, e);
        }
    }
    let mut p = program();
    let main = main_of(&p);
    let mut body = std::mem::take(&mut p.functions[main.index()].body);
    for_each_stmt_mut(&mut body, &mut |s| {
        stmt_exprs_mut(s, |e| Bump.visit_expr_mut(e))
    });
    p.functions[main.index()].body = body;
    let text = pretty::function(&p, main);
    assert!(text.contains("s3: while (i < 103)"), "{text}");
    assert!(text.contains("s4: i =post old + 101;"), "{text}");
    assert!(text.contains("s16: return 100;"), "{text}");
    // Switch case labels are not expressions.
    assert!(text.contains("case 6:"), "{text}");
}
