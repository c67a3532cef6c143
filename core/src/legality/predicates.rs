//! Constructors for [`Predicate`] with the names of LLVM's
//! `LegalityPredicates` namespace in snake_case (all 31 of LLVM 22, plus
//! `always` and `custom`).

use super::predicate::{CustomPredicate, Predicate, TypePairAndMemDesc};
use super::query::{AtomicOrdering, LegalityQuery};
use crate::ty::Llt;

/// Always true.
pub fn always() -> Predicate {
    Predicate::Always
}

/// Negation (LLVM's `predNot`).
pub fn not(p: Predicate) -> Predicate {
    Predicate::Not(Box::new(p))
}

/// Every predicate holds.
pub fn all(ps: impl IntoIterator<Item = Predicate>) -> Predicate {
    Predicate::All(ps.into_iter().collect())
}

/// Some predicate holds.
pub fn any(ps: impl IntoIterator<Item = Predicate>) -> Predicate {
    Predicate::Any(ps.into_iter().collect())
}

/// `types[idx] == ty`.
pub fn type_is(idx: u8, ty: Llt) -> Predicate {
    Predicate::TypeIs(idx, ty)
}

/// `types[idx] != ty`.
pub fn type_is_not(idx: u8, ty: Llt) -> Predicate {
    not(type_is(idx, ty))
}

/// `types[idx]` is one of `types`.
pub fn type_in_set(idx: u8, types: &[Llt]) -> Predicate {
    Predicate::TypeInSet(idx, types.into())
}

/// `(types[idx0], types[idx1])` is one of `pairs`.
pub fn type_pair_in_set(idx0: u8, idx1: u8, pairs: &[(Llt, Llt)]) -> Predicate {
    Predicate::TypePairInSet(idx0, idx1, pairs.into())
}

/// `(types[idx0], types[idx1], types[idx2])` is one of `tuples`.
pub fn type_tuple_in_set(idx0: u8, idx1: u8, idx2: u8, tuples: &[(Llt, Llt, Llt)]) -> Predicate {
    Predicate::TypeTupleInSet(idx0, idx1, idx2, tuples.into())
}

/// The two types and memory operand `mmo` match an entry (memory size
/// equal, query alignment at least the entry's).
pub fn type_pair_and_mem_desc_in_set(idx0: u8, idx1: u8, mmo: u8, entries: &[TypePairAndMemDesc]) -> Predicate {
    Predicate::TypePairAndMemDescInSet(idx0, idx1, mmo, entries.into())
}

/// `types[idx]` is a scalar `sN`.
pub fn is_scalar(idx: u8) -> Predicate {
    Predicate::IsScalar(idx)
}

/// `types[idx]` is a vector.
pub fn is_vector(idx: u8) -> Predicate {
    Predicate::IsVector(idx)
}

/// `types[idx]` is a scalar pointer in any address space.
pub fn is_pointer(idx: u8) -> Predicate {
    Predicate::IsPointer(idx, None)
}

/// `types[idx]` is a scalar pointer in `address_space`.
pub fn is_pointer_in(idx: u8, address_space: u32) -> Predicate {
    Predicate::IsPointer(idx, Some(address_space))
}

/// `types[idx]` is a vector of pointers.
pub fn is_pointer_vector(idx: u8) -> Predicate {
    Predicate::IsPointerVector(idx)
}

/// `types[idx]` is a vector of `element`.
pub fn element_type_is(idx: u8, element: Llt) -> Predicate {
    Predicate::ElementTypeIs(idx, element)
}

/// `types[idx]` is a scalar narrower than `bits`.
pub fn scalar_narrower_than(idx: u8, bits: u32) -> Predicate {
    Predicate::ScalarNarrowerThan(idx, bits)
}

/// `types[idx]` is a scalar wider than `bits`.
pub fn scalar_wider_than(idx: u8, bits: u32) -> Predicate {
    Predicate::ScalarWiderThan(idx, bits)
}

/// The scalar or element size of `types[idx]` is below `bits`.
pub fn scalar_or_elt_narrower_than(idx: u8, bits: u32) -> Predicate {
    Predicate::ScalarOrEltNarrowerThan(idx, bits)
}

/// The scalar or element size of `types[idx]` is above `bits`.
pub fn scalar_or_elt_wider_than(idx: u8, bits: u32) -> Predicate {
    Predicate::ScalarOrEltWiderThan(idx, bits)
}

/// `types[idx]` is a fixed vector of more than `count` elements.
pub fn vector_element_count_is_greater_than(idx: u8, count: u32) -> Predicate {
    Predicate::VectorElementCountIsGreaterThan(idx, count)
}

/// `types[idx]` is a fixed vector of at most `count` elements.
pub fn vector_element_count_is_less_than_or_equal_to(idx: u8, count: u32) -> Predicate {
    Predicate::VectorElementCountIsLessThanOrEqualTo(idx, count)
}

/// `types[idx]` is a scalar whose size is not a multiple of `bits`.
pub fn size_not_multiple_of(idx: u8, bits: u32) -> Predicate {
    Predicate::SizeNotMultipleOf(idx, bits)
}

/// `types[idx]` is a scalar whose size is not a power of two.
pub fn size_not_pow2(idx: u8) -> Predicate {
    Predicate::SizeNotPow2(idx)
}

/// The scalar or element size of `types[idx]` is not a power of two.
pub fn scalar_or_elt_size_not_pow2(idx: u8) -> Predicate {
    Predicate::ScalarOrEltSizeNotPow2(idx)
}

/// The total size of `types[idx]` is `bits`.
pub fn size_is(idx: u8, bits: u64) -> Predicate {
    Predicate::SizeIs(idx, bits)
}

/// `types[idx0]` and `types[idx1]` have the same total size.
pub fn same_size(idx0: u8, idx1: u8) -> Predicate {
    Predicate::SameSize(idx0, idx1)
}

/// `types[idx0]` is larger in total than `types[idx1]`.
pub fn larger_than(idx0: u8, idx1: u8) -> Predicate {
    Predicate::LargerThan(idx0, idx1)
}

/// `types[idx0]` is smaller in total than `types[idx1]`.
pub fn smaller_than(idx0: u8, idx1: u8) -> Predicate {
    Predicate::SmallerThan(idx0, idx1)
}

/// The byte size (rounded up) of memory operand `mmo` is not a power of 2.
pub fn mem_size_in_bytes_not_pow2(mmo: u8) -> Predicate {
    Predicate::MemSizeInBytesNotPow2(mmo)
}

/// Memory operand `mmo` is not byte-sized or its byte size is not a power
/// of two.
pub fn mem_size_not_byte_size_pow2(mmo: u8) -> Predicate {
    Predicate::MemSizeNotByteSizePow2(mmo)
}

/// `types[idx]` is a vector whose element count is not a power of two.
pub fn num_elements_not_pow2(idx: u8) -> Predicate {
    Predicate::NumElementsNotPow2(idx)
}

/// The success ordering of memory operand `mmo` is at least `ordering`.
pub fn atomic_ordering_at_least_or_stronger_than(mmo: u8, ordering: AtomicOrdering) -> Predicate {
    Predicate::AtomicOrderingAtLeastOrStrongerThan(mmo, ordering)
}

/// User code, printed as `custom(name)`.
pub fn custom(name: &'static str, test: fn(&LegalityQuery<'_>) -> bool) -> Predicate {
    Predicate::Custom(CustomPredicate { name, test })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opcode::Opcode;

    const S1: Llt = Llt::scalar(1);
    const S8: Llt = Llt::scalar(8);
    const S16: Llt = Llt::scalar(16);
    const S24: Llt = Llt::scalar(24);
    const S32: Llt = Llt::scalar(32);
    const S64: Llt = Llt::scalar(64);
    const P0: Llt = Llt::pointer(0, 64);
    const P1: Llt = Llt::pointer(1, 64);
    const V4S32: Llt = Llt::fixed_vector(4, S32);
    const V3S16: Llt = Llt::fixed_vector(3, S16);
    const V2P0: Llt = Llt::fixed_vector(2, P0);
    const NXV4S32: Llt = Llt::scalable_vector(4, S32);

    fn check(p: &Predicate, types: &[Llt], expect: bool) {
        let q = LegalityQuery::new(Opcode::G_ADD, types);
        assert_eq!(p.matches(&q), expect, "{p} on {q}");
    }

    fn check_mem(p: &Predicate, mem: MemDesc, expect: bool) {
        let types = [S32, P0];
        let mems = [mem];
        let q = LegalityQuery::with_mem(Opcode::G_LOAD, &types, &mems);
        assert_eq!(p.matches(&q), expect, "{p} on {q}");
    }

    use crate::legality::query::MemDesc;

    /// Each row: a predicate, a matching query, a non-matching query.
    #[test]
    fn every_type_predicate_has_a_match_and_a_miss() {
        let rows: Vec<(Predicate, Vec<Llt>, Vec<Llt>)> = vec![
            (type_is(0, S32), vec![S32], vec![S64]),
            (type_is_not(0, S32), vec![S64], vec![S32]),
            (type_in_set(0, &[S32, S64]), vec![S64], vec![S16]),
            (type_pair_in_set(0, 1, &[(S32, S64)]), vec![S32, S64], vec![S64, S32]),
            (type_tuple_in_set(0, 1, 2, &[(S32, S64, P0)]), vec![S32, S64, P0], vec![S32, S64, S64]),
            (is_scalar(0), vec![S32], vec![P0]),
            (is_vector(0), vec![V4S32], vec![S32]),
            (is_pointer(0), vec![P1], vec![V2P0]),
            (is_pointer_in(0, 1), vec![P1], vec![P0]),
            (is_pointer_vector(0), vec![V2P0], vec![P0]),
            (element_type_is(0, S32), vec![V4S32], vec![S32]),
            (scalar_narrower_than(0, 32), vec![S16], vec![V3S16]),
            (scalar_wider_than(0, 32), vec![S64], vec![P0]),
            (scalar_or_elt_narrower_than(0, 32), vec![V3S16], vec![S32]),
            (scalar_or_elt_wider_than(0, 32), vec![P0], vec![V4S32]),
            (vector_element_count_is_greater_than(0, 3), vec![V4S32], vec![NXV4S32]),
            (vector_element_count_is_less_than_or_equal_to(0, 3), vec![V3S16], vec![V4S32]),
            (size_not_multiple_of(0, 32), vec![S24], vec![S64]),
            (size_not_pow2(0), vec![S24], vec![V3S16]),
            (scalar_or_elt_size_not_pow2(0), vec![Llt::fixed_vector(2, S24)], vec![V3S16]),
            (size_is(0, 48), vec![V3S16], vec![S32]),
            (same_size(0, 1), vec![S64, P0], vec![S32, P0]),
            (larger_than(0, 1), vec![V4S32, S64], vec![S32, S64]),
            (smaller_than(0, 1), vec![S32, S64], vec![S64, S64]),
            (num_elements_not_pow2(0), vec![V3S16], vec![V4S32]),
            (not(is_scalar(0)), vec![P0], vec![S8]),
            (all([is_scalar(0), scalar_narrower_than(0, 32)]), vec![S8], vec![S64]),
            (any([is_pointer(0), type_is(0, S8)]), vec![S8], vec![S16]),
            (custom("is_s1", |q| q.ty(0) == S1), vec![S1], vec![S8]),
        ];
        for (p, yes, no) in &rows {
            check(p, yes, true);
            check(p, no, false);
        }
    }

    #[test]
    fn memory_predicates() {
        let entries = [TypePairAndMemDesc::new(S32, P0, S16, 16)];
        let p = type_pair_and_mem_desc_in_set(0, 1, 0, &entries);
        check_mem(&p, MemDesc::new(S16, 32), true);
        check_mem(&p, MemDesc::new(S16, 8), false);
        check_mem(&p, MemDesc::new(S8, 32), false);
        // Only the memory size is compared.
        check_mem(&p, MemDesc::new(Llt::fixed_vector(2, S8), 16), true);

        let p = mem_size_in_bytes_not_pow2(0);
        check_mem(&p, MemDesc::new(S24, 8), true);
        check_mem(&p, MemDesc::new(Llt::scalar(7), 8), false);
        check_mem(&p, MemDesc::new(S1, 8), false);

        let p = mem_size_not_byte_size_pow2(0);
        check_mem(&p, MemDesc::new(Llt::scalar(7), 8), true);
        check_mem(&p, MemDesc::new(S1, 8), true);
        check_mem(&p, MemDesc::new(S24, 8), true);
        check_mem(&p, MemDesc::new(S16, 8), false);

        let p = atomic_ordering_at_least_or_stronger_than(0, AtomicOrdering::Acquire);
        check_mem(&p, MemDesc::new(S32, 32).with_ordering(AtomicOrdering::SequentiallyConsistent), true);
        check_mem(&p, MemDesc::new(S32, 32).with_ordering(AtomicOrdering::Release), false);
        check_mem(&p, MemDesc::new(S32, 32), false);
        // A query without the memory operand never matches.
        check(&p, &[S32], false);
    }

    #[test]
    fn predicates_print_like_calls() {
        let p = all([type_in_set(0, &[S32, P0]), not(is_vector(1))]);
        assert_eq!(p.to_string(), "all(type_in_set(0, [s32, p0]), not(is_vector(1)))");
        assert!(all([always(), always()]).is_always_true());
        assert!(!all([always(), is_scalar(0)]).is_always_true());
        let mut seen = Vec::new();
        p.visit_indices(&mut |i| seen.push(i), &mut |_| {});
        assert_eq!(seen, [0, 1]);
    }
}
