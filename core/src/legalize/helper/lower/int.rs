//! Integer lowerings: remainders and divrem, overflow-reporting add/sub/mul,
//! high multiplies, min/max, three-way compares, absolute value and
//! difference, saturating arithmetic.

use super::{
    Helper, StepResult, action, bool_ext_op, changed, clone_reg, copy_into, cst, cst_ap, done, icmp, icmp_into,
    legal_or_custom, not, op, op_into, regs, select, unable,
};
use crate::apint::ApInt;
use crate::ir::{Inst, InstOpcode, IntPredicate, VReg};
use crate::legality::LegalizeAction;
use crate::legalize::target::BooleanContent;
use crate::opcode::Opcode::{self, *};
use crate::ty::Llt;

/// Lowers the integer opcodes.
pub(super) fn lower(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    let defs = usize::from(h.func.inst(inst).num_defs);
    let count = h.func.inst(inst).operands.len();
    let Some(r) = regs(h, inst, count) else {
        return unable(opcode, "operands must be virtual registers");
    };
    match (opcode, defs, count) {
        (G_SREM | G_UREM, 1, 3) => rem(h, inst, opcode, &r),
        (G_SDIVREM | G_UDIVREM, 2, 4) => divrem(h, inst, opcode, &r),
        (G_SADDO | G_SSUBO, 2, 4) => saddo_ssubo(h, inst, opcode == G_SADDO, &r),
        (G_UADDO, 2, 4) => uaddo(h, inst, &r),
        (G_USUBO, 2, 4) => {
            op_into(h, G_SUB, r[0], &[r[2], r[3]]);
            icmp_into(h, IntPredicate::Ult, r[1], r[2], r[3]);
            done(h, inst)
        }
        (G_UADDE, 2, 5) => uadde(h, inst, &r),
        (G_USUBE, 2, 5) => usube(h, inst, &r),
        (G_SADDE, 2, 5) => sadde(h, inst, &r),
        (G_SSUBE, 2, 5) => ssube(h, inst, &r),
        (G_SMULO | G_UMULO, 2, 4) => mulo(h, inst, opcode == G_SMULO, &r),
        (G_SMULH | G_UMULH, 1, 3) => mulh(h, inst, opcode == G_SMULH, &r),
        (G_SMIN | G_SMAX | G_UMIN | G_UMAX, 1, 3) => {
            let cmp_ty = h.func.ty(r[0]).change_element_size(1);
            let cmp = icmp(h, min_max_predicate(opcode), cmp_ty, r[1], r[2]);
            op_into(h, G_SELECT, r[0], &[cmp, r[1], r[2]]);
            done(h, inst)
        }
        (G_SCMP | G_UCMP, 1, 3) => three_way(h, inst, opcode == G_SCMP, &r),
        (G_ABS, 1, 2) => {
            let ty = h.func.ty(r[0]);
            let amount = cst(h, ty, i128::from(ty.scalar_size_in_bits()) - 1);
            let sign = op(h, G_ASHR, ty, &[r[1], amount]);
            let sum = op(h, G_ADD, ty, &[r[1], sign]);
            op_into(h, G_XOR, r[0], &[sum, sign]);
            done(h, inst)
        }
        (G_ABDS | G_ABDU, 1, 3) => abd(h, inst, opcode == G_ABDS, &r),
        (G_UADDSAT | G_USUBSAT, 1, 3) => {
            let ty = h.func.ty(r[0]);
            if legal_or_custom(h, G_UMIN, &[ty]) {
                sat_min_max(h, inst, opcode, &r)
            } else {
                sat_overflow(h, inst, opcode, &r)
            }
        }
        (G_SADDSAT | G_SSUBSAT, 1, 3) => {
            let ty = h.func.ty(r[0]);
            if legal_or_custom(h, G_SMIN, &[ty]) && legal_or_custom(h, G_SMAX, &[ty]) {
                sat_min_max(h, inst, opcode, &r)
            } else {
                sat_overflow(h, inst, opcode, &r)
            }
        }
        (G_SSHLSAT | G_USHLSAT, 1, 3) => shl_sat(h, inst, opcode == G_SSHLSAT, &r),
        _ => unable(opcode, "unexpected operand layout"),
    }
}

fn min_max_predicate(opcode: Opcode) -> IntPredicate {
    match opcode {
        G_SMIN => IntPredicate::Slt,
        G_SMAX => IntPredicate::Sgt,
        G_UMIN => IntPredicate::Ult,
        _ => IntPredicate::Ugt,
    }
}

/// `a - (a / b) * b`.
fn rem(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, r: &[VReg]) -> StepResult {
    let ty = h.func.ty(r[0]);
    let div = if opcode == G_SREM { G_SDIV } else { G_UDIV };
    let quotient = op(h, div, ty, &[r[1], r[2]]);
    let product = op(h, G_MUL, ty, &[quotient, r[2]]);
    op_into(h, G_SUB, r[0], &[r[1], product]);
    done(h, inst)
}

/// A division and a remainder.
fn divrem(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, r: &[VReg]) -> StepResult {
    let (div, rem) = if opcode == G_SDIVREM { (G_SDIV, G_SREM) } else { (G_UDIV, G_UREM) };
    op_into(h, div, r[0], &[r[2], r[3]]);
    op_into(h, rem, r[1], &[r[2], r[3]]);
    done(h, inst)
}

/// Signed overflow: the result is below the lhs exactly when the rhs is
/// negative (add) or positive (sub).
fn saddo_ssubo(h: &mut Helper<'_>, inst: Inst, is_add: bool, r: &[VReg]) -> StepResult {
    let (dst, overflow, lhs, rhs) = (r[0], r[1], r[2], r[3]);
    let ty = h.func.ty(dst);
    let bool_ty = h.func.ty(overflow);
    let result = clone_reg(h, dst);
    op_into(h, if is_add { G_ADD } else { G_SUB }, result, &[lhs, rhs]);
    let zero = cst(h, ty, 0);
    let below_lhs = icmp(h, IntPredicate::Slt, bool_ty, result, lhs);
    let rhs_pred = if is_add { IntPredicate::Slt } else { IntPredicate::Sgt };
    let rhs_cond = icmp(h, rhs_pred, bool_ty, rhs, zero);
    op_into(h, G_XOR, overflow, &[rhs_cond, below_lhs]);
    copy_into(h, dst, result);
    done(h, inst)
}

fn uaddo(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let result = clone_reg(h, r[0]);
    op_into(h, G_ADD, result, &[r[2], r[3]]);
    icmp_into(h, IntPredicate::Ult, r[1], result, r[3]);
    copy_into(h, r[0], result);
    done(h, inst)
}

/// Carry out of `lhs + rhs + cin`: the first add carries, or the sum is
/// zero after adding a set carry.
fn uadde(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst, carry_out, lhs, rhs, carry_in) = (r[0], r[1], r[2], r[3], r[4]);
    let (ty, cond_ty) = (h.func.ty(dst), h.func.ty(carry_out));
    let result = clone_reg(h, dst);
    let sum = op(h, G_ADD, ty, &[lhs, rhs]);
    let carry = icmp(h, IntPredicate::Ult, cond_ty, sum, lhs);
    let carry_ext = op(h, G_ZEXT, ty, &[carry_in]);
    op_into(h, G_ADD, result, &[sum, carry_ext]);
    let zero = cst(h, ty, 0);
    let is_zero = icmp(h, IntPredicate::Eq, cond_ty, result, zero);
    let carry2 = op(h, G_AND, cond_ty, &[is_zero, carry_in]);
    op_into(h, G_OR, carry_out, &[carry, carry2]);
    copy_into(h, dst, result);
    done(h, inst)
}

/// Borrow out of `lhs - rhs - bin`.
fn usube(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst, borrow_out, lhs, rhs, borrow_in) = (r[0], r[1], r[2], r[3], r[4]);
    let (ty, cond_ty) = (h.func.ty(dst), h.func.ty(borrow_out));
    let diff = op(h, G_SUB, ty, &[lhs, rhs]);
    let borrow = icmp(h, IntPredicate::Ugt, cond_ty, diff, lhs);
    let borrow_ext = op(h, G_ZEXT, ty, &[borrow_in]);
    op_into(h, G_SUB, dst, &[diff, borrow_ext]);
    let zero = cst(h, ty, 0);
    let is_zero = icmp(h, IntPredicate::Eq, cond_ty, diff, zero);
    let borrow2 = op(h, G_AND, cond_ty, &[is_zero, borrow_in]);
    op_into(h, G_OR, borrow_out, &[borrow, borrow2]);
    done(h, inst)
}

/// Signed overflow of `lhs + rhs + cin`: both operands differ in sign from
/// the sum.
fn sadde(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst, overflow, lhs, rhs, carry_in) = (r[0], r[1], r[2], r[3], r[4]);
    let ty = h.func.ty(dst);
    let partial = op(h, G_ADD, ty, &[lhs, rhs]);
    let carry_ext = op(h, G_ZEXT, ty, &[carry_in]);
    let sum = op(h, G_ADD, ty, &[partial, carry_ext]);
    copy_into(h, dst, sum);
    let lhs_diff = op(h, G_XOR, ty, &[sum, lhs]);
    let rhs_diff = op(h, G_XOR, ty, &[sum, rhs]);
    sign_test(h, overflow, ty, lhs_diff, rhs_diff);
    done(h, inst)
}

/// Signed overflow of `lhs - (rhs + bin)`: the operands differ in sign and
/// the difference differs from the lhs.
fn ssube(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst, overflow, lhs, rhs, borrow_in) = (r[0], r[1], r[2], r[3], r[4]);
    let ty = h.func.ty(dst);
    let borrow_ext = op(h, G_ZEXT, ty, &[borrow_in]);
    let subtrahend = op(h, G_ADD, ty, &[rhs, borrow_ext]);
    let diff = op(h, G_SUB, ty, &[lhs, subtrahend]);
    copy_into(h, dst, diff);
    let operands_differ = op(h, G_XOR, ty, &[lhs, rhs]);
    let result_differs = op(h, G_XOR, ty, &[lhs, diff]);
    sign_test(h, overflow, ty, operands_differ, result_differs);
    done(h, inst)
}

/// `overflow = (a & b) <s 0`.
fn sign_test(h: &mut Helper<'_>, overflow: VReg, ty: Llt, a: VReg, b: VReg) {
    let both = op(h, G_AND, ty, &[a, b]);
    let zero = cst(h, ty, 0);
    icmp_into(h, IntPredicate::Slt, overflow, both, zero);
}

/// The instruction becomes a `G_MUL` in place; the high half, built before
/// it, must be zero (unsigned) or the sign of the low half (signed).
fn mulo(h: &mut Helper<'_>, inst: Inst, signed: bool, r: &[VReg]) -> StepResult {
    let (dst, overflow, lhs, rhs) = (r[0], r[1], r[2], r[3]);
    let ty = h.func.ty(dst);
    h.func.modify(inst, |d| {
        d.opcode = InstOpcode::Known(G_MUL);
        d.operands.remove(1);
        d.num_defs = 1;
    });
    let high = op(h, if signed { G_SMULH } else { G_UMULH }, ty, &[lhs, rhs]);
    let zero = cst(h, ty, 0);
    h.set_insert_before(inst);
    h.advance_insert_point();
    if signed {
        let amount = cst(h, ty, i128::from(ty.scalar_size_in_bits()) - 1);
        let sign = op(h, G_ASHR, ty, &[dst, amount]);
        icmp_into(h, IntPredicate::Ne, overflow, high, sign);
    } else {
        icmp_into(h, IntPredicate::Ne, overflow, high, zero);
    }
    changed(h, inst)
}

/// The high half of the double-width product.
fn mulh(h: &mut Helper<'_>, inst: Inst, signed: bool, r: &[VReg]) -> StepResult {
    let ty = h.func.ty(r[0]);
    let bits = ty.scalar_size_in_bits();
    let wide = ty.change_element_size(bits * 2);
    let ext = if signed { G_SEXT } else { G_ZEXT };
    let lhs = op(h, ext, wide, &[r[1]]);
    let rhs = op(h, ext, wide, &[r[2]]);
    let product = op(h, G_MUL, wide, &[lhs, rhs]);
    let amount = cst(h, wide, i128::from(bits));
    let high = op(h, if signed { G_ASHR } else { G_LSHR }, wide, &[product, amount]);
    op_into(h, G_TRUNC, r[0], &[high]);
    done(h, inst)
}

/// `-1/0/1` from two compares: selects when the target prefers them for
/// the operand type or booleans are undefined, otherwise the difference of
/// the extended compares.
fn three_way(h: &mut Helper<'_>, inst: Inst, signed: bool, r: &[VReg]) -> StepResult {
    let dst_ty = h.func.ty(r[0]);
    let cmp_ty = dst_ty.change_element_size(1);
    let (lt, gt) = if signed { (IntPredicate::Slt, IntPredicate::Sgt) } else { (IntPredicate::Ult, IntPredicate::Ugt) };
    let zero = cst(h, dst_ty, 0);
    let mut is_gt = icmp(h, gt, cmp_ty, r[1], r[2]);
    let mut is_lt = icmp(h, lt, cmp_ty, r[1], r[2]);
    let content = h.target.boolean_content(dst_ty.is_vector());
    let src_ty = h.func.ty(r[1]);
    if h.target.prefer_selects_over_boolean_arithmetic(src_ty) || content == BooleanContent::Undefined {
        let one = cst(h, dst_ty, 1);
        let zero_or_one = select(h, dst_ty, is_gt, one, zero);
        let minus_one = cst(h, dst_ty, -1);
        op_into(h, G_SELECT, r[0], &[is_lt, minus_one, zero_or_one]);
    } else {
        if content == BooleanContent::ZeroOrNegativeOne {
            std::mem::swap(&mut is_gt, &mut is_lt);
        }
        let ext = bool_ext_op(h, dst_ty.is_vector());
        let gt_ext = op(h, ext, dst_ty, &[is_gt]);
        let lt_ext = op(h, ext, dst_ty, &[is_lt]);
        op_into(h, G_SUB, r[0], &[gt_ext, lt_ext]);
    }
    done(h, inst)
}

/// `max - min` when both are legal, else `a > b ? a - b : b - a`.
fn abd(h: &mut Helper<'_>, inst: Inst, signed: bool, r: &[VReg]) -> StepResult {
    let ty = h.func.ty(r[0]);
    let (min, max) = if signed { (G_SMIN, G_SMAX) } else { (G_UMIN, G_UMAX) };
    let legal = |h: &Helper<'_>, opcode| action(h, opcode, &[ty]) == LegalizeAction::Legal;
    if legal(h, min) && legal(h, max) {
        let larger = op(h, max, ty, &[r[1], r[2]]);
        let smaller = op(h, min, ty, &[r[1], r[2]]);
        op_into(h, G_SUB, r[0], &[larger, smaller]);
        return done(h, inst);
    }
    let forward = op(h, G_SUB, ty, &[r[1], r[2]]);
    let backward = op(h, G_SUB, ty, &[r[2], r[1]]);
    let pred = if signed { IntPredicate::Sgt } else { IntPredicate::Ugt };
    let cmp = icmp(h, pred, ty.change_element_size(1), r[1], r[2]);
    op_into(h, G_SELECT, r[0], &[cmp, forward, backward]);
    done(h, inst)
}

/// Saturation through min/max: unsigned `a + umin(~a, b)` / `a - umin(a, b)`;
/// signed clamps the rhs into the range that cannot overflow.
fn sat_min_max(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, r: &[VReg]) -> StepResult {
    let (dst, lhs, rhs) = (r[0], r[1], r[2]);
    let ty = h.func.ty(dst);
    let is_add = matches!(opcode, G_UADDSAT | G_SADDSAT);
    let base = if is_add { G_ADD } else { G_SUB };
    if matches!(opcode, G_SADDSAT | G_SSUBSAT) {
        let bits = ty.scalar_size_in_bits();
        let max_val = cst_ap(h, ty, ApInt::signed_max(bits));
        let min_val = cst_ap(h, ty, ApInt::signed_min(bits));
        let (lo, hi) = if is_add {
            let zero = cst(h, ty, 0);
            let lhs_max = op(h, G_SMAX, ty, &[lhs, zero]);
            let hi = op(h, G_SUB, ty, &[max_val, lhs_max]);
            let lhs_min = op(h, G_SMIN, ty, &[lhs, zero]);
            let lo = op(h, G_SUB, ty, &[min_val, lhs_min]);
            (lo, hi)
        } else {
            let minus_one = cst(h, ty, -1);
            let lhs_max = op(h, G_SMAX, ty, &[lhs, minus_one]);
            let lo = op(h, G_SUB, ty, &[lhs_max, max_val]);
            let lhs_min = op(h, G_SMIN, ty, &[lhs, minus_one]);
            let hi = op(h, G_SUB, ty, &[lhs_min, min_val]);
            (lo, hi)
        };
        let above_lo = op(h, G_SMAX, ty, &[lo, rhs]);
        let clamped = op(h, G_SMIN, ty, &[above_lo, hi]);
        op_into(h, base, dst, &[lhs, clamped]);
    } else {
        let first = if is_add { not(h, ty, lhs) } else { lhs };
        let min = op(h, G_UMIN, ty, &[first, rhs]);
        op_into(h, base, dst, &[lhs, min]);
    }
    done(h, inst)
}

/// Saturation through the overflow-reporting operation and a select.
fn sat_overflow(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, r: &[VReg]) -> StepResult {
    let (dst, lhs, rhs) = (r[0], r[1], r[2]);
    let ty = h.func.ty(dst);
    let bool_ty = ty.change_element_size(1);
    let overflow_op = match opcode {
        G_UADDSAT => G_UADDO,
        G_SADDSAT => G_SADDO,
        G_USUBSAT => G_USUBO,
        _ => G_SSUBO,
    };
    let uses = vec![crate::ir::Operand::vreg_use(lhs), crate::ir::Operand::vreg_use(rhs)];
    let defs = h.builder().build(overflow_op, &[ty, bool_ty], uses).1;
    let (tmp, overflow) = (defs[0], defs[1]);
    let clamp = if matches!(opcode, G_SADDSAT | G_SSUBSAT) {
        let bits = ty.scalar_size_in_bits();
        let amount = cst(h, ty, i128::from(bits) - 1);
        let sign = op(h, G_ASHR, ty, &[tmp, amount]);
        let min_val = cst_ap(h, ty, ApInt::signed_min(bits));
        op(h, G_ADD, ty, &[sign, min_val])
    } else {
        cst(h, ty, if opcode == G_UADDSAT { -1 } else { 0 })
    };
    op_into(h, G_SELECT, dst, &[overflow, clamp, tmp]);
    done(h, inst)
}

/// `a << b`, saturated when shifting back does not give `a`.
fn shl_sat(h: &mut Helper<'_>, inst: Inst, signed: bool, r: &[VReg]) -> StepResult {
    let (dst, lhs, rhs) = (r[0], r[1], r[2]);
    let ty = h.func.ty(dst);
    let bool_ty = ty.change_element_size(1);
    let bits = ty.scalar_size_in_bits();
    let result = op(h, G_SHL, ty, &[lhs, rhs]);
    let back = op(h, if signed { G_ASHR } else { G_LSHR }, ty, &[result, rhs]);
    let saturated = if signed {
        let sat_min = cst_ap(h, ty, ApInt::signed_min(bits));
        let sat_max = cst_ap(h, ty, ApInt::signed_max(bits));
        let zero = cst(h, ty, 0);
        let negative = icmp(h, IntPredicate::Slt, bool_ty, lhs, zero);
        select(h, ty, negative, sat_min, sat_max)
    } else {
        cst_ap(h, ty, ApInt::all_ones(bits))
    };
    let overflow = icmp(h, IntPredicate::Ne, bool_ty, lhs, back);
    op_into(h, G_SELECT, dst, &[overflow, saturated, result]);
    done(h, inst)
}
