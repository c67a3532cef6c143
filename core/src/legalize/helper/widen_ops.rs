//! `WidenScalar` cases that build more than extends and a truncate: bit
//! extraction and insertion, byte swaps and bit counts, PHIs, floating
//! point, saturating arithmetic and overflowing multiplies, each in the
//! order LLVM's helper builds them.

use super::{Helper, StepResult};
use crate::apint::ApInt;
use crate::ir::{Inst, InstOpcode, IntPredicate, Operand, VReg};
use crate::opcode::{Opcode, flags};
use crate::ty::Llt;

fn changed(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    h.mark_changed(inst);
    StepResult::Legalized
}

fn erase(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    h.func.erase(inst);
    StepResult::Legalized
}

/// `anyext`, `trunc` or a COPY to `ty` (LLVM's `buildAnyExtOrTrunc`).
fn anyext_or_trunc(h: &mut Helper<'_>, ty: Llt, src: VReg) -> VReg {
    let size = h.func.ty(src).size_in_bits();
    let opcode = match ty.size_in_bits().cmp(&size) {
        std::cmp::Ordering::Greater => Opcode::G_ANYEXT,
        std::cmp::Ordering::Less => Opcode::G_TRUNC,
        std::cmp::Ordering::Equal => Opcode::COPY,
    };
    h.build(opcode, ty, &[src])
}

/// `G_EXTRACT`: of the result (a shift and truncate), or of a scalar source.
pub(super) fn extract(h: &mut Helper<'_>, inst: Inst, idx: usize, wide: Llt) -> StepResult {
    let (dst, mut src) = (h.reg(inst, 0), h.reg(inst, 1));
    let mut src_ty = h.func.ty(src);
    if idx == 1 {
        if !src_ty.is_scalar() {
            return StepResult::Unable("widening a vector G_EXTRACT source is not implemented".into());
        }
        h.widen_src(inst, 1, wide, Opcode::G_ANYEXT);
        return changed(h, inst);
    }
    if src_ty.is_vector() || h.func.ty(dst).is_pointer() {
        return StepResult::Unable("widening this G_EXTRACT is not implemented".into());
    }
    let Operand::Imm(offset) = h.func.inst(inst).operands[2] else {
        return StepResult::Unable("G_EXTRACT without an offset".into());
    };
    if src_ty.is_pointer() {
        src_ty = Llt::scalar(src_ty.size_in_bits() as u32);
        src = h.build(Opcode::G_PTRTOINT, src_ty, &[src]);
    }
    if offset == 0 {
        let extended = anyext_or_trunc(h, wide, src);
        h.build_into(Opcode::G_TRUNC, dst, &[extended]);
        return erase(h, inst);
    }
    let mut shift_ty = src_ty;
    if wide.size_in_bits() > src_ty.size_in_bits() {
        src = h.build(Opcode::G_ANYEXT, wide, &[src]);
        shift_ty = wide;
    }
    let amount = h.builder().constant(shift_ty, i128::from(offset));
    let shifted = h.build(Opcode::G_LSHR, shift_ty, &[src, amount]);
    h.build_into(Opcode::G_TRUNC, dst, &[shifted]);
    erase(h, inst)
}

/// `G_BSWAP` / `G_BITREVERSE`: the wide operation, shifted back down. As
/// in LLVM 22, a byte swap makes its three registers (shift result, wide
/// result, shift amount) before it extends the source and sets the amount
/// into its own register; a bit reversal makes only the wide result first
/// and builds a typed amount and shift, which CSE may share.
pub(super) fn swap_bits(h: &mut Helper<'_>, inst: Inst, wide: Llt) -> StepResult {
    let dst = h.reg(inst, 0);
    let narrow = h.func.ty(dst);
    let diff = ApInt::from_u128(
        wide.scalar_size_in_bits(),
        u128::from(wide.scalar_size_in_bits() - narrow.scalar_size_in_bits()),
    );
    let shifted_wide_dst = if h.func.inst(inst).is(Opcode::G_BSWAP) {
        let (shifted, wide_dst, amount) = (h.func.new_vreg(wide), h.func.new_vreg(wide), h.func.new_vreg(wide));
        h.widen_src(inst, 1, wide, Opcode::G_ANYEXT);
        h.func.set_operand(inst, 0, Operand::vreg_def(wide_dst));
        h.advance_insert_point();
        constant_into(h, amount, diff);
        h.build_with(Opcode::G_LSHR, &[shifted], [Operand::vreg_use(wide_dst), Operand::vreg_use(amount)]);
        shifted
    } else {
        let wide_dst = h.func.new_vreg(wide);
        h.widen_src(inst, 1, wide, Opcode::G_ANYEXT);
        h.func.set_operand(inst, 0, Operand::vreg_def(wide_dst));
        h.advance_insert_point();
        let amount = h.splat_constant(wide, diff);
        h.build(Opcode::G_LSHR, wide, &[wide_dst, amount])
    };
    h.build_into(Opcode::G_TRUNC, dst, &[shifted_wide_dst]);
    changed(h, inst)
}

/// `dst = value`, `value` being of `dst`'s element size: a `G_CONSTANT`,
/// or for a fixed vector a `G_BUILD_VECTOR` splat of a scalar one (LLVM's
/// `buildConstant` into an existing register).
fn constant_into(h: &mut Helper<'_>, dst: VReg, value: ApInt) {
    let ty = h.func.ty(dst);
    if !ty.is_fixed_vector() {
        h.build_with(Opcode::G_CONSTANT, &[dst], [Operand::cimm(value)]);
        return;
    }
    let element = h.builder().build(Opcode::G_CONSTANT, &[ty.element_type()], [Operand::cimm(value)]).1[0];
    let elements = vec![Operand::vreg_use(element); ty.num_elements() as usize];
    h.build_with(Opcode::G_BUILD_VECTOR, &[dst], elements);
}

/// `G_CTLZ`, `G_CTTZ`, `G_CTPOP` and the zero-undef forms.
pub(super) fn count_bits(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, idx: usize, wide: Llt) -> StepResult {
    if idx == 0 {
        h.widen_dst(inst, 0, wide, Opcode::G_TRUNC);
        return changed(h, inst);
    }
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let cur_bits = h.func.ty(src).size_in_bits() as u32;
    let wide_bits = wide.size_in_bits() as u32;
    let ext =
        if matches!(opcode, Opcode::G_CTTZ | Opcode::G_CTTZ_ZERO_UNDEF) { Opcode::G_ANYEXT } else { Opcode::G_ZEXT };
    let mut value = h.build(ext, wide, &[src]);
    let mut new_opcode = opcode;
    if opcode == Opcode::G_CTTZ {
        let top = h.constant(wide, ApInt::from_u128(wide_bits, 0).inserted(cur_bits, &ApInt::from_u128(1, 1)));
        value = h.build(Opcode::G_OR, wide, &[value, top]);
        new_opcode = Opcode::G_CTTZ_ZERO_UNDEF;
    }
    let diff = i128::from(wide_bits - cur_bits);
    if opcode == Opcode::G_CTLZ_ZERO_UNDEF {
        let amount = h.builder().constant(wide, diff);
        value = h.build(Opcode::G_SHL, wide, &[value, amount]);
    }
    let mut result = h.build(new_opcode, wide, &[value]);
    if opcode == Opcode::G_CTLZ {
        let amount = h.builder().constant(wide, diff);
        result = h.build(Opcode::G_SUB, wide, &[result, amount]);
    }
    zext_or_trunc_into(h, dst, result);
    erase(h, inst)
}

/// `dst = zext-or-trunc(src)` (a COPY when the sizes agree).
fn zext_or_trunc_into(h: &mut Helper<'_>, dst: VReg, src: VReg) {
    let (to, from) = (h.func.ty(dst).size_in_bits(), h.func.ty(src).size_in_bits());
    let opcode = match to.cmp(&from) {
        std::cmp::Ordering::Greater => Opcode::G_ZEXT,
        std::cmp::Ordering::Less => Opcode::G_TRUNC,
        std::cmp::Ordering::Equal => Opcode::COPY,
    };
    h.build_into(opcode, dst, &[src]);
}

/// `G_PHI`: each incoming value any-extended at the end of its block
/// (before the terminators), the result truncated after the PHIs.
pub(super) fn phi(h: &mut Helper<'_>, inst: Inst, wide: Llt) -> StepResult {
    let operands = h.func.inst(inst).operands.len();
    for index in (1..operands).step_by(2) {
        let Operand::Block(block) = h.func.inst(inst).operands[index + 1] else {
            return StepResult::Unable("G_PHI without its blocks".into());
        };
        match first_terminator(h, block) {
            Some(term) => h.set_insert_before(term),
            None => h.set_insert_at_end(block),
        }
        h.widen_src(inst, index, wide, Opcode::G_ANYEXT);
    }
    let last_phi = last_phi_of(h, inst);
    h.set_insert_before(last_phi);
    h.widen_dst(inst, 0, wide, Opcode::G_TRUNC);
    changed(h, inst)
}

fn first_terminator(h: &Helper<'_>, block: crate::ir::Block) -> Option<Inst> {
    h.func.block_insts(block).find(|i| is_terminator(h, *i))
}

fn is_terminator(h: &Helper<'_>, inst: Inst) -> bool {
    match h.func.inst(inst).opcode {
        InstOpcode::Known(op) => op.info().has(flags::IS_TERMINATOR),
        InstOpcode::Target(name) => crate::ir::is_known_terminator(h.func.names.resolve(name)),
    }
}

/// The last PHI of the block holding `inst` (a PHI itself).
fn last_phi_of(h: &Helper<'_>, inst: Inst) -> Inst {
    let mut last = inst;
    let mut cursor = h.func.next_inst(inst);
    while let Some(i) = cursor {
        if !(h.func.inst(i).is(Opcode::G_PHI) || h.func.inst(i).is(Opcode::PHI)) {
            break;
        }
        last = i;
        cursor = h.func.next_inst(i);
    }
    last
}

/// `G_FMODF`: the source extended, both results truncated after it, the
/// integral part first (LLVM steps the insertion point back over the first
/// truncate before building the second).
pub(super) fn modf(h: &mut Helper<'_>, inst: Inst, wide: Llt) -> StepResult {
    h.widen_src(inst, 2, wide, Opcode::G_FPEXT);
    let integral = h.reg(inst, 1);
    h.widen_dst(inst, 1, wide, Opcode::G_FPTRUNC);
    if let Some(truncate) = h.func.def_inst(integral) {
        h.set_insert_before(truncate);
    }
    h.widen_dst(inst, 0, wide, Opcode::G_FPTRUNC);
    changed(h, inst)
}

/// Floating-point operations: `G_FPEXT` every source, `G_FPTRUNC` the result.
pub(super) fn float_op(h: &mut Helper<'_>, inst: Inst, wide: Llt) -> StepResult {
    let operands = h.func.inst(inst).operands.len();
    for index in 1..operands {
        h.widen_src(inst, index, wide, Opcode::G_FPEXT);
    }
    h.widen_dst(inst, 0, wide, Opcode::G_FPTRUNC);
    changed(h, inst)
}

/// `G_FCONSTANT` becomes the integer constant of its bits, widened.
pub(super) fn fconstant(h: &mut Helper<'_>, inst: Inst, wide: Llt) -> StepResult {
    let dst = h.reg(inst, 0);
    let Operand::FpImm(value) = &h.func.inst(inst).operands[1] else {
        return StepResult::Unable("G_FCONSTANT without a constant".into());
    };
    let bits = value.kind.bits();
    let pattern = ApInt::from_u128(bits, value.bits);
    let constant = h.build_with(Opcode::G_CONSTANT, &[dst], [Operand::cimm(pattern)]);
    h.set_insert_before(constant);
    h.widen_dst(constant, 0, wide, Opcode::G_TRUNC);
    // The constant changed in place: sign- or zero-extend its value to the
    // wide type as `G_CONSTANT` widening does.
    let ext = h.target.ext_for_widening_constant(h.func.ty(dst));
    h.func.modify(constant, |data| {
        if let Operand::CImm(v) = &mut data.operands[1] {
            **v = if ext == Opcode::G_SEXT {
                v.sext_or_trunc(wide.scalar_size_in_bits())
            } else {
                v.zext_or_trunc(wide.scalar_size_in_bits())
            };
        }
    });
    h.mark_changed(constant);
    erase(h, inst)
}

/// Saturating arithmetic and shifts: operands shifted to the top of the
/// wide type, the operation done there, the result shifted back.
pub(super) fn saturating(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, wide: Llt) -> StepResult {
    use Opcode::*;
    let signed = matches!(opcode, G_SADDSAT | G_SSUBSAT | G_SSHLSAT);
    let shift = matches!(opcode, G_SSHLSAT | G_USHLSAT);
    let (dst, a, b) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let amount = i128::from(wide.scalar_size_in_bits() - h.func.ty(dst).scalar_size_in_bits());
    let lhs = h.build(G_ANYEXT, wide, &[a]);
    let rhs = h.build(if shift { G_ZEXT } else { G_ANYEXT }, wide, &[b]);
    let k = h.builder().constant(wide, amount);
    let shifted_l = h.build(G_SHL, wide, &[lhs, k]);
    let shifted_r = if shift { rhs } else { h.build(G_SHL, wide, &[rhs, k]) };
    let wide_op = h.build(opcode, wide, &[shifted_l, shifted_r]);
    let result = h.build(if signed { G_ASHR } else { G_LSHR }, wide, &[wide_op, k]);
    h.build_into(G_TRUNC, dst, &[result]);
    erase(h, inst)
}

/// `G_UMULO` / `G_SMULO`: multiply extended operands; overflow when the
/// wide product does not survive a round trip through the narrow width.
pub(super) fn mulo(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, idx: usize, wide: Llt) -> StepResult {
    if idx == 1 {
        h.widen_dst(inst, 1, wide, Opcode::G_TRUNC);
        return changed(h, inst);
    }
    let signed = opcode == Opcode::G_SMULO;
    let (result, overflow) = (h.reg(inst, 0), h.reg(inst, 1));
    let (a, b) = (h.reg(inst, 2), h.reg(inst, 3));
    let src_bits = h.func.ty(a).scalar_size_in_bits();
    let overflow_ty = h.func.ty(overflow);
    let ext = if signed { Opcode::G_SEXT } else { Opcode::G_ZEXT };
    let lhs = h.build(ext, wide, &[a]);
    let rhs = h.build(ext, wide, &[b]);
    let wide_can_overflow = wide.scalar_size_in_bits() < 2 * src_bits;
    let uses = vec![Operand::vreg_use(lhs), Operand::vreg_use(rhs)];
    let (product, wide_overflow) = if wide_can_overflow {
        let defs = h.builder().build(opcode, &[wide, overflow_ty], uses).1;
        (defs[0], Some(defs[1]))
    } else {
        (h.builder().build(Opcode::G_MUL, &[wide], uses).1[0], None)
    };
    h.build_into(Opcode::G_TRUNC, result, &[product]);
    let extended = if signed {
        let dst = h.func.new_vreg(wide);
        h.builder().insert({
            let mut d = crate::ir::InstData::new(InstOpcode::Known(Opcode::G_SEXT_INREG));
            d.num_defs = 1;
            d.operands.push(Operand::vreg_def(dst));
            d.operands.push(Operand::vreg_use(product));
            d.operands.push(Operand::Imm(i64::from(src_bits)));
            d
        });
        dst
    } else {
        let mask = h.constant(wide, ApInt::all_ones(src_bits).zext_or_trunc(wide.scalar_size_in_bits()));
        h.build(Opcode::G_AND, wide, &[product, mask])
    };
    let compare = || vec![Operand::IntPred(IntPredicate::Ne), Operand::vreg_use(product), Operand::vreg_use(extended)];
    match wide_overflow {
        Some(wide_overflow) => {
            let uses = compare();
            let cmp = h.builder().build(Opcode::G_ICMP, &[overflow_ty], uses).1[0];
            h.build_into(Opcode::G_OR, overflow, &[wide_overflow, cmp]);
        }
        None => {
            let uses = compare();
            h.build_with(Opcode::G_ICMP, &[overflow], uses);
        }
    }
    erase(h, inst)
}

/// `G_BUILD_VECTOR`: any-extend the sources; widening the element type
/// only (index 1) turns it into `G_BUILD_VECTOR_TRUNC`.
pub(super) fn build_vector(h: &mut Helper<'_>, inst: Inst, idx: usize, wide: Llt) -> StepResult {
    let element = if idx == 1 { wide } else { wide.scalar_type() };
    let operands = h.func.inst(inst).operands.len();
    for index in 1..operands {
        h.widen_src(inst, index, element, Opcode::G_ANYEXT);
    }
    if idx == 1 {
        h.func.modify(inst, |data| data.opcode = InstOpcode::Known(Opcode::G_BUILD_VECTOR_TRUNC));
    } else {
        h.widen_dst(inst, 0, wide, Opcode::G_TRUNC);
    }
    changed(h, inst)
}

/// `G_INSERT_SUBVECTOR` of masks (`s1` lanes) widened to `wide`: both
/// vectors zero-extended, inserted at the wide type, and compared with zero
/// back to a mask (LLVM's `widenScalar`, which is only right for masks).
pub(super) fn insert_subvector(h: &mut Helper<'_>, inst: Inst, wide: Llt) -> StepResult {
    let (dst, big, sub) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let Some(Operand::Imm(index)) = h.func.inst(inst).operands.get(3).cloned() else {
        return StepResult::Unable("widening G_INSERT_SUBVECTOR: no index".into());
    };
    if h.func.ty(dst).scalar_size_in_bits() != 1 {
        return StepResult::Unable("widening G_INSERT_SUBVECTOR: only masks (s1 lanes) are widened".into());
    }
    let sub_wide = h.func.ty(sub).change_element_type(wide.element_type());
    let big_ext = h.build(Opcode::G_ZEXT, wide, &[big]);
    let sub_ext = h.build(Opcode::G_ZEXT, sub_wide, &[sub]);
    let (_, inserted) = h.builder().build(
        Opcode::G_INSERT_SUBVECTOR,
        &[wide],
        vec![Operand::vreg_use(big_ext), Operand::vreg_use(sub_ext), Operand::Imm(index)],
    );
    let zero = h.builder().constant(wide.element_type(), 0);
    let splat = h.build(Opcode::G_SPLAT_VECTOR, wide, &[zero]);
    let uses = vec![Operand::IntPred(IntPredicate::Ne), Operand::vreg_use(inserted[0]), Operand::vreg_use(splat)];
    h.build_with(Opcode::G_ICMP, &[dst], uses);
    h.func.erase(inst);
    StepResult::Legalized
}
