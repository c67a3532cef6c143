//! `G_READ_REGISTER` and `G_WRITE_REGISTER` (LLVM's
//! `lowerReadWriteRegister`): a copy from or to the physical register the
//! metadata operand names, as the target resolves the name.

use super::{Helper, StepResult, done, unable};
use crate::ir::{Inst, Operand, Reg, RegOperand};
use crate::opcode::Opcode::{self, *};

/// Lowers `G_READ_REGISTER` (`opcode`) or `G_WRITE_REGISTER`.
pub(super) fn lower(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    let read = opcode == G_READ_REGISTER;
    let (name_index, value_index) = if read { (1, 0) } else { (0, 1) };
    let Some(Operand::Metadata(node)) = h.func.inst(inst).operands.get(name_index).cloned() else {
        return unable(opcode, "the register name is not a metadata operand");
    };
    let Some(name) = h.func.module.string_metadata(&node).map(str::to_owned) else {
        return unable(opcode, &format!("{node} is not a metadata node holding a register name"));
    };
    let register = match h.target.register_by_name(&name) {
        Ok(register) => register,
        Err(why) => return unable(opcode, &why),
    };
    let value = h.reg(inst, value_index);
    if read {
        let physical = Reg::Physical(h.func.names.intern(register));
        h.build_with(COPY, &[value], [Operand::Reg(RegOperand::use_of(physical))]);
    } else {
        h.builder().copy_to_physical(register, value);
    }
    done(h, inst)
}
