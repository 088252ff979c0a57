//! MCS enumeration and the localization strategies

pub mod mcs;
