//! The localization methods, selectable by name, and their rankings.
//!
//! | name | method |
//! |---|---|
//! | `full`, `flow`, `trace` | formula of that encoding, tests combined by `--combine` (default `mbd`) |
//! | `bugassist` | `full`, MCSes per failing test (`per-test`) |
//! | `sniper` | `flow` combined by `setcombine` |
//! | `cfaults` | `full` combined by `mbd` |
//! | `ofc` | on-demand formulas per failing test ([`crate::ofc`]) |
//! | `ofc+cw` | `ofc` with clause weighting (Ochiai; [`crate::weights`]) |
//! | `agx` | AgxFaults, incremental angelic fix localization ([`crate::agx`]) |
//! | `mdfs` | minimum debugging frontier sets on one failing test ([`crate::mdfs`]) |
//!
//! Each method is one file ([`formula`], [`ofc`], [`agx`]) with a `run`
//! function that decides the encoding, the combination of tests and the
//! clause weights, asks the [`Engine`](crate::engine::Engine) for what it
//! needs and builds the [`Localization`]; the engine never calls a method.
//! Rankings are in [`crate::ranking`].
//!
//! A new method is registered in this file: a [`Method`] variant, its names
//! in [`Method::parse`] and [`Method::name`], and its arm in [`run`].

pub mod agx;
pub mod formula;
pub mod ofc;

pub use crate::ranking::{merge_rankings, per_test_rankings, per_test_sets, rank_statements};

use crate::combine::Combine;
use crate::engine::{incomplete_of_exhausted, Engine};
use crate::options::Options;
use crate::result::{Incomplete, Localization};
use crate::session::Session;
use crate::weights::Formula;
use faultline_smt::limits::Stopped;
use faultline_smt::Encoding;

/// A localization method.
#[derive(Clone, Debug, PartialEq)]
pub enum Method {
    /// A formula of one encoding, tests combined one way, optionally with
    /// clause weights.
    Formula {
        encoding: Encoding,
        combine: Combine,
        weights: Option<Formula>,
    },
    /// OFC, optionally with clause weights from a suspiciousness formula;
    /// per failing test (the paper's merge), or `mbd` over the tests.
    Ofc {
        weights: Option<Formula>,
        combine: Combine,
    },
    /// AgxFaults, optionally with clause weights.
    Agx { weights: Option<Formula> },
    /// Minimum debugging frontier sets, on one failing test ([`crate::mdfs`]).
    Mdfs,
}

impl Method {
    /// The names [`Method::parse`] accepts.
    pub const NAMES: [&'static str; 15] = [
        "full",
        "flow",
        "trace",
        "full+cw",
        "bugassist",
        "bugassist+cw",
        "sniper",
        "cfaults",
        "ofc",
        "ofc+cw",
        "ofc+tarantula",
        "ofc+dstar",
        "agx",
        "agx+cw",
        "mdfs",
    ];

    /// Parses a method name (see the module docs). `combine` chooses how the
    /// formula methods given by encoding name (default `mbd`) and OFC
    /// (default `per-test`, merged by the paper's rule) combine tests.
    pub fn parse(name: &str, combine: Option<Combine>) -> Result<Method, String> {
        let formula_combine = combine.unwrap_or(Combine::Mbd);
        let ofc_combine = match combine {
            Some(Combine::Mbd) => Combine::Mbd,
            _ => Combine::PerTest,
        };
        let formula = |encoding, combine, weights| Method::Formula {
            encoding,
            combine,
            weights,
        };
        let ofc = |weights| Method::Ofc {
            weights,
            combine: ofc_combine,
        };
        let cw = Some(Formula::Ochiai);
        Ok(match name {
            "full" | "flow" | "trace" => {
                let encoding = name.parse::<Encoding>()?;
                formula(encoding, formula_combine, None)
            }
            "full+cw" => formula(Encoding::Full, formula_combine, cw),
            "bugassist" => formula(Encoding::Full, Combine::PerTest, None),
            "bugassist+cw" => formula(Encoding::Full, Combine::PerTest, cw),
            "sniper" => formula(Encoding::Flow, Combine::SetCombine, None),
            "cfaults" => formula(Encoding::Full, Combine::Mbd, None),
            "ofc" => ofc(None),
            "ofc+cw" => ofc(cw),
            "ofc+tarantula" => ofc(Some(Formula::Tarantula)),
            "ofc+dstar" => ofc(Some(Formula::DStar)),
            "agx" => Method::Agx { weights: None },
            "agx+cw" => Method::Agx { weights: cw },
            "mdfs" => Method::Mdfs,
            other => {
                return Err(format!(
                    "unknown method '{other}' (expected one of: {})",
                    Method::NAMES.join(", ")
                ))
            }
        })
    }

    /// The method's name in reports: `ENCODING+COMBINATION[+cw]` for formula
    /// methods, `ofc[+WEIGHTS][+mbd]`, `agx[+WEIGHTS]`.
    pub fn name(&self) -> String {
        let weights = |w: &Option<Formula>| match w {
            None => String::new(),
            Some(Formula::Ochiai) => "+cw".into(),
            Some(f) => format!("+{}", f.name()),
        };
        match self {
            Method::Formula {
                encoding,
                combine,
                weights,
            } => format!(
                "{}+{}{}",
                encoding.name(),
                combine.name(),
                if weights.is_some() { "+cw" } else { "" }
            ),
            Method::Ofc {
                weights: w,
                combine,
            } => format!(
                "ofc{}{}",
                weights(w),
                if *combine == Combine::Mbd { "+mbd" } else { "" }
            ),
            Method::Agx { weights: w } => format!("agx{}", weights(w)),
            Method::Mdfs => "mdfs".into(),
        }
    }
}

/// Runs a method. Limits hold throughout: a session that the budget stopped
/// is not searched, and a method stopped by the budget or by Z3 failing
/// where no partial result can be kept gives an empty, incomplete one.
pub fn run(session: &Session, method: &Method, options: &Options) -> Localization {
    let start = std::time::Instant::now();
    let empty = |s| stopped(session, options, method.name(), s, start);
    if let Some(e) = session.incomplete {
        return empty(Stopped::Budget(e));
    }
    let run = || faultline_smt::limits::guard(|| run_unguarded(session, method, options));
    faultline_smt::limits::isolated(run)
        .and_then(|r| r)
        .unwrap_or_else(empty)
}

/// The empty, incomplete localization `name` of a method that was stopped
/// before it could keep any result.
pub(crate) fn stopped(
    session: &Session,
    options: &Options,
    name: String,
    why: Stopped,
    start: std::time::Instant,
) -> Localization {
    let incomplete = match why {
        Stopped::Budget(e) => incomplete_of_exhausted(e),
        Stopped::Solver(m) => Incomplete::Solver(m),
    };
    Engine::new(session, options.clone(), Encoding::Full).into_localization(
        name,
        Vec::new(),
        Vec::new(),
        Some(incomplete),
        start,
    )
}

fn run_unguarded(session: &Session, method: &Method, options: &Options) -> Localization {
    let name = method.name();
    match *method {
        Method::Formula {
            encoding,
            combine,
            weights,
        } => formula::run(session, encoding, combine, weights, options, name),
        Method::Ofc { weights, combine } => ofc::run(session, weights, combine, options, name),
        Method::Agx { weights } => agx::run(session, weights, options, name),
        Method::Mdfs => crate::mdfs::run_default(session, options),
    }
}
