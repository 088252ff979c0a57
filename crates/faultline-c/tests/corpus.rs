//! Every program of the differential test corpus (`tests/programs`) compiles.

use std::path::Path;

#[test]
fn corpus_programs_compile() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "the differential corpus is missing at {}: {e}",
            dir.display()
        )
    });
    let mut failures = Vec::new();
    let mut count = 0;
    for e in entries.flatten() {
        let prog = e.path().join("prog.c");
        if !prog.exists() {
            continue;
        }
        count += 1;
        if let Err(err) = faultline_c::compile_file(&prog) {
            failures.push(err.to_string());
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        count >= 60,
        "only {count} corpus programs in {}",
        dir.display()
    );
    eprintln!("{count} corpus programs compiled");
}
