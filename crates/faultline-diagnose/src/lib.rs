//! MCS enumeration and the localization strategies.
//!
//! - [`mcs`]: the one MCS engine every strategy uses.
//! - [`localize`]: the formula-based methods (`full`/`trace`/`flow` encodings
//!   combined by `mbd`, `setcombine` or `per-test`).
//! - [`bounds`]: unwinding bounds from the failing runs.
//! - [`result`]: diagnoses, angelic values, rankings.

pub mod agx;
pub mod bounds;
pub mod cafl;
pub mod explore;
pub mod localize;
pub mod mcs;
pub mod methods;
pub mod ofc;
pub mod result;
pub mod share;
pub mod weights;
pub mod witness;

pub use localize::{localize, Combine, Options, Progress, ProgressHook, Session};
pub use result::{Angelic, AngelicValue, Diagnosis, Incomplete, Localization, Ranked};
