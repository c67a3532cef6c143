//! Conversions between floating point and integers: saturating
//! float-to-integer conversions as a plain conversion clamped by compares
//! and selects (LLVM's `lowerFPTOINT_SAT`), and integer-to-float
//! conversions of booleans and of 64-bit integers to half.

use super::{Helper, StepResult, build_fconstant, cst_ap, done, fcmp, op, op_flags, op_into, regs, unable};
use crate::apint::ApInt;
use crate::ir::{FloatPredicate, FpConst, FpKind, Inst, InstFlags, VReg};
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
    unable(opcode, "only booleans and 64-bit integers to half are expanded")
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
