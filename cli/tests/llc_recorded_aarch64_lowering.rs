//! `gisel llc` on AArch64 lowerings whose llc 22 output is recorded in
//! `tests/expected/`: vector bit reversal and odd-width byte swaps,
//! half-to-double vector extensions, three-way compares and `G_FMODF` of
//! halves. The output matches up to register numbering and, where the
//! interpreter can run it, `--verify-semantics` agrees.

mod common;

use common::{gisel_llc, normalised};
use std::path::Path;

/// Legalizes `input` (under `tests/mir/Inputs/`) for AArch64 and compares
/// the result with llc 22's output recorded as `tests/expected/<recorded>`;
/// returns the recorded output.
fn check_output(input: &str, recorded: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let input_path = root.join("../tests/mir/Inputs").join(input);
    let output = gisel_llc(&["-mtriple=aarch64"], &input_path, &[]);
    let ours = String::from_utf8(output.stdout).expect("UTF-8 output");
    // Both name the module after the path they were given.
    let ours = ours.replace(&input_path.display().to_string(), &format!("tests/mir/Inputs/{input}"));
    let llc =
        std::fs::read_to_string(root.join("tests/expected").join(recorded)).expect("reads the recorded llc output");
    pretty_assertions::assert_eq!(normalised(&ours), normalised(&llc));
    llc
}

/// Vector `G_BITREVERSE` of 16/32/64-bit elements goes through the legal
/// byte-vector `G_BITREVERSE`; the `<2 x s48>` byte swap and bit reversal
/// shift back down by a splatted amount; `<N x s16>` to `<N x s64>`
/// extensions go through `<4 x s32>`; scalar three-way compares use
/// selects, vector ones a subtraction. Every function keeps its meaning.
#[test]
fn vector_bit_reversal_extensions_and_compares_are_what_llc_22_prints() {
    let input = "vector-bits-fpext-cmp-aarch64.mir";
    let llc = check_output(input, "vector-bits-fpext-cmp-aarch64.llc22.mir");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let output =
        gisel_llc(&["-mtriple=aarch64"], &root.join("../tests/mir/Inputs").join(input), &["--verify-semantics"]);
    let semantics = String::from_utf8(output.stderr).expect("UTF-8 messages");
    let functions = llc.lines().filter(|l| l.starts_with("name:")).count();
    let agreeing = semantics.lines().filter(|l| l.starts_with("semantics of") && l.contains(" inputs agree")).count();
    assert_eq!(agreeing, functions, "{semantics}");
}

/// `G_FMODF` of a half widens to float (the integral part truncated back
/// first) and a `<2 x s16>` one splits per lane before the `modff` calls.
#[test]
fn half_modf_is_what_llc_22_prints() {
    check_output("modf-half-aarch64.mir", "modf-half-aarch64.llc22.mir");
}
