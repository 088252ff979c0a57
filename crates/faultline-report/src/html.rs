//! The HTML report of `faultline localize`: one self-contained page (inline
//! CSS and JavaScript, nothing fetched) with
//!
//! - the source of the files with candidate statements, lines shaded by their
//!   best rank in the ranking (`rank-1`, `rank-2` for ranks 2–3, `rank-3` for
//!   4–10, `rank-4` beyond) and candidate statements wrapped in
//!   `<span class="stmt" data-stmt="ID">`;
//! - the list of diagnoses: clicking one (or opening `#diagnosis-N`) marks its
//!   statements and lines (class `selected`) and shows its angelic values in
//!   the details panel; the first diagnosis is selected on load;
//! - the ranking, each test's verdict with its inputs (arguments, stdin) and
//!   expected and actual output, the method, settings, notes and timings.
//!
//! Everything is rendered on the server side except the details panel, which
//! the script builds from the JSON embedded in `<script id="faultline-data">`.
//! When the script has run, `<html>` carries `data-selected="N"`.

use crate::text::{angelic_phrase, explained_tests, list_names, stmt_label, work_done};
use crate::Subject;
use faultline_ir::{FileId, Program, StmtId};
use faultline_result::describe_ctx;
use faultline_result::Localization;
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// Outputs and inputs longer than this are cut (with a note of how much).
pub const MAX_SHOWN_BYTES: usize = 8192;

/// Escapes text for HTML content and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Bytes shown as text (lossy UTF-8), cut at [`MAX_SHOWN_BYTES`], escaped.
fn escape_bytes(b: &[u8]) -> String {
    let cut = b.len().min(MAX_SHOWN_BYTES);
    let mut s = escape(&String::from_utf8_lossy(&b[..cut]));
    if b.len() > cut {
        let _ = write!(s, "\n… ({} more bytes)", b.len() - cut);
    }
    s
}

/// The CSS class of a line by its best (1-based) rank.
pub fn rank_class(rank: usize) -> &'static str {
    match rank {
        1 => "rank-1",
        2..=3 => "rank-2",
        4..=10 => "rank-3",
        _ => "rank-4",
    }
}

/// Candidate statements: those in some diagnosis, with their 1-based rank.
fn candidate_ranks(loc: &Localization) -> BTreeMap<StmtId, usize> {
    let mut ranks: BTreeMap<StmtId, usize> = loc
        .ranking
        .iter()
        .enumerate()
        .map(|(i, r)| (r.stmt, i + 1))
        .collect();
    let worst = loc.ranking.len() + 1;
    for d in &loc.diagnoses {
        for st in &d.stmts {
            ranks.entry(*st).or_insert(worst);
        }
    }
    ranks
}

/// The part of statement `st` on line `n`, as byte offsets into the line.
fn segment(prog: &Program, st: StmtId, n: u32, line: &str) -> Option<(usize, usize)> {
    let l = prog.stmt(st).loc;
    if n < l.line || n > l.end_line {
        return None;
    }
    let indent = line.len() - line.trim_start().len();
    let start = if n == l.line {
        (l.col.max(1) - 1) as usize
    } else {
        indent
    };
    let end = if n == l.end_line {
        (l.end_col.max(1) - 1) as usize
    } else {
        line.trim_end().len()
    };
    let start = floor_boundary(line, start.min(line.len()));
    let end = floor_boundary(line, end.min(line.len()));
    (end > start).then_some((start, end))
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn source_file(out: &mut String, prog: &Program, f: FileId, ranks: &BTreeMap<StmtId, usize>) {
    let file = &prog.files[f.index()];
    let stmts: Vec<(StmtId, usize)> = ranks
        .iter()
        .filter(|(st, _)| prog.stmt(**st).loc.file == f)
        .map(|(st, r)| (*st, *r))
        .collect();
    let _ = writeln!(
        out,
        "<div class=\"file\"><h3><code>{}</code></h3><pre class=\"code\">",
        escape(&file.name)
    );
    for (i, line) in file.text.lines().enumerate() {
        let n = i as u32 + 1;
        let mut segs: Vec<(usize, usize, StmtId)> = stmts
            .iter()
            .filter_map(|(st, _)| segment(prog, *st, n, line).map(|(a, b)| (a, b, *st)))
            .collect();
        segs.sort();
        let best = stmts
            .iter()
            .filter(|(st, _)| {
                let l = prog.stmt(*st).loc;
                l.line <= n && n <= l.end_line
            })
            .map(|(_, r)| *r)
            .min();
        let class = match best {
            Some(r) => format!("line {}", rank_class(r)),
            None => "line".to_string(),
        };
        let _ = write!(
            out,
            "<span class=\"{class}\" id=\"f{}-L{n}\"><span class=\"num\">{n}</span><span class=\"rk\">{}</span><span class=\"src\">",
            f.index(),
            best.filter(|r| *r <= ranks.len()).map(|r| r.to_string()).unwrap_or_default()
        );
        let mut at = 0usize;
        for (a, b, st) in segs {
            if a < at {
                continue;
            }
            out.push_str(&escape(&line[at..a]));
            let _ = write!(
                out,
                "<span class=\"stmt\" data-stmt=\"{}\">{}</span>",
                st.0,
                escape(&line[a..b])
            );
            at = b;
        }
        out.push_str(&escape(&line[at..]));
        // No newline: each line is a block already.
        out.push_str("</span></span>");
    }
    out.push_str("\n</pre></div>\n");
}

/// The data the script reads: per diagnosis, its statements and angelic values.
fn data(s: &Subject) -> serde_json::Value {
    let prog = s.prog;
    let loc = s.loc;
    let diagnoses: Vec<serde_json::Value> = loc
        .diagnoses
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let tests = explained_tests(loc, d);
            let names: Vec<&str> = tests.iter().map(|&t| loc.tests[t].name.as_str()).collect();
            json!({
                "number": i + 1,
                "verified": d.verified,
                "tests": names,
                "undecided": d.undecided.iter().map(|&t| loc.tests[t].name.as_str()).collect::<Vec<_>>(),
                "statements": d.stmts.iter().map(|st| {
                    let info = prog.stmt(*st);
                    json!({
                        "id": st.0,
                        "file": prog.file_name(info.loc.file),
                        "anchor": format!("f{}-L{}", info.loc.file.index(), info.loc.line),
                        "line": info.loc.line,
                        "end_line": info.loc.end_line,
                        "text": info.text,
                        "label": stmt_label(loc, d, *st),
                    })
                }).collect::<Vec<_>>(),
                "angelic": d.angelic.iter().map(|a| json!({
                    "test": loc.tests[a.test].name,
                    "line": prog.stmt(a.stmt).loc.line,
                    "context": describe_ctx(prog, &a.ctx),
                    "value": angelic_phrase(a),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "diagnoses": diagnoses })
}

const STYLE: &str = r#"
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --bg:#ffffff; --panel:#f6f8fa;
  --r1:#ffc1c1; --r2:#ffdcb0; --r3:#fff1b3; --r4:#e8eefc; --sel:#0969da; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif; color:var(--fg); background:var(--bg); }
header { padding:12px 20px; border-bottom:1px solid var(--line); background:var(--panel); }
header h1 { margin:0 0 4px; font-size:18px; }
.summary { margin:0; color:var(--muted); }
.fail { color:#cf222e; font-weight:600; }
.pass { color:#1a7f37; font-weight:600; }
main { display:grid; grid-template-columns:minmax(280px,380px) 1fr; gap:0; }
nav { border-right:1px solid var(--line); padding:12px 16px; background:var(--bg);
  position:sticky; top:0; align-self:start; max-height:100vh; overflow-y:auto; }
nav ol { list-style:none; margin:0; padding:0; }
nav li { margin:0 0 6px; }
button.diag { width:100%; text-align:left; font:inherit; padding:6px 8px; border:1px solid var(--line);
  border-radius:6px; background:var(--bg); cursor:pointer; }
button.diag:hover { border-color:var(--sel); }
button.diag[aria-pressed="true"] { border-color:var(--sel); box-shadow:0 0 0 2px rgba(9,105,218,.25); background:#ddf4ff; }
.badge { display:inline-block; min-width:1.6em; padding:0 5px; border-radius:9px; text-align:center;
  font-weight:600; margin-right:6px; }
.badge.rank-1 { background:var(--r1); } .badge.rank-2 { background:var(--r2); }
.badge.rank-3 { background:var(--r3); } .badge.rank-4 { background:var(--r4); }
.diag .where { font-weight:600; }
.diag code { display:block; white-space:pre-wrap; word-break:break-word; margin-top:2px; }
.diag .tests { display:block; color:var(--muted); font-size:12px; }
#details { margin-bottom:12px; padding:10px; border:1px solid var(--line); border-radius:6px; background:var(--panel); }
#details h3 { margin:0 0 6px; font-size:15px; }
#details ul { margin:4px 0 8px; padding-left:18px; }
table { border-collapse:collapse; width:100%; }
th, td { text-align:left; vertical-align:top; padding:3px 6px; border-bottom:1px solid var(--line); }
th { font-weight:600; background:var(--panel); }
section.content { padding:12px 20px; min-width:0; }
h2 { font-size:16px; margin:14px 0 8px; }
.file h3 { font-size:14px; margin:6px 0; }
pre.code { margin:0; padding:6px 0; border:1px solid var(--line); border-radius:6px; overflow-x:auto;
  font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace; tab-size:4; background:var(--bg); }
.line { display:block; padding-right:12px; }
.line .num { display:inline-block; width:4em; padding-right:8px; text-align:right; color:var(--muted); user-select:none; }
.line .rk { display:inline-block; width:2.2em; text-align:center; font-size:11px; font-weight:600; user-select:none; }
.line.rank-1 { background:var(--r1); } .line.rank-2 { background:var(--r2); }
.line.rank-3 { background:var(--r3); } .line.rank-4 { background:var(--r4); }
.line.selected { box-shadow:inset 4px 0 0 var(--sel); }
.stmt.selected { outline:2px solid var(--sel); border-radius:2px; background:rgba(9,105,218,.12); }
details pre { margin:4px 0; padding:6px; background:var(--panel); border:1px solid var(--line); border-radius:4px;
  white-space:pre-wrap; word-break:break-all; font:12px/1.4 ui-monospace,Menlo,Consolas,monospace; }
details summary { cursor:pointer; color:var(--sel); }
.io { display:grid; grid-template-columns:repeat(auto-fit,minmax(220px,1fr)); gap:8px; }
.io h4 { margin:4px 0 0; font-size:12px; color:var(--muted); }
dl.kv { display:grid; grid-template-columns:max-content 1fr; gap:2px 12px; margin:0; }
dl.kv dt { color:var(--muted); } dl.kv dd { margin:0; }
footer { padding:10px 20px; color:var(--muted); border-top:1px solid var(--line); font-size:12px; }
"#;

const SCRIPT: &str = r##"
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("faultline-data").textContent);
  var panel = document.getElementById("details");
  function el(tag, text, cls) {
    var e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  }
  function select(i, scroll) {
    var d = data.diagnoses[i];
    if (!d) return;
    document.querySelectorAll(".selected").forEach(function (e) { e.classList.remove("selected"); });
    document.querySelectorAll("button.diag").forEach(function (b) {
      b.setAttribute("aria-pressed", String(Number(b.dataset.diag) === i));
    });
    d.statements.forEach(function (s) {
      document.querySelectorAll('.stmt[data-stmt="' + s.id + '"]').forEach(function (e) { e.classList.add("selected"); });
      var base = s.anchor.replace(/L\d+$/, "L");
      for (var n = s.line; n <= s.end_line; n++) {
        var line = document.getElementById(base + n);
        if (line) line.classList.add("selected");
      }
    });
    panel.textContent = "";
    panel.appendChild(el("h3", "Diagnosis " + d.number + " of " + data.diagnoses.length));
    var verdict = d.verified === true ? "; verified by re-execution"
      : d.verified === false ? "; NOT confirmed by re-execution" : "";
    if (d.undecided.length > 0)
      verdict += "; unconfirmed: not decided on " + d.undecided.join(", ") + " within the limits";
    panel.appendChild(el("p", "Explains " + d.tests.join(", ") + verdict));
    var ul = el("ul");
    d.statements.forEach(function (s) {
      var li = el("li");
      var a = el("a", s.file + ":" + s.line);
      a.href = "#" + s.anchor;
      li.appendChild(a);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(el("code", s.text));
      if (s.label) li.appendChild(el("div", s.label, "label"));
      ul.appendChild(li);
    });
    panel.appendChild(ul);
    if (d.angelic.length) {
      var t = el("table", null, "angelic");
      var head = el("tr");
      ["test", "line", "where", "angelic value"].forEach(function (h) { head.appendChild(el("th", h)); });
      t.appendChild(head);
      d.angelic.forEach(function (a) {
        var tr = el("tr");
        tr.appendChild(el("td", a.test));
        tr.appendChild(el("td", String(a.line)));
        tr.appendChild(el("td", a.context));
        tr.appendChild(el("td", a.value));
        t.appendChild(tr);
      });
      panel.appendChild(t);
    }
    document.documentElement.setAttribute("data-selected", String(d.number));
    if (scroll) {
      var first = document.getElementById(d.statements[0].anchor);
      if (first) first.scrollIntoView({ block: "center" });
      if (history.replaceState) history.replaceState(null, "", "#diagnosis-" + d.number);
    }
  }
  document.querySelectorAll("button.diag").forEach(function (b) {
    b.addEventListener("click", function () { select(Number(b.dataset.diag), true); });
  });
  var m = /^#diagnosis-(\d+)$/.exec(location.hash);
  if (data.diagnoses.length) select(m ? Number(m[1]) - 1 : 0, !!m);
})();
"##;

/// The page.
pub fn render(s: &Subject) -> String {
    let prog = s.prog;
    let loc = s.loc;
    let ranks = candidate_ranks(loc);
    let mut out = String::new();
    let failing: Vec<&str> = loc
        .failing
        .iter()
        .map(|&t| loc.tests[t].name.as_str())
        .collect();
    let nd = loc.diagnoses.len();
    let _ = writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"faultline {}\">\n\
         <title>faultline: {} ({} diagnos{})</title>\n<style>{STYLE}</style>\n</head>\n<body>",
        env!("CARGO_PKG_VERSION"),
        escape(s.program_name),
        nd,
        if nd == 1 { "is" } else { "es" }
    );
    // Header.
    let _ = writeln!(
        out,
        "<header><h1>faultline: <code>{}</code></h1>\n<p class=\"summary\"><span class=\"{}\">{} of {} {} fail</span> · method <b>{}</b> · {} diagnos{}{}</p></header>",
        escape(s.program_name),
        if failing.is_empty() { "pass" } else { "fail" },
        failing.len(),
        loc.tests.len(),
        if loc.tests.len() == 1 { "test" } else { "tests" },
        escape(&loc.method),
        nd,
        if nd == 1 { "is" } else { "es" },
        match &loc.incomplete {
            None => String::new(),
            Some(i) => format!(" · <span class=\"fail\">incomplete: {}</span>", escape(&i.describe())),
        }
    );
    out.push_str("<main>\n<nav aria-label=\"diagnoses\"><h2>Diagnoses</h2>\n");
    if loc.diagnoses.is_empty() {
        out.push_str(if failing.is_empty() {
            "<p>All tests pass: nothing to localize.</p>\n"
        } else {
            "<p>No diagnosis was found.</p>\n"
        });
    } else {
        out.push_str("<section id=\"details\" aria-live=\"polite\"><p>Select a diagnosis.</p></section>\n<ol id=\"diagnosis-list\">\n");
    }
    for (i, d) in loc.diagnoses.iter().enumerate() {
        let tests = explained_tests(loc, d);
        let names: Vec<&str> = tests.iter().map(|&t| loc.tests[t].name.as_str()).collect();
        let where_: Vec<String> = d
            .stmts
            .iter()
            .map(|st| format!("line {}", prog.stmt(*st).loc.line))
            .collect();
        let _ = write!(
            out,
            "<li><button type=\"button\" class=\"diag\" id=\"diagnosis-{}\" data-diag=\"{i}\" aria-pressed=\"false\"><span class=\"badge {}\">{}</span><span class=\"where\">{}</span>",
            i + 1,
            rank_class(i + 1),
            i + 1,
            escape(&where_.join(", "))
        );
        for st in &d.stmts {
            let label = stmt_label(loc, d, *st)
                .map(|l| format!(" — {l}"))
                .unwrap_or_default();
            let _ = write!(
                out,
                "<code>{}{}</code>",
                escape(&prog.stmt(*st).text),
                escape(&label)
            );
        }
        let _ = writeln!(
            out,
            "<span class=\"tests\">explains {}{}{}</span></button></li>",
            escape(&list_names(&names, 5)),
            match d.verified {
                Some(true) => "; verified",
                Some(false) => "; not confirmed",
                None => "",
            },
            if d.undecided.is_empty() {
                ""
            } else {
                "; unconfirmed"
            }
        );
    }
    if !loc.diagnoses.is_empty() {
        out.push_str("</ol>\n");
    }
    out.push_str("</nav>\n<section class=\"content\">\n<h2>Source</h2>\n");
    let mut files: BTreeSet<FileId> = ranks.keys().map(|st| prog.stmt(*st).loc.file).collect();
    if let Some(f) = prog.files.iter().position(|f| f.name == s.program_name) {
        files.insert(FileId(f as u32));
    }
    if files.is_empty() && !prog.files.is_empty() {
        files.insert(FileId(0));
    }
    for f in files {
        source_file(&mut out, prog, f, &ranks);
    }
    ranking(&mut out, s);
    tests_section(&mut out, s);
    run_section(&mut out, s);
    out.push_str("</section>\n</main>\n");
    let _ = writeln!(
        out,
        "<footer>Generated by faultline {}. Lines are shaded by rank: <span class=\"badge rank-1\">1</span><span class=\"badge rank-2\">2–3</span><span class=\"badge rank-3\">4–10</span><span class=\"badge rank-4\">11+</span></footer>",
        env!("CARGO_PKG_VERSION")
    );
    // `<` is escaped so that no `</script>` can end the data early.
    let data = serde_json::to_string(&data(s))
        .expect("the data serializes")
        .replace('<', "\\u003c");
    let _ = writeln!(
        out,
        "<script type=\"application/json\" id=\"faultline-data\">{data}</script>\n<script>{SCRIPT}</script>\n</body>\n</html>"
    );
    out
}

fn ranking(out: &mut String, s: &Subject) {
    let prog = s.prog;
    if s.loc.ranking.is_empty() {
        return;
    }
    out.push_str("<h2>Suspicious statements</h2>\n<table id=\"ranking\"><tr><th>rank</th><th>where</th><th>statement</th><th>score</th></tr>\n");
    for (i, r) in s.loc.ranking.iter().enumerate() {
        let info = prog.stmt(r.stmt);
        let _ = writeln!(
            out,
            "<tr><td><span class=\"badge {}\">{}</span></td><td><a href=\"#f{}-L{}\">{}:{}</a></td><td><code>{}</code></td><td>{:.3}</td></tr>",
            rank_class(i + 1),
            i + 1,
            info.loc.file.index(),
            info.loc.line,
            escape(prog.file_name(info.loc.file)),
            info.loc.line,
            escape(&info.text),
            r.score
        );
    }
    out.push_str("</table>\n");
}

fn tests_section(out: &mut String, s: &Subject) {
    let loc = s.loc;
    out.push_str("<h2>Tests</h2>\n<table id=\"tests\"><tr><th>test</th><th>verdict</th><th>details</th></tr>\n");
    for (i, v) in loc.tests.iter().enumerate() {
        let skipped = loc.skipped.iter().find(|(t, _)| *t == i);
        let _ = write!(
            out,
            "<tr id=\"test-{}\"><td><code>{}</code></td><td class=\"{}\">{}</td><td>",
            escape(&v.name),
            escape(&v.name),
            if v.passed { "pass" } else { "fail" },
            if v.passed { "pass" } else { "FAIL" }
        );
        if let Some(r) = &v.reason {
            let _ = write!(out, "{}", escape(r));
        }
        if let Some((_, why)) = skipped {
            let _ = write!(out, "<br><i>not used: {}</i>", escape(why));
        }
        if let (Some(t), Some(run)) = (s.tests.get(i), s.runs.get(i)) {
            let _ = write!(
                out,
                "<details{}><summary>input and output</summary><div class=\"io\">",
                if v.passed { "" } else { " open" }
            );
            if !t.args.is_empty() {
                let _ = write!(
                    out,
                    "<div><h4>arguments</h4><pre>{}</pre></div>",
                    escape(&t.args.join(" "))
                );
            }
            let _ = write!(
                out,
                "<div><h4>stdin</h4><pre>{}</pre></div><div><h4>expected output</h4><pre>{}</pre></div><div><h4>actual output (exit status {})</h4><pre>{}</pre></div>",
                escape_bytes(&t.stdin),
                escape_bytes(&t.expected_stdout),
                run.execution.exit_status(),
                escape_bytes(&run.execution.stdout)
            );
            out.push_str("</div></details>");
        }
        out.push_str("</td></tr>\n");
    }
    out.push_str("</table>\n");
}

fn run_section(out: &mut String, s: &Subject) {
    let loc = s.loc;
    let st = &loc.stats;
    let set = s.settings;
    out.push_str("<h2>Method and timings</h2>\n<dl class=\"kv\" id=\"run\">\n");
    let mut kv = |k: &str, v: String| {
        let _ = writeln!(out, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(&v));
    };
    kv("method", loc.method.clone());
    kv(
        "settings",
        format!(
            "encoding {}, combine {}, max size {}, max diagnoses {}, unwind {}, integers {}, timeout {}",
            set.encoding,
            set.combine,
            set.max_size,
            set.max_diagnoses,
            set.unwind.map_or("auto".to_string(), |u| u.to_string()),
            set.int_semantics,
            set.timeout_s
                .map_or("none".to_string(), |t| format!("{t} s"))
        ),
    );
    kv(
        "search",
        match &loc.incomplete {
            None => "complete".to_string(),
            Some(i) => format!("incomplete: {}", i.describe()),
        },
    );
    kv("work", work_done(st));
    kv(
        "time",
        format!(
            "{:.2} s in all: running tests {:.2} s, encoding {:.2} s, solving {:.2} s",
            st.total_time.as_secs_f64(),
            st.run_time.as_secs_f64(),
            st.encode_time.as_secs_f64(),
            st.solve_time.as_secs_f64()
        ),
    );
    for n in &loc.notes {
        kv("note", n.clone());
    }
    out.push_str("</dl>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(
            escape("a<b && c>\"d\" 'e'"),
            "a&lt;b &amp;&amp; c&gt;&quot;d&quot; &#39;e&#39;"
        );
        assert_eq!(escape_bytes(b"x\xffy"), "x\u{fffd}y");
        let long = vec![b'a'; MAX_SHOWN_BYTES + 5];
        assert!(escape_bytes(&long).ends_with("\n… (5 more bytes)"));
    }

    #[test]
    fn rank_classes() {
        assert_eq!(rank_class(1), "rank-1");
        assert_eq!(rank_class(3), "rank-2");
        assert_eq!(rank_class(10), "rank-3");
        assert_eq!(rank_class(11), "rank-4");
    }
}
