//! The RISC-V hooks: LLVM 22's `RISCVLegalizerInfo::legalizeCustom` (the
//! RV64 `*W` forms, `G_SEXT_INREG`, `G_ABS` with Zbb, 64-bit constants,
//! `G_FCONSTANT`, `G_IS_FPCLASS`, `G_BRJT`, `G_VSCALE`, subvector extracts
//! and inserts, Zbkb's `brev8`), its
//! `legalizeIntrinsic` (`llvm.va_copy`) and library calls under the
//! ilp32/lp64 calling conventions and their `f`/`d` hard-float variants.

use gisel_core::apint::ApInt;
use gisel_core::ir::{Inst, InstData, InstOpcode, IntPredicate, MemFlags, MemOperand, Operand, Reg, RegOperand, VReg};
use gisel_core::legality::{CustomOutcome, LegalizeStep};
use gisel_core::legalize::{BooleanContent, Helper, LegalizeTarget, LibcallRequest, LibcallValue, StepResult};
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;

use super::jump_table::branch_through_table;
use super::mat_int::in_constant_pool;
use super::subtarget::{FloatAbi, Subtarget};
use super::subvector::{extract_subvector, insert_subvector};

/// LLVM's `RISCVFPRndMode::RTZ`, the rounding-mode operand of
/// `G_FCVT_W(U)_RV64`.
const ROUND_TOWARD_ZERO: i64 = 1;

/// The RISC-V implementation of [`LegalizeTarget`].
#[derive(Clone, Debug)]
pub struct RiscvHooks {
    st: Subtarget,
}

impl RiscvHooks {
    /// The hooks for `st`.
    pub fn new(st: Subtarget) -> RiscvHooks {
        RiscvHooks { st }
    }

    fn xlen(&self) -> Llt {
        Llt::scalar(self.st.xlen())
    }
}

impl LegalizeTarget for RiscvHooks {
    fn legalize_custom(&self, h: &mut Helper<'_>, inst: Inst, step: &LegalizeStep) -> CustomOutcome {
        let _ = step;
        let Some(opcode) = h.func.inst(inst).known_opcode() else { return CustomOutcome::Failed };
        let xlen = self.xlen();
        use Opcode::*;
        match opcode {
            G_ADD | G_SUB => {
                add_sub_w(h, inst, xlen);
                CustomOutcome::Done
            }
            G_SHL | G_ASHR | G_LSHR => {
                shift_w(h, inst, opcode, xlen);
                CustomOutcome::Done
            }
            G_SDIV | G_UDIV | G_UREM | G_ROTL | G_ROTR => {
                h.widen_src(inst, 1, xlen, G_ANYEXT);
                h.widen_src(inst, 2, xlen, G_ANYEXT);
                h.widen_dst(inst, 0, xlen, G_TRUNC);
                set_target_opcode(h, inst, w_opcode(opcode));
                CustomOutcome::Done
            }
            G_CTLZ | G_CTTZ => {
                h.widen_src(inst, 1, xlen, G_ANYEXT);
                h.widen_dst(inst, 0, xlen, G_TRUNC);
                set_target_opcode(h, inst, w_opcode(opcode));
                CustomOutcome::Done
            }
            G_FPTOSI | G_FPTOUI => {
                h.widen_dst(inst, 0, xlen, G_TRUNC);
                set_target_opcode(h, inst, w_opcode(opcode));
                h.func.modify(inst, |data| data.operands.push(Operand::Imm(ROUND_TOWARD_ZERO)));
                CustomOutcome::Done
            }
            G_SEXT_INREG => sext_inreg(h, inst, &self.st),
            G_ABS => {
                // `lowerAbsToMaxNeg`: smax(x, 0 - x).
                let ty = h.ty(inst, 0);
                let src = h.reg(inst, 1);
                let dst = h.reg(inst, 0);
                let zero = h.builder().constant(ty, 0);
                let neg = h.build(G_SUB, ty, &[zero, src]);
                h.build_into(G_SMAX, dst, &[src, neg]);
                h.func.erase(inst);
                CustomOutcome::Done
            }
            G_CONSTANT => constant(h, inst, &self.st),
            G_FCONSTANT => {
                let Operand::FpImm(value) = h.func.inst(inst).operands[1].clone() else { return CustomOutcome::Failed };
                let bits = value.kind.bits();
                h.func.modify(inst, |data| {
                    data.opcode = InstOpcode::Known(G_CONSTANT);
                    data.operands[1] = Operand::cimm(ApInt::from_u128(bits, value.bits));
                });
                h.mark_changed(inst);
                CustomOutcome::Done
            }
            G_IS_FPCLASS => is_fpclass(h, inst, xlen),
            G_VASTART => va_start(h, inst),
            G_BRJT => branch_through_table(h, inst, self.st.is_64bit()),
            G_VSCALE => vscale(h, inst, xlen, &self.st),
            G_EXTRACT_SUBVECTOR => extract_subvector(h, inst, xlen),
            G_INSERT_SUBVECTOR => insert_subvector(h, inst, xlen),
            G_LOAD | G_STORE => vector_load_store(h, inst, &self.st),
            G_ZEXT | G_SEXT | G_ANYEXT => mask_extension(h, inst, opcode),
            G_SPLAT_VECTOR => splat(h, inst, xlen),
            G_BITREVERSE => {
                // Zbkb: brev8 reverses the bits of each byte.
                let src = h.reg(inst, 1);
                let dst = h.reg(inst, 0);
                let wide = h.build(G_ANYEXT, xlen, &[src]);
                let brev = target_op(h, "G_BREV8", xlen, &[wide]);
                h.build_into(G_TRUNC, dst, &[brev]);
                h.func.erase(inst);
                CustomOutcome::Done
            }
            _ => CustomOutcome::Failed,
        }
    }

    /// `llvm.va_copy` copies the `va_list` pointer; LLVM 22 legalizes no
    /// other intrinsic on RISC-V.
    fn legalize_intrinsic(&self, h: &mut Helper<'_>, inst: Inst) -> CustomOutcome {
        match h.func.inst(inst).operands.first() {
            Some(Operand::Intrinsic(name)) if &**name == "llvm.va_copy" => {
                copy_va_list(h, inst);
                CustomOutcome::Done
            }
            _ => CustomOutcome::Failed,
        }
    }

    fn emit_libcall(&self, h: &mut Helper<'_>, inst: Inst, call: &LibcallRequest) -> Result<(), String> {
        Convention::for_subtarget(&self.st).emit(h, inst, call)
    }

    fn stack_pointer(&self) -> Option<&'static str> {
        Some("x2")
    }

    /// Every RISC-V vector unit accesses vectors aligned to their element,
    /// whether or not the subtarget has one (so a fixed-length vector
    /// access is not split); lesser alignments, and scalars, need the
    /// subtarget's unaligned-access features.
    fn allows_misaligned_access(&self, ty: Llt, align: u64) -> bool {
        if ty.is_vector() {
            align * 8 >= u64::from(ty.scalar_size_in_bits()) || self.st.enable_unaligned_vector_mem()
        } else {
            self.st.enable_unaligned_scalar_mem()
        }
    }

    fn register_by_name(&self, name: &str) -> Result<&'static str, String> {
        register_by_name(name)
    }

    fn boolean_content(&self, vector: bool) -> BooleanContent {
        if vector { BooleanContent::ZeroOrNegativeOne } else { BooleanContent::ZeroOrOne }
    }

    fn is_sext_cheaper_than_zext(&self, from: Llt, to: Llt) -> bool {
        self.st.is_64bit() && from.size_in_bits() == 32 && to.size_in_bits() == 64
    }
}

/// `llvm.va_copy(dst, src)`: the pointer `src` holds is stored to `dst`.
fn copy_va_list(h: &mut Helper<'_>, inst: Inst) {
    let (dst, src) = (h.reg(inst, 1), h.reg(inst, 2));
    let pointer_ty = h.func.ty(dst);
    let list = h.func.new_vreg(pointer_ty);
    let load = h.build_with(Opcode::G_LOAD, &[list], [Operand::vreg_use(src)]);
    h.func.modify(load, |d| d.mem.push(MemOperand::new(MemFlags::LOAD, pointer_ty)));
    let store = h.build_with(Opcode::G_STORE, &[], [Operand::vreg_use(list), Operand::vreg_use(dst)]);
    h.func.modify(store, |d| d.mem.push(MemOperand::new(MemFlags::STORE, pointer_ty)));
    h.func.erase(inst);
}

/// `G_VSCALE c` from `VLENB`, the vector length in bytes (`legalizeVScale`):
/// a vector block is 64 bits, so vscale is `VLENB / 8`; powers of two and
/// multiples of 8 scale `VLENB` directly, other multipliers scale vscale.
/// Fails below a 64-bit minimum VLEN, as LLVM 22 does.
fn vscale(h: &mut Helper<'_>, inst: Inst, xlen: Llt, st: &Subtarget) -> CustomOutcome {
    let Some(multiplier) = (match h.func.inst(inst).operands.get(1) {
        Some(Operand::CImm(value)) => value.to_u128(),
        _ => None,
    }) else {
        return CustomOutcome::Failed;
    };
    if st.min_vlen() < 64 {
        return CustomOutcome::Failed;
    }
    let dst = h.reg(inst, 0);
    let vlenb = |h: &mut Helper<'_>| target_op(h, "G_READ_VLENB", xlen, &[]);
    if multiplier.is_power_of_two() {
        let log2 = i128::from(multiplier.trailing_zeros());
        match log2.cmp(&3) {
            std::cmp::Ordering::Less => {
                let bytes = vlenb(h);
                let amount = h.builder().constant(xlen, 3 - log2);
                h.build_into(Opcode::G_LSHR, dst, &[bytes, amount]);
            }
            std::cmp::Ordering::Greater => {
                let bytes = vlenb(h);
                let amount = h.builder().constant(xlen, log2 - 3);
                h.build_into(Opcode::G_SHL, dst, &[bytes, amount]);
            }
            std::cmp::Ordering::Equal => target_op_into(h, "G_READ_VLENB", dst, &[]),
        }
    } else if multiplier % 8 == 0 {
        let bytes = vlenb(h);
        let factor = h.builder().constant(xlen, (multiplier / 8) as i128);
        h.build_into(Opcode::G_MUL, dst, &[bytes, factor]);
    } else {
        let bytes = vlenb(h);
        let eight = h.builder().constant(xlen, 3);
        let scale = h.build(Opcode::G_LSHR, xlen, &[bytes, eight]);
        let factor = h.builder().constant(xlen, multiplier as i128);
        h.build_into(Opcode::G_MUL, dst, &[scale, factor]);
    }
    h.func.erase(inst);
    CustomOutcome::Done
}

/// The RV64 `*W` opcode for a 32-bit operation.
fn w_opcode(opcode: Opcode) -> &'static str {
    use Opcode::*;
    match opcode {
        G_ASHR => "G_SRAW",
        G_LSHR => "G_SRLW",
        G_SHL => "G_SLLW",
        G_SDIV => "G_DIVW",
        G_UDIV => "G_DIVUW",
        G_UREM => "G_REMUW",
        G_ROTL => "G_ROLW",
        G_ROTR => "G_RORW",
        G_CTLZ => "G_CLZW",
        G_CTTZ => "G_CTZW",
        G_FPTOSI => "G_FCVT_W_RV64",
        G_FPTOUI => "G_FCVT_WU_RV64",
        _ => unreachable!("no W form for {opcode}"),
    }
}

fn set_target_opcode(h: &mut Helper<'_>, inst: Inst, name: &str) {
    let symbol = h.func.names.intern(name);
    h.func.modify(inst, |data| data.opcode = InstOpcode::Target(symbol));
    h.mark_changed(inst);
}

/// Builds the target generic instruction `name` with one def of `ty`.
fn target_op(h: &mut Helper<'_>, name: &str, ty: Llt, uses: &[VReg]) -> VReg {
    let symbol = h.func.names.intern(name);
    let def = h.func.new_vreg(ty);
    let mut data = InstData::new(InstOpcode::Target(symbol));
    data.num_defs = 1;
    data.operands.push(Operand::vreg_def(def));
    data.operands.extend(uses.iter().map(|v| Operand::vreg_use(*v)));
    h.builder().insert(data);
    def
}

/// Builds the target generic instruction `name` defining `dst`.
fn target_op_into(h: &mut Helper<'_>, name: &str, dst: VReg, uses: &[VReg]) {
    let symbol = h.func.names.intern(name);
    let mut data = InstData::new(InstOpcode::Target(symbol));
    data.num_defs = 1;
    data.operands.push(Operand::vreg_def(dst));
    data.operands.extend(uses.iter().map(|v| Operand::vreg_use(*v)));
    h.builder().insert(data);
}

/// s32 add/sub on RV64: computed in XLEN and sign-extended from 32 bits
/// (`addw`/`subw`).
fn add_sub_w(h: &mut Helper<'_>, inst: Inst, xlen: Llt) {
    h.widen_src(inst, 1, xlen, Opcode::G_ANYEXT);
    h.widen_src(inst, 2, xlen, Opcode::G_ANYEXT);
    let old = h.reg(inst, 0);
    let wide = h.func.new_vreg(xlen);
    h.func.set_operand(inst, 0, Operand::vreg_def(wide));
    h.advance_insert_point();
    let sext = h.func.new_vreg(xlen);
    h.build_with(Opcode::G_SEXT_INREG, &[sext], [Operand::vreg_use(wide), Operand::Imm(32)]);
    h.build_into(Opcode::G_TRUNC, old, &[sext]);
    h.mark_changed(inst);
}

/// s32 shifts on RV64: by a constant, a plain XLEN shift; otherwise the
/// `*W` shift.
fn shift_w(h: &mut Helper<'_>, inst: Inst, opcode: Opcode, xlen: Llt) {
    use Opcode::*;
    let amount = h.reg(inst, 2);
    if constant_through(h, amount).is_some() {
        let ext = match opcode {
            G_ASHR => G_SEXT,
            G_LSHR => G_ZEXT,
            _ => G_ANYEXT,
        };
        h.widen_src(inst, 1, xlen, ext);
        h.widen_src(inst, 2, xlen, G_ZEXT);
        h.widen_dst(inst, 0, xlen, G_TRUNC);
        h.mark_changed(inst);
        return;
    }
    h.widen_src(inst, 1, xlen, G_ANYEXT);
    h.widen_src(inst, 2, xlen, G_ANYEXT);
    h.widen_dst(inst, 0, xlen, G_TRUNC);
    set_target_opcode(h, inst, w_opcode(opcode));
}

/// The constant `reg` holds, looking through copies and extensions
/// (`getIConstantVRegValWithLookThrough`).
fn constant_through(h: &Helper<'_>, mut reg: VReg) -> Option<ApInt> {
    loop {
        let def = h.func.def_inst(reg)?;
        let data = h.func.inst(def);
        match data.known_opcode()? {
            Opcode::G_CONSTANT => {
                return match &data.operands[1] {
                    Operand::CImm(value) => Some(value.as_ref().clone()),
                    _ => None,
                };
            }
            Opcode::COPY | Opcode::G_TRUNC | Opcode::G_ZEXT | Opcode::G_SEXT | Opcode::G_ANYEXT => {
                match data.operands[1].as_reg().map(|r| r.reg) {
                    Some(Reg::Virtual(v)) => reg = v,
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
}

/// `G_SEXT_INREG` in XLEN: legal as `sext.w` (RV64, from 32 bits) and as
/// Zbb's `sext.b`/`sext.h`; otherwise the generic lowering, a left shift
/// into a register of its own and an arithmetic right shift (so that CSE
/// shares the left shift of an earlier lowering through a COPY, as in llc).
fn sext_inreg(h: &mut Helper<'_>, inst: Inst, st: &Subtarget) -> CustomOutcome {
    let Operand::Imm(width) = h.func.inst(inst).operands[2] else { return CustomOutcome::Failed };
    let bits = h.ty(inst, 0).size_in_bits() as i64;
    if (bits == 64 && width == 32) || (st.has_zbb() && (width == 8 || width == 16)) {
        return CustomOutcome::Done;
    }
    match h.lower(inst) {
        StepResult::Unable(_) => CustomOutcome::Failed,
        _ => CustomOutcome::Done,
    }
}

/// A 64-bit constant stays as it is unless building it would take more
/// instructions than a load: then it is loaded from the constant pool.
fn constant(h: &mut Helper<'_>, inst: Inst, st: &Subtarget) -> CustomOutcome {
    let Operand::CImm(value) = &h.func.inst(inst).operands[1] else { return CustomOutcome::Failed };
    let Some(value) = value.to_i128().and_then(|v| i64::try_from(v).ok()) else { return CustomOutcome::Failed };
    if in_constant_pool(value, st.mat_features()) && !h.load_constant_from_pool(inst) {
        return CustomOutcome::Failed;
    }
    CustomOutcome::Done
}

/// A scalable-vector load or store (`legalizeLoadStore`) stays as it is
/// when its alignment reaches the element's size or the subtarget allows
/// unaligned vector accesses (`allowsMemoryAccessForAlignment`); otherwise
/// it accesses the same memory as bytes.
fn vector_load_store(h: &mut Helper<'_>, inst: Inst, st: &Subtarget) -> CustomOutcome {
    let ty = h.ty(inst, 0);
    let [mem] = h.func.inst(inst).mem.as_slice() else { return CustomOutcome::Failed };
    if !ty.is_scalable() {
        return CustomOutcome::Failed;
    }
    // LLVM's natural alignment of the vector is at least the element's.
    if mem.align() * 8 >= u64::from(ty.scalar_size_in_bits()) || st.enable_unaligned_vector_mem() {
        return CustomOutcome::Done;
    }
    let bytes = Llt::scalable_vector(ty.num_elements() * ty.scalar_size_in_bits() / 8, Llt::scalar(8));
    match h.bitcast(inst, 0, bytes) {
        StepResult::Unable(_) => CustomOutcome::Failed,
        _ => CustomOutcome::Done,
    }
}

/// An extension of a mask vector selects between splats of 0 and of 1
/// (-1 for `G_SEXT`) (`legalizeExt`).
fn mask_extension(h: &mut Helper<'_>, inst: Inst, opcode: Opcode) -> CustomOutcome {
    let ty = h.ty(inst, 0);
    let element = ty.element_type();
    let bits = ty.scalar_size_in_bits();
    let zero = h.constant(element, ApInt::from_i128(bits, 0));
    let zeros = h.build(Opcode::G_SPLAT_VECTOR, ty, &[zero]);
    let set = h.constant(element, ApInt::from_i128(bits, if opcode == Opcode::G_SEXT { -1 } else { 1 }));
    let sets = h.build(Opcode::G_SPLAT_VECTOR, ty, &[set]);
    let (dst, mask) = (h.reg(inst, 0), h.reg(inst, 1));
    h.build_into(Opcode::G_SELECT, dst, &[mask, sets, zeros]);
    h.func.erase(inst);
    CustomOutcome::Done
}

/// The custom splats (`legalizeSplatVector`): on RV32 an s64 splat is split
/// into its halves (`G_SPLAT_VECTOR_SPLIT_I64_VL` over the whole vector);
/// a mask splat of a constant sets or clears every lane (`G_VMSET_VL`,
/// `G_VMCLR_VL`), and of any other bit compares a byte splat with zero.
fn splat(h: &mut Helper<'_>, inst: Inst, xlen: Llt) -> CustomOutcome {
    let (dst, value) = (h.reg(inst, 0), h.reg(inst, 1));
    let ty = h.ty(inst, 0);
    if xlen.scalar_size_in_bits() == 32 && ty.scalar_size_in_bits() == 64 {
        let vl = default_vl_ops(h, ty, xlen);
        let passthru = h.build(Opcode::G_IMPLICIT_DEF, ty, &[]);
        let halves = h.split(value, Llt::scalar(32), 2);
        target_op_into(h, "G_SPLAT_VECTOR_SPLIT_I64_VL", dst, &[passthru, halves[0], halves[1], vl]);
        h.func.erase(inst);
        return CustomOutcome::Done;
    }
    let def = h.func.def_inst(value).map(|i| h.func.inst(i));
    let constant = match def {
        Some(data) if data.known_opcode() == Some(Opcode::G_CONSTANT) => match data.operands.get(1) {
            Some(Operand::CImm(c)) => Some(!c.is_zero()),
            _ => None,
        },
        _ => None,
    };
    if let Some(set) = constant {
        let vl = default_vl_ops(h, ty, xlen);
        target_op_into(h, if set { "G_VMSET_VL" } else { "G_VMCLR_VL" }, dst, &[vl]);
        h.func.erase(inst);
        return CustomOutcome::Done;
    }
    let byte = Llt::scalar(8);
    let bytes = Llt::scalable_vector(ty.num_elements(), byte);
    let wide = h.build(Opcode::G_ZEXT, byte, &[value]);
    let one = h.constant(byte, ApInt::from_i128(8, 1));
    let bit = h.build(Opcode::G_AND, byte, &[wide, one]);
    let lhs = h.build(Opcode::G_SPLAT_VECTOR, bytes, &[bit]);
    let zero = h.constant(byte, ApInt::from_i128(8, 0));
    let zeros = h.build(Opcode::G_SPLAT_VECTOR, bytes, &[zero]);
    let operands = vec![Operand::IntPred(IntPredicate::Ne), Operand::vreg_use(lhs), Operand::vreg_use(zeros)];
    h.build_with(Opcode::G_ICMP, &[dst], operands);
    h.func.erase(inst);
    CustomOutcome::Done
}

/// The whole-vector length (an XLEN -1) and an all-ones mask for `ty`
/// (`buildDefaultVLOps`, whose mask LLVM builds even when unused); returns
/// the length.
fn default_vl_ops(h: &mut Helper<'_>, ty: Llt, xlen: Llt) -> VReg {
    let vl = h.constant(xlen, ApInt::from_i128(xlen.scalar_size_in_bits(), -1));
    target_op(h, "G_VMSET_VL", Llt::scalable_vector(ty.num_elements(), Llt::scalar(1)), &[vl]);
    vl
}

/// `G_IS_FPCLASS` with F/D/Zfh: `fclass`, masked by LLVM's class bits
/// rotated into RISC-V's order, compared with zero.
fn is_fpclass(h: &mut Helper<'_>, inst: Inst, xlen: Llt) -> CustomOutcome {
    let Operand::Imm(classes) = h.func.inst(inst).operands[2] else { return CustomOutcome::Failed };
    let dst = h.reg(inst, 0);
    let src = h.reg(inst, 1);
    let classes = (classes as u64) & 0x3ff;
    let rotated = ((classes >> 2) | (classes << 8)) & 0x3ff;
    let mask = h.builder().constant(xlen, i128::from(rotated));
    let zero = h.builder().constant(xlen, 0);
    let fclass = target_op(h, "G_FCLASS", xlen, &[src]);
    let and = h.build(Opcode::G_AND, xlen, &[fclass, mask]);
    let operands = vec![Operand::IntPred(IntPredicate::Ne), Operand::vreg_use(and), Operand::vreg_use(zero)];
    h.build_with(Opcode::G_ICMP, &[dst], operands);
    h.func.erase(inst);
    CustomOutcome::Done
}

/// A RISC-V calling convention for library calls.
struct Convention {
    xlen: u32,
    /// Width of the FP argument registers (0 for soft float).
    flen: u32,
    mask: &'static str,
}

const INT_ARGS: [&str; 8] = ["$x10", "$x11", "$x12", "$x13", "$x14", "$x15", "$x16", "$x17"];
const FLOAT_ARGS: [&str; 8] = ["$f10_f", "$f11_f", "$f12_f", "$f13_f", "$f14_f", "$f15_f", "$f16_f", "$f17_f"];
const DOUBLE_ARGS: [&str; 8] = ["$f10_d", "$f11_d", "$f12_d", "$f13_d", "$f14_d", "$f15_d", "$f16_d", "$f17_d"];

/// Where one register-sized piece travels.
#[derive(Clone, Copy)]
enum Class {
    Int,
    Float,
}

impl Convention {
    fn for_subtarget(st: &Subtarget) -> Convention {
        let (flen, mask) = match st.float_abi() {
            FloatAbi::Soft => (0, "csr_ilp32_lp64"),
            FloatAbi::Single => (32, "csr_ilp32f_lp64f"),
            FloatAbi::Double => (64, "csr_ilp32d_lp64d"),
        };
        Convention { xlen: st.xlen(), flen, mask }
    }

    fn class(&self, value: &LibcallValue) -> Class {
        let bits = value.ty.size_in_bits() as u32;
        if value.float && bits <= self.flen && (bits == 32 || bits == 64) { Class::Float } else { Class::Int }
    }

    fn next(&self, class: Class, bits: u32, next: &mut [usize; 2]) -> Result<&'static str, String> {
        let (list, slot) = match class {
            Class::Int => (&INT_ARGS, &mut next[0]),
            Class::Float if bits == 32 => (&FLOAT_ARGS, &mut next[1]),
            Class::Float => (&DOUBLE_ARGS, &mut next[1]),
        };
        let name = list.get(*slot).ok_or("arguments on the stack are not implemented")?;
        *slot += 1;
        Ok(&name[1..])
    }

    /// Emits the call before `inst` (which the caller erases): the frame
    /// setup, arguments extended to XLEN (i32 sign-extended on RV64, as
    /// `shouldSignExtendTypeInLibCall` says) or split into XLEN pieces,
    /// copies into registers, the call, the frame destroy and the result
    /// copies (truncated or merged back).
    fn emit(&self, h: &mut Helper<'_>, inst: Inst, call: &LibcallRequest) -> Result<(), String> {
        let xlen = Llt::scalar(self.xlen);
        h.set_insert_before(inst);
        let setup = self.frame_pseudo(h, "ADJCALLSTACKDOWN");
        h.builder().insert(setup);
        let mut pieces: Vec<(VReg, Class, u32)> = Vec::new();
        for arg in &call.args {
            let class = self.class(arg);
            let bits = arg.ty.size_in_bits() as u32;
            match class {
                Class::Float => pieces.push((arg.reg, class, bits)),
                Class::Int if bits < self.xlen => {
                    let ext = if arg.float || arg.any_extend {
                        Opcode::G_ANYEXT
                    } else if bits == 32 || arg.signed {
                        Opcode::G_SEXT
                    } else {
                        Opcode::G_ZEXT
                    };
                    // Into a register made first, as `buildCopyToRegs`: CSE
                    // copies an identical earlier extension into it.
                    let wide = h.func.new_vreg(xlen);
                    h.build_into(ext, wide, &[arg.reg]);
                    pieces.push((wide, class, self.xlen));
                }
                Class::Int if bits == self.xlen => pieces.push((arg.reg, class, bits)),
                Class::Int => {
                    // Into registers made first (`buildCopyToRegs`): CSE
                    // never shares such an unmerge.
                    let count = bits.div_ceil(self.xlen) as usize;
                    for part in h.split_named(arg.reg, xlen, count) {
                        pieces.push((part, class, self.xlen));
                    }
                }
            }
        }
        let mut next = [0usize; 2];
        let mut uses = Vec::new();
        for (reg, class, bits) in pieces {
            let name = self.next(class, bits, &mut next)?;
            let phys = h.func.names.intern(name);
            let mut copy = InstData::new(InstOpcode::Known(Opcode::COPY));
            copy.num_defs = 1;
            copy.operands.push(Operand::Reg(RegOperand::def_of(Reg::Physical(phys))));
            copy.operands.push(Operand::vreg_use(reg));
            h.builder().insert(copy);
            uses.push(phys);
        }
        let mut next = [0usize; 2];
        let mut results = Vec::new();
        for result in &call.results {
            let class = self.class(result);
            let bits = result.ty.size_in_bits() as u32;
            let (piece_bits, count) = match class {
                Class::Float => (bits, 1),
                Class::Int => (self.xlen, bits.div_ceil(self.xlen) as usize),
            };
            let mut regs = Vec::new();
            for _ in 0..count {
                regs.push(h.func.names.intern(self.next(class, piece_bits, &mut next)?));
            }
            results.push((result, piece_bits, regs));
        }
        let callee_name = h.func.names.intern("PseudoCALL");
        let mut data = InstData::new(InstOpcode::Target(callee_name));
        let callee = Operand::external_symbol(call.symbol.as_str(), 0);
        data.operands.push(Operand::target_flags("riscv-call", callee));
        data.operands.push(Operand::RegMask(h.func.names.intern(self.mask)));
        data.operands.push(Operand::implicit_def(h.func.names.intern("x1")));
        data.operands.extend(uses.iter().map(|r| Operand::implicit_use(*r)));
        for (_, _, regs) in &results {
            data.operands.extend(regs.iter().map(|r| Operand::implicit_def(*r)));
        }
        h.builder().insert(data);
        let destroy = self.frame_pseudo(h, "ADJCALLSTACKUP");
        h.builder().insert(destroy);
        for (result, piece_bits, regs) in results {
            let piece_ty = Llt::scalar(piece_bits);
            let bits = result.ty.size_in_bits() as u32;
            let direct = regs.len() == 1 && bits == piece_bits;
            let copies: Vec<VReg> = regs
                .iter()
                .map(|phys| {
                    let v = if direct { result.reg } else { h.func.new_vreg(piece_ty) };
                    let mut copy = InstData::new(InstOpcode::Known(Opcode::COPY));
                    copy.num_defs = 1;
                    copy.operands.push(Operand::vreg_def(v));
                    copy.operands.push(Operand::Reg(RegOperand::use_of(Reg::Physical(*phys))));
                    h.builder().insert(copy);
                    v
                })
                .collect();
            if copies.len() > 1 {
                h.build_into(Opcode::G_MERGE_VALUES, result.reg, &copies);
            } else if !direct {
                h.build_into(Opcode::G_TRUNC, result.reg, &copies);
            }
        }
        Ok(())
    }

    /// `ADJCALLSTACK* 0, 0, implicit-def $x2, implicit $x2`.
    fn frame_pseudo(&self, h: &mut Helper<'_>, name: &str) -> InstData {
        let opcode = h.func.names.intern(name);
        let sp = h.func.names.intern("x2");
        let mut data = InstData::new(InstOpcode::Target(opcode));
        data.operands.push(Operand::Imm(0));
        data.operands.push(Operand::Imm(0));
        data.operands.push(Operand::implicit_def(sp));
        data.operands.push(Operand::implicit_use(sp));
        data
    }
}

/// The general-purpose register `name` (`x3` or its ABI name `gp`), which
/// must be one the compiler reserves: `zero`, `sp`, `gp` or `tp` (LLVM's
/// `getRegisterByName`; registers reserved with `+reserve-xN` are not
/// modelled).
fn register_by_name(name: &str) -> Result<&'static str, String> {
    const X: [&str; 32] = [
        "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11", "x12", "x13", "x14", "x15", "x16",
        "x17", "x18", "x19", "x20", "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x29", "x30", "x31",
    ];
    const ABI: [&str; 32] = [
        "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
        "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
    ];
    let number = ABI.iter().chain(&X).position(|n| *n == name).map(|i| i % 32).or((name == "fp").then_some(8));
    match number {
        Some(n @ 0..=4) if n != 1 => Ok(X[n]),
        Some(_) => Err(format!("Trying to obtain non-reserved register \"{name}\".")),
        None => Err(format!("invalid register \"{name}\" for llvm.read_register")),
    }
}

/// `legalizeVAStart`: the address of the variable-argument save area is
/// stored into the `va_list`; a function without one cannot be legalized.
fn va_start(h: &mut Helper<'_>, inst: Inst) -> CustomOutcome {
    let Some(save_area) = h.func.frame.var_args.clone() else { return CustomOutcome::Failed };
    let list = h.reg(inst, 0);
    let Some(mem) = h.func.inst(inst).mem.first().cloned() else { return CustomOutcome::Failed };
    let address = h.func.new_vreg(h.func.ty(list));
    h.build_with(Opcode::G_FRAME_INDEX, &[address], [Operand::Frame(Box::new(save_area))]);
    h.builder().store(address, list, mem);
    h.func.erase(inst);
    CustomOutcome::Done
}
