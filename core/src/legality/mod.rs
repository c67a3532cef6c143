//! Legality rules as data: what the legalizer asks ([`LegalityQuery`]),
//! what the rules answer ([`LegalizeStep`]), the rules themselves
//! ([`Rule`]: a [`Predicate`], a [`LegalizeAction`] and an optional
//! [`Mutation`], all plain enums), rule sets built with the snake_case
//! counterparts of LLVM's `LegalizeRuleSet` methods ([`RuleSet`]), and a
//! target's whole table ([`LegalizerInfo`]) with a cached, thread-safe
//! `action` query, [`LegalizerInfo::explain`], whole-target checks
//! ([`check`]) and a legality matrix ([`matrix`]).
//!
//! ```
//! use gisel_core::legality::{LegalizerInfo, LegalityQuery, LegalizeAction};
//! use gisel_core::prelude::*;
//! let s32 = Llt::scalar(32);
//! let mut info = LegalizerInfo::new();
//! info.rules_for(&[Opcode::G_ADD, Opcode::G_SUB])
//!     .legal_for([s32])
//!     .widen_scalar_to_next_pow2(0, 0)
//!     .clamp_scalar(0, s32, s32);
//! let step = info.action(&LegalityQuery::new(Opcode::G_SUB, &[Llt::scalar(24)]));
//! assert_eq!(step.action, LegalizeAction::WidenScalar);
//! assert_eq!(step.to_string(), "WidenScalar type0 to s32");
//! ```

/// An [`Origin`] printing `$fmt` when shown: the named `$value`s (clones
/// of what the format names) are kept until then, everything else it
/// names is copied.
macro_rules! origin {
    ($fmt:literal $(, $name:ident = $value:expr)* $(,)?) => {{
        $(let $name = $value;)*
        $crate::legality::Origin::new(move |f| write!(f, $fmt))
    }};
}

mod action;
#[doc(hidden)]
pub mod assert_macro;
mod builder;
mod builder_types;
mod cache;
pub mod check;
mod custom;
mod errors;
pub mod examples;
mod explain;
mod info;
pub mod matrix;
mod matrix_html;
mod mutation;
mod predicate;
pub mod predicates;
mod query;
mod rule;
mod rule_set;

pub use action::{LegalizeAction, LegalizeStep};
pub use custom::CustomOutcome;
pub use errors::{RuleError, StepError};
pub use explain::{Explanation, RuleTrial};
pub use info::{DEFAULT_CACHE_SLOTS, LegalizerInfo};
pub use mutation::{CustomMutation, Mutation, mutations};
pub use predicate::{CustomPredicate, Predicate, TypePairAndMemDesc};
pub use query::{AtomicOrdering, LegalityQuery, MemDesc, parse_type_name};
pub use rule::{Origin, Rule, TypeList};
pub use rule_set::{MAX_TYPE_INDICES, RuleSet, check_step};

#[cfg(test)]
mod tests;
