//! What the CLI tests share.

use gisel_core::mir::renumber_vregs;
use std::path::Path;
use std::process::{Command, Output};

/// The output with comment lines and the `registers:` list dropped and the
/// virtual registers renumbered in order of appearance, as the shared
/// conformance harness compares: gisel's builder can number its registers
/// differently from llc's. Each function is renumbered on its own.
pub fn normalised(mir: &str) -> String {
    let kept: Vec<&str> =
        mir.lines().filter(|l| !l.starts_with('#') && !l.trim_start().starts_with("- { id: ")).collect();
    kept.join("\n").split("\n---").map(renumber_vregs).collect::<Vec<_>>().join("\n---")
}

/// Runs `gisel llc TARGET... -run-pass=legalizer INPUT -o - EXTRA...` and
/// checks that it succeeded.
pub fn gisel_llc(target: &[&str], input: &Path, extra: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_gisel"))
        .arg("llc")
        .args(target)
        .arg("-run-pass=legalizer")
        .arg(input)
        .args(["-o", "-"])
        .args(extra)
        .output()
        .expect("runs gisel");
    assert!(output.status.success(), "gisel failed: {}", String::from_utf8_lossy(&output.stderr));
    output
}
