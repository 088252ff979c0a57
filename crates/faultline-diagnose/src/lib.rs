//! MCS enumeration and the localization strategies
