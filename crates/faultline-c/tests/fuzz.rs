//! Robustness: random bytes and random token-level mutations of sample
//! programs must produce `Ok` or `Err`, never a panic (a panic inside the
//! front end would surface as the "internal error" message).

use faultline_c::lex::{lex, Kind};

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

const SAMPLE: &str = r#"
#include <stdio.h>
#include <string.h>
#define N 5
#define SQ(x) ((x) * (x))
#define CAT(a, b) a ## b
#define S(x) #x
typedef struct { int x, y; } Point;
enum { A, B = 3 };
static int table[N] = {1, 2, 3};
char name[] = "abc";
int f(int a, int b);
Point mk(int x, int y) { Point p = {x, y}; return p; }
int g(int *p, int n) { int s = 0; while (n-- > 0) s += *p++; return s; }
int main(int argc, char *argv[]) {
    int i, a[N][2] = {{1}, {2, 3}};
    double d = 1.5;
    Point p = mk(1, 2);
    unsigned u = 7u;
    for (i = 0; i < N; i++) {
        if (i % 2 == 0 && table[i] > 1) continue;
        else if (i > 3) break;
        table[i] += SQ(i) << 1;
    }
    switch (argc) { case 1: u >>= 1; case 2: { d *= 2; break; } default: d = -d; }
    do { i--; } while (i > 0);
    printf("%d %s %f %u %s\n", f(p.x, p.y), name, d, u, S(hi));
    if (strcmp(name, "abc") == 0) puts("same");
    return g(&a[0][0], 4) + CAT(A, ) + (int)sizeof(Point) + (argc ? 1 : 0);
}
int f(int a, int b) { return a > b ? a : b; }
"#;

/// `FAULTLINE_FUZZ_SCALE=N` multiplies the number of cases (for longer local runs).
fn scale() -> usize {
    std::env::var("FAULTLINE_FUZZ_SCALE")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

fn assert_no_panic(name: &str, bytes: &[u8]) {
    if let Err(e) = faultline_c::compile_bytes_named(name, bytes) {
        assert!(
            !e.message.contains("internal error"),
            "the front end panicked on input:\n{}",
            String::from_utf8_lossy(bytes)
        );
    }
}

fn tokens(src: &str) -> Vec<(String, bool)> {
    lex(0, src.as_bytes())
        .expect("the sample lexes")
        .into_iter()
        .filter(|t| t.kind != Kind::End)
        .map(|t| (t.text.to_string(), t.bol))
        .collect()
}

fn join(toks: &[(String, bool)]) -> String {
    let mut s = String::new();
    for (t, bol) in toks {
        s.push(if *bol { '\n' } else { ' ' });
        s.push_str(t);
    }
    s.push('\n');
    s
}

#[test]
fn the_sample_compiles() {
    let p = faultline_c::compile_source("sample.c", SAMPLE);
    assert!(
        p.is_ok(),
        "{}",
        p.err().map(|e| e.to_string()).unwrap_or_default()
    );
}

#[test]
fn random_bytes_do_not_panic() {
    let mut rng = XorShift(0x9e3779b97f4a7c15);
    let alphabet = b"int main(){};[]*&+-=<>!?:,.\"'#\\/ \n\t0123456789abcxyz_%^|~";
    for i in 0..2000 * scale() {
        let len = rng.below(200);
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                if i % 2 == 0 {
                    rng.next() as u8
                } else {
                    alphabet[rng.below(alphabet.len())]
                }
            })
            .collect();
        assert_no_panic("random.c", &bytes);
    }
}

#[test]
fn token_mutations_do_not_panic() {
    let mut rng = XorShift(12345 + scale() as u64);
    let base = tokens(SAMPLE);
    let tcas = tokens(
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/tcas/tcas.c"
        ))
        .expect("the repository's TCAS copy (tests/tcas/tcas.c)"),
    );
    let pool: Vec<&(String, bool)> = base.iter().chain(tcas.iter()).collect();
    for i in 0..3000 * scale() {
        let mut toks = if i % 3 == 2 && !tcas.is_empty() {
            tcas.clone()
        } else {
            base.clone()
        };
        let edits = 1 + rng.below(4);
        for _ in 0..edits {
            if toks.is_empty() {
                break;
            }
            let k = rng.below(toks.len());
            match rng.below(4) {
                0 => {
                    toks.remove(k);
                }
                1 => {
                    let t = toks[k].clone();
                    toks.insert(k, t);
                }
                2 => {
                    let j = rng.below(toks.len());
                    toks.swap(k, j);
                }
                _ => {
                    let t = pool[rng.below(pool.len())].clone();
                    toks.insert(k, (t.0, false));
                }
            }
        }
        assert_no_panic("mutant.c", join(&toks).as_bytes());
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let deep_parens = format!(
        "int main() {{ return {}1{}; }}",
        "(".repeat(100_000),
        ")".repeat(100_000)
    );
    let e = faultline_c::compile_source("deep.c", &deep_parens).unwrap_err();
    assert_eq!(e.message, "expression nested too deeply");
    let long_sum = format!("int main() {{ return 1{}; }}", "+1".repeat(100_000));
    let e = faultline_c::compile_source("sum.c", &long_sum).unwrap_err();
    assert_eq!(e.message, "expression nested too deeply");
    let deep_blocks = format!(
        "int main() {{ {} {} }}",
        "{".repeat(50_000),
        "}".repeat(50_000)
    );
    let e = faultline_c::compile_source("blocks.c", &deep_blocks).unwrap_err();
    assert_eq!(e.message, "statements nested too deeply");
    let unary = format!("int main() {{ return {}1; }}", "-".repeat(100_000));
    assert!(faultline_c::compile_source("unary.c", &unary).is_err());
    let ptrs = format!("int {}p; int main() {{ return 0; }}", "*".repeat(100_000));
    assert!(faultline_c::compile_source("ptrs.c", &ptrs).is_err());
    let arrays = format!("int a{}; int main() {{ return 0; }}", "[1]".repeat(100_000));
    assert!(faultline_c::compile_source("arrays.c", &arrays).is_err());
    let pp_unary = format!(
        "#if {}1\n#endif\nint main() {{ return 0; }}",
        "-".repeat(100_000)
    );
    assert!(faultline_c::compile_source("ppunary.c", &pp_unary).is_err());
    let inits = format!(
        "int x = {}1{};\nint main() {{ return 0; }}",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    assert!(faultline_c::compile_source("inits.c", &inits).is_err());
    let casts = format!("int main() {{ return {}1; }}", "(int)".repeat(100_000));
    assert!(faultline_c::compile_source("casts.c", &casts).is_err());
    let elses = format!(
        "int main() {{ int x = 0; {} ; return 0; }}",
        "if (x) x++; else ".repeat(100_000)
    );
    assert!(faultline_c::compile_source("elses.c", &elses).is_err());
    let macros = "#define A B B\n#define B C C\n#define C D D\n#define D E E\n#define E F F\n#define F G G\n\
                  #define G H H\n#define H I I\n#define I J J\n#define J K K\n#define K L L\n#define L M M\n\
                  #define M N N\n#define N O O\n#define O P P\n#define P Q Q\n#define Q R R\n#define R S S\n\
                  #define S T T\n#define T U U\n#define U V V\n#define V W W\nint main() { A; }\n";
    assert!(faultline_c::compile_source("macros.c", macros).is_err());
    let self_include = "#include \"self_include_does_not_exist.h\"\nint main(){}";
    assert!(faultline_c::compile_source("inc.c", self_include).is_err());
}
