//! Single-statement (*focused*) checks: the candidates, each test's run
//! checked to be encodable, the focused formula within its work bound, the
//! cheaper theory first where Z3 is slow, and what is noted when a check
//! cannot be encoded (see docs/how-it-works.md, section 6).

use super::*;

impl Engine<'_, '_> {
    /// The work bound of a focused formula of test `t` (with the effort
    /// limit only): [`FOCUSED_WORK_PER_STEP`] units per step of its run,
    /// at least [`FOCUSED_WORK_MIN`]. A statement whose focused formula
    /// grows beyond it (relaxed, it makes a whole loop nest or the rest of
    /// the input's processing unknown) is left undecided, like one whose
    /// check reaches the effort limit, instead of spending the whole time
    /// limit on one formula.
    ///
    /// A check on the run's path, a first pass before the engine's own
    /// formula, gets a tenth of it ([`ON_PATH_SHARE`]), as of the effort.
    fn focused_work_cap(&self, t: usize, encoding: Encoding) -> Option<u64> {
        self.options.effort?;
        let steps = self.session.runs[t].execution.steps;
        let cap = steps
            .saturating_mul(FOCUSED_WORK_PER_STEP)
            .max(FOCUSED_WORK_MIN);
        Some(cap / self.share(encoding))
    }

    /// The share of the work bound and of the effort limit a focused check
    /// in `encoding` gets: all of it in the engine's own encoding, a tenth
    /// on the run's path.
    fn share(&self, encoding: Encoding) -> u64 {
        if self.on_path(encoding) {
            ON_PATH_SHARE
        } else {
            1
        }
    }

    /// Whether a focused formula in `encoding` is a check on the run's path
    /// made before the engine's own formula ([`Check::Focused`]).
    fn on_path(&self, encoding: Encoding) -> bool {
        encoding == Encoding::Trace && self.encoding != Encoding::Trace
    }

    /// The effort limit of a focused check in `encoding`.
    fn focused_effort(&self, encoding: Encoding) -> Option<u32> {
        let share = self.share(encoding) as u32;
        self.options.effort.map(|e| (e / share).max(1))
    }

    /// Whether test `t`'s run can be encoded at all: its formula with
    /// nothing relaxable (the run's own, cheap) is built the first time a
    /// focused check is about to encode the test; a test whose run reaches what the
    /// encoder cannot encode (a union, `sprintf`) is then not used, with the
    /// reason, as the formula with every statement relaxable would leave it
    /// out.
    fn encodable(&mut self, t: usize) -> bool {
        if self.is_skipped(t) {
            return false;
        }
        if !self.encodable.insert(t) {
            return true;
        }
        let mut ab = AbVars::focused(BTreeSet::new());
        let ok = self.encode(t, &Sink::collecting(), &mut ab).is_some();
        if ok {
            self.count_test_encoded();
        }
        ok
    }

    /// Notes (once per test) that a focused check on test `t` could not be
    /// encoded, and why: the statements it checked are left undecided.
    fn undecided_because(&mut self, t: usize, reason: String) {
        if self.unencodable.insert(t) {
            let name = &self.session.tests[t].name;
            self.note(format!(
                "test {name}: a statement's check could not be encoded ({reason}); statements left undecided"
            ));
        }
    }

    /// Whether statement `s` was left undecided because a focused check of
    /// it could not be encoded (not because of the effort limit).
    pub fn was_unencoded(&self, s: StmtId) -> bool {
        self.unencoded.contains(&s)
    }

    /// The statements a diagnosis of one statement may consist of, in id
    /// order, known without encoding a test: every statement of the source
    /// of a kind the encoding relaxes (`trace` follows the run's path: its
    /// conditions and jumps are not relaxable; a `goto` never is), the
    /// insertions aside. Those that no failing test ran, or that relax no
    /// value, are refuted by their checks.
    pub fn single_candidates(&self) -> Vec<StmtId> {
        let prog = self.session.prog;
        let trace = self.encoding == Encoding::Trace;
        (0..prog.stmts.len())
            .map(|i| StmtId(i as u32))
            .filter(|s| match prog.stmt(*s).kind {
                StmtKind::Insert | StmtKind::Goto => false,
                k => !trace || relaxable_on_path(k),
            })
            .collect()
    }

    /// Whether statement `s` may be checked by predicate switching or
    /// value replacement ([`Check::Switched`]): a condition (of an `if`, a
    /// loop or a `switch`) or a statement that computes a value, other than
    /// one that reads the test's input (what it stores is a hard fact).
    fn switchable(&self, s: StmtId) -> bool {
        let kind = self.session.prog.stmt(s).kind;
        kind.is_condition() || (relaxable_on_path(kind) && !self.session.reads_input(s))
    }

    /// Whether statement `s` may be relaxed on its run's path
    /// ([`Check::Focused`] `on_path`): not a condition or a jump.
    pub fn relaxable_on_path(&self, s: StmtId) -> bool {
        relaxable_on_path(self.session.prog.stmt(s).kind)
    }

    /// Whether relaxing `d` makes test `t` pass, on the test's *focused*
    /// formula (only `d`'s statements relaxable, so everything they do not
    /// reach folds to constants) within the effort limit
    /// ([`Options::effort`]); angelic values polished when `polish`. The
    /// formula is in `encoding`: the engine's, or `trace` for a check on the
    /// run's path ([`Check::Focused`]), where a formula that cannot be built
    /// leaves `d` undecided with nothing noted.
    pub(super) fn check_focused(
        &mut self,
        t: usize,
        d: &BTreeSet<StmtId>,
        polish: bool,
        encoding: Encoding,
    ) -> Result<Verdict<Explained>, Incomplete> {
        let session = self.session;
        let on_path = self.on_path(encoding);
        // On the path, the run's conditions and jumps are kept: relaxed
        // alone, they change nothing.
        if on_path
            && d.iter()
                .all(|s| !relaxable_on_path(session.prog.stmt(*s).kind))
        {
            return Ok(Verdict::Refuted);
        }
        if self.unchanged(t, d) {
            return Ok(Verdict::Refuted);
        }
        // The test's run is checked to be encodable the first time a check
        // encodes it: if not, the test is left out (the caller ignores
        // this verdict).
        if !self.encodable(t) {
            return self.limit_hit().map_or(Ok(Verdict::Undecided), Err);
        }
        if let Some(v) = self.check_printed(t, d) {
            return Ok(v);
        }
        // A statement that computes floating values is searched by
        // re-execution on the run's path too, with `full` (its witnesses
        // are `full`'s): its formulas are where Z3 is slowest.
        let floating = d.len() == 1 && d.iter().all(|s| session.floating(*s).is_some());
        let switch_as = match on_path && self.encoding == Encoding::Full && floating {
            true => Encoding::Full,
            false => encoding,
        };
        if let Some(e) = self.switched(t, d, switch_as) {
            return Ok(Verdict::Explained(e));
        }
        // A formula beyond [`CHEAP_FIRST_UNITS`] is checked in the cheaper
        // theory first: its exact encoding stops there (little is spent),
        // and the cheap check refutes `d` or gives the values to check the
        // exact formula with. Bit-blasting a large exact formula is where
        // the time of array- and loop-heavy programs went.
        //
        // The effort limit is one budget for both theories: a cheap check
        // that spends it all leaves `d` undecided, with no exact check
        // after it. (Over the course and IntroClass benchmarks, no exact
        // check after such a cheap one decided: each spent the limit again,
        // 1 to 1.6 s per statement on `sieve`.)
        let cap = self.focused_work_cap(t, encoding);
        let probe = cap.map_or(CHEAP_FIRST_UNITS, |c| c.min(CHEAP_FIRST_UNITS));
        let (mut solver, mut ab, mut encoded) = self.encode_exact(t, d, encoding, Some(probe));
        let mut cheap: Option<Cheap> = None;
        if encoded.is_err() && self.capped && cap.is_none_or(|c| c > probe) {
            self.capped = false;
            if let Some(inc) = self.limit_hit() {
                return Err(inc);
            }
            match self.cheap_check(t, d, encoding)? {
                Cheap::Refuted => return Ok(Verdict::Refuted),
                Cheap::Spent => return Ok(Verdict::Undecided),
                // The exact formula spans the same paths: it would reach
                // the bound as well (replace v1: each of 12 statements
                // spent 1.7 s more finding so).
                Cheap::Outgrown => return Ok(Verdict::Undecided),
                other => cheap = Some(other),
            }
            (solver, ab, encoded) = self.encode_exact(t, d, encoding, cap);
        }
        let enc = match encoded {
            Ok(enc) => enc,
            // A limit stops the search; a formula beyond its work bound
            // leaves `d` undecided, like a check beyond the effort limit;
            // a construct the encoder refuses (with `d`'s values unknown)
            // leaves `d` undecided on this test, and the note says why.
            Err(e) => {
                if let Some(inc) = self.limit_hit() {
                    return Err(inc);
                }
                if std::mem::take(&mut self.capped) || on_path {
                    return Ok(Verdict::Undecided);
                }
                self.undecided_because(t, e);
                self.unencoded.extend(d.iter().copied());
                return Ok(Verdict::Undecided);
            }
        };
        // No statement of `d` relaxed anywhere in the formula (it ran, but
        // computes no value the encoding relaxes): the formula is the
        // failing run's, unsatisfiable.
        if d.iter().all(|s| ab.lookup(*s).is_none()) {
            return Ok(Verdict::Refuted);
        }
        let mut assumptions: Vec<Bool> = ab.relaxing_exactly(d);
        let effort = self.focused_effort(encoding);
        // A formula with an operation Z3 decides slowly is checked in the
        // cheaper theory first too (unless it already was).
        // Its floating-point operations on unknown values (counted up to
        // one past the bound below), once for the checks that follow.
        let (floating, costly) = faultline_smt::approx::floating_operations(
            &solver.get_assertions(),
            MAX_UNPINNED_FLOATING_OPERATIONS + 1,
        );
        if cheap.is_none() && costly {
            match self.cheap_check(t, d, encoding)? {
                Cheap::Refuted => return Ok(Verdict::Refuted),
                Cheap::Spent => return Ok(Verdict::Undecided),
                other => cheap = Some(other),
            }
        }
        let mut approximate = None;
        if let Some(Cheap::Sat(c)) = cheap {
            let pinned = c.pins(&enc);
            // Re-executed with the cheap model's values, the test passing
            // is an exact witness, found without the exact formula's
            // (bit-blasted) check.
            let w = Witness::from_pinned(&enc.relaxed, &pinned, d);
            if let Some(e) = self.replayed(t, &w, true) {
                return Ok(Verdict::Explained(e));
            }
            let mut with = assumptions.clone();
            with.extend(
                pinned
                    .iter()
                    .flat_map(|p| p.pins.iter())
                    .map(|(f, v)| f.eq(v)),
            );
            // Z3 bit-blasts floating-point operations whatever the values
            // fixed, without counting the effort: no such check decided
            // over IntroClass, the course and six Siemens versions (2 on
            // the course, 10 on `tot_info` v4 that took up to 12 s each,
            // all unknown), so a formula with them is left undecided, as
            // when its check reaches the limit (below).
            if floating > 0 {
                return Ok(Verdict::Undecided);
            }
            match self.check_within(&solver, &with, effort, "pinned")? {
                Decided::Sat(m) => {
                    approximate = Some(m);
                    assumptions = with;
                }
                // With the values fixed the exact check is the easier one;
                // where even it reaches the effort limit on slow operations,
                // so would the check without them.
                Decided::Undecided if costly => return Ok(Verdict::Undecided),
                _ => {}
            }
        }
        let model = match approximate {
            Some(m) => m,
            // Z3 bit-blasts floating-point operations without counting the
            // effort: a formula with many of them (on unknown values) that
            // the cheaper theory did not decide is left undecided rather
            // than checked past every limit (`tot_info` v5: 423 of them,
            // 15 s and 2 GiB before the memory limit stopped it).
            None if floating > MAX_UNPINNED_FLOATING_OPERATIONS => return Ok(Verdict::Undecided),
            None => match self.check_within(&solver, &assumptions, effort, "exact")? {
                Decided::Unsat => return Ok(Verdict::Refuted),
                Decided::Undecided => return Ok(Verdict::Undecided),
                Decided::Sat(m) => m,
            },
        };
        // Readable values by re-execution first (cheap, and exact: every
        // step replays); the solver's polishing where the model's values do
        // not replay (outside the unwinding bounds, say).
        let expected = &self.session.formula_test(t).expected_stdout;
        let w = Witness::from_model(&enc, &model, d, expected);
        if let Some(e) = self.replayed(t, &w, true) {
            return Ok(Verdict::Explained(e));
        }
        let model = match polish {
            true => {
                let insts: Vec<&RelaxedInstance> = enc.relaxed.iter().collect();
                self.polish(&solver, &assumptions, &insts, d, &model)
                    .unwrap_or(model)
            }
            false => model,
        };
        Ok(Verdict::Explained(self.explained(t, &enc, &model, d)))
    }

    /// Whether relaxing `d` cannot change test `t`'s run, known without a
    /// formula. Where no statement of `d` ran in the test (and the run was
    /// not cut, so its coverage is whole), relaxing them changes nothing:
    /// the run reaches none of them, so the focused formula's only model is
    /// the failing run itself (in `trace` too, which follows its path).
    /// Declarations and insertions are not instances of a run: they are
    /// left to the formula.
    fn unchanged(&self, t: usize, d: &BTreeSet<StmtId>) -> bool {
        let session = self.session;
        let unreached = !session.is_cut(t)
            && d.iter().all(|s| {
                !matches!(
                    session.prog.stmt(*s).kind,
                    StmtKind::Insert | StmtKind::Declare
                ) && !session.runs[t].execution.coverage.covered(*s)
            });
        unreached || cannot_change_alone(session, t, d)
    }

    /// [`Check::Switched`]: `d` checked on test `t` by re-execution alone
    /// (predicate switching and value replacement).
    pub(super) fn check_switched(&mut self, t: usize, d: &BTreeSet<StmtId>) -> Verdict<Explained> {
        if self.unchanged(t, d) {
            return Verdict::Refuted;
        }
        if let Some(v) = self.check_printed(t, d) {
            return v;
        }
        match self.switched(t, d, Encoding::Full) {
            Some(e) => Verdict::Explained(e),
            None => Verdict::Undecided,
        }
    }

    /// A single statement that only prints ([`crate::printed`]) checked on
    /// test `t` by its text alone, in the engine's encoding or on the path
    /// alike (it cannot change the path): explained by a choice of texts
    /// that replays, refuted when no texts at all make the output right;
    /// `None` leaves `d` to the caller's check. A test whose run cannot be
    /// encoded is left out, as a formula would leave it (undecided here;
    /// the caller ignores the verdict).
    fn check_printed(&mut self, t: usize, d: &BTreeSet<StmtId>) -> Option<Verdict<Explained>> {
        let session = self.session;
        let s = *d.first()?;
        if d.len() != 1 || session.is_cut(t) {
            return None;
        }
        let printer = session.text_only(s)?;
        if !self.encodable(t) {
            return Some(Verdict::Undecided);
        }
        let t0 = Instant::now();
        let printed =
            crate::printed::record(&self.exe, &session.tests[t], s, session.replay_limits())?;
        let expected = &session.formula_test(t).expected_stdout;
        let v = match crate::printed::fit(expected, &printed, printer) {
            crate::printed::Fit::Impossible => Some(Verdict::Refuted),
            crate::printed::Fit::Unknown => None,
            crate::printed::Fit::Texts(texts) => {
                // Only the instances whose text changes are replaced (and
                // reported).
                let angelic: Vec<Angelic> = printed
                    .segments
                    .iter()
                    .zip(texts)
                    .filter(|(seg, text)| printed.stdout[seg.start..seg.end] != text[..])
                    .map(|(seg, text)| Angelic {
                        test: t,
                        stmt: s,
                        ctx: seg.ctx.clone(),
                        value: crate::result::AngelicValue::Output {
                            text: String::from_utf8_lossy(&text).into_owned(),
                        },
                    })
                    .collect();
                let w = Witness::from_angelic(&[s], &angelic, t)?;
                self.replayed(t, &w, false).map(Verdict::Explained)
            }
        };
        crate::profile::log(
            || format!("text of test {t}"),
            match &v {
                Some(Verdict::Explained(_)) => "explains",
                Some(_) => "refutes",
                None => "open",
            },
            t0.elapsed(),
        );
        v
    }

    /// Predicate switching and value replacement, before `full`'s focused
    /// formula of a single condition or statement that computes a value:
    /// test `t` re-executed with instances of the condition given the other
    /// outcome, or of the statement given its value plus or minus one
    /// ([`crate::switch::switch_search`]: one at a time, all alike, then
    /// several together), or, for a statement whose values are floating,
    /// given values searched to make each wrong number print right
    /// ([`crate::numeric::value_search`]). A switched run that passes is a
    /// witness (an exact
    /// model of the focused formula, checked by re-execution), found without
    /// building the formula, which spans every path the switches open.
    /// Nothing is refuted here: a fix may need more switches, or other
    /// values, than the search tries.
    fn switched(
        &mut self,
        t: usize,
        d: &BTreeSet<StmtId>,
        encoding: Encoding,
    ) -> Option<Explained> {
        let session = self.session;
        let s = *d.first()?;
        let kind = session.prog.stmt(s).kind;
        if d.len() != 1
            || encoding != Encoding::Full
            || !self.switchable(s)
            || self.unswitched.contains(&(s, t))
        {
            return None;
        }
        let t0 = Instant::now();
        let steps = session.runs[t].execution.steps;
        let (switches, what) = match session.floating(s) {
            Some(precision) if !kind.is_condition() => (
                crate::numeric::value_search(
                    &self.exe,
                    &session.tests[t],
                    s,
                    precision,
                    steps,
                    session.replay_limits(),
                    session.compare,
                ),
                "values",
            ),
            _ => (
                crate::switch::switch_search(
                    &self.exe,
                    &session.tests[t],
                    s,
                    kind.is_condition(),
                    steps,
                    session.constants(session.prog.stmt(s).func),
                    session.replay_limits(),
                    session.compare,
                ),
                "switched",
            ),
        };
        crate::profile::log(
            || format!("{what} test {t}"),
            if switches.is_some() { "found" } else { "none" },
            t0.elapsed(),
        );
        // Switches added one at a time, each to a run that needed more, are
        // replayed as they are; those of instances changed alike may be
        // more than the fix needs, and are simplified
        // ([`Witness::simplified`]: a replay per change).
        let e = switches.and_then(|f| self.replayed(t, &Witness::switched(s, f.switches), f.alike));
        if e.is_none() {
            self.unswitched.insert((s, t));
        }
        e
    }

    /// Test `t`'s exact focused formula for `d`, in a solver of its own,
    /// within `cap` units of work: the solver, the relaxed statements and
    /// the encoding (or why there is none; `capped` says whether it
    /// reached `cap`).
    fn encode_exact(
        &mut self,
        t: usize,
        d: &BTreeSet<StmtId>,
        encoding: Encoding,
        cap: Option<u64>,
    ) -> (Solver, AbVars, Result<TestEncoding, String>) {
        let session = self.session;
        let solver = self.solver();
        let mut ab = AbVars::focused(d.clone());
        let mut policy = self.trace_policy_in(t, encoding);
        let (t0, w0) = (Instant::now(), limits::work());
        self.work_cap = cap;
        let encoded = self.encode_case_with(
            session.formula_test(t),
            &Sink::new(&solver),
            &mut ab,
            encoding,
            policy.as_mut().map(|p| p as &mut dyn BranchPolicy),
        );
        let work = limits::work().saturating_sub(w0);
        self.work_spent += work;
        crate::profile::log(
            || {
                let steps = session.runs[t].execution.steps;
                format!("encode exact ({work} units, {steps} steps)")
            },
            "",
            t0.elapsed(),
        );
        (solver, ab, encoded)
    }

    /// Test `t`'s focused formula for `d` in the cheaper theory
    /// ([`faultline_smt::approx`]: unbounded integers, reals for floating
    /// point), within the effort limit: unsatisfiable there, `d` is refuted
    /// (an approximation: a fix that needs wrap-around or rounding is
    /// missed); satisfiable, its model, from which [`CheapModel::pins`]
    /// gives the values of the exact formula's relaxed instances to check
    /// it with.
    fn cheap_check(
        &mut self,
        t: usize,
        d: &BTreeSet<StmtId>,
        encoding: Encoding,
    ) -> Result<Cheap, Incomplete> {
        let session = self.session;
        let cheap = Sink::collecting();
        let mut ab = AbVars::focused(d.clone());
        let mut policy = self.trace_policy_in(t, encoding);
        let (t0, w0) = (Instant::now(), limits::work());
        self.work_cap = self.focused_work_cap(t, encoding);
        let encoded = self.encode_case_sem(
            session.formula_test(t),
            &cheap,
            &mut ab,
            encoding,
            policy.as_mut().map(|p| p as &mut dyn BranchPolicy),
            IntSemantics::Math,
        );
        let work = limits::work().saturating_sub(w0);
        self.work_spent += work;
        crate::profile::log(|| format!("encode cheap ({work} units)"), "", t0.elapsed());
        let Ok(enc) = encoded else {
            let outgrown = std::mem::take(&mut self.capped);
            if let Some(inc) = self.limit_hit() {
                return Err(inc);
            }
            return Ok(if outgrown {
                Cheap::Outgrown
            } else {
                Cheap::Unknown
            });
        };
        // Not the finite-domain solver: the formula has unbounded integers.
        let solver = Solver::new();
        let Some(reals) = faultline_smt::approx::assert_reals(&cheap.assertions(), &solver, true)
        else {
            return Ok(Cheap::Unknown);
        };
        let assumptions =
            faultline_smt::approx::assumptions(&solver, &reals, ab.relaxing_exactly(d));
        let effort = self.focused_effort(encoding);
        let shape = faultline_smt::forked::shape(&solver.get_assertions());
        let decided = match shape.nonlinear_reals && !shape.other {
            true => self.check_forked(&solver, &assumptions, &shape, effort, "cheap")?,
            false => self.check_within(&solver, &assumptions, effort, "cheap")?,
        };
        Ok(match decided {
            Decided::Unsat => Cheap::Refuted,
            Decided::Undecided => Cheap::Spent,
            Decided::Sat(model) => Cheap::Sat(CheapModel { enc, model, reals }),
        })
    }
}

/// The size (units of work) beyond which a focused formula is checked in
/// the cheaper theory first ([`Engine::check_focused`]). Below it, the exact
/// formula is decided about as fast; above it, bit-blasting dominates (a
/// selection sort of ten numbers: 25,000 units, 0.1 to 0.9 s per exact
/// check against a tenth of that in the cheaper theory).
const CHEAP_FIRST_UNITS: u64 = 2_000;

/// The floating-point operations on unknown values beyond which a focused
/// formula is not checked exactly without values from the cheaper theory
/// ([`Engine::check_focused`]): Z3's bit-blasting of them is not bounded by
/// the effort limit. Over the course benchmark, every exact check without
/// such values had none.
const MAX_UNPINNED_FLOATING_OPERATIONS: usize = 64;

/// What a focused check in the cheaper theory gave ([`Engine::cheap_check`]).
enum Cheap {
    Refuted,
    /// Undecided within the effort limit: the focused check's whole effort
    /// is spent.
    Spent,
    /// Not encoded within its work bound: undecided.
    Outgrown,
    /// Not encodable in the cheaper theory (a construct it refuses), or not
    /// translatable: the exact check decides.
    Unknown,
    Sat(CheapModel),
}

/// A model of a focused formula in the cheaper theory, with its encoding.
struct CheapModel {
    enc: TestEncoding,
    model: Model,
    reals: faultline_smt::approx::Reals,
}

impl CheapModel {
    /// The values the model gives the relaxed instances of the exact
    /// formula `exact`.
    fn pins(mut self, exact: &TestEncoding) -> Vec<faultline_smt::approx::Pinned> {
        faultline_smt::approx::pinned(
            &exact.relaxed,
            &self.enc.relaxed,
            &self.model,
            &mut self.reals,
        )
    }
}

/// The share of a focused check's work bound and effort limit that a check
/// on the run's path gets ([`Check::Focused`]): one tenth.
const ON_PATH_SHARE: u64 = 10;

/// Whether a statement of kind `k` computes a value a formula on the run's
/// path relaxes: not a condition, a `break`, `continue` or `goto` (the path
/// keeps them) nor an insertion.
fn relaxable_on_path(k: StmtKind) -> bool {
    !matches!(
        k,
        StmtKind::Insert | StmtKind::Goto | StmtKind::Break | StmtKind::Continue
    ) && !k.is_condition()
}
