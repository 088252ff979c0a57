//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root")
}

/// The Siemens benchmark outside the repository
/// (`../shared/benchmarks/siemens`, or `FAULTLINE_SIEMENS`), if it is there.
pub fn siemens() -> Option<PathBuf> {
    let dir = std::env::var_os("FAULTLINE_SIEMENS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/benchmarks/siemens"));
    dir.is_dir().then_some(dir)
}

/// The TCAS benchmark copied into the repository (tests/tcas).
pub fn tcas() -> PathBuf {
    root().join("tests/tcas")
}

/// Builds a C file with `gcc -O0 -w` into `out`; panics with gcc's message on failure.
pub fn gcc(src: &Path, out: &Path) {
    let o = Command::new("gcc")
        .args(["-O0", "-w", "-o"])
        .arg(out)
        .arg(src)
        .arg("-lm")
        .output()
        .expect("gcc runs (install gcc)");
    assert!(
        o.status.success(),
        "gcc failed on {}: {}",
        src.display(),
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Runs a binary with arguments and stdin; returns (stdout, exit status or -signal).
pub fn run_binary(bin: &Path, args: &[String], stdin: &[u8]) -> (Vec<u8>, i32) {
    run_binary_in(bin, args, stdin, None)
}

/// [`run_binary`] in the working directory `cwd` (default: the test's).
pub fn run_binary_in(
    bin: &Path,
    args: &[String],
    stdin: &[u8],
    cwd: Option<&Path>,
) -> (Vec<u8>, i32) {
    use std::io::Write;
    let mut cmd = Command::new(bin);
    if let Some(d) = cwd {
        cmd.current_dir(d);
    }
    let mut child = cmd
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn the compiled program");
    {
        let mut i = child.stdin.take().expect("stdin");
        let _ = i.write_all(stdin);
    }
    let o = child.wait_with_output().expect("wait");
    use std::os::unix::process::ExitStatusExt;
    let status = o
        .status
        .code()
        .unwrap_or_else(|| 128 + o.status.signal().unwrap_or(0));
    (o.stdout, status)
}

/// The faultline binary built by cargo for the integration tests.
pub fn faultline() -> Command {
    Command::new(env!("CARGO_BIN_EXE_faultline"))
}

/// A temporary directory unique to this test process.
pub fn tempdir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("faultline-test-{}-{}", name, std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir");
    d
}

/// Lines of the TCAS universe: one argument vector per test.
pub fn tcas_universe() -> Vec<Vec<String>> {
    std::fs::read_to_string(tcas().join("universe.txt"))
        .expect("universe.txt")
        .lines()
        .map(|l| l.split_whitespace().map(String::from).collect())
        .collect()
}

/// The `failing.tsv` table: version → failing test numbers (1-based).
pub fn tcas_failing() -> Vec<(String, Vec<usize>)> {
    std::fs::read_to_string(tcas().join("failing.tsv"))
        .expect("failing.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let tests = f
                .get(2)
                .map(|s| {
                    s.split(',')
                        .filter(|x| !x.is_empty())
                        .map(|x| x.parse().expect("number"))
                        .collect()
                })
                .unwrap_or_default();
            (f[0].to_string(), tests)
        })
        .collect()
}

/// The `faults.tsv` table: version → (faulty lines, accepted use sites).
pub fn tcas_faults() -> Vec<(String, Vec<u32>, Vec<u32>)> {
    let nums = |s: Option<&&str>| -> Vec<u32> {
        s.map(|s| {
            s.split(',')
                .filter(|x| !x.trim().is_empty())
                .map(|x| x.trim().parse().expect("line"))
                .collect()
        })
        .unwrap_or_default()
    };
    std::fs::read_to_string(tcas().join("faults.tsv"))
        .expect("faults.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), nums(f.get(1)), nums(f.get(2)))
        })
        .collect()
}

/// The 41 version names, v1..v41.
pub fn tcas_versions() -> Vec<String> {
    (1..=41).map(|i| format!("v{i}")).collect()
}

/// What one run of the faultline binary produced.
#[derive(Debug)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub status: i32,
}

/// Runs the faultline binary with `args` in directory `cwd`, feeding it `stdin`.
pub fn faultline_in(cwd: &Path, args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = faultline()
        .current_dir(cwd)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn faultline");
    {
        let mut i = child.stdin.take().expect("stdin");
        let _ = i.write_all(stdin);
    }
    let o = child.wait_with_output().expect("wait for faultline");
    Output {
        stdout: String::from_utf8(o.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(o.stderr).expect("stderr is UTF-8"),
        status: o.status.code().expect("faultline exits with a status"),
    }
}

/// Runs the faultline binary with `args` in the repository root, with empty stdin.
pub fn faultline_root(args: &[&str]) -> Output {
    faultline_in(&root(), args, b"")
}

/// The lines of each diagnosis's statements, in order.
pub fn diagnosis_lines(j: &serde_json::Value) -> Vec<Vec<u64>> {
    j["diagnoses"]
        .as_array()
        .expect("diagnoses")
        .iter()
        .map(|d| {
            d["statements"]
                .as_array()
                .expect("statements")
                .iter()
                .map(|s| s["line"].as_u64().expect("line"))
                .collect()
        })
        .collect()
}
