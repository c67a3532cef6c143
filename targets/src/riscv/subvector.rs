//! `G_EXTRACT_SUBVECTOR` and `G_INSERT_SUBVECTOR` on RISC-V
//! (`legalizeExtractSubvector`, `legalizeInsertSubvector`). A part
//! extracted at index 0, inserted at index 0 into an undefined vector, or
//! aligned to whole vector registers, stays (register copies select it); a
//! mask part goes through bytes; any other part is slid, down to element 0
//! of its vector register to extract it, up from element 0 to insert it
//! (a tail-undisturbed `vmv.v.v` when it goes to element 0).

use gisel_core::apint::ApInt;
use gisel_core::ir::{Inst, InstData, InstOpcode, IntPredicate, Operand, VReg};
use gisel_core::legality::CustomOutcome;
use gisel_core::legalize::{Helper, StepResult};
use gisel_core::opcode::Opcode::*;
use gisel_core::ty::Llt;

/// Bits of one vector register's worth of a scalable type (LLVM's
/// `RVVBitsPerBlock`).
const BLOCK_BITS: u64 = 64;

/// Tail- and mask-agnostic policy of the slide (`TAIL_AGNOSTIC |
/// MASK_AGNOSTIC`).
const AGNOSTIC: i64 = 3;

/// Tail-agnostic policy of a slide that writes up to the register's end.
const TAIL_AGNOSTIC: i64 = 1;

/// Tail- and mask-undisturbed policy.
const UNDISTURBED: i64 = 0;

/// Legalizes `inst`, a `G_EXTRACT_SUBVECTOR` of legal vector types.
pub(super) fn extract_subvector(h: &mut Helper<'_>, inst: Inst, xlen: Llt) -> CustomOutcome {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let Some(&Operand::Imm(index)) = h.func.inst(inst).operands.get(2) else { return CustomOutcome::Failed };
    if index == 0 {
        return CustomOutcome::Done;
    }
    let (part_ty, whole_ty) = (h.func.ty(dst), h.func.ty(src));
    if part_ty.element_type() == Llt::scalar(1) {
        mask_through_bytes(h, inst, index);
        return CustomOutcome::Done;
    }
    let rest = index_within_register(whole_ty, part_ty, index as u64);
    if rest == 0 {
        return CustomOutcome::Done;
    }
    // From a register group, first take the single register holding the part.
    let per_register = (BLOCK_BITS / u64::from(whole_ty.scalar_size_in_bits())) as u32;
    let register_ty = Llt::scalable_vector(per_register, whole_ty.element_type());
    let (slid_ty, vector) = if whole_ty.size_in_bits() > register_ty.size_in_bits() {
        (register_ty, extract(h, register_ty, src, index - rest as i64))
    } else {
        (whole_ty, src)
    };
    let amount = vscale_times(h, xlen, rest);
    // All lanes of the whole vector length: VL -1 and a set mask.
    let vl = h.builder().constant(xlen, -1);
    let mask = h.func.new_vreg(Llt::scalable_vector(slid_ty.num_elements(), Llt::scalar(1)));
    target_op_into(h, "G_VMSET_VL", mask, vec![Operand::vreg_use(vl)]);
    let passthru = h.build(G_IMPLICIT_DEF, slid_ty, &[]);
    let slid = h.func.new_vreg(slid_ty);
    let mut uses = [passthru, vector, amount, mask, vl].map(Operand::vreg_use).to_vec();
    uses.push(Operand::Imm(AGNOSTIC));
    target_op_into(h, "G_VSLIDEDOWN_VL", slid, uses);
    h.build_with(G_EXTRACT_SUBVECTOR, &[dst], [Operand::vreg_use(slid), Operand::Imm(0)]);
    h.func.erase(inst);
    CustomOutcome::Done
}

/// Legalizes `inst`, a `G_INSERT_SUBVECTOR` of legal vector types.
pub(super) fn insert_subvector(h: &mut Helper<'_>, inst: Inst, xlen: Llt) -> CustomOutcome {
    let (dst, whole, part) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let Some(&Operand::Imm(index)) = h.func.inst(inst).operands.get(3) else { return CustomOutcome::Failed };
    if index == 0 && is_undef(h, whole) {
        return CustomOutcome::Done;
    }
    let (whole_ty, part_ty) = (h.func.ty(whole), h.func.ty(part));
    let byte = Llt::scalar(8);
    if part_ty.element_type() == Llt::scalar(1) {
        if whole_ty.num_elements() >= 8 && part_ty.num_elements() >= 8 {
            let bytes = Llt::scalable_vector(whole_ty.num_elements() / 8, byte);
            return match h.bitcast(inst, 0, bytes) {
                StepResult::Unable(_) => CustomOutcome::Failed,
                _ => CustomOutcome::Done,
            };
        }
        mask_insert_through_bytes(h, inst, index);
        return CustomOutcome::Done;
    }
    let rest = index_within_register(whole_ty, part_ty, index as u64);
    if rest == 0 && part_ty.size_in_bits().is_multiple_of(BLOCK_BITS) {
        return CustomOutcome::Done;
    }
    // Into a register group, the part goes into the register holding it.
    let per_register = (BLOCK_BITS / u64::from(whole_ty.scalar_size_in_bits())) as u32;
    let register_ty = Llt::scalable_vector(per_register, whole_ty.element_type());
    let aligned_index = index - rest as i64;
    let in_group = whole_ty.size_in_bits() > register_ty.size_in_bits();
    let (slot_ty, slot) =
        if in_group { (register_ty, extract(h, register_ty, whole, aligned_index)) } else { (whole_ty, whole) };
    let undef = h.build(G_IMPLICIT_DEF, slot_ty, &[]);
    let placed = h.func.new_vreg(slot_ty);
    let uses = vec![Operand::vreg_use(undef), Operand::vreg_use(part), Operand::Imm(0)];
    h.build_with(G_INSERT_SUBVECTOR, &[placed], uses);
    let all = h.builder().constant(xlen, -1);
    let mask = h.func.new_vreg(Llt::scalable_vector(slot_ty.num_elements(), Llt::scalar(1)));
    target_op_into(h, "G_VMSET_VL", mask, vec![Operand::vreg_use(all)]);
    let part_length = vscale_times(h, xlen, u64::from(part_ty.num_elements()));
    let inserted = if in_group { h.func.new_vreg(slot_ty) } else { dst };
    if rest == 0 {
        let uses = [slot, placed, part_length].map(Operand::vreg_use).to_vec();
        target_op_into(h, "G_VMV_V_V_VL", inserted, uses);
    } else {
        // Elements below the offset stay; the slide writes the part up to
        // the offset plus its length.
        let offset = vscale_times(h, xlen, rest);
        let end = h.build(G_ADD, xlen, &[offset, part_length]);
        let reaches_end = rest + u64::from(part_ty.num_elements()) == u64::from(slot_ty.num_elements());
        let mut uses = [slot, placed, offset, mask, end].map(Operand::vreg_use).to_vec();
        uses.push(Operand::Imm(if reaches_end { TAIL_AGNOSTIC } else { UNDISTURBED }));
        target_op_into(h, "G_VSLIDEUP_VL", inserted, uses);
    }
    if in_group {
        let uses = vec![Operand::vreg_use(whole), Operand::vreg_use(inserted), Operand::Imm(aligned_index)];
        h.build_with(G_INSERT_SUBVECTOR, &[dst], uses);
    }
    h.func.erase(inst);
    CustomOutcome::Done
}

/// Is `vector` defined by a `G_IMPLICIT_DEF`?
fn is_undef(h: &Helper<'_>, vector: VReg) -> bool {
    h.func.def_inst(vector).and_then(|def| h.func.inst(def).known_opcode()) == Some(G_IMPLICIT_DEF)
}

/// Mask elements cannot be slid: both vectors are widened to bytes, the
/// part inserted there and the result compared with zero.
fn mask_insert_through_bytes(h: &mut Helper<'_>, inst: Inst, index: i64) {
    let (dst, whole, part) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let byte = Llt::scalar(8);
    let wide_ty = h.func.ty(whole).change_element_type(byte);
    let wide_whole = h.build(G_ZEXT, wide_ty, &[whole]);
    let part_ty = h.func.ty(part).change_element_type(byte);
    let wide_part = h.build(G_ZEXT, part_ty, &[part]);
    let inserted = h.func.new_vreg(wide_ty);
    let uses = vec![Operand::vreg_use(wide_whole), Operand::vreg_use(wide_part), Operand::Imm(index)];
    h.build_with(G_INSERT_SUBVECTOR, &[inserted], uses);
    compare_with_zero(h, dst, inserted);
    h.func.erase(inst);
}

/// `dst = bytes != splat(0)`, back to a mask.
fn compare_with_zero(h: &mut Helper<'_>, dst: VReg, bytes: VReg) {
    let ty = h.func.ty(bytes);
    let zero = h.builder().constant(Llt::scalar(8), 0);
    let zeros = h.build(G_SPLAT_VECTOR, ty, &[zero]);
    let uses = vec![Operand::IntPred(IntPredicate::Ne), Operand::vreg_use(bytes), Operand::vreg_use(zeros)];
    h.build_with(G_ICMP, &[dst], uses);
}

/// `G_VSCALE` times `factor`, of type `xlen`.
fn vscale_times(h: &mut Helper<'_>, xlen: Llt, factor: u64) -> VReg {
    let value = h.func.new_vreg(xlen);
    let factor = ApInt::from_u128(xlen.scalar_size_in_bits(), u128::from(factor));
    h.build_with(G_VSCALE, &[value], [Operand::cimm(factor)]);
    value
}

/// Mask elements cannot be slid: the source is widened to bytes, the part
/// extracted there and compared with zero.
fn mask_through_bytes(h: &mut Helper<'_>, inst: Inst, index: i64) {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let byte = Llt::scalar(8);
    let wide_ty = h.func.ty(src).change_element_type(byte);
    let part_ty = h.func.ty(dst).change_element_type(byte);
    let wide = h.build(G_ZEXT, wide_ty, &[src]);
    let part = extract(h, part_ty, wide, index);
    compare_with_zero(h, dst, part);
    h.func.erase(inst);
}

/// `G_EXTRACT_SUBVECTOR` of `ty` from `vector` at `index`.
fn extract(h: &mut Helper<'_>, ty: Llt, vector: VReg, index: i64) -> VReg {
    let part = h.func.new_vreg(ty);
    h.build_with(G_EXTRACT_SUBVECTOR, &[part], [Operand::vreg_use(vector), Operand::Imm(index)]);
    part
}

/// A target generic instruction `name` defining `dst` from `uses`.
fn target_op_into(h: &mut Helper<'_>, name: &str, dst: VReg, uses: Vec<Operand>) {
    let symbol = h.func.names.intern(name);
    let mut data = InstData::new(InstOpcode::Target(symbol));
    data.num_defs = 1;
    data.operands.push(Operand::vreg_def(dst));
    data.operands.extend(uses);
    h.builder().insert(data);
}

/// The index left once the part's vector register is found inside the
/// source's register group (`decomposeSubvectorInsertExtractToSubRegs`):
/// the group is halved for each group size below the source's the part
/// still fits.
fn index_within_register(whole: Llt, part: Llt, mut index: u64) -> u64 {
    let registers = |ty: Llt| ty.size_in_bits().div_ceil(BLOCK_BITS).max(1);
    let (whole_registers, part_registers) = (registers(whole), registers(part));
    let mut count = u64::from(whole.num_elements());
    for group in [4, 2, 1] {
        if whole_registers > group && part_registers <= group {
            count /= 2;
            if index >= count {
                index -= count;
            }
        }
    }
    index
}
