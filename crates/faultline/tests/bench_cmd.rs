//! `faultline bench` end to end on a subset of the TCAS manifest, and its
//! errors.

mod common;

use common::*;

#[test]
fn bench_runs_a_tcas_subset_end_to_end() {
    let out = tempdir("bench");
    let o = faultline()
        .args([
            "bench",
            "benchmarks/tcas.toml",
            "--programs",
            "v1,v8,v32",
            "--methods",
            "full,ofc+cw,agx",
        ])
        .arg("--out")
        .arg(&out)
        .current_dir(root())
        .output()
        .expect("runs");
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        o.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let csv = std::fs::read_to_string(out.join("results.csv")).expect("results.csv");
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    // Deterministic order: manifest order of programs, then the methods as given.
    let keys: Vec<(&str, &str)> = rows.iter().map(|r| (r[0], r[1])).collect();
    assert_eq!(
        keys,
        vec![
            ("v1", "full"),
            ("v1", "ofc+cw"),
            ("v1", "agx"),
            ("v8", "full"),
            ("v8", "ofc+cw"),
            ("v8", "agx"),
            ("v32", "full"),
            ("v32", "ofc+cw"),
            ("v32", "agx"),
        ]
    );
    for r in &rows {
        assert_eq!(r[2], "ok", "{r:?}");
        assert_eq!(r[5], "true", "fault found: {r:?}");
    }
    // Failing tests per version, as in failing.tsv.
    let failing: Vec<(&str, &str)> = rows.iter().map(|r| (r[0], r[3])).collect();
    assert!(
        failing.contains(&("v1", "131"))
            && failing.contains(&("v8", "1"))
            && failing.contains(&("v32", "2"))
    );
    assert!(stdout.contains("### Summary"), "{stdout}");
    assert!(out.join("results.md").exists() && out.join("results.json").exists());
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).expect("json"))
            .expect("valid");
    assert_eq!(json.as_array().map(|a| a.len()), Some(9));
}

#[test]
fn bench_reports_manifest_errors_in_one_line() {
    let dir = tempdir("bench-errors");
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "name = \"x\"\nmethods = [\"full\"]\nbogus = 1\n[[program]]\nname = \"a\"\nsource = \"a.c\"\n")
        .expect("write");
    let o = faultline().arg("bench").arg(&bad).output().expect("runs");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("{}:3: error: invalid manifest:", bad.display())),
        "{err}"
    );

    let unknown = dir.join("unknown.toml");
    std::fs::write(
        &unknown,
        "name = \"x\"\ndata = \".\"\nmethods = [\"fastest\"]\n[[program]]\nname = \"a\"\nsource = \"a.c\"\n",
    )
    .expect("write");
    let o = faultline()
        .arg("bench")
        .arg(&unknown)
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.starts_with(&format!(
            "{}: error: unknown method 'fastest'",
            unknown.display()
        )),
        "{err}"
    );

    let o = faultline()
        .args(["bench", "/nonexistent/manifest.toml"])
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&o.stderr).trim_end(),
        "/nonexistent/manifest.toml: error: cannot read manifest: No such file or directory (os error 2)"
    );
}

/// The single-run methods in `bench`: CaFL's tree (`faultline.cafl/1`: causes breadth first, statements by
/// level) and MDFS (root causes, then the chain) are scored like the others.
#[test]
fn bench_scores_the_single_run_methods() {
    let out = tempdir("bench-single-run");
    let o = faultline()
        .args([
            "bench",
            "benchmarks/tcas-cafl.toml",
            "--programs",
            "v1,v2",
            "--methods",
            "cafl,mdfs",
            "--jobs",
            "1",
        ])
        .arg("--out")
        .arg(&out)
        .current_dir(root())
        .output()
        .expect("runs");
    assert_eq!(
        o.status.code(),
        Some(0),
        "stderr: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let rows: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let got: Vec<String> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} {} {}",
                r["program"].as_str().unwrap(),
                r["method"].as_str().unwrap(),
                r["status"].as_str().unwrap(),
                r["diagnoses"],
                r["first_diagnosis"],
                r["rank"]
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            "v1 cafl ok 6 2 6",
            "v1 mdfs ok 19 11 11",
            "v2 cafl ok 6 4 16",
            "v2 mdfs ok 17 5 5",
        ]
    );
}

/// A program whose failing tests the encoder cannot use is `partial`, not
/// `ok` (the report is not complete); a complete one is `ok`.
#[test]
fn bench_marks_unused_failing_tests_partial() {
    let out = tempdir("bench-partial");
    let o = faultline()
        .args([
            "bench",
            "crates/faultline/tests/limits/partial.toml",
            "--jobs",
            "1",
        ])
        .arg("--out")
        .arg(&out)
        .current_dir(root())
        .output()
        .expect("runs");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let csv = std::fs::read_to_string(out.join("results.csv")).expect("results.csv");
    let status: Vec<(String, String)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let r: Vec<&str> = l.split(',').collect();
            (r[0].to_string(), r[2].to_string())
        })
        .collect();
    assert_eq!(
        status,
        [
            ("one".into(), "ok".into()),
            ("unencodable".into(), "partial".into())
        ]
    );
}

/// Faulty lines in another file than the program's (`"FILE:LINE"`, as the
/// Siemens manifests give header faults), tests as command lines run in a
/// working directory, and a malformed line given as a one-line error.
#[test]
fn bench_scores_faults_in_headers() {
    let out = tempdir("bench-header");
    let o = faultline()
        .args(["bench", "tests/bench/header/bench.toml", "--jobs", "1"])
        .arg("--out")
        .arg(&out)
        .current_dir(root())
        .output()
        .expect("runs");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let csv = std::fs::read_to_string(out.join("results.csv")).expect("results.csv");
    // program, status, failing, found, first diagnosis, rank
    let rows: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            [f[0], f[2], f[3], f[5], f[6], f[7]].join(",")
        })
        .collect();
    assert_eq!(
        rows,
        [
            "v1,ok,2,true,1,1",
            "v2,ok,2,true,1,1",
            "v1-own-line,ok,2,true,5,5"
        ]
    );

    let dir = tempdir("bench-header-bad");
    let bad = dir.join("bad.toml");
    std::fs::write(
        &bad,
        "name = \"x\"\nmethods = [\"full\"]\n[[program]]\nname = \"a\"\nsource = \"a.c\"\nfaulty_lines = [\"count.h\"]\n",
    )
    .expect("write");
    let o = faultline().arg("bench").arg(&bad).output().expect("runs");
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!("{}:6: error: invalid manifest:", bad.display()))
            && err.contains("'count.h' is not FILE:LINE"),
        "{err}"
    );
}

#[test]
fn bench_passes_a_manifests_comparison() {
    let out = tempdir("bench-compare");
    let manifest = out.join("class.toml");
    let data = root().join("examples/median-class");
    let text = |compare: &str, args: &str| {
        format!(
            "name = \"median\"\ndata = \"{}\"\nmethods = [\"full\"]\n{args}\n[tests]\ndir = \"tests\"\n{compare}\n\
             [[program]]\nname = \"wrongmid\"\nsource = \"submissions/wrongmid.c\"\nfaulty_lines = [10]\n",
            data.display()
        )
    };
    let run = |compare: &str, args: &str| {
        std::fs::write(&manifest, text(compare, args)).unwrap();
        let o = faultline()
            .arg("bench")
            .arg(&manifest)
            .args(["--jobs", "1", "--out"])
            .arg(&out)
            .output()
            .expect("runs");
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let csv = std::fs::read_to_string(out.join("results.csv")).expect("results.csv");
        let r: Vec<String> = csv
            .lines()
            .nth(1)
            .unwrap()
            .split(',')
            .map(String::from)
            .collect();
        // failing tests, found, first diagnosis with the fault
        (r[3].clone(), r[5].clone(), r[6].clone())
    };
    // The tests' compare.toml (an answer pattern): 2 failing tests, the
    // computation first.
    assert_eq!(run("", ""), ("2".into(), "true".into(), "1".into()));
    // The manifest's comparison replaces it: byte for byte every test fails
    // (the prompt differs) and no diagnosis names line 10.
    assert_eq!(
        run("compare = { mode = \"exact\" }\n", ""),
        ("7".into(), "false".into(), "".into())
    );
    // The same through the manifest's further localize flags (`args`).
    assert_eq!(
        run("", "args = [\"--compare\", \"exact\"]\n"),
        ("7".into(), "false".into(), "".into())
    );
}
