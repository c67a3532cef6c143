//! The iterative legalizer: turns generic MIR into what a target's rules
//! accept, one step at a time, with artifacts combined away as it goes.
//!
//! [`legalize`] is the pass; [`Helper`] applies one step by the action the
//! rules chose (widen and narrow scalar so far: see the module docs of each
//! action for what is implemented); [`LegalizeTarget`] is what a target adds
//! beyond its rules; [`legalize_traced`] runs the pass with an observer
//! that sees every step as a [`LegalizeEvent`].

pub mod call;
pub(crate) mod combiner;
mod cse;
mod driver;
mod helper;
mod known_bits;
mod lineage;
mod query;
mod salvage;
mod tail_call;
mod target;
mod trace;
mod worklist;

pub use cse::CseMode;
pub use driver::{LegalizeError, LegalizeOptions, LegalizeStats, legalize, legalize_traced};
pub use helper::{Helper, StepResult, piece_mem};
pub use known_bits::{MAX_DEPTH as KNOWN_BITS_MAX_DEPTH, known_zero};
pub use query::{QueryParts, describe, mem_desc};
pub use target::{BooleanContent, DefaultTarget, LegalizeTarget, LibcallRequest, LibcallValue, RuntimeFunction};
pub use trace::LegalizeEvent;

#[cfg(test)]
mod oracle_tests;
#[cfg(test)]
mod tests;
