//! A user who gives CaFL perfect feedback, for measuring the method the way
//! it is meant to be used (interactively): the user knows the intended
//! behaviour, here the reference program's run on the same test. Walking the
//! tree breadth first, the user reads each node's critical condition; when the
//! reference run took the same outcome at the same instance, the condition
//! went the intended way and the user marks the cause benign without reading
//! it (its subtree is pruned); otherwise the user reads the cause and, when no
//! faulty line is in it, marks its statements correct and goes on.
//!
//! Instances are matched between the two programs by source line (the lines
//! the two files share, by a longest common subsequence of their texts),
//! column and occurrence in the run; a condition on a line the reference does
//! not have, or an instance the reference run did not reach, is never benign.

use super::Explainer;
use faultline_exec::interp::{ExecOptions, Executable};
use faultline_exec::trace::{Outcome, Trace};
use faultline_exec::{Limits, TestCase};
use faultline_ir::{Branch, Program};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// The reference program's branch outcomes on one test.
pub struct Intended<'r> {
    reference: &'r Program,
    outcomes: HashMap<(u32, u32, u32), Branch>,
}

/// Each condition instance of a trace by (line, column, occurrence).
fn outcomes(prog: &Program, trace: &Trace) -> HashMap<(u32, u32, u32), Branch> {
    let mut seen: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut out = HashMap::new();
    for ev in &trace.events {
        if let Outcome::Branch(b) = ev.outcome {
            let loc = prog.stmt(ev.inst.stmt).loc;
            let k = seen.entry((loc.line, loc.col)).or_insert(0);
            out.insert((loc.line, loc.col, *k), b);
            *k += 1;
        }
    }
    out
}

/// The text of the program's main file.
fn main_text(p: &Program) -> &str {
    p.files.first().map_or("", |f| f.text.as_str())
}

/// For each line of `a` (1-based) that is also a line of `b` in a longest
/// common subsequence of the two texts' lines, its line in `b`.
pub fn line_map(a: &str, b: &str) -> BTreeMap<u32, u32> {
    let a: Vec<&str> = a.lines().collect();
    let b: Vec<&str> = b.lines().collect();
    let (n, m) = (a.len(), b.len());
    // lcs[i][j]: length of a longest common subsequence of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let mut out = BTreeMap::new();
    while i < n && j < m {
        if a[i] == b[j] {
            out.insert(i as u32 + 1, j as u32 + 1);
            i += 1;
            j += 1;
        } else if lcs[i + 1][j] >= lcs[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

impl<'r> Intended<'r> {
    /// Runs `reference` on `test` with a trace.
    pub fn new(reference: &'r Program, test: &TestCase) -> Result<Intended<'r>, String> {
        let exe =
            Executable::new(reference).map_err(|e| format!("error: {}", e.describe(reference)))?;
        let execution = exe.run(
            test.input(),
            ExecOptions {
                record_trace: true,
                limits: Limits::default(),
                hooks: None,
            },
        );
        let trace = execution.trace.unwrap_or_default();
        Ok(Intended {
            reference,
            outcomes: outcomes(reference, &trace),
        })
    }

    /// The nodes of `ex`'s tree whose critical condition went the intended
    /// way.
    pub fn benign_nodes(&self, ex: &Explainer) -> BTreeSet<usize> {
        let lines = line_map(main_text(ex.prog), main_text(self.reference));
        let ours = outcomes(ex.prog, &ex.trace);
        // The key of each condition step of the run.
        let mut seen: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        let mut key_of = HashMap::new();
        for (i, ev) in ex.trace.events.iter().enumerate() {
            if let Outcome::Branch(_) = ev.outcome {
                let loc = ex.prog.stmt(ev.inst.stmt).loc;
                let k = seen.entry((loc.line, loc.col)).or_insert(0);
                key_of.insert(i, (loc.line, loc.col, *k));
                *k += 1;
            }
        }
        let mut benign = BTreeSet::new();
        for (n, node) in ex.nodes.iter().enumerate() {
            if node.parent.is_none() {
                continue;
            }
            let Some(&(line, col, k)) = key_of.get(&node.failure) else {
                continue;
            };
            let Some(&ref_line) = lines.get(&line) else {
                continue;
            };
            let taken = ours.get(&(line, col, k));
            let intended = self.outcomes.get(&(ref_line, col, k));
            if taken.is_some() && taken == intended {
                benign.insert(n);
            }
        }
        benign
    }
}

/// What the guided walk read until the first node whose cause holds a
/// faulty line: the share of the trace's instances and the distinct lines.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Walk {
    pub share: f64,
    pub lines: usize,
    pub level: u32,
}

/// Walks `ex`'s tree breadth first as the guided user does: a benign node
/// costs its condition instance and prunes its subtree; any other node costs
/// its cause. `None` when the walk never reaches a faulty line.
pub fn walk(ex: &Explainer, benign: &BTreeSet<usize>, faulty: &[u32]) -> Option<Walk> {
    let mut order: Vec<usize> = (0..ex.nodes.len()).collect();
    order.sort_by_key(|&n| (ex.nodes[n].level, n));
    let pruned = |mut n: usize| loop {
        match ex.nodes[n].parent {
            Some(p) if benign.contains(&p) => return true,
            Some(p) => n = p,
            None => return false,
        }
    };
    let mut read = BTreeSet::new();
    let mut lines = BTreeSet::new();
    for n in order {
        if pruned(n) {
            continue;
        }
        let node = &ex.nodes[n];
        if benign.contains(&n) {
            read.insert(node.failure);
            lines.insert(ex.line(node.failure));
            continue;
        }
        read.extend(node.cause.iter().copied());
        let mut cause: Vec<_> = node.cause.clone();
        cause.sort_unstable();
        for &s in &cause {
            let line = ex.line(s);
            lines.insert(line);
            if faulty.contains(&line) {
                return Some(Walk {
                    share: read.len() as f64 / ex.stats.trace_instances.max(1) as f64,
                    lines: lines.len(),
                    level: node.level,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::line_map;

    #[test]
    fn lines_are_matched_along_a_longest_common_subsequence() {
        let a = "a\nb\nX\nc\nd\n";
        let b = "a\nc\nY\nZ\nd\n";
        let map: Vec<(u32, u32)> = line_map(a, b).into_iter().collect();
        assert_eq!(map, [(1, 1), (4, 2), (5, 5)]);
    }
}
