//! `G_BRJT` on RISC-V (`legalizeBRJT`): the entry at the scaled index is
//! loaded and branched to, decoded as the function's jump-table kind says.

use gisel_core::ir::{Inst, JumpTableKind, MemFlags, MemOperand, Operand, VReg};
use gisel_core::legality::CustomOutcome;
use gisel_core::legalize::Helper;
use gisel_core::opcode::Opcode::{self, *};
use gisel_core::ty::Llt;

/// Replaces `G_BRJT %table, %jump-table.N, %index` by the load of entry
/// `index` and a `G_BRINDIRECT` to the address it gives. Fails for kinds
/// LLVM 22 does not handle here (GP-relative, 64-bit differences, inline)
/// and entries of a size that is not a power of two.
pub(super) fn branch_through_table(h: &mut Helper<'_>, inst: Inst, is_64bit: bool) -> CustomOutcome {
    let (table, index) = (h.reg(inst, 0), h.reg(inst, 2));
    let (pointer_ty, index_ty) = (h.func.ty(table), h.func.ty(index));
    let Some(kind) = h.func.jump_table_kind else { return CustomOutcome::Failed };
    let pointer_bytes = pointer_ty.size_in_bits() / 8;
    let entry_bytes = kind.entry_size(pointer_bytes);
    if !entry_bytes.is_power_of_two() {
        return CustomOutcome::Failed;
    }
    let entry_mem = MemOperand {
        pointer: Some("jump-table".into()),
        base_align: kind.entry_align(pointer_bytes),
        ..MemOperand::new(MemFlags::LOAD, Llt::scalar(entry_bytes as u32 * 8))
    };
    let scale = h.builder().constant(index_ty, i128::from(entry_bytes.trailing_zeros()));
    let offset = h.build(G_SHL, index_ty, &[index, scale]);
    let entry = h.build(G_PTR_ADD, pointer_ty, &[table, offset]);
    let target = match kind {
        // A 32-bit offset from the table (sign-extended on RV64).
        JumpTableKind::LabelDifference32 => {
            let opcode = if is_64bit { G_SEXTLOAD } else { G_LOAD };
            let delta = load(h, opcode, index_ty, entry, entry_mem);
            h.build(G_PTR_ADD, pointer_ty, &[table, delta])
        }
        // A 32-bit address.
        JumpTableKind::Custom32 => {
            let address = load(h, G_SEXTLOAD, index_ty, entry, entry_mem);
            h.build(G_INTTOPTR, pointer_ty, &[address])
        }
        JumpTableKind::BlockAddress => load(h, G_LOAD, pointer_ty, entry, entry_mem),
        _ => return CustomOutcome::Failed,
    };
    h.build_with(G_BRINDIRECT, &[], [Operand::vreg_use(target)]);
    h.func.erase(inst);
    CustomOutcome::Done
}

/// A load-like `opcode` of `ty` from `address` through `mem`.
fn load(h: &mut Helper<'_>, opcode: Opcode, ty: Llt, address: VReg, mem: MemOperand) -> VReg {
    let value = h.func.new_vreg(ty);
    let load = h.build_with(opcode, &[value], [Operand::vreg_use(address)]);
    h.func.modify(load, |d| d.mem.push(mem));
    value
}
