//! What the user sets independently of the method: bounds, limits, progress.
//!
//! The method decides the encoding, the combination of tests and the clause
//! weights ([`crate::methods::Method`]); how outputs are compared and the
//! limits of runs are the session's ([`crate::session::Session`]).

use crate::session::ProgressHook;
use crate::weights::Spectrum;
use faultline_smt::IntSemantics;
use std::time::Duration;

/// Settings of a localization.
#[derive(Clone, Debug)]
pub struct Options {
    pub max_size: usize,
    pub max_diagnoses: usize,
    pub timeout: Option<Duration>,
    pub unwind: Option<u32>,
    pub int_semantics: IntSemantics,
    /// Memory limit in MiB (the solver's and the process's).
    pub max_memory: Option<u64>,
    /// What counts as coverage for clause weights.
    pub spectrum: Spectrum,
    /// Called as the search progresses.
    pub progress: Option<ProgressHook>,
    /// Per-test methods: confirm the MCSes of a test on the path of one
    /// already enumerated instead of enumerating ([`crate::share`]). Results
    /// are the same either way; off only to measure or to cross-check.
    pub share_paths: bool,
    /// The solver's effort limit of each focused check (Z3's deterministic
    /// resource units, [`DEFAULT_EFFORT`] by default; `None`: unlimited): a
    /// statement whose check reaches it is left undecided, and the result
    /// says so (see `combine::mbd`).
    pub effort: Option<u32>,
    /// `mbd` in cardinality order: every minimal diagnosis up to `max_size`
    /// (`true`), or only those of the smallest size that has any (`false`,
    /// the default: the parsimony principle of model-based diagnosis, as
    /// CFaults' optimal MaxSAT solutions; larger sets are searched only when
    /// no smaller one explains the failing tests).
    pub all_sizes: bool,
    /// Engines checking single statements at once (1 or 2): with 2, once
    /// the checks cost, a second engine on a thread of its own takes every
    /// other one (see `combine::mbd`). The results do not depend on timing,
    /// but may differ between 1 and 2 where a check reaches the effort
    /// limit (each engine's solver history is its own).
    pub threads: usize,
    /// The work bound of `mbd`'s joint formula after focused checks, with
    /// the effort limit (units of `faultline_smt::limits::work`,
    /// [`DEFAULT_JOINT_WORK`] by default): beyond it, the search for larger
    /// diagnoses stops, partial as at the effort limit.
    pub joint_work: u64,
}

/// The default number of engines checking single statements at once.
pub const DEFAULT_THREADS: usize = 2;

/// The default effort limit of a focused check.
pub const DEFAULT_EFFORT: u32 = 2_000_000;

/// The default work bound of `mbd`'s joint formula ([`Options::joint_work`]).
/// Measured (`FAULTLINE_PROFILE`, stop 39): over all of IntroClass, the
/// joint formulas whose search completed took at most 91,974 units
/// (`syllables/dde0a464-006`, diagnoses of two statements); the course
/// benchmark builds none. Siemens `tot_info` v1's reached 7.5 million units
/// and 3.7 GB in 15 s without one test encoded whole, v4's 3.3 million in
/// 12 s.
pub const DEFAULT_JOINT_WORK: u64 = 300_000;

impl Default for Options {
    fn default() -> Self {
        Options {
            max_size: 3,
            max_diagnoses: 100,
            timeout: None,
            unwind: None,
            int_semantics: IntSemantics::BitVector,
            max_memory: None,
            spectrum: Spectrum::Use,
            progress: None,
            share_paths: true,
            effort: Some(DEFAULT_EFFORT),
            all_sizes: false,
            threads: DEFAULT_THREADS,
            joint_work: DEFAULT_JOINT_WORK,
        }
    }
}
