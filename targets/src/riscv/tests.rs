//! RISC-V legality answers, per XLEN and feature set, checked against
//! what `llc` 22 does with the same types.

use gisel_core::assert_legality;
use gisel_core::legality::LegalizerInfo;

use super::rules::riscv;
use super::subtarget::{Feature, FloatAbi, Subtarget};

fn rules(triple: &str, mattr: &str) -> LegalizerInfo {
    riscv(&Subtarget::new(triple, mattr).expect("a RISC-V triple"))
}

#[test]
fn features_and_implications() {
    let st = Subtarget::new("riscv64-unknown-linux-gnu", "+m,+d,+unknown-thing").unwrap();
    assert!(st.is_64bit() && st.has_m() && st.has_zmmul() && st.has_d() && st.has_f());
    assert_eq!(st.float_abi(), FloatAbi::Double);
    let st = Subtarget::new("riscv32", "+d,-f").unwrap();
    assert!(!st.has_f() && !st.has_d(), "clearing f clears d, which implies it");
    assert_eq!(st.float_abi(), FloatAbi::Soft);
    let st = Subtarget::new("riscv64", "+v").unwrap();
    assert!(st.has_v_instructions_i64() && st.has_v_instructions_f64() && st.has_d());
    assert_eq!(st.elen(), 64);
    let st = Subtarget::new("riscv32", "+zve32x").unwrap();
    assert!(st.has_v_instructions() && !st.has(Feature::F));
    assert_eq!(st.elen(), 32);
    assert_eq!(Subtarget::new("riscv32", "+f").unwrap().float_abi(), FloatAbi::Single);
    assert!(Subtarget::new("aarch64", "").is_none());
}

#[test]
fn every_configuration_validates() {
    for triple in ["riscv32", "riscv64"] {
        for mattr in ["", "+m", "+m,+zbb", "+m,+f,+d", "+zbkb,+a,+zfh,+zfa", "+unaligned-scalar-mem"] {
            let info = rules(triple, mattr);
            assert!(info.validate().is_ok(), "{triple} {mattr}: {:?}", info.validate());
        }
    }
}

#[test]
fn integer_arithmetic_follows_xlen() {
    let rv32 = rules("riscv32", "");
    let rv64 = rules("riscv64", "");
    assert_eq!(rv32.pointer_bits(), 32);
    assert_eq!(rv64.pointer_bits(), 64);
    assert_legality!(rv32, G_ADD(s32) => Legal);
    assert_legality!(rv32, G_ADD(s64) => NarrowScalar(0, s32));
    assert_legality!(rv32, G_ADD(s7) => WidenScalar(0, s8));
    assert_legality!(rv64, G_ADD(s64) => Legal);
    assert_legality!(rv64, G_ADD(s32) => Custom);
    assert_legality!(rv64, G_AND(s32) => WidenScalar(0, s64));
    assert_legality!(rv64, G_SHL(s32, s32) => Custom);
    assert_legality!(rv32, G_SHL(s32, s64) => NarrowScalar(1, s32));
    assert_legality!(rv64, G_ICMP(s64, s16) => WidenScalar(1, s64));
    assert_legality!(rv64, G_ICMP(s1, s64) => WidenScalar(0, s64));
    assert_legality!(rv32, G_SELECT(s64, s32) => NarrowScalar(0, s32));
    assert_legality!(rv64, G_SELECT(s64, s64) => Legal);
    assert_legality!(rv64, G_CONSTANT(s64) => Custom);
    assert_legality!(rv32, G_CONSTANT(s32) => Legal);
    assert_legality!(rv64, G_SEXT(s64, s32) => Legal);
    assert_legality!(rv32, G_SEXT(s64, s32) => NarrowScalar(0, s32));
    assert_legality!(rv64, G_SEXT_INREG(s64) => Custom);
}

#[test]
fn multiply_and_divide_depend_on_m() {
    let rv32 = rules("riscv32", "");
    let rv64m = rules("riscv64", "+m");
    let rv32m = rules("riscv32", "+m");
    assert_legality!(rv32, G_MUL(s32) => Libcall);
    assert_legality!(rv32, G_MUL(s64) => Libcall);
    assert_legality!(rv32, G_SDIV(s64) => Libcall);
    assert_legality!(rv32, G_SDIV(s16) => WidenScalar(0, s32));
    assert_legality!(rv64m, G_MUL(s64) => Legal);
    assert_legality!(rv64m, G_UDIV(s32) => Custom);
    assert_legality!(rv64m, G_SREM(s32) => WidenScalar(0, s64));
    assert_legality!(rv64m, G_SDIV(s128) => Libcall);
    assert_legality!(rv32m, G_UDIV(s32) => Legal);
    assert_legality!(rv32m, G_UMULH(s32) => Legal);
    assert_legality!(rv32, G_UMULH(s32) => Lower);
}

#[test]
fn bit_manipulation_depends_on_zbb() {
    let base = rules("riscv64", "");
    let zbb = rules("riscv64", "+zbb");
    assert_legality!(base, G_CTLZ(s64, s64) => Lower);
    assert_legality!(zbb, G_CTLZ(s64, s64) => Legal);
    assert_legality!(zbb, G_CTLZ(s32, s32) => Custom);
    assert_legality!(base, G_BSWAP(s64) => Lower);
    assert_legality!(zbb, G_BSWAP(s64) => Legal);
    assert_legality!(zbb, G_ROTL(s64, s64) => Legal);
    assert_legality!(zbb, G_SMAX(s64) => Legal);
    assert_legality!(base, G_SMAX(s64) => Lower);
    assert_legality!(zbb, G_ABS(s64) => Custom);
    assert_legality!(base, G_CTPOP(s7, s7) => WidenScalar(0, s8));
}

#[test]
fn memory_alignment_and_xlen() {
    let rv32 = rules("riscv32", "");
    let rv32d = rules("riscv32", "+d");
    let rv64 = rules("riscv64", "");
    let unaligned = rules("riscv64", "+unaligned-scalar-mem");
    assert_legality!(rv32, G_LOAD(s32, p0; s32 @ 32) => Legal);
    assert_legality!(rv32, G_LOAD(s32, p0; s32 @ 8) => Lower);
    assert_legality!(rv32, G_LOAD(s64, p0; s64 @ 64) => NarrowScalar(0, s32));
    assert_legality!(rv32d, G_LOAD(s64, p0; s64 @ 64) => Legal);
    assert_legality!(rv64, G_LOAD(s64, p0; s64 @ 64) => Legal);
    assert_legality!(rv64, G_SEXTLOAD(s64, p0; s32 @ 32) => Legal);
    assert_legality!(unaligned, G_LOAD(s64, p0; s64 @ 8) => Legal);
    assert_legality!(rv64, G_STORE(s8, p0; s8 @ 8) => WidenScalar(0, s16));
}

#[test]
fn floating_point_depends_on_f_and_d() {
    let soft = rules("riscv64", "");
    let fd = rules("riscv64", "+f,+d");
    let rv32f = rules("riscv32", "+f");
    assert_legality!(soft, G_FADD(s32) => Libcall);
    assert_legality!(soft, G_FADD(s128) => Libcall);
    assert_legality!(fd, G_FADD(s64) => Legal);
    assert_legality!(rv32f, G_FADD(s64) => Libcall);
    assert_legality!(fd, G_FCMP(s64, s64) => Legal);
    assert_legality!(fd, G_FCMP(s1, s64) => WidenScalar(0, s64));
    assert_legality!(fd, G_FPTOSI(s32, s64) => Custom);
    assert_legality!(fd, G_SITOFP(s64, s16) => WidenScalar(1, s64));
    assert_legality!(soft, G_SITOFP(s64, s16) => WidenScalar(1, s32));
    assert_legality!(fd, G_FCONSTANT(s64) => Legal);
    assert_legality!(soft, G_FCONSTANT(s64) => Custom);
    assert_legality!(fd, G_FPEXT(s64, s32) => Legal);
    assert_legality!(soft, G_FPEXT(s64, s32) => Libcall);
}

#[test]
fn vector_rules_follow_elen_and_i64() {
    let v = rules("riscv64", "+v");
    let v32 = rules("riscv32", "+v");
    let zve32x = rules("riscv64", "+zve32x");
    let zve64x = rules("riscv32", "+zve64x");
    let scalar = rules("riscv64", "+m");
    assert_legality!(v, G_ADD(nxv1s8) => Legal);
    assert_legality!(v, G_XOR(nxv8s64) => Legal);
    assert_legality!(v, G_SUB(nxv16s64) => Unsupported);
    assert_legality!(v, G_AND(nxv4s1) => Unsupported);
    assert_legality!(v, G_MUL(nxv4s32) => Unsupported);
    assert_legality!(v, G_SHL(nxv4s32, nxv4s32) => Unsupported);
    assert_legality!(zve32x, G_ADD(nxv2s8) => Legal);
    assert_legality!(zve32x, G_ADD(nxv1s8) => Unsupported);
    assert_legality!(zve32x, G_ADD(nxv2s64) => Unsupported);
    assert_legality!(zve64x, G_OR(nxv1s64) => Legal);
    assert_legality!(scalar, G_ADD(nxv2s32) => Unsupported);
    assert_legality!(v, G_FREEZE(nxv1s1) => Legal);
    assert_legality!(zve32x, G_IMPLICIT_DEF(nxv1s1) => Unsupported);
    assert_legality!(zve32x, G_IMPLICIT_DEF(nxv64s1) => Legal);
    assert_legality!(v, G_ZEXT(nxv2s64, nxv2s8) => Legal);
    assert_legality!(zve32x, G_SEXT(nxv2s64, nxv2s32) => Unsupported);
    assert_legality!(v, G_ICMP(nxv8s1, nxv8s16) => Legal);
    assert_legality!(v, G_SELECT(nxv16s32, nxv16s1) => Legal);
    assert_legality!(v, G_BITCAST(nxv8s8, nxv1s64) => Legal);
    assert_legality!(scalar, G_BITCAST(nxv2s32, nxv8s8) => NotFound);
    assert_legality!(v, G_INSERT_VECTOR_ELT(nxv2s32, s32, s64) => Legal);
    assert_legality!(v, G_INSERT_VECTOR_ELT(nxv2s32, s64, s64) => Unsupported);
    assert_legality!(v, G_SPLAT_VECTOR(nxv4s16, s64) => Legal);
    assert_legality!(v, G_SPLAT_VECTOR(nxv4s16, s16) => WidenScalar(1, s64));
    assert_legality!(v32, G_SPLAT_VECTOR(nxv2s64, s64) => Legal);
    assert_legality!(zve64x, G_SPLAT_VECTOR(nxv2s64, s64) => Custom);
    assert_legality!(v, G_SPLAT_VECTOR(nxv4s1, s1) => Custom);
    assert_legality!(zve32x, G_SPLAT_VECTOR(nxv1s1, s1) => WidenScalar(1, s64));
    assert_legality!(v, G_SEXT(nxv4s32, nxv4s1) => Custom);
    assert_legality!(zve32x, G_ZEXT(nxv1s32, nxv1s1) => Unsupported);
    assert_legality!(v, G_LOAD(nxv4s32, p0; nxv4s32 @ 32) => Legal);
    assert_legality!(v, G_LOAD(nxv4s32, p0; nxv4s32 @ 8) => Custom);
    assert_legality!(zve32x, G_STORE(nxv2s64, p0; nxv2s64 @ 64) => Lower);
}

/// The module's `"target-abi"` flag picks the call-preserved set even
/// where the features lack the registers it names, as llc 22 does.
#[test]
fn the_named_abi_wins_over_the_features() {
    let mut st = Subtarget::new("riscv64", "+m").unwrap();
    assert_eq!(st.float_abi(), FloatAbi::Soft);
    st.set_abi("lp64d");
    assert_eq!(st.float_abi(), FloatAbi::Double);
    st.set_abi("ilp32f");
    assert_eq!(st.float_abi(), FloatAbi::Double, "an RV32 name on RV64 is ignored");
    let mut rv32 = Subtarget::new("riscv32", "+d").unwrap();
    rv32.set_abi("ilp32");
    assert_eq!(rv32.float_abi(), FloatAbi::Soft);
}
