//! TCAS (tests/tcas): every faulty version, all of its failing tests (the
//! suite of universe.txt with tcas.c as the oracle), `mbd` with the `full`
//! and the `flow` encodings. For every version some reported diagnosis
//! contains a faulty line of faults.tsv or an accepted use site; for the
//! single-fault versions a diagnosis of one statement names it.
//!
//! v33 and v38 write outside `Positive_RA_Alt_Thresh` in every run that
//! reaches `initialize`: the interpreter reports the write as a runtime error,
//! so all their runs with 12 or more arguments fail. Their exact reports are
//! checked separately.

mod common;

use common::*;
use faultline_diagnose::{localize, Combine, Localization, Session};
use faultline_exec::{suite, Compare, Limits, TestCase, Verdict};
use faultline_ir::Program;
use faultline_smt::Encoding;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn tcas() -> PathBuf {
    root().join("tests/tcas")
}

/// (version, faulty lines, accepted use sites), from faults.tsv.
fn faults() -> Vec<(String, Vec<u32>, Vec<u32>)> {
    let text = std::fs::read_to_string(tcas().join("faults.tsv")).expect("faults.tsv");
    let nums = |s: &str| -> Vec<u32> {
        s.split(',')
            .filter(|x| !x.trim().is_empty())
            .map(|x| x.trim().parse().expect("a line number"))
            .collect()
    };
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            (
                cols[0].to_string(),
                nums(cols[1]),
                nums(cols.get(2).copied().unwrap_or("")),
            )
        })
        .collect()
}

fn suite_of(oracle: &Program) -> Vec<TestCase> {
    let args = suite::read_args_file(&tcas().join("universe.txt")).expect("universe.txt");
    suite::with_oracle(args, oracle, "tcas.c", Limits::default()).expect("the oracle runs")
}

fn version(v: &str) -> Program {
    compile(&tcas().join("versions").join(v).join("tcas.c"))
}

fn lines_of(prog: &Program, loc: &Localization, i: usize) -> BTreeSet<u32> {
    loc.diagnoses[i]
        .stmts
        .iter()
        .map(|s| prog.stmt(*s).loc.line)
        .collect()
}

struct Outcome {
    version: String,
    encoding: Encoding,
    failing: usize,
    diagnoses: usize,
    /// 1-based index of the first diagnosis naming a fault.
    first_hit: Option<usize>,
    single_hit: bool,
    single_fault: bool,
    incomplete: Option<String>,
    time: Duration,
    first: String,
}

fn run_version(
    v: &str,
    lines: &[u32],
    sites: &[u32],
    tests: &[TestCase],
    encodings: &[Encoding],
) -> Vec<Outcome> {
    let prog = version(v);
    let session = Session::new(&prog, tests, Compare::Exact, Limits::default()).expect("runs");
    let accepted: BTreeSet<u32> = lines.iter().chain(sites).copied().collect();
    let mut out = Vec::new();
    for &encoding in encodings {
        let start = Instant::now();
        let loc = localize(&session, encoding, Combine::Mbd, &options(3));
        let time = start.elapsed();
        let first_hit = (0..loc.diagnoses.len())
            .find(|&i| !lines_of(&prog, &loc, i).is_disjoint(&accepted))
            .map(|i| i + 1);
        let single_hit = (0..loc.diagnoses.len()).any(|i| {
            loc.diagnoses[i].stmts.len() == 1 && !lines_of(&prog, &loc, i).is_disjoint(&accepted)
        });
        out.push(Outcome {
            version: v.to_string(),
            encoding,
            failing: session.failing.len(),
            diagnoses: loc.diagnoses.len(),
            first_hit,
            single_hit,
            single_fault: lines.len() == 1,
            incomplete: loc.incomplete.as_ref().map(|i| i.describe()),
            time,
            first: loc
                .diagnoses
                .first()
                .map(|d| {
                    format!(
                        "{:?} ({} statements)",
                        lines_of(&prog, &loc, 0),
                        d.stmts.len()
                    )
                })
                .unwrap_or_default(),
        });
    }
    out
}

/// Versions whose runs end in a runtime error (their exact reports are
/// checked below).
const OUT_OF_BOUNDS: [&str; 2] = ["v33", "v38"];

#[test]
fn every_version_is_localized_with_full_and_flow() {
    let start = Instant::now();
    let oracle = compile(&tcas().join("tcas.c"));
    let tests = suite_of(&oracle);
    let faults = faults();
    assert_eq!(faults.len(), 41);
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Outcome>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some((v, lines, sites)) = faults.get(i) else {
                    break;
                };
                let r = run_version(v, lines, sites, &tests, &[Encoding::Full, Encoding::Flow]);
                results.lock().unwrap().extend(r);
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| {
        suite::natural_cmp(&a.version, &b.version).then((a.encoding as u8).cmp(&(b.encoding as u8)))
    });
    let mut bad = Vec::new();
    for r in &results {
        println!(
            "{:4} {:5?} failing {:4} diagnoses {:3} first hit {:?} single hit {:5} {:7.2}s first {}{}",
            r.version,
            r.encoding,
            r.failing,
            r.diagnoses,
            r.first_hit,
            r.single_hit,
            r.time.as_secs_f64(),
            r.first,
            r.incomplete
                .as_ref()
                .map(|i| format!(" incomplete: {i}"))
                .unwrap_or_default()
        );
        if r.first_hit.is_none() {
            bad.push(format!(
                "{} {:?}: no diagnosis names a fault",
                r.version, r.encoding
            ));
        }
        if r.single_fault && !r.single_hit && !OUT_OF_BOUNDS.contains(&r.version.as_str()) {
            bad.push(format!(
                "{} {:?}: no diagnosis of one statement names the fault",
                r.version, r.encoding
            ));
        }
    }
    println!("total {:.1}s", start.elapsed().as_secs_f64());
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn out_of_bounds_versions_fail_with_runtime_errors() {
    let oracle = compile(&tcas().join("tcas.c"));
    let tests = suite_of(&oracle);
    for v in OUT_OF_BOUNDS {
        let prog = version(v);
        let session = Session::new(&prog, &tests, Compare::Exact, Limits::default()).unwrap();
        for (t, run) in tests.iter().zip(&session.runs) {
            let runtime_error = matches!(
                run.verdict,
                Verdict::Fail(faultline_exec::FailReason::RuntimeError(_))
            );
            assert_eq!(
                runtime_error,
                t.args.len() >= 12,
                "{v} test {}: {:?}",
                t.name,
                run.verdict
            );
        }
    }
}

/// The diagnoses as sets of (line, text).
fn line_sets(prog: &Program, loc: &Localization) -> Vec<Vec<(u32, String)>> {
    loc.diagnoses
        .iter()
        .map(|d| {
            d.stmts
                .iter()
                .map(|s| (prog.stmt(*s).loc.line, prog.stmt(*s).text.clone()))
                .collect()
        })
        .collect()
}

fn owned(v: &[(u32, &str)]) -> Vec<(u32, String)> {
    v.iter().map(|(l, t)| (*l, t.to_string())).collect()
}

/// v38 declares `Positive_RA_Alt_Thresh[3]` (line 27) and writes index 3
/// (line 53). Every run with 12 or more arguments ends in the out-of-bounds
/// write, so every diagnosis relaxes line 53 (a relaxed statement computes
/// any value but performs no undefined behaviour: the invalid write is
/// dropped). Dropping it alone leaves `ALIM` reading past the array for
/// layer 3, so the first diagnoses add ALIM's read at line 58 (both are
/// accepted use sites of the faulty declaration), or the returns that
/// carry the value out.
#[test]
fn v38_reports_the_write_and_the_read_of_the_short_array() {
    let oracle = compile(&tcas().join("tcas.c"));
    let tests = suite_of(&oracle);
    let prog = version("v38");
    let session = Session::new(&prog, &tests, Compare::Exact, Limits::default()).unwrap();
    assert_eq!(session.failing.len(), 1578);
    let write = (53, "Positive_RA_Alt_Thresh[3] = 740;");
    let read = (58, "return Positive_RA_Alt_Thresh[Alt_Layer_Value];");
    for encoding in [Encoding::Full, Encoding::Flow] {
        let loc = localize(&session, encoding, Combine::Mbd, &options(3));
        assert_eq!(loc.incomplete, None, "{encoding:?}");
        let sets = line_sets(&prog, &loc);
        // The three pairs, in the order of their plausibility (which
        // depends on the values the dropped write is given).
        let first: std::collections::BTreeSet<_> = sets[..3].iter().cloned().collect();
        assert_eq!(
            first,
            [
                owned(&[write, read]),
                owned(&[write, (141, "return alt_sep;")]),
                owned(&[write, (171, r#"fprintf(stdout, "%d\n", alt_sep_test());"#)]),
            ]
            .into_iter()
            .collect(),
            "{encoding:?}"
        );
        assert!(
            sets.iter().all(|d| d.contains(&owned(&[write])[0])),
            "{encoding:?}: every diagnosis drops the invalid write"
        );
        assert!(sets.iter().skip(3).all(|d| d.len() == 3), "{encoding:?}");
        if encoding == Encoding::Full {
            assert_eq!(sets.len(), 47, "full+mbd reports 47 diagnoses on v38");
        }
    }
    // Neither statement alone explains the failures.
    let opts = options(3);
    let mut engine = faultline_diagnose::engine::Engine::new(&session, opts, Encoding::Full);
    for one in [write, read] {
        let d = set(&prog, &[one]);
        assert!(!engine.explains_all(&d).unwrap(), "{}", show(&prog, &d));
    }
}

/// v33 moves the four thresholds one index up (lines 50-53): index 4 is out
/// of bounds. Every diagnosis relaxes line 53; the ones of two statements add
/// a statement that can restore every output on its own once the invalid
/// write is dropped.
#[test]
fn v33_reports_the_out_of_bounds_write_in_every_diagnosis() {
    let oracle = compile(&tcas().join("tcas.c"));
    let tests = suite_of(&oracle);
    let prog = version("v33");
    let session = Session::new(&prog, &tests, Compare::Exact, Limits::default()).unwrap();
    assert_eq!(session.failing.len(), 1578);
    let write = (53, "Positive_RA_Alt_Thresh[4] = 740;");
    let loc = localize(&session, Encoding::Full, Combine::Mbd, &options(3));
    assert_eq!(loc.incomplete, None);
    let sets = line_sets(&prog, &loc);
    // The pairs, in the order of their plausibility (which depends on the
    // values the dropped write is given).
    let pairs: std::collections::BTreeSet<Vec<(u32, String)>> =
        sets.iter().filter(|d| d.len() == 2).cloned().collect();
    assert_eq!(
        pairs,
        [
            owned(&[
                write,
                (58, "return Positive_RA_Alt_Thresh[Alt_Layer_Value];")
            ]),
            owned(&[
                write,
                (104, "return (Own_Tracked_Alt < Other_Tracked_Alt);")
            ]),
            owned(&[
                write,
                (
                    126,
                    "need_upward_RA = Non_Crossing_Biased_Climb() && Own_Below_Threat();"
                )
            ]),
            owned(&[write, (141, "return alt_sep;")]),
            owned(&[write, (171, r#"fprintf(stdout, "%d\n", alt_sep_test());"#)]),
        ]
        .into_iter()
        .collect::<std::collections::BTreeSet<_>>()
    );
    assert!(
        sets[..5].iter().all(|d| d.len() == 2),
        "the pairs come first"
    );
    assert!(sets.iter().all(|d| d.contains(&owned(&[write])[0])));
    assert_eq!(sets.len(), 61, "full+mbd reports 61 diagnoses on v33");
}
