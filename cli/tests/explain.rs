//! `gisel llc --explain` on the RV32 i16 example (`examples/rv32_i16.mir`):
//! the trace on stderr names each step's rule, stdout is what it is
//! without `--explain`, and that output is llc 22's.

mod common;

use common::normalised;
use std::path::{Path, PathBuf};
use std::process::Output;

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/rv32_i16.mir")
}

/// Runs `gisel llc -mtriple=riscv32 -run-pass=legalizer EXAMPLE -o -` with `extra` arguments.
fn gisel_llc(extra: &[&str]) -> Output {
    common::gisel_llc(&["-mtriple=riscv32"], &example(), extra)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

#[test]
fn explain_leaves_stdout_unchanged() {
    let plain = gisel_llc(&[]);
    let explained = gisel_llc(&["--explain"]);
    assert_eq!(text(&explained.stdout), text(&plain.stdout));
    assert!(plain.stderr.is_empty(), "{}", text(&plain.stderr));
}

#[test]
fn explain_prints_each_step_with_its_rule() {
    let trace = text(&gisel_llc(&["--explain"]).stderr);
    let lines: Vec<&str> = trace.lines().collect();
    let after = |line: &str| -> &[&str] {
        let at = lines.iter().position(|l| *l == line).unwrap_or_else(|| panic!("no line '{line}' in:\n{trace}"));
        &lines[at + 1..]
    };
    assert_eq!(lines[0], "# legalizing function 'add_and_compare_i16'");
    // The compare is visited first (the worklist pops last-first): its
    // operands are sign-extended to s32 by the third rule of G_ICMP.
    let icmp = after("step: %7:_(s1) = G_ICMP intpred(slt), %6(s16), %5");
    assert_eq!(icmp[0], "  G_ICMP(s1, s16): rule 2 clamp_scalar(1, s32, s32) -> WidenScalar type1 to s32");
    assert!(icmp.contains(&"  => %9:_(s32) = G_SEXT %6(s16)"), "{trace}");
    // The add is widened by clamp_scalar: any-extended operands, a
    // 32-bit add, a truncate back for its users.
    let add = after("step: %6:_(s16) = G_ADD %3, %4");
    assert_eq!(add[0], "  G_ADD(s16): rule 2 clamp_scalar(0, s32, s32) -> WidenScalar type0 to s32");
    assert_eq!(add[1], "    rule  0 legal_for(s32): no match   [Legal if type_in_set(0, [s32])]");
    assert!(add.contains(&"  => %14:_(s32) = G_ADD %12, %13"), "{trace}");
    // The combiner turns sext(trunc x) into G_SEXT_INREG, which RISC-V
    // legalizes by its custom hook into a shift pair.
    assert_eq!(after("combine: %9:_(s32) = G_SEXT %6(s16)")[0], "  => %9:_(s32) = G_SEXT_INREG %14, 16");
    let sext = after("step: %9:_(s32) = G_SEXT_INREG %14, 16");
    assert_eq!(sext[0], "  G_SEXT_INREG(s32): rule 0 custom_for(s32) -> Custom");
    assert!(sext.contains(&"  => %9:_(s32) = G_ASHR %15, %16(s32)"), "{trace}");
    assert_eq!(lines.last(), Some(&"# 'add_and_compare_i16': 5 steps, 5 combines"));
}

#[test]
fn the_legalized_example_is_what_llc_22_prints() {
    let recorded = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected/rv32_i16.llc22.mir");
    let llc = std::fs::read_to_string(&recorded).expect("reads the recorded llc output");
    let ours = text(&gisel_llc(&[]).stdout);
    // llc names the module after the path it was given; gisel after its own.
    let ours = ours.replace(&example().display().to_string(), "examples/rv32_i16.mir");
    pretty_assertions::assert_eq!(normalised(&ours), normalised(&llc));
}
