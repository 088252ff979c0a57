//! The HTML report: self-contained, and showing the diagnoses once a real
//! browser (headless Chromium, Debian package `chromium`) has run its script.
//! Screenshots go to the target directory (`CARGO_TARGET_TMPDIR`).

mod common;

use common::{faultline, root};
use std::path::{Path, PathBuf};
use std::process::Command;

fn html_report(prog: &str, tests: &str, out: &Path) {
    let o = faultline()
        .current_dir(root())
        // Every size: the triangle's report then has diagnoses of two
        // statements to select.
        .args(["localize", prog, "--tests", tests, "--all-sizes"])
        .args(["--format", "html", "-o"])
        .arg(out)
        .output()
        .expect("faultline runs");
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());
}

fn out_dir() -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-html");
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn chromium() -> &'static str {
    for c in ["chromium", "chromium-browser"] {
        if Command::new(c).arg("--version").output().is_ok() {
            return c;
        }
    }
    panic!(
        "headless Chromium is needed (Debian: apt-get install -y chromium; .ci/run installs it)"
    );
}

/// Runs headless Chromium on `url` with `extra` arguments; returns stdout.
fn browse(url: &str, extra: &[&str], name: &str) -> String {
    let profile = common::tempdir(&format!("chromium-{name}"));
    let o = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs");
    let _ = std::fs::remove_dir_all(&profile);
    assert!(
        o.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn file_url(p: &Path) -> String {
    format!("file://{}", p.canonicalize().unwrap().display())
}

#[test]
fn page_is_self_contained() {
    let file = out_dir().join("maxval.html");
    html_report("examples/maxval/maxval.c", "examples/maxval/tests", &file);
    let html = std::fs::read_to_string(&file).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    for external in ["src=", "href=\"http", "@import", "url("] {
        assert!(!html.contains(external), "references {external}");
    }
    // Statement text is escaped; the embedded data cannot close its script.
    assert!(html.contains("<span class=\"stmt\" data-stmt=\""));
    assert!(html.contains("x &lt; max"));
    assert_eq!(html.matches("</script>").count(), 2);
    // Per-test inputs and outputs (from the runs faultline made).
    assert!(html.contains("<tr id=\"test-falling\">"));
    assert!(html.contains("<h4>stdin</h4><pre>3\n9 4 1\n</pre>"));
    assert!(html.contains("<h4>expected output</h4><pre>max 9\n</pre>"));
    assert!(html.contains("<h4>actual output (exit status 0)</h4><pre>max 1\n</pre>"));
}

#[test]
fn browser_shows_the_selected_diagnosis() {
    chromium();
    let file = out_dir().join("triangle.html");
    html_report(
        "examples/triangle/triangle.c",
        "examples/triangle/tests",
        &file,
    );
    let url = file_url(&file);
    let dom = browse(&url, &["--dump-dom"], "dom");
    // The script ran: diagnosis 1 is selected and its details are shown.
    assert!(
        dom.contains("<html lang=\"en\" data-selected=\"1\">"),
        "{dom}"
    );
    assert!(dom.contains("<h3>Diagnosis 1 of 8</h3>"));
    assert!(dom.contains("<p>Explains t4, t8</p>"));
    assert!(dom.contains(
        "<button type=\"button\" class=\"diag\" id=\"diagnosis-1\" data-diag=\"0\" aria-pressed=\"true\">"
    ));
    assert_eq!(dom.matches("class=\"stmt selected\"").count(), 1);
    assert!(
        dom.contains("class=\"stmt selected\" data-stmt=\"")
            && dom.contains(">iso = a == b || a == b || a == c;</span>")
    );
    assert!(dom.contains("<span class=\"line rank-1 selected\" id=\"f0-L14\">"));
    assert!(dom.contains("<td>t8</td><td>14</td>"));
    // The details table lists every angelic value of the diagnosis.
    let rows = dom.split("<table class=\"angelic\">").nth(1).unwrap();
    let rows = &rows[..rows.find("</table>").unwrap()];
    assert_eq!(rows.matches("<tr>").count(), 4, "header and three values");

    // Opening #diagnosis-6 selects the two statements of diagnosis 6.
    let dom = browse(&format!("{url}#diagnosis-6"), &["--dump-dom"], "dom6");
    assert!(dom.contains("data-selected=\"6\""));
    assert_eq!(dom.matches("class=\"stmt selected\"").count(), 2);
    assert!(
        dom.contains("id=\"f0-L7\"")
            && dom.contains("<span class=\"line rank-3 selected\" id=\"f0-L7\">")
    );
    assert!(dom.contains("<span class=\"line rank-3 selected\" id=\"f0-L8\">"));

    let png = out_dir().join("triangle.png");
    let _ = std::fs::remove_file(&png);
    browse(
        &url,
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1400,1000",
        ],
        "shot",
    );
    let bytes = std::fs::read(&png).expect("a screenshot");
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    assert!(bytes.len() > 10_000, "the page was drawn");
}
