//! Every program of the differential test corpus (`tests/programs`) compiles.

use std::path::Path;

#[test]
fn corpus_programs_compile() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/programs");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipping: no corpus at {}", dir.display());
        return;
    };
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
    eprintln!("{count} corpus programs compiled");
}
