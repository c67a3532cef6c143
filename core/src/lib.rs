//! gisel-core: LLVM GlobalISel's legalizer model in Rust.
//!
//! The low-level types ([`ty::Llt`]), every generic opcode ([`opcode`]), the
//! generic machine IR ([`ir`]) and the `.mir` reader and writer ([`mir`]).

pub mod mir;
pub mod opcode;
pub mod ty;

/// What a target file needs: `use gisel_core::prelude::*;`.
pub mod prelude {
    pub use crate::opcode::Opcode;
    pub use crate::ty::Llt;
}
