//! Stack lowerings: saving and restoring the stack pointer, dynamic stack
//! allocation by moving it, and `G_VAARG` as loads and a store through a
//! `va_list` that is a plain pointer to the next argument.

use super::{Helper, StepResult, cst, done, op, op_into, unable};
use crate::ir::{Inst, MemFlags, MemOperand, Operand, Reg, RegOperand};
use crate::opcode::Opcode::{self, *};
use crate::ty::Llt;

/// The smallest alignment of a stack argument (LLVM's default
/// `getMinStackArgumentAlignment`, which neither AArch64 nor RISC-V
/// changes): `G_VAARG` of a more aligned value rounds its address up.
const MIN_STACK_ARGUMENT_ALIGN: i64 = 1;

/// Lowers the stack operations `opcode`.
pub(super) fn lower(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    let Some(sp) = h.target.stack_pointer() else {
        return unable(opcode, "the target names no stack pointer");
    };
    match opcode {
        G_STACKSAVE => {
            let dst = h.reg(inst, 0);
            let stack_pointer = physical_use(h, sp);
            h.build_with(COPY, &[dst], [stack_pointer]);
            done(h, inst)
        }
        G_STACKRESTORE => {
            let saved = h.reg(inst, 0);
            h.builder().copy_to_physical(sp, saved);
            done(h, inst)
        }
        G_DYN_STACKALLOC => dyn_stack_alloc(h, inst, sp),
        G_VAARG => vaarg(h, inst),
        _ => unable(opcode, "not a stack operation"),
    }
}

/// `G_DYN_STACKALLOC` on a stack growing down (LLVM's `lowerDynStackAlloc`):
/// the stack pointer minus the size, rounded down to the alignment, becomes
/// both the new stack pointer and the allocation's address.
fn dyn_stack_alloc(h: &mut Helper<'_>, inst: Inst, sp: &str) -> StepResult {
    let dst = h.reg(inst, 0);
    let Some(address) = h.dyn_stack_alloc_target(inst, sp) else {
        return unable(G_DYN_STACKALLOC, "no alignment immediate");
    };
    h.builder().copy_to_physical(sp, address);
    op_into(h, COPY, dst, &[address]);
    done(h, inst)
}

impl Helper<'_> {
    /// The address a `G_DYN_STACKALLOC` allocates at, on a stack growing
    /// down (LLVM's `getDynStackAllocTargetPtr`): the stack pointer `sp`
    /// minus the size, rounded down to the alignment. `None` without an
    /// alignment immediate.
    pub fn dyn_stack_alloc_target(&mut self, inst: Inst, sp: &str) -> Option<crate::ir::VReg> {
        let (dst, size) = (self.reg(inst, 0), self.reg(inst, 1));
        let Some(Operand::Imm(align)) = self.func.inst(inst).operands.get(2).cloned() else { return None };
        let pointer_ty = self.func.ty(dst);
        let int_ty = Llt::scalar(pointer_ty.size_in_bits() as u32);
        let current = self.builder().copy_from_physical(pointer_ty, sp);
        let as_int = op(self, G_PTRTOINT, int_ty, &[current]);
        let mut allocated = op(self, G_SUB, int_ty, &[as_int, size]);
        if align > 1 {
            let mask = cst(self, int_ty, -i128::from(align));
            allocated = op(self, G_AND, int_ty, &[allocated, mask]);
        }
        Some(op(self, G_INTTOPTR, pointer_ty, &[allocated]))
    }
}

/// `G_VAARG` (LLVM's `lowerVAArg`): the list's head pointer is loaded,
/// rounded up to the value's alignment, advanced past the value and stored
/// back, and the value is loaded from it.
fn vaarg(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    let (dst, list) = (h.reg(inst, 0), h.reg(inst, 1));
    let Some(Operand::Imm(align)) = h.func.inst(inst).operands.get(2).cloned() else {
        return unable(G_VAARG, "no alignment immediate");
    };
    let (value_ty, pointer_ty) = (h.func.ty(dst), h.func.ty(list));
    let bytes = value_ty.size_in_bytes();
    // The slot advances by the value's allocation size, its size rounded
    // up to its ABI alignment: the size itself only for power-of-two
    // scalars and pointers, whose alignment never exceeds their size.
    if value_ty.is_vector() || !bytes.is_power_of_two() || value_ty.size_in_bits() != bytes * 8 {
        return unable(G_VAARG, "the allocation size of this type needs the data layout");
    }
    let offset_ty = Llt::scalar(pointer_ty.size_in_bits() as u32);
    let mut head = h.builder().load(pointer_ty, list, MemOperand::new(MemFlags::LOAD, pointer_ty));
    if align > MIN_STACK_ARGUMENT_ALIGN {
        let round_up = cst(h, offset_ty, i128::from(align - 1));
        let bumped = op(h, G_PTR_ADD, pointer_ty, &[head, round_up]);
        let mask = cst(h, offset_ty, -i128::from(align));
        head = op(h, G_PTRMASK, pointer_ty, &[bumped, mask]);
    }
    let size = cst(h, offset_ty, i128::from(bytes));
    let next = op(h, G_PTR_ADD, pointer_ty, &[head, size]);
    h.builder().store(next, list, MemOperand::new(MemFlags::STORE, pointer_ty));
    let load = h.build_with(G_LOAD, &[dst], [Operand::vreg_use(head)]);
    h.func.modify(load, |data| data.mem.push(MemOperand::new(MemFlags::LOAD, value_ty)));
    done(h, inst)
}

/// A use of the physical register `name`.
fn physical_use(h: &mut Helper<'_>, name: &str) -> Operand {
    Operand::Reg(RegOperand::use_of(Reg::Physical(h.func.names.intern(name))))
}
