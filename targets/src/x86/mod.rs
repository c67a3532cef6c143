//! X86 (32- and 64-bit): the subtarget from the triple, the CPU and
//! `-mattr`, LLVM 22's legality rules, and the hooks (custom conversions
//! and stores, library calls under the System V conventions).

mod build_vector;
mod calls;
pub mod hooks;
mod rounding;
pub mod rules;
pub mod subtarget;
mod x87;

#[cfg(test)]
mod tests;

use crate::{Target, TargetOptions};
pub use subtarget::Subtarget;

/// The target for an `x86_64*`/`i386*`..`i686*` triple, or `None` for
/// another.
pub fn target(triple: &str, options: &TargetOptions) -> Option<Target> {
    let st = Subtarget::new(triple, &options.features)?;
    let info = rules::x86(&st);
    Some(Target { info, hooks: Box::new(hooks::X86Hooks::new(st)) })
}
