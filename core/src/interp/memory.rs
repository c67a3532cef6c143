//! A byte-addressed memory, little-endian unless made big-endian (Mips).
//!
//! Every address holds a byte; bytes nobody wrote read as a deterministic
//! pseudo-random function of a seed and the address (the "initial memory"
//! of an input, the same for every function run on that input), except in
//! the stack region, where unwritten bytes are undefined but for the
//! incoming arguments (fixed stack objects and variadic arguments, which
//! are inputs like the rest of memory), and where initial contents are
//! preset (jump tables, and the stack arguments an input chooses). Each
//! byte carries
//! an undefined-bits mask, so storing a partly undefined value and loading
//! it back keeps exactly which bits are known. Addresses wrap at the
//! pointer width; any size and alignment works.

use super::value::Value;
use crate::apint::ApInt;
use rustc_hash::{FxHashMap, FxHashSet};

/// Where stack objects (`G_FRAME_INDEX`) live, for a pointer width.
pub fn stack_region(pointer_bits: u32) -> (u64, u64) {
    if pointer_bits >= 64 { (0x5a5a_5a5a_0000_0000, 1 << 32) } else { (0x5a5a_0000, 1 << 24) }
}

/// Where stack object `%stack.N` is: a fixed place per object, whatever
/// order a run meets them in, 64 KiB apart (16 KiB with 32-bit pointers),
/// above the incoming arguments.
pub fn frame_address(pointer_bits: u32, index: u32) -> u64 {
    let (base, _) = stack_region(pointer_bits);
    let stride: u64 = if pointer_bits >= 64 { 0x1_0000 } else { 0x4000 };
    base + 0x80_0000 + u64::from(index) * stride
}

/// Where the incoming stack argument `offset` bytes into the caller's
/// argument area is (a fixed object's `offset:`): above the variadic
/// area and the stack pointer, below the stack objects.
pub fn incoming_address(pointer_bits: u32, offset: i64) -> u64 {
    let (base, _) = stack_region(pointer_bits);
    (base + 0x60_0000).wrapping_add_signed(offset)
}

/// The offsets of a function's fixed stack objects (`%fixed-stack.N`, its
/// incoming arguments) in the caller's argument area, by object number.
/// They place each object where it is whatever number a printer gave it
/// (llc numbers them in reverse, so a function and its legalized version
/// may name one object differently); an object the header does not list
/// gets one 16 KiB apart from the others.
#[derive(Clone, Debug, Default)]
pub struct FixedObjects {
    offsets: FxHashMap<u32, i64>,
}

impl FixedObjects {
    /// Objects by number, with their offsets.
    pub fn new(objects: impl IntoIterator<Item = (u32, i64)>) -> FixedObjects {
        FixedObjects { offsets: objects.into_iter().collect() }
    }

    /// The offset of `%fixed-stack.index`.
    pub fn offset(&self, index: u32) -> i64 {
        self.offsets.get(&index).copied().unwrap_or(i64::from(index) * 0x4000)
    }
}

/// Where the variadic arguments of a function whose header names no
/// object for them are: just below the fixed objects.
pub fn variadic_area(pointer_bits: u32) -> u64 {
    let (base, _) = stack_region(pointer_bits);
    base + 0x5f_0000
}

/// The incoming argument area: the variadic area and the fixed objects
/// above it (start and length). Its unwritten bytes are inputs, derived
/// from the seed like memory outside the stack, rather than undefined.
fn incoming_area(pointer_bits: u32) -> (u64, u64) {
    let start = variadic_area(pointer_bits);
    (start, frame_address(pointer_bits, 0) - start)
}

/// One byte of memory: its value and its undefined-bits mask.
pub type Byte = (u8, u8);

/// A memory image.
#[derive(Clone, Debug)]
pub struct Memory {
    seed: u64,
    address_mask: u64,
    stack: (u64, u64),
    /// The incoming argument area (see [`incoming_area`]).
    incoming: (u64, u64),
    /// Written bytes: value and undefined-bits mask.
    bytes: FxHashMap<u64, Byte>,
    /// Initial contents other than the seed's, which writes replace.
    preset: FxHashMap<u64, Byte>,
    /// A value's most significant byte is at the lowest address.
    big_endian: bool,
    /// The range whose writes are noted (a call's outgoing arguments), and
    /// the addresses written there since.
    watched: Option<(u64, u64)>,
    watched_writes: FxHashSet<u64>,
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
        Memory {
            seed,
            address_mask,
            stack: stack_region(pointer_bits),
            incoming: incoming_area(pointer_bits),
            bytes: FxHashMap::default(),
            preset: FxHashMap::default(),
            big_endian: false,
            watched: None,
            watched_writes: FxHashSet::default(),
        }
    }

    /// Notes from now on which bytes of `len` at `addr` are written (and
    /// forgets an earlier range); `None` stops noting.
    pub fn watch(&mut self, range: Option<(u64, u64)>) {
        self.watched = range;
        self.watched_writes.clear();
    }

    /// Whether `addr` is in the range [`Memory::watch`] set.
    fn is_watched(&self, addr: u64) -> bool {
        self.watched.is_some_and(|(start, len)| addr.wrapping_sub(start) < len)
    }

    /// Reads `len` bytes at `addr` as [`Memory::read`] does, the bytes not
    /// written since [`Memory::watch`] undefined.
    pub fn read_watched(&self, addr: u64, len: u64) -> Value {
        let value = self.read(addr, len);
        let unwritten = (0..len).filter(|i| !self.watched_writes.contains(&self.byte_address(addr, *i, len)));
        let undef = unwritten
            .fold(value.undef_mask().clone(), |mask, i| mask.or(&ApInt::bit_range(mask.bits(), i as u32 * 8, 8)));
        Value::new(value.bits().clone(), undef)
    }

    /// Makes values big-endian in memory (or little-endian again).
    pub fn set_big_endian(&mut self, big_endian: bool) {
        self.big_endian = big_endian;
    }

    /// Whether values are big-endian in memory.
    pub fn is_big_endian(&self) -> bool {
        self.big_endian
    }

    /// The address of byte `i` (least significant first) of a `len`-byte
    /// value at `addr`.
    fn byte_address(&self, addr: u64, i: u64, len: u64) -> u64 {
        let at = if self.big_endian { len - 1 - i } else { i };
        addr.wrapping_add(at) & self.address_mask
    }

    /// True when `addr` is in the stack region.
    pub fn is_stack(&self, addr: u64) -> bool {
        addr.wrapping_sub(self.stack.0) < self.stack.1
    }

    /// The byte at `addr`: its value and undefined-bits mask.
    pub fn byte(&self, addr: u64) -> Byte {
        let addr = addr & self.address_mask;
        match self.bytes.get(&addr) {
            Some(b) => *b,
            None => self.initial_byte(addr),
        }
    }

    /// The byte at `addr` before anything was written there.
    pub fn initial_byte(&self, addr: u64) -> Byte {
        let addr = addr & self.address_mask;
        if let Some(b) = self.preset.get(&addr) {
            *b
        } else if self.is_stack(addr) && addr.wrapping_sub(self.incoming.0) >= self.incoming.1 {
            (0, 0xff)
        } else {
            (splitmix64(self.seed ^ splitmix64(addr)) as u8, 0)
        }
    }

    /// Makes `value` the initial contents at `addr`: it reads as written
    /// there but is not a write (see [`Memory::written`]).
    pub fn preset(&mut self, addr: u64, value: &Value) {
        let len = u64::from(value.width().div_ceil(8));
        for (i, byte) in Memory::bytes_of(value).enumerate() {
            self.preset.insert(self.byte_address(addr, i as u64, len), byte);
        }
    }

    /// Reads `len` bytes at `addr` as one value, in the memory's byte
    /// order.
    pub fn read(&self, addr: u64, len: u64) -> Value {
        let width = (len * 8).max(8) as u32;
        let mut bits = vec![0u64; (len as usize).div_ceil(8).max(1)];
        let mut undef = bits.clone();
        for i in 0..len {
            let (v, u) = self.byte(self.byte_address(addr, i, len));
            bits[(i / 8) as usize] |= u64::from(v) << (8 * (i % 8));
            undef[(i / 8) as usize] |= u64::from(u) << (8 * (i % 8));
        }
        Value::new(ApInt::from_words(width, &bits), ApInt::from_words(width, &undef))
    }

    /// Writes `value` (a whole number of bytes; a partial top byte is
    /// padded with zero bits) at `addr`, in the memory's byte order.
    pub fn write(&mut self, addr: u64, value: &Value) {
        let len = u64::from(value.width().div_ceil(8));
        for (i, byte) in Memory::bytes_of(value).enumerate() {
            let at = self.byte_address(addr, i as u64, len);
            self.bytes.insert(at, byte);
            if self.is_watched(at) {
                self.watched_writes.insert(at);
            }
        }
    }

    /// The little-endian bytes of `value` (a partial top byte padded with
    /// zero bits), each with its undefined-bits mask.
    fn bytes_of(value: &Value) -> impl Iterator<Item = Byte> {
        let len = value.width().div_ceil(8);
        let value = value.zext(len * 8);
        (0..len).map(move |i| {
            let b = value.bits().extract(i * 8, 8).low_u64() as u8;
            let u = value.undef_mask().extract(i * 8, 8).low_u64() as u8;
            (b, u)
        })
    }

    /// Every written byte, stack included, in address order.
    pub fn written(&self) -> Vec<(u64, Byte)> {
        let mut out: Vec<(u64, Byte)> = self.bytes.iter().map(|(a, b)| (*a, *b)).collect();
        out.sort_unstable_by_key(|(a, _)| *a);
        out
    }

    /// Every written byte a function called with the stack pointer at
    /// `stack_pointer` could read, in address order: all but those of the
    /// free stack below it, which the callee's own frame takes.
    pub fn written_above(&self, stack_pointer: u64) -> Vec<(u64, Byte)> {
        let mut out = self.written();
        out.retain(|(addr, _)| !self.is_free_stack(*addr, stack_pointer));
        out
    }

    /// Whether `addr` is stack below `stack_pointer`: what a callee takes
    /// for its own frame, so that what an earlier call's arguments or a
    /// libcall's left there means nothing to it.
    fn is_free_stack(&self, addr: u64, stack_pointer: u64) -> bool {
        self.is_stack(addr) && addr.wrapping_sub(self.stack.0) < stack_pointer.wrapping_sub(self.stack.0)
    }

    /// The first byte at which this memory does not refine `reference`,
    /// the bytes another run on the same initial memory had written (see
    /// [`Memory::written`]): its address, the reference's byte and this
    /// memory's.
    /// Bytes of the watched range (a call's outgoing arguments, compared
    /// as such) and of the free stack below `stack_pointer` are left out.
    pub fn first_unrefined(&self, reference: &[(u64, Byte)], stack_pointer: u64) -> Option<(u64, Byte, Byte)> {
        let mut addrs: Vec<u64> = reference.iter().map(|(a, _)| *a).chain(self.bytes.keys().copied()).collect();
        addrs.sort_unstable();
        addrs.dedup();
        let compared = |addr: &u64| !self.is_watched(*addr) && !self.is_free_stack(*addr, stack_pointer);
        addrs.into_iter().filter(compared).find_map(|addr| {
            let before = match reference.binary_search_by_key(&addr, |(a, _)| *a) {
                Ok(i) => reference[i].1,
                Err(_) => self.initial_byte(addr),
            };
            let after = self.byte(addr);
            (!byte_refines(before, after)).then_some((addr, before, after))
        })
    }

    /// Every written address outside the stack region, sorted.
    pub fn written_outside_stack(&self) -> Vec<u64> {
        let mut out: Vec<u64> = self.bytes.keys().copied().filter(|a| !self.is_stack(*a)).collect();
        out.sort_unstable();
        out
    }
}

/// Whether byte `after` refines byte `before` (each a value and an
/// undefined-bits mask): every bit `before` defines, `after` defines alike.
pub fn byte_refines(before: Byte, after: Byte) -> bool {
    let care = !before.1;
    after.1 & care == 0 && (before.0 ^ after.0) & care == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_watched_range_holds_only_what_was_written_since() {
        let mut memory = Memory::new(1, 32);
        memory.write(0x1000, &Value::from_u128(32, 0x1122_3344));
        memory.watch(Some((0x1000, 4)));
        memory.write(0x1000, &Value::from_u128(8, 0xff));
        assert_eq!(memory.read_watched(0x1000, 4).to_string(), "0x??????ff");
        // Its bytes are left out of comparisons of memory, until unwatched.
        let reference = [(0x1000, (0xff, 0)), (0x1001, (0x22, 0))];
        assert_eq!(memory.first_unrefined(&reference, 0), None);
        memory.watch(None);
        assert_eq!(memory.first_unrefined(&reference, 0), Some((0x1001, (0x22, 0), (0x33, 0))));
    }

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
        assert!(m.read(incoming_address(64, 16), 8).is_defined(), "incoming arguments are inputs");
        assert!(!m.read(frame_address(64, 0), 8).is_defined());
        m.write(200, &Value::from_u128(8, 1).anyext(16));
        assert_eq!(m.byte(201), (0, 0xff));
        assert_eq!(m.written_outside_stack().len(), 8);
    }

    #[test]
    fn big_endian_byte_order() {
        let mut m = Memory::new(7, 32);
        m.set_big_endian(true);
        m.write(100, &Value::from_u128(32, 0x1122_3344));
        assert_eq!((m.byte(100), m.byte(103)), ((0x11, 0), (0x44, 0)));
        assert_eq!(m.read(100, 2), Value::from_u128(16, 0x1122), "the high half comes first");
        assert_eq!(m.read(100, 4), Value::from_u128(32, 0x1122_3344));
    }
}
