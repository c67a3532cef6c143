//! Memory operands: `:: (volatile load acquire (s32) from %ir.p + 4, align 2)`.

use crate::ty::Llt;

/// Atomic ordering of a memory access, weakest first. The derived order is
/// total; LLVM's strength order, where `acquire` and `release` are
/// incomparable, is [`AtomicOrdering::is_at_least_or_stronger_than`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum AtomicOrdering {
    /// Not atomic.
    #[default]
    NotAtomic,
    /// `unordered`.
    Unordered,
    /// `monotonic`.
    Monotonic,
    /// `acquire`.
    Acquire,
    /// `release`.
    Release,
    /// `acq_rel`.
    AcquireRelease,
    /// `seq_cst`.
    SequentiallyConsistent,
}

impl AtomicOrdering {
    /// Every ordering, weakest first.
    pub const ALL: [AtomicOrdering; 7] = [
        AtomicOrdering::NotAtomic,
        AtomicOrdering::Unordered,
        AtomicOrdering::Monotonic,
        AtomicOrdering::Acquire,
        AtomicOrdering::Release,
        AtomicOrdering::AcquireRelease,
        AtomicOrdering::SequentiallyConsistent,
    ];

    /// A small code for packing into cache keys (0..7).
    pub(crate) fn code(self) -> u64 {
        self as u64
    }

    /// LLVM's spelling (empty for not atomic).
    pub fn name(self) -> &'static str {
        match self {
            AtomicOrdering::NotAtomic => "",
            AtomicOrdering::Unordered => "unordered",
            AtomicOrdering::Monotonic => "monotonic",
            AtomicOrdering::Acquire => "acquire",
            AtomicOrdering::Release => "release",
            AtomicOrdering::AcquireRelease => "acq_rel",
            AtomicOrdering::SequentiallyConsistent => "seq_cst",
        }
    }

    /// Parses LLVM's spelling.
    pub fn from_name(name: &str) -> Option<AtomicOrdering> {
        Some(match name {
            "unordered" => AtomicOrdering::Unordered,
            "monotonic" => AtomicOrdering::Monotonic,
            "acquire" => AtomicOrdering::Acquire,
            "release" => AtomicOrdering::Release,
            "acq_rel" => AtomicOrdering::AcquireRelease,
            "seq_cst" => AtomicOrdering::SequentiallyConsistent,
            _ => return None,
        })
    }
}

/// Access flags of a memory operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct MemFlags(u8);

impl MemFlags {
    /// The access reads memory.
    pub const LOAD: MemFlags = MemFlags(1 << 0);
    /// The access writes memory.
    pub const STORE: MemFlags = MemFlags(1 << 1);
    /// `volatile`.
    pub const VOLATILE: MemFlags = MemFlags(1 << 2);
    /// `non-temporal`.
    pub const NON_TEMPORAL: MemFlags = MemFlags(1 << 3);
    /// `dereferenceable`.
    pub const DEREFERENCEABLE: MemFlags = MemFlags(1 << 4);
    /// `invariant`.
    pub const INVARIANT: MemFlags = MemFlags(1 << 5);

    /// True when every bit of `other` is set.
    pub fn contains(self, other: MemFlags) -> bool {
        self.0 & other.0 == other.0
    }

    /// Sets the bits of `other`.
    pub fn insert(&mut self, other: MemFlags) {
        self.0 |= other.0;
    }
}

/// The size of a memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemSize {
    /// A typed access (`(s32)`).
    Type(Llt),
    /// `unknown-size`.
    Unknown,
}

/// A memory operand of a load, store or atomic.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MemOperand {
    /// Load/store/volatile/... flags.
    pub flags: MemFlags,
    /// Target-specific flags as written, quotes included (`"amdgpu-noclobber"`).
    pub target_flags: Vec<Box<str>>,
    /// `syncscope("...")` as written between the quotes.
    pub sync_scope: Option<Box<str>>,
    /// Success ordering.
    pub ordering: AtomicOrdering,
    /// Failure ordering (cmpxchg only).
    pub failure_ordering: AtomicOrdering,
    /// Memory size and type.
    pub size: MemSize,
    /// What is accessed (`%ir.p`, `%stack.0`, `unknown-address`,
    /// `constant-pool`, ...) as written, or nothing.
    pub pointer: Option<Box<str>>,
    /// Byte offset from `pointer` (`+ 8`).
    pub offset: i64,
    /// Alignment of the base, in bytes; the printed `align` is derived from
    /// it and the offset.
    pub base_align: u64,
    /// Address space (`addrspace 1`), when written.
    pub addr_space: Option<u32>,
    /// Trailing metadata as written (`!tbaa !2`, `!range !0`).
    pub metadata: Vec<Box<str>>,
}

impl MemOperand {
    /// Makes the access one of `ty`. A `!range` says nothing about another
    /// type and is dropped, as LLVM's `getMachineMemOperand` with a type
    /// drops it.
    pub fn retype(&mut self, ty: Llt) {
        self.size = MemSize::Type(ty);
        self.metadata.retain(|m| !m.starts_with("!range"));
    }

    /// A plain access of `ty` with natural alignment.
    pub fn new(flags: MemFlags, ty: Llt) -> MemOperand {
        MemOperand {
            flags,
            target_flags: Vec::new(),
            sync_scope: None,
            ordering: AtomicOrdering::NotAtomic,
            failure_ordering: AtomicOrdering::NotAtomic,
            size: MemSize::Type(ty),
            pointer: None,
            offset: 0,
            base_align: natural_alignment(MemSize::Type(ty)),
            addr_space: None,
            metadata: Vec::new(),
        }
    }

    /// The metadata node of the access's `!range` (`!5`), if it has one.
    pub fn range_node(&self) -> Option<&str> {
        self.metadata.iter().find_map(|m| m.strip_prefix("!range ")).map(str::trim)
    }

    /// The memory type, if the size is known.
    pub fn memory_type(&self) -> Option<Llt> {
        match self.size {
            MemSize::Type(ty) => Some(ty),
            MemSize::Unknown => None,
        }
    }

    /// Alignment of this access in bytes: the largest power of two that
    /// divides both the base alignment and the offset.
    pub fn align(&self) -> u64 {
        common_alignment(self.base_align, self.offset)
    }

    /// Alignment in bits, as a legality query's memory descriptor uses.
    pub fn align_in_bits(&self) -> u64 {
        self.align() * 8
    }

    /// True for an atomic access.
    pub fn is_atomic(&self) -> bool {
        self.ordering != AtomicOrdering::NotAtomic
    }
}

/// The default base alignment of an access: its size in bytes rounded up
/// to a power of two (1 for unknown sizes), as LLVM's MIR parser assumes.
pub fn natural_alignment(size: MemSize) -> u64 {
    match size {
        MemSize::Type(ty) => ty.size_in_bytes().max(1).next_power_of_two(),
        MemSize::Unknown => 1,
    }
}

/// The largest power of two dividing both `align` and `offset`.
pub fn common_alignment(align: u64, offset: i64) -> u64 {
    if offset == 0 {
        return align;
    }
    let offset_align = 1u64 << offset.unsigned_abs().trailing_zeros().min(63);
    align.min(offset_align)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alignment_follows_the_offset() {
        let mut m = MemOperand::new(MemFlags::LOAD, Llt::scalar(64));
        assert_eq!(m.align(), 8);
        m.offset = 2;
        assert_eq!(m.align(), 2);
        m.offset = 16;
        assert_eq!(m.align(), 8);
        assert_eq!(natural_alignment(MemSize::Type(Llt::scalar(24))), 4);
    }
}
