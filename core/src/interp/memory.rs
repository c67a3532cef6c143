//! A byte-addressed little-endian memory.
//!
//! Every address holds a byte; bytes nobody wrote read as a deterministic
//! pseudo-random function of a seed and the address (the "initial memory"
//! of an input, the same for every function run on that input), except in
//! the stack region, where unwritten bytes are undefined. Each byte carries
//! an undefined-bits mask, so storing a partly undefined value and loading
//! it back keeps exactly which bits are known. Addresses wrap at the
//! pointer width; any size and alignment works.

use super::value::Value;
use crate::apint::ApInt;
use rustc_hash::FxHashMap;

/// Where stack objects (`G_FRAME_INDEX`) live, for a pointer width.
pub fn stack_region(pointer_bits: u32) -> (u64, u64) {
    if pointer_bits >= 64 { (0x5a5a_5a5a_0000_0000, 1 << 32) } else { (0x5a5a_0000, 1 << 24) }
}

/// A memory image.
#[derive(Clone, Debug)]
pub struct Memory {
    seed: u64,
    address_mask: u64,
    stack: (u64, u64),
    /// Written bytes: value and undefined-bits mask.
    bytes: FxHashMap<u64, (u8, u8)>,
}

/// SplitMix64, the hash behind initial memory and the input generator.
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

impl Memory {
    /// A memory whose unwritten bytes derive from `seed`, for pointers of
    /// `pointer_bits` bits.
    pub fn new(seed: u64, pointer_bits: u32) -> Memory {
        let address_mask = if pointer_bits >= 64 { u64::MAX } else { (1u64 << pointer_bits) - 1 };
        Memory { seed, address_mask, stack: stack_region(pointer_bits), bytes: FxHashMap::default() }
    }

    /// True when `addr` is in the stack region.
    pub fn is_stack(&self, addr: u64) -> bool {
        addr.wrapping_sub(self.stack.0) < self.stack.1
    }

    /// The byte at `addr`: its value and undefined-bits mask.
    pub fn byte(&self, addr: u64) -> (u8, u8) {
        let addr = addr & self.address_mask;
        if let Some(b) = self.bytes.get(&addr) {
            return *b;
        }
        if self.is_stack(addr) { (0, 0xff) } else { (splitmix64(self.seed ^ splitmix64(addr)) as u8, 0) }
    }

    /// Reads `len` bytes at `addr` as one little-endian value.
    pub fn read(&self, addr: u64, len: u64) -> Value {
        let width = (len * 8).max(8) as u32;
        let mut bits = vec![0u64; (len as usize).div_ceil(8).max(1)];
        let mut undef = bits.clone();
        for i in 0..len {
            let (v, u) = self.byte(addr.wrapping_add(i));
            bits[(i / 8) as usize] |= u64::from(v) << (8 * (i % 8));
            undef[(i / 8) as usize] |= u64::from(u) << (8 * (i % 8));
        }
        Value::new(ApInt::from_words(width, &bits), ApInt::from_words(width, &undef))
    }

    /// Writes `value` (a whole number of bytes; a partial top byte is
    /// padded with zero bits) at `addr`.
    pub fn write(&mut self, addr: u64, value: &Value) {
        let len = value.width().div_ceil(8);
        let value = value.zext(len * 8);
        for i in 0..len {
            let b = value.bits().extract(i * 8, 8).low_u64() as u8;
            let u = value.undef_mask().extract(i * 8, 8).low_u64() as u8;
            self.bytes.insert(addr.wrapping_add(u64::from(i)) & self.address_mask, (b, u));
        }
    }

    /// Every written address outside the stack region, sorted.
    pub fn written_outside_stack(&self) -> Vec<u64> {
        let mut out: Vec<u64> = self.bytes.keys().copied().filter(|a| !self.is_stack(*a)).collect();
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn little_endian_round_trip() {
        let mut m = Memory::new(7, 64);
        let before = m.read(100, 4);
        assert!(before.is_defined());
        assert_eq!(before, Memory::new(7, 64).read(100, 4), "initial memory is deterministic");
        m.write(100, &Value::from_u128(32, 0x1122_3344));
        assert_eq!(m.byte(100), (0x44, 0));
        assert_eq!(m.read(101, 2), Value::from_u128(16, 0x2233));
        m.write(u64::MAX, &Value::from_u128(16, 0xabcd));
        assert_eq!(m.byte(0), (0xab, 0), "addresses wrap");
        let (base, _) = stack_region(64);
        assert!(!m.read(base + 8, 8).is_defined());
        m.write(200, &Value::from_u128(8, 1).anyext(16));
        assert_eq!(m.byte(201), (0, 0xff));
        assert_eq!(m.written_outside_stack().len(), 8);
    }
}
