//! MCS enumeration and the localization methods.
//!
//! - [`session`]: the program with its tests run; [`options`]: what the user
//!   sets independently of the method.
//! - [`engine`]: what every method asks for (encodings, solving, validation
//!   by replay and by each test's own formula, statistics).
//! - [`mcs`]: the one MCS engine every strategy uses; [`formula`]: a test
//!   formula with its enumerator.
//! - [`combine`]: ways of combining tests (`mbd`, `setcombine`, `per-test`).
//! - [`explore`], [`ondemand`]: explored program parts and the on-demand
//!   formulas over them (OFC, AgxFaults).
//! - [`methods`]: the methods, one file each, selectable by name.
//! - [`share`]: confirming a test's MCSes from a test on the same path.
//! - [`weights`]: suspiciousness and clause weights; [`ranking`]: rankings;
//!   [`plausible`]: which angelic values are plausible fixes; [`printed`]:
//!   output statements checked by their text alone.
//! - [`angelic`], [`witness`]: angelic values from models, and replays.
//! - [`bounds`]: unwinding bounds from the failing runs.
//! - [`result`]: diagnoses, angelic values, rankings (crate `faultline-result`).

pub mod angelic;
pub mod bounds;
pub mod cafl;
pub mod combine;
pub mod engine;
pub mod explore;
pub mod formula;
pub mod mcs;
pub mod mdfs;
pub mod methods;
pub mod numeric;
pub mod ondemand;
pub mod options;
pub mod plausible;
pub mod printed;
pub mod profile;
pub mod ranking;
pub mod repair;
/// The result model (crate `faultline-result`, which links no solver).
pub use faultline_result as result;
pub mod session;
pub mod share;
pub mod switch;
pub mod weights;
pub mod witness;

pub use combine::Combine;
pub use methods::formula::localize;
pub use methods::{agx, ofc};
pub use options::{Options, DEFAULT_EFFORT, DEFAULT_JOINT_WORK, DEFAULT_THREADS};
pub use result::{Angelic, AngelicValue, Diagnosis, Incomplete, Localization, Ranked};
pub use session::{Progress, ProgressHook, Session};
