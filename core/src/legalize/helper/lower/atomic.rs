//! Atomic lowerings: a subtracting read-modify-write as an adding one, and
//! a compare-exchange that reports success as a plain one and a compare.

use super::{Helper, StepResult, clone_reg, copy_into, cst, done, icmp_into, op, unable};
use crate::ir::{Inst, IntPredicate, Operand};
use crate::opcode::Opcode::{self, *};

/// Lowers the atomic opcodes.
pub(super) fn lower(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    let Some(mem) = h.func.inst(inst).mem.first().cloned() else {
        return unable(opcode, "no memory operand");
    };
    match opcode {
        G_ATOMICRMW_SUB => {
            // `*p -= v` is `*p += 0 - v`, keeping the memory operand.
            let (dst, pointer, value) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
            let ty = h.func.ty(value);
            let zero = cst(h, ty, 0);
            let negated = op(h, G_SUB, ty, &[zero, value]);
            let uses = vec![Operand::vreg_use(pointer), Operand::vreg_use(negated)];
            let add = h.build_with(G_ATOMICRMW_ADD, &[dst], uses);
            h.func.modify(add, |d| d.mem.push(mem));
            done(h, inst)
        }
        G_ATOMIC_CMPXCHG_WITH_SUCCESS => {
            // Success is the old value equalling the expected one.
            let (old, success) = (h.reg(inst, 0), h.reg(inst, 1));
            let (pointer, expected, new) = (h.reg(inst, 2), h.reg(inst, 3), h.reg(inst, 4));
            let loaded = clone_reg(h, old);
            let uses = [pointer, expected, new].map(Operand::vreg_use).to_vec();
            let exchange = h.build_with(G_ATOMIC_CMPXCHG, &[loaded], uses);
            h.func.modify(exchange, |d| d.mem.push(mem));
            icmp_into(h, IntPredicate::Eq, success, loaded, expected);
            copy_into(h, old, loaded);
            done(h, inst)
        }
        _ => unable(opcode, "not an atomic lowering"),
    }
}
