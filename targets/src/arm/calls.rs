//! Library calls under the AAPCS, as LLVM 22's Arm call lowering emits
//! them: `ADJCALLSTACKDOWN 0, 0, 14 /* CC::al */, $noreg`, the argument
//! copies, `BL &f, csr_aapcs, ...` (`tBL 14 /* CC::al */, $noreg, &f, ...`
//! in Thumb mode), the result copies, then `ADJCALLSTACKUP 0, -1, ...`.
//!
//! Integers, pointers and soft-float values go in `r0`-`r3` in order, a
//! 64-bit value in two of them (its low half first on little-endian
//! targets), then in 4-byte stack slots; where `double` is a legal type it
//! takes an even-odd pair or 8 aligned bytes of stack instead. The frame's
//! alignment rises to a stack slot's, as LLVM's `AllocateStack` makes it.
//! Under the hard-float variant (AAPCS-VFP) a `float` goes in the first
//! free `s` register and a `double` in the first free `d` register,
//! filling gaps left behind as the standard says. Core-register arguments
//! that find no register left are stored to the outgoing stack area; VFP
//! arguments beyond the sixteen `s` registers are not implemented (an
//! error).

use gisel_core::ir::{Inst, InstData, InstOpcode, MemFlags, MemOperand, Operand, Reg, RegOperand, VReg};
use gisel_core::legalize::{Helper, LibcallRequest, LibcallValue};
use gisel_core::opcode::Opcode;
use gisel_core::ty::Llt;

/// The always-true condition of a predicated instruction, as llc prints it.
const ALWAYS: &str = "14 /* CC::al */";
const CORE_REGISTERS: [&str; 4] = ["r0", "r1", "r2", "r3"];
const SINGLE: [&str; 16] =
    ["s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "s12", "s13", "s14", "s15"];
const DOUBLE: [&str; 8] = ["d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7"];

/// How a call is made.
#[derive(Clone, Copy, Debug)]
pub struct Convention {
    /// Floating-point values travel in VFP registers (AAPCS-VFP) when
    /// their types are legal (`fp_legal`).
    pub vfp: bool,
    /// The call is `tBL` (Thumb mode) rather than `BL`.
    pub thumb: bool,
    /// The high half of a 64-bit value goes in the first register.
    pub big_endian: bool,
    /// `float` and `double` are legal types (VFP registers, not soft
    /// float, not Thumb-1): a `double` in core registers then takes an
    /// even-odd pair, or 8 aligned bytes of stack as one value (LLVM's
    /// `f64AssignAAPCS`).
    pub fp_legal: bool,
}

/// Where one register-sized piece of a value travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// In a register.
    Register(&'static str),
    /// In the outgoing stack area, at this offset in bytes.
    Stack(u64),
}

/// Where a `double` under `f64AssignAAPCS` travels.
enum Place64 {
    /// In two core registers, low half first (little-endian).
    Registers(&'static str, &'static str),
    /// In the outgoing stack area, at this offset in bytes.
    Stack(u64),
}

/// Registers and stack handed out so far, for arguments or for results.
#[derive(Default)]
struct Allocation {
    next_core: usize,
    /// One bit per `s` register in use.
    vfp_used: u16,
    /// The size of the outgoing stack area so far.
    stack: u64,
}

impl Allocation {
    /// The places of a value of `bits`, travelling in VFP registers when
    /// `vfp`: one VFP register, or one or two core registers taken in
    /// order. A value that does not fit the core registers left goes on
    /// the stack, in 4-byte slots, and no core register is used after it.
    /// (A libcall's pieces carry 4-byte alignment into LLVM's AAPCS rules,
    /// so neither an even register pair nor an 8-byte slot is asked for.)
    fn take(&mut self, bits: u32, vfp: bool) -> Result<Vec<Place>, String> {
        if vfp {
            return self.take_vfp(bits).map(|r| vec![Place::Register(r)]);
        }
        let count = bits.div_ceil(32) as usize;
        if let Some(regs) = CORE_REGISTERS.get(self.next_core..self.next_core + count) {
            self.next_core += count;
            return Ok(regs.iter().map(|r| Place::Register(r)).collect());
        }
        self.next_core = CORE_REGISTERS.len();
        let offset = self.stack;
        self.stack += 4 * count as u64;
        Ok((0..count as u64).map(|i| Place::Stack(offset + 4 * i)).collect())
    }

    /// The places of a `double` under `f64AssignAAPCS`: `r0`-`r1` or
    /// `r2`-`r3`, else (wasting `r3` if it is free) 8 bytes of stack,
    /// 8-aligned.
    fn take_f64_pair(&mut self) -> Place64 {
        self.next_core = self.next_core.next_multiple_of(2);
        if let Some(&[low, high]) = CORE_REGISTERS.get(self.next_core..self.next_core + 2) {
            self.next_core += 2;
            return Place64::Registers(low, high);
        }
        self.next_core = CORE_REGISTERS.len();
        let offset = self.stack.next_multiple_of(8);
        self.stack = offset + 8;
        Place64::Stack(offset)
    }

    fn take_vfp(&mut self, bits: u32) -> Result<&'static str, String> {
        let (width, names): (u32, &[&'static str]) = if bits == 64 { (2, &DOUBLE) } else { (1, &SINGLE) };
        let mask = (1u16 << width) - 1;
        (0..names.len())
            .find(|&i| self.vfp_used & (mask << (i as u32 * width)) == 0)
            .map(|i| {
                self.vfp_used |= mask << (i as u32 * width);
                names[i]
            })
            .ok_or_else(|| format!("no VFP register left for a {bits}-bit value (stack arguments are not implemented)"))
    }
}

impl Convention {
    fn in_vfp(&self, value: &LibcallValue) -> bool {
        self.vfp && self.fp_legal && value.float && matches!(value.ty.size_in_bits(), 32 | 64)
    }

    /// Emits the call of `request` before `inst` (which the caller erases).
    pub fn emit(&self, h: &mut Helper<'_>, inst: Inst, request: &LibcallRequest) -> Result<(), String> {
        let s32 = Llt::scalar(32);
        h.set_insert_before(inst);
        let setup = frame_pseudo(h, "ADJCALLSTACKDOWN", 0, 0);
        let setup = h.builder().insert(setup);
        // Every argument is split before any is assigned (a `double` in a
        // register pair is unmerged as it is assigned); stack arguments are
        // stored as they are assigned; the copies into registers come after
        // all of them, as call lowering delays its register assignments.
        let mut args = Vec::new();
        for arg in &request.args {
            let bits = arg.ty.size_in_bits() as u32;
            let vfp = self.in_vfp(arg);
            let pair = !vfp && self.fp_legal && arg.float && bits == 64;
            // A narrower integer is copied as it is: the only one a libcall
            // gets is the source of `G_CTLZ_ZERO_UNDEF`, whose parameter
            // LLVM types after the result (`i32`), so call lowering sees
            // nothing to extend.
            let pieces = if vfp || pair || bits <= 32 {
                vec![arg.reg]
            } else {
                h.split_named(arg.reg, s32, bits.div_ceil(32) as usize)
            };
            args.push((bits, vfp, pair, pieces));
        }
        let mut allocation = Allocation::default();
        let mut copies = Vec::new();
        for (bits, vfp, pair, pieces) in args {
            if pair {
                match allocation.take_f64_pair() {
                    Place64::Registers(low, high) => {
                        let halves = self.ordered(h.split_named(pieces[0], s32, 2));
                        copies.extend([low, high].into_iter().zip(halves));
                    }
                    Place64::Stack(offset) => {
                        h.func.frame.ensure_max_alignment(8);
                        store_to_stack(h, pieces[0], offset);
                    }
                }
                continue;
            }
            let places = self.ordered(allocation.take(bits.max(32), vfp)?);
            for (piece, place) in pieces.into_iter().zip(places) {
                match place {
                    Place::Register(reg) => copies.push((reg, piece)),
                    Place::Stack(offset) => {
                        h.func.frame.ensure_max_alignment(4);
                        store_to_stack(h, piece, offset);
                    }
                }
            }
        }
        let mut uses = Vec::new();
        for (reg, piece) in copies {
            let phys = h.func.names.intern(reg);
            let mut copy = InstData::new(InstOpcode::Known(Opcode::COPY));
            copy.num_defs = 1;
            copy.operands.push(Operand::Reg(RegOperand::def_of(Reg::Physical(phys))));
            copy.operands.push(Operand::vreg_use(piece));
            h.builder().insert(copy);
            uses.push(phys);
        }
        let stack_size = allocation.stack as i64;
        h.func.modify(setup, |data| data.operands[0] = Operand::Imm(stack_size));
        let mut allocation = Allocation::default();
        let mut results = Vec::new();
        for result in &request.results {
            let bits = result.ty.size_in_bits() as u32;
            let places = self.ordered(allocation.take(bits.max(32), self.in_vfp(result))?);
            let regs = places
                .into_iter()
                .map(|place| match place {
                    Place::Register(reg) => Ok(reg),
                    Place::Stack(_) => Err(format!("a {bits}-bit result does not fit the result registers")),
                })
                .collect::<Result<Vec<_>, String>>()?;
            results.push((result, regs));
        }
        let call = self.call(h, &request.symbol, &uses, &results);
        h.builder().insert(call);
        for (result, regs) in results {
            let bits = result.ty.size_in_bits() as u32;
            let direct = regs.len() == 1 && bits >= 32;
            let copies: Vec<VReg> = regs
                .iter()
                .map(|reg| {
                    let v = if direct { result.reg } else { h.func.new_vreg(s32) };
                    let mut copy = InstData::new(InstOpcode::Known(Opcode::COPY));
                    copy.num_defs = 1;
                    copy.operands.push(Operand::vreg_def(v));
                    copy.operands.push(Operand::Reg(RegOperand::use_of(Reg::Physical(h.func.names.intern(reg)))));
                    h.builder().insert(copy);
                    v
                })
                .collect();
            if copies.len() > 1 {
                let copies = self.ordered(copies);
                h.build_into(Opcode::G_MERGE_VALUES, result.reg, &copies);
            } else if !direct {
                h.build_into(Opcode::G_TRUNC, result.reg, &copies);
            }
        }
        let destroy = frame_pseudo(h, "ADJCALLSTACKUP", stack_size, -1);
        h.builder().insert(destroy);
        Ok(())
    }

    /// The pieces of a value in register order: on big-endian targets the
    /// high half comes first.
    fn ordered<T>(&self, mut pieces: Vec<T>) -> Vec<T> {
        if self.big_endian {
            pieces.reverse();
        }
        pieces
    }

    /// `BL &f, csr_aapcs, implicit-def $lr, implicit $sp, <uses>, <defs>`,
    /// or `tBL` with the condition operands first.
    fn call(
        &self,
        h: &mut Helper<'_>,
        symbol: &str,
        uses: &[gisel_core::ir::Symbol],
        results: &[(&LibcallValue, Vec<&'static str>)],
    ) -> InstData {
        let opcode = h.func.names.intern(if self.thumb { "tBL" } else { "BL" });
        let mut data = InstData::new(InstOpcode::Target(opcode));
        if self.thumb {
            push_always(h, &mut data);
        }
        data.operands.push(Operand::external_symbol(symbol, 0));
        data.operands.push(Operand::RegMask(h.func.names.intern("csr_aapcs")));
        data.operands.push(Operand::implicit_def(h.func.names.intern("lr")));
        data.operands.push(Operand::implicit_use(h.func.names.intern("sp")));
        data.operands.extend(uses.iter().map(|r| Operand::implicit_use(*r)));
        for (_, regs) in results {
            for reg in regs {
                data.operands.push(Operand::implicit_def(h.func.names.intern(reg)));
            }
        }
        data
    }
}

/// The condition operands `14 /* CC::al */, $noreg`.
fn push_always(h: &mut Helper<'_>, data: &mut InstData) {
    data.operands.push(Operand::Verbatim(ALWAYS.into()));
    data.operands.push(Operand::Reg(RegOperand::use_of(Reg::Physical(h.func.names.intern("noreg")))));
}

/// Stores argument `value` at `offset` in the outgoing stack area: `COPY
/// $sp`, plus the offset, `G_STORE ... into stack + offset` (a `double`
/// as one store, which the legalizer then splits).
fn store_to_stack(h: &mut Helper<'_>, value: VReg, offset: u64) {
    let pointer_ty = Llt::pointer(0, 32);
    let base = h.builder().copy_from_physical(pointer_ty, "sp");
    let offset_reg = h.builder().constant(Llt::scalar(32), i128::from(offset));
    let address = h.build(Opcode::G_PTR_ADD, pointer_ty, &[base, offset_reg]);
    let mem = MemOperand {
        pointer: Some("stack".into()),
        offset: offset as i64,
        base_align: 1,
        ..MemOperand::new(MemFlags::STORE, h.func.ty(value))
    };
    h.builder().store(value, address, mem);
}

/// `ADJCALLSTACK* <size>, <second>, 14 /* CC::al */, $noreg, implicit-def
/// $sp, implicit $sp`.
fn frame_pseudo(h: &mut Helper<'_>, name: &str, size: i64, second: i64) -> InstData {
    let opcode = h.func.names.intern(name);
    let sp = h.func.names.intern("sp");
    let mut data = InstData::new(InstOpcode::Target(opcode));
    data.operands.push(Operand::Imm(size));
    data.operands.push(Operand::Imm(second));
    push_always(h, &mut data);
    data.operands.push(Operand::implicit_def(sp));
    data.operands.push(Operand::implicit_use(sp));
    data
}
