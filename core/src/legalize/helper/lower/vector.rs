//! Vector extensions and truncations by more than a factor of two, done
//! in halves (LLVM's `lowerEXT` and `lowerTRUNC`): an extension first
//! doubles the element size, then extends each half of the vector the
//! rest of the way; a truncation narrows each half of the source, at most
//! to twice the result's element size, and truncates their concatenation.

use super::{Helper, StepResult, done, op, op_into, unable};
use crate::ir::{Inst, VReg};
use crate::opcode::Opcode::{self, *};
use crate::ty::Llt;

/// Lowers `G_ZEXT`/`G_SEXT`/`G_ANYEXT` (`opcode`) or `G_TRUNC` of vectors.
pub(super) fn lower(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    if !dst_ty.is_fixed_vector() || !src_ty.is_fixed_vector() || !dst_ty.num_elements().is_multiple_of(2) {
        return unable(opcode, "only fixed vectors of an even element count are done in halves");
    }
    let (dst_bits, src_bits) = (dst_ty.scalar_size_in_bits(), src_ty.scalar_size_in_bits());
    // Half the lanes: a scalar for a pair, as LLVM's `changeElementCount`.
    let half = |ty: Llt| match ty.num_elements() / 2 {
        1 => ty.element_type(),
        n => Llt::fixed_vector(n, ty.element_type()),
    };
    if opcode == G_TRUNC {
        if src_bits < 2 * dst_bits {
            return unable(opcode, "the elements must at least halve");
        }
        return truncate(h, inst, dst, src, half(src_ty));
    }
    if dst_bits < 2 * src_bits {
        return unable(opcode, "the elements must at least double");
    }
    let middle = op(h, opcode, src_ty.change_element_size(2 * src_bits), &[src]);
    let halves = h.split(middle, half(h.func.ty(middle)), 2);
    let pieces: Vec<VReg> = halves.iter().map(|piece| op(h, opcode, half(dst_ty), &[*piece])).collect();
    op_into(h, merge_opcode(h, pieces[0]), dst, &pieces);
    done(h, inst)
}

/// `G_TRUNC` of the two halves of `src` (of type `half_ty`) to twice the
/// result's element size (or to it), concatenated and truncated again.
fn truncate(h: &mut Helper<'_>, inst: Inst, dst: VReg, src: VReg, half_ty: Llt) -> StepResult {
    let dst_ty = h.func.ty(dst);
    let dst_bits = dst_ty.scalar_size_in_bits();
    let twice = 2 * dst_bits < half_ty.scalar_size_in_bits();
    let inter_bits = if twice { 2 * dst_bits } else { dst_bits };
    let halves = h.split(src, half_ty, 2);
    let narrowed: Vec<VReg> =
        halves.iter().map(|piece| op(h, G_TRUNC, half_ty.change_element_size(inter_bits), &[*piece])).collect();
    let merge = merge_opcode(h, narrowed[0]);
    if twice {
        let joined = op(h, merge, dst_ty.change_element_size(inter_bits), &narrowed);
        op_into(h, G_TRUNC, dst, &[joined]);
    } else {
        op_into(h, merge, dst, &narrowed);
    }
    done(h, inst)
}

/// How pieces like `piece` join into a vector: `G_CONCAT_VECTORS` of
/// vectors, `G_BUILD_VECTOR` of scalars.
fn merge_opcode(h: &Helper<'_>, piece: VReg) -> Opcode {
    if h.func.ty(piece).is_vector() { G_CONCAT_VECTORS } else { G_BUILD_VECTOR }
}
