//! What the legalizer asks: an opcode, one type per type index and one
//! memory descriptor per memory operand ([`LegalityQuery`]).

use std::fmt;

use crate::opcode::Opcode;
use crate::ty::Llt;

pub use crate::ir::AtomicOrdering;

/// What a rule may look at in one memory operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemDesc {
    /// The type in memory (may differ from the register type: extending
    /// loads and truncating stores).
    pub memory_ty: Llt,
    /// Alignment in bits (the memory operand's alignment times 8).
    pub align_in_bits: u64,
    /// The success ordering of an atomic access.
    pub ordering: AtomicOrdering,
    /// The failure ordering of a compare-and-exchange, `NotAtomic` otherwise.
    pub failure_ordering: AtomicOrdering,
}

impl MemDesc {
    /// A non-atomic access of `memory_ty` aligned to `align_in_bits`.
    pub const fn new(memory_ty: Llt, align_in_bits: u64) -> MemDesc {
        MemDesc {
            memory_ty,
            align_in_bits,
            ordering: AtomicOrdering::NotAtomic,
            failure_ordering: AtomicOrdering::NotAtomic,
        }
    }

    /// The same access with the success ordering `ordering`.
    pub const fn with_ordering(mut self, ordering: AtomicOrdering) -> MemDesc {
        self.ordering = ordering;
        self
    }

    /// A non-atomic access of `memory_ty` at its natural alignment (its
    /// byte size rounded up to a power of two, in bits).
    pub fn natural(memory_ty: Llt) -> MemDesc {
        let bytes = memory_ty.size_in_bytes().max(1).next_power_of_two();
        MemDesc::new(memory_ty, bytes * 8)
    }
}

impl fmt::Display for MemDesc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ordering != AtomicOrdering::NotAtomic {
            write!(f, "{} ", self.ordering.name())?;
        }
        if self.failure_ordering != AtomicOrdering::NotAtomic {
            write!(f, "{} ", self.failure_ordering.name())?;
        }
        write!(f, "{}, align {}", self.memory_ty, self.align_in_bits / 8)
    }
}

/// The description of an instruction that legality rules see: never the
/// instruction itself. The slices are borrowed so that building a query
/// costs nothing; the caller keeps the storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LegalityQuery<'a> {
    /// The opcode.
    pub opcode: Opcode,
    /// The type of each type index, in index order.
    pub types: &'a [Llt],
    /// One descriptor per memory operand, in operand order.
    pub mem_descs: &'a [MemDesc],
}

impl<'a> LegalityQuery<'a> {
    /// A query without memory operands.
    pub const fn new(opcode: Opcode, types: &'a [Llt]) -> LegalityQuery<'a> {
        LegalityQuery { opcode, types, mem_descs: &[] }
    }

    /// A query with memory operands.
    pub const fn with_mem(opcode: Opcode, types: &'a [Llt], mem_descs: &'a [MemDesc]) -> LegalityQuery<'a> {
        LegalityQuery { opcode, types, mem_descs }
    }

    /// The type of type index `idx`, or the invalid type when the query has
    /// no such index (so that a predicate on a missing index never matches
    /// instead of panicking).
    pub fn ty(&self, idx: u8) -> Llt {
        self.types.get(usize::from(idx)).copied().unwrap_or(Llt::INVALID)
    }

    /// The memory descriptor `idx`, if the query has one.
    pub fn mem(&self, idx: u8) -> Option<&MemDesc> {
        self.mem_descs.get(usize::from(idx))
    }
}

impl fmt::Display for LegalityQuery<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}(", self.opcode)?;
        for (i, ty) in self.types.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{ty}")?;
        }
        for (i, mem) in self.mem_descs.iter().enumerate() {
            f.write_str(if i == 0 { "; " } else { ", " })?;
            write!(f, "mem({mem})")?;
        }
        f.write_str(")")
    }
}

/// Parses a type as tests and the `assert_legality!` macro write it: LLVM's
/// spelling (`s32`, `p0`, `<4 x s32>`) or the identifier-friendly short
/// forms `v4s32`, `v2p0` and `nxv4s32` (scalable). Pointers get
/// `pointer_bits` bits.
pub fn parse_type_name(text: &str, pointer_bits: u32) -> Option<Llt> {
    let text = text.trim().trim_matches('"');
    let (scalable, rest) = match text.strip_prefix("nxv") {
        Some(rest) => (true, Some(rest)),
        None => (false, text.strip_prefix('v')),
    };
    let Some(rest) = rest else {
        return Llt::parse_with(text, |_| pointer_bits).ok();
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let count: u32 = rest[..digits].parse().ok()?;
    let element = Llt::parse_with(&rest[digits..], |_| pointer_bits).ok()?;
    if count == 0 || count > crate::ty::MAX_ELEMENTS || element.is_vector() {
        return None;
    }
    Some(if scalable { Llt::scalable_vector(count, element) } else { Llt::fixed_vector(count, element) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_vector_names_parse() {
        assert_eq!(parse_type_name("v4s32", 64), Some(Llt::fixed_vector(4, Llt::scalar(32))));
        assert_eq!(parse_type_name("nxv2s64", 64), Some(Llt::scalable_vector(2, Llt::scalar(64))));
        assert_eq!(parse_type_name("v2p0", 32), Some(Llt::fixed_vector(2, Llt::pointer(0, 32))));
        assert_eq!(parse_type_name("\"<4 x s16>\"", 64), Some(Llt::fixed_vector(4, Llt::scalar(16))));
        assert_eq!(parse_type_name("p0", 32), Some(Llt::pointer(0, 32)));
        assert_eq!(parse_type_name("v0s32", 64), None);
        assert_eq!(parse_type_name("vx", 64), None);
    }

    #[test]
    fn query_prints_like_a_call() {
        let types = [Llt::scalar(32), Llt::pointer(0, 64)];
        let mem = [MemDesc::new(Llt::scalar(8), 8).with_ordering(AtomicOrdering::Acquire)];
        let q = LegalityQuery::with_mem(Opcode::G_LOAD, &types, &mem);
        assert_eq!(q.to_string(), "G_LOAD(s32, p0; mem(acquire s8, align 1))");
        assert_eq!(q.ty(5), Llt::INVALID);
        assert!(q.mem(1).is_none());
        assert!(AtomicOrdering::SequentiallyConsistent > AtomicOrdering::Acquire);
    }
}
