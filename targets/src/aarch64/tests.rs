//! What the AArch64 rules answer, query by query, checked against what
//! `llc -mtriple=aarch64 -run-pass=legalizer` (LLVM 22) does with the same
//! types.

use gisel_core::assert_legality;

use super::rules::aarch64_rules;
use super::subtarget::Subtarget;

fn generic() -> gisel_core::legality::LegalizerInfo {
    aarch64_rules(&Subtarget::new("aarch64", "", None, 2))
}

#[test]
fn rules_validate() {
    let info = generic();
    assert!(info.validate().is_ok(), "{:?}", info.validate());
}

#[test]
fn integer_arithmetic() {
    let info = generic();
    assert_legality!(info, G_ADD(s32) => Legal);
    assert_legality!(info, G_ADD(s64) => Legal);
    assert_legality!(info, G_ADD(s8) => WidenScalar(0, s32));
    assert_legality!(info, G_ADD(s7) => WidenScalar(0, s8));
    assert_legality!(info, G_ADD(s128) => NarrowScalar(0, s64));
    assert_legality!(info, G_ADD(v4s32) => Legal);
    assert_legality!(info, G_ADD(v8s32) => FewerElements(0, v4s32));
    assert_legality!(info, G_ADD(v2s16) => WidenScalar(0, v2s32));
    assert_legality!(info, G_MUL(s128) => NarrowScalar(0, s64));
    assert_legality!(info, G_SDIV(s128) => Libcall);
    assert_legality!(info, G_SDIV(s16) => WidenScalar(0, s32));
    assert_legality!(info, G_SREM(s32) => Lower);
    assert_legality!(info, G_UREM(s128) => Libcall);
    assert_legality!(info, G_SMULH(s64) => Legal);
    assert_legality!(info, G_SMULH(s32) => Lower);
    assert_legality!(info, G_UMULO(s8) => WidenScalar(0, s32));
    assert_legality!(info, G_SMIN(s32) => Lower);
    assert_legality!(info, G_SMIN(v4s32) => Legal);
    assert_legality!(info, G_UADDO(s32, s1) => WidenScalar(1, s32));
    assert_legality!(info, G_UADDE(s64, s32) => Legal);
}

#[test]
fn shifts_and_bits() {
    let info = generic();
    assert_legality!(info, G_SHL(s32, s32) => Custom);
    assert_legality!(info, G_SHL(s32, s64) => Legal);
    assert_legality!(info, G_SHL(s64, s32) => WidenScalar(1, s64));
    assert_legality!(info, G_LSHR(s8, s8) => WidenScalar(1, s32));
    assert_legality!(info, G_LSHR(s8, s32) => WidenScalar(0, s32));
    assert_legality!(info, G_ROTR(s32, s64) => Legal);
    assert_legality!(info, G_ROTR(s64, s32) => Custom);
    assert_legality!(info, G_ROTL(s32, s32) => Lower);
    assert_legality!(info, G_FSHL(s32, s32) => Custom);
    assert_legality!(info, G_CTPOP(s32, s32) => Custom);
    assert_legality!(info, G_CTPOP(s16, s16) => WidenScalar(0, s32));
    assert_legality!(info, G_CTTZ(s64, s64) => Custom);
    assert_legality!(info, G_CTLZ(s32, s32) => Legal);
    assert_legality!(info, G_ABS(s32) => Custom);
    assert_legality!(info, G_ABS(s128) => Lower);
    assert_legality!(info, G_BSWAP(s16) => WidenScalar(0, s32));
    assert_legality!(info, G_UADDSAT(s32) => Lower);
}

#[test]
fn features() {
    let cssc = aarch64_rules(&Subtarget::new("aarch64", "+cssc", None, 2));
    assert_legality!(cssc, G_SMIN(s32) => Legal);
    assert_legality!(cssc, G_SMIN(s8) => WidenScalar(0, s32));
    assert_legality!(cssc, G_CTPOP(s64, s64) => Legal);
    assert_legality!(cssc, G_ABS(s64) => Legal);
    let fp16 = aarch64_rules(&Subtarget::new("aarch64", "+fullfp16", None, 2));
    assert_legality!(fp16, G_FADD(s16) => Legal);
    let generic = generic();
    assert_legality!(generic, G_FADD(s16) => WidenScalar(0, s32));
    assert_legality!(generic, G_GLOBAL_VALUE(p0) => Custom);
    let large = aarch64_rules(&Subtarget::new("aarch64", "", Some("large"), 0));
    assert_legality!(large, G_GLOBAL_VALUE(p0) => Legal);
    let outline = aarch64_rules(&Subtarget::new("aarch64", "+outline-atomics", None, 2));
    assert_legality!(outline, G_ATOMICRMW_ADD(s32, p0) => Libcall);
    assert_legality!(generic, G_ATOMICRMW_ADD(s32, p0) => Legal);
    let none = aarch64_rules(&Subtarget::new("aarch64", "-neon", None, 2));
    assert_legality!(none, G_FENCE() => Legal);
}

#[test]
fn floating_point_and_memory() {
    let info = generic();
    assert_legality!(info, G_FADD(s128) => Libcall);
    assert_legality!(info, G_FREM(s64) => Libcall);
    assert_legality!(info, G_FPTOSI(s128, s32) => Libcall);
    assert_legality!(info, G_FPTOSI(s16, s32) => WidenScalar(0, s32));
    assert_legality!(info, G_FCMP(s32, s128) => Libcall);
    assert_legality!(info, G_FCONSTANT(s16) => Legal);
    assert_legality!(info, G_LOAD(s32, p0; s32 @ 8) => Legal);
    assert_legality!(info, G_LOAD(s64, p0; s16 @ 8) => NarrowScalar(0, s32));
    assert_legality!(info, G_LOAD(s96, p0; s96 @ 8) => WidenScalar(0, s128));
    assert_legality!(info, G_STORE(s64, p0; s24 @ 8) => Lower);
    assert_legality!(info, G_SEXTLOAD(s64, p0; s8 @ 8) => Legal);
    assert_legality!(info, G_ZEXT(s64, s32) => Legal);
    assert_legality!(info, G_ZEXT(s128, s32) => NarrowScalar(0, s64));
    assert_legality!(info, G_TRUNC(s8, s64) => Legal);
    assert_legality!(info, G_ICMP(s32, s16) => WidenScalar(1, s32));
    assert_legality!(info, G_ICMP(s1, s32) => WidenScalar(0, s32));
    assert_legality!(info, G_SELECT(s16, s1) => WidenScalar(0, s32));
    assert_legality!(info, G_MERGE_VALUES(s128, s64) => Legal);
    assert_legality!(info, G_MERGE_VALUES(s16, s8) => WidenScalar(0, s32));
    assert_legality!(info, G_PTR_ADD(p0, s32) => WidenScalar(1, s64));
    assert_legality!(info, G_MEMCPY(p0, p0, s64) => Libcall);
}
