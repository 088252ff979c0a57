//! A developer's profile of solver calls: with `FAULTLINE_PROFILE=1` in the
//! environment, every solver call of the engine and of the MCS search is
//! written to stderr as one line (what it was for, its result, its time), so
//! that a slow localization shows which queries cost. Off by default; it
//! never changes what is computed. `FAULTLINE_PROFILE_EFFORT=1` adds each
//! check's solver effort, which can (see [`effort_count`]).

use std::sync::OnceLock;
use std::time::Duration;

/// Whether profiling is on (read once per process).
pub fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("FAULTLINE_PROFILE").is_some_and(|v| v != "0"))
}

/// Writes one profile line when profiling is on; `what` is only built then.
pub fn log(what: impl FnOnce() -> String, result: &str, took: Duration) {
    if enabled() {
        eprintln!(
            "profile: {:>9.3} ms  {:<10} {}",
            took.as_secs_f64() * 1e3,
            result,
            what()
        );
    }
}

/// Whether the solver effort of each check is profiled too
/// (`FAULTLINE_PROFILE_EFFORT=1`, read once per process).
fn effort_enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("FAULTLINE_PROFILE_EFFORT").is_some_and(|v| v != "0"))
}

/// The solver effort (Z3's `rlimit count`) the solver has spent so far,
/// with `FAULTLINE_PROFILE_EFFORT=1` (0 otherwise). Only for measuring:
/// reading Z3's statistics after a check changes what later checks on the
/// same solver decide (`tests/limits/endless`: its missing update of `i` is
/// explained without the readings and refuted with them), so a run that
/// reads them may differ from one that does not.
pub fn effort_count(solver: &z3::Solver) -> u64 {
    if !effort_enabled() {
        return 0;
    }
    match solver.get_statistics().value("rlimit count") {
        Some(z3::StatisticsValue::UInt(u)) => u64::from(u),
        Some(z3::StatisticsValue::Double(d)) => d as u64,
        None => 0,
    }
}
