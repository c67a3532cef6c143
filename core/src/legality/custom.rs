//! What a target's custom legalization reports back. The hook itself is
//! [`LegalizeTarget::legalize_custom`](crate::legalize::LegalizeTarget::legalize_custom),
//! which the engine calls for rules whose action is `Custom`.

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
