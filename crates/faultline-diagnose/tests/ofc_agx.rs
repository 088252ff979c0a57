//! On-demand methods: OFC's worked example iteration by iteration, OFC equal
//! to the full formula on TCAS, and AgxFaults' feasibility on TCAS.

use faultline_diagnose::engine::Engine;
use faultline_diagnose::explore::Explored;
use faultline_diagnose::methods::{self, Method};
use faultline_diagnose::{Combine, Options, Session};
use faultline_exec::{suite, Compare, Limits, TestCase};
use faultline_ir::{Program, StmtId};
use faultline_smt::Encoding;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn texts(prog: &Program, s: &BTreeSet<StmtId>) -> BTreeSet<String> {
    s.iter().map(|id| prog.stmt(*id).text.clone()).collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

const WORKED: &str = r#"#include <stdio.h>
#include <assert.h>
int main(void) {
    int x, y, a, b;
    scanf("%d %d", &x, &y);
    if (x >= 0)
        a = x;
    else
        a = -x;
    if (y < 5)
        b = a + 1;
    else
        b = a + 2;
    assert(b <= a);
    return 0;
}
"#;

#[test]
fn ofc_worked_example_iteration_by_iteration() {
    let prog = faultline_c::compile_source("worked.c", WORKED).expect("compiles");
    let tests = vec![TestCase {
        name: "t".into(),
        args: vec![],
        stdin: b"0 0\n".to_vec(),
        expected_stdout: vec![],
        expected_status: None,
        workdir: None,
    }];
    let session = Session::new(&prog, &tests, Compare::Exact, Limits::default()).expect("runs");
    assert_eq!(session.failing, vec![0]);
    let mut engine = Engine::new(&session, Options::default(), Encoding::Full);
    let start = Explored::from_trace(&session.traces[&0]);
    let r = faultline_diagnose::ofc::ofc_test(&mut engine, 0, start);
    assert_eq!(r.iterations.len(), 2, "two iterations");
    let it1: BTreeSet<BTreeSet<String>> = r.iterations[0]
        .mcses
        .iter()
        .map(|d| texts(&prog, d))
        .collect();
    assert_eq!(
        it1,
        [set(&["b = a + 1;"]), set(&["y < 5"])]
            .into_iter()
            .collect()
    );
    // Only `y < 5`'s other branch is expanded; `x >= 0`'s never is.
    let expanded: Vec<String> = r.iterations[0]
        .expanded
        .iter()
        .map(|((s, _), _)| prog.stmt(*s).text.clone())
        .collect();
    assert_eq!(expanded, vec!["y < 5".to_string()]);
    let it2: BTreeSet<BTreeSet<String>> = r.iterations[1]
        .mcses
        .iter()
        .map(|d| texts(&prog, d))
        .collect();
    assert_eq!(
        it2,
        [set(&["b = a + 1;"]), set(&["y < 5", "b = a + 2;"])]
            .into_iter()
            .collect()
    );
    assert!(r.iterations[1].expanded.is_empty());
    let fin: BTreeSet<BTreeSet<String>> = r.mcses.iter().map(|m| texts(&prog, &m.stmts)).collect();
    assert_eq!(fin, it2);
    // The final answer equals the full formula's (every size, as OFC's).
    let every_size = Options {
        all_sizes: true,
        ..Options::default()
    };
    let full = faultline_diagnose::localize(&session, Encoding::Full, Combine::Mbd, &every_size);
    let full_sets: BTreeSet<BTreeSet<String>> = full
        .diagnoses
        .iter()
        .map(|d| texts(&prog, &d.stmts.iter().copied().collect()))
        .collect();
    assert_eq!(fin, full_sets);
    // `x >= 0` was never expanded: the explored set knows only its true outcome.
    let x_cond = prog
        .stmts
        .iter()
        .position(|s| s.text == "x >= 0")
        .expect("x >= 0");
    let outcomes = r
        .explored
        .outcomes(&(StmtId(x_cond as u32), vec![]))
        .expect("explored");
    assert_eq!(outcomes.len(), 1);
}

fn tcas() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/tcas")
}

fn faults() -> Vec<(String, Vec<u32>)> {
    std::fs::read_to_string(tcas().join("faults.tsv"))
        .expect("faults.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let lines = f[1..]
                .iter()
                .flat_map(|c| c.split(','))
                .filter(|x| !x.trim().is_empty())
                .map(|x| x.trim().parse().expect("line"))
                .collect();
            (f[0].to_string(), lines)
        })
        .collect()
}

/// The oracle-built TCAS suite (1608 tests).
fn tcas_suite() -> Vec<TestCase> {
    let reference = faultline_c::compile_file(&tcas().join("tcas.c")).expect("tcas.c");
    let args = suite::read_args_file(&tcas().join("universe.txt")).expect("universe");
    suite::with_oracle(args, &reference, "tcas.c", Limits::default()).expect("oracle")
}

/// Up to `n` failing tests of a version, spread over its failing set.
fn sample_failing(prog: &Program, tests: &[TestCase], n: usize) -> Vec<TestCase> {
    let exe = faultline_exec::Executable::new(prog).expect("starts");
    let failing: Vec<&TestCase> = tests
        .iter()
        .filter(|t| !faultline_exec::run(&exe, t, &Default::default()).passed())
        .collect();
    let step = (failing.len() / n).max(1);
    failing.into_iter().step_by(step).take(n).cloned().collect()
}

fn per_test_sets(loc: &faultline_diagnose::Localization) -> Vec<BTreeSet<BTreeSet<StmtId>>> {
    loc.failing
        .iter()
        .map(|&t| methods::per_test_sets(loc, t))
        .collect()
}

/// OFC's MCSes equal the full formula's, per failing test, on every TCAS
/// version. Sampled: at most 4 failing tests per version (spread over the
/// failing set), to keep the test within a few minutes in the test profile.
#[test]
fn ofc_equals_full_on_tcas() {
    let tests = tcas_suite();
    let mut compared = 0;
    for (v, _) in faults() {
        let prog = faultline_c::compile_file(&tcas().join("versions").join(&v).join("tcas.c"))
            .expect("compiles");
        let sample = sample_failing(&prog, &tests, 4);
        let session =
            Session::new(&prog, &sample, Compare::Exact, Limits::default()).expect("runs");
        let opts = Options::default();
        // The reference enumerates every test on its own formula.
        let full = methods::run(
            &session,
            &Method::parse("bugassist", None).expect("method"),
            &unshared(),
        );
        let ofc = methods::run(
            &session,
            &Method::parse("ofc", None).expect("method"),
            &opts,
        );
        assert!(
            full.incomplete.is_none() && ofc.incomplete.is_none(),
            "{v}: complete"
        );
        assert_eq!(
            per_test_sets(&ofc),
            per_test_sets(&full),
            "{v}: OFC and full differ"
        );
        compared += session.failing.len();
    }
    assert!(compared >= 150, "compared {compared} failing tests");
}

/// AgxFaults on TCAS: every reported candidate makes its failing test pass
/// when re-executed with its angelic values, and the fault is found in every
/// version. Sampled: 3 failing tests per version.
#[test]
fn agx_candidates_are_feasible_and_find_every_fault() {
    let tests = tcas_suite();
    for (v, lines) in faults() {
        let prog = faultline_c::compile_file(&tcas().join("versions").join(&v).join("tcas.c"))
            .expect("compiles");
        let sample = sample_failing(&prog, &tests, 3);
        let session =
            Session::new(&prog, &sample, Compare::Exact, Limits::default()).expect("runs");
        let loc = methods::run(
            &session,
            &Method::parse("agx", None).expect("method"),
            &Options::default(),
        );
        assert!(!loc.diagnoses.is_empty(), "{v}: candidates");
        for d in &loc.diagnoses {
            assert_eq!(
                d.verified,
                Some(true),
                "{v}: candidate {:?} not confirmed by re-execution",
                d.stmts
            );
        }
        let found = loc.diagnoses.iter().any(|d| {
            d.stmts
                .iter()
                .any(|s| lines.contains(&prog.stmt(*s).loc.line))
        });
        assert!(found, "{v}: fault not found");
    }
}

/// Options with path sharing off: every failing test enumerated.
fn unshared() -> Options {
    Options {
        share_paths: false,
        ..Options::default()
    }
}

/// The diagnoses of a per-test localization: per test, in order, with cost.
fn listing(loc: &faultline_diagnose::Localization) -> Vec<(Option<usize>, u64, Vec<StmtId>)> {
    loc.diagnoses
        .iter()
        .map(|d| (d.test, d.cost, d.stmts.clone()))
        .collect()
}

/// Sharing MCSes between failing tests on one path changes no result: the
/// per-test methods give the same diagnoses, in the same order, with the
/// same rankings, with sharing on and off; and sharing does happen. Runs on
/// the first 40 failing tests of versions whose failing tests share paths.
#[test]
fn path_sharing_gives_the_same_diagnoses() {
    let tests = tcas_suite();
    for v in ["v1", "v33"] {
        let prog = faultline_c::compile_file(&tcas().join("versions").join(v).join("tcas.c"))
            .expect("compiles");
        let exe = faultline_exec::Executable::new(&prog).expect("loads");
        let failing: Vec<TestCase> = tests
            .iter()
            .filter(|t| !faultline_exec::run(&exe, t, &Default::default()).passed())
            .take(40)
            .cloned()
            .collect();
        let session =
            Session::new(&prog, &failing, Compare::Exact, Limits::default()).expect("runs");
        for name in ["bugassist", "ofc", "ofc+cw", "agx"] {
            let method = Method::parse(name, None).expect("method");
            let shared = methods::run(&session, &method, &Options::default());
            let alone = methods::run(&session, &method, &unshared());
            assert!(
                shared.incomplete.is_none() && alone.incomplete.is_none(),
                "{v} {name}: complete"
            );
            assert_eq!(
                listing(&shared),
                listing(&alone),
                "{v} {name}: diagnoses differ"
            );
            assert_eq!(shared.ranking, alone.ranking, "{v} {name}: rankings differ");
            assert_eq!(alone.stats.tests_reused, 0, "{v} {name}");
            assert!(
                shared.stats.tests_reused >= 10,
                "{v} {name}: {} tests reused",
                shared.stats.tests_reused
            );
            assert!(
                shared.stats.solver_calls < alone.stats.solver_calls,
                "{v} {name}: {} calls shared, {} alone",
                shared.stats.solver_calls,
                alone.stats.solver_calls
            );
            if name == "agx" {
                assert!(shared.diagnoses.iter().all(|d| d.verified == Some(true)));
            }
        }
    }
}
