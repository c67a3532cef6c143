//! Where a Mips O32 libcall's arguments and results are, by the
//! convention itself (LLVM's `CC_MipsO32`) rather than by the registers
//! the call names: a `double` that no longer fits the FPU argument
//! registers travels in an even-odd integer pair the call does not name.
//!
//! Integers take `a0`-`a3` one 32-bit piece at a time, then 4-byte stack
//! slots from offset 16 (the area the callee may save `a0`-`a3` to). The
//! first two arguments, when every one before them is floating-point too,
//! go in `f12`/`f14` (`float`) or `d6`/`d7` (`double`; `d12_64`/`d14_64`
//! with 64-bit FPU registers), shadowing the integer registers they stand
//! for. Results come back in `v0`/`v1` (`f0`, `d0` or `d0_64`). On
//! big-endian targets the first register of a pair holds the high half.

use super::abi::Abi;
use super::call_args::Place;
use super::libcall::Kind;

const INT_ARGS: [&str; 4] = ["a0", "a1", "a2", "a3"];
const INT_RESULTS: [&str; 4] = ["v0", "v1", "a0", "a1"];
/// The area reserved for the callee to save `a0`-`a3`.
const RESERVED_AREA: u64 = 16;

/// The O32 registers and stack handed out so far to a call's arguments or
/// results.
pub struct O32 {
    fp64: bool,
    float_reg_bits: u32,
    big_endian: bool,
    arguments: bool,
    /// The number of values handed out.
    index: usize,
    next_int: usize,
    /// `f12` and `f14` in use (also through `d6`/`d7`).
    fpu_used: [bool; 2],
    stack: u64,
}

impl O32 {
    /// The places of a call's `arguments` (or results) on `abi`.
    pub fn new(abi: &Abi, arguments: bool) -> O32 {
        O32 {
            fp64: abi.fp64(),
            float_reg_bits: abi.float_reg_bits,
            big_endian: abi.big_endian,
            arguments,
            index: 0,
            next_int: 0,
            fpu_used: [false; 2],
            stack: RESERVED_AREA,
        }
    }

    /// Whether a `kind` value travels in an FPU register.
    fn in_fpu(&self, kind: Kind) -> bool {
        matches!(kind, Kind::Float(bits @ (32 | 64)) if bits <= self.float_reg_bits)
    }

    fn take_int(&mut self) -> Option<&'static str> {
        let list = if self.arguments { INT_ARGS } else { INT_RESULTS };
        let reg = list.get(self.next_int).copied();
        self.next_int = (self.next_int + 1).min(list.len());
        reg
    }

    fn take_stack(&mut self, bytes: u64) -> Place {
        let offset = self.stack;
        self.stack += bytes;
        Place::Stack { offset, bytes }
    }

    /// The places of the next value, of `kind`, low part first.
    pub fn take(&mut self, kind: Kind) -> Vec<Place> {
        let index = self.index;
        self.index += 1;
        let mut places = if self.arguments { self.argument(index, kind) } else { self.result(kind) };
        if self.big_endian {
            places.reverse();
        }
        places
    }

    fn result(&mut self, kind: Kind) -> Vec<Place> {
        if self.in_fpu(kind) {
            let name = match (kind.bits(), self.fp64) {
                (32, _) => "f0",
                (_, true) => "d0_64",
                (_, false) => "d0",
            };
            return vec![Place::Reg(name.to_owned(), kind.bits())];
        }
        self.int_pieces(kind)
    }

    fn argument(&mut self, index: usize, kind: Kind) -> Vec<Place> {
        let bits = kind.bits();
        if self.in_fpu(kind) {
            let first_free = self.fpu_used.iter().position(|used| !used).unwrap_or(2);
            if index <= 1 && first_free == index {
                self.fpu_used[first_free] = true;
                let name = match (bits, self.fp64) {
                    (32, _) => ["f12", "f14"][first_free],
                    (_, true) => ["d12_64", "d14_64"][first_free],
                    (_, false) => ["d6", "d7"][first_free],
                };
                let shadow = self.take_int();
                if bits == 64 {
                    if matches!(shadow, Some("a1" | "a3")) {
                        self.take_int();
                    }
                    self.take_int();
                }
                return vec![Place::Reg(name.to_owned(), bits)];
            }
            if bits == 64 {
                let mut low = self.take_int();
                if matches!(low, Some("a1" | "a3")) {
                    low = self.take_int();
                }
                return match (low, self.take_int()) {
                    (Some(low), Some(high)) => vec![Place::Reg(low.to_owned(), 32), Place::Reg(high.to_owned(), 32)],
                    _ => vec![self.take_stack(8)],
                };
            }
        }
        self.int_pieces(kind)
    }

    /// A value as 32-bit integer pieces, in registers while they last and
    /// then (arguments only) on the stack.
    fn int_pieces(&mut self, kind: Kind) -> Vec<Place> {
        (0..kind.bits().div_ceil(32).max(1))
            .map(|_| match self.take_int() {
                Some(reg) => Place::Reg(reg.to_owned(), 32),
                None => self.take_stack(4),
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reg(name: &str, bits: u32) -> Place {
        Place::Reg(name.to_owned(), bits)
    }

    #[test]
    fn integers_then_the_stack() {
        let abi = Abi::mips(false, 64, false);
        let mut a = O32::new(&abi, true);
        assert_eq!(a.take(Kind::Int(64)), [reg("a0", 32), reg("a1", 32)]);
        assert_eq!(a.take(Kind::Int(32)), [reg("a2", 32)]);
        assert_eq!(a.take(Kind::Int(64)), [reg("a3", 32), Place::Stack { offset: 16, bytes: 4 }]);
        let big = Abi::mips(false, 64, true);
        let mut r = O32::new(&big, false);
        assert_eq!(r.take(Kind::Int(64)), [reg("v1", 32), reg("v0", 32)]);
    }

    #[test]
    fn leading_floats_in_the_fpu() {
        let abi = Abi::mips(false, 64, false);
        let mut a = O32::new(&abi, true);
        assert_eq!(a.take(Kind::Float(64)), [reg("d6", 64)]);
        assert_eq!(a.take(Kind::Float(64)), [reg("d7", 64)]);
        assert_eq!(a.take(Kind::Float(64)), [Place::Stack { offset: 16, bytes: 8 }]);
        let mut a = O32::new(&abi, true);
        assert_eq!(a.take(Kind::Float(32)), [reg("f12", 32)]);
        assert_eq!(a.take(Kind::Float(64)), [reg("d7", 64)], "d6 overlaps f12");
        assert_eq!(a.take(Kind::Float(64)), [Place::Stack { offset: 16, bytes: 8 }]);
        let mut a = O32::new(&abi, true);
        assert_eq!(a.take(Kind::Int(32)), [reg("a0", 32)]);
        assert_eq!(a.take(Kind::Float(64)), [reg("a2", 32), reg("a3", 32)], "after an integer, an even pair");
        let fp64 = Abi::mips(true, 64, false);
        let mut a = O32::new(&fp64, true);
        assert_eq!(a.take(Kind::Float(64)), [reg("d12_64", 64)]);
        assert_eq!(a.take(Kind::Int(32)), [reg("a2", 32)]);
        assert_eq!(O32::new(&fp64, false).take(Kind::Float(64)), [reg("d0_64", 64)]);
        let soft = Abi::mips(false, 0, false);
        assert_eq!(O32::new(&soft, true).take(Kind::Float(64)), [reg("a0", 32), reg("a1", 32)]);
    }
}
