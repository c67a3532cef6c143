//! `WidenScalar` of `G_MERGE_VALUES` sources and `G_UNMERGE_VALUES`
//! results: pack or unpack with shifts when the wide type covers the whole
//! value, otherwise re-slice through the GCD type (LLVM's
//! `widenScalarMergeValues` / `widenScalarUnmergeValues`).

use super::parts::{extract_gcd_type, gcd_type, lcm_type};
use super::{Helper, StepResult};
use crate::ir::{Inst, Operand, VReg};
use crate::opcode::Opcode;
use crate::ty::Llt;

/// Widens the sources (type index 1) of a scalar `G_MERGE_VALUES`.
pub(super) fn widen_merge_sources(h: &mut Helper<'_>, inst: Inst, wide: Llt) -> StepResult {
    let dst = h.reg(inst, 0);
    let dst_ty = h.func.ty(dst);
    if dst_ty.is_vector() {
        return StepResult::Unable("widening the sources of a vector merge is not implemented".into());
    }
    let sources: Vec<VReg> = (1..h.func.inst(inst).operands.len()).map(|i| h.reg(inst, i)).collect();
    let src_size = h.func.ty(sources[0]).size_in_bits();
    let (dst_size, wide_size) = (dst_ty.size_in_bits(), wide.size_in_bits());
    if wide_size >= dst_size {
        pack_with_shifts(h, dst, dst_ty, &sources, wide);
    } else {
        let num_merge = dst_size.div_ceil(wide_size) as usize;
        let gcd = gcd_type(Llt::scalar(src_size as u32), wide);
        let mut pieces = Vec::new();
        for &source in &sources {
            extract_gcd_type(h, &mut pieces, gcd, source);
        }
        // LLVM compares the piece count with a bit count here, so it pads
        // (with one undef) whenever the two differ.
        if pieces.len() as u64 != num_merge as u64 * wide_size {
            let undef = h.builder().undef(gcd);
            pieces.resize(num_merge * (wide_size / gcd.size_in_bits()) as usize, undef);
        }
        let per_merge = (wide_size / gcd.size_in_bits()) as usize;
        let merged: Vec<VReg> = pieces.chunks(per_merge).take(num_merge).map(|c| h.builder().merge(wide, c)).collect();
        let wide_dst = Llt::scalar((num_merge as u64 * wide_size) as u32);
        if wide_dst.size_in_bits() == dst_size {
            h.build_into(Opcode::G_MERGE_VALUES, dst, &merged);
        } else {
            let full = h.builder().merge(wide_dst, &merged);
            h.build_into(Opcode::G_TRUNC, dst, &[full]);
        }
    }
    h.func.erase(inst);
    StepResult::Legalized
}

/// `dst = zext(s0) | zext(s1) << k | ...` in the wide type.
fn pack_with_shifts(h: &mut Helper<'_>, dst: VReg, dst_ty: Llt, sources: &[VReg], wide: Llt) {
    let part_size = dst_ty.size_in_bits() / sources.len() as u64;
    let mut result = h.build(Opcode::G_ZEXT, wide, &[sources[0]]);
    for (i, &source) in sources.iter().enumerate().skip(1) {
        let extended = h.build(Opcode::G_ZEXT, wide, &[source]);
        let last = i + 1 == sources.len();
        let next = if last && wide == dst_ty { dst } else { h.func.new_vreg(wide) };
        let amount = h.builder().constant(wide, i128::from(i as u64 * part_size));
        let shifted = h.build(Opcode::G_SHL, wide, &[extended, amount]);
        h.build_into(Opcode::G_OR, next, &[result, shifted]);
        result = next;
    }
    if wide.size_in_bits() > dst_ty.size_in_bits() {
        h.build_into(Opcode::G_TRUNC, dst, &[result]);
    } else if dst_ty.is_pointer() {
        h.build_into(Opcode::G_INTTOPTR, dst, &[result]);
    }
}

/// Widens the results (type index 0) of a scalar `G_UNMERGE_VALUES`.
pub(super) fn widen_unmerge_results(h: &mut Helper<'_>, inst: Inst, wide: Llt) -> StepResult {
    let num_dst = usize::from(h.func.inst(inst).num_defs);
    let defs: Vec<VReg> = (0..num_dst).map(|i| h.reg(inst, i)).collect();
    let mut src = h.reg(inst, num_dst);
    let mut src_ty = h.func.ty(src);
    let dst_ty = h.func.ty(defs[0]);
    if src_ty.is_vector() || !dst_ty.is_scalar() {
        return StepResult::Unable("widening a vector unmerge is not implemented".into());
    }
    if wide.size_in_bits() >= src_ty.size_in_bits() {
        if src_ty.is_pointer() {
            src_ty = Llt::scalar(src_ty.size_in_bits() as u32);
            src = h.build(Opcode::G_PTRTOINT, src_ty, &[src]);
        }
        if wide.size_in_bits() > src_ty.size_in_bits() {
            src_ty = wide;
            src = h.build(Opcode::G_ANYEXT, wide, &[src]);
        }
        h.build_into(Opcode::G_TRUNC, defs[0], &[src]);
        for (i, &def) in defs.iter().enumerate().skip(1) {
            let amount = h.builder().constant(src_ty, i128::from(dst_ty.size_in_bits() * i as u64));
            let shifted = h.build(Opcode::G_LSHR, src_ty, &[src, amount]);
            h.build_into(Opcode::G_TRUNC, def, &[shifted]);
        }
        h.func.erase(inst);
        return StepResult::Legalized;
    }
    let lcm = lcm_type(src_ty, wide);
    if lcm.size_in_bits() != src_ty.size_in_bits() {
        if src_ty.is_pointer() {
            return StepResult::Unable("widening pointer sources is not implemented".into());
        }
        src = h.build(Opcode::G_ANYEXT, lcm, &[src]);
    }
    let count = (lcm.size_in_bits() / wide.size_in_bits()) as usize;
    let unmerged = h.split(src, wide, count);
    let gcd = gcd_type(wide, dst_ty);
    let per_remerge = (dst_ty.size_in_bits() / gcd.size_in_bits()) as usize;
    if per_remerge == 1 {
        let per_unmerge = (wide.size_in_bits() / dst_ty.size_in_bits()) as usize;
        for (i, piece) in unmerged.iter().enumerate() {
            let regs: Vec<VReg> = (0..per_unmerge)
                .map(|j| defs.get(i * per_unmerge + j).copied().unwrap_or_else(|| h.func.new_vreg(dst_ty)))
                .collect();
            h.build_with(Opcode::G_UNMERGE_VALUES, &regs, [Operand::vreg_use(*piece)]);
        }
    } else {
        let mut parts = Vec::new();
        for piece in &unmerged {
            extract_gcd_type(h, &mut parts, gcd, *piece);
        }
        for (i, &def) in defs.iter().enumerate() {
            h.build_into(Opcode::G_MERGE_VALUES, def, &parts[i * per_remerge..(i + 1) * per_remerge]);
        }
    }
    h.func.erase(inst);
    StepResult::Legalized
}
