//! CaFL on TCAS: every version, every failing test (tests/tcas/failing.tsv).
//!
//! Run (release, from the repository root):
//!
//!     cargo run --release -p faultline --example tcas_cafl
//!     cargo run --release -p faultline --example tcas_cafl -- v1 v2      # some versions
//!     cargo run --release -p faultline --example tcas_cafl -- --no-slicing --no-solver-pruning
//!
//! Per version: failing runs, runs whose tree holds a faulty line, the level of
//! the root cause (min/mean/max over runs), C% (share of the trace inside the
//! tree; and inside the nodes walked breadth first until the root cause),
//! lines inspected until the root cause (breadth first), and the mean time
//! per run (the test run, the model and the whole tree).
//! docs/benchmarks.md reports the numbers against the paper's Table III.

use faultline_diagnose::cafl::measure::{measure_run, RunStats};
use faultline_diagnose::cafl::wp::WpOptions;
use faultline_diagnose::cafl::CaflOptions;
use faultline_exec::{suite, Limits};
use std::path::{Path, PathBuf};

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

fn fmt(v: Option<f64>, d: usize) -> String {
    v.map_or("–".into(), |x| format!("{x:.d$}"))
}

fn parse_list(s: &str) -> Vec<u32> {
    s.split(',').filter_map(|x| x.trim().parse().ok()).collect()
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let tcas: PathBuf = root.join("tests/tcas");
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = CaflOptions {
        wp: WpOptions {
            slicing: !args.iter().any(|a| a == "--no-slicing"),
            pruning: !args.iter().any(|a| a == "--no-solver-pruning"),
        },
        ..CaflOptions::default()
    };
    let only: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let lines = suite::read_args_file(&tcas.join("universe.txt")).expect("universe.txt");
    let oracle = faultline_c::compile_file(&tcas.join("tcas.c")).expect("tcas.c");
    let tests = suite::with_oracle(lines, &oracle, "tcas.c", Limits::default()).expect("oracle");
    let faults = std::fs::read_to_string(tcas.join("faults.tsv")).expect("faults.tsv");
    let failing = std::fs::read_to_string(tcas.join("failing.tsv")).expect("failing.tsv");
    println!("| version | failing runs | fault in tree | level min/mean/max | C% tree | C% until fault | lines until fault | guided: reached | guided C% | guided lines | mean s/run |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let mut all: Vec<RunStats> = Vec::new();
    let mut version_lines: Vec<f64> = Vec::new();
    let mut version_level: Vec<f64> = Vec::new();
    let mut version_guided_lines: Vec<f64> = Vec::new();
    for row in faults
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let cols: Vec<&str> = row.split('\t').collect();
        let v = cols[0];
        if !only.is_empty() && !only.iter().any(|o| o.as_str() == v) {
            continue;
        }
        let mut faulty = parse_list(cols.get(1).copied().unwrap_or(""));
        faulty.extend(parse_list(cols.get(2).copied().unwrap_or("")));
        let fails: Vec<usize> = failing
            .lines()
            .find(|l| l.split('\t').next() == Some(v))
            .map(|l| parse_list(l.split('\t').nth(2).unwrap_or("")))
            .unwrap_or_default()
            .into_iter()
            .map(|i| i as usize - 1)
            .collect();
        let prog = faultline_c::compile_file(&tcas.join("versions").join(v).join("tcas.c"))
            .expect("version compiles");
        let runs: Vec<RunStats> = fails
            .iter()
            .map(|&i| measure_run(&prog, &tests[i], &faulty, &options, Some(&oracle)))
            .collect();
        let levels: Vec<f64> = runs.iter().filter_map(|r| r.level.map(f64::from)).collect();
        let found = levels.len();
        let lmin = runs.iter().filter_map(|r| r.level).min();
        let lmax = runs.iter().filter_map(|r| r.level).max();
        let tree: Vec<f64> = runs.iter().map(|r| 100.0 * r.share_tree).collect();
        let until: Vec<f64> = runs
            .iter()
            .filter_map(|r| r.share_until.map(|x| 100.0 * x))
            .collect();
        let insp: Vec<f64> = runs
            .iter()
            .filter_map(|r| r.lines_until.map(|x| x as f64))
            .collect();
        let g_share: Vec<f64> = runs
            .iter()
            .filter_map(|r| r.guided.map(|w| 100.0 * w.share))
            .collect();
        let g_lines: Vec<f64> = runs
            .iter()
            .filter_map(|r| r.guided.map(|w| w.lines as f64))
            .collect();
        if let Some(l) = mean(&g_lines) {
            version_guided_lines.push(l);
        }
        let secs: Vec<f64> = runs.iter().map(|r| r.seconds).collect();
        let errors = runs.iter().filter(|r| r.error.is_some()).count();
        if let Some(l) = mean(&insp) {
            version_lines.push(l);
        }
        if let Some(l) = mean(&levels) {
            version_level.push(l);
        }
        println!(
            "| {v} | {} | {found}{} | {}/{}/{} | {} | {} | {} | {} | {} | {} | {} |",
            runs.len(),
            if errors > 0 {
                format!(" ({errors} errors)")
            } else {
                String::new()
            },
            lmin.map_or("–".into(), |x| x.to_string()),
            fmt(mean(&levels), 2),
            lmax.map_or("–".into(), |x| x.to_string()),
            fmt(mean(&tree), 2),
            fmt(mean(&until), 2),
            fmt(mean(&insp), 2),
            g_lines.len(),
            fmt(mean(&g_share), 2),
            fmt(mean(&g_lines), 2),
            fmt(mean(&secs), 4),
        );
        all.extend(runs);
    }
    let found = all.iter().filter(|r| r.level.is_some()).count();
    let tree: Vec<f64> = all.iter().map(|r| 100.0 * r.share_tree).collect();
    let until: Vec<f64> = all
        .iter()
        .filter_map(|r| r.share_until.map(|x| 100.0 * x))
        .collect();
    let secs: Vec<f64> = all.iter().map(|r| r.seconds).collect();
    let path: Vec<f64> = all
        .iter()
        .filter_map(|r| r.share_path.map(|x| 100.0 * x))
        .collect();
    println!();
    let guided: Vec<f64> = all
        .iter()
        .filter_map(|r| r.guided.map(|w| 100.0 * w.share))
        .collect();
    println!(
        "guided: fault reached in {} runs; mean C% {}; mean lines (mean of versions) {}; \
         mean C% on the path from the root to the fault {}",
        guided.len(),
        fmt(mean(&guided), 2),
        fmt(mean(&version_guided_lines), 2),
        fmt(mean(&path), 2),
    );
    println!(
        "all: {} runs, fault in tree in {found}; mean C% tree {}; mean C% until fault {}; \
         mean lines until fault (mean of versions) {}; mean level (mean of versions) {}; mean s/run {}",
        all.len(),
        fmt(mean(&tree), 2),
        fmt(mean(&until), 2),
        fmt(mean(&version_lines), 2),
        fmt(mean(&version_level), 2),
        fmt(mean(&secs), 4),
    );
}
