//! `gisel llc` on inputs whose llc 22 output is recorded in
//! `tests/expected/`: the output matches up to register numbering, and
//! `--verify-semantics` finds every function still means what it meant.

mod common;

use common::normalised;
use std::path::Path;
use std::process::Command;

/// Legalizes `input` (under `tests/mir/Inputs/`) for `triple` and compares
/// the result with llc 22's recorded output, then checks its semantics.
fn check_against_llc(input: &str, triple: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let input_path = root.join("../tests/mir/Inputs").join(input);
    let recorded = root.join("tests/expected").join(input.replace(".mir", ".llc22.mir"));
    let run = |extra: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_gisel"))
            .args(["llc", &format!("-mtriple={triple}"), "-run-pass=legalizer"])
            .arg(&input_path)
            .args(["-o", "-"])
            .args(extra)
            .output()
            .expect("runs gisel");
        assert!(output.status.success(), "gisel failed: {}", String::from_utf8_lossy(&output.stderr));
        output
    };
    let ours = String::from_utf8(run(&[]).stdout).expect("UTF-8 output");
    let llc = std::fs::read_to_string(&recorded).expect("reads the recorded llc output");
    // Both name the module after the path they were given.
    let ours = ours.replace(&input_path.display().to_string(), &format!("tests/mir/Inputs/{input}"));
    pretty_assertions::assert_eq!(normalised(&ours), normalised(&llc));

    let semantics = String::from_utf8(run(&["--verify-semantics"]).stderr).expect("UTF-8 messages");
    let functions = llc.lines().filter(|l| l.starts_with("name:")).count();
    let agreeing = semantics.lines().filter(|l| l.starts_with("semantics of") && l.contains(" inputs agree")).count();
    assert_eq!(agreeing, functions, "{semantics}");
}

/// Shifts of s256 on riscv32 split into eight parts at once, by constant
/// amounts of every kind (within a word, whole words, beyond the value)
/// and by a register.
#[test]
fn multiway_shifts_on_riscv32_are_what_llc_22_prints() {
    check_against_llc("multiway-shift-rv32.mir", "riscv32");
}

/// A truncate of an extension reached through a copy folds to the
/// extension's source, where nothing else could legalize the s128 merge.
#[test]
fn truncate_of_extension_through_a_copy_folds_as_llc_22_does() {
    check_against_llc("trunc-of-ext-rv64.mir", "riscv64");
}
