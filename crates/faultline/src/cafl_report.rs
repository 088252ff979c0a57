//! Renderers of CaFL's cause tree (`faultline localize --method cafl`,
//! `faultline explain`): terminal text, JSON (schema `faultline.cafl/1`,
//! documented in docs/json.md) and a self-contained HTML page with a
//! collapsible tree.

use faultline_diagnose::cafl::critical::CriticalKind;
use faultline_diagnose::cafl::{Explainer, FailureKind, NodeState};
use faultline_ir::Branch;
use faultline_report::style::{Palette, Role};
use serde_json::{json, Value};
use std::fmt::Write;

pub const SCHEMA: &str = "faultline.cafl/1";

fn outcome(b: Option<Branch>) -> String {
    match b {
        Some(Branch::True) => "true".into(),
        Some(Branch::False) => "false".into(),
        Some(Branch::Case(k)) => format!("case {k}"),
        Some(Branch::Default) => "default".into(),
        None => "none".into(),
    }
}

fn kind_name(k: CriticalKind) -> &'static str {
    match k {
        CriticalKind::Direct => "direct",
        CriticalKind::Indirect => "indirect",
    }
}

fn state_name(s: NodeState) -> &'static str {
    match s {
        NodeState::Expanded => "expanded",
        NodeState::Benign => "benign",
        NodeState::Truncated => "truncated",
    }
}

/// The note of a tree cut by a limit.
pub fn partial_note(ex: &Explainer) -> Option<String> {
    ex.incomplete.as_ref().map(|e| {
        format!(
            "partial: {}; the causes not built yet are missing (nodes marked truncated)",
            e.describe()
        )
    })
}

fn pos(ex: &Explainer, step: usize) -> String {
    let loc = &ex.prog.stmt(ex.stmt(step)).loc;
    format!("{}:{}", ex.prog.file_name(loc.file), loc.line)
}

fn text_of<'a>(ex: &'a Explainer, step: usize) -> &'a str {
    &ex.prog.stmt(ex.stmt(step)).text
}

/// One line naming what node `n` explains.
pub fn explains(ex: &Explainer, n: usize) -> String {
    let node = &ex.nodes[n];
    match node.parent {
        None => format!(
            "the failure at {} `{}`: {}",
            pos(ex, node.failure),
            text_of(ex, node.failure),
            ex.failure_text
        ),
        Some(_) => format!(
            "why `{}` at {} was {}",
            text_of(ex, node.failure),
            pos(ex, node.failure),
            outcome(ex.model.steps[node.failure].outcome)
        ),
    }
}

/// The terminal report: one block per node, breadth first, indented by level.
pub fn text(ex: &Explainer, program_name: &str, p: Palette) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {program_name}: test `{}` fails: {}",
        p.paint(Role::Heading, "cafl:"),
        ex.test,
        ex.failure_text
    );
    let _ = writeln!(
        out,
        "{}",
        p.paint(
            Role::Dim,
            &format!(
                "{} nodes; {} of {} trace instances in the tree ({:.1}%); {} solver checks; {:.3} s",
                ex.nodes.len(),
                ex.stats.tree_instances,
                ex.stats.trace_instances,
                100.0 * ex.share(),
                ex.stats.solver_checks,
                ex.stats.time.as_secs_f64()
            )
        )
    );
    if let Some(note) = partial_note(ex) {
        let _ = writeln!(out, "{}", p.paint(Role::Dim, &note));
    }
    let mut order: Vec<usize> = (0..ex.nodes.len()).collect();
    order.sort_by_key(|&n| (ex.nodes[n].level, n));
    for n in order {
        let node = &ex.nodes[n];
        let ind = "  ".repeat(node.level as usize);
        let _ = writeln!(out);
        let mut head = format!(
            "{ind}{} [{}] {}",
            p.paint(Role::Heading, &format!("level {}", node.level)),
            node.id,
            explains(ex, n)
        );
        if node.parent.is_some() {
            // The critical condition is the failure of this node: in bold.
            head = format!(
                "{ind}{} [{}] why {} at {} was {}",
                p.paint(Role::Heading, &format!("level {}", node.level)),
                node.id,
                p.paint(Role::Heading, &format!("`{}`", text_of(ex, node.failure))),
                pos(ex, node.failure),
                outcome(ex.model.steps[node.failure].outcome)
            );
        }
        let _ = writeln!(out, "{head}");
        let _ = writeln!(
            out,
            "{ind}  {}",
            p.paint(
                Role::Dim,
                &format!(
                    "cause: {} instances, {:.1}% of the trace{}{}",
                    node.cause.len(),
                    100.0 * ex.node_share(n),
                    if node.refuted {
                        ""
                    } else {
                        "; not refuted (the failure's data slice)"
                    },
                    match node.state {
                        NodeState::Benign => "; marked benign",
                        NodeState::Truncated => "; expansion stopped by the limits",
                        NodeState::Expanded => "",
                    }
                )
            )
        );
        for (line, stmt) in ex.node_lines(n) {
            let mark = if ex.correct.contains(&line) {
                " (correct)"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "{ind}  {} {}{}",
                p.paint(Role::Gutter, &format!("{line:>5} |")),
                ex.prog.stmt(stmt).text,
                p.paint(Role::Note, mark)
            );
        }
        if node.state == NodeState::Benign {
            continue;
        }
        for c in &node.conditions {
            let mut from: Vec<u32> = c.from.iter().map(|&s| ex.line(s)).collect();
            from.dedup();
            let target = match (c.child, c.duplicate_of) {
                (Some(ch), _) => format!(" -> [{}]", ex.nodes[ch].id),
                (None, Some(d)) => format!(" (explained by [{}])", ex.nodes[d].id),
                _ => String::new(),
            };
            let _ = writeln!(
                out,
                "{ind}  {} {} at {} was {} ({}, for line{} {}){target}",
                p.paint(Role::Mark, "critical:"),
                p.paint(Role::Heading, &format!("`{}`", text_of(ex, c.step))),
                pos(ex, c.step),
                outcome(ex.model.steps[c.step].outcome),
                kind_name(c.kind),
                if from.len() == 1 { "" } else { "s" },
                from.iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    out
}

/// The `faultline.cafl/1` JSON document.
pub fn json(ex: &Explainer, program_name: &str) -> Value {
    let nodes: Vec<Value> = (0..ex.nodes.len())
        .map(|n| {
            let node = &ex.nodes[n];
            let statements: Vec<Value> = ex
                .node_lines(n)
                .into_iter()
                .map(|(line, stmt)| {
                    let info = ex.prog.stmt(stmt);
                    json!({
                        "file": ex.prog.file_name(info.loc.file),
                        "line": line,
                        "column": info.loc.col,
                        "text": info.text,
                        "instances": node.cause.iter().filter(|&&s| ex.stmt(s) == stmt).count(),
                        "correct": ex.correct.contains(&line),
                    })
                })
                .collect();
            let conditions: Vec<Value> = node
                .conditions
                .iter()
                .map(|c| {
                    let mut from: Vec<u32> = c.from.iter().map(|&s| ex.line(s)).collect();
                    from.sort_unstable();
                    from.dedup();
                    json!({
                        "line": ex.line(c.step),
                        "text": text_of(ex, c.step),
                        "outcome": outcome(ex.model.steps[c.step].outcome),
                        "kind": kind_name(c.kind),
                        "for_lines": from,
                        "child": c.child.map(|ch| ex.nodes[ch].id.clone()),
                        "duplicate_of": c.duplicate_of.map(|d| ex.nodes[d].id.clone()),
                    })
                })
                .collect();
            let critical = node.parent.map(|par| {
                let c = ex.nodes[par]
                    .conditions
                    .iter()
                    .find(|c| c.child == Some(n))
                    .map(|c| kind_name(c.kind))
                    .unwrap_or("direct");
                json!({
                    "line": ex.line(node.failure),
                    "text": text_of(ex, node.failure),
                    "outcome": outcome(ex.model.steps[node.failure].outcome),
                    "kind": c,
                })
            });
            let children: Vec<String> = node
                .conditions
                .iter()
                .filter_map(|c| c.child.map(|ch| ex.nodes[ch].id.clone()))
                .collect();
            json!({
                "id": node.id,
                "level": node.level,
                "parent": node.parent.map(|p| ex.nodes[p].id.clone()),
                "explains": explains(ex, n),
                "critical_condition": critical,
                "statements": statements,
                "share": ex.node_share(n),
                "refuted": node.refuted,
                "state": state_name(node.state),
                "conditions": conditions,
                "children": children,
            })
        })
        .collect();
    let ranking: Vec<Value> = ex
        .ranking()
        .into_iter()
        .enumerate()
        .map(|(i, (stmt, level))| {
            let info = ex.prog.stmt(stmt);
            json!({
                "rank": i + 1,
                "line": info.loc.line,
                "text": info.text,
                "level": level,
                "statement": {"line": info.loc.line, "text": info.text},
            })
        })
        .collect();
    let root = ex.nodes.first().map(|r| r.failure);
    // The causes breadth first in the shape of `faultline.localize/1`'s
    // diagnoses, for tools reading both (faultline bench).
    let mut order: Vec<usize> = (0..ex.nodes.len()).collect();
    order.sort_by_key(|&n| (ex.nodes[n].level, n));
    let diagnoses: Vec<Value> = order
        .into_iter()
        .map(|n| {
            let st: Vec<Value> = ex
                .node_lines(n)
                .into_iter()
                .map(|(line, stmt)| json!({"line": line, "text": ex.prog.stmt(stmt).text}))
                .collect();
            json!({"node": ex.nodes[n].id, "level": ex.nodes[n].level, "statements": st})
        })
        .collect();
    json!({
        "schema": SCHEMA,
        "program": program_name,
        "test": ex.test,
        "tests": {"failing": [ex.test]},
        "failure": {
            "kind": match ex.failure_kind {
                FailureKind::Assertion => "assertion",
                FailureKind::Output => "output",
                FailureKind::Other => "other",
            },
            "message": ex.failure_text,
            "line": root.map(|s| ex.line(s)),
            "text": root.map(|s| text_of(ex, s)),
        },
        "options": {
            "slicing": ex.options.wp.slicing,
            "solver_pruning": ex.options.wp.pruning,
            "max_level": ex.options.max_level,
            "max_nodes": ex.options.max_nodes,
            "designated_correct": ex.options.designated_correct,
            "correct_lines": ex.correct.iter().collect::<Vec<_>>(),
            "benign": ex.benign.iter().collect::<Vec<_>>(),
        },
        "incomplete_kind": ex.incomplete.as_ref().map(|i| i.kind()),
        "stats": {
            "trace_instances": ex.stats.trace_instances,
            "tree_instances": ex.stats.tree_instances,
            "share": ex.share(),
            "nodes": ex.nodes.len(),
            "solver_checks": ex.stats.solver_checks,
            "solver_calls": ex.stats.solver_checks,
            "time_s": ex.stats.time.as_secs_f64(),
        },
        "nodes": nodes,
        "diagnoses": diagnoses,
        "ranking": ranking,
    })
}

/// A self-contained HTML page: the tree as nested `<details>` elements
/// (collapsible; every node open initially).
pub fn html(ex: &Explainer, program_name: &str) -> String {
    use faultline_report::html::escape;
    let mut body = String::new();
    fn node_html(ex: &Explainer, n: usize, out: &mut String) {
        let node = &ex.nodes[n];
        let _ = write!(
            out,
            "<details open class=\"node {}\" id=\"node-{}\"><summary><span class=\"level\">level {}</span> <span class=\"id\">[{}]</span> {}</summary>",
            state_name(node.state),
            escape(&node.id),
            node.level,
            escape(&node.id),
            escape(&explains(ex, n))
        );
        let _ = write!(
            out,
            "<p class=\"share\">{} instances, {:.1}% of the trace{}</p><table>",
            node.cause.len(),
            100.0 * ex.node_share(n),
            if node.state == NodeState::Benign {
                " &middot; marked benign"
            } else {
                ""
            }
        );
        for (line, stmt) in ex.node_lines(n) {
            let _ = write!(
                out,
                "<tr><td class=\"ln\">{line}</td><td><code>{}</code></td></tr>",
                escape(&ex.prog.stmt(stmt).text)
            );
        }
        out.push_str("</table>");
        if !node.conditions.is_empty() && node.state != NodeState::Benign {
            out.push_str("<ul class=\"conditions\">");
            for c in &node.conditions {
                let target = match (c.child, c.duplicate_of) {
                    (Some(ch), _) => format!(
                        " &rarr; <a href=\"#node-{0}\">[{0}]</a>",
                        escape(&ex.nodes[ch].id)
                    ),
                    (None, Some(d)) => format!(
                        " (explained by <a href=\"#node-{0}\">[{0}]</a>)",
                        escape(&ex.nodes[d].id)
                    ),
                    _ => String::new(),
                };
                let _ = write!(
                    out,
                    "<li><b>critical: <code>{}</code></b> at line {} was {} ({}){target}</li>",
                    escape(text_of(ex, c.step)),
                    ex.line(c.step),
                    outcome(ex.model.steps[c.step].outcome),
                    kind_name(c.kind)
                );
            }
            out.push_str("</ul>");
        }
        for c in &node.conditions {
            if let Some(ch) = c.child {
                node_html(ex, ch, out);
            }
        }
        out.push_str("</details>");
    }
    if !ex.nodes.is_empty() {
        node_html(ex, 0, &mut body);
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>faultline cafl: {title}</title><style>\
body{{font-family:system-ui,sans-serif;margin:2em;max-width:70em}}\
details.node{{margin-left:1.5em;border-left:2px solid #ccd;padding-left:.8em;margin-top:.6em}}\
details.benign>summary{{color:#888;text-decoration:line-through}}\
summary{{cursor:pointer;font-weight:600}} .level{{color:#246}} .id{{color:#888}}\
td.ln{{color:#888;text-align:right;padding-right:1em}} .share{{color:#666;margin:.2em 0}}\
ul.conditions{{margin:.3em 0}}</style></head><body>\
<h1>Why test <code>{test}</code> of <code>{title}</code> fails</h1><p>{failure}</p>\
<p class=\"share\">{nodes} causes; {inside} of {total} trace instances in the tree ({share:.1}%)</p>{body}</body></html>\n",
        title = escape(program_name),
        test = escape(&ex.test),
        failure = escape(&ex.failure_text),
        nodes = ex.nodes.len(),
        inside = ex.stats.tree_instances,
        total = ex.stats.trace_instances,
        share = 100.0 * ex.share(),
    )
}
