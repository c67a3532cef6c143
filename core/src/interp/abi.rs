//! What the interpreter needs to know about a target: its physical
//! registers (which storage unit each name views, and how wide), which
//! target instructions return, call or do nothing, and how libcall
//! arguments and results travel in registers.

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
/// (`$w0` is bits 0..32 of unit `x0`; `$d1` is bits 0..64 of unit `v1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegView {
    /// The storage unit (`x0`, `v3`, `f10`).
    pub unit: String,
    /// The unit's width in bits.
    pub unit_bits: u32,
    /// The width of this view in bits (starting at bit 0 of the unit).
    pub bits: u32,
    /// Its register file.
    pub class: RegClass,
    /// The hard-wired zero register (`$xzr`, RISC-V `$x0`): reads zero,
    /// writes are dropped.
    pub zero: bool,
}

/// A target's calling convention and register model, as the interpreter
/// uses it.
#[derive(Clone, Debug)]
pub struct Abi {
    /// A name for messages (`aarch64`, `riscv64`).
    pub name: &'static str,
    /// Width of a general-purpose register in bits.
    pub xlen: u32,
    /// Pointer width (address space 0) in bits.
    pub pointer_bits: u32,
    /// Target instructions that return (their implicit uses are the results).
    pub return_opcodes: &'static [&'static str],
    /// Target instructions that call a symbol (first operand `&name` or
    /// `@name`) or the address in a register.
    pub call_opcodes: &'static [&'static str],
    /// Target instructions that tail-call a symbol: the callee's results
    /// are the function's.
    pub tail_call_opcodes: &'static [&'static str],
    /// The target instruction that sets up a call frame, its first operand
    /// the size of the outgoing stack arguments.
    pub call_frame_setup: &'static str,
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
            return_opcodes: &["RET_ReallyLR", "RET"],
            call_opcodes: &["BL", "BLR"],
            tail_call_opcodes: &["TCRETURNdi", "TCRETURNri"],
            call_frame_setup: "ADJCALLSTACKDOWN",
            nop_opcodes: &["ADJCALLSTACKUP"],
            ignored_regs: &["sp", "lr", "fp", "nzcv", "wsp"],
            vector_bool_all_ones: true,
            float_reg_bits: 128,
            stack_pointer: "sp",
            vararg_slot_bytes: 8,
            view: aarch64_view,
            preserved: aarch64_preserved,
        }
    }

    /// 32-bit RISC-V: `x10..x17` (`a0..a7`), `f10..f17`, `PseudoCALL`, `PseudoRET`.
    pub fn riscv32() -> Abi {
        Abi { name: "riscv32", xlen: 32, pointer_bits: 32, view: riscv32_view, ..Abi::riscv64() }
    }

    /// 64-bit RISC-V.
    pub fn riscv64() -> Abi {
        Abi {
            name: "riscv64",
            xlen: 64,
            pointer_bits: 64,
            return_opcodes: &["PseudoRET"],
            call_opcodes: &["PseudoCALL", "PseudoCALLIndirect"],
            tail_call_opcodes: &["PseudoTAIL", "PseudoTAILIndirect"],
            call_frame_setup: "ADJCALLSTACKDOWN",
            nop_opcodes: &["ADJCALLSTACKUP"],
            ignored_regs: &["x1", "x2", "ra", "sp"],
            vector_bool_all_ones: false,
            float_reg_bits: 64,
            stack_pointer: "x2",
            vararg_slot_bytes: 1,
            view: riscv64_view,
            preserved: riscv_preserved,
        }
    }

    /// The ABI for a `.mir` target; `None` for targets the interpreter does
    /// not model. Hard-float RISC-V (`+f`/`+d` in the features) passes
    /// floating-point values in `f` registers; soft-float in `x` registers.
    pub fn for_target(target: &Target) -> Option<Abi> {
        let mut abi = match target.arch {
            Arch::AArch64 => return Some(Abi::aarch64()),
            Arch::RiscV32 => Abi::riscv32(),
            Arch::RiscV64 => Abi::riscv64(),
            Arch::X86 | Arch::X86_64 | Arch::Arm => return None,
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

    /// Whether `name` is the stack pointer, by any of its names.
    pub fn is_stack_pointer(&self, name: &str) -> bool {
        name == self.stack_pointer
            || self.view(name).zip(self.view(self.stack_pointer)).is_some_and(|(a, b)| a.unit == b.unit)
    }

    /// The registers a call returns a `kind` result in: the first
    /// floating-point register when it passes floats that wide, else as
    /// many general-purpose registers from the first as the value needs.
    pub fn result_regs(&self, kind: Kind) -> Vec<String> {
        let aarch64 = self.name == "aarch64";
        if let Kind::Float(bits) = kind
            && bits <= self.float_reg_bits
        {
            let name = match (aarch64, bits) {
                (true, 16) => "h0",
                (true, 32) => "s0",
                (true, 64) => "d0",
                (true, _) => "q0",
                (false, 16) => "f10_h",
                (false, 32) => "f10_f",
                (false, _) => "f10_d",
            };
            return vec![name.to_owned()];
        }
        let count = kind.bits().div_ceil(self.xlen);
        (0..count)
            .map(|i| match (aarch64, kind.bits()) {
                (true, 1..=32) => "w0".to_owned(),
                (true, _) => format!("x{i}"),
                (false, _) => format!("x{}", 10 + i),
            })
            .collect()
    }

    /// What `G_VASTART` stores into a `bits`-wide `va_list` when the
    /// variadic arguments start at `area`: a pointer to them (RISC-V), or
    /// AAPCS64's record `{ __stack, __gr_top, __vr_top, __gr_offs,
    /// __vr_offs }` with both offsets 0, the state once the argument
    /// registers are used up, so that every argument comes from `__stack`.
    /// `None` for a layout the interpreter does not know.
    pub fn va_list(&self, area: u64, bits: u32) -> Option<Value> {
        let pointer = Value::from_u128(self.pointer_bits, u128::from(area));
        if bits == self.pointer_bits {
            return Some(pointer);
        }
        let offset = Value::from_u128(32, 0);
        (self.name == "aarch64" && bits == 256)
            .then(|| Value::concat(&[pointer.clone(), pointer.clone(), pointer, offset.clone(), offset]))
    }

    /// Every register a callee may return a value in, for a tail call to a
    /// function whose signature the interpreter does not know.
    pub fn return_regs(&self) -> Vec<String> {
        let names: &[&str] = match (self.name, self.float_reg_bits) {
            ("aarch64", _) => &["x0", "x1", "q0", "q1", "q2", "q3"],
            (_, 0) => &["x10", "x11"],
            (_, 32) => &["x10", "x11", "f10_f", "f11_f"],
            _ => &["x10", "x11", "f10_d", "f11_d"],
        };
        names.iter().map(|n| (*n).to_owned()).collect()
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

    /// True for a register operand the interpreter ignores.
    pub fn is_ignored_reg(&self, name: &str) -> bool {
        self.ignored_regs.contains(&name)
    }
}

fn view(unit: String, unit_bits: u32, bits: u32, class: RegClass) -> Option<RegView> {
    Some(RegView { unit, unit_bits, bits, class, zero: false })
}

fn number(text: &str, max: u32) -> Option<u32> {
    let n: u32 = text.parse().ok()?;
    (n <= max && (text == "0" || !text.starts_with('0'))).then_some(n)
}

fn aarch64_view(name: &str) -> Option<RegView> {
    if name == "xzr" || name == "wzr" {
        let bits = if name == "xzr" { 64 } else { 32 };
        return Some(RegView { unit: "xzr".into(), unit_bits: 64, bits, class: RegClass::Int, zero: true });
    }
    let (prefix, rest) = name.split_at(1.min(name.len()));
    let n = number(rest, 31)?;
    match prefix {
        "x" if n <= 30 => view(format!("x{n}"), 64, 64, RegClass::Int),
        "w" if n <= 30 => view(format!("x{n}"), 64, 32, RegClass::Int),
        "q" => view(format!("v{n}"), 128, 128, RegClass::Float),
        "d" => view(format!("v{n}"), 128, 64, RegClass::Float),
        "s" => view(format!("v{n}"), 128, 32, RegClass::Float),
        "h" => view(format!("v{n}"), 128, 16, RegClass::Float),
        "b" => view(format!("v{n}"), 128, 8, RegClass::Float),
        _ => None,
    }
}

/// AAPCS64: `x19`-`x29` are callee-saved, and the low 64 bits of
/// `v8`-`v15`.
fn aarch64_preserved(unit: &str) -> u32 {
    let number = |prefix| unit.strip_prefix(prefix).and_then(|n| n.parse::<u32>().ok());
    match (number("x"), number("v")) {
        (Some(19..=29), _) => 64,
        (_, Some(8..=15)) => 64,
        _ => 0,
    }
}

/// The RISC-V psABI: `sp`, `gp`, `tp`, `s0`-`s11` and `fs0`-`fs11` are
/// preserved (whole units).
fn riscv_preserved(unit: &str) -> u32 {
    let number = |prefix| unit.strip_prefix(prefix).and_then(|n| n.parse::<u32>().ok());
    match (number("x"), number("f")) {
        (Some(2..=4 | 8 | 9 | 18..=27), _) | (_, Some(8 | 9 | 18..=27)) => u32::MAX,
        _ => 0,
    }
}

/// RISC-V's ABI names of the integer registers, `x0` to `x31` in order.
const RISCV_ABI_NAMES: [&str; 32] = [
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7", "s2",
    "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6",
];

fn riscv_view(name: &str, xlen: u32) -> Option<RegView> {
    if let Some(n) = RISCV_ABI_NAMES.iter().position(|n| *n == name).or((name == "fp").then_some(8)) {
        return riscv_view(&format!("x{n}"), xlen);
    }
    if let Some(rest) = name.strip_prefix('x') {
        let n = number(rest, 31)?;
        return Some(RegView {
            unit: format!("x{n}"),
            unit_bits: xlen,
            bits: xlen,
            class: RegClass::Int,
            zero: n == 0,
        });
    }
    let rest = name.strip_prefix('f')?;
    let (num, suffix) = rest.split_once('_')?;
    let n = number(num, 31)?;
    let bits = match suffix {
        "h" => 16,
        "f" => 32,
        "d" => 64,
        _ => return None,
    };
    view(format!("f{n}"), 64, bits, RegClass::Float)
}

fn riscv32_view(name: &str) -> Option<RegView> {
    riscv_view(name, 32)
}

fn riscv64_view(name: &str) -> Option<RegView> {
    riscv_view(name, 64)
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
    }
}
