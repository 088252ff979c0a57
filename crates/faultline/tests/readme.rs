//! The README's first lines are the two commands a newcomer types: the first runs `faultline localize` on
//! the example, the second runs this test suite. This test parses them from README.md and runs the first as
//! it is written, on the machine as it is, in the repository root, and checks the example's diagnosis in
//! its output; it checks that `.ci/run` runs the second, so CI and the README cannot drift apart.

mod common;

use common::root;
use std::process::Command;

/// The commands of the README's first code block, one per line.
fn readme_commands() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let mut lines = readme.lines();
    assert_eq!(
        lines.next(),
        Some("# faultline"),
        "README.md starts with its title"
    );
    let block: Vec<String> = lines
        .skip_while(|l| l.trim().is_empty())
        .skip_while(|l| l.starts_with("```"))
        .take_while(|l| !l.starts_with("```"))
        .map(String::from)
        .collect();
    assert!(
        readme.lines().nth(2).is_some_and(|l| l.starts_with("```")),
        "the README's first lines are a code block of commands"
    );
    block
}

#[test]
fn the_readme_starts_with_the_example_and_the_test_command() {
    let cmds = readme_commands();
    assert_eq!(cmds.len(), 2, "two commands: {cmds:?}");
    assert!(
        cmds[0].contains("faultline") || cmds[0].contains("cargo run"),
        "{}",
        cmds[0]
    );
    assert!(cmds[0].contains(" localize "), "{}", cmds[0]);
    assert!(cmds[1].ends_with("cargo test --workspace"), "{}", cmds[1]);
    // CI runs the README's test command as it is written there.
    let ci = std::fs::read_to_string(root().join(".ci/run")).expect(".ci/run");
    assert!(
        ci.lines().any(|l| l.trim() == cmds[1]),
        ".ci/run does not run the README's test command {:?}",
        cmds[1]
    );
}

#[test]
fn the_readmes_first_command_localizes_the_example() {
    let cmds = readme_commands();
    let out = Command::new("sh")
        .arg("-c")
        .arg(&cmds[0])
        .current_dir(root())
        // A terminal-independent report, without the progress indicator.
        .env("NO_COLOR", "1")
        .output()
        .expect("sh runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Exit status 1: tests fail, and their faults were localized.
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        cmds[0]
    );
    assert!(
        stdout.starts_with("2 of 8 tests fail: t4, t8\n"),
        "stdout:\n{stdout}\nstderr:\n{stderr}"
    );
    let first =
        "diagnosis 1 of 5: 1 statement, explains t4, t8\n  --> examples/triangle/triangle.c:14:5\n";
    assert!(stdout.contains(first), "stdout:\n{stdout}");
    assert!(
        stdout.contains("14 |     iso = a == b || a == b || a == c;\n"),
        "stdout:\n{stdout}"
    );
    assert!(
        stdout.contains("would need 1 here, computed 0 for test t4"),
        "stdout:\n{stdout}"
    );
    assert!(
        stdout.contains(
            "suspicious statements, most suspicious first:\n  1. examples/triangle/triangle.c:14  iso = a == b || a == b || a == c;\n"
        ),
        "stdout:\n{stdout}"
    );
}
