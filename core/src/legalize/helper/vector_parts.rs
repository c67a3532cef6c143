//! Building blocks of the vector actions: merge-like instructions that pick
//! their opcode from the types (`buildMergeLikeInstr`), splitting a vector
//! into pieces of N elements plus a leftover (`extractVectorParts`,
//! `extractParts` with leftover), re-merging pieces of mixed sizes
//! (`mergeMixedSubvectors`), padding with undef lanes and dropping trailing
//! lanes (`buildPadVectorWithUndefElements`,
//! `buildDeleteTrailingVectorElements`), and the vector GCD/LCM types.

use super::Helper;
use crate::apint::ApInt;
use crate::ir::{Block, InsertPoint, Inst, Operand, Reg, VReg};
use crate::opcode::{Opcode, flags};
use crate::ty::Llt;

/// `N` elements of `element`, or the element itself when `N` is 1.
pub(super) fn piece_ty(element: Llt, count: u32) -> Llt {
    Llt::scalar_or_vector(count, false, element)
}

/// The opcode `buildMergeLikeInstr` picks for `dst_ty` from `part_ty` parts.
pub(in crate::legalize) fn merge_opcode(dst_ty: Llt, part_ty: Llt) -> Opcode {
    match (dst_ty.is_vector(), part_ty.is_vector()) {
        (true, true) => Opcode::G_CONCAT_VECTORS,
        (true, false) => Opcode::G_BUILD_VECTOR,
        _ => Opcode::G_MERGE_VALUES,
    }
}

/// A merge-like instruction defining a new vreg of `ty` from `parts`.
pub(super) fn merge_new(h: &mut Helper<'_>, ty: Llt, parts: &[VReg]) -> VReg {
    let opcode = merge_opcode(ty, h.func.ty(parts[0]));
    h.build(opcode, ty, parts)
}

/// A merge-like instruction defining the existing vreg `dst` from `parts`.
pub(super) fn merge_into(h: &mut Helper<'_>, dst: VReg, parts: &[VReg]) {
    let opcode = merge_opcode(h.func.ty(dst), h.func.ty(parts[0]));
    h.build_into(opcode, dst, parts);
}

/// `G_UNMERGE_VALUES` of `value` into as many `piece` pieces as fit.
pub(super) fn unmerge(h: &mut Helper<'_>, piece: Llt, value: VReg) -> Vec<VReg> {
    let count = (h.func.ty(value).size_in_bits() / piece.size_in_bits()) as usize;
    h.split(value, piece, count)
}

/// `extractVectorParts`: pieces of `count` elements; an uneven split
/// unmerges into elements and rebuilds the pieces, the last (leftover) one
/// smaller. The unmerges define registers made beforehand (LLVM's
/// `extractParts`), so CSE never shares them: an operand used twice is
/// split twice.
pub(super) fn extract_vector_parts(h: &mut Helper<'_>, value: VReg, count: u32) -> Vec<VReg> {
    let ty = h.func.ty(value);
    let element = ty.element_type();
    let total = ty.num_elements();
    let narrow = piece_ty(element, count);
    if total.is_multiple_of(count) {
        return h.split_named(value, narrow, (total / count) as usize);
    }
    let elements = h.split_named(value, element, total as usize);
    let mut pieces = Vec::with_capacity(elements.len().div_ceil(count as usize));
    for chunk in elements.chunks(count as usize) {
        let piece =
            if chunk.len() == 1 { chunk[0] } else { merge_new(h, piece_ty(element, chunk.len() as u32), chunk) };
        pieces.push(piece);
    }
    pieces
}

/// A vector split into `main`-typed parts plus leftover pieces (LLVM's
/// `extractParts` with a leftover, for vector values).
pub(super) struct Split {
    /// Pieces of the main type.
    pub(super) parts: Vec<VReg>,
    /// Pieces of the leftover type.
    pub(super) leftover: Vec<VReg>,
}

/// LLVM's `extractParts(Reg, RegTy, MainTy, LeftoverTy, ...)` for a vector
/// `value` and a `main` type of the same element type (vector or element).
pub(super) fn extract_parts_with_leftover(h: &mut Helper<'_>, value: VReg, main: Llt) -> Split {
    let ty = h.func.ty(value);
    let (size, main_size) = (ty.size_in_bits(), main.size_in_bits());
    // The unmerges define registers made up front, which CSE never shares.
    if size.is_multiple_of(main_size) {
        let parts = h.split_named(value, main, (size / main_size) as usize);
        return Split { parts, leftover: Vec::new() };
    }
    let (total, main_count) = (ty.num_elements(), main.num_elements());
    let left = total % main_count;
    if main.is_vector() && left > 1 && main_count.is_multiple_of(left) && total.is_multiple_of(left) {
        let leftover_ty = piece_ty(ty.element_type(), left);
        let pieces = h.split_named(value, leftover_ty, (total / left) as usize);
        let keep = pieces.len() - 1;
        let per_main = (main_count / left) as usize;
        let parts = pieces[..keep].chunks(per_main).map(|c| merge_new(h, main, c)).collect();
        return Split { parts, leftover: pieces[keep..].to_vec() };
    }
    let mut parts = extract_vector_parts(h, value, main_count);
    let last = parts.pop().expect("an uneven split has a leftover");
    Split { parts, leftover: vec![last] }
}

/// `mergeMixedSubvectors`: every piece unmerged into elements (a scalar
/// leftover taken as is), one merge-like instruction into `dst`.
pub(super) fn merge_mixed_subvectors(h: &mut Helper<'_>, dst: VReg, pieces: &[VReg]) {
    let mut elements = Vec::new();
    for &piece in pieces {
        let ty = h.func.ty(piece);
        if ty.is_vector() {
            elements.extend(h.split(piece, ty.element_type(), ty.num_elements() as usize));
        } else {
            elements.push(piece);
        }
    }
    merge_into(h, dst, &elements);
}

/// `insertParts` for a vector result: plain concat/build when even, else
/// through elements.
pub(super) fn insert_vector_parts(h: &mut Helper<'_>, dst: VReg, parts: &[VReg], leftover: &[VReg]) {
    if leftover.is_empty() {
        merge_into(h, dst, parts);
    } else {
        let all: Vec<VReg> = parts.iter().chain(leftover).copied().collect();
        merge_mixed_subvectors(h, dst, &all);
    }
}

/// `buildPadVectorWithUndefElements`: `value` (vector or scalar) widened to
/// `ty` with undef lanes.
pub(super) fn pad_with_undef(h: &mut Helper<'_>, ty: Llt, value: VReg) -> VReg {
    let value_ty = h.func.ty(value);
    let mut lanes = if value_ty.is_vector() {
        h.split(value, value_ty.element_type(), value_ty.num_elements() as usize)
    } else {
        vec![value]
    };
    let undef = h.builder().undef(value_ty.element_type());
    lanes.resize(ty.num_elements() as usize, undef);
    merge_new(h, ty, &lanes)
}

/// `buildDeleteTrailingVectorElements`: `dst` gets the first lanes of `wide`.
pub(super) fn delete_trailing_into(h: &mut Helper<'_>, dst: VReg, wide: VReg) {
    let wide_ty = h.func.ty(wide);
    let lanes = h.split(wide, wide_ty.element_type(), wide_ty.num_elements() as usize);
    let dst_ty = h.func.ty(dst);
    if dst_ty.is_vector() {
        merge_into(h, dst, &lanes[..dst_ty.num_elements() as usize]);
    } else {
        h.build_into(Opcode::COPY, dst, &lanes[..1]);
    }
}

/// `moreElementsVectorSrc`: pads use `index` of `inst` to `ty`, before it.
pub(super) fn more_src(h: &mut Helper<'_>, inst: Inst, index: usize, ty: Llt) {
    let value = h.reg(inst, index);
    let padded = pad_with_undef(h, ty, value);
    h.func.set_operand(inst, index, Operand::vreg_use(padded));
}

/// `moreElementsVectorDst`: def `index` of `inst` becomes a new `ty` vreg
/// whose leading lanes define the old one right after the insertion point.
pub(super) fn more_dst(h: &mut Helper<'_>, inst: Inst, index: usize, ty: Llt) {
    h.advance_insert_point();
    let old = h.reg(inst, index);
    let wide = h.func.new_vreg(ty);
    h.func.set_operand(inst, index, Operand::vreg_def(wide));
    delete_trailing_into(h, old, wide);
}

/// True when `pad_with_undef(ty, value)` is well-formed: `ty` is a vector
/// with more lanes of the value's element type.
pub(super) fn can_pad(h: &Helper<'_>, value: VReg, ty: Llt) -> bool {
    let value_ty = h.func.ty(value);
    ty.is_fixed_vector()
        && value_ty.element_type() == ty.element_type()
        && (value_ty.is_vector() || value_ty.is_valid())
        && ty.num_elements() > value_ty.num_elements()
        && !value_ty.is_scalable()
}

/// The vector GCD type of two vectors with the same element type (LLVM's
/// `getGCDType` restricted to that case).
pub(super) fn vector_gcd(a: Llt, b: Llt) -> Llt {
    let (mut x, mut y) = (a.num_elements(), b.num_elements());
    while y != 0 {
        (x, y) = (y, x % y);
    }
    piece_ty(a.element_type(), x)
}

/// LLVM's `getGCDType` for a vector `orig`: a vector or element of
/// `orig`'s element type when the sizes allow, else a scalar.
pub(super) fn gcd_type(orig: Llt, target: Llt) -> Llt {
    let element = orig.element_type();
    if !orig.is_vector() {
        return super::parts::gcd_type(orig, target);
    }
    if target.is_vector() && target.scalar_size_in_bits() == element.scalar_size_in_bits() {
        return vector_gcd(orig, target);
    }
    if !target.is_vector() && target.size_in_bits() == element.size_in_bits() {
        return element;
    }
    let (mut x, mut y) = (orig.size_in_bits(), target.size_in_bits());
    while y != 0 {
        (x, y) = (y, x % y);
    }
    let element_bits = element.size_in_bits();
    match x.cmp(&element_bits) {
        std::cmp::Ordering::Equal => element,
        std::cmp::Ordering::Less => Llt::scalar(x as u32),
        std::cmp::Ordering::Greater => piece_ty(element, (x / element_bits) as u32),
    }
}

/// The vector LCM type of two vectors with the same element type.
pub(super) fn vector_lcm(a: Llt, b: Llt) -> Llt {
    let gcd = vector_gcd(a, b).num_elements();
    piece_ty(a.element_type(), a.num_elements() / gcd * b.num_elements())
}

/// The virtual register of operand `index`, if it is one.
pub(super) fn vreg_at(h: &Helper<'_>, inst: Inst, index: usize) -> Option<VReg> {
    match h.func.inst(inst).operands.get(index)?.as_reg()?.reg {
        Reg::Virtual(v) => Some(v),
        Reg::Physical(_) => None,
    }
}

/// The value of a `G_CONSTANT` reached through copies and integer casts
/// (`getIConstantVRegValWithLookThrough`), zero-extended.
pub(super) fn constant_value(h: &Helper<'_>, mut v: VReg) -> Option<u64> {
    let mut casts: Vec<(Opcode, u32)> = Vec::new();
    let value: ApInt = loop {
        let def = h.func.def_inst(v)?;
        let data = h.func.inst(def);
        match (data.known_opcode()?, data.operands.get(1)) {
            (Opcode::G_CONSTANT, Some(Operand::CImm(c))) => break c.as_ref().clone(),
            (op @ (Opcode::COPY | Opcode::G_TRUNC | Opcode::G_ZEXT | Opcode::G_SEXT), _) => {
                casts.push((op, h.func.ty(v).scalar_size_in_bits()));
                v = vreg_at(h, def, 1)?;
            }
            _ => return None,
        }
    };
    let value = casts.iter().rev().fold(value, |acc, (op, bits)| match op {
        Opcode::G_SEXT => acc.sext_or_trunc(*bits),
        Opcode::COPY => acc,
        _ => acc.zext_or_trunc(*bits),
    });
    value.to_u128().and_then(|v| u64::try_from(v).ok())
}

/// The first terminator of `block` (its end when it has none): where
/// values for a successor's PHIs are built.
pub(super) fn before_terminators(h: &Helper<'_>, block: Block) -> InsertPoint {
    let is_terminator = |i: Inst| h.func.inst(i).known_opcode().is_some_and(|op| op.info().has(flags::IS_TERMINATOR));
    let mut point = InsertPoint::End(block);
    let mut cursor = h.func.block(block).last();
    while let Some(i) = cursor.filter(|i| is_terminator(*i)) {
        point = InsertPoint::Before(i);
        cursor = h.func.prev_inst(i);
    }
    point
}

/// The first instruction of `block` that is not a PHI.
pub(super) fn first_non_phi(h: &Helper<'_>, block: Block) -> InsertPoint {
    h.func
        .block_insts(block)
        .find(|i| !matches!(h.func.inst(*i).known_opcode(), Some(Opcode::G_PHI | Opcode::PHI)))
        .map_or(InsertPoint::End(block), InsertPoint::Before)
}
