//! Which call sites have relaxable arguments (`CallSiteInfo::relax_args`,
//! `faultline_ir::calls`): calls of functions with an effect or returning
//! no arithmetic value, with two arithmetic arguments or more, one of them
//! not a constant, outside conditions. And which are prints-only
//! (`CallSiteInfo::prints_only`): a whole statement, calling a function
//! whose only effect is printing to stdout, with arguments that have no
//! effect and are not relaxable.

use faultline_c::compile_source;
use faultline_ir::CallSiteInfo;

/// Each call site's callee and statement text, with what `property` says of it.
fn sites_with(src: &str, property: fn(&CallSiteInfo) -> bool) -> Vec<(String, String, bool)> {
    let prog = compile_source("t.c", src).expect("compiles");
    prog.call_sites
        .iter()
        .map(|c| {
            (
                prog.func(c.func).name.clone(),
                prog.stmt(c.stmt).text.clone(),
                property(c),
            )
        })
        .collect()
}

/// Each call site's callee and statement text, with whether its arguments are relaxable.
fn sites(src: &str) -> Vec<(String, String, bool)> {
    sites_with(src, |c| c.relax_args)
}

fn site(f: &str, text: &str, relax: bool) -> (String, String, bool) {
    (f.to_string(), text.to_string(), relax)
}

#[test]
fn arguments_are_relaxable_where_the_call_does_more_than_return_a_value() {
    let src = r#"
#include <stdio.h>
int total = 0;
void show(int a, int b) { printf("%d %d\n", a, b); }
void add(int a) { total += a; }
int noisy2(int x, int y) { show(x, y); return x; }
int square(int x) { return x * x; }
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int noisy(int x) { show(x, x); return x; }
int *pick(int *p, int i) { return p + i; }
void fill(int *p, int v) { *p = v; }
int main(void) {
    int n, y, a[3];
    scanf("%d", &n);
    show(n, 1);
    show(2, 3);
    add(n);
    y = square(n);
    y = fact(n);
    y = noisy(n - 1);
    y = noisy2(y, n);
    if (noisy(n))
        y = 0;
    fill(pick(a, n), y);
    printf("%d %d\n", y, total);
    return 0;
}
"#;
    assert_eq!(
        sites(src),
        vec![
            site("show", "show(x, y);", true),
            site("fact", "return n <= 1 ? 1 : n * fact(n - 1);", false),
            site("show", "show(x, x);", true),
            site("show", "show(n, 1);", true),
            site("show", "show(2, 3);", false),
            site("add", "add(n);", false),
            site("square", "y = square(n);", false),
            site("fact", "y = fact(n);", false),
            site("noisy", "y = noisy(n - 1);", false),
            site("noisy2", "y = noisy2(y, n);", true),
            site("noisy", "noisy(n)", false),
            site("pick", "fill(pick(a, n), y);", false),
            site("fill", "fill(pick(a, n), y);", false),
        ]
    );
}

/// Each call site's callee and statement text, with whether it is prints-only.
fn printing(src: &str) -> Vec<(String, String, bool)> {
    sites_with(src, |c| c.prints_only)
}

#[test]
fn calls_that_only_print_are_whole_statements_of_functions_that_only_print() {
    let src = r#"
#include <stdio.h>
#include <stdlib.h>
int total = 0;
int table[3] = {1, 2, 3};
void say(int n) { if (n > 9) say(n / 10); putchar('0' + n % 10); }
void line(int n) { int i; for (i = 0; i < n; i++) printf("-"); puts(""); }
void shout(int n) { say(table[n % 3]); fprintf(stdout, "!\n"); }
void warn(int n) { fprintf(stderr, "%d\n", n); }
void count(int n) { total += n; printf("%d\n", total); }
void bye(int n) { printf("%d\n", n); exit(n); }
void ask(void) { int x; scanf("%d", &x); printf("%d\n", x); }
int shown(int n) { printf("%d\n", n); return n; }
void pair(int a, int b) { printf("%d %d\n", a, b); }
int main(void) {
    int n = 3;
    say(n);
    line(n + 1);
    shout(n);
    warn(n);
    count(n);
    ask();
    shown(n);
    n = shown(n);
    say(n++);
    say(shown(n));
    pair(n, 2 * n);
    bye(0);
    return 0;
}
"#;
    assert_eq!(
        printing(src),
        vec![
            site("say", "say(n / 10);", true),
            site("say", "say(table[n % 3]);", true),
            site("say", "say(n);", true),
            site("line", "line(n + 1);", true),
            site("shout", "shout(n);", true),
            // stderr, a global, input, `exit`: more than printing.
            site("warn", "warn(n);", false),
            site("count", "count(n);", false),
            site("ask", "ask();", false),
            // A value discarded, and a value used.
            site("shown", "shown(n);", true),
            site("shown", "n = shown(n);", false),
            // Arguments with an effect.
            site("say", "say(n++);", false),
            site("shown", "say(shown(n));", false),
            site("say", "say(shown(n));", false),
            // Relaxable arguments: those are relaxed instead.
            site("pair", "pair(n, 2 * n);", false),
            site("bye", "bye(0);", false),
        ]
    );
}

/// Not a test of faultline: prints the relaxable call sites of the course
/// benchmark's programs (`cargo test -p faultline-c --test call_args -- --ignored --nocapture`).
#[test]
#[ignore]
fn course_sites() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../benchmarks/course");
    let mut names: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().collect();
    names.sort_by_key(|e| e.file_name());
    for e in names {
        let name = e.file_name().to_string_lossy().to_string();
        let path = e.path().join(format!("{name}.c"));
        let Ok(prog) = faultline_c::compile_file(&path) else {
            continue;
        };
        for c in prog.call_sites.iter().filter(|c| c.relax_args) {
            println!("{name}: {}", prog.stmt(c.stmt).text);
        }
    }
}
