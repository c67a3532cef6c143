//! What the interpreter needs to know about a target: its physical
//! registers (which storage unit each name views, and how wide), which
//! target instructions return, call, set up call frames or do nothing, and
//! how libcall arguments and results travel in registers and on the stack.
//! Each target's register names live in a module of their own.

mod aarch64;
mod arm;
mod mips;
mod riscv;
mod x86;

use super::libcall::Kind;
use super::value::Value;
use crate::mir::{Arch, Target};

/// The register file a physical register belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegClass {
    /// General-purpose (integer) registers.
    Int,
    /// Floating-point / vector registers.
    Float,
}

/// A physical register name seen as a slice of a storage unit
/// (`$w0` is bits 0..32 of unit `x0`; `$d1` is bits 0..64 of unit `v1`;
/// Arm's `$s1` is bits 32..64 of unit `q0`; X86's `$ah` bits 8..16 of
/// `rax`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegView {
    /// The storage unit (`x0`, `v3`, `f10`).
    pub unit: String,
    /// The unit's width in bits.
    pub unit_bits: u32,
    /// The width of this view in bits.
    pub bits: u32,
    /// The unit's bit this view starts at.
    pub offset: u32,
    /// Its register file.
    pub class: RegClass,
    /// The hard-wired zero register (`$xzr`, RISC-V `$x0`): reads zero,
    /// writes are dropped.
    pub zero: bool,
    /// Writing the view leaves the unit's other bits as they were (Arm's
    /// `s` and `d` registers, X86's 8- and 16-bit registers); otherwise
    /// they become undefined.
    pub keeps_rest: bool,
    /// A copy between the register and a virtual register must be exactly
    /// [`RegView::bits`] wide; false for registers whose class holds
    /// narrower values too (X86's `$xmm0` holds an `s32`, `$fp0` a
    /// `float`).
    pub fixed_width: bool,
}

impl RegView {
    /// The `bits`-wide view from bit 0 of `unit`, of `unit_bits`: written
    /// alone, not hard-wired, copied at its own width.
    pub fn new(unit: &str, unit_bits: u32, bits: u32, class: RegClass) -> RegView {
        RegView {
            unit: unit.to_owned(),
            unit_bits,
            bits,
            offset: 0,
            class,
            zero: false,
            keeps_rest: false,
            fixed_width: true,
        }
    }
}

/// The calling-convention family, for what differs beyond the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    AArch64,
    RiscV,
    X86_64,
    I386,
    Arm,
    /// O32, with 64-bit FPU registers (`fp64`) or pairs of 32-bit ones.
    Mips {
        fp64: bool,
    },
}

/// A target's calling convention and register model, as the interpreter
/// uses it.
#[derive(Clone, Debug)]
pub struct Abi {
    /// A name for messages (`aarch64`, `riscv64`, `x86_64`, `i386`, `arm`,
    /// `mips`).
    pub name: &'static str,
    /// Width of a general-purpose register in bits (and of C's `long`).
    pub xlen: u32,
    /// Pointer width (address space 0) in bits.
    pub pointer_bits: u32,
    /// Width of C's `long double` (`fp128`, X86's `x86_fp80`, Arm's
    /// `double`): the format of the `l`-suffixed C library functions.
    pub long_double_bits: u32,
    /// Target instructions that return (their implicit uses are the results).
    pub return_opcodes: &'static [&'static str],
    /// Target instructions that call a symbol (first operand `&name` or
    /// `@name`) or the address in a register.
    pub call_opcodes: &'static [&'static str],
    /// Target instructions that tail-call a symbol: the callee's results
    /// are the function's.
    pub tail_call_opcodes: &'static [&'static str],
    /// The target instructions that set up a call frame, their first
    /// operand the size of the outgoing stack arguments, by which they
    /// lower the stack pointer.
    pub call_frame_setup: &'static [&'static str],
    /// The target instructions that tear a call frame down, their first
    /// operand the size by which they raise the stack pointer again.
    pub call_frame_destroy: &'static [&'static str],
    /// Target instructions with no effect the interpreter cares about.
    pub nop_opcodes: &'static [&'static str],
    /// Registers that are not values (stack pointer, link register...):
    /// implicit operands naming them are ignored.
    pub ignored_regs: &'static [&'static str],
    /// Vector comparisons produce all-ones lanes (`ZeroOrNegativeOne`)
    /// rather than `0`/`1`.
    pub vector_bool_all_ones: bool,
    /// The widest floating-point value a floating-point register passes
    /// (0 when floating-point values travel in integer registers).
    pub float_reg_bits: u32,
    /// The stack pointer, which explicit copies, `G_STACKSAVE`,
    /// `G_STACKRESTORE` and `G_DYN_STACKALLOC` read and write.
    pub stack_pointer: &'static str,
    /// The size of a variadic argument's slot in bytes: `G_VAARG` advances
    /// by whole slots and aligns the slot only for values more aligned
    /// than a slot.
    pub vararg_slot_bytes: u64,
    /// Memory and two-register values are big-endian (`mips`, not
    /// `mipsel`): the first register of a pair holds the high half.
    pub big_endian: bool,
    family: Family,
    view: fn(&str) -> Option<RegView>,
    preserved: fn(&str) -> u32,
}

impl Abi {
    /// AArch64 (AAPCS64): `x0..x7` / `q0..q7`, `BL`, `RET_ReallyLR`.
    pub fn aarch64() -> Abi {
        Abi {
            name: "aarch64",
            xlen: 64,
            pointer_bits: 64,
            long_double_bits: 128,
            return_opcodes: &["RET_ReallyLR", "RET"],
            call_opcodes: &["BL", "BLR"],
            tail_call_opcodes: &["TCRETURNdi", "TCRETURNri"],
            call_frame_setup: &["ADJCALLSTACKDOWN"],
            call_frame_destroy: &["ADJCALLSTACKUP"],
            nop_opcodes: &[],
            ignored_regs: &["sp", "lr", "fp", "nzcv", "wsp"],
            vector_bool_all_ones: true,
            float_reg_bits: 128,
            stack_pointer: "sp",
            vararg_slot_bytes: 8,
            big_endian: false,
            family: Family::AArch64,
            view: aarch64::view,
            preserved: aarch64::preserved,
        }
    }

    /// 32-bit RISC-V: `x10..x17` (`a0..a7`), `f10..f17`, `PseudoCALL`, `PseudoRET`.
    pub fn riscv32() -> Abi {
        Abi { name: "riscv32", xlen: 32, pointer_bits: 32, view: riscv::view32, ..Abi::riscv64() }
    }

    /// 64-bit RISC-V.
    pub fn riscv64() -> Abi {
        Abi {
            name: "riscv64",
            xlen: 64,
            pointer_bits: 64,
            long_double_bits: 128,
            return_opcodes: &["PseudoRET"],
            call_opcodes: &["PseudoCALL", "PseudoCALLIndirect"],
            tail_call_opcodes: &["PseudoTAIL", "PseudoTAILIndirect"],
            call_frame_setup: &["ADJCALLSTACKDOWN"],
            call_frame_destroy: &["ADJCALLSTACKUP"],
            nop_opcodes: &[],
            ignored_regs: &["x1", "x2", "ra", "sp"],
            vector_bool_all_ones: false,
            float_reg_bits: 64,
            stack_pointer: "x2",
            vararg_slot_bytes: 1,
            big_endian: false,
            family: Family::RiscV,
            view: riscv::view64,
            preserved: riscv::preserved,
        }
    }

    /// x86-64 under System V: integers in `rdi`, `rsi`, `rdx`, `rcx`, `r8`,
    /// `r9` (results in `rax`, `rdx`), `half` to `fp128` in `xmm0`-`xmm7`,
    /// `x86_fp80` on the stack (16 bytes) and returned in `fp0`; `CALL64*`,
    /// `RET`.
    pub fn x86_64() -> Abi {
        Abi {
            name: "x86_64",
            xlen: 64,
            pointer_bits: 64,
            long_double_bits: 80,
            return_opcodes: &["RET", "RET64"],
            call_opcodes: &["CALL64pcrel32", "CALL64r", "CALL64m"],
            tail_call_opcodes: &[],
            call_frame_setup: &["ADJCALLSTACKDOWN64"],
            call_frame_destroy: &["ADJCALLSTACKUP64"],
            nop_opcodes: &[],
            ignored_regs: &["rsp", "esp", "ssp", "eflags", "fpsw", "fpcw", "mxcsr", "df", "rip"],
            vector_bool_all_ones: true,
            float_reg_bits: 128,
            stack_pointer: "rsp",
            vararg_slot_bytes: 8,
            big_endian: false,
            family: Family::X86_64,
            view: x86::view64,
            preserved: x86::preserved64,
        }
    }

    /// i386 under System V: every argument on the stack in 4-byte slots,
    /// integers returned in `eax` (and `edx`), floating-point values in
    /// `fp0` (`half` in `xmm0` with SSE2); `CALLpcrel32`, `RET`.
    pub fn i386() -> Abi {
        Abi {
            name: "i386",
            xlen: 32,
            pointer_bits: 32,
            return_opcodes: &["RET", "RET32"],
            call_opcodes: &["CALLpcrel32", "CALL32r", "CALL32m"],
            call_frame_setup: &["ADJCALLSTACKDOWN32"],
            call_frame_destroy: &["ADJCALLSTACKUP32"],
            stack_pointer: "esp",
            vararg_slot_bytes: 4,
            family: Family::I386,
            view: x86::view32,
            preserved: x86::preserved32,
            ..Abi::x86_64()
        }
    }

    /// 32-bit Arm and Thumb under the AAPCS: `r0`-`r3` then 4-byte stack
    /// slots, floating-point values in `s`/`d` registers where the call
    /// names them (AAPCS-VFP) and in core registers otherwise; `BL`,
    /// `tBL`, `BLX`, `BX_RET`, `tBX_RET`.
    pub fn arm() -> Abi {
        Abi {
            name: "arm",
            xlen: 32,
            pointer_bits: 32,
            long_double_bits: 64,
            return_opcodes: &["BX_RET", "tBX_RET", "MOVPCLR"],
            call_opcodes: &["BL", "tBL", "BLX", "tBLXr", "BL_pred", "BMOVPCRX_CALL", "BX_CALL"],
            tail_call_opcodes: &[],
            call_frame_setup: &["ADJCALLSTACKDOWN", "tADJCALLSTACKDOWN"],
            call_frame_destroy: &["ADJCALLSTACKUP", "tADJCALLSTACKUP"],
            nop_opcodes: &[],
            ignored_regs: &[
                "sp",
                "lr",
                "pc",
                "cpsr",
                "fpscr",
                "fpscr_nzcv",
                "fpscr_rm",
                "itstate",
                "apsr",
                "apsr_nzcv",
            ],
            vector_bool_all_ones: true,
            float_reg_bits: 64,
            stack_pointer: "sp",
            vararg_slot_bytes: 4,
            big_endian: false,
            family: Family::Arm,
            view: arm::view,
            preserved: arm::preserved,
        }
    }

    /// 32-bit Mips under O32: `a0`-`a3` then stack slots from offset 16,
    /// leading floating-point arguments in `f12`/`f14` (`d6`/`d7`, or
    /// `d12_64`/`d14_64` with 64-bit FPU registers), results in `v0`/`v1`
    /// or `f0`/`d0`/`d0_64` (placed by the interpreter's `o32_args`); `JAL`, `JALR`,
    /// `RetRA`. `fp64` picks the FPU register model, `float_reg_bits` is
    /// 64 (hard float), 32 (`single-float`) or 0 (`soft-float`).
    pub fn mips(fp64: bool, float_reg_bits: u32, big_endian: bool) -> Abi {
        Abi {
            name: "mips",
            xlen: 32,
            pointer_bits: 32,
            long_double_bits: 64,
            return_opcodes: &["RetRA", "PseudoReturn"],
            call_opcodes: &["JAL", "JALR", "JALRPseudo"],
            tail_call_opcodes: &[],
            call_frame_setup: &["ADJCALLSTACKDOWN"],
            call_frame_destroy: &["ADJCALLSTACKUP"],
            nop_opcodes: &[],
            ignored_regs: &["sp", "ra"],
            vector_bool_all_ones: true,
            float_reg_bits,
            stack_pointer: "sp",
            vararg_slot_bytes: 4,
            big_endian,
            family: Family::Mips { fp64 },
            view: if fp64 { mips::view_fp64 } else { mips::view_fp32 },
            preserved: if fp64 { mips::preserved_fp64 } else { mips::preserved_fp32 },
        }
    }

    /// The ABI for a `.mir` target; `None` for targets the interpreter does
    /// not model (Mips). Hard-float RISC-V (`+f`/`+d` in the features)
    /// passes floating-point values in `f` registers; soft-float in `x`
    /// registers. The interpreter's memory is little-endian, or big-endian
    /// for Mips: another big-endian target's register model is right, its
    /// memory is not (see [`Abi::memory_modelled`]).
    pub fn for_target(target: &Target) -> Option<Abi> {
        let mut abi = match target.arch {
            Arch::AArch64 => return Some(Abi::aarch64()),
            Arch::X86_64 => return Some(Abi::x86_64()),
            Arch::X86 => return Some(Abi::i386()),
            Arch::Arm => return Some(Abi::arm()),
            Arch::Mips => {
                let (fp64, hard, single) = mips::fpu(&target.triple, target.cpu.as_deref(), &target.features);
                let float_bits = match (hard, single) {
                    (false, _) => 0,
                    (true, true) => 32,
                    (true, false) => 64,
                };
                let arch = target.triple.split('-').next().unwrap_or_default();
                return Some(Abi::mips(fp64, float_bits, !arch.ends_with("el")));
            }
            Arch::RiscV32 => Abi::riscv32(),
            Arch::RiscV64 => Abi::riscv64(),
        };
        // The last mention of a feature wins, as in LLVM's feature strings.
        let (mut f, mut d) = (false, false);
        for feature in target.features.split(',').map(str::trim) {
            match feature {
                "+f" => f = true,
                "-f" => (f, d) = (false, false),
                "+d" => (f, d) = (true, true),
                "-d" => d = false,
                _ => {}
            }
        }
        abi.float_reg_bits = if d {
            64
        } else if f {
            32
        } else {
            0
        };
        Some(abi)
    }

    /// Whether the interpreter's memory holds `target`'s values in their
    /// byte order: little-endian targets, and big-endian Mips (the one
    /// big-endian order modelled); other big-endian targets' functions
    /// cannot be run.
    pub fn memory_modelled(target: &Target) -> bool {
        !target.datalayout.starts_with('E') || target.arch == Arch::Mips
    }

    /// Whether libcall arguments and results follow O32 (placed by the
    /// interpreter's `o32_args`) rather than the registers the call names.
    pub fn is_o32(&self) -> bool {
        matches!(self.family, Family::Mips { .. })
    }

    /// With 64-bit FPU registers: `d12_64` rather than `d6` (O32).
    pub fn fp64(&self) -> bool {
        matches!(self.family, Family::Mips { fp64: true })
    }

    /// Whether this is X86 (x86-64 or i386).
    pub fn is_x86(&self) -> bool {
        matches!(self.family, Family::X86_64 | Family::I386)
    }

    /// Whether `name` is the stack pointer, by any of its names.
    pub fn is_stack_pointer(&self, name: &str) -> bool {
        name == self.stack_pointer
            || self.view(name).zip(self.view(self.stack_pointer)).is_some_and(|(a, b)| a.unit == b.unit)
    }

    /// The registers a call returns a `kind` result in: the first
    /// floating-point register when it passes floats that wide, else as
    /// many general-purpose registers from the first as the value needs.
    pub fn result_regs(&self, kind: Kind) -> Vec<String> {
        let float = match kind {
            Kind::Float(bits) if bits <= self.float_reg_bits || bits == 80 => Some(bits),
            _ => None,
        };
        let name = match (self.family, float) {
            (Family::AArch64, Some(16)) => "h0",
            (Family::AArch64, Some(32)) => "s0",
            (Family::AArch64, Some(64)) => "d0",
            (Family::AArch64, Some(_)) => "q0",
            (Family::RiscV, Some(16)) => "f10_h",
            (Family::RiscV, Some(32)) => "f10_f",
            (Family::RiscV, Some(_)) => "f10_d",
            (Family::X86_64, Some(80)) | (Family::I386, Some(32 | 64 | 80)) => "fp0",
            (Family::X86_64 | Family::I386, Some(_)) => "xmm0",
            (Family::Arm, Some(32)) => "s0",
            (Family::Arm, Some(_)) => "d0",
            (Family::Mips { .. }, Some(32)) => "f0",
            (Family::Mips { fp64: true }, Some(_)) => "d0_64",
            (Family::Mips { fp64: false }, Some(_)) => "d0",
            (_, None) => "",
        };
        if !name.is_empty() {
            return vec![name.to_owned()];
        }
        let count = kind.bits().div_ceil(self.xlen);
        let mut regs: Vec<String> = (0..count)
            .map(|i| match (self.family, kind.bits()) {
                (Family::AArch64, 1..=32) => "w0".to_owned(),
                (Family::AArch64, _) => format!("x{i}"),
                (Family::RiscV, _) => format!("x{}", 10 + i),
                (Family::X86_64, _) => ["rax", "rdx"].get(i as usize).unwrap_or(&"rcx").to_string(),
                (Family::I386, _) => ["eax", "edx"].get(i as usize).unwrap_or(&"ecx").to_string(),
                (Family::Arm, _) => format!("r{i}"),
                (Family::Mips { .. }, _) => ["v0", "v1", "a0", "a1"].get(i as usize).unwrap_or(&"a2").to_string(),
            })
            .collect();
        // The first register of a big-endian pair holds the high half.
        if self.big_endian {
            regs.reverse();
        }
        regs
    }

    /// What `G_VASTART` stores into a `bits`-wide `va_list` when the
    /// variadic arguments start at `area`: a pointer to them (RISC-V,
    /// i386, Arm), AAPCS64's record `{ __stack, __gr_top, __vr_top,
    /// __gr_offs, __vr_offs }` with both offsets 0, or System V x86-64's
    /// `{ gp_offset, fp_offset, overflow_arg_area, reg_save_area }` with
    /// the offsets past the register save area (48 and 176): the state
    /// once the argument registers are used up, so that every argument
    /// comes from the stack. `None` for a layout the interpreter does not
    /// know.
    pub fn va_list(&self, area: u64, bits: u32) -> Option<Value> {
        let pointer = Value::from_u128(self.pointer_bits, u128::from(area));
        if bits == self.pointer_bits {
            return Some(pointer);
        }
        let offset = |n| Value::from_u128(32, n);
        match (self.family, bits) {
            (Family::AArch64, 256) => {
                Some(Value::concat(&[pointer.clone(), pointer.clone(), pointer, offset(0), offset(0)]))
            }
            (Family::X86_64, 192) => Some(Value::concat(&[offset(48), offset(176), pointer.clone(), pointer])),
            _ => None,
        }
    }

    /// Every register a callee may return a value in, for a tail call to a
    /// function whose signature the interpreter does not know.
    pub fn return_regs(&self) -> Vec<String> {
        let names: &[&str] = match (self.family, self.float_reg_bits) {
            (Family::AArch64, _) => &["x0", "x1", "q0", "q1", "q2", "q3"],
            (Family::X86_64, _) => &["rax", "rdx", "zmm0", "zmm1", "fp0", "fp1"],
            (Family::I386, _) => &["eax", "edx", "zmm0", "fp0", "fp1"],
            (Family::Arm, _) => &["r0", "r1", "r2", "r3", "q0", "q1", "q2", "q3"],
            (Family::RiscV, 0) => &["x10", "x11"],
            (Family::RiscV, 32) => &["x10", "x11", "f10_f", "f11_f"],
            (Family::RiscV, _) => &["x10", "x11", "f10_d", "f11_d"],
            (Family::Mips { .. }, 0) => &["v0", "v1"],
            (Family::Mips { fp64: false }, _) => &["v0", "v1", "d0", "d1"],
            (Family::Mips { fp64: true }, _) => &["v0", "v1", "d0_64", "d2_64"],
        };
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    /// Whether a libcall argument of `kind` always travels on the stack
    /// (every argument on i386; `x86_fp80` on x86-64), rather than in the
    /// registers the call names.
    pub fn always_on_stack(&self, kind: Kind) -> bool {
        match self.family {
            Family::I386 => true,
            Family::X86_64 => kind == Kind::Float(80),
            _ => false,
        }
    }

    /// The size and alignment in bytes of the outgoing stack slot of a
    /// libcall argument of `kind`, on targets whose libcalls pass
    /// arguments on the stack (X86, and Arm once `r0`-`r3` are used up);
    /// `None` elsewhere.
    pub fn stack_slot(&self, kind: Kind) -> Option<(u64, u64)> {
        let bytes = u64::from(kind.bits().div_ceil(8));
        match (self.family, kind) {
            (Family::X86_64, Kind::Float(80 | 128) | Kind::Int(128)) => Some((16, 16)),
            (Family::X86_64, _) => Some((bytes.next_multiple_of(8), 8)),
            (Family::I386, Kind::Float(128)) => Some((16, 16)),
            (Family::I386, _) | (Family::Arm, _) => Some((bytes.next_multiple_of(4), 4)),
            (Family::AArch64 | Family::RiscV | Family::Mips { .. }, _) => None,
        }
    }

    /// How many low bits of storage unit `unit` (`x19`, `v8`) a call
    /// preserves: all of a callee-saved register, none of a caller-saved
    /// one.
    pub fn call_preserved_bits(&self, unit: &str) -> u32 {
        (self.preserved)(unit)
    }

    /// How the physical register `name` (without `$`) maps onto storage.
    pub fn view(&self, name: &str) -> Option<RegView> {
        (self.view)(name)
    }

    /// The width a copy between `name` and a virtual register must have,
    /// when the register's class fixes it (see [`RegView::fixed_width`]).
    pub fn copy_width(&self, name: &str) -> Option<u32> {
        self.view(name).filter(|v| v.fixed_width).map(|v| v.bits)
    }

    /// True for a register operand the interpreter ignores (`$noreg`
    /// included: Arm's predicate operands name it).
    pub fn is_ignored_reg(&self, name: &str) -> bool {
        name == "noreg" || self.ignored_regs.contains(&name)
    }
}

/// The register number `text` (no leading zeros), up to `max`.
fn number(text: &str, max: u32) -> Option<u32> {
    let n: u32 = text.parse().ok()?;
    (n <= max && (text == "0" || !text.starts_with('0'))).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn register_views() {
        let a = Abi::aarch64();
        assert_eq!(a.view("w3").map(|v| (v.unit, v.bits)), Some(("x3".to_owned(), 32)));
        assert_eq!(a.view("q1").map(|v| (v.unit, v.bits)), Some(("v1".to_owned(), 128)));
        assert!(a.view("xzr").is_some_and(|v| v.zero));
        assert!(a.view("w31").is_none());
        let r = Abi::riscv32();
        assert_eq!(r.view("x10").map(|v| v.bits), Some(32));
        assert!(r.view("x0").is_some_and(|v| v.zero));
        assert_eq!(r.view("f10_d").map(|v| (v.unit, v.bits)), Some(("f10".to_owned(), 64)));
        assert!(r.view("x07").is_none());
    }

    #[test]
    fn callee_saved_registers() {
        let (a, r) = (Abi::aarch64(), Abi::riscv64());
        assert_eq!((a.call_preserved_bits("x19"), a.call_preserved_bits("x18")), (64, 0));
        assert_eq!((a.call_preserved_bits("v8"), a.call_preserved_bits("v16")), (64, 0));
        assert_eq!((r.call_preserved_bits("x9"), r.call_preserved_bits("x10")), (u32::MAX, 0));
        assert_eq!((r.call_preserved_bits("f18"), r.call_preserved_bits("f10")), (u32::MAX, 0));
        assert_eq!(a.return_regs()[0], "x0");
        let (x, i, arm) = (Abi::x86_64(), Abi::i386(), Abi::arm());
        assert_eq!((x.call_preserved_bits("rbx"), x.call_preserved_bits("rsi")), (u32::MAX, 0));
        assert_eq!((i.call_preserved_bits("rsi"), i.call_preserved_bits("rcx")), (u32::MAX, 0));
        assert_eq!((arm.call_preserved_bits("r4"), arm.call_preserved_bits("r3")), (u32::MAX, 0));
        assert_eq!((arm.call_preserved_bits("q4"), arm.call_preserved_bits("q8")), (u32::MAX, 0));
    }

    /// (unit, offset, bits) of `name`.
    fn place(abi: &Abi, name: &str) -> Option<(String, u32, u32)> {
        abi.view(name).map(|v| (v.unit, v.offset, v.bits))
    }

    #[test]
    fn x86_register_views() {
        let x = Abi::x86_64();
        assert_eq!(place(&x, "eax"), Some(("rax".into(), 0, 32)));
        assert_eq!(place(&x, "ah"), Some(("rax".into(), 8, 8)));
        assert_eq!(place(&x, "sil"), Some(("rsi".into(), 0, 8)));
        assert_eq!(place(&x, "r9d"), Some(("r9".into(), 0, 32)));
        assert_eq!(place(&x, "r15b"), Some(("r15".into(), 0, 8)));
        assert_eq!(place(&x, "ymm3"), Some(("zmm3".into(), 0, 256)));
        assert_eq!(place(&x, "fp1"), Some(("fp1".into(), 0, 80)));
        assert!(x.view("al").is_some_and(|v| v.keeps_rest) && !x.view("eax").is_some_and(|v| v.keeps_rest));
        assert!(x.is_stack_pointer("esp") && x.is_stack_pointer("rsp"));
        assert_eq!((x.copy_width("edi"), x.copy_width("xmm0"), x.copy_width("fp0")), (Some(32), None, None));
        assert!(x.view("r16").is_none() && x.view("r7").is_none());
        let i = Abi::i386();
        assert_eq!(place(&i, "ecx"), Some(("rcx".into(), 0, 32)));
        assert!(i.view("rax").is_none() && i.view("r8d").is_none() && i.view("sil").is_none());
        assert!(i.view("xmm7").is_some() && i.view("xmm8").is_none());
        assert!(i.is_stack_pointer("esp"));
        assert_eq!(i.result_regs(Kind::Int(64)), ["eax", "edx"]);
        assert_eq!(i.result_regs(Kind::Float(64)), ["fp0"]);
        assert_eq!(x.result_regs(Kind::Float(80)), ["fp0"]);
        assert_eq!(x.result_regs(Kind::Int(128)), ["rax", "rdx"]);
    }

    #[test]
    fn arm_register_views() {
        let a = Abi::arm();
        assert_eq!(place(&a, "r12"), Some(("r12".into(), 0, 32)));
        assert_eq!(place(&a, "s5"), Some(("q1".into(), 32, 32)));
        assert_eq!(place(&a, "d3"), Some(("q1".into(), 64, 64)));
        assert_eq!(place(&a, "d17"), Some(("q8".into(), 64, 64)));
        assert_eq!(place(&a, "q15"), Some(("q15".into(), 0, 128)));
        assert!(a.view("s32").is_none() && a.view("q16").is_none());
        assert!(a.view("s0").is_some_and(|v| v.keeps_rest));
        assert!(a.is_stack_pointer("sp") && a.is_stack_pointer("r13"));
        assert!(a.is_ignored_reg("noreg") && a.is_ignored_reg("cpsr"));
        assert_eq!(a.result_regs(Kind::Int(64)), ["r0", "r1"]);
    }

    #[test]
    fn targets_with_a_model() {
        let abi = |triple: &str| {
            let target = Target::from_triple(triple);
            target.and_then(|t| Abi::for_target(&t)).map(|a| a.name)
        };
        assert_eq!(abi("x86_64-unknown-linux-gnu"), Some("x86_64"));
        assert_eq!(abi("i686-unknown-linux-gnu"), Some("i386"));
        assert_eq!(abi("thumbv7-unknown-linux-gnueabihf"), Some("arm"));
        assert_eq!(abi("mips-unknown-linux-gnu"), Some("mips"));
        let big = Target::from_triple("armeb-unknown-linux-gnueabi").expect("a target");
        assert!(!Abi::memory_modelled(&big));
        let big_mips = Target::from_triple("mips-unknown-linux-gnu").expect("a target");
        assert!(Abi::memory_modelled(&big_mips));
        let little = Target::from_triple("armv7-unknown-linux-gnueabihf").expect("a target");
        assert!(Abi::memory_modelled(&little));
    }

    #[test]
    fn va_lists() {
        let x = Abi::x86_64();
        let list = x.va_list(0x1000, 192).expect("System V record");
        assert_eq!(list.extract(0, 32), Value::from_u128(32, 48));
        assert_eq!(list.extract(32, 32), Value::from_u128(32, 176));
        assert_eq!(list.extract(64, 64), Value::from_u128(64, 0x1000));
        assert_eq!(Abi::i386().va_list(0x1000, 32), Some(Value::from_u128(32, 0x1000)));
        assert!(Abi::arm().va_list(0x1000, 64).is_none());
    }
}
