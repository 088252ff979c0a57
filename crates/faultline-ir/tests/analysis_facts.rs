//! The static facts of faultline_ir::analysis on small programs: for every
//! statement, exactly which variables it defines and uses, which functions it
//! calls, and which condition outcomes it is control-dependent on
//! (`StmtInfo::control`, Ferrante–Ottenstein–Warren on the statement-level
//! CFG). The expected dependences were worked out by hand from the CFGs
//! sketched in the comments.

use faultline_ir::{Branch, Program, StmtId, VarRef};

/// One line per statement, in source order:
/// `LINE: TEXT | def[..] use[..] call[..] ctrl[..]` (empty parts left out).
/// Variables are named (`*` is memory through a pointer); a control
/// dependence is the condition's text and outcome (`T`, `F`, `case#k`,
/// `default`). A line `fn NAME` starts each function.
fn facts(src: &str) -> String {
    let prog = faultline_c::compile_source("t.c", src).unwrap_or_else(|e| panic!("{e}"));
    let mut cond_texts: Vec<&str> = prog
        .stmts
        .iter()
        .filter(|s| s.kind.is_condition())
        .map(|s| s.text.as_str())
        .collect();
    cond_texts.sort();
    let n = cond_texts.len();
    cond_texts.dedup();
    assert_eq!(n, cond_texts.len(), "condition texts are unique");
    let mut out = String::new();
    let mut func = None;
    // The statements of the source (not those that may be missing).
    for (i, s) in prog.stmts.iter().enumerate() {
        if !s.kind.is_written() {
            continue;
        }
        if func != Some(s.func) {
            func = Some(s.func);
            out.push_str(&format!("fn {}\n", prog.func(s.func).name));
        }
        out.push_str(&format!("{}: {}", s.loc.line, s.text));
        let mut parts = Vec::new();
        let names = |vs: &[VarRef]| {
            let mut v: Vec<&str> = vs.iter().map(|v| var_name(&prog, v)).collect();
            v.sort();
            v.join(" ")
        };
        if !s.defs.is_empty() {
            parts.push(format!("def[{}]", names(&s.defs)));
        }
        if !s.uses.is_empty() {
            parts.push(format!("use[{}]", names(&s.uses)));
        }
        if !s.calls.is_empty() {
            let mut c: Vec<&str> = s
                .calls
                .iter()
                .map(|f| prog.func(*f).name.as_str())
                .collect();
            c.sort();
            parts.push(format!("call[{}]", c.join(" ")));
        }
        if !s.control.is_empty() {
            let c: Vec<String> = s
                .control
                .iter()
                .map(|(c, b)| format!("{}:{}", cond(&prog, *c), branch(*b)))
                .collect();
            parts.push(format!("ctrl[{}]", c.join(", ")));
        }
        if !parts.is_empty() {
            out.push_str(" | ");
            out.push_str(&parts.join(" "));
        }
        out.push('\n');
        assert_eq!(StmtId(i as u32).index(), i);
    }
    out
}

fn var_name<'p>(prog: &'p Program, v: &VarRef) -> &'p str {
    match v {
        VarRef::Global(g) => &prog.globals[g.index()].name,
        VarRef::Local(f, l) => &prog.func(*f).locals[l.index()].name,
        VarRef::Indirect => "*",
    }
}

fn cond(prog: &Program, s: StmtId) -> &str {
    let info = prog.stmt(s);
    assert!(info.kind.is_condition(), "{} is a condition", info.text);
    &info.text
}

fn branch(b: Branch) -> String {
    match b {
        Branch::True => "T".into(),
        Branch::False => "F".into(),
        Branch::Case(k) => format!("case#{k}"),
        Branch::Default => "default".into(),
    }
}

fn assert_facts(src: &str, expected: &str) {
    let got = facts(src);
    assert_eq!(
        got, expected,
        "\n--- got ---\n{got}--- expected ---\n{expected}"
    );
}

#[test]
fn if_else_chain() {
    // a > b ─T─▶ r = a - b ─────────────┐
    //   └F─▶ a == b ─T─▶ r = 0 ─────────┤
    //          └F─▶ r = b - a; g = g + 1 ┴▶ return r
    assert_facts(
        "\
int g;
int f(int a, int b)
{
    int r = 0;
    if (a > b)
        r = a - b;
    else if (a == b)
        r = 0;
    else {
        r = b - a;
        g = g + 1;
    }
    return r;
}
int main(void) { return f(1, 2); }
",
        "\
fn f
4: int r = 0; | def[r]
5: a > b | use[a b]
6: r = a - b; | def[r] use[a b] ctrl[a > b:T]
7: a == b | use[a b] ctrl[a > b:F]
8: r = 0; | def[r] ctrl[a == b:T]
10: r = b - a; | def[r] use[a b] ctrl[a == b:F]
11: g = g + 1; | def[g] use[g] ctrl[a == b:F]
13: return r; | use[r]
fn main
15: return f(1, 2); | call[f]
",
    );
}

#[test]
fn early_returns() {
    // Statements after an early return depend only on the nearest condition
    // that guards them, not on the earlier ones (control dependence is not
    // transitive).
    assert_facts(
        "\
int sign(int x)
{
    if (x < 0)
        return -1;
    if (x == 0)
        return 0;
    x = 1;
    return x;
}
int main(void) { return sign(-4) + 1; }
",
        "\
fn sign
3: x < 0 | use[x]
4: return -1; | ctrl[x < 0:T]
5: x == 0 | use[x] ctrl[x < 0:F]
6: return 0; | ctrl[x == 0:T]
7: x = 1; | def[x] ctrl[x == 0:F]
8: return x; | use[x] ctrl[x == 0:F]
fn main
10: return sign(-4) + 1; | call[sign]
",
    );
}

#[test]
fn nested_loops_with_break_and_continue() {
    // i = 0 → [i < n] ─T─▶ [i == 3] ─T─▶ continue ──────────────▶ i++ → [i < n]
    //            │             └F─▶ j = 0 → [j < m] ─F─────────▶ i++
    //            F                             └T─▶ [j > i] ─T─▶ break → i++
    //            ▼                                     └F─▶ s += i * j → j++ → [j < m]
    //         return s
    // [j < m] is re-evaluated after j++, which runs when [j > i] is false:
    // it depends on both [i == 3]:F (first evaluation) and [j > i]:F.
    assert_facts(
        "\
int sum(int n, int m)
{
    int i, j, s = 0;
    for (i = 0; i < n; i++) {
        if (i == 3)
            continue;
        for (j = 0; j < m; j++) {
            if (j > i)
                break;
            s += i * j;
        }
    }
    return s;
}
int main(void) { return sum(5, 4); }
",
        "\
fn sum
3: s = 0 | def[s]
4: i = 0 | def[i]
4: i < n | use[i n] ctrl[i < n:T]
4: i++ | def[i] use[i] ctrl[i < n:T]
5: i == 3 | use[i] ctrl[i < n:T]
6: continue; | ctrl[i == 3:T]
7: j = 0 | def[j] ctrl[i == 3:F]
7: j < m | use[j m] ctrl[i == 3:F, j > i:F]
7: j++ | def[j] use[j] ctrl[j > i:F]
8: j > i | use[i j] ctrl[j < m:T]
9: break; | ctrl[j > i:T]
10: s += i * j; | def[s] use[i j s] ctrl[j > i:F]
13: return s; | use[s]
fn main
15: return sum(5, 4); | call[sum]
",
    );
}

#[test]
fn while_loop_and_infinite_loop() {
    // A `for (;;)` head is not a condition: the body depends on the `if`
    // that leaves the loop. Its `break` is the only way out of the loop, so
    // it post-dominates `k > 100` and depends on nothing (every terminating
    // run executes it). A loop that never exits gets an edge to the
    // function's exit (the usual convention), so its body depends on nothing.
    assert_facts(
        "\
int count(int n)
{
    int k = 0;
    while (n > 1) {
        n = n / 2;
        k++;
    }
    for (;;) {
        if (k > 100)
            break;
        k = k * 2;
    }
    return k;
}
void spin(void)
{
    int t = 0;
    for (;;)
        t = 1 - t;
}
int main(void) { return count(40); }
",
        "\
fn count
3: int k = 0; | def[k]
4: n > 1 | use[n] ctrl[n > 1:T]
5: n = n / 2; | def[n] use[n] ctrl[n > 1:T]
6: k++; | def[k] use[k] ctrl[n > 1:T]
9: k > 100 | use[k] ctrl[k > 100:F]
10: break;
11: k = k * 2; | def[k] use[k] ctrl[k > 100:F]
13: return k; | use[k]
fn spin
17: int t = 0; | def[t]
19: t = 1 - t; | def[t] use[t]
fn main
21: return count(40); | call[count]
",
    );
}

#[test]
fn switch_with_fall_through() {
    // case 1 falls into case 2: `k = k + 1` and its `break` run for both.
    // In `weekend`, the default edge (no case matches) goes straight to the
    // return, which post-dominates the switch: nothing depends on it.
    assert_facts(
        "\
int classify(int c)
{
    int k = 0;
    switch (c) {
    case 1:
        k = 10;
    case 2:
        k = k + 1;
        break;
    case 3:
        k = 30;
        break;
    default:
        k = -1;
    }
    return k;
}
int weekend(int d)
{
    int w = 0;
    switch (d % 7) {
    case 6:
    case 0:
        w = 1;
        break;
    }
    return w;
}
int main(void) { return classify(1) + weekend(6); }
",
        "\
fn classify
3: int k = 0; | def[k]
4: c | use[c]
6: k = 10; | def[k] ctrl[c:case#0]
8: k = k + 1; | def[k] use[k] ctrl[c:case#0, c:case#1]
9: break; | ctrl[c:case#0, c:case#1]
11: k = 30; | def[k] ctrl[c:case#2]
12: break; | ctrl[c:case#2]
14: k = -1; | def[k] ctrl[c:default]
16: return k; | use[k]
fn weekend
20: int w = 0; | def[w]
21: d % 7 | use[d]
24: w = 1; | def[w] ctrl[d % 7:case#0, d % 7:case#1]
25: break; | ctrl[d % 7:case#0, d % 7:case#1]
27: return w; | use[w]
fn main
29: return classify(1) + weekend(6); | call[classify weekend]
",
    );
}

#[test]
fn do_while_with_early_return() {
    // i = 0 → [a[i] == x] ─T─▶ return i
    //              └F─▶ i++ → [i < n] ─T─▶ [a[i] == x]
    //                             └F─▶ return -1
    // The body's first statement runs once unconditionally, then again on
    // [i < n]:T: it depends on [i < n]:T only.
    assert_facts(
        "\
int find(int a[], int n, int x)
{
    int i = 0;
    do {
        if (a[i] == x)
            return i;
        i++;
    } while (i < n);
    return -1;
}
int main(void)
{
    int v[3] = {4, 5, 6};
    return find(v, 3, 5);
}
",
        "\
fn find
3: int i = 0; | def[i]
5: a[i] == x | use[* a i x] ctrl[i < n:T]
6: return i; | use[i] ctrl[a[i] == x:T]
7: i++; | def[i] use[i] ctrl[a[i] == x:F]
8: i < n | use[i n] ctrl[a[i] == x:F]
9: return -1; | ctrl[i < n:F]
fn main
13: int v[3] = {4, 5, 6}; | def[v]
14: return find(v, 3, 5); | call[find]
",
    );
}

#[test]
fn globals_pointers_calls_and_library_functions() {
    // Library functions given `&x` or an array: their writes are defs of
    // it, their reads of a string are uses of it; string literals are not
    // variables. Writes and reads through a pointer are `*`. Calls of
    // library functions are not `calls` (only functions of the program).
    assert_facts(
        "\
#include <stdio.h>
#include <string.h>
int total;
char buf[16];
int twice(int v)
{
    return 2 * v;
}
void add(int v)
{
    total += twice(v);
}
int main(void)
{
    int n;
    int *p = &n;
    char word[8];
    if (scanf(\"%d %7s\", &n, word) != 2)
        return 1;
    *p = *p + 1;
    strcpy(buf, \"ab\");
    strcat(buf, word);
    add(n);
    printf(\"%d %s %lu\\n\", total, buf, strlen(word));
    return 0;
}
",
        "\
fn twice
7: return 2 * v; | use[v]
fn add
11: total += twice(v); | def[total] use[total v] call[twice]
fn main
16: int *p = &n; | def[p]
18: scanf(\"%d %7s\", &n, word) != 2 | def[n word]
19: return 1; | ctrl[scanf(\"%d %7s\", &n, word) != 2:T]
20: *p = *p + 1; | def[*] use[* p] ctrl[scanf(\"%d %7s\", &n, word) != 2:F]
21: strcpy(buf, \"ab\"); | def[buf] ctrl[scanf(\"%d %7s\", &n, word) != 2:F]
22: strcat(buf, word); | def[buf] use[buf word] ctrl[scanf(\"%d %7s\", &n, word) != 2:F]
23: add(n); | use[n] call[add] ctrl[scanf(\"%d %7s\", &n, word) != 2:F]
24: printf(\"%d %s %lu\\n\", total, buf, strlen(word)); | use[buf total word] ctrl[scanf(\"%d %7s\", &n, word) != 2:F]
25: return 0; | ctrl[scanf(\"%d %7s\", &n, word) != 2:F]
",
    );
}

#[test]
fn goto_edges() {
    // i = 0 ─▶ again: i++ ─▶ i < n ─T─▶ goto again ─┐ (back to i++)
    //                          └F─▶ i > 5 ─T─▶ goto out ─▶ out: return i
    //                                 └F─▶ i = 1 ───────────────┘
    // `i++` runs again only when `i < n` is true; as after a loop, `i > 5`
    // post-dominates `i < n` (every way out goes through it); `return`
    // always runs.
    assert_facts(
        "\
int f(int n)
{
    int i = 0;
again:
    i++;
    if (i < n)
        goto again;
    if (i > 5)
        goto out;
    i = 1;
out:
    return i;
}
int main(void) { return f(3); }
",
        "\
fn f
3: int i = 0; | def[i]
5: i++; | def[i] use[i] ctrl[i < n:T]
6: i < n | use[i n] ctrl[i < n:T]
7: goto again; | ctrl[i < n:T]
8: i > 5 | use[i]
9: goto out; | ctrl[i > 5:T]
10: i = 1; | def[i] ctrl[i > 5:F]
12: return i; | use[i]
fn main
14: return f(3); | call[f]
",
    );
}
