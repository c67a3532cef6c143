//! Vector reductions (`G_VECREDUCE_*`): the non-sequential ones, which may
//! be reassociated, split into fewer elements (LLVM's
//! `fewerElementsVectorReductions` and `tryNarrowPow2Reduction`) and
//! widened (the integer sum's source, the floating-point ones' result);
//! the ordered `G_VECREDUCE_SEQ_FADD`/`FMUL` scalarized lane by lane.

use super::{Helper, StepResult};
use crate::ir::{Inst, VReg};
use crate::opcode::Opcode::{self, *};
use crate::ty::Llt;

/// The binary operation a non-sequential reduction repeats (LLVM's
/// `getScalarOpcForReduction`), `None` for the sequential ones.
pub(super) fn combining_opcode(reduction: Opcode) -> Option<Opcode> {
    Some(match reduction {
        G_VECREDUCE_ADD => G_ADD,
        G_VECREDUCE_MUL => G_MUL,
        G_VECREDUCE_AND => G_AND,
        G_VECREDUCE_OR => G_OR,
        G_VECREDUCE_XOR => G_XOR,
        G_VECREDUCE_SMAX => G_SMAX,
        G_VECREDUCE_SMIN => G_SMIN,
        G_VECREDUCE_UMAX => G_UMAX,
        G_VECREDUCE_UMIN => G_UMIN,
        G_VECREDUCE_FADD => G_FADD,
        G_VECREDUCE_FMUL => G_FMUL,
        G_VECREDUCE_FMAX => G_FMAXNUM,
        G_VECREDUCE_FMIN => G_FMINNUM,
        G_VECREDUCE_FMAXIMUM => G_FMAXIMUM,
        G_VECREDUCE_FMINIMUM => G_FMINIMUM,
        _ => return None,
    })
}

fn unable(opcode: Opcode, why: &str) -> StepResult {
    StepResult::Unable(format!("{opcode}: {why}"))
}

/// Splits the source of reduction `inst` into pieces of `narrow` (a
/// vector, or the element type to scalarize). Scalar pieces are combined
/// in a balanced tree when there is a power of two of them, in order
/// otherwise; vector pieces of a power-of-two vector are combined in a tree
/// of vector operations that the reduction then reduces, other pieces are
/// reduced one by one and the partial results combined in order.
pub(super) fn fewer_elements(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, idx: usize, narrow: Llt) -> StepResult {
    if matches!(opcode, G_VECREDUCE_SEQ_FADD | G_VECREDUCE_SEQ_FMUL) {
        return sequential(h, inst, opcode, idx, narrow);
    }
    let Some(combine) = combining_opcode(opcode) else {
        return unable(opcode, "not a reduction");
    };
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    if idx != 1 || !src_ty.is_fixed_vector() {
        return unable(opcode, "only the fixed vector source is split");
    }
    let lanes = src_ty.num_elements();
    if narrow.is_vector() && !lanes.is_multiple_of(narrow.num_elements()) {
        return unable(opcode, "the pieces must divide the vector");
    }
    if !narrow.is_vector() {
        if dst_ty != narrow {
            return unable(opcode, "the result must be the element type");
        }
        let elements = h.split_named(src, narrow, lanes as usize);
        let result = if lanes.is_power_of_two() {
            tree(h, combine, narrow, elements)
        } else {
            in_order(h, combine, narrow, &elements, None)
        };
        h.build_into(COPY, dst, &[result]);
        h.func.erase(inst);
        return StepResult::Legalized;
    }
    let parts = (lanes / narrow.num_elements()) as usize;
    if lanes.is_power_of_two() && narrow.num_elements().is_power_of_two() {
        // LLVM 22 splits the source three times on this path and reduces
        // the last pieces; the first two unmerges are left dead, but their
        // registers are numbered.
        for _ in 0..2 {
            h.split_named(src, narrow, parts);
        }
        let pieces = h.split_named(src, narrow, parts);
        let combined = tree(h, combine, narrow, pieces);
        h.func.set_operand(inst, 1, crate::ir::Operand::vreg_use(combined));
        h.mark_changed(inst);
        return StepResult::Legalized;
    }
    let pieces = h.split_named(src, narrow, parts);
    let partial: Vec<VReg> = pieces.iter().map(|piece| h.build(opcode, dst_ty, &[*piece])).collect();
    in_order(h, combine, dst_ty, &partial, Some(dst));
    h.func.erase(inst);
    StepResult::Legalized
}

/// Scalarizes an ordered reduction (LLVM's
/// `fewerElementsVectorSeqReductions`): the start value combined with each
/// lane in turn.
fn sequential(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, idx: usize, narrow: Llt) -> StepResult {
    let (dst, start, src) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    if idx != 2 || narrow.is_vector() || dst_ty != h.func.ty(start) || dst_ty != narrow || !src_ty.is_fixed_vector() {
        return unable(opcode, "only the vector is scalarized, into lanes of the result type");
    }
    let combine = if opcode == G_VECREDUCE_SEQ_FADD { G_FADD } else { G_FMUL };
    let lanes = h.split_named(src, narrow, src_ty.num_elements() as usize);
    let mut acc = start;
    for lane in lanes {
        acc = h.build(combine, narrow, &[acc, lane]);
    }
    h.build_into(COPY, dst, &[acc]);
    h.func.erase(inst);
    StepResult::Legalized
}

/// Combines `values` pairwise, level by level, down to one.
fn tree(h: &mut Helper<'_>, combine: Opcode, ty: Llt, mut values: Vec<VReg>) -> VReg {
    while values.len() > 1 {
        values = values.chunks(2).map(|pair| h.build(combine, ty, pair)).collect();
    }
    values[0]
}

/// Combines `values` left to right, the last combination defining `into`
/// when given.
fn in_order(h: &mut Helper<'_>, combine: Opcode, ty: Llt, values: &[VReg], into: Option<VReg>) -> VReg {
    let mut acc = values[0];
    for (i, value) in values.iter().enumerate().skip(1) {
        acc = match into {
            Some(dst) if i == values.len() - 1 => {
                h.build_into(combine, dst, &[acc, *value]);
                dst
            }
            _ => h.build(combine, ty, &[acc, *value]),
        };
    }
    acc
}

/// Widens reduction `inst` at type index `idx` to `wide`: the integer sum
/// adds any-extended lanes and truncates the result; the floating-point
/// reductions extend the lanes and truncate the result.
pub(super) fn widen(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, idx: usize, wide: Llt) -> StepResult {
    let src_ty = h.ty(inst, 1);
    match (opcode, idx) {
        (G_VECREDUCE_ADD, 1) => {
            h.widen_src(inst, 1, wide, G_ANYEXT);
            h.widen_dst(inst, 0, wide.scalar_type(), G_TRUNC);
        }
        (
            G_VECREDUCE_FADD | G_VECREDUCE_FMUL | G_VECREDUCE_FMIN | G_VECREDUCE_FMAX | G_VECREDUCE_FMINIMUM
            | G_VECREDUCE_FMAXIMUM,
            0,
        ) => {
            let wide_src = if src_ty.is_vector() { src_ty.change_element_type(wide) } else { wide };
            h.widen_src(inst, 1, wide_src, G_FPEXT);
            h.widen_dst(inst, 0, wide, G_FPTRUNC);
        }
        _ => return StepResult::Unable(format!("widening {opcode} type{idx} to {wide} is not implemented")),
    }
    h.mark_changed(inst);
    StepResult::Legalized
}

/// Lowers a reduction whose source is a scalar (a one-element vector in
/// the IR) to a copy (LLVM's `lowerVectorReduction`); other reductions
/// have no generic expansion.
pub(super) fn lower(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    if combining_opcode(opcode).is_none() || h.func.ty(src).is_vector() || h.func.ty(src) != h.func.ty(dst) {
        return unable(opcode, "only a reduction of a scalar of its own type is lowered, to a copy");
    }
    h.func.modify(inst, |d| d.opcode = crate::ir::InstOpcode::Known(COPY));
    h.mark_changed(inst);
    StepResult::Legalized
}
