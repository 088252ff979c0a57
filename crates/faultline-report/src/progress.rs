//! The progress indicator: one line on stderr, redrawn in place, for work
//! that takes more than about a second, and only when stderr is a terminal.
//!
//! The caller announces phases ([`Indicator::phase`]) and, where the library
//! reports them, counted steps ([`Event`] through [`ProgressSink::event`]);
//! a background thread redraws the line every 100 ms with a spinner and the
//! elapsed time. [`Indicator::finish`] (or dropping it) erases the line, so
//! the report that follows starts on a clean line.
//!
//! ```text
//! ⠹ encoding failing tests: 2 of 3 · 1 diagnosis so far · 4.1 s
//! ```

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Nothing is drawn before the work has taken this long.
pub const DELAY: Duration = Duration::from_millis(1000);
/// Redraw interval.
pub const TICK: Duration = Duration::from_millis(100);

const SPINNER: [char; 10] = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/// A step of the localization, as a library reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A new phase, e.g. "running 1608 tests".
    Phase(String),
    /// `done` of `total` tests have run.
    TestsRun { done: usize, total: usize },
    /// `done` of `total` failing tests have been encoded as formulas.
    TestsEncoded { done: usize, total: usize },
    /// `count` diagnoses have been found so far.
    Diagnoses { count: usize },
}

/// Receives progress events (from any thread).
pub trait ProgressSink: Send + Sync {
    fn event(&self, e: Event);
}

/// What the line shows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    pub phase: String,
    pub tests_run: Option<(usize, usize)>,
    pub encoded: Option<(usize, usize)>,
    pub diagnoses: Option<usize>,
}

impl State {
    pub fn apply(&mut self, e: Event) {
        match e {
            Event::Phase(p) => {
                self.phase = p;
            }
            Event::TestsRun { done, total } => self.tests_run = Some((done, total)),
            Event::TestsEncoded { done, total } => self.encoded = Some((done, total)),
            Event::Diagnoses { count } => self.diagnoses = Some(count),
        }
    }

    /// The line for `tick` (spinner frame) after `elapsed`.
    pub fn line(&self, tick: usize, elapsed: Duration) -> String {
        let mut parts = vec![format!(
            "{} {}",
            SPINNER[tick % SPINNER.len()],
            if self.phase.is_empty() {
                "working"
            } else {
                &self.phase
            }
        )];
        if let Some((d, t)) = self.tests_run {
            parts.push(format!("{d} of {t} tests run"));
        }
        if let Some((d, t)) = self.encoded {
            parts.push(format!("{d} of {t} failing tests encoded"));
        }
        if let Some(n) = self.diagnoses {
            parts.push(format!(
                "{n} diagnos{} so far",
                if n == 1 { "is" } else { "es" }
            ));
        }
        parts.push(format!("{:.1} s", elapsed.as_secs_f64()));
        parts.join(" · ")
    }
}

struct Shared {
    state: Mutex<(State, bool)>,
    wake: Condvar,
}

/// The stderr progress line. Disabled indicators accept events and draw nothing.
pub struct Indicator {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Indicator {
    /// An indicator drawing on stderr when `enabled`; see [`Indicator::for_stderr`].
    pub fn new(enabled: bool) -> Indicator {
        let shared = Arc::new(Shared {
            state: Mutex::new((State::default(), false)),
            wake: Condvar::new(),
        });
        let thread = enabled.then(|| {
            let shared = Arc::clone(&shared);
            std::thread::spawn(move || draw_loop(&shared))
        });
        Indicator { shared, thread }
    }

    /// Enabled when stderr is a terminal and `quiet` is off.
    pub fn for_stderr(quiet: bool) -> Indicator {
        Indicator::new(!quiet && std::io::stderr().is_terminal())
    }

    pub fn is_enabled(&self) -> bool {
        self.thread.is_some()
    }

    /// Starts a phase (clearing the counters of the previous one).
    pub fn phase(&self, phase: impl Into<String>) {
        let mut g = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        g.0 = State {
            phase: phase.into(),
            ..State::default()
        };
    }

    /// The current state (for tests and callers that log).
    pub fn state(&self) -> State {
        self.shared
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .0
            .clone()
    }

    /// Prints `text` (whole lines) on stdout above the progress line: the
    /// line is erased first and redrawn at the next tick, so the two never
    /// mix on a terminal (a class run's line per submission).
    pub fn print_above(&self, text: &str) {
        let _g = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        if self.is_enabled() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    }

    /// Erases the line and stops the drawing thread without waiting for it
    /// (for a caller about to end the process).
    pub fn halt(&self) {
        if self.is_enabled() {
            self.signal_stop();
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[2K");
            let _ = err.flush();
        }
    }

    /// Erases the line and stops the drawing thread.
    pub fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(t) = self.thread.take() {
            self.signal_stop();
            let _ = t.join();
        }
    }

    /// Tells the drawing thread to erase the line and end.
    fn signal_stop(&self) {
        self.shared
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .1 = true;
        self.shared.wake.notify_all();
    }
}

impl ProgressSink for Indicator {
    fn event(&self, e: Event) {
        self.shared
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .0
            .apply(e);
    }
}

impl Drop for Indicator {
    fn drop(&mut self) {
        self.stop();
    }
}

fn draw_loop(shared: &Shared) {
    let start = Instant::now();
    let mut drawn = false;
    let mut tick = 0usize;
    let mut g = shared.state.lock().unwrap_or_else(|e| e.into_inner());
    while !g.1 {
        let wait = if drawn {
            TICK
        } else {
            DELAY
                .saturating_sub(start.elapsed())
                .max(Duration::from_millis(1))
        };
        g = shared
            .wake
            .wait_timeout(g, wait)
            .unwrap_or_else(|e| e.into_inner())
            .0;
        if g.1 {
            break;
        }
        if start.elapsed() < DELAY {
            continue;
        }
        let line = g.0.line(tick, start.elapsed());
        tick += 1;
        let mut err = std::io::stderr().lock();
        // \r and "erase line": redraw in place.
        let _ = write!(err, "\r\x1b[2K{line}");
        let _ = err.flush();
        drawn = true;
    }
    if drawn {
        let mut err = std::io::stderr().lock();
        let _ = write!(err, "\r\x1b[2K");
        let _ = err.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_shows_phase_counters_and_time() {
        let mut s = State::default();
        assert_eq!(s.line(0, Duration::from_millis(1500)), "⠋ working · 1.5 s");
        s.apply(Event::Phase("localizing 3 failing tests".into()));
        s.apply(Event::TestsEncoded { done: 2, total: 3 });
        s.apply(Event::Diagnoses { count: 1 });
        assert_eq!(
            s.line(2, Duration::from_millis(4100)),
            "⠹ localizing 3 failing tests · 2 of 3 failing tests encoded · 1 diagnosis so far · 4.1 s"
        );
        s.apply(Event::TestsRun { done: 5, total: 8 });
        s.apply(Event::Diagnoses { count: 2 });
        assert!(s.line(0, Duration::ZERO).contains("5 of 8 tests run"));
        assert!(s.line(0, Duration::ZERO).contains("2 diagnoses so far"));
    }

    #[test]
    fn phases_reset_counters_and_disabled_indicators_draw_nothing() {
        let ind = Indicator::new(false);
        assert!(!ind.is_enabled());
        ind.event(Event::TestsRun { done: 1, total: 2 });
        assert_eq!(ind.state().tests_run, Some((1, 2)));
        ind.phase("solving");
        assert_eq!(
            ind.state(),
            State {
                phase: "solving".into(),
                ..State::default()
            }
        );
        ind.finish();
    }

    #[test]
    fn enabled_indicator_stops_promptly() {
        let ind = Indicator::new(true);
        let t = Instant::now();
        ind.finish();
        assert!(t.elapsed() < Duration::from_millis(500));
    }
}
