//! Builder methods of [`RuleSet`] that do not compute a new type: legal,
//! bitcast, lower, libcall, custom, unsupported, fallback, and the
//! bookkeeping ones (`imm_idx`, `when`). The type-changing ones are in
//! `builder_types.rs`.
//!
//! "Covers all" in a method's doc means it tells the coverage check that
//! every type index is handled, as LLVM's `markAllIdxsAsCovered`.

use super::action::LegalizeAction as A;
use super::errors::RuleError;
use super::mutation::Mutation;
use super::predicate::{Predicate, TypePairAndMemDesc};
use super::predicates as p;
use super::rule::{Origin, TypeList, product_text};
use super::rule_set::RuleSet;
use crate::ty::Llt;

impl RuleSet {
    /// Adds one rule (LLVM's private `actionIf`); marks nothing covered.
    /// Prefer the named methods, which print better and do the bookkeeping.
    pub fn action_if(
        &mut self,
        action: super::LegalizeAction,
        predicate: Predicate,
        mutation: Option<Mutation>,
    ) -> &mut Self {
        let origin = match &mutation {
            Some(m) => origin!("action_if({action}, {predicate}, {m})", predicate = predicate.clone(), m = m.clone()),
            None => origin!("action_if({action}, {predicate})", predicate = predicate.clone()),
        };
        self.push(&origin, action, predicate, mutation)
    }

    pub(crate) fn action_for(
        &mut self,
        origin: Origin,
        action: super::LegalizeAction,
        list: TypeList,
        mutation: Option<Mutation>,
    ) -> &mut Self {
        for idx in 0..list.arity() {
            self.cover_type(idx);
        }
        let empty = match &list {
            TypeList::Types(t) => t.is_empty(),
            TypeList::Pairs(t) => t.is_empty(),
            TypeList::Triples(t) => t.is_empty(),
        };
        if empty {
            self.error(RuleError::EmptyTypeList { origin: origin.to_string() });
        }
        self.push(&origin, action, list.predicate(), mutation)
    }

    fn action_for_product(&mut self, name: &'static str, action: super::LegalizeAction, lists: &[&[Llt]]) -> &mut Self {
        let shown: Vec<Vec<Llt>> = lists.iter().map(|list| list.to_vec()).collect();
        let origin = Origin::new(move |f| {
            let lists: Vec<&[Llt]> = shown.iter().map(Vec::as_slice).collect();
            write!(f, "{name}({})", product_text(&lists))
        });
        let predicate = match lists {
            [one] => p::all([p::type_in_set(0, one), p::type_in_set(1, one)]),
            [a, b] => p::all([p::type_in_set(0, a), p::type_in_set(1, b)]),
            [a, b, c] => p::all([p::type_in_set(0, a), p::type_in_set(1, b), p::type_in_set(2, c)]),
            _ => {
                self.error(RuleError::ProductArity { origin: origin.to_string(), lists: lists.len() });
                return self;
            }
        };
        for idx in 0..lists.len().max(2) as u8 {
            self.cover_type(idx);
        }
        if lists.iter().any(|l| l.is_empty()) {
            self.error(RuleError::EmptyTypeList { origin: origin.to_string() });
        }
        self.push(&origin, action, predicate, None)
    }

    fn action_if_covering_all(
        &mut self,
        origin: Origin,
        action: super::LegalizeAction,
        predicate: Predicate,
        mutation: Option<Mutation>,
    ) -> &mut Self {
        self.cover_all();
        self.push(&origin, action, predicate, mutation)
    }

    // --- gating and bookkeeping ---

    /// Applies `add` only when `condition` holds: the one replacement for
    /// every `bool`-gated LLVM overload (`legalFor(bool, ...)`,
    /// `libcallFor(bool, ...)`, `customFor(bool, ...)`,
    /// `customForCartesianProduct(bool, ...)`, `minScalar(bool, ...)`,
    /// `clampScalar(bool, ...)`).
    pub fn when(&mut self, condition: bool, add: impl FnOnce(&mut Self) -> &mut Self) -> &mut Self {
        if condition {
            add(self);
        }
        self
    }

    /// Marks generic immediate index `idx` as handled (for opcodes whose
    /// rules ignore the immediate, e.g. G_MEMSET).
    pub fn imm_idx(&mut self, idx: u8) -> &mut Self {
        self.cover_imm(idx);
        self
    }

    /// Defers to the legacy answer (LLVM 22: `Legal` for opcodes without
    /// type indices, `NotFound` otherwise).
    pub fn fallback(&mut self) -> &mut Self {
        self.push(&origin!("fallback()"), A::UseLegacyRules, Predicate::Always, None)
    }

    // --- legal ---

    /// Legal when `predicate` holds. Covers all.
    pub fn legal_if(&mut self, predicate: Predicate) -> &mut Self {
        self.action_if_covering_all(
            origin!("legal_if({predicate})", predicate = predicate.clone()),
            A::Legal,
            predicate,
            None,
        )
    }

    /// Legal for the listed types (index 0), pairs (0, 1) or triples.
    pub fn legal_for(&mut self, types: impl Into<TypeList>) -> &mut Self {
        let list = types.into();
        self.action_for(origin!("legal_for({list})", list = list.clone()), A::Legal, list, None)
    }

    /// Legal for the listed types or pairs, whatever generic immediate
    /// index 0 holds. Covers all.
    pub fn legal_for_type_with_any_imm(&mut self, types: impl Into<TypeList>) -> &mut Self {
        let list = types.into();
        self.cover_imm(0);
        self.cover_all();
        self.action_for(origin!("legal_for_type_with_any_imm({list})", list = list.clone()), A::Legal, list, None)
    }

    /// Legal when type indices 0 and 1 and memory operand 0 match an entry
    /// (equal types, same memory size, alignment at least the entry's).
    pub fn legal_for_types_with_mem_desc(&mut self, entries: &[TypePairAndMemDesc]) -> &mut Self {
        let shown = entries.to_vec();
        let origin = Origin::new(move |f| {
            let text: Vec<String> = shown.iter().map(ToString::to_string).collect();
            write!(f, "legal_for_types_with_mem_desc({})", text.join(", "))
        });
        self.cover_type(0);
        self.cover_type(1);
        if entries.is_empty() {
            self.error(RuleError::EmptyTypeList { origin: origin.to_string() });
        }
        self.push(&origin, A::Legal, p::type_pair_and_mem_desc_in_set(0, 1, 0, entries), None)
    }

    /// Legal for the cartesian product of the lists: one list means both
    /// index 0 and index 1 range over it; two or three lists give indices
    /// 0, 1 (and 2).
    pub fn legal_for_cartesian_product(&mut self, lists: &[&[Llt]]) -> &mut Self {
        self.action_for_product("legal_for_cartesian_product", A::Legal, lists)
    }

    /// Legal whatever the types. Covers all.
    pub fn always_legal(&mut self) -> &mut Self {
        self.action_if_covering_all(origin!("always_legal()"), A::Legal, Predicate::Always, None)
    }

    // --- bitcast ---

    /// Bitcast to the type `mutation` gives when `predicate` holds. Covers all.
    pub fn bitcast_if(&mut self, predicate: Predicate, mutation: Mutation) -> &mut Self {
        let origin =
            origin!("bitcast_if({predicate}, {mutation})", predicate = predicate.clone(), mutation = mutation.clone());
        self.action_if_covering_all(origin, A::Bitcast, predicate, Some(mutation))
    }

    // --- lower ---

    /// Lower whatever the types. Covers all.
    pub fn lower(&mut self) -> &mut Self {
        self.action_if_covering_all(origin!("lower()"), A::Lower, Predicate::Always, None)
    }

    /// Lower when `predicate` holds. Covers all.
    pub fn lower_if(&mut self, predicate: Predicate) -> &mut Self {
        self.action_if_covering_all(
            origin!("lower_if({predicate})", predicate = predicate.clone()),
            A::Lower,
            predicate,
            None,
        )
    }

    /// Lower when `predicate` holds, with a type hint. Covers all.
    pub fn lower_if_with(&mut self, predicate: Predicate, mutation: Mutation) -> &mut Self {
        let origin =
            origin!("lower_if({predicate}, {mutation})", predicate = predicate.clone(), mutation = mutation.clone());
        self.action_if_covering_all(origin, A::Lower, predicate, Some(mutation))
    }

    /// Lower for the listed types or pairs.
    pub fn lower_for(&mut self, types: impl Into<TypeList>) -> &mut Self {
        let list = types.into();
        self.action_for(origin!("lower_for({list})", list = list.clone()), A::Lower, list, None)
    }

    /// Lower for the listed types or pairs, with a type hint.
    pub fn lower_for_with(&mut self, types: impl Into<TypeList>, mutation: Mutation) -> &mut Self {
        let list = types.into();
        self.action_for(
            origin!("lower_for({list}, {mutation})", list = list.clone(), mutation = mutation.clone()),
            A::Lower,
            list,
            Some(mutation),
        )
    }

    /// Lower for the cartesian product of two or three lists.
    pub fn lower_for_cartesian_product(&mut self, lists: &[&[Llt]]) -> &mut Self {
        self.action_for_product("lower_for_cartesian_product", A::Lower, lists)
    }

    /// Lower when memory operand 0's byte size is not a power of two.
    pub fn lower_if_mem_size_not_pow2(&mut self) -> &mut Self {
        self.push(&origin!("lower_if_mem_size_not_pow2()"), A::Lower, p::mem_size_in_bytes_not_pow2(0), None)
    }

    /// Lower when memory operand 0 is not byte-sized or its byte size is
    /// not a power of two.
    pub fn lower_if_mem_size_not_byte_size_pow2(&mut self) -> &mut Self {
        self.push(&origin!("lower_if_mem_size_not_byte_size_pow2()"), A::Lower, p::mem_size_not_byte_size_pow2(0), None)
    }

    // --- libcall ---

    /// Call the runtime library whatever the types. Covers all.
    pub fn libcall(&mut self) -> &mut Self {
        self.action_if_covering_all(origin!("libcall()"), A::Libcall, Predicate::Always, None)
    }

    /// Call the runtime library when `predicate` holds. Covers all.
    pub fn libcall_if(&mut self, predicate: Predicate) -> &mut Self {
        self.action_if_covering_all(
            origin!("libcall_if({predicate})", predicate = predicate.clone()),
            A::Libcall,
            predicate,
            None,
        )
    }

    /// Call the runtime library for the listed types or pairs.
    pub fn libcall_for(&mut self, types: impl Into<TypeList>) -> &mut Self {
        let list = types.into();
        self.action_for(origin!("libcall_for({list})", list = list.clone()), A::Libcall, list, None)
    }

    /// Call the runtime library for a cartesian product (see
    /// [`RuleSet::legal_for_cartesian_product`]).
    pub fn libcall_for_cartesian_product(&mut self, lists: &[&[Llt]]) -> &mut Self {
        self.action_for_product("libcall_for_cartesian_product", A::Libcall, lists)
    }

    // --- custom ---

    /// The target's hook handles it whatever the types. Covers all.
    pub fn custom(&mut self) -> &mut Self {
        self.action_if_covering_all(origin!("custom()"), A::Custom, Predicate::Always, None)
    }

    /// The target's hook handles it when `predicate` holds. Covers all.
    pub fn custom_if(&mut self, predicate: Predicate) -> &mut Self {
        self.action_if_covering_all(
            origin!("custom_if({predicate})", predicate = predicate.clone()),
            A::Custom,
            predicate,
            None,
        )
    }

    /// The target's hook handles the listed types or pairs.
    pub fn custom_for(&mut self, types: impl Into<TypeList>) -> &mut Self {
        let list = types.into();
        self.action_for(origin!("custom_for({list})", list = list.clone()), A::Custom, list, None)
    }

    /// The target's hook handles a cartesian product (see
    /// [`RuleSet::legal_for_cartesian_product`]).
    pub fn custom_for_cartesian_product(&mut self, lists: &[&[Llt]]) -> &mut Self {
        self.action_for_product("custom_for_cartesian_product", A::Custom, lists)
    }

    // --- unsupported ---

    /// Unsupported whatever the types. Covers all.
    pub fn unsupported(&mut self) -> &mut Self {
        self.action_if_covering_all(origin!("unsupported()"), A::Unsupported, Predicate::Always, None)
    }

    /// Unsupported when `predicate` holds; marks nothing covered.
    pub fn unsupported_if(&mut self, predicate: Predicate) -> &mut Self {
        self.push(
            &origin!("unsupported_if({predicate})", predicate = predicate.clone()),
            A::Unsupported,
            predicate,
            None,
        )
    }

    /// Unsupported for the listed types or pairs.
    pub fn unsupported_for(&mut self, types: impl Into<TypeList>) -> &mut Self {
        let list = types.into();
        self.action_for(origin!("unsupported_for({list})", list = list.clone()), A::Unsupported, list, None)
    }

    /// Unsupported when memory operand 0's byte size is not a power of two.
    pub fn unsupported_if_mem_size_not_pow2(&mut self) -> &mut Self {
        self.push(
            &origin!("unsupported_if_mem_size_not_pow2()"),
            A::Unsupported,
            p::mem_size_in_bytes_not_pow2(0),
            None,
        )
    }
}
