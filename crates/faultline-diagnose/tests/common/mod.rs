//! Shared helpers of the localization acceptance tests: loading programs and
//! tests, naming statements, and the brute-force reference for the
//! definition of a diagnosis.
//!
//! The definition checked: a diagnosis is a set D of statements such that
//! every failing test's formula is satisfiable when exactly the statements of
//! D are relaxed; the reported diagnoses are the subset-minimal such sets of
//! at most `max_size` statements, smallest first.

#![allow(dead_code)]

use faultline_diagnose::engine::Engine;
use faultline_diagnose::{localize, AngelicValue, Combine, Localization, Options, Session};
use faultline_exec::{Compare, Limits, TestCase};
use faultline_ir::{Program, StmtId};
use faultline_smt::Encoding;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub type Set = BTreeSet<StmtId>;

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn compile(path: &Path) -> Program {
    faultline_c::compile_file(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub fn compile_src(name: &str, src: &str) -> Program {
    faultline_c::compile_source(name, src).unwrap_or_else(|e| panic!("{name}: {e}"))
}

pub fn load_tests(dir: &Path) -> Vec<TestCase> {
    faultline_exec::suite::load_dir(dir).unwrap_or_else(|e| panic!("{}", e.0))
}

/// A test with stdin and expected stdout only.
pub fn stdin_test(name: &str, stdin: &str, expected: &str) -> TestCase {
    TestCase {
        name: name.to_string(),
        args: Vec::new(),
        stdin: stdin.as_bytes().to_vec(),
        expected_stdout: expected.as_bytes().to_vec(),
        expected_status: None,
        workdir: None,
    }
}

/// Every minimal diagnosis up to `max_size` (not only the smallest): what
/// the engine's exactness tests compare.
pub fn options(max_size: usize) -> Options {
    Options {
        max_size,
        all_sizes: true,
        ..Options::default()
    }
}

pub fn session<'p>(prog: &'p Program, tests: &'p [TestCase]) -> Session<'p> {
    Session::new(prog, tests, Compare::Exact, Limits::default()).expect("the tests run")
}

/// The one statement on `line` whose text is `text`.
pub fn stmt(prog: &Program, line: u32, text: &str) -> StmtId {
    let found: Vec<StmtId> = prog
        .stmts
        .iter()
        .enumerate()
        .filter(|(_, s)| s.loc.line == line && s.text == text)
        .map(|(i, _)| StmtId(i as u32))
        .collect();
    assert_eq!(
        found.len(),
        1,
        "statements `{text}` at line {line}: {found:?}; statements on that line: {:?}",
        prog.stmts
            .iter()
            .filter(|s| s.loc.line == line)
            .map(|s| s.text.as_str())
            .collect::<Vec<_>>()
    );
    found[0]
}

/// The set of the statements (line, text).
pub fn set(prog: &Program, members: &[(u32, &str)]) -> Set {
    members.iter().map(|(l, t)| stmt(prog, *l, t)).collect()
}

/// `{line: text, ...}` for messages.
pub fn show(prog: &Program, s: &Set) -> String {
    let parts: Vec<String> = s
        .iter()
        .map(|id| {
            let st = prog.stmt(*id);
            format!("{}: {}", st.loc.line, st.text)
        })
        .collect();
    format!("{{{}}}", parts.join(", "))
}

pub fn show_all<'a>(prog: &Program, sets: impl IntoIterator<Item = &'a Set>) -> String {
    sets.into_iter()
        .map(|s| show(prog, s))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The reported diagnoses as sets, in report order.
pub fn reported(loc: &Localization) -> Vec<Set> {
    loc.diagnoses
        .iter()
        .map(|d| d.stmts.iter().copied().collect())
        .collect()
}

/// Sizes are non-decreasing and no set is reported twice.
pub fn assert_ordered(prog: &Program, sets: &[Set]) {
    for w in sets.windows(2) {
        assert!(
            w[0].len() <= w[1].len(),
            "sizes decrease: {} before {}",
            show(prog, &w[0]),
            show(prog, &w[1])
        );
    }
    let distinct: BTreeSet<&Set> = sets.iter().collect();
    assert_eq!(distinct.len(), sets.len(), "a diagnosis is reported twice");
}

/// All subsets of `universe` with at most `k` members, by size then in
/// lexicographic order of members.
pub fn subsets(universe: &Set, k: usize) -> Vec<Set> {
    let items: Vec<StmtId> = universe.iter().copied().collect();
    let mut out: Vec<Set> = vec![Set::new()];
    let mut level: Vec<(Set, usize)> = vec![(Set::new(), 0)];
    for _ in 0..k {
        let mut next = Vec::new();
        for (s, from) in &level {
            for (i, item) in items.iter().enumerate().skip(*from) {
                let mut t = s.clone();
                t.insert(*item);
                next.push((t, i + 1));
            }
        }
        out.extend(next.iter().map(|(s, _)| s.clone()));
        level = next;
    }
    out
}

/// The subset-minimal sets of at most `k` statements of `universe` that
/// `explains` accepts, by brute force: every subset by increasing size, except
/// supersets of one already found (which cannot be minimal).
pub fn minimal_by(
    universe: &Set,
    k: usize,
    mut explains: impl FnMut(&Set) -> bool,
) -> BTreeSet<Set> {
    let mut found: BTreeSet<Set> = BTreeSet::new();
    for s in subsets(universe, k) {
        if found.iter().any(|f| f.is_subset(&s)) {
            continue;
        }
        if explains(&s) {
            found.insert(s);
        }
    }
    found
}

/// Whether `s` may be a diagnosis: an insertion (a statement missing from
/// the source) is one alone.
fn allowed(engine: &Engine, s: &Set) -> bool {
    s.len() <= 1 || !s.iter().any(|x| engine.is_insertion(*x))
}

/// The minimal diagnoses of at most `k` statements by the definition
/// (`explains_all`, one formula per failing test).
pub fn brute_mbd(engine: &mut Engine, k: usize) -> BTreeSet<Set> {
    let universe = engine.relaxable();
    minimal_by(&universe, k, |s| {
        allowed(engine, s) && engine.explains_all(s).expect("the solver answers")
    })
}

/// The minimal diagnoses of one failing test (its own formula).
pub fn brute_test(engine: &mut Engine, t: usize, k: usize) -> BTreeSet<Set> {
    let universe = engine.relaxable();
    minimal_by(&universe, k, |s| {
        allowed(engine, s)
            && engine
                .check_single(t, s)
                .expect("the solver answers")
                .is_some()
    })
}

/// SNIPER's combination of per-test MCS lists: unions of one MCS per test,
/// at most `k` statements, without duplicates and supersets.
pub fn combine_sets(per_test: &[BTreeSet<Set>], k: usize) -> BTreeSet<Set> {
    let mut acc: Vec<Set> = vec![Set::new()];
    for list in per_test {
        if list.is_empty() {
            continue;
        }
        let mut next = Vec::new();
        for a in &acc {
            for m in list {
                let u: Set = a.union(m).copied().collect();
                if u.len() <= k {
                    next.push(u);
                }
            }
        }
        acc = next;
    }
    let all: BTreeSet<Set> = acc.into_iter().filter(|s| !s.is_empty()).collect();
    all.iter()
        .filter(|s| !all.iter().any(|o| o != *s && o.is_subset(s)))
        .cloned()
        .collect()
}

/// Runs `encoding` + `combine` with bound `k` and checks the report against
/// the brute-force reference of the combination's definition. Returns the
/// localization.
pub fn check_brute(
    prog: &Program,
    tests: &[TestCase],
    encoding: Encoding,
    combine: Combine,
    k: usize,
) -> Localization {
    let s = session(prog, tests);
    assert!(!s.failing.is_empty(), "some test fails");
    let opts = options(k);
    let loc = localize(&s, encoding, combine, &opts);
    assert_eq!(loc.incomplete, None, "{encoding:?}+{combine:?} completes");
    assert!(loc.skipped.is_empty(), "skipped tests: {:?}", loc.skipped);
    let mut engine = Engine::new(&s, opts.clone(), encoding);
    let got = reported(&loc);
    match combine {
        Combine::Mbd => {
            assert_ordered(prog, &got);
            let want = brute_mbd(&mut engine, k);
            let got_set: BTreeSet<Set> = got.iter().cloned().collect();
            assert_eq!(
                got_set,
                want,
                "{encoding:?}+mbd: reported {} but the definition gives {}",
                show_all(prog, &got),
                show_all(prog, &want)
            );
        }
        Combine::PerTest => {
            for &t in &s.failing {
                let mine: Vec<Set> = loc
                    .diagnoses
                    .iter()
                    .filter(|d| d.test == Some(t))
                    .map(|d| d.stmts.iter().copied().collect())
                    .collect();
                assert_ordered(prog, &mine);
                let want = brute_test(&mut engine, t, k);
                let got_set: BTreeSet<Set> = mine.iter().cloned().collect();
                assert_eq!(
                    got_set,
                    want,
                    "{encoding:?}+per-test, test {}: reported {} but the definition gives {}",
                    tests[t].name,
                    show_all(prog, &mine),
                    show_all(prog, &want)
                );
            }
            assert!(loc.diagnoses.iter().all(|d| d.test.is_some()));
        }
        Combine::SetCombine => {
            assert_ordered(prog, &got);
            let per: Vec<BTreeSet<Set>> = s
                .failing
                .iter()
                .map(|&t| brute_test(&mut engine, t, k))
                .collect();
            let want = combine_sets(&per, k);
            let got_set: BTreeSet<Set> = got.iter().cloned().collect();
            assert_eq!(
                got_set,
                want,
                "{encoding:?}+setcombine: reported {} but the definition gives {}",
                show_all(prog, &got),
                show_all(prog, &want)
            );
        }
    }
    loc
}

/// The angelic values of statement `s` in the diagnosis equal to `d`.
pub fn angelic_of(loc: &Localization, d: &Set, s: StmtId) -> Vec<(usize, AngelicValue)> {
    let diag = loc
        .diagnoses
        .iter()
        .find(|x| x.stmts.iter().copied().collect::<Set>() == *d)
        .expect("the diagnosis is reported");
    diag.angelic
        .iter()
        .filter(|a| a.stmt == s)
        .map(|a| (a.test, a.value.clone()))
        .collect()
}

/// A small program of tests/localize: its source and its tests.
pub fn localize_case(name: &str) -> (Program, Vec<TestCase>) {
    let dir = root().join("tests/localize").join(name);
    (compile(&dir.join("prog.c")), load_tests(&dir.join("tests")))
}

/// The one statement whose text is `text`.
pub fn find(prog: &Program, text: &str) -> StmtId {
    let found: Vec<StmtId> = prog
        .stmts
        .iter()
        .enumerate()
        .filter(|(_, s)| s.text == text)
        .map(|(i, _)| StmtId(i as u32))
        .collect();
    assert_eq!(found.len(), 1, "statements `{text}`: {found:?}");
    found[0]
}

/// The set of the statements with these texts.
pub fn texts(prog: &Program, members: &[&str]) -> Set {
    members.iter().map(|t| find(prog, t)).collect()
}
