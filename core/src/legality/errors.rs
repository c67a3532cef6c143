//! What can be wrong with rules: construction errors found while building
//! or validating ([`RuleError`]) and insane steps found while evaluating
//! ([`StepError`], LLVM's assert-only `mutationIsSane` and
//! `hasNoSimpleLoops`).

use super::action::LegalizeAction;
use crate::opcode::Opcode;
use crate::ty::Llt;

/// A rule set that cannot be what its author meant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    /// `rules_for` was given no opcode.
    #[error("rules_for called with no opcode")]
    NoOpcode,
    /// The opcode is not one the legalizer visits (outside G_ADD..G_UBFX or
    /// a G_ASSERT_* hint).
    #[error("{opcode} is not a legalizable opcode; rules for it are never consulted")]
    NotLegalizable {
        /// The opcode.
        opcode: Opcode,
    },
    /// The opcode was given rules twice (directly or through an alias).
    #[error("{opcode} was given a rule set twice (first in the set of {first}); the second one is ignored")]
    OpcodeRequestedTwice {
        /// The opcode.
        opcode: Opcode,
        /// The representative of the set that already holds it.
        first: Opcode,
    },
    /// A `clamp_*` call whose minimum is larger than its maximum.
    #[error("{origin}: minimum {min} is larger than maximum {max}")]
    ClampMinAboveMax {
        /// The builder call.
        origin: String,
        /// Its minimum.
        min: Llt,
        /// Its maximum.
        max: Llt,
    },
    /// A builder call given a type of the wrong kind.
    #[error("{origin}: {ty} must be {expected}")]
    WrongKind {
        /// The builder call.
        origin: String,
        /// The offending type.
        ty: Llt,
        /// What it should be ("a scalar", "a fixed vector").
        expected: &'static str,
    },
    /// `clamp_num_elements` with different element types.
    #[error("{origin}: element types of {min} and {max} differ")]
    ElementTypesDiffer {
        /// The builder call.
        origin: String,
        /// Its minimum.
        min: Llt,
        /// Its maximum.
        max: Llt,
    },
    /// A cartesian product of no list or more than three.
    #[error("{origin}: a cartesian product takes 1 to 3 type lists, not {lists}")]
    ProductArity {
        /// The builder call.
        origin: String,
        /// How many lists it was given.
        lists: usize,
    },
    /// An empty type list, which matches nothing.
    #[error("{origin}: the type list is empty, so the rule never applies")]
    EmptyTypeList {
        /// The builder call.
        origin: String,
    },
    /// A type-changing action without a mutation.
    #[error("{origin}: action {action} changes a type but the rule has no mutation")]
    MissingMutation {
        /// The builder call.
        origin: String,
        /// The action.
        action: LegalizeAction,
    },
    /// A rule names a type index past the opcode's last.
    #[error("{opcode} rule {rule} {origin}: type index {idx} is out of range ({opcode} has {count} type indices)")]
    TypeIndexOutOfRange {
        /// An opcode of the set.
        opcode: Opcode,
        /// The rule's position.
        rule: usize,
        /// The builder call.
        origin: String,
        /// The index.
        idx: u8,
        /// How many type indices the opcode has.
        count: usize,
    },
    /// A rule reads a memory operand the opcode does not have.
    #[error("{opcode} rule {rule} {origin}: memory operand {idx} is out of range ({opcode} has {count})")]
    MemIndexOutOfRange {
        /// An opcode of the set.
        opcode: Opcode,
        /// The rule's position.
        rule: usize,
        /// The builder call.
        origin: String,
        /// The index.
        idx: u8,
        /// How many memory operands the opcode has.
        count: usize,
    },
    /// `imm_idx` past the opcode's generic immediates.
    #[error("{opcode}: imm_idx({idx}) is out of range ({opcode} has {count} generic immediates)")]
    ImmIndexOutOfRange {
        /// An opcode of the set.
        opcode: Opcode,
        /// The index.
        idx: u8,
        /// How many generic immediates the opcode has.
        count: usize,
    },
    /// A rule after one that always applies.
    #[error("{opcode} rule {rule} {origin} is unreachable: rule {shadowed_by} {shadowing_origin} always applies first")]
    UnreachableRule {
        /// The representative opcode.
        opcode: Opcode,
        /// The unreachable rule's position.
        rule: usize,
        /// Its builder call.
        origin: String,
        /// The position of the rule that always applies.
        shadowed_by: usize,
        /// Its builder call.
        shadowing_origin: String,
    },
}

/// A step that a rule produced and that cannot make progress.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    /// The mutation named a type index the query does not have.
    #[error("{action} names type index {idx}, but the query has {count} types")]
    TypeIndexOutOfRange {
        /// The action.
        action: LegalizeAction,
        /// The index.
        idx: u8,
        /// How many types the query has.
        count: usize,
    },
    /// A type-changing action whose mutation gave no valid type.
    #[error("{action} of type{idx} ({old}) has no valid new type")]
    InvalidNewType {
        /// The action.
        action: LegalizeAction,
        /// The type index.
        idx: u8,
        /// The old type.
        old: Llt,
    },
    /// LLVM's `mutationIsSane` failed.
    #[error("{action} of type{idx} from {old} to {new} is not sane: {reason}")]
    NotSane {
        /// The action.
        action: LegalizeAction,
        /// The type index.
        idx: u8,
        /// The old type.
        old: Llt,
        /// The new type.
        new: Llt,
        /// What is wrong.
        reason: &'static str,
    },
    /// LLVM's `hasNoSimpleLoops` failed: the type does not change.
    #[error("simple loop: {action} of type{idx} leaves it {ty}")]
    SimpleLoop {
        /// The action.
        action: LegalizeAction,
        /// The type index.
        idx: u8,
        /// The unchanged type.
        ty: Llt,
    },
}
