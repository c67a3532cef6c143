//! The X86 hooks: LLVM 22's `X86LegalizerInfo::legalizeCustom` (narrowing
//! stores, unsigned conversions through signed ones, x87 conversions
//! (`super::x87`), constant vectors (`super::build_vector`), the
//! rounding mode (`super::rounding`)) and library calls
//! (`super::calls`).

use gisel_core::ir::{Inst, Operand};
use gisel_core::legality::{CustomOutcome, LegalizeStep};
use gisel_core::legalize::{BooleanContent, Helper, LegalizeTarget, LibcallRequest, StepResult};
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;

use super::subtarget::Feature::Sse1;
use super::subtarget::Subtarget;

/// The X86 implementation of [`LegalizeTarget`].
#[derive(Clone, Debug)]
pub struct X86Hooks {
    st: Subtarget,
}

impl X86Hooks {
    /// The hooks for `st`.
    pub fn new(st: Subtarget) -> X86Hooks {
        X86Hooks { st }
    }

    /// The bytes every outgoing stack argument takes at least (and is
    /// aligned to): 8 on x86-64, 4 on i386.
    fn stack_slot_bytes(&self) -> u64 {
        if self.st.is_64bit() { 8 } else { 4 }
    }
}

impl LegalizeTarget for X86Hooks {
    fn legalize_custom(&self, h: &mut Helper<'_>, inst: Inst, step: &LegalizeStep) -> CustomOutcome {
        let _ = step;
        let Some(opcode) = h.func.inst(inst).known_opcode() else { return CustomOutcome::Failed };
        let done = match opcode {
            Opcode::G_STORE => narrowing_store(h, inst, self.stack_slot_bytes()),
            Opcode::G_FPTOUI => fptoui_through_signed(h, inst),
            Opcode::G_UITOFP => uitofp_through_signed(h, inst),
            Opcode::G_SITOFP => super::x87::sitofp(h, inst),
            Opcode::G_FPTOSI => super::x87::fptosi(h, inst),
            Opcode::G_BUILD_VECTOR => super::build_vector::build_vector(h, inst),
            Opcode::G_GET_ROUNDING => super::rounding::get_rounding(h, inst),
            Opcode::G_SET_ROUNDING => super::rounding::set_rounding(h, inst, self.st.has(Sse1)),
            _ => false,
        };
        if done { CustomOutcome::Done } else { CustomOutcome::Failed }
    }

    fn emit_libcall(&self, h: &mut Helper<'_>, inst: Inst, call: &LibcallRequest) -> Result<(), String> {
        super::calls::emit(h, inst, call, &self.st)
    }

    /// Scalar booleans are 0 or 1, vector lanes 0 or all ones.
    fn boolean_content(&self, vector: bool) -> BooleanContent {
        if vector { BooleanContent::ZeroOrNegativeOne } else { BooleanContent::ZeroOrOne }
    }

    fn stack_pointer(&self) -> Option<&'static str> {
        Some(if self.st.is_64bit() { "rsp" } else { "esp" })
    }
}

/// A store whose value's type is not its memory's. Taking as many bytes as
/// its memory (a pointer stored as an integer, a vector as another, an
/// `s8` holding an `s1`), the memory operand takes the value's type, as
/// LLVM 22's `legalizeNarrowingStore` does. Taking more bytes, LLVM 22 does
/// the same and so writes past the memory (`docs/src/llvm.md`), harmless
/// only in an outgoing argument's stack slot (`slot_bytes` wide and
/// aligned), where gisel does the same; elsewhere gisel truncates the value
/// to a byte-sized power-of-two memory type and stores that, and splits
/// other memory sizes as the generic lowering does.
fn narrowing_store(h: &mut Helper<'_>, inst: Inst, slot_bytes: u64) -> bool {
    let ty = h.ty(inst, 0);
    let mem = h.func.inst(inst).mem.first();
    let in_argument_slot = mem.is_some_and(|mem| {
        mem.pointer.as_deref() == Some("stack")
            && mem.offset % slot_bytes as i64 == 0
            && ty.size_in_bytes() <= slot_bytes
    });
    let Some(mem_ty) = mem.and_then(|mem| mem.memory_type()).filter(|mem_ty| {
        ty.is_scalar() && mem_ty.is_scalar() && mem_ty.size_in_bytes() < ty.size_in_bytes() && !in_argument_slot
    }) else {
        h.func.modify(inst, |data| data.mem.iter_mut().take(1).for_each(|mem| mem.retype(ty)));
        h.mark_changed(inst);
        return true;
    };
    let bits = mem_ty.size_in_bits();
    if bits < 8 || !bits.is_power_of_two() {
        return matches!(h.lower(inst), StepResult::Legalized);
    }
    let value = h.reg(inst, 0);
    let narrow = h.build(Opcode::G_TRUNC, Llt::scalar(bits as u32), &[value]);
    h.func.set_operand(inst, 0, Operand::vreg_use(narrow));
    h.mark_changed(inst);
    true
}

/// `G_FPTOUI` to at most 32 bits: a signed conversion to the next wider
/// type (s32 to s64, narrower to s32), truncated.
fn fptoui_through_signed(h: &mut Helper<'_>, inst: Inst) -> bool {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let dst_ty = h.func.ty(dst);
    if dst_ty.scalar_size_in_bits() > 32 {
        return false;
    }
    let wide = Llt::scalar(if dst_ty == Llt::scalar(32) { 64 } else { 32 });
    let converted = h.build(Opcode::G_FPTOSI, wide, &[src]);
    h.build_into(Opcode::G_TRUNC, dst, &[converted]);
    h.func.erase(inst);
    true
}

/// `G_UITOFP` from at most 32 bits: the source zero-extended to the next
/// wider type (s32 to s64, narrower to s32) and converted as signed.
fn uitofp_through_signed(h: &mut Helper<'_>, inst: Inst) -> bool {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let src_ty = h.func.ty(src);
    if src_ty.size_in_bits() > 32 {
        return false;
    }
    let wide = Llt::scalar(if src_ty == Llt::scalar(32) { 64 } else { 32 });
    let extended = h.build(Opcode::G_ZEXT, wide, &[src]);
    h.build_into(Opcode::G_SITOFP, dst, &[extended]);
    h.func.erase(inst);
    true
}
