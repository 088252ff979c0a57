//! C library formatting and parsing routines that reproduce glibc's
//! behaviour (x86-64 Linux, C locale) byte for byte.
//!
//! * [`printf`]: parsing printf formats and rendering conversions, including
//!   exact (big-integer) decimal expansion of doubles with round-half-even.
//! * [`scanf`]: the glibc 2.36 `vfscanf` state machine over an [`Input`]
//!   cursor that also serves `getchar`.
//! * [`strconv`]: `atoi`, `atol`, `atof`, `strtol`, `strtoul`, `strtod`,
//!   `strtof`.
//!
//! Everything is a pure function over bytes: no interpreter types, no I/O,
//! and no panics on any input.

pub mod printf;
mod random;
pub mod scanf;
pub mod strconv;

pub use printf::{
    format, parse_format, render, Arg, ArgType, Flags, Piece, Precision, Spec, Width,
};
pub use random::Random;
pub use scanf::{parse_scanf_format, run_format, scanf, Input, ScanFormat, ScanOutcome, Scanned};
pub use strconv::{atof, atoi, atol, strtod_prefix, strtof_prefix, strtol, strtoul};

use std::fmt;

/// A length modifier of a printf/scanf conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Length {
    /// No modifier.
    #[default]
    None,
    /// `hh` (`char`).
    Char,
    /// `h` (`short`).
    Short,
    /// `l` (`long`, `wint_t` for `%lc`, `double` for scanf `%lf`).
    Long,
    /// `ll` or `q` (`long long`).
    LongLong,
    /// `j` (`intmax_t`).
    IntMax,
    /// `z` or `Z` (`size_t`).
    Size,
    /// `t` (`ptrdiff_t`).
    PtrDiff,
    /// `L` (`long double`; `long long` for integer conversions).
    LongDouble,
}

/// A format string that faultline does not support or that is malformed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError {
    /// Byte offset in the format string of the offending `%`.
    pub offset: usize,
    /// Human-readable description, e.g. `unsupported printf conversion '%n'`.
    pub message: String,
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at byte {})", self.message, self.offset)
    }
}

impl std::error::Error for FormatError {}

/// The length modifier of a printf or scanf conversion at `fmt[*i..]`, if
/// any (`hh h l ll q L j z t`); advances `*i` past it.
pub(crate) fn parse_length(fmt: &[u8], i: &mut usize) -> Length {
    match fmt.get(*i) {
        Some(b'h') if fmt.get(*i + 1) == Some(&b'h') => {
            *i += 2;
            Length::Char
        }
        Some(b'h') => {
            *i += 1;
            Length::Short
        }
        Some(b'l') if fmt.get(*i + 1) == Some(&b'l') => {
            *i += 2;
            Length::LongLong
        }
        Some(b'l') => {
            *i += 1;
            Length::Long
        }
        Some(b'q') => {
            *i += 1;
            Length::LongLong
        }
        Some(b'L') => {
            *i += 1;
            Length::LongDouble
        }
        Some(b'j') => {
            *i += 1;
            Length::IntMax
        }
        Some(b'z') => {
            *i += 1;
            Length::Size
        }
        Some(b't') => {
            *i += 1;
            Length::PtrDiff
        }
        _ => Length::None,
    }
}
