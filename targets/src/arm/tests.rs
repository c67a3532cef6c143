//! What the Arm rules answer, query by query, checked against what
//! `llc -run-pass=legalizer` (LLVM 22) does with the same types on a
//! hard-float ARMv7, a soft-float ARMv4T and a Thumb-2 subtarget.

use gisel_core::assert_legality;
use gisel_core::legality::LegalizerInfo;

use super::rules::arm;
use super::subtarget::Subtarget;

fn rules(triple: &str, features: &str) -> LegalizerInfo {
    arm(&Subtarget::new(triple, None, features))
}

#[test]
fn rules_validate() {
    for (triple, features) in [
        ("armv7-unknown-linux-gnueabihf", ""),
        ("arm-unknown-linux-gnueabi", ""),
        ("thumbv7-unknown-linux-gnueabihf", "+hwdiv"),
    ] {
        let info = rules(triple, features);
        assert!(info.validate().is_ok(), "{triple}: {:?}", info.validate());
    }
}

#[test]
fn hard_float() {
    let info = rules("armv7-unknown-linux-gnueabihf", "");
    assert_legality!(info, G_ADD(s8) => WidenScalar(0, s32));
    assert_legality!(info, G_ADD(s64) => Unsupported);
    assert_legality!(rules("armv7-unknown-linux-gnueabihf", "+neon"), G_ADD(s64) => Legal);
    assert_legality!(info, G_MUL(s64) => NarrowScalar(0, s32));
    assert_legality!(info, G_SDIV(s32) => Libcall);
    assert_legality!(info, G_SREM(s32) => Custom);
    assert_legality!(info, G_FADD(s64) => Legal);
    assert_legality!(info, G_FCMP(s1, s32) => Legal);
    assert_legality!(info, G_FMA(s32) => Libcall);
    assert_legality!(info, G_LOAD(s64, p0; s64 @ 32) => Legal);
    assert_legality!(info, G_LOAD(s64, p0; s64 @ 8) => NarrowScalar(0, s32));
    assert_legality!(info, G_CTLZ(s32, s32) => Legal);
    assert_legality!(info, G_CONSTANT(s32) => Custom);
    assert_legality!(info, G_FPTOSI(s32, s64) => Legal);
}

#[test]
fn soft_float() {
    let info = rules("arm-unknown-linux-gnueabi", "");
    assert_legality!(info, G_ADD(s64) => Unsupported);
    assert_legality!(info, G_FADD(s32) => Libcall);
    assert_legality!(info, G_FNEG(s64) => Lower);
    assert_legality!(info, G_FCONSTANT(s64) => Custom);
    assert_legality!(info, G_FCMP(s1, s64) => Custom);
    assert_legality!(info, G_FPEXT(s64, s32) => Libcall);
    assert_legality!(info, G_SITOFP(s64, s32) => Libcall);
    assert_legality!(info, G_LOAD(s64, p0; s64 @ 32) => NarrowScalar(0, s32));
    assert_legality!(info, G_CTLZ(s32, s32) => Lower);
    assert_legality!(info, G_CTLZ_ZERO_UNDEF(s32, s32) => Libcall);
    assert_legality!(info, G_PHI(s64) => Unsupported);
    let soft = rules("armv7-unknown-linux-gnueabihf", "+soft-float");
    assert_legality!(soft, G_FMUL(s64) => Libcall);
}

#[test]
fn division_and_modes() {
    let hwdiv = rules("armv7-unknown-linux-gnueabihf", "+hwdiv-arm");
    assert_legality!(hwdiv, G_UDIV(s32) => Legal);
    assert_legality!(hwdiv, G_UREM(s32) => Lower);
    assert_legality!(hwdiv, G_UDIV(s16) => WidenScalar(0, s32));
    let thumb = rules("thumbv7-unknown-linux-gnueabihf", "+hwdiv-arm");
    assert_legality!(thumb, G_SDIV(s32) => Libcall);
    let gnu = rules("armv7-unknown-linux-gnu", "");
    assert_legality!(gnu, G_SREM(s32) => Libcall);
    let thumb1 = rules("thumbv6m-none-eabi", "");
    assert_legality!(thumb1, G_ADD(s32) => NotFound);
}

#[test]
fn options_choose_the_float_abi_and_soft_float() {
    use crate::TargetOptions;
    let triple = "armv7-unknown-linux-gnueabihf";
    let soft = TargetOptions { soft_float: true, ..TargetOptions::default() };
    assert_legality!(super::target(triple, &soft).info, G_FADD(s32) => Libcall);
    assert_legality!(super::target(triple, &TargetOptions::default()).info, G_FADD(s32) => Legal);
    let mut st = Subtarget::new(triple, None, "");
    assert!(st.hard_float_abi());
    st.set_hard_float_abi(false);
    assert!(!st.hard_float_abi());
}
