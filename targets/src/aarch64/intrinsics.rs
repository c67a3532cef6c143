//! AArch64's `legalizeIntrinsic`: NEON intrinsics that have a generic
//! counterpart become it (and are then legalized like any other
//! instruction), `llvm.va_copy` and `llvm.get.dynamic.area.offset` are
//! expanded; the others stay intrinsics for selection.

use super::subtarget::Subtarget;
use gisel_core::apint::ApInt;
use gisel_core::ir::{Inst, InstOpcode, MemFlags, MemOperand, Operand};
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
}

/// The NEON intrinsics LLVM 22 rewrites, by name.
fn replacement(name: &str) -> Option<Replacement> {
    use Opcode::*;
    use Replacement::*;
    Some(match name {
        "llvm.aarch64.neon.smax" => Generic(G_SMAX),
        "llvm.aarch64.neon.smin" => Generic(G_SMIN),
        "llvm.aarch64.neon.umax" => Generic(G_UMAX),
        "llvm.aarch64.neon.umin" => Generic(G_UMIN),
        "llvm.aarch64.neon.fmax" => Generic(G_FMAXIMUM),
        "llvm.aarch64.neon.fmin" => Generic(G_FMINIMUM),
        "llvm.aarch64.neon.fmaxnm" => Generic(G_FMAXNUM),
        "llvm.aarch64.neon.fminnm" => Generic(G_FMINNUM),
        "llvm.aarch64.neon.abs" => Generic(G_ABS),
        "llvm.aarch64.neon.sqadd" => GenericForVectors(G_SADDSAT),
        "llvm.aarch64.neon.sqsub" => GenericForVectors(G_SSUBSAT),
        "llvm.aarch64.neon.uqadd" => GenericForVectors(G_UADDSAT),
        "llvm.aarch64.neon.uqsub" => GenericForVectors(G_USUBSAT),
        "llvm.aarch64.neon.smull" => Target("G_SMULL"),
        "llvm.aarch64.neon.umull" => Target("G_UMULL"),
        "llvm.aarch64.neon.vsli" => Target("G_SLI"),
        "llvm.aarch64.neon.vsri" => Target("G_SRI"),
        _ => return None,
    })
}

/// Rewrites the intrinsic `inst` when it has a generic counterpart, and
/// expands the two LLVM 22 expands.
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

/// `llvm.va_copy(dst, src)`: the `va_list` is loaded whole and stored (a
/// pointer on Darwin and Windows, the 32-byte AAPCS structure elsewhere).
fn va_copy(h: &mut Helper<'_>, inst: Inst, st: &Subtarget) -> CustomOutcome {
    const POINTER_BYTES: u64 = 8;
    let size = if st.darwin || st.windows { POINTER_BYTES } else { 32 };
    let (dst, src) = (h.reg(inst, 1), h.reg(inst, 2));
    let ty = Llt::scalar(size as u32 * 8);
    let access = |flags| MemOperand { base_align: POINTER_BYTES, ..MemOperand::new(flags, ty) };
    let value = h.func.new_vreg(ty);
    let load = h.build_with(Opcode::G_LOAD, &[value], vec![Operand::vreg_use(src)]);
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
    h.build_with(Opcode::G_CONSTANT, &[dst], vec![Operand::cimm(ApInt::from_u128(bits, 0))]);
    h.func.erase(inst);
    CustomOutcome::Done
}
