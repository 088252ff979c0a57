//! Renderers: what faultline shows people and tools.
//!
//! - [`tests`]: the verdicts of `faultline test` (text, and JSON schema `faultline.test/1`).
//! - [`text`]: the terminal report of `faultline localize` (annotated source, rustc-style),
//!   built on [`snippet`] and coloured through [`style`].
//! - [`json`]: the JSON report of `faultline localize` (schema `faultline.localize/1`).
//! - [`sarif`]: the SARIF 2.1.0 log of `faultline localize`, for code scanning tools.
//! - [`html`]: a self-contained HTML page of `faultline localize`.
//! - [`progress`]: the progress indicator shown on a terminal's stderr during long runs.
//!
//! docs/reports.md describes every format for users.

pub mod cafl_report;
pub mod html;
pub mod json;
pub mod progress;
pub mod sarif;
pub mod snippet;
pub mod style;
pub mod tests;
pub mod text;

use faultline_diagnose::Localization;
use faultline_exec::{Run, TestCase};
use faultline_ir::Program;

/// Everything a localization report can show: the program, the settings, the
/// result, and the suite with its runs (the runs the localization made; no
/// renderer runs anything).
#[derive(Clone, Copy)]
pub struct Subject<'a> {
    pub prog: &'a Program,
    /// The program's path as the user gave it.
    pub program_name: &'a str,
    pub settings: &'a json::Settings,
    pub loc: &'a Localization,
    /// The tests, in suite order (as `loc.tests`).
    pub tests: &'a [TestCase],
    /// Each test's run, in suite order (may be empty when not available).
    pub runs: &'a [Run],
}

/// A stable 64-bit hash (FNV-1a) of byte strings, each followed by a NUL, as
/// 16 hex digits: used for SARIF fingerprints, so it must never change.
pub fn stable_hash<'a>(parts: impl IntoIterator<Item = &'a [u8]>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in p.iter().chain(std::iter::once(&0u8)) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

#[cfg(test)]
mod hash_tests {
    #[test]
    fn stable_hash_is_fnv1a() {
        // FNV-1a of "a\0".
        assert_eq!(super::stable_hash([b"a".as_slice()]), "089be207b544f1e4");
        assert_ne!(
            super::stable_hash([b"ab".as_slice(), b"c"]),
            super::stable_hash([b"a".as_slice(), b"bc"])
        );
    }
}
