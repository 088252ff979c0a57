//! The names of the enums people choose (`--encoding`, `--int-semantics`),
//! written once: `name()` and `FromStr` agree, and the CLI's `clap` values
//! (feature `clap`) use the same names.

use crate::exec::Encoding;
use crate::sym::IntSemantics;
use std::str::FromStr;

impl Encoding {
    /// Every encoding, in the order the documentation lists them.
    pub const ALL: [Encoding; 3] = [Encoding::Full, Encoding::Trace, Encoding::Flow];

    /// The encoding's name: `full`, `trace`, `flow`.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Full => "full",
            Encoding::Trace => "trace",
            Encoding::Flow => "flow",
        }
    }
}

impl FromStr for Encoding {
    type Err = String;
    fn from_str(s: &str) -> Result<Encoding, String> {
        Encoding::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown encoding '{s}' (expected one of: full, trace, flow)"))
    }
}

impl IntSemantics {
    /// Every integer semantics.
    pub const ALL: [IntSemantics; 2] = [IntSemantics::BitVector, IntSemantics::Math];

    /// The semantics' name: `bv`, `math`.
    pub fn name(self) -> &'static str {
        match self {
            IntSemantics::BitVector => "bv",
            IntSemantics::Math => "math",
        }
    }
}

impl FromStr for IntSemantics {
    type Err = String;
    fn from_str(s: &str) -> Result<IntSemantics, String> {
        IntSemantics::ALL
            .into_iter()
            .find(|e| e.name() == s)
            .ok_or_else(|| format!("unknown integer semantics '{s}' (expected one of: bv, math)"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for e in Encoding::ALL {
            assert_eq!(e.name().parse::<Encoding>(), Ok(e));
        }
        for i in IntSemantics::ALL {
            assert_eq!(i.name().parse::<IntSemantics>(), Ok(i));
        }
        assert!("bogus".parse::<Encoding>().is_err());
    }
}
