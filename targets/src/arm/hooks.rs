//! The Arm hooks: LLVM 22's `ARMLegalizerInfo::legalizeCustom` (AEABI
//! remainders through `__aeabi_*divmod`, soft-float comparisons, constants
//! too costly to build inline, floating-point constants as integers, FP
//! mode changes through FPSCR) and library calls under the AAPCS.

use gisel_core::apint::ApInt;
use gisel_core::ir::{Inst, Operand};
use gisel_core::legality::{CustomOutcome, LegalizeStep};
use gisel_core::legalize::{Helper, LegalizeTarget, LibcallRequest, LibcallValue};
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;

use super::calls::Convention;
use super::libcalls::{aeabi_name, divmod_name, fcmp_routines};
use super::subtarget::Subtarget;

/// FPSCR's cumulative exception and condition flags (`ARM::FPStatusBits`).
const FP_STATUS_BITS: u32 = 0xf800_009f;
/// FPSCR's reserved bits (`ARM::FPReservedBits`).
const FP_RESERVED_BITS: u32 = 0x0000_6060;

/// The Arm implementation of [`LegalizeTarget`].
#[derive(Clone, Debug)]
pub struct ArmHooks {
    st: Subtarget,
}

impl ArmHooks {
    /// The hooks for `st`.
    pub fn new(st: Subtarget) -> ArmHooks {
        ArmHooks { st }
    }

    /// The convention of a call to `symbol`: the AEABI helpers always
    /// take floating-point values in core registers.
    fn convention(&self, symbol: &str) -> Convention {
        Convention {
            vfp: self.st.hard_float_abi() && !symbol.starts_with("__aeabi_"),
            thumb: self.st.is_thumb(),
            big_endian: self.st.is_big_endian(),
            fp_legal: self.st.has_fp_registers(),
        }
    }
}

impl LegalizeTarget for ArmHooks {
    fn legalize_custom(&self, h: &mut Helper<'_>, inst: Inst, step: &LegalizeStep) -> CustomOutcome {
        let _ = step;
        let Some(opcode) = h.func.inst(inst).known_opcode() else { return CustomOutcome::Failed };
        let done = match opcode {
            Opcode::G_SREM | Opcode::G_UREM => self.remainder(h, inst, opcode == Opcode::G_SREM),
            Opcode::G_FCMP => self.fcmp(h, inst),
            Opcode::G_CONSTANT => self.constant(h, inst),
            Opcode::G_FCONSTANT => fconstant(h, inst),
            Opcode::G_SET_FPMODE => set_fp_mode(h, inst),
            Opcode::G_RESET_FPMODE => reset_fp_mode(h, inst),
            _ => false,
        };
        if done { CustomOutcome::Done } else { CustomOutcome::Failed }
    }

    fn emit_libcall(&self, h: &mut Helper<'_>, inst: Inst, call: &LibcallRequest) -> Result<(), String> {
        match aeabi_name(&call.symbol).filter(|_| self.st.has_aeabi_libcalls()) {
            Some(aeabi) => {
                let renamed = LibcallRequest { symbol: aeabi.to_owned(), ..call.clone() };
                self.convention(aeabi).emit(h, inst, &renamed)
            }
            None => self.convention(&call.symbol).emit(h, inst, call),
        }
    }

    fn stack_pointer(&self) -> Option<&'static str> {
        Some("sp")
    }

    /// The data layout aligns a 128-bit vector to 8 bytes (`v128:64:128`),
    /// so such an access aligned to 8 needs no splitting.
    fn allows_misaligned_access(&self, ty: Llt, align: u64) -> bool {
        ty.is_vector() && ty.size_in_bits() == 128 && align >= 8
    }
}

impl ArmHooks {
    /// A 32-bit remainder through `__aeabi_idivmod`/`__aeabi_uidivmod`,
    /// which return the quotient in `r0` (unused) and the remainder in `r1`.
    fn remainder(&self, h: &mut Helper<'_>, inst: Inst, signed: bool) -> bool {
        let s32 = Llt::scalar(32);
        if h.ty(inst, 0) != s32 {
            return false;
        }
        let quotient = h.func.new_vreg(s32);
        let value = |reg| LibcallValue { reg, ty: s32, float: false, signed: false, any_extend: false };
        let args = vec![value(h.reg(inst, 1)), value(h.reg(inst, 2))];
        let results = vec![value(quotient), value(h.reg(inst, 0))];
        let symbol = divmod_name(signed);
        let request = LibcallRequest::new(symbol.into(), args, results);
        if self.convention(symbol).emit(h, inst, &request).is_err() {
            return false;
        }
        h.func.erase(inst);
        true
    }

    /// A soft-float `G_FCMP`: one or two comparison routines whose `i32`
    /// answers become the boolean (truncated or compared with zero, then
    /// or-ed), or a constant for `false`/`true`.
    fn fcmp(&self, h: &mut Helper<'_>, inst: Inst) -> bool {
        let Some(&Operand::FloatPred(pred)) = h.func.inst(inst).operands.get(1) else { return false };
        let (dst, lhs, rhs) = (h.reg(inst, 0), h.reg(inst, 2), h.reg(inst, 3));
        let ty = h.func.ty(lhs);
        let bits = ty.size_in_bits() as u32;
        if !matches!(bits, 32 | 64) || h.func.ty(rhs) != ty {
            return false;
        }
        let routines = fcmp_routines(pred, bits, self.st.is_aeabi());
        h.set_insert_before(inst);
        if routines.is_empty() {
            let value = i128::from(pred == gisel_core::ir::FloatPredicate::True);
            let dst_ty = h.func.ty(dst);
            h.build_with(
                Opcode::G_CONSTANT,
                &[dst],
                vec![Operand::cimm(ApInt::from_i128(dst_ty.size_in_bits() as u32, value))],
            );
            h.func.erase(inst);
            return true;
        }
        let s32 = Llt::scalar(32);
        let dst_ty = h.func.ty(dst);
        let mut answers = Vec::new();
        for (symbol, test) in &routines {
            let answer = h.func.new_vreg(s32);
            let arg = |reg| LibcallValue { reg, ty, float: true, signed: false, any_extend: false };
            let result = LibcallValue { reg: answer, ty: s32, float: false, signed: false, any_extend: false };
            let request = LibcallRequest::new(symbol.clone(), vec![arg(lhs), arg(rhs)], vec![result]);
            if self.emit_libcall(h, inst, &request).is_err() {
                return false;
            }
            let boolean = if routines.len() == 1 { dst } else { h.func.new_vreg(dst_ty) };
            match test {
                None => {
                    h.build_into(Opcode::G_TRUNC, boolean, &[answer]);
                }
                Some(pred) => {
                    let zero = h.builder().constant(s32, 0);
                    let uses = vec![Operand::IntPred(*pred), Operand::vreg_use(answer), Operand::vreg_use(zero)];
                    h.build_with(Opcode::G_ICMP, &[boolean], uses);
                }
            }
            answers.push(boolean);
        }
        if let [first, second] = answers[..] {
            h.build_into(Opcode::G_OR, dst, &[first, second]);
        }
        h.func.erase(inst);
        true
    }

    /// A 32-bit constant that takes more than two instructions to build
    /// comes from the constant pool (unless code may not read data);
    /// others are left as they are.
    fn constant(&self, h: &mut Helper<'_>, inst: Inst) -> bool {
        let Some(Operand::CImm(value)) = h.func.inst(inst).operands.get(1) else { return false };
        let value = value.low_u64() as u32;
        if self.st.constant_cost(value) > 2 && !self.st.gen_execute_only() {
            h.set_insert_before(inst);
            return h.load_constant_from_pool(inst);
        }
        true
    }
}

/// A floating-point constant as the integer constant with its bits.
fn fconstant(h: &mut Helper<'_>, inst: Inst) -> bool {
    let Some(Operand::FpImm(value)) = h.func.inst(inst).operands.get(1).cloned() else { return false };
    let dst = h.reg(inst, 0);
    h.set_insert_before(inst);
    h.build_with(Opcode::G_CONSTANT, &[dst], [Operand::cimm(ApInt::from_u128(value.kind.bits(), value.bits))]);
    h.func.erase(inst);
    true
}

/// FPSCR = (FPSCR & status bits) | (modes & !status bits).
fn set_fp_mode(h: &mut Helper<'_>, inst: Inst) -> bool {
    let s32 = Llt::scalar(32);
    let modes = h.reg(inst, 0);
    h.set_insert_before(inst);
    let env = h.func.new_vreg(s32);
    h.build_with(Opcode::G_GET_FPENV, &[env], Vec::new());
    let status_mask = h.builder().constant(s32, i128::from(FP_STATUS_BITS));
    let status = h.build(Opcode::G_AND, s32, &[env, status_mask]);
    let mode_mask = h.builder().constant(s32, i128::from(!FP_STATUS_BITS));
    let mode = h.build(Opcode::G_AND, s32, &[modes, mode_mask]);
    let fpscr = h.build(Opcode::G_OR, s32, &[status, mode]);
    h.build_with(Opcode::G_SET_FPENV, &[], [Operand::vreg_use(fpscr)]);
    h.func.erase(inst);
    true
}

/// FPSCR = FPSCR & (status bits | reserved bits): every mode bit cleared.
fn reset_fp_mode(h: &mut Helper<'_>, inst: Inst) -> bool {
    let s32 = Llt::scalar(32);
    h.set_insert_before(inst);
    let env = h.builder().build(Opcode::G_GET_FPENV, &[s32], Vec::new()).1[0];
    let mask = h.builder().constant(s32, i128::from(FP_STATUS_BITS | FP_RESERVED_BITS));
    let fpscr = h.build(Opcode::G_AND, s32, &[env, mask]);
    h.build_with(Opcode::G_SET_FPENV, &[], [Operand::vreg_use(fpscr)]);
    h.func.erase(inst);
    true
}
