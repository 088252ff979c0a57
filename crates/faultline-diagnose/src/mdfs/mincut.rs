//! Minimum vertex cuts by node-splitting max-flow (Dinic).
//!
//! Every node `v` becomes `v_in → v_out` with capacity 1 when it may be cut
//! (infinite otherwise); every edge `u → v` becomes `u_out → v_in` with
//! infinite capacity. A maximum flow of value k from the sources to the sinks
//! is k vertex-disjoint paths, and every minimum vertex cut takes exactly one
//! cuttable node of each path. Among the minimum cuts, the one with the
//! smallest total (equivalently average) distance wins, then the one whose
//! members come latest (largest node numbers, compared from the largest).
//! Candidates are the products of the paths' nodes when there are at most
//! [`CANDIDATE_BUDGET`] of them, else the two canonical cuts (closest to the
//! sources and closest to the sinks).

use std::collections::VecDeque;

/// Cut candidates enumerated at most.
pub const CANDIDATE_BUDGET: usize = 20_000;

/// A cut problem on a directed graph of `n` nodes.
pub struct CutProblem<'a> {
    pub n: usize,
    pub edges: &'a [(usize, usize)],
    pub sources: &'a [usize],
    pub sinks: &'a [usize],
    /// Whether each node may be cut (sources and sinks never are).
    pub cuttable: &'a [bool],
    /// Tie-break: each node's distance to the failure.
    pub distance: &'a [u32],
}

struct Flow {
    head: Vec<usize>,
    to: Vec<usize>,
    cap: Vec<u64>,
    next: Vec<usize>,
}

const NIL: usize = usize::MAX;

impl Flow {
    fn new(n: usize) -> Flow {
        Flow {
            head: vec![NIL; n],
            to: Vec::new(),
            cap: Vec::new(),
            next: Vec::new(),
        }
    }
    fn add(&mut self, u: usize, v: usize, c: u64) {
        for (a, b, cc) in [(u, v, c), (v, u, 0)] {
            self.to.push(b);
            self.cap.push(cc);
            self.next.push(self.head[a]);
            self.head[a] = self.to.len() - 1;
        }
    }
    fn levels(&self, s: usize) -> Vec<u32> {
        let mut lvl = vec![u32::MAX; self.head.len()];
        lvl[s] = 0;
        let mut q = VecDeque::from([s]);
        while let Some(u) = q.pop_front() {
            let mut e = self.head[u];
            while e != NIL {
                let v = self.to[e];
                if self.cap[e] > 0 && lvl[v] == u32::MAX {
                    lvl[v] = lvl[u] + 1;
                    q.push_back(v);
                }
                e = self.next[e];
            }
        }
        lvl
    }
    fn push(&mut self, u: usize, t: usize, f: u64, lvl: &[u32], it: &mut [usize]) -> u64 {
        if u == t {
            return f;
        }
        while it[u] != NIL {
            let e = it[u];
            let v = self.to[e];
            if self.cap[e] > 0 && lvl[v] == lvl[u].wrapping_add(1) {
                let d = self.push(v, t, f.min(self.cap[e]), lvl, it);
                if d > 0 {
                    self.cap[e] -= d;
                    self.cap[e ^ 1] += d;
                    return d;
                }
            }
            it[u] = self.next[e];
        }
        0
    }
    fn max_flow(&mut self, s: usize, t: usize, limit: u64) -> u64 {
        let mut total = 0;
        loop {
            let lvl = self.levels(s);
            if lvl[t] == u32::MAX {
                return total;
            }
            let mut it = self.head.clone();
            loop {
                let f = self.push(s, t, u64::MAX, &lvl, &mut it);
                if f == 0 {
                    break;
                }
                total += f;
                if total >= limit {
                    return total;
                }
            }
        }
    }
    /// Nodes reachable from `s` in the residual graph.
    fn residual_from(&self, s: usize) -> Vec<bool> {
        let mut seen = vec![false; self.head.len()];
        seen[s] = true;
        let mut q = vec![s];
        while let Some(u) = q.pop() {
            let mut e = self.head[u];
            while e != NIL {
                if self.cap[e] > 0 && !seen[self.to[e]] {
                    seen[self.to[e]] = true;
                    q.push(self.to[e]);
                }
                e = self.next[e];
            }
        }
        seen
    }
    /// Nodes that reach `t` in the residual graph.
    fn residual_to(&self, t: usize) -> Vec<bool> {
        let n = self.head.len();
        let mut seen = vec![false; n];
        seen[t] = true;
        // Reverse residual edges: u → v with cap > 0 means u reaches v.
        let mut radj: Vec<Vec<usize>> = vec![Vec::new(); n];
        for u in 0..n {
            let mut e = self.head[u];
            while e != NIL {
                if self.cap[e] > 0 {
                    radj[self.to[e]].push(u);
                }
                e = self.next[e];
            }
        }
        let mut q = vec![t];
        while let Some(v) = q.pop() {
            for &u in &radj[v] {
                if !seen[u] {
                    seen[u] = true;
                    q.push(u);
                }
            }
        }
        seen
    }
}

/// A minimum vertex cut separating the sources from the sinks, members
/// sorted; `None` when the sinks are unreachable or no finite cut exists (a
/// source reaches a sink through uncuttable nodes only).
pub fn min_vertex_cut(p: &CutProblem) -> Option<Vec<usize>> {
    let n = p.n;
    let is_src = mark(n, p.sources);
    let is_snk = mark(n, p.sinks);
    let inf = n as u64 + 1;
    let (s, t) = (2 * n, 2 * n + 1);
    let mut g = Flow::new(2 * n + 2);
    let mut inner = vec![NIL; n];
    for v in 0..n {
        let c = if p.cuttable[v] && !is_src[v] && !is_snk[v] {
            1
        } else {
            inf
        };
        inner[v] = g.to.len();
        g.add(2 * v, 2 * v + 1, c);
    }
    for &(u, v) in p.edges {
        g.add(2 * u + 1, 2 * v, inf);
    }
    for &x in p.sources {
        g.add(s, 2 * x, inf);
    }
    for &x in p.sinks {
        g.add(2 * x + 1, t, inf);
    }
    let k = g.max_flow(s, t, inf);
    if k == 0 || k >= inf {
        return None;
    }
    let k = k as usize;
    // Canonical cuts.
    let from_s = g.residual_from(s);
    let to_t = g.residual_to(t);
    let src_side: Vec<usize> = (0..n)
        .filter(|&v| from_s[2 * v] && !from_s[2 * v + 1])
        .collect();
    let snk_side: Vec<usize> = (0..n)
        .filter(|&v| to_t[2 * v + 1] && !to_t[2 * v])
        .collect();
    let mut candidates = vec![src_side, snk_side];
    // Flow paths: the cuttable nodes each carries.
    let paths = flow_paths(&g, n, s, t, &inner, k);
    let product: usize = paths
        .iter()
        .map(|p| p.len())
        .try_fold(1usize, |a, b| a.checked_mul(b))
        .unwrap_or(usize::MAX);
    if paths.len() == k && product <= CANDIDATE_BUDGET {
        let mut idx = vec![0usize; k];
        'outer: loop {
            let mut c: Vec<usize> = idx.iter().zip(&paths).map(|(&i, p)| p[i]).collect();
            c.sort_unstable();
            if separates(p, &c) {
                candidates.push(c);
            }
            for j in (0..k).rev() {
                idx[j] += 1;
                if idx[j] < paths[j].len() {
                    continue 'outer;
                }
                idx[j] = 0;
            }
            break;
        }
    }
    candidates.retain(|c| c.len() == k);
    candidates.into_iter().min_by(|a, b| {
        let da: u64 = a.iter().map(|&v| p.distance[v] as u64).sum();
        let db: u64 = b.iter().map(|&v| p.distance[v] as u64).sum();
        da.cmp(&db).then_with(|| {
            let mut ra = a.clone();
            let mut rb = b.clone();
            ra.reverse();
            rb.reverse();
            rb.cmp(&ra)
        })
    })
}

fn mark(n: usize, l: &[usize]) -> Vec<bool> {
    let mut m = vec![false; n];
    for &x in l {
        m[x] = true;
    }
    m
}

/// Decomposes the flow into paths; per path, the cut-capacity nodes it crosses.
fn flow_paths(
    g: &Flow,
    n: usize,
    s: usize,
    t: usize,
    inner: &[usize],
    k: usize,
) -> Vec<Vec<usize>> {
    // Flow on edge e (forward edges have even index): the reverse edge's capacity.
    let mut flow: Vec<u64> = (0..g.to.len())
        .map(|e| if e & 1 == 0 { g.cap[e ^ 1] } else { 0 })
        .collect();
    let mut paths = Vec::new();
    for _ in 0..k {
        let mut u = s;
        let mut path = Vec::new();
        let mut steps = 0;
        while u != t && steps <= 2 * n + 2 {
            steps += 1;
            let mut e = g.head[u];
            let mut found = NIL;
            while e != NIL {
                if e & 1 == 0 && flow[e] > 0 {
                    found = e;
                    break;
                }
                e = g.next[e];
            }
            if found == NIL {
                return Vec::new();
            }
            flow[found] -= 1;
            if u < 2 * n && u & 1 == 0 && inner[u / 2] == found {
                let v = u / 2;
                // Only unit-capacity (cuttable) nodes can be cut.
                if g.cap[found] + g.cap[found ^ 1] == 1 {
                    path.push(v);
                }
            }
            u = g.to[found];
        }
        if u != t {
            return Vec::new();
        }
        paths.push(path);
    }
    paths
}

/// Whether removing `cut` disconnects every sink from every source.
pub fn separates(p: &CutProblem, cut: &[usize]) -> bool {
    let removed = mark(p.n, cut);
    let is_snk = mark(p.n, p.sinks);
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); p.n];
    for &(u, v) in p.edges {
        adj[u].push(v);
    }
    let mut seen = vec![false; p.n];
    let mut q: Vec<usize> = p.sources.to_vec();
    for &x in p.sources {
        seen[x] = true;
    }
    while let Some(u) = q.pop() {
        if is_snk[u] {
            return false;
        }
        for &v in &adj[u] {
            if !seen[v] && !removed[v] {
                seen[v] = true;
                q.push(v);
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(
        n: usize,
        edges: &[(usize, usize)],
        cuttable: &[usize],
        distance: &[u32],
    ) -> Option<Vec<usize>> {
        let mut c = vec![false; n];
        for &x in cuttable {
            c[x] = true;
        }
        min_vertex_cut(&CutProblem {
            n,
            edges,
            sources: &[0],
            sinks: &[n - 1],
            cuttable: &c,
            distance,
        })
    }

    #[test]
    fn a_single_articulation_node() {
        // 0 → 1 → 2 → {3, 4} → 5: node 2 separates; 1 too, but 2 is closer.
        let e = [(0, 1), (1, 2), (2, 3), (2, 4), (3, 5), (4, 5)];
        let d = [4, 3, 2, 1, 1, 0];
        assert_eq!(cut(6, &e, &[1, 2, 3, 4], &d), Some(vec![2]));
        // Without 2 cuttable, the pair {3, 4} is the only cut of size 2 left
        // besides {1}: {1} wins by size.
        assert_eq!(cut(6, &e, &[1, 3, 4], &d), Some(vec![1]));
    }

    #[test]
    fn two_disjoint_paths_and_ties_by_distance() {
        // 0 → 1 → 2 → 5, 0 → 3 → 4 → 5: cuts {1,3}, {1,4}, {2,3}, {2,4}.
        let e = [(0, 1), (1, 2), (2, 5), (0, 3), (3, 4), (4, 5)];
        let d = [3, 2, 1, 2, 1, 0];
        assert_eq!(cut(6, &e, &[1, 2, 3, 4], &d), Some(vec![2, 4]));
        // Equal distances everywhere: the latest members win.
        let d = [1, 1, 1, 1, 1, 0];
        assert_eq!(cut(6, &e, &[1, 2, 3, 4], &d), Some(vec![2, 4]));
    }

    #[test]
    fn a_cross_edge_removes_candidates() {
        // 0 → 1 → 2 → 5, 0 → 3 → 4 → 5, and 1 → 4: {2, 3} no longer separates.
        let e = [(0, 1), (1, 2), (2, 5), (0, 3), (3, 4), (4, 5), (1, 4)];
        let d = [3, 2, 1, 2, 1, 0];
        assert_eq!(cut(6, &e, &[1, 2, 3, 4], &d), Some(vec![2, 4]));
        // Distances favour the early nodes: {1, 3} (sum 2) beats {1, 4}
        // (sum 3) and {2, 4} (sum 4); {2, 3} does not separate.
        let d = [3, 1, 2, 1, 2, 0];
        assert_eq!(cut(6, &e, &[1, 2, 3, 4], &d), Some(vec![1, 3]));
    }

    #[test]
    fn no_cut_when_a_source_touches_a_sink_or_nothing_connects() {
        let d = [1, 1, 0];
        assert_eq!(cut(3, &[(0, 2), (0, 1), (1, 2)], &[1], &d), None);
        assert_eq!(cut(3, &[(0, 1)], &[1], &d), None);
        // Only uncuttable nodes between: no finite cut.
        assert_eq!(cut(3, &[(0, 1), (1, 2)], &[], &d), None);
    }
}
