//! The formula methods: every failing test's formula in one encoding
//! (`full`, `trace`, `flow`), tests combined by `mbd`, `setcombine` or
//! `per-test`, optionally with clause weights (BugAssist, SNIPER, CFaults
//! and their `+cw` variants).

use crate::combine::mbd::Mbd;
use crate::combine::per_test::PerTest;
use crate::combine::setcombine::SetCombine;
use crate::combine::{Combination, Combine};
use crate::engine::Engine;
use crate::options::Options;
use crate::plausible::Plausibility;
use crate::ranking::{merge_rankings, per_test_rankings, rank_by_diagnoses, weighted_ranking};
use crate::result::Localization;
use crate::session::Session;
use crate::weights::{clause_weights, Formula};
use faultline_smt::Encoding;
use std::time::Instant;

/// Localizes with formulas of `encoding` combined by `combine`, by
/// cardinality; the ranking puts statements in order of their first
/// diagnosis. The method is named `ENCODING+COMBINATION`.
pub fn localize(
    session: &Session,
    encoding: Encoding,
    combine: Combine,
    options: &Options,
) -> Localization {
    let start = Instant::now();
    faultline_smt::limits::isolated(|| {
        let engine = Engine::new(session, options.clone(), encoding);
        combined(engine, combine, start)
    })
    .unwrap_or_else(|why| {
        let name = format!("{}+{}", encoding.name(), combine.name());
        super::stopped(session, options, name, why, start)
    })
}

/// The formula method `name`: like [`localize`], with clause weights from
/// the suspiciousness `formula`; per-test diagnoses are ranked by the merge
/// of the tests' rankings, weighted ones by size then weight.
pub fn run(
    session: &Session,
    encoding: Encoding,
    combine: Combine,
    formula: Option<Formula>,
    options: &Options,
    name: String,
) -> Localization {
    let weights = formula.map(|f| clause_weights(session, f, options.spectrum));
    let start = Instant::now();
    let engine = Engine::new(session, options.clone(), encoding).weighted(weights);
    let mut loc = combined(engine, combine, start);
    loc.method = name;
    if combine == Combine::PerTest {
        loc.ranking = merge_rankings(&per_test_rankings(&loc));
    } else if formula.is_some() {
        loc.ranking = weighted_ranking(&loc.diagnoses);
    }
    loc
}

/// Combines the engine's test formulas by `combine`.
fn combined(mut engine: Engine, combine: Combine, start: Instant) -> Localization {
    let mut found = match combine {
        Combine::Mbd => Mbd::exact().combine(&mut engine),
        Combine::SetCombine => SetCombine.combine(&mut engine),
        Combine::PerTest => PerTest.combine(&mut engine),
    };
    if combine != Combine::PerTest && !engine.is_weighted() {
        let session = engine.session();
        let t0 = Instant::now();
        Plausibility::new(session.prog).order(session, &mut found.diagnoses);
        crate::profile::log(|| "plausibility order".into(), "", t0.elapsed());
    }
    let ranking = rank_by_diagnoses(&found.diagnoses);
    let name = format!("{}+{}", engine.encoding().name(), combine.name());
    engine.into_localization(name, found.diagnoses, ranking, found.incomplete, start)
}
