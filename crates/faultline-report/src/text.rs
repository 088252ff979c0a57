//! The plain-text report of `faultline localize`.

use faultline_diagnose::result::describe_ctx;
use faultline_diagnose::{Angelic, AngelicValue, Localization};
use faultline_ir::Program;
use std::fmt::Write;

/// How many tests' angelic values are listed per diagnosis.
pub const ANGELIC_TESTS_SHOWN: usize = 3;

pub fn angelic_phrase(a: &Angelic) -> String {
    match &a.value {
        AngelicValue::Value { needed, computed } if needed == computed => {
            format!("would need {needed} here (as computed)")
        }
        AngelicValue::Value { needed, computed } => {
            format!("would need {needed} here, computed {computed}")
        }
        AngelicValue::Branch { needed, computed } if needed == computed => {
            format!("would need to be {needed} (as computed)")
        }
        AngelicValue::Branch { needed, .. } => format!("this condition would need to be {needed}"),
        AngelicValue::Output { text } if text.is_empty() => {
            "would need to print nothing".to_string()
        }
        AngelicValue::Output { text } => format!("would need to print {text:?}"),
    }
}

pub fn render(prog: &Program, loc: &Localization) -> String {
    let mut s = String::new();
    let failing: Vec<&str> = loc
        .failing
        .iter()
        .map(|&t| loc.tests[t].name.as_str())
        .collect();
    if failing.is_empty() {
        let _ = writeln!(s, "all {} tests pass: nothing to localize", loc.tests.len());
        return s;
    }
    let shown: Vec<&str> = failing.iter().take(10).copied().collect();
    let more = if failing.len() > 10 {
        format!(" and {} more", failing.len() - 10)
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "{} of {} tests fail: {}{}",
        failing.len(),
        loc.tests.len(),
        shown.join(", "),
        more
    );
    for (t, why) in &loc.skipped {
        let _ = writeln!(s, "note: test {} is not used: {}", loc.tests[*t].name, why);
    }
    let _ = writeln!(
        s,
        "method {}: {} diagnos{}{}",
        loc.method,
        loc.diagnoses.len(),
        if loc.diagnoses.len() == 1 { "is" } else { "es" },
        match &loc.incomplete {
            None => String::new(),
            Some(i) => format!(" (incomplete: {})", i.describe()),
        }
    );
    for (i, d) in loc.diagnoses.iter().enumerate() {
        let _ = write!(
            s,
            "\ndiagnosis {}: {} statement{}",
            i + 1,
            d.stmts.len(),
            if d.stmts.len() == 1 { "" } else { "s" }
        );
        if let Some(t) = d.test {
            let _ = write!(s, " (test {})", loc.tests[t].name);
        }
        if let Some(v) = d.verified {
            let _ = write!(
                s,
                "{}",
                if v {
                    ", verified by re-execution"
                } else {
                    ", NOT confirmed by re-execution"
                }
            );
        }
        s.push('\n');
        for st in &d.stmts {
            let info = prog.stmt(*st);
            let _ = writeln!(
                s,
                "  {}:{}  {}",
                prog.file_name(info.loc.file),
                info.loc.line,
                info.text
            );
            let mut tests_seen: Vec<usize> = Vec::new();
            for a in d.angelic.iter().filter(|a| a.stmt == *st) {
                if !tests_seen.contains(&a.test) {
                    if tests_seen.len() >= ANGELIC_TESTS_SHOWN {
                        continue;
                    }
                    tests_seen.push(a.test);
                }
                let ctx = describe_ctx(prog, &a.ctx);
                let ctx = if ctx.is_empty() {
                    String::new()
                } else {
                    format!(" ({ctx})")
                };
                let _ = writeln!(
                    s,
                    "      test {}{}: {}",
                    loc.tests[a.test].name,
                    ctx,
                    angelic_phrase(a)
                );
            }
            let total: std::collections::BTreeSet<usize> = d
                .angelic
                .iter()
                .filter(|a| a.stmt == *st)
                .map(|a| a.test)
                .collect();
            if total.len() > tests_seen.len() {
                let _ = writeln!(
                    s,
                    "      ... and {} more tests",
                    total.len() - tests_seen.len()
                );
            }
        }
    }
    if !loc.ranking.is_empty() {
        let _ = writeln!(s, "\nsuspicious statements, most suspicious first:");
        for (i, r) in loc.ranking.iter().enumerate() {
            let info = prog.stmt(r.stmt);
            let _ = writeln!(
                s,
                "{:>4}. {}:{}  {}",
                i + 1,
                prog.file_name(info.loc.file),
                info.loc.line,
                info.text
            );
        }
    }
    for n in &loc.notes {
        let _ = writeln!(s, "note: {n}");
    }
    s
}
