//! Conversions between floating point and integers: saturating
//! float-to-integer conversions as a plain conversion clamped by compares
//! and selects (LLVM's `lowerFPTOINT_SAT`), and integer-to-float
//! conversions of booleans and of 64-bit integers to half; unsigned
//! conversions through signed ones (LLVM's `lowerFPTOUI`, `lowerUITOFP`).

use super::{Helper, StepResult, build_fconstant, cst, cst_ap, done, fcmp, icmp, op, op_flags, op_into, regs, unable};
use crate::apint::ApInt;
use crate::ir::{FloatPredicate, FpConst, FpKind, Inst, InstFlags, IntPredicate, VReg};
use crate::opcode::Opcode::{self, *};
use crate::ty::Llt;

/// Lowers the conversion `opcode`.
pub(super) fn lower(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    let Some(r) = regs(h, inst, 2) else {
        return unable(opcode, "operands must be virtual registers");
    };
    match opcode {
        G_FPTOSI_SAT | G_FPTOUI_SAT => saturating(h, inst, opcode == G_FPTOSI_SAT, r[0], r[1]),
        G_SITOFP | G_UITOFP => int_to_float(h, inst, opcode, r[0], r[1]),
        G_FPTOUI => float_to_unsigned(h, inst, r[0], r[1]),
        _ => unable(opcode, "not a conversion"),
    }
}

/// `G_SITOFP`/`G_UITOFP`: of a boolean, a select of -1.0 (signed) or 1.0
/// and 0.0; of 64-bit integers to half, a conversion to double then
/// truncations to float and to half.
fn int_to_float(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, dst: VReg, src: VReg) -> StepResult {
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    if src_ty == Llt::scalar(1) {
        let Some(format) = Format::of(dst_ty.scalar_size_in_bits()) else {
            return unable(opcode, "not an IEEE result type");
        };
        let true_value = if opcode == G_SITOFP { -1.0 } else { 1.0 };
        let on = build_fconstant(h, dst_ty, FpConst::from_f64(format.kind, true_value).expect("an IEEE format"));
        let off = build_fconstant(h, dst_ty, FpConst::from_f64(format.kind, 0.0).expect("an IEEE format"));
        op_into(h, G_SELECT, dst, &[src, on, off]);
        return done(h, inst);
    }
    if dst_ty.scalar_size_in_bits() == 16 && src_ty.scalar_size_in_bits() == 64 {
        // Through double and float: every integer a half can hold finitely
        // is exact in both, so only the last step rounds.
        let double = op(h, opcode, src_ty, &[src]);
        let float = op(h, G_FPTRUNC, src_ty.change_element_size(32), &[double]);
        op_into(h, G_FPTRUNC, dst, &[float]);
        return done(h, inst);
    }
    match (opcode, src_ty.size_in_bits(), dst_ty) {
        (G_UITOFP, 64, ty) if ty == Llt::scalar(32) => u64_to_float(h, inst, dst, src),
        (G_UITOFP, 64, ty) if ty == Llt::scalar(64) => u64_to_double(h, inst, dst, src),
        _ => unable(opcode, "only booleans, 64-bit integers to half and unsigned 64-bit integers are expanded"),
    }
}

/// `G_UITOFP` s64 to s32 (`lowerU64ToF32WithSITOFP`): a signed conversion
/// when the sign bit is clear; otherwise the value halved (keeping the low
/// bit for rounding), converted and doubled.
fn u64_to_float(h: &mut Helper<'_>, inst: Inst, dst: VReg, src: VReg) -> StepResult {
    let (s64, s32) = (Llt::scalar(64), Llt::scalar(32));
    let one = cst(h, s64, 1);
    let zero = cst(h, s64, 0);
    let small = op(h, G_SITOFP, s32, &[src]);
    let halved = op(h, G_LSHR, s64, &[src, one]);
    let low_bit = op(h, G_AND, s64, &[src, one]);
    let rounded = op(h, G_OR, s64, &[halved, low_bit]);
    let halved_fp = op(h, G_SITOFP, s32, &[rounded]);
    let large = op(h, G_FADD, s32, &[halved_fp, halved_fp]);
    let is_large = icmp(h, IntPredicate::Slt, Llt::scalar(1), src, zero);
    op_into(h, G_SELECT, dst, &[is_large, large, small]);
    done(h, inst)
}

/// `G_UITOFP` s64 to s64 (`lowerU64ToF64BitFloatOps`): the 32-bit halves
/// placed in the mantissas of 2^52 and 2^84, subtracted and added.
fn u64_to_double(h: &mut Helper<'_>, inst: Inst, dst: VReg, src: VReg) -> StepResult {
    let s64 = Llt::scalar(64);
    let two_p52 = cst(h, s64, 0x4330_0000_0000_0000);
    let two_p84 = cst(h, s64, 0x4530_0000_0000_0000);
    let bias = FpConst::from_f64(FpKind::Double, f64::from_bits(0x4530_0000_0010_0000)).expect("a double");
    let bias = build_fconstant(h, s64, bias);
    let half_width = cst(h, s64, 32);
    let low = op(h, G_TRUNC, Llt::scalar(32), &[src]);
    let low = op(h, G_ZEXT, s64, &[low]);
    let low_fp = op(h, G_OR, s64, &[two_p52, low]);
    let high = op(h, G_LSHR, s64, &[src, half_width]);
    let high_fp = op(h, G_OR, s64, &[two_p84, high]);
    let scratch = op(h, G_FSUB, s64, &[high_fp, bias]);
    op_into(h, G_FADD, dst, &[scratch, low_fp]);
    done(h, inst)
}

/// `G_FPTOUI` from s32/s64 to s32/s64 (`lowerFPTOUI`): a signed conversion
/// below 2^(bits-1); at or above it, the signed conversion of the value
/// less 2^(bits-1) with the top bit set.
fn float_to_unsigned(h: &mut Helper<'_>, inst: Inst, dst: VReg, src: VReg) -> StepResult {
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    let kind = match src_ty.size_in_bits() {
        32 if src_ty.is_scalar() => FpKind::Float,
        64 if src_ty.is_scalar() => FpKind::Double,
        _ => return unable(G_FPTOUI, "only float and double sources are expanded"),
    };
    if dst_ty != Llt::scalar(32) && dst_ty != Llt::scalar(64) {
        return unable(G_FPTOUI, "only 32- and 64-bit results are expanded");
    }
    let bits = dst_ty.size_in_bits() as u32;
    let signed = op(h, G_FPTOSI, dst_ty, &[src]);
    let two_p_exp = FpConst::from_f64(kind, 2f64.powi(bits as i32 - 1)).expect("a power of two");
    let threshold = build_fconstant(h, src_ty, two_p_exp);
    let reduced = op(h, G_FSUB, src_ty, &[src, threshold]);
    let low_bits = op(h, G_FPTOSI, dst_ty, &[reduced]);
    let high_bit = cst_ap(h, dst_ty, ApInt::signed_min(bits));
    let large = op(h, G_XOR, dst_ty, &[low_bits, high_bit]);
    let small = fcmp(h, FloatPredicate::Ult, Llt::scalar(1), src, threshold, InstFlags::default());
    op_into(h, G_SELECT, dst, &[small, signed, large]);
    done(h, inst)
}

/// `G_FPTOSI_SAT`/`G_FPTOUI_SAT` (LLVM's `lowerFPTOINT_SAT`). When the
/// integer bounds are exact in the float format, the source is clamped to
/// them and converted (a NaN clamps to the lower bound, and a signed
/// conversion then selects 0 for it); otherwise the plain conversion is
/// replaced by the bounds when the source compares beyond them.
fn saturating(h: &mut Helper<'_>, inst: Inst, signed: bool, dst: VReg, src: VReg) -> StepResult {
    let opcode = if signed { G_FPTOSI_SAT } else { G_FPTOUI_SAT };
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    let width = dst_ty.scalar_size_in_bits();
    let (min_int, max_int) = if signed {
        (ApInt::signed_min(width), ApInt::signed_max(width))
    } else {
        (ApInt::from_u128(width, 0), ApInt::all_ones(width))
    };
    let Some(format) = Format::of(src_ty.scalar_size_in_bits()) else {
        return unable(opcode, "not an IEEE source type");
    };
    let (min_float, min_exact) = format.round_int_toward_zero(&min_int, signed);
    let (max_float, max_exact) = format.round_int_toward_zero(&max_int, signed);
    let src_cond = src_ty.change_element_size(1);
    let dst_cond = dst_ty.change_element_size(1);
    let plain = if signed { G_FPTOSI } else { G_FPTOUI };
    if min_exact && max_exact {
        let lower = float_constant(h, src_ty, min_float);
        let above = fcmp(h, FloatPredicate::Ogt, src_cond, src, lower, InstFlags::default());
        let clamped_low = op(h, G_SELECT, src_ty, &[above, src, lower]);
        let upper = float_constant(h, src_ty, max_float);
        let below = fcmp(h, FloatPredicate::Olt, src_cond, clamped_low, upper, InstFlags::NNAN);
        let clamped = op_flags(h, G_SELECT, src_ty, &[below, clamped_low, upper], InstFlags::NNAN);
        if !signed {
            op_into(h, plain, dst, &[clamped]);
            return done(h, inst);
        }
        let converted = op(h, plain, dst_ty, &[clamped]);
        let nan = fcmp(h, FloatPredicate::Uno, dst_cond, src, src, InstFlags::default());
        let zero = cst_ap(h, dst_ty, ApInt::from_u128(width, 0));
        op_into(h, G_SELECT, dst, &[nan, zero, converted]);
        return done(h, inst);
    }
    let converted = op(h, plain, dst_ty, &[src]);
    let lower = float_constant(h, src_ty, min_float);
    let below = fcmp(h, FloatPredicate::Ult, src_cond, src, lower, InstFlags::default());
    let min_reg = cst_ap(h, dst_ty, min_int);
    let clamped_low = op(h, G_SELECT, dst_ty, &[below, min_reg, converted]);
    let upper = float_constant(h, src_ty, max_float);
    let above = fcmp(h, FloatPredicate::Ogt, src_cond, src, upper, InstFlags::default());
    let max_reg = cst_ap(h, dst_ty, max_int);
    if !signed {
        op_into(h, G_SELECT, dst, &[above, max_reg, clamped_low]);
        return done(h, inst);
    }
    let clamped = op(h, G_SELECT, dst_ty, &[above, max_reg, clamped_low]);
    let nan = fcmp(h, FloatPredicate::Uno, dst_cond, src, src, InstFlags::default());
    let zero = cst_ap(h, dst_ty, ApInt::from_u128(width, 0));
    op_into(h, G_SELECT, dst, &[nan, zero, clamped]);
    done(h, inst)
}

/// An IEEE binary format by its width.
#[derive(Clone, Copy)]
struct Format {
    kind: FpKind,
    exponent_bits: u32,
    mantissa_bits: u32,
}

impl Format {
    /// Half, float, double or quad.
    fn of(bits: u32) -> Option<Format> {
        let (kind, exponent_bits, mantissa_bits) = match bits {
            16 => (FpKind::Half, 5, 10),
            32 => (FpKind::Float, 8, 23),
            64 => (FpKind::Double, 11, 52),
            128 => (FpKind::Fp128, 15, 112),
            _ => return None,
        };
        Some(Format { kind, exponent_bits, mantissa_bits })
    }

    /// The IEEE bits of `value` (signed or unsigned) rounded toward zero,
    /// saturating at the largest finite value, and whether it was exact.
    fn round_int_toward_zero(self, value: &ApInt, signed: bool) -> (u128, bool) {
        let negative = signed && value.is_negative();
        let magnitude = if negative { ApInt::zero(value.bits()).sub(value) } else { value.clone() };
        let sign = u128::from(negative) << (self.exponent_bits + self.mantissa_bits);
        if magnitude.is_zero() {
            return (sign, true);
        }
        let length = magnitude.bits() - magnitude.leading_zeros();
        let exponent = length - 1;
        let bias = (1u32 << (self.exponent_bits - 1)) - 1;
        if exponent > bias {
            let largest = ((u128::from(2 * bias) << self.mantissa_bits) | ((1u128 << self.mantissa_bits) - 1)) | sign;
            return (largest, false);
        }
        let precision = self.mantissa_bits + 1;
        let (significand, exact) = if length > precision {
            let dropped = length - precision;
            let kept = magnitude.lshr(dropped);
            (kept.to_u128().expect("at most 113 bits"), kept.shl(dropped) == magnitude)
        } else {
            (magnitude.to_u128().expect("at most 113 bits") << (precision - length), true)
        };
        let fraction = significand & ((1u128 << self.mantissa_bits) - 1);
        (sign | (u128::from(exponent + bias) << self.mantissa_bits) | fraction, exact)
    }
}

/// `G_FCONSTANT` of `ty` with the IEEE bits `bits` (splatted for vectors).
fn float_constant(h: &mut Helper<'_>, ty: Llt, bits: u128) -> VReg {
    let format = Format::of(ty.scalar_size_in_bits()).expect("an IEEE type");
    // LLVM spells an fp128 constant low half first.
    let bits = if format.kind == FpKind::Fp128 { bits.rotate_right(64) } else { bits };
    build_fconstant(h, ty, FpConst { kind: format.kind, bits })
}
