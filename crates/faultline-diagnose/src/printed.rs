//! Output statements checked by their text alone.
//!
//! A statement whose only effect is the text it prints to stdout (a
//! `printf`, `puts` or `putchar` whose arguments store nothing, call no
//! program function and no library function with an effect) changes nothing
//! else when relaxed: the run keeps its path and every other value, and its
//! output is the run's own with that statement's instances printing other
//! text. Whether relaxing it makes a test pass is then a question about
//! strings: does the output the test's formula requires read as the run's
//! output with each of those instances' texts replaced? Answered by a search
//! over the instances' texts (milliseconds), instead of a focused formula
//! for each test (30 to 200 ms per test on `print_tokens2`, where the
//! statement to blame printed an extra line on 246 failing tests).
//!
//! Each instance may print what the formula lets a relaxed output statement
//! print whatever its format ([`faultline_smt::oracle::encode_outputs`]):
//! what it computed, nothing, or the expected output up to the end of a
//! line. A choice that makes the output right is replayed
//! ([`crate::witness::Witness::printed`]): the run is the evidence, as for
//! predicate switching. When no choice of texts at all (any text for every
//! instance) makes the output right, the statement is refuted on the test,
//! on any path (it cannot change the path). Otherwise (a fit only with texts
//! the formula does not allow, a search beyond its work bound) the formula
//! decides.

use faultline_exec::trace::Scope;
use faultline_exec::{ExecOptions, Executable, Hooks, Limits, Site, Termination, TestCase};
use faultline_ir::calls::{prints_to_stdout, without_effect};
use faultline_ir::visit::for_each_stmt;
use faultline_ir::{Expr, ExprKind, Program, Stmt, StmtId};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Steps (candidate offsets and bytes compared) one search may take before
/// it gives up and leaves the check to the formula.
const SEARCH_WORK: usize = 4_000_000;

/// How a statement whose only effect is what it prints is relaxed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Printer {
    /// An output statement: each instance may print other text.
    Output,
    /// A prints-only call ([`faultline_ir::CallSiteInfo::prints_only`]):
    /// each instance may be skipped, and then prints nothing.
    Call,
}

/// The statements whose only effect is what they print to stdout: output
/// statements whose arguments have no effect, and prints-only calls.
pub fn text_only(prog: &Program) -> HashMap<StmtId, Printer> {
    let mut out = HashMap::new();
    for f in &prog.functions {
        for_each_stmt(&f.body, &mut |s| {
            if let Stmt::Expr { id, expr } = s {
                if let Some(p) = printer(prog, expr) {
                    out.insert(*id, p);
                }
            }
        });
    }
    out
}

/// How statement expression `e` is relaxed if its only effect is what it
/// prints.
fn printer(prog: &Program, e: &Expr) -> Option<Printer> {
    match &e.kind {
        ExprKind::Builtin { func, args }
            if prints_to_stdout(*func, args) && args.iter().all(without_effect) =>
        {
            Some(Printer::Output)
        }
        ExprKind::Call { site, .. } if prog.call_sites[site.index()].prints_only => {
            Some(Printer::Call)
        }
        _ => None,
    }
}

/// One instance of the statement in a run: its context and where its text
/// is in the run's stdout.
#[derive(Clone, Debug)]
pub struct Segment {
    pub ctx: Vec<Scope>,
    pub start: usize,
    pub end: usize,
}

/// A run of a test with the instances of one output statement located in
/// its stdout.
#[derive(Clone, Debug)]
pub struct Printed {
    pub stdout: Vec<u8>,
    pub segments: Vec<Segment>,
}

/// Records where the instances of one statement print.
struct Recorder {
    stmt: StmtId,
    /// The instance whose text is being written, with its length.
    pending: Option<(Vec<Scope>, usize)>,
    segments: Vec<Segment>,
}

impl Hooks for Recorder {
    fn watches(&self, stmt: StmtId) -> bool {
        stmt == self.stmt
    }

    fn output(&mut self, site: &Site, computed: Vec<u8>) -> Vec<u8> {
        self.pending = Some((site.ctx.to_vec(), computed.len()));
        computed
    }

    fn keeps_printing(&mut self, stdout: &[u8]) -> bool {
        if let Some((ctx, len)) = self.pending.take() {
            self.segments.push(Segment {
                ctx,
                start: stdout.len() - len,
                end: stdout.len(),
            });
        }
        true
    }
}

/// Test `test` run with the instances of `stmt` located: `None` unless the
/// run exits normally, with at least one instance, each printing once.
pub fn record(exe: &Executable, test: &TestCase, stmt: StmtId, limits: Limits) -> Option<Printed> {
    let mut rec = Recorder {
        stmt,
        pending: None,
        segments: Vec::new(),
    };
    let exec = exe.run(
        test.input(),
        ExecOptions {
            record_trace: false,
            limits,
            hooks: Some(&mut rec),
        },
    );
    if !matches!(exec.termination, Termination::Exit(_)) || rec.segments.is_empty() {
        return None;
    }
    let mut seen = HashSet::new();
    if !rec.segments.iter().all(|s| seen.insert(&s.ctx)) {
        return None;
    }
    Some(Printed {
        stdout: exec.stdout,
        segments: rec.segments,
    })
}

/// What a search over the instances' texts found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Texts the formula allows (one per segment) that make the output the
    /// expected one.
    Texts(Vec<Vec<u8>>),
    /// No texts at all make it.
    Impossible,
    /// Only texts the formula does not allow make it, or the search reached
    /// its work bound.
    Unknown,
}

/// Whether the instances of `printed`, relaxed as `printer` relaxes them,
/// can print texts that make its stdout `expected` (see the module docs).
pub fn fit(expected: &[u8], printed: &Printed, printer: Printer) -> Fit {
    let segs = &printed.segments;
    let out = &printed.stdout;
    // The run's text between the instances: before the first, between
    // each two, after the last.
    let mut fixed: Vec<&[u8]> = Vec::with_capacity(segs.len() + 1);
    let mut at = 0;
    for s in segs {
        fixed.push(&out[at..s.start]);
        at = s.end;
    }
    fixed.push(&out[at..]);
    let computed: Vec<&[u8]> = segs.iter().map(|s| &out[s.start..s.end]).collect();
    let mut search = Search {
        expected,
        fixed: &fixed,
        computed: &computed,
        work: 0,
    };
    let first = match printer {
        Printer::Output => Ends::Lines,
        Printer::Call => Ends::Skip,
    };
    match search.run(first) {
        Ok(Some(ends)) => {
            let mut texts = Vec::with_capacity(ends.len());
            let mut q = fixed[0].len();
            for (i, e) in ends.into_iter().enumerate() {
                texts.push(expected[q..e].to_vec());
                q = e + fixed[i + 1].len();
            }
            Fit::Texts(texts)
        }
        // A skipped call prints nothing: no other text is allowed.
        Ok(None) if printer == Printer::Call => Fit::Impossible,
        Ok(None) => match search.run(Ends::Any) {
            Ok(None) => Fit::Impossible,
            _ => Fit::Unknown,
        },
        Err(()) => Fit::Unknown,
    }
}

/// The ends an instance's text may have: what it computed or nothing
/// (`Skip`), also up to a line's end (`Lines`), anywhere (`Any`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ends {
    Skip,
    Lines,
    Any,
}

/// A depth-first search for the end of each instance's text in the
/// expected output, each instance's preferred ends first.
struct Search<'a> {
    expected: &'a [u8],
    fixed: &'a [&'a [u8]],
    computed: &'a [&'a [u8]],
    work: usize,
}

impl Search<'_> {
    /// The end of each instance's text among `allowed`, `None` if there
    /// are none: of the choices that make the output right, one that
    /// changes the fewest instances' texts, the earliest in each instance's
    /// order of preference ([`Search::ends`]) among those. `Err` past the
    /// work bound.
    fn run(&mut self, allowed: Ends) -> Result<Option<Vec<usize>>, ()> {
        let e = self.expected;
        if !e.starts_with(self.fixed[0]) {
            return Ok(None);
        }
        let k = self.computed.len();
        if k == 0 {
            return Ok((e == self.fixed[0]).then(Vec::new));
        }
        // Forward, level by level: where each instance's text may start,
        // and its candidate ends from there.
        let mut levels: Vec<BTreeMap<usize, Vec<usize>>> = Vec::with_capacity(k);
        let mut starts = BTreeSet::from([self.fixed[0].len()]);
        for i in 0..k {
            let mut level = BTreeMap::new();
            let mut next = BTreeSet::new();
            for q in starts {
                let ends = self.ends(i, q, allowed)?;
                if i + 1 < k {
                    next.extend(ends.iter().map(|end| end + self.fixed[i + 1].len()));
                }
                level.insert(q, ends);
            }
            levels.push(level);
            starts = next;
        }
        // Backward: the fewest changed texts from each start on, and the
        // first end that achieves it.
        let mut best: Vec<HashMap<usize, (usize, usize)>> = vec![HashMap::new(); k];
        for i in (0..k).rev() {
            for (&q, ends) in &levels[i] {
                let mine = q + self.computed[i].len();
                let mut choice: Option<(usize, usize)> = None;
                for &end in ends {
                    let rest = match i + 1 < k {
                        true => match best[i + 1].get(&(end + self.fixed[i + 1].len())) {
                            Some(&(c, _)) => c,
                            None => continue,
                        },
                        false => 0,
                    };
                    let changed = usize::from(end != mine || e[q..end] != *self.computed[i]);
                    if choice.is_none_or(|(c, _)| changed + rest < c) {
                        choice = Some((changed + rest, end));
                    }
                }
                if let Some(c) = choice {
                    best[i].insert(q, c);
                }
            }
        }
        let mut q = self.fixed[0].len();
        let mut out = Vec::with_capacity(k);
        for (i, level) in best.iter().enumerate() {
            let Some(&(_, end)) = level.get(&q) else {
                return Ok(None);
            };
            out.push(end);
            if i + 1 < k {
                q = end + self.fixed[i + 1].len();
            }
        }
        Ok(Some(out))
    }

    /// The ends instance `i`'s text may have when it starts at `q`: the
    /// text after it must follow (and, for the last instance, end the
    /// output). Preferred first: its computed text, then the others in
    /// order (the shortest first: one line rather than two), nothing last
    /// (an instance that prints a wrong line prints the right one rather
    /// than leave it to the next).
    fn ends(&mut self, i: usize, q: usize, allowed: Ends) -> Result<Vec<usize>, ()> {
        let e = self.expected;
        let n = e.len();
        let after = self.fixed[i + 1];
        let last = i + 1 == self.computed.len();
        let follows = |s: &mut Self, end: usize| -> bool {
            s.work += 1 + after.len().min(n.saturating_sub(end));
            match last {
                true => end + after.len() == n && e[end..].starts_with(after),
                false => e[end..].starts_with(after),
            }
        };
        let mut out = Vec::new();
        if q > n {
            return Ok(out);
        }
        let computed = self.computed[i];
        let mine = q + computed.len();
        let computed_fits = e[q..].starts_with(computed) && follows(self, mine);
        if computed_fits {
            out.push(mine);
        }
        if allowed != Ends::Skip {
            let range = match last {
                true => n.saturating_sub(after.len()).max(q + 1)..n.saturating_sub(after.len()) + 1,
                false => q + 1..n + 1,
            };
            for end in range {
                // The end a text may have first (a byte to look at), then
                // whether the run's text after it follows.
                let allows = allowed == Ends::Any || e[end - 1] == b'\n' || end == n;
                if allows && !(computed_fits && end == mine) && follows(self, end) {
                    out.push(end);
                }
                self.work += 1;
                if self.work > SEARCH_WORK {
                    return Err(());
                }
            }
        }
        if mine != q && follows(self, q) {
            out.push(q);
        }
        if self.work > SEARCH_WORK {
            return Err(());
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(parts: &[(&str, bool)]) -> Printed {
        let mut stdout = Vec::new();
        let mut segments = Vec::new();
        for (i, (text, mine)) in parts.iter().enumerate() {
            let start = stdout.len();
            stdout.extend_from_slice(text.as_bytes());
            if *mine {
                segments.push(Segment {
                    ctx: vec![Scope::Iter(StmtId(0), i as u32)],
                    start,
                    end: stdout.len(),
                });
            }
        }
        Printed { stdout, segments }
    }

    fn fit_o(expected: &[u8], p: &Printed) -> Fit {
        fit(expected, p, Printer::Output)
    }

    fn texts(f: Fit) -> Vec<String> {
        match f {
            Fit::Texts(t) => t
                .into_iter()
                .map(|t| String::from_utf8(t).unwrap())
                .collect(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn an_extra_line_is_printed_as_nothing_the_others_as_computed() {
        let p = printed(&[("a\n", false), ("x\n", true), ("b\n", false), ("x\n", true)]);
        assert_eq!(texts(fit_o(b"a\nb\nx\n", &p)), ["", "x\n"]);
        assert_eq!(texts(fit_o(b"a\nx\nb\n", &p)), ["x\n", ""]);
    }

    #[test]
    fn a_wrong_value_is_replaced_by_the_expected_text_up_to_a_line_end() {
        let p = printed(&[("n=", false), ("4\n", true), ("end\n", false)]);
        assert_eq!(texts(fit_o(b"n=5\nend\n", &p)), ["5\n"]);
        // Not up to a line's end: the formula decides.
        let p = printed(&[("n=", false), ("4;", true), ("end\n", false)]);
        assert_eq!(fit_o(b"n=12;end\n", &p), Fit::Unknown);
        assert_eq!(texts(fit_o(b"n=end\n", &p)), [""]);
    }

    #[test]
    fn output_outside_the_statement_must_stay() {
        let p = printed(&[("a\n", false), ("x\n", true), ("b\n", false)]);
        assert_eq!(fit_o(b"c\nx\nb\n", &p), Fit::Impossible);
        assert_eq!(fit_o(b"a\nx\n", &p), Fit::Impossible);
        assert_eq!(texts(fit_o(b"a\nb\n", &p)), [""]);
    }

    #[test]
    fn adjacent_instances_split_the_expected_text_line_by_line() {
        let p = printed(&[("1\n", true), ("2\n", true), ("3\n", true)]);
        assert_eq!(texts(fit_o(b"1\n3\n", &p)), ["1\n", "", "3\n"]);
        assert_eq!(texts(fit_o(b"1\n2\n3\n4\n", &p)), ["1\n", "2\n", "3\n4\n"]);
        // The fewest changed: one, not the next two shifted.
        assert_eq!(texts(fit_o(b"1\n3\n", &p)), ["1\n", "", "3\n"]);
        // Two wrong lines: one each, not both in one.
        let p = printed(&[("a\n", true), ("b\n", true)]);
        assert_eq!(texts(fit_o(b"c\nd\n", &p)), ["c\n", "d\n"]);
    }

    #[test]
    fn a_call_prints_what_it_computed_or_nothing() {
        let p = printed(&[
            ("a\n", false),
            ("x\ny\n", true),
            ("b\n", false),
            ("x\ny\n", true),
        ]);
        let call = |e: &[u8]| fit(e, &p, Printer::Call);
        assert_eq!(texts(call(b"a\nb\nx\ny\n")), ["", "x\ny\n"]);
        assert_eq!(texts(call(b"a\nx\ny\nb\nx\ny\n")), ["x\ny\n", "x\ny\n"]);
        // Other text is no skip.
        assert_eq!(call(b"a\nx\nb\n"), Fit::Impossible);
        assert_eq!(call(b"a\nz\nb\nx\ny\n"), Fit::Impossible);
    }
}
