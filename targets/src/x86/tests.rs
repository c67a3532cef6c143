//! What the X86 rules answer, query by query, checked against what
//! `llc -run-pass=legalizer` (LLVM 22) does with the same types on
//! `x86_64-linux-gnu` and `i386-linux-gnu`.

use gisel_core::assert_legality;
use gisel_core::legality::LegalizerInfo;

use super::rules::x86;
use super::subtarget::Subtarget;

fn rules(triple: &str, features: &str) -> LegalizerInfo {
    x86(&Subtarget::new(triple, features).unwrap_or_else(|| panic!("{triple} is an X86 triple")))
}

#[test]
fn rules_validate() {
    for (triple, features) in [("x86_64-linux-gnu", ""), ("i386-linux-gnu", ""), ("x86_64-linux-gnu", "+avx512bw")] {
        let info = rules(triple, features);
        assert!(info.validate().is_ok(), "{triple} {features}: {:?}", info.validate());
    }
}

#[test]
fn x86_64_integers() {
    let info = rules("x86_64-linux-gnu", "");
    assert_legality!(info, G_ADD(s64) => Legal);
    assert_legality!(info, G_ADD(s7) => WidenScalar(0, s32));
    assert_legality!(info, G_ADD(s128) => NarrowScalar(0, s64));
    assert_legality!(info, G_ADD(v4s32) => Legal);
    assert_legality!(info, G_ADD(v8s32) => FewerElements(0, v4s32));
    assert_legality!(info, G_MUL(v4s32) => FewerElements(0, s32));
    assert_legality!(info, G_SDIV(s64) => Legal);
    assert_legality!(info, G_SDIV(s128) => NarrowScalar(0, s64));
    assert_legality!(info, G_SHL(s32, s32) => NarrowScalar(1, s8));
    assert_legality!(info, G_ICMP(s1, s64) => WidenScalar(0, s8));
    assert_legality!(info, G_CTPOP(s32, s32) => Unsupported);
    assert_legality!(info, G_CTTZ_ZERO_UNDEF(s32, s32) => Legal);
    assert_legality!(info, G_SELECT(s8, s32) => WidenScalar(0, s16));
    assert_legality!(info, G_SMIN(s32) => Lower);
    assert_legality!(info, G_STORE(s32, p0; s8 @ 8) => Custom);
    assert_legality!(info, G_LOAD(s64, p0; s32 @ 8) => Legal);
}

#[test]
fn i386_integers_and_floats() {
    let info = rules("i386-linux-gnu", "");
    assert_legality!(info, G_ADD(s64) => NarrowScalar(0, s32));
    assert_legality!(info, G_SDIV(s64) => Libcall);
    assert_legality!(info, G_ADD(v4s32) => FewerElements(0, s32));
    assert_legality!(info, G_SELECT(s8, s32) => Legal);
    assert_legality!(info, G_FABS(s64) => Legal);
    assert_legality!(info, G_FCMP(s8, s128) => Legal);
    assert_legality!(info, G_SITOFP(s32, s32) => Custom);
    assert_legality!(info, G_FPEXT(s64, s32) => Libcall);
    assert_legality!(info, G_PTR_ADD(p0, s64) => NarrowScalar(1, s32));
}

#[test]
fn feature_levels() {
    let avx2 = rules("x86_64-linux-gnu", "+avx2");
    assert_legality!(avx2, G_ADD(v8s32) => Legal);
    assert_legality!(avx2, G_MUL(v8s32) => Legal);
    let avx512 = rules("x86_64-linux-gnu", "+avx512f,+avx512bw,+avx512dq,+avx512vl");
    assert_legality!(avx512, G_MUL(v2s64) => Legal);
    assert_legality!(avx512, G_UITOFP(s32, s32) => Legal);
    assert_legality!(avx512, G_BUILD_VECTOR(v2s32, s32) => Custom);
    let popcnt = rules("x86_64-linux-gnu", "+popcnt");
    assert_legality!(popcnt, G_CTPOP(s64, s64) => Legal);
    assert_legality!(popcnt, G_CTPOP(s8, s8) => WidenScalar(1, s16));
}
