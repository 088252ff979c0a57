//! The TCAS benchmark (Siemens suite): every version compiles, and its
//! statements carry their exact source text.

use std::path::{Path, PathBuf};

use faultline_ir::{Program, StmtKind};

/// The repository's copy of the TCAS benchmark (tests/tcas).
fn tcas_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/tcas");
    assert!(
        d.join("tcas.c").exists(),
        "the repository's TCAS copy is missing: {}",
        d.display()
    );
    d
}

fn stmt_at(p: &Program, line: u32) -> &faultline_ir::StmtInfo {
    p.stmts
        .iter()
        .find(|s| s.loc.line == line)
        .unwrap_or_else(|| panic!("no statement on line {line}"))
}

#[test]
fn tcas_statements_have_source_text() {
    let dir = tcas_dir();
    let path = dir.join("tcas.c");
    let p = faultline_c::compile_file(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.files[0].name, path.to_string_lossy());
    let s80 = stmt_at(&p, 80);
    assert_eq!(
        s80.text,
        "result = !(Own_Below_Threat()) || ((Own_Below_Threat()) && (!(Down_Separation >= ALIM())));"
    );
    assert_eq!(s80.kind, StmtKind::Expr);
    assert_eq!(
        (s80.loc.col, s80.loc.end_line, s80.loc.end_col),
        (2, 80, 93)
    );
    let s78 = stmt_at(&p, 78);
    assert_eq!(s78.text, "upward_preferred");
    assert_eq!(s78.kind, StmtKind::IfCond);
    assert_eq!(
        stmt_at(&p, 68).text,
        "return (Climb_Inhibit ? Up_Separation + NOZCROSS : Up_Separation);"
    );
    assert_eq!(stmt_at(&p, 68).kind, StmtKind::Return);
    assert_eq!(
        stmt_at(&p, 129).text,
        "enabled && ((tcas_equipped && intent_not_known) || !tcas_equipped)"
    );
    assert_eq!(stmt_at(&p, 153).text, "argc < 13");
    assert_eq!(
        stmt_at(&p, 155).text,
        "fprintf(stdout, \"Error: Command line arguments are\\n\");"
    );
    assert_eq!(
        stmt_at(&p, 176).text,
        "fprintf(stdout, \"%d\\n\", alt_sep_test());"
    );
    assert_eq!(stmt_at(&p, 138).text, "need_upward_RA");
    assert_eq!(stmt_at(&p, 138).kind, StmtKind::IfCond);
    // 55 statements of the source, numbered first in source order, each in
    // its function; then 9 that may be missing: the insertions (the
    // declarations of arithmetic locals without an initializer are all
    // assigned before any read: none is a candidate).
    let written =
        |s: &&faultline_ir::StmtInfo| !matches!(s.kind, StmtKind::Declare | StmtKind::Insert);
    assert_eq!(p.stmts.iter().take_while(written).count(), 55);
    assert_eq!(p.stmts.len(), 55 + 9);
    for w in p.stmts[..55].windows(2) {
        assert!((w[0].loc.line, w[0].loc.col) < (w[1].loc.line, w[1].loc.col));
    }
    let declared = p
        .stmts
        .iter()
        .filter(|s| s.kind == StmtKind::Declare)
        .count();
    assert_eq!(declared, 0);
    let names: Vec<&str> = p.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "initialize",
            "ALIM",
            "Inhibit_Biased_Climb",
            "Non_Crossing_Biased_Climb",
            "Non_Crossing_Biased_Descend",
            "Own_Below_Threat",
            "Own_Above_Threat",
            "alt_sep_test",
            "main"
        ]
    );
    assert_eq!(p.func(p.main).name, "main");
    assert_eq!(p.func(p.main).params.len(), 2);
    assert_eq!(p.call_sites.len(), 18);
    for s in &p.stmts {
        assert_eq!(p.func(s.func).name, p.functions[s.func.index()].name);
    }
}

#[test]
fn every_tcas_version_compiles() {
    let dir = tcas_dir();
    let mut count = 0;
    let mut versions: Vec<PathBuf> = std::fs::read_dir(dir.join("versions"))
        .expect("versions directory")
        .filter_map(|e| e.ok().map(|e| e.path().join("tcas.c")))
        .filter(|p| p.exists())
        .collect();
    versions.sort();
    for v in versions {
        let p = faultline_c::compile_file(&v).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(p.func(p.main).name, "main");
        count += 1;
    }
    assert_eq!(count, 41);
}

#[test]
fn faulty_macro_versions_keep_macro_names_in_text() {
    let dir = tcas_dir();
    // v13: `#define OLEV 600+100`; the use site's text keeps the macro name.
    let p = faultline_c::compile_file(&dir.join("versions/v13/tcas.c"))
        .unwrap_or_else(|e| panic!("{e}"));
    let s = p
        .stmts
        .iter()
        .find(|s| s.text.starts_with("enabled ="))
        .expect("the enabled statement");
    assert_eq!(
        s.text,
        "enabled = High_Confidence && (Own_Tracked_Alt_Rate <= OLEV) && (Cur_Vertical_Sep > MAXALTDIFF);"
    );
    let text = faultline_ir::pretty::program(&p);
    assert!(
        text.contains("(Own_Tracked_Alt_Rate <= (600 + 100))"),
        "{text}"
    );
    // v22 calls Own_Below_Threat before its definition without any declaration.
    let p = faultline_c::compile_file(&dir.join("versions/v22/tcas.c"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(p.func_by_name("Own_Below_Threat").is_some());
}
