//! The pass against llc 22's own output: each case takes an input, the
//! text `llc -run-pass=legalizer` printed for it, and the target's rules
//! for the opcodes involved (written here with the builder API), and
//! requires the same body after renumbering virtual registers.

use super::{DefaultTarget, LegalizeOptions, legalize};
use crate::legality::LegalizerInfo;
use crate::mir::renumber_vregs;
use crate::mir::{parse_body, print_body};
use crate::opcode::Opcode::*;
use crate::ty::Llt;

fn check(info: &LegalizerInfo, body: &str, llc: &str, pointer_bits: u32) {
    let mut func = parse_body("f", body, &[], &|_| pointer_bits).expect("parses");
    legalize(&mut func, info, &DefaultTarget, LegalizeOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut out = String::new();
    print_body(&func, &mut out);
    let strip = |t: &str| t.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("\n");
    pretty_assertions::assert_eq!(renumber_vregs(&strip(&out)), renumber_vregs(&strip(llc)));
}

/// RISC-V rv32's rules (no extensions) for the integer opcodes these cases use.
fn riscv32_integer_rules() -> LegalizerInfo {
    let s32 = Llt::scalar(32);
    let mut info = LegalizerInfo::new().with_pointer_bits(32);
    let p0 = info.pointer(0);
    info.rules_for(&[G_ADD, G_SUB, G_AND, G_OR, G_XOR])
        .legal_for([s32])
        .widen_scalar_to_next_pow2(0, 0)
        .clamp_scalar(0, s32, s32);
    info.rules_for(&[G_SHL, G_ASHR, G_LSHR])
        .legal_for([(s32, s32)])
        .widen_scalar_to_next_pow2(0, 0)
        .clamp_scalar(1, s32, s32)
        .clamp_scalar(0, s32, s32);
    info.rules_for(&[G_CONSTANT]).legal_for([p0, s32]).widen_scalar_to_next_pow2(0, 0).clamp_scalar(0, s32, s32);
    info.rules_for(&[G_ICMP])
        .legal_for([(s32, s32), (s32, p0)])
        .widen_scalar_or_elt_to_next_pow2_or_min_size(1, 8)
        .clamp_scalar(1, s32, s32)
        .clamp_scalar(0, s32, s32);
    info.rules_for(&[G_SELECT])
        .legal_for([(s32, s32), (p0, s32)])
        .widen_scalar_to_next_pow2(0, 0)
        .clamp_scalar(0, s32, s32)
        .clamp_scalar(1, s32, s32);
    info.rules_for(&[G_ZEXT, G_SEXT, G_ANYEXT]).legal_for([(s32, Llt::scalar(16))]).max_scalar(0, s32);
    info.rules_for(&[G_TRUNC]).always_legal();
    info.rules_for(&[G_MERGE_VALUES, G_UNMERGE_VALUES])
        .widen_scalar_to_next_pow2(0, 32)
        .widen_scalar_to_next_pow2(1, 32)
        .clamp_scalar(0, s32, s32)
        .clamp_scalar(1, s32, s32);
    info
}

#[test]
fn signed_compare_of_s64_on_riscv32() {
    let body = "bb.0:\n  liveins: $x10, $x11, $x12, $x13\n\n  %0:_(s32) = COPY $x10\n  %1:_(s32) = COPY $x11\n  \
                %2:_(s32) = COPY $x12\n  %3:_(s32) = COPY $x13\n  %4:_(s64) = G_MERGE_VALUES %0(s32), %1(s32)\n  \
                %5:_(s64) = G_MERGE_VALUES %2(s32), %3(s32)\n  %6:_(s1) = G_ICMP intpred(slt), %4(s64), %5\n  \
                %7:_(s32) = G_ZEXT %6(s1)\n  $x10 = COPY %7(s32)\n  PseudoRET implicit $x10\n";
    let llc = "bb.0:
    liveins: $x10, $x11, $x12, $x13
    %0:_(s32) = COPY $x10
    %1:_(s32) = COPY $x11
    %2:_(s32) = COPY $x12
    %3:_(s32) = COPY $x13
    %21:_(s32) = G_ICMP intpred(ult), %0(s32), %2
    %20:_(s32) = G_ICMP intpred(slt), %1(s32), %3
    %19:_(s32) = G_ICMP intpred(eq), %1(s32), %3
    %17:_(s32) = G_SELECT %19(s32), %21, %20
    $x10 = COPY %17(s32)
    PseudoRET implicit $x10";
    check(&riscv32_integer_rules(), body, llc, 32);
}

#[test]
fn variable_shift_of_s64_on_riscv32() {
    let body = "bb.0:\n  liveins: $x10, $x11, $x12\n\n  %0:_(s32) = COPY $x10\n  %1:_(s32) = COPY $x11\n  \
                %2:_(s32) = COPY $x12\n  %4:_(s64) = G_MERGE_VALUES %0(s32), %1(s32)\n  %6:_(s64) = G_SHL %4, %2(s32)\n  \
                %7:_(s32), %8:_(s32) = G_UNMERGE_VALUES %6(s64)\n  $x10 = COPY %7(s32)\n  $x11 = COPY %8(s32)\n  \
                PseudoRET implicit $x10, implicit $x11\n";
    let llc = "bb.0:
    liveins: $x10, $x11, $x12
    %0:_(s32) = COPY $x10
    %1:_(s32) = COPY $x11
    %2:_(s32) = COPY $x12
    %7:_(s32) = G_CONSTANT i32 32
    %10:_(s32) = G_SUB %2, %7
    %11:_(s32) = G_SUB %7, %2
    %12:_(s32) = G_CONSTANT i32 0
    %26:_(s32) = G_ICMP intpred(ult), %2(s32), %7
    %25:_(s32) = G_ICMP intpred(eq), %2(s32), %12
    %15:_(s32) = G_SHL %0, %2(s32)
    %16:_(s32) = G_LSHR %0, %11(s32)
    %17:_(s32) = G_SHL %1, %2(s32)
    %18:_(s32) = G_OR %16, %17
    %19:_(s32) = G_SHL %0, %10(s32)
    %20:_(s32) = G_SELECT %26(s32), %15, %12
    %21:_(s32) = G_SELECT %26(s32), %18, %19
    %22:_(s32) = G_SELECT %25(s32), %1, %21
    $x10 = COPY %20(s32)
    $x11 = COPY %22(s32)
    PseudoRET implicit $x10, implicit $x11";
    check(&riscv32_integer_rules(), body, llc, 32);
}

/// llc -mtriple=riscv64 -run-pass=legalizer on an s16 merge of two s8
/// truncations; the rules below are RISC-V's for the opcodes involved.
#[test]
fn merge_of_bytes_matches_llc_on_riscv64() {
    let s64 = Llt::scalar(64);
    let mut info = LegalizerInfo::new();
    info.rules_for(&[G_MERGE_VALUES])
        .widen_scalar_to_next_pow2(1, 64)
        .widen_scalar_to_next_pow2(0, 64)
        .clamp_scalar(1, s64, s64)
        .clamp_scalar(0, s64, s64);
    info.rules_for(&[G_AND, G_OR, G_CONSTANT]).legal_for([s64]);
    info.rules_for(&[G_SHL]).legal_for([(s64, s64)]);
    info.rules_for(&[G_TRUNC, G_ANYEXT, G_ZEXT]).always_legal();
    let body = "bb.0:\n  liveins: $x10, $x11\n\n  %0:_(s64) = COPY $x10\n  %1:_(s64) = COPY $x11\n  %2:_(s8) = G_TRUNC %0(s64)\n  \
                %3:_(s8) = G_TRUNC %1(s64)\n  %4:_(s16) = G_MERGE_VALUES %2(s8), %3(s8)\n  %5:_(s64) = G_ANYEXT %4(s16)\n  \
                $x10 = COPY %5(s64)\n  PseudoRET implicit $x10\n";
    let llc = "  bb.0:
    liveins: $x10, $x11
  
    %0:_(s64) = COPY $x10
    %1:_(s64) = COPY $x11
    %11:_(s64) = G_CONSTANT i64 255
    %6:_(s64) = G_AND %0, %11
    %7:_(s64) = G_AND %1, %11
    %9:_(s64) = G_CONSTANT i64 8
    %10:_(s64) = G_SHL %7, %9(s64)
    %8:_(s64) = G_OR %6, %10
    $x10 = COPY %8(s64)
    PseudoRET implicit $x10
";
    check(&info, body, llc, 64);
}
