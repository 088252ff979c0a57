//! Statements that may be missing (`lower/insert.rs`): where the front end
//! puts declarations without an initializer and insertions, with their ids,
//! locations and texts.

use faultline_ir::{pretty, Insertion, Stmt, StmtKind};

const SRC: &str = r#"#include <stdio.h>
int total;
int main(void)
{
    int n, i, count = 0;
    double avg;
    char name[8];
    scanf("%d", &n);
    for (i = 0; i < n; i++) {
        if (i % 2 == 0) {
            count += i;
        } else {
            continue;
        }
        printf("%d ", i);
    }
    avg = count / 2.0;
    printf("%f\n", avg);
    return 0;
}
"#;

#[test]
fn insertions_follow_outputs_and_end_blocks_and_updates_end_blocks_in_loops() {
    let p = faultline_c::compile_source("ins.c", SRC).unwrap_or_else(|e| panic!("{e}"));
    let listed: Vec<String> = p
        .stmts
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s.kind, StmtKind::Insert | StmtKind::Declare))
        .map(|(i, s)| format!("s{i} {:?} line {}: {}", s.kind, s.loc.line, s.text))
        .collect();
    assert_eq!(
        listed,
        vec![
            // After every statement of the source (s0..s11), in source order.
            "s12 Declare line 5: n",
            "s13 Declare line 5: i",
            "s14 Declare line 6: double avg;",
            // `if` branch: what it ends with; updates of what is in scope.
            "s15 Insert line 11: missing output after `count += i;`",
            "s16 Insert line 11: missing update of `n` at the end of the `if` branch at line 10",
            "s17 Insert line 11: missing update of `i` at the end of the `if` branch at line 10",
            "s18 Insert line 11: missing update of `count` at the end of the `if` branch at line 10",
            "s19 Insert line 11: missing update of `avg` at the end of the `if` branch at line 10",
            // (The `else` branch holds only a `continue`: nothing.)
            "s20 Insert line 15: missing output after `printf(\"%d \", i);`",
            "s21 Insert line 15: missing update of `n` at the end of the loop body at line 9",
            "s22 Insert line 15: missing update of `i` at the end of the loop body at line 9",
            "s23 Insert line 15: missing update of `count` at the end of the loop body at line 9",
            "s24 Insert line 15: missing update of `avg` at the end of the loop body at line 9",
            "s25 Insert line 9: missing output after the loop at line 9",
            // Before the `return`.
            "s26 Insert line 18: missing output after `printf(\"%f\\n\", avg);`",
        ]
    );
    let main = pretty::function(&p, p.main);
    assert!(
        main.contains(
            "    s8: $printf(\"%d \", i);\n    s20: insert output;\n    s21: insert assign n;\n"
        ),
        "{main}"
    );
    assert!(
        main.contains("  s12: declare n;\n  s13: declare i;\n"),
        "{main}"
    );
    assert!(
        main.contains("  s10: $printf(\"%f\\n\", avg);\n  s26: insert output;\n  s11: return 0;"),
        "{main}"
    );
}

/// Functions that do not print get no output insertions; a `switch` body
/// gets none of its own (its cases are positions in it); a declaration of
/// an array or a pointer has no id.
#[test]
fn functions_that_print_nothing_and_switch_bodies_get_no_output_insertions() {
    let src = r#"
int f(int k)
{
    int r, a[3], *p;
    r = 0;
    while (k > 0) {
        switch (k % 3) {
        case 0: r += 2; break;
        default: r++;
        }
        k--;
    }
    p = a;
    *p = r;
    return a[0];
}
int main(void) { return f(4); }
"#;
    let p = faultline_c::compile_source("f.c", src).unwrap_or_else(|e| panic!("{e}"));
    let f = p.func_by_name("f").expect("f");
    let mut inserts = Vec::new();
    faultline_ir::visit::for_each_stmt(&p.func(f).body, &mut |s| {
        if let Stmt::Insert { what, .. } = s {
            inserts.push(*what);
        }
        if let Stmt::Declare { id, local } = s {
            let name = &p.func(f).locals[local.index()].name;
            assert_eq!(id.is_some(), name == "r", "{name}");
        }
    });
    let r = faultline_ir::Var::Local(
        p.func(f)
            .locals
            .iter()
            .position(|l| l.name == "r")
            .map(|i| faultline_ir::LocalId(i as u32))
            .expect("r"),
    );
    let k = faultline_ir::Var::Local(faultline_ir::LocalId(0));
    // The loop body's end: updates of `k` and `r` (declared before it,
    // read), no output.
    assert_eq!(inserts, vec![Insertion::Assign(k), Insertion::Assign(r)]);
}
