//! The Siemens programs as their suite runs them: every 20th test of the
//! universe (a command line with `< FILE`, run in `inputs/`), every faulty
//! version, judged against the program in `source/`; the failing tests must
//! be exactly those of gcc -O0 builds, cached in
//! `benchmarks/siemens/NAME.failing.tsv` by `scripts/siemens-failing.py`.
//! Where the interpreter reports a runtime error (undefined behaviour the
//! gcc build survives) the verdicts may differ; tests on which the reference
//! itself has one are left out. The full check: `scripts/siemens-check.py`.
//!
//! The benchmark lives outside the repository (`../shared/benchmarks/siemens`,
//! or `FAULTLINE_SIEMENS`); without it the test says so and passes.
//! All six programs and every version must load.

mod common;

use common::{root, siemens};
use faultline_exec::suite::{read_command_file, with_oracle_in};
use faultline_exec::{run, Compare, Limits, RunOptions, Verdict};
use std::collections::{BTreeMap, BTreeSet};

/// version -> failing tests (1-based universe lines), from the cache.
fn cached_failing(prog: &str) -> Option<BTreeMap<String, BTreeSet<usize>>> {
    let text =
        std::fs::read_to_string(root().join(format!("benchmarks/siemens/{prog}.failing.tsv")))
            .ok()?;
    let mut out: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for l in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = l.split('\t').collect();
        let set = out.entry(f[0].to_string()).or_default();
        if let Ok(t) = f[1].parse() {
            set.insert(t);
        }
    }
    Some(out)
}

#[test]
fn every_20th_test_fails_as_under_gcc() {
    let Some(dir) = siemens() else {
        eprintln!("the Siemens benchmark is not there: nothing checked");
        return;
    };
    let mut not_loaded = Vec::new();
    let mut mismatches = Vec::new();
    let mut compared = 0;
    for prog in [
        "replace",
        "tot_info",
        "print_tokens",
        "print_tokens2",
        "schedule",
        "schedule2",
    ] {
        let pdir = dir.join(prog);
        let Some(cache) = cached_failing(prog) else {
            not_loaded.push(format!("{prog}: no cache of gcc's failing tests"));
            continue;
        };
        let source = match faultline_c::compile_file(&pdir.join(format!("source/{prog}.c"))) {
            Ok(p) => p,
            Err(e) => {
                not_loaded.push(format!("{prog}: {e}"));
                continue;
            }
        };
        let all = read_command_file(&pdir.join("universe.txt")).expect("universe");
        let sample: Vec<_> = all.into_iter().step_by(20).collect();
        let inputs = pdir.join("inputs");
        let oracle = with_oracle_in(
            sample,
            Some(&inputs),
            &source,
            prog,
            None,
            Limits::default(),
        )
        .expect("the reference runs");
        let limits = Limits::default();
        let options = RunOptions {
            record_trace: false,
            limits,
            compare: Compare::Exact,
        };
        for (v, gcc) in cache {
            let path = pdir.join(format!("versions/{v}/{prog}.c"));
            let version = match faultline_c::compile_file(&path) {
                Ok(p) => p,
                Err(e) => {
                    not_loaded.push(format!("{prog} {v}: {e}"));
                    continue;
                }
            };
            let exe = faultline_exec::Executable::new(&version).expect("starts");
            for t in &oracle.tests {
                let r = run(&exe, t, &options);
                let line: usize = t.name.parse().expect("line number");
                let fails = !r.passed();
                let ub = matches!(
                    r.verdict,
                    Verdict::Fail(faultline_exec::FailReason::RuntimeError(_))
                );
                compared += 1;
                if fails != gcc.contains(&line) && !ub {
                    mismatches.push(format!(
                        "{prog} {v} test {line}: gcc {}, faultline {:?}",
                        if gcc.contains(&line) {
                            "fails"
                        } else {
                            "passes"
                        },
                        r.verdict
                    ));
                }
            }
        }
    }
    assert!(
        not_loaded.is_empty(),
        "not loaded:\n{}",
        not_loaded.join("\n")
    );
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    assert!(compared >= 32 * 250, "only {compared} runs compared");
}
