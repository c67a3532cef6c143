//! AArch64's custom legalizations (`AArch64LegalizerInfo::legalize*`),
//! each building what LLVM 22 builds, in the same order. Intrinsics LLVM
//! creates only to legalize them right away (`aarch64.neon.uaddlv`,
//! `uaddlp`) are emitted in their legalized form (`G_UADDLV`, `G_UADDLP`).
//!
//! Each function returns whether it legalized the instruction (LLVM's
//! `bool`); `false` makes the legalizer report it as unable.

use gisel_core::apint::ApInt;
use gisel_core::ir::{
    Inst, InstData, InstFlags, InstOpcode, IntPredicate, MemFlags, MemOperand, MemSize, Operand, Reg, VReg,
};
use gisel_core::legalize::{Helper, StepResult};
use gisel_core::opcode::Opcode;
use gisel_core::prelude::Llt;

use super::subtarget::{CodeModel, Subtarget};
use gisel_core::llvm_ir::{GlobalValue, Linkage};

const S1: Llt = Llt::scalar(1);
const S32: Llt = Llt::scalar(32);
const S64: Llt = Llt::scalar(64);
const P0: Llt = Llt::pointer(0, 64);

/// The constant `v` holds, looking through copies, truncations and
/// sign/zero extensions (`getIConstantVRegValWithLookThrough`).
pub fn constant_of(h: &Helper<'_>, v: VReg) -> Option<ApInt> {
    let mut steps: Vec<(Opcode, u32)> = Vec::new();
    let mut reg = v;
    loop {
        let &[def] = h.func.def_insts(reg) else { return None };
        let data = h.func.inst(def);
        let opcode = data.known_opcode()?;
        let next = match opcode {
            Opcode::G_CONSTANT => {
                let Operand::CImm(value) = &data.operands[1] else { return None };
                let mut value = value.as_ref().clone();
                for &(step, bits) in steps.iter().rev() {
                    value = match step {
                        Opcode::G_SEXT => value.sext_or_trunc(bits),
                        _ => value.zext_or_trunc(bits),
                    };
                }
                return Some(value);
            }
            Opcode::G_TRUNC | Opcode::G_SEXT | Opcode::G_ZEXT => {
                steps.push((opcode, h.func.ty(reg).scalar_size_in_bits()));
                data.operands[1].as_reg()?.reg
            }
            Opcode::COPY => data.operands[1].as_reg()?.reg,
            _ => return None,
        };
        let Reg::Virtual(next) = next else { return None };
        reg = next;
    }
}

/// Whether `v` is defined by `G_IMPLICIT_DEF`.
fn is_undef(h: &Helper<'_>, v: VReg) -> bool {
    matches!(h.func.def_insts(v), &[def] if h.func.inst(def).known_opcode() == Some(Opcode::G_IMPLICIT_DEF))
}

fn target_inst(h: &mut Helper<'_>, name: &str) -> InstData {
    InstData::new(InstOpcode::Target(h.func.names.intern(name)))
}

/// A target generic instruction `name` defining a new vreg of `ty` from vreg uses.
pub(super) fn build_target(h: &mut Helper<'_>, name: &str, ty: Llt, uses: &[VReg]) -> VReg {
    let dst = h.func.new_vreg(ty);
    build_target_into(h, name, dst, uses);
    dst
}

fn build_target_into(h: &mut Helper<'_>, name: &str, dst: VReg, uses: &[VReg]) {
    let mut data = target_inst(h, name);
    data.num_defs = 1;
    data.operands.push(Operand::vreg_def(dst));
    data.operands.extend(uses.iter().map(|v| Operand::vreg_use(*v)));
    h.builder().insert(data);
}

fn constant(h: &mut Helper<'_>, ty: Llt, value: i128) -> VReg {
    if ty.is_vector() {
        let element = h.builder().constant(ty.element_type(), value);
        let elements = vec![element; ty.num_elements() as usize];
        h.build(Opcode::G_BUILD_VECTOR, ty, &elements)
    } else {
        h.builder().constant(ty, value)
    }
}

/// Replaces operand `index` of `inst` by `v` and requeues `inst`.
fn set_use(h: &mut Helper<'_>, inst: Inst, index: usize, v: VReg) {
    h.func.set_operand(inst, index, Operand::vreg_use(v));
    h.mark_changed(inst);
}

/// `legalizeShlAshrLshr`: a constant amount below 32 becomes an `s64`
/// constant so that the imported immediate patterns match.
pub fn shift(h: &mut Helper<'_>, inst: Inst) -> bool {
    let amount = h.reg(inst, 2);
    let Some(value) = constant_of(h, amount) else { return true };
    let Some(amount) = value.to_i128() else { return true };
    if amount > 31 {
        return true;
    }
    let wide = h.builder().constant(S64, amount);
    set_use(h, inst, 2, wide);
    true
}

/// `legalizeSmallCMGlobalValue`: `ADRP` of the page and `G_ADD_LOW` of the
/// offset within it. Symbols (`&name`) are left alone.
pub fn global_value(h: &mut Helper<'_>, inst: Inst, st: &Subtarget) -> bool {
    let global = h.func.inst(inst).operands[1].clone();
    let Operand::Global(symbol) = &global else { return true };
    if h.func.module.global(&symbol.name).is_some_and(|g| g.thread_local || needs_got(st, g)) {
        // Thread-local and GOT accesses are selected as they are.
        return true;
    }
    let dst = h.reg(inst, 0);
    let page = h.func.new_vreg(P0);
    let gpr64 = h.func.names.intern("gpr64");
    h.func.vreg_mut(page).class = Some(gpr64);
    let mut adrp = target_inst(h, "ADRP");
    adrp.num_defs = 1;
    adrp.operands.push(Operand::vreg_def(page));
    adrp.operands.push(Operand::target_flags("aarch64-page", global.clone()));
    h.builder().insert(adrp);
    let mut add_low = target_inst(h, "G_ADD_LOW");
    add_low.num_defs = 1;
    add_low.operands.push(Operand::vreg_def(dst));
    add_low.operands.push(Operand::vreg_use(page));
    add_low.operands.push(Operand::target_flags("aarch64-pageoff, aarch64-nc", global));
    h.builder().insert(add_low);
    h.func.erase(inst);
    true
}

/// Whether `global` is addressed through the GOT
/// (`ClassifyGlobalReference` giving `MO_GOT`): memory-tagged globals,
/// globals the linker may place in another module, and `extern_weak` ones
/// (which may be null, out of ADRP's reach).
fn needs_got(st: &Subtarget, global: &GlobalValue) -> bool {
    if (st.code_model == CodeModel::Large && st.darwin) || global.tagged {
        return true;
    }
    let dso_local = global.is_dso_local()
        || if st.windows {
            !global.dll_import && global.linkage != Linkage::ExternWeak
        } else if st.darwin {
            // Darwin code is position independent.
            global.is_strong_definition_for_linker()
        } else {
            false
        };
    !dso_local || global.linkage == Linkage::ExternWeak
}

/// `legalizeBitcast`: a vector of booleans cast to a scalar goes through
/// the stack, stored as the vector and loaded as the scalar.
pub fn bool_vector_to_scalar(h: &mut Helper<'_>, inst: Inst) -> bool {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    if !dst_ty.is_scalar() || !src_ty.is_vector() || src_ty.scalar_size_in_bits() != 1 {
        return false;
    }
    h.stack_store_load(dst, src);
    h.func.erase(inst);
    true
}

/// `legalizeBitfieldExtract`: legal only with constant position and width.
pub fn bitfield_extract(h: &mut Helper<'_>, inst: Inst) -> bool {
    constant_of(h, h.reg(inst, 2)).is_some() && constant_of(h, h.reg(inst, 3)).is_some()
}

/// `legalizeRotate`: the amount zero-extended to `s64`.
pub fn rotate(h: &mut Helper<'_>, inst: Inst) -> bool {
    h.widen_src(inst, 2, S64, Opcode::G_ZEXT);
    h.mark_changed(inst);
    true
}

/// `legalizeFunnelShift`: a constant amount becomes a `G_FSHR` by an `s64`
/// constant; anything else is lowered into shifts.
pub fn funnel_shift(h: &mut Helper<'_>, inst: Inst) -> bool {
    let left = h.func.inst(inst).known_opcode() == Some(Opcode::G_FSHL);
    let amount_reg = h.reg(inst, 3);
    let shift_ty = h.func.ty(amount_reg);
    let bits = h.ty(inst, 0).size_in_bits() as u128;
    let value = constant_of(h, amount_reg).and_then(|v| v.to_u128());
    let Some(value) = value.filter(|v| v % bits != 0) else {
        return funnel_as_shifts(h, inst, left);
    };
    let mut amount = value % bits;
    if left {
        amount = bits - amount;
    }
    if shift_ty.size_in_bits() == 64 && !left && value < bits {
        return true;
    }
    let cast = h.builder().constant(S64, amount as i128);
    if left {
        let (dst, x, y) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2));
        h.build_into(Opcode::G_FSHR, dst, &[x, y, cast]);
        h.func.erase(inst);
    } else {
        set_use(h, inst, 3, cast);
    }
    true
}

/// `lowerFunnelShiftAsShifts`.
fn funnel_as_shifts(h: &mut Helper<'_>, inst: Inst, left: bool) -> bool {
    use Opcode::*;
    let (dst, x, y, z) = (h.reg(inst, 0), h.reg(inst, 1), h.reg(inst, 2), h.reg(inst, 3));
    let (ty, shift_ty) = (h.func.ty(dst), h.func.ty(z));
    let bits = i128::from(ty.scalar_size_in_bits());
    let (shifted_x, shifted_y) = if is_undef(h, z) {
        let width = constant(h, shift_ty, bits);
        let amount = h.build(G_UREM, shift_ty, &[z, width]);
        let inverse = h.build(G_SUB, shift_ty, &[width, amount]);
        let shifted_x = h.build(G_SHL, ty, &[x, if left { amount } else { inverse }]);
        let shifted_y = h.build(G_LSHR, ty, &[y, if left { inverse } else { amount }]);
        (shifted_x, shifted_y)
    } else {
        let mask = constant(h, shift_ty, bits - 1);
        let (amount, inverse) = if bits.count_ones() == 1 {
            let amount = h.build(G_AND, shift_ty, &[z, mask]);
            let all_ones = constant(h, shift_ty, -1);
            let inverted = h.build(G_XOR, shift_ty, &[z, all_ones]);
            (amount, h.build(G_AND, shift_ty, &[inverted, mask]))
        } else {
            let width = constant(h, shift_ty, bits);
            let amount = h.build(G_UREM, shift_ty, &[z, width]);
            (amount, h.build(G_SUB, shift_ty, &[mask, amount]))
        };
        let one = constant(h, shift_ty, 1);
        if left {
            let shifted_x = h.build(G_SHL, ty, &[x, amount]);
            let y1 = h.build(G_LSHR, ty, &[y, one]);
            (shifted_x, h.build(G_LSHR, ty, &[y1, inverse]))
        } else {
            let x1 = h.build(G_SHL, ty, &[x, one]);
            let shifted_x = h.build(G_SHL, ty, &[x1, inverse]);
            (shifted_x, h.build(G_LSHR, ty, &[y, amount]))
        }
    };
    let or = h.build_into(G_OR, dst, &[shifted_x, shifted_y]);
    h.func.modify(or, |d| d.flags.insert(InstFlags::DISJOINT));
    h.func.erase(inst);
    true
}

/// `legalizeCTPOP`: `CNT` on bytes and an add reduction (`UADDLV` for
/// scalars, a chain of `UADDLP` for vectors); two scalar popcounts with
/// CSSC for `s128`.
pub fn ctpop(h: &mut Helper<'_>, inst: Inst, st: &Subtarget) -> bool {
    use Opcode::*;
    let (dst, mut val) = (h.reg(inst, 0), h.reg(inst, 1));
    let ty = h.func.ty(val);
    let size = ty.size_in_bits();
    if st.cssc && ty.is_scalar() && size == 128 {
        let halves = h.split(val, S64, 2);
        let lo = h.build(G_CTPOP, S64, &[halves[0]]);
        let hi = h.build(G_CTPOP, S64, &[halves[1]]);
        let sum = h.build(G_ADD, S64, &[lo, hi]);
        h.build_into(G_ZEXT, dst, &[sum]);
        h.func.erase(inst);
        return true;
    }
    // Without NEON, or where the function may not use vector registers,
    // the generic bit-counting lowering (scalars of 32 or 64 bits only).
    let no_implicit_float = h.func.module.function(&h.func.name).is_some_and(|f| f.function.has("noimplicitfloat"));
    if !st.neon || no_implicit_float {
        return ty.is_scalar() && (size == 32 || size == 64) && h.lower(inst) == StepResult::Legalized;
    }
    let s8 = Llt::scalar(8);
    let bytes = Llt::fixed_vector(if size == 128 { 16 } else { 8 }, s8);
    if ty.is_scalar() && size == 32 {
        val = h.build(G_ZEXT, S64, &[val]);
    }
    let cast = h.build(G_BITCAST, bytes, &[val]);
    let counts = h.build(G_CTPOP, bytes, &[cast]);
    let s16 = Llt::scalar(16);
    if ty.is_scalar() {
        // aarch64.neon.uaddlv to s32, as legalizeIntrinsic expands it.
        // The intrinsic is built with a new s32 register, which keeps its
        // number when the intrinsic then defines `dst` itself (the result
        // is not extended).
        let widened = size == 64 || size == 128;
        let intrinsic_def = h.func.new_vreg(S32);
        let sum = if widened { intrinsic_def } else { dst };
        super::intrinsics::expand_long_sum(h, "G_UADDLV", sum, counts);
        if widened {
            h.build_into(G_ZEXT, dst, &[sum]);
        }
        h.func.erase(inst);
        return true;
    }
    let chain: &[Llt] = match (ty.num_elements(), ty.scalar_size_in_bits()) {
        (8, 16) => &[Llt::fixed_vector(8, s16)],
        (4, 32) => &[Llt::fixed_vector(8, s16), Llt::fixed_vector(4, S32)],
        (2, 64) => &[Llt::fixed_vector(8, s16), Llt::fixed_vector(4, S32), Llt::fixed_vector(2, S64)],
        (4, 16) => &[Llt::fixed_vector(4, s16)],
        (2, 32) => &[Llt::fixed_vector(4, s16), Llt::fixed_vector(2, S32)],
        _ => return false,
    };
    let mut sum = counts;
    for (i, &step) in chain.iter().enumerate() {
        if i + 1 == chain.len() {
            build_target_into(h, "G_UADDLP", dst, &[sum]);
        } else {
            sum = build_target(h, "G_UADDLP", step, &[sum]);
        }
    }
    h.func.erase(inst);
    true
}

/// `legalizeCTTZ`: count leading zeros of the bit-reversed value.
pub fn cttz(h: &mut Helper<'_>, inst: Inst) -> bool {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let ty = h.func.ty(src);
    let reversed = h.build(Opcode::G_BITREVERSE, ty, &[src]);
    h.build_into(Opcode::G_CTLZ, dst, &[reversed]);
    h.func.erase(inst);
    true
}

/// `lowerAbsToCNeg`: `x > 0 ? x : 0 - x`.
pub fn abs_to_cneg(h: &mut Helper<'_>, inst: Inst) -> bool {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let ty = h.func.ty(src);
    let zero = h.builder().constant(ty, 0);
    let negated = h.build(Opcode::G_SUB, ty, &[zero, src]);
    let positive = h.builder().icmp(S1, IntPredicate::Sgt, src, zero);
    h.build_into(Opcode::G_SELECT, dst, &[positive, src, negated]);
    h.func.erase(inst);
    true
}

/// `legalizeICMP`: vector `ne` becomes `eq` and a not.
pub fn vector_icmp(h: &mut Helper<'_>, inst: Inst) -> bool {
    let (dst, lhs, rhs) = (h.reg(inst, 0), h.reg(inst, 2), h.reg(inst, 3));
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(lhs));
    if dst_ty.scalar_size_in_bits() != src_ty.scalar_size_in_bits()
        || dst_ty.num_elements() != src_ty.num_elements()
        || !matches!(dst_ty.size_in_bits(), 64 | 128)
    {
        return false;
    }
    if !matches!(h.func.inst(inst).operands[1], Operand::IntPred(IntPredicate::Ne)) {
        return true;
    }
    let equal = h.builder().icmp(dst_ty, IntPredicate::Eq, lhs, rhs);
    let all_ones = constant(h, dst_ty, -1);
    h.build_into(Opcode::G_XOR, dst, &[equal, all_ones]);
    h.func.erase(inst);
    true
}

/// `legalizeLoadStore` for vectors of pointers: the value travels as a
/// vector of `s64` (atomic `s128` accesses are not handled).
pub fn load_store(h: &mut Helper<'_>, inst: Inst) -> bool {
    let value = h.reg(inst, 0);
    let ty = h.func.ty(value);
    if !ty.is_pointer_vector() || ty.address_space() != 0 {
        return false;
    }
    let new_ty = ty.change_element_size(ty.scalar_size_in_bits());
    let pointer = h.reg(inst, 1);
    let Some(mut mem) = h.func.inst(inst).mem.first().cloned() else { return false };
    mem.size = MemSize::Type(new_ty);
    if h.func.inst(inst).known_opcode() == Some(Opcode::G_STORE) {
        let cast = h.build(Opcode::G_BITCAST, new_ty, &[value]);
        h.builder().store(cast, pointer, mem);
    } else {
        let loaded = h.builder().load(new_ty, pointer, mem);
        h.build_into(Opcode::G_BITCAST, value, &[loaded]);
    }
    h.func.erase(inst);
    true
}

/// `legalizeExtractVectorElt`: a constant index (or a scalable vector) is
/// fine as is; a variable one goes through a stack temporary, as the
/// generic lowering does.
pub fn extract_vector_elt(h: &mut Helper<'_>, inst: Inst) -> bool {
    let vector_ty = h.func.ty(h.reg(inst, 1));
    if constant_of(h, h.reg(inst, 2)).is_some() || vector_ty.is_scalable() {
        return true;
    }
    !matches!(h.lower(inst), StepResult::Unable(_))
}

/// `legalizeMemOps` with MOPS: the `G_MEMSET` value any-extended to `s64`.
pub fn memset(h: &mut Helper<'_>, inst: Inst) -> bool {
    h.widen_src(inst, 1, S64, Opcode::G_ANYEXT);
    h.mark_changed(inst);
    true
}

/// `legalizePrefetch`: `G_AARCH64_PREFETCH` with the PRFM operation encoded.
pub fn prefetch(h: &mut Helper<'_>, inst: Inst) -> bool {
    let data = h.func.inst(inst);
    let imm = |i: usize| match data.operands.get(i) {
        Some(Operand::Imm(v)) => Some(*v),
        _ => None,
    };
    let (Some(write), Some(locality), Some(is_data)) = (imm(1), imm(2), imm(3)) else { return false };
    let address = data.operands[0].clone();
    let stream = i64::from(locality == 0);
    let level = if locality == 0 { 0 } else { 3 - locality };
    let op = (write << 4) | (i64::from(is_data == 0) << 3) | (level << 1) | stream;
    let mut prefetch = target_inst(h, "G_AARCH64_PREFETCH");
    prefetch.operands.push(Operand::Imm(op));
    prefetch.operands.push(address);
    h.builder().insert(prefetch);
    h.func.erase(inst);
    true
}

/// `legalizeDynStackAlloc`: the generic lowering, moving `sp` down, but
/// in a function whose `"probe-stack"` attribute is `"inline-asm"`, where
/// `PROBED_STACKALLOC_DYN` moves it, touching each page on the way.
pub fn dyn_stack_alloc(h: &mut Helper<'_>, inst: Inst) -> bool {
    let probed = h.func.module.function(&h.func.name).and_then(|f| f.function.string("probe-stack"));
    if probed != Some("inline-asm") {
        return !matches!(h.lower(inst), StepResult::Unable(_));
    }
    let dst = h.reg(inst, 0);
    let Some(target) = h.dyn_stack_alloc_target(inst, "sp") else { return false };
    let class = h.func.names.intern("gpr64common");
    h.func.vreg_mut(target).class = Some(class);
    h.build_with(Opcode::COPY, &[dst], [Operand::vreg_use(target)]);
    let mut probe = InstData::new(InstOpcode::Target(h.func.names.intern("PROBED_STACKALLOC_DYN")));
    probe.operands.push(Operand::vreg_use(target));
    let (sp, nzcv) = (h.func.names.intern("sp"), h.func.names.intern("nzcv"));
    probe.operands.extend([Operand::implicit_def(sp), Operand::implicit_def(nzcv), Operand::implicit_use(sp)]);
    h.builder().insert(probe);
    h.func.erase(inst);
    true
}

/// `legalizeVaArg`: the AAPCS `va_list` of Darwin and of stack-only
/// arguments is a pointer to the next 8-byte slot. The pointer is loaded,
/// rounded up when the value is more aligned than a slot, the value loaded
/// from it, and the pointer advanced by the value's size in whole slots.
pub fn va_arg(h: &mut Helper<'_>, inst: Inst) -> bool {
    const SLOT: i128 = 8;
    let (dst, list) = (h.reg(inst, 0), h.reg(inst, 1));
    let Some(Operand::Imm(align)) = h.func.inst(inst).operands.get(2).cloned() else { return false };
    let align = i128::from(align);
    let value_ty = h.func.ty(dst);
    let mut head = h.builder().load(P0, list, MemOperand::new(MemFlags::LOAD, P0));
    if align > SLOT {
        let round_up = constant(h, S64, align - 1);
        let bumped = h.build(Opcode::G_PTR_ADD, P0, &[head, round_up]);
        let mask = constant(h, S64, -align);
        head = h.build(Opcode::G_PTRMASK, P0, &[bumped, mask]);
    }
    let mut value_mem = MemOperand::new(MemFlags::LOAD, value_ty);
    value_mem.base_align = align.max(SLOT) as u64;
    let load = h.build_with(Opcode::G_LOAD, &[dst], [Operand::vreg_use(head)]);
    h.func.modify(load, |data| data.mem.push(value_mem));
    let size = constant(h, S64, i128::from(value_ty.size_in_bytes().next_multiple_of(SLOT as u64)));
    let next = h.build(Opcode::G_PTR_ADD, P0, &[head, size]);
    h.builder().store(next, list, MemOperand::new(MemFlags::STORE, P0));
    h.func.erase(inst);
    true
}

/// `legalizeFptrunc`: doubles to halves in vectors go through floats
/// rounded to odd (`G_FPTRUNC_ODD`, two lanes at a time), so that the
/// second narrowing rounds once; four floats are narrowed together when
/// the lanes come in fours.
pub fn fptrunc(h: &mut Helper<'_>, inst: Inst) -> bool {
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let (dst_ty, src_ty) = (h.func.ty(dst), h.func.ty(src));
    let lanes = src_ty.num_elements();
    let v2s32 = Llt::fixed_vector(2, S32);
    let v4s32 = Llt::fixed_vector(4, S32);
    let halves = if lanes <= 2 { vec![src] } else { h.split_named(src, Llt::fixed_vector(2, S64), lanes as usize / 2) };
    let odd: Vec<VReg> = halves.iter().map(|half| build_target(h, "G_FPTRUNC_ODD", v2s32, &[*half])).collect();
    let pieces: Vec<VReg> = if lanes % 4 == 0 {
        odd.chunks(2)
            .map(|pair| {
                let floats = h.build(Opcode::G_CONCAT_VECTORS, v4s32, pair);
                h.build(Opcode::G_FPTRUNC, Llt::fixed_vector(4, Llt::scalar(16)), &[floats])
            })
            .collect()
    } else {
        odd.iter().map(|floats| h.build(Opcode::G_FPTRUNC, Llt::fixed_vector(2, Llt::scalar(16)), &[*floats])).collect()
    };
    let result = match pieces[..] {
        [only] => only,
        _ => h.build(Opcode::G_CONCAT_VECTORS, dst_ty, &pieces),
    };
    h.func.erase(inst);
    h.func.replace_all_uses(dst, result);
    true
}
