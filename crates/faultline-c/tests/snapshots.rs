//! IR snapshots of representative programs (pretty-printed with
//! `faultline_ir::pretty::program`), and the source text of their statements.

/// The IR as written: insertions (what may be missing, `insertions.rs`)
/// are left out.
fn check(name: &str, src: &str, ir: &str, stmts: &str) {
    let p = faultline_c::compile_source(name, src).unwrap_or_else(|e| panic!("{e}"));
    let printed: String = faultline_ir::pretty::program(&p)
        .lines()
        .filter(|l| !l.contains(": insert "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(printed, ir);
    let infos: Vec<String> = p
        .stmts
        .iter()
        .filter(|s| s.kind != faultline_ir::StmtKind::Insert)
        .map(|s| format!("{}:{} {:?} {}", s.loc.line, s.loc.col, s.kind, s.text))
        .collect();
    assert_eq!(infos.join("\n") + "\n", stmts);
}

#[test]
fn conv_snapshot() {
    check(
        "conv.c",
        r###"int main(void) {
    int i = -7;
    unsigned u = 3;
    char c = 'a';
    short s = 40000;
    long l = 1L << 40;
    double d = 2;
    float f = 1.5f;
    int *p = &i;
    i = i / 2 + u;
    u >>= c;
    c += 1;
    c++;
    --s;
    d = f * i;
    l = i < u;
    i = -c + ~s;
    p += 1;
    p--;
    i = (p - &i) + (p != 0) + (p == (void *)0);
    f = d ? 1 : 2.0f;
    return (int)d % 3;
}
"###,
        r###"
fn main() -> int {
  local i: int
  local u: unsigned int
  local c: char
  local s: short
  local l: long
  local d: double
  local f: float
  local p: int *
  s0: init i = -7;
  s1: init u = (unsigned int)3;
  s2: init c = (char)97;
  s3: init s = (short)40000;
  s4: init l = 1:long << 40;
  s5: init d = (double)2;
  s6: init f = 1.5f;
  s7: init p = &i;
  s8: i = (int)((unsigned int)(i / 2) + u);
  s9: u = old >> (int)c;
  s10: c = (char)((int)old + 1);
  s11: c =post (char)((int)old + 1);
  s12: s = (short)((int)old - 1);
  s13: d = (double)(f * (float)i);
  s14: l = (long)((unsigned int)i < u);
  s15: i = -(int)c + ~(int)s;
  s16: p = old +ptr (long)1;
  s17: p =post old +ptr -1:long;
  s18: i = (int)(((p -ptr &i) + (long)(p != (int *)0)) + (long)(p == (int *)0));
  s19: f = d ? (float)1 : 2.0f;
  s20: return (int)d % 3;
}
"###,
        r###"2:5 Init int i = -7;
3:5 Init unsigned u = 3;
4:5 Init char c = 'a';
5:5 Init short s = 40000;
6:5 Init long l = 1L << 40;
7:5 Init double d = 2;
8:5 Init float f = 1.5f;
9:5 Init int *p = &i;
10:5 Expr i = i / 2 + u;
11:5 Expr u >>= c;
12:5 Expr c += 1;
13:5 Expr c++;
14:5 Expr --s;
15:5 Expr d = f * i;
16:5 Expr l = i < u;
17:5 Expr i = -c + ~s;
18:5 Expr p += 1;
19:5 Expr p--;
20:5 Expr i = (p - &i) + (p != 0) + (p == (void *)0);
21:5 Expr f = d ? 1 : 2.0f;
22:5 Return return (int)d % 3;
"###,
    );
}

#[test]
fn agg_snapshot() {
    check(
        "agg.c",
        r###"struct Point { int x, y; };
struct Rect { struct Point tl, br; char tag[4]; };
typedef struct { double v[2]; int n; } Vec;
struct Point origin = {1, 2};
struct Rect unit = {{0, 0}, {1, 1}, "ab"};
int grid[2][3] = {{1, 2, 3}, {4}};
int flat[2][2] = {1, 2, 3};
int sized[] = {5, 6, 7};
int desig[5] = {[3] = 9, 1};
char *words[] = {"x", "yz"};
int *gp = &grid[1][2];
Vec vz = {.n = 2};
int area(struct Rect r) { return (r.br.x - r.tl.x) * (r.br.y - r.tl.y); }
void move(struct Point *p, int dx) { p->x += dx; (*p).y = dx; }
int main(void) {
    struct Rect r = unit, rs[2] = {{{1, 2}, {3, 4}, "q"}, {origin, origin}};
    struct Point q = {3}, *pq = &q;
    Vec v = {{1.0, 2.5}, 2};
    char name[8] = "bob";
    move(pq, 2);
    rs[1].br = *pq;
    r.tag[0] = name[1];
    return area(r) + grid[1][0] + flat[1][0] + sized[2] + (int)v.v[1];
}
"###,
        r###"struct Point { x: int @0, y: int @1 } cells=2 size=8
struct Rect { tl: struct Point @0, br: struct Point @2, tag: char[4] @4 } cells=8 size=20
struct Vec { v: double[2] @0, n: int @2 } cells=3 size=24
global origin: struct Point = {0: 1, 1: 2}
global unit: struct Rect = {0: 0, 1: 0, 2: 1, 3: 1, 4: 97:char, 5: 98:char, 6: 0:char}
global grid: int[3][2] = {0: 1, 1: 2, 2: 3, 3: 4}
global flat: int[2][2] = {0: 1, 1: 2, 2: 3}
global sized: int[3] = {0: 5, 1: 6, 2: 7}
global desig: int[5] = {3: 9, 4: 1}
global words: char *[2] = {0: "x", 1: "yz"}
global gp: int * = {0: &grid[(long)1][(long)2]}
global vz: struct Vec = {2: 2}

fn area(r: struct Rect) -> int {
  s9: return (r.br.x - r.tl.x) * (r.br.y - r.tl.y);
}

fn move(p: struct Point *, dx: int) -> void {
  s10: (*p).x = old + dx;
  s11: (*p).y = dx;
}

fn main() -> int {
  local r: struct Rect
  local rs: struct Rect[2]
  local q: struct Point
  local pq: struct Point *
  local v: struct Vec
  local name: char[8]
  s12: init r = unit;
  s13: init rs = {0: 1, 1: 2, 2: 3, 3: 4, 4: 113:char, 5: 0:char, 8: origin, 10: origin} zero_fill;
  s14: init q = {0: 3} zero_fill;
  s15: init pq = &q;
  s16: init v = {0: 1.0, 1: 2.5, 2: 2} zero_fill;
  s17: init name = {0: 98:char, 1: 111:char, 2: 98:char, 3: 0:char} zero_fill;
  s18: move(pq, 2);
  s19: rs[(long)1].br = *pq;
  s20: r.tag[(long)0] = name[(long)1];
  s21: return (((area(r) + grid[(long)1][(long)0]) + flat[(long)1][(long)0]) + sized[(long)2]) + (int)v.v[(long)1];
}
"###,
        r###"4:1 Init struct Point origin = {1, 2};
5:1 Init struct Rect unit = {{0, 0}, {1, 1}, "ab"};
6:1 Init int grid[2][3] = {{1, 2, 3}, {4}};
7:1 Init int flat[2][2] = {1, 2, 3};
8:1 Init int sized[] = {5, 6, 7};
9:1 Init int desig[5] = {[3] = 9, 1};
10:1 Init char *words[] = {"x", "yz"};
11:1 Init int *gp = &grid[1][2];
12:1 Init Vec vz = {.n = 2};
13:27 Return return (r.br.x - r.tl.x) * (r.br.y - r.tl.y);
14:38 Expr p->x += dx;
14:50 Expr (*p).y = dx;
16:17 Init r = unit
16:27 Init rs[2] = {{{1, 2}, {3, 4}, "q"}, {origin, origin}}
17:18 Init q = {3}
17:27 Init *pq = &q
18:5 Init Vec v = {{1.0, 2.5}, 2};
19:5 Init char name[8] = "bob";
20:5 Expr move(pq, 2);
21:5 Expr rs[1].br = *pq;
22:5 Expr r.tag[0] = name[1];
23:5 Return return area(r) + grid[1][0] + flat[1][0] + sized[2] + (int)v.v[1];
"###,
    );
}

#[test]
fn ctl_snapshot() {
    check(
        "ctl.c",
        r###"#include <stdio.h>
int classify(int n) {
    switch (n % 4) {
    case 0:
        return 0;
    case 1:
    case 2: {
        int k = n * 2;
        n = k;
    }
    default:
        n++;
        break;
    }
    return n;
}
int main(void) {
    int total = 0, i;
    for (int j = 0, k = 1; j < 3; j++, k *= 2) {
        if (j == 1)
            continue;
        total += k;
    }
    i = 10;
    do {
        i -= 3;
        if (i < 0) break;
    } while (i > 2);
    while (1) { total++; if (total > 5) break; }
    for (;;) { break; }
    printf("%d %d\n", total, classify(i));
    return 0;
}
"###,
        r###"
fn classify(n: int) -> int {
  local k: int
  s0: switch (n % 4) {
  case 0:
    s1: return 0;
  case 1:
  case 2:
    s2: init k = n * 2;
    s3: n = k;
  default:
    s4: n =post old + 1;
    s5: break;
  }
  s6: return n;
}

fn main() -> int {
  local total: int
  local i: int
  local j: int
  local k: int
  s7: init total = 0;
  declare i;
  s8: init j = 0;
  s9: init k = 1;
  s10: while (j < 3) {
    s12: if (j == 1) {
      s13: continue;
    }
    s14: total = old + k;
  } step {
    s11: (j =post old + 1), (k = old * 2);
  }
  s15: i = 10;
  do {
    s16: i = old - 3;
    s17: if (i < 0) {
      s18: break;
    }
  } s19: while (i > 2);
  s20: while (1) {
    s21: total =post old + 1;
    s22: if (total > 5) {
      s23: break;
    }
  }
  while (forever) {
    s24: break;
  }
  s25: $printf("%d %d\n", total, classify(i));
  s26: return 0;
}
"###,
        r###"3:13 SwitchCond n % 4
5:9 Return return 0;
8:9 Init int k = n * 2;
9:9 Expr n = k;
12:9 Expr n++;
13:9 Break break;
15:5 Return return n;
18:9 Init total = 0
19:14 Init j = 0
19:21 Init k = 1
19:28 LoopCond j < 3
19:35 Expr j++, k *= 2
20:13 IfCond j == 1
21:13 Continue continue;
22:9 Expr total += k;
24:5 Expr i = 10;
26:9 Expr i -= 3;
27:13 IfCond i < 0
27:20 Break break;
28:14 DoWhileCond i > 2
29:12 LoopCond 1
29:17 Expr total++;
29:30 IfCond total > 5
29:41 Break break;
30:16 Break break;
31:5 Expr printf("%d %d\n", total, classify(i));
32:5 Return return 0;
"###,
    );
}

#[test]
fn kr_snapshot() {
    check(
        "kr.c",
        r###"double half();
int twice(x)
int x;
{
    return x * 2;
}
main(argc, argv)
int argc;
char **argv;
{
    double h = half(3);
    int t = twice(2.5);
    return later(h, 'c') + t + abs(-2) + (int)sqrt(16);
}
double half(int v) { return v / 2.0; }
int later(long a, char b) { return (int)a + b; }
"###,
        r###"
fn twice(x: int) -> int {
  s0: return x * 2;
}

fn main(argc: int, argv: char * *) -> int {
  local h: double
  local t: int
  s1: init h = half(3);
  s2: init t = twice((int)2.5);
  s3: return ((later((long)h, (char)99) + t) + $abs(-2)) + (int)$sqrt((double)16);
}

fn half(v: int) -> double {
  s4: return (double)v / 2.0;
}

fn later(a: long, b: char) -> int {
  s5: return (int)a + (int)b;
}
"###,
        r###"5:5 Return return x * 2;
11:5 Init double h = half(3);
12:5 Init int t = twice(2.5);
13:5 Return return later(h, 'c') + t + abs(-2) + (int)sqrt(16);
15:22 Return return v / 2.0;
16:29 Return return (int)a + b;
"###,
    );
}

#[test]
fn pp_snapshot() {
    check(
        "pp.c",
        r###"#include <stdio.h>
#include <limits.h>
#define SQUARE(x) ((x) * (x))
#define NAME(a, b) a ## _ ## b
#define SHOW(e) printf(#e " = %d\n", e)
#define DEBUG 0
#if DEBUG || defined(VERBOSE)
#error not expected
#elif INT_MAX > 0x7fff
#define WIDE 1
#else
#define WIDE 0
#endif
int NAME(my, var) = WIDE;
int main(void) {
    int line = __LINE__;
    SHOW(SQUARE(my_var + 1));
    printf("%s %d\n", __FILE__, line);
    return EOF + INT_MIN;
}
"###,
        r###"global my_var: int = {0: 1}

fn main() -> int {
  local line: int
  s1: init line = 16;
  s2: $printf("SQUARE(my_var + 1) = %d\n", (my_var + 1) * (my_var + 1));
  s3: $printf("%s %d\n", "pp.c", line);
  s4: return -1 + (-2147483647 - 1);
}
"###,
        r###"14:1 Init int NAME(my, var) = WIDE;
16:5 Init int line = __LINE__;
17:5 Expr SHOW(SQUARE(my_var + 1));
18:5 Expr printf("%s %d\n", __FILE__, line);
19:5 Return return EOF + INT_MIN;
"###,
    );
}
