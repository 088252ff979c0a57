//! The course-style benchmark (benchmarks/course, manifest
//! benchmarks/course.toml) is consistent: every program directory is in the
//! manifest with an existing source and test directory, the faulty program
//! differs from its reference ref.c exactly on the manifest's faulty lines,
//! every test passes on ref.c and at least one fails on the faulty program
//! (`faultline test`, the binary built for the tests).

mod common;

use common::*;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::Path;

#[derive(Deserialize)]
struct Manifest {
    name: String,
    data: String,
    methods: Vec<String>,
    #[serde(rename = "program")]
    programs: Vec<Program>,
}

#[derive(Deserialize)]
struct Program {
    name: String,
    source: String,
    faulty_lines: Vec<u32>,
    tests: Tests,
}

#[derive(Deserialize)]
struct Tests {
    dir: String,
}

#[derive(Deserialize)]
struct TestReport {
    tests: Vec<Verdict>,
}

#[derive(Deserialize)]
struct Verdict {
    name: String,
    verdict: String,
}

fn manifest() -> Manifest {
    let text = std::fs::read_to_string(root().join("benchmarks/course.toml")).expect("manifest");
    toml::from_str(&text).expect("benchmarks/course.toml parses")
}

/// The names of the tests of `program` that fail, by `faultline test`.
fn failing(program: &Path, tests: &Path) -> Vec<String> {
    let o = faultline()
        .arg("test")
        .arg(program)
        .arg("--tests")
        .arg(tests)
        .args(["--format", "json"])
        .output()
        .expect("runs faultline test");
    let report: TestReport = serde_json::from_slice(&o.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: no test report ({e}): {}",
            program.display(),
            String::from_utf8_lossy(&o.stderr)
        )
    });
    assert!(!report.tests.is_empty(), "{}: no tests", program.display());
    report
        .tests
        .into_iter()
        .filter(|t| t.verdict != "pass")
        .map(|t| t.name)
        .collect()
}

#[test]
fn every_program_directory_is_in_the_manifest() {
    let m = manifest();
    assert_eq!(m.name, "Course-style programs");
    assert_eq!(m.methods, ["full"]);
    let data = root().join("benchmarks").join(&m.data);
    let dirs: BTreeSet<String> = std::fs::read_dir(&data)
        .expect("benchmarks/course")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().expect("name").to_string_lossy().into_owned())
        .collect();
    let listed: BTreeSet<String> = m.programs.iter().map(|p| p.name.clone()).collect();
    assert_eq!(listed.len(), m.programs.len(), "a program is listed twice");
    assert_eq!(dirs, listed, "program directories against the manifest");
    assert!(dirs.len() >= 32, "{} programs", dirs.len());
    for p in &m.programs {
        assert_eq!(p.source, format!("{0}/{0}.c", p.name));
        assert!(data.join(&p.source).is_file(), "{}: no source", p.name);
        assert!(data.join(&p.tests.dir).is_dir(), "{}: no tests", p.name);
        assert!(
            data.join(&p.name).join("ref.c").is_file(),
            "{}: no ref.c",
            p.name
        );
    }
}

#[test]
fn faulty_programs_differ_from_ref_on_the_faulty_lines() {
    let m = manifest();
    let data = root().join("benchmarks").join(&m.data);
    for p in &m.programs {
        let faulty = std::fs::read_to_string(data.join(&p.source)).expect("source");
        let reference = std::fs::read_to_string(data.join(&p.name).join("ref.c")).expect("ref.c");
        assert_ne!(faulty, reference, "{}: no fault seeded", p.name);
        let (f, r): (Vec<&str>, Vec<&str>) =
            (faulty.lines().collect(), reference.lines().collect());
        assert_eq!(
            f.len(),
            r.len(),
            "{}: the fault changes the line count",
            p.name
        );
        let differ: Vec<u32> = (0..f.len())
            .filter(|&i| f[i] != r[i])
            .map(|i| i as u32 + 1)
            .collect();
        assert_eq!(differ, p.faulty_lines, "{}: faulty lines", p.name);
    }
}

#[test]
fn tests_pass_on_ref_and_some_fail_on_the_faulty_program() {
    let m = manifest();
    let data = root().join("benchmarks").join(&m.data);
    for p in &m.programs {
        let tests = data.join(&p.tests.dir);
        let on_ref = failing(&data.join(&p.name).join("ref.c"), &tests);
        assert!(on_ref.is_empty(), "{}: ref.c fails {on_ref:?}", p.name);
        let on_faulty = failing(&data.join(&p.source), &tests);
        assert!(!on_faulty.is_empty(), "{}: no test fails", p.name);
        let total = std::fs::read_dir(&tests)
            .expect("tests")
            .filter(|e| {
                e.as_ref()
                    .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "in"))
            })
            .count();
        assert!(
            on_faulty.len() < total,
            "{}: every test fails ({on_faulty:?})",
            p.name
        );
    }
}
