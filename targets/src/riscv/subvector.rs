//! `G_EXTRACT_SUBVECTOR` on RISC-V (`legalizeExtractSubvector`). A part at
//! index 0, or one that fills whole vector registers of the source, stays
//! (a register copy selects it); a mask part goes through bytes; any other
//! part is slid down to element 0 of its vector register and taken there.

use gisel_core::apint::ApInt;
use gisel_core::ir::{Inst, InstData, InstOpcode, IntPredicate, Operand, VReg};
use gisel_core::legality::CustomOutcome;
use gisel_core::legalize::Helper;
use gisel_core::opcode::Opcode::*;
use gisel_core::ty::Llt;

/// Bits of one vector register's worth of a scalable type (LLVM's
/// `RVVBitsPerBlock`).
const BLOCK_BITS: u64 = 64;

/// Tail- and mask-agnostic policy of the slide (`TAIL_AGNOSTIC |
/// MASK_AGNOSTIC`).
const AGNOSTIC: i64 = 3;

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
    let amount = h.func.new_vreg(xlen);
    let elements = ApInt::from_u128(xlen.scalar_size_in_bits(), u128::from(rest));
    h.build_with(G_VSCALE, &[amount], vec![Operand::cimm(elements)]);
    // All lanes of the whole vector length: VL -1 and a set mask.
    let vl = h.builder().constant(xlen, -1);
    let mask = h.func.new_vreg(Llt::scalable_vector(slid_ty.num_elements(), Llt::scalar(1)));
    target_op_into(h, "G_VMSET_VL", mask, vec![Operand::vreg_use(vl)]);
    let passthru = h.build(G_IMPLICIT_DEF, slid_ty, &[]);
    let slid = h.func.new_vreg(slid_ty);
    let mut uses = [passthru, vector, amount, mask, vl].map(Operand::vreg_use).to_vec();
    uses.push(Operand::Imm(AGNOSTIC));
    target_op_into(h, "G_VSLIDEDOWN_VL", slid, uses);
    h.build_with(G_EXTRACT_SUBVECTOR, &[dst], vec![Operand::vreg_use(slid), Operand::Imm(0)]);
    h.func.erase(inst);
    CustomOutcome::Done
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
    let zero = h.builder().constant(byte, 0);
    let zeros = h.build(G_SPLAT_VECTOR, part_ty, &[zero]);
    let uses = vec![Operand::IntPred(IntPredicate::Ne), Operand::vreg_use(part), Operand::vreg_use(zeros)];
    h.build_with(G_ICMP, &[dst], uses);
    h.func.erase(inst);
}

/// `G_EXTRACT_SUBVECTOR` of `ty` from `vector` at `index`.
fn extract(h: &mut Helper<'_>, ty: Llt, vector: VReg, index: i64) -> VReg {
    let part = h.func.new_vreg(ty);
    h.build_with(G_EXTRACT_SUBVECTOR, &[part], vec![Operand::vreg_use(vector), Operand::Imm(index)]);
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
