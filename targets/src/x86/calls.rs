//! Library calls as LLVM 22's `X86CallLowering::lowerCall` makes them on
//! Linux: the System V x86-64 convention (integers in `rdi`, `rsi`, `rdx`,
//! `rcx`, `r8`, `r9`; `half`/`float`/`double`/`fp128` in `xmm0`-`xmm7`;
//! `x86_fp80` on the stack) and the i386 one (every argument on the
//! stack). Integers come back in `eax`/`rax` (and `edx`/`rdx`), SSE values
//! in `xmm0`, x87 values (every float on i386) in `fp0`.
//!
//! The sequence: `ADJCALLSTACKDOWN` with the stack size, the stores of
//! stack arguments (each at `COPY $esp` plus its offset), the copies into
//! argument registers, the call, the copies out of the result registers,
//! `ADJCALLSTACKUP`.

use gisel_core::ir::{Inst, InstData, InstOpcode, MemFlags, MemOperand, Operand, Reg, RegOperand, Symbol, VReg};
use gisel_core::legalize::{Helper, LibcallRequest, LibcallValue};
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;

use super::subtarget::Feature::Sse2;
use super::subtarget::Subtarget;

/// The x86-64 integer argument registers, as (32-bit, 64-bit) names.
const INT_ARGS: [(&str, &str); 6] =
    [("edi", "rdi"), ("esi", "rsi"), ("edx", "rdx"), ("ecx", "rcx"), ("r8d", "r8"), ("r9d", "r9")];
/// The x86-64 vector argument registers.
const XMM_ARGS: [&str; 8] = ["xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7"];

/// Where one piece of an argument goes.
enum Place {
    /// A physical register.
    Register(&'static str),
    /// The outgoing stack area, at this offset in bytes.
    Stack(u64),
}

/// One piece of an argument: its value (before any extension), the type
/// it travels as, and where it goes.
struct Piece {
    value: VReg,
    ty: Llt,
    extend: Option<Opcode>,
    place: Place,
}

/// The instruction names and registers of one mode.
struct Mode {
    setup: &'static str,
    destroy: &'static str,
    call: &'static str,
    mask: &'static str,
    stack_pointer: &'static str,
}

const MODE_64: Mode = Mode {
    setup: "ADJCALLSTACKDOWN64",
    destroy: "ADJCALLSTACKUP64",
    call: "CALL64pcrel32",
    mask: "csr_64",
    stack_pointer: "rsp",
};
const MODE_32: Mode = Mode {
    setup: "ADJCALLSTACKDOWN32",
    destroy: "ADJCALLSTACKUP32",
    call: "CALLpcrel32",
    mask: "csr_32",
    stack_pointer: "esp",
};

/// Emits the call of `request` before `inst` (which the caller erases).
/// Fails for what LLVM 22's call lowering refuses (a triple other than
/// Linux) and for what this one does not do yet (arguments beyond the
/// registers on x86-64, results in memory).
pub(super) fn emit(h: &mut Helper<'_>, inst: Inst, request: &LibcallRequest, st: &Subtarget) -> Result<(), String> {
    if !st.is_linux() {
        return Err(format!("X86 calls '{}' only on Linux (as LLVM 22's call lowering)", request.symbol));
    }
    let mode = if st.is_64bit() { &MODE_64 } else { &MODE_32 };
    let results = request.results.iter().map(|r| result_registers(r, st)).collect::<Result<Vec<_>, _>>()?;
    h.set_insert_before(inst);
    let setup = frame_pseudo(h, mode, mode.setup, true);
    let (pieces, stack_size) = assign_arguments(h, request, st, mode)?;
    h.func.modify(setup, |data| data.operands[0] = Operand::Imm(stack_size as i64));
    let mut used = Vec::new();
    for piece in pieces.iter() {
        let Place::Register(name) = piece.place else { continue };
        let value = extend(h, piece);
        h.builder().copy_to_physical(name, value);
        used.push(h.func.names.intern(name));
    }
    let defined: Vec<Symbol> = results.iter().flatten().map(|(name, _)| h.func.names.intern(name)).collect();
    let call = call_inst(h, mode, &request.symbol, &used, &defined);
    h.builder().insert(call);
    for (result, registers) in request.results.iter().zip(results) {
        copy_result(h, result, &registers);
    }
    let destroy = frame_pseudo(h, mode, mode.destroy, false);
    h.func.modify(destroy, |data| data.operands[0] = Operand::Imm(stack_size as i64));
    Ok(())
}

/// Splits every argument into pieces and assigns them, on x86-64 to
/// registers while they last (`x86_fp80` always on the stack), on i386
/// all to the stack, each slot aligned to its size up to the stack's slot
/// alignment. Stack pieces are stored as each argument is split (as call
/// lowering does); the pieces are returned, with the stack size, for the
/// register copies made after all of them.
fn assign_arguments(
    h: &mut Helper<'_>,
    request: &LibcallRequest,
    st: &Subtarget,
    mode: &Mode,
) -> Result<(Vec<Piece>, u64), String> {
    let mut pieces = Vec::new();
    let mut stored = 0;
    let (mut next_int, mut next_xmm, mut stack) = (0usize, 0usize, 0u64);
    // Each slot raises the frame's alignment to its own (`AllocateStack`).
    let mut frame_align = 0;
    let mut on_stack = |size: u64, align: u64| {
        frame_align = frame_align.max(align);
        let offset = stack.next_multiple_of(align);
        stack = offset + size;
        Place::Stack(offset)
    };
    // With SSE2 `half` is a type of its own (in an SSE register or a
    // 4-byte stack slot); without, it travels as an integer.
    let half_in_sse = st.has(Sse2);
    for arg in &request.args {
        let bits = arg.ty.size_in_bits();
        if st.is_64bit() {
            if arg.float && matches!(bits, 16 | 32 | 64 | 128) {
                let name = XMM_ARGS.get(next_xmm).ok_or("X86: more float arguments than registers")?;
                next_xmm += 1;
                pieces.push(Piece { value: arg.reg, ty: arg.ty, extend: None, place: Place::Register(name) });
            } else if arg.float && bits == 80 {
                pieces.push(Piece { value: arg.reg, ty: arg.ty, extend: None, place: on_stack(16, 16) });
            } else {
                for (value, ty, extend) in integer_pieces(h, arg, 64) {
                    let (narrow, wide) = INT_ARGS.get(next_int).ok_or("X86: more integer arguments than registers")?;
                    next_int += 1;
                    let name = if ty.size_in_bits() == 64 { wide } else { narrow };
                    pieces.push(Piece { value, ty, extend, place: Place::Register(name) });
                }
            }
        } else if arg.float && (bits > 16 || half_in_sse) {
            let size = if bits == 80 { 12 } else { (bits / 8).max(4) };
            let align = if bits == 128 { 16 } else { 4 };
            pieces.push(Piece { value: arg.reg, ty: arg.ty, extend: None, place: on_stack(size, align) });
        } else {
            for (value, ty, extend) in integer_pieces(h, arg, 32) {
                pieces.push(Piece { value, ty, extend, place: on_stack(4, 4) });
            }
        }
        for piece in &pieces[stored..] {
            store_to_stack(h, piece, st, mode);
        }
        stored = pieces.len();
    }
    h.func.frame.ensure_max_alignment(frame_align);
    Ok((pieces, stack))
}

/// Stores `piece` to its stack slot, at the stack pointer plus its offset
/// (nothing for a register piece).
fn store_to_stack(h: &mut Helper<'_>, piece: &Piece, st: &Subtarget, mode: &Mode) {
    let Place::Stack(offset) = piece.place else { return };
    let pointer_ty = Llt::pointer(0, st.pointer_bits());
    let base = h.builder().copy_from_physical(pointer_ty, mode.stack_pointer);
    let offset_reg = h.builder().constant(Llt::scalar(st.pointer_bits()), i128::from(offset));
    let address = h.build(Opcode::G_PTR_ADD, pointer_ty, &[base, offset_reg]);
    let value = extend(h, piece);
    // The slot holds the location's value type: a pointer as an integer.
    let memory_ty = if piece.ty.is_pointer() { Llt::scalar(st.pointer_bits()) } else { piece.ty };
    let mem = MemOperand {
        pointer: Some("stack".into()),
        offset: offset as i64,
        base_align: 1,
        ..MemOperand::new(MemFlags::STORE, memory_ty)
    };
    h.builder().store(value, address, mem);
}

/// An integer (or pointer, or `half` without SSE2) argument as register-sized
/// pieces: narrower than 32 bits, one piece extended to 32; wider than a
/// register, split into `register_bits` pieces.
fn integer_pieces(h: &mut Helper<'_>, arg: &LibcallValue, register_bits: u64) -> Vec<(VReg, Llt, Option<Opcode>)> {
    let bits = arg.ty.size_in_bits();
    if bits < 32 {
        let ext = if arg.float || arg.any_extend {
            Opcode::G_ANYEXT
        } else if arg.signed {
            Opcode::G_SEXT
        } else {
            Opcode::G_ZEXT
        };
        return vec![(arg.reg, Llt::scalar(32), Some(ext))];
    }
    if bits <= register_bits {
        return vec![(arg.reg, arg.ty, None)];
    }
    let count = bits.div_ceil(register_bits) as usize;
    let piece = Llt::scalar(register_bits as u32);
    h.split_named(arg.reg, piece, count).into_iter().map(|v| (v, piece, None)).collect()
}

/// The piece's value, extended to the type it travels as when needed.
fn extend(h: &mut Helper<'_>, piece: &Piece) -> VReg {
    match piece.extend {
        Some(ext) => h.build(ext, piece.ty, &[piece.value]),
        None => piece.value,
    }
}

/// The registers a result comes back in, each with the type copied out
/// of it.
fn result_registers(result: &LibcallValue, st: &Subtarget) -> Result<Vec<(&'static str, Llt)>, String> {
    let bits = result.ty.size_in_bits();
    let ty = result.ty;
    let registers = match (result.float, bits, st.is_64bit()) {
        (true, 16 | 32 | 64 | 128, true) => vec![("xmm0", ty)],
        (true, 16, false) if st.has(Sse2) => vec![("xmm0", ty)],
        (true, 80, _) | (true, 32 | 64, false) => vec![("fp0", ty)],
        (_, 8, _) => vec![("al", ty)],
        (_, 16, _) => vec![("ax", ty)],
        (_, 32, _) => vec![("eax", ty)],
        (false, 64, true) => vec![("rax", ty)],
        (false, 64, false) => vec![("eax", Llt::scalar(32)), ("edx", Llt::scalar(32))],
        (false, 128, true) => vec![("rax", Llt::scalar(64)), ("rdx", Llt::scalar(64))],
        _ => return Err(format!("X86: a {bits}-bit result is returned in memory, which is not implemented")),
    };
    Ok(registers)
}

/// Copies a result out of its registers (merging two halves).
fn copy_result(h: &mut Helper<'_>, result: &LibcallValue, registers: &[(&'static str, Llt)]) {
    if let [(name, _)] = registers {
        let reg = Reg::Physical(h.func.names.intern(name));
        let mut copy = InstData::new(InstOpcode::Known(Opcode::COPY));
        copy.num_defs = 1;
        copy.operands.push(Operand::vreg_def(result.reg));
        copy.operands.push(Operand::Reg(RegOperand::use_of(reg)));
        h.builder().insert(copy);
        return;
    }
    let parts: Vec<VReg> = registers.iter().map(|(name, ty)| h.builder().copy_from_physical(*ty, name)).collect();
    h.build_into(Opcode::G_MERGE_VALUES, result.reg, &parts);
}

/// `ADJCALLSTACKDOWN* 0, 0, 0` (or `ADJCALLSTACKUP* 0, 0`) with the
/// pseudo's implicit operands: it defines the stack pointer, the flags
/// and the shadow stack pointer, and reads both stack pointers.
fn frame_pseudo(h: &mut Helper<'_>, mode: &Mode, name: &str, setup: bool) -> Inst {
    let opcode = h.func.names.intern(name);
    let mut data = InstData::new(InstOpcode::Target(opcode));
    let immediates = if setup { 3 } else { 2 };
    data.operands.extend((0..immediates).map(|_| Operand::Imm(0)));
    let (sp, flags, ssp) =
        (h.func.names.intern(mode.stack_pointer), h.func.names.intern("eflags"), h.func.names.intern("ssp"));
    data.operands.extend([Operand::implicit_def(sp), Operand::implicit_def(flags), Operand::implicit_def(ssp)]);
    data.operands.extend([Operand::implicit_use(sp), Operand::implicit_use(ssp)]);
    h.builder().insert(data)
}

/// `CALL* &symbol, mask, implicit $sp, implicit $ssp, implicit <args>,
/// implicit-def <results>`.
fn call_inst(h: &mut Helper<'_>, mode: &Mode, symbol: &str, args: &[Symbol], results: &[Symbol]) -> InstData {
    let opcode = h.func.names.intern(mode.call);
    let mut data = InstData::new(InstOpcode::Target(opcode));
    data.operands.push(Operand::external_symbol(symbol, 0));
    data.operands.push(Operand::RegMask(h.func.names.intern(mode.mask)));
    data.operands.push(Operand::implicit_use(h.func.names.intern(mode.stack_pointer)));
    data.operands.push(Operand::implicit_use(h.func.names.intern("ssp")));
    data.operands.extend(args.iter().map(|r| Operand::implicit_use(*r)));
    data.operands.extend(results.iter().map(|r| Operand::implicit_def(*r)));
    data
}
