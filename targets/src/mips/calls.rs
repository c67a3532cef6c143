//! Library calls under the O32 ABI, as LLVM 22's Mips call lowering emits
//! them: `ADJCALLSTACKDOWN <size>, 0`, the argument copies, `JAL &f,
//! csr_o32, implicit-def $ra, implicit-def $sp, <uses>, <defs>`, the result
//! copies, then `ADJCALLSTACKUP <size>, 0`. The outgoing area always holds
//! the 16 bytes the callee may spill `a0`-`a3` to, and its size is rounded
//! to the 8-byte stack alignment.
//!
//! Integers and pointers take `a0`-`a3` one 32-bit piece at a time (a
//! libcall's 64-bit integer carries no 8-byte alignment into LLVM's
//! assignment, so no even pair is forced), then 4-byte stack slots from
//! offset 16. With hard float, the first two arguments go in `f12`/`f14`
//! (`float`) or `d6`/`d7` (`double`; `d12_64`/`d14_64` with 64-bit FPU
//! registers) when every argument before them is floating-point too,
//! shadowing the integer registers they stand for; any other `double`
//! takes an even-odd integer pair, copied without implicit uses on the
//! call as LLVM's custom assignment does, or 8 bytes of stack. Without
//! floating point (`soft-float`), and for `double` with a single-precision
//! FPU (`single-float`), values travel as integers. Results
//! come back in `v0`/`v1` (`f0`, or `d0`/`d0_64`, for floating point). On
//! big-endian targets the high half of a two-register value goes in the
//! first register.

use gisel_core::ir::{Inst, InstData, InstOpcode, MemFlags, MemOperand, Operand, Reg, RegOperand, Symbol, VReg};
use gisel_core::legalize::{Helper, LibcallRequest, LibcallValue};
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;

use super::subtarget::Subtarget;

const INT_ARGS: [&str; 4] = ["a0", "a1", "a2", "a3"];
const INT_RESULTS: [&str; 4] = ["v0", "v1", "a0", "a1"];
/// The area reserved for the callee to save `a0`-`a3`.
const RESERVED_AREA: u64 = 16;
/// The O32 stack alignment.
const STACK_ALIGN: u64 = 8;

/// How a call is made on one subtarget.
#[derive(Clone, Copy, Debug)]
pub struct Convention {
    /// Floating-point values travel in FPU registers.
    hard_float: bool,
    /// Only `float` does (single-float FPU): a `double` is two integers.
    single_float: bool,
    /// 64-bit FPU registers (`d12_64` rather than `d6`).
    fp64: bool,
    /// The high half of a two-register value goes in the first register.
    big_endian: bool,
    /// The call's register mask.
    mask: &'static str,
}

/// Where one 32-bit piece (or one FPU value) of an argument travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// In a register.
    Register(&'static str),
    /// In the outgoing stack area, at this offset in bytes.
    Stack(u64),
}

/// What an argument becomes.
enum Assigned {
    /// Its pieces (low first), each in its place.
    Pieces(Vec<Place>),
    /// A `double` in an integer pair: unmerged, copied without implicit
    /// uses (LLVM's `assignCustomValue`).
    CustomPair(&'static str, &'static str),
}

/// The O32 argument registers and stack handed out so far.
struct Allocation {
    next_int: usize,
    /// `f12` and `f14` in use (also through `d6`/`d7`).
    fpu_used: [bool; 2],
    stack: u64,
}

impl Allocation {
    fn new() -> Allocation {
        Allocation { next_int: 0, fpu_used: [false; 2], stack: RESERVED_AREA }
    }

    fn take_int(&mut self) -> Option<&'static str> {
        let reg = INT_ARGS.get(self.next_int).copied();
        self.next_int = (self.next_int + 1).min(INT_ARGS.len());
        reg
    }

    fn take_stack(&mut self, bytes: u64) -> Place {
        let offset = self.stack;
        self.stack += bytes;
        Place::Stack(offset)
    }

    /// The index of the first free one of `f12` and `f14` (2 when both
    /// are taken).
    fn first_free_fpu(&self) -> usize {
        self.fpu_used.iter().position(|used| !used).unwrap_or(2)
    }
}

impl Convention {
    /// The convention of `st`.
    pub fn new(st: &Subtarget) -> Convention {
        Convention {
            hard_float: !st.use_soft_float(),
            single_float: st.is_single_float(),
            fp64: st.is_fp64(),
            big_endian: st.is_big_endian(),
            mask: st.call_preserved_mask(),
        }
    }

    /// Whether `value` travels as a floating-point value.
    fn in_fpu(&self, value: &LibcallValue) -> bool {
        let bits = value.ty.size_in_bits();
        self.hard_float && value.float && (bits == 32 || (bits == 64 && !self.single_float))
    }

    /// Assigns argument number `index` (LLVM's `CC_MipsO32`).
    fn assign(&self, alloc: &mut Allocation, index: usize, arg: &LibcallValue) -> Assigned {
        let bits = arg.ty.size_in_bits() as u32;
        if self.in_fpu(arg) {
            let in_int = index > 1 || alloc.first_free_fpu() != index;
            if !in_int {
                let slot = alloc.first_free_fpu();
                alloc.fpu_used[slot] = true;
                if bits == 32 {
                    alloc.take_int();
                    return Assigned::Pieces(vec![Place::Register(["f12", "f14"][slot])]);
                }
                let shadow = alloc.take_int();
                if matches!(shadow, Some("a1" | "a3")) {
                    alloc.take_int();
                }
                alloc.take_int();
                let names = if self.fp64 { ["d12_64", "d14_64"] } else { ["d6", "d7"] };
                return Assigned::Pieces(vec![Place::Register(names[slot])]);
            }
            if bits == 64 {
                let mut reg = alloc.take_int();
                if matches!(reg, Some("a1" | "a3")) {
                    reg = alloc.take_int();
                }
                return match (reg, alloc.take_int()) {
                    (Some(low), Some(high)) => Assigned::CustomPair(low, high),
                    _ => Assigned::Pieces(vec![alloc.take_stack(8)]),
                };
            }
        }
        let pieces = bits.div_ceil(32).max(1);
        Assigned::Pieces(
            (0..pieces)
                .map(|_| match alloc.take_int() {
                    Some(reg) => Place::Register(reg),
                    None => alloc.take_stack(4),
                })
                .collect(),
        )
    }

    /// The result registers of `result`, given those already taken.
    fn result_registers(&self, result: &LibcallValue, next_int: &mut usize) -> Result<Vec<&'static str>, String> {
        let bits = result.ty.size_in_bits() as u32;
        if self.in_fpu(result) {
            return Ok(vec![match (bits, self.fp64) {
                (32, _) => "f0",
                (_, true) => "d0_64",
                (_, false) => "d0",
            }]);
        }
        let count = bits.div_ceil(32).max(1) as usize;
        let regs = INT_RESULTS
            .get(*next_int..*next_int + count)
            .ok_or_else(|| format!("a {bits}-bit result does not fit the result registers"))?;
        *next_int += count;
        Ok(self.ordered(regs.to_vec()))
    }

    /// Emits the call of `request` before `inst` (which the caller erases).
    pub fn emit(&self, h: &mut Helper<'_>, inst: Inst, request: &LibcallRequest) -> Result<(), String> {
        let s32 = Llt::scalar(32);
        h.set_insert_before(inst);
        let setup = frame_pseudo(h, "ADJCALLSTACKDOWN", 0);
        let setup = h.builder().insert(setup);
        let mut alloc = Allocation::new();
        // Pieces are made and stack arguments stored as each argument is
        // assigned; the register copies come after all of them.
        let mut copies: Vec<(&'static str, VReg, bool)> = Vec::new();
        for (index, arg) in request.args.iter().enumerate() {
            match self.assign(&mut alloc, index, arg) {
                Assigned::CustomPair(low, high) => {
                    let halves = self.ordered(h.split_named(arg.reg, s32, 2));
                    copies.push((low, halves[0], false));
                    copies.push((high, halves[1], false));
                }
                Assigned::Pieces(places) => {
                    let values = self.pieces(h, arg, places.len());
                    for (value, place) in values.into_iter().zip(self.ordered(places)) {
                        match place {
                            Place::Register(reg) => copies.push((reg, value, true)),
                            Place::Stack(offset) => store_to_stack(h, value, offset),
                        }
                    }
                }
            }
        }
        let mut uses = Vec::new();
        for (reg, value, used) in copies {
            h.builder().copy_to_physical(reg, value);
            if used {
                uses.push(h.func.names.intern(reg));
            }
        }
        let stack_size = alloc.stack.next_multiple_of(STACK_ALIGN) as i64;
        h.func.modify(setup, |data| data.operands[0] = Operand::Imm(stack_size));
        let mut next_int = 0;
        let mut results = Vec::new();
        for result in &request.results {
            let regs = self.result_registers(result, &mut next_int)?;
            results.push((result, regs));
        }
        let call = self.call(h, &request.symbol, &uses, &results);
        h.builder().insert(call);
        for (result, regs) in results {
            let bits = result.ty.size_in_bits() as u32;
            let direct = regs.len() == 1 && (bits >= 32 || self.in_fpu(result));
            let values: Vec<VReg> = regs
                .iter()
                .map(|reg| {
                    let ty = if direct { result.ty } else { s32 };
                    let value = if direct { result.reg } else { h.func.new_vreg(ty) };
                    let mut copy = InstData::new(InstOpcode::Known(Opcode::COPY));
                    copy.num_defs = 1;
                    copy.operands.push(Operand::vreg_def(value));
                    copy.operands.push(Operand::Reg(RegOperand::use_of(Reg::Physical(h.func.names.intern(reg)))));
                    h.builder().insert(copy);
                    value
                })
                .collect();
            // The registers are in register order already: the copies
            // come out low half first.
            if values.len() > 1 {
                h.build_into(Opcode::G_MERGE_VALUES, result.reg, &values);
            } else if !direct {
                h.build_into(Opcode::G_TRUNC, result.reg, &values);
            }
        }
        let destroy = frame_pseudo(h, "ADJCALLSTACKUP", stack_size);
        h.builder().insert(destroy);
        Ok(())
    }

    /// The 32-bit pieces of `arg` (low first), or the value itself when it
    /// travels whole; a narrower integer is extended as its flags say, into
    /// a register made beforehand as LLVM's call lowering makes it (so CSE
    /// copies an equal extension into it rather than sharing it).
    fn pieces(&self, h: &mut Helper<'_>, arg: &LibcallValue, count: usize) -> Vec<VReg> {
        let s32 = Llt::scalar(32);
        let bits = arg.ty.size_in_bits();
        if self.in_fpu(arg) || bits == 32 {
            return vec![arg.reg];
        }
        if bits < 32 {
            let ext = if arg.any_extend {
                Opcode::G_ANYEXT
            } else if arg.signed {
                Opcode::G_SEXT
            } else {
                Opcode::G_ZEXT
            };
            let extended = h.func.new_vreg(s32);
            h.build_into(ext, extended, &[arg.reg]);
            return vec![extended];
        }
        h.split_named(arg.reg, s32, count)
    }

    /// A two-register value's pieces in register order: on big-endian
    /// targets the high half comes first.
    fn ordered<T>(&self, mut pieces: Vec<T>) -> Vec<T> {
        if self.big_endian {
            pieces.reverse();
        }
        pieces
    }

    /// `JAL &f, <mask>, implicit-def $ra, implicit-def $sp, <uses>, <defs>`.
    fn call(
        &self,
        h: &mut Helper<'_>,
        symbol: &str,
        uses: &[Symbol],
        results: &[(&LibcallValue, Vec<&'static str>)],
    ) -> InstData {
        let mut data = InstData::new(InstOpcode::Target(h.func.names.intern("JAL")));
        data.operands.push(Operand::external_symbol(symbol, 0));
        data.operands.push(Operand::RegMask(h.func.names.intern(self.mask)));
        data.operands.push(Operand::implicit_def(h.func.names.intern("ra")));
        data.operands.push(Operand::implicit_def(h.func.names.intern("sp")));
        data.operands.extend(uses.iter().map(|r| Operand::implicit_use(*r)));
        for (_, regs) in results {
            for reg in regs {
                data.operands.push(Operand::implicit_def(h.func.names.intern(reg)));
            }
        }
        data
    }
}

/// Stores argument `value` at `offset` in the outgoing stack area: `COPY
/// $sp`, plus the offset, `G_STORE ... into stack + offset`, aligned as the
/// offset allows within the 8-aligned stack.
fn store_to_stack(h: &mut Helper<'_>, value: VReg, offset: u64) {
    let pointer_ty = Llt::pointer(0, 32);
    let base = h.builder().copy_from_physical(pointer_ty, "sp");
    let offset_reg = h.builder().constant(Llt::scalar(32), i128::from(offset));
    let address = h.build(Opcode::G_PTR_ADD, pointer_ty, &[base, offset_reg]);
    let mem = MemOperand {
        pointer: Some("stack".into()),
        offset: offset as i64,
        base_align: gisel_core::ir::common_alignment(STACK_ALIGN, offset as i64),
        ..MemOperand::new(MemFlags::STORE, h.func.ty(value))
    };
    h.builder().store(value, address, mem);
}

/// `ADJCALLSTACK* <size>, 0, implicit-def $sp, implicit $sp`.
fn frame_pseudo(h: &mut Helper<'_>, name: &str, size: i64) -> InstData {
    let opcode = h.func.names.intern(name);
    let sp = h.func.names.intern("sp");
    let mut data = InstData::new(InstOpcode::Target(opcode));
    data.operands.push(Operand::Imm(size));
    data.operands.push(Operand::Imm(0));
    data.operands.push(Operand::implicit_def(sp));
    data.operands.push(Operand::implicit_use(sp));
    data
}
