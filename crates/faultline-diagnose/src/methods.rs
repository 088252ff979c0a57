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
//!
//! **Rankings** (the order in which a person should inspect statements):
//! - formula methods: statements in order of their first appearance in the
//!   diagnoses, which come by cost (size, or weight with CW) and then member
//!   list;
//! - per-test methods (`ofc`, `ofc+cw`, `agx`, `per-test`): each test ranks its
//!   statements that way; the merged ranking puts first the statements in
//!   every failing test's report, then those in fewer, and orders statements
//!   with the same count by their average rank over the tests that report
//!   them (the OFC paper's rule for several failing tests).

use crate::explore::{Explored, ExploredFormula};
use crate::localize::{self, Combine, Engine, Options, Session};
use crate::result::Incomplete;
use crate::result::{Diagnosis, Localization, Ranked};
use crate::share::{CheckFormula, Known, PathMemo, Reused};
use crate::weights::{self, Formula};
use faultline_ir::StmtId;
use faultline_smt::Encoding;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;

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
    /// Minimum debugging frontier sets, on the first failing test ([`crate::mdfs`]).
    Mdfs,
}

impl Method {
    /// Parses a method name (see the module docs). `combine` chooses how the
    /// formula methods given by encoding name (default `mbd`) and OFC
    /// (default `per-test`, merged by the paper's rule) combine tests.
    pub fn parse(name: &str, combine: Option<Combine>) -> Result<Method, String> {
        let formula_combine = combine.unwrap_or(Combine::Mbd);
        let ofc_combine = match combine {
            Some(Combine::Mbd) => Combine::Mbd,
            _ => Combine::PerTest,
        };
        Ok(match name {
            "full" => Method::Formula { encoding: Encoding::Full, combine: formula_combine, weights: None },
            "flow" => Method::Formula { encoding: Encoding::Flow, combine: formula_combine, weights: None },
            "trace" => Method::Formula { encoding: Encoding::Trace, combine: formula_combine, weights: None },
            "full+cw" => {
                Method::Formula { encoding: Encoding::Full, combine: formula_combine, weights: Some(Formula::Ochiai) }
            }
            "bugassist" => Method::Formula { encoding: Encoding::Full, combine: Combine::PerTest, weights: None },
            "bugassist+cw" => {
                Method::Formula { encoding: Encoding::Full, combine: Combine::PerTest, weights: Some(Formula::Ochiai) }
            }
            "sniper" => Method::Formula { encoding: Encoding::Flow, combine: Combine::SetCombine, weights: None },
            "cfaults" => Method::Formula { encoding: Encoding::Full, combine: Combine::Mbd, weights: None },
            "ofc" => Method::Ofc { weights: None, combine: ofc_combine },
            "ofc+cw" => Method::Ofc { weights: Some(Formula::Ochiai), combine: ofc_combine },
            "ofc+tarantula" => Method::Ofc { weights: Some(Formula::Tarantula), combine: ofc_combine },
            "ofc+dstar" => Method::Ofc { weights: Some(Formula::DStar), combine: ofc_combine },
            "agx" => Method::Agx { weights: None },
            "agx+cw" => Method::Agx { weights: Some(Formula::Ochiai) },
            "mdfs" => Method::Mdfs,
            other => {
                return Err(format!(
                    "unknown method '{other}' (expected one of: full, flow, trace, full+cw, bugassist, bugassist+cw, sniper, cfaults, ofc, ofc+cw, ofc+tarantula, ofc+dstar, agx, agx+cw, mdfs)"
                ))
            }
        })
    }

    pub fn name(&self) -> String {
        match self {
            Method::Formula {
                encoding,
                combine,
                weights,
            } => format!(
                "{}+{}{}",
                match encoding {
                    Encoding::Full => "full",
                    Encoding::Trace => "trace",
                    Encoding::Flow => "flow",
                },
                match combine {
                    Combine::Mbd => "mbd",
                    Combine::SetCombine => "setcombine",
                    Combine::PerTest => "per-test",
                },
                if weights.is_some() { "+cw" } else { "" }
            ),
            Method::Ofc { weights, combine } => format!(
                "ofc{}{}",
                match weights {
                    None => String::new(),
                    Some(Formula::Ochiai) => "+cw".into(),
                    Some(f) => format!("+{}", f.name()),
                },
                if *combine == Combine::Mbd { "+mbd" } else { "" }
            ),
            Method::Agx { weights: None } => "agx".into(),
            Method::Mdfs => "mdfs".into(),
            Method::Agx { weights: Some(f) } => format!(
                "agx+{}",
                if *f == Formula::Ochiai {
                    "cw"
                } else {
                    f.name()
                }
            ),
        }
    }
}

/// Runs a method.
pub fn run(session: &Session, method: &Method, options: &Options) -> Localization {
    match method {
        Method::Formula {
            encoding,
            combine,
            weights: w,
        } => {
            let mut o = options.clone();
            o.encoding = *encoding;
            o.combine = *combine;
            o.weights = w.map(|f| clause_weights(session, f, options));
            let mut loc = localize::localize(session, &o);
            loc.method = method.name();
            if *combine == Combine::PerTest {
                loc.ranking = merge_rankings(&per_test_rankings(&loc));
            } else if w.is_some() {
                loc.ranking = weighted_ranking(&loc.diagnoses);
            }
            loc
        }
        Method::Ofc {
            weights: w,
            combine: Combine::Mbd,
        } => {
            let mut o = options.clone();
            o.encoding = Encoding::Full;
            o.combine = Combine::Mbd;
            o.weights = w.map(|f| clause_weights(session, f, options));
            let mut loc = localize::localize_with(session, &o, true);
            loc.method = method.name();
            if w.is_some() {
                loc.ranking = weighted_ranking(&loc.diagnoses);
            }
            loc
        }
        Method::Ofc { weights: w, .. } => {
            per_test_method(session, options, *w, method.name(), Strategy::Ofc)
        }
        Method::Agx { weights: w } => {
            per_test_method(session, options, *w, method.name(), Strategy::Agx)
        }
        Method::Mdfs => crate::mdfs::run_default(session, options),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Strategy {
    Ofc,
    Agx,
}

/// Runs OFC or AgxFaults on every failing test and merges the reports.
fn per_test_method(
    session: &Session,
    options: &Options,
    formula: Option<Formula>,
    name: String,
    strategy: Strategy,
) -> Localization {
    let start = Instant::now();
    let mut o = options.clone();
    o.encoding = Encoding::Full;
    o.weights = formula.map(|f| clause_weights(session, f, options));
    let mut engine = Engine::new(session, o);
    let mut diagnoses = Vec::new();
    let mut per_test: Vec<Vec<StmtId>> = Vec::new();
    let mut incomplete = None;
    // Tests with one path share what their runs explored.
    let mut shared: HashMap<usize, Explored> = HashMap::new();
    let mut memo = PathMemo::default();
    for &t in &session.failing {
        if let Some(inc) = engine.limit_hit() {
            incomplete = Some(inc);
            break;
        }
        let Some(trace) = session.traces.get(&t) else {
            continue;
        };
        let sig = engine.signature.get(&t).copied().unwrap_or(usize::MAX);
        let mut start_set = Explored::from_trace(trace);
        if let Some(prev) = shared.get(&sig) {
            start_set.merge(prev);
        }
        // A test on the path of one already done: confirm its list.
        let (mcses, inc) = match reuse(&mut engine, &mut memo, t, sig, &start_set, strategy) {
            Ok(Some(list)) => {
                let verified = (strategy == Strategy::Agx).then_some(true);
                let mcses = list
                    .into_iter()
                    .map(|r| (r.stmts, r.cost, r.angelic, verified))
                    .collect();
                (mcses, None)
            }
            Ok(None) => {
                let (mcses, witnesses, complete, explored, inc) = match strategy {
                    Strategy::Ofc => {
                        let r = crate::ofc::ofc_test(&mut engine, t, start_set);
                        let mcses = r.mcses.into_iter().map(|(d, c, a)| (d, c, a, None));
                        (
                            mcses.collect(),
                            r.witnesses,
                            r.complete,
                            r.explored,
                            r.incomplete,
                        )
                    }
                    Strategy::Agx => {
                        let r = crate::agx::agx_test(&mut engine, t, start_set);
                        (
                            r.candidates,
                            r.witnesses,
                            r.complete,
                            r.explored,
                            r.incomplete,
                        )
                    }
                };
                if complete && witnesses.len() == mcses.len() {
                    let list = mcses
                        .iter()
                        .zip(witnesses)
                        .map(|((d, cost, _, _), w)| Known {
                            stmts: d.clone(),
                            cost: *cost,
                            witness: w,
                        })
                        .collect();
                    memo.remember(sig, list);
                }
                shared.entry(sig).or_default().merge(&explored);
                (mcses, inc)
            }
            Err(inc) => {
                incomplete = Some(inc);
                break;
            }
        };
        let start_of_test = diagnoses.len();
        for (d, cost, angelic, verified) in mcses {
            diagnoses.push(Diagnosis {
                stmts: d.into_iter().collect(),
                cost,
                test: Some(t),
                angelic,
                verified,
            });
        }
        per_test.push(rank_statements(&diagnoses[start_of_test..]));
        engine.found(diagnoses.len());
        if inc.is_some() {
            incomplete = inc;
            break;
        }
    }
    let mut stats = engine.stats.clone();
    stats.total_time = start.elapsed() + session.run_time;
    Localization {
        method: name,
        tests: session.verdicts(),
        failing: session.failing.clone(),
        skipped: engine.skipped.clone(),
        diagnoses,
        ranking: merge_rankings(&per_test),
        incomplete,
        notes: engine.notes.clone(),
        stats,
    }
}

/// Test `t`'s MCSes confirmed from the list of a test on its path
/// ([`crate::share`]), checked on its formula over `explored`.
fn reuse(
    engine: &mut Engine,
    memo: &mut PathMemo,
    t: usize,
    sig: usize,
    explored: &Explored,
    strategy: Strategy,
) -> Result<Option<Vec<Reused>>, Incomplete> {
    if !engine.options.share_paths {
        return Ok(None);
    }
    let Some(list) = memo.candidate(engine, t, sig) else {
        return Ok(None);
    };
    let saved = engine.options.encoding;
    if strategy == Strategy::Agx {
        engine.options.encoding = Encoding::Flow;
    }
    let f = ExploredFormula::new(engine, t, explored);
    engine.options.encoding = saved;
    let Some(mut f) = f else {
        return Ok(None);
    };
    let check = CheckFormula {
        solver: &f.solver,
        en: &mut f.en,
        softs: &f.softs,
    };
    memo.confirm(engine, check, list)
}

/// Clause weights from the suspiciousness `formula` gives each statement.
fn clause_weights(session: &Session, formula: Formula, options: &Options) -> HashMap<StmtId, u64> {
    let susp = weights::suspiciousness(session, formula, options.spectrum);
    weights::weights(&susp, session.prog.stmts.len())
}

/// The ranking of a combined localization with clause weighting: statements
/// in order of first appearance in its diagnoses by size, then weight.
fn weighted_ranking(diagnoses: &[Diagnosis]) -> Vec<Ranked> {
    rank_statements(diagnoses)
        .into_iter()
        .enumerate()
        .map(|(i, s)| Ranked {
            stmt: s,
            score: 1.0 / (i as f64 + 1.0),
        })
        .collect()
}

/// One test's ranking: its diagnoses by size, then cost (weight with clause
/// weighting), then enumeration order; statements in order of first appearance.
pub fn rank_statements(diagnoses: &[Diagnosis]) -> Vec<StmtId> {
    let mut order: Vec<&Diagnosis> = diagnoses.iter().collect();
    order.sort_by_key(|d| (d.stmts.len(), d.cost));
    let mut r = Vec::new();
    for d in order {
        for s in &d.stmts {
            if !r.contains(s) {
                r.push(*s);
            }
        }
    }
    r
}

/// Merges per-test rankings: statements in more tests' reports first, then
/// by average rank over the tests that report them, then by statement id.
pub fn merge_rankings(per_test: &[Vec<StmtId>]) -> Vec<Ranked> {
    let mut seen: BTreeMap<StmtId, (usize, f64)> = BTreeMap::new();
    for r in per_test {
        for (i, s) in r.iter().enumerate() {
            let e = seen.entry(*s).or_insert((0, 0.0));
            e.0 += 1;
            e.1 += (i + 1) as f64;
        }
    }
    let mut v: Vec<(StmtId, usize, f64)> = seen
        .into_iter()
        .map(|(s, (n, sum))| (s, n, sum / n as f64))
        .collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.total_cmp(&b.2)).then(a.0.cmp(&b.0)));
    let tests = per_test.len().max(1) as f64;
    v.into_iter()
        .map(|(s, n, avg)| Ranked {
            stmt: s,
            score: n as f64 / tests / avg,
        })
        .collect()
}

/// Each failing test's ranking from a per-test localization (statements in
/// order of first appearance in that test's diagnoses).
pub fn per_test_rankings(loc: &Localization) -> Vec<Vec<StmtId>> {
    loc.failing
        .iter()
        .map(|&t| {
            let ds: Vec<Diagnosis> = loc
                .diagnoses
                .iter()
                .filter(|d| d.test == Some(t))
                .cloned()
                .collect();
            rank_statements(&ds)
        })
        .collect()
}

/// The statements of the diagnoses of one test, as sets (for comparisons).
pub fn per_test_sets(loc: &Localization, t: usize) -> BTreeSet<BTreeSet<StmtId>> {
    loc.diagnoses
        .iter()
        .filter(|d| d.test == Some(t))
        .map(|d| d.stmts.iter().copied().collect())
        .collect()
}
