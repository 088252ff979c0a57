//! Differential test against gcc on the corpus in tests/programs: every
//! program is built with `gcc -O0 -w -lm`; on each test (NAME.in, optional
//! NAME.args) the interpreter prints exactly what the binary prints and exits
//! with its status. Tests listed in a program's `runtime-error` file must
//! instead end in that runtime error, on that line (gcc's behaviour there is
//! undefined, so it is not run). A program with a `files/` directory runs its
//! tests there (the files its tests open): faultline reads it in place (its
//! writes stay in memory), the gcc binary runs in a fresh copy of it.

mod common;

use common::*;
use faultline_exec::{ExecOptions, Executable, Input, Limits, Termination};
use std::collections::BTreeMap;
use std::path::Path;

fn tests_of(dir: &Path) -> Vec<(String, Vec<u8>, Vec<String>)> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("program dir")
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "in")
                .then(|| p.file_stem().expect("stem").to_string_lossy().into_owned())
        })
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|n| {
            let stdin = std::fs::read(dir.join(format!("{n}.in"))).expect("input");
            let args = std::fs::read_to_string(dir.join(format!("{n}.args")))
                .map(|s| s.split_whitespace().map(String::from).collect())
                .unwrap_or_default();
            (n, stdin, args)
        })
        .collect()
}

/// Copies the files of a directory (not recursively) into a fresh `to`.
fn copy_dir(from: &Path, to: &Path) {
    let _ = std::fs::remove_dir_all(to);
    std::fs::create_dir_all(to).expect("scratch dir");
    for e in std::fs::read_dir(from).expect("files dir") {
        let p = e.expect("entry").path();
        std::fs::copy(&p, to.join(p.file_name().expect("name"))).expect("copy");
    }
}

#[test]
fn corpus_matches_gcc() {
    let corpus = root().join("tests/programs");
    let out_dir = tempdir("corpus");
    let mut programs: Vec<_> = std::fs::read_dir(&corpus)
        .expect("tests/programs")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("prog.c").exists())
        .collect();
    programs.sort();
    assert!(
        programs.len() >= 40,
        "at least 40 programs, found {}",
        programs.len()
    );
    let mut failures = Vec::new();
    let mut compared = 0;
    let mut errors_checked = 0;
    for dir in &programs {
        let name = dir
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let src = dir.join("prog.c");
        let prog = match faultline_c::compile_file(&src) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let exe = Executable::new(&prog).expect("starts");
        let expected_errors: BTreeMap<String, (u32, String)> =
            std::fs::read_to_string(dir.join("runtime-error"))
                .unwrap_or_default()
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| {
                    let f: Vec<&str> = l.split_whitespace().collect();
                    (
                        f[0].to_string(),
                        (f[1].parse().expect("line"), f[2].to_string()),
                    )
                })
                .collect();
        let bin = out_dir.join(&name);
        gcc(&src, &bin);
        let files = dir.join("files");
        let files = files.is_dir().then_some(files);
        let scratch = files.as_ref().map(|f| {
            let d = out_dir.join(format!("{name}.files"));
            copy_dir(f, &d);
            d
        });
        for (test, stdin, args) in tests_of(dir) {
            // A step count rather than the default time limit: the corpus's
            // endless loops end the same way on any machine, and fast.
            let limits = Limits {
                max_steps: Some(10_000_000),
                max_time: None,
                ..Limits::default()
            };
            let e = exe.run(
                Input {
                    args: &args,
                    stdin: &stdin,
                    workdir: files.as_deref(),
                },
                ExecOptions {
                    limits,
                    ..ExecOptions::default()
                },
            );
            if let Some((line, kind)) = expected_errors.get(&test) {
                errors_checked += 1;
                let got = match &e.termination {
                    Termination::RuntimeError(err) => Some((
                        err.stmt.map(|s| prog.stmt(s).loc.line).unwrap_or(0),
                        err.kind.name().to_string(),
                    )),
                    Termination::AssertFailed { stmt, .. } => {
                        Some((prog.stmt(*stmt).loc.line, "assertion".to_string()))
                    }
                    _ => None,
                };
                if got.as_ref() != Some(&(*line, kind.clone())) {
                    failures.push(format!(
                        "{name}/{test}: expected {kind} at line {line}, got {got:?} ({:?})",
                        e.termination
                    ));
                }
                continue;
            }
            compared += 1;
            let (out, status) = run_binary_in(&bin, &args, &stdin, scratch.as_deref());
            if e.stdout != out || e.exit_status() != status {
                failures.push(format!(
                    "{name}/{test}: gcc printed {:?} (status {status}); faultline printed {:?} (status {}, {:?})",
                    String::from_utf8_lossy(&out),
                    String::from_utf8_lossy(&e.stdout),
                    e.exit_status(),
                    e.termination
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(compared >= 150, "compared {compared} tests with gcc");
    assert!(
        errors_checked >= 15,
        "checked {errors_checked} runtime errors"
    );
}
