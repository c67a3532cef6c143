//! `G_IS_FPCLASS` as integer tests on the value's bits (LLVM's
//! `lowerISFPCLASS`): the classes of the mask are tested from the widest
//! groups (finite, zero-or-subnormal) to the single ones, each test OR'ed
//! into the result.

use super::{Helper, StepResult, cst, cst_ap, done, icmp, op, op_into, unable};
use crate::apint::ApInt;
use crate::ir::{Inst, IntPredicate, Operand, VReg};
use crate::opcode::Opcode::*;
use crate::ty::Llt;

/// The bits of an `FPClassTest` mask (LLVM's `fcSNan` ... `fcPosInf`).
mod class {
    pub const SNAN: i64 = 1 << 0;
    pub const QNAN: i64 = 1 << 1;
    pub const NEG_INF: i64 = 1 << 2;
    pub const NEG_NORMAL: i64 = 1 << 3;
    pub const NEG_SUBNORMAL: i64 = 1 << 4;
    pub const NEG_ZERO: i64 = 1 << 5;
    pub const POS_ZERO: i64 = 1 << 6;
    pub const POS_SUBNORMAL: i64 = 1 << 7;
    pub const POS_NORMAL: i64 = 1 << 8;
    pub const POS_INF: i64 = 1 << 9;
    pub const NAN: i64 = SNAN | QNAN;
    pub const INF: i64 = NEG_INF | POS_INF;
    pub const NORMAL: i64 = NEG_NORMAL | POS_NORMAL;
    pub const SUBNORMAL: i64 = NEG_SUBNORMAL | POS_SUBNORMAL;
    pub const ZERO: i64 = NEG_ZERO | POS_ZERO;
    pub const POS_FINITE: i64 = POS_NORMAL | POS_SUBNORMAL | POS_ZERO;
    pub const NEG_FINITE: i64 = NEG_NORMAL | NEG_SUBNORMAL | NEG_ZERO;
    pub const FINITE: i64 = POS_FINITE | NEG_FINITE;
    pub const ALL: i64 = NAN | INF | FINITE;
}

/// The IEEE layout of a float of `bits` bits: exponent and mantissa widths.
fn layout(bits: u32) -> Option<(u32, u32)> {
    match bits {
        16 => Some((5, 10)),
        32 => Some((8, 23)),
        64 => Some((11, 52)),
        128 => Some((15, 112)),
        _ => None,
    }
}

/// `G_CONSTANT` `value` defining `dst` (a splat of it for a vector).
fn constant_into(h: &mut Helper<'_>, dst: VReg, value: bool) {
    let ty = h.func.ty(dst);
    let element = ApInt::from_u128(ty.scalar_size_in_bits(), u128::from(value));
    if ty.is_vector() {
        let scalar = cst_ap(h, ty.element_type(), element);
        let elements = vec![scalar; ty.num_elements() as usize];
        op_into(h, G_BUILD_VECTOR, dst, &elements);
    } else {
        h.build_with(G_CONSTANT, &[dst], [Operand::cimm(element)]);
    }
}

/// Lowers `G_IS_FPCLASS %dst, %src, mask`.
pub(super) fn lower(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let Some(Operand::Imm(mask)) = h.func.inst(inst).operands.get(2).cloned() else {
        return unable(G_IS_FPCLASS, "no class mask");
    };
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    let mut mask = mask & class::ALL;
    if mask == 0 || mask == class::ALL {
        constant_into(h, dst, mask != 0);
        return done(h, inst);
    }
    let bits = src_ty.scalar_size_in_bits();
    let Some((exponent_bits, mantissa_bits)) = layout(bits) else {
        return unable(G_IS_FPCLASS, "not an IEEE half, float, double or quad");
    };
    let int_ty = if src_ty.is_vector() { src_ty.change_element_type(Llt::scalar(bits)) } else { Llt::scalar(bits) };
    let ones = |n: u32| ApInt::all_ones(n).zext_or_trunc(bits);
    let sign_bit = ApInt::from_u128(bits, 1).shl(bits - 1);
    let inf = ones(exponent_bits).shl(mantissa_bits);
    let mantissa = ones(mantissa_bits);
    let quiet_bit = ApInt::from_u128(bits, 1).shl(mantissa_bits - 1);
    let exponent_lsb = ApInt::from_u128(bits, 1).shl(mantissa_bits);

    let as_int = op(h, COPY, int_ty, &[src]);
    let sign_bit_c = cst_ap(h, int_ty, sign_bit.clone());
    let value_mask_c = cst_ap(h, int_ty, ones(bits - 1));
    let inf_c = cst_ap(h, int_ty, inf.clone());
    let exp_mask_c = cst_ap(h, int_ty, inf.clone());
    let zero_c = cst(h, int_ty, 0);
    let abs = op(h, G_AND, int_ty, &[as_int, value_mask_c]);
    let sign = icmp(h, IntPredicate::Ne, dst_ty, as_int, abs);
    let mut result = cst(h, dst_ty, 0);
    let mut append = |h: &mut Helper<'_>, test| result = op(h, G_OR, dst_ty, &[result, test]);

    match mask & class::FINITE {
        class::FINITE => {
            let test = icmp(h, IntPredicate::Ult, dst_ty, abs, exp_mask_c);
            append(h, test);
            mask &= !class::FINITE;
        }
        class::POS_FINITE => {
            let test = icmp(h, IntPredicate::Ult, dst_ty, as_int, exp_mask_c);
            append(h, test);
            mask &= !class::POS_FINITE;
        }
        class::NEG_FINITE => {
            let finite = icmp(h, IntPredicate::Ult, dst_ty, abs, exp_mask_c);
            let test = op(h, G_AND, dst_ty, &[finite, sign]);
            append(h, test);
            mask &= !class::NEG_FINITE;
        }
        _ => {}
    }
    if mask & (class::ZERO | class::SUBNORMAL) == class::ZERO | class::SUBNORMAL {
        let exponent = op(h, G_AND, int_ty, &[as_int, exp_mask_c]);
        let test = icmp(h, IntPredicate::Eq, dst_ty, exponent, zero_c);
        append(h, test);
        mask &= !(class::ZERO | class::SUBNORMAL);
    }
    match mask & class::ZERO {
        0 => {}
        class::POS_ZERO => {
            let test = icmp(h, IntPredicate::Eq, dst_ty, as_int, zero_c);
            append(h, test);
        }
        class::ZERO => {
            let test = icmp(h, IntPredicate::Eq, dst_ty, abs, zero_c);
            append(h, test);
        }
        _ => {
            let test = icmp(h, IntPredicate::Eq, dst_ty, as_int, sign_bit_c);
            append(h, test);
        }
    }
    let subnormal = mask & class::SUBNORMAL;
    if subnormal != 0 {
        // Subnormal: the magnitude minus one is below the all-ones mantissa.
        let value = if subnormal == class::POS_SUBNORMAL { as_int } else { abs };
        let one = cst(h, int_ty, 1);
        let minus_one = op(h, G_SUB, int_ty, &[value, one]);
        let all_ones_mantissa = cst_ap(h, int_ty, mantissa);
        let mut test = icmp(h, IntPredicate::Ult, dst_ty, minus_one, all_ones_mantissa);
        if subnormal == class::NEG_SUBNORMAL {
            test = op(h, G_AND, dst_ty, &[test, sign]);
        }
        append(h, test);
    }
    match mask & class::INF {
        0 => {}
        class::POS_INF => {
            let test = icmp(h, IntPredicate::Eq, dst_ty, as_int, inf_c);
            append(h, test);
        }
        class::INF => {
            let test = icmp(h, IntPredicate::Eq, dst_ty, abs, inf_c);
            append(h, test);
        }
        _ => {
            let negative_inf = cst_ap(h, int_ty, inf.or(&sign_bit));
            let test = icmp(h, IntPredicate::Eq, dst_ty, as_int, negative_inf);
            append(h, test);
        }
    }
    let nan = mask & class::NAN;
    if nan != 0 {
        let quiet_threshold = cst_ap(h, int_ty, inf.or(&quiet_bit));
        let test = match nan {
            class::NAN => icmp(h, IntPredicate::Ugt, dst_ty, abs, inf_c),
            class::QNAN => icmp(h, IntPredicate::Uge, dst_ty, abs, quiet_threshold),
            _ => {
                let is_nan = icmp(h, IntPredicate::Ugt, dst_ty, abs, inf_c);
                let not_quiet = icmp(h, IntPredicate::Ult, dst_ty, abs, quiet_threshold);
                op(h, G_AND, dst_ty, &[is_nan, not_quiet])
            }
        };
        append(h, test);
    }
    let normal = mask & class::NORMAL;
    if normal != 0 {
        // Normal: the biased exponent minus one is below its maximum minus one.
        let lsb = cst_ap(h, int_ty, exponent_lsb.clone());
        let exponent_minus_one = op(h, G_SUB, int_ty, &[abs, lsb]);
        let limit = cst_ap(h, int_ty, inf.sub(&exponent_lsb));
        let mut test = icmp(h, IntPredicate::Ult, dst_ty, exponent_minus_one, limit);
        if normal == class::NEG_NORMAL {
            test = op(h, G_AND, dst_ty, &[test, sign]);
        } else if normal == class::POS_NORMAL {
            let all_ones = cst(h, dst_ty, -1);
            let positive = op(h, G_XOR, dst_ty, &[sign, all_ones]);
            test = op(h, G_AND, dst_ty, &[test, positive]);
        }
        append(h, test);
    }
    op_into(h, COPY, dst, &[result]);
    done(h, inst)
}
