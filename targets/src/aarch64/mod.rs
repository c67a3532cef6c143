//! AArch64: LLVM 22's `AArch64LegalizerInfo` as gisel rules ([`rules`]),
//! the subtarget features they depend on ([`subtarget`]), and the hooks
//! for custom legalization and library calls ([`hooks`], [`custom`]).

pub mod custom;
pub mod hooks;
mod intrinsics;
pub mod rules;
pub mod subtarget;
#[cfg(test)]
mod tests;

pub use hooks::AArch64Hooks;
pub use rules::aarch64_rules;
pub use subtarget::{CodeModel, Subtarget};

use crate::{Target, TargetOptions};

/// The AArch64 target for `triple` and the llc options.
pub fn target(triple: &str, options: &TargetOptions) -> Target {
    let subtarget = Subtarget::new(triple, &options.features, options.code_model.as_deref(), options.opt_level);
    Target { info: aarch64_rules(&subtarget), hooks: Box::new(AArch64Hooks::new(subtarget)) }
}
