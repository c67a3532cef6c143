//! A target written from scratch with `legalizer!`: a 16-bit
//! microcontroller with 16-bit registers and pointers, byte and halfword
//! memory, add-with-carry, and no multiplier or divider (library calls).
//!
//! The program checks the rules (coverage, the minimum rule set,
//! termination), asserts answers with `assert_legality!`, and legalizes a
//! 32-bit add, which the machine does as two 16-bit adds linked by the
//! carry.
//!
//! ```sh
//! cargo run -p gisel-targets --example micro16_target
//! ```

use gisel_core::assert_legality;
use gisel_core::legality::check;
use gisel_core::legalize::{DefaultTarget, LegalizeOptions, describe, legalize};
use gisel_core::mir::{parse_body, print_body};
use gisel_core::prelude::*;
use gisel_macros::legalizer;

legalizer! {
    /// The rules of a 16-bit microcontroller.
    pub fn micro16() -> LegalizerInfo {
        pointer_bits = 16;

        // --- the minimum rule set: values of every width can be made ---
        G_IMPLICIT_DEF | G_FREEZE | G_PHI => legal_for(s1, s16, p0)
            .widen_scalar_to_next_pow2(0, 16)
            .clamp_scalar(0, s16, s16);
        G_ANYEXT => legal_for_cartesian_product([s16], [s1, s8])
            .clamp_scalar(0, s16, s16)
            .unsupported();
        G_TRUNC => legal_for_cartesian_product([s1, s8], [s16])
            .clamp_scalar(1, s16, s16)
            .unsupported();
        G_ZEXT | G_SEXT => lower();
        G_SEXT_INREG => lower();
        G_FRAME_INDEX | G_GLOBAL_VALUE | G_BLOCK_ADDR => legal_for(p0);
        G_CONSTANT => legal_for(s16, p0)
            .widen_scalar_to_next_pow2(0, 16)
            .clamp_scalar(0, s16, s16);

        // --- arithmetic: 16 bits wide, wider values in halves ---
        G_ADD | G_SUB | G_AND | G_OR | G_XOR => legal_for(s16)
            .widen_scalar_to_next_pow2(0, 16)
            .clamp_scalar(0, s16, s16);
        G_UADDO | G_UADDE | G_USUBO | G_USUBE => legal_for((s16, s1))
            .clamp_scalar(0, s16, s16);
        G_MUL | G_SDIV | G_UDIV => libcall_for(s16, s32)
            .widen_scalar_to_next_pow2(0, 16)
            .clamp_scalar(0, s16, s32);
        G_SREM | G_UREM => lower();
        G_SHL | G_LSHR | G_ASHR => legal_for((s16, s16))
            .widen_scalar_to_next_pow2(0, 16)
            .clamp_scalar(0, s16, s16)
            .clamp_scalar(1, s16, s16);
        G_ICMP => legal_for((s1, s16), (s1, p0))
            .clamp_scalar(1, s16, s16);
        G_SELECT => legal_for((s16, s1), (p0, s1))
            .widen_scalar_to_next_pow2(0, 16)
            .clamp_scalar(0, s16, s16);

        // --- memory: bytes and halfwords ---
        G_LOAD | G_STORE => legal_for_types_with_mem_desc(
                (s16, p0, s8, 8),
                (s16, p0, s16, 16),
                (p0, p0, p0, 16),
            )
            .clamp_scalar(0, s16, s16)
            .lower_if_mem_size_not_pow2()
            .lower();
        G_PTR_ADD => legal_for((p0, s16)).clamp_scalar(1, s16, s16);

        // --- control flow ---
        G_BRCOND => legal_for(s1);
    }
}

/// A 32-bit add of two values passed in register pairs, result in a pair.
const WIDE_ADD: &str = "\
bb.0:
  %0:_(s16) = COPY $r0
  %1:_(s16) = COPY $r1
  %2:_(s16) = COPY $r2
  %3:_(s16) = COPY $r3
  %4:_(s32) = G_MERGE_VALUES %0(s16), %1(s16)
  %5:_(s32) = G_MERGE_VALUES %2(s16), %3(s16)
  %6:_(s32) = G_ADD %4, %5
  %7:_(s16), %8:_(s16) = G_UNMERGE_VALUES %6(s32)
  $r0 = COPY %7(s16)
  $r1 = COPY %8(s16)
";

fn main() {
    let info = micro16();

    // The checks a target should pass before it meets any code.
    let report = check::check_all(&info);
    assert!(report.is_clean(), "{report}");

    // One line per answer; a failure prints the rule trail.
    assert_legality!(info, G_ADD(s16) => Legal);
    assert_legality!(info, G_ADD(s8) => WidenScalar(0, s16));
    assert_legality!(info, G_ADD(s32) => NarrowScalar(0, s16));
    assert_legality!(info, G_MUL(s16) => Libcall);
    assert_legality!(info, G_UREM(s16) => Lower);
    assert_legality!(info, G_ICMP(s1, s8) => WidenScalar(1, s16));
    assert_legality!(info, G_LOAD(s16, p0; s8 @ 8) => Legal);
    assert_legality!(info, G_LOAD(s16, p0; s16 @ 8) => Lower);
    assert_legality!(info, G_PTR_ADD(p0, s16) => Legal);

    // Why G_ADD s32 is split: the trail of rules tried.
    let types = [Llt::scalar(32)];
    print!("{}", info.explain(&LegalityQuery::new(Opcode::G_ADD, &types)));

    // Legalize the 32-bit add: a carry chain of 16-bit adds.
    let mut func = parse_body("wide_add", WIDE_ADD, &[], &|_| 16).expect("the example body parses");
    let stats = legalize(&mut func, &info, &DefaultTarget, LegalizeOptions::default()).expect("legalizes");
    let mut text = String::new();
    print_body(&func, &mut text);
    println!("\n{} steps, {} combines:\n{text}", stats.steps, stats.combines);
    for inst in func.all_insts() {
        if let Some(parts) = describe(&func, func.inst(inst)) {
            assert_eq!(info.action(&parts.query()).action, LegalizeAction::Legal, "{:?}", parts.types);
        }
    }
    assert!(text.contains("G_UADDO") && text.contains("G_UADDE"), "the add became a carry chain:\n{text}");
    assert!(!text.contains("(s32)"), "no 32-bit value is left:\n{text}");
}
