//! `NarrowScalar`: split an operation on a wide scalar into operations on
//! parts of the narrow type, or truncate an operand that only needs its low
//! bits. Uneven sizes split into narrow parts plus a leftover, re-merged
//! through their common divisor type, as LLVM does.

use super::addressing::{address_at, bits_offset, piece_mem};
use super::narrow_insert::narrow_insert;
use super::narrow_ops::{
    narrow_count_source, narrow_ext, narrow_ext_load, narrow_extract, narrow_icmp, narrow_mul, narrow_reverse,
    narrow_select, narrow_sext_inreg, narrow_trunc_source,
};
use super::narrow_phi::{narrow_ldexp_exponent, narrow_phi, narrow_vscale};
use super::narrow_shift::narrow_shift;
use super::parts::{Parts, breakdown, extract_parts, insert_parts};
use super::{Helper, StepResult};
use crate::ir::{Inst, MemOperand, Operand, VReg};
use crate::opcode::Opcode;
use crate::ty::Llt;

/// Narrows type index `idx` of `inst` to `narrow`.
pub(super) fn narrow_scalar(h: &mut Helper<'_>, inst: Inst, idx: usize, narrow: Llt) -> StepResult {
    let Some(opcode) = h.func.inst(inst).known_opcode() else {
        return StepResult::Unable("not a generic instruction".into());
    };
    use Opcode::*;
    match (opcode, idx) {
        (G_SHL | G_LSHR | G_ASHR, 1) => truncate_src(h, inst, 2, narrow),
        (G_PTR_ADD | G_PTRMASK, 1) => truncate_src(h, inst, 2, narrow),
        (G_INTTOPTR, 1) => truncate_src(h, inst, 1, narrow),
        (G_EXTRACT_VECTOR_ELT, 2) => truncate_src(h, inst, 2, narrow),
        (G_INSERT_VECTOR_ELT, 2) => truncate_src(h, inst, 3, narrow),
        (G_ICMP, 1) => narrow_icmp(h, inst, narrow),
        (G_SELECT, 0) => narrow_select(h, inst, narrow),
        (G_SEXT | G_ZEXT | G_ANYEXT, 0) => narrow_ext(h, inst, opcode, narrow),
        (G_TRUNC, 1) => narrow_trunc_source(h, inst, narrow),
        (G_SHL | G_LSHR | G_ASHR, 0) => narrow_shift(h, inst, opcode, narrow),
        (G_MUL | G_UMULH, 0) => narrow_mul(h, inst, opcode, narrow),
        (G_SEXT_INREG, 0) => narrow_sext_inreg(h, inst, narrow),
        (G_EXTRACT, 1) => narrow_extract(h, inst, narrow),
        (G_INSERT, 0) => narrow_insert(h, inst, narrow),
        (G_PHI, 0) => narrow_phi(h, inst, narrow),
        (G_FLDEXP | G_STRICT_FLDEXP, 1) => narrow_ldexp_exponent(h, inst, narrow),
        (G_VSCALE, 0) => narrow_vscale(h, inst, narrow),
        (G_FPEXT, 0) => {
            h.narrow_dst(inst, 0, narrow, G_FPEXT);
            h.mark_changed(inst);
            StepResult::Legalized
        }
        (G_SEXTLOAD | G_ZEXTLOAD, 0) => narrow_ext_load(h, inst, opcode, narrow),
        (G_CTLZ | G_CTLZ_ZERO_UNDEF | G_CTTZ | G_CTTZ_ZERO_UNDEF | G_CTPOP, 1) => {
            narrow_count_source(h, inst, opcode, narrow)
        }
        (G_BSWAP | G_BITREVERSE, 0) => narrow_reverse(h, inst, opcode, narrow),
        // `narrowScalarFPTOI`: every finite half fits the narrow integer
        // (17 bits signed, 16 unsigned), so only the result type changes.
        (G_FPTOSI | G_FPTOUI, 0) => {
            let signed = opcode == G_FPTOSI;
            let fits = narrow.scalar_size_in_bits() >= if signed { 17 } else { 16 };
            if h.ty(inst, 1).scalar_type() != Llt::scalar(16) || !fits {
                return unable(opcode, idx, narrow, "only half-precision sources are narrowed");
            }
            h.narrow_dst(inst, 0, narrow, if signed { G_SEXT } else { G_ZEXT });
            h.mark_changed(inst);
            StepResult::Legalized
        }
        // LLVM 22 narrows these as the plain conversions and zero-extends:
        // negative results lose their sign, and infinities saturate at the
        // narrow type's bounds instead of the wide one's.
        (G_FPTOSI_SAT | G_FPTOUI_SAT, 0) => {
            unable(opcode, idx, narrow, "a narrower saturating conversion saturates at the narrower bounds")
        }
        (G_PTRTOINT | G_CTLZ | G_CTLZ_ZERO_UNDEF | G_CTTZ | G_CTTZ_ZERO_UNDEF | G_CTPOP | G_FCMP, 0) => {
            h.narrow_dst(inst, 0, narrow, G_ZEXT);
            h.mark_changed(inst);
            StepResult::Legalized
        }
        _ => {
            let wide = h.ty(inst, 0);
            if !wide.is_scalar() || !narrow.is_scalar() || wide.size_in_bits() <= narrow.size_in_bits() {
                return unable(opcode, idx, narrow, "only wider scalars are split");
            }
            match (opcode, idx) {
                (G_AND | G_OR | G_XOR, 0) => basic(h, inst, opcode, narrow),
                (G_ADD | G_SUB | G_UADDO | G_USUBO | G_UADDE | G_USUBE | G_SADDO | G_SSUBO | G_SADDE | G_SSUBE, 0) => {
                    add_sub(h, inst, opcode, narrow)
                }
                (G_IMPLICIT_DEF, 0) => implicit_def(h, inst, narrow),
                (G_CONSTANT, 0) => constant(h, inst, narrow),
                (G_FREEZE | G_CONSTANT_FOLD_BARRIER, 0) => match even_parts(wide, narrow) {
                    Some(parts) => per_part_unary(h, inst, opcode, narrow, parts),
                    None => unable(opcode, idx, narrow, "the size is not a multiple of the narrow type"),
                },
                (G_LOAD, 0) => load(h, inst, narrow),
                (G_STORE, 0) => store(h, inst, narrow),
                _ => unable(opcode, idx, narrow, "not implemented"),
            }
        }
    }
}

fn unable(opcode: Opcode, idx: usize, narrow: Llt, why: &str) -> StepResult {
    StepResult::Unable(format!("narrowing {opcode} type{idx} to {narrow}: {why}"))
}

fn even_parts(wide: Llt, narrow: Llt) -> Option<usize> {
    let (w, n) = (wide.size_in_bits(), narrow.size_in_bits());
    (n > 0 && w.is_multiple_of(n) && w > n).then_some((w / n) as usize)
}

fn truncate_src(h: &mut Helper<'_>, inst: Inst, index: usize, narrow: Llt) -> StepResult {
    h.narrow_src(inst, index, narrow);
    h.mark_changed(inst);
    StepResult::Legalized
}

/// Merges `pieces` into def 0 of `inst` and erases `inst`.
fn finish_merge(h: &mut Helper<'_>, inst: Inst, pieces: &[VReg]) -> StepResult {
    let dst = h.reg(inst, 0);
    h.build_into(Opcode::G_MERGE_VALUES, dst, pieces);
    h.func.erase(inst);
    StepResult::Legalized
}

/// `narrowScalarBasic`: the same operation on each pair of parts.
fn basic(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, narrow: Llt) -> StepResult {
    let (dst, a, b) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let a_parts = extract_parts(h, a, narrow);
    let b_parts = extract_parts(h, b, narrow);
    let op = |h: &mut Helper<'_>, x: &[VReg], y: &[VReg], ty: Llt| -> Vec<VReg> {
        x.iter().zip(y).map(|(x, y)| h.build(opcode, ty, &[*x, *y])).collect()
    };
    let parts = op(h, &a_parts.parts, &b_parts.parts, narrow);
    let leftover = op(h, &a_parts.leftover, &b_parts.leftover, a_parts.leftover_ty);
    insert_parts(h, dst, narrow, &Parts { parts, leftover_ty: a_parts.leftover_ty, leftover });
    h.func.erase(inst);
    StepResult::Legalized
}

fn per_part_unary(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, narrow: Llt, parts: usize) -> StepResult {
    let src = h.reg(inst, 1);
    let src_parts = h.split(src, narrow, parts);
    let pieces: Vec<VReg> = src_parts.iter().map(|x| h.build(opcode, narrow, &[*x])).collect();
    finish_merge(h, inst, &pieces)
}

/// `narrowScalarAddSub`: a carry chain over the parts (leftover last); the
/// last piece uses the signed form for signed overflow ops, and the final
/// carry goes to the original carry def.
fn add_sub(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, narrow: Llt) -> StepResult {
    use Opcode::*;
    let is_add = matches!(opcode, G_ADD | G_UADDO | G_UADDE | G_SADDO | G_SADDE);
    let (first_op, middle_op) = if is_add { (G_UADDO, G_UADDE) } else { (G_USUBO, G_USUBE) };
    let last_op = match opcode {
        G_SADDO | G_SADDE => G_SADDE,
        G_SSUBO | G_SSUBE => G_SSUBE,
        _ => middle_op,
    };
    let data = h.func.inst(inst);
    let num_defs = usize::from(data.num_defs);
    let carry_dst = (num_defs == 2).then(|| h.reg(inst, 1));
    let mut carry_in = (data.operands.len() == num_defs + 3).then(|| h.reg(inst, num_defs + 2));
    let (dst, a, b) = (h.reg(inst, 0), h.reg(inst, num_defs), h.reg(inst, num_defs + 1));
    let a_parts = extract_parts(h, a, narrow);
    let b_parts = extract_parts(h, b, narrow);
    let (a_all, b_all) = (a_parts.all(), b_parts.all());
    let count = a_all.len();
    let mut pieces = Vec::with_capacity(count);
    for i in 0..count {
        let piece = h.func.new_vreg(h.func.ty(a_all[i]));
        let carry_out = match carry_dst {
            Some(c) if i == count - 1 => c,
            _ => h.func.new_vreg(Llt::scalar(1)),
        };
        let mut uses = vec![Operand::vreg_use(a_all[i]), Operand::vreg_use(b_all[i])];
        let op = match carry_in {
            None => first_op,
            Some(c) => {
                uses.push(Operand::vreg_use(c));
                if i == count - 1 { last_op } else { middle_op }
            }
        };
        h.build_with(op, &[piece, carry_out], uses);
        pieces.push(piece);
        carry_in = Some(carry_out);
    }
    let leftover = pieces.split_off(a_parts.parts.len());
    insert_parts(h, dst, narrow, &Parts { parts: pieces, leftover_ty: a_parts.leftover_ty, leftover });
    h.func.erase(inst);
    StepResult::Legalized
}

/// An exact split merges narrow undefs; otherwise one narrow undef is
/// any-extended.
fn implicit_def(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let (dst, wide) = (h.reg(inst, 0), h.ty(inst, 0));
    match even_parts(wide, narrow) {
        Some(parts) => {
            let pieces: Vec<VReg> = (0..parts).map(|_| h.builder().undef(narrow)).collect();
            finish_merge(h, inst, &pieces)
        }
        None => {
            let undef = h.builder().undef(narrow);
            h.build_into(Opcode::G_ANYEXT, dst, &[undef]);
            h.func.erase(inst);
            StepResult::Legalized
        }
    }
}

/// The value sliced into narrow constants plus one leftover constant.
fn constant(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let Operand::CImm(value) = h.func.inst(inst).operands[1].clone() else {
        return StepResult::Unable("G_CONSTANT without an integer operand".into());
    };
    let (dst, wide) = (h.reg(inst, 0), h.ty(inst, 0));
    let (count, leftover_ty) = breakdown(wide, narrow);
    let bits = narrow.scalar_size_in_bits();
    let slice =
        |h: &mut Helper<'_>, offset: u32, ty: Llt| h.constant(ty, value.extract(offset, ty.scalar_size_in_bits()));
    let parts: Vec<VReg> = (0..count as u32).map(|i| slice(h, i * bits, narrow)).collect();
    let leftover = if leftover_ty.is_valid() { vec![slice(h, count as u32 * bits, leftover_ty)] } else { Vec::new() };
    insert_parts(h, dst, narrow, &Parts { parts, leftover_ty, leftover });
    h.func.erase(inst);
    StepResult::Legalized
}

fn full_width_mem(h: &Helper<'_>, inst: Inst, value_ty: Llt) -> Option<MemOperand> {
    let mem = h.func.inst(inst).mem.first()?.clone();
    (!mem.is_atomic() && mem.memory_type().map(|t| t.size_in_bytes() * 8) == Some(value_ty.size_in_bits()))
        .then_some(mem)
}

/// Whether the rules widen a load of `types` (value, pointer) from `mem`
/// to `value_ty`, which would undo loading the memory's width and never
/// end.
fn widens_back_to(h: &Helper<'_>, types: [Llt; 2], mem: &MemOperand, value_ty: Llt) -> bool {
    let descs = [crate::legalize::mem_desc(mem)];
    let step = h.info.action(&crate::legality::LegalityQuery::with_mem(Opcode::G_LOAD, &types, &descs));
    step.action == crate::legality::LegalizeAction::WidenScalar && step.new_ty == value_ty
}

/// The register type of an extending load being narrowed: the narrow type when the memory fits in it (as LLVM does), else
/// a scalar as wide as the memory. LLVM 22 uses the narrow type either way,
/// which accesses more memory than the register holds and drops the rest
/// (`load_s128_from_s64_a1` on riscv32 miscompiles); the wider access is
/// then narrowed on its own.
fn extending_access_type(mem_bits: Option<u64>, narrow: Llt) -> Llt {
    match mem_bits {
        Some(bits) if bits > narrow.size_in_bits() => Llt::scalar(bits as u32),
        _ => narrow,
    }
}

/// `reduceLoadStoreWidth` for loads (narrow pieces from the low bits up,
/// then the leftover, each where the target's byte order puts its bits),
/// or a narrow extending load when the memory is narrower than the
/// register.
fn load(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let (dst, base) = (h.reg(inst, 0), h.reg(inst, 1));
    let value_ty = h.func.ty(dst);
    let Some(mem) = h.func.inst(inst).mem.first().cloned() else {
        return StepResult::Unable("G_LOAD without a memory operand".into());
    };
    let mem_bits = mem.memory_type().map(|t| t.size_in_bytes() * 8);
    if mem_bits != Some(value_ty.size_in_bits()) {
        let mut access = extending_access_type(mem_bits, narrow);
        if widens_back_to(h, [access, h.func.ty(base)], &mem, value_ty) {
            // The rules would widen the memory-wide load back to this one:
            // load the narrow type as LLVM does (and fail where it fails).
            access = narrow;
        }
        let loaded = h.builder().load(access, base, mem);
        h.build_into(Opcode::G_ANYEXT, dst, &[loaded]);
        h.func.erase(inst);
        return StepResult::Legalized;
    }
    if full_width_mem(h, inst, value_ty).is_none() {
        return StepResult::Unable("atomic loads are not split".into());
    }
    let (count, leftover_ty) = breakdown(value_ty, narrow);
    let (big_endian, total) = (h.target.is_big_endian(), value_ty.size_in_bits());
    let mut low_bit = 0u64;
    let mut piece = |h: &mut Helper<'_>, ty: Llt| {
        let offset = bits_offset(big_endian, total, low_bit, ty.size_in_bits());
        let address = address_at(h, base, offset);
        let reg = h.builder().load(ty, address, piece_mem(&mem, offset, ty));
        low_bit += ty.size_in_bits();
        reg
    };
    let parts: Vec<VReg> = (0..count).map(|_| piece(h, narrow)).collect();
    let leftover = if leftover_ty.is_valid() { vec![piece(h, leftover_ty)] } else { Vec::new() };
    insert_parts(h, dst, narrow, &Parts { parts, leftover_ty, leftover });
    h.func.erase(inst);
    StepResult::Legalized
}

/// `reduceLoadStoreWidth` for stores (each piece where the target's byte
/// order puts its bits), or a truncating store.
fn store(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let (value, base) = (h.reg(inst, 0), h.reg(inst, 1));
    let value_ty = h.func.ty(value);
    let Some(mem) = h.func.inst(inst).mem.first().cloned() else {
        return StepResult::Unable("G_STORE without a memory operand".into());
    };
    if mem.memory_type().map(|t| t.size_in_bytes() * 8) != Some(value_ty.size_in_bits()) {
        // Into a register made beforehand, as LLVM does: CSE then copies an
        // equal truncation into it rather than handing that one out.
        let truncated = h.func.new_vreg(narrow);
        h.build_into(Opcode::G_TRUNC, truncated, &[value]);
        h.builder().store(truncated, base, mem);
        h.func.erase(inst);
        return StepResult::Legalized;
    }
    if full_width_mem(h, inst, value_ty).is_none() {
        return StepResult::Unable("atomic stores are not split".into());
    }
    let pieces = extract_parts(h, value, narrow).all();
    let (big_endian, total) = (h.target.is_big_endian(), value_ty.size_in_bits());
    let mut low_bit = 0u64;
    for piece in pieces {
        let ty = h.func.ty(piece);
        let offset = bits_offset(big_endian, total, low_bit, ty.size_in_bits());
        let address = address_at(h, base, offset);
        h.builder().store(piece, address, piece_mem(&mem, offset, ty));
        low_bit += ty.size_in_bits();
    }
    h.func.erase(inst);
    StepResult::Legalized
}
