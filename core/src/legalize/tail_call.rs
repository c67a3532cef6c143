//! Whether a library call may end its block as a tail call (LLVM's
//! `isLibCallInTailPosition`), and removing what the tail call replaces.

use super::target::LibcallRequest;
use crate::ir::{Function, Inst, InstOpcode, Operand, Reg};
use crate::opcode::Opcode;

/// True when only a return (one of `returns`) follows `inst` in its
/// block, or, for a callee that returns its first argument, a copy of that
/// argument into a physical register that the return reads as its only
/// operand. Debug instructions are skipped. The caller's IR attributes must
/// allow it too (see [`caller_allows_tail_calls`]).
pub fn in_tail_position(func: &Function, inst: Inst, request: &LibcallRequest, returns: &[&str]) -> bool {
    if !caller_allows_tail_calls(func) {
        return false;
    }
    let Some(mut next) = next_non_debug(func, inst) else { return false };
    if func.inst(next).is(Opcode::COPY) {
        let Some(copied) = copied_register(func, next, request) else { return false };
        let Some(ret) = next_non_debug(func, next) else { return false };
        let implicit: Vec<&Operand> =
            func.inst(ret).operands.iter().filter(|o| o.as_reg().is_some_and(|r| r.is_implicit())).collect();
        let reads_copy = matches!(implicit.as_slice(), [only] if only.as_reg().is_some_and(|r| r.reg == copied));
        let first_is_copy = func.inst(ret).operands.first().and_then(Operand::as_reg).is_some_and(|r| r.reg == copied);
        if !reads_copy || !first_is_copy {
            return false;
        }
        next = ret;
    }
    match func.inst(next).opcode {
        InstOpcode::Target(name) => returns.contains(&func.names.resolve(name)),
        InstOpcode::Known(_) => false,
    }
}

/// Whether the caller's IR attributes allow a library call to be its tail
/// call: no return attribute but `noalias` and `nonnull` (an extension or a
/// range the callee would not honour). llc 22 ignores
/// `"disable-tail-calls"` here.
fn caller_allows_tail_calls(func: &Function) -> bool {
    let Some(attributes) = func.module.function(&func.name) else { return true };
    let ret = &attributes.ret;
    ret.strings.is_empty() && ret.flags.iter().all(|f| matches!(&**f, "noalias" | "nonnull"))
}

/// The physical register `copy` writes when it copies the request's
/// first argument and the callee returns that argument.
fn copied_register(func: &Function, copy: Inst, request: &LibcallRequest) -> Option<Reg> {
    let first = request.args.first().filter(|_| request.returns_first_arg)?;
    let data = func.inst(copy);
    let dst = data.defs().first()?.as_reg()?;
    let src = data.uses().first()?.as_reg()?;
    (src.reg == Reg::Virtual(first.reg) && matches!(dst.reg, Reg::Physical(_))).then_some(dst.reg)
}

fn next_non_debug(func: &Function, inst: Inst) -> Option<Inst> {
    let mut next = func.next_inst(inst)?;
    while is_debug(func, next) {
        next = func.next_inst(next)?;
    }
    Some(next)
}

fn is_debug(func: &Function, inst: Inst) -> bool {
    func.inst(inst).known_opcode().is_some_and(Opcode::is_debug)
}

/// Erases every instruction after `inst` in its block, the return (and
/// the copy feeding it) that a tail call before `inst` replaced, and notes
/// the tail call in the frame.
pub fn replace_return(func: &mut Function, inst: Inst) {
    while let Some(next) = func.next_inst(inst) {
        func.erase(next);
    }
    func.frame.has_tail_call = true;
}
