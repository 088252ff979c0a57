//! The exact IR shapes the interpreter and encoders rely on.

use faultline_ir::*;

/// `main`'s body as written: without the insertions (`insertions.rs`).
fn body(src: &str) -> (Program, Vec<Stmt>) {
    let p = faultline_c::compile_source("shape.c", src).unwrap_or_else(|e| panic!("{e}"));
    let mut b = p.func(p.main).body.clone();
    b.retain(|s| !matches!(s, Stmt::Insert { .. }));
    (p, b)
}

fn expr_of(s: &Stmt) -> &Expr {
    match s {
        Stmt::Expr { expr, .. } => expr,
        other => panic!("not an expression statement: {other:?}"),
    }
}

#[test]
fn compound_assignment_is_assign_of_old() {
    let (_, b) = body("int main(void) { char c = 1; c += 2; return 0; }");
    let e = expr_of(&b[1]);
    let ExprKind::Assign { place, value, post } = &e.kind else {
        panic!("{e:?}")
    };
    assert!(!post);
    assert_eq!(place.ty, CHAR);
    assert_eq!(value.ty, CHAR);
    let ExprKind::Cast(inner) = &value.kind else {
        panic!("{value:?}")
    };
    let ExprKind::Binary(BinOp::Add, l, r) = &inner.kind else {
        panic!("{inner:?}")
    };
    assert_eq!(inner.ty, INT);
    assert!(
        matches!(&l.kind, ExprKind::Cast(o) if matches!(o.kind, ExprKind::Old) && o.ty == CHAR)
    );
    assert_eq!(l.ty, INT);
    assert!(matches!(r.kind, ExprKind::Int(2)));
}

#[test]
fn shifts_promote_each_operand_separately() {
    let (_, b) =
        body("int main(void) { unsigned char a = 1; long n = 3; int r; r = a << n; return r; }");
    let e = expr_of(&b[3]);
    let ExprKind::Assign { value, .. } = &e.kind else {
        panic!()
    };
    let ExprKind::Binary(BinOp::Shl, l, r) = &value.kind else {
        panic!("{value:?}")
    };
    assert_eq!(value.ty, INT);
    assert_eq!(l.ty, INT);
    assert_eq!(r.ty, LONG);
}

#[test]
fn pointer_arithmetic_and_decay() {
    let (_, b) = body(
        "int main(void) { int a[4]; int *p = a; int *q; long d; q = p - 2; d = q - p; q = 1 + p; return p[1] + 2[a]; }",
    );
    // int *p = a;  ->  AddrOf(Index(a, 0L))
    let Stmt::Init { init, .. } = &b[1] else {
        panic!()
    };
    let v = &init.items[0].value;
    let ExprKind::AddrOf(pl) = &v.kind else {
        panic!("{v:?}")
    };
    let PlaceKind::Index(arr, i) = &pl.kind else {
        panic!()
    };
    assert!(matches!(arr.kind, PlaceKind::Var(_)));
    assert_eq!((&i.kind, &i.ty), (&ExprKind::Int(0), &LONG));
    // q = p - 2  ->  PtrAdd(p, Neg((long)2))
    let ExprKind::Assign { value, .. } = &expr_of(&b[4]).kind else {
        panic!()
    };
    let ExprKind::PtrAdd(_, off) = &value.kind else {
        panic!("{value:?}")
    };
    assert!(matches!(&off.kind, ExprKind::Unary(UnOp::Neg, x) if x.ty == LONG));
    // d = q - p  ->  PtrDiff
    let ExprKind::Assign { value, .. } = &expr_of(&b[5]).kind else {
        panic!()
    };
    assert!(matches!(value.kind, ExprKind::PtrDiff(..)) && value.ty == LONG);
    // q = 1 + p  ->  PtrAdd(p, (long)1)
    let ExprKind::Assign { value, .. } = &expr_of(&b[6]).kind else {
        panic!()
    };
    assert!(matches!(&value.kind, ExprKind::PtrAdd(p, _) if p.ty.is_pointer()));
    // p[1] -> Deref(PtrAdd), 2[a] -> Index(a, (long)2)
    let Stmt::Return { value: Some(r), .. } = &b[7] else {
        panic!()
    };
    let ExprKind::Binary(BinOp::Add, l, rr) = &r.kind else {
        panic!("{r:?}")
    };
    assert!(
        matches!(&l.kind, ExprKind::Load(p) if matches!(&p.kind, PlaceKind::Deref(x) if matches!(x.kind, ExprKind::PtrAdd(..))))
    );
    assert!(
        matches!(&rr.kind, ExprKind::Load(p) if matches!(&p.kind, PlaceKind::Index(_, i) if i.ty == LONG))
    );
}

#[test]
fn null_constants_take_the_pointer_type() {
    let (_, b) =
        body("#include <stddef.h>\nint main(void) { int *p = NULL; return p == 0 || p != NULL; }");
    let ptr = Type::ptr_to(INT);
    let Stmt::Init { init, .. } = &b[0] else {
        panic!()
    };
    let v = &init.items[0].value;
    assert!(
        matches!(&v.kind, ExprKind::Cast(z) if matches!(z.kind, ExprKind::Int(0)) && z.ty == INT)
            && v.ty == ptr
    );
    let Stmt::Return { value: Some(r), .. } = &b[1] else {
        panic!()
    };
    let ExprKind::Or(a, c) = &r.kind else {
        panic!("{r:?}")
    };
    for cmp in [a, c] {
        let ExprKind::Cmp(_, x, y) = &cmp.kind else {
            panic!("{cmp:?}")
        };
        assert_eq!((&x.ty, &y.ty), (&ptr, &ptr));
        assert!(matches!(&y.kind, ExprKind::Cast(z) if matches!(z.kind, ExprKind::Int(0))));
    }
}

#[test]
fn increments_and_calls() {
    let (p, b) = body(
        "int f(double x) { return (int)x; }\nint main(void) { int i = 0; int *q = &i; i++; --q; return f(i) + abs(-1); }",
    );
    let ExprKind::Assign { post, value, .. } = &expr_of(&b[2]).kind else {
        panic!()
    };
    assert!(*post);
    assert!(
        matches!(&value.kind, ExprKind::Binary(BinOp::Add, o, one) if matches!(o.kind, ExprKind::Old) && matches!(one.kind, ExprKind::Int(1)))
    );
    let ExprKind::Assign { post, value, .. } = &expr_of(&b[3]).kind else {
        panic!()
    };
    assert!(!*post);
    assert!(
        matches!(&value.kind, ExprKind::PtrAdd(_, d) if d.kind == ExprKind::Int(-1) && d.ty == LONG)
    );
    let Stmt::Return { id, value: Some(r) } = &b[4] else {
        panic!()
    };
    let ExprKind::Binary(_, call, builtin) = &r.kind else {
        panic!()
    };
    let ExprKind::Call { func, args, site } = &call.kind else {
        panic!("{call:?}")
    };
    assert_eq!(p.func(*func).name, "f");
    assert_eq!(args[0].ty, DOUBLE);
    assert_eq!(p.call_sites[site.index()].stmt, *id);
    assert_eq!(p.call_sites[site.index()].func, *func);
    assert!(matches!(
        &builtin.kind,
        ExprKind::Builtin {
            func: Builtin::Abs,
            ..
        }
    ));
    assert_eq!(p.stmt(*id).kind, StmtKind::Return);
}

#[test]
fn switch_cases_and_targets() {
    let (_, b) = body(
        "int main(void) { char c = 'a'; switch (c) { case 'a': c = 1; case 'b': { c = 2; break; } default: c = 3; } return c; }",
    );
    let Stmt::Switch {
        cond,
        body,
        cases,
        default,
    } = &b[1]
    else {
        panic!("{:?}", b[1])
    };
    assert_eq!(cond.expr.ty, INT);
    assert_eq!(
        cases
            .iter()
            .map(|c| (c.value, c.target))
            .collect::<Vec<_>>(),
        [(97, 0), (98, 1)]
    );
    assert_eq!(*default, Some(3));
    assert_eq!(body.len(), 4);
}

#[test]
fn static_locals_are_globals_and_uninitialized_locals_are_declared() {
    let (p, b) = body("int main(void) { static int calls = 1; int x; x = calls++; return x; }");
    assert_eq!(p.globals[0].name, "main.calls");
    assert_eq!(p.globals[0].init.items.len(), 1);
    assert!(matches!(b[0], Stmt::Declare { .. }));
    assert_eq!(b.len(), 3);
}
