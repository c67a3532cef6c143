//! Library calls that pass a pointer to memory: `G_FMODF` (`modff` stores
//! the integral part through its pointer argument), `G_FSINCOS` (`sincosf`
//! stores both results through two) and the floating-point
//! environment (`fegetenv`/`fegetmode` fill a stack temporary the result is
//! loaded from, `fesetenv`/`fesetmode` read one the value is stored to, and
//! the resets pass the all-ones pointer, C's `FE_DFL_ENV`/`FE_DFL_MODE`).

use super::{Helper, StepResult, stack_temporary_align};
use crate::ir::{Inst, MemFlags, MemOperand, Operand, Reg, VReg};
use crate::legalize::target::{LibcallRequest, LibcallValue};
use crate::opcode::Opcode;
use crate::ty::Llt;

/// Replaces `G_FMODF` or a floating-point environment operation by its
/// library call.
pub(super) fn stack_libcall(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    use Opcode::*;
    let mut regs = Vec::new();
    for operand in &h.func.inst(inst).operands {
        match operand.as_reg().map(|r| r.reg) {
            Some(Reg::Virtual(v)) => regs.push(v),
            _ => return StepResult::Unable(format!("{opcode} with an operand that is not a virtual register")),
        }
    }
    let pointer_ty = Llt::pointer(0, h.info.pointer_bits());
    let built = match (opcode, regs.as_slice()) {
        (G_FMODF, [fraction, integral, value]) => modf(h, inst, *fraction, *integral, *value, pointer_ty),
        (G_FSINCOS, [sin, cos, value]) => sincos(h, inst, *sin, *cos, *value, pointer_ty),
        (G_GET_FPENV | G_GET_FPMODE, [state]) => {
            let symbol = if opcode == G_GET_FPENV { "fegetenv" } else { "fegetmode" };
            let (slot, name) = temporary(h, h.func.ty(*state));
            call(h, inst, symbol, vec![LibcallValue::plain(slot, pointer_ty)], Vec::new(), false).map(|()| {
                let load = h.build_with(G_LOAD, &[*state], [Operand::vreg_use(slot)]);
                let mem = slot_access(MemFlags::LOAD, h.func.ty(*state), name);
                h.func.modify(load, |d| d.mem.push(mem));
            })
        }
        (G_SET_FPENV | G_SET_FPMODE, [state]) => {
            let symbol = if opcode == G_SET_FPENV { "fesetenv" } else { "fesetmode" };
            let ty = h.func.ty(*state);
            let (slot, name) = temporary(h, ty);
            h.builder().store(*state, slot, slot_access(MemFlags::STORE, ty, name));
            call(h, inst, symbol, vec![LibcallValue::plain(slot, pointer_ty)], Vec::new(), false)
        }
        (G_RESET_FPENV | G_RESET_FPMODE, []) => {
            let symbol = if opcode == G_RESET_FPENV { "fesetenv" } else { "fesetmode" };
            let all_ones = h.builder().constant(Llt::scalar(pointer_ty.size_in_bits() as u32), -1);
            let pointer = h.build(G_INTTOPTR, pointer_ty, &[all_ones]);
            call(h, inst, symbol, vec![LibcallValue::plain(pointer, pointer_ty)], Vec::new(), true)
        }
        _ => Err(format!("malformed {opcode}")),
    };
    match built {
        Ok(()) => {
            h.func.erase(inst);
            StepResult::Legalized
        }
        Err(why) => StepResult::Unable(why),
    }
}

/// `fraction = modf(value, &slot)`, then `integral` loaded from the slot.
fn modf(
    h: &mut Helper<'_>,
    inst: Inst,
    fraction: VReg,
    integral: VReg,
    value: VReg,
    pointer_ty: Llt,
) -> Result<(), String> {
    let ty = h.func.ty(value);
    let suffix = libm_suffix(ty).ok_or_else(|| format!("no modf for a {}-bit float", ty.size_in_bits()))?;
    let (slot, name) = temporary(h, ty);
    let float = |reg| LibcallValue { reg, ty, float: true, signed: false, any_extend: false };
    let args = vec![float(value), LibcallValue::plain(slot, pointer_ty)];
    call(h, inst, &format!("modf{suffix}"), args, vec![float(fraction)], false)?;
    let load = h.build_with(Opcode::G_LOAD, &[integral], [Operand::vreg_use(slot)]);
    h.func.modify(load, |d| d.mem.push(slot_access(MemFlags::LOAD, ty, name)));
    Ok(())
}

/// `sincos(value, &sin_slot, &cos_slot)`, then `sin` and `cos` loaded from
/// their slots.
fn sincos(h: &mut Helper<'_>, inst: Inst, sin: VReg, cos: VReg, value: VReg, pointer_ty: Llt) -> Result<(), String> {
    let ty = h.func.ty(value);
    let suffix = libm_suffix(ty).ok_or_else(|| format!("no sincos for a {}-bit float", ty.size_in_bits()))?;
    let (sin_slot, sin_name) = temporary(h, ty);
    let (cos_slot, cos_name) = temporary(h, ty);
    let float = LibcallValue { reg: value, ty, float: true, signed: false, any_extend: false };
    let args = vec![float, LibcallValue::plain(sin_slot, pointer_ty), LibcallValue::plain(cos_slot, pointer_ty)];
    call(h, inst, &format!("sincos{suffix}"), args, Vec::new(), false)?;
    for (dst, slot, name) in [(sin, sin_slot, sin_name), (cos, cos_slot, cos_name)] {
        let load = h.build_with(Opcode::G_LOAD, &[dst], [Operand::vreg_use(slot)]);
        h.func.modify(load, |d| d.mem.push(slot_access(MemFlags::LOAD, ty, name)));
    }
    Ok(())
}

/// The C library's suffix for a float type: `f` for `float`, none for
/// `double`, `l` for `long double` (`fp128` on AArch64 and RISC-V).
fn libm_suffix(ty: Llt) -> Option<&'static str> {
    match ty.size_in_bits() {
        32 => Some("f"),
        64 => Some(""),
        128 => Some("l"),
        _ => None,
    }
}

/// A stack temporary for a `ty` value (aligned to its size rounded up to
/// a power of two) and its address: the slot's `%stack.N` name.
fn temporary(h: &mut Helper<'_>, ty: Llt) -> (VReg, Box<str>) {
    h.stack_temporary(ty.size_in_bytes(), stack_temporary_align(ty))
}

/// The memory operand of a whole-slot access.
fn slot_access(flags: MemFlags, ty: Llt, slot: Box<str>) -> MemOperand {
    MemOperand {
        pointer: Some(slot),
        base_align: ty.size_in_bytes().max(1).next_power_of_two(),
        ..MemOperand::new(flags, ty)
    }
}

fn call(
    h: &mut Helper<'_>,
    inst: Inst,
    symbol: &str,
    args: Vec<LibcallValue>,
    results: Vec<LibcallValue>,
    may_tail_call: bool,
) -> Result<(), String> {
    let request = LibcallRequest { may_tail_call, ..LibcallRequest::new(symbol.into(), args, results) };
    let target = h.target;
    target.emit_libcall(h, inst, &request).map_err(|why| format!("calling {symbol}: {why}"))?;
    h.set_insert_before(inst);
    Ok(())
}
