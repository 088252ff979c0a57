//! Measuring CaFL on a benchmark version: for each failing run, whether the
//! tree reaches a faulty line, at which level, how much of the trace the tree
//! (and the part walked breadth first until the fault) holds, how many lines a
//! user inspects until the fault, and the time.

use super::guided::{walk, Intended, Walk};
use super::{CaflOptions, Explainer};
use faultline_exec::{Compare, Limits, TestCase};
use faultline_ir::Program;
use std::collections::BTreeSet;
use std::time::Instant;

/// One failing run's numbers.
#[derive(Clone, Debug, serde::Serialize)]
pub struct RunStats {
    pub test: String,
    /// The lowest level of a node whose cause holds a faulty line.
    pub level: Option<u32>,
    /// The share of the trace's instances in the whole tree.
    pub share_tree: f64,
    /// The share of the trace's instances in the nodes walked breadth first
    /// up to and including the first holding a faulty line.
    pub share_until: Option<f64>,
    /// Distinct lines inspected, breadth first, up to the first faulty one.
    pub lines_until: Option<usize>,
    /// The share of the trace's instances on the path from the root to the
    /// shallowest node holding a faulty line.
    pub share_path: Option<f64>,
    /// What a user with perfect feedback reads until the fault (with a
    /// reference program; see [`super::guided`]).
    pub guided: Option<Walk>,
    pub nodes: usize,
    pub seconds: f64,
    pub error: Option<String>,
}

/// Explains one failing run and measures it against the faulty lines; with
/// `reference` (the intended program), also the guided user's walk.
pub fn measure_run(
    prog: &Program,
    test: &TestCase,
    faulty: &[u32],
    options: &CaflOptions,
    reference: Option<&Program>,
) -> RunStats {
    let start = Instant::now();
    let ex = Explainer::new(
        prog,
        test,
        Compare::Exact,
        Limits::default(),
        options.clone(),
    );
    let seconds = start.elapsed().as_secs_f64();
    let ex = match ex {
        Ok(ex) => ex,
        Err(e) => {
            return RunStats {
                test: test.name.clone(),
                level: None,
                share_tree: 0.0,
                share_until: None,
                lines_until: None,
                share_path: None,
                guided: None,
                nodes: 0,
                seconds,
                error: Some(e),
            }
        }
    };
    let holds = |n: usize| {
        ex.nodes[n]
            .cause
            .iter()
            .any(|&s| faulty.contains(&ex.line(s)))
    };
    let level = (0..ex.nodes.len())
        .filter(|&n| holds(n))
        .map(|n| ex.nodes[n].level)
        .min();
    // Breadth first: nodes by level, then creation order.
    let mut order: Vec<usize> = (0..ex.nodes.len()).collect();
    order.sort_by_key(|&n| (ex.nodes[n].level, n));
    let mut inside = BTreeSet::new();
    let mut share_until = None;
    for n in order {
        inside.extend(ex.nodes[n].cause.iter().copied());
        if holds(n) {
            share_until = Some(inside.len() as f64 / ex.stats.trace_instances.max(1) as f64);
            break;
        }
    }
    let share_path = (0..ex.nodes.len())
        .filter(|&n| holds(n))
        .min_by_key(|&n| (ex.nodes[n].level, n))
        .map(|mut n| {
            let mut on_path = BTreeSet::new();
            loop {
                on_path.extend(ex.nodes[n].cause.iter().copied());
                match ex.nodes[n].parent {
                    Some(p) => n = p,
                    None => break,
                }
            }
            on_path.len() as f64 / ex.stats.trace_instances.max(1) as f64
        });
    let guided = reference
        .and_then(|r| Intended::new(r, test).ok())
        .and_then(|intended| walk(&ex, &intended.benign_nodes(&ex), faulty));
    RunStats {
        test: test.name.clone(),
        share_path,
        guided,
        level,
        share_tree: ex.share(),
        share_until,
        lines_until: ex.lines_until(faulty),
        nodes: ex.nodes.len(),
        seconds,
        error: None,
    }
}
