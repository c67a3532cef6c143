//! Library calls in registers, as LLVM's call lowering emits them for a
//! libcall: the call-frame setup pseudo, argument copies into physical
//! registers (values wider than a register split into register-sized
//! pieces), the call with its register mask and implicit operands, the
//! call-frame destroy pseudo, and result copies out of registers; or, for
//! a call in tail position, a tail call that replaces the return.
//!
//! A target describes its convention as data ([`CallConvention`]); the
//! emitter is shared.

use super::helper::Helper;
use super::tail_call::{in_tail_position, replace_return};
use super::target::{LibcallRequest, LibcallValue};
use crate::ir::{Inst, InstData, InstOpcode, Operand, Reg, RegOperand, VReg};
use crate::opcode::Opcode;
use crate::ty::Llt;

/// A register class of a calling convention: which registers carry values
/// of which sizes, in assignment order.
#[derive(Clone, Debug)]
pub struct RegisterSequence {
    /// For each register slot, its name per value size in bits
    /// (`[(32, "w0"), (64, "x0")]`).
    pub slots: Vec<Vec<(u32, &'static str)>>,
}

impl RegisterSequence {
    /// The name of slot `index` for a value of `bits`.
    fn name(&self, index: usize, bits: u32) -> Option<&'static str> {
        self.slots.get(index)?.iter().find(|(b, _)| *b == bits).map(|(_, n)| *n)
    }
}

/// How a target makes a call in registers.
#[derive(Clone, Debug)]
pub struct CallConvention {
    /// The call-frame setup pseudo (`ADJCALLSTACKDOWN`).
    pub frame_setup: &'static str,
    /// The call-frame destroy pseudo (`ADJCALLSTACKUP`).
    pub frame_destroy: &'static str,
    /// The stack pointer (`sp`, `x2`).
    pub stack_pointer: &'static str,
    /// The call instruction (`BL`, `PseudoCALL`).
    pub call: &'static str,
    /// Target flags on the callee operand (`riscv-call`).
    pub callee_flags: Option<&'static str>,
    /// The call-preserved register mask (`csr_aarch64_aapcs`).
    pub register_mask: &'static str,
    /// The mask of a call whose callee returns its first argument
    /// (`csr_aarch64_aapcs_thisreturn`), when the convention has one.
    pub this_return_mask: Option<&'static str>,
    /// The tail-call instruction (`TCRETURNdi`), when calls in tail
    /// position become tail calls.
    pub tail_call: Option<&'static str>,
    /// The return instructions a tail call may replace.
    pub returns: &'static [&'static str],
    /// The link register the call defines (`lr`, `x1`).
    pub link_register: &'static str,
    /// The call reads the stack pointer (AArch64's `implicit $sp`).
    pub call_uses_stack_pointer: bool,
    /// Integer registers, in order.
    pub int_registers: RegisterSequence,
    /// The width of an integer register in bits.
    pub int_register_bits: u32,
    /// Integers narrower than this travel any-extended to it (and come
    /// back truncated from it).
    pub min_int_bits: u32,
    /// Floating-point registers, in order (empty for soft float).
    pub float_registers: RegisterSequence,
}

/// How an argument or result travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueClass {
    /// In integer registers.
    Integer,
    /// In a floating-point register.
    Float,
}

impl CallConvention {
    /// How a value travels: floating-point values in FP registers when the
    /// convention has some, everything else in integer registers.
    pub fn class_of(&self, value: &LibcallValue) -> ValueClass {
        let bits = value.ty.size_in_bits() as u32;
        if value.float && self.float_registers.name(0, bits).is_some() {
            ValueClass::Float
        } else {
            ValueClass::Integer
        }
    }

    /// Emits the call of `request` before `inst` (which the caller erases).
    /// A call that may be a tail call and is in tail position replaces the
    /// rest of the block. Fails when a value does not fit the registers
    /// (stack arguments are not implemented).
    pub fn emit(&self, h: &mut Helper<'_>, inst: Inst, request: &LibcallRequest) -> Result<(), String> {
        let tail = self.tail_call.filter(|_| {
            request.may_tail_call && request.results.is_empty() && in_tail_position(h.func, inst, request, self.returns)
        });
        h.set_insert_before(inst);
        if tail.is_none() {
            let setup = self.frame_pseudo(h, self.frame_setup);
            h.builder().insert(setup);
        }
        let mut next = [0usize; 2];
        let mut arg_regs = Vec::new();
        // Every argument is split first; the copies into the argument
        // registers (and the extension of a narrow integer, which is part of
        // assigning it to its register) come after all of them, as call
        // lowering delays its outgoing register assignments.
        let split: Vec<(ValueClass, Vec<(VReg, u32)>)> = request
            .args
            .iter()
            .map(|arg| {
                let class = self.class_of(arg);
                (class, self.pieces(h, arg.reg, arg.ty, class))
            })
            .collect();
        for (class, pieces) in split {
            for (piece, bits) in pieces {
                let piece = self.extend_to_register(h, piece, bits);
                let name = self.assign(&mut next, class, bits)?;
                let phys = h.func.names.intern(name);
                let mut copy = InstData::new(InstOpcode::Known(Opcode::COPY));
                copy.num_defs = 1;
                copy.operands.push(Operand::Reg(RegOperand::def_of(Reg::Physical(phys))));
                copy.operands.push(Operand::vreg_use(piece));
                h.builder().insert(copy);
                arg_regs.push(phys);
            }
        }
        if let Some(opcode) = tail {
            let call = self.tail_call_inst(h, opcode, &request.symbol, &arg_regs);
            h.builder().insert(call);
            replace_return(h.func, inst);
            return Ok(());
        }
        let mut next_result = [0usize; 2];
        let mut result_regs = Vec::new();
        for result in &request.results {
            let class = self.class_of(result);
            let bits = self.piece_bits(result.ty, class);
            let count = (result.ty.size_in_bits() / u64::from(bits)).max(1) as usize;
            let mut pieces = Vec::new();
            for _ in 0..count {
                pieces.push(h.func.names.intern(self.assign(&mut next_result, class, bits)?));
            }
            result_regs.push((result.reg, result.ty, bits, pieces));
        }
        let mask = match self.this_return_mask {
            Some(mask) if request.returns_first_arg => mask,
            _ => self.register_mask,
        };
        let call = self.call_inst(h, &request.symbol, mask, &arg_regs, &result_regs);
        h.builder().insert(call);
        let destroy = self.frame_pseudo(h, self.frame_destroy);
        h.builder().insert(destroy);
        for (value, ty, bits, pieces) in result_regs {
            let piece_ty = Llt::scalar(bits);
            if let [phys] = pieces[..] {
                // One register: copied straight into the result, or into a
                // register-wide value truncated to a narrow integer.
                let narrow = ty.size_in_bits() < u64::from(bits);
                let copied = if narrow { h.func.new_vreg(piece_ty) } else { value };
                let mut copy = InstData::new(InstOpcode::Known(Opcode::COPY));
                copy.num_defs = 1;
                copy.operands.push(Operand::vreg_def(copied));
                copy.operands.push(Operand::Reg(RegOperand::use_of(Reg::Physical(phys))));
                h.builder().insert(copy);
                if narrow {
                    h.build_into(Opcode::G_TRUNC, value, &[copied]);
                }
                continue;
            }
            let copies: Vec<VReg> = pieces
                .iter()
                .map(|phys| {
                    let v = h.func.new_vreg(piece_ty);
                    let mut copy = InstData::new(InstOpcode::Known(Opcode::COPY));
                    copy.num_defs = 1;
                    copy.operands.push(Operand::vreg_def(v));
                    copy.operands.push(Operand::Reg(RegOperand::use_of(Reg::Physical(*phys))));
                    h.builder().insert(copy);
                    v
                })
                .collect();
            h.build_into(Opcode::G_MERGE_VALUES, value, &copies);
        }
        Ok(())
    }

    /// `TCRETURNdi &symbol, 0, mask, implicit $sp, implicit <args>`.
    fn tail_call_inst(&self, h: &mut Helper<'_>, opcode: &str, symbol: &str, args: &[crate::ir::Symbol]) -> InstData {
        let opcode = h.func.names.intern(opcode);
        let mut data = InstData::new(InstOpcode::Target(opcode));
        data.operands.push(self.callee(symbol));
        data.operands.push(Operand::Imm(0));
        data.operands.push(Operand::RegMask(h.func.names.intern(self.register_mask)));
        if self.call_uses_stack_pointer {
            data.operands.push(Operand::implicit_use(h.func.names.intern(self.stack_pointer)));
        }
        data.operands.extend(args.iter().map(|r| Operand::implicit_use(*r)));
        data
    }

    fn callee(&self, symbol: &str) -> Operand {
        let callee = Operand::external_symbol(symbol, 0);
        match self.callee_flags {
            Some(flags) => Operand::target_flags(flags, callee),
            None => callee,
        }
    }

    /// `ADJCALLSTACK* 0, 0, implicit-def $sp, implicit $sp`.
    fn frame_pseudo(&self, h: &mut Helper<'_>, name: &str) -> InstData {
        let opcode = h.func.names.intern(name);
        let sp = h.func.names.intern(self.stack_pointer);
        let mut data = InstData::new(InstOpcode::Target(opcode));
        data.operands.push(Operand::Imm(0));
        data.operands.push(Operand::Imm(0));
        data.operands.push(Operand::implicit_def(sp));
        data.operands.push(Operand::implicit_use(sp));
        data
    }

    fn call_inst(
        &self,
        h: &mut Helper<'_>,
        symbol: &str,
        mask: &str,
        args: &[crate::ir::Symbol],
        results: &[(VReg, Llt, u32, Vec<crate::ir::Symbol>)],
    ) -> InstData {
        let opcode = h.func.names.intern(self.call);
        let mut data = InstData::new(InstOpcode::Target(opcode));
        data.operands.push(self.callee(symbol));
        data.operands.push(Operand::RegMask(h.func.names.intern(mask)));
        data.operands.push(Operand::implicit_def(h.func.names.intern(self.link_register)));
        if self.call_uses_stack_pointer {
            data.operands.push(Operand::implicit_use(h.func.names.intern(self.stack_pointer)));
        }
        data.operands.extend(args.iter().map(|r| Operand::implicit_use(*r)));
        for (_, _, _, regs) in results {
            data.operands.extend(regs.iter().map(|r| Operand::implicit_def(*r)));
        }
        data
    }

    /// The pieces of an argument, each with the width of its register (an
    /// unmerge when wider; a narrow integer is one piece that
    /// `extend_to_register` any-extends).
    fn pieces(&self, h: &mut Helper<'_>, value: VReg, ty: Llt, class: ValueClass) -> Vec<(VReg, u32)> {
        let bits = self.piece_bits(ty, class);
        if ty.size_in_bits() <= u64::from(bits) {
            return vec![(value, bits)];
        }
        // Split into registers made beforehand, as call lowering's
        // `buildCopyToRegs` does: CSE never shares such an unmerge.
        let count = (ty.size_in_bits() / u64::from(bits)) as usize;
        h.split_named(value, Llt::scalar(bits), count).into_iter().map(|v| (v, bits)).collect()
    }

    /// `piece` any-extended to its register's `bits` when narrower.
    fn extend_to_register(&self, h: &mut Helper<'_>, piece: VReg, bits: u32) -> VReg {
        if h.func.ty(piece).size_in_bits() < u64::from(bits) {
            return h.build(Opcode::G_ANYEXT, Llt::scalar(bits), &[piece]);
        }
        piece
    }

    fn piece_bits(&self, ty: Llt, class: ValueClass) -> u32 {
        let size = ty.size_in_bits() as u32;
        match class {
            ValueClass::Float => size,
            ValueClass::Integer if size > self.int_register_bits => self.int_register_bits,
            ValueClass::Integer => size.max(self.min_int_bits),
        }
    }

    fn assign(&self, next: &mut [usize; 2], class: ValueClass, bits: u32) -> Result<&'static str, String> {
        let (sequence, slot) = match class {
            ValueClass::Integer => (&self.int_registers, &mut next[0]),
            ValueClass::Float => (&self.float_registers, &mut next[1]),
        };
        let name = sequence.name(*slot, bits).ok_or_else(|| {
            format!("no {class:?} register for a {bits}-bit value (stack arguments are not implemented)")
        })?;
        *slot += 1;
        Ok(name)
    }
}
