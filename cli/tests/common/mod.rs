//! What the CLI tests share.

use gisel_core::mir::renumber_vregs;

/// The output with comment lines and the `registers:` list dropped and the
/// virtual registers renumbered in order of appearance, as the shared
/// conformance harness compares: gisel's builder can number its registers
/// differently from llc's. Each function is renumbered on its own.
pub fn normalised(mir: &str) -> String {
    let kept: Vec<&str> =
        mir.lines().filter(|l| !l.starts_with('#') && !l.trim_start().starts_with("- { id: ")).collect();
    kept.join("\n").split("\n---").map(renumber_vregs).collect::<Vec<_>>().join("\n---")
}
