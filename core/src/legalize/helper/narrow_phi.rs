//! `NarrowScalar` of `G_PHI`, `G_FLDEXP`'s exponent and `G_VSCALE`.

use super::parts::breakdown;
use super::vector_parts::{before_terminators, first_non_phi};
use super::{Helper, StepResult};
use crate::apint::ApInt;
use crate::ir::{Block, Inst, Operand, VReg};
use crate::opcode::Opcode;
use crate::ty::Llt;

/// `G_PHI` of a scalar that splits exactly into narrow parts: each incoming
/// value is unmerged at the end of its block (before the terminators), one
/// narrow PHI per part, and the parts are merged after the PHIs.
pub(super) fn narrow_phi(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let ty = h.ty(inst, 0);
    let (count, leftover) = breakdown(ty, narrow);
    if !ty.is_scalar() || leftover.is_valid() || count < 2 {
        return StepResult::Unable(format!("narrowing G_PHI of {ty} to {narrow} needs an exact split"));
    }
    let operands = h.func.inst(inst).operands.clone();
    let mut incoming: Vec<(VReg, Block)> = Vec::new();
    for pair in operands[1..].chunks(2) {
        match (pair.first().and_then(Operand::as_reg).and_then(|r| r.vreg()), pair.get(1)) {
            (Some(v), Some(Operand::Block(b))) => incoming.push((v, *b)),
            _ => return StepResult::Unable("G_PHI with malformed incoming operands".into()),
        }
    }
    let Some(block) = h.func.inst_block(inst) else {
        return StepResult::Unable("G_PHI outside a block".into());
    };
    let mut split = Vec::with_capacity(incoming.len());
    for &(value, pred) in &incoming {
        h.point = before_terminators(h, pred);
        split.push(h.split_named(value, narrow, count));
    }
    h.set_insert_before(inst);
    let mut parts = Vec::with_capacity(count);
    for i in 0..count {
        let def = h.func.new_vreg(narrow);
        let uses = incoming
            .iter()
            .zip(&split)
            .flat_map(|(&(_, pred), pieces)| [Operand::vreg_use(pieces[i]), Operand::Block(pred)]);
        h.build_with(Opcode::G_PHI, &[def], uses);
        parts.push(def);
    }
    h.point = first_non_phi(h, block);
    let dst = h.reg(inst, 0);
    h.build_into(Opcode::G_MERGE_VALUES, dst, &parts);
    h.func.erase(inst);
    StepResult::Legalized
}

/// The exponent of `G_FLDEXP`/`G_STRICT_FLDEXP` clamped to the narrow
/// type's signed range and truncated. From 16 bits up this changes no
/// result: a larger exponent overflows or underflows every format.
pub(super) fn narrow_ldexp_exponent(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let exponent = h.reg(inst, 2);
    let ty = h.func.ty(exponent);
    let bits = narrow.scalar_size_in_bits();
    let (min, max) = (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1);
    let min = h.builder().constant(ty, min);
    let at_least_min = h.build(Opcode::G_SMAX, ty, &[exponent, min]);
    let max = h.builder().constant(ty, max);
    let clamped = h.build(Opcode::G_SMIN, ty, &[at_least_min, max]);
    let narrowed = h.build(Opcode::G_TRUNC, narrow, &[clamped]);
    h.func.set_operand(inst, 2, Operand::vreg_use(narrowed));
    h.mark_changed(inst);
    StepResult::Legalized
}

/// `G_VSCALE c` as `zext(G_VSCALE 1 at the narrow type) * c`.
pub(super) fn narrow_vscale(h: &mut Helper<'_>, inst: Inst, narrow: Llt) -> StepResult {
    let Some(Operand::CImm(multiplier)) = h.func.inst(inst).operands.get(1).cloned() else {
        return StepResult::Unable("G_VSCALE without a multiplier".into());
    };
    let dst = h.reg(inst, 0);
    let ty = h.func.ty(dst);
    let one = Operand::cimm(ApInt::from_u128(narrow.scalar_size_in_bits(), 1));
    let base = h.func.new_vreg(narrow);
    h.build_with(Opcode::G_VSCALE, &[base], [one]);
    let extended = h.build(Opcode::G_ZEXT, ty, &[base]);
    let factor = h.func.new_vreg(ty);
    let value = multiplier.sext_or_trunc(ty.scalar_size_in_bits());
    h.build_with(Opcode::G_CONSTANT, &[factor], [Operand::cimm(value)]);
    h.build_with(Opcode::G_MUL, &[dst], [Operand::vreg_use(extended), Operand::vreg_use(factor)]);
    h.func.erase(inst);
    StepResult::Legalized
}
