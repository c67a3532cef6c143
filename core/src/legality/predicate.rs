//! When a rule applies: [`Predicate`], a plain enum that can be evaluated,
//! printed and inspected. The constructor functions with LLVM's names in
//! snake_case live in [`super::predicates`].

use std::fmt;

use super::query::{AtomicOrdering, LegalityQuery};
use crate::ty::Llt;

/// A user-supplied predicate: a name for printing and a plain function.
#[derive(Clone, Copy, Debug)]
pub struct CustomPredicate {
    /// Printed in rule listings and explanations.
    pub name: &'static str,
    /// The test.
    pub test: fn(&LegalityQuery<'_>) -> bool,
}

/// One entry of a `legal_for_types_with_mem_desc` table (LLVM's
/// `TypePairAndMemDesc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TypePairAndMemDesc {
    /// Type index 0.
    pub type0: Llt,
    /// Type index 1.
    pub type1: Llt,
    /// The memory type; only its size is compared (as in LLVM).
    pub mem_ty: Llt,
    /// The minimum alignment in bits.
    pub align_in_bits: u64,
}

impl TypePairAndMemDesc {
    /// An entry `(type0, type1, mem_ty, align_in_bits)`.
    pub const fn new(type0: Llt, type1: Llt, mem_ty: Llt, align_in_bits: u64) -> TypePairAndMemDesc {
        TypePairAndMemDesc { type0, type1, mem_ty, align_in_bits }
    }
}

/// A condition on a [`LegalityQuery`]. Type indices and memory-operand
/// indices are `u8`; an index the query lacks reads as the invalid type (or
/// no memory operand), which matches no kind or set test.
#[derive(Clone, Debug)]
pub enum Predicate {
    /// Always true.
    Always,
    /// `types[i] == ty`.
    TypeIs(u8, Llt),
    /// `types[i]` is in the set.
    TypeInSet(u8, Box<[Llt]>),
    /// `(types[i0], types[i1])` is in the set.
    TypePairInSet(u8, u8, Box<[(Llt, Llt)]>),
    /// `(types[i0], types[i1], types[i2])` is in the set.
    TypeTupleInSet(u8, u8, u8, Box<[(Llt, Llt, Llt)]>),
    /// `(types[i0], types[i1], mem[m])` is compatible with an entry: equal
    /// types, same memory size, query alignment at least the entry's.
    TypePairAndMemDescInSet(u8, u8, u8, Box<[TypePairAndMemDesc]>),
    /// `types[i]` is a scalar `sN`.
    IsScalar(u8),
    /// `types[i]` is a vector.
    IsVector(u8),
    /// `types[i]` is a fixed-length vector.
    IsFixedVector(u8),
    /// `types[i]` is a scalar pointer, in the given address space if any.
    IsPointer(u8, Option<u32>),
    /// `types[i]` is a vector of pointers.
    IsPointerVector(u8),
    /// `types[i]` is a vector whose element type is `ty`.
    ElementTypeIs(u8, Llt),
    /// `types[i]` is a scalar narrower than `n` bits.
    ScalarNarrowerThan(u8, u32),
    /// `types[i]` is a scalar wider than `n` bits.
    ScalarWiderThan(u8, u32),
    /// The scalar or element size of `types[i]` is below `n` bits.
    ScalarOrEltNarrowerThan(u8, u32),
    /// The scalar or element size of `types[i]` is above `n` bits.
    ScalarOrEltWiderThan(u8, u32),
    /// `types[i]` is a fixed vector of more than `n` elements.
    VectorElementCountIsGreaterThan(u8, u32),
    /// `types[i]` is a fixed vector of at most `n` elements.
    VectorElementCountIsLessThanOrEqualTo(u8, u32),
    /// `types[i]` is a scalar whose size is not a multiple of `n`.
    SizeNotMultipleOf(u8, u32),
    /// `types[i]` is a scalar whose size is not a power of two.
    SizeNotPow2(u8),
    /// The scalar or element size of `types[i]` is not a power of two.
    ScalarOrEltSizeNotPow2(u8),
    /// The total size of `types[i]` is `n` bits.
    SizeIs(u8, u64),
    /// `types[i0]` and `types[i1]` have the same total size.
    SameSize(u8, u8),
    /// `types[i0]` is larger in total than `types[i1]`.
    LargerThan(u8, u8),
    /// `types[i0]` is smaller in total than `types[i1]`.
    SmallerThan(u8, u8),
    /// The byte size (rounded up) of memory operand `m` is not a power of 2.
    MemSizeInBytesNotPow2(u8),
    /// Memory operand `m` is not byte-sized or its byte size is not a power
    /// of two.
    MemSizeNotByteSizePow2(u8),
    /// `types[i]` is a vector whose element count is not a power of two.
    NumElementsNotPow2(u8),
    /// `types[i]` is a fixed vector whose element count is not a multiple
    /// of `n` (used by `align_num_elements_to`).
    NumElementsNotMultipleOf(u8, u32),
    /// `types[i]` is a fixed vector smaller than `n` bits in total (used by
    /// `widen_vector_elts_to_vector_min_size`).
    FixedVectorSmallerThan(u8, u64),
    /// The total size of `types[i]` is below the scalar size of
    /// `types[other]` (used by `min_scalar_same_as`).
    SizeNarrowerThanScalarOf(u8, u8),
    /// The total size of `types[i]` is above the scalar size of
    /// `types[other]` (used by `max_scalar_same_as`).
    SizeWiderThanScalarOf(u8, u8),
    /// The scalar size of `types[i]` is below that of `types[other]`.
    ScalarOrEltNarrowerThanScalarOf(u8, u8),
    /// The scalar size of `types[i]` is above that of `types[other]`.
    ScalarOrEltWiderThanScalarOf(u8, u8),
    /// The success ordering of memory operand `m` is at least `ordering`.
    AtomicOrderingAtLeastOrStrongerThan(u8, AtomicOrdering),
    /// Negation.
    Not(Box<Predicate>),
    /// Every one holds (true when empty).
    All(Box<[Predicate]>),
    /// Some one holds (false when empty).
    Any(Box<[Predicate]>),
    /// User code.
    Custom(CustomPredicate),
}

fn pow2(n: u64) -> bool {
    n.is_power_of_two()
}

impl Predicate {
    /// Evaluates the predicate on a query.
    pub fn matches(&self, q: &LegalityQuery<'_>) -> bool {
        use Predicate as P;
        match self {
            P::Always => true,
            P::TypeIs(i, ty) => q.ty(*i) == *ty,
            P::TypeInSet(i, set) => set.contains(&q.ty(*i)),
            P::TypePairInSet(a, b, set) => set.contains(&(q.ty(*a), q.ty(*b))),
            P::TypeTupleInSet(a, b, c, set) => set.contains(&(q.ty(*a), q.ty(*b), q.ty(*c))),
            P::TypePairAndMemDescInSet(a, b, m, set) => q.mem(*m).is_some_and(|mem| {
                let (t0, t1) = (q.ty(*a), q.ty(*b));
                set.iter().any(|e| {
                    e.type0 == t0
                        && e.type1 == t1
                        && e.align_in_bits <= mem.align_in_bits
                        && e.mem_ty.size_in_bits() == mem.memory_ty.size_in_bits()
                })
            }),
            P::IsScalar(i) => q.ty(*i).is_scalar(),
            P::IsVector(i) => q.ty(*i).is_vector(),
            P::IsFixedVector(i) => q.ty(*i).is_fixed_vector(),
            P::IsPointer(i, space) => {
                let ty = q.ty(*i);
                ty.is_pointer() && space.is_none_or(|s| ty.address_space() == s)
            }
            P::IsPointerVector(i) => q.ty(*i).is_pointer_vector(),
            P::ElementTypeIs(i, elt) => {
                let ty = q.ty(*i);
                ty.is_vector() && ty.element_type() == *elt
            }
            P::ScalarNarrowerThan(i, n) => {
                let ty = q.ty(*i);
                ty.is_scalar() && ty.scalar_size_in_bits() < *n
            }
            P::ScalarWiderThan(i, n) => {
                let ty = q.ty(*i);
                ty.is_scalar() && ty.scalar_size_in_bits() > *n
            }
            P::ScalarOrEltNarrowerThan(i, n) => q.ty(*i).is_valid() && q.ty(*i).scalar_size_in_bits() < *n,
            P::ScalarOrEltWiderThan(i, n) => q.ty(*i).scalar_size_in_bits() > *n,
            P::VectorElementCountIsGreaterThan(i, n) => {
                let ty = q.ty(*i);
                ty.is_fixed_vector() && ty.num_elements() > *n
            }
            P::VectorElementCountIsLessThanOrEqualTo(i, n) => {
                let ty = q.ty(*i);
                ty.is_fixed_vector() && ty.num_elements() <= *n
            }
            P::SizeNotMultipleOf(i, n) => {
                let ty = q.ty(*i);
                ty.is_scalar() && *n != 0 && !ty.size_in_bits().is_multiple_of(u64::from(*n))
            }
            P::SizeNotPow2(i) => {
                let ty = q.ty(*i);
                ty.is_scalar() && !pow2(ty.size_in_bits())
            }
            P::ScalarOrEltSizeNotPow2(i) => {
                let ty = q.ty(*i);
                ty.is_valid() && !pow2(u64::from(ty.scalar_size_in_bits()))
            }
            P::SizeIs(i, n) => q.ty(*i).size_in_bits() == *n,
            P::SameSize(a, b) => q.ty(*a).size_in_bits() == q.ty(*b).size_in_bits(),
            P::LargerThan(a, b) => q.ty(*a).size_in_bits() > q.ty(*b).size_in_bits(),
            P::SmallerThan(a, b) => q.ty(*a).size_in_bits() < q.ty(*b).size_in_bits(),
            P::MemSizeInBytesNotPow2(m) => q.mem(*m).is_some_and(|mem| !pow2(mem.memory_ty.size_in_bytes())),
            P::MemSizeNotByteSizePow2(m) => {
                q.mem(*m).is_some_and(|mem| !mem.memory_ty.is_byte_sized() || !pow2(mem.memory_ty.size_in_bytes()))
            }
            P::NumElementsNotPow2(i) => {
                let ty = q.ty(*i);
                ty.is_vector() && !pow2(u64::from(ty.num_elements()))
            }
            P::NumElementsNotMultipleOf(i, n) => {
                let ty = q.ty(*i);
                ty.is_fixed_vector() && *n != 0 && !ty.num_elements().is_multiple_of(*n)
            }
            P::FixedVectorSmallerThan(i, n) => {
                let ty = q.ty(*i);
                ty.is_fixed_vector() && ty.size_in_bits() < *n
            }
            P::SizeNarrowerThanScalarOf(i, other) => {
                q.ty(*i).size_in_bits() < u64::from(q.ty(*other).scalar_size_in_bits())
            }
            P::SizeWiderThanScalarOf(i, other) => {
                q.ty(*i).size_in_bits() > u64::from(q.ty(*other).scalar_size_in_bits())
            }
            P::ScalarOrEltNarrowerThanScalarOf(i, other) => {
                q.ty(*i).scalar_size_in_bits() < q.ty(*other).scalar_size_in_bits()
            }
            P::ScalarOrEltWiderThanScalarOf(i, other) => {
                q.ty(*i).scalar_size_in_bits() > q.ty(*other).scalar_size_in_bits()
            }
            P::AtomicOrderingAtLeastOrStrongerThan(m, ordering) => {
                q.mem(*m).is_some_and(|mem| mem.ordering.is_at_least_or_stronger_than(*ordering))
            }
            P::Not(p) => !p.matches(q),
            P::All(ps) => ps.iter().all(|p| p.matches(q)),
            P::Any(ps) => ps.iter().any(|p| p.matches(q)),
            P::Custom(c) => (c.test)(q),
        }
    }

    /// True when the predicate holds for every query (`Always`, `all()` of
    /// such, `not` of a never-true one): a rule after it is unreachable.
    pub fn is_always_true(&self) -> bool {
        match self {
            Predicate::Always => true,
            Predicate::All(ps) => ps.iter().all(Predicate::is_always_true),
            Predicate::Any(ps) => ps.iter().any(Predicate::is_always_true),
            Predicate::Not(p) => matches!(&**p, Predicate::Any(ps) if ps.is_empty()),
            _ => false,
        }
    }

    /// Calls `type_idx` for every type index and `mem_idx` for every memory
    /// operand index the predicate reads (for validation).
    pub fn visit_indices(&self, type_idx: &mut dyn FnMut(u8), mem_idx: &mut dyn FnMut(u8)) {
        use Predicate as P;
        match self {
            P::Always | P::Custom(_) => {}
            P::TypeIs(i, _)
            | P::TypeInSet(i, _)
            | P::IsScalar(i)
            | P::IsVector(i)
            | P::IsFixedVector(i)
            | P::IsPointer(i, _)
            | P::IsPointerVector(i)
            | P::ElementTypeIs(i, _)
            | P::ScalarNarrowerThan(i, _)
            | P::ScalarWiderThan(i, _)
            | P::ScalarOrEltNarrowerThan(i, _)
            | P::ScalarOrEltWiderThan(i, _)
            | P::VectorElementCountIsGreaterThan(i, _)
            | P::VectorElementCountIsLessThanOrEqualTo(i, _)
            | P::SizeNotMultipleOf(i, _)
            | P::SizeNotPow2(i)
            | P::ScalarOrEltSizeNotPow2(i)
            | P::SizeIs(i, _)
            | P::NumElementsNotPow2(i)
            | P::NumElementsNotMultipleOf(i, _)
            | P::FixedVectorSmallerThan(i, _) => type_idx(*i),
            P::TypePairInSet(a, b, _)
            | P::SameSize(a, b)
            | P::LargerThan(a, b)
            | P::SmallerThan(a, b)
            | P::SizeNarrowerThanScalarOf(a, b)
            | P::SizeWiderThanScalarOf(a, b)
            | P::ScalarOrEltNarrowerThanScalarOf(a, b)
            | P::ScalarOrEltWiderThanScalarOf(a, b) => {
                type_idx(*a);
                type_idx(*b);
            }
            P::TypeTupleInSet(a, b, c, _) => {
                type_idx(*a);
                type_idx(*b);
                type_idx(*c);
            }
            P::TypePairAndMemDescInSet(a, b, m, _) => {
                type_idx(*a);
                type_idx(*b);
                mem_idx(*m);
            }
            P::MemSizeInBytesNotPow2(m)
            | P::MemSizeNotByteSizePow2(m)
            | P::AtomicOrderingAtLeastOrStrongerThan(m, _) => mem_idx(*m),
            P::Not(p) => p.visit_indices(type_idx, mem_idx),
            P::All(ps) | P::Any(ps) => ps.iter().for_each(|p| p.visit_indices(type_idx, mem_idx)),
        }
    }
}

impl AtomicOrdering {
    /// LLVM's `isAtLeastOrStrongerThan`: the partial order where `acquire`
    /// and `release` are incomparable.
    pub fn is_at_least_or_stronger_than(self, other: AtomicOrdering) -> bool {
        use AtomicOrdering as O;
        match (self, other) {
            (O::Acquire, O::Release) | (O::Release, O::Acquire) => false,
            (a, b) => a >= b,
        }
    }
}

struct List<'a, T>(&'a [T]);

impl<T: fmt::Display> fmt::Display for List<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, item) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{item}")?;
        }
        Ok(())
    }
}

/// Prints `(a, b)` tuples of types.
pub(crate) struct Pair(pub Llt, pub Llt);
impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.0, self.1)
    }
}

/// Prints `(a, b, c)` tuples of types.
pub(crate) struct Triple(pub Llt, pub Llt, pub Llt);
impl fmt::Display for Triple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}, {})", self.0, self.1, self.2)
    }
}

impl fmt::Display for TypePairAndMemDesc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {}, {}, {})", self.type0, self.type1, self.mem_ty, self.align_in_bits)
    }
}

/// Prints a list of types as `[s32, s64]`.
pub(crate) fn type_list(types: &[Llt]) -> String {
    format!("[{}]", List(types))
}

impl fmt::Display for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Predicate as P;
        match self {
            P::Always => f.write_str("always"),
            P::TypeIs(i, t) => write!(f, "type_is({i}, {t})"),
            P::TypeInSet(i, s) => write!(f, "type_in_set({i}, [{}])", List(s)),
            P::TypePairInSet(a, b, s) => {
                let items: Vec<Pair> = s.iter().map(|&(x, y)| Pair(x, y)).collect();
                write!(f, "type_pair_in_set({a}, {b}, [{}])", List(&items))
            }
            P::TypeTupleInSet(a, b, c, s) => {
                let items: Vec<Triple> = s.iter().map(|&(x, y, z)| Triple(x, y, z)).collect();
                write!(f, "type_tuple_in_set({a}, {b}, {c}, [{}])", List(&items))
            }
            P::TypePairAndMemDescInSet(a, b, m, s) => {
                write!(f, "type_pair_and_mem_desc_in_set({a}, {b}, {m}, [{}])", List(s))
            }
            P::IsScalar(i) => write!(f, "is_scalar({i})"),
            P::IsVector(i) => write!(f, "is_vector({i})"),
            P::IsFixedVector(i) => write!(f, "is_fixed_vector({i})"),
            P::IsPointer(i, None) => write!(f, "is_pointer({i})"),
            P::IsPointer(i, Some(s)) => write!(f, "is_pointer({i}, {s})"),
            P::IsPointerVector(i) => write!(f, "is_pointer_vector({i})"),
            P::ElementTypeIs(i, t) => write!(f, "element_type_is({i}, {t})"),
            P::ScalarNarrowerThan(i, n) => write!(f, "scalar_narrower_than({i}, {n})"),
            P::ScalarWiderThan(i, n) => write!(f, "scalar_wider_than({i}, {n})"),
            P::ScalarOrEltNarrowerThan(i, n) => write!(f, "scalar_or_elt_narrower_than({i}, {n})"),
            P::ScalarOrEltWiderThan(i, n) => write!(f, "scalar_or_elt_wider_than({i}, {n})"),
            P::VectorElementCountIsGreaterThan(i, n) => {
                write!(f, "vector_element_count_is_greater_than({i}, {n})")
            }
            P::VectorElementCountIsLessThanOrEqualTo(i, n) => {
                write!(f, "vector_element_count_is_less_than_or_equal_to({i}, {n})")
            }
            P::SizeNotMultipleOf(i, n) => write!(f, "size_not_multiple_of({i}, {n})"),
            P::SizeNotPow2(i) => write!(f, "size_not_pow2({i})"),
            P::ScalarOrEltSizeNotPow2(i) => write!(f, "scalar_or_elt_size_not_pow2({i})"),
            P::SizeIs(i, n) => write!(f, "size_is({i}, {n})"),
            P::SameSize(a, b) => write!(f, "same_size({a}, {b})"),
            P::LargerThan(a, b) => write!(f, "larger_than({a}, {b})"),
            P::SmallerThan(a, b) => write!(f, "smaller_than({a}, {b})"),
            P::MemSizeInBytesNotPow2(m) => write!(f, "mem_size_in_bytes_not_pow2({m})"),
            P::MemSizeNotByteSizePow2(m) => write!(f, "mem_size_not_byte_size_pow2({m})"),
            P::NumElementsNotPow2(i) => write!(f, "num_elements_not_pow2({i})"),
            P::NumElementsNotMultipleOf(i, n) => {
                write!(f, "num_elements_not_multiple_of({i}, {n})")
            }
            P::FixedVectorSmallerThan(i, n) => write!(f, "fixed_vector_smaller_than({i}, {n})"),
            P::SizeNarrowerThanScalarOf(i, o) => {
                write!(f, "size_narrower_than_scalar_of({i}, {o})")
            }
            P::SizeWiderThanScalarOf(i, o) => write!(f, "size_wider_than_scalar_of({i}, {o})"),
            P::ScalarOrEltNarrowerThanScalarOf(i, o) => {
                write!(f, "scalar_or_elt_narrower_than_scalar_of({i}, {o})")
            }
            P::ScalarOrEltWiderThanScalarOf(i, o) => {
                write!(f, "scalar_or_elt_wider_than_scalar_of({i}, {o})")
            }
            P::AtomicOrderingAtLeastOrStrongerThan(m, o) => {
                write!(f, "atomic_ordering_at_least_or_stronger_than({m}, {o:?})")
            }
            P::Not(p) => write!(f, "not({p})"),
            P::All(ps) => write!(f, "all({})", List(ps)),
            P::Any(ps) => write!(f, "any({})", List(ps)),
            P::Custom(c) => write!(f, "custom({})", c.name),
        }
    }
}
