//! Floating-point operations rewritten into other floating-point
//! operations: `G_FFLOOR` and `G_INTRINSIC_ROUND` through truncation,
//! `G_FPOWI` through `G_FPOW`. Each passes the instruction's fast-math
//! flags to the operations LLVM gives them to.

use super::{Helper, StepResult, build_fconstant, done, fcmp, op, op_flags, op_into, regs, unable};
use crate::ir::{FloatPredicate, FpConst, FpKind, Inst, InstFlags, VReg};
use crate::opcode::Opcode::{self, *};
use crate::ty::Llt;

/// Lowers the floating-point rewrites.
pub(super) fn lower(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    let count = h.func.inst(inst).operands.len();
    let Some(r) = regs(h, inst, count) else {
        return unable(opcode, "operands must be virtual registers");
    };
    let flags = h.func.inst(inst).flags;
    let ty = h.func.ty(r[0]);
    if !matches!(ty.scalar_size_in_bits(), 16 | 32 | 64 | 128) {
        return unable(opcode, "not a half, float, double or quad");
    }
    match (opcode, count) {
        (G_FFLOOR, 2) => floor(h, inst, flags, &r),
        (G_INTRINSIC_ROUND, 2) => round(h, inst, flags, &r),
        (G_FPOWI, 3) => {
            let exponent = op(h, G_SITOFP, ty, &[r[2]]);
            let pow = op_into(h, G_FPOW, r[0], &[r[1], exponent]);
            h.func.modify(pow, |d| d.flags = flags);
            done(h, inst)
        }
        _ => unable(opcode, "unexpected operand layout"),
    }
}

/// `floor(x)` (LLVM's `lowerFFloor`): `trunc(x)`, minus one when `x` is
/// negative and not already integral. LLVM adds `G_SITOFP` of the
/// condition (-1.0 or +0.0), which turns `floor(-0.0)` into +0.0; gisel
/// subtracts its `G_UITOFP` (1.0 or +0.0), which keeps the zero's sign.
fn floor(h: &mut Helper<'_>, inst: Inst, flags: InstFlags, r: &[VReg]) -> StepResult {
    let (dst, x) = (r[0], r[1]);
    let ty = h.func.ty(dst);
    let cond_ty = ty.change_element_size(1);
    let truncated = op_flags(h, G_INTRINSIC_TRUNC, ty, &[x], flags);
    let zero = fconstant_of(h, ty, 0.0);
    let negative = fcmp(h, FloatPredicate::Olt, cond_ty, x, zero, flags);
    let fractional = fcmp(h, FloatPredicate::One, cond_ty, x, truncated, flags);
    let both = op(h, G_AND, cond_ty, &[negative, fractional]);
    let adjust = op(h, G_UITOFP, ty, &[both]);
    let sub = op_into(h, G_FSUB, dst, &[truncated, adjust]);
    h.func.modify(sub, |d| d.flags = flags);
    done(h, inst)
}

/// `round(x)`, halves away from zero (LLVM's `lowerIntrinsicRound`):
/// `trunc(x)` plus one signed as `x` when the part cut off is at least 0.5.
fn round(h: &mut Helper<'_>, inst: Inst, flags: InstFlags, r: &[VReg]) -> StepResult {
    let (dst, x) = (r[0], r[1]);
    let ty = h.func.ty(dst);
    let cond_ty = ty.change_element_size(1);
    let truncated = op_flags(h, G_INTRINSIC_TRUNC, ty, &[x], flags);
    let difference = op_flags(h, G_FSUB, ty, &[x, truncated], flags);
    let magnitude = op_flags(h, G_FABS, ty, &[difference], flags);
    let half = fconstant_of(h, ty, 0.5);
    let rounds_up = fcmp(h, FloatPredicate::Oge, cond_ty, magnitude, half, flags);
    let one = fconstant_of(h, ty, 1.0);
    let zero = fconstant_of(h, ty, 0.0);
    let step = op(h, G_SELECT, ty, &[rounds_up, one, zero]);
    let signed_step = op(h, G_FCOPYSIGN, ty, &[step, x]);
    let add = op_into(h, G_FADD, dst, &[truncated, signed_step]);
    h.func.modify(add, |d| d.flags = flags);
    done(h, inst)
}

/// `G_FCONSTANT` of `ty` nearest `value`.
fn fconstant_of(h: &mut Helper<'_>, ty: Llt, value: f64) -> VReg {
    let kind = match ty.scalar_size_in_bits() {
        16 => FpKind::Half,
        32 => FpKind::Float,
        64 => FpKind::Double,
        _ => FpKind::Fp128,
    };
    build_fconstant(h, ty, FpConst::from_f64(kind, value).expect("an IEEE format"))
}
