//! [`RuleSet`]: the ordered rules of one opcode (or of several aliased
//! opcodes), how a query is answered (§2.2 of the reference: first match
//! wins, no match is `Unsupported`, no rule at all defers to the legacy
//! answer), coverage bookkeeping, and the per-step sanity checks.
//!
//! The builder methods are in `builder.rs` and `builder_types.rs`.

use std::fmt;

use super::action::{LegalizeAction, LegalizeStep};
use super::errors::{RuleError, StepError};
use super::mutation::Mutation;
use super::predicate::Predicate;
use super::query::LegalityQuery;
use super::rule::{Origin, Rule};
use crate::opcode::Opcode;

/// Bit width of the coverage sets: six type indices plus one, as LLVM.
pub const MAX_TYPE_INDICES: u8 = 6;

/// The ordered rules for one opcode. Build it with the snake_case
/// counterparts of LLVM's `LegalizeRuleSet` methods, each returning
/// `&mut Self` for chaining.
///
/// Feature gating: LLVM's overloads with a leading `bool` (`legalFor(bool,
/// ...)`, `customFor(bool, ...)`, `minScalar(bool, ...)`, ...) are one
/// combinator here, [`RuleSet::when`]: `set.when(has_fp16, |s|
/// s.legal_for([s16]))` adds the rules only when the condition holds, and
/// like LLVM marks nothing covered when it does not.
#[derive(Clone, Debug, Default)]
pub struct RuleSet {
    pub(crate) rules: Vec<Rule>,
    pub(crate) opcodes: Vec<Opcode>,
    pub(crate) alias_of: Option<Opcode>,
    pub(crate) types_covered: u8,
    pub(crate) imms_covered: u8,
    pub(crate) covers_all: bool,
    pub(crate) errors: Vec<RuleError>,
}

impl RuleSet {
    /// An empty rule set not attached to any opcode (index-range checks
    /// need an opcode; see [`crate::legality::LegalizerInfo::rules_for`]).
    pub fn new() -> RuleSet {
        RuleSet::default()
    }

    /// The rules in evaluation order.
    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// True when no rule was added (the legacy answer applies).
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The opcodes that share this set, representative first.
    pub fn opcodes(&self) -> &[Opcode] {
        &self.opcodes
    }

    /// The representative whose set this opcode uses, if it is an alias.
    pub fn alias_of(&self) -> Option<Opcode> {
        self.alias_of
    }

    /// True when other opcodes share this set.
    pub fn is_aliased_by_another(&self) -> bool {
        self.opcodes.len() > 1
    }

    /// Errors recorded while building (bad clamp bounds and the like).
    pub fn construction_errors(&self) -> &[RuleError] {
        &self.errors
    }

    /// Answers a query (LLVM's `LegalizeRuleSet::apply`).
    pub fn apply(&self, q: &LegalityQuery<'_>) -> LegalizeStep {
        self.apply_traced(q).0
    }

    /// Answers a query and says which rule decided (`None` when the set is
    /// empty or no rule matched).
    pub fn apply_traced(&self, q: &LegalityQuery<'_>) -> (LegalizeStep, Option<usize>) {
        if self.rules.is_empty() {
            return (LegalizeStep::new(LegalizeAction::UseLegacyRules), None);
        }
        for (i, rule) in self.rules.iter().enumerate() {
            if rule.predicate.matches(q) {
                return (rule.step(q), Some(i));
            }
        }
        (LegalizeStep::new(LegalizeAction::Unsupported), None)
    }

    /// True when the set says nothing about a type index's coverage:
    /// empty, or a "covers all" method was used.
    fn coverage_is_moot(&self) -> bool {
        self.rules.is_empty() || self.covers_all
    }

    /// LLVM's `verifyTypeIdxsCoverage`: every type index below `count` was
    /// named by some builder call (or a "covers all" method was used, or
    /// the set is empty). `Err` carries the first uncovered index.
    pub fn verify_type_idxs_coverage(&self, count: usize) -> Result<(), u8> {
        if self.coverage_is_moot() {
            return Ok(());
        }
        let first_uncovered = self.types_covered.trailing_ones() as u8;
        if usize::from(first_uncovered) >= count { Ok(()) } else { Err(first_uncovered) }
    }

    /// LLVM's `verifyImmIdxsCoverage`, likewise for generic immediates.
    pub fn verify_imm_idxs_coverage(&self, count: usize) -> Result<(), u8> {
        if self.coverage_is_moot() {
            return Ok(());
        }
        let first_uncovered = self.imms_covered.trailing_ones() as u8;
        if usize::from(first_uncovered) >= count { Ok(()) } else { Err(first_uncovered) }
    }

    /// True when a "covers all" method was used.
    pub fn covers_all(&self) -> bool {
        self.covers_all
    }

    /// True when type index `idx` was named by a builder call.
    pub fn covers_type_idx(&self, idx: u8) -> bool {
        self.covers_all || self.types_covered & (1 << idx.min(7)) != 0
    }

    /// Structural problems of the set for one opcode that uses it: indices
    /// out of range and rules after one that always applies. Construction
    /// errors are in [`RuleSet::construction_errors`].
    pub fn validate_for(&self, opcode: Opcode) -> Vec<RuleError> {
        let info = opcode.info();
        let (types, mems, imms) =
            (opcode.num_type_indices(), info.mem_operands.count(), usize::from(info.num_imm_indices));
        let mut errors = Vec::new();
        for (i, rule) in self.rules.iter().enumerate() {
            let mut bad_types = Vec::new();
            let mut bad_mems = Vec::new();
            rule.predicate.visit_indices(
                &mut |idx| {
                    if usize::from(idx) >= types {
                        bad_types.push(idx)
                    }
                },
                &mut |idx| {
                    if usize::from(idx) >= mems {
                        bad_mems.push(idx)
                    }
                },
            );
            if let Some(m) = &rule.mutation {
                bad_types.extend(m.type_indices().into_iter().filter(|&idx| usize::from(idx) >= types));
            }
            bad_types.sort_unstable();
            bad_types.dedup();
            bad_mems.sort_unstable();
            bad_mems.dedup();
            for idx in bad_types {
                let origin = rule.origin.to_string();
                errors.push(RuleError::TypeIndexOutOfRange { opcode, rule: i, origin, idx, count: types });
            }
            for idx in bad_mems {
                let origin = rule.origin.to_string();
                errors.push(RuleError::MemIndexOutOfRange { opcode, rule: i, origin, idx, count: mems });
            }
        }
        if self.imms_covered != 0 && !self.covers_all {
            let highest = 7 - self.imms_covered.leading_zeros() as u8;
            if usize::from(highest) >= imms {
                errors.push(RuleError::ImmIndexOutOfRange { opcode, idx: highest, count: imms });
            }
        }
        if self.opcodes.first().is_none_or(|&rep| rep == opcode) {
            errors.extend(self.unreachable_rules(opcode));
        }
        errors
    }

    fn unreachable_rules(&self, opcode: Opcode) -> Vec<RuleError> {
        let Some(first) = self.rules.iter().position(|r| r.predicate.is_always_true()) else {
            return Vec::new();
        };
        let shadowing_origin = self.rules[first].origin.to_string();
        self.rules[first + 1..]
            .iter()
            .enumerate()
            .map(|(k, r)| RuleError::UnreachableRule {
                opcode,
                rule: first + 1 + k,
                origin: r.origin.to_string(),
                shadowed_by: first,
                shadowing_origin: shadowing_origin.clone(),
            })
            .collect()
    }

    // --- building blocks for the builder methods ---

    pub(crate) fn push(
        &mut self,
        origin: &Origin,
        action: LegalizeAction,
        predicate: Predicate,
        mutation: Option<Mutation>,
    ) -> &mut Self {
        if action.changes_type() && mutation.is_none() {
            self.errors.push(RuleError::MissingMutation { origin: origin.to_string(), action });
        }
        self.rules.push(Rule { predicate, action, mutation, origin: origin.clone() });
        self
    }

    pub(crate) fn cover_type(&mut self, idx: u8) {
        if idx <= MAX_TYPE_INDICES {
            self.types_covered |= 1 << idx;
        }
    }

    pub(crate) fn cover_imm(&mut self, idx: u8) {
        if idx <= 1 {
            self.imms_covered |= 1 << idx;
        }
    }

    pub(crate) fn cover_all(&mut self) {
        self.covers_all = true;
    }

    pub(crate) fn error(&mut self, error: RuleError) {
        self.errors.push(error);
    }
}

/// LLVM's assert-only sanity checks on a step, as a result: the mutation
/// goes the right way for its action (`mutationIsSane`) and changes the
/// type (`hasNoSimpleLoops`), and the new type is valid.
pub fn check_step(q: &LegalityQuery<'_>, step: &LegalizeStep) -> Result<(), StepError> {
    use LegalizeAction as A;
    let action = step.action;
    if !action.changes_type() {
        return Ok(());
    }
    let idx = step.type_idx;
    let Some(&old) = q.types.get(usize::from(idx)) else {
        return Err(StepError::TypeIndexOutOfRange { action, idx, count: q.types.len() });
    };
    let new = step.new_ty;
    if !new.is_valid() {
        return Err(StepError::InvalidNewType { action, idx, old });
    }
    let not_sane = |reason| Err(StepError::NotSane { action, idx, old, new, reason });
    match action {
        A::FewerElements | A::MoreElements => {
            if action == A::FewerElements && !old.is_vector() {
                return not_sane("fewer elements of a non-vector");
            }
            let old_count = old.num_elements();
            if new.is_vector() {
                if new.is_scalable() != old.is_scalable() && old.is_vector() {
                    return not_sane("scalability changed");
                }
                if action == A::FewerElements && new.num_elements() >= old_count {
                    return not_sane("element count did not decrease");
                }
                if action == A::MoreElements && new.num_elements() <= old_count {
                    return not_sane("element count did not increase");
                }
            } else if action == A::MoreElements {
                return not_sane("more elements must give a vector");
            }
            if new.scalar_type() != old.scalar_type() {
                return not_sane("element type changed");
            }
        }
        A::NarrowScalar | A::WidenScalar => {
            if old.is_vector() != new.is_vector() || (old.is_vector() && old.num_elements() != new.num_elements()) {
                return not_sane("vector shape changed");
            }
            let (o, n) = (old.scalar_size_in_bits(), new.scalar_size_in_bits());
            if action == A::NarrowScalar && n >= o {
                return not_sane("size did not decrease");
            }
            if action == A::WidenScalar && n <= o {
                return not_sane("size did not increase");
            }
        }
        A::Bitcast if old == new || old.size_in_bits() != new.size_in_bits() => {
            return not_sane("bitcast must change the type and keep the size");
        }
        _ => {}
    }
    if matches!(action, A::NarrowScalar | A::WidenScalar | A::Bitcast) && old == new {
        return Err(StepError::SimpleLoop { action, idx, ty: old });
    }
    Ok(())
}

impl fmt::Display for RuleSet {
    /// One line per rule: `  2 clamp_scalar(0, s32, s64): NarrowScalar if ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(rep) = self.alias_of {
            return writeln!(f, "  (alias of {rep})");
        }
        if self.rules.is_empty() {
            return writeln!(f, "  (no rules: legacy answer)");
        }
        for (i, rule) in self.rules.iter().enumerate() {
            writeln!(f, "  {i:>2} {}: {rule}", rule.origin)?;
        }
        Ok(())
    }
}
