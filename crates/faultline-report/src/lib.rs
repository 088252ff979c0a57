//! Renderers: what faultline shows people and tools.
//!
//! - [`tests`]: the verdicts of `faultline test` (text, and JSON schema `faultline.test/1`).
//! - [`text`]: the plain-text report of `faultline localize`.
//! - [`json`]: the JSON report of `faultline localize` (schema `faultline.localize/1`).

pub mod json;
pub mod tests;
pub mod text;
