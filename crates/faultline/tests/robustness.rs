//! Robustness: random bytes and random mutations of the example programs go
//! through the front end, the interpreter and `localize` without a panic or a
//! hang (bounded by the step budget and the solver's time limit), and every
//! rejection is a clean one-line error naming the file.
//!
//! The budget is fixed by counts, not time (deterministic: a seeded
//! generator), and sized to finish in about a minute in the test profile.

mod common;

use faultline_diagnose::{Combine, Options, Session};
use faultline_exec::{suite, Compare, ExecOptions, Executable, Input, Limits};
use faultline_smt::Encoding;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Splits C source into rough tokens (identifiers, numbers, punctuation, spaces).
fn tokens(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b: Vec<char> = src.chars().collect();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        if c.is_alphanumeric() || c == '_' {
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
        } else if c.is_whitespace() {
            while i < b.len() && b[i].is_whitespace() {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push(b[start..i].iter().collect());
    }
    out
}

const REPLACEMENTS: &[&str] = &[
    "+",
    "-",
    "*",
    "/",
    "%",
    "<",
    "<=",
    ">",
    ">=",
    "==",
    "!=",
    "&&",
    "||",
    "!",
    "0",
    "1",
    "-1",
    "2147483647",
    "(",
    ")",
    "{",
    "}",
    ";",
    "[",
    "]",
    "x",
    "i",
    "return",
    "while",
    "if",
    "else",
    "for",
    "break",
    "*p",
    "&",
    "++",
    "--",
    "=",
    "\"%d\\n\"",
    "'a'",
];

fn mutate(rng: &mut Rng, toks: &[String]) -> String {
    let mut t = toks.to_vec();
    for _ in 0..1 + rng.below(3) {
        if t.is_empty() {
            break;
        }
        let i = rng.below(t.len());
        match rng.below(4) {
            0 => {
                t.remove(i);
            }
            1 => {
                let d = t[i].clone();
                t.insert(i, d);
            }
            2 => {
                let j = rng.below(t.len());
                t.swap(i, j);
            }
            _ => t[i] = REPLACEMENTS[rng.below(REPLACEMENTS.len())].to_string(),
        }
    }
    t.concat()
}

fn examples() -> Vec<(String, std::path::PathBuf)> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(common::root().join("examples")).expect("examples") {
        let dir = e.expect("entry").path();
        let Ok(files) = std::fs::read_dir(&dir) else {
            continue;
        };
        for f in files.flatten() {
            let p = f.path();
            // Examples whose tests are NAME.in / NAME.out pairs.
            if p.extension().is_some_and(|x| x == "c")
                && suite::load_dir(&dir.join("tests")).is_ok()
            {
                v.push((
                    std::fs::read_to_string(&p).expect("source"),
                    dir.join("tests"),
                ));
            }
        }
    }
    v.sort();
    assert!(!v.is_empty(), "examples with tests");
    v
}

#[test]
fn random_bytes_are_rejected_cleanly() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for i in 0..2000 {
        let n = rng.below(200);
        let bytes: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
        let r = catch_unwind(|| faultline_c::compile_bytes_named("fuzz.c", &bytes));
        let r = r.unwrap_or_else(|_| panic!("front end panicked on input #{i}: {bytes:?}"));
        if let Err(e) = r {
            let msg = e.to_string();
            assert!(msg.starts_with("fuzz.c"), "error names the file: {msg}");
            assert!(!msg.contains('\n'), "one line: {msg}");
        }
    }
}

#[test]
fn mutated_examples_never_panic_or_hang() {
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let examples = examples();
    let mut compiled = 0;
    let mut localized = 0;
    for round in 0..1500 {
        let (src, tests_dir) = &examples[round % examples.len()];
        let mutant = mutate(&mut rng, &tokens(src));
        let prog = match catch_unwind(|| faultline_c::compile_source("mutant.c", &mutant)) {
            Err(_) => panic!("front end panicked on mutant #{round}:\n{mutant}"),
            Ok(Err(e)) => {
                let msg = e.to_string();
                assert!(
                    msg.starts_with("mutant.c:"),
                    "error names the file and position: {msg}"
                );
                assert!(!msg.contains('\n'), "one line: {msg}");
                continue;
            }
            Ok(Ok(p)) => p,
        };
        compiled += 1;
        let tests = suite::load_dir(tests_dir).expect("example tests");
        let limits = Limits {
            max_steps: Some(200_000),
            ..Limits::default()
        };
        let exe = match Executable::new(&prog) {
            Ok(e) => e,
            Err(_) => continue,
        };
        for t in &tests {
            let r = catch_unwind(AssertUnwindSafe(|| {
                exe.run(
                    Input {
                        args: &t.args,
                        stdin: &t.stdin,
                        workdir: t.workdir.as_deref(),
                    },
                    ExecOptions {
                        limits,
                        ..ExecOptions::default()
                    },
                )
            }));
            assert!(
                r.is_ok(),
                "interpreter panicked on mutant #{round} test {}:\n{mutant}",
                t.name
            );
        }
        // Localize one mutant in four, with a short time limit.
        if round % 4 == 0 {
            let r = catch_unwind(AssertUnwindSafe(|| {
                let session = Session::new(&prog, &tests, Compare::Exact, limits).ok()?;
                let opts = Options {
                    timeout: Some(Duration::from_secs(5)),
                    max_size: 2,
                    max_diagnoses: 10,
                    ..Options::default()
                };
                Some(faultline_diagnose::localize(
                    &session,
                    Encoding::Full,
                    Combine::Mbd,
                    &opts,
                ))
            }));
            assert!(r.is_ok(), "localize panicked on mutant #{round}:\n{mutant}");
            localized += 1;
        }
    }
    assert!(
        compiled >= 40,
        "enough mutants compile to exercise the interpreter ({compiled})"
    );
    assert!(localized >= 10, "localized {localized} mutants");
}
