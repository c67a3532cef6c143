//! `Bitcast` of element access (LLVM's `bitcastExtractVectorElt` and
//! `bitcastInsertVectorElt`): index the vector as a vector of other-sized
//! elements, with bit operations to reach the original element; and of
//! subvector extraction and insertion (`bitcastExtractSubvector`,
//! `bitcastInsertSubvector`).

use super::{Helper, StepResult};
use crate::apint::ApInt;
use crate::ir::{Inst, Operand, VReg};
use crate::opcode::Opcode::{self, *};
use crate::ty::Llt;

fn unable(opcode: Opcode, idx: usize, cast: Llt, why: &str) -> StepResult {
    StepResult::Unable(format!("bitcast for {opcode} type{idx} to {cast}: {why}"))
}

fn cst(h: &mut Helper<'_>, ty: Llt, value: ApInt) -> VReg {
    let reg = h.func.new_vreg(ty);
    h.build_with(G_CONSTANT, &[reg], [Operand::cimm(value)]);
    reg
}

/// The element type and count of `cast` (a scalar is one element).
fn shape(cast: Llt) -> (Llt, u32) {
    if cast.is_vector() { (cast.element_type(), cast.num_elements()) } else { (cast, 1) }
}

/// `getBitcastWiderVectorElementOffset`: `(idx & (ratio - 1)) << log2(old)`.
fn bit_offset(h: &mut Helper<'_>, index: VReg, new_bits: u32, old_bits: u32) -> VReg {
    let index_ty = h.func.ty(index);
    let bits = index_ty.scalar_size_in_bits();
    let log2_ratio = (new_bits / old_bits).trailing_zeros();
    let mask = cst(h, index_ty, ApInt::from_u128(bits, (1u128 << log2_ratio) - 1));
    let offset_index = h.build(G_AND, index_ty, &[index, mask]);
    let shift = cst(h, index_ty, ApInt::from_u128(bits, u128::from(old_bits.trailing_zeros())));
    h.build(G_SHL, index_ty, &[offset_index, shift])
}

/// `bitcastExtractVectorElt` (type index 1).
pub(super) fn extract_element(h: &mut Helper<'_>, inst: Inst, idx: usize, cast: Llt) -> StepResult {
    let (dst, vector, index) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let (vector_ty, index_ty) = (h.func.ty(vector), h.func.ty(index));
    let (new_elt, new_count) = shape(cast);
    let old_count = vector_ty.num_elements();
    let (new_bits, old_bits) = (new_elt.scalar_size_in_bits(), vector_ty.scalar_size_in_bits());
    if idx != 1 || cast.size_in_bits() != vector_ty.size_in_bits() || new_count == old_count {
        return unable(G_EXTRACT_VECTOR_ELT, idx, cast, "needs a same-sized vector with another element count");
    }
    if new_count > old_count && !new_count.is_multiple_of(old_count) {
        return unable(G_EXTRACT_VECTOR_ELT, idx, cast, "element counts do not divide");
    }
    if new_count < old_count && (!new_bits.is_multiple_of(old_bits) || !(new_bits / old_bits).is_power_of_two()) {
        return unable(G_EXTRACT_VECTOR_ELT, idx, cast, "the element size ratio is not a power of 2");
    }
    let bits = index_ty.scalar_size_in_bits();
    let cast_vec = h.build(G_BITCAST, cast, &[vector]);
    if new_count > old_count {
        let per_old = new_count / old_count;
        let mid = Llt::scalar_or_vector(per_old, false, new_elt);
        let k = cst(h, index_ty, ApInt::from_u128(bits, u128::from(per_old)));
        let base = h.build(G_MUL, index_ty, &[index, k]);
        let mut elements = Vec::with_capacity(per_old as usize);
        for i in 0..per_old {
            let offset = cst(h, index_ty, ApInt::from_u128(bits, u128::from(i)));
            let at = h.build(G_ADD, index_ty, &[base, offset]);
            elements.push(h.build(G_EXTRACT_VECTOR_ELT, new_elt, &[cast_vec, at]));
        }
        let built = h.build(G_BUILD_VECTOR, mid, &elements);
        h.build_into(G_BITCAST, dst, &[built]);
    } else {
        let log2 = cst(h, index_ty, ApInt::from_u128(bits, u128::from((new_bits / old_bits).trailing_zeros())));
        let scaled = h.build(G_LSHR, index_ty, &[index, log2]);
        let wide =
            if cast.is_vector() { h.build(G_EXTRACT_VECTOR_ELT, new_elt, &[cast_vec, scaled]) } else { cast_vec };
        let offset = bit_offset(h, index, new_bits, old_bits);
        let shifted = h.build(G_LSHR, new_elt, &[wide, offset]);
        h.build_into(G_TRUNC, dst, &[shifted]);
    }
    h.func.erase(inst);
    StepResult::Legalized
}

/// `bitcastInsertVectorElt` (type index 0, wider elements only).
pub(super) fn insert_element(h: &mut Helper<'_>, inst: Inst, idx: usize, cast: Llt) -> StepResult {
    let (dst, vector, value, index) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2), h.reg(inst, 3));
    let (vector_ty, index_ty) = (h.func.ty(dst), h.func.ty(index));
    let (new_elt, new_count) = shape(cast);
    let (new_bits, old_bits) = (new_elt.scalar_size_in_bits(), vector_ty.scalar_size_in_bits());
    if idx != 0
        || cast.size_in_bits() != vector_ty.size_in_bits()
        || new_count >= vector_ty.num_elements()
        || !new_bits.is_multiple_of(old_bits)
        || !(new_bits / old_bits).is_power_of_two()
    {
        return unable(G_INSERT_VECTOR_ELT, idx, cast, "only wider elements by a power-of-2 ratio");
    }
    let bits = index_ty.scalar_size_in_bits();
    let cast_vec = h.build(G_BITCAST, cast, &[vector]);
    let log2 = cst(h, index_ty, ApInt::from_u128(bits, u128::from((new_bits / old_bits).trailing_zeros())));
    let scaled = h.build(G_LSHR, index_ty, &[index, log2]);
    let target = if cast.is_vector() { h.build(G_EXTRACT_VECTOR_ELT, new_elt, &[cast_vec, scaled]) } else { cast_vec };
    let offset = bit_offset(h, index, new_bits, old_bits);
    // buildBitFieldInsert: (target & ~(mask << offset)) | (zext(value) << offset).
    let value_bits = h.func.ty(value).size_in_bits() as u32;
    let extended = h.build(G_ZEXT, new_elt, &[value]);
    let shifted_value = h.build(G_SHL, new_elt, &[extended, offset]);
    let low = if value_bits >= 128 { u128::MAX } else { (1u128 << value_bits) - 1 };
    let mask = cst(h, new_elt, ApInt::from_u128(new_bits, low));
    let shifted_mask = h.build(G_SHL, new_elt, &[mask, offset]);
    let all_ones = cst(h, new_elt, ApInt::from_i128(new_bits, -1));
    let inverted = h.build(G_XOR, new_elt, &[shifted_mask, all_ones]);
    let cleared = h.build(G_AND, new_elt, &[target, inverted]);
    let mut inserted = h.build(G_OR, new_elt, &[cleared, shifted_value]);
    if cast.is_vector() {
        inserted = h.build(G_INSERT_VECTOR_ELT, cast, &[cast_vec, inserted, scaled]);
    }
    h.build_into(G_BITCAST, dst, &[inserted]);
    h.func.erase(inst);
    StepResult::Legalized
}

/// `G_EXTRACT_SUBVECTOR` (`bitcastExtractSubvector`): the source seen as a
/// vector of elements `cast`'s element size over the old one wide, the
/// index divided by that ratio, the extracted part cast back. LLVM 22
/// gives the source's new elements as many bits as the ratio: right for
/// single-bit elements (its use), a bitcast between different sizes for
/// any other, where gisel uses the cast's element size.
pub(super) fn extract_subvector(h: &mut Helper<'_>, inst: Inst, idx: usize, cast: Llt) -> StepResult {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    let Some(&Operand::Imm(index)) = h.func.inst(inst).operands.get(2) else {
        return unable(G_EXTRACT_SUBVECTOR, idx, cast, "the index is not an immediate");
    };
    if idx != 0 || !cast.is_vector() || dst_ty.size_in_bits() != cast.size_in_bits() {
        return unable(G_EXTRACT_SUBVECTOR, idx, cast, "needs a same-sized vector for the result");
    }
    let (new_bits, old_bits) = (cast.scalar_size_in_bits(), dst_ty.scalar_size_in_bits());
    let ratio = new_bits / old_bits;
    let divides = |n: u64| n.is_multiple_of(u64::from(ratio));
    if new_bits < old_bits || !divides(index as u64) || !divides(dst_ty.num_elements().into()) {
        return unable(G_EXTRACT_SUBVECTOR, idx, cast, "the elements do not group evenly");
    }
    if !divides(src_ty.num_elements().into()) {
        return unable(G_EXTRACT_SUBVECTOR, idx, cast, "the source's elements do not group evenly");
    }
    let grouped = Llt::scalar_or_vector(src_ty.num_elements() / ratio, src_ty.is_scalable(), Llt::scalar(new_bits));
    let cast_src = h.build(G_BITCAST, grouped, &[src]);
    let part = h.func.new_vreg(cast);
    let uses = vec![Operand::vreg_use(cast_src), Operand::Imm(index / i64::from(ratio))];
    h.build_with(G_EXTRACT_SUBVECTOR, &[part], uses);
    h.build_into(G_BITCAST, dst, &[part]);
    h.func.erase(inst);
    StepResult::Legalized
}

/// `G_INSERT_SUBVECTOR` (`bitcastInsertSubvector`): both vectors seen as
/// vectors of the cast's wider elements (LLVM 22 makes them as many bits
/// as the size ratio, as for the extract), the index divided by that
/// ratio, the result cast back.
pub(super) fn insert_subvector(h: &mut Helper<'_>, inst: Inst, idx: usize, cast: Llt) -> StepResult {
    let (dst, whole, part) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let (dst_ty, whole_ty, part_ty) = (h.func.ty(dst), h.func.ty(whole), h.func.ty(part));
    let Some(&Operand::Imm(index)) = h.func.inst(inst).operands.get(3) else {
        return unable(G_INSERT_SUBVECTOR, idx, cast, "the index is not an immediate");
    };
    if idx != 0 || !cast.is_vector() || dst_ty.size_in_bits() != cast.size_in_bits() {
        return unable(G_INSERT_SUBVECTOR, idx, cast, "needs a same-sized vector for the result");
    }
    let (new_bits, old_bits) = (cast.scalar_size_in_bits(), dst_ty.scalar_size_in_bits());
    let ratio = new_bits / old_bits;
    let divides = |n: u64| n.is_multiple_of(u64::from(ratio));
    let counts = [dst_ty, whole_ty, part_ty].map(|ty| u64::from(ty.num_elements()));
    if new_bits < old_bits || !divides(index as u64) || !counts.into_iter().all(divides) {
        return unable(G_INSERT_SUBVECTOR, idx, cast, "the elements do not group evenly");
    }
    let grouped = |ty: Llt| Llt::scalar_or_vector(ty.num_elements() / ratio, ty.is_scalable(), Llt::scalar(new_bits));
    let cast_whole = h.build(G_BITCAST, grouped(whole_ty), &[whole]);
    let cast_part = h.build(G_BITCAST, grouped(part_ty), &[part]);
    let inserted = h.func.new_vreg(cast);
    let uses =
        vec![Operand::vreg_use(cast_whole), Operand::vreg_use(cast_part), Operand::Imm(index / i64::from(ratio))];
    h.build_with(G_INSERT_SUBVECTOR, &[inserted], uses);
    h.build_into(G_BITCAST, dst, &[inserted]);
    h.func.erase(inst);
    StepResult::Legalized
}
