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
    object_offset(h, base, offset, Destination::MadeFirst)
}

/// `base + offset` into a register the builder makes, which CSE may
/// replace (LLVM's `buildObjectPtrOffset` of a type).
pub(super) fn offset_address(h: &mut Helper<'_>, base: VReg, offset: u64) -> VReg {
    object_offset(h, base, offset, Destination::Built)
}

/// `base + offset` into a new register given as the destination, made
/// after the offset's constant (LLVM's `lowerLoad` builds the constant
/// first).
pub(super) fn address_after_offset(h: &mut Helper<'_>, base: VReg, offset: u64) -> VReg {
    object_offset(h, base, offset, Destination::MadeAfterOffset)
}

/// Where an address goes, and when its register is made.
enum Destination {
    /// A register the builder makes (CSE may replace it).
    Built,
    /// A register made before the offset's constant and given as the
    /// destination (CSE copies into it).
    MadeFirst,
    /// A register made after the offset's constant, given as the
    /// destination.
    MadeAfterOffset,
}

/// A constant and a `nuw inbounds G_PTR_ADD` of `base` into `destination`.
fn object_offset(h: &mut Helper<'_>, base: VReg, offset: u64, destination: Destination) -> VReg {
    let pointer_ty = h.func.ty(base);
    let first = matches!(destination, Destination::MadeFirst).then(|| h.func.new_vreg(pointer_ty));
    let amount = h.builder().constant(Llt::scalar(pointer_ty.size_in_bits() as u32), i128::from(offset));
    let uses = vec![Operand::vreg_use(base), Operand::vreg_use(amount)];
    let given = match destination {
        Destination::Built => None,
        Destination::MadeFirst => first,
        Destination::MadeAfterOffset => Some(h.func.new_vreg(pointer_ty)),
    };
    let (add, address) = match given {
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

/// The byte offset from a scalar's address of its bits `[low_bit, low_bit +
/// bits)`, whole bytes of a `total_bits` value: little-endian memory holds
/// the least significant byte first, big-endian memory the most
/// significant one.
pub(super) fn bits_offset(big_endian: bool, total_bits: u64, low_bit: u64, bits: u64) -> u64 {
    if big_endian { (total_bits - low_bit - bits) / 8 } else { low_bit / 8 }
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

#[cfg(test)]
mod tests {
    use super::bits_offset;

    #[test]
    fn little_endian_memory_holds_the_low_bits_first() {
        assert_eq!(bits_offset(false, 64, 0, 32), 0);
        assert_eq!(bits_offset(false, 64, 32, 32), 4);
        assert_eq!(bits_offset(false, 96, 64, 32), 8);
    }

    #[test]
    fn big_endian_memory_holds_the_high_bits_first() {
        assert_eq!(bits_offset(true, 64, 0, 32), 4);
        assert_eq!(bits_offset(true, 64, 32, 32), 0);
        // An s96 split into s64 and a leftover s32: the leftover (the
        // high bits) at the address, the s64 after it.
        assert_eq!(bits_offset(true, 96, 0, 64), 4);
        assert_eq!(bits_offset(true, 96, 64, 32), 0);
    }
}
