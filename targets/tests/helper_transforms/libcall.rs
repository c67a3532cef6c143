//! `libcall` (§3.8): an operation replaced by a call to a runtime
//! function, emitted with RV64's soft-float calling convention. The
//! interpreter runs the calls it knows by name.

use super::case::Case;
use gisel_core::opcode::Opcode::{self, *};

const INT: &[Opcode] = &[G_MUL, G_SDIV, G_UDIV, G_SREM, G_UREM];
const FP_ARITH: &[Opcode] = &[G_FADD, G_FSUB, G_FMUL, G_FDIV];
const LIBM_BINARY: &[Opcode] = &[G_FREM, G_FMINNUM, G_FMAXNUM];
const LIBM_UNARY: &[Opcode] =
    &[G_FCEIL, G_FFLOOR, G_FSQRT, G_FRINT, G_FNEARBYINT, G_INTRINSIC_TRUNC, G_INTRINSIC_ROUND, G_INTRINSIC_ROUNDEVEN];
const TRANSCENDENTAL_UNARY: &[Opcode] = &[
    G_FSIN, G_FCOS, G_FTAN, G_FASIN, G_FACOS, G_FATAN, G_FSINH, G_FCOSH, G_FTANH, G_FLOG, G_FLOG2, G_FLOG10, G_FEXP,
    G_FEXP2, G_FEXP10,
];
const ROUND_TO_INT: &[Opcode] = &[G_LROUND, G_LLROUND, G_INTRINSIC_LRINT, G_INTRINSIC_LLRINT];
const RMW: &[Opcode] =
    &[G_ATOMICRMW_XCHG, G_ATOMICRMW_ADD, G_ATOMICRMW_SUB, G_ATOMICRMW_AND, G_ATOMICRMW_OR, G_ATOMICRMW_XOR];

/// The opcodes §3.8 lists.
pub const LISTED: &[Opcode] = &[
    G_MUL,
    G_SDIV,
    G_UDIV,
    G_SREM,
    G_UREM,
    G_CTLZ_ZERO_UNDEF,
    G_FADD,
    G_FSUB,
    G_FMUL,
    G_FDIV,
    G_FREM,
    G_FPOW,
    G_FMA,
    G_FSIN,
    G_FCOS,
    G_FTAN,
    G_FASIN,
    G_FACOS,
    G_FATAN,
    G_FATAN2,
    G_FSINH,
    G_FCOSH,
    G_FTANH,
    G_FLOG,
    G_FLOG2,
    G_FLOG10,
    G_FEXP,
    G_FEXP2,
    G_FEXP10,
    G_FCEIL,
    G_FFLOOR,
    G_FMINNUM,
    G_FMAXNUM,
    G_FSQRT,
    G_FRINT,
    G_FNEARBYINT,
    G_INTRINSIC_TRUNC,
    G_INTRINSIC_ROUND,
    G_INTRINSIC_ROUNDEVEN,
    G_FSINCOS,
    G_FMODF,
    G_LROUND,
    G_LLROUND,
    G_INTRINSIC_LRINT,
    G_INTRINSIC_LLRINT,
    G_FPOWI,
    G_FLDEXP,
    G_FPEXT,
    G_FPTRUNC,
    G_FPTOSI,
    G_FPTOUI,
    G_SITOFP,
    G_UITOFP,
    G_FCMP,
    G_ATOMICRMW_XCHG,
    G_ATOMICRMW_ADD,
    G_ATOMICRMW_SUB,
    G_ATOMICRMW_AND,
    G_ATOMICRMW_OR,
    G_ATOMICRMW_XOR,
    G_ATOMIC_CMPXCHG,
    G_ATOMIC_CMPXCHG_WITH_SUCCESS,
    G_MEMCPY,
    G_MEMMOVE,
    G_MEMSET,
    G_BZERO,
    G_GET_FPENV,
    G_GET_FPMODE,
    G_SET_FPENV,
    G_SET_FPMODE,
    G_RESET_FPENV,
    G_RESET_FPMODE,
];

/// The cases.
pub const CASES: &[Case] = &[
    Case::new(INT, 0, "", &["s32"], &["s32", "s32"], "%0, %1"),
    Case::new(INT, 0, "", &["s64"], &["s64", "s64"], "%0, %1"),
    Case::new(INT, 0, "", &["s128"], &["s128", "s128"], "%0, %1"),
    Case::new(&[G_CTLZ_ZERO_UNDEF], 0, "", &["s64"], &["s64"], "%0"),
    Case::new(&[G_CTLZ_ZERO_UNDEF], 0, "", &["s32"], &["s32"], "%0"),
    Case::new(FP_ARITH, 0, "", &["s32"], &["f32", "f32"], "%0, %1"),
    Case::new(FP_ARITH, 0, "", &["s64"], &["f64", "f64"], "%0, %1"),
    Case::new(FP_ARITH, 0, "", &["s128"], &["s128", "s128"], "%0, %1"),
    Case::new(LIBM_BINARY, 0, "", &["s64"], &["f64", "f64"], "%0, %1"),
    Case::new(&[G_FMA], 0, "", &["s64"], &["f64", "f64", "f64"], "%0, %1, %2"),
    Case::new(LIBM_UNARY, 0, "", &["s64"], &["f64"], "%0"),
    Case::new(TRANSCENDENTAL_UNARY, 0, "", &["s64"], &["f64"], "%0"),
    Case::new(&[G_FPOW, G_FATAN2], 0, "", &["s64"], &["f64", "f64"], "%0, %1"),
    Case::new(ROUND_TO_INT, 0, "", &["s64"], &["f64"], "%0(s64)"),
    Case::new(ROUND_TO_INT, 0, "", &["s64"], &["f32"], "%0(s32)"),
    Case::new(ROUND_TO_INT, 0, "", &["s32"], &["s128"], "%0(s128)"),
    Case::new(ROUND_TO_INT, 0, "", &["s64"], &["f16"], "%0(s16)").unable(),
    Case::new(&[G_FPOWI, G_FLDEXP], 0, "", &["s64"], &["f64", "s32"], "%0, %1(s32)"),
    Case::new(&[G_FSINCOS, G_FMODF], 0, "", &["s64", "s64"], &["f64"], "%0"),
    Case::new(&[G_FSINCOS, G_FMODF], 0, "", &["s32", "s32"], &["f32"], "%0"),
    Case::new(&[G_FSINCOS], 0, "", &["s16", "s16"], &["f16"], "%0").unable(),
    Case::new(&[G_FPEXT], 0, "", &["s64"], &["f32"], "%0(s32)"),
    Case::new(&[G_FPEXT], 0, "", &["s128"], &["f64"], "%0(s64)"),
    Case::new(&[G_FPTRUNC], 0, "", &["s32"], &["f64"], "%0(s64)"),
    Case::new(&[G_FPTRUNC], 0, "", &["s16"], &["f32"], "%0(s32)"),
    Case::new(&[G_FPTOSI, G_FPTOUI], 0, "", &["s64"], &["f64"], "%0(s64)"),
    Case::new(&[G_FPTOSI, G_FPTOUI], 0, "", &["s128"], &["f32"], "%0(s32)"),
    Case::new(&[G_SITOFP, G_UITOFP], 0, "", &["s64"], &["s64"], "%0(s64)"),
    Case::new(&[G_SITOFP, G_UITOFP], 0, "", &["s32"], &["s128"], "%0(s128)"),
    Case::new(&[G_FCMP], 0, "", &["s1"], &["f64", "f64"], "floatpred(oeq), %0(s64), %1"),
    Case::new(&[G_FCMP], 0, "", &["s1"], &["f64", "f64"], "floatpred(ueq), %0(s64), %1"),
    Case::new(&[G_FCMP], 0, "", &["s1"], &["f64", "f64"], "floatpred(one), %0(s64), %1"),
    Case::new(&[G_FCMP], 0, "", &["s1"], &["f32", "f32"], "floatpred(ult), %0(s32), %1"),
    Case::new(&[G_FCMP], 0, "", &["s1"], &["s128", "s128"], "floatpred(uno), %0(s128), %1"),
    // RV64 has no outline atomics and no `bzero`: AArch64 Darwin has both.
    Case::new(RMW, 0, "", &["s32"], &["p0", "s32"], "%0(p0), %1").mem("(load store seq_cst (s32))").unable(),
    Case::new(RMW, 0, "", &["s32"], &["p0", "s32"], "%0(p0), %1").mem("(load store seq_cst (s32))").on_darwin(),
    Case::new(&[G_ATOMIC_CMPXCHG], 0, "", &["s32"], &["p0", "s32", "s32"], "%0(p0), %1, %2")
        .mem("(load store seq_cst seq_cst (s32))")
        .on_darwin(),
    Case::new(&[G_ATOMIC_CMPXCHG_WITH_SUCCESS], 0, "", &["s32", "s1"], &["p0", "s32", "s32"], "%0(p0), %1, %2")
        .mem("(load store seq_cst seq_cst (s32))")
        .on_darwin(),
    Case::new(&[G_MEMCPY, G_MEMMOVE], 0, "", &[], &["p0", "p0", "s64"], "%0(p0), %1(p0), %2(s64), 0")
        .mem("(store (s8), align 1), (load (s8), align 1)"),
    Case::new(&[G_MEMSET], 0, "", &[], &["p0", "s8", "s64"], "%0(p0), %1(s8), %2(s64), 0").mem("(store (s8), align 1)"),
    Case::new(&[G_BZERO], 0, "", &[], &["p0", "s64"], "%0(p0), %1(s64), 0").mem("(store (s8), align 1)").unable(),
    // Most random lengths are too long to run: they are kept below 256.
    Case::new(&[G_BZERO], 0, "", &[], &["p0", "s64"], "%0(p0), %n(s64), 0")
        .pre("%k:_(s64) = G_CONSTANT i64 255\n%n:_(s64) = G_AND %1, %k")
        .mem("(store (s8), align 1)")
        .on_darwin(),
    // The state is read back by the (legal) opcodes themselves.
    Case::new(&[G_GET_FPENV], 0, "", &["s32"], &["s32"], "").pre("G_SET_FPENV %0(s32)"),
    Case::new(&[G_GET_FPMODE], 0, "", &["s32"], &["s32"], "").pre("G_SET_FPMODE %0(s32)"),
    Case::new(&[G_SET_FPENV], 0, "", &["s32"], &["s32"], "%0(s32)").post("%r0:_(s32) = G_GET_FPENV"),
    Case::new(&[G_SET_FPMODE], 0, "", &["s32"], &["s32"], "%0(s32)").post("%r0:_(s32) = G_GET_FPMODE"),
    Case::new(&[G_RESET_FPENV], 0, "", &["s32"], &["s32"], "")
        .pre("G_SET_FPENV %0(s32)")
        .post("%r0:_(s32) = G_GET_FPENV"),
    Case::new(&[G_RESET_FPMODE], 0, "", &["s32"], &["s32"], "")
        .pre("G_SET_FPMODE %0(s32)")
        .post("%r0:_(s32) = G_GET_FPMODE"),
];
