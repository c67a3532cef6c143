//! The rounding mode (`legalizeGETROUNDING`, `legalizeSETROUNDING`): read
//! from the x87 control word (`G_FNSTCW16` to a stack slot), written back
//! with `G_FLDCW16` and, with SSE, into MXCSR through the
//! `llvm.x86.sse.stmxcsr`/`ldmxcsr` intrinsics.

use gisel_core::ir::{Inst, InstData, InstFlags, InstOpcode, MemFlags, MemOperand, Operand, VReg};
use gisel_core::legalize::Helper;
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;

const S8: Llt = Llt::scalar(8);
const S16: Llt = Llt::scalar(16);
const S32: Llt = Llt::scalar(32);

/// `G_GET_ROUNDING`: the control word's rounding field (bits 11:10)
/// mapped to LLVM's numbering through the packed table `0x2d`:
/// `(0x2d >> ((cw >> 9) & 6)) & 3`.
pub(super) fn get_rounding(h: &mut Helper<'_>, inst: Inst) -> bool {
    let dst = h.reg(inst, 0);
    h.set_insert_before(inst);
    let (slot, name) = h.stack_temporary(2, 2);
    memory_op(h, "G_FNSTCW16", slot, access(MemFlags::STORE, S16, &name, 2));
    let word = h.builder().load(S16, slot, access(MemFlags::LOAD, S16, &name, 2));
    let word = h.build(Opcode::G_ZEXT, S32, &[word]);
    let nine = h.builder().constant(S8, 9);
    let shifted = h.build(Opcode::G_LSHR, S32, &[word, nine]);
    let shifted = h.build(Opcode::G_TRUNC, S8, &[shifted]);
    let six = h.builder().constant(S8, 6);
    let field = h.build(Opcode::G_AND, S8, &[shifted, six]);
    let field = h.build(Opcode::G_ZEXT, S32, &[field]);
    let table = h.builder().constant(S32, 0x2d);
    let looked_up = h.build(Opcode::G_LSHR, S32, &[table, field]);
    let three = h.builder().constant(S32, 3);
    let mode = h.build(Opcode::G_AND, S32, &[looked_up, three]);
    let mode = zext_or_trunc(h, h.func.ty(dst), mode);
    h.build_into(Opcode::COPY, dst, &[mode]);
    h.func.erase(inst);
    true
}

/// `G_SET_ROUNDING`: the control word's rounding field replaced (from a
/// constant mode, or computed as `(0xc9 << (2 * mode + 4)) & 0xc00`) and
/// loaded back; with SSE the same bits, shifted by 3, go into MXCSR. An
/// unknown constant mode fails, as LLVM 22 reports it unsupported.
pub(super) fn set_rounding(h: &mut Helper<'_>, inst: Inst, sse: bool) -> bool {
    let src = h.reg(inst, 0);
    let constant_mode = constant_operand(h, src);
    if constant_mode.is_some_and(|mode| x87_field(mode).is_none()) {
        return false;
    }
    h.set_insert_before(inst);
    let (slot, name) = h.stack_temporary(4, 4);
    memory_op(h, "G_FNSTCW16", slot, access(MemFlags::STORE, S16, &name, 2));
    let word = h.builder().load(S16, slot, access(MemFlags::LOAD, S16, &name, 2));
    let clear = h.builder().constant(S16, 0xf3ff);
    let cleared = h.build(Opcode::G_AND, S16, &[word, clear]);
    let (field, mxcsr_field) = match constant_mode.and_then(x87_field) {
        Some(field) => {
            let shifted = i128::from(field << 3);
            (h.builder().constant(S16, shifted), h.builder().constant(S32, shifted))
        }
        None => {
            let mode = zext_or_trunc(h, S32, src);
            let one = h.builder().constant(S32, 1);
            let doubled = h.build(Opcode::G_SHL, S32, &[mode, one]);
            let four = h.builder().constant(S32, 4);
            let amount = h.build(Opcode::G_ADD, S32, &[doubled, four]);
            let amount = h.build(Opcode::G_TRUNC, S8, &[amount]);
            let table = h.builder().constant(S16, 0xc9);
            let shifted = h.build(Opcode::G_SHL, S16, &[table, amount]);
            let mask = h.builder().constant(S16, 0xc00);
            let field = h.build(Opcode::G_AND, S16, &[shifted, mask]);
            let wide = h.build(Opcode::G_ZEXT, S32, &[field]);
            let three = h.builder().constant(S8, 3);
            (field, h.build(Opcode::G_SHL, S32, &[wide, three]))
        }
    };
    let new_word = h.func.new_vreg(S16);
    let or = h.build_with(Opcode::G_OR, &[new_word], [Operand::vreg_use(cleared), Operand::vreg_use(field)]);
    h.func.modify(or, |data| data.flags = InstFlags::DISJOINT);
    h.builder().store(new_word, slot, access(MemFlags::STORE, S16, &name, 2));
    memory_op(h, "G_FLDCW16", slot, access(MemFlags::LOAD, S16, &name, 2));
    if sse {
        intrinsic(h, "llvm.x86.sse.stmxcsr", slot, access(MemFlags::STORE, S32, &name, 4));
        let mxcsr = h.builder().load(S32, slot, access(MemFlags::LOAD, S32, &name, 4));
        let clear = h.builder().constant(S32, 0xffff_9fff);
        let cleared = h.build(Opcode::G_AND, S32, &[mxcsr, clear]);
        let updated = h.build(Opcode::G_OR, S32, &[cleared, mxcsr_field]);
        h.builder().store(updated, slot, access(MemFlags::STORE, S32, &name, 4));
        intrinsic(h, "llvm.x86.sse.ldmxcsr", slot, access(MemFlags::LOAD, S32, &name, 4));
    }
    h.func.erase(inst);
    true
}

/// The x87 control word's rounding field for LLVM's rounding mode `mode`
/// (`X86::getRoundingModeX86`): toward zero 0xc00, to nearest 0, upward
/// 0x800, downward 0x400; none for the others.
fn x87_field(mode: u64) -> Option<u64> {
    match mode {
        0 => Some(0xc00),
        1 => Some(0),
        2 => Some(0x800),
        3 => Some(0x400),
        _ => None,
    }
}

/// The value of `reg` when a `G_CONSTANT` defines it directly.
fn constant_operand(h: &Helper<'_>, reg: VReg) -> Option<u64> {
    let def = h.func.def_inst(reg)?;
    let data = h.func.inst(def);
    match (data.known_opcode()?, data.operands.get(1)) {
        (Opcode::G_CONSTANT, Some(Operand::CImm(value))) => value.zext_or_trunc(64).to_i128().map(|v| v as u64),
        _ => None,
    }
}

/// `value` zero-extended or truncated to `ty`, or copied when it has
/// that size (`buildZExtOrTrunc`).
fn zext_or_trunc(h: &mut Helper<'_>, ty: Llt, value: VReg) -> VReg {
    let from = h.func.ty(value).size_in_bits();
    let opcode = match from.cmp(&ty.size_in_bits()) {
        std::cmp::Ordering::Less => Opcode::G_ZEXT,
        std::cmp::Ordering::Greater => Opcode::G_TRUNC,
        std::cmp::Ordering::Equal => Opcode::COPY,
    };
    let dst = h.func.new_vreg(ty);
    h.build_into(opcode, dst, &[value]);
    dst
}

/// An access of `ty` to the stack slot `name` with alignment `align`.
fn access(flags: MemFlags, ty: Llt, name: &str, align: u64) -> MemOperand {
    MemOperand { pointer: Some(name.into()), base_align: align, ..MemOperand::new(flags, ty) }
}

/// The target instruction `name` on the slot at `pointer`.
fn memory_op(h: &mut Helper<'_>, name: &str, pointer: VReg, mem: MemOperand) {
    let mut data = InstData::new(InstOpcode::Target(h.func.names.intern(name)));
    data.operands.push(Operand::vreg_use(pointer));
    data.mem.push(mem);
    h.builder().insert(data);
}

/// `G_INTRINSIC_W_SIDE_EFFECTS intrinsic(@name), pointer` with `mem`.
fn intrinsic(h: &mut Helper<'_>, name: &str, pointer: VReg, mem: MemOperand) {
    let mut data = InstData::new(InstOpcode::Known(Opcode::G_INTRINSIC_W_SIDE_EFFECTS));
    data.operands.push(Operand::Intrinsic(name.into()));
    data.operands.push(Operand::vreg_use(pointer));
    data.mem.push(mem);
    h.builder().insert(data);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_modes_map_to_x87_fields() {
        assert_eq!([0, 1, 2, 3].map(x87_field), [Some(0xc00), Some(0), Some(0x800), Some(0x400)]);
        assert_eq!(x87_field(4), None);
    }
}
