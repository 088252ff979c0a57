//! CaFL on a CI-sized sample of TCAS (the whole benchmark is
//! `cargo run --release -p faultline --example tcas_cafl`): the faulty line
//! is in the tree with and without slicing, and solver pruning does not
//! change the tree.

use faultline_diagnose::cafl::guided::Intended;
use faultline_diagnose::cafl::measure::measure_run;
use faultline_diagnose::cafl::wp::WpOptions;
use faultline_diagnose::cafl::{CaflOptions, Explainer};
use faultline_exec::{suite, Compare, Limits};
use std::path::Path;

#[test]
fn faulty_line_in_the_tree_and_pruning_keeps_it() {
    let tcas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/tcas");
    let lines = suite::read_args_file(&tcas.join("universe.txt")).expect("universe.txt");
    let oracle = faultline_c::compile_file(&tcas.join("tcas.c")).expect("tcas.c");
    // (version, faulty line, failing tests: 1-based lines of universe.txt, the first few of failing.tsv)
    let sample: [(&str, u32, &[usize]); 3] = [
        ("v1", 80, &[1, 416, 424]),
        ("v2", 68, &[30, 165, 212]),
        ("v3", 125, &[15, 33, 37]),
    ];
    let wanted: Vec<(String, Vec<String>)> = sample
        .iter()
        .flat_map(|(_, _, ts)| ts.iter().map(|&t| lines[t - 1].clone()))
        .collect();
    let tests = suite::with_oracle(wanted, &oracle, "tcas.c", Limits::default()).expect("oracle");
    let mut k = 0;
    for (v, faulty, ts) in sample {
        let prog = faultline_c::compile_file(&tcas.join("versions").join(v).join("tcas.c"))
            .expect("compiles");
        for _ in ts {
            let test = &tests[k];
            k += 1;
            let stats = measure_run(&prog, test, &[faulty], &CaflOptions::default(), None);
            assert!(
                stats.error.is_none(),
                "{v} {}: {:?}",
                test.name,
                stats.error
            );
            assert!(
                stats.level.is_some(),
                "{v} {}: faulty line {faulty} not in the tree",
                test.name
            );
            let shape = |o: CaflOptions| {
                let ex = Explainer::new(&prog, test, Compare::Exact, Limits::default(), o)
                    .expect("explains");
                ex.nodes
                    .iter()
                    .map(|n| (n.id.clone(), n.cause.clone()))
                    .collect::<Vec<_>>()
            };
            // Solver pruning never changes the tree (with or without slicing).
            for slicing in [true, false] {
                let with = |pruning| {
                    shape(CaflOptions {
                        wp: WpOptions { slicing, pruning },
                        ..CaflOptions::default()
                    })
                };
                assert_eq!(
                    with(true),
                    with(false),
                    "{v} {}: slicing {slicing}",
                    test.name
                );
            }
            // Slicing can change a cause (a different first unsatisfiable
            // point, hence another minimal core), never whether the fault is found.
            let unsliced = CaflOptions {
                wp: WpOptions {
                    slicing: false,
                    pruning: true,
                },
                ..CaflOptions::default()
            };
            let stats = measure_run(&prog, test, &[faulty], &unsliced, None);
            assert!(stats.level.is_some(), "{v} {}: unsliced", test.name);
        }
    }
}

#[test]
fn designated_correct_functions_are_atomic() {
    let tcas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/tcas");
    let lines = suite::read_args_file(&tcas.join("universe.txt")).expect("universe.txt");
    let oracle = faultline_c::compile_file(&tcas.join("tcas.c")).expect("tcas.c");
    let tests = suite::with_oracle(vec![lines[0].clone()], &oracle, "tcas.c", Limits::default())
        .expect("oracle");
    let prog = faultline_c::compile_file(&tcas.join("versions/v1/tcas.c")).expect("v1 compiles");
    let lines_of = |o: CaflOptions| {
        let ex = Explainer::new(&prog, &tests[0], Compare::Exact, Limits::default(), o)
            .expect("explains");
        let mut l: Vec<u32> = ex
            .nodes
            .iter()
            .flat_map(|n| n.cause.iter().map(|&s| ex.line(s)))
            .collect();
        l.sort_unstable();
        l.dedup();
        l
    };
    // ALIM (line 63) and Own_Below_Threat (line 109) explain part of the failure...
    let plain = lines_of(CaflOptions::default());
    assert!(plain.contains(&63) && plain.contains(&109), "{plain:?}");
    // ...unless designated correct: their calls take the run's return values.
    let atomic = lines_of(CaflOptions {
        designated_correct: vec!["ALIM".into(), "Own_Below_Threat".into()],
        ..CaflOptions::default()
    });
    assert!(
        !atomic.contains(&63) && !atomic.contains(&109),
        "{atomic:?}"
    );
    // The faulty line 80 is still explained.
    assert!(atomic.contains(&80), "{atomic:?}");
}

/// The guided user (perfect feedback from the reference program's run) on
/// v2's first failing test: the unguided walk reads the level-1 causes of
/// conditions that went the intended way before the level-2 root cause; the
/// guided user prunes them and reads fewer lines to the same fault.
#[test]
fn guided_user_prunes_conditions_that_went_the_intended_way() {
    let tcas = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/tcas");
    let lines = suite::read_args_file(&tcas.join("universe.txt")).expect("universe.txt");
    let oracle = faultline_c::compile_file(&tcas.join("tcas.c")).expect("tcas.c");
    let tests = suite::with_oracle(
        vec![lines[29].clone()],
        &oracle,
        "tcas.c",
        Limits::default(),
    )
    .expect("oracle");
    let prog = faultline_c::compile_file(&tcas.join("versions/v2/tcas.c")).expect("v2 compiles");
    let stats = measure_run(
        &prog,
        &tests[0],
        &[68],
        &CaflOptions::default(),
        Some(&oracle),
    );
    let guided = stats.guided.expect("the guided walk reaches the fault");
    assert_eq!(stats.level, Some(2));
    assert_eq!(guided.level, 2);
    assert_eq!((stats.lines_until, guided.lines), (Some(16), 13));
    assert_eq!(
        (stats.share_until, guided.share),
        (Some(19.0 / 49.0), 16.0 / 49.0)
    );
    let ex = Explainer::new(
        &prog,
        &tests[0],
        Compare::Exact,
        Limits::default(),
        CaflOptions::default(),
    )
    .expect("explains");
    let benign: Vec<&str> = Intended::new(&oracle, &tests[0])
        .expect("the reference runs")
        .benign_nodes(&ex)
        .into_iter()
        .map(|n| ex.nodes[n].id.as_str())
        .collect();
    // Why line 129's condition was true, and why line 133's was false: the
    // reference run decided both the same way. Why `upward_preferred` (line
    // 78, computed from the faulty line 68) was true is not benign.
    assert_eq!(benign, ["0.0.0", "0.0.2"]);
}
