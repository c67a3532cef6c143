//! `NarrowScalar` of compares, selects, extends, truncates and
//! multiplies, built in the order LLVM's helper builds them.

use super::parts::widened_remerge_to_dst;
use super::parts::{Parts, extract_gcd_type, extract_parts, gcd_type, insert_parts, lcm_merge_pieces};
use super::{Helper, StepResult};
use crate::ir::{Inst, IntPredicate, Operand, VReg};
use crate::opcode::Opcode;
use crate::ty::Llt;

fn done(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    h.func.erase(inst);
    StepResult::Legalized
}

fn icmp(h: &mut Helper<'_>, ty: Llt, pred: IntPredicate, a: VReg, b: VReg) -> VReg {
    h.builder().icmp(ty, pred, a, b)
}

fn icmp_into(h: &mut Helper<'_>, dst: VReg, pred: IntPredicate, a: VReg, b: VReg) {
    h.build_with(Opcode::G_ICMP, &[dst], [Operand::IntPred(pred), Operand::vreg_use(a), Operand::vreg_use(b)]);
}

fn select(h: &mut Helper<'_>, ty: Llt, cond: VReg, a: VReg, b: VReg) -> VReg {
    h.build(Opcode::G_SELECT, ty, &[cond, a, b])
}

fn unsigned(pred: IntPredicate) -> IntPredicate {
    match pred {
        IntPredicate::Sgt => IntPredicate::Ugt,
        IntPredicate::Sge => IntPredicate::Uge,
        IntPredicate::Slt => IntPredicate::Ult,
        IntPredicate::Sle => IntPredicate::Ule,
        other => other,
    }
}

/// `G_ICMP` on parts: XOR/OR and one compare for equality; otherwise a
/// chain of part compares from the low part up, the last signed as asked.
pub(super) fn narrow_icmp(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let Operand::IntPred(pred) = h.func.inst(inst).operands[1] else {
        return StepResult::Unable("G_ICMP without a predicate".into());
    };
    let (dst, lhs, rhs) = (h.reg(inst, 0), h.reg(inst, 2), h.reg(inst, 3));
    let res_ty = h.func.ty(dst);
    let l = extract_parts(h, lhs, narrow);
    let r = extract_parts(h, rhs, narrow);
    if matches!(pred, IntPredicate::Eq | IntPredicate::Ne) {
        let zero = h.builder().constant(narrow, 0);
        let mut xors: Vec<VReg> =
            l.parts.iter().zip(&r.parts).map(|(a, b)| h.build(Opcode::G_XOR, narrow, &[*a, *b])).collect();
        for (a, b) in l.leftover.iter().zip(&r.leftover) {
            let xor = h.build(Opcode::G_XOR, l.leftover_ty, &[*a, *b]);
            let gcd = gcd_type(gcd_type(l.leftover_ty, l.leftover_ty), narrow);
            let mut widened = Vec::new();
            extract_gcd_type(h, &mut widened, gcd, xor);
            lcm_merge_pieces(h, l.leftover_ty, narrow, gcd, &mut widened, Opcode::G_ZEXT);
            xors.extend(widened);
        }
        if xors.len() < 2 {
            return StepResult::Unable("an equality compare needs at least two parts".into());
        }
        let mut or = h.build(Opcode::G_OR, narrow, &[xors[0], xors[1]]);
        for x in &xors[2..] {
            or = h.build(Opcode::G_OR, narrow, &[or, *x]);
        }
        icmp_into(h, dst, pred, or, zero);
        return done(h, inst);
    }
    let mut carry: Option<VReg> = None;
    let count = l.parts.len();
    for i in 0..count {
        let last = i == count - 1 && l.leftover.is_empty();
        let (part_pred, out) = if last { (pred, dst) } else { (unsigned(pred), h.func.new_vreg(res_ty)) };
        chain_compare(h, &mut carry, part_pred, out, res_ty, l.parts[i], r.parts[i]);
    }
    let left = l.leftover.len();
    for i in 0..left {
        let last = i == left - 1;
        let (part_pred, out) = if last { (pred, dst) } else { (unsigned(pred), h.func.new_vreg(res_ty)) };
        chain_compare(h, &mut carry, part_pred, out, res_ty, l.leftover[i], r.leftover[i]);
    }
    done(h, inst)
}

fn chain_compare(
    h: &mut Helper<'_>,
    carry: &mut Option<VReg>,
    pred: IntPredicate,
    out: VReg,
    res_ty: Llt,
    a: VReg,
    b: VReg,
) {
    match *carry {
        None => icmp_into(h, out, pred, a, b),
        Some(previous) => {
            let cmp = icmp(h, res_ty, pred, a, b);
            let eq = icmp(h, res_ty, IntPredicate::Eq, a, b);
            h.build_with(
                Opcode::G_SELECT,
                &[out],
                vec![Operand::vreg_use(eq), Operand::vreg_use(previous), Operand::vreg_use(cmp)],
            );
        }
    }
    *carry = Some(out);
}

/// `G_SELECT` with a scalar condition, one select per part.
pub(super) fn narrow_select(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let (dst, cond, a, b) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2), h.reg(inst, 3));
    if h.func.ty(cond).is_vector() {
        return StepResult::Unable("narrowing a select with a vector condition is not implemented".into());
    }
    let x = extract_parts(h, a, narrow);
    let y = extract_parts(h, b, narrow);
    let parts = x.parts.iter().zip(&y.parts).map(|(p, q)| select(h, narrow, cond, *p, *q)).collect();
    let leftover = x.leftover.iter().zip(&y.leftover).map(|(p, q)| select(h, x.leftover_ty, cond, *p, *q)).collect();
    insert_parts(h, dst, narrow, &Parts { parts, leftover_ty: x.leftover_ty, leftover });
    done(h, inst)
}

/// `G_[SZA]EXT` of the result: GCD pieces of the source, padded as the
/// extension says, remerged (`narrowScalarExt`).
pub(super) fn narrow_ext(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, narrow: Llt) -> StepResult {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let dst_ty = h.func.ty(dst);
    let gcd = gcd_type(gcd_type(h.func.ty(src), narrow), dst_ty);
    let mut pieces = Vec::new();
    extract_gcd_type(h, &mut pieces, gcd, src);
    let lcm = lcm_merge_pieces(h, dst_ty, narrow, gcd, &mut pieces, opcode);
    widened_remerge_to_dst(h, dst, lcm, &pieces);
    done(h, inst)
}

/// `G_TRUNC` of a source exactly twice the narrow type: its low half.
pub(super) fn narrow_trunc_source(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    if narrow.size_in_bits() * 2 != h.func.ty(src).size_in_bits() {
        return StepResult::Unable(format!("can't narrow a truncate's source to {narrow}"));
    }
    let halves = h.split(src, narrow, 2);
    h.build_into(Opcode::COPY, dst, &[halves[0]]);
    done(h, inst)
}

/// `G_MUL` / `G_UMULH` as a schoolbook product of the parts
/// (`narrowScalarMul` / `multiplyRegisters`).
pub(super) fn narrow_mul(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, narrow: Llt) -> StepResult {
    let (dst, a, b) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let size = h.func.ty(dst).size_in_bits();
    if h.func.ty(dst).is_vector() || !size.is_multiple_of(narrow.size_in_bits()) {
        return StepResult::Unable("uneven multiplies are not split".into());
    }
    let parts = (size / narrow.size_in_bits()) as usize;
    let high = opcode == Opcode::G_UMULH;
    let dst_parts = parts * if high { 2 } else { 1 };
    let x = h.split_named(a, narrow, parts);
    let y = h.split_named(b, narrow, parts);
    let mut out = vec![h.build(Opcode::G_MUL, narrow, &[x[0], y[0]])];
    let mut carry_prev: Option<VReg> = None;
    for d in 1..dst_parts {
        let mut factors = Vec::new();
        let low_start = (d + 1).saturating_sub(parts);
        for i in low_start..=d.min(parts - 1) {
            factors.push(h.build(Opcode::G_MUL, narrow, &[x[d - i], y[i]]));
        }
        let high_start = d.saturating_sub(parts);
        for i in high_start..=(d - 1).min(parts - 1) {
            factors.push(h.build(Opcode::G_UMULH, narrow, &[x[d - 1 - i], y[i]]));
        }
        if d != 1
            && let Some(c) = carry_prev
        {
            factors.push(c);
        }
        let sum;
        let mut carry = None;
        if d != dst_parts - 1 {
            let (s, c) = uaddo(h, narrow, factors[0], factors[1]);
            let mut total = s;
            let mut carries = h.build(Opcode::G_ZEXT, narrow, &[c]);
            for f in &factors[2..] {
                let (s, c) = uaddo(h, narrow, total, *f);
                total = s;
                let extended = h.build(Opcode::G_ZEXT, narrow, &[c]);
                carries = h.build(Opcode::G_ADD, narrow, &[carries, extended]);
            }
            sum = total;
            carry = Some(carries);
        } else {
            let mut total = h.build(Opcode::G_ADD, narrow, &[factors[0], factors[1]]);
            for f in &factors[2..] {
                total = h.build(Opcode::G_ADD, narrow, &[total, *f]);
            }
            sum = total;
        }
        carry_prev = carry;
        out.push(sum);
    }
    h.build_into(Opcode::G_MERGE_VALUES, dst, &out[dst_parts - parts..]);
    done(h, inst)
}

fn uaddo(h: &mut Helper<'_>, ty: Llt, a: VReg, b: VReg) -> (VReg, VReg) {
    let uses = vec![Operand::vreg_use(a), Operand::vreg_use(b)];
    let defs = h.builder().build(Opcode::G_UADDO, &[ty, Llt::scalar(1)], uses).1;
    (defs[0], defs[1])
}

/// `G_SEXT_INREG`: truncate and sign-extend when the narrow type holds the
/// sign bit; otherwise parts below it pass, the part holding it gets a
/// narrower `G_SEXT_INREG`, parts above copy its sign.
pub(super) fn narrow_sext_inreg(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let Operand::Imm(width) = h.func.inst(inst).operands[2] else {
        return StepResult::Unable("G_SEXT_INREG without a width".into());
    };
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let narrow_bits = i64::from(narrow.scalar_size_in_bits());
    if narrow_bits > width {
        h.narrow_src(inst, 1, narrow);
        let narrow_dst = h.func.new_vreg(narrow);
        h.advance_insert_point();
        h.build_into(Opcode::G_SEXT, dst, &[narrow_dst]);
        h.func.set_operand(inst, 0, Operand::vreg_def(narrow_dst));
        h.mark_changed(inst);
        return StepResult::Legalized;
    }
    let size = h.func.ty(dst).size_in_bits();
    if !size.is_multiple_of(narrow.size_in_bits()) {
        return StepResult::Unable("uneven G_SEXT_INREG splits are not done".into());
    }
    let parts = (size / narrow.size_in_bits()) as usize;
    let pieces = h.split_named(src, narrow, parts);
    let sign_shift = h.builder().constant(narrow, i128::from(narrow_bits - 1));
    let (mut full, mut partial) = (None, None);
    let mut out = Vec::with_capacity(parts);
    for (i, piece) in pieces.iter().enumerate() {
        let (lo, hi) = (i as i64 * narrow_bits, (i as i64 + 1) * narrow_bits);
        if hi <= width {
            out.push(*piece);
            partial = Some(*piece);
        } else if lo >= width {
            let value = match full {
                Some(f) => f,
                None => {
                    let Some(p) = partial else { return StepResult::Unable("no part holds the sign".into()) };
                    let f = h.build(Opcode::G_ASHR, narrow, &[p, sign_shift]);
                    full = Some(f);
                    f
                }
            };
            out.push(value);
        } else {
            let ext = h.func.new_vreg(narrow);
            h.builder().insert({
                let mut d = crate::ir::InstData::new(crate::ir::InstOpcode::Known(Opcode::G_SEXT_INREG));
                d.num_defs = 1;
                d.operands.push(Operand::vreg_def(ext));
                d.operands.push(Operand::vreg_use(*piece));
                d.operands.push(Operand::Imm(width % narrow_bits));
                d
            });
            out.push(ext);
            partial = Some(ext);
        }
    }
    h.build_into(Opcode::G_MERGE_VALUES, dst, &out);
    done(h, inst)
}

/// `G_SEXTLOAD` / `G_ZEXTLOAD` of the result: a narrow (extending) load
/// extended again; memory wider than the narrow type is not split.
pub(super) fn narrow_ext_load(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, narrow: Llt) -> StepResult {
    let (dst, ptr) = (h.reg(inst, 0), h.reg(inst, 1));
    let Some(mem) = h.func.inst(inst).mem.first().cloned() else {
        return StepResult::Unable("an extending load without a memory operand".into());
    };
    let mem_bits = mem.memory_type().map_or(0, Llt::size_in_bits);
    let tmp = h.func.new_vreg(narrow);
    let load_opcode = match mem_bits.cmp(&narrow.size_in_bits()) {
        std::cmp::Ordering::Equal => Opcode::G_LOAD,
        std::cmp::Ordering::Less => opcode,
        std::cmp::Ordering::Greater => {
            return StepResult::Unable("splitting an extending load is not done (as in LLVM 22)".into());
        }
    };
    let load = h.build_with(load_opcode, &[tmp], [Operand::vreg_use(ptr)]);
    h.func.modify(load, |d| d.mem.push(mem));
    let ext = if opcode == Opcode::G_ZEXTLOAD { Opcode::G_ZEXT } else { Opcode::G_SEXT };
    h.build_into(ext, dst, &[tmp]);
    done(h, inst)
}

/// `G_CTLZ`, `G_CTTZ`, `G_CTPOP` (and zero-undef forms) of a source twice
/// the narrow type: combine the counts of the halves.
pub(super) fn narrow_count_source(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, narrow: Llt) -> StepResult {
    use Opcode::*;
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let dst_ty = h.func.ty(dst);
    if !h.func.ty(src).is_scalar() || h.func.ty(src).size_in_bits() != 2 * narrow.size_in_bits() {
        return StepResult::Unable("only sources twice the narrow type are split".into());
    }
    let halves = h.split(src, narrow, 2);
    let (lo, hi) = (halves[0], halves[1]);
    if opcode == G_CTPOP {
        let lo_count = h.build(G_CTPOP, dst_ty, &[lo]);
        let hi_count = h.build(G_CTPOP, dst_ty, &[hi]);
        h.build_into(G_ADD, dst, &[hi_count, lo_count]);
        return done(h, inst);
    }
    let undef = matches!(opcode, G_CTLZ_ZERO_UNDEF | G_CTTZ_ZERO_UNDEF);
    let leading = matches!(opcode, G_CTLZ | G_CTLZ_ZERO_UNDEF);
    let (zero_test, other) = if leading { (hi, lo) } else { (lo, hi) };
    let zero = h.builder().constant(narrow, 0);
    let is_zero = icmp(h, Llt::scalar(1), IntPredicate::Eq, zero_test, zero);
    let (plain, zero_undef) = if leading { (G_CTLZ, G_CTLZ_ZERO_UNDEF) } else { (G_CTTZ, G_CTTZ_ZERO_UNDEF) };
    let other_count = h.build(if undef { zero_undef } else { plain }, dst_ty, &[other]);
    let size = h.builder().constant(dst_ty, i128::from(narrow.size_in_bits() as u32));
    let when_zero = h.build(G_ADD, dst_ty, &[other_count, size]);
    let own_count = h.build(zero_undef, dst_ty, &[zero_test]);
    h.build_with(
        G_SELECT,
        &[dst],
        vec![Operand::vreg_use(is_zero), Operand::vreg_use(when_zero), Operand::vreg_use(own_count)],
    );
    done(h, inst)
}

/// `G_BSWAP` / `G_BITREVERSE`: the operation on each part, parts reversed.
pub(super) fn narrow_reverse(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, narrow: Llt) -> StepResult {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let size = h.func.ty(dst).size_in_bits();
    if !size.is_multiple_of(narrow.size_in_bits()) {
        return StepResult::Unable("uneven byte-swap splits are not done".into());
    }
    let parts = (size / narrow.size_in_bits()) as usize;
    let pieces = h.split_named(src, narrow, parts);
    let out: Vec<VReg> = pieces.iter().rev().map(|p| h.build(opcode, narrow, &[*p])).collect();
    h.build_into(Opcode::G_MERGE_VALUES, dst, &out);
    done(h, inst)
}

/// `G_EXTRACT` from a source split into narrow parts: each part the
/// extracted range touches is forwarded or extracted from, and the pieces
/// are merged (`narrowScalarExtract`).
pub(super) fn narrow_extract(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let Operand::Imm(start) = h.func.inst(inst).operands[2] else {
        return StepResult::Unable("G_EXTRACT without an offset".into());
    };
    let (src_size, narrow_size) = (h.func.ty(src).size_in_bits(), narrow.size_in_bits());
    if !src_size.is_multiple_of(narrow_size) {
        return StepResult::Unable("uneven G_EXTRACT sources are not split (as in LLVM 22)".into());
    }
    let parts = h.split_named(src, narrow, (src_size / narrow_size) as usize);
    let (start, size) = (start as u64, h.func.ty(dst).size_in_bits());
    let mut pieces = Vec::new();
    for (i, part) in parts.iter().enumerate() {
        let part_start = i as u64 * narrow_size;
        if part_start + narrow_size <= start || part_start >= start + size {
            continue;
        }
        if part_start == start && h.func.ty(dst) == narrow {
            pieces.push(*part);
            continue;
        }
        let (offset, segment) = if start < part_start {
            (0, narrow_size.min(start + size - part_start))
        } else {
            (start - part_start, (part_start + narrow_size - start).min(size))
        };
        let piece = if offset != 0 || segment != narrow_size {
            let seg = h.func.new_vreg(Llt::scalar(segment as u32));
            crate::legalize::combiner::build_extract(h, seg, *part, offset);
            seg
        } else {
            *part
        };
        pieces.push(piece);
    }
    match pieces[..] {
        [single] => {
            h.build_into(Opcode::COPY, dst, &[single]);
        }
        _ => {
            h.build_into(Opcode::G_MERGE_VALUES, dst, &pieces);
        }
    }
    done(h, inst)
}
