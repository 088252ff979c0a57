//! Minimum debugging frontier sets (MDFS; Li, Li, Huo, Feng, TSE): localize
//! from one failing run by cutting its dynamic dependence graph at minimum
//! vertex cuts and asking whether altering the cut's members can make the
//! failure disappear.
//!
//! - [`ddg`]: the run's dynamic dependence graph;
//! - [`mincut`]: minimum vertex cuts (node-splitting max-flow, Dinic);
//! - [`property`]: the user's property language (`--property`);
//! - [`explore`]: the alteration queries (symbolic exploration as one solver
//!   query per combination).
//!
//! **The loop.** D is the part of the DDG between the sources (first the
//! entry) and the sinks (first the failure point p, i.e. the output
//! instances), input-only instances dropped. A minimum vertex cut of D is
//! taken (ties: smallest average dependence distance to p). Combinations of
//! its members are tested, singletons first, then pairs (up to
//! `max_combination`), skipping supersets of polluted ones: a combination is
//! *polluted* when some alteration of it (values free, branches flipped, the
//! rest following the program) reaches the property; under a branch
//! property, also when it leaves a polluted branch unreached with the
//! property at the failure point true (the branch should not have run). If
//! none is polluted, only the members are cleared: the next round tests their
//! control parents, then the next minimum cut avoiding every clean member;
//! when every cut left contains one, the fault lies after them: the clean
//! members become the sources. Otherwise the
//! polluted entities become the sinks (D: their ancestors after the
//! sources). The property changes with them: when some polluted entity is a
//! branch, the search follows the branches, with the property "the
//! disjunction, over polluted combinations, of the conjunction of their
//! branches' negated decisions" (each branch reached and deciding the other
//! way, by itself), and the polluted *values* are queued to start their own
//! search later (same property as the round); when all are values, the
//! property stays. A search stops when no cut exists; the root causes are the
//! last polluted entities of every search (a queued search that finds nothing
//! polluted keeps its values).
//!
//! **The ranking** (what `faultline bench` scores): the root causes'
//! statements by dependence distance to p, then the statements of the other
//! polluted entities (the propagation chain, latest round first), then every
//! other statement of the DDG by its distance to p.

pub mod ddg;
pub mod explore;
pub mod mincut;
pub mod property;

use crate::engine::Engine;
use crate::options::Options;
use crate::result::{describe_ctx, Diagnosis, Localization, Ranked};
use crate::session::Session;
use ddg::Ddg;
use explore::{Answer, Formula, Inst};
use faultline_ir::{Branch, Program, StmtId};
use faultline_smt::sym::{self, SVal};
use property::{Prop, Term};
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};
use z3::ast::Bool;

/// Settings of MDFS.
#[derive(Clone, Debug)]
pub struct MdfsOptions {
    /// The failing test to localize from (default: the first).
    pub test: Option<String>,
    /// The property at the failure point (default: the expected output).
    pub property: Option<String>,
    /// Largest combination of cut members tested.
    pub max_combination: usize,
    /// Time limit of one alteration query.
    pub query_timeout: Duration,
    /// Most rounds.
    pub max_rounds: usize,
}

impl Default for MdfsOptions {
    fn default() -> Self {
        MdfsOptions {
            test: None,
            property: None,
            max_combination: 2,
            query_timeout: Duration::from_secs(10),
            max_rounds: 200,
        }
    }
}

/// A statement instance of the DDG, for reports.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Entity {
    /// The DDG node.
    pub node: usize,
    pub stmt: u32,
    pub line: u32,
    pub text: String,
    /// Loop iterations and call sites (empty at the top of `main`).
    pub context: String,
    /// For branches, the outcome the run took.
    pub decision: Option<bool>,
    /// Dependence distance to the failure point.
    pub distance: u32,
}

/// The verdict on one combination of cut members.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Verdict {
    /// DDG nodes of the combination.
    pub members: Vec<usize>,
    /// `polluted`, `clean`, `superset` (of a polluted one: not tested),
    /// `unknown` (the solver gave up).
    pub verdict: String,
}

/// One round of the search.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Round {
    pub index: usize,
    /// The property the round checks.
    pub property: String,
    /// DDG nodes between the sources and the sinks.
    pub region: usize,
    pub sources: Vec<usize>,
    pub sinks: Vec<usize>,
    /// The minimum cut (empty when none exists).
    pub cut: Vec<Entity>,
    pub verdicts: Vec<Verdict>,
    /// `polluted`, `clean`, or `no-cut` (only as the first round: no cut exists at all).
    pub outcome: String,
    /// Polluted values reported as root causes in this round.
    pub reported: Vec<usize>,
    /// Clean members of the earlier rounds between the same sources and
    /// sinks, which this cut may not contain (an alternative cut).
    pub avoided: Vec<usize>,
}

/// A root cause with its dependence chain to the failure.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RootCause {
    pub entity: Entity,
    /// The entities from the root cause to the failure point's output.
    pub chain: Vec<Entity>,
}

/// What MDFS found, beyond the localization.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct MdfsReport {
    pub test: String,
    pub nodes: usize,
    pub edges: usize,
    pub property: String,
    pub rounds: Vec<Round>,
    pub root_causes: Vec<RootCause>,
    /// Queries the solver gave up on.
    pub unknown_queries: usize,
}

/// The current property.
#[derive(Clone, Debug)]
enum Goal {
    /// The oracle: the expected output.
    Output,
    /// A user property.
    User(Prop),
    /// A disjunction of conjunctions of (branch node, negated decision).
    Branches(Vec<Vec<(usize, bool)>>),
}

/// Runs MDFS on one failing test. Errors are the user's (unknown test, bad
/// property); limits give an incomplete localization (see
/// [`crate::methods::run`]).
pub fn localize(
    session: &Session,
    options: &Options,
    m: &MdfsOptions,
) -> Result<(Localization, Option<MdfsReport>), String> {
    use faultline_smt::limits::{guard, Stopped};
    let start = Instant::now();
    let empty = |s| {
        Ok((
            crate::methods::stopped(session, options, "mdfs".into(), s, start),
            None,
        ))
    };
    if let Some(e) = session.incomplete {
        return empty(Stopped::Budget(e));
    }
    let run = || guard(|| localize_unguarded(session, options, m));
    faultline_smt::limits::isolated(run)
        .and_then(|r| r)
        .unwrap_or_else(empty)
}

fn localize_unguarded(
    session: &Session,
    options: &Options,
    m: &MdfsOptions,
) -> Result<(Localization, Option<MdfsReport>), String> {
    let start = Instant::now();
    let prog = session.prog;
    let user = match &m.property {
        Some(p) => Some(property::parse(p).map_err(|e| format!("--property: {e}"))?),
        None => None,
    };
    let t = match &m.test {
        Some(name) => {
            let i = session
                .tests
                .iter()
                .position(|t| &t.name == name)
                .ok_or_else(|| format!("--test: no test named '{name}'"))?;
            if !session.failing.contains(&i) {
                return Err(format!("--test: test '{name}' passes"));
            }
            Some(i)
        }
        None => session.failing.first().copied(),
    };
    let mut engine = Engine::new(session, options.clone(), faultline_smt::Encoding::Full);
    let nothing = |engine: Engine| {
        engine.into_localization("mdfs".into(), Vec::new(), Vec::new(), None, start)
    };
    let Some(t) = t else {
        return Ok((nothing(engine), None));
    };
    let Some(trace) = session.traces.get(&t) else {
        engine.skip(t, "the failing run has no trace".into());
        return Ok((nothing(engine), None));
    };
    let g = Ddg::build(prog, trace, &session.runs[t].execution.termination);
    if let Some(p) = &user {
        for v in p.vars() {
            if last_writer(prog, &g, trace, &v).is_none() {
                return Err(format!(
                    "--property: `{v}` is not assigned before the failure point of test '{}'",
                    session.tests[t].name
                ));
            }
        }
    }
    let mut search = Search {
        prog,
        g: &g,
        trace,
        m,
        oracle: None,
        free: None,
        unknown: 0,
        t,
        base: match &user {
            Some(u) => Goal::User(u.clone()),
            None => Goal::Output,
        },
        polluted_states: BTreeSet::new(),
    };
    let (rounds, roots, chain) = match search.run(&mut engine, user.clone()) {
        Ok(x) => x,
        Err(e) => {
            engine.skip(t, e);
            return Ok((nothing(engine), None));
        }
    };
    if search.unknown > 0 {
        engine.note(format!(
            "{} alteration queries hit the time limit of {} s per query and counted as not polluted",
            search.unknown,
            m.query_timeout.as_secs_f64()
        ));
    }
    engine.count_iterations(rounds.len());
    let incomplete = engine.limit_hit();
    let report = MdfsReport {
        test: session.tests[t].name.clone(),
        nodes: g.nodes.len(),
        edges: g.edges.len(),
        property: match &user {
            Some(p) => p.to_string(),
            None => "the expected output".into(),
        },
        rounds,
        root_causes: roots
            .iter()
            .map(|&v| RootCause {
                entity: entity(prog, &g, v),
                chain: g
                    .chain(v)
                    .into_iter()
                    .filter(|&c| g.nodes[c].stmt.is_some())
                    .map(|c| entity(prog, &g, c))
                    .collect(),
            })
            .collect(),
        unknown_queries: search.unknown,
    };
    let (diagnoses, ranking) = diagnoses_and_ranking(&g, &roots, &chain, t);
    let loc = engine.into_localization("mdfs".into(), diagnoses, ranking, incomplete, start);
    Ok((loc, Some(report)))
}

/// The diagnoses (each root cause, then each other polluted entity, one
/// statement each, by dependence distance as cost) and the ranking: those
/// statements, then every other statement of the graph by its distance to
/// the failure.
fn diagnoses_and_ranking(
    g: &Ddg,
    roots: &[usize],
    chain: &[usize],
    t: usize,
) -> (Vec<Diagnosis>, Vec<Ranked>) {
    let mut diagnoses = Vec::new();
    let mut seen = BTreeSet::new();
    let mut ranking: Vec<StmtId> = Vec::new();
    for &v in roots.iter().chain(chain) {
        let s = g.nodes[v].stmt.expect("an instance");
        if seen.insert(s) {
            ranking.push(s);
            diagnoses.push(Diagnosis {
                stmts: vec![s],
                cost: g.distance[v] as u64,
                test: Some(t),
                angelic: Vec::new(),
                verified: None,
                undecided: Vec::new(),
            });
        }
    }
    let mut rest: Vec<(u32, StmtId)> = Vec::new();
    for (v, n) in g.nodes.iter().enumerate() {
        if let Some(s) = n.stmt {
            if g.distance[v] != u32::MAX {
                rest.push((g.distance[v], s));
            }
        }
    }
    rest.sort();
    for (_, s) in rest {
        if seen.insert(s) {
            ranking.push(s);
        }
    }
    let n = ranking.len().max(1) as f64;
    let ranking = ranking
        .iter()
        .enumerate()
        .map(|(i, s)| Ranked {
            stmt: *s,
            score: 1.0 - i as f64 / n,
        })
        .collect();
    (diagnoses, ranking)
}

/// MDFS with default settings (the method `mdfs`); on an error, no diagnoses and a note.
pub fn run_default(session: &Session, options: &Options) -> Localization {
    match localize(session, options, &MdfsOptions::default()) {
        Ok((loc, _)) => loc,
        Err(e) => {
            let mut engine = Engine::new(session, options.clone(), faultline_smt::Encoding::Full);
            engine.note(e);
            engine.into_localization("mdfs".into(), Vec::new(), Vec::new(), None, Instant::now())
        }
    }
}

/// The DDG node of the last write of a variable named `name` before the failure.
fn last_writer(
    prog: &Program,
    g: &Ddg,
    trace: &faultline_exec::Trace,
    name: &str,
) -> Option<usize> {
    use faultline_exec::trace::Target;
    use faultline_ir::VarRef;
    (0..g.nodes.len()).rev().find(|&v| {
        g.nodes[v].event.is_some_and(|e| {
            trace.events[e].writes.iter().any(|w| match w.target {
                Target::Var { var, .. } => match var {
                    VarRef::Global(gid) => prog.globals[gid.index()].name == name,
                    VarRef::Local(f, l) => prog.func(f).locals[l.index()].name == name,
                    VarRef::Indirect => false,
                },
                _ => false,
            })
        })
    })
}

fn entity(prog: &Program, g: &Ddg, v: usize) -> Entity {
    let n = &g.nodes[v];
    let s = n.stmt.expect("an instance");
    let info = prog.stmt(s);
    Entity {
        node: v,
        stmt: s.0,
        line: info.loc.line,
        text: info.text.clone(),
        context: describe_ctx(prog, &n.ctx),
        decision: match n.outcome {
            Some(Branch::True) => Some(true),
            Some(Branch::False) => Some(false),
            _ => None,
        },
        distance: g.distance[v],
    }
}

struct Search<'a> {
    prog: &'a Program,
    g: &'a Ddg,
    trace: &'a faultline_exec::Trace,
    m: &'a MdfsOptions,
    oracle: Option<Formula>,
    free: Option<Formula>,
    unknown: usize,
    t: usize,
    /// The property at the failure point (the expected output or the user's).
    base: Goal,
    /// (sources, sinks, avoided members, property) of the polluted rounds.
    polluted_states: BTreeSet<State>,
}

type State = (Vec<usize>, Vec<usize>, Vec<usize>, String);

type Outcome = (Vec<Round>, Vec<usize>, Vec<usize>);

impl Search<'_> {
    fn inst(&self, v: usize) -> Inst {
        let n = &self.g.nodes[v];
        (n.stmt.expect("an instance"), n.ctx.clone())
    }

    fn formula(&mut self, engine: &mut Engine, oracle: bool) -> Result<&Formula, String> {
        let slot = if oracle {
            &mut self.oracle
        } else {
            &mut self.free
        };
        if slot.is_none() {
            *slot = Some(Formula::new(engine, self.t, oracle)?);
        }
        Ok(slot.as_ref().expect("just built"))
    }

    fn describe(&self, goal: &Goal) -> String {
        match goal {
            Goal::Output => "the expected output".into(),
            Goal::User(p) => p.to_string(),
            Goal::Branches(d) => d
                .iter()
                .map(|c| {
                    c.iter()
                        .map(|&(v, b)| {
                            let s = self.prog.stmt(self.g.nodes[v].stmt.expect("a branch"));
                            let text = if b {
                                s.text.clone()
                            } else {
                                format!("!({})", s.text)
                            };
                            format!("{text} at line {} (node {v})", s.loc.line)
                        })
                        .collect::<Vec<_>>()
                        .join(" && ")
                })
                .collect::<Vec<_>>()
                .join(" || "),
        }
    }

    /// The goal literal of a property in its formula (`None`: the oracle).
    fn goal_lit(
        &mut self,
        engine: &mut Engine,
        goal: &Goal,
        round: usize,
    ) -> Result<Option<Bool>, String> {
        match goal {
            Goal::Output => {
                self.formula(engine, true)?;
                Ok(None)
            }
            Goal::User(p) => {
                let mut vals = BTreeMap::new();
                for name in p.vars() {
                    let v = last_writer(self.prog, self.g, self.trace, &name)
                        .ok_or_else(|| format!("`{name}` is not assigned"))?;
                    vals.insert(name, v);
                }
                let mut terms: BTreeMap<String, (Bool, SVal)> = BTreeMap::new();
                for (name, v) in &vals {
                    let inst = self.inst(*v);
                    let f = self.formula(engine, false)?;
                    let tv = match f.value(&inst) {
                        Some(x) => x,
                        None => {
                            // Not relaxable (an input): the run's value.
                            let e = self.g.nodes[*v].event.expect("an instance");
                            let w = self.trace.events[e]
                                .writes
                                .iter()
                                .rev()
                                .find_map(|w| match w.value {
                                    faultline_exec::value::Value::Int(i) => Some(i),
                                    _ => None,
                                })
                                .ok_or_else(|| format!("`{name}` is not an integer"))?;
                            (
                                z3::ast::Bool::from_bool(true),
                                SVal::Int(sym::SInt::constant(
                                    engine.options().int_semantics,
                                    faultline_ir::IntKind::Long,
                                    w as i128,
                                )),
                            )
                        }
                    };
                    terms.insert(name.clone(), tv);
                }
                let sem = engine.options().int_semantics;
                let body = prop_bool(p, &terms, sem)?;
                let guards: Vec<&Bool> = terms.values().map(|(g, _)| g).collect();
                let mut all = guards.clone();
                all.push(&body);
                let f = self.formula(engine, false)?;
                Ok(Some(
                    f.goal(&format!("mdfs_goal_{round}"), &Bool::and(&all)),
                ))
            }
            Goal::Branches(d) => {
                let mut disj = Vec::new();
                for c in d {
                    let mut conj = Vec::new();
                    for &(v, want) in c {
                        let inst = self.inst(v);
                        let f = self.formula(engine, false)?;
                        let (guard, computed) = f
                            .branch(&inst)
                            .ok_or_else(|| "a polluted branch is not in the formula".to_string())?;
                        let out = if want { computed } else { computed.not() };
                        conj.push(Bool::and(&[&guard, &out]));
                    }
                    disj.push(Bool::and(&conj.iter().collect::<Vec<_>>()));
                }
                let f = self.formula(engine, false)?;
                Ok(Some(f.goal(
                    &format!("mdfs_goal_{round}"),
                    &Bool::or(&disj.iter().collect::<Vec<_>>()),
                )))
            }
        }
    }

    /// For a branch property: "some polluted branch is not reached and the
    /// property at the failure point holds", in the formula of that property
    /// (`true`: the oracle's). A branch that should not have run at all
    /// cannot decide the other way; an alteration that skips it and repairs
    /// the failure shows it polluted just the same.
    fn skip_lit(
        &mut self,
        engine: &mut Engine,
        goal: &Goal,
        round: usize,
    ) -> Result<Option<(bool, Bool)>, String> {
        let Goal::Branches(d) = goal else {
            return Ok(None);
        };
        let base = self.base.clone();
        let oracle = matches!(base, Goal::Output);
        let base_lit = self.goal_lit(engine, &base, round)?;
        let mut skipped = Vec::new();
        for &(v, _) in d.iter().flatten() {
            let inst = self.inst(v);
            let f = self.formula(engine, oracle)?;
            if let Some((guard, _)) = f.branch(&inst) {
                skipped.push(guard.not());
            }
        }
        if skipped.is_empty() {
            return Ok(None);
        }
        let mut all = vec![Bool::or(&skipped.iter().collect::<Vec<_>>())];
        all.extend(base_lit);
        let f = self.formula(engine, oracle)?;
        let lit = f.goal(
            &format!("mdfs_skip_{round}"),
            &Bool::and(&all.iter().collect::<Vec<_>>()),
        );
        Ok(Some((oracle, lit)))
    }

    /// Whether altering `combo` reaches the round's property (`lit` in the
    /// formula `oracle`), or else skips a polluted branch with the failure
    /// repaired (`skip`).
    fn query(
        &mut self,
        engine: &mut Engine,
        combo: &[usize],
        (oracle, lit): (bool, Option<&Bool>),
        skip: Option<&(bool, Bool)>,
    ) -> Result<Answer, String> {
        let insts: Vec<Inst> = combo.iter().map(|&v| self.inst(v)).collect();
        let per_query = self.m.query_timeout;
        let f = self.formula(engine, oracle)?;
        if !insts.iter().all(|i| f.alterable(i)) {
            return Ok(Answer::Clean);
        }
        let answer = f.check(engine, &insts, lit, per_query);
        match (answer, skip) {
            (Answer::Clean, Some((o, l))) => {
                let f = self.formula(engine, *o)?;
                Ok(f.check(engine, &insts, Some(l), per_query))
            }
            (a, _) => Ok(a),
        }
    }

    fn run(&mut self, engine: &mut Engine, user: Option<Prop>) -> Result<Outcome, String> {
        let g = self.g;
        let p = g.failure();
        // The output instances are the failure point: never cut.
        let outputs: Vec<usize> = g.preds[p]
            .iter()
            .copied()
            .filter(|&v| g.nodes[v].output)
            .collect();
        let goal = match user {
            Some(u) => Goal::User(u),
            None => Goal::Output,
        };
        let mut rounds: Vec<Round> = Vec::new();
        let mut roots: Vec<usize> = Vec::new();
        let mut chain: Vec<usize> = Vec::new();
        // Searches to run: (sinks, property). The first starts at p; polluted
        // values met next to polluted branches start their own search.
        let mut queue: std::collections::VecDeque<(Vec<usize>, Goal)> =
            std::collections::VecDeque::from([(vec![p], goal)]);
        let mut first = true;
        while let Some((start, goal)) = queue.pop_front() {
            let mut last_polluted: Vec<usize> = if first { Vec::new() } else { start.clone() };
            first = false;
            self.search(
                engine,
                start,
                goal,
                &outputs,
                &mut rounds,
                &mut last_polluted,
                &mut chain,
                &mut queue,
            )?;
            roots.extend(last_polluted);
        }
        if roots.is_empty() {
            // Nothing polluted: the failure point's own statements.
            roots = outputs.clone();
        }
        roots.sort_by_key(|&v| (g.distance[v], v));
        roots.dedup();
        chain.reverse();
        chain.retain(|v| !roots.contains(v));
        Ok((rounds, roots, chain))
    }

    /// The minimum vertex cut between `sources` and `sinks` (ties: nearest
    /// the failure), with the size of the region between them.
    fn min_cut(
        &self,
        sources: &[usize],
        sinks: &[usize],
        outputs: &[usize],
        avoided: &[usize],
    ) -> (usize, Option<Vec<usize>>) {
        let g = self.g;
        let down = g.descendants(sources);
        let up = g.ancestors(sinks);
        let in_src = mark(g.nodes.len(), sources);
        let in_snk = mark(g.nodes.len(), sinks);
        let region: Vec<bool> = (0..g.nodes.len())
            .map(|v| down[v] && up[v] && !in_src[v] && !in_snk[v])
            .collect();
        let keep = |v: usize| region[v] || in_src[v] || in_snk[v];
        let edges: Vec<(usize, usize)> = g
            .edges
            .iter()
            // A source's direct dependents among the sinks are not
            // paths to cut: the sources are taken as correct.
            .filter(|&&(u, v, _)| {
                keep(u) && keep(v) && !in_snk[u] && !in_src[v] && !(in_src[u] && in_snk[v])
            })
            .map(|&(u, v, _)| (u, v))
            .collect();
        let cuttable: Vec<bool> = (0..g.nodes.len())
            .map(|v| {
                region[v] && !g.nodes[v].input && !outputs.contains(&v) && !avoided.contains(&v)
            })
            .collect();
        let cut = mincut::min_vertex_cut(&mincut::CutProblem {
            n: g.nodes.len(),
            edges: &edges,
            sources,
            sinks,
            cuttable: &cuttable,
            distance: &g.distance,
        });
        (region.iter().filter(|&&r| r).count(), cut)
    }

    /// Tests the combinations of the cut's members (singletons, then pairs,
    /// ...), skipping supersets of polluted ones; the verdicts go to
    /// `round`, the polluted combinations are returned.
    fn test_cut(
        &mut self,
        engine: &mut Engine,
        cut: &[usize],
        goal: &Goal,
        round: &mut Round,
    ) -> Result<Vec<Vec<usize>>, String> {
        let index = round.index;
        let lit = self.goal_lit(engine, goal, index)?;
        let oracle = matches!(goal, Goal::Output);
        let skip = self.skip_lit(engine, goal, index)?;
        let mut polluted: Vec<Vec<usize>> = Vec::new();
        for size in 1..=self.m.max_combination.min(cut.len()) {
            for combo in combinations(cut, size) {
                if polluted.iter().any(|p| p.iter().all(|x| combo.contains(x))) {
                    round.verdicts.push(Verdict {
                        members: combo,
                        verdict: "superset".into(),
                    });
                    continue;
                }
                let answer = self.query(engine, &combo, (oracle, lit.as_ref()), skip.as_ref())?;
                let verdict = match answer {
                    Answer::Polluted => {
                        polluted.push(combo.clone());
                        "polluted"
                    }
                    Answer::Clean => "clean",
                    Answer::Unknown(_) => {
                        self.unknown += 1;
                        "unknown"
                    }
                };
                round.verdicts.push(Verdict {
                    members: combo,
                    verdict: verdict.into(),
                });
            }
        }
        Ok(polluted)
    }

    /// The direct control parents of `clean` between the sources and the
    /// sinks, other than `avoided`.
    fn control_parents(
        &self,
        clean: &[usize],
        avoided: &[usize],
        sources: &[usize],
        sinks: &[usize],
        outputs: &[usize],
    ) -> Vec<usize> {
        let g = self.g;
        let down = g.descendants(sources);
        let up = g.ancestors(sinks);
        let mut out: Vec<usize> = g
            .edges
            .iter()
            .filter(|&&(u, v, k)| {
                k == ddg::DepKind::Control
                    && clean.contains(&v)
                    && down[u]
                    && up[u]
                    && !sources.contains(&u)
                    && !sinks.contains(&u)
                    && !g.nodes[u].input
                    && !outputs.contains(&u)
                    && !avoided.contains(&u)
                    && g.nodes[u].stmt.is_some()
            })
            .map(|&(u, _, _)| u)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// One backward search from `sinks` with property `goal`: rounds are
    /// appended, polluted values met next to polluted branches queued.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        engine: &mut Engine,
        sinks: Vec<usize>,
        goal: Goal,
        outputs: &[usize],
        rounds: &mut Vec<Round>,
        last_polluted: &mut Vec<usize>,
        chain: &mut Vec<usize>,
        queue: &mut std::collections::VecDeque<(Vec<usize>, Goal)>,
    ) -> Result<(), String> {
        let g = self.g;
        let mut sources = vec![Ddg::ENTRY];
        let mut sinks = sinks;
        let mut goal = goal;
        // Clean members of the rounds since the sources and sinks last
        // changed: the next cut avoids them.
        let mut avoided: Vec<usize> = Vec::new();
        let mut last_clean: Vec<usize> = Vec::new();
        loop {
            if engine.timed_out() || rounds.len() >= self.m.max_rounds {
                break;
            }
            let index = rounds.len() + 1;
            // After a clean round: first the instances that decided whether
            // the clean members ran (their control parents), then the next
            // minimum cut that avoids every clean member.
            let (region, mut cut) = self.min_cut(&sources, &sinks, outputs, &avoided);
            let parents = self.control_parents(&last_clean, &avoided, &sources, &sinks, outputs);
            if !parents.is_empty() {
                cut = Some(parents);
            }
            let property = self.describe(&goal);
            let mut round = Round {
                index,
                property,
                region,
                sources: sources.clone(),
                sinks: sinks.clone(),
                cut: Vec::new(),
                verdicts: Vec::new(),
                outcome: "no-cut".into(),
                reported: Vec::new(),
                avoided: avoided.clone(),
            };
            let key = (
                sources.clone(),
                sinks.clone(),
                avoided.clone(),
                round.property.clone(),
            );
            if self.polluted_states.contains(&key) {
                // An earlier search went on from here (the same region and
                // property): what it found is already reported.
                chain.append(last_polluted);
                break;
            }
            let Some(cut) = cut else {
                if !avoided.is_empty() {
                    // Every cut left contains a clean member: the fault lies
                    // after the clean members, which become the sources.
                    sources = std::mem::take(&mut avoided);
                    last_clean.clear();
                    continue;
                }
                // No cut: the search ends (a round is recorded only when it
                // is the first, to say so).
                if rounds.is_empty() {
                    rounds.push(round);
                }
                break;
            };
            // Members nearest the failure first.
            let mut cut = cut;
            cut.sort_by_key(|&v| (g.distance[v], v));
            round.cut = cut.iter().map(|&v| entity(self.prog, g, v)).collect();
            let polluted = self.test_cut(engine, &cut, &goal, &mut round)?;
            if polluted.is_empty() {
                // Clean members only show that no value of theirs repairs
                // the failure, not that they should have run nor that
                // several of their inputs are right: before concluding that
                // the fault lies after them, try their control parents and
                // the cuts that avoid them.
                round.outcome = "clean".into();
                rounds.push(round);
                avoided.extend(cut.iter().copied());
                last_clean = cut;
                continue;
            }
            self.polluted_states.insert(key);
            avoided.clear();
            last_clean.clear();
            round.outcome = "polluted".into();
            let mut entities: Vec<usize> = polluted.iter().flatten().copied().collect();
            entities.sort_unstable();
            entities.dedup();
            let branches: Vec<usize> = entities
                .iter()
                .copied()
                .filter(|&v| g.is_branch(self.prog, v))
                .collect();
            chain.extend(last_polluted.iter().copied());
            if branches.is_empty() {
                sinks = entities.clone();
                *last_polluted = entities;
            } else {
                let values: Vec<usize> = entities
                    .iter()
                    .copied()
                    .filter(|v| !branches.contains(v))
                    .collect();
                round.reported = values.clone();
                if !values.is_empty() {
                    queue.push_back((values, goal.clone()));
                }
                let mut d: Vec<Vec<(usize, bool)>> = Vec::new();
                for c in &polluted {
                    let conj: Vec<(usize, bool)> = c
                        .iter()
                        .copied()
                        .filter(|v| branches.contains(v))
                        .map(|v| (v, g.nodes[v].outcome != Some(Branch::True)))
                        .collect();
                    if !conj.is_empty() && !d.contains(&conj) {
                        d.push(conj);
                    }
                }
                goal = Goal::Branches(d);
                sinks = branches.clone();
                *last_polluted = branches;
            }
            rounds.push(round);
        }
        Ok(())
    }
}

fn mark(n: usize, l: &[usize]) -> Vec<bool> {
    let mut m = vec![false; n];
    for &x in l {
        m[x] = true;
    }
    m
}

/// The combinations of `size` members of `items`, in lexicographic order of positions.
fn combinations(items: &[usize], size: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut idx: Vec<usize> = (0..size).collect();
    if size > items.len() {
        return out;
    }
    loop {
        out.push(idx.iter().map(|&i| items[i]).collect());
        let mut j = size;
        while j > 0 && idx[j - 1] == items.len() - size + j - 1 {
            j -= 1;
        }
        if j == 0 {
            return out;
        }
        idx[j - 1] += 1;
        for k in j..size {
            idx[k] = idx[k - 1] + 1;
        }
    }
}

fn prop_bool(
    p: &Prop,
    terms: &BTreeMap<String, (Bool, SVal)>,
    sem: faultline_smt::IntSemantics,
) -> Result<Bool, String> {
    let term = |t: &Term| -> Result<SVal, String> {
        Ok(match t {
            Term::Int(i) => SVal::Int(sym::SInt::constant(
                sem,
                faultline_ir::IntKind::Long,
                *i as i128,
            )),
            Term::Var(v) => match &terms[v].1 {
                SVal::Int(i) => SVal::Int(i.convert(faultline_ir::IntKind::Long)),
                _ => return Err(format!("`{v}` is not an integer")),
            },
        })
    };
    Ok(match p {
        Prop::Cmp(op, a, b) => {
            sym::compare(*op, &term(a)?, &term(b)?)
                .map_err(|e| e.0)?
                .v
                .1
        }
        Prop::And(a, b) => Bool::and(&[&prop_bool(a, terms, sem)?, &prop_bool(b, terms, sem)?]),
        Prop::Or(a, b) => Bool::or(&[&prop_bool(a, terms, sem)?, &prop_bool(b, terms, sem)?]),
        Prop::Not(a) => prop_bool(a, terms, sem)?.not(),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn combinations_in_order() {
        assert_eq!(
            super::combinations(&[5, 6, 7], 2),
            vec![vec![5, 6], vec![5, 7], vec![6, 7]]
        );
        assert_eq!(super::combinations(&[5], 2), Vec::<Vec<usize>>::new());
    }
}
