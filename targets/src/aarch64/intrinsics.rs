//! AArch64's `legalizeIntrinsic`: NEON intrinsics that have a generic
//! counterpart become it (and are then legalized like any other
//! instruction), `llvm.va_copy` and `llvm.get.dynamic.area.offset` are
//! expanded; the others stay intrinsics for selection.

use super::custom::build_target;
use super::subtarget::Subtarget;
use gisel_core::apint::ApInt;
use gisel_core::ir::{Inst, InstData, InstOpcode, MemFlags, MemOperand, Operand, VReg};
use gisel_core::legality::CustomOutcome;
use gisel_core::legalize::Helper;
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;

/// What an intrinsic becomes.
enum Replacement {
    /// A generic opcode with the intrinsic's operands.
    Generic(Opcode),
    /// The same, but only for vector types (scalars stay intrinsics).
    GenericForVectors(Opcode),
    /// A target generic instruction (`G_SLI`) with the intrinsic's operands.
    Target(&'static str),
    /// A narrowing shift by an immediate: the target's shift of the wide
    /// source, then a saturating truncation into the result.
    NarrowingShift(&'static str, Opcode),
    /// An across-lanes reduction: computed in the source's element type,
    /// then sign- (or zero-) extended to the result's.
    Reduction { signed: bool },
    /// A long across-lanes sum: the target's 128-bit vector of results,
    /// of which lane 0 is the sum.
    LongSum(&'static str),
}

/// The NEON intrinsics LLVM 22 rewrites, by name.
fn replacement(name: &str) -> Option<Replacement> {
    use Opcode::*;
    use Replacement::*;
    let neon = name.strip_prefix("llvm.aarch64.neon.")?;
    Some(match neon {
        "smax" => Generic(G_SMAX),
        "smin" => Generic(G_SMIN),
        "umax" => Generic(G_UMAX),
        "umin" => Generic(G_UMIN),
        "fmax" => Generic(G_FMAXIMUM),
        "fmin" => Generic(G_FMINIMUM),
        "fmaxnm" => Generic(G_FMAXNUM),
        "fminnm" => Generic(G_FMINNUM),
        "abs" => Generic(G_ABS),
        "sabd" => Generic(G_ABDS),
        "uabd" => Generic(G_ABDU),
        "shadd" => Generic(G_SAVGFLOOR),
        "uhadd" => Generic(G_UAVGFLOOR),
        "srhadd" => Generic(G_SAVGCEIL),
        "urhadd" => Generic(G_UAVGCEIL),
        "sqxtn" => Generic(G_TRUNC_SSAT_S),
        "sqxtun" => Generic(G_TRUNC_SSAT_U),
        "uqxtn" => Generic(G_TRUNC_USAT_U),
        "sqadd" => GenericForVectors(G_SADDSAT),
        "sqsub" => GenericForVectors(G_SSUBSAT),
        "uqadd" => GenericForVectors(G_UADDSAT),
        "uqsub" => GenericForVectors(G_USUBSAT),
        "smull" => Target("G_SMULL"),
        "umull" => Target("G_UMULL"),
        "pmull" | "pmull64" => Target("G_PMULL"),
        "vsli" => Target("G_SLI"),
        "vsri" => Target("G_SRI"),
        "udot" => Target("G_UDOT"),
        "sdot" => Target("G_SDOT"),
        "usdot" => Target("G_USDOT"),
        "uaddlp" => Target("G_UADDLP"),
        "saddlp" => Target("G_SADDLP"),
        "sqshrn" => NarrowingShift("G_VASHR", G_TRUNC_SSAT_S),
        "sqshrun" => NarrowingShift("G_VASHR", G_TRUNC_SSAT_U),
        "uqshrn" => NarrowingShift("G_VLSHR", G_TRUNC_USAT_U),
        "sqrshrn" => NarrowingShift("G_SRSHR_I", G_TRUNC_SSAT_S),
        "sqrshrun" => NarrowingShift("G_SRSHR_I", G_TRUNC_SSAT_U),
        "uqrshrn" => NarrowingShift("G_URSHR_I", G_TRUNC_USAT_U),
        "saddv" | "smaxv" | "sminv" => Reduction { signed: true },
        "uaddv" | "umaxv" | "uminv" => Reduction { signed: false },
        "uaddlv" => LongSum("G_UADDLV"),
        "saddlv" => LongSum("G_SADDLV"),
        _ => return None,
    })
}

/// Rewrites the intrinsic `inst` when it has a generic counterpart, and
/// expands the ones LLVM 22 expands.
pub fn legalize(h: &mut Helper<'_>, inst: Inst, st: &Subtarget) -> CustomOutcome {
    let data = h.func.inst(inst);
    let Some(Operand::Intrinsic(name)) = data.operands.get(usize::from(data.num_defs)) else {
        return CustomOutcome::Done;
    };
    match &**name {
        "llvm.va_copy" => return va_copy(h, inst, st),
        "llvm.get.dynamic.area.offset" => return dynamic_area_offset(h, inst),
        _ => {}
    }
    let Some(replacement) = replacement(name) else { return CustomOutcome::Done };
    let opcode = match replacement {
        Replacement::Generic(opcode) => InstOpcode::Known(opcode),
        Replacement::GenericForVectors(opcode) => {
            if !h.ty(inst, 0).is_vector() {
                return CustomOutcome::Done;
            }
            InstOpcode::Known(opcode)
        }
        Replacement::Target(name) => InstOpcode::Target(h.func.names.intern(name)),
        Replacement::NarrowingShift(shift, truncation) => return narrowing_shift(h, inst, shift, truncation),
        Replacement::Reduction { signed } => return reduction(h, inst, signed),
        Replacement::LongSum(sum) => return long_sum(h, inst, sum),
    };
    // The same defs and operands without the intrinsic's name.
    let defs = usize::from(h.func.inst(inst).num_defs);
    h.func.modify(inst, |data| {
        data.opcode = opcode;
        data.operands.remove(defs);
    });
    h.mark_changed(inst);
    CustomOutcome::Done
}

/// `sqshrn` and kin (`dst = intrinsic src, imm`): `shift src, imm` into a
/// new register of the source's type, then `truncation` of it into `dst`.
fn narrowing_shift(h: &mut Helper<'_>, inst: Inst, shift: &str, truncation: Opcode) -> CustomOutcome {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 2));
    let Some(&Operand::Imm(amount)) = h.func.inst(inst).operands.get(3) else { return CustomOutcome::Done };
    let shifted = h.func.new_vreg(h.func.ty(src));
    let mut data = InstData::new(InstOpcode::Target(h.func.names.intern(shift)));
    data.num_defs = 1;
    data.operands.extend([Operand::vreg_def(shifted), Operand::vreg_use(src), Operand::Imm(amount)]);
    h.set_insert_before(inst);
    h.builder().insert(data);
    h.build_with(truncation, &[dst], [Operand::vreg_use(shifted)]);
    h.func.erase(inst);
    CustomOutcome::Done
}

/// `saddv` and kin of a vector whose elements are narrower (or wider) than
/// the result: the intrinsic now defines a new register of the element
/// type, extended (or truncated) into the result right after it.
fn reduction(h: &mut Helper<'_>, inst: Inst, signed: bool) -> CustomOutcome {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 2));
    let element = h.func.ty(src).element_type();
    let dst_ty = h.func.ty(dst);
    if element == dst_ty {
        return CustomOutcome::Done;
    }
    let narrow = h.func.new_vreg(element);
    h.func.set_operand(inst, 0, Operand::vreg_def(narrow));
    h.mark_changed(inst);
    let opcode = match element.size_in_bits().cmp(&dst_ty.size_in_bits()) {
        std::cmp::Ordering::Greater => Opcode::G_TRUNC,
        _ if signed => Opcode::G_SEXT,
        _ => Opcode::G_ZEXT,
    };
    h.set_insert_before(inst);
    h.advance_insert_point();
    h.build_with(opcode, &[dst], [Operand::vreg_use(narrow)]);
    CustomOutcome::Done
}

/// `uaddlv`/`saddlv` of a scalar result of 32 or 64 bits, expanded.
fn long_sum(h: &mut Helper<'_>, inst: Inst, sum: &str) -> CustomOutcome {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 2));
    let dst_ty = h.func.ty(dst);
    if !dst_ty.is_scalar() || !matches!(dst_ty.size_in_bits(), 32 | 64) {
        return CustomOutcome::Done;
    }
    h.set_insert_before(inst);
    expand_long_sum(h, sum, dst, src);
    h.func.erase(inst);
    CustomOutcome::Done
}

/// A long across-lanes sum (`G_UADDLV`, `G_SADDLV`) of `src` into `dst`
/// (s32 or s64) at the insertion point, as LLVM 22 expands the
/// intrinsics: the sum into a 128-bit vector of `dst`'s type, lane 0
/// extracted and copied into `dst`.
pub(super) fn expand_long_sum(h: &mut Helper<'_>, sum: &str, dst: VReg, src: VReg) {
    let dst_ty = h.func.ty(dst);
    let lanes_ty = Llt::fixed_vector(128 / dst_ty.size_in_bits() as u32, dst_ty);
    let lanes = build_target(h, sum, lanes_ty, &[src]);
    let zero = h.builder().constant(Llt::scalar(64), 0);
    let lane = h.build(Opcode::G_EXTRACT_VECTOR_ELT, dst_ty, &[lanes, zero]);
    h.build_into(Opcode::COPY, dst, &[lane]);
}

/// `llvm.va_copy(dst, src)`: the `va_list` is loaded whole and stored (a
/// pointer on Darwin and Windows, the 32-byte AAPCS structure elsewhere).
fn va_copy(h: &mut Helper<'_>, inst: Inst, st: &Subtarget) -> CustomOutcome {
    const POINTER_BYTES: u64 = 8;
    let size = if st.darwin || st.windows { POINTER_BYTES } else { 32 };
    let (dst, src) = (h.reg(inst, 1), h.reg(inst, 2));
    let ty = Llt::scalar(size as u32 * 8);
    let access = |flags| MemOperand { base_align: POINTER_BYTES, ..MemOperand::new(flags, ty) };
    let value = h.func.new_vreg(ty);
    let load = h.build_with(Opcode::G_LOAD, &[value], [Operand::vreg_use(src)]);
    h.func.modify(load, |data| data.mem.push(access(MemFlags::LOAD)));
    h.builder().store(value, dst, access(MemFlags::STORE));
    h.func.erase(inst);
    CustomOutcome::Done
}

/// `llvm.get.dynamic.area.offset`: AArch64's dynamic allocas start right at
/// the stack pointer, so the offset is 0.
fn dynamic_area_offset(h: &mut Helper<'_>, inst: Inst) -> CustomOutcome {
    let dst = h.reg(inst, 0);
    let bits = h.func.ty(dst).size_in_bits() as u32;
    h.build_with(Opcode::G_CONSTANT, &[dst], [Operand::cimm(ApInt::from_u128(bits, 0))]);
    h.func.erase(inst);
    CustomOutcome::Done
}
