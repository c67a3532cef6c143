//! What the rules answer: an action and, for type-changing actions, the
//! type index to change and the type to change it to.

use std::fmt;

use crate::ty::Llt;

/// What the legalizer should do with an instruction (LLVM's
/// `LegalizeAction`, same order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LegalizeAction {
    /// The target selects it as it is.
    Legal,
    /// Split a scalar type into narrower pieces.
    NarrowScalar,
    /// Extend a scalar (or element) type.
    WidenScalar,
    /// Split a vector into vectors of fewer elements (or scalars).
    FewerElements,
    /// Pad a vector with more elements.
    MoreElements,
    /// Reinterpret the value as another type of the same size.
    Bitcast,
    /// Expand into other generic instructions.
    Lower,
    /// Call a runtime library function.
    Libcall,
    /// The target's custom hook handles it.
    Custom,
    /// The target cannot handle it (a rule said so, or no rule matched).
    Unsupported,
    /// Nothing describes the instruction (a typed opcode without rules).
    NotFound,
    /// A rule set with no rules or a `fallback()` rule: defer to the legacy
    /// answer. [`crate::legality::LegalizerInfo::action`] never returns it;
    /// it resolves it as LLVM 22's legacy tables with only their defaults
    /// do: `Legal` for opcodes without type indices and scalar `G_TRUNC`s,
    /// `Lower` for scalar `G_FNEG`s, `NotFound` otherwise.
    UseLegacyRules,
}

impl LegalizeAction {
    /// Every action, in order.
    pub const ALL: [LegalizeAction; 12] = [
        LegalizeAction::Legal,
        LegalizeAction::NarrowScalar,
        LegalizeAction::WidenScalar,
        LegalizeAction::FewerElements,
        LegalizeAction::MoreElements,
        LegalizeAction::Bitcast,
        LegalizeAction::Lower,
        LegalizeAction::Libcall,
        LegalizeAction::Custom,
        LegalizeAction::Unsupported,
        LegalizeAction::NotFound,
        LegalizeAction::UseLegacyRules,
    ];

    /// The action's name as written in rules and tests (`WidenScalar`).
    pub fn name(self) -> &'static str {
        match self {
            LegalizeAction::Legal => "Legal",
            LegalizeAction::NarrowScalar => "NarrowScalar",
            LegalizeAction::WidenScalar => "WidenScalar",
            LegalizeAction::FewerElements => "FewerElements",
            LegalizeAction::MoreElements => "MoreElements",
            LegalizeAction::Bitcast => "Bitcast",
            LegalizeAction::Lower => "Lower",
            LegalizeAction::Libcall => "Libcall",
            LegalizeAction::Custom => "Custom",
            LegalizeAction::Unsupported => "Unsupported",
            LegalizeAction::NotFound => "NotFound",
            LegalizeAction::UseLegacyRules => "UseLegacyRules",
        }
    }

    /// Looks an action up by [`LegalizeAction::name`].
    pub fn from_name(name: &str) -> Option<LegalizeAction> {
        LegalizeAction::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The action rewrites one type index to a new type (narrow, widen,
    /// fewer or more elements, bitcast): the ones that need a mutation.
    pub fn changes_type(self) -> bool {
        matches!(
            self,
            LegalizeAction::NarrowScalar
                | LegalizeAction::WidenScalar
                | LegalizeAction::FewerElements
                | LegalizeAction::MoreElements
                | LegalizeAction::Bitcast
        )
    }

    /// The legalizer is done with the instruction after this action as far
    /// as the rules are concerned (it is legal, expanded, or failed).
    pub fn is_final(self) -> bool {
        !self.changes_type()
    }

    pub(crate) fn code(self) -> u64 {
        self as u64
    }

    #[inline]
    pub(crate) fn from_code(code: u64) -> LegalizeAction {
        LegalizeAction::ALL.get(code as usize).copied().unwrap_or(LegalizeAction::NotFound)
    }
}

impl fmt::Display for LegalizeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The answer to a legality query (LLVM's `LegalizeActionStep`). `type_idx`
/// is 0 and `new_ty` is [`Llt::INVALID`] when the action has no mutation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LegalizeStep {
    /// What to do.
    pub action: LegalizeAction,
    /// Which type index to change.
    pub type_idx: u8,
    /// The type to change it to.
    pub new_ty: Llt,
}

impl LegalizeStep {
    /// A step without a type change.
    pub const fn new(action: LegalizeAction) -> LegalizeStep {
        LegalizeStep { action, type_idx: 0, new_ty: Llt::INVALID }
    }

    /// A step that changes type index `type_idx` to `new_ty`.
    pub const fn with_type(action: LegalizeAction, type_idx: u8, new_ty: Llt) -> LegalizeStep {
        LegalizeStep { action, type_idx, new_ty }
    }

    /// The `Legal` step.
    pub const LEGAL: LegalizeStep = LegalizeStep::new(LegalizeAction::Legal);
}

impl fmt::Display for LegalizeStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.action.name())?;
        if self.new_ty.is_valid() {
            write!(f, " type{} to {}", self.type_idx, self.new_ty)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_steps_print() {
        for a in LegalizeAction::ALL {
            assert_eq!(LegalizeAction::from_name(a.name()), Some(a));
            assert_eq!(LegalizeAction::from_code(a.code()), a);
        }
        assert_eq!(LegalizeAction::from_name("Widen"), None);
        let step = LegalizeStep::with_type(LegalizeAction::WidenScalar, 0, Llt::scalar(32));
        assert_eq!(step.to_string(), "WidenScalar type0 to s32");
        assert_eq!(LegalizeStep::LEGAL.to_string(), "Legal");
        assert!(LegalizeAction::Bitcast.changes_type() && !LegalizeAction::Lower.changes_type());
    }
}
