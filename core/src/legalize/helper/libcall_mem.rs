//! `G_MEMCPY`, `G_MEMMOVE`, `G_MEMSET` and `G_BZERO` as calls of the C
//! library function of the same name (LLVM's `createMemLibcall`): the
//! operands are the arguments, nothing is defined, and the call becomes a
//! tail call when the instruction's tail flag is set and only a return
//! follows it.

use super::{Helper, StepResult};
use crate::ir::{Inst, Operand, Reg};
use crate::legalize::target::{LibcallRequest, LibcallValue, RuntimeFunction};
use crate::opcode::Opcode;

/// Replaces the memory operation `inst` by its library call.
pub(super) fn mem_libcall(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    let (symbol, returns_first_arg) = match opcode {
        Opcode::G_MEMCPY => ("memcpy", true),
        Opcode::G_MEMMOVE => ("memmove", true),
        Opcode::G_MEMSET => ("memset", true),
        Opcode::G_BZERO if h.target.has_runtime_function(RuntimeFunction::Bzero) => ("bzero", false),
        _ => return StepResult::Unable(format!("the target's runtime has no library call for {opcode}")),
    };
    let operands = &h.func.inst(inst).operands;
    let Some((Operand::Imm(tail), values)) = operands.split_last() else {
        return StepResult::Unable(format!("{opcode} without its tail-call flag"));
    };
    let mut args = Vec::with_capacity(values.len());
    for value in values {
        let Some(Reg::Virtual(reg)) = value.as_reg().map(|r| r.reg) else {
            return StepResult::Unable(format!("{opcode} with an operand that is not a virtual register"));
        };
        args.push(LibcallValue::plain(reg, h.func.ty(reg)));
    }
    let request = LibcallRequest {
        returns_first_arg,
        may_tail_call: *tail != 0,
        ..LibcallRequest::new(symbol.into(), args, Vec::new())
    };
    let target = h.target;
    match target.emit_libcall(h, inst, &request) {
        Ok(()) => {
            h.func.erase(inst);
            StepResult::Legalized
        }
        Err(why) => StepResult::Unable(format!("calling {symbol}: {why}")),
    }
}
