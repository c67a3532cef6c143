//! What the Mips rules answer, query by query, checked against what
//! `llc -run-pass=legalizer` (LLVM 22) does with the same types on a
//! MIPS32, a MIPS32r2 with 64-bit FPU registers, an MSA and a MIPS32r6
//! subtarget.

use gisel_core::assert_legality;
use gisel_core::legality::LegalizerInfo;

use super::rules::mips;
use super::subtarget::Subtarget;

fn rules(features: &str) -> LegalizerInfo {
    mips(&Subtarget::new("mipsel-unknown-linux-gnu", None, features))
}

#[test]
fn rules_validate() {
    for features in ["", "+mips32r2,+fp64", "+mips32r5,+fp64,+msa", "+mips32r6"] {
        let info = rules(features);
        assert!(info.validate().is_ok(), "{features}: {:?}", info.validate());
    }
}

#[test]
fn mips32() {
    let info = rules("");
    assert_legality!(info, G_ADD(s8) => WidenScalar(0, s32));
    assert_legality!(info, G_ADD(s64) => NarrowScalar(0, s32));
    assert_legality!(info, G_SDIV(s64) => Libcall);
    assert_legality!(info, G_BSWAP(s32) => Lower);
    assert_legality!(info, G_UITOFP(s64, s32) => Custom);
    assert_legality!(info, G_FPTOUI(s32, s64) => Lower);
    assert_legality!(info, G_LOAD(s32, p0; s32 @ 8) => Legal);
    assert_legality!(info, G_LOAD(s32, p0; s16 @ 8) => Custom);
    assert_legality!(info, G_LOAD(s32, p0; s16 @ 16) => Legal);
    assert_legality!(info, G_LOAD(s64, p0; s64 @ 32) => Custom);
    assert_legality!(info, G_STORE(s32, p0; s24 @ 32) => Custom);
    assert_legality!(info, G_ADD(v4s32) => Unsupported);
}

#[test]
fn revisions_and_msa() {
    assert_legality!(rules("+mips32r2,+fp64"), G_BSWAP(s32) => Legal);
    assert_legality!(rules("+mips32r6"), G_LOAD(s64, p0; s64 @ 8) => Legal);
    assert_legality!(rules("+mips32r6,+strict-align"), G_LOAD(s64, p0; s64 @ 8) => Custom);
    let msa = rules("+mips32r5,+fp64,+msa");
    assert_legality!(msa, G_ADD(v4s32) => Legal);
    assert_legality!(msa, G_LOAD(v8s16, p0; v8s16 @ 8) => Legal);
    assert_legality!(msa, G_UDIV(v2s64) => Legal);
}

#[test]
fn subtargets() {
    let st = |triple, cpu, features| Subtarget::new(triple, cpu, features);
    assert!(st("mips-unknown-linux-gnu", None, "").is_big_endian());
    assert!(!st("mipsel-unknown-linux-gnu", None, "").has_mips32r2());
    assert!(st("mipsisa32r6el-unknown-linux-gnu", None, "").is_fp64());
    assert!(!st("mipsel-unknown-linux-gnu", None, "+mips32r6,-mips32r2").has_mips32r6());
    assert_eq!(st("mipsel-unknown-linux-gnu", None, "+mips32r2,+fp64").call_preserved_mask(), "csr_o32_fp64");
    assert!(st("mipsel-unknown-linux-gnu", None, "+msa").check().is_err());
    assert!(st("mipsel-unknown-linux-gnu", None, "+fp64").check().is_err());
}
