//! The Mips hooks: LLVM 22's `MipsLegalizerInfo::legalizeCustom` (scalar
//! loads and stores of odd sizes or unaligned on release 5 and earlier
//! split in two, in memory order on big-endian Mips where LLVM 22 keeps
//! little-endian order, `G_UITOFP` from 32 bits through the 2^52 trick), its
//! `legalizeIntrinsic` (`llvm.va_copy`, the MSA intrinsics with a generic
//! equivalent, and those selected at once as MSA instructions) and library
//! calls under the O32 ABI.

use gisel_core::ir::{FpConst, FpKind, Inst, InstData, InstOpcode, MemFlags, MemOperand, Operand, VReg};
use gisel_core::legality::{CustomOutcome, LegalizeStep};
use gisel_core::legalize::{BooleanContent, Helper, LegalizeTarget, LibcallRequest, piece_mem};
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;

use super::calls::Convention;
use super::subtarget::Subtarget;

/// The bits of 2^52 as a `double`, whose low word a 32-bit integer fills.
const TWO_POW_52: u64 = 0x4330_0000_0000_0000;

/// The Mips implementation of [`LegalizeTarget`].
#[derive(Clone, Debug)]
pub struct MipsHooks {
    st: Subtarget,
}

impl MipsHooks {
    /// The hooks for `st`.
    pub fn new(st: Subtarget) -> MipsHooks {
        MipsHooks { st }
    }
}

impl LegalizeTarget for MipsHooks {
    fn legalize_custom(&self, h: &mut Helper<'_>, inst: Inst, step: &LegalizeStep) -> CustomOutcome {
        let _ = step;
        let done = match h.func.inst(inst).known_opcode() {
            Some(Opcode::G_LOAD) => split_load(h, inst),
            Some(Opcode::G_STORE) => split_store(h, inst),
            Some(Opcode::G_UITOFP) => uitofp(h, inst),
            _ => false,
        };
        if done { CustomOutcome::Done } else { CustomOutcome::Failed }
    }

    /// `llvm.va_copy`, and with MSA the intrinsics LLVM 22 rewrites; every
    /// other intrinsic stays as it is. One whose operands do not fit its
    /// rewrite cannot be legalized.
    fn legalize_intrinsic(&self, h: &mut Helper<'_>, inst: Inst) -> CustomOutcome {
        let Some(call) = IntrinsicCall::of(h, inst) else { return CustomOutcome::Failed };
        let done = if &*call.name == "llvm.va_copy" {
            copy_va_list(h, inst, &call)
        } else if !self.st.has_msa() {
            true
        } else if let Some(opcode) = msa_generic(&call.name) {
            to_generic(h, inst, &call, opcode)
        } else if let Some((opcode, class)) = msa_selected(&call.name) {
            to_selected(h, inst, &call, opcode, class)
        } else {
            true
        };
        if done { CustomOutcome::Done } else { CustomOutcome::Failed }
    }

    fn emit_libcall(&self, h: &mut Helper<'_>, inst: Inst, call: &LibcallRequest) -> Result<(), String> {
        Convention::new(&self.st).emit(h, inst, call)
    }

    fn boolean_content(&self, vector: bool) -> BooleanContent {
        if vector { BooleanContent::ZeroOrNegativeOne } else { BooleanContent::ZeroOrOne }
    }

    /// Release 6's `cmp.cond.fmt` gives 0 or -1; integer booleans stay 0
    /// or 1.
    fn fp_boolean_content(&self, vector: bool) -> BooleanContent {
        if vector || self.st.has_mips32r6() { BooleanContent::ZeroOrNegativeOne } else { BooleanContent::ZeroOrOne }
    }

    /// Every misaligned access on release 6; 32- and 64-bit integer ones
    /// (`lwl`/`lwr` and their stores) before it.
    fn allows_misaligned_access(&self, ty: Llt, align: u64) -> bool {
        let _ = align;
        self.st.supports_unaligned_access() || (ty.is_scalar() && matches!(ty.size_in_bits(), 32 | 64))
    }

    fn is_big_endian(&self) -> bool {
        self.st.is_big_endian()
    }

    fn stack_pointer(&self) -> Option<&'static str> {
        Some("sp")
    }
}

/// The generic opcode an MSA intrinsic becomes (`MSA3OpIntrinsicToGeneric`
/// and `MSA2OpIntrinsicToGeneric`), if it has one.
fn msa_generic(name: &str) -> Option<Opcode> {
    let stem = name.strip_prefix("llvm.mips.")?;
    let (op, suffix) = stem.rsplit_once('.')?;
    let integer = matches!(suffix, "b" | "h" | "w" | "d");
    let float = matches!(suffix, "w" | "d");
    Some(match op {
        "addv" if integer => Opcode::G_ADD,
        "subv" if integer => Opcode::G_SUB,
        "mulv" if integer => Opcode::G_MUL,
        "div.s" if integer => Opcode::G_SDIV,
        "mod.s" if integer => Opcode::G_SREM,
        "div.u" if integer => Opcode::G_UDIV,
        "mod.u" if integer => Opcode::G_UREM,
        "fadd" if float => Opcode::G_FADD,
        "fsub" if float => Opcode::G_FSUB,
        "fmul" if float => Opcode::G_FMUL,
        "fdiv" if float => Opcode::G_FDIV,
        "fsqrt" if float => Opcode::G_FSQRT,
        _ => return None,
    })
}

/// The MSA instruction an intrinsic is selected as right away
/// (`SelectMSA3OpIntrinsic`), with the register class of its operands.
fn msa_selected(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name.strip_prefix("llvm.mips.")? {
        "addvi.b" => ("ADDVI_B", "msa128b"),
        "addvi.h" => ("ADDVI_H", "msa128h"),
        "addvi.w" => ("ADDVI_W", "msa128w"),
        "addvi.d" => ("ADDVI_D", "msa128d"),
        "subvi.b" => ("SUBVI_B", "msa128b"),
        "subvi.h" => ("SUBVI_H", "msa128h"),
        "subvi.w" => ("SUBVI_W", "msa128w"),
        "subvi.d" => ("SUBVI_D", "msa128d"),
        "fmax.a.w" => ("FMAX_A_W", "msa128w"),
        "fmax.a.d" => ("FMAX_A_D", "msa128d"),
        _ => return None,
    })
}

/// The intrinsic as machine instruction `opcode` on its result and two
/// operands (a register and a register or an immediate), every register
/// constrained to `class`.
fn to_selected(h: &mut Helper<'_>, inst: Inst, call: &IntrinsicCall, opcode: &str, class: &str) -> bool {
    let (Some(dst), [first, second]) = (call.result, &call.args[..]) else { return false };
    if !matches!(second, Operand::Imm(_)) && vreg_of(second).is_none() {
        return false;
    }
    let Some(first_reg) = vreg_of(first) else { return false };
    let mut selected = InstData::new(InstOpcode::Target(h.func.names.intern(opcode)));
    selected.num_defs = 1;
    selected.operands.extend([Operand::vreg_def(dst), first.clone(), second.clone()]);
    let class = h.func.names.intern(class);
    for reg in [Some(dst), Some(first_reg), vreg_of(second)].into_iter().flatten() {
        h.func.vreg_mut(reg).class = Some(class);
    }
    h.set_insert_before(inst);
    h.builder().insert(selected);
    h.func.erase(inst);
    true
}

/// The intrinsic as generic `opcode` on its result and register
/// operands (one for `G_FSQRT`, two otherwise).
fn to_generic(h: &mut Helper<'_>, inst: Inst, call: &IntrinsicCall, opcode: Opcode) -> bool {
    let arity = if opcode == Opcode::G_FSQRT { 1 } else { 2 };
    let sources: Option<Vec<VReg>> = call.args.iter().map(vreg_of).collect();
    let (Some(dst), Some(sources)) = (call.result, sources) else { return false };
    if sources.len() != arity {
        return false;
    }
    h.set_insert_before(inst);
    h.build_into(opcode, dst, &sources);
    h.func.erase(inst);
    true
}

/// `llvm.va_copy`: the `va_list` pointer loaded and stored, 4-aligned.
fn copy_va_list(h: &mut Helper<'_>, inst: Inst, call: &IntrinsicCall) -> bool {
    let (None, [dst, src]) = (call.result, &call.args[..]) else { return false };
    let (Some(dst), Some(src)) = (vreg_of(dst), vreg_of(src)) else { return false };
    let pointer_ty = Llt::pointer(0, 32);
    h.set_insert_before(inst);
    let load_mem = MemOperand { base_align: 4, ..MemOperand::new(MemFlags::LOAD, pointer_ty) };
    let list = h.builder().load(pointer_ty, src, load_mem);
    let store_mem = MemOperand { base_align: 4, ..MemOperand::new(MemFlags::STORE, pointer_ty) };
    h.builder().store(list, dst, store_mem);
    h.func.erase(inst);
    true
}

/// The parts of a `G_INTRINSIC*` instruction.
struct IntrinsicCall {
    /// The intrinsic's name (`llvm.mips.addv.w`).
    name: Box<str>,
    /// The one virtual register it defines, if it defines exactly that.
    result: Option<VReg>,
    /// The operands after the intrinsic's name.
    args: Vec<Operand>,
}

impl IntrinsicCall {
    /// The parts of `inst`, `None` when it names no intrinsic.
    fn of(h: &Helper<'_>, inst: Inst) -> Option<IntrinsicCall> {
        let data = h.func.inst(inst);
        let position = data.operands.iter().position(|op| matches!(op, Operand::Intrinsic(_)))?;
        let Operand::Intrinsic(name) = &data.operands[position] else { return None };
        let result = match &data.operands[..position] {
            [def] => vreg_of(def),
            _ => None,
        };
        Some(IntrinsicCall { name: name.clone(), result, args: data.operands[position + 1..].to_vec() })
    }
}

/// The virtual register of a register operand.
fn vreg_of(operand: &Operand) -> Option<VReg> {
    match operand {
        Operand::Reg(r) => r.vreg(),
        _ => None,
    }
}

/// The two sizes in bytes a `size`-byte access splits into: halves of a
/// power of two, otherwise the largest power of two below it and the rest.
fn split_sizes(size: u64) -> (u64, u64) {
    if size.is_power_of_two() {
        (size / 2, size / 2)
    } else {
        let first = 1 << size.ilog2();
        (first, size - first)
    }
}

/// The memory operand and its size in bytes, for a scalar access of at
/// most 8 bytes.
fn access(h: &Helper<'_>, inst: Inst) -> Option<(MemOperand, u64)> {
    let mem = h.func.inst(inst).mem.first()?.clone();
    let bytes = mem.memory_type()?.size_in_bytes();
    (bytes <= 8).then_some((mem, bytes))
}

/// `base + offset` with a plain `G_PTR_ADD`.
fn address(h: &mut Helper<'_>, base: VReg, offset: u64) -> VReg {
    let offset = h.builder().constant(Llt::scalar(32), i128::from(offset));
    h.build(Opcode::G_PTR_ADD, h.func.ty(base), &[base, offset])
}

/// `value >> at` as a 32-bit value; `value` itself when `at` is 0.
fn shifted_right(h: &mut Helper<'_>, value: VReg, at: u64) -> VReg {
    if at == 0 {
        return value;
    }
    let s32 = Llt::scalar(32);
    let amount = h.builder().constant(s32, i128::from(at));
    h.build(Opcode::G_LSHR, s32, &[value, amount])
}

/// The 32 bits from bit `at` of the 64-bit value whose low and high words
/// are `words`.
fn word_at(h: &mut Helper<'_>, words: &[VReg], at: u64) -> VReg {
    if at.is_multiple_of(32) {
        return words[(at / 32) as usize];
    }
    let s32 = Llt::scalar(32);
    let low = shifted_right(h, words[0], at);
    let amount = h.builder().constant(s32, i128::from(32 - at));
    let high = h.build(Opcode::G_SHL, s32, &[words[1], amount]);
    h.build(Opcode::G_OR, s32, &[low, high])
}

/// The bits of the value at which the piece at the address and the piece
/// after it start, for `first` and `rest` bytes: little-endian memory
/// holds the low bits first, big-endian memory the high bits.
fn piece_bits(h: &Helper<'_>, first: u64, rest: u64) -> (u64, u64) {
    if h.target.is_big_endian() { (8 * rest, 0) } else { (0, 8 * first) }
}

/// A store split in two, the larger piece at the address and the rest
/// after it, each holding the value's bits that memory order puts there:
/// up to 4 bytes, pieces of the value (any-extended to 32 bits); 5 to 8
/// bytes, pieces of its two words (the value any-extended to 64 bits).
fn split_store(h: &mut Helper<'_>, inst: Inst) -> bool {
    let s32 = Llt::scalar(32);
    let Some((mem, bytes)) = access(h, inst) else { return false };
    let (mut value, base) = (h.reg(inst, 0), h.reg(inst, 1));
    let bits = h.func.ty(value).size_in_bits();
    if bits > 64 {
        return false;
    }
    let (first, rest) = split_sizes(bytes);
    let (first_at, rest_at) = piece_bits(h, first, rest);
    h.set_insert_before(inst);
    if bits < 32 {
        value = h.build(Opcode::G_ANYEXT, s32, &[value]);
    } else if bits > 32 && bits < 64 {
        value = h.build(Opcode::G_ANYEXT, Llt::scalar(64), &[value]);
    }
    let second_address = address(h, base, first);
    let first_mem = piece_mem(&mem, 0, Llt::scalar(8 * first as u32));
    let rest_mem = piece_mem(&mem, first, Llt::scalar(8 * rest as u32));
    if bytes <= 4 {
        let first_piece = shifted_right(h, value, first_at);
        h.builder().store(first_piece, base, first_mem);
        let rest_piece = shifted_right(h, value, rest_at);
        h.builder().store(rest_piece, second_address, rest_mem);
    } else {
        let words = h.split(value, s32, 2);
        let first_piece = word_at(h, &words, first_at);
        h.builder().store(first_piece, base, first_mem);
        let rest_piece = word_at(h, &words, rest_at);
        h.builder().store(rest_piece, second_address, rest_mem);
    }
    h.func.erase(inst);
    true
}

/// A load split in two: up to 4 bytes, one 4-byte load
/// ([`load_from_word`]); 5 to 8 bytes, a word load and a load of the rest
/// after it ([`load_two_words`]).
fn split_load(h: &mut Helper<'_>, inst: Inst) -> bool {
    let Some((mem, bytes)) = access(h, inst) else { return false };
    let (dst, base) = (h.reg(inst, 0), h.reg(inst, 1));
    if h.func.ty(dst).size_in_bits() > 64 {
        return false;
    }
    h.set_insert_before(inst);
    if bytes <= 4 {
        load_from_word(h, dst, base, &mem, bytes);
    } else {
        load_two_words(h, dst, base, &mem, bytes);
    }
    h.func.erase(inst);
    true
}

/// `dst` loaded from `bytes` (at most 4) bytes at `base` through one
/// 4-byte load (`lwl`/`lwr`) whose first bytes are the value: the word's
/// low end on little-endian Mips, its high end (shifted down) on
/// big-endian Mips; truncated when `dst` is narrower.
fn load_from_word(h: &mut Helper<'_>, dst: VReg, base: VReg, mem: &MemOperand, bytes: u64) {
    let s32 = Llt::scalar(32);
    let word_mem = piece_mem(mem, 0, s32);
    let at = if h.target.is_big_endian() { 32 - 8 * bytes } else { 0 };
    let word_sized = h.func.ty(dst).size_in_bits() == 32;
    if word_sized && at == 0 {
        let load = h.build_with(Opcode::G_LOAD, &[dst], [Operand::vreg_use(base)]);
        h.func.modify(load, |d| d.mem.push(word_mem));
        return;
    }
    let word = h.builder().load(s32, base, word_mem);
    if word_sized {
        let amount = h.builder().constant(s32, i128::from(at));
        h.build_into(Opcode::G_LSHR, dst, &[word, amount]);
    } else {
        let value = shifted_right(h, word, at);
        h.build_into(Opcode::G_TRUNC, dst, &[value]);
    }
}

/// `dst` loaded from `bytes` (5 to 8) bytes at `base`: the word at the
/// address and the rest after it, as the two words of the value in the
/// target's byte order, merged (and truncated).
fn load_two_words(h: &mut Helper<'_>, dst: VReg, base: VReg, mem: &MemOperand, bytes: u64) {
    let s32 = Llt::scalar(32);
    let (first, rest) = split_sizes(bytes);
    let second_address = address(h, base, first);
    let first_word = h.builder().load(s32, base, piece_mem(mem, 0, Llt::scalar(8 * first as u32)));
    let rest_word = h.builder().load(s32, second_address, piece_mem(mem, first, Llt::scalar(8 * rest as u32)));
    let words = if h.target.is_big_endian() {
        big_endian_words(h, first_word, rest_word, rest)
    } else {
        [first_word, rest_word]
    };
    if h.func.ty(dst).size_in_bits() == 64 {
        h.build_into(Opcode::G_MERGE_VALUES, dst, &words);
    } else {
        let merged = h.build(Opcode::G_MERGE_VALUES, Llt::scalar(64), &words);
        h.build_into(Opcode::G_TRUNC, dst, &[merged]);
    }
}

/// The low and high words of a value of 4 + `rest` bytes read from
/// big-endian memory as `first` (the word at its address: the value's
/// bits from `8 * rest` up) and `rest_part` (the `rest` bytes after it,
/// any-extended: its low bits).
fn big_endian_words(h: &mut Helper<'_>, first: VReg, rest_part: VReg, rest: u64) -> [VReg; 2] {
    if rest == 4 {
        return [rest_part, first];
    }
    let s32 = Llt::scalar(32);
    let rest_bits = 8 * rest;
    let mask = h.builder().constant(s32, (1i128 << rest_bits) - 1);
    let low_bits = h.build(Opcode::G_AND, s32, &[rest_part, mask]);
    let amount = h.builder().constant(s32, i128::from(rest_bits));
    let shifted = h.build(Opcode::G_SHL, s32, &[first, amount]);
    let low = h.build(Opcode::G_OR, s32, &[shifted, low_bits]);
    [low, shifted_right(h, first, 32 - rest_bits)]
}

/// `G_UITOFP` of a 32-bit integer: the double with high word 0x43300000
/// and the integer as its low word is 2^52 + x; subtracting 2^52 leaves x
/// (then truncated to `float` for a 32-bit result).
fn uitofp(h: &mut Helper<'_>, inst: Inst) -> bool {
    let (s32, s64) = (Llt::scalar(32), Llt::scalar(64));
    let (dst, src) = (h.reg(inst, 0), h.reg(inst, 1));
    let dst_ty = h.func.ty(dst);
    if h.func.ty(src) != s32 || (dst_ty != s32 && dst_ty != s64) {
        return false;
    }
    h.set_insert_before(inst);
    let high = h.builder().constant(s32, 0x4330_0000);
    let biased = h.build(Opcode::G_MERGE_VALUES, s64, &[src, high]);
    let constant = FpConst { kind: FpKind::Double, bits: u128::from(TWO_POW_52) };
    let two_pow_52 = h.builder().build(Opcode::G_FCONSTANT, &[s64], [Operand::fpimm(constant)]).1[0];
    if dst_ty == s64 {
        h.build_into(Opcode::G_FSUB, dst, &[biased, two_pow_52]);
    } else {
        let wide = h.build(Opcode::G_FSUB, s64, &[biased, two_pow_52]);
        h.build_into(Opcode::G_FPTRUNC, dst, &[wide]);
    }
    h.func.erase(inst);
    true
}
