//! `faultline --version` says faultline's version and the Z3 it links.

mod common;

use common::faultline;
use std::process::Command;

#[test]
fn version_names_faultline_and_the_linked_z3() {
    let o = faultline()
        .arg("--version")
        .output()
        .expect("faultline runs");
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8(o.stdout).unwrap();
    let prefix = format!("faultline {} (Z3 ", env!("CARGO_PKG_VERSION"));
    assert!(out.starts_with(&prefix) && out.ends_with(")\n"), "{out:?}");
    let z3 = &out[prefix.len()..out.len() - 2];
    // The Z3 the build linked: pkg-config's version of the system library (4.8.12 here; Z3 adds a fourth
    // component, the revision).
    let pc = Command::new("pkg-config")
        .args(["--modversion", "z3"])
        .output()
        .expect("pkg-config runs (scripts/setup.sh installs it)");
    let linked = String::from_utf8(pc.stdout).unwrap();
    let linked = linked.trim();
    assert!(
        z3 == linked || z3.starts_with(&format!("{linked}.")),
        "--version says Z3 {z3}, pkg-config says {linked}"
    );
    // -V is the short form.
    let short = faultline().arg("-V").output().expect("faultline runs");
    assert_eq!(String::from_utf8(short.stdout).unwrap(), out);
}
