//! Statements that may be missing (`lower/insert.rs`): where the front end
//! puts declarations without an initializer and insertions, with their ids,
//! locations and texts.

use faultline_ir::{pretty, Insertion, Stmt, StmtKind};

const SRC: &str = r#"#include <stdio.h>
int total;
int main(void)
{
    int n, i, count = 0, best;
    double avg;
    char name[8];
    scanf("%d", &n);
    for (i = 0; i < n; i++) {
        if (i % 2 == 0) {
            count += i;
        } else if (i > best) {
            best = i;
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
            // After every statement of the source (s0..s13), in source order:
            // `best`, which the loop may read before assigning it.
            "s14 Declare line 5: best",
            // The first `if` branch: what it ends with; updates of what is in
            // scope and not assigned there (`count` is).
            "s15 Insert line 11: missing output after `count += i;`",
            "s16 Insert line 11: missing update of `n` at the end of the `if` branch at line 10",
            "s17 Insert line 11: missing update of `i` at the end of the `if` branch at line 10",
            "s18 Insert line 11: missing update of `best` at the end of the `if` branch at line 10",
            "s19 Insert line 11: missing update of `avg` at the end of the `if` branch at line 10",
            "s20 Insert line 13: missing output after `best = i;`",
            "s21 Insert line 13: missing update of `n` at the end of the `if` branch at line 12",
            "s22 Insert line 13: missing update of `i` at the end of the `if` branch at line 12",
            "s23 Insert line 13: missing update of `count` at the end of the `if` branch at line 12",
            "s24 Insert line 13: missing update of `avg` at the end of the `if` branch at line 12",
            // The `else` branch (holding the inner `if`).
            "s25 Insert line 12: missing output after the `if` at line 12",
            "s26 Insert line 12: missing update of `n` at the end of the `else` branch at line 10",
            "s27 Insert line 12: missing update of `i` at the end of the `else` branch at line 10",
            "s28 Insert line 12: missing update of `count` at the end of the `else` branch at line 10",
            "s29 Insert line 12: missing update of `best` at the end of the `else` branch at line 10",
            "s30 Insert line 12: missing update of `avg` at the end of the `else` branch at line 10",
            // The loop body: not `i`, which the loop's step assigns.
            "s31 Insert line 17: missing output after `printf(\"%d \", i);`",
            "s32 Insert line 17: missing update of `n` at the end of the loop body at line 9",
            "s33 Insert line 17: missing update of `count` at the end of the loop body at line 9",
            "s34 Insert line 17: missing update of `best` at the end of the loop body at line 9",
            "s35 Insert line 17: missing update of `avg` at the end of the loop body at line 9",
            "s36 Insert line 9: missing output after the loop at line 9",
            // Before the `return`.
            "s37 Insert line 20: missing output after `printf(\"%f\\n\", avg);`",
        ]
    );
    let main = pretty::function(&p, p.main);
    assert!(
        main.contains(
            "    s10: $printf(\"%d \", i);\n    s31: insert output;\n    s32: insert assign n;\n"
        ),
        "{main}"
    );
    assert!(
        main.contains(
            "  declare i;\n  s0: init count = 0;\n  s14: declare best;\n  declare avg;\n"
        ),
        "{main}"
    );
    assert!(
        main.contains("  s12: $printf(\"%f\\n\", avg);\n  s37: insert output;\n  s13: return 0;"),
        "{main}"
    );
}

/// Functions that do not print get no output insertions; a `switch` body
/// gets none of its own (its cases are positions in it); a declaration of
/// an array or a pointer has no id, nor one of a variable assigned before
/// any read.
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
            // `r` is assigned before any read; `a` and `p` are no scalars.
            assert_eq!(*id, None, "{name}");
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
    // The loop body's end: an update of `r` (declared before it, read,
    // assigned only inside the `switch`); not of `k`, which the body
    // assigns; no output.
    assert_eq!(inserts, vec![Insertion::Assign(r)]);
}
