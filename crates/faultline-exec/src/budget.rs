//! The time and memory a whole job may use (a localization: running the
//! tests, tracing, encoding, solving, replaying), as opposed to the
//! [`Limits`](crate::Limits) of one run.
//!
//! A [`Budget`] is shared (cloning it shares it): a deadline, a cap on the
//! process's resident memory, and a sticky flag set when either is exceeded
//! (or when someone reports exhaustion, e.g. Z3 running out of memory).
//! [`Budget::check`] reads the clock and `/proc/self/statm` (a few
//! microseconds); long loops call it every few thousand iterations.
//!
//! The budget of the job a thread is doing is that thread's *current* budget
//! ([`Budget::enter`]): the interpreter, and the encoders and solvers above it,
//! check it without it being passed through every call (Z3's contexts are
//! per thread too). A thread without one is unlimited.

use std::cell::RefCell;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which part of a budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Exhausted {
    /// The deadline passed.
    Time,
    /// The process's resident memory exceeded the cap (or an allocation failed).
    Memory,
}

impl Exhausted {
    fn code(self) -> u8 {
        match self {
            Exhausted::Time => 1,
            Exhausted::Memory => 2,
        }
    }
    fn from_code(c: u8) -> Option<Exhausted> {
        match c {
            1 => Some(Exhausted::Time),
            2 => Some(Exhausted::Memory),
            _ => None,
        }
    }
}

#[derive(Debug)]
struct Inner {
    deadline: Option<Instant>,
    max_memory_mib: Option<u64>,
    exhausted: AtomicU8,
}

/// A deadline and a memory cap shared by every phase of a job.
#[derive(Clone, Debug)]
pub struct Budget(Arc<Inner>);

thread_local! {
    static CURRENT: RefCell<Option<Budget>> = const { RefCell::new(None) };
}

impl Budget {
    /// A budget of `timeout` from now and `max_memory_mib` MiB of resident
    /// memory (`None`: no such limit).
    pub fn new(timeout: Option<Duration>, max_memory_mib: Option<u64>) -> Budget {
        Budget(Arc::new(Inner {
            deadline: timeout.map(|t| Instant::now() + t),
            max_memory_mib,
            exhausted: AtomicU8::new(0),
        }))
    }

    /// No limit at all.
    pub fn unlimited() -> Budget {
        Budget::new(None, None)
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.0.deadline
    }

    pub fn max_memory_mib(&self) -> Option<u64> {
        self.0.max_memory_mib
    }

    /// Whether there is anything to check.
    pub fn is_limited(&self) -> bool {
        self.0.deadline.is_some() || self.0.max_memory_mib.is_some()
    }

    /// Time left before the deadline (`None`: no deadline).
    pub fn time_left(&self) -> Option<Duration> {
        self.0
            .deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// What has run out so far, without measuring anything (an atomic load).
    pub fn exhausted(&self) -> Option<Exhausted> {
        Exhausted::from_code(self.0.exhausted.load(Ordering::Relaxed))
    }

    /// Records that `what` ran out (the first report sticks).
    pub fn exhaust(&self, what: Exhausted) {
        let _ =
            self.0
                .exhausted
                .compare_exchange(0, what.code(), Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Measures the clock and the resident memory now: what has run out, if
    /// anything (and records it).
    pub fn check(&self) -> Option<Exhausted> {
        if let Some(e) = self.exhausted() {
            return Some(e);
        }
        if self.0.deadline.is_some_and(|d| Instant::now() >= d) {
            self.exhaust(Exhausted::Time);
        } else if self
            .0
            .max_memory_mib
            .is_some_and(|m| resident_mib() > m as f64)
        {
            self.exhaust(Exhausted::Memory);
        }
        self.exhausted()
    }

    /// Makes this the current thread's budget until the returned guard is
    /// dropped (the previous one is restored then).
    pub fn enter(&self) -> Entered {
        let previous = CURRENT.with(|c| c.borrow_mut().replace(self.clone()));
        Entered { previous }
    }

    /// The current thread's budget, if it has one.
    pub fn current() -> Option<Budget> {
        CURRENT.with(|c| c.borrow().clone())
    }

    /// What of the current thread's budget has run out so far, without
    /// measuring anything (see [`Budget::exhausted`]; `None` without a
    /// budget).
    pub fn exhausted_current() -> Option<Exhausted> {
        CURRENT.with(|c| c.borrow().as_ref().and_then(Budget::exhausted))
    }

    /// Checks the current thread's budget (see [`Budget::check`]).
    pub fn check_current() -> Option<Exhausted> {
        CURRENT.with(|c| c.borrow().as_ref().and_then(Budget::check))
    }
}

/// Restores the thread's previous budget when dropped ([`Budget::enter`]).
#[must_use = "the budget is current only while the guard lives"]
pub struct Entered {
    previous: Option<Budget>,
}

impl Drop for Entered {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// Counts calls and checks the current budget every `2^shift` of them: the
/// periodic check of a long loop.
#[derive(Debug, Default)]
pub struct Ticker(u32);

impl Ticker {
    /// `Some` when a check (every `2^shift` calls) finds the budget exhausted.
    #[inline]
    pub fn tick(&mut self, shift: u32) -> Option<Exhausted> {
        self.0 = self.0.wrapping_add(1);
        if self.0 & ((1 << shift) - 1) == 0 {
            Budget::check_current()
        } else {
            None
        }
    }
}

/// The process's resident memory in MiB (Linux `/proc/self/statm`; 0 elsewhere).
pub fn resident_mib() -> f64 {
    resident_mib_of("self")
}

/// The resident memory in MiB of process `pid` (a number, or `self`; Linux
/// `/proc/PID/statm`; 0 elsewhere or if there is no such process).
pub fn resident_mib_of(pid: &str) -> f64 {
    std::fs::read_to_string(format!("/proc/{pid}/statm"))
        .ok()
        .and_then(|s| {
            s.split_whitespace()
                .nth(1)
                .and_then(|p| p.parse::<f64>().ok())
        })
        .map_or(0.0, |pages| pages * 4096.0 / (1024.0 * 1024.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_passed_deadline_is_exhausted_and_sticks() {
        let b = Budget::new(Some(Duration::ZERO), None);
        assert_eq!(b.exhausted(), None, "nothing measured yet");
        assert_eq!(b.check(), Some(Exhausted::Time));
        assert_eq!(b.exhausted(), Some(Exhausted::Time));
        b.exhaust(Exhausted::Memory);
        assert_eq!(
            b.exhausted(),
            Some(Exhausted::Time),
            "the first report sticks"
        );
    }

    #[test]
    fn a_tiny_memory_cap_is_exceeded() {
        let b = Budget::new(None, Some(0));
        assert_eq!(b.check(), Some(Exhausted::Memory));
        assert_eq!(Budget::unlimited().check(), None);
    }

    #[test]
    fn the_current_budget_is_per_thread_and_restored() {
        assert!(Budget::current().is_none());
        let b = Budget::new(Some(Duration::ZERO), None);
        {
            let _g = b.enter();
            assert_eq!(Budget::check_current(), Some(Exhausted::Time));
            let inner = Budget::unlimited();
            {
                let _g2 = inner.enter();
                assert_eq!(Budget::check_current(), None);
                std::thread::spawn(|| assert!(Budget::current().is_none()))
                    .join()
                    .unwrap();
            }
            assert_eq!(Budget::check_current(), Some(Exhausted::Time));
        }
        assert!(Budget::current().is_none());
    }

    #[test]
    fn a_ticker_checks_every_two_to_the_shift_calls() {
        let b = Budget::new(Some(Duration::ZERO), None);
        let _g = b.enter();
        let mut t = Ticker::default();
        let hits: Vec<usize> = (1..=20).filter(|_| t.tick(3).is_some()).collect();
        assert_eq!(hits, vec![8, 16]);
    }
}
