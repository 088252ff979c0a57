//! Test suites, oracles and verdicts.
//!
//! A suite is either a directory of `NAME.in` / `NAME.out` pairs (stdin and
//! expected stdout; an optional `NAME.args` holds the command-line arguments),
//! or a file with one argument vector per line whose expected outputs come
//! from running a reference program (the oracle) in the same interpreter.

use crate::interp::{ExecOptions, Executable, Execution, Input, Limits, RuntimeError, Termination};
use faultline_ir::Program;
use std::fmt;
use std::path::Path;

/// One test: its input and what it must produce.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestCase {
    pub name: String,
    /// `argv[1..]`.
    pub args: Vec<String>,
    pub stdin: Vec<u8>,
    pub expected_stdout: Vec<u8>,
    /// Expected exit status, when known (from an oracle run).
    pub expected_status: Option<i32>,
    /// The directory the test runs in (`fopen` reads files there); `None`:
    /// the current directory.
    pub workdir: Option<std::path::PathBuf>,
}

impl TestCase {
    /// What a run of this test is given: its arguments, stdin and working directory.
    pub fn input(&self) -> crate::Input<'_> {
        crate::Input {
            args: &self.args,
            stdin: &self.stdin,
            workdir: self.workdir.as_deref(),
        }
    }
}

pub use crate::compare::{Answer, Compare, Pattern};

/// Why a test failed.
#[derive(Clone, Debug, PartialEq)]
pub enum FailReason {
    /// stdout differs; `line` is the first differing line (1-based).
    Output {
        line: usize,
        expected: String,
        actual: String,
    },
    ExitStatus {
        expected: i32,
        actual: i32,
    },
    Assertion {
        message: String,
    },
    RuntimeError(RuntimeError),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    Pass,
    Fail(FailReason),
}

impl Verdict {
    pub fn passed(&self) -> bool {
        matches!(self, Verdict::Pass)
    }
}

impl FailReason {
    /// A one-line description for people (`prog` names statements).
    pub fn describe(&self, prog: &Program) -> String {
        match self {
            FailReason::Output {
                line,
                expected,
                actual,
            } => {
                format!("output differs at line {line}: expected {expected:?}, got {actual:?}")
            }
            FailReason::ExitStatus { expected, actual } => {
                format!("exit status {actual}, expected {expected}")
            }
            FailReason::Assertion { message } => format!("assertion failed: {message}"),
            FailReason::RuntimeError(e) => format!("runtime error: {}", e.describe(prog)),
        }
    }

    /// A short machine-readable kind.
    pub fn kind(&self) -> &'static str {
        match self {
            FailReason::Output { .. } => "output",
            FailReason::ExitStatus { .. } => "exit-status",
            FailReason::Assertion { .. } => "assertion",
            FailReason::RuntimeError(_) => "runtime-error",
        }
    }
}

/// Judges an execution against a test's expectations.
pub fn judge(test: &TestCase, exec: &Execution, compare: Compare) -> Verdict {
    match &exec.termination {
        Termination::RuntimeError(e) => return Verdict::Fail(FailReason::RuntimeError(e.clone())),
        Termination::AssertFailed { message, .. } => {
            return Verdict::Fail(FailReason::Assertion {
                message: message.clone(),
            })
        }
        Termination::Stopped | Termination::OutOfBudget(_) => {
            return Verdict::Fail(FailReason::RuntimeError(RuntimeError {
                kind: crate::interp::ErrorKind::Invalid,
                stmt: None,
                message: "run stopped before completion".into(),
            }))
        }
        Termination::Exit(_) => {}
    }
    if let Some(reason) = compare_output(&test.expected_stdout, &exec.stdout, compare) {
        return Verdict::Fail(reason);
    }
    if let Some(expected) = test.expected_status {
        let actual = exec.exit_status();
        if actual != expected {
            return Verdict::Fail(FailReason::ExitStatus { expected, actual });
        }
    }
    Verdict::Pass
}

fn compare_output(expected: &[u8], actual: &[u8], compare: Compare) -> Option<FailReason> {
    if compare.agrees(expected, actual) {
        return None;
    }
    if let Compare::Pattern(p) = compare {
        // Name the first answer that differs (or is missing, or extra).
        let (e, a) = (p.answers(expected), p.answers(actual));
        let k = (0..e.len().max(a.len()))
            .find(|&i| match (e.get(i), a.get(i)) {
                (Some(x), Some(y)) => !p.same(&x.text, &y.text),
                _ => true,
            })
            .unwrap_or(0);
        let line = |out: &[u8], at: usize| 1 + out[..at].iter().filter(|&&b| b == b'\n').count();
        let show = |x: Option<&Answer>| match x {
            Some(x) => format!("answer {}", String::from_utf8_lossy(&x.text)),
            None => "no answer".to_string(),
        };
        return Some(FailReason::Output {
            line: match a.get(k) {
                Some(x) => line(actual, x.start),
                None => line(actual, actual.len()),
            },
            expected: show(e.get(k)),
            actual: show(a.get(k)),
        });
    }
    let e: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
    let a: Vec<&[u8]> = actual.split_inclusive(|&b| b == b'\n').collect();
    let n = e.len().max(a.len());
    for i in 0..n {
        let (x, y) = (e.get(i).copied(), a.get(i).copied());
        if compare.lines_differ(x, y) {
            let show = |s: Option<&[u8]>| match s {
                Some(s) => String::from_utf8_lossy(s).into_owned(),
                None => "<end of output>".into(),
            };
            return Some(FailReason::Output {
                line: i + 1,
                expected: show(x),
                actual: show(y),
            });
        }
    }
    Some(FailReason::Output {
        line: n.max(1),
        expected: String::from_utf8_lossy(expected).into(),
        actual: String::from_utf8_lossy(actual).into(),
    })
}

/// An error loading a suite: one line naming the file and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteError(pub String);

impl fmt::Display for SuiteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SuiteError {}

fn read(path: &Path) -> Result<Vec<u8>, SuiteError> {
    std::fs::read(path)
        .map_err(|e| SuiteError(format!("{}: error: cannot read file: {e}", path.display())))
}

/// Compares names so that `t2` sorts before `t10`.
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, _) => return std::cmp::Ordering::Less,
            (_, None) => return std::cmp::Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let i = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let j = y.iter().take_while(|c| c.is_ascii_digit()).count();
                let (n, m) = (&x[..i], &y[..j]);
                let strip = |s: &[u8]| -> Vec<u8> {
                    let k = s.iter().take_while(|&&c| c == b'0').count();
                    s[k..].to_vec()
                };
                let (sn, sm) = (strip(n), strip(m));
                let o = sn.len().cmp(&sm.len()).then_with(|| sn.cmp(&sm));
                if o != std::cmp::Ordering::Equal {
                    return o;
                }
                x = &x[i..];
                y = &y[j..];
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

/// Loads a directory of `NAME.in` / `NAME.out` pairs (and optional `NAME.args`), in natural name order.
pub fn load_dir(dir: &Path) -> Result<Vec<TestCase>, SuiteError> {
    let entries = std::fs::read_dir(dir).map_err(|e| {
        SuiteError(format!(
            "{}: error: cannot read test directory: {e}",
            dir.display()
        ))
    })?;
    let mut names = Vec::new();
    let mut outs = std::collections::BTreeSet::new();
    for entry in entries {
        let entry = entry.map_err(|e| {
            SuiteError(format!(
                "{}: error: cannot read test directory: {e}",
                dir.display()
            ))
        })?;
        let path = entry.path();
        let (Some(stem), Some(ext)) = (path.file_stem(), path.extension()) else {
            continue;
        };
        let stem = stem.to_string_lossy().into_owned();
        match ext.to_str() {
            Some("in") => names.push(stem),
            Some("out") => {
                outs.insert(stem);
            }
            _ => {}
        }
    }
    names.sort_by(|a, b| natural_cmp(a, b));
    if let Some(name) = names.iter().find(|n| !outs.contains(*n)) {
        return Err(SuiteError(format!(
            "{}: error: test '{name}' has no expected output ({} is missing)",
            dir.join(format!("{name}.in")).display(),
            dir.join(format!("{name}.out")).display()
        )));
    }
    let mut orphans: Vec<&String> = outs.iter().filter(|o| !names.contains(*o)).collect();
    orphans.sort_by(|a, b| natural_cmp(a, b));
    if let Some(name) = orphans.first() {
        return Err(SuiteError(format!(
            "{}: error: test '{name}' has no input ({} is missing)",
            dir.join(format!("{name}.out")).display(),
            dir.join(format!("{name}.in")).display()
        )));
    }
    if names.is_empty() {
        return Err(SuiteError(format!(
            "{}: error: no tests found: expected NAME.in / NAME.out pairs",
            dir.display()
        )));
    }
    let mut tests = Vec::with_capacity(names.len());
    for name in names {
        let stdin = read(&dir.join(format!("{name}.in")))?;
        let expected_stdout = read(&dir.join(format!("{name}.out")))?;
        let args_path = dir.join(format!("{name}.args"));
        let args = if args_path.exists() {
            String::from_utf8_lossy(&read(&args_path)?)
                .split_whitespace()
                .map(String::from)
                .collect()
        } else {
            Vec::new()
        };
        tests.push(TestCase {
            name,
            args,
            stdin,
            expected_stdout,
            expected_status: None,
            workdir: Some(dir.to_path_buf()),
        });
    }
    Ok(tests)
}

/// One line of an argument file: a test's command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandLine {
    /// The 1-based line number.
    pub name: String,
    /// `argv[1..]`.
    pub args: Vec<String>,
    /// The file given with `< FILE` for standard input, relative to the
    /// tests' working directory.
    pub stdin: Option<String>,
}

/// Splits one line as a POSIX shell (dash) does for a simple command, without
/// globbing: words
/// separated by blanks, `'...'` (literal), `"..."` (where `\` escapes `"`,
/// `\`, `$` and `` ` ``), `\` outside quotes escaping the next character, and
/// an unquoted `< FILE` giving standard input. Anything else the shell would
/// interpret (`>`, `|`, `;`, `&`, `$`, `` ` ``, unquoted) is refused with a reason.
pub fn parse_command_line(line: &str) -> Result<(Vec<String>, Option<String>), String> {
    let mut words: Vec<(String, bool)> = Vec::new(); // (word, is an unquoted `<`)
    let mut cur: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some(w) = cur.take() {
                    words.push((w, false));
                }
            }
            '\'' => {
                let w = cur.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(ch) => w.push(ch),
                        None => return Err("unterminated single quote".into()),
                    }
                }
            }
            '"' => {
                let w = cur.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(ch @ ('"' | '\\' | '$' | '`')) => w.push(ch),
                            Some(ch) => {
                                w.push('\\');
                                w.push(ch);
                            }
                            None => return Err("unterminated double quote".into()),
                        },
                        Some(ch @ ('$' | '`')) => {
                            return Err(format!("unsupported shell syntax '{ch}' in double quotes"))
                        }
                        Some(ch) => w.push(ch),
                        None => return Err("unterminated double quote".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(ch) => cur.get_or_insert_with(String::new).push(ch),
                None => return Err("a backslash at the end of the line".into()),
            },
            '<' => {
                if let Some(w) = cur.take() {
                    words.push((w, false));
                }
                words.push(("<".into(), true));
            }
            // A `$` that starts no expansion is itself, as in the shell.
            '$' if chars
                .peek()
                .is_none_or(|n| !(n.is_ascii_alphanumeric() || "_{(@*#?$!-".contains(*n))) =>
            {
                cur.get_or_insert_with(String::new).push('$')
            }
            '>' | '|' | ';' | '&' | '$' | '`' | '(' | ')' => {
                return Err(format!(
                    "unsupported shell syntax '{c}' (only arguments and `< FILE`)"
                ))
            }
            ch => cur.get_or_insert_with(String::new).push(ch),
        }
    }
    if let Some(w) = cur.take() {
        words.push((w, false));
    }
    let mut args = Vec::new();
    let mut stdin = None;
    let mut it = words.into_iter();
    while let Some((w, redirect)) = it.next() {
        if !redirect {
            args.push(w);
            continue;
        }
        match it.next() {
            Some((file, false)) if stdin.is_none() => stdin = Some(file),
            Some((_, false)) => return Err("more than one `< FILE`".into()),
            _ => return Err("`<` without a file name".into()),
        }
    }
    Ok((args, stdin))
}

/// Reads an argument file: one test per line, a command line without the
/// program name ([`parse_command_line`]: shell quoting, `< FILE` for
/// standard input). Tests are named by their 1-based line number.
pub fn read_command_file(path: &Path) -> Result<Vec<CommandLine>, SuiteError> {
    let bytes = std::fs::read(path).map_err(|e| {
        SuiteError(format!(
            "{}: error: cannot read argument file: {e}",
            path.display()
        ))
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        SuiteError(format!(
            "{}: error: argument file is not valid UTF-8",
            path.display()
        ))
    })?;
    let mut tests = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let (args, stdin) = parse_command_line(l)
            .map_err(|e| SuiteError(format!("{}:{}: error: {e}", path.display(), i + 1)))?;
        tests.push(CommandLine {
            name: (i + 1).to_string(),
            args,
            stdin,
        });
    }
    if tests.is_empty() {
        return Err(SuiteError(format!(
            "{}: error: no tests found: the argument file is empty",
            path.display()
        )));
    }
    Ok(tests)
}

/// [`read_command_file`] for files of arguments only (a `< FILE` is refused).
pub fn read_args_file(path: &Path) -> Result<Vec<(String, Vec<String>)>, SuiteError> {
    read_command_file(path)?
        .into_iter()
        .map(|c| match c.stdin {
            None => Ok((c.name, c.args)),
            Some(_) => Err(SuiteError(format!(
                "{}:{}: error: `< FILE` needs a working directory",
                path.display(),
                c.name
            ))),
        })
        .collect()
}

/// Builds the tests of an argument file, taking the expected stdout and exit
/// status of each from the reference program's run.
pub fn with_oracle(
    args: Vec<(String, Vec<String>)>,
    oracle: &Program,
    oracle_name: &str,
    limits: Limits,
) -> Result<Vec<TestCase>, SuiteError> {
    let lines = args
        .into_iter()
        .map(|(name, args)| CommandLine {
            name,
            args,
            stdin: None,
        })
        .collect();
    let o = with_oracle_in(lines, None, oracle, oracle_name, None, limits)?;
    match o.excluded.into_iter().next() {
        Some((name, why)) => Err(SuiteError(format!(
            "{oracle_name}: error: the reference program fails test {name}: {why}"
        ))),
        None => Ok(o.tests),
    }
}

/// The tests built from a reference program's runs.
#[derive(Debug)]
pub struct OracleTests {
    pub tests: Vec<TestCase>,
    /// Tests left out because the reference program does not end normally on
    /// them (a runtime error, a failed assertion: no expected output): the
    /// test's name and the reference's error.
    pub excluded: Vec<(String, String)>,
}

/// Builds the tests of command lines run in `workdir` (standard input read
/// from `< FILE` there, `fopen` relative to it), taking the expected stdout
/// and exit status of each from the reference program's run. A test on which
/// the reference program ends with a runtime error or a failed assertion is
/// left out (listed in [`OracleTests::excluded`]); running out of the job's
/// budget is an error. With `argv0`, the reference runs under the program's
/// name (its `argv[0]`, e.g. in a usage message) rather than its own.
pub fn with_oracle_in(
    lines: Vec<CommandLine>,
    workdir: Option<&Path>,
    oracle: &Program,
    oracle_name: &str,
    argv0: Option<&str>,
    limits: Limits,
) -> Result<OracleTests, SuiteError> {
    let mut exe = Executable::new(oracle).map_err(|e| {
        SuiteError(format!(
            "{oracle_name}: error: reference program cannot start: {e}"
        ))
    })?;
    if let Some(a) = argv0 {
        exe = exe.with_argv0(a.to_string());
    }
    let dir = workdir.unwrap_or(Path::new("."));
    let mut out = OracleTests {
        tests: Vec::new(),
        excluded: Vec::new(),
    };
    for CommandLine { name, args, stdin } in lines {
        let test = {
            let stdin = match stdin {
                Some(f) => std::fs::read(dir.join(&f)).map_err(|e| {
                    SuiteError(format!(
                        "{}: error: cannot read the standard input of test {name}: {e}",
                        dir.join(&f).display()
                    ))
                })?,
                None => Vec::new(),
            };
            let run = exe.run(
                Input {
                    args: &args,
                    stdin: &stdin,
                    workdir,
                },
                ExecOptions {
                    limits,
                    ..ExecOptions::default()
                },
            );
            match &run.termination {
                Termination::Exit(status) => Ok(Some(TestCase {
                    name,
                    args,
                    stdin,
                    expected_stdout: run.stdout,
                    expected_status: Some(*status),
                    workdir: workdir.map(Path::to_path_buf),
                })),
                Termination::AssertFailed { message, .. } => {
                    out.excluded.push((
                        name.clone(),
                        message.clone(),
                    ));
                    Ok(None)
                }
                Termination::RuntimeError(e) => {
                    out.excluded.push((
                        name.clone(),
                        e.describe(oracle),
                    ));
                    Ok(None)
                }
                Termination::Stopped => Err(SuiteError(format!(
                    "{oracle_name}: error: reference run stopped"
                ))),
                Termination::OutOfBudget(e) => Err(SuiteError(format!(
                    "{oracle_name}: error: the {} limit was reached while running the reference program on test {name}",
                    match e {
                        crate::Exhausted::Time => "time",
                        crate::Exhausted::Memory => "memory",
                    }
                ))),
            }
        };
        if let Some(t) = test? {
            out.tests.push(t);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_as_the_shell_splits_them() {
        let ok = |l: &str, args: &[&str], stdin: Option<&str>| {
            assert_eq!(
                parse_command_line(l),
                Ok((
                    args.iter().map(|s| s.to_string()).collect(),
                    stdin.map(String::from)
                )),
                "{l}"
            )
        };
        ok("1 2  3", &["1", "2", "3"], None);
        ok(
            "'-?' 'a&' < temp-test/1.inp.1.1",
            &["-?", "a&"],
            Some("temp-test/1.inp.1.1"),
        );
        ok("' ' '@%@&' <x", &[" ", "@%@&"], Some("x"));
        ok(
            r#""a\"b" c\ d '' x'y'"z""#,
            &[r#"a"b"#, "c d", "", "xyz"],
            None,
        );
        ok(r#""\n""#, &[r"\n"], None);
        ok("'<' a", &["<", "a"], None);
        ok("< in", &[], Some("in"));
        ok("'%a' k$ < f", &["%a", "k$"], Some("f"));
        ok("a$ $", &["a$", "$"], None);
        ok(r"'@@*'\'*$',^P'", &["@@*'*$,^P"], None);
        ok("", &[], None);
        for (bad, why) in [
            ("'abc", "unterminated single quote"),
            ("\"abc", "unterminated double quote"),
            ("a <", "`<` without a file name"),
            ("< a < b", "more than one `< FILE`"),
            (
                "a > out",
                "unsupported shell syntax '>' (only arguments and `< FILE`)",
            ),
            (
                "a | b",
                "unsupported shell syntax '|' (only arguments and `< FILE`)",
            ),
            (
                "$HOME",
                "unsupported shell syntax '$' (only arguments and `< FILE`)",
            ),
        ] {
            assert_eq!(parse_command_line(bad), Err(why.to_string()), "{bad}");
        }
    }

    #[test]
    fn natural_order() {
        let mut v = vec!["t10", "t2", "t1", "a", "t02"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, vec!["a", "t1", "t02", "t2", "t10"]);
    }

    #[test]
    fn output_comparison() {
        assert_eq!(compare_output(b"1\n2\n", b"1\n2\n", Compare::Exact), None);
        assert_eq!(
            compare_output(b"1\n2\n", b"1\n3\n", Compare::Exact),
            Some(FailReason::Output {
                line: 2,
                expected: "2\n".into(),
                actual: "3\n".into()
            })
        );
        assert_eq!(
            compare_output(b"1  2\n", b"1 2", Compare::IgnoreWhitespace),
            None
        );
        assert_eq!(
            compare_output(b"1\n", b"1\n2\n", Compare::Exact),
            Some(FailReason::Output {
                line: 2,
                expected: "<end of output>".into(),
                actual: "2\n".into()
            })
        );
    }
}
