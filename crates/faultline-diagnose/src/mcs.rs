//! Minimal correction set (MCS) enumeration over an incremental Z3 solver.
//!
//! # The problem
//!
//! The caller asserts a *hard* formula `H` into a [`z3::Solver`] and gives
//! *soft* constraints: Boolean terms `s_i` (usually literals; in faultline
//! `s_i` is `¬ab_i`, "statement `i` behaves as written") with positive integer
//! weights `w_i`. A *correction set* (CS) is a set `C` of soft indices such
//! that `H ∧ ⋀_{i∉C} s_i` is satisfiable; an MCS is a subset-minimal CS. The
//! *cost* of a set is its cardinality ([`Order::Cardinality`]) or its weight
//! sum ([`Order::Weight`]).
//!
//! Every *blocked* set `B` adds the permanent clause `⋁_{i∈B} s_i` to the
//! solver. Write `H'` for `H` and all blocking clauses. The MCSes of
//! `(H', S)` are exactly the MCSes of `(H, S)` that contain no blocked set
//! (a set containing no blocked set can satisfy every blocking clause by
//! keeping its complement true, and "contains no blocked set" is closed under
//! subsets), so blocking never creates new, non-minimal answers: it only
//! removes a found MCS and all its supersets.
//!
//! # What [`McsEnumerator::next`] returns
//!
//! The first element, in the order *(cost, sorted member list)*, of the MCSes
//! of `(H', S)` whose cardinality is at most [`McsOptions::max_size`]. The
//! answer is a function of the formula alone, never of the models Z3 happens
//! to find, so results are deterministic and ties in cost are broken by the
//! lexicographic order of the sorted member lists. `next` does not block:
//! calling it twice returns the same set until the caller blocks it
//! ([`McsEnumerator::block`]) or changes the formula. [`enumerate`] is the
//! plain `next` + `block` loop.
//!
//! Two boundary cases follow from the definitions and are reported as such:
//! if `H'` alone is unsatisfiable there is no correction set, hence no MCS
//! (`Ok(None)`, and [`enumerate`] reports a complete, empty outcome); if
//! `H' ∧ ⋀ s_i` is satisfiable the only MCS is the empty set, reported as one
//! [`Mcs`] with no members and cost 0. Blocking the empty set blocks
//! everything; the engine then answers `Ok(None)` without asserting the empty
//! (false) clause, so the solver stays usable.
//!
//! # Algorithm
//!
//! Soft terms are counted through guarded pseudo-Boolean bounds: for a bound
//! `b` the engine creates a fresh *guard* literal `g` once and asserts
//! `g ⇒ Σ_i c_i·¬s_i ≤ b` (`c_i = 1` for cardinality, `c_i = w_i` for weight).
//! A query "is there a CS of cost ≤ b?" is `check_assumptions([g, …])`; the
//! guard is never asserted, so the bound never leaks into later queries.
//! Guards of bounds that can no longer be queried (below the floor, or over
//! an outdated set of soft terms) are retired by asserting `¬g`. All queries
//! run on the caller's solver, incrementally, so Z3 keeps its learned
//! clauses between them. Candidates are read from the model: the members of
//! a set are the soft terms the model makes false.
//!
//! The engine keeps a *floor*: a lower bound on the cost of every unblocked
//! CS with at most `max_size` members. It never decreases: blocking, asserting hard constraints and adding
//! soft terms (with positive weight) can only remove correction sets or make
//! them more expensive (a CS of the grown problem minus the new soft terms is
//! a CS of the old one, and weights are positive). Enumeration proceeds by
//! cost *levels*:
//!
//! 1. *Find the level cost* `c`, the least cost of an unblocked CS with at most
//!    `max_size` members.
//!    * Cardinality: linear UNSAT–SAT search, `c = floor, floor+1, …,
//!      max_size`, one query per bound (the *linear search* of Marques-Silva
//!      et al., IJCAI 2013, with cardinality bounds under activation literals,
//!      as in BugAssist). An unsatisfiable answer whose unsat core does not
//!      contain the bound's guard proves that no CS of any cost exists, which
//!      ends the enumeration early.
//!    * Weight: one query bounded only by `max_size` gives an upper bound `hi`
//!      (the weight of the CS found), then a binary search over
//!      `[floor, hi]` with weight bounds, each satisfiable answer lowering `hi`
//!      to the weight actually found (model-improving). A minimum-cost CS is
//!      an MCS, because weights are positive: a proper subset that was a CS
//!      would cost strictly less.
//! 2. *Collect the level*: under a fresh level activation literal `a`, repeat
//!    `check_assumptions([bound guards for c, a])`; every model yields the set
//!    `F` of falsified soft terms, which is recorded and excluded for the rest
//!    of the level by the temporary clause `¬a ∨ ⋁_{i∈F} s_i`. When the query
//!    becomes unsatisfiable, `a` is retired (`¬a` is asserted, which
//!    satisfies all the level's temporary clauses for good) and the level's
//!    sets are sorted by member list.
//!
//! **Why every collected set is an MCS (minimality by construction).** When a
//! level is collected no CS costs less than `c` (step 1 proved the bounds
//! below `c` unsatisfiable, or `c` is the minimum weight). A model found under
//! the bound has a falsified set `F`, a CS with cost ≤ `c`. Every CS contains
//! an MCS `M ⊆ F`; `cost(M) ≥ c` since no cheaper CS exists, and
//! `cost(M) ≤ cost(F) ≤ c`; as all weights are positive, `M = F`. So `F` is an
//! MCS of cost exactly `c`; no candidate check is needed. The temporary
//! clauses exclude only the sets already found (a different set of the same
//! cost is never a superset of a found one), so nothing is missed.
//!
//! **Why the enumeration is complete.** Each level collects every CS of cost
//! `c` with at most `max_size` members that is not blocked (the loop only
//! stops when none is left); the next level starts after all of them have
//! been blocked, with `floor = c + 1`. Enumeration ends when step 1 finds no
//! CS within `max_size`.
//!
//! **Cost in solver calls.** Cardinality: every empty level costs one query,
//! a level with `L` MCSes costs `L + 1`; a full enumeration up to
//! `max_size = k` makes at most `#MCS + #non-empty levels + k + 1` queries.
//! Weight: a level costs `1 + ⌈log₂(hi − floor)⌉ + L` queries (the last query
//! of the binary search yields the level's first MCS). A level is always
//! collected completely before anything is returned, even when the caller
//! wants fewer sets: that is the price of an order independent of Z3's
//! models. Z3's `Optimize` is not used because it cannot share the caller's
//! incremental solver (its formula would have to be copied for every level).
//!
//! # Incremental use
//!
//! Results of a collected level are cached. [`McsEnumerator::block`] filters
//! the cache (it stays exact); [`McsEnumerator::add_soft`],
//! [`McsEnumerator::assert_hard`] and [`McsEnumerator::invalidate`] drop it
//! (the floor is kept). A caller that asserts hard constraints directly on
//! the solver must call [`McsEnumerator::invalidate`] before the next query.
//! The engine assumes the solver's assertions only grow while it is in use:
//! popping a scope that holds its guards or blocking clauses breaks it.
//! Work interrupted by the deadline is kept, so a later call with a new
//! deadline resumes where the previous one stopped.
//!
//! # Determinism
//!
//! The sequence of sets and costs depends only on the formula, the soft
//! terms and the calls made. The witnessing models are whatever Z3 finds;
//! Z3 is deterministic for a given sequence of API calls, and the engine
//! issues its calls in an order that depends only on its inputs (no hash
//! iteration, no clocks except the deadline), so the models repeat too.
//!
//! # Solver choice
//!
//! Any incremental Z3 solver that supports assumptions and unsat cores
//! works. On bit-vector formulas Z3's SAT-based finite-domain solver,
//! `Solver::new_for_logic("QF_FD")`, answered the queries of the scale test
//! (`tests/mcs_scale.rs`: 300 soft terms, 6,000 guarded 32-bit equalities)
//! in about 0.3 s each plus 0.15 s to build each model, where the default
//! `Solver::new()` (the SMT core, once assumptions are used) took about 3 s
//! per satisfiable query. `QF_FD` is meant for Booleans, bit-vectors and
//! pseudo-Boolean constraints; formulas with arrays or unbounded arithmetic
//! need the default solver.
//!
//! # Deadline
//!
//! Before each query the remaining time is passed to Z3 as the solver's
//! `timeout` parameter (milliseconds), which is reset to unlimited after the
//! query; a deadline already passed returns [`Stop::Timeout`] without a
//! query. An `unknown` answer after the deadline is a [`Stop::Timeout`]; any
//! other `unknown` is a [`Stop::Unknown`] with Z3's reason.

use std::collections::BTreeMap;
use std::fmt;
use std::time::Instant;

use z3::ast::Bool;
use z3::{Context, Model, Params, SatResult, Solver, Translate};

/// The order in which MCSes are reported.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Order {
    /// Non-decreasing cardinality.
    #[default]
    Cardinality,
    /// Non-decreasing total weight; every set is still subset-minimal.
    Weight,
}

/// Bounds and order of an enumeration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McsOptions {
    /// Largest cardinality of a reported MCS, in both orders.
    pub max_size: usize,
    /// Most MCSes [`enumerate`] reports; [`McsEnumerator`] itself ignores it
    /// (an on-demand caller decides when to stop).
    pub max_count: usize,
    /// When to give up; `None` means no time limit.
    pub deadline: Option<Instant>,
    /// Cardinality or weight order.
    pub order: Order,
}

impl Default for McsOptions {
    /// No bounds, no deadline, cardinality order.
    fn default() -> Self {
        McsOptions {
            max_size: usize::MAX,
            max_count: usize::MAX,
            deadline: None,
            order: Order::Cardinality,
        }
    }
}

/// One minimal correction set.
pub struct Mcs {
    /// Indices of the soft terms (as returned by [`McsEnumerator::add_soft`])
    /// that are false, sorted ascending.
    pub members: Vec<usize>,
    /// Cardinality or weight sum, according to [`McsOptions::order`].
    pub cost: u64,
    /// A model of the hard formula in which exactly the members' soft terms
    /// are false; the caller reads angelic values from it.
    pub model: Model,
}

impl Mcs {
    fn duplicate(&self, ctx: &Context) -> Mcs {
        Mcs {
            members: self.members.clone(),
            cost: self.cost,
            model: self.model.translate(ctx),
        }
    }
}

impl Clone for Mcs {
    /// Copies the model into the current thread's Z3 context.
    fn clone(&self) -> Self {
        self.duplicate(&Context::thread_local())
    }
}

impl fmt::Debug for Mcs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mcs")
            .field("members", &self.members)
            .field("cost", &self.cost)
            .finish_non_exhaustive()
    }
}

/// Why a query of [`McsEnumerator`] could not be answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The deadline passed (before a query, or Z3 gave up because of it).
    Timeout,
    /// Z3 answered `unknown` under the effort limit
    /// ([`McsEnumerator::set_effort`]) before the deadline.
    Effort,
    /// Z3 answered `unknown` for another reason, given by Z3.
    Unknown(String),
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Timeout => write!(f, "the time limit was reached"),
            Stop::Effort => write!(f, "the solver's effort limit was reached"),
            Stop::Unknown(reason) => write!(f, "the solver answered unknown ({reason})"),
        }
    }
}

/// Why [`enumerate`] stopped before proving it had found every MCS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The deadline passed.
    Timeout,
    /// [`McsOptions::max_count`] MCSes were found; more may exist.
    MaxCount,
    /// Z3 answered `unknown`, for the reason given.
    Unknown(String),
}

impl From<Stop> for StopReason {
    fn from(stop: Stop) -> Self {
        match stop {
            Stop::Timeout => StopReason::Timeout,
            Stop::Effort => StopReason::Unknown(stop.to_string()),
            Stop::Unknown(reason) => StopReason::Unknown(reason),
        }
    }
}

/// The result of [`enumerate`].
#[derive(Debug)]
pub struct McsOutcome {
    /// The MCSes found, in the engine's order. Always a prefix of the full,
    /// deterministic sequence.
    pub mcses: Vec<Mcs>,
    /// True if `mcses` holds every MCS within `max_size`.
    pub complete: bool,
    /// Why the enumeration stopped early; `None` exactly when `complete`.
    pub stop: Option<StopReason>,
    /// Number of satisfiability checks made.
    pub solver_calls: u64,
}

/// Enumerates the MCSes of `softs` against the hard formula in `solver`,
/// blocking each one as it is found (the blocking clauses stay in the solver;
/// guard literals of the bounds stay too but constrain nothing).
///
/// Stops after `options.max_count` MCSes, at `options.deadline`, or when Z3
/// answers `unknown`.
pub fn enumerate(solver: &Solver, softs: &[(Bool, u64)], options: &McsOptions) -> McsOutcome {
    let mut engine = McsEnumerator::new(options.clone());
    for (lit, weight) in softs {
        engine.add_soft(lit.clone(), *weight);
    }
    let mut mcses = Vec::new();
    let stop = loop {
        if mcses.len() >= options.max_count {
            break Some(StopReason::MaxCount);
        }
        match engine.take_next(solver) {
            Ok(Some(mcs)) => mcses.push(mcs),
            Ok(None) => break None,
            Err(stop) => break Some(stop.into()),
        }
    };
    McsOutcome {
        complete: stop.is_none(),
        mcses,
        stop,
        solver_calls: engine.solver_calls(),
    }
}

struct Soft {
    lit: Bool,
    /// `¬lit`, the term the bounds count.
    neg: Bool,
    weight: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum BoundKind {
    Card,
    Weight,
}

/// Progress on the cheapest unblocked level.
enum Level {
    /// Nothing known beyond `floor`.
    Unknown,
    /// Weight order: the least cost is in `[lo, best.cost]`; `best` is a CS.
    Search { lo: u64, best: Mcs },
    /// Every CS of cost ≤ `cost` is an MCS of cost `cost`; `found` are those
    /// found so far, excluded under the activation literal `act`.
    Collect {
        cost: u64,
        act: Bool,
        found: Vec<Mcs>,
    },
    /// All unblocked MCSes of cost `cost`, sorted by members; never empty.
    Done { cost: u64, mcses: Vec<Mcs> },
    /// No unblocked MCS within `max_size`.
    Exhausted,
}

/// An incremental MCS enumerator over a caller's solver; see the
/// [module documentation](self) for the semantics and the algorithm.
///
/// All methods that take a solver must be given the same solver, and the
/// hard formula must be asserted in it before the first query.
pub struct McsEnumerator {
    options: McsOptions,
    softs: Vec<Soft>,
    total_weight: u64,
    blocked: Vec<Vec<usize>>,
    blocked_all: bool,
    /// Lower bound on the cost of every unblocked correction set.
    floor: u64,
    /// Guard literals of the bounds over the current soft terms.
    guards: BTreeMap<(BoundKind, u64), Bool>,
    /// Literals to assert false at the next opportunity (stale guards).
    retired: Vec<Bool>,
    level: Level,
    /// Z3's resource units per query (`None`: no limit).
    effort: Option<u32>,
    calls: u64,
    /// Whether the current call already restarted once.
    restarted: bool,
}

/// Largest total weight the pseudo-Boolean bounds can express.
const MAX_TOTAL_WEIGHT: u64 = i32::MAX as u64;

impl McsEnumerator {
    /// An enumerator with no soft terms.
    pub fn new(options: McsOptions) -> Self {
        McsEnumerator {
            options,
            softs: Vec::new(),
            total_weight: 0,
            blocked: Vec::new(),
            blocked_all: false,
            floor: 0,
            guards: BTreeMap::new(),
            retired: Vec::new(),
            level: Level::Unknown,
            effort: None,
            calls: 0,
            restarted: false,
        }
    }

    /// The options in force.
    pub fn options(&self) -> &McsOptions {
        &self.options
    }

    /// Lowers `max_size` to `k` (never raises it): later queries look for
    /// no set larger than `k`.
    pub fn cap_max_size(&mut self, k: usize) {
        self.options.max_size = self.options.max_size.min(k);
    }

    /// Changes the deadline for later queries.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.options.deadline = deadline;
    }

    /// Limits each later query to `effort` of Z3's resource units
    /// (deterministic, unlike the deadline; `None`: no limit); a query that
    /// reaches it stops with [`Stop::Effort`].
    pub fn set_effort(&mut self, effort: Option<u32>) {
        self.effort = effort;
    }

    /// Adds a soft term and returns its index (0, 1, 2, … in call order).
    ///
    /// # Panics
    ///
    /// If `weight` is 0 or the total weight exceeds `i32::MAX` (Z3's
    /// pseudo-Boolean coefficients are `i32`). The weight is used only in
    /// [`Order::Weight`].
    pub fn add_soft(&mut self, lit: Bool, weight: u64) -> usize {
        assert!(weight >= 1, "MCS soft constraint weights must be positive");
        let total = self.total_weight.saturating_add(weight);
        assert!(
            total <= MAX_TOTAL_WEIGHT,
            "MCS soft constraint weights must sum to at most {MAX_TOTAL_WEIGHT}"
        );
        self.total_weight = total;
        let neg = lit.not();
        self.softs.push(Soft { lit, neg, weight });
        // Bounds over the old soft terms no longer count the new one.
        self.retired
            .extend(std::mem::take(&mut self.guards).into_values());
        self.invalidate();
        self.softs.len() - 1
    }

    /// Number of soft terms.
    pub fn num_softs(&self) -> usize {
        self.softs.len()
    }

    /// The soft term with index `index`.
    pub fn soft(&self, index: usize) -> &Bool {
        &self.softs[index].lit
    }

    /// The weight of the soft term with index `index`.
    pub fn weight(&self, index: usize) -> u64 {
        self.softs[index].weight
    }

    /// The sets blocked so far (sorted, in blocking order).
    pub fn blocked(&self) -> &[Vec<usize>] {
        &self.blocked
    }

    /// Asserts a hard constraint into `solver` and forgets cached results.
    pub fn assert_hard(&mut self, solver: &Solver, constraint: &Bool) {
        solver.assert(constraint);
        self.invalidate();
    }

    /// Forgets cached results; call it after asserting hard constraints
    /// directly on the solver. Work done so far only raises the floor, which
    /// stays valid.
    pub fn invalidate(&mut self) {
        match std::mem::replace(&mut self.level, Level::Unknown) {
            Level::Collect { act, .. } => self.retired.push(act),
            Level::Search { lo, .. } => self.floor = self.floor.max(lo),
            Level::Unknown | Level::Done { .. } | Level::Exhausted => {}
        }
    }

    /// Raises the floor to `floor`: the caller has proved by other means
    /// (focused checks of single statements, `combine::mbd`) that no
    /// unblocked correction set costs less. Forgets cached results.
    pub fn raise_floor(&mut self, floor: u64) {
        self.invalidate();
        self.floor = self.floor.max(floor);
    }

    /// Number of satisfiability checks made so far.
    pub fn solver_calls(&self) -> u64 {
        self.calls
    }

    /// The cheapest MCS not yet blocked (ties broken by member list), with at
    /// most `max_size` members, or `None` if there is none. Does not block it.
    pub fn next(&mut self, solver: &Solver) -> Result<Option<Mcs>, Stop> {
        self.settle(solver)?;
        Ok(match &self.level {
            Level::Done { mcses, .. } => mcses.first().map(|m| m.duplicate(solver.get_context())),
            _ => None,
        })
    }

    /// Whether no unblocked CS with at most `max_size` members is left, in
    /// one query (no level search): the check that a known list of MCSes,
    /// once blocked, is complete.
    pub fn exhausted(&mut self, solver: &Solver) -> Result<bool, Stop> {
        if self.blocked_all || matches!(self.level, Level::Exhausted) {
            return Ok(true);
        }
        match &self.level {
            Level::Done { mcses: found, .. } | Level::Collect { found, .. }
                if !found.is_empty() =>
            {
                return Ok(false)
            }
            _ => {}
        }
        let assumptions = self.bounds(solver, None);
        let sat = self.check(solver, &assumptions)?;
        if !sat {
            self.invalidate();
            self.level = Level::Exhausted;
        }
        Ok(!sat)
    }

    /// Like [`next`](Self::next) followed by [`block`](Self::block) of the
    /// result, without copying the model.
    pub fn take_next(&mut self, solver: &Solver) -> Result<Option<Mcs>, Stop> {
        self.settle(solver)?;
        let taken = match &mut self.level {
            Level::Done { mcses, .. } if !mcses.is_empty() => Some(mcses.remove(0)),
            _ => None,
        };
        if let Some(mcs) = &taken {
            self.block(solver, &mcs.members);
        }
        Ok(taken)
    }

    /// Blocks `members` and all its supersets for good, by asserting
    /// `⋁_{i∈members} s_i` (for the empty set, by answering `None` from now
    /// on; the solver is left unchanged).
    ///
    /// # Panics
    ///
    /// If a member is not the index of a soft term.
    pub fn block(&mut self, solver: &Solver, members: &[usize]) {
        let mut set = members.to_vec();
        set.sort_unstable();
        set.dedup();
        if let Some(&bad) = set.iter().find(|&&i| i >= self.softs.len()) {
            panic!(
                "cannot block soft index {bad}: only {} soft terms",
                self.softs.len()
            );
        }
        if set.is_empty() {
            self.blocked_all = true;
        } else if !self.blocked.contains(&set) {
            let lits: Vec<&Bool> = set.iter().map(|&i| &self.softs[i].lit).collect();
            solver.assert(Bool::or(&lits));
        }
        match std::mem::replace(&mut self.level, Level::Unknown) {
            Level::Done { cost, mut mcses } => {
                mcses.retain(|m| !is_subset(&set, &m.members));
                if mcses.is_empty() {
                    // Every MCS of this cost is blocked now.
                    self.floor = self.floor.max(cost + 1);
                } else {
                    self.level = Level::Done { cost, mcses };
                }
            }
            Level::Collect {
                cost,
                act,
                mut found,
            } => {
                found.retain(|m| !is_subset(&set, &m.members));
                self.level = Level::Collect { cost, act, found };
            }
            // The best set may be blocked now; restart from the raised floor.
            Level::Search { lo, .. } => self.floor = self.floor.max(lo),
            Level::Exhausted => self.level = Level::Exhausted,
            Level::Unknown => {}
        }
        if !self.blocked.contains(&set) {
            self.blocked.push(set);
        }
    }

    /// Advances the level state until it is `Done` or `Exhausted`.
    fn settle(&mut self, solver: &Solver) -> Result<(), Stop> {
        self.restarted = false;
        if self.blocked_all {
            self.invalidate();
            self.level = Level::Exhausted;
        }
        loop {
            self.retire_stale_guards();
            for guard in std::mem::take(&mut self.retired) {
                solver.assert(guard.not());
            }
            let state = std::mem::replace(&mut self.level, Level::Unknown);
            if matches!(state, Level::Done { .. } | Level::Exhausted) {
                self.level = state;
                return Ok(());
            }
            match self.step(solver, state) {
                Ok(next) => self.level = next,
                Err((state, stop)) => {
                    self.level = state;
                    return Err(stop);
                }
            }
        }
    }

    /// One transition of the level state; on failure returns the state to
    /// resume from.
    fn step(&mut self, solver: &Solver, state: Level) -> Result<Level, (Level, Stop)> {
        match state {
            Level::Unknown => match self.options.order {
                Order::Cardinality => self.probe_cardinality(solver),
                Order::Weight => self.probe_weight(solver),
            },
            Level::Search { lo, best } => self.search_step(solver, lo, best),
            Level::Collect { cost, act, found } => self.collect_step(solver, cost, act, found),
            done => Ok(done),
        }
    }

    /// Retires the guards of bounds on the enumeration's cost below the
    /// floor: no later query uses them. Asserting their negation lets Z3
    /// drop their constraints.
    fn retire_stale_guards(&mut self) {
        let kind = match self.options.order {
            Order::Cardinality => BoundKind::Card,
            Order::Weight => BoundKind::Weight,
        };
        let stale: Vec<(BoundKind, u64)> = self
            .guards
            .range((kind, 0)..(kind, self.floor))
            .map(|(key, _)| *key)
            .collect();
        for key in stale {
            if let Some(guard) = self.guards.remove(&key) {
                self.retired.push(guard);
            }
        }
    }

    /// Largest cardinality worth bounding: `max_size`, capped by the number of
    /// soft terms.
    fn size_limit(&self) -> u64 {
        (self.options.max_size.min(self.softs.len())) as u64
    }

    /// Cardinality order, level cost unknown: is there a CS of size `floor`?
    fn probe_cardinality(&mut self, solver: &Solver) -> Result<Level, (Level, Stop)> {
        let k = self.floor;
        if k > self.size_limit() {
            return Ok(Level::Exhausted);
        }
        let guard = self.guard(solver, BoundKind::Card, k);
        let assumptions: Vec<Bool> = guard.iter().cloned().collect();
        match self.check(solver, &assumptions) {
            Err(stop) => Err((Level::Unknown, stop)),
            Ok(true) => {
                let mcs = self
                    .falsified(solver)
                    .map_err(|stop| (Level::Unknown, stop))?;
                if mcs.cost < k {
                    // Only possible if the caller popped constraints.
                    return self.restart();
                }
                Ok(self.enter_collect(solver, mcs))
            }
            Ok(false) => {
                let core = solver.get_unsat_core();
                match guard {
                    Some(g) if core.contains(&g) => {
                        self.floor = k + 1;
                        Ok(Level::Unknown)
                    }
                    _ => Ok(Level::Exhausted),
                }
            }
        }
    }

    /// Weight order, level cost unknown: find any CS within `max_size`.
    fn probe_weight(&mut self, solver: &Solver) -> Result<Level, (Level, Stop)> {
        let assumptions = self.bounds(solver, None);
        match self.check(solver, &assumptions) {
            Err(stop) => Err((Level::Unknown, stop)),
            Ok(false) => Ok(Level::Exhausted),
            Ok(true) => {
                let mcs = self
                    .falsified(solver)
                    .map_err(|stop| (Level::Unknown, stop))?;
                if mcs.cost < self.floor {
                    return self.restart();
                }
                if mcs.cost == self.floor {
                    Ok(self.enter_collect(solver, mcs))
                } else {
                    Ok(Level::Search {
                        lo: self.floor,
                        best: mcs,
                    })
                }
            }
        }
    }

    /// Weight order: one step of the binary search for the least cost in
    /// `[lo, best.cost]`.
    fn search_step(&mut self, solver: &Solver, lo: u64, best: Mcs) -> Result<Level, (Level, Stop)> {
        if lo >= best.cost {
            return Ok(self.enter_collect(solver, best));
        }
        let mid = lo + (best.cost - lo) / 2;
        let assumptions = self.bounds(solver, Some(mid));
        let result = self
            .check(solver, &assumptions)
            .and_then(|sat| sat.then(|| self.falsified(solver)).transpose());
        match result {
            Err(stop) => Err((Level::Search { lo, best }, stop)),
            Ok(Some(found)) => {
                if found.cost < lo {
                    return self.restart();
                }
                Ok(Level::Search { lo, best: found })
            }
            Ok(None) => {
                self.floor = self.floor.max(mid + 1);
                Ok(Level::Search { lo: mid + 1, best })
            }
        }
    }

    /// Starts collecting the level of `first`, an MCS of least cost.
    fn enter_collect(&mut self, solver: &Solver, first: Mcs) -> Level {
        let cost = first.cost;
        self.floor = cost;
        let act = Bool::fresh_const("mcs_level");
        exclude(solver, &act, &self.softs, &first.members);
        Level::Collect {
            cost,
            act,
            found: vec![first],
        }
    }

    /// Collects one more MCS of cost `cost`, or finishes the level.
    fn collect_step(
        &mut self,
        solver: &Solver,
        cost: u64,
        act: Bool,
        mut found: Vec<Mcs>,
    ) -> Result<Level, (Level, Stop)> {
        let mut assumptions = match self.options.order {
            Order::Cardinality => self
                .guard(solver, BoundKind::Card, cost)
                .into_iter()
                .collect(),
            Order::Weight => self.bounds(solver, Some(cost)),
        };
        assumptions.push(act.clone());
        let result = self
            .check(solver, &assumptions)
            .and_then(|sat| sat.then(|| self.falsified(solver)).transpose());
        match result {
            Err(stop) => Err((Level::Collect { cost, act, found }, stop)),
            Ok(Some(mcs)) => {
                if mcs.cost != cost {
                    // Only possible if the caller popped constraints.
                    self.retired.push(act);
                    return self.restart();
                }
                exclude(solver, &act, &self.softs, &mcs.members);
                found.push(mcs);
                Ok(Level::Collect { cost, act, found })
            }
            Ok(None) => {
                solver.assert(act.not());
                if found.is_empty() {
                    self.floor = cost + 1;
                    Ok(Level::Unknown)
                } else {
                    found.sort_by(|a, b| a.members.cmp(&b.members));
                    Ok(Level::Done { cost, mcses: found })
                }
            }
        }
    }

    /// Starts afresh after a model contradicted the floor or a bound, which
    /// only happens if the solver lost the enumerator's assertions (a
    /// caller's `pop`): forgets the floor and the guards. Done at most once
    /// per call; a second contradiction is reported as [`Stop::Unknown`].
    fn restart(&mut self) -> Result<Level, (Level, Stop)> {
        self.floor = 0;
        self.retired
            .extend(std::mem::take(&mut self.guards).into_values());
        if self.restarted {
            return Err((
                Level::Unknown,
                Stop::Unknown(
                    "the solver lost the MCS enumerator's constraints (popped scope?)".to_string(),
                ),
            ));
        }
        self.restarted = true;
        Ok(Level::Unknown)
    }

    /// Assumptions for the weight order: the size bound and, if given, a
    /// weight bound.
    fn bounds(&mut self, solver: &Solver, weight: Option<u64>) -> Vec<Bool> {
        let mut assumptions = Vec::new();
        let size = self.size_limit();
        assumptions.extend(self.guard(solver, BoundKind::Card, size));
        if let Some(w) = weight {
            assumptions.extend(self.guard(solver, BoundKind::Weight, w));
        }
        assumptions
    }

    /// The guard literal of `Σ c_i·¬s_i ≤ bound`, or `None` if the bound holds
    /// trivially.
    fn guard(&mut self, solver: &Solver, kind: BoundKind, bound: u64) -> Option<Bool> {
        let trivial = match kind {
            BoundKind::Card => self.softs.len() as u64,
            BoundKind::Weight => self.total_weight,
        };
        if bound >= trivial {
            return None;
        }
        if let Some(g) = self.guards.get(&(kind, bound)) {
            return Some(g.clone());
        }
        let terms: Vec<(&Bool, i32)> = self
            .softs
            .iter()
            .map(|s| {
                let coefficient = match kind {
                    BoundKind::Card => 1,
                    // add_soft keeps the total weight within i32.
                    BoundKind::Weight => s.weight as i32,
                };
                (&s.neg, coefficient)
            })
            .collect();
        // bound < trivial <= i32::MAX
        let pb = Bool::pb_le(&terms, bound as i32);
        let g = Bool::fresh_const(match kind {
            BoundKind::Card => "mcs_card",
            BoundKind::Weight => "mcs_weight",
        });
        solver.assert(g.implies(&pb));
        self.guards.insert((kind, bound), g.clone());
        Some(g)
    }

    /// Runs one check; `Ok(true)` for sat, `Ok(false)` for unsat.
    fn check(&mut self, solver: &Solver, assumptions: &[Bool]) -> Result<bool, Stop> {
        let deadline = self.options.deadline;
        let mut params = Params::new();
        if let Some(deadline) = deadline {
            let now = Instant::now();
            if now >= deadline {
                return Err(Stop::Timeout);
            }
            let remaining = deadline - now;
            // Round up so that a timeout means the deadline has passed.
            let ms = remaining.as_nanos().div_ceil(1_000_000);
            params.set_u32("timeout", u32::try_from(ms).unwrap_or(u32::MAX - 1).max(1));
        }
        params.set_u32("rlimit", self.effort.unwrap_or(0));
        solver.set_params(&params);
        self.calls += 1;
        let t0 = std::time::Instant::now();
        let result = solver.check_assumptions(assumptions);
        faultline_smt::limits::note_z3_memory();
        crate::profile::log(
            || format!("mcs search ({} assumptions)", assumptions.len()),
            &format!("{result:?}"),
            t0.elapsed(),
        );
        if deadline.is_some() {
            set_timeout(solver, u32::MAX);
        }
        match result {
            SatResult::Sat => Ok(true),
            SatResult::Unsat => Ok(false),
            SatResult::Unknown => {
                let reason = solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "no reason given".to_string());
                let past = deadline.is_some_and(|d| Instant::now() >= d);
                let timed_out = deadline.is_some_and(|d| {
                    Instant::now() >= d || reason.contains("timeout") || reason.contains("cancel")
                });
                // Z3 names the effort limit inconsistently ("sat.canceled",
                // none at all): under it, any unknown before the deadline is
                // taken for it.
                if self.effort.is_some() && !past {
                    Err(Stop::Effort)
                } else if timed_out {
                    Err(Stop::Timeout)
                } else {
                    Err(Stop::Unknown(reason))
                }
            }
        }
    }

    /// The set of soft terms false in the current model, with its cost.
    fn falsified(&self, solver: &Solver) -> Result<Mcs, Stop> {
        // A `sat` answer comes with a model unless model generation was
        // switched off.
        let model = solver
            .get_model()
            .ok_or_else(|| Stop::Unknown("the solver answered sat without a model".to_string()))?;
        let members: Vec<usize> = self
            .softs
            .iter()
            .enumerate()
            .filter(|(_, s)| model.eval(&s.lit, true).and_then(|v| v.as_bool()) != Some(true))
            .map(|(i, _)| i)
            .collect();
        let cost = match self.options.order {
            Order::Cardinality => members.len() as u64,
            Order::Weight => members.iter().map(|&i| self.softs[i].weight).sum(),
        };
        Ok(Mcs {
            members,
            cost,
            model,
        })
    }
}

impl fmt::Debug for McsEnumerator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("McsEnumerator")
            .field("options", &self.options)
            .field("softs", &self.softs.len())
            .field("blocked", &self.blocked)
            .field("floor", &self.floor)
            .field("calls", &self.calls)
            .finish_non_exhaustive()
    }
}

/// Asserts the temporary clause `¬act ∨ ⋁_{i∈members} s_i`.
fn exclude(solver: &Solver, act: &Bool, softs: &[Soft], members: &[usize]) {
    let mut lits: Vec<Bool> = vec![act.not()];
    lits.extend(members.iter().map(|&i| softs[i].lit.clone()));
    solver.assert(Bool::or(&lits));
}

fn set_timeout(solver: &Solver, ms: u32) {
    let mut params = Params::new();
    params.set_u32("timeout", ms);
    solver.set_params(&params);
}

/// Whether sorted `small` is a subset of sorted `big`.
fn is_subset(small: &[usize], big: &[usize]) -> bool {
    let mut big = big.iter();
    small.iter().all(|x| big.any(|y| y == x))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subset_of_sorted_lists() {
        assert!(is_subset(&[], &[1, 2]));
        assert!(is_subset(&[1, 3], &[0, 1, 2, 3]));
        assert!(!is_subset(&[1, 4], &[0, 1, 2, 3]));
        assert!(!is_subset(&[0], &[]));
        assert!(is_subset(&[2], &[2]));
    }
}
