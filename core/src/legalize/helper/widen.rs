//! `WidenScalar`: redo an operation in a wider scalar type. Sources are
//! extended (any/sign/zero as the operation's semantics need), the result
//! is computed wide and truncated back.

use super::widen_merge::{widen_merge_sources, widen_unmerge_results};
use super::{Helper, StepResult, widen_ops};
use crate::ir::{Inst, IntPredicate, MemSize, Operand};
use crate::legalize::target::BooleanContent;
use crate::opcode::Opcode;
use crate::ty::Llt;

/// Widens type index `idx` of `inst` to `wide`.
pub(super) fn widen_scalar(h: &mut Helper<'_>, inst: Inst, idx: usize, wide: Llt) -> StepResult {
    let Some(opcode) = h.func.inst(inst).known_opcode() else {
        return StepResult::Unable("not a generic instruction".into());
    };
    use Opcode::*;
    match (opcode, idx) {
        (G_ADD | G_SUB | G_MUL | G_AND | G_OR | G_XOR | G_SHUFFLE_VECTOR, 0) => {
            srcs_and_dst(h, inst, wide, &[1, 2], G_ANYEXT)
        }
        (G_SDIV | G_SREM | G_SMIN | G_SMAX | G_ABDS, 0) => srcs_and_dst(h, inst, wide, &[1, 2], G_SEXT),
        (G_UDIV | G_UREM | G_ABDU, 0) => srcs_and_dst(h, inst, wide, &[1, 2], G_ZEXT),
        (G_UMIN | G_UMAX, 0) => {
            let narrow = h.ty(inst, 0);
            let ext = if h.target.is_sext_cheaper_than_zext(narrow, wide) { G_SEXT } else { G_ZEXT };
            srcs_and_dst(h, inst, wide, &[1, 2], ext)
        }
        (G_ABS, 0) => srcs_and_dst(h, inst, wide, &[1], G_SEXT),
        (G_FREEZE | G_CONSTANT_FOLD_BARRIER | G_SEXT_INREG, 0) => srcs_and_dst(h, inst, wide, &[1], G_ANYEXT),
        (G_SHL, 0) => srcs_and_dst(h, inst, wide, &[1], G_ANYEXT),
        (G_ASHR, 0) => srcs_and_dst(h, inst, wide, &[1], G_SEXT),
        (G_LSHR, 0) => srcs_and_dst(h, inst, wide, &[1], G_ZEXT),
        (G_SHL | G_ASHR | G_LSHR | G_ROTL | G_ROTR | G_USHLSAT | G_SSHLSAT, 1) => src_only(h, inst, wide, 2, G_ZEXT),
        (G_SDIVREM, 0) => divrem(h, inst, wide, G_SEXT),
        (G_UDIVREM, 0) => divrem(h, inst, wide, G_ZEXT),
        (G_ICMP, 0) => dst_only(h, inst, wide),
        (G_ICMP, 1) => {
            let signed = matches!(h.func.inst(inst).operands[1], Operand::IntPred(p) if p.is_signed());
            let narrow = h.ty(inst, 2);
            let ext = if signed || h.target.is_sext_cheaper_than_zext(narrow, wide) { G_SEXT } else { G_ZEXT };
            h.widen_src(inst, 2, wide, ext);
            h.widen_src(inst, 3, wide, ext);
            changed(h, inst)
        }
        (G_SELECT, 0) => srcs_and_dst(h, inst, wide, &[2, 3], G_ANYEXT),
        (G_SELECT, 1) => {
            let vector = h.ty(inst, 1).is_vector();
            let ext = bool_ext(h, vector);
            src_only(h, inst, wide, 1, ext)
        }
        (G_BRCOND, 0) => {
            let ext = bool_ext(h, false);
            src_only(h, inst, wide, 0, ext)
        }
        (G_CONSTANT, 0) => {
            let narrow = h.ty(inst, 0);
            let ext = h.target.ext_for_widening_constant(narrow);
            h.func.modify(inst, |data| {
                if let Operand::CImm(value) = &mut data.operands[1] {
                    **value = if ext == G_SEXT {
                        value.sext_or_trunc(wide.scalar_size_in_bits())
                    } else {
                        value.zext_or_trunc(wide.scalar_size_in_bits())
                    };
                }
            });
            dst_only(h, inst, wide)
        }
        (G_VSCALE, 0) => {
            // The multiplier is sign-extended to the wide type.
            h.func.modify(inst, |data| {
                if let Operand::CImm(value) = &mut data.operands[1] {
                    **value = value.sext_or_trunc(wide.scalar_size_in_bits());
                }
            });
            dst_only(h, inst, wide)
        }
        (G_IMPLICIT_DEF | G_LOAD | G_SEXTLOAD | G_ZEXTLOAD | G_PTRTOINT, 0) => dst_only(h, inst, wide),
        // Atomics keep their memory size: only the registers widen.
        (
            G_ATOMICRMW_XCHG | G_ATOMICRMW_ADD | G_ATOMICRMW_SUB | G_ATOMICRMW_AND | G_ATOMICRMW_OR | G_ATOMICRMW_XOR
            | G_ATOMICRMW_MIN | G_ATOMICRMW_MAX | G_ATOMICRMW_UMIN | G_ATOMICRMW_UMAX,
            0,
        ) => srcs_and_dst(h, inst, wide, &[2], G_ANYEXT),
        (G_ATOMIC_CMPXCHG, 0) => srcs_and_dst(h, inst, wide, &[2, 3], G_ANYEXT),
        (G_ATOMIC_CMPXCHG_WITH_SUCCESS, 0) => srcs_and_dst(h, inst, wide, &[3, 4], G_ANYEXT),
        (G_ATOMIC_CMPXCHG_WITH_SUCCESS, 1) => {
            h.widen_dst(inst, 1, wide, G_TRUNC);
            changed(h, inst)
        }
        (G_STORE, 0) if h.ty(inst, 0).is_scalar() => {
            let ext = if h.ty(inst, 0).scalar_size_in_bits() == 1 { G_ZEXT } else { G_ANYEXT };
            src_only(h, inst, wide, 0, ext)
        }
        (G_STORE, 0) if h.ty(inst, 0).is_vector() => {
            // Wider elements, stored truncated: the memory keeps the
            // value's old type.
            let old = h.ty(inst, 0);
            h.func.modify(inst, |d| {
                if let Some(mem) = d.mem.first_mut() {
                    mem.size = MemSize::Type(old);
                }
            });
            src_only(h, inst, wide, 0, G_ANYEXT)
        }
        (G_PTR_ADD, 1) => src_only(h, inst, wide, 2, G_SEXT),
        (G_PTRMASK, 1) => src_only(h, inst, wide, 2, G_ZEXT),
        (G_INTTOPTR, 1) => src_only(h, inst, wide, 1, G_ZEXT),
        (G_UADDO | G_USUBO | G_SADDO | G_SSUBO | G_UADDE | G_USUBE | G_SADDE | G_SSUBE, 1) => {
            widen_carry(h, inst, wide)
        }
        (G_UADDO | G_USUBO | G_SADDO | G_SSUBO | G_UADDE | G_USUBE | G_SADDE | G_SSUBE, 0) => {
            add_sub_overflow(h, inst, opcode, wide)
        }
        (G_EXTRACT, 0 | 1) => widen_ops::extract(h, inst, idx, wide),
        (G_INSERT, 0) if !wide.is_vector() => srcs_and_dst(h, inst, wide, &[1], G_ANYEXT),
        (G_BSWAP | G_BITREVERSE, 0) => widen_ops::swap_bits(h, inst, wide),
        (G_CTLZ | G_CTLZ_ZERO_UNDEF | G_CTTZ | G_CTTZ_ZERO_UNDEF | G_CTPOP, 0 | 1) => {
            widen_ops::count_bits(h, inst, opcode, idx, wide)
        }
        (G_PHI, 0) => widen_ops::phi(h, inst, wide),
        (
            G_FADD
            | G_FSUB
            | G_FMUL
            | G_FDIV
            | G_FREM
            | G_FMA
            | G_FMAD
            | G_FNEG
            | G_FABS
            | G_FCANONICALIZE
            | G_FMINNUM
            | G_FMAXNUM
            | G_FMINNUM_IEEE
            | G_FMAXNUM_IEEE
            | G_FMINIMUM
            | G_FMAXIMUM
            | G_FMINIMUMNUM
            | G_FMAXIMUMNUM
            | G_FCEIL
            | G_FFLOOR
            | G_FCOS
            | G_FSIN
            | G_FTAN
            | G_FACOS
            | G_FASIN
            | G_FATAN
            | G_FATAN2
            | G_FCOSH
            | G_FSINH
            | G_FTANH
            | G_FLOG10
            | G_FLOG
            | G_FLOG2
            | G_FRINT
            | G_FNEARBYINT
            | G_FSQRT
            | G_FEXP
            | G_FEXP2
            | G_FEXP10
            | G_FPOW
            | G_INTRINSIC_TRUNC
            | G_INTRINSIC_ROUND
            | G_INTRINSIC_ROUNDEVEN,
            0,
        ) => widen_ops::float_op(h, inst, wide),
        (G_FCONSTANT, 0) => widen_ops::fconstant(h, inst, wide),
        (G_FPEXT, 1) => src_only(h, inst, wide, 1, G_FPEXT),
        (G_FPOWI | G_FLDEXP, 0) => {
            h.widen_src(inst, 1, wide, G_FPEXT);
            h.widen_dst(inst, 0, wide, G_FPTRUNC);
            changed(h, inst)
        }
        (G_FPOWI | G_FLDEXP | G_STRICT_FLDEXP, 1) => src_only(h, inst, wide, 2, G_SEXT),
        (G_FFREXP, 0) => {
            h.widen_src(inst, 2, wide, G_FPEXT);
            h.widen_dst(inst, 0, wide, G_FPTRUNC);
            changed(h, inst)
        }
        (G_FMODF, 0) => widen_ops::modf(h, inst, wide),
        (G_FFREXP, 1) => {
            h.widen_dst(inst, 1, wide, G_TRUNC);
            changed(h, inst)
        }
        (G_FPTOSI | G_FPTOUI | G_INTRINSIC_LRINT | G_INTRINSIC_LLRINT | G_IS_FPCLASS, 0) => dst_only(h, inst, wide),
        (
            G_FPTOSI | G_FPTOUI | G_FPTOSI_SAT | G_FPTOUI_SAT | G_INTRINSIC_LRINT | G_INTRINSIC_LLRINT | G_IS_FPCLASS,
            1,
        ) => src_only(h, inst, wide, 1, G_FPEXT),
        (G_SITOFP | G_UITOFP, 0) => {
            h.widen_dst(inst, 0, wide, G_FPTRUNC);
            changed(h, inst)
        }
        (G_SITOFP, 1) => src_only(h, inst, wide, 1, G_SEXT),
        (G_UITOFP, 1) => src_only(h, inst, wide, 1, G_ZEXT),
        (G_FCMP, 0) => dst_only(h, inst, wide),
        (G_FCMP, 1) => {
            h.widen_src(inst, 2, wide, G_FPEXT);
            h.widen_src(inst, 3, wide, G_FPEXT);
            changed(h, inst)
        }
        (G_SADDSAT | G_SSUBSAT | G_UADDSAT | G_USUBSAT | G_SSHLSAT | G_USHLSAT, 0) => {
            widen_ops::saturating(h, inst, opcode, wide)
        }
        (G_UMULO | G_SMULO, 0 | 1) => widen_ops::mulo(h, inst, opcode, idx, wide),
        (G_SBFX | G_UBFX, 0) => srcs_and_dst(h, inst, wide, &[1], G_ANYEXT),
        (G_SBFX | G_UBFX, 1) => {
            h.widen_src(inst, 2, wide, G_ZEXT);
            h.widen_src(inst, 3, wide, G_ZEXT);
            changed(h, inst)
        }
        (G_EXTRACT_VECTOR_ELT, 0) => {
            let vector = h.ty(inst, 1).change_element_type(Llt::scalar(wide.size_in_bits() as u32));
            h.widen_src(inst, 1, vector, G_ANYEXT);
            h.widen_dst(inst, 0, wide, G_TRUNC);
            changed(h, inst)
        }
        (G_INSERT_VECTOR_ELT, 0) => {
            h.widen_src(inst, 1, wide, G_ANYEXT);
            h.widen_src(inst, 2, wide.element_type(), G_ANYEXT);
            h.widen_dst(inst, 0, wide, G_TRUNC);
            changed(h, inst)
        }
        (G_INSERT_VECTOR_ELT, 1) => {
            let vector = h.ty(inst, 1).change_element_type(wide);
            h.widen_src(inst, 1, vector, G_ANYEXT);
            h.widen_src(inst, 2, wide, G_ANYEXT);
            h.widen_dst(inst, 0, vector, G_TRUNC);
            changed(h, inst)
        }
        // An index is unsigned: LLVM 22 zero-extends it.
        (G_EXTRACT_VECTOR_ELT, 2) => src_only(h, inst, wide, 2, G_ZEXT),
        (G_INSERT_VECTOR_ELT, 2) => src_only(h, inst, wide, 3, G_ZEXT),
        (G_SPLAT_VECTOR, 1) => src_only(h, inst, wide, 1, G_ANYEXT),
        (G_BUILD_VECTOR, 0 | 1) => widen_ops::build_vector(h, inst, idx, wide),
        (G_MERGE_VALUES, 1) => widen_merge_sources(h, inst, wide),
        (G_UNMERGE_VALUES, 0) => widen_unmerge_results(h, inst, wide),
        _ if opcode.name().starts_with("G_VECREDUCE_") => super::reduce::widen(h, inst, opcode, idx, wide),
        (G_INSERT_SUBVECTOR, 0) => widen_ops::insert_subvector(h, inst, wide),
        _ => StepResult::Unable(format!("widening {opcode} type{idx} to {wide} is not implemented")),
    }
}

fn changed(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    h.mark_changed(inst);
    StepResult::Legalized
}

fn bool_ext(h: &Helper<'_>, vector: bool) -> Opcode {
    match h.target.boolean_content(vector) {
        BooleanContent::Undefined => Opcode::G_ANYEXT,
        BooleanContent::ZeroOrOne => Opcode::G_ZEXT,
        BooleanContent::ZeroOrNegativeOne => Opcode::G_SEXT,
    }
}

/// Extends the sources at `srcs` with `ext` and widens def 0.
fn srcs_and_dst(h: &mut Helper<'_>, inst: Inst, wide: Llt, srcs: &[usize], ext: Opcode) -> StepResult {
    for &src in srcs {
        h.widen_src(inst, src, wide, ext);
    }
    h.widen_dst(inst, 0, wide, Opcode::G_TRUNC);
    changed(h, inst)
}

fn src_only(h: &mut Helper<'_>, inst: Inst, wide: Llt, src: usize, ext: Opcode) -> StepResult {
    h.widen_src(inst, src, wide, ext);
    changed(h, inst)
}

fn dst_only(h: &mut Helper<'_>, inst: Inst, wide: Llt) -> StepResult {
    h.widen_dst(inst, 0, wide, Opcode::G_TRUNC);
    changed(h, inst)
}

fn divrem(h: &mut Helper<'_>, inst: Inst, wide: Llt, ext: Opcode) -> StepResult {
    h.widen_src(inst, 2, wide, ext);
    h.widen_src(inst, 3, wide, ext);
    h.widen_dst(inst, 1, wide, Opcode::G_TRUNC);
    h.widen_dst(inst, 0, wide, Opcode::G_TRUNC);
    changed(h, inst)
}

/// Widens the carry def (and the carry-in of the `*E` forms).
fn widen_carry(h: &mut Helper<'_>, inst: Inst, wide: Llt) -> StepResult {
    let has_carry_in = h.func.inst(inst).operands.len() > 4;
    if has_carry_in {
        let ext = bool_ext(h, false);
        h.widen_src(inst, 4, wide, ext);
    }
    h.widen_dst(inst, 1, wide, Opcode::G_TRUNC);
    changed(h, inst)
}

/// Does the operation in the wide type; overflow is whether the wide result
/// survives a round trip through the narrow type.
fn add_sub_overflow(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, wide: Llt) -> StepResult {
    use Opcode::*;
    let (wide_op, ext) = match opcode {
        G_SADDO => (G_ADD, G_SEXT),
        G_SSUBO => (G_SUB, G_SEXT),
        G_UADDO => (G_ADD, G_ZEXT),
        G_USUBO => (G_SUB, G_ZEXT),
        G_SADDE | G_UADDE => (G_UADDE, if opcode == G_SADDE { G_SEXT } else { G_ZEXT }),
        _ => (G_USUBE, if opcode == G_SSUBE { G_SEXT } else { G_ZEXT }),
    };
    let (result, carry) = (h.reg(inst, 0), h.reg(inst, 1));
    let (lhs, rhs) = (h.reg(inst, 2), h.reg(inst, 3));
    let narrow = h.func.ty(result);
    let lhs_ext = h.build(ext, wide, &[lhs]);
    let rhs_ext = h.build(ext, wide, &[rhs]);
    let sum = if h.func.inst(inst).operands.len() > 4 {
        let carry_in = h.reg(inst, 4);
        let carry_ty = h.func.ty(carry);
        let uses = vec![Operand::vreg_use(lhs_ext), Operand::vreg_use(rhs_ext), Operand::vreg_use(carry_in)];
        h.builder().build(wide_op, &[wide, carry_ty], uses).1[0]
    } else {
        h.build(wide_op, wide, &[lhs_ext, rhs_ext])
    };
    let truncated = h.build(G_TRUNC, narrow, &[sum]);
    let round_trip = h.build(ext, wide, &[truncated]);
    let uses = vec![Operand::IntPred(IntPredicate::Ne), Operand::vreg_use(sum), Operand::vreg_use(round_trip)];
    h.build_with(G_ICMP, &[carry], uses);
    h.build_into(G_TRUNC, result, &[sum]);
    h.func.erase(inst);
    StepResult::Legalized
}
