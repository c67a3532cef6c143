//! gisel-core: LLVM GlobalISel's legalizer model in Rust.
//!
//! The low-level types ([`ty::Llt`]), every generic opcode ([`opcode`]), the
//! generic machine IR ([`ir`]) and the `.mir` reader and writer ([`mir`]).

pub mod apint;
pub mod interp;
pub mod ir;
pub mod legality;
pub mod legalize;
pub mod llvm_ir;
pub mod mir;
pub mod name_list;
pub mod opcode;
pub mod ty;

/// What a target file needs: `use gisel_core::prelude::*;`.
pub mod prelude {
    pub use crate::legality::{
        AtomicOrdering, LegalityQuery, LegalizeAction, LegalizeStep, LegalizerInfo, MemDesc, Mutation, Predicate,
        RuleSet,
    };
    pub use crate::opcode::Opcode;
    pub use crate::ty::Llt;
}
