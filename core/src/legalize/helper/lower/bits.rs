//! Bit-level lowerings: in-register sign extension, bit counts, byte and
//! bit reversal, rotates, funnel shifts, and the floating-point operations
//! that are sign-bit arithmetic (`G_FNEG`, `G_FABS`) or a rewrite into
//! other FP operations (`G_FSUB`, `G_STRICT_FSUB`, `G_FMAD`, `G_FRINT`,
//! the rounding conversions, `G_FMINNUM`/`G_FMAXNUM`).

use super::{
    Helper, KnownValue, StepResult, action, byte_splat, change_opcode, changed, copy_into, cst, cst_ap, done, icmp,
    known_values, legal_or_custom, not, op, op_flags, op_into, regs, unable,
};
use crate::apint::ApInt;
use crate::ir::{Inst, InstFlags, IntPredicate, Operand, VReg};
use crate::legality::LegalizeAction;
use crate::opcode::Opcode::{self, *};
use crate::ty::Llt;

/// Lowers the bit-manipulation opcodes.
pub(super) fn lower(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    if opcode == G_SEXT_INREG {
        return sext_inreg(h, inst);
    }
    let count = h.func.inst(inst).operands.len();
    let Some(r) = regs(h, inst, count) else {
        return unable(opcode, "operands must be virtual registers");
    };
    match (opcode, count) {
        (G_CTLZ_ZERO_UNDEF, 2) => change_opcode(h, inst, G_CTLZ),
        (G_CTTZ_ZERO_UNDEF, 2) => change_opcode(h, inst, G_CTTZ),
        (G_CTLZ, 2) => ctlz(h, inst, &r),
        (G_CTTZ, 2) => cttz(h, inst, &r),
        (G_CTPOP, 2) => ctpop(h, inst, &r),
        (G_BSWAP, 2) => bswap(h, inst, &r),
        (G_BITREVERSE, 2) => bitreverse(h, inst, &r),
        (G_ROTL | G_ROTR, 3) => rotate(h, inst, opcode == G_ROTL, &r),
        (G_FSHL | G_FSHR, 4) => funnel_shift(h, inst, opcode == G_FSHL, &r),
        (G_FNEG, 2) => {
            let ty = h.func.ty(r[0]);
            let sign = sign_mask(ty);
            let mask = cst_ap(h, ty, sign);
            op_into(h, G_XOR, r[0], &[r[1], mask]);
            done(h, inst)
        }
        (G_FABS, 2) => {
            let ty = h.func.ty(r[0]);
            let mask = cst_ap(h, ty, ApInt::signed_max(ty.scalar_size_in_bits()));
            op_into(h, G_AND, r[0], &[r[1], mask]);
            done(h, inst)
        }
        (G_FSUB, 3) => {
            let ty = h.func.ty(r[0]);
            let flags = h.func.inst(inst).flags;
            let negated = op(h, G_FNEG, ty, &[r[2]]);
            let add = op_into(h, G_FADD, r[0], &[r[1], negated]);
            h.func.modify(add, |d| d.flags = flags);
            done(h, inst)
        }
        (G_FMAD, 4) => {
            let ty = h.func.ty(r[0]);
            let flags = h.func.inst(inst).flags;
            let product = op_flags(h, G_FMUL, ty, &[r[1], r[2]], flags);
            let add = op_into(h, G_FADD, r[0], &[product, r[3]]);
            h.func.modify(add, |d| d.flags = flags);
            done(h, inst)
        }
        (G_STRICT_FSUB, 3) => {
            let ty = h.func.ty(r[0]);
            let flags = h.func.inst(inst).flags;
            let negated = op(h, G_FNEG, ty, &[r[2]]);
            let add = op_into(h, G_STRICT_FADD, r[0], &[r[1], negated]);
            h.func.modify(add, |d| d.flags = flags);
            done(h, inst)
        }
        (G_FRINT, 2) => change_opcode(h, inst, G_INTRINSIC_ROUNDEVEN),
        // `lround(x)` is `fptosi(round(x))`, `lrint(x)` is `fptosi(rint(x))`.
        (G_LROUND | G_LLROUND | G_INTRINSIC_LRINT | G_INTRINSIC_LLRINT, 2) => {
            let rounding = if matches!(opcode, G_LROUND | G_LLROUND) { G_INTRINSIC_ROUND } else { G_FRINT };
            let rounded = op(h, rounding, h.func.ty(r[1]), &[r[1]]);
            op_into(h, G_FPTOSI, r[0], &[rounded]);
            done(h, inst)
        }
        (G_FMINNUM | G_FMAXNUM, 3) => min_max_num(h, inst, opcode, &r),
        _ => unable(opcode, "unexpected operand layout"),
    }
}

/// `G_FMINNUM`/`G_FMAXNUM` as their `_IEEE` forms, which return a NaN for
/// a signaling NaN: unless the instruction has `nnan`, an operand that may
/// be a signaling NaN is quieted by `G_FCANONICALIZE` first. An operand
/// is known not to be one when an FP constant or arithmetic (which only
/// makes quiet NaNs) defines it.
fn min_max_num(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, r: &[VReg]) -> StepResult {
    let ty = h.func.ty(r[0]);
    let flags = h.func.inst(inst).flags;
    let mut sources = [r[1], r[2]];
    if !flags.contains(InstFlags::NNAN) {
        for source in &mut sources {
            if !known_never_signaling_nan(h, *source) {
                *source = op_flags(h, G_FCANONICALIZE, ty, &[*source], flags);
            }
        }
    }
    let ieee = if opcode == G_FMINNUM { G_FMINNUM_IEEE } else { G_FMAXNUM_IEEE };
    let result = op_into(h, ieee, r[0], &sources);
    h.func.modify(result, |d| d.flags = flags);
    done(h, inst)
}

fn known_never_signaling_nan(h: &Helper<'_>, value: VReg) -> bool {
    let Some(def) = h.func.def_inst(value) else { return false };
    let data = h.func.inst(def);
    if data.flags.contains(InstFlags::NNAN) {
        return true;
    }
    match data.known_opcode() {
        Some(G_FCONSTANT) => match data.operands.get(1) {
            Some(Operand::FpImm(c)) => !c.is_signaling_nan(),
            _ => false,
        },
        Some(
            G_FADD | G_FSUB | G_FMUL | G_FDIV | G_FREM | G_FMA | G_FMAD | G_FSQRT | G_FCANONICALIZE | G_FMINNUM_IEEE
            | G_FMAXNUM_IEEE | G_FMINIMUM | G_FMAXIMUM | G_SITOFP | G_UITOFP | G_FPEXT | G_FPTRUNC,
        ) => true,
        _ => false,
    }
}

fn sign_mask(ty: Llt) -> ApInt {
    let bits = ty.scalar_size_in_bits();
    ApInt::signed_min(bits)
}

/// `(x << (bits - width)) >>s (bits - width)`.
fn sext_inreg(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    let Some(r) = regs(h, inst, 2) else { return unable(G_SEXT_INREG, "operands must be virtual registers") };
    let Some(Operand::Imm(width)) = h.func.inst(inst).operands.get(2).cloned() else {
        return unable(G_SEXT_INREG, "the width must be an immediate");
    };
    let ty = h.func.ty(r[0]);
    let tmp = h.func.new_vreg(ty);
    let amount = cst(h, ty, i128::from(ty.scalar_size_in_bits()) - i128::from(width));
    op_into(h, G_SHL, tmp, &[r[1], amount]);
    op_into(h, G_ASHR, r[0], &[tmp, amount]);
    done(h, inst)
}

/// LLVM's `isSupported` in `lowerBitCount`: legal, libcall or custom.
fn supported(h: &Helper<'_>, opcode: Opcode, types: &[Llt]) -> bool {
    matches!(action(h, opcode, types), LegalizeAction::Legal | LegalizeAction::Libcall | LegalizeAction::Custom)
}

/// `x == 0 ? width : op_zero_undef(x)`.
fn zero_undef_select(h: &mut Helper<'_>, inst: Inst, zero_undef: Opcode, r: &[VReg]) -> StepResult {
    let (dst_ty, src_ty) = (h.func.ty(r[0]), h.func.ty(r[1]));
    let len = src_ty.scalar_size_in_bits();
    let counted = op(h, zero_undef, dst_ty, &[r[1]]);
    let zero = cst(h, src_ty, 0);
    let cmp_ty = if zero_undef == G_CTLZ_ZERO_UNDEF { src_ty } else { dst_ty }.change_element_size(1);
    let is_zero = icmp(h, IntPredicate::Eq, cmp_ty, r[1], zero);
    let width = cst(h, dst_ty, i128::from(len));
    op_into(h, G_SELECT, r[0], &[is_zero, width, counted]);
    done(h, inst)
}

/// Smear the leading one rightwards, then `width - ctpop`.
fn ctlz(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst_ty, src_ty) = (h.func.ty(r[0]), h.func.ty(r[1]));
    if supported(h, G_CTLZ_ZERO_UNDEF, &[dst_ty, src_ty]) {
        return zero_undef_select(h, inst, G_CTLZ_ZERO_UNDEF, r);
    }
    let len = src_ty.size_in_bits();
    let rounded = len.next_power_of_two();
    let mut value = r[1];
    let mut shift = 1u64;
    while shift <= rounded / 2 {
        let amount = cst(h, src_ty, i128::from(shift));
        let shifted = op(h, G_LSHR, src_ty, &[value, amount]);
        value = op(h, G_OR, src_ty, &[value, shifted]);
        shift *= 2;
    }
    let population = op(h, G_CTPOP, dst_ty, &[value]);
    let width = cst(h, dst_ty, i128::from(len));
    op_into(h, G_SUB, r[0], &[width, population]);
    done(h, inst)
}

/// Count the ones below the lowest set bit: `ctpop(~x & (x - 1))`.
fn cttz(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst_ty, src_ty) = (h.func.ty(r[0]), h.func.ty(r[1]));
    if supported(h, G_CTTZ_ZERO_UNDEF, &[dst_ty, src_ty]) {
        return zero_undef_select(h, inst, G_CTTZ_ZERO_UNDEF, r);
    }
    let len = src_ty.size_in_bits();
    let minus_one = cst(h, src_ty, -1);
    let inverted = op(h, G_XOR, src_ty, &[r[1], minus_one]);
    let decremented = op(h, G_ADD, src_ty, &[r[1], minus_one]);
    let below = op(h, G_AND, src_ty, &[inverted, decremented]);
    if !supported(h, G_CTPOP, &[src_ty, src_ty]) && supported(h, G_CTLZ, &[src_ty, src_ty]) {
        let width = cst(h, src_ty, i128::from(len));
        let leading = op(h, G_CTLZ, src_ty, &[below]);
        op_into(h, G_SUB, r[0], &[width, leading]);
        return done(h, inst);
    }
    h.func.modify(inst, |d| d.opcode = crate::ir::InstOpcode::Known(G_CTPOP));
    h.func.set_operand(inst, 1, Operand::vreg_use(below));
    changed(h, inst)
}

/// SWAR population count: 2-bit, 4-bit and 8-bit sums, then the byte sums
/// added by a multiply (or a shift-and-add ladder) and shifted down.
fn ctpop(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let ty = h.func.ty(r[1]);
    let size = ty.size_in_bits();
    if size > 128 {
        return unable(G_CTPOP, "types wider than 128 bits are not supported");
    }
    let bits = size as u32;
    let one = cst(h, ty, 1);
    let halves = op(h, G_LSHR, ty, &[r[1], one]);
    let mask1 = cst_ap(h, ty, byte_splat(bits, 0x55));
    let odd = op(h, G_AND, ty, &[halves, mask1]);
    let pairs = op(h, G_SUB, ty, &[r[1], odd]);
    let two = cst(h, ty, 2);
    let pairs_high = op(h, G_LSHR, ty, &[pairs, two]);
    let mask2 = cst_ap(h, ty, byte_splat(bits, 0x33));
    let high = op(h, G_AND, ty, &[pairs_high, mask2]);
    let low = op(h, G_AND, ty, &[pairs, mask2]);
    let nibbles = op(h, G_ADD, ty, &[high, low]);
    let four = cst(h, ty, 4);
    let nibbles_high = op(h, G_LSHR, ty, &[nibbles, four]);
    let dirty = op(h, G_ADD, ty, &[nibbles_high, nibbles]);
    let mask4 = cst_ap(h, ty, byte_splat(bits, 0x0F));
    let bytes = op(h, G_AND, ty, &[dirty, mask4]);
    let mul_mask = cst_ap(h, ty, byte_splat(bits, 0x01));
    let down = cst(h, ty, i128::from(size) - 8);
    let mul_ok =
        matches!(action(h, G_MUL, &[ty]), LegalizeAction::Legal | LegalizeAction::WidenScalar | LegalizeAction::Custom);
    let sum = if mul_ok {
        op(h, G_MUL, ty, &[bytes, mul_mask])
    } else {
        let mut sum = bytes;
        let mut shift = 8;
        while shift < size {
            let amount = cst(h, ty, i128::from(shift));
            let shifted = op(h, G_SHL, ty, &[sum, amount]);
            sum = op(h, G_ADD, ty, &[sum, shifted]);
            shift *= 2;
        }
        sum
    };
    op_into(h, G_LSHR, r[0], &[sum, down]);
    done(h, inst)
}

/// Swaps the outer bytes, then each inner pair in turn. A single byte (the
/// `G_BSWAP` that LLVM's bit reversal of an `s8` builds) is swapped with
/// itself by shifts of zero, as LLVM does.
fn bswap(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let ty = h.func.ty(r[1]);
    let bits = ty.scalar_size_in_bits();
    if !bits.is_multiple_of(8) {
        return unable(G_BSWAP, "the width must be a whole number of bytes");
    }
    let bytes = bits.div_ceil(8);
    let base = (bytes - 1) * 8;
    let src = r[1];
    let amount = cst(h, ty, i128::from(base));
    let low_up = op(h, G_SHL, ty, &[src, amount]);
    let high_down = op(h, G_LSHR, ty, &[src, amount]);
    let mut result = op(h, G_OR, ty, &[high_down, low_up]);
    for i in 1..bytes / 2 {
        // Deliberate difference: LLVM 22 computes this mask as a C `int`
        // (`0xFF << 8i`), so for byte 3 of a 64-bit or wider swap it is
        // sign-extended (0xFF...FF000000) and the result is wrong. gisel
        // uses the one-byte mask, which keeps the meaning.
        let mask = cst_ap(h, ty, ApInt::bit_range(bits, i * 8, 8));
        let shift = cst(h, ty, i128::from(base - 16 * i));
        let low_byte = op(h, G_AND, ty, &[src, mask]);
        let low_moved = op(h, G_SHL, ty, &[low_byte, shift]);
        result = op(h, G_OR, ty, &[result, low_moved]);
        let src_down = op(h, G_LSHR, ty, &[src, shift]);
        let high_moved = op(h, G_AND, ty, &[src_down, mask]);
        result = op(h, G_OR, ty, &[result, high_moved]);
    }
    if bytes % 2 == 1 && bytes > 1 {
        // Deliberate difference: with an odd number of bytes (the `s24`
        // swap that lowering `G_BITREVERSE` of `s24` builds) LLVM 22 leaves
        // the middle byte zero; it stays in place here.
        let mask = cst_ap(h, ty, ApInt::bit_range(bits, bytes / 2 * 8, 8));
        let middle = op(h, G_AND, ty, &[src, mask]);
        result = op(h, G_OR, ty, &[result, middle]);
    }
    retarget_def(h, result, r[0]);
    done(h, inst)
}

/// Makes the instruction defining `from` define `to` instead.
fn retarget_def(h: &mut Helper<'_>, from: VReg, to: VReg) {
    if let Some(def) = h.func.def_inst(from) {
        h.func.set_operand(def, 0, Operand::vreg_def(to));
    }
}

/// `((src & mask) >> n) | ((src << n) & mask)`.
fn swap_bits(h: &mut Helper<'_>, n: i128, dst: Option<VReg>, ty: Llt, src: VReg, mask: ApInt) -> VReg {
    let amount = cst(h, ty, n);
    let mask = cst_ap(h, ty, mask);
    let masked = op(h, G_AND, ty, &[src, mask]);
    let down = op(h, G_LSHR, ty, &[masked, amount]);
    let up = op(h, G_SHL, ty, &[src, amount]);
    let up_masked = op(h, G_AND, ty, &[up, mask]);
    match dst {
        Some(dst) => {
            op_into(h, G_OR, dst, &[down, up_masked]);
            dst
        }
        None => op(h, G_OR, ty, &[down, up_masked]),
    }
}

/// Byte swap, then either the byte-vector `G_BITREVERSE` when the target
/// has it for a vector of the same size, or swaps of nibbles, bit pairs and
/// bits; below 8 bits, move each bit on its own.
fn bitreverse(h: &mut Helper<'_>, inst: Inst, r: &[VReg]) -> StepResult {
    let (dst, src) = (r[0], r[1]);
    let ty = h.func.ty(src);
    let size = ty.scalar_size_in_bits();
    if size >= 8 {
        let swapped = op(h, G_BSWAP, ty, &[src]);
        if let Some(bytes) = byte_vector_bitreverse(h, ty) {
            let cast = op(h, G_BITCAST, bytes, &[swapped]);
            let reversed = op(h, G_BITREVERSE, bytes, &[cast]);
            op_into(h, G_BITCAST, dst, &[reversed]);
            return done(h, inst);
        }
        let nibbles = swap_bits(h, 4, None, ty, swapped, byte_splat(size, 0xF0));
        let pairs = swap_bits(h, 2, None, ty, nibbles, byte_splat(size, 0xCC));
        swap_bits(h, 1, Some(dst), ty, pairs, byte_splat(size, 0xAA));
        return done(h, inst);
    }
    let mut acc: Option<VReg> = None;
    for i in 0..size {
        let j = size - 1 - i;
        let moved = if i < j {
            let amount = cst(h, ty, i128::from(j - i));
            op(h, G_SHL, ty, &[src, amount])
        } else {
            let amount = cst(h, ty, i128::from(i - j));
            op(h, G_LSHR, ty, &[src, amount])
        };
        let mask = cst(h, ty, 1i128 << j);
        let bit = op(h, G_AND, ty, &[moved, mask]);
        acc = Some(match acc {
            None => bit,
            Some(prev) => op(h, G_OR, ty, &[prev, bit]),
        });
    }
    if let Some(acc) = acc {
        copy_into(h, dst, acc);
    }
    done(h, inst)
}

/// The `<N x s8>` vector of the same size as the vector `ty` when the
/// target has a legal `G_BITREVERSE` for it (LLVM queries `isLegal` on the
/// fixed-length byte vector).
fn byte_vector_bitreverse(h: &Helper<'_>, ty: Llt) -> Option<Llt> {
    let bits = ty.size_in_bits();
    if !ty.is_vector() || !bits.is_multiple_of(8) {
        return None;
    }
    let count = u32::try_from(bits / 8).ok()?;
    let bytes = Llt::fixed_vector(count, Llt::scalar(8));
    (action(h, G_BITREVERSE, &[bytes]) == LegalizeAction::Legal).then_some(bytes)
}

/// The reverse rotate with a negated amount, a funnel shift, or two shifts.
fn rotate(h: &mut Helper<'_>, inst: Inst, left: bool, r: &[VReg]) -> StepResult {
    let (dst, src, amt) = (r[0], r[1], r[2]);
    let (dst_ty, src_ty, amt_ty) = (h.func.ty(dst), h.func.ty(src), h.func.ty(amt));
    let bits = dst_ty.scalar_size_in_bits();
    let reverse = if left { G_ROTR } else { G_ROTL };
    if legal_or_custom(h, reverse, &[dst_ty, src_ty]) && bits.is_power_of_two() {
        let zero = cst(h, amt_ty, 0);
        let negated = op(h, G_SUB, amt_ty, &[zero, amt]);
        op_into(h, reverse, dst, &[src, negated]);
        return done(h, inst);
    }
    let (funnel, reverse_funnel) = if left { (G_FSHL, G_FSHR) } else { (G_FSHR, G_FSHL) };
    let funnel_legal = legal_or_custom(h, funnel, &[dst_ty, amt_ty]);
    if funnel_legal {
        op_into(h, funnel, dst, &[src, src, amt]);
        return done(h, inst);
    }
    if legal_or_custom(h, reverse_funnel, &[dst_ty, amt_ty]) && bits.is_power_of_two() {
        let zero = cst(h, dst_ty, 0);
        let negated = op(h, G_SUB, dst_ty, &[zero, amt]);
        op_into(h, reverse_funnel, dst, &[src, src, negated]);
        return done(h, inst);
    }
    let (shift, reverse_shift) = if left { (G_SHL, G_LSHR) } else { (G_LSHR, G_SHL) };
    let zero = cst(h, amt_ty, 0);
    let mask = cst(h, amt_ty, i128::from(bits) - 1);
    let (shifted, reverse_shifted) = if bits.is_power_of_two() {
        let negated = op(h, G_SUB, amt_ty, &[zero, amt]);
        let amount = op(h, G_AND, amt_ty, &[amt, mask]);
        let shifted = op(h, shift, dst_ty, &[src, amount]);
        let reverse_amount = op(h, G_AND, amt_ty, &[negated, mask]);
        (shifted, op(h, reverse_shift, dst_ty, &[src, reverse_amount]))
    } else {
        let width = cst(h, amt_ty, i128::from(bits));
        let amount = op(h, G_UREM, amt_ty, &[amt, width]);
        let shifted = op(h, shift, dst_ty, &[src, amount]);
        let reverse_amount = op(h, G_SUB, amt_ty, &[mask, amount]);
        let one = cst(h, amt_ty, 1);
        let inner = op(h, reverse_shift, dst_ty, &[src, one]);
        (shifted, op(h, reverse_shift, dst_ty, &[inner, reverse_amount]))
    };
    let or = op_into(h, G_OR, dst, &[shifted, reverse_shifted]);
    h.func.modify(or, |d| d.flags.insert(InstFlags::DISJOINT));
    done(h, inst)
}

/// True when the amount is undef or a constant that is not a multiple of
/// the width, or a vector of such elements (`isNonZeroModBitWidthOrUndef`).
fn nonzero_mod_width(h: &Helper<'_>, amount: VReg, bits: u32) -> bool {
    let width = |value: &ApInt| ApInt::from_u128(value.bits(), u128::from(bits));
    known_values(h, amount).is_some_and(|values| {
        values.iter().all(|value| match value {
            KnownValue::Undef => true,
            KnownValue::Constant(value) => value.udivrem(&width(value)).is_some_and(|(_, rem)| !rem.is_zero()),
        })
    })
}

/// Shifts when the reverse funnel shift would be lowered too; otherwise the
/// reverse funnel shift with an adjusted amount (power-of-two widths).
fn funnel_shift(h: &mut Helper<'_>, inst: Inst, left: bool, r: &[VReg]) -> StepResult {
    let (ty, shift_ty) = (h.func.ty(r[0]), h.func.ty(r[3]));
    let reverse = if left { G_FSHR } else { G_FSHL };
    if action(h, reverse, &[ty, shift_ty]) == LegalizeAction::Lower || !ty.scalar_size_in_bits().is_power_of_two() {
        return funnel_as_shifts(h, inst, left, r);
    }
    let (dst, mut x, mut y, mut z) = (r[0], r[1], r[2], r[3]);
    if nonzero_mod_width(h, z, ty.scalar_size_in_bits()) {
        let zero = cst(h, shift_ty, 0);
        z = op(h, G_SUB, ty, &[zero, z]);
    } else {
        let one = cst(h, shift_ty, 1);
        if left {
            y = op(h, reverse, ty, &[x, y, one]);
            x = op(h, G_LSHR, ty, &[x, one]);
        } else {
            x = op(h, reverse, ty, &[x, y, one]);
            y = op(h, G_SHL, ty, &[y, one]);
        }
        z = not(h, shift_ty, z);
    }
    op_into(h, reverse, dst, &[x, y, z]);
    done(h, inst)
}

/// `x << s | y >> (bw - s)` style, avoiding shifts by the full width.
fn funnel_as_shifts(h: &mut Helper<'_>, inst: Inst, left: bool, r: &[VReg]) -> StepResult {
    let (dst, x, y, z) = (r[0], r[1], r[2], r[3]);
    let (ty, shift_ty) = (h.func.ty(dst), h.func.ty(z));
    let bits = ty.scalar_size_in_bits();
    let (shifted_x, shifted_y) = if nonzero_mod_width(h, z, bits) {
        let width = cst(h, shift_ty, i128::from(bits));
        let amount = op(h, G_UREM, shift_ty, &[z, width]);
        let inverse = op(h, G_SUB, shift_ty, &[width, amount]);
        let shifted_x = op(h, G_SHL, ty, &[x, if left { amount } else { inverse }]);
        let shifted_y = op(h, G_LSHR, ty, &[y, if left { inverse } else { amount }]);
        (shifted_x, shifted_y)
    } else {
        let mask = cst(h, shift_ty, i128::from(bits) - 1);
        let (amount, inverse) = if bits.is_power_of_two() {
            let amount = op(h, G_AND, shift_ty, &[z, mask]);
            let inverted = not(h, shift_ty, z);
            (amount, op(h, G_AND, shift_ty, &[inverted, mask]))
        } else {
            let width = cst(h, shift_ty, i128::from(bits));
            let amount = op(h, G_UREM, shift_ty, &[z, width]);
            (amount, op(h, G_SUB, shift_ty, &[mask, amount]))
        };
        let one = cst(h, shift_ty, 1);
        if left {
            let shifted_x = op(h, G_SHL, ty, &[x, amount]);
            let y1 = op(h, G_LSHR, ty, &[y, one]);
            (shifted_x, op(h, G_LSHR, ty, &[y1, inverse]))
        } else {
            let x1 = op(h, G_SHL, ty, &[x, one]);
            let shifted_x = op(h, G_SHL, ty, &[x1, inverse]);
            (shifted_x, op(h, G_LSHR, ty, &[y, amount]))
        }
    };
    let or = op_into(h, G_OR, dst, &[shifted_x, shifted_y]);
    h.func.modify(or, |d| d.flags.insert(InstFlags::DISJOINT));
    done(h, inst)
}
