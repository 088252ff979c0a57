//! `faultline localize --method mdfs`: running MDFS with `--test` and
//! `--property`, and its rounds in the text (verbose) and JSON reports.

use crate::input::UserError;
use crate::localize_cmd::LocalizeArgs;
use faultline_diagnose::mdfs::{self, MdfsOptions, MdfsReport};
use faultline_diagnose::methods::Method;
use faultline_diagnose::{Localization, Options, Session};

/// Runs MDFS when it is the method; `None` for other methods (which must not
/// be given `--test` or `--property`).
pub fn run(
    a: &LocalizeArgs,
    session: &Session,
    method: &Method,
    options: &Options,
) -> Result<Option<(Localization, Option<MdfsReport>)>, UserError> {
    if *method != Method::Mdfs {
        if a.test.is_some() || a.property.is_some() {
            return Err(UserError(
                "error: --test and --property apply to --method mdfs only".into(),
            ));
        }
        return Ok(None);
    }
    let m = MdfsOptions {
        test: a.test.clone(),
        property: a.property.clone(),
        max_combination: a.max_size.min(2),
        ..MdfsOptions::default()
    };
    mdfs::localize(session, options, &m)
        .map(Some)
        .map_err(|e| UserError(format!("error: {e}")))
}

/// The rounds, for the verbose text report.
pub fn text(r: &MdfsReport) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\nMDFS on test {}: dependence graph of {} nodes and {} edges; property: {}",
        r.test, r.nodes, r.edges, r.property
    );
    let ent = |e: &mdfs::Entity| {
        format!(
            "line {} `{}`{}{} (node {}, distance {})",
            e.line,
            e.text,
            match e.decision {
                Some(true) => " [true]",
                Some(false) => " [false]",
                None => "",
            },
            if e.context.is_empty() {
                String::new()
            } else {
                format!(" ({})", e.context)
            },
            e.node,
            e.distance
        )
    };
    for round in &r.rounds {
        let _ = writeln!(
            s,
            "round {}: property {}; {} nodes between the sources and the sinks; {}",
            round.index, round.property, round.region, round.outcome
        );
        if !round.avoided.is_empty() {
            let _ = writeln!(s, "  avoiding the clean members {:?}", round.avoided);
        }
        for e in &round.cut {
            let _ = writeln!(s, "  cut: {}", ent(e));
        }
        for v in &round.verdicts {
            let _ = writeln!(s, "  {:?}: {}", v.members, v.verdict);
        }
        if !round.reported.is_empty() {
            let _ = writeln!(s, "  reported as root causes: {:?}", round.reported);
        }
    }
    for rc in &r.root_causes {
        let _ = writeln!(s, "root cause: {}", ent(&rc.entity));
        let chain: Vec<String> = rc
            .chain
            .iter()
            .map(|e| format!("line {}", e.line))
            .collect();
        let _ = writeln!(s, "  chain to the failure: {}", chain.join(" -> "));
    }
    if r.unknown_queries > 0 {
        let _ = writeln!(s, "{} queries hit the time limit", r.unknown_queries);
    }
    s
}

/// The report's JSON with an `mdfs` member added (last, keys in order).
pub fn json(report_json: String, r: &MdfsReport) -> String {
    let body = report_json.trim_end();
    match (body.strip_suffix('}'), serde_json::to_string_pretty(r)) {
        (Some(head), Ok(m)) => {
            let m = m.replace('\n', "\n  ");
            format!("{},\n  \"mdfs\": {m}\n}}\n", head.trim_end())
        }
        _ => report_json,
    }
}
