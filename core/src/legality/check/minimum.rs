//! The minimum rule set every target must provide (Legalizer.rst, §2.7 of
//! the reference): G_ANYEXT and G_TRUNC between producer and consumer
//! types, G_IMPLICIT_DEF for every producer type, G_PHI for every producer
//! and consumer type, and at least one legal G_FRAME_INDEX and
//! G_BLOCK_ADDR.
//!
//! Producer (consumer) types are the types that some `Legal` sample query
//! of some opcode defines (uses), read from the opcode's operand layout.
//! The opcodes the minimum rule set is about (G_ANYEXT, G_TRUNC,
//! G_IMPLICIT_DEF, G_PHI, G_BITCAST, G_FREEZE) do not contribute, so that
//! making one of them more permissive never adds requirements. "Legal"
//! here accepts `Custom` too (the hook may keep the instruction). G_BITCAST
//! is not checked: which bit patterns change is target knowledge.
//! G_ANYEXT/G_TRUNC pairs are checked between two scalars, or two fixed
//! vectors of scalars with the same element count.

use std::collections::BTreeSet;
use std::fmt;

use super::samples::{Samples, defs_and_uses};
use crate::legality::action::LegalizeStep;
use crate::legality::info::LegalizerInfo;
use crate::legality::query::LegalityQuery;
use crate::opcode::Opcode;
use crate::ty::Llt;

/// Types produced and consumed by legal instructions.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeUsage {
    /// Types some legal instruction defines.
    pub produced: BTreeSet<Llt>,
    /// Types some legal instruction uses.
    pub consumed: BTreeSet<Llt>,
}

/// A missing piece of the minimum rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MinimumRuleFinding {
    /// `G_ANYEXT to from` is not legal.
    AnyExtNotLegal {
        /// Result type (a consumer type).
        to: Llt,
        /// Source type (a producer type).
        from: Llt,
        /// What the rules answered.
        got: LegalizeStep,
    },
    /// `G_TRUNC to from` is not legal.
    TruncNotLegal {
        /// Result type (a consumer type).
        to: Llt,
        /// Source type (a producer type).
        from: Llt,
        /// What the rules answered.
        got: LegalizeStep,
    },
    /// `G_IMPLICIT_DEF ty` is not legal for a producer type.
    ImplicitDefNotLegal {
        /// The type.
        ty: Llt,
        /// What the rules answered.
        got: LegalizeStep,
    },
    /// `G_PHI ty` is not legal for a producer or consumer type.
    PhiNotLegal {
        /// The type.
        ty: Llt,
        /// What the rules answered.
        got: LegalizeStep,
    },
    /// No sample pointer type makes the opcode legal.
    NoLegalPointerFor {
        /// G_FRAME_INDEX or G_BLOCK_ADDR.
        opcode: Opcode,
    },
}

impl fmt::Display for MinimumRuleFinding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MinimumRuleFinding::AnyExtNotLegal { to, from, got } => {
                write!(f, "G_ANYEXT({to}, {from}) must be legal (producer {from} to larger consumer {to}), got {got}")
            }
            MinimumRuleFinding::TruncNotLegal { to, from, got } => {
                write!(f, "G_TRUNC({to}, {from}) must be legal (producer {from} to smaller consumer {to}), got {got}")
            }
            MinimumRuleFinding::ImplicitDefNotLegal { ty, got } => {
                write!(f, "G_IMPLICIT_DEF({ty}) must be legal ({ty} is produced by a legal instruction), got {got}")
            }
            MinimumRuleFinding::PhiNotLegal { ty, got } => {
                write!(f, "G_PHI({ty}) must be legal ({ty} is produced or consumed by a legal instruction), got {got}")
            }
            MinimumRuleFinding::NoLegalPointerFor { opcode } => {
                write!(f, "{opcode} must be legal for at least one pointer type")
            }
        }
    }
}

const MINIMUM_SET_OPCODES: [Opcode; 6] =
    [Opcode::G_ANYEXT, Opcode::G_TRUNC, Opcode::G_IMPLICIT_DEF, Opcode::G_PHI, Opcode::G_BITCAST, Opcode::G_FREEZE];

/// Collects producer and consumer types over the sample queries.
pub fn producer_consumer_types(info: &LegalizerInfo, samples: &Samples) -> TypeUsage {
    let mut usage = TypeUsage::default();
    for opcode in Opcode::all().filter(|o| o.is_legalizable() && !MINIMUM_SET_OPCODES.contains(o)) {
        if info.rule_set(opcode).is_none_or(|s| s.is_empty()) || opcode.num_type_indices() == 0 {
            continue;
        }
        let (defs, uses) = defs_and_uses(opcode);
        samples.for_each_query(opcode, &mut |q| {
            if info.is_legal(q) {
                usage.produced.extend(defs.iter().map(|&i| q.ty(i)));
                usage.consumed.extend(uses.iter().map(|&i| q.ty(i)));
            }
        });
    }
    usage
}

fn extension_compatible(a: Llt, b: Llt) -> bool {
    (a.is_scalar() && b.is_scalar())
        || (a.is_fixed_vector()
            && b.is_fixed_vector()
            && a.num_elements() == b.num_elements()
            && a.element_type().is_scalar()
            && b.element_type().is_scalar())
}

/// Checks the minimum rule set against the target's producer and consumer
/// types.
pub fn check_minimum_rule_set(info: &LegalizerInfo, samples: &Samples) -> Vec<MinimumRuleFinding> {
    let usage = producer_consumer_types(info, samples);
    let mut findings = Vec::new();
    let answer = |opcode: Opcode, types: &[Llt]| -> Option<LegalizeStep> {
        let q = LegalityQuery::new(opcode, types);
        (!info.is_legal_or_custom(&q)).then(|| info.action(&q))
    };
    for &from in &usage.produced {
        for &to in usage.consumed.iter().filter(|&&to| extension_compatible(from, to)) {
            let (opcode, smaller) = match to.size_in_bits().cmp(&from.size_in_bits()) {
                std::cmp::Ordering::Greater => (Opcode::G_ANYEXT, false),
                std::cmp::Ordering::Less => (Opcode::G_TRUNC, true),
                std::cmp::Ordering::Equal => continue,
            };
            if let Some(got) = answer(opcode, &[to, from]) {
                findings.push(if smaller {
                    MinimumRuleFinding::TruncNotLegal { to, from, got }
                } else {
                    MinimumRuleFinding::AnyExtNotLegal { to, from, got }
                });
            }
        }
    }
    for &ty in &usage.produced {
        if let Some(got) = answer(Opcode::G_IMPLICIT_DEF, &[ty]) {
            findings.push(MinimumRuleFinding::ImplicitDefNotLegal { ty, got });
        }
    }
    for &ty in usage.produced.union(&usage.consumed) {
        if let Some(got) = answer(Opcode::G_PHI, &[ty]) {
            findings.push(MinimumRuleFinding::PhiNotLegal { ty, got });
        }
    }
    for opcode in [Opcode::G_FRAME_INDEX, Opcode::G_BLOCK_ADDR] {
        let pointers = samples.pointers.iter().chain(samples.vectors.iter().filter(|t| t.is_pointer_vector()));
        if !pointers.clone().any(|&p| answer(opcode, &[p]).is_none()) {
            findings.push(MinimumRuleFinding::NoLegalPointerFor { opcode });
        }
    }
    findings
}
