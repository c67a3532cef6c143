//! Which type a type-changing rule asks for: [`Mutation`], a plain enum,
//! with LLVM's `LegalizeMutations` constructors in [`mutations`].

use std::fmt;

use super::query::LegalityQuery;
use crate::ty::{Llt, MAX_ELEMENTS, MAX_SCALAR_BITS};

/// A user-supplied mutation: a name for printing and a plain function
/// returning the type index to change and its new type.
#[derive(Clone, Copy, Debug)]
pub struct CustomMutation {
    /// Printed in rule listings and explanations.
    pub name: &'static str,
    /// The mutation.
    pub apply: fn(&LegalityQuery<'_>) -> (u8, Llt),
}

/// Computes `(type index, new type)` from a query. A result that cannot be
/// represented (a zero-sized scalar, a vector of zero elements) comes back
/// as [`Llt::INVALID`], which the sanity checks report; nothing panics.
#[derive(Clone, Debug)]
pub enum Mutation {
    /// `(i, ty)`.
    ChangeTo(u8, Llt),
    /// `(i, types[from])`.
    ChangeToTypeOf(u8, u8),
    /// `(i, types[from])`, a pointer vector becoming the integer vector of
    /// the same shape (used by `min_scalar_elt_same_as_if`).
    ChangeToIntegerTypeOf(u8, u8),
    /// `types[i]` with its element type replaced by `ty`.
    ChangeElementTo(u8, Llt),
    /// `types[i]` with the element type of `types[from]`.
    ChangeElementToElementOf(u8, u8),
    /// `types[i]` with `count` elements (`scalable` or fixed; a fixed count
    /// of 1 gives the element).
    ChangeElementCountTo(u8, u32, bool),
    /// `types[i]` with the element count of `types[from]` (1 for a scalar).
    ChangeElementCountToCountOf(u8, u8),
    /// `types[i]` whose element becomes a plain `sN` with the scalar size
    /// of `types[from]`.
    ChangeElementSizeTo(u8, u8),
    /// Element size rounded up to a power of two, at least `min` bits.
    WidenScalarOrEltToNextPow2 {
        /// Type index.
        idx: u8,
        /// Minimum size in bits.
        min: u32,
    },
    /// Element size rounded up to a multiple of `size` bits.
    WidenScalarOrEltToNextMultipleOf {
        /// Type index.
        idx: u8,
        /// The multiple.
        size: u32,
    },
    /// A fixed vector whose element count is rounded up to a power of two,
    /// at least `min`.
    MoreElementsToNextPow2 {
        /// Type index.
        idx: u8,
        /// Minimum element count.
        min: u32,
    },
    /// A fixed vector whose element count is rounded up to a multiple of
    /// `multiple` (used by `align_num_elements_to`).
    MoreElementsToNextMultipleOf {
        /// Type index.
        idx: u8,
        /// The multiple.
        multiple: u32,
    },
    /// A fixed vector of the same count whose elements are `bits / count`
    /// wide (used by `widen_vector_elts_to_vector_min_size`).
    WidenVectorEltsToSize {
        /// Type index.
        idx: u8,
        /// The vector size to reach.
        bits: u32,
    },
    /// `(i, element type of types[i])`.
    Scalarize(u8),
    /// User code.
    Custom(CustomMutation),
}

fn with_element_size(old: Llt, bits: u64) -> Llt {
    if !old.is_valid() || bits == 0 || bits > u64::from(MAX_SCALAR_BITS) {
        return Llt::INVALID;
    }
    old.change_element_size(bits as u32)
}

fn fixed_vector(count: u64, element: Llt) -> Llt {
    if !element.is_valid() || count == 0 || count > u64::from(MAX_ELEMENTS) {
        return Llt::INVALID;
    }
    Llt::fixed_vector(count as u32, element)
}

fn next_pow2(n: u64) -> u64 {
    n.max(1).next_power_of_two()
}

impl Mutation {
    /// The type index the mutation changes (for validation and printing);
    /// `None` for custom mutations.
    pub fn type_idx(&self) -> Option<u8> {
        use Mutation as M;
        match self {
            M::ChangeTo(i, _)
            | M::ChangeToTypeOf(i, _)
            | M::ChangeToIntegerTypeOf(i, _)
            | M::ChangeElementTo(i, _)
            | M::ChangeElementToElementOf(i, _)
            | M::ChangeElementCountTo(i, _, _)
            | M::ChangeElementCountToCountOf(i, _)
            | M::ChangeElementSizeTo(i, _)
            | M::Scalarize(i) => Some(*i),
            M::WidenScalarOrEltToNextPow2 { idx, .. }
            | M::WidenScalarOrEltToNextMultipleOf { idx, .. }
            | M::MoreElementsToNextPow2 { idx, .. }
            | M::MoreElementsToNextMultipleOf { idx, .. }
            | M::WidenVectorEltsToSize { idx, .. } => Some(*idx),
            M::Custom(_) => None,
        }
    }

    /// Every type index the mutation reads or writes.
    pub fn type_indices(&self) -> Vec<u8> {
        use Mutation as M;
        match self {
            M::ChangeToTypeOf(i, f)
            | M::ChangeToIntegerTypeOf(i, f)
            | M::ChangeElementToElementOf(i, f)
            | M::ChangeElementCountToCountOf(i, f)
            | M::ChangeElementSizeTo(i, f) => vec![*i, *f],
            other => other.type_idx().into_iter().collect(),
        }
    }

    /// Computes `(type index, new type)`.
    pub fn apply(&self, q: &LegalityQuery<'_>) -> (u8, Llt) {
        use Mutation as M;
        match *self {
            M::ChangeTo(i, ty) => (i, ty),
            M::ChangeToTypeOf(i, from) => (i, q.ty(from)),
            M::ChangeToIntegerTypeOf(i, from) => {
                let ty = q.ty(from);
                if ty.is_pointer_vector() { (i, ty.change_element_size(ty.scalar_size_in_bits())) } else { (i, ty) }
            }
            M::ChangeElementTo(i, ty) => (i, change_element_type(q.ty(i), ty)),
            M::ChangeElementToElementOf(i, from) => (i, change_element_type(q.ty(i), q.ty(from).element_type())),
            M::ChangeElementCountTo(i, count, scalable) => {
                let old = q.ty(i);
                if !old.is_valid() || count == 0 || count > MAX_ELEMENTS {
                    return (i, Llt::INVALID);
                }
                (i, old.change_element_count(count, scalable))
            }
            M::ChangeElementCountToCountOf(i, from) => {
                let (old, src) = (q.ty(i), q.ty(from));
                if !old.is_valid() || !src.is_valid() {
                    return (i, Llt::INVALID);
                }
                (i, old.change_element_count(src.num_elements(), src.is_scalable()))
            }
            M::ChangeElementSizeTo(i, from) => {
                (i, with_element_size(q.ty(i), u64::from(q.ty(from).scalar_size_in_bits())))
            }
            M::WidenScalarOrEltToNextPow2 { idx, min } => {
                let old = q.ty(idx);
                let bits = next_pow2(u64::from(old.scalar_size_in_bits())).max(u64::from(min));
                (idx, with_element_size(old, bits))
            }
            M::WidenScalarOrEltToNextMultipleOf { idx, size } => {
                let old = q.ty(idx);
                let size = u64::from(size.max(1));
                (idx, with_element_size(old, u64::from(old.scalar_size_in_bits()).div_ceil(size) * size))
            }
            M::MoreElementsToNextPow2 { idx, min } => {
                let old = q.ty(idx);
                let count = next_pow2(u64::from(old.num_elements())).max(u64::from(min));
                (idx, fixed_vector(count, old.element_type()))
            }
            M::MoreElementsToNextMultipleOf { idx, multiple } => {
                let old = q.ty(idx);
                let multiple = u64::from(multiple.max(1));
                (idx, fixed_vector(u64::from(old.num_elements()).div_ceil(multiple) * multiple, old.element_type()))
            }
            M::WidenVectorEltsToSize { idx, bits } => {
                let old = q.ty(idx);
                let count = u64::from(old.num_elements().max(1));
                let element = Llt::try_scalar(u64::from(bits) / count).unwrap_or(Llt::INVALID);
                (idx, fixed_vector(count, element))
            }
            M::Scalarize(i) => (i, q.ty(i).element_type()),
            M::Custom(c) => (c.apply)(q),
        }
    }
}

fn change_element_type(old: Llt, element: Llt) -> Llt {
    if !old.is_valid() || !element.is_valid() {
        return Llt::INVALID;
    }
    old.change_element_type(element)
}

impl fmt::Display for Mutation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Mutation as M;
        match self {
            M::ChangeTo(i, t) => write!(f, "change_to({i}, {t})"),
            M::ChangeToTypeOf(i, from) => write!(f, "change_to_type_of({i}, {from})"),
            M::ChangeToIntegerTypeOf(i, from) => {
                write!(f, "change_to_integer_type_of({i}, {from})")
            }
            M::ChangeElementTo(i, t) => write!(f, "change_element_to({i}, {t})"),
            M::ChangeElementToElementOf(i, from) => {
                write!(f, "change_element_to_element_of({i}, {from})")
            }
            M::ChangeElementCountTo(i, n, false) => write!(f, "change_element_count_to({i}, {n})"),
            M::ChangeElementCountTo(i, n, true) => {
                write!(f, "change_element_count_to({i}, vscale x {n})")
            }
            M::ChangeElementCountToCountOf(i, from) => {
                write!(f, "change_element_count_to_count_of({i}, {from})")
            }
            M::ChangeElementSizeTo(i, from) => write!(f, "change_element_size_to({i}, {from})"),
            M::WidenScalarOrEltToNextPow2 { idx, min } => {
                write!(f, "widen_scalar_or_elt_to_next_pow2({idx}, {min})")
            }
            M::WidenScalarOrEltToNextMultipleOf { idx, size } => {
                write!(f, "widen_scalar_or_elt_to_next_multiple_of({idx}, {size})")
            }
            M::MoreElementsToNextPow2 { idx, min } => {
                write!(f, "more_elements_to_next_pow2({idx}, {min})")
            }
            M::MoreElementsToNextMultipleOf { idx, multiple } => {
                write!(f, "more_elements_to_next_multiple_of({idx}, {multiple})")
            }
            M::WidenVectorEltsToSize { idx, bits } => {
                write!(f, "widen_vector_elts_to_size({idx}, {bits})")
            }
            M::Scalarize(i) => write!(f, "scalarize({i})"),
            M::Custom(c) => write!(f, "custom({})", c.name),
        }
    }
}

/// Constructors for [`Mutation`] with the names of LLVM's
/// `LegalizeMutations` namespace in snake_case (overloads get a suffix).
pub mod mutations {
    use super::{CustomMutation, Mutation};
    use crate::legality::query::LegalityQuery;
    use crate::ty::Llt;

    /// `changeTo(idx, ty)`.
    pub fn change_to(idx: u8, ty: Llt) -> Mutation {
        Mutation::ChangeTo(idx, ty)
    }

    /// `changeTo(idx, from_idx)`.
    pub fn change_to_type_of(idx: u8, from: u8) -> Mutation {
        Mutation::ChangeToTypeOf(idx, from)
    }

    /// `changeElementTo(idx, ty)`.
    pub fn change_element_to(idx: u8, element: Llt) -> Mutation {
        Mutation::ChangeElementTo(idx, element)
    }

    /// `changeElementTo(idx, from_idx)`.
    pub fn change_element_to_element_of(idx: u8, from: u8) -> Mutation {
        Mutation::ChangeElementToElementOf(idx, from)
    }

    /// `changeElementCountTo(idx, ElementCount::getFixed(count))`.
    pub fn change_element_count_to(idx: u8, count: u32) -> Mutation {
        Mutation::ChangeElementCountTo(idx, count, false)
    }

    /// `changeElementCountTo(idx, ElementCount::getScalable(count))`.
    pub fn change_element_count_to_scalable(idx: u8, count: u32) -> Mutation {
        Mutation::ChangeElementCountTo(idx, count, true)
    }

    /// `changeElementCountTo(idx, from_idx)`.
    pub fn change_element_count_to_count_of(idx: u8, from: u8) -> Mutation {
        Mutation::ChangeElementCountToCountOf(idx, from)
    }

    /// `changeElementSizeTo(idx, from_idx)`.
    pub fn change_element_size_to(idx: u8, from: u8) -> Mutation {
        Mutation::ChangeElementSizeTo(idx, from)
    }

    /// `widenScalarOrEltToNextPow2(idx, min)`.
    pub fn widen_scalar_or_elt_to_next_pow2(idx: u8, min: u32) -> Mutation {
        Mutation::WidenScalarOrEltToNextPow2 { idx, min }
    }

    /// `widenScalarOrEltToNextMultipleOf(idx, size)`.
    pub fn widen_scalar_or_elt_to_next_multiple_of(idx: u8, size: u32) -> Mutation {
        Mutation::WidenScalarOrEltToNextMultipleOf { idx, size }
    }

    /// `moreElementsToNextPow2(idx, min)`.
    pub fn more_elements_to_next_pow2(idx: u8, min: u32) -> Mutation {
        Mutation::MoreElementsToNextPow2 { idx, min }
    }

    /// `scalarize(idx)`.
    pub fn scalarize(idx: u8) -> Mutation {
        Mutation::Scalarize(idx)
    }

    /// User code, printed as `custom(name)`.
    pub fn custom(name: &'static str, apply: fn(&LegalityQuery<'_>) -> (u8, Llt)) -> Mutation {
        Mutation::Custom(CustomMutation { name, apply })
    }
}

#[cfg(test)]
mod tests {
    use super::mutations::*;
    use super::*;
    use crate::opcode::Opcode;

    const S1: Llt = Llt::scalar(1);
    const S16: Llt = Llt::scalar(16);
    const S24: Llt = Llt::scalar(24);
    const S32: Llt = Llt::scalar(32);
    const S64: Llt = Llt::scalar(64);
    const P0: Llt = Llt::pointer(0, 64);

    fn v(n: u32, e: Llt) -> Llt {
        Llt::fixed_vector(n, e)
    }

    /// Each row: a mutation, the query types, the expected result, and a
    /// result it must not give (the "non-match").
    #[test]
    fn every_mutation_computes_its_type() {
        let rows: Vec<(Mutation, Vec<Llt>, (u8, Llt))> = vec![
            (change_to(0, S32), vec![S16], (0, S32)),
            (change_to_type_of(0, 1), vec![S16, S64], (0, S64)),
            (Mutation::ChangeToIntegerTypeOf(0, 1), vec![v(2, S32), v(2, P0)], (0, v(2, S64))),
            (change_element_to(0, S16), vec![v(4, S32)], (0, v(4, S16))),
            (change_element_to(0, S16), vec![S32], (0, S16)),
            (change_element_to_element_of(1, 0), vec![v(2, S64), v(2, S32)], (1, v(2, S64))),
            (change_element_count_to(0, 2), vec![v(4, S32)], (0, v(2, S32))),
            (change_element_count_to(0, 1), vec![v(4, S32)], (0, S32)),
            (change_element_count_to_scalable(0, 2), vec![S32], (0, Llt::scalable_vector(2, S32))),
            (change_element_count_to_count_of(0, 1), vec![v(4, S32), v(8, S16)], (0, v(8, S32))),
            (change_element_count_to_count_of(0, 1), vec![v(4, S32), S16], (0, S32)),
            (change_element_size_to(0, 1), vec![v(2, P0), S32], (0, v(2, S32))),
            (widen_scalar_or_elt_to_next_pow2(0, 0), vec![S24], (0, S32)),
            (widen_scalar_or_elt_to_next_pow2(0, 32), vec![v(4, Llt::scalar(3))], (0, v(4, S32))),
            (widen_scalar_or_elt_to_next_pow2(0, 8), vec![S1], (0, Llt::scalar(8))),
            (widen_scalar_or_elt_to_next_multiple_of(0, 32), vec![Llt::scalar(33)], (0, S64)),
            (more_elements_to_next_pow2(0, 0), vec![v(3, S16)], (0, v(4, S16))),
            (more_elements_to_next_pow2(0, 8), vec![v(3, S16)], (0, v(8, S16))),
            (Mutation::MoreElementsToNextMultipleOf { idx: 0, multiple: 4 }, vec![v(5, S16)], (0, v(8, S16))),
            (Mutation::WidenVectorEltsToSize { idx: 0, bits: 64 }, vec![v(4, Llt::scalar(8))], (0, v(4, S16))),
            (scalarize(0), vec![v(4, S32)], (0, S32)),
            (custom("to_s64", |_| (1, S64)), vec![S32, S32], (1, S64)),
        ];
        for (m, types, expect) in &rows {
            let q = LegalityQuery::new(Opcode::G_ADD, types);
            let got = m.apply(&q);
            assert_eq!(got, *expect, "{m} on {q}");
            assert_ne!(got.1, types[usize::from(got.0)], "{m} on {q} must change the type");
        }
    }

    #[test]
    fn impossible_results_are_invalid_not_panics() {
        let q = LegalityQuery::new(Opcode::G_ADD, &[]);
        assert_eq!(change_element_to(0, S32).apply(&q), (0, Llt::INVALID));
        assert_eq!(widen_scalar_or_elt_to_next_pow2(3, 0).apply(&q), (3, Llt::INVALID));
        let types = [S32];
        assert_eq!(change_element_count_to(0, 0).apply(&LegalityQuery::new(Opcode::G_ADD, &types)), (0, Llt::INVALID));
        let types = [v(4, S1)];
        let q = LegalityQuery::new(Opcode::G_ADD, &types);
        assert_eq!(Mutation::WidenVectorEltsToSize { idx: 0, bits: 2 }.apply(&q), (0, Llt::INVALID));
    }

    #[test]
    fn mutations_print_like_calls() {
        assert_eq!(widen_scalar_or_elt_to_next_pow2(0, 32).to_string(), "widen_scalar_or_elt_to_next_pow2(0, 32)");
        assert_eq!(change_to(1, S64).to_string(), "change_to(1, s64)");
        assert_eq!(change_element_size_to(0, 1).type_indices(), [0, 1]);
    }
}
