//! Addresses and memory operands of the pieces a split load or store
//! accesses (LLVM's `materializeObjectPtrOffset` and
//! `getMachineMemOperand(MMO, Offset, Ty)`).

use super::Helper;
use crate::ir::{InstFlags, MemOperand, Operand, VReg, common_alignment};
use crate::opcode::Opcode;
use crate::ty::Llt;

/// `base + offset` into a new register given as the destination, so that
/// CSE copies into it rather than replacing it; nothing at offset 0
/// (LLVM's `materializeObjectPtrOffset`).
pub(super) fn address_at(h: &mut Helper<'_>, base: VReg, offset: u64) -> VReg {
    if offset == 0 {
        return base;
    }
    let address = h.func.new_vreg(h.func.ty(base));
    object_offset(h, base, offset, Some(address))
}

/// `base + offset` into a register the builder makes, which CSE may
/// replace (LLVM's `buildObjectPtrOffset` of a type).
pub(super) fn offset_address(h: &mut Helper<'_>, base: VReg, offset: u64) -> VReg {
    object_offset(h, base, offset, None)
}

/// A constant and a `nuw inbounds G_PTR_ADD` of `base`, defining `into`
/// when given.
fn object_offset(h: &mut Helper<'_>, base: VReg, offset: u64, into: Option<VReg>) -> VReg {
    let pointer_ty = h.func.ty(base);
    let amount = h.builder().constant(Llt::scalar(pointer_ty.size_in_bits() as u32), i128::from(offset));
    let uses = vec![Operand::vreg_use(base), Operand::vreg_use(amount)];
    let (add, address) = match into {
        Some(address) => (h.build_with(Opcode::G_PTR_ADD, &[address], uses), address),
        None => {
            let (add, defs) = h.builder().build(Opcode::G_PTR_ADD, &[pointer_ty], uses);
            (add, defs[0])
        }
    };
    h.func.modify(add, |d| {
        d.flags.insert(InstFlags::NUW);
        d.flags.insert(InstFlags::INBOUNDS);
    });
    address
}

/// The memory operand of the piece at `byte_offset` of type `ty`. Without
/// a pointer value the offset is not tracked against a base, so the base
/// alignment shrinks to what the offset allows.
pub fn piece_mem(mem: &MemOperand, byte_offset: u64, ty: Llt) -> MemOperand {
    let mut piece = mem.clone();
    if mem.pointer.as_deref().is_none_or(|p| p == "unknown-address") {
        piece.base_align = common_alignment(mem.base_align, byte_offset as i64);
    }
    piece.offset += byte_offset as i64;
    piece.retype(ty);
    piece
}
