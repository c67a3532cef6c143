//! The hook a target implements for rules whose action is `Custom`.

use super::action::LegalizeStep;

/// What a target's custom legalization did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CustomOutcome {
    /// The instruction was rewritten (or left as is because it is fine);
    /// the legalizer re-queries whatever is there now.
    Done,
    /// The hook could not legalize the instruction: the legalizer reports
    /// it as unable to legalize.
    Failed,
}

/// A target's custom legalization (LLVM's `legalizeCustom` and
/// `legalizeIntrinsic`). `Cx` is whatever context the legalizer engine
/// hands over (the instruction, the IR builder, the observer); this module
/// does not know it, so a target implements the trait for the engine's
/// context type.
pub trait CustomLegalizer<Cx: ?Sized>: Send + Sync {
    /// Legalizes the instruction `cx` points at, for which the rules
    /// answered `step` (action `Custom`).
    fn legalize_custom(&self, cx: &mut Cx, step: &LegalizeStep) -> CustomOutcome;

    /// Legalizes a `G_INTRINSIC*` instruction; intrinsics are never matched
    /// against rules. The default leaves it as it is.
    fn legalize_intrinsic(&self, cx: &mut Cx) -> CustomOutcome {
        let _ = cx;
        CustomOutcome::Done
    }
}
