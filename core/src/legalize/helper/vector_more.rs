//! `MoreElements` (LLVM's `moreElementsVector`: pad the operands with undef
//! lanes, compute in the wider vector, drop the extra result lanes) and
//! `Bitcast` (LLVM's `bitcast`: redo an operation on a type of the same
//! size, casting operands and results).

use super::vector_parts::{
    before_terminators, can_pad, delete_trailing_into, first_non_phi, more_dst, more_src, pad_with_undef, vreg_at,
};
use super::{Helper, StepResult};
use crate::apint::ApInt;
use crate::ir::{FpConst, FpKind, Inst, Operand, VReg};
use crate::legality::LegalityQuery;
use crate::opcode::Opcode::{self, *};
use crate::ty::Llt;

fn unable(action: &str, opcode: Opcode, idx: usize, ty: Llt, why: &str) -> StepResult {
    StepResult::Unable(format!("{action} for {opcode} type{idx} to {ty}: {why}"))
}

fn changed(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    h.mark_changed(inst);
    StepResult::Legalized
}

/// Pads uses `srcs` of `inst` to `src_ty` and widens def 0 to `dst_ty`,
/// after checking every operand can be padded.
fn pad_and_widen(h: &mut Helper<'_>, inst: Inst, srcs: &[usize], src_ty: Llt, dst_ty: Llt) -> Option<StepResult> {
    let dst = vreg_at(h, inst, 0)?;
    let ok =
        srcs.iter().all(|&i| vreg_at(h, inst, i).is_some_and(|v| can_pad(h, v, src_ty))) && can_pad(h, dst, dst_ty);
    if !ok {
        return None;
    }
    for &i in srcs {
        more_src(h, inst, i, src_ty);
    }
    more_dst(h, inst, 0, dst_ty);
    Some(changed(h, inst))
}

/// Widens type index `idx` of `inst` to the vector `wide`.
pub(super) fn more_elements(h: &mut Helper<'_>, inst: Inst, idx: usize, wide: Llt) -> StepResult {
    let Some(opcode) = h.func.inst(inst).known_opcode() else {
        return StepResult::Unable("more elements: not a generic instruction".into());
    };
    let fail = |why: &str| unable("more elements", opcode, idx, wide, why);
    let result = match opcode {
        G_IMPLICIT_DEF | G_LOAD if idx == 0 => pad_and_widen(h, inst, &[], wide, wide),
        G_STORE if idx == 0 => {
            let value = h.reg(inst, 0);
            can_pad(h, value, wide).then(|| {
                more_src(h, inst, 0, wide);
                changed(h, inst)
            })
        }
        G_AND | G_OR | G_XOR | G_ADD | G_SUB | G_MUL | G_FADD | G_FSUB | G_FMUL | G_FDIV | G_FCOPYSIGN | G_UADDSAT
        | G_USUBSAT | G_SADDSAT | G_SSUBSAT | G_SMIN | G_SMAX | G_UMIN | G_UMAX | G_FMINNUM | G_FMAXNUM
        | G_FMINNUM_IEEE | G_FMAXNUM_IEEE | G_FMINIMUM | G_FMAXIMUM | G_FMINIMUMNUM | G_FMAXIMUMNUM | G_STRICT_FADD
        | G_STRICT_FSUB | G_STRICT_FMUL | G_SHL | G_ASHR | G_LSHR => pad_and_widen(h, inst, &[1, 2], wide, wide),
        G_FMA | G_STRICT_FMA | G_FSHR | G_FSHL => pad_and_widen(h, inst, &[1, 2, 3], wide, wide),
        G_EXTRACT_VECTOR_ELT | G_EXTRACT if idx == 1 => {
            let value = h.reg(inst, 1);
            can_pad(h, value, wide).then(|| {
                more_src(h, inst, 1, wide);
                changed(h, inst)
            })
        }
        G_INSERT
        | G_INSERT_VECTOR_ELT
        | G_FREEZE
        | G_FNEG
        | G_FABS
        | G_FSQRT
        | G_FCEIL
        | G_FFLOOR
        | G_FNEARBYINT
        | G_FRINT
        | G_INTRINSIC_ROUND
        | G_INTRINSIC_ROUNDEVEN
        | G_INTRINSIC_TRUNC
        | G_BITREVERSE
        | G_BSWAP
        | G_FCANONICALIZE
        | G_SEXT_INREG
        | G_ABS
        | G_CTLZ
        | G_CTPOP
            if idx == 0 =>
        {
            pad_and_widen(h, inst, &[1], wide, wide)
        }
        G_SELECT => select(h, inst, idx, wide),
        G_PHI if idx == 0 => phi(h, inst, wide),
        G_SHUFFLE_VECTOR => return shuffle(h, inst, idx, wide),
        G_BUILD_VECTOR => build_vector(h, inst, wide),
        G_SEXT | G_ZEXT | G_ANYEXT | G_TRUNC | G_FPTRUNC | G_FPEXT | G_FPTOSI | G_FPTOUI | G_FPTOSI_SAT
        | G_FPTOUI_SAT | G_SITOFP | G_UITOFP => {
            let (dst_elt, src_elt) = (h.ty(inst, 0).element_type(), h.ty(inst, 1).element_type());
            let count = wide.num_elements();
            let (dst_ty, src_ty) = if idx == 0 {
                (wide, Llt::fixed_vector(count, src_elt))
            } else {
                (Llt::fixed_vector(count, dst_elt), wide)
            };
            pad_and_widen(h, inst, &[1], src_ty, dst_ty)
        }
        G_ICMP | G_FCMP if idx == 1 => {
            let cond_ty = Llt::fixed_vector(wide.num_elements(), h.ty(inst, 0).element_type());
            pad_and_widen(h, inst, &[2, 3], wide, cond_ty)
        }
        G_BITCAST if idx == 0 => {
            let (src_ty, dst_ty) = (h.ty(inst, 1), h.ty(inst, 0));
            let scaled = u64::from(src_ty.num_elements()) * u64::from(wide.num_elements());
            let dst_count = u64::from(dst_ty.num_elements());
            (scaled.is_multiple_of(dst_count))
                .then(|| src_ty.change_element_count((scaled / dst_count) as u32, false))
                .and_then(|src_wide| pad_and_widen(h, inst, &[1], src_wide, wide))
        }
        G_VECREDUCE_ADD | G_VECREDUCE_MUL | G_VECREDUCE_AND | G_VECREDUCE_OR | G_VECREDUCE_XOR | G_VECREDUCE_SMAX
        | G_VECREDUCE_SMIN | G_VECREDUCE_UMAX | G_VECREDUCE_UMIN | G_VECREDUCE_FADD | G_VECREDUCE_FMUL => {
            reduction(h, inst, opcode, wide)
        }
        G_UNMERGE_VALUES => return fail("LLVM does not widen unmerges"),
        _ => return fail("not implemented for this opcode"),
    };
    result.unwrap_or_else(|| fail("the operand types do not fit"))
}

/// `G_SELECT`: a scalar condition is splatted (index 1) or kept while both
/// values are padded (index 0).
fn select(h: &mut Helper<'_>, inst: Inst, idx: usize, wide: Llt) -> Option<StepResult> {
    let (dst_ty, cond) = (h.ty(inst, 0), h.reg(inst, 1));
    let cond_ty = h.func.ty(cond);
    if cond_ty.is_vector() {
        return None;
    }
    if idx == 1 {
        if dst_ty.num_elements() != wide.num_elements() || !wide.is_fixed_vector() || wide.element_type() != cond_ty {
            return None;
        }
        let splat = shuffle_splat(h, wide, cond);
        h.func.set_operand(inst, 1, Operand::vreg_use(splat));
        return Some(changed(h, inst));
    }
    pad_and_widen(h, inst, &[2, 3], wide, wide)
}

/// `buildShuffleSplat`: insert into lane 0 of an undef vector and shuffle
/// with an all-zero mask.
fn shuffle_splat(h: &mut Helper<'_>, ty: Llt, element: VReg) -> VReg {
    let undef = h.builder().undef(ty);
    let zero = h.builder().constant(Llt::scalar(64), 0);
    let inserted = h.build(G_INSERT_VECTOR_ELT, ty, &[undef, element, zero]);
    let mask = Operand::ShuffleMask(vec![Some(0); ty.num_elements() as usize].into());
    h.builder().build(G_SHUFFLE_VECTOR, &[ty], [Operand::vreg_use(inserted), Operand::vreg_use(undef), mask]).1[0]
}

/// `moreElementsVectorPhi`: incoming values padded at the end of their
/// blocks, the wide def narrowed after the PHIs.
fn phi(h: &mut Helper<'_>, inst: Inst, wide: Llt) -> Option<StepResult> {
    let operands = h.func.inst(inst).operands.clone();
    let block = h.func.inst_block(inst)?;
    let mut incoming = Vec::new();
    for (k, pair) in operands[1..].chunks(2).enumerate() {
        let i = 1 + 2 * k;
        match (vreg_at(h, inst, i), pair.get(1)) {
            (Some(v), Some(Operand::Block(b))) if can_pad(h, v, wide) => incoming.push((i, *b)),
            _ => return None,
        }
    }
    if !can_pad(h, h.reg(inst, 0), wide) {
        return None;
    }
    for (i, pred) in incoming {
        h.point = before_terminators(h, pred);
        more_src(h, inst, i, wide);
    }
    // `moreElementsVectorDst` builds right after the insertion point, which
    // LLVM sets to the last PHI.
    h.point = first_non_phi(h, block);
    let old = h.reg(inst, 0);
    let wide_reg = h.func.new_vreg(wide);
    h.func.set_operand(inst, 0, Operand::vreg_def(wide_reg));
    delete_trailing_into(h, old, wide_reg);
    Some(changed(h, inst))
}

/// `G_BUILD_VECTOR`: undef scalars appended, the wide vector built, the
/// trailing lanes dropped.
fn build_vector(h: &mut Helper<'_>, inst: Inst, wide: Llt) -> Option<StepResult> {
    let dst = h.reg(inst, 0);
    let dst_ty = h.func.ty(dst);
    if !wide.is_fixed_vector()
        || wide.element_type() != dst_ty.element_type()
        || wide.num_elements() <= dst_ty.num_elements()
    {
        return None;
    }
    let mut elements: Vec<VReg> = (1..h.func.inst(inst).operands.len()).map(|i| h.reg(inst, i)).collect();
    while elements.len() < wide.num_elements() as usize {
        elements.push(h.builder().undef(wide.element_type()));
    }
    let built = h.build(G_BUILD_VECTOR, wide, &elements);
    delete_trailing_into(h, dst, built);
    h.func.erase(inst);
    Some(StepResult::Legalized)
}

/// `moreElementsVectorShuffle` (and `equalizeVectorShuffleLengths` when the
/// result and source lengths differ).
fn shuffle(h: &mut Helper<'_>, inst: Inst, idx: usize, wide: Llt) -> StepResult {
    let fail = |why: &str| unable("more elements", G_SHUFFLE_VECTOR, idx, wide, why);
    let (dst, src1, src2) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src1));
    let Some(Operand::ShuffleMask(mask)) = h.func.inst(inst).operands.get(3).cloned() else {
        return fail("no shuffle mask");
    };
    if dst_ty.is_vector() && src_ty.is_vector() && dst_ty.num_elements() != src_ty.num_elements() {
        return equalize_lengths(h, inst, &mask);
    }
    if idx != 0 || dst_ty != src_ty || dst_ty != h.func.ty(src2) || !can_pad(h, src1, wide) {
        return fail("needs a canonical shuffle");
    }
    more_src(h, inst, 1, wide);
    more_src(h, inst, 2, wide);
    let (count, wide_count) = (dst_ty.num_elements(), wide.num_elements());
    let mut new_mask = vec![None; wide_count as usize];
    for (slot, lane) in new_mask.iter_mut().zip(&mask) {
        *slot = lane.map(|l| if l < count { l } else { l - count + wide_count });
    }
    rebuild_wide_shuffle(h, inst, wide, new_mask);
    StepResult::Legalized
}

/// Widens def 0 of shuffle `inst` to `wide` (`moreElementsVectorDst`), then
/// replaces it by a shuffle with `mask` into the wide def.
fn rebuild_wide_shuffle(h: &mut Helper<'_>, inst: Inst, wide: Llt, mask: Vec<Option<u32>>) {
    more_dst(h, inst, 0, wide);
    h.set_insert_before(inst);
    let (dst, a, b) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let uses = vec![Operand::vreg_use(a), Operand::vreg_use(b), Operand::ShuffleMask(mask.into())];
    h.build_with(G_SHUFFLE_VECTOR, &[dst], uses);
    h.func.erase(inst);
}

/// `equalizeVectorShuffleLengths`: a shorter result widens to the sources'
/// length with undef mask lanes; longer ones concatenate undef vectors to
/// the sources.
fn equalize_lengths(h: &mut Helper<'_>, inst: Inst, mask: &[Option<u32>]) -> StepResult {
    let (dst, src1, src2) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src1));
    let (mask_count, src_count) = (mask.len() as u32, src_ty.num_elements());
    let element = dst_ty.element_type();
    if mask_count < src_count {
        let mut new_mask = mask.to_vec();
        new_mask.resize(src_count as usize, None);
        rebuild_wide_shuffle(h, inst, src_ty, new_mask);
        return StepResult::Legalized;
    }
    let padded_count = mask_count.div_ceil(src_count) * src_count;
    let concat = (padded_count / src_count) as usize;
    let padded = Llt::fixed_vector(padded_count, element);
    let undef = h.builder().undef(src_ty);
    let mut ops1 = vec![undef; concat];
    let mut ops2 = vec![undef; concat];
    (ops1[0], ops2[0]) = (src1, src2);
    let a = h.build(G_CONCAT_VECTORS, padded, &ops1);
    let b = h.build(G_CONCAT_VECTORS, padded, &ops2);
    let mut mapped = vec![None; padded_count as usize];
    for (slot, lane) in mapped.iter_mut().zip(mask) {
        *slot = lane.map(|l| if l >= src_count { l + padded_count - src_count } else { l });
    }
    let uses = vec![Operand::vreg_use(a), Operand::vreg_use(b), Operand::ShuffleMask(mapped.into())];
    if mask_count != padded_count {
        let shuffled = h.builder().build(G_SHUFFLE_VECTOR, &[padded], uses).1[0];
        let mut elements = Vec::with_capacity(mask_count as usize);
        for i in 0..mask_count {
            let k = h.builder().constant(Llt::scalar(64), i128::from(i));
            elements.push(h.build(G_EXTRACT_VECTOR_ELT, element, &[shuffled, k]));
        }
        h.build_into(G_BUILD_VECTOR, dst, &elements);
    } else {
        h.build_with(G_SHUFFLE_VECTOR, &[dst], uses);
    }
    h.func.erase(inst);
    StepResult::Legalized
}

/// Vector reductions: pad the source, then put the operation's neutral
/// element into every new lane.
fn reduction(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, wide: Llt) -> Option<StepResult> {
    let src = h.reg(inst, 1);
    let src_ty = h.func.ty(src);
    if !can_pad(h, src, wide) {
        return None;
    }
    let element = wide.element_type();
    let bits = element.scalar_size_in_bits();
    let neutral = match opcode {
        // -0.0 and 1.0 leave every sum and product as it is.
        G_VECREDUCE_FADD | G_VECREDUCE_FMUL => {
            let kind = match bits {
                16 => FpKind::Half,
                32 => FpKind::Float,
                64 => FpKind::Double,
                128 => FpKind::Fp128,
                _ => return None,
            };
            let value = if opcode == G_VECREDUCE_FADD { -0.0 } else { 1.0 };
            Operand::fpimm(FpConst::from_f64(kind, value)?)
        }
        G_VECREDUCE_MUL => Operand::cimm(ApInt::from_i128(bits, 1)),
        G_VECREDUCE_AND | G_VECREDUCE_UMIN => Operand::cimm(ApInt::from_i128(bits, -1)),
        G_VECREDUCE_SMAX => Operand::cimm(ApInt::from_u128(bits, 1u128 << (bits - 1))),
        G_VECREDUCE_SMIN => Operand::cimm(ApInt::from_u128(bits, (1u128 << (bits - 1)) - 1)),
        _ => Operand::cimm(ApInt::from_i128(bits, 0)),
    };
    let constant = if matches!(neutral, Operand::FpImm(_)) { G_FCONSTANT } else { G_CONSTANT };
    let mut vector = pad_with_undef(h, wide, src);
    // A typed constant (`buildConstant(Ty, ...)`): CSE gives back one
    // already built.
    let value = h.builder().build(constant, &[element], [neutral]).1[0];
    for i in src_ty.num_elements()..wide.num_elements() {
        let k = h.builder().constant(Llt::scalar(64), i128::from(i));
        vector = h.build(G_INSERT_VECTOR_ELT, wide, &[vector, value, k]);
    }
    h.func.set_operand(inst, 1, Operand::vreg_use(vector));
    Some(changed(h, inst))
}

/// Casts use `index` of `inst` to `ty` before it (`bitcastSrc`).
fn bitcast_src(h: &mut Helper<'_>, inst: Inst, index: usize, ty: Llt) {
    let value = h.reg(inst, index);
    let cast = h.build(G_BITCAST, ty, &[value]);
    h.func.set_operand(inst, index, Operand::vreg_use(cast));
}

/// Def `index` of `inst` becomes a `ty` vreg cast back right after it
/// (`bitcastDst`).
fn bitcast_dst(h: &mut Helper<'_>, inst: Inst, index: usize, ty: Llt) {
    let old = h.reg(inst, index);
    let new = h.func.new_vreg(ty);
    h.func.set_operand(inst, index, Operand::vreg_def(new));
    h.advance_insert_point();
    h.build_into(G_BITCAST, old, &[new]);
}

/// Redoes type index `idx` of `inst` in `cast`, a type of the same size.
pub(super) fn bitcast(h: &mut Helper<'_>, inst: Inst, idx: usize, cast: Llt) -> StepResult {
    let Some(opcode) = h.func.inst(inst).known_opcode() else {
        return StepResult::Unable("bitcast: not a generic instruction".into());
    };
    let fail = |why: &str| unable("bitcast", opcode, idx, cast, why);
    let same_size = |h: &Helper<'_>, i: usize| {
        vreg_at(h, inst, i).is_some_and(|v| h.func.ty(v).size_in_bits() == cast.size_in_bits())
    };
    match opcode {
        G_LOAD | G_STORE if idx == 0 => {
            let mem_bits = h.func.inst(inst).mem.first().and_then(|m| m.memory_type()).map(Llt::size_in_bits);
            if mem_bits != Some(cast.size_in_bits()) || !same_size(h, 0) {
                return fail("the memory size differs from the cast type's");
            }
            if opcode == G_LOAD {
                bitcast_dst(h, inst, 0, cast);
            } else {
                bitcast_src(h, inst, 0, cast);
            }
            h.func.modify(inst, |data| data.mem[0].retype(cast));
            changed(h, inst)
        }
        G_SELECT if idx == 0 => {
            if h.ty(inst, 1).is_vector() || !same_size(h, 0) {
                return fail("vector selects are not bitcast");
            }
            bitcast_src(h, inst, 2, cast);
            bitcast_src(h, inst, 3, cast);
            bitcast_dst(h, inst, 0, cast);
            changed(h, inst)
        }
        G_AND | G_OR | G_XOR => {
            if !same_size(h, 0) {
                return fail("sizes differ");
            }
            bitcast_src(h, inst, 1, cast);
            bitcast_src(h, inst, 2, cast);
            bitcast_dst(h, inst, 0, cast);
            changed(h, inst)
        }
        G_EXTRACT_VECTOR_ELT => super::vector_cast::extract_element(h, inst, idx, cast),
        G_INSERT_VECTOR_ELT => super::vector_cast::insert_element(h, inst, idx, cast),
        G_EXTRACT_SUBVECTOR => super::vector_cast::extract_subvector(h, inst, idx, cast),
        G_INSERT_SUBVECTOR => super::vector_cast::insert_subvector(h, inst, idx, cast),
        G_CONCAT_VECTORS => concat(h, inst, idx, cast),
        G_SHUFFLE_VECTOR => cast_shuffle(h, inst, idx, cast),
        _ => fail("not implemented for this opcode"),
    }
}

/// `bitcastConcatVector`: each source as a scalar of its size, a
/// `G_BUILD_VECTOR` of `cast` (only when legal) cast back.
fn concat(h: &mut Helper<'_>, inst: Inst, idx: usize, cast: Llt) -> StepResult {
    let (dst, src_ty) = (h.reg(inst, 0), h.ty(inst, 1));
    let scalar = Llt::scalar(src_ty.size_in_bits() as u32);
    let types = [cast, scalar];
    if !h.info.is_legal(&LegalityQuery::new(G_BUILD_VECTOR, &types))
        || cast.size_in_bits() != h.func.ty(dst).size_in_bits()
    {
        return unable("bitcast", G_CONCAT_VECTORS, idx, cast, "the G_BUILD_VECTOR would not be legal");
    }
    let sources: Vec<VReg> = (1..h.func.inst(inst).operands.len()).map(|i| h.reg(inst, i)).collect();
    let scalars: Vec<VReg> = sources.iter().map(|s| h.build(G_BITCAST, scalar, &[*s])).collect();
    let built = h.build(G_BUILD_VECTOR, cast, &scalars);
    h.build_into(G_BITCAST, dst, &[built]);
    h.func.erase(inst);
    StepResult::Legalized
}

/// `bitcastShuffleVector`: same element size and count (pointer vectors):
/// cast the sources, shuffle, cast back.
fn cast_shuffle(h: &mut Helper<'_>, inst: Inst, idx: usize, cast: Llt) -> StepResult {
    let (dst, src1, src2) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src1));
    let Some(mask) = h.func.inst(inst).operands.get(3).cloned() else {
        return unable("bitcast", G_SHUFFLE_VECTOR, idx, cast, "no mask");
    };
    if idx != 0
        || cast.scalar_size_in_bits() != dst_ty.scalar_size_in_bits()
        || cast.num_elements() != dst_ty.num_elements()
    {
        return unable("bitcast", G_SHUFFLE_VECTOR, idx, cast, "only same-sized element types are cast");
    }
    let new_src_ty = src_ty.change_element_type(cast.element_type());
    let a = build_cast(h, new_src_ty, src1);
    let b = build_cast(h, new_src_ty, src2);
    let shuffled =
        h.builder().build(G_SHUFFLE_VECTOR, &[cast], [Operand::vreg_use(a), Operand::vreg_use(b), mask]).1[0];
    let opcode = cast_opcode(cast, dst_ty);
    h.build_into(opcode, dst, &[shuffled]);
    h.func.erase(inst);
    StepResult::Legalized
}

/// `buildCast`'s opcode from `from` to `to`.
fn cast_opcode(from: Llt, to: Llt) -> Opcode {
    if from == to {
        COPY
    } else if from.is_pointer_or_pointer_vector() && !to.is_pointer_or_pointer_vector() {
        G_PTRTOINT
    } else if to.is_pointer_or_pointer_vector() && !from.is_pointer_or_pointer_vector() {
        G_INTTOPTR
    } else {
        G_BITCAST
    }
}

fn build_cast(h: &mut Helper<'_>, ty: Llt, value: VReg) -> VReg {
    let opcode = cast_opcode(h.func.ty(value), ty);
    h.build(opcode, ty, &[value])
}
