//! `Lower`: replace an operation by a sequence of simpler generic
//! operations (LLVM's `LegalizerHelper::lower`). Each expansion builds the
//! same instructions, in the same order and with the same operands, flags
//! and constants as LLVM 22; the order matters because later steps and the
//! printed output follow it.
//!
//! The expansions are grouped by family: integer arithmetic, overflow,
//! min/max and saturation in [`int`]; bit counting, byte and bit swaps,
//! rotates and funnel shifts in [`bits`]; memory, merges, extracts,
//! selects and shuffles in [`mem`]; atomics in [`atomic`]; the stack
//! pointer, dynamic allocation and `G_VAARG` in [`stack`]; registers read
//! and written by name in [`named_register`]; `G_IS_FPCLASS` in
//! [`fp_class`]; floor, round and `G_FPOWI` through other floating-point
//! operations in [`fp`]; saturating and boolean conversions in
//! [`fp_convert`]; vector extensions and truncations in halves in
//! [`vector`]. Opcodes LLVM
//! cannot lower (or that are not implemented here) report `Unable` with
//! the opcode's name, as LLVM's `UnableToLegalize` does.

mod atomic;
mod bits;
mod fp;
mod fp_class;
mod fp_convert;
mod int;
mod mem;
mod named_register;
mod stack;
#[cfg(test)]
mod tests;
mod vector;

use super::addressing::{address_after_offset, offset_address, piece_mem};
use super::vector::load_store;
use super::vector_parts::delete_trailing_into;
use super::{Helper, StepResult};
use crate::apint::ApInt;
use crate::ir::{FloatPredicate, FpConst, Inst, InstFlags, InstOpcode, IntPredicate, Operand, Reg, VReg};
use crate::legality::{LegalityQuery, LegalizeAction};
use crate::legalize::target::BooleanContent;
use crate::opcode::Opcode;
use crate::ty::Llt;

/// Lowers `inst` (type index `idx`, hint type `hint`, both unused by the
/// expansions LLVM 22 implements) into simpler operations.
pub(super) fn lower(h: &mut Helper<'_>, inst: Inst, idx: usize, hint: Llt) -> StepResult {
    let _ = (idx, hint);
    let Some(opcode) = h.func.inst(inst).known_opcode() else {
        return StepResult::Unable("lowering: not a generic instruction".into());
    };
    use Opcode::*;
    match opcode {
        G_SREM | G_UREM | G_SDIVREM | G_UDIVREM | G_SADDO | G_SSUBO | G_UADDO | G_USUBO | G_UADDE | G_USUBE
        | G_SADDE | G_SSUBE | G_SMULO | G_UMULO | G_SMULH | G_UMULH | G_SMIN | G_SMAX | G_UMIN | G_UMAX | G_SCMP
        | G_UCMP | G_ABS | G_ABDS | G_ABDU | G_UADDSAT | G_USUBSAT | G_SADDSAT | G_SSUBSAT | G_SSHLSAT | G_USHLSAT => {
            int::lower(h, inst, opcode)
        }
        G_SEXT_INREG | G_CTLZ | G_CTLZ_ZERO_UNDEF | G_CTTZ | G_CTTZ_ZERO_UNDEF | G_CTPOP | G_BSWAP | G_BITREVERSE
        | G_ROTL | G_ROTR | G_FSHL | G_FSHR | G_FNEG | G_FABS | G_FSUB | G_STRICT_FSUB | G_FMAD | G_FRINT
        | G_LROUND | G_LLROUND | G_INTRINSIC_LRINT | G_INTRINSIC_LLRINT | G_FMINNUM | G_FMAXNUM => {
            bits::lower(h, inst, opcode)
        }
        G_LOAD | G_SEXTLOAD | G_ZEXTLOAD | G_STORE | G_MERGE_VALUES | G_UNMERGE_VALUES | G_EXTRACT | G_INSERT
        | G_SELECT | G_SHUFFLE_VECTOR | G_EXTRACT_VECTOR_ELT | G_INSERT_VECTOR_ELT | G_BITCAST => {
            mem::lower(h, inst, opcode)
        }
        G_ATOMICRMW_SUB | G_ATOMIC_CMPXCHG_WITH_SUCCESS => atomic::lower(h, inst, opcode),
        G_STACKSAVE | G_STACKRESTORE | G_DYN_STACKALLOC | G_VAARG => stack::lower(h, inst, opcode),
        G_READ_REGISTER | G_WRITE_REGISTER => named_register::lower(h, inst, opcode),
        G_FCOPYSIGN => copysign(h, inst),
        G_IS_FPCLASS => fp_class::lower(h, inst),
        G_FFLOOR | G_INTRINSIC_ROUND | G_FPOWI => fp::lower(h, inst, opcode),
        G_ZEXT | G_SEXT | G_ANYEXT | G_TRUNC => vector::lower(h, inst, opcode),
        _ if opcode.name().starts_with("G_VECREDUCE_") => super::reduce::lower(h, inst, opcode),
        G_FPTOSI_SAT | G_FPTOUI_SAT | G_SITOFP | G_UITOFP | G_FPTOUI => fp_convert::lower(h, inst, opcode),
        G_FCONSTANT => fconstant(h, inst),
        _ => unable(opcode, "no lowering is implemented for this opcode"),
    }
}

/// `G_FCONSTANT` (`lowerFConstant`): a load of the constant from the
/// constant pool, aligned as its type is (half 2, float 4, double 8,
/// fp128 16 bytes on every target gisel knows).
fn fconstant(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    if h.load_constant_from_pool(inst) {
        StepResult::Legalized
    } else {
        unable(Opcode::G_FCONSTANT, "no floating-point immediate")
    }
}

/// `G_FCOPYSIGN`: the magnitude bits of the first source OR'ed (disjoint)
/// with the sign bit of the second, moved to the first's width.
fn copysign(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    let (dst, mag, sign) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
    let (mag_ty, sign_ty) = (h.func.ty(mag), h.func.ty(sign));
    let (mag_bits, sign_bits) = (mag_ty.scalar_size_in_bits(), sign_ty.scalar_size_in_bits());
    let sign_mask = cst_ap(h, mag_ty, ApInt::from_u128(1, 1).zext_or_trunc(mag_bits).shl(mag_bits - 1));
    let magnitude_mask = cst_ap(h, mag_ty, ApInt::all_ones(mag_bits - 1).zext_or_trunc(mag_bits));
    let magnitude = op(h, Opcode::G_AND, mag_ty, &[mag, magnitude_mask]);
    let sign_bit = match mag_bits.cmp(&sign_bits) {
        std::cmp::Ordering::Equal if mag_ty == sign_ty => op(h, Opcode::G_AND, sign_ty, &[sign, sign_mask]),
        std::cmp::Ordering::Greater | std::cmp::Ordering::Equal => {
            let amount = cst(h, mag_ty, i128::from(mag_bits - sign_bits));
            let extended = op(h, Opcode::G_ZEXT, mag_ty, &[sign]);
            let shifted = op(h, Opcode::G_SHL, mag_ty, &[extended, amount]);
            op(h, Opcode::G_AND, mag_ty, &[shifted, sign_mask])
        }
        std::cmp::Ordering::Less => {
            let amount = cst(h, sign_ty, i128::from(sign_bits - mag_bits));
            let shifted = op(h, Opcode::G_LSHR, sign_ty, &[sign, amount]);
            let truncated = op(h, Opcode::G_TRUNC, mag_ty, &[shifted]);
            op(h, Opcode::G_AND, mag_ty, &[truncated, sign_mask])
        }
    };
    let mut flags = h.func.inst(inst).flags;
    flags.insert(InstFlags::DISJOINT);
    let or = op_into(h, Opcode::G_OR, dst, &[magnitude, sign_bit]);
    h.func.modify(or, |d| d.flags = flags);
    done(h, inst)
}

/// `Unable` naming the opcode.
fn unable(opcode: Opcode, why: &str) -> StepResult {
    StepResult::Unable(format!("lowering {opcode}: {why}"))
}

/// Erases the lowered instruction.
fn done(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    h.func.erase(inst);
    StepResult::Legalized
}

/// Records an in-place change.
fn changed(h: &mut Helper<'_>, inst: Inst) -> StepResult {
    h.mark_changed(inst);
    StepResult::Legalized
}

/// Changes the opcode of `inst` in place (LLVM's `changeOpcode`).
fn change_opcode(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> StepResult {
    h.func.modify(inst, |d| d.opcode = InstOpcode::Known(opcode));
    changed(h, inst)
}

/// `G_CONSTANT` of `ty` (a scalar constant splatted with `G_BUILD_VECTOR`
/// for fixed vectors and `G_SPLAT_VECTOR` for scalable ones, as
/// `buildConstant` does).
fn cst(h: &mut Helper<'_>, ty: Llt, value: i128) -> VReg {
    let bits = ty.scalar_size_in_bits();
    cst_ap(h, ty, ApInt::from_i128(bits, value))
}

/// `G_CONSTANT` of `ty` with an arbitrary-width value of the element size.
fn cst_ap(h: &mut Helper<'_>, ty: Llt, value: ApInt) -> VReg {
    let element = ty.scalar_type();
    let scalar = h.builder().build(Opcode::G_CONSTANT, &[element], [Operand::cimm(value)]).1[0];
    if ty.is_scalable() {
        return h.build(Opcode::G_SPLAT_VECTOR, ty, &[scalar]);
    }
    if ty.is_vector() {
        let elements = vec![scalar; ty.num_elements() as usize];
        return h.build(Opcode::G_BUILD_VECTOR, ty, &elements);
    }
    scalar
}

/// `bits` bits holding `byte` in every byte (`APInt::getSplat`).
fn byte_splat(bits: u32, byte: u8) -> ApInt {
    let words: Vec<u64> = (0..bits.div_ceil(64)).map(|_| u64::from_le_bytes([byte; 8])).collect();
    ApInt::from_words(bits, &words)
}

/// Builds `opcode` with one new def of `ty`.
fn op(h: &mut Helper<'_>, opcode: Opcode, ty: Llt, uses: &[VReg]) -> VReg {
    h.build(opcode, ty, uses)
}

/// Builds `opcode` with flags.
fn op_flags(h: &mut Helper<'_>, opcode: Opcode, ty: Llt, uses: &[VReg], flags: InstFlags) -> VReg {
    let def = h.build(opcode, ty, uses);
    set_flags(h, def, flags);
    def
}

/// Builds `opcode` defining the existing `dst`.
fn op_into(h: &mut Helper<'_>, opcode: Opcode, dst: VReg, uses: &[VReg]) -> Inst {
    h.build_into(opcode, dst, uses)
}

/// Adds `flags` to the instruction defining `v`.
fn set_flags(h: &mut Helper<'_>, v: VReg, flags: InstFlags) {
    if let Some(def) = h.func.def_inst(v) {
        h.func.modify(def, |d| d.flags.insert(flags));
    }
}

/// `G_FCONSTANT` of `ty` holding `value` (a scalar constant splatted with
/// `G_BUILD_VECTOR` for vectors, as `buildFConstant` does).
fn build_fconstant(h: &mut Helper<'_>, ty: Llt, value: FpConst) -> VReg {
    let scalar = h.builder().build(Opcode::G_FCONSTANT, &[ty.scalar_type()], [Operand::fpimm(value)]).1[0];
    if ty.is_vector() {
        let elements = vec![scalar; ty.num_elements() as usize];
        return h.build(Opcode::G_BUILD_VECTOR, ty, &elements);
    }
    scalar
}

/// `G_FCMP pred a, b` defining a new `ty`, with `flags`.
fn fcmp(h: &mut Helper<'_>, pred: FloatPredicate, ty: Llt, a: VReg, b: VReg, flags: InstFlags) -> VReg {
    let uses = vec![Operand::FloatPred(pred), Operand::vreg_use(a), Operand::vreg_use(b)];
    let (cmp, defs) = h.builder().build(Opcode::G_FCMP, &[ty], uses);
    h.func.modify(cmp, |d| d.flags = flags);
    defs[0]
}

/// `G_ICMP` with a new def of `ty`.
fn icmp(h: &mut Helper<'_>, pred: IntPredicate, ty: Llt, a: VReg, b: VReg) -> VReg {
    h.builder().icmp(ty, pred, a, b)
}

/// `G_ICMP` into the existing `dst`.
fn icmp_into(h: &mut Helper<'_>, pred: IntPredicate, dst: VReg, a: VReg, b: VReg) {
    let uses = vec![Operand::IntPred(pred), Operand::vreg_use(a), Operand::vreg_use(b)];
    h.build_with(Opcode::G_ICMP, &[dst], uses);
}

/// `G_SELECT` with a new def of `ty`.
fn select(h: &mut Helper<'_>, ty: Llt, cond: VReg, a: VReg, b: VReg) -> VReg {
    op(h, Opcode::G_SELECT, ty, &[cond, a, b])
}

/// `buildNot`: xor with an all-ones constant.
fn not(h: &mut Helper<'_>, ty: Llt, v: VReg) -> VReg {
    let ones = cst(h, ty, -1);
    op(h, Opcode::G_XOR, ty, &[v, ones])
}

/// A new vreg of the same type (`cloneVirtualRegister`).
fn clone_reg(h: &mut Helper<'_>, v: VReg) -> VReg {
    let ty = h.func.ty(v);
    h.func.new_vreg(ty)
}

/// `COPY dst = src`.
fn copy_into(h: &mut Helper<'_>, dst: VReg, src: VReg) {
    op_into(h, Opcode::COPY, dst, &[src]);
}

/// The rules' action for `opcode` over `types`.
fn action(h: &Helper<'_>, opcode: Opcode, types: &[Llt]) -> LegalizeAction {
    h.info.action(&LegalityQuery::new(opcode, types)).action
}

/// `LI.isLegalOrCustom`.
fn legal_or_custom(h: &Helper<'_>, opcode: Opcode, types: &[Llt]) -> bool {
    matches!(action(h, opcode, types), LegalizeAction::Legal | LegalizeAction::Custom)
}

/// The extension that keeps the target's boolean contents (`getBoolExtOp`).
fn bool_ext_op(h: &Helper<'_>, vector: bool) -> Opcode {
    match h.target.boolean_content(vector) {
        BooleanContent::Undefined => Opcode::G_ANYEXT,
        BooleanContent::ZeroOrOne => Opcode::G_ZEXT,
        BooleanContent::ZeroOrNegativeOne => Opcode::G_SEXT,
    }
}

/// The virtual registers of operands `range` of `inst`, `None` if one of
/// them is not a virtual register.
fn regs(h: &Helper<'_>, inst: Inst, count: usize) -> Option<Vec<VReg>> {
    let data = h.func.inst(inst);
    (0..count)
        .map(|i| match data.operands.get(i)?.as_reg()?.reg {
            Reg::Virtual(v) => Some(v),
            Reg::Physical(_) => None,
        })
        .collect()
}

/// The value of a constant `v` defined by `G_CONSTANT` (looking through
/// copies), or `Undef` for `G_IMPLICIT_DEF`.
enum KnownValue {
    Constant(ApInt),
    Undef,
}

/// The known value of each element of `v`, as LLVM's
/// `matchUnaryPredicate` with undefs allowed sees it: one value for a
/// constant or undef scalar, one per element for a `G_BUILD_VECTOR` of
/// constants and undefs (copies looked through everywhere); `None` for
/// anything else.
fn known_values(h: &Helper<'_>, v: VReg) -> Option<Vec<KnownValue>> {
    let v = through_copies(h, v)?;
    let def = h.func.inst(h.func.def_inst(v)?);
    if def.known_opcode()? != Opcode::G_BUILD_VECTOR {
        return known_value(h, v).map(|value| vec![value]);
    }
    def.uses().iter().map(|op| known_value(h, op.as_reg()?.vreg()?)).collect()
}

/// `v`, or the first register not defined by a COPY of a virtual one.
fn through_copies(h: &Helper<'_>, mut v: VReg) -> Option<VReg> {
    loop {
        let def = h.func.inst(h.func.def_inst(v)?);
        match (def.known_opcode(), def.operands.get(1).and_then(|op| op.as_reg()).map(|r| r.reg)) {
            (Some(Opcode::COPY), Some(Reg::Virtual(src))) if h.func.ty(src).is_valid() => v = src,
            _ => return Some(v),
        }
    }
}

fn known_value(h: &Helper<'_>, v: VReg) -> Option<KnownValue> {
    let def = h.func.inst(h.func.def_inst(through_copies(h, v)?)?);
    match def.known_opcode()? {
        Opcode::G_CONSTANT => match def.operands.get(1)? {
            Operand::CImm(value) => Some(KnownValue::Constant(value.as_ref().clone())),
            _ => None,
        },
        Opcode::G_IMPLICIT_DEF => Some(KnownValue::Undef),
        _ => None,
    }
}
