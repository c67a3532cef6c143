//! Splitting a scalar into narrow parts plus a leftover, and putting parts
//! back together through their greatest common divisor type (LLVM's
//! `extractParts`, `insertParts`, `extractGCDType`, `buildLCMMergePieces`
//! and `buildWidenedRemergeToDst`, for scalars).

use super::Helper;
use crate::ir::{Operand, VReg};
use crate::opcode::Opcode;
use crate::ty::Llt;

/// A value split into `parts` of the main type and `leftover` pieces of
/// `leftover_ty` (empty and invalid when the split is even).
#[derive(Clone, Debug, Default)]
pub(super) struct Parts {
    pub(super) parts: Vec<VReg>,
    pub(super) leftover_ty: Llt,
    pub(super) leftover: Vec<VReg>,
}

impl Parts {
    /// Every piece, main parts first.
    pub(super) fn all(&self) -> Vec<VReg> {
        self.parts.iter().chain(&self.leftover).copied().collect()
    }
}

/// How many `narrow` parts and which leftover type `wide` breaks into.
pub(super) fn breakdown(wide: Llt, narrow: Llt) -> (usize, Llt) {
    let (w, n) = (wide.size_in_bits(), narrow.size_in_bits());
    let parts = (w / n) as usize;
    let left = w - parts as u64 * n;
    (parts, if left == 0 { Llt::INVALID } else { Llt::scalar(left as u32) })
}

/// Splits scalar `value` into `main`-typed parts: one unmerge when the
/// size divides evenly, otherwise one `G_EXTRACT` per part and leftover.
pub(super) fn extract_parts(h: &mut Helper<'_>, value: VReg, main: Llt) -> Parts {
    let ty = h.func.ty(value);
    let (count, leftover_ty) = breakdown(ty, main);
    if !leftover_ty.is_valid() {
        return Parts { parts: h.split_named(value, main, count), ..Parts::default() };
    }
    let main_bits = main.size_in_bits();
    let parts = (0..count).map(|i| extract(h, main, value, i as u64 * main_bits)).collect();
    let mut leftover = Vec::new();
    let mut offset = count as u64 * main_bits;
    while offset < ty.size_in_bits() {
        leftover.push(extract(h, leftover_ty, value, offset));
        offset += leftover_ty.size_in_bits();
    }
    Parts { parts, leftover_ty, leftover }
}

fn extract(h: &mut Helper<'_>, ty: Llt, value: VReg, offset: u64) -> VReg {
    let dst = h.func.new_vreg(ty);
    h.build_with(Opcode::G_EXTRACT, &[dst], [Operand::vreg_use(value), Operand::Imm(offset as i64)]);
    dst
}

/// Reassembles `pieces` (main parts of `part_ty`, then leftovers) into
/// `dst`: a plain merge when there is no leftover, else through the GCD
/// type and a merge to the LCM type, truncated when wider than `dst`.
pub(super) fn insert_parts(h: &mut Helper<'_>, dst: VReg, part_ty: Llt, pieces: &Parts) {
    if !pieces.leftover_ty.is_valid() {
        h.build_into(Opcode::G_MERGE_VALUES, dst, &pieces.parts);
        return;
    }
    let result_ty = h.func.ty(dst);
    let gcd = gcd_type(gcd_type(result_ty, pieces.leftover_ty), part_ty);
    let mut gcd_regs = Vec::new();
    for piece in pieces.all() {
        extract_gcd_type(h, &mut gcd_regs, gcd, piece);
    }
    let lcm = lcm_merge_pieces(h, result_ty, pieces.leftover_ty, gcd, &mut gcd_regs, Opcode::G_ANYEXT);
    widened_remerge_to_dst(h, dst, lcm, &gcd_regs);
}

/// The scalar whose size is the GCD of both sizes.
pub(super) fn gcd_type(a: Llt, b: Llt) -> Llt {
    let (mut x, mut y) = (a.size_in_bits(), b.size_in_bits());
    while y != 0 {
        (x, y) = (y, x % y);
    }
    Llt::scalar(x as u32)
}

/// The scalar whose size is the LCM of both sizes.
pub(super) fn lcm_type(a: Llt, b: Llt) -> Llt {
    let gcd = u64::from(gcd_type(a, b).scalar_size_in_bits());
    Llt::scalar((a.size_in_bits() / gcd * b.size_in_bits()) as u32)
}

/// Pushes `value` split into `gcd`-typed pieces.
pub(super) fn extract_gcd_type(h: &mut Helper<'_>, out: &mut Vec<VReg>, gcd: Llt, value: VReg) {
    let ty = h.func.ty(value);
    if ty == gcd {
        out.push(value);
    } else {
        let count = (ty.size_in_bits() / gcd.size_in_bits()) as usize;
        out.extend(h.split(value, gcd, count));
    }
}

/// Merges `regs` (of `gcd` type) into `narrow`-typed pieces covering the
/// LCM of `dst_ty` and `narrow`, padding with undef (`G_ANYEXT`), zero
/// (`G_ZEXT`) or the sign (`G_SEXT`); `regs` becomes those pieces.
pub(super) fn lcm_merge_pieces(
    h: &mut Helper<'_>,
    dst_ty: Llt,
    narrow: Llt,
    gcd: Llt,
    regs: &mut Vec<VReg>,
    pad: Opcode,
) -> Llt {
    let lcm = lcm_type(dst_ty, narrow);
    let num_parts = (lcm.size_in_bits() / narrow.size_in_bits()) as usize;
    let sub_parts = (narrow.size_in_bits() / gcd.size_in_bits()) as usize;
    let original = regs.len();
    let pad_reg = (original < num_parts * sub_parts).then(|| match pad {
        Opcode::G_ZEXT => h.builder().constant(gcd, 0),
        Opcode::G_ANYEXT => h.builder().undef(gcd),
        _ => {
            let amount = h.builder().constant(Llt::scalar(64), i128::from(gcd.scalar_size_in_bits()) - 1);
            let last = *regs.last().expect("at least one piece");
            h.build(Opcode::G_ASHR, gcd, &[last, amount])
        }
    });
    let mut remerge = Vec::with_capacity(num_parts);
    let mut all_pad: Option<VReg> = None;
    for i in 0..num_parts {
        let mut only_padding = true;
        let sub: Vec<VReg> = (0..sub_parts)
            .map(|j| match regs.get(i * sub_parts + j) {
                Some(r) if i * sub_parts + j < original => {
                    only_padding = false;
                    *r
                }
                _ => pad_reg.expect("padding exists when pieces run out"),
            })
            .collect();
        if only_padding && all_pad.is_none() {
            all_pad = match pad {
                Opcode::G_ANYEXT => Some(h.builder().undef(narrow)),
                Opcode::G_ZEXT => Some(h.builder().constant(narrow, 0)),
                _ => None,
            };
        }
        if let Some(p) = all_pad {
            remerge.push(p);
            continue;
        }
        let piece = if sub_parts == 1 { sub[0] } else { h.builder().merge(narrow, &sub) };
        remerge.push(piece);
        if only_padding {
            all_pad = Some(piece);
        }
    }
    *regs = remerge;
    lcm
}

/// Merges `regs` into `dst`, through a wider merge and a truncate when the
/// LCM type is wider than `dst`.
pub(super) fn widened_remerge_to_dst(h: &mut Helper<'_>, dst: VReg, lcm: Llt, regs: &[VReg]) {
    if h.func.ty(dst) == lcm {
        h.build_into(Opcode::G_MERGE_VALUES, dst, regs);
        return;
    }
    let merged = h.builder().merge(lcm, regs);
    h.build_into(Opcode::G_TRUNC, dst, &[merged]);
}
