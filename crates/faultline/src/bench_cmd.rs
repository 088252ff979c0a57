//! `faultline bench MANIFEST`: run localization methods over a benchmark and
//! tabulate accuracy and cost.
//!
//! Every (program, method) job runs as its own `faultline localize` process
//! (so each has its own time limit and its peak memory can be measured),
//! `--jobs` at a time; results are collected and printed in manifest order,
//! so the table is deterministic apart from the measured times.

use crate::input::{exit, UserError};
use clap::Args;
use faultline_diagnose::result::IncompleteKind;
use faultline_ir::StmtKind;
use faultline_report::json::Report;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct BenchArgs {
    /// The benchmark manifest (TOML; see docs/benchmarks.md).
    pub manifest: PathBuf,
    /// Directory holding the benchmark's programs and tests (overrides the manifest's `data`).
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,
    /// Only these programs (comma-separated names).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub programs: Vec<String>,
    /// Only these methods (comma-separated; overrides the manifest's list).
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub methods: Vec<String>,
    /// Jobs run at once.
    #[arg(long, default_value_t = 2)]
    pub jobs: usize,
    /// Time limit per program and method, in seconds (overrides the manifest).
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Memory limit per program and method, in MiB (overrides the manifest).
    #[arg(long, value_name = "MIB")]
    pub max_memory: Option<u64>,
    /// Where to write results.md, results.csv and results.json.
    #[arg(long, value_name = "DIR", default_value = "bench-results")]
    pub out: PathBuf,
}

#[derive(Deserialize, Debug, Clone, Default)]
#[serde(deny_unknown_fields)]
pub struct TestSpec {
    /// Directory of NAME.in / NAME.out pairs.
    pub dir: Option<String>,
    /// Argument file (one test per line), with `oracle`.
    pub args_file: Option<String>,
    pub oracle: Option<String>,
    /// Working directory of the `args_file` tests (default: the argument
    /// file's directory).
    pub workdir: Option<String>,
    /// How outputs are compared (as in compare.toml; default: the test
    /// directory's compare.toml, else exact).
    pub compare: Option<crate::input::CompareSpec>,
}

/// A faulty (or accepted) line: a line number in the program's own source
/// file (`80`), or `"FILE:LINE"` for a line of another file, such as a
/// header (`"std.h:90"`). Files are compared by their last path component.
#[derive(Deserialize, Debug, Clone, PartialEq, Eq)]
#[serde(try_from = "LineSpec")]
pub struct FaultLine {
    pub file: Option<String>,
    pub line: u32,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum LineSpec {
    Line(u32),
    At(String),
}

impl TryFrom<LineSpec> for FaultLine {
    type Error = String;
    fn try_from(s: LineSpec) -> Result<FaultLine, String> {
        match s {
            LineSpec::Line(line) => Ok(FaultLine { file: None, line }),
            LineSpec::At(at) => {
                let bad = || format!("'{at}' is not FILE:LINE (e.g. \"std.h:90\")");
                let (file, line) = at.rsplit_once(':').ok_or_else(bad)?;
                let line = line.parse::<u32>().map_err(|_| bad())?;
                if file.is_empty() || line == 0 {
                    return Err(bad());
                }
                Ok(FaultLine {
                    file: Some(base_name(file).to_string()),
                    line,
                })
            }
        }
    }
}

/// The last path component of a file name.
fn base_name(f: &str) -> &str {
    f.rsplit('/').next().unwrap_or(f)
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct ProgramSpec {
    pub name: String,
    pub source: String,
    #[serde(default)]
    pub faulty_lines: Vec<FaultLine>,
    /// Lines where a fault in a declaration or `#define` takes effect.
    #[serde(default)]
    pub accepted_lines: Vec<FaultLine>,
    /// Tests of this program (default: the manifest's).
    pub tests: Option<TestSpec>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub name: String,
    /// Directory of the data, relative to the manifest.
    #[serde(default)]
    pub data: Option<String>,
    pub methods: Vec<String>,
    #[serde(default)]
    pub timeout: Option<f64>,
    #[serde(default)]
    pub max_memory: Option<u64>,
    #[serde(default)]
    pub max_size: Option<usize>,
    /// Further `localize` flags for every job (`["--effort", "1"]`).
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub tests: Option<TestSpec>,
    #[serde(rename = "program")]
    pub programs: Vec<ProgramSpec>,
}

/// One (program, method) result.
#[derive(Serialize, Debug, Clone, Default)]
pub struct Row {
    pub program: String,
    pub method: String,
    /// `ok`, `timeout`, `memory`, `partial` (another limit was hit, or
    /// failing tests could not be encoded), `error`.
    pub status: String,
    pub failing_tests: usize,
    pub diagnoses: usize,
    pub found: bool,
    /// Whether the first diagnosis containing a faulty line is unconfirmed
    /// (not decided on some failing test within the limits).
    pub unconfirmed: bool,
    /// Position of the first diagnosis containing a faulty line (1-based).
    pub first_diagnosis: Option<usize>,
    /// Rank of the first faulty line in the ranking (1-based).
    pub rank: Option<usize>,
    /// Share of the program's statements inspected up to the first faulty one (percent).
    pub exam: Option<f64>,
    pub solver_calls: u64,
    pub solver_s: f64,
    pub wall_s: f64,
    pub peak_mib: f64,
    pub error: Option<String>,
}

fn median(v: &mut [f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

fn fmt_opt(v: Option<f64>, digits: usize) -> String {
    v.map_or("–".into(), |x| format!("{x:.digits$}"))
}

/// A finished job: stdout, exit code, peak RSS (KiB), wall seconds, why it was killed.
type ChildResult = (Vec<u8>, Option<i32>, u64, f64, Option<&'static str>);

/// Runs a child, polling for its end; returns (stdout, exit code, peak RSS in KiB, wall time).
fn run_child(
    mut cmd: Command,
    hard_limit: Option<Duration>,
    max_rss_mib: Option<u64>,
) -> Result<ChildResult, String> {
    let start = Instant::now();
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| e.to_string())?;
    let pid = child.id() as libc::pid_t;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut buf);
        buf
    });
    let mut stderr = child.stderr.take().expect("piped");
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut buf);
        buf
    });
    let mut killed: Option<&'static str> = None;
    // The child's peak resident set, sampled: `wait4`'s `ru_maxrss` is no
    // use, since Linux carries the parent's high-water mark into a child
    // spawned with vfork and exec (every job would weigh at least as much as
    // this process ever did).
    let mut peak_kib = 0u64;
    let code = loop {
        peak_kib = peak_kib.max(job_hwm_kib(pid));
        let mut status: libc::c_int = 0;
        // SAFETY: pid is our child's; status is a plain int.
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) };
        if r == pid {
            let code = if libc::WIFEXITED(status) {
                Some(libc::WEXITSTATUS(status))
            } else {
                None
            };
            break code;
        }
        if r < 0 {
            return Err("lost the benchmark process".into());
        }
        let over_memory = max_rss_mib.is_some_and(|m| {
            faultline_exec::budget::resident_mib_of(&pid.to_string()) > m as f64 * 1.5 + 256.0
        });
        if over_memory && killed.is_none() {
            // SAFETY: signalling our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed = Some("memory");
        }
        if let Some(limit) = hard_limit {
            if killed.is_none() && start.elapsed() > limit {
                // SAFETY: signalling our own child.
                unsafe { libc::kill(pid, libc::SIGKILL) };
                killed = Some("timeout");
            }
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let out = reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    if code.is_none() && killed.is_none() {
        return Err(format!(
            "crashed: {}",
            String::from_utf8_lossy(&err).lines().last().unwrap_or("")
        ));
    }
    if code == Some(2) {
        return Err(String::from_utf8_lossy(&err)
            .lines()
            .next()
            .unwrap_or("input error")
            .to_string());
    }
    Ok((out, code, peak_kib, start.elapsed().as_secs_f64(), killed))
}

/// A process's peak resident set so far in KiB (`VmHWM`; Linux, 0 elsewhere
/// or once the process has exited).
/// The peak resident set of job `pid`: its own, or that of a process it
/// forked if larger (a check in nonlinear arithmetic runs in a child,
/// `faultline_smt::forked`; the child maps its parent's pages, and the
/// parent waits for it, so the child's peak is the job's whole memory
/// then). Children that live less than the sampling period may be missed.
fn job_hwm_kib(pid: libc::pid_t) -> u64 {
    let mut peak = hwm_kib(pid);
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return peak;
    };
    for task in tasks.flatten() {
        let Ok(children) = std::fs::read_to_string(task.path().join("children")) else {
            continue;
        };
        for child in children.split_whitespace().filter_map(|c| c.parse().ok()) {
            peak = peak.max(hwm_kib(child));
        }
    }
    peak
}

fn hwm_kib(pid: libc::pid_t) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(0)
}

fn resolve(base: &Path, p: &str) -> PathBuf {
    let p = Path::new(p);
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        base.join(p)
    }
}

pub fn bench_cmd(a: &BenchArgs) -> Result<u8, UserError> {
    let text = std::fs::read_to_string(&a.manifest).map_err(|e| {
        UserError(format!(
            "{}: error: cannot read manifest: {e}",
            a.manifest.display()
        ))
    })?;
    let manifest: Manifest = toml::from_str(&text).map_err(|e| {
        let msg = e.message().to_string();
        let line = e.span().map(|s| {
            text.as_bytes()[..s.start.min(text.len())]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1
        });
        match line {
            Some(l) => UserError(format!(
                "{}:{l}: error: invalid manifest: {msg}",
                a.manifest.display()
            )),
            None => UserError(format!(
                "{}: error: invalid manifest: {msg}",
                a.manifest.display()
            )),
        }
    })?;
    let manifest_dir = a
        .manifest
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let data = match (&a.data, &manifest.data) {
        (Some(d), _) => d.clone(),
        (None, Some(d)) => resolve(&manifest_dir, d),
        (None, None) => manifest_dir.clone(),
    };
    if !data.is_dir() {
        return Err(UserError(format!(
            "{}: error: benchmark data directory {} does not exist (give it with --data DIR)",
            a.manifest.display(),
            data.display()
        )));
    }
    let methods: Vec<String> = if a.methods.is_empty() {
        manifest.methods.clone()
    } else {
        a.methods.clone()
    };
    for m in methods.iter().filter(|m| m.as_str() != "cafl") {
        faultline_diagnose::methods::Method::parse(m, None)
            .map_err(|e| UserError(format!("{}: error: {e}", a.manifest.display())))?;
    }
    let programs: Vec<&ProgramSpec> = manifest
        .programs
        .iter()
        .filter(|p| a.programs.is_empty() || a.programs.contains(&p.name))
        .collect();
    if let Some(missing) = a
        .programs
        .iter()
        .find(|n| !manifest.programs.iter().any(|p| &p.name == *n))
    {
        return Err(UserError(format!(
            "{}: error: no program named '{missing}'",
            a.manifest.display()
        )));
    }
    let timeout = a.timeout.or(manifest.timeout);
    let max_memory = a.max_memory.or(manifest.max_memory);
    let jobs: Vec<(usize, &ProgramSpec, String)> = programs
        .iter()
        .enumerate()
        .flat_map(|(i, p)| methods.iter().map(move |m| (i, *p, m.clone())))
        .collect();
    let exe = std::env::current_exe()
        .map_err(|e| UserError(format!("error: cannot find faultline itself: {e}")))?;
    let next = AtomicUsize::new(0);
    let rows: Mutex<Vec<(usize, usize, Row)>> = Mutex::new(Vec::new());
    let progress = Mutex::new(0usize);
    let total = jobs.len();
    let workers = a.jobs.max(1).min(total.max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let j = next.fetch_add(1, Ordering::SeqCst);
                let Some((pi, prog, method)) = jobs.get(j) else {
                    break;
                };
                let row = run_job(&exe, &data, &manifest, prog, method, timeout, max_memory);
                let mi = methods.iter().position(|m| m == method).unwrap_or(0);
                {
                    let mut n = progress.lock().expect("lock");
                    *n += 1;
                    eprintln!(
                        "[{}/{}] {} {}: {} ({:.2} s)",
                        *n, total, prog.name, method, row.status, row.wall_s
                    );
                }
                rows.lock().expect("lock").push((*pi, mi, row));
            });
        }
    });
    let mut rows = rows.into_inner().expect("lock");
    rows.sort_by_key(|r| (r.0, r.1));
    let rows: Vec<Row> = rows.into_iter().map(|r| r.2).collect();
    let md = markdown(&manifest.name, &methods, &rows);
    print!("{md}");
    std::fs::create_dir_all(&a.out)
        .map_err(|e| UserError(format!("{}: error: {e}", a.out.display())))?;
    let write = |name: &str, body: String| -> Result<(), UserError> {
        let p = a.out.join(name);
        std::fs::write(&p, body).map_err(|e| UserError(format!("{}: error: {e}", p.display())))
    };
    write("results.md", md.clone())?;
    write("results.csv", csv(&rows))?;
    write(
        "results.json",
        serde_json::to_string_pretty(&rows).expect("rows serialize"),
    )?;
    eprintln!("wrote {}/results.{{md,csv,json}}", a.out.display());
    Ok(if rows.iter().any(|r| r.status == "error") {
        exit::FAILED
    } else {
        exit::OK
    })
}

fn run_job(
    exe: &Path,
    data: &Path,
    manifest: &Manifest,
    prog: &ProgramSpec,
    method: &str,
    timeout: Option<f64>,
    max_memory: Option<u64>,
) -> Row {
    let mut row = Row {
        program: prog.name.clone(),
        method: method.to_string(),
        ..Row::default()
    };
    let tests = prog
        .tests
        .clone()
        .or_else(|| manifest.tests.clone())
        .unwrap_or_default();
    let mut cmd = Command::new(exe);
    cmd.arg("localize").arg(resolve(data, &prog.source));
    match (&tests.dir, &tests.args_file, &tests.oracle) {
        (Some(d), _, _) => {
            cmd.arg("--tests").arg(resolve(data, d));
        }
        (None, Some(f), Some(o)) => {
            cmd.arg("--args-file")
                .arg(resolve(data, f))
                .arg("--oracle")
                .arg(resolve(data, o));
            if let Some(w) = &tests.workdir {
                cmd.arg("--workdir").arg(resolve(data, w));
            }
        }
        _ => {
            row.status = "error".into();
            row.error = Some("the manifest gives no tests for this program".into());
            return row;
        }
    }
    if let Some(c) = &tests.compare {
        cmd.args(compare_flags(c));
    }
    cmd.args(["--format", "json", "--method", method]);
    if let Some(k) = manifest.max_size {
        cmd.arg("--max-size").arg(k.to_string());
    }
    cmd.args(&manifest.args);
    if let Some(t) = timeout {
        cmd.arg("--timeout").arg(t.to_string());
    }
    if let Some(m) = max_memory {
        cmd.arg("--max-memory").arg(m.to_string());
    }
    let hard = timeout.map(|t| Duration::from_secs_f64(t * 1.5 + 10.0));
    match run_child(cmd, hard, max_memory) {
        Err(e) => {
            row.status = "error".into();
            row.error = Some(e);
        }
        Ok((out, _code, rss, wall, killed)) => {
            row.wall_s = wall;
            row.peak_mib = rss as f64 / 1024.0;
            if let Some(why) = killed {
                row.status = why.into();
                return row;
            }
            let statements = || {
                faultline_c::compile_file(&resolve(data, &prog.source)).map_or(0, |p| {
                    p.stmts
                        .iter()
                        .filter(|s| s.kind != StmtKind::Insert)
                        .count()
                })
            };
            // The report's schema says how to read it, whatever the method.
            let read = match serde_json::from_slice::<SchemaOnly>(&out) {
                Ok(r) if r.schema == CAFL_SCHEMA => {
                    CaflReport::from_json(&out).map(|r| fill_cafl(&mut row, &r, prog, statements()))
                }
                _ => Report::from_json(&out).map(|r| fill(&mut row, &r, prog, statements())),
            };
            if let Err(e) = read {
                row.status = "error".into();
                row.error = Some(format!("unreadable report: {e}"));
            }
        }
    }
    row
}

/// The command-line flags of a manifest's comparison (the mode, then the
/// settings it has).
fn compare_flags(c: &crate::input::CompareSpec) -> Vec<String> {
    let mut f = Vec::new();
    if let Some(m) = c.mode {
        use clap::ValueEnum;
        let name = m.to_possible_value().expect("visible");
        f.extend(["--compare".to_string(), name.get_name().to_string()]);
    }
    if let Some(p) = &c.pattern {
        f.push(format!("--pattern={p}"));
    }
    if c.ignore_case {
        f.push("--ignore-case".into());
    }
    if let Some(x) = c.abs_tolerance {
        f.push(format!("--abs-tolerance={x}"));
    }
    if let Some(x) = c.rel_tolerance {
        f.push(format!("--rel-tolerance={x}"));
    }
    f
}

/// Reads a `faultline.localize/1` report into a row. Insertions (a
/// statement missing after a line) do not count as their line: the
/// manifests name the lines that were written wrong.
fn fill(row: &mut Row, report: &Report, prog: &ProgramSpec, total: usize) {
    row.failing_tests = report.tests.failing.len();
    let diagnoses: Vec<Vec<(&str, u32)>> = report
        .diagnoses
        .iter()
        .map(|d| {
            d.statements
                .iter()
                .filter(|s| s.kind != StmtKind::Insert)
                .map(|s| (s.file.as_str(), s.line))
                .collect()
        })
        .collect();
    let ranking: Vec<(&str, u32)> = report
        .ranking
        .iter()
        .filter(|r| r.statement.kind != StmtKind::Insert)
        .map(|r| (r.statement.file.as_str(), r.statement.line))
        .collect();
    score(row, &diagnoses, &ranking, prog, total);
    row.unconfirmed = row
        .first_diagnosis
        .is_some_and(|i| !report.diagnoses[i - 1].undecided.is_empty());
    row.solver_calls = report.stats.solver_calls;
    row.solver_s = report.stats.solve_s;
    row.status = status(report.incomplete_kind, report.complete).into();
}

/// The schema of CaFL's tree report (docs/json.md).
const CAFL_SCHEMA: &str = "faultline.cafl/1";

/// A report's `schema` field, to choose its reader.
#[derive(serde::Deserialize)]
struct SchemaOnly {
    schema: String,
}

/// What `bench` reads of a `faultline.cafl/1` report (CaFL's cause tree,
/// docs/json.md): the causes breadth first and the ranking.
#[derive(serde::Deserialize)]
struct CaflReport {
    schema: String,
    tests: CaflTests,
    diagnoses: Vec<CaflCause>,
    ranking: Vec<CaflRanked>,
    stats: CaflStats,
    /// Which limit cut the tree (absent in reports of older versions).
    #[serde(default)]
    incomplete_kind: Option<faultline_diagnose::result::IncompleteKind>,
}

#[derive(serde::Deserialize)]
struct CaflTests {
    failing: Vec<String>,
}

#[derive(serde::Deserialize)]
struct CaflCause {
    statements: Vec<CaflLine>,
}

#[derive(serde::Deserialize)]
struct CaflLine {
    #[serde(default)]
    file: Option<String>,
    line: u32,
}

#[derive(serde::Deserialize)]
struct CaflRanked {
    #[serde(default)]
    file: Option<String>,
    line: u32,
}

#[derive(serde::Deserialize)]
struct CaflStats {
    solver_calls: u64,
}

impl CaflReport {
    fn from_json(text: &[u8]) -> Result<CaflReport, String> {
        let r: CaflReport = serde_json::from_slice(text).map_err(|e| e.to_string())?;
        if r.schema != "faultline.cafl/1" {
            return Err(format!(
                "schema '{}', expected 'faultline.cafl/1'",
                r.schema
            ));
        }
        Ok(r)
    }
}

/// Reads a `faultline.cafl/1` report into a row: its causes are the
/// diagnoses (breadth first), its ranking the statements by level.
fn fill_cafl(row: &mut Row, report: &CaflReport, prog: &ProgramSpec, total: usize) {
    row.failing_tests = report.tests.failing.len();
    let diagnoses: Vec<Vec<(&str, u32)>> = report
        .diagnoses
        .iter()
        .map(|d| {
            d.statements
                .iter()
                .map(|s| (s.file.as_deref().unwrap_or(&prog.source), s.line))
                .collect()
        })
        .collect();
    // CaFL's causes and ranking name lines of the program's own file.
    let ranking: Vec<(&str, u32)> = report
        .ranking
        .iter()
        .map(|r| (r.file.as_deref().unwrap_or(&prog.source), r.line))
        .collect();
    score(row, &diagnoses, &ranking, prog, total);
    row.solver_calls = report.stats.solver_calls;
    row.status = status(report.incomplete_kind, report.incomplete_kind.is_none()).into();
}

/// Found, first diagnosis, rank and EXAM of the faulty (or accepted) lines.
fn score(
    row: &mut Row,
    diagnoses: &[Vec<(&str, u32)>],
    ranking: &[(&str, u32)],
    prog: &ProgramSpec,
    total: usize,
) {
    let own = base_name(&prog.source);
    let lines: Vec<(&str, u32)> = prog
        .faulty_lines
        .iter()
        .chain(&prog.accepted_lines)
        .map(|f| (f.file.as_deref().unwrap_or(own), f.line))
        .collect();
    let faulty = |&(file, line): &(&str, u32)| lines.contains(&(base_name(file), line));
    row.diagnoses = diagnoses.len();
    row.first_diagnosis = diagnoses
        .iter()
        .position(|d| d.iter().any(faulty))
        .map(|i| i + 1);
    row.found = row.first_diagnosis.is_some();
    row.rank = ranking.iter().position(faulty).map(|i| i + 1);
    row.exam = match (row.rank, total) {
        (Some(r), t) if t > 0 => Some(100.0 * r as f64 / t as f64),
        _ => None,
    };
}

/// A job's status from its report: the limit that stopped it, else `ok`
/// when complete and `partial` when not (another limit, or failing tests
/// the encoder could not use).
fn status(kind: Option<IncompleteKind>, complete: bool) -> &'static str {
    match kind {
        Some(IncompleteKind::Timeout) => "timeout",
        Some(IncompleteKind::Memory) => "memory",
        _ if complete => "ok",
        _ => "partial",
    }
}

fn markdown(name: &str, methods: &[String], rows: &[Row]) -> String {
    let mut s = format!("## {name}\n\n");
    s.push_str("| program | method | status | failing | diagnoses | found | first diagnosis | rank | EXAM % | solver calls | solver s | wall s | peak MiB |\n");
    s.push_str("|---|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.0} |\n",
            r.program,
            r.method,
            r.status,
            r.failing_tests,
            r.diagnoses,
            match (r.found, r.unconfirmed) {
                (true, false) => "yes",
                (true, true) => "yes (unconfirmed)",
                _ => "no",
            },
            r.first_diagnosis.map_or("–".into(), |x| x.to_string()),
            r.rank.map_or("–".into(), |x| x.to_string()),
            fmt_opt(r.exam, 1),
            r.solver_calls,
            r.solver_s,
            r.wall_s,
            r.peak_mib
        ));
    }
    s.push_str("\n### Summary\n\n");
    s.push_str("| method | programs | found (unconfirmed) | timeouts | errors | mean rank | median rank | mean EXAM % | median EXAM % | total wall s | mean wall s | median wall s | max wall s | mean solver calls |\n");
    s.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    let mut totals: BTreeMap<&str, f64> = BTreeMap::new();
    for m in methods {
        let rs: Vec<&Row> = rows.iter().filter(|r| &r.method == m).collect();
        let mut ranks: Vec<f64> = rs.iter().filter_map(|r| r.rank.map(|x| x as f64)).collect();
        let mut exams: Vec<f64> = rs.iter().filter_map(|r| r.exam).collect();
        let mut walls: Vec<f64> = rs.iter().map(|r| r.wall_s).collect();
        let calls: Vec<f64> = rs.iter().map(|r| r.solver_calls as f64).collect();
        let total_wall: f64 = walls.iter().sum();
        totals.insert(m.as_str(), total_wall);
        s.push_str(&format!(
            "| {} | {} | {} ({}) | {} | {} | {} | {} | {} | {} | {:.2} | {} | {} | {} | {} |\n",
            m,
            rs.len(),
            rs.iter().filter(|r| r.found).count(),
            rs.iter().filter(|r| r.unconfirmed).count(),
            rs.iter().filter(|r| r.status == "timeout").count(),
            rs.iter().filter(|r| r.status == "error").count(),
            fmt_opt(mean(&ranks), 2),
            fmt_opt(median(&mut ranks), 1),
            fmt_opt(mean(&exams), 2),
            fmt_opt(median(&mut exams), 2),
            total_wall,
            fmt_opt(mean(&walls), 2),
            fmt_opt(median(&mut walls), 2),
            fmt_opt(walls.iter().copied().reduce(f64::max), 2),
            fmt_opt(mean(&calls), 1),
        ));
    }
    if let Some(base) = totals.get("full").copied().filter(|b| *b > 0.0) {
        s.push_str("\nTotal wall time relative to `full`: ");
        let parts: Vec<String> = methods
            .iter()
            .filter(|m| m.as_str() != "full")
            .map(|m| format!("{m} {:.2}×", totals[m.as_str()] / base))
            .collect();
        s.push_str(&parts.join(", "));
        s.push('\n');
    }
    s
}

fn csv(rows: &[Row]) -> String {
    let mut s = String::from(
        "program,method,status,failing_tests,diagnoses,found,first_diagnosis,rank,exam_percent,solver_calls,solver_s,wall_s,peak_mib,error,unconfirmed\n",
    );
    for r in rows {
        s.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{:.4},{:.4},{:.1},{},{}\n",
            r.program,
            r.method,
            r.status,
            r.failing_tests,
            r.diagnoses,
            r.found,
            r.first_diagnosis.map_or(String::new(), |x| x.to_string()),
            r.rank.map_or(String::new(), |x| x.to_string()),
            r.exam.map_or(String::new(), |x| format!("{x:.2}")),
            r.solver_calls,
            r.solver_s,
            r.wall_s,
            r.peak_mib,
            r.error.as_deref().unwrap_or("").replace([',', '\n'], " "),
            r.unconfirmed
        ));
    }
    s
}
