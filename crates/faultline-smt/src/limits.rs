//! Limits in Z3's world: the thread's [`Budget`] reaches the solver, and Z3
//! failures become limits instead of panics.
//!
//! - [`enter`] makes a budget the thread's current one, installs an error
//!   handler on the thread's Z3 context (Z3 reports errors, such as running
//!   out of memory, to it instead of returning them silently), and starts a
//!   watchdog thread that interrupts the context's solver calls once the
//!   budget is exhausted (Z3's interruption ends only the call under way, so
//!   the watchdog repeats it every few milliseconds until the scope ends).
//!   [`enter_budget`] does the same for a thread that leaves Z3 to
//!   [`isolated`], which runs a localization on a thread and in a Z3 context
//!   of its own.
//! - Code that builds terms for a long time calls [`tick`]: every few
//!   thousand calls it checks the budget, and when it is exhausted it unwinds
//!   (`resume_unwind` with the [`Exhausted`] value, no panic message) to the
//!   nearest [`guard`].
//! - The z3 crate panics when Z3 returns no term (what Z3 does when it fails,
//!   e.g. out of memory): [`guard`] catches that unwinding too, and says why
//!   it stopped ([`Stopped`]); such panics print nothing.

use faultline_exec::budget::{Budget, Entered, Exhausted, Ticker};
use std::cell::RefCell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Once};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the watchdog measures the budget.
const WATCH_PERIOD: Duration = Duration::from_millis(10);

/// Why work guarded by [`guard`] stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The budget ran out (or Z3 ran out of memory).
    Budget(Exhausted),
    /// Z3 failed otherwise (its message).
    Solver(String),
}

/// A Z3 error reported to the thread's error handler that makes further
/// work on its context unreliable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub memory: bool,
    pub message: String,
}

thread_local! {
    static FAILURE: RefCell<Option<Failure>> = const { RefCell::new(None) };
    static TICKER: RefCell<Ticker> = RefCell::new(Ticker::default());
    /// Units of work counted by [`tick`] in the innermost [`capped`] scope,
    /// and that scope's cap (`u64::MAX` outside any).
    static WORK: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, u64::MAX)) };
    /// What [`release_later`] kept from being released on this thread.
    static KEPT: RefCell<Vec<Box<dyn std::any::Any>>> = const { RefCell::new(Vec::new()) };
}

/// Keeps `terms` (anything holding terms of the thread's Z3 context) from
/// being released now: releasing gigabytes of terms takes seconds, which a
/// search stopped by a limit should not spend before its result is
/// reported. They are released with the context itself, parked by
/// [`isolated`] ([`release_parked`]); outside it, when the thread ends.
pub fn release_later<T: 'static>(terms: T) {
    KEPT.with(|k| k.borrow_mut().push(Box::new(terms)));
}

/// Whether the thread's budget has run out: what is released then can
/// wait ([`release_later`]).
pub fn stopped_by_limit() -> bool {
    Budget::exhausted_current().is_some()
}

/// The serious Z3 failure this thread's context reported since [`enter`].
pub fn failure() -> Option<Failure> {
    FAILURE.with(|f| f.borrow().clone())
}

/// Z3's error handler: records out-of-memory and exceptions (a failed
/// allocation, a cancelled operation); argument errors are left to the
/// callers that see their result.
unsafe extern "C" fn on_error(ctx: z3_sys::Z3_context, code: z3_sys::ErrorCode) {
    let memory = code == z3_sys::ErrorCode::MemoutFail;
    if !(memory || code == z3_sys::ErrorCode::Exception) {
        return;
    }
    // SAFETY: Z3 passes its context; the message is a NUL-terminated string
    // it owns (copied here).
    let message = unsafe {
        let m = z3_sys::Z3_get_error_msg(ctx, code);
        if m.is_null() {
            "Z3 failed".to_string()
        } else {
            std::ffi::CStr::from_ptr(m).to_string_lossy().into_owned()
        }
    };
    let memory = memory || message.contains("memory");
    record_failure(Failure { memory, message });
}

/// Records `failure` as the thread's (the first one sticks). Out of memory,
/// the budget is exhausted and Z3's cap lifted: Z3 at its cap fails every
/// allocation, also those made where it catches nothing (releasing a term,
/// which the search's unwinding does next), and such a failure ends the
/// process (`terminate`). The budget is exhausted, so the search stops; the
/// cap is lifted so that it can release what it holds.
fn record_failure(failure: Failure) {
    let memory = failure.memory;
    let _ = FAILURE.try_with(|f| {
        if let Ok(mut f) = f.try_borrow_mut() {
            f.get_or_insert(failure);
        }
    });
    if memory {
        if let Some(b) = Budget::current() {
            b.exhaust(Exhausted::Memory);
        }
        lift_z3_memory_cap();
    }
}

/// Lifts [`cap_z3_memory`]'s cap (Z3's `memory_max_size` 0: none), once:
/// the memory limit was reached, the search stops, and what it holds must be
/// released without Z3 failing an allocation where it catches nothing
/// (`Z3_solver_dec_ref` ended the process with `terminate` on IntroClass
/// `digits/dc11fbc9-000`, one run in three).
fn lift_z3_memory_cap() {
    static LIFTED: AtomicBool = AtomicBool::new(false);
    if !LIFTED.swap(true, Ordering::SeqCst) {
        Z3_CAP_BYTES.store(0, Ordering::SeqCst);
        z3::set_global_param("memory_max_size", "0");
    }
}

/// Z3's memory cap in bytes ([`cap_z3_memory`]; 0: none, or lifted).
static Z3_CAP_BYTES: AtomicU64 = AtomicU64::new(0);

extern "C" {
    /// Z3's count of the bytes it has allocated (all contexts), as its
    /// memory cap compares it (not in the z3-sys bindings).
    fn Z3_get_estimated_alloc_size() -> u64;
}

/// Whether Z3's allocations are at its cap, or within a sixteenth of it.
///
/// A solver check that reaches the cap does not report an error: it
/// catches its own failed allocation and answers "unknown", and Z3 stays
/// over its cap, so the next allocation where Z3 catches nothing (releasing
/// the solver) ends the process. The margin covers what Z3's threads have
/// allocated and not yet counted.
fn z3_at_cap() -> bool {
    let cap = Z3_CAP_BYTES.load(Ordering::SeqCst);
    // SAFETY: a plain read of Z3's global counter; no context involved.
    cap != 0 && unsafe { Z3_get_estimated_alloc_size() } >= cap - cap / 16
}

/// When Z3 is at its memory cap ([`z3_at_cap`]): records it as the
/// thread's failure (out of memory), as [`on_error`] does for a failure Z3
/// reports ([`record_failure`]). Called after every solver check ([`guard`]
/// does it for the checks it runs).
pub fn note_z3_memory() {
    if z3_at_cap() {
        record_failure(Failure {
            memory: true,
            message: "Z3 reached its memory limit".to_string(),
        });
    }
}

/// Prints panics as before, except the z3 crate's after a Z3 failure this
/// thread recorded (they are reported as limits).
fn quiet_z3_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let z3_failed = FAILURE
                .try_with(|f| f.try_borrow().map(|f| f.is_some()).unwrap_or(false))
                .unwrap_or(false);
            if !z3_failed {
                previous(info);
            }
        }));
    });
}

/// The thread's budget made current, with Z3 watched (see the module docs).
#[must_use = "the budget applies only while the scope lives"]
pub struct Scope {
    _entered: Entered,
    stop: Arc<AtomicBool>,
    watchdog: Option<JoinHandle<()>>,
    /// Keeps the context the watchdog interrupts alive until it is joined.
    _ctx: Option<z3::Context>,
}

/// Caps Z3's own allocations at `mib` MiB, for the whole process (Z3's
/// `memory_max_size`): a backstop for a process doing one job, where the
/// budget's periodic measures could miss a sudden doubling of one of Z3's
/// tables. Once Z3 reaches it, its contexts fail (reported as running out of
/// memory) until the process ends; call it before the thread's first Z3 use.
pub fn cap_z3_memory(mib: u64) {
    Z3_CAP_BYTES.store(mib << 20, Ordering::SeqCst);
    z3::set_global_param("memory_max_size", &mib.to_string());
}

/// Makes Z3's default solvers cheap to set up, once per process.
///
/// A default solver (`Solver::new`) combines a non-incremental solver, run
/// by Z3's default tactic, with its incremental SMT solver, used whenever a
/// check has assumptions (nearly every check of the engine) or follows
/// another. Setting the default tactic up builds the tactics of every
/// logic: 4 to 8 ms for each solver, more than most focused checks take.
/// With `smt` as the default tactic, setting a solver up takes about 0.4 ms.
/// The checks' meaning is unchanged: a check with assumptions, or after
/// another, never runs the tactic; only a solver's first check without
/// assumptions runs `smt` instead of its logic's tactic. (Which
/// effort-limited checks finish can change, as with any change in what Z3
/// did before.) Measured in docs/benchmarks.md ("Solvers set up cheaply").
fn cheap_solvers() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| z3::set_global_param("tactic.default_tactic", "smt"));
}

/// Makes `budget` the thread's current one until the scope is dropped, and
/// watches the thread's Z3 context (made now if the thread has none): Z3
/// failures recorded before are forgotten.
pub fn enter(budget: &Budget) -> Scope {
    enter_with(budget, Some(z3::Context::thread_local()))
}

/// Like [`enter`], for a thread that leaves Z3 to [`isolated`] (which
/// watches the contexts it makes): the thread's own context is neither made
/// nor watched. Making a Z3 context costs about 10 ms and 8 MiB, a tenth of
/// a small program's whole localization.
pub fn enter_budget(budget: &Budget) -> Scope {
    enter_with(budget, None)
}

fn enter_with(budget: &Budget, ctx: Option<z3::Context>) -> Scope {
    quiet_z3_panics();
    cheap_solvers();
    FAILURE.with(|f| *f.borrow_mut() = None);
    if let Some(ctx) = &ctx {
        // SAFETY: the context is the thread's live context; the handler is a
        // plain function that does not unwind. (Set on every entry: the
        // thread's context changes under [`isolated`]'s fallback.)
        unsafe { z3_sys::Z3_set_error_handler(ctx.get_z3_context(), Some(on_error)) };
    }
    let stop = Arc::new(AtomicBool::new(false));
    let watchdog = budget.is_limited().then(|| {
        let stop = Arc::clone(&stop);
        let budget = budget.clone();
        let raw = ctx.as_ref().map(|c| c.get_z3_context().as_ptr() as usize);
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                if z3_at_cap() {
                    budget.exhaust(Exhausted::Memory);
                }
                if let Some(why) = budget.check() {
                    if why == Exhausted::Memory {
                        // The search unwinds next and releases its terms;
                        // Z3 must not fail those allocations (see
                        // `on_error`).
                        lift_z3_memory_cap();
                    }
                    if let Some(raw) = raw {
                        // SAFETY: the context outlives this thread: the
                        // scope that owns a reference to it joins the
                        // thread first. Z3_interrupt may be called from any
                        // thread.
                        unsafe {
                            z3_sys::Z3_interrupt(std::ptr::NonNull::new_unchecked(
                                raw as *mut z3_sys::_Z3_context,
                            ))
                        };
                    }
                }
                std::thread::sleep(WATCH_PERIOD);
            }
        })
    });
    Scope {
        _entered: budget.enter(),
        stop,
        watchdog,
        _ctx: ctx,
    }
}

impl Drop for Scope {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(w) = self.watchdog.take() {
            let _ = w.join();
        }
    }
}

/// The stack of the threads that run programs and localizations: the
/// interpreter and the encoders recurse over the program, and the
/// interpreter uses about 2.3 KiB per call of the program, which may nest
/// calls as deep as an 8 MiB stack of gcc -O0 frames allows (262,000 calls
/// of a small function). Only the pages used are resident.
pub const STACK_SIZE: usize = 1 << 30;

/// Runs `f` with a fresh Z3 context, under the thread's current budget if
/// it has one (a watchdog then interrupts that context). A context Z3
/// cannot make (its memory cap reached, [`cap_z3_memory`]) is the memory
/// limit.
///
/// Z3's search depends on its context's history (the terms it has already
/// made), so a query limited by effort ([`Solver`](z3::Solver)'s `rlimit`)
/// may be decided after one history and not after another. Each
/// localization runs isolated, so that its result depends on its input only,
/// not on what the process did before.
///
/// `f` runs on a thread of its own ([`STACK_SIZE`]), whose Z3 context is
/// made at its first use: the caller's context is neither made nor touched
/// (the z3 crate can switch a thread's context only after making the
/// thread's default one, a second context of about 10 ms). The work count
/// of [`capped`], Z3 failures and unwinding (a [`tick`] at the budget, a
/// cap, a panic) pass back to the caller as if `f` had run on its thread.
/// If no thread can be started, `f` runs on the caller's thread with a
/// fresh context made for it.
pub fn isolated<R: Send + Sync>(f: impl FnOnce() -> R + Send + Sync) -> Result<R, Stopped> {
    quiet_z3_panics();
    release_parked();
    let budget = Budget::current();
    let work = WORK.with(|w| w.get());
    let f = std::sync::Mutex::new(Some(f));
    let on_thread = || {
        WORK.with(|w| w.set(work));
        let f = f.lock().unwrap_or_else(|e| e.into_inner()).take();
        let mut parked = None;
        let r = thread_context().map(|ctx| {
            let r = {
                let _scope = budget.as_ref().map(enter);
                f.map(|f| catch_unwind(AssertUnwindSafe(f)))
            };
            let kept = KEPT.with(|k| std::mem::take(&mut *k.borrow_mut()));
            if !kept.is_empty() || budget.as_ref().is_some_and(|b| b.exhausted().is_some()) {
                parked = Some(Parked {
                    _kept: kept,
                    _ctx: ctx,
                });
            }
            r
        });
        (r, WORK.with(|w| w.get()), failure(), parked)
    };
    let joined = std::thread::scope(|s| {
        std::thread::Builder::new()
            .name("localization".into())
            .stack_size(STACK_SIZE)
            .spawn_scoped(s, on_thread)
            .map(|h| h.join())
    });
    let (r, used, failed) = match joined {
        Ok(Ok((r, used, failed, parked))) => {
            if let Some(p) = parked {
                PARKED.lock().unwrap_or_else(|e| e.into_inner()).push(p);
            }
            (r, used, failed)
        }
        // `on_thread` catches what `f` throws; only a bug of its own is left.
        Ok(Err(payload)) => resume_unwind(payload),
        Err(_) => {
            let f = f.lock().unwrap_or_else(|e| e.into_inner()).take();
            return match f {
                Some(f) => isolated_here(f),
                None => Err(Stopped::Budget(Exhausted::Memory)),
            };
        }
    };
    WORK.with(|w| w.set(used));
    if let Some(failed) = failed {
        FAILURE.with(|f| {
            f.borrow_mut().get_or_insert(failed);
        });
    }
    match r? {
        Some(Ok(v)) => Ok(v),
        Some(Err(payload)) => resume_unwind(payload),
        None => Err(Stopped::Budget(Exhausted::Memory)),
    }
}

/// A Z3 context kept from being deleted when the thread of an [`isolated`]
/// localization that a limit stopped ends, with the terms the localization
/// kept from being released ([`release_later`]): deleting a context frees every
/// term it still holds, seconds for the gigabytes a large formula reaches
/// (Siemens `tot_info`: 3 s past a 20 s limit, `Z3_del_context` on the
/// thread's exit), and the result would wait for it. It is deleted by
/// [`release_parked`], by the next [`isolated`] call, or never, when the
/// process ends first (the command line ends with `_exit`).
struct Parked {
    /// What the localization kept from being released ([`release_later`]),
    /// released before the context (fields drop in order).
    _kept: Vec<Box<dyn std::any::Any>>,
    _ctx: z3::Context,
}

// SAFETY: a parked context and its terms are used by one thread at a time:
// the thread that made them has ended (its thread-local handle of the
// context dropped) before the joining thread takes them, and from then on
// nothing but [`release_parked`] touches them, under the lock of
// [`PARKED`].
unsafe impl Send for Parked {}

/// The contexts parked by [`isolated`].
static PARKED: std::sync::Mutex<Vec<Parked>> = std::sync::Mutex::new(Vec::new());

/// Deletes the Z3 contexts of localizations that a limit stopped
/// ([`isolated`]), which keeps them until then so that the result is not
/// delayed by freeing their terms. A process that runs localizations one
/// after another calls it between them (the next [`isolated`] call does it
/// otherwise, within its own time limit).
pub fn release_parked() {
    let parked = std::mem::take(&mut *PARKED.lock().unwrap_or_else(|e| e.into_inner()));
    drop(parked);
}

/// The thread's Z3 context, made now if it has none; a context Z3 cannot
/// make is the memory limit. (The z3 crate unwraps the context Z3 makes:
/// the failure it panics with is quiet, [`quiet_z3_panics`], since the
/// thread's failure says why.)
fn thread_context() -> Result<z3::Context, Stopped> {
    FAILURE.with(|f| {
        *f.borrow_mut() = Some(Failure {
            memory: true,
            message: "Z3 could not make a context".into(),
        })
    });
    let made = catch_unwind(z3::Context::thread_local);
    match made {
        Ok(ctx) => {
            FAILURE.with(|f| *f.borrow_mut() = None);
            Ok(ctx)
        }
        Err(_) => Err(Stopped::Budget(Exhausted::Memory)),
    }
}

/// [`isolated`] on the caller's thread: a fresh context made for `f` and
/// made the thread's context while it runs.
fn isolated_here<R: Send + Sync>(f: impl FnOnce() -> R + Send + Sync) -> Result<R, Stopped> {
    // SAFETY: plain Z3 C API calls; the configuration is deleted once the
    // context is made, and the context (null-checked) is owned by the
    // `Context` made from it, which deletes it when its last user is gone.
    let ctx = unsafe {
        let cfg = z3_sys::Z3_mk_config().ok_or(Stopped::Budget(Exhausted::Memory))?;
        let raw = z3_sys::Z3_mk_context_rc(cfg);
        z3_sys::Z3_del_config(cfg);
        z3::Context::from_raw(raw.ok_or(Stopped::Budget(Exhausted::Memory))?)
    };
    Ok(z3::with_z3_context(&ctx, || {
        let _scope = Budget::current().map(|b| enter(&b));
        f()
    }))
}

/// Counts a unit of term-building work and unwinds to the nearest [`guard`]
/// when the thread's budget is exhausted: every call reads the budget's
/// sticky flag (an atomic load; the watchdog of [`enter`] measures the budget
/// every few milliseconds and sets it), and every 2^10 calls measures the
/// budget itself (for a budget made current without a watchdog). The
/// encoder calls it per statement instance and in its loops over cells,
/// offsets and alternatives, so that one statement building many terms
/// cannot outlast the budget.
#[inline]
pub fn tick() {
    let (used, cap) = WORK.with(|w| w.get());
    WORK.with(|w| w.set((used + 1, cap)));
    if used >= cap {
        resume_unwind(Box::new(Capped));
    }
    let hit = TICKER
        .with(|t| t.borrow_mut().tick(10))
        .or_else(Budget::exhausted_current);
    if let Some(e) = hit {
        resume_unwind(Box::new(e));
    }
}

/// The payload of [`tick`]'s unwinding when a [`capped`] scope's work cap is
/// reached.
struct Capped;

/// Runs `f` with at most `cap` units of work ([`tick`]): `None` when it
/// reaches the cap (it unwinds from the tick that does). A deterministic
/// bound, unlike a time limit: the same formula is cut at the same point on
/// any machine. Other panics and the budget's unwinding go on.
pub fn capped<T>(cap: u64, f: impl FnOnce() -> T) -> Option<T> {
    let outer = WORK.with(|w| w.replace((0, cap)));
    let r = catch_unwind(AssertUnwindSafe(f));
    let (used, _) = WORK.with(|w| w.replace(outer));
    // The outer scope counts the inner one's work too.
    WORK.with(|w| {
        let (u, c) = w.get();
        w.set((u.saturating_add(used), c));
    });
    match r {
        Ok(v) => Some(v),
        Err(payload) if payload.is::<Capped>() => None,
        Err(payload) => resume_unwind(payload),
    }
}

/// The units of work counted so far in the innermost [`capped`] scope (or
/// on this thread, outside any).
pub fn work() -> u64 {
    WORK.with(|w| w.get().0)
}

/// Runs `f`; if it stops because the budget ran out ([`tick`]) or because
/// Z3 failed (the z3 crate's panic on a missing term), says why instead.
/// Other panics go on unwinding.
pub fn guard<T>(f: impl FnOnce() -> T) -> Result<T, Stopped> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(v) => {
            // A check that reached Z3's cap answers "unknown" with no error
            // reported: the caller sees the limit in [`failure`].
            note_z3_memory();
            Ok(v)
        }
        Err(payload) => match payload.downcast::<Exhausted>() {
            Ok(e) => Err(Stopped::Budget(*e)),
            Err(payload) => match failure() {
                Some(Failure { memory: true, .. }) => Err(Stopped::Budget(Exhausted::Memory)),
                Some(Failure { message, .. }) => Err(Stopped::Solver(message)),
                None => match Budget::current().and_then(|b| b.exhausted()) {
                    // An interrupted Z3 call may leave the crate without a
                    // term too.
                    Some(e) => Err(Stopped::Budget(e)),
                    None => resume_unwind(payload),
                },
            },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::{Bool, BV};
    use z3::{SatResult, Solver};

    /// Pigeonhole: `n + 1` pigeons in `n` holes (hard for n around 10).
    #[allow(clippy::needless_range_loop)]
    fn pigeons(n: usize) -> Solver {
        let s = Solver::new();
        let p: Vec<Vec<Bool>> = (0..=n)
            .map(|i| {
                (0..n)
                    .map(|j| Bool::new_const(format!("p{i}_{j}")))
                    .collect()
            })
            .collect();
        for row in &p {
            s.assert(Bool::or(&row.iter().collect::<Vec<_>>()));
        }
        for j in 0..n {
            for a in 0..=n {
                for b in a + 1..=n {
                    s.assert(!(&p[a][j] & &p[b][j]));
                }
            }
        }
        s
    }

    #[test]
    fn the_watchdog_interrupts_a_solver_call_when_the_time_is_up() {
        let budget = Budget::new(Some(Duration::from_millis(200)), None);
        let _scope = enter(&budget);
        let s = pigeons(12);
        let start = std::time::Instant::now();
        assert_eq!(s.check(), SatResult::Unknown);
        assert!(start.elapsed() < Duration::from_secs(5));
        assert_eq!(budget.exhausted(), Some(Exhausted::Time));
    }

    #[test]
    fn tick_unwinds_to_the_guard_when_the_budget_is_exhausted() {
        let budget = Budget::new(Some(Duration::ZERO), None);
        let _scope = enter(&budget);
        let n = std::cell::Cell::new(0u64);
        let r = guard(|| loop {
            tick();
            n.set(n.get() + 1);
        });
        assert_eq!(r, Err::<(), _>(Stopped::Budget(Exhausted::Time)));
        assert!(n.get() < 2048, "{}", n.get());
        // Outside a budget, ticking never stops.
        drop(_scope);
        let r = guard(|| (0..5000).for_each(|_| tick()));
        assert_eq!(r, Ok(()));
    }

    #[test]
    fn a_capped_scope_stops_at_its_bound_and_counts_in_the_outer_one() {
        let n = std::cell::Cell::new(0u64);
        let r = capped(100, || loop {
            tick();
            n.set(n.get() + 1);
        });
        assert_eq!(r, None);
        assert_eq!(n.get(), 100);
        let before = work();
        let r = capped(100, || {
            (0..10).for_each(|_| tick());
            7
        });
        assert_eq!(r, Some(7));
        assert_eq!(work() - before, 10);
        // Other panics are not the cap's.
        let r = catch_unwind(|| capped(100, || panic!("a bug")));
        assert!(r.is_err());
    }

    #[test]
    fn isolated_work_runs_in_a_fresh_context_and_passes_its_outcome_back() {
        let _scope = enter(&Budget::unlimited());
        let here = z3::Context::thread_local().get_z3_context().as_ptr() as usize;
        let (there, sat) = isolated(|| {
            let x = BV::new_const("x", 32);
            let s = Solver::new();
            s.assert(x.bvmul(&x).eq(BV::from_u64(49, 32)));
            (
                z3::Context::thread_local().get_z3_context().as_ptr() as usize,
                s.check(),
            )
        })
        .expect("a context is made");
        assert_ne!(here, there);
        assert_eq!(sat, SatResult::Sat);
        // A cap around it counts its work, and stops it.
        let before = work();
        let r = capped(100, || isolated(|| (0..10).for_each(|_| tick())));
        assert_eq!(r, Some(Ok(())));
        assert_eq!(work() - before, 10);
        let r = capped(100, || {
            isolated(|| loop {
                tick()
            })
        });
        assert_eq!(r, None);
        // A panic goes on unwinding in the caller.
        let r = catch_unwind(|| isolated(|| panic!("a bug")));
        assert!(r.is_err());
    }

    #[test]
    fn isolated_work_stops_with_the_callers_budget() {
        let budget = Budget::new(Some(Duration::from_millis(200)), None);
        let _scope = enter_budget(&budget);
        // The solver call is interrupted by the isolated context's watchdog.
        let r = isolated(|| pigeons(12).check());
        assert_eq!(r, Ok(SatResult::Unknown));
        assert_eq!(budget.exhausted(), Some(Exhausted::Time));
        // A tick at the exhausted budget unwinds to the caller's guard.
        let r = guard(|| {
            isolated(|| loop {
                tick()
            })
        });
        assert_eq!(r, Err(Stopped::Budget(Exhausted::Time)));
    }

    #[test]
    fn other_panics_go_on_unwinding() {
        let _scope = enter(&Budget::unlimited());
        let r = catch_unwind(|| guard(|| panic!("a bug")));
        assert!(r.is_err());
    }

    #[test]
    fn terms_build_normally_inside_a_scope() {
        let _scope = enter(&Budget::new(Some(Duration::from_secs(60)), Some(1 << 20)));
        let x = BV::new_const("x", 32);
        let s = Solver::new();
        s.assert(x.bvmul(&x).eq(BV::from_u64(49, 32)));
        assert_eq!(guard(|| s.check()), Ok(SatResult::Sat));
        assert_eq!(failure(), None);
    }
}
