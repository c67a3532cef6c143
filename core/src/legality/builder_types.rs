//! Builder methods of [`RuleSet`] that change a type: widen, narrow,
//! clamp, more and fewer elements, scalarize. Each marks the type index it
//! names as covered (LLVM's `typeIdx()`); the `*_if(predicate, mutation)`
//! forms cover all.

use super::action::LegalizeAction as A;
use super::errors::RuleError;
use super::mutation::{Mutation, mutations as m};
use super::predicate::Predicate;
use super::predicates as p;
use super::rule::{Origin, TypeList};
use super::rule_set::RuleSet;
use crate::ty::Llt;

impl RuleSet {
    fn typed(
        &mut self,
        idx: u8,
        origin: &Origin,
        action: super::LegalizeAction,
        predicate: Predicate,
        mutation: Mutation,
    ) -> &mut Self {
        self.cover_type(idx);
        self.push(origin, action, predicate, Some(mutation))
    }

    fn require_scalar(&mut self, origin: &Origin, ty: Llt) -> bool {
        if !ty.is_scalar() {
            self.error(RuleError::WrongKind { origin: origin.to_string(), ty, expected: "a scalar" });
        }
        ty.is_scalar()
    }

    // --- widen ---

    /// Widen to the type `mutation` gives when `predicate` holds. Covers all.
    pub fn widen_scalar_if(&mut self, predicate: Predicate, mutation: Mutation) -> &mut Self {
        self.cover_all();
        let origin = origin!(
            "widen_scalar_if({predicate}, {mutation})",
            predicate = predicate.clone(),
            mutation = mutation.clone()
        );
        self.push(&origin, A::WidenScalar, predicate, Some(mutation))
    }

    /// A scalar whose size is not a power of two widens to the next power
    /// of two, at least `min_bits` (pass 0 for LLVM's default).
    pub fn widen_scalar_to_next_pow2(&mut self, idx: u8, min_bits: u32) -> &mut Self {
        let origin = origin!("widen_scalar_to_next_pow2({idx}, {min_bits})");
        self.typed(
            idx,
            &origin,
            A::WidenScalar,
            p::size_not_pow2(idx),
            m::widen_scalar_or_elt_to_next_pow2(idx, min_bits),
        )
    }

    /// A scalar whose size is not a multiple of `bits` widens to the next
    /// multiple.
    pub fn widen_scalar_to_next_multiple_of(&mut self, idx: u8, bits: u32) -> &mut Self {
        let origin = origin!("widen_scalar_to_next_multiple_of({idx}, {bits})");
        let mutation = m::widen_scalar_or_elt_to_next_multiple_of(idx, bits);
        self.typed(idx, &origin, A::WidenScalar, p::size_not_multiple_of(idx, bits), mutation)
    }

    /// A scalar or element whose size is not a power of two widens to the
    /// next power of two, at least `min_bits`.
    pub fn widen_scalar_or_elt_to_next_pow2(&mut self, idx: u8, min_bits: u32) -> &mut Self {
        let origin = origin!("widen_scalar_or_elt_to_next_pow2({idx}, {min_bits})");
        let mutation = m::widen_scalar_or_elt_to_next_pow2(idx, min_bits);
        self.typed(idx, &origin, A::WidenScalar, p::scalar_or_elt_size_not_pow2(idx), mutation)
    }

    /// As [`RuleSet::widen_scalar_or_elt_to_next_pow2`], and also when the
    /// scalar or element is narrower than `min_bits`.
    pub fn widen_scalar_or_elt_to_next_pow2_or_min_size(&mut self, idx: u8, min_bits: u32) -> &mut Self {
        let origin = origin!("widen_scalar_or_elt_to_next_pow2_or_min_size({idx}, {min_bits})");
        let predicate = p::any([p::scalar_or_elt_narrower_than(idx, min_bits), p::scalar_or_elt_size_not_pow2(idx)]);
        self.typed(idx, &origin, A::WidenScalar, predicate, m::widen_scalar_or_elt_to_next_pow2(idx, min_bits))
    }

    /// A scalar narrower than `ty` becomes `ty` (vectors are unaffected).
    pub fn min_scalar(&mut self, idx: u8, ty: Llt) -> &mut Self {
        let origin = origin!("min_scalar({idx}, {ty})");
        self.min_scalar_rule(&origin, idx, ty)
    }

    fn min_scalar_rule(&mut self, origin: &Origin, idx: u8, ty: Llt) -> &mut Self {
        self.require_scalar(origin, ty);
        let predicate = p::scalar_narrower_than(idx, ty.scalar_size_in_bits());
        self.typed(idx, origin, A::WidenScalar, predicate, m::change_to(idx, ty))
    }

    /// [`RuleSet::min_scalar`] gated by `predicate`.
    pub fn min_scalar_if(&mut self, predicate: Predicate, idx: u8, ty: Llt) -> &mut Self {
        let origin = origin!("min_scalar_if({predicate}, {idx}, {ty})", predicate = predicate.clone());
        self.require_scalar(&origin, ty);
        let predicate = p::all([p::scalar_narrower_than(idx, ty.scalar_size_in_bits()), predicate]);
        self.typed(idx, &origin, A::WidenScalar, predicate, m::change_element_to(idx, ty))
    }

    /// A scalar or element narrower than `ty`'s scalar size gets element
    /// type `ty`.
    pub fn min_scalar_or_elt(&mut self, idx: u8, ty: Llt) -> &mut Self {
        let origin = origin!("min_scalar_or_elt({idx}, {ty})");
        self.min_scalar_or_elt_rule(&origin, idx, ty)
    }

    fn min_scalar_or_elt_rule(&mut self, origin: &Origin, idx: u8, ty: Llt) -> &mut Self {
        let predicate = p::scalar_or_elt_narrower_than(idx, ty.scalar_size_in_bits());
        self.typed(idx, origin, A::WidenScalar, predicate, m::change_element_to(idx, ty))
    }

    /// [`RuleSet::min_scalar_or_elt`] gated by `predicate`.
    pub fn min_scalar_or_elt_if(&mut self, predicate: Predicate, idx: u8, ty: Llt) -> &mut Self {
        let origin = origin!("min_scalar_or_elt_if({predicate}, {idx}, {ty})", predicate = predicate.clone());
        let predicate = p::all([predicate, p::scalar_or_elt_narrower_than(idx, ty.scalar_size_in_bits())]);
        self.typed(idx, &origin, A::WidenScalar, predicate, m::change_element_to(idx, ty))
    }

    /// When `large_idx`'s scalar size exceeds `idx`'s total size, `idx`'s
    /// element size becomes that size (pointer-ness dropped).
    pub fn min_scalar_same_as(&mut self, idx: u8, large_idx: u8) -> &mut Self {
        let origin = origin!("min_scalar_same_as({idx}, {large_idx})");
        self.min_scalar_same_as_rule(&origin, idx, large_idx)
    }

    fn min_scalar_same_as_rule(&mut self, origin: &Origin, idx: u8, large_idx: u8) -> &mut Self {
        let predicate = Predicate::SizeNarrowerThanScalarOf(idx, large_idx);
        self.typed(idx, origin, A::WidenScalar, predicate, m::change_element_size_to(idx, large_idx))
    }

    /// Gated by `predicate`: when `idx`'s scalar size is below
    /// `large_idx`'s, `idx` becomes `large_idx`'s type (a pointer vector
    /// as the integer vector).
    pub fn min_scalar_elt_same_as_if(&mut self, predicate: Predicate, idx: u8, large_idx: u8) -> &mut Self {
        let origin =
            origin!("min_scalar_elt_same_as_if({predicate}, {idx}, {large_idx})", predicate = predicate.clone());
        let predicate = p::all([Predicate::ScalarOrEltNarrowerThanScalarOf(idx, large_idx), predicate]);
        self.typed(idx, &origin, A::WidenScalar, predicate, Mutation::ChangeToIntegerTypeOf(idx, large_idx))
    }

    /// A fixed vector smaller than `vector_bits` gets elements of
    /// `vector_bits / count` bits.
    pub fn widen_vector_elts_to_vector_min_size(&mut self, idx: u8, vector_bits: u32) -> &mut Self {
        let origin = origin!("widen_vector_elts_to_vector_min_size({idx}, {vector_bits})");
        let predicate = Predicate::FixedVectorSmallerThan(idx, u64::from(vector_bits));
        self.typed(idx, &origin, A::WidenScalar, predicate, Mutation::WidenVectorEltsToSize { idx, bits: vector_bits })
    }

    // --- narrow ---

    /// Narrow to the type `mutation` gives when `predicate` holds. Covers all.
    pub fn narrow_scalar_if(&mut self, predicate: Predicate, mutation: Mutation) -> &mut Self {
        self.cover_all();
        let origin = origin!(
            "narrow_scalar_if({predicate}, {mutation})",
            predicate = predicate.clone(),
            mutation = mutation.clone()
        );
        self.push(&origin, A::NarrowScalar, predicate, Some(mutation))
    }

    /// Narrow to the type `mutation` gives for the listed types or pairs.
    pub fn narrow_scalar_for(&mut self, types: impl Into<TypeList>, mutation: Mutation) -> &mut Self {
        let list = types.into();
        self.action_for(
            origin!("narrow_scalar_for({list}, {mutation})", list = list.clone(), mutation = mutation.clone()),
            A::NarrowScalar,
            list,
            Some(mutation),
        )
    }

    /// Narrow whenever `idx` is a scalar.
    pub fn narrow_scalar(&mut self, idx: u8, mutation: Mutation) -> &mut Self {
        let origin = origin!("narrow_scalar({idx}, {mutation})", mutation = mutation.clone());
        self.typed(idx, &origin, A::NarrowScalar, p::is_scalar(idx), mutation)
    }

    /// A scalar wider than `ty` becomes `ty`.
    pub fn max_scalar(&mut self, idx: u8, ty: Llt) -> &mut Self {
        let origin = origin!("max_scalar({idx}, {ty})");
        self.max_scalar_rule(&origin, idx, ty)
    }

    fn max_scalar_rule(&mut self, origin: &Origin, idx: u8, ty: Llt) -> &mut Self {
        self.require_scalar(origin, ty);
        let predicate = p::scalar_wider_than(idx, ty.scalar_size_in_bits());
        self.typed(idx, origin, A::NarrowScalar, predicate, m::change_to(idx, ty))
    }

    /// [`RuleSet::max_scalar`] gated by `predicate`.
    pub fn max_scalar_if(&mut self, predicate: Predicate, idx: u8, ty: Llt) -> &mut Self {
        let origin = origin!("max_scalar_if({predicate}, {idx}, {ty})", predicate = predicate.clone());
        self.require_scalar(&origin, ty);
        let predicate = p::all([p::scalar_wider_than(idx, ty.scalar_size_in_bits()), predicate]);
        self.typed(idx, &origin, A::NarrowScalar, predicate, m::change_element_to(idx, ty))
    }

    /// A scalar or element wider than `ty`'s scalar size gets element type
    /// `ty`.
    pub fn max_scalar_or_elt(&mut self, idx: u8, ty: Llt) -> &mut Self {
        let origin = origin!("max_scalar_or_elt({idx}, {ty})");
        self.max_scalar_or_elt_rule(&origin, idx, ty)
    }

    fn max_scalar_or_elt_rule(&mut self, origin: &Origin, idx: u8, ty: Llt) -> &mut Self {
        let predicate = p::scalar_or_elt_wider_than(idx, ty.scalar_size_in_bits());
        self.typed(idx, origin, A::NarrowScalar, predicate, m::change_element_to(idx, ty))
    }

    /// When `idx`'s total size exceeds `narrow_idx`'s scalar size, `idx`'s
    /// element size becomes that size.
    pub fn max_scalar_same_as(&mut self, idx: u8, narrow_idx: u8) -> &mut Self {
        let origin = origin!("max_scalar_same_as({idx}, {narrow_idx})");
        self.max_scalar_same_as_rule(&origin, idx, narrow_idx)
    }

    fn max_scalar_same_as_rule(&mut self, origin: &Origin, idx: u8, narrow_idx: u8) -> &mut Self {
        let predicate = Predicate::SizeWiderThanScalarOf(idx, narrow_idx);
        self.typed(idx, origin, A::NarrowScalar, predicate, m::change_element_size_to(idx, narrow_idx))
    }

    /// Gated by `predicate`: when `idx`'s scalar size exceeds
    /// `small_idx`'s, `idx` becomes `small_idx`'s type.
    pub fn max_scalar_elt_same_as_if(&mut self, predicate: Predicate, idx: u8, small_idx: u8) -> &mut Self {
        let origin =
            origin!("max_scalar_elt_same_as_if({predicate}, {idx}, {small_idx})", predicate = predicate.clone());
        let predicate = p::all([Predicate::ScalarOrEltWiderThanScalarOf(idx, small_idx), predicate]);
        self.typed(idx, &origin, A::NarrowScalar, predicate, m::change_to_type_of(idx, small_idx))
    }

    // --- clamp ---

    /// `min_scalar(idx, min)` then `max_scalar(idx, max)`: two rules, one
    /// origin. Both must be scalars with `min <= max`.
    pub fn clamp_scalar(&mut self, idx: u8, min: Llt, max: Llt) -> &mut Self {
        let origin = origin!("clamp_scalar({idx}, {min}, {max})");
        if min.size_in_bits() > max.size_in_bits() {
            self.error(RuleError::ClampMinAboveMax { origin: origin.to_string(), min, max });
        }
        self.min_scalar_rule(&origin, idx, min);
        self.max_scalar_rule(&origin, idx, max)
    }

    /// `min_scalar_or_elt(idx, min)` then `max_scalar_or_elt(idx, max)`.
    pub fn clamp_scalar_or_elt(&mut self, idx: u8, min: Llt, max: Llt) -> &mut Self {
        let origin = origin!("clamp_scalar_or_elt({idx}, {min}, {max})");
        if min.scalar_size_in_bits() > max.scalar_size_in_bits() {
            self.error(RuleError::ClampMinAboveMax { origin: origin.to_string(), min, max });
        }
        self.min_scalar_or_elt_rule(&origin, idx, min);
        self.max_scalar_or_elt_rule(&origin, idx, max)
    }

    /// `min_scalar_same_as` then `max_scalar_same_as`.
    pub fn scalar_same_size_as(&mut self, idx: u8, same_idx: u8) -> &mut Self {
        let origin = origin!("scalar_same_size_as({idx}, {same_idx})");
        self.min_scalar_same_as_rule(&origin, idx, same_idx);
        self.max_scalar_same_as_rule(&origin, idx, same_idx)
    }

    // --- more elements ---

    /// More elements, to the type `mutation` gives, when `predicate`
    /// holds. Covers all.
    pub fn more_elements_if(&mut self, predicate: Predicate, mutation: Mutation) -> &mut Self {
        self.cover_all();
        let origin = origin!(
            "more_elements_if({predicate}, {mutation})",
            predicate = predicate.clone(),
            mutation = mutation.clone()
        );
        self.push(&origin, A::MoreElements, predicate, Some(mutation))
    }

    /// A vector whose element count is not a power of two gets the next
    /// power of two.
    pub fn more_elements_to_next_pow2(&mut self, idx: u8) -> &mut Self {
        let origin = origin!("more_elements_to_next_pow2({idx})");
        self.typed(idx, &origin, A::MoreElements, p::num_elements_not_pow2(idx), m::more_elements_to_next_pow2(idx, 0))
    }

    fn clamp_min_rule(&mut self, origin: &Origin, idx: u8, element: Llt, min: u32) -> &mut Self {
        let predicate = p::all([
            p::element_type_is(idx, element),
            p::vector_element_count_is_less_than_or_equal_to(idx, min.saturating_sub(1)),
        ]);
        self.typed(idx, origin, A::MoreElements, predicate, m::change_element_count_to(idx, min))
    }

    fn clamp_max_rule(&mut self, origin: &Origin, idx: u8, element: Llt, max: u32) -> &mut Self {
        let predicate = p::all([p::element_type_is(idx, element), p::vector_element_count_is_greater_than(idx, max)]);
        self.typed(idx, origin, A::FewerElements, predicate, m::change_element_count_to(idx, max))
    }

    fn align_rule(&mut self, origin: &Origin, idx: u8, element: Llt, multiple: u32) -> &mut Self {
        let predicate = p::all([p::element_type_is(idx, element), Predicate::NumElementsNotMultipleOf(idx, multiple)]);
        self.typed(idx, origin, A::MoreElements, predicate, Mutation::MoreElementsToNextMultipleOf { idx, multiple })
    }

    /// A fixed vector of `element` with fewer than `min` elements gets `min`.
    pub fn clamp_min_num_elements(&mut self, idx: u8, element: Llt, min: u32) -> &mut Self {
        let origin = origin!("clamp_min_num_elements({idx}, {element}, {min})");
        self.clamp_min_rule(&origin, idx, element, min)
    }

    /// A fixed vector of `element` whose count is not a multiple of
    /// `multiple` is padded to the next multiple.
    pub fn align_num_elements_to(&mut self, idx: u8, element: Llt, multiple: u32) -> &mut Self {
        let origin = origin!("align_num_elements_to({idx}, {element}, {multiple})");
        self.align_rule(&origin, idx, element, multiple)
    }

    // --- fewer elements ---

    /// Fewer elements, to the type `mutation` gives, when `predicate`
    /// holds. Covers all.
    pub fn fewer_elements_if(&mut self, predicate: Predicate, mutation: Mutation) -> &mut Self {
        self.cover_all();
        let origin = origin!(
            "fewer_elements_if({predicate}, {mutation})",
            predicate = predicate.clone(),
            mutation = mutation.clone()
        );
        self.push(&origin, A::FewerElements, predicate, Some(mutation))
    }

    /// A fixed vector of `element` with more than `max` elements is split
    /// into `max`-element pieces (`max == 1` gives scalars).
    pub fn clamp_max_num_elements(&mut self, idx: u8, element: Llt, max: u32) -> &mut Self {
        let origin = origin!("clamp_max_num_elements({idx}, {element}, {max})");
        self.clamp_max_rule(&origin, idx, element, max)
    }

    /// `align_num_elements_to` then `clamp_max_num_elements` with the same
    /// count, so no leftover piece remains.
    pub fn clamp_max_num_elements_strict(&mut self, idx: u8, element: Llt, count: u32) -> &mut Self {
        let origin = origin!("clamp_max_num_elements_strict({idx}, {element}, {count})");
        self.align_rule(&origin, idx, element, count);
        self.clamp_max_rule(&origin, idx, element, count)
    }

    /// `clamp_min_num_elements` to `min_ty`'s count and
    /// `clamp_max_num_elements` to `max_ty`'s; both fixed vectors of one
    /// element type.
    pub fn clamp_num_elements(&mut self, idx: u8, min_ty: Llt, max_ty: Llt) -> &mut Self {
        let origin = origin!("clamp_num_elements({idx}, {min_ty}, {max_ty})");
        for ty in [min_ty, max_ty] {
            if !ty.is_fixed_vector() {
                self.error(RuleError::WrongKind { origin: origin.to_string(), ty, expected: "a fixed vector" });
            }
        }
        if min_ty.element_type() != max_ty.element_type() {
            self.error(RuleError::ElementTypesDiffer { origin: origin.to_string(), min: min_ty, max: max_ty });
        } else if min_ty.num_elements() > max_ty.num_elements() {
            self.error(RuleError::ClampMinAboveMax { origin: origin.to_string(), min: min_ty, max: max_ty });
        }
        self.clamp_min_rule(&origin, idx, min_ty.element_type(), min_ty.num_elements());
        self.clamp_max_rule(&origin, idx, max_ty.element_type(), max_ty.num_elements())
    }

    /// Split any vector into its elements.
    pub fn scalarize(&mut self, idx: u8) -> &mut Self {
        let origin = origin!("scalarize({idx})");
        self.typed(idx, &origin, A::FewerElements, p::is_vector(idx), m::scalarize(idx))
    }

    /// Split a vector into its elements when `predicate` holds.
    pub fn scalarize_if(&mut self, predicate: Predicate, idx: u8) -> &mut Self {
        let origin = origin!("scalarize_if({predicate}, {idx})", predicate = predicate.clone());
        let predicate = p::all([predicate, p::is_vector(idx)]);
        self.typed(idx, &origin, A::FewerElements, predicate, m::scalarize(idx))
    }
}
