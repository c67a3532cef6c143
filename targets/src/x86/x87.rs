//! x87 conversions between integers and floating point, which go through
//! memory: an integer stored to a stack slot and loaded onto the x87
//! stack by `G_FILD` (`legalizeSITOFP`), or stored from it by `G_FIST`
//! and loaded back (`legalizeFPTOSI`).

use gisel_core::ir::{Inst, InstData, InstOpcode, MemFlags, MemOperand, Operand};
use gisel_core::legalize::Helper;
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;

/// `G_SITOFP` with x87: the integer stored to a new stack slot of its
/// size, then `G_FILD` of the slot.
pub(super) fn sitofp(h: &mut Helper<'_>, inst: Inst) -> bool {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let src_ty = h.func.ty(src);
    let Some(bytes) = slot_size(src_ty) else { return false };
    h.set_insert_before(inst);
    let (slot, name) = h.stack_temporary(bytes, bytes);
    h.builder().store(src, slot, slot_access(MemFlags::STORE, src_ty, &name));
    let mut fild = InstData::new(InstOpcode::Target(h.func.names.intern("G_FILD")));
    fild.num_defs = 1;
    fild.operands.extend([Operand::vreg_def(dst), Operand::vreg_use(slot)]);
    fild.mem.push(slot_access(MemFlags::LOAD, src_ty, &name));
    h.builder().insert(fild);
    h.func.erase(inst);
    true
}

/// `G_FPTOSI` with x87: `G_FIST` into a new stack slot of the result's
/// size, then a load of the slot.
pub(super) fn fptosi(h: &mut Helper<'_>, inst: Inst) -> bool {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let dst_ty = h.func.ty(dst);
    let Some(bytes) = slot_size(dst_ty) else { return false };
    h.set_insert_before(inst);
    let (slot, name) = h.stack_temporary(bytes, bytes);
    let mut fist = InstData::new(InstOpcode::Target(h.func.names.intern("G_FIST")));
    fist.operands.extend([Operand::vreg_use(src), Operand::vreg_use(slot)]);
    fist.mem.push(slot_access(MemFlags::STORE, dst_ty, &name));
    h.builder().insert(fist);
    let load = h.build_with(Opcode::G_LOAD, &[dst], [Operand::vreg_use(slot)]);
    h.func.modify(load, |data| data.mem.push(slot_access(MemFlags::LOAD, dst_ty, &name)));
    h.func.erase(inst);
    true
}

/// The stack slot for an integer of `ty`: 2, 4 or 8 bytes (what the rules
/// send here), else none.
fn slot_size(ty: Llt) -> Option<u64> {
    let bytes = ty.size_in_bytes();
    (ty.is_scalar() && matches!(bytes, 2 | 4 | 8)).then_some(bytes)
}

/// An access of `ty` to the stack slot `name`, aligned to its size.
fn slot_access(flags: MemFlags, ty: Llt, name: &str) -> MemOperand {
    MemOperand { pointer: Some(name.into()), base_align: ty.size_in_bytes(), ..MemOperand::new(flags, ty) }
}
