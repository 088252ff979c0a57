//! Value search for statements that compute floating-point values, by
//! re-execution alone: the counterpart of [`crate::switch::switch_search`]
//! (outcomes, and integers plus or minus one) for `float` and `double`.
//!
//! A focused formula of a floating-point statement is where Z3 is slowest
//! (it bit-blasts every operation the relaxed value reaches; `tot_info`'s
//! series and continued fractions reach hundreds), and the cheaper theory
//! (reals) is only an approximation to confirm. Yet the question is often
//! one-dimensional: which value at this instance makes the printed number
//! right? Each run here gives the statement's instances values derived
//! from one parameter, and the first wrong number the run prints (a number
//! in the expected output, at the first byte where the run differs from it)
//! is a function of that parameter, solved by the secant method within a
//! bracket (the Illinois variant of regula falsi, bisection of the doubles'
//! bit patterns when it stalls). Once that number prints right, the next
//! wrong one (printed later) is solved the same way, near the point found,
//! and so on until the test passes. The parameters tried, in order:
//!
//! 1. the instances of one group shifted by `p`: those of one execution of
//!    the innermost loop of the last instance met before the first wrong
//!    number (a term of a series that is wrong at every iteration, where a
//!    single iteration changed would be corrected by those after it), or
//!    that instance alone outside loops (an accumulator assigned instead of
//!    added to, `total = x`); if that makes the output right further on but
//!    not wholly, the group keeps its shift and the group of the last
//!    instance before the next wrong number is solved, up to [`MAX_SET`]
//!    groups;
//! 2. when the instances are of more than one group, every instance
//!    shifted by the same amount (`computed + p`: a constant that is off,
//!    `log(2.50663 * ser)` for `log(2.50662827465 * ser)`, in a function
//!    called for each number);
//! 3. and every instance scaled alike (`computed * (1 + p)`).
//!
//! A run that passes is a witness like a switched one ([`Found`]: every
//! instance whose value changed), replayed by the caller. Nothing is
//! refuted here: the search assumes the printed numbers move continuously
//! and monotonically with the parameter near the answer, which a fix need
//! not satisfy. The search is deterministic, and bounded in runs
//! ([`MAX_RUNS`]) and steps ([`value_search`]).

use crate::switch::{Alt, Found, Switches};
use faultline_exec::trace::Scope;
use faultline_exec::value::Value;
use faultline_exec::{ExecOptions, Executable, Hooks, Limits, Site, TestCase, Verdict};
use faultline_ir::types::{FloatKind, Type};
use faultline_ir::visit::{walk_expr, Visitor};
use faultline_ir::{Expr, ExprKind, Program, Stmt, StmtId};
use std::collections::HashMap;

/// The precision of a floating statement's first value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    Single,
    Double,
}

impl Precision {
    fn round(self, v: f64) -> f64 {
        match self {
            Precision::Single => v as f32 as f64,
            Precision::Double => v,
        }
    }
}

/// The statements whose first value (the first store an instance makes
/// itself, or the value it returns) is floating, with its precision:
/// assignments to a `float` or `double` place, initializers of one, and
/// returns of one. Statements that read input are not among them when the
/// store is the library's (`scanf`): their first value is not an
/// assignment's.
pub fn floating(prog: &Program) -> HashMap<StmtId, Precision> {
    let mut out = HashMap::new();
    let mut visit = |st: &Stmt| {
        let (id, ty) = match st {
            Stmt::Expr { id, expr } => (*id, first_store(expr)),
            Stmt::Init { id, init, .. } => (
                *id,
                init.items
                    .iter()
                    .find(|i| i.value.ty.is_scalar())
                    .map(|i| &i.value.ty),
            ),
            Stmt::Return { id, value: Some(v) } => (*id, Some(&v.ty)),
            _ => return,
        };
        match ty {
            Some(Type::Float(FloatKind::Float)) => {
                out.insert(id, Precision::Single);
            }
            Some(Type::Float(_)) => {
                out.insert(id, Precision::Double);
            }
            _ => {}
        }
    };
    for f in &prog.functions {
        faultline_ir::visit::for_each_stmt(&f.body, &mut visit);
    }
    out
}

/// The type of the first store an expression makes itself, in evaluation
/// order (a place's subexpressions, then the value, then the store); `None`
/// when it makes none. Library calls' stores (`scanf`, `strcpy`) are not
/// counted: they are not the statement's values.
fn first_store(e: &Expr) -> Option<&Type> {
    struct First<'a>(Option<&'a Type>);
    impl<'a> Visitor<'a> for First<'a> {
        fn visit_expr(&mut self, e: &'a Expr) {
            if self.0.is_some() {
                return;
            }
            walk_expr(self, e);
            if let (None, ExprKind::Assign { place, .. }) = (self.0, &e.kind) {
                self.0 = Some(&place.ty);
            }
        }
    }
    let mut first = First(None);
    first.visit_expr(e);
    first.0
}

/// The most runs one [`value_search`] makes, the failing run's included.
pub const MAX_RUNS: usize = 160;

/// The most runs spent on one printed number.
const MAX_LEVEL_RUNS: usize = 48;

/// The most times a step is made longer where the number does not move.
const MAX_FLAT: usize = 6;

/// The most groups shifted one by one ([`value_search`], 1).
const MAX_SET: usize = 8;

/// The most instances one run records.
const MAX_SEEN: usize = 16_384;

/// The deepest context of an instance a run records.
const MAX_SEEN_DEPTH: usize = 64;

/// How the instances take values from the parameter in one run.
#[derive(Clone, Copy, Debug)]
enum Mode {
    /// `computed + p`, every instance.
    Shift,
    /// `computed * (1 + p)`, every instance.
    Scale,
    /// `computed + p` for the instances of one group ([`group`]), the
    /// fixed groups' their shifts, the others computed.
    Group,
}

/// The group of an instance in context `ctx`: one execution of its
/// innermost loop (the iterations of one call of a series, say), or the
/// instance itself outside loops.
fn group(ctx: &[Scope]) -> &[Scope] {
    let n = ctx
        .iter()
        .rposition(|s| !matches!(s, Scope::Iter(..)))
        .map_or(0, |i| i + 1);
    &ctx[..n]
}

/// How a parameter steers a run's instances: the mode, the groups given
/// fixed shifts and the group the parameter shifts ([`Mode::Group`]), and
/// the size of the values it changes (the scale of the first steps).
#[derive(Clone, Copy)]
struct Param<'a> {
    mode: Mode,
    fixed: &'a HashMap<Vec<Scope>, f64>,
    target: Option<&'a [Scope]>,
    scale: f64,
}

impl<'a> Param<'a> {
    fn new(
        mode: Mode,
        fixed: &'a HashMap<Vec<Scope>, f64>,
        target: Option<&'a [Scope]>,
        scale: f64,
    ) -> Param<'a> {
        Param {
            mode,
            fixed,
            target,
            scale,
        }
    }
}

/// An instance met in a run.
#[derive(Clone, Debug)]
struct Inst {
    ctx: Vec<Scope>,
    computed: f64,
    taken: f64,
    /// Bytes printed before it.
    at: usize,
}

/// Steers one run.
struct Steer<'a> {
    stmt: StmtId,
    precision: Precision,
    mode: Mode,
    p: f64,
    /// The groups given fixed shifts (mode [`Mode::Group`]), and the one
    /// shifted by `p`.
    fixed: &'a HashMap<Vec<Scope>, f64>,
    target: Option<&'a [Scope]>,
    counts: HashMap<Vec<Scope>, u32>,
    seen: Vec<Inst>,
    unrecorded: bool,
    printed: usize,
    expected: &'a [u8],
    exact: bool,
    /// How much of the output is right so far, and how much of it was
    /// compared ([`Hooks::keeps_printing`]).
    common: usize,
    compared: usize,
}

impl Steer<'_> {
    fn next_value(&mut self, site: &Site, computed: Value) -> Value {
        if site.inst.stmt != self.stmt {
            return computed;
        }
        if site.ctx.len() > MAX_SEEN_DEPTH || self.seen.len() >= MAX_SEEN {
            self.unrecorded = true;
            return computed;
        }
        let n = self.counts.entry(site.ctx.to_vec()).or_insert(0);
        *n += 1;
        let Value::Float(c) = computed else {
            return computed;
        };
        if *n != 1 {
            return computed;
        }
        let taken = match self.mode {
            Mode::Shift => c + self.p,
            Mode::Scale => c * (1.0 + self.p),
            Mode::Group => {
                let g = group(site.ctx);
                match self.fixed.get(g) {
                    Some(d) => c + d,
                    None if self.target == Some(g) => c + self.p,
                    None => c,
                }
            }
        };
        let taken = self.precision.round(taken);
        // Infinities and NaNs are not values a fix computes.
        let taken = if taken.is_finite() { taken } else { c };
        self.seen.push(Inst {
            ctx: site.ctx.to_vec(),
            computed: c,
            taken,
            at: self.printed,
        });
        Value::Float(taken)
    }
}

impl Hooks for Steer<'_> {
    fn keeps_printing(&mut self, stdout: &[u8]) -> bool {
        self.printed = stdout.len();
        if !self.exact {
            return true;
        }
        // Past the first wrong byte, the run goes on to the end of the
        // number there (of its line), and no further. The output only
        // grows: the bytes compared before are not compared again.
        if self.common == self.compared {
            self.common += common_prefix(
                &self.expected[self.common.min(self.expected.len())..],
                &stdout[self.common..],
            );
        }
        self.compared = stdout.len();
        let common = self.common;
        common == stdout.len() || (stdout.len() < common + 64 && !stdout[common..].contains(&b'\n'))
    }

    fn relaxed(&self, stmt: StmtId) -> bool {
        stmt == self.stmt
    }

    fn watches(&self, stmt: StmtId) -> bool {
        stmt == self.stmt
    }

    fn value(&mut self, site: &Site, _k: u32, computed: Value) -> Value {
        self.next_value(site, computed)
    }

    fn argument(&mut self, site: &Site, _i: u32, computed: Value) -> Value {
        self.next_value(site, computed)
    }
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// The first wrong number of a run's output: where it starts (the same
/// offset in both outputs), what the run printed, and what is expected.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Wrong {
    start: usize,
    printed: f64,
    expected: f64,
}

/// The number around the first byte where `out` differs from `expected`,
/// when both print one there (after the same text, each perhaps padded
/// with spaces).
fn first_wrong(expected: &[u8], out: &[u8]) -> Option<Wrong> {
    let i = common_prefix(expected, out);
    // Back to the start of the number the first wrong byte is in (its
    // digits, point, signs and exponent mark), and of the spaces before it
    // (padding, where a wider number starts) unless they follow another
    // number (a list): one start for the number whatever its width.
    let part = |k: usize| {
        let b = expected[k];
        b.is_ascii_digit()
            || matches!(b, b'.' | b'-' | b'+')
            || (matches!(b, b'e' | b'E') && k > 0 && expected[k - 1].is_ascii_digit())
    };
    let mut start = i;
    while start > 0 && part(start - 1) {
        start -= 1;
    }
    let mut padded = start;
    while padded > 0 && expected[padded - 1] == b' ' {
        padded -= 1;
    }
    if padded == 0 || !part(padded - 1) {
        start = padded;
    }
    let number = |s: &[u8]| -> Option<f64> {
        let s = &s[s.iter().take_while(|b| **b == b' ').count()..];
        let mut end = 0;
        while end < s.len() {
            let b = s[end];
            let exponent = matches!(b, b'e' | b'E')
                && end > 0
                && s[end - 1].is_ascii_digit()
                && s.get(end + 1)
                    .is_some_and(|n| n.is_ascii_digit() || matches!(n, b'-' | b'+'));
            let sign = matches!(b, b'-' | b'+') && (end == 0 || matches!(s[end - 1], b'e' | b'E'));
            if b.is_ascii_digit() || b == b'.' || exponent || sign {
                end += 1;
            } else {
                break;
            }
        }
        let text = std::str::from_utf8(&s[..end]).ok()?;
        if !text.bytes().any(|b| b.is_ascii_digit()) {
            return None;
        }
        text.parse::<f64>().ok().filter(|v| v.is_finite())
    };
    Some(Wrong {
        start,
        printed: number(&out[start..])?,
        expected: number(&expected[start..])?,
    })
}

/// One run's result.
#[derive(Clone, Debug)]
struct Probe {
    pass: bool,
    /// The first wrong byte.
    at: usize,
    wrong: Option<Wrong>,
    seen: Vec<Inst>,
    unrecorded: bool,
}

impl Probe {
    /// How far the run's output is right: passing beats any, then the
    /// first wrong byte.
    fn progress(&self) -> usize {
        if self.pass {
            usize::MAX
        } else {
            self.at
        }
    }
}

/// A search's runs and what they may spend.
struct Search<'a> {
    exe: &'a Executable<'a>,
    test: &'a TestCase,
    stmt: StmtId,
    precision: Precision,
    limits: Limits,
    compare: faultline_exec::Compare,
    runs: usize,
    spent: u64,
    budget: u64,
    /// The most correct output a run printed.
    best: usize,
}

impl Search<'_> {
    fn exhausted(&self) -> bool {
        self.runs >= MAX_RUNS || self.spent >= self.budget
    }

    /// A run with the instances steered by `by` at parameter `p`.
    fn run(&mut self, by: Param, p: f64) -> Probe {
        self.runs += 1;
        let expected = &self.test.expected_stdout[..];
        let mut steer = Steer {
            stmt: self.stmt,
            precision: self.precision,
            mode: by.mode,
            p,
            fixed: by.fixed,
            target: by.target,
            counts: HashMap::new(),
            seen: Vec::new(),
            unrecorded: false,
            printed: 0,
            common: 0,
            compared: 0,
            expected,
            exact: matches!(self.compare, faultline_exec::Compare::Exact),
        };
        let exec = self.exe.run(
            self.test.input(),
            ExecOptions {
                record_trace: false,
                limits: self.limits,
                hooks: Some(&mut steer),
            },
        );
        // A run that printed more correct output than every run before it
        // is a step forward, not counted against the budget (a test that
        // prints many wrong numbers is followed as far as it leads).
        let at = common_prefix(expected, &exec.stdout);
        if at <= self.best {
            self.spent += exec.steps;
        }
        self.best = self.best.max(at);
        let pass = faultline_exec::suite::judge(self.test, &exec, self.compare) == Verdict::Pass;
        Probe {
            pass,
            at,
            wrong: first_wrong(expected, &exec.stdout),
            seen: steer.seen,
            unrecorded: steer.unrecorded,
        }
    }

    /// The parameter that makes the run pass, from `p0` (whose run is
    /// `probe0`), or else the point that printed right furthest (`p0`
    /// itself when none did better), with its run.
    /// A group's search stops at the first wrong number that an instance
    /// of another group was met last before: that group is the next one
    /// to solve ([`by_groups`]), and this one cannot move that number
    /// without unsettling those it made right.
    fn solve(&mut self, by: Param, p0: f64, probe0: Probe) -> (f64, Probe) {
        let (mut p, mut probe) = (p0, probe0);
        while !probe.pass && !self.exhausted() {
            let Some(w) = probe.wrong else { break };
            if let Some(g) = by.target {
                let last = probe.seen.iter().rfind(|i| i.at <= w.start);
                if p != p0 && last.is_none_or(|i| group(&i.ctx) != g) {
                    break;
                }
            }
            match self.level(by, p, w) {
                Some((q, next)) if next.progress() > probe.progress() => (p, probe) = (q, next),
                _ => break,
            }
        }
        (p, probe)
    }

    /// Solves the number `w` printed at `p` (a point of the parameter):
    /// a point that prints it right (its run passes, or is wrong only
    /// further on), or `None`. Runs whose first wrong byte comes earlier
    /// leave the region where the numbers before `w` print right: the
    /// step is shortened.
    fn level(&mut self, by: Param, p: f64, w: Wrong) -> Option<(f64, Probe)> {
        let f0 = w.printed - w.expected;
        if f0 == 0.0 {
            // The same number, printed otherwise ("-0.00"): not a value.
            return None;
        }
        // The points of this number, `(p, f)`: the last two, and a bracket
        // (values of opposite signs) once one is known.
        let mut last = (p, f0);
        let mut prev: Option<(f64, f64)> = None;
        let mut bracket: Option<((f64, f64), (f64, f64))> = None;
        let base = by.scale.abs().max(p.abs());
        let mut step = if base > 0.0 { base } else { 1.0 } * 1e-6;
        let mut direction = 1.0;
        let (mut flipped, mut flats) = (false, 0);
        let mut side_stale = 0i8;
        for _ in 0..MAX_LEVEL_RUNS {
            if self.exhausted() {
                return None;
            }
            let q = match (bracket, prev) {
                (Some(((a, fa), (b, fb))), _) => {
                    let mut q = (a * fb - b * fa) / (fb - fa);
                    if !(q.is_finite() && q > a.min(b) && q < a.max(b)) {
                        q = between(a, b)?;
                    }
                    q
                }
                (None, Some((pp, fp))) if fp != last.1 => {
                    // The secant, at most 64 times as far as the last step.
                    let q = last.0 - last.1 * (last.0 - pp) / (last.1 - fp);
                    let far = 64.0 * (last.0 - pp).abs();
                    if q.is_finite() {
                        last.0 + (q - last.0).clamp(-far, far)
                    } else {
                        last.0 + direction * step
                    }
                }
                _ => last.0 + direction * step,
            };
            if q == last.0 {
                return None;
            }
            let probe = self.run(by, q);
            if probe.pass || probe.at > w.start && probe.wrong.is_none_or(|x| x.start > w.start) {
                return Some((q, probe));
            }
            match probe.wrong {
                Some(x) if x.start == w.start => {
                    let f = x.printed - x.expected;
                    if f == 0.0 {
                        return None;
                    }
                    match &mut bracket {
                        Some((a, b)) => {
                            // Illinois: the end kept twice is halved.
                            if (f < 0.0) == (a.1 < 0.0) {
                                *a = (q, f);
                                if side_stale == 1 {
                                    b.1 /= 2.0;
                                }
                                side_stale = 1;
                            } else {
                                *b = (q, f);
                                if side_stale == -1 {
                                    a.1 /= 2.0;
                                }
                                side_stale = -1;
                            }
                        }
                        None if (f < 0.0) != (last.1 < 0.0) => {
                            bracket = Some((last, (q, f)));
                        }
                        None if f == last.1 => {
                            // Flat at this scale: a longer step, a few
                            // times (a value the number does not depend on
                            // stays flat at any).
                            flats += 1;
                            if flats > MAX_FLAT {
                                return None;
                            }
                            step *= 64.0;
                            prev = None;
                            if q != p {
                                last = (q, f);
                            }
                            continue;
                        }
                        None => {}
                    }
                    prev = Some(last);
                    last = (q, f);
                }
                // Beyond the region: back to its start, shorter, the
                // other way, once.
                _ => match &mut bracket {
                    Some(_) => return None,
                    None => {
                        if flipped {
                            return None;
                        }
                        flipped = true;
                        prev = None;
                        last = (p, f0);
                        step /= 64.0;
                        direction = -direction;
                    }
                },
            }
        }
        None
    }
}

/// A double strictly between `a` and `b` (halfway in the ordered bit
/// patterns), or `None` when they are adjacent.
fn between(a: f64, b: f64) -> Option<f64> {
    let key = |x: f64| {
        let bits = x.to_bits() as i64;
        if bits < 0 {
            i64::MIN - bits
        } else {
            bits
        }
    };
    let unkey = |k: i64| {
        let bits = if k < 0 { i64::MIN - k } else { k };
        f64::from_bits(bits as u64)
    };
    let (ka, kb) = (key(a.min(b)), key(a.max(b)));
    if kb.saturating_sub(ka) < 2 {
        return None;
    }
    Some(unkey(ka + (kb - ka) / 2))
}

/// Values for the floating instances of statement `stmt` (of `precision`,
/// [`floating`]) with which test `test` passes, by the runs of the module
/// docs, or `None` when none is found within [`MAX_RUNS`] runs and a step
/// budget (64 times the failing run's `steps`, at least 4,000,000, not
/// counting runs that printed more correct output than every run before
/// them). Runs that change values are limited to four times the failing
/// run's steps.
#[allow(clippy::too_many_arguments)]
pub fn value_search(
    exe: &Executable,
    test: &TestCase,
    stmt: StmtId,
    precision: Precision,
    steps: u64,
    limits: Limits,
    compare: faultline_exec::Compare,
) -> Option<Found> {
    let deeper = Limits {
        max_steps: limits
            .max_steps
            .map(|m| m.min(steps.saturating_mul(4).max(10_000))),
        ..limits
    };
    let mut search = Search {
        exe,
        test,
        stmt,
        precision,
        limits,
        compare,
        runs: 0,
        spent: 0,
        best: 0,
        budget: steps.saturating_mul(64).max(4_000_000),
    };
    let none = HashMap::new();
    let root = search.run(Param::new(Mode::Group, &none, None, 1.0), 0.0);
    search.limits = deeper;
    if root.pass || root.seen.is_empty() || root.wrong.is_none() {
        return None;
    }
    if let Some(f) = by_groups(&mut search, root.clone()) {
        return Some(f);
    }
    // Every instance alike, when they are of more than one group (else the
    // groups' search tried it).
    let one = root.seen.first().map(|i| group(&i.ctx));
    if root.unrecorded || root.seen.iter().all(|i| Some(group(&i.ctx)) == one) {
        return None;
    }
    // The computed values' size: the scale of the first steps.
    let scale = root
        .seen
        .iter()
        .map(|i| i.computed.abs())
        .fold(0.0, f64::max);
    for (mode, scale) in [(Mode::Shift, scale), (Mode::Scale, 1.0)] {
        if search.exhausted() {
            break;
        }
        let (_, probe) = search.solve(Param::new(mode, &none, None, scale), 0.0, root.clone());
        if let Some(f) = found(&probe) {
            return Some(f);
        }
    }
    None
}

/// A run that passes as a search's result (every instance it recorded).
fn found(probe: &Probe) -> Option<Found> {
    (probe.pass && !probe.unrecorded).then(|| Found {
        switches: changed(&probe.seen),
        alike: true,
    })
}

/// One group at a time ([`value_search`], 1): that of the last instance
/// met before the first wrong number of `probe`, from the failing run's.
fn by_groups(search: &mut Search, mut probe: Probe) -> Option<Found> {
    let mut fixed: HashMap<Vec<Scope>, f64> = HashMap::new();
    for _ in 0..MAX_SET {
        let w = probe.wrong?;
        let inst = probe
            .seen
            .iter()
            .rfind(|i| i.at <= w.start && !fixed.contains_key(group(&i.ctx)))?;
        let g = group(&inst.ctx).to_vec();
        // The group's largest value sets the first steps (a series' last
        // terms are tiny).
        let scale = probe
            .seen
            .iter()
            .filter(|i| group(&i.ctx) == g.as_slice())
            .map(|i| i.computed.abs())
            .fold(0.0, f64::max);
        let by = Param::new(Mode::Group, &fixed, Some(&g), scale);
        let (p, next) = search.solve(by, 0.0, probe.clone());
        if let Some(f) = found(&next) {
            return Some(f);
        }
        if next.progress() <= probe.progress() || search.exhausted() {
            return None;
        }
        fixed.insert(g, p);
        probe = next;
    }
    None
}

/// The instances a run gave another value than their computed one.
fn changed(seen: &[Inst]) -> Switches {
    seen.iter()
        .filter(|i| i.taken.to_bits() != i.computed.to_bits())
        .map(|i| (i.ctx.clone(), Alt::Float(i.taken.to_bits())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_wrong_number_is_read_from_both_outputs() {
        let w = first_wrong(
            b"total = 16.30\tq =  0.1778\n",
            b"total = 16.30\tq = 10.1778\n",
        );
        assert_eq!(
            w,
            Some(Wrong {
                start: 17,
                printed: 10.1778,
                expected: 0.1778
            })
        );
        let w = first_wrong(b"x = -1.5e-3\n", b"x = -1.25e-3\n").unwrap();
        assert_eq!((w.printed, w.expected), (-1.25e-3, -1.5e-3));
        let w = first_wrong(b"x = 2.5e-3\n", b"x = 2.5e-4\n").unwrap();
        assert_eq!((w.start, w.printed, w.expected), (3, 2.5e-4, 2.5e-3));
        // A number after another, separated by a space.
        let w = first_wrong(b"3 4 5\n", b"3 4 6\n").unwrap();
        assert_eq!((w.start, w.printed, w.expected), (4, 6.0, 5.0));
        assert_eq!(first_wrong(b"yes\n", b"no\n"), None);
        assert_eq!(first_wrong(b"n = 3\n", b"n = 3\nmore"), None);
    }

    #[test]
    fn between_halves_the_bit_patterns() {
        assert_eq!(between(1.0, 1.0), None);
        assert_eq!(between(1.0, f64::from_bits(1.0f64.to_bits() + 1)), None);
        let m = between(-1.0, 1.0).unwrap();
        assert!(m.abs() < 1e-300);
        let m = between(1.0, 2.0).unwrap();
        assert!(m > 1.0 && m < 2.0);
    }
}
